"""``sleuth play``'s one screen when a message and the sheet compete for rows
(:meth:`cli.session.Screen.lines`): a contradiction or a held statement takes the rows it
needs and the sheet gives way, its verdict and whose turn kept whole; a correction with
``did you mean`` leaves the short sheet made for 80x24 whole.  The screen-layout functions
driven directly, at the sizes of a phone's SSH client and a standard terminal."""
from __future__ import annotations

import re
from pathlib import Path

from cli.session import Layout, Screen, checked, render_outcome, scroll_sheet
from solver.session import Session

MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
      "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
      "Ana asks Ben 4H-7H: 4H 7H   # first ask\n"
      "Ben asks all 6*: Ana 1, Cleo 2, Dev 0\n"
      "Cleo asks Dev 6*: 0\n"
      "dev asks ana 2c-5c: 2c 3c 4c 5c\n")

MH3 = MH + ("Ana asks Cleo 8H-JH: 1\nBen asks Dev 2D-5D: 0\nCleo requests AS: Dev\n"
            "Dev asks Ana 2C-5C: 2C 3C 4C 5C\nDev asks Ben 9S-QS: 2\nAna asks Cleo 9D-QD: 1\n")

LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\ndealer: Ana\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n"
       "Ana asks Ben 10S: no\nBen asks Cleo 9D: no\nCleo asks Ben 3H: no\n"
       "Ben asks Ana QC: no\n")

MARKER = re.compile(r"rows \d+-\d+ of \d+ ")
GRID = re.compile(r"^(?: A|[ 1][0-9]| [JQK]) ")     # a row of the grid: its rank first


def board(tmp_path, text: str, size: tuple[int, int], line: str, ahead: str = "",
          name: str = "r.txt"):
    """The record ``text`` played at ``size`` from a file ``name``, ``line`` typed
    (``ahead``: the lines typed after it while it was checked): the rows above the prompt,
    and the message (the record named by its file name, as the screen names it)."""
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    s = Session(str(p))
    screen = Screen(s, colour=False, sheet=True, size=size)
    screen.ahead.typed = lambda: ahead
    o = checked(s, line)
    said = render_outcome(o, s, None, "Enter or y", fit=(size[0], 0)).replace(f"{p}:", f"{name}:")
    if o.kind == "refused":
        said += screen.ahead.held(line)
    screen.board(said)
    rows = screen.lines()
    cols, height = size
    assert len(rows) == height - 1 and all(len(r) <= cols for r in rows), rows
    return rows, said


def test_a_foot_too_tall_for_the_rows_scrolls_with_the_rest_not_cut():
    """A foot (the verdict) wrapped onto rows more than the rows leave is never cut to its
    last rows (its start dropped unsaid): it scrolls with the rest, no row split off."""
    sheet = ["head", "a", "b", "c", "verdict 1", "  verdict 2", "  verdict 3", "Next: Ben"]
    at = Layout(headings=((0, 1),), foot=3, wrapped=((4, 7),))
    rows, shown = scroll_sheet(sheet, 1, 5, 80, 0, at)
    assert "  verdict 3" not in rows or "verdict 1" in rows, rows
    assert rows[-1] == "Next: Ben" and shown is not None
    assert MARKER.match(rows[-2]) and rows[-2].startswith(f"rows 1-{shown[1]} of 7 "), rows


def test_a_contradiction_at_40x20_keeps_the_verdict_whole(tmp_path):
    """At 40x20 the contradiction's message takes the rows it needs short of the sheet's
    least: the verdict's every row (its first too), the row saying which rows are shown,
    whose turn."""
    rows, said = board(tmp_path, MH3, (40, 20), "Ben asks Ana 2C-5C: 0", name="mh3.txt")
    assert said.startswith("refused: ")
    at = next(i for i, r in enumerate(rows) if r.startswith("Verdict: "))
    assert rows[at] == "Verdict: not determined: 64,193", rows
    assert rows[at + 1].startswith("  candidates, likeliest p = "), rows
    assert rows[at + 2] == "  (see: sheet)", rows
    assert MARKER.match(rows[at - 1]), rows
    assert rows[-1] == "Next: Ben's turn.", rows
    shown = " ".join(r.strip() for r in rows)
    assert "line 5: Ana holds:" in shown and "'edit 5 <statement>'" in shown, rows


def test_lines_typed_ahead_after_a_contradiction_are_on_the_screen_at_80x24(tmp_path):
    """The note of lines not entered is the held line itself and how to bring it back,
    not only its heading: the grid gives way to them."""
    record = MH + ("Ana asks Cleo 8H-JH: 1\nBen asks Dev 2D-5D: 0\nCleo requests AS: Dev\n")
    rows, _ = board(tmp_path, record, (80, 24), "Dev asks Ana 2C-5C: 0",
                    ahead="Ana asks Ben 8S-JS: 1\n")
    assert "  1 more line typed or pasted ahead, not entered:" in rows, rows
    assert "    Ana asks Ben 8S-JS: 1" in rows and "  (Up brings it back)" in rows, rows
    assert not any(r.startswith("... ") for r in rows), rows
    assert "  if line 5 is the mistake: 'edit 5 <statement>'" in rows, rows
    assert any(r.startswith("Verdict: ") for r in rows) and rows[-1] == "Next: Dev's turn."


