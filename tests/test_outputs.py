"""Outputs never clobber, and streams that cannot take the output (issue 48;
docs/reliability.md, "Output files" and "Standard streams").

* ``simulate -o``, ``review --html`` and ``replay --plot`` refuse an existing file unless
  ``--force``, refuse the very record being read even with it, write atomically and name
  the file they wrote or could not write; a ``$`` in the record's name is no TeX.
* An output encoding without the suit symbols degrades to ASCII letters and ``?``
  instead of failing as "the input is not UTF-8 text"; closed or full streams end with
  exit 2 and one line, no traceback.

The stream tests run the program itself (``python -m cli.main``): the streams are the
process's own.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "mystery-hand" / "five-players-ana.txt"
SMALL_REVIEW = ROOT / "samples" / "mystery-hand" / "two-player-seen.txt"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def program(*args, env=None, **kw) -> subprocess.CompletedProcess:
    """``python -m cli.main ARGS`` as a process (``kw``: its streams)."""
    e = dict(os.environ)
    e.pop("SLEUTH_DEBUG", None)
    e.update(env or {})
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "cli.main", *map(str, args)], cwd=ROOT,
                          env=e, timeout=300, **kw)


# ----- output files -----------------------------------------------------------------------
def test_simulate_refuses_an_existing_output_unless_forced(tmp_path):
    out = tmp_path / "game.txt"
    out.write_text("my only copy\n", encoding="utf-8")
    r = run("simulate", "mystery-hand", "--players", "4", "--seed", "3", "-o", out)
    assert r.exit_code == 2
    assert "exists already" in r.stderr and "--force" in r.stderr and str(out) in r.stderr
    assert out.read_text(encoding="utf-8") == "my only copy\n"
    r = run("simulate", "mystery-hand", "--players", "4", "--seed", "3", "-o", out, "--force")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith(f"wrote {out}: ")
    assert out.read_text(encoding="utf-8").startswith("game: mystery-hand")


def test_review_html_refuses_an_existing_file_and_the_record_itself(tmp_path):
    rec = tmp_path / "game.txt"
    shutil.copy(SMALL_REVIEW, rec)
    before = rec.read_bytes()
    for force in ([], ["--force"]):            # the record: never, not even with --force
        r = run("review", rec, "--html", rec, *force)
        assert r.exit_code == 2 and "the record being read" in r.stderr, r.stderr
        assert rec.read_bytes() == before
    link = tmp_path / "link.html"               # the same file under another name
    link.symlink_to(rec)
    r = run("review", rec, "--html", link, "--force")
    assert r.exit_code == 2 and "the record being read" in r.stderr
    assert rec.read_bytes() == before and link.is_symlink()
    page = tmp_path / "review.html"
    page.write_text("an older page", encoding="utf-8")
    r = run("review", rec, "--html", page)
    assert r.exit_code == 2 and "exists already" in r.stderr and str(page) in r.stderr
    assert page.read_text(encoding="utf-8") == "an older page"
    r = run("review", rec, "--html", page, "--force")
    assert r.exit_code == 0, r.stderr
    assert f"wrote {page}" in r.stdout
    assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


def test_replay_plot_refuses_an_existing_file_and_the_record_itself(tmp_path):
    pytest.importorskip("matplotlib")
    rec = tmp_path / "game.txt"
    shutil.copy(SAMPLE, rec)
    before = rec.read_bytes()
    r = run("replay", rec, "--upto", "2", "--plot", rec, "--force")
    assert r.exit_code == 2 and "the record being read" in r.stderr
    assert rec.read_bytes() == before
    png = tmp_path / "story.png"
    png.write_bytes(b"an older plot")
    r = run("replay", rec, "--upto", "2", "--plot", png)
    assert r.exit_code == 2 and "exists already" in r.stderr
    assert png.read_bytes() == b"an older plot"
    r = run("replay", rec, "--upto", "2", "--plot", png, "--force")
    assert r.exit_code == 0, r.stderr
    assert f"wrote {png}" in r.stdout
    assert png.read_bytes().startswith(b"\x89PNG")


def test_a_dollar_in_the_records_name_is_no_tex(tmp_path):
    """Matplotlib parsed the title (the file's name) as mathtext and failed after the
    whole replay."""
    pytest.importorskip("matplotlib")
    rec = tmp_path / "ana$_$game.txt"          # '$_$' is no valid mathtext
    shutil.copy(SAMPLE, rec)
    png = tmp_path / "plot.png"
    r = run("replay", rec, "--upto", "2", "--plot", png)
    assert r.exit_code == 0, r.stderr or r.exception
    assert png.read_bytes().startswith(b"\x89PNG")
    with_name = tmp_path / "ana$s_plot$.png"     # the output's own name, too
    r = run("replay", rec, "--upto", "2", "--plot", with_name)
    assert r.exit_code == 0 and f"wrote {with_name}" in r.stdout


def test_a_failing_plot_write_leaves_the_old_file_and_names_it(tmp_path, monkeypatch):
    """The PNG was written in place: a full disk left a truncated file and a message that
    named no file."""
    pytest.importorskip("matplotlib")
    import errno

    png = tmp_path / "story.png"
    png.write_bytes(b"an older plot")
    real_write = os.write

    def full(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(tmp_path / ".sleuth-")):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    r = run("replay", SAMPLE, "--upto", "2", "--plot", png, "--force")
    assert r.exit_code == 2
    assert "cannot write the plot" in r.stderr and "disk is full" in r.stderr
    assert str(png) in r.stderr
    assert png.read_bytes() == b"an older plot"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".sleuth-")]


# ----- encodings --------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
@pytest.mark.parametrize("args", [("analyze", SAMPLE), ("rules", "MH-6"), ("demo",)],
                         ids=["analyze", "rules", "demo"])
def test_an_output_encoding_without_the_symbols_degrades(args, encoding):
    r = program(*args, env={"PYTHONIOENCODING": encoding})
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    assert b"not UTF-8" not in r.stderr
    text = r.stdout.decode(encoding)           # what the terminal can show, all of it
    assert text.strip()
    if args[0] == "analyze":                   # the sheet's suits as letters alone
        head = next(line for line in text.splitlines() if line.split() == ["S", "H", "D", "C"])
        assert head


def test_an_ascii_terminal_gets_ascii():
    """Click writes UTF-8 to a stream it takes for misconfigured ASCII: not here."""
    r = program("demo", env={"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0",
                             "PYTHONUTF8": "0", "PYTHONIOENCODING": ""})
    assert r.returncode == 0, r.stderr
    r.stdout.decode("ascii")


# ----- closed and full streams ------------------------------------------------------------
def test_closed_standard_input(tmp_path):
    rec = tmp_path / "game.txt"
    shutil.copy(SAMPLE, rec)
    for args in (("analyze", "-"), ("play", rec, "--no-sheet")):
        r = program(*args, stdin=subprocess.DEVNULL, pass_fds=(),
                    preexec_fn=lambda: os.close(0))
        err = r.stderr.decode()
        assert r.returncode == 2, err
        assert err.splitlines()[-1].startswith("sleuth: error: cannot read standard input")
        assert "Traceback" not in err and "internal error" not in err
    assert rec.read_bytes() == SAMPLE.read_bytes()


def test_closed_standard_output(tmp_path):
    rec = tmp_path / "game.txt"
    shutil.copy(SAMPLE, rec)
    for args in (("analyze", rec), ("play", rec, "--no-sheet")):
        r = program(*args, stdin=subprocess.DEVNULL, stdout=None,
                    preexec_fn=lambda: os.close(1))
        err = r.stderr.decode()
        assert r.returncode == 2, err
        assert err.splitlines() == ["sleuth: error: standard output is closed (nowhere to "
                                    "write the answer); nothing was done"]
    assert rec.read_bytes() == SAMPLE.read_bytes()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [("analyze", SAMPLE), ("analyze", SAMPLE, "--json"),
                                  ("rules",), ("demo",)], ids=str)
def test_a_full_standard_output(args):
    with open("/dev/full", "w") as full:
        r = program(*args, stdout=full)
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert err.splitlines() == ["sleuth: error: cannot write standard output (No space left "
                                "on device)"]
