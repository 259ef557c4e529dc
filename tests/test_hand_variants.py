"""Hand house rules as named options (issue 18): players=5, rounds=5, stock-end=penalties,
runs=14-card, wilds-per-meld=2 -- each changes what it says, is refused in combinations the rules forbid, and
simulated rounds under it pass the same checks as standard ones."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import SUITS, Card, parse_cards, standard_deck
from solver.errors import NotationError, RuleError
from solver.hand.analysis import score_sheet
from solver.hand.best import best
from solver.hand.bruteforce import brute_force
from solver.hand.engine import play
from solver.hand.analysis import analyse_round as analyse
from solver.hand.inference import truth
from solver.hand.melds import analyse_meld
from solver.hand.options import HandOptions
from solver.hand.regime import make_regime
from solver.hand.simulate import simulate
from solver.hand.table import moves
from solver.records import Record, parse_record, write_record
from tests.test_hand_inference import _can_take   # brute force with the round judge

C = Card.parse


def _sheet(variant: str, players: str, *rounds: str):
    return parse_record(f"game: hand\nvariant: {variant}\nplayers: {players}\n"
                        + "".join(r + "\n" for r in rounds))


def test_players_5():
    five = "Ana Ben Cleo Dev Eli"
    with pytest.raises(RuleError, match="HR-1"):
        _sheet("standard", five)
    assert _sheet("players=5", five).header.players[-1] == "Eli"
    with pytest.raises(NotationError, match="HR-1"):
        _sheet("players=5, teams", "Ana Ben Cleo Dev")
    with pytest.raises(RuleError, match="HR-1"):
        _sheet("players=5", "Ana Ben Cleo Dev Eli Fay")


def test_rounds_5_ends_the_game_after_five():
    rounds = [f"round {i}: Ana out partial; Ben 10" for i in range(1, 6)]
    sheet = score_sheet(_sheet("rounds=5", "Ana Ben", *rounds))
    assert sheet.status == "over" and sheet.winner == "Ana" and sheet.rounds_scored == 5
    assert score_sheet(_sheet("standard", "Ana Ben", *rounds)).status == "in progress"
    with pytest.raises(RuleError, match="HR-41"):
        _sheet("rounds=5", "Ana Ben", *rounds, "round 6: Ana out partial; Ben 10")
    # HR-43 applies to the last round: three deals of round 5 at most
    four = rounds[:4] + ["round 5: unscored stock"] * 3
    sheet = score_sheet(_sheet("rounds=5", "Ana Ben", *four))
    assert sheet.status == "over" and "round 5 was dropped" in sheet.note


def test_stock_end_penalties_scores_the_stock_round():
    line = "round 1: stock; Ana 12, Ben no-meld, Cleo 30"
    sheet = score_sheet(_sheet("stock-end=penalties", "Ana Ben Cleo", line))
    assert sheet.totals == {"Ana": 12, "Ben": 100, "Cleo": 30}
    assert sheet.next_dealer == "Ben"             # the worst round score deals (HR-5)
    with pytest.raises(RuleError, match="HR-35"):
        _sheet("standard", "Ana Ben Cleo", line)
    with pytest.raises(RuleError, match="HR-57"):
        _sheet("stock-end=penalties", "Ana Ben Cleo", "round 1: unscored stock")
    with pytest.raises(RuleError, match="HR-38"):
        _sheet("stock-end=penalties", "Ana Ben Cleo", "round 1: stock; Ana 12, Ben no-meld")
    with pytest.raises(NotationError):
        _sheet("stock-end=penalties", "Ana Ben Cleo", "round 1: Ana out stock; Ben 3, Cleo 4")


def test_stock_end_penalties_in_a_round_record():
    for seed in range(20):
        rec = simulate(3, ["stock-end=penalties"], seed)
        if rec.statements[-1].text.startswith("round 1: stock;"):
            break
    else:
        pytest.skip("no stock end in these seeds")
    again = parse_record(write_record(rec))
    assert play(again).over == "stock"
    text = write_record(rec).replace(rec.statements[-1].text, "round 1: unscored stock")
    with pytest.raises(RuleError, match="HR-57"):
        parse_record(text)


def test_runs_14_card():
    o = HandOptions(runs="14-card")
    ace_to_ace = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    reg = make_regime(C("7C"), o)
    rep = analyse_meld(ace_to_ace, reg, o)
    assert rep.valid and rep.value == 106 and (rep.chosen.lo, rep.chosen.hi) == (1, 14)
    assert not analyse_meld(ace_to_ace, reg, HandOptions()).valid           # HR-12
    assert not analyse_meld(parse_cards("KH AH 2H"), reg, o).valid          # still no wrap
    r = best(ace_to_ace + [C("5S")], C("7C"), o)
    assert r.can_go_out and [len(m) for m in r.go_out.melds] == [14]
    # a lay-off may make it 14 long
    res = moves("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", [C("AH")], C("7C"), o)
    assert any(m.kind == "lay-off" and len(m.result) == 14 for m in res.moves)
    res = moves("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", [C("AH")], C("7C"))
    assert not any(len(m.result) == 14 for m in res.moves)


@st.composite
def one_suit_hands(draw):
    suit = draw(st.sampled_from(SUITS))
    pool = [c for c in standard_deck(0) if c.suit == suit] * 2
    ind = draw(st.sampled_from([c for c in standard_deck(0) if c.suit != suit]))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=6, max_size=12, unique=True))
    return ind, [pool[i] for i in idx]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_suit_hands())
def test_best_equals_brute_force_with_14_card_runs(s):
    ind, hand = s
    o = HandOptions(runs="14-card")
    res, ref = best(hand, ind, o), brute_force(hand, ind, o)
    assert (res.best_initial.value if res.best_initial else 0) == ref.value
    assert res.can_go_out == ref.can_go_out


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000),
       variant=st.sampled_from([["players=5"], ["stock-end=penalties"], ["runs=14-card"],
                                ["players=5", "stock-end=penalties", "runs=14-card"],
                                ["wilds-per-meld=2"],
                                ["wilds-per-meld=2", "runs=14-card", "players=5"]]))
def test_simulated_rounds_under_the_house_rules(seed, variant):
    n = 5 if "players=5" in variant else 3
    rec = parse_record(write_record(simulate(n, variant, seed)))
    last = len(rec.statements)
    prefix = Record(rec.header, rec.statements[:2 * last // 3])
    where = truth(prefix)
    for view in rec.header.players[:2]:
        a = analyse(prefix, view, chances=False)
        for card, place in a.certain.items():
            assert where[card] == place
        for card, places in where.items():
            assert all(a.cards[card].get(p, 0) > 0 for p in places.split(", "))


# ------------------------------------------------------------------ wilds-per-meld=2 (HR-14)

TWO = HandOptions(wilds_per_meld=2)


@pytest.mark.parametrize("text, ind, kind, wild_as, value", [
    ("7D AC AC 10D", "7C", "run", "8D 9D", 34),      # two inside wilds
    ("AC KC AC", "7C", "run", "QC AC", 31),          # HR-17 row 5, valid under the option
    ("AC 7D AC", "7C", "run", "6D 8D", 21),          # one natural, a wild at each end
    ("7D AC AC", "7C", "run", "8D 9D", 24),          # both wilds at the high end
    ("Jk Jk 5S", "AS", "run", "3S 4S", 12),          # regime A: the jokers are the wilds
    ("7D 9D Jk Jk", "AH", "run", "8D 10D", 34),      # an end left open: the better reading
    ("5S 5H AC AC", "7C", "group", "5C 5D", 20),     # 2 + W + W: one missing suit each
    ("QS QH QD AC", "7C", "group", "QC", 40),        # one wild, as before
    ("7D AC 9D", "7C", "run", "8D", 24),             # HR-17 row 1 unchanged
])
def test_two_wilds_in_one_meld(text, ind, kind, wild_as, value):
    reg = make_regime(C(ind), TWO)
    rep = analyse_meld(parse_cards(text), reg, TWO)
    assert rep.valid and rep.kind == kind and rep.value == value
    assert sorted(map(repr, rep.wild_as)) == sorted(wild_as.split())
    n = sum(reg.is_wild(c) for c in parse_cards(text))
    if n == 2:    # the default still refuses two wilds (HR-14)
        std = analyse_meld(parse_cards(text), make_regime(C(ind)), HandOptions())
        assert not std.valid and std.rule == "HR-14" and "at most one wild" in std.reason


@pytest.mark.parametrize("text, rule, words", [
    ("7D AC AC AC 10D", "HR-14", "at most two wilds (wilds-per-meld=2); 3 here"),
    ("3D AC AC 7D", "HR-12", "missing 4D 5D 6D and a meld holds at most two wilds"),
    ("5S 5H 5D AC AC", "HR-13", "3 or 4 cards"),
    ("5S 5S AC AC", "HR-13", "5S twice"),
    ("KD AC 2D AC", "HR-12", "K-A-2"),
])
def test_two_wild_melds_refused_name_the_rule(text, rule, words):
    rep = analyse_meld(parse_cards(text), make_regime(C("7C"), TWO), TWO)
    assert not rep.valid and rep.rule == rule and words in rep.reason


def test_a_group_with_two_wilds_needs_two_naturals():
    reg = make_regime(C("7C"), TWO)
    rep = analyse_meld(parse_cards("5S AC AC"), reg, TWO)
    assert rep.valid and {r.kind for r in rep.readings} == {"run"}   # 3S-5S, 4S-6S, 5S-7S
    assert len(rep.readings) == 3 and rep.declared and rep.wild_as == (C("6S"), C("7S"))
    assert rep.wild_text() == "AC = 6S, AC = 7S"


def test_two_declared_wilds():
    from solver.hand.melds import parse_meld
    reg = make_regime(C("7C"), TWO)
    for text, value, wild_as in [("7D 9D AC=8D AC=10D", 34, "8D 10D"),
                                 ("7D 9D AC=6D AC=8D", 30, "6D 8D"),
                                 ("AC=10D 7D 9D AC", 34, "8D 10D")]:   # one declared: enough
        cards, decl = parse_meld(text)
        rep = analyse_meld(cards, reg, TWO, decl)
        assert rep.valid and rep.declared and rep.value == value
        assert set(map(repr, rep.wild_as)) == set(wild_as.split())
    cards, decl = parse_meld("7D 9D AC=5D AC=8D")
    rep = analyse_meld(cards, reg, TWO, decl)
    assert not rep.valid and rep.rule == "HR-15"
    cards, decl = parse_meld("5S 5H AC=5C AC=5D")
    assert analyse_meld(cards, reg, TWO, decl).value == 20
    cards, decl = parse_meld("5S 5H AC=5C AC=5C")    # each wild its own missing suit
    assert not analyse_meld(cards, reg, TWO, decl).valid


def test_a_second_wild_laid_off():
    hand = parse_cards("AC 5S")
    res = moves("7D AC 9D", hand, C("7C"), TWO)
    got = {" ".join(map(repr, m.result)) for m in res.moves if m.kind == "lay-off"}
    assert got == {"AC 7D AC 9D", "7D AC 9D AC"}                       # HR-23: 6D or 10D
    assert not moves("7D AC 9D", hand, C("7C")).moves                 # HR-14: not by default
    with pytest.raises(RuleError, match="HR-14"):
        moves("7D AC 9D", hand, C("7C"), plays=["1: AC=10D"])
    res = moves("7D AC 9D", hand, C("7C"), TWO, plays=["1: AC=10D"])
    assert res.table_text() == ["7D AC 9D AC"] and res.table[0].reading.wild_as == (C("8D"),
                                                                                    C("10D"))
    with pytest.raises(NotationError, match="A16"):                  # which end? say it
        moves("7D AC 9D", hand, C("7C"), TWO, plays=["1: AC"])
    # two wilds at once onto a wild-free run
    res = moves("7D 8D 9D", parse_cards("AC AC 5S"), C("7C"), TWO, plays=["1: AC=10D AC=JD"])
    assert res.table_text() == ["7D 8D 9D AC AC"]
    # a second wild on 2 + W narrows the first to one suit: HR-26, as a single natural
    res = moves("5S 5H AC", hand, C("7C"), TWO)
    assert not res.moves and res.blocked[0].rule == "HR-26"
    assert "second wild" in res.blocked[0].reason
    res = moves("5S 5H AC", hand, C("7C"), TWO, going_out=True, plays=["1: AC"])
    assert res.table_text() == ["5S 5H AC AC"]
    assert sorted(map(repr, res.table[0].reading.wild_as)) == ["5C", "5D"]


def test_a_swap_from_a_two_wild_meld():
    # a run: each wild by the natural of its own position; the other keeps its place (HR-25)
    res = moves("7D AC 9D AC", parse_cards("10D 3S"), C("7C"), TWO, plays=["1: 10D"])
    assert res.table_text() == ["7D AC 9D 10D"] and res.table[0].reading.wild_as == (C("8D"),)
    assert res.hand.count(C("AC")) == 1
    res = moves("7D AC 9D AC", parse_cards("8D 10D 3S"), C("7C"), TWO)
    swaps = sorted(" ".join(map(repr, m.result)) for m in res.moves if m.kind == "swap")
    assert swaps == ["7D 8D 9D AC", "7D AC 9D 10D"]
    # 2 + W + W: either missing natural frees one wild; the other then stands for the last
    res = moves("5S 5H AC AC", parse_cards("5C 3S"), C("7C"), TWO, plays=["1: 5C"])
    assert res.table_text() == ["5S 5H 5C AC"] and res.table[0].reading.wild_as == (C("5D"),)
    with pytest.raises(RuleError):                  # one wild a swap: not both at once
        moves("5S 5H AC AC", parse_cards("5C 5D 3S"), C("7C"), TWO, plays=["1: 5C 5D"])
    # a 2 + W group's one wild still takes both missing naturals (HR-24)
    res = moves("5S 5H AC", parse_cards("5C 5D 3S"), C("7C"), TWO, plays=["1: 5C 5D"])
    assert res.table_text() == ["5S 5H 5D 5C"]


def test_taking_a_discard_into_two_wilds():
    from solver.hand.taking import take
    hand = parse_cards("AC AC 5S 9H")
    assert take(hand, C("7D"), C("7C"), TWO, opened=True).may_take          # 7D AC AC
    assert not take(hand, C("7D"), C("7C"), HandOptions(), opened=True).may_take


def test_take_chance_counts_two_wilds():
    """A pattern W W needs both wilds: the exact count against a brute-force enumeration."""
    from itertools import combinations
    from math import comb

    from solver.hand.best import WILD
    from solver.hand.inference import _pair_chance
    reg = make_regime(C("7C"), TWO)
    unseen = Counter(parse_cards("AC AC 8D 9D 2S 3H"))
    pats = [(WILD, WILD), (C("8D"), C("9D"))]
    cards = list(unseen.elements())
    for m in (2, 3, 4):
        good = sum(1 for hand in combinations(range(len(cards)), m)
                   if [cards[i] for i in hand].count(C("AC")) == 2
                   or {C("8D"), C("9D")} <= {cards[i] for i in hand})
        assert _pair_chance(pats, Counter(), unseen, m, reg) == pytest.approx(
            good / comb(len(cards), m))
    # one wild known, one to draw
    assert _pair_chance([(WILD, WILD)], Counter([C("AC")]), Counter(parse_cards("AC 2S")), 1,
                        reg) == pytest.approx(0.5)


@st.composite
def two_wild_hands(draw):
    """Cards of one or two suits with both wilds of the indicator's suit (7C: AC AC)."""
    suits = draw(st.lists(st.sampled_from("SHD"), min_size=1, max_size=2, unique=True))
    pool = [c for c in standard_deck(0) if c.suit in suits and c.rank <= 9] * 2
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=4, max_size=9, unique=True))
    return [C("AC"), C("AC")] + [pool[i] for i in idx]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_wild_hands())
