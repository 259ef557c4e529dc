"""Several writers on one record, and lines as editors count them (docs/reliability.md,
"Concurrent writers" and "Lines").

Each test here fails without the record lock (``solver.records.record_lock``), the version
check (``Session.handle(..., expect=...)``), the held claim of ``log`` or ``split_lines``.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from solver.errors import StaleError
from solver.records import lock_path, parse_record, record_lock, split_lines
from solver.session import Session, append_statement, log_statement

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Ana", "Ben", "Cleo", "Dev")
HEADER = "game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n# a spectator's record\n"


def sleuth(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "cli.main", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    return path


def turn_lines(path) -> list[str]:
    return [ln for ln in split_lines(path.read_text()) if ln.startswith("turn:")]


def test_concurrent_log_commands_lose_no_statement(record):
    """Eight ``sleuth log`` processes at once, three times over: every one that says it
    logged its line finds it in the file (without the lock about half were lost)."""
    total = 0
    for _ in range(3):
        procs = [subprocess.Popen([sys.executable, "-m", "cli.main", "log", str(record),
                                   f"turn: {PLAYERS[i % 4]}   # writer {total + i}"],
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for i in range(8)]
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0, err
            assert out.startswith("logged line "), out
        total += 8
    lines = turn_lines(record)
    assert len(lines) == total
    assert sorted(int(ln.rsplit(" ", 1)[1]) for ln in lines) == list(range(total))
    assert not os.path.exists(lock_path(str(record)))      # the holder removes it


def test_a_session_checking_slowly_does_not_write_over_another_writer(record, monkeypatch):
    """``play`` reads, checks (slowly here) and saves under the lock: a ``log`` arriving
    during the check waits, then is checked against the session's line; both stay."""
    import solver.session as session_mod

    s = Session(str(record))
    real = session_mod.check_record
    started = threading.Event()

    def slow_check(rec):
        started.set()
        time.sleep(0.5)
        return real(rec)

    monkeypatch.setattr(session_mod, "check_record", slow_check)
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("out", s.handle("turn: Ben")))
    t.start()
    assert started.wait(10)
    monkeypatch.setattr(session_mod, "check_record", real)
    other = subprocess.run([sys.executable, "-m", "cli.main", "log", str(record),
                            "turn: Dev   # from another terminal"], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    t.join(30)
    assert result["out"].kind == "accepted"
    assert other.returncode == 0, other.stderr
    assert turn_lines(record) == ["turn: Ben", "turn: Dev   # from another terminal"]


def test_a_change_built_on_a_stale_version_is_refused_and_the_session_reloads(record):
    s = Session(str(record))
    seen = s.version
    append_statement(str(record), "turn: Cleo")          # another device
    before = record.read_bytes()
    for line in ("turn: Ben", "undo", "delete 5", "edit 5 turn: Dev", "# a note"):
        out = s.handle(line, expect=seen)
        assert out.kind == "refused" and isinstance(out.error, StaleError), line
        assert "changed since" in str(out.error)
        assert record.read_bytes() == before
    assert s.text == record.read_text()                  # reloaded on the first refusal
    out = s.handle("turn: Ben", expect=s.version)
    assert out.kind == "accepted"
    assert turn_lines(record) == ["turn: Cleo", "turn: Ben"]
    # reading needs no version: 'why' and 'sheet' are never stale
    assert s.handle("sheet", expect=seen).kind == "sheet"


def test_expect_on_the_library_writers(record):
    with pytest.raises(StaleError):
        append_statement(str(record), "turn: Ben", expect="0" * 16)
    with pytest.raises(StaleError):
        log_statement(str(record), "turn: Ben", expect="0" * 16)
    assert record.read_text() == HEADER


def test_the_lock_excludes_another_process_until_released(record):
    """While one process holds the lock, a ``log`` waits for it, then succeeds."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom solver.records import record_lock\n"
         f"with record_lock({str(record)!r}):\n    print('held', flush=True)\n"
         "    time.sleep(1.5)\n"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    t0 = time.monotonic()
    r = sleuth("log", record, "turn: Ben")
    waited = time.monotonic() - t0
    holder.wait(30)
    assert r.returncode == 0, r.stderr
    assert waited > 0.5         # it did wait for the holder (which kept it 1.5 s)
    assert turn_lines(record) == ["turn: Ben"]


def test_a_lock_held_too_long_is_a_message(record):
    with record_lock(str(record)):
        done = {}

        def other():
            try:
                with record_lock(str(record), wait=0.3):
                    done["got"] = True
            except Exception as e:         # noqa: BLE001 - the error is the subject
                done["error"] = e

        t = threading.Thread(target=other)
        t.start()
        t.join(10)
    assert "got" not in done
    assert "another writer" in str(done["error"]) and str(record) in str(done["error"])


def test_a_lock_file_left_by_another_users_killed_writer_does_not_block(record, monkeypatch):
    """A lock file that only its owner may write (another user's writer, killed, left it:
    root passes every permission check, so the refusal is simulated) is locked through a
    descriptor open for reading: the next writer waits for no one and saves."""
    import solver.records as records

    lp = lock_path(str(record))
    Path(lp).write_text("")
    real_open = os.open

    def open_as_another_user(name, flags, *args):
        if name == lp and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(13, "Permission denied", name)
        return real_open(name, flags, *args)

    monkeypatch.setattr(records.os, "open", open_as_another_user)
    append_statement(str(record), "turn: Ben")
    assert turn_lines(record) == ["turn: Ben"]
    assert not os.path.exists(lp)         # removed by the writer that held it, as ever


# ----- a wrong Literature claim through 'log' ----------------------------------------------

LIT = ROOT / "samples" / "literature" / "eight-players-jokers.txt"


def test_log_holds_a_wrong_claim_until_its_shown_line(tmp_path):
    lines = LIT.read_text().splitlines(keepends=True)
    claim = lines[41].split("#")[0].strip()
    shown = lines[42].split("#")[0].strip()
    assert claim.startswith("Gus claims") and shown.startswith("shown")
    path = tmp_path / "lit.txt"
    path.write_text("".join(lines[:41]))
    r = sleuth("log", path, claim)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("held line 42: " + claim)
    assert path.read_text().endswith(f"# held: {claim}\n")
    parse_record(path.read_text(), str(path))           # still a valid record
    r = sleuth("log", path, shown)
    assert r.returncode == 0, r.stderr
    assert "lines 42-43" in r.stdout
    assert path.read_text() == "".join(lines[:41]) + f"{claim}\n{shown}\n"
    assert sleuth("analyze", path, "--no-exposure").returncode == 0


def test_a_held_claim_followed_by_another_statement_stays_a_comment(tmp_path):
    lines = LIT.read_text().splitlines(keepends=True)
    claim = lines[41].split("#")[0].strip()
    path = tmp_path / "lit.txt"
    path.write_text("".join(lines[:41]))
    log_statement(str(path), claim)
    done = log_statement(str(path), "turn: Gus")
    assert done.dropped == claim
    assert f"# held: {claim}\n" in path.read_text()       # nothing typed is lost


# ----- lines are what editors call lines ---------------------------------------------------

@pytest.mark.parametrize("char", ["\x0c", "\x0b", "\u2028", "\u2029", "\x85", "\x1c", "\r"])
def test_a_line_separator_inside_a_line_is_refused_with_its_position(record, char):
    """``str.splitlines`` would split there and shift every line number after it."""
    text = HEADER + "turn: Ben   # a" + char + "b\nturn: Cleo\n"
    record.write_bytes(text.encode())
    r = sleuth("analyze", record)
    assert r.returncode == 2
    assert f"{record}:5:16:" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    r = sleuth("log", record, "--replace", "6", "turn: Dev")
    assert r.returncode == 2 and record.read_bytes() == text.encode()


def test_crlf_line_ends_count_as_one(record):
    record.write_bytes((HEADER + "turn: Ben\nturn: Cleo\n").replace("\n", "\r\n").encode())
    assert [s.line for s in parse_record(record.read_bytes().decode(), str(record))
            .statements] == [5, 6]
    r = sleuth("log", record, "--replace", "6", "turn: Dev")
    assert r.returncode == 0, r.stderr
    assert record.read_bytes().endswith(b"turn: Ben\r\nturn: Dev\r\n")


@pytest.mark.parametrize("char", ["\r", "\x0b", "\x0c", "\u2028", "\x85"])
def test_play_refuses_a_comment_that_would_smuggle_a_line(record, char):
    s = Session(str(record))
    before = record.read_bytes()
    for line in (f"# note{char}me: Ben", f"turn: Ben   # x{char}variant: sneak",
                 f"edit 5 turn: Ben{char}turn: Dev"):
        out = s.handle(line)
        assert out.kind == "refused", line
        assert "control characters" in str(out.error)
        assert record.read_bytes() == before
    assert s.handle("turn: Ben").kind == "accepted"        # the session goes on
