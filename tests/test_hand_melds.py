"""Hand meld engine: the HR-17 worked examples (all 23 rows), reasons naming the rule, and
the variants that change melds (HR-46..HR-52, A1, A11, A16)."""
import pytest

from solver.cards import JOKER, Card, parse_cards
from solver.errors import NotationError, RuleError
from solver.hand import HandOptions, analyse_meld, check, make_regime, parse_meld
from solver.hand.options import SPECS
from solver.hand.regime import penalty

C = Card.parse

# (row, cards, indicators, valid, kind, wild stands for, value, rule of the refusal)
# "(7H)" rows: the seed names no indicator, "any leaving the cards natural"; "any" rows
# are checked under several indicators.
HR17 = [
    (1, "7D AC 9D", ["7C"], True, "run", {"8D"}, 24, None),
    (2, "5S 5C AC", ["7C"], True, "group", {"5H", "5D"}, 15, None),
    (3, "JC AC KC Jk", ["7C"], True, "run", {"QC"}, 41, None),
    (4, "QC KC AC", ["7C"], True, "run", {"AC"}, 31, None),
    (5, "AC KC AC", ["7C"], False, None, set(), None, "HR-14"),
    (6, "AS AD AH Jk", ["7C"], True, "group", set(), 44, None),
    (7, "AC AH Jk", ["7C"], True, "group", {"AD", "AS"}, 33, None),
    (8, "7D Jk 9D", ["AC"], True, "run", {"8D"}, 24, None),
    (9, "5S 5H Jk", ["AC"], True, "group", {"5C", "5D"}, 15, None),
    (10, "5S 5H AC", ["AC"], False, None, set(), None, "HR-9"),
    (11, "5H AS 7H", ["QS"], True, "run", {"6H"}, 18, None),
    (12, "9C 10C AS", ["QS"], True, "run", {"JC"}, 29, None),
    (13, "AS 9C 10C", ["QS"], True, "run", {"8C"}, 27, None),
    (14, "AS 7S 7D", ["QS"], True, "group", {"7H", "7C"}, 21, None),
    (15, "AC 2C 3C", ["7H", "AH"], True, "run", set(), 16, None),
    (16, "8H 9H 10H JH", ["7H", "AH"], True, "run", set(), 37, None),
    (17, "QS KS AS", ["7H", "AH"], True, "run", set(), 31, None),
    (18, "KS AS 2S", ["7H", "7S", "AS", "AH"], False, None, set(), None, "HR-12"),
    (18, "KH AH 2H", ["7C", "7H", "AD"], False, None, set(), None, "HR-12"),
    (19, "5D 5S 5H", ["7H", "AH"], True, "group", set(), 15, None),
    (20, "QD QS QH QC", ["7H", "AH"], True, "group", set(), 40, None),
    (21, "9H 9S 9H", ["7H", "AH", "9C", "7S"], False, None, set(), None, "HR-13"),
    (23, "QD QS QH W", ["7C", "5D", "AH", "KS"], True, "group", {"QC"}, 40, None),
]


def _wild_for(indicator: str) -> str:
    ind = C(indicator)
    return "Jk" if ind.rank == 1 else f"A{ind.suit}"


@pytest.mark.parametrize("row,cards,indicators,valid,kind,wild_as,value,rule", HR17,
                         ids=[f"row{r[0]}-{r[1]}" for r in HR17])
def test_hr17(row, cards, indicators, valid, kind, wild_as, value, rule):
    for ind in indicators:
        text = cards.replace("W", _wild_for(ind))
        cards_, declared = parse_meld(text)
        rep = analyse_meld(cards_, make_regime(C(ind)), declared=declared)
        assert rep.valid is valid, (ind, rep.reason)
        assert rep.kind == kind
        assert {repr(c) for c in rep.wild_as} == wild_as
        assert rep.value == value
        if not valid:
            assert rep.rule == rule and rule in rep.reason


def test_hr17_row22_two_melds_make_a_first_meld():
    res = check("AD 2D 3D 4D 5D | 9H 9S 9D", C("7H"))
    assert [r.value for r in res.reports] == [25, 27]
    assert res.total == 52 and res.opens and res.needed == 51


def test_hr17_row3_and_row6_jokers_are_natural_aces():
    rep = analyse_meld(parse_cards("JC AC KC Jk"), make_regime(C("7C")))
    assert rep.wild == C("AC") and rep.jokers_as == C("AC")
    assert rep.wild_text() == "AC = QC; Jk natural AC"
    rep = analyse_meld(parse_cards("AS AD AH Jk"), make_regime(C("7C")))
    assert rep.wild is None and rep.wild_text() == "Jk natural AC"


