"""A held claim (a Literature claim that contradicts the record as written, waiting for its
``shown`` line) is a ``# held:`` comment line in the record from the moment it is typed, in
``play`` and ``serve`` as in ``log`` (docs/reliability.md, section 2c).  ``play`` and
``serve`` held it only in memory and wrote it at their end: SIGTERM to ``play`` at its
prompt, SIGHUP (the terminal closed), SIGKILL or a power cut lost it, and another
statement saved dropped it (on ``serve`` without a word)."""
from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
import uuid

import pytest

from tests.test_lost_audit import ended, started
from tests.test_lost_leftovers import SHOWN, held_note
from tests.test_play_audit import LIT_HELD, WRONG_CLAIM
from tests.test_serve_app import client, do, version_of

HELD = LIT_HELD + f"# held: {WRONG_CLAIM}\n"
#: a statement that resolves nothing (Ana is on turn)
OTHER = "Ana asks Ben 5H: no"


def wait_for(path, text: str, p: subprocess.Popen | None = None) -> None:
    end = time.monotonic() + 60
    while path.read_text(encoding="utf-8") != text:
        assert p is None or p.poll() is None, "the program ended"
        assert time.monotonic() < end, path.read_text(encoding="utf-8")
        time.sleep(0.05)


def playing_a_held_claim(tmp_path):
    """Piped ``play`` on a new record, the wrong claim typed: the record and the process."""
    path = tmp_path / "r.txt"
    path.write_text(LIT_HELD, encoding="utf-8")
    p = started("play", path, "--no-sheet", stdin=subprocess.PIPE)
    assert p.stdin is not None
    p.stdin.write(WRONG_CLAIM.encode() + b"\n")
    p.stdin.flush()
    return path, p


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_to_piped_play_keeps_the_held_claim(tmp_path, sig, code):
    """The claim is in the file while ``play`` waits for its next line; the signal ends
    ``play`` with the one line and leaves it there (SIGTERM said "the record is unchanged"
    and lost it; SIGHUP lost it silently)."""
    path, p = playing_a_held_claim(tmp_path)
    wait_for(path, HELD, p)             # before the session ends
    got, err = ended(p, sig)
    assert got == code and err.splitlines() == [
        "sleuth: terminated; the record is as last saved"], (got, err)
    assert path.read_text(encoding="utf-8") == HELD


def test_sigkill_to_play_keeps_the_held_claim(tmp_path):
    path, p = playing_a_held_claim(tmp_path)
    wait_for(path, HELD, p)
    p.kill()
    p.communicate(timeout=30)
    assert path.read_text(encoding="utf-8") == HELD


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="/proc")
@pytest.mark.skipif(subprocess.run(["which", "tmux"], capture_output=True).returncode != 0,
                    reason="needs tmux")
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_to_play_at_a_terminal_keeps_the_held_claim(tmp_path, sig, code):
    """``play`` on a terminal (tmux), at its prompt after the claim: SIGTERM or SIGHUP (the
    terminal closed) ends it with the one line and the claim stays in the file."""
    path = tmp_path / "r.txt"
    path.write_text(LIT_HELD, encoding="utf-8")
    sock = f"sleuth-test-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMUX")}

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", sock, *args], check=True, text=True,
                              capture_output=True, env=env).stdout

    cmd = [sys.executable, "-c", "from cli.main import main; main()", "play", str(path),
           "--no-hint"]
    tmux("new-session", "-d", "-x", "80", "-y", "24",
         " ".join(map(shlex.quote, cmd)) + "; echo exit=$?; sleep 600")
    try:
        end = time.monotonic() + 120
        while not tmux("capture-pane", "-p").rstrip().endswith("sleuth>"):
            assert time.monotonic() < end, tmux("capture-pane", "-p")
            time.sleep(0.2)
        tmux("send-keys", "-l", WRONG_CLAIM)
        tmux("send-keys", "Enter")
        wait_for(path, HELD)            # at once, while the session goes on
        shell = int(tmux("display-message", "-p", "#{pane_pid}").strip())
        kids = open(f"/proc/{shell}/task/{shell}/children").read().split()
        assert len(kids) == 1, kids
        os.kill(int(kids[0]), sig)
        while "exit=" not in tmux("capture-pane", "-p"):
            assert time.monotonic() < end, tmux("capture-pane", "-p")
            time.sleep(0.2)
        screen = tmux("capture-pane", "-p")
        assert f"exit={code}" in screen and "Traceback" not in screen, screen
        assert "sleuth: terminated; the record is as last saved" in screen, screen
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
    assert path.read_text(encoding="utf-8") == HELD


