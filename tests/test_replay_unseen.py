"""``sleuth replay`` of a Literature record with unseen events: the '-' of its deal count
is the one docs/session.md documents, and a card listed as 'became certain' again was said
to be 'no longer certain' at a step between (step 14 of the lossy sample listed Ana's own
cards, certain since the deal, with no step saying they had stopped being certain)."""
from __future__ import annotations

from pathlib import Path

from cli.replay import lost_certainties, render_view
from solver.records import read_record
from solver.replay import replay

ROOT = Path(__file__).resolve().parent.parent
LOSSY = ROOT / "samples" / "literature" / "lossy-six-players.txt"


def test_a_card_certain_again_was_said_to_be_no_longer_certain():
    r = replay(read_record(str(LOSSY)), upto=15, detail=False)
    vr = next(iter(r.views.values()))
    lost = lost_certainties(vr)
    said: dict[str, str] = {}          # card -> where it was last said to be certain
    for s, gone in zip(vr.steps, lost):
        for c in gone:
            assert said.pop(c, None) == gone[c], (s.index, c)
        for c, where in s.new_certain.items():
            assert c not in said or said[c] != where, (s.index, c, "listed twice")
            said[c] = where
    # step 11, 'Dev: ?', may have taken Eli's 6S (certain since step 7); 'turn: Eli' at step 12
    # makes it certain again.  (Before commit 26596cc this was step 9, a 'Dev: ?' that could
    # take Ana's 5S; no 'Dev: ?' asks the recorder now.)
    assert lost[11] and "6S" in lost[11]
    assert "6S" in vr.steps[12].new_certain
    text = render_view(r, vr)
    assert "no longer certain: 6S Eli" in text
    step11 = next(ln for ln in text.split("\n") if ln.strip().startswith("11 "))
    assert step11.rstrip().endswith("-")


def test_the_doc_explains_the_dash_and_no_longer_certain():
    doc = (ROOT / "docs" / "session.md").read_text(encoding="utf-8")
    assert "the cell is\n`-`" in doc or "the cell is `-`" in doc
    assert "`no longer certain:`" in doc


def test_a_record_that_loses_no_certainty_has_no_such_column():
    r = replay(read_record(str(ROOT / "samples" / "literature" / "ex-a-six-players.txt")),
               upto=6, detail=False)
    vr = next(iter(r.views.values()))
    assert not any(lost_certainties(vr)) and "no longer certain" not in render_view(r, vr)
