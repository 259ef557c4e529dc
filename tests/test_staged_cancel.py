"""A cancelled deadline reaches a CP-SAT search already running (``Deadline.cancel`` stops
it through ``StopSearch``): ``sleuth serve`` drops the analysis of a stale version at once
instead of letting a search run to its own limit."""
from __future__ import annotations

import threading
import time

import pytest

from solver.lazy import CP_MODEL, LazyModule
from solver.model import budget
from solver.model.budget import Cancelled, TimeUp, cp_solver, within

cp_model = LazyModule(CP_MODEL)


def pigeonhole(n: int = 14):
    """n + 1 pigeons in n holes: infeasible, and slow to prove without presolve and
    symmetry (a minute or more at n = 14)."""
    m = cp_model.CpModel()
    x = {(i, j): m.NewBoolVar(f"x{i}_{j}") for i in range(n + 1) for j in range(n)}
    for i in range(n + 1):
        m.AddBoolOr([x[i, j] for j in range(n)])
    for j in range(n):
        for i in range(n + 1):
            for k in range(i + 1, n + 1):
                m.AddBoolOr([x[i, j].Not(), x[k, j].Not()])
    return m


def slow_solver(limit: float):
    s = cp_solver(cp_model, limit, "the test's search")
    s.parameters.num_workers = 1
    s.parameters.cp_model_presolve = False
    s.parameters.symmetry_level = 0
    return s


@pytest.fixture
def stops(monkeypatch):
    """Every ``stop_search`` call on a CP-SAT solver, recorded."""
    calls = []
    real = cp_model.CpSolver.stop_search

    def spy(self):
        calls.append(self)
        return real(self)

    monkeypatch.setattr(cp_model.CpSolver, "stop_search", spy)
    return calls


def test_a_cancel_stops_a_running_search(stops):
    out: dict = {}
    started = threading.Event()

    def analysis():
        with within(120) as d:
            out["deadline"] = d
            s = slow_solver(60.0)
            started.set()
            t0 = time.monotonic()
            try:
                s.Solve(pigeonhole())
            except TimeUp as e:
                out["error"] = e
            out["seconds"] = time.monotonic() - t0
            out["solver"] = s

    t = threading.Thread(target=analysis)
    t.start()
    assert started.wait(10)
    d = out["deadline"]
    end = time.monotonic() + 10
    while not d.solvers and time.monotonic() < end:     # the search has begun
        time.sleep(0.005)
    assert d.solvers
    d.cancel()
    t.join(30)
    assert not t.is_alive()
    assert isinstance(out["error"], Cancelled)
    assert "was stopped" in str(out["error"]) and "the test's search" in str(out["error"])
    assert out["solver"] in stops                    # the stop hook reached CP-SAT
    assert out["seconds"] < 5.0                      # a sanity bound, not a measurement
    assert not d.solvers


def test_a_search_under_a_cancelled_deadline_does_not_start(stops):
    with within(60) as d:
        assert d is not None
        d.cancel()
        s = slow_solver(60.0)
        t0 = time.monotonic()
        with pytest.raises(Cancelled):
            s.Solve(pigeonhole())
        assert time.monotonic() - t0 < 5.0
    assert not stops                                 # nothing was running to stop


def test_an_expired_deadline_cuts_the_search_to_the_time_left():
    with within(0.3):
        s = slow_solver(60.0)
        t0 = time.monotonic()
        with pytest.raises(TimeUp) as e:
            s.Solve(pigeonhole())
        assert not isinstance(e.value, Cancelled)
        assert time.monotonic() - t0 < 5.0


def test_without_a_deadline_a_solver_keeps_its_own_limit():
    assert budget.current() is None
    s = slow_solver(0.2)
    assert s.Solve(pigeonhole()) == cp_model.UNKNOWN      # its own limit: no TimeUp
    m = cp_model.CpModel()
    v = m.NewBoolVar("v")
    m.Add(v == 1)
    assert s.Solve(m) == cp_model.OPTIMAL
