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
