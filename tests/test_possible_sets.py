"""solver.model.possible_sets: the number of possible sets of a location, by bitsets over
the plain programme, against brute force, against the sets' own programme
(location_sets) on Mystery Hand views, compiled and in numpy."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model import counting
from solver.model.counting import exact_count, location_sets
from solver.model.possible_sets import possible_compositions, possible_set_count
from tests.test_counting import brute_sets, models, mystery_hand_model

WAYS = ["compiled", "numpy", "expanded again", "mixed radix"]


@pytest.fixture
def way(request, monkeypatch):
    """The code paths: the compiled bitset passes, their numpy code, transitions expanded
    again instead of kept, and mixed-radix keys."""
    w = request.param
    if w == "numpy":
        monkeypatch.setattr(counting, "KERNEL", None)
    elif w == "compiled" and counting.KERNEL is None:
        pytest.skip("no compiled kernel")
    elif w == "expanded again":
        monkeypatch.setattr(counting, "KEEP_TRANSITIONS", 0)
    elif w == "mixed radix":
        monkeypatch.setattr(counting._Plan, "_fits", lambda self, pow2: not pow2)
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


@pytest.mark.parametrize("way", WAYS, indirect=True)
@pytest.mark.parametrize("seed,known", [(1, 0), (2, 0), (3, 1), (5, 2), (8, 3), (9, 0)])
def test_mystery_hand_views_agree_with_the_sets_programme(seed, known, way):
    """52-card Mystery Hand views (8 hands of 6 and a mystery hand of 4, queries on
    ranges and ranks; ``known`` of the mystery hand's cards placed, so 4 to 1 to find):
    the same number of hands as location_sets, on every code path."""
    m, where = mystery_hand_model(seed)
    for c in [c for c in m.cards if where[c] == "mystery"][:known]:
        m.place(c, "mystery")
    n, _ = location_sets(m, "mystery", top=1, max_states=2_000_000)
    assert possible_set_count(m, "mystery", max_states=2_000_000) == n
    # the count kept the column apart: its programme is the one walked, same answer
    exact_count(m, exact_total=False, apart="mystery")
    assert possible_set_count(m, "mystery", max_states=10) == n


def test_over_budget_and_degenerate_locations(monkeypatch):
    from solver.model import possible_sets

    m, where = mystery_hand_model(3)
    assert possible_set_count(m, "mystery", max_states=10) is None
    with monkeypatch.context() as mp:       # too many partial compositions for the bits
        mp.setattr(possible_sets, "MAX_PARTS", 10)
        assert possible_set_count(m, "mystery") is None
    for c in m.cards:           # the mystery hand known: one set
        if where[c] == "mystery":
            m.place(c, "mystery")
    assert possible_set_count(m, "mystery") == 1
    assert possible_compositions(m, "mystery")[1] == [()]
    bad = next(c for c in m.cards if where[c] == "P3")
    m.place(bad, "mystery")     # a fifth card in a hand of four: no deal
    assert possible_set_count(m, "mystery") == 0


def test_the_public_analysis_counts_the_hands_the_sets_programme_cannot():
    """A public 8-player state whose sets' programme is over its budget: the number of
    possible hands is still exact (the sets' programme with a budget large enough gives
    the same), and only the top list is estimated."""
    from benchmarks.run import MysteryHand

    game = MysteryHand()
    rec = dict(game.records(8, (), 60, 1, seed0=0))[0]
    label, view, vrec = game.views(rec)[1]
    assert label == "public"
    pre = vrec.prefix(16)
    a = game.analyze(pre, view)
    c = a.mystery
    assert a.exact and not c.exact and c.error > 0 and c.top
    assert c.count == c.lower == c.upper
    n, _ = location_sets(game.model(pre, view), "mystery", top=1, max_states=10 ** 7,
                         stretch=(30, 400))
    assert c.count == n
    out = c.to_json()
    assert out["candidates"] == n and out["top_estimated"] is True
    assert "candidates_at_least" not in out and "candidates_exact" not in out
