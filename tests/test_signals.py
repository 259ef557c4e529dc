"""Ctrl-C means stop (issue 48; docs/reliability.md, "Signals"): real ``sleuth`` processes
interrupted with a real SIGINT sent to their whole process group, as a terminal's Ctrl-C
is, while they are busy (an analysis inside CP-SAT, a replay or a review in worker
processes, a long check in ``play``).

Each must end with exit status 130 and one line on standard error (``sleuth: interrupted``,
``; the record is unchanged`` for a command that writes the record), no traceback, no
process of its group left running, the record byte for byte as it was; and it must end
promptly (a bound of :data:`BOUND` seconds, far above the fraction of a second it takes,
far below the seconds to minutes the busy commands would otherwise go on for).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.common import proc_stats

ROOT = Path(__file__).resolve().parent.parent
EIGHT = ROOT / "samples" / "mystery-hand" / "eight-players-no-exact-request.txt"
#: seconds a command may take to end after the SIGINT before the test fails
BOUND = 10.0

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg") or not os.path.isdir("/proc"),
                                reason="POSIX process groups and /proc")


def group(pgid: int) -> list[int]:
    """The running (not zombie) processes of process group ``pgid``."""
    return [pid for pid, fields in proc_stats().items()
            if int(fields[2]) == pgid and fields[0] != "Z"]


def sleuth(*args, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """``python -m cli.main ARGS`` in a process group of its own."""
    return subprocess.Popen([sys.executable, "-m", "cli.main", *map(str, args)], cwd=ROOT,
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def busy(p: subprocess.Popen, processes: int, settle: float = 0.5, limit: float = 60.0):
    """Wait until ``p``'s group has ``processes`` processes (the workers have started), then
    ``settle`` seconds more; fail if ``p`` ends first."""
    t0 = time.monotonic()
    while len(group(p.pid)) < processes:
        assert p.poll() is None, f"ended before it could be interrupted: {p.communicate()}"
        assert time.monotonic() - t0 < limit, "its worker processes never started"
        time.sleep(0.05)
    time.sleep(settle)
    assert p.poll() is None, "ended before it could be interrupted"


def interrupt(p: subprocess.Popen) -> tuple[int, str]:
    """Ctrl-C: SIGINT to the whole group; the exit status and standard error."""
    os.killpg(p.pid, signal.SIGINT)
    try:
        _, err = p.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"still running {BOUND} s after the SIGINT")
    return p.returncode, err.decode("utf-8", "replace")


def assert_stopped(p, code, err, line="sleuth: interrupted"):
    assert code == 130, err
    assert err.splitlines() == [line], err
    assert "Traceback" not in err
    left = group(p.pid)
    deadline = time.monotonic() + 1.0       # a killed worker is reaped by its parent
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = group(p.pid)
    assert left == [], f"processes left running: {left}"


@pytest.fixture(scope="module")
def slow_record(tmp_path_factory) -> Path:
    """A lossy eight-player Literature record whose analysis takes seconds in CP-SAT (its
    unseen history)."""
    path = tmp_path_factory.mktemp("signals") / "lossy-eight.txt"
    subprocess.run([sys.executable, "-m", "cli.main", "simulate", "literature", "--players",
                    "8", "--miss", "0.4", "--seed", "2", "-o", str(path)],
                   cwd=ROOT, check=True, capture_output=True)
    return path


def test_ctrl_c_stops_analyze_inside_the_solver(slow_record):
    """CP-SAT's own SIGINT handler made this exit 4 ("over the time or work budget")."""
    before = slow_record.read_bytes()
    p = sleuth("analyze", slow_record)
    busy(p, 1, settle=1.2)      # mid-analysis: it takes about 2 s after its imports
    code, err = interrupt(p)
    assert_stopped(p, code, err)
    assert slow_record.read_bytes() == before


def test_ctrl_c_stops_replay_and_its_workers():
    p = sleuth("replay", EIGHT, "--jobs", "2")
    busy(p, 3)
    code, err = interrupt(p)
    assert_stopped(p, code, err)


def test_ctrl_c_stops_review_and_its_workers():
    """The pool's shutdown waited for every prefix (minutes), and each worker printed its
    own KeyboardInterrupt traceback."""
    p = sleuth("review", EIGHT)
    busy(p, 3)
    code, err = interrupt(p)
    assert_stopped(p, code, err)


def test_ctrl_c_to_the_main_process_alone_stops_the_workers_too():
    """``kill -INT`` of the command itself (not its group): the workers are its to stop."""
    p = sleuth("review", EIGHT)
    busy(p, 3)
    os.kill(p.pid, signal.SIGINT)
    try:
        _, err = p.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        pytest.fail("still running after the SIGINT")
    assert_stopped(p, p.returncode, err.decode())


