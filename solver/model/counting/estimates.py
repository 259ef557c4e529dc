"""Counts that fall back to estimates: exactly uniform deals of a relaxed model filtered
by the statements it dropped (or a Markov chain when none is kept), with a 95 %
half-width, clamped to the exact support."""
from __future__ import annotations

import time
from collections import defaultdict
from typing import Hashable

import numpy as np

from solver.model.budget import check as _deadline
from solver.model.stats import wilson_halfwidth
from solver.model.witness import Infeasible

from . import tuning
from .cache import programme
from .exact import exact_count, exact_marginals, inconsistent, order_marginals
from .problem import Counting, OverBudget, Problem, simplify
from .sampling import deals_from_counts, rngs


def count_deals(model, *, max_states: int = 200_000, time_budget: float = 1.0, rng=None,
                support: dict[Hashable, set[str]] | None = None,
                exact_ints: bool = False) -> Counting:
    """Count the consistent deals of ``model`` and every card's probability per location.

    Exact (``exact=True``, ``method="dp"``) whenever the dynamic programme stays within
    ``max_states`` states and about ``time_budget`` seconds; otherwise an estimate
    (``exact=False``, ``method="sampled"``): exactly uniform deals of a relaxed model (the
    statements that blow up the state space are dropped) filtered by the dropped
    statements, with ``error`` a 95 % half-width valid for each marginal (pointwise).
    An estimate never contradicts a certainty: impossible pairs stay absent and certain
    ones exactly 1.  ``support`` (card -> possible locations, e.g. from
    ``model.backbone().possible``) is used to clamp estimates; it must be exact.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 2})
    >>> m.add(["a", "b"], ["P"], 0, 0)
    >>> r = count_deals(m)
    >>> r.exact, r.total, r.marginals
    (True, 1, {'a': {'Q': 1.0}, 'b': {'Q': 1.0}, 'c': {'P': 1.0}})
    >>> m.add(["c"], ["Q"], 1, 1)                 # contradiction
    >>> count_deals(m).total
    0
    """
    start = time.perf_counter()
    try:
        # the forward pass gets 40 % of the budget; the backward pass costs about as much
        return exact_count(model, exact_ints=exact_ints, max_states=max_states,
                           time_budget=0.4 * time_budget)
    except OverBudget:
        pass
    remaining = max(time_budget - (time.perf_counter() - start), 0.4 * time_budget)
    return estimate(model, max_states=max_states, time_budget=remaining, rng=rng,
                    support=support)


def deterministic_count(model, max_states: int = 200_000, support=None, seed: int = 0,
                        samples: int | None = None,
                        stretch: tuple[int, int] | None = None,
                        prove_support: bool = False, apart: str | None = None) -> Counting:
    """Exact counting within ``max_states`` states, else an estimate from a fixed number of
    sampled deals drawn with a seeded generator: no clock is involved, so the same model
    always gives the same answer on any machine (the CLI's default).  ``samples``: the
    draws behind an estimate (default ``Tuning.estimate_samples``); ``prove_support``:
    see :func:`estimate`; ``apart``: see :func:`~solver.model.counting.exact_count`.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 2})
    >>> deterministic_count(m).marginals["a"]
    {'P': 0.3333333333333333, 'Q': 0.6666666666666666}
    """
    try:
        return exact_count(model, max_states=max_states, exact_total=False,
                           stretch=stretch, apart=apart)
    except OverBudget:
        pass
    if samples is None:
        samples = tuning.CURRENT.estimate_samples
    try:
        return estimate(model, max_states=max_states, time_budget=0, rng=seed,
                        support=support, min_samples=samples, max_samples=samples,
                        prove_support=prove_support)
    except OverBudget:
        return Counting(False, 0.0, {}, 1.0, "none", 0)


