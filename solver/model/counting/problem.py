"""The counting problem: the model simplified (trivial facts propagated, cards grouped
into classes of interchangeable cards, plain locations lumped), the result type and the
budget error."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Hashable

from solver.model.witness import Infeasible, propagate


@dataclass
class Counting:
    """The result of :func:`~solver.model.counting.count_deals`.

    ``marginals[card][loc]`` is P(card at loc) under a uniformly random consistent deal
    (zeros omitted; an impossible pair is always absent and a certain one is exactly 1.0).
    When ``exact`` is false the figures are estimates and ``error`` is a 95 % half-width
    valid for each marginal separately (pointwise: ``|estimate - truth| <= error`` with
    probability >= 95 % for any given pair).  When exact, ``total`` is an ``int`` and
    ``rounding`` bounds the relative float error of the marginals (~1e-14).
    """

    exact: bool
    total: int | float
    marginals: dict[Hashable, dict[str, float]]
    error: float = 0.0
    method: str = "dp"
    states: int = 0
    samples: int = 0            # samples drawn / accepted (estimates only)
    accepted: int = 0
    dropped: list[int] = field(default_factory=list)  # indices of relaxed constraints
    rounding: float = 0.0       # bound on the relative float error of exact marginals
    total_exact: bool = True    # False: ``total`` is the float count rounded (exact_total=False)
    #: an estimate's accepted deals (exactly uniform under the relaxed model, kept because
    #: they meet every constraint), array (n, cards) of location indices
    deals: object = field(default=None, repr=False, compare=False)
    #: exact counts: the peak counting the states dropped as dead (see Programme._alive), what
    #: the gate of location_sets' tagged programme is given
    raw_states: int = 0
    #: exact counts: the states summed over the steps (about the forward pass's work),
    #: what location_sets' budget is given
    work: int = 0
    #: estimates asked to prove it: the exact possible locations of every card when the
    #: draws prove them (every pair the relaxed model allows was seen in an accepted deal,
    #: so it is possible, and no other pair is: see :func:`estimate`), else None
    support: dict | None = field(default=None, repr=False, compare=False)

    @property
    def consistent(self) -> bool:
        return self.total > 0

    def probability(self, card: Hashable, loc: str) -> float:
        return self.marginals.get(card, {}).get(loc, 0.0)


class OverBudget(Exception):
    """The exact dynamic programme would exceed the state or time budget."""


#: the most cards in one class (the counts of a step are int8)
MAX_CLASS = 127


@dataclass
class Problem:
    n_cards: int
    n_locs: int
    fixed: dict[int, int]                 # card index -> location index
    rows: list[list[int]]                 # classes: card indices
    cols: list[tuple[int, ...]]           # column -> location indices (a lump when > 1)
    col_cap: list[int]
    loc_cap: dict[int, int]
    cells: dict[tuple[int, int], tuple[int, int]]   # (row, col) -> (lo, hi) of the count
    users: list[tuple[frozenset, int, int]]          # (cells, lo, hi)
    constraint_ids: list[int]             # model constraints used (not dropped)
    lump_factor: int = 1                  # ways to split each lump over its locations
    col_group: list = field(default_factory=list)   # column -> the model's group label


def simplify(model, drop=frozenset(), keep_locs=(), split=None, loc_split=None) -> Problem:
    """``keep_locs``: locations never lumped; ``split`` (card index -> a label) and
    ``loc_split`` (location index -> a label): cards with different labels never share a
    class, locations with different labels never a lump (:func:`all_in_chances`)."""
    allowed, cons, cap, used = propagate(model, drop)
    n, L = len(model.cards), len(model.locations)
    fixed = {ci: next(iter(a)) for ci, a in enumerate(allowed) if len(a) == 1}
    # classes: same allowed set, same membership (per location) in every constraint
    sig: dict[int, list] = {ci: [] for ci in range(n) if ci not in fixed}
    for j, (d, lo, hi) in enumerate(cons):
        for ci, ls in d.items():
            sig[ci].append((j, frozenset(ls)))
    groups: dict[tuple, list[int]] = {}
    for ci in sorted(sig):
        key = (tuple(sorted(allowed[ci])), tuple(sig[ci]),
               split.get(ci) if split is not None else None)
        groups.setdefault(key, []).append(ci)
    # a class has at most MAX_CLASS cards: a step's count k is stored as an int8 (the
    # kernel's and the sampling tables'), and three packs leave 146 equal cards unseen
    rows = [cs[i:i + MAX_CLASS] for cs in groups.values() for i in range(0, len(cs), MAX_CLASS)]
    row_allowed = [sorted(allowed[r[0]]) for r in rows]
    row_of = {ci: r for r, cs in enumerate(rows) for ci in cs}
    # statements over (row, loc) cells
    lbounds: dict[tuple[int, int], list[int]] = {}
    ucons: dict[frozenset, list[int]] = {}
    for d, lo, hi in cons:
        over = frozenset((row_of[ci], li) for ci, ls in d.items() for li in ls)
        if len(over) == 1:
            cell = next(iter(over))
            b = lbounds.setdefault(cell, [0, len(rows[cell[0]])])
        else:
            b = ucons.setdefault(over, [lo, hi])
        b[0], b[1] = max(b[0], lo), min(b[1], hi)
        if b[0] > b[1]:
            raise Infeasible
    touched = {li for over in ucons for (_, li) in over}
    touched |= {li for (r, li), (lo, hi) in lbounds.items()
                if lo > 0 or hi < min(len(rows[r]), cap[li])}
    touched |= set(keep_locs)
    # columns: lump the plain locations that the same classes allow
    rows_allowing: dict[int, list[int]] = defaultdict(list)
    for r, al in enumerate(row_allowed):
        for li in al:
            rows_allowing[li].append(r)
    cols: list[tuple[int, ...]] = []
    lumps: dict[tuple, list[int]] = {}
    loc_group = {model.loc_index(l): g for l, g in getattr(model, "groups", {}).items()}
    for li in range(L):
        if not rows_allowing[li]:
            continue
        if li in touched:
            cols.append((li,))
        else:
            label = loc_split.get(li) if loc_split is not None else None
            lumps.setdefault((tuple(rows_allowing[li]), label, loc_group.get(li)),
                            []).append(li)
    cols.extend(tuple(v) for v in lumps.values())
    cols.sort()
    col_of = {li: c for c, ls in enumerate(cols) for li in ls}
    col_cap = [sum(cap[li] for li in ls) for ls in cols]
    cells: dict[tuple[int, int], tuple[int, int]] = {}
    for r, al in enumerate(row_allowed):
        for li in al:
            c = col_of[li]
            if (r, c) in cells:
                continue
            if len(cols[c]) == 1:
                lo, hi = lbounds.get((r, li), (0, len(rows[r])))
            else:                               # plain locations: bounds are trivial
                lo, hi = 0, len(rows[r])
            hi = min(hi, col_cap[c], len(rows[r]))
            if lo > hi:
                raise Infeasible
            cells[r, c] = (lo, hi)
    users = [(frozenset((r, col_of[li]) for r, li in cs), lo, hi)
             for cs, (lo, hi) in ucons.items()]
    factor = 1
    for ls in cols:
        rest = sum(cap[li] for li in ls)
        for li in ls:
            factor *= math.comb(rest, cap[li])
            rest -= cap[li]
    return Problem(n, L, fixed, rows, cols, col_cap, {li: cap[li] for li in range(L)},
                   cells, users, used, factor, [loc_group.get(ls[0]) for ls in cols])


def location_problem(model, li: int):
    """The problem with location ``li`` kept apart (never lumped), its column and the
    cells it has (one per class that can lie there: the tags of :func:`location_sets`)."""
    prob, col, _ = apart_problem(model, li)
    return prob, col, [(r, col) for r in range(len(prob.rows)) if (r, col) in prob.cells]


def apart_problem(model, li: int):
    """The problem with location ``li`` never lumped, its column, and the plan's arguments
    that keep that column apart for the whole order too (never merged: every state holds
    its fill)."""
    prob = simplify(model, keep_locs=(li,))
    col = next((c for c, ls in enumerate(prob.cols) if ls == (li,)), None)
    labels = {c: g for c, g in enumerate(prob.col_group) if g is not None}
    if col is not None:
        labels[col] = ("apart", col)
    return prob, col, dict(col_labels=labels)
