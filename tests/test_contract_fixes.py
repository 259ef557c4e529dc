"""Contract fixes (record-format.md): Clue card lists with commas, Mystery Hand ask-all
counts without names when the player names are digits, header errors that quote the
offending text (not a number the program computed)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import SleuthError
from solver.records import parse_record

CLUE = ("game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
        "Ana holds: Scarlet Rope Kitchen Hall Study\n")


def _analyze(tmp_path, text: str):
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["analyze", str(path)])


# ----- 1. Clue: card lists separated by spaces and/or commas ---------------------------------

CLUE_COMMAS = [
    # (statement with commas, the same with spaces)
    ("Ana suggests Plum, Knife, Library: Ben shows Knife",
     "Ana suggests Plum Knife Library: Ben shows Knife"),
    ("Ana suggests Plum,Knife,Library: Ben shows Knife",
     "Ana suggests Plum Knife Library: Ben shows Knife"),
    ("Ana suggests Plum ,Knife , Library : Ben shows Knife",
     "Ana suggests Plum Knife Library: Ben shows Knife"),
    ("Ana suggests Plum, Knife, Library: Ben passes, Cleo shows Knife",
     "Ana suggests Plum Knife Library: Ben passes, Cleo shows Knife"),
    ("Ben suggests Plum,Knife,Library: ?", "Ben suggests Plum Knife Library: ?"),
    ("Ben suggests Plum, Knife, Library: nobody", "Ben suggests Plum Knife Library: nobody"),
    ("Ana accuses Plum, Knife, Library: wrong", "Ana accuses Plum Knife Library: wrong"),
    ("Ana accuses Plum,Knife,Library: wrong", "Ana accuses Plum Knife Library: wrong"),
    ("Ana suggests ProfPlum,LeadPipe,DiningRoom: Ben shows LeadPipe",      # CL-1 aliases
     "Ana suggests Plum Pipe Dining: Ben shows Pipe"),
    ("Ana suggests Prof_Plum, Lead-Pipe, Dining_Room: Ben shows Pipe",
     "Ana suggests Plum Pipe Dining: Ben shows Pipe"),
    ("faceup: Plum, Pipe", "faceup: Plum Pipe"),          # (already so: a regression row)
    ("faceup: Plum,Pipe", "faceup: Plum Pipe"),
]


@pytest.mark.parametrize("commas, spaces", CLUE_COMMAS)
def test_clue_card_lists_take_commas(tmp_path, commas, spaces):
    head = CLUE
    if commas.startswith("faceup"):         # CL-11: four cards each, two face up
        head = CLUE.replace("me: Ana\n", "variant: leftovers=face-up\nme: Ana\n") \
            .replace(" Study\n", "\n")
    with_commas = parse_record(head + commas + "\n")
    with_spaces = parse_record(head + spaces + "\n")
    assert [st.event for st in with_commas.statements] == \
        [st.event for st in with_spaces.statements]
    result = _analyze(tmp_path, head + commas + "\n")
    assert result.exit_code == 0, result.output


def test_clue_sees_case_takes_commas():
    base = CLUE + "Ana accuses Plum Knife Library: wrong\n"
    a = parse_record(base + "Ana sees case: Green, Pipe,Lounge\n")
    b = parse_record(base + "Ana sees case: Green Pipe Lounge\n")
    assert [st.event for st in a.statements] == [st.event for st in b.statements]


def test_clue_custom_cards_take_commas():
    head = ("game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
            "rooms: Küche, Bad,Hall Attic Cellar Garden Garage Porch Loft\n")
    rec = parse_record(head + "Ana suggests Plum, Knife,Küche: Ben shows Küche\n")
    assert str(rec.statements[-1].event) == "Ana suggests Plum Knife Küche: Ben shows Küche"


CLUE_COMMA_ERRORS = [
    # (statement, message part, quoted text, column)
    ("Ana suggests Plum, Knif, Library: Ben shows Knife", "not a card", "'Knif'", 20),
    ("Ana suggests Plum, Knife: Ben shows Knife", "expected three cards", "'Plum, Knife'", 14),
    ("Ana accuses Plum, Knife, Library, Hall: wrong", "expected three cards",
     "'Plum, Knife, Library, Hall'", 13),
    ("Ana suggests Knife, Plum, Library: ?", "expected a suspect", "'Knife'", 14),
]


@pytest.mark.parametrize("line, message, quote, column", CLUE_COMMA_ERRORS)
def test_clue_comma_errors_quote_the_text(line, message, quote, column):
    with pytest.raises(SleuthError) as e:
        parse_record(CLUE + line + "\n")
    assert message in str(e.value) and str(e.value).endswith(quote)
    assert (e.value.line, e.value.column) == (6, column)


# ----- 2. Mystery Hand: ask-all counts without names, names that are digits -------------------

DIGITS = "game: mystery-hand\nplayers: 1 2 3 4 5\ndealer: 2\nme: 1\n"
LETTERS = "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Ben\nme: Ana\n"

ASK_ALL = [
    # (head, statement, counts as read)
    (DIGITS, "3 asks all 10D-KD: 1 0 0 2", (("1", 1), ("2", 0), ("4", 0), ("5", 2))),
    (DIGITS, "3 asks all 10D-KD: 0 1 0 2", (("1", 0), ("2", 1), ("4", 0), ("5", 2))),
    (DIGITS, "3 asks all 10D-KD: 2 0 ? 1", (("1", 2), ("2", 0), ("4", None), ("5", 1))),
    (DIGITS, "3 asks all 10D-KD: 3 0 1 0", (("1", 3), ("2", 0), ("4", 1), ("5", 0))),
    (DIGITS, "3 asks all 10D-KD: 1, 0, 2, 1", (("1", 1), ("2", 0), ("4", 2), ("5", 1))),
    (DIGITS, "3 asks all 10D-KD: 1 1, 2 0, 4 0, 5 2",
     (("1", 1), ("2", 0), ("4", 0), ("5", 2))),
    (DIGITS, "3 asks all 10D-KD: 2 0 1 1 4 0 5 2",       # named, in another order
     (("2", 0), ("1", 1), ("4", 0), ("5", 2))),
    (DIGITS, "3 asks all 10D-KD: 1 none 2 ? 4 1 5 0",
     (("1", 0), ("2", None), ("4", 1), ("5", 0))),
    (LETTERS, "Cleo asks all 10D-KD: 0 1 0 2", (("Ana", 0), ("Ben", 1), ("Dev", 0), ("Eli", 2))),
    (LETTERS, "Cleo asks all 10D-KD: Ana 0, Ben 1, Dev 0, Eli 2",
     (("Ana", 0), ("Ben", 1), ("Dev", 0), ("Eli", 2))),
]


@pytest.mark.parametrize("head, line, counts", ASK_ALL)
def test_ask_all_counts_with_digit_names(tmp_path, head, line, counts):
    rec = parse_record(head + line + "\n")
    assert rec.statements[-1].event.counts == counts
    result = _analyze(tmp_path, head + line + "\n")
    assert result.exit_code == 0, result.output


def test_ask_all_counts_skip_players_out_with_digit_names():
    rec = parse_record(DIGITS + "3 announces AS 2H 3D 4C: wrong\n"
                       "4 asks all 10D-KD: 1 0 2\n")
    assert rec.statements[-1].event.counts == (("1", 1), ("2", 0), ("5", 2))


ASK_ALL_ERRORS = [
    (DIGITS, "3 asks all 10D-KD: 1 0 0", "expected 4 counts"),
    (DIGITS, "3 asks all 10D-KD: 1 0, 2 1", "missing 4 5"),
    (DIGITS, "3 asks all 10D-KD: 1 0 0 2 1", "expected 4 counts"),
    (DIGITS, "3 asks all 10D-KD: 1 0 2 1 4 0", "missing 5"),
]


@pytest.mark.parametrize("head, line, message", ASK_ALL_ERRORS)
def test_ask_all_digit_names_errors(head, line, message):
    with pytest.raises(SleuthError) as e:
        parse_record(head + line + "\n")
    assert message in str(e.value) and e.value.line == 5


# ----- 3. header errors quote the offending text -------------------------------------------

HEADER_ERRORS = [
    # (record, rule, quoted text, line, column)
    ("game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli Fay Gus Hal Ivy\n", "MH-1",
     "'Ana Ben Cleo Dev Eli Fay Gus Hal Ivy'", 2, 10),
    ("game: mystery-hand\nplayers:  Ana\n", "MH-1", "'Ana'", 2, 11),
    ("game: mystery-hand\nvariant: two-player = blind\nplayers: Ana Ben Cleo Dev Eli\n",
     "MH-28", "'two-player = blind'", 2, 10),
    ("game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\nvariant: sneak, Two_Player=seen\n",
     "MH-28", "'Two_Player=seen'", 3, 17),
    ("game: twenty-two\nplayers: Ana\n", "TT-1", "'Ana'", 2, 10),
]


@pytest.mark.parametrize("text, rule, quote, line, column", HEADER_ERRORS)
def test_header_errors_quote_the_text(tmp_path, text, rule, quote, line, column):
    with pytest.raises(SleuthError) as e:
        parse_record(text)
    msg = str(e.value)
    assert f"({rule})" in msg and msg.endswith(quote), msg
    assert (e.value.line, e.value.column) == (line, column)
    result = _analyze(tmp_path, text)
    assert result.exit_code == 2 and f"g.txt:{line}:{column}:" in result.output
    assert quote in result.output
