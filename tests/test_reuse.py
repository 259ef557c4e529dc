"""Reuse between analyses of consecutive prefixes (solver.model.reuse, issue 15): the same
figures as fresh analyses, fewer programmes."""
from __future__ import annotations

import pytest

import solver.model.counting as counting
import solver.replay as rp
from solver.games import PUBLIC, get_game
from solver.model import CardLocationModel
from solver.model.budget import Budget
from solver.model.reuse import Memo, current, reusing
from solver.records import read_record
from tests.test_counting import tune


def _model():
    m = CardLocationModel([f"c{i}" for i in range(12)], {"P": 3, "Q": 3, "R": 3, "S": 3})
    m.add(["c0", "c1", "c2", "c3"], ["P"], 1, 2)
    m.add(["c2", "c3", "c4", "c5"], ["Q"], 2, 2)
    m.add(["c5", "c6", "c7"], ["R"], 0, 1)
    return m


def test_an_implied_statement_reuses_the_programme():
    m = _model()
    fresh = counting.exact_count(m)
    with reusing() as r:
        a = counting.exact_count(m)
        assert r.memo.hits == 0 and len(r.memo.built) == 1
        # every card of the four lies in P or Q: implied, so the problem is the same
        m.add([f"c{i}" for i in range(12)], ["P", "Q", "R", "S"], 12, 12)
        b = counting.exact_count(m)
        assert r.memo.hits == 1
        m.add(["c8"], ["S"], 1, 1)          # a new fact: another problem
        c = counting.exact_count(m)
        assert r.memo.hits == 1
    assert current() is None
    assert a.marginals == b.marginals == fresh.marginals and a.total == b.total
    assert c.marginals != a.marginals


def test_a_programme_over_its_budget_is_remembered_under_its_settings(monkeypatch):
    m = _model()
    with reusing() as r:
        for _ in range(2):
            with pytest.raises(counting.OverBudget):
                counting.exact_count(m, max_states=2)
        assert r.memo.hits == 1 and len(r.memo.over) == 1
        # another setting of the module is another programme: built again
        tune(monkeypatch, prune_states=1)
        with pytest.raises(counting.OverBudget):
            counting.exact_count(m, max_states=2)
        assert r.memo.hits == 1 and len(r.memo.over) == 2
        # a larger budget is another programme too (it fits)
        assert counting.exact_count(m, max_states=10_000).exact


def test_a_clock_is_never_reused():
    m = _model()
    with reusing() as r:
        counting.exact_count(m, time_budget=10.0)
        counting.exact_count(m, time_budget=10.0)
        assert r.memo.hits == 0 and not r.memo.built


def test_candidate_sets_are_answered_once():
    m = _model()
    fresh = counting.location_sets(m, "P", top=3)
    with reusing() as r:
        a = counting.location_sets(m, "P", top=3)
        b = counting.location_sets(m, "P", top=3)
        assert r.memo.hits == 1
        c = counting.location_sets(m, "P", top=2)       # another question
        assert r.memo.hits == 1
    assert a == b == fresh and c[0] == a[0] and c[1] == a[1][:2]


def test_a_memo_goes_on_across_blocks():
    memo = Memo()
    m = _model()
    with reusing(memo):
        counting.exact_count(m)
    with reusing(memo):
        counting.exact_count(m)
    assert memo.hits == 1


def test_a_replay_that_reuses_gives_what_each_prefix_gives(monkeypatch):
    """Steps whose problem is the previous one's take its programme (or its failure: a
    small budget makes some steps estimates) and show exactly the fresh analysis."""
    memos = []

    class Spy(reusing):
        def __enter__(self):
            r = super().__enter__()
            memos.append(r.memo)
            return r

    monkeypatch.setattr(rp, "reusing", Spy)
    rec = read_record("samples/mystery-hand/eight-players-no-exact-request.txt")
    budget = Budget(max_states=3000)
    view = rec.header.me
    r = rp.replay(rec, [view], upto=16, budget=budget, jobs=1)
    assert memos and memos[0].hits >= 5 and memos[0].over
    game = get_game(rec.game)
    steps = r.views[view if view is not None else PUBLIC].steps
    assert any(not s.knowledge.exact for s in steps)
    for spec, step in zip(rp.steps(rec), steps):
        k = game.knowledge(spec.record, view, budget)
        assert (step.knowledge.exact, step.knowledge.certain, step.knowledge.summary) == \
            (k.exact, k.certain, k.summary), spec.index


def test_a_session_keeps_its_programmes_between_commands(tmp_path):
    import shutil

    from solver.session import Session

    path = tmp_path / "g.txt"
    shutil.copy("samples/mystery-hand/five-players-ana.txt", path)
    s = Session(str(path))
    first = s.analyze()
    assert s.memo.hits == 0 and s.memo.built
    again = s.analyze()
    assert s.memo.hits >= 1
    assert again.cards == first.cards and again.mystery.top == first.mystery.top
    assert current() is None                # only inside the session's commands
