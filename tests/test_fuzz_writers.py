"""A seeded fuzz of writers at once (docs/reliability.md, "Concurrent writers"): rounds of
``sleuth log`` processes on one record, each with a statement that is valid or mutated
(characters flipped, control and line-separator characters injected, words swapped), an
in-process ``play`` session writing between them, and interrupts (SIGINT) sent to some of
the processes at random moments.

Asserted, and nothing else: every exit status is a documented one (0, 2, 3, 130, or the
interrupt's; an interrupt inside the interpreter's own start-up, before the first lines
of ``cli/__init__.py`` have installed the handler, is answered by Python itself, with its
own traceback and exit 1 at worst); otherwise no traceback; every writer that said it logged its statement finds it in the
final file (each carries a unique ``# w<N>`` tag); a statement refused leaves no trace; the
record still parses; no temporary or lock file is left behind.

``SLEUTH_FUZZ_WRITERS=N`` runs N rounds instead of 4, ``SLEUTH_FUZZ_SEED`` another seed.
"""
from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from solver.records import parse_record, split_lines
from solver.session import Session

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = int(os.environ.get("SLEUTH_FUZZ_WRITERS") or 4)
SEED = int(os.environ.get("SLEUTH_FUZZ_SEED", "12"))
EXIT_CODES = {0, 2, 3, 130, -signal.SIGINT}
HEADER = "game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n# a spectator's record\n"
VALID = ["turn: Ana", "turn: Ben", "turn: Cleo", "turn: Dev"]
INJECT = ["\x0c", "\x0b", "\r", "\u2028", "\x85", "\x1b", "\u202e", "é", "#", ":"]


#: the line of cli/__init__.py that installs the Ctrl-C handler: an interrupt raised at or
#: before it comes before the program could catch it
INSTALL_LINE = next(i for i, ln in enumerate((ROOT / "cli" / "__init__.py").read_text()
                                             .splitlines(), 1) if "INSTALLED" in ln)


def before_ours(stderr: str) -> bool:
    """A KeyboardInterrupt raised in Python's own start-up (site and its ``.pth`` files,
    runpy finding the module) or in ``cli/__init__.py`` before its handler is installed:
    no frame of the traceback is in the project's code past that line.  (Had the program
    started, its own frames would be the outermost.)"""
    frames = [ln.strip() for ln in stderr.splitlines() if ln.lstrip().startswith("File ")]

    def early(frame: str) -> bool:
        m = re.match(r'File "(.*)", line (\d+)', frame)
        if not m or m.group(1).startswith("<"):
            return True             # frozen start-up code, a .pth line
        path = Path(m.group(1))
        if path == ROOT / "cli" / "__init__.py":
            return int(m.group(2)) <= INSTALL_LINE
        return ROOT not in path.parents

    # (no frame at all: the interpreter's own fatal start-up error, e.g. "init_sys_streams")
    return "KeyboardInterrupt" in stderr and all(map(early, frames))


def test_before_ours_tells_the_interpreters_start_up_from_the_programs():
    frozen = ('Traceback (most recent call last):\n  File "<frozen runpy>", line 189, in x\n'
              '  File "<frozen importlib._bootstrap>", line 1176, in y\nKeyboardInterrupt\n')
    ours = frozen.replace('  File "<frozen runpy>"', f'  File "{ROOT}/cli/main.py"')
    assert before_ours(frozen) and not before_ours(ours)
    assert not before_ours("sleuth: interrupted\n")
    site = frozen.replace("<frozen runpy>", "/usr/lib/python3.11/site-packages/x.py")
    assert before_ours(site)
    assert before_ours("Fatal Python error: init_sys_streams: can't initialize sys standard "
                       "streams\nPython runtime state: core initialized\nKeyboardInterrupt\n")
    first = frozen.replace('  File "<frozen runpy>", line 189',
                           f'  File "{ROOT}/cli/__init__.py", line {INSTALL_LINE}')
    later = first.replace(f"line {INSTALL_LINE}", f"line {INSTALL_LINE + 1}")
    assert before_ours(first) and not before_ours(later)


def mutate(rng: random.Random, stmt: str) -> str:
    """One statement-level mutation of ``stmt`` (or ``stmt`` itself, half the time)."""
    kind = rng.randrange(6)
    if kind <= 2:
        return stmt
    i = rng.randrange(len(stmt) + 1)
    if kind == 3:
        return stmt[:i] + rng.choice(INJECT) + stmt[i:]
    if kind == 4:
        return stmt[:i] + chr(rng.randrange(33, 127)) + stmt[i + 1:]
    words = stmt.split()
    rng.shuffle(words)
    return " ".join(words)


def test_writers_at_once_lose_nothing(tmp_path):
    rng = random.Random(SEED)
    record = tmp_path / "game.txt"
    record.write_text(HEADER)
    said_logged: list[str] = []
    refused: list[str] = []
    tag = 0
    for _ in range(ROUNDS):
        procs = []
        for _ in range(rng.randrange(3, 7)):
            tag += 1
            text = f"{mutate(rng, rng.choice(VALID))}   # w{tag}"
            p = subprocess.Popen([sys.executable, "-m", "cli.main", "log", str(record), text],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
            procs.append((f"w{tag}", p))
        # a play session writing in the middle of it all
        tag += 1
        session_tag = f"w{tag}"
        out = {}
        player = threading.Thread(target=lambda: out.setdefault(
            "o", Session(str(record)).handle(f"{rng.choice(VALID)}   # {session_tag}")))
        player.start()
        victims = [p for _, p in procs if rng.random() < 0.3]
        time.sleep(rng.uniform(0.05, 0.8))
        for p in victims:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for name, p in procs:
            stdout, stderr = p.communicate(timeout=120)
            if before_ours(stderr):
                # interrupted inside Python's own start-up, before any of ours: it says so
                # as Python does, and whatever it did, the checks on the file below hold
                assert p.returncode in EXIT_CODES | {1}, (name, p.returncode, stderr)
            else:
                assert p.returncode in EXIT_CODES, (name, p.returncode, stderr)
                assert "Traceback" not in stderr, stderr
            if p.returncode == 0:
                assert stdout.startswith("logged line "), stdout
                said_logged.append(name)
            elif p.returncode in (2, 3):
                refused.append(name)
        player.join(60)
        if out["o"].kind == "accepted":
            said_logged.append(session_tag)
        else:
            refused.append(session_tag)
    text = record.read_text()
    parse_record(text, str(record))
    tags = [ln.rsplit("# ", 1)[1] for ln in split_lines(text) if "# w" in ln]
    for name in said_logged:
        assert name in tags, (name, text)
    for name in refused:
        assert name not in tags, (name, text)
    assert len(tags) == len(set(tags))
    assert sorted(os.listdir(tmp_path)) == ["game.txt"]      # no temporary, no lock file
    assert len(said_logged) >= ROUNDS                          # the fuzz did write
