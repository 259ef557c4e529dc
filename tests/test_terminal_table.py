"""``sleuth play`` at a real table in an 80x24 terminal (issue 46): a short sheet that keeps
the 'saved' line, the grid, the verdict and whose turn on one screen; a correction taken with
one key; refusals that say the fix."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.session import Session

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIVE = SAMPLES / "mystery-hand" / "five-players-ana.txt"
EIGHT = SAMPLES / "mystery-hand" / "eight-players-no-exact-request.txt"


def prefix(src: Path, tmp_path, keep) -> Path:
    """The sample's header and the statement lines ``keep`` says to keep."""
    lines = src.read_text().splitlines()
    p = tmp_path / src.name
    p.write_text("\n".join(ln for i, ln in enumerate(lines) if keep(i, ln)) + "\n")
    return p


def play(record, lines, *extra):
    return CliRunner().invoke(cli, ["play", str(record), *extra],
                              input="\n".join(lines) + "\n")


def blocks(output: str) -> list[tuple[str, list[str]]]:
    """The output after each echoed line ('> statement'), in order."""
    out: list[tuple[str, list[str]]] = []
    for ln in output.splitlines():
        if ln.startswith("> "):
            out.append((ln[2:], []))
        elif out:
            out[-1][1].append(ln)
    return out


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def check_screen(block: list[str]):
    """One statement's output fits an 80x24 terminal with the line typed, a hint and the
    prompt (21 rows at most), and holds the 'saved' line, the 13 x 4 grid, the verdict and
    whose turn."""
    assert len(block) <= 21 - 3, "\n".join(block)
    assert block[0].startswith("saved line ")
    assert [ln.split()[0] for ln in block if re.match(r"^ ?(10|[2-9AJQK]) ", ln)] == RANKS
    assert any(ln.startswith("Verdict: ") for ln in block)
    assert any(ln.startswith("Next: ") for ln in block)
    assert all(len(ln) <= 80 for ln in block)


@pytest.mark.parametrize("src, statements, players", [
    (FIVE, ["Ben asks all 6*: Ana 0, Cleo 0, Dev 1, Eli 0", "Cleo asks Dev 10*: 3"], 5),
    (EIGHT, ["Gus asks Cleo 2D-5D: 5D", "Hal asks Ben 4*: 0"], 8),
])
def test_each_statement_fits_one_screen(tmp_path, src, statements, players):
    # the record up to the first statement typed, without the other players' hands (an
    # open game seen by Ana)
    holds = re.compile(r"^(?!Ana)\w+ holds:")
    lines = src.read_text().splitlines()
    stop = next(i for i, ln in enumerate(lines) if ln.startswith(statements[0]))
    rec = prefix(src, tmp_path, lambda i, ln: i < stop and not holds.match(ln))
    before = rec.read_text()
    assert f"players: {' '.join(['Ana', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hal'][:players])}" \
        in before
    r = play(rec, statements, "--compact")
    assert r.exit_code == 0, r.output
    got = blocks(r.output)
    assert [s for s, _ in got] == statements
    for _s, block in got:
        check_screen(block)
    # the whole analysis (the candidate list) is what --full (and piped input) still shows
    # and what the 'sheet' command shows after a short sheet
    rec.write_text(before)
    full = blocks(play(rec, statements[:1], "--full").output)
    assert len(full[0][1]) > 21 and any("Candidates for" in ln for ln in full[0][1])
    rec.write_text(before)
    short = blocks(play(rec, [statements[0], "sheet"], "--compact").output)
    assert len(short[0][1]) <= 18
    assert len(short[1][1]) > 21 and any("Candidates for" in ln for ln in short[1][1])


def test_piped_play_keeps_the_whole_analysis_by_default(tmp_path):
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 15)
    r = play(rec, ["Ben asks all 6*: Ana 0, Cleo 0, Dev 1, Eli 0"])
    assert "Candidates for the mystery hand" in r.output


