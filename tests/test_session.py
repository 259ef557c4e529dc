"""The live session (issue 8): the state machine of solver.session driven line by line, and
``sleuth play`` driven through its standard input; the file on disk after every step."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import InconsistentError, NotationError, RuleError
from solver.games import get_game
from solver.records import parse_record, read_record
from solver.session import Session, Vocabulary, complete, vocabulary

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

HEADER = """# a game at the table
game: mystery-hand
players: P1 P2 P3 P4
dealer: P4
me: P1
"""
HOLDS = "P1 holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"
ASK = "P1 asks P2 4H-7H: 4H 7H"
ASK_ALL = "P2 asks all 6*: P1 1, P3 1, P4 2"
REQUEST = "P2 requests KS: nobody"
CONTRA = "P3 asks P4 6*: 0"          # P4 holds two sixes (line ASK_ALL)


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(HEADER, encoding="utf-8")
    return path


def on_disk(path) -> str:
    text = Path(path).read_text(encoding="utf-8")
    parse_record(text, str(path))          # always a valid record (parses, follows the rules)
    return text


def test_accept_appends_and_saves_each_statement(record):
    s = Session(str(record))
    expected = HEADER
    for i, st in enumerate([HOLDS, ASK, ASK_ALL, REQUEST]):
        o = s.handle(st)
        assert o.kind == "accepted" and o.saved and o.exit_code == 0
        expected += st + "\n"
        assert o.line == 6 + i
        assert on_disk(record) == expected
    a = s.analyze()
    assert a.certain("KS") == "mystery" and a.certain("4H") == "P2"


def test_comment_after_statement_is_kept(record):
    s = Session(str(record))
    assert s.handle(HOLDS + "   # dealt to me").kind == "accepted"
    assert on_disk(record) == HEADER + HOLDS + "   # dealt to me\n"
    assert s.handle("# Ben looks nervous").kind == "noted"
    assert on_disk(record) == HEADER + HOLDS + "   # dealt to me\n# Ben looks nervous\n"


@pytest.mark.parametrize("line, error, code", [
    ("P1 askz P2 4H-7H: 4H", NotationError, 2),            # does not parse
    ("P5 asks P2 4H-7H: 4H", NotationError, 2),            # unknown player
    ("P1 asks P2 4H-7H: 4H 5H", RuleError, 2),             # 5H is P1's own card (MH-1)
    ("P1 asks P2 2C-5C: 0", RuleError, 2),                 # P1 holds all four (MH-11)
    ("P2 asks P3 4H-7H: 1", RuleError, 2),                 # not P2's turn
])
def test_refused_statements_leave_the_file_untouched(record, line, error, code):
    s = Session(str(record))
    s.handle(HOLDS)
    before = on_disk(record)
    o = s.handle(line)
    assert o.kind == "refused" and not o.saved
    assert isinstance(o.error, error) and o.exit_code == code
    assert on_disk(record) == before


def test_contradiction_is_refused_with_the_conflicting_lines(record):
    s = Session(str(record))
    for st in (HOLDS, ASK, ASK_ALL):
        s.handle(st)
    before = on_disk(record)
    o = s.handle(CONTRA)
    assert o.kind == "refused" and isinstance(o.error, InconsistentError)
    assert o.exit_code == 3
    assert o.conflict == [(8, ASK_ALL), (9, CONTRA)]
    assert on_disk(record) == before


def test_force_saves_a_contradiction_and_undo_removes_it(record):
    s = Session(str(record))
    for st in (HOLDS, ASK, ASK_ALL):
        s.handle(st)
    s.handle(CONTRA)
    o = s.handle("force")                       # the last refused statement
    assert o.kind == "accepted" and o.forced and o.line == 9
    assert [ln for ln, _ in o.conflict] == [8, 9]
    text = on_disk(record)
    assert text == HEADER + "\n".join([HOLDS, ASK, ASK_ALL, CONTRA]) + "\n"
    with pytest.raises(InconsistentError):
        get_game("mystery-hand").check(read_record(str(record)))
    assert s.consistent() is not None
    # restarting on a forced (inconsistent) record works: undo can repair it
    s2 = Session(str(record))
    assert s2.handle("undo").removed == [(9, CONTRA)]
    assert on_disk(record) == HEADER + "\n".join([HOLDS, ASK, ASK_ALL]) + "\n"
    assert s2.consistent() is None


def test_force_with_a_statement_still_needs_notation_and_rules(record):
    s = Session(str(record))
    s.handle(HOLDS)
    before = on_disk(record)
    assert isinstance(s.handle("force P1 asks P2 2C-5C: 0").error, RuleError)   # MH-11
    assert s.handle("force P1 asks P2 4H-7H: 4H 5H").error.rule == "MH-1"       # P1's 5H
    assert isinstance(s.handle("force gibberish").error, NotationError)
    assert s.handle("force").kind == "refused"          # nothing refused yet
    assert on_disk(record) == before
    o = s.handle("force " + ASK)
    assert o.kind == "accepted" and o.forced and not o.conflict


def test_undo_keeps_header_and_comment_lines(record):
    s = Session(str(record))
    s.handle(HOLDS)
    s.handle("# after the deal")
    s.handle(ASK + "  # Ben showed me two")
    assert s.handle("undo").removed == [(8, ASK)]
    assert on_disk(record) == HEADER + HOLDS + "\n# after the deal\n"
    assert s.handle("undo").removed == [(6, HOLDS)]
    assert on_disk(record) == HEADER + "# after the deal\n"
    o = s.handle("undo")
    assert o.kind == "refused" and "nothing to undo" in str(o.error)
    assert on_disk(record) == HEADER + "# after the deal\n"


def test_whatif_shows_what_follows_without_saving(record):
    s = Session(str(record))
    for st in (HOLDS, ASK, ASK_ALL):
        s.handle(st)
    before = on_disk(record)
    o = s.handle("whatif " + REQUEST)
    assert o.kind == "whatif" and not o.saved
    assert o.new_certain.get("KS") == "mystery"
    assert o.before.summary["candidates"] == 52360
    assert o.after.summary["candidates"] < o.before.summary["candidates"]
    assert on_disk(record) == before
    # a hypothesis that contradicts the record is reported, not saved
    bad = s.handle("whatif " + CONTRA)
    assert bad.kind == "refused" and [ln for ln, _ in bad.conflict] == [8, 9]
    assert on_disk(record) == before


def test_why_explains_with_record_lines(record):
    s = Session(str(record))
    for st in (HOLDS, ASK, ASK_ALL, REQUEST):
        s.handle(st)
    o = s.handle("why KS")
    assert o.kind == "why"
    lines = {ln for r in o.explanation.reasons for ln in r.lines}
    assert 9 in lines                                   # the request nobody answered
    assert s.handle("why ZZ").kind == "refused"
    assert s.handle("why").kind == "refused"


def test_help_lists_commands_and_statements(record):
    o = Session(str(record)).handle("help")
    assert o.kind == "help"
    for word in ("undo", "whatif", "why", "force", "quit", "asks all", "P1 P2 P3 P4"):
        assert word in o.message


def test_a_player_named_like_a_command_is_a_statement(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("game: mystery-hand\nplayers: undo Ben Cleo\nme: Ben\n", encoding="utf-8")
    s = Session(str(path))
    o = s.handle("undo asks Ben 4H-7H: 0")
    assert o.kind == "accepted", o.error


def test_file_edited_by_hand_is_reloaded(record):
    s = Session(str(record))
    s.handle(HOLDS)
    with open(record, "a", encoding="utf-8") as f:
        f.write(ASK + "   # typed in an editor\n")
    o = s.handle(ASK_ALL)
    assert o.kind == "accepted" and o.reloaded and o.line == 8
    assert on_disk(record).endswith("# typed in an editor\n" + ASK_ALL + "\n")
    # a broken hand edit: refused until fixed, the file is not overwritten
    with open(record, "a", encoding="utf-8") as f:
        f.write("P3 asks nobody\n")
    broken = Path(record).read_text(encoding="utf-8")
    assert s.handle(REQUEST).kind == "refused"
    assert Path(record).read_text(encoding="utf-8") == broken


def test_a_failed_write_leaves_the_old_record(record, monkeypatch):
    s = Session(str(record))
    s.handle(HOLDS)
    before = on_disk(record)

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    out = s.handle(ASK)           # refused with a message, not an OSError (issue 12)
    assert out.kind == "refused" and "disk full" in str(out.error)
    monkeypatch.undo()
    assert on_disk(record) == before
    assert [p.name for p in Path(record).parent.iterdir()] == ["game.txt"]   # no temp left
    assert s.handle(ASK).kind == "accepted"                # the session goes on


# ----- Literature: a claim and its shown line ------------------------------------------------
FULL_GAME = SAMPLES / "literature" / "six-players-full-game.txt"


def wrong_claim_line() -> int:
    """The record line of the sample's first claim that, without its ``shown`` line, cannot
    be saved (as stated, it contradicts the record or breaks a rule)."""
    src = read_record(str(FULL_GAME))
    game = get_game("literature")
    sts = src.statements
    for i, st in enumerate(sts[:-1]):
        if type(st.event).__name__ == "Claim" and type(sts[i + 1].event).__name__ == "Shown":
            try:
                game.validate(src.prefix(i + 1))
                game.check(src.prefix(i + 1))
            except (InconsistentError, RuleError):
                return st.line
    raise AssertionError("the sample has no wrong claim")


def literature_upto(tmp_path, line: int):
    """A Literature record: the full-game sample up to (not including) record line ``line``;
    returns the path and the sample's statements from there on."""
    src = read_record(str(FULL_GAME))
    text = "\n".join(src.header.lines()) + "\n"
    kept = [s for s in src.statements if s.line < line]
    text += "".join(s.text + "\n" for s in kept)
    path = tmp_path / "lit.txt"
    path.write_text(text, encoding="utf-8")
    return path, [s for s in src.statements if s.line >= line]


