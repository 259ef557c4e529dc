"""How many sets of cards one small location can hold: the exact number, without their
probabilities (``docs/counting.md``, "The number of possible sets without their
probabilities").

:func:`solver.model.counting.location_sets` counts every *composition* of the location
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

import numpy as np

from . import counting as C

#: a state can be completed (the top bit of the backward words)
DONE = np.uint64(1 << 63)
#: bits of a class's position in a packed composition (and the most classes: one word's
#: bits besides DONE)
DIGIT = 6
#: the most partial compositions (bits) the forward pass carries: a location of at most
#: four free places from a 52-card deck needs at most 1 + 52 + 1378; a bigger question
#: (more free places) is left to the caller's estimate
MAX_PARTS = 1 << 14


def _kernel():
    k = C.KERNEL
    return k if k is not None and hasattr(k, "or_remap") else None


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
    starts = np.flatnonzero(C._run_starts(s))
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


def possible_compositions(model, loc: str, *, max_states: int = 200_000,
                          stretch: tuple[float, float] | None = None):
    """``(classes, compositions)``: the classes of interchangeable cards that can lie in
    ``loc`` (card indices, as :func:`solver.model.counting.interchangeable` gives them)
    and every possible composition of ``loc``'s free space, as a sorted tuple of class
    indices (a class as often as it has cards there); ``None`` when the plain programme
    is over its budget (``max_states``, ``stretch`` as in
    :func:`solver.model.counting.exact_count`) or the question too big for its bits (more
    than 63 classes, or more than :data:`MAX_PARTS` partial compositions).  No
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


def _possible_codes(model, loc: str, max_states: int, stretch):
    """:func:`possible_compositions` as ``(classes, R, packed compositions)``: ``R``
    cards each, their class positions in :data:`DIGIT` bits, in increasing order."""
    li = model.loc_index(loc)
    try:
        prob, col, plan_args = C.apart_problem(model, li)
        kept = C._LAST_DP.get(C._fingerprint(model))
        if (kept is not None and C._problem_key(kept[0]) == C._problem_key(prob)
                and kept[1].col_labels == plan_args["col_labels"] and not kept[2].exact):
            # the count just made kept the column apart (exact_count's ``apart``)
            _, plan, dp = kept
        else:
            plan, dp = C._programme(prob, plan_args,
                                    dict(exact=False, max_states=max_states,
                                         residues=False,
                                         stretch=C.stretched(max_states, stretch)))
    except C._Infeasible:
        return [], 0, np.zeros(0, dtype=np.int64)
    except C.OverBudget:
        return None
    T = len(plan.order)
    at = {t: c[0] for t, c in enumerate(plan.order) if c[0] >= 0 and c[1] == col}
    classes = [list(prob.rows[r]) for t, r in sorted(at.items())]
    if not len(dp.keys[T]):
        return classes, 0, np.zeros(0, dtype=np.int64)
    R = prob.col_cap[col] if col is not None else 0
    if not R:                           # the location is full: its set is known
        return classes, 0, np.zeros(1, dtype=np.int64)
    K = len(at)
    if K > 63 or (R >= 2 and math.comb(K + R - 2, R - 2) > MAX_PARTS):
        return None         # (a Mystery Hand model: at most 52 classes, R at most 4)
    pos = {t: i for i, t in enumerate(sorted(at))}         # step -> class position
    his = {pos[t]: min(prob.cells[(r, col)][1], len(prob.rows[r])) for t, r in at.items()}
    md = plan.col_dim[col]
    first = min(at) if at else T

    def degree(b: int, keys: np.ndarray) -> np.ndarray:
        if md in plan.strides[b]:
            return dp._digit(keys, b, md)
        return np.full(len(keys), 0 if b <= first else R, dtype=np.int64)

    again: dict[int, tuple] = {}        # transitions not kept, expanded for both passes

    def transitions(t):
        kept = dp._trans.get(t)         # (the weights are not needed)
        if kept is not None:
            return kept[:3]
        if t in again:
            return again.pop(t)
        src, k, idx, _ = dp._transitions(t)
        out = src.astype(np.int32), k, idx.astype(np.int32)
        if R >= 2 and t <= max(at):     # the forward pass reads it again
            again[t] = out
        return out

    # backward: can each state be completed, and by which single card's class
    # (kept only after the location's cells, where the forward pass joins, and at 0)
    back: dict[int, np.ndarray] = {}
    cur = np.full(len(dp.keys[T]), DONE, dtype=np.uint64)
    # (before the location's first cell only the first state's word is ever read, with
    # one card to place)
    for t in range(T - 1, -1 if R == 1 else first - 1, -1):
        src, k, idx = transitions(t)
        out = np.zeros(len(dp.keys[t]), dtype=np.uint64)
        if t in at:
            back[t + 1] = cur
            vals = cur[idx]
            done = (vals & DONE) != 0
            q = np.uint64(1) << np.uint64(pos[t])
            vals = np.where(k == 0, vals, vals & DONE) | np.where((k == 1) & done, q,
                                                                  np.uint64(0))
            _or_words(np.arange(len(src), dtype=np.int32), src, vals, out)
        else:
            _or_words(idx, src, cur, out)
        cur = out
    found: list[np.ndarray] = []
    if R == 1:                          # the first state's word (cur is at 0)
        v = int(cur[0]) & ~int(DONE)
        found.append(np.array([i for i in range(K) if v >> i & 1], dtype=np.int64))
    elif R >= 2:
        found = _forward(dp, T, at, pos, his, R, K, back, transitions, degree)
    codes = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
    return classes, R, codes


