"""Which sets of cards one small location can hold, and how likely each is, over the
plain counting programme (``docs/counting.md``, "The possible sets and their
probabilities over the plain programme").

:func:`~solver.model.counting.location_sets` counts every *composition* of the location
(how many cards of each class of interchangeable cards lie there) with a tagged
programme whose states pair a state of the plain count with a partial composition; in
the public view of a hard 8-player game that is ten times the plain count's work or more.
Whether a composition is *possible* needs much less: a bit.

The plain programme runs with the location's column kept apart (never merged), so each
of its states knows how many cards the location holds so far (its degree); a class's
cards go there at one step, the class's cell of that column (the classes in the
programme's order).  Of a composition of ``R`` cards (the location's free space), write
its cards in that order.  Then:

* **forward**, every state carries the set of the partial compositions of degree at most
  ``R - 2`` that reach it, one bit each (at most ``1 + K + K (K + 1) / 2`` bits for ``K``
  classes, a few 64-bit words);
* **backward**, every state carries one word: its top bit says whether it can be
  completed at all, the others which classes ``q`` can be the only card still to come;
* a composition is possible exactly when some transition at the cell of the class that
  holds its ``R - 1``-th card joins a partial composition reaching its source (the cards
  before that class) with a completion of its target (no card after it, or one card of
  a class ``q`` after it): the ``R - 1``-th card's class splits every composition in one
  way, so each possible one is found and only possible ones are.

The cost is the plain programme (with that column apart) and two passes of a few words
per transition.  The number of sets is the sum over the possible compositions of the
product over their classes of ``C(size, cards)``.

Their probabilities (:func:`possible_sets`) take the same passes with one float per set
bit: forward the ways each partial composition reaches the state, backward the
completions by the class of the one card still to come; a composition's count is the sum
over its joins of forward value x the transition's weight x backward value.  A row's
values are kept in the order of its set bits, so a bit's value is found by a popcount,
without keys or sorting.

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(["a", "b", "c", "d", "e"], {"M": 2, "P": 3})
>>> m.add(["a", "b"], ["M"], 1, 1)
>>> m.add(["e"], ["M"], 0, 0)
>>> possible_set_count(m, "M")
4
"""
from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from solver.model import reuse
from solver.model.witness import Infeasible

from . import tuning
from .arithmetic import UNIT
from .cache import last_programme, problem_key, programme
from .problem import OverBudget, apart_problem
from .programme import run_starts, stretched
from .sets import sets_of
from .tuning import settings

#: a state can be completed (the top bit of the backward words)
DONE = np.uint64(1 << 63)
#: bits of a class's position in a packed composition (and the most classes: one word's
#: bits besides DONE)
DIGIT = 6


def _kernel():
    """The compiled kernel when it has this module's loops (a kernel built before them
    does not: then numpy, with the same results)."""
    k = tuning.kernel()
    return k if k is not None and hasattr(k, "join_short") else None


def _or_words(src, dst, inp, out):
    """``out[dst[j]] |= inp[src[j]]`` (one word each)."""
    _or_rows(src, dst, inp[:, None], out[:, None])


def _or_rows(src, dst, inp, out):
    """``out[dst[j]] |= inp[src[j]]`` (rows of words)."""
    k = _kernel()
    if k is not None:
        k.or_rows(np.ascontiguousarray(src, dtype=np.int32),
                  np.ascontiguousarray(dst, dtype=np.int32), inp, out)
        return
    live = inp.any(axis=1)[src]         # (rows of zeros add nothing)
    src, dst = src[live], dst[live]
    if not len(src):
        return
    order = np.argsort(dst, kind="stable")
    s = dst[order]
    starts = np.flatnonzero(run_starts(s))
    out[s[starts], :inp.shape[1]] |= np.bitwise_or.reduceat(inp[src[order]], starts, axis=0)


