"""``sleuth play`` in a real terminal (tmux): a refusal's correction, which Enter logs, is on
the screen whenever Enter would log it -- kept whole when a long refusal is cut to fit
beside the sheet, and Enter on a page (``history``) brings the sheet back instead of
logging a correction the page hid."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.test_play_audit import Sized, settled, tmux
from tests.test_play_tmux import prompt_ready

MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n")
TYPO = "Ana hlds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"
FIXED = "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"


def shown(rows: list[str]) -> str:
    """The screen's rows as one text, wrapped rows joined (their indent dropped)."""
    return " ".join(r.strip() for r in rows)


@contextmanager
def refused(tmp_path, cols: int = 80, height: int = 24):
    """``play`` in tmux on a new Mystery Hand record, a typo refused with its correction:
    the record's path, the terminal and the screen after the refusal."""
    path = tmp_path / "g.txt"
    path.write_text(MH, encoding="utf-8")
    t = Sized(path, cols, height, "--no-hint")
    try:
        t.wait(settled("g.txt: "), "the first screen")
        rows = t.type(TYPO, lambda r: prompt_ready(r) and any(
            x.startswith("refused: ") for x in r), "the refusal")
        yield path, t, rows
    finally:
        t.close()


def page_then_back(t, line: str) -> list[str]:
    """``line`` (a page), then Enter: the screen back from the page."""
    t.type(line, lambda r: prompt_ready(r) and any(
        "(Enter: back to the sheet)" in x for x in r), line)
    return t.type("", lambda r: prompt_ready(r) and not any(
        "(Enter: back to the sheet)" in x for x in r), "Enter: back")


def logged_on_enter(t, path) -> None:
    t.type("", lambda r: prompt_ready(r) and any(x.startswith("saved line 5") for x in r),
           "Enter: the correction logged")
    assert path.read_text(encoding="utf-8").endswith(FIXED + "\n")


@tmux
@pytest.mark.parametrize("cols, height", [(80, 24), (40, 20)])
def test_a_cut_refusal_keeps_its_correction_whole(tmp_path, cols, height):
    with refused(tmp_path, cols, height) as (path, t, rows):
        assert any(r.startswith("... ") and "more line" in r for r in rows), rows   # cut
        assert f"did you mean: {FIXED}" in shown(rows), rows
        assert "(Enter or y: log it)" in shown(rows), rows
        assert path.read_text(encoding="utf-8") == MH
        logged_on_enter(t, path)


@tmux
def test_enter_on_the_history_page_goes_back_without_logging(tmp_path):
    with refused(tmp_path) as (path, t, _):
        rows = page_then_back(t, "history")
        assert path.read_text(encoding="utf-8") == MH, rows          # nothing logged
        assert f"did you mean: {FIXED}" in shown(rows), rows          # the board again
        logged_on_enter(t, path)


@tmux
def test_after_a_page_the_board_drops_a_used_up_correction(tmp_path):
    """A refusal with a correction, then 'whatif ...' (a page; the line uses the correction
    up): Enter brings the sheet back with the refusal but without its '(Enter or y: log
    it)', which no longer holds, and another Enter logs nothing."""
    with refused(tmp_path) as (path, t, _):
        rows = page_then_back(t, "whatif " + FIXED)
        assert any(x.startswith("refused: ") for x in rows), rows
        assert "log it)" not in shown(rows), rows
        t.type("", prompt_ready, "Enter on the board")
        assert path.read_text(encoding="utf-8") == MH