def on_turn(path) -> str:
    """The player on turn after the record at ``path`` (its game's own turn order)."""
    from web.live import current_player

    who = current_player(read_record(str(path)))[0]
    assert who is not None
    return who


def test_wrong_claim_is_held_until_its_shown_line(tmp_path):
    path, rest = literature_upto(tmp_path, wrong_claim_line())
    claim, shown = rest[0].text, rest[1].text
    assert "claims" in claim and shown.startswith("shown")
    s = Session(str(path))
    before = on_disk(path)
    o = s.handle(claim)
    assert o.kind == "pending" and o.saved
    # as stated it cannot be a statement: a comment line at once, as 'sleuth log' holds it
    assert on_disk(path) == before + "# held: " + claim + "\n"
    assert o.line == len(on_disk(path).splitlines())
    o = s.handle(shown)
    assert o.kind == "accepted"
    assert on_disk(path) == before + claim + "\n" + shown + "\n"
    # undo removes the claim with its shown line
    assert [t for _, t in s.handle("undo").removed] == [claim, shown]
    assert on_disk(path) == before


def test_held_claim_stays_a_comment_line_after_another_statement(tmp_path):
    """Another statement saved after a held claim dropped it (and the claim typed was
    lost); now, as with ``sleuth log``, the claim's ``# held:`` line stays, and it says so."""
    path, rest = literature_upto(tmp_path, wrong_claim_line())
    s = Session(str(path))
    before = on_disk(path)
    assert s.handle(rest[0].text).kind == "pending"
    n = len(on_disk(path).splitlines())
    turn = f"turn: {on_turn(path)}"
    o = s.handle(turn)                                  # not a shown line, and saved
    assert o.kind == "accepted"
    assert o.message == (f"note: the held claim on line {n} stays a comment line, not a "
                         f"statement: {rest[0].text}")
    assert on_disk(path) == before + f"# held: {rest[0].text}\n{turn}\n"


