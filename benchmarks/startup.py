"""Start-up against the bare import (issue 15, item 1): ``python -m benchmarks.startup``.

Each command runs in a new process, ``--runs`` times, alternating with the baseline
``python -c "import click, tabulate"`` so that the machine's load hits both alike:
``sleuth --help``, ``--version``, the completion of a command's name, and ``sleuth log``
of one statement on a small Mystery Hand and a small Literature record.  ``sleuth`` is
run with the same interpreter as the baseline (``python -c "from cli.main import main;
main()"``, what the installed script does), so a wrapper in front of it (pyenv's shims,
about 0.1-0.2 s) is counted on neither side.

Two settings: ``installed`` -- the modules' bytecode as ``pip install`` leaves it
(``setup.py`` compiles it); ``--cold`` adds ``uncompiled`` -- a copy of ``cli/`` and
``solver/`` without bytecode, with ``PYTHONDONTWRITEBYTECODE`` set, so that every run
compiles every module it imports (what a checkout run without installing it costs).
Wall-clock medians and p95s, and each median's ratio to the baseline's.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks.common import machine, median, p95, print_machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BARE = "import click, tabulate"
SLEUTH = "import sys; from cli.main import main; main()"

#: a small record of each kind and the statement ``log`` appends to it (also the records of
#: ``tests/test_startup.py``)
SMALL = {
    "mystery-hand": ("""game: mystery-hand
players: Ana Ben Cleo Dev
dealer: Dev
me: Ben
Ben holds: KS 4H 7H JH QH 4D 9D 3C 4C 7C 8C 2S
Ana asks all 9H-QH: Ben 2, Cleo 0, Dev 0
Ben asks all AH-4H: Ana 1, Cleo 1, Dev 0
Cleo asks Dev JS-AS: 0
""", "Dev asks Ana 2H-5H: 2"),
    "literature": ("""game: literature
players: Ana Ben Cleo Dev Eli Fay
me: Ana
Ana holds: 2H 3H 4H 6H 7H 9S JC QD
Ana asks Ben 10S: no
Ben asks Cleo 9D: no
""", "Cleo asks Ben 3H: no"),
}
#: label -> (arguments, extra environment, record to write first or None, its statement)
COMMANDS = {
    "sleuth --help": (["--help"], {}, None),
    "sleuth --version": (["--version"], {}, None),
    "completion of a command": ([], {"_SLEUTH_COMPLETE": "bash_complete",
                                     "COMP_WORDS": "sleuth re", "COMP_CWORD": "1"}, None),
    "sleuth log (Mystery Hand, 4 players)": (["log", "{record}", SMALL["mystery-hand"][1]],
                                              {}, SMALL["mystery-hand"][0]),
    "sleuth log (Literature, 6 players)": (["log", "{record}", SMALL["literature"][1]],
                                            {}, SMALL["literature"][0]),
}


def _run(argv, env, cwd) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr[-500:]}")
    return wall


def _uncompiled_copy(tmp: str) -> str:
    """``cli/`` and ``solver/`` (and the samples the help reads) without any bytecode."""
    root = os.path.join(tmp, "uncompiled")
    for d in ("cli", "solver", "samples"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(root, d),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


def measure(runs: int, cold: bool = False) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = [("installed", ROOT, {})]
        if cold:
            settings.append(("uncompiled", _uncompiled_copy(tmp),
                             {"PYTHONDONTWRITEBYTECODE": "1"}))
        record = os.path.join(tmp, "game.txt")
        for setting, root, extra in settings:
            base_env = dict(os.environ, PYTHONPATH=root, **extra)
            for label, (args, env_add, text) in COMMANDS.items():
                env = dict(base_env, **env_add)
                bare, ours = [], []
                for _ in range(runs):
                    if text is not None:
                        with open(record, "w", encoding="utf-8") as f:
                            f.write(text)
                    argv = [a.format(record=record) for a in args]
                    ours.append(_run([sys.executable, "-c", SLEUTH] + argv, env, tmp))
                    bare.append(_run([sys.executable, "-c", BARE], base_env, tmp))
                rows.append(dict(setting=setting, command=label, runs=runs,
                                 median=median(ours), p95=p95(ours), bare_median=median(bare),
                                 bare_p95=p95(bare), ratio=median(ours) / median(bare)))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="runs of each command (and of the "
                    "baseline beside it)")
    ap.add_argument("--cold", action="store_true",
                    help="also measure a copy without bytecode, compiled at every run")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    info = machine()
    rows = measure(a.runs, a.cold)
    print("# Start-up against `python -c \"import click, tabulate\"`\n")
    print_machine(info)
    print()
    print("| setting | command | median | p95 | bare import median | p95 | ratio (medians) |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['setting']} | {r['command']} | {r['median'] * 1e3:.0f} ms | "
              f"{r['p95'] * 1e3:.0f} ms | {r['bare_median'] * 1e3:.0f} ms | "
              f"{r['bare_p95'] * 1e3:.0f} ms | {r['ratio']:.2f}x |")
    worst = max(rows, key=lambda r: r["ratio"])
    print(f"\nLargest ratio {worst['ratio']:.2f}x ({worst['command']}, {worst['setting']}); "
          "target <= 2x.")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": info, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
