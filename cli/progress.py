"""Progress of long work on a terminal: one line on standard error, rewritten in place,
erased when the work ends.  Nothing at all when standard error is not a terminal (a pipe, a
file, a test) or when the output is JSON, so no program ever reads it."""
from __future__ import annotations

import sys
import threading


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
