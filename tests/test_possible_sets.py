"""solver.model.counting.possible: the possible sets of a location, by bitsets over the plain
programme, and their probabilities, one float per bit: against brute force, against the
tagged programme (location_sets) on Mystery Hand views, compiled and in numpy."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model import counting
from solver.model.counting import (exact_count, location_sets, possible_compositions,
                                   possible_set_count, possible_sets)
from tests.test_counting import brute_sets, models, mystery_hand_model, tune

WAYS = ["compiled", "numpy", "expanded again", "mixed radix"]


@pytest.fixture
def way(request, monkeypatch):
    """The code paths: the compiled bitset passes, their numpy code, transitions expanded
    again instead of kept, and mixed-radix keys."""
    w = request.param
    if w == "numpy":
        tune(monkeypatch, use_kernel=False)
    elif w == "compiled" and counting.KERNEL is None:
        pytest.skip("no compiled kernel")
    elif w == "expanded again":
        tune(monkeypatch, keep_transitions=0)
    elif w == "mixed radix":
        tune(monkeypatch, bit_fields=False)
    return w


@settings(max_examples=40, deadline=None, derandomize=True)
@given(models, st.integers(0, 3))
def test_the_number_of_possible_sets_is_brute_force(model, which):
    """Every location of small random models (facts, counts over one or several
    locations, consistent or not): the number of sets it holds in some consistent deal,
    and the compositions are those of the sets brute force finds."""
    loc = model.locations[which % len(model.locations)]
    n_sets, _ = brute_sets(model, loc)
    assert possible_set_count(model, loc) == n_sets
    classes, comps = possible_compositions(model, loc)
    assert len(set(comps)) == len(comps)
    if n_sets:
        # each possible set's composition is listed, and no other
        of = {c: i for i, cs in enumerate(classes) for c in cs}
        li = model.loc_index(loc)
        from tests.test_counting import consistent_deals
        seen = {tuple(sorted(of[ci] for ci, l in enumerate(row) if l == li and ci in of))
                for row in consistent_deals(model).tolist()}
        assert set(comps) == seen


def same_sets(got, want, top):
    """The same number of sets and the same ``top`` sets, in order, with the same
    probabilities (to the rounding of floats)."""
    assert got[0] == want[0]
    assert [s for s, _ in got[1]] == [frozenset(s) for s, _ in want[1][:top]]
    assert [p for _, p in got[1]] == pytest.approx([p for _, p in want[1][:top]],
                                                   rel=1e-9, abs=0)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(models, st.integers(0, 3))
def test_the_sets_probabilities_are_brute_force(model, which):
    """Every location of small random models: the number of sets, the six most likely
    and their probabilities are brute force's, compiled and in numpy (ties in the
    order of the sorted reprs)."""
    loc = model.locations[which % len(model.locations)]
    want = brute_sets(model, loc)
    for compiled in {counting.KERNEL is not None, False}:
        with counting.tuned(use_kernel=compiled):
            got = possible_sets(model, loc, top=6)
        if not want[0]:
            assert got == (0, [])
        else:
            same_sets(got, want, 6)


@pytest.mark.parametrize("way", WAYS, indirect=True)
@pytest.mark.parametrize("seed,known", [(1, 0), (2, 0), (3, 1), (5, 2), (8, 3), (9, 0)])
def test_mystery_hand_views_agree_with_the_sets_programme(seed, known, way):
    """52-card Mystery Hand views (8 hands of 6 and a mystery hand of 4, queries on
    ranges and ranks; ``known`` of the mystery hand's cards placed, so 4 to 1 to find):
    the same number of hands, top ten and probabilities as location_sets, on every code
    path."""
    m, where = mystery_hand_model(seed)
    for c in [c for c in m.cards if where[c] == "mystery"][:known]:
        m.place(c, "mystery")
    want = location_sets(m, "mystery", top=10, max_states=2_000_000)
    n = want[0]
    assert possible_set_count(m, "mystery", max_states=2_000_000) == n
    same_sets(possible_sets(m, "mystery", top=10, max_states=2_000_000), want, 10)
    # the count kept the column apart: its programme is the one walked, same answer
    exact_count(m, exact_total=False, apart="mystery")
    assert possible_set_count(m, "mystery", max_states=10) == n
    same_sets(possible_sets(m, "mystery", top=10, max_states=10), want, 10)


def test_over_budget_and_degenerate_locations(monkeypatch):
    m, where = mystery_hand_model(3)
    assert possible_set_count(m, "mystery", max_states=10) is None
    assert possible_sets(m, "mystery", max_states=10) is None
    with monkeypatch.context() as mp:       # too many partial compositions for the bits
        tune(mp, max_parts=10)
        assert possible_set_count(m, "mystery") is None
        assert possible_sets(m, "mystery") is None
    hand = [c for c in m.cards if where[c] == "mystery"]
    for c in hand[:3]:          # one card to find: no forward pass, the first state's
        m.place(c, "mystery")   # backward values
    n, top = possible_sets(m, "mystery", top=50)
    assert n == possible_set_count(m, "mystery") == len(top) > 1
    assert sum(p for _, p in top) == pytest.approx(1.0, rel=1e-12)
    assert (n, top) == location_sets(m, "mystery", top=50)
    m.place(hand[3], "mystery")     # the mystery hand known: one set
    assert possible_set_count(m, "mystery") == 1
    assert possible_compositions(m, "mystery")[1] == [()]
    assert possible_sets(m, "mystery") == (1, [(frozenset(hand), 1.0)])
    bad = next(c for c in m.cards if where[c] == "P3")
    m.place(bad, "mystery")     # a fifth card in a hand of four: no deal
    assert possible_set_count(m, "mystery") == 0
    assert possible_sets(m, "mystery") == (0, [])


def test_the_public_analysis_counts_the_hands_the_sets_programme_cannot():
    """A public 8-player state whose tagged programme is over its budget: the candidates
    come from the count's own programme (possible_sets), exact, the same number and top
    list, probabilities included, as the tagged programme with a budget large enough."""
    from benchmarks.run import MysteryHand

    game = MysteryHand()
    rec = dict(game.records(8, (), 60, 1, seed0=0))[0]
    label, view, vrec = game.views(rec)[1]
    assert label == "public"
    pre = vrec.prefix(16)
    model = game.model(pre, view)
    assert location_sets(model, "mystery", top=10, max_states=400_000) is None
    a = game.analyze(pre, view)
    c = a.mystery
    assert a.exact and c.exact and c.error == 0
    n, top = location_sets(model, "mystery", top=10, max_states=10 ** 7, stretch=(30, 400))
    assert c.count == n
    assert [set(cs) for cs, _ in c.top] == [set(s) for s, _ in top]
    assert [p for _, p in c.top] == pytest.approx([p for _, p in top], rel=1e-9)
    out = c.to_json()
    assert out["candidates"] == n and "top_estimated" not in out
    assert "candidates_at_least" not in out and "candidates_exact" not in out
