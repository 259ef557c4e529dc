"""Nothing lost, no traceback (issue 12; docs/reliability.md): one test (or table) per class
of failure -- a refused ``log`` leaves the file byte-identical, atomic saves (symlinks,
modes, read-only files, the umask, stale temporaries), clear errors instead of tracebacks
(bytes that are not UTF-8, a failing disk), linear input checks, located messages,
reserved player names, records on standard input, the exit codes.

Everything runs in-process through ``click.testing.CliRunner`` on ``cli.main.cli``.
"""
from __future__ import annotations

import errno
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli, handle_errors, walk_commands
from solver.errors import (BudgetError, FileError, InconsistentError, NotationError, RuleError,
                           SleuthError)
from solver.games import get_game
from solver.records import (MAX_LINE_CHARS, MAX_RECORD_BYTES, atomic_write, clean_temporaries,
                            parse_record, read_record, reserved_names)
from solver.session import Session, checked_append

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
EXIT_CODES = {0, 2, 3, 4}

HEADER = "# a game at the table\ngame: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
HOLDS = "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"
ASK = "Ana asks Ben 4H-7H: 4H 7H"
ASK_ALL = "Ben asks all 6*: Ana 1, Cleo 1, Dev 2"
CONTRA = "Cleo asks Dev 6*: 0"          # Dev showed two sixes in ASK_ALL


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def no_traceback(r) -> None:
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code in EXIT_CODES, (r.exit_code, r.output)
    assert "Traceback" not in r.output


def temporaries(folder) -> list[str]:
    return sorted(p.name for p in Path(folder).iterdir() if p.name.startswith(".sleuth-"))


@pytest.fixture
def fresh(tmp_path):
    """A header-only record."""
    p = tmp_path / "game.txt"
    p.write_bytes(HEADER.encode())
    return p


@pytest.fixture
def played(tmp_path):
    """A record with statements, CRLF line ends and no final newline (an edited file)."""
    p = tmp_path / "game.txt"
    p.write_bytes((HEADER + HOLDS + "\n" + ASK + "   # shown to me\n" + ASK_ALL)
                  .replace("\n", "\r\n").encode())
    return p


# ----- 1. a refused log leaves the file byte-identical ---------------------------------------
REFUSALS = [
    ("", 2), ("   ", 2), ("\t", 2), ("# a note", 2), ("   # a note", 2),
    ("me: Ben", 2), ("variant: sneak", 2), ("players: Ana Ben", 2), ("game: literature", 2),
    ("dealer: Ana", 2),
    ("Ana asks Ben 4H-7H: 0\rBen asks Cleo 4S-7S: 0", 2),     # a \r inside: two statements
    ("Ana asks Ben 4H-7H: 0\nBen asks Cleo 4S-7S: 0", 2),
    ("Ana asks Ben 4H-7H: 0\u2028", 2), ("Ana asks Ben 4H-7H: 0\x85", 2),
    ("Ana asks Ben\x00 4H-7H: 0", 2), ("\x1b[31mAna asks Ben 4H-7H: 0", 2),
    ("Ana asks Ben 4H-7H: 0\x7f", 2), ("Ana asks Ben 4H-7H: 0 \x0c", 2),
    ("Ana asks Ben 4H-7H: 0   # \udcff", 2),                    # not UTF-8 (argv bytes)
    ("Ana asks Ben 4H-7H: \udcc3", 2),
    ("Ana askz Ben 4H-7H: 0", 2), ("Eve asks Ben 4H-7H: 0", 2),  # notation
    ("Ana asks Ben 4H-7H: 4H 5H 6H 7H 8H", 2),
    ("Ana asks Ben 4H-7H: ٣", 2), ("Ana asks Ben 4H-7H: ²", 2),  # non-ASCII digits
    ("Ana holds: " + " ".join(["5S"] * 20_000), 2),              # a few MB of cards
    ("Ana asks Ben 4H-7H: " + "0" * (MAX_LINE_CHARS + 5), 2),
]


