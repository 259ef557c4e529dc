"""What a Twenty-Two observer can infer (I1..I6), views, inconsistencies and the exact
showdown risk."""
from __future__ import annotations

import pytest

from solver.model.budget import Budget
from solver.errors import InconsistentError, NotationError
from tests.helpers import record
from solver.twenty_two import GAME
from solver.twenty_two.analysis import check
from solver.twenty_two.inference import as_written_by

FAST = dict(budget=Budget(samples=60))


def rec(body, players="Ana Ben Cleo", variant="", dealer="Cleo", me="Ana"):
    return record("twenty-two", body, players=players, variant=variant, dealer=dealer, me=me)


def at(a, name):
    return a.possible[name]


def test_i1_unseen_cards_and_sizes():
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 2C 3C 4C 5C 6C 7C 8C
Ana exchanges 2: 2C 3C -> 9H 10H
Ben exchanges 1
Cleo exchanges 0
Ana leads 4C; Ben 9D; Cleo 2D
"""), "Ana", **FAST)
    assert sum(a.unseen.values()) == 52 - 3 - 6 - 2   # played, my hand, my discards
    assert a.sizes == {"Ana": 6, "Ben": 6, "Cleo": 6, "stock": 28, "discards": 3, "out": 3}
    assert at(a, "2C") == {"discards"} and at(a, "9H") == {"Ana"} and at(a, "9D") == {"out"}
    assert a.cards["2C"] == {"discards": 1.0}
    assert a.unseen["2"] == 2 and "Jk" not in a.unseen
    for rank, k in a.unseen.items():          # the unseen copies are somewhere hidden
        assert sum(a.unseen_where[rank].values()) == pytest.approx(k), rank
    assert a.unseen_where["2"].get("discards", 0) < 1    # my own 2C is not counted there


def test_i2_lowest_cards_play_bounds_the_hand():
    body = """
Cleo deals 7
Ana holds: 9H 10H JH QH KH AH 2C
Ana leads 9H; Ben 2D; Cleo 5C
"""
    a = GAME.analyze(rec(body), "Ana", **FAST)
    for low in ("2S", "3S", "4S", "4D", "3H"):
        assert "Cleo" not in at(a, low), low
    assert "Cleo" in at(a, "5S") and "Ben" in at(a, "3S")
    assert any("nothing below 5 (I2)" in f for f in a.holdings["Cleo"].facts)
    # I5: the bound stays while the hand shrinks, so a later lower card conflicts
    with pytest.raises(InconsistentError) as e:
        check(rec(body + "Ana leads 2C; Ben 7S; Cleo 3D"))
    assert e.value.conflict == [7, 8]
    # a play that beats says nothing (beating is optional)
    a = GAME.analyze(rec("Cleo deals 7\nAna holds: 9H 10H JH QH KH AH 2C\nAna leads 2C; "
                         "Ben 2D; Cleo 5C"), "Ana", **FAST)
    assert "Cleo" in at(a, "2S")


def test_i3_rasmussen_could_not_beat_the_lead():
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 9H 10H JH QH KH AH 2C
Ana leads 9H; Ben JC; Cleo 3D
""", variant="rasmussen"), "Ana", **FAST)
    poss = a.holdings["Cleo"].possible_ranks
    assert poss == ["3", "4", "5", "6", "7", "8"], poss      # nothing >= 9 (I3), nothing < 3 (I2)


