"""``sleuth play`` on a terminal as a new user meets it: every game's sheet at 80x24 and at a
narrow 40x20, names in other scripts.  The screen (cli.session.Screen) is checked row by row,
and in a real terminal (tmux, as tests/test_play_tmux.py does)."""
from __future__ import annotations

import shutil
import signal
import time
from pathlib import Path

import pytest
from wcwidth import wcswidth

from cli.session import Screen, fit_width
from solver.session import Session
from tests.test_play_tmux import Terminal, prompt_ready

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def board(path, size: tuple[int, int], message: str = "") -> list[str]:
    """The rows above the prompt of ``play``'s screen on ``path`` at ``size``."""
    screen = Screen(Session(str(path)), colour=False, sheet=True, size=size)
    screen.board(message)
    return screen.lines()


def sample(tmp_path, name: str) -> Path:
    src = next(SAMPLES.glob(f"*/{name}"))
    dst = tmp_path / name
    shutil.copyfile(src, dst)
    return dst


# ----- names in other scripts: a CJK character takes two columns ----------------------------
LIT_CJK = "game: literature\nplayers: Аня Ben Χλόη dev 李 Zoë\nme: Аня\n"
MH_CJK = ("game: mystery-hand\nplayers: Аня Ben Χλόη dev 李\ndealer: 李\nme: Аня\n"
          "Аня holds: AS 2S 9H JD QC 4D 8S 3H 5C\nfaceup: 3C 7D 9S\n")


def test_wide_characters_are_wrapped_by_the_columns_they_take():
    text = "refused: " + "李" * 30 + " 'Zoë asks 李 5S: no'"
    for width in (20, 40, 80):
        rows = fit_width(text, width).split("\n")
        assert all(wcswidth(r) <= width for r in rows), (width, rows)
        assert "".join(rows).replace(" ", "") == text.replace(" ", "")