@pytest.mark.parametrize("statement, code", REFUSALS, ids=range(len(REFUSALS)))
@pytest.mark.parametrize("which", ["fresh", "played"])
def test_refused_log_leaves_the_file_byte_identical(request, which, statement, code):
    path = request.getfixturevalue(which)
    before = path.read_bytes()
    r = run("log", path, statement)
    no_traceback(r)
    assert r.exit_code == code, r.output
    assert r.stderr.startswith("sleuth: ")
    assert path.read_bytes() == before
    assert temporaries(path.parent) == []


def test_refused_contradiction_and_rule_leave_the_file_byte_identical(played):
    before = played.read_bytes()
    for stmt, code in [(CONTRA, 3), ("Dev asks Ana 4H-7H: 1", 2)]:   # contradiction; turn
        r = run("log", played, stmt)
        no_traceback(r)
        assert r.exit_code == code and played.read_bytes() == before


def test_checked_append_refuses_every_kind_before_writing():
    """The same refusals at the library level: nothing is written, an error is raised."""
    for stmt, _ in REFUSALS:
        with pytest.raises(SleuthError):
            checked_append(HEADER, stmt, "game.txt")


def test_accepted_log_after_a_crlf_file(played):
    r = run("log", played, "Cleo asks Dev 4D-7D: 0")
    assert r.exit_code == 0, r.output
    rec = read_record(str(played))
    assert str(rec.statements[-1].event) == "Cleo asks Dev 4D-7D: 0"


# ----- 2. atomic saves -----------------------------------------------------------------------
def test_save_through_a_symlink_updates_the_target_and_keeps_the_link(tmp_path, fresh):
    other = tmp_path / "elsewhere"
    other.mkdir()
    link = other / "link.txt"
    link.symlink_to(os.path.relpath(fresh, other))
    r = run("log", link, HOLDS)
    assert r.exit_code == 0, r.output
    assert link.is_symlink()
    assert fresh.read_text().endswith(HOLDS + "\n")
    assert temporaries(tmp_path) == [] and temporaries(other) == []


def test_save_keeps_the_mode(fresh):
    os.chmod(fresh, 0o640)
    assert run("log", fresh, HOLDS).exit_code == 0
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o640


def test_a_read_only_record_is_refused_with_a_message(fresh):
    """Mode 444 is refused even for root (who could write it): the mode bits are checked."""
    os.chmod(fresh, 0o444)
    before = fresh.read_bytes()
    r = run("log", fresh, HOLDS)
    no_traceback(r)
    assert r.exit_code == 2 and "read-only" in r.stderr and "game.txt" in r.stderr
    assert fresh.read_bytes() == before and stat.S_IMODE(os.stat(fresh).st_mode) == 0o444
    with pytest.raises(FileError, match="read-only"):
        atomic_write(str(fresh), "x")
    s = Session(str(fresh))                 # play: refused, the session goes on
    o = s.handle(HOLDS)
    assert o.kind == "refused" and isinstance(o.error, FileError) and o.exit_code == 2
    assert fresh.read_bytes() == before


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_new_files_honour_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        r = run("new", "mystery-hand", tmp_path / "g.txt", "--players", "Ana Ben Cleo")
        atomic_write(str(tmp_path / "s.txt"), "x\n")
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.output
    assert stat.S_IMODE(os.stat(tmp_path / "g.txt").st_mode) == mode
    assert stat.S_IMODE(os.stat(tmp_path / "s.txt").st_mode) == mode


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temporaries_are_cleaned_and_live_ones_kept(tmp_path, fresh):
    stale = tmp_path / f".sleuth-{dead_pid()}-0a1b2c3d.tmp"
    live = tmp_path / f".sleuth-{os.getpid()}-deadbeef.tmp"
    other = tmp_path / ".sleuth-notes.txt"                 # not one of ours
    for p in (stale, live, other):
        p.write_text("partial")
    assert run("log", fresh, "# only a comment").exit_code == 2   # even a refused run
    assert not stale.exists() and live.exists() and other.exists()
    assert clean_temporaries(str(tmp_path)) == []


