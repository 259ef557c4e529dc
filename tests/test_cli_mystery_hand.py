"""The sleuth CLI on Mystery Hand records: every generic command and every exit code."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.test_mystery_hand_examples import EX1

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "mystery-hand"


@pytest.fixture
def runner():
    return CliRunner()


def run(runner, *args):
    return runner.invoke(cli, list(args), catch_exceptions=False)


def test_demo_prints_the_sheet_and_verdict(runner):
    r = run(runner, "demo")
    assert r.exit_code == 0, r.output
    assert "Memory sheet" in r.output and "Verdict:" in r.output


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_every_sample_analyses_with_contract_json(runner, path):
    r = run(runner, "analyze", str(path), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["game"] == "mystery-hand" and out["consistent"] is True
    assert out["exact"] is True
    assert set(out) >= {"game", "view", "consistent", "exact", "cards", "mystery"}
    assert len([c for c in out["cards"] if c != "Jk"]) == 52
    for card, locs in out["cards"].items():
        total = 2.0 if card == "Jk" else 1.0
        assert abs(sum(locs.values()) - total) < 1e-9, card
        assert all(v > 0 for v in locs.values())
    mys = out["mystery"]
    assert set(mys) >= {"determined", "candidates", "top"}
    if mys["top"]:
        assert mys["top"][0]["p"] >= mys["top"][-1]["p"]
    text = run(runner, "analyze", str(path))
    assert text.exit_code == 0 and "Memory sheet" in text.output


def test_complete_record_from_another_seat_and_public(runner):
    path = SAMPLES / "seven-players.txt"
    for who in ("Ben", "public"):
        r = run(runner, "analyze", str(path), "--as", who, "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["view"] == (None if who == "public" else who)


def test_other_view_of_a_partial_record_is_refused(runner):
    r = run(runner, "analyze", str(SAMPLES / "five-players-ana.txt"), "--as", "Ben")
    assert r.exit_code == 2 and "complete record" in r.output


def test_new_log_analyze_why_roundtrip(runner, tmp_path):
    rec = tmp_path / "game.txt"
    r = run(runner, "new", "mystery-hand", str(rec), "--players", "P1 P2 P3 P4", "--me", "P1",
            "--dealer", "P4")
    assert r.exit_code == 0, r.output
    for line in ("P1 holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC",
                 "P1 asks P2 4H-7H: 4H 7H", "P2 asks all 6*: P1 1, P3 1, P4 2",
                 "P2 requests KS: nobody"):
        r = run(runner, "log", str(rec), line)
        assert r.exit_code == 0, r.output
    out = json.loads(run(runner, "analyze", str(rec), "--json").output)
    assert out["cards"]["KS"] == {"mystery": 1.0}
    assert set(out["cards"]["6H"]) == {"P3", "P4"}
    r = run(runner, "why", str(rec), "KS")
    assert r.exit_code == 0
    assert "certainly in the mystery hand" in r.output and "P2 requests KS: nobody" in r.output
    assert "<- line 8\n" in r.output          # one line: 'line', not 'lines'


def test_log_refuses_a_parse_error_and_leaves_the_file(runner, tmp_path):
    rec = tmp_path / "g.txt"
    rec.write_text(EX1)
    before = rec.read_bytes()
    r = run(runner, "log", str(rec), "P3 asks P4 4H-8H: 0")
    assert r.exit_code == 2
    assert "4H-8H" in r.output and "MH-9" in r.output and "g.txt:11:12:" in r.output
    assert rec.read_bytes() == before


def test_log_refuses_an_illegal_ask(runner, tmp_path):
    rec = tmp_path / "g.txt"
    rec.write_text(EX1)
    r = run(runner, "log", str(rec), "P3 asks P1 2C-5C: 2C 3C 4C 5C")
    assert r.exit_code == 0
    # P3 took an extra turn? no: 4 shown earns one; P3 holds none of 2C-5C so it may ask again
    r = run(runner, "log", str(rec), "P3 asks P1 8H-JH: 0")
    assert r.exit_code == 2 and "MH-11" in r.output
    r = run(runner, "log", str(rec), "P1 asks P3 9H-QH: 9H")
    assert r.exit_code == 2 and "MH-7" in r.output  # P3 holds the extra turn, not P1


def test_log_refuses_a_contradiction_with_the_lines(runner, tmp_path):
    rec = tmp_path / "g.txt"
    rec.write_text(EX1)
    before = rec.read_bytes()
    # P3 says it has no 6: but P3 laid down one six on line 9 (and holds 6H on line 6)
    r = run(runner, "log", str(rec), "P3 asks P4 6*: 6D 6C")  # fine: P4 holds 6D 6C
    assert r.exit_code == 0
    before = rec.read_bytes()
    r = run(runner, "log", str(rec), "P4 asks P3 3H-6H: 3H")  # P3 holds 6H too (line 6)
    assert r.exit_code == 3
    assert "line 6:" in r.output and "line 12:" in r.output
    assert rec.read_bytes() == before
    # --force saves it all the same, and says it contradicts the record
    r = run(runner, "log", str(rec), "P4 asks P3 3H-6H: 3H", "--force")
    assert r.exit_code == 0 and rec.read_bytes() != before
    assert r.stderr.startswith("warning: saved with --force, and the record contradicts")
    assert "line 6:" in r.stderr and "--replace N" in r.stderr
    r = run(runner, "log", str(rec), "--replace", "12", "P4 asks P3 3H-6H: 3H 6H")
    assert r.exit_code == 0 and not r.stderr
    # an inconsistent record also exits 3 from analyze, with the contract's JSON
    bad = tmp_path / "bad.txt"
    bad.write_text("game: mystery-hand\nplayers: A B C D\nme: A\n"
                   "A holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
                   "A asks B 4H-7H: 4H 7H\n"
                   "B asks all 6*: A 1, C 1, D 2\n"
                   "B requests 4H: nobody\n")
    r = run(runner, "analyze", str(bad), "--json")
    assert r.exit_code == 3
    assert json.loads(r.stdout) == {"consistent": False, "conflict": [5, 7]}


def test_parse_error_in_a_record_names_line_and_column(runner, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("game: mystery-hand\nplayers: A B C\nA asks B 4H-7Z: 0\n")
    r = run(runner, "analyze", str(bad))
    assert r.exit_code == 2
    assert "bad.txt:3:10" in r.output and "'4H-7Z'" in r.output


def test_simulate_is_deterministic_and_writes_a_valid_record(runner, tmp_path):
    a = run(runner, "simulate", "mystery-hand", "--players", "5", "--variant", "sneak",
            "--seed", "7")
    b = run(runner, "simulate", "mystery-hand", "--players", "5", "--variant", "sneak",
            "--seed", "7")
    assert a.exit_code == 0 and a.output == b.output
    out = tmp_path / "sim.txt"
    r = run(runner, "simulate", "mystery-hand", "--players", "8", "--seed", "1", "--events",
            "20", "-o", str(out))
    assert r.exit_code == 0
    r = run(runner, "analyze", str(out), "--as", "Cleo", "--json")
    assert r.exit_code == 0


def test_new_refuses_bad_headers(runner, tmp_path):
    r = run(runner, "new", "mystery-hand", str(tmp_path / "x.txt"), "--players", "A B C",
            "--variant", "two-player=blind")
    assert r.exit_code == 2 and "MH-28" in r.output
    r = run(runner, "new", "mystery-hand", str(tmp_path / "y.txt"), "--players", "A B C",
            "--variant", "sneaky")
    assert r.exit_code == 2 and "'sneaky'" in r.output
    assert not (tmp_path / "y.txt").exists()
    # about the options, not a line of a file that is not written
    r = run(runner, "new", "mystery-hand", str(tmp_path / "z.txt"), "--players", "A B C",
            "--me", "Anna")
    assert r.exit_code == 2
    assert r.stderr.startswith("sleuth: error: 'me:' must name one of the players (A B C); "
                               "nothing was written: 'Anna'")


def test_unseen_statements_through_play_why_replay_and_json(runner, tmp_path):
    """issue 13: the lossy sample, typed line by line into ``sleuth play``, then ``why``
    citing an unseen answer, ``replay --json`` and ``analyze --json``."""
    from solver.records import read_record

    src = read_record(str(SAMPLES / "lossy-five-players.txt"))
    path = tmp_path / "g.txt"
    path.write_text("\n".join(src.header.lines()) + "\n", encoding="utf-8")
    r = runner.invoke(cli, ["play", str(path), "--no-sheet"],
                      input="".join(s.text + "\n" for s in src.statements))
    assert r.exit_code == 0, r.output
    assert "refused" not in r.output
    assert [s.text for s in read_record(str(path)).statements] == \
        [s.text for s in src.statements]
    r = run(runner, "replay", str(path), "--json")
    assert r.exit_code == 0, r.output
    views = json.loads(r.output)["views"]
    steps = (list(views.values()) if isinstance(views, dict) else views)[0]["steps"]
    assert any(s["statement"] in ("Eli: ?", "Dev: ?") for s in steps)
    assert any(s["statement"] == "turn: Cleo" for s in steps)
    # an extra turn after an ask-all with an unseen count (MH-14): why cites the '?' line
    rec = tmp_path / "x.txt"
    rec.write_text(EX1.split("P1 asks")[0].replace("dealer: P4\n", "dealer: P4\nme: P1\n")
                   + "P1 asks all 8H-JH: P2 0, P3 ?, P4 0\nP1 asks P2 4H-7H: 4H 7H\n", encoding="utf-8")
    r = run(runner, "why", str(rec), "8H")
    assert r.exit_code == 0 and "P1 asks all 8H-JH: P2 0, P3 ?, P4 0" in r.output, r.output
    r = run(runner, "analyze", str(rec), "--json")
    assert r.exit_code == 0 and json.loads(r.output)["cards"]["8H"] == {"P3": 1.0}


def _uncounted_state(tmp_path, monkeypatch):
    """An 8-player state whose card probabilities are exact but whose candidate hands
    cannot be counted: the first player after 22 statements of the benchmark's second
    game, under session 15's budget for the tagged programme of the candidate sets, and
    with the count's own programme (counting.possible_sets) made to give up (every
    player's view of the benchmarks is counted by either)."""
    from solver.model import counting
    from solver.mystery_hand import analysis

    monkeypatch.setattr(analysis, "SETS_STRETCH", (4.0, 40.0))
    monkeypatch.setattr(counting, "possible_sets", lambda *a, **k: None)
    from solver.mystery_hand.inference import as_written_by
    from solver.mystery_hand.simulate import simulate
    from solver.records import write_record

    full = simulate(8, [], 1)
    rec = as_written_by(full, full.header.me).prefix(22)
    path = tmp_path / "eight.txt"
    path.write_text(write_record(rec))
    return path