def test_a_message_with_a_cjk_name_fits_the_screen(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(LIT_CJK, encoding="utf-8")
    # the quoted line: 52 characters, 102 columns
    message = ("refused: g.txt:5:12: expected a card such as 10H, QS or Jk (suit S H D C): "
               "'" + "李" * 50 + "'\n  not saved")
    for cols, rows in ((80, 24), (40, 20)):
        shown = board(p, (cols, rows), message)
        assert len(shown) == rows - 1
        assert all(wcswidth(r) <= cols for r in shown), shown
        assert shown[0].startswith("refused: ")
        if cols == 80:                  # room for the message whole: the quote is there
            said = shown[:shown.index("")]
            assert "".join(said).replace(" ", "").count("李") == 50 and said[-1] == "  not saved"


# ----- a sheet taller than the screen keeps its start and its notes --------------------------
def test_clue_at_80x15_keeps_the_notebooks_heading_and_verdict(tmp_path):
    # Clue's short sheet fits 80x24 (tests/test_play_polish.py); at 16 rows it fits too, the
    # blank row under the message giving way; at 15 rows it is cut
    whole = board(sample(tmp_path, "four-players-ana.txt"), (80, 16), "saved line 13: ...")
    assert whole[0] == "saved line 13: ..." and whole[1].startswith("Clue ")
    assert not any(r.startswith("rows ") for r in whole), whole
    rows = board(sample(tmp_path, "four-players-ana.txt"), (80, 15), "saved line 13: ...")
    assert len(rows) == 14 and all(len(r) <= 80 for r in rows)
    assert rows[0] == "saved line 13: ..."
    # whose column is whose: the heading row of the notebook, then its first rows
    at = next(i for i, r in enumerate(rows) if r.split()[:5] == ["Ana", "Ben", "Cleo", "Dev",
                                                                   "FILE"])
    assert rows[at + 1].split()[0] == "Green"
    assert any(r.startswith("rows 1-") and "PgDn or 'more'" in r for r in rows)
    assert any("Verdict: not determined" in r for r in rows)
    assert rows[-1] == "Out (still refuting, CL-9): Dev."


def test_twenty_two_at_80x24_keeps_whose_turn_and_the_trick(tmp_path):
    rows = board(sample(tmp_path, "standard-ana-midhand.txt"), (80, 24), "saved line 27: ...")
    assert len(rows) == 23 and all(len(r) <= 80 for r in rows)
    assert "Now: Ana to play" in rows
    assert any(r.startswith("Trick so far: Cleo 4S 4H 4D") for r in rows)
    assert any(r.startswith("Your hand: ") for r in rows)
    assert rows[-1].startswith("Closest to elimination: ")
    # the short sheet: the safest legal plays with their chances, nothing cut
    at = next(i for i, r in enumerate(rows) if r.startswith("Your legal plays, safest first"))
    plays = [r.split("  ")[0] for r in rows[at + 3:at + 8]]
    assert plays[0] == "QD KC AS" and len(set(plays)) == 5, rows
    assert rows[at + 8] == "  ... 13 more plays ('sheet' lists them all)"
    assert "Scores (out at 22): Ana 0, Ben 9, Cleo 9" in rows
    assert not any("more lines of the sheet" in r for r in rows)


def test_a_finished_twenty_two_game_shows_the_result_and_the_scores(tmp_path):
    rows = board(sample(tmp_path, "rasmussen.txt"), (80, 24))
    at = next(i for i, r in enumerate(rows) if r.startswith("Twenty-Two (rasmussen)"))
    assert rows[at + 2:] == ["Game over: Cleo wins (TT-17)",
                             "Scores (out at 22): Ana 23 out, Ben 22 out, Cleo 5"]


def test_mystery_hand_at_40x20_keeps_the_suits_row(tmp_path):
    rows = board(sample(tmp_path, "five-players-ana.txt"), (40, 20),
                 "refused: it is Eli's turn, not Ben's\n  if a turn was missed, log it\n"
                 "  as 'Eli: ?' or resync with 'turn: Ben'\n  not saved")
    assert len(rows) == 19 and all(len(r) <= 40 for r in rows)
    assert rows[0].startswith("refused: ") and "  not saved" in rows
    suits = next(i for i, r in enumerate(rows) if r.split() == ["♠", "S", "♥", "H", "♦", "D",
                                                                "♣", "C"])
    assert rows[suits + 1].split()[0] == "A"
    assert rows[-1] == "Next: Eli's turn."
    assert any(r.startswith("Verdict: ") for r in rows)


def test_a_refusal_keeps_its_start_and_fix_beside_a_tall_sheet(tmp_path):
    message = "\n".join(["refused: the first line"] + [f"  line {i}" for i in range(8)]
                        + ["  the fix"])
    rows = board(sample(tmp_path, "four-players-ana.txt"), (80, 16), message)
    assert rows[0] == "refused: the first line" and rows[2] == "  the fix"
    assert rows[1].startswith("... 8 more lines ('history'")
    assert rows[3] == "" and rows[4].startswith("Clue — view: Ana")


# ----- in a real terminal ----------------------------------------------------------------------
tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Sized(Terminal):
    """:class:`Terminal` at a size of its own."""

    def __init__(self, record, cols: int, rows: int, *args: str):
        import tests.test_play_tmux as base

        saved = base.COLS, base.ROWS
        base.COLS, base.ROWS = cols, rows
        try:
            super().__init__(record, *args)
        finally:
            base.COLS, base.ROWS = saved
        self.rows = rows

    def screen(self) -> list[str]:
        return [r.rstrip() for r in self._tmux("capture-pane", "-p").split("\n")][:self.rows]


@pytest.fixture
def sized():
    opened: list[Sized] = []

    def open_(record, cols, rows, *args):
        t = Sized(record, cols, rows, *args)
        opened.append(t)
        return t

    yield open_
    for t in opened:
        t.close()


def settled(first: str):
    return lambda rows: prompt_ready(rows) and rows[0].startswith(first) and not any(
        "(working out the figures...)" in r for r in rows)


@tmux
def test_twenty_two_in_tmux_at_80x24(tmp_path, sized):
    t = sized(sample(tmp_path, "standard-ana-midhand.txt"), 80, 24, "--no-hint")
    rows = t.wait(settled("standard-ana-midhand.txt: twenty-two"), "the first screen")
    assert len(rows) == 24 and rows[-1] == "sleuth>"
    assert "Now: Ana to play" in rows
    assert rows[-2].startswith("Closest to elimination: ")


@tmux
def test_a_cjk_refusal_in_tmux_keeps_the_screen(tmp_path, sized):
    p = tmp_path / "g.txt"
    p.write_text(LIT_CJK + "Аня holds: 5S 7S KS 5H JH KD 2C 7C\n", encoding="utf-8")
    t = sized(p, 80, 24, "--no-hint")
    t.wait(settled("g.txt: literature"), "the first screen")
    typed = "Аня asks 李 " + "李" * 50 + ": no"      # a quoted card of 102 columns
    t._tmux("send-keys", "-l", typed)
    t._tmux("send-keys", "Enter")
    rows = t.wait(settled("refused: "), "the refusal")
    assert len(rows) == 24 and rows[-1] == "sleuth>"
    assert any(r.startswith("Literature, as seen by Аня") for r in rows)
    assert rows[-2].startswith("Next: Аня's turn")
    # the quoted card whole (a row wider than the terminal lost its end)
    said = "".join(rows[:rows.index("")]).replace(" ", "")
    assert "'" + "李" * 50 + "'" in said and said.endswith("notsaved")


# ----- help ----------------------------------------------------------------------------------
def test_help_writes_the_examples_with_the_players_as_the_record_spells_them(tmp_path):
    """A name differing from an example's only in case ('dev', 'Dev') read the example as
    it stood: help showed 'Dev requests QS: Ben' for a player written 'dev'."""
    from click.testing import CliRunner

    from cli.main import cli

    p = tmp_path / "g.txt"
    p.write_text("game: mystery-hand\nplayers: ana Ben cleo dev ELI\ndealer: ELI\nme: ana\n",
                 encoding="utf-8")
    out = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"], input="help\n").output
    examples = out[out.index("for example:"):out.index("Players: ")].split("\n")[1:-1]
    assert "  ana holds: AS 2S 9H JD QC 4D 8S 3H 5C" in examples
    assert "  dev requests QS: Ben" in examples and "  ELI requests 2C: nobody" in examples
    words = {w.strip(",:") for e in examples for w in e.split()}
    assert not words & {"Ana", "Cleo", "Dev", "Eli"}, examples


@tmux
def test_a_page_is_redrawn_at_the_new_size_when_the_terminal_is_resized(tmp_path, sized):
    """A page (here 'why') was printed once above the prompt: narrowing the terminal
    rewrapped its rows mid-word and pushed its start off the screen."""
    t = sized(sample(tmp_path, "four-players-ana.txt"), 80, 24, "--no-hint")
    t.wait(settled("four-players-ana.txt: clue"), "the first screen")
    t._tmux("send-keys", "-l", "why Pipe")
    t._tmux("send-keys", "Enter")
    t.wait(lambda r: prompt_ready(r) and r[0].startswith("Pipe: "), "the why page")
    t._tmux("resize-window", "-x", "40", "-y", "20")
    t.rows = 20
    rows = t.wait(lambda r: prompt_ready(r) and r[0] == "Pipe: could be in Cleo's hand, in the"
                  and r[1] == "  case file", "the page at 40x20", timeout=30)
    assert "(Enter: back to the sheet)" in rows and all(len(r) <= 40 for r in rows)
    assert "      11: Cleo suggests Mustard Pipe" in rows


# ----- what was saved, as the program reads it ---------------------------------------------
def test_a_statement_typed_otherwise_says_how_it_was_read(tmp_path):
    """Names in another case, cards in lower case and an ask of all's bare counts were
    echoed as typed ('saved line 9: ΧΛΌΗ asks all 6*: 0 1 0 0'), never saying who the
    counts went to; 'log' says it as the program writes it."""
    from click.testing import CliRunner

    from cli.main import cli

    p = tmp_path / "g.txt"
    p.write_text("game: mystery-hand\nplayers: Аня Ben Χλόη dev 李\ndealer: 李\nme: Аня\n"
                 "Аня holds: AS 2S 9H JD QC 4D 8S 3H 5C\nfaceup: 3C 7D 9S\n", encoding="utf-8")
    typed = ["аня asks BEN 4h-7h: 4h 6h", "Ben asks Χλόη 5*: 2   # as typed",
             "ΧΛΌΗ asks all 6*: 0 1 0 0", "edit 7 Аня asks Ben 4H-7H: 4h 6h"]
    out = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"],
                             input="\n".join(typed) + "\n").output.split("\n")
    at = out.index("saved line 7: аня asks BEN 4h-7h: 4h 6h")
    assert out[at + 1] == "  read as: Аня asks Ben 4H-7H: 4H 6H"
    at = out.index("saved line 8: Ben asks Χλόη 5*: 2   # as typed")
    assert not out[at + 1].startswith("  read as")         # typed as it is written
    at = out.index("saved line 9: ΧΛΌΗ asks all 6*: 0 1 0 0")
    assert out[at + 1] == "  read as: Χλόη asks all 6*: Аня 0, Ben 1, dev 0, 李 0"
    at = out.index("line 7 is now: Аня asks Ben 4H-7H: 4h 6h")
    assert out[at + 1] == "  read as: Аня asks Ben 4H-7H: 4H 6H"


