"""Hand rounds with turns not seen (``P: ?``): the figures against an independent
enumeration of every course, the dealt hand a recorder stated, and the table's hand cells.

The enumeration follows only a few cards (every copy of each, told apart); every other card
is "some other card".  The deal is uniform: each followed copy not in a stated hand lies in
one of the places not seen (an unstated hand, the stock), every free slot alike; a stock
draw brings each followed copy in the stock with chance 1/stock; an unseen discard is each
card then held with chance 1/hand.  A statement the course cannot make (a discard of a card
not held, a named draw of a card not in the stock) drops it.  It shares nothing with the
engine's courses and their weights.
"""
from __future__ import annotations

import re
from fractions import Fraction
import pytest

from cli.hand import render_round
from solver.hand.analysis import analyse_round
from solver.records import parse_record

DECK = 106
HEAD = """game: hand
players: Ana Ben Cleo
me: Ana
dealer: Ben
indicator 3H
Ana holds: 6S 7S 10S QS 3H JH 2D 3D 9D 10D AC 2C 4C 7C 7C
Cleo holds: AS 2S 4S 5S 10S QS 8H KH 6D 3C 6C 10C KC Jk
Ana discards AC
"""


def _moved(loc: dict, x, place: str) -> dict:
    out = dict(loc)
    out[x] = place
    return out


