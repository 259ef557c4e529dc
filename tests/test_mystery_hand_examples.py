"""The worked examples of mystery-hand.md section 7, as complete records, checked from
every view the example talks about (E1..E8)."""
from __future__ import annotations

import pytest

from solver.cards import Card, parse_cards
from solver.mystery_hand.inference import build
from solver.records import parse_record

C = Card.parse

EX1 = """game: mystery-hand
players: P1 P2 P3 P4
dealer: P4
P1 holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC
P2 holds: 4H 7H AS 2S 4S 5S 7S 8S 9S 10S JS QS
P3 holds: 6H AH 2H 3H 8H 9H 10H JH QH KH AD 3D
P4 holds: 6D 6C 4D 5D 7D 8D 10D JD QD KD AC KC
P1 asks P2 4H-7H: 4H 7H
P2 asks all 6*: P1 1, P3 1, P4 2
P2 requests KS: nobody
"""

# Ex 2 -- seats P1 P4 P5 P2 P3 so that P4 acts right after P1, as in the example.
EX2 = """game: mystery-hand
variant: sneak
players: P1 P4 P5 P2 P3
P1 holds: AS 10S 4H JH QH 2D 10D KD AC 7C
P2 holds: 8S 3H 6H 3D 7D JD QD 2C QC Jk
P3 holds: 5S 7S KS 2H 8H 4D 3C 4C 6C Jk
P4 holds: 2S 3S 9S 10H AD 5D 8D 9D 5C KC
P5 holds: 4S 6S JS 5H 7H 9H KH 8C 9C JC
P1 asks P2 Q*: QC QD Jk
P4 asks all Q*: P1 1, P2 2, P3 0, P5 0
"""

EX3 = """game: mystery-hand
variant: keep-em-guessing
players: P1 P2 P3
P1 holds: 2S 3S 7S 10S 3H 8H 10H AD 4D 5D 7D 9D 6C 7C 8C JC
P2 holds: 6S 8S QS AH 2H 6H 7H JH QH 6D 10D JD KD AC 9C KC
P3 holds: AS 4S 5S 9S KS 4H 9H KH 3D 8D QD 3C 4C 5C 10C QC
P1 asks P3 2S-5S: 4S 5S
P2 requests 2C: nobody
P3 asks P1 JD-AD: AD
P1 requests 9D: nobody
P2 requests 5H: nobody
P3 asks P2 6*: 6S 6H 6D
P3 asks all 9*: P1 1, P2 1
P1 asks P2 10D-KD: 10D JD KD
P1 asks P3 JS-AS: AS KS
P2 requests JS: nobody
P3 announces 2C 5H JS 9D: wrong
"""


def view(text, who, upto=None):
    rec = parse_record(text)
    if upto is not None:
        n = sum(1 for s in rec.statements if "holds" not in s.text)
        keep = len(rec.statements) - n + upto
        rec = rec.prefix(keep)
    vm = build(rec, who)
    return vm, vm.model.backbone()


def possible(bb, card):
    return bb.possible[C(card)]


# ---- Ex 1 ----------------------------------------------------------------------------
def test_ex1_step1_asker_learns_shown_and_where_6H_can_be():
    vm, bb = view(EX1, "P1", upto=1)
    assert possible(bb, "4H") == {"P2"} and possible(bb, "7H") == {"P2"}
    assert possible(bb, "6H") == {"mystery", "P3", "P4"}


@pytest.mark.parametrize("who", ["P3", "P4"])
def test_ex1_step1_others_learn_the_count(who):
    vm, _ = view(EX1, who, upto=1)
    X = parse_cards("4H 5H 6H 7H")
    assert vm.model.count_bounds(X, ["P2"]) == (2, 2)
    assert vm.model.count_bounds(X, ["P1"])[1] <= 3  # MH-11


@pytest.mark.parametrize("who", ["P2", "P3", "P4", None])
def test_ex1_step1_asker_does_not_hold_all_four(who):
    vm, _ = view(EX1, who, upto=1)
    assert vm.model.count_bounds(parse_cards("4H 5H 6H 7H"), ["P1"])[1] <= 3


@pytest.mark.parametrize("who", ["P1", "P2", "P3", "P4", None])
def test_ex1_step2_no_six_in_mystery_or_asker(who):
    vm, bb = view(EX1, who, upto=2)
    for r in ("6S", "6H", "6D", "6C"):
        assert "mystery" not in possible(bb, r)
        assert "P2" not in possible(bb, r)