def test_best_equals_brute_force_with_two_wilds_a_meld(hand):
    ind = C("7C")
    res, ref = best(hand, ind, TWO), brute_force(hand, ind, TWO)
    assert (res.best_initial.value if res.best_initial else 0) == ref.value
    assert res.can_go_out == ref.can_go_out
    std = brute_force(hand, ind, HandOptions())
    assert ref.value >= std.value                 # the option only adds melds


def test_best_uses_two_wilds_in_one_meld():
    hand = parse_cards("7D AC AC 10D 2S")
    r = best(hand, C("7C"), TWO)
    assert r.can_go_out and r.go_out.melds == [parse_cards("7D AC AC 10D")]
    assert not best(hand, C("7C")).can_go_out


#: 4-player simulated seeds whose rounds hold a two-wild meld (the simulator is seeded)
TWO_WILD_SEEDS = (99, 114, 222)


def test_simulated_rounds_with_two_wild_melds():
    from solver.hand.events import Melds
    found = 0
    for seed in TWO_WILD_SEEDS:
        rec = parse_record(write_record(simulate(4, ["wilds-per-meld=2"], seed)))
        s = play(rec)
        found += any(sum(s.regime.is_wild(c) for c in m.cards) == 2
                     for st_ in rec.statements if isinstance(st_.event, Melds)
                     for m in st_.event.melds)
        where = truth(rec)
        a = analyse(rec, rec.header.players[0], chances=False)
        for card, place in a.certain.items():
            assert where[card] == place
    assert found, "no simulated two-wild meld: pick new TWO_WILD_SEEDS"


