"""What an audit still found around "nothing typed is lost" (docs/reliability.md), each test
failing without its fix:

* piped ``play`` read a line of any length whole: a 200 MB line took 1.2 GB and seconds,
  and was refused as "the record is too long", quoting nothing of it.
"""
from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.records import MAX_LINE_CHARS
from tests.test_writers import HEADER, turn_lines


# ----- piped play: a line is read within the bound of a statement ----------------------------

class EndlessLine(io.RawIOBase):
    """Standard input holding ``before``, then one line of ``size`` bytes (never built: it is
    served in the pieces asked for), then ``after``.  ``readline`` without a bound, or
    with one over a MiB, fails: it would hold the whole line."""

    def __init__(self, before: bytes, size: int, after: bytes):
        self.parts = [before, b"Ana asks Ben 5*: ", size, b"\n" + after]
        self.asked: list[int] = []

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        got = self.readline(len(b))
        b[:len(got)] = got
        return len(got)

    def readline(self, size: int | None = -1) -> bytes:
        size = -1 if size is None else size
        self.asked.append(size)
        assert 0 <= size <= 1 << 20, f"readline({size}) of a {self.parts} line"
        out = b""
        while self.parts and len(out) < size and not out.endswith(b"\n"):
            part = self.parts[0]
            if isinstance(part, int):       # the long line's 'x's, as many as asked
                n = min(part, size - len(out))
                out += b"x" * n
                if part == n:
                    self.parts.pop(0)
                else:
                    self.parts[0] = part - n
                continue
            cut = part.find(b"\n", 0, size - len(out))
            n = size - len(out) if cut < 0 else cut + 1
            out += part[:n]
            self.parts[0] = part[n:]
            if not self.parts[0]:
                self.parts.pop(0)
        return out


@pytest.mark.parametrize("as_json", [False, True])
def test_a_huge_piped_line_is_refused_without_being_read_whole(tmp_path, as_json):
    """300 MB on one line (over the documented 256 MB bound on its own): refused by its
    line of the input, quoting its start; the lines before and after it are saved."""
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    stdin = EndlessLine(b"turn: Ben\n", 300 << 20, b"turn: Cleo\n")
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"]
                           + (["--json"] if as_json else []), input=stdin)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2, r.output[-2000:]
    assert max(stdin.asked) <= 1 << 20 and not stdin.parts     # bounded reads, to the end
    assert turn_lines(path) == ["turn: Ben", "turn: Cleo"]
    said = (f"<stdin>:2: the line is too long ({(300 << 20) + 18:,} bytes; a line is at most "
            f"{MAX_LINE_CHARS:,} characters), so it was not read: 'Ana asks Ben 5*: xxx")
    assert said in r.output
    assert len(r.output) < 20_000           # the line is neither echoed nor quoted whole


def test_a_long_piped_line_is_refused_by_its_line_of_the_input(tmp_path):
    """Read from a real stream (a blank line counts: it is the input's line 3)."""
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    long = "Ana asks Ben 5*: " + "é" * 60_000
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"],
                           input=f"turn: Ben\n\n{long}\nturn: Cleo\n".encode())
    assert r.exit_code == 2, r.output[-2000:]
    assert f"<stdin>:3: the line is too long ({len(long.encode()) + 1:,} bytes; a line " \
        f"is at most {MAX_LINE_CHARS:,} characters), so it was not read: " \
        f"'{long[:40]}...'" in r.output
    assert turn_lines(path) == ["turn: Ben", "turn: Cleo"]