def test_held_claim_stays_held_when_another_statement_is_refused(tmp_path):
    """A statement refused (out of turn here, LIT-9) saves nothing and so drops nothing:
    the claim stays held for its shown line, as ``sleuth log`` keeps its ``# held:`` line.
    It used to be dropped, and the claim typed was lost."""
    path, rest = literature_upto(tmp_path, wrong_claim_line())
    s = Session(str(path))
    before = on_disk(path)
    assert s.handle(rest[0].text).kind == "pending"
    o = s.handle("Zed asks Ben 9C: no")                # no such player: refused
    assert o.kind == "refused" and "dropped" not in o.message
    o = s.handle("Ana asks Ana 9C: no")                # a rule: refused
    assert o.kind == "refused" and "dropped" not in o.message
    assert on_disk(path) == before + f"# held: {rest[0].text}\n"
    assert s.handle(rest[1].text).kind == "accepted"
    assert on_disk(path) == before + rest[0].text + "\n" + rest[1].text + "\n"


def test_the_held_statement_is_worded_by_its_game(tmp_path, monkeypatch):
    """The session names a held statement and what resolves it in the event class's words
    (``held_name``, ``held_advice``), not its own."""
    from solver.literature.events import Claim

    monkeypatch.setattr(Claim, "held_name", "wager")
    monkeypatch.setattr(Claim, "held_advice", "type what was shown")
    path, rest = literature_upto(tmp_path, wrong_claim_line())
    s = Session(str(path))
    o = s.handle(rest[0].text)
    assert o.kind == "pending"
    assert "this wager" in o.message and "; type what was shown (another statement saved " \
        "leaves the wager a comment line; 'undo' takes it back)" in o.message
    assert s.held_name() == "wager"
    assert "note: the held wager on line " in s.handle(f"turn: {on_turn(path)}").message


