"""Progress of long work on a terminal (cli/progress.py): a line on standard error while an
analysis runs, erased when it ends; nothing at all for a pipe, a file or JSON."""
from __future__ import annotations

import io
import time

from click.testing import CliRunner

from cli.main import cli
from cli.progress import SPINNER, working


def test_the_line_shows_what_and_the_time_then_is_erased():
    out = io.StringIO()
    with working("analysing game.txt", after=0, stream=out):
        end = time.monotonic() + 60
        while "analysing game.txt" not in out.getvalue() and time.monotonic() < end:
            time.sleep(0.01)              # the work: until the line has been shown
    text = out.getvalue()
    first = text.split("\r")[1]
    assert first.startswith("analysing game.txt " + SPINNER[0]) and first.endswith(" s")
    # erased at the end: blanks over the longest line shown, the cursor back at its start
    assert text.endswith("\r" + " " * len(first) + "\r")


def test_nothing_before_the_delay_or_off_a_terminal(capsys):
    out = io.StringIO()
    with working("analysing", after=60, stream=out):
        pass                              # quicker than the delay: no line at all
    assert out.getvalue() == ""
    with working("analysing", after=0):   # standard error is not a terminal under pytest
        time.sleep(0.3)
    assert capsys.readouterr().err == ""


def test_progress_stops_when_the_work_fails():
    out = io.StringIO()
    try:
        with working("analysing", after=0, stream=out):
            end = time.monotonic() + 60
            while not out.getvalue() and time.monotonic() < end:
                time.sleep(0.01)
            raise KeyError("x")
    except KeyError:
        pass
    assert out.getvalue().endswith("\r")
    shown = len(out.getvalue())
    time.sleep(0.5)                       # the spinner's thread has ended: nothing more
    assert len(out.getvalue()) == shown


def test_one_shot_commands_write_no_progress_to_a_pipe(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"
                 "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C\n", encoding="utf-8")
    for args in (["analyze", str(p)], ["analyze", str(p), "--json"], ["why", str(p), "AS"],
                 ["log", str(p), "faceup: 3C 7D 9S"], ["suggest", str(p), "--top", "2"]):
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 0, r.output
        assert r.stderr == "", (args, r.stderr)
