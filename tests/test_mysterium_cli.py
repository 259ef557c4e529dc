"""Mysterium through the CLI: analyze, --json, log (accept / refuse), why, simulate, setup."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "mysterium"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.txt")))
def test_samples_analyse(name):
    r = run("analyze", SAMPLES / name)
    assert r.exit_code == 0, r.output
    assert "Candidates" in r.output and "Epilogue" in r.output or "LOST" in r.output
    r = run("analyze", SAMPLES / name, "--json", "--as", "public")
    assert r.exit_code == 0, r.output
    js = json.loads(r.output)
    assert js["game"] == "mysterium" and js["view"] is None
    assert js["consistent"] is True and js["exact"] is True
    assert js["clock"]["outcome"] in ("won", "lost")


def test_analyze_text_shows_candidates_clock_and_clairvoyance(tmp_path):
    text = (SAMPLES / "five-players-won.txt").read_text()
    cut = text.split("reveal Ana: wrong")[0]
    f = tmp_path / "g.txt"
    f.write_text(cut)
    r = run("analyze", f)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "hour 2 of 7" in out and "the psychics can still win" in out
    assert "9: 30.8%" in out                  # Ben's character 9 at 4/13 (D2)
    assert "Clock (D3)" in out and "Clairvoyancy (D5" in out
    assert "character 2" in out and "23.1%" in out   # Ben's pending guess, P(right) = 3/13
    js = json.loads(run("analyze", f, "--json").output)
    assert js["view"] == "Ana"
    assert js["psychics"]["Ben"]["stages"]["character"]["candidates"]["9"] == pytest.approx(4 / 13)
    assert js["visions"]["crows_left"] == 2
    assert js["epilogue"] is None


def test_tie_break_and_loss_are_rendered():
    out = run("analyze", SAMPLES / "six-players-tie-break.txt").output
    assert "groups 1, 2 tie" in out and "verdict: group 2" in out and "WIN" in out
    out = run("analyze", SAMPLES / "three-players-lost.txt").output
    assert "LOST (MY-15)" in out and "ghost's view" in out
    out = run("analyze", SAMPLES / "three-players-lost.txt", "--as", "Ana").output
    assert "forced 7" in out


def test_new_and_log_accept_and_refuse(tmp_path):
    f = tmp_path / "game.txt"
    r = run("new", "mysterium", f, "--players", "Gus Ana Ben Cleo", "--header", "ghost=Gus",
            "--me", "Ana", "--variant", "easy")
    assert r.exit_code == 0, r.output
    for stmt in ("table character: 1 2 3 4 5", "table location: 1 2 3 4 5",
                 "table object: 1 2 3 4 5", "hour 1", "Ana guesses character 1: wrong"):
        r = run("log", f, stmt)
        assert r.exit_code == 0, r.output
    before = f.read_text()
    r = run("log", f, "Ana guesses character 2: wrong")          # MY-10: one guess an hour
    assert r.exit_code == 2 and "MY-10" in r.output
    r = run("log", f, "Ana guesses", "character", "9: wrong")      # not on the table
    assert r.exit_code == 2
    r = run("log", f, "Zed agrees with Ana")                        # unknown psychic
    assert r.exit_code == 2 and "unknown psychic" in r.output
    assert f.read_text() == before
    assert run("log", f, "Ben guesses character 2: right").exit_code == 0
    r = run("log", f, "Cleo guesses character 2: right")            # two right on one card
    assert r.exit_code == 2 and "MY-10" in r.output and "into Ben's sleeve" in r.output
    assert "game.txt:12:24:" in r.output                            # the card number
    assert "Cleo guesses" not in f.read_text()
    for stmt in ("Cleo guesses character 3: wrong", "hour 2"):
        assert run("log", f, stmt).exit_code == 0
    r = run("log", f, "Ana guesses character 1: right")             # wrong on line 10
    assert r.exit_code == 3
    assert "these 2 statements cannot all be true: line 10 says" in r.output
    assert "  line 10: Ana guesses character 1: wrong\n" in r.output
    assert "  line 14: Ana guesses character 1: right" in r.output
    r = run("log", f, "--force", "Ana guesses character 1: right")
    assert r.exit_code == 0
    r = run("analyze", f, "--json")
    assert r.exit_code == 3
    assert json.loads(r.output.split("sleuth:")[0]) == {"consistent": False, "conflict": [10, 14]}


def test_bad_records_exit_two(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("game: mysterium\nplayers: Gus Ana Ben Cleo\ntable character: 1 2 3\n")
    r = run("analyze", f)
    assert r.exit_code == 2 and "MY-4" in r.output and ":3:" in r.output
    f.write_text("game: mysterium\nvariant: tie-break=coin\nplayers: Gus Ana Ben Cleo\n")
    assert run("analyze", f).exit_code == 2


def test_why_simulate_and_setup(tmp_path):
    r = run("why", SAMPLES / "three-players-lost.txt", "object 7", "--as", "Ana")
    assert r.exit_code == 0, r.output
    assert "certainly with psychic Ben-2" in r.output
    r = run("why", SAMPLES / "three-players-lost.txt", "C99")
    assert r.exit_code == 2
    out = tmp_path / "sim.txt"
    r = run("simulate", "mysterium", "--players", 6, "--seed", 4, "-o", out)
    assert r.exit_code == 0, r.output
    assert run("analyze", out, "--as", "Gus").exit_code == 0
    r = run("mysterium", "setup", "--json")
    rows = json.loads(r.output)
    assert len(rows) == 18 and {"players": 5, "difficulty": "hard", "psychics": 4,
                                "cards_per_kind": 8, "clairvoyance_tokens": 4,
                                "crows": {"total": 1}} in rows
    r = run("mysterium", "setup", "--players", 3, "--difficulty", "easy")
    assert r.exit_code == 0 and "1 per hour" in r.output
