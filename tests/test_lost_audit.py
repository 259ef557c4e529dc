"""Ways a statement could still be lost or a record corrupted (docs/reliability.md, "Nothing
lost"), each found by trying it as a user would, each test failing without its fix:

* an editor takes no lock: its save while ``log``, ``log --replace``, ``play`` or
  ``serve`` checked a change was written over (``atomic_write(..., base=...)``);
* a held claim was dropped when the save of its resolving line failed (a full disk, an
  editor's save meanwhile); it is now a ``# held:`` line in the file from the moment it is
  typed, in ``play`` and ``serve`` as in ``log``;
* a header value given to ``sleuth new`` or serve's New game form could carry a line break
  and smuggle an unchecked statement or header line into the new record;
* SIGTERM (``kill``, ``timeout``) ended the program at once, leaving the worker processes of
  ``replay`` and ``review`` running for minutes (holding its output open), and waited for a
  CP-SAT search to end; ``serve`` ended by Ctrl-C with exit 0 and no line.
"""
from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import solver.session as session_mod
from solver.errors import FileError, SleuthError, StaleError
from solver.records import atomic_write, start_record
from solver.session import Session, append_statement, log_statement, replace_statement
from tests.test_signals import BOUND, group
from tests.test_writers import HEADER, LIT, ROOT, sleuth, turn_lines

EDITED = "turn: Cleo   # saved in an editor"


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    return path


@pytest.fixture
def editor_saves_during_the_check(record, monkeypatch):
    """The first consistency check of a change is slow enough for an editor to save the
    record meanwhile: here the editor's save happens inside it."""
    real = session_mod.check_record
    calls = []

    def check(rec):
        if not calls:
            with open(record, "a", encoding="utf-8") as f:
                f.write(EDITED + "\n")
        calls.append(rec)
        return real(rec)

    monkeypatch.setattr(session_mod, "check_record", check)
    return calls


def test_log_does_not_write_over_an_editors_save_made_during_its_check(
        record, editor_saves_during_the_check):
    """It is checked again against the record as the editor left it, and both lines stay."""
    log_statement(str(record), "turn: Ben")
    assert turn_lines(record) == [EDITED, "turn: Ben"]
    append_statement(str(record), "turn: Dev")
    assert len(editor_saves_during_the_check) == 3          # checked twice, then once


def test_log_refuses_when_an_editor_saves_during_every_check(record, monkeypatch):
    """Checked again up to three times, then refused with a message quoting the statement;
    every line the editor saved is kept."""
    real = session_mod.check_record

    def check(rec):
        with open(record, "a", encoding="utf-8") as f:
            f.write(EDITED + "\n")
        return real(rec)

    monkeypatch.setattr(session_mod, "check_record", check)
    with pytest.raises(StaleError) as got:
        log_statement(str(record), "turn: Ben")
    assert str(got.value).startswith(f"{record}: not saved: the record changed on disk")
    assert str(got.value).endswith(": 'turn: Ben'")
    assert turn_lines(record) == [EDITED] * 3


def test_replace_does_not_write_over_an_editors_save_made_during_its_check(
        record, editor_saves_during_the_check, monkeypatch):
    record.write_text(HEADER + "turn: Ben\n")
    replace_statement(str(record), 5, "turn: Dev")
    assert turn_lines(record) == ["turn: Dev", EDITED]


def test_play_and_serve_refuse_a_line_whose_check_an_editor_saved_over(
        record, editor_saves_during_the_check):
    """The session's line is refused as stale (the editor's lines kept), it reloads, and the
    same line typed again is saved after them."""
    s = Session(str(record))
    out = s.handle("turn: Ben")
    assert out.kind == "refused" and isinstance(out.error, StaleError), out
    assert "changed on disk" in str(out.error) and str(record) in str(out.error)
    assert str(out.error).endswith(": 'turn: Ben'")
    assert turn_lines(record) == [EDITED]
    assert s.text == record.read_text()
    assert s.handle("turn: Ben", expect=s.version).kind == "accepted"
    assert turn_lines(record) == [EDITED, "turn: Ben"]


