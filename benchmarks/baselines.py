"""The two baselines of issue 3, run on any :class:`~solver.model.CardLocationModel`.

* :func:`enumerate_deals`: count the consistent deals and every card's probability per
  location by CP-SAT solution enumeration (``enumerate_all_solutions`` and a solution
  callback that counts and accumulates the marginals), with a time limit.  This is what a
  Clue assistant built on a SAT/CP solver does when it wants exact probabilities.
* :func:`rejection_sample`: shuffle and deal uniformly at random, keep the deals that
  satisfy every constraint, for a fixed number of seconds.  The cards that a statement
  places outright (one's own hand, cards shown) are dealt to their place first and only
  the rest is shuffled -- the usual Clue-solver sampler, and a much stronger baseline than
  shuffling the whole deck (which accepts practically nothing once one hand is known).
  Accepted deals are exactly uniform over the consistent deals.

Both return per-card marginals keyed like the model (``card key -> location -> p``) so
they can be compared with :func:`solver.model.counting.exact_count`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Hashable

import numpy as np


# ----------------------------------------------------------------------------------------
# (a) CP-SAT solution enumeration
@dataclass
class Enumeration:
    finished: bool              # the search space was exhausted within the time limit
    count: int                  # solutions found (the exact count when finished)
    seconds: float
    marginals: dict[Hashable, dict[str, float]] = field(default_factory=dict)
    status: str = ""


def enumerate_deals(model, time_limit: float = 60.0, marginals: bool = True) -> Enumeration:
    """Count the model's consistent deals by CP-SAT enumeration; marginals when finished
    (``marginals=False``: count only, the callback does nothing else -- a lower bound on
    the time of any enumeration-based method).

    Every consistent deal is one solution of the 0/1 model (physical copies are distinct
    cards, as in :func:`~solver.model.counting.count_deals`).  Only the variables of cards
    that no single statement places outright are read in the callback (the others are
    constant), to keep the per-solution cost of the baseline low."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    m, x, _ = model._build(False)
    placed = _placed(model)
    free = [(ci, li) for (ci, li) in x if ci not in placed]
    idx = np.array([x[p].Index() for p in free], dtype=np.int64)
    acc = np.zeros(len(free), dtype=np.int64)

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0
            self.acc = acc

        def on_solution_callback(self):
            self.n += 1
            if not marginals:
                return
            # the response's solution lists every variable's value, by index
            sol = np.asarray(self.response_proto.solution, dtype=np.int64)
            self.acc += sol[idx]

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    cb = Counter()
    st = solver.Solve(m, cb)
    seconds = time.perf_counter() - start
    finished = st in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    out = Enumeration(finished, cb.n, seconds, status=solver.StatusName(st))
    if finished and cb.n and marginals:
        locs = model.locations
        marg: dict = {}
        for ci, li in placed.items():
            marg[model.cards[ci]] = {locs[li]: 1.0}
        for (ci, li), a in zip(free, acc.tolist()):
            if a:
                marg.setdefault(model.cards[ci], {})[locs[li]] = a / cb.n
        out.marginals = marg
    return out


# ----------------------------------------------------------------------------------------
# (b) rejection sampling at a fixed time budget
@dataclass
class Rejection:
    drawn: int
    accepted: int
    seconds: float
    marginals: dict[Hashable, dict[str, float]]   # the prior's marginals when none accepted


def _placed(model) -> dict[int, int]:
    """card index -> location index for the cards a single statement places outright."""
    out: dict[int, int] = {}
    for con in model.constraints:
        if len(con.terms) == 1 and con.lo >= 1:
            ci, li = next(iter(con.terms))
            out.setdefault(ci, li)
    return out


