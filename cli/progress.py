"""Progress of long work on a terminal: one line on standard error, rewritten in place,
erased when the work ends.  Nothing at all when standard error is not a terminal (a pipe, a
file, a test) or when the output is JSON, so no program ever reads it."""
from __future__ import annotations

import itertools
import sys
import threading
import time
from contextlib import contextmanager


def on_terminal(as_json: bool = False) -> bool:
    """Whether progress may be shown: standard error is a terminal and the output is not
    JSON."""
    if as_json:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class Line:
    """The progress line: :meth:`show` rewrites it (at most 80 columns), :meth:`clear`
    erases it."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.width = 0
        self.lock = threading.Lock()

    def show(self, text: str) -> None:
        text = text[:79]
        with self.lock:
            pad = " " * max(0, self.width - len(text))
            self.stream.write("\r" + text + pad)
            self.stream.flush()
            self.width = len(text)

    def clear(self) -> None:
        with self.lock:
            if self.width:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
                self.width = 0


#: the spinner's frames, one a fifth of a second
SPINNER = "|/-\\"


@contextmanager
def working(what: str, as_json: bool = False, after: float = 1.0, stream=None):
    """While the block runs, from ``after`` seconds on: ``what``, a spinner and the seconds
    elapsed, on one line of standard error (or ``stream``) rewritten five times a second
    and erased when the block ends.  Nothing when progress may not be shown
    (:func:`on_terminal`; a ``stream`` given is always written to)."""
    if stream is None and not on_terminal(as_json):
        yield
        return
    line = Line(stream)
    stop = threading.Event()
    start = time.monotonic()

    def spin():
        if stop.wait(after):
            return
        for frame in itertools.cycle(SPINNER):
            line.show(f"{what} {frame} {time.monotonic() - start:.0f} s")
            if stop.wait(0.2):
                return

    thread = threading.Thread(target=spin, name="progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        line.clear()