def test_ex1_step2_P1_combines_both_events():
    vm, bb = view(EX1, "P1", upto=2)
    assert possible(bb, "6H") == {"P3", "P4"}


@pytest.mark.parametrize("who", ["P1", "P3", "P4", None])
def test_ex1_step3_KS_is_in_the_mystery_hand(who):
    vm, bb = view(EX1, who, upto=3)
    assert possible(bb, "KS") == {"mystery"}
    assert vm.model.explain(C("KS"), "mystery") == [10]


def test_ex1_second_turn_of_P2_is_an_extra_turn():
    # P2 earned it with the four sixes laid down (MH-14); a third P2 turn is refused.
    from solver.errors import RuleError
    with pytest.raises(RuleError, match="MH-7"):
        parse_record(EX1 + "P2 requests 9D: nobody\n")


# ---- Ex 2 ----------------------------------------------------------------------------
def test_ex2_step1_asker():
    vm, bb = view(EX2, "P1", upto=1)
    assert possible(bb, "QC") == {"P2"} and possible(bb, "QD") == {"P2"}
    assert "P2" not in possible(bb, "QS") and "P2" not in possible(bb, "QH")
    assert possible(bb, "QS") == {"mystery", "P3", "P4", "P5"}
    assert vm.model.count_bounds(vm.keys["Jk"], ["P2"])[0] >= 1


def test_ex2_step1_P3_knows_P2_has_at_most_the_other_joker():
    vm, _ = view(EX2, "P3", upto=1)
    assert vm.model.count_bounds(parse_cards("QS QH QD QC"), ["P2"]) == (2, 3)


@pytest.mark.parametrize("who", ["P4", "P5"])
def test_ex2_step1_others_see_one_to_three(who):
    vm, _ = view(EX2, who, upto=1)
    assert vm.model.count_bounds(parse_cards("QS QH QD QC"), ["P2"]) == (1, 3)


@pytest.mark.parametrize("who", ["P1", "P3", "P4", "P5", None])
def test_ex2_step2_everyone(who):
    vm, _ = view(EX2, who, upto=2)
    Q = parse_cards("QS QH QD QC")
    assert vm.model.count_bounds(Q, ["P2"]) == (2, 2)
    assert vm.model.count_bounds(vm.keys["Jk"], ["P2"])[0] >= 1
    assert vm.model.count_bounds(Q, ["P4", "mystery"]) == (1, 1)


def test_ex2_step2_P3_places_both_jokers():
    vm, _ = view(EX2, "P3", upto=2)
    assert vm.model.count_bounds(vm.keys["Jk"], ["P2"]) == (1, 1)


def test_ex2_step2_P1_QS_in_P4_or_mystery():
    vm, bb = view(EX2, "P1", upto=2)
    assert possible(bb, "QS") == {"P4", "mystery"}


# ---- Ex 3 ----------------------------------------------------------------------------
@pytest.mark.parametrize("who", ["P2", "P3"])
def test_ex3_bluffed_request_leaves_mystery_or_asker(who):
    vm, bb = view(EX3, who, upto=4)
    assert possible(bb, "9D") == {"mystery", "P1"} - ({"P1"} if who == "P1" else set())


def test_ex3_P2_knows_three_cards_before_the_announcement():
    vm, bb = view(EX3, "P2", upto=10)
    for c in ("2C", "5H", "JS"):
        assert possible(bb, c) == {"mystery"}


def test_ex3_after_wrong_announcement_P2_places_9D_with_P1():
    vm, bb = view(EX3, "P2", upto=11)
    assert possible(bb, "9D") == {"P1"}
    assert vm.model.count_bounds(parse_cards("2C 5H JS 9D"), ["mystery"])[1] <= 3
    # P3's hand is now public
    for c in parse_cards("AS 4S 5S 9S KS 4H 9H KH 3D 8D QD 3C 4C 5C 10C QC"):
        assert possible(bb, repr(c)) == {"P3"}


def test_ex3_standard_rules_would_put_9D_in_the_mystery_hand():
    std = EX3.replace("variant: keep-em-guessing\n", "")
    # under standard rules P1 may not request a card it holds (MH-15)
    from solver.errors import RuleError
    with pytest.raises(RuleError, match="MH-15"):
        parse_record(std)