def test_twenty_two_says_1_statement(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("game: twenty-two\nplayers: Аня Ben 李\nme: Аня\n李 deals 7\n", encoding="utf-8")
    rows = board(p, (80, 24))
    assert "Twenty-Two (standard) — view: Аня; 1 statement" in rows


MYSTERIUM = ("game: mysterium\nplayers: Аня Ben Χλόη 李\ndealer: 李\nme: Аня\n"
             "table character: 2 5 7 11 13 16\ntable location: 1 2 3 4 5 6\n"
             "table object: 1 2 3 4 5 6\nhour 1\nАня receives 2 visions\n"
             "Аня guesses character 5: right\nBen guesses character 2: wrong\n")


def test_mysterium_at_80x24_shows_each_psychics_stage_and_clock(tmp_path):
    """The whole analysis (35 rows) was cut in its middle: the clock, who is at risk, went."""
    p = tmp_path / "g.txt"
    p.write_text(MYSTERIUM, encoding="utf-8")
    rows = board(p, (80, 24), "saved line 11: Ben guesses character 2: wrong")
    assert len(rows) == 23 and all(wcswidth(r) <= 80 for r in rows)
    assert not any("more lines of the sheet" in r for r in rows)
    assert "hour 1 of 7; the psychics can still win" in rows
    at = next(i for i, r in enumerate(rows) if r.startswith("psychic "))
    assert rows[at].split() == ["psychic", "stage", "candidates", "now", "need/left",
                                "outlook"]
    assert rows[at + 2].split() == ["Аня", "location", "1", "2", "3", "4", "5", "6",
                                    "(16.7%", "each)", "2/6", "at", "risk"]
    assert rows[at + 3].split()[:3] == ["Ben", "character", "7"]
    assert rows[-2].startswith("Visions (D4): deck 75") and rows[-1] == "    left 3"


def test_a_finished_mysterium_game_shows_the_epilogue_and_the_verdict(tmp_path):
    rows = board(sample(tmp_path, "six-players-tie-break.txt"), (80, 24))
    assert "game over: WON (MY-22)" in rows and "Epilogue (D6, MY-21)" in rows
    assert rows[-1] == "culprit: group 2: the psychics WIN (MY-22)"
    assert not any("more lines of the sheet" in r for r in rows)


def test_a_hand_round_at_80x24_shows_every_players_row(tmp_path):
    """The unseen cards' five rows pushed the sheet past 80x24; its middle cut took the
    players' rows (who holds what)."""
    rows = board(sample(tmp_path, "round-midway-ana.txt"), (80, 24), "saved line 29: ...")
    assert len(rows) == 23 and not any("more lines of the sheet" in r for r in rows)
    assert "Ana to play; stock 51; discard pile top: 10S" in rows
    at = rows.index(next(r for r in rows if r.startswith("player ")))
    assert [r.split()[0] for r in rows[at + 1:at + 4]] == ["Ana", "Ben", "Cleo"]
    assert rows[at + 4] == "unseen: 73 cards, in Ben 14, Cleo 8, stock 51 ('sheet' lists them)"
    assert rows[-1] == "Next: Ana's turn (yours)."
    rows = board(sample(tmp_path, "round-unopened-next.txt"), (80, 24), "saved line 9: ...")
    at = rows.index(next(r for r in rows if r.startswith("discard ")))
    assert [r.split()[0] for r in rows[at + 1:at + 6]] == ["2S", "4D", "3S", "6H", "7D"]
    assert rows[at + 6] == "  ... 3 more discards ('sheet' lists them all)"
    assert not any("more lines of the sheet" in r for r in rows)


# ----- the end of a session loses nothing typed ----------------------------------------------
LIT_HELD = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
            "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")
