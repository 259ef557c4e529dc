"""On a terminal narrower than 80 columns, ``suggest`` inside ``play`` is written for the
screen's width: wrapped once (it was wrapped at 80 by the advice, then again at the screen's
60 columns, into ragged fragments), on its page and in ``history``."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli.session import Screen, checked, columns, fit_width, render_outcome
from solver.session import Session

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def session(tmp_path):
    rec = tmp_path / "game.txt"
    shutil.copy(ROOT / "samples" / "mystery-hand" / "five-players-ana.txt", rec)
    return Session(str(rec))


@pytest.mark.parametrize("cols", [60, 50])
def test_suggest_on_a_narrow_screen_is_wrapped_once(session, cols):
    screen = Screen(session, False, True, size=(cols, 24))
    o = checked(session, "suggest 3")
    text = render_outcome(o, session, "compact", fit=screen.size())
    lines = text.split("\n")
    assert max(columns(ln) for ln in lines) <= cols, text
    assert fit_width(text, cols) == text            # nothing left to wrap again
    assert any(ln.lstrip().startswith("most likely answers:") for ln in lines)
    screen.typed("suggest 3")
    screen.page(text)
    screen.typed("history 100")
    screen.history("100")
    shown = screen.paged.split("\n")
    assert shown[2:2 + len(lines)] == lines         # after the heading and 'sleuth> ...'


def test_suggest_piped_keeps_its_80_columns(session):
    o = checked(session, "suggest 3")
    lines = render_outcome(o, session, False).split("\n")
    assert 60 < max(columns(ln) for ln in lines) <= 79
