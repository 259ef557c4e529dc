"""``play``'s short Literature sheet counts every copy of a half-suit's cards: the
8s-and-jokers half-suit of V8 is six cards, two of them jokers."""
from __future__ import annotations

from pathlib import Path

from cli.literature import render_compact
from solver.games import get_game
from solver.records import read_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "literature"


def _sheet(name: str, view):
    a = get_game("literature").analyze(read_record(str(SAMPLES / name)), view)
    return str(render_compact(a, 80)), a


def test_the_jokers_half_suit_counts_six_cards():
    text, a = _sheet("eight-players-jokers.txt", "Ana")
    assert a.halves["8*"].holders["Jk"] == {"Ben": 2.0}
    assert "8*     6/6 placed" in text, text
    assert "5/5 placed" not in text


def test_a_plain_half_suit_still_counts_six():
    text, _ = _sheet("ex-a-six-players.txt", None)
    assert "2H-7H  0/6 placed" in text, text
