"""Clue conflicts in Clue's words: where the other line puts the card, and CL-10 for a pass
by a player who holds a named card."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.clue.analysis import analyze
from solver.errors import InconsistentError
from solver.records import parse_record

HEAD = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev
me: Ana
"""
HAND = "Ana holds: Scarlet Rope Kitchen Hall Study\n"

def _conflict(text: str, view: str | None = "Ana") -> InconsistentError:
    with pytest.raises(InconsistentError) as e:
        analyze(parse_record(text), view)
    return e.value


def test_a_right_accusation_puts_the_card_in_the_case_file():
    e = _conflict(HEAD + HAND + "Ana accuses Scarlet Knife Library: right\n")
    assert e.reason == "line 5 puts Scarlet in Ana's hand; line 6 puts it in the case file"


def test_a_pass_by_a_player_holding_a_named_card_cites_cl_10():
    e = _conflict(HEAD + HAND + "Ben suggests Plum Rope Lounge: Cleo passes, Dev passes, "
                  "Ana passes\n")
    assert e.rule == "CL-10"
    assert e.reason.startswith("line 5 puts Rope in Ana's hand; line 6 says it is not")
    assert "may not pass, CL-10" in e.reason
    e = _conflict(HEAD.replace("me: Ana\n", "") + "Ben suggests Plum Rope Lounge: Cleo passes, "
                  "Dev passes, Ana passes\nCleo suggests Plum Knife Study: Dev passes, Ana "
                  "shows Plum\n", None)
    assert e.rule == "CL-10" and "Ana passed at line 4" in e.reason


def test_the_refusal_names_the_rule(tmp_path):
    rec = tmp_path / "g.txt"
    rec.write_text(HEAD + HAND)
    r = CliRunner().invoke(cli, ["log", str(rec), "Ben suggests Plum Rope Lounge: Cleo passes, "
                                 "Dev passes, Ana passes"])
    assert r.exit_code == 3
    assert "sleuth rules CL-10" in r.output and "CL-10)" in r.output


# ----- a line that fixes a card only through the case file's one card of each kind (CL-2) ---
def test_a_line_leaving_one_suspect_for_the_case_file_says_so():
    """Holding five suspects says nothing about Ben: it leaves Plum the only suspect for
    the case file (CL-2), and the sentence says that, not "line 4 says Plum is not in
    Ben's hand"."""
    e = _conflict("game: clue\nplayers: Ana Ben Cleo\nme: Ana\nAna holds: Scarlet Mustard "
                  "White Green Peacock Knife\nAna suggests Plum Rope Hall: Ben shows Plum\n")
    assert e.conflict == [4, 5]
    assert e.reason == ("line 4 leaves Plum the only suspect that can be in the case file "
                        "(CL-2: it holds one of each kind); line 5 puts it in Ben's hand")


def test_the_second_line_leaving_one_weapon_of_a_custom_deck_says_so(tmp_path):
    """Showing Dagger, one of two weapons, leaves Knife for the case file: line 8 does not
    say Knife is not in Ana's hand."""
    rec = tmp_path / "g.txt"
    rec.write_text("game: clue\nplayers: Ana Ben Cleo\nsuspects: A B\nweapons: Knife Dagger\n"
                   "rooms: Hall Study Kitchen Lounge\nme: Ana\nAna holds: Knife B\n"
                   "Ana suggests A Dagger Hall: Ben shows Dagger\n")
    e = _conflict(rec.read_text())
    assert e.conflict == [7, 8]
    assert e.reason == ("line 7 puts Knife in Ana's hand; line 8 leaves Knife the only weapon "
                        "that can be in the case file (CL-2: it holds one of each kind)")
    r = CliRunner().invoke(cli, ["analyze", str(rec)])
    assert r.exit_code == 3 and "says it is not" not in r.output
    assert "line 8 leaves Knife the only weapon" in r.output