def test_temporaries_are_named_with_the_pid(tmp_path, monkeypatch):
    seen = []
    real = os.replace

    def spy(src, dst):
        seen.append(os.path.basename(src))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    atomic_write(str(tmp_path / "g.txt"), "x\n")
    assert re.fullmatch(rf"\.sleuth-{os.getpid()}-[0-9a-f]+\.tmp", seen[0])


# ----- 3. tracebacks -> clear errors ---------------------------------------------------------
BAD_UTF8 = HEADER.encode() + b"# caf\xe9 au lait\n"


def test_invalid_utf8_in_the_record(tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes(BAD_UTF8)
    for args, inp in [(("log", path, HOLDS), None), (("play", path, "--no-sheet"), HOLDS + "\n"),
                      (("analyze", path), None), (("analyze", path, "--json"), None),
                      (("why", path, "KS"), None), (("replay", path), None)]:
        r = run(*args, input=inp)
        no_traceback(r)
        assert r.exit_code == 2 and "not UTF-8" in r.stderr and "game.txt:6:6" in r.stderr
    assert path.read_bytes() == BAD_UTF8


def test_record_edited_into_invalid_utf8_during_play(fresh):
    s = Session(str(fresh))
    assert s.handle(HOLDS).kind == "accepted"
    fresh.write_bytes(fresh.read_bytes() + b"\xff\xfe\n")
    broken = fresh.read_bytes()
    for line in (ASK, "undo", "sheet", "# note", "why 4H", "whatif " + ASK):
        o = s.handle(line)
        assert o.kind == "refused" and "not UTF-8" in str(o.error), line
    assert fresh.read_bytes() == broken


def test_non_utf8_bytes_in_a_piped_play_line(fresh):
    before = fresh.read_bytes()
    for extra in ([], ["--json"]):
        r = CliRunner().invoke(cli, ["play", str(fresh), "--no-sheet", *extra],
                               input=b"Ana holds: 5H\xff 6S\nquit\n")
        no_traceback(r)
        assert r.exit_code == 2 and "not UTF-8" in r.output and "\\xff" in r.output
    assert fresh.read_bytes() == before


def test_a_bom_and_crlf_record_is_read(tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + HOLDS + "\n").replace("\n", "\r\n").encode())
    assert len(read_record(str(path)).statements) == 1
    assert run("log", path, ASK).exit_code == 0