def _or_remap(src, dst, inp, remap, out):
    """``out[dst[j]]`` gets bit ``remap[b]`` for every bit ``b`` of ``inp[src[j]]`` (none
    where ``remap[b] < 0``)."""
    k = _kernel()
    if k is not None:
        k.or_remap(np.ascontiguousarray(src, dtype=np.int32),
                   np.ascontiguousarray(dst, dtype=np.int32), inp,
                   np.ascontiguousarray(remap, dtype=np.int32), out)
        return
    if not len(src):
        return
    W = inp.shape[1]
    bits = np.unpackbits(inp[src].view(np.uint8), axis=1, bitorder="little")
    ok = np.flatnonzero(remap[: 64 * W] >= 0)
    moved = np.zeros((len(src), 64 * out.shape[1]), dtype=np.uint8)
    moved[:, remap[ok]] = bits[:, ok]
    rows = np.packbits(moved, axis=1, bitorder="little").view(np.uint64)
    _or_rows(np.arange(len(src)), dst, rows, out)


def _bits(rows: np.ndarray, nb: int):
    """``(row, bit)`` of every set bit among the first ``nb`` of each row of words."""
    return np.nonzero(np.unpackbits(rows.view(np.uint8), axis=1,
                                    bitorder="little")[:, :nb])


# ----- one float per set bit: the compositions' counts (possible_sets) ---------------
# a row's values are those of its set bits in increasing order, the rows one after the
# other; ``start[i, w]`` (the words' shape) is where the values of the bits of word ``w``
# of row ``i`` begin

_POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _popcount(words: np.ndarray) -> np.ndarray:
    """The number of set bits of each word."""
    w = np.ascontiguousarray(words, dtype=np.uint64)
    return _POP8[w.view(np.uint8)].reshape(w.shape + (8,)).sum(axis=-1)


def _starts(words: np.ndarray) -> tuple[np.ndarray, int]:
    """``(start, total)``: where each word's values begin, and how many there are."""
    k = _kernel()
    if k is not None:
        return k.word_starts(words)
    c = np.cumsum(_popcount(words).ravel())
    total = int(c[-1]) if len(c) else 0
    return (c - _popcount(words).ravel()).reshape(words.shape), total


#: transitions at a time in the numpy code (its bit tables: 64 bytes per word of each)
_CHUNK = 1 << 15


def _pairs(src, inp, istart):
    """The set bits of ``inp[src]``, as ``(transition, bit, index of its value)``."""
    j, b = _bits(inp[src], 64 * inp.shape[1])
    first = np.searchsorted(j, j)                   # (row-major: a row's bits in order)
    return j, b, istart[src[j], 0] + np.arange(len(j)) - first


def _spread(src, dst, weight, inp, istart, ival, remap, out, ostart, oval):
    """For every ``j`` and every bit ``b`` of ``inp[src[j]]``, its value times
    ``weight[j]`` added to the value of bit ``remap[b]`` (``b`` when ``remap`` is
    ``None``; none where it is negative) of ``out[dst[j]]``."""
    k = _kernel()
    src = np.ascontiguousarray(src, dtype=np.int32)
    dst = np.ascontiguousarray(dst, dtype=np.int32)
    if k is not None:
        k.spread(src, dst, np.ascontiguousarray(weight, dtype=np.float64), inp, istart,
                 ival, np.zeros(0, dtype=np.int32) if remap is None
                 else np.ascontiguousarray(remap, dtype=np.int32), out, ostart, oval)
        return
    for a in range(0, len(src), _CHUNK):
        s, d, w = src[a:a + _CHUNK], dst[a:a + _CHUNK], weight[a:a + _CHUNK]
        j, b, i = _pairs(s, inp, istart)
        r = b if remap is None else remap[b]
        ok = r >= 0
        j, r, i = j[ok], r[ok], i[ok]
        dj, wd = d[j], r >> 6
        mask = (np.uint64(1) << (r & 63).astype(np.uint64)) - np.uint64(1)
        at = ostart[dj, wd] + _popcount(out[dj, wd] & mask)
        oval += np.bincount(at, weights=ival[i] * w[j], minlength=len(oval))


