"""Mysterium records with what the recorder did not see (record-format.md): ``P: ?`` (a
psychic's guess of the hour with its revelation, or in the epilogue a vote), ``reveal P: ?``
(an outcome) and ``turn: P`` (a check: Mysterium has no turn order).  The analysis of a
record with ``?`` must be the mixture of its legal fillings, each consistent pair of a deal
and a filling counted once (docs/mysterium.md): checked here against a brute force that
writes every filling out as a complete record."""
from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import InconsistentError, NotationError, RuleError
from solver.mysterium import GAME
from solver.mysterium.analysis import analyze
from solver.mysterium.events import Reveal, TurnIs, Unseen, parse_event
from solver.records import Header, parse_record

HEAD = """game: mysterium
variant: easy
players: Gus Ana Ben Cleo
table character: 1 2 3 4 5
table location: 1 2 3 4 5
table object: 1 2 3 4 5
"""


def _fillings_of(line: str) -> list[str]:
    """Every statement an unseen line may stand for, legal or not (the rules sort them)."""
    m = re.fullmatch(r"(\w+): \?", line)
    if m:
        p = m.group(1)
        return ([f"{p} guesses {k} {c}: {o}" for k in ("character", "location", "object")
                 for c in range(1, 6) for o in ("right", "wrong")]
                + [f"{p} votes {n}" for n in range(1, 4)])
    m = re.fullmatch(r"reveal (\w+): \?", line)
    if m:
        return [f"reveal {m.group(1)}: right", f"reveal {m.group(1)}: wrong"]
    return [line]


def brute(text: str, view=None):
    """The mixture by writing out every filling: (pairs, {kind: {psychic: {card: p}}},
    {psychic: {stage: p}}), or ``None`` when no filling fits."""
    lines = text.splitlines()
    total = 0
    marg: dict = {}
    stages: dict = {}
    for combo in itertools.product(*[_fillings_of(ln) for ln in lines]):
        try:
            rec = parse_record("\n".join(combo) + "\n")
        except RuleError:
            continue
        try:
            a = analyze(rec, view)
        except InconsistentError:
            continue
        n = a.deduction.assignments()
        total += n
        for kind, res in a.deduction.kinds.items():
            for p in res.psychics:
                for c in res.cards:
                    row = marg.setdefault(kind, {}).setdefault(p, {})
                    row[c] = row.get(c, 0) + res.p(p, c) * n
        for p in a.psychics:
            stages.setdefault(p.name, {}).setdefault(p.stage, 0)
            stages[p.name][p.stage] += n
    if not total:
        return None
    return (total,
            {k: {p: {c: v / total for c, v in row.items() if v} for p, row in rows.items()}
             for k, rows in marg.items()},
            {p: {s: Fraction(v, total) for s, v in row.items()} for p, row in stages.items()})


def ours(text: str, view=None):
    a = analyze(parse_record(text), view)
    marg = {kind: {p: {c: pr for c in res.cards if (pr := res.p(p, c))}
                   for p in res.psychics} for kind, res in a.deduction.kinds.items()}
    stages = {p: {s: Fraction(v).limit_denominator(10 ** 12) for s, v in row.items()}
              for p, row in a.unseen["stages"].items()}
    return a.deduction.assignments(), marg, stages, a


CASES = [
    # one unseen guess in hour 1: any character, right or wrong
    HEAD + "hour 1\nAna: ?\nBen guesses character 2: wrong\nCleo guesses character 3: right\n",
    # the unseen guess must have been right: Ana guesses a location in hour 2
    HEAD + "hour 1\nAna: ?\nBen guesses character 1: wrong\nCleo guesses character 3: wrong\n"
           "hour 2\nAna guesses location 4: wrong\nBen: ?\nCleo guesses character 1: right\n",
    # an outcome unseen, then a clairvoyancy token scored either way
    HEAD + "hour 1\nAna guesses character 2\nBen agrees with Ana\nreveal Ana: ?\n"
           "Ben guesses character 2: wrong\nCleo: ?\n",
    # two unseen turns of one psychic, with a seen wrong guess of another on the same kind
    HEAD + "hour 1\nAna: ?\nBen guesses character 1: wrong\nCleo guesses character 1: wrong\n"
           "hour 2\nAna: ?\nBen guesses character 4: right\nCleo guesses character 5: wrong\n",
]


@pytest.mark.parametrize("text", CASES)
def test_the_analysis_is_the_mixture_of_every_legal_filling(text):
    total, marg, stages = brute(text)
    n, m2, s2, a = ours(text)
    assert n == total and m2 == marg and s2 == stages
    assert a.exact and a.unseen["fillings"] > 1
    j = a.to_json()
    assert j["exact"] is True and j["unseen"]["lines"]
    for card, locs in j["cards"].items():               # the contract: they sum to 1
        assert sum(locs.values()) == pytest.approx(1)


