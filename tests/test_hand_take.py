"""``sleuth hand take``: every taken-discard rule and option as table-driven cases (HR-29,
HR-30, HR-31, HR-32, HR-52, HR-53, HR-54, A4, A10), the CLI and its JSON."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.cards import Card, parse_cards
from solver.hand.melds import analyse_meld
from solver.hand.options import HandOptions
from solver.hand.regime import make_regime
from solver.hand.taking import take

C = Card.parse

# (hand before the draw, discard, indicator, variant, opened, extra kwargs,
#  may take?, rule of the refusal, goes out?, opens?)
CASES = [
    # HR-29: a new meld with at least two hand cards ...
    ("5H 6H 9S 9D KC", "7H", "2C", [], True, {}, True, None, False, False),
    ("7S 7D 9S 2C KC", "7H", "2C", [], True, {}, True, None, False, False),
    # ... not with one hand card
    ("5H 9S 9D KC 2C", "7H", "2C", [], True, {}, False, "HR-29", False, False),
    # HR-29: without an initial meld it must thereby make one (51) ...
    ("7S 7D KH QH 2C 3C 9D 4S 8C 10S 5D 6S JC 2D", "7H", "5C", [], False, {}, False,
     "HR-29", False, False),
    ("7S 7D KH QH JH 2C 3C 9D 4S 8C 10S 5D 6S 2D", "7H", "5C", [], False, {}, True, None,
     False, True),
    # ... or go out with it (HR-21, below the minimum)
    ("2S 2D 3H 4H 5H 9C", "2H", "9C", [], False, {}, True, None, True, False),
    # HR-30: two cards plus a matching discard cannot all be melded
    ("5H 6H", "7H", "2C", [], True, {}, False, "HR-30", False, False),
    # HR-32: no going out on one's own first turn
    ("2S 2D 3H 4H 5H 9C", "2H", "9C", [], False, {"first_turn": True}, False, "HR-32",
     False, False),
    ("2S 2D 3H 4H 5H 9C", "2H", "9C", ["first-turn-win"], False, {"first_turn": True}, True,
     None, True, False),
    # HR-52: the last initial meld must be beaten
    ("7S 7D KH QH JH 2C 3C 9D 4S 8C 10S 5D 6S 2D", "7H", "5C", ["initial-must-exceed"],
     False, {"to_beat": 51}, False, "HR-29", False, False),
    # HR-31: a discarded wild ace only as the natural ace of its suit (AC: with AS AD) ...
    ("AS AD 5H 9S", "AC", "5C", [], True, {}, True, None, False, False),
    # ... never as the wild it was (8D between 7D and 9D)
    ("7D 9D 5H 9S", "AC", "5C", [], True, {}, False, "HR-31", False, False),
    # HR-31: a discarded wild joker (an ace turned: regime A) only as an ace, any suit
    ("AH AD 5H 9S", "Jk", "AS", [], True, {}, True, None, False, False),
    ("QD KD 5H 9S", "Jk", "AS", [], True, {}, True, None, False, False),
    ("7D 9D 5H 9S", "Jk", "AS", [], True, {}, False, "HR-31", False, False),
    # HR-54 discarded-wild=free: any use a wild has
    ("7D 9D 5H 9S", "AC", "5C", ["discarded-wild=free"], True, {}, True, None, False, False),
    # HR-54 never
    ("AS AD 5H 9S", "AC", "5C", ["discarded-wild=never"], True, {}, False, "HR-54", False,
     False),
    # HR-54 ace-group-only: a group of aces, no run (A10) ...
    ("AS AD 5H 9S", "AC", "5C", ["discarded-wild=ace-group-only"], True, {}, True, None,
     False, False),
    ("QC KC 5H 9S", "AC", "5C", ["discarded-wild=ace-group-only"], True, {}, False, "HR-54",
     False, False),
    # ... A10's literal reading: only A-2-3 is excluded, Q-K-A allowed
    ("QC KC 5H 9S", "AC", "5C", ["discarded-wild=ace-group-only", "ace-group-only-runs=high"],
     True, {}, True, None, False, False),
    ("2C 3C 5H 9S", "AC", "5C", ["discarded-wild=ace-group-only", "ace-group-only-runs=high"],
     True, {}, False, "HR-54", False, False),
    # A4: the taken ace is natural, so it goes with the hand's wild (QC KC AC-as-ace + Jk
    # natural is no wild; here 9S AC: the wild AC of the hand stands in a run with it)
    ("AS AC 5H 9S", "AC", "5C", [], True, {}, True, None, False, False),
    # A4 taken-wild=wild: it stays a wild, so it cannot join a meld holding the other wild
    ("AS AC 5H 9S", "AC", "5C", ["taken-wild=wild"], True, {}, False, "HR-31", False, False),
    ("AS AD 5H 9S", "AC", "5C", ["taken-wild=wild"], True, {}, True, None, False, False),
    # HR-53 discard-layoff: laid off alone when the discarder has a meld on the table
    ("2C 9S KD", "8H", "QS", ["discard-layoff"], True, {"table": "5H 6H 7H"}, True, None,
     False, False),
    ("2C 9S KD", "8H", "QS", ["discard-layoff"], True,
     {"table": "5H 6H 7H", "discarder_melded": False}, False, "HR-29", False, False),
    ("2C 9S KD", "8H", "QS", [], True, {"table": "5H 6H 7H"}, False, "HR-29", False, False),
]


@pytest.mark.parametrize("hand, discard, ind, variant, opened, kw, ok, rule, out, opens", CASES)
def test_taken_discard_rules(hand, discard, ind, variant, opened, kw, ok, rule, out, opens):
    o = HandOptions.from_names(variant)
    r = take(parse_cards(hand), C(discard), C(ind), o, opened=opened, **kw)
    assert r.may_take == ok, r.reason
    if not ok:
        assert r.rule == rule and rule in r.reason and r.with_discard is None
        return
    w = r.with_discard
    assert r.reason is None and w.goes_out == out and w.opens == opens
    # every meld of the plan is a valid meld holding the taken card's identity ...
    regime = make_regime(C(ind), o)
    for m in w.melds:
        assert analyse_meld(m, regime, o).valid or C(discard) in m
    assert any(C(discard) in m for m in w.melds) or w.layoffs
    # ... and the plan uses the hand plus the discard exactly
    used = [c for m in w.melds for c in m] + w.left + [c for _, cs in w.layoffs for c in cs]
    if w.goes_out and w.discard is not None and w.discard not in w.left:
        used.append(w.discard)
    assert sorted(used, key=repr) == sorted(parse_cards(hand) + [C(discard)], key=repr)


def test_from_stock_is_the_best_without_the_discard():
    r = take(parse_cards("AH 2H 3H 4H 5H 9S 9D 9C KC"), C("7H"), C("7S"))
    assert not r.may_take
    s = r.from_stock
    assert s.value == 52 and s.opens and not s.goes_out    # KC stays with the drawn card
    r = take(parse_cards("AH 2H 3H 4H 5H 9S 9D 9C"), C("7H"), C("7S"))
    assert r.from_stock.goes_out                     # meld all eight, discard the draw


def test_cli_take_json_has_the_contract_keys():
    r = CliRunner().invoke(cli, ["hand", "take", "7S 7D KH QH JH 2C 3C 9D", "--discard", "7H",
                                 "-i", "5C", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert {"may_take", "reason", "with_discard", "from_stock"} <= set(d)
    assert d["may_take"] is True and d["reason"] is None
    assert set(d["with_discard"]) >= {"melds", "value", "opens", "goes_out", "discard"}
    assert d["with_discard"]["opens"] and d["with_discard"]["value"] == 51
    assert d["with_discard"]["discard"] == "9D"


def test_cli_take_refusal_names_the_rule():
    r = CliRunner().invoke(cli, ["hand", "take", "5H 6H", "-d", "7H", "-i", "5C", "--opened"])
    assert r.exit_code == 0 and "HR-30" in r.output and "may not take 7H" in r.output
    r = CliRunner().invoke(cli, ["hand", "take", "5H 6H", "-d", "7H", "-i", "5C", "--json",
                                 "--opened", "-v", "discarded-wild=never"])
    d = json.loads(r.output)
    assert d["may_take"] is False and d["with_discard"] is None and "HR-30" in d["reason"]


def test_cli_take_bad_card_exits_2():
    r = CliRunner().invoke(cli, ["hand", "take", "5H 6H", "-d", "7X", "-i", "5C"])
    assert r.exit_code == 2 and "7X" in r.output
