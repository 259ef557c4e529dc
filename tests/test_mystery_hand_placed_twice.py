"""A card two lines put in two places (MH-1) breaks a rule, as in Clue (CL-2) and Twenty-Two
(TT-1): refused with exit 2 like any rule error (record-format.md: "a record that parses but
breaks a rule (an illegal ask, a card in two places) is rejected the same way, naming the
rule"), at the second line, the column on the card, the sentence naming both lines
('4H would be in two places (Ben on line 6 and Cleo on line 10) (MH-1)'). ``--force`` and
play's ``force`` save only contradictions, so neither saves it."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import RuleError
from solver.records import parse_record

HEAD = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
        "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"     # line 5
        "Ana asks Ben 4H-7H: 4H 7H\n"                           # line 6: 4H is Ben's
        "Ben asks all 6*: Ana 1, Cleo 1, Dev 2\n"
        "Ben requests KS: nobody\n")                            # line 8; Cleo's turn
LINE10 = "Ana requests 4H: Cleo"
SENTENCE = "4H would be in two places (Ben on line 6 and Cleo on line 10) (MH-1)"


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def record(tmp_path):
    p = tmp_path / "p5.txt"
    p.write_text(HEAD + "turn: Ana\n")                          # line 9
    return p


def test_the_brief_s_record_is_a_rule_error_at_the_shown_card(tmp_path):
    """Two lines that both show 4H: exit 2 at line 4, column 21 (the shown 4H, not the one
    of the range); --json prints nothing on stdout, as for every rule error."""
    p = tmp_path / "mh2.txt"
    p.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\n"
                 "Ana asks Ben 4H-7H: 4H\nBen asks Dev 4H-7H: 4H\n")
    for args in (("--json",), ()):
        r = run("analyze", str(p), *args)
        assert r.exit_code == 2, r.output
        assert r.stdout == ""
        assert (f"sleuth: error: {p}:4:21: 4H would be in two places (Ben on line 3 and Dev "
                "on line 4) (MH-1): 'Ben asks Dev 4H-7H: 4H'") in r.stderr
        assert "inconsistent" not in r.stderr


def test_log_refuses_it_as_a_rule_error_and_force_does_not_save_it(record):
    before = record.read_bytes()
    r = run("log", str(record), LINE10)
    assert r.exit_code == 2, r.output
    assert f"{record}:10:14: {SENTENCE}: '{LINE10}'" in r.stderr
    assert record.read_bytes() == before
    # docs/session.md: --force saves a contradiction; a statement must still be legal
    r = run("log", str(record), LINE10, "--force")
    assert r.exit_code == 2 and f"{record}:10:14: {SENTENCE}" in r.stderr
    assert record.read_bytes() == before
    # the same for an MH-11 rule error
    r = run("log", str(record), "Ana asks Ben 2C-5C: 0", "--force")
    assert r.exit_code == 2 and "(MH-11)" in r.stderr
    assert record.read_bytes() == before


def test_a_record_written_with_it_is_refused_by_every_reader(record):
    """A record that already holds such a line (written by hand, or forced before the
    rule came back): analyze, its --as view, replay, review, suggest and why stop at the rule
    error, exit 2, never a traceback or the contradiction's JSON."""
    record.write_text(record.read_text() + LINE10 + "\n")
    for args in (("analyze", "--json"), ("analyze", "--as", "Ana"), ("replay",),
                 ("review", "--as", "Ana"), ("suggest", "--as", "Ana"),
                 ("why", "4H")):
        r = run(args[0], str(record), *args[1:])
        assert r.exit_code == 2, (args, r.output)
        assert SENTENCE in r.stderr, args
        with pytest.raises(json.JSONDecodeError):
            json.loads(r.stdout or "")


def test_a_lossy_record_with_unseen_answers(tmp_path):
    """'?' lines place nothing; the card shown on both sides of them is still caught."""
    p = tmp_path / "lossy.txt"
    p.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\nme: Ana\n"
                 "Ana asks Ben 4H-7H: 4H\nBen asks Cleo 5*: ?\nCleo: ?\n"
                 "Dev asks Cleo 4H-7H: 4H\n")
    r = run("analyze", str(p), "--json")
    assert r.exit_code == 2 and r.stdout == ""
    assert ":7:22: 4H would be in two places (Ben on line 4 and Cleo on line 7) (MH-1)" \
        in r.stderr


def test_play_refuses_it_as_it_refuses_any_rule_error(record):
    from cli.session import render_outcome
    from solver.session import Session

    s = Session(str(record))
    before = record.read_bytes()
    o = s.handle(LINE10)
    assert o.kind == "refused" and isinstance(o.error, RuleError)
    assert o.error.rule == "MH-1" and o.error.line == 10 and not o.conflict
    text = render_outcome(o, s, False)
    assert SENTENCE in text and "not saved" in text and "'force'" not in text
    assert s.handle("force").kind == "refused"               # nothing forcible refused
    o = s.handle("force " + LINE10)
    assert o.kind == "refused" and isinstance(o.error, RuleError)
    assert record.read_bytes() == before
    o = s.handle("Ana asks Ben 2C-5C: 0")                      # MH-11: refused the same way
    assert o.kind == "refused" and isinstance(o.error, RuleError) and not o.conflict
    assert "not saved" in render_outcome(o, s, False)