def test_the_mixture_in_the_ghost_view_uses_the_secret_lines():
    text = CASES[0] + "secret Ana: character 4\n"
    total, marg, _ = brute(text, "Gus")
    n, m2, _, a = ours(text, "Gus")
    assert n == total and m2 == marg
    # the ghost knows Ana's card, not the one she chose: right on 1 of the 5 cards
    assert a.unseen["stages"]["Ana"] == pytest.approx({"location": 0.2, "character": 0.8})
    assert a.to_json()["cards"]["character 4"] == {"Ana": 1.0}


def test_an_unseen_vote_is_any_group():
    text = (HEAD + "hour 1\nAna guesses character 1: right\nBen guesses character 2: right\n"
            "Cleo guesses character 3: right\nhour 2\nAna guesses location 1: right\n"
            "Ben guesses location 2: right\nCleo guesses location 3: right\nhour 3\n"
            "Ana guesses object 1: right\nBen guesses object 2: right\n"
            "Cleo guesses object 3: right\nAna votes 2\nBen: ?\nCleo votes 2\nculprit: 2\n")
    a = analyze(parse_record(text))
    assert a.unseen["fillings"] == 3 and a.unseen["outcomes"] == {"won": 1.0}
    text = text.replace("Cleo votes 2", "Cleo votes 3")   # 1-1-1 ties or a majority
    a = analyze(parse_record(text.replace("culprit: 2\n", "")))
    assert a.unseen["fillings"] == 3


def test_statements_parse_and_print_back():
    h = Header("mysterium", ("Gus", "Ana", "Ben", "Cleo"))
    assert parse_event("ana: ?", h) == Unseen("Ana")
    assert parse_event("TURN: ben", h) == TurnIs("Ben")
    assert parse_event("reveal cleo: ?", h) == Reveal("Cleo", None)
    assert [str(parse_event(t, h)) for t in ("ana: ?", "turn: ben", "reveal cleo: ?")] == \
        ["Ana: ?", "turn: Ben", "reveal Cleo: ?"]
    with pytest.raises(NotationError):
        parse_event("Zed: ?", h)


def test_rule_errors_of_unseen_and_turn_lines():
    def err(text):
        with pytest.raises(RuleError) as ei:
            parse_record(text)
        return ei.value

    e = err(HEAD + "hour 1\nAna guesses character 1: wrong\nAna: ?\n")
    assert e.rule == "MY-10" and e.line == 9                 # one guess per psychic per hour
    e = err(HEAD + "hour 1\nGus: ?\n")
    assert e.rule == "MY-1"                                  # the ghost takes no such turn
    e = err(HEAD + "Ana: ?\n")
    assert e.rule == "MY-7"                                  # before hour 1
    e = err(HEAD + "hour 1\nAna: ?\nturn: Ana\n")
    assert e.rule == "MY-10" and (e.line, e.column) == (9, 7)
    e = err(HEAD + "hour 1\nreveal Ana: ?\n")
    assert e.rule == "MY-12"
    # turn: P checks only that P may still act; it changes nothing
    for t in ("turn: Ana", "turn: Gus"):
        parse_record(HEAD + "hour 1\n" + t + "\nAna: ?\n")
    # after an unseen guess, a later guess on a location is accepted only as the filling
    # where the unseen guess was right (and then on line 8 Ana found her character)
    a = analyze(parse_record(HEAD + "hour 1\nAna: ?\nBen guesses character 2: wrong\n"
                             "Cleo guesses character 2: wrong\nhour 2\n"
                             "Ana guesses location 3: wrong\n"))
    assert a.unseen["stages"]["Ana"] == {"location": 1.0}
    assert a.play.sleeve["Ana"].get("character") is not None


def test_no_filling_fits_is_a_quoted_contradiction():
    # Ana and Cleo can only be 4 or 5; Ben's unseen guess in hour 3 was wrong (in hour 4 he
    # still guesses a character), so Ben is neither 1, 2 nor 3 either: no filling fits
    text = (HEAD + "hour 1\nAna guesses character 1: wrong\nBen guesses character 1: wrong\n"
            "Cleo guesses character 1: wrong\nhour 2\nAna guesses character 2: wrong\n"
            "Ben guesses character 2: wrong\nCleo guesses character 2: wrong\nhour 3\n"
            "Ana guesses character 3: wrong\nBen: ?\nCleo guesses character 3: wrong\nhour 4\n"
            "Ben guesses character 3: wrong\n")
    with pytest.raises(InconsistentError) as ei:
        analyze(parse_record(text))
    assert ei.value.exit_code == 3 and ei.value.conflict


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def unseen_record(tmp_path):
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "samples/mysterium/five-players-won.txt"
    lines = sample.read_text().splitlines()[2:26]          # lines 3-26: hour 1, Ana revealed
    f = tmp_path / "unseen.txt"
    f.write_text("\n".join(lines + ["turn: Dev", "Dev: ?"]) + "\n")
    return f


