"""Binomial tables and the primes whose residues, carried alongside the float programme,
give exact totals (by the Chinese remainder theorem)."""
from __future__ import annotations

import math

import numpy as np


# binomial tables, and primes for exact totals alongside the float programme
UNIT = 2.0 ** -53                   # unit roundoff of float64
PRIMES = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549,
          2147483543, 2147483497, 2147483489, 2147483477, 2147483423, 2147483399)
_BIN: dict = {}


def binomials(n: int):
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


def crt(residues: list[int], approx: float, rel: float) -> int | None:
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
