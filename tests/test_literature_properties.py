"""Property tests over simulated Literature games (4, 6 and 8 players): from every view
(each player and the public), at a few prefixes, the true deal satisfies every fact the view
knows, it is a consistent deal of the model, and every certainty is true.  Beyond the
registry's suite (tests/test_registry_properties.py): the facts one by one, many more
variants, and the half-suits' safe claims and team chances against the truth."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solver.model.budget import Budget
from solver.literature import GAME
from solver.literature.inference import backbone, build
from solver.literature.engine import OUT, Play, cut_points
from solver.literature.simulate import simulate_with_deal
from solver.records import parse_record, write_record

VARIANTS = [(), (), ("removed-rank=7",), ("own-card-ask=bluff",), ("claims-any-time",),
            ("own-card-ask=surrender",), ("deck=54-jokers",), ("srinivasan",),
            ("first-asker=dealer-right", "high-half-value=2"), ("memory=last-question",),
            ("misallocation-to-opponents", "turn-after-failed-claim=opponents"),
            # house rules (issue 18)
            ("deck=54-jokers", "jokers=distinct"), ("claims-any-time", "claim-turn=claimant"),
            ("out-of-turn-claims=forbidden",), ("stop-at-majority",), ("memory=last-two",)]


def truth_now(play: Play, deal: dict) -> dict:
    cur = dict(deal)
    for mv in play.moves:
        cur[mv.key] = mv.dst
    return cur


def check_prefix(record, deal, full_analysis_view="__none__"):
    play = Play.of(record)
    t = play.table
    cur = truth_now(play, deal)
    views = [None] + list(t.players)
    for view in views:
        vm = build(record, view, play)
        # the truth satisfies every fact the view knows: the deal, or under
        # memory=last-question (A9) the current hands
        truth = deal if vm.deal else cur
        for con in vm.model.constraints:
            n = sum(1 for ci, li in con.terms
                    if truth[vm.model.cards[ci]] == vm.model.locations[li])
            assert con.lo <= n <= con.hi, (view, con.note, con.source)
        bb = backbone(vm)
        assert bb.consistent
        for k in t.keys:
            if k in vm.fixed:
                assert vm.fixed[k] == cur[k]
                continue
            assert truth[k] in bb.possible[k], (view, k)
            if len(bb.possible[k]) == 1:       # a certainty must be true
                assert next(iter(bb.possible[k])) == cur[k], (view, k)
    # one full analysis (probabilities, p_team, safe claims) per prefix
    view = full_analysis_view if full_analysis_view != "__none__" else None
    a = GAME.analyze(record, view, budget=Budget(time_budget=0.3))
    for k in t.keys:
        name = repr(t.key_card[k])
        assert a.cards[name].get(cur[k], 0) > 0, (name, cur[k], a.cards[name])
    for name, d in a.cards.items():
        n_copies = len(t.card_keys[t.card(name)])
        assert abs(sum(d.values()) - n_copies) < 1e-6
        for loc, p in d.items():
            if p == n_copies:
                assert all(cur[k] == loc for k in t.card_keys[t.card(name)])
    for name, h in a.halves.items():
        if h.safe_claim:
            for p, cards in h.safe_claim.items():
                for c in cards:
                    assert any(cur[k] == p for k in t.card_keys[t.card(c)])
        if h.status == "open":
            for tn, p in h.p_team.items():
                team = t.team_of(tn)
                truly = all(cur[k] in team for k in play.keys_of_half(name))
                if truly:
                    assert p > 0
                if p == 1.0:
                    assert truly


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(n=st.sampled_from([4, 6, 8]), seed=st.integers(0, 10_000),
       variant=st.sampled_from(VARIANTS), where=st.lists(st.floats(0, 1), min_size=2,
                                                          max_size=2))
def test_simulated_games_views_and_certainties(n, seed, variant, where):
    rec, deal = simulate_with_deal(n, variant, seed, events=90 if n == 8 else 120)
    # the simulator's record is legal and round-trips
    again = parse_record(write_record(rec))
    assert again.events() == rec.events()
    cps = cut_points(rec)
    for i, w in enumerate(sorted(where)):
        cut = cps[min(int(w * len(cps)), len(cps) - 1)]
        view = rec.header.players[(seed + i) % n] if i % 2 == 0 else None
        check_prefix(rec.prefix(cut), deal, view)


def test_full_games_end_and_score():
    for n in (4, 6, 8):
        rec, deal = simulate_with_deal(n, (), 100 + n)
        play = Play.of(rec)
        assert play.over and play.turn is None
        assert all(l == OUT for l in play.loc.values())
        assert sum(play.score) == sum(1 for r in play.results if r.scorer is not None)
        check_prefix(rec, deal, rec.header.players[1])


def test_simulator_is_deterministic():
    a = write_record(simulate_with_deal(6, ("claims-any-time",), 9)[0])
    b = write_record(simulate_with_deal(6, ("claims-any-time",), 9)[0])
    c = write_record(simulate_with_deal(6, ("claims-any-time",), 10)[0])
    assert a == b and a != c
