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


# ----- a number too long for int() (Python refuses over 4 300 digits) -------------------------
HUGE = "7" * 5000


@pytest.mark.parametrize("text, column", [
    ("game: hand\nplayers: Ana Ben Cleo\nround 1: Ana out partial; Ben {n}, Cleo no-meld\n", 31),
    ("game: hand\nplayers: Ana Ben Cleo\nround {n}: Ana out partial; Ben 45, Cleo no-meld\n", 7),
    ("game: literature\nplayers: Ana Ben Cleo Dev\nBen has {n} cards\n", 9),
    ("game: mysterium\nplayers: Gus Ana Ben Cleo\nghost: Gus\nvariant: crows={n}\n", 16),
])
def test_a_number_of_thousands_of_digits_is_refused_where_it_stands(tmp_path, text, column):
    """Not an internal error (exit 70, int()'s ValueError): a notation error (exit 2) that
    names the line and column and quotes the number, cut short."""
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path / "g.txt"
    path.write_text(text.format(n=HUGE), encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(path)])
    assert r.exit_code == 2, r.output
    line = 4 if "mysterium" in text else 3
    assert f"g.txt:{line}:{column}: a number of 5000 digits" in r.output, r.output
    assert "'77777777777777777777...7777'" in r.output
    # a name may hold digits: a run inside it is part of the name
    parse_record("game: literature\nplayers: Ana Bot1234567890 Cleo Dev\n")