def _join_full(src, weight, inp, istart, ival, table, acc):
    """``acc[table[b]] += value of b x weight[j]`` for every bit ``b`` of ``inp[src[j]]``
    (none where the table is negative); the number of additions."""
    k = _kernel()
    src = np.ascontiguousarray(src, dtype=np.int32)
    if k is not None:
        return k.join_full(src, np.ascontiguousarray(weight, dtype=np.float64), inp,
                           istart, ival, table, acc)
    n = 0
    for a in range(0, len(src), _CHUNK):
        j, b, i = _pairs(src[a:a + _CHUNK], inp, istart)
        r = table[b]
        ok = r >= 0
        acc += np.bincount(r[ok], weights=(ival[i] * weight[a:a + _CHUNK][j])[ok],
                           minlength=len(acc))
        n += int(ok.sum())
    return n


def _join_short(src, dst, weight, inp, istart, ival, qw, qstart, qval, table, acc):
    """``acc[table[b, q]] += value of b x weight[j] x value of q`` for every bit ``b`` of
    ``inp[src[j]]`` and bit ``q`` of ``qw[dst[j], 0]`` (none where the table is
    negative); the number of additions."""
    k = _kernel()
    src = np.ascontiguousarray(src, dtype=np.int32)
    dst = np.ascontiguousarray(dst, dtype=np.int32)
    if k is not None:
        return k.join_short(src, dst, np.ascontiguousarray(weight, dtype=np.float64), inp,
                            istart, ival, qw, qstart, qval, table, acc)
    n = 0
    for a in range(0, len(src), _CHUNK):
        s, d, w = src[a:a + _CHUNK], dst[a:a + _CHUNK], weight[a:a + _CHUNK]
        j, b, i = _pairs(s, inp, istart)
        # every such pair with every bit of its target's word
        g, q, iq = _pairs(d[j], qw, qstart)
        r = table[b[g], q]
        ok = r >= 0
        acc += np.bincount(r[ok], weights=(ival[i[g]] * w[j[g]] * qval[iq])[ok],
                           minlength=len(acc))
        n += int(ok.sum())
    return n


def possible_compositions(model, loc: str, *, max_states: int = 200_000,
                          stretch: tuple[float, float] | None = None):
    """``(classes, compositions)``: the classes of interchangeable cards that can lie in
    ``loc`` (card indices, as :func:`~solver.model.counting.interchangeable` gives them)
    and every possible composition of ``loc``'s free space, as a sorted tuple of class
    indices (a class as often as it has cards there); ``None`` when the plain programme
    is over its budget (``max_states``, ``stretch`` as in
    :func:`~solver.model.counting.exact_count`) or the question too big for its bits (more
    than 63 classes, or more than ``Tuning.max_parts`` partial compositions).  No
    composition when the model is inconsistent.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c", "d", "e"], {"M": 2, "P": 3})
    >>> m.add(["a", "b"], ["M"], 1, 1)
    >>> m.add(["e"], ["M"], 0, 0)
    >>> possible_compositions(m, "M")
    ([[0, 1], [2, 3]], [(0, 1)])
    """
    res = _possible_codes(model, loc, max_states, stretch)
    if res is None:
        return None
    classes, R, codes = res
    return classes, [tuple(row) for row in _digits(codes, R).tolist()]


def _possible_codes(model, loc: str, max_states: int, stretch, counts: bool = False):
    """:func:`possible_compositions` as ``(classes, R, packed compositions)``: ``R``
    cards each, their class positions in :data:`DIGIT` bits, in increasing order.  With
    ``counts``, also each composition's count (in the programme's units: only their
    ratios mean anything), the bound on their relative rounding error, the problem and
    its rows of the classes: ``(classes, R, codes, counts, rounding, prob, rows)``."""
    li = model.loc_index(loc)
    try:
        prob, col, plan_args = apart_problem(model, li)
    except Infeasible:
        return _answer([], 0, np.zeros(0, dtype=np.int64), counts, None, None)
    # the same answer as a recent analysis' (solver.model.reuse): the same problem and
    # question (the answer is in the problem's terms: classes of card indices)
    memo = reuse.current()
    if memo is not None:
        key = ("possible sets", problem_key(prob), col, max_states, stretch, counts,
               settings())
        if key in memo.results:
            memo.hits += 1
            return memo.results[key]
    res = _codes_of(model, prob, col, plan_args, max_states, stretch, counts)
    if memo is not None:
        memo.keep(memo.results, key, res, reuse.KEYS)
    return res


