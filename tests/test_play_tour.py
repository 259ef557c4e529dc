"""``sleuth play`` on the README's tour record (docs/session.md): the advisor's hint drawn
when the worker has it, without a key pressed; Tab offering only the cards that can stand
in an answer (the range asked, the cards suggested); a refusal cut to the screen keeping
the sentence that says why and the lines in conflict; a piped sheet's notes within the
sheet's columns.  In tmux at 80x24 (tests/test_play_tmux.py's terminal) and on
:class:`cli.session.Screen` directly."""
from __future__ import annotations

import re
import shutil
import threading

import pytest
from click.testing import CliRunner

from cli.main import cli
from cli.session import Screen, known_hands, legal_words, render_outcome, sheet_text
from solver.games import get_game
from solver.records import parse_record
from solver.session import Session, complete, vocabulary
from tests.test_play_tmux import COLS, ROWS, prompt_ready, terminal, top_says  # noqa: F401

TOUR = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
        "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
        "Ana asks Ben 4H-7H: 4H 7H\n"
        "Ben asks all 6*: Ana 1, Cleo 1, Dev 2\n"
        "Ben requests KS: nobody\n")
#: the two lines the tester typed after the tour: then it is Ana's turn (the view's)
MORE = ["Cleo asks Dev 8H-JH: 1", "Dev asks Ben 4H-7H: 4H 7H"]
#: the edit refused as inconsistent, and the sentence that says why
EDIT = "edit 6 Ana asks Ben 4H-7H: 4H"
WHY = "line 6 says 7H is not in Ben's hand; line 10 says it is"
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def _record(tmp_path, text: str = TOUR + "".join(ln + "\n" for ln in MORE)):
    rec = tmp_path / "game.txt"
    rec.write_text(text, encoding="utf-8")
    return rec


# ----- 1. the hint, drawn when it comes in ---------------------------------------------------
class _App:
    """prompt_toolkit's application as the worker sees it: what the board had each time a
    redraw was asked for."""

    def __init__(self, screen: Screen):
        self.screen = screen
        self.seen: list[str] = []
        self.lock = threading.Lock()

    def invalidate(self) -> None:
        with self.lock:
            self.seen.append(self.screen.hint)


def test_the_hint_is_redrawn_when_the_worker_has_it(tmp_path):
    session = Session(str(_record(tmp_path)))
    screen = Screen(session, colour=False, sheet=True, size=(80, 24))
    app = _App(screen)
    screen.app = app                    # type: ignore[assignment]
    screen.hinting = True
    screen.stage(None)
    screen.worker.join(120)
    assert screen.hint.startswith("advisor: Ana "), screen.hint
    # the last redraw asked for is one with the hint: the prompt shows it unasked
    assert app.seen and app.seen[-1] == screen.hint, app.seen
    assert screen.lines()[-1] == screen.hint


@needs_tmux
def test_in_tmux_the_hint_comes_without_a_key(tmp_path, terminal):      # noqa: F811
    rec = _record(tmp_path, TOUR)
    t = terminal(rec)
    t.wait(top_says("game.txt: mystery-hand, 4 statements"), "the first screen")
    for n, line in enumerate(MORE, start=9):
        t.type(line, top_says(f"saved line {n}: "), f"line {n} saved")
    # nothing pressed: the worker's hint is drawn when it is in
    rows = t.wait(lambda r: prompt_ready(r) and any(x.startswith("advisor: Ana ") for x in r),
                  "the advisor's hint, no key pressed", timeout=90)
    assert any(r == "Next: Ana's turn (yours)." for r in rows)
    assert len(rows) == ROWS and all(len(r) <= COLS for r in rows)


# ----- 2. Tab: the cards that can follow -----------------------------------------------------
CLUE = ("game: clue\nplayers: Ana Ben Cleo\nsuspects: Green Plum White\n"
        "weapons: Rope Revolver\nrooms: Lounge Hall Study\nme: Ana\nAna holds: Plum Rope\n")
LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")


def offered(tmp_path, text: str, before: str) -> list[str]:
    s = Session(str(_record(tmp_path, text)))
    return legal_words(s.vocabulary(), before, s.complete(before), known_hands(s))


@pytest.mark.parametrize("text, before, words", [
    (TOUR, "Cleo asks Dev 8H-JH: ", ["8H", "9H", "10H", "JH", "none", "?"]),
    (TOUR, "Cleo asks Dev 8H-JH: 9", ["9H"]),
    (TOUR, "Cleo asks Dev 8h-jh: 9h ", ["8H", "10H", "JH", "none", "?"]),    # not twice
    (TOUR, "Cleo asks Dev 8*: ", ["8S", "8H", "8D", "8C", "none", "?"]),
    (TOUR, "whatif Cleo asks Dev JS-AS: ", ["AS", "JS", "QS", "KS", "none", "?"]),
    (TOUR, "edit 6 Ana asks Ben 4H-7H: ", ["4H", "5H", "6H", "7H", "none", "?"]),
    (TOUR, "Dev requests 5S: ", ["Ana", "Ben", "Cleo", "nobody", "?"]),
    (CLUE, "Ben suggests Green Revolver Lounge: Cleo shows ", ["Green", "Revolver", "Lounge"]),
    (CLUE, "Ben suggests Green Revolver Lounge: Cleo shows R", ["Revolver"]),
    (CLUE, "Ben suggests Green Revolver Lounge: ", ["Ana", "Cleo", "passes", "shows",
                                                    "nobody", "?"]),
    (LIT, "Ana claims 2H-7H: ", ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]),
    (LIT, "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo ",
     ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "5H"]),
    (LIT, "shown 9H-AH: Ben 9H ", ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay",
                                   "AH", "10H", "JH", "QH", "KH"]),
])
def test_an_answer_offers_only_the_cards_it_can_name(tmp_path, text, before, words):
    assert offered(tmp_path, text, before) == words


