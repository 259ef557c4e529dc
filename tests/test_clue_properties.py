"""Properties of Clue over simulated games (standard deck, 3-6 players, every variant,
complete and lossy records), from every view at several prefixes: the truth is never
ruled out, every certainty is true, certain means probability 1, the case file's
candidates hold the true one, and the analysis is exact."""
from __future__ import annotations

import math

import pytest

from solver.clue.analysis import analyze
from solver.clue.inference import as_written_by, true_deal
from solver.clue.simulate import simulate
from solver.records import parse_record, write_record

CASES = [(3, ()), (4, ()), (5, ("leftovers=face-up",)), (6, ("refute=all",)),
         (4, ("refute=all", "leftovers=face-up")), (5, ())]


def check(rec, view, truth):
    a = analyze(rec, view)
    assert a.exact
    case = tuple(c for c in a.deck.cards if truth[c] == "envelope")
    for c, row in a.cards.items():
        assert row.get(truth[c], 0) > 0, (view, c, truth[c], row)      # never ruled out
        assert math.isclose(sum(row.values()), 1.0, rel_tol=1e-9)
        where = a.certain(c)
        if where is not None:
            assert where == truth[c] and row == {where: 1.0}
        assert set(row) == a.possible[c]
    files = a.envelope
    assert files.count and files.count >= 1
    if files.determined:
        assert files.answer() == case
    top = [cs for cs, _ in files.top]
    if files.count <= len(top):
        assert case in top
        assert math.isclose(sum(p for _, p in files.top), 1.0, rel_tol=1e-9)
    return a


@pytest.mark.parametrize("n,variant", CASES)
@pytest.mark.parametrize("miss", [0.0, 0.4])
def test_truth_and_certainties_from_every_view(n, variant, miss):
    full = simulate(n, list(variant), 7 + n, events=24, miss=miss)
    full = parse_record(write_record(full))
    truth = true_deal(full)
    k = len(full.statements)
    for cut in sorted({n + 3, k // 2, k}):
        rec = full.prefix(cut)
        for view in (None,) + rec.header.players:
            check(rec, view, truth)


@pytest.mark.parametrize("n", [4, 6])
def test_the_recorders_own_record_agrees_with_the_complete_one(n):
    """A player's view of the complete record and the record that player would have
    written at the table (only its own hand, the cards shown to it) give the same
    figures."""
    full = parse_record(write_record(simulate(n, [], 30 + n, events=20, accusations=False)))
    for p in full.header.players[:2]:
        mine = parse_record(write_record(as_written_by(full, p)))
        a, b = analyze(full, p), analyze(mine, p)
        assert a.possible == b.possible and a.envelope.count == b.envelope.count
        for c in a.cards:
            for l in a.cards[c]:
                assert math.isclose(a.cards[c][l], b.cards[c][l], rel_tol=1e-9)


def test_views_differ_by_what_they_saw():
    """The public view knows no more than any player, and each player knows its own
    hand."""
    full = parse_record(write_record(simulate(5, [], 3, events=15, accusations=False)))
    pub = analyze(full, None)
    for p in full.header.players:
        a = analyze(full, p)
        assert a.envelope.count <= pub.envelope.count
        assert all(a.possible[c] <= pub.possible[c] for c in a.cards)
        held = next(st.event for st in full.statements if st.event.setup
                    and st.event.player == p)
        assert all(a.certain(c) == p for c in held.cards)


LARGE = ("Scarlet Mustard White Green Peacock Plum Rose Gray Brunette Peach",
         "Candlestick Knife Pipe Revolver Rope Wrench Horseshoe Poison",
         "Carriage Conservatory Kitchen Trophy Dining Drawing Gazebo Courtyard Fountain "
         "Library Billiard Studio")


@pytest.mark.parametrize("n", [3, 6])
def test_the_large_editions_30_cards_are_exact_from_every_view(n):
    from solver.clue.options import Deck

    deck = Deck(*(tuple(g.split()) for g in LARGE))
    full = parse_record(write_record(simulate(n, [], 40 + n, events=18, deck=deck,
                                              accusations=False, miss=0.2)))
    assert len(full.header.get("suspects").split()) == 10
    truth = true_deal(full)
    for view in (None,) + full.header.players:
        check(full, view, truth)


def test_over_the_counting_budget_figures_are_labelled_estimates():
    """With a tiny state budget the count falls back to estimates: labelled so, the
    certainties unchanged (CP-SAT or the proved support), the case files' count unknown
    but bounded, the likeliest estimated within their error of the exact figures."""
    full = parse_record(write_record(simulate(5, [], 9, events=14, accusations=False)))
    exact = analyze(full, None)
    est = analyze(full, None, max_states=20)
    assert exact.exact and not est.exact and est.error > 0
    assert est.possible == exact.possible
    j = est.to_json()
    assert j["exact"] is False and j["envelope"]["candidates"] is None
    assert j["envelope"]["candidates_at_most"] >= exact.envelope.count
    truth = dict(exact.envelope.top)
    for cs, p in est.envelope.top[:3]:
        assert abs(p - truth.get(cs, 0.0)) <= 3 * est.envelope.error + 1e-9