# ----- a correction with one key --------------------------------------------------------
TYPO = "Ben aks all 6*: Ana 0, Cleo 0, Dev 1, Eli 0"
MEANT = "Ben asks all 6*: Ana 0, Cleo 0, Dev 1, Eli 0"


def test_y_logs_the_one_correction(tmp_path):
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 15)
    r = play(rec, [TYPO, "y"], "--no-sheet")
    (typo, said), (y, saved) = blocks(r.output)
    assert (typo, y) == (TYPO, "y")
    assert f"  did you mean: {MEANT}  (y: log it)" in said, said
    assert saved[0] == f"saved line 16: {MEANT}"
    assert rec.read_text().splitlines()[-1] == MEANT


def test_another_line_forgets_the_correction(tmp_path):
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 15)
    before = rec.read_text()
    r = play(rec, [TYPO, "sheet", "y", "", TYPO], "--no-sheet")
    assert r.exit_code == 2
    assert rec.read_text() == before          # 'y' after 'sheet' is a refused statement
    assert "saved line" not in r.output


def test_an_empty_line_accepts_in_the_session(tmp_path):
    """At a terminal Enter sends an empty line: it logs the correction (piped, play skips
    empty lines)."""
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 15)
    s = Session(str(rec))
    assert s.handle(TYPO).kind == "refused" and s.correction == MEANT
    o = s.handle("")
    assert o.kind == "accepted" and o.statement == MEANT
    assert s.correction is None and s.handle("").kind == "empty"


def test_no_key_when_there_are_several_corrections(tmp_path):
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 15)
    s = Session(str(rec))
    o = s.handle("Ben asks Cleo 5S-8S: 0 Cleo")          # not one obvious correction
    assert o.kind == "refused"
    fixes = getattr(o.error, "did_you_mean", None) or []
    assert (s.correction is not None) == (len(fixes) == 1)


# ----- refusals that say the fix -------------------------------------------------------
def test_out_of_turn_names_the_missed_turn_and_the_resync(tmp_path):
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 15)
    r = play(rec, ["Cleo asks Dev 10*: 3", "Ben: ?", "Cleo asks Dev 10*: 3"], "--no-sheet")
    said = blocks(r.output)[0][1]
    assert "it is Ben's turn, not Cleo's; if a turn was missed, log it as 'Ben: ?' or " \
           "resync with 'turn: Cleo' (MH-7)" in said[0]
    assert rec.read_text().splitlines()[-2:] == ["Ben: ?", "Cleo asks Dev 10*: 3"]


LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\nAna asks Ben 10S: no\n")


def test_literature_out_of_turn_names_the_missed_turn(tmp_path):
    rec = tmp_path / "lit.txt"
    rec.write_text(LIT)
    r = play(rec, ["Cleo asks Dev 3C: no", "Ben: ?", "Cleo asks Dev 3C: no"], "--no-sheet")
    said = blocks(r.output)[0][1]
    assert "Cleo is not on turn: it is Ben's turn; if a turn was missed, log it as 'Ben: ?'" \
        in said[0] and "'turn: Cleo'" in said[0]
    assert rec.read_text().splitlines()[-2:] == ["Ben: ?", "Cleo asks Dev 3C: no"]


def test_a_contradiction_never_suggests_undo(tmp_path):
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 15)
    r = play(rec, ["Ben asks Ana 5S-8S: 0"], "--no-sheet")
    assert r.exit_code == 3
    said = blocks(r.output)[0][1]
    assert "undo" not in "\n".join(said)
    assert "  not saved; 'force' saves it anyway, or retype it if it was mistyped" in said
    assert "  if line 7 is the mistake: 'edit 7 <statement>'" in said


# ----- every game's table notes without the sheet ---------------------------------------
EX_A = SAMPLES / "literature" / "ex-a-six-players.txt"


