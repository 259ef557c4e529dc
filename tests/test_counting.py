"""Exact counting of consistent deals (solver.model.counting) against brute force.

Brute force enumerates every deal with the right location sizes (numpy, vectorised) and
keeps those meeting every constraint.  Marginals must agree to 1e-12, totals exactly,
and zeros/ones must be exact (decided by the support, never by rounding).
"""
from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.model import CardLocationModel
from solver.model.counting import (Counting, OverBudget, all_in_chances, clamp_to_support,
                                   count_deals, estimate, exact_count, location_sets,
                                   sample_deals)
from solver.model.counting import tuning
from solver.model.witness import find_deal, satisfies

# ----------------------------------------------------------------------------------------
# brute force


def tune(monkeypatch, **changes) -> None:
    """The counting tuning with ``changes`` for the rest of the test."""
    monkeypatch.setattr(tuning, "CURRENT", dataclasses.replace(tuning.CURRENT, **changes))


def all_deals(n: int, sizes: list[int]) -> np.ndarray:
    """Every assignment of n cards to locations 0..L-1 with the given sizes: (D, n)."""
    deals = np.full((1, n), -1, dtype=np.int8)
    for li, size in enumerate(sizes):
        nfree = n - sum(sizes[:li])
        if size == 0:
            continue
        combos = np.array(list(combinations(range(nfree), size)), dtype=np.intp).reshape(-1, size)
        # free positions of each partial deal, in order
        F = np.argsort(deals != -1, axis=1, kind="stable")[:, :nfree]
        rep = np.repeat(deals, len(combos), axis=0)
        pos = F[:, combos].reshape(-1, size)          # (D * m, size)
        rows = np.repeat(np.arange(len(rep)), size)
        rep[rows, pos.ravel()] = li
        deals = rep
    return deals


def consistent_deals(model: CardLocationModel) -> np.ndarray:
    n = len(model.cards)
    sizes = [model.sizes[l] for l in model.locations]
    if sum(sizes) != n:
        return np.zeros((0, n), dtype=np.int8)
    D = all_deals(n, sizes)
    ok = np.ones(len(D), dtype=bool)
    for con in model.constraints:
        if con.lo > con.hi:
            ok[:] = False
            continue
        cnt = np.zeros(len(D), dtype=np.int64)
        for ci, li in con.terms:
            cnt += D[:, ci] == li
        ok &= (cnt >= con.lo) & (cnt <= con.hi)
    return D[ok]


def brute(model):
    D = consistent_deals(model)
    marg = {}
    for ci, c in enumerate(model.cards):
        row = {}
        for li, l in enumerate(model.locations):
            k = int((D[:, ci] == li).sum())
            if k:
                row[l] = k / len(D)
        marg[c] = row
    return len(D), marg


def brute_sets(model, loc):
    D = consistent_deals(model)
    li = model.loc_index(loc)
    cnt = Counter(frozenset(model.cards[i] for i in np.flatnonzero(row == li)) for row in D)
    items = sorted(cnt.items(), key=lambda kv: (-kv[1], tuple(sorted(map(repr, kv[0])))))
    return len(cnt), [(s, c / len(D)) for s, c in items]


def assert_marginals(model, got: Counting, want: dict, tol=1e-12):
    for c in model.cards:
        a, b = got.marginals.get(c, {}), want.get(c, {})
        assert set(a) == set(b), (c, a, b)           # exact support: zeros are zeros
        for l in b:
            assert abs(a[l] - b[l]) <= tol, (c, l, a[l], b[l])
        if len(b) == 1:
            assert list(a.values()) == [1.0]            # certainties are exactly 1


# ----------------------------------------------------------------------------------------
# random models


def build_model(seed: int, n: int, nlocs: int, ncons: int) -> CardLocationModel:
    """Random sizes, and random constraints: facts, counts of sets in one location,
    counts over several locations; mostly true of a hidden deal (so usually
    consistent), sometimes random."""
    rnd = random.Random(seed)
    while True:
        sizes = [0] * nlocs
        for _ in range(n):
            sizes[rnd.randrange(nlocs)] += 1
        if math.factorial(n) // math.prod(math.factorial(s) for s in sizes) <= 300_000:
            break
    names = [f"L{i}" for i in range(nlocs)]
    cards = [f"c{i:02d}" for i in range(n)]
    m = CardLocationModel(cards, dict(zip(names, sizes)))
    deal = [li for li, s in enumerate(sizes) for _ in range(s)]
    rnd.shuffle(deal)
    for _ in range(ncons):
        kind = rnd.random()
        if kind < 0.25:                                  # a fact
            c, l = rnd.randrange(n), rnd.randrange(nlocs)
            v = int(deal[c] == l) if rnd.random() < 0.85 else rnd.randrange(2)
            m.add([cards[c]], [names[l]], v, v)
            continue
        k = rnd.randrange(2, min(n, 5) + 1)
        cs = rnd.sample(range(n), k)
        nl = 1 if kind < 0.6 else rnd.randrange(2, nlocs)  # one location / several
        ls = rnd.sample(range(nlocs), nl)
        true = sum(1 for c in cs if deal[c] in ls)
        if rnd.random() < 0.85:
            lo, hi = true - rnd.randrange(2), true + rnd.randrange(2)
        else:
            lo = rnd.randrange(k + 1)
            hi = lo + rnd.randrange(2)
        m.add([cards[c] for c in cs], [names[l] for l in ls], lo, hi)
    return m


models = st.builds(
    lambda seed, nl, ncons: build_model(seed, {3: 8 + seed % 7, 4: 8 + seed % 5}[nl], nl, ncons),
    st.integers(0, 10 ** 6), st.sampled_from([3, 4]), st.integers(0, 9))