TWO_WILD_ROUND = """game: hand
variant: wilds-per-meld=2
players: Ana Ben
dealer: Ben
indicator 7C
Ana holds: 7D AC AC 10D QS QH QD KS KH 2S 3S 4S 5H 6H 8C
Ben holds: 8D 9D JS JH JD 10S 10H 10C 3C 4C 5C 9S 2D 6D
Ana melds 7D AC AC 10D | QS QH QD
Ana discards 8C
Ben draws 4D
Ben melds JS JH JD | 10S 10H 10C
Ben swaps 8D on 1
Ben swaps 9D on 1
Ben melds 3C 4C 5C AC
Ben lays off AC=2C on 5
Ben discards 9S
Ana draws 2C
Ana swaps 2C on 5
Ana melds KS KH AC
Ana discards 5H
"""


def test_a_round_with_two_wild_melds():
    s = play(parse_record(TWO_WILD_ROUND))
    assert [e.text() for e in s.table] == ["7D 8D 9D 10D", "QS QH QD", "JS JH JD",
                                           "10S 10H 10C", "2C 3C 4C 5C AC", "KS KH AC"]
    assert s.table_text().split(" | ")[4] == "2C 3C 4C 5C AC=6C"
    assert s.players["Ana"].hand() == parse_cards("2S 3S 4S 6H")
    with pytest.raises(RuleError, match="HR-14"):
        parse_record(TWO_WILD_ROUND.replace("variant: wilds-per-meld=2\n", ""))
    with pytest.raises(NotationError, match="HR-14"):
        parse_record(TWO_WILD_ROUND.replace("wilds-per-meld=2", "wilds-per-meld=3"))


