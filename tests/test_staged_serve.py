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
    assert 'aria-label="Sheet (provisional)"' in html   # stage 1 drawn in the grid
    card, where = first.certain[0]
    assert f'aria-label="{card}: ' in html
    data = live(engine.session, quick=True, first=first)
    assert data["stage"] == "certainties" and data["certain"] == dict(first.certain)
    assert data["certain_complete"] is first.complete and data["pending"]
    full = live(engine.session)
    assert full["stage"] == "figures" and not full["pending"]
    a = engine.session.analyze()
    for c, w in first.certain:                          # stage 1 never says more
        assert a.certain(c) == w


def cells_by_card(sheet: dict) -> dict[str, list[dict]]:
    rows = sheet["rows"] if sheet["kind"] == "grid" else sheet["halves"]
    out: dict[str, list[dict]] = {}
    for row in rows:
        for c in row["cells"]:
            out.setdefault(c["card"], []).append(c)
    return out


@pytest.mark.parametrize("sample", [MH, ROOT / "samples" / "clue" / "four-players-ana.txt",
                                    ROOT / "samples" / "literature" / "ex-a-six-players.txt"])
def test_stage_one_draws_the_games_sheet_with_working_cells(tmp_path, sample):
    """The quick part's sheet is the game's own sheet: a card certain in stage 1 has the
    cells of the full sheet (the same wording: "4H: Ben"), every other card "working"."""
    from solver.session import Session
    from solver.staged import Certainties

    path = tmp_path / sample.name
    shutil.copy(sample, path)
    session = Session(str(path))
    first = first_stage(session)
    assert first.certain
    kept = Certainties(first.game, first.view, first.certain[::2], complete=False)
    quick = live(session, quick=True, first=kept)
    assert quick["sheet"]["provisional"] and quick["stage"] == "certainties"
    full = live(session)
    assert full["stage"] == "figures" and not full["sheet"].get("provisional")
    got, want = cells_by_card(quick["sheet"]), cells_by_card(full["sheet"])
    assert got.keys() == want.keys()
    certain = dict(kept.certain)
    for card, cells in got.items():
        if card in certain:
            assert cells == want[card], card
        else:
            assert {(c["text"], c["label"], c["kind"]) for c in cells} == {
                ("working", f"{card}: working", "working")}, card
    assert len(certain) < len(got)


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
