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
most 0.3 s, and complete on at least 95 % of the states: a stage cut short answers in time
without every certainty).  ``--figures`` also times stage 2 (the game's whole ``analyze``) on the same
states, for the ratio.  ``--players N ...``: only those player counts.  ``--json FILE``
keeps every state.

``--sequence``: each record statement by statement instead, as ``play`` and ``serve`` run
it (every record a player can have: Literature's cut points, never a claim without its
``shown`` line), one process keeping what stage 1 keeps between statements
(:func:`solver.literature.history.carried`); the states counted are those with a ``?``
line (for the games without unseen events: every state).  ``--record [DIR]`` keeps the
printed tables for docs/benchmarks.md (``benchmarks/results/staged.json``, or
``staged-sequence.json`` with ``--sequence``, ``staged-sequence-figures.json`` with
``--sequence --figures``: the figures between statements, as play and serve compute them
while a player types, whose histories the next statement's stage 1 follows).
"""
from __future__ import annotations

import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import time

from benchmarks.common import fmt_s, machine, median, p95, print_machine, record

#: stage 1's target: p95 at most this many seconds (issue 45)
TARGET = 0.3
#: ... with every certainty (stage 1 complete within its time) on this share of the states
COMPLETE = 0.95
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


def _counts(game, players) -> list[int]:
    """The player counts measured: ``players`` (None: every count of 3-8 the game has)."""
    return [p for p in game.player_counts if 3 <= p <= 8 and (not players or p in players)]


def states(game, seeds: int, cuts: int, miss: float, players=None):
    """(players, seed, view label, view, prefix) of every state measured for ``game``."""
    for n in _counts(game, players):
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


def sequences(game, seeds: int, miss: float, players=None):
    """(players, seed, view label, view, prefix, counted) of every state of
    :func:`states`'s records, statement by statement: each record from its first statement
    to its last, both views; ``counted``: the state has a ``?`` line, or the record none."""
    from solver.literature.engine import cut_points

    for n in _counts(game, players):
        for seed in range(seeds):
            rec = capped(game.simulate(n, (), seed, miss=miss) if game.lossy
                         else game.simulate(n, (), seed))
            ks = [k for k in cut_points(rec) if k] if game.name == "literature" else \
                list(range(1, len(rec.statements) + 1))
            lossy = unseen_lines(rec) > 0
            views = [("me", rec.header.me)] if rec.header.me else []
            views.append(("public", None))
            for label, view in views:
                for k in ks:
                    p = rec.prefix(k)
                    # every statement is analysed (what the next one carries); only those
                    # with a ? line are counted where the record has them
                    yield n, seed, label, view, p, (not lossy or unseen_lines(p) > 0)


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
    from solver.literature.history import forget, restore

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=2, help="games per player count (default 2)")
    ap.add_argument("--cuts", type=int, default=4, help="prefixes per record (default 4)")
    ap.add_argument("--miss", type=float, default=0.2,
                    help="each observation unseen with this chance, lossy games (default 0.2)")
    ap.add_argument("--figures", action="store_true",
                    help="also time stage 2 (analyze); with --sequence it runs after each "
                    "statement's stage 1, as play and serve run it")
    ap.add_argument("--players", type=int, nargs="*",
                    help="only these player counts (default every count of 3-8)")
    ap.add_argument("--only", nargs="*", help="games by name")
    ap.add_argument("--json", help="keep every measured state in this file")
    ap.add_argument("--sequence", action="store_true",
                    help="each record statement by statement, as play and serve run it")
    ap.add_argument("--record", nargs="?", const="", metavar="DIR",
                    help="keep the printed tables for the report (default "
                    "benchmarks/results/)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    info = machine()
    printed: list[str] = []

    def out(line: str = "") -> None:
        print(line, flush=True)
        printed.append(line + "\n")

    print_machine(info)
    how = ("each record statement by statement in one process (as play and serve run it"
           + (", the figures (stage 2) after each statement's stage 1" if args.figures else "")
           + "), the states with a '?' line counted" if args.sequence else
           f"{args.cuts} prefixes each, each analysed on its own")
    title = ("statement by statement" + (", with the figures between statements"
                                         if args.figures else "")
             if args.sequence else "states on their own")
    out(f"### Stage 1 (the certainties): {title}")
    out()
    counts = " ".join(map(str, args.players)) if args.players else "3-8"
    out(f"Target p95 <= {TARGET} s; records: seeds 0-{args.seeds - 1}, {counts} players, lossy "
        f"games with --miss {args.miss} and at most {MAX_UNSEEN} '?' lines, {how}, both "
        f"views; commit `{info['commit']}`, load {info.get('load', '?')}.")
    out()
    head = "| game | states | median | p95 | max | CPU median | CPU p95 | complete | target |"
    if args.figures:
        head += " stage 2 median | stage 2 p95 |"
    out(head)
    out("|" + "---|" * (head.count("|") - 1))
    rows = []
    for game in games(Capability.ANALYZE):
        if args.only and game.name not in args.only:
            continue
        if args.sequence:
            forget()                    # nothing kept from another game's records
            todo = sequences(game, args.seeds, args.miss, args.players)
        else:
            todo = ((*x, True) for x in states(game, args.seeds, args.cuts, args.miss,
                                               args.players))
        got: list = []
        fresh: list = []
        warm = True
        for n, seed, label, view, rec, counted in todo:
            if warm:                    # the imports, once (as in a long-running serve)
                measure(game, rec, view, False)
                warm = False
            if not args.sequence:
                forget()                # each state on its own: nothing kept from another
            row = measure(game, rec, view, args.figures)
            if not counted:
                continue
            row.update(game=game.name, players=n, seed=seed, view=label,
                       statements=len(rec.statements), unseen=unseen_lines(rec))
            got.append(row)
            if args.sequence:           # the baseline: the same state with nothing kept
                kept = forget()
                alone = measure(game, rec, view, False)
                restore(kept)           # the sequence goes on as it would have
                # stage 1 alone: the figures were timed once, in the sequence's row
                fresh.append({**{k: v for k, v in row.items() if not k.startswith("stage2")},
                              **alone, "afresh": True})
        rows += got + fresh
        for label, some in ((game.name, got), (f"{game.name}, each state afresh", fresh)):
            if some:
                out(_line(label, some, args.figures))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    if args.record is not None:
        name = ("staged-sequence" + ("-figures" if args.figures else "")) if args.sequence \
            else "staged"
        record(name, printed, info, time.perf_counter() - started, args.record)


def _line(name: str, got: list[dict], figures: bool) -> str:
    """The table's row of a game's states: times, completeness, the verdict."""
    w = [r["stage1"] for r in got]
    cpu = [r["stage1_cpu"] for r in got]
    done = [r for r in got if r.get("complete") is not None]
    share = sum(1 for r in done if r["complete"]) / len(done) if done else 0.0
    # the certainties in time: stage 1 complete (a stage cut short at its own time
    # answers in time but not with every certainty) on COMPLETE of the states, p95
    if p95(w) > TARGET:
        verdict = f"missed by {fmt_s(p95(w) - TARGET)}"
    elif share < COMPLETE:
        verdict = f"missed: complete on {share:.1%}"
    else:
        verdict = "met"
    line = (f"| {name} | {len(got)} | {fmt_s(median(w))} | {fmt_s(p95(w))} | "
            f"{fmt_s(max(w))} | {fmt_s(median(cpu))} | {fmt_s(p95(cpu))} | {share:.0%} | "
            f"{verdict} |")
    if figures:
        w2 = [r["stage2"] for r in got if "stage2" in r]
        if not w2:                      # not timed for these rows
            return line + " - | - |"
        line += f" {fmt_s(median(w2))} | {fmt_s(p95(w2))} |"
    return line


if __name__ == "__main__":
    main()
