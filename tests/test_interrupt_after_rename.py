"""An interrupt that lands between a save's rename and the note that it was saved
(docs/reliability.md, sections 4 and 7): the record holds the new line, so the one line
must say ``; the record is as last saved``, never ``unchanged`` or "the line being checked
was not saved" (the user would type the line twice).

The window is widened by an ``os.replace`` that, once it has renamed a save's temporary,
makes a mark file and sleeps: the signal is sent when the mark appears.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver import records

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")

#: runs the program's entry with a rename that is slow once it has renamed
SLOW_RENAME = """
import os, sys, time
mark = sys.argv.pop(1)
real = os.replace
def replace(src, dst, *a, **k):
    real(src, dst, *a, **k)
    if ".sleuth-" in os.path.basename(str(src)):
        open(mark, "w").close()
        time.sleep(2)
os.replace = replace
from cli.main import main
sys.argv[0] = "sleuth"
main()
"""


def sim_record(tmp_path: Path) -> tuple[Path, str]:
    """A simulated record cut before its last statement; that statement."""
    full = tmp_path / "sim.txt"
    subprocess.run([sys.executable, "-m", "cli.main", "simulate", "clue", "--players", "4",
                    "--seed", "3", "-o", str(full)], cwd=ROOT, check=True,
                   capture_output=True)
    lines = full.read_text().splitlines(keepends=True)
    path = tmp_path / "r1.txt"
    path.write_text("".join(lines[:16]))
    return path, lines[16].strip()


@pytest.mark.parametrize("command", ["log", "play"])
@pytest.mark.parametrize("sig, code, word", [(signal.SIGTERM, 143, "terminated"),
                                             (signal.SIGINT, 130, "interrupted")])
def test_an_interrupt_just_after_the_rename_says_the_record_was_saved(
        tmp_path, command, sig, code, word):
    path, statement = sim_record(tmp_path)
    mark = tmp_path / "renamed"
    args = ["log", str(path), statement] if command == "log" \
        else ["play", str(path), "--no-sheet"]
    p = subprocess.Popen([sys.executable, "-c", SLOW_RENAME, str(mark), *args], cwd=ROOT,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        if command == "play":
            assert p.stdin is not None
            p.stdin.write(statement + "\n")
            p.stdin.flush()
        t0 = time.monotonic()
        while not mark.exists():
            assert p.poll() is None, p.communicate()
            assert time.monotonic() - t0 < 60, "never saved"
            time.sleep(0.02)
        p.send_signal(sig)
        _out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert path.read_text().splitlines()[-1] == statement          # it is saved
    assert p.returncode == code, err
    assert err.strip().splitlines()[-1] == f"sleuth: {word}; the record is as last saved", err
    assert "not saved" not in err and "unchanged" not in err, err


def test_a_save_interrupted_right_after_its_rename_is_noted(tmp_path, monkeypatch):
    """Where the signals cannot be held (another thread took the signal, whose handler
    then runs in the main thread between the rename and the note), the save is noted from
    its temporary being gone."""
    path = tmp_path / "rec.txt"
    path.write_text("old\n")
    real = os.replace

    def replace(src, dst):
        real(src, dst)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(records, "_signals_held", lambda: _nothing(), raising=False)
    monkeypatch.setattr(records, "saved_in_this_process", set())
    with pytest.raises(KeyboardInterrupt):
        records.atomic_write(str(path), "new\n")
    assert path.read_text() == "new\n"
    assert str(path) in records.saved_in_this_process
    assert [f for f in os.listdir(tmp_path) if f.startswith(".sleuth-")] == []


def test_a_rename_that_fails_is_not_noted_as_saved(tmp_path, monkeypatch):
    path = tmp_path / "rec.txt"
    path.write_text("old\n")

    def replace(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(records, "saved_in_this_process", set())
    with pytest.raises(records.FileError):
        records.atomic_write(str(path), "new\n")
    assert path.read_text() == "old\n" and not records.saved_in_this_process
    assert [f for f in os.listdir(tmp_path) if f.startswith(".sleuth-")] == []


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