WRONG_CLAIM = "Ana claims 2H-7H: Ana 2H 3H 4H 5H 6H 7H"


def test_a_held_claim_is_kept_when_the_session_ends(tmp_path):
    """A claim held for its shown line was dropped when the input ended (Ctrl-D): the
    claim typed was lost, where 'sleuth log' keeps it as a '# held:' comment line.  It is
    now saved as that line as soon as it is typed."""
    from click.testing import CliRunner

    from cli.main import cli

    p = tmp_path / "g.txt"
    p.write_text(LIT_HELD, encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"], input=WRONG_CLAIM + "\n")
    assert r.exit_code == 0             # kept, as 'sleuth log' keeps it (exit 0 there too)
    assert "  saved as comment line 5 (# held: ...), not yet a statement: as stated, this " \
        "claim contradicts the record" in r.output
    assert p.read_text(encoding="utf-8") == LIT_HELD + f"# held: {WRONG_CLAIM}\n"
    # the next session says so, and the shown line saves both
    r = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"],
                           input="shown 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H\n")
    assert r.exit_code == 0, r.output
    assert f"held on line 5 (a comment until resolved): {WRONG_CLAIM}" in r.output
    assert p.read_text(encoding="utf-8") == LIT_HELD + f"{WRONG_CLAIM}\n" \
        "shown 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H\n"


