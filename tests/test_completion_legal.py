"""Tab in ``play`` offers only what can follow (README): never the player who starts the
statement as the one asked, requested from or showing, and, after ``asks`` or
``requests``, no card she is known to hold nor a range she holds wholly (MH-11, MH-15)."""
from __future__ import annotations

import pytest

from cli.session import known_hands, legal_words
from solver.session import Session

MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
      "Ana holds: 2C 3C 4C 5C 5H 9H JD QC 4D 8S AS QS\n")
CLUE = ("game: clue\nplayers: Ana Ben Cleo\nsuspects: Green Plum White\n"
        "weapons: Rope Revolver\nrooms: Lounge Hall Study\nme: Ana\nAna holds: Plum Rope\n")
LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")


def offered(tmp_path, text: str, before: str) -> list[str]:
    rec = tmp_path / "game.txt"
    rec.write_text(text, encoding="utf-8")
    s = Session(str(rec))
    return legal_words(s.vocabulary(), before, s.complete(before), known_hands(s))


@pytest.mark.parametrize("text, before, absent, present", [
    (MH, "Ana asks ", ["Ana"], ["Ben", "all"]),
    (MH, "Ana requests 5", ["5H", "5C"], ["5S", "5D"]),
    (MH, "Ana asks Ben 2C-5", ["2C-5C"], []),
    (MH, "Ana asks all 2C-5", ["2C-5C"], []),
    (MH, "Ana asks Ben 3C-6", [], ["3C-6C"]),          # partly held: legal
    (MH, "whatif Ana requests 9", ["9H"], ["9S"]),
    (MH, "Ben requests 5", [], ["5S", "5D"]),           # her cards are not his
    (MH, "Ben requests 5S: ", ["Ben"], ["Ana", "Cleo", "nobody"]),
    (CLUE, "Ben suggests Green Revolver Lounge: ", ["Ben"], ["Ana", "Cleo"]),
    (CLUE, "Ana suggests Pl", [], ["Plum"]),            # suggesting a card held is legal
    (LIT, "Ana asks ", ["Ana"], ["Ben"]),
    (LIT, "Ana asks Ben 2", ["2H"], ["2S", "2D"]),
    (LIT, "Ana claims 2H-7H: ", [], ["Ana"]),           # her own hand in her claim
])
def test_completion_offers_no_illegal_word(tmp_path, text, before, absent, present):
    words = offered(tmp_path, text, before)
    assert not set(absent) & set(words), words
    assert set(present) <= set(words), words


def test_the_first_word_offered_is_legal(tmp_path):
    """Tab takes the first word offered: for 'Ana asks ' it was Ana herself."""
    assert offered(tmp_path, MH, "Ana asks ")[0] != "Ana"
    assert offered(tmp_path, CLUE, "Ben suggests Green Revolver Lounge: ")[0] != "Ben"
