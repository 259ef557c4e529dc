"""sleuth review: a question that gave away as many bits as it learned, within the review's
tolerance (the one for scores: 0.01 or 5 %), is not called a mistake."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from solver.records import read_record


def _mistakes_of(game: str, path: str, view: str, monkeypatch):
    """The game's review's ``mistakes_of`` and the statement of the view's first turn (the
    turns themselves are not analysed)."""
    import solver.advice as sa

    seen = {}

    def review_turns(game_, record, view_, turns, suggest, taken_text, mistakes_of):
        seen.update(record=record, turns=turns, mistakes_of=mistakes_of)

    monkeypatch.setattr(sa, "review_turns", review_turns)
    module = __import__(f"solver.{game.replace('-', '_')}.advise", fromlist=["review"])
    module.review(read_record(path), view)
    first = seen["record"].statements[seen["turns"][0]]
    return seen["mistakes_of"], first


@pytest.mark.parametrize("game,path,view,question", [
    ("mystery-hand", "samples/mystery-hand/seven-players.txt", "Ana", 1),
    ("literature", "samples/literature/ex-a-six-players.txt", "Ana", 0),
])
def test_a_leak_as_large_as_the_information_is_not_a_mistake(game, path, view, question,
                                                             monkeypatch):
    mistakes_of, s = _mistakes_of(game, path, view, monkeypatch)
    if question:        # the sample's first turn is a request: a question all the same
        assert "asks" in str(s.event) or "requests" in str(s.event)
    adv = SimpleNamespace(summary={})

    def said(leak, info):
        return mistakes_of(SimpleNamespace(leak_bits=leak, info_bits=info, more={}), adv, s)

    assert said(0.0514, 0.0508) == []           # seven-players line 79: 0.051 and 0.051
    assert said(0.108, 0.100) == []             # within 0.01 bits
    assert said(1.04, 1.0) == []                # within 5 % of what it told the asker
    assert any("told the table more" in m for m in said(0.0684, 0.0))
    assert any("told the table more" in m for m in said(0.402, 0.366))


def test_told_more_is_the_scores_tolerance():
    from solver.advice import NEAR_ABS, NEAR_REL, told_more
    from web.review import NEAR_ABS as PAGE_ABS, NEAR_REL as PAGE_REL

    assert (NEAR_ABS, NEAR_REL) == (PAGE_ABS, PAGE_REL) == (0.01, 0.05)
    assert not told_more(0.0514, 0.0508) and told_more(0.0684, 0.0)
    assert not told_more(1.04, 1.0) and told_more(1.06, 1.0)
