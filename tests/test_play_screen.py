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


def test_the_certainties_first_then_the_sheet(tmp_path, monkeypatch):
    """After a change the board shows stage 1 (solver.staged: the certain cards by place,
    the notes) at once, while a worker works out the sheet; then the sheet."""
    import threading

    p = tmp_path / "g.txt"
    p.write_text(MH, encoding="utf-8")
    session = Session(str(p))
    go = threading.Event()
    analyze = session.analyze

    def slow(*args, **kwargs):          # the figures wait until the test lets them go
        go.wait(60)
        return analyze(*args, **kwargs)

    monkeypatch.setattr(session, "analyze", slow)
    screen = Screen(session, colour=False, sheet=True, size=(80, 24))
    session.handle("Ana asks Ben 4H-7H: 4H 6H")
    screen.board("saved line 7: Ana asks Ben 4H-7H: 4H 6H")
    screen.stage(None)
    rows = screen.lines()
    assert rows[0] == "saved line 7: Ana asks Ben 4H-7H: 4H 6H"
    # stage 1 may be cut short by its own time ("so far"): what it gives is certain
    assert any(r.startswith("certain now") for r in rows)
    assert "  Ana: AS 2S 8S 3H 9H 4D JD 5C QC" in rows and "  Ben: 4H 6H" in rows
    assert "(working out the figures...)" in rows
    assert "Next: Ben's turn." in rows and not any(r.startswith("Verdict") for r in rows)
    go.set()
    screen.settle(cancel=False)
    rows = screen.lines()
    assert rows[-2].startswith("Verdict: ") and rows[-1] == "Next: Ben's turn."
    assert "(working out the figures...)" not in rows


def test_a_change_stops_the_sheet_being_worked_out(tmp_path, monkeypatch):
    import threading

    from solver.model.budget import check

    p = tmp_path / "g.txt"
    p.write_text(MH, encoding="utf-8")
    session = Session(str(p))
    started = threading.Event()

    def endless(*args, **kwargs):       # an analysis that only a cancel stops
        started.set()
        while True:
            check()
            threading.Event().wait(0.01)

    monkeypatch.setattr(session, "analyze", endless)
    screen = Screen(session, colour=False, sheet=True, size=(80, 24))
    screen.stage(None)
    assert started.wait(60)
    screen.settle(cancel=True)          # returns: the worker was stopped
    assert screen.worker is None and not screen.ready()
