"""``sleuth play`` after a refusal: the lines that came in behind a refused line (typed
ahead, or pasted by a terminal that does not bracket a paste) are held and said, not entered;
Literature's completion offers as the player asked only the asker's opponents (LIT-6(a)); a
contradiction on a screen of 80x24 or smaller keeps its sentence, the lines in conflict and
the fix, the sheet giving way."""
from __future__ import annotations

import subprocess
from pathlib import Path

from cli.session import (Screen, checked, fit_width, known_hands, legal_words,
                         render_outcome)
from solver.session import Session
from tests.test_play_audit import settled, sized, tmux  # noqa: F401 (a fixture)
from tests.test_play_tmux import prompt_ready

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

MP = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
      "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
      "Ana asks Ben 4H-7H: 4H 7H\n"
      "Ben asks Cleo 8D-JD: none\n")


# ----- 1. the lines behind a refused line -----------------------------------------------------
@tmux
def test_lines_pasted_without_brackets_after_a_refused_line_are_not_entered(tmp_path,
                                                                             sized):  # noqa: F811
    """A paste that the terminal does not bracket comes as keys typed ahead: the first line
    refused, the two after it were entered and saved all the same (Cleo's ask an unseen
    turn)."""
    p = tmp_path / "mp.txt"
    p.write_text(MP, encoding="utf-8")
    t = sized(p, 100, 30, "--no-hint")
    t.wait(settled("mp.txt: mystery-hand"), "the first screen")
    subprocess.run(["tmux", "-L", t.socket, "load-buffer", "-"], check=True, text=True,
                   input="Cleo aks Dev 8D-JD: none\nCleo: ?\nDev asks Ana 2C-5C: 2C 3C 4C "
                   "5C\nDev as")
    t._tmux("paste-buffer")                 # no -p: not bracketed
    rows = t.wait(lambda r: r[-1].startswith("sleuth>") and r[0].startswith("refused: ")
                  and any("not entered" in x for x in r), "the refusal")
    shown = "\n".join(rows)
    assert "did you mean: Cleo asks Dev 8D-JD: none" in shown
    assert "2 more lines typed or pasted ahead, not entered:" in shown
    assert "    Cleo: ?" in rows and "    Dev asks Ana 2C-5C: 2C 3C 4C 5C" in rows
    assert rows[-1] == "sleuth> Dev as"     # a last line not ended: the input, to edit
    assert p.read_text(encoding="utf-8") == MP
    # Up brings the refused line back first (to be put right), then a line held, to be
    # entered when the refused line is right
    t._tmux("send-keys", "C-u")
    t._tmux("send-keys", "Up")
    t.wait(lambda r: r[-1] == "sleuth> Cleo aks Dev 8D-JD: none", "the refused line back")
    t._tmux("send-keys", "Up")
    t.wait(lambda r: r[-1] == "sleuth> Dev asks Ana 2C-5C: 2C 3C 4C 5C", "the line back")
    assert p.read_text(encoding="utf-8") == MP


@tmux
def test_a_bracketed_paste_after_a_refused_line_is_still_said(tmp_path, sized):  # noqa: F811
    p = tmp_path / "mp.txt"
    p.write_text(MP, encoding="utf-8")
    t = sized(p, 100, 30, "--no-hint")
    t.wait(settled("mp.txt: mystery-hand"), "the first screen")
    subprocess.run(["tmux", "-L", t.socket, "load-buffer", "-"], check=True, text=True,
                   input="Cleo aks Dev 8D-JD: none\nCleo: ?\nDev asks Ana 2C-5C: 2C\n")
    t._tmux("paste-buffer", "-p")
    rows = t.wait(lambda r: prompt_ready(r) and r[0].startswith("refused: ")
                  and any("not entered" in x for x in r), "the refusal")
    assert "  2 more pasted lines not entered:" in rows and "    Cleo: ?" in rows
    assert p.read_text(encoding="utf-8") == MP


# ----- 2. whom Literature's asker may ask ------------------------------------------------------
def offered(s: Session, before: str) -> list[str]:
    return legal_words(s.vocabulary(), before, s.complete(before), known_hands(s))


def test_literature_offers_only_the_askers_opponents(tmp_path):
    p = tmp_path / "lit.txt"
    p.write_text((SAMPLES / "literature" / "ex-a-six-players.txt").read_text(encoding="utf-8"),
                 encoding="utf-8")
    s = Session(str(p))                     # teams Ana Cleo Eli / Ben Dev Fay
    assert offered(s, "Ana asks ") == ["Ben", "Dev", "Fay"]
    assert offered(s, "ana asks ") == ["Ben", "Dev", "Fay"]
    assert offered(s, "Ben asks ") == ["Ana", "Cleo", "Eli"]
    assert offered(s, "Ana asks C") == []
    assert offered(s, "whatif Eli asks ") == ["Ben", "Dev", "Fay"]
    assert offered(s, "force Dev asks ") == ["Ana", "Cleo", "Eli"]
    assert offered(s, "Ana challenges ") == ["Ben", "Dev", "Fay"]
    # a claim's hands name her team, herself included; a pass may go to either team
    assert {"Ana", "Cleo"} <= set(offered(s, "Ana claims 2H-7H: "))
    assert offered(s, "Ana passes turn to ") == ["Ben", "Cleo", "Dev", "Eli", "Fay"]


