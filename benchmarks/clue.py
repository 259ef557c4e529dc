"""Clue benchmark (issue 47, on demand): ``python -m benchmarks.clue [--quick]``.

Target set: 6-player standard games simulated without accusations (``simulate(...,
accusations=False)``), each analysed after its first 40 suggestions -- and, for the
spread, after every 5th statement up to there -- from two views: the recorder's (the
record as Ana would have written it at the table) and the public view.  Each analysis is
the full one a user gets (``solver.clue.analysis.analyze``: build the model, count every
card's probabilities, the possible case files with the most likely ones).

Baselines on the same states in the same run:

(a) the desktop notebook's approach: CP-SAT for what is possible -- the backbone (one
    model, every card x location checked) and one feasibility check per case file whose
    three cards can each be in the case file (the number of possible case files, no
    probabilities);
(b) CP-SAT solution enumeration of the deals (``benchmarks.baselines.enumerate_deals``,
    ``--enum-limit`` seconds each): the exact figures by brute force, where it finishes;
    its marginals are compared with ours when it does.

Prints Markdown: latency per state (median, p95, max), the share of exact states, and the
speed ratios; ``--record`` keeps them in ``benchmarks/results/clue.json`` (``--record DIR``:
in DIR) for ``python -m benchmarks.run --report`` (docs/benchmarks.md).
"""
from __future__ import annotations

import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import itertools
import time

from benchmarks.common import fmt_s, machine, median, p95, print_machine, record


def states(records: int, upto: int, stride: int, seed0: int = 100):
    """(label, record, view) of the target set."""
    from solver.clue.inference import as_written_by
    from solver.clue.simulate import simulate

    out = []
    for r in range(records):
        full = simulate(6, [], seed0 + r, events=upto, accusations=False)
        for view, rec in (("Ana", as_written_by(full, "Ana")), (None, as_written_by(full, None))):
            head = sum(1 for st in rec.statements if st.event.setup)
            cuts = sorted(set(range(stride, upto + 1, stride)) | {upto})
            for k in cuts:
                out.append((f"r{r}+{k}", k, rec.prefix(head + k), view))
    return out


