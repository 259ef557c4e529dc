"""Twenty-Two rules (docs/rules/twenty-two.md): every worked example of the rules file, and
each rule and ambiguity default (with its named alternative), checked on records."""
from __future__ import annotations

from collections import Counter

import pytest

from solver.cards import Card, parse_cards, standard_deck
from solver.errors import InconsistentError, NotationError, RuleError
from solver.records import parse_record, write_record
from tests.helpers import header, record as make_record
from solver.twenty_two.options import TwentyTwoOptions
from solver.twenty_two.ranking import (beats_or_ties, follows_r, hr, lead_problem, leads_r,
                                    legal_follows, trick_winner, value)
from solver.twenty_two.engine import replay

C = parse_cards
STD, RAS, T26 = TwentyTwoOptions(), TwentyTwoOptions(rasmussen=True), TwentyTwoOptions(
    twenty_six=True)


def head(players="Ana Ben Cleo", variant="", dealer="Cleo", me=None):
    return header("twenty-two", players=players, variant=variant, dealer=dealer, me=me)


def record(body, players="Ana Ben Cleo", variant="", dealer="Cleo", me=None):
    return make_record("twenty-two", body, players=players, variant=variant, dealer=dealer,
                       me=me)


def refused(body, rule, **kw):
    with pytest.raises(RuleError) as e:
        record(body, **kw)
    assert e.value.rule == rule, str(e.value)
    assert e.value.line is not None and e.value.text
    return e.value


def follows(hand, *plays, opts=STD):
    """The legal follows, as sorted rank tuples."""
    return {tuple(sorted(hr(c) for c in p)) for p in legal_follows(C(hand), [C(p) for p in plays],
                                                                   opts)}


# ----- TT-11 / TT-12: beat or tie, sorted pairwise ---------------------------------------
def test_tt11_seven_seven_led():
    assert beats_or_ties(C("7S QH"), C("7H 7D")) and beats_or_ties(C("8S JH"), C("7H 7D"))
    assert not beats_or_ties(C("6S AH"), C("7H 7D"))


def test_tt11_five_five_five_then_j76_then_k77():
    assert beats_or_ties(C("JC 7D 6S"), C("5H 5S 5D"))
    assert beats_or_ties(C("KH 7C 7S"), C("JC 7D 6S"))  # K > J, 7 = 7, 7 > 6
    rec = record("""
Cleo deals 7
Ana leads 5H 5S 5D; Ben JC 7D 6S; Cleo KH 7C 7S
Cleo leads 2C
""")
    assert replay(rec).deals[0].plays[-1].player == "Cleo"   # Cleo won the trick and leads
    refused("""
Cleo deals 7
Ana leads 5H 5S 5D; Ben JC 7D 6S; Cleo KH 7C 7S
Ana leads 2C
""", "TT-9")


def test_tt11_ten_nine_seven_forces_three_two_two():
    hand = "KS KD 6H 3C 3D 2S 2H"
    assert not beats_or_ties(C("KS KD 6H"), C("10C 9D 7S"))     # 6 < 7
    assert beats_or_ties(C("KS KD 6H"), C("5H 5S 5D"))          # ... though it beats the lead
    assert follows(hand, "5H 5S 5D", "10C 9D 7S") == {(2, 2, 3)}
    body = """
Cleo deals 7
Cleo holds: KS KD 6H 3C 3D 2S 2H
Ana leads 5H 5S 5D; Ben 10C 9D 7S; Cleo {}
"""
    e = refused(body.format("KS KD 6H"), "TT-10")
    assert "2S 2H 3" in str(e) and "KS KD 6H" in str(e)
    record(body.format("2S 2H 3C"))
    record(body.format("3D 2H 2S"))  # A10: suits never matter


def test_tt12_last_of_equal_highest_wins():
    assert trick_winner([C("7H"), C("7D"), C("2S")], STD) == 1
    assert trick_winner([C("5H 5S 5D"), C("JC 7D 6S"), C("KH 7C 7S")], STD) == 2
    # a lowest-cards play never takes the trick
    assert trick_winner([C("9H"), C("2D"), C("3C")], STD) == 0
    record("Cleo deals 7\nAna leads 7H; Ben 7D; Cleo 2S\nBen leads 3C")
    refused("Cleo deals 7\nAna leads 7H; Ben 7D; Cleo 2S\nAna leads 3C", "TT-9")