def _acceptance(model, prob: Problem, con) -> float:
    """A rough probability that a random deal meets ``con``: cards independent, each in
    one of its possible locations in proportion to the space left there."""
    allowed: dict[int, list[int]] = {}
    for (r, c) in prob.cells:
        for ci in prob.rows[r]:
            allowed.setdefault(ci, []).extend(prob.cols[c])
    ps: dict[int, float] = defaultdict(float)
    for ci, li in con.terms:
        if ci in prob.fixed:
            ps[ci] = max(ps[ci], float(prob.fixed[ci] == li))
        elif li in allowed.get(ci, ()):
            tot = sum(prob.loc_cap[l] for l in allowed[ci])
            ps[ci] += prob.loc_cap[li] / tot if tot else 0.0
    dist = [1.0]
    for p in ps.values():
        p = min(max(p, 0.0), 1.0)
        dist = [a * (1 - p) + (dist[i - 1] * p if i else 0.0)
                for i, a in enumerate(dist + [0.0])]
    return sum(dist[max(con.lo, 0): con.hi + 1])


def relaxations(model, prob: Problem):
    """Relaxed problems, from mild to drastic, for the estimate.  Each is checked
    afterwards by rejection, so each costs acceptance:

    1. statements that a random deal meets anyway (estimated acceptance >= 0.97, e.g.
       "the asker does not hold all four", MH-11), as long as together they keep >= 0.8;
    2. then the sizes of 2, 3, ... single locations are no longer tracked (one size is
       implied by the others, so relaxing one changes nothing; each further one divides
       the states by about its size);
    3. then more statements, the most likely to hold first.

    Yields (dropped constraint ids, relaxed locations, problem, the plan's arguments: see
    :func:`programme`)."""
    row_of = {ci: r for r, cs in enumerate(prob.rows) for ci in cs}
    col_of = {li: c for c, ls in enumerate(prob.cols) for li in ls}
    acc = {}
    for j, con in enumerate(model.constraints):
        cs = {(row_of[ci], col_of[li]) for ci, li in con.terms
              if ci in row_of and li in col_of and (row_of[ci], col_of[li]) in prob.cells}
        if len(cs) >= 2:        # an open sum of the programme (not a fact)
            acc[j] = _acceptance(model, prob, con)
    ranked = sorted(acc, key=lambda j: (-acc[j], j))
    base, keep = [], 1.0
    for j in ranked:
        if acc[j] < 0.97 or keep * acc[j] < 0.8:
            break
        base.append(j)
        keep *= acc[j]
    rest = [j for j in ranked if j not in base]
    p = simplify(model, frozenset(base)) if base else prob
    if base:
        yield sorted(base), [], p, {}
    singles = sorted((c for c, ls in enumerate(p.cols) if len(ls) == 1),
                     key=lambda c: (-p.col_cap[c], c))
    for j in range(2, len(singles) + 1):
        cols = singles[:j]
        yield sorted(base), [p.cols[c][0] for c in cols], p, {"relaxed_cols": tuple(cols)}
    k = 1
    while k < 2 * len(rest):
        drop = frozenset(base + rest[:k])
        p = simplify(model, drop)
        singles = [c for c, ls in enumerate(p.cols) if len(ls) == 1]
        yield (sorted(drop), [p.cols[c][0] for c in singles], p,
               {"relaxed_cols": tuple(singles)})
        k *= 2


def accepted_mask(deals: np.ndarray, sizes, checks) -> np.ndarray:
    """Which sampled deals (rows: card -> location index) of a relaxed model meet the
    dropped constraints: every ``(location, size)`` of ``sizes`` and every ``(cards,
    locations, lo, hi)`` of ``checks`` (the rejection step of relaxed sampling)."""
    ok = np.ones(len(deals), dtype=bool)
    for li, size in sizes:
        ok &= (deals == li).sum(axis=1) == size
    for ci, li, lo, hi in checks:
        cnt = (deals[:, ci] == li[None, :]).sum(axis=1)
        ok &= (cnt >= lo) & (cnt <= hi)
    return ok


