"""The Clue review scores every accusation as made (100 x (2 p_right - 1)); a wrong one
while the case file was determined is a mistake (CL-8, CL-9)."""
from __future__ import annotations

from solver.clue.advise import review
from solver.clue.simulate import simulate
from solver.records import parse_record, write_record
from tests.helpers import SMALL_CLUE

def test_a_wrong_accusation_while_the_case_file_was_known_is_scored_and_a_mistake():
    text = write_record(simulate(4, [], 3))
    lines = text.splitlines()
    assert lines[32] == "Ana accuses Plum Rope Ballroom: wrong"
    rv = review(parse_record("\n".join(lines[:33]) + "\n"), "Ana")
    t = rv.turns[-1]
    assert t.line == 33 and t.taken == "Ana accuses Plum Rope Ballroom"
    assert t.best == "Ana accuses Mustard Rope Study" and t.best_score == 100
    assert t.taken_score == -100          # 100 x (2 p - 1), p = 0
    assert len(t.mistakes) == 1 and "determined (Mustard Rope Study)" in t.mistakes[0]
    assert "CL-8" in t.mistakes[0] and "CL-9" in t.mistakes[0]


def test_a_guess_of_another_case_file_is_scored_with_its_own_chance():
    rec = parse_record(SMALL_CLUE + "Ana accuses Maid Rope Garden: wrong\n")
    t = review(rec, "Ana").turns[1]
    assert t.taken_score is not None and t.taken_score < 0
    assert t.mistakes and "not determined" in t.mistakes[0] and "p = " in t.mistakes[0]
    rec = parse_record(SMALL_CLUE + "Ana accuses Maid Poison Garden: wrong\n")   # Poison is Cleo's
    t = review(rec, "Ana").turns[1]
    assert t.taken_score == -100 and "an impossible case file" in t.mistakes[0]