def test_other_games_still_offer_every_other_player(tmp_path):
    p = tmp_path / "mp.txt"
    p.write_text(MP, encoding="utf-8")
    s = Session(str(p))
    assert offered(s, "Cleo asks ") == ["Ana", "Ben", "Dev", "all"]
    assert offered(s, "Cleo requests KS: ")[:3] == ["Ana", "Ben", "Dev"]
    c = tmp_path / "four-players-ana.txt"
    c.write_text(next(SAMPLES.glob("*/four-players-ana.txt")).read_text(encoding="utf-8"),
                 encoding="utf-8")
    s = Session(str(c))
    players = list(s.record.header.players)
    first = players[0]
    shows = [w for w in offered(s, f"{first} ") if w in players]
    assert first not in shows


# ----- 3. a contradiction on a small screen (80x24 too) ------------------------------------------
MN = MP + ("Cleo asks Dev 2S-5S: 2S\nDev asks Ana 8S-JS: none\nAna asks Cleo 8H-JH: 9H\n"
           "Ben asks Dev AD-4D: AD\nCleo asks Ana 6S-9S: 6S\n")


def contradiction(tmp_path, size: tuple[int, int]) -> tuple[list[str], str]:
    p = tmp_path / "mn.txt"
    p.write_text(MN, encoding="utf-8")
    s = Session(str(p))
    screen = Screen(s, colour=False, sheet=True, size=size)
    o = checked(s, "Dev asks Ben 6H-9H: 6H")
    assert o.kind == "refused" and o.conflict
    text = render_outcome(o, s, None, "Enter or y").replace(f"{p}:", "mn.txt:")
    screen.board(text)
    rows = screen.lines()
    assert len(rows) == size[1] - 1 and all(len(r) <= size[0] for r in rows)
    return rows, text


def test_a_contradiction_on_a_narrow_screen_keeps_the_lines_and_the_fix(tmp_path):
    for size in ((60, 20), (40, 20), (60, 24), (80, 24)):
        rows, _ = contradiction(tmp_path, size)
        said = rows[:rows.index("")]
        shown = " ".join(r.strip() for r in said)
        assert said[0].startswith("refused: "), (size, rows)
        assert "line 6: Ana asks Ben 4H-7H: 4H 7H" in shown, (size, rows)
        assert "line 13: Dev asks Ben 6H-9H: 6H" in shown, (size, rows)
        assert "'force' saves it anyway" in shown, (size, rows)
        assert "'edit 6 <statement>'" in shown, (size, rows)
        assert "more line" not in shown or said[-1].startswith("... "), (size, rows)
        # the sheet gave way: whose turn still on its last row
        assert rows[-1] == "Next: Dev's turn.", (size, rows)


def test_a_contradiction_cut_says_how_many_lines_went_on_its_last_row(tmp_path):
    """A contradiction followed by lines typed ahead, held (:class:`cli.session.Ahead`), at
    40x20: the lines held are what goes after the note that they were not entered (at
    60x20 they are shown, the sheet giving way), and the last row says how many."""
    p = tmp_path / "mn.txt"
    p.write_text(MN, encoding="utf-8")
    s = Session(str(p))
    screen = Screen(s, colour=False, sheet=True, size=(40, 20))
    screen.ahead.typed = lambda: "Ana asks Ben 8C-JC: 8C\nBen asks Cleo 2D-5D: none\n"
    o = checked(s, "Dev asks Ben 6H-9H: 6H")
    text = render_outcome(o, s, None, "Enter or y").replace(f"{p}:", "mn.txt:")
    screen.board(text + screen.ahead.held())
    rows = screen.lines()
    said = rows[:next(i for i, r in enumerate(rows) if not r or "\u2660" in r)]
    assert said[-1] == "... 4 more lines ('history' shows them)", rows
    shown = " ".join(r.strip() for r in said)
    assert "line 13: Dev asks Ben 6H-9H: 6H" in shown and "'edit 6 <statement>'" in shown
    assert "2 more lines typed or pasted ahead, not entered:" in shown
    assert rows[-1] == "Next: Dev's turn."


