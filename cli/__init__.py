"""The ``sleuth`` command-line application (Click).  Formatting only: all logic is in
:mod:`solver`."""

# Installed here, the first of the program's own code that runs (``python -m cli.main``
# and the ``sleuth`` script both import this package before ``cli.main``): a Ctrl-C from
# then on ends with one line, never an import's traceback.
import signal as _signal


def _interrupted_at_start(signum, frame):   # pragma: no cover - timing
    """Ctrl-C while the program is still loading (before :func:`main` runs): the same one
    line and exit code as later (docs/reliability.md), not an import's traceback."""
    import os as _os

    _os.write(2, b"sleuth: interrupted\n")
    _os._exit(130)


def _as_program() -> bool:
    """Whether this process is the ``sleuth`` program (its script, or ``python -m
    cli.main``), not a program importing the CLI (the tests)."""
    import os as _os
    import sys as _sys

    if _os.path.basename(_sys.argv[0] if _sys.argv else "") in ("sleuth", "main.py"):
        return True
    # ``python -m cli.main`` imports this package while sys.argv[0] is still "-m"
    orig = getattr(_sys, "orig_argv", [])
    return any(a == "-m" and b == "cli.main" for a, b in zip(orig, orig[1:]))


if _as_program() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _interrupted_at_start)
