"""Error bars of sampled estimates (light: numpy only for array input).

>>> round(wilson_halfwidth(0.5, 100), 4), wilson_halfwidth(0.3, 0)
(0.0962, 1.0)
>>> import numpy as np
>>> [round(float(x), 4) for x in wilson_halfwidth(np.array([0.0, 0.5]), 100)]
[0.037, 0.0962]
"""
from __future__ import annotations

import math

#: the 95 % normal quantile
Z95 = 1.959963984540054


def wilson_halfwidth(p, n: int):
    """The largest distance from ``p`` (a proportion of ``n`` draws, or an array of them) to
    the ends of its 95 % Wilson score interval; 1.0 when nothing was drawn."""
    if n == 0:
        return 1.0
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    spread = p * (1 - p) / n + z2 / (4 * n * n)
    if isinstance(p, (int, float)):
        half = Z95 * math.sqrt(spread) / (1 + z2 / n)
        return max(abs(centre + half - p), abs(p - (centre - half)))
    import numpy as np

    half = Z95 * np.sqrt(spread) / (1 + z2 / n)
    return np.maximum(np.abs(centre + half - p), np.abs(p - (centre - half)))
