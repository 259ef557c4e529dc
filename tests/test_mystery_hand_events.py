"""Notation round trip (issue 11, item 7): every Mystery Hand event class parses from its
record notation, ``str`` writes it back, and parsing that gives an equal event."""
from __future__ import annotations

import inspect

import pytest

from solver.games import Event
from solver.mystery_hand import events
from solver.records import Header

HEADER = Header(game="mystery-hand", players=("Ana", "Ben", "Cleo", "Dev", "Eli"),
                variant=("sneak",))

#: event class name -> examples of its notation (as a recorder may type it)
EXAMPLES = {
    "Holds": ["Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C Jk", "Ben holds: th, q♠, as"],
    "FaceUp": ["faceup: 3C 7D 9S", "face-up: Jk"],
    "MysteryCards": ["mystery: 2C 5H 9S KD", "mystery Ana: 2C 5H 9S KD"],
    "AskOne": ["Ana asks Ben 4H-7H: 4H 6H", "Ben asks Cleo 5*: 2", "Ben asks Cleo 5x: none",
               "Cleo asks Dev AH-4H: Jk 2H", "Ben asks Cleo 4H-7H: ?"],
    "AskAll": ["Cleo asks all 10D-KD: Ana 0, Ben 1, Dev 0, Eli 2",
               "Cleo asks all 10D-KD: Ana 0, Ben ?, Dev 1, Eli 2"],
    "Request": ["Dev requests KS: Ben", "Eli requests 2C: nobody", "Dev requests KS: ?"],
    "Announce": ["Ben announces AS 2H 3D 4C: wrong", "Cleo announces 5D 6H 9C KS: right"],
    "Unseen": ["Ben: ?"],
    "Turn": ["turn: Cleo"],
}


def event_classes():
    return [c for _, c in inspect.getmembers(events, inspect.isclass)
            if issubclass(c, Event) and c is not Event and c.__module__ == events.__name__]


def test_every_event_class_has_an_example():
    names = {c.__name__ for c in event_classes()}
    missing = names - set(EXAMPLES)
    assert not missing, f"event classes without a round-trip example: {sorted(missing)}"


@pytest.mark.parametrize("cls", event_classes(), ids=lambda c: c.__name__)
def test_parse_str_parse_round_trips(cls):
    for text in EXAMPLES[cls.__name__]:
        ev = events.parse_event(text, HEADER)
        assert isinstance(ev, cls), (text, ev)
        written = str(ev)
        assert "(" not in written, f"{cls.__name__} writes its debug repr: {written}"
        again = events.parse_event(written, HEADER)
        assert again == ev, (text, written)
        assert str(again) == written
