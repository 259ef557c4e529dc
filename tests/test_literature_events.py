"""Literature notation: every statement class round-trips (parse -> str -> parse equal)."""
import inspect

import pytest

from solver.games import Event
from solver.literature import events
from solver.literature.options import LiteratureOptions
from solver.literature.table import Table

SIX = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
#: one or more examples per statement class, with the variant they need
EXAMPLES = {
    "Holds": [("Ana holds: 2h 3H, 4H th", ""), ("Ana holds:", "")],
    "Ask": [("Ana asks Ben 9c: No", ""), ("Ben asks Cleo 5H: yes", ""),
            ("Ana asks Ben 9D: surrendered", "own-card-ask=surrender")],
    "Claim": [("Cleo claims lowH: Ana 2H 3H 4H 6H 7H, Cleo 5H", "")],
    "Shown": [("shown 2H-7H: Ana 2H 3H 4H 6H 7H Ben 5H", "")],
    "PassTurn": [("Ana passes the turn to Eli", "")],
    "PassClaim": [("Ana passes", "srinivasan-forced-claims")],
    "Challenge": [("Ana challenges Ben highH", "srinivasan-challenges")],
    "UnheardCard": [("Ben asks Cleo ?: yes", ""), ("Ben asks Cleo ? : N", "")],
    "UnheardAnswer": [("Ben asks Cleo 5h: ?", "")],
    "Unseen": [("Ben : ?", "")],
    "TurnIs": [("Turn: Cleo", "")],
    "HandCount": [("Ben has 5 cards", ""), ("Ben has 1 card", ""), ("Ben has 0 cards", "")],
}


def event_classes():
    return sorted((name for name, c in vars(events).items()
                   if inspect.isclass(c) and issubclass(c, Event) and c is not Event
                   and c.__module__ == events.__name__))


def test_every_event_class_has_an_example():
    missing = [name for name in event_classes() if name not in EXAMPLES]
    assert not missing, f"add a notation example for {missing}"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_round_trip(name):
    cls = getattr(events, name)
    for text, variant in EXAMPLES[name]:
        t = Table.build(SIX, LiteratureOptions.from_names([variant] if variant else []))
        ev = events.parse_event(text, t)
        assert isinstance(ev, cls), (text, ev)
        written = str(ev)
        assert "(" not in written and "=" not in written, written   # not a dataclass repr
        again = events.parse_event(written, t)
        assert again == ev and str(again) == written
