"""Literature: after an unseen answer or question the turn is one of a few players; a
statement by anyone else breaks the turn order whatever the recorder missed, and is refused
as the turn rule refuses it (exit 2), naming the players who may be on turn and the fix,
not as a contradiction without a reason (exit 3)."""
import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import RuleError
from solver.literature import GAME
from solver.literature.engine import Play, can_turn
from solver.records import parse_record

HEAD = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
        "Ana holds: 3S 7S AH 10H JD 2C 5C QC\n")
SEEN = ("Ana asks Ben 9H: yes\nAna asks Dev 5S: yes\nAna asks Dev KH: no\n"
        "Dev asks Ana 3S: yes\nDev asks Eli 6S: no\nEli asks Ben KH: no\n")   # Ben on turn
#: line 11: Cleo's answer not heard: Ben's turn after a yes, Cleo's after a no
ANSWER = HEAD + SEEN + "Ben asks Cleo 2D: ?\n"
#: line 11: a question by Ben not seen at all: Ben's turn after a yes, else the turn of
#: the opponent he asked (Cleo or Eli: not Ana, the recorder, who would have heard it)
QUESTION = HEAD + SEEN + "Ben: ?\n"

RECORDS = {"answer": ANSWER, "question": QUESTION}

ANSWER_TURN = "it is Ben's turn if Cleo said yes on line 11, else Cleo's"
QUESTION_TURN = ("it is Ben's turn if Ben's unseen question on line 11 got a yes, else the "
                 "turn of the opponent asked (Cleo or Eli)")


def rec(text):
    return parse_record(text)


REFUSED = [
    # (record, lines added before the statement, statement, rule, what the message says)
    ("answer", "", "Fay asks Ana JH: no", "LIT-5",
     [f"Fay is not on turn: {ANSWER_TURN}; if a turn was missed, log it as 'Cleo: ?' "
      "(then the turn is open: 'turn: Fay' resyncs)"]),
    ("answer", "", "Dev asks Ana JH: no", "LIT-5",
     [f"Dev is not on turn: {ANSWER_TURN}", "'Cleo: ?'", "'turn: Dev'"]),
    ("answer", "", "Eli asks Ben 9S: no", "LIT-5",
     [f"Eli is not on turn: {ANSWER_TURN}; if a turn was missed, log it as 'Ben: ?'",
      "'turn: Eli'"]),
    ("answer", "Ana has 9 cards\n", "Fay asks Ana JH: no", "LIT-5",   # a count line between
     [f"Fay is not on turn: {ANSWER_TURN}", "'Cleo: ?'"]),
    ("answer", "", "turn: Fay", "LIT-5",
     [f"the record says {ANSWER_TURN}; if a turn was missed, log it first as 'Cleo: ?'"]),
    ("answer", "", "Fay passes turn to Dev", "LIT-14", [f"Fay is not on turn: {ANSWER_TURN}"]),
    ("question", "", "Fay asks Ana JH: no", "LIT-5",
     [f"Fay is not on turn: {QUESTION_TURN}; if a turn was missed, log it as 'Cleo: ?' "
      "or 'Eli: ?' (then the turn is open: 'turn: Fay' resyncs)"]),
    ("question", "", "Dev asks Eli 6S: no", "LIT-5", [f"Dev is not on turn: {QUESTION_TURN}"]),
    ("question", "", "turn: Dev", "LIT-5", [f"the record says {QUESTION_TURN}"]),
    # Ana, the recorder, would have heard Ben ask her: no missed turn is advised
    ("question", "", "turn: Ana", "LIT-5", [f"the record says {QUESTION_TURN}"]),
    ("question", "", "Ana asks Ben 9S: no", "LIT-5", [f"Ana is not on turn: {QUESTION_TURN}"]),
]


@pytest.mark.parametrize("kind,extra,statement,rule,said", REFUSED)
def test_a_player_who_cannot_be_on_turn_is_refused_by_the_turn_rule(kind, extra, statement,
                                                                     rule, said):
    record = RECORDS[kind] + extra
    with pytest.raises(RuleError) as e:
        rec(record + statement + "\n")
    assert e.value.rule is not None and rule in e.value.rule
    assert e.value.line == record.count("\n") + 1
    for s in said:
        assert s in str(e.value)
    assert "'Ana: ?'" not in str(e.value)      # the recorder's own question is never missed


ACCEPTED = [
    # (record, lines added, statement): the players who may be on turn act as before (the
    # model then decides the course); after the advice (the missed turn), the resync
    ("answer", "", "Ben asks Ana 9S: no"),
    ("answer", "", "Cleo asks Fay 5S: no"),
    ("answer", "", "turn: Cleo"),
    ("answer", "", "turn: Ben"),
    ("answer", "", "Cleo: ?"),
    ("answer", "Cleo: ?\n", "turn: Fay"),            # the advice: the missed turn, then resync
    ("answer", "Cleo: ?\n", "Fay asks Ana JH: no"),
    ("question", "", "Ben asks Ana 9S: no"),
    ("question", "", "Eli asks Fay 5S: no"),
    ("question", "", "turn: Cleo"),
    ("question", "Eli: ?\n", "turn: Fay"),
]


@pytest.mark.parametrize("kind,extra,statement", ACCEPTED)
def test_the_players_who_may_be_on_turn_are_accepted(kind, extra, statement):
    Play.of(rec(RECORDS[kind] + extra + statement + "\n"))


@pytest.mark.parametrize("kind,may", [
    ("answer", {"Ben", "Cleo"}),
    ("question", {"Ben", "Cleo", "Eli"}),
])
def test_the_state_says_who_may_be_on_turn(kind, may):
    record = RECORDS[kind]
    st = Play.of(rec(record)).state()
    assert not st.turn_known and set(st.turn_may) == may
    assert {p for p in st.table.players if can_turn(st, p)} == may
    # the resync and the next known turn forget it
    st = Play.of(rec(record + f"turn: {sorted(may)[0]}\n")).state()
    assert st.turn_known and st.turn_may == () and st.turn_why == ""


def test_each_player_who_may_be_on_turn_has_a_history():
    """The engine refuses no player the model allows: each of them on turn has a history."""
    for p in ("Ben", "Cleo"):
        assert GAME.analyze(rec(ANSWER + f"turn: {p}\n"), "Ana").to_json()["consistent"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("kind,statement,said", [
    ("answer", "Fay asks Ana JH: no", [ANSWER_TURN, "'Cleo: ?'", "'turn: Fay'", "LIT-5"]),
    ("question", "Dev asks Ana JH: no", [QUESTION_TURN, "'Cleo: ?' or 'Eli: ?'"]),
])
def test_log_refuses_it_as_a_rule_error(tmp_path, kind, statement, said):
    record = RECORDS[kind]
    f = tmp_path / "f.txt"
    f.write_text(record)
    r = run("log", f, statement)
    assert r.exit_code == 2, r.output
    out = " ".join(r.output.split())
    assert "inconsistent" not in out
    for s in said:
        assert s in out
    assert f.read_text() == record
