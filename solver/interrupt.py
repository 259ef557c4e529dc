"""Ctrl-C stops the program, also inside a CP-SAT search and in worker processes.

CP-SAT, left to itself, catches SIGINT during a search and only ends that search early
(``catch_sigint_signal``): the caller then sees a search that ran out of time, and the
command answered "over the time or work budget" (exit 4) instead of stopping.  Here:

* every ``CpSolver`` this program makes (through :class:`solver.lazy.LazyModule`) is a
  :func:`stoppable_solver_class` solver: CP-SAT's own handler is off, and while it
  searches, a SIGINT also reaches a small watcher thread (through
  :func:`signal.set_wakeup_fd`) that stops the search at once; Python's own handler then
  raises :class:`KeyboardInterrupt` as soon as the search returns, so an interrupt is an
  interrupt (the command line ends with exit 130, ``cli.main``);
* worker processes ignore SIGINT (:func:`ignore_in_child`): the parent, interrupted, kills
  them (:mod:`solver.parallel`), so a Ctrl-C reaching the whole process group never prints
  a traceback per worker, and no worker outlives the command;
* :func:`sigint_blocked` holds a SIGINT back while a child process is forked (delivered
  when the block ends, by then with the child known to the parent) and
  :func:`sigint_ignored` ignores one during clean-up (a second Ctrl-C must not leave a
  worker behind).

Nothing here prints or exits.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import Any

_lock = threading.Lock()
#: the solvers searching now in this process's main thread
_searching: set = set()
#: the watcher's pipe (read end, write end), made on first use in each process
_pipe: tuple[int, int] | None = None
#: the wakeup fd that was set before a search (another user's, e.g. asyncio's): what the
#: watcher reads is passed on to it
_forward = -1
#: how long the watcher goes on stopping the searches after a SIGINT (a search that had
#: not started when the signal came is stopped as soon as it starts), unless the
#: KeyboardInterrupt is raised sooner (:data:`_delivered`)
STOP_FOR = 2.0
#: set once the KeyboardInterrupt of the last SIGINT left a search: the searches after it
#: are not that interrupt's (a program that catches it, such as a test, goes on)
_delivered = threading.Event()


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _python_handles_sigint() -> bool:
    """Whether a SIGINT raises in Python here (not ignored: a worker process)."""
    h = signal.getsignal(signal.SIGINT)
    return callable(h)


def _watch(r: int) -> None:
    """The watcher thread: reads the signal numbers Python's C-level handler writes, and on
    a SIGINT stops every search running (for :data:`STOP_FOR` seconds, so that a search
    started a moment later is stopped too)."""
    import time

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})   # delivered to the main thread
    while True:
        try:
            data = os.read(r, 256)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return
        fwd = _forward
        if fwd >= 0:
            try:
                os.write(fwd, data)
            except OSError:
                pass
        if signal.SIGINT not in data and signal.SIGTERM not in data \
                and signal.SIGHUP not in data:  # (SIGTERM, SIGHUP: when the program
            continue                            # raises on them, cli.main.on_sigterm)
        _delivered.clear()
        until = time.monotonic() + STOP_FOR
        while time.monotonic() < until and not _delivered.is_set():
            with _lock:
                solvers = list(_searching)
            for s in solvers:
                s.stop_search()
            time.sleep(0.01)


def _wakeup_fd() -> int:
    """The write end of the watcher's pipe (the pipe and the thread are made once per
    process)."""
    global _pipe
    if _pipe is None:
        r, w = os.pipe()
        os.set_blocking(w, False)
        _pipe = (r, w)
        threading.Thread(target=_watch, args=(r,), name="sleuth-sigint", daemon=True).start()
    return _pipe[1]


def _after_fork_in_child() -> None:
    """A forked child has none of the parent's threads: its own watcher starts on use."""
    global _pipe, _forward
    if _pipe is not None:
        for fd in _pipe:
            try:
                os.close(fd)
            except OSError:
                pass
    _pipe, _forward = None, -1
    _searching.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


@contextlib.contextmanager
def _stoppable(solver):
    """While the block runs, a SIGINT stops ``solver``'s search (main thread only, and only
    where SIGINT is not ignored)."""
    global _forward
    if not _in_main_thread() or not _python_handles_sigint():
        yield
        return
    previous = signal.set_wakeup_fd(_wakeup_fd(), warn_on_full_buffer=False)
    _forward = previous
    with _lock:
        _searching.add(solver)
    try:
        yield
    except KeyboardInterrupt:
        _delivered.set()
        raise
    finally:
        with _lock:
            _searching.discard(solver)
        _forward = -1
        try:
            signal.set_wakeup_fd(previous)
        except (ValueError, OSError):       # its owner closed it meanwhile
            signal.set_wakeup_fd(-1)


_classes: dict = {}


def stoppable_solver_class(cp_model):
    """``cp_model.CpSolver`` whose search a Ctrl-C stops, raising :class:`KeyboardInterrupt`
    (CP-SAT's own SIGINT handler off; :func:`_stoppable` around every search)."""
    cls = _classes.get(id(cp_model))
    if cls is not None:
        return cls
    base: Any = cp_model.CpSolver       # of the module passed in: a class known at run time

    class CpSolver(base):
        __doc__ = base.__doc__

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.parameters.catch_sigint_signal = False

        def solve(self, model, solution_callback=None):
            with _stoppable(self):
                return super().solve(model, solution_callback)

    CpSolver.__qualname__ = CpSolver.__name__ = "CpSolver"
    CpSolver.__module__ = __name__
    _classes[id(cp_model)] = CpSolver
    return CpSolver


@contextlib.contextmanager
def sigint_blocked():
    """Hold SIGINT back in this thread while the block runs (a fork inside it: the child
    starts with it held too, until :func:`ignore_in_child`); a SIGINT that came meanwhile is
    delivered when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def ignore_in_child() -> None:
    """In a worker process forked inside :func:`sigint_blocked`: ignore SIGINT from now on
    (the parent decides; it kills its workers when interrupted), then unblock it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def sigint_ignored():
    """Ignore SIGINT while the block runs (main thread only): clean-up that must finish,
    such as killing and reaping workers after a first Ctrl-C."""
    if not _in_main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old if old is not None else signal.SIG_DFL)
