"""The dynamic programme over a :class:`~solver.model.counting.plan.Plan`: forward
tables (sorted state keys and counts per boundary), backward tables, expected counts per
cell, the compositions of a tagged location and exactly uniform draws of the cell
counts."""
from __future__ import annotations

import math
import random
import time
import weakref
from collections import defaultdict
from typing import Any, NamedTuple

import numpy as np

from solver.model.budget import check as _deadline

from . import tuning
from .arithmetic import PRIMES, UNIT, binomials, crt
from .plan import Plan, deal_bound
from .problem import OverBudget
from .tuning import kernel


def _keep_freed_memory() -> bool:
    """Ask glibc to keep freed blocks of up to 32 MiB for reuse instead of handing them
    back to the system: a programme's steps allocate and free arrays of the same sizes
    over and over, and memory fresh from the system costs a page fault per page (in a
    virtual machine as much as filling it 2-9 times; its effect: docs/counting.md).  A
    no-op without glibc."""
    import ctypes
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(-3, 32 << 20)      # M_MMAP_THRESHOLD
                    and libc.mallopt(-1, 256 << 20))   # M_TRIM_THRESHOLD
    except (OSError, AttributeError):   # pragma: no cover - not glibc
        return False


KEPT_FREED_MEMORY = _keep_freed_memory()


def give_back_memory() -> None:
    """Hand the freed memory glibc keeps (see :func:`_keep_freed_memory`) back to the
    system: called once a large programme is dropped, so that a process that goes on with
    small ones does not keep the large one's resident size.  A no-op without glibc."""
    import ctypes
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):   # pragma: no cover - not glibc
        pass


def table_bytes(dp: "Programme") -> int:
    """The bytes of a programme's tables (keys, forward and backward values, kept
    transitions)."""
    n = sum(a.nbytes for a in _held(dp.keys)) + sum(a.nbytes for a in _held(dp.fwd))
    n += sum(a.nbytes for a in _held(getattr(dp, "bwd", [])))
    return n + dp.kept_transitions.nbytes()


