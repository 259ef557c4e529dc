"""Mysterium statements: every Event class of solver.mysterium.events round-trips (parse ->
str -> parse, str being the record notation), and numbers are ASCII digits only (issue 12)."""
from __future__ import annotations

import inspect

import pytest

from solver.errors import NotationError
from solver.games import Event
from solver.mysterium import events
from solver.records import Header, parse_record

H = Header("mysterium", ("Gus", "Ana", "Ben", "Cleo"))
H2 = Header("mysterium", ("Gus", "Ana"))

#: at least one statement per Event class (a class without one fails the test below)
EXAMPLES = [
    (H, "table character: 2 5 7 11 13 16"),
    (H, "secret Ana: character 5, location 2, object 9"),
    (H, "hour 1"),
    (H, "Ana receives 2 visions"),
    (H, "Ana receives 1 vision"),
    (H, "crow"),
    (H, "crow: 3"),
    (H, "Ana guesses character 5: right"),
    (H, "Ben guesses location 7"),
    (H, "reveal Ben: wrong"),
    (H, "reveal Ben: ?"),
    (H, "Ben: ?"),
    (H, "turn: Cleo"),
    (H, "Cleo agrees with Ben"),
    (H, "Ana disagrees with Ben"),
    (H, "group 1: Ana"),
    (H2, "group 4: character 5, location 2, object 9"),
    (H, "Ana votes 2"),
    (H, "verdict: 2"),
    (H, "culprit: 2"),
]


def _classes():
    return [c for _, c in inspect.getmembers(events, inspect.isclass)
            if issubclass(c, Event) and c is not Event and c.__module__ == events.__name__]


@pytest.mark.parametrize("header,text", EXAMPLES)
def test_statement_round_trips(header, text):
    ev = events.parse_event(text, header)
    assert str(ev) == text
    assert events.parse_event(str(ev), header) == ev


def test_every_event_class_has_an_example():
    seen = {type(events.parse_event(t, h)) for h, t in EXAMPLES}
    missing = [c.__name__ for c in _classes() if c not in seen]
    assert not missing, f"no round-trip example for {missing}"
    for c in _classes():
        assert "__str__" in vars(c), c


@pytest.mark.parametrize("text", [
    "hour ²",                            # superscript two: str.isdigit() true, int() fails
    "hour ۲",                            # Persian two
    "hour ٢",                            # Arabic-Indic two
    "Ana receives ² visions",
    "crow: ³",
    "Ana guesses character ²: right",
    "Ana guesses character ۵",
    "Ana guesses C٥",
    "table character: 1 2 ³ 4 5 6",
    "table object: ۱ 2 3 4 5 6",
    "secret Ana: character ٥",
    "group ²: Ana",
    "Ana votes ²",
    "verdict: ٢",
    "culprit: ۲",
])
def test_non_ascii_digits_are_refused(text):
    with pytest.raises(NotationError):
        events.parse_event(text, H)
    with pytest.raises(NotationError):
        parse_record("game: mysterium\nplayers: Gus Ana Ben Cleo\n" + text + "\n")


@pytest.mark.parametrize("word", ["²", "۵", "٥", "1²", "³"])
def test_card_numbers_are_ascii(word):
    with pytest.raises(NotationError, match="MY-2"):
        events.parse_number(word)
    with pytest.raises(NotationError):
        events.parse_card("C" + word)
    assert events.parse_card("C12") == ("character", 12)
