"""A consistent deal found without a solver (pure Python: no numpy, no OR-Tools).

``sleuth log`` checks every statement against the whole record.  Most records are
consistent, and a consistent deal is a certificate: checking it against every constraint
proves the model consistent.  :func:`find_deal` looks for one by propagation (the sound
simplification shared with :mod:`solver.model.counting`), a capacity-respecting first deal
and a min-conflicts local search over swaps; the deal it returns is verified against the
model's own constraints, so ``find_deal`` never wrongly calls a model consistent.  It
answers ``False`` only when propagation proves the model inconsistent, and ``None`` when it
could not decide (the caller then asks CP-SAT, which also names the conflicting lines).

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(["a", "b", "c", "d"], {"P": 2, "Q": 2})
>>> m.add(["a", "b"], ["P"], 1, 1)
>>> m.add(["a", "c"], ["Q"], 2, 2)
>>> deal = find_deal(m)
>>> sorted(deal.items())
[('a', 'Q'), ('b', 'P'), ('c', 'Q'), ('d', 'P')]
>>> m.add(["d"], ["Q"], 1, 1)
>>> find_deal(m)
False
"""
from __future__ import annotations

import random
from collections import defaultdict
from typing import Hashable


class Infeasible(Exception):
    """The model has no consistent deal (found while simplifying)."""


def propagate(model, drop=frozenset()):
    """Sound simplification.  Returns (allowed per card, remaining constraints as
    [dict card -> set(locs), lo, hi], capacities, used constraint ids)."""
    n, L = len(model.cards), len(model.locations)
    allowed = [set(range(L)) for _ in range(n)]
    cons = []
    used = []
    for j, con in enumerate(model.constraints):
        if j in drop:
            continue
        used.append(j)
        if con.lo > con.hi:
            raise Infeasible
        d: dict[int, set[int]] = defaultdict(set)
        for ci, li in con.terms:
            d[ci].add(li)
        cons.append([dict(d), con.lo, con.hi])
    sizes = [model.sizes[l] for l in model.locations]
    changed = True
    while changed:
        changed = False
        keep = []
        for con in cons:
            d, lo, hi = con
            for ci in list(d):
                ls = d[ci] & allowed[ci]
                if not ls:
                    del d[ci]
                elif ls == allowed[ci]:        # the card certainly contributes 1
                    lo -= 1
                    hi -= 1
                    del d[ci]
                else:
                    d[ci] = ls
            k = len(d)
            if hi < 0 or lo > k or lo > hi:
                raise Infeasible
            if lo <= 0 and hi >= k:
                continue                       # says nothing more
            if hi == 0:
                for ci, ls in d.items():
                    allowed[ci] -= ls
                changed = True
                continue
            if lo == k:
                for ci, ls in d.items():
                    allowed[ci] &= ls
                changed = True
                continue
            con[1], con[2] = lo, hi
            keep.append(con)
        cons = keep
        # capacities
        cap = list(sizes)
        cand: list[list[int]] = [[] for _ in range(L)]
        for ci in range(n):
            a = allowed[ci]
            if not a:
                raise Infeasible
            if len(a) == 1:
                cap[next(iter(a))] -= 1
            else:
                for li in a:
                    cand[li].append(ci)
        for li in range(L):
            if cap[li] < 0 or len(cand[li]) < cap[li]:
                raise Infeasible
            if cand[li] and cap[li] == 0:
                for ci in cand[li]:
                    allowed[ci].discard(li)
                changed = True
            elif cand[li] and len(cand[li]) == cap[li]:
                for ci in cand[li]:
                    allowed[ci] = {li}
                changed = True
    cap = list(sizes)
    for ci in range(n):
        if len(allowed[ci]) == 1:
            cap[next(iter(allowed[ci]))] -= 1
    return allowed, cons, cap, used


def _first_deal(free, allowed, cap, rng):
    """Every free card in one of its allowed locations, each location filled to its
    capacity (a b-matching by augmenting paths), or ``None`` if there is none."""
    load: defaultdict[int, list[int]] = defaultdict(list)    # location -> cards placed there
    loc: dict[int, int] = {}
    order = list(free)
    rng.shuffle(order)

    def augment(ci, seen):
        opts = list(allowed[ci])
        rng.shuffle(opts)
        for li in opts:
            if len(load[li]) < cap[li]:
                load[li].append(ci)
                loc[ci] = li
                return True
        for li in opts:
            if li in seen:
                continue
            seen.add(li)
            for other in list(load[li]):
                if augment(other, seen):
                    load[li].remove(other)
                    load[li].append(ci)
                    loc[ci] = li
                    return True
        return False

    for ci in order:
        if not augment(ci, set()):
            return None
    return loc