@tmux
def test_a_contradiction_in_tmux_at_60x20(tmp_path, sized):  # noqa: F811
    p = tmp_path / "mn.txt"
    p.write_text(MN, encoding="utf-8")
    t = sized(p, 60, 20, "--no-hint")
    t.wait(settled("mn.txt: mystery-hand"), "the first screen")
    t._tmux("send-keys", "-l", "Dev asks Ben 6H-9H: 6H")
    t._tmux("send-keys", "Enter")
    rows = t.wait(lambda r: prompt_ready(r) and r[0].startswith("refused: ")
                  and not any("(working out" in x for x in r), "the refusal")
    shown = " ".join(r.strip() for r in rows)
    assert "line 6: Ana asks Ben 4H-7H: 4H 7H" in shown
    assert "'force' saves it anyway" in shown and "'edit 6 <statement>'" in shown
    assert rows[-2] == "Next: Dev's turn."


def test_a_contradiction_at_80x24_scrolls_the_sheet_and_a_tall_screen_shows_it_whole(
        tmp_path):
    """At 80x24 the fix ('edit 6') was cut to make room for the whole grid; now the grid
    scrolls (the sheet before the refused line).  A taller screen has room for both."""
    rows, _ = contradiction(tmp_path, (80, 24))
    assert "  if line 6 is the mistake: 'edit 6 <statement>'" in rows, rows
    assert "    line 6: Ana asks Ben 4H-7H: 4H 7H" in rows
    assert any(r.startswith("rows 1-") and "PgDn" in r for r in rows), rows
    assert rows[-2].startswith("Verdict: ") and rows[-1] == "Next: Dev's turn."
    rows, text = contradiction(tmp_path, (100, 40))
    wrapped = fit_width(text, 100).split("\n")   # the message whole, the sheet whole below
    assert rows[:len(wrapped)] == wrapped, rows
    assert not any(r.startswith("rows ") for r in rows), rows
    assert "  if line 6 is the mistake: 'edit 6 <statement>'" in rows


def test_another_refusal_of_many_lines_at_80x24_keeps_its_lines_held(tmp_path):
    """A refusal with no lines in conflict and lines typed ahead behind it: its sentence, the
    fix and the lines held stay whole at 80x24; the sheet scrolls."""
    p = tmp_path / "mn.txt"
    p.write_text(MN, encoding="utf-8")
    s = Session(str(p))
    screen = Screen(s, colour=False, sheet=True, size=(80, 24))
    screen.ahead.typed = lambda: ("Ana asks Ben 8C-JC: 8C\nBen asks Cleo 2D-5D: none\n"
                                  "Cleo asks Dev 2H-5H: none\n")
    o = checked(s, "Dev asks Ben 6H-9H: 6H 7H 8H 9H 10H")
    assert o.kind == "refused" and not o.conflict
    text = render_outcome(o, s, None, "Enter or y").replace(f"{p}:", "mn.txt:")
    screen.board(text + screen.ahead.held())
    rows = screen.lines()
    said = rows[:rows.index("")]
    assert said[0].startswith("refused: ") and not any("more lines ('history'" in r
                                                       for r in said), rows
    assert "  3 more lines typed or pasted ahead, not entered:" in said, rows
    assert "    Cleo asks Dev 2H-5H: none" in said and "  (Up brings them back)" in said
    assert rows[-1] == "Next: Dev's turn."


@tmux
def test_a_mystery_hand_contradiction_in_tmux_at_80x24(tmp_path, sized):  # noqa: F811
    """At the standard 80x24 terminal the lines in conflict and the 'edit' fix are on the
    screen; the grid scrolls below them (PgDn its other rows), the message staying."""
    p = tmp_path / "mn.txt"
    p.write_text(MN, encoding="utf-8")
    t = sized(p, 80, 24, "--no-hint")
    t.wait(settled("mn.txt: mystery-hand"), "the first screen")
    t._tmux("send-keys", "-l", "Dev asks Ben 6H-9H: 6H")
    t._tmux("send-keys", "Enter")
    rows = t.wait(lambda r: prompt_ready(r) and r[0].startswith("refused: ")
                  and not any("(working out" in x for x in r), "the refusal")
    assert len(rows) == 24 and all(len(r) <= 80 for r in rows), rows
    assert "    line 6: Ana asks Ben 4H-7H: 4H 7H" in rows, rows
    assert "    line 13: Dev asks Ben 6H-9H: 6H  <- this statement" in rows, rows
    assert "  if line 6 is the mistake: 'edit 6 <statement>'" in rows, rows
    assert any("'force' saves it anyway" in r for r in rows), rows
    assert any(r.startswith("rows 1-") for r in rows) and rows[-2] == "Next: Dev's turn."
    t._tmux("send-keys", "PgDn")
    rows = t.wait(lambda r: prompt_ready(r) and any(r_.split()[:1] == ["K"] for r_ in r),
                  "the grid's last rows")
    assert "  if line 6 is the mistake: 'edit 6 <statement>'" in rows, rows
    assert p.read_text(encoding="utf-8") == MN
