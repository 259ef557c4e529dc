"""``sleuth play``'s screen and prompt after the audit (tests/test_play_audit.py): Clue's
short sheet within 80x24, the sheets' narrow layouts at 40 columns, the completion of
``edit``, the wording of help and errors."""
from __future__ import annotations

import pytest
from wcwidth import wcswidth

from tests.test_play_audit import Sized, board, sample, tmux

CUT = "more lines of the sheet"


# ----- Clue's short sheet: the whole of it on 80x24 with the prompt -------------------------
@pytest.mark.parametrize("name", ["four-players-ana.txt", "five-players-face-up.txt",
                                  "three-players.txt", "large-edition-custom-cards.txt",
                                  "six-players-refute-all.txt"])
def test_clues_short_sheet_fits_80x24(tmp_path, name):
    rows = board(sample(tmp_path, name), (80, 24), "saved line 13: ...")
    assert len(rows) == 23 and all(wcswidth(r) <= 80 for r in rows), rows
    assert not any(CUT in r for r in rows), rows
    assert any(r.startswith("Clue — view: ") for r in rows)
    assert any(r.startswith("Verdict: ") for r in rows)


def test_clues_short_sheet_says_the_placed_the_open_and_the_case_files(tmp_path):
    rows = board(sample(tmp_path, "four-players-ana.txt"), (80, 24), "saved line 13: ...")
    text = "\n".join(rows)
    flat = " ".join(text.split())
    assert "Placed: Ana Scarlet Rope Kitchen Hall Study; Ben White; Cleo Mustard Peacock " \
           "Knife; FILE Plum" in flat
    # the open cards' grid, two blocks side by side: its heading and Green's row
    head = next(r for r in rows if r.split()[:5] == ["Ana", "Ben", "Cleo", "Dev", "FILE"])
    assert head.count("|") == 1
    assert rows[rows.index(head) + 1].split()[:6] == ["Green", "·", "91%", "9%", "·", "·"]
    assert "Verdict: not determined: 9 possible case files of 324; the most likely Plum " \
           "Pipe Ballroom 0.5" in flat
    assert rows[-1] == "Out (still refuting, CL-9): Dev."


# ----- narrow terminals: layouts that fit 40 columns -----------------------------------------
def test_clues_grid_does_not_wrap_at_40_columns(tmp_path):
    rows = board(sample(tmp_path, "four-players-ana.txt"), (40, 20), "saved line 13: ...")
    assert all(wcswidth(r) <= 40 for r in rows)
    # the grid's heading is one row, not wrapped onto the next
    head = next(i for i, r in enumerate(rows) if r.split()[:1] == ["Ana"])
    assert rows[head].split() == ["Ana", "Ben", "Cleo", "Dev", "FILE"], rows
    assert rows[head + 1].split()[0] in ("Green", "...")
    # a card's row is whole: its name and five cells on one row
    assert any(r.split()[:1] == ["Wrench"] and len(r.split()) == 6 for r in rows), rows


def test_clue_too_narrow_for_a_grid_says_a_line_per_card(tmp_path):
    rows = board(sample(tmp_path, "five-players-face-up.txt"), (40, 20))
    assert all(wcswidth(r) <= 40 for r in rows)
    assert rows[rows.index("Scarlet: Ben 64%, Cleo 10%, Dev 11%, Eli") + 1] == "  5%, FILE 10%"
    assert any(r.startswith("rows 1-") and "PgDn" in r for r in rows), rows


def test_literatures_tables_at_40_columns(tmp_path):
    rows = board(sample(tmp_path, "ex-a-six-players.txt"), (40, 32))
    assert all(wcswidth(r) <= 40 for r in rows)
    assert "Ana * (Ana) 8: 9S 2H 3H 4H 6H 7H QD JC" in rows
    assert "Ben (Ben) 8: -" in rows
    # one half-suit a row, none wrapped onto the next
    halves = [r for r in rows if r.startswith("  ") and r[2:4] in ("2S", "9S", "2H", "9H",
                                                                   "2D", "9D", "2C", "9C")]
    assert len(halves) == 8 and all(r.count("placed") == 1 for r in halves), rows
    assert "  2H-7H  6/6 placed, Ana certain *" in halves


def test_literature_at_80_columns_keeps_two_half_suits_a_row(tmp_path):
    rows = board(sample(tmp_path, "ex-a-six-players.txt"), (80, 24))
    assert "  2H-7H  6/6 placed, Ana certain *  9H-AH  0/6 placed, Ben 4%" in rows
    assert any(r.split()[:4] == ["Ana", "Ana", "*", "8"] for r in rows)


