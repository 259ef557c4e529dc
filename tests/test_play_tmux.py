"""``sleuth play`` in a real terminal: tmux at 80x24 (issue 46).  On a terminal the session is
one screen redrawn in place after every line -- the last message at the top, the sheet with
the verdict and whose turn at the bottom, the prompt on the last row -- so nothing the layout
promises scrolls away however long a message is: after a saved line the whole grid, after a
refusal of many lines its sentence, lines and fix, the grid scrolled in the rows left."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

ROWS, COLS = 24, 80
#: the Mystery Hand grid's rank column, top to bottom (cli/mystery_hand._grid)
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


class Terminal:
    """One ``sleuth play`` in a detached tmux session of its own server (its own socket, so
    that nothing else's tmux is touched)."""

    def __init__(self, record, *args: str):
        self.socket = f"sleuth-test-{uuid.uuid4().hex[:8]}"
        cmd = [sys.executable, "-c", "from cli.main import main; main()", "play",
               str(record), *args]
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMUX")}
        self._tmux("new-session", "-d", "-x", str(COLS), "-y", str(ROWS),
                   # the pane stays open after the program ends, for its last screen
                   " ".join(map(shlex.quote, cmd)) + "; sleep 600", env=env)

    def _tmux(self, *args: str, env=None) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, text=True,
                              capture_output=True, env=env).stdout

    def screen(self) -> list[str]:
        """The visible rows (no scrollback), trailing blanks removed."""
        return [r.rstrip() for r in self._tmux("capture-pane", "-p").split("\n")][:ROWS]

    def wait(self, ready, what: str, timeout: float = 120.0) -> list[str]:
        end = time.monotonic() + timeout
        while True:
            rows = self.screen()
            if ready(rows):
                return rows
            if time.monotonic() > end:
                pytest.fail(f"waiting for {what}; the screen:\n" + "\n".join(rows))
            time.sleep(0.2)

    def type(self, line: str, ready, what: str) -> list[str]:
        if line:
            self._tmux("send-keys", "-l", line)
        self._tmux("send-keys", "Enter")
        return self.wait(ready, what)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def terminal():
    opened: list[Terminal] = []

    def open_(record, *args):
        t = Terminal(record, *args)
        opened.append(t)
        return t

    yield open_
    for t in opened:
        t.close()


def prompt_ready(rows: list[str]) -> bool:
    """The prompt on the last row, waiting for a line (not the line just sent)."""
    return rows[-1].rstrip() == "sleuth>"


def top_says(text: str):
    """The screen's top row starts with ``text``, the sheet worked out (not stage 1)."""
    return lambda rows: prompt_ready(rows) and rows[0].startswith(text) and not any(
        "(working out the figures...)" in r for r in rows)


def assert_board(rows: list[str], turn: str) -> None:
    """Everything the layout promises is on the screen: the Mystery Hand grid whole (its
    suit row and the thirteen ranks), the legend, the verdict and whose turn, the prompt on
    the last row, nothing wider than the terminal."""
    assert len(rows) == ROWS and all(len(r) <= COLS for r in rows), rows
    at = next(i for i, r in enumerate(rows) if r.split()[-1:] == ["C"] and "S" in r.split())
    assert [r.split()[0] for r in rows[at + 1:at + 14]] == RANKS, rows
    assert rows[at + 14].startswith("% = chance in the mystery hand")
    assert rows[at + 15].startswith("Verdict: ")
    assert rows[at + 16].startswith(f"Next: {turn}'s turn")
    assert rows[-1].startswith("sleuth>")


def assert_scrolled_board(rows: list[str], turn: str) -> None:
    """After a refusal of many lines: the sheet gave way to the message and scrolls in the
    rows left -- the grid's suit row, its first ranks in order, a row saying which are shown
    (PgDn the others), the verdict and whose turn, the prompt on the last row."""
    assert len(rows) == ROWS and all(len(r) <= COLS for r in rows), rows
    at = next(i for i, r in enumerate(rows) if r.split()[-1:] == ["C"] and "S" in r.split())
    shown = next(i for i, r in enumerate(rows) if r.startswith("rows 1-"))
    assert re.fullmatch(r"rows 1-\d+ of \d+ -- PgDn or 'more'", rows[shown]), rows
    assert [r.split()[0] for r in rows[at + 1:shown]] == RANKS[:shown - at - 1], rows
    assert shown - at - 1 >= 6, rows           # the sheet gives way, yet keeps rows
    assert rows[shown + 1].startswith("Verdict: ")
    assert rows[shown + 2].startswith(f"Next: {turn}'s turn")
    assert rows[-1].startswith("sleuth>")


