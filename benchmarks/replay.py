"""Replay against analyze (issue 15): ``python -m benchmarks.replay``.

``sleuth replay RECORD --as VIEW`` of an 8-player Mystery Hand record of ``--statements``
statements (default 80) as written by one view, against ``sleuth analyze --json`` of its
hardest prefix (the analysis alone: a player's sheet adds the exposure, a second analysis,
so this is the stricter denominator), both end to end (a new process each: start-up,
parsing, analysis, printing).  The hardest prefix is the one whose in-process analysis
takes the most CPU time (every prefix is timed once, in this process); its ``sleuth
analyze`` is then run ``--repeat`` times and the median wall time is the denominator.
``replay`` is run with the default ``--jobs`` (the cores) and with ``--jobs 1``.

The target (issue 15): replay <= 10x one analyze of the hardest prefix.

Prints Markdown (for docs/benchmarks.md); ``--json FILE`` keeps the raw figures.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from benchmarks.common import (eight_player_games, fmt_ratio, fmt_s, machine, median,
                               print_machine)
from benchmarks.versus import ROOT, runner, timed_run


def records(n: int, statements: int, views, seed0: int):
    """(label, view, who, record as that view wrote it, cut to ``statements``)."""
    return [(f"seed {seed} {v}", v, who, w.prefix(statements))
            for seed, written in eight_player_games(n, statements, seed0, views)
            for v, (who, w) in written.items()]


def hardest(rec, view) -> tuple[int, float]:
    """(prefix length, CPU seconds) of the prefix whose analysis costs the most."""
    from solver.mystery_hand.analysis import analyze

    best = (0, -1.0)
    for k in range(1, len(rec.statements) + 1):
        t0 = time.process_time()
        analyze(rec.prefix(k), view)
        dt = time.process_time() - t0
        if dt > best[1]:
            best = (k, dt)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=2)
    ap.add_argument("--statements", type=int, default=80)
    ap.add_argument("--views", nargs="+", default=["me", "public"], choices=["me", "public"])
    ap.add_argument("--repeat", type=int, default=3, help="runs of the hardest analyze")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    from solver.records import write_record

    info = machine()
    cmd, env = runner(ROOT)
    rows, raw = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for label, v, who, rec in records(a.records, a.statements, a.views, a.seed):
            k, cpu_k = hardest(rec, who)
            full = os.path.join(tmp, "full.txt")
            part = os.path.join(tmp, "part.txt")
            with open(full, "w") as f:
                f.write(write_record(rec))
            with open(part, "w") as f:
                f.write(write_record(rec.prefix(k)))
            as_ = ["--as", who or "public"]
            walls = []
            for _ in range(a.repeat):
                p, wall, _ = timed_run(cmd + ["analyze", part, "--json"] + as_, env, tmp)
                if p.returncode:
                    sys.exit(f"analyze failed on {label}: {p.stderr[-500:]}")
                walls.append(wall)
            one = median(walls)
            res = {}
            for jobs in (None, 1):
                extra = [] if jobs is None else ["--jobs", str(jobs)]
                p, wall, cpu = timed_run(cmd + ["replay", full] + as_ + extra, env, tmp)
                if p.returncode:
                    sys.exit(f"replay failed on {label}: {p.stderr[-500:]}")
                res[jobs] = (wall, cpu)
            row = dict(state=label, view=v, statements=len(rec.statements), hardest=k,
                       hardest_cpu=cpu_k, analyze_wall=one, replay_wall=res[None][0],
                       replay_cpu=res[None][1], replay1_wall=res[1][0])
            raw.append(row)
            rows.append(row)
            print(f"{label}: hardest prefix {k} ({fmt_s(one)} analyze); replay "
                  f"{fmt_s(res[None][0])} ({fmt_ratio(res[None][0] / one)}), one process "
                  f"{fmt_s(res[1][0])} ({fmt_ratio(res[1][0] / one)})", file=sys.stderr,
                  flush=True)
    print("# Replay against analyze (8 players)\n")
    print_machine(info)
    print()
    print("| record | statements | hardest prefix | its `analyze --json` (wall, median) | "
          "`replay` (2 processes) | ratio | `replay --jobs 1` | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['state']} | {r['statements']} | {r['hardest']} | {fmt_s(r['analyze_wall'])}"
              f" | {fmt_s(r['replay_wall'])} | {fmt_ratio(r['replay_wall'] / r['analyze_wall'])}"
              f" | {fmt_s(r['replay1_wall'])} | "
              f"{fmt_ratio(r['replay1_wall'] / r['analyze_wall'])} |")
    ratios = [r["replay_wall"] / r["analyze_wall"] for r in rows]
    print(f"\nMedian ratio {fmt_ratio(median(ratios))} (max {fmt_ratio(max(ratios))}); "
          "target <= 10x.")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": info, "rows": raw}, f, indent=1)


if __name__ == "__main__":
    main()
