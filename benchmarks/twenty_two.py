"""Twenty-Two big tables: every decision state of simulated 8-player games, timed.

Every prefix of two simulated 8-player games (Twenty-Two, seed 3; Twenty-Six, seed 2: the
games of ``sleuth simulate twenty-two --players 8 --seed 3`` and ``--variant twenty-six
--seed 2``) at which the view, Ana, has a showdown risk to show (a decision between plays,
or the risk from now on) is analysed in this process (CPU time, after one warm-up
analysis).  Reported per game: the states, the CPU median, p95 and max, how many took over
1 s, and the 95 % half-width of the showdown-risk estimates (median and max over the
states' plays; the last-card states are counted exactly).

    python -m benchmarks.twenty_two [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import time

from benchmarks.common import fmt_s, machine, median, p95, print_machine

GAMES = [("Twenty-Two, 8 players", (), 3), ("Twenty-Six, 8 players", ("twenty-six",), 2)]


def measure(variants, seed: int, view: str = "Ana", players: int = 8,
            limit: int | None = None) -> list[dict]:
    """One row per decision state of the game (the first ``limit`` statements)."""
    from solver.twenty_two.analysis import analyze
    from solver.twenty_two.simulate import simulate

    rec = simulate(players, list(variants), seed)
    rows = []
    warm = False
    for n in range(1, min(len(rec.statements), limit or 10 ** 9) + 1):
        p = rec.prefix(n)
        if not warm:
            analyze(p, view)
            warm = True
        t0 = time.process_time()
        a = analyze(p, view)
        cpu = time.process_time() - t0
        risks = [o.risk for o in a.plays if o.risk is not None]
        if a.risk_now is not None:
            risks.append(a.risk_now)
        if not risks:
            continue
        errors = [r.error for r in risks if not r.exact]
        rows.append({"n": n, "cpu": cpu, "plays": len(a.plays),
                     "exact": not errors, "error": max(errors) if errors else 0.0})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write every measured state to this file")
    args = ap.parse_args(argv)
    info = machine()
    out = print
    out("## Twenty-Two big tables (`python -m benchmarks.twenty_two`)")
    out("")
    print_machine(info, out)
    out("")
    out("| game | states | CPU median | p95 | max | over 1 s | risk error: median | max "
        "| exact (last card) |")
    out("|---|---|---|---|---|---|---|---|---|")
    everything = {}
    for label, variants, seed in GAMES:
        rows = measure(variants, seed)
        everything[label] = rows
        cpu = [r["cpu"] for r in rows]
        errs = [r["error"] for r in rows if not r["exact"]]
        out(f"| {label} | {len(rows)} | {fmt_s(median(cpu))} | {fmt_s(p95(cpu))} | "
            f"{fmt_s(max(cpu))} | {sum(1 for x in cpu if x > 1)} | "
            f"±{median(errs):.3f} | ±{max(errs):.3f} | {sum(r['exact'] for r in rows)} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "games": everything}, f, indent=1)


if __name__ == "__main__":
    main()
