"""What a new user of the record format and of ``sleuth`` meets first (record-format.md,
"Lexical rules": an error names the file, line and column of the offending text and quotes
it; the help's examples run as shown).
"""
from __future__ import annotations

import pytest

from solver.errors import SleuthError
from solver.records import parse_record

MH = "game: mystery-hand\nvariant: sneak\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\ndealer: Ana\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")
CLUE = "game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"


# ----- the column points at the offending token -------------------------------------------
# The quoted token also occurs earlier in the line, inside a longer word (the range 4H-7H,
# the card Knife): the column is the token's own, not that earlier occurrence's.
@pytest.mark.parametrize("head, line, token, message", [
    (MH, "Ana asks Ben 4H-7H: 4H 7", "7", "expected the answer"),
    (MH, "Ana asks Ben 4H-7H: 4H H", "H", "expected the answer"),
    (MH, "Ana asks all 4H-7H: Ben 1, Cleo 4H, Dev 0", "4H,", "expected a count"),
    (MH, "Ana requests 4H: 4", "4", "not a player"),
    (LIT, "Ana asks Ben 9S: 9", "9", "yes or no"),
    (LIT, "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H 2", "2", "a card or a player"),
    (LIT, "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7, Cleo 5H", "7,", "a card or a player"),
    (CLUE, "Ana suggests Plum Knife Library: Ben shows Knif", "Knif", "not a card"),
], ids=lambda v: v.split("\n", 1)[0] if "\n" in v else None)
def test_the_column_is_the_quoted_tokens_own(head, line, token, message):
    with pytest.raises(SleuthError, match=message) as e:
        parse_record(head + line + "\n", "g.txt")
    err = e.value
    assert (err.path, err.line) == ("g.txt", head.count("\n") + 1)
    # the last whole-word occurrence in these lines is the offending one
    words = line.split(" ")
    col = len(" ".join(words[:len(words) - 1 - words[::-1].index(token)])) + 2
    assert err.column == col, (str(err), col)
    assert str(err).startswith(f"g.txt:{err.line}:{col}: ")


def test_a_card_shown_twice_is_said_so_at_the_card():
    """Not 'expected the answer: a count...' pointing into the range."""
    with pytest.raises(SleuthError) as e:
        parse_record(MH + "Ana asks Ben 4H-7H: 4H 4H\n", "g.txt")
    assert str(e.value) == "g.txt:5:21: a card is listed twice: '4H'"


@pytest.mark.parametrize("line, column, quoted", [
    ("Ana asks Ben 4H-7H:", 20, "''"),                 # after the colon, where it was due
    ("Ana asks Ben 4H-7H:   # not heard", 20, "''"),
    ("Ana asks Ben 4H-7H: ,", 21, "','"),              # a lone comma shows no card
    ("Ana holds:", 11, "''"),
])
def test_a_missing_answer_is_refused_where_it_was_due(line, column, quoted):
    with pytest.raises(SleuthError) as e:
        parse_record(MH + line + "\n", "g.txt")
    assert str(e.value).startswith(f"g.txt:5:{column}: expected ")
    assert str(e.value).endswith(f": {quoted}")