def notebook_baseline(vm) -> tuple[int, float]:
    """CP-SAT backbone + one check per possible case file: (case files, seconds)."""
    t = time.perf_counter()
    m = vm.model
    bb = m.backbone()
    maybe = [[c for c in g if "envelope" in bb.possible[c]] for g in vm.deck.groups]
    li = m.loc_index("envelope")
    n = 0
    for triple in itertools.product(*maybe):
        def fix(mm, x, triple=triple):
            mm.Add(sum(x[m.card_index(c), li] for c in triple) == 3)
        if m.is_consistent(fix):
            n += 1
    return n, time.perf_counter() - t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10)
    ap.add_argument("--upto", type=int, default=40)
    ap.add_argument("--stride", type=int, default=5)
    ap.add_argument("--enum-limit", type=float, default=5.0)
    ap.add_argument("--enum-states", type=int, default=12,
                    help="states given to the enumeration baseline: half target states, "
                    "half the slowest for us")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--record", nargs="?", const="", metavar="DIR",
                    help="keep the printed figures in DIR/clue.json (default "
                    "benchmarks/results/) for the report")
    args = ap.parse_args(argv)
    t_start = time.perf_counter()
    printed: list[str] = []         # everything printed, for --record

    def out(line: str = "", end: str = "\n") -> None:
        print(line, end=end)
        printed.append(line + end)

    if args.quick:
        args.records, args.stride, args.enum_states = 2, 20, 2
    from benchmarks.baselines import enumerate_deals, max_error
    from solver.clue.analysis import analyze
    from solver.clue.inference import build

    analyze(states(1, 5, 5)[0][2], "Ana")        # imports and the compiled kernel, once
    rows = []
    for label, k, rec, view in states(args.records, args.upto, args.stride):
        t, c = time.perf_counter(), time.process_time()
        a = analyze(rec, view)
        ours, cpu = time.perf_counter() - t, time.process_time() - c
        vm = build(rec, view)
        n, base = notebook_baseline(vm)
        assert n == a.envelope.count, (label, view, n, a.envelope.count)
        rows.append(dict(label=label, k=k, view=view, ours=ours, cpu=cpu, notebook=base,
                         exact=a.exact,
                         files=a.envelope.count, rec=rec, a=a))
    target = [r for r in rows if r["k"] == args.upto]
    info = machine()
    out("## Clue (issue 47): full analysis of 6-player states\n")
    print_machine(info, out)
    out(f"- states: {args.records} simulated 6-player standard games without accusations, "
          f"after every {args.stride}th statement up to {args.upto} suggestions, from Ana's "
          "view and the public view\n")
    out("| states | views | exact | median | p95 | max | notebook baseline median | "
          "p95 | ratio of medians |")
    out("|---|---|---|---|---|---|---|---|---|")
    for name, sel in ((f"{args.upto} suggestions (target)", target), ("every prefix", rows)):
        for vname, vs in (("Ana", [r for r in sel if r["view"] == "Ana"]),
                          ("public", [r for r in sel if r["view"] is None]),
                          ("both", sel)):
            ours = [r["ours"] for r in vs]
            nb = [r["notebook"] for r in vs]
            ex = sum(r["exact"] for r in vs)
            out(f"| {name} | {vname} | {ex}/{len(vs)} | {fmt_s(median(ours))} | "
                  f"{fmt_s(p95(ours))} | {fmt_s(max(ours))} | {fmt_s(median(nb))} | "
                  f"{fmt_s(p95(nb))} | {median(nb) / median(ours):.1f}x |")
    out()
    for name, sel in ((f"{args.upto} suggestions (target)", target), ("every prefix", rows)):
        cpu = [r["cpu"] for r in sel]
        out(f"- our CPU time, {name}: median {fmt_s(median(cpu))}, p95 {fmt_s(p95(cpu))}, "
              f"max {fmt_s(max(cpu))} (wall clock above: the machine is shared)")
    out()
    out(f"Case files on the target states: median {median([r['files'] for r in target])}, "
          f"from {min(r['files'] for r in target)} to {max(r['files'] for r in target)}; "
          "the notebook baseline's count equals ours on every state (checked).\n")
    # (b) enumeration, on the target states (the last of each view) first
    done = []
    slow = sorted(rows, key=lambda r: -r["ours"])
    half = args.enum_states // 2
    for r in (target[:args.enum_states - half] + slow[:half]):
        vm = build(r["rec"], r["view"])
        e = enumerate_deals(vm.model, time_limit=args.enum_limit)
        err = None
        if e.finished:
            cards = {c: r["a"].cards[c] for c in vm.model.cards}
            err = max_error(e.marginals, cards, vm.model.cards, vm.model.locations)
        done.append((r, e, err))
    fin = [d for d in done if d[1].finished]
    out(f"CP-SAT enumeration of the deals ({args.enum_limit:g} s each): finished on "
          f"{len(fin)} of {len(done)} states", end="")
    if fin:
        out(f"; where it finished, median {fmt_s(median([d[1].seconds for d in fin]))} "
              f"({median([d[1].seconds / d[0]['ours'] for d in fin]):.2g}x ours), largest "
              f"difference from our marginals {max(d[2] for d in fin):.1e}", end="")
    unf = [d for d in done if not d[1].finished]
    if unf:
        out(f"; unfinished ones had found {min(d[1].count for d in unf):,} to "
              f"{max(d[1].count for d in unf):,} deals when stopped", end="")
    out(".")
    if args.record is not None:
        record("clue", printed, info, time.perf_counter() - t_start, args.record)


if __name__ == "__main__":
    main()