@tmux
def test_ctrl_d_keeps_a_held_claim(tmp_path, sized):
    p = tmp_path / "g.txt"
    p.write_text(LIT_HELD, encoding="utf-8")
    t = sized(p, 80, 24, "--no-hint")
    t.wait(settled("g.txt: literature"), "the first screen")
    t._tmux("send-keys", "-l", WRONG_CLAIM)
    t._tmux("send-keys", "Enter")
    t.wait(lambda r: prompt_ready(r) and r[0].startswith("held: "), "the held claim")
    # in the file at once, while the session goes on
    assert p.read_text(encoding="utf-8") == LIT_HELD + f"# held: {WRONG_CLAIM}\n"
    t._tmux("send-keys", "C-d")
    end = time.monotonic() + 60
    while t._tmux("display-message", "-p", "#{pane_current_command}").strip() != "sleep":
        assert time.monotonic() < end, "play did not end on Ctrl-D"
        time.sleep(0.1)
    rows = t.screen()
    assert not any("Traceback" in x for x in rows)
    assert p.read_text(encoding="utf-8") == LIT_HELD + f"# held: {WRONG_CLAIM}\n"


def test_ctrl_c_while_a_line_is_checked_keeps_a_held_claim(tmp_path, monkeypatch):
    """Ctrl-C while the line after a held claim was checked ended the program (as it
    should) and dropped the claim."""
    from click.testing import CliRunner

    from cli.main import cli

    p = tmp_path / "g.txt"
    p.write_text(LIT_HELD, encoding="utf-8")
    handle = Session.handle

    def interrupted(self, line, *args, **kwargs):
        if line.startswith("shown"):            # the key comes while this line is checked
            raise KeyboardInterrupt
        return handle(self, line, *args, **kwargs)

    monkeypatch.setattr(Session, "handle", interrupted)
    old = signal.getsignal(signal.SIGINT)
    try:
        r = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"],
                               input=WRONG_CLAIM + "\nshown 2H-7H: Ana 2H\n")
    finally:        # the interrupt's end ignores a second Ctrl-C: not in this process
        signal.signal(signal.SIGINT, old)
    assert r.exit_code == 130
    assert "saved as comment line 5 (# held: ...)" in r.output
    assert p.read_text(encoding="utf-8") == LIT_HELD + f"# held: {WRONG_CLAIM}\n"


