"""Hand statements: every Event class of solver.hand.events round-trips (parse -> str ->
parse), and numbers are ASCII digits only (issue 12)."""
from __future__ import annotations

import inspect

import pytest

from solver.errors import NotationError
from solver.games import Event
from solver.hand import events
from solver.records import Header

H = Header("hand", ("Ana", "Ben", "Cleo"))

#: at least one statement per Event class (the test fails for a class without one)
EXAMPLES = [
    "round 1: Ana out partial; Ben 45, Cleo no-meld",
    "round 2 dealer Cleo indicator 7C: Ben out full-hand wild-discard colour; Ana 5H KS AC, "
    "Cleo no-meld",
    "round 3: unscored redeal Ana",
    "round 3 dealer Ben: unscored stock",
    "indicator 7C",
    "Ana holds: 7D AC 9D 5S 5C 5H QC KC Jk 2H 3H 4H 8S 9S 10S",
    "Ana discards 9H",
    "Ben draws",
    "Ben draws 4C",
    "Ben takes 9H",
    "Ben melds 7D AC 9D | 5S 5C 5H",
    "Ben melds 9C 10C AS=8C",
    "Ben lays off 8D on 3",
    "Ben lays off AS=JC 10D on 2",
    "Ben swaps 8D on 1",
    "Ben swaps 5H 5D on 2",
    "Ana discards AC AC",
    "Cleo calls one card",
    "Cleo calls three cards",
    "Cleo: ?",
    "turn: Ben",
]


def _classes():
    return [c for _, c in inspect.getmembers(events, inspect.isclass)
            if issubclass(c, Event) and c is not Event and c.__module__ == events.__name__]


@pytest.mark.parametrize("text", EXAMPLES)
def test_statement_round_trips(text):
    ev = events.parse_event(text, H)
    assert str(ev) == text
    assert events.parse_event(str(ev), H) == ev


def test_every_event_class_has_an_example():
    seen = {type(events.parse_event(t, H)) for t in EXAMPLES}
    missing = [c.__name__ for c in _classes() if c not in seen]
    assert not missing, f"no round-trip example for {missing}"
    for c in _classes():
        assert "__str__" in vars(c), c


@pytest.mark.parametrize("text", [
    "round ²: Ana out partial; Ben 45, Cleo no-meld",          # superscript two
    "round ۱: Ana out partial; Ben 45, Cleo no-meld",          # Persian one
    "round 1: Ana out partial; Ben ۴۵, Cleo no-meld",          # Persian 45
    "round 1: Ana out partial; Ben 4², Cleo no-meld",
])
def test_non_ascii_digits_are_refused_as_notation(text):
    with pytest.raises(NotationError):
        events.parse_event(text, H)


def test_non_ascii_table_meld_number_is_refused():
    from solver.hand.table import parse_play

    with pytest.raises(NotationError):
        parse_play("²: 8C")
    assert parse_play("2: 8C")[0] == 2