def find_deal(model, *, tries: int = 4, steps: int = 3000, seed: int = 0
              ) -> dict[Hashable, str] | bool | None:
    """A deal (card -> location) satisfying every constraint of ``model``; ``False`` when
    propagation alone proves there is none; ``None`` when the search gave up (undecided).
    Deterministic for a given ``seed``."""
    try:
        allowed, cons, cap, _ = propagate(model)
    except Infeasible:
        return False
    rng = random.Random(seed)
    free = [ci for ci, a in enumerate(allowed) if len(a) > 1]
    fixed = {ci: next(iter(a)) for ci, a in enumerate(allowed) if len(a) == 1}
    terms = [d for d, _, _ in cons]
    los = [lo for _, lo, _ in cons]
    his = [hi for _, _, hi in cons]
    cons_of = defaultdict(list)
    for j, d in enumerate(terms):
        for ci in d:
            cons_of[ci].append(j)
    for attempt in range(tries):
        loc = _first_deal(free, allowed, cap, rng)
        if loc is None:
            return None
        at = defaultdict(list)
        for ci, li in loc.items():
            at[li].append(ci)
        count = [sum(1 for ci, ls in d.items() if loc[ci] in ls) for d in terms]

        def viol(j, c):
            return max(0, los[j] - c, c - his[j])

        bad = {j for j in range(len(cons)) if viol(j, count[j])}

        def delta(a, b):
            la, lb = loc[a], loc[b]
            out = 0
            changes = {}
            for j in set(cons_of[a]) | set(cons_of[b]):
                d = terms[j]
                c = count[j]
                if a in d:
                    c += (lb in d[a]) - (la in d[a])
                if b in d:
                    c += (la in d[b]) - (lb in d[b])
                if c != count[j]:
                    changes[j] = c
                    out += viol(j, c) - viol(j, count[j])
            return out, changes

        for _ in range(steps):
            if not bad:
                break
            j = rng.choice(sorted(bad))
            d = terms[j]
            need_in = count[j] < los[j]
            moves = []
            for a, ls in d.items():
                if (loc[a] in ls) == need_in:
                    continue
                targets = (ls & allowed[a]) if need_in else (allowed[a] - ls)
                for li in targets:
                    if li == loc[a]:
                        continue
                    for b in at[li]:
                        if loc[a] in allowed[b]:
                            moves.append((a, b))
            if not moves:
                break
            if rng.random() < 0.2:
                a, b = rng.choice(moves)
                gain, changes = delta(a, b)
            else:
                best = None
                for a, b in moves:
                    gain, changes = delta(a, b)
                    key = (gain, rng.random())
                    if best is None or key < best[0]:
                        best = (key, a, b, changes)
                assert best is not None          # (moves is never empty here)
                (gain, _), a, b, changes = best
            la, lb = loc[a], loc[b]
            at[la].remove(a)
            at[lb].remove(b)
            at[lb].append(a)
            at[la].append(b)
            loc[a], loc[b] = lb, la
            for jj, c in changes.items():
                count[jj] = c
                if viol(jj, c):
                    bad.add(jj)
                else:
                    bad.discard(jj)
        if not bad:
            deal_idx = dict(fixed)
            deal_idx.update(loc)
            deal = {model.cards[ci]: model.locations[li] for ci, li in deal_idx.items()}
            if satisfies(model, deal):
                return deal
    return None


def satisfies(model, deal: dict[Hashable, str]) -> bool:
    """Whether a complete deal (card -> location) meets every location size and every
    constraint of ``model`` (each physical copy as its own card).

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1})
    >>> m.exclude("a", "P")
    >>> satisfies(m, {"a": "Q", "b": "P"}), satisfies(m, {"a": "P", "b": "Q"})
    (True, False)
    """
    if len(deal) != len(model.cards) or any(c not in deal for c in model.cards):
        return False
    sizes: defaultdict[Hashable, int] = defaultdict(int)
    for c, l in deal.items():
        sizes[l] += 1
    if any(sizes[l] != model.sizes[l] for l in model.locations) or \
            any(l not in model.sizes for l in sizes):
        return False
    where = [model.loc_index(deal[c]) for c in model.cards]
    for con in model.constraints:
        k = sum(1 for ci, li in con.terms if where[ci] == li)
        if not con.lo <= k <= con.hi:
            return False
    return True
