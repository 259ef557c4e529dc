"""Twenty-Two house rules (issue 18) on the option machinery: ``tie-score=split`` (TT-14),
``end=first-to-22`` (TT-17), ``deal=capped`` (TT-6) and ``four-card-leads=forbidden``
(TT-9); their validation, and simulated games under them."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import parse_cards
from solver.errors import NotationError, RuleError, SleuthError
from solver.records import parse_record, write_record
from tests.helpers import record as make_record
from solver.twenty_two.engine import replay
from solver.twenty_two.events import Deal, Trick
from solver.twenty_two.options import SPECS, TwentyTwoOptions
from solver.twenty_two.ranking import lead_problem, legal_leads, value
from solver.twenty_two.simulate import simulate
from tests.test_twenty_two_rules import _public_hand as public_hand  # one hand writer

C = parse_cards


def record(body, players="Ana Ben Cleo", variant="", dealer="Cleo"):
    return make_record("twenty-two", body, players=players, variant=variant, dealer=dealer)


def refused(body, rule, **kw):
    with pytest.raises(RuleError) as e:
        record(body, **kw)
    assert e.value.rule == rule, str(e.value)
    return e.value


ORDER = ["Ana", "Ben", "Cleo"]


# ----- tie-score=split (TT-14) ----------------------------------------------------------
def test_tie_score_split_shares_the_value_rounded_down():
    body = public_hand("Cleo", ORDER, 7, dict(zip(ORDER, C("KS 2D KH"))))
    assert replay(record(body)).totals() == {"Ana": 10, "Ben": 0, "Cleo": 10}       # TT-14
    eng = replay(record(body, variant="tie-score=split"))
    assert eng.totals() == {"Ana": 5, "Ben": 0, "Cleo": 5}
    assert [repr(c) for c, _ in eng.scoring["Ana"]] == ["KS"]   # the card is still kept
    three = public_hand("Cleo", ORDER, 7, dict(zip(ORDER, C("QS QD QH"))))
    assert replay(record(three, variant="tie-score=split")).totals() == {
        "Ana": 3, "Ben": 3, "Cleo": 3}                            # 10 // 3
    # the next deal is still the card's value (TT-6 is unchanged)
    record(body + "Cleo deals 10", variant="tie-score=split")


# ----- end=first-to-22 (TT-17) ----------------------------------------------------------
def _ben_reaches_22():
    body = public_hand("Cleo", ORDER, 7, dict(zip(ORDER, C("2S AD 3S"))))
    body += public_hand("Ben", ["Cleo", "Ana", "Ben"], 11,
                        dict(zip(["Cleo", "Ana", "Ben"], C("4S 5S AC"))), out=["AD"])
    return body


def test_end_first_to_22_ends_the_game_at_once():
    body = _ben_reaches_22()
    eng = replay(record(body))
    assert not eng.over and eng.eliminated == ["Ben"]              # TT-16: the others go on
    eng = replay(record(body, variant="end=first-to-22"))
    assert eng.over and eng.winners == ("Ana", "Cleo") and eng.turn().kind == "over"
    refused(body + "Ben deals 11", "TT-17", variant="end=first-to-22")


# ----- deal=capped (TT-6) ---------------------------------------------------------------
@pytest.mark.parametrize("loser_card,cards", [("2S", 5), ("5S", 5), ("6S", 6), ("9D", 7),
                                              ("AD", 7)])
def test_deal_capped_clamps_later_deals(loser_card, cards):
    others = "2C 2D" if loser_card == "2S" else "2C 3C"   # 2S: a three-way tie, Ana may deal
    last = dict(zip(ORDER, C(f"{loser_card} {others}")))
    body = public_hand("Cleo", ORDER, 7, last)
    v = value(last["Ana"])
    if v != cards:
        e = refused(body + f"Ana deals {v}", "TT-6", variant="deal=capped")
        assert "deal=capped" in str(e)
    eng = replay(record(body + f"Ana deals {cards}", variant="deal=capped"))
    assert eng.deals[-1].size == cards


# ----- four-card-leads=forbidden (TT-9) -------------------------------------------------
def test_four_card_leads_forbidden():
    hand = C("5H 5S 5D 5C 9S 9H 9D")
    body = "Cleo deals 7\nAna holds: 5H 5S 5D 5C 9S 9H 9D\nAna leads 5H 5S 5D 5C"
    record(body)                                                   # TT-9 allows it
    e = refused(body, "TT-9", variant="four-card-leads=forbidden")
    assert "at most 3" in str(e)
    record("Cleo deals 7\nAna holds: 5H 5S 5D 5C 9S 9H 9D\nAna leads 5H 5S 5D",
           variant="four-card-leads=forbidden")
    opts = TwentyTwoOptions.from_names(["four-card-leads=forbidden"])
    assert max(len(p) for p in legal_leads(hand, opts)) == 3
    assert max(len(p) for p in legal_leads(hand, TwentyTwoOptions())) == 4
    assert lead_problem(C("5H 5S 5D 5C"), 7, hand, opts)[0] == "TT-9"
    # twenty-six: jokers count toward the four
    t26 = TwentyTwoOptions.from_names(["twenty-six", "four-card-leads=forbidden"])
    assert lead_problem(C("5H 5S 5D Jk"), 7, None, t26)[0] == "TT-9"
    assert lead_problem(C("5H 5S Jk"), 7, None, t26) is None


# ----- the option machinery: names, round trip, incompatible combinations -----------------
def test_every_option_value_round_trips():
    for spec in SPECS:
        for v in spec.choices:
            text = spec.write(v)
            others = {"jokers-per-natural": ["twenty-six"], "rasmussen-ties": ["rasmussen"]}
            names = others.get(spec.name, []) + [text]
            o = TwentyTwoOptions.from_names(names)
            assert getattr(o, spec.field) == v
            assert TwentyTwoOptions.from_names(o.names()) == o
            assert TwentyTwoOptions.from_names(str(o).split(", ")) == o


@pytest.mark.parametrize("names,rule", [
    (["twenty-six", "deal=capped"], "TT-6/TT-V2(g)"),
    (["twenty-six", "end=first-to-22"], "TT-17/TT-V2(h)"),
    (["end=first-to-22", "elimination=immediate"], "A1"),
    (["end=first-to-22", "eliminated-cards=return"], "A3"),
    (["rasmussen", "twenty-six"], "TT-V1/TT-V2"),
    (["tie-score=half"], "TT-14"),
    (["deal=capped", "deal=value"], "TT-6"),
])
def test_incompatible_or_bad_options_are_refused(names, rule):
    with pytest.raises(SleuthError) as e:
        TwentyTwoOptions.from_names(names)
    assert e.value.rule == rule, str(e.value)
    with pytest.raises(SleuthError):
        parse_record("game: twenty-two\nplayers: Ana Ben\nvariant: " + ", ".join(names) + "\n")


@pytest.mark.parametrize("bad", ["packs=²", "packs=۲", "packs=٢", "packs=2a", "packs=0"])
def test_packs_needs_ascii_digits(bad):
    """Issue 12: digits that are not ASCII pass str.isdigit() but are no option value."""
    with pytest.raises(NotationError):
        TwentyTwoOptions.from_names([bad])


# ----- simulated games under the house rules ----------------------------------------------
HOUSE = [["tie-score=split"], ["end=first-to-22"], ["deal=capped"],
         ["four-card-leads=forbidden"], ["tie-score=split", "deal=capped", "end=first-to-22"],
         ["rasmussen", "four-card-leads=forbidden", "tie-score=split"],
         ["twenty-six", "four-card-leads=forbidden", "tie-score=split"], ["packs=2", "deal=capped"]]


@settings(max_examples=16, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(variant=st.sampled_from(HOUSE), n=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_simulated_games_under_house_rules(variant, n, seed):
    rec = simulate(n, variant, seed)
    back = parse_record(write_record(rec))           # every statement accepted by the rules
    assert back.events() == rec.events()
    eng = replay(back)
    opts = eng.opts
    assert eng.over and eng.winners
    totals = eng.totals()
    # tie-score: every showdown's points are the card's value, or its share
    for p in eng.players:
        assert totals[p] == sum(eng.points[p])
    for d in eng.deals:
        if d.showdown is None:
            continue
        shown, _ = d.showdown
        for p in d.losers:
            card = shown[p]
            share = value(card) // len(d.losers) if opts.tie_score == "split" else value(card)
            assert share in eng.points[p]
    # end: the first player at the limit ends the game, and only they lose
    if opts.end == "first-to-22":
        at_limit = [p for p in eng.players if totals[p] >= opts.limit]
        assert at_limit and len(eng.deals) == sum(1 for s in back.statements
                                                  if isinstance(s.event, Deal))
        assert set(eng.winners) == set(eng.players) - set(at_limit) or not (
            set(eng.players) - set(at_limit))
    else:
        assert len(eng.active) <= 1
    # deal: later deals within 5..7 (or the short pack, TT-7)
    if opts.deal == "capped":
        for d in eng.deals[1:]:
            assert d.size <= 7 and (d.size >= 5 or d.stock0 < len(d.receivers))
    # four-card leads: no lead of four or more cards
    if opts.four_card_leads == "forbidden":
        for s in back.statements:
            if isinstance(s.event, Trick) and s.event.lead:
                assert len(s.event.plays[0][1]) <= 3
