"""Smoke tests of the issue-3 benchmarks: the baselines agree with exact counting on small
states, and a tiny run of each benchmark script goes through (no timing assertions)."""
from __future__ import annotations

import math

import pytest

from benchmarks import calibration, run
from benchmarks.baselines import enumerate_deals, max_error, rejection_sample
from solver.model import CardLocationModel
from solver.model.counting import exact_count


def small_model():
    m = CardLocationModel(list(range(10)), {"A": 3, "B": 3, "C": 4})
    m.add([0, 1, 2], ["A"], 2, 2, source=1)
    m.exclude(3, "B", source=2)
    m.add([4, 5, 6, 7], ["C"], 1, 2, source=3)
    m.place(8, "A", source=4)
    return m


def test_enumeration_equals_exact_count():
    m = small_model()
    ref = exact_count(m, exact_ints=True)
    e = enumerate_deals(m, time_limit=20)
    assert e.finished and e.count == ref.total > 1
    assert max_error(e.marginals, ref.marginals, m.cards, m.locations) < 1e-12
    c = enumerate_deals(m, time_limit=20, marginals=False)
    assert c.finished and c.count == ref.total and c.marginals == {}


def test_enumeration_on_a_tight_game_state():
    """A late state of a simulated 3-player Mystery Hand game (the recorder's view)."""
    from solver.mystery_hand.inference import as_written_by, build
    from solver.mystery_hand.simulate import simulate

    rec = simulate(3, [], 1)
    w = as_written_by(rec, rec.header.me)
    m = build(w.prefix(len(w.statements) - 6), rec.header.me).model
    ref = exact_count(m)
    assert 1 < ref.total <= 5000
    e = enumerate_deals(m, time_limit=30)
    assert e.finished and e.count == ref.total
    assert max_error(e.marginals, ref.marginals, m.cards, m.locations) < 1e-9


def test_rejection_sampling_gives_probabilities():
    m = small_model()
    ref = exact_count(m)
    r = rejection_sample(m, 0.2, rng=5)
    assert r.drawn >= r.accepted > 100
    for c in m.cards:
        ps = r.marginals[c]
        assert all(0.0 <= p <= 1.0 for p in ps.values())
        assert math.isclose(sum(ps.values()), 1.0)
        assert set(ps) <= set(ref.marginals[c])      # accepted deals are consistent
    assert r.marginals[8] == {"A": 1.0}
    assert max_error(r.marginals, ref.marginals, m.cards, m.locations) < 0.1


def test_rejection_sampling_without_accepted_deals_returns_the_prior():
    m = CardLocationModel(list(range(6)), {"A": 3, "B": 3})
    m.add([0, 1, 2], ["A"], 3, 3, source=1)           # one deal out of 20
    m.add([0], ["B"], 1, 1, source=2)                 # ... and then none at all
    r = rejection_sample(m, 0.05, rng=1)
    assert r.accepted == 0 and r.drawn > 0
    assert r.marginals[0] == {"B": 1.0}
    assert math.isclose(sum(r.marginals[3].values()), 1.0)


def test_tiny_benchmark_run_recorded_and_reported(capsys, tmp_path):
    """A run records what it printed in --results DIR/run.json, and --report renders the
    report from that folder: the targets' table and the run's own figures."""
    import json
    import shutil

    from benchmarks import report

    run.main(["--quick", "--only", "MH 2p two-player=seen", "--no-cli", "--stride", "40",
              "--views", "me", "--enum-budget", "2", "--results", str(tmp_path)])
    out = capsys.readouterr().out
    assert "## Latency per statement" in out and "MH 2p two-player=seen" in out
    assert "exact on 100.0 %" in out
    recorded = json.loads((tmp_path / "run.json").read_text())
    assert recorded["commit"] and recorded["date"]
    assert "\n".join(recorded["markdown"]).strip() == out.strip()
    shutil.copy(report.RESULTS / "targets.json", tmp_path)
    run.main(["--report", "--results", str(tmp_path), "--output", str(tmp_path / "b.md")])
    text = (tmp_path / "b.md").read_text()
    assert "### Latency per statement" in text and "MH 2p two-player=seen" in text
    assert f"at commit `{recorded['commit']}`" in text
    targets = json.loads((report.RESULTS / "targets.json").read_text())["targets"]
    for t in targets:
        assert t["target"].replace("|", "\\|") in text and t["commit"] in text


