"""``sleuth play`` and ``sleuth log`` as a person at the table uses them (issue 14):
editing the past, forgiving input, the table state said plainly.  Driven through the CLI
with piped input, as a user would."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli

HEADER = "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"
HOLDS = "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C"          # line 5
ASK = "Ana asks Ben 4H-7H: 4H 6H"                        # line 6
ASK_ALL = "Ben asks all 6*: Ana 0, Cleo 1, Dev 1, Eli 1"  # line 7 (Ben holds 6H)


@pytest.fixture
def record(tmp_path):
    p = tmp_path / "game.txt"
    p.write_text(HEADER + HOLDS + "\n" + ASK + "\n", encoding="utf-8")
    return p


def play(record, lines, *extra):
    return CliRunner().invoke(cli, ["play", str(record), "--no-sheet", *extra],
                              input="".join(l + "\n" for l in lines))


def text(record):
    return record.read_text(encoding="utf-8")


# ----- editing the past -------------------------------------------------------------------
def test_undo_says_what_it_removed_and_redo_puts_it_back(record):
    r = play(record, [ASK_ALL, "undo", "redo"])
    assert r.exit_code == 0, r.output
    assert f"undo: removed line 7: {ASK_ALL}" in r.output
    assert f"redo: put back line 7: {ASK_ALL}" in r.output
    assert text(record) == HEADER + HOLDS + "\n" + ASK + "\n" + ASK_ALL + "\n"


def test_redo_needs_an_undo_and_an_unchanged_record(record):
    r = play(record, ["redo", "undo", "Ana asks Ben 4H-7H: 4H", "redo"])
    assert r.exit_code == 2
    assert r.output.count("nothing to redo") == 2
    assert text(record) == HEADER + HOLDS + "\nAna asks Ben 4H-7H: 4H\n"


def test_edit_an_earlier_line(record):
    before = HEADER + HOLDS + "\n" + ASK + "   # two shown\n"
    record.write_text(before, encoding="utf-8")
    r = play(record, ["edit 6 Ana asks Ben 4H-7H: 4H"])
    assert r.exit_code == 0, r.output
    assert f"line 6 was: {ASK}" in r.output and "line 6 is now: Ana asks Ben 4H-7H: 4H" \
        in r.output
    # the comment of the line is kept
    assert text(record) == HEADER + HOLDS + "\nAna asks Ben 4H-7H: 4H   # two shown\n"


def test_an_edit_that_contradicts_a_later_line_is_refused_with_the_conflict(record):
    all4 = "Ben asks all 6*: Ana 0, Cleo 1, Dev 2, Eli 1"   # the four 6s: none is Ben's
    record.write_text(HEADER + HOLDS + "\nAna asks Ben 4H-7H: 4H\n" + all4 + "\n",
                      encoding="utf-8")
    before = text(record)
    r = play(record, ["edit 6 Ana asks Ben 4H-7H: 4H 6H"])     # Ben showed 6H
    assert r.exit_code == 3, r.output
    assert "line 6: Ana asks Ben 4H-7H: 4H 6H  <- this statement" in r.output
    assert "line 7: " + all4 in r.output
    assert "the record is unchanged" in r.output
    assert text(record) == before


def test_an_edit_that_breaks_a_rule_is_refused_and_names_the_rule(record):
    before = text(record)
    r = play(record, ["edit 6 Ben asks Ana 4H-7H: 1"])
    assert r.exit_code == 2
    assert "(MH-7)" in r.output and "sleuth rules MH-7" in r.output
    assert text(record) == before


def test_delete_and_its_refusals(record):
    r = play(record, ["delete 3", "delete x", "delete", "delete 6"])
    assert r.exit_code == 2
    assert "line 3 holds no statement (statements: lines 5-6)" in r.output
    assert "expected a line number" in r.output and "which line?" in r.output
    assert f"line 6 was: {ASK}" in r.output
    assert text(record) == HEADER + HOLDS + "\n"


def test_log_replace_from_the_shell(record):
    r = CliRunner().invoke(cli, ["log", str(record), "--replace", "6", "Ana asks Ben 4H-7H: 4H"])
    assert r.exit_code == 0, r.output
    assert f"replaced line 6: {ASK}" in r.output
    assert text(record) == HEADER + HOLDS + "\nAna asks Ben 4H-7H: 4H\n"
    before = text(record)
    r = CliRunner().invoke(cli, ["log", str(record), "--replace", "6", "Ana asks Ben 4H-7H: 3H"])
    assert r.exit_code == 2 and "MH-10" in r.output
    r = CliRunner().invoke(cli, ["log", str(record), "--replace", "4", "Ana asks Ben 4H-7H: 4H"])
    assert r.exit_code == 2 and "line 4 holds no statement" in r.output
    assert text(record) == before


# ----- forgiving input --------------------------------------------------------------------
@pytest.mark.parametrize("typed, meant", [
    ("Ben asks Cle 4H-7H: 1", "Ben asks Cleo 4H-7H: 1"),               # a letter dropped
    ("Ben asks Dve 4H-7H: 1", "Ben asks Dev 4H-7H: 1"),                # two letters swapped
    ("Ben asks al 9*: Ana 1, Cleo 1, Dev 1, Eli 1", "Ben asks all 9*: Ana 1, Cleo 1, Dev 1, Eli 1"),
    ("Ben aks Cleo 5*: 1", "Ben asks Cleo 5*: 1"),                     # a keyword
    ("Ben asks Cleo 8H - JH: 1", "Ben asks Cleo 8H-JH: 1"),            # a spaced range
    ("Ben asks Cleo 5*: non", "Ben asks Cleo 5*: none"),
    ("Ben requests KS: nobdy", "Ben requests KS: nobody"),
])
def test_did_you_mean_in_play_and_log(record, typed, meant):
    r = play(record, [typed])
    assert r.exit_code == 2
    assert f"did you mean: {meant}" in r.output
    r = CliRunner().invoke(cli, ["log", str(record), typed])
    assert r.exit_code == 2 and f"did you mean: {meant}" in r.output
    # and what it suggests is accepted
    r = CliRunner().invoke(cli, ["log", str(record), meant])
    assert r.exit_code == 0, r.output


def test_did_you_mean_names_alternatives_once(record):
    r = CliRunner().invoke(cli, ["log", str(record), "Ben requests KZ: nobody"])
    assert "did you mean: Ben requests KS: nobody  (or KH, KD, KC)" in r.output


def test_an_answer_error_lists_the_accepted_forms(record):
    r = CliRunner().invoke(cli, ["log", str(record), "Ben asks Cleo 5*: no"])
    assert r.exit_code == 2
    assert "a count 0-4, 'none', '?' (not seen) or the cards shown" in r.output


def test_no_correction_for_what_is_far_from_every_word(record):
    r = CliRunner().invoke(cli, ["log", str(record), "Zed asks Ben 4H-7H: 1"])
    assert r.exit_code == 2 and "did you mean" not in r.output


def test_completion_offers_only_what_can_follow(record):
    from solver.session import Session

    s = Session(str(record))
    assert "Q*" not in s.complete("Ana holds: 2C Q") and "QS" in s.complete("Ana holds: 2C Q")
    assert "asks" not in s.complete("Ben asks all 5*: Ana 0, a")
    assert "JS-AS" in s.complete("Ben asks Cleo J")


def test_help_in_play_uses_the_records_own_players(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("game: mystery-hand\nplayers: Zoe Yan Xia Wes Val\ndealer: Val\nme: Zoe\n",
                 encoding="utf-8")
    r = play(p, ["help"])
    assert r.exit_code == 0
    assert "Zoe holds:" in r.output and "Ana " not in r.output


# ----- the table state, said plainly ------------------------------------------------------
THREE = ("game: mystery-hand\nplayers: Ana Ben Cleo\ndealer: Cleo\nme: Ana\n"
         "Ana holds: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H\n")
REQUESTS = ["Ana requests 4H: nobody", "Ben requests AD: nobody", "Cleo requests 2D: nobody",
            "Ana requests 3D: nobody"]


def test_play_alerts_once_when_the_view_can_announce(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(THREE, encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", str(p)], input="\n".join(REQUESTS + ["sheet"]) + "\n")
    assert r.exit_code == 0, r.output
    assert r.output.count(">> You can announce on your turn: 4H AD 2D 3D") == 1
    assert "Next: Ana's turn (yours)." in r.output and "Next: Ben's turn." in r.output


def test_play_alerts_again_when_the_turn_to_announce_comes(tmp_path):
    """Known before the view's turn, the alert says so; when the turn comes it says once
    more that the view can announce now (the README's '>> You can announce now')."""
    p = tmp_path / "g.txt"
    p.write_text(THREE, encoding="utf-8")
    r = play(p, [*REQUESTS, "Ben requests 5D: Cleo", "Cleo requests 6D: Ben", "sheet"])
    assert r.exit_code == 0, r.output
    assert r.output.count(">> You can announce on your turn: 4H AD 2D 3D") == 1
    assert r.output.count(">> You can announce now: 4H AD 2D 3D") == 1
    assert r.output.index("on your turn: 4H") < r.output.index("now: 4H")


def test_without_the_sheet_the_alert_and_the_notes_are_said_once(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(THREE.replace("Ana holds", "# Ana holds"), encoding="utf-8")
    r = play(p, ["Ana holds: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H", *REQUESTS,
                 "Ben requests 5D: Cleo", "undo", "redo"])
    assert r.exit_code == 0, r.output
    # the missing hand is said at the start, once, and no more once it is logged
    assert r.output.count("Missing: your own hand ('Ana holds: ...', MH-5).") == 1
    start, _, rest = r.output.partition("> Ana holds:")
    assert "Missing: your own hand" in start
    # the alert: once, when it first holds (after the fourth request), not again after
    # later statements, an undo or a redo while it still holds
    assert r.output.count(">> You can announce on your turn: 4H AD 2D 3D") == 1
    before, _, after = rest.partition(">> You can announce")
    assert "> Ana requests 3D: nobody" in before and "> Ana requests 3D" not in after
    # whose turn: said when it changes
    assert "Next: Ben's turn." in r.output and "Next: Cleo's turn." in r.output
    assert "Ana's hand" not in r.output        # no sheet was printed
    assert "Memory sheet" not in r.output and "Verdict" not in r.output


def test_without_the_sheet_a_wrong_announcement_reminds_to_log_the_hand(record):
    r = play(record, ["Ben announces AS 2H 3D 4C: wrong"])
    assert r.exit_code == 0, r.output
    assert r.output.count("Ben's hand is now face up (MH-20): log it with 'Ben holds: ...'.") \
        == 1


def test_without_the_sheet_other_games_note_missing_setup(tmp_path):
    p = tmp_path / "lit.txt"
    p.write_text("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n",
                 encoding="utf-8")
    r = play(p, ["Ana asks Ben 9C: no", "Ben asks Cleo 9D: no"])
    assert r.exit_code == 0, r.output
    assert r.output.count("Missing: your own hand ('Ana holds: ...'; LIT-4") == 1


def test_the_literature_sheet_says_whose_turn_once(tmp_path):
    p = tmp_path / "lit.txt"
    p.write_text("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
                 "Ana asks Ben 9C: no\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(p)])
    assert r.exit_code == 0, r.output
    assert "Next: Ben's turn." in r.output and "Turn:" not in r.output
    r = CliRunner().invoke(cli, ["play", str(p), "--full"], input="sheet\n")
    assert r.output.count("Next: Ben's turn.") == 2 and "Turn:" not in r.output


def test_a_finished_game_and_missing_setup_are_said(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(THREE.replace("Ana holds", "# Ana holds"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(p)])
    assert "Missing: your own hand ('Ana holds: ...', MH-5)." in r.output
    p.write_text(THREE + "\n".join(REQUESTS) + "\nBen announces 4H AD 2D 3D: right\n",
                 encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(p)])
    assert r.exit_code == 0, r.output
    assert "The game is over: Ben announced 4H AD 2D 3D: right; Ben wins (MH-19)." in r.output
    five = "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli\ndealer: Eli\nme: Ana\n"
    p.write_text(five, encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(p)])
    assert "Missing: the 3 face-up cards ('faceup: ...', MH-5)." in r.output


def test_after_a_wrong_announcement_a_reminder_to_log_the_hand(record):
    r = CliRunner().invoke(cli, ["play", str(record)],
                           input="Ben announces AS 2H 3D 4C: wrong\n")
    assert r.exit_code == 0, r.output
    assert "Ben's hand is now face up (MH-20): log it with 'Ben holds: ...'." in r.output


# ----- colour -------------------------------------------------------------------------------
class _Tty:
    def isatty(self):
        return True


def test_colour_only_on_a_terminal_and_never_when_asked_not_to(monkeypatch):
    import click

    from cli.session import colourize, use_colour

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert use_colour(_Tty()) and not use_colour(object())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Tty())
    monkeypatch.delenv("NO_COLOR")
    with click.Context(click.Command("x")) as ctx:
        ctx.meta["sleuth.no_color"] = True
        assert not use_colour(_Tty())
    assert colourize(">> You can announce now: 2C", True).startswith(
        click.style(">>", fg="yellow", bold=True))


def test_no_color_flag_is_accepted_everywhere(record):
    r = CliRunner().invoke(cli, ["--no-color", "play", str(record), "--no-sheet"], input="help\n")
    assert r.exit_code == 0 and "\x1b[" not in r.output


# ----- contradictions a person can read ---------------------------------------------------
def test_a_contradiction_is_one_sentence_then_its_lines_once(record):
    all4 = "Ben asks all 6*: Ana 0, Cleo 1, Dev 2, Eli 1"     # Ben showed 6H on line 6
    r = play(record, [all4])
    assert r.exit_code == 3
    assert "these 2 statements cannot all be true" in r.output
    assert r.output.count(ASK) == 1 and r.output.count(all4) == 2   # echoed, then listed
    r = CliRunner().invoke(cli, ["log", str(record), all4])
    assert r.exit_code == 3
    assert r.output.count(ASK) == 1
    assert f"\n  line 6: {ASK}\n  line 7: {all4}" in r.output


def test_the_whatif_sheet_is_marked_hypothetical(record):
    r = CliRunner().invoke(cli, ["play", str(record)],
                           input="whatif Ben asks all 9*: Ana 1, Cleo 1, Dev 1, Eli 1\n")
    assert r.exit_code == 0, r.output
    assert "--- what if (hypothetical: not saved) ---" in r.output
    assert "--- end of what if ---" in r.output
    assert "9*" not in text(record)


def test_sheets_fit_80_columns():
    """Every bundled sample's analysis of Mystery Hand, Literature and Twenty-Two."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "samples"
    wide = []
    for game in ("mystery-hand", "literature", "twenty-two"):
        for path in sorted((root / game).glob("*.txt"))[:3]:
            r = CliRunner().invoke(cli, ["analyze", str(path)])
            wide += [(path.name, ln) for ln in r.output.splitlines() if len(ln) > 80]
    assert not wide


# ----- shell completion -------------------------------------------------------------------
def _complete(words: str):
    r = CliRunner().invoke(cli, [], prog_name="sleuth", env={
        "_SLEUTH_COMPLETE": "bash_complete", "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))})
    return [ln.split(",", 1)[1] for ln in r.output.splitlines() if "," in ln]


@pytest.mark.parametrize("command", ["analyze", "why", "play", "replay", "suggest", "review"])
def test_as_completes_the_records_players(record, command):
    """Ana's partial record gives her view and the public one (records.resolve_view); a
    complete record gives every player's."""
    from pathlib import Path

    assert _complete(f"sleuth {command} {record} --as ") == ["Ana", "public"]
    assert _complete(f"sleuth {command} {record} --as C") == []
    complete = Path(__file__).resolve().parent.parent / "samples" / "mystery-hand" / \
        "seven-players.txt"
    assert _complete(f"sleuth {command} {complete} --as C") == ["Cleo"]


def test_cards_complete_after_why(record):
    assert _complete(f"sleuth why {record} K") == ["KS", "KH", "KD", "KC"]
