"""Answers in order of cost (issue 45, target 1): how soon stage 1 of the staged analysis
(:func:`solver.staged.certainties`: the certainties, the safe commitments, the notes)
answers.  ``python -m benchmarks.staged [--seeds N] [--cuts N] [--figures]``.

Records are simulated here by seed (``Game.simulate``, as ``sleuth simulate`` writes them):
every registered game at each of its player counts from 3 to 8, ``--seeds`` games each
(seeds 0, 1, ...); the lossy games (``Game.lossy``) with ``--miss`` (0.2: one observation in
five unseen), cut before their 21st ``?`` line so that a record has at most 20.  Each
record is analysed at ``--cuts`` prefixes spread over it, from the recorder's view and the
public one, in this process after one warm-up analysis per game (``serve`` and ``play`` are
long-running: the imports are paid once).  Each stage 1 runs within the default time
budget, as serve runs it.

Reported per game: the number of states, the median, p95 and largest wall time of stage 1
and the median and p95 of its CPU time (the process's: on a loaded machine the wall time
also counts the waits for a core), the share of states where it was complete (else it gave the certainties settled within its
own time, :data:`solver.staged.STAGE_SECONDS`), and the verdict against the target (p95 at
most 0.3 s).  ``--figures`` also times stage 2 (the game's whole ``analyze``) on the same
states, for the ratio.  ``--json FILE`` keeps every state.
"""
from __future__ import annotations

import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import time

from benchmarks.common import fmt_s, machine, median, p95, print_machine

#: stage 1's target: p95 at most this many seconds (issue 45)
TARGET = 0.3
#: at most this many ``?`` lines in a record (issue 45)
MAX_UNSEEN = 20


def unseen_lines(rec) -> int:
    return sum("?" in st.text for st in rec.statements)


def capped(rec, most: int = MAX_UNSEEN):
    """``rec`` cut before its ``most + 1``-th ``?`` line."""
    n = 0
    for i, st in enumerate(rec.statements):
        n += "?" in st.text
        if n > most:
            return rec.prefix(i)
    return rec


def states(game, seeds: int, cuts: int, miss: float):
    """(players, seed, view label, view, prefix) of every state measured for ``game``."""
    for n in (p for p in game.player_counts if 3 <= p <= 8):
        for seed in range(seeds):
            if game.lossy:
                rec = capped(game.simulate(n, (), seed, miss=miss))
            else:
                rec = game.simulate(n, (), seed)
            total = len(rec.statements)
            if not total:
                continue
            ks = sorted({max(1, round(total * (i + 1) / cuts)) for i in range(cuts)})
            views = [("me", rec.header.me)] if rec.header.me else []
            views.append(("public", None))
            for label, view in views:
                for k in ks:
                    yield n, seed, label, view, rec.prefix(k)


def measure(game, rec, view, figures: bool) -> dict:
    from solver.errors import SleuthError
    from solver.model.budget import within
    from solver.staged import certainties

    row: dict = {}
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        with within():
            c = certainties(game, rec, view)
        row.update(complete=c.complete, certain=len(c.certain))
    except SleuthError as e:
        row.update(complete=None, error=type(e).__name__)
    row["stage1"] = time.perf_counter() - t0
    row["stage1_cpu"] = time.process_time() - c0
    if figures:
        t0 = time.perf_counter()
        try:
            with within():
                game.analyze(rec, view)
        except SleuthError as e:
            row["stage2_error"] = type(e).__name__
        row["stage2"] = time.perf_counter() - t0
    return row


def main(argv=None) -> None:
    from solver.games import Capability, games

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=2, help="games per player count (default 2)")
    ap.add_argument("--cuts", type=int, default=4, help="prefixes per record (default 4)")
    ap.add_argument("--miss", type=float, default=0.2,
                    help="each observation unseen with this chance, lossy games (default 0.2)")
    ap.add_argument("--figures", action="store_true", help="also time stage 2 (analyze)")
    ap.add_argument("--only", nargs="*", help="games by name")
    ap.add_argument("--json", help="keep every measured state in this file")
    args = ap.parse_args(argv)
    print_machine(machine())
    print(f"\nStage 1 (certainties) of the staged analysis; target p95 <= {TARGET} s; "
          f"records: seeds 0-{args.seeds - 1}, 3-8 players, lossy games with --miss "
          f"{args.miss} and at most {MAX_UNSEEN} '?' lines, {args.cuts} prefixes each, "
          "both views.\n")
    head = "| game | states | median | p95 | max | CPU median | CPU p95 | complete | target |"
    if args.figures:
        head += " stage 2 median | stage 2 p95 |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    rows = []
    for game in games(Capability.ANALYZE):
        if args.only and game.name not in args.only:
            continue
        got = []
        warm = True
        for n, seed, label, view, rec in states(game, args.seeds, args.cuts, args.miss):
            if warm:                    # the imports, once (as in a long-running serve)
                measure(game, rec, view, False)
                warm = False
            row = measure(game, rec, view, args.figures)
            row.update(game=game.name, players=n, seed=seed, view=label,
                       statements=len(rec.statements), unseen=unseen_lines(rec))
            got.append(row)
        rows += got
        if not got:
            continue
        w = [r["stage1"] for r in got]
        cpu = [r["stage1_cpu"] for r in got]
        done = [r for r in got if r.get("complete") is not None]
        share = sum(1 for r in done if r["complete"]) / len(done) if done else 0.0
        verdict = "met" if p95(w) <= TARGET else f"missed by {fmt_s(p95(w) - TARGET)}"
        line = (f"| {game.name} | {len(got)} | {fmt_s(median(w))} | {fmt_s(p95(w))} | "
                f"{fmt_s(max(w))} | {fmt_s(median(cpu))} | {fmt_s(p95(cpu))} | {share:.0%} | "
                f"{verdict} |")
        if args.figures:
            w2 = [r["stage2"] for r in got]
            line += f" {fmt_s(median(w2))} | {fmt_s(p95(w2))} |"
        print(line, flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
