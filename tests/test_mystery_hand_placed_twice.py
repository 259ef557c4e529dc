"""A card two lines put in two places (MH-1) is a contradiction between those lines, not an
illegal move: refused with exit 3 and both lines (README: "a contradiction is refused with
the conflicting lines"), the sentence saying where each puts it; ``--force`` and play's
``force`` save it, play offers to edit the earlier line."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import InconsistentError
from solver.games import get_game
from solver.records import parse_record

HEAD = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
        "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"     # line 5
        "Ana asks Ben 4H-7H: 4H 7H\n"                           # line 6: 4H is Ben's
        "Ben asks all 6*: Ana 1, Cleo 1, Dev 2\n"
        "Ben requests KS: nobody\n")                            # line 8; Cleo's turn


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def record(tmp_path):
    p = tmp_path / "p5.txt"
    p.write_text(HEAD + "turn: Ana\n")                          # line 9
    return p


def test_log_refuses_it_as_a_contradiction_with_both_lines(record):
    before = record.read_bytes()
    r = run("log", str(record), "Ana requests 4H: Cleo")
    assert r.exit_code == 3, r.output
    assert "4H would be in two places (Ben on line 6 and Cleo on line 10) (MH-1)" in r.stderr
    assert "  line 6: Ana asks Ben 4H-7H: 4H 7H" in r.stderr
    assert "  line 10: Ana requests 4H: Cleo" in r.stderr
    assert record.read_bytes() == before
    r = run("log", str(record), "Ana requests 4H: Cleo", "--force")
    assert r.exit_code == 0 and "contradicts" in r.stderr
    r = run("analyze", str(record), "--json")
    assert r.exit_code == 3
    assert json.loads(r.stdout) == {"consistent": False, "conflict": [6, 10]}
    r = run("analyze", str(record))
    assert "4H would be in two places (Ben on line 6 and Cleo on line 10)" in r.stderr


def test_play_offers_force_and_the_edit_of_the_earlier_line(record):
    from solver.session import Session

    s = Session(str(record))
    o = s.handle("Ana requests 4H: Cleo")
    assert o.kind == "refused" and isinstance(o.error, InconsistentError)
    assert [ln for ln, _ in o.conflict] == [6, 10]
    o = s.handle("force")
    assert o.kind == "accepted" and o.forced
    assert record.read_text().splitlines()[-1] == "Ana requests 4H: Cleo"


def test_the_play_screen_says_edit_6(record):
    from cli.session import render_outcome
    from solver.session import Session

    s = Session(str(record))
    text = render_outcome(s.handle("Ana requests 4H: Cleo"), s, False)
    assert "4H would be in two places (Ben on line 6 and Cleo on line 10)" in text
    assert "'edit 6 <statement>'" in text


@pytest.mark.parametrize("body, lines, sentence", [
    # a card shown that the asker's own hand holds
    ("Ana asks Ben 5C-8C: 5C\n", [5, 6], "5C would be in two places (Ana on line 5 and Ben "
                                         "on line 6)"),
    # a card shown twice by two players
    ("Ana asks Ben 4H-7H: 4H\nBen asks all 6*: Ana 1, Cleo 1, Dev 2\nCleo asks Dev 4H-7H: 4H\n",
     [6, 8], "4H would be in two places (Ben on line 6 and Dev on line 8)"),
    # a right announcement of a card a hand holds
    ("Ana asks Ben 4H-7H: 4H\nBen asks Cleo 4H-7H: 0\nCleo announces KS KH KD 5C: right\n",
     [5, 8], "5C would be in two places (Ana on line 5 and the mystery hand on line 8)"),
])
def test_every_kind_of_placement(body, lines, sentence):
    from solver.mystery_hand.engine import placed_twice, run as engine_run

    rec = parse_record("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
                       "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n" + body)
    engine_run(rec)                                 # no rule of play is broken
    assert placed_twice(rec) is not None
    with pytest.raises(InconsistentError) as e:
        get_game("mystery-hand").check(rec)
    assert e.value.conflict == lines
    assert e.value.reason == sentence + " (MH-1)"


def test_two_hands_of_a_complete_record():
    rec = parse_record("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
                       "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
                       "Ben holds: 5H 6D 2D 3D 4D 5D 7D 8D 9D 10D JD QD\n")
    with pytest.raises(InconsistentError) as e:
        get_game("mystery-hand").check(rec)
    assert e.value.conflict == [4, 5] and "5H would be in two places" in e.value.reason
