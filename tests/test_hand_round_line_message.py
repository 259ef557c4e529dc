"""Hand: a round line refused in a round record says what the record shows (who went out
where, the turns recorded since the indicator, where a player melded, where the stock ran
out), not "nobody has gone out" for a line that names who did; and a new record's
"Missing:" note offers a scoresheet as well as a round record (docs/hand.md), the same in
``sleuth log``/``sleuth analyze`` and ``sleuth serve``."""
from __future__ import annotations

import html
import re

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import RuleError
from solver.games import get_game
from solver.hand.engine import run
from solver.records import parse_record
from tests.serve_harness import ROOT

HEAD = "game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ana\n"
ROUND = "round 1: Cleo out partial; Ana 45, Ben no-meld"
SHEET = "a scoresheet (round lines only) has no indicator line"
COMPLETE = (ROOT / "samples" / "hand" / "round-complete.txt").read_text(encoding="utf-8")


def log(tmp_path, text: str, *lines: str):
    p = tmp_path / "h.txt"
    p.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["log", str(p), *lines])


def refusal(text: str) -> RuleError:
    with pytest.raises(RuleError) as e:
        run(parse_record(text))
    return e.value


def complete_but(last: str) -> str:
    """samples/hand/round-complete.txt with its round line replaced by ``last``."""
    lines = COMPLETE.splitlines()
    assert lines[-1].startswith("round 1: Cleo out partial")
    return "\n".join(lines[:-1] + [last]) + "\n"


# ----- the refusal of the round line ---------------------------------------------------------
def test_after_the_indicator_the_round_line_names_the_indicator_line(tmp_path):
    r = log(tmp_path, HEAD + "indicator 7C\n", ROUND)
    assert r.exit_code == 2
    assert "nobody has gone out" not in r.output
    # the column: Cleo, the player the line says went out
    assert f"h.txt:6:{ROUND.index('Cleo') + 1}: " in r.output
    assert ("no turn is recorded since 'indicator 7C' (line 5), so Cleo has not gone out: in "
            "a round record the round ends when a player goes out (HR-34); " + SHEET) \
        in r.output


def test_without_the_indicator_the_same_line_is_a_scoresheet(tmp_path):
    r = log(tmp_path, HEAD, ROUND)
    assert r.exit_code == 0, r.output
    assert not any(line.startswith("Missing:") for line in r.output.splitlines())


def test_turns_recorded_but_nobody_out():
    lines = COMPLETE.splitlines()
    e = refusal("\n".join(lines[:30]) + "\nround 1: Cleo out partial; Ana 45, Ben 30\n")
    assert e.message == ("Cleo has not gone out in the turns recorded since 'indicator 7C' "
                         "(line 9): in a round record the round ends when a player goes out "
                         "(HR-34); " + SHEET)
    assert e.line == 31 and e.column == len("round 1: ") + 1


def test_a_round_line_before_the_indicator():
    e = refusal(HEAD + ROUND + "\nindicator 7C\n")
    assert e.line == 5
    assert e.message.startswith("Cleo has not gone out: this round line comes before "
                                "'indicator 7C' (line 6), which makes this a round record")
    assert e.message.endswith(SHEET)


def test_the_wrong_winner_names_the_going_out():
    e = refusal(complete_but("round 1: Ana out partial; Ben 2C 2D 4S, Cleo 2D 2S"))
    assert e.message == "Cleo went out (line 77: 'Cleo discards 2S'), not Ana"
    assert e.column == len("round 1: ") + 1


def test_the_wrong_kind_names_the_meld_and_the_lay_off():
    e = refusal(complete_but("round 1: Cleo out full-hand; Ana 2D 2S, Ben 2C 2D 4S"))
    assert e.message == ("Cleo's going out was partial: Cleo melded before the turn Cleo went "
                         "out (line 16: 'Cleo melds JH QH KH | 7D 8D 9D') and Cleo put a card "
                         "into another player's meld (line 27: 'Cleo lays off 9H on 6')")
    assert e.rule == "HR-37"


