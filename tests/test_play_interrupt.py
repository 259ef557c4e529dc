"""A Ctrl-C in ``sleuth play`` just after Enter names the statement being checked as not
saved (docs/reliability.md §7): the line read but not yet handled (the sheet being worked
out still stopping), and the line whose check the interrupt ends."""
from __future__ import annotations

import os
import re
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from cli.main import CHECKING

ROOT = Path(__file__).resolve().parent.parent
LOSSY = ROOT / "samples" / "literature" / "lossy-six-players.txt"
LINE = "Ana asks Ben 2S: no"
NAMED = ("sleuth: interrupted; the record is unchanged (the line being checked was not "
         f"saved: {LINE})")
# on a terminal: a record whose next statement takes about a second to check, so that a
# Ctrl-C 5-100 ms after Enter lands in the check
SLOW = ROOT / "tests" / "records" / "literature-eight-lossy-ana.txt"
SLOW_LINE = "Ana asks Dev JH: no"
SLOW_NAMED = NAMED.replace(LINE, SLOW_LINE)


@pytest.fixture
def session(tmp_path):
    from solver.session import Session

    rec = tmp_path / "l3.txt"
    shutil.copy(LOSSY, rec)
    return Session(str(rec))


@pytest.fixture(autouse=True)
def _clear():
    yield
    CHECKING.clear()


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("where", ["the check", "before the check"])
def test_an_interrupt_keeps_the_line_being_checked_named(session, monkeypatch, where):
    """The line stays in CHECKING for cli.main.interrupted whether the KeyboardInterrupt
    comes out of the check itself (it was cleared on the way out) or from the moment the
    line was read, before the check began (it was not set yet)."""
    import solver.model.budget
    from cli.session import _lines

    if where == "the check":
        monkeypatch.setattr(session, "handle", _interrupt)
    else:       # the first thing done with a line read: a fresh --timeout
        monkeypatch.setattr(solver.model.budget, "restart", _interrupt)
    with pytest.raises(KeyboardInterrupt):
        _lines(session, None, iter([LINE]), "y", False, False, True, False, print)
    assert CHECKING == [LINE]


def test_a_line_handled_or_only_read_is_not_named(session, monkeypatch):
    from cli.session import being_checked, checked, marked

    assert being_checked(session, "sheet") == [] and being_checked(session, "  ") == []
    assert being_checked(session, f" {LINE} ") == [LINE]
    session.correction = LINE               # 'y' after a refusal logs its correction
    assert being_checked(session, "y") == [LINE] and being_checked(session, "") == [LINE]
    session.correction = None
    seen = []
    for line in marked(session, ["history", LINE]):
        seen.append(list(CHECKING))
    assert seen == [["history"], [LINE]] and CHECKING == []
    monkeypatch.setattr(session, "handle", lambda line: None)
    checked(session, LINE)
    assert CHECKING == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a terminal (pty)")
def test_ctrl_c_just_after_enter_names_the_statement(tmp_path):
    """On a terminal (80x24): the statement typed, Enter, Ctrl-C 0-100 ms later.  Whenever
    the program ends before the statement is saved it says which one was not saved (it
    said only 'the record is unchanged'); after the save it says 'as last saved'."""
    import fcntl
    import pty
    import struct
    import termios

    said = []
    # the check may be done (and the line saved) before the Ctrl-C lands, which the prompt
    # then takes as a key: shorter delays are tried until one interrupts the check (each
    # attempt's outcome is checked)
    for delay in (0.03, 0.06, 0.1, 0.015, 0.005):
        if SLOW_NAMED in said:
            break
        rec = tmp_path / f"l3-{delay}.txt"
        shutil.copy(SLOW, rec)
        pid, fd = pty.fork()
        if pid == 0:        # pragma: no cover - the child
            os.environ["TERM"] = "xterm"
            os.environ.pop("NO_COLOR", None)
            os.execv(sys.executable, [sys.executable, "-c",
                                      "from cli.main import main; main()", "play", str(rec)])
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        out = b""

        def read(seconds: float) -> bool:
            nonlocal out
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                if select.select([fd], [], [], 0.02)[0]:
                    try:
                        data = os.read(fd, 65536)
                    except OSError:
                        return False
                    if not data:
                        return False
                    out += data
            return True
        try:
            end = time.monotonic() + 90
            # the first screen worked out, the advisor's hint on it: the prompt is idle
            while b"advisor:" not in out and time.monotonic() < end:
                read(0.1)
            read(0.3)
            os.write(fd, SLOW_LINE.encode())
            read(0.3)
            os.write(fd, b"\r")
            time.sleep(delay)
            os.write(fd, b"\x03")
            end = time.monotonic() + 10
            while read(0.2) and time.monotonic() < end:
                pass
        finally:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            os.close(fd)
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode("utf-8", "replace"))
        ends = [ln.strip(" \r") for ln in text.split("\n") if "sleuth: interrupted" in ln]
        ends = [ln[ln.index("sleuth: interrupted"):] for ln in ends]
        saved = rec.read_text(encoding="utf-8").rstrip("\n").endswith(SLOW_LINE)
        assert ends in ([SLOW_NAMED], []) or (saved and ends == [
            "sleuth: interrupted; the record is as last saved"]), (delay, ends)
        assert not (ends == [SLOW_NAMED] and saved), delay
        said += ends
    assert SLOW_NAMED in said, said