def test_a_held_claim_keeps_what_to_type_next_on_the_screen(tmp_path):
    """A held statement's message is a contradiction's refusal then what to type next: at
    80x24 and 60x20 what to type next stays whole on the screen, the sheet giving way."""
    for size in ((80, 24), (60, 20)):
        rows, said = board(tmp_path, LIT, size,
                           "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Eli 5H")
        assert said.startswith("held: "), said
        assert not any(r.startswith("... ") for r in rows), (size, rows)
        shown = " ".join(r.strip() for r in rows)
        assert "the 'shown' line comes next" in shown, (size, rows)
        assert said.split("\n")[-1].strip() in shown, (size, rows)
        assert rows[-1].startswith(">> ") or any(r.startswith("Next: ") for r in rows), rows


def test_a_correction_on_a_new_record_leaves_the_short_sheet_whole_at_80x24(tmp_path):
    """A typo on a new record (its hand not yet logged: one more note) at 80x24: the
    correction that Enter logs whole, and the grid, legend, verdict and notes all shown,
    not scrolled."""
    record = "game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
    rows, said = board(tmp_path, record, (80, 24),
                       "Ana hods: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC")
    assert "  did you mean: Ana holds: " in said
    assert not any(MARKER.match(r) for r in rows), rows
    assert sum(1 for r in rows if GRID.match(r)) == 13, rows
    at = next(i for i, r in enumerate(rows) if r.startswith("  did you mean: "))
    assert rows[at + 1] == "    log it)" and rows[0].startswith("refused: "), rows
    assert any(r.startswith("Verdict: not determined: ") for r in rows), rows
    assert rows[-2] == "Next: Ana's turn (yours)." and rows[-1].startswith("Missing: "), rows


SAMPLES = Path(__file__).resolve().parent.parent / "samples"
EXA = "".join((SAMPLES / "literature/ex-a-six-players.txt").read_text(
    encoding="utf-8").splitlines(keepends=True)[:13])
MH5 = "".join((SAMPLES / "mystery-hand/five-players-ana.txt").read_text(
    encoding="utf-8").splitlines(keepends=True)[:20])


def test_a_held_claim_at_40x20_keeps_what_to_type_next_over_an_alert(tmp_path):
    """At 40x20 a held claim's what to type next (one line wrapped onto 7 rows) is shown
    whole: the alert gives way to it, no row left blank beside a cut message."""
    rows, said = board(tmp_path, EXA, (40, 20),
                       "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Eli 5H")
    assert said.startswith("held: "), said
    assert not any(r.startswith("... ") for r in rows), rows
    shown = " ".join(r.strip() for r in rows)
    assert "saved as comment line 14 (# held:" in shown, rows
    assert "the 'shown' line comes next" in shown and "'undo' takes it back)" in shown, rows
    assert not any(r.startswith(">> ") for r in rows), rows
    assert rows[-1] == "Next: Ana's turn (yours).", rows


def test_a_contradiction_at_40x20_keeps_its_fix_over_an_alert(tmp_path):
    """At 40x20 a contradiction's fix ('force', 'edit N') is kept: the alert gives way."""
    rows, said = board(tmp_path, EXA, (40, 20), "Ana asks Ben 5H: yes")
    assert said.startswith("refused: "), said
    shown = " ".join(r.strip() for r in rows)
    assert "not saved; 'force' saves it anyway" in shown, rows
    assert "if line 9 or 12 is the mistake: 'edit" in shown, rows
    assert rows[-1] == "Next: Ana's turn (yours).", rows


def test_a_line_typed_ahead_is_never_shown_without_its_note_at_40x20(tmp_path):
    """Where the note of lines not entered is cut at 40x20, its lines go with it: no line
    typed ahead is shown bare (it would read as one entered); the fix stays."""
    rows, said = board(tmp_path, MH5, (40, 20), "Ana asks Dev 10*: 0",
                       ahead="Ana asks Eli 2H-5H: 1\nEli asks Ana 2D-5D: 0\n")
    assert "not entered:" in said, said
    shown = " ".join(r.strip() for r in rows)
    for held in ("Ana asks Eli 2H-5H: 1", "Eli asks Ana 2D-5D: 0"):
        assert held not in shown or "not entered:" in shown, rows
    assert "'edit 17 <statement>'" in shown, rows
    assert rows[-1] == "Next: Ana's turn (yours).", rows
