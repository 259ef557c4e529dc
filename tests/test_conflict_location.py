"""A contradiction (exit 3) is cited like every other error, alike in every game: the file,
the line and column of the statement completing it, the sentence, the rule it rests on
with ``(see: sleuth rules X)`` where one applies, then the conflicting lines, once."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cli.main import cli

MH = """game: mystery-hand
players: Ana Ben Cleo Dev
dealer: Dev
me: Ana

Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC
Ana asks Ben 4H-7H: 4H
"""
LIT = """game: literature
players: Ana Ben Cleo Dev Eli Fay
me: Ana
Ana holds: 2H 3H 4H 6H 7H 9S JC QD
Ana asks Dev 5H: no
Dev asks Ana 10S: no
"""
CLUE = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev
me: Ana
Ana holds: Scarlet Rope Kitchen Hall Study
"""
TT = """game: twenty-two
players: Ana Ben Cleo
me: Ana
draw: Ana KH, Ben 9H, Cleo 10H
Ana deals 7
Ana holds: 4S 5S 8S 5D 7D 2C 10C
Ben exchanges 0
Cleo exchanges 0
Ana exchanges 3: 5D 8S 2C -> 3C 2D QH
Ben leads QC; Cleo 4H; Ana QH
"""
MY = """game: mysterium
players: Gus Ana Ben Cleo
ghost: Gus
me: Ana
variant: easy
table character: 1 2 3 4 5
table location: 1 2 3 4 5
table object: 1 2 3 4 5
hour 1
Ana guesses character 1: wrong
Ben guesses character 2: right
Cleo guesses character 3: wrong
hour 2
"""

# record, the statement contradicting it, its line, the conflict, the rule (None: none)
CASES = [
    pytest.param(MH, "Ben asks all 4H-7H: 0 0 0", 8, [6, 8], "E3", id="mystery-hand"),
    pytest.param(LIT, "Ana asks Dev 10S: yes", 7, [6, 7], "LIT-7", id="literature"),
    pytest.param(CLUE, "Ben suggests Plum Rope Lounge: Cleo passes, Dev passes, Ana passes",
                 6, [5, 6], "CL-10", id="clue"),
    pytest.param(TT, "Ana leads 7D; Ben AH; Cleo 2H", 11, [10, 11], "I2", id="twenty-two"),
    pytest.param(MY, "Ana guesses character 1: right", 14, [10, 14], "MY-12", id="mysterium"),
]


def _check(output: str, path, line: int, conflict: list[int], rule: str | None,
           statement: str, prefix: str = "sleuth: inconsistent: ") -> None:
    head, *listed = output.strip().split("\n")
    assert head.startswith(f"{prefix}{path}:{line}:1: "), head
    if rule is not None:
        assert f"{rule})" in head and head.count("(see: sleuth rules ") == 1, head
        last = rule.split(", ")[-1]     # the hint names the rules, quoted for the shell
        assert re.search(rf" '?{re.escape(last)}'?\)$", head), head
    else:
        assert "(see: " not in output
    # the lines, once each, after the sentence; no hint after them
    said = [int(re.match(r"\s+line (\d+): ", ln).group(1)) for ln in listed]
    assert said == conflict and listed[-1] == f"  line {line}: {statement}"


