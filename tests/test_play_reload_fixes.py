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
    s.keep_held()
    assert "# held: " + CLAIM in path.read_text(encoding="utf-8")
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
