"""A card turned up for the indicator and put back into the stock: a joker (HR-7), or an ace
under ``wild-mode=no-jokers`` with ``no-jokers-ace-indicator=redraw`` (HR-47).  It is written
``indicator Jk`` before the real ``indicator`` line, is seen by everyone, sits in the stock at
A2's place (draw ``stock // 2``) and is known in the hand of whoever draws it."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from solver.cards import JOKER
from solver.errors import RuleError
from solver.hand.analysis import analyse_round
from solver.hand.engine import play, put_back_draws
from solver.hand.events import Draw
from solver.hand.inference import truth
from solver.hand.simulate import _options, deal, simulate
from solver.records import Record, parse_record, write_record

HEAD = """game: hand
{variant}players: Ana Ben Cleo
dealer: Ben
me: Ana
"""
ANA = "Ana holds: AS 2S JS QS 3H 5H 9H JH QH KH 2D QD 2C 6C QC\n"


def _record(body: str, variant: str = "") -> Record:
    return parse_record(HEAD.format(variant=f"variant: {variant}\n" if variant else "") + body)


def test_a_turned_joker_is_in_the_stock_and_one_joker_is_left_for_the_hands():
    a = analyse_round(_record("indicator Jk\nindicator 4H\n" + ANA), "Ana", chances=False)
    d = a.to_json()
    jk = d["cards"]["Jk"]
    assert jk["Ben"] + jk["Cleo"] <= 1
    # one unseen joker over Ben 14, Cleo 14 and the 61 unknown stock cards: hypergeometric
    assert jk["Ben"] == pytest.approx(float(Fraction(14, 89)), abs=1e-12)
    assert jk["stock"] == pytest.approx(1 + float(Fraction(61, 89)), abs=1e-12)
    assert sum(jk.values()) == pytest.approx(2)
    assert d["unseen"]["Jk"] == 1 and d["unknown_places"]["stock"] == 61
    assert d["stock"] == 62 and d["stock_known"] == [{"card": "Jk", "position": 31}]
    assert d["indicator"] == "4H"


def test_a_put_back_ace_under_no_jokers_redraw_is_certain_in_the_stock():
    # Ana holds one AS; the other was turned and put back: both copies are certain
    a = analyse_round(_record("indicator AS\nindicator 4H\n" + ANA, "wild-mode=no-jokers"),
                      "Ana", chances=False)
    d = a.to_json()
    assert d["cards"]["AS"] == {"Ana": 1.0, "stock": 1.0}
    assert a.certain["AS"] == "Ana, stock"
    assert "Jk" not in d["cards"]


@pytest.mark.parametrize("body, variant, rule", [
    ("indicator Jk\nindicator Jk\nindicator Jk\nindicator 4H\n", "", "HR-2"),   # two jokers
    ("indicator Jk\n" + ANA, "", "HR-7"),                     # the real indicator still to come
    ("indicator Jk\nindicator 4H\nBen holds: Jk Jk 2S 3S 4S 5S 6S 7S 8S 9S 10S KS 2H 4C\n",
     "", "HR-2"),                                             # a third joker
    ("indicator Jk\nindicator 4H\n", "wild-mode=no-jokers", "HR-46"),
    ("indicator AS\nindicator AS\nindicator AS\nindicator 4H\n", "wild-mode=no-jokers",
     "HR-2"),
])
def test_put_back_cards_are_checked(body, variant, rule):
    with pytest.raises(RuleError) as e:
        _record(body, variant)
    assert e.value.rule == rule


@pytest.mark.parametrize("body, variant, indicator, turned", [
    ("indicator Jk\nindicator Jk\nindicator 7C\n", "", "7C", ["Jk", "Jk"]),
    ("indicator AS\n", "", "AS", []),                                   # regime A (HR-9)
    ("indicator AS\n", "wild-mode=no-jokers,no-jokers-ace-indicator=twin-wild", "AS", []),
    ("indicator AD\nindicator AD\nindicator 9C\n", "wild-mode=no-jokers", "9C", ["AD", "AD"]),
])
def test_which_turned_cards_are_put_back(body, variant, indicator, turned):
    s = play(_record(body, variant))
    assert repr(s.indicator) == indicator
    assert sorted(map(repr, s.stock_known.values())) == turned


@pytest.mark.parametrize("variant, players", [([], 3), (["wild-mode=no-jokers"], 3),
                                              (["players=5"], 5), ([], 2)])
def test_a2_places_match_the_simulated_deal(variant, players):
    """The engine's draw numbers for put-back cards are where the simulator's deal put them
    (several cards put back included)."""
    o = _options(variant)
    checked = 0
    for seed in range(1500):
        _, _, stock, turned = deal(players, o, random.Random(seed))
        if not turned:
            continue
        for n, c in put_back_draws(turned, len(stock)).items():
            assert stock[n - 1] == c, (seed, n)
        checked += 1
    assert checked > 10


def test_the_turned_joker_among_the_public_deals():
    """Public view after the deal: E[jokers in Ben's hand] = 14/104 (one joker unseen among
    the 104 cards in hands and stock), not 2 * 14/105 as when the turned one was unseen.
    The simulator's deals with a joker turned agree."""
    o = _options([])
    hits = total = 0
    for seed in range(40000):
        hands, ind, stock, turned = deal(3, o, random.Random(seed))
        if turned != [JOKER]:
            continue
        total += 1
        hits += hands[2].count(JOKER)     # hands[0] is the starter's (Ana's); Ben's is last
    want = 14 / 104
    assert total > 500
    assert abs(hits / total - want) < 4 * (want * (1 - want) / total) ** 0.5
    rec = parse_record(HEAD.replace("me: Ana\n", "").format(variant="")
                       + "indicator Jk\nindicator 4H\n")
    got = analyse_round(rec, None, chances=False).to_json()["cards"]["Jk"]
    assert got["Ben"] == pytest.approx(want) and got["Ana"] == pytest.approx(15 / 104)


