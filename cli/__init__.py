"""The ``sleuth`` command-line application (Click).  Formatting only: all logic is in
:mod:`solver`."""

# The first statements of the program's own code (``python -m cli.main`` and the ``sleuth``
# script both import this package before ``cli.main``): from here on a Ctrl-C ends with one
# line, never an import's traceback.  ``_signal`` is the interpreter's built-in module, so
# nothing is read from disk before the handler is in place; ``signal.py`` would be.
import _signal


def _interrupted_at_start(signum, frame):   # pragma: no cover - timing
    """Ctrl-C while the program is still loading (before :func:`main` runs): the same one
    line and exit code as later (docs/reliability.md), not an import's traceback."""
    import os as _os

    _os.write(2, b"sleuth: interrupted\n")
    _os._exit(130)


def _terminated_at_start(signum, frame):   # pragma: no cover - timing
    """SIGTERM while the program is still loading: as :func:`_interrupted_at_start`, with
    the line and code of a SIGTERM (``cli.main.on_sigterm`` takes over once loaded)."""
    import os as _os

    _os.write(2, b"sleuth: terminated\n")
    _os._exit(128 + signum)     # 143 for SIGTERM, 129 for SIGHUP


def _as_program() -> bool:
    """Whether this process is the ``sleuth`` program (its script, or ``python -m
    cli.main``), not a program importing the CLI (the tests).  ``os`` and ``sys`` are
    already loaded by the interpreter's start-up: importing them reads nothing."""
    import os as _os
    import sys as _sys

    if _os.path.basename(_sys.argv[0] if _sys.argv else "") in ("sleuth", "main.py"):
        return True
    # ``python -m cli.main`` imports this package while sys.argv[0] is still "-m"
    orig = getattr(_sys, "orig_argv", [])
    return any(a == "-m" and b == "cli.main" for a, b in zip(orig, orig[1:]))


if _as_program() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _interrupted_at_start)    # INSTALLED: the handler is in place
for _sig in (_signal.SIGTERM, _signal.SIGHUP):
    if _as_program() and _signal.getsignal(_sig) == _signal.SIG_DFL:
        _signal.signal(_sig, _terminated_at_start)
