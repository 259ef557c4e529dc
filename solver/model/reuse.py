"""Reuse between analyses of consecutive prefixes (light: no numpy).

A replay or a play session analyses records that differ by one statement, and a statement
the counting problem already implies (after simplification) leaves it as it was: 9 to 27
of the 80 steps of the benchmark's 8-player replays.  Within a :class:`reusing` block the
counting module builds a programme once for equal problems
(:func:`solver.model.counting.programme`) and answers :func:`location_sets
<solver.model.counting.location_sets>` once for equal questions.  The figures are the same
as without it: only programmes without a clock are kept, each under everything it depends
on (the problem, the plan's and the programme's arguments, the counting tuning).

>>> with reusing() as outer:
...     with reusing() as inner:
...         inner.memo is outer.memo
True
>>> current() is None
True
"""
from __future__ import annotations

import threading

#: programmes a block keeps (each can hold hundreds of megabytes): the last one is what a
#: step whose problem is the previous one's needs (the count, or the estimate's programme;
#: the count's own tables are also kept by counting.last_programme, usually the same object)
PROGRAMMES = 1
#: keys of programmes over their budget, and candidate-set answers, a block keeps
KEYS = 512


class Memo:
    """What a :class:`reusing` block has seen: ``built``, the last :data:`PROGRAMMES`
    (plan, programme) pairs; ``over``, the keys of programmes over their budget (with the
    reason); ``results``, answers by question; ``hits``, how many were reused."""

    def __init__(self):
        self.built: dict = {}
        self.over: dict = {}
        self.results: dict = {}
        self.hits = 0

    @staticmethod
    def keep(table: dict, key, value, most: int) -> None:
        """``table[key] = value`` as the most recent entry, dropping the oldest over
        ``most``."""
        table.pop(key, None)
        table[key] = value
        while len(table) > most:
            table.pop(next(iter(table)))


#: the memo of each thread (``sleuth serve`` analyses in one thread while it checks a
#: change in another: a memo is no thread's to share)
_LOCAL = threading.local()


def current() -> Memo | None:
    """The memo of the innermost :class:`reusing` block (``None`` outside any)."""
    return getattr(_LOCAL, "memo", None)


class reusing:
    """Within this block, counting programmes are reused for equal problems (see the
    module doc).  ``memo``: go on with an earlier block's (a session keeps one across its
    commands); a block inside another uses the outer one's."""

    def __init__(self, memo: Memo | None = None):
        self.memo = memo

    def __enter__(self) -> "reusing":
        self.prev = current()
        if self.prev is None:
            _LOCAL.memo = self.memo if self.memo is not None else Memo()
        self.memo = current()
        return self

    def __exit__(self, *exc) -> None:
        _LOCAL.memo = self.prev