def test_wilds_per_meld_is_listed_with_its_rule():
    from solver.hand.options import option_table
    row = next(r for r in option_table() if r[0] == "wilds-per-meld")
    assert row[1] == "1 | 2" and row[2] == "HR-14" and "two naturals" in row[3]


def test_wilds_per_meld_on_the_command_line():
    from click.testing import CliRunner

    from cli.main import cli
    run = CliRunner()
    r = run.invoke(cli, ["rules", "hand"])
    assert r.exit_code == 0 and "wilds-per-meld=1|2 (HR-14)" in r.output
    r = run.invoke(cli, ["rules", "HR-14"])
    assert r.exit_code == 0 and "wilds_per_meld" in r.output
    r = run.invoke(cli, ["hand", "check", "7D 9D AC AC", "-i", "7C", "-v", "wilds-per-meld=2"])
    said = " ".join(r.output.split())          # a long row is broken at spaces (80 columns)
    assert r.exit_code == 0 and "AC = 8D, AC = 10D; or AC = 6D & AC = 8D (30)" in said
    r = run.invoke(cli, ["hand", "check", "7D 9D AC AC", "-i", "7C", "-v", "wilds-per-meld=3"])
    assert r.exit_code == 2 and "wilds-per-meld is 1 | 2 (HR-14)" in r.output
    # the freed wild's new place, not the other wild's (HR-24 then HR-23)
    r = run.invoke(cli, ["hand", "moves", "-t", "7D AC 9D AC", "--hand", "10D 3S", "-i", "7C",
                         "-v", "wilds-per-meld=2"])
    assert r.exit_code == 0 and "AC on 1 (AC=6D); AC on 1 (AC=JD)" in r.output


