"""An error on a card written in another spelling points at the word as typed and quotes it.

record-format.md: an error "names the file, line and column, quotes the offending text".  The
column was found by looking for the error's quote, the card's canonical name, in the line: a
card typed ``9♣``, ``a♠``, ``th``, ``joker`` or ``Spanner`` (record-format.md "Lexical rules",
CL-1) was not found, so the column fell back to 1 and the quote was the canonical name.  A card
listed twice is pointed at (and quoted) at its second copy.
"""
from __future__ import annotations

import pytest

from solver.errors import SleuthError
from solver.records import find_token, parse_record

MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
      "Ana holds: AS 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n")
CLUE = "game: clue\nplayers: Ana Ben Cleo Dev\nme: Ana\n"
LIT6 = "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
LIT8 = ("game: literature\nvariant: deck=54-jokers\nplayers: Ana Ben Cleo Dev Eli Fay Gus Hal\n"
        "me: Ana\n")
HAND = ("game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ana\nindicator 4H\n"
        "Ana holds: AS 2S JS QS 3H 5H 9H JH QH KH 2D QD 2C 6C QC\n")
VS = "\ufe0f"       # the variation selector of a phone's emoji suits (♥️)


def error_of(text: str) -> SleuthError:
    with pytest.raises(SleuthError) as e:
        parse_record(text, "g.txt")
    return e.value


# (header, last line, expected message from the file name on); the line quoted is the
# statement itself for a rule's error found when the record is checked
#: a card listed twice in one list (Mystery Hand: one deck, MH-1)
TWICE = "is listed twice: expected each card once, as the one deck has it (MH-1)"

CASES = [
    # the tester's cases: Mystery Hand
    (MH, "Ana asks Ben 4H-7H: 4H 9C",
     "g.txt:6:24: 9C is not in 4H-7H (MH-10): 'Ana asks Ben 4H-7H: 4H 9C'"),
    (MH, "Ana asks Ben 4H-7H: 4♥ 9♣",
     "g.txt:6:24: 9C is not in 4H-7H (MH-10): 'Ana asks Ben 4H-7H: 4♥ 9♣'"),
    (MH, "Ana requests a♠: Ben", "g.txt:6:14: Ana holds AS (MH-15): 'Ana requests a♠: Ben'"),
    (MH, "Ana asks Ben 4H-7H: 4h 4♥", f"g.txt:6:24: 4H {TWICE}: '4♥'"),
    # more spellings: lower case, T for 10, ranges and rank sets, emoji suits
    (MH, "Ana asks Ben 4h-7h: 4h 9c",
     "g.txt:6:24: 9C is not in 4H-7H (MH-10): 'Ana asks Ben 4h-7h: 4h 9c'"),
    (MH, "Ana requests as: Ben", "g.txt:6:14: Ana holds AS (MH-15): 'Ana requests as: Ben'"),
    (MH, "Ana requests TC: Ben", "g.txt:6:14: Ana holds 10C (MH-15): 'Ana requests TC: Ben'"),
    (MH, "Ana requests t♣: nobody",
     "g.txt:6:14: Ana holds 10C (MH-15): 'Ana requests t♣: nobody'"),
    (MH, "Ana asks Ben 2♣-5♣: 0",
     "g.txt:6:14: Ana holds all four of 2C-5C (MH-11): 'Ana asks Ben 2♣-5♣: 0'"),
    (MH, "Ana asks Ben 2c-5c: 0",
     "g.txt:6:14: Ana holds all four of 2C-5C (MH-11): 'Ana asks Ben 2c-5c: 0'"),
    # the card shown, not the same card inside the range (MH-1: line 5 put it in Ana's hand)
    (MH, "Ana asks Ben 5C-8C: 5♣", "g.txt:6:21: 5C would be in two places (Ana on line 5 and "
                                   "Ben on line 6) (MH-1): 'Ana asks Ben 5C-8C: 5♣'"),
    (MH, "Ana asks Ben 5C-8C: 5C", "g.txt:6:21: 5C would be in two places (Ana on line 5 and "
                                   "Ben on line 6) (MH-1): 'Ana asks Ben 5C-8C: 5C'"),
    (MH, "Ana asks Ben 5c-8c: 5c", "g.txt:6:21: 5C would be in two places (Ana on line 5 and "
                                   "Ben on line 6) (MH-1): 'Ana asks Ben 5c-8c: 5c'"),
    # a suit typed on an emoji keyboard: the column counts the line as typed
    (MH, f"Ana asks Ben 4♥{VS}-7♥{VS}: 4♥{VS} 9♣{VS}",
     "g.txt:6:27: 9C is not in 4H-7H (MH-10): 'Ana asks Ben 4♥-7♥: 4♥ 9♣'"),
    # a player written in another case, where the rule's error points at them
    (MH, "Ana announces 2D 3D 4D 5D: wrong\nBen asks ana 4H-7H: 0",
     "g.txt:7:10: Ana is out and is not asked (MH-20): 'Ben asks ana 4H-7H: 0'"),
    # a card listed twice: its second copy, as typed
    (MH, "Ana asks Ben 4H-7H: 4H 4H", f"g.txt:6:24: 4H {TWICE}: '4H'"),
    (MH, "Ana asks Ben 4H-7H: 4h 4h", f"g.txt:6:24: 4H {TWICE}: '4h'"),
    (MH, "Ana asks Ben 4H-7H: 4♥, 4h", f"g.txt:6:25: 4H {TWICE}: '4h'"),
    (MH, "faceup: 3D Th 10H", f"g.txt:6:15: 10H {TWICE}: '10H'"),
    (MH, "mystery: 2D 5♦ 5d 9S", f"g.txt:6:16: 5D {TWICE}: '5d'"),
    # Clue: the aliases of CL-1 and any case
    (CLUE, "Ana suggests Plum Knife Library: Ben shows Wrench",
     "g.txt:4:44: the card shown must be one of the three named (CL-6): 'Wrench'"),
    (CLUE, "Ana suggests Plum Knife Library: Ben shows Spanner",
     "g.txt:4:44: the card shown must be one of the three named (CL-6): 'Spanner'"),
    (CLUE, "Ana suggests Plum Knife Library: Ben shows wrench",
     "g.txt:4:44: the card shown must be one of the three named (CL-6): 'wrench'"),
    (CLUE, "Ana suggests Plum Knife Library: Ben passes, Cleo shows Candle",
     "g.txt:4:57: the card shown must be one of the three named (CL-6): 'Candle'"),
    (CLUE, "Ana suggests Plum Rope Spanner: nobody",
     "g.txt:4:24: expected a room here (suspect, weapon, room in that order) (CL-5): "
     "'Spanner'"),
    (CLUE, "Ana suggests Plum, Rope,spanner: nobody",
     "g.txt:4:25: expected a room here (suspect, weapon, room in that order) (CL-5): "
     "'spanner'"),
    (CLUE, "Ana suggests Plum Plum Library: nobody",
     "g.txt:4:19: expected a weapon here (suspect, weapon, room in that order) (CL-5): 'Plum'"),
    (CLUE, "Ana holds: Scarlet Rope Kitchen Hall scarlett",
     "g.txt:4:38: a card is listed twice: 'scarlett'"),
    (CLUE, "Ana holds: Miss_Scarlett Dagger Knife Hall Study",
     "g.txt:4:33: a card is listed twice: 'Knife'"),
    # Literature: the first copy too many, a card outside the half-suit claimed
    (LIT6, "Ana holds: 3S 4S 4♠ 9H",
     "g.txt:4:18: 4S is listed more often than the deck has it (LIT-1): '4♠'"),
    (LIT8, "Ana holds: 3S 4S joker Jk JK 6D",
     "g.txt:5:27: Jk is listed more often than the deck has it (LIT-1): 'JK'"),
    (LIT6, "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\nCleo claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 9♥",
     "g.txt:5:45: 9H is not in half-suit 2H-7H (LIT-2): '9♥'"),
    # Hand: a meld quoted as typed
    (HAND, "Ana melds jh q♥ K♥ | QS QD QC | 2S 2D 3♣",
     "g.txt:7:33: not a valid meld: neither a group (one rank, HR-13) nor a run (one suit, "
     "HR-12) (HR-13): '2S 2D 3♣'"),
    (HAND, "Ana melds JH QH KH | QS QD QC | 2S 2D 3C",
     "g.txt:7:33: not a valid meld: neither a group (one rank, HR-13) nor a run (one suit, "
     "HR-12) (HR-13): '2S 2D 3C'"),
]


