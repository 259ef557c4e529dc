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
