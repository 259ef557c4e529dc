"""Literature's text sheet with estimated figures: each holder's chance in whole percents
(``<1%``, ``>99%``), as wide as the estimate's error allows. A possible place no sampled
course had was printed ``JC: Ana 99.9999999999% Ben 1e-10%``: digits that look like a
sentinel, not an estimate. A chain that saw too few courses for an error bar (its error
0.5) says so in words, not as "95% within ±0.500"."""
from __future__ import annotations

import re

from tests.serve_harness import sleuth

RECORD = """game: literature
players: Ana Ben Cleo Dev Eli Fay
dealer: Ana
me: Ana
Ana holds: 2H 3H 4H 6H 9S JC QD KD
Ana asks Ben 9C: no
Ben asks Cleo 10S: no
Cleo asks Dev 5H: yes
Cleo claims 2H-7H: Ana 2H 3H 4H 6H, Cleo 5H 7H
Ben has 8 cards
Cleo asks Ben ?: no
Ben: ?
turn: Ben
Ben: ?
"""


def test_estimated_holders_are_whole_percents(tmp_path):
    path = tmp_path / "lit.txt"
    path.write_text(RECORD, encoding="utf-8")
    out = sleuth("analyze", str(path)).stdout
    assert "Probabilities are estimates (rough: too few courses sampled for an error bar);" \
        in out
    assert "±0.500" not in out
    assert max(len(ln) for ln in out.splitlines()) <= 80
    holders = [ln for ln in out.splitlines() if re.match(r"\s+[0-9JQKA]+[SHDC](, \S+)*: ", ln)]
    assert holders
    for ln in holders:
        for figure in re.findall(r" (\S+%)", ln):
            assert re.fullmatch(r"<1%|>99%|\d{1,2}%", figure), ln
