"""Where a player still waits (issue 45), side by side with an older commit:
``python -m benchmarks.waits [--quick]``.

The records are simulated here from the seeds stated (``--seed``: the first one tried; the
first games long enough are kept) and written to files that both builds read:

* **whole games** (target 3): ``--records`` (3) 8-player Mystery Hand complete records of
  80-110 statements and as many 8-player Literature records cut to ``--statements`` (100)
  statements.  Each is run
  end to end as a user runs it (a new process: ``sleuth review``, ``sleuth replay`` from
  the recorder's view and ``sleuth replay --as public``), timed by wall clock and CPU
  (the process and its workers, sampled from /proc), its peak memory the largest sum of the resident sets of
  the process and its workers (sampled every 20 ms from /proc), beside the largest single
  process's (``ru_maxrss``).  Target: at most 10 s and 400 MB.
* **suggest** (target 4): the recorder's turns (the prefixes before each of its
  statements, ``--states`` of them spread over the game) of Mystery Hand and Literature
  games of 4, 6 and 8 players, and of 8-player lossy records (``--miss``: each
  observation missed with that chance), timed in a worker process (the advisor alone: no
  start-up).  Target: p95 at most 1 s.
* **Literature with gaps** (target 2): every ``--stride``-th cut point of 8-player lossy
  Literature records with at most 20 ``?`` lines, the recorder's view and the public view
  (about twice the work: no hand is known), the analysis
  (``solver.literature.analysis.analyze``) timed in the worker with its stated error.
  Target: p95 at most 2 s, the 95 % error at most 0.02.

The two builds -- this checkout and ``--base`` (default 5a59b0d, a ``git worktree`` in the
temporary folder, :func:`benchmarks.versus.worktree`) -- are run alternately on every
state (the order swapped each time), so that the machine's load hits both alike.  Reported:
both builds' medians and p95s, the ratio base / now of the medians, peak memory, and the
verdict per target (met, or missed by how much).  ``--profile`` also profiles the slowest
whole-game command of this checkout in one process (``cProfile``) and reports where its
time goes (the functions with the most time of their own).  ``--results DIR`` records the
figures (``DIR/waits.json``; a full run records them in ``benchmarks/results/``) for
``python -m benchmarks.run --report``.
"""
from __future__ import annotations

import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from benchmarks.interleaved import ask, start
from benchmarks.common import (fmt_ratio, fmt_s, load, machine, median, p95, print_machine,
                               proc_stats)
from benchmarks.versus import ROOT, runner, worktree

BASE = "5a59b0d"
#: the issue's targets: seconds and megabytes of a whole game; p95 seconds of suggest and
#: of a Literature analysis with gaps; the largest 95 % error of the latter
WHOLE_SECONDS, WHOLE_MB, SUGGEST_P95, GAPS_P95, GAPS_ERROR = 10.0, 400.0, 1.0, 2.0, 0.02

# ----------------------------------------------------------------------------------------
# the records


def _mover(st) -> str | None:
    """Who made a statement (its asker or player), ``None`` for setup lines."""
    ev = st.event
    if type(ev).setup:
        return None
    return getattr(ev, "asker", None) or getattr(ev, "player", None)


def whole_games(count: int, statements: int, seed0: int) -> list[tuple[str, int, Any]]:
    """(label, seed, record) of the whole games: ``count`` 8-player Mystery Hand complete
    records of 80-110 statements and ``count`` 8-player Literature records cut to
    ``statements``."""
    from solver.literature.simulate import simulate as lit
    from solver.mystery_hand.simulate import simulate as mh

    out: list[tuple[str, int, Any]] = []
    seed = seed0
    while sum(g == "MH 8p" for g, _, _ in out) < count and seed < seed0 + 200:
        rec = mh(8, [], seed)
        if 80 <= len(rec.statements) <= 110:
            out.append(("MH 8p", seed, rec))
        seed += 1
    seed = seed0
    while sum(g == "Lit 8p" for g, _, _ in out) < count and seed < seed0 + 200:
        rec = lit(8, (), seed)
        if len(rec.statements) >= statements:
            out.append(("Lit 8p", seed, rec.prefix(statements)))
        seed += 1
    return out


