"""A rule error in Twenty-Two and Hand names the column of the token at fault.

record-format.md: an error "names the file, line and column, quotes the offending text"; a
record that breaks a rule "is rejected the same way, naming the rule".  These two games
pointed every rule error found when the record is checked at column 1 of its line, where
Mystery Hand, Literature and Clue point at the card, player or count at fault.  Each case is
a record whose last line breaks one rule; the error must name the file, line and column of
the offending token and the rule.  A rule about a statement as a whole points at its start.
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import RuleError
from solver.hand.engine import EXAMPLE as HAND_ROUND
from solver.records import parse_record

TT = "game: twenty-two\nplayers: Ana Ben Cleo\ndealer: Cleo\n"        # statements from line 4
TT6 = "game: twenty-two\nplayers: Ana Ben Cleo Dev Eli Fay\ndealer: Fay\n"
HAND_SHEET = "game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\n"       # statements from line 4
HAND_BONUS = ("game: hand\nvariant: bonus-colour, bonus-suit\nplayers: Ana Ben Cleo\n"
              "dealer: Ben\n")                                          # statements from line 5

# (header, statements after it, line, column, rule); the column is that of the token named
CASES = [
    # Twenty-Two: the player out of turn, in the play of the trick that breaks the order
    (TT, "Cleo deals 7\nAna leads 7H; Cleo 2S", 5, 15, "TT-10"),
    (TT, "Cleo deals 7\nBen leads 7H", 5, 1, "TT-9"),                 # the wrong leader
    (TT, "Cleo deals 7\nAna leads 7H 7D; Ben 9C", 5, 22, "TT-10"),    # the count followed
    (TT, "Cleo deals 7\nAna leads 5H 6H", 5, 11, "TT-9"),             # not one rank
    (TT, "Cleo deals 7\nAna leads 7H; Ben 7H; Cleo 2S", 5, 19, "TT-1"),   # 7H twice
    (TT, "Cleo deals 7\nAna leads Jk; Ben 2C; Cleo 3C", 5, 11, "TT-V2(a)"),
    (TT, "Cleo deals 7\nAna holds: 2C 3C 4C 5C 6C 7C 8C\nAna leads 9C", 6, 11, "TT-9"),
    (TT, "Cleo deals 7\nAna holds: 2C 3C 4C 5C 6C 7C 8C\nAna exchanges 1: 9C -> 2D",
     6, 18, "TT-8"),                                                 # a discard not held
    (TT, "Cleo deals 6", 4, 12, "TT-5"),                              # the count dealt
    (TT, "Cleo deals 7\nCleo deals 7", 5, 6, "TT-13"),                # a deal before showdown
    (TT, "Ana deals 7", 4, 1, "TT-4"),                                # the wrong dealer
    (TT, "Cleo deals 7\nAna holds: 2C 3C", 5, 12, "TT-6"),            # too few cards
    (TT, "Cleo deals 7\nAna exchanges 8", 5, 15, "TT-8"),             # the count exchanged
    (TT, "Cleo deals 7\nAna leads 7H\nBen exchanges 1", 6, 5, "TT-8"),    # exchange over
    (TT, "Ben plays 2C", 4, 5, "TT-5"),                               # no deal yet
    (TT, "draw: Ana 9C, Ben KD", 4, 1, "TT-4"),                       # the whole statement
    (TT6, "Fay deals 7\nBen exchanges 1\nAna exchanges 1", 6, 1, "TT-8"),
    # Hand, a round turn by turn (EXAMPLE's statements end on line 12)
    (HAND_ROUND, "Ben draws", 13, 1, "HR-4"),                         # not Ben's turn
    (HAND_ROUND, "Ana melds 2S 3S 4S", 13, 5, "HR-28"),               # no draw first
    (HAND_ROUND, "Ana draws\nAna draws", 14, 5, "HR-28"),             # a second draw
    (HAND_ROUND, "Ana takes 8S", 13, 11, "HR-28"),                    # not the top discard
    (HAND_ROUND, "Ana takes 9H\nAna discards 5C", 14, 14, "HR-29"),   # at the discard
    (HAND_ROUND, "Ana draws\nAna melds 2S 3S 4S\nAna discards 5C", 15, 14, "HR-19"),
    (HAND_ROUND, "Ana draws\nAna lays off 9C on 1\nAna discards 5C", 15, 14, "HR-21"),
    (HAND_ROUND, "Ana takes 9H\nAna lays off 9H on 1", 14, 14, "HR-29"),
    (HAND_ROUND, "Ana draws\nAna lays off 3D on 7", 14, 20, "HR-23"),     # the meld number
    (HAND_ROUND, "Ana draws\nAna discards 2C 3C", 14, 17, "HR-59"),   # the second discard
    (HAND_ROUND, "Ana draws\nAna melds 2S 3S", 14, 11, "HR-11"),      # the meld (already so)
    (HAND_ROUND, "indicator 4C", 13, 11, "HR-7"),                     # a second indicator
    (HAND_ROUND, "Ben calls two cards", 13, 1, "HR-33"),              # not after Ben's discard
    (HAND_ROUND, "round 1: Ana out partial; Ben 5, Cleo 5", 13, 10, "HR-34"),  # the winner
    (HAND_ROUND, "round 1: unscored stock", 13, 19, "HR-35"),
    (HAND_ROUND, "round 1: unscored redeal Ana", 13, 19, "HR-10"),
    (HAND_ROUND, "Cleo holds: 2C 3C", 13, 1, "HR-6"),                 # the whole statement
    # Hand, a scoresheet
    (HAND_SHEET, "round 2: Ana out partial; Ben 5, Cleo 5", 4, 7, "HR-36"),    # the number
    (HAND_SHEET, "round 1 dealer Cleo: Ana out partial; Ben 5, Cleo 5", 4, 16, "HR-5"),
    (HAND_SHEET, "round 1: Ana out partial; Ben 5, Ben 7", 4, 34, "HR-38"),    # twice
    (HAND_SHEET, "round 1: Ana out partial; Ben 5, Ana 7", 4, 34, "HR-38"),    # the winner
    (HAND_SHEET, "round 1: Ana out full-hand suit; Ben 5, Cleo 5", 4, 28, "HR-59"),
    (HAND_SHEET, "round 1: Ana out partial suit; Ben 5, Cleo 5", 4, 26, "HR-59"),
    (HAND_SHEET, "round 1: stock; Ana 5, Ben 5, Cleo 5", 4, 10, "HR-35"),
    (HAND_SHEET, "round 1: Ana out partial; Ben 5", 4, 1, "HR-38"),   # missing: whole line
    (HAND_BONUS, "round 1: Ana out full-hand suit colour; Ben 5, Cleo 5", 5, 33, "HR-59"),
]


def _record(head: str, body: str) -> str:
    return head + body + "\n"


@pytest.mark.parametrize("head, body, line, column, rule", CASES,
                         ids=[f"{c[4]}-{c[1].splitlines()[-1]}" for c in CASES])
def test_the_rule_error_points_at_the_token(head, body, line, column, rule):
    with pytest.raises(RuleError) as e:
        parse_record(_record(head, body), "g.txt")
    err = e.value
    assert (err.path, err.line, err.column, err.rule) == ("g.txt", line, column, rule)
    assert str(err).startswith(f"g.txt:{line}:{column}: ")
    # the quote is the statement (or the part of it at fault), found at that column
    typed = _record(head, body).splitlines()[line - 1]
    assert typed[column - 1:].startswith(err.text) or err.text in typed


CLI_CASES = [CASES[0], CASES[6], CASES[18], CASES[21], CASES[34], CASES[38]]


@pytest.mark.parametrize("head, body, line, column, rule", CLI_CASES,
                         ids=[f"{c[4]}-{c[1].splitlines()[-1]}" for c in CLI_CASES])
def test_sleuth_analyze_names_file_line_column_and_rule(tmp_path, head, body, line, column,
                                                        rule):
    path = tmp_path / "g.txt"
    path.write_text(_record(head, body), encoding="utf-8")
    res = CliRunner().invoke(cli, ["analyze", str(path)])
    assert res.exit_code == 2, res.output
    out = res.stderr if hasattr(res, "stderr") else res.output
    assert f"{path}:{line}:{column}: " in out and f"({rule})" in out


def test_a_card_typed_in_another_spelling_is_pointed_at_as_typed():
    with pytest.raises(RuleError) as e:
        parse_record(TT + "Cleo deals 7\nAna leads 7♥; ben 7h; Cleo 2♠\n", "g.txt")
    assert (e.value.line, e.value.column, e.value.rule) == (5, 19, "TT-1")
    with pytest.raises(RuleError) as e:
        parse_record(HAND_ROUND + "Ana takes 8♠\n", "g.txt")
    assert (e.value.line, e.value.column, e.value.rule) == (13, 11, "HR-28")


def test_the_wrong_first_dealer_is_named_once():
    """The error names who deals once (it said 'the first dealer is Cleo (TT-4): Cleo')."""
    with pytest.raises(RuleError) as e:
        parse_record(TT + "Ana deals 7\n", "g.txt")
    assert e.value.message == "the first dealer is Cleo"
    assert str(e.value) == "g.txt:4:1: the first dealer is Cleo (TT-4): 'Ana deals 7'"