def _enumerate(text: str, follow: list[str], sizes: dict[str, int]) -> dict:
    """card -> place -> expected copies, over every course of the record ``text`` (players'
    dealt sizes ``sizes``; the indicator is one card out of play)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    stated = {ln.split(" holds:")[0]: ln.split(":", 1)[1].split()
              for ln in lines if " holds:" in ln}
    turns = [ln for ln in lines if not (":" in ln and (" holds:" in ln or ln.split(":")[0]
                                                       in ("game", "players", "me", "dealer")))
             and not ln.startswith("indicator")]
    copies = [(c, k) for c in follow for k in range(2)]
    hidden = {p: n for p, n in sizes.items() if p not in stated}
    stock = DECK - 1 - sum(sizes.values())
    places = dict(hidden, stock=stock)
    start: dict = {}
    loose = []
    for c in follow:
        holders = [p for p, cards in stated.items() for _ in range(cards.count(c))]
        for k in range(2):
            if k < len(holders):
                start[(c, k)] = holders[k]
            else:
                loose.append((c, k))
    total: Fraction = Fraction(0)
    acc: dict = {}

    def deal(i: int, loc: dict, free: dict, w: Fraction):
        if i == len(loose):
            yield dict(loc), w
            return
        room = sum(free.values())
        for q, n in free.items():
            if n:
                loc[loose[i]] = q
                yield from deal(i + 1, loc, dict(free, **{q: n - 1}), w * Fraction(n, room))
        del loc[loose[i]]

    def draw(loc, st, who):
        ins = [x for x in copies if loc[x] == "stock"]
        for x in ins:
            yield _moved(loc, x, who), Fraction(1, st)
        yield dict(loc), Fraction(st - len(ins), st)

    def play(j: int, loc: dict, st: int, hand: dict, first: bool, w: Fraction):
        nonlocal total
        if j == len(turns):
            total += w
            for x, q in loc.items():
                acc[(x[0], q)] = acc.get((x[0], q), Fraction(0)) + w
            return
        line = turns[j]
        who = line.split(":")[0].split()[0]
        if line.endswith(": ?"):
            outs = [(loc, Fraction(1), st)] if first else \
                [(lo, p, st - 1) for lo, p in draw(loc, st, who)]
            n = hand[who] + (not first)           # the card drawn included
            for lo, p, st2 in outs:
                held = [x for x in copies if lo[x] == who]
                for x in held:
                    play(j + 1, _moved(lo, x, "discards"), st2, hand, False,
                         w * p * Fraction(1, n))
                play(j + 1, lo, st2, hand, False, w * p * Fraction(n - len(held), n))
            return
        words = line.split()
        if words[1] == "draws":
            if len(words) == 2:
                for lo, p in draw(loc, st, who):
                    play(j + 1, lo, st - 1, dict(hand, **{who: hand[who] + 1}), False, w * p)
                return
            for x in copies:
                if x[0] == words[2] and loc[x] == "stock":
                    play(j + 1, _moved(loc, x, who), st - 1,
                         dict(hand, **{who: hand[who] + 1}), False, w * Fraction(1, st))
            if words[2] not in follow:
                raise AssertionError(f"follow {words[2]}")
            return
        if words[1] == "discards":
            c = words[2]
            if c in follow:
                x = next((x for x in copies if x[0] == c and loc[x] == who), None)
                if x is None:
                    return                   # the course refuses it
                loc = _moved(loc, x, "discards")
            play(j + 1, loc, st, dict(hand, **{who: hand[who] - 1}), False, w)
            return
        raise AssertionError(line)

    hand = {p: n for p, n in sizes.items()}
    free = {q: n for q, n in places.items()}
    for loc, w in deal(0, dict(start), free, Fraction(1)):
        play(0, loc, stock, hand, False, w)
    out: dict = {}
    for (c, q), v in acc.items():
        if v:
            out.setdefault(c, {})[q] = v / total
    return out


SIZES = {"Ana": 15, "Ben": 14, "Cleo": 14}
H7 = HEAD + "Cleo: ?\nBen: ?\nAna draws 4H\nAna discards 4H\nCleo draws\nCleo discards 8H\n"


@pytest.mark.parametrize("tail, follow", [
    # the repro: Cleo's unseen discard may be the 8H she held, the other 8H drawn back later
    ("Cleo: ?\nBen: ?\nAna draws 4H\nAna discards 4H\nCleo draws\nCleo discards 8H\n",
     ["8H", "4H", "KC"]),
    # her KC instead (one copy known, the other unseen)
    ("Cleo: ?\nBen: ?\nAna draws 4H\nAna discards 4H\nCleo draws\nCleo discards KC\n",
     ["KC", "4H"]),
    # two seen draws after the unseen one: three of her cards may be the other 8H's slot
    ("Cleo: ?\nBen: ?\nAna draws 4H\nAna discards 4H\nCleo draws\nCleo discards 6D\n"
     "Ben: ?\nAna draws 4H\nAna discards 4H\nCleo draws\nCleo discards 8H\n",
     ["8H", "6D", "4H"]),
    # Ben (his hand not stated) shows the other 8H: his own or a drawn one
    ("Cleo: ?\nBen draws\nBen discards 8H\nAna draws 4H\nAna discards 4H\n", ["8H", "4H"]),
    # both: Cleo's unseen turn, then Ben's seen discard of the 8H, then Cleo's 8H
    ("Cleo: ?\nBen draws\nBen discards 8H\nAna draws 4H\nAna discards 4H\n"
     "Cleo draws\nCleo discards 8H\n", ["8H", "4H"]),
])
def test_figures_equal_an_independent_enumeration(tail, follow):
    text = HEAD + tail
    want = _enumerate(text, follow, SIZES)
    a = analyse_round(parse_record(text), "Ana", chances=False)
    assert a.state.branches, "the record leaves several courses open"
    assert not a.state.lossy
    for c in follow:
        got = {k: v for k, v in a.cards[c].items() if v > 1e-12}
        assert set(got) == set(want[c]), c
        for place, x in want[c].items():
            assert got[place] == pytest.approx(float(x), abs=1e-12), (c, place)


def test_the_enumeration_agrees_with_the_engine_without_unseen_turns():
    """The reference itself, on a record with no turn unseen (a single course)."""
    text = HEAD + "Cleo draws\nCleo discards 8H\nBen draws\nBen discards 8H\n"
    want = _enumerate(text, ["8H", "KC"], SIZES)
    a = analyse_round(parse_record(text), "Ana", chances=False)
    for c in ("8H", "KC"):
        for place, x in want[c].items():
            assert a.cards[c][place] == pytest.approx(float(x), abs=1e-12), (c, place)


# --------------------------------------------------- a stated hand with a turn not seen

TWO = """game: hand
players: Ana Ben
me: Ana
dealer: Ben
indicator 3H
Ana holds: 6S 7S 10S QS 3H JH 2D 3D 9D 10D AC 2C 4C 7C 7C
Ben holds: AS 2S 4S 5S 10S QS 8H KH 6D 3C 6C 10C KC Jk
Ana discards AC
Ben: ?
"""


def test_the_recorders_view_keeps_a_stated_hand_when_a_turn_was_not_seen():
    """Every hand stated but Ben's turn not seen: not a complete record (a draw is not
    written), so Ana's record knows Ben's dealt hand, as with three players."""
    a = analyse_round(parse_record(TWO), "Ana", chances=False)
    js = a.to_json()
    assert js["courses"] == 15
    assert js["cards"]["8H"]["Ben"] > 0.9            # his unless it was the discard
    assert js["cards"]["5H"].get("Ben", 0) < 0.05     # only by the draw
    # Ben's seat (--as Ben) and the public view still drop the hands they did not see
    assert analyse_round(parse_record(TWO), None, chances=False).to_json()["courses"] == 1


def test_a_complete_record_from_the_recorders_seat_still_drops_the_others_hands():
    text = TWO.replace("Ben: ?\n", "")
    js = analyse_round(parse_record(text), "Ana", chances=False).to_json()
    assert js["hands"]["Ben"]["known"] == [] and js["hands"]["Ben"]["unknown"] == 14


# ------------------------------------------------------------------ the table's cells

def _row(text: str, player: str) -> str:
    out = render_round(analyse_round(parse_record(text), "Ana", chances=False))
    return next(ln for ln in out.splitlines() if re.match(player + r" +\d", ln))


def test_the_table_and_the_unseen_line_agree_on_a_hand():
    """After ``turn: Ben`` the table said Cleo's 14 cards were unknown while the line
    under it put 1 unseen card in her hand."""
    out = render_round(analyse_round(parse_record(HEAD + "turn: Ben\n"), "Ana",
                                     chances=False))
    row = next(ln for ln in out.splitlines() if re.match(r"Cleo +\d", ln))
    assert "13-14 of: 10C 10S 2S 3C 4S 5S 6C 6D 8H AS Jk KC KH QS" in row
    assert row.split()[-2] == "1"
    assert "Cleo (1)" in out
    row = _row(H7, "Cleo")        # two unseen cards at most: her draws, one kept
    assert "12-13 of:" in row and "8H" not in row and row.split()[-2] == "2"
    assert _row(HEAD, "Cleo").split()[-2] == "0"      # no turn unseen: as before
