"""Two computations at once, on a machine with more than one core.

``sleuth analyze`` from a player's view also says what the table knows about that player's
hand: a second, public-view analysis, often the costlier of the two.  :func:`beside` runs
it in a forked process while this one runs the view's own analysis, so the sheet takes as
long as the slower of the two instead of their sum.  One core, or no ``fork`` (not Linux or
macOS): one after the other, with the same results.

>>> beside(lambda: 6 * 7, lambda: "side")
(42, 'side', None)
>>> beside(lambda: 1, lambda: sys.modules["wave"].__name__, preload=("wave",))
(1, 'wave', None)
>>> beside(lambda: 1, lambda: 1 / 0)
Traceback (most recent call last):
...
RuntimeError: division by zero (in the second process)
...
>>> from solver.errors import NotationError
>>> def bad():
...     raise NotationError("no such player", text="Zed")
>>> value, side, error = beside(lambda: 1, bad)
>>> value, side, type(error).__name__, error.text
(1, None, 'NotationError', 'Zed')
"""
from __future__ import annotations

import contextlib
import os
import pickle
import sys
import time
import traceback

from solver.errors import SleuthError
from solver.interrupt import ignore_in_child, sigint_blocked, sigint_ignored


def _side_value(side):
    """("ok", value) / ("error", the SleuthError) / ("bug", (message, traceback))."""
    try:
        return "ok", side()
    except SleuthError as e:
        return "error", e
    except Exception as e:      # noqa: BLE001 - raised again by the caller (_settle)
        return "bug", (str(e), traceback.format_exc())


def _settle(kind, value):
    if kind == "ok":
        return value, None
    if kind == "error":
        return None, value
    raise RuntimeError(f"{value[0]} (in the second process)\n{value[1]}")


def _portable(kind, value) -> bytes:
    """The side's outcome, pickled.  A contradiction's sentence is a function until read
    (:attr:`InconsistentError.reason`): it is read first, so the error keeps its class and
    its conflicting lines; one that still does not pickle is sent as a
    :class:`SleuthError` with its message, exit code and place."""
    if kind == "error" and hasattr(value, "reason"):
        value.reason            # noqa: B018 - makes the sentence (a string pickles)
    try:
        return pickle.dumps((kind, value))
    except Exception:           # noqa: BLE001
        if kind == "error":
            e = SleuthError(value.message, text=value.text, rule=value.rule, path=value.path,
                            line=value.line, column=value.column)
            e.exit_code = value.exit_code
            return pickle.dumps(("error", e))
        return pickle.dumps(("bug", ("the result could not be sent", "")))


