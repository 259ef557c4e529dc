"""Round scoring (HR-37..HR-40, HR-42, HR-59) and scoresheet records (HR-5, HR-36,
HR-41..HR-45, A7, A15)."""
from pathlib import Path

import pytest

from solver.errors import NotationError, RuleError
from solver.games import get_game
from solver.hand import GAME, HandOptions, round_scores
from solver.hand.engine import multiplier
from solver.hand.events import parse_event
from solver.records import Header, parse_record, read_record, write_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "hand"
ALL = HandOptions(bonus_wild_discard=True, bonus_two_wilds=True, bonus_colour=True,
                  bonus_suit=True)


def test_partial_hr37_hr38():
    s = round_scores("Ana", "partial", (), {"Ben": 23, "Cleo": None}, HandOptions()).scores
    assert s == {"Ana": -30, "Ben": 23, "Cleo": 100}


def test_full_hand_hr40_doubles():
    s = round_scores("Ana", "full-hand", (), {"Ben": 23, "Cleo": None}, HandOptions()).scores
    assert s == {"Ana": -60, "Ben": 46, "Cleo": 200}


@pytest.mark.parametrize("bonuses,m", [
    ((), 1), (("wild-discard",), 2), (("colour",), 2), (("suit",), 4), (("two-wilds",), 4),
    (("wild-discard", "colour"), 4), (("wild-discard", "suit"), 8), (("two-wilds", "colour"), 8),
    (("two-wilds", "suit"), 16)])
def test_hr59_multipliers(bonuses, m):
    assert multiplier(bonuses) == m
    s = round_scores("Ana", "full-hand", bonuses, {"Ben": 10, "Cleo": None}, ALL)
    assert s.scores == {"Ana": -60 * m, "Ben": 2 * m * 10, "Cleo": 200 * m}


def test_hr59_the_rules_figures():
    # colour + one wild: -240, x8, +800
    s = round_scores("A", "full-hand", ("wild-discard", "colour"), {"B": 1, "C": None}, ALL)
    assert (s.scores["A"], s.scores["B"], s.scores["C"]) == (-240, 8, 800)
    # the maximum: one suit + two wilds: -960, x32, +3200
    s = round_scores("A", "full-hand", ("two-wilds", "suit"), {"B": 1, "C": None}, ALL)
    assert (s.scores["A"], s.scores["B"], s.scores["C"]) == (-960, 32, 3200)


@pytest.mark.parametrize("kind,bonuses,opts,words", [
    ("partial", ("colour",), ALL, "Full Hand only"),
    ("full-hand", ("colour",), HandOptions(), "not in this game's variant"),
    ("full-hand", ("wild-discard", "two-wilds"), ALL, "take one"),
    ("full-hand", ("colour", "suit"), ALL, "replaces"),
])
def test_hr59_bonus_errors(kind, bonuses, opts, words):
    with pytest.raises(RuleError, match=words) as e:
        round_scores("A", kind, bonuses, {"B": 5}, opts)
    assert e.value.rule == "HR-59"


def test_hr42_team_scores():
    s = round_scores("Ana", "full-hand", (), {"Ben": None, "Dev": None}, HandOptions(),
                     partner="Cleo").scores
    assert s == {"Ana": -60, "Cleo": 0, "Ben": 200, "Dev": 200}  # the other team adds 400


def _sheet(text):
    return GAME.analyze(parse_record(text), None)


HEAD3 = "game: hand\nplayers: Ana Ben Cleo\ndealer: Cleo\n"


def test_samples_replay_with_their_totals():
    totals = {
        "full-hand-bonuses.txt": ({"Ana": -40, "Ben": 569, "Cleo": 722}, "Ana"),
        "team-game.txt": ({"Ana+Cleo": 129, "Ben+Dev": 372}, "Ana+Cleo"),
        "seventh-round-tie.txt": ({"Ana": 39, "Ben": 0}, "Ben"),
    }
    for name, (tot, winner) in totals.items():
        rec = read_record(str(SAMPLES / name))
        sheet = get_game("hand").analyze(rec, None)
        assert sheet.totals == tot and sheet.winner == winner and sheet.status == "over"
        # canonical text round-trips
        again = parse_record(write_record(rec))
        assert again.events() == rec.events()
    assert len(list(SAMPLES.glob("*.txt"))) >= 2


def test_events_round_trip_and_aliases():
    h = Header("hand", ("Ana", "Ben", "Cleo"))
    for text in ("round 2 dealer Cleo indicator 7C: Ana out full-hand wild-discard colour; "
                 "Ben 5H KS AC, Cleo no-meld",
                 "round 3: unscored redeal Ana", "round 3: unscored stock",
                 "round 1: Ben out partial; Ana 12, Cleo 30"):
        ev = parse_event(text, h)
        assert str(ev) == text and parse_event(str(ev), h) == ev
    assert parse_event("ROUND 1: Ana OUT Full-Hand color; Ben NoMeld, Cleo 3", h).bonuses == \
        ("colour",)


