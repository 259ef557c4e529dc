"""Exact counts: the number of consistent deals and every marginal from one forward and
one backward pass, and the chances of several all-in events from one programme."""
from __future__ import annotations

import time
from typing import Hashable, cast

import numpy as np

from solver.model.witness import Infeasible

from .cache import forget_other, keep_last, last_programme, programme
from .plan import Plan
from .problem import Counting, OverBudget, Problem, apart_problem, simplify
from .programme import Programme


def exact_marginals(model, prob: Problem, dp: Programme) -> dict:
    """Every card's probability per location from a programme's expected cell counts
    (a class's mass in a column shared by its cards, a lump's by its locations' sizes)."""
    locs = model.locations
    marg: dict[Hashable, dict[str, float]] = {}
    for ci, li in prob.fixed.items():
        marg[model.cards[ci]] = {locs[li]: 1.0}
    total = dp.raw_total
    mass = dp.column_mass()
    for r, cards in enumerate(prob.rows):
        size = len(cards)
        row: dict[str, float] = {}
        support = [(c, mass.get((r, c), 0)) for c in range(len(prob.cols))
                   if (r, c) in prob.cells]
        support = [(c, m) for c, m in support if m > 0]
        for c, m in support:
            group = prob.cols[c]
            gcap = prob.col_cap[c]
            for li in group:
                cap = prob.loc_cap[li]
                if cap == 0:
                    continue
                if len(support) == 1 and len(group) == 1:
                    p = 1.0
                elif dp.exact:
                    p = (m * cap) / (size * total * gcap)
                else:
                    p = float(m) * cap / (size * float(total) * gcap)
                row[locs[li]] = p
        for ci in cards:
            marg[model.cards[ci]] = dict(row)
    return {c: marg[c] for c in model.cards if c in marg}


def order_marginals(model, marg):
    """``marg`` with each card's locations in the model's order."""
    order = {l: i for i, l in enumerate(model.locations)}
    return {c: dict(sorted(d.items(), key=lambda kv: order[kv[0]])) for c, d in marg.items()}


def inconsistent(model, method="dp") -> Counting:
    """The exact answer of a model with no consistent deal."""
    return Counting(True, 0, {}, 0.0, method, 0)


def exact_count(model, *, exact_ints: bool = False, max_states: int | None = None,
                time_budget: float | None = None, exact_total: bool = True,
                stretch: tuple[int, int] | None = None, apart: str | None = None
                ) -> Counting:
    """The exact counting alone (no fallback): raises :class:`OverBudget` when the
    programme exceeds ``max_states`` states or its forward pass exceeds ``time_budget``
    seconds (the backward pass then costs about as much again).

    By default the programme runs in float64 (every term positive: each marginal has a
    relative error below ``rounding``, reported, typically ~1e-14) and carries residues
    modulo a few primes so that ``total`` is still the exact integer.  ``exact_total=False``
    skips the residues (about 3 times faster forward): the marginals are the same, and
    ``total`` is exact below 2**53 deals, else the nearest integer of the float count
    (``total_exact`` false, relative error below ``rounding``).  ``exact_ints=True``
    computes everything with Python integers (the test oracle; 2-3 times slower): exact
    total, correctly rounded marginals.  Zeros and ones are exact either way (zero-ness
    is decided by the support, never by rounding).  ``apart`` (a location): counted in a
    column of its own, never lumped or merged, so that
    :func:`~solver.model.counting.possible.possible_compositions` can walk the same programme
    (the same figures).

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(list(range(6)), {"A": 2, "B": 2, "C": 2})
    >>> exact_count(m).total, exact_count(m, exact_ints=True).total
    (90, 90)
    >>> m.add([0, 1, 2], ["A"], 2, 2)
    >>> r = exact_count(m)
    >>> r.total, r.marginals[0]["A"], r.marginals[3]["B"]
    (18, 0.6666666666666666, 0.5)
    """
    deadline = None if time_budget is None else time.perf_counter() + time_budget
    try:
        forget_other(model)     # (its memory free before this count's is taken)
        if apart is None:
            prob, plan_args = simplify(model), {}
        else:
            prob, _, plan_args = apart_problem(model, model.loc_index(apart))
        plan, dp = programme(prob, plan_args,
                             dict(exact=exact_ints, max_states=max_states,
                                  residues=exact_total, stretch=stretch),
                             deadline)
        if dp.total == 0:
            return inconsistent(model)
        dp.backward(full=False)     # (the marginals' tables alone: see Programme.backward)
    except Infeasible:
        return inconsistent(model)
    if not exact_ints:      # kept for sample_deals on the same model (the analyses draw next)
        keep_last(model, prob, plan, dp)
    marg = exact_marginals(model, prob, dp)
    dp.drop_values()            # (what is asked next mostly walks the transitions alone)
    return Counting(True, dp.total, order_marginals(model, marg), 0.0, "dp", dp.peak,
                    rounding=dp.rounding, total_exact=dp.total_exact,
                    raw_states=dp.raw_peak, work=dp.work)


