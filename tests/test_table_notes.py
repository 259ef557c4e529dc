"""A note when setup statements the rules call for are missing (issue 14, item 5), in every
game: each case is a record without one setup line (the note names it and cites the rule),
and the same record with it (no note).  Through ``sleuth analyze``, as a user sees it, and
through ``Game.table_notes`` for the games whose analysis needs more than the setup."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.games import get_game
from solver.records import parse_record

LIT = "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
LIT_HOLDS = "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n"
TT = "game: twenty-two\nplayers: Ana Ben Cleo\nme: Ana\n"
TT_DEAL = "draw: Ana KH, Ben 9H, Cleo 10H\nAna deals 7\n"
TT_HOLDS = "Ana holds: 4S 5S 8S 5D 7D 2C 10C\n"
HAND = "game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ana\n"
HAND_IND = "indicator 4H\n"
HAND_HOLDS = "Ana holds: AS 2S JS QS 3H 5H 9H JH QH KH 2D QD 2C 6C QC\n"
HAND_PLAY = "Ana melds JH QH KH | QS QD QC | 2S 2D 2C\n"
MY = "game: mysterium\nvariant: easy\nplayers: Gus Ana Ben\nghost: Gus\nme: Gus\n"
MY_TABLE = ("table character: 1 2 3 4 5\ntable location: 1 2 3 4 5\n"
            "table object: 1 2 3 4 5\n")
MY_SECRET = ("secret Ana-1: character 1, location 2, object 3\n"
             "secret Ana-2: character 2, location 3, object 4\n"
             "secret Ben-1: character 3, location 4, object 5\n"
             "secret Ben-2: character 4, location 5, object 1\n")

# (game, record without the setup line, the note, the record with it)
CASES = [
    pytest.param("literature", LIT, "Missing: your own hand ('Ana holds: ...'; LIT-4",
                 LIT + LIT_HOLDS, id="lit-holds"),
    pytest.param("twenty-two", TT, "Missing: the deal ('Ben deals 7'; TT-4", TT + TT_DEAL,
                 id="tt-deal"),
    pytest.param("twenty-two", TT + TT_DEAL,
                 "Missing: your own hand of this deal ('Ana holds: ...'; TT-5, TT-6: 7 cards",
                 TT + TT_DEAL + TT_HOLDS, id="tt-holds"),
    # a new record: the round's play needs the indicator first (HR-7)
    pytest.param("hand", HAND, "Missing: the indicator ('indicator 7C'; HR-7",
                 HAND + HAND_IND + HAND_HOLDS, id="hand-indicator"),
    pytest.param("hand", HAND + HAND_IND + HAND_PLAY, "Missing: your own hand ('Ana holds: "
                 "...'; HR-6", HAND + HAND_IND + HAND_HOLDS + HAND_PLAY, id="hand-holds"),
    pytest.param("mysterium", MY + "table character: 1 2 3 4 5\n",
                 "Missing: the location cards on the table ('table location: ...', MY-4)",
                 MY + MY_TABLE + MY_SECRET, id="my-table"),
    pytest.param("mysterium", MY + MY_TABLE, "Missing: the psychics' secret cards",
                 MY + MY_TABLE + MY_SECRET, id="my-secret"),
    pytest.param("mystery-hand", "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\n"
                 "dealer: Eli\nme: Ana\nAna holds: AS 2S 9H JD QC 4D 8S 3H 5C\n",
                 "Missing: the 3 face-up cards ('faceup: ...', MH-5).",
                 "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"
                 "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C\nfaceup: 6H AC 3C\n", id="mh-faceup"),
]


def _notes(game, text, view="me"):
    rec = parse_record(text)
    return [n.text for n in get_game(game).table_notes(
        rec, rec.header.me if view == "me" else view)]


@pytest.mark.parametrize("game, without, note, with_it", CASES)
def test_a_missing_setup_line_is_noted_with_its_rule(game, without, note, with_it):
    assert any(n.startswith(note) for n in _notes(game, without)), _notes(game, without)
    assert not any(n.startswith(note) for n in _notes(game, with_it)), _notes(game, with_it)


@pytest.mark.parametrize("game, without, note, with_it",
                         [c for c in CASES if c.id in ("lit-holds", "tt-holds", "mh-faceup")])
def test_analyze_shows_the_note(tmp_path, game, without, note, with_it):
    p = tmp_path / "g.txt"
    p.write_text(without, encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(p)])
    assert r.exit_code == 0, r.output
    assert note in r.output


def test_a_spectator_is_not_asked_for_a_hand():
    for game, text in (("literature", LIT), ("twenty-two", TT + TT_DEAL),
                       ("hand", HAND + HAND_IND + HAND_PLAY)):
        assert not any("your own hand" in n for n in _notes(game, text, None)), game


def test_only_the_ghost_is_asked_for_the_secret_cards():
    assert not any("secret" in n for n in _notes("mysterium", MY + MY_TABLE, "Ana"))


def test_a_score_sheet_of_hand_needs_no_indicator():
    text = HAND.replace("me: Ana\n", "") + "round 1: Ana out partial; Ben 45, Cleo no-meld\n"
    assert _notes("hand", text, None) == []


def test_log_says_whose_turn_and_what_setup_is_missing(tmp_path):
    """``sleuth log`` ends with the notes that need no analysis (issue 14 item 5)."""
    rec = tmp_path / "g.txt"
    rec.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\nme: Ana\n")
    r = CliRunner().invoke(cli, ["log", str(rec), "Ana asks Ben 2H-5H: 1"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "logged line 4: Ana asks Ben 2H-5H: 1"
    assert "Next: Ben's turn." in lines
    assert any(l.startswith("Missing: your own hand") and "MH-5" in l for l in lines)
