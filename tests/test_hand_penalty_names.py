"""Hand's scoresheet: a name that is no player among the penalties is said to be no
player, at its column. It was "a penalty is the card points ... (HR-38): 'Ben 30 Zed 4'",
quoting text (its comma gone) that is not in the line and blaming Ben's penalty."""
from __future__ import annotations

import pytest

from solver.errors import NotationError
from solver.records import parse_record
from tests.serve_harness import ROOT

SAMPLE = (ROOT / "samples" / "hand" / "house-rules.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("penalties, name", [
    ("Ana 12, Ben 30, Zed 4, Eli 2", "Zed"),
    ("Ana 12, Ben 30, Dev 4, Zed 2", "Zed"),
])
def test_an_unknown_name_among_the_penalties_is_no_player(penalties, name):
    line = f"round 5: Cleo out partial; {penalties}"
    text = SAMPLE.replace("round 5: Cleo out partial; Ana 12, Ben 30, Dev 4, Eli 2", line)
    assert line in text
    with pytest.raises(NotationError) as e:
        parse_record(text)
    assert "not a player of this record" in e.value.message and e.value.text == name
    assert e.value.column == line.index(name) + 1
