"""The engine contract (docs/architecture.md, "The engine contract") over the registry:
every registered game's ``engine.py`` has a frozen, hashable ``State``, ``run(record,
upto)``, and for each ``verify_<action>`` a ``can_<action>``; ``run(record, upto=k)`` is the
state of the record's first k statements; on the states of simulated games ``can_<action>``
is false exactly when ``verify_<action>`` raises, and what it raises is a ``RuleError``
naming a rule."""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import itertools

import pytest

from solver.cards import standard_deck
from solver.errors import RuleError
from solver.games import REGISTRY, Capability, get_game
from solver.records import Record
from solver.rulebook import rule, rule_ids

GAMES = sorted(REGISTRY)
SEEDS = (0, 1)
#: states checked per simulated record, arguments tried per action and state
STATES, ARGS = 6, 40


def engine_of(name: str):
    return importlib.import_module(f"solver.{get_game(name).package}.engine")


def actions(engine) -> list[str]:
    return sorted(n[len("verify_"):] for n, f in vars(engine).items()
                  if n.startswith("verify_") and inspect.isfunction(f))


@pytest.mark.parametrize("name", GAMES)
def test_every_engine_has_the_names_of_the_contract(name):
    engine = engine_of(name)
    assert dataclasses.is_dataclass(engine.State), f"{name}: State is not a dataclass"
    assert engine.State.__dataclass_params__.frozen, f"{name}: State is not frozen"
    assert callable(engine.run)
    assert list(inspect.signature(engine.run).parameters)[:2] == ["record", "upto"]
    assert actions(engine), f"{name}: no verify_<action>"
    for a in actions(engine):
        assert callable(getattr(engine, f"can_{a}", None)), f"{name}: verify_{a} without can_{a}"
    for n in vars(engine):
        if n.startswith("can_"):
            assert hasattr(engine, "verify_" + n[4:]), f"{name}: {n} without verify_{n[4:]}"
    assert not hasattr(engine, "validate"), f"{name}: validate is run(record) now"


def records(name: str) -> list[Record]:
    game = get_game(name)
    if Capability.SIMULATE not in game.capabilities:      # pragma: no cover - all simulate
        return []
    return [game.simulate(n, [], seed) for n in (game.player_counts[0], game.player_counts[-1])
            for seed in SEEDS]


def prefix(record: Record, k: int) -> Record:
    return dataclasses.replace(record, statements=record.statements[:k])


def cut_points(record: Record) -> list[int]:
    n = len(record.statements)
    return sorted({0, 1, n // 3, n // 2, 2 * n // 3, n})[:STATES]


@pytest.mark.parametrize("name", GAMES)
def test_run_upto_k_is_the_state_of_the_first_k_statements(name):
    engine = engine_of(name)
    for rec in records(name):
        whole = engine.run(rec)
        assert whole == engine.run(rec, upto=len(rec.statements))
        for k in cut_points(rec):
            st = engine.run(rec, upto=k)
            assert st == engine.run(prefix(rec, k)), (name, k)
            assert hash(st) == hash(engine.run(prefix(rec, k)))
        # the state moves with the record: the first and the last differ
        assert engine.run(rec, upto=0) != whole, name


def candidates(name: str, rec: Record, engine, param: str) -> list:
    """Values to try for a ``verify_<action>`` parameter, by its name."""
    players = list(rec.header.players)
    if param in ("player", "asker", "target", "dealer", "psychic", "voter"):
        return players
    if param == "shower":
        return players
    if param == "count":
        return [1, 3]
    if param == "hand":
        return [None]
    if name == "mystery-hand":
        from solver.mystery_hand.events import QUERIES

        deck = standard_deck()
        if param == "query":
            return list(QUERIES[::7])
        if param == "card":
            return deck[::9]
        if param == "cards":
            return [tuple(deck[:4])]
    if name == "literature":
        from solver.literature.table import table_of

        cards = sorted({c for h in table_of(rec.header).halves for c in h.cards}, key=repr)
        if param == "card":
            return cards[::5]
    if name == "hand" and param == "card":
        return standard_deck()[::13]
    if name == "mysterium":
        from solver.mysterium.options import KINDS

        if param == "kind":
            return list(KINDS)
        if param == "card":
            return [1, 2, 5]
    if name == "clue" and param == "cards":
        from solver.clue.options import deck_of

        return [tuple(g[0] for g in deck_of(rec.header).groups)]
    raise AssertionError(f"no candidates for {name}'s parameter {param!r}")


@pytest.mark.parametrize("name", GAMES)
def test_can_is_false_exactly_when_verify_raises_a_rule(name):
    engine = engine_of(name)
    seen = {a: [0, 0] for a in actions(engine)}      # action -> [allowed, refused]
    for rec in records(name):
        for k in cut_points(rec):
            state = engine.run(rec, upto=k)
            for a in actions(engine):
                verify, can = getattr(engine, f"verify_{a}"), getattr(engine, f"can_{a}")
                params = list(inspect.signature(verify).parameters.values())[1:]
                values = [candidates(name, rec, engine, p.name)
                          + ([None] if p.default is None else []) for p in params]
                for args in itertools.islice(itertools.product(*values), ARGS):
                    try:
                        verify(state, *args)
                    except RuleError as e:
                        assert e.rule and rule_ids(e.rule), (name, a, args, e)
                        for r in rule_ids(e.rule):
                            rule(r)         # the rulebook has it
                        assert can(state, *args) is False, (name, a, args)
                        seen[a][1] += 1
                    else:
                        assert can(state, *args) is True, (name, a, args)
                        seen[a][0] += 1
    # every action was tried; some were allowed and some refused
    assert all(sum(v) for v in seen.values()), seen
    assert any(v[0] for v in seen.values()) and any(v[1] for v in seen.values()), seen
