"""Exactly uniform consistent deals: cell counts drawn from a programme's tables, spread
over the cards of each class, the parts of merged columns and the locations of a lump;
and every consistent deal, where they are few, walked off the same tables."""
from __future__ import annotations

import functools
import itertools
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


def sample_deal_rows(model, n: int, rng, *, max_states: int | None = 200_000,
                     time_budget: float | None = None, exact_ints: bool = True,
                     at: str | None = None) -> np.ndarray:
    """:func:`sample_deals` as an array (n, cards) of location indices (``model.cards``
    and ``model.locations`` order), without building a dict per deal.  ``at`` (a
    location): only the cards each deal puts there are placed, the others are -1 (the
    same cell counts drawn, less work spreading them: a mystery hand's candidates).
    ``max_states=None``: no limit on the programme's states."""
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


def every_deal(prob: Problem, plan: Plan, dp: Programme) -> np.ndarray:
    """Every consistent deal counted by ``dp`` (a programme of ``plan`` over ``prob``),
    once each, as rows of location indices (int16, ``model.cards`` order).  Its tables
    give the tables of counts (a path through states that reach the end, each count a
    transition); each table stands for every way to give each class's cards to its
    cells, to split the cards of a merged column over its two parts (as many to each as
    it had space left at the merge) and a lump's cards over its locations: the choices
    :func:`deals_from_counts` draws one of.  The work is about the deals listed."""
    dp.backward()
    T = len(plan.order)
    K = np.zeros((1, T), dtype=np.int64)       # the tables of counts, one per path
    cur = np.zeros(1, dtype=np.int64)           # each path's state
    for t in range(T):
        src, k, idx, _ = dp.transitions(t)
        live = dp.bwd[t + 1][idx] > 0
        src, k, idx = src[live], k[live], idx[live]
        order = np.argsort(src, kind="stable")
        src, k, idx = src[order], k[order], idx[order]
        off = np.searchsorted(src, np.arange(len(dp.keys[t]) + 1))
        n_out = off[cur + 1] - off[cur]
        path = np.repeat(np.arange(len(cur)), n_out)
        first = np.repeat(np.cumsum(n_out) - n_out, n_out)
        j = np.repeat(off[cur], n_out) + np.arange(len(path)) - first
        K = K[path]
        K[:, t] = k[j]
        cur = idx[j]
    steps_of: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for t, (r, c) in enumerate(plan.order):
        if r >= 0:
            steps_of[r].append((c, t))
    deals = np.full((len(K), prob.n_cards), -1, dtype=np.int32)
    for ci, li in prob.fixed.items():
        deals[:, ci] = li
    path = np.arange(len(K))                    # each deal's table of counts
    # each class's cards over its columns, column c marked as COL + c, the deals of the
    # tables that give the class the same counts at once
    for r, cards in enumerate(prob.rows):
        cols, steps = zip(*sorted(steps_of[r]))
        deals, path = _by_group(deals, path, K[path][:, list(steps)], lambda d, key: _spread(
            d, np.broadcast_to(np.asarray(cards), (len(d), len(cards))),
            tuple((COL + c, k) for c, k in zip(cols, key) if k)))
    # a merged column's cards over its parts, latest merge first, as many to the first as
    # it had space left at the merge
    fill: dict[int, np.ndarray] = defaultdict(lambda: np.zeros(len(K), dtype=np.int64))
    left = {}
    for t, (r, c) in enumerate(plan.order):
        if r >= 0:
            fill[c] = fill[c] + K[:, t]
        else:
            a, b, v = plan.merges[t]
            left[t] = plan.col_cap[a] - fill[a]
            fill[v] = fill[a] + fill[b]
    for t in sorted(plan.merges, reverse=True):
        a, b, v = plan.merges[t]
        marked = (deals == COL + v).sum(axis=1)
        deals, path = _by_group(deals, path, np.stack([left[t][path], marked], axis=1),
                                lambda d, key: _spread_marked(
                                    d, COL + v, ((COL + a, key[0]), (COL + b, None))))
    # then each column's cards over its locations (a lump's in every way)
    for c, locs in enumerate(prob.cols):
        parts = tuple((li, prob.loc_cap[li]) for li in locs[:-1]) + ((locs[-1], None),)
        marked = (deals == COL + c).sum(axis=1)
        deals, path = _by_group(deals, path, marked[:, None],
                                lambda d, key: _spread_marked(d, COL + c, parts))
    return deals.astype(np.int16)


