"""Property tests over simulated games: from every view, at random prefixes, the true deal
is consistent with what the view knows, and every certainty the engine reports is true."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from solver.mystery_hand.analysis import analyze_model
from solver.mystery_hand.inference import build, true_deal
from solver.mystery_hand.simulate import simulate
from solver.records import parse_record, write_record

VARIANTS = [
    (3, []), (4, []), (5, []), (6, []), (7, []), (8, []),
    (4, ["sneak"]), (5, ["sneak"]), (7, ["sneak"]), (3, ["keep-em-guessing"]),
    (6, ["no-exact-request"]), (5, ["sneak", "keep-em-guessing"]),
    (4, ["sneak", "sneak-jokers-count-for-extra-turn"]),
    (2, ["two-player=seen"]), (2, ["two-player=chosen"]), (2, ["two-player=blind"]), (2, []),
]


def _check(n, variant, seed, data):
    """Beyond tests/test_registry_properties.py: every variant, the two-player ones too (the
    registry's player counts start at 3), the true deal fits the model as a whole, and the
    analysis's possible places are CP-SAT's backbone."""
    rec = parse_record(write_record(simulate(n, variant, seed, events=45)))
    truth = true_deal(rec)
    assert truth is not None
    views = list(rec.header.players) + [None]
    setup = next((i for i, s in enumerate(rec.statements) if "holds" not in s.text
                  and not s.text.startswith(("faceup", "mystery"))), len(rec.statements))
    for _ in range(2):
        k = data.draw(st.integers(setup, len(rec.statements)), label="prefix")
        who = data.draw(st.sampled_from(views), label="view")
        vm = build(rec.prefix(k), who)
        assert vm.model.fits(truth), f"true deal ruled out at prefix {k} for {who}"
        bb = vm.model.backbone()
        for key, locs in bb.possible.items():
            real = truth[key]
            if vm.model.name(key) == "Jk":
                # copies are interchangeable: the location must be possible for some copy
                assert real in set().union(*(bb.possible[j] for j in vm.keys["Jk"]))
            else:
                assert real in locs, f"{key!r} really at {real}, engine says {locs}"
        # the reported analysis (exact counting) agrees with the CP-SAT backbone
        a = analyze_model(vm, rec.prefix(k))
        for key, locs in bb.possible.items():
            name = vm.model.name(key)
            if name != "Jk":
                assert a.possible[name] == locs
                assert truth[key] in a.cards[name]


@pytest.mark.slow
@settings(max_examples=len(VARIANTS) * 2, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), data=st.data())
def test_truth_is_never_ruled_out(case, seed, data):
    n, variant = case
    _check(n, variant, seed, data)


@pytest.mark.slow
def test_every_variant_is_simulated_and_accepted():
    for n, variant in VARIANTS:
        rec = simulate(n, variant, seed=1)
        text = write_record(rec)
        again = parse_record(text)  # validates turn order and legality
        assert write_record(again) == text


def test_sampled_candidates_count_every_hand_of_a_drawn_composition(monkeypatch):
    """Where the candidates are estimated from drawn deals, a hand with as many cards of
    each class of interchangeable cards as a drawn hand is possible too, and as likely:
    the lower bound counts every hand of the compositions drawn (far above the distinct
    hands drawn, never above the count), and each listed hand is possible with its
    estimate within the error bar of its exact chance (a 3-player state after 15
    statements, counted exactly by location_sets for the comparison)."""
    import solver.mystery_hand.analysis as A
    from solver.model.counting import location_sets
    from solver.mystery_hand.inference import mystery_locations

    rec = simulate(3, [], seed=0).prefix(15)
    vm = build(rec, rec.header.players[0])
    loc = mystery_locations(rec.header, vm.opts)[0]
    m = vm.model
    n_sets, dist = location_sets(m, loc, top=100_000)
    exact = {frozenset(m.name(k) for k in s): p for s, p in dist}
    assert len(exact) == n_sets
    # no hand stands out from the rest in these draws, so none is named; the bound on any
    # hand's chance holds
    shown = A._sampled_candidates(vm, loc, (), n_sets + 1, 0)
    assert shown.withheld and shown.top == [] and max(exact.values()) <= shown.p_at_most
    # the estimates themselves, listed as if they stood out
    monkeypatch.setattr(A, "_standing", lambda groups, most, n: (most, 1.0))
    new = A._sampled_candidates(vm, loc, (), n_sets + 1, 0)
    monkeypatch.setattr(A, "_by_class", lambda *a, **k: None)
    old = A._sampled_candidates(vm, loc, (), n_sets + 1, 0)
    assert old.lower < new.lower <= n_sets
    assert new.lower > 0.95 * n_sets and old.lower < 0.7 * n_sets
    assert len(new.top) == 10 and new.error > 0
    for hand, p in new.top:
        q = exact[frozenset(map(repr, hand))]
        assert abs(p - q) <= 3 * new.error + 1e-12, (hand, p, q)
    # equally likely hands (one composition) are listed by their cards' names: a listed
    # hand's composition has no unlisted hand with smaller names
    from solver.model.counting import interchangeable

    classes, _ = interchangeable(m, loc)
    cls = {m.name(m.cards[ci]): r for r, cs in enumerate(classes) for ci in cs}

    def comp(names):
        return sorted(cls.get(x, -1) for x in names)

    listed = {tuple(sorted(map(repr, h))) for h, _ in new.top}
    for h in listed:
        for other in exact:
            key = tuple(sorted(other))
            if comp(other) == comp(h) and key < h:
                assert key in listed, (h, key)


def test_an_estimated_view_whose_draws_prove_the_support_needs_no_cp_sat(monkeypatch):
    """The public view of an 8-player record as its first player wrote it, after 16
    statements, counted within the exposure's budget, is an estimate whose draws and
    relaxed count prove every card's possible places (``Counting.support``): the analysis
    then does not run CP-SAT's backbone, and its certainties are CP-SAT's."""
    from solver.model import CardLocationModel
    from solver.mystery_hand.analysis import analyze
    from solver.mystery_hand.inference import as_written_by

    full = simulate(8, [], 0)
    rec = as_written_by(full, full.header.me).prefix(16)     # as the first player wrote it
    want = build(rec, None).model.backbone().possible
    calls = []
    real = CardLocationModel.backbone
    monkeypatch.setattr(CardLocationModel, "backbone",
                        lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    a = analyze(rec, None, candidates=False, max_states=150_000)   # the exposure's budget
    assert not a.exact and 0 < a.error < 0.1 and not calls
    vm = build(rec, None)
    for name, keys in vm.keys.items():
        assert a.possible[name] == set().union(*(want[k] for k in keys)), name