SETTINGS = settings(max_examples=45, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------------------
# exact counting


@SETTINGS
@given(models)
def test_exact_marginals_equal_brute_force(model):
    total, marg = brute(model)
    fast = exact_count(model)                   # float64 + residues
    oracle = exact_count(model, exact_ints=True)
    assert fast.total == total and oracle.total == total
    assert isinstance(fast.total, int) and isinstance(oracle.total, int)
    if total:
        assert fast.exact and oracle.exact and fast.method == "dp"
        assert_marginals(model, fast, marg)
        assert_marginals(model, oracle, marg)
        assert fast.rounding < 1e-12 and oracle.rounding == 0.0
    else:
        assert fast.marginals == {} and not fast.consistent


@SETTINGS
@given(models)
def test_big_int_and_float_agree(model):
    f = exact_count(model)
    i = exact_count(model, exact_ints=True)
    assert f.total == i.total
    for c in model.cards:
        a, b = f.marginals.get(c, {}), i.marginals.get(c, {})
        assert set(a) == set(b)
        for l in a:
            assert abs(a[l] - b[l]) <= 1e-13 * max(b[l], 1e-300) + 1e-15


@settings(max_examples=30, deadline=None, derandomize=True)
@given(models, st.integers(0, 3))
def test_location_sets_equal_brute_force(model, which):
    loc = model.locations[which % len(model.locations)]
    n_sets, best = brute_sets(model, loc)
    res = location_sets(model, loc, top=6)
    if n_sets == 0:
        assert res == (0, [])
        return
    count, top = res
    assert count == n_sets
    assert [s for s, _ in top] == [s for s, _ in best[:6]]
    for (_, p), (_, q) in zip(top, best):
        assert abs(p - q) <= 1e-12


@SETTINGS
@given(models, st.integers(0, 3))
def test_witness_deal_is_sound(model, seed):
    """find_deal (sleuth log's solver-free check) never calls an inconsistent model
    consistent: a deal it returns meets every constraint, False means brute force finds
    none; on these small models it decides every consistent one."""
    total, _ = brute(model)
    deal = find_deal(model, seed=seed)
    if deal is False:
        assert total == 0
    elif deal is not None:
        assert total > 0 and satisfies(model, deal)
        D = consistent_deals(model)
        row = [model.loc_index(deal[c]) for c in model.cards]
        assert (D == np.array(row, dtype=D.dtype)).all(axis=1).any()
    if total:
        assert deal, "a consistent small model should be decided by the search"
    assert model.is_consistent() == (total > 0)
    assert (model.conflict() is None) == (total > 0)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(models)
def test_draws_from_the_kept_float_tables_are_uniform(model):
    """After an exact count, sample_deal_rows(exact_ints=False) draws from that count's own
    float tables (the Mystery Hand's estimated candidates): every drawn deal is consistent
    and the drawn sets of one location follow the exact set distribution (loose bound,
    fixed seed)."""
    from solver.model.counting import sample_deal_rows

    total, _ = brute(model)
    if not total:
        return
    exact_count(model)
    rows = sample_deal_rows(model, 6000, 5, max_states=None, exact_ints=False)
    D = consistent_deals(model)
    seen = {tuple(row) for row in D.tolist()}
    assert rows.shape == (6000, len(model.cards))
    assert all(tuple(row) in seen for row in rows.tolist())
    assert_sets_follow(model, rows, model.locations[0])
    # only one location's cards placed (``at``): the same distribution of its sets
    loc = model.locations[-1]
    part = sample_deal_rows(model, 6000, 6, max_states=None, exact_ints=False, at=loc)
    assert set(np.unique(part).tolist()) <= {-1, model.loc_index(loc)}
    assert ((part >= 0).sum(axis=1) == model.sizes[loc]).all()
    assert_sets_follow(model, part, loc)


def assert_sets_follow(model, rows, loc):
    """The sets of ``loc`` in the drawn deals follow the exact set distribution (loose
    bound: four standard deviations)."""
    _, best = brute_sets(model, loc)
    li = model.loc_index(loc)
    n = len(rows)
    freq = Counter(frozenset(model.cards[i] for i in np.flatnonzero(row == li))
                   for row in rows)
    for sset, p in best:
        assert abs(freq.get(sset, 0) / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-3


def test_no_constraints_is_the_multinomial():
    cards = [f"k{i}" for i in range(52)]
    sizes = {f"P{i}": 6 for i in range(8)} | {"mystery": 4}
    m = CardLocationModel(cards, sizes)
    r = count_deals(m)
    assert r.exact and r.total == math.factorial(52) // (math.factorial(6) ** 8 * 24)
    assert r.marginals["k0"]["mystery"] == pytest.approx(4 / 52, abs=1e-15)


def test_inconsistent_and_degenerate_models():
    m = CardLocationModel(["a", "b"], {"P": 1, "Q": 2})        # sizes do not add up
    assert count_deals(m).total == 0
    m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1})
    m.add(["a", "b"], ["P"], 2, 2)                              # impossible
    r = count_deals(m)
    assert r.exact and r.total == 0 and r.marginals == {}
    assert location_sets(m, "P") == (0, [])
    with pytest.raises(ValueError):
        sample_deals(m, 3, 0)
    m = CardLocationModel([], {"P": 0})
    assert count_deals(m).total == 1
    m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 2})
    m.add(["a"], ["P"], 1, 1)
    assert location_sets(m, "P") == (1, [(frozenset({"a"}), 1.0)])
    assert location_sets(m, "Q") == (1, [(frozenset({"b", "c"}), 1.0)])


def test_over_budget_raises_for_exact_count():
    m = build_model(3, 12, 4, 6)
    with pytest.raises(OverBudget):
        exact_count(m, max_states=1)
    assert location_sets(m, "L0", max_states=1) is None


