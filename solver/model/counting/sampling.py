"""Exactly uniform consistent deals: cell counts drawn from a programme's tables, spread
over the cards of each class, the parts of merged columns and the locations of a lump."""
from __future__ import annotations

import random
import time
from collections import defaultdict
from typing import Any, Hashable

import numpy as np

from solver.model.witness import Infeasible

from .cache import last_programme
from .plan import Plan
from .problem import Problem, simplify
from .programme import Programme
from .tuning import kernel


def deals_from_counts(prob: Problem, plan: Plan, K: np.ndarray, gen,
                      at: int | None = None) -> np.ndarray:
    """Array (n, n_cards) of location indices: spread each class's count per column over
    its cards uniformly at random; the cards of a merged column over its two parts,
    as many to each as it had space left at the merge (latest merge first); then each
    lump's cards over its locations.  ``at`` (a location index): only the cards there
    are placed (the classes, merges and lump that can reach it), the others are -1."""
    n = K.shape[0]
    out = np.full((n, prob.n_cards), -1, dtype=np.int32)
    for ci, li in prob.fixed.items():
        if at is None or li == at:
            out[:, ci] = li
    steps_of: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for t, (r, c) in enumerate(plan.order):
        if r >= 0:
            steps_of[r].append((c, t))
    for r, cards in enumerate(prob.rows):
        cs = sorted(steps_of[r])
        if at is not None and not any(at in plan.cols[c] for c, _ in cs):
            continue
        counts = K[:, [t for _, t in cs]]                       # (n, m)
        cum = np.cumsum(counts, axis=1)
        slots = np.arange(len(cards))
        lab = (slots[None, :, None] >= cum[:, None, :]).sum(axis=2)   # (n, size)
        lab = np.asarray([c for c, _ in cs])[lab]
        lab = gen.permuted(lab, axis=1)
        out[:, cards] = lab + 10_000      # column ids, marked
    if plan.merges:
        fill: dict[int, Any] = {}           # column -> each draw's cards there
        left = {}
        for t, (r, c) in enumerate(plan.order):
            if r >= 0:
                fill[c] = fill.get(c, 0) + K[:, t].astype(np.int64)
            else:
                a, b, v = plan.merges[t]
                left[t] = plan.col_cap[a] - fill.get(a, 0)
                fill[v] = fill.get(a, 0) + fill.get(b, 0)
        for t in sorted(plan.merges, reverse=True):
            a, b, v = plan.merges[t]
            if at is not None and at not in plan.cols[v]:
                continue
            # only the cards some deal puts in the merged column (a few of the deck)
            held = np.flatnonzero((out == v + 10_000).any(axis=0))
            if not len(held):
                continue
            sub = np.ascontiguousarray(out[:, held])
            # `left` of each row's marked cards go to a, a uniformly random subset:
            # selection sampling, card by card, each taken with probability (still
            # needed) / (still to see) -- every subset of that size equally likely
            need = np.array(np.broadcast_to(left[t], (n,)), dtype=np.int64)
            u = gen.random(sub.shape)
            kern = kernel()
            if kern is not None:      # the same choices, in C
                kern.split_merged(sub, v + 10_000, a + 10_000, b + 10_000, need, u)
            else:
                mask = sub == v + 10_000
                avail = mask.sum(axis=1)
                for j in range(len(held)):
                    m = mask[:, j]
                    take = m & (u[:, j] * avail < need)
                    sub[:, j] = np.where(take, a + 10_000,
                                         np.where(m, b + 10_000, sub[:, j]))
                    need -= take
                    avail -= m
            out[:, held] = sub
    # the columns of one location, all at once; then each lump's cards over its locations
    # (merged columns' marks are left only where ``at`` skipped them: -1)
    lut = np.array([locs[0] if c < len(prob.cols) and len(locs) == 1
                    and (at is None or locs[0] == at) else -1
                    for c, locs in enumerate(plan.cols)], dtype=np.int32)
    lumps = [c for c, locs in enumerate(prob.cols)
             if len(locs) > 1 and (at is None or at in locs)]
    marked = out >= 10_000
    if marked.any():
        single = np.where(marked, lut[np.where(marked, out - 10_000, 0)], out)
        if lumps:
            single = np.where(np.isin(out, [c + 10_000 for c in lumps]), out, single)
        out = single
    for c in lumps:
        locs = prob.cols[c]
        mask = out == c + 10_000
        labels = np.repeat(np.asarray(locs), [prob.loc_cap[l] for l in locs])
        labs = gen.permuted(np.tile(labels, (n, 1)), axis=1)
        out[mask] = labs.ravel()
    if at is not None:
        out[out != at] = -1
    return out


def rngs(rng) -> tuple[np.random.Generator, random.Random]:
    """A numpy generator and a ``random.Random`` from ``rng`` (either of them, or a seed):
    the float draws take the first, the exact integer draws the second."""
    if isinstance(rng, np.random.Generator):
        return rng, random.Random(int(rng.integers(2 ** 63)))
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.getrandbits(64)), rng
    gen = np.random.default_rng(rng)
    return gen, random.Random(int(gen.integers(2 ** 63)))


def sample_deals(model, n: int, rng, *, max_states: int = 200_000,
                 time_budget: float | None = None, exact_ints: bool = True
                 ) -> list[dict[Hashable, str]]:
    """``n`` independent, exactly uniform random consistent deals (card -> location),
    drawn from the DP tables (with Python integers: no rounding at all).  Raises
    :class:`OverBudget` if the programme does not fit, ``ValueError`` if the model is
    inconsistent.  ``rng``: a ``numpy.random.Generator``, ``random.Random`` or a seed.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 2})
    >>> m.exclude("a", "P")
    >>> sorted(sample_deals(m, 3, 7)[0].items())[0]
    ('a', 'Q')
    """
    rows = sample_deal_rows(model, n, rng, max_states=max_states, time_budget=time_budget,
                            exact_ints=exact_ints)
    locs, cards = model.locations, model.cards
    return [{c: locs[li] for c, li in zip(cards, row)} for row in rows.tolist()]


def sample_deal_rows(model, n: int, rng, *, max_states: int = 200_000,
                     time_budget: float | None = None, exact_ints: bool = True,
                     at: str | None = None) -> np.ndarray:
    """:func:`sample_deals` as an array (n, cards) of location indices (``model.cards``
    and ``model.locations`` order), without building a dict per deal.  ``at`` (a
    location): only the cards each deal puts there are placed, the others are -1 (the
    same cell counts drawn, less work spreading them: a mystery hand's candidates)."""
    gen, pyr = rngs(rng)
    deadline = None if time_budget is None else time.perf_counter() + time_budget
    kept = None if exact_ints else last_programme(model)
    try:
        if kept is not None:            # the tables of the count just made
            prob, plan, dp = kept
        else:
            prob = simplify(model)
            plan = Plan(prob)
            dp = Programme(plan, exact_ints, max_states, deadline)
    except Infeasible:
        dp = None
    if dp is None or dp.total == 0:
        raise ValueError("the model has no consistent deal")
    K = dp.sample_counts(n, gen, pyr)
    return deals_from_counts(prob, plan, K, gen,
                             at=None if at is None else model.loc_index(at))