def estimate(model, *, max_states: int = 200_000, time_budget: float = 1.0, rng=None,
             support: dict[Hashable, set[str]] | None = None, max_samples: int = 200_000,
             min_samples: int = 0, prove_support: bool = False) -> Counting:
    """The fallback of :func:`count_deals` (callable directly): rejection from exactly
    uniform deals of a relaxed model (see :func:`relaxations`), whose programme is kept
    to a quarter of ``max_states`` so that sampling is fast.

    ``error`` bounds, at 95 % for each pair, the distance between every reported marginal
    and the truth (the largest Wilson half-width over the pairs; 1.0 when no sample was
    accepted).  ``total`` estimates the count (relaxed count times acceptance rate).
    Accepted deals are consistent, so a pair that is impossible is never reported and a
    certain one comes out exactly 1.0; ``support`` (exact possible locations) also keeps
    possible pairs strictly between 0 and 1.  ``time_budget=0`` with ``min_samples``
    draws a fixed number of samples (reproducible with a seeded ``rng``).
    ``prove_support``: also compare the relaxed programme's exact marginals with the
    accepted deals, and report the exact ``support`` where they agree (a few to tens of
    milliseconds more; worth it where the caller would otherwise run CP-SAT's backbone).

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(list("abcdef"), {"P": 2, "Q": 2, "R": 2})
    >>> m.add(["a", "b"], ["P"], 1, 1)
    >>> m.add(["b", "c"], ["Q"], 1, 1)
    >>> m.exclude("a", "R")
    >>> r = estimate(m, time_budget=0, min_samples=4000, max_samples=4000, rng=1)
    >>> r.exact, r.method, r.samples, round(r.error, 3)
    (False, 'sampled', 4000, 0.022)
    >>> abs(r.probability("a", "P") - 5 / 6) <= r.error, "R" in r.marginals["a"]
    (True, False)
    """
    gen, pyr = rngs(rng)
    start = time.perf_counter()
    deadline = start + time_budget
    try:
        prob0 = simplify(model)
    except Infeasible:
        return inconsistent(model, "sampled")
    budget = max(2_000, max_states // 4)
    found = None
    levels = relaxations(model, prob0)
    nxt = next(levels, None)
    if nxt is None:
        # nothing to relax (no statements, at most one location to free): the exact
        # programme is small, run it without limits
        return exact_count(model)
    while nxt is not None and found is None:
        cur, nxt = nxt, next(levels, None)
        dropped, relaxed, prob, plan_args = cur
        # the most relaxed level runs without limits; past half the time, a level runs
        # to the end with up to max_states states (rather than trying more levels)
        late = time.perf_counter() > start + 0.5 * time_budget
        limit = None if nxt is None else (max(budget, max_states) if late else budget)
        until = None if (nxt is None or late) else deadline
        try:
            plan, dp = programme(prob, plan_args,
                                 dict(exact=False, max_states=limit, residues=False), until)
        except (Infeasible, OverBudget):
            continue
        found = dropped, relaxed, prob, plan, dp
    if found is None:
        return Counting(False, 0.0, {}, 1.0, "sampled", 0)
    dropped, relaxed, prob, plan, dp = found
    if dp.total == 0:
        return inconsistent(model, "sampled")
    dp.backward()
    checks = []
    for j in dropped:
        con = model.constraints[j]
        cis = np.array([p[0] for p in con.terms], dtype=np.intp)
        lis = np.array([p[1] for p in con.terms], dtype=np.int32)
        checks.append((cis, lis, con.lo, con.hi))
    sizes = [(li, model.sizes[model.locations[li]]) for li in relaxed]
    L, N = len(model.locations), len(model.cards)
    hits = np.zeros((N, L), dtype=np.int64)
    kept: list = []
    drawn = accepted = 0
    # a fixed number of draws (no clock) in one batch: one pass over the sampling tables,
    # which are rebuilt per batch when they are too big to keep
    batch = min(max_samples, max(512, min_samples)) if time_budget <= 0 else 512
    while True:
        _deadline("the probabilities")
        t0 = time.perf_counter()
        K = dp.sample_counts(batch, gen, pyr)
        deals = deals_from_counts(prob, plan, K, gen)
        ok = accepted_mask(deals, sizes, checks)
        good = deals[ok]
        if len(good) and sum(len(k) for k in kept) < tuning.CURRENT.keep_deals:
            kept.append(good)
        drawn += batch
        accepted += len(good)
        if len(good):
            np.add.at(hits, (np.broadcast_to(np.arange(N), good.shape), good), 1)
        now = time.perf_counter()
        if drawn >= max_samples or (now > deadline and drawn >= min_samples):
            break
        # one pass over the tables per batch: size the next batch to the time left
        per = (now - t0) / batch
        left = deadline - now
        batch = int(min(max(512, 0.9 * left / max(per, 1e-9)), 65536, max_samples - drawn))
        if batch < 1 or (left <= 0 and drawn >= min_samples):
            break
    locs = model.locations
    if accepted == 0:
        # no draw met the dropped statements: a Markov chain over consistent deals
        chain = _chain(model, support, pyr.randrange(2 ** 31), dp.peak)
        if chain is not None:
            return chain
        # nothing to go on (the relaxed model's figures could contradict a certainty):
        # no marginals, or uniform over the exact support when it is given
        marg = _clamp(model, {}, support, 0)
        return Counting(False, 0.0, order_marginals(model, marg), 1.0, "sampled",
                        dp.peak, drawn, 0, dropped)
    P = hits / accepted
    err = float(wilson_halfwidth(P, accepted).max())
    marg = {}
    for ci, c in enumerate(model.cards):
        marg[c] = {locs[li]: float(P[ci, li]) for li in range(L) if hits[ci, li] > 0}
    # the relaxed model allows every deal the model does (its pairs of zero mass are
    # impossible) and the accepted deals are consistent (their pairs are possible): where
    # the two agree, the support is proved without CP-SAT
    proved = None
    if prove_support:
        relaxed_support = {c: {l for l, p in ls.items() if p > 0}
                           for c, ls in exact_marginals(model, prob, dp).items()}
        if all(relaxed_support.get(c, set()) == set(marg[c]) for c in model.cards):
            proved = {c: set(marg[c]) for c in model.cards}
    marg = _clamp(model, marg, support, accepted)
    total = dp.total * accepted / drawn
    return Counting(False, total, order_marginals(model, marg), err, "sampled", dp.peak,
                    drawn, accepted, dropped, deals=np.concatenate(kept) if kept else None,
                    support=proved)


def _chain(model, support, seed: int, states: int = 0) -> Counting | None:
    """The estimate of :mod:`~solver.model.counting.mcmc` from a consistent start deal, clamped to
    the support; ``None`` for a model with facts outside its constraints (its deals cannot
    be checked step by step) or when no start deal is found."""
    from dataclasses import replace

    from solver.model import CardLocationModel
    from .mcmc import chain_marginals

    cls = type(model)
    if cls._build is not CardLocationModel._build and (
            cls.accepts is CardLocationModel.accepts or getattr(model, "choices", None)):
        return None     # facts outside the constraints (a chain step cannot check them)
    start = model.witness()
    if not isinstance(start, dict):
        start = model.solution()
    if not start:
        return None
    res = chain_marginals(model, start, seed=seed, support=support)
    n_eff = max(int(res.error ** -2), 1) if res.error > 0 else res.accepted
    marg = _clamp(model, res.marginals, support, n_eff)
    return replace(res, marginals=order_marginals(model, marg), states=states)


def clamp_to_support(result: Counting, support: dict[Hashable, set[str]]) -> Counting:
    """An estimate made to agree with the exact ``support`` (card -> possible locations,
    e.g. ``model.backbone().possible``): impossible pairs removed, certain pairs 1.0, and
    possible pairs that no accepted sample showed given a small positive probability
    (half a sample), each card renormalised.  Exact results are returned unchanged.

    >>> r = Counting(False, 10.0, {"a": {"P": 1.0}}, 0.1, "sampled", 5, 20, 9)
    >>> clamp_to_support(r, {"a": {"P", "Q"}}).marginals["a"]
    {'P': 0.95, 'Q': 0.05}
    """
    if result.exact:
        return result
    from dataclasses import replace
    return replace(result, marginals=_clamp(None, result.marginals, support, result.accepted))


def _clamp(model, marg, support, n):
    """Make an estimate agree with the exact support: impossible pairs absent, certain
    pairs 1.0, possible pairs strictly between 0 and 1 (at least half a sample)."""
    if not support:
        return marg
    out = {}
    eps = 0.5 / (n + 1)
    for c in list(marg) + [c for c in support if c not in marg]:
        d = marg.get(c, {})
        poss = support.get(c)
        if poss is None:
            out[c] = d
            continue
        if len(poss) == 1:
            out[c] = {next(iter(poss)): 1.0}
            continue
        locs = [l for l in d if l in poss] + sorted(l for l in poss if l not in d)
        row = {l: min(max(d.get(l, 0.0), eps), 1 - eps) for l in locs}
        s = sum(row.values())
        out[c] = {l: p / s for l, p in row.items()}
    return out
