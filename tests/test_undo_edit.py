"""``undo`` just after ``delete N`` or ``edit N`` undoes that change: a line deleted by
mistake (one tap on a page's Delete) is put back where it was, an edited line is as it was.
It used to remove the last statement instead, another line, and the deleted one could not
be got back. ``redo`` does the change again."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from solver.session import Session

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "mystery-hand" / "five-players-ana.txt"


@pytest.fixture
def record(tmp_path) -> Path:
    path = tmp_path / "mh.txt"
    shutil.copy(SAMPLE, path)
    return path


def line_of(path: Path, start: str) -> int:
    return next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if ln.startswith(start))


@pytest.mark.parametrize("change, said, redone", [
    ("delete {n}", "undo: put back line {n}: {old}", "redo: deleted line {n} again: {old}"),
    ("edit {n} faceup: AC 3C 6H", "undo: line {n} is again: {old}",
     "redo: line {n} is again: faceup: AC 3C 6H"),
])
def test_undo_after_a_delete_or_an_edit_undoes_it(record, change, said, redone):
    from web.live import outcome

    original = record.read_text(encoding="utf-8")
    n = line_of(record, "faceup:")
    old = original.splitlines()[n - 1].split("#")[0].strip()
    s = Session(str(record))
    assert s.handle(change.format(n=n)).kind in ("deleted", "edited")
    changed = record.read_text(encoding="utf-8")
    assert changed != original
    o = s.handle("undo")
    assert o.kind == "undone"
    assert record.read_text(encoding="utf-8") == original       # the comment too
    assert outcome(o, s)["status"] == said.format(n=n, old=old)
    o = s.handle("redo")
    assert o.kind == "redone" and record.read_text(encoding="utf-8") == changed
    assert outcome(o, s)["status"] == redone.format(n=n, old=old)
    # done again, undone again; then undo removes the last statement, as ever
    last = original.splitlines()[-1].split("#")[0].strip()
    o = s.handle("undo")
    assert outcome(o, s)["status"] == said.format(n=n, old=old)
    assert record.read_text(encoding="utf-8") == original
    o = s.handle("undo")
    assert o.kind == "undone" and outcome(o, s)["status"].startswith("undo: removed line")
    assert last in outcome(o, s)["status"]


def test_undo_after_a_delete_and_a_statement_removes_the_statement(record):
    n = line_of(record, "faceup:")
    s = Session(str(record))
    assert s.handle(f"delete {n}").kind == "deleted"
    assert s.handle("turn: Eli").kind in ("accepted", "refused")
    assert s.last_edit is None                                    # the statement was saved
    o = s.handle("undo")
    assert [t for _, t in o.removed] == ["turn: Eli"]
    assert "faceup:" not in record.read_text(encoding="utf-8")  # the delete stays done


def test_undo_after_another_writer_changed_the_record_does_not_undo_the_delete(record):
    from solver.session import appended

    n = line_of(record, "faceup:")
    s = Session(str(record))
    assert s.handle(f"delete {n}").kind == "deleted"
    record.write_text(appended(record.read_text(encoding="utf-8"), "# a note"),
                      encoding="utf-8")
    o = s.handle("undo")
    assert o.kind in ("undone", "refused") and o.undid != "delete"


def test_play_says_the_undo_of_a_delete_in_one_line(record):
    """play printed the kind it undid ("delete") as a line of its own before the undo."""
    import subprocess
    import sys

    n = line_of(record, "faceup:")
    r = subprocess.run([sys.executable, "-m", "cli.main", "play", str(record), "--no-sheet"],
                       input=f"delete {n}\nundo\n", capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    out = [ln.strip() for ln in r.stdout.splitlines()]
    assert f"undo: put back line {n}: faceup: 6H AC 3C" in out, r.stdout
    assert "delete" not in out and "edit" not in out, r.stdout


def test_undo_takes_back_a_held_claim_and_edit_keeps_it(tmp_path):
    """A wrong claim held for its shown line: undo used to drop it unsaid and remove an
    earlier saved line; edit N dropped it unsaid. Undo takes back the claim (its ``# held:``
    comment line, the last change; redo puts it back); edit leaves it held, and its shown
    line then saves both."""
    src = ROOT / "samples" / "literature" / "ex-a-six-players.txt"
    path = tmp_path / "lit.txt"
    shutil.copy(src, path)
    before = path.read_text(encoding="utf-8")
    claim = "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Eli 5H"
    shown = "shown 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H"
    s = Session(str(path))
    assert s.handle(claim).kind == "pending"
    held = path.read_text(encoding="utf-8")
    n = len(held.splitlines())
    assert held.splitlines()[-1] == f"# held: {claim}"
    o = s.handle("undo")
    assert o.kind == "undone" and o.undid == "held"
    assert path.read_text(encoding="utf-8") == before
    from web.live import outcome

    assert outcome(o, s)["status"] == \
        f"undo: took back the held statement (the comment line {n}): {claim}"
    o = s.handle("redo")
    assert o.kind == "redone" and path.read_text(encoding="utf-8") == held
    assert outcome(o, s)["status"] == f"redo: put back the held statement as line {n}: {claim}"
    assert s.handle("undo").kind == "undone" and path.read_text(encoding="utf-8") == before
    assert s.handle(claim).kind == "pending"
    assert s.handle("edit 10 Ana asks Ben 10S: no   # x").kind == "edited"
    assert path.read_text(encoding="utf-8").splitlines()[-1] == f"# held: {claim}"
    assert s.handle(shown).kind == "accepted"
    assert path.read_text(encoding="utf-8").splitlines()[-2:] == [claim, shown]