def test_whole_literature_game_through_the_session(tmp_path):
    src = read_record(str(SAMPLES / "literature" / "six-players-full-game.txt"))
    path = tmp_path / "lit.txt"
    path.write_text("\n".join(src.header.lines()) + "\n", encoding="utf-8")
    s = Session(str(path))
    for st in src.statements:
        assert s.handle(st.text).kind in ("accepted", "pending"), st
        on_disk(path)
    assert [x.text for x in read_record(str(path)).statements] == \
        [x.text for x in src.statements]


# ----- completion -----------------------------------------------------------------------------
def test_completion_words_follow_the_record():
    rec = parse_record(HEADER)
    v = vocabulary(rec)
    assert complete(v, "P")[:4] == ["P1", "P2", "P3", "P4"]
    assert complete(v, "P1 a") == ["asks", "announces"]
    assert "4H-7H" in complete(v, "P1 asks P2 4H-") and "JH-AH" in complete(v, "P1 asks P2 JH")
    # a query set is a range or a rank, never one card (MH-9): no 6S after 'asks all'
    assert complete(v, "P2 asks all 6") == ["6S-9S", "6H-9H", "6D-9D", "6C-9C", "6*"]
    assert complete(v, "why K") == ["KS", "KH", "KD", "KC"]
    assert complete(v, "whatif P2 req") == ["requests"]
    assert complete(v, "u") == ["undo"]
    lit = vocabulary(parse_record("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\n"))
    assert "2H-7H" in lit.ranges and "9S-AS" in lit.ranges and "8H" not in lit.cards
    assert "claims" in complete(lit, "Ana c")
    rec = read_record(str(SAMPLES / "mysterium" / "three-players-lost.txt"))
    my = vocabulary(rec)
    assert "Ana-1" in my.names and "character 4" in my.cards
    assert complete(my, "Ana-1 gu") == ["guesses"]


def test_completion_is_case_insensitive():
    v = Vocabulary(("Ana",), (), ("asks",), (), ("AS",), ())
    assert complete(v, "an") == ["Ana"] and complete(v, "Ana ASK") == ["asks"]


# ----- sleuth play ----------------------------------------------------------------------------
def play(runner, path, lines, *args):
    return runner.invoke(cli, ["play", str(path), *args], input="".join(l + "\n" for l in lines))