def test_play_leaves_the_held_line_when_another_statement_is_saved(tmp_path):
    """It said "dropped the held claim" and the claim typed was gone; as ``log`` does, the
    ``# held:`` line stays a comment, and the answer says so."""
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path / "r.txt"
    path.write_text(LIT_HELD, encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"],
                           input=f"{WRONG_CLAIM}\n{OTHER}\n")
    assert r.exit_code == 0, r.output
    assert "dropped" not in r.output
    assert (f"note: the held claim on line 5 stays a comment line, not a statement: "
            f"{WRONG_CLAIM}\nsaved line 6: {OTHER}") in r.output
    assert path.read_text(encoding="utf-8") == HELD + OTHER + "\n"


def test_serve_leaves_the_held_line_when_another_statement_is_saved(tmp_path):
    """A page's claim is a ``# held:`` line at once (every device's page shows it); another
    statement posted next dropped it without a word.  Now the line stays, and the answer
    says so."""
    path = tmp_path / "r.txt"
    path.write_text(LIT_HELD, encoding="utf-8")
    c = client(path)
    d = do(c, WRONG_CLAIM, version_of(path)).json()
    assert d["kind"] == "pending" and d["saved"] and d["version"] == version_of(path)
    assert path.read_text(encoding="utf-8") == HELD
    assert held_note(c.get("/live").text).startswith("Held claim, a comment on line 5 ")
    d = do(c, OTHER, version_of(path)).json()
    assert d["kind"] == "accepted", d
    assert d["status"] == (f"logged line 6: {OTHER}; note: the held claim on line 5 stays a "
                           f"comment line, not a statement: {WRONG_CLAIM}")
    assert path.read_text(encoding="utf-8") == HELD + OTHER + "\n"


def test_undo_on_a_page_takes_back_the_held_claim(tmp_path):
    """Undo right after a held claim takes back its ``# held:`` line (the last change),
    not the saved statement before it; every page then shows nothing held."""
    path = tmp_path / "r.txt"
    path.write_text(LIT_HELD + "turn: Ana\n", encoding="utf-8")
    c = client(path)
    assert do(c, WRONG_CLAIM, version_of(path)).json()["kind"] == "pending"
    d = do(c, "undo", version_of(path)).json()
    assert d["kind"] == "undone", d
    assert d["status"] == f"undo: took back the held statement (the comment line 6): {WRONG_CLAIM}"
    assert path.read_text(encoding="utf-8") == LIT_HELD + "turn: Ana\n"
    assert held_note(c.get("/live").text) is None
    assert c.get("/version").json()["held"] == ""