def fail_on_save(monkeypatch, err: int):
    """Every os.open of a temporary fails with ``err`` (a full disk, a read-only folder)."""
    real = os.open

    def boom(path, *a, **k):
        if os.path.basename(str(path)).startswith(".sleuth-"):
            raise OSError(err, os.strerror(err), str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(os, "open", boom)


@pytest.mark.parametrize("err, advice", [(errno.ENOSPC, "disk is full"),
                                         (errno.EROFS, "read-only"),
                                         (errno.EACCES, "permission denied")])
def test_a_failing_save_is_a_message_with_advice(tmp_path, fresh, monkeypatch, err, advice):
    before = fresh.read_bytes()
    fail_on_save(monkeypatch, err)
    out = tmp_path / "sim.txt"
    for args, inp in [(("log", fresh, HOLDS), None),
                      (("play", fresh, "--no-sheet"), HOLDS + "\n"),
                      (("play", fresh, "--json"), HOLDS + "\n"),
                      (("new", "mystery-hand", tmp_path / "n.txt", "--players", "Ana Ben Cleo"),
                       None),
                      (("simulate", "mystery-hand", "--players", 3, "--seed", 1, "-o", out),
                       None)]:
        r = run(*args, input=inp)
        no_traceback(r)
        assert r.exit_code == 2, (args, r.output)
        assert advice in r.output, (args, r.output)
    assert fresh.read_bytes() == before
    assert not out.exists() and not (tmp_path / "n.txt").exists()
    assert temporaries(tmp_path) == []


def test_a_failing_rename_leaves_no_temporary(tmp_path, fresh, monkeypatch):
    before = fresh.read_bytes()

    def boom(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    r = run("log", fresh, HOLDS)
    assert r.exit_code == 2 and "disk is full" in r.stderr
    assert fresh.read_bytes() == before and temporaries(tmp_path) == []


def test_handle_errors_is_the_one_place_for_os_and_unicode_errors():
    import click

    def command(exc):
        @click.command()
        @handle_errors()
        def c():
            raise exc
        return c

    cases = [(OSError(errno.ENOSPC, "No space left on device", "x.txt"), 2, "disk is full"),
             (PermissionError(errno.EACCES, "Permission denied", "x.txt"), 2, "x.txt"),
             (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), 2, "not UTF-8"),
             (BudgetError("CP-SAT could not decide in time"), 4, "in time"),
             (InconsistentError("no deal fits", conflict=[3, 4]), 3, "inconsistent"),
             (RuleError("not your turn", rule="MH-7"), 2, "MH-7")]
    for exc, code, text in cases:
        r = CliRunner().invoke(command(exc), [])
        assert r.exit_code == code and text in r.stderr, (exc, r.output)
    r = CliRunner().invoke(command(KeyError("a bug")), [])      # programming errors stay
    assert isinstance(r.exception, KeyError)


# ----- 4. linear input checks ----------------------------------------------------------------
def test_a_card_repeated_20000_times_is_refused():
    """The duplicate check is linear (it was quadratic: minutes for 20,000 copies); the
    parser is called directly, below the line-length limit of the reader."""
    game = get_game("mystery-hand")
    header = parse_record(HEADER).header
    with pytest.raises(SleuthError, match="listed twice"):     # a rule error (MH-1)
        game.parse_event("Ana holds: " + " ".join(["5S"] * 20_000), header)
    from solver.cards import duplicates, parse_cards

    cards = parse_cards(" ".join(["5S", "6S"] * 10_000))
    assert duplicates(cards) == parse_cards("5S 6S")


def test_oversized_input_is_refused_at_once(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(HEADER.encode() + (b"# " + b"x" * 70 + b"\n") * (MAX_RECORD_BYTES // 72 + 10))
    for args in [("analyze", big), ("log", big, HOLDS), ("replay", big)]:
        r = run(*args)
        assert r.exit_code == 2 and "too long" in r.stderr
    long_line = tmp_path / "line.txt"
    long_line.write_text(HEADER + "# " + "y" * MAX_LINE_CHARS + "\n")
    r = run("analyze", long_line)
    assert r.exit_code == 2 and "line is too long" in r.stderr and "line.txt:6:" in r.stderr


# ----- 5. messages ---------------------------------------------------------------------------
def test_rule_errors_name_the_file_line_and_column(tmp_path):
    src = SAMPLES / "literature" / "ex-a-six-players.txt"
    text = src.read_text().splitlines()
    body = [st.line - 1 for st in read_record(str(src)).statements if " asks " in st.text]
    i, j = body[0], body[1]
    text[i], text[j] = "   " + text[j], text[i]          # out of turn, indented
    path = tmp_path / "lit.txt"
    path.write_text("\n".join(text) + "\n")
    r = run("analyze", path)
    assert r.exit_code == 2
    assert f"lit.txt:{i + 1}:4: " in r.stderr and "<record>" not in r.stderr, r.stderr
    with pytest.raises(RuleError) as e:
        read_record(str(path))
    assert (e.value.path, e.value.line, e.value.column) == (str(path), i + 1, 4)


def test_header_rule_errors_point_at_their_line(tmp_path):
    text = (SAMPLES / "mysterium" / "three-players-lost.txt").read_text()
    path = tmp_path / "m.txt"
    path.write_text(text.replace("players: Gus Ana Ben", "players: Gus"))
    r = run("analyze", path)
    line = next(n for n, l in enumerate(path.read_text().splitlines(), 1)
                if l.startswith("players:"))
    assert r.exit_code == 2 and f"m.txt:{line}:10: " in r.stderr, r.stderr


def test_no_rule_tag_is_printed_twice(tmp_path):
    e = RuleError("played by 2 to 7 players (MY-1)", rule="MY-1", text="Gus")
    assert str(e).count("(MY-1)") == 1
    assert str(RuleError("a bad ask", rule="MH-9")).count("(MH-9)") == 1
    text = (SAMPLES / "mysterium" / "three-players-lost.txt").read_text()
    path = tmp_path / "m.txt"
    path.write_text(text.replace("players: Gus Ana Ben", "players: Gus"))
    r = run("analyze", path)
    assert r.exit_code == 2 and r.stderr.count("(MY-1)") == 1


def test_play_on_a_header_only_record_refuses_header_lines(fresh):
    before = fresh.read_bytes()
    r = run("play", fresh, "--no-sheet", input="me: Ben\nvariant: sneak\nplayers: A B C\n")
    no_traceback(r)
    assert r.exit_code == 2 and "saved line" not in r.output and "None" not in r.output
    assert fresh.read_bytes() == before


@pytest.mark.parametrize("name", sorted(reserved_names("mystery-hand")) + ["Public", "NOBODY"])
def test_reserved_player_names_are_refused(tmp_path, name):
    path = tmp_path / "g.txt"
    r = run("new", "mystery-hand", path, "--players", f"Ana {name} Cleo")
    assert r.exit_code == 2 and "reserved" in r.stderr and not path.exists()
    with pytest.raises(NotationError, match="cannot be a player's name") as e:
        parse_record(f"game: mystery-hand\nplayers: Ana {name} Cleo\n", "g.txt")
    assert (e.value.line, e.value.column) == (2, 14)


def test_records_on_standard_input():
    demo = SAMPLES / "mystery-hand" / "five-players-ana.txt"
    text = demo.read_text()
    a = run("analyze", "-", "--json", input=text)
    b = run("analyze", demo, "--json")
    assert a.exit_code == 0 and a.stdout == b.stdout
    w = run("why", "-", "KS", input=text)
    assert w.exit_code == 0 and w.stdout == run("why", demo, "KS").stdout
    rp = run("replay", "-", "--upto", 2, input=text)
    assert rp.exit_code == 0 and "<stdin>" in rp.stdout
    bad = run("analyze", "-", input=text.replace("Ana asks Dev", "Ana askz Dev"))
    assert bad.exit_code == 2 and bad.stderr.startswith("sleuth: error: <stdin>:")
    for cmd in ("analyze", "why", "replay"):
        assert "'-' reads the record from standard input" in run(cmd, "--help").stdout


def test_budget_errors_exit_4(monkeypatch):
    """A solver that runs out of time is exit 4 with a message (not a TimeoutError)."""
    import solver.model as model
    from ortools.sat.python import cp_model

    def no_time(seconds: float = 10.0, workers: int = 1):
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        s.parameters.max_time_in_seconds = 1e-9
        s.parameters.max_number_of_conflicts = 0
        return s

    monkeypatch.setattr(model.CardLocationModel, "_solver", staticmethod(no_time))
    monkeypatch.setattr(model.CardLocationModel, "witness", lambda self: None)
    r = run("why", SAMPLES / "mystery-hand" / "five-players-ana.txt", "KS")
    assert r.exit_code == 4 and r.stderr.startswith("sleuth: error: ") and "time" in r.stderr
    assert BudgetError("x").exit_code == 4 and issubclass(BudgetError, SleuthError)


def test_python_dash_m_runs_the_cli(tmp_path):
    """``python -m cli.main`` (as the kill test and scripts run it) is the same CLI: a clear
    error, exit 2, no traceback."""
    r = subprocess.run([sys.executable, "-m", "cli.main", "analyze", str(tmp_path / "none.txt")],
                       cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("sleuth: error: cannot read the record (no such file or "
                               "folder: check the path)")


@pytest.mark.parametrize("number", ["²", "٣", "۳", "-1", "99999999999999999999", "1e3", "\udcff"])
def test_session_commands_with_odd_numbers_are_refused_not_crashed(tmp_path, number):
    """Line numbers and counts typed to the session (``delete N``, ``edit N``, ``suggest N``)
    that are not ASCII numbers are refused (``int('²')`` used to raise)."""
    path = tmp_path / "g.txt"
    path.write_text((SAMPLES / "mystery-hand" / "five-players-ana.txt").read_text())
    before = path.read_bytes()
    s = Session(str(path))
    for line in (f"delete {number}", f"edit {number} Ana asks Dev AD-4D: 0",
                 f"suggest {number}", f"why {number}"):
        o = s.handle(line)
        assert o.kind in ("refused", "suggest", "why"), (line, o.kind)
    assert path.read_bytes() == before


def test_every_command_goes_through_handle_errors():
    """Every leaf command's callback is the ``handle_errors`` wrapper, so no command can let
    a ``SleuthError``, ``OSError`` or ``UnicodeError`` out as a traceback."""
    import click

    wrapper = handle_errors()(lambda: None).__code__
    leaves = [(" ".join(path), cmd) for path, cmd in walk_commands()
              if not isinstance(cmd, click.Group)]
    assert len(leaves) >= 20
    for name, cmd in leaves:
        assert cmd.callback.__code__ is wrapper, f"'sleuth {name}' is not wrapped"


@pytest.mark.parametrize("args", [["hand", "score", "\x00"], ["analyze", "a\x00b"],
                                  ["log", "g\x00.txt", "x"], ["play", "\x00"],
                                  ["simulate", "hand", "--players", "2", "-o", "x\x00"]])
def test_a_nul_in_an_argument_is_a_message(args):
    """No shell can pass a NUL, but a program calling the CLI can: a message, not
    ``ValueError: embedded null byte`` (found by the argument fuzz)."""
    r = run(*args)
    no_traceback(r)
    assert r.exit_code == 2 and "NUL" in r.stderr
    with pytest.raises(FileError):
        read_record("a\x00b")


def test_non_ascii_digits_never_crash_a_game_parser():
    """Every number of every sample statement written with digits that are not ASCII, fed to
    the game's own parser (below the reader, which refuses them first): a ``SleuthError`` or
    a parse, never ``int()``'s ``ValueError``."""
    checked = 0
    for sample in sorted(SAMPLES.glob("*/*.txt")):
        rec = read_record(str(sample))
        game = get_game(rec.game)
        for st in rec.statements[:25]:
            for m in re.finditer(r"\d+", st.text):
                for digit in ("²", "٣", "۳", "５"):
                    try:
                        game.parse_event(st.text[:m.start()] + digit + st.text[m.end():],
                                         rec.header)
                    except SleuthError:
                        pass
                    checked += 1
        with pytest.raises(NotationError, match="digits 0-9"):
            parse_record(f"{rec.header.lines()[0]}\nplayers: {' '.join(rec.header.players)}\n"
                         "x ٣", "g.txt")
    assert checked > 500


def test_a_missing_file_or_a_folder_is_sleuths_message_in_every_command(tmp_path):
    """Not Click's usage error: the same one-line 'cannot read the record (...)', exit 2,
    whatever the command (log used to check the path through Click)."""
    missing = tmp_path / "none.txt"
    for args in (["log", missing, "Ana asks Ben 4H-7H: 0"], ["analyze", missing],
                 ["analyze", tmp_path], ["replay", tmp_path], ["why", tmp_path, "KS"]):
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        no_traceback(r)
        assert r.stderr.startswith("sleuth: error: cannot read the record ("), (args, r.stderr)
        assert ("folder, not a file" if args[1] == tmp_path else "no such file") in r.stderr
    sample = ROOT / "samples" / "mystery-hand" / "two-player-seen.txt"
    r = run("replay", sample, "--plot", tmp_path)
    assert r.exit_code == 2 and "cannot write the plot (that is a folder, not a file)" in r.stderr