def test_play_step_by_step_through_stdin(record):
    """One ``sleuth play`` run per line: the file after each step."""
    runner = CliRunner()
    expected = HEADER
    steps = [(HOLDS, 0, True), (ASK, 0, True), ("P1 askz", 2, False), (ASK_ALL, 0, True),
             (CONTRA, 3, False), ("whatif " + REQUEST, 0, False), (REQUEST, 0, True)]
    for line, code, saved in steps:
        r = play(runner, record, [line], "--no-sheet")
        assert r.exit_code == code, r.output
        if saved:
            expected += line + "\n"
        assert on_disk(record) == expected
    r = play(runner, record, ["undo"], "--no-sheet")
    assert r.exit_code == 0 and f"removed line 9: {REQUEST}" in r.output
    assert on_disk(record) == HEADER + "\n".join([HOLDS, ASK, ASK_ALL]) + "\n"


def test_play_session_transcript(record):
    r = play(CliRunner(), record,
             [HOLDS, ASK, ASK_ALL, CONTRA, "force", "undo", "whatif " + REQUEST, REQUEST,
              "why KS", "help", "sheet", "quit", "P3 asks P4 5*: 1"])
    out = r.output
    assert r.exit_code == 3, out                        # a contradiction was refused
    assert "saved line 6: " + HOLDS in out
    assert "line 8: " + ASK_ALL in out and "<- this statement" in out
    assert "saved line 9: " + CONTRA + "  (forced)" in out
    assert "removed line 9: " + CONTRA in out
    assert "would become certain: " in out and "KS -> mystery" in out
    assert "Memory sheet" in out and "Verdict:" in out      # the sheet after each statement
    assert "KS: " in out                                    # why
    assert "\x1b[" not in out                               # plain text when piped
    # 'quit' ended the session: the last line was never read
    assert on_disk(record) == HEADER + "\n".join([HOLDS, ASK, ASK_ALL, REQUEST]) + "\n"


def test_play_json_lines(record):
    r = play(CliRunner(), record, [HOLDS, "P1 askz", ASK, "whatif " + ASK_ALL, "undo"],
             "--json")
    objs = [json.loads(l) for l in r.output.splitlines() if l.startswith("{")]
    assert [o["result"] for o in objs] == ["started", "accepted", "refused", "accepted",
                                           "whatif", "undone"]
    assert objs[1]["analysis"]["game"] == "mystery-hand"
    assert objs[2]["exit_code"] == 2
    assert objs[4]["after"]["summary"]["candidates"] == 52360
    assert objs[5]["removed"] == [{"line": 7, "text": ASK}]
    assert r.exit_code == 2


def test_play_refuses_a_missing_or_broken_record(tmp_path):
    runner = CliRunner()
    r = runner.invoke(cli, ["play", str(tmp_path / "nope.txt")], input="")
    assert r.exit_code == 2 and "sleuth new" in r.output
    bad = tmp_path / "bad.txt"
    bad.write_text("game: mystery-hand\nplayers: A B C\nA flies\n", encoding="utf-8")
    assert runner.invoke(cli, ["play", str(bad)], input="").exit_code == 2
    ok = tmp_path / "ok.txt"
    ok.write_text(HEADER, encoding="utf-8")
    assert runner.invoke(cli, ["play", str(ok), "--as", "Zed"], input="").exit_code == 2