MH = "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"


def test_mystery_hand_keeps_the_sheet_on_one_screen(tmp_path, terminal):
    rec = tmp_path / "game.txt"
    rec.write_text(MH, encoding="utf-8")
    t = terminal(rec)
    rows = t.wait(top_says("game.txt: mystery-hand, 0 statements, view: Ana"),
                "the first screen")
    assert rows[-1] == "sleuth>"
    plays = [("Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C", "Ana"), ("faceup: 3C 7D 9S", "Ana"),
             ("Ana asks Ben 4H-7H: 4H 6H", "Ben"), ("Ben asks Cleo 5*: 2", "Cleo"),
             ("Cleo asks all 6*: 0 1 0 0", "Dev"), ("Dev requests KS: nobody", "Eli")]
    for n, (line, turn) in enumerate(plays, start=5):
        rows = t.type(line, top_says(f"saved line {n}: "), f"line {n} saved")
        assert rows[0] == f"saved line {n}: {line}"
        assert_board(rows, turn)

    # a refusal of many lines (a contradiction with its conflicting lines and the fixes)
    # keeps them; the sheet gives way and scrolls, its verdict and turn on screen
    rows = t.type("Eli asks Ana 2*: 0", top_says("refused: "), "the refusal")
    assert_scrolled_board(rows, "Eli")
    said = rows[:next(i for i, r in enumerate(rows) if not r)]
    assert any("'history' shows them" in r for r in said) or any("force" in r for r in said)

    # a page on request (why), then an empty line brings the sheet back, message and all
    rows = t.type("why 6H", lambda r: prompt_ready(r) and "(Enter: back to the sheet)" in r,
                  "the why page")
    assert rows[0].startswith("6H: ") and not any(r.startswith("Verdict") for r in rows)
    rows = t.type("", top_says("refused: "), "the sheet back")
    assert_scrolled_board(rows, "Eli")

    # what scrolled off the layout is kept: history shows the earlier lines
    rows = t.type("history 40", lambda r: prompt_ready(r) and "(Enter: back to the sheet)"
                  in r, "the history page")
    shown = "\n".join(rows)
    assert "sleuth> Dev requests KS: nobody" in shown and "saved line 10: Dev requests KS" \
        in shown and "sleuth> Eli asks Ana 2*: 0" in shown
    assert "sleuth> history" not in shown
    t.type("quit", lambda r: r[-1].startswith("sleuth> quit") or r[-1] == "", "the end")
    assert rec.read_text(encoding="utf-8") == MH + "".join(p + "\n" for p, _ in plays)


LIT = "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"


def test_literature_keeps_the_sheet_on_one_screen(tmp_path, terminal):
    rec = tmp_path / "lit.txt"
    rec.write_text(LIT + "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n", encoding="utf-8")
    t = terminal(rec)
    t.wait(top_says("lit.txt: literature, 1 statement, view: Ana"), "the first screen")
    plays = [("Ana asks Ben 10S: no", "Ben"), ("Ben asks Cleo 9D: no", "Cleo"),
             ("Cleo asks Ben 3H: no", "Ben"), ("Ben asks Ana QC: no", "Ana")]
    for n, (line, turn) in enumerate(plays, start=5):
        rows = t.type(line, top_says(f"saved line {n}: "), f"line {n} saved")
        assert len(rows) == ROWS and all(len(r) <= COLS for r in rows)
        sheet = next(i for i, r in enumerate(rows) if r.startswith("Literature, as seen by"))
        players = [r.split()[1] for r in rows[sheet + 2:sheet + 8]]
        assert players == ["Ana", "Cleo", "Eli", "Ben", "Dev", "Fay"], rows
        assert any(r.startswith("Half-suits:") for r in rows[sheet:])
        assert any(r.startswith(f"Next: {turn}'s turn") for r in rows[sheet:]), rows
    # Cleo showed she holds a low heart (5H): Ana's team can claim 2H-7H; the alert stays
    # on the screen while it holds
    assert any("You can claim 2H-7H safely" in r for r in rows)
    rows = t.type("help", lambda r: prompt_ready(r) and "(Enter: back to the sheet)" in r,
                  "the help page")
    assert any(r.startswith("  history [N]") for r in rows)
    rows = t.type("", top_says("saved line 8: "), "the sheet back")
    assert any("You can claim 2H-7H safely" in r for r in rows)