def test_literature_error_measures_against_every_course(capsys, tmp_path):
    """The Literature-with-gaps benchmark counts every course for its reference, and the
    figures exact now equal it; the forced chain's error is measured against it; the
    report renders the recorded run."""
    import json

    from benchmarks import literature_error, report

    literature_error.main(["--quick", "--record", str(tmp_path)])
    out = capsys.readouterr().out
    import re

    rows = re.findall(r"^\| 4 \| (\d+) \| [^|]+ \| (now|chain forced) \| (\d+)/(\d+) \|", out, re.M)
    assert [(r[1], r[2] == r[3] == r[0]) for r in rows] == [("now", True), ("chain forced", False)]
    assert "largest difference from the reference: 0.0e+00" in out
    recorded = json.loads((tmp_path / "literature-error.json").read_text())
    assert "\n".join(recorded["markdown"]).strip() == out.strip()
    text = "\n".join(report.literature_error_section(tmp_path))
    assert "against exact figures" in text and recorded["commit"] in text


def test_docs_benchmarks_is_the_report_of_the_recorded_results():
    """docs/benchmarks.md is generated: ``python -m benchmarks.run --report`` after a change
    to benchmarks/results/."""
    from benchmarks import report

    assert report.REPORT.read_text(encoding="utf-8") == report.render(), \
        "regenerate docs/benchmarks.md: python -m benchmarks.run --report"


def test_calibration_one_game():
    preds, room, top, info = calibration.one_game(2, 0)
    assert len(preds) == 52
    for name, p, poss, truth in preds:
        assert truth in poss and p.get(truth, 0.0) > 0     # the truth is never excluded
        assert math.isclose(sum(p.values()), 1.0, abs_tol=1e-9)
        assert set(p) <= poss
    assert calibration.brier({"A": 1.0}, "A", ["A", "B"]) == 0.0
    assert calibration.brier({"A": 0.5, "B": 0.5}, "A", ["A", "B"]) == pytest.approx(0.5)


def test_versus_writes_states_the_reader_accepts_and_runs_this_checkout(tmp_path):
    """benchmarks.versus: the mid-game record files parse, and its runner analyses one with
    this checkout's code (the 525edbf side needs a git worktree: not in the tests)."""

    from benchmarks import versus
    from solver.records import read_record

    rows = versus.states(1, [6], 0, str(tmp_path))
    assert [v for _, v, _ in rows] == ["me", "public"]
    for _, view, path in rows:
        rec = read_record(path)
        assert rec.game == "mystery-hand" and len(rec.statements) == 6
        assert (rec.header.me is None) == (view == "public")
    cmd, env = versus.runner(versus.ROOT)
    p, wall, cpu = versus.timed_run(cmd + ["analyze", rows[0][2], "--json"], env, versus.ROOT)
    assert p.returncode == 0, p.stderr
    assert '"game": "mystery-hand"' in p.stdout and wall > 0 and cpu >= 0


def test_replay_benchmark_finds_the_hardest_prefix(tmp_path):
    """benchmarks.replay: its records are as the view wrote them, cut to the asked length,
    and the hardest prefix is one of them (timed in this process)."""
    from benchmarks import replay

    rows = replay.records(1, 6, ["me"], 0)
    assert len(rows) == 1
    label, v, who, rec = rows[0]
    assert v == "me" and who == rec.header.me and len(rec.statements) == 6
    k, cpu = replay.hardest(rec, who)
    assert 1 <= k <= 6 and cpu >= 0


def test_twenty_two_benchmark_measures_decision_states():
    """benchmarks.twenty_two on a small table: the states where Ana has a risk to show,
    each with its CPU time and the widest error bar of its estimated risks."""
    from benchmarks import twenty_two

    rows = twenty_two.measure((), 3, players=3, limit=40)
    assert rows and all(r["cpu"] >= 0 and 0 <= r["error"] < 1 for r in rows)
    assert all(r["error"] == 0 for r in rows if r["exact"])


def test_interleaved_worker_times_each_game():
    """benchmarks.interleaved: its job lists cover the three games, and a worker on this
    checkout answers one small state of each (the --base side needs a git worktree)."""
    from benchmarks import interleaved

    todo = interleaved.jobs(["lit", "tt", "mh"], 50)
    assert {j["game"] for j in todo} == {"lit", "tt", "mh"}
    picks = [next(j for j in todo if j["game"] == g) for g in ("lit", "tt", "mh")]
    w = interleaved.start(interleaved.ROOT)
    try:
        for job in picks:
            out = interleaved.ask(w, job)
            assert out["cpu"] >= 0, (job, out)
            assert interleaved.label(job)
            # what each game reports beside the time
            assert ("error" in out) if job["game"] == "tt" else isinstance(out["exact"], bool)
    finally:
        w.stdin.close()
        w.wait()


def test_startup_benchmark_runs_every_command_both_ways():
    """benchmarks.startup: every command it times succeeds (a failing one would stop it),
    installed and from a copy without bytecode, each beside the bare import."""
    from benchmarks import startup

    rows = startup.measure(1, cold=True)
    assert [r["setting"] for r in rows] == ["installed"] * len(startup.COMMANDS) + \
        ["uncompiled"] * len(startup.COMMANDS)
    assert all(r["median"] > 0 and r["bare_median"] > 0 and r["ratio"] > 0 for r in rows)