@pytest.mark.parametrize("line", [
    "round: Ana out partial; Ben 3", "round 1 Ana out partial", "round 1: Ana wins; Ben 3",
    "round 1: Ana out partial; Ben", "round 1: Ana out partial; Dan 5",
    "round 1: Ana out full-hand shiny; Ben 5", "round 1: unscored lunch",
    "round 1 dealer: Ana out partial; Ben 3", "round 1: Ana out partial; Ben 5X",
    "round 0: unscored stock"])
def test_notation_errors(line):
    with pytest.raises(NotationError):
        parse_event(line, Header("hand", ("Ana", "Ben", "Cleo")))


def test_hr5_dealer_rotation_loser():
    sheet = _sheet(HEAD3 + "round 1: Ana out partial; Ben 40, Cleo 12\n"
                   "round 2: unscored stock\n"
                   "round 2: Cleo out partial; Ana 40, Ben 40\n"
                   "round 3: Ana out partial; Ben 10, Cleo 10\n")
    assert [d.dealer for d in sheet.deals] == ["Cleo", "Ben", "Ben", "Ben"]
    # round 2: Ana and Ben tied worst, Ben (the dealer) deals again; round 3: Ben and Cleo
    # tied, Ben dealt: again Ben
    assert sheet.next_dealer == "Ben"
    sheet = _sheet(HEAD3 + "round 1: Ana out partial; Ben 5, Cleo 5\n")
    # tied Ben and Cleo, previous dealer Cleo among them: Cleo again (HR-5)
    assert sheet.next_dealer == "Cleo"
    sheet = _sheet("game: hand\nplayers: Ana Ben Cleo Dev\ndealer: Ana\n"
                   "round 1: Ana out partial; Ben 5, Cleo 7, Dev 7\n")
    # tied Cleo and Dev; first counter-clockwise (to the right) from Ana: Dev
    assert sheet.next_dealer == "Dev"


def test_hr45_rotate_and_first_dealer_default():
    sheet = _sheet("game: hand\nvariant: deal-rotation=rotate\nplayers: Ana Ben Cleo\n"
                   "round 1: Ana out partial; Ben 40, Cleo 12\n"
                   "round 2: Ana out partial; Ben 40, Cleo 12\n")
    # no dealer: line: Ben deals so that Ana (on his right) starts; then to the right
    assert [d.dealer for d in sheet.deals] == ["Ben", "Ana"] and sheet.next_dealer == "Cleo"


def test_dealer_statement_is_checked():
    with pytest.raises(RuleError, match="Cleo deals round 1, not Ana") as e:
        parse_record(HEAD3 + "round 1 dealer Ana: Ana out partial; Ben 4, Cleo 5\n")
    assert e.value.rule == "HR-5" and e.value.line == 4


def test_a7_team_dealer_uses_individual_scores():
    sheet = _sheet("game: hand\nvariant: teams\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
                   "round 1: Ben out partial; Ana 34, Cleo no-meld\n")
    assert sheet.teams == [("Ana", "Cleo"), ("Ben", "Dev")]
    assert sheet.totals == {"Ana+Cleo": 134, "Ben+Dev": -30} and sheet.next_dealer == "Cleo"


@pytest.mark.parametrize("text,rule", [
    (HEAD3 + "round 2: Ana out partial; Ben 4, Cleo 5\n", "HR-36"),
    (HEAD3 + "round 1: Ana out partial; Ben 4\n", "HR-38"),
    (HEAD3 + "round 1: Ana out partial; Ben 4, Cleo 5, Ben 6\n", "HR-38"),
    (HEAD3 + "round 1: Ana out partial; Ana 4, Ben 4, Cleo 5\n", "HR-38"),
    (HEAD3 + "round 1: Ana out partial; Ben 1, Cleo 5\n", "HR-38"),
    (HEAD3 + "round 1: Ana out partial; Ben 500, Cleo 5\n", "HR-38"),
    (HEAD3 + "round 1: Ana out partial; Ben 5H AS, Cleo 5\n", "HR-38"),
    (HEAD3 + "round 1: Ana out partial; Ben 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH, Cleo 5\n",
     "HR-38"),
    (HEAD3 + "round 1: Ana out full-hand suit; Ben 4, Cleo 5\n", "HR-59"),
    (HEAD3 + "round 1 indicator 7C: Ana out partial; Ben 5H 5H 5H, Cleo 5\n", "HR-2"),
    ("game: hand\nplayers: Ana Ben Cleo Dev\nteams: Ana Cleo / Ben Dev\n"
     "round 1: Ana out partial; Cleo 4, Ben 5, Dev 6\n", "HR-42"),
    ("game: hand\nplayers: Ana Ben Cleo Dev\nteams: Ana Ben / Cleo Dev\n", "HR-1"),
    ("game: hand\nvariant: teams\nplayers: Ana Ben Cleo\n", "HR-1"),
    ("game: hand\nplayers: Ana Ben Cleo Dev Eli\n", "HR-1"),
    ("game: hand\nplayers: Ana\n", "HR-1"),
])
def test_rule_errors_name_the_rule_and_line(text, rule):
    with pytest.raises(RuleError) as e:
        parse_record(text)
    assert e.value.rule == rule