@settings(max_examples=30, deadline=None)
@given(data=st.data(), ind=st.sampled_from([C("9H"), C("4C"), C("AS")]),
       variant=st.sampled_from([["wilds-per-meld=2"],
                                ["wilds-per-meld=2", "discarded-wild=free"]]))
def test_take_chance_equals_brute_force_with_two_wilds(data, ind, variant):
    """Deals holding both copies of the wild: a W W pair takes a natural (HR-29)."""
    from itertools import combinations
    from solver.hand.engine import start
    from solver.hand.inference import _pair_chance, _patterns
    from solver.records import Header

    o = HandOptions.from_names(variant)
    s = start(Header("hand", ("Ana", "Ben", "Cleo")), o)
    s.regime, s.indicator = make_regime(ind, o), ind
    wild = s.regime.wild
    near = [Card(r, x) for x in ("H", "C") for r in (2, 3, 4, 5, 6, 7, 12, 13)] + [wild, wild]
    near = [c for c in near if c != ind]
    card = data.draw(st.sampled_from([c for c in near if c != wild] + [wild]))
    rest = list(near)
    rest.remove(card)
    idx = data.draw(st.lists(st.integers(0, len(rest) - 1), min_size=3, max_size=8,
                             unique=True))
    pool = [rest[i] for i in idx]
    m = data.draw(st.integers(1, min(4, len(pool))))
    combos = list(combinations(range(len(pool)), m))
    want = sum(_can_take(card, [pool[i] for i in ix], s) for ix in combos)
    got = _pair_chance(_patterns(card, s), Counter(), Counter(pool), m, s.regime)
    assert abs(got - want / len(combos)) < 1e-12, (card, pool, m)


