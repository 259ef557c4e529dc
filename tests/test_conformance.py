"""Conformance over the registry (as OpenSpiel tests every registered game): a game gets
these tests by registering in ``solver.games.REGISTRY``.

For every game: the interface is complete for the capabilities it declares; every event
class writes its own notation; a certainty can be explained; replay runs and agrees with
``knowledge``.  The properties of simulated records (statements round-trip, the truth is
never ruled out, certainties are true and agree across views, estimates never contradict
them) are ``tests/test_registry_properties.py``'s.
"""
from __future__ import annotations

import importlib
import inspect

import pytest

from solver.errors import SleuthError
from solver.games import PUBLIC, REGISTRY, Capability, Event, Game, get_game
from solver.model.budget import STEP_BUDGET
from solver.records import parse_record, write_record
from solver.replay import replay, replay_views

GAMES = list(REGISTRY)
METHODS = {Capability.ANALYZE: "analyze", Capability.EXPLAIN: "explain",
           Capability.CHECK: "check", Capability.SIMULATE: "simulate",
           Capability.REPLAY: "knowledge"}


def _simulated(game: Game, seed: int = 1, events: int | None = 40):
    n = game.player_counts[len(game.player_counts) // 2]
    return game.simulate(n, [], seed, events)


@pytest.mark.parametrize("name", GAMES)
def test_declared_interface(name):
    game = get_game(name)
    assert game.name == name and game.title and game.package and game.rules
    assert game.player_counts, "declare the player counts the rules allow"
    for cap, method in METHODS.items():
        overridden = getattr(type(game), method) is not getattr(Game, method)
        assert overridden == (cap in game.capabilities), (name, cap)
    assert game.examples, "give one example statement per statement kind"
    cli_mod = importlib.import_module(f"cli.{game.package}")
    if Capability.ANALYZE in game.capabilities:
        assert callable(cli_mod.render_analysis)
    if Capability.REPLAY in game.capabilities:
        assert callable(cli_mod.replay_columns) and callable(cli_mod.render_change)


ROLES = ("game", "events", "options", "engine", "inference", "analysis", "simulate")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_package_has_the_role_modules(name):
    """One name for one role: a newcomer finds each game's parts in the same files."""
    from pathlib import Path

    pkg = Path(__file__).resolve().parent.parent / "solver" / get_game(name).package
    missing = [r for r in ROLES if not (pkg / f"{r}.py").exists()]
    assert not missing, f"solver/{pkg.name} lacks {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_options_on_the_one_machinery(name):
    from solver.options import Options

    game = get_game(name)
    specs = game.option_specs()
    assert all(s.rule for s in specs), "every option names the rule it comes from"
    from solver.records import Header

    n = game.player_counts[len(game.player_counts) // 2]
    opts = game.options(Header(game=name, players=tuple(f"P{i}" for i in range(1, n + 1))))
    assert isinstance(opts, Options)
    assert type(opts).from_names(opts.names()) == opts


@pytest.mark.parametrize("name", GAMES)
def test_every_event_class_has_its_notation(name):
    game = get_game(name)
    mod = importlib.import_module(f"solver.{game.package}.events")
    classes = [c for _, c in inspect.getmembers(mod, inspect.isclass)
               if issubclass(c, Event) and c is not Event and c.__module__ == mod.__name__]
    assert classes, f"solver.{game.package}.events defines no Event subclass"
    for cls in classes:
        assert "__str__" in vars(cls), f"{cls.__name__} must define __str__ (its notation)"


@pytest.mark.parametrize("name", GAMES)
def test_examples_parse(name):
    """Every example parses, and reads back the same, under one table of the game's sizes
    (their counts fit one number of players: 'sleuth format' prints them together)."""
    from solver.errors import SleuthError
    from solver.records import Header

    game = get_game(name)
    seats = (["Gus", "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Hal"],     # Gus the ghost
             ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"])
    fits = []
    for n, names in ((n, names) for n in game.player_counts for names in seats):
        header = Header(game=name, players=tuple(names[:n]))
        try:
            evs = [game.parse_event(ex, header) for ex in game.examples]
        except SleuthError:
            continue
        for ex, ev in zip(game.examples, evs):
            assert game.parse_event(str(ev), header) == ev, ex
        fits.append(n)
    assert fits, f"no table of {game.player_counts} players parses every example"


@pytest.mark.parametrize("name", GAMES)
def test_an_unseen_turn_and_a_turn_line_are_the_shared_statements(name):
    """``Ben: ?`` and ``turn: Ben`` parse to ``solver.games.Unseen`` and ``TurnIs`` in every
    game (one class for one role), and no game package defines a class of those names."""
    from solver.games import TurnIs, Unseen
    from solver.records import Header

    game = get_game(name)
    names = ["Gus", "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Hal"]
    n = game.player_counts[len(game.player_counts) // 2]
    header = Header(game=name, players=tuple(names[:n]))      # Gus the ghost in Mysterium
    assert game.parse_event("Ben: ?", header) == Unseen("Ben")
    assert game.parse_event("turn: Ben", header) == TurnIs("Ben")
    for role in ("events", "engine", "inference"):
        mod = importlib.import_module(f"solver.{game.package}.{role}")
        own = {c.__name__ for _, c in inspect.getmembers(mod, inspect.isclass)
               if c.__module__ == mod.__name__ and issubclass(c, Event)}
        assert not own & {"Unseen", "TurnIs", "Turn", "UnseenAsk"}, (mod.__name__, own)


def _sim_games():
    return [n for n in GAMES if Capability.SIMULATE in get_game(n).capabilities]


@pytest.mark.parametrize("name", [n for n in _sim_games()
                                  if Capability.EXPLAIN in get_game(n).capabilities
                                  and Capability.REPLAY in get_game(n).capabilities])
def test_a_certainty_can_be_explained(name):
    game = get_game(name)
    rec = parse_record(write_record(_simulated(game, 4, 30)))
    view = replay_views(rec)[0]
    k = game.knowledge(rec, view, STEP_BUDGET)
    cards = list(k.certain)
    if not cards:
        pytest.skip("no single-card certainty in this game's notation")
    try:
        exp = game.explain(rec, view, cards[0])
    except SleuthError as e:          # a game may name its cards differently in 'why'
        pytest.fail(f"cannot explain the certainty {cards[0]!r}: {e}")
    assert exp.card and exp.reasons


@pytest.mark.parametrize("name", [n for n in _sim_games()
                                  if Capability.REPLAY in get_game(n).capabilities])
def test_replay_agrees_with_knowledge(name):
    game = get_game(name)
    rec = parse_record(write_record(_simulated(game, 5, 20)))
    view = replay_views(rec)[0]
    r = replay(rec, [view], upto=4)
    vr = r.views[view if view is not None else PUBLIC]
    from solver.replay import steps

    for spec, step in zip(steps(rec), vr.steps):
        k = game.knowledge(spec.record, view, STEP_BUDGET)
        assert step.knowledge.certain == k.certain
        assert step.knowledge.summary == k.summary


GENERIC = ["solver/replay.py", "solver/session.py", "solver/records/__init__.py",
           "solver/advice.py", "solver/didyoumean.py",
           "cli/main.py", "cli/commands.py", "cli/session.py", "cli/replay.py", "cli/advise.py",
           "web/live.py", "web/app.py"]


@pytest.mark.parametrize("path", GENERIC)
def test_generic_modules_name_no_game(path):
    """The generic parts call games only through the interface: no game name, no test of a
    class by its name, no ``hasattr`` for a capability."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / path).read_text(encoding="utf-8")
    names = [re.escape(n) for n in REGISTRY] + [re.escape(n.replace("-", "_")) for n in REGISTRY]
    names += [re.escape(get_game(n).title) for n in REGISTRY if " " in get_game(n).title
              or get_game(n).title not in ("Hand",)]
    pattern = re.compile(r"(?<![\w-])(" + "|".join(names) + r")(?![\w-])")
    found = [m.group(0) for m in pattern.finditer(text)]
    # 'hand' is also an English word: only the quoted game name or the package counts
    found = [f for f in found if f != "hand"] + re.findall(r'"hand"|solver\.hand', text)
    assert not found, f"{path} names games: {sorted(set(found))}"
    assert not re.search(r"type\([^)]*\)\.__name__", text), "test kinds by type or flag"
    assert "hasattr(" not in text


@pytest.mark.parametrize("name", GAMES)
def test_a_games_page_pieces_are_named_for_their_roles(name):
    """A game's pieces of the ``sleuth serve`` page, ``web/<package>.py`` (optional), are
    found by the game's package and are functions of the roles ``web.live`` calls, each
    under its role's name and taking what the role is given: one name for one role in
    every game (a helper of its own is private)."""
    from pathlib import Path

    from web.live import ROLES, pieces

    game = get_game(name)
    path = Path(__file__).resolve().parent.parent / "web" / f"{game.package}.py"
    mod = pieces(name)
    assert (mod is not None) == path.exists()
    if mod is None:
        return
    assert mod.__name__ == f"web.{game.package}"
    own = {n: f for n, f in vars(mod).items() if inspect.isfunction(f)
           and f.__module__ == mod.__name__ and not n.startswith("_")}
    assert own, f"web/{game.package}.py gives no piece"
    for role, fn in own.items():
        assert role in ROLES, f"web/{game.package}.py: {role} is not a role of web.live.ROLES"
        params = list(inspect.signature(fn).parameters)
        assert len(params) == len(ROLES[role]), (role, params, ROLES[role])
    assert ("sheet" in own) == ("extras" in own), "a sheet comes with its extras"
    if "stage_analysis" in own:
        assert "sheet" in own, "stage_analysis stands in for the analysis in sheet()"


@pytest.mark.parametrize("name", GAMES)
def test_location_words_are_refused_as_player_names_of_their_game_only(name):
    """Each game's own location words (``Game.location_words``) are reserved in its records,
    in any case; another game's are names like any other there."""
    from solver.records import VIEW_WORDS, reserved_names

    game = get_game(name)
    n = game.player_counts[0] if game.player_counts else 4
    others = [f"P{i}" for i in range(2, n + 1)]
    for word in game.location_words:
        with pytest.raises(SleuthError, match="cannot be a player's name"):
            parse_record(f"game: {name}\nplayers: {word.upper()} {' '.join(others)}\n")
    assert reserved_names(name) == VIEW_WORDS | set(game.location_words)
    foreign = sorted(reserved_names() - reserved_names(name))
    if foreign:       # a word only another game reserves passes the name check here
        from solver.records import check_player_name

        assert check_player_name(foreign[0].title(), game=name) == foreign[0].title()


@pytest.mark.parametrize("name", list(REGISTRY))
def test_each_variant_example_is_a_statement_of_its_variant(name):
    """``sleuth format`` lists the statements only a variant allows with that variant:
    each parses, and round-trips, under a header that names it, for some player count."""
    from solver.records import parse_record

    game = get_game(name)
    for opt, ex in game.variant_examples:
        fits = 0
        for n in (2, *game.player_counts):
            players = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal")[:n]
            head = (f"game: {name}\nvariant: {opt}\nplayers: {' '.join(players)}\n"
                    f"me: Ana\n")
            try:
                rec = parse_record(head + ex + "\n")
            except SleuthError:
                continue
            ev = rec.statements[-1].event
            assert game.parse_event(str(ev), rec.header) == ev, ex
            fits += 1
        assert fits, f"{ex!r} parses under no table with variant {opt}"


def test_format_lists_the_recorders_mystery_line_and_the_two_player_one():
    from click.testing import CliRunner

    from cli.main import cli

    out = CliRunner().invoke(cli, ["format", "mystery-hand"]).output
    assert "  mystery: KS AS 2S 3S\n" in out
    assert "mystery Ana: 2C 5H 9S KD    (variant: two-player=seen)" in out
