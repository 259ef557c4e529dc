"""Every rule number ``sleuth rules GAME`` lists can be printed, by itself and with the game:
the worked examples (Clue's ``EX-1``, Literature's ``EX-A``) as much as ``MH-7`` or ``A3``."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.games import games


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def listed_ids(game: str) -> list[str]:
    """The numbers at the start of the rule lines of ``sleuth rules GAME``."""
    out = run("rules", game)
    assert out.exit_code == 0, out.output
    ids = []
    for ln in out.output.split("Variant options")[0].splitlines()[1:]:
        if ln.startswith("  "):
            ids.append(ln.split()[0].rstrip("."))
    return ids


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_every_listed_rule_prints(game):
    title = next(g.title for g in games() if g.name == game)
    ids = listed_ids(game)
    assert ids
    for rid in dict.fromkeys(ids):
        with_game = run("rules", game, rid)
        assert with_game.exit_code == 0, (rid, with_game.output)
        assert with_game.output.startswith(f"{rid} ({title},"), (rid, with_game.output)
        alone = run("rules", rid)
        assert alone.exit_code == 0, (rid, alone.output)
        assert f"{rid} ({title}," in alone.output, (rid, alone.output)


def test_worked_examples_are_listed_and_print():
    assert ["EX-1", "EX-2", "EX-3", "EX-4"] == [i for i in listed_ids("clue") if "EX" in i]
    assert ["EX-A", "EX-B", "EX-C"] == [i for i in listed_ids("literature") if "EX" in i]
    r = run("rules", "EX-1")
    assert r.exit_code == 0 and "Cleo shows Knife" in r.output
    r = run("rules", "clue", "ex1")
    assert r.exit_code == 0 and r.output.startswith("EX-1 (Clue,")
    r = run("rules", "EX-A")
    assert r.exit_code == 0 and "Doug holds 5♥" in r.output
    r = run("rules", "clue", "EX-A")
    assert r.exit_code == 2 and "no rule numbered so in clue" in r.output


def test_a_number_several_games_have_names_them():
    """A number shared by games: alone it says how many and which; with the game, one."""
    r = run("rules", "A3")
    assert r.exit_code == 0
    heads = re.findall(r"^A3 \(([^,]+),", r.output, re.M)
    assert len(heads) >= 2 and f"numbered in {len(heads)} games" in r.output
    r = run("rules", "clue", "A3")
    assert r.exit_code == 0 and re.findall(r"^A3 \(([^,]+),", r.output, re.M) == ["Clue"]