def rejection_sample(model, seconds: float, rng=None, batch: int = 256) -> Rejection:
    """Uniform random deals (the cards placed by a statement dealt to their place, the rest
    shuffled into the remaining room) kept when they satisfy every constraint, for
    ``seconds`` (at least one batch).  Marginals are the accepted deals' frequencies;
    when nothing is accepted, the sampler's prior (placed cards certain, the others spread
    in proportion to the room left) is returned."""
    gen = np.random.default_rng(rng)
    start = time.perf_counter()
    N, L = len(model.cards), len(model.locations)
    placed = _placed(model)
    room = [model.sizes[l] for l in model.locations]
    for li in placed.values():
        room[li] -= 1
    free = np.array([ci for ci in range(N) if ci not in placed], dtype=np.int64)
    if min(room) < 0 or sum(room) != len(free):
        # the placements alone contradict the sizes: nothing can ever be accepted
        return Rejection(0, 0, time.perf_counter() - start, {})
    slots = np.repeat(np.arange(L), room)
    base = np.full(N, -1, dtype=np.int64)
    for ci, li in placed.items():
        base[ci] = li
    # constraint matrix over (card, location) pairs, and the bounds
    cons = [c for c in model.constraints]
    A = np.zeros((len(cons), N * L), dtype=np.float32)
    lo = np.array([c.lo for c in cons], dtype=np.float32)
    hi = np.array([c.hi for c in cons], dtype=np.float32)
    for j, c in enumerate(cons):
        for ci, li in c.terms:
            A[j, ci * L + li] = 1.0
    At = np.ascontiguousarray(A.T)
    hits = np.zeros((N, L), dtype=np.int64)
    drawn = accepted = 0
    deadline = start + seconds
    offs = np.arange(N) * L
    while True:
        t0 = time.perf_counter()
        deals = np.tile(base, (batch, 1))
        deals[:, free] = gen.permuted(np.tile(slots, (batch, 1)), axis=1)
        onehot = np.zeros((batch, N * L), dtype=np.float32)
        np.put_along_axis(onehot, deals + offs, 1.0, axis=1)
        counts = onehot @ At                                  # (batch, constraints)
        ok = ((counts >= lo) & (counts <= hi)).all(axis=1)
        good = deals[ok]
        drawn += batch
        if len(good):
            accepted += len(good)
            np.add.at(hits, (np.broadcast_to(np.arange(N), good.shape), good), 1)
        now = time.perf_counter()
        left = deadline - now
        if left <= 0:
            break
        per = (now - t0) / batch
        batch = int(min(max(16, 0.8 * left / max(per, 1e-9)), 4096))
    locs = model.locations
    marg: dict = {}
    if accepted:
        P = hits / accepted
        for ci, c in enumerate(model.cards):
            marg[c] = {locs[li]: float(P[ci, li]) for li in range(L) if hits[ci, li]}
    else:
        nfree = max(len(free), 1)
        for ci, c in enumerate(model.cards):
            if ci in placed:
                marg[c] = {locs[placed[ci]]: 1.0}
            else:
                marg[c] = {locs[li]: room[li] / nfree for li in range(L) if room[li]}
    return Rejection(drawn, accepted, time.perf_counter() - start, marg)


# ----------------------------------------------------------------------------------------
def by_name(model, marginals: dict) -> dict[str, dict[str, float]]:
    """Marginals per printed card name: physical copies (jokers, two packs) summed, so a
    name's figure is the expected number of its copies at each location (the games'
    ``cards`` output)."""
    out: dict[str, dict[str, float]] = {}
    for k, d in marginals.items():
        row = out.setdefault(model.name(k), {})
        for l, p in d.items():
            row[l] = row.get(l, 0.0) + p
    return out


def max_error(est: dict, exact: dict, cards, locations) -> float:
    """Largest |estimate - exact| over every (card, location) pair."""
    worst = 0.0
    for c in cards:
        e, x = est.get(c, {}), exact.get(c, {})
        for l in locations:
            worst = max(worst, abs(e.get(l, 0.0) - x.get(l, 0.0)))
    return worst