SECOND_WILD = """game: hand
variant: wilds-per-meld=2{extra}
players: Ana Ben
dealer: Ben
indicator 7C
Ana holds: KS KH AC QS QH QD JS JH JD AC 2S 3S 4S 5H 8C
Ben holds: 8D 9D JC 10D 10S 10H 10C 3C 4C 5C 9S 2D 6D 6S
Ana melds KS KH AC | QS QH QD | JS JH JD
Ana lays off AC on 1
{end}"""


def test_a_second_wild_on_a_pair_and_wild_group_in_a_round():
    """HR-26 for the second wild: only when going out, or a player then holds one card."""
    with pytest.raises(RuleError, match="HR-26") as e:
        parse_record(SECOND_WILD.format(extra="", end="Ana discards 8C\n"))
    assert "second wild" in str(e.value)
    s = play(parse_record(SECOND_WILD.format(extra=", first-turn-win",
                                             end="Ana melds 2S 3S 4S\nAna discards 5H\n")))
    assert s.table[0].meld.text() == "KS KH AC AC"
    assert sorted(map(repr, s.table[0].meld.reading.wild_as)) == ["KC", "KD"]


def test_hr17_under_two_wilds_a_meld():
    """Every HR-17 row reads the same under wilds-per-meld=2 but row 5, which becomes valid."""
    from solver.hand.melds import parse_meld
    from tests.test_hand_melds import HR17, _wild_for
    for row, cards, indicators, valid, kind, wild_as, value, rule in HR17:
        for ind in indicators:
            text = cards.replace("W", _wild_for(ind))
            cs, decl = parse_meld(text)
            rep = analyse_meld(cs, make_regime(C(ind), TWO), TWO, decl)
            if row == 5:
                assert rep.valid and rep.kind == "run" and rep.value == 31
                assert rep.wild_text() == "AC = QC, AC = itself"
                continue
            assert (rep.valid, rep.kind, rep.value) == (valid, kind, value), (row, ind)
            assert {repr(c) for c in rep.wild_as} == wild_as