# ----- TT-9 / A5: leading ---------------------------------------------------------------------
def test_tt9_lead_one_rank_and_keep_a_card():
    refused("Cleo deals 7\nAna leads 5H 6H", "TT-9")
    assert lead_problem(C("5H 5S"), 2, C("5H 5S"), STD)[0] == "TT-9"   # A5: keep one
    assert lead_problem(C("5H"), 2, C("5H 5S"), STD) is None
    assert sorted(leads_r([5, 5, 9], STD)) == [(5,), (5, 5), (9,)]


def test_tt10_turn_order_and_count():
    refused("Cleo deals 7\nAna leads 7H; Cleo 2S", "TT-10")
    refused("Cleo deals 7\nAna leads 7H 7D; Ben 9C", "TT-10")
    refused("Cleo deals 7\nBen leads 7H", "TT-9")
    e = refused("Cleo deals 7\nCleo holds: 2S 3S 4S 5S 6S 7S 8S\nAna leads AH; Ben KH; Cleo QS",
                "TT-10")
    assert "does not hold QS" in str(e)


def test_tt1_a_card_in_two_places():
    refused("Cleo deals 7\nAna leads 7H; Ben 7H; Cleo 2S", "TT-1")
    refused("Cleo deals 7\nAna holds: 7H 2C 3C 4C 5C 6C 8C\nBen holds: 7H 2D 3D 4D 5D 6D 8D",
            "TT-1")
    refused("Cleo deals 7\nAna leads Jk; Ben 2C; Cleo 3C", "TT-V2(a)")


# ----- TT-5..TT-8: deals and the exchange ---------------------------------------------------
def test_first_deal_is_seven_and_draw_for_dealer():
    refused("Cleo deals 6", "TT-5")
    refused("Ben deals 7", "TT-4")
    rec = record("draw: Ana 9C, Ben KD, Cleo KH\ndraw: Ben 2C, Cleo 3C\nCleo deals 7",
                 dealer=None)
    assert replay(rec).deals[0].dealer == "Cleo"
    refused("draw: Ana 9C, Ben KD, Cleo 3H\nAna deals 7", "TT-4", dealer=None)
    refused("draw: Ana 9C, Ben KD", "TT-4", dealer=None)


def test_exchange_order_and_stock():
    # 6 players: 42 dealt, 10 in the stock
    six = dict(players="Ana Ben Cleo Dev Eli Fay", dealer="Fay")
    ok = "Fay deals 7\nAna exchanges 7\nBen exchanges 3\nDev exchanges 0\nAna leads 2C"
    eng = replay(record(ok, **six))
    assert eng.deals[0].stock0 == 10 and eng.stock == 0 and eng.discards == 10
    e = refused("Fay deals 7\nAna exchanges 7\nBen exchanges 3\nCleo exchanges 1", "TT-8", **six)
    assert "A4" in str(e)  # no stock left: no exchange
    refused("Fay deals 7\nBen exchanges 1\nAna exchanges 1", "TT-8", **six)
    refused("Fay deals 7\nAna exchanges 1\nAna exchanges 1", "TT-8", **six)
    refused("Fay deals 7\nAna leads 2C\nBen exchanges 1", "TT-8", **six)
    refused("Fay deals 7\nAna holds: 2C 3C 4C 5C 6C 7C 8C\nAna exchanges 1: 9C -> 2D", "TT-8",
            **six)


def test_a6_exchange_order_draw_first_is_an_option():
    body = "Cleo deals 7\nAna holds: 2C 3C 4C 5C 6C 7C 8C\nAna exchanges 1: 2D -> 2D"
    e = refused(body, "TT-8")
    assert "A6" in str(e)
    eng = replay(record(body, variant="exchange=draw-first"))
    assert eng.known["Ana"] == Counter(repr(c) for c in C("2C 3C 4C 5C 6C 7C 8C"))


