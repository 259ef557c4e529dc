"""The advisor says what must come first instead of ranking actions on a record that cannot
bear them: while a statement is held for the line that resolves it (a claim for its
'shown' line) and while the view's own hand is not logged yet ('suggest', 'play''s hint and
'suggest' command, 'serve''s hint)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.session import Session

HEAD = "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\ndealer: Ana\nme: Ana\n"
#: Ana may claim 2H-7H safely (Cleo holds 5H) on her turn
LIT = HEAD + """Ana holds: 2H 3H 4H 6H 7H 9S JC QD
Ana asks Ben 10S: no
Ben asks Cleo 9D: no
Cleo asks Ben 3H: no
Ben asks Ana QC: no
"""
WRONG = "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Eli 5H"


def test_while_a_claim_is_held_the_hint_says_its_shown_line_comes_next(tmp_path):
    path = tmp_path / "lit.txt"
    path.write_text(LIT)
    s = Session(str(path))
    assert "claims 2H-7H" in (s.hint() or "")          # before: the safe claim
    o = s.handle(WRONG)
    assert o.kind == "pending", o
    hint = s.hint() or ""
    assert hint.startswith("advisor: the held claim") and "comes first" in hint, hint
    assert "'shown' line comes next" in hint and WRONG in hint
    adv = s.advise("").advice
    assert adv.actions == [] and adv.summary["waiting"]
    # the alert to claim 2H-7H waits too: typing it would save a second claim
    assert not any("You can claim" in n.text for n in s.table_notes())
    # resolved, the advisor ranks again
    o = s.handle("shown 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H")
    assert o.kind == "accepted", o
    assert "held" not in (s.hint() or "")


def test_suggest_on_a_record_ending_with_a_held_claim_says_its_shown_line_comes_next(
        tmp_path):
    path = tmp_path / "lit.txt"
    path.write_text(LIT + "# held: " + WRONG + "\n")
    r = CliRunner().invoke(cli, ["suggest", str(path)])
    assert r.exit_code == 0 and "held claim on line 10 comes first" in r.output, r.output
    assert "'shown' line comes next" in r.output
    assert "Ana claims" not in r.output.replace(WRONG, "").replace("\n  ", " ")
    r = CliRunner().invoke(cli, ["suggest", str(path), "--json"])
    assert json.loads(r.output)["actions"] == []
    s = Session(str(path))
    assert (s.hint() or "").startswith("advisor: the held claim on line 10 comes first")


def test_a_held_claim_in_play_gets_no_new_claim_hint(tmp_path):
    path = tmp_path / "lit.txt"
    path.write_text(LIT)
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet", "--hint"],
                           input=WRONG + "\n")
    hints = [ln for ln in r.output.splitlines() if ln.startswith("advisor: ")]
    assert not any("advisor: Ana claims" in h for h in hints), r.output
    assert all("held claim" in h for h in hints), r.output


@pytest.mark.parametrize("game, players", [("literature", "Ana Ben Cleo Dev Eli Fay"),
                                           ("mystery-hand", "Ana Ben Cleo Dev"),
                                           ("clue", "Ana Ben Cleo Dev")])
def test_no_advice_before_the_views_own_hand(tmp_path, game, players):
    path = tmp_path / "e.txt"
    r = CliRunner().invoke(cli, ["new", game, str(path), "--players", players, "--me", "Ana",
                                 "--dealer", "Ana"])
    assert r.exit_code == 0, r.output
    want = "nothing to rank until your own hand is logged ('Ana holds: ...')"
    r = CliRunner().invoke(cli, ["suggest", str(path)])
    assert r.exit_code == 0 and want in r.output, r.output
    assert "score" not in r.output and "no legal action" not in r.output
    r = CliRunner().invoke(cli, ["suggest", str(path), "--json"])
    out = json.loads(r.output)
    assert r.exit_code == 0 and out["actions"] == [] and out["method"] == "none"
    assert out["notes"] == [want] and "Missing: your own hand" in out["summary"]["waiting"]
    s = Session(str(path))
    # the hint is for the view's turn (Mystery Hand: Ben, after the dealer Ana, plays first)
    assert s.hint() == ("advisor: " + want if s.game.on_turn(s.record, "Ana") else None)
    assert s.advise("").advice.actions == []


def test_the_game_says_when_the_hand_is_missing():
    """The generic check reads the game's own note (Note.hand_missing), no game named."""
    from solver.games import get_game
    from solver.records import parse_record

    g = get_game("literature")
    assert g.advice_waits(parse_record(HEAD), "Ana").startswith("Missing: your own hand")
    assert g.advice_waits(parse_record(LIT), "Ana") is None


def test_the_missing_hand_is_said_on_the_views_turn_only(tmp_path):
    """``play --hint`` said "nothing to rank until your own hand is logged" after every
    statement saved, other players' turns too; a hint is for the view's turn."""
    path = tmp_path / "mh.txt"
    path.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n")
    s = Session(str(path))
    assert s.handle("Ana asks Ben 4H-7H: 0").kind == "accepted"
    assert s.hint() is None                             # Ben's turn
    for line in ("Ben asks Cleo 4H-7H: 1", "Cleo asks Dev 4H-7H: 0", "Dev asks Ana 2C-5C: 0"):
        assert s.handle(line).kind == "accepted"
    assert "until your own hand is logged" in s.hint()  # Ana's turn again