def test_a_wrong_penalty_names_the_meld():
    e = refusal(complete_but("round 1: Cleo out partial; Ana no-meld, Ben 2C 2D 4S"))
    assert e.message == ("Ana has melded (line 13: 'Ana melds AS AH Jk | JH JD AC'): the "
                         "penalty is the cards in hand")


def test_a_wrong_indicator_names_the_indicator_line():
    e = refusal(complete_but("round 1 indicator 8C: Cleo out partial; Ana 2D 2S, Ben 2C 2D 4S"))
    assert e.message == "the indicator was 7C (line 9: 'indicator 7C')"


def test_the_stock_ran_out():
    from solver.hand.simulate import simulate

    rec = next(r for r in (simulate(3, (), seed) for seed in range(40))
               if r.statements[-1].text == "round 1: unscored stock")
    lines = rec.header.lines() + [st.text for st in rec.statements[:-1]]
    e = refusal("\n".join(lines) + "\nround 1: Ana out partial; Ben 30, Cleo 30\n")
    assert e.rule == "HR-35"
    assert re.fullmatch(r"Ana has not gone out: the stock ran out \(line \d+: '[^']+'\), which "
                        r"ends the round with nobody out \(HR-35\); write 'round 1: unscored "
                        r"stock'", e.message), e.message


# ----- the note on a new record ---------------------------------------------------------------
def notes(text: str) -> list[str]:
    rec = parse_record(text)
    return [n.text for n in get_game("hand").table_notes(rec, rec.header.me)]


BOTH = ("Missing: the indicator ('indicator 7C'; HR-7: it decides the wild cards, HR-8, HR-9), "
        "to log a round's play turn by turn, or write 'round 1: ...' lines for a scoresheet "
        "(round results only, no indicator line).")


def test_a_new_record_offers_both_kinds():
    assert BOTH in notes(HEAD)
    # once it is a round record, only the round's setup
    assert not any("scoresheet" in n for n in notes(HEAD + "indicator 7C\n"))
    got = notes(HEAD + "indicator 4H\nAna melds JH QH KH | QS QD QC | 2S 2D 2C\n")
    assert "Missing: your own hand ('Ana holds: ...'; HR-6: 14 cards each, 15 to the dealer's " \
        "right)." in got, got
    assert notes(HEAD + ROUND + "\n") == []


def test_a_new_jokers_only_record_offers_both_kinds():
    got = notes(HEAD.replace("me: Ana\n", "me: Ana\nvariant: wild-mode=jokers-only\n"))
    assert any(n.startswith("Missing: your own hand ('Ana holds: ...'") and
               "or write 'round 1: ...' lines for a scoresheet" in n for n in got), got


def test_analyze_shows_the_note(tmp_path):
    p = tmp_path / "h.txt"
    p.write_text(HEAD, encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(p)])
    assert r.exit_code == 0, r.output
    assert " ".join(r.output.split()).count(BOTH) == 1


def test_serve_shows_the_note_and_the_refusal(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from web.app import create_app

    p = tmp_path / "h.txt"
    p.write_text(HEAD, encoding="utf-8")
    c = TestClient(create_app(str(p), token="t", token_required=False, loopback=True),
                   base_url="http://127.0.0.1:8765")
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", c.get("/live").text)).split())
    assert BOTH in page
    r = c.post("/do", json={"line": "indicator 7C", "version": None},
               headers={"X-Sleuth-Token": "t"})
    assert r.status_code == 200 and r.json()["saved"], r.json()
    r = c.post("/do", json={"line": ROUND, "version": None}, headers={"X-Sleuth-Token": "t"})
    assert not r.json().get("saved"), r.json()
    assert "no turn is recorded since 'indicator 7C' (line 5), so Cleo has not gone out" \
        in str(r.json())
