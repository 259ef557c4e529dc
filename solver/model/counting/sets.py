"""Candidate sets: the distribution of the set of cards in one small location (the
Mystery Hand's mystery hand), by a programme whose states carry the location's
composition, and the classes of interchangeable cards that name the sets."""
from __future__ import annotations

import heapq
import itertools
import math
import time

import numpy as np

from solver.model import reuse
from solver.model.witness import Infeasible

from . import tuning
from .plan import Plan
from .problem import OverBudget, Problem, location_problem
from .programme import Programme, stretched
from .cache import problem_key
from .tuning import settings


def location_sets(model, loc: str, top: int = 10, *, max_states: int = 200_000,
                  time_budget: float | None = None, base_states: int | None = None,
                  stretch: tuple[float, float] | None = None, base_work: int | None = None
                  ) -> tuple[int, list[tuple[frozenset, float]]] | None:
    """The distribution of the *set* of cards lying in ``loc`` (a small location).

    Returns ``(number of distinct sets with positive probability, the top most likely sets
    with their exact probabilities)``, ties broken by the sorted card reprs; ``(0, [])``
    when the model is inconsistent; ``None`` when over budget.  ``base_states`` (the peak of
    the plain count, when known) skips the second attempt, location by location, where it
    has not been seen to fit (``Tuning.location_order_base``). ``stretch`` (factors ``(peak,
    work)`` of each attempt's state budget) lets each programme go past its budget while its
    work stays small (see :class:`Programme`).  Without a stretch, ``base_work`` (the plain
    count's states summed over its steps, when known) gives the tagged programme the larger
    budget of ``Tuning.sets_cheap_base`` where it is small, and skips it where it is larger
    than the tagged programme's budget and every class can lie in ``loc``.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c", "d"], {"M": 2, "P": 2})
    >>> m.add(["a", "b"], ["M"], 1, 1)
    >>> n, best = location_sets(m, "M", top=3)
    >>> n, [(sorted(s), p) for s, p in best]
    (4, [(['a', 'c'], 0.25), (['a', 'd'], 0.25), (['b', 'c'], 0.25)])
    """
    li = model.loc_index(loc)
    deadline = None if time_budget is None else time.perf_counter() + time_budget
    try:
        prob, col, tags = location_problem(model, li)
        # first class by class with the cells of ``loc`` tagged (the other columns
        # merge as the order goes, which keeps it small); then, for small plain counts,
        # location by location with ``loc`` last: the class sums still open before
        # ``loc`` are its composition, so the tags cost nothing (few states while the
        # classes are few)
        bylocation = sorted(prob.cells, key=lambda c: (c[1] == col, c[1], c[0]))
        tun = tuning.CURRENT
        plain = base_work if stretch is None else None     # the plain work decides
        cheap = plain is not None and plain <= tun.sets_cheap_base
        cap = min(max_states, tun.sets_cheap_states if cheap else tun.tagged_states)
        work = tun.sets_cheap_work if cheap else tun.sets_work * cap
        tries: list[tuple[list | None, int, int]] = [(None, cap, work)]
        if plain is not None and plain > work and len(tags) == len(prob.rows):
            # every class can lie in ``loc``: the tagged programme places the classes in
            # the plain one's order, and its states with their tags cut are about the
            # plain ones, so it sums more over its steps (see Tuning.sets_cheap_base)
            tries = []
        if base_states is None or base_states <= tun.location_order_base:
            cap = min(max_states, tun.location_order_states)
            tries.append((bylocation, cap, tun.sets_work * cap))
        # the same answer as a recent analysis' (solver.model.reuse): the same problem,
        # attempts and cards
        memo = reuse.current() if deadline is None else None
        if memo is not None:
            key = ("sets", problem_key(prob), li, top, stretch, tuple(model.cards),
                   tuple((order is None, cap, work) for order, cap, work in tries),
                   settings())
            if key in memo.results:
                memo.hits += 1
                return memo.results[key]
        res = _tagged_sets(model, prob, li, tags, tries, top, deadline, stretch)
        if memo is not None:
            memo.keep(memo.results, key, res, reuse.KEYS)
        return res
    except Infeasible:
        return 0, []