HEADERS = {
    "mystery-hand": "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n",
    "literature": "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n",
    "clue": "game: clue\nplayers: Ana Ben Cleo Dev\nme: Ana\n",
    "twenty-two": "game: twenty-two\nplayers: Ana Ben Cleo\nme: Ana\n",
    "hand": "game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ana\n",
    "mysterium": "game: mysterium\nplayers: Gus Ana Ben Cleo Dev\nghost: Gus\nme: Ana\n",
}


@pytest.mark.parametrize("game", sorted(HEADERS))
def test_every_word_of_every_example_stays_offered(game):
    """What play's Tab offers (the rules' filter over the completion) keeps every word of
    the game's own example statements where it stands, from its first letter."""
    v = vocabulary(parse_record(HEADERS[game], validate=False))
    known = set(v.names) | set(v.cards) | set(v.ranges) | set(v.words) | set(v.verbs) \
        | set(v.lead)
    for example in get_game(game).examples:
        for m in re.finditer(r"[^\s,;:]+", example):
            if m.group(0) in known:
                before = example[:m.start()] + m.group(0)[0]
                assert m.group(0) in legal_words(v, before, complete(v, before)), \
                    (example, m.group(0))


@needs_tmux
def test_in_tmux_tab_completes_a_card_of_the_range(tmp_path, terminal):      # noqa: F811
    t = terminal(_record(tmp_path))
    t.wait(top_says("game.txt: mystery-hand, 6 statements"), "the first screen")
    t._tmux("send-keys", "-l", "Cleo asks Dev 8H-JH: 9")
    t.wait(lambda r: r[-1] == "sleuth> Cleo asks Dev 8H-JH: 9", "the line typed")
    t._tmux("send-keys", "Tab")
    rows = t.wait(lambda r: r[-1].startswith("sleuth> Cleo asks Dev 8H-JH: 9")
                  and r[-1] != "sleuth> Cleo asks Dev 8H-JH: 9", "the Tab taken")
    assert rows[-1] == "sleuth> Cleo asks Dev 8H-JH: 9H"


# ----- 3. a refusal cut to the screen: why, and the lines in conflict ------------------------
def test_a_refused_edit_keeps_why_and_the_lines_in_conflict(tmp_path):
    session = Session(str(_record(tmp_path)))
    o = session.handle(EDIT)
    text = render_outcome(o, session, None, "Enter or y").replace(str(tmp_path) + "/", "")
    assert WHY in text
    screen = Screen(session, colour=False, sheet=True, size=(80, 24))
    screen.board(text)
    rows = screen.lines()
    said = " ".join(r.strip() for r in rows[:rows.index("")])
    assert WHY in said
    assert "line 6: Ana asks Ben 4H-7H: 4H  <- this statement" in said
    assert "line 10: Dev asks Ben 4H-7H: 4H 7H" in said
    assert "more lines ('history' shows them)" in rows[rows.index("") - 1]
    assert rows[-1] == "Next: Ana's turn (yours)." and len(rows) == 23


@needs_tmux
def test_in_tmux_a_refused_edit_says_why(tmp_path, terminal):      # noqa: F811
    rec = _record(tmp_path)
    before = rec.read_text(encoding="utf-8")
    t = terminal(rec, "--no-hint")
    t.wait(top_says("game.txt: mystery-hand, 6 statements"), "the first screen")
    rows = t.type(EDIT, lambda r: prompt_ready(r) and any("line 10: Dev asks" in x for x in r)
                  and not any("(working out the figures...)" in x for x in r), "the refusal")
    said = " ".join(r.strip() for r in rows[:rows.index("")])
    assert WHY in said and "line 6: Ana asks Ben 4H-7H: 4H" in said, rows
    assert rec.read_text(encoding="utf-8") == before


# ----- the piped sheet's notes within its columns --------------------------------------------
def test_a_piped_sheets_notes_fit_its_columns(tmp_path):
    rec = _record(tmp_path, TOUR + "".join(ln + "\n" for ln in MORE)
                  + "Ana asks all 8D-JD: Ben 1, Cleo ?, Dev 1\n")  # a count not seen: an
    # extra turn may be Ana's (the answer to her own ask-one she would have seen)
    r = CliRunner().invoke(cli, ["play", str(rec)], input="sheet\n")
    assert r.exit_code == 0, r.output
    assert not [ln for ln in r.output.splitlines() if len(ln) > 80 and not
                ln.startswith(str(rec))], r.output
    assert "Next: Ben's turn; Ana may take an extra turn first" in r.output
    text = sheet_text(Session(str(rec)))
    assert max(len(ln) for ln in text.split("\n")) <= 79
