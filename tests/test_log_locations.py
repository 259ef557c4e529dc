"""Every refusal of ``sleuth log`` names file:line:column (record-format.md: an error
"names the file, line and column"), those of an empty statement, a comment alone and a
header line included: the line is the one the statement would have been."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli

RECORD = "game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"


@pytest.mark.parametrize("statement, where", [
    ("  ", "g.txt:5:1:"),
    ("# just a comment", "g.txt:5:1:"),
    ("   # indented comment", "g.txt:5:4:"),
    ("me: Ana", "g.txt:5:"),
    ("variant: sneak", "g.txt:5:"),
])
def test_log_refusals_name_the_line_and_column(tmp_path, monkeypatch, statement, where):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.txt").write_text(RECORD)
    r = CliRunner().invoke(cli, ["log", "g.txt", statement])
    assert r.exit_code == 2, r.output
    assert where in r.output, r.output
    assert (tmp_path / "g.txt").read_text() == RECORD


def test_edit_to_a_comment_alone_names_the_line(tmp_path):
    from solver.errors import NotationError
    from solver.session import edited

    text = RECORD + "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
    with pytest.raises(NotationError) as e:
        edited(text, 5, "# nothing", "g.txt")
    assert str(e.value).startswith("g.txt:5:1:"), str(e.value)


def test_edit_into_a_contradiction_names_the_line_and_column(tmp_path):
    """``edit N`` in play that would make the record inconsistent is cited at line N and
    the statement's column, as ``log`` cites the line a contradiction would have taken."""
    from solver.session import Session

    text = (RECORD + "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
            "Ana asks Ben 4H-7H: 4H 7H\nBen asks all 6*: Ana 1, Cleo 1, Dev 2\n")
    path = tmp_path / "g.txt"
    path.write_text(text)
    out = Session(str(path)).edit("7", "  Ben asks all 6*: Ana 0, Cleo 1, Dev 2")
    assert out.kind == "refused" and out.conflict, out
    assert str(out.error).startswith(f"{path}:7:3: no deal fits"), str(out.error)
    assert path.read_text() == text