def _by_group(deals: np.ndarray, path: np.ndarray, keys: np.ndarray, spread):
    """``spread(deals, key)`` of the deals of each distinct row of ``keys`` (one row per
    deal), with each new deal's table of counts."""
    if not len(deals):
        return deals, path
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = inv.ravel()
    out, paths = [], []
    for g, key in enumerate(uniq.tolist()):
        sel = np.flatnonzero(inv == g)
        d = spread(deals[sel], key)
        out.append(d)
        paths.append(np.repeat(path[sel], len(d) // len(sel)))
    return np.concatenate(out), np.concatenate(paths)


#: a card given to column c is marked COL + c until its location is known
COL = 10_000


@functools.lru_cache(maxsize=256)
def _arrangements(parts: tuple[tuple[int, int], ...]) -> np.ndarray:
    """Every sequence of the labels of ``parts`` ((label, how many), summing to m) as
    rows of an array (ways, m): every way to give m places to the parts."""
    if not parts:
        return np.zeros((1, 0), dtype=np.int32)
    (label, k), rest = parts[0], parts[1:]
    m = k + sum(x for _, x in rest)
    tails = _arrangements(rest)
    rows = []
    for chosen in itertools.combinations(range(m), k):
        others = [i for i in range(m) if i not in chosen]
        block = np.empty((len(tails), m), dtype=np.int32)
        block[:, list(chosen)] = label
        block[:, others] = tails
        rows.append(block)
    return np.concatenate(rows)


def _spread(deals: np.ndarray, where: np.ndarray, parts) -> np.ndarray:
    """Each deal once for every way to give its cards ``where`` (a row of card indices per
    deal) to the ``parts``."""
    ways = _arrangements(tuple(parts))
    if len(ways) == 1:
        out = deals.copy()
        out[np.arange(len(out))[:, None], where] = ways[0]
        return out
    out = np.repeat(deals, len(ways), axis=0)
    out[np.arange(len(out))[:, None], np.repeat(where, len(ways), axis=0)] = np.tile(
        ways, (len(deals), 1))
    return out


def _spread_marked(deals: np.ndarray, mark: int, parts) -> np.ndarray:
    """:func:`_spread` of the cards marked ``mark`` (as many in every deal) over ``parts``
    (the last one's count ``None``: the rest)."""
    rows, cols = np.nonzero(deals == mark)
    if not len(rows):
        return deals
    where = cols.reshape(len(deals), -1)
    m = where.shape[1]
    last = m - sum(k for _, k in parts[:-1])
    return _spread(deals, where, tuple(parts[:-1]) + ((parts[-1][0], last),))


def all_deals(model, limit: int, *, max_states: int = 400_000) -> np.ndarray | None:
    """Every consistent deal of ``model`` as rows of location indices (int16,
    ``model.cards`` and ``model.locations`` order), or ``None`` when there are more than
    ``limit``; from the count's own programme (:func:`every_deal`).  Raises
    :class:`OverBudget` when the programme does not fit ``max_states``.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 2})
    >>> m.add(["a", "b"], ["P"], 0, 0)
    >>> all_deals(m, 10).tolist(), all_deals(CardLocationModel(list("abcd"), {"P": 2, "Q": 2}), 5)
    ([[1, 1, 0]], None)
    """
    kept = last_programme(model)
    try:
        if kept is not None:
            prob, plan, dp = kept
        else:
            prob = simplify(model)
            plan = Plan(prob)
            dp = Programme(plan, False, max_states, None, residues=False)
    except Infeasible:
        return np.zeros((0, len(model.cards)), dtype=np.int16)
    if dp.total > limit:
        return None
    if dp.total == 0:
        return np.zeros((0, len(model.cards)), dtype=np.int16)
    return every_deal(prob, plan, dp)