def _public_hand(dealer, order, size, last, out=()):
    """A hand written publicly: the leader leads its highest cards and wins every trick;
    ``last`` are the revealed last cards; ``out`` the scoring cards out of the pack."""
    used = Counter(repr(c) for c in last.values()) + Counter(out)
    avail = sorted((c for c in standard_deck() if not used[repr(c)]), key=hr, reverse=True)
    lines = [f"{dealer} deals {size}"]
    for _ in range(size - 1):
        lead = avail.pop(0)
        rest = [avail.pop() for _ in order[1:]]
        lines.append(f"{order[0]} leads {lead!r}; "
                     + "; ".join(f"{p} {c!r}" for p, c in zip(order[1:], rest)))
    lines.append("showdown: " + ", ".join(f"{p} {last[p]!r}" for p in order))
    return "\n".join(lines) + "\n"


def test_tt7_short_pack_eight_each_three_left():
    """TT-7: 6 players, the first hand lost with a queen (10): 51 cards remain, so 8 each
    and 3 left for exchanges."""
    six = dict(players="Ana Ben Cleo Dev Eli Fay", dealer="Fay")
    order = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    last = dict(zip(order, C("QH 2S 3S 4S 5S 6S")))
    body = _public_hand("Fay", order, 7, last)
    e = refused(body + "Ana deals 10", "TT-7", **six)
    assert "51 cards for 6 players give 8 each" in str(e)
    eng = replay(record(body + "Ana deals 8", **six))
    assert eng.deals[1].size == 8 and eng.deals[1].stock0 == 3 and eng.pack_size() == 51
    refused(body + "Ben deals 8", "TT-15", **six)   # the loser deals


def test_tt6_later_deal_is_the_losing_value():
    order = ["Ana", "Ben", "Cleo"]
    body = _public_hand("Cleo", order, 7, dict(zip(order, C("2S 9D 3S"))))
    refused(body + "Ben deals 7", "TT-6")
    eng = replay(record(body + "Ben deals 9"))
    assert eng.deals[1].size == 9 and eng.scoring["Ben"][0][0] == Card.parse("9D")


# ----- TT-13 / TT-14: showdown and tied losers --------------------------------------------
def test_tt13_showdown_needs_one_card_each_and_everyone():
    refused("Cleo deals 7\nshowdown: Ana 2C, Ben 3C, Cleo 4C", "TT-13")
    order = ["Ana", "Ben", "Cleo"]
    body = _public_hand("Cleo", order, 7, dict(zip(order, C("2S 9D 3S"))))
    bad = body.replace("showdown: Ana 2S, Ben 9D, Cleo 3S", "showdown: Ana 2S, Ben 9D")
    refused(bad, "TT-13")


def test_tt14_tied_losers_score_and_draw_a2():
    order = ["Ana", "Ben", "Cleo"]
    body = _public_hand("Cleo", order, 7, dict(zip(order, C("KS 2D KH"))))
    eng = replay(record(body))
    assert eng.totals() == {"Ana": 10, "Ben": 0, "Cleo": 10}
    record(body + "Cleo deals 10")               # no draw written: either tied loser deals
    refused(body + "Ben deals 10", "TT-15")
    refused(body + "draw: Ana 5C, Ben 9C", "TT-14")
    record(body + "draw: Ana 5C, Cleo 9C\nCleo deals 10")
    refused(body + "draw: Ana 5C, Cleo 9C\nAna deals 10", "TT-15")
    # A2 alternative: the lowest card deals
    record(body + "draw: Ana 5C, Cleo 9C\nAna deals 10", variant="tie-draw=lowest")
    # ties draw again
    record(body + "draw: Ana 9D, Cleo 9C\ndraw: Ana AC, Cleo 2C\nAna deals 10")
    refused(body + "draw: Ana 9D, Cleo 9C\nAna deals 10", "TT-15")