def test_literature_without_the_sheet_says_whose_turn_and_the_safe_claim_once(tmp_path):
    rec = prefix(EX_A, tmp_path, lambda i, ln: "Ben asks Ana QC" not in ln)
    r = play(rec, ["Ben asks Ana QC: no", "Ana asks Ben 10S: no"], "--no-sheet")
    assert r.exit_code == 0, r.output
    head, (_, first), (_, second) = r.output.split("\n> ")[0], *blocks(r.output)
    assert "Next: Ben's turn." in head
    # on Ben's turn Ana's claim would be out of turn (LIT-12): the alert comes on hers
    assert "You can claim" not in head
    assert first == ["saved line 13: Ben asks Ana QC: no", "Next: Ana's turn (yours).",
                     ">> You can claim 2H-7H safely (LIT-11(a)): Ana 2H 3H 4H 6H 7H, Cleo 5H."]
    assert second == ["saved line 14: Ana asks Ben 10S: no", "Next: Ben's turn."]


def test_literature_short_sheet_fits_a_screen(tmp_path):
    src = SAMPLES / "literature" / "eight-players-jokers.txt"
    lines = src.read_text().splitlines()
    last = max(i for i, ln in enumerate(lines) if ln and not ln.startswith("#"))
    rec = prefix(src, tmp_path, lambda i, ln: i != last)
    stmt = lines[last].split("#")[0].strip()
    (typed, block), = blocks(play(rec, [stmt], "--compact").output)
    assert typed == stmt and block[0].startswith("saved line")
    assert len(block) <= 21 and all(len(ln) <= 79 for ln in block)
    assert sum(1 for ln in block if re.match(r"^(Ana|Ben) +\w+( \*)? +\d+ ", ln)) == 8
    assert block[-1].startswith("Next: ")


def test_hand_without_the_sheet_says_whose_turn(tmp_path):
    src = SAMPLES / "hand" / "round-midway-ana.txt"
    rec = prefix(src, tmp_path, lambda i, ln: i < 19)
    assert rec.read_text().splitlines()[-1] == "Ben discards Jk"
    r = play(rec, ["Ana draws JS", "Ana lays off JS on 4"], "--no-sheet")
    assert "Next: Ana's turn (yours)." in r.output.split("\n> ")[0]
    (_, first), (_, second) = blocks(r.output)
    # Ana's turn goes on after her draw: the note changes only when the turn passes
    assert first == ["saved line 20: Ana draws JS"] and second[0].startswith("saved line 21")


# ----- the exposure: only where cheap, never after the game ------------------------------
def test_a_side_analysis_that_outlasts_its_patience_is_stopped():
    import time

    from solver.errors import BudgetError
    from solver.parallel import beside

    t0 = time.monotonic()
    value, side, err = beside(lambda: 1, lambda: time.sleep(60) or 2, patience=0.2)
    assert (value, side) == (1, None) and isinstance(err, BudgetError)
    assert "longer than the analysis" in str(err)
    assert time.monotonic() - t0 < 30          # stopped, not waited for
    assert beside(lambda: 1, lambda: 2, patience=None) == (1, 2, None)


def test_analyze_says_why_an_exposure_was_not_waited_for(monkeypatch):
    from cli import commands

    monkeypatch.setattr(commands, "EXPOSURE_PATIENCE", 0.0)
    monkeypatch.setattr(commands, "core_free", lambda: True)     # not the machine's load
    game = __import__("solver.games", fromlist=["get_game"]).get_game("mystery-hand")
    monkeypatch.setattr(type(game), "exposure",
                        lambda self, rec, view, budget=None: __import__("time").sleep(60))
    r = CliRunner().invoke(cli, ["analyze", str(FIVE)])
    assert r.exit_code == 0, r.output
    assert "what the table knows about your hand: not computed\n  (it takes more than 0% " \
           "longer than the analysis; --exposure waits for it)\n" in r.output


