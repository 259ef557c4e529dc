"""The staged analysis (solver.staged): the certainties first, then the figures, for every
registered game; what stage 1 shows is always certain, and complete when it says so."""
from __future__ import annotations

import threading
import time

import pytest

from solver.games import Capability, games, get_game
from solver.model.budget import Cancelled, TimeUp, within
from solver.staged import Certainties, analyze_staged, certainties


def record_of(game, seed: int = 3):
    n = sorted(game.player_counts)[len(game.player_counts) // 2]
    if game.lossy:
        rec = game.simulate(n, (), seed, miss=0.2)
    else:
        rec = game.simulate(n, (), seed)
    return rec.prefix(max(1, len(rec.statements) // 2))


def analysed_certain(game, record, view) -> dict[str, str]:
    return dict(game.knowledge(record, view).certain)


@pytest.mark.parametrize("name", [g.name for g in games(Capability.ANALYZE)])
def test_stage_one_is_the_analysis_certainties(name):
    """Given its time, stage 1 has exactly the certainties of the whole analysis."""
    game = get_game(name)
    rec = record_of(game)
    for view in dict.fromkeys([rec.header.me, None]):
        c = certainties(game, rec, view, seconds=60)
        assert isinstance(c, Certainties) and c.complete
        assert dict(c.certain) == analysed_certain(game, rec, view), (name, view)
        assert c.notes == tuple(game.table_notes(rec, view, None))


@pytest.mark.slow
@pytest.mark.parametrize("players,seed", [(4, 1), (6, 2), (8, 3)])
def test_literatures_stage_one_with_unseen_events_is_complete(players, seed):
    """With '?' lines Literature's stage 1 proves only the places every history agrees on
    (HistoryModel.settle, no place ruled out): given its time, exactly the certainties of
    the whole analysis (its complete backbone), from the recorder's view and the public."""
    from solver.literature.engine import cut_points

    game = get_game("literature")
    rec = game.simulate(players, (), seed, miss=0.2)
    cuts = [c for c in cut_points(rec)[1:] if any("?" in st.text
                                                   for st in rec.prefix(c).statements)]
    assert cuts
    for cut in cuts[::max(1, len(cuts) // 3)]:
        p = rec.prefix(cut)
        for view in (p.header.me, None):
            c = certainties(game, p, view, seconds=600)
            assert c.complete
            assert dict(c.certain) == analysed_certain(game, p, view), (cut, view)


@pytest.mark.parametrize("name", ["mystery-hand", "literature"])
def test_stage_one_cut_short_says_only_what_is_certain(name):
    """Out of its own time, stage 1 still says only certainties, and says it is partial."""
    game = get_game(name)
    rec = record_of(game, seed=5)
    view = rec.header.me
    full = analysed_certain(game, rec, view)
    c = certainties(game, rec, view, seconds=0)
    assert not c.complete
    for card, where in c.certain:
        assert full[card] == where


def test_the_mystery_hands_announcement_is_a_certainty():
    """Once the four cards of the mystery hand are certain, stage 1 says the announcement
    is safe, as the analysis's verdict does."""
    game = get_game("mystery-hand")
    rec = game.simulate(4, (), 2)
    view = rec.header.me
    for n in range(len(rec.statements), 0, -1):
        k = game.knowledge(rec.prefix(n), view)
        if "announce" in k.safe:
            c = certainties(game, rec.prefix(n), view, seconds=60)
            assert dict(c.safe) == {"announce": " ".join(k.safe["announce"])}
            assert any(a.startswith("Safe now: announce") for a in c.alerts)
            break
    else:
        pytest.skip("the simulated game never determined the mystery hand")
    first = next(i for i in range(1, len(rec.statements) + 1)
                 if "announce" in game.knowledge(rec.prefix(i), view).safe)
    assert not certainties(game, rec.prefix(first - 1), view, seconds=60).safe


def test_staged_gives_the_certainties_then_the_analysis():
    game = get_game("mystery-hand")
    rec = record_of(game)
    stages = list(analyze_staged(game, rec, rec.header.me))
    assert isinstance(stages[0], Certainties)
    j = stages[0].to_json()
    assert j["stage"] == "certainties" and j["certain"] == dict(stages[0].certain)
    assert j["complete"] is stages[0].complete and hash(stages[0]) == hash(stages[0])
    a = stages[1]
    assert a.to_json()["game"] == "mystery-hand"
    for card, where in stages[0].certain:
        assert a.certain(card) == where


def test_a_cancel_of_the_analysis_is_not_taken_for_the_stages_own_time():
    """A cancelled analysis stops stage 1 with Cancelled (never a partial answer)."""
    game = get_game("literature")
    rec = record_of(game, seed=5)
    with within(60) as d:
        assert d is not None
        d.cancel()
        with pytest.raises(Cancelled):
            certainties(game, rec, rec.header.me, seconds=60)


def test_a_cancel_from_another_thread_stops_stage_one(monkeypatch):
    """A lossy 8-player Literature record (stage 1: CP-SAT over the unseen courses): a
    cancel from another thread, made while stage 1 is at its first search, stops it with
    Cancelled, long before it would end.  (The search is held until the cancel is made, so
    a quick machine cannot finish first; that a cancel stops a search already running in
    CP-SAT is tests/test_staged_cancel.py's.)"""
    from solver.literature import history

    game = get_game("literature")
    rec = game.simulate(8, (), 1, miss=0.2)
    rec = rec.prefix(80)
    out: dict = {}
    started, searching, cancelled = threading.Event(), threading.Event(), threading.Event()
    real = history._solve

    def held(*args, **kwargs):
        searching.set()
        assert cancelled.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(history, "_solve", held)

    def run():
        with within(120) as d:
            out["d"] = d
            started.set()
            t0 = time.monotonic()
            try:
                out["c"] = certainties(game, rec, rec.header.me, seconds=100)
            except TimeUp as e:
                out["e"] = e
            out["seconds"] = time.monotonic() - t0

    t = threading.Thread(target=run)
    t.start()
    assert started.wait(10)
    assert searching.wait(60)
    out["d"].cancel()
    cancelled.set()
    t.join(60)
    assert not t.is_alive()
    assert isinstance(out.get("e"), Cancelled), out.get("c")
    assert out["seconds"] < 5.0                 # a sanity bound, not a measurement


def test_the_benchmark_reports_each_game(capsys):
    """benchmarks/staged.py runs and reports a row per game asked for, with its verdict."""
    from benchmarks import staged

    staged.main(["--seeds", "1", "--cuts", "1", "--only", "hand", "mysterium"])
    out = capsys.readouterr().out
    rows = [ln for ln in out.splitlines() if ln.startswith("| hand") or
            ln.startswith("| mysterium")]
    assert len(rows) == 2
    assert all(r.rstrip(" |").endswith("met") or "missed" in r for r in rows)


def test_the_benchmark_runs_statement_by_statement_and_records(capsys, tmp_path):
    """``--sequence`` times every state of a record in order (one row per game), and
    ``--record DIR`` keeps the printed table for the report."""
    import json

    from benchmarks import staged

    staged.main(["--seeds", "1", "--only", "hand", "--sequence", "--record", str(tmp_path)])
    out = capsys.readouterr().out
    row = next(ln for ln in out.splitlines() if ln.startswith("| hand"))
    states = int(row.split("|")[2])
    game = get_game("hand")
    recs = [game.simulate(n, (), 0) for n in game.player_counts if 3 <= n <= 8]
    # every prefix, from the recorder's view (where the record names one) and the public
    assert states == sum(len(r.statements) * (2 if r.header.me else 1) for r in recs)
    kept = json.loads((tmp_path / "staged-sequence.json").read_text())
    assert row in kept["markdown"]


def test_the_deals_and_cp_sat_find_what_the_count_finds(monkeypatch):
    """Where the small count does not fit, the solver-free deals and CP-SAT's backbone give
    the same certainties as the count does."""
    from solver import staged
    from solver.mystery_hand.inference import build

    game = get_game("mystery-hand")
    rec = record_of(game, seed=4)
    for view in (rec.header.me, None):
        vm = build(rec, view)
        counted = staged.model_certain(vm, skip=("Jk",))
        monkeypatch.setattr(staged, "COUNT_STATES", 1)      # the count gives up at once
        searched = staged.model_certain(build(rec, view), skip=("Jk",))
        monkeypatch.undo()
        assert searched == counted and counted == analysed_certain(game, rec, view)
