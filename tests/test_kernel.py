"""The compiled step (``solver/model/_kernel.pyx``) against the numpy code it replaces.

Both must give the same transitions in the same order, the same states, and the same
counts and marginals up to the order of float additions (the rounding bound covers both).
"""
from __future__ import annotations

import shutil
import sysconfig

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from solver.model import counting
from solver.model.counting import Plan, Programme, exact_count, simplify
from tests.test_counting import models, mystery_hand_model, tune


def _has_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


@pytest.mark.skipif(not _has_compiler(), reason="no C compiler: the numpy code is used")
def test_the_kernel_is_built_where_a_compiler_is():
    """With a C compiler, ``pip install -e .`` builds the kernel (setup.py) and the
    counting uses it."""
    assert counting.KERNEL is not None, "solver.model._kernel was not built"


needs_kernel = pytest.mark.skipif(counting.KERNEL is None, reason="kernel not built")


def _programme(model, pow2: bool):
    plan = Plan(simplify(model))
    if plan.pow2 != pow2:
        if not pow2:
            plan._steps(plan._future_bounds(), plan.dims_of, False)
        else:
            pytest.skip("the keys need the mixed radix")
    return plan


def _both(model, pow2, monkeypatch):
    plan = _programme(model, pow2)
    got = Programme(plan, False, residues=False)
    tune(monkeypatch, use_kernel=False)
    plan2 = _programme(model, pow2)
    want = Programme(plan2, False, residues=False)
    monkeypatch.undo()
    return got, want


def _same_programme(got: Programme, want: Programme):
    assert len(got.keys) == len(want.keys)
    for t, (a, b) in enumerate(zip(got.keys, want.keys)):
        assert np.array_equal(a, b), f"states after step {t}"
        np.testing.assert_allclose(got.fwd[t], want.fwd[t], rtol=1e-13)
    assert got.total == pytest.approx(want.total, rel=1e-13)   # exact below 2**53
    got.backward()
    want.backward()
    for t in range(len(got.bwd)):
        np.testing.assert_allclose(got.bwd[t], want.bwd[t], rtol=1e-13)
    assert got.cell_mass.keys() == want.cell_mass.keys()
    for c in got.cell_mass:
        assert got.cell_mass[c] == pytest.approx(want.cell_mass[c], rel=1e-12, abs=1e-300)
    assert got.delta_fwd == want.delta_fwd


def _same_draws(dp: Programme, monkeypatch, n: int = 500):
    """The kernel's draws (``Programme._sample_floats``) are numpy's, draw for draw, with the
    same random numbers."""
    got = dp.sample_counts(n, np.random.default_rng(11), None)
    with monkeypatch.context() as mp:
        tune(mp, use_kernel=False)
        want = dp.sample_counts(n, np.random.default_rng(11), None)
    assert np.array_equal(got, want)
    # and the deals made of them: a merged column's split (split_merged) as numpy's
    prob, plan = dp.plan.prob, dp.plan
    deals = counting.deals_from_counts(prob, plan, got, np.random.default_rng(12))
    with monkeypatch.context() as mp:
        tune(mp, use_kernel=False)
        deals_np = counting.deals_from_counts(prob, plan, got, np.random.default_rng(12))
    assert np.array_equal(deals, deals_np)
    return bool(plan.merges)


def _same_expansions(dp: Programme, monkeypatch):
    """Every step's transitions from the stored states, and which states the dead-state
    check keeps (the programmes here are below PRUNE_STATES: the check is run on each
    step's states directly): the kernel's and numpy's."""
    checked = 0
    for t in range(len(dp.plan.steps)):
        a = dp._expand(t, dp.keys[t])
        alive = dp._alive(t + 1, a[2])
        with monkeypatch.context() as mp:
            tune(mp, use_kernel=False)
            b = dp._expand(t, dp.keys[t])
            alive_np = dp._alive(t + 1, b[2])
        for x, y, what in zip(a, b, ("source", "k", "next state", "binomial")):
            assert np.array_equal(x, y), f"step {t}: {what}"
        assert (alive is None) == (alive_np is None)
        if alive is not None:
            assert np.array_equal(alive, alive_np), f"step {t}: dead states"
            checked += int((~alive).sum())
    return checked


@needs_kernel
@pytest.mark.parametrize("pow2", [True, False])
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(model=models)
def test_the_kernel_gives_the_numpy_programme(model, pow2, monkeypatch):
    try:
        got, want = _both(model, pow2, monkeypatch)
    except counting.Infeasible:
        return
    _same_programme(got, want)
    _same_expansions(got, monkeypatch)
    if got.total:
        _same_draws(got, monkeypatch)


@needs_kernel
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("pow2", [True, False])
def test_the_kernel_on_mystery_hand_views(seed, pow2, monkeypatch):
    """Statements on four-card sets over eight hands: saturated sums, merged columns,
    cut digits and dead states all occur."""
    model, _ = mystery_hand_model(seed)
    got, want = _both(model, pow2, monkeypatch)
    _same_programme(got, want)
    assert _same_expansions(got, monkeypatch) > 0, "no dead state found to compare"
    assert _same_draws(got, monkeypatch, 4000), "no merged column to split"
    a = exact_count(model)
    tune(monkeypatch, use_kernel=False)
    b = exact_count(model)
    assert a.total == b.total
    for card, locs in b.marginals.items():
        assert a.marginals[card].keys() == locs.keys()
        for loc, p in locs.items():
            assert a.marginals[card][loc] == pytest.approx(p, rel=1e-12)


@needs_kernel
@pytest.mark.parametrize("seed", [1, 2, 3, 5])
@pytest.mark.parametrize("pow2", [True, False])
def test_the_kernel_names_the_last_card_as_numpy_does(seed, pow2, monkeypatch):
    """The backward pass of a programme whose full location forgets its tags one card
    short (``Programme.composition_counts``): the kernel's ``backward_step`` and
    ``last_card_step`` over the kept transitions give the numpy code's compositions and
    counts to the last bit (the same products, added in the same order)."""
    from tests.test_counting import _tagged_programme

    m, where = mystery_hand_model(seed)
    for i, c in enumerate(m.cards):     # a mid-game view: a third of the deck seen
        if where[c] != "mystery" and i % 3 == 0:
            m.place(c, where[c])
    tune(monkeypatch, bit_fields=pow2)
    dp = _tagged_programme(m, "mystery", True)
    assert dp.plan.pow2 == pow2 and dp.kept_transitions, "no transitions kept"
    assert any(e[4].any() for e in dp.entries), "no state cut one card short"
    counts, packed, _ = dp.composition_counts()
    tune(monkeypatch, use_kernel=False)
    counts_np, packed_np, _ = dp.composition_counts()
    assert np.array_equal(packed, packed_np)
    assert np.array_equal(counts, counts_np)