def test_the_sheet_gives_bounds_when_the_candidates_are_not_counted(runner, tmp_path,
                                                                    monkeypatch):
    """Where the candidates cannot be counted (both programmes over budget, here forced),
    the sheet gives bounds, not a count, and that the sheet itself is exact; no drawn hand
    stands out from the rest there, so none is named (the bound on each one's chance is
    the estimate); the JSON has a null count with the bounds."""
    path = _uncounted_state(tmp_path, monkeypatch)
    data = json.loads(run(runner, "analyze", str(path), "--json").output)
    assert data["exact"] is True
    mys = data["mystery"]
    assert mys["candidates"] is None and mys["candidates_exact"] is False
    assert mys["top"] == [] and mys["top_withheld"] is True
    assert 0 < mys["top_p_at_most"] < 0.01 and mys["top_samples"] > 0
    lo, hi = mys["candidates_at_least"], mys["candidates_at_most"]
    assert 0 < lo < hi
    out = " ".join(run(runner, "analyze", str(path), "--no-exposure").output.split())
    assert f"between {lo} and {hi}" in out
    assert "No hand stands out" in out and "no best guess" in out
    assert "Probabilities: exact on the sheet, estimated for the bound on each hand" in out


def test_the_sheet_and_the_json_name_the_same_best_guess(runner):
    """Tied hands come in one order everywhere (most likely first, then card order): the
    sheet's verdict, its list and --json's top and verdict name the same hand."""
    path = "samples/mystery-hand/five-players-ana.txt"
    text = run(runner, "analyze", path).output
    data = json.loads(run(runner, "analyze", path, "--json").output)
    top = data["mystery"]["top"]
    assert top[0]["p"] == top[1]["p"]                   # a tie at the top
    best = " ".join(top[0]["cards"])
    assert f"a best guess, {best}, is right" in " ".join(text.split())
    assert f"best guess {best} is right" in data["verdict"]
    first = next(ln for ln in text.splitlines() if ln.strip().startswith("1 "))
    assert best in first


def test_a_rule_error_points_at_the_card_at_fault(runner, tmp_path):
    """The column is the faulty token's, not the statement's start (a shown card outside
    the query, a card already placed elsewhere: MH-1, naming both lines)."""
    rec = tmp_path / "g.txt"
    rec.write_text(EX1)
    n = len(EX1.splitlines()) + 1
    r = run(runner, "log", str(rec), "P3 asks P4 5H-8H: 4H")
    assert r.exit_code == 2
    assert f"g.txt:{n}:19: 4H is not in 5H-8H (MH-10)" in r.stderr
    r = run(runner, "log", str(rec), "P3 asks P4 6*: 6H")      # 6H: P3's own (line 6)
    assert r.exit_code == 2 and f"g.txt:{n}:16: 6H would be in two places (P3 on line 6 " \
        f"and P4 on line {n}) (MH-1): 'P3 asks P4 6*: 6H'" in r.stderr
    assert "inconsistent" not in r.stderr and "  line 6: " not in r.stderr
    assert rec.read_text() == EX1