def test_atomic_write_with_a_base_refuses_a_file_that_moved_on(record):
    with pytest.raises(StaleError):
        atomic_write(str(record), HEADER + "turn: Ben\n", base=HEADER + "turn: Dev\n")
    assert record.read_text() == HEADER
    assert [p.name for p in record.parent.iterdir()] == ["game.txt"]     # no temporary
    atomic_write(str(record), HEADER + "turn: Ben\n", base=HEADER)
    assert turn_lines(record) == ["turn: Ben"]


def test_a_held_claim_survives_a_failed_save_of_its_shown_line(tmp_path, monkeypatch):
    """``play`` holds a wrong Literature claim until its ``shown`` line; a save of the two
    that fails (a full disk) kept neither: the claim typed earlier was dropped."""
    lines = LIT.read_text().splitlines(keepends=True)
    claim = lines[41].split("#")[0].strip()
    shown = lines[42].split("#")[0].strip()
    path = tmp_path / "lit.txt"
    path.write_text("".join(lines[:41]))
    s = Session(str(path))
    assert s.handle(claim).kind == "pending"
    real = session_mod.atomic_write

    def full(p, text, **kw):
        raise FileError.from_os(OSError(errno.ENOSPC, "No space left on device"), p,
                                "save the file")

    monkeypatch.setattr(session_mod, "atomic_write", full)
    out = s.handle(shown)
    assert out.kind == "refused" and "disk is full" in str(out.error)
    assert path.read_text() == "".join(lines[:41]) + f"# held: {claim}\n"     # still held
    monkeypatch.setattr(session_mod, "atomic_write", real)
    out = s.handle(shown)
    assert out.kind == "accepted", out
    assert path.read_text() == "".join(lines[:41]) + f"{claim}\n{shown}\n"


# ----- a new record's header carries no smuggled line --------------------------------------

@pytest.mark.parametrize("option", [
    ("--me", "Ana\nturn: Ben"),
    ("--dealer", "Cleo\rturn: Ana"),
    ("--variant", "sneak\nturn: Ben"),
    ("--header", "x=1\u2028turn: Ben"),
    ("--header", "turn=Ben"),                   # a statement's first word as a header key
    ("--header", "Ana asks Ben 5*=1"),
])
def test_new_refuses_a_header_value_that_would_add_a_line(tmp_path, option):
    path = tmp_path / "game.txt"
    r = sleuth("new", "mystery-hand", path, "--players", "Ana Ben Cleo", *option)
    assert r.returncode == 2, r.stdout
    assert r.stderr.startswith("sleuth: error: ") and "nothing was written" in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr
    assert not path.exists()


def test_the_new_game_form_refuses_a_field_that_would_add_a_line(tmp_path):
    """serve's New game form writes the header with the same function as ``sleuth new``."""
    from web.app import start_game

    path = tmp_path / "game.txt"
    for form in ({"game": "mystery-hand", "players": "Ana Ben Cleo", "me": "Ana\nturn: Ben"},
                 {"game": "mystery-hand", "players": "Ana Ben Cleo", "extra": "turn=Ben"}):
        with pytest.raises(SleuthError) as got:
            start_game(str(path), form)
        assert "nothing was written" in str(got.value)
        assert not path.exists()
    start_record(str(path), "mystery-hand", "Ana Ben Cleo", me="Ana")
    assert path.read_text() == "game: mystery-hand\nplayers: Ana Ben Cleo\nme: Ana\n"


# ----- SIGTERM stops as Ctrl-C does; serve's Ctrl-C too ----------------------------------

EIGHT = ROOT / "samples" / "mystery-hand" / "eight-players-no-exact-request.txt"


