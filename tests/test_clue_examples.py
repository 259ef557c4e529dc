"""The worked examples of the Clue rules (docs/rules/clue.md section 5, EX-1..EX-4), table
driven, from every view they speak of; the deal below fits them (the case file Plum Pipe
Ballroom), so every player's view can be analysed from the complete record."""
from __future__ import annotations

import pytest

from solver.clue.analysis import analyze
from solver.clue.engine import run
from solver.clue.inference import build
from solver.errors import RuleError
from solver.records import parse_record

HEAD = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev
"""
HANDS = """Ana holds: Scarlet Rope Kitchen Hall Study
Ben holds: White Peacock Candlestick Conservatory Lounge
Cleo holds: Mustard Knife Revolver Dining
Dev holds: Green Wrench Billiard Library
"""
EX1 = "Ana suggests Plum Knife Library: Ben passes, Cleo shows Knife"
EX2 = "Ben suggests Plum Rope Lounge: Cleo passes, Dev passes, Ana shows Rope"
EX3 = "Cleo suggests Mustard Pipe Ballroom: nobody"
EX4 = "Dev accuses Green Wrench Study: wrong"


def record(*lines, complete=True, me=None):
    text = HEAD + (f"me: {me}\n" if me else "")
    text += HANDS if complete else "Ana holds: Scarlet Rope Kitchen Hall Study\n"
    return parse_record(text + "".join(ln + "\n" for ln in lines))


def at_least_one(rec, view, cards, player) -> tuple[int, int]:
    """The bounds on how many of ``cards`` ``player`` holds, as ``view`` knows them."""
    return build(rec, view).model.count_bounds(cards, [player])


# (example lines, view, card, expected possible places; None: not certain and not this)
CERTAIN = [
    ((EX1,), "Ana", "Knife", {"Cleo"}),              # E1b: the suggester saw it
    ((EX1,), "Cleo", "Knife", {"Cleo"}),             # its own card
    ((EX2,), "Ben", "Rope", {"Ana"}),                # E1b: Ben learns it
    ((EX2,), "Ana", "Rope", {"Ana"}),
    ((EX3,), "Cleo", "Pipe", {"envelope"}),          # E2: Cleo knows which (not hers)
    ((EX3,), "Cleo", "Ballroom", {"envelope"}),
    ((EX3,), "Cleo", "Mustard", {"Cleo"}),
]


@pytest.mark.parametrize("lines,view,card,places", CERTAIN)
def test_certainties(lines, view, card, places):
    a = analyze(record(*lines), view)
    assert a.possible[card] == places


# (lines, views, player, cards): from each view, ``player`` holds none of ``cards``
NONE_OF = [
    ((EX1,), ("Ana", "Ben", "Cleo", "Dev", None), "Ben", ("Plum", "Knife", "Library")),
    ((EX2,), ("Ana", "Ben", "Cleo", "Dev", None), "Cleo", ("Plum", "Rope", "Lounge")),
    ((EX2,), ("Ana", "Ben", "Cleo", "Dev", None), "Dev", ("Plum", "Rope", "Lounge")),
    ((EX3,), ("Ana", "Ben", "Cleo", "Dev", None), "Ana", ("Mustard", "Pipe", "Ballroom")),
    ((EX3,), ("Ana", "Ben", "Cleo", "Dev", None), "Ben", ("Mustard", "Pipe", "Ballroom")),
    ((EX3,), ("Ana", "Ben", "Cleo", "Dev", None), "Dev", ("Mustard", "Pipe", "Ballroom")),
]


@pytest.mark.parametrize("lines,views,player,cards", NONE_OF)
def test_passes_rule_cards_out(lines, views, player, cards):
    rec = record(*lines)
    for view in views:
        a = analyze(rec, view)
        for c in cards:
            assert player not in a.possible[c], (view, c)


def test_ex1_others_learn_only_who_showed():
    rec = record(EX1)
    for view in ("Ben", "Dev", None):
        a = analyze(rec, view)
        assert a.certain("Knife") is None, view         # the card is not seen (E1a)
        assert at_least_one(rec, view, ["Plum", "Knife", "Library"], "Cleo")[0] == 1
    # before EX-1 nobody but Cleo knew she holds one of them
    assert at_least_one(record(), "Ben", ["Plum", "Knife", "Library"], "Cleo")[0] == 0


def test_ex1_dev_is_not_asked():
    ev = parse_record(HEAD + EX1 + "\n").statements[0].event
    assert [a.player for a in ev.answers] == ["Ben", "Cleo"]


def test_ex3_in_cleos_hand_or_the_case_file():
    rec = record(EX3)
    for view in ("Ana", "Ben", "Dev", None):
        a = analyze(rec, view)
        for c in ("Mustard", "Pipe", "Ballroom"):
            assert a.possible[c] <= {"Cleo", "envelope"}, (view, c)
            assert a.certain(c) is None, (view, c)


def test_ex4_wrong_accusation():
    # Ana holds Study: the triple was already impossible for her, so nothing changes
    before = analyze(record(EX1, EX2, EX3, complete=False, me="Ana"), "Ana")
    after = analyze(record(EX1, EX2, EX3, EX4, complete=False, me="Ana"), "Ana")
    assert after.envelope.count == before.envelope.count
    assert after.cards == before.cards
    # for Ben it rules out that one triple, exactly
    b0 = analyze(record(EX1, EX2, EX3), "Ben")
    b1 = analyze(record(EX1, EX2, EX3, EX4), "Ben")
    assert b1.envelope.count == b0.envelope.count - 1
    assert ("Green", "Wrench", "Study") not in [cs for cs, _ in b1.envelope.top]
    # Dev looked at the case file: from Dev's view it is known
    d = analyze(record(EX1, EX2, EX3, EX4), "Dev")
    assert d.envelope.answer() == ("Plum", "Pipe", "Ballroom")
    # Dev is out and still refutes (CL-9), but suggests no more
    rec = record(EX1, EX2, EX3, EX4, "Cleo suggests Peacock Knife Billiard: Dev shows")
    assert run(rec).out == ("Dev",)
    with pytest.raises(RuleError, match="CL-9"):
        record(EX1, EX2, EX3, EX4, "Dev suggests Peacock Knife Billiard: Ana shows")


def test_verdict_says_accuse_once_determined():
    rec = record(EX1, EX2, EX3, EX4)
    a = analyze(rec, "Dev")
    # Dev accused wrongly and is out (CL-9): the case file, not an accusation
    assert a.verdict == "Dev is out and may not accuse (CL-9); the case file is Plum Pipe Ballroom"
    assert a.to_json()["envelope"] == {"determined": True, "candidates": 1,
                                       "top": [{"cards": ["Plum", "Pipe", "Ballroom"],
                                                "p": 1.0}]}