def test_cli_accepts_unseen_lines_in_every_command(unseen_record):
    f = unseen_record
    r = _run("analyze", f)
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    assert "note: unseen statements on line 26" in out
    assert "Dev character 85.7%, location 14.3%" in out
    r = _run("analyze", f, "--json")
    assert r.exit_code == 0, r.output
    j = json.loads(r.output)
    assert j["exact"] is True and j["unseen"]["lines"] == [26]
    assert j["unseen"]["stages"]["Dev"]["location"] == pytest.approx(1 / 7)
    assert j["cards"]["character 9"]["Dev"] == pytest.approx(1 / 6)
    for args in (("analyze", f, "--as", "Ben"), ("replay", f), ("replay", f, "--json"),
                 ("why", f, "character 9")):
        r = _run(*args)
        assert r.exit_code == 0, (args, r.output)
    r = _run("log", f, "Ben guesses character 5: wrong")
    assert r.exit_code == 2 and "MY-10" in r.output          # Ben guessed on line 19
    r = _run("log", f, "reveal Ben: wrong")
    assert r.exit_code == 0, r.output
    r = _run("log", f, "reveal Cleo: ?")
    assert r.exit_code == 0, r.output
    assert _run("analyze", f).exit_code == 0


def test_the_entry_form_offers_every_fillings_guesses(unseen_record):
    from web.mysterium import lead_data
    from solver.records import read_record

    f = unseen_record
    f.write_text(f.read_text() + "reveal Ben: wrong\nreveal Cleo: wrong\nhour 2\n")
    guess = lead_data(read_record(str(f)))["guess"]
    assert set(guess["Dev"]) == {"character", "location"}   # the unseen guess either way


def test_many_unseen_turns_give_labelled_estimates(monkeypatch):
    import solver.mysterium.analysis as an

    monkeypatch.setattr(an, "MAX_FILLINGS", 5)
    a = analyze(parse_record(CASES[3]))
    assert a.exact is False and a.error is not None and a.unseen["sampled"]
    j = a.to_json()
    assert j["exact"] is False and "error" in j
    _, marg, _ = brute(CASES[3])
    for p, row in marg["character"].items():           # close to the exact figures
        for c, pr in row.items():
            assert abs(float(a.deduction.kinds["character"].p(p, c)) - float(pr)) < 0.15


def test_a_record_without_unseen_lines_is_unchanged():
    a = GAME.analyze(parse_record(CASES[0].replace("Ana: ?", "Ana guesses character 1: wrong")),
                     None)
    assert a.unseen is None and "unseen" not in a.to_json()


def test_the_sheet_says_estimated_when_the_fillings_are_sampled(monkeypatch, tmp_path):
    """The candidates' heading said 'exact probabilities' over estimates."""
    import solver.mysterium.analysis as an
    from cli.mysterium import render_analysis

    exact = " ".join(render_analysis(analyze(parse_record(CASES[3]))).split())
    assert "Candidates: exact probabilities under a uniform deal" in exact
    monkeypatch.setattr(an, "MAX_FILLINGS", 5)
    a = analyze(parse_record(CASES[3]))
    text = " ".join(render_analysis(a).split())
    assert "Candidates: estimated probabilities (95 % within ±" in text
    assert "exact probabilities" not in text


def test_a_card_number_out_of_range_names_its_rule_for_the_hint(tmp_path):
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "samples/mysterium/five-players-won.txt"
    f = tmp_path / "g.txt"
    f.write_text("\n".join(sample.read_text().splitlines()[:15]) + "\n")
    r = _run("log", f, "Ana guesses character 99: wrong")
    assert r.exit_code == 2
    assert "a psychic card is a number 1-18 (MY-2): '99' (see: sleuth rules MY-2)" in r.stderr


def test_a_line_no_filling_takes_is_the_one_named():
    """When no filling of the unseen turns takes the record, the refusal names the filling
    that went furthest: a second guess in one hour is refused at its own line (MY-10), not
    at an earlier line that only the first filling (an unseen guess taken as wrong) breaks."""
    from solver.mysterium.engine import run

    # a spectator's record: both psychics are Ana's, whose own turns her record never
    # leaves unseen
    text = ("game: mysterium\nplayers: Gus Ana\nghost: Gus\n"
            "table character: 1 8 9 12 14\ntable location: 4 6 8 12 14\n"
            "table object: 1 4 8 12 18\nhour 1\nAna-1 guesses character 1: wrong\n"
            "Ana-2: ?\nhour 2\nAna-1: ?\nAna-2 guesses location 6: wrong\nhour 3\n"
            "Ana-1 guesses location 6\nreveal Ana-1: ?\nAna-2 guesses location 8: wrong\n")
    run(parse_record(text))                         # every line so far is taken
    with pytest.raises(RuleError) as e:
        run(parse_record(text + "Ana-2 guesses location 4: wrong\n"))
    assert e.value.line == 17 and "MY-10" in str(e.value), str(e.value)     # the new line