# ----- completion of a name typed in another case -------------------------------------------
def test_completion_reads_a_name_typed_in_another_case(tmp_path):
    """'ben requests ' offered the names and the 124 ranges (the name was not known as
    one, so the keyword's 'what follows' was not used); 'Ben requests ' offers the cards."""
    p = tmp_path / "g.txt"
    p.write_text(MH_CJK, encoding="utf-8")
    s = Session(str(p))
    for typed in ("Ben", "ben", "BEN"):
        assert s.complete(f"{typed} requests ") == s.complete("Ben requests ")
        assert s.complete(f"{typed} requests ")[:3] == ["AS", "2S", "3S"]
        assert s.complete(f"{typed} asks ") == ["Аня", "Ben", "Χλόη", "dev", "李", "all"]
        assert s.complete(f"{typed} a") == s.complete("Ben a")
    assert s.complete("χλόη asks ") == ["Аня", "Ben", "Χλόη", "dev", "李", "all"]


@tmux
def test_a_whatif_page_keeps_what_it_is_about_in_sight(tmp_path, sized):
    """The whatif page (what would change, then the hypothetical sheet) was taller than
    80x24 and printed: its first lines, the statement and what it would change, scrolled
    off the screen.  It shows its first rows, and scrolls."""
    t = sized(sample(tmp_path, "five-players-ana.txt"), 80, 24, "--no-hint")
    t.wait(settled("five-players-ana.txt: mystery-hand"), "the first screen")
    t._tmux("send-keys", "-l", "whatif Eli asks Ana 5*: 1")
    t._tmux("send-keys", "Enter")
    rows = t.wait(lambda r: prompt_ready(r) and "(Enter: back to the sheet)" in r,
                  "the whatif page")
    assert rows[0] == "what if: Eli asks Ana 5*: 1   (not saved)", rows
    assert "  no card would become certain" in rows
    assert "--- what if (hypothetical: not saved) ---" in rows
    # taller than the screen: its first rows, then PgDn shows the rest (it was cut in the
    # middle, with a note that 'sheet' shows the rest: the sheet of the record as it is)
    assert rows[-3] == "rows 1-21 of 24 -- PgDn or 'more'", rows
    assert rows[-2] == "(Enter: back to the sheet)"
    assert not any("more lines of the sheet" in r for r in rows)
    t._tmux("send-keys", "PgDn")
    rest = t.wait(lambda r: prompt_ready(r) and any(x.startswith("rows 4-24 of 24") for x in r),
                  "the whatif page's last rows")
    assert rest[-4:-1] == ["--- end of what if ---", "rows 4-24 of 24 -- PgUp; 'more': top",
                           "(Enter: back to the sheet)"], rest
    assert any(r.startswith("Verdict: not determined: 2,205 candidates") for r in rows + rest)
    assert all(len(r) <= 80 for r in rows + rest)
    t._tmux("send-keys", "Enter")
    back = t.wait(lambda r: prompt_ready(r) and "(Enter: back to the sheet)" not in r,
                  "the sheet again")
    assert not any(x.startswith("--- what if") for x in back)


