"""How much work and time an analysis may do (light: no solver imports).

Two kinds of bound, both here:

- :class:`Budget`: the work of one counting attempt (states, seconds, samples), tuned per
  game for live play; past it a count falls back to an estimate.
- the wall-clock **deadline** of a whole analysis (:class:`within`, default
  :data:`DEFAULT_TIMEOUT` seconds, ``--timeout`` on the command line): checked where the
  work happens -- each step of a counting programme, each batch of a sampling loop, each
  CP-SAT call (its ``max_time_in_seconds`` is cut to the time left, and a running search
  is stopped by :meth:`Deadline.cancel`) -- never by a thread that kills.  Past it the work stops with :class:`TimeUp` (a
  :class:`~solver.errors.BudgetError`, exit 4), carrying what the analysis had already
  established (:func:`establish`: the certainties, which come first and are cheap).

>>> Budget().max_states is None, Budget(max_states=100_000).max_states
(True, 100000)
>>> Budget(max_states=10).kwargs()
{'max_states': 10}
>>> with within(30) as d:
...     cap(60.0) <= 30.0, d.expired()
(True, False)
>>> cap(60.0), current() is None           # outside any block: no deadline
(60.0, True)
>>> with within(0):
...     check("the count")
Traceback (most recent call last):
...
solver.model.budget.TimeUp: the count did not finish within 0 s (the time budget; --timeout SECONDS allows more)
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, fields
from typing import overload

from solver.errors import BudgetError

#: seconds one analysis may take by default: nobody at a table waits longer
DEFAULT_TIMEOUT = 30.0
#: the largest ``--timeout`` accepted (an hour): a bound, not a wish
MAX_TIMEOUT = 3600.0
#: the largest ``--samples`` accepted (suggest): the advisor keeps every drawn deal, about
#: 1 KB each with its figures; 20 000 draws stay within the memory bound of
#: docs/reliability.md
MAX_SAMPLES = 20_000


@dataclass(frozen=True)
class Budget:
    """Budgets of one analysis; ``None`` leaves the game's own default (tuned for live play).

    ``max_states``: states of the exact counting programme before it falls back to an
    estimate; ``time_budget``: seconds for one counting attempt; ``samples``: draws for a
    sampled estimate (Twenty-Two's chances)."""

    max_states: int | None = None
    time_budget: float | None = None
    samples: int | None = None

    def kwargs(self) -> dict:
        """The budgets that are set, as keyword arguments."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None}


#: the budget of one replay or whatif step: the games' own defaults, so that every step
#: shows exactly what ``sleuth analyze`` shows on that prefix (issue 15)
STEP_BUDGET = Budget()


class TimeUp(BudgetError):
    """An analysis that ran out of its wall-clock time (exit 4).  ``seconds``: the budget;
    ``what``: the part not finished; ``established``: what the analysis had found before
    (see :func:`establish`), e.g. ``{"certain": ...}``."""

    def __init__(self, seconds: float, what: str = "the analysis",
                 established: dict | None = None):
        self.seconds, self.what = seconds, what
        self.established = dict(established or {})
        super().__init__(f"{what} did not finish within {seconds:g} s (the time budget; "
                         "--timeout SECONDS allows more)")

    def __reduce__(self):       # raised in a worker process, shown by the parent
        return (TimeUp, (self.seconds, self.what, self.established))


class Deadline:
    """The wall-clock end of one analysis (``time.monotonic``), and what the analysis has
    established so far.  :meth:`restart` starts the next analysis of the same command
    (a replay step, a line typed in ``play``) with the same budget."""

    def __init__(self, seconds: float, already: float = 0.0):
        self.seconds = float(seconds)
        #: the budget a :class:`TimeUp` names: ``seconds``, or the enclosing analysis's
        #: when a :class:`part` was cut to the time it had left (not "within 0 s")
        self.budget = self.seconds
        self.cancelled = False
        #: the CP-SAT solvers searching under this deadline now (:func:`cp_solver`), which
        #: :meth:`cancel` stops: a search does not look at the clock between its own limits
        self.solvers: set = set()
        #: the deadlines of parts of this analysis (:class:`part`): cancelled with it
        self.parts: list = []
        self.lock = threading.Lock()
        self.restart()
        self.at -= already

    def restart(self) -> None:
        self.at = time.monotonic() + self.seconds
        self.established: dict = {}

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() > self.at

    def check(self, what: str = "the analysis") -> None:
        """Raise :class:`TimeUp` if the time is over (:class:`Cancelled` if cancelled)."""
        if time.monotonic() > self.at:
            raise self._over(what)

    def cancel(self) -> None:
        """Stop the analysis at its next check, from another thread (``sleuth serve``: a
        newer version of the record makes the running analysis pointless); it then raises
        :class:`Cancelled`.  A CP-SAT search running under it stops at once
        (``StopSearch``); one that was just starting, before CP-SAT could take a stop, is
        stopped again :data:`RESTOP` seconds later."""
        with self.lock:
            self.cancelled = True
            self.at = float("-inf")
            running = list(self.solvers)
            parts = list(self.parts)
        for p in parts:
            p.cancel()
        for s in running:
            s.stop_search()
        if running:
            t = threading.Timer(RESTOP, self._stop_again, (running,))
            t.daemon = True
            t.start()

    def _stop_again(self, solvers: list) -> None:
        with self.lock:
            still = [s for s in solvers if s in self.solvers]
        for s in still:
            s.stop_search()

    def _over(self, what: str) -> "TimeUp":
        if self.cancelled:
            return Cancelled(self.budget, what, self.established)
        return TimeUp(self.budget, what, self.established)


class Cancelled(TimeUp):
    """An analysis stopped by :meth:`Deadline.cancel` before its time was up."""

    def __init__(self, seconds: float, what: str = "the analysis",
                 established: dict | None = None):
        super().__init__(seconds, what, established)
        self.message = f"{what} was stopped: a newer version of the record is being analysed"
        self.args = (self._render(),)


#: seconds after a cancel when the searches still running are stopped again (CP-SAT drops a
#: stop that comes while a search is being set up)
RESTOP = 0.02

#: the deadline of each thread (``sleuth serve`` checks a change in one thread while it
#: analyses in another: each keeps its own)
_LOCAL = threading.local()


def current() -> Deadline | None:
    """The deadline of the innermost :class:`within` block (``None`` outside any)."""
    return getattr(_LOCAL, "deadline", None)


class within:
    """Within this block every analysis stops at ``seconds`` of wall-clock time
    (:class:`TimeUp`); ``None``: no deadline (the enclosing one, if any, goes on).
    ``already``: seconds of it spent before the block."""

    def __init__(self, seconds: float | None = DEFAULT_TIMEOUT, already: float = 0.0):
        self.deadline = None if seconds is None else Deadline(seconds, already)

    def __enter__(self) -> Deadline | None:
        self.prev = current()
        if self.deadline is not None:
            _LOCAL.deadline = self.deadline
        return current()

    def __exit__(self, *exc) -> None:
        _LOCAL.deadline = self.prev


class part(within):
    """A part of the running analysis with a shorter time of its own (the certainties
    before the figures, :mod:`solver.staged`): it ends after ``seconds`` or at the
    enclosing deadline, whichever comes first, and a cancel of the enclosing deadline
    cancels it.  Without an enclosing deadline, simply :class:`within` ``seconds``."""

    def __init__(self, seconds: float):
        outer = current()
        left = seconds if outer is None else min(seconds, max(outer.remaining(), 0.0))
        super().__init__(left)
        self.outer = outer
        d = self.deadline
        if outer is not None and d is not None and left < seconds:
            d.budget = outer.budget         # the enclosing analysis's time ran out
        if outer is not None and d is not None:
            with outer.lock:
                outer.parts.append(d)
                gone = outer.cancelled
            if gone:
                d.cancel()

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        if self.outer is not None:
            with self.outer.lock:
                if self.deadline in self.outer.parts:
                    self.outer.parts.remove(self.deadline)


def check(what: str = "the analysis") -> None:
    """Raise :class:`TimeUp` if the current deadline has passed (cheap: call it in loops)."""
    d = current()
    if d is not None and time.monotonic() > d.at:
        raise d._over(what)


def expired() -> bool:
    """Whether the current deadline has passed (``False`` without one)."""
    d = current()
    return d is not None and time.monotonic() > d.at


@overload
def cap(seconds: float) -> float: ...
@overload
def cap(seconds: float | None) -> float | None: ...
def cap(seconds: float | None) -> float | None:
    """``seconds`` (a solver's own time limit, ``None`` for none) cut to the time left
    before the current deadline; at least a millisecond, so that a solver given it stops
    at once and says so."""
    d = current()
    if d is None:
        return seconds
    left = max(d.remaining(), 0.001)
    return left if seconds is None else min(seconds, left)


def restart() -> None:
    """Start the next analysis of a command with a fresh budget (no-op without one)."""
    d = current()
    if d is not None:
        d.restart()


def establish(**facts) -> None:
    """Note what the running analysis has established (kept by the deadline, carried by a
    later :class:`TimeUp`): e.g. ``establish(certain=...)`` once the certainties are known."""
    d = current()
    if d is not None:
        d.established.update(facts)


_CAPPED: dict = {}


def cp_solver(cp_model, seconds: float, what: str = "the analysis"):
    """A CP-SAT solver (of the module ``cp_model``, passed in: this module imports no
    solver) whose every ``solve`` stops at ``seconds`` or at the current deadline, whichever
    comes first, and raises :class:`TimeUp` when the deadline is what stopped it without an
    answer.  A solver object reused for several calls is cut again at each one.  While it
    searches, :meth:`Deadline.cancel` stops it (``StopSearch``) and it raises
    :class:`Cancelled`."""
    cls = _CAPPED.get(id(cp_model))
    if cls is None:
        class CappedSolver(cp_model.CpSolver):
            limit: float = seconds
            task: str = what

            def solve(self, model, *args, **kwargs):
                d = current()
                if d is None:
                    self.parameters.max_time_in_seconds = self.limit
                    return super().solve(model, *args, **kwargs)
                with d.lock:                # seen by a cancel from now on (it stops it)
                    if d.cancelled:
                        raise d._over(self.task)
                    d.solvers.add(self)
                try:
                    seconds = cap(self.limit)
                    self.parameters.max_time_in_seconds = seconds
                    status = super().solve(model, *args, **kwargs)
                finally:
                    with d.lock:
                        d.solvers.discard(self)
                if d.cancelled:             # stopped, or finished: the answer is not wanted
                    raise d._over(self.task)
                if status == cp_model.UNKNOWN and seconds < self.limit \
                        and d.remaining() < max(0.05, 0.02 * seconds):
                    # stopped by the time left, not by its own limit (CP-SAT's clock may
                    # stop a hair before the deadline's); a search stopped by its own
                    # deterministic limit, with time left, is the caller's to settle
                    raise d._over(self.task)
                return status

        cls = _CAPPED[id(cp_model)] = CappedSolver
    s = cls()
    s.limit, s.task = seconds, what
    s.parameters.max_time_in_seconds = cap(seconds)
    return s
