"""``best``: the CP-SAT optimum against an independent brute force on random hands (the
property), and worked cases: HR-30, HR-21, HR-32, Full Hands and the HR-59 multipliers."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import JOKER, SUITS, Card, parse_cards, standard_deck
from solver.errors import RuleError
from solver.hand import HandOptions, best, make_regime
from solver.hand.best import candidates
from solver.hand.bruteforce import brute_force, verify_plan

C = Card.parse
INDICATORS = [c for c in standard_deck()]
BONUSES = ("bonus_wild_discard", "bonus_two_wilds", "bonus_colour", "bonus_suit")


@st.composite
def situations(draw, sizes=(4, 10)):
    """An indicator, options, and a hand drawn from two suits plus aces and jokers (so that
    melds are common), respecting the copies in play (HR-2, A1); every wild mode (HR-46,
    HR-47)."""
    mode = draw(st.sampled_from(("indicator", "indicator", "jokers-only", "no-jokers")))
    ind = None if mode == "jokers-only" else draw(st.sampled_from(INDICATORS))
    flags = {b: draw(st.booleans()) for b in BONUSES}
    opts = HandOptions(wild_mode=mode, no_jokers_ace_indicator="twin-wild",
                       ace_low_run_value=draw(st.sampled_from((11, 1))),
                       ace_high_run_value=draw(st.sampled_from((11, 10))),
                       wild_ace_run_value=draw(st.sampled_from(("variant", "11"))), **flags)
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=2, unique=True))
    pool = [c for c in standard_deck(0) if c.suit in suits or c.rank == 1] * 2
    if mode != "no-jokers":
        pool += [JOKER] * 2
    if ind in pool:
        pool.remove(ind)
    n = draw(st.integers(*sizes))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    return ind, opts, [pool[i] for i in idx]


def _compare(ind, opts, hand):
    res = best(hand, ind, opts)
    ref = brute_force(hand, ind, opts)
    value = res.best_initial.value if res.best_initial else 0
    assert value == ref.value, (hand, ind)
    assert res.can_go_out == ref.can_go_out, (hand, ind)
    if res.can_go_out:
        assert res.go_out.multiplier == ref.multiplier, (hand, ind)
    regime = make_regime(ind, opts)
    if res.best_initial:
        verify_plan(res.best_initial, hand, regime, opts)
        assert res.best_initial.left  # HR-30: a card is left to discard
    if res.can_go_out:
        verify_plan(res.go_out, hand, regime, opts)
        assert len(res.go_out.discards) in (1, 2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_best_equals_brute_force_on_small_hands(s):
    _compare(*s)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(sizes=(15, 15)))
def test_best_equals_brute_force_on_full_hands(s):
    _compare(*s)


@pytest.mark.parametrize("seed", range(6))
def test_full_hands_with_both_wilds(seed):
    """15 cards of two suits with both wilds: the benchmark's kind of hand."""
    import random

    rng = random.Random(seed)
    ind = Card(rng.randint(2, 13), rng.choice(SUITS))
    wild = Card(1, ind.suit)
    suits = rng.sample(SUITS, 2)
    pool = [c for c in standard_deck() if c.suit in suits and c != wild] * 2
    pool.remove(ind) if ind in pool else None
    hand = [wild, wild] + rng.sample(pool, 13)
    opts = HandOptions(bonus_wild_discard=True, bonus_two_wilds=True, bonus_colour=True,
                       bonus_suit=True)
    _compare(ind, opts, hand)


def test_hr30_a_card_is_always_left():
    hand = parse_cards("AH 2H 3H 4H 5H 9H 9S 9D")
    res = best(hand, C("7S"))
    assert res.best_initial.value == 47 and res.best_initial.left == [C("5H")]
    assert res.can_go_out and res.discard == C("5H")
    assert not res.full_hand  # 8 cards: not the 15 of a player with no meld


def test_opening_and_initial_min():
    hand = parse_cards("AH 2H 3H 4H 5H 9H 9S 9D KC")
    assert best(hand, C("7S")).can_open
    assert not best(hand, C("7S"), HandOptions(initial_min=61)).can_open
    res = best(hand, C("7S"), HandOptions(initial_must_exceed=True), to_beat=52)
    assert not res.can_open and res.needed == 53


def test_below_minimum_going_out_is_allowed():
    hand = parse_cards("2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5S 5H 9D")
    res = best(hand, C("7C"))
    assert res.best_initial.value < 51 and not res.can_open
    assert res.can_go_out and res.full_hand and res.discard == C("9D")  # HR-21, HR-39


def test_first_turn_no_going_out():
    hand = parse_cards("2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5S 5H 9D")
    res = best(hand, C("7C"), first_turn=True)
    assert not res.can_go_out and "HR-32" in res.go_out_reason
    assert best(hand, C("7C"), HandOptions(first_turn_win=True), first_turn=True).can_go_out


SUIT_HAND = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AC AC 5S"


def test_full_hand_bonuses():
    hand = parse_cards(SUIT_HAND)
    plain = best(hand, C("7C"))
    assert plain.full_hand and plain.go_out.multiplier == 1
    allb = HandOptions(bonus_wild_discard=True, bonus_two_wilds=True, bonus_colour=True,
                       bonus_suit=True)
    res = best(hand, C("7C"), allb)
    assert res.go_out.bonuses == ["suit"] and res.go_out.multiplier == 4
    assert res.discard == C("5S")
    # swap the 5S for the AH: 13 hearts + 2 wilds -> discard both wilds, one suit: x16
    hand = parse_cards(SUIT_HAND.replace("5S", "AH"))
    res = best(hand, C("7C"), allb)
    assert res.go_out.bonuses == ["two-wilds", "suit"] and res.go_out.multiplier == 16
    assert res.go_out.discards == [C("AC"), C("AC")]
    assert res.to_json()["multiplier"] == 16
    # colour only, one wild thrown: x4
    o = HandOptions(bonus_wild_discard=True, bonus_colour=True)
    hand = parse_cards("2H 3H 4H 5D 6D 7D 8H 9H 10H JD QD KD AC AC 5H")
    res = best(hand, C("7C"), o)
    assert res.go_out.bonuses == ["wild-discard", "colour"] and res.go_out.multiplier == 4


def test_bonus_jokers_a12():
    # 7C turned: the Jk is a natural AC (HR-8), black; the rest of the melds are red
    hand = parse_cards("2H 3H 4H 5H 6H 7H 8D 9D 10D JD QD AH AD Jk 5C")
    o = HandOptions(bonus_colour=True)
    res = best(hand, C("7C"), o)
    assert res.full_hand and res.discard == C("5C") and res.go_out.multiplier == 1
    res = best(hand, C("7C"), HandOptions(bonus_colour=True, bonus_jokers="ignore"))
    assert res.go_out.bonuses == ["colour"] and res.go_out.multiplier == 2


def test_candidates_use_a_wild_for_a_card_held_elsewhere():
    # HR-16: 7D W 9D with 8D kept for another meld
    from collections import Counter

    cands = candidates(Counter(parse_cards("7D 8D 9D")), 1, HandOptions())
    assert any(c.wild and c.reading.wild_as == (C("8D"),) and c.size == 3 for c in cands)


def test_errors():
    with pytest.raises(RuleError, match="HR-30"):
        best([], C("7C"))
    with pytest.raises(RuleError, match="HR-2"):
        best(parse_cards("5H 5H 5H"), C("7C"))
