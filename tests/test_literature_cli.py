"""``sleuth`` on Literature records: analyze (sheet and JSON), claim, why, log, new,
simulate, and exit 3 with the conflicting lines."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.test_literature_inference import EXA

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "literature"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def write(tmp_path, text, name="game.txt"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_analyze_sheet_and_json(tmp_path):
    p = write(tmp_path, EXA)
    r = run("analyze", p)
    assert r.exit_code == 0, r.output
    assert "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H" in r.output
    assert "Safe claims" in r.output and "Score: team Ana 0, team Ben 0" in r.output
    r = run("analyze", p, "--json")
    d = json.loads(r.output)
    assert d["game"] == "literature" and d["view"] == "Ana" and d["consistent"] is True
    assert set(d["cards"]) >= {"2H", "AS", "QD"} and len(d["cards"]) == 48
    for name, locs in d["cards"].items():
        assert abs(sum(locs.values()) - 1) < 1e-9 and all(v > 0 for v in locs.values())
    h = d["half_suits"]["2H-7H"]
    assert h["status"] == "open" and h["p_team"] == {"Ana": 1.0, "Ben": 0.0}
    assert h["safe_claim"] == {"Ana": ["2H", "3H", "4H", "6H", "7H"], "Cleo": ["5H"]}
    assert d["half_suits"]["9D-AD"]["safe_claim"] is None
    assert set(d["half_suits"]) == {"2S-7S", "9S-AS", "2H-7H", "9H-AH", "2D-7D", "9D-AD",
                                    "2C-7C", "9C-AC"}
    # the public view has no safe claims
    d = json.loads(run("analyze", p, "--json", "--as", "public").output)
    assert d["view"] is None and all(h["safe_claim"] is None for h in d["half_suits"].values())


def test_every_sample_analyses(tmp_path):
    files = sorted(SAMPLES.glob("*.txt"))
    assert len(files) >= 4
    for f in files:
        d = json.loads(run("analyze", f, "--json").output)
        assert d["consistent"] and d["game"] == "literature"
        for h in d["half_suits"].values():
            assert h["status"] == "open" or h["status"] == "cancelled" or \
                h["status"].startswith("won:")


def test_full_game_sample_has_cancelled_and_lost_claims():
    f = SAMPLES / "six-players-full-game.txt"
    d = json.loads(run("analyze", f, "--json", "--as", "Ben").output)
    assert d["over"] and all(h["status"] != "open" for h in d["half_suits"].values())
    outcomes = {h["claim"]["outcome"] for h in d["half_suits"].values()}
    assert {"won", "cancelled", "lost"} <= outcomes
    assert all(v == {"out": 1.0} for v in d["cards"].values())
    r = run("analyze", f)
    assert "Game over" in r.output


def test_claim_command(tmp_path):
    p = write(tmp_path, EXA)
    r = run("literature", "claim", p, "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H")
    assert r.exit_code == 0 and "Certainly correct" in r.output
    r = run("literature", "claim", p, "Ana claims 2H-7H: Ana 2H 3H 4H 5H 6H 7H")
    assert r.exit_code == 0 and "P(won) 0" in r.output and "P(cancelled) certain" in r.output
    r = run("literature", "claim", p, "--json", "Ana claims 9S-AS: Ana 9S, Cleo 10S JS QS KS AS")
    d = json.loads(r.output)
    assert d["kind"] == "turn" and not d["certain"]
    assert abs(d["p_won"] + d["p_cancelled"] + d["p_lost"] - 1) < 1e-9 and d["p_lost"] > 0.9
    assert {x["card"] for x in d["placements"] if not x["certain"]} == {"10S", "JS", "QS",
                                                                         "KS", "AS"}
    r = run("literature", "claim", p, "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Ben 5H")
    assert r.exit_code == 2 and "LIT-11" in r.output


def test_contradiction_exit_3_with_lines(tmp_path):
    p = write(tmp_path, EXA + "Ana asks Ben JS: no\nBen asks Cleo 2H: no\n")
    r = run("analyze", p, "--json")
    assert r.exit_code == 3
    assert json.loads(r.output[:r.output.index("\n}") + 2]) == \
        {"consistent": False, "conflict": [4, 7, 10]}
    # sleuth log refuses the contradicting statement and leaves the file alone
    q = write(tmp_path, EXA + "Ana asks Ben JS: no\n", "g2.txt")
    before = q.read_text()
    r = run("log", q, "Ben asks Cleo 2H: no")
    assert r.exit_code == 3
    assert "line 4: Ana holds" in r.output and "line 7: Cleo asks Ben 3H" in r.output
    assert "line 10: Ben asks Cleo 2H" in r.output
    assert q.read_text() == before
    r = run("log", q, "Ben asks Cleo 9D: no")
    assert r.exit_code == 0 and q.read_text().endswith("Ben asks Cleo 9D: no\n")


def test_rule_errors_exit_2(tmp_path):
    p = write(tmp_path, EXA)
    r = run("log", p, "Ben asks Cleo 9D: no")          # it is Ana's turn
    assert r.exit_code == 2 and "LIT-5" in r.output and "Ana's turn" in r.output
    r = run("log", p, "Ana asks Cleo 9D: no")
    assert r.exit_code == 2 and "LIT-6(a)" in r.output
    r = run("log", p, "Ana asks Ben 2H: no")
    assert r.exit_code == 2 and "LIT-6(d)" in r.output


def test_why(tmp_path):
    p = write(tmp_path, EXA)
    r = run("why", p, "5H")
    assert r.exit_code == 0
    assert "5H: certainly in Cleo's hand" in r.output and "Cleo asks Ben 3H: no" in r.output


def test_new_and_simulate(tmp_path):
    g = tmp_path / "new.txt"
    r = run("new", "literature", g, "--players", "Ana Ben Cleo Dev Eli Fay", "--me", "Ana",
            "--header", "teams=Ana Ben Cleo / Dev Eli Fay", "--variant", "removed-rank=7")
    assert r.exit_code == 0, r.output
    assert "teams: Ana Ben Cleo / Dev Eli Fay" in g.read_text()
    r = run("log", g, "Ana asks Dev AH: no")
    assert r.exit_code == 0, r.output
    r = run("new", "literature", tmp_path / "bad.txt", "--players", "Ana Ben Cleo")
    assert r.exit_code == 2 and "LIT-3" in r.output
    a = run("simulate", "literature", "--players", 6, "--seed", 4)
    b = run("simulate", "literature", "--players", 6, "--seed", 4)
    assert a.exit_code == 0 and a.output == b.output and "Ana holds:" in a.output
    out = tmp_path / "sim.txt"
    r = run("simulate", "literature", "--players", 8, "--variant", "deck=54-jokers",
            "--seed", 1, "--events", 30, "-o", out)
    assert r.exit_code == 0 and "30 statements" in r.output
    assert run("analyze", out, "--json", "--as", "public").exit_code == 0


def test_claim_and_simulated_shown_lines_write_notation(tmp_path):
    """A claim is shown in record notation, never as a dataclass repr (issue 11, item 7)."""
    p = write(tmp_path, EXA)
    claim = "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H"
    r = run("literature", "claim", p, claim)
    assert r.exit_code == 0 and r.output.splitlines()[0] == claim
    r = run("literature", "claim", p, claim, "--json")
    assert json.loads(r.output)["claim"] == claim
    from solver.literature.simulate import simulate
    rec = simulate(6, (), 3)
    assert all(s.text == str(s.event) for s in rec.statements)


@pytest.mark.slow
def test_unseen_statements_through_play_why_replay_and_json(tmp_path):
    """issue 13: unseen statements typed into ``sleuth play``, then ``why`` citing an unseen
    answer, ``replay --json`` and ``analyze --json``."""
    from solver.records import read_record

    path = tmp_path / "g.txt"
    path.write_text("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n",
                    encoding="utf-8")
    lines = ["Ana holds: 2H 3H 4H 6H 7H 9S JC QD", "Ana asks Ben 10S: no",
             "Ben asks Cleo 10H: ?", "Cleo asks Ben 9C: no", "Ben: ?", "turn: Ben",
             "Ben has 9 cards"]
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"],
                           input="".join(x + "\n" for x in lines))
    assert r.exit_code == 0, r.output
    assert "refused" not in r.output
    assert [s.text for s in read_record(str(path)).statements] == lines
    r = run("why", path, "10H")
    assert r.exit_code == 0 and "Ben asks Cleo 10H: ?" in r.output, r.output
    r = run("analyze", path, "--json")
    j = json.loads(r.output)
    assert r.exit_code == 0 and j["exact"] is False and j["counts"]["Ben"] == 9
    assert j["turn"] == "Ben"       # "Ben: ?" then "turn: Ben": he was told yes
    r = run("replay", path, "--json")
    assert r.exit_code == 0, r.output
    views = json.loads(r.output)["views"]
    steps = (list(views.values()) if isinstance(views, dict) else views)[0]["steps"]
    assert any(s["statement"] == "Ben: ?" for s in steps)
