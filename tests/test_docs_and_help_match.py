"""What a new user reads against what the program does: ``sleuth format``'s examples are
accepted under the header it prints (Mystery Hand's header forbade its requests and its
counts fitted another player count); ``history`` and ``more`` piped into ``play`` are a
note, not a refused statement (exit 2); a second ``sees case`` says it was logged already
(it said the player had not accused wrongly)."""
from __future__ import annotations

import subprocess
import sys


from tests.serve_harness import ROOT, sleuth


# that every example of 'sleuth format' is taken under the header it prints, at a point of
# a real record where its actor may act: tests/test_format_examples.py


def test_history_and_more_piped_are_a_note(tmp_path):
    import shutil

    path = tmp_path / "mh.txt"
    shutil.copy(ROOT / "samples" / "mystery-hand" / "five-players-ana.txt", path)
    r = subprocess.run([sys.executable, "-m", "cli.main", "play", str(path), "--no-sheet"],
                       input="history\nmore\n", capture_output=True, text=True, cwd=ROOT,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "refused" not in r.stdout
    assert r.stdout.count("every answer is on standard output already") == 2


def test_a_second_look_at_the_case_file_says_it_was_logged(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("game: clue\nplayers: Ana Ben Cleo Dev\nme: Dev\n"
                    "Dev holds: Scarlet Rope Kitchen Hall\n"
                    "Dev accuses Green Wrench Study: wrong\n"
                    "Dev sees case: Plum Knife Library\n", encoding="utf-8")
    r = sleuth("log", str(path), "Dev sees case: Plum Knife Library", check=False)
    assert r.returncode == 2 and "Dev has looked already" in r.stderr, r.stderr
    assert "has not accused wrongly" not in r.stderr


def test_log_says_the_lines_as_saved_and_read(tmp_path):
    """log --replace and a held claim's resolution say each line as saved (as typed) and
    how it was read; the shown line was printed in the program's form as if written."""
    import shutil

    path = tmp_path / "c.txt"
    shutil.copy(ROOT / "samples" / "clue" / "three-players.txt", path)
    out = sleuth("log", str(path), "--replace", "22",
                 "ana suggests white knife lounge: ben shows lounge").stdout
    assert "with: ana suggests white knife lounge: ben shows lounge" in out
    assert "read as: Ana suggests White Knife Lounge: Ben shows Lounge" in out
    lit = tmp_path / "l.txt"
    shutil.copy(ROOT / "samples" / "literature" / "ex-a-six-players.txt", lit)
    sleuth("log", str(lit), "ana claims 2h-7h: Ana 2H 3H 4H 6H 7H, Eli 5H")
    out = sleuth("log", str(lit), "shown 2h-7h: ana 2H 3H 4H 6H 7H, cleo 5h").stdout
    assert "/ shown 2h-7h: ana 2H 3H 4H 6H 7H, cleo 5h" in out
    assert "read as: shown 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H" in out