def test_card_penalties_use_the_round_indicator():
    sheet = _sheet(HEAD3 + "round 1 indicator QS: Ana out partial; Ben 9C 9D AS, Cleo KH Jk\n")
    assert sheet.deals[0].scores == {"Ana": -30, "Ben": 33, "Cleo": 21}  # AS 15; Jk = AS 11
    sheet = _sheet("game: hand\nvariant: ace-penalty=10\nplayers: Ana Ben Cleo\n"
                   "round 1 indicator QS: Ana out partial; Ben AH, Cleo KH Jk\n")
    assert sheet.deals[0].scores == {"Ana": -30, "Ben": 10, "Cleo": 20}
    sheet = _sheet(HEAD3 + "round 1: Ana out partial; Ben 9C KD, Cleo 2H\n")
    assert sheet.deals[0].scores == {"Ana": -30, "Ben": 19, "Cleo": 2}


def _seven(extra=""):
    lines = [f"round {i}: Ana out partial; Ben 10, Cleo 20" for i in range(1, 7)]
    return HEAD3 + "\n".join(lines) + "\n" + extra


def test_hr41_seven_rounds_then_over():
    sheet = _sheet(_seven("round 7: Ben out partial; Ana 5, Cleo 5\n"))
    assert sheet.status == "over" and sheet.winner == "Ana" and sheet.next_round is None
    with pytest.raises(RuleError, match="game is over") as e:
        parse_record(_seven("round 7: Ben out partial; Ana 5, Cleo 5\n"
                            "round 8: Ana out partial; Ben 5, Cleo 5\n"))
    assert e.value.line == 11


def test_hr43_round_seven_has_three_deals():
    sheet = _sheet(_seven("round 7: unscored stock\nround 7: unscored redeal Ben\n"))
    assert sheet.status == "in progress" and "last" in sheet.note
    sheet = _sheet(_seven("round 7: unscored stock\nround 7: unscored redeal Ben\n"
                          "round 7: unscored stock\n"))
    assert sheet.status == "over" and sheet.winner == "Ana" and sheet.rounds_scored == 6
    assert "dropped" in sheet.note


TIED = """round 1: Ben out partial; Ana 62, Cleo 50
round 2: Ben out partial; Ana 30, Cleo 50
round 3: Ana out partial; Ben 30, Cleo 50
round 4: Ana out partial; Ben 30, Cleo 50
round 5: Ben out partial; Ana 30, Cleo 50
round 6: Ana out partial; Ben 30, Cleo 50
round 7: Ana out partial; Ben 2, Cleo 100
"""


def test_hr44_ties_play_on():
    sheet = _sheet(HEAD3 + TIED)  # Ana 2, Ben 2, Cleo 400
    assert sheet.totals == {"Ana": 2, "Ben": 2, "Cleo": 400} and sheet.status == "tie-break"
    assert sheet.next_round == 8 and sheet.next_dealer == "Cleo"  # worst of round 7 (HR-5)
    sheet = _sheet(HEAD3 + TIED + "round 8: unscored stock\n"
                   "round 8: Ben out partial; Ana 4, Cleo 9\n")
    assert sheet.status == "over" and sheet.winner == "Ben" and sheet.rounds_scored == 8


def test_a15_tie_break_only_the_tied():
    head = "game: hand\nvariant: tie-break=tied\nplayers: Ana Ben Cleo\ndealer: Cleo\n"
    sheet = _sheet(head + TIED)
    assert sheet.next_dealer == "Ben"  # Cleo does not play on: the next player to her right
    sheet = _sheet(head + TIED + "round 8: Ben out partial; Ana 4\n")
    assert sheet.winner == "Ben" and sheet.totals["Cleo"] == 400
    with pytest.raises(RuleError):
        parse_record(head + TIED + "round 8: Ben out partial; Ana 4, Cleo 9\n")


def test_analysis_json_shape():
    sheet = GAME.analyze(read_record(str(SAMPLES / "team-game.txt")), "Ana")
    js = sheet.to_json()
    assert js["game"] == "hand" and js["view"] == "Ana" and js["consistent"] is True
    assert js["teams"] == [["Ana", "Cleo"], ["Ben", "Dev"]]
    assert js["rounds"][0]["scores"] == {"Ana+Cleo": 134, "Ben+Dev": -30}
    assert js["standings"][0] == {"rank": 1, "side": "Ana+Cleo", "total": 129}
    assert js["status"] == "over" and js["winner"] == "Ana+Cleo"