# ----------------------------------------------------------------------------------------
# a realistic Mystery Hand model: 52 cards, 8 players x 6, mystery 4, no face-up cards

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def mystery_hand_model(seed: int) -> tuple[CardLocationModel, dict]:
    """The view of player P0, who knows its own hand, after a few queries on 4-card sets
    (ranges of one suit and ranks; MH-9): ask-one counts (E1c), one ask-all (E3), the
    MH-11 bounds on the askers, and one exact request (E4)."""
    rnd = random.Random(seed)
    cards = [r + s for s in SUITS for r in RANKS]
    players = [f"P{i}" for i in range(8)]
    sizes = {p: 6 for p in players} | {"mystery": 4}
    m = CardLocationModel(cards, sizes)
    deck = cards[:]
    rnd.shuffle(deck)
    where = {}
    for i, p in enumerate(players):
        for c in deck[6 * i: 6 * i + 6]:
            where[c] = p
    for c in deck[48:]:
        where[c] = "mystery"
    for c in cards:                                  # P0 knows its hand
        if where[c] == "P0":
            m.place(c, "P0")
        else:
            m.exclude(c, "P0")

    def query():
        if rnd.random() < 0.5:
            s, lo = rnd.choice(SUITS), rnd.randrange(10)
            return [RANKS[(lo + j) % 13] + s for j in range(4)]
        r = rnd.choice(RANKS)
        return [r + s for s in SUITS]

    def count(X, p):
        return sum(1 for c in X if where[c] == p)

    for _ in range(3):                               # ask-one between other players
        A, B = rnd.sample(players[1:], 2)
        X = query()
        m.add(X, [B], count(X, B), count(X, B))
        m.add(X, [A], 0, 3)
    X = query()                                      # one ask-all by P3
    for p in players:
        if p != "P3":
            m.add(X, [p], count(X, p), count(X, p))
    r = count(X, "P3") + count(X, "mystery")
    m.add(X, ["P3", "mystery"], r, r)
    c = rnd.choice([c for c in cards if where[c] not in ("P0", "mystery")])
    m.place(c, where[c])                             # someone showed c (E4)
    return m, where


@pytest.mark.parametrize("seed", [1, 2])
def test_mystery_hand_model_counts_exactly_within_budget(seed):
    m, where = mystery_hand_model(seed)
    r = count_deals(m, max_states=200_000, time_budget=60.0)   # state budget binds, not time
    assert r.exact and r.method == "dp" and r.total > 0 and r.states <= 200_000
    for c in m.cards:
        assert sum(r.marginals[c].values()) == pytest.approx(1.0, abs=1e-12)
        assert r.marginals[c].get(where[c], 0) > 0           # the truth is possible
    for loc, size in m.sizes.items():
        assert sum(r.probability(c, loc) for c in m.cards) == pytest.approx(size, abs=1e-9)
    oracle = exact_count(m, exact_ints=True)
    assert oracle.total == r.total
    res = location_sets(m, "mystery", top=5, max_states=200_000)
    assert res is not None
    n, top = res
    truth = frozenset(c for c in m.cards if where[c] == "mystery")
    assert n >= len(top) >= 1
    assert [p for _, p in top] == sorted((p for _, p in top), reverse=True)
    # the candidates' probabilities agree with the card marginals when one hand is left
    if n == 1:
        assert top[0][0] == truth and top[0][1] == 1.0


def test_mystery_hand_sets_sum_to_one_when_few():
    m, where = mystery_hand_model(4)
    for i, c in enumerate(m.cards):     # reveal most of the deck: few candidates remain
        if where[c] != "mystery" and i % 3:
            m.place(c, where[c])
    n, top = location_sets(m, "mystery", top=10 ** 6)
    assert n == len(top)
    assert sum(p for _, p in top) == pytest.approx(1.0, abs=1e-12)
    r = count_deals(m)
    for c in m.cards:   # P(c in mystery) = sum of the candidates that contain it
        assert r.probability(c, "mystery") == pytest.approx(
            sum(p for s, p in top if c in s), abs=1e-12)


def test_the_tuning_reaches_the_programmes(monkeypatch):
    """The switches of ``Tuning`` are the ones the programmes run with: without the
    compiled kernel no call reaches it, the keys are bit fields unless told otherwise,
    transitions are kept up to ``keep_transitions``; the figures are the same."""
    class Unusable:             # the compiled kernel, made to fail on any use
        def __getattr__(self, name):
            raise AssertionError(f"the kernel's {name} was called")

    from solver.model.counting import Plan, Programme, simplify

    m = build_model(4, 10, 4, 5)
    want = exact_count(m)
    monkeypatch.setattr(tuning, "KERNEL", Unusable())
    with tuning.tuned(use_kernel=False):
        assert exact_count(m).marginals == want.marginals
    with pytest.raises(AssertionError, match="kernel's"):
        exact_count(m)
    monkeypatch.setattr(tuning, "KERNEL", None)
    assert Plan(simplify(m)).pow2
    with tuning.tuned(bit_fields=False, keep_transitions=0):
        plan = Plan(simplify(m))
        dp = Programme(plan, False)
        assert not plan.pow2 and not dp.kept_transitions
        assert_marginals(m, exact_count(m), want.marginals)
    assert Programme(Plan(simplify(m)), False).kept_transitions


def _tagged_programme(m, loc, collapse):
    from solver.model.counting import Plan, Programme
    from solver.model.counting.problem import location_problem

    prob, _, tags = location_problem(m, m.loc_index(loc))
    return Programme(Plan(prob, tags), False, residues=False, collapse=collapse)


@pytest.mark.parametrize("seed", [1, 2, 3, 5])
@pytest.mark.parametrize("way", ["compiled", "numpy", "mixed radix", "expanded again",
                                 "when full only", "one card known"])
