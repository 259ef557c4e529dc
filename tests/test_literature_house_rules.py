"""Literature house rules as named options (issue 18): each changes exactly what it says;
simulated games under each pass the property checks of test_literature_properties."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solver.errors import NotationError, RuleError
from solver.literature import GAME
from solver.literature.engine import Play
from solver.literature.options import LiteratureOptions
from solver.literature.simulate import simulate_with_deal
from solver.records import parse_record, write_record
from tests.helpers import record
from tests.test_literature_properties import check_prefix

SIX = "Ana Ben Cleo Dev Eli Fay"


def rec(body, variant="", players=SIX):
    return record("literature", body, players=players, variant=variant or "standard")


@pytest.mark.parametrize("names,error,rule", [
    (["jokers=distinct"], RuleError, "V8"),
    (["claim-turn=claimant"], RuleError, "V5"),
    (["claims-any-time", "out-of-turn-claims=forbidden"], RuleError, "LIT-12"),
    (["jokers=red"], NotationError, "V8"),
    (["memory=last-three"], NotationError, "A9"),
])
def test_invalid_combinations_are_refused(names, error, rule):
    with pytest.raises(error) as e:
        LiteratureOptions.from_names(names)
    assert rule in str(e.value)


def test_every_house_rule_round_trips_by_name():
    names = ["claims-any-time", "stop-at-majority", "deck=54-jokers", "memory=last-two",
             "jokers=distinct", "claim-turn=claimant"]
    o = LiteratureOptions.from_names(names)
    assert sorted(o.names()) == sorted(names) and LiteratureOptions.from_names(o.names()) == o
    assert LiteratureOptions.from_names(["out-of-turn-claims=forbidden"]).out_of_turn_claims \
        == "forbidden"


# ----- jokers=distinct ----------------------------------------------------------------------
EIGHT = "Ana Ben Cleo Dev Eli Fay Gus Hal"
JOKERS = "deck=54-jokers, jokers=distinct"


def test_distinct_jokers_are_two_cards_and_a_swapped_claim_is_wrong():
    t = Play.of(rec("", JOKERS, EIGHT)).table
    half = t.half("8*")
    assert [repr(c) for c in half.cards][-2:] == ["JkR", "JkB"]
    with pytest.raises(NotationError) as e:
        rec("Ana asks Ben Jk: no\n", JOKERS, EIGHT)
    assert "write JkR (red) or JkB (black)" in str(e.value)
    with pytest.raises(NotationError):
        rec("Ana asks Ben JkR: no\n", "deck=54-jokers", EIGHT)
    # Ana's team (Ana Cleo Eli Gus) holds the ninth half-suit; the claim swaps the jokers
    claim = "Ana claims 8*: Ana 8S 8H JkR, Cleo 8D 8C JkB\n"
    shown = "shown 8*: Ana 8S 8H JkB, Cleo 8D 8C JkR\n"
    p = Play.of(rec(claim + shown, JOKERS, EIGHT))
    assert p.results[0].outcome == "cancelled" and p.results[0].rule.startswith("LIT-11(b)")
    p = Play.of(rec(claim, JOKERS, EIGHT))          # as claimed: won
    assert p.results[0].outcome == "won"
    # with identical jokers the same placement (Jk, Jk) is exact
    p = Play.of(rec("Ana claims 8*: Ana 8S 8H Jk, Cleo 8D 8C Jk\n", "deck=54-jokers", EIGHT))
    assert p.results[0].outcome == "won"


# ----- claim-turn=claimant ------------------------------------------------------------------
HANDS = ("Cleo holds: 2H 3H 4H 5H 6H 7H 9S JC\n")


def test_claim_turn_goes_to_the_claimant():
    body = "Ana asks Ben 9S: no\nCleo claims 2H-7H: Cleo 2H 3H 4H 5H 6H 7H\n"
    assert Play.of(rec(body, "claims-any-time")).turn == "Ben"                    # V5
    assert Play.of(rec(body, "claims-any-time, claim-turn=claimant")).turn == "Cleo"


# ----- out-of-turn-claims=forbidden ---------------------------------------------------------
def test_out_of_turn_claims_forbidden():
    body = "Cleo claims 2H-7H: Cleo 2H 3H 4H 5H 6H 7H\n"
    p = Play.of(rec(body))
    assert p.results[0].kind == "out-of-turn" and p.results[0].outcome == "cancelled"  # LIT-12
    with pytest.raises(RuleError) as e:
        rec(body, "out-of-turn-claims=forbidden")
    assert "LIT-12" in str(e.value) and "forbidden" in str(e.value)
    # the player on turn has no cards: anyone may claim (four players, Ana empties her hand)
    four = "Ana Ben Cleo Dev"
    hands = ("Ana holds: 2H 3H 4H 5H 6H 7H 9H 10H JH QH KH AH\n"
             "Cleo holds: 2S 3S 4S 5S 6S 7S 9S 10S JS QS KS AS\n")
    body = (hands + "Ana claims 2H-7H: Ana 2H 3H 4H 5H 6H 7H\n"
            "Ana claims 9H-AH: Ana 9H 10H JH QH KH AH\n"
            "Cleo claims 2S-7S: Cleo 2S 3S 4S 5S 6S 7S\n")
    p = Play.of(rec(body, "out-of-turn-claims=forbidden", four))
    assert p.turn == "Ana" and p.results[-1].kind == "empty-turn"
    assert p.results[-1].outcome == "won"


# ----- stop-at-majority ---------------------------------------------------------------------
def test_stop_at_majority_ends_the_game():
    # V9: high halves score 2 (12 points); Ana's team holds all four high halves
    four = "Ana Ben Cleo Dev"
    hands = ("Ana holds: 9H 10H JH QH KH AH 9S 10S JS QS KS AS\n"
             "Cleo holds: 9D 10D JD QD KD AD 9C 10C JC QC KC AC\n")
    claims = "".join(f"Ana claims 9{s}-A{s}: {p} " + " ".join(f"{r}{s}" for r in
                     ("9", "10", "J", "Q", "K", "A")) + "\n"
                     for s, p in (("H", "Ana"), ("S", "Ana"), ("D", "Cleo"), ("C", "Cleo")))
    lines = claims.splitlines(keepends=True)
    v = "high-half-value=2, stop-at-majority"
    p = Play.of(rec(hands + "".join(lines[:3]), v, four))
    assert not p.over and p.score == [6, 0]           # 6 of 12: not a majority
    p = Play.of(rec(hands + claims, v, four))
    assert p.over and p.winner() == "Ana" and len(p.open_halves()) == 4
    with pytest.raises(RuleError) as e:
        rec(hands + claims + "Ben asks Ana 2H: no\n", v, four)
    assert "majority" in str(e.value) and "LIT-17" in str(e.value)
    p = Play.of(rec(hands + claims, "high-half-value=2", four))
    assert not p.over                                 # LIT-17: play on


def test_stop_at_majority_in_simulated_games():
    for seed in range(4):
        r, deal = simulate_with_deal(6, ("stop-at-majority",), seed)
        p = Play.of(r)
        assert p.over and 2 * max(p.score) > 8 or not p.open_halves()
        assert sum(1 for h in p.open_halves()) == 0 or 2 * max(p.score) > 8
        # one claim fewer: not yet decided
        n = max(i for i, s in enumerate(r.statements) if "claims" in s.text)
        assert not Play.of(r.prefix(n)).over


# ----- memory=last-two ----------------------------------------------------------------------
def test_memory_last_two_remembers_two_questions():
    head = "me: Ana\nAna holds: 2H 3H 4H 6H 7H 9S JC QD\n"
    body = head + "Ana asks Ben 10S: no\nBen asks Cleo 9D: no\nCleo asks Ben 3H: no\n"
    one = GAME.analyze(rec(body, "memory=last-question"), "Ana")
    two = GAME.analyze(rec(body, "memory=last-two"), "Ana")
    full = GAME.analyze(rec(body), "Ana")
    # EX-A: Cleo's question puts 5H with her in every mode
    assert one.cards["5H"] == two.cards["5H"] == full.cards["5H"] == {"Cleo": 1.0}
    # Ben's "no" to 9D... is remembered with two actions, not with one
    assert "Cleo" in one.cards["9D"] and "Cleo" not in two.cards["9D"]


# ----- simulated games under every house rule ----------------------------------------------
HOUSE = [("deck=54-jokers", "jokers=distinct"), ("claims-any-time", "claim-turn=claimant"),
         ("out-of-turn-claims=forbidden",), ("stop-at-majority",), ("memory=last-two",)]


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(variant=st.sampled_from(HOUSE), n=st.sampled_from([4, 6, 8]),
       seed=st.integers(0, 10_000), where=st.floats(0.1, 1.0))
def test_simulated_games_under_house_rules(variant, n, seed, where):
    r, deal = simulate_with_deal(n, variant, seed, events=60)
    assert parse_record(write_record(r)).events() == r.events()
    from solver.literature.engine import cut_points
    cps = cut_points(r)
    check_prefix(r.prefix(cps[min(int(where * len(cps)), len(cps) - 1)]), deal,
                 r.header.players[seed % n])
