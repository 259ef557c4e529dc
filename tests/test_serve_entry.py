"""What the page's tap entry offers comes from the engine's state (web/live.py)."""
from __future__ import annotations

import pytest

from solver.games import get_game
from solver.records import parse_record, write_record
from solver.session import Session


def test_ask_all_rows_leave_out_a_player_who_is_out(tmp_path):
    """After a wrong announcement (MH-20) the player is no longer asked: the page's count
    rows are the players still in."""
    pytest.importorskip("starlette")
    from web.live import entry_data

    rec = get_game("mystery-hand").simulate(8, [], 3, None)
    rec = parse_record(write_record(rec))
    cut = next(s.line for s in rec.statements if "announces" in s.text and "wrong" in s.text)
    text = "\n".join(write_record(rec).splitlines()[:cut]) + "\n"
    path = tmp_path / "g.txt"
    path.write_text(text)
    out = entry_data(Session(str(path)))
    assert "Ben" in out["names"] and "Ben" not in out["active"]
    assert len(out["active"]) == 7