# ----- characters typed per statement: the shortest input with Tab, typed in tmux ----------
def shortest_keys(record_text: str, statement: str) -> list[str]:
    """The shortest keys for ``statement`` with the completion of ``play`` (Tab takes the
    first word offered): word by word, the shortest prefix whose first completion is the
    word, then Tab, where that is shorter than the word.  ``"\\t"`` is a Tab."""
    import re

    from solver.records import parse_record
    from solver.session import complete, vocabulary

    v = vocabulary(parse_record(record_text))
    keys: list[str] = []
    typed = ""
    for m in re.finditer(r"[^\s,;:]+|[\s,;:]+", statement):
        word = m.group(0)
        at = None
        if word.strip(" ,;:"):
            at = next((i for i in range(len(word) - 1)
                       if complete(v, typed + word[:i])[:1] == [word]), None)
        if at is not None:
            keys += [word[:at], "\t"] if at else ["\t"]
        else:
            keys.append(word)
        typed += word
    return keys


def typed_count(keys: list[str]) -> int:
    """Characters typed: a Tab is one, Enter at the end one more."""
    return sum(1 if k == "\t" else len(k) for k in keys) + 1


MH5 = MH + "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C\nfaceup: 3C 7D 9S\n"
MH8 = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli Fay Gus Hal\ndealer: Hal\nme: Ana\n"
       "Ana holds: AS 2S 9H JD QC 4D\nAna asks Ben 4H-7H: 4H 6H\n")
LIT_ANA = LIT + "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n"
#: (record, statement, the same typed in the longer form it replaces, or None); the counts
#: are docs/session.md's table "Characters typed per statement"
TYPING = [
    (MH5, "Ana asks Ben 4H-7H: 4H 6H", None),
    (MH5 + "Ana asks Ben 4H-7H: 4H 6H\n", "Ben requests KS: nobody", None),
    (MH8, "Ben asks all 6*: 0 1 0 1 0 0 1",
     "Ben asks all 6*: Ana 0, Cleo 1, Dev 0, Eli 1, Fay 0, Gus 0, Hal 1"),
    (LIT_ANA, "Ana asks Ben 10S: no", None),
    (LIT_ANA + "Ana asks Ben 10S: no\nBen asks Cleo 9D: no\nCleo asks Ben 3H: no\n"
     "Ben asks Ana QC: no\n", "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H", None),
]


@pytest.mark.parametrize("record_text, statement, longer", TYPING,
                         ids=["mh-ask-one", "mh-request", "mh-8-ask-all", "lit-ask",
                              "lit-claim"])
def test_the_shortest_input_with_tab_logs_the_statement(tmp_path, terminal, record_text,
                                                        statement, longer):
    rec = tmp_path / "g.txt"
    rec.write_text(record_text, encoding="utf-8")
    n = len(record_text.splitlines()) + 1
    keys = shortest_keys(record_text, statement)
    assert typed_count(keys) < len(statement) + 1
    if longer is not None:
        assert typed_count(keys) < typed_count(shortest_keys(record_text, longer))
    t = terminal(rec)
    t.wait(top_says("g.txt: "), "the first screen")
    at = 0
    for k in keys:                  # each key once the one before has been taken
        if k == "\t":               # Tab: the rest of the word
            t._tmux("send-keys", "Tab")
            while at < len(statement) and statement[at] not in " ,;:":
                at += 1
        else:
            t._tmux("send-keys", "-l", k)
            at += len(k)
        t.wait(lambda r, s=statement[:at]: r[-1] == f"sleuth> {s}".rstrip(),
               f"{statement[:at]!r} typed")
    rows = t.type("", top_says(f"saved line {n}: "), "the statement saved")
    assert rows[0] == f"saved line {n}: {statement}"


def test_a_did_you_mean_is_taken_with_one_key(tmp_path, terminal):
    rec = tmp_path / "g.txt"
    rec.write_text(MH5, encoding="utf-8")
    t = terminal(rec)
    t.wait(top_says("g.txt: "), "the first screen")
    rows = t.type("Ana aks Ben 4H-7H: 4H 6H", top_says("refused: g.txt:7:1: "),
                  "the refusal")
    # the message is cut in its middle: the correction at its end is on the screen
    assert "did you mean: Ana asks Ben 4H-7H: 4H 6H" in " ".join(rows)
    rows = t.type("", top_says("saved line 7: "), "the correction saved")
    assert rows[0] == "saved line 7: Ana asks Ben 4H-7H: 4H 6H"
