"""Commands that take nothing after them refuse trailing words ('undo 5' is not 'undo'),
and a player name of a long run of non-ASCII letters is matched one way only."""
import re

import pytest

from solver.records import NAME, parse_record, write_record
from solver.session import Session


@pytest.fixture
def session(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
                    "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
                    "Ana asks Ben 4H-7H: 4H 7H\n")
    return Session(str(path)), path


@pytest.mark.parametrize("typed", ["undo 5", "redo 2", "sheet now"])
def test_trailing_words_refused_and_nothing_changed(session, typed):
    s, path = session
    before = path.read_bytes()
    out = s.handle(typed)
    assert out.kind == "refused"
    assert "takes nothing after it" in str(out.error)
    assert typed in str(out.error)
    assert path.read_bytes() == before


def test_plain_undo_still_undoes(session):
    s, path = session
    assert s.handle("undo").kind == "undone"
    assert "Ana asks Ben" not in path.read_text()


def test_name_characters_match_one_way_only():
    """NAME's two kinds of character are disjoint: a failed match of a run of non-ASCII
    letters cannot backtrack through every split of it (it took minutes for 30 letters)."""
    alts = re.fullmatch(r"\(\?:(.*)\|(.*)\)\+", NAME)
    assert alts
    a, b = (re.compile(x) for x in alts.groups())
    both = [c for c in map(chr, range(0x3000)) if a.fullmatch(c) and b.fullmatch(c)]
    assert both == []


def test_names_of_any_script_still_parse():
    rec = parse_record("game: mystery-hand\nplayers: Ана Βασίλης 李明 José\ndealer: José\n"
                       "me: Ана\nАна holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n")
    assert "李明" in write_record(rec)
