"""Mysterium rules engine: setup table, options, statements, and every rule check."""
from __future__ import annotations

import pytest

from solver.errors import NotationError, RuleError
from solver.games import get_game
from solver.mysterium import GAME, MysteriumOptions, setup_for
from solver.mysterium.options import band
from solver.mysterium.engine import replay
from solver.records import parse_record, write_record

# MY-3, MY-4, MY-6 as printed in docs/rules/mysterium.md
PSYCHICS = {2: 2, 3: 4, 4: 3, 5: 4, 6: 5, 7: 6}
TOKENS = {2: 0, 3: 0, 4: 4, 5: 4, 6: 6, 7: 6}
CARDS = {"easy": [4, 5, 5, 6, 6, 7], "medium": [5, 6, 6, 7, 8, 8], "hard": [6, 7, 7, 8, 9, 9]}
CROWS = {"easy": (None, 1), "medium": (3, None), "hard": (1, None)}


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_setup_table(players, difficulty):
    s = setup_for(players, difficulty)
    assert s.psychics == PSYCHICS[players]
    assert s.tokens_per_psychic == TOKENS[players]
    assert s.cards_per_kind == CARDS[difficulty][players - 2]
    assert (s.crows_total, s.crows_per_hour) == CROWS[difficulty]
    assert s.cards_per_kind >= s.psychics  # every psychic can be dealt a card (MY-5)


def test_setup_three_players_two_psychics_and_bad_counts():
    assert setup_for(3, "medium", psychics_3p=2).psychics == 2  # A5 option
    for n in (1, 8):
        with pytest.raises(RuleError, match="MY-1"):
            setup_for(n, "easy")


