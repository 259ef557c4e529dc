"""Contradictions a person can read (issue 14, item 6): one plain sentence saying why the
lines cannot all hold, then the minimal lines, once -- from ``sleuth log``, ``sleuth
analyze`` and a ``play`` refusal, in Mystery Hand, Literature and Twenty-Two.

Each case is a real record and a statement that contradicts it; the sentence is built by
:mod:`solver.model.conflicts` from the model alone, so the test checks its words and that
it names exactly the conflicting lines."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.model.conflicts import lines_text
from solver.session import renumber_text

MH4 = """game: mystery-hand
players: Ana Ben Cleo Dev
dealer: Dev
me: Ana
Ana holds: 2C 3C 4C 5C 7C 8C 9C 10C JC QC KC AC
Ana asks Ben 3H-6H: 0
Ben requests 3H: nobody
Cleo requests 5H: nobody
Dev asks Ana 2S-5S: 0
Ana requests 6H: nobody
Ben announces KS 3H 5H 6H: wrong
Ben holds: 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD
"""
MH5 = """game: mystery-hand
players: Ana Ben Cleo Dev Eli
dealer: Eli
me: Ana
Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C
Ana asks Ben 4H-7H: 4H 6H
"""
LIT = """game: literature
players: Ana Ben Cleo Dev Eli Fay
me: Ana
Ana holds: 2H 3H 4H 6H 7H 9S JC QD
Ana asks Dev 5H: no
"""
TT = """game: twenty-two
players: Ana Ben Cleo
me: Ana
draw: Ana KH, Ben 9H, Cleo 10H
Ana deals 7
Ana holds: KS KH KD AS AH AD QS
Ben exchanges 0
Cleo exchanges 0
Ana exchanges 0
"""

FIVE = (Path(__file__).parent.parent / "samples" / "mystery-hand" /
        "five-players-ana.txt").read_text(encoding="utf-8") + "Eli requests 2S: Ben\n"

CASES = [
    # the shape: cards placed in the mystery hand, a wrong announcement (MH-20)
    # that rules out the fourth, and lines that put it there
    pytest.param(MH4, "Cleo requests KS: nobody",
                 "3H 5H 6H are in the mystery hand (lines 7, 8 and 10), so with line 11 KS "
                 "cannot be in the mystery hand; lines 12 and 13 say it is", id="mh-announce"),
    # one card: Ben showed 6H (E1), the ask-all counts all four 6s elsewhere (E3)
    pytest.param(MH5, "Ben asks all 6*: Ana 0, Cleo 1, Dev 2, Eli 1",
                 "line 6 puts 6H in Ben's hand; line 7 says it is not", id="mh-card"),
    # a count: two of 4H-7H are Ben's, the ask-all puts three elsewhere
    pytest.param(MH5, "Ben asks all 4H-7H: Ana 0, Cleo 2, Dev 1, Eli 0",
                 "line 6 puts at least 2 of 4H 5H 6H 7H in Ben's hand; line 7 says at most 1",
                 id="mh-count"),
    # the recorder's own hand against another's count (E3)
    pytest.param(MH5, "Ben asks all 2*: Ana 0, Cleo 2, Dev 1, Eli 1",
                 "line 5 puts 2S in Ana's hand; line 7 says it is not", id="mh-own-hand"),
    # one card kept to some places by one line and to others by the other: 7S was asked
    # for and nobody showed it (E5), but the ask-all puts all four 7s in three hands (E3)
    pytest.param(FIVE, "Ana asks all 7*: Ben 2, Cleo 1, Dev 1, Eli 0",
                 "line 36 leaves 7S only in the mystery hand or the face-up cards; line 38 "
                 "puts it in Ben's hand, Cleo's hand or Dev's hand", id="mh-places"),
    # LIT-6(c): Dev must hold a low heart to ask for 5H, and Ana holds all the others
    pytest.param(LIT, "Dev asks Eli 5H: no",
                 "line 4 puts none of 2H 3H 4H 6H 7H in Dev's hand; line 6 says at least 1",
                 id="lit-count"),
    # LIT-6(c)/(d): Dev asked for 10S (so lacks it), then gives it away
    pytest.param(LIT + "Dev asks Ana 10S: no\n", "Ana asks Dev 10S: yes",
                 "line 6 says 10S is not in Dev's hand; line 7 says it is", id="lit-card"),
    # I2: Cleo's QC does not beat the AC lead, so she holds nothing below Q, but Ana holds
    # most of the high cards
    pytest.param(TT, "Ben leads AC; Cleo QC; Ana AS",
                 "the 40 cards that line 10 names ('Cleo holds no card below Q (I2: "
                 "lowest-cards play)')",
                 id="tt-count"),
]


def _record(tmp_path, text):
    p = tmp_path / "game.txt"
    p.write_text(text, encoding="utf-8")
    return p


def _named_lines(sentence: str) -> set[int]:
    out = set()
    for m in re.finditer(r"\blines? (\d+(?:(?:, | and )\d+)*)", sentence):
        out |= {int(n) for n in re.findall(r"\d+", m.group(1))}
    return out


@pytest.mark.parametrize("text, statement, said", CASES)
def test_log_says_why_then_lists_the_lines_once(tmp_path, text, statement, said):
    p = _record(tmp_path, text)
    r = CliRunner().invoke(cli, ["log", str(p), statement])
    assert r.exit_code == 3, r.output
    head, *listed = r.output.strip().split("\n")
    assert said in head
    # cited as every error is: the file, the line and column of the statement completing
    # the contradiction (the one logged)
    where = re.match(r"sleuth: inconsistent: (.+):(\d+):(\d+): ", head)
    assert where and where.group(1) == str(p), head
    conflict = [int(re.match(r"\s+line (\d+): ", l).group(1)) for l in listed]
    assert int(where.group(2)) == conflict[-1] and where.group(3) == "1"
    assert head[where.end():].startswith("these ")
    # the sentence names exactly the conflicting lines, and each is listed once
    assert _named_lines(head.partition("cannot all be true: ")[2]) == set(conflict)
    assert len(conflict) == len(set(conflict)) >= 2
    assert listed[-1] == f"  line {conflict[-1]}: {statement}"
    assert p.read_text(encoding="utf-8") == text          # refused: the file is unchanged


@pytest.mark.parametrize("text, statement, said",
                         [c for c in CASES if c.id in ("mh-announce", "mh-card", "lit-card")])
def test_analyze_and_play_say_the_same(tmp_path, text, statement, said):
    p = _record(tmp_path, text + statement + "\n")
    r = CliRunner().invoke(cli, ["analyze", str(p)])
    assert r.exit_code == 3 and said in r.output
    p.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", str(p), "--no-sheet"], input=statement + "\n")
    assert said in r.output and "refused: " in r.output
    assert r.output.count(statement) == 2          # echoed, then listed once
    assert p.read_text(encoding="utf-8") == text


def test_json_keeps_the_contract_and_adds_nothing(tmp_path):
    p = _record(tmp_path, MH5 + "Ben asks all 6*: Ana 0, Cleo 1, Dev 2, Eli 1\n")
    r = CliRunner().invoke(cli, ["analyze", str(p), "--json"])
    assert r.exit_code == 3
    assert '"conflict": [\n    6,\n    7\n  ]' in r.output


def test_lines_are_worded_one_way_and_renumbered_with_the_record():
    assert lines_text([8, 3]) == "lines 3 and 8" and lines_text([4]) == "line 4"
    assert lines_text([1, 2, 3]) == "lines 1, 2 and 3"
    said = "3H is in the mystery hand (lines 7 and 10), so with line 11 KS cannot be there"
    assert renumber_text(said, lambda n: n + 1 if n >= 9 else n) == \
        "3H is in the mystery hand (lines 7 and 11), so with line 12 KS cannot be there"


def test_a_games_own_sentence_names_its_lines(tmp_path):
    # Twenty-Two finds this one itself (I2): its sentence is kept, the lines are added
    text = TT.replace("Ana holds: KS KH KD AS AH AD QS", "Ana holds: 4S 5S 8S 5D 7D 2C 10C") \
        .replace("Ana exchanges 0", "Ana exchanges 3: 5D 8S 2C -> 3C 2D QH") \
        + "Ben leads QC; Cleo 4H; Ana QH\n"
    p = _record(tmp_path, text)
    r = CliRunner().invoke(cli, ["log", str(p), "Ana leads 7D; Ben AH; Cleo 2H"])
    assert r.exit_code == 3, r.output
    assert "nothing below 4 (I2), but Cleo later played 2H (lines 10 and 11)" in r.output
