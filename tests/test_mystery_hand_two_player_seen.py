"""MH-28: a record states only the mystery hands its recorder can know.  Under
``two-player=seen|chosen`` a player sees their own only, under ``blind`` nobody looks at
theirs; a complete record (the full history) may give both, and so may the end of the game."""
import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import RuleError
from solver.records import parse_record

ANA = "AS 5S 8S KS AH 5H 6H JH KH 3D 4D 7D 8D 9D 10D JD 2C 3C 4C 5C 7C 9C"
BEN = "2S 4S 6S 7S 9S JS 2H 3H 4H 8H 9H QH AD 2D 5D 6D AC 6C 8C 10C QC KC"


def text(mode, lines, me="me: Ana\n"):
    return (f"game: mystery-hand\nvariant: two-player={mode}\nplayers: Ana Ben\n{me}"
            + "".join(f"{x}\n" for x in lines))


REFUSED = [
    # (mode, statements, me line, message, column of the player named)
    ("blind", ["mystery ana: 10S 10H QD JC"], "me: Ana\n", "no one looks at their own", 9),
    ("blind", ["mystery Ben: 3S QS 7H KD"], "me: Ana\n", "no one looks at their own", 9),
    ("seen", ["mystery Ben: 3S QS 7H KD"], "me: Ana\n", "only Ben saw Ben's", 9),
    ("chosen", ["mystery Ben: 3S QS 7H KD"], "me: Ana\n", "only Ben saw Ben's", 9),
    ("seen", ["mystery Ana: 10S 10H QD JC"], "", "a record by a spectator", 9),
    ("seen", [f"Ana holds: {ANA}", "mystery  Ben: 3S QS 7H KD"], "me: Ana\n", "only Ben", 10),
]


@pytest.mark.parametrize("mode,lines,me,message,col", REFUSED)
def test_mystery_hand_the_recorder_cannot_know_is_refused(mode, lines, me, message, col):
    with pytest.raises(RuleError) as e:
        parse_record(text(mode, lines, me))
    err = e.value
    assert err.rule == "MH-28" and message in err.message, str(err)
    assert err.line == 4 + len(lines) - (0 if me else 1) and err.text == lines[-1]
    assert str(err).split(": ", 1)[0].endswith(f":{col}"), str(err)


ACCEPTED = [
    ("seen", [f"Ana holds: {ANA}", "mystery Ana: 10S 10H QD JC"]),
    ("chosen", ["mystery ana: 10S 10H QD JC"]),
    # a complete record is the full history: both mystery hands, under any mode
    ("blind", [f"Ana holds: {ANA}", f"Ben holds: {BEN}", "mystery Ana: 10S 10H QD JC",
               "mystery Ben: 3S QS 7H KD"]),
    ("seen", [f"Ana holds: {ANA}", f"Ben holds: {BEN}", "mystery Ana: 10S 10H QD JC",
              "mystery Ben: 3S QS 7H KD"]),
    # after the game (a wrong announcement) the hands may be turned over
    ("blind", [f"Ana holds: {ANA}", "Ana announces 3S QS 7H QD: wrong",
               "mystery Ben: 3S QS 7H KD"]),
]


@pytest.mark.parametrize("mode,lines", ACCEPTED)
def test_mystery_hand_the_recorder_knows_is_accepted(mode, lines):
    parse_record(text(mode, lines))


def test_analyze_refuses_blind_own_mystery_hand(tmp_path):
    p = tmp_path / "mb.txt"
    p.write_text(text("blind", ["mystery ana: 2C 5H 9S KD"]))
    r = CliRunner().invoke(cli, ["analyze", str(p), "--json"], catch_exceptions=False)
    assert r.exit_code == 2 and "mb.txt:5:9:" in r.output and "(MH-28)" in r.output, r.output
    assert "'mystery ana: 2C 5H 9S KD'" in r.output and "Traceback" not in r.output
