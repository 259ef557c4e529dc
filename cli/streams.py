"""Standard streams that cannot take what sleuth writes, or are not there at all.

* **An output encoding without the suit symbols** (a Latin-1 terminal, ``PYTHONIOENCODING=
  latin-1``, an ASCII ``LC_ALL=C``): the output degrades instead of failing.  The renderers
  choose ASCII suit letters (:func:`symbols_ok`), and whatever else the stream cannot encode
  is written by the ``sleuth-ascii`` error handler: a dash as ``-``, an ellipsis as ``...``,
  an arrow as ``->``, quotes as ASCII quotes, anything else as ``?``.  An ASCII stream gets
  the ``sleuth-ascii`` codec (ASCII with that handler): Click would otherwise write UTF-8 to
  a stream it takes for misconfigured ASCII.
* **A closed stream** (``<&-``, ``>&-``: Python then has ``None`` for it): closed standard
  output is refused at once (exit 2, nothing done: the answer could not be seen); closed
  standard input reads as an error the first time a command reads it (exit 2, like any
  unusable input); closed standard error is replaced by ``/dev/null`` (the exit code still
  tells).

:func:`fit_streams` is called once by the program's entry (:func:`cli.main.main`).
"""
from __future__ import annotations

import codecs
import io
import os
import sys

#: what sleuth writes that a narrow encoding may lack, as ASCII
ASCII = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "—": "-", "–": "-", "−": "-", "‐": "-", "‑": "-",
    "…": "...", "→": "->", "←": "<-", "↔": "<->", "⇒": "=>",
    "≤": "<=", "≥": ">=", "≠": "!=", "×": "x", "·": ".", "•": "*",
    "‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"',
    "\u00a0": " ", "\u202f": " ", "\u2009": " ",
}
SYMBOLS = "♠♥♦♣"
HANDLER = CODEC = "sleuth-ascii"


def _replace(err: UnicodeError) -> tuple[str, int]:
    """The ``sleuth-ascii`` error handler: :data:`ASCII`'s spelling, else ``?``."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    text = err.object[err.start:err.end]
    return "".join(ASCII.get(ch, "?") for ch in text), err.end


codecs.register_error(HANDLER, _replace)


def _ascii_encode(text, errors="strict"):
    return codecs.ascii_encode(text, HANDLER)


class _Encoder(codecs.IncrementalEncoder):
    def encode(self, text, final=False):
        return codecs.ascii_encode(text, HANDLER)[0]


def _search(name: str):
    if name.replace("-", "_") != CODEC.replace("-", "_"):
        return None
    ascii_ = codecs.lookup("ascii")
    return codecs.CodecInfo(name=CODEC, encode=_ascii_encode, decode=ascii_.decode,
                            incrementalencoder=_Encoder,
                            incrementaldecoder=ascii_.incrementaldecoder,
                            streamreader=ascii_.streamreader, streamwriter=ascii_.streamwriter)


codecs.register(_search)


def can_encode(encoding: str | None, text: str) -> bool:
    """Whether ``encoding`` (strictly) encodes ``text``."""
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeError, LookupError):
        return False
    return True


def symbols_ok(stream=None) -> bool:
    """Whether the suit symbols can be written to ``stream`` (default: standard output);
    else the renderers write the suit letters alone."""
    stream = stream or sys.stdout
    enc = getattr(stream, "encoding", None) or "utf-8"
    return codecs.lookup(enc).name != CODEC and can_encode(enc, SYMBOLS)


def _degrade(stream) -> None:
    """Make ``stream`` write what it cannot encode as :data:`ASCII` (or ``?``)."""
    enc = getattr(stream, "encoding", None)
    if not enc or can_encode(enc, SYMBOLS) or not hasattr(stream, "reconfigure"):
        return
    try:
        if codecs.lookup(enc).name == "ascii":
            stream.reconfigure(encoding=CODEC, errors="strict")
        else:
            stream.reconfigure(errors=HANDLER)
    except (ValueError, OSError, LookupError):     # already written to, or not a text file
        pass


class ClosedInput(io.RawIOBase):
    """Standard input when the program was started with it closed: readable, empty of
    nothing, and reading it is a one-line error (exit 2)."""

    def readable(self) -> bool:
        return True

    def readinto(self, b):
        from solver.errors import FileError

        raise FileError("cannot read standard input: it is closed (give the record as a "
                        "file, or pipe the input in)")


class StdoutClosed(Exception):
    """Standard output is closed: there is nowhere to write the answer."""


def fit_streams() -> None:
    """Fit the three standard streams as described in the module's docstring; raise
    :class:`StdoutClosed` when standard output is closed."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(ClosedInput()), encoding="utf-8")
    if sys.stdout is None:
        raise StdoutClosed
    _degrade(sys.stdout)
    _degrade(sys.stderr)