def _codes_of(model, prob, col, plan_args, max_states, stretch, counts):
    """:func:`_possible_codes` for the problem ``prob`` with ``col`` apart."""
    try:
        kept = last_programme(model)
        if (kept is not None and problem_key(kept[0]) == problem_key(prob)
                and kept[1].col_labels == plan_args["col_labels"] and not kept[2].exact):
            # the count just made kept the column apart (exact_count's ``apart``)
            _, plan, dp = kept
        else:
            plan, dp = programme(prob, plan_args,
                                 dict(exact=False, max_states=max_states, residues=False,
                                      stretch=stretched(max_states, stretch)))
    except Infeasible:
        return _answer([], 0, np.zeros(0, dtype=np.int64), counts, None, None)
    except OverBudget:
        return None
    T = len(plan.order)
    at = {t: c[0] for t, c in enumerate(plan.order) if c[0] >= 0 and c[1] == col}
    rows = [r for t, r in sorted(at.items())]
    classes = [list(prob.rows[r]) for r in rows]
    if not len(dp.keys[T]):
        return _answer(classes, 0, np.zeros(0, dtype=np.int64), counts, prob, rows)
    R = prob.col_cap[col] if col is not None else 0
    if not R:                           # the location is full: its set is known
        return _answer(classes, 0, np.zeros(1, dtype=np.int64), counts, prob, rows,
                       np.ones(1))
    K = len(at)
    if K > 63 or (R >= 2 and math.comb(K + R - 2, R - 2) > tuning.CURRENT.max_parts):
        return None         # (a Mystery Hand model: at most 52 classes, R at most 4)
    pos = {t: i for i, t in enumerate(sorted(at))}         # step -> class position
    his = {pos[t]: min(prob.cells[(r, col)][1], len(prob.rows[r])) for t, r in at.items()}
    md = plan.col_dim[col]
    first = min(at) if at else T
    if counts:
        dp.backward()                   # (a count's programme has it already)

    def degree(b: int, keys: np.ndarray) -> np.ndarray:
        if md in plan.strides[b]:
            return dp.digit(keys, b, md)
        return np.full(len(keys), 0 if b <= first else R, dtype=np.int64)

    again: dict[int, tuple] = {}        # transitions not kept, expanded for both passes

    def transitions(t):
        kept = dp.kept_transitions.get(t)
        if kept is not None:
            return kept[:3] + ((dp.bin[kept[3]],) if counts else (None,))
        if t in again:
            return again.pop(t)
        src, k, idx, w = dp.transitions(t)
        out = src.astype(np.int32), k, idx.astype(np.int32), w if counts else None
        if R >= 2 and t <= max(at):     # the forward pass reads it again
            again[t] = out
        return out

    # backward: can each state be completed, and by which single card's class
    # (kept only after the location's cells, where the forward pass joins, and at 0);
    # with counts, also how many completions each such class has (one float per bit,
    # of the words without DONE)
    back: dict[int, np.ndarray] = {}
    backq: dict[int, tuple] = {}
    cur = np.full(len(dp.keys[T]), DONE, dtype=np.uint64)
    if counts:
        qcur = np.zeros((len(cur), 1), dtype=np.uint64)
        qoff, qval = np.zeros((len(cur), 1), dtype=np.int64), np.zeros(0)
    # (before the location's first cell only the first state's word is ever read, with
    # one card to place)
    for t in range(T - 1, -1 if R == 1 else first - 1, -1):
        src, k, idx, w = transitions(t)
        out = np.zeros(len(dp.keys[t]), dtype=np.uint64)
        if t in at:
            back[t + 1] = cur
            if counts:
                backq[t + 1] = qcur, qoff, qval
            vals = cur[idx]
            done = (vals & DONE) != 0
            q = np.uint64(1) << np.uint64(pos[t])
            one = (k == 1) & done
            vals = np.where(k == 0, vals, vals & DONE) | np.where(one, q, np.uint64(0))
            _or_words(np.arange(len(src), dtype=np.int32), src, vals, out)
        else:
            _or_words(idx, src, cur, out)
        if counts:
            qout = (out & ~DONE)[:, None]
            ooff, nv = _starts(qout)
            oval = np.zeros(nv)
            sel = k == 0 if t in at else slice(None)
            _spread(idx[sel], src[sel], w[sel], qcur, qoff, qval, None, qout, ooff, oval)
            if t in at and one.any():   # the class's one card, then nothing more
                n1 = int(one.sum())
                _spread(np.arange(n1), src[one], w[one],
                        np.full((n1, 1), q, dtype=np.uint64),
                        np.arange(n1, dtype=np.int64)[:, None], dp.bwd[t + 1][idx[one]], None,
                        qout, ooff, oval)
            qcur, qoff, qval = qout, ooff, oval
        cur = out
    found: list[np.ndarray] = []
    acc: Any = None
    njoin = 0
    if R == 1:                          # the first state's word (cur is at 0)
        v = int(cur[0]) & ~int(DONE)
        found.append(np.array([i for i in range(K) if v >> i & 1], dtype=np.int64))
        if counts:
            acc = qval[: _popcount(qcur[:1]).sum()]
    elif R >= 2:
        found, acc, njoin = _forward(dp, T, at, pos, his, R, K, back,
                                     backq if counts else None, transitions, degree)
    codes = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
    if not counts:
        return classes, R, codes
    if R >= 2:                          # acc: every composition of R cards, by code
        # (which compositions are possible is the bits' answer, as the plain count's
        # zeros are its support's, never a float's)
        allc = _compositions(K, R, his)
        acc = acc[np.searchsorted(allc, codes)]
    # the forward and backward values are sums of some of the plain passes' terms (their
    # bound, the marginals'), each composition's count a sum of at most njoin products
    return _answer(classes, R, codes, True, prob, rows, acc,
                   dp.rounding + (njoin + 2 * T + 8) * UNIT * 1.01)


