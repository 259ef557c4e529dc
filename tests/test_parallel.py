"""solver.parallel.beside: the side computation's value, error or bug arrives as it would
have sequentially; the main computation's error wins."""
import pytest

from solver.errors import InconsistentError, NotationError
from solver.parallel import beside


def _inconsistent():
    # a conflict's sentence is a function until read: it does not pickle
    raise InconsistentError("no deal fits the record", conflict=[3, 7],
                            reason=lambda: "line 3 says so")


def test_values_come_back_from_the_second_process():
    assert beside(lambda: [1, 2], lambda: {"a": (3, 4)}) == ([1, 2], {"a": (3, 4)}, None)


def test_an_error_that_does_not_pickle_keeps_its_message_and_exit_code():
    value, side, err = beside(lambda: "main", _inconsistent)
    assert (value, side) == ("main", None)
    assert "no deal fits the record" in str(err) and err.exit_code == 3
    # the sentence is read in the second process: the error keeps its class and lines
    assert isinstance(err, InconsistentError) and err.conflict == [3, 7]
    assert err.reason == "line 3 says so"


def test_the_main_error_propagates_and_a_side_bug_is_raised():
    def boom():
        raise NotationError("bad", text="x")

    with pytest.raises(NotationError):
        beside(boom, lambda: 1)
    with pytest.raises(RuntimeError, match="in the second process"):
        beside(lambda: 1, lambda: [][1])


def test_one_core_runs_them_one_after_the_other(monkeypatch):
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert beside(lambda: 1, lambda: 2) == (1, 2, None)
    assert beside(lambda: 1, _inconsistent)[2].exit_code == 3


def test_a_side_that_dies_is_a_bug_and_a_failing_main_stops_the_side(tmp_path):
    """A side process that ends without writing its answer is a bug of the caller's; a main
    computation that raises kills and reaps the side process before the error propagates."""
    import os
    import time

    with pytest.raises(RuntimeError, match="stopped without an answer"):
        beside(lambda: 1, lambda: os._exit(1))
    # the main computation fails while the side would run for a minute: the side process
    # is stopped and reaped (no child of this process is left)
    pids = tmp_path / "side"

    def slow_side():
        pids.write_text(str(os.getpid()))
        time.sleep(60)              # (left running, it would end by itself)

    def failing_main():
        while not pids.exists() or not pids.read_text():
            pass
        raise NotationError("bad", text="x")

    with pytest.raises(NotationError):
        beside(failing_main, slow_side)
    with pytest.raises(ChildProcessError):
        os.waitpid(int(pids.read_text()), os.WNOHANG)