def test_completion_after_an_ask_of_all_offers_the_names(tmp_path):
    """After 'Ben asks all 8S-JS: ' the answer is the counts, 'Аня 0, Χλόη 1, ...': Tab
    offered the 52 cards (the answer of an ask of one) before the names."""
    p = tmp_path / "g.txt"
    p.write_text(MH_CJK, encoding="utf-8")
    s = Session(str(p))
    names = ["Аня", "Ben", "Χλόη", "dev", "李"]
    assert s.complete("Ben asks all 8S-JS: ") == names + ["?"]
    assert s.complete("ben asks all 8S-JS: Аня 0, ") == names + ["?"]
    assert s.complete("Ben asks all 8S-JS: Аня 0, Χ") == ["Χλόη"]
    assert s.complete("Ben asks all ")[:2] == ["AS-4S", "2S-5S"]
    assert s.complete("Ben asks Χλόη 8S-JS: ")[:2] == ["AS", "2S"]    # an ask of one: cards


# ----- a paste of several lines ---------------------------------------------------------------
MH5 = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"
       "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C\nfaceup: 3C 7D 9S\n")


def paste(t: Sized, text: str) -> None:
    """``text`` pasted into the terminal as a terminal pastes (bracketed)."""
    import subprocess

    subprocess.run(["tmux", "-L", t.socket, "load-buffer", "-"], input=text, text=True,
                   check=True)
    t._tmux("paste-buffer", "-p")


@tmux
def test_a_paste_of_several_lines_enters_each(tmp_path, sized):
    """A paste of two statements went into the one-line input whole: the completion menu
    and the second line were drawn over the sheet, and Enter sent both as one line."""
    p = tmp_path / "g.txt"
    p.write_text(MH5, encoding="utf-8")
    t = sized(p, 80, 24, "--no-hint")
    t.wait(settled("g.txt: mystery-hand"), "the first screen")
    paste(t, "Ana asks Ben 4H-7H: 4H 6H\n\nBen asks Cleo 5*: 2\nCleo asks")
    rows = t.wait(lambda r: r[-1] == "sleuth> Cleo asks" and r[0].startswith("saved line 8")
                  and not any("(working out" in x for x in r), "the paste entered")
    assert rows[0] == "saved line 8: Ben asks Cleo 5*: 2" and rows[-2] == "Next: Cleo's turn."
    assert p.read_text(encoding="utf-8") == MH5 + "Ana asks Ben 4H-7H: 4H 6H\n" \
        "Ben asks Cleo 5*: 2\n"
    # a refused line stops the paste: the lines after it are said, not entered
    t._tmux("send-keys", "C-u")
    paste(t, "Ben asks Dev 5*: 2\nCleo asks Dev 6*: 1\n")
    rows = t.wait(lambda r: prompt_ready(r) and r[0].startswith("refused: "), "the refusal")
    assert "    Cleo asks Dev 6*: 1" in rows
    assert p.read_text(encoding="utf-8").count("\n") == MH5.count("\n") + 2
    t._tmux("send-keys", "-l", "history")
    t._tmux("send-keys", "Enter")
    rows = t.wait(lambda r: prompt_ready(r) and "(Enter: back to the sheet)" in r, "history")
    assert "1 more pasted line not entered:" in " ".join(rows)


@tmux
def test_ctrl_c_drops_the_line_typed_but_up_brings_it_back(tmp_path, sized):
    """Ctrl-C at the prompt drops the line being typed (as a shell does); it was lost, not
    kept in the prompt's history."""
    p = tmp_path / "g.txt"
    p.write_text(MH5, encoding="utf-8")
    t = sized(p, 80, 24, "--no-hint")
    t.wait(settled("g.txt: mystery-hand"), "the first screen")
    t._tmux("send-keys", "-l", "Ana asks Ben 4H-7H: 4H")
    t.wait(lambda r: r[-1] == "sleuth> Ana asks Ben 4H-7H: 4H", "the line typed")
    t._tmux("send-keys", "C-c")
    t.wait(prompt_ready, "the line dropped")
    t._tmux("send-keys", "Up")
    t.wait(lambda r: r[-1] == "sleuth> Ana asks Ben 4H-7H: 4H", "the line back", timeout=20)
    t._tmux("send-keys", "-l", " 6H")
    rows = t.type("", settled("saved line 7: "), "the line saved")
    assert rows[0] == "saved line 7: Ana asks Ben 4H-7H: 4H 6H"
    assert p.read_text(encoding="utf-8") == MH5 + "Ana asks Ben 4H-7H: 4H 6H\n"
