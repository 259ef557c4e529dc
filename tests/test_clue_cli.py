"""Clue through the command line: new, log, analyze (--as, --json), why, replay, simulate,
play -- the generic verbs, with nothing Clue-specific in them."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from tests.helpers import SMALL_CLUE


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_a_game_from_new_to_accuse(tmp_path):
    rec = str(tmp_path / "game.txt")
    r = run("new", "clue", rec, "--players", "Ana Ben Cleo Dev", "--me", "Ana", "--dealer", "Dev")
    assert r.exit_code == 0, r.output
    for line in ("Ana holds: Scarlet Rope Kitchen Hall Study",
                 "Ana suggests Plum Knife Library: Cleo shows Knife",
                 "Ben suggests Plum Rope Lounge: Ana shows Rope",
                 "Cleo suggests Mustard Pipe Ballroom: nobody",
                 "Dev accuses Green Wrench Study: wrong"):
        r = run("log", rec, line)
        assert r.exit_code == 0, r.output
    text = open(rec).read()
    assert "Ana suggests Plum Knife Library: Cleo shows Knife" in text     # as typed
    r = run("analyze", rec, "--json")
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["game"] == "clue" and out["view"] == "Ana" and out["exact"]
    assert out["cards"]["Knife"] == {"Cleo": 1.0} and out["cards"]["Plum"] == {"envelope": 1.0}
    assert out["envelope"]["candidates"] == 24 and not out["envelope"]["determined"]
    assert out["envelope"]["top"][0]["cards"][0] == "Plum"
    assert all(set(v) <= {"Ana", "Ben", "Cleo", "Dev", "envelope"} for v in out["cards"].values())
    r = run("analyze", rec)
    assert "FILE" in r.output and "Possible case files: 24 of 324" in r.output
    r = run("why", rec, "Plum")
    assert r.exit_code == 0 and "case file" in r.output
    r = run("analyze", rec, "--as", "public", "--json")
    assert json.loads(r.stdout)["view"] is None
    # a contradiction is refused with the lines (exit 3), the file untouched
    r = run("log", rec, "Ana suggests Scarlet Knife Hall: Ben shows Knife")
    assert r.exit_code == 3 and "line" in r.output
    assert open(rec).read() == text
    # a rule is refused (exit 2): Dev is out (CL-9)
    r = run("log", rec, "Dev suggests Plum Knife Hall: ?")
    assert r.exit_code == 2 and "CL-9" in r.output
    r = run("replay", rec)
    assert r.exit_code == 0 and "case files" in r.output


def test_accuse_the_moment_it_is_determined(tmp_path):
    rec = tmp_path / "g.txt"
    rec.write_text(SMALL_CLUE + "Ana suggests Maid Rope Garden: Ben shows Garden\n"
                   "Ana suggests Maid Axe Hall: Ben shows Axe\n")
    r = run("analyze", str(rec))
    assert "Verdict: not determined: 2 possible case files" in r.output
    assert "accuse" not in r.output
    with open(rec, "a") as f:
        f.write("Ana suggests Maid Rope Hall: Ben passes, Cleo shows Hall\n")
    r = run("analyze", str(rec))
    assert r.exit_code == 0 and "Verdict: accuse: Maid Rope Attic" in r.output
    assert "You can accuse now: Maid Rope Attic" in r.output
    out = json.loads(run("analyze", str(rec), "--json").stdout)
    assert out["envelope"] == {"determined": True, "candidates": 1,
                               "top": [{"cards": ["Maid", "Rope", "Attic"], "p": 1.0}]}


def test_simulate_then_analyze_every_view(tmp_path):
    out = str(tmp_path / "sim.txt")
    r = run("simulate", "clue", "--players", "5", "--seed", "4", "--miss", "0.3",
            "--variant", "leftovers=face-up", "--events", "12", "-o", out)
    assert r.exit_code == 0, r.output
    text = open(out).read()
    assert "faceup:" in text and "variant: leftovers=face-up" in text
    for view in ("Ana", "Eli", "public"):
        r = run("analyze", out, "--as", view, "--json")
        assert r.exit_code == 0 and json.loads(r.stdout)["consistent"]
        locs = {l for v in json.loads(r.stdout)["cards"].values() for l in v}
        assert locs <= {"Ana", "Ben", "Cleo", "Dev", "Eli", "envelope", "faceup"}


def test_play_logs_and_shows_the_notebook(tmp_path):
    rec = tmp_path / "g.txt"
    rec.write_text("game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
                   "Ana holds: Scarlet Rope Kitchen Hall Study\n")
    r = run("play", str(rec), input="Ana suggests Plum Knife Library: Cleo shows Knife\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Cleo shows Knife" in rec.read_text()
    assert "FILE" in r.output


def test_serve_shows_the_notebook_through_the_generic_page(tmp_path):
    import shutil

    import pytest

    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from web.app import create_app

    rec = tmp_path / "g.txt"
    shutil.copy("samples/clue/four-players-ana.txt", rec)
    app = create_app(str(rec), token="t", token_required=False, loopback=True)
    c = TestClient(app, base_url="http://127.0.0.1:8765")
    html = c.get("/live").text
    assert "Possible case files" in html and 'class="verdict"' in html
    assert 'aria-label="Knife: ' in html            # the notebook as a grid (web/clue.py)
    r = c.post("/do", json={"line": "Ben suggests Green Rope Hall: Cleo shows",
                            "version": None}, headers={"X-Sleuth-Token": "t"})
    assert r.status_code == 200 and r.json()["saved"]
    assert "Ben suggests Green Rope Hall: Cleo shows" in rec.read_text()
