"""Clue's end when all but one player are out (CL-9, A3): the option ``last-player``
(``wins``, the default; ``plays-on``: no winner if the last one in accuses wrongly too)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.clue.analysis import analyze
from solver.clue.engine import run
from solver.clue.options import ClueOptions
from solver.clue.simulate import simulate
from solver.errors import RuleError
from solver.records import parse_record, write_record

HEAD = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev
me: Ana
"""
THREE_OUT = """Ana holds: Scarlet Rope Kitchen Hall Study
Ben accuses Plum Knife Library: wrong
Cleo accuses Plum Knife Lounge: wrong
Dev accuses Plum Knife Hall: wrong
"""


def cli_run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)

def test_the_option_is_named_and_listed():
    assert ClueOptions().last_player == "wins"
    assert ClueOptions.from_names(["last-player=plays-on"]).names() == ["last-player=plays-on"]
    r = cli_run("rules", "clue")
    assert "last-player=wins|plays-on (A3)" in r.output


def test_by_default_the_last_one_in_wins():
    st = run(parse_record(HEAD + THREE_OUT))
    assert st.over and st.winner == "Ana"
    with pytest.raises(RuleError, match=r"the game is over \(Ana won\).*CL-9"):
        parse_record(HEAD + THREE_OUT + "Ana suggests Plum Knife Library: nobody\n")


def test_plays_on_the_last_one_in_plays_on_and_may_end_with_no_winner():
    head = HEAD + "variant: last-player=plays-on\n"
    rec = parse_record(head + THREE_OUT + "Ana suggests Plum Knife Dining: nobody\n")
    st = run(rec)
    assert not st.over and st.active == ("Ana",)
    assert "the game is over" not in analyze(rec, "Ana").verdict
    won = parse_record(write_record(rec) + "Ana accuses Plum Knife Dining: right\n")
    assert run(won).winner == "Ana"
    lost = parse_record(head + THREE_OUT + "Ana accuses Plum Knife Dining: wrong\n")
    st = run(lost)
    assert st.over and st.winner is None and st.active == ()
    assert analyze(lost, None).verdict.startswith("the game is over: nobody won")
    with pytest.raises(RuleError, match="nobody won"):
        parse_record(write_record(lost) + "Ana suggests Plum Knife Library: nobody\n")


def test_simulate_and_analyze_honour_plays_on():
    ends = set()
    for seed in range(12):
        rec = simulate(3, ["last-player=plays-on"], seed)
        assert rec.header.variant == ("last-player=plays-on",)
        st = run(rec)
        wrong = sum(1 for s in rec.statements if str(s.event).endswith(": wrong"))
        if wrong == 2 and not st.over or st.over and st.winner is None:
            ends.add("played on")
        analyze(rec, None)
    assert "played on" in ends
    default = [run(simulate(3, [], s)) for s in range(12)]
    assert all(st.winner is not None for st in default if st.over)


def test_simulate_takes_the_option_on_the_command_line(tmp_path):
    out = tmp_path / "s.txt"
    r = cli_run("simulate", "clue", "--players", "3", "--seed", "5", "--variant",
                "last-player=plays-on", "-o", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "variant: last-player=plays-on" in text
    r = cli_run("analyze", str(out), "--as", "public", "--json")
    assert json.loads(r.stdout)["variant"] == ["last-player=plays-on"]