def run_starts(a: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted, non-empty ``a`` begins (no ``np.r_``:
    about 20 us a call, a fifth of a small step).

    >>> run_starts(np.array([3, 3, 5, 7, 7])).tolist()
    [True, False, True, True, False]
    """
    first = np.empty(len(a), dtype=bool)
    first[0] = True
    np.not_equal(a[1:], a[:-1], out=first[1:])
    return first


def _pack_alive(tab, spec) -> tuple:
    """:meth:`Programme._alive`'s table and space checks as :func:`solver.model._kernel.alive`
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
    """How a tagged column's states forget their tags (:meth:`Programme.composition_counts`)."""
    col: int                    # the column's sum (its fill)
    full: int                   # its size
    tags: frozenset             # the tags' sums
    tag_at: dict                # step -> the tag its cell adds to
    least: int                  # the fill from which a state is cut: full, or full - 1


class _Kept(dict):
    """The transitions a programme keeps, by step: ``(source state (int32), k (int8),
    index of the next state (int32), index of the binomial (int32))``.  A step may be
    kept as the next-state index of every transition its expansion gives (-1 where the
    next state is dead) alone: :meth:`get` expands it again (the same transitions in the
    same order, so the same sums), 4 bytes a transition instead of 13."""

    def __init__(self, dp: "Programme"):
        super().__init__()
        self.dp = weakref.proxy(dp)     # (no cycle: a dropped programme is freed at once)

    def get(self, t, default=None):
        v = dict.get(self, t)
        if v is None:
            return default
        if isinstance(v, tuple):
            return v
        src, k, _, widx = self.dp._expand(t, self.dp.keys[t])
        src = src.astype(np.int32, copy=False)
        k = k.astype(np.int8, copy=False)
        widx = widx.astype(np.int32, copy=False)
        if len(v) and v.min() >= 0:     # no transition to a dead state
            return src, k, v, widx
        ok = v >= 0
        return src[ok], k[ok], v[ok], widx[ok]

    def __getitem__(self, t):
        v = self.get(t)
        if v is None:
            raise KeyError(t)
        return v

    def values(self):  # type: ignore[override]
        return [self[t] for t in self]

    def items(self):  # type: ignore[override]
        return [(t, self[t]) for t in self]

    def nbytes(self) -> int:
        """The bytes kept."""
        return sum(sum(x.nbytes for x in v) if isinstance(v, tuple) else v.nbytes
                   for v in dict.values(self))


class _Forward(list):
    """The forward values of a compiled float programme, by boundary.  An entry may be
    dropped (``None``): reading it counts it again, and every entry before it back to
    the last one kept, from the steps' transitions -- each state's terms added in the
    order of its transitions, as the forward pass's ``reduce_sorted`` added them (the same
    values).  The entries counted again are kept until dropped again (the backward pass
    reads a segment from its end down)."""

    def __init__(self, dp: "Programme", first: np.ndarray):
        super().__init__([first])
        self.dp = weakref.proxy(dp)

    def __getitem__(self, t):
        v = list.__getitem__(self, t)
        if v is not None or isinstance(t, slice):
            return v
        t = t if t >= 0 else len(self) + t
        b = max(i for i in range(t) if list.__getitem__(self, i) is not None)
        vals = list.__getitem__(self, b)
        for i in range(b, t):
            src, _, idx, w = self.dp.transitions(i)
            vals = np.bincount(idx, weights=vals[src] * w, minlength=self.dp.sizes[i + 1])
            self[i + 1] = vals
        return vals


class _Keys(list):
    """The states (sorted keys) of a compiled float programme, by boundary.  An entry may
    be held packed (:meth:`pack`: the first key and the gaps between consecutive keys in
    32 bits, half the bytes); reading it unpacks it (the same keys), the last few
    unpacked being kept at hand."""

    #: the entries kept unpacked at hand (a pass reads a boundary and its neighbour)
    HELD = 3

    def __init__(self, first: np.ndarray):
        super().__init__([first])
        self.held: dict[int, np.ndarray] = {}

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def pack(self, t: int) -> None:
        """Hold entry ``t`` packed, when its gaps fit in 32 bits."""
        keys = list.__getitem__(self, t)
        if len(keys) < 2:
            return
        gaps = np.diff(keys)
        if gaps.max() < 1 << 32:
            list.__setitem__(self, t, (int(keys[0]), gaps.astype(np.uint32)))

    def __getitem__(self, t):
        v = list.__getitem__(self, t)
        if not isinstance(v, tuple):
            return v
        t = t if t >= 0 else len(self) + t
        keys = self.held.get(t)
        if keys is None:
            first, gaps = v
            keys = np.empty(len(gaps) + 1, dtype=np.int64)
            keys[0] = first
            np.cumsum(gaps, dtype=np.int64, out=keys[1:])
            keys[1:] += first
            # a new dict, never one changed in place (another thread may be reading it)
            held = dict(list(self.held.items())[1 - self.HELD:])
            held[t] = keys
            self.held = held
        return keys


def _held(tables) -> list:
    """The arrays a list of tables holds now (none counted again, the packed ones as
    packed)."""
    out: list[np.ndarray] = []
    for a in list.__iter__(tables):
        out += a[1:] if isinstance(a, tuple) else [] if a is None else [a]
    return out


class Programme:
    """Forward tables (sorted state keys and counts per boundary), backward tables,
    expected count per cell, uniform samples.

    ``exact=True`` keeps Python integers (numpy object arrays): exact totals, correctly
    rounded marginals and exactly uniform samples; ``exact=False`` uses float64 (all terms
    positive, so the relative error stays below ~(steps + 2) * 2**-53)."""

    _colmass: dict[tuple[int, int], float | int]    # column_mass, once computed
    bwd_full: bool          # every backward table held (backward(full=False) drops some)

    def __init__(self, plan: Plan, exact: bool, max_states: int | None = None,
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
                tag_at = {t: next(i for i in plan.dims_of[c] if plan.dims[i].kind == "tag")
                          for t, c in enumerate(plan.order) if c in tagcells}
                # from three cards on, a state forgets its tags one card before the
                # column is full, and the backward pass tells the last card's class
                early = full >= 3 and tuning.CURRENT.collapse_early
                self.collapse = _Collapse(cd, full, frozenset(tag_at.values()), tag_at,
                                          full - 1 if early else full)
        self.stretch = stretch
        self.work = 0
        self.pruned = 0         # states dropped as dead (see _alive)
        self.raw_peak = 1       # the peak counting them
        self.exact = exact
        self.max_states = max_states
        self.deadline = deadline
        maxn = max([len(r) for r in plan.prob.rows] + [1]
                   + [plan.col_cap[v] for v in plan.parents])
        tabs = binomials(maxn)
        self.bsize = int(round(math.sqrt(len(tabs["float"]))))
        self.bin = tabs["object"] if exact else tabs["float"]
        self.dtype = object if exact else float
        self.peak = 1
        # float programme: carry residues modulo a few primes to recover the exact total
        self.nprimes = 0
        if not exact and residues:
            bound = deal_bound(plan.prob)
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
        kern = kernel()
        st = self.plan.steps[t]
        n = len(keys)
        if st.merge is not None:
            return self._merge(st, keys)
        if kern is not None:
            return kern.expand(keys, self.plan.pow2, st.kernel_args(self.plan.pow2),
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
        if n * (k1 - k0 + 1) <= tuning.CURRENT.expand_2d:
            ks = np.arange(k0, k1 + 1)[:, None]
            k, src = np.nonzero((kmin <= ks) & (ks <= kmax))
            if k0:
                k += k0
            new = keys[src] + k * st.kstep
            w = rem[src] + k
        else:
            srcs, kk, news, ws = [], [], [], []
            for kv in range(k0, k1 + 1):
                src = np.flatnonzero((kmin <= kv) & (kv <= kmax))
                if not len(src):
                    continue
                srcs.append(src)
                kk.append(np.full(len(src), kv, dtype=np.int64))
                news.append(keys[src] + kv * st.kstep)
                ws.append(rem[src] + kv)
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
        :meth:`Plan.suffix_table` and :meth:`Plan.alive_spec` can tell (``None``:
        nothing to check there)."""
        kern = kernel()
        tab = self.plan.suffix_table(b, len(keys))
        spec = self.plan.alive_spec(b)
        if spec is None and tab is None:
            return None
        if kern is not None:
            packed = self.plan.__dict__.setdefault("_alive_packed", {})
            if b not in packed:
                packed[b] = _pack_alive(tab, spec)
            return kern.alive(keys, self.plan.pow2, *packed[b]).view(bool)
        if len(keys) > tuning.CURRENT.alive_chunk:
            return np.concatenate([self._alive(b, keys[i:i + tuning.CURRENT.alive_chunk])
                                   for i in range(0, len(keys), tuning.CURRENT.alive_chunk)])
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
        kern = kernel()
        tun = tuning.CURRENT
        keep_transitions = tun.keep_transitions
        plan = self.plan
        T = len(plan.order)
        one = np.ones(1, dtype=self.dtype)
        # an entry is None where a collapse dropped it, or (_Forward) where it can be
        # counted again when read
        lean = kern is not None and not self.exact and not self.nprimes \
            and self.collapse is None
        self.fwd: list[Any] = _Forward(self, one) if lean else [one]
        every = tun.forward_checkpoint
        first = np.zeros(1, dtype=np.int64)
        self.keys: list[Any] = _Keys(first) if lean else [first]
        self.sizes = [1]        # the number of states at each boundary
        res = np.ones((self.nprimes, 1), dtype=np.int64)
        merged = 0          # for the rounding bound: sum over steps of the largest merge
        self.kept_transitions = _Kept(self)
        kept = 0
        held = 0            # about the bytes of the tables so far (see Tuning.full_tables)
        checked = 0             # states after the last check for dead ones
        # the compiled step (float programme without residues): expansion and terms in
        # one pass, the sorted transitions summed in another (see _kernel)
        fused = kern is not None and not self.exact and not self.nprimes
        #: a compiled float programme: its forward values can be dropped and counted again
        #: (_Forward), its states packed (_Keys)
        self.lean = lean
        for t in range(T):
            st = plan.steps[t]
            if fused and st.merge is None:
                src, k, new, widx, vals = kern.expand(
                    self.keys[t], plan.pow2, st.kernel_args(plan.pow2), self.bsize,
                    self.fwd[t], self.bin)
            else:
                src, k, new, widx = self._expand(t, self.keys[t])
                vals = self.fwd[t][src] * self.bin[widx]
            order = np.argsort(new, kind="stable")
            if len(new):
                if fused:
                    keys, vals, inv, longest = kern.reduce_sorted(new, vals, order)
                else:
                    keys = new[order]
                    first = run_starts(keys)
                    starts = np.flatnonzero(first)
                    vals = np.add.reduceat(vals[order], starts)
                    keys = keys[starts]
                    inv = None
                # states no completion can reach are dropped (their terms are all zero)
                # (checked where a class ends, or where the states have grown by a
                # quarter since the last check: most dead states appear there, and a
                # check costs about as much as a step)
                alive = None
                if (tun.prune and plan.prune and len(keys) >= tun.prune_states
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
                if kept + (len(new) if sel is None else int(sel.sum())) <= keep_transitions:
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
                    if self.collapse is None and held > tun.full_tables:
                        # only the next state of every transition (-1: a dead one): the
                        # rest is expanded again when read (_Kept), a third of the bytes
                        if alive is not None:
                            full = np.full(len(new), -1, dtype=np.int32)
                            full[live] = inv
                            inv = full
                        self.kept_transitions[t] = inv
                        held += inv.nbytes
                    else:
                        self.kept_transitions[t] = (ts.astype(np.int32, copy=False),
                                                    tk.astype(np.int8, copy=False), inv,
                                                    tw.astype(np.int32, copy=False))
                        held += 13 * len(inv)
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
            self.sizes.append(len(keys))
            held += 16 * len(keys)          # (its keys and forward values)
            big = lean and held > tun.full_tables
            if big and isinstance(self.keys, _Keys):
                self.keys.pack(t)   # (unpacked when read: _Keys)
            if self.collapse is not None:
                # the composition counts need no forward value before the last boundary
                # (each entry keeps its own): half the memory of the programme
                self.fwd[t] = None
            elif big and t % every and t not in plan.merges:
                # read again only by the backward pass (or column_mass, at the merges):
                # counted again then from the last one kept (_Forward), a segment at a time
                self.fwd[t] = None
        nfinal = len(self.fwd[T])
        # relative error bound of the float forward values (all terms positive): each
        # step rounds one product per term and sums at most `merged` terms in sequence
        self.delta_fwd = 0.0 if self.exact else (
            (merged + nfinal + (T if self.big_binomials else 0)) * UNIT * 1.01)
        self.final_exact = None
        raw = self.fwd[T].sum() if nfinal else 0
        self.raw_total: int | float
        if self.exact:
            self.raw_total = int(raw)
        else:
            self.raw_total = float(raw)
            if self.nprimes and nfinal:
                tot = [int(x) for x in res.sum(axis=1) % self.primes[:, 0]]
                exact = crt(tot, self.raw_total, self.delta_fwd)
                if exact is not None:
                    self.raw_total_int = exact
                # exact count of every final state (location_sets)
                finals = [crt([int(x) for x in res[:, j]], float(self.fwd[T][j]),
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
    @property
    def _co(self) -> _Collapse:
        """The collapse of a programme that has one (the methods below run only then)."""
        assert self.collapse is not None
        return self.collapse

    def digit(self, keys: np.ndarray, b: int, i: int) -> np.ndarray:
        s, rad = self.plan.strides[b][i], self.plan.radix[i]
        if self.plan.pow2:
            return (keys >> (s.bit_length() - 1)) & (rad - 1)
        return (keys // s) % rad

    def _tag_part(self, keys: np.ndarray, b: int) -> np.ndarray:
        """The tags' part of each of the keys at boundary ``b`` (0 exactly where every tag
        is 0, and what cutting the tags subtracts): with bit fields the tags' bits, else
        the sum of their digits times their strides."""
        tags = [i for i in self.plan.layouts[b] if i in self._co.tags]
        if self.plan.pow2:
            mask = 0
            for i in tags:
                mask |= (self.plan.radix[i] - 1) << (self.plan.strides[b][i].bit_length() - 1)
            return keys & mask
        part = np.zeros(len(keys), dtype=np.int64)
        for i in tags:
            part += self.digit(keys, b, i) * self.plan.strides[b][i]
        return part

    def _merged(self, b: int) -> np.ndarray:
        """Which states at boundary ``b`` are merged ones (their tags cut: tags all 0 and
        some cards in the tagged column, whose cells are all tags): the only states whose
        transitions :meth:`composition_counts` walks (a merged state's transitions lead
        to merged states only)."""
        co = self._co
        keys = self.keys[b]
        if not self.entries or not any(i in co.tags for i in self.plan.layouts[b]):
            # no state merged yet (the first merge makes an entry), or no tagged cell
            # placed yet
            return np.zeros(len(keys), dtype=bool)
        merged = self._tag_part(keys, b) == 0
        if co.col in self.plan.strides[b]:
            merged &= self.digit(keys, b, co.col) > 0
        return merged

    def _collapsed(self, t: int, keys: np.ndarray):
        """``(done, fresh, fill, keys with their tags cut to 0)`` for the states ``keys``
        after step ``t`` (``None``: none to cut): ``done``, those whose tagged column holds
        at least ``least`` cards and whose tags are not all 0; ``fresh``, those of them
        never cut before (the others were, and have just taken the column's last card, of
        this step's class); ``fill``, every state's fill.  A cut state's future no longer
        depends on its tags (a tag bounds nothing), so cut states merge."""
        co = self._co
        b = t + 1
        strides = self.plan.strides[b]
        if not len(keys) or not any(i in co.tags for i in self.plan.layouts[b]):
            return None
        fill = (self.digit(keys, b, co.col) if co.col in strides
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
        first = run_starts(cut[order])
        starts = np.flatnonzero(first)
        idx = np.empty(len(cut), dtype=np.int64)
        idx[order] = np.cumsum(first) - 1
        if fresh.any():
            # each entry's composition, packed as the final states' tags are
            T = len(self.plan.order)
            comp: Any = 0
            for i in self.plan.layouts[t + 1]:
                if i in self._co.tags:
                    comp = comp + (self.digit(keys[fresh], t + 1, i)
                                   * self.plan.strides[T][i])
            self.entries.append((t + 1, idx[fresh], vals[fresh],
                                 np.asarray(comp, dtype=np.int64),
                                 fill[fresh] < self._co.full))
        runs = int(np.diff(np.append(starts, len(cut))).max(initial=1)) + 1
        vals = np.add.reduceat(vals[order], starts)
        keys = cut[order][starts]
        kept = self.kept_transitions.get(t)
        if kept is not None:
            ts, tk, inv, tw = kept
            self.kept_transitions[t] = (ts, tk, idx[inv].astype(np.int32), tw)
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
        kern = kernel()
        if not self.entries:
            return None
        plan = self.plan
        T = len(plan.order)
        co = self._co
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
                kept = self.kept_transitions.get(b) if kern is not None else None
                trans = kept if kept is not None else self.transitions(b)
                if kept is not None:
                    bwd = kern.backward_step(*kept, self.bin, nxt, nofwd,
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
                    run = run_starts(cs[o])
                    starts = np.flatnonzero(run)
                    pre = max(pre, int(np.diff(np.append(starts, len(cs))).max()))
                    comps.append((cs[o][starts][:, None] + add[None, :]).ravel())
                    terms.append(np.add.reduceat(v[o], starts, axis=0).ravel())
        comp_all = np.concatenate(comps)
        term_all = np.concatenate(terms)
        live = term_all > 0
        packed, inv = np.unique(comp_all[live], return_inverse=True)
        counts = np.bincount(inv, weights=term_all[live], minlength=len(packed))
        longest = int(np.bincount(inv).max(initial=1))
        rounding = self.delta_fwd + (8 * T + longest + pre + 2) * UNIT * 1.01
        return counts, packed, rounding

    def _last_card(self, t, vec, nxt, trans, compiled):
        """The completions by the class of the last card of the merged states one card
        short after step ``t - 1``, from those after step ``t``: ``vec = (index of each
        such state among them or -1, one row for each of them with a column for each tag
        whose cell comes at step t or later)``; ``nxt``: every state's completions after
        step ``t``; ``trans``: step t's transitions, kept (``compiled``: for the kernel's
        ``last_card_step``) or as :meth:`transitions` gives them."""
        kern = kernel()
        co = self._co
        keys = self.keys[t]
        n = len(keys)
        if co.col in self.plan.strides[t]:
            short = (self.digit(keys, t, co.col) == co.full - 1) & (self._tag_part(keys, t) == 0)
        else:
            short = np.zeros(n, dtype=bool)
        rows = np.flatnonzero(short)
        pos = np.full(n, -1, dtype=np.int64)
        pos[rows] = np.arange(len(rows))
        own = t in co.tag_at
        pos1, v1 = vec
        most = tuning.CURRENT.last_card_cells
        if len(rows) * (v1.shape[1] + own) > most:
            raise OverBudget(f"more than {most} completions by the last card")
        if compiled:
            return pos, kern.last_card_step(*trans, self.bin, pos, pos1,
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

    def transitions(self, t: int):
        """Transitions of step t that reach a stored state at t + 1 (with collapse: those of
        the merged states, the only ones :meth:`composition_counts` walks):
        (src, k, index of the next state, weight)."""
        kept = self.kept_transitions.get(t)
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
            starts = np.flatnonzero(run_starts(s))
            out[s[starts]] = np.add.reduceat(vals[order], starts)
        return out

    def backward(self, deadline: float | None = None, full: bool = True):
        """Backward tables and the expected count of every cell (in units of deals).
        Costs about as much as the forward pass (whose transitions it reuses); ``deadline``
        (perf_counter time) aborts it with :class:`OverBudget`.

        ``full=False`` (the marginals alone: :meth:`column_mass`): a programme whose
        forward values can be counted again exactly (:class:`_Forward`) drops, as the
        pass goes, the backward values no marginal reads and the forward values before the
        end (but at the merges): the peak is then about the forward pass's instead of a
        third more.  A full call afterwards counts the backward values again (the same
        values, the same sums)."""
        kern = kernel()
        if self.collapse is not None:
            raise RuntimeError("a programme whose tags collapse keeps no forward values "
                               "before its end: only composition_counts reads it")
        if hasattr(self, "bwd"):
            if full and not self.bwd_full:
                self.bwd = self._backward_values()
                self.bwd_full = True
            return
        T = len(self.plan.order)
        bwd: list[Any] = [None] * (T + 1)
        bwd[T] = np.ones(len(self.fwd[T]), dtype=self.dtype)
        lean = not full and self.lean
        if lean:
            merged = {v for _, _, v in self.plan.merges.values()}
            keep_b = {t + 1 for t, c in enumerate(self.plan.order) if c[1] in merged}
            every = tuning.CURRENT.forward_checkpoint
            keep_f = {0, T} | set(self.plan.merges) | set(range(0, T, every))
        self.cell_mass = {}
        span = 0
        nterms = 0
        for t in range(T - 1, -1, -1):
            if deadline is not None and time.perf_counter() > deadline:
                raise OverBudget("out of time")
            _deadline("the probabilities")
            kept = self.kept_transitions.get(t) if kern is not None and not self.exact else None
            if kept is not None:        # compiled: one pass, the same sums
                src = kept[0]
                bwd[t], terms = kern.backward_step(*kept, self.bin, bwd[t + 1],
                                                   self.fwd[t], len(self.fwd[t]))
                m = terms.sum()
            else:
                src, k, idx, w = self.transitions(t)
                contrib = w * bwd[t + 1][idx]
                bwd[t] = self._segment_sum(src, contrib, len(self.fwd[t]))
                m = (self.fwd[t][src] * contrib * k).sum() if len(src) else 0
            self.cell_mass[self.plan.order[t]] = int(m) if self.exact else float(m)
            st = self.plan.steps[t]
            span += st.hi - st.lo + 3
            nterms = max(nterms, len(src))
            if lean:
                kept = src = None       # (this step's transitions freed before the next's)
                if t + 1 not in keep_b:
                    bwd[t + 1] = None
                if t not in keep_f:
                    self.fwd[t] = None
        self.bwd = bwd
        self.bwd_full = not lean
        # relative error bound of every float marginal: forward and backward factors,
        # the (pairwise) sum over the transitions of a cell and the final division (and
        # with merged columns, the share passes: another forward factor and the sum of
        # a column's parts)
        self.rounding = 0.0 if self.exact else (
            (4 if self.plan.merges else 2) * self.delta_fwd + span * UNIT * 1.01
            + (math.log2(nterms + 1) + 16 + 2 * len(self.plan.merges)) * UNIT)

    def drop_values(self) -> None:
        """Once the marginals are made (:meth:`column_mass`, kept): a lean programme
        drops its forward values but the first and the last, and its backward values;
        both are counted again when read (the same values), and the candidate sets'
        passes read neither."""
        if not self.lean or not hasattr(self, "_colmass"):
            return
        T = len(self.plan.order)
        for t in range(1, T):
            self.fwd[t] = None
        self.bwd = [None] * (T + 1)
        self.bwd_full = False

    def _backward_values(self) -> list:
        """Every backward table, counted as :meth:`backward` counts them (the same
        transitions in the same order: the same values)."""
        kern = kernel()
        T = len(self.plan.order)
        bwd: list[Any] = [None] * (T + 1)
        bwd[T] = np.ones(self.sizes[T], dtype=self.dtype)
        nofwd = np.zeros(max(self.sizes))
        for t in range(T - 1, -1, -1):
            _deadline("the probabilities")
            kept = self.kept_transitions.get(t) if kern is not None and not self.exact else None
            if kept is not None:
                bwd[t] = kern.backward_step(*kept, self.bin, bwd[t + 1], nofwd,
                                            self.sizes[t])[0]
            else:
                src, k, idx, w = self.transitions(t)
                bwd[t] = self._segment_sum(src, w * bwd[t + 1][idx], self.sizes[t])
        return bwd

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
        self.backward(full=False)
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
            g: Any = None
            cur = a
            for t in range(min(sides), T):
                src, k, idx, w = self.transitions(t)
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
                g = self._segment_sum(idx, vals, self.sizes[t + 1])
        self._colmass = dict(mass)
        return self._colmass

    def _share_weights(self, t: int, src: np.ndarray, right: bool) -> np.ndarray:
        """The weights of merge step t's transitions from ``src`` for one side's share:
        C(n - 1, ra - 1) for the left column, C(n - 1, ra) for the right (n = ra + rb)."""
        st = self.plan.steps[t]
        pow2 = self.plan.pow2
        keys = self.keys[t][src]
        assert st.merge is not None
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
        return self.digit(self.keys[T], T, self.plan.layouts[T][i])

    # ----- uniform samples -------------------------------------------------------------
    def _sampling_table(self, t: int):
        """Step t's transitions grouped by source state: (cumulative weights, k, next
        state, offsets of each source's group).  Kept between calls when small."""
        cache = self.__dict__.setdefault("_cache", {})
        if t in cache:
            return cache[t]
        src, k, idx, w = self.transitions(t)
        contrib = w * self.bwd[t + 1][idx]
        pos = contrib > 0
        src, k, idx, contrib = src[pos], k[pos], idx[pos], contrib[pos]
        order = np.argsort(src, kind="stable")
        tab = (np.cumsum(contrib[order]), k[order].astype(np.int8), idx[order],
               np.searchsorted(src[order], np.arange(self.sizes[t] + 1)))
        size = self.__dict__.get("_cache_size", 0) + len(src)
        if size <= tuning.CURRENT.sampling_cache:
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
        kern = kernel()
        n, T = K.shape
        pow2 = self.plan.pow2
        for t in range(T):
            st = self.plan.steps[t]
            tab = self.keys[t + 1]
            if kern is not None and st.merge is None:     # the same draws, in C
                u, inv = kern.group(cur, np.argsort(cur))
                cum, k, idx, off = kern.sample_transitions(
                    self.keys[t][u], pow2, st.kernel_args(pow2), self.bsize, tab,
                    self.bwd[t + 1], self.bin)
                K[:, t], cur = kern.sample_pick(cum, k, idx, off, inv, gen.random(n))
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


def stretched(max_states: int, factors: tuple[float, float] | None) -> tuple[int, int] | None:
    """The ``stretch`` (peak, work) of :class:`Programme` for a budget of ``max_states``: the
    ``factors`` times it; ``None`` (no stretch) for ``None`` or a peak factor of at most 1.

    >>> stretched(1000, (2.5, 20)), stretched(1000, None), stretched(1000, (1, 5))
    ((2500, 20000), None, None)
    """
    if factors is None or factors[0] <= 1:
        return None
    return int(factors[0] * max_states), int(factors[1] * max_states)