def _answer(classes, R, codes, counts, prob, rows, acc=None, rounding=0.0):
    """:func:`_possible_codes`' answer, with the counts (zeros when none given) when
    ``counts``."""
    if not counts:
        return classes, R, codes
    return (classes, R, codes, np.zeros(len(codes)) if acc is None else acc, rounding,
            prob, rows)


def _digits(codes: np.ndarray, R: int) -> np.ndarray:
    """The packed compositions ``codes`` as rows of ``R`` class positions."""
    shifts = DIGIT * np.arange(R - 1, -1, -1, dtype=np.int64)
    return (codes[:, None] >> shifts[None, :]) & (2 ** DIGIT - 1)


def _compositions(K: int, R: int, his) -> np.ndarray:
    """The packed codes of every composition of ``R`` cards over ``K`` classes with at
    most ``his[c]`` cards of class ``c``, sorted."""
    code = np.arange(K, dtype=np.int64)
    last = np.arange(K, dtype=np.int64)
    for _ in range(R - 1):              # append a class at least the last one
        n = K - last
        rep = np.repeat(np.arange(len(code)), n)
        nxt = last[rep] + np.arange(len(rep)) - np.repeat(np.cumsum(n) - n, n)
        code, last = (code[rep] << DIGIT) | nxt, nxt
    dig = _digits(code, R)
    cap = np.array([his[c] for c in range(K)], dtype=np.int64)
    ok = np.ones(len(code), dtype=bool)
    for c in range(R):
        ok &= (dig == dig[:, c:c + 1]).sum(axis=1) <= cap[dig[:, c]]
    return code[ok]                     # (made in increasing order)


