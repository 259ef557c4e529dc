"""Table moves: lay-offs (HR-23), swaps (HR-24), no rearranging (HR-25), the 8-8-wild rule
(HR-26) and its exceptions, HR-18/HR-21/A6, HR-55, HR-56, A17; and the redeal check
(HR-10, A8)."""
import pytest

from solver.cards import Card, parse_cards
from solver.errors import NotationError, RuleError
from solver.hand import HandOptions, moves, redeal

C = Card.parse


def _moves(res, kind):
    return sorted((m.meld, m.cards_text(), " ".join(map(repr, m.result)))
                  for m in res.moves if m.kind == kind)


def test_hr24_swaps_in_runs_and_groups():
    res = moves("7D AC 9D | 5S 5C AC", parse_cards("8D 5H 5D KC"), C("7C"))
    assert _moves(res, "swap") == [(1, "8D", "7D 8D 9D"), (2, "5H 5D", "5S 5H 5D 5C")]
    # regime N: the Jk in KS KH Jk KD is a natural AC, not a wild: 4 cards, two ranks
    with pytest.raises(RuleError, match="table meld 1.*HR-8"):
        moves("KS KH Jk KD", [C("KC")], C("7C"))
    res = moves("KS KH AC KD", parse_cards("KC 2D"), C("7C"))
    (swap,) = [m for m in res.moves if m.kind == "swap"]
    assert swap.take == C("AC") and swap.result == tuple(parse_cards("KS KH KD KC"))


def test_hr24_group_swap_needs_both_missing_naturals():
    res = moves("5S 5C AC", parse_cards("5H 2D"), C("7C"))
    assert _moves(res, "swap") == []
    with pytest.raises(RuleError, match="HR-26"):
        moves("5S 5C AC", parse_cards("5H 2D"), C("7C"), plays=["1: 5H"])


def test_hr25_the_rules_example():
    res = moves("9C 10C AS", parse_cards("JC 7C 5D"), C("QS"))
    assert _moves(res, "swap") == [(1, "JC", "9C 10C JC")]
    assert _moves(res, "lay-off") == []
    (b,) = res.blocked
    assert b.rule == "HR-25" and "re-read as 8C" in b.reason and "swap in JC" in b.reason
    with pytest.raises(RuleError, match=r"HR-25"):
        moves("9C 10C AS", parse_cards("JC 7C 5D"), C("QS"), plays=["1: 7C"])
    res = moves("9C 10C AS", parse_cards("JC 7C 5D"), C("QS"), plays=["1: JC", "1: AS 7C"])
    assert res.table_text() == ["7C AS 9C 10C JC"]
    assert res.table[0].reading.wild_as == (C("8C"),) and res.hand == [C("5D")]
    assert [m.kind for m in res.played] == ["swap", "lay-off"]
    # the swap lists the freed wild's uses, the rules' way among them
    swap = res.played[0]
    assert any(t.cards == (C("AS"), C("7C")) for t in swap.then)


def test_hr23_layoffs():
    res = moves("5D 6D 7D | KS KH KD", parse_cards("4D 3D 8D KC 2S"), C("QS"))
    lay = _moves(res, "lay-off")
    assert (1, "4D", "4D 5D 6D 7D") in lay and (1, "4D 3D", "3D 4D 5D 6D 7D") in lay
    assert (1, "8D", "5D 6D 7D 8D") in lay and (2, "KC", "KS KH KD KC") in lay
    assert not any("2S" in c for _, c, _ in lay)


def test_hr23_a_wild_onto_a_natural_meld_and_a16_declaration():
    res = moves("5D 6D 7D | KS KH KD", parse_cards("AS 2C"), C("QS"))
    lay = [(m.meld, m.reading.wild_as) for m in res.moves]
    assert (1, (C("4D"),)) in lay and (1, (C("8D"),)) in lay and (2, (C("KC"),)) in lay
    with pytest.raises(NotationError, match="A16"):
        moves("5D 6D 7D", parse_cards("AS 2C"), C("QS"), plays=["1: AS"])
    res = moves("5D 6D 7D", parse_cards("AS 2C"), C("QS"), plays=["1: AS=8D"])
    assert res.table_text() == ["5D 6D 7D AS"]


def test_hr14_no_second_wild():
    with pytest.raises(RuleError, match="HR-14"):
        moves("7D AS 9D", parse_cards("AS 2C"), C("QS"), plays=["1: AS=10D"])


def test_hr26_single_natural_onto_two_plus_wild_and_the_exceptions():
    table, hand = "8C 8H AS", parse_cards("8S 2D")
    res = moves(table, hand, C("QS"))
    assert _moves(res, "lay-off") == [] and res.blocked[0].rule == "HR-26"
    with pytest.raises(RuleError, match="HR-26"):
        moves(table, hand, C("QS"), plays=["1: 8S"])
    for kw in ({"going_out": True}, {"one_card": True}):
        res = moves(table, hand, C("QS"), plays=["1: 8S"], **kw)
        assert res.table[0].reading.wild_as == (C("8D"),)  # the last missing suit
        assert res.played[0].rule == "HR-26"
    res = moves(table, hand, C("QS"), HandOptions(pair_wild_third_card=True), plays=["1: 8S"])
    assert res.played[0].rule == "HR-56"


