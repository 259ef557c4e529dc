# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The counting programme's step, compiled (see ``docs/counting.md``): ``expand`` (the
transitions and their terms), ``reduce_sorted`` (the next states), ``alive`` (the
dead-state check), ``backward_step`` and ``last_card_step`` (the backward pass); the
bitset passes of the possible sets of a location: ``or_rows`` and ``or_remap``, and
their counts, one float per set bit: ``word_starts``, ``spread``, ``join_full`` and
``join_short`` (``solver.model.possible_sets``: the same sums as its numpy code, in
another order); and the
uniform draws from its tables: ``group``, ``sample_transitions`` and ``sample_pick`` (a
step of ``_DP._sample_floats``), ``split_merged`` (a merged column's cards back to its
parts, ``_deals_from_counts``).

Built at install when a C compiler is there (``setup.py``; optional):
``solver.model.counting`` uses it when it imports (``KERNEL``) and its numpy code
otherwise.  Both give the same transitions, states and dead states in the same order,
and the same draws and deals from the same random numbers (``tests/test_kernel.py``).
"""
import numpy as np

ctypedef long long i64


cdef inline i64 _digit(i64 x, i64 a, i64 b, bint pow2) nogil:
    if pow2:
        return (x >> a) & b
    return (x // a) % b


cdef inline void _kbounds(i64 key, const i64* st, bint pow2, Py_ssize_t nold,
                          i64* kmn, i64* kmx) noexcept nogil:
    """Narrow ``kmn..kmx`` (the bounds on k) by the ``old`` rows of the step ``st``."""
    cdef Py_ssize_t j, r
    cdef i64 v
    for j in range(nold):
        r = 9 + 4 * j
        v = _digit(key, st[r], st[r + 1], pow2)
        if st[r + 2] - v < kmx[0]:
            kmx[0] = st[r + 2] - v
        if st[r + 3] >= 0 and st[r + 3] - v > kmn[0]:
            kmn[0] = st[r + 3] - v


cdef inline bint _next_key(i64 nw, const i64* st, bint pow2, Py_ssize_t o_sat,
                           Py_ssize_t nsat, Py_ssize_t o_rem, Py_ssize_t nrem,
                           Py_ssize_t o_chk, Py_ssize_t nchk, i64* out) noexcept nogil:
    """The next state's key from ``nw`` (the key plus k cards) into ``out``: saturated
    digits clamped, closed digits cut; whether it meets the step's checks."""
    cdef Py_ssize_t j, r
    cdef i64 v, over, d
    for j in range(nsat):
        r = o_sat + 3 * j
        over = _digit(nw, st[r], st[r + 1], pow2) - st[r + 2]
        if over > 0:
            nw -= (over << st[r]) if pow2 else over * st[r]
    for j in range(nrem):
        r = o_rem + 2 * j
        d = st[r]
        if pow2:    # d = log2(stride), then log2(stride * radix)
            nw = ((nw >> st[r + 1]) << d) | (nw & ((<i64>1 << d) - 1))
        else:
            nw = (nw // (d * st[r + 1])) * d + nw % d
    out[0] = nw
    for j in range(nchk):
        r = o_chk + 4 * j
        v = _digit(nw, st[r], st[r + 1], pow2)
        if v < st[r + 2] or v > st[r + 3]:
            return False
    return True


def expand(const i64[::1] keys, bint pow2, const i64[::1] step, i64 bsize,
           const double[::1] fwd=None, const double[::1] binomial=None):
    """Every transition of one step from the sorted states ``keys``: (index of the source
    state (int32), k (int8), packed next state, index of C(remaining, k) in the flat
    binomial tables (int32)), k-major and the states in order within each k (as
    ``_DP._expand``).

    ``step`` (``_Step.kernel_args``): ``lo, hi, kstep, rsize`` (the bounds on k before the
    states' own digits, the key's increment per card, the class size), the numbers of rows
    that follow (``old``, ``row``, ``sat``, ``remove``, ``checks``), then the rows:
    ``old`` (a, b, hi, lo) -- k <= hi - digit, and k >= lo - digit where lo >= 0; ``row``
    (a, b) of the class's digit (remaining = rsize - digit; none: rsize), one row or none;
    ``sat`` (a, b, lo), the digit clamped to lo; ``remove`` (stride, radix), most
    significant first (when ``pow2``: (log2 stride, log2 stride * radix)); ``checks``
    (a, b, min, max) the next digit must meet.  A digit is ``(x >> a) & b`` when ``pow2``
    and ``(x // a) % b`` otherwise.

    With ``fwd`` (the states' counts) and ``binomial`` (the flat float table), a fifth
    array: each transition's term ``fwd[src] * binomial[w]``.
    """
    cdef i64 lo = step[0], hi = step[1], kstep = step[2], rsize = step[3]
    cdef Py_ssize_t nold = step[4], nrow = step[5], nsat = step[6], nrem = step[7]
    cdef Py_ssize_t nchk = step[8]
    cdef Py_ssize_t o_old = 9, o_row = o_old + 4 * nold, o_sat = o_row + 2 * nrow
    cdef Py_ssize_t o_rem = o_sat + 3 * nsat, o_chk = o_rem + 2 * nrem
    cdef Py_ssize_t n = keys.shape[0], i, m = 0
    cdef i64 kmn, kmx, k0 = hi + 1, k1 = lo - 1, k, key, nw
    kmin_a = np.empty(n, dtype=np.int64)
    kmax_a = np.empty(n, dtype=np.int64)
    rem_a = np.empty(n, dtype=np.int64)
    cdef i64[::1] kmin = kmin_a, kmax = kmax_a, rem = rem_a
    with nogil:
        for i in range(n):
            key = keys[i]
            kmn = lo
            kmx = hi
            _kbounds(key, &step[0], pow2, nold, &kmn, &kmx)
            kmin[i] = kmn
            kmax[i] = kmx
            if kmn <= kmx:
                m += kmx - kmn + 1
                if kmn < k0:
                    k0 = kmn
                if kmx > k1:
                    k1 = kmx
            if nrow:
                rem[i] = (rsize - _digit(key, step[o_row], step[o_row + 1], pow2)) * bsize
            else:
                rem[i] = rsize * bsize
    src_a = np.empty(m, dtype=np.int32)
    k_a = np.empty(m, dtype=np.int8)
    new_a = np.empty(m, dtype=np.int64)
    w_a = np.empty(m, dtype=np.int32)
    cdef int[::1] src = src_a, w = w_a
    cdef signed char[::1] ks = k_a
    cdef i64[::1] new = new_a
    cdef bint terms = fwd is not None
    term_a = np.empty(m if terms else 0, dtype=np.float64)
    cdef double[::1] term = term_a
    cdef Py_ssize_t out = 0
    with nogil:
        for k in range(k0, k1 + 1):
            for i in range(n):
                if kmin[i] > k or k > kmax[i]:
                    continue
                if not _next_key(keys[i] + k * kstep, &step[0], pow2, o_sat, nsat, o_rem,
                                 nrem, o_chk, nchk, &nw):
                    continue
                src[out] = <int>i
                ks[out] = <signed char>k
                new[out] = nw
                w[out] = <int>(rem[i] + k)
                if terms:
                    term[out] = fwd[i] * binomial[rem[i] + k]
                out += 1
    if terms:
        return src_a[:out], k_a[:out], new_a[:out], w_a[:out], term_a[:out]
    return src_a[:out], k_a[:out], new_a[:out], w_a[:out]


def reduce_sorted(const i64[::1] new, const double[::1] term, const i64[::1] order):
    """The next states from the transitions' keys ``new`` and terms, ``order`` sorting
    ``new`` (stably): (the distinct keys in order, each one's summed terms -- added in
    ``order`` -- the index of each transition's next state (int32), the longest run of
    one key).  The same states as ``np.add.reduceat`` over the runs; the sums may differ
    in the last bits (another order of addition, within the same rounding bound)."""
    cdef Py_ssize_t n = order.shape[0], j, g = -1, run = 0, longest = 0
    cdef i64 i, key, prev = 0
    keys_a = np.empty(n, dtype=np.int64)
    sums_a = np.empty(n, dtype=np.float64)
    inv_a = np.empty(n, dtype=np.int32)
    cdef i64[::1] keys = keys_a
    cdef double[::1] sums = sums_a
    cdef int[::1] inv = inv_a
    with nogil:
        for j in range(n):
            i = order[j]
            key = new[i]
            if g < 0 or key != prev:
                g += 1
                keys[g] = key
                sums[g] = term[i]
                prev = key
                run = 1
            else:
                sums[g] += term[i]
                run += 1
            if run > longest:
                longest = run
            inv[i] = <int>g
    keys_a.resize(g + 1, refcheck=False)     # shrinks in place
    sums_a.resize(g + 1, refcheck=False)
    return keys_a, sums_a, inv_a, longest


def backward_step(const int[::1] src, const signed char[::1] k, const int[::1] nxt,
                  const int[::1] w, const double[::1] binomial, const double[::1] bwd_next,
                  const double[::1] fwd, Py_ssize_t n):
    """One step of the backward pass over kept transitions (source state, k, index of the
    next state, index of the binomial): (the backward values of the ``n`` states -- each
    one's terms added in transition order, as ``np.bincount`` does -- and every
    transition's share of the cell's expected count, ``fwd[src] * term * k``)."""
    cdef Py_ssize_t m = src.shape[0], j
    cdef double term
    bwd_a = np.zeros(n, dtype=np.float64)
    mass_a = np.empty(m, dtype=np.float64)
    cdef double[::1] bwd = bwd_a, mass = mass_a
    with nogil:
        for j in range(m):
            term = binomial[w[j]] * bwd_next[nxt[j]]
            bwd[src[j]] += term
            mass[j] = fwd[src[j]] * term * k[j]
    return bwd_a, mass_a


def last_card_step(const int[::1] src, const signed char[::1] k, const int[::1] nxt,
                   const int[::1] w, const double[::1] binomial, const i64[::1] pos,
                   const i64[::1] pos_next, const double[:, ::1] rows_next,
                   const double[::1] bwd_next, bint own, Py_ssize_t nrows):
    """One step of ``_DP._last_card`` over kept transitions: the completions by the class
    of the last card of the ``nrows`` states one card short (``pos``: each state's row or
    -1), from those after the step (``pos_next``, ``rows_next``) -- a transition to a state
    still one card short adds its weight times that state's row (shifted by ``own``), and
    with ``own`` one that gives the column one card adds its weight times the next state's
    completions (``bwd_next``) to column 0; added in transition order, as ``np.bincount``
    does."""
    cdef Py_ssize_t m = src.shape[0], ncol = rows_next.shape[1], j, c, p, q
    cdef double ww
    out_a = np.zeros((nrows, ncol + own), dtype=np.float64)
    cdef double[:, ::1] out = out_a
    with nogil:
        for j in range(m):
            p = pos[src[j]]
            if p < 0:
                continue
            ww = binomial[w[j]]
            q = pos_next[nxt[j]]
            if q >= 0:
                for c in range(ncol):
                    out[p, own + c] += ww * rows_next[q, c]
            if own and k[j] == 1:
                out[p, 0] += ww * bwd_next[nxt[j]]
    return out_a


def alive(const i64[::1] keys, bint pow2, const i64[:, ::1] readers, const i64[::1] mult,
          const unsigned char[::1] table, const i64[::1] space_at, const i64[:, ::1] space,
          const i64[::1] need, const i64[::1] begun_at, const i64[:, ::1] begun):
    """Which states can still be completed (``_DP._alive``): the backward table's entry at
    the sum of the ``readers``' digits (rows (a, b)) times ``mult`` (no table: ``readers``
    empty), then every group ``g`` of statements sharing hands: the room left in its hands
    (rows ``space[space_at[g]:space_at[g + 1]]``: (a, b, size), room = size - digit) at
    least ``need[g]``, and at least ``lo - digit`` for each begun statement (rows
    ``begun[begun_at[g]:begun_at[g + 1]]``: (lo, a, b)).  A uint8 array."""
    cdef Py_ssize_t n = keys.shape[0], i, j, g, nr = readers.shape[0]
    cdef Py_ssize_t ng = need.shape[0]
    cdef i64 key, at, room
    cdef bint ok
    out_a = np.empty(n, dtype=np.uint8)
    cdef unsigned char[::1] out = out_a
    with nogil:
        for i in range(n):
            key = keys[i]
            ok = True
            if nr:
                at = 0
                for j in range(nr):
                    at += _digit(key, readers[j, 0], readers[j, 1], pow2) * mult[j]
                ok = table[at] != 0
            g = 0
            while ok and g < ng:
                room = 0
                for j in range(space_at[g], space_at[g + 1]):
                    room += space[j, 2] - _digit(key, space[j, 0], space[j, 1], pow2)
                if room < need[g]:
                    ok = False
                for j in range(begun_at[g], begun_at[g + 1]):
                    if room < begun[j, 0] - _digit(key, begun[j, 1], begun[j, 2], pow2):
                        ok = False
                g += 1
            out[i] = ok
    return out_a


def sample_transitions(const i64[::1] keys, bint pow2, const i64[::1] step, i64 bsize,
                       const i64[::1] tab, const double[::1] bwd_next,
                       const double[::1] binomial):
    """The transitions a draw can take from each of the states ``keys`` (sorted: the
    states the draws are in, ``_DP._sample_floats``) into the kept next states ``tab``:
    (the running sum of their weights ``binomial[w] * bwd_next[next]`` over all of them,
    float64; k, int8; the index of the next state in ``tab``, int64; the offsets of each
    state's transitions, int64, ``len(keys) + 1``), a state's transitions in the order of
    k -- the same arrays, in the same order and with the same sums, as the numpy code's
    expansion, search of the next keys and stable sort by state."""
    cdef i64 lo = step[0], hi = step[1], kstep = step[2], rsize = step[3]
    cdef Py_ssize_t nold = step[4], nrow = step[5], nsat = step[6], nrem = step[7]
    cdef Py_ssize_t nchk = step[8]
    cdef Py_ssize_t o_old = 9, o_row = o_old + 4 * nold, o_sat = o_row + 2 * nrow
    cdef Py_ssize_t o_rem = o_sat + 3 * nsat, o_chk = o_rem + 2 * nrem
    cdef Py_ssize_t n = keys.shape[0], ntab = tab.shape[0], i, out = 0
    cdef Py_ssize_t a, b, mid, m = 0
    cdef i64 kmn, kmx, k, key, nw, rem
    cdef double run = 0.0
    for i in range(n):          # an upper bound on the transitions
        kmn = lo
        kmx = hi
        _kbounds(keys[i], &step[0], pow2, nold, &kmn, &kmx)
        if kmn <= kmx:
            m += kmx - kmn + 1
    cum_a = np.empty(m, dtype=np.float64)
    k_a = np.empty(m, dtype=np.int8)
    idx_a = np.empty(m, dtype=np.int64)
    off_a = np.empty(n + 1, dtype=np.int64)
    cdef double[::1] cum = cum_a
    cdef signed char[::1] ks = k_a
    cdef i64[::1] idx = idx_a, off = off_a
    with nogil:
        for i in range(n):
            off[i] = out
            key = keys[i]
            kmn = lo
            kmx = hi
            _kbounds(key, &step[0], pow2, nold, &kmn, &kmx)
            if nrow:
                rem = (rsize - _digit(key, step[o_row], step[o_row + 1], pow2)) * bsize
            else:
                rem = rsize * bsize
            for k in range(kmn, kmx + 1):
                if not _next_key(key + k * kstep, &step[0], pow2, o_sat, nsat, o_rem,
                                 nrem, o_chk, nchk, &nw):
                    continue
                a = 0               # the first kept next state >= nw
                b = ntab
                while a < b:
                    mid = (a + b) >> 1
                    if tab[mid] < nw:
                        a = mid + 1
                    else:
                        b = mid
                if a == ntab or tab[a] != nw:
                    continue
                run = run + binomial[rem + k] * bwd_next[a]
                cum[out] = run
                ks[out] = <signed char>k
                idx[out] = a
                out += 1
        off[n] = out
    return cum_a[:out], k_a[:out], idx_a[:out], off_a


def group(const i64[::1] cur, const i64[::1] order):
    """``np.unique(cur, return_inverse=True)`` given ``order``, an argsort of ``cur``:
    (the distinct values in order, each entry's index among them)."""
    cdef Py_ssize_t n = cur.shape[0], j, g = -1
    cdef i64 i, prev = 0
    u_a = np.empty(n, dtype=np.int64)
    inv_a = np.empty(n, dtype=np.int64)
    cdef i64[::1] u = u_a, inv = inv_a
    with nogil:
        for j in range(n):
            i = order[j]
            if g < 0 or cur[i] != prev:
                g += 1
                prev = cur[i]
                u[g] = prev
            inv[i] = g
    u_a.resize(g + 1, refcheck=False)
    return u_a, inv_a


def sample_pick(const double[::1] cum, const signed char[::1] k, const i64[::1] idx,
                const i64[::1] off, const i64[::1] inv, const double[::1] r):
    """Each draw's transition (``_DP._sample_floats``): draw ``d`` is in state ``inv[d]``,
    whose transitions are ``off[inv[d]]:off[inv[d] + 1]`` of ``sample_transitions``'
    arrays; it takes the first whose running sum exceeds ``base + r[d] * (last - base)``
    (``base`` the running sum before the state's first transition, ``last`` at its last),
    else the last, as ``np.searchsorted(cum, target, side="right")`` clipped to the
    state's transitions does.  Returns (each draw's k, int8; its next state, int64)."""
    cdef Py_ssize_t n = inv.shape[0], d, j, a, b
    cdef double base, target
    kd_a = np.empty(n, dtype=np.int8)
    nxt_a = np.empty(n, dtype=np.int64)
    cdef signed char[::1] kd = kd_a
    cdef i64[::1] nxt = nxt_a
    with nogil:
        for d in range(n):
            a = off[inv[d]]
            b = off[inv[d] + 1]
            if b <= a:          # a state with no way on (never a kept state)
                kd[d] = 0
                nxt[d] = -1
                continue
            base = cum[a - 1] if a > 0 else 0.0
            target = base + r[d] * (cum[b - 1] - base)
            j = a
            while j < b - 1 and cum[j] <= target:
                j += 1
            kd[d] = k[j]
            nxt[d] = idx[j]
    if n and nxt_a.min() < 0:
        raise ValueError("a draw reached a state with no transition")
    return kd_a, nxt_a


def split_merged(int[:, ::1] sub, int v, int a, int b, const i64[::1] left,
                 const double[:, ::1] u):
    """A merged column's cards back to its two parts (``_deals_from_counts``), in place:
    in each row of ``sub``, ``left[row]`` of the entries equal to ``v`` become ``a`` and
    the others ``b``, by selection sampling -- an entry is taken when ``u * (entries
    still to see) < (still needed)`` -- as the numpy code does with the same ``u``."""
    cdef Py_ssize_t n = sub.shape[0], w = sub.shape[1], i, j
    cdef i64 avail, need
    with nogil:
        for i in range(n):
            avail = 0
            for j in range(w):
                if sub[i, j] == v:
                    avail += 1
            need = left[i]
            for j in range(w):
                if sub[i, j] != v:
                    continue
                if u[i, j] * <double>avail < <double>need:
                    sub[i, j] = a
                    need -= 1
                else:
                    sub[i, j] = b
                avail -= 1


# ----- the possible sets of one location, by bitsets (solver.model.possible_sets) -------
ctypedef unsigned long long u64

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


def or_rows(const int[::1] src, const int[::1] dst, const u64[:, ::1] inp,
            u64[:, ::1] out):
    """``out[dst[j]] |= inp[src[j]]`` (rows of words) for every ``j`` (rows of zeros, most
    of them late in the order, are found once and skipped)."""
    cdef Py_ssize_t m = src.shape[0], n = inp.shape[0], W = inp.shape[1], j, w, s
    cdef u64 x
    live_a = np.zeros(n, dtype=np.uint8)
    cdef unsigned char[::1] live = live_a
    with nogil:
        for j in range(n):
            x = 0
            for w in range(W):
                x |= inp[j, w]
            live[j] = x != 0
        for j in range(m):
            s = src[j]
            if live[s]:
                for w in range(W):
                    out[dst[j], w] |= inp[s, w]


def or_remap(const int[::1] src, const int[::1] dst, const u64[:, ::1] inp,
             const int[::1] remap, u64[:, ::1] out):
    """``out[dst[j]]`` gets bit ``remap[b]`` for every bit ``b`` of ``inp[src[j]]``
    (none where ``remap[b] < 0``)."""
    cdef Py_ssize_t m = src.shape[0], W = inp.shape[1], j, w
    cdef u64 x
    cdef int b, r
    with nogil:
        for j in range(m):
            for w in range(W):
                x = inp[src[j], w]
                while x:
                    b = __builtin_ctzll(x)
                    x &= x - 1
                    r = remap[w * 64 + b]
                    if r >= 0:
                        out[dst[j], r >> 6] |= (<u64>1) << (r & 63)


# ----- the counts of those sets: floats, one per set bit (solver.model.possible_sets) ---
# A row's values are those of its set bits in increasing order, the rows one after the
# other.  ``start[i, w]`` is where the values of the bits of word ``w`` of row ``i``
# begin, so a bit's value is at its word's start plus the bits below it in its word: one
# popcount.  GCC on x86-64 with glibc (whose ifuncs pick a clone at load time) builds
# the two loops that count bits twice, with and without the processor's popcount
# instruction (twice as fast here; not every x86-64 has it); elsewhere the compiler's
# popcount.
cdef extern from *:
    """
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
    #define SLEUTH_CLONES __attribute__((target_clones("popcnt", "default")))
    #else
    #define SLEUTH_CLONES
    #endif

    SLEUTH_CLONES static long long sleuth_starts(const unsigned long long *words,
            Py_ssize_t n, Py_ssize_t W, long long *start) {
        long long c = 0;
        for (Py_ssize_t i = 0; i < n * W; i++) {
            start[i] = c;
            c += __builtin_popcountll(words[i]);
        }
        return c;
    }

    SLEUTH_CLONES static void sleuth_spread(Py_ssize_t m, const int *src, const int *dst,
            const double *weight, const unsigned long long *inp, Py_ssize_t Wi,
            const long long *istart, const double *ival, const int *remap,
            const unsigned long long *out, Py_ssize_t Wo, const long long *ostart,
            double *oval) {
        for (Py_ssize_t j = 0; j < m; j++) {
            const unsigned long long *row = inp + (Py_ssize_t)src[j] * Wi;
            const unsigned long long *orow = out + (Py_ssize_t)dst[j] * Wo;
            const long long *os = ostart + (Py_ssize_t)dst[j] * Wo;
            long long i = istart[(Py_ssize_t)src[j] * Wi];
            double c = weight[j];
            for (Py_ssize_t w = 0; w < Wi; w++) {
                unsigned long long x = row[w];
                while (x) {
                    int b = __builtin_ctzll(x) + 64 * (int)w;
                    x &= x - 1;
                    int r = remap ? remap[b] : b;
                    if (r >= 0)
                        oval[os[r >> 6] + __builtin_popcountll(
                            orow[r >> 6] & ((1ULL << (r & 63)) - 1))] += ival[i] * c;
                    i++;
                }
            }
        }
    }
    """
    long long sleuth_starts(const u64* words, Py_ssize_t n, Py_ssize_t W, i64* start) nogil
    void sleuth_spread(Py_ssize_t m, const int* src, const int* dst, const double* weight,
                       const u64* inp, Py_ssize_t Wi, const i64* istart, const double* ival,
                       const int* remap, const u64* out, Py_ssize_t Wo, const i64* ostart,
                       double* oval) nogil


def word_starts(const u64[:, ::1] words):
    """``(start, total)``: where the values of each word's set bits begin (an array of
    the words' shape) and how many values there are."""
    cdef Py_ssize_t n = words.shape[0], W = words.shape[1]
    start_a = np.zeros((n, W), dtype=np.int64)
    cdef i64[:, ::1] start = start_a
    cdef long long total = 0
    if n * W:
        with nogil:
            total = sleuth_starts(&words[0, 0], n, W, &start[0, 0])
    return start_a, total


def spread(const int[::1] src, const int[::1] dst, const double[::1] weight,
           const u64[:, ::1] inp, const i64[:, ::1] istart, const double[::1] ival,
           const int[::1] remap, const u64[:, ::1] out, const i64[:, ::1] ostart,
           double[::1] oval):
    """For every ``j`` and every bit ``b`` of ``inp[src[j]]``, its value times
    ``weight[j]`` added to the value of bit ``remap[b]`` (``b`` itself when ``remap`` is
    empty; none where it is negative) of ``out[dst[j]]``, which must have that bit."""
    cdef Py_ssize_t m = src.shape[0]
    if m == 0 or ival.shape[0] == 0 or oval.shape[0] == 0:
        return
    with nogil:
        sleuth_spread(m, &src[0], &dst[0], &weight[0], &inp[0, 0], inp.shape[1],
                      &istart[0, 0], &ival[0], &remap[0] if remap.shape[0] else NULL,
                      &out[0, 0], out.shape[1], &ostart[0, 0], &oval[0])


def join_full(const int[::1] src, const double[::1] weight, const u64[:, ::1] inp,
              const i64[:, ::1] istart, const double[::1] ival, const int[::1] table,
              double[::1] acc):
    """For every ``j`` and bit ``b`` of ``inp[src[j]]``: ``acc[table[b]] += value x
    weight[j]`` (none where ``table[b]`` is negative).  Returns the number of additions
    (a bound on the terms any one sum took, for its rounding)."""
    cdef Py_ssize_t m = src.shape[0], W = inp.shape[1], j, w, s, i, n = 0
    cdef u64 x
    cdef int b, r
    cdef double c
    with nogil:
        for j in range(m):
            s = src[j]
            i = istart[s, 0]
            c = weight[j]
            for w in range(W):
                x = inp[s, w]
                while x:
                    b = __builtin_ctzll(x) + 64 * w
                    x &= x - 1
                    r = table[b]
                    if r >= 0:
                        acc[r] += ival[i] * c
                        n += 1
                    i += 1
    return n


def join_short(const int[::1] src, const int[::1] dst, const double[::1] weight,
               const u64[:, ::1] inp, const i64[:, ::1] istart, const double[::1] ival,
               const u64[:, ::1] qw, const i64[:, ::1] qstart, const double[::1] qval,
               const int[:, ::1] table, double[::1] acc):
    """For every ``j``, bit ``b`` of ``inp[src[j]]`` and bit ``q`` of ``qw[dst[j], 0]``:
    ``acc[table[b, q]] += value of b x weight[j] x value of q`` (none where the table
    is negative).  Returns the number of additions."""
    cdef Py_ssize_t m = src.shape[0], W = inp.shape[1], j, w, s, i, d, iq, n = 0
    cdef u64 x, y
    cdef int b, q, r
    cdef double c
    with nogil:
        for j in range(m):
            s = src[j]
            d = dst[j]
            i = istart[s, 0]
            if qw[d, 0] == 0:
                continue
            for w in range(W):
                x = inp[s, w]
                while x:
                    b = __builtin_ctzll(x) + 64 * w
                    x &= x - 1
                    c = ival[i] * weight[j]
                    i += 1
                    y = qw[d, 0]
                    iq = qstart[d, 0]
                    while y:
                        q = __builtin_ctzll(y)
                        y &= y - 1
                        r = table[b, q]
                        if r >= 0:
                            acc[r] += c * qval[iq]
                            n += 1
                        iq += 1
    return n
