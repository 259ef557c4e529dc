"""A tiny run of benchmarks/clue.py goes through: every state exact, the notebook
baseline's count of case files equal to ours (the script asserts it), the enumeration's
marginals equal to ours where it finishes (no timing assertions)."""
from __future__ import annotations

import re

from benchmarks import clue


def test_tiny_clue_benchmark(capsys):
    clue.main(["--records", "1", "--upto", "8", "--stride", "4", "--enum-states", "2",
               "--enum-limit", "5"])
    out = capsys.readouterr().out
    assert "| 8 suggestions (target) | both | 2/2 |" in out
    assert "| every prefix | both | 4/4 |" in out
    m = re.search(r"largest difference from our marginals ([0-9.e+-]+)", out)
    assert m is None or float(m.group(1)) < 1e-9


def test_tiny_clue_advisor_simulation():
    """benchmarks/clue_advisor.py plays whole games to a winner under every seat policy at
    both tables, paired by seed (the same deal), and summarises them."""
    from benchmarks import clue_advisor as ca

    rows = [ca.play(3, 2, p, t, samples=60) for t in ca.TABLES for p in ca.POLICIES]
    for r in rows:
        assert r["winner"] in ("Ana", "Ben", "Cleo") and r["won"] == (r["winner"] == "Ana")
        assert r["seat_turns"] >= 1 and r["statements"] >= r["seat_turns"]
    table = ca.Table(3, 2)
    assert table.case == ca.Table(3, 2).case and len(table.case) == 3
    text = ca.summarise(rows)
    assert "a table of `greedy` players" in text and "| 3 | 1 (2-2) |" in text