def test_hr17_row4_wild_stands_for_itself():
    rep = analyse_meld(parse_cards("QC KC AC"), make_regime(C("7C")))
    assert rep.wild_text() == "AC = itself"
    assert sorted(r.value for r in rep.readings) == [30, 31]  # J-Q-K or Q-K-A


def test_hr17_rows_12_13_order_declares_the_end_and_both_readings_are_reported():
    reg = make_regime(C("QS"))
    for text, chosen in (("9C 10C AS", "JC"), ("AS 9C 10C", "8C")):
        rep = analyse_meld(parse_cards(text), reg)
        assert rep.declared and repr(rep.wild_as[0]) == chosen
        assert sorted(repr(r.wild_as[0]) for r in rep.readings) == ["8C", "JC"]
    # written out of order: the better reading (A16 / issue 5)
    rep = analyse_meld(parse_cards("10C AS 9C"), reg)
    assert not rep.declared and rep.wild_as == (C("JC"),) and rep.value == 29
    # declared explicitly
    cards, decl = parse_meld("10C AS=8C 9C")
    rep = analyse_meld(cards, make_regime(C("7H")), declared=decl)
    assert not rep.valid and rep.rule == "HR-15"  # AS is natural under 7H: no declaration
    cards, decl = parse_meld("10C AS=8C 9C")
    rep = analyse_meld(cards, reg, declared=decl)
    assert rep.declared and rep.value == 27
    cards, decl = parse_meld("10C AS=QC 9C")
    rep = analyse_meld(cards, reg, declared=decl)
    assert not rep.valid and rep.rule == "HR-15" and "8C or JC" in rep.reason


def test_hr17_row14_wild_counts_once_at_the_group_rank():
    rep = analyse_meld(parse_cards("AS 7S 7D"), make_regime(C("QS")))
    assert rep.value == 21  # not 7 + 7 + 14


def test_reason_names_why_a_card_is_natural():
    rep = analyse_meld(parse_cards("5S 5H AC"), make_regime(C("AC")))
    assert "AC is a natural card here" in rep.reason and "HR-9" in rep.reason
    rep = analyse_meld(parse_cards("5S 5H Jk"), make_regime(C("7C")))
    assert "natural AC under indicator 7C (HR-8)" in rep.reason
    rep = analyse_meld(parse_cards("5S 5H AD"), make_regime(C("7C")))
    assert "only AC is wild under indicator 7C (HR-8)" in rep.reason


@pytest.mark.parametrize("text,rule,words", [
    ("5S 5H", "HR-11", "at least 3 cards"),
    ("5S 5H 5D 5C AC", "HR-13", "3 or 4 cards"),
    ("5S 6H 7D", "HR-13", "neither a group"),
    ("5S 6S 8S 9S", "HR-12", "missing 7S"),
    ("5S AC 8S 9S", "HR-12", "at most one wild"),
    ("5S 6S 6S", "HR-12", "6S twice"),
    ("QD KD AD 2D", "HR-12", "K-A-2"),
    ("JD QD KD AC 2D", "HR-12", "K-A-2"),
])
def test_invalid_melds_name_the_rule(text, rule, words):
    rep = analyse_meld(parse_cards(text), make_regime(C("7C")))
    assert not rep.valid and rep.rule == rule and words in rep.reason


