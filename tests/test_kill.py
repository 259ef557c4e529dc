"""``sleuth log`` and ``sleuth play`` killed with SIGKILL in the middle of saving (issue 12;
docs/reliability.md): the record is always exactly the old or the new content, and no
temporary file is left once the next command has run.

Bounded and seeded: ``KILLS`` kills of each command (``SLEUTH_KILLS`` for more).  Half of
the runs are killed at a random moment of their whole run; the other half run with a
slowed save (``os.fsync`` and ``os.replace`` made slower in that child process only) and
are killed at a random moment once their temporary file exists, so that a kill lands
inside the save itself.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path


from solver.records import parse_record, read_record

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "mystery-hand" / "five-players-ana.txt"
KILLS = int(os.environ.get("SLEUTH_KILLS") or 10)
SEED = int(os.environ.get("SLEUTH_FUZZ_SEED", "12"))

#: the child: ``sleuth`` itself, optionally with a slow save (so a kill can land inside it)
CHILD = """
import os, sys, time
if os.environ.get("SLEUTH_TEST_SLOW_SAVE"):
    delay = float(os.environ["SLEUTH_TEST_SLOW_SAVE"])
    real_fsync, real_replace = os.fsync, os.replace
    def fsync(fd):
        time.sleep(delay)
        return real_fsync(fd)
    def replace(a, b):
        time.sleep(delay)
        return real_replace(a, b)
    os.fsync, os.replace = fsync, replace
from cli.main import main
main()
"""


def sample_parts() -> tuple[str, list[str]]:
    """The sample's text up to its third statement, and the statements after it."""
    text = SAMPLE.read_text(encoding="utf-8")
    rec = read_record(str(SAMPLE))
    lines = text.splitlines()
    cut = rec.statements[2].line
    base = "\n".join(lines[:cut]) + "\n"
    rest = [s.text for s in rec.statements[3:]]
    return base, rest


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".sleuth-"))


def spawn(args, slow: float | None, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    env.pop("SLEUTH_TEST_SLOW_SAVE", None)
    if slow:
        env["SLEUTH_TEST_SLOW_SAVE"] = str(slow)
    return subprocess.Popen([sys.executable, "-c", CHILD, *map(str, args)], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def next_run(args, stdin: bytes = b""):
    """The next command, run to its end (in-process: only the killed runs need a process)."""
    from click.testing import CliRunner

    from cli.main import cli

    return CliRunner().invoke(cli, [str(a) for a in args], input=stdin)


def kill_at(proc, rnd: random.Random, folder: Path, window: float, slow: bool) -> None:
    """SIGKILL ``proc``: at a random moment of ``window`` seconds, or (``slow``) at a random
    moment after its temporary file appears."""
    if slow:
        deadline = time.monotonic() + 30
        while not temporaries(folder) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(rnd.uniform(0, 0.25))
    else:
        time.sleep(rnd.uniform(0, window))
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)


def measure(args, stdin: bytes | None = None) -> float:
    t = time.monotonic()
    p = spawn(args, None, stdin)
    p.communicate(stdin, timeout=120)
    return time.monotonic() - t


def test_killed_log_leaves_the_old_or_the_new_record(tmp_path):
    base, rest = sample_parts()
    rec = tmp_path / "game.txt"
    rec.write_text(base, encoding="utf-8")
    rnd = random.Random(SEED)
    scratch = tmp_path / "scratch.txt"                   # how long one run takes
    scratch.write_text(base, encoding="utf-8")
    window = measure(["log", scratch, rest[0]]) * 1.1
    old, i, kills, left = base, 0, 0, 0
    while kills < KILLS and i < len(rest):
        new = old + rest[i] + "\n"
        slow = kills % 2 == 1
        proc = spawn(["log", rec, rest[i]], 0.4 if slow else None)
        kill_at(proc, rnd, tmp_path, window, slow)
        kills += 1
        now = rec.read_text(encoding="utf-8")
        assert now in (old, new), f"kill {kills}: neither old nor new"
        parse_record(now, str(rec))
        if now == new:
            old, i = new, i + 1
        left += bool(temporaries(tmp_path))
        # the next run (here a refused one: it writes nothing) removes what the kill left
        r = next_run(["log", rec, "# note"])
        assert r.exit_code == 2, r.output
        assert temporaries(tmp_path) == [], f"kill {kills}: a temporary was left"
        assert rec.read_text(encoding="utf-8") == old
    assert kills == KILLS
    assert left >= 1                 # some kill landed inside a save and left a temporary


def test_killed_play_leaves_a_prefix_of_the_session(tmp_path):
    base, rest = sample_parts()
    rec = tmp_path / "game.txt"
    rnd = random.Random(SEED + 1)
    lines = rest[:6]
    stdin = ("\n".join(lines) + "\n").encode()
    scratch = tmp_path / "scratch.txt"
    scratch.write_text(base, encoding="utf-8")
    window = measure(["play", scratch, "--no-sheet"], stdin) * 1.1
    states = [base + "".join(s + "\n" for s in lines[:k]) for k in range(len(lines) + 1)]
    seen = set()
    for kill in range(KILLS):
        rec.write_text(base, encoding="utf-8")
        slow = kill % 2 == 1
        proc = spawn(["play", rec, "--no-sheet"], 0.05 if slow else None, stdin)
        try:
            proc.stdin.write(stdin)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        kill_at(proc, rnd, tmp_path, window, slow)
        now = rec.read_text(encoding="utf-8")
        assert now in states, f"kill {kill}: not a state the session went through"
        seen.add(states.index(now))
        r = next_run(["play", rec, "--no-sheet"], b"quit\n")
        assert r.exit_code == 0, r.output
        assert temporaries(tmp_path) == [], f"kill {kill}: a temporary was left"
    assert len(seen) >= 2            # the kills landed at different moments