def test_a_full_location_forgets_its_tags(seed, way, monkeypatch):
    """location_sets lets a state whose location has just been filled forget its tags, or
    (``COLLAPSE_EARLY``, a location of three cards or more) one card before (``COLLAPSE``;
    the compositions are read off the states where that happened and the merged states'
    completions, by the class of the last card): the same sets, count and probabilities
    as the programme that keeps the tags to the end, on Mystery Hand views, compiled and
    in numpy, with mixed-radix keys and with transitions expanded again instead of kept;
    and it does merge states."""

    m, where = mystery_hand_model(seed)
    for i, c in enumerate(m.cards):     # a mid-game view: a third of the deck seen
        if where[c] != "mystery" and i % 3 == 0:
            m.place(c, where[c])
    if way == "one card known":         # three cards to find
        m.place(next(c for c in m.cards if where[c] == "mystery"), "mystery")
    early = way != "when full only"
    tune(monkeypatch, collapse_early=early)
    if way == "numpy":
        tune(monkeypatch, use_kernel=False)
    elif way == "mixed radix":
        tune(monkeypatch, bit_fields=False)
    elif way == "expanded again":
        tune(monkeypatch, keep_transitions=0)
    merged, plain = (_tagged_programme(m, "mystery", c) for c in (True, False))
    assert merged.entries and sum(map(len, merged.keys)) < sum(map(len, plain.keys))
    # the forward values before the end are dropped as the programme goes (the entries
    # keep their own): a collapsed programme has no marginals
    assert all(f is None for f in merged.fwd[:-1]) and merged.fwd[-1] is not None
    with pytest.raises(RuntimeError, match="composition_counts"):
        merged.backward()
    # only the merged states' transitions are kept (the composition counts walk no other)
    if way != "expanded again":
        assert merged.kept_transitions
        for t, (src, *_rest) in merged.kept_transitions.items():
            assert merged._merged(t)[src].all()
        assert sum(len(x[0]) for x in merged.kept_transitions.values()) < sum(
            len(x[0]) for x in plain.kept_transitions.values())
    # the entries one card short, whose last card the backward pass names
    assert any(e[4].any() for e in merged.entries) == early
    assert merged.plan.pow2 == (way != "mixed radix")
    got = location_sets(m, "mystery", top=20)
    tune(monkeypatch, collapse=False)
    want = location_sets(m, "mystery", top=20)
    assert got[0] == want[0] > 20
    assert [s for s, _ in got[1]] == [s for s, _ in want[1]]
    for (_, p), (_, q) in zip(got[1], want[1]):
        assert p == pytest.approx(q, rel=1e-12)


# ----------------------------------------------------------------------------------------
# uniform sampling


def tiny_model():
    m = CardLocationModel(list("abcdefg"), {"P": 2, "Q": 2, "R": 3})
    m.add(["a", "b", "c"], ["P"], 1, 1)
    m.add(["c", "d"], ["Q", "R"], 1, 2)
    m.exclude("e", "R")
    return m


def lumped_model():
    """P and Q are in no statement: lumped into one column, split afterwards."""
    m = CardLocationModel(list("abcdefg"), {"P": 2, "Q": 2, "R": 3})
    m.add(["a", "b", "c", "d"], ["R"], 1, 2)
    m.exclude("e", "R")
    return m


@pytest.mark.parametrize("exact_ints,build", [(True, tiny_model), (False, tiny_model),
                                              (True, lumped_model)])
def test_sample_deals_uniform(exact_ints, build):
    m = build()
    D = consistent_deals(m)
    support = {tuple(int(x) for x in row) for row in D}
    n = 6000
    samples = sample_deals(m, n, np.random.default_rng(12345), exact_ints=exact_ints)
    idx = {l: i for i, l in enumerate(m.locations)}
    counts = Counter(tuple(idx[s[c]] for c in m.cards) for s in samples)
    assert set(counts) <= support                    # every sample is consistent
    assert len(counts) == len(support)               # and every deal shows up
    expected = n / len(support)
    chi2 = sum((counts[d] - expected) ** 2 / expected for d in support)
    df = len(support) - 1
    assert chi2 < df + 8 * math.sqrt(2 * df)         # very loose: cannot flake


def test_sample_deals_rng_kinds_and_determinism():
    m = tiny_model()
    a = sample_deals(m, 5, 7)
    assert a == sample_deals(m, 5, 7)
    assert len(sample_deals(m, 3, random.Random(1))) == 3
    assert len(sample_deals(m, 3, np.random.default_rng(1))) == 3


# ----------------------------------------------------------------------------------------
# estimates (over budget)


def estimate_model():
    m = build_model(11, 12, 4, 8)
    _, marg = brute(m)
    m.place("c03", max(marg["c03"], key=marg["c03"].get))    # a certainty
    assert brute(m)[0] > 100
    return m


def test_count_deals_falls_back_to_an_estimate_over_budget():
    m = estimate_model()
    r = count_deals(m, max_states=1, time_budget=0.3, rng=1)
    assert not r.exact and r.method == "sampled" and 0 < r.error < 1
    assert isinstance(r.total, float) and r.accepted > 0


def test_estimate_coverage_and_certainties():
    """``error`` is a pointwise 95 % half-width (the largest Wilson half-width over the
    pairs): every pair's interval covers the exact value in a clear majority of repeated
    runs, and about 95 % or more of all intervals cover.  Zeros and ones never move."""
    m = estimate_model()
    total, marg = brute(m)
    impossible = [(c, l) for c in m.cards for l in m.locations if l not in marg[c]]
    certain = [(c, next(iter(marg[c]))) for c in m.cards if len(marg[c]) == 1]
    assert impossible and certain
    pairs = [(c, l) for c in m.cards for l in m.locations]
    covered = Counter()
    runs = 20
    for seed in range(runs):
        r = estimate(m, time_budget=0.0, min_samples=3000, max_samples=3000, rng=seed)
        assert not r.exact and r.method == "sampled" and 0 < r.error < 0.1
        for c, l in impossible:
            assert l not in r.marginals[c]
        for c, l in certain:
            assert r.marginals[c][l] == 1.0
        for c, l in pairs:
            covered[c, l] += abs(r.probability(c, l) - marg[c].get(l, 0.0)) <= r.error
        assert abs(r.total - total) <= 0.25 * total
    assert min(covered[p] for p in pairs) >= 0.6 * runs
    assert sum(covered.values()) >= 0.93 * runs * len(pairs)


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(models, st.integers(0, 10 ** 6), st.sampled_from([1, 4, 16, 60]))
def test_an_estimate_proves_its_support_only_when_it_is_the_support(m, seed, states):
    """``estimate`` (forced by a tiny budget, few draws) reports ``support`` only where
    every pair the relaxed model allows was seen in an accepted deal: it is then exactly
    the set of possible pairs (brute force), never a pair more or less."""
    total, marg = brute(m)
    r = estimate(m, max_states=states, time_budget=0.0, min_samples=300, max_samples=300,
                 rng=seed, prove_support=True)
    assert estimate(m, max_states=states, time_budget=0.0, min_samples=30, max_samples=30,
                    rng=seed).support is None           # only when asked for
    if r.support is None:
        return
    assert total > 0 and r.accepted > 0
    assert r.support == {c: set(marg[c]) for c in m.cards}


