"""A kept Literature history model is reused only by a record whose statements stand on the
same lines: its tables are keyed by line, and a record whose lines moved (a comment line
added above them) crashed on reuse (TypeError in HistoryModel.course)."""
from __future__ import annotations

from pathlib import Path

from solver.games import get_game
from solver.literature import history
from solver.records import parse_record

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "literature" / \
    "lossy-six-players.txt"


def test_a_record_with_moved_lines_does_not_reuse_a_kept_model():
    g = get_game("literature")
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    head = next(i for i, ln in enumerate(lines) if ln and not ln.startswith("#")
                and ":" not in ln.split()[0] and not ln.startswith(("game", "players", "me")))
    unseen = [i for i, ln in enumerate(lines) if i > head and "?" in ln.split("#")[0]]
    cut = unseen[1] + 1                      # the record up to its second unseen line
    history.forget()
    try:
        shifted = lines[:head] + ["# a note that moves every statement down a line"] + \
            lines[head:cut - 1]
        r1 = parse_record("\n".join(shifted) + "\n")
        r2 = parse_record("\n".join(lines[:cut]) + "\n")
        assert [st.event for st in r1.statements] == [st.event for st in r2.statements][:-1]
        g.analyze(r1, r1.header.me)
        a2 = g.analyze(r2, r2.header.me)      # extends r1's events, on other lines
        history.forget()
        assert a2.to_json() == g.analyze(r2, r2.header.me).to_json()
    finally:
        history.forget()