def lossy_games(game: str, players: int, count: int, miss: float, seed0: int,
                most_missed: int = 20) -> list[tuple[int, Any]]:
    """(seed, record) of ``count`` lossy records, each cut before its ``most_missed + 1``-th
    ``?`` line (the issue's "up to 20 ``?`` lines")."""
    if game == "literature":
        from solver.literature.simulate import simulate
        make = lambda s: simulate(players, (), s, miss=miss)        # noqa: E731
    else:
        from solver.mystery_hand.simulate import simulate as mh
        make = lambda s: mh(players, [], s, miss=miss)              # noqa: E731
    out = []
    for seed in range(seed0, seed0 + count):
        rec = make(seed)
        gaps = [i for i, st in enumerate(rec.statements) if "?" in st.text]
        if len(gaps) > most_missed:
            rec = rec.prefix(gaps[most_missed])
        out.append((seed, rec))
    return out


def turn_states(rec, states: int) -> list[int]:
    """``states`` prefixes before the recorder's own statements, spread over the game."""
    me = rec.header.me
    turns = [i for i, st in enumerate(rec.statements) if i and _mover(st) == me]
    if len(turns) <= states:
        return turns
    step = len(turns) / states
    return [turns[int(k * step)] for k in range(states)]


# ----------------------------------------------------------------------------------------
# running a command: wall, CPU, peak memory of the process tree


def _tree(root: int) -> dict[int, tuple[int, float]]:
    """pid -> (resident bytes, CPU seconds so far) of ``root`` and its descendants."""
    parent: dict[int, int] = {}
    seen: dict[int, tuple[int, float]] = {}
    page, tick = os.sysconf("SC_PAGE_SIZE"), os.sysconf("SC_CLK_TCK")
    for pid, fields in proc_stats().items():
        try:
            with open(f"/proc/{pid}/statm") as f:
                res = int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
        parent[pid] = int(fields[1])
        seen[pid] = (res, (int(fields[11]) + int(fields[12])) / tick)
    tree, todo = {root}, [root]
    while todo:
        p = todo.pop()
        for c, pp in parent.items():
            if pp == p and c not in tree:
                tree.add(c)
                todo.append(c)
    return {p: seen[p] for p in tree if p in seen}


