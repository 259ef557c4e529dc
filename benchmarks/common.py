"""Helpers shared by the benchmarks: the machine, summary statistics, simulated records."""
from __future__ import annotations

import math
import os
import platform
import statistics
import subprocess
import sys


def machine() -> dict:
    """nproc, CPU model, Python and library versions, the commit, the load average."""
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numpy
    try:
        import ortools
        ortools_v = ortools.__version__
    except Exception:  # pragma: no cover
        ortools_v = "?"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                                capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "solver"], cwd=root,
                               capture_output=True, text=True).stdout.split("\n")
        dirty = [l[3:] for l in dirty if l.strip()]
    except OSError:
        commit, dirty = "", []
    if not commit:
        # a snapshot (git archive) of the repository: the commit is in .commit
        try:
            with open(os.path.join(root, ".commit")) as f:
                commit = f.read().strip() + " (clean snapshot)"
        except OSError:
            commit = "?"
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "numpy": numpy.__version__, "ortools": ortools_v, "commit": commit,
            "solver_uncommitted": dirty, "load": load(),
            "command": "python -m " + " ".join([_module_name()] + sys.argv[1:])}


def _module_name() -> str:
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return spec.name if spec is not None else os.path.basename(sys.argv[0])


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "?"


def proc_stats() -> dict[int, list[str]]:
    """pid -> the fields of ``/proc/PID/stat`` after the command name (state first, then
    ppid, pgrp, ...), for every process that can be read now (Linux only)."""
    out: dict[int, list[str]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        out[int(name)] = stat[stat.rfind(")") + 2:].split()
    return out


def p95(xs) -> float:
    """Nearest-rank 95th percentile."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[max(0, math.ceil(0.95 * len(xs)) - 1)]


def median(xs) -> float:
    xs = list(xs)
    return statistics.median(xs) if xs else float("nan")


def fmt_s(x: float) -> str:
    """Seconds for a table: ms below one second."""
    if x != x:
        return "-"
    if x < 1:
        return f"{1000 * x:.0f} ms"
    return f"{x:.2f} s"


def fmt_ratio(x: float) -> str:
    if x != x:
        return "-"
    if x >= 100:
        return f"{x:.3g}x".replace("e+0", "e").replace("e+", "e")
    return f"{x:.1f}x"


def print_machine(info: dict, out=print) -> None:
    out(f"- machine: {info['nproc']} cores, {info['cpu']}, Python {info['python']}, "
        f"numpy {info['numpy']}, OR-Tools {info['ortools']}")
    out(f"- code: commit {info['commit']}"
        + (f" + uncommitted changes in {', '.join(info['solver_uncommitted'])}"
           if info["solver_uncommitted"] else ""))
    out(f"- command: `{info['command']}`")
    out(f"- load average at start: {info['load']}")


def eight_player_games(count: int, min_statements: int, seed0: int = 0, views=("me", "public"),
                       limit: int = 300):
    """(seed, {view label: (who, record as that view wrote it)}) of the first ``count``
    simulated 8-player standard Mystery Hand games (fixed seeds from ``seed0``) whose records
    have at least ``min_statements`` statements from every view ("me": the record's first
    player, "public": a spectator)."""
    from solver.mystery_hand.inference import as_written_by
    from solver.mystery_hand.simulate import simulate

    out, seed = [], seed0
    while len(out) < count and seed < seed0 + limit:
        rec = simulate(8, [], seed)
        who = {"me": rec.header.me, "public": None}
        written = {v: (who[v], as_written_by(rec, who[v])) for v in views}
        if all(len(w.statements) >= min_statements for _, w in written.values()):
            out.append((seed, written))
        seed += 1
    return out


def record(name: str, printed: list[str], info: dict, seconds: float, folder: str = "") -> None:
    """Keep a run's printed figures (Markdown) in ``<name>.json`` for the report
    (benchmarks/report.py), in ``folder`` (default benchmarks/results/)."""
    import json
    from datetime import datetime, timezone
    from pathlib import Path

    from benchmarks import report

    where = Path(folder) if folder else report.RESULTS
    where.mkdir(parents=True, exist_ok=True)
    data = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": info["commit"], "machine": info, "seconds": seconds,
            "markdown": "".join(printed).rstrip("\n").split("\n")}
    (where / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