@pytest.mark.parametrize("text, statement, line, conflict, rule", CASES)
def test_log_and_analyze_cite_file_line_column_and_rule(tmp_path, text, statement, line,
                                                        conflict, rule):
    p = tmp_path / "i.txt"
    p.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["log", str(p), statement])
    assert r.exit_code == 3, r.output
    _check(r.stderr, p, line, conflict, rule, statement)
    assert p.read_text(encoding="utf-8") == text
    bad = tmp_path / "bad.txt"
    bad.write_text(text + statement + "\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(bad)])
    assert r.exit_code == 3
    _check(r.stderr, bad, line, conflict, rule, statement)
    # the JSON is the contract's, unchanged
    r = CliRunner().invoke(cli, ["analyze", str(bad), "--json"])
    assert r.exit_code == 3 and json.loads(r.stdout) == {"consistent": False,
                                                         "conflict": conflict}
    _check(r.stderr, bad, line, conflict, rule, statement)


@pytest.mark.parametrize("text, statement, line, conflict, rule",
                         [c for c in CASES if c.id in ("mystery-hand", "mysterium")])
def test_play_refusal_cites_the_same(tmp_path, text, statement, line, conflict, rule):
    p = tmp_path / "i.txt"
    p.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"], input=statement + "\n")
    refused = next(ln for ln in r.output.split("\n") if "refused: " in ln)
    assert f"refused: {p}:{line}:1: these 2 statements cannot all be true: " in refused
    assert f"({rule}) (see: sleuth rules " in refused and refused.endswith(f"{rule})")
    assert p.read_text(encoding="utf-8") == text


LIT_UNHEARD = """game: literature
players: Ana Ben Cleo Dev Eli Fay
dealer: Fay

Fay asks Ana 9C: no
Ana asks Ben 5H: ?
Ana asks Ben 5H: yes
"""


def test_why_refuses_a_record_analyze_refuses(tmp_path):
    """A card seen moving is certain in a consistent record only: ``why`` on a record no
    course of play fits exits 3 with the conflict, as ``analyze`` does."""
    p = tmp_path / "lit.txt"
    p.write_text(LIT_UNHEARD, encoding="utf-8")
    for args in (["analyze", str(p)], ["why", str(p), "5H"]):
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 3, (args, r.output)
        _check(r.stderr, p, 7, [6, 7], "LIT-6(d), LIT-7", "Ana asks Ben 5H: yes")


@pytest.mark.parametrize("text, statement, line, conflict, rule", [
    pytest.param(LIT.replace("me: Ana", "dealer: Fay\nme: Ana").split("Ana asks Dev")[0],
                 "Fay asks Ana 2H: no", 6, [5, 6], "O2", id="literature-no"),
    pytest.param(CLUE + "Ben suggests Plum Knife Library: Cleo shows\n",
                 "Dev suggests Plum Knife Library: Ana passes, Ben passes, Cleo passes",
                 7, [6, 7], "E1(a)", id="clue-pass-after-show"),
])
def test_the_deal_models_notes_cite_their_rules(tmp_path, text, statement, line, conflict,
                                                rule):
    """A "no" in Literature (O2: the card is not in the hand asked), a pass after a show in
    Clue (E1(a): a passer holds none of the three, a shower at least one)."""
    p = tmp_path / "i.txt"
    p.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["log", str(p), statement])
    assert r.exit_code == 3, r.output
    _check(r.stderr, p, line, conflict, rule, statement)


@pytest.mark.parametrize("text, statement, line, conflict, rule", CASES)
def test_play_opening_and_replay_word_it_alike(tmp_path, text, statement, line, conflict,
                                               rule):
    """``play`` opened on an inconsistent record warns with the same text; ``replay``
    ends with it (after 'inconsistent from step N: ')."""
    p = tmp_path / "bad.txt"
    p.write_text(text + statement + "\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"], input="help\n")
    out = r.output.split("warning: the record is inconsistent: ", 1)[1]
    block = out.split("\n'edit N' the wrong line")[0]
    _check(block, p, line, conflict, rule, statement, prefix="")
    if text is CLUE:        # (Clue has no replay)
        return
    r = CliRunner().invoke(cli, ["replay", str(p)])
    assert r.exit_code == 3, r.output
    tail = r.stderr.split("sleuth: inconsistent from step ", 1)[1].split(": ", 1)[1]
    _check(tail, p, line, conflict, rule, statement, prefix="")
    assert "no deal fits the record" not in r.output


def test_the_first_dealers_draw_cites_tt4(tmp_path):
    """A card drawn twice in the draw for the first dealer breaks TT-4 (TT-14 is the tied
    losers' draw)."""
    p = tmp_path / "t.txt"
    p.write_text("game: twenty-two\nplayers: Ana Ben Cleo\nme: Ana\n\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["log", str(p), "draw: Ana 2H, Ben 3H, Cleo 2H"])
    assert r.exit_code == 2
    assert "(TT-4)" in r.stderr and "(see: sleuth rules TT-4)" in r.stderr
    assert "TT-14" not in r.stderr


@pytest.mark.parametrize("args", [["analyze", "--json", "{bad}"], ["analyze", "{bad}"],
                                  ["--help"], ["replay", "{bad}"]])
def test_a_pipe_the_reader_left_exits_2_even_for_the_error(tmp_path, args):
    """``sleuth analyze --json bad.txt 2>&1 | head -1``: the error's message written to the
    pipe the reader left ends quietly with exit 2 too, not Click's exit 1."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    bad = tmp_path / "bad.txt"
    bad.write_text(MH + "Ben asks all 4H-7H: 0 0 0\n", encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    r, w = os.pipe()
    os.close(r)                     # the reader left before anything was written
    try:
        proc = subprocess.run([sys.executable, "-m", "cli.main",
                               *[a.format(bad=bad) for a in args]], cwd=root,
                              env=dict(os.environ, PYTHONPATH=str(root)), stdout=w, stderr=w,
                              timeout=120)
    finally:
        os.close(w)
    assert proc.returncode == 2
