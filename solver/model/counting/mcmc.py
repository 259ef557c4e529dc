"""Marginals by a Markov chain over consistent deals, when rejection sampling finds none.

The estimate of :func:`~solver.model.counting.estimate` draws exactly uniform deals of a
relaxed model and keeps those meeting the dropped statements.  On the hardest states (an
eight-player public view late in a game) not one draw in hundreds of thousands is kept, and
the estimate had nothing to say (``error`` 1.0).  This module answers those states instead:

* the chain's states are consistent deals (every constraint of the model holds);
* a step proposes a swap of the places of two cards, or a rotation of three, chosen
  uniformly: the proposal is symmetric, so accepting exactly the consistent proposals makes
  the uniform distribution over consistent deals stationary (Metropolis);
* it starts from a consistent deal (a verified witness) and burns in a tenth of its steps;
* a fixed, seeded number of steps: the same model gives the same figures on any machine.

The figures are estimates (``method`` ``"mcmc"``, ``exact`` false). ``error`` is the
largest batch-means 95 % half-width over the (card, place) pairs, never below the Wilson
half-width at 1/2 of the number of times a card was moved; like every estimate it is clamped to the exact support
by the caller, so an impossible place stays 0 and a certain one 1.  A chain that mixes badly
reports a wide error rather than a confident wrong figure, but no error bar of a Markov
chain is a proof: the docs say so (``docs/counting.md``).

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(list("abcdef"), {"P": 2, "Q": 2, "R": 2})
>>> m.add(["a", "b"], ["P"], 1, 1)
>>> m.add(["b", "c"], ["Q"], 1, 1)
>>> m.exclude("a", "R")
>>> start = {"a": "P", "c": "Q", "b": "R", "d": "P", "e": "Q", "f": "R"}
>>> r = chain_marginals(m, start, steps=40_000, seed=1)
>>> r.method, abs(r.marginals["a"]["P"] - 5 / 6) <= r.error, "R" in r.marginals["a"]
('mcmc', True, False)
"""
from __future__ import annotations

import math
import random
from typing import Hashable

#: chain steps of one estimate (fixed: the figures do not depend on the machine)
STEPS = 60_000
#: batches for the batch-means error
BATCHES = 20
#: Student t quantile, 97.5 %, BATCHES - 1 degrees of freedom
T95 = 2.093


def chain_marginals(model, start: dict[Hashable, str], *, steps: int = STEPS, seed: int = 0,
                    support: dict[Hashable, set[str]] | None = None, batches: int = BATCHES):
    """Marginals P(card at place) of a uniform consistent deal, estimated by the chain
    above from the consistent deal ``start`` (a :class:`~solver.model.counting.Counting`).
    ``support``: the exact possible places (cards with one are not moved)."""
    from .problem import Counting

    cards, locs = list(model.cards), list(model.locations)
    ci_of = {c: i for i, c in enumerate(cards)}
    li_of = {l: i for i, l in enumerate(locs)}
    N, L = len(cards), len(locs)
    loc = [li_of[start[c]] for c in cards]
    allowed = [set(range(L)) for _ in range(N)]
    if support:
        for c, poss in support.items():
            if c in ci_of:
                allowed[ci_of[c]] = {li_of[l] for l in poss if l in li_of}
    lo: list[int] = []
    hi: list[int] = []
    count: list[int] = []
    cons_of: dict[tuple[int, int], list[int]] = {}
    for con in model.constraints:
        j = len(lo)
        lo.append(con.lo)
        hi.append(con.hi)
        n = 0
        for ci, li in con.terms:
            cons_of.setdefault((ci, li), []).append(j)
            n += loc[ci] == li
        count.append(n)
    if any(not (a <= n <= b) for a, n, b in zip(lo, count, hi)):
        raise ValueError("the start deal does not meet the model's constraints")
    free = [i for i in range(N) if len(allowed[i]) > 1]
    burn = steps // 10
    per_batch = max((steps - burn) // batches, 1)
    occ = [[0] * L for _ in range(N)]          # steps spent by each card at each place
    since = [0] * N
    batch_p: list[list[list[float]]] = []
    rng = random.Random(seed)
    empty: list[int] = []
    t = 0
    moved = 0

    def flush(now):
        for i in range(N):
            occ[i][loc[i]] += now - since[i]
            since[i] = now

    total = burn + per_batch * batches
    for t in range(total):
        if t == burn:
            flush(t)
            occ = [[0] * L for _ in range(N)]
        elif t > burn and (t - burn) % per_batch == 0:
            flush(t)
            batch_p.append([[x / per_batch for x in row] for row in occ])
            occ = [[0] * L for _ in range(N)]
        if len(free) < 2:
            continue
        if len(free) >= 3 and rng.random() < 0.25:
            a, b, c = rng.sample(free, 3)
            moves = ((a, loc[a], loc[b]), (b, loc[b], loc[c]), (c, loc[c], loc[a]))
        else:
            a, b = rng.sample(free, 2)
            moves = ((a, loc[a], loc[b]), (b, loc[b], loc[a]))  # type: ignore[assignment]
        if all(old == new for _, old, new in moves):
            continue
        if any(new not in allowed[i] for i, old, new in moves if old != new):
            continue
        delta: dict[int, int] = {}
        for i, old, new in moves:
            if old == new:
                continue
            for j in cons_of.get((i, old), empty):
                delta[j] = delta.get(j, 0) - 1
            for j in cons_of.get((i, new), empty):
                delta[j] = delta.get(j, 0) + 1
        if any(d and not (lo[j] <= count[j] + d <= hi[j]) for j, d in delta.items()):
            continue
        for j, d in delta.items():
            count[j] += d
        for i, old, new in moves:
            if old != new:
                occ[i][old] += t - since[i]
                since[i] = t
                loc[i] = new
        moved += 1
    flush(total)
    batch_p.append([[x / per_batch for x in row] for row in occ])
    batch_p = batch_p[:batches]
    B = len(batch_p)
    marg: dict[Hashable, dict[str, float]] = {}
    err = 0.0
    for i, c in enumerate(cards):
        row = {}
        for li in range(L):
            vals = [bp[i][li] for bp in batch_p]
            mean = sum(vals) / B
            if mean > 0:
                row[locs[li]] = mean
            if B > 1:
                var = sum((v - mean) ** 2 for v in vals) / (B - 1)
                err = max(err, T95 * math.sqrt(var / B))
        s = sum(row.values())
        marg[c] = {l: p / s for l, p in row.items()} if s else {}
    # never tighter than the Wilson half-width at 1/2 of the times a card was moved (a chain
    # that rarely moves, or is stuck, reports a wide error)
    n_eff = 2 * moved / max(len(free), 1)
    err = min(max(err, 0.98 / math.sqrt(n_eff)) if n_eff >= 1 else 1.0, 1.0)
    return Counting(False, 0.0, marg, err, "mcmc", 0, steps, moved)