@pytest.mark.parametrize("head, line, expected", CASES,
                         ids=[f"{i}-{c[1].splitlines()[-1]}" for i, c in enumerate(CASES)])
def test_the_column_and_quote_are_of_the_word_as_typed(head, line, expected):
    err = error_of(head + line + "\n")
    assert str(err) == expected
    # the position is the error's own, not only its message's
    _, lineno, col = expected.split(":", 3)[:3]
    assert (err.path, err.line, err.column) == ("g.txt", int(lineno), int(col))


@pytest.mark.parametrize("typed", ["9♣", "9c", "9C"])
def test_the_column_of_a_card_shown_does_not_depend_on_its_spelling(typed):
    err = error_of(MH + f"Ana asks Ben 4H-7H: 4H {typed}\n")
    assert err.column == 24 and "9C is not in 4H-7H (MH-10)" in str(err)


@pytest.mark.parametrize("typed", ["Wrench", "wrench", "Spanner", "SPANNER"])
def test_clue_quotes_the_card_shown_as_typed(typed):
    err = error_of(CLUE + f"Ana suggests Plum Knife Library: Ben shows {typed}   # note\n")
    assert str(err) == (f"g.txt:4:44: the card shown must be one of the three named (CL-6): "
                        f"'{typed}'")


def test_a_token_is_found_in_any_spelling():
    t = "Ana asks ben 4H-7H: 4♥ 9♣"
    assert (find_token(t, "9C", last=True), find_token(t, "4H"),
            find_token(t, "Ben", last=True), find_token(t, "KS")) == (23, 20, 9, -1)
    assert find_token(t, "asks") == 4 and find_token(t, "") == -1


def test_records_parse_alike_whatever_the_spelling():
    """The fix changes where errors point, not what a record means."""
    plain = parse_record(MH + "Ana asks Ben 4H-7H: 4H 6H\n")
    typed = parse_record(MH + "Ana asks Ben 4h-7♥: 4♥, 6h\n")
    assert [str(s.event) for s in plain.statements] == [str(s.event) for s in typed.statements]
    assert typed.statements[-1].text == "Ana asks Ben 4h-7♥: 4♥, 6h"