def _forward(dp, T, at, pos, his, R, K, back, backq, transitions, degree):
    """The packed possible compositions (see :func:`possible_compositions`) and, with
    ``backq`` (the backward counts), every composition's count (by :func:`_compositions`'
    index; else ``None``) and the number of additions made to those counts."""
    # the partial compositions of degree at most R - 2 over the classes in order, one bit
    # each, packed as the final ones are (positions in DIGIT bits, in increasing order)
    parts: list[tuple[int, ...]] = [()]
    for d in range(1, R - 1):
        for combo in itertools.combinations_with_replacement(range(K), d):
            if all(combo.count(i) <= his[i] for i in set(combo)):
                parts.append(combo)
    # by their last class: before the c-th class's cell only the first bits can be set,
    # and the rows of words are only that wide (a third of the words on average)
    parts.sort(key=lambda p: (p[-1] if p else -1, p))
    index = {p: i for i, p in enumerate(parts)}
    nb = len(parts)
    W = (nb + 63) // 64
    last = np.array([p[-1] if p else -1 for p in parts])
    plen = np.array([len(p) for p in parts])
    # the location's cells before each boundary
    before = np.concatenate([[0], np.cumsum([t in at for t in range(max(at) + 1)])])
    width = [max(1, (int(np.searchsorted(last, c, side="left")) + 63) // 64)
             for c in range(K + 1)]
    pcode = np.array([sum(x << (DIGIT * (len(p) - 1 - j)) for j, x in enumerate(p))
                      for p in parts], dtype=np.int64)
    counts = backq is not None
    njoin = 0                           # additions made to the compositions' counts
    if counts:
        allc = _compositions(K, R, his)
        acc = np.zeros(len(allc))

        def table(codes, ok):
            """Each code's index among allc (-1 where not ``ok`` or not there)."""
            i = np.minimum(np.searchsorted(allc, codes), len(allc) - 1)
            return np.where(ok & (allc[i] == codes), i, -1).astype(np.int32)

        fo = np.zeros((1, width[0]), dtype=np.int64)
        fv = np.ones(1)
    remaps = {}
    found = []
    fb = np.zeros((1, width[0]), dtype=np.uint64)
    fb[0, 0] = 1
    for t in range(max(at) + 1):        # (no composition is joined after that)
        src, k, idx, w = transitions(t)
        out = np.zeros((len(dp.keys[t + 1]), width[before[t + 1]]), dtype=np.uint64)
        if t not in at:
            _or_rows(src, idx, fb, out)
            if counts:
                oo, nv = _starts(out)
                ov = np.zeros(nv)
                _spread(src, idx, w, fb, fo, fv, None, out, oo, ov)
                fo, fv = oo, ov
            fb = out
            continue
        m = pos[t]
        a = degree(t, dp.keys[t])[src]
        nxt = back[t + 1][idx]
        z = k == 0
        _or_rows(src[z], idx[z], fb, out)
        carries = []
        for d in range(1, min(R, his[m]) + 1):
            sel = (k == d) & (a <= R - 2)
            if not sel.any():
                continue
            carry = sel & (a + d <= R - 2)
            if carry.any():
                if (m, d) not in remaps:
                    rm = np.full(64 * W, -1, dtype=np.int32)
                    for i, p in enumerate(parts):
                        j = index.get(tuple(sorted(p + (m,) * d)))
                        if j is not None and len(p) + d <= R - 2:
                            rm[i] = j
                    remaps[m, d] = rm
                _or_remap(src[carry], idx[carry], fb, remaps[m, d], out)
                carries.append((carry, remaps[m, d]))
            tail = 0
            for _ in range(d):
                tail = (tail << DIGIT) | m
            # the class's cards complete the composition
            full = sel & (a + d == R) & ((nxt & DONE) != 0)
            if full.any():
                acc0 = np.zeros((1, fb.shape[1]), dtype=np.uint64)
                _or_rows(src[full], np.zeros(int(full.sum()), dtype=np.int32), fb, acc0)
                _, b = _bits(acc0, nb)
                found.append((pcode[b] << (DIGIT * d)) | tail)
                if counts:
                    tab = np.full(64 * fb.shape[1], -1, dtype=np.int32)
                    n = min(nb, len(tab))
                    tab[:n] = table((pcode[:n] << (DIGIT * d)) | tail, plen[:n] + d == R)
                    njoin += _join_full(src[full], w[full] * dp.bwd[t + 1][idx[full]], fb,
                                        fo, fv, tab, acc)
            # one card of a later class q completes it: grouped by the set of those q
            short = sel & (a + d == R - 1)
            if short.any():
                qs = nxt[short] & ~DONE
                live = qs != 0
                if not live.any():
                    continue
                if counts:
                    n = min(nb, 64 * fb.shape[1])
                    head = (pcode[:n] << (DIGIT * d)) | tail
                    tab = np.full((64 * fb.shape[1], 64), -1, dtype=np.int32)
                    qq = np.arange(K, dtype=np.int64)
                    tab[:n, :K] = table((head[:, None] << DIGIT) | qq[None, :],
                                        (plen[:n, None] + d == R - 1) & (qq[None, :] > m))
                    qw, qo, qv = backq[t + 1]
                    njoin += _join_short(src[short], idx[short], w[short], fb, fo, fv, qw,
                                         qo, qv, tab, acc)
                uniq, grp = np.unique(qs[live], return_inverse=True)
                acc0 = np.zeros((len(uniq), fb.shape[1]), dtype=np.uint64)
                _or_rows(src[short][live], grp.astype(np.int32), fb, acc0)
                g, b = _bits(acc0, nb)
                gq, q = np.nonzero(np.unpackbits(uniq.view(np.uint8).reshape(-1, 8), axis=1,
                                                 bitorder="little")[:, :K])
                # every (part of group g) with every (q of group g)
                starts = np.searchsorted(gq, np.arange(len(uniq)))
                nq = np.bincount(gq, minlength=len(uniq))
                rep = np.repeat(np.arange(len(g)), nq[g])
                off = np.arange(len(rep)) - np.repeat(np.cumsum(nq[g]) - nq[g], nq[g])
                qq = q[starts[g[rep]] + off]
                head = (pcode[b[rep]] << (DIGIT * d)) | tail
                found.append((head << DIGIT) | qq)
        if counts:
            oo, nv = _starts(out)
            ov = np.zeros(nv)
            _spread(src[z], idx[z], w[z], fb, fo, fv, None, out, oo, ov)
            for carry, rm in carries:
                _spread(src[carry], idx[carry], w[carry], fb, fo, fv, rm, out, oo, ov)
            fo, fv = oo, ov
        fb = out
    return found, (acc if counts else None), njoin


def possible_set_count(model, loc: str, *, max_states: int = 200_000,
                       stretch: tuple[float, float] | None = None) -> int | None:
    """The number of sets of cards ``loc`` can hold in a consistent deal (0: the model is
    inconsistent; ``None``: over the budget, see :func:`possible_compositions`)."""
    res = _possible_codes(model, loc, max_states, stretch)
    if res is None:
        return None
    classes, R, codes = res
    if not R:
        return len(codes)
    # each composition: the product over its classes of C(size, cards) sets, as the
    # product over its cards of (size - j + 1) / j for the j-th card of its class
    dig = _digits(codes, R)
    size = np.array([len(c) for c in classes], dtype=np.int64)[dig]
    j = np.ones(dig.shape, dtype=np.int64)
    for c in range(1, R):
        j[:, c] = np.where(dig[:, c] == dig[:, c - 1], j[:, c - 1] + 1, 1)
    return int((np.prod(size - j + 1, axis=1) // np.prod(j, axis=1)).sum())


def possible_sets(model, loc: str, top: int = 10, *, max_states: int = 200_000,
                  stretch: tuple[float, float] | None = None
                  ) -> tuple[int, list[tuple[frozenset, float]]] | None:
    """:func:`~solver.model.counting.location_sets`' answer by the same passes with one
    float per set bit: ``(number of possible sets, the top most likely with their
    probabilities)``, ties broken by the sorted card reprs; ``(0, [])`` when the model is
    inconsistent; ``None`` over the budget (see :func:`possible_compositions`).

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c", "d"], {"M": 2, "P": 2})
    >>> m.add(["a", "b"], ["M"], 1, 1)
    >>> n, best = possible_sets(m, "M", top=3)
    >>> n, [(sorted(s), p) for s, p in best]
    (4, [(['a', 'c'], 0.25), (['a', 'd'], 0.25), (['b', 'c'], 0.25)])
    """
    res = _possible_codes(model, loc, max_states, stretch, counts=True)
    if res is None:
        return None
    classes, R, codes, counts, rounding, prob, rows = res
    if prob is None or not len(codes):
        return 0, []
    dig = _digits(codes, R)
    vals = [(dig == p).sum(axis=1) for p in range(len(rows))]
    return sets_of(model, prob, model.loc_index(loc), counts, vals, rows,
                   4 * rounding, top)