def test_the_shown_line_on_a_page_resolves_the_held_line(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text(LIT_HELD, encoding="utf-8")
    c = client(path)
    assert do(c, WRONG_CLAIM, version_of(path)).json()["kind"] == "pending"
    assert do(c, SHOWN, version_of(path)).json()["kind"] == "accepted"
    assert path.read_text(encoding="utf-8") == LIT_HELD + f"{WRONG_CLAIM}\n{SHOWN}\n"


def test_a_note_after_the_held_line_leaves_it_held(tmp_path):
    """A comment line typed after the claim (in ``play``, as ``log`` cannot) leaves it held:
    the shown line still resolves it."""
    from solver.session import Session

    path = tmp_path / "r.txt"
    path.write_text(LIT_HELD, encoding="utf-8")
    s = Session(str(path))
    assert s.handle(WRONG_CLAIM).kind == "pending"
    assert s.handle("# Cleo showed the 5H").kind == "noted"
    assert s.handle(SHOWN).kind == "accepted"
    assert path.read_text(encoding="utf-8") == \
        LIT_HELD + f"{WRONG_CLAIM}\n# Cleo showed the 5H\n{SHOWN}\n"     # the claim in place


# ----- what is held: only what the resolving line can cure ----------------------------------
#: a claim naming an opponent (LIT-11): no cards shown make it a claim the rules take
OPPONENT_CLAIM = "Ana claims 2S-7S: Ben 2S 3S 4S 5S 6S 7S"


def test_a_claim_no_shown_line_can_cure_is_refused_not_held(tmp_path):
    """``log`` and ``play`` held a claim naming an opponent (LIT-11) as a wrong claim: every
    ``shown`` line was then refused by the same rule, and in ``play`` it pushed out the
    claim held before it.  It is refused, and the claim held before stays held."""
    from click.testing import CliRunner

    from cli.main import cli
    from solver.session import Session

    path = tmp_path / "lit.txt"
    path.write_text(LIT_HELD)
    r = CliRunner().invoke(cli, ["log", str(path), OPPONENT_CLAIM])
    assert r.exit_code == 2 and "LIT-11" in r.output, r.output
    assert path.read_text() == LIT_HELD
    path.write_text(HELD)
    s = Session(str(path))
    out = s.submit(OPPONENT_CLAIM)
    assert out.kind == "refused" and out.error.rule == "LIT-11", out
    assert path.read_text() == HELD
    assert s.submit(SHOWN).kind == "accepted"
    assert path.read_text() == LIT_HELD + f"{WRONG_CLAIM}\n{SHOWN}\n"


def test_a_claim_on_a_record_inconsistent_before_it_is_refused_not_held(tmp_path):
    """A record already inconsistent (written by hand): the claim is no part of the
    conflict, so no ``shown`` line can resolve it; ``log`` held it (exit 0), blaming it for
    lines 4 and 6."""
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path / "lit.txt"
    text = LIT_HELD + "Ana asks Ben 9C: no\nBen asks Ana 9S: no\n"
    path.write_text(text)
    r = CliRunner().invoke(cli, ["log", str(path), "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, "
                                                   "Cleo 5H"])
    assert r.exit_code == 3, r.output
    assert path.read_text() == text


def test_log_says_a_held_claim_stays_a_comment_when_another_is_held(tmp_path):
    """A second wrong claim logged while one is held: the first stays a comment line, and
    ``log`` says so (it said only "held line 6")."""
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path / "lit.txt"
    path.write_text(HELD)
    r = CliRunner().invoke(cli, ["log", str(path), "Ana claims 9S-AS: Ana 9S 10S JS QS KS AS"])
    assert r.exit_code == 0, r.output
    assert f"note: the held line before it stays a comment: {WRONG_CLAIM}" in r.output


def test_a_held_claim_resolved_in_play_is_said_with_both_lines(tmp_path):
    """The claim and its shown line are saved as lines 5 and 6; play said "saved line 6"
    for the pair (line 6 is the shown line: 'edit 6' would not touch the claim)."""
    from cli.session import render_outcome
    from solver.session import Session

    path = tmp_path / "lit.txt"
    path.write_text(HELD)
    s = Session(str(path))
    out = s.submit(SHOWN)
    assert (out.kind, out.first, out.line) == ("accepted", 5, 6), out
    said = render_outcome(out, s, False)
    assert f"saved lines 5-6: {WRONG_CLAIM} / {SHOWN}" in said, said


def test_a_resolved_claim_takes_the_place_of_its_held_line(tmp_path):
    """A comment typed after the held line stays after the claim once the shown line
    resolves it (the claim was moved below the comment), in ``play`` and with ``log``."""
    from click.testing import CliRunner

    from cli.main import cli
    from cli.session import render_outcome
    from solver.session import Session

    note = "# Ben looked unhappy\n"
    want = LIT_HELD + f"{WRONG_CLAIM}\n{note}{SHOWN}\n"
    path = tmp_path / "lit.txt"
    path.write_text(HELD + note)
    s = Session(str(path))
    out = s.submit(SHOWN)
    assert path.read_text() == want
    assert f"saved lines 5 and 7: {WRONG_CLAIM} / {SHOWN}" in render_outcome(out, s, False)
    path.write_text(HELD + note)
    r = CliRunner().invoke(cli, ["log", str(path), SHOWN])
    assert r.exit_code == 0 and "lines 5 and 7" in r.output, r.output
    assert path.read_text() == want