def test_an_estimate_proves_the_support_of_8_player_views():
    """On the 8-player public views where the exposure's count is an estimate, the draws
    and the relaxed count prove the support (no CP-SAT needed): the same as CP-SAT's
    backbone."""
    from solver.mystery_hand.inference import build
    from solver.mystery_hand.simulate import simulate

    rec = simulate(8, [], 0)
    proved = 0
    for n in (16, 24):
        vm = build(rec.prefix(n), None)
        r = estimate(vm.model, max_states=150_000, time_budget=0, rng=n, min_samples=4000,
                     max_samples=4000, prove_support=True)
        assert not r.exact
        if r.support is not None:
            proved += 1
            assert r.support == vm.model.backbone().possible
    assert proved


def test_estimate_clamped_to_support():
    m = estimate_model()
    _, marg = brute(m)
    support = {c: set(ls) for c, ls in marg.items()}
    r = estimate(m, time_budget=0.0, min_samples=200, max_samples=200, rng=3,
                 support=support)
    for c in m.cards:
        assert set(r.marginals[c]) == support[c]
        if len(support[c]) == 1:
            assert list(r.marginals[c].values()) == [1.0]
        else:
            assert all(0 < p < 1 for p in r.marginals[c].values())
            assert sum(r.marginals[c].values()) == pytest.approx(1.0)


def test_clamp_to_support_after_the_fact():
    m = estimate_model()
    _, marg = brute(m)
    support = {c: set(ls) for c, ls in marg.items()}
    r = clamp_to_support(estimate(m, time_budget=0.0, min_samples=100, max_samples=100,
                                  rng=5), support)
    for c in m.cards:
        assert set(r.marginals[c]) == support[c]
        assert sum(r.marginals[c].values()) == pytest.approx(1.0)
    exact = exact_count(m)
    assert clamp_to_support(exact, support) is exact


# ----- the Markov chain fallback (solver.model.counting.mcmc) ---------------------------------------
def test_chain_marginals_agree_with_brute_force():
    """The chain's marginals are within its stated error of the exact ones (brute force) on
    small random models: every pair within twice the error, 95 % within it; impossible
    pairs are never visited and certain ones are exactly 1."""
    from solver.model.counting.mcmc import chain_marginals

    checked = within = 0
    for seed in range(12):
        m = build_model(seed, 7, 3, 4)
        total, marg = brute(m)
        if not total:
            continue
        start = find_deal(m)
        if not isinstance(start, dict):
            start = m.solution()
        r = chain_marginals(m, start, steps=30_000, seed=seed)
        assert r.method == "mcmc" and not r.exact and 0 < r.error < 0.2
        for c in m.cards:
            for l in m.locations:
                want = marg[c].get(l, 0.0)
                got = r.marginals[c].get(l, 0.0)
                if want == 0.0:
                    assert got == 0.0
                if want == 1.0:
                    assert got == 1.0
                assert abs(got - want) <= 2 * r.error, (seed, c, l, got, want)
                checked += 1
                within += abs(got - want) <= r.error
    assert checked > 100 and within >= 0.95 * checked


def test_estimate_falls_back_to_the_chain_when_no_draw_is_accepted(monkeypatch):
    """When rejection keeps no draw, the estimate comes from the chain (not 'error 1.0'),
    and it is deterministic."""
    from solver.model.counting import estimates

    m = estimate_model()
    _, marg = brute(m)
    monkeypatch.setattr(estimates, "accepted_mask",
                        lambda deals, sizes, checks: np.zeros(len(deals), dtype=bool))
    r = estimate(m, time_budget=0.0, min_samples=1000, max_samples=1000, rng=3)
    assert r.method == "mcmc" and 0 < r.error < 0.2
    again = estimate(m, time_budget=0.0, min_samples=1000, max_samples=1000, rng=3)
    assert again.marginals == r.marginals
    for c in m.cards:
        for l, want in ((l, marg[c].get(l, 0.0)) for l in m.locations):
            assert abs(r.probability(c, l) - want) <= 2 * r.error + 1e-9


def test_a_stretched_budget_counts_past_max_states_while_the_work_allows():
    from solver.model.counting import exact_count as count

    m = next(mm for mm in (build_model(s, 14, 4, 9) for s in range(200))
             if count(mm, exact_total=False).states >= 20)
    full = count(m, exact_total=False)
    peak = full.states
    with pytest.raises(OverBudget):
        count(m, max_states=peak - 1, exact_total=False)
    # more states than max_states, within the stretch: the same exact figures
    ok = count(m, max_states=peak - 1, exact_total=False, stretch=(peak, 10 ** 9))
    assert ok.exact and ok.total == full.total and ok.marginals == full.marginals
    with pytest.raises(OverBudget):      # the peak above the stretch
        count(m, max_states=peak - 1, exact_total=False, stretch=(peak - 1, 10 ** 9))
    with pytest.raises(OverBudget):      # the work above the stretch
        count(m, max_states=peak - 1, exact_total=False, stretch=(peak, peak))


# ----------------------------------------------------------------------------------------
# all_in_chances: P(every card of a set in some locations), one programme for all events
@SETTINGS
@given(models, st.integers(0, 10 ** 6), st.booleans())
def test_all_in_chances_match_brute_force(m, seed, counted_first):
    """Built for the events, or (``counted_first``) from the tables of the count just made
    when its classes and lumps already keep the events apart."""
    rnd = random.Random(seed)
    n, locs = len(m.cards), list(m.locations)
    groups = [rnd.sample(m.cards, rnd.randrange(1, min(n, 5) + 1)) for _ in range(3)]
    events = [(g, rnd.sample(locs, rnd.randrange(1, len(locs)))) for g in groups for _ in (0, 1)]
    if counted_first:
        exact_count(m)
    got = all_in_chances(m, events)
    D = consistent_deals(m)
    assert got is not None
    for (cards, where), p in zip(events, got):
        if not len(D):
            assert p == 0.0
            continue
        ok = np.ones(len(D), dtype=bool)
        for c in cards:
            ok &= np.isin(D[:, m.card_index(c)], [m.loc_index(l) for l in where])
        want = ok.sum() / len(D)
        if want == 0:
            assert p == 0.0                       # impossible is exactly 0
        elif want == 1:
            assert p == 1.0 or p == np.nextafter(1.0, 0.0)
        else:
            assert abs(p - want) <= 1e-12 and 0 < p < 1


