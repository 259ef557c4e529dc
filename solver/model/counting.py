"""Exact counting of the consistent deals of a :class:`~solver.model.CardLocationModel`.

Under a uniformly random deal (every consistent assignment of the cards to the locations,
with the given location sizes, equally likely; physical copies are distinct cards) this
module gives the number of consistent deals, every card's probability per location, the
distribution of the set of cards in one small location (the Mystery Hand's mystery hand),
and exactly uniform random deals.  See ``docs/counting.md`` for the algorithm and its cost.

Method, in short: propagate the trivial facts; group the remaining cards into *classes* of
interchangeable cards (same allowed locations, same membership in every statement); lump
locations that no statement mentions; then a dynamic programme over the *cells* (class,
location) in class-major order whose state is the partial sums of the *open* sums (class
sizes, location sizes, statements), each split of a class weighted by its multinomial
coefficient; two locations that the rest of the order cannot tell apart are merged into
one sum as it goes.  A forward and a backward pass give every marginal at once; the same tables
draw uniform deals.  Over budget, :func:`count_deals` falls back to an honest estimate
(``exact=False``, ``error`` = 95 % half-width).

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(["a", "b", "c", "d"], {"P": 2, "Q": 2})
>>> m.add(["a", "b"], ["P"], 1, 1)          # exactly one of a, b at P
>>> r = count_deals(m)
>>> r.exact, r.total, r.method
(True, 4, 'dp')
>>> r.marginals["a"], r.marginals["c"]
({'P': 0.5, 'Q': 0.5}, {'P': 0.5, 'Q': 0.5})
>>> m.exclude("a", "P")
>>> r = count_deals(m)
>>> r.total, r.marginals["a"], r.marginals["b"]
(2, {'Q': 1.0}, {'P': 1.0})
"""
from __future__ import annotations

import functools
import heapq
import itertools
import math
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Hashable, NamedTuple

import numpy as np

from solver.model import reuse
from solver.model.budget import check as _deadline
from solver.model.witness import _Infeasible, _propagate

try:                    # the compiled step (setup.py builds it where a C compiler is)
    from solver.model import _kernel as KERNEL
except ImportError:     # pragma: no cover - a build without a compiler
    KERNEL = None


def _keep_freed_memory() -> bool:
    """Ask glibc to keep freed blocks of up to 32 MiB for reuse instead of handing them
    back to the system: a programme's steps allocate and free arrays of the same sizes
    over and over, and memory fresh from the system costs a page fault per page (in a
    virtual machine as much as filling it 2-9 times).  Measured on the hardest Mystery
    Hand states: 15-25 % faster (docs/counting.md).  A no-op without glibc."""
    import ctypes
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(-3, 32 << 20)      # M_MMAP_THRESHOLD
                    and libc.mallopt(-1, 256 << 20))   # M_TRIM_THRESHOLD
    except (OSError, AttributeError):   # pragma: no cover - not glibc
        return False


KEPT_FREED_MEMORY = _keep_freed_memory()

__all__ = ["Counting", "all_in_chances", "count_deals", "deterministic_count", "exact_count", "estimate", "location_sets", "sample_deals",
           "clamp_to_support", "OverBudget"]


