"""Literature with gaps, the figures against exact ones (issue 45, target 2; on demand):
``python -m benchmarks.literature_error [--quick] [--record [DIR]]``.

The states: simulated lossy records (``simulate(players, (), seed, miss=0.2)``: one
observation in five missed) of 4 and 6 players, seeds from ``--seed``, each cut before
one of its unseen lines where the unseen lines before it allow 2 to ``--most`` courses
by the public rules (``solver.literature.courses.rule_courses``), at most two cuts per
record, seen by the recorder.  On each state:

* **now**: the figures as ``analyze`` computes them (``courses.figures``): exact from the
  courses, or the course chain's estimate with its stated 95 % error;
* **the chain**: the course chain forced on the same state (no course counted one by one,
  nor one per orbit of exchangeable cards),
  as every state beyond 64 combinations of its unseen parts was estimated before the
  courses were found line by line;
* **the reference**: every course the rules allow counted (no limit on their number), the
  exact figures by the prior of docs/literature.md.

It prints each one's share of exact states, its CPU time, and for the estimates the error
measured against the reference (the largest difference over every card and place of a
state) beside the error they state, and how often the stated error covers it.  8-player
records are beyond the reference (whole unseen questions multiply to millions of courses);
``python -m benchmarks.waits`` measures them.  ``--record`` keeps the printed figures in
``benchmarks/results/literature-error.json`` for the report (docs/benchmarks.md).
"""
from __future__ import annotations

import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import contextlib
import time

from benchmarks.common import fmt_s, machine, median, p95, print_machine, record


def states(players: int, seeds, most: int, per_record: int = 2):
    """(seed, cut, record) of the lossy states whose courses the reference can count: cut
    just before each unseen line after the first (every seen statement after the unseen
    ones before it), while the unseen cards multiply to at most ``2 * most`` (the rules
    seldom refuse a card: past that the courses are too many), the rules allowing 2 to
    ``most`` courses; at most ``per_record`` cuts of a record, spread over those found."""
    import math

    from solver.literature import courses
    from solver.literature.simulate import simulate

    out = []
    for seed in seeds:
        rec = simulate(players, (), seed, miss=0.2)
        every = courses.unseen_lines(rec)
        cuts = []
        for j in range(1, len(every) + 1):
            k = every[j] if j < len(every) else len(rec.statements)
            p = rec.prefix(k)
            lines = every[:j]
            ps = courses.parts(p, lines)
            if math.prod(len(x[2]) for x in ps) > 2 * most:
                break
            found = courses.rule_courses(p, lines, ps, most=most, work=20 * most)
            if found is not None and len(found) > 1:
                cuts.append(k)
        for k in cuts[::max(1, len(cuts) // per_record)][:per_record]:
            out.append((seed, k, rec.prefix(k)))
    return out


@contextlib.contextmanager
def limits(**values):
    """``solver.literature.courses``' limits set to ``values`` for the block."""
    from solver.literature import courses

    saved = {k: getattr(courses, k) for k in values}
    for k, v in values.items():
        setattr(courses, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(courses, k, v)


def measure(rec, view, **lims):
    """(Mix, CPU seconds) of ``courses.figures`` under ``lims``."""
    from solver.literature import courses
    from solver.literature.inference import build

    vm = build(rec, view)
    with limits(**lims):
        c = time.process_time()
        mix = courses.figures(rec, view, vm)
        return mix, time.process_time() - c


def difference(a, b) -> float:
    """The largest difference between two figures' card probabilities."""
    worst = 0.0
    for card, d in b.probs.marginals.items():
        e = a.probs.marginals.get(card, {})
        for loc in set(d) | set(e):
            worst = max(worst, abs(d.get(loc, 0.0) - e.get(loc, 0.0)))
    return worst


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[4, 6])
    ap.add_argument("--records", type=int, default=12, help="records per table size")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--most", type=int, default=400,
                    help="the most courses the rules allow on a state (the reference counts "
                    "them all)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--record", nargs="?", const="", metavar="DIR",
                    help="keep the printed figures in DIR/literature-error.json (default "
                    "benchmarks/results/) for the report")
    args = ap.parse_args(argv)
    if args.quick:
        args.players, args.records, args.most = [4], 2, 60
    t_start = time.perf_counter()
    printed: list[str] = []

    def out(line: str = "") -> None:
        print(line)
        printed.append(line + "\n")

    unlimited = dict(COURSES=10 ** 9, COURSE_WORK=10 ** 15, CARD_FACTOR=10 ** 9,
                     ENGINE_WORK=10 ** 9)
    rows = []
    for n in args.players:
        for seed, k, rec in states(n, range(args.seed, args.seed + args.records), args.most):
            view = rec.header.me
            now, now_cpu = measure(rec, view)
            chain, chain_cpu = measure(rec, view, COURSES=0, ORBITS=0)
            ref, ref_cpu = measure(rec, view, **unlimited)
            if ref is None or not ref.probs.exact or now is None or chain is None:
                continue            # a course the deal model cannot count exactly
            rows.append(dict(n=n, seed=seed, k=k, courses=ref.courses,
                             now_exact=now.probs.exact, now_cpu=now_cpu,
                             now_err=0.0 if now.probs.exact else now.probs.error,
                             now_diff=difference(now, ref),
                             chain_exact=chain.probs.exact, chain_cpu=chain_cpu,
                             chain_err=chain.probs.error, chain_diff=difference(chain, ref),
                             ref_cpu=ref_cpu))
    info = machine()
    out("## Literature with gaps against exact figures (issue 45, target 2)\n")
    print_machine(info, out)
    out(f"- states: lossy records (miss 0.2) of {', '.join(map(str, args.players))} players, "
        f"seeds {args.seed}-{args.seed + args.records - 1}, cut where the rules allow 2 to "
        f"{args.most} courses (at most two cuts a record), the recorder's view; "
        "the reference counts every course\n")
    out("| players | states | courses (median, max) | figures | exact | CPU median | p95 | "
        "measured error: median | max | stated error: median | covered |")
    out("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.players + ["all"]:
        sel = [r for r in rows if n == "all" or r["n"] == n]
        if not sel:
            continue
        cs = [r["courses"] for r in sel]
        for name, key in (("now", "now"), ("chain forced", "chain")):
            est = [r for r in sel if not r[f"{key}_exact"]]
            diff = [r[f"{key}_diff"] for r in est]
            err = [r[f"{key}_err"] for r in est]
            cov = sum(r[f"{key}_diff"] <= r[f"{key}_err"] for r in est)
            cpu = [r[f"{key}_cpu"] for r in sel]
            measured = (f"{median(diff):.3f} | {max(diff):.3f} | {median(err):.3f} | "
                        f"{cov}/{len(est)}") if est else "- | - | - | -"
            out(f"| {n} | {len(sel)} | {median(cs):g}, {max(cs)} | {name} | "
                f"{len(sel) - len(est)}/{len(sel)} | {fmt_s(median(cpu))} | {fmt_s(p95(cpu))} | "
                f"{measured} |")
    out()
    exact_now = [r for r in rows if r["now_exact"]]
    if exact_now:
        out(f"- where the figures are exact now, their largest difference from the reference: "
            f"{max(r['now_diff'] for r in exact_now):.1e}; the reference's CPU median "
            f"{fmt_s(median([r['ref_cpu'] for r in rows]))}")
    out("- measured error: the largest difference from the reference over every card and "
        "place of a state; covered: states whose stated 95 % error is at least it")
    if args.record is not None:
        record("literature-error", printed, info, time.perf_counter() - t_start, args.record)


if __name__ == "__main__":
    main()