def test_all_in_chances_over_budget_is_none():
    m = build_model(5, 12, 4, 6)
    assert all_in_chances(m, [([m.cards[0]], [m.locations[0]])], max_states=1) is None


# ----------------------------------------------------------------------------------------
# merged columns (the programme's dynamic lumping)


def merged_models(count: int = 40):
    """Random models whose counting programme merges columns (kept only when it does),
    with 3 to 5 locations."""
    from solver.model.counting import Infeasible, Plan, simplify

    out = []
    for seed in range(2000):
        nl = 3 + seed % 3
        m = build_model(seed, {3: 9, 4: 9, 5: 8}[nl] + seed % 3, nl, seed % 9)
        try:
            plan = Plan(simplify(m))
        except Infeasible:
            continue
        if plan.merges:
            out.append((m, plan))
            if len(out) == count:
                break
    return out


MERGED = merged_models()


def test_merged_columns_are_exercised():
    """The models below do merge columns, some more than once (a merged column merged
    again), some whose cells are in the same statements (a statement over both columns
    then sums the merged cells), and the programme with merges is smaller than without."""
    from solver.model.counting import Programme, Plan

    assert len(MERGED) == 40
    assert sum(len(p.merges) >= 2 for _, p in MERGED) >= 10
    assert sum(any(c[1] in p.parents for cs, _, _ in p.users for c in cs)
               for _, p in MERGED) >= 10
    smaller = 0
    for m, plan in MERGED:
        plain = Plan(plan.prob, merge=False)
        assert not plain.merges
        smaller += Programme(plan, False).work < Programme(plain, False).work
    assert smaller >= 20


@pytest.mark.parametrize("i", range(0, 40, 2))
def test_merged_columns_count_and_marginals_equal_brute_force(i):
    m, _ = MERGED[i]
    total, marg = brute(m)
    for ints in (False, True):
        r = exact_count(m, exact_ints=ints)
        assert r.total == total
        if total:
            assert_marginals(m, r, marg)


@pytest.mark.parametrize("i", range(1, 40, 4))
def test_merged_columns_draw_consistent_uniform_deals(i):
    """Draws split a merged column's cards over its parts as the space left at the merge
    says: every deal is consistent and one location's sets follow the exact distribution,
    from the float tables and from the exact integer ones."""
    from solver.model.counting import sample_deal_rows

    m, _ = MERGED[i]
    total, _ = brute(m)
    if not total:
        return
    D = consistent_deals(m)
    seen = {tuple(row) for row in D.tolist()}
    for ints in (False, True):
        exact_count(m)
        rows = sample_deal_rows(m, 5000, 3, max_states=None, exact_ints=ints)
        assert all(tuple(row) in seen for row in rows.tolist())
        for loc in m.locations:
            assert_sets_follow(m, rows, loc)


@pytest.mark.parametrize("i", range(3, 40, 4))
def test_merged_columns_sets_and_all_in_chances_equal_brute_force(i):
    m, _ = MERGED[i]
    D = consistent_deals(m)
    for loc in m.locations:
        n_sets, best = brute_sets(m, loc)
        res = location_sets(m, loc, top=5)
        if not n_sets:
            assert res == (0, [])
            continue
        assert res[0] == n_sets
        assert [s for s, _ in res[1]] == [s for s, _ in best[:5]]
    if not len(D):
        return
    locs = list(m.locations)
    events = [(m.cards[:k], locs[:j]) for k in (1, 2, 3) for j in (1, 2)]
    exact_count(m)
    for counted in (True, False):
        if not counted:
            from solver.model.counting.cache import forget_last

            forget_last()
        got = all_in_chances(m, events)
        for (cards, where), p in zip(events, got):
            ok = np.ones(len(D), dtype=bool)
            for c in cards:
                ok &= np.isin(D[:, m.card_index(c)], [m.loc_index(l) for l in where])
            want = ok.sum() / len(D)
            assert (p == 0.0) if want == 0 else abs(p - want) <= 1e-12


def test_groups_keep_locations_apart():
    """Locations of different groups (a model's teams) are never merged, so the chance
    that cards lie within a group comes from the count's own tables."""
    from solver.model.counting import Plan, simplify

    m, plan = MERGED[0]
    merged = {frozenset(plan.cols[v]) for v in plan.parents}
    m.groups = {l: i % 2 for i, l in enumerate(m.locations)}
    plan2 = Plan(simplify(m))
    for v in plan2.parents:
        assert len({m.groups[m.locations[li]] for li in plan2.cols[v]}) == 1
    assert merged != {frozenset(plan2.cols[v]) for v in plan2.parents}


# ----------------------------------------------------------------------------------------
# dead states dropped on the way (Plan.suffix_table, Plan.alive_spec)


@pytest.fixture
def prune_always(monkeypatch):
    """Check every step's states, however few (the analyses only check big steps)."""
    from solver.model.counting.cache import forget_last

    tune(monkeypatch, prune_states=0)
    forget_last()
    yield
    forget_last()


