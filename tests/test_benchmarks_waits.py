"""Smoke tests of issue 45's benchmark (benchmarks.waits): its records, its memory
measurement of a process tree, its worker, its verdicts and the report's section (no timing
assertions; the older build needs a git worktree, so both sides run this checkout here)."""
from __future__ import annotations

import json
import sys

from benchmarks import report, waits


def test_whole_games_are_eight_player_games_of_the_stated_length():
    games = waits.whole_games(1, 100, 1)
    labels = [g for g, _, _ in games]
    assert labels == ["MH 8p", "Lit 8p"]
    for lab, _, rec in games:
        assert len(rec.header.players) == 8
        n = len(rec.statements)
        assert 80 <= n <= 110 if lab == "MH 8p" else n == 100


def test_lossy_records_keep_at_most_twenty_gaps_and_turns_are_the_recorders():
    (seed, rec), = waits.lossy_games("literature", 8, 1, 0.2, 1)
    assert seed == 1
    assert 0 < sum("?" in st.text for st in rec.statements) <= 20
    turns = waits.turn_states(rec, 4)
    assert 0 < len(turns) <= 4
    assert all(waits._mover(rec.statements[n]) == rec.header.me for n in turns)


def test_peak_memory_counts_the_workers_of_a_command(tmp_path):
    """Two processes holding 60 MB each: the tree's peak is their sum, the largest one's
    about half of it."""
    code = ("import multiprocessing as mp, time\n"
            "def hold():\n    b = bytearray(60 * 2**20); time.sleep(1.0)\n"
            "if __name__ == '__main__':\n"
            "    p = mp.Process(target=hold); p.start(); hold(); p.join()\n")
    script = tmp_path / "hold.py"
    script.write_text(code)
    r = waits.run_command([sys.executable, str(script)], {}, str(tmp_path), 60)
    assert r["rc"] == 0 and r["wall"] >= 1.0
    assert r["peak_mb"] >= 120 > r["single_mb"] >= 60


def test_worker_answers_suggest_and_analysis(tmp_path):
    (_, rec), = waits.lossy_games("literature", 4, 1, 0.2, 1)
    path = waits.write(str(tmp_path), "lit", rec)
    n = waits.turn_states(rec, 1)[0]
    w = waits.start_worker(waits.ROOT)
    try:
        s = waits.ask(w, {"kind": "suggest", "path": path, "view": "me", "n": n})
        a = waits.ask(w, {"kind": "analyze", "path": path, "view": "me", "n": n})
    finally:
        w.stdin.close()
        w.wait()
    assert "failed" not in s and s["actions"] > 0 and s["wall"] >= 0
    assert "failed" not in a and 0 <= a["error"] < 1


def _row(wall, peak, cfg="MH 4p", kind="suggest"):
    side = {"rc": 0, "wall": wall, "cpu": wall, "peak_mb": peak, "single_mb": peak}
    return {"kind": kind, "config": cfg, "n": 3, "base": dict(side, wall=2 * wall),
            "now": side}


def test_verdicts_say_by_how_much_a_target_is_missed(tmp_path):
    whole = [dict(_row(12.0, 300.0), record="MH 8p seed 1", statements=90,
                  command="review")]
    states = [_row(0.5, 0), _row(3.0, 0, "Lit 8p lossy")]
    data = waits.summary(whole, states, "5a59b0d")
    by = {t["key"]: t for t in data["targets"]}
    assert by["whole-game"]["verdict"] == "missed: time 1.2x the target"
    assert by["suggest"]["verdict"] == "missed: p95 3.0x the target (CPU p95 3.0x the target)"
    assert "worst configuration Lit 8p lossy" in by["suggest"]["measured"]
    met = waits.summary([dict(whole[0], now=dict(whole[0]["now"], wall=4.0))],
                        [_row(0.5, 0)], "5a59b0d")
    assert [t["verdict"] for t in met["targets"]] == ["met", "met"]


def test_report_shows_the_recorded_waits_run(tmp_path):
    whole = [dict(_row(12.0, 500.0), record="MH 8p seed 1", statements=90,
                  command="replay --as public")]
    data = {"base": "5a59b0d", "commit": "abc1234", "date": "2026-01-01 00:00 UTC",
            "seconds": 60.0, "load": "1 1 1", "args": {"seed": 1}, "whole": whole,
            "states": [_row(0.5, 0)],
            "profile": {"command": "sleuth replay x", "seconds": 9.0,
                        "top": [{"function": "f.py:1(g)", "own": 5.0, "cumulative": 8.0}]}}
    data.update(waits.summary(data["whole"], data["states"], "5a59b0d"))
    (tmp_path / "targets.json").write_text(
        (report.RESULTS / "targets.json").read_text(encoding="utf-8"))
    (tmp_path / "waits.json").write_text(json.dumps(data))
    text = report.render(tmp_path)
    assert "side by side with `5a59b0d`" in text
    assert "missed: time 1.2x the target, memory 1.2x the target" in text
    assert "| `f.py:1(g)` | 5.0 s | 8.0 s |" in text
    assert "`replay --as public`" in text


def test_profile_of_the_slowest_command_names_the_counting(tmp_path):
    """--profile: this checkout's slowest command (by CPU) profiled in one process, its
    functions with the most time of their own (a file of the counting package among them)."""
    import shutil

    path = tmp_path / "seen.txt"
    shutil.copy(waits.ROOT + "/samples/mystery-hand/two-player-seen.txt", path)
    rows = [{"record": "seen", "command": "replay --as public", "path": str(path),
             "now": {"cpu": 2.0}},
            {"record": "other", "command": "review", "path": "missing", "now": {"cpu": 1.0}}]
    prof = waits.profile_slowest(rows, top=40)
    assert prof is not None and prof["command"].startswith("sleuth replay --as public (seen")
    assert prof["seconds"] > 0 and len(prof["top"]) == 40
    assert any("solver/model/counting/" in t["function"] for t in prof["top"])
