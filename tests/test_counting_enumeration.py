"""Every consistent deal listed off the counting programme (solver.model.counting's
all_deals and every_deal): once each, the deals of brute force on small random models
(fixed cards, lumps, merged columns), and those of a plain backtracking search on Mystery
Hand Sneak states with up to 5,000 deals."""
from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given

from solver.games import get_game
from solver.model import CardLocationModel
from solver.model.counting import Programme, all_deals, every_deal, exact_count
from solver.model.witness import Infeasible, propagate
from solver.mystery_hand.inference import build
from tests.test_counting import MERGED, SETTINGS, consistent_deals, models


def as_set(rows) -> set[tuple[int, ...]]:
    return {tuple(r) for r in np.asarray(rows).tolist()}


def same_deals(model, got, want):
    assert got is not None and len(got) == len(as_set(got)), "a deal listed twice"
    assert as_set(got) == as_set(want)


@SETTINGS
@given(models)
def test_every_deal_of_random_models_is_brute_force(model):
    want = consistent_deals(model)
    got = all_deals(model, 10 ** 6)
    same_deals(model, got, want)
    if len(want) > 1:
        assert all_deals(model, len(want) - 1) is None


@pytest.mark.parametrize("i", range(0, 40, 3))
def test_every_deal_splits_merged_columns(i):
    """Models whose programme merges columns (a merged column's cards go to its two parts
    in every way that leaves each part its size), from the float and the integer
    programme."""
    m, plan = MERGED[i]
    want = consistent_deals(m)
    for exact in (False, True):
        dp = Programme(plan, exact)
        same_deals(m, every_deal(plan.prob, plan, dp), want)


def test_no_deal_and_too_many():
    m = CardLocationModel(list("abcd"), {"P": 2, "Q": 2})
    assert all_deals(m, 6).shape == (6, 4) and all_deals(m, 5) is None
    m.add(["a", "b", "c"], ["P"], 3, 3)
    assert all_deals(m, 10).shape == (0, 4)


def sneak_states(count: int, limit: int = 5000):
    """Player's views of simulated Sneak games with at most ``limit`` consistent deals."""
    game = get_game("mystery-hand")
    for players in (4, 5):
        for seed in range(6):
            rec = game.simulate(players, ["sneak"], seed=seed)
            n = len(rec.statements)
            for k in range(n // 2, n, 6):
                m = build(rec.prefix(k), rec.header.me).model
                if 0 < exact_count(m, exact_total=False).total <= limit:
                    yield m
                    count -= 1
                    if not count:
                        return


def test_every_deal_of_sneak_states_is_the_backtracking_search():
    checked = 0
    for m in sneak_states(6):
        want = backtrack_deals(m, 5000)
        same_deals(m, all_deals(m, 5000), want)
        checked += 1
    assert checked == 6


# ----- the oracle ---------------------------------------------------------------------------
def backtrack_deals(model, limit: int) -> np.ndarray | None:
    """The oracle: every consistent deal of ``model`` as rows of location indices, or
    ``None`` when there are more than ``limit``, by a plain backtracking search over the
    cards left uncertain by sound propagation (what the advisor ran before)."""

    try:
        allowed, cons, cap, _ = propagate(model)
    except Infeasible:
        return np.zeros((0, len(model.cards)), dtype=np.int16)
    n = len(model.cards)
    base = np.full(n, -1, dtype=np.int16)
    free = []
    for ci, a in enumerate(allowed):
        if len(a) == 1:
            base[ci] = next(iter(a))
        else:
            free.append(ci)
    # constraints on free cards: for each card, list of (constraint index, its locations)
    cons = [(d, lo, hi) for d, lo, hi in cons]
    of_card: dict[int, list[tuple[int, set]]] = {ci: [] for ci in free}
    for j, (d, lo, hi) in enumerate(cons):
        for ci, ls in d.items():
            if ci in of_card:
                of_card[ci].append((j, ls))
    cnt = [0] * len(cons)
    rest = [len(d) for d, _, _ in cons]          # free cards of the constraint not yet placed
    capl = list(cap)
    left_for = [0] * len(capl)                   # unplaced cards that may go to each location
    for ci in free:
        for li in allowed[ci]:
            left_for[li] += 1
    opts = [sorted(allowed[ci]) for ci in free]
    out: list[np.ndarray] = []
    cur = base.copy()

    def rec(i: int) -> bool:
        if i == len(free):
            out.append(cur.copy())
            return len(out) <= limit
        ci = free[i]
        for li2 in opts[i]:
            left_for[li2] -= 1
        ok_any = True
        for li in opts[i]:
            if capl[li] <= 0:
                continue
            capl[li] -= 1
            good = all(capl[l] <= left_for[l] for l in opts[i])
            touched = []
            if good:
                for j, ls in of_card[ci]:
                    hit = li in ls
                    cnt[j] += hit
                    rest[j] -= 1
                    touched.append((j, hit))
                    d, lo, hi = cons[j]
                    if cnt[j] > hi or cnt[j] + rest[j] < lo:
                        good = False
                if good:
                    cur[ci] = li
                    ok_any = rec(i + 1)
                for j, hit in touched:
                    cnt[j] -= hit
                    rest[j] += 1
            capl[li] += 1
            if not ok_any:
                break
        for li2 in opts[i]:
            left_for[li2] += 1
        return ok_any

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * n + 100))
    try:
        finished = rec(0)
    finally:
        sys.setrecursionlimit(old)
    if not finished:
        return None
    if not out:
        return np.zeros((0, n), dtype=np.int16)
    return np.array(out, dtype=np.int16)