# ----- TT-16 / TT-17 / A1 / A3 / A9: elimination and the end -----------------------------
def _three_player_game(variant=""):
    """Ben loses twice with an ace: 22, out (TT-16)."""
    order = ["Ana", "Ben", "Cleo"]
    body = _public_hand("Cleo", order, 7, dict(zip(order, C("2S AD 3S"))))
    body += _public_hand("Ben", ["Cleo", "Ana", "Ben"], 11,
                         dict(zip(["Cleo", "Ana", "Ben"], C("4S 5S AC"))), out=["AD"])
    return body


def test_tt16_a1_out_player_deals_but_gets_no_cards():
    body = _three_player_game()
    eng = replay(record(body))
    assert eng.totals()["Ben"] == 22 and eng.eliminated == ["Ben"] and not eng.over
    eng = replay(record(body + "Ben deals 11"))
    assert eng.deals[-1].receivers == ("Cleo", "Ana")
    assert eng.deals[-1].stock0 == 50 - 22   # A3: Ben's aces stay out of the pack
    refused(body + "Cleo deals 11", "TT-15")


def test_a1_immediate_skips_to_the_left():
    body = _three_player_game()
    refused(body + "Ben deals 11", "TT-15", variant="elimination=immediate")
    eng = replay(record(body + "Cleo deals 11", variant="elimination=immediate"))
    assert eng.deals[-1].receivers == ("Ana", "Cleo")


def test_a3_return_option_puts_the_cards_back():
    eng = replay(record(_three_player_game() + "Ben deals 11",
                        variant="eliminated-cards=return"))
    assert eng.pack_size() == 52 and eng.deals[-1].stock0 == 52 - 22


def _two_player_hands(finals):
    """Ana and Ben play one public hand per (Ana's last, Ben's last) pair; the loser deals."""
    body, out, dealer, size = "", [], "Ben", 7
    opts = STD
    for i, (a, b) in enumerate(finals):
        order = ["Ana", "Ben"] if dealer == "Ben" else ["Ben", "Ana"]
        last = {"Ana": Card.parse(a), "Ben": Card.parse(b)}
        body += _public_hand(dealer, order, size, last, out)
        top = max(hr(c) for c in last.values())
        losers = [p for p in ("Ana", "Ben") if hr(last[p]) == top]
        out += [repr(last[p]) for p in losers]
        size = value(last[losers[0]])
        if len(losers) > 1 and i < len(finals) - 1:
            body += "draw: Ana AS, Ben 2S\n" if "AS" not in out else "draw: Ana AH, Ben 2H\n"
            dealer = "Ana"
        else:
            dealer = losers[0]
    return body, opts


def test_tt17_last_player_wins_and_game_is_over():
    body, _ = _two_player_hands([("2C", "AD"), ("3C", "AH")])
    eng = replay(record(body, players="Ana Ben", dealer="Ben"))
    assert eng.over and eng.winners == ("Ana",)
    refused(body + "Ben deals 11", "TT-17", players="Ana Ben", dealer="Ben")


def test_tt17_simultaneous_out_lowest_total_or_all_win():
    body, _ = _two_player_hands([("AD", "2C"), ("3C", "KD"), ("KH", "KS"), ("AH", "AC")])
    eng = replay(record(body, players="Ana Ben", dealer="Ben"))
    assert eng.totals() == {"Ana": 32, "Ben": 31}
    assert eng.over and eng.winners == ("Ben",)  # default: the lowest total wins
    eng = replay(record(body, players="Ana Ben", dealer="Ben", variant="simultaneous-out=all-win"))
    assert eng.winners == ("Ana", "Ben")


# ----- TT-V1 rasmussen -------------------------------------------------------------------
def test_v1a_following_is_compulsory_against_the_lead():
    # A leads a 7, B plays a 10; C holds Q 8 7 4 3 2: Q, 8 or 7, not required to beat the 10
    assert follows("QS 8H 7D 4C 3S 2H", "7H", "10C", opts=RAS) == {(12,), (8,), (7,)}
    assert follows("6S 5H 4D 4C 3S 2H", "7H", "10C", opts=RAS) == {(2,)}
    body = """
Cleo deals 7
Cleo holds: QS 8H 7D 4C 3S 2H 5D
Ana leads 7H; Ben 10C; Cleo {}
"""
    e = refused(body.format("2H"), "TT-V1(a)", variant="rasmussen")
    assert "compulsory" in str(e)
    for ok in ("QS", "8H", "7D"):
        record(body.format(ok), variant="rasmussen")
    # standard rules: 2H is the lowest card, legal
    record(body.format("2H"))