def test_i3_with_two_cards_and_its_inconsistency():
    with pytest.raises(InconsistentError) as e:
        GAME.analyze(rec("""
Cleo deals 7
Ana holds: 6S 6H 10H JH QH KH AH
Ana leads 6S 6H; Ben QD 10C; Cleo KS 2D
""", variant="rasmussen"), "Ana", **FAST)
    assert e.value.conflict == [8]
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 6S 6H 10H JH QH KH AH
Ana leads 6S 6H; Ben QD 10C; Cleo 3S 2D
""", variant="rasmussen"), "Ana", **FAST)
    assert any("at most 1 card(s) 6 or higher (I3)" in f for f in a.holdings["Cleo"].facts)


def test_i4_twenty_six_joker_in_a_lowest_play_leaves_only_jokers():
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 5H 5S 5D 5C 9S 9H 9D
Ana leads 5H 5S 5D 5C; Ben JC 7D 6S 6H; Cleo Jk 4H 3H 2D
""", variant="twenty-six"), "Ana", **FAST)
    assert a.holdings["Cleo"].certain == ["Jk", "Jk", "Jk"]
    assert a.cards["Jk"] == {"Cleo": 3.0, "out": 1.0}
    with pytest.raises(InconsistentError) as e:
        check(rec("""
Cleo deals 7
Ana holds: 5H 5S 5D 5C 9S 9H 9D
Ana leads 5H 5S 5D 5C; Ben JC 7D 6S 6H; Cleo Jk 4H 3H 2D
Ben leads 8C; Cleo 2C
""", variant="twenty-six"))
    assert e.value.conflict == [8, 9]
    # without a joker, only the naturals are bounded; jokers may remain
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 5H 5S 5D 9C 9S 9H 9D
Ana leads 5H 5S 5D; Ben JC 7D 6S; Cleo 4H 3H 2D
""", variant="twenty-six"), "Ana", **FAST)
    assert "Cleo" in at(a, "Jk") and "Cleo" not in at(a, "3S")


def test_jokers_alone_mean_a_hand_of_jokers():
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 5H 5S 5D 5C 9S 9H 9D
Ana leads 5H 5S 5D 5C; Ben JC 7D 6S 6H; Cleo 4H 3H 2D 2C
Ben leads 9C; Cleo Jk; Ana 9S
""", variant="twenty-six"), "Ana", **FAST)
    assert a.holdings["Cleo"].size == 2 and a.holdings["Cleo"].possible_ranks == ["Jk"]
    assert a.cards["Jk"]["Cleo"] == 2.0     # TT-V2(b,f): jokers alone only from jokers alone


def test_views_complete_public_and_refused():
    from solver.twenty_two.simulate import simulate

    full = simulate(3, [], 3)
    k = next(i for i, s in enumerate(full.statements) if "leads" in s.text) + 1
    pre = full.prefix(k)
    a = GAME.analyze(as_written_by(pre, "Ben"), "Ben", **FAST)
    assert a.hand is not None and a.view == "Ben"
    pub = GAME.analyze(pre, None, **FAST)
    assert pub.hand is None and not pub.plays and set(pub.holdings) == {"Ana", "Ben", "Cleo"}
    mine = as_written_by(pre, "Ana")
    with pytest.raises(NotationError):
        GAME.analyze(mine, "Ben", **FAST)   # a partial record is only the recorder's


def test_exact_risk_on_the_last_play():
    """I6: Ben leads the last trick and Ana plays last, so her play fixes her last card;
    Ben's last card is uniform over the 39 unseen cards (he never played his lowest)."""
    a = GAME.analyze(rec("""
Ben deals 7
Ana holds: 2C 3C 4C 5C 6C 9H KH
Ana leads 2C; Ben 8D
Ben leads 9D; Ana 3C
Ben leads 10D; Ana 4C
Ben leads JD; Ana 5C
Ben leads QD; Ana 6C
Ben leads KD
""", players="Ana Ben", dealer="Ben"), "Ana", **FAST)
    assert a.turn == "follow" and a.to_act == ("Ana",)
    by = {tuple(repr(c) for c in o.cards): o for o in a.plays}
    assert set(by) == {("9H",), ("KH",)}
    assert by[("9H",)].kind == "lowest" and by[("KH",)].kind == "beat-or-tie"
    keep_k, keep_9 = by[("9H",)].risk, by[("KH",)].risk
    assert keep_k.exact and keep_9.exact
    assert keep_k.p == pytest.approx(35 / 39) and keep_9.p == pytest.approx(24 / 39)


def test_explain_names_the_lowest_cards_play():
    exp = GAME.explain(rec("""
Cleo deals 7
Ana holds: 9H 10H JH QH KH AH 2C
Ana leads 9H; Ben 2D; Cleo 5C
"""), "Ana", "3S")
    facts = {r.fact: r.lines for r in exp.reasons}
    assert facts["3S is not in Cleo's hand"] == (7,)


def test_three_packs_leave_over_127_equal_cards_counted_right():
    """With packs=3 the 146 cards nobody has seen form one class; a step's count is an
    int8, so the counting programme splits classes at 127 cards (MAX_CLASS).  Every
    card's expected copies over the locations add up to its three copies."""
    from solver.games import get_game
    from solver.records import parse_record, write_record

    game = get_game("twenty-two")
    rec = parse_record(write_record(game.simulate(5, ["packs=3"], 7, 40)))
    rec = rec.prefix(8)
    out = game.analyze(rec, "Ana").to_json()
    assert out["cards"]
    for card, where in out["cards"].items():
        assert where and abs(sum(where.values()) - 3) < 1e-9, (card, where)