def test_longest_runs():
    reg = make_regime(C("7H"))
    ace_low = analyse_meld(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"), reg)
    assert ace_low.valid and ace_low.value == 11 + sum(range(2, 10)) + 40
    too_long = analyse_meld(parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS AH"), reg)
    assert not too_long.valid
    wild_13 = analyse_meld(parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH"), reg)
    assert wild_13.valid and {repr(r.wild_as[0]) for r in wild_13.readings} == {"AS"}
    assert {r.lo for r in wild_13.readings} == {1, 2}  # ace low or ace high, never both


def test_copies_are_limited_by_the_two_packs_and_the_indicator():
    with pytest.raises(RuleError, match=r"HR-2"):
        check("5H 5H 5H", C("7C"))
    with pytest.raises(RuleError, match=r"indicator, out of play \(A1"):
        check("7C 7C 7D", C("7C"))
    assert check("7C 7C 7D", C("7C"), HandOptions(indicator_in_play=True)).reports[0].rule \
        == "HR-13"


# ---------------------------------------------------------------------------- variants

def test_wild_mode_jokers_only():
    o = HandOptions(wild_mode="jokers-only")
    reg = make_regime(None, o)
    assert analyse_meld(parse_cards("7D Jk 9D"), reg, o).value == 24
    rep = analyse_meld(parse_cards("5S 5H AC"), reg, o)
    assert not rep.valid and "HR-46" in rep.reason
    with pytest.raises(RuleError, match="HR-46"):
        make_regime(C("7C"), o)
    with pytest.raises(NotationError, match="HR-7"):
        make_regime(None)


def test_wild_mode_no_jokers():
    o = HandOptions(wild_mode="no-jokers")
    reg = make_regime(C("7C"), o)
    assert reg.wild == C("AC") and not reg.jokers_in_play
    assert analyse_meld(parse_cards("QC KC AC"), reg, o).wild_text() == "AC = itself"
    with pytest.raises(RuleError, match="HR-46"):
        check("7D Jk 9D", C("7C"), o)


def test_no_jokers_ace_indicator():
    o = HandOptions(wild_mode="no-jokers")
    with pytest.raises(RuleError, match="HR-47"):
        make_regime(C("AS"), o)
    o = HandOptions(wild_mode="no-jokers", no_jokers_ace_indicator="twin-wild")
    reg = make_regime(C("AS"), o)
    assert reg.name == "twin-wild" and reg.is_wild(C("AS")) and not reg.is_wild(C("AH"))
    assert check("5S 5H AS", C("AS"), o).reports[0].valid
    with pytest.raises(RuleError, match="HR-2"):  # the other AS is the indicator (A1)
        check("5S 5H AS | 6D 7D AS", C("AS"), o)


def test_ace_run_values():
    o = HandOptions(ace_low_run_value=1, ace_high_run_value=10)
    reg = make_regime(C("7H"), o)
    assert analyse_meld(parse_cards("AC 2C 3C"), reg, o).value == 6
    assert analyse_meld(parse_cards("QS KS AS"), reg, o).value == 30
    assert analyse_meld(parse_cards("AS AD AC"), reg, o).value == 33  # groups keep 11
    # A11: a wild standing for the ace takes the variant value ...
    reg = make_regime(C("AH"), o)
    assert analyse_meld(parse_cards("Jk 2S 3S"), reg, o).value == 6
    # ... or 11 with wild-ace-run-value=11
    o11 = HandOptions(ace_low_run_value=1, wild_ace_run_value="11")
    assert analyse_meld(parse_cards("Jk 2S 3S"), reg, o11).value == 16


def test_ace_penalty():
    reg = make_regime(C("7C"))
    assert [penalty(c, reg, HandOptions()) for c in parse_cards("AS Jk AC KD 5H")] == \
        [11, 11, 15, 10, 5]
    assert [penalty(c, reg, HandOptions(ace_penalty=10)) for c in parse_cards("AS Jk AC")] == \
        [10, 10, 15]


def test_initial_min_and_must_exceed():
    melds = "AD 2D 3D 4D 5D | 9H 9S 9D"
    assert not check(melds, C("7H"), HandOptions(initial_min=61)).opens
    o = HandOptions(initial_must_exceed=True)
    assert check(melds, C("7H"), o, to_beat=51).opens
    res = check(melds, C("7H"), o, to_beat=56)
    assert not res.opens and res.needed == 57


def test_run_wild_end_best():
    o = HandOptions(run_wild_end="best")
    rep = analyse_meld(parse_cards("AS 9C 10C"), make_regime(C("QS"), o), o)
    assert rep.value == 29 and not rep.declared


def test_invalid_meld_is_not_counted_and_does_not_open():
    res = check("QD QS QH QC | KD KS KH KC | 5S 6H 7D", C("7H"))
    assert res.total == 80 and not res.opens


#: options that only make sense with another one (HandOptions.check)
NEEDS = {"no-jokers-ace-indicator": ["wild-mode=no-jokers"],
         "ace-group-only-runs": ["discarded-wild=ace-group-only"]}


def test_every_option_parses_and_round_trips():
    for s in SPECS:
        for v in s.values[1:]:
            name = s.name if v is True else f"{s.name}={v}"
            opts = HandOptions.from_names([name] + NEEDS.get(s.name, []))
            assert getattr(opts, s.field) == v
            assert HandOptions.from_names(opts.names()) == opts
            assert HandOptions.from_names(str(opts).split(", ")) == opts
        with pytest.raises(NotationError, match=s.rule):
            HandOptions.from_names([f"{s.name}=bogus"])


@pytest.mark.parametrize("names, rule", [
    (["no-jokers-ace-indicator=twin-wild"], "HR-47"),
    (["ace-group-only-runs=high"], "A10"),
    (["ace-group-only-runs=high", "discarded-wild=never"], "A10"),
    (["bonus-jokers=ignore", "wild-mode=jokers-only"], "A12"),
])
def test_options_the_rules_do_not_combine_are_refused(names, rule):
    with pytest.raises(NotationError, match=rule):
        HandOptions.from_names(names)


def test_jokers_are_never_the_indicator():
    with pytest.raises(RuleError, match="HR-7"):
        make_regime(JOKER)