def test_ctrl_c_during_a_check_in_play_ends_it_and_keeps_the_record(slow_record, tmp_path):
    rec = tmp_path / "game.txt"
    rec.write_bytes(slow_record.read_bytes())
    p = sleuth("play", rec, "--no-sheet", stdin=subprocess.PIPE)
    p.stdin.write(b"sheet\n")       # the record's check, then its analysis: seconds
    p.stdin.flush()
    busy(p, 1, settle=2.0)
    code, err = interrupt(p)
    assert_stopped(p, code, err, "sleuth: interrupted; the record is unchanged")
    assert rec.read_bytes() == slow_record.read_bytes()


def test_the_interrupt_line_says_whether_the_record_was_saved(monkeypatch, capsys):
    """A command that writes the record says "unchanged" only while it has saved nothing
    (``play`` interrupted after a saved line: "as last saved")."""
    import solver.records
    from cli.main import interrupted

    monkeypatch.setattr(solver.records, "saved_in_this_process", set())
    old = signal.getsignal(signal.SIGINT)
    try:
        for command, saved, line in [
                ("log", False, "sleuth: interrupted; the record is unchanged"),
                ("play", True, "sleuth: interrupted; the record is as last saved"),
                ("analyze", True, "sleuth: interrupted"),
                (None, False, "sleuth: interrupted")]:
            if saved:
                solver.records.saved_in_this_process.add("game.txt")
            with pytest.raises(SystemExit) as e:
                interrupted(command)
            assert e.value.code == 130
            assert capsys.readouterr().err.splitlines() == [line]
            # a second Ctrl-C while the line is written and the workers reaped: ignored
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, old)


def test_a_ctrl_c_while_play_checks_a_statement_names_it(monkeypatch, capsys, tmp_path):
    """Ctrl-C while ``play`` checks a statement: the one line says which statement was not
    saved (it was dropped without a word); a command ('sheet') is not named."""
    import solver.records
    from cli.main import CHECKING, interrupted
    from cli.session import checked
    from solver.session import Session

    rec = tmp_path / "game.txt"
    rec.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n",
                   encoding="utf-8")
    session = Session(str(rec))
    seen = []
    monkeypatch.setattr(session, "handle", lambda line: seen.append(list(CHECKING)))
    checked(session, "Ana: ?")
    checked(session, "sheet")
    assert seen == [["Ana: ?"], []] and CHECKING == []
    monkeypatch.setattr(solver.records, "saved_in_this_process", set())
    old = signal.getsignal(signal.SIGINT)
    try:
        CHECKING[:] = ["Ana: ?"]
        with pytest.raises(SystemExit) as e:
            interrupted("play")
        assert e.value.code == 130
        assert capsys.readouterr().err.splitlines() == [
            "sleuth: interrupted; the record is unchanged (the line being checked was not "
            "saved: Ana: ?)"]
    finally:
        CHECKING.clear()
        signal.signal(signal.SIGINT, old)


def test_a_ctrl_c_while_the_command_line_is_read_is_ours_not_clicks(monkeypatch, capsys):
    """A Ctrl-C while Click parses the arguments or prints ``--help`` (before any command
    runs) ends as every other: one line and exit 130, not Click's "Aborted!" and exit 1."""
    import click

    from cli.main import main

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(click.Group, "make_context", interrupt)
    old = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as e:
            main(["--help"], end_process=False)
    finally:
        signal.signal(signal.SIGINT, old)
    assert e.value.code == 130
    assert capsys.readouterr().err.splitlines() == ["sleuth: interrupted"]


def test_a_sigint_stops_a_cp_sat_search_with_keyboard_interrupt():
    """In-process: a search the program's solver runs is stopped by SIGINT, which then is a
    KeyboardInterrupt (CP-SAT's own handler returned a status, as if out of time)."""
    import threading

    from solver.model import cp_model      # the program's lazy CP-SAT module

    m = cp_model.CpModel()
    xs = [m.NewIntVar(0, 100, f"x{i}") for i in range(60)]
    for a, b in zip(xs, xs[1:]):
        m.Add(a != b)
    m.AddAllDifferent(xs[:50])
    m.Maximize(sum((i % 7) * x for i, x in enumerate(xs)))
    s = cp_model.CpSolver()
    s.parameters.max_time_in_seconds = 60.0
    s.parameters.num_workers = 1
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            s.Solve(m)
            time.sleep(BOUND)       # (a status returned: the interrupt comes here, late)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert time.monotonic() - t0 < BOUND, "the search was not stopped"
    # the interrupt, caught here, is over: a search after it is not stopped (the watcher's
    # window, interrupt.STOP_FOR, had stopped the next test's searches in this process)
    from solver import interrupt

    stopped = []

    class Search:
        def stop_search(self):
            stopped.append(self)

    later = Search()
    with interrupt._lock:
        interrupt._searching.add(later)
    try:
        time.sleep(0.2)
    finally:
        with interrupt._lock:
            interrupt._searching.discard(later)
    assert not stopped, "a search after the interrupt was stopped"
