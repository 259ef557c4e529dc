"""MY-21's last step, "the eldest player's vote decides", and who reveals the votes.

The eldest's vote for any group tied on votes is the verdict, under both tie-break readings
(A8 speaks only of the top-track psychic).  An eldest who voted outside the tie (A11): by
default they choose among the tied groups with a ``verdict:`` line; ``eldest-outside=vote``
makes their vote the verdict all the same.  The revealer is the top-track psychic; when
psychics tie for that job the eldest picks, and the record says whom only when the eldest is
one of them (then the eldest takes it)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import NotationError, RuleError
from solver.mysterium import GAME, MysteriumOptions, count_votes
from solver.records import parse_record

V = ("Ana", "Ben", "Cleo", "Dev", "Eli")
#: the track after phase 1 in the records below: finished in hour 3, 3, 5, 6, 7 (MY-13, A7)
SCORES = dict(Ana=4, Ben=4, Cleo=2, Dev=1, Eli=0)
ALL_TIED = dict(Ana=1, Ben=2, Cleo=3, Dev=4, Eli=5)       # every group one vote
OUTSIDE = dict(Ana=1, Ben=2, Cleo=3, Dev=1, Eli=2)        # 1 and 2 tie, Cleo alone on 3


def opts(tie_break="tied-voters", eldest_outside="choose"):
    return MysteriumOptions(tie_break=tie_break, eldest_outside=eldest_outside)


BOTH = ("tied-voters", "top-track")
COUNT_CASES = [
    # votes, scores, eldest, tie-break readings, eldest-outside values, verdict, pending
    # the tester's case: Ana and Ben (track 4) split 1/2; the eldest Cleo voted 3, tied too
    (ALL_TIED, SCORES, "Cleo", BOTH, ("choose", "vote"), 3, ()),
    (ALL_TIED, SCORES, "Ana", BOTH, ("choose", "vote"), 1, ()),
    (ALL_TIED, SCORES, "Eli", BOTH, ("choose", "vote"), 5, ()),
    # no eldest named: the verdict line may name any group the eldest could have voted for
    (ALL_TIED, SCORES, None, BOTH, ("choose", "vote"), None, (1, 2, 3, 4, 5)),
    # the eldest voted outside the tie (A11)
    (OUTSIDE, SCORES, "Cleo", BOTH, ("choose",), None, (1, 2)),
    (OUTSIDE, SCORES, "Cleo", BOTH, ("vote",), 3, ()),
    (OUTSIDE, SCORES, "Dev", BOTH, ("choose", "vote"), 1, ()),
    (OUTSIDE, SCORES, None, BOTH, ("choose",), None, (1, 2)),
    (OUTSIDE, SCORES, None, BOTH, ("vote",), None, (1, 2, 3)),
    # top-track: Ana (6) chose 5, outside the tie, Ben (6) chose 1: still tied, and 5 is in
    # contention; under A8 Ben alone decides before the eldest is asked
    (dict(Ana=5, Ben=1, Cleo=1, Dev=2, Eli=2), dict(Ana=6, Ben=6, Cleo=2, Dev=1, Eli=0),
     "Ana", ("top-track",), ("choose", "vote"), 5, ()),
    (dict(Ana=5, Ben=1, Cleo=1, Dev=2, Eli=2), dict(Ana=6, Ben=6, Cleo=2, Dev=1, Eli=0),
     "Dev", ("top-track",), ("choose", "vote"), 2, ()),
    (dict(Ana=5, Ben=1, Cleo=1, Dev=2, Eli=2), dict(Ana=6, Ben=6, Cleo=2, Dev=1, Eli=0),
     None, ("top-track",), ("choose",), None, (1, 2, 5)),
    (dict(Ana=5, Ben=1, Cleo=1, Dev=2, Eli=2), dict(Ana=6, Ben=6, Cleo=2, Dev=1, Eli=0),
     "Ana", ("tied-voters",), ("choose", "vote"), 1, ()),
]


@pytest.mark.parametrize("votes, scores, eldest, readings, outside, verdict, pending",
                         COUNT_CASES)
def test_the_eldest_vote_decides(votes, scores, eldest, readings, outside, verdict, pending):
    for tb in readings:
        for eo in outside:
            c = count_votes(votes, V, scores, eldest, opts(tb, eo))
            assert (c.verdict, c.pending) == (verdict, pending), (tb, eo, c)
            if eldest is not None and verdict is None:
                assert "A11" in c.rule and eldest in c.steps[-1]


REVEALER_CASES = [
    # scores, eldest, revealer, candidates
    (SCORES, "Cleo", None, ("Ana", "Ben")),      # the eldest picks Ana or Ben: not recorded
    (SCORES, None, None, ("Ana", "Ben")),
    (SCORES, "Ben", "Ben", ("Ben",)),            # the eldest is among the tied: takes the job
    (dict(SCORES, Ana=5), "Cleo", "Ana", ("Ana",)),
    (None, "Cleo", None, ()),                    # 2 or 3 players: no track
]


@pytest.mark.parametrize("scores, eldest, revealer, candidates", REVEALER_CASES)
def test_revealer(scores, eldest, revealer, candidates):
    votes = {v: 1 for v in V} if scores else {"Ana": 1}
    voters = V if scores else ("Ana",)
    c = count_votes(votes, voters, scores, eldest, opts())
    assert (c.revealer, c.revealer_candidates) == (revealer, candidates)
    js = c.to_json()
    assert (js["revealer"], js["revealer_candidates"]) == (revealer, list(candidates))


def record(votes, eldest="Cleo", tail=(), variant=None):
    """Six players, table of 8 per kind; Ana and Ben finish in hour 3 (track 4), Cleo in 5
    (2), Dev in 6 (1), Eli in 7 (0)."""
    ps = list(V)
    fin = dict(Ana=3, Ben=3, Cleo=5, Dev=6, Eli=7)
    kinds = ["character", "location", "object"]
    lines = ["game: mysterium"] + ([f"variant: {variant}"] if variant else []) + [
        "players: Gus Ana Ben Cleo Dev Eli", "ghost: Gus"]
    if eldest:
        lines.append(f"eldest: {eldest}")
    lines += [f"table {k}: 1 2 3 4 5 6 7 8" for k in kinds]
    for h in range(1, 8):
        lines.append(f"hour {h}")
        for i, p in enumerate(ps):
            if h > fin[p]:
                continue
            st = h - (fin[p] - 2)
            lines.append(f"{p} guesses character 8: wrong" if st < 0 else
                         f"{p} guesses {kinds[st]} {i + 1}: right")
    lines += [f"{p} votes {g}" for p, g in votes.items()]
    return "\n".join([*lines, *tail]) + "\n"


@pytest.mark.parametrize("variant", [None, "tie-break=top-track", "eldest-outside=vote"])
def test_tester_record_eldest_vote_inside_the_tie(variant):
    rec = parse_record(record(ALL_TIED, tail=("verdict: 3", "culprit: 3"), variant=variant))
    js = GAME.analyze(rec, None).to_json()
    assert js["epilogue"]["verdict"] == 3 and js["clock"]["outcome"] == "won"
    js = GAME.analyze(parse_record(record(ALL_TIED, variant=variant)), None).to_json()
    ep = js["epilogue"]
    assert ep["verdict"] == 3 and ep["pending"] == [] and "Cleo" in ep["steps"][-1]
    assert ep["revealer"] is None and ep["revealer_candidates"] == ["Ana", "Ben"]
    with pytest.raises(RuleError, match="the count gives group 3"):
        parse_record(record(ALL_TIED, tail=("verdict: 1",), variant=variant))


def test_record_eldest_outside_the_tie_chooses_by_default():
    js = GAME.analyze(parse_record(record(OUTSIDE)), None).to_json()
    assert js["epilogue"]["verdict"] is None and js["epilogue"]["pending"] == [1, 2]
    with pytest.raises(RuleError) as ei:
        parse_record(record(OUTSIDE, tail=("culprit: 1",)))
    assert ei.value.rule == "MY-21" and "Cleo" in str(ei.value) and "A11" in str(ei.value)
    with pytest.raises(RuleError, match="between groups 1, 2"):
        parse_record(record(OUTSIDE, tail=("verdict: 3",)))
    rec = parse_record(record(OUTSIDE, tail=("verdict: 2", "culprit: 2")))
    assert GAME.analyze(rec, None).to_json()["clock"]["outcome"] == "won"


def test_record_eldest_outside_the_tie_vote_option():
    rec = parse_record(record(OUTSIDE, tail=("verdict: 3", "culprit: 3"),
                              variant="eldest-outside=vote"))
    js = GAME.analyze(rec, None).to_json()
    assert js["epilogue"]["verdict"] == 3 and js["clock"]["outcome"] == "won"
    assert js["setup"]["options"] == ["eldest-outside=vote"]


def test_text_names_the_tied_revealers(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text(record(ALL_TIED))
    out = CliRunner().invoke(cli, ["analyze", str(f)], catch_exceptions=False).output
    flat = " ".join(out.split())
    assert "verdict: group 3" in flat
    assert "revealed by Ana or Ben, tied highest on the track: the eldest, Cleo, picks" in flat


def test_eldest_outside_option_round_trips():
    o = MysteriumOptions.from_names(["eldest-outside=vote"])
    assert o.eldest_outside == "vote" and MysteriumOptions.from_names(o.variant()) == o
    assert MysteriumOptions().eldest_outside == "choose"
    with pytest.raises(NotationError, match="A11"):
        MysteriumOptions.from_names(["eldest-outside=coin"])