def test_no_exposure_once_the_game_is_over(tmp_path):
    rec = prefix(SAMPLES / "mystery-hand" / "seven-players.txt", tmp_path, lambda i, ln: True)
    assert any("The game is over" in ln for ln in
               CliRunner().invoke(cli, ["analyze", str(rec), "--no-exposure"]).output
               .splitlines())
    r = CliRunner().invoke(cli, ["analyze", str(rec)])
    assert r.exit_code == 0 and "what the table knows" not in r.output
    # asked for, it is still computed
    asked = CliRunner().invoke(cli, ["analyze", str(rec), "--exposure"])
    assert "what the table knows about Ana's hand" in asked.output


def test_format_literature_shows_the_unseen_forms():
    r = CliRunner().invoke(cli, ["format", "literature"])
    for form in ("Ben asks Cleo ?: yes", "Ben asks Cleo 5H: ?", "Ben: ?", "Ben has 8 cards",
                 "turn: Cleo"):
        assert f"  {form}\n" in r.output


def test_suggest_fits_80_columns_and_names_only_its_columns():
    r = CliRunner().invoke(cli, ["suggest", str(FIVE), "--top", "12"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(ln) for ln in lines) <= 80
    head = next(ln for ln in lines if ln.strip().startswith("#"))
    assert head.split() == ["#", "action", "score", "info", "leak", "extra"]
    text = "\n".join(lines)
    assert "info_bits" not in text and "leak_bits" not in text and "under 'error'" not in text
    assert sum(1 for ln in lines if ln.strip().startswith("most likely answers:")) == 12


def test_progress_is_for_a_terminal_only():
    import io

    from cli.progress import Line, on_terminal

    assert not on_terminal(as_json=True)
    out = io.StringIO()
    line = Line(out)
    line.show("replay: step 37/109")
    line.show("replay: step 38/109 " + "x" * 100)
    line.clear()
    text = out.getvalue()
    assert text.startswith("\rreplay: step 37/109\r") and text.endswith("\r")
    assert all(len(part) <= 79 for part in text.split("\r"))
    # piped (CliRunner's stderr is no terminal): nothing but the review on the streams
    r = CliRunner().invoke(cli, ["review", str(SAMPLES / "mystery-hand" / "two-player-seen.txt")])
    assert r.exit_code == 0 and "\r" not in r.output


@pytest.mark.parametrize("sample", ["mystery-hand/five-players-ana.txt",
                                    "literature/ex-a-six-players.txt"])
def test_replay_fits_80_columns(sample):
    r = CliRunner().invoke(cli, ["replay", str(SAMPLES / sample), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(ln) for ln in lines) <= 79
    # what left the table is said under its row: every certainty still there
    assert any(ln.strip().startswith("became certain: ") for ln in lines)


# ----- the review: plain words, near-ties, the sheet as a sheet --------------------------
def _review(taken_score, best_score, mistakes, sheet=None, best="Ana asks Fay 10D"):
    from solver.advice import Review, TurnReview, said

    turn = TurnReview(line=7, step=3, taken="Ana asks Ben 10S", best=best,
                      taken_score=taken_score, best_score=best_score, taken_info=0.0,
                      best_info=0.997, taken_leak=0.9, mistakes=mistakes,
                      sheet=sheet if sheet is not None else {"AS": "Cleo", "10H": "Ana",
                                                             "Jk": ["Ben", "Ben"]},
                      uncertainty=2.0)
    return Review("literature", "Ana", [turn],
                  {"line": 7, "step": 3, "what": "2H-7H: " + said({"Ana": ["2H", "3H"]})},
                  "log10 deals", [(0, 24.9), (3, 20.0), (9, 12.5)], notes=[])


def test_a_near_tie_is_not_a_mistake_in_the_text_or_the_page():
    from cli.advise import render_review
    from web.review import review_html

    near = _review(0.005, 0.012, ["the question told the table more"])
    text = " ".join(render_review(near).split())
    assert "as good as the best, Ana asks Fay 10D (score 0.005 vs 0.012)" in text
    assert "remark: the question told the table more" in text and "mistake:" not in text
    page = review_html(near)
    assert 'class="turn near"' in page and 'class="turn mistake"' not in page
    far = _review(0.2, 1.7, ["the question told the table more"])
    assert "mistake: the question told the table more" in " ".join(render_review(far).split())
    assert 'class="turn mistake"' in review_html(far)


def test_review_text_fits_and_says_learned_against_the_most():
    from cli.advise import render_review

    text = render_review(_review(0.258, 0.258, [], {}, best="Ana asks Ben 10S"))
    assert max(len(ln) for ln in text.splitlines()) <= 79
    # the taken action was the best by score, yet learned nothing: said without "vs ... best"
    text = " ".join(text.split())
    assert "line 7: Ana asks Ben 10S: the advisor's best (score 0.258)" in text
    assert "learned 0.000 bits (the most any action could: 0.997)" in text
    assert "{" not in text and "[" not in text          # no Python in the first safe moment


def test_review_page_sheet_grid_axes_legend_and_words():
    import re as _re

    from web.review import review_html

    page = review_html(_review(0.2, 1.7, []))
    shown = _re.sub(r'<script type="application/json".*?</script>', "", page, flags=_re.S)
    assert "{'" not in shown and "['" not in shown
    assert "2H-7H: Ana 2H 3H" in shown
    # the sheet: 13 rank rows of 4 suit cells, the holder where certain
    table = shown.split('<table class="sheet"')[1].split("</table>")[0]
    rows = _re.findall(r'<tr><th scope="row">(\w+)</th>(.*?)</tr>', table)
    assert [r for r, _ in rows] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                    "Q", "K"]
    cells = dict((r, _re.findall(r"<td>(.*?)</td>", c)) for r, c in rows)
    assert cells["A"] == ["Cleo", "", "", ""] and cells["10"] == ["", "Ana", "", ""]
    assert "Jk: Ben Ben" in shown
    # the chart: numbers on both axes and a legend; "bits" explained once
    svg = shown.split("<svg")[1].split("</svg>")[0]
    assert _re.findall(r'text-anchor="end" dominant-baseline="middle">([\d.]+)<', svg)[:3] \
        == ["0", "10", "20"]
    assert ">0<" in svg and ">9<" in svg
    assert 'class="legend"' in shown and "a turn with a mistake" in shown
    assert shown.count("one bit is what") == 1


def test_suggest_0_is_refused_and_one_statement_is_singular(tmp_path):
    rec = prefix(FIVE, tmp_path, lambda i, ln: i < 7)
    r = play(rec, ["suggest 0", "suggest x"], "--no-sheet")
    assert "1 statement;" in r.output.splitlines()[0]
    said = [b for _, b in blocks(r.output)]
    assert len(said) == 2, r.output                # one refusal per command
    assert all(b[0].startswith("refused: ") and "N a number of actions from 1" in b[0]
               for b in said)


@pytest.mark.parametrize("cpus", [1, 2])
def test_review_reports_its_progress_and_the_same_review(monkeypatch, cpus):
    import os

    from solver import advice
    from solver.games import get_game
    from solver.records import read_record

    rec = read_record(str(SAMPLES / "mystery-hand" / "two-player-seen.txt"))
    game = get_game(rec.game)
    monkeypatch.setattr(advice, "PARALLEL_REVIEW", 2)
    monkeypatch.setattr(os, "cpu_count", lambda: cpus)
    quiet = game.review(rec, rec.header.me)
    seen: list[tuple[int, int]] = []
    with advice.reporting(lambda done, n: seen.append((done, n))):
        told = game.review(rec, rec.header.me)
    assert advice.REVIEW_PROGRESS is None
    n = len(rec.statements) + 1
    assert seen and seen[-1] == (n, n) and all(t == n for _, t in seen)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen}) and len(seen) > 2
    assert told.to_json() == quiet.to_json()
