"""``sleuth play`` after another writer changed the record: the advisor's hint worked out
again with the sheet, a held claim resolved by ``sleuth log`` no "lost lines", a refused
pasted line in the prompt's history, a held claim's message in the shape of a
contradiction, and a contradiction's refusal citing its line and column."""
from __future__ import annotations

import shutil
from pathlib import Path

from solver.session import Session, log_statement

ROOT = Path(__file__).resolve().parent.parent
MH = "game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
HOLDS = "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"
CLAIM = "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Eli 5H"
SHOWN = "shown 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H"


def literature(tmp_path) -> Path:
    path = tmp_path / "l2.txt"
    shutil.copy(ROOT / "samples/literature/ex-a-six-players.txt", path)
    return path


def test_a_held_claim_resolved_by_log_is_no_line_lost(tmp_path):
    path = literature(tmp_path)
    s = Session(str(path))
    assert s.handle(CLAIM).kind == "pending"
    assert "# held: " + CLAIM in path.read_text(encoding="utf-8")     # at once
    s = Session(str(path))                  # play again: the claim held on its comment line
    log_statement(str(path), SHOWN)         # another shell resolves it
    o = s.handle("Ana asks Ben 10S: no")
    assert o.reloaded
    assert "lost lines" not in str(o.error), o.error
    text = path.read_text(encoding="utf-8")
    assert CLAIM in text and SHOWN in text and "# held:" not in text


def test_lines_an_editor_removed_are_still_lost_lines(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text(MH + HOLDS + "\n# a note\n", encoding="utf-8")
    s = Session(str(path))
    path.write_text(MH + HOLDS + "\n", encoding="utf-8")
    o = s.handle("Ana asks Ben 8S-JS: none")
    assert o.kind == "refused" and "lost lines" in str(o.error)


def screen_after(path: Path, lines: list[str], between=None) -> list[str]:
    """The rows of ``play``'s screen (80x24, the hint on) after ``lines``; ``between``
    runs after the first board is worked out (another writer's change)."""
    from cli.session import Screen, _on_screen

    screen = Screen(Session(str(path)), colour=False, sheet=True, size=(80, 24))
    screen.hinting = True
    screen.stage(None)
    screen.settle(cancel=False)
    before = screen.lines()
    if between is not None:
        between(before)
    _on_screen(screen, lines, "Enter or y", True)
    screen.settle(cancel=False)
    return screen.lines()


def test_the_hint_after_a_reload_is_the_record_reloaded(tmp_path):
    path = tmp_path / "m2.txt"
    path.write_text(MH + HOLDS + "\n", encoding="utf-8")

    def ben_asked(rows):
        assert "Next: Ana's turn (yours)." in rows, rows
        assert any(r.startswith("advisor: Ana ") for r in rows), rows
        log_statement(str(path), "Ana asks Ben 8S-JS: none")

    rows = screen_after(path, ["xyz"], ben_asked)
    assert any("(reloaded m2.txt: it changed on disk)" in r for r in rows), rows
    assert "Next: Ben's turn." in rows, rows
    assert not any(r.startswith("advisor:") for r in rows), rows     # not Ana's turn


def test_the_hint_after_a_reload_on_the_views_turn_is_worked_out_again(tmp_path):
    path = tmp_path / "m3.txt"
    path.write_text(MH + HOLDS + "\n", encoding="utf-8")
    hints = []

    def turn_back(rows):
        hints.append(next(r for r in rows if r.startswith("advisor: ")))
        for line in ("Ana asks Ben 8S-JS: none", "Ben requests 6S: Ana",
                     "Cleo requests 5H: Ana", "Dev requests 2C: Ana"):
            log_statement(str(path), line)

    rows = screen_after(path, ["xyz"], turn_back)
    assert "Next: Ana's turn (yours)." in rows, rows
    now = [r for r in rows if r.startswith("advisor: ")]
    assert now and now != hints, (now, hints)


def test_a_refused_pasted_line_comes_back_first_with_up(tmp_path):
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cli.session import Ahead, _interactive_lines

    path = tmp_path / "m.txt"
    path.write_text(MH + HOLDS + "\n", encoding="utf-8")
    ahead = Ahead()
    refused = "Cleo asks Ben 4H-7H: none"
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        lines = _interactive_lines(Session(str(path)), False, None, ahead)
        inp.send_text(f"\x1b[200~Ben: ?\n{refused}\nDev: ?\n\x1b[201~")
        assert next(lines) == "Ben: ?"              # saved
        assert next(lines) == refused               # refused: the line after it held
        said = ahead.held(refused)
        assert "Dev: ?" in said and not ahead.pasted
        inp.send_text("\x1b[A\r")
        assert next(lines) == refused               # Up: the refused line first
        inp.send_text("\x1b[A\x1b[A\r")
        assert next(lines) == "Dev: ?"              # then the line held
        lines.close()


def test_a_held_claim_says_why_and_lists_its_lines_once(tmp_path):
    from cli.session import render_outcome

    path = literature(tmp_path)
    s = Session(str(path))
    o = s.handle(CLAIM)
    said = render_outcome(o, s, False)
    head = said.split("\n")[0]
    assert head.startswith("held: ") and "these 2 statements cannot all be true: " in head
    assert o.error.reason and o.error.reason in head, head      # the game's sentence
    assert said.count("Cleo asks Ben 3H: no") == 1, said        # the lines, once
    assert said.count(CLAIM) == 1, said
    assert "  the statements that conflict:" in said


def test_a_contradiction_cites_the_line_it_would_have_been(tmp_path):
    from cli.session import render_outcome

    path = tmp_path / "mh.txt"
    path.write_text(MH + HOLDS + "\nAna asks Ben 4H-7H: 4H 7H\n", encoding="utf-8")
    s = Session(str(path))
    o = s.handle("Ben asks Ana 4H-7H: none")
    assert o.kind == "refused" and o.conflict
    assert render_outcome(o, s, False).startswith(f"refused: {path}:7:1: these 2 statements")
    o = s.handle("whatif   Ben asks Ana 4H-7H: none")
    assert f"{path}:7:1: " in render_outcome(o, s, False)
    o = Session(str(literature(tmp_path))).handle(CLAIM)
    assert o.kind == "pending" and (o.error.line, o.error.column) == (14, 1)
