"""Literature benchmark (on demand): ``python -m benchmarks.literature``.

A simulated six-player game of about 80 statements is analysed after every statement (at
every prefix that does not separate a claim from its ``shown`` line), from the recorder's
view (``me``) and from the public view; prints the median and 95th percentile seconds per
analysis and how many analyses had exact probabilities.  Issue 4's target: median under
0.5 s from the recorder's view.
"""
from __future__ import annotations

import argparse
import statistics
import time

from solver.literature.analysis import analyze
from solver.literature.engine import cut_points
from solver.literature.simulate import simulate


def pick_game(target: int, players: int = 6, seeds=range(300)):
    """The shortest complete simulated game with at least ``target`` statements."""
    best = None
    for seed in seeds:
        rec = simulate(players, (), seed)
        if len(rec.statements) >= target and (best is None or
                                              len(rec.statements) < len(best[1].statements)):
            best = (seed, rec)
    return best


def run(rec, view):
    times, exact = [], 0
    for n in cut_points(rec)[1:]:
        t0 = time.perf_counter()
        a = analyze(rec.prefix(n), view)
        times.append(time.perf_counter() - t0)
        exact += a.exact
    times.sort()
    return {"analyses": len(times), "median": statistics.median(times),
            "p95": times[max(0, int(0.95 * len(times)) - 1)], "max": times[-1],
            "exact": exact, "total": sum(times)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--statements", type=int, default=80)
    ap.add_argument("--seed", type=int, default=None, help="play this seed instead")
    args = ap.parse_args(argv)
    seed, rec = pick_game(args.statements, args.players)
    if args.seed is not None:
        seed, rec = args.seed, simulate(args.players, (), args.seed)
    print(f"game: {args.players} players, seed {seed}, {len(rec.statements)} statements "
          f"({len(rec.header.players)} hands + play), complete to the end")
    print("| view | analyses | median s | p95 s | max s | exact | total s |")
    print("|---|---|---|---|---|---|---|")
    for view, label in ((rec.header.me, f"me ({rec.header.me})"), (None, "public")):
        r = run(rec, view)
        print(f"| {label} | {r['analyses']} | {r['median']:.3f} | {r['p95']:.3f} | "
              f"{r['max']:.3f} | {r['exact']}/{r['analyses']} | {r['total']:.1f} |")


if __name__ == "__main__":
    main()
