"""The advisor's own options (``Game.advisor_options``, ``sleuth suggest --<name>``) and the
game-declared figures of ``sleuth suggest`` (``Game.advice_fields``): Clue's ``--room``
(CL-5), refusals that name the option, and the table's columns from the declaration."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.games import Capability, games, get_game
from solver.records import read_record

ROOT = Path(__file__).resolve().parent.parent
CLUE = ROOT / "samples" / "clue"


def run(*args):
    return CliRunner().invoke(cli, ["suggest", *map(str, args)])


def actions(*args) -> list[dict]:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["actions"]


@pytest.mark.parametrize("sample, room", [("four-players-ana.txt", "Library"),
                                          ("six-players-refute-all.txt", "Kitchen")])
def test_room_gives_the_ranking_restricted_to_that_room(sample, room):
    """Every suggestion of ``--room R`` names R, with the figures the unrestricted ranking
    gives it, in the same order; the accusation is the same (CL-8: not bound to a room)."""
    full = actions(CLUE / sample)
    some = actions(CLUE / sample, "--room", room.lower())
    in_room = [a for a in full if a["kind"] != "suggest" or a["action"].endswith(f" {room}")]
    assert [a["action"] for a in some] == [a["action"] for a in in_room]
    assert [a["score"] for a in some] == [a["score"] for a in in_room]
    n_rooms = len(get_game("clue").advisor_choices(read_record(CLUE / sample), "room"))
    n_sugg = sum(a["kind"] == "suggest" for a in some)
    assert n_sugg * n_rooms == sum(a["kind"] == "suggest" for a in full) > n_sugg > 0


def test_room_says_so_in_the_text_and_takes_the_rooms_of_a_custom_deck():
    r = run(CLUE / "four-players-ana.txt", "--room", "Library", "--top", "3")
    assert r.exit_code == 0, r.output
    assert "suggestions in the Library only" in r.output and "(CL-5)" in r.output
    rec = read_record(CLUE / "large-edition-custom-cards.txt")
    rooms = get_game("clue").advisor_choices(rec, "room")
    some = actions(CLUE / "large-edition-custom-cards.txt", "--room", rooms[-1], "--top", "5")
    assert all(a["action"].endswith(f" {rooms[-1]}") for a in some if a["kind"] == "suggest")
    assert any(a["kind"] == "suggest" for a in some)     # not checked on an empty list


def test_a_value_not_among_the_choices_is_refused_naming_the_option():
    r = run(CLUE / "four-players-ana.txt", "--room", "Libary")
    assert r.exit_code == 2
    assert "--room is one of" in r.stderr and "'Libary'" in r.stderr and "(CL-5)" in r.stderr
    assert "did you mean: --room Library" in r.stderr
    r = run(CLUE / "four-players-ana.txt", "--room", "Knife")    # a card, not a room
    assert r.exit_code == 2 and "'Knife'" in r.stderr


def test_an_option_the_game_does_not_take_is_refused():
    mh = ROOT / "samples" / "mystery-hand" / "five-players-ana.txt"
    r = run(mh, "--room", "Library")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "does not take --room" in r.stderr and "'--room Library'" in r.stderr
    r = run(CLUE / "four-players-ana.txt", "--seat", "3")          # no game declares it
    assert r.exit_code == 2 and "No such option '--seat'" in r.stderr


def test_the_help_offers_each_declared_option_with_an_example_that_runs():
    r = CliRunner().invoke(cli, ["suggest", "--help"])
    assert r.exit_code == 0
    for g in games():
        for o in g.advisor_options:
            assert f"--{o.name} {o.metavar}" in r.output and g.title in r.output
            example = f"sleuth suggest samples/{g.name}/{g.demo} --{o.name} {o.example}"
            assert example in r.output
            assert run(*example.split()[2:]).exit_code == 0


@pytest.mark.parametrize("name", [n for n in (g.name for g in games())
                                  if Capability.ADVISE in get_game(n).capabilities])
def test_declared_figures_are_figures_the_advisor_returns(name):
    """Each ``advice_fields`` key is one the game's actions carry; a column's head is shown
    only when some action has it (``render_advice`` reads the declaration, not the keys)."""
    from cli.advise import render_advice
    from solver.model.budget import Budget

    game = get_game(name)
    rec = read_record(ROOT / "samples" / name / game.demo if game.demo
                      else sorted((ROOT / "samples" / name).glob("*.txt"))[0])
    adv = game.suggest(rec, rec.header.me, budget=Budget(samples=100))
    keys = {k for a in adv.actions for k in a.more}
    assert {f.key for f in game.advice_fields} <= keys
    head = render_advice(adv).splitlines()
    table = next(line for line in head if line.lstrip().startswith("#"))
    for f in game.advice_fields:
        if f.column:
            assert table.split()[-1] == f.column or f" {f.column}" in table


def test_the_options_are_built_when_the_command_is_used_not_when_its_module_loads():
    """``review``, ``play`` and ``serve`` load ``cli.advise``: no game's class is imported
    for the options of ``suggest`` until its parameters are read."""
    import subprocess
    import sys

    probe = ("import sys, cli.main, cli.advise\n"
             "games = lambda: {m for m in sys.modules if m.endswith('.game')}\n"
             "before = games()\n"
             "names = [p.name for p in cli.advise.suggest.params]\n"
             "print(len(before), len(games()), 'advisor_room' in names)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    # before: at most the games looked at for the help's demo record
    assert int(out[0]) < int(out[1]) == len(list(games())) and out[2] == "True", out
