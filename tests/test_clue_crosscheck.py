"""Clue against an independent oracle: every deal of small custom decks enumerated by
brute force, each checked against what the view saw (rules section 4, E1..E5, written
here again without the card-location model), for simulated games from every view, with
and without the variants and lost observations.  The analysis must agree exactly: the
possible places of every card (the backbone), every probability, the number of possible
case files and their probabilities."""
from __future__ import annotations

import functools
import itertools
import math
from collections import Counter, defaultdict

import pytest

from solver.clue.analysis import analyze
from solver.clue.events import Accuse, FaceUp, Holds, Suggest
from solver.clue.inference import is_complete, true_deal
from solver.clue.options import ClueOptions, Deck, deck_of, hand_sizes
from solver.clue.simulate import simulate
from solver.records import parse_record, write_record

SMALL = Deck(("Scarlet", "Plum"), ("Knife", "Rope"), ("Hall", "Study", "Lounge"))
MEDIUM = Deck(("Scarlet", "Plum", "Green"), ("Knife", "Rope", "Pipe"),
              ("Hall", "Study", "Lounge", "Library"))


def arrangements(counts: dict[str, int], n: int):
    """Every sequence of ``n`` locations using each location ``counts[l]`` times."""
    if n == 0:
        yield ()
        return
    for loc, k in counts.items():
        if k:
            counts[loc] -= 1
            for rest in arrangements(counts, n - 1):
                yield (loc,) + rest
            counts[loc] += 1


@functools.lru_cache(maxsize=8)
def _deals(header):
    deck = deck_of(header)
    sizes, nface = hand_sizes(header.players, header.dealer, ClueOptions.of(header), deck)
    counts = dict(sizes)
    if nface:
        counts["faceup"] = nface
    out = []
    places = list(arrangements(counts, sum(counts.values())))
    for case in itertools.product(*deck.groups):
        rest = [c for c in deck.cards if c not in case]
        for perm in places:
            deal = dict(zip(rest, perm))
            deal.update({c: "envelope" for c in case})
            out.append(deal)
    return out


def all_deals(record):
    """Every deal (card -> location) of the record's deck and hand sizes."""
    return _deals(record.header)


def fits(deal, record, view, truth):
    """Whether ``deal`` fits everything ``view`` saw (``view`` a player of a complete
    record whose true deal is ``truth``, or ``None`` for the public view)."""
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Holds) and ev.player == view:
            if any(deal[c] != view for c in ev.cards):
                return False
        elif isinstance(ev, FaceUp):
            if any(deal[c] != "faceup" for c in ev.cards):
                return False
        elif isinstance(ev, Suggest) and ev.answers is not None:
            for a in ev.answers:
                held = [c for c in ev.cards if deal[c] == a.player]
                if not a.shows and held:
                    return False
                if a.shows:
                    if a.card is not None and view in (ev.player, a.player):
                        if deal[a.card] != a.player:
                            return False
                    elif not held:
                        return False
        elif isinstance(ev, Accuse):
            inside = all(deal[c] == "envelope" for c in ev.cards)
            if inside != ev.right:
                return False
            if not ev.right and ev.player == view and truth is not None:
                if any((deal[c] == "envelope") != (truth[c] == "envelope") for c in deal):
                    return False
    return True


def oracle(record, view):
    total = 0
    at = defaultdict(Counter)
    files = Counter()
    truth = true_deal(record) if is_complete(record) else None
    for deal in all_deals(record):
        if fits(deal, record, view, truth):
            total += 1
            for c, l in deal.items():
                at[c][l] += 1
            files[frozenset(c for c, l in deal.items() if l == "envelope")] += 1
    return total, at, files


CASES = [(SMALL, 3, ()), (SMALL, 3, ("refute=all",)), (SMALL, 3, ("leftovers=face-up",)),
         (MEDIUM, 4, ()), (MEDIUM, 3, ("refute=all",)), (MEDIUM, 4, ("leftovers=face-up",))]


@pytest.mark.parametrize("deck,n,variant", CASES)
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("miss", [0.0, 0.5])
def test_analysis_equals_brute_force(deck, n, variant, seed, miss):
    full = simulate(n, list(variant), seed, events=8, miss=miss, deck=deck)
    full = parse_record(write_record(full))
    assert deck_of(full.header) == deck
    k = len(full.statements)
    for cut in sorted({k // 3, 2 * k // 3, k}):
        rec = full.prefix(cut)
        if not is_complete(rec):
            continue
        for view in (None,) + rec.header.players:
            total, at, files = oracle(rec, view)
            assert total > 0                      # the truth always fits
            a = analyze(rec, view)
            assert a.exact
            for c in deck.cards:
                assert a.possible[c] == set(at[c]), (view, c)
                for l, m in at[c].items():
                    assert math.isclose(a.cards[c][l], m / total, rel_tol=1e-9), (view, c, l)
                if len(at[c]) == 1:
                    assert a.certain(c) == next(iter(at[c]))
            assert a.envelope.count == len(files), view
            best = max(files.values())
            assert math.isclose(a.envelope.top[0][1], best / total, rel_tol=1e-9)
            for cs, p in a.envelope.top:
                assert math.isclose(p, files[frozenset(cs)] / total, rel_tol=1e-9)
            assert a.envelope.determined == (len(files) == 1)


def test_the_oracle_can_fail():
    """The oracle is not a tautology: a record whose refuter shows a card it cannot hold
    has no deal."""
    rec = parse_record("""game: clue
players: Ana Ben Cleo
dealer: Cleo
suspects: Scarlet Plum
weapons: Knife Rope
rooms: Hall Study Lounge
Ana holds: Scarlet Knife
Ben holds: Plum
Cleo holds: Hall
Ana suggests Plum Rope Lounge: Ben passes, Cleo shows Lounge
""", validate=False)
    assert oracle(rec, None)[0] > 0
    assert oracle(rec, "Ana")[0] > 0
    assert oracle(rec, "Cleo")[0] == 0        # Cleo holds Hall only
