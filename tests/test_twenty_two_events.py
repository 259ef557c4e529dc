"""Twenty-Two statements: every Event class of solver.twenty_two.events round-trips (parse ->
str -> parse, str being the record notation), and numbers are ASCII digits only (issue 12)."""
from __future__ import annotations

import inspect

import pytest

from solver.errors import NotationError
from solver.games import Event
from solver.records import Header, parse_record
from solver.twenty_two import events

H = Header("twenty-two", ("Ana", "Ben", "Cleo"), variant=("twenty-six",))

#: at least one statement per Event class (a class without one fails the test below)
EXAMPLES = [
    "draw: Ana 9C, Ben KD, Cleo 3H",
    "Cleo deals 7",
    "Cleo deals",
    "Ana holds: 2C 5H 7D 9S JC QH AD",
    "Ana holds: 6S 6S 10S AH 3H 5H Jk",
    "Ana exchanges 2: 2C 5H -> 3S KD",
    "Ben exchanges 1",
    "Ben exchanges 0",
    "Ana leads 5H 5S 5D; Ben JC 7D 6S; Cleo KH 7C 7S",
    "Ana leads 6S Jk",
    "Ben plays 9C; Cleo 2S",
    "showdown: Ana 4C, Ben KH, Cleo Jk",
    "Ben: ?",
    "turn: Cleo",
    "Ana leads ?; Ben 9C; Cleo ?",
    "Ben plays ?",
]


def _classes():
    return [c for _, c in inspect.getmembers(events, inspect.isclass)
            if issubclass(c, Event) and c is not Event and c.__module__ == events.__name__]


@pytest.mark.parametrize("text", EXAMPLES)
def test_statement_round_trips(text):
    ev = events.parse_event(text, H)
    assert events.parse_event(str(ev), H) == ev
    assert str(events.parse_event(str(ev), H)) == str(ev)
    assert "(" not in str(ev)                    # the notation, not the dataclass repr


def test_every_event_class_has_an_example():
    seen = {type(events.parse_event(t, H)) for t in EXAMPLES}
    missing = [c.__name__ for c in _classes() if c not in seen]
    assert not missing, f"no round-trip example for {missing}"
    for c in _classes():
        assert "__str__" in vars(c), c


@pytest.mark.parametrize("text", [
    "Cleo deals ²",                 # superscript two: str.isdigit() is true, int() fails
    "Cleo deals ۷",                 # Persian seven
    "Cleo deals ٧",                 # Arabic-Indic seven
    "Ana exchanges ²: 2C 5H -> 3S KD",
    "Ben exchanges ١",
    "Ana holds: ²C 3C 4C 5C 6C 7C 8C",  # card ranks too
    "Ana leads ١٠H",
    "showdown: Ana ۲H, Ben 3C, Cleo 4C",
])
def test_non_ascii_digits_are_refused(text):
    with pytest.raises(NotationError):
        events.parse_event(text, H)
    with pytest.raises(NotationError):
        parse_record("game: twenty-two\nplayers: Ana Ben Cleo\n" + text + "\n")
