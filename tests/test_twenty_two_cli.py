"""`sleuth` on Twenty-Two records: analyze (text and --json), --as, log, why, simulate."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.records import parse_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "twenty-two"
MID = SAMPLES / "standard-ana-midhand.txt"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_analyze_mid_hand_text():
    r = run("analyze", MID)
    assert r.exit_code == 0, r.output
    for part in ("view: Ana", "Now: Ana to play", "Your hand:", "Unseen cards (I1)",
                 "Your legal plays", "beat-or-tie", "Scores (out at 22)",
                 "Closest to elimination: Ben, Cleo"):
        assert part in r.output, part


def test_analyze_json_contract():
    r = run("analyze", MID, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["game"] == "twenty-two" and out["view"] == "Ana" and out["consistent"] is True
    assert isinstance(out["exact"], bool)
    assert len(out["cards"]) == 52
    for name, locs in out["cards"].items():
        assert sum(locs.values()) == pytest.approx(1.0), name
        assert set(locs) <= {"Ana", "Ben", "Cleo", "stock", "discards", "out"}
        assert all(p > 0 for p in locs.values())
    assert out["cards"]["4S"] == {"out": 1.0}                  # led by Cleo
    plays = out["plays"]
    assert plays and all(0 <= p["p_highest_last"] <= 1 for p in plays)
    assert {tuple(p["cards"]) for p in plays} >= {("6D", "10H", "10D"), ("QD", "KC", "AS")}
    assert out["deal"]["turn"] == "follow" and out["deal"]["to_act"] == ["Ana"]
    assert out["scores"]["Ben"]["total"] == 9 and out["closest_to_elimination"] == ["Ben", "Cleo"]


@pytest.mark.parametrize("name", ["standard.txt", "rasmussen.txt", "twenty-six.txt"])
def test_complete_samples_analyse_from_every_seat(name):
    for seat in ("Ana", "Ben", "public"):
        r = run("analyze", SAMPLES / name, "--as", seat, "--json")
        assert r.exit_code == 0, (seat, r.output)
        out = json.loads(r.output)
        assert out["game_over"] is True and out["winners"]
        assert out["view"] == (None if seat == "public" else seat)


def test_twenty_six_json_counts_copies():
    out = json.loads(run("analyze", SAMPLES / "twenty-six.txt", "--json").output)
    assert len(out["cards"]) == 53                                  # 52 names + Jk
    assert sum(out["cards"]["Jk"].values()) == pytest.approx(4)
    assert sum(out["cards"]["7H"].values()) == pytest.approx(2)


def test_as_other_player_needs_a_complete_record():
    r = run("analyze", MID, "--as", "Ben")
    assert r.exit_code == 2 and "complete record" in r.output


def test_log_accepts_refuses_and_reports_conflicts(tmp_path):
    game = tmp_path / "g.txt"
    shutil.copy(MID, game)
    before = game.read_text()
    r = run("log", game, "Ana plays KC AS AH")
    assert r.exit_code == 0, r.output
    assert game.read_text().endswith("Ana plays KC AS AH\n")
    # illegal: does not beat 4-4-4 and is not Ben's lowest -- unknown hand, so only the
    # public rules apply; a play of the wrong size is refused naming TT-10
    r = run("log", game, "Ben plays 2C 2D")
    assert r.exit_code == 2 and "TT-10" in r.output
    # Ana's own hand is known: she cannot play a card she does not hold
    shutil.copy(MID, game)
    r = run("log", game, "Ana plays 2C 3C 4C")
    assert r.exit_code == 2 and "TT-10" in r.output and game.read_text() == before
    # inconsistent: Ben's lowest-cards play leaves nothing below 8, then he plays a 2
    r = run("log", game, "Ana plays KC AS AH; Ben 8S 8D 8C")
    assert r.exit_code == 0, r.output
    after = game.read_text()
    r = run("log", game, "Ana leads 6D; Ben 2C; Cleo 7S")
    assert r.exit_code == 3, r.output
    assert "inconsistent" in r.output and game.read_text() == after


def test_why_explains_a_certainty():
    r = run("why", MID, "4S")
    assert r.exit_code == 0, r.output
    assert "4S: certainly out" in r.output and "Cleo leads 4S 4H 4D" in r.output


def test_simulate_all_variants_deterministic(tmp_path):
    for variant in ("standard", "rasmussen", "twenty-six"):
        a = run("simulate", "twenty-two", "--players", 3, "--variant", variant, "--seed", 5)
        b = run("simulate", "twenty-two", "--players", 3, "--variant", variant, "--seed", 5)
        assert a.exit_code == 0 and a.output == b.output
        rec = parse_record(a.output)
        assert rec.header.players == ("Ana", "Ben", "Cleo")
    out = tmp_path / "s.txt"
    assert run("simulate", "twenty-two", "--players", 4, "--seed", 1, "--events", 12, "-o",
               out).exit_code == 0
    assert len(parse_record(out.read_text()).statements) == 12
    r = run("simulate", "twenty-two", "--players", 3, "--variant", "rasmussen,twenty-six")
    assert r.exit_code == 2 and "TT-V1/TT-V2" in r.output


def test_new_then_log_a_deal(tmp_path):
    game = tmp_path / "g.txt"
    r = run("new", "twenty-two", game, "--players", "Ana Ben Cleo", "--me", "Ana",
            "--dealer", "Cleo", "--variant", "rasmussen")
    assert r.exit_code == 0, r.output
    assert run("log", game, "Cleo deals 7").exit_code == 0
    assert run("log", game, "Ana holds: 2C 3C 4C 5C 6C 7C 8C").exit_code == 0
    r = run("log", game, "Ben leads 9D")
    assert r.exit_code == 2 and "TT-9" in r.output
    r = run("analyze", game)
    assert r.exit_code == 0 and "Now: Ana to exchange" in r.output