def test_a_crash_mid_session_leaves_a_valid_record(record, monkeypatch):
    """An exception while analysing (after the third statement was saved) kills the session;
    the record on disk holds every statement accepted so far and is valid."""
    from solver.mystery_hand.game import MysteryHandGame

    calls = {"n": 0}
    real = MysteryHandGame.analyze

    def flaky(self, rec, view, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("power cut")
        return real(self, rec, view, **kw)

    monkeypatch.setattr(MysteryHandGame, "analyze", flaky)
    r = play(CliRunner(), record, [HOLDS, ASK, ASK_ALL, REQUEST])
    assert isinstance(r.exception, RuntimeError)
    text = on_disk(record)
    assert text == HEADER + "\n".join([HOLDS, ASK, ASK_ALL]) + "\n"
    monkeypatch.undo()
    # and a new session picks up where it stopped
    r = play(CliRunner(), record, [REQUEST], "--no-sheet")
    assert r.exit_code == 0 and on_disk(record).endswith(REQUEST + "\n")


def test_whole_mystery_hand_game_through_play(tmp_path):
    src = read_record(str(SAMPLES / "mystery-hand" / "two-player-chosen.txt"))
    path = tmp_path / "g.txt"
    path.write_text("\n".join(src.header.lines()) + "\n", encoding="utf-8")
    r = play(CliRunner(), path, [s.text for s in src.statements], "--no-sheet")
    assert r.exit_code == 0, r.output
    assert [s.text for s in read_record(str(path)).statements] == \
        [s.text for s in src.statements]
    assert "refused" not in r.output


def test_colour_only_on_a_terminal_and_without_no_color(monkeypatch):
    from cli.session import colourize, use_colour

    class Tty:
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_colour(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Tty())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not use_colour(Tty())
    assert colourize("AS 10H ♥", False) == "AS 10H ♥"
    red = colourize("10H 4D-7D", True)
    assert "\x1b[31m10H" in red and "\x1b[31m4D" in red and "\x1b[31m7D" in red
    assert "\x1b[1mAS" in colourize("AS", True)
    assert colourize("Ana asks", True) == "Ana asks"


def test_shell_completion_of_as_names_the_record_players(monkeypatch):
    from click.shell_completion import ShellComplete

    path = str(SAMPLES / "mystery-hand" / "seven-players.txt")
    comp = ShellComplete(cli, {}, "sleuth", "_SLEUTH_COMPLETE")
    words = [c.value for c in comp.get_completions(["play", path, "--as"], "")]
    assert words == ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "public"]
    words = [c.value for c in comp.get_completions(["replay", path, "--json", "--as"], "C")]
    assert words == ["Cleo"]


def test_shell_completion_of_as_offers_only_the_views_a_partial_record_gives():
    """A player's partial record is analysed from its recorder's view or the public one
    (records.resolve_view): the other players are not offered."""
    from click.shell_completion import ShellComplete

    path = str(SAMPLES / "mystery-hand" / "five-players-ana.txt")
    comp = ShellComplete(cli, {}, "sleuth", "_SLEUTH_COMPLETE")
    words = [c.value for c in comp.get_completions(["serve", path, "--as"], "")]
    assert words == ["Ana", "public"]


def test_walkthrough(tmp_path):
    """The module's walk-through: accept, refuse by rule, refuse a contradiction, undo."""
    path = tmp_path / "game.txt"
    path.write_text("game: mystery-hand\nplayers: P1 P2 P3 P4\ndealer: P4\nme: P1\n")
    s = Session(str(path))
    assert s.handle("P1 holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC").kind == "accepted"
    assert s.handle("P1 asks P2 2C-5C: 0").error.rule == "MH-11"      # P1 holds all four
    assert s.handle("P1 asks P2 4H-7H: 4H 5H").error.rule == "MH-1"   # P1 holds 5H
    s.handle("P1 asks P2 4H-7H: 4H 7H")
    s.handle("P2 asks all 6*: P1 1, P3 1, P4 2")
    o = s.handle("P3 asks P4 6*: 0")                                   # P4 holds two sixes
    assert (o.kind, o.conflict) == ("refused", [(7, "P2 asks all 6*: P1 1, P3 1, P4 2"),
                                                (8, "P3 asks P4 6*: 0")])
    assert s.handle("undo").removed == [(7, "P2 asks all 6*: P1 1, P3 1, P4 2")]
    assert path.read_text().count("asks") == 1


@pytest.mark.parametrize("bad", ["me: P2", "variant: sneak", "", "   ", "# a note",
                                 "P1 asks P2 4H-7H: 2\rP2 asks P3 5*: 1", "P1 asks\x07 P2"])
def test_refused_append_leaves_file_identical(tmp_path, bad):
    from solver.errors import SleuthError
    from solver.session import append_statement

    path = tmp_path / "game.txt"
    text = "game: mystery-hand\nplayers: P1 P2 P3 P4\nme: P1\n"
    path.write_bytes(text.encode())
    with pytest.raises(SleuthError):
        append_statement(str(path), bad)
    assert path.read_bytes() == text.encode()
