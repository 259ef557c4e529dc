"""``undo``, ``redo``, ``edit N`` and ``delete N`` against a save that fails and against
another writer's lines (docs/reliability.md, sections 2 and 2a; docs/session.md):

* a ``redo`` (or ``undo``) whose save is refused (a read-only file, a full disk) leaves
  the session as it was: it can be typed again once the file is writable (the redo was
  used up: "nothing to redo");
* ``edit N``/``delete N`` typed in ``play`` are refused once when line N or a line above
  it changed since the session showed it, a comment too (another writer's comment was
  written over: the check compared statements only);
* ``undo`` in ``play`` never removes another writer's line unsaid, also when the session
  reloaded the record during an earlier line (a refused one);
* ``play --json`` says what an undo or redo took out (``removed``) and put back
  (``restored``): an undone edit listed the original it restored as removed.
"""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver import records
from solver.errors import StaleError
from solver.session import Session, log_statement, replace_statement

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> list[str]:
    """The lines of a simulated record (header and 32 statements)."""
    path = tmp_path_factory.mktemp("sim") / "sim.txt"
    subprocess.run([sys.executable, "-m", "cli.main", "simulate", "clue", "--players", "4",
                    "--seed", "3", "-o", str(path)], cwd=ROOT, check=True,
                   capture_output=True)
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.fixture
def record(tmp_path, simulated) -> Path:
    """Its first 20 lines (16 statements, lines 5-20)."""
    path = tmp_path / "rec.txt"
    path.write_text("".join(simulated[:20]), encoding="utf-8")
    return path


def stmt(simulated: list[str], n: int) -> str:
    """Line ``n`` (1-based) of the simulated record, without its end."""
    return simulated[n - 1].strip()


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# ----- a refused save uses nothing up ------------------------------------------------------

@pytest.mark.parametrize("versioned", [False, True], ids=["play", "serve"])
@pytest.mark.parametrize("change", ["", "edit 15 {s15}   # checked", "delete 15"])
def test_a_redo_whose_save_is_refused_can_be_typed_again(record, simulated, change,
                                                         versioned):
    s = Session(str(record))

    def do(line: str):
        return s.handle(line, expect=s.version if versioned else None)

    if change:
        assert do(change.format(s15=stmt(simulated, 15))).kind in ("edited", "deleted")
    done = record.read_bytes()
    assert do("undo").kind == "undone"
    undone = record.read_bytes()
    record.chmod(0o444)
    try:
        out = do("redo")
    finally:
        record.chmod(0o644)
    assert out.kind == "refused" and "read-only" in str(out.error), out
    assert record.read_bytes() == undone
    out = do("redo")
    assert out.kind == "redone", out
    assert record.read_bytes() == done


@pytest.mark.parametrize("change", ["", "edit 15 {s15}   # checked", "delete 15"])
def test_an_undo_whose_save_fails_can_be_typed_again(record, simulated, change,
                                                     monkeypatch):
    s = Session(str(record))
    before = record.read_bytes()
    if change:
        assert s.handle(change.format(s15=stmt(simulated, 15))).kind in ("edited", "deleted")
        before_undo = record.read_bytes()
    else:
        before_undo = before
    real = os.replace

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    out = s.handle("undo")
    assert out.kind == "refused" and "disk is full" in str(out.error), out
    monkeypatch.setattr(os, "replace", real)
    assert record.read_bytes() == before_undo
    out = s.handle("undo")
    assert out.kind == "undone" and out.undid == ("delete" if change.startswith("delete")
                                                  else "edit" if change else ""), out
    if change:                      # the change undone, then redone: as before the undo
        assert record.read_bytes() == before
        assert s.handle("redo").kind == "redone" and record.read_bytes() == before_undo


