"""The generic record reader: header, statements, comments, positions."""
from __future__ import annotations

import pytest

from solver.records import parse_record, write_record

RECORD = '''game: mystery-hand
players: Ana Ben Cleo   # clockwise
me: Ana
Ana holds: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H
Ana asks Ben 4H-7H: 4H   # Ben showed me one
'''


def test_header_statements_and_comments():
    rec = parse_record(RECORD)
    assert rec.header.players == ("Ana", "Ben", "Cleo") and rec.header.me == "Ana"
    assert len(rec.statements) == 2
    st = rec.statements[1]
    assert (str(st.event), st.line, st.comment) == ("Ana asks Ben 4H-7H: 4H", 5,
                                                    "Ben showed me one")


def test_write_then_parse_is_stable():
    rec = parse_record(RECORD)
    text = write_record(rec)
    again = parse_record(text)
    assert again.header == rec.header
    assert [s.event for s in again.statements] == [s.event for s in rec.statements]
    assert write_record(again) == text


def test_an_unknown_game_says_whose_variant_it_is_or_what_was_meant():
    from solver.errors import NotationError
    from solver.games import get_game

    with pytest.raises(NotationError) as e:
        get_game("rasmussen")
    assert "rasmussen is a variant of twenty-two" in str(e.value)
    with pytest.raises(NotationError) as e:
        get_game("mystery-hnad")
    assert "did you mean mystery-hand?" in str(e.value)
    with pytest.raises(NotationError) as e:
        get_game("chess")
    assert "did you mean" not in str(e.value) and "variant" not in str(e.value)
