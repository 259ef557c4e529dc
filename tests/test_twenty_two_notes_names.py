"""The "Missing: ..." notes name the record's own players: Twenty-Two's missing deal gave the
game's example ``'Ben deals 7'`` whoever sat at the table (a record of Ann, Bob and Cy was
told to have Ben deal); its example is now the dealer the rules call for (the header's, the
highest draw's, TT-4), a tied draw's players (TT-4: they draw again), or a player of the
record where anyone may deal.  Mysterium's missing secret cards (MY-5) named "Ben" alike.
Every game's notes on records of other names are checked for the examples' names."""
from __future__ import annotations

import re

import pytest

from solver.games import get_game
from solver.records import parse_record
from tests.serve_harness import sleuth

#: the names of the games' examples and rules (docs/record-format.md): none of them plays here
EXAMPLE_NAMES = re.compile(r"\b(Ana|Ben|Cleo|Dev|Eli|Fay|Gus)\b")
QUOTED = re.compile(r"\('([^']*)'")


def new_twenty_two(tmp_path, *extra: str):
    path = tmp_path / "t.txt"
    sleuth("new", "twenty-two", str(path), "--players", "Ann Bob Cy", "--me", "Ann", *extra)
    return path


def notes_of(output: str, start: str) -> list[str]:
    """The notes of ``sleuth``'s output that begin with ``start``, each whole (the terminal
    wraps a long note to its width)."""
    return re.findall(re.escape(start) + r".*?\)\.", " ".join(output.split()))


def missing_deal(output: str) -> str:
    notes = notes_of(output, "Missing: the deal")
    assert len(notes) == 1, output
    assert not EXAMPLE_NAMES.search(notes[0]), notes[0]
    return notes[0]


def test_after_the_draw_the_note_names_the_highest_drawer_as_dealer(tmp_path):
    """``sleuth log`` after a draw: the note's example is the highest draw's dealer (TT-4),
    and that example is accepted as it stands."""
    path = new_twenty_two(tmp_path)
    r = sleuth("log", str(path), "draw: Ann 9C, Bob 2D, Cy KH")
    note = missing_deal(r.stdout)
    assert "'Cy deals 7'" in note and "TT-4" in note, note
    example = QUOTED.search(note).group(1)
    assert sleuth("log", str(path), example).stdout.startswith("logged line"), example


def test_a_tied_draw_names_the_tied_players_who_draw_again(tmp_path):
    path = new_twenty_two(tmp_path)
    r = sleuth("log", str(path), "draw: Ann KC, Bob KD, Cy 4H")
    note = missing_deal(r.stdout)
    assert "Ann and Bob" in note and "'draw: Ann ..., Bob ...'" in note and "TT-4" in note, note
    assert "Cy" not in note, note


def test_the_headers_dealer_is_the_example(tmp_path):
    path = new_twenty_two(tmp_path, "--dealer", "Cy")
    note = missing_deal(sleuth("analyze", str(path)).stdout)
    assert "'Cy deals 7'" in note, note


def test_before_any_draw_the_example_is_a_player_of_the_record(tmp_path):
    """Anyone may deal until a draw says who (TT-4): the example is one of the record's
    players, and the engine accepts it."""
    path = new_twenty_two(tmp_path)
    note = missing_deal(sleuth("analyze", str(path)).stdout)
    example = QUOTED.search(note).group(1)
    assert re.fullmatch(r"(Ann|Bob|Cy) deals 7", example), note
    assert sleuth("log", str(path), example).stdout.startswith("logged line"), example


def test_a_short_pack_deals_what_the_example_says():
    """Seven players: the example still deals what the engine allows (TT-5, TT-7)."""
    rec = parse_record("game: twenty-two\nplayers: Ann Bob Cy Dot Eve Fin Gil\n")
    notes = [n.text for n in get_game("twenty-two").table_notes(rec, None)]
    assert any(n.startswith("Missing: the deal ('Bob deals ") for n in notes), notes
    example = QUOTED.search(notes[0]).group(1)
    get_game("twenty-two").validate(parse_record(
        "game: twenty-two\nplayers: Ann Bob Cy Dot Eve Fin Gil\n" + example + "\n"))


MY = "game: mysterium\nvariant: easy\nplayers: Gil Ann Bob\nghost: Gil\nme: Gil\n"


def test_mysteriums_secret_cards_note_names_a_psychic_of_the_record(tmp_path):
    """The ghost's missing secret cards (MY-5): the example is this record's first psychic,
    with cards of its table, and is accepted as it stands."""
    path = tmp_path / "m.txt"
    path.write_text(MY + "table character: 1 4 6 9 13\ntable location: 2 3 8 11 17\n"
                    "table object: 5 7 10 12 16\n", encoding="utf-8")
    out = sleuth("analyze", str(path)).stdout
    note, = notes_of(out, "Missing: the psychics' secret cards")
    assert "'secret Ann-1: character 1, location 2, object 5'" in note, note
    assert sleuth("log", str(path), QUOTED.search(note).group(1)).stdout.startswith("logged")


# (game, a record of players none of whom is an example's name, views to check)
RECORDS = [
    ("literature", "game: literature\nplayers: Ann Bob Cy Dot Eve Fin\nme: Ann\n"),
    ("twenty-two", "game: twenty-two\nplayers: Ann Bob Cy\nme: Ann\n"),
    ("twenty-two", "game: twenty-two\nplayers: Ann Bob Cy\nme: Ann\n"
                   "draw: Ann 9C, Bob KD, Cy 4H\n"),
    ("twenty-two", "game: twenty-two\nplayers: Ann Bob Cy\nme: Ann\n"
                   "draw: Ann KC, Bob KD, Cy 4H\n"),
    ("twenty-two", "game: twenty-two\nplayers: Ann Bob Cy\nme: Ann\n"
                   "draw: Ann 9C, Bob KD, Cy 4H\nBob deals 7\n"),
    ("hand", "game: hand\nplayers: Ann Bob Cy\ndealer: Bob\nme: Ann\n"),
    ("hand", "game: hand\nplayers: Ann Bob Cy\ndealer: Bob\nme: Ann\nindicator 4H\n"),
    ("mysterium", MY),
    ("mysterium", MY + "table character: 1 2 3 4 5\ntable location: 1 2 3 4 5\n"
                  "table object: 1 2 3 4 5\n"),
    ("mystery-hand", "game: mystery-hand\nplayers: Ann Bob Cy Dot Eve\ndealer: Eve\nme: Ann\n"),
    ("clue", "game: clue\nplayers: Ann Bob Cy\nme: Ann\n"),
]


@pytest.mark.parametrize("game, text", RECORDS)
def test_no_note_names_a_player_who_is_not_at_the_table(game, text):
    rec = parse_record(text)
    for view in (rec.header.me, None):
        notes = [n.text for n in get_game(game).table_notes(rec, view)]
        assert notes or view is None, (game, text)
        for n in notes:
            assert not EXAMPLE_NAMES.search(n), (game, view, n)
