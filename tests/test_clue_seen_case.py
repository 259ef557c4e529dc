"""The record format's Clue extension ``A sees case: s w r`` (docs/record-format.md): what
a wrong accuser saw in the case file (CL-8, E3).  Only that accuser's view uses it; every
other view learns only that the accusation was wrong; malformed or illegal lines are
refused with their line, column and rule."""
from __future__ import annotations

import pytest

from solver.clue.analysis import analyze
from solver.clue.events import SeesCase, parse_event
from solver.clue.inference import as_written_by, true_deal
from solver.clue.simulate import simulate
from solver.errors import NotationError, RuleError
from solver.records import Header, parse_record, write_record

H = Header(game="clue", players=("Ana", "Ben", "Cleo", "Dev"), dealer="Dev")

DEV = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev
me: Dev
Dev holds: Plum Knife Library Lounge
Ana suggests Plum Knife Library: Ben passes, Cleo passes, Dev shows Knife
Dev accuses Green Wrench Study: wrong
Dev sees case: Mustard Rope Hall
"""


def test_the_statement_reads_with_aliases_and_writes_back():
    ev = parse_event("dev SEES CASE: ColonelMustard rope HALL", H)
    assert ev == SeesCase("Dev", ("Mustard", "Rope", "Hall"))
    assert str(ev) == "Dev sees case: Mustard Rope Hall" and parse_event(str(ev), H) == ev
    rec = parse_record(DEV)
    assert [s.event for s in parse_record(write_record(rec)).statements] == \
        [s.event for s in rec.statements]


def test_the_accusers_own_record_is_solved():
    rec = parse_record(DEV)
    a = analyze(rec, "Dev")
    assert a.envelope.determined and a.envelope.answer() == ("Mustard", "Rope", "Hall")
    assert a.certain("Mustard") == "envelope" and a.exact
    without = analyze(parse_record(DEV.replace("Dev sees case: Mustard Rope Hall\n", "")),
                      "Dev")
    assert not without.envelope.determined and without.envelope.count > 1


def test_the_public_view_learns_only_that_the_accusation_was_wrong():
    rec = parse_record(DEV)
    without = parse_record(DEV.replace("Dev sees case: Mustard Rope Hall\n", ""))
    a, b = analyze(rec, None), analyze(without, None)
    assert a.possible == b.possible and a.cards == b.cards
    assert a.envelope.count == b.envelope.count > 1
    assert ("Green", "Wrench", "Study") not in [cs for cs, _ in a.envelope.top]


def test_complete_records_give_the_line_to_the_accuser_alone():
    """In a simulated game with a wrong accusation, the accuser's own record (as it would
    have written it) carries the case file it saw and agrees with its view of the complete
    record; any other player's record and view are the same with or without the line."""
    for seed in range(200):
        full = parse_record(write_record(simulate(4, [], seed, events=20)))
        wrong = [s.event for s in full.statements
                 if type(s.event).__name__ == "Accuse" and not s.event.right]
        if wrong:
            break
    else:                                   # pragma: no cover - the simulator accuses
        pytest.fail("no simulated game with a wrong accusation")
    who = wrong[0].player
    truth = true_deal(full)
    case = tuple(c for g in analyze(full, None).deck.groups for c in g
                 if truth[c] == "envelope")
    mine = parse_record(write_record(as_written_by(full, who)))
    seen = [s.event for s in mine.statements if isinstance(s.event, SeesCase)]
    assert seen == [SeesCase(who, case)]
    a = analyze(mine, who)
    assert a.envelope.answer() == case
    assert a.possible == analyze(full, who).possible
    other = next(p for p in full.header.players if p not in {e.player for e in wrong})
    theirs = parse_record(write_record(as_written_by(full, other)))
    assert not any(isinstance(s.event, SeesCase) for s in theirs.statements)
    # the line added to the complete record changes no other view
    at = next(i for i, s in enumerate(full.statements) if s.event == wrong[0])
    text = write_record(full).splitlines()
    line = full.statements[at].line
    text.insert(line, str(SeesCase(who, case)))
    more = parse_record("\n".join(text) + "\n")
    for view in (None,) + tuple(p for p in full.header.players if p != who):
        x, y = analyze(more, view), analyze(full, view)
        assert x.possible == y.possible and x.cards == y.cards, view
    assert analyze(more, who).possible == analyze(full, who).possible


@pytest.mark.parametrize("line,col,msg,quoted", [
    ("Dev sees case: Mustard Rope", 16, "three cards", "'Mustard Rope'"),
    ("Dev sees case: Mustard Hall Rope", 24, "expected a weapon here", "'Hall'"),
    ("Dev sees case: Mustard Rope Attic", 29, "not a card", "'Attic'"),
])
def test_malformed_lines_are_refused_with_their_column(line, col, msg, quoted):
    text = DEV.replace("Dev sees case: Mustard Rope Hall", line)
    with pytest.raises(NotationError, match=msg) as e:
        parse_record(text, path="dev.txt")
    assert (e.value.path, e.value.line, e.value.column) == ("dev.txt", 8, col)
    assert e.value.rule in ("CL-8", "CL-1") and str(e.value).endswith(quoted)


@pytest.mark.parametrize("replace,msg", [
    (("Dev accuses Green Wrench Study: wrong\n", ""), "accused wrongly"),
    (("Dev sees case: Mustard Rope Hall", "Ben sees case: Mustard Rope Hall"),
     "accused wrongly"),
    (("Dev sees case: Mustard Rope Hall", "Dev sees case: Green Wrench Study"),
     "not the triple accused"),
    (("me: Dev", "me: Ana"), "only Dev saw the case file"),
    (("Dev sees case: Mustard Rope Hall\n", "Dev sees case: Mustard Rope Hall\n"
      "Dev sees case: Mustard Rope Hall\n"), "once"),
])
def test_illegal_lines_are_refused_naming_the_rule(replace, msg):
    text = DEV.replace(*replace)
    if "me: Ana" in text:
        text = text.replace("Dev holds: Plum Knife Library Lounge\n", "")
    with pytest.raises(RuleError, match=msg) as e:
        parse_record(text, path="dev.txt")
    assert e.value.rule == "CL-8" and e.value.line is not None


def test_a_case_file_that_contradicts_the_record_is_inconsistent():
    from solver.errors import InconsistentError

    rec = parse_record(DEV.replace("Mustard Rope Hall", "Plum Rope Hall"))
    with pytest.raises(InconsistentError) as e:
        analyze(rec, "Dev")
    assert "line 5" in str(e.value) and "line 8" in str(e.value)