def _tagged_sets(model, prob: Problem, li: int, tags, tries, top: int, deadline, stretch):
    """:func:`location_sets` from its ``tries`` (order, states, work), the first that fits
    (``None`` when none does)."""
    for order, cap, work in tries:
        try:
            plan = Plan(prob, tags, order=order)
            # without a stretch, the work is held to what a stretch would allow
            # (with the merges a programme over its peak budget reaches it late)
            dp = Programme(plan, False, cap, deadline, residues=False,
                           stretch=stretched(cap, stretch), collapse=tuning.CURRENT.collapse,
                           max_work=None if stretch else work)
        except OverBudget:
            continue
        T = len(plan.order)
        layout = plan.layouts[T]
        trows = [next(iter(plan.dims[d].cells))[0] for d in layout]
        merged = dp.composition_counts()
        if merged is None:
            counts = dp.fwd[T]
            vals = [dp.final_digits(p) for p in range(len(layout))]
            rounding = dp.delta_fwd
        else:
            counts, packed, rounding = merged
            vals = [dp.digit(packed, T, d) for d in layout]
        return sets_of(model, prob, li, counts, vals, trows, 4 * rounding, top)
    return None


def interchangeable(model, loc: str):
    """The classes of the cards that can lie in ``loc``, and the cards fixed there: cards of
    one class are interchangeable (every constraint treats them alike, so swapping two of
    them maps the consistent deals onto themselves), hence two sets in ``loc`` with as many
    cards of each class are both possible or both impossible, and equally likely.
    ``(classes, fixed)`` as card indices; ``None`` when the model is inconsistent on its
    face.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c", "d", "e"], {"M": 2, "P": 3})
    >>> m.add(["a", "b"], ["M"], 1, 1)
    >>> m.add(["e"], ["M"], 0, 0)
    >>> interchangeable(m, "M")
    ([[0, 1], [2, 3]], [])
    """
    li = model.loc_index(loc)
    try:
        prob, _, cells = location_problem(model, li)
    except Infeasible:
        return None
    return ([list(prob.rows[r]) for r, _ in cells],
            sorted(ci for ci, l in prob.fixed.items() if l == li))


def sets_of(model, prob: Problem, li: int, counts: np.ndarray, vals, trows, tol: float,
            top: int) -> tuple[int, list[tuple[frozenset, float]]]:
    """:func:`location_sets`' answer from the compositions of ``loc`` (``counts``: of each
    composition, in the programme's units; ``vals[p]``: the number of cards of class
    ``trows[p]`` in each; ``tol``: relative difference within which counts are ties)."""
    total = float(counts.sum()) if len(counts) else 0.0
    if total == 0:
        return 0, []
    base = [model.cards[ci] for ci, l in prob.fixed.items() if l == li]
    # each composition stands for the product over its classes of C(size, k) sets (at
    # most C(52, 4): exact in int64), each with its count divided by that; the
    # compositions are taken in decreasing count per set (stable: ties in the order of
    # the compositions), the names of their sets only for the top ones
    live = np.flatnonzero(counts != 0)
    nsets = np.ones(len(live), dtype=np.int64)
    for r, v in zip(trows, vals):
        size = len(prob.rows[r])
        nsets *= np.array([math.comb(size, k) for k in range(int(v.max(initial=0)) + 1)],
                          dtype=np.int64)[v[live]]
    rank = np.argsort(-(counts[live] / nsets), kind="stable")
    live, nsets = live[rank], nsets[rank]
    per = (counts[live] / nsets).tolist()
    n_sets = int(nsets.sum())
    best: list[tuple[frozenset, float]] = []
    i = 0
    while i < len(per) and len(best) < top:
        j = i
        while j < len(per) and per[j] >= per[i] * (1 - tol):
            j += 1
        need = top - len(best)
        tied = [[([model.cards[ci] for ci in prob.rows[r]], int(v[q]))
                 for r, v in zip(trows, vals) if v[q]] for q in live[i:j].tolist()]
        for s in smallest_sets(tied, base, need):
            best.append((frozenset(s), per[i] / total))
        i = j
    return n_sets, best


def smallest_sets(compositions, base, need: int) -> list[tuple]:
    """The ``need`` first sets by the sorted reprs of their members among those made of
    ``base`` and, for one of ``compositions`` (each a list of ``(members, k)``: ``k`` of
    those members), the chosen members: sorted tuples.  Only the first ``k + need - 1``
    members (by repr) of each part can be among them, so the choices stay few.  How
    :func:`location_sets` and the Mystery Hand's sampled candidates name equally likely
    sets.

    >>> smallest_sets([[(["b", "a", "c"], 1)], [(["d", "e"], 2)]], ["z"], 3)
    [('a', 'z'), ('b', 'z'), ('c', 'z')]
    """
    cands = []
    for parts in compositions:
        choices = [itertools.combinations(sorted(ms, key=repr)[:k + need - 1], k)
                   for ms, k in parts]
        for pick in itertools.product(*choices):
            cands.append(tuple(sorted(list(base) + [x for p in pick for x in p], key=repr)))
    return heapq.nsmallest(need, cands, key=lambda s: tuple(map(repr, s)))