# ----- help and errors: words kept whole -----------------------------------------------------
@pytest.mark.parametrize("width", [80, 60, 40])
def test_new_help_keeps_the_games_names_whole(width):
    from click.testing import CliRunner

    from cli.main import cli
    from solver.games import game_names

    out = CliRunner().invoke(cli, ["new", "--help"], terminal_width=width).output
    usage = out[:out.index("\n\n")]
    assert all(len(r) <= width for r in usage.split("\n")), usage
    words = usage.replace("{", " ").replace("}", " ").replace("|", " ").split()
    assert all(g in words for g in game_names(None)), usage
    assert "twenty-two" in usage.split("{")[1]


@tmux
def test_the_as_error_on_a_terminal_breaks_at_spaces(tmp_path):
    t = Sized(sample(tmp_path, "four-players-ana.txt"), 40, 20, "--as", "Zedekiah")
    try:
        rows = t.wait(lambda rows: any("Zedekiah" in r for r in rows), "the error")
    finally:
        t.close()
    said = [r for r in rows if r]
    assert said[0].startswith("sleuth: error: --as must name a player")
    assert all(len(r) <= 40 for r in said)
    words = ("sleuth: error: --as must name a player of the record or 'public' (players: "
             "Ana Ben Cleo Dev): 'Zedekiah'").split()
    assert " ".join(said).split() == words, said


# ----- Mysterium: a stage with one candidate left ----------------------------------------------
def test_mysteriums_one_candidate_is_said_in_plain_words(tmp_path):
    from cli.mysterium import render_analysis
    from solver.session import Session

    text = render_analysis(Session(str(sample(tmp_path, "three-players-lost.txt"))).analyze())
    row = next(r for r in text.split("\n") if r.startswith("Ben-2      object"))
    assert row.split("current", 1)[1].strip() == "7 (the only one left); forced 7; wrong 10"
    assert "certain each" not in text


# ----- Literature: "not a statement" names the record's own players ----------------------------
def test_literatures_not_a_statement_example_uses_the_records_players(tmp_path):
    from click.testing import CliRunner

    from cli.main import cli

    p = tmp_path / "g.txt"
    p.write_text("game: literature\nplayers: Zoë Yuri Xena Walt\nme: Zoë\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["log", str(p), "blah blah"])
    assert r.exit_code == 2
    assert "expected a statement such as 'Zoë asks Yuri 9C: no' (players: Zoë Yuri Xena " \
           "Walt)" in r.output, r.output
    assert "Ana" not in r.output


# ----- completion: 'edit ' offers the record's line numbers ------------------------------------
def test_edit_and_delete_complete_line_numbers(tmp_path):
    from solver.session import Session

    s = Session(str(sample(tmp_path, "four-players-ana.txt")))
    lines = [str(st.line) for st in s.record.statements][::-1]     # the last first
    assert s.complete("edit ") == lines and s.complete("delete ") == lines
    assert s.complete("edit 1") == [n for n in lines if n.startswith("1")]
    meta = s.completion_meta("edit ")
    assert meta["16"] == "Ana suggests Peacock Pipe Billiard: Cleo shows Peacock"
    # after the number: the new statement (no command), and nothing after 'delete N'
    assert s.complete("edit 12 ")[:4] == ["Ana", "Ben", "Cleo", "Dev"]
    assert "undo" not in s.complete("edit 12 ")
    assert s.complete("edit 12 Ana s") == ["suggests", "shows", "sees"]
    assert s.complete("delete 12 ") == []
    assert s.completion_meta("Ana ") == {}


@tmux
def test_edit_tab_shows_the_lines_with_their_text(tmp_path):
    from tests.test_play_audit import settled

    t = Sized(sample(tmp_path, "four-players-ana.txt"), 80, 24, "--no-hint")
    try:
        t.wait(settled("four-players-ana.txt: clue"), "the first screen")
        t._tmux("send-keys", "-l", "edit ")
        t._tmux("send-keys", "Tab")
        # the menu may open while typing before the Tab is handled (a loaded machine): wait
        # for the Tab's own effect too, the first line taken
        rows = t.wait(lambda rows: any("Cleo shows Peacock" in r for r in rows)
                      and any(r.rstrip().startswith("sleuth> edit 16") for r in rows),
                      "the menu, with the first line taken")
    finally:
        t.close()
    menu = next(r for r in rows if "Ana suggests Peacock Pipe Billiard" in r)
    assert menu.split()[0] == "16"
