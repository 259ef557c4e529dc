"""serve answers in order of cost: the quick live part carries stage 1 of the analysis (the
certainties and alerts, solver.staged), the full one the figures; a change saving a new
version cancels the analysis of the old one, its CP-SAT searches included."""
from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from solver.games import get_game  # noqa: E402
from solver.records import read_text, text_version, write_record  # noqa: E402
from web.app import Engine  # noqa: E402
from web.live import first_stage, live  # noqa: E402
from web.review import environment  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MH = ROOT / "samples" / "mystery-hand" / "five-players-ana.txt"
TOKEN = "t0k3n-for-the-tests"


def test_the_quick_part_carries_the_certainties(tmp_path):
    path = tmp_path / "game.txt"
    shutil.copy(MH, path)
    engine = Engine(str(path))
    html = engine.live_html(environment(), None, TOKEN, quick=True)
    version = text_version(read_text(str(path)))
    first = engine.firsts[version]
    assert first.certain        # (complete or cut short: the first one pays the imports)
    assert 'data-pending="yes"' in html                 # the figures follow
    assert "Certain so far:" in html
    card, where = first.certain[0]
    assert f"{card}: " in html
    data = live(engine.session, quick=True, first=first)
    assert data["stage"] == "certainties" and data["certain"] == dict(first.certain)
    assert data["certain_complete"] is first.complete and data["pending"]
    full = live(engine.session)
    assert full["stage"] == "figures" and not full["pending"]
    a = engine.session.analyze()
    for c, w in first.certain:                          # stage 1 never says more
        assert a.certain(c) == w


def test_stage_one_of_an_inconsistent_record_says_why(tmp_path, monkeypatch):
    """No deal fits: stage 1 is the conflict's sentence the page shows, not a sheet."""
    from solver.errors import InconsistentError

    path = tmp_path / "game.txt"
    shutil.copy(MH, path)
    engine = Engine(str(path))
    game = engine.session.game

    def clash(record, view):
        raise InconsistentError("no deal fits the record; these statements conflict: "
                                "line 7: x; line 9: y", conflict=[7, 9])

    monkeypatch.setattr(game, "certainties", clash)
    got = first_stage(engine.session)
    assert isinstance(got, str) and got.startswith("inconsistent:") and "line 9" in got
    data = live(engine.session, quick=True, first=got)
    assert data["error"] == got and not data["pending"] and data["stage"] == "none"


def test_a_new_version_cancels_the_analysis_of_the_old_one(tmp_path):
    """A lossy 8-player Literature record whose analysis takes many seconds: an undo (a
    new version) stops it at once, CP-SAT's search included."""
    game = get_game("literature")
    rec = game.simulate(8, (), 1, miss=0.2).prefix(80)
    path = tmp_path / "lossy.txt"
    path.write_text(write_record(rec), encoding="utf-8")
    engine = Engine(str(path))
    out: dict = {}

    def full():
        t0 = time.monotonic()
        out["html"] = engine.live_html(environment(), None, TOKEN)
        out["seconds"] = time.monotonic() - t0

    t = threading.Thread(target=full)
    t.start()
    end = time.monotonic() + 30
    while engine.running is None and time.monotonic() < end:
        time.sleep(0.01)
    assert engine.running is not None
    time.sleep(0.5)                                     # well into its search
    d = engine.act("undo", engine.version())
    assert d["kind"] == "undone"
    t.join(60)
    assert not t.is_alive()
    assert out["seconds"] < 10.0                        # a sanity bound, not a measurement
    assert "was stopped" in out["html"]
