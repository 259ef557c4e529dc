"""Messages that were wrong: the column and rule of a refuter showing two cards (CL-6),
an option named twice in ``--variant``, the reason no card is face up, a card played twice
from one pack, rule numbers, the count of a high half, the ghost's lines in the default
Mysterium view, and the rule of a ghost named as a psychic."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli

CL = ("game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n\n"
      "Ana holds: Scarlet Rope Kitchen Hall Study\n")


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def record_file(tmp_path, text: str, name: str = "g.txt") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("shown,at", [("Plum Knife", "Plum Knife"),
                                       ("Plum Library", "Plum Library"),
                                       ("Plum, Knife", ", Knife")])
def test_clue_two_cards_shown_points_at_the_answer_and_cites_cl6(tmp_path, shown, at):
    """The column is the answer's (not the suggestion's copy of the same words)."""
    f = record_file(tmp_path, CL)
    line = f"Ana suggests Plum Knife Library: Ben shows {shown}"
    r = run("log", f, line)
    assert r.exit_code == 2
    col = line.rindex(at) + 1 + (2 if at.startswith(", ") else 0)
    assert f"g.txt:7:{col}: " in r.output
    assert "exactly one" in r.output and "(CL-6)" in r.output and "CL-1" not in r.output


def test_clue_unknown_card_shown_points_at_the_answer(tmp_path):
    f = record_file(tmp_path, CL)
    r = run("log", f, "Ana suggests Plum Knife Library: Ben shows Plum Knif")
    assert r.exit_code == 2
    assert "g.txt:7:44: " in r.output


@pytest.mark.parametrize("game,players,variant", [
    ("mystery-hand", "Ana Ben Cleo", ("sneak,sneak",)),
    ("mystery-hand", "Ana Ben Cleo", ("sneak", "sneak")),
    ("clue", "Ana Ben Cleo", ("refute=all,refute=all",)),
])
def test_new_refuses_an_option_named_twice(tmp_path, game, players, variant):
    out = tmp_path / "t.txt"
    args = ["new", game, str(out), "--players", players, "--dealer", "Ben", "--force"]
    for v in variant:
        args += ["--variant", v]
    r = run(*args)
    assert r.exit_code == 2 and "given twice" in r.output
    assert not out.exists()


def test_simulate_and_hand_tools_refuse_an_option_named_twice():
    r = run("simulate", "clue", "--players", "3", "--variant", "refute=all,refute=all")
    assert r.exit_code == 2 and "refute given twice" in r.output
    r = run("hand", "check", "AD 2D 3D", "-i", "7H", "--variant", "initial-min=61",
            "--variant", "initial-min=61")
    assert r.exit_code == 2 and "initial-min given twice" in r.output


def test_clue_no_face_up_card_when_the_cards_deal_evenly_says_so(tmp_path):
    f = record_file(tmp_path, "game: clue\nvariant: leftovers=face-up\nplayers: Ana Ben Cleo\n"
                              "dealer: Ben\nme: Cleo\n")
    r = run("log", f, "faceup: Plum")
    assert r.exit_code == 2
    assert "the 18 cards left after the case file deal evenly among 3 players (6 each)" \
        in r.output and "without 'variant" not in r.output and "(CL-11)" in r.output


TT = ("game: twenty-two\nplayers: Ana Ben Cleo\nme: Ana\n\ndraw: Ana 2H, Ben 3H, Cleo KH\n"
      "Cleo deals 7\nAna holds: QS 8S 7S 4D 3D 2D 9C\nAna exchanges 0\nBen exchanges 0\n"
      "Cleo exchanges 0\n")


def test_twenty_two_a_card_led_twice_from_one_pack_cites_tt1(tmp_path):
    f = record_file(tmp_path, TT)
    r = run("log", f, "Ana leads QS QS; Ben 10H 10D; Cleo 2C 3C")
    assert r.exit_code == 2
    assert "g.txt:11:14: Ana holds one QS (hand from line 7) but plays it twice: there is " \
           "one pack, so one of each card (TT-1)" in r.output
    assert "does not hold" not in r.output


def test_twenty_two_a_card_led_not_held_cites_the_lead_rule(tmp_path):
    f = record_file(tmp_path, TT)
    r = run("log", f, "Ana leads KS; Ben 10H; Cleo 2C")
    assert r.exit_code == 2
    assert "Ana does not hold KS" in r.output and "(TT-9)" in r.output \
        and "TT-10" not in r.output


HAND = ("game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ana\nindicator Jk\nindicator 10C\n"
        "Ana holds: AS 5S 10S JS KS 8H JH 7D 8D 8D JD KD AC 9C JC\n")


def test_hand_a_swap_on_a_missing_meld_cites_hr24(tmp_path):
    r = run("log", record_file(tmp_path, HAND), "Ana swaps 8H on 3")
    assert r.exit_code == 2
    assert "there are 0 melds on the table (numbered as laid) (HR-24)" in r.output
    assert "HR-23" not in r.output


def test_hand_the_starters_first_turn_cites_hr27_once(tmp_path):
    r = run("log", record_file(tmp_path, HAND), "Ana takes 9C")
    assert r.exit_code == 2
    assert r.output.count("HR-27") == 2     # the message and its 'see:'
    assert "HR-28" not in r.output


def test_twenty_two_a_draw_under_a_named_dealer_cites_tt4(tmp_path):
    f = record_file(tmp_path, "game: twenty-two\nplayers: Ana Ben Cleo\ndealer: Ana\nme: Ana\n")
    r = run("log", f, "draw: Ana 2H, Ben 3H, Cleo KH")
    assert r.exit_code == 2
    assert "no draw is due: the dealer is known (Ana, the header's 'dealer:'" in r.output
    assert "(TT-4)" in r.output and "TT-15" not in r.output


def test_literature_a_high_half_of_seven_cards_says_seven(tmp_path):
    f = record_file(tmp_path, "game: literature\nvariant: deck=52-seven-card-highs\n"
                              "players: Ana Ben Cleo Dev Eli Fay\nme: Ana\n\n"
                              "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")
    r = run("analyze", f)
    assert r.exit_code == 0, r.output
    assert "8S-AS  open; all seven with team Ana" in r.output
    assert "2S-7S  open; all six with team Ana" in r.output


MY = ("game: mysterium\nplayers: Gus Ana Ben Cleo Dev\nghost: Gus\nme: Ana\n\n"
      "table character: 2 5 7 9 11 14 17\ntable location: 1 3 6 8 10 13 16\n"
      "table object: 3 4 8 12 15 16 18\nsecret Ben: character 2, location 3, object 16\n"
      "hour 1\nAna receives 2 visions\nBen receives 2 visions\nCleo receives 2 visions\n"
      "Dev receives 2 visions\nBen guesses character 2\n")


def test_mysterium_a_psychics_view_notes_the_ghosts_lines_in_conflict(tmp_path):
    f = record_file(tmp_path, MY)
    r = run("log", f, "reveal Ben: wrong")
    assert r.exit_code == 3                 # the record whole, the ghost's lines included
    f = record_file(tmp_path, MY + "reveal Ben: wrong\n")
    assert run("analyze", f, "--as", "Gus").exit_code == 3
    r = run("analyze", f)
    assert r.exit_code == 0
    text = " ".join(r.output.split())
    assert "the record with the ghost's 'secret' lines contradicts itself: line 9 puts " \
           "character 2 in Ben's secret cards; line 16 says it is not (MY-12)" in text
    assert "'sleuth analyze --as Gus' and 'sleuth log' refuse the record (exit 3)" in text


def test_mysterium_no_note_when_the_ghosts_lines_agree(tmp_path):
    r = run("analyze", record_file(tmp_path, MY + "reveal Ben: right\n"))
    assert r.exit_code == 0 and "contradicts itself" not in r.output


def test_mysterium_the_ghost_named_as_a_psychic_cites_my1(tmp_path):
    r = run("log", record_file(tmp_path, MY), "Gus guesses character 7")
    assert r.exit_code == 2
    assert "Gus is the ghost, not a psychic; expected one of Ana Ben Cleo Dev (MY-1): 'Gus'" \
        in r.output
    r = run("log", record_file(tmp_path, MY), "Zed guesses character 7")
    assert "unknown psychic; expected one of Ana Ben Cleo Dev: 'Zed'" in r.output


def test_mysterium_a_player_of_two_psychics_named_as_one_cites_my3(tmp_path):
    f = record_file(tmp_path, "game: mysterium\nplayers: Gus Ana Ben\nghost: Gus\nme: Ana\n")
    r = run("log", f, "Ana guesses character 7")
    assert r.exit_code == 2
    assert "Ana plays as Ana-1 Ana-2, the psychic names" in r.output and "(MY-3)" in r.output
