"""``sleuth play``'s screen on a terminal (cli.session.Screen), its rows at 80x24: what it
keeps when a message is longer than the rows the sheet leaves.  tests/test_play_tmux.py
plays it in a real terminal."""
from __future__ import annotations

from cli.session import Screen
from solver.session import Session

MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"
      "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C\nfaceup: 3C 7D 9S\n")


def test_a_long_message_is_cut_and_the_sheet_kept(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(MH, encoding="utf-8")
    screen = Screen(Session(str(p)), colour=False, sheet=True, size=(80, 24))
    message = "\n".join(f"message line {i}" for i in range(1, 11))
    screen.board(message)
    rows = screen.lines()
    assert len(rows) == 23                    # the 24th is the prompt's
    assert rows[-2].startswith("Verdict: ") and rows[-1] == "Next: Ana's turn (yours)."
    sheet = rows.index(next(r for r in rows if r.startswith("      ")))
    kept = rows[:sheet - 1]
    assert rows[sheet - 1] == ""
    # its middle is cut: the start (what was refused) and the end (the fix) stay
    cut = 10 - (len(kept) - 1)
    at = next(i for i, r in enumerate(kept) if r.startswith("..."))
    assert kept[at] == f"... {cut} more lines ('history' shows them)"
    assert kept[:at] == [f"message line {i}" for i in range(1, at + 1)]
    assert kept[at + 1:] == [f"message line {i}" for i in range(at + 1 + cut, 11)]
    assert kept[-1] == "message line 10"
    # the page of history has every line; an empty line's redraw keeps the message
    screen.typed("history")
    screen.history("")
    page = screen.lines()
    assert page[0] == "the last 10 lines said here:" and page[1:11] == message.split("\n")
    assert page[11] == "(Enter: back to the sheet)" and page[12:] == [""] * 11
    screen.back()
    assert screen.lines() == rows


def test_a_short_message_keeps_the_prompt_on_the_last_row(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(MH, encoding="utf-8")
    screen = Screen(Session(str(p)), colour=False, sheet=False, size=(80, 24))
    screen.board("saved line 6: faceup: 3C 7D 9S")
    rows = screen.lines()
    # without the sheet (--no-sheet): the notes at the bottom, blank rows between
    assert len(rows) == 23 and rows[0] == "saved line 6: faceup: 3C 7D 9S"
    assert rows[-1] == "Next: Ana's turn (yours)." and rows[1:-1] == [""] * 21
