"""Side by side against an older commit (issue 15): ``python -m benchmarks.versus``.

``sleuth analyze`` end to end (a new process: start-up, parsing, validation, analysis,
printing) on hard 8-player Mystery Hand mid-game states, timed with this checkout's code
and with the code of ``--base`` (default 525edbf, checked out into a temporary worktree by
``git worktree add``), with the same Python, alternating the two on every state so that the
machine's load hits both alike.  Also start-up (``--help``) and ``sleuth log`` of one
statement on a small record.

The states: ``--records`` simulated 8-player standard games (fixed seeds), each as written
by its first player (``me``) and by a spectator (``public``), cut after statements
``--cuts`` (default 12, 16, ..., 36: the mid-game, where the counting programme is largest).
Every record is written to a file and analysed by both versions; the base must parse it
(Mystery Hand statements have not changed since).  The sheet of a player's view now also
says what the table knows about the hand (a second, public-view analysis that 525edbf did
not make), so player views are also timed with ``--no-exposure``: the same work as the base.

Prints Markdown (for docs/benchmarks.md): per state both wall times and the ratio; the
median ratio per view and overall; ``--json FILE`` keeps the raw figures.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks.common import (eight_player_games, fmt_ratio, fmt_s, load, machine, median,
                               print_machine)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN = "import sys; sys.path.insert(0, {root!r}); from cli.main import main; main()"


def worktree(commit: str, path: str) -> str:
    """A checkout of ``commit`` at ``path`` (reused when it is already there), with its
    compiled counting kernel built in place when the commit has one (as an install builds
    it; without it the checkout would run its numpy fallback and look slower than it is)."""
    if not os.path.isdir(os.path.join(path, "solver")):
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "-f", path, commit],
                       check=True, capture_output=True)
    model = os.path.join(path, "solver", "model")
    ours = os.path.join(ROOT, "solver", "model")
    pyx = os.path.join(model, "_kernel.pyx")
    built = [f for f in os.listdir(ours) if f.startswith("_kernel") and f.endswith(".so")]
    if os.path.exists(pyx) and not any(f.startswith("_kernel") and f.endswith(".so")
                                       for f in os.listdir(model)):
        with open(pyx, "rb") as a, open(os.path.join(ours, "_kernel.pyx"), "rb") as b:
            same = a.read() == b.read()
        if same and built:      # the same source: this checkout's build is its build
            shutil.copy2(os.path.join(ours, built[0]), model)
        else:                   # (needs Cython where the build is not isolated)
            r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                               cwd=path, capture_output=True, text=True)
            if r.returncode:
                print(f"warning: {commit} runs without its compiled kernel (no build: "
                      f"{r.stderr.strip().splitlines()[-1] if r.stderr.strip() else '?'})",
                      file=sys.stderr)
    return path


def runner(root: str, bytecode_cache: bool = False):
    """argv prefix that runs ``sleuth`` from the code at ``root`` (PYTHONPATH first, so an
    editable install of the other checkout does not interfere).  ``bytecode_cache``: as
    Python does by default, whatever ``PYTHONDONTWRITEBYTECODE`` says here (each module
    compiled once, not at every run)."""
    env = dict(os.environ, PYTHONPATH=root)
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return [sys.executable, "-c", MAIN.format(root=root)], env


def timed_run(cmd, env, cwd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
    return p, wall, cpu


def states(records: int, cuts: list[int], seed0: int, tmp: str):
    """(label, view, path) of the record files to analyse."""
    from solver.records import write_record

    out = []
    for seed, written in eight_player_games(records, max(cuts), seed0, limit=200):
        for v, (_, w) in written.items():
            for n in cuts:
                path = os.path.join(tmp, f"s{seed}-{v}-{n}.txt")
                with open(path, "w") as f:
                    f.write(write_record(w.prefix(n)))
                out.append((f"seed {seed} {v} {n}", v, path))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="525edbf")
    ap.add_argument("--worktree", default=os.path.join(tempfile.gettempdir(), "base"))
    ap.add_argument("--records", type=int, default=2)
    ap.add_argument("--cuts", default="12,16,20,24,28,32,36")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1, help="runs per state and version")
    ap.add_argument("--bytecode-cache", action="store_true",
                    help="let both versions keep their compiled modules (Python's default) "
                         "even where PYTHONDONTWRITEBYTECODE is set; each is run once first")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    cuts = [int(x) for x in args.cuts.split(",")]
    base = worktree(args.base, args.worktree)
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    cache = args.bytecode_cache or not os.environ.get("PYTHONDONTWRITEBYTECODE")
    print_machine(machine())
    print(f"- this checkout: `{head}` (+ working tree) at {ROOT}; base: `{args.base}` at {base}")
    print(f"- compiled modules: {'kept between runs (Python default)' if cache else 'compiled at every run (PYTHONDONTWRITEBYTECODE set)'}")
    print(f"- load before: {load()}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        todo = states(args.records, cuts, args.seed, tmp)
        if args.bytecode_cache:     # every module each version loads, compiled once
            for root in (ROOT, base):
                cmd, env = runner(root, True)
                for path in {v: p for _, v, p in todo}.values():
                    timed_run(cmd + ["analyze", path], env, root)
        for label, view, path in todo:
            row = {"state": label, "view": view}
            for name, root in (("new", ROOT), ("base", base)):
                cmd, env = runner(root, args.bytecode_cache)
                walls, cpus = [], []
                for _ in range(args.repeat):
                    p, w, c = timed_run(cmd + ["analyze", path], env, root)
                    if p.returncode not in (0,):
                        row[f"{name}_error"] = p.stderr.strip()[-300:]
                    walls.append(w)
                    cpus.append(c)
                row[name] = median(walls)
                row[name + "_cpu"] = median(cpus)
            row["ratio"] = row["base"] / row["new"]
            if view == "me":    # the same work as the base: the sheet without the exposure
                cmd, env = runner(ROOT, args.bytecode_cache)
                ws = [timed_run(cmd + ["analyze", path, "--no-exposure"], env, ROOT)[1]
                      for _ in range(args.repeat)]
                row["plain"] = median(ws)
            rows.append(row)
            print(f"<!-- {label}: base {row['base']:.2f} s, new {row['new']:.2f} s, "
                  f"x{row['ratio']:.1f} -->", file=sys.stderr, flush=True)
        startup = {}
        for name, root in (("new", ROOT), ("base", base)):
            cmd, env = runner(root, args.bytecode_cache)
            hw = [timed_run(cmd + ["--help"], env, root)[1] for _ in range(5)]
            startup[name] = median(hw)
    print(f"- load after: {load()}")
    print()
    print("| state (seed, view, statements) | 525edbf wall | now wall | ratio (wall) | "
          "525edbf CPU | now CPU | ratio (CPU) | now `--no-exposure` wall | ratio |"
          .replace("525edbf", args.base))
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        err = " (error)" if "new_error" in r or "base_error" in r else ""
        plain = (f"{fmt_s(r['plain'])} | {fmt_ratio(r['base'] / r['plain'])}"
                 if "plain" in r else "- | -")
        print(f"| {r['state']}{err} | {fmt_s(r['base'])} | {fmt_s(r['new'])} | "
              f"{fmt_ratio(r['ratio'])} | {fmt_s(r['base_cpu'])} | {fmt_s(r['new_cpu'])} | "
              f"{fmt_ratio(r['base_cpu'] / r['new_cpu'])} | {plain} |")
    print()
    for v in ("me", "public", None):
        rs = [r for r in rows if v is None or r["view"] == v]
        if rs:
            print(f"- {v or 'all'}: median ratio (wall) "
                  f"{fmt_ratio(median(r['ratio'] for r in rs))}, (CPU) "
                  f"{fmt_ratio(median(r['base_cpu'] / r['new_cpu'] for r in rs))}; median "
                  f"wall {fmt_s(median(r['base'] for r in rs))} -> "
                  f"{fmt_s(median(r['new'] for r in rs))} over {len(rs)} states")
    plain = [r for r in rows if "plain" in r]
    if plain:
        print(f"- me without the exposure (the work the base did): median ratio (wall) "
              f"{fmt_ratio(median(r['base'] / r['plain'] for r in plain))}; all states with "
              f"it: {fmt_ratio(median(r['base'] / r.get('plain', r['new']) for r in rows))}")
    print(f"- `sleuth --help`: {fmt_s(startup['base'])} -> {fmt_s(startup['new'])}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "startup": startup}, f, indent=1)


if __name__ == "__main__":
    main()
