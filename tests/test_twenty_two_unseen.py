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
#: the same table seen by a spectator (no me:), who gives the hands it saw
SPECTATOR = HEAD.replace("me: Ana\n", "")
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


def _compare(unseen_text, fillings, view: str | None = "Ana"):
    a = analysis.analyze(parse_record(unseen_text), view)
    assert a.exact
    want, poss = _fillings_figures(fillings, view)
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


# ----- an unseen play's cards are stand-ins for its ranks, never cards played -------------

M3 = """game: twenty-two
players: Ana Ben Cleo
me: Ana
Ana deals 7
Ana holds: 4S 5S 8S 5D 7D 2C 10C
Ben exchanges 0
Cleo exchanges 0
Ana exchanges 0
Ben leads 9C; Cleo JC; Ana 2C
Cleo leads 3H; Ana 10C; Ben 5H
"""


@pytest.mark.parametrize("tail", ["Ana leads 7D; Ben ?; Cleo 9S\n", "Ana leads 7D\nBen: ?\n"])
def test_unseen_follow_after_a_lowest_cards_play(tail, tmp_path):
    """Ben's 5H was a lowest-cards play (I2: nothing below 5 left); an unseen follow of
    Ben's later is any card, and the courses where it ranks below 5 are dropped, not read
    as Ben playing a card nobody played ('Ben later played 2S')."""
    from solver.twenty_two.analysis import check

    rec = parse_record(M3 + tail)
    check(rec)
    a = analysis.analyze(rec, "Ana")
    assert a.exact
    f = tmp_path / "m3.txt"
    f.write_text(M3)
    for line in tail.splitlines():
        r = _sleuth("log", str(f), line)
        assert r.returncode == 0, r.output
    # nothing below 5 in Ben's unseen card, in every course (hand now and the play)
    low = [f"{r}{s}" for r in "2 3 4".split() for s in "SHDC"]
    assert all("Ben" not in a.possible[n] for n in low)


def test_crosscheck_unseen_follow_after_a_lowest_cards_play_against_every_filling():
    base = M3 + "Ana leads 7D; Ben {}; Cleo 9S\n"
    _compare(base.format("?"), [base.format(c) for c in DECK])


def test_no_course_left_names_no_stand_in_card():
    """When the courses refuse a statement for different reasons, the message is one
    that names none of their stand-in cards."""
    from solver.errors import InconsistentError
    from solver.twenty_two.engine import no_course_error

    e = no_course_error([InconsistentError("Ben later played 2S", conflict=[10, 11]),
                         InconsistentError("Ben later played 3S", conflict=[10, 11])],
                        {11})
    assert "2S" not in str(e) and "3S" not in str(e) and e.conflict == [10, 11]
    same = InconsistentError("5H is in two places", conflict=[9, 10])
    assert no_course_error([same, lambda: same], {11}) is same    # no unseen line in it


def _certain_of_fillings(texts: list[str], view: str) -> dict[str, str]:
    """Brute force: the cards all of whose copies are in one same place in every filling
    the rules and the deals allow."""
    _, poss = _fillings_figures(texts, view)
    return {n: next(iter(ls)) for n, ls in poss.items() if len(ls) == 1}


def test_crosscheck_certainties_and_why_against_every_filling():
    """Stage 1's certainties (Game.certainties) and 'why' hold in every course: checked
    against every concrete filling; an unseen play's cards are 'out', never 'out#N'."""
    from solver.twenty_two.analysis import certain_now, explain

    base = M3 + "Ana leads 7D; Ben {}; Cleo 9S\n"
    unseen = base.format("?")
    want = _certain_of_fillings([base.format(c) for c in DECK], "Ana")
    got = certain_now(parse_record(unseen), "Ana")
    assert got == want
    _, poss = _fillings_figures([base.format(c) for c in DECK], "Ana")
    for name in ("2H", "7D", "6D", "KS"):
        e = explain(parse_record(unseen), "Ana", name)
        assert "#" not in e.summary and all("#" not in r.fact for r in e.reasons)
        if len(poss[name]) == 1:
            assert e.summary.startswith("certainly")
        else:
            assert not e.summary.startswith("certainly"), (name, e.summary)


def test_sample_midhand_unseen_follow_certainties_say_out(tmp_path):
    """After an unseen follow of three cards, no place 'out#N' anywhere and no certainty
    that some course breaks (it said 'out#12: 2H 2D 2C' and '2H: certainly out#12's
    hand')."""
    from pathlib import Path

    from solver.staged import certainties
    from solver.twenty_two.game import TwentyTwoGame

    f = tmp_path / "tm.txt"
    f.write_text(Path("samples/twenty-two/standard-ana-midhand.txt").read_text())
    assert _sleuth("log", str(f), "Ana plays QD KC AS").returncode == 0
    assert _sleuth("log", str(f), "Ben: ?").returncode == 0
    rec = parse_record(f.read_text())
    c = certainties(TwentyTwoGame(), rec, "Ana", seconds=60)
    assert c.complete
    a = analysis.analyze(rec, "Ana")
    for name, loc in c.certain:
        assert "#" not in loc
        assert a.possible[name] == {loc}, name
    assert "2H" not in dict(c.certain)
    r = _sleuth("why", str(f), "2H")
    assert r.returncode == 0 and "#" not in r.output and "certainly" not in r.output
    r = _sleuth("analyze", str(f), "--json")
    assert r.returncode == 0 and "out#" not in r.output