def test_v1b_only_same_rank_sets_win():
    # A leads 6-6, B plays Q-10, C wins with 7-7
    plays = [C("6S 6H"), C("QD 10C"), C("7S 7C")]
    assert trick_winner(plays, RAS) == 2 and trick_winner(plays, STD) == 1
    body = "Cleo deals 7\nAna leads 6S 6H; Ben QD 10C; Cleo 7S 7C\n{} leads 2C"
    record(body.format("Cleo"), variant="rasmussen")
    refused(body.format("Ben"), "TT-9", variant="rasmussen")
    record(body.format("Ben"))
    # if all but one of your cards are below 6, you must play your two lowest
    assert follows("KS 5H 4D 3C 2S 2H 2D", "6S 6H", opts=RAS) == {(2, 2)}
    assert (5, 13) not in follows("KS 5H 4D 3C 2S 2H 2D", "6S 6H", opts=RAS)


def test_v1c_single_cards_highest_last_of_equal_and_a8_option():
    assert trick_winner([C("9H"), C("9C"), C("3D")], RAS) == 1
    sets = [C("6S 6H"), C("7S 7H"), C("7D 7C")]
    assert trick_winner(sets, RAS) == 2                                   # A8 default: last
    assert trick_winner(sets, TwentyTwoOptions(rasmussen=True, rasmussen_ties="first")) == 1


def test_v1d_paper_scoring_full_pack_every_deal():
    six = dict(players="Ana Ben Cleo Dev Eli Fay", dealer="Fay")
    order = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    body = _public_hand("Fay", order, 7, dict(zip(order, C("QH 2S 3S 4S 5S 6S")))) + "Ana deals 8"
    std = replay(record(body, **six))
    ras = replay(record(body, variant="rasmussen", **six))
    assert std.deals[1].stock0 == 3 and ras.deals[1].stock0 == 4    # the queen went back
    assert ras.totals()["Ana"] == 10 and ras.scoring_out() == []


# ----- TT-V2 twenty-six ------------------------------------------------------------------
def test_v2_jokers_in_leads_and_follows():
    assert lead_problem(C("Jk 8S"), 7, None, T26) is None                  # a pair of 8s
    assert lead_problem(C("Jk Jk 8S"), 7, None, T26) is None               # A7: three 8s
    assert lead_problem(C("Jk Jk 8S"), 7, None,
                        TwentyTwoOptions(twenty_six=True, jokers_per_natural="one"))[0] == "A7"
    assert beats_or_ties(C("6S 8H 9D"), C("6C 6D Jk"))                     # 6-6-Jk = 6-6-6
    assert beats_or_ties(C("Jk KS JH"), C("KD QC 9S"))                     # Jk counts as K
    assert not beats_or_ties(C("Jk QS JH"), C("KD QC 9S"))                 # nothing reaches K


def test_v2e_lowest_cards_with_jokers():
    # 5-5-5 led with Jk 7 3 2: play 7-3-2 and keep the joker
    assert follows("Jk 7S 3H 2D", "5H 5S 5D", opts=T26) == {(2, 3, 7)}
    # with Jk Jk 3 2: play Jk-3-2 and keep one joker
    assert follows("Jk Jk 3H 2D", "5H 5S 5D", opts=T26) == {(0, 2, 3)}
    # the same on records, the hands known
    body = "Cleo deals 7\nCleo holds: Jk 7S 3H 2D 8S 9S 10S\nAna leads 5H 5S 5D; Ben 2C 3C 4C; Cleo {}"
    record(body.format("7S 3H 2D"), variant="twenty-six")
    refused(body.format("Jk 3H 2D"), "TT-10", variant="twenty-six")
    body = ("Cleo deals 7\nCleo holds: Jk Jk Jk 2D 3D 4D 5D\n"
            "Ana leads 9S 9S 9H 9H 9D; Ben 2C 3C 4C 5C 6C; Cleo {}")
    record(body.format("Jk 2D 3D 4D 5D"), variant="twenty-six")     # all naturals + 1 joker
    refused(body.format("Jk Jk 2D 3D 4D"), "TT-10", variant="twenty-six")


