"""``sleuth play`` in a real terminal (tmux): a refusal's correction, which Enter logs, is on
the screen whenever Enter would log it -- kept whole when a long refusal is cut to fit
beside the sheet, and Enter on a page (``history``) brings the sheet back instead of
logging a correction the page hid."""
from __future__ import annotations

import pytest

from tests.test_play_audit import Sized, settled, tmux
from tests.test_play_tmux import prompt_ready

MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n")
TYPO = "Ana hlds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"
FIXED = "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"


def shown(rows: list[str]) -> str:
    """The screen's rows as one text, wrapped rows joined (their indent dropped)."""
    return " ".join(r.strip() for r in rows)


@tmux
@pytest.mark.parametrize("cols, height", [(80, 24), (40, 20)])
def test_a_cut_refusal_keeps_its_correction_whole(tmp_path, cols, height):
    path = tmp_path / "g.txt"
    path.write_text(MH, encoding="utf-8")
    t = Sized(path, cols, height, "--no-hint")
    try:
        t.wait(settled("g.txt: "), "the first screen")
        rows = t.type(TYPO, lambda r: prompt_ready(r) and any(
            x.startswith("refused: ") for x in r), "the refusal")
        assert any(r.startswith("... ") and "more line" in r for r in rows), rows   # cut
        assert f"did you mean: {FIXED}" in shown(rows), rows
        assert "(Enter or y: log it)" in shown(rows), rows
        assert path.read_text(encoding="utf-8") == MH
        t.type("", lambda r: prompt_ready(r) and any(x.startswith("saved line 5") for x in r),
               "Enter: the correction seen is logged")
        assert path.read_text(encoding="utf-8").endswith(FIXED + "\n")
    finally:
        t.close()


@tmux
def test_enter_on_the_history_page_goes_back_without_logging(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(MH, encoding="utf-8")
    t = Sized(path, 80, 24, "--no-hint")
    try:
        t.wait(settled("g.txt: "), "the first screen")
        t.type(TYPO, lambda r: prompt_ready(r) and any(x.startswith("refused: ") for x in r),
               "the refusal")
        t.type("history", lambda r: prompt_ready(r) and any(
            "(Enter: back to the sheet)" in x for x in r), "history")
        rows = t.type("", lambda r: prompt_ready(r) and not any(
            "(Enter: back to the sheet)" in x for x in r), "Enter: back")
        assert path.read_text(encoding="utf-8") == MH, rows          # nothing logged
        assert f"did you mean: {FIXED}" in shown(rows), rows          # the board again
        t.type("", lambda r: prompt_ready(r) and any(x.startswith("saved line 5") for x in r),
               "Enter on the board: the correction logged")
        assert path.read_text(encoding="utf-8").endswith(FIXED + "\n")
    finally:
        t.close()


@tmux
def test_after_a_page_the_board_drops_a_used_up_correction(tmp_path):
    """A refusal with a correction, then 'whatif ...' (a page; the line uses the correction
    up): Enter brings the sheet back with the refusal but without its '(Enter or y: log
    it)', which no longer holds, and another Enter logs nothing."""
    path = tmp_path / "g.txt"
    path.write_text(MH, encoding="utf-8")
    t = Sized(path, 80, 24, "--no-hint")
    try:
        t.wait(settled("g.txt: "), "the first screen")
        t.type(TYPO, lambda r: prompt_ready(r) and any(x.startswith("refused: ") for x in r),
               "the refusal")
        t.type("whatif " + FIXED, lambda r: prompt_ready(r) and any(
            "(Enter: back to the sheet)" in x for x in r), "the what-if page")
        rows = t.type("", lambda r: prompt_ready(r) and not any(
            "(Enter: back to the sheet)" in x for x in r), "Enter: back")
        assert any(x.startswith("refused: ") for x in rows), rows
        assert "log it)" not in shown(rows), rows
        t.type("", prompt_ready, "Enter on the board")
        assert path.read_text(encoding="utf-8") == MH
    finally:
        t.close()