# ----- courses that end in the same state are followed once ----------------------------

TT4 = """game: twenty-two
players: Ana Ben Cleo
Cleo deals 7
Ana: ?
Ben: ?
Cleo: ?
Ana: ?
"""


def test_unseen_exchanges_of_unknown_hands_merge_by_their_sum(tmp_path):
    """Three unseen exchanges and an unseen lead (26624 fillings, over the 3000 courses
    followed when each was kept): an exchange from a hand nothing is known of changes only
    the stock and the discards, so the courses with the same sum are one, weighted by
    their number; the record analyses (it was refused naming TT-10)."""
    eng = replay(parse_record(TT4))
    cs = courses(eng)
    assert sum(e.mult for e in cs) == 26624 and len(cs) <= 1200
    f = tmp_path / "tt4.txt"
    f.write_text(TT4)
    r = _sleuth("analyze", str(f), "--json")
    assert r.returncode == 0, r.output
    assert json.loads(r.stdout)["deal"]["to_act"] == ["Ben"]


def test_crosscheck_merged_unseen_exchanges_against_every_filling():
    base = HEAD + "{}\n{}\nAna exchanges 0\nBen leads 9C; Cleo 4H; Ana 10C\n"
    unseen = base.format("Ben: ?", "Cleo: ?")
    cs = courses(replay(parse_record(unseen)))
    assert len(cs) < sum(e.mult for e in cs) == 64
    _compare(unseen, [base.format(f"Ben exchanges {a}", f"Cleo exchanges {b}")
                      for a in range(8) for b in range(8)])


def test_crosscheck_merged_unseen_exchange_of_a_known_hand_against_every_filling():
    """Ana's hand is known: an unseen exchange of hers of 0 cards keeps it, of any other
    number loses it; courses merge only where that and the stock agree.  A spectator's
    record (no me:): the recorder's own exchange is never one not seen."""
    base = SPECTATOR + "{}\nCleo exchanges 0\n{}\nBen leads 9C; Cleo 4H; Ana 2C\n"
    unseen = base.format("Ben: ?", "Ana: ?")
    cs = courses(replay(parse_record(unseen)))
    assert len(cs) < sum(e.mult for e in cs)
    assert any(e.full["Ana"] for e in cs)      # Ana exchanged 0: her hand is still known
    _compare(unseen, [base.format(f"Ben exchanges {a}", f"Ana exchanges {b}")
                      for a in range(8) for b in range(8)], None)


def test_more_courses_than_followed_is_a_budget_not_a_rule_error(monkeypatch, tmp_path):
    """A record whose unseen turns leave more courses than the engine follows is valid:
    it is accepted as written (its later statements checked against no rule), 'analyze'
    and 'why' exit 4 naming no rule, and the serve page's entry offers no next play (it
    was refused as a breach of TT-10, exit 2)."""
    from solver.twenty_two import engine
    from web import twenty_two as w

    monkeypatch.setattr(engine, "MAX_BRANCHES", 100)     # TT4 follows 1144 courses
    rec = parse_record(TT4)
    eng = replay(rec)
    assert engine.beyond(eng) == 7 and eng.state().turn == "unknown"
    assert w.turn(rec) is None and w.lead_data(rec) == {}
    f = tmp_path / "tt4.txt"
    f.write_text(TT4)
    for args in (("analyze", str(f), "--json"), ("analyze", str(f)), ("why", str(f), "2H")):
        r = _sleuth(*args)
        assert r.returncode == 4, r.output
        assert "TT-10" not in r.output and "turn:" in r.output and "line 7" in r.output
    for line in ("Ben: ?", "Cleo plays ?", "Ana leads 2H"):
        r = _sleuth("log", str(f), line)
        assert r.returncode == 0, r.output
    assert f.read_text().endswith("Ana leads 2H\n")


# ----- the recorder's own turns, and the exchange's turn order ------------------------------

def _refused(text: str, line: int, col: int, rule: str, *words: str):
    with pytest.raises(RuleError) as e:
        replay(parse_record(text))
    err = e.value
    assert (err.line, err.column, err.rule) == (line, col, rule), str(err)
    for w in words:
        assert w in str(err), (w, str(err))


PLAYED = (HEAD + "Ben exchanges 3\nCleo: ?\nAna exchanges 0\nBen leads 9C; Cleo ?; Ana 2C\n")


