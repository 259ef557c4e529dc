"""A bounded, seeded mutation fuzz over every sample of every game (issue 12;
docs/reliability.md).

Each sample is cut to a short prefix (so that analyses stay cheap) and mutated -- lines
deleted, duplicated, swapped, truncated; characters flipped; Unicode injected (RTL and
zero-width marks, emoji, combining marks, non-ASCII digits); invalid UTF-8; CRLF; a BOM;
NUL; long lines; long files -- then fed to ``analyze``, ``analyze --json``, ``replay``,
``why``, ``log`` and ``play`` in-process (``click.testing.CliRunner`` on ``cli.main.cli``).
Every run must end without a traceback, with an exit status in {0, 2, 3, 4}, with valid
JSON where JSON was asked for, and a refused ``log`` must leave the file byte-identical
(a refused ``play`` line too).

About 300 inputs in CI.  ``SLEUTH_FUZZ=5000`` runs about that many inputs instead,
``SLEUTH_FUZZ_SEED=n`` another seed; a failure names the sample, the seed, the case and
the mutations, and the mutated file is kept next to the test's ``tmp_path``.
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli, walk_commands
from solver.errors import SleuthError
from solver.records import parse_record, read_record

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*/*.txt"))
EXIT_CODES = {0, 2, 3, 4}

#: inputs over all samples (a mutated record counts once per command it is run with)
TOTAL = int(os.environ.get("SLEUTH_FUZZ") or 300)
SEED = int(os.environ.get("SLEUTH_FUZZ_SEED", "12"))
#: statements kept from each sample (analyses of long records would dominate the cost)
PREFIX = 8
#: ``why`` (CP-SAT explanations) is the dearest command: every so many records only
WHY_EVERY = 3

UNICODE = ["\u200f", "\u202e", "\u200b", "\u200d", "\ufeff", "\U0001F0A1", "\U0001F600",
           "\u0301", "\u0308", "²", "٣", "۳", "５", "Ⅻ", "\u00a0", "\u2028", "\u0085",
           "é", "ß", "İ", "♠", "♥", "\x0c", "\t", "\x1b[31m"]
#: line numbers and counts as they could be typed to the session's commands
NUMBERS = ["1", "9", "0", "-1", "²", "٣", "۳", "99999999999999999999", "1e3", "", "x"]
BAD_BYTES = [b"\xff", b"\xfe", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80"]


def prefix(path: Path, n: int = PREFIX) -> str:
    """The sample with its first ``n`` statements (header, comments and blank lines kept)."""
    text = path.read_text(encoding="utf-8")
    rec = read_record(str(path))
    if len(rec.statements) <= n:
        return text
    cut = rec.statements[n - 1].line
    return "\n".join(text.splitlines()[:cut]) + "\n"


# ----- mutations (bytes -> bytes) ------------------------------------------------------------
def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def m_delete(rnd, data):
    ls = _lines(data)
    del ls[rnd.randrange(len(ls))]
    return b"\n".join(ls)


def m_duplicate(rnd, data):
    ls = _lines(data)
    i = rnd.randrange(len(ls))
    ls.insert(i, ls[i])
    return b"\n".join(ls)


def m_swap(rnd, data):
    ls = _lines(data)
    i, j = rnd.randrange(len(ls)), rnd.randrange(len(ls))
    ls[i], ls[j] = ls[j], ls[i]
    return b"\n".join(ls)


def m_truncate(rnd, data):
    return data[:rnd.randrange(len(data) + 1)]


def m_flip(rnd, data):
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randrange(len(b))
        b[i] = rnd.choice(b" -:,#*x0123456789AJQKTSHDCanwsk" + bytes([rnd.randrange(1, 128)]))
    return bytes(b)


def m_unicode(rnd, data):
    i = rnd.randrange(len(data) + 1)
    while i < len(data) and (data[i] & 0xC0) == 0x80:     # not inside a UTF-8 sequence
        i += 1
    return data[:i] + rnd.choice(UNICODE).encode() + data[i:]


def m_bad_utf8(rnd, data):
    i = rnd.randrange(len(data) + 1)
    return data[:i] + rnd.choice(BAD_BYTES) + data[i:]


def m_crlf(rnd, data):
    return data.replace(b"\n", b"\r\n") if rnd.random() < 0.7 else data.replace(b"\n", b"\r")


def m_bom(rnd, data):
    return b"\xef\xbb\xbf" + data


def m_nul(rnd, data):
    i = rnd.randrange(len(data) + 1)
    return data[:i] + b"\x00" + data[i:]


def m_long_line(rnd, data):
    ls = _lines(data)
    i = rnd.randrange(len(ls))
    words = ls[i].split() or [b"AS"]
    ls[i] = ls[i] + b" " + b" ".join([rnd.choice(words)] * rnd.choice([50, 800, 4000]))
    return b"\n".join(ls)


def m_long_file(rnd, data):
    ls = _lines(data)
    body = ls[len(ls) // 2:] or ls
    return b"\n".join(ls + body * rnd.choice([5, 40, 200]))


MUTATIONS = [m_delete, m_duplicate, m_swap, m_truncate, m_flip, m_unicode, m_bad_utf8, m_crlf,
             m_bom, m_nul, m_long_line, m_long_file]
#: the cheap mutations, weighted up (the long ones are expensive to refuse only once each)
WEIGHTS = [3, 3, 3, 2, 4, 4, 2, 1, 1, 1, 1, 1]


def mutate(rnd: random.Random, data: bytes) -> tuple[bytes, list[str]]:
    names = []
    for _ in range(rnd.choice([1, 1, 2, 3])):
        m = rnd.choices(MUTATIONS, WEIGHTS)[0]
        data = m(rnd, data) if data else data
        names.append(m.__name__[2:])
    return data, names


# ----- the checks ----------------------------------------------------------------------------
def invoke(args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def check(r, what: str, json_out: bool = False, message: bool = True) -> None:
    assert r.exception is None or isinstance(r.exception, SystemExit), \
        f"{what}: {r.exception!r}\n{r.output[-2000:]}"
    assert r.exit_code in EXIT_CODES, f"{what}: exit {r.exit_code}\n{r.output[-2000:]}"
    if r.exit_code != 0 and message:   # a message ('play' reports refusals on stdout), or
        # Click's usage error (a statement that starts with '-' reads as an option)
        assert r.stderr.startswith(("sleuth: ", "Usage: ")), f"{what}: {r.stderr[-500:]!r}"
    if json_out and r.exit_code in (0, 3):
        try:
            obj = json.loads(r.stdout)
        except ValueError:
            raise AssertionError(f"{what}: not JSON: {r.stdout[:500]!r}") from None
        if r.exit_code == 3:
            assert obj.get("consistent") is False, what


def some_card(data: bytes, rnd: random.Random) -> str:
    toks = [t for t in data.decode("utf-8", "replace").replace(",", " ").split()
            if 2 <= len(t) <= 3 and t[-1:] in "SHDC" and t[:-1].isalnum()]
    return rnd.choice(toks) if toks else rnd.choice(["AS", "10H", "Jk", "ZZ", "1", "¹S"])


def statement_lines(text: str) -> list[str]:
    out = []
    for ln in text.splitlines():
        body = ln.split("#", 1)[0].strip()
        if body and body.split(":", 1)[0].strip().lower() not in (
                "game", "players", "variant", "me", "dealer"):
            out.append(ln)
    return out or ["Ana asks Ben 4H-7H: 0"]


def mutate_statement(rnd: random.Random, stmt: str) -> str:
    """A statement as it could come from a terminal: mutated, decoded with surrogate
    escapes (the way ``sys.argv`` and piped input carry bytes that are not UTF-8)."""
    data = stmt.encode()
    kinds = [m_flip, m_unicode, m_bad_utf8, m_nul, m_truncate, m_long_line]
    for _ in range(rnd.choice([1, 1, 2])):
        data = rnd.choice(kinds)(rnd, data) if data else data
    if rnd.random() < 0.15:
        data = rnd.choice([b"", b"  ", b"# a note", b"me: X", b"variant: sneak", b"\r",
                           data + b"\r" + data, data + b"\n" + data])
    return data.decode("utf-8", "surrogateescape")


def fuzz_sample(sample: Path, tmp: Path, n_inputs: int, seed: int) -> int:
    """Run about ``n_inputs`` fuzz inputs on one sample; returns how many ran."""
    base = prefix(sample).encode()
    short = prefix(sample, 4).encode()
    statements = statement_lines(sample.read_text(encoding="utf-8"))
    rnd = random.Random(f"{seed}:{sample.parent.name}/{sample.name}")
    done = case = 0
    while done < n_inputs:
        case += 1
        tag = f"{sample.parent.name}/{sample.name} seed={seed} case={case}"
        # a mutated record through the read-only commands
        data, names = mutate(rnd, base)
        path = tmp / f"case{case}.txt"
        path.write_bytes(data)
        what = f"{tag} mutations={names} file={path}"
        check(invoke(["analyze", path]), "analyze " + what)
        check(invoke(["analyze", path, "--json"]), "analyze --json " + what, json_out=True)
        check(invoke(["replay", path, "--upto", 3]), "replay " + what)
        done += 3
        if case % WHY_EVERY == 1:
            small, names2 = mutate(rnd, short)
            path2 = tmp / f"case{case}-why.txt"
            path2.write_bytes(small)
            check(invoke(["why", path2, some_card(small, rnd)]),
                  f"why {tag} mutations={names2} file={path2}")
            done += 1
        # log: a mutated statement into the record (or into the mutated record)
        for target in (base, data):
            rec = tmp / f"case{case}-log.txt"
            rec.write_bytes(target)
            stmt = mutate_statement(rnd, rnd.choice(statements))
            r = invoke(["log", rec, stmt])
            check(r, f"log {stmt!r} {tag} mutations={names}")
            if r.exit_code != 0:
                assert rec.read_bytes() == target, f"refused log changed the file: {tag}"
            else:
                parse_record(rec.read_text(encoding="utf-8"), str(rec))   # still a record
            done += 1
        # play: a few mutated lines and commands, piped
        if case % 2 == 0:
            rec = tmp / f"case{case}-play.txt"
            rec.write_bytes(base)
            lines = [mutate_statement(rnd, rnd.choice(statements)).encode("utf-8",
                                                                           "surrogateescape")
                     for _ in range(3)]
            number = rnd.choice(NUMBERS).encode()
            lines.insert(rnd.randrange(4), rnd.choice(
                [b"undo", b"redo", b"sheet", b"why " + some_card(base, rnd).encode(),
                 b"whatif " + statements[0].encode(), b"force", b"help", b"\xff\xfe",
                 b"# note \xff", b"delete " + number, b"suggest " + number,
                 b"edit " + number + b" " + lines[0]]))
            args = ["play", rec, "--no-sheet"] + (["--json"] if case % 4 == 0 else [])
            r = CliRunner().invoke(cli, [str(a) for a in args], input=b"\n".join(lines) + b"\n")
            check(r, f"play {lines!r} {tag}", message=False)
            if "--json" in args:
                for ln in r.stdout.split("\n"):     # JSON Lines: one object a '\n' line
                    if ln:
                        json.loads(ln)
            try:                                   # the file is always a record
                parse_record(rec.read_text(encoding="utf-8"), str(rec))
            except SleuthError as e:
                raise AssertionError(f"play left a broken record ({e}): {tag}") from None
            done += 1
    return done


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fuzz_sample(sample, tmp_path):
    per_sample = max(8, TOTAL // len(SAMPLES))
    assert fuzz_sample(sample, tmp_path, per_sample, SEED) >= per_sample


def test_mutations_change_the_input():
    """Every mutation does something (a fuzz whose mutations were no-ops could not fail)."""
    rnd = random.Random(0)
    data = prefix(SAMPLES[0]).encode()
    for m in MUTATIONS:
        assert any(m(rnd, data) != data for _ in range(5)), m.__name__


# ----- every command, hostile arguments ------------------------------------------------------
def leaf_commands():
    import click

    return [(list(path), cmd) for path, cmd in walk_commands()
            if not isinstance(cmd, click.Group)]


ARG_WORDS = ["7D AC 9D | 5S 5C AC | QC KC Jk", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AC AC AH",
             "5H 5H 9S 9S KD KD 2C 3H 4H 6S 7S 8D 10C AC", "9C 10C AS", "JC 7C 5D", "QS", "7C",
             "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H", "MH-7", "LIT-6", "mystery-hand",
             "hand", "literature", "mysterium", "twenty-two", "KS", "Ana", "public", "-", "0",
             "-1", "99999999999", "²", "٣", "", " ", "\x00", "\udcff", "\u202e", "Jk Jk Jk",
             "AS " * 300, "x" * 3000]


def hostile_args(rnd: random.Random, cmd, record: Path) -> list[str]:
    import click

    args: list[str] = []
    for p in cmd.params:
        if isinstance(p, click.Option):
            if p.name in ("help",) or rnd.random() < 0.6:
                continue
            if p.is_flag:
                args.append(p.opts[0])
            else:
                args += [p.opts[0], rnd.choice(ARG_WORDS)]
        elif isinstance(p, click.Argument):
            n = 1 if p.nargs == 1 else rnd.randint(0, 3)
            for _ in range(n):
                if "record" in p.name and rnd.random() < 0.8:
                    args.append(str(record))
                else:
                    args.append(rnd.choice(ARG_WORDS))
    return args


COMMANDS = leaf_commands()
#: commands that write a file given as an argument, and ones too dear to fuzz in CI here
#: (they have their own tests above: analyze, replay, why, log, play); ``serve`` runs until
#: it is stopped (its refusals of bad arguments and records: tests/test_serve_app.py)
SKIP = {("demo",), ("play",), ("replay",), ("analyze",), ("why",), ("log",), ("serve",)}


@pytest.mark.parametrize("path, cmd", [(p, c) for p, c in COMMANDS if tuple(p) not in SKIP],
                         ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_fuzz_every_command_with_hostile_arguments(path, cmd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)        # files a command writes (review --html X) stay there
    rnd = random.Random(f"{SEED}:{' '.join(path)}")
    runs = max(6, TOTAL // 40)
    for case in range(runs):
        sample = rnd.choice(SAMPLES)
        data, names = mutate(rnd, prefix(sample, 4).encode())
        record = tmp_path / f"case{case}.txt"
        record.write_bytes(data if rnd.random() < 0.5 else prefix(sample, 4).encode())
        args = path + hostile_args(rnd, cmd, record)
        if "new" in path or "simulate" in path:
            args = [a if a != str(record) else str(tmp_path / f"out{case}.txt") for a in args]
        check(invoke(args), f"{args!r} sample={sample.name} mutations={names}",
              json_out="--json" in args)
