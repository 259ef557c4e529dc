"""This checkout against an older commit, state by state: ``python -m benchmarks.interleaved``.

How a change is measured on a noisy machine: two worker processes, one running this
checkout's code and one the code of ``--base`` (a ``git worktree``, as in
:mod:`benchmarks.versus`), are given the same states in turn (the order swapped on every
other state, so that the machine's load hits both alike), and each times its own analysis
(CPU time, in the worker: no start-up).  The states (``--games``):

* ``lit``: every ``--stride``-th cut point of one simulated game per Literature
  configuration (6 and 8 players, with and without jokers), a player's view and public;
* ``tt``: every ``--stride``-th prefix of the two Twenty-Two benchmark games
  (:mod:`benchmarks.twenty_two`), Ana's view, with the widest showdown-risk error bar;
* ``mh``: every ``--stride``-th of the first 60 statements of the two 8-player target
  records (:mod:`benchmarks.run`), both views.

Prints one Markdown row per configuration (median, p95 and total of each side, the ratio of
the totals); ``--json FILE`` keeps every state.

    python -m benchmarks.interleaved --base 36a056b --games lit tt mh
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from benchmarks.common import fmt_s, machine, median, p95, print_machine
from benchmarks.versus import ROOT, worktree

WORKER = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from benchmarks.run import Literature, MysteryHand
games = {}

def record(job):
    key = json.dumps({k: job[k] for k in ("game", "players", "variants", "seed")})
    if key not in games:
        if job["game"] == "tt":
            from solver.twenty_two.simulate import simulate
            games[key] = simulate(8, list(job["variants"]), job["seed"])
        elif job["game"] == "lit":
            (_, rec), = Literature().records(job["players"], tuple(job["variants"]), 100, 1)
            games[key] = rec
        else:
            mh = MysteryHand()
            rec = dict(mh.records(8, (), 60, 2))[job["seed"]]
            games[key] = {v: (view, w) for v, view, w in mh.views(rec)}
    return games[key]

for line in sys.stdin:
    job = json.loads(line)
    rec = record(job)
    out = {}
    if job["game"] == "tt":
        from solver.twenty_two.analysis import analyze
        p = rec.prefix(job["n"])
        t = time.process_time(); a = analyze(p, "Ana"); out["cpu"] = time.process_time() - t
        risks = [o.risk for o in a.plays if o.risk is not None] + [a.risk_now]
        errs = [r.error for r in risks if r is not None and not r.exact]
        out["error"] = max(errs) if errs else None
    elif job["game"] == "lit":
        view = None if job["view"] == "public" else rec.header.me
        p = rec.prefix(job["n"])
        t = time.process_time(); a = Literature().analyze(p, view)
        out["cpu"] = time.process_time() - t
        out["exact"] = bool(a.exact)
    else:
        view, w = rec[job["view"]]
        t = time.process_time(); a = MysteryHand().analyze(w.prefix(job["n"]), view)
        out["cpu"] = time.process_time() - t
        out["exact"] = bool(a.exact)
        out["cand"] = a.mystery.count is not None and bool(a.mystery.exact)
    print(json.dumps(out), flush=True)
'''


def jobs(games: list[str], stride: int) -> list[dict]:
    from benchmarks.run import Literature
    from benchmarks.twenty_two import GAMES as TT_GAMES
    from solver.twenty_two.simulate import simulate

    out = []
    if "lit" in games:
        lit = Literature()
        for players, variants in ((6, ()), (8, ()), (6, ("jokers",)), (8, ("jokers",))):
            (_, rec), = lit.records(players, variants, 100, 1)
            for view in ("me", "public"):
                for n in lit.cuts(rec, 10 ** 6)[::stride]:
                    out.append({"game": "lit", "players": players, "variants": list(variants),
                                "seed": None, "view": view, "n": n})
    if "tt" in games:
        for _, variants, seed in TT_GAMES:
            rec = simulate(8, list(variants), seed)
            for n in range(1, len(rec.statements) + 1, stride):
                out.append({"game": "tt", "players": 8, "variants": list(variants),
                            "seed": seed, "view": "Ana", "n": n})
    if "mh" in games:
        for seed in (0, 1):
            for view in ("me", "public"):
                for n in range(2, 61, stride):
                    out.append({"game": "mh", "players": 8, "variants": [], "seed": seed,
                                "view": view, "n": n})
    return out


def label(job: dict) -> str:
    if job["game"] == "tt":
        return "Twenty-Six, 8 players" if job["variants"] else "Twenty-Two, 8 players"
    if job["game"] == "mh":
        return f"MH 8p target, seed {job['seed']}, {job['view']}"
    v = " jokers" if job["variants"] else ""
    return f"Lit {job['players']}p{v}, {job['view']}"


def start(root: str, worker: str = WORKER):
    """A worker process running ``worker`` (its code) with the code at ``root``: one JSON
    job a line in, one JSON answer a line out (:func:`ask`)."""
    return subprocess.Popen([sys.executable, "-c", worker, root], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=root,
                            env=dict(os.environ, PYTHONPATH=root))


def ask(proc, job: dict) -> dict:
    proc.stdin.write(json.dumps(job) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError(f"a worker stopped on {job}")
    return json.loads(line)


def _share(sel: list[dict], key: str) -> str:
    """How many states each side had exact (``key``), as ``base -> now``."""
    if not all(key in r["base"] and key in r["now"] for r in sel):
        return "-"
    return " -> ".join(str(sum(r[side][key] for r in sel)) for side in ("base", "now"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="36a056b", help="the older commit (default 36a056b)")
    ap.add_argument("--games", nargs="+", default=["lit", "tt", "mh"],
                    choices=["lit", "tt", "mh"])
    ap.add_argument("--stride", type=int, default=0,
                    help="every n-th state (default: 7 for lit, 3 for tt and mh)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many states")
    ap.add_argument("--json", help="write every measured state to this file")
    args = ap.parse_args(argv)
    info = machine()
    print_machine(info)
    todo = []
    for g in args.games:
        todo += jobs([g], args.stride or (7 if g == "lit" else 3))
    todo = todo[:args.limit]
    base = worktree(args.base, os.path.join(tempfile.gettempdir(), f"sleuth-{args.base}"))
    workers = {"base": start(base), "now": start(ROOT)}
    rows = []
    try:
        for i, job in enumerate(todo):
            order = ("base", "now") if i % 2 == 0 else ("now", "base")
            rows.append((job, {side: ask(workers[side], job) for side in order}))
    finally:
        for w in workers.values():
            w.stdin.close()
            w.wait()
    print(f"- base: `{args.base}` at {base}; now: this checkout at {ROOT}")
    print()
    print(f"| states | n | {args.base}: median | p95 | total | now: median | p95 | total "
          "| ratio of totals | exact | candidates exact |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for lab in dict.fromkeys(label(j) for j, _ in rows):
        sel = [r for j, r in rows if label(j) == lab]
        b = [r["base"]["cpu"] for r in sel]
        n = [r["now"]["cpu"] for r in sel]
        print(f"| {lab} | {len(sel)} | {fmt_s(median(b))} | {fmt_s(p95(b))} | {sum(b):.1f} s "
              f"| {fmt_s(median(n))} | {fmt_s(p95(n))} | {sum(n):.1f} s | "
              f"{sum(b) / max(sum(n), 1e-9):.2f}x | {_share(sel, 'exact')} | "
              f"{_share(sel, 'cand')} |")
    errs = [(r["base"].get("error"), r["now"].get("error")) for _, r in rows]
    errs = [(a, b) for a, b in errs if a is not None and b is not None]
    if errs:
        print()
        print(f"- Twenty-Two showdown risk, widest error bar: {args.base} "
              f"±{max(a for a, _ in errs):.3f}, now ±{max(b for _, b in errs):.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