def all_in_chances(model, events, *, max_states: int = 200_000,
                   stretch: tuple[int, int] | None = None) -> list[float] | None:
    """For each event ``(cards, locations)``, P(every one of ``cards`` lies in one of
    ``locations``) under a uniformly random consistent deal, all from one programme;
    ``None`` when it is over budget (``stretch`` as in :class:`Programme`).

    The programme splits the classes so that each lies inside or outside each event's cards,
    and lumps only locations alike for every event; an event is then "no card of those
    classes in a cell outside its locations".  Its count is the forward values at the first
    such cell carried through the steps up to the last with those cells held at 0, times the
    backward values there: one pass over that stretch of the transitions per event instead
    of a programme per event.  When the count just made (:func:`exact_count`, kept) already
    has such classes and lumps, as it has once statements set the events' cards apart, its
    tables are used and nothing is counted again.  A probability is exactly 0 when no deal
    meets the event (every term is positive); it is at most the float just below 1 unless no
    deal misses it, which only the supports can tell (the caller's, from the exact count).

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c", "d"], {"P": 2, "Q": 1, "R": 1})
    >>> m.add(["a", "b"], ["P"], 1, 1)
    >>> [round(p, 6) for p in all_in_chances(m, [(["a", "b"], ["Q", "R"]),
    ...                                           (["c", "d"], ["P"]), (["a"], ["P"])])]
    [0.0, 0.0, 0.5]
    >>> [round(p, 6) for p in all_in_chances(m, [(["c", "d"], ["P", "Q"])])]
    [0.5]
    """
    evs = [([model.card_index(c) for c in cards], {model.loc_index(l) for l in locs})
           for cards, locs in events]
    split: dict[int, tuple[int, ...]] = {}
    loc_split: dict[int, tuple[int, ...]] = {}
    for i, (cis, locs) in enumerate(evs):
        for ci in cis:
            split[ci] = split.get(ci, ()) + (i,)
        for li in locs:
            loc_split[li] = loc_split.get(li, ()) + (i,)
    kept = last_programme(model)
    if kept is not None and _splits(kept[0], kept[1], split, loc_split):
        prob, plan, dp = kept           # the count just made already keeps them apart
        dp.backward()                   # (its backward values, when the count dropped them)
    else:
        try:
            prob = simplify(model, split=split, loc_split=loc_split)
            labels = {c: (prob.col_group[c], loc_split.get(ls[0]))
                      for c, ls in enumerate(prob.cols)}
            plan = Plan(prob, col_labels=labels)
            dp = Programme(plan, False, max_states, None, residues=False, stretch=stretch)
            if dp.total == 0:
                return [0.0] * len(evs)
            dp.backward()
        except Infeasible:
            return [0.0] * len(evs)
        except OverBudget:
            return None
    T = len(plan.order)
    total = float(dp.fwd[T].sum())
    step_of = {c: t for t, c in enumerate(plan.order)}
    out: list[float | None] = [None] * len(evs)
    spans = {}                  # event -> (first step, end step, steps held at 0)
    for e, (cis, locs) in enumerate(evs):
        if any(prob.fixed[ci] not in locs for ci in cis if ci in prob.fixed):
            out[e] = 0.0
            continue
        mine = {r for r, row in enumerate(prob.rows) if row[0] in set(cis)}
        banned = sorted(step_of[c] for c in plan.cells
                        if c[0] in mine and not set(plan.cols[c[1]]) & locs)
        if not banned:
            out[e] = 1.0
            continue
        spans[e] = (banned[0], banned[-1] + 1, set(banned))
    # one sweep over the steps: each step's transitions fetched once for every event
    vecs: dict[int, np.ndarray] = {}
    if spans:
        for t in range(min(a for a, _, _ in spans.values()),
                       max(b for _, b, _ in spans.values())):
            for e, (a, _, _) in spans.items():
                if a == t:
                    vecs[e] = dp.fwd[t]   # (counted again when dropped)
            if not vecs:
                continue
            src, k, idx, w = dp.transitions(t)
            n_next = dp.sizes[t + 1]
            for e in list(vecs):
                contrib = vecs[e][src] * w
                if t in spans[e][2]:
                    contrib[k > 0] = 0.0
                vecs[e] = np.bincount(idx, weights=contrib, minlength=n_next)
                if spans[e][1] == t + 1:
                    hits = float(vecs.pop(e) @ dp.bwd[t + 1])
                    out[e] = 0.0 if hits <= 0 else min(hits / total,
                                                       float(np.nextafter(1.0, 0.0)))
    return cast(list[float], out)    # every event has its figure by now


def _splits(prob: Problem, plan: Plan, split: dict, loc_split: dict) -> bool:
    """Whether every class of ``prob`` has one ``split`` label and every lump and merged
    column of ``plan`` one ``loc_split`` label (its programme can then answer
    :func:`all_in_chances`)."""
    return (all(len({split.get(ci) for ci in row}) == 1 for row in prob.rows)
            and all(len({loc_split.get(li) for li in col}) == 1 for col in plan.cols))