def _simulated_with_turned_joker():
    rec = simulate(3, [], seed=201)
    assert str(rec.statements[0].event) == "indicator Jk"
    draws = [i for i, st in enumerate(rec.statements) if isinstance(st.event, Draw)]
    return rec, draws[30]            # the 31st stock draw takes the turned joker (62 // 2)


def test_simulated_records_carry_the_turned_joker_and_its_draw_is_known():
    rec, i = _simulated_with_turned_joker()
    assert str(rec.statements[1].event).startswith("indicator ")
    drawer = rec.statements[i].event.player
    assert str(rec.statements[i].event) == f"{drawer} draws Jk"
    assert truth(Record(rec.header, rec.statements[:i], rec.path))["Jk"].count("stock") >= 1
    # any other seat's view: the draw is unnamed for it, yet the card drawn is the joker
    other = next(p for p in rec.header.players if p != drawer)
    prefix = Record(rec.header, rec.statements[:i + 1], rec.path)
    before = analyse_round(Record(rec.header, rec.statements[:i], rec.path), other,
                           chances=False).to_json()
    after = analyse_round(prefix, other, chances=False).to_json()
    assert before["stock_known"] == [{"card": "Jk", "position": 1}]
    assert after["stock_known"] == []
    assert after["cards"]["Jk"][drawer] >= 1.0
    assert "Jk" in after["hands"][drawer]["known"]


def test_a_named_draw_at_the_turned_jokers_place_must_be_the_joker():
    rec, _ = _simulated_with_turned_joker()
    written = parse_record(write_record(rec))
    st = [s for s in written.statements if isinstance(s.event, Draw)][30]
    assert str(st.event) == f"{st.event.player} draws Jk"
    # a card with a copy never seen in the record (left in the stock): only A2 refuses it
    other = next(c for c, where in truth(rec).items() if "stock" in where and c != "Jk")
    lines = write_record(rec).splitlines()
    assert lines[st.line - 1] == str(st.event)
    lines[st.line - 1] = f"{st.event.player} draws {other}"
    with pytest.raises(RuleError) as e:
        parse_record("\n".join(lines) + "\n")
    assert e.value.rule == "HR-7" and other in str(e.value) and "A2" in str(e.value)
    assert f":{st.line}:" in str(e.value)


def test_the_public_cards_sum_to_their_copies_after_a_put_back_ace():
    a = analyse_round(_record("indicator AC\nindicator AC\nindicator 9C\n" + ANA,
                              "wild-mode=no-jokers"), None, chances=False).to_json()
    assert a["cards"]["AC"] == {"stock": 2.0}
    assert a["stock_known"] == [{"card": "AC", "position": 29}, {"card": "AC", "position": 30}]
    for name, dist in a["cards"].items():
        assert sum(dist.values()) == pytest.approx(2), name   # 60 cards in the stock