def test_setup_table_through_the_header():
    names = ["Gus", "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    for n in range(2, 8):
        for d in ("easy", "medium", "hard"):
            rec = parse_record(f"game: mysterium\nvariant: {d}\nplayers: {' '.join(names[:n])}\n")
            r = replay(rec).roster
            assert len(r.psychics) == PSYCHICS[n]
            assert r.setup.cards_per_kind == CARDS[d][n - 2]
    r = replay(parse_record("game: mysterium\nplayers: Gus Ana\n")).roster
    assert r.psychics == ("Ana-1", "Ana-2") and r.n_groups == 4  # MY-16: two random groups


def test_options_defaults_and_alternatives():
    o = MysteriumOptions()
    assert (o.difficulty, o.crow_discard, o.easy_crows, o.timer_s, o.wrong_guess,
            o.clairvoyance_limit, o.psychics_3p, o.token_refresh, o.early_bonus, o.tie_break,
            o.epilogue_crows, o.count, o.culprit, o.clairvoyance_bands) == (
        "medium", "any-number", "per-hour", 120, "keep-stage", "per-psychic", 4,
        "start-of-hour-4", "7-h", "tied-voters", False, "plurality", "chosen", (5, 9))
    alt = MysteriumOptions.from_names([
        "hard", "crow_discard=whole-hand", "easy-crows = per-psychic", "timer-s=60",
        "wrong-guess=reset", "clairvoyance-limit=any", "psychics-3p=2",
        "token-refresh=end-of-hour-4", "early-bonus=8-h", "tie-break=top-track",
        "epilogue-crows", "count=majority", "culprit=random", "clairvoyance-bands=4/10"])
    assert alt == MysteriumOptions("hard", "whole-hand", "per-psychic", 60, "reset", "any", 2,
                                   "end-of-hour-4", "8-h", "top-track", True,
                                   "majority", "random", (4, 10))
    assert MysteriumOptions.from_names(alt.variant()) == alt
    assert MysteriumOptions.from_names(str(alt).split(", ")) == alt
    assert "epilogue-crows=yes" in alt.variant() and "clairvoyance-bands=4/10" in alt.variant()
    assert MysteriumOptions.from_names(["epilogue-crows=no"]) == MysteriumOptions()
    with pytest.raises(NotationError, match="unknown Mysterium option"):
        MysteriumOptions.from_names(["sneak"])
    with pytest.raises(NotationError, match="A8"):
        MysteriumOptions.from_names(["tie-break=coin"])
    with pytest.raises(NotationError, match="MY-19"):
        MysteriumOptions.from_names(["clairvoyance-bands=9/5"])
    with pytest.raises(NotationError, match="given twice"):
        MysteriumOptions.from_names(["easy", "difficulty=hard"])


@pytest.mark.parametrize("bad", ["timer-s=²", "timer-s=۶۰", "timer-s=٦٠", "timer-s=0",
                                 "timer-s", "psychics-3p=٢", "clairvoyance-bands=٥/٩",
                                 "clairvoyance-bands=5/⁹"])
def test_option_numbers_are_ascii(bad):
    """Issue 12: digits that are not ASCII pass str.isdigit() and crashed int()."""
    with pytest.raises(NotationError):
        MysteriumOptions.from_names([bad])
    with pytest.raises(NotationError):
        parse_record(f"game: mysterium\nvariant: {bad}\nplayers: Gus Ana Ben Cleo\n")


def test_bands():
    assert [band(s, (5, 9)) for s in (0, 4, 5, 8, 9, 20)] == [
        "low", "low", "intermediate", "intermediate", "high", "high"]


def test_registry_and_header_errors():
    assert get_game("mysterium") is GAME
    with pytest.raises(RuleError, match="MY-1"):
        parse_record("game: mysterium\nplayers: Gus\n")
    with pytest.raises(NotationError, match="ghost"):
        parse_record("game: mysterium\nplayers: Gus Ana Ben\nghost: Zed\n")
    with pytest.raises(RuleError, match="MY-3"):
        parse_record("game: mysterium\nplayers: Gus Ana Ben Cleo\npsychics: Red Blue\n")
    with pytest.raises(NotationError, match="eldest"):
        parse_record("game: mysterium\nplayers: Gus Ana Ben Cleo\neldest: Gus\n")
    rec = parse_record("game: mysterium\nplayers: Gus Ana Ben\npsychics: Red Blue Green Pink\n")
    r = replay(rec).roster
    assert r.owner_of("Green") == "Ben" and r.psychics_of("Ana") == ("Red", "Blue")
    rec = parse_record("game: mysterium\nplayers: Ana Ben Gus Cleo\ndealer: Gus\n")
    assert replay(rec).roster.ghost == "Gus"


HEAD = """game: mysterium
players: Gus Ana Ben Cleo
ghost: Gus
table character: 1 2 3 4 5 6
table location: 1 2 3 4 5 6
table object: 1 2 3 4 5 6
"""


def rec(body: str, head: str = HEAD):
    return parse_record(head + body)


def rule_error(body: str, head: str = HEAD) -> RuleError:
    with pytest.raises(RuleError) as ei:
        rec(body, head)
    e = ei.value
    last = (head + body).rstrip("\n").count("\n") + 1
    assert e.line == last, (e.line, last, str(e))  # the offending statement is the last line
    assert e.rule and e.rule in str(e) and repr(e.text) in str(e)
    return e


def test_statements_round_trip():
    text = HEAD + """hour 1
Ana receives 2 visions
crow: 3
Ana guesses character 1: right
Ben guesses c2
Cleo agrees with Ben
Ana disagrees with Ben
reveal Ben: wrong
Cleo guesses character 3: right
secret Ben: character 4, location 1
"""
    r = parse_record(text)
    again = parse_record(write_record(r))
    assert [str(s.event) for s in again.statements] == [str(s.event) for s in r.statements]
    assert str(r.statements[7].event) == "Ben guesses character 2"
    assert str(r.statements[8].event) == "Cleo agrees with Ben"


def test_notation_errors():
    for bad, frag in [("Zed guesses character 1: right", "unknown psychic"),
                      ("Ana guesses character 19: right", "1-18"),
                      ("Ana guesses colour 3: right", "character | location | object"),
                      ("Ana guesses character 3: maybe", "right | wrong"),
                      ("Ana dances", "expected a Mysterium statement"),
                      ("Gus votes 2", "MY-20")]:
        with pytest.raises(NotationError, match=frag):
            rec("hour 1\n" + bad + "\n")


def test_table_rules():
    head = "game: mysterium\nplayers: Gus Ana Ben Cleo\n"
    assert "MY-4" in str(rule_error("table character: 1 2 3 4 5\n", head))  # 6 on medium
    rule_error("table character: 1 1 2 3 4 5\n", head)
    e = rule_error("table character: 1 2 3 4 5 6\nhour 1\n", head)
    assert e.rule == "MY-4"
    e = rule_error("hour 1\ntable character: 1 2 3 4 5 7\n")
    assert e.rule == "MY-4"


def test_clock_rules():
    assert rule_error("Ana guesses character 1: right\n").rule == "MY-7"
    assert rule_error("hour 2\n").rule == "MY-15"
    e = rule_error("hour 1\nAna guesses character 1: right\nBen guesses character 2: wrong\n"
                   "hour 2\n")
    assert e.rule == "MY-10" and "Cleo" in str(e)
    e = rule_error("hour 1\nAna guesses character 1\nBen guesses character 2: wrong\n"
                   "Cleo guesses character 3: wrong\nhour 2\n")
    assert e.rule == "MY-12"
    assert rule_error("hour 1\nAna guesses character 1: right\n"
                      "Ana guesses character 2: right\n").rule == "MY-10"
    assert rule_error("hour 1\nAna guesses location 1: right\n").rule == "MY-10"
    assert rule_error("hour 1\nAna guesses character 9: right\n").rule == "MY-10"
    assert rule_error("hour 1\nreveal Ana: right\n").rule == "MY-12"


def wrong_hour(h: int, who=("Ana", "Ben", "Cleo")) -> str:
    return f"hour {h}\n" + "".join(f"{p} guesses character {i + 1}: wrong\n"
                                   for i, p in enumerate(who))


def test_loss_after_hour_seven():
    body = "".join(wrong_hour(h) for h in range(1, 8))
    play = replay(rec(body))
    assert (play.phase, play.outcome, play.outcome_rule) == ("over", "lost", "MY-15")
    assert rule_error(body + "hour 8\n").rule == "MY-15"
    # the loss comes with the last revelation of hour 7, not before
    play = replay(rec(body.rsplit("Cleo", 1)[0]))
    assert play.phase == "investigation" and play.outcome is None


def test_a_card_leaves_the_table_at_its_revelation():
    # MY-10: the same card may be chosen by two psychics in one hour ...
    play = replay(rec("hour 1\nAna guesses character 1: right\nBen guesses character 1: wrong\n"
                      "Cleo guesses character 2: wrong\n"))
    assert play.sleeve["Ana"] == {"character": 1}
    # ... but once found it has left the table (MY-12)
    e = rule_error("hour 1\nAna guesses character 1: right\nBen guesses character 2: wrong\n"
                   "Cleo guesses character 2: wrong\nhour 2\nBen guesses character 1: wrong\n")
    assert e.rule == "MY-12" and "Ana" in str(e)


def test_stage_progression_early_finish_and_epilogue():
    body = ("hour 1\nAna guesses character 1: right\nBen guesses character 2: wrong\n"
            "Cleo guesses character 3: right\n"
            "hour 2\nAna guesses location 1: right\nBen guesses character 2: wrong\n"
            "Cleo guesses location 2: wrong\n"
            "hour 3\nAna guesses object 1: right\nBen guesses character 4: right\n"
            "Cleo guesses location 2: right\n")
    play = replay(rec(body))
    assert play.stage == {"Ana": 3, "Ben": 1, "Cleo": 2}
    assert play.finished_hour == {"Ana": 3} and play.score["Ana"] == 4  # MY-13, A7: 7 - 3
    assert rule_error(body + "hour 4\nAna guesses object 2: right\n").rule == "MY-13"
    assert rule_error(body + "hour 4\nAna receives 1 vision\n").rule == "MY-13"
    assert rule_error(body + "Ana votes 1\n").rule == "MY-16"
    eight = rec(body, HEAD.replace("ghost: Gus", "ghost: Gus\nvariant: early-bonus=8-h"))
    assert replay(eight).score["Ana"] == 5


def test_wrong_guess_reset_option():
    head = HEAD.replace("ghost: Gus", "ghost: Gus\nvariant: wrong-guess=reset")
    body = ("hour 1\nAna guesses character 1: right\nBen guesses character 2: right\n"
            "Cleo guesses character 3: right\n"
            "hour 2\nAna guesses location 1: wrong\nBen guesses location 2: right\n"
            "Cleo guesses location 3: right\nhour 3\n")
    play = replay(rec(body, head))
    assert play.stage["Ana"] == 0 and play.sleeve["Ana"] == {}  # A3: back to the character
    e = rule_error(body + "Ana guesses location 1: right\n", head)
    assert e.rule == "MY-10"
    play = replay(rec(body + "Ana guesses character 1: right\n", head))
    assert play.stage["Ana"] == 1


def test_visions_and_crows():
    play = replay(rec("hour 1\nAna receives 3 visions\ncrow: 2\nBen receives 7 visions\n"))
    assert play.ghost_hand == 7 and play.held["Ana"] == 3 and play.held["Ben"] == 7
    assert play.deck + play.discard + play.ghost_hand + sum(play.held.values()) == 84
    assert play.discard == 2 and play.crows_left() == 2
    assert rule_error("hour 1\nAna receives 1 vision\nAna receives 1 vision\n").rule == "MY-8"
    assert rule_error("hour 1\nAna receives 0 visions\n").rule == "MY-8"
    assert rule_error("hour 1\nAna guesses character 1: wrong\n"
                      "Ben receives 1 vision\n").rule == "MY-10"
    assert rule_error("hour 1\nAna guesses character 1: wrong\ncrow\n").rule == "MY-9"
    # medium: 3 crows for the game (MY-6)
    three = "hour 1\ncrow\ncrow: 1\ncrow: 5\n"
    assert replay(rec(three)).crows_left() == 0
    assert rule_error(three + "crow: 1\n").rule == "MY-6"
    # easy: one per hour, back each hour (MY-6, A2)
    easy = HEAD.replace("ghost: Gus", "ghost: Gus\nvariant: easy").replace(
        " 6\n", "\n")
    rule_error("hour 1\ncrow\ncrow\n", easy)
    body = "hour 1\ncrow\n" + "".join(f"{p} guesses character {i + 1}: wrong\n"
                                      for i, p in enumerate(("Ana", "Ben", "Cleo")))
    assert replay(rec(body + "hour 2\ncrow\n", easy)).crows_used == 2
    per = easy.replace("variant: easy", "variant: easy, easy-crows=per-psychic")
    assert replay(rec("hour 1\ncrow\ncrow\ncrow\n", per)).crows_used == 3
    rule_error("hour 1\ncrow\ncrow\ncrow\ncrow\n", per)
    whole = HEAD.replace("ghost: Gus", "ghost: Gus\nvariant: crow-discard=whole-hand")
    rule_error("hour 1\ncrow: 3\n", whole)
    assert replay(rec("hour 1\ncrow\n", whole)).discard == 7


def test_deck_reshuffles_when_empty():
    # D4: 84 cards; the ghost holds 7 and refills, reshuffling the discards when the deck is
    # empty (MY-8); a right guess discards the psychic's visions (MY-12), a crow discards too.
    seven = "".join(f"{p} receives 7 visions\n" for p in ("Ana", "Ben", "Cleo"))
    body = (f"hour 1\n{seven}Ana guesses character 1: right\nBen guesses character 2: wrong\n"
            "Cleo guesses character 3: wrong\n"
            f"hour 2\ncrow: 7\n{seven}Ana guesses location 1: wrong\n"
            "Ben guesses character 3: wrong\nCleo guesses character 2: wrong\n"
            f"hour 3\n{seven}Ana guesses location 2: wrong\nBen guesses character 4: wrong\n"
            "Cleo guesses character 4: wrong\n")
    play = replay(rec(body))
    assert (play.deck, play.discard, play.ghost_hand, play.reshuffles) == (7, 14, 7, 0)
    assert play.held == {"Ana": 14, "Ben": 21, "Cleo": 21}
    play = replay(rec(body + "hour 4\nAna receives 7 visions\nBen receives 7 visions\n"))
    assert (play.deck, play.discard, play.ghost_hand, play.reshuffles) == (7, 0, 7, 1)
    assert play.held == {"Ana": 21, "Ben": 28, "Cleo": 21}
    assert play.deck + play.discard + play.ghost_hand + sum(play.held.values()) == 84


def test_clairvoyance_rules_and_scoring():
    head3 = ("game: mysterium\nplayers: Gus Ana Ben\ntable character: 1 2 3 4 5 6\n"
             "table location: 1 2 3 4 5 6\ntable object: 1 2 3 4 5 6\n")
    assert rule_error("hour 1\nAna-1 agrees with Ben-1\n", head3).rule == "MY-11"
    assert rule_error("hour 1\nAna agrees with Ana\n").rule == "A4"
    assert rule_error("hour 1\nAna agrees with Ben\nAna disagrees with Ben\n").rule == "A4"
    assert rule_error("hour 1\nBen guesses character 2: wrong\n"
                      "Ana agrees with Ben\n").rule == "MY-11"
    anyh = HEAD.replace("ghost: Gus", "ghost: Gus\nvariant: clairvoyance-limit=any")
    assert replay(rec("hour 1\nAna agrees with Ben\nAna disagrees with Ben\n", anyh)
                  ).tokens_used["Ana"] == 2
    body = ("hour 1\nAna guesses character 1\nBen guesses character 2\nCleo guesses character 3\n"
            "Ana agrees with Ben\nCleo disagrees with Ben\nBen agrees with Ana\n"
            "Ben disagrees with Cleo\n"
            "reveal Ana: wrong\nreveal Ben: wrong\nreveal Cleo: wrong\n")
    play = replay(rec(body))
    assert play.score == {"Ana": 0, "Ben": 1, "Cleo": 1}
    assert [tv.scored for tv in play.token_votes] == [False, True, False, True]
    # 4 tokens each with 4 players (MY-3); they come back at hour 4 (MY-14, A6)
    votes = "Ana agrees with Ben\n"
    hours = ""
    for h in range(1, 4):
        hours += f"hour {h}\n" + votes + "".join(
            f"{p} guesses character {i + 1}: wrong\n" for i, p in enumerate(("Ana", "Ben", "Cleo")))
    play = replay(rec(hours))
    assert play.tokens_left("Ana") == 1
    play = replay(rec(hours + "hour 4\n"))
    assert play.tokens_left("Ana") == 4
    late = HEAD.replace("ghost: Gus", "ghost: Gus\nvariant: token-refresh=end-of-hour-4")
    play = replay(rec(hours + "hour 4\n", late))
    assert play.tokens_left("Ana") == 1
    e = rule_error(hours + "hour 4\nAna agrees with Ben\nAna agrees with Cleo\n", late)
    assert e.rule == "MY-14" and "refresh" in str(e)


FINISH = ("hour 1\nAna guesses character 1: right\nBen guesses character 2: right\n"
          "Cleo guesses character 3: right\n"
          "hour 2\nAna guesses location 1: right\nBen guesses location 2: right\n"
          "Cleo guesses location 3: right\n"
          "hour 3\nAna guesses object 1: right\nBen guesses object 2: right\n"
          "Cleo guesses object 3: right\n")


def test_epilogue_rules():
    play = replay(rec(FINISH))
    assert play.phase == "epilogue" and play.group_of() == {1: "Ana", 2: "Ben", 3: "Cleo"}
    assert rule_error(FINISH + "hour 4\n").rule == "MY-16"
    assert rule_error(FINISH + "crow\n").rule == "A9"
    crows = HEAD.replace("ghost: Gus", "ghost: Gus\nvariant: epilogue-crows=yes")
    assert replay(rec(FINISH + "crow\n", crows)).crows_used == 1
    assert rule_error(FINISH + "group 4: Ana\n").rule == "MY-16"
    assert rule_error(FINISH + "group 1: Ana\ngroup 1: Ben\n").rule == "MY-16"
    assert rule_error(FINISH + "group 1: Ana\ngroup 2: Ana\n").rule == "MY-16"
    assert rule_error(FINISH + "group 1: C4, L4, O4\n").rule == "MY-16"  # 2 players only
    assert rule_error(FINISH + "group 2: Ana\nAna votes 2\n").rule == "MY-16"
    assert rule_error(FINISH + "Ana votes 1\nAna votes 2\n").rule == "MY-20"
    assert rule_error(FINISH + "Ana votes 4\n").rule == "MY-20"
    assert rule_error(FINISH + "Ana votes 1\nculprit: 1\n").rule == "MY-22"
    assert rule_error(FINISH + "Ana votes 1\nverdict: 1\n").rule == "MY-21"
    votes = "Ana votes 3\nBen votes 1\nCleo votes 3\n"
    assert rule_error(FINISH + votes + "verdict: 1\n").rule == "MY-21"
    play = replay(rec(FINISH + "group 3: Ana\ngroup 1: Ben\ngroup 2: Cleo\n" + votes
                      + "verdict: 3\nculprit: 3\n"))
    assert (play.outcome, play.outcome_rule, play.culprit) == ("won", "MY-22", 3)
    assert play.group_of()[3] == "Ana"
    play = replay(rec(FINISH + votes + "culprit: 1\n"))
    assert play.outcome == "lost"
    assert rule_error(FINISH + votes + "culprit: 1\nAna votes 2\n").rule == "MY-22"
    # the ghost's lines may be written after the end
    play = replay(rec(FINISH + votes + "culprit: 3\nsecret Ana: character 1\n"))
    assert play.outcome == "won"


def test_three_players_open_vote_and_two_player_groups():
    head3 = ("game: mysterium\nvariant: psychics-3p=2\nplayers: Gus Ana Ben\n"
             "table character: 1 2 3 4 5 6\ntable location: 1 2 3 4 5 6\n"
             "table object: 1 2 3 4 5 6\n")
    fin = ("hour 1\nAna guesses C1: right\nBen guesses C2: right\n"
           "hour 2\nAna guesses L1: right\nBen guesses L2: right\n"
           "hour 3\nAna guesses O1: right\nBen guesses O2: right\n")
    assert rule_error(fin + "Ana votes 1\nBen votes 2\n", head3).rule == "MY-20"
    play = replay(rec(fin + "Ana votes 2\nBen votes 2\nculprit: 2\n", head3))
    assert play.outcome == "won"
    head2 = ("game: mysterium\nplayers: Gus Ana\ntable character: 1 2 3 4 5\n"
             "table location: 1 2 3 4 5\ntable object: 1 2 3 4 5\n")
    fin2 = ("hour 1\nAna-1 guesses C1: right\nAna-2 guesses C2: right\n"
            "hour 2\nAna-1 guesses L1: right\nAna-2 guesses L2: right\n"
            "hour 3\nAna-1 guesses O1: right\nAna-2 guesses O2: right\n")
    assert rule_error(fin2 + "group 3: character 1, location 9, object 9\n", head2).rule == "MY-16"
    assert rule_error(fin2 + "group 3: character 3, location 9\n", head2).rule == "MY-16"
    play = replay(rec(fin2 + "group 4: Ana-1\ngroup 1: Ana-2\n"
                      "group 2: character 3, location 9, object 17\nAna votes 3\nculprit: 2\n",
                      head2))
    assert play.group_of() == {1: "Ana-2", 2: None, 3: None, 4: "Ana-1"}
    assert play.outcome == "lost"
    assert rule_error(fin2 + "Ana votes 3\nAna votes 3\n", head2).rule == "MY-20"


def test_secret_rules():
    assert rule_error("secret Ana: character 9\n").rule == "MY-5"
    assert rule_error("secret Ana: character 1\nsecret Ben: character 1\n").rule == "MY-5"
    assert rule_error("secret Ana: character 1\nsecret Ana: character 2\n").rule == "MY-5"
    assert rule_error("secret Ana: character 1, character 2\n").rule == "MY-5"
    head = "game: mysterium\nplayers: Gus Ana Ben Cleo\n"
    assert rule_error("secret Ana: character 1\n", head).rule == "MY-5"