@dataclass
class Counting:
    """The result of :func:`count_deals`.

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
    #: exact counts: the peak counting the states dropped as dead (see _DP._alive), what
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


# --------------------------------------------------------------------------------------
# binomial tables, and primes for exact totals alongside the float programme
UNIT = 2.0 ** -53                   # unit roundoff of float64
PRIMES = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549,
          2147483543, 2147483497, 2147483489, 2147483477, 2147483423, 2147483399)
_BIN: dict = {}


def _binomials(n: int):
    """Tables of C(i, j), 0 <= i, j < size (size > n): float, exact (object) and, for
    each prime of :data:`PRIMES`, the residues (int64, rows = primes)."""
    size = _BIN.get("size", 0)
    if size <= n:
        size = max(n + 1, 2 * size, 64)
        ints = [[math.comb(i, j) for j in range(size)] for i in range(size)]
        obj = np.empty((size, size), dtype=object)
        for i in range(size):
            for j in range(size):
                obj[i, j] = ints[i][j]
        _BIN.update(size=size, float=np.array(ints, dtype=float).ravel(), object=obj.ravel(),
                    mod=np.array([[ints[i][j] % q for i in range(size) for j in range(size)]
                                  for q in PRIMES], dtype=np.int64))
    return _BIN


def _crt(residues: list[int], approx: float, rel: float) -> int | None:
    """The integer with these residues (mod PRIMES[:len]) within ``approx * (1 +- rel)``,
    or ``None`` if the primes cannot single it out."""
    P = 1
    x = 0
    for r, q in zip(residues, PRIMES):
        # x = x mod P, r mod q  ->  mod P*q
        t = ((r - x) * pow(P, -1, q)) % q
        x += P * t
        P *= q
    slack = rel * abs(approx) + 1
    if 4 * slack >= P:
        return None
    c = int(round(approx))
    d = (x - c) % P
    if d > P // 2:
        d -= P
    if abs(d) > slack:
        return None
    return c + d


# --------------------------------------------------------------------------------------
# 1. simplification: propagate trivial facts, build classes, lump plain locations
#: the most cards in one class (the counts of a step are int8)
MAX_CLASS = 127


@dataclass
class _Problem:
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


def _simplify(model, drop=frozenset(), keep_locs=(), split=None, loc_split=None) -> _Problem:
    """``keep_locs``: locations never lumped; ``split`` (card index -> a label) and
    ``loc_split`` (location index -> a label): cards with different labels never share a
    class, locations with different labels never a lump (:func:`all_in_chances`)."""
    allowed, cons, cap, used = _propagate(model, drop)
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
        cells = frozenset((row_of[ci], li) for ci, ls in d.items() for li in ls)
        if len(cells) == 1:
            c = next(iter(cells))
            b = lbounds.setdefault(c, [0, len(rows[c[0]])])
            b[0], b[1] = max(b[0], lo), min(b[1], hi)
            if b[0] > b[1]:
                raise _Infeasible
        else:
            b = ucons.setdefault(cells, [lo, hi])
            b[0], b[1] = max(b[0], lo), min(b[1], hi)
            if b[0] > b[1]:
                raise _Infeasible
    touched = {li for cells in ucons for (_, li) in cells}
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
    groups = {model.loc_index(l): g for l, g in getattr(model, "groups", {}).items()}
    for li in range(L):
        if not rows_allowing[li]:
            continue
        if li in touched:
            cols.append((li,))
        else:
            label = loc_split.get(li) if loc_split is not None else None
            lumps.setdefault((tuple(rows_allowing[li]), label, groups.get(li)), []).append(li)
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
                raise _Infeasible
            cells[r, c] = (lo, hi)
    users = [(frozenset((r, col_of[li]) for r, li in cs), lo, hi)
             for cs, (lo, hi) in ucons.items()]
    factor = 1
    for ls in cols:
        rest = sum(cap[li] for li in ls)
        for li in ls:
            factor *= math.comb(rest, cap[li])
            rest -= cap[li]
    return _Problem(n, L, fixed, rows, cols, col_cap, {li: cap[li] for li in range(L)},
                    cells, users, used, factor, [groups.get(ls[0]) for ls in cols])


def _reach(cs, rows, cells) -> int:
    """The most a sum over cells can be: each cell's bound, each class's size at most."""
    per: dict[int, int] = defaultdict(int)
    for x in cs:
        per[x[0]] += cells[x][1]
    return sum(min(v, len(rows[r])) for r, v in per.items())


# --------------------------------------------------------------------------------------
# 2. the plan: cell order, open sums, look-ahead bounds
class _Dim:
    __slots__ = ("cells", "lo", "hi", "kind", "first", "last", "sat")

    def __init__(self, cells, lo, hi, kind):
        self.cells = set(cells)
        self.lo, self.hi, self.kind = lo, hi, kind
        self.first = self.last = -1
        self.sat = False


class _Step:
    """What step t (one cell) does to the state keys."""

    __slots__ = ("cell", "lo", "hi", "old", "new_his", "closing_new", "kstep", "rsize",
                 "row_old", "remove", "checks", "sat", "merge", "packed")

    def kernel_args(self, pow2: bool) -> np.ndarray:
        """The step as :func:`solver.model._kernel.expand` reads it: one int64 array (the
        bounds, the numbers of rows, the rows), made once per step."""
        if self.packed is None:
            old = [(a, b, hi, -1 if lo is None else lo) for a, b, hi, lo in self.old]
            row = [self.row_old] if self.row_old is not None else []
            remove = ([(s.bit_length() - 1, (s * r).bit_length() - 1) for s, r in self.remove]
                      if pow2 else self.remove)
            self.packed = np.array(
                [max([self.lo, *self.closing_new]), min([self.hi, *self.new_his]),
                 self.kstep, self.rsize, len(old), len(row), len(self.sat), len(remove),
                 len(self.checks)]
                + [x for rows in (old, row, self.sat, remove, self.checks)
                   for r in rows for x in r], dtype=np.int64)
        return self.packed


class _Plan:
    """The cell order and, for every step, how the packed state keys change.

    A state is the tuple of the values of the open sums, packed into one int64 key in
    mixed radix (radix = hi + 1 of each sum).  Sums opened at a step are appended as the
    most significant digits (value 0: the key does not change); adding ``k`` to the sums
    of a cell adds ``k * (sum of their strides)``; a closing sum's digit is cut out."""

    def __init__(self, prob: _Problem, tags=(), relaxed_cols=(), order=None,
                 merge: bool | None = None, col_labels: dict | None = None,
                 prune: bool = True):
        """``merge``: merge columns alike for the rest of the order (default
        :data:`MERGE_COLUMNS`), only those with the same ``col_labels`` label if given;
        ``prune``: drop the states :meth:`suffix_table` and :meth:`alive_spec` prove
        dead."""
        self.prob = prob
        self.prune = prune
        self.relaxed_cols = frozenset(relaxed_cols)
        # the working cells and columns: the problem's, and after a merge of columns
        # (see _merge_columns) the merged columns and their cells
        self.cells = dict(prob.cells)
        self.cols = list(prob.cols)
        self.col_cap = list(prob.col_cap)
        self.merges: dict[int, tuple[int, int, int]] = {}   # step -> (a, b, merged)
        self.parents: dict[int, tuple[int, int]] = {}        # merged column -> (a, b)
        self.tags = tuple(tags)
        self.users = list(prob.users)       # with merged columns: their cells renamed
        self.col_labels = (dict(col_labels) if col_labels is not None else
                           {c: g for c, g in enumerate(prob.col_group) if g is not None})
        dims, dims_of = self._dims()
        self.dims, self._dims_of = dims, dims_of
        order = list(order) if order is not None else self._order(dims_of)
        if MERGE_COLUMNS if merge is None else merge:
            order = self._merge_columns(order, dims, dims_of)
            if self.merges:
                dims, dims_of = self._dims()
                self.dims, self._dims_of = dims, dims_of
        self.order = order
        T = len(self.order)
        for t, c in enumerate(self.order):
            for i in dims_of[c]:
                d = dims[i]
                if d.first < 0:
                    d.first = t
                d.last = t
        for d in dims:
            if d.kind == "tag":
                d.last = T  # never closes
        # the keys must fit in 62 bits at every step: bit fields (digits by shifts and
        # masks, no integer division) where they do, else the tighter mixed radix, else
        # no programme at all (known before the steps are worked out)
        pow2 = self._fits(True)
        if not pow2 and not self._fits(False):
            raise OverBudget("state keys do not fit in 64 bits")
        bounds = self._future_bounds()
        # the steps that finish a class: where dead states are looked for (_DP._alive)
        self.class_ends = [c[0] >= 0 and dims[self.row_dim[c[0]]].last == t
                           for t, c in enumerate(self.order)]
        self._steps(bounds, dims_of, pow2)

    def _fits(self, pow2: bool) -> bool:
        """Whether the sums open at every step (those open before it and those it opens,
        as :meth:`_steps` packs them) fit in a key below 2^62, as bit fields (``pow2``)
        or in mixed radix."""
        opening: dict[int, list[int]] = defaultdict(list)
        closing: dict[int, list[int]] = defaultdict(list)
        for d in self.dims:
            if d.first >= 0:
                opening[d.first].append(d.hi)
                closing[d.last].append(d.hi)
        bits = 0        # of the product of the radices open, as a bit count (pow2) or
        prod = 1        # the product itself (mixed radix)
        for t in range(len(self.order)):
            for hi in opening.get(t, ()):
                if pow2:
                    bits += hi.bit_length()
                else:
                    prod *= hi + 1
            if (bits if pow2 else prod.bit_length() - 1) >= 62:
                return False
            for hi in closing.get(t, ()):
                if pow2:
                    bits -= hi.bit_length()
                else:
                    prod //= hi + 1
        return True

    def _dims(self):
        """The sums over the working cells: one per class, per tracked column, per
        statement, per tag; a column merged away has no size to meet (lo 0: its cards
        and space go on in the merged column, whose sum starts at their fills)."""
        cells, rows = self.cells, self.prob.rows
        dims: list[_Dim] = []
        self.row_dim = []
        of_row: dict[int, list] = defaultdict(list)
        of_col: dict[int, list] = defaultdict(list)
        for x in cells:
            of_row[x[0]].append(x)
            of_col[x[1]].append(x)
        for r in range(len(rows)):
            self.row_dim.append(len(dims))
            dims.append(_Dim(of_row[r], len(rows[r]), len(rows[r]), "row"))
        self.col_dim = {}
        merged_away = {x for ab in self.parents.values() for x in ab}
        for c in range(len(self.cols)):
            if c in self.relaxed_cols:
                continue        # estimates only: the column's size is checked afterwards
            self.col_dim[c] = len(dims)
            d = _Dim(of_col[c], self.col_cap[c], self.col_cap[c], "col")
            if c in merged_away:
                d.lo = 0
            dims.append(d)
        for cs, lo, hi in self.users:
            dims.append(_Dim(cs, lo, hi, "user"))
        tagset = set(self.tags)
        self.tag_cells = [c for c in sorted(cells) if c in tagset]
        for c in self.tag_cells:
            dims.append(_Dim([c], 0, cells[c][1], "tag"))
        merged = {self.col_dim[v] for v in self.parents}
        for i, d in enumerate(dims):
            reach = _reach(d.cells, rows, cells)
            # "at least lo" (its cells cannot exceed hi anyway): only min(value, lo)
            # matters, so the value saturates at lo and states above it merge
            d.sat = d.kind == "user" and 0 < d.lo and d.hi >= reach
            if i not in merged:     # a merged column starts from its parts' fills
                d.hi = min(d.hi, reach)
            d.lo = max(d.lo, 0)
            if d.lo > d.hi:
                raise _Infeasible
        dims_of: dict[tuple, list[int]] = defaultdict(list)
        for i, d in enumerate(dims):
            for c in d.cells:
                dims_of[c].append(i)
        for t, (a, b, v) in self.merges.items():
            dims_of[(-1, v)] = [self.col_dim[a], self.col_dim[b], self.col_dim[v]]
        return dims, dims_of

    def _merge_columns(self, order, dims, dims_of):
        """Merge columns once the rest of the order treats them alike.

        At a point of the order where two columns have their remaining cells in the same
        classes, each in the same statements as the other column's cell of its class
        (usually none), none tagged and none bounded beyond the column's size, the rest
        of the programme cannot tell them apart: it only needs the space left in both
        together (a statement over both sees the sum of their cells, now one cell).  So
        their two fill digits become one, the sum of the fills, and each state is
        weighted by ``C(ra + rb, ra)`` (``ra``, ``rb``: the space left in each), the ways
        the cards still to come to the merged column can be split over the two
        (Vandermonde: a class's ``k`` cards there, split ``ka + kb``, sum to that binomial
        over the classes).  The same as static lumping, but decided
        step by step: mid-game, once the statements' classes are placed, most hands
        become alike for the free classes that follow, and the fill vectors collapse.
        Returns the new order: merge steps ``(-1, merged)`` and the merged columns'
        cells in place of the first of the cells they replace."""
        prob = self.prob
        size = [len(r) for r in prob.rows]
        T = len(order)
        colmap = {c: c for c in range(len(self.cols))}     # column -> current column

        def alike(c):
            """What the rest of the order sees of cell c: the statements it is in (two
            columns whose cells are in the same ones for every class are alike), or
            None when it cannot be merged (bounded, tagged, or a relaxed column)."""
            if c[1] in self.relaxed_cols:
                return None
            lo, hi = self.cells[c]
            if lo != 0 or hi != min(size[c[0]], self.col_cap[c[1]]):
                return None
            if any(dims[i].kind not in ("row", "col", "user") for i in dims_of[c]):
                return None
            return frozenset(i for i in dims_of[c] if dims[i].kind == "user")

        # per position: for each (original) column, its cells still to come as (class,
        # statements), or None when one of them cannot be merged
        fut: list[dict[int, frozenset | None]] = [None] * (T + 1)
        acc: dict[int, set] = defaultdict(set)
        bad: set[int] = set(self.relaxed_cols)
        fut[T] = {}
        now: dict[int, frozenset | None] = {}
        for t in range(T - 1, -1, -1):
            c = order[t]
            sig = alike(c)
            if sig is None:
                bad.add(c[1])
            else:
                acc[c[1]].add((c[0], sig))
            now[c[1]] = None if c[1] in bad else frozenset(acc[c[1]])
            fut[t] = dict(now)
        out: list[tuple[int, int]] = []
        emitted: set[tuple[int, int]] = set()     # (class, column) done
        chain = {c: [c] for c in colmap}            # column -> the columns it became
        placed: set[tuple[int, int]] = set()        # the cells of the new order
        done_of: dict[int, set[int]] = defaultdict(set)   # column -> its classes done
        renamed: dict[tuple[int, int], tuple[int, int]] = {}
        # what the rest of the order sees of each current column: the classes it has left
        # with their statements, or None (not to be merged); between two steps only the
        # column of the cell just placed and the columns just merged can change (their
        # own cells to come, the classes done), so only theirs are computed again
        members: dict[int, list[int]] = {c: [c] for c in colmap}   # current -> columns
        key_of: dict[int, tuple | None] = {}

        def key(cur):
            now = fut[t]
            sigs = {now[col] for col in members[cur] if col in now}
            if not sigs or None in sigs:
                return None
            done = done_of[cur]
            left = frozenset(x for x in frozenset().union(*sigs) if x[0] not in done)
            return (left, self.col_labels.get(cur)) if left else None

        dirty = set(members)
        for t in range(T):
            for cur in dirty:
                key_of[cur] = key(cur)
            # the current columns still to come that are alike (only a changed one can
            # be alike another: the others were told apart, or merged, a step ago)
            groups: dict[tuple, list[int]] = {}
            for d in dirty:
                kd = key_of[d]
                if kd is not None and kd not in groups:
                    same = [cur for cur, kc in key_of.items() if kc == kd]
                    if len(same) > 1:
                        groups[kd] = same
            dirty = set()
            for curs in sorted(groups.values(), key=min):
                curs.sort()
                acc_col = curs[0]
                for other in curs[1:]:
                    v = len(self.cols)
                    self.cols.append(self.cols[acc_col] + self.cols[other])
                    self.col_cap.append(self.col_cap[acc_col] + self.col_cap[other])
                    self.parents[v] = (acc_col, other)
                    if acc_col in self.col_labels:
                        self.col_labels[v] = self.col_labels[acc_col]
                    self.merges[len(out)] = (acc_col, other, v)
                    out.append((-1, v))
                    members[v] = members.pop(acc_col) + members.pop(other)
                    key_of.pop(acc_col, None)
                    key_of.pop(other, None)
                    for col in members[v]:
                        colmap[col] = v
                        chain[col].append(v)
                    # a class whose cell either part has had is done for the merged one
                    done_of[v] = done_of[acc_col] | done_of[other]
                    emitted |= {(r, v) for r in done_of[v]}
                    acc_col = v
                dirty.add(acc_col)
            r, c = order[t]
            v = colmap[c]
            dirty.add(v)
            if (r, v) not in emitted:
                emitted.add((r, v))
                done_of[v].add(r)
                out.append((r, v))
                placed.add((r, v))
            # the cell that stands for this one: the first of its column's line to have
            # had the class
            renamed[r, c] = next((r, x) for x in chain[c] if (r, x) in placed)
        if not self.merges:
            return order
        self.users = [(frozenset(renamed[x] for x in cs), lo, hi) for cs, lo, hi in self.users]
        cells = {}
        for c in out:
            if c[0] < 0:
                continue
            if c[1] < len(self.prob.cols):
                cells[c] = self.cells[c]
            else:
                cells[c] = (0, min(size[c[0]], self.col_cap[c[1]]))
        self.cells = cells
        return out

    def _steps(self, bounds, dims_of, pow2: bool):
        """Every step's key arithmetic.  ``pow2``: each sum's digit is a bit field (radix
        a power of two; a digit is ``(key >> shift) & mask``), else mixed radix (radix
        hi + 1; ``(key // stride) % radix``).  Either way the digits are packed in the same
        order, so the keys sort the states alike."""
        dims, cells, rows = self.dims, self.cells, self.prob.rows
        self.pow2 = pow2
        rad = {i: (1 << d.hi.bit_length()) if pow2 else d.hi + 1 for i, d in enumerate(dims)}

        def digit(stride, i):       # what _expand reads a digit with
            return (stride.bit_length() - 1, rad[i] - 1) if pow2 else (stride, rad[i])

        self.radix = rad
        row_dims: dict[int, set[int]] = defaultdict(set)     # class -> the sums of its cells
        for x in cells:
            row_dims[x[0]].update(dims_of[x])
        self.steps: list[_Step] = []
        layout: list[int] = []
        self.layouts = [list(layout)]
        self.strides = [{}]
        for t, c in enumerate(self.order):
            ds = dims_of[c]
            mid = layout + [i for i in ds if dims[i].first == t]
            stride, s = {}, 1
            for i in mid:
                stride[i] = s
                s *= rad[i]
            if s >= 2 ** 62:
                raise OverBudget("state keys do not fit in 64 bits")
            st = _Step()
            st.cell = c
            st.merge = st.packed = None
            closing = {i for i in ds if dims[i].last == t}
            if c[0] < 0:        # a merge of two columns (see _merge_columns)
                a, b, v = self.merges[t]
                ia, ib, iv = self.col_dim[a], self.col_dim[b], self.col_dim[v]
                st.lo = st.hi = st.kstep = st.rsize = 0
                st.old, st.new_his, st.sat, st.closing_new, st.checks = [], [], [], [], []
                st.row_old = None
                st.merge = (digit(stride[ia], ia), digit(stride[ib], ib), self.col_cap[a],
                            self.col_cap[b], stride[iv])
                st.remove = sorted(((stride[i], rad[i]) for i in closing), reverse=True)
                layout = [i for i in mid if i not in closing]
                self.steps.append(st)
                self.layouts.append(list(layout))
                self.strides.append(_strides(layout, rad))
                continue
            st.lo, st.hi = cells[c]
            st_hi = st.hi
            # sums already open: (digit reader, hi, lo if closing else None)
            # a saturated sum never bounds k from above (its cells cannot exceed its hi)
            st.old = [digit(stride[i], i) + (dims[i].hi if not dims[i].sat
                                             else st_hi + dims[i].lo,
                                             dims[i].lo if i in closing else None)
                      for i in ds if dims[i].first < t]
            st.new_his = [dims[i].hi for i in ds if dims[i].first == t]
            # saturated sums still open after the step: digit clamped to lo
            st.sat = [digit(stride[i], i) + (dims[i].lo,) for i in ds
                      if dims[i].sat and i not in closing]
            st.closing_new = [dims[i].lo for i in ds if dims[i].first == t and i in closing]
            st.kstep = sum(stride[i] for i in ds)
            r = c[0]
            st.rsize = len(rows[r])
            rd = self.row_dim[r]
            st.row_old = digit(stride[rd], rd) if dims[rd].first < t else None
            # cut the closing digits, most significant first: (stride, radix)
            st.remove = sorted(((stride[i], rad[i]) for i in closing), reverse=True)
            nxt = [i for i in mid if i not in closing]
            nstride = _strides(nxt, rad)
            # at the end of a class: keep only states whose sums can still be met
            st.checks = []
            if dims[rd].last == t:
                for i in sorted(row_dims[r]):
                    if i in nstride and dims[i].kind != "tag":
                        slo, shi = bounds[i].get(t, (0, 0))
                        a, b = dims[i].lo - shi, dims[i].hi - slo
                        if a > 0 or b < dims[i].hi:
                            st.checks.append(digit(nstride[i], i) + (a, b))
            self.steps.append(st)
            layout = nxt
            self.layouts.append(list(layout))
            self.strides.append(nstride)

    # ----- dead states -----------------------------------------------------------------
    def suffix_table(self, b: int, states: int = 0):
        """The digits of the classes and statements open at boundary ``b`` that some
        filling of the cells after ``b`` can complete, column sizes aside: ``(readers,
        multipliers, table)``, a state being possible only if ``table[sum of its digits
        (read by the readers) times the multipliers]``; ``None`` when there is no such
        table (nothing open, the backward programme over budget, or the table too big:
        more than :data:`SUFFIX_TABLE` entries, or than :data:`SUFFIX_PER_STATE` times the
        ``states`` it is first asked to check, whose check would cost less than the
        table).

        The cells after ``b`` are counted by a second programme that runs the order
        backwards with no column size at all (classes and statements only: few states);
        its states at ``b`` are what those cells can add to each open sum.  A class needs
        exactly its size, a statement ``lo..hi`` (a saturated one at least ``lo``), so
        each of those states admits a box of values of the forward digits.  A forward
        state outside every box has no completion."""
        cache = self.__dict__.setdefault("_suffix", {})
        if b not in cache:
            cache[b] = self._suffix_table(b, states)
        return cache[b]

    def _reverse(self):
        """The backward programme of :meth:`suffix_table` (``None`` when over budget)."""
        if "_rev" not in self.__dict__:
            self._rev = None
            steps = [c for c in self.order if c[0] >= 0]
            prob = self.prob
            relaxed = _Problem(prob.n_cards, prob.n_locs, prob.fixed, prob.rows,
                               list(self.cols), list(self.col_cap), prob.loc_cap,
                               dict(self.cells), list(self.users), prob.constraint_ids,
                               prob.lump_factor, [None] * len(self.cols))
            try:
                rp = _Plan(relaxed, relaxed_cols=range(len(self.cols)), order=steps[::-1],
                           merge=False, prune=False)
                rdp = _DP(rp, False, SUFFIX_STATES, None, residues=False)
                self._rev = (rp, rdp)
            except (OverBudget, _Infeasible):
                pass
        return self._rev

    def _suffix_table(self, b: int, states: int):
        rev = self._reverse()
        if rev is None:
            return None
        rp, rdp = rev
        j = sum(1 for c in self.order[b:] if c[0] >= 0)    # the same cut, backwards
        R = len(self.prob.rows)
        ncol = len(self.col_dim)
        dims = [i for i in self.layouts[b] if self.dims[i].kind in ("row", "user")]
        if not dims:
            return None
        to_rev = {i: i if i < R else i - ncol for i in dims}
        if set(to_rev.values()) != {i for i in rp.layouts[j]}:
            return None         # not the same open sums: no table
        shape = [self.dims[i].hi + 1 for i in dims]
        if math.prod(shape) > min(SUFFIX_TABLE, SUFFIX_PER_STATE * max(states, 1)):
            return None
        keys = rdp.keys[j]
        strides = rp.strides[j]
        # each backward state admits the forward digits of a box; the boxes are orthants:
        # a class or an exact statement needs one value, a statement "at most hi" any
        # value up to hi - g, a saturated one any from lo - g up (one with 0 < lo < hi
        # is only held to its hi).  So mark each box's corner and spread the marks along
        # the axes of the inequalities: the table is the union of the boxes.
        ok = np.ones(len(keys), dtype=bool)
        flat = np.zeros(len(keys), dtype=np.int64)
        down, up = [], []           # axes spread towards 0, towards the top
        for ax, i in enumerate(dims):
            s, rad = strides[to_rev[i]], rp.radix[to_rev[i]]
            g = (keys >> (s.bit_length() - 1)) & (rad - 1) if rp.pow2 else (keys // s) % rad
            d = self.dims[i]
            if d.kind == "user" and d.sat:
                corner = np.maximum(d.lo - g, 0)
                up.append(ax)
            else:
                corner = d.hi - g
                if d.kind == "user" and d.lo < d.hi:
                    down.append(ax)
            ok &= (corner >= 0) & (corner <= d.hi)
            flat = flat * shape[ax] + np.clip(corner, 0, d.hi)
        table = np.zeros(math.prod(shape), dtype=bool)
        table[flat[ok]] = True
        table = table.reshape(shape)
        for ax in down:
            table = np.flip(np.logical_or.accumulate(np.flip(table, ax), axis=ax), ax)
        for ax in up:
            table = np.logical_or.accumulate(table, axis=ax)
        mult, m = [], 1
        for x in reversed(shape):
            mult.append(m)
            m *= x
        mult.reverse()
        pow2 = self.pow2
        readers = []
        for i in dims:
            s = self.strides[b][i]
            readers.append((s.bit_length() - 1, self.radix[i] - 1) if pow2
                           else (s, self.radix[i]))
        return readers, mult, table.ravel()

    def alive_spec(self, b: int):
        """The space checks :meth:`_DP._alive` runs on the states at boundary ``b``
        (after step ``b - 1``), built on first use; ``None`` when there is nothing to
        check.  A statement that still needs ``lo - value`` cards needs that much space
        left in the hands its cells are in (what the backward table of
        :meth:`suffix_table` does not know).  The statements with cells still to come and
        ``lo > 0`` are grouped by those hands: ``[([(reader of a hand's fill, its size),
        ...], the largest lo of those not begun, [(lo, reader of the value) of those
        begun]), ...]``.  A state that fails one has no completion: dropping it leaves
        every count the same."""
        cache = self.__dict__.setdefault("_alive", {})
        if b not in cache:
            cache[b] = self._alive_spec(b)
        return cache[b]

    def _alive_spec(self, b: int):
        layout = set(self.layouts[b])
        strides = self.strides[b]
        pow2 = self.pow2

        def reader(i):
            s = strides[i]
            return (s.bit_length() - 1, self.radix[i] - 1) if pow2 else (s, self.radix[i])

        cols_of: dict[int, set] = defaultdict(set)
        for c in self.order[b:]:
            if c[0] >= 0:
                for i in self._dims_of[c]:
                    cols_of[i].add(c[1])
        base: dict[int, frozenset] = {}

        def base_of(v):
            if v not in base:
                base[v] = (base_of(self.parents[v][0]) | base_of(self.parents[v][1])
                           if v in self.parents else frozenset([v]))
            return base[v]

        open_cols = {x: i for x, i in self.col_dim.items() if i in layout}
        groups: dict[tuple, list] = {}      # the same hands: [most a statement not begun
        for i, d in enumerate(self.dims):   # needs, [(lo, reader) of those begun]]
            if d.kind != "user" or d.lo <= 0 or i not in cols_of:
                continue
            # the hands its cells can still go to, all with a tracked size
            bases = frozenset().union(*(base_of(x) for x in cols_of[i]))
            near = [x for x in open_cols if base_of(x) & bases]
            if near and bases <= frozenset().union(*(base_of(x) for x in near)):
                g = groups.setdefault(tuple((reader(open_cols[x]), self.col_cap[x])
                                            for x in near), [0, []])
                if i in layout:
                    g[1].append((d.lo, reader(i)))
                else:
                    g[0] = max(g[0], d.lo)
        return [(space, need, begun) for space, (need, begun) in groups.items()] or None

    # ----- ordering ------------------------------------------------------------------
    def _order(self, dims_of):
        """Class-major order.  The classes that appear in statements come first, a
        component at a time (classes linked by statements, directly or through other
        classes: :data:`COMPONENT_ORDER`), the widest first (the most log range of
        statements a greedy order of its own keeps open at once; then the most cards,
        the most statements), and inside it by :meth:`_component_order` (3 to
        :data:`COMPONENT_SEARCH` classes) or greedily so that few statements are open
        at once (smallest sum of log ranges of the open statements after the class,
        then the fewest splits); then the classes in no statement, fewest splits
        first (the big free classes last, when the locations are nearly full); classes
        with tagged cells (location_sets) last."""
        prob, dims = self.prob, self.dims
        rows = prob.rows
        nrows = len(rows)
        row_cells = [sorted(c for c in prob.cells if c[0] == r) for r in range(nrows)]
        users = [set() for _ in range(nrows)]
        tagged = [False] * nrows
        for r in range(nrows):
            for c in row_cells[r]:
                for i in dims_of[c]:
                    if dims[i].kind == "user":
                        users[r].add(i)
                    elif dims[i].kind == "tag":
                        tagged[r] = True
        branching = [_log_splits(len(rows[r]), [prob.cells[c] for c in row_cells[r]])
                     for r in range(nrows)]
        need: dict[int, int] = defaultdict(int)     # statement -> its classes
        for r in range(nrows):
            for i in users[r]:
                need[i] += 1
        got: dict[int, int] = defaultdict(int)      # ... placed so far
        logr = [math.log(d.hi + 1) for d in dims]
        u_now = 0.0
        todo = set(range(nrows))
        order = []
        col_left = defaultdict(int)
        for c in prob.cells:
            col_left[c[1]] += 1
        # components: once one is started it is finished before another starts, so
        # that the statements of two are never open at once
        comp = list(range(nrows))

        def find(x):
            while comp[x] != x:
                comp[x] = comp[comp[x]]
                x = comp[x]
            return x
        members: dict[int, list[int]] = defaultdict(list)
        for r in range(nrows):
            for i in users[r]:
                members[i].append(r)
        for rs in members.values():
            for r in rs[1:]:
                a, b = find(r), find(rs[0])
                if a != b:
                    comp[a] = b
        comp = [find(r) for r in range(nrows)]
        # component -> (width, cards, statements): the widest first, while the
        # locations are nearly empty
        rank: dict[int, tuple] = {}
        for r in range(nrows):
            a, b = rank.get(comp[r], (0, set()))
            rank[comp[r]] = (a + len(rows[r]), b | users[r])

        def width(k):
            # the most log range its statements keep open at once, placed greedily
            # (a component holds every class of its statements: their need is theirs)
            todo_k = {r for r in range(nrows) if comp[r] == k}
            got_k: dict[int, int] = defaultdict(int)
            now = top = 0.0
            while todo_k:
                r = min(todo_k, key=lambda r: (now + _opening(users[r], logr, got_k, need), r))
                now += _opening(users[r], logr, got_k, need)
                top = max(top, now)
                todo_k.discard(r)
                for i in users[r]:
                    got_k[i] += 1
            return round(top, 6)
        rank = {k: (width(k), a, len(b)) for k, (a, b) in rank.items()}
        current = None      # the component being placed
        queue: list[int] = []   # its classes in the order _component_order chose

        def opened(r):      # the log ranges of the statements open after class r
            return round(u_now + _opening(users[r], logr, got, need), 9)
        while todo:
            pool = [r for r in todo if not tagged[r]] or list(todo)
            pool = [r for r in pool if users[r]] or pool
            if COMPONENT_ORDER and users[pool[0]]:
                inside = [r for r in pool if comp[r] == current]
                if inside:
                    pool = inside
                else:
                    most = max(rank[comp[r]] for r in pool)
                    pool = [r for r in pool if rank[comp[r]] == most]
                    # the widest component starts (ties: the greedy's choice picks
                    # it); its classes are all in the pool, and stay there until placed
                    first = min(pool, key=lambda r: (opened(r), branching[r], r))
                    its = sorted(r for r in pool if comp[r] == comp[first])
                    if 3 <= len(its) <= COMPONENT_BEAM_CLASSES:
                        queue = self._component_order(its, users, logr)
            r = queue.pop(0) if queue else min(pool, key=lambda r: (opened(r), branching[r], r))
            u = opened(r)
            todo.discard(r)
            current = comp[r]
            u_now = u
            for i in users[r]:
                got[i] += 1
            cs = row_cells[r]
            for c in cs:
                col_left[c[1]] -= 1
            # inside the class: cells of locations it closes first, tags last
            cs.sort(key=lambda c: (any(dims[i].kind == "tag" for i in dims_of[c]),
                                   col_left[c[1]] > 0, c[1]))
            order.extend(cs)
        return order

    def _component_order(self, members, users, logr):
        """The order of a component's classes with the least sum over its steps of
        exp(the log ranges of the statements left open after the class +
        :data:`COMPONENT_CARDS` per card of the component placed so far): about the
        states summed over the steps, the location fills growing with the cards.  An
        exact search: a shortest path over the subsets of the classes placed,
        vectorised by subset size; over :data:`COMPONENT_SEARCH` classes (up to
        :data:`COMPONENT_BEAM_CLASSES`), a beam search for it (:func:`_beam_order`).
        Measured on the 8-player public target states still over the budget with the
        greedy order inside the components: 4.0 million states at the peak -> 217 000,
        3.9 million -> 430 000, 1.27 million and 472 000 -> under 300 000."""
        rows = self.prob.rows
        masks: dict[int, int] = defaultdict(int)
        for j, r in enumerate(members):
            for i in users[r]:
                masks[i] |= 1 << j
        spans = tuple(sorted((mk, logr[i]) for i, mk in masks.items()
                             if mk & (mk - 1)))     # a statement of one class never stays open
        cards = tuple(len(rows[r]) for r in members)
        if len(members) <= COMPONENT_SEARCH:
            return [members[j] for j in _cheapest_order(spans, cards, COMPONENT_CARDS)]
        return [members[j] for j in _beam_order(spans, cards, COMPONENT_CARDS, COMPONENT_BEAM)]

    def _dims_of_cell(self, c):
        return self._dims_of[c]

    def _future_bounds(self):
        """For every step that ends a class and every sum it touched: (min, max) of what
        the cells after that step can still add.  A class not started contributes within
        its cell bounds with all its cards placed; a class already started (an order
        given location by location, as location_sets' second attempt) contributes at
        least the lower bounds of its remaining cells and at most their upper bounds (and
        its size)."""
        prob, dims, order = self.prob, self.dims, self.order
        cells = self.cells
        nrows = len(prob.rows)
        first = [None] * nrows
        last = [None] * nrows
        steps_of = [[] for _ in range(nrows)]
        for t, c in enumerate(order):
            r = c[0]
            if r < 0:           # a merge step
                continue
            if first[r] is None:
                first[r] = t
            last[r] = t
            steps_of[r].append((t, c))
        size = [len(r) for r in prob.rows]
        dim_rows: dict[int, list[int]] = {}
        full: dict[tuple[int, int], tuple[int, int]] = {}
        for i, d in enumerate(dims):
            if d.kind == "tag":
                continue
            rs = sorted({c[0] for c in d.cells})
            dim_rows[i] = rs
            for r in rs:
                il = ih = ol = oh = 0
                for _, c in steps_of[r]:
                    lo, hi = cells[c]
                    if c in d.cells:
                        il, ih = il + lo, ih + hi
                    else:
                        ol, oh = ol + lo, oh + hi
                full[r, i] = (max(il, size[r] - oh), min(ih, size[r] - ol))
        out: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
        for r in range(nrows):
            t = last[r]
            touched = {i for _, c in steps_of[r] for i in self._dims_of_cell(c)}
            for i in touched:
                if i not in dim_rows or dims[i].last <= t:
                    continue
                lo_f = hi_f = 0
                for r2 in dim_rows[i]:
                    if last[r2] <= t:
                        continue
                    if first[r2] > t:
                        a, b = full[r2, i]
                    else:
                        rem = [c for s2, c in steps_of[r2] if s2 > t and c in dims[i].cells]
                        a = sum(cells[c][0] for c in rem)
                        b = min(sum(cells[c][1] for c in rem), size[r2])
                    lo_f += a
                    hi_f += b
                out[i][t] = (lo_f, hi_f)
        return out


def _strides(layout: list[int], rad: dict[int, int]) -> dict[int, int]:
    """Each open sum's stride in the packed key (the first sum least significant)."""
    out, s = {}, 1
    for i in layout:
        out[i] = s
        s *= rad[i]
    return out


def _opening(stmts, logr, got, need) -> float:
    """How much a class in the statements ``stmts`` changes the log ranges of the
    statements open (some of their classes placed, not all; ``got`` and ``need``: their
    classes placed and in all): it opens those it starts and closes those it ends."""
    u = 0.0
    for i in stmts:
        if got[i] == 0 and need[i] > 1:
            u += logr[i]
        elif 0 < got[i] == need[i] - 1:
            u -= logr[i]
    return u


@functools.lru_cache(maxsize=64)
def _cheapest_order(spans: tuple, cards: tuple, per_card: float) -> tuple[int, ...]:
    """The permutation of ``len(cards)`` classes with the least sum over its steps of
    exp(sum of the weights of the ``spans`` (bit mask of their classes, weight) partly
    placed + ``per_card`` x cards placed), by a shortest path over the subsets in
    order of size (see :meth:`_Plan._component_order`).  A superset not reached yet
    still holds inf, so every class's predecessor can be read without a mask."""
    n = len(cards)
    N = 1 << n
    S = np.arange(N, dtype=np.int64)
    cost = np.zeros(N)
    for j, c in enumerate(cards):
        cost += per_card * c * ((S >> j) & 1)
    for mk, w in spans:
        part = S & mk
        cost += w * ((part != 0) & (part != mk))
    step = np.exp(cost)
    best = np.full(N, np.inf)       # least measure of an order of the subset
    best[0] = 0.0
    size = np.zeros(N, dtype=np.int8)
    for j in range(n):
        size += ((S >> j) & 1).astype(np.int8)
    by_size = np.argsort(size, kind="stable")
    edges = np.searchsorted(size[by_size], np.arange(n + 2))
    for k in range(1, n + 1):
        L = by_size[edges[k]:edges[k + 1]]
        val = best[L ^ 1]
        for j in range(1, n):
            np.minimum(val, best[L ^ (1 << j)], out=val)
        best[L] = val + step[L]
    out = []
    s = N - 1
    while s:
        prev = min(best[s ^ (1 << j)] for j in range(n) if s >> j & 1)
        j = next(j for j in range(n) if s >> j & 1 and best[s ^ (1 << j)] == prev)
        out.append(j)
        s ^= 1 << j
    return tuple(out[::-1])


@functools.lru_cache(maxsize=64)
def _beam_order(spans: tuple, cards: tuple, per_card: float, width: int) -> tuple[int, ...]:
    """The measure of :func:`_cheapest_order`, minimised by a beam search where the exact
    search would take too long: the ``width`` cheapest partial orders (one per set of
    classes placed, its cheapest) are extended by every class left, step by step; ties go
    to the smaller bit mask.  At most 62 classes (the sets are int64 bit masks)."""
    n = len(cards)
    bits = np.left_shift(np.int64(1), np.arange(n, dtype=np.int64))
    mk = np.array([m for m, _ in spans], dtype=np.int64)
    w = np.array([x for _, x in spans])
    size = np.array(cards, dtype=float)
    S = np.zeros(1, dtype=np.int64)             # the beam: sets placed,
    meas = np.zeros(1)                          # their measure,
    placed = np.zeros(1)                        # their cards
    back: list[tuple[np.ndarray, np.ndarray]] = []   # per step: parent and class
    for _ in range(n):
        T = S[:, None] | bits[None, :]
        ok = (S[:, None] & bits[None, :]) == 0
        parent, j = np.nonzero(ok)
        T = T[parent, j]
        part = T[:, None] & mk[None, :]
        open_w = ((part != 0) & (part != mk[None, :])) @ w
        c = placed[parent] + size[j]
        m = meas[parent] + np.exp(open_w + per_card * c)
        order = np.lexsort((T, m))
        T, m, c, parent, j = T[order], m[order], c[order], parent[order], j[order]
        _, first = np.unique(T, return_index=True)      # each set's cheapest
        keep = np.sort(first)[:width]                   # still in measure order
        S, meas, placed = T[keep], m[keep], c[keep]
        back.append((parent[keep], j[keep]))
    out = []
    b = 0
    for parent, j in reversed(back):
        out.append(int(j[b]))
        b = int(parent[b])
    return tuple(out[::-1])


def _log_splits(size: int, bounds: list[tuple[int, int]]) -> float:
    """log of the number of ways to split ``size`` cards over cells with count bounds."""
    ways = [1] + [0] * size
    for lo, hi in bounds:
        new = [0] * (size + 1)
        for v, w in enumerate(ways):
            if w:
                for k in range(lo, min(hi, size - v) + 1):
                    new[v + k] += w
        ways = new
    return math.log(max(ways[size], 1))


def _deal_bound(prob: _Problem) -> int:
    """An upper bound on the number of tables of counts times their weights (the
    multinomial of the unfixed cards over the column capacities)."""
    n = sum(len(r) for r in prob.rows)
    b = math.factorial(n)
    for c in prob.col_cap:
        b //= math.factorial(c)
    return b


# --------------------------------------------------------------------------------------
# 3. the dynamic programme
#: transitions the forward pass keeps for the backward pass and the samples (13 bytes each)
KEEP_TRANSITIONS = 12_000_000
#: merge columns once the rest of the order treats them alike (see _Plan._merge_columns)
MERGE_COLUMNS = True
#: drop the states that _Plan.suffix_table and _Plan.alive_spec prove dead, after a step
#: with at least PRUNE_STATES states that ends a class or has a quarter more states than
#: the last check left (in chunks of ALIVE_CHUNK states)
PRUNE = True
#: :meth:`_Plan._order` places the classes linked by statements (a component) together,
#: the widest components first (False: the classes one by one, fewest statements open
#: first, components interleaved): far smaller peaks on public states (docs/counting.md)
COMPONENT_ORDER = True
#: ... and orders the classes of a component of 3 to COMPONENT_SEARCH classes by an exact
#: search (:meth:`_Plan._component_order`; 2^n subsets), up to COMPONENT_BEAM_CLASSES by
#: a beam search of COMPONENT_BEAM partial orders, larger ones greedily (the beam keeps
#: the large components of Sneak states within the state budget)
COMPONENT_SEARCH = 17
COMPONENT_BEAM = 64
COMPONENT_BEAM_CLASSES = 62
#: the weight of a card placed in that search's measure (log ranges of open statements;
#: 0.3 measured worse on the same states)
COMPONENT_CARDS = 0.1
PRUNE_STATES = 10_000
ALIVE_CHUNK = 1 << 18
#: the backward programme of _Plan.suffix_table: at most this many states, and tables of
#: at most SUFFIX_TABLE entries and SUFFIX_PER_STATE per state to check
SUFFIX_STATES = 20_000
SUFFIX_TABLE = 1_000_000
SUFFIX_PER_STATE = 4
#: a step's transitions come from one 2-D mask up to this many (state, k) pairs
EXPAND_2D = 16_384


def _run_starts(a: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted, non-empty ``a`` begins (no ``np.r_``:
    about 20 us a call, a fifth of a small step).

    >>> _run_starts(np.array([3, 3, 5, 7, 7])).tolist()
    [True, False, True, True, False]
    """
    first = np.empty(len(a), dtype=bool)
    first[0] = True
    np.not_equal(a[1:], a[:-1], out=first[1:])
    return first


def _pack_alive(tab, spec) -> tuple:
    """:meth:`_DP._alive`'s table and space checks as :func:`solver.model._kernel.alive`
    reads them."""
    def rows(xs, width):
        return np.array(xs, dtype=np.int64).reshape(len(xs), width)

    if tab is not None:
        readers, mult, table = tab
        tab = (rows(readers, 2), np.array(mult, dtype=np.int64), table.view(np.uint8))
    else:
        tab = (rows([], 2), np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.uint8))
    space_at, space, need, begun_at, begun = [0], [], [], [0], []
    for sp, nd, bg in spec or ():
        space += [(a, b, c) for (a, b), c in sp]
        space_at.append(len(space))
        need.append(nd)
        begun += [(lo, a, b) for lo, (a, b) in bg]
        begun_at.append(len(begun))
    return tab + (np.array(space_at, dtype=np.int64), rows(space, 3),
                  np.array(need, dtype=np.int64), np.array(begun_at, dtype=np.int64),
                  rows(begun, 3))


class _Collapse(NamedTuple):
    """How a tagged column's states forget their tags (:meth:`_DP.composition_counts`)."""
    col: int                    # the column's sum (its fill)
    full: int                   # its size
    tags: frozenset             # the tags' sums
    tag_at: dict                # step -> the tag its cell adds to
    least: int                  # the fill from which a state is cut: full, or full - 1


class _DP:
    """Forward tables (sorted state keys and counts per boundary), backward tables,
    expected count per cell, uniform samples.

    ``exact=True`` keeps Python integers (numpy object arrays): exact totals, correctly
    rounded marginals and exactly uniform samples; ``exact=False`` uses float64 (all terms
    positive, so the relative error stays below ~(steps + 2) * 2**-53)."""

    def __init__(self, plan: _Plan, exact: bool, max_states: int | None = None,
                 deadline: float | None = None, residues: bool = True,
                 stretch: tuple[int, int] | None = None, collapse: bool = False,
                 max_work: int | None = None):
        """``max_states``: the most states after any step, over which :class:`OverBudget`
        is raised; with ``stretch = (peak, work)``, more are allowed up to ``peak`` as long
        as the states summed over the steps so far (about the work of the forward pass)
        are at most ``work``.  ``collapse`` (a float programme whose tags are every cell
        of one column, :func:`location_sets`): a state whose tagged column has just been
        filled (or from three cards on, one card short) forgets its tags (see
        :meth:`composition_counts`).  ``max_work``: the most states summed over the
        steps, whatever the peak."""
        self.plan = plan
        self.max_work = max_work
        self.entries: list[tuple] = []      # collapsed states: see composition_counts
        self.collapse = None
        if collapse and plan.tags and not exact and not residues:
            cd = plan.col_dim.get(plan.tags[0][1])
            tagcells = set(plan.tag_cells)
            if cd is not None and all(c in tagcells for c in plan.dims[cd].cells):
                full = plan.dims[cd].lo
                tag_at = {t: next(i for i in plan._dims_of[c] if plan.dims[i].kind == "tag")
                          for t, c in enumerate(plan.order) if c in tagcells}
                # from three cards on, a state forgets its tags one card before the
                # column is full, and the backward pass tells the last card's class
                self.collapse = _Collapse(cd, full, frozenset(tag_at.values()), tag_at,
                                          full - 1 if full >= 3 and COLLAPSE_EARLY else full)
        self.stretch = stretch
        self.work = 0
        self.pruned = 0         # states dropped as dead (see _alive)
        self.raw_peak = 1       # the peak counting them
        self.exact = exact
        self.max_states = max_states
        self.deadline = deadline
        maxn = max([len(r) for r in plan.prob.rows] + [1]
                   + [plan.col_cap[v] for v in plan.parents])
        tabs = _binomials(maxn)
        self.bsize = int(round(math.sqrt(len(tabs["float"]))))
        self.bin = tabs["object"] if exact else tabs["float"]
        self.dtype = object if exact else float
        self.peak = 1
        # float programme: carry residues modulo a few primes to recover the exact total
        self.nprimes = 0
        if not exact and residues:
            bound = _deal_bound(plan.prob)
            need = 4 * (1e-10 * bound + 1)   # runtime bounds are ~1e-13; else float total
            P = 1
            while P <= need and self.nprimes < len(PRIMES):
                P *= PRIMES[self.nprimes]
                self.nprimes += 1
            self.mod = tabs["mod"][: self.nprimes]
            self.primes = np.array(PRIMES[: self.nprimes], dtype=np.int64)[:, None]
        self.big_binomials = maxn > 50     # C(n, k) may exceed 2**53: rounded weights
        self._forward()

    def _expand(self, t: int, keys: np.ndarray):
        """Every transition of step t from the states ``keys`` (packed at boundary t):
        (index of the source state, k, packed next state, index of C(remaining, k) in the
        flat binomial tables)."""
        st = self.plan.steps[t]
        n = len(keys)
        if st.merge is not None:
            return self._merge(st, keys)
        if KERNEL is not None:
            return KERNEL.expand(keys, self.plan.pow2, st.kernel_args(self.plan.pow2),
                                 self.bsize)
        kmax = np.full(n, st.hi, dtype=np.int64)
        kmin = np.full(n, st.lo, dtype=np.int64)
        pow2 = self.plan.pow2

        def digit(x, a, b):
            return (x >> a) & b if pow2 else (x // a) % b

        for s, rad, hi, lo in st.old:
            v = digit(keys, s, rad)
            np.minimum(kmax, hi - v, out=kmax)
            if lo is not None:
                np.maximum(kmin, lo - v, out=kmin)
        for hi in st.new_his:
            np.minimum(kmax, hi, out=kmax)
        for lo in st.closing_new:
            np.maximum(kmin, lo, out=kmin)
        if st.row_old is not None:
            rem = st.rsize - digit(keys, *st.row_old)
        else:
            rem = np.full(n, st.rsize, dtype=np.int64)
        rem *= self.bsize
        if n == 0 or not (kmin <= kmax).any():
            e = np.zeros(0, dtype=np.int64)
            return e, e, e, e
        # every (k, state) with kmin <= k <= kmax, k-major (the states in order for each
        # k: the next keys come in sorted runs, which the stable sort merges cheaply):
        # few states from one 2-D mask (a few numpy calls instead of five per k), many
        # k by k (np.nonzero of a big 2-D mask is the slower)
        k0, k1 = int(kmin.min()), int(kmax.max())
        if n * (k1 - k0 + 1) <= EXPAND_2D:
            ks = np.arange(k0, k1 + 1)[:, None]
            k, src = np.nonzero((kmin <= ks) & (ks <= kmax))
            if k0:
                k += k0
            new = keys[src] + k * st.kstep
            w = rem[src] + k
        else:
            srcs, kk, news, ws = [], [], [], []
            for k in range(k0, k1 + 1):
                src = np.flatnonzero((kmin <= k) & (k <= kmax))
                if not len(src):
                    continue
                srcs.append(src)
                kk.append(np.full(len(src), k, dtype=np.int64))
                news.append(keys[src] + k * st.kstep)
                ws.append(rem[src] + k)
            src, k, new, w = (np.concatenate(srcs), np.concatenate(kk), np.concatenate(news),
                              np.concatenate(ws))
        for s, rad, lo in st.sat:           # "at least lo": values above lo are lo
            over = digit(new, s, rad) - lo
            np.maximum(over, 0, out=over)
            new = new - (over << s if pow2 else over * s)
        new = self._cut(new, st.remove)
        if st.checks:
            ok = None
            for s, rad, a, b in st.checks:
                v = digit(new, s, rad)
                o = (v >= a) & (v <= b)
                ok = o if ok is None else ok & o
            src, k, new, w = src[ok], k[ok], new[ok], w[ok]
        return src, k, new, w

    def _alive(self, b: int, keys: np.ndarray) -> np.ndarray | None:
        """Which of the states ``keys`` at boundary ``b`` can still be completed as far as
        :meth:`_Plan.suffix_table` and :meth:`_Plan.alive_spec` can tell (``None``:
        nothing to check there)."""
        tab = self.plan.suffix_table(b, len(keys))
        spec = self.plan.alive_spec(b)
        if spec is None and tab is None:
            return None
        if KERNEL is not None:
            packed = self.plan.__dict__.setdefault("_alive_packed", {})
            if b not in packed:
                packed[b] = _pack_alive(tab, spec)
            return KERNEL.alive(keys, self.plan.pow2, *packed[b]).view(bool)
        if len(keys) > ALIVE_CHUNK:
            return np.concatenate([self._alive(b, keys[i:i + ALIVE_CHUNK])
                                   for i in range(0, len(keys), ALIVE_CHUNK)])
        pow2 = self.plan.pow2

        def digit(keys, rd):
            a, m = rd
            return (keys >> a) & m if pow2 else (keys // a) % m

        if tab is not None:
            readers, mult, table = tab
            ok = table[sum(digit(keys, rd) * mu for rd, mu in zip(readers, mult))]
        else:
            ok = np.ones(len(keys), dtype=bool)
        if spec is not None:        # on the states the table lets through
            live = np.flatnonzero(ok)
            sub = keys[live]
            fills = {}              # a hand's fill, read once for every group it is in
            good = np.ones(len(live), dtype=bool)
            for space, need, begun in spec:
                room = 0
                for rd, c in space:
                    if rd not in fills:
                        fills[rd] = digit(sub, rd)
                    room = room + (c - fills[rd])
                if need:
                    good &= room >= need
                for lo, val in begun:
                    good &= room >= lo - digit(sub, val)
            ok[live] = good
        return ok

    def _merge(self, st, keys: np.ndarray):
        """A merge step: one transition per state, to the state with the two columns'
        fills summed, weighted by C(ra + rb, ra) (``ra``, ``rb``: the space left)."""
        pow2 = self.plan.pow2
        (sa, ma), (sb, mb), ca, cb, sv = st.merge
        fa = (keys >> sa) & ma if pow2 else (keys // sa) % ma
        fb = (keys >> sb) & mb if pow2 else (keys // sb) % mb
        new = keys + (fa + fb) * sv
        new = self._cut(new, st.remove)
        ra = ca - fa
        w = (ra + cb - fb) * self.bsize + ra
        return np.arange(len(keys)), np.zeros(len(keys), dtype=np.int64), new, w

    def _cut(self, new, remove):
        """The keys ``new`` with the closing digits ``remove`` ((stride, radix), most
        significant first) cut out."""
        for s, rad in remove:
            if self.plan.pow2:
                new = ((new >> (s * rad).bit_length() - 1) * s) | (new & (s - 1))
            else:
                new = (new // (s * rad)) * s + new % s
        return new

    def _check_budget(self, n):
        self.peak = max(self.peak, n)
        self.work += n
        if self.max_work is not None and self.work > self.max_work:
            raise OverBudget(f"more than {self.max_work} states over all steps")
        if self.max_states is not None and n > self.max_states:
            if self.stretch is None:
                raise OverBudget(f"more than {self.max_states} states")
            peak, work = self.stretch
            if n > peak or self.work > work:
                raise OverBudget(f"more than {self.max_states} states, and more than "
                                 f"{peak} or {work} over all steps")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OverBudget("out of time")
        _deadline("the probabilities")      # the analysis's own deadline: stop, no fallback

    def _forward(self):
        plan = self.plan
        T = len(plan.order)
        one = np.ones(1, dtype=self.dtype)
        self.fwd = [one]
        self.keys = [np.zeros(1, dtype=np.int64)]
        res = np.ones((self.nprimes, 1), dtype=np.int64)
        merged = 0          # for the rounding bound: sum over steps of the largest merge
        self._trans: dict[int, tuple] = {}
        kept = 0
        checked = 0             # states after the last check for dead ones
        # the compiled step (float programme without residues): expansion and terms in
        # one pass, the sorted transitions summed in another (see _kernel)
        fused = KERNEL is not None and not self.exact and not self.nprimes
        for t in range(T):
            st = plan.steps[t]
            if fused and st.merge is None:
                src, k, new, widx, vals = KERNEL.expand(
                    self.keys[t], plan.pow2, st.kernel_args(plan.pow2), self.bsize,
                    self.fwd[t], self.bin)
            else:
                src, k, new, widx = self._expand(t, self.keys[t])
                vals = self.fwd[t][src] * self.bin[widx]
            order = np.argsort(new, kind="stable")
            if len(new):
                if fused:
                    keys, vals, inv, longest = KERNEL.reduce_sorted(new, vals, order)
                else:
                    keys = new[order]
                    first = _run_starts(keys)
                    starts = np.flatnonzero(first)
                    vals = np.add.reduceat(vals[order], starts)
                    keys = keys[starts]
                    inv = None
                # states no completion can reach are dropped (their terms are all zero)
                # (checked where a class ends, or where the states have grown by a
                # quarter since the last check: most dead states appear there, and a
                # check costs about as much as a step)
                alive = None
                if (PRUNE and plan.prune and len(keys) >= PRUNE_STATES
                        and (plan.class_ends[t] or len(keys) >= 1.25 * checked)):
                    alive = self._alive(t + 1, keys)
                    checked = len(keys) if alive is None else int(alive.sum())
                if alive is not None and alive.all():
                    alive = None
                self.raw_peak = max(self.raw_peak, len(keys))
                if alive is not None:
                    self.pruned += len(keys) - int(alive.sum())
                    keys, vals = keys[alive], vals[alive]
                # with collapse only the merged states' transitions are ever walked
                # again (composition_counts): the others are not kept
                sel = None if self.collapse is None else self._merged(t)[src]
                if kept + (len(new) if sel is None else int(sel.sum())) <= KEEP_TRANSITIONS:
                    # the backward pass and the samples walk the same transitions: keep
                    # them (with each one's next-state index) instead of expanding again
                    if inv is None:
                        inv = np.empty(len(new), dtype=np.int32)
                        inv[order] = np.cumsum(first) - 1
                    ts, tk, tw = src, k, widx
                    if alive is not None:
                        live = alive[inv]
                        inv = (np.cumsum(alive) - 1).astype(np.int32)[inv[live]]
                        ts, tk, tw = src[live], k[live], widx[live]
                        if sel is not None:
                            sel = sel[live]
                    if sel is not None:
                        ts, tk, inv, tw = ts[sel], tk[sel], inv[sel], tw[sel]
                    kept += len(inv)
                    self._trans[t] = (ts.astype(np.int32, copy=False),
                                      tk.astype(np.int8, copy=False), inv,
                                      tw.astype(np.int32, copy=False))
                if self.collapse is not None and t in self.collapse.tag_at:
                    keys, vals, runs = self._collapse_step(t, keys, vals)
                    merged += runs
                if self.nprimes:
                    r = (res[:, src] * self.mod[:, widx]) % self.primes
                    res = np.add.reduceat(r[:, order], starts, axis=1) % self.primes
                    if alive is not None:
                        res = res[:, alive]
                if fused:
                    merged += longest + 1
                elif not self.exact:
                    merged += int(max(np.diff(starts).max(initial=0),
                                      len(order) - starts[-1])) + 1
            else:
                keys = new
                vals = np.zeros(0, dtype=self.dtype)
                res = np.zeros((self.nprimes, 0), dtype=np.int64)
            self._check_budget(len(keys))
            self.fwd.append(vals)
            self.keys.append(keys)
            if self.collapse is not None:
                # the composition counts need no forward value before the last boundary
                # (each entry keeps its own): half the memory of the programme
                self.fwd[t] = None
        nfinal = len(self.fwd[T])
        # relative error bound of the float forward values (all terms positive): each
        # step rounds one product per term and sums at most `merged` terms in sequence
        self.delta_fwd = 0.0 if self.exact else (
            (merged + nfinal + (T if self.big_binomials else 0)) * UNIT * 1.01)
        self.final_exact = None
        raw = self.fwd[T].sum() if nfinal else 0
        if self.exact:
            self.raw_total = int(raw)
        else:
            self.raw_total = float(raw)
            if self.nprimes and nfinal:
                tot = [int(x) for x in res.sum(axis=1) % self.primes[:, 0]]
                exact = _crt(tot, self.raw_total, self.delta_fwd)
                if exact is not None:
                    self.raw_total_int = exact
                # exact count of every final state (location_sets)
                finals = [_crt([int(x) for x in res[:, j]], float(self.fwd[T][j]),
                               self.delta_fwd) for j in range(nfinal)]
                if all(f is not None for f in finals) and exact is not None:
                    self.final_exact = finals
        self.total_exact = True
        if self.exact:
            self.total = self.raw_total * plan.prob.lump_factor
        elif hasattr(self, "raw_total_int"):
            self.total = self.raw_total_int * plan.prob.lump_factor
        elif self.raw_total < 2.0 ** 53:
            # every live partial count is an integer at most the total: no rounding at all
            self.total = int(self.raw_total) * plan.prob.lump_factor
        else:                   # the nearest integer of the float (relative error ~1e-13)
            self.total = int(self.raw_total) * plan.prob.lump_factor
            self.total_exact = False

    # ----- a filled tagged column forgets its tags (location_sets) ----------------------
    def _digit(self, keys: np.ndarray, b: int, i: int) -> np.ndarray:
        s, rad = self.plan.strides[b][i], self.plan.radix[i]
        if self.plan.pow2:
            return (keys >> (s.bit_length() - 1)) & (rad - 1)
        return (keys // s) % rad

    def _tag_part(self, keys: np.ndarray, b: int) -> np.ndarray:
        """The tags' part of each of the keys at boundary ``b`` (0 exactly where every tag
        is 0, and what cutting the tags subtracts): with bit fields the tags' bits, else
        the sum of their digits times their strides."""
        tags = [i for i in self.plan.layouts[b] if i in self.collapse.tags]
        if self.plan.pow2:
            mask = 0
            for i in tags:
                mask |= (self.plan.radix[i] - 1) << (self.plan.strides[b][i].bit_length() - 1)
            return keys & mask
        part = np.zeros(len(keys), dtype=np.int64)
        for i in tags:
            part += self._digit(keys, b, i) * self.plan.strides[b][i]
        return part

    def _merged(self, b: int) -> np.ndarray:
        """Which states at boundary ``b`` are merged ones (their tags cut: tags all 0 and
        some cards in the tagged column, whose cells are all tags): the only states whose
        transitions :meth:`composition_counts` walks (a merged state's transitions lead
        to merged states only)."""
        co = self.collapse
        keys = self.keys[b]
        if not self.entries or not any(i in co.tags for i in self.plan.layouts[b]):
            # no state merged yet (the first merge makes an entry), or no tagged cell
            # placed yet
            return np.zeros(len(keys), dtype=bool)
        merged = self._tag_part(keys, b) == 0
        if co.col in self.plan.strides[b]:
            merged &= self._digit(keys, b, co.col) > 0
        return merged

    def _collapsed(self, t: int, keys: np.ndarray):
        """``(done, fresh, fill, keys with their tags cut to 0)`` for the states ``keys``
        after step ``t`` (``None``: none to cut): ``done``, those whose tagged column holds
        at least ``least`` cards and whose tags are not all 0; ``fresh``, those of them
        never cut before (the others were, and have just taken the column's last card, of
        this step's class); ``fill``, every state's fill.  A cut state's future no longer
        depends on its tags (a tag bounds nothing), so cut states merge."""
        co = self.collapse
        b = t + 1
        strides = self.plan.strides[b]
        if not len(keys) or not any(i in co.tags for i in self.plan.layouts[b]):
            return None
        fill = (self._digit(keys, b, co.col) if co.col in strides
                else np.full(len(keys), co.full))
        tagged = self._tag_part(keys, b)
        done = (tagged != 0) & (fill >= co.least)
        if not done.any():
            return None
        fresh = done
        if co.least < co.full:
            # cut before and just given the last card: only this step's tag, at 1 (a
            # state never cut holds at least two cards in its tags)
            fresh = done & (tagged != strides[co.tag_at[t]])
        return done, fresh, fill, keys - np.where(done, tagged, 0)

    def _collapse_step(self, t: int, keys: np.ndarray, vals: np.ndarray):
        """After step t: the states it brought to the collapse's threshold are kept aside
        with their counts and compositions (``entries``), and every state to cut is
        merged with its tags cut to 0; the transitions kept for step t are renumbered.
        ``(keys, vals, longest merge + 1)``."""
        c = self._collapsed(t, keys)
        if c is None:
            return keys, vals, 0
        done, fresh, fill, cut = c
        order = np.argsort(cut, kind="stable")
        first = _run_starts(cut[order])
        starts = np.flatnonzero(first)
        idx = np.empty(len(cut), dtype=np.int64)
        idx[order] = np.cumsum(first) - 1
        if fresh.any():
            # each entry's composition, packed as the final states' tags are
            T = len(self.plan.order)
            comp = 0
            for i in self.plan.layouts[t + 1]:
                if i in self.collapse.tags:
                    comp = comp + (self._digit(keys[fresh], t + 1, i)
                                   * self.plan.strides[T][i])
            self.entries.append((t + 1, idx[fresh], vals[fresh],
                                 np.asarray(comp, dtype=np.int64),
                                 fill[fresh] < self.collapse.full))
        runs = int(np.diff(np.append(starts, len(cut))).max(initial=1)) + 1
        vals = np.add.reduceat(vals[order], starts)
        keys = cut[order][starts]
        kept = self._trans.get(t)
        if kept is not None:
            ts, tk, inv, tw = kept
            self._trans[t] = (ts, tk, idx[inv].astype(np.int32), tw)
        return keys, vals, runs

    def composition_counts(self):
        """With ``collapse``: the count of every composition of the tagged column, as the
        final states of the tagged programme would give it, ``(counts, packed tags,
        relative rounding bound)``.  A composition's count is the sum, over the states
        where the column reached the threshold with it (``entries``), of their forward
        count times the completions of the merged state they became: all of them when
        the column was full; one card short, those whose last card is of the class that
        completes the composition.  A backward pass over the merged states alone gives
        both (their transitions stay among them): the number of completions, and for the
        states one card short, a vector of the completions by the class of the last
        card.  ``None`` when nothing was merged (the final states hold the
        compositions)."""
        if not self.entries:
            return None
        plan = self.plan
        T = len(plan.order)
        co = self.collapse
        b0 = min(e[0] for e in self.entries)
        at: dict[int, list] = defaultdict(list)
        for e in self.entries:
            at[e[0]].append(e)
        # tags by the step of their cell; at boundary b the classes still to come are
        # those with a cell at step >= b (a suffix)
        order = [co.tag_at[t] for t in sorted(co.tag_at)]
        comps, terms = [], []
        pre = 0                 # the most entries summed before the compositions' sums
        bwd = np.ones(len(self.fwd[T]))
        vec = (np.full(len(self.fwd[T]), -1, dtype=np.int64), np.zeros((0, 0)))
        # (the kernel's backward step also weighs each transition by the forward value of
        # its source, for the marginals: not used here, and those values were dropped)
        nofwd = np.zeros(max(len(self.keys[b]) for b in range(b0, T + 1)))
        for b in range(T, b0 - 1, -1):
            if b < T:
                nxt = bwd
                kept = self._trans.get(b) if KERNEL is not None else None
                trans = kept if kept is not None else self._transitions(b)
                if kept is not None:
                    bwd = KERNEL.backward_step(*kept, self.bin, nxt, nofwd,
                                               len(self.keys[b]))[0]
                else:
                    src, _, idx, w = trans
                    bwd = np.bincount(src, weights=w * nxt[idx],
                                      minlength=len(self.keys[b])).astype(float)
                if co.least < co.full:
                    vec = self._last_card(b, vec, nxt, trans, kept is not None)
            for _, idx_e, f, comp, short in at.get(b, ()):
                whole = ~short
                comps.append(comp[whole])
                terms.append(f[whole] * bwd[idx_e[whole]])
                if short.any():
                    pos, rows = vec
                    first = len(order) - rows.shape[1]
                    add = np.array([plan.strides[T][i] for i in order[first:]],
                                   dtype=np.int64)
                    v = f[short, None] * rows[pos[idx_e[short]]]
                    # summed by composition first: far fewer keys to sort below
                    cs = comp[short]
                    o = np.argsort(cs, kind="stable")
                    run = _run_starts(cs[o])
                    starts = np.flatnonzero(run)
                    pre = max(pre, int(np.diff(np.append(starts, len(cs))).max()))
                    comps.append((cs[o][starts][:, None] + add[None, :]).ravel())
                    terms.append(np.add.reduceat(v[o], starts, axis=0).ravel())
        comps = np.concatenate(comps)
        terms = np.concatenate(terms)
        live = terms > 0
        packed, inv = np.unique(comps[live], return_inverse=True)
        counts = np.bincount(inv, weights=terms[live], minlength=len(packed))
        longest = int(np.bincount(inv).max(initial=1))
        rounding = self.delta_fwd + (8 * T + longest + pre + 2) * UNIT * 1.01
        return counts, packed, rounding

    def _last_card(self, t, vec, nxt, trans, compiled):
        """The completions by the class of the last card of the merged states one card
        short after step ``t - 1``, from those after step ``t``: ``vec = (index of each
        such state among them or -1, one row for each of them with a column for each tag
        whose cell comes at step t or later)``; ``nxt``: every state's completions after
        step ``t``; ``trans``: step t's transitions, kept (``compiled``: for the kernel's
        ``last_card_step``) or as :meth:`_transitions` gives them."""
        co = self.collapse
        keys = self.keys[t]
        n = len(keys)
        if co.col in self.plan.strides[t]:
            short = (self._digit(keys, t, co.col) == co.full - 1) & (self._tag_part(keys, t) == 0)
        else:
            short = np.zeros(n, dtype=bool)
        rows = np.flatnonzero(short)
        pos = np.full(n, -1, dtype=np.int64)
        pos[rows] = np.arange(len(rows))
        own = t in co.tag_at
        pos1, v1 = vec
        if len(rows) * (v1.shape[1] + own) > LAST_CARD_CELLS:
            raise OverBudget(f"more than {LAST_CARD_CELLS} completions by the last card")
        if compiled:
            return pos, KERNEL.last_card_step(*trans, self.bin, pos, pos1,
                                              np.ascontiguousarray(v1), nxt, own, len(rows))
        out = np.zeros((len(rows), v1.shape[1] + own))
        if not len(rows):
            return pos, out
        src, k, idx, w = trans
        p = pos[src]
        sel = p >= 0
        p, kk, i2, ww = p[sel], k[sel], idx[sel], w[sel]
        q = pos1[i2]
        on = q >= 0                     # still one card short after the step
        for j in range(v1.shape[1]):
            out[:, own + j] = np.bincount(p[on], weights=ww[on] * v1[q[on], j],
                                          minlength=len(rows))
        if own:
            hit = kk == 1
            out[:, 0] = np.bincount(p[hit], weights=ww[hit] * nxt[i2[hit]],
                                    minlength=len(rows))
        return pos, out

    def _transitions(self, t: int):
        """Transitions of step t that reach a stored state at t + 1 (with collapse: those of
        the merged states, the only ones :meth:`composition_counts` walks):
        (src, k, index of the next state, weight)."""
        kept = self._trans.get(t)
        if kept is not None:
            src, k, idx, widx = kept
            return src, k.astype(np.int64), idx, self.bin[widx]
        if self.collapse is None:
            src, k, new, widx = self._expand(t, self.keys[t])
        else:                   # the merged states' transitions only (see _merged)
            base = np.flatnonzero(self._merged(t))
            src, k, new, widx = self._expand(t, self.keys[t][base])
            src = base[src]
            if t in self.collapse.tag_at:
                c = self._collapsed(t, new)
                if c is not None:
                    new = c[3]
        tab = self.keys[t + 1]
        if not len(tab) or not len(new):
            e = np.zeros(0, dtype=np.int64)
            return e, e, e, np.zeros(0, dtype=self.dtype)
        idx = np.searchsorted(tab, new)
        np.minimum(idx, len(tab) - 1, out=idx)
        ok = tab[idx] == new
        return src[ok], k[ok], idx[ok], self.bin[widx[ok]]

    def _segment_sum(self, src, vals, n):
        if not self.exact:
            return np.bincount(src, weights=vals, minlength=n).astype(float)
        out = np.zeros(n, dtype=object)
        if len(src):
            order = np.argsort(src, kind="stable")
            s = src[order]
            starts = np.flatnonzero(_run_starts(s))
            out[s[starts]] = np.add.reduceat(vals[order], starts)
        return out

    def backward(self, deadline: float | None = None):
        """Backward tables and the expected count of every cell (in units of deals).
        Costs about as much as the forward pass (whose transitions it reuses); ``deadline``
        (perf_counter time) aborts it with :class:`OverBudget`."""
        if self.collapse is not None:
            raise RuntimeError("a programme whose tags collapse keeps no forward values "
                               "before its end: only composition_counts reads it")
        if hasattr(self, "bwd"):
            return
        T = len(self.plan.order)
        bwd = [None] * (T + 1)
        bwd[T] = np.ones(len(self.fwd[T]), dtype=self.dtype)
        self.cell_mass = {}
        span = 0
        nterms = 0
        for t in range(T - 1, -1, -1):
            if deadline is not None and time.perf_counter() > deadline:
                raise OverBudget("out of time")
            _deadline("the probabilities")
            kept = self._trans.get(t) if KERNEL is not None and not self.exact else None
            if kept is not None:        # compiled: one pass, the same sums
                src = kept[0]
                bwd[t], terms = KERNEL.backward_step(*kept, self.bin, bwd[t + 1],
                                                     self.fwd[t], len(self.fwd[t]))
                m = terms.sum()
            else:
                src, k, idx, w = self._transitions(t)
                contrib = w * bwd[t + 1][idx]
                bwd[t] = self._segment_sum(src, contrib, len(self.fwd[t]))
                m = (self.fwd[t][src] * contrib * k).sum() if len(src) else 0
            self.cell_mass[self.plan.order[t]] = int(m) if self.exact else float(m)
            st = self.plan.steps[t]
            span += st.hi - st.lo + 3
            nterms = max(nterms, len(src))
        self.bwd = bwd
        # relative error bound of every float marginal: forward and backward factors,
        # the (pairwise) sum over the transitions of a cell and the final division (and
        # with merged columns, the share passes: another forward factor and the sum of
        # a column's parts)
        self.rounding = 0.0 if self.exact else (
            (4 if self.plan.merges else 2) * self.delta_fwd + span * UNIT * 1.01
            + (math.log2(nterms + 1) + 16 + 2 * len(self.plan.merges)) * UNIT)

    def column_mass(self) -> dict[tuple[int, int], float | int]:
        """Expected count (in deals) of every class in every column of the problem.

        A column merged into another shares the merged column's cards with its partner:
        given the state at the merge, each card that comes to the merged column later is
        in ``a`` with probability ``ra / (ra + rb)``.  So ``a``'s part is a second forward
        pass from its merge on, weighted there by ``C(ra + rb - 1, ra - 1)`` (the merge's
        binomial times ``ra / (ra + rb)``: integer weights, positive terms, so a zero is
        exact) instead of ``C(ra + rb, ra)``, and at each later merge of its column the
        same for that column's side; its mass in a cell of the merged column is that
        pass's forward values times the weights, the backward values and ``k``."""
        self.backward()
        if hasattr(self, "_colmass"):
            return self._colmass
        plan = self.plan
        P = len(plan.prob.cols)
        zero = 0 if self.exact else 0.0
        mass: dict[tuple[int, int], float | int] = defaultdict(lambda: zero)
        for c, m in self.cell_mass.items():
            if c[0] >= 0 and c[1] < P:
                mass[c] += m
        T = len(plan.order)
        for a in range(P):
            sides, cur = {}, a
            for t in sorted(plan.merges):
                x, y, v = plan.merges[t]
                if cur in (x, y):
                    sides[t] = cur == y
                    cur = v
            if not sides:
                continue
            g, cur = None, a
            for t in range(min(sides), T):
                src, k, idx, w = self._transitions(t)
                if t in sides:
                    w = self._share_weights(t, src, sides[t])
                    cur = plan.merges[t][2]
                    vals = (self.fwd[t] if g is None else g)[src] * w
                else:
                    vals = g[src] * w
                    r, c = plan.order[t]
                    if c == cur and len(src):
                        m = (vals * self.bwd[t + 1][idx] * k).sum()
                        mass[r, a] += int(m) if self.exact else float(m)
                g = self._segment_sum(idx, vals, len(self.fwd[t + 1]))
        self._colmass = dict(mass)
        return self._colmass

    def _share_weights(self, t: int, src: np.ndarray, right: bool) -> np.ndarray:
        """The weights of merge step t's transitions from ``src`` for one side's share:
        C(n - 1, ra - 1) for the left column, C(n - 1, ra) for the right (n = ra + rb)."""
        st = self.plan.steps[t]
        pow2 = self.plan.pow2
        keys = self.keys[t][src]
        (sa, ma), (sb, mb), ca, cb, _ = st.merge
        fa = (keys >> sa) & ma if pow2 else (keys // sa) % ma
        fb = (keys >> sb) & mb if pow2 else (keys // sb) % mb
        ra, n = ca - fa, ca - fa + cb - fb
        kk = ra if right else ra - 1
        ok = (n > 0) & (kk >= 0) & (kk <= n - 1)
        w = self.bin[np.where(ok, (n - 1) * self.bsize + kk, 0)]
        if self.exact:
            w = w.copy()
            w[~ok] = 0
            return w
        return np.where(ok, w, 0.0)

    def final_digits(self, i: int) -> np.ndarray:
        """Values of the i-th sum of the final layout (the tags) for every final state."""
        T = len(self.plan.order)
        return self._digit(self.keys[T], T, self.plan.layouts[T][i])

    # ----- uniform samples -------------------------------------------------------------
    def _sampling_table(self, t: int):
        """Step t's transitions grouped by source state: (cumulative weights, k, next
        state, offsets of each source's group).  Kept between calls when small."""
        cache = self.__dict__.setdefault("_cache", {})
        if t in cache:
            return cache[t]
        src, k, idx, w = self._transitions(t)
        contrib = w * self.bwd[t + 1][idx]
        pos = contrib > 0
        src, k, idx, contrib = src[pos], k[pos], idx[pos], contrib[pos]
        order = np.argsort(src, kind="stable")
        tab = (np.cumsum(contrib[order]), k[order].astype(np.int8), idx[order],
               np.searchsorted(src[order], np.arange(len(self.fwd[t]) + 1)))
        size = self.__dict__.get("_cache_size", 0) + len(src)
        if size <= 4_000_000:
            self._cache_size = size
            cache[t] = tab
        return tab

    def sample_counts(self, n: int, gen: np.random.Generator, pyr: random.Random):
        """n independent uniform draws of the table of counts per cell: array (n, T).

        Forward through the tables: from state s, the transition to s' with weight w is
        taken with probability w * bwd(s') / bwd(s) (exactly, with integer tables)."""
        self.backward()
        T = len(self.plan.order)
        K = np.zeros((n, T), dtype=np.int8)
        cur = np.zeros(n, dtype=np.int64)
        if not self.exact:
            return self._sample_floats(K, cur, gen)
        for t in range(T):      # integer tables: exact integer draws
            cum, k, idx, off = self._sampling_table(t)
            gstart, gend = off[cur], off[cur + 1]
            target = np.empty(n, dtype=object)
            for i, (a, b) in enumerate(zip(gstart.tolist(), gend.tolist())):
                base = cum[a - 1] if a > 0 else 0
                target[i] = base + pyr.randrange(int(cum[b - 1] - base))
            cur = _take(K, t, cum, k, idx, gstart, gend, target)
        return K

    def _sample_floats(self, K: np.ndarray, cur: np.ndarray, gen: np.random.Generator):
        """:meth:`sample_counts` of a float programme.  At each step only the states the
        draws are in are expanded (at most ``n`` of them, not the whole table: the cost no
        longer grows with the number of states), their next states found in the stored
        keys, and each draw takes a transition with probability ``w * bwd(s') / bwd(s)``,
        the transitions of a state in the same order as the whole table's."""
        n, T = K.shape
        pow2 = self.plan.pow2
        for t in range(T):
            st = self.plan.steps[t]
            tab = self.keys[t + 1]
            if KERNEL is not None and st.merge is None:     # the same draws, in C
                u, inv = KERNEL.group(cur, np.argsort(cur))
                cum, k, idx, off = KERNEL.sample_transitions(
                    self.keys[t][u], pow2, st.kernel_args(pow2), self.bsize, tab,
                    self.bwd[t + 1], self.bin)
                K[:, t], cur = KERNEL.sample_pick(cum, k, idx, off, inv, gen.random(n))
                continue
            u, inv = np.unique(cur, return_inverse=True)
            src, k, new, widx = self._expand(t, self.keys[t][u])
            idx = np.searchsorted(tab, new)
            np.minimum(idx, len(tab) - 1, out=idx)
            ok = tab[idx] == new
            src, k, idx = src[ok], k[ok], idx[ok]
            contrib = self.bin[widx[ok]] * self.bwd[t + 1][idx]
            order = np.argsort(src, kind="stable")
            cum = np.cumsum(contrib[order])
            k, idx = k[order], idx[order]
            off = np.searchsorted(src[order], np.arange(len(u) + 1))
            gstart, gend = off[inv], off[inv + 1]
            base = np.where(gstart > 0, cum[gstart - 1], 0.0)
            target = base + gen.random(n) * (cum[gend - 1] - base)
            cur = _take(K, t, cum, k, idx, gstart, gend, target)
        return K


def _take(K, t, cum, k, idx, gstart, gend, target):
    """Each draw's transition at step t: the one whose cumulative weight interval (within
    its state's group ``gstart:gend``) holds its target; its k goes into ``K[:, t]``; the
    next states are returned."""
    if target.dtype == object:
        j = np.searchsorted(cum, target, side="right")
    else:       # the targets in order: half the time of a search for each in turn
        o = np.argsort(target)
        j = np.empty(len(target), dtype=np.intp)
        j[o] = np.searchsorted(cum, target[o], side="right")
    np.clip(j, gstart, gend - 1, out=j)
    K[:, t] = k[j]
    return idx[j]


# --------------------------------------------------------------------------------------
# 4. from cell counts to deals and marginals
def _deals_from_counts(prob: _Problem, plan: _Plan, K: np.ndarray, gen,
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
        fill: dict[int, np.ndarray] = {}
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
            cards = np.flatnonzero((out == v + 10_000).any(axis=0))
            if not len(cards):
                continue
            sub = np.ascontiguousarray(out[:, cards])
            # `left` of each row's marked cards go to a, a uniformly random subset:
            # selection sampling, card by card, each taken with probability (still
            # needed) / (still to see) -- every subset of that size equally likely
            need = np.array(np.broadcast_to(left[t], (n,)), dtype=np.int64)
            u = gen.random(sub.shape)
            if KERNEL is not None:      # the same choices, in C
                KERNEL.split_merged(sub, v + 10_000, a + 10_000, b + 10_000, need, u)
            else:
                mask = sub == v + 10_000
                avail = mask.sum(axis=1)
                for j in range(len(cards)):
                    m = mask[:, j]
                    take = m & (u[:, j] * avail < need)
                    sub[:, j] = np.where(take, a + 10_000,
                                         np.where(m, b + 10_000, sub[:, j]))
                    need -= take
                    avail -= m
            out[:, cards] = sub
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


def _exact_marginals(model, prob: _Problem, dp: _DP) -> dict:
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


def _order_marginals(model, marg):
    order = {l: i for i, l in enumerate(model.locations)}
    return {c: dict(sorted(d.items(), key=lambda kv: order[kv[0]])) for c, d in marg.items()}


# --------------------------------------------------------------------------------------
# 5. public functions
def _rngs(rng):
    if isinstance(rng, np.random.Generator):
        return rng, random.Random(int(rng.integers(2 ** 63)))
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.getrandbits(64)), rng
    gen = np.random.default_rng(rng)
    return gen, random.Random(int(gen.integers(2 ** 63)))


def _inconsistent(model, method="dp") -> Counting:
    return Counting(True, 0, {}, 0.0, method, 0)


#: the float programme of the last exact count (one entry): fingerprint -> (prob, plan, dp)
_LAST_DP: dict = {}


# ----- reuse between analyses of consecutive prefixes (solver.model.reuse) ---------------
def _settings() -> tuple:
    """The module's settings a programme depends on (its upper-case numbers and flags, and
    whether the compiled kernel is used)."""
    return (KERNEL is None,) + tuple(
        (k, v) for k, v in sorted(globals().items())
        if k.isupper() and isinstance(v, (bool, int, float)))


def _problem_key(prob: _Problem) -> tuple:
    """Everything of a problem a programme reads (not the model's constraint ids)."""
    return (prob.n_cards, prob.n_locs, tuple(sorted(prob.fixed.items())),
            tuple(map(tuple, prob.rows)), tuple(prob.cols), tuple(prob.col_cap),
            tuple(sorted(prob.loc_cap.items())), tuple(sorted(prob.cells.items())),
            tuple(prob.users), prob.lump_factor, tuple(prob.col_group))


def _frozen(v):
    if isinstance(v, dict):
        return tuple(sorted(((k, _frozen(x)) for k, x in v.items()), key=repr))
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    return v


def _programme(prob: _Problem, plan_args: dict, dp_args: dict,
               deadline: float | None = None) -> tuple[_Plan, _DP]:
    """``(_Plan(prob, **plan_args), _DP(plan, deadline=deadline, **dp_args))``, taken
    from the :class:`~solver.model.reuse.reusing` block when it holds the same one
    (raising :class:`OverBudget` at once for one it saw over its budget).

    >>> from solver.model import CardLocationModel
    >>> from solver.model.reuse import reusing
    >>> m = CardLocationModel(list("abcd"), {"P": 2, "Q": 2})
    >>> with reusing() as r:
    ...     a = exact_count(m)
    ...     m.add(["a", "b", "c", "d"], ["P", "Q"], 4, 4)   # implied: the same problem
    ...     b = exact_count(m)
    >>> a.marginals == b.marginals, r.memo.hits
    (True, 1)
    """
    memo = reuse.current() if deadline is None else None
    key = None
    if memo is not None:
        key = (_problem_key(prob), _frozen(plan_args), _frozen(dp_args), _settings())
        if key in memo.over:
            memo.hits += 1
            raise OverBudget(memo.over[key])
        if key in memo.built:
            memo.hits += 1
            memo.keep(memo.built, key, memo.built[key], reuse.PROGRAMMES)
            return memo.built[key]
    try:
        plan = _Plan(prob, **plan_args)
        dp = _DP(plan, deadline=deadline, **dp_args)
    except OverBudget as e:
        if memo is not None:
            memo.keep(memo.over, key, str(e), reuse.KEYS)
        raise
    if memo is not None:
        memo.keep(memo.built, key, (plan, dp), reuse.PROGRAMMES)
    return plan, dp


def _fingerprint(model) -> tuple:
    """What the count of a model depends on (its cards, sizes and constraints)."""
    return (tuple(model.cards), tuple(model.sizes.items()),
            tuple((c.terms, c.lo, c.hi) for c in model.constraints),
            tuple(sorted(getattr(model, "groups", {}).items(), key=repr)))


def stretched(max_states: int, factors: tuple[float, float] | None) -> tuple[int, int] | None:
    """The ``stretch`` (peak, work) of :class:`_DP` for a budget of ``max_states``: the
    ``factors`` times it; ``None`` (no stretch) for ``None`` or a peak factor of at most 1.

    >>> stretched(1000, (2.5, 20)), stretched(1000, None), stretched(1000, (1, 5))
    ((2500, 20000), None, None)
    """
    if factors is None or factors[0] <= 1:
        return None
    return int(factors[0] * max_states), int(factors[1] * max_states)


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
    :func:`solver.model.possible_sets.possible_compositions` can walk the same programme
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
        if apart is None:
            prob, plan_args = _simplify(model), {}
        else:
            prob, _, plan_args = apart_problem(model, model.loc_index(apart))
        plan, dp = _programme(prob, plan_args,
                              dict(exact=exact_ints, max_states=max_states,
                                   residues=exact_total, stretch=stretch),
                              deadline)
        if dp.total == 0:
            return _inconsistent(model)
        dp.backward()
    except _Infeasible:
        return _inconsistent(model)
    if not exact_ints:      # kept for sample_deals on the same model (the analyses draw next)
        _LAST_DP.clear()
        _LAST_DP[_fingerprint(model)] = (prob, plan, dp)
    marg = _exact_marginals(model, prob, dp)
    return Counting(True, dp.total, _order_marginals(model, marg), 0.0, "dp", dp.peak,
                    rounding=dp.rounding, total_exact=dp.total_exact,
                    raw_states=dp.raw_peak, work=dp.work)


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


#: accepted deals an estimate keeps (``Counting.deals``: the mystery-hand candidates)
KEEP_DEALS = 20_000

#: :func:`location_sets` tries the class-by-class programme with tags first, up to
#: TAGGED_STATES states, then the location-by-location order up to
#: LOCATION_ORDER_STATES, the latter only when the plain count's peak is at most
#: LOCATION_ORDER_BASE (above it the location order practically never fits)
TAGGED_STATES = 200_000
#: location_sets' programmes let a state forget its tags once its location is full
#: (``_DP(collapse=True)``, see :meth:`_DP.composition_counts`)
COLLAPSE = True
#: ... and, for a location of three cards or more, one card before it is full (the last
#: card's class from the backward pass: see :meth:`_DP.composition_counts`)
COLLAPSE_EARLY = True
#: the most (state, class) pairs of those completions after one step (8 bytes each)
LAST_CARD_CELLS = 8_000_000
#: without a stretch, location_sets' programmes stop after this many times their state
#: budget summed over the steps
SETS_WORK = 5
#: ... but when the plain count was cheap (at most SETS_CHEAP_BASE states summed over its
#: steps), the tagged programme may go to SETS_CHEAP_STATES states and SETS_CHEAP_WORK
#: summed over its steps (about 0.4 s): the tagged programme sums several times the plain
#: one's states, so a cheap plain count is where it can still fit.  Where the plain
#: programme alone sums more than the tagged one's budget and every class can lie in the
#: location, the tagged one is not tried (it would give up); where some class cannot, the
#: tagged order places those first and can be the cheaper one.  The base leaves room for
#: the mystery hand's column kept apart (up to 10 % more states summed)
SETS_CHEAP_BASE = 550_000
SETS_CHEAP_STATES = 400_000
SETS_CHEAP_WORK = 4_000_000
LOCATION_ORDER_STATES = 150_000
LOCATION_ORDER_BASE = 2_000

#: sampled deals behind an estimate of :func:`deterministic_count` (95 % half-width of a
#: single marginal at most about 1.96 * sqrt(0.25 / N) = 0.015)
ESTIMATE_SAMPLES = 4000


def deterministic_count(model, max_states: int = 200_000, support=None, seed: int = 0,
                        samples: int = ESTIMATE_SAMPLES,
                        stretch: tuple[int, int] | None = None,
                        prove_support: bool = False, apart: str | None = None) -> Counting:
    """Exact counting within ``max_states`` states, else an estimate from a fixed number of
    sampled deals drawn with a seeded generator: no clock is involved, so the same model
    always gives the same answer on any machine (the CLI's default).  ``prove_support``:
    see :func:`estimate`; ``apart``: see :func:`exact_count`.

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
    try:
        return estimate(model, max_states=max_states, time_budget=0, rng=seed,
                        support=support, min_samples=samples, max_samples=samples,
                        prove_support=prove_support)
    except OverBudget:
        return Counting(False, 0.0, {}, 1.0, "none", 0)


def _acceptance(model, prob: _Problem, con) -> float:
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


def _relaxations(model, prob: _Problem):
    """Relaxed problems, from mild to drastic, for the estimate.  Each is checked
    afterwards by rejection, so each costs acceptance:

    1. statements that a random deal meets anyway (estimated acceptance >= 0.97, e.g.
       "the asker does not hold all four", MH-11), as long as together they keep >= 0.8;
    2. then the sizes of 2, 3, ... single locations are no longer tracked (one size is
       implied by the others, so relaxing one changes nothing; each further one divides
       the states by about its size);
    3. then more statements, the most likely to hold first.

    Yields (dropped constraint ids, relaxed locations, problem, the plan's arguments: see
    :func:`_programme`)."""
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
    p = _simplify(model, frozenset(base)) if base else prob
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
        p = _simplify(model, drop)
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


def _wilson_halfwidth(p: np.ndarray, n: int) -> np.ndarray:
    """Largest distance from p to the ends of its 95 % Wilson interval."""
    from solver.model.stats import wilson_halfwidth

    return wilson_halfwidth(p, n)


def estimate(model, *, max_states: int = 200_000, time_budget: float = 1.0, rng=None,
             support: dict[Hashable, set[str]] | None = None, max_samples: int = 200_000,
             min_samples: int = 0, prove_support: bool = False) -> Counting:
    """The fallback of :func:`count_deals` (callable directly): rejection from exactly
    uniform deals of a relaxed model (see :func:`_relaxations`), whose programme is kept
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
    gen, pyr = _rngs(rng)
    start = time.perf_counter()
    deadline = start + time_budget
    try:
        prob0 = _simplify(model)
    except _Infeasible:
        return _inconsistent(model, "sampled")
    budget = max(2_000, max_states // 4)
    found = None
    levels = _relaxations(model, prob0)
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
            plan, dp = _programme(prob, plan_args,
                                  dict(exact=False, max_states=limit, residues=False), until)
        except (_Infeasible, OverBudget):
            continue
        found = dropped, relaxed, prob, plan, dp
    if found is None:
        return Counting(False, 0.0, {}, 1.0, "sampled", 0)
    dropped, relaxed, prob, plan, dp = found
    if dp.total == 0:
        return _inconsistent(model, "sampled")
    dp.backward()
    checks = []
    for j in dropped:
        con = model.constraints[j]
        ci = np.array([p[0] for p in con.terms], dtype=np.intp)
        li = np.array([p[1] for p in con.terms], dtype=np.int32)
        checks.append((ci, li, con.lo, con.hi))
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
        deals = _deals_from_counts(prob, plan, K, gen)
        ok = accepted_mask(deals, sizes, checks)
        good = deals[ok]
        if len(good) and sum(len(k) for k in kept) < KEEP_DEALS:
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
        return Counting(False, 0.0, _order_marginals(model, marg), 1.0, "sampled",
                        dp.peak, drawn, 0, dropped)
    P = hits / accepted
    err = float(_wilson_halfwidth(P, accepted).max())
    marg = {}
    for ci, c in enumerate(model.cards):
        marg[c] = {locs[li]: float(P[ci, li]) for li in range(L) if hits[ci, li] > 0}
    # the relaxed model allows every deal the model does (its pairs of zero mass are
    # impossible) and the accepted deals are consistent (their pairs are possible): where
    # the two agree, the support is proved without CP-SAT
    proved = None
    if prove_support:
        relaxed_support = {c: {l for l, p in ls.items() if p > 0}
                           for c, ls in _exact_marginals(model, prob, dp).items()}
        if all(relaxed_support.get(c, set()) == set(marg[c]) for c in model.cards):
            proved = {c: set(marg[c]) for c in model.cards}
    marg = _clamp(model, marg, support, accepted)
    total = dp.total * accepted / drawn
    return Counting(False, total, _order_marginals(model, marg), err, "sampled", dp.peak,
                    drawn, accepted, dropped, deals=np.concatenate(kept) if kept else None,
                    support=proved)


def _chain(model, support, seed: int, states: int = 0) -> Counting | None:
    """The estimate of :mod:`solver.model.mcmc` from a consistent start deal, clamped to
    the support; ``None`` for a model with facts outside its constraints (its deals cannot
    be checked step by step) or when no start deal is found."""
    from dataclasses import replace

    from solver.model import CardLocationModel
    from solver.model.mcmc import chain_marginals

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
    return replace(res, marginals=_order_marginals(model, marg), states=states)


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
    gen, pyr = _rngs(rng)
    deadline = None if time_budget is None else time.perf_counter() + time_budget
    kept = None if exact_ints else _LAST_DP.get(_fingerprint(model))
    try:
        if kept is not None:            # the tables of the count just made
            prob, plan, dp = kept
        else:
            prob = _simplify(model)
            plan = _Plan(prob)
            dp = _DP(plan, exact_ints, max_states, deadline)
    except _Infeasible:
        dp = None
    if dp is None or dp.total == 0:
        raise ValueError("the model has no consistent deal")
    K = dp.sample_counts(n, gen, pyr)
    return _deals_from_counts(prob, plan, K, gen,
                              at=None if at is None else model.loc_index(at))


def location_sets(model, loc: str, top: int = 10, *, max_states: int = 200_000,
                  time_budget: float | None = None, base_states: int | None = None,
                  stretch: tuple[float, float] | None = None, base_work: int | None = None
                  ) -> tuple[int, list[tuple[frozenset, float]]] | None:
    """The distribution of the *set* of cards lying in ``loc`` (a small location).

    Returns ``(number of distinct sets with positive probability, the top most likely
    sets with their exact probabilities)``, ties broken by the sorted card reprs; ``(0,
    [])`` when the model is inconsistent; ``None`` when over budget.  ``base_states``
    (the peak of the plain count, when known) skips the second attempt, location by
    location, where it has not been seen to fit (``LOCATION_ORDER_BASE``).  ``stretch``
    (factors ``(peak, work)`` of each attempt's state budget) lets each programme go past
    its budget while its work stays small (see :class:`_DP`).  Without a stretch,
    ``base_work`` (the plain count's states summed over its steps, when known) gives the
    tagged programme the larger budget of :data:`SETS_CHEAP_BASE` where it is small, and
    skips it where it is larger than the tagged programme's budget and every class can
    lie in ``loc``.

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
        prob, col, tags = _location_problem(model, li)
        # first class by class with the cells of ``loc`` tagged (the other columns
        # merge as the order goes, which keeps it small); then, for small plain counts,
        # location by location with ``loc`` last: the class sums still open before
        # ``loc`` are its composition, so the tags cost nothing (few states while the
        # classes are few)
        bylocation = sorted(prob.cells, key=lambda c: (c[1] == col, c[1], c[0]))
        known = stretch is None and base_work is not None   # the plain work decides
        cheap = known and base_work <= SETS_CHEAP_BASE
        cap = min(max_states, SETS_CHEAP_STATES if cheap else TAGGED_STATES)
        work = SETS_CHEAP_WORK if cheap else SETS_WORK * cap
        tries = [(None, cap, work)]
        if known and base_work > work and len(tags) == len(prob.rows):
            # every class can lie in ``loc``: the tagged programme places the classes in
            # the plain one's order, and its states with their tags cut are about the
            # plain ones, so it sums more over its steps (see SETS_CHEAP_BASE)
            tries = []
        if base_states is None or base_states <= LOCATION_ORDER_BASE:
            cap = min(max_states, LOCATION_ORDER_STATES)
            tries.append((bylocation, cap, SETS_WORK * cap))
        # the same answer as a recent analysis' (solver.model.reuse): the same problem,
        # attempts and cards
        memo = reuse.current() if deadline is None else None
        if memo is not None:
            key = ("sets", _problem_key(prob), li, top, stretch, tuple(model.cards),
                   tuple((order is None, cap, work) for order, cap, work in tries),
                   _settings())
            if key in memo.results:
                memo.hits += 1
                return memo.results[key]
        res = _tagged_sets(model, prob, li, tags, tries, top, deadline, stretch)
        if memo is not None:
            memo.keep(memo.results, key, res, reuse.KEYS)
        return res
    except _Infeasible:
        return 0, []


def _tagged_sets(model, prob: _Problem, li: int, tags, tries, top: int, deadline, stretch):
    """:func:`location_sets` from its ``tries`` (order, states, work), the first that fits
    (``None`` when none does)."""
    for order, cap, work in tries:
        try:
            plan = _Plan(prob, tags, order=order)
            # without a stretch, the work is held to what a stretch would allow
            # (with the merges a programme over its peak budget reaches it late)
            dp = _DP(plan, False, cap, deadline, residues=False,
                     stretch=stretched(cap, stretch), collapse=COLLAPSE,
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
            vals = [dp._digit(packed, T, d) for d in layout]
        return _sets_of(model, prob, li, counts, vals, trows, 4 * rounding, top)
    return None


def _location_problem(model, li: int):
    """The problem with location ``li`` kept apart (never lumped), its column and the
    cells it has (one per class that can lie there: the tags of :func:`location_sets`)."""
    prob, col, _ = apart_problem(model, li)
    return prob, col, [(r, col) for r in range(len(prob.rows)) if (r, col) in prob.cells]


def apart_problem(model, li: int):
    """The problem with location ``li`` never lumped, its column, and the plan's arguments
    that keep that column apart for the whole order too (never merged: every state holds
    its fill)."""
    prob = _simplify(model, keep_locs=(li,))
    col = next((c for c, ls in enumerate(prob.cols) if ls == (li,)), None)
    labels = {c: g for c, g in enumerate(prob.col_group) if g is not None}
    if col is not None:
        labels[col] = ("apart", col)
    return prob, col, dict(col_labels=labels)


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
        prob, _, cells = _location_problem(model, li)
    except _Infeasible:
        return None
    return ([list(prob.rows[r]) for r, _ in cells],
            sorted(ci for ci, l in prob.fixed.items() if l == li))


def _sets_of(model, prob: _Problem, li: int, counts: np.ndarray, vals, trows, tol: float,
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


def all_in_chances(model, events, *, max_states: int = 200_000,
                   stretch: tuple[int, int] | None = None) -> list[float] | None:
    """For each event ``(cards, locations)``, P(every one of ``cards`` lies in one of
    ``locations``) under a uniformly random consistent deal, all from one programme;
    ``None`` when it is over budget (``stretch`` as in :class:`_DP`).

    The programme splits the classes so that each lies inside or outside each event's
    cards, and lumps only locations alike for every event; an event is then "no card of those classes in
    a cell outside its locations".  Its count is the forward values at the first such
    cell carried through the steps up to the last with those cells held at 0, times the
    backward values there: one pass over that stretch of the transitions per event
    instead of a programme per event.  When the count just made (:func:`exact_count`, kept)
    already has such classes and lumps, as it has once statements set the events' cards
    apart, its tables are used and nothing is counted again.  A probability is exactly 0 when no deal meets the
    event (every term is positive); it is at most the float just below 1 unless no deal
    misses it, which only the supports can tell (the caller's, from the exact count).

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
    split, loc_split = {}, {}
    for i, (cis, locs) in enumerate(evs):
        for ci in cis:
            split[ci] = split.get(ci, ()) + (i,)
        for li in locs:
            loc_split[li] = loc_split.get(li, ()) + (i,)
    kept = _LAST_DP.get(_fingerprint(model))
    if kept is not None and _splits(kept[0], kept[1], split, loc_split):
        prob, plan, dp = kept           # the count just made already keeps them apart
    else:
        try:
            prob = _simplify(model, split=split, loc_split=loc_split)
            labels = {c: (prob.col_group[c], loc_split.get(ls[0]))
                      for c, ls in enumerate(prob.cols)}
            plan = _Plan(prob, col_labels=labels)
            dp = _DP(plan, False, max_states, None, residues=False, stretch=stretch)
            if dp.total == 0:
                return [0.0] * len(evs)
            dp.backward()
        except _Infeasible:
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
                    vecs[e] = dp.fwd[t]
            if not vecs:
                continue
            src, k, idx, w = dp._transitions(t)
            n_next = len(dp.fwd[t + 1])
            for e in list(vecs):
                contrib = vecs[e][src] * w
                if t in spans[e][2]:
                    contrib[k > 0] = 0.0
                vecs[e] = np.bincount(idx, weights=contrib, minlength=n_next)
                if spans[e][1] == t + 1:
                    hits = float(vecs.pop(e) @ dp.bwd[t + 1])
                    out[e] = 0.0 if hits <= 0 else min(hits / total,
                                                      float(np.nextafter(1.0, 0.0)))
    return out


def _splits(prob: _Problem, plan: _Plan, split: dict, loc_split: dict) -> bool:
    """Whether every class of ``prob`` has one ``split`` label and every lump and merged
    column of ``plan`` one ``loc_split`` label (its programme can then answer
    :func:`all_in_chances`)."""
    return (all(len({split.get(ci) for ci in row}) == 1 for row in prob.rows)
            and all(len({loc_split.get(li) for li in col}) == 1 for col in plan.cols))