def test_hr18_hr21_a6_before_the_initial_meld():
    table, hand = "7D AC 9D | 5S 6S 7S", parse_cards("8D 4S 2H")
    res = moves(table, hand, C("7C"), melded=False)
    assert res.moves == [] and "HR-18" in res.note
    with pytest.raises(RuleError, match="HR-18"):
        moves(table, hand, C("7C"), melded=False, plays=["2: 4S"])
    res = moves(table, hand, C("7C"), melded=False, going_out=True)
    assert _moves(res, "lay-off") == [(2, "4S", "4S 5S 6S 7S")]
    assert _moves(res, "swap") == [] and any(b.rule == "HR-21" for b in res.blocked)
    res = moves(table, hand, C("7C"), HandOptions(below_min_swaps=True), melded=False,
                going_out=True)
    assert _moves(res, "swap") == [(1, "8D", "7D 8D 9D")]


def test_a17_own_face_swap():
    # 7C turned: AC in QC KC AC stands for its own face; the natural AC is a joker (HR-8)
    res = moves("QC KC AC", parse_cards("Jk 2D"), C("7C"))
    assert _moves(res, "swap") == [(1, "Jk", "QC KC Jk")]
    res = moves("QC KC AC", parse_cards("Jk 2D"), C("7C"), HandOptions(own_face_swap="forbidden"))
    assert _moves(res, "swap") == [] and res.blocked[0].rule == "A17"


def test_hr55_swapped_wild_must_be_used():
    table, hand = "KS KH AC KD", parse_cards("KC 5D")
    assert _moves(moves(table, hand, C("7C")), "swap")
    o = HandOptions(swap_wild_must_be_used=True)
    res = moves(table, hand, C("7C"), o)
    assert _moves(res, "swap") == [] and res.blocked[0].rule == "HR-55"
    # with a natural run on the table the freed wild can be laid off
    assert _moves(moves(table + " | 5S 6S 7S", hand, C("7C"), o), "swap")


def test_hr30_keep_a_card_and_cards_come_from_the_hand():
    with pytest.raises(RuleError, match="HR-30"):
        moves("5D 6D 7D", [C("8D")], C("QS"), plays=["1: 8D"])
    with pytest.raises(RuleError, match="HR-23"):
        moves("5D 6D 7D", parse_cards("8D 2C"), C("QS"), plays=["1: 4D"])


def test_table_melds_must_be_valid_and_fixed():
    with pytest.raises(RuleError, match="table meld 1"):
        moves("5D 6D 8D", [C("2C")], C("QS"))
    with pytest.raises(NotationError, match="HR-25"):
        moves("10C AS 9C", [C("2C")], C("QS"))  # which end is the wild? declare it
    assert moves("10C AS=JC 9C", [C("2C")], C("QS")).table_text() == ["9C 10C AS"]
    with pytest.raises(NotationError):
        moves("5D 6D 7D", [C("2C")], C("QS"), plays=["one: 2C"])
    with pytest.raises(NotationError):
        moves("5D 6D 7D", [C("2C")], C("QS"), plays=["2: 2C"])


# ------------------------------------------------------------------------------ redeal

@pytest.mark.parametrize("hand,ind,cond", [
    ("5H 5H 9S 9S KD KD 2C 2C 3H 4H 6S 7S 8D 10C", "7C", "a"),
    ("5H 5H 9S 9S KD KD 2C 3H 4H 6S 7S 8D 10C AC", "7C", "b"),
    ("5H 5H 9S 9S KD KD 2C 3H 4H 6S 7S 8D 10C Jk", "AD", "b"),   # regime A: Jk wild
    ("5H 5H 9S 9S KD KD 2C 3H 4H 6S 7S 8D 10C Jk", "7C", None),  # regime N: Jk natural
    ("5H 5H 9S 9S KD KD Jk Jk 3H 4H 6S 7S 8D 10C", "7C", "a"),   # Jk + Jk is a pair
    ("5H 5H 9S 9S Jk Jk 2C 3H 4H 6S 7S 8D 10C QD", "7C", "c"),
    ("5H 5H 9S 9S Jk Jk 2C 3H 4H 6S 7S 8D 10C QD", "AD", "c"),
    ("5H 5H 9S 9S Jk 2C 3H 4H 6S 7S 8D 10C QD Jk KH", "AD", "c"),
    ("5H 5H 9S 2C 3H 4H 6S 7S 8D 10C QD Jk Jk KH", "7C", None),
    ("5H 5H 9S 9S AC AC 2C 3H 4H 6S 7S 8D 10C", "7C", None),     # 13 cards: refused below
])
def test_hr10_redeal(hand, ind, cond):
    cards = parse_cards(hand)
    if len(cards) not in (14, 15):
        with pytest.raises(RuleError, match="HR-10"):
            redeal(cards, C(ind))
        return
    res = redeal(cards, C(ind))
    assert res.condition == cond and res.allowed is (cond is not None)


def test_hr10_wild_pairs_a8():
    hand = parse_cards("5H 5H 9S 9S KD KD AC AC 2C 3H 4H 6S 7S 8D")
    assert redeal(hand, C("7C")).condition == "a"  # two wild aces form a pair (A8)
    res = redeal(hand, C("7C"), HandOptions(redeal_wild_pairs="exclude"))
    assert res.condition == "b" and res.extra == [C("AC")]


def test_hr10c_void_without_jokers():
    hand = parse_cards("5H 5H 9S 9S 2C 3H 4H 6S 7S 8D 10C QD KH 4C")
    assert not redeal(hand, C("7C"), HandOptions(wild_mode="no-jokers")).allowed
    with pytest.raises(RuleError, match="HR-46"):
        redeal(parse_cards("5H 5H 9S 9S 2C 3H 4H 6S 7S 8D 10C QD Jk Jk"), C("7C"),
               HandOptions(wild_mode="no-jokers"))
