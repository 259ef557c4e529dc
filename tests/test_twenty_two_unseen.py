"""Twenty-Two records with what the recorder did not see (record-format.md): ``P: ?``, a play
``?`` in a trick line and ``turn: P`` (docs/twenty-two.md, "Unseen turns")."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from solver.errors import RuleError, SleuthError
from solver.model.counting import count_deals
from solver.records import parse_record
from solver.twenty_two import analysis
from solver.twenty_two.engine import courses, replay
from solver.twenty_two.inference import base_loc, build, is_complete

HEAD = """game: twenty-two
players: Ana Ben Cleo
me: Ana
draw: Ana KH, Ben 9H, Cleo 10H
Ana deals 7
Ana holds: 4S 5S 8S 5D 7D 2C 10C
"""
BRIEF = HEAD + "Ben exchanges 3\nCleo exchanges 0\nAna exchanges 0\nBen: ?\n"


def test_the_brief_record_is_valid_ben_leads_unseen():
    eng = replay(parse_record(BRIEF))
    st = eng.state()
    assert st.turn == "follow" and st.may_act == ("Cleo",)
    # Ben led 1..6 cards of one rank: one course per rank and count the unseen cards allow
    assert len(courses(eng)) > 13


def test_unseen_exchange_any_count():
    eng = replay(parse_record(HEAD + "Ben: ?\n"))
    assert [e.stock for e in courses(eng)] == [31 - k for k in range(8)]
    assert eng.state().turn == "exchange"


def test_unseen_play_in_a_trick_line_and_turn():
    rec = HEAD + "Ana exchanges 0\nBen leads 9C; Cleo ?; Ana 10C\n"
    eng = replay(parse_record(rec))
    # Ana's 10C must beat or tie (her lowest is 2C), so Cleo played 10 or lower: Ana leads
    assert eng.turn().players == ("Ana",)
    replay(parse_record(rec + "turn: Ana\n"))
    with pytest.raises(RuleError, match="cannot be Cleo's turn"):
        parse_record(rec + "turn: Cleo\n")
    # after an unseen winner, either player may lead, and 'turn:' settles it
    rec2 = HEAD + "Ana exchanges 0\nBen leads 9C; Cleo ?; Ana 2C\n"
    assert set(replay(parse_record(rec2)).turn().players) == {"Ben", "Cleo"}
    assert replay(parse_record(rec2 + "turn: Cleo\n")).turn().players == ("Cleo",)
    replay(parse_record(rec2 + "Cleo leads 3H\n"))
    replay(parse_record(rec2 + "Ben leads 3H\n"))
    with pytest.raises(RuleError):
        parse_record(rec2 + "Ana leads 3H\n")


def _fillings_figures(texts: list[str], view: str):
    """Brute force: every concrete record (each one filling of the '?'), counted alone;
    figures per card name and place weighted by deals, and the places possible."""
    tot = 0
    acc: dict[str, Counter] = {}
    poss: dict[str, set] = {}
    for text in texts:
        try:
            rec = parse_record(text)
        except SleuthError:
            continue          # a filling the rules refuse
        eng = replay(rec)
        try:
            vm = build(rec, view, eng.deals[-1], eng.opts, complete=is_complete(eng))
        except SleuthError:
            continue
        c = count_deals(vm.model)
        assert c.exact
        if not c.total:
            continue
        tot += c.total
        for name, keys in vm.keys.items():
            for k in keys:
                for loc, p in c.marginals.get(k, {}).items():
                    acc.setdefault(name, Counter())[base_loc(loc)] += p * c.total
                    if p > 0:
                        poss.setdefault(name, set()).add(base_loc(loc))
    return {n: {l: v / tot for l, v in row.items() if v} for n, row in acc.items()}, poss


def _compare(unseen_text, fillings):
    a = analysis.analyze(parse_record(unseen_text), "Ana")
    assert a.exact
    want, poss = _fillings_figures(fillings, "Ana")
    for name, row in want.items():
        assert a.possible[name] == poss[name], name          # union / intersection
        for loc, p in row.items():
            assert a.cards[name].get(loc, 0.0) == pytest.approx(p, abs=1e-9), (name, loc)


DECK = [f"{r}{s}" for r in ("2 3 4 5 6 7 8 9 10 J Q K A".split()) for s in "SHDC"]


def test_crosscheck_unseen_follow_against_every_filling():
    base = HEAD + "Ana exchanges 0\nBen leads 9C; Cleo {}; Ana 10C\nAna leads 8S; Ben 3D; Cleo 2H\n"
    _compare(base.format("?"), [base.format(c) for c in DECK])


def test_crosscheck_unseen_exchange_against_every_filling():
    base = HEAD + "Ben exchanges 3\n{}\nAna exchanges 0\nBen leads 9C; Cleo 4H; Ana 10C\n"
    _compare(base.format("Cleo: ?"), [base.format(f"Cleo exchanges {k}") for k in range(8)])


def _sleuth(*args):
    from click.testing import CliRunner

    from cli.main import cli

    r = CliRunner().invoke(cli, list(args))
    r.returncode = r.exit_code    # type: ignore[attr-defined]
    return r


def test_cli_commands_accept_unseen(tmp_path):
    f = tmp_path / "x.txt"
    f.write_text(BRIEF)
    r = _sleuth("analyze", str(f))
    assert r.returncode == 0, r.output
    r = _sleuth("analyze", str(f), "--json")
    assert r.returncode == 0, r.output
    d = json.loads(r.stdout)
    assert d["deal"]["trick"] == [{"player": "Ben", "cards": None}]
    assert d["deal"]["to_act"] == ["Cleo"] and d["hand"]
    assert abs(sum(sum(v.values()) for v in d["cards"].values()) - 52) < 1e-6
    assert _sleuth("analyze", str(f), "--as", "public").returncode == 0
    assert _sleuth("replay", str(f)).returncode == 0
    f.write_text(HEAD + "Ana exchanges 0\nBen leads 9C; Cleo ?; Ana 10C\n")
    assert _sleuth("log", str(f), "turn: Ana").returncode == 0
    r = _sleuth("log", str(f), "turn: Cleo")
    assert r.returncode == 2 and "cannot be Cleo's turn" in r.output


def test_web_entry_form_with_unseen_turns():
    from web import twenty_two as w

    rec = parse_record(HEAD + "Ana exchanges 0\nBen leads 9C; Cleo ?; Ana 2C\n")
    assert w.turn(rec) is None                   # Ben or Cleo leads: not known
    assert w.lead_data(rec) == {}
    rec = parse_record(BRIEF)
    assert w.turn(rec) == "Cleo"
    assert w.lead_data(rec) == {}                # how many cards Ben led is not known
    rec = parse_record(HEAD + "Ana exchanges 0\nBen leads 9C; Cleo ?\n")
    nxt = w.lead_data(rec)["next"]
    assert nxt["player"] == "Ana" and nxt["known"] and ["10"] in nxt["plays"]


def test_the_sheet_says_an_unseen_play_and_where_its_cards_may_be(tmp_path):
    """The text sheet writes a play not seen '?' (it wrote '-', the mark of no cards), a hand
    size the unseen lead leaves open as its expected value to two places, and the unseen
    cards' table has an 'out' column for the cards played unseen: each rank's row adds up
    to its unseen copies (text and --json)."""
    f = tmp_path / "x.txt"
    f.write_text(BRIEF)
    text = _sleuth("analyze", str(f)).output
    assert "Trick so far: Ben ? (not seen)" in text
    assert "Ben 5.83," in text and "Ben (5.83 cards)" in text
    header = next(ln for ln in text.splitlines() if ln.strip().startswith("rank"))
    assert header.split()[-1] == "out"
    d = json.loads(_sleuth("analyze", str(f), "--json").stdout)
    for rank, n in d["unseen"].items():
        assert abs(sum(d["unseen_where"][rank].values()) - n) < 1e-6, rank
    assert all("out" in d["unseen_where"][r] for r in d["unseen"])