def pruned_models(count: int = 24):
    """Random models on which each kind of check drops states (half by the backward
    table alone, half by the space checks alone), with 3 to 5 locations."""
    from solver.model.counting import Programme, Infeasible, Plan, simplify

    out = {"suffix": [], "space": []}
    for seed in range(3000):
        nl = 3 + seed % 3
        m = build_model(seed, {3: 9, 4: 9, 5: 8}[nl] + seed % 3, nl, 3 + seed % 7)
        for kind in out:
            if len(out[kind]) >= count // 2:
                continue
            try:
                plan = Plan(simplify(m))
                if kind == "suffix":
                    plan.alive_spec = lambda b: None
                else:
                    plan.suffix_table = lambda b, states=0: None
                dp = Programme(plan, False)
            except Infeasible:
                continue
            if dp.pruned:
                out[kind].append(m)
        if all(len(v) >= count // 2 for v in out.values()):
            break
    return out["suffix"] + out["space"]


def test_pruning_is_exercised(prune_always):
    """Both kinds of check drop states on some models, and never change a count."""
    from solver.model.counting import Programme, Plan, simplify

    models = pruned_models()
    assert len(models) == 24
    for m in models:
        plan = Plan(simplify(m))
        dp = Programme(plan, True)
        with tuning.tuned(prune=False):
            plain = Programme(Plan(simplify(m)), True)
        assert dp.total == plain.total and dp.work < plain.work


def test_pruned_programmes_equal_brute_force(prune_always):
    """Counts and marginals (float and integer), uniform consistent draws, candidate sets
    and all-in chances with the checks on every step, against brute force."""
    from solver.model.counting import sample_deal_rows

    for m in pruned_models()[::2]:
        total, marg = brute(m)
        D = consistent_deals(m)
        for ints in (False, True):
            r = exact_count(m, exact_ints=ints)
            assert r.total == total
            if total:
                assert_marginals(m, r, marg)
        if not total:
            continue
        seen = {tuple(row) for row in D.tolist()}
        rows = sample_deal_rows(m, 3000, 5, max_states=None)
        assert all(tuple(row) in seen for row in rows.tolist())
        for loc in m.locations:
            n_sets, best = brute_sets(m, loc)
            res = location_sets(m, loc, top=5)
            assert res[0] == n_sets
            assert [s for s, _ in res[1]] == [s for s, _ in best[:5]]
        locs = list(m.locations)
        events = [(m.cards[:k], locs[:j]) for k in (1, 2, 3) for j in (1, 2)]
        for (cards, where), p in zip(events, all_in_chances(m, events)):
            ok = np.ones(len(D), dtype=bool)
            for c in cards:
                ok &= np.isin(D[:, m.card_index(c)], [m.loc_index(l) for l in where])
            want = ok.sum() / len(D)
            assert (p == 0.0) if want == 0 else abs(p - want) <= 1e-12


# ----------------------------------------------------------------------------------------
# the key layout: decided before the steps are worked out


def _keyed_model(classes: int) -> CardLocationModel:
    """``classes`` classes of 4 cards, each in a statement on one of two locations: in
    location order every class sum stays open over the first location."""
    cards = [f"c{i:03d}" for i in range(4 * classes)]
    m = CardLocationModel(cards, {"L0": 2 * classes, "L1": 2 * classes})
    for g in range(classes):
        m.add(cards[4 * g:4 * g + 4], ["L0"], 1, 3)
    return m


@pytest.mark.parametrize("classes, layout", [(10, "bits"), (22, "mixed"), (30, None)])
def test_the_key_layout_is_the_one_the_steps_can_pack(classes, layout, monkeypatch):
    """``Plan._fits`` says, for bit fields and for the mixed radix, exactly whether
    ``_steps`` packs every step's key below 2^62; the plan takes bit fields where they fit,
    else the mixed radix, else raises ``OverBudget`` (3 bits a class sum as bit fields,
    2.3 in mixed radix: 10 classes fit both ways, 22 only in mixed radix, 30 in neither)."""
    from solver.model.counting import Plan, simplify

    prob = simplify(_keyed_model(classes))
    order = sorted(prob.cells, key=lambda c: (c[1], c[0]))
    with monkeypatch.context() as mp:       # the plan without its steps
        mp.setattr(Plan, "_fits", lambda self, pow2: True)
        mp.setattr(Plan, "_steps", lambda self, *a: None)
        bare = Plan(prob, order=order)
    for pow2 in (True, False):
        try:
            bare._steps(bare._future_bounds(), bare.dims_of, pow2)
            packed = True
        except OverBudget:
            packed = False
        assert bare._fits(pow2) == packed == (layout == "bits" or (layout == "mixed"
                                                                    and not pow2))
    if layout is None:
        with pytest.raises(OverBudget):
            Plan(prob, order=order)
    else:
        assert Plan(prob, order=order).pow2 == (layout == "bits")


def _components(prob):
    """Classes linked by statements, directly or through other classes (test's own)."""
    comp = {r: {r} for r in range(len(prob.rows))}
    for cells, _, _ in prob.users:
        rs = {r for r, _ in cells}
        merged = set().union(*(comp[r] for r in rs))
        for r in merged:
            comp[r] = merged
    return comp


@SETTINGS
@given(models)
def test_components_are_placed_together(model):
    """The class order places the classes of one component (linked by statements) one
    after another, and counts the same as the interleaved order (COMPONENT_ORDER =
    False)."""
    import solver.model.counting as C

    try:
        prob = C.simplify(model)
        plan = C.Plan(prob, merge=False)
    except C.Infeasible:
        return
    comp = _components(prob)
    in_users = {r for cells, _, _ in prob.users for r, _ in cells}
    seq = []
    for r, _ in plan.order:
        if r in in_users and (not seq or seq[-1] != r):
            seq.append(r)
    seen, last = [], None
    for r in seq:
        k = frozenset(comp[r])
        if k != last:
            assert k not in seen, "a component was interrupted"
            seen.append(k)
            last = k
    a = exact_count(model)
    with tuning.tuned(component_order=False):
        b = exact_count(model)
    assert a.total == b.total
    for c in model.cards:
        x, y = a.marginals.get(c, {}), b.marginals.get(c, {})
        assert set(x) == set(y)
        for l in x:
            assert x[l] == pytest.approx(y[l], rel=1e-12)


def test_components_keep_a_hard_public_state_small():
    """The 8-player public view of the first target record's second game after 17
    statements: its classes interleaved by the fewest open statements needed 3.1 million
    states at the peak (23 s); a component at a time, 42 000."""
    from benchmarks.common import eight_player_games
    from solver.mystery_hand.inference import build

    written = dict(eight_player_games(2, 60, 0))[1]
    m = build(written["public"][1].prefix(17), None).model
    c = exact_count(m, exact_total=False, max_states=100_000)
    assert c.exact and c.states < 100_000


def test_cheap_public_state_gives_its_candidates_the_larger_budget():
    """The 8-player public view of the second target game after 32 statements: the plain
    count sums about 208 000 states over its steps, the candidates' tagged programme 1.85
    million, over the plain budget of location_sets (SETS_WORK x TAGGED_STATES) but within
    SETS_CHEAP_WORK, which a plain count that cheap is given."""
    from benchmarks.common import eight_player_games
    from solver.mystery_hand.inference import build

    written = dict(eight_player_games(2, 60, 0))[1]
    m = build(written["public"][1].prefix(32), None).model
    c = exact_count(m, exact_total=False)
    assert 0 < c.work <= tuning.DEFAULT.sets_cheap_base
    assert location_sets(m, "mystery", max_states=400_000) is None
    assert location_sets(m, "mystery", max_states=400_000,
                         base_work=10 * tuning.DEFAULT.sets_cheap_base) is None
    n, top = location_sets(m, "mystery", max_states=400_000, base_work=c.work)
    assert n == 58637 and len(top) == 10


def test_sets_not_tried_where_the_plain_count_alone_is_over_their_budget():
    """A plain count summing more states than the tagged programme may is not followed
    by the tagged programme (it sums more than the plain one): no sets, at once."""

    m = CardLocationModel(["a", "b", "c", "d"], {"M": 2, "P": 2})
    m.add(["a", "b"], ["M"], 1, 1)
    assert location_sets(m, "M")[0] == 4
    big = tuning.DEFAULT.sets_work * tuning.DEFAULT.tagged_states + 1
    assert location_sets(m, "M", base_work=big, base_states=big) is None
    assert location_sets(m, "M", base_work=big - 1, base_states=big)[0] == 4


def test_sets_tried_where_some_class_cannot_lie_in_the_location():
    """The 5-player public Sneak game (jokers count for the extra turn) of the benchmark
    corpus after 60 statements: the plain count sums 1.76 million states over its steps,
    over the tagged programme's budget, but some classes cannot lie in the mystery hand,
    and the tagged order, which places those first, sums 426 000: the sets are counted."""
    from benchmarks.run import GAMES
    from solver.mystery_hand.inference import build

    game = GAMES["mystery-hand"]()
    [(_, rec)] = game.records(5, ["sneak", "sneak-jokers-count-for-extra-turn"], 30, 1)
    [public] = [w for label, _, w in game.views(rec) if label == "public"]
    m = build(public.prefix(60), None).model
    c = exact_count(m, exact_total=False)
    # over the tagged budget (1 million)
    assert c.work > tuning.DEFAULT.sets_work * tuning.DEFAULT.tagged_states
    n, top = location_sets(m, "mystery", max_states=400_000, base_work=c.work,
                           base_states=c.raw_states)
    assert n > 0 and top


def _order_measure(order, groups, sizes, per_card):
    """The order searches' measure, computed directly: the sum over the steps of
    exp(weights of the groups of classes partly placed + per_card x cards placed)."""
    total, placed, cards = 0.0, set(), 0
    for r in order:
        placed.add(r)
        cards += sizes[r]
        open_ = sum(w for g, w in groups if g & placed and g - placed)
        total += math.exp(open_ + per_card * cards)
    return total


def test_component_order_is_the_cheapest_permutation():
    """``Plan._component_order`` finds the order of least measure (sum over the steps of
    exp(log ranges of open statements + COMPONENT_CARDS per card placed)): every
    permutation of a small component's classes, measured the same way, costs at least
    as much."""
    import itertools

    from solver.model.counting import Plan

    rng = random.Random(5)
    for _ in range(20):
        n = rng.randint(3, 6)
        users = [set() for _ in range(n)]
        logr = [rng.uniform(0.3, 2.0) for _ in range(6)]
        for i in range(6):
            for r in rng.sample(range(n), rng.randint(1, n)):
                users[r].add(i)
        sizes = [rng.randint(1, 3) for _ in range(n)]

        class P:
            prob = type("Prob", (), {"rows": [[0] * s for s in sizes]})

        groups = [({x for x in range(n) if i in users[x]}, logr[i]) for i in range(6)]

        def measure(order):
            return _order_measure(order, groups, sizes, tuning.DEFAULT.component_cards)

        got = Plan._component_order(P(), list(range(n)), users, logr)
        assert sorted(got) == list(range(n))
        best = min(measure(p) for p in itertools.permutations(range(n)))
        assert measure(got) == pytest.approx(best, rel=1e-12)


def test_beam_order_is_exact_when_the_beam_holds_every_subset():
    """``beam_order`` keeps each set of classes placed with its cheapest order: with a
    beam as wide as the most subsets of one size it is the exact search, so its order
    costs what ``cheapest_order``'s does (and both are permutations)."""
    from solver.model.counting.plan import beam_order, cheapest_order

    rng = random.Random(11)
    for _ in range(30):
        n = rng.randint(3, 8)
        spans = tuple(sorted({(sum(1 << j for j in rng.sample(range(n), rng.randint(2, n))),
                               round(rng.uniform(0.3, 2.0), 3)) for _ in range(rng.randint(1, 6))}))
        cards = tuple(rng.randint(1, 3) for _ in range(n))

        groups = [({j for j in range(n) if m >> j & 1}, x) for m, x in spans]

        def measure(order):
            return _order_measure(order, groups, cards, 0.1)

        exact = cheapest_order(spans, cards, 0.1)
        beam = beam_order(spans, cards, 0.1, math.comb(n, n // 2))
        assert sorted(beam) == list(range(n)) and sorted(exact) == list(range(n))
        assert measure(beam) == pytest.approx(measure(exact), rel=1e-12)
        narrow = beam_order(spans, cards, 0.1, 1)        # a greedy walk: never cheaper
        assert measure(narrow) >= measure(exact) * (1 - 1e-12)
