"""Deadlines and counting memos are each thread's own, and an analysis can be cancelled
(``sleuth serve`` checks a change in one thread while it analyses in another, and a newer
version of the record stops the analysis of the old one)."""
from __future__ import annotations

import threading
import time

import pytest

from solver.model import budget, reuse
from solver.model.budget import Cancelled, TimeUp, within


def test_a_deadline_binds_only_its_own_thread():
    seen = {}
    inside = threading.Event()
    leave = threading.Event()

    def analysis():
        with within(0):
            inside.set()
            leave.wait(10)
            try:
                budget.check("the count")
            except TimeUp as e:
                seen["analysis"] = e

    t = threading.Thread(target=analysis)
    t.start()
    assert inside.wait(10)
    budget.check("a change's check")           # this thread has no deadline: no TimeUp
    assert budget.current() is None and budget.cap(5.0) == 5.0
    leave.set()
    t.join(10)
    assert isinstance(seen["analysis"], TimeUp)


def test_a_memo_is_its_own_threads():
    got = {}
    ready = threading.Event()
    leave = threading.Event()

    def other():
        with reuse.reusing():
            got["other"] = reuse.current()
            ready.set()
            leave.wait(10)

    t = threading.Thread(target=other)
    t.start()
    assert ready.wait(10)
    assert reuse.current() is None
    with reuse.reusing() as r:
        assert r.memo is not got["other"]
    leave.set()
    t.join(10)


def test_cancel_stops_the_analysis_at_its_next_check():
    out = {}
    started = threading.Event()

    def analysis():
        with within(60) as d:
            out["deadline"] = d
            started.set()
            end = time.monotonic() + 20
            try:
                while time.monotonic() < end:
                    budget.check("the count")
                    time.sleep(0.001)
            except TimeUp as e:
                out["error"] = e

    t = threading.Thread(target=analysis)
    t.start()
    assert started.wait(10)
    out["deadline"].cancel()
    t.join(30)
    assert isinstance(out.get("error"), Cancelled), out
    assert "newer version" in str(out["error"])


def test_serve_cancels_the_analysis_of_an_older_version(tmp_path):
    pytest.importorskip("starlette")
    from web.app import Engine

    path = tmp_path / "g.txt"
    path.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
                    "# a spectator's record\n")
    engine = Engine(str(path))
    stale = budget.Deadline(60)
    engine.running = ("0" * 16, stale)
    d = engine.act("turn: Ben", engine.version())
    assert d["kind"] == "accepted", d
    assert getattr(stale, "cancelled", False)
    with pytest.raises(Cancelled):
        stale.check()


def test_a_part_cut_by_the_enclosing_time_names_that_time():
    """A part (a stage) given less than its own time because the analysis has little left
    names the analysis's budget when it runs out ('within 0 s' told a user who gave
    --timeout 0.1 that the option was ignored)."""
    import time as _time

    import pytest as _pytest

    from solver.model.budget import TimeUp, check, part, within

    with within(0.1):
        _time.sleep(0.12)
        with part(5.0):
            with _pytest.raises(TimeUp) as e:
                check("the stage")
    assert e.value.seconds == 0.1 and "within 0.1 s" in str(e.value)
    with within(30):
        with part(0.0):
            with _pytest.raises(TimeUp) as e:
                check("the stage")
    assert e.value.seconds == 0.0           # its own time ran out: its own budget
