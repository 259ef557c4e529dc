"""The counting programme's memory (docs/counting.md, "Limits"): the tables held lean (the
transitions as next-state indices, the states packed, the forward values at checkpoints
and counted again when read, the backward values of the marginals alone) give the same
figures, bit for bit, as the tables held in full; a programme dropped between the steps of
a replay is freed before the next one is built."""
from __future__ import annotations

import gc
import random
import weakref

import numpy as np
import pytest

from solver.model import CardLocationModel, reuse
from solver.model.counting import (Plan, Programme, all_in_chances, cache, exact_count,
                                   possible_sets, simplify)
from solver.model.counting import tuning
from solver.model.counting.programme import table_bytes
from tests.test_counting import mystery_hand_model, tune

SEEDS = range(6)


def _programme(model, **changes) -> Programme:
    with tuning.tuned(**changes):
        return Programme(Plan(simplify(model)), False, residues=False)


def _same(a, b) -> None:
    assert np.array_equal(np.asarray(a), np.asarray(b)), (a, b)


@pytest.mark.parametrize("kernel", [True, False])
@pytest.mark.parametrize("seed", SEEDS)
def test_lean_tables_give_the_same_figures(seed, kernel, monkeypatch):
    m, _ = mystery_hand_model(seed)
    tune(monkeypatch, use_kernel=kernel, prune_states=0)
    full = _programme(m, full_tables=1 << 60)
    lean = _programme(m, full_tables=0)
    T = len(full.plan.order)
    # what is held: next-state indices alone, and (compiled) checkpoints and packed keys
    compact = [t for t, v in dict.items(lean.kept_transitions) if isinstance(v, np.ndarray)]
    assert compact and not any(isinstance(v, np.ndarray)
                               for v in dict.values(full.kept_transitions))
    if kernel and tuning.KERNEL is not None:
        assert any(list.__getitem__(lean.fwd, t) is None for t in range(T))
        assert any(isinstance(list.__getitem__(lean.keys, t), tuple) for t in range(T))
        assert table_bytes(lean) < table_bytes(full)
    assert lean.total == full.total and lean.raw_total == full.raw_total
    for t in range(T):
        for x, y in zip(lean.transitions(t), full.transitions(t)):
            _same(x, y)
    # the marginals' backward pass drops what they do not read: the same cell masses
    lean.backward(full=False)
    full.backward()
    assert lean.cell_mass == full.cell_mass and lean.rounding == full.rounding
    assert lean.column_mass() == full.column_mass()
    for t in range(T + 1):
        _same(lean.keys[t], full.keys[t])
        _same(lean.fwd[t], full.fwd[t])
    lean.backward()             # the backward values counted again, in full
    for t in range(T + 1):
        _same(lean.bwd[t], full.bwd[t])
    draws = [dp.sample_counts(300, np.random.default_rng(seed), random.Random(seed))
             for dp in (lean, full)]
    _same(*draws)


@pytest.mark.parametrize("seed", SEEDS)
def test_lean_counts_and_candidates_are_the_same(seed):
    m, _ = mystery_hand_model(seed)
    answers = []
    for size in (1 << 60, 0):
        cache.forget_last()
        with tuning.tuned(full_tables=size, prune_states=0):
            c = exact_count(m, exact_total=False, apart="mystery")
            dp = cache.last_programme(m)[2]
            if not size and tuning.KERNEL is not None:
                # the marginals made, the values are dropped (counted again when read)
                T = len(dp.plan.order)
                assert all(list.__getitem__(dp.fwd, t) is None for t in range(1, T))
                assert not dp.bwd_full and all(b is None for b in dp.bwd)
            events = [([k], ["mystery"]) for k in list(c.marginals)[:5]]
            answers.append((c.total, c.marginals, c.rounding,
                            possible_sets(m, "mystery", top=10),
                            all_in_chances(m, events)))
    cache.forget_last()
    assert answers[0] == answers[1]


def test_a_replaced_programme_is_freed_before_the_next_is_built(monkeypatch):
    """Within a reuse block (a replay's worker), the count of the previous step is
    dropped before the next one's programme is built, not after: the two are never held
    at once (and nothing but the block and the last count holds a programme: no cycle)."""
    models = [mystery_hand_model(s)[0] for s in (0, 1)]
    built: list[weakref.ref] = []
    alive_at_build: list[int] = []
    init = Programme.__init__

    def watch(self, *args, **kwargs):
        if args and args[0].prune:      # (not a plan's own suffix programme)
            alive_at_build.append(sum(r() is not None for r in built))
            built.append(weakref.ref(self))
        init(self, *args, **kwargs)

    monkeypatch.setattr(Programme, "__init__", watch)
    cache.forget_last()
    gc.disable()
    try:
        with reuse.reusing():
            for m in models:
                exact_count(m, exact_total=False)
    finally:
        gc.enable()
        cache.forget_last()
    assert len(built) == 2 and alive_at_build == [0, 0]


def test_forget_other_keeps_the_same_models_programme():
    m = CardLocationModel(list("abcdef"), {"P": 2, "Q": 2, "R": 2})
    m.add(["a", "b"], ["P"], 1, 1)
    cache.forget_last()
    exact_count(m)
    kept = cache.last_programme(m)
    assert kept is not None
    cache.forget_other(m)
    assert cache.last_programme(m) is kept
    other = CardLocationModel(list("abcdef"), {"P": 3, "Q": 3})
    cache.forget_other(other)
    assert cache.last_programme(m) is None


@pytest.mark.parametrize("args", [dict(exact_ints=True), dict(exact_total=True)])
def test_transitions_kept_as_indices_in_exact_and_residue_counts(args):
    """Python integers and residues (no forward values dropped there): the transitions
    kept as next-state indices give the same exact totals and marginals."""
    m, _ = mystery_hand_model(1)
    got = []
    for size in (1 << 60, 0):
        with tuning.tuned(full_tables=size, prune_states=0):    # (dead states dropped)
            c = exact_count(m, **args)
        got.append((c.total, c.marginals, c.rounding))
    cache.forget_last()
    assert got[0] == got[1]