def _digits(codes: np.ndarray, R: int) -> np.ndarray:
    """The packed compositions ``codes`` as rows of ``R`` class positions."""
    shifts = DIGIT * np.arange(R - 1, -1, -1, dtype=np.int64)
    return (codes[:, None] >> shifts[None, :]) & (2 ** DIGIT - 1)


def _forward(dp, T, at, pos, his, R, K, back, transitions, degree):
    """The packed possible compositions (see :func:`possible_compositions`)."""
    # the partial compositions of degree at most R - 2 over the classes in order, one bit
    # each, packed as the final ones are (positions in DIGIT bits, in increasing order)
    parts = [()]
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
    # the location's cells before each boundary
    before = np.concatenate([[0], np.cumsum([t in at for t in range(max(at) + 1)])])
    width = [max(1, (int(np.searchsorted(last, c, side="left")) + 63) // 64)
             for c in range(K + 1)]
    pcode = np.array([sum(x << (DIGIT * (len(p) - 1 - j)) for j, x in enumerate(p))
                      for p in parts], dtype=np.int64)
    remaps = {}
    found = []
    fb = np.zeros((1, width[0]), dtype=np.uint64)
    fb[0, 0] = 1
    for t in range(max(at) + 1):        # (no composition is joined after that)
        src, k, idx = transitions(t)
        out = np.zeros((len(dp.keys[t + 1]), width[before[t + 1]]), dtype=np.uint64)
        if t not in at:
            _or_rows(src, idx, fb, out)
            fb = out
            continue
        m = pos[t]
        a = degree(t, dp.keys[t])[src]
        nxt = back[t + 1][idx]
        z = k == 0
        _or_rows(src[z], idx[z], fb, out)
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
            tail = 0
            for _ in range(d):
                tail = (tail << DIGIT) | m
            # the class's cards complete the composition
            full = sel & (a + d == R) & ((nxt & DONE) != 0)
            if full.any():
                acc = np.zeros((1, fb.shape[1]), dtype=np.uint64)
                _or_rows(src[full], np.zeros(int(full.sum()), dtype=np.int32), fb, acc)
                _, b = _bits(acc, nb)
                found.append((pcode[b] << (DIGIT * d)) | tail)
            # one card of a later class q completes it: grouped by the set of those q
            short = sel & (a + d == R - 1)
            if short.any():
                qs = nxt[short] & ~DONE
                live = qs != 0
                if not live.any():
                    continue
                uniq, grp = np.unique(qs[live], return_inverse=True)
                acc = np.zeros((len(uniq), fb.shape[1]), dtype=np.uint64)
                _or_rows(src[short][live], grp.astype(np.int32), fb, acc)
                g, b = _bits(acc, nb)
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
        fb = out
    return found


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