def test_v2f_jokers_only():
    assert sorted(leads_r([0, 0, 0], T26)) == [(0,), (0, 0)]                # keep one joker
    assert follows_r([0, 0, 0], [[14, 14]], T26) == [(0, 0)]                # rank as aces
    body = "Cleo deals 7\nCleo holds: Jk 2S 3S 4S 5S 6S 7S\nAna leads 9C; Ben 9D; Cleo Jk"
    refused(body, "TT-V2(b)", variant="twenty-six")


def test_v2g_joker_at_the_showdown_and_13_cards_next():
    order = ["Ana", "Ben", "Cleo"]
    last = dict(zip(order, [Card.parse("Jk"), Card.parse("AS"), Card.parse("2S")]))
    body = _public_hand("Cleo", order, 7, last)
    eng = replay(record(body, variant="twenty-six"))
    assert eng.deals[0].losers == ("Ana",) and eng.totals()["Ana"] == 13      # joker > ace
    assert replay(record(body + "Ana deals 13", variant="twenty-six")).deals[1].size == 13
    both = dict(zip(order, [Card.parse("Jk"), Card.parse("Jk"), Card.parse("2S")]))
    eng = replay(record(_public_hand("Cleo", order, 7, both), variant="twenty-six"))
    assert eng.deals[0].losers == ("Ana", "Ben")                              # both lose


def test_v2h_elimination_at_26():
    order = ["Ana", "Ben", "Cleo"]
    body = _public_hand("Cleo", order, 7, dict(zip(order, C("Jk 2S 3S"))))
    body += _public_hand("Ana", ["Ben", "Cleo", "Ana"], 13,
                         dict(zip(["Ben", "Cleo", "Ana"], C("4S 5S AC"))), out=["Jk"])
    eng = replay(record(body, variant="twenty-six"))
    assert eng.totals()["Ana"] == 24 and not eng.eliminated                   # 24 < 26
    assert eng.opts.limit == 26 and TwentyTwoOptions().limit == 22


# ----- statements ------------------------------------------------------------------------
def test_statements_round_trip_and_notation_errors():
    text = head() + """Cleo deals 7
Ana holds: 2C 3C 4C 5C 6C 7C 8C
Ana exchanges 2: 2C 3C -> 9H 10H
Ben exchanges 1
Ana leads 4C
Ben plays 9D; Cleo 2D
"""
    rec = parse_record(text)
    assert parse_record(write_record(rec)).events() == rec.events()
    for bad in ("Ana leads", "Ana exchanges 2: 2C -> 3C 4C", "showdown: Ana", "Dan deals 7",
                "Ana leads 7H; Ben leads 8H", "Ana shuffles"):
        with pytest.raises(NotationError):
            parse_record(head() + bad + "\n")


def test_options_and_header():
    assert TwentyTwoOptions.from_names(["standard"]) == STD
    with pytest.raises(RuleError):
        TwentyTwoOptions.from_names(["rasmussen", "twenty-six"])
    with pytest.raises(NotationError):
        TwentyTwoOptions.from_names(["rasmussen-ties=first"])     # A8 is rasmussen's
    with pytest.raises(RuleError) as e:
        parse_record("game: twenty-two\nplayers: " + " ".join(f"P{i}" for i in range(8)) +
                     "\nvariant: packs=1\n")
    assert e.value.rule == "TT-1"
    eng = replay(parse_record("game: twenty-two\nplayers: " + " ".join(f"P{i}" for i in range(8))
                              + "\n"))
    assert sum(eng.deck.values()) == 104                              # two packs for 8 players


def test_inconsistent_holds_are_reported_with_both_lines():
    with pytest.raises(InconsistentError) as e:
        record("Cleo deals 7\nAna holds: 2C 3C 4C 5C 6C 7C 8C\nAna holds: 2C 3C 4C 5C 6C 7C 9C")
    assert e.value.conflict == [5, 6]
