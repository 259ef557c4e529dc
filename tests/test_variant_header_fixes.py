"""The ``variant:`` line: ``standard`` only alone, flags written ``true``/``false`` (and
``yes``/``no``), options that do not combine quoted as typed and pointed at; Clue's player
count with custom card lists in words that make sense; a card typed with a variation
selector (a phone's ``3♥️``) quoted as typed."""
import pytest

from solver.errors import NotationError, SleuthError
from solver.mystery_hand.options import MysteryHandOptions
from solver.records import parse_record

SIX = "players: Ana Ben Cleo Dev Eli Fay\n"


def error_of(text):
    with pytest.raises(SleuthError) as e:
        parse_record(text, "v.txt")
    return e.value


@pytest.mark.parametrize("variant,column", [
    ("standard, sneak", 10),
    ("sneak, Standard", 17),
    ("sneak,standard,keep-em-guessing", 16),
])
def test_standard_with_other_options_is_refused(variant, column):
    e = error_of(f"game: mystery-hand\nvariant: {variant}\n{SIX}")
    assert isinstance(e, NotationError) and "'standard' means no option" in e.message
    assert "record-format.md" in e.message and e.line == 2 and e.column == column, str(e)
    assert e.text.lower() == "standard"


def test_standard_alone_is_no_option():
    rec = parse_record(f"game: mystery-hand\nvariant: standard\n{SIX}")
    assert rec.header.variant == ()
    with pytest.raises(NotationError, match="'standard' means no option"):
        MysteryHandOptions.from_names(["standard", "sneak"])


@pytest.mark.parametrize("value,on", [("true", True), ("TRUE", True), ("yes", True),
                                      ("on", True), ("false", False), ("no", False),
                                      ("off", False), ("False", False)])
def test_flags_take_true_false_yes_no(value, on):
    rec = parse_record(f"game: mystery-hand\n"
                       f"variant: sneak, sneak-jokers-count-for-extra-turn={value}\n{SIX}")
    assert MysteryHandOptions.of(rec.header).sneak_jokers_count_for_extra_turn is on


def test_a_flag_with_another_value_says_what_it_takes():
    e = error_of(f"game: mystery-hand\nvariant: sneak, sneak-jokers-count-for-extra-turn=maybe\n"
                 f"{SIX}")
    assert "is off | on (also false | true, no | yes)" in e.message and e.rule == "MH-25"


@pytest.mark.parametrize("variant,quote,column", [
    ("twenty_six, rasmussen", "twenty_six, rasmussen", 22),
    ("rasmussen, twenty-six", "rasmussen, twenty-six", 21),
    ("twenty_six ,  deal = capped", "twenty_six ,  deal = capped", 24),
])
def test_options_that_do_not_combine_are_quoted_as_typed(variant, quote, column):
    e = error_of(f"game: twenty-two\nvariant: {variant}   # x\nplayers: Ana Ben Cleo\n")
    assert e.text == quote and e.line == 2 and e.column == column, str(e)


@pytest.mark.parametrize("rooms,message", [
    ("Hall", "these card lists leave 0 cards outside the case file: too few"),
    ("Hall Den", "these card lists leave 1 card outside the case file: too few"),
    ("Hall Den Spa Gym", "Clue is played by 3 players with these 3 cards outside the case "
                         "file, not 4"),
    ("Hall Den Spa Gym Bar", "Clue is played by 3 to 4 players with these 4 cards"),
])
def test_clue_player_count_with_custom_cards_reads_sensibly(rooms, message):
    players = "Ana Ben Cleo Dev" if "Bar" not in rooms else "Ana Ben Cleo Dev Eli"
    e = error_of(f"game: clue\nplayers: {players}\nsuspects: Plum\nweapons: Rope\n"
                 f"rooms: {rooms}\n")
    assert message in e.message and "3 to 0" not in e.message and "CL-12" in (e.rule or "")


@pytest.mark.parametrize("line,quote,column", [
    ("Ana holds: 3♥️ 3♥️ 5H 6H 7H 8H 9H 10H JH QH KH AH", "3♥️", 16),
    ("Ana holds: 3\u2665\ufe0f 4H 5H 6H 7H 8H 9H 10H JH QH KH 3\u2665\ufe0f", "3♥️", 47),
    ("Ben asks Ana 3♥️-6♥️: 3♥️", "Ben asks Ana 3♥️-6♥️: 3♥️", 1),
])
def test_a_card_with_a_variation_selector_is_quoted_as_typed(line, quote, column):
    e = error_of(f"game: mystery-hand\nplayers: Ana Ben Cleo Dev\nme: Ana\n{line}\n")
    assert e.text == quote and e.line == 4 and e.column == column, str(e)
