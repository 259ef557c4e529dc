"""``sleuth play``'s screen on a terminal (cli.session.Screen), drawn into a string: what it
keeps when a message is longer than the rows the sheet leaves.  tests/test_play_tmux.py
plays it in a real terminal."""
from __future__ import annotations

import io

from cli.session import CLEAR, Screen
from solver.session import Session

MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"
      "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C\nfaceup: 3C 7D 9S\n")


def drawn(stream: io.StringIO) -> list[str]:
    """The rows of the last screen drawn."""
    return stream.getvalue().rsplit(CLEAR, 1)[1].split("\n")[:-1]


def test_a_long_message_is_cut_and_the_sheet_kept(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(MH, encoding="utf-8")
    out = io.StringIO()                       # not a terminal: 80x24
    screen = Screen(Session(str(p)), colour=False, sheet=True, stream=out)
    message = "\n".join(f"message line {i}" for i in range(1, 11))
    screen.board(message)
    rows = drawn(out)
    assert len(rows) == 23                    # the 24th is the prompt's
    assert rows[-2].startswith("Verdict: ") and rows[-1] == "Next: Ana's turn (yours)."
    sheet = rows.index(next(r for r in rows if r.startswith("      ")))
    kept = rows[:sheet - 1]
    assert rows[sheet - 1] == ""
    cut = 10 - (len(kept) - 1)
    assert kept[:-1] == [f"message line {i}" for i in range(1, len(kept))]
    assert kept[-1] == f"... {cut} more lines ('history' shows them)"
    # the page of history has every line; an empty line's redraw keeps the message
    screen.typed("history")
    screen.history("")
    page = drawn(out)
    assert page[0] == "the last 10 lines said here:" and page[1:11] == message.split("\n")
    assert page[11] == "(Enter: back to the sheet)"
    screen.back()
    assert drawn(out) == rows


def test_a_short_message_keeps_the_prompt_on_the_last_row(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(MH, encoding="utf-8")
    out = io.StringIO()
    screen = Screen(Session(str(p)), colour=False, sheet=False, stream=out)
    screen.board("saved line 6: faceup: 3C 7D 9S")
    rows = drawn(out)
    # without the sheet (--no-sheet): the notes at the bottom, blank rows between
    assert len(rows) == 23 and rows[0] == "saved line 6: faceup: 3C 7D 9S"
    assert rows[-1] == "Next: Ana's turn (yours)." and rows[1:-1] == [""] * 21
