"""The examples ``help`` shows inside ``play`` fit the record's table: a hand has as many
cards as the player count deals (MH-5, CL-2), and no face-up line where none are face up
(a 4-player Mystery Hand game showed a 9-card hand and 'faceup: 3C 7D 9S')."""
from __future__ import annotations

from dataclasses import replace

import pytest

from solver.games import get_game
from solver.records import Statement, parse_record
from solver.session import Session, own_examples

MH = "game: mystery-hand\nplayers: {}\nme: Ana\n"


@pytest.mark.parametrize("head, holds, faceup", [
    (MH.format("Ana Ben Cleo Dev"), 12, None),
    (MH.format("Ana Ben Cleo Dev Eli"), 9, 3),
    (MH.format("Ana Ben Cleo Dev Eli Fay"), 8, None),
    ("game: clue\nplayers: Ana Ben Cleo\nme: Ana\n", 6, None),
    ("game: clue\nplayers: Ana Ben Cleo Dev Eli\nme: Ana\n", 4, None),    # uneven deal
    ("game: literature\nplayers: Ana Ben Cleo Dev\nme: Ana\n", 12, None),
    ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n", 8, None),
])
def test_deal_examples_fit_the_table(head, holds, faceup):
    rec = parse_record(head)
    game = get_game(rec.game)
    examples = own_examples(rec)
    hands = [e for e in examples if " holds: " in e]
    shown = [e for e in examples if e.startswith("faceup:")]
    assert [len(e.partition(": ")[2].split()) for e in hands] == [holds], examples
    assert [len(e.partition(": ")[2].split()) for e in shown] == ([faceup] if faceup else [])
    for e in hands + shown:         # each one alone after the header is valid
        game.validate(replace(rec, statements=(Statement(1, e, game.parse_event(
            e, rec.header)),)))


def test_play_help_of_a_four_player_game(tmp_path):
    rec = tmp_path / "game.txt"
    rec.write_text(MH.format("Ana Ben Cleo Dev") + "dealer: Dev\n", encoding="utf-8")
    text = Session(str(rec)).help_text()
    assert "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C 3S 4S 5S" in text
    assert "faceup:" not in text


def test_an_example_that_needs_lines_before_it_is_kept():
    """A Twenty-Two hand needs its deal first: not a count the table sets, kept."""
    rec = parse_record("game: twenty-two\nplayers: Ana Ben Cleo\ndealer: Cleo\nme: Ana\n")
    assert any(" holds: " in e for e in own_examples(rec))