def beside(main, side, preload=(), meanwhile=None, patience: float | None = None):
    """``(main(), side(), None)``, or ``(main(), None, error)`` when ``side`` raised a
    :class:`~solver.errors.SleuthError` (a failing side never costs the main result); any
    other exception of ``side`` is a bug and raised here as ``RuntimeError`` with its
    traceback.  ``side`` runs in a forked process at the same time as ``main`` here; an
    exception of ``main`` propagates (the side process is stopped).  ``side``'s value must
    pickle.  ``preload``: names of modules both use, imported once before the fork instead
    of once in each process (numpy and the counting programme: 0.2-0.4 s that the side
    would otherwise spend again, both processes contending for the disk and the cores).
    ``meanwhile``: called here after ``main``, while the side may still be running (work
    the caller needs next, such as loading what prints the results, done in time that
    would otherwise be spent waiting).
    ``patience``: how much longer than ``main`` took (a fraction of its time) to wait for
    ``side`` after it; a side still running then is stopped and the error is a
    :class:`~solver.errors.BudgetError` (a result that is only worth its cost when cheap).

    >>> done = []
    >>> beside(lambda: 1, lambda: 2, meanwhile=lambda: done.append("loaded"))
    (1, 2, None)
    >>> done
    ['loaded']
    """
    if (os.cpu_count() or 1) < 2 or not hasattr(os, "fork"):
        value = main()
        if meanwhile is not None:
            meanwhile()
        return (value,) + _settle(*_side_value(side))
    import importlib

    for name in preload:
        importlib.import_module(name)
    # a bare fork and a pipe (not multiprocessing: its import and set-up cost 15-20 ms of
    # the command's start-up): the child writes its pickled outcome and ends at once,
    # never returning into the caller's code nor flushing the caller's buffered output
    recv: int | None          # None once the reading end is handed to its file object
    recv, send = os.pipe()
    with sigint_blocked():      # a Ctrl-C now reaches this process once the side is known
        pid = os.fork()
        if pid == 0:                                # the side process
            try:
                ignore_in_child()                   # this process stops it (SIGKILL)
                if patience is not None:            # optional work: never slows the main
                    os.nice(10)
                os.close(recv)
                data = _portable(*_side_value(side))
                with os.fdopen(send, "wb") as sink:
                    sink.write(data)
            finally:
                os._exit(0)
    os.close(send)
    done = False
    try:
        started = time.monotonic()
        value = main()
        took = time.monotonic() - started
        if meanwhile is not None:
            meanwhile()
        if patience is not None:
            import select

            left = started + took * (1 + patience) - time.monotonic()
            if not select.select([recv], [], [], max(0.0, left))[0]:
                from solver.errors import BudgetError

                return value, None, BudgetError(   # the finally below stops the side
                    f"it takes more than {patience:.0%} longer than the analysis")
        with os.fdopen(recv, "rb") as got:
            recv = None
            data = got.read()
        try:
            kind, out = pickle.loads(data)
        except (EOFError, pickle.UnpicklingError):  # it stopped without an answer
            kind, out = "bug", ("the second process stopped without an answer", "")
        os.waitpid(pid, 0)
        done = True
    finally:
        if recv is not None:
            os.close(recv)
        if not done:                                # main raised (Ctrl-C): stop the side
            import signal

            with sigint_ignored():
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                except (ProcessLookupError, ChildProcessError):
                    pass
    return (value,) + _settle(kind, out)


@contextlib.contextmanager
def pool(jobs: int):
    """A :class:`concurrent.futures.ProcessPoolExecutor` of ``jobs`` worker processes that
    an interrupt stops at once: the workers ignore SIGINT (a Ctrl-C reaches the whole
    process group; the parent decides), and when the block raises (``KeyboardInterrupt``
    or any error) they are killed and reaped before the exception goes on, the tasks not
    yet started cancelled: no worker outlives the command, none prints a traceback.  On
    success the pool is shut down as usual (every task done).

    >>> with pool(2) as ex:
    ...     sorted(ex.map(abs, [-3, 1, -2]))
    [1, 2, 3]
    """
    ex = _Pool(max_workers=jobs, initializer=ignore_in_child)
    try:
        yield ex
    except BaseException:
        with sigint_ignored():
            _kill_workers(ex)
        raise
    ex.shutdown(wait=True)


def _kill_workers(ex) -> None:
    """Kill the pool's workers, cancel what was not started, reap them."""
    procs = list((getattr(ex, "_processes", None) or {}).values())
    for p in procs:
        try:
            p.kill()
        except (OSError, AttributeError):
            pass
    ex.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.join(5)
        except (OSError, AssertionError):
            pass


def _pool_class():
    from concurrent.futures import ProcessPoolExecutor   # not at start-up

    class Pool(ProcessPoolExecutor):
        """Workers are forked (on submit) with SIGINT held back, which they then ignore
        (:func:`ignore_in_child`)."""

        def submit(self, fn, /, *args, **kwargs):
            with sigint_blocked():
                return super().submit(fn, *args, **kwargs)

    return Pool


def _Pool(**kwargs):
    # the class is made on each use, from ``concurrent.futures`` as it is then (a test
    # may wrap ProcessPoolExecutor to see the pools made)
    return _pool_class()(**kwargs)