def run_command(cmd: list[str], env: dict, cwd: str, timeout: float) -> dict:
    """Run ``cmd``: its exit status, wall seconds, CPU seconds of the process and its
    workers (their own times, sampled with the memory: a worker that is never waited for
    is missing from ``RUSAGE_CHILDREN``), peak memory (MB) of the process tree (sum) and of
    its largest process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    peak = [0, 0]
    cpu: dict[int, float] = {}
    done = threading.Event()

    def sample():
        while not done.is_set():
            tree = _tree(p.pid)
            sizes = [r for r, _ in tree.values()]
            peak[0], peak[1] = max(peak[0], sum(sizes)), max([peak[1]] + sizes)
            for pid, (_, c) in tree.items():
                cpu[pid] = max(cpu.get(pid, 0.0), c)
            done.wait(0.02)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    done.set()
    th.join()
    return {"rc": p.returncode, "wall": time.perf_counter() - t0, "cpu": sum(cpu.values()),
            "peak_mb": peak[0] / 2 ** 20, "single_mb": peak[1] / 2 ** 20,
            "error": (err or "").strip()[-300:] if p.returncode else ""}


# ----------------------------------------------------------------------------------------
# in-process states: a worker per build

WORKER = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from solver.games import get_game
from solver.records import read_record
records = {}
for line in sys.stdin:
    job = json.loads(line)
    if job["path"] not in records:
        records[job["path"]] = read_record(job["path"])
    rec = records[job["path"]]
    view = rec.header.me if job["view"] == "me" else None
    p = rec.prefix(job["n"])
    out = {}
    w, c = time.perf_counter(), time.process_time()
    try:
        if job["kind"] == "suggest":
            adv = get_game(rec.game).suggest(p, view)
            out["actions"] = len(adv.actions)
        else:
            from solver.literature.analysis import analyze
            a = analyze(p, view)
            out["exact"], out["error"] = bool(a.exact), float(a.error or 0.0)
    except Exception as e:
        out["failed"] = f"{type(e).__name__}: {e}"[:200]
    out["wall"], out["cpu"] = time.perf_counter() - w, time.process_time() - c
    print(json.dumps(out), flush=True)
'''


def start_worker(root: str):
    return start(root, WORKER)


# ----------------------------------------------------------------------------------------
# the runs


def write(tmp: str, name: str, rec) -> str:
    from solver.records import write_record

    path = os.path.join(tmp, name + ".txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(write_record(rec))
    return path


def measure_whole(args, roots: dict, tmp: str, log) -> list[dict]:
    rows = []
    k = 0
    for lab, seed, rec in whole_games(args.records, args.statements, args.seed):
        path = write(tmp, f"whole-{lab.replace(' ', '')}-{seed}", rec)
        for what, extra in (("review", ["review", path]), ("replay", ["replay", path]),
                            ("replay --as public", ["replay", path, "--as", "public"])):
            row: dict[str, Any] = {"record": f"{lab} seed {seed}", "statements": len(rec.statements),
                   "command": what, "path": path}
            for side in (("base", "now") if k % 2 == 0 else ("now", "base")):
                cmd, env = runner(roots[side])
                row[side] = run_command(cmd + extra, env, roots[side], args.timeout)
            k += 1
            rows.append(row)
            log(f"{row['record']} {what}: base {row['base']['wall']:.1f} s "
                f"{row['base']['peak_mb']:.0f} MB, now {row['now']['wall']:.1f} s "
                f"{row['now']['peak_mb']:.0f} MB")
    return rows


def measure_states(args, roots: dict, tmp: str, log) -> list[dict]:
    """The suggest states and the Literature states with gaps."""
    from solver.literature.engine import cut_points
    from solver.literature.simulate import simulate as lit
    from solver.mystery_hand.simulate import simulate as mh

    jobs = []
    for players in ([] if "suggest" in args.skip else args.players):
        for game, make in (("MH", lambda p, s: mh(p, [], s)),
                           ("Lit", lambda p, s: lit(p, (), s))):
            rec = make(players, args.seed)
            path = write(tmp, f"suggest-{game}{players}", rec)
            for n in turn_states(rec, args.states):
                jobs.append({"kind": "suggest", "config": f"{game} {players}p", "path": path,
                             "view": "me", "n": n})
    for game, name in (("mystery-hand", "MH"), ("literature", "Lit")):
        for seed, rec in lossy_games(game, 8, args.lossy, args.miss, args.seed):
            path = write(tmp, f"lossy-{name}-{seed}", rec)
            if "suggest" not in args.skip:
                for n in turn_states(rec, args.states):
                    jobs.append({"kind": "suggest", "config": f"{name} 8p lossy",
                                 "path": path, "view": "me", "n": n})
            if game == "literature" and "gaps" not in args.skip:
                for view, label in (("me", ""), ("public", ", public")):
                    for n in cut_points(rec)[1:][::args.stride]:
                        jobs.append({"kind": "analyze", "config": f"Lit 8p gaps{label}",
                                     "path": path, "view": view, "n": n})
    workers = {side: start_worker(root) for side, root in roots.items()}
    rows = []
    try:
        for i, job in enumerate(jobs):
            order = ("base", "now") if i % 2 == 0 else ("now", "base")
            rows.append({**job, **{side: ask(workers[side], job) for side in order}})
    finally:
        for w in workers.values():
            w.stdin.close()
            w.wait()
    log(f"{len(rows)} in-process states")
    return rows


def profile_slowest(whole: list[dict], top: int = 12) -> dict | None:
    """cProfile of this checkout's slowest whole-game command (by CPU time), in one process
    (``--jobs 1`` for a replay): the functions with the most time of their own."""
    if not whole:
        return None
    worst = max(whole, key=lambda r: r["now"]["cpu"])
    words = worst["command"].split()
    argv = words[:1] + [worst["path"]] + words[1:] + (["--jobs", "1"] if words[0] == "replay"
                                                       else [])
    out = os.path.join(os.path.dirname(worst["path"]), "profile.pstats")
    # main(argv) raises SystemExit at the end (main() would end the process at once)
    code = ("import sys, cProfile\n"
            "from cli.main import main\n"
            "pr = cProfile.Profile(); pr.enable()\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            f"pr.disable(); pr.dump_stats({out!r})\n")
    _, env = runner(ROOT)
    subprocess.run([sys.executable, "-c", code] + argv, env=env, cwd=ROOT,
                   capture_output=True, check=False)
    if not os.path.exists(out):
        return None
    import pstats

    stats = pstats.Stats(out).stats        # type: ignore[attr-defined]

    def where(k) -> str:
        path = os.path.relpath(k[0], ROOT) if k[0].startswith(ROOT) else os.path.basename(k[0])
        return f"{path}:{k[1]}({k[2]})"

    rows = sorted(((v[2], v[3], where(k)) for k, v in stats.items()), reverse=True)[:top]
    return {"command": f"sleuth {' '.join(words)} ({worst['record']}"
                       + (", one process)" if words[0] == "replay" else ")"),
            "seconds": max(v[3] for v in stats.values()),
            "top": [{"function": name, "own": own, "cumulative": cum}
                    for own, cum, name in rows]}


# ----------------------------------------------------------------------------------------
# the figures


def _ok(rows: list[dict], side: str) -> list[dict]:
    return [r[side] for r in rows if not r[side].get("failed") and not r[side].get("rc")]


def summary(whole: list[dict], states: list[dict], base: str) -> dict:
    """The verdict of each target from the rows: ``{"targets": [...], "tables": {...}}``."""
    targets = []
    if whole:
        now = [r["now"] for r in whole]
        worst = max(now, key=lambda x: x["wall"])
        heavy = max(now, key=lambda x: x["peak_mb"])
        met = worst["wall"] <= WHOLE_SECONDS and heavy["peak_mb"] <= WHOLE_MB and \
            not any(x["rc"] for x in now)
        miss = []
        if worst["wall"] > WHOLE_SECONDS:
            miss.append(f"time {fmt_ratio(worst['wall'] / WHOLE_SECONDS)} the target")
        if heavy["peak_mb"] > WHOLE_MB:
            miss.append(f"memory {fmt_ratio(heavy['peak_mb'] / WHOLE_MB)} the target")
        failed = sum(1 for x in now if x["rc"])
        if failed:
            miss.append(f"{failed} command(s) ended with an error")
        targets.append({
            "key": "whole-game", "target": f"review and replay of a whole 8-player game, any "
            f"view: <= {WHOLE_SECONDS:g} s and {WHOLE_MB:g} MB",
            "measured": f"slowest {fmt_s(worst['wall'])} wall, "
                        f"{fmt_s(max(x['cpu'] for x in now))} CPU (median wall "
                        f"{fmt_s(median(x['wall'] for x in now))} over {len(now)} commands; "
                        f"{base}: slowest "
                        f"{fmt_s(max(r['base']['wall'] for r in whole))} wall, "
                        f"{fmt_s(max(r['base']['cpu'] for r in whole))} CPU), peak "
                        f"{heavy['peak_mb']:.0f} MB ({base}: "
                        f"{max(r['base']['peak_mb'] for r in whole):.0f} MB)",
            "verdict": "met" if met else "missed: " + ", ".join(miss)})
    for kind, key, limit, what in (
            ("suggest", "suggest", SUGGEST_P95, "`suggest` p95 on 4-8 player Mystery Hand and "
             "Literature states, lossy included"),
            ("analyze", "gaps", GAPS_P95, "Literature 8 players with up to 20 `?` lines, both "
             "views: analysis p95")):
        sel = [r for r in states if r["kind"] == kind]
        if not sel:
            continue
        now = _ok(sel, "now")
        failed = len(sel) - len(now)
        w = [x["wall"] for x in now]
        worst_cfg = max({r["config"] for r in sel}, key=lambda c: p95(
            [r["now"]["wall"] for r in sel if r["config"] == c] or [0.0]))
        measured = (f"p95 {fmt_s(p95(w))} wall, {fmt_s(p95(x['cpu'] for x in now))} CPU over "
                    f"{len(now)} states (median {fmt_s(median(w))} wall; {base}: p95 "
                    f"{fmt_s(p95(x['wall'] for x in _ok(sel, 'base')))} wall, "
                    f"{fmt_s(p95(x['cpu'] for x in _ok(sel, 'base')))} CPU); worst "
                    f"configuration {worst_cfg}")
        cpu = p95(x["cpu"] for x in now)
        verdict = "met" if p95(w) <= limit and not failed else "missed: " + ", ".join(
            ([f"p95 {fmt_ratio(p95(w) / limit)} the target"
              + (" (by the wall clock of a loaded machine: CPU p95 within it)"
                 if cpu <= limit else f" (CPU p95 {fmt_ratio(cpu / limit)} the target)")]
             if p95(w) > limit else [])
            + ([f"{failed} state(s) failed"] if failed else []))
        if kind == "analyze":
            errs = [x["error"] for x in now]
            exact = sum(x["exact"] for x in now)
            measured += (f"; exact on {exact} of {len(now)}, stated 95 % error median "
                         f"{median(errs):.3f}, max {max(errs, default=0):.3f}")
            if max(errs, default=0) > GAPS_ERROR:
                verdict = ("missed: " if verdict == "met" else verdict + ", ") + \
                    f"error {fmt_ratio(max(errs) / GAPS_ERROR)} the target"
            limit_text = f"<= {GAPS_P95:g} s, error <= {GAPS_ERROR:g}"
        else:
            limit_text = f"<= {SUGGEST_P95:g} s"
        targets.append({"key": key, "target": f"{what} {limit_text}", "measured": measured,
                        "verdict": verdict})
    return {"targets": targets}


def markdown(data: dict) -> list[str]:
    """The run's tables (as docs/benchmarks.md shows them)."""
    base = data["base"]
    out = [f"Both builds on the same states, alternately: this checkout (`{data['commit']}`) "
           f"and `{base}`; records simulated from seed {data['args']['seed']}; load "
           f"{data['load']}.", ""]
    if data["whole"]:
        out += ["| record | command | base wall | now wall | ratio | base CPU | now CPU | "
                "base peak (largest process) | now peak (largest process) |",
                "|---|---|---|---|---|---|---|---|---|"]
        for r in data["whole"]:
            b, n = r["base"], r["now"]
            err = " (exit %d)" % n["rc"] if n["rc"] else ""
            out.append(f"| {r['record']} ({r['statements']} statements) | `{r['command']}`{err} "
                       f"| {fmt_s(b['wall'])} | {fmt_s(n['wall'])} | "
                       f"{fmt_ratio(b['wall'] / n['wall'])} | {fmt_s(b['cpu'])} | "
                       f"{fmt_s(n['cpu'])} | {b['peak_mb']:.0f} MB ({b['single_mb']:.0f}) | "
                       f"{n['peak_mb']:.0f} MB ({n['single_mb']:.0f}) |")
        out.append("")
    if data["states"]:
        if data.get("states_from"):
            out += [f"The states below were measured by an earlier run of this benchmark at "
                    f"commit `{data['states_from']['commit']}` (load "
                    f"{data['states_from']['load']}).", ""]
        out += ["| states | n | base median | base p95 | now median | now p95 | ratio of "
                "medians | now CPU p95 | now slowest |", "|---|---|---|---|---|---|---|---|---|"]
        labels = dict.fromkeys((r["kind"], r["config"]) for r in data["states"])
        for kind, cfg in labels:
            sel = [r for r in data["states"] if (r["kind"], r["config"]) == (kind, cfg)]
            b = [x["wall"] for x in _ok(sel, "base")]
            n = [x["wall"] for x in _ok(sel, "now")]
            c = [x["cpu"] for x in _ok(sel, "now")]
            failed = sum(1 for r in sel if r["now"].get("failed"))
            slow = max(sel, key=lambda r: r["now"]["wall"])
            what = "suggest" if kind == "suggest" else "analysis"
            out.append(f"| {what}: {cfg}{f' ({failed} failed)' if failed else ''} | {len(sel)} "
                       f"| {fmt_s(median(b))} | {fmt_s(p95(b))} | {fmt_s(median(n))} | "
                       f"{fmt_s(p95(n))} | {fmt_ratio(median(b) / median(n))} | "
                       f"{fmt_s(p95(c))} | {fmt_s(slow['now']['wall'])} (prefix "
                       f"{slow['n']}) |")
        out.append("")
    prof = data.get("profile")
    if prof:
        out += [f"Where the time goes: `{prof['command']}`, {prof['seconds']:.1f} s under "
                "cProfile, the functions with the most time of their own:", "",
                "| function | own | with callees |", "|---|---|---|"]
        for t in prof["top"]:
            out.append(f"| `{t['function']}` | {t['own']:.1f} s | {t['cumulative']:.1f} s |")
        out.append("")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default=BASE, help=f"the older commit (default {BASE})")
    ap.add_argument("--worktree", default=None,
                    help="its checkout (default: a folder in the temporary directory)")
    ap.add_argument("--records", type=int, default=3,
                    help="whole games of each game (one record said 'met' where the third "
                         "of three missed)")
    ap.add_argument("--statements", type=int, default=100,
                    help="a Literature whole game's statements")
    ap.add_argument("--players", type=int, nargs="+", default=[4, 6, 8])
    ap.add_argument("--states", type=int, default=6, help="suggest states per record")
    ap.add_argument("--lossy", type=int, default=1, help="lossy 8-player records per game")
    ap.add_argument("--miss", type=float, default=0.2)
    ap.add_argument("--stride", type=int, default=8,
                    help="every n-th cut point of the lossy Literature records")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds before a whole-game command is stopped")
    ap.add_argument("--skip", nargs="*", default=[],
                    choices=["whole", "states", "suggest", "gaps"],
                    help="leave out the whole games, all in-process states, or the suggest "
                         "or the gaps states among them")
    ap.add_argument("--states-from", metavar="JSON",
                    help="take the in-process states from an earlier run's --json (same base) "
                         "instead of measuring them again; the report says so")
    ap.add_argument("--profile", action="store_true",
                    help="profile this checkout's slowest whole-game command")
    ap.add_argument("--quick", action="store_true", help="a few states only (a smoke run)")
    ap.add_argument("--results", help="record the figures in DIR/waits.json (a full run "
                    "records them in benchmarks/results/)")
    ap.add_argument("--json", help="also write every measured row to this file")
    args = ap.parse_args(argv)
    if args.quick:
        args.players, args.states, args.stride, args.statements = [4], 2, 40, 30
    info = machine()
    roots = {"now": ROOT,
             "base": worktree(args.base, args.worktree or os.path.join(
                 tempfile.gettempdir(), f"sleuth-{args.base}"))}

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        whole = [] if "whole" in args.skip or args.quick else measure_whole(args, roots, tmp,
                                                                               log)
        earlier = None
        if args.states_from:
            with open(args.states_from, encoding="utf-8") as f:
                earlier = json.load(f)
            if earlier["base"] != args.base:
                sys.exit(f"--states-from: measured against {earlier['base']}, not {args.base}")
            states = earlier["states"]
        else:
            states = [] if "states" in args.skip else measure_states(args, roots, tmp, log)
        prof = profile_slowest(whole) if args.profile else None
    data = {"base": args.base, "commit": info["commit"], "machine": info,
            "load": f"{info['load']} at the start, {load()} at the end",
            "seconds": time.perf_counter() - t0,
            "args": vars(args), "whole": whole, "states": states, "profile": prof,
            "states_from": None if earlier is None else
            {"commit": earlier["commit"], "load": earlier["load"]}}
    data.update(summary(whole, states, args.base))
    for row in whole + states:         # the temporary files are gone
        row.pop("path", None)
    print_machine(info)
    print()
    for t in data["targets"]:
        print(f"- {t['target']}: {t['measured']} -- **{t['verdict']}**")
    print()
    print("\n".join(markdown(data)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=1)
    full = not (args.quick or args.skip)
    if full or args.results:
        from datetime import datetime, timezone
        from pathlib import Path

        from benchmarks import report

        folder = Path(args.results) if args.results else report.RESULTS
        folder.mkdir(parents=True, exist_ok=True)
        data["date"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        (folder / "waits.json").write_text(json.dumps(data, indent=1) + "\n",
                                           encoding="utf-8")


if __name__ == "__main__":
    main()
