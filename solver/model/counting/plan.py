"""The plan of a counting programme: the cell order, the open sums of every step and how
the packed state keys change, the merges of columns alike, and the checks that find dead
states (``docs/counting.md``)."""
from __future__ import annotations

import functools
import math
from collections import defaultdict
from typing import Any

import numpy as np

from solver.model.witness import Infeasible

from . import tuning
from .problem import OverBudget, Problem


def _reach(cs, rows, cells) -> int:
    """The most a sum over cells can be: each cell's bound, each class's size at most."""
    per: dict[int, int] = defaultdict(int)
    for x in cs:
        per[x[0]] += cells[x][1]
    return sum(min(v, len(rows[r])) for r, v in per.items())


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
    cell: tuple[int, int]
    lo: int                     # the cell's bounds
    hi: int
    old: list[tuple]            # sums already open: (digit reader, hi, lo if closing)
    new_his: list[int]          # the his of the sums it opens
    closing_new: list[int]      # the los of those it opens and closes
    kstep: int                  # what one card adds to the key
    rsize: int                  # the class's size
    row_old: tuple[int, int] | None     # the class sum's reader, once open
    remove: list[tuple[int, int]]       # the closing digits, most significant first
    checks: list[tuple]         # the sums to check at the end of a class
    sat: list[tuple]            # saturated sums still open: (reader, lo)
    merge: tuple | None         # a merge step's readers, sizes and merged stride
    packed: np.ndarray | None   # kernel_args, made once

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


class Plan:
    """The cell order and, for every step, how the packed state keys change.

    A state is the tuple of the values of the open sums, packed into one int64 key in
    mixed radix (radix = hi + 1 of each sum).  Sums opened at a step are appended as the
    most significant digits (value 0: the key does not change); adding ``k`` to the sums
    of a cell adds ``k * (sum of their strides)``; a closing sum's digit is cut out."""

    def __init__(self, prob: Problem, tags=(), relaxed_cols=(), order=None,
                 merge: bool | None = None, col_labels: dict | None = None,
                 prune: bool = True):
        """``merge``: merge columns alike for the rest of the order (default
        ``Tuning.merge_columns``), only those with the same ``col_labels`` label if given;
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
        self.dims, self.dims_of = dims, dims_of
        order = list(order) if order is not None else self._order(dims_of)
        if tuning.CURRENT.merge_columns if merge is None else merge:
            order = self._merge_columns(order, dims, dims_of)
            if self.merges:
                dims, dims_of = self._dims()
                self.dims, self.dims_of = dims, dims_of
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
        pow2 = tuning.CURRENT.bit_fields and self._fits(True)
        if not pow2 and not self._fits(False):
            raise OverBudget("state keys do not fit in 64 bits")
        bounds = self._future_bounds()
        # the steps that finish a class: where dead states are looked for (Programme._alive)
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
        for tc in self.tag_cells:
            dims.append(_Dim([tc], 0, cells[tc][1], "tag"))
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
                raise Infeasible
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
        fut: list[dict[int, frozenset | None]] = [{} for _ in range(T + 1)]
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
            left = frozenset(x for sig in sigs if sig is not None for x in sig
                             if x[0] not in done)
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
        self.strides: list[dict[int, int]] = [{}]
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
        more than ``Tuning.suffix_table`` entries, or than ``Tuning.suffix_per_state`` times the
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
            relaxed = Problem(prob.n_cards, prob.n_locs, prob.fixed, prob.rows,
                              list(self.cols), list(self.col_cap), prob.loc_cap,
                              dict(self.cells), list(self.users), prob.constraint_ids,
                              prob.lump_factor, [None] * len(self.cols))
            from .programme import Programme     # (the programme module builds on plans)
            try:
                rp = Plan(relaxed, relaxed_cols=range(len(self.cols)), order=steps[::-1],
                          merge=False, prune=False)
                rdp = Programme(rp, False, tuning.CURRENT.suffix_states, None,
                                residues=False)
                self._rev = (rp, rdp)
            except (OverBudget, Infeasible):
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
        tun = tuning.CURRENT
        if math.prod(shape) > min(tun.suffix_table, tun.suffix_per_state * max(states, 1)):
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
        """The space checks :meth:`Programme._alive` runs on the states at boundary ``b``
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
                for i in self.dims_of[c]:
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
        classes: ``Tuning.component_order``), the widest first (the most log range of
        statements a greedy order of its own keeps open at once; then the most cards,
        the most statements), and inside it by :meth:`_component_order` (3 to
        ``Tuning.component_search`` classes) or greedily so that few statements are open
        at once (smallest sum of log ranges of the open statements after the class,
        then the fewest splits); then the classes in no statement, fewest splits
        first (the big free classes last, when the locations are nearly full); classes
        with tagged cells (location_sets) last."""
        prob, dims = self.prob, self.dims
        rows = prob.rows
        nrows = len(rows)
        row_cells = [sorted(c for c in prob.cells if c[0] == r) for r in range(nrows)]
        users: list[set[int]] = [set() for _ in range(nrows)]
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
        col_left: dict[int, int] = defaultdict(int)
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
            if tuning.CURRENT.component_order and users[pool[0]]:
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
                    if 3 <= len(its) <= tuning.CURRENT.component_beam_classes:
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
        ``Tuning.component_cards`` per card of the component placed so far): about the
        states summed over the steps, the location fills growing with the cards.  An
        exact search: a shortest path over the subsets of the classes placed,
        vectorised by subset size; over ``Tuning.component_search`` classes (up to
        ``Tuning.component_beam_classes``), a beam search for it (:func:`beam_order`);
        its effect on the peaks is in ``docs/counting.md``."""
        rows = self.prob.rows
        masks: dict[int, int] = defaultdict(int)
        for j, r in enumerate(members):
            for i in users[r]:
                masks[i] |= 1 << j
        spans = tuple(sorted((mk, logr[i]) for i, mk in masks.items()
                             if mk & (mk - 1)))     # a statement of one class never stays open
        cards = tuple(len(rows[r]) for r in members)
        tun = tuning.CURRENT
        if len(members) <= tun.component_search:
            return [members[j] for j in cheapest_order(spans, cards, tun.component_cards)]
        return [members[j] for j in beam_order(spans, cards, tun.component_cards,
                                               tun.component_beam)]

    def _dims_of_cell(self, c):
        return self.dims_of[c]

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
        first: list[Any] = [None] * nrows      # each class's first and last step
        last: list[Any] = [None] * nrows
        steps_of: list[list[tuple[int, tuple[int, int]]]] = [[] for _ in range(nrows)]
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
def cheapest_order(spans: tuple, cards: tuple, per_card: float) -> tuple[int, ...]:
    """The permutation of ``len(cards)`` classes with the least sum over its steps of
    exp(sum of the weights of the ``spans`` (bit mask of their classes, weight) partly
    placed + ``per_card`` x cards placed), by a shortest path over the subsets in
    order of size (see :meth:`Plan._component_order`).  A superset not reached yet
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
def beam_order(spans: tuple, cards: tuple, per_card: float, width: int) -> tuple[int, ...]:
    """The measure of :func:`cheapest_order`, minimised by a beam search where the exact
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


def deal_bound(prob: Problem) -> int:
    """An upper bound on the number of tables of counts times their weights (the
    multinomial of the unfixed cards over the column capacities)."""
    n = sum(len(r) for r in prob.rows)
    b = math.factorial(n)
    for c in prob.col_cap:
        b //= math.factorial(c)
    return b