@pytest.mark.parametrize("body, line, col, sentence", [
    # a card shown that the asker's own hand holds
    ("Ana asks Ben 5C-8C: 5C\n", 6, 21, "5C would be in two places (Ana on line 5 and Ben "
                                        "on line 6)"),
    # a card shown twice by two players
    ("Ana asks Ben 4H-7H: 4H\nBen asks all 6*: Ana 1, Cleo 1, Dev 2\nCleo asks Dev 4H-7H: 4H\n",
     8, 22, "4H would be in two places (Ben on line 6 and Dev on line 8)"),
    # a right announcement of a card a hand holds
    ("Ana asks Ben 4H-7H: 4H\nBen asks Cleo 4H-7H: 0\nCleo announces KS KH KD 5C: right\n",
     8, 25, "5C would be in two places (Ana on line 5 and the mystery hand on line 8)"),
])
def test_every_kind_of_placement(body, line, col, sentence):
    text = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
            "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n" + body)
    with pytest.raises(RuleError) as e:
        parse_record(text)
    assert e.value.rule == "MH-1" and e.value.line == line
    assert e.value.message == sentence
    assert f":{line}:{col}: {sentence} (MH-1): " in str(e.value)
    # the check of the record alone (validation off) finds no contradiction in it: the rule
    # is the engine's
    from solver.mystery_hand.engine import run as engine_run

    with pytest.raises(RuleError):
        engine_run(parse_record(text, validate=False))


def test_two_hands_of_a_complete_record():
    with pytest.raises(RuleError) as e:
        parse_record("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
                     "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
                     "Ben holds: 5H 6D 2D 3D 4D 5D 7D 8D 9D 10D JD QD\n")
    assert e.value.rule == "MH-1" and e.value.line == 5
    assert e.value.message == "5H would be in two places (Ana on line 4 and Ben on line 5)"
    assert ":5:12: " in str(e.value)                         # the column of 5H



def test_serve_s_entry_refuses_it_as_any_rule_error(record):
    """The page's entry (web/) says the rule error, saves nothing, offers no force."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from web.app import create_app

    app = create_app(str(record), token="t", token_required=False, loopback=True)
    c = TestClient(app, base_url="http://127.0.0.1:8765")
    before = record.read_bytes()
    for line, rule in ((LINE10, SENTENCE), ("force " + LINE10, SENTENCE),
                       ("Ana asks Ben 2C-5C: 0", "(MH-11)")):
        d = c.post("/do", json={"line": line, "version": None},
                   headers={"X-Sleuth-Token": "t"}).json()
        assert d["kind"] == "refused" and not d["saved"] and not d["conflict"], line
        assert d["status"].startswith("refused: ") and rule in d["status"]
    assert record.read_bytes() == before


def test_a_hand_laid_open_does_not_make_a_record_complete():
    """A spectator who wrote three hands, then the fourth laid open after a wrong
    announcement (MH-20), keeps everything written; the fourth hand made the record
    'complete', whose public view keeps only what was public, and 2S, shown to Ana by Ben,
    was no longer Ben's. A complete record lists every hand as dealt."""
    import json

    from click.testing import CliRunner

    from cli.main import cli
    from solver.mystery_hand.inference import is_complete
    from solver.records import parse_record

    text = """game: mystery-hand
players: Ana Ben Cleo Dev
dealer: Dev
Ana holds: 5S 6S 8S QS AH 3H 7H KH 9D QD 2C 8C
Ben holds: 2S 3S KS 4H 6H 9H 2D 7D JD AC 3C 6C
Cleo holds: 7S JS 2H 3D 4D 6D 10D KD 5C 7C 9C 10C
Ana requests 10D: Cleo
Ben requests QC: Dev
Cleo asks Dev 6S-9S: ?
Dev announces KH 3D 4D 6D: wrong
Dev holds: AS 10S 5H 10H JH QH 5D 8D 4C JC QC KC
Ana asks Ben 2S-5S: 2S 3S
"""
    assert not is_complete(parse_record(text))
    assert not is_complete(parse_record(text.replace("6S-9S: ?", "6S-9S: none")))
    dealt = text.replace("Dev holds: AS 10S 5H 10H JH QH 5D 8D 4C JC QC KC\n", "")
    dealt = dealt.replace("Ana requests 10D", "Dev holds: AS 10S 5H 10H JH QH 5D 8D 4C JC QC "
                          "KC\nAna requests 10D")
    assert is_complete(parse_record(dealt))
    runner = CliRunner()
    with runner.isolated_filesystem():
        with open("a.txt", "w", encoding="utf-8") as f:
            f.write(text)
        r = runner.invoke(cli, ["analyze", "a.txt", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["cards"]["2S"] == {"Ben": 1.0}
    assert d["mystery"]["determined"] is True
