"""Twenty-Two unseen turns: who may act and the conflicts when the deal facts (I2) rule out
the courses the rules allow (docs/twenty-two.md, "Unseen turns")."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import InconsistentError, RuleError
from solver.records import parse_record
from solver.twenty_two import analysis
from solver.twenty_two.engine import courses, replay

#: Ben's 8C does not beat KH (line 10): his lowest card, nothing below 8 left (I2); so his
#: unseen card on line 11 is 8 or higher, beats 6D, and only Ben may lead next
BASE = """game: twenty-two
players: Ana Ben
me: Ana
dealer: Ana
Ana deals 7
Ana holds: 2S 5S KH AD 6D 9C KC
Ben exchanges 0
Ana exchanges 0
Ben leads 9D; Ana AD
Ana leads KH; Ben 8C
Ana leads 6D; Ben ?
"""


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_to_act_lists_only_the_players_of_courses_the_deal_facts_allow(tmp_path):
    rec = parse_record(BASE)
    # the rules alone let either lead (Ben's unseen card may be below 6 for them) ...
    assert set(replay(rec).turn().players) == {"Ana", "Ben"}
    # ... but I2 leaves only the courses where Ben won the trick
    a = analysis.analyze(rec, "Ana", samples=20)
    assert a.turn == "lead" and a.to_act == ("Ben",)
    game = tmp_path / "t.txt"
    game.write_text(BASE)
    r = run("analyze", game)
    assert r.exit_code == 0, r.output
    assert "Now: Ben to lead" in r.output
    r = run("analyze", game, "--json")
    assert json.loads(r.output)["deal"]["to_act"] == ["Ben"]


@pytest.mark.parametrize("line12", ["turn: Ana", "Ana leads 2S; Ben 10H"])
def test_a_line_only_the_deal_facts_refuse_is_a_contradiction_with_it(tmp_path, line12):
    rec = parse_record(BASE + line12 + "\n")     # the rules allow it in some course
    with pytest.raises(InconsistentError) as e:
        analysis.check(rec)
    assert e.value.conflict == [10, 11, 12]      # lines 10 and 11 alone are consistent
    with pytest.raises(InconsistentError) as e:
        analysis.analyze(rec, "Ana", samples=20)
    assert e.value.conflict == [10, 11, 12]
    game = tmp_path / "t.txt"
    game.write_text(BASE + line12 + "\n")
    r = run("analyze", game)
    assert r.exit_code == 3
    assert "lines 10, 11 and 12" in r.output
    assert r.output.count("no way of filling in") == 1
    game.write_text(BASE)
    r = run("log", game, line12)
    assert r.exit_code == 3 and "lines 10, 11 and 12" in r.output, r.output
    assert r.output.count("no way of filling in") == 1
    assert game.read_text() == BASE


def test_a_turn_no_course_of_the_rules_allows_stays_a_rule_error():
    seen = BASE.replace("Ben ?", "Ben 9H")
    with pytest.raises(RuleError, match=r"it cannot be Ana's turn now: Ben \(lead\)") as e:
        parse_record(seen + "turn: Ana\n")
    assert e.value.rule == "TT-10" and e.value.line == 12
    replay(parse_record(BASE + "turn: Ben\n"))
    analysis.check(parse_record(BASE + "turn: Ben\nBen leads 10C\n"))


THREE = """game: twenty-two
players: Ana Ben Cleo
dealer: Ana
Ana deals 7
Ben: ?
"""


def test_an_unseen_lead_takes_the_exchanges_left_out_as_0_like_a_seen_one():
    # Ben (the dealer's left) exchanges first and leads first: his second 'P: ?' is his lead,
    # and Cleo's and Ana's exchanges, not written, are 0, as before a seen lead
    ways = courses(replay(parse_record(THREE + "Ben: ?\n")))
    assert {e.phase for e in ways} == {"play"}
    for e in ways:
        ben = next(ev[1].count for ev in e.deal.events if ev[0] == "exchange")
        counts = [ev[1].player for ev in e.deal.events if ev[0] == "exchange"]
        assert counts == ["Ben"]            # no exchange of Cleo's or Ana's
        assert e.stock == 31 - ben and e.discards == ben
    # exchanges not seen are written: 'turn: Ben' stands for those left, then his lead
    ways = courses(replay(parse_record(THREE + "turn: Ben\nBen: ?\n")))
    assert {tuple(ev[1].player for ev in e.deal.events if ev[0] == "exchange")
            for e in ways} == {("Ben", "Cleo", "Ana")}
    assert max(e.discards for e in ways) > 7
