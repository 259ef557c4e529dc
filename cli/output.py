"""Output files (``simulate -o``, ``review --html``, ``replay --plot``): never clobbered,
written whole, named in every message.

* :func:`check_output` runs before any work: it refuses a folder, the very file being read
  (always, even with ``--force``: the record is a player's only copy of a game), and an
  existing file unless ``--force`` (:func:`force_option`);
* :func:`write_output` writes atomically (:func:`solver.records.atomic_write_bytes`: a
  temporary in the same folder, synced, renamed over the file), so a failure leaves the old
  file or none, and its message names the file ("cannot write review.html (the disk is
  full...)");
* the command then says ``wrote FILE``.
"""
from __future__ import annotations

import errno
import os

import click

from solver.errors import FileError, NotationError


def force_option(fn):
    """``--force``: overwrite an existing output file (never the record being read)."""
    return click.option("--force", is_flag=True,
                        help="Overwrite the output file if it exists (never the record "
                             "being read).")(fn)


def same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name the same file (through links, ``..``, case on a
    case-insensitive disk); ``False`` when either does not exist or is ``-``."""
    if a == "-" or b == "-":
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(path: str, *, force: bool, reading: tuple[str, ...] = (),
                 what: str = "the output") -> None:
    """Refuse ``path`` as an output file before any work is done: a folder; a file among
    ``reading`` (the record being read: always); an existing file unless ``force``.
    ``what`` names the output in the message (``--html``, ``the plot``)."""
    if os.path.isdir(path):
        raise FileError.from_os(IsADirectoryError(errno.EISDIR, "Is a directory"), path,
                                f"write {what}")
    for source in reading:
        if source and same_file(path, source):
            raise NotationError(f"{what} would overwrite the record being read; give "
                                "another file name (--force never allows this)", text=path)
    if os.path.lexists(path) and not force:
        raise NotationError(f"{what}: the file exists already (use --force to overwrite "
                            "it); nothing was done", text=path)


def write_output(path: str, data: str | bytes, what: str = "the output") -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; a failure is a
    :class:`FileError` naming the file, which is left as it was."""
    from solver.records import atomic_write_bytes

    if isinstance(data, str):
        data = data.encode("utf-8")
    atomic_write_bytes(path, data, action=f"write {what} {path}")


def wrote(path: str, detail: str = "") -> str:
    """The line that says an output file was written."""
    return f"wrote {path}" + (f": {detail}" if detail else "")
