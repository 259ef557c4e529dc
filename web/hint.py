"""The advisor's one-line hint for ``sleuth serve``, in a process of its own.

``python -m web.hint RECORD VIEW`` prints ``{"version": ..., "hint": ...}`` (the hint of
:meth:`solver.session.Session.hint` for ``VIEW``, ``public`` for none).  The advisor can take
many seconds (Literature with unheard answers); in its own process the server can stop it
as soon as the record moves on, and the page never waits for it."""
from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    from solver.errors import SleuthError
    from solver.session import Session

    path, view = argv[0], argv[1]
    from solver.model.budget import DEFAULT_TIMEOUT, within

    try:
        s = Session(path, None if view == "public" else view)
        with within(DEFAULT_TIMEOUT):
            out = {"version": s.version, "hint": s.hint()}
    except SleuthError as e:
        out = {"version": None, "hint": None, "error": str(e)}
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