def test_the_recorders_own_turn_is_never_unseen(tmp_path):
    """With me: Ana, 'Ana: ?' and a play '?' of Ana's are refused (they made her known hand
    unknown and her dealt cards possible in other hands); a spectator's record and a
    complete record may still have any player's turn as '?'."""
    _refused(HEAD + "Ben exchanges 1\nAna: ?\n", 8, 1, "TT-8", "recorder", "write Ana's exchange")
    _refused(PLAYED + "Cleo leads 3H; Ana ?; Ben 4H\n", 11, 16, "TT-10", "recorder",
             "write Ana's play")
    _refused(HEAD + "Ben exchanges 3\nCleo exchanges 0\nAna exchanges 0\nBen leads 9C\n"
             "Cleo plays 2H\nAna: ?\n", 12, 1, "TT-10", "recorder")
    # a turn: that passes over the recorder's exchange stands for it: refused too
    _refused(HEAD + "Ben exchanges 3\nturn: Ben\n", 8, 7, "TT-8", "recorder", "Ana exchanges")
    # a spectator's record: Ana's turn may be one not seen
    replay(parse_record(SPECTATOR + "Ben exchanges 1\nCleo exchanges 0\nAna: ?\n"))
    replay(parse_record(SPECTATOR.replace("Ben exchanges", "") + "Ben exchanges 3\n"
                        "Cleo: ?\nAna exchanges 0\nBen leads 9C; Cleo ?; Ana 2C\n"
                        "Cleo leads 3H; Ana ?; Ben 4H\n"))
    # the CLI: exit 2 with the file, line and column
    f = tmp_path / "tt.txt"
    f.write_text(HEAD + "Ben exchanges 1\n")
    r = _sleuth("log", str(f), "Ana: ?")
    assert r.returncode == 2 and "recorder" in r.output and "TT-8" in r.output, r.output
    f.write_text(HEAD + "Ben exchanges 1\nAna: ?\n")
    r = _sleuth("analyze", str(f))
    assert r.returncode == 2 and f"{f}:8:1:" in r.output, r.output


def test_a_complete_record_may_have_the_me_players_turn_unseen():
    """Every hand given: no recorder's log, so 'me:'s turn may be '?' (any --as view)."""
    text = (HEAD + "Ben holds: 3S 6S 9S 3D 6D 9D 3C\nCleo holds: 4H 6H 9H JH QH KH AH\n"
            "Ben exchanges 0\nCleo exchanges 0\nAna: ?\n")
    eng = replay(parse_record(text))
    assert eng.state().turn == "lead"


def test_turn_in_the_exchange_stands_for_the_exchanges_before(tmp_path):
    """'turn: P' in the exchange: each player from the one to exchange up to P had an
    exchange not seen, and P exchanges next (it was accepted and changed nothing: the page
    still said Ben exchanges, and Ben's exchange was accepted after it)."""
    eng = replay(parse_record(HEAD + "turn: Cleo\n"))
    assert eng.state().turn == "exchange" and eng.state().may_act[0] == "Cleo"
    assert sorted(e.stock for e in courses(eng)) == [24 + k for k in range(8)]
    _refused(HEAD + "turn: Cleo\nBen exchanges 3\n", 8, 1, "TT-8", "already")
    eng = replay(parse_record(HEAD + "turn: Ana\n"))
    assert eng.state().may_act == ("Ana",)
    assert sum(e.mult for e in courses(eng)) == 64
    # everybody exchanged: 'turn: P' in the play keeps the courses where P acts
    done = HEAD + "Ben exchanges 3\nCleo exchanges 1\nAna exchanges 0\n"
    replay(parse_record(done + "turn: Ben\n"))
    _refused(done + "turn: Cleo\n", 10, 7, "TT-10", "cannot be Cleo's turn", "Ben (lead)")
    # a player who exchanged already cannot be on turn in the exchange
    _refused(SPECTATOR + "Ben exchanges 3\nCleo exchanges 1\nturn: Cleo\n", 8, 7, "TT-8",
             "cannot be Cleo's turn", "Ana (exchange)")
    f = tmp_path / "tt.txt"
    f.write_text(HEAD)
    assert _sleuth("log", str(f), "turn: Cleo").returncode == 0
    r = _sleuth("analyze", str(f))
    assert r.returncode == 0 and "Now: Cleo to exchange" in r.output, r.output


def test_an_unseen_exchange_out_of_turn_is_refused_with_the_turn_hint():
    """'Cleo: ?' while Ben is to exchange took Ben's as left out (0): refused, TT-8, with
    the hint 'turn: Cleo'; after that line Cleo's '?' is her exchange."""
    _refused(HEAD + "Cleo: ?\n", 7, 1, "TT-8", "Ben exchanges next", "'turn: Cleo'")
    eng = replay(parse_record(HEAD + "turn: Cleo\nCleo: ?\n"))
    assert eng.state().may_act[0] == "Ana"


def test_an_unseen_play_out_of_turn_names_who_may_act():
    """'Ana: ?' when Ben or Cleo leads said only 'no way of filling in the unseen turns'."""
    _refused(PLAYED + "Ana: ?\n", 11, 1, "TT-10", "cannot be Ana's turn now: Ben or Cleo (lead)")
    _refused(SPECTATOR + "Ben exchanges 3\nCleo: ?\nAna exchanges 0\n"
             "Ben leads 9C; Cleo ?; Ana 2C\nAna: ?\n", 10, 1, "TT-10",
             "cannot be Ana's turn now: Ben or Cleo (lead)")