def test_play_redoes_after_a_read_only_file_is_made_writable(record, simulated):
    """The tester's steps, in ``play``: undo, chmod 444, redo (refused), chmod 644, redo."""
    last = stmt(simulated, 20)
    p = subprocess.Popen([sys.executable, "-m", "cli.main", "play", str(record), "--no-sheet"],
                         cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    assert p.stdin is not None and p.stdout is not None

    def say(line: str, until: str) -> str:
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write(line + "\n")
        p.stdin.flush()
        got = ""
        while until not in got:
            part = p.stdout.readline()
            assert part, got
            got += part
        return got

    try:
        say("undo", "removed line 20")
        record.chmod(0o444)
        assert "read-only" in say("redo", "refused")
        record.chmod(0o644)
        assert "put back line 20" in say("redo", "redo:")
    finally:
        record.chmod(0o644)
        p.stdin.close()
        p.wait(timeout=60)
    assert lines(record)[-1] == last


# ----- edit N / delete N: line N as shown, its comment too -----------------------------------

@pytest.mark.parametrize("line", ["edit 15 {s15}  # from play", "delete 15"])
def test_edit_does_not_write_over_another_writers_comment(record, simulated, line):
    s15 = stmt(simulated, 15)
    s = Session(str(record))
    replace_statement(str(record), 15, f"{s15}  # seen by Ben too")       # another writer
    before = record.read_bytes()
    out = s.handle(line.format(s15=s15))
    assert out.kind == "refused" and isinstance(out.error, StaleError), out
    assert "seen by Ben too" in str(out.error)              # line 15 as it is now
    assert record.read_bytes() == before
    out = s.handle(line.format(s15=s15))                     # typed again: done
    assert out.kind in ("edited", "deleted"), out


def test_edit_after_a_reload_during_another_line_is_refused(record, simulated):
    """An editor put a line above line 15 while ``play`` refused a line (and reloaded):
    ``edit 15`` would edit the line that was 14."""
    s = Session(str(record))
    text = record.read_text(encoding="utf-8").splitlines(keepends=True)
    record.write_text("".join(text[:6] + ["# a note from an editor\n"] + text[6:]),
                      encoding="utf-8")
    out = s.handle("xyzzy")
    assert out.kind == "refused" and out.reloaded
    before = record.read_bytes()
    out = s.handle(f"edit 15 {stmt(simulated, 15)}")
    assert out.kind == "refused" and isinstance(out.error, StaleError), out
    assert record.read_bytes() == before


def test_edit_below_another_writers_lines_is_done(record, simulated):
    s = Session(str(record))
    log_statement(str(record), stmt(simulated, 21))                      # line 21
    out = s.handle(f"edit 15 {stmt(simulated, 15)}   # checked")
    assert out.kind == "edited" and out.reloaded, out


# ----- undo never removes another writer's line unsaid -------------------------------------

def test_undo_after_a_reload_does_not_remove_another_writers_line(record, simulated):
    s = Session(str(record))
    a, b = stmt(simulated, 21), stmt(simulated, 22)
    assert s.handle(a).kind == "accepted"                    # line 21, play's
    log_statement(str(record), b)                            # line 22, another writer's
    assert s.handle("xyzzy").kind == "refused"               # reloads
    before = record.read_bytes()
    out = s.handle("undo")
    assert out.kind == "refused" and isinstance(out.error, StaleError), out
    assert f"line 22: {b}" in str(out.error)
    assert record.read_bytes() == before
    out = s.handle("undo")                                   # said: typed again, done
    assert out.kind == "undone" and out.removed == [(22, b)], out


def test_undo_after_own_line_saved_over_another_writers_line(record, simulated):
    """play's own line saved after another writer's: undo removes it, and the next undo
    does not remove the other writer's line unsaid."""
    s = Session(str(record))
    a, b, c = stmt(simulated, 21), stmt(simulated, 22), stmt(simulated, 23)
    assert s.handle(a).kind == "accepted"
    log_statement(str(record), b)
    out = s.handle(c)
    assert out.kind == "accepted" and out.reloaded and out.line == 23
    out = s.handle("undo")
    assert out.kind == "undone" and out.removed == [(23, c)], out
    out = s.handle("undo")
    assert out.kind == "refused" and f"line 22: {b}" in str(out.error), out
    assert lines(record)[-2:] == [a, b]


def test_undo_removes_its_own_last_line_when_another_writer_changed_an_earlier_one(
        record, simulated):
    s = Session(str(record))
    a = stmt(simulated, 21)
    assert s.handle(a).kind == "accepted"
    replace_statement(str(record), 10, f"{stmt(simulated, 10)}  # another writer's note")
    assert s.handle("xyzzy").kind == "refused"
    out = s.handle("undo")
    assert out.kind == "undone" and out.removed == [(21, a)], out
    assert "another writer's note" in lines(record)[9]


def test_serve_undoes_what_its_page_showed(record, simulated):
    """A page sends the version it showed: its undo is decided on that record."""
    s = Session(str(record))
    log_statement(str(record), stmt(simulated, 21))
    s.reread()
    out = s.handle("undo", expect=s.version)
    assert out.kind == "undone" and out.removed == [(21, stmt(simulated, 21))], out


def test_play_undo_refuses_the_other_writers_line(record, simulated):
    """The tester's pipe: a statement, another writer's line logged, a refused line
    (play reloads), then undo."""
    a, b = stmt(simulated, 21), stmt(simulated, 22)
    p = subprocess.Popen([sys.executable, "-m", "cli.main", "play", str(record), "--no-sheet"],
                         cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(a + "\n")
    p.stdin.flush()
    t0 = time.monotonic()
    while a not in record.read_text(encoding="utf-8"):
        assert time.monotonic() - t0 < 60 and p.poll() is None
        time.sleep(0.05)
    log_statement(str(record), b)
    out, _ = p.communicate("xyzzy\nundo\n", timeout=60)
    assert "removed line 22" not in out, out
    assert f"its last statement is now line 22: {b}" in out, out
    assert lines(record)[-2:] == [a, b]


# ----- play --json: removed and restored -----------------------------------------------------

def test_play_json_says_what_an_undo_removed_and_restored(record, simulated):
    s15, s20 = stmt(simulated, 15), stmt(simulated, 20)
    new15 = s15.replace("Dev shows Library", "Dev shows")          # the card not seen
    lines_in = [f"edit 15 {new15}", "undo", "redo", "undo", "delete 20", "undo", "redo",
                "undo", "undo", "redo"]
    r = CliRunner().invoke(cli, ["play", str(record), "--json"],
                           input="\n".join(lines_in) + "\n")
    objs = [json.loads(ln) for ln in r.output.splitlines() if ln.startswith("{")][1:]
    got = [(o["result"], o.get("undid"), o.get("removed"), o.get("restored")) for o in objs]

    def one(n, text):
        return [{"line": n, "text": text}]

    assert got == [
        ("edited", None, one(15, s15), None),
        ("undone", "edit", one(15, new15), one(15, s15)),     # the edit out, the original in
        ("redone", "edit", one(15, s15), one(15, new15)),
        ("undone", "edit", one(15, new15), one(15, s15)),
        ("deleted", None, one(20, s20), None),
        ("undone", "delete", None, one(20, s20)),             # the deleted line put back
        ("redone", "delete", one(20, s20), None),
        ("undone", "delete", None, one(20, s20)),
        ("undone", None, one(20, s20), None),                 # a statement removed
        ("redone", None, None, one(20, s20)),                 # and put back
    ], r.output
    assert records.read_text(str(record)) == "".join(simulated[:20])