def started(*args, **kwargs) -> subprocess.Popen:
    """``python -m cli.main ARGS`` (the program itself) in a process group of its own."""
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.Popen([sys.executable, "-m", "cli.main", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, **kwargs)


def ended(p: subprocess.Popen, sig: int) -> tuple[int, str]:
    """Send ``sig`` to ``p`` alone (as ``kill`` does); its exit status and standard error,
    failing if it (or a process it left holding its output) runs on for :data:`BOUND` s."""
    os.kill(p.pid, sig)
    try:
        err = p.communicate(timeout=BOUND)[1]
    except subprocess.TimeoutExpired:       # (the group's workers hold its output open)
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        err = None
    assert err is not None, f"still running (or its workers) {BOUND} s after the signal"
    left = group(p.pid)
    deadline = time.monotonic() + 1.0
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = group(p.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes left running: {left}"
    err = err.decode() if isinstance(err, bytes) else err
    assert "Traceback" not in err
    return p.returncode, err


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="/proc")
def test_sigterm_stops_replay_and_its_workers():
    p = started("replay", EIGHT, "--jobs", "2")
    t0 = time.monotonic()
    while len(group(p.pid)) < 3:
        assert p.poll() is None and time.monotonic() - t0 < 60, "no workers started"
        time.sleep(0.05)
    time.sleep(0.5)
    code, err = ended(p, signal.SIGTERM)
    assert code == 143 and err.splitlines() == ["sleuth: terminated"], (code, err)


def test_sigterm_ends_play_and_says_the_record_is_as_last_saved(record):
    p = started("play", record, "--no-sheet", stdin=subprocess.PIPE)
    p.stdin.write(b"turn: Ben\n")
    p.stdin.flush()
    t0 = time.monotonic()
    while "turn: Ben" not in record.read_text():
        assert p.poll() is None and time.monotonic() - t0 < 60, "the line was not saved"
        time.sleep(0.05)
    code, err = ended(p, signal.SIGTERM)
    assert code == 143 and err.splitlines() == ["sleuth: terminated; the record is as last "
                                                "saved"], (code, err)
    assert turn_lines(record) == ["turn: Ben"]


def test_sigterm_stops_a_cp_sat_search_at_once(tmp_path):
    """The program's CP-SAT solver is stopped by a SIGTERM as by a Ctrl-C (it searched on
    to its time limit, a minute here, before the program could end)."""
    script = tmp_path / "search.py"
    script.write_text(
        "import os, signal, sys, time\n"
        "import cli.main as m\n"
        "m._sigterm_owner = os.getpid()\n"
        "signal.signal(signal.SIGTERM, m.on_sigterm)\n"
        "from solver.model import cp_model\n"
        "model = cp_model.CpModel()\n"
        "xs = [model.NewIntVar(0, 100, f'x{i}') for i in range(60)]\n"
        "for a, b in zip(xs, xs[1:]):\n"
        "    model.Add(a != b)\n"
        "model.AddAllDifferent(xs[:50])\n"
        "model.Maximize(sum((i % 7) * x for i, x in enumerate(xs)))\n"
        "s = cp_model.CpSolver()\n"
        "s.parameters.max_time_in_seconds = 60.0\n"
        "s.parameters.num_workers = 1\n"
        "print('searching', flush=True)\n"
        "try:\n"
        "    s.Solve(model)\n"
        "except m.Terminated:\n"
        "    print('terminated', flush=True)\n")
    p = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.stdout.readline().strip() == "searching"
    time.sleep(0.5)
    t0 = time.monotonic()
    os.kill(p.pid, signal.SIGTERM)
    try:
        out, err = p.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail("the search went on after the SIGTERM")
    assert out.strip() == "terminated", err
    assert time.monotonic() - t0 < BOUND


def serve_and_log(record) -> subprocess.Popen:
    """``sleuth serve`` on ``record`` with one line logged through its page's request."""
    p = started("serve", record, "--port", "0")
    url = p.stdout.readline().decode().strip()
    with urllib.request.urlopen(url, timeout=60) as r:
        tok = re.search(r'name="sleuth-token" content="([^"]*)"', r.read().decode()).group(1)
    with urllib.request.urlopen(url + "version", timeout=60) as r:
        version = json.loads(r.read())["version"]
    req = urllib.request.Request(url + "do", method="POST",
                                 data=json.dumps({"line": "turn: Ben",
                                                  "version": version}).encode(),
                                 headers={"Content-Type": "application/json",
                                          "X-Sleuth-Token": tok})
    with urllib.request.urlopen(req, timeout=120) as r:
        assert json.loads(r.read())["saved"] is True
    return p


@pytest.mark.parametrize("sig, code, line", [
    (signal.SIGINT, 130, "sleuth: interrupted; the record is as last saved"),
    (signal.SIGTERM, 143, "sleuth: terminated; the record is as last saved")])
def test_serve_stops_as_every_command_does(record, sig, code, line):
    """docs/reliability.md, "Ctrl-C means stop": exit 130 and the one line, also for serve
    (it ended with exit 0; on SIGTERM it was killed by the signal, its hint process left)."""
    p = serve_and_log(record)
    got, err = ended(p, sig)
    assert got == code and err.splitlines() == [line], (got, err)
    assert turn_lines(record) == ["turn: Ben"]


# ----- undo, edit and delete typed against a record another writer has changed ------------

@pytest.mark.parametrize("line", ["undo", "delete 6", "edit 6 turn: Cleo"])
def test_play_does_not_undo_or_edit_another_writers_line(record, line):
    """``play``'s ``undo`` removed the last statement on disk, which another writer had
    just saved; ``edit N``/``delete N`` acted on line N after an editor had inserted a line
    above it.  The session reloads and refuses; typed again (now against what it shows) it
    is done."""
    s = Session(str(record))
    assert s.handle("turn: Ben").kind == "accepted"              # line 5
    assert s.handle("turn: Dev").kind == "accepted"              # line 6
    if line == "undo":
        log_statement(str(record), "turn: Ana   # another terminal")
    else:                                                         # above line 6
        record.write_text(HEADER + "turn: Cleo   # an editor\nturn: Ben\nturn: Dev\n")
    before = record.read_bytes()
    out = s.handle(line)
    assert out.kind == "refused" and isinstance(out.error, StaleError), out
    assert out.reloaded and "changed on disk" in str(out.error)
    assert record.read_bytes() == before
    assert s.handle(line).kind in ("undone", "deleted", "edited")


def test_play_undoes_and_edits_as_before_when_only_lines_below_moved(record):
    s = Session(str(record))
    for stmt in ("turn: Ben", "turn: Dev"):
        assert s.handle(stmt).kind == "accepted"
    log_statement(str(record), "turn: Ana   # another terminal")
    out = s.handle("edit 6 turn: Cleo")                 # line 6 is what the session showed
    assert out.kind == "edited" and out.reloaded
    assert turn_lines(record) == ["turn: Ben", "turn: Cleo", "turn: Ana   # another terminal"]
    assert s.handle("undo").kind == "undone"            # the edit, undone (nothing moved since)
    assert turn_lines(record) == ["turn: Ben", "turn: Dev", "turn: Ana   # another terminal"]
    out = s.handle("undo")          # the last statement is another writer's: said first
    assert out.kind == "refused" and "line 7: turn: Ana" in str(out.error), out
    assert s.handle("undo").kind == "undone"            # typed again: removed
    assert turn_lines(record) == ["turn: Ben", "turn: Dev"]


@pytest.mark.parametrize("number", ["５", "1_0", "+5", "٥",
                                    pytest.param("9" * 5000, id="5000-digits")])
def test_a_line_number_is_written_0_9(record, number):
    """``int()`` read ``edit ５ ...`` as line 5 and ``edit 1_0`` as line 10: a line number,
    as every number of a record, is written with the digits 0-9."""
    record.write_text(HEADER + "".join(f"turn: {p}\n" for p in ("Ben", "Cleo") * 3))
    before = record.read_bytes()
    s = Session(str(record))
    for line in (f"edit {number} turn: Dev", f"delete {number}"):
        out = s.handle(line)
        assert out.kind == "refused" and "0-9" in str(out.error), (line, out)
    with pytest.raises(SleuthError):
        replace_statement(str(record), number, "turn: Dev")
    r = sleuth("log", record, "--replace", number, "turn: Dev")
    assert r.returncode == 2 and "0-9" in r.stderr and f"'{number[:40]}'" in r.stderr, r.stderr
    if len(number) > 1:         # thousands of digits: int() raised (an internal error)
        s._sync()
        record.write_text(HEADER + "turn: Ben\n")
        assert s.handle(f"delete {number}").kind == "refused"
        record.write_bytes(before)
    assert record.read_bytes() == before


# ----- a held claim is never dropped by a line that saved nothing; log's is play's --------

def literature_before_the_wrong_claim(tmp_path) -> tuple[Path, str, str, str]:
    lines = LIT.read_text().splitlines(keepends=True)
    claim = lines[41].split("#")[0].strip()
    shown = lines[42].split("#")[0].strip()
    path = tmp_path / "lit.txt"
    path.write_text("".join(lines[:41]))
    return path, "".join(lines[:41]), claim, shown


def test_play_does_not_save_over_a_record_that_lost_lines(tmp_path):
    """An editor saving in place (the file truncated, then written in parts) while play
    saves: play read the half-written file as the record and saved over it, and the
    editor's second part went to the file play had replaced; statements saved before were
    gone, and play said "saved". A record that lost lines since play last read it is not
    saved over: the line is refused once, and saved when typed again."""
    path, before, claim, shown = literature_before_the_wrong_claim(tmp_path)
    s = Session(str(path))
    lines = before.splitlines(keepends=True)
    half = "".join(lines[: len(lines) // 2])
    path.write_text(half)                                   # the editor's first part
    out = s.handle("turn: Ana")
    assert out.kind == "refused" and "lost lines" in str(out.error), out
    assert path.read_text() == half
    path.write_text(before)                                 # the editor's save, whole
    out = s.handle(claim)
    assert out.kind in ("accepted", "pending", "refused")
    assert path.read_text().startswith(before)


def test_the_same_claim_held_by_play_and_by_log_is_one_claim(tmp_path):
    """Two recorders hold the same wrong claim, ``play`` in its session and ``log`` as a
    ``# held:`` line: its ``shown`` line in ``play`` wrote both statements and left the
    ``# held:`` line above them, a claim still held that was already in the record.  Now
    both hold it as the one ``# held:`` line: the second recorder's claim is no second one
    (either way round)."""
    path, before, claim, shown = literature_before_the_wrong_claim(tmp_path)
    s = Session(str(path))
    assert s.handle(claim).kind == "pending"
    assert log_statement(str(path), claim).held == claim
    assert path.read_text() == before + f"# held: {claim}\n"
    assert s.handle(claim).kind == "pending"
    assert path.read_text() == before + f"# held: {claim}\n"
    out = s.handle(shown)
    assert out.kind == "accepted", out.error
    assert path.read_text() == before + f"{claim}\n{shown}\n"


def test_a_claim_held_by_log_is_resolved_in_play_and_serve(tmp_path):
    """``log`` keeps a wrong claim as a ``# held:`` line; its ``shown`` line typed in
    ``play`` or on a page of ``serve`` was refused ("a 'shown' line follows the claim it
    resolves"), so the game's true lines could not be entered there."""
    path, before, claim, shown = literature_before_the_wrong_claim(tmp_path)
    assert log_statement(str(path), claim).held == claim
    s = Session(str(path))
    out = s.handle(shown, expect=s.version)
    assert out.kind == "accepted", out.error
    assert path.read_text() == before + f"{claim}\n{shown}\n"


@pytest.mark.parametrize("typed", ["shown 9C-AC Ben QC", "shwn 9C-AC: Ben QC"])
def test_a_held_claim_stays_held_when_its_shown_line_is_refused(tmp_path, typed):
    """A mistyped ``shown`` line (or one that is no statement at all) dropped the held
    claim: typing the line right then was refused, the claim typed earlier lost."""
    path, before, claim, shown = literature_before_the_wrong_claim(tmp_path)
    s = Session(str(path))
    assert s.handle(claim).kind == "pending"
    out = s.handle(typed)
    assert out.kind == "refused" and "dropped" not in out.message, out
    assert path.read_text() == before + f"# held: {claim}\n"
    assert s.handle(shown).kind == "accepted"
    assert path.read_text() == before + f"{claim}\n{shown}\n"


# ----- a smuggled line is refused with its file, line and column -----------------------------

@pytest.mark.parametrize("char", ["\n", "\r", "\x0b", "\u2028"])
def test_a_statement_holding_a_line_break_names_file_line_and_column(record, char):
    r = sleuth("log", record, f"turn: Ben{char}me: Ben")
    assert r.returncode == 2 and f"{record}:5:10: " in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and record.read_text() == HEADER
    out = Session(str(record)).handle(f"turn: Ben # a{char}me: Ben")
    assert out.kind == "refused" and str(out.error).startswith(f"{record}: "), out.error
    assert "column 14" in str(out.error)


def test_sigterm_while_the_program_loads_is_one_line():
    """From the first statement of the cli package on (as for Ctrl-C), not a silent death
    by the signal; the handler of the loaded program takes over in ``main``."""
    code = ("import os, signal, sys, time\n"
            "sys.argv = ['sleuth']\n"
            "import cli\n"
            "os.kill(os.getpid(), signal.SIGTERM)\n"
            "time.sleep(10)\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 143 and r.stderr == "sleuth: terminated\n", (r.returncode, r.stderr)


def test_replace_is_not_re_aimed_when_an_editor_moves_its_line(record, monkeypatch):
    """``log --replace N`` decided on line N as it was: an editor inserting a line above it
    during the check made the retry replace another statement."""
    record.write_text(HEADER + "turn: Ben\nturn: Dev\n")
    real = session_mod.check_record
    calls = []

    def check(rec):
        if not calls:
            record.write_text(HEADER + EDITED + "\nturn: Ben\nturn: Dev\n")
        calls.append(rec)
        return real(rec)

    monkeypatch.setattr(session_mod, "check_record", check)
    with pytest.raises(StaleError) as got:
        replace_statement(str(record), 6, "turn: Ana")
    assert "line 6 or a line above it changed" in str(got.value)
    assert str(got.value).endswith(": 'turn: Ana'")
    assert turn_lines(record) == [EDITED, "turn: Ben", "turn: Dev"]


def test_a_refused_edit_keeps_the_held_claim(tmp_path):
    path, before, claim, shown = literature_before_the_wrong_claim(tmp_path)
    s = Session(str(path))
    assert s.handle(claim).kind == "pending"
    assert s.handle("edit 9999 turn: Ana").kind == "refused"
    assert path.read_text() == before + f"# held: {claim}\n"
    assert s.handle(shown).kind == "accepted"
    assert path.read_text() == before + f"{claim}\n{shown}\n"


@pytest.mark.parametrize("after", ["pass", "time.sleep(5)"])
def test_a_ctrl_c_python_drops_still_stops_the_command(tmp_path, after):
    """A Ctrl-C landing in a weakref callback of the import machinery is "unraisable":
    Python printed "Exception ignored ... KeyboardInterrupt" and the command went on (a
    ``log`` saved and exited 0).  It is sent again, or the command ends as interrupted."""
    script = tmp_path / "dropped.py"
    script.write_text(
        "import sys, time, weakref\n"
        "sys.argv = ['sleuth', 'rules']\n"
        "import cli.main as m\n"
        "def command(*args, **kwargs):\n"
        "    class A:\n"
        "        pass\n"
        "    def callback(ref):\n"
        "        raise KeyboardInterrupt\n"
        "    x = A()\n"
        "    ref = weakref.ref(x, callback)\n"
        "    del x\n"
        f"    {after}\n"
        "    print('went on')\n"
        "    sys.exit(0)\n"
        "m.cli.main = command\n"
        "m.main()\n")
    r = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True,
                       timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 130 and r.stderr == "sleuth: interrupted\n", (r.returncode, r.stderr)
    assert r.stdout in (("", "went on\n") if after == "pass" else ("",))   # (raised again
    # at once, or the command had ended first)


def test_one_devices_yes_does_not_log_anothers_correction(record):
    """serve's pages share one session: device A's typo left its one correction there, and
    device B's 'y' (or an empty line) logged it, a statement A had not confirmed."""
    s = Session(str(record))
    assert s.handle("turn: Bne", expect=s.version).kind == "refused"     # device A
    for line in ("y", ""):                                                # device B
        assert s.handle(line, expect=s.version).kind in ("refused", "empty")
    assert record.read_text() == HEADER
    for line in ("turn: Ben", "Ben asks Cleo 5*: 0", "turn: Ben"):
        assert s.handle(line, expect=s.version).kind == "accepted"
    out = s.handle("Ben asks Cleo 5*: 2", expect=s.version)             # A: a contradiction
    assert out.kind == "refused" and out.error.exit_code == 3
    before = record.read_bytes()
    assert s.handle("force", expect=s.version).kind == "refused"        # B
    assert record.read_bytes() == before
    record.write_text(HEADER)
    s.reread()                                              # (an editor's change, read)
    assert s.handle("turn: Bne").kind == "refused"          # play: 'y' takes its correction
    assert s.handle("y").kind == "accepted"
    assert turn_lines(record) == ["turn: Ben"]
