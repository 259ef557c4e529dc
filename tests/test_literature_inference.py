"""Literature inference: the worked examples EX-A..EX-C, views, memory mode, explanations,
and independent cross-checks of the backbone and probabilities (brute force,
python-constraint) on small decks."""
import itertools
from collections import Counter

import pytest
from constraint import Problem
from hypothesis import given, settings, strategies as st

from solver.errors import InconsistentError
from solver.literature import GAME, Play
from solver.literature.flow import flow_backbone
from solver.literature.inference import ALL, build, check_claim
from solver.literature.simulate import simulate_with_deal
from solver.model import CardLocationModel
from solver.records import parse_record
from tests.helpers import record
from tests.test_literature_rules import EXB, EXC, HANDS, OPENING

EXA = """game: literature
players: Ana Ben Cleo Dev Eli Fay
me: Ana
Ana holds: 2H 3H 4H 6H 7H 9S JC QD
Ana asks Ben 10S: no
Ben asks Cleo 9D: no
Cleo asks Ben 3H: no
Ben asks Ana QC: no
"""


def rec(body, variant="", me=""):
    return record("literature", body, players="Ana Ben Cleo Dev Eli Fay", variant=variant, me=me)


# ----- EX-A -------------------------------------------------------------------------------
def test_ex_a_teammate_holds_5h_and_the_team_can_claim():
    r = parse_record(EXA)
    a = GAME.analyze(r, "Ana")
    assert a.cards["5H"] == {"Cleo": 1.0}                 # LIT-6(c)
    h = a.halves["2H-7H"]
    assert h.safe_claim == {"Ana": ["2H", "3H", "4H", "6H", "7H"], "Cleo": ["5H"]}
    assert h.p_team == {"Ana": 1.0, "Ben": 0.0}           # no opponent holds a low heart
    assert "5H" in a.hands["Cleo"]["known"]
    # the claim is certainly won (LIT-11(a))
    c = check_claim(r, "Ana", "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H")
    assert c.certain and c.p_won == 1.0 and c.p_lost == 0.0
    # the public view knows none of it: only that Cleo holds some low heart
    pub = GAME.analyze(r, None)
    assert pub.cards["5H"].get("Cleo", 0) < 1.0 and pub.halves["2H-7H"].safe_claim is None
    # "it stays there": an opponent asking for a low heart contradicts the record (O4)
    bad = parse_record(EXA + "Ana asks Ben JS: no\nBen asks Cleo 2H: no\n")
    with pytest.raises(InconsistentError) as e:
        GAME.check(bad)
    assert e.value.conflict == [4, 7, 10]     # Ana's hand, Cleo's question, Ben's question
    # why: Cleo holds 5H because of Ana's hand and Cleo's question
    exp = GAME.explain(r, "Ana", "5h")
    assert exp.summary == "certainly in Cleo's hand"
    assert exp.reasons[0].lines == (4, 7)


def test_ex_a_question_facts_expire_with_the_cards_o3():
    # Cleo asked for a low heart while holding 5H; after 5H leaves her hand publicly, the
    # old fact says nothing about her current hand (O3)
    r = parse_record(EXA + "Ana asks Ben JS: no\nBen asks Cleo 5H: no\n".replace(
        "Ben asks Cleo 5H: no", "Ben asks Ana KC: no"))
    a = GAME.analyze(r, "Ana")
    assert a.cards["5H"] == {"Cleo": 1.0}


# ----- EX-B -------------------------------------------------------------------------------
def test_ex_b_knowing_kd_does_not_rule_out_qd():
    before = rec(HANDS.splitlines()[0] + "\n" + OPENING, me="Ana")
    a = GAME.analyze(before, "Ana")
    assert a.cards["KD"] == {"Cleo": 1.0}                   # seen moving (O2 "yes")
    assert a.cards["QD"].get("Cleo", 0) > 0                 # still possible
    c = check_claim(before, "Ana", "Ana claims 9D-AD: Ana 9D JD, Cleo KD, Eli 10D QD AD")
    # Cleo asked for KD, so she also held 10D, QD or AD (LIT-6(c)): Eli cannot hold all
    # three, and the claim as stated cannot be won; it is cancelled or lost
    assert not c.certain and c.p_won == 0.0 and c.p_cancelled > 0 and c.p_lost > 0
    assert abs(c.p_won + c.p_cancelled + c.p_lost - 1) < 1e-9
    unsure = {p["card"] for p in c.placements if not p["certain"]}
    assert unsure == {"10D", "QD", "AD"}
    # V6: a misallocation goes to the opponents: no cancelled outcome
    v6 = rec(HANDS.splitlines()[0] + "\n" + OPENING, variant="misallocation-to-opponents")
    c6 = check_claim(v6, "Ana", "Ana claims 9D-AD: Ana 9D JD, Cleo KD, Eli 10D QD AD")
    assert c6.p_cancelled == 0 and abs(c6.p_lost - (c.p_lost + c.p_cancelled)) < 1e-9


def test_ex_b_shown_reveals_the_deal():
    r = rec(EXB)
    a = GAME.analyze(r, None)
    assert a.cards["QD"] == {"out": 1.0} and a.halves["9D-AD"].status == "cancelled"
    vm = build(r, None)
    from solver.literature.inference import backbone
    bb = backbone(vm)
    assert bb.possible["QD"] == {"Cleo"} and bb.possible["10D"] == {"Eli"}
    assert bb.possible["KD"] == {"Ben"}       # KD was dealt to Ben (he handed it over)


# ----- EX-C -------------------------------------------------------------------------------
def test_ex_c_one_opposing_card_decides():
    r = rec(EXC)
    a = GAME.analyze(r, None)
    assert a.halves["2C-7C"].status == "won:Ben" and a.score == {"Ana": 0, "Ben": 1}
    # before the claim, from Ana's view, the claim is certainly lost: Ana holds no club
    # herself, and her hand shows that nobody in her team... (Cleo and Eli unknown)
    before = rec(HANDS.splitlines()[0] + "\n" + OPENING, me="Ana")
    c = check_claim(before, "Ana", "Ana claims 2C-7C: Ana 2C 3C 4C, Cleo 5C 6C 7C")
    assert c.p_won == 0.0 and c.p_lost > 0       # Ana holds none of the clubs she names
    full = rec(HANDS + OPENING)
    c = check_claim(full, ALL, "Ana claims 2C-7C: Ana 2C 3C 4C, Cleo 5C 6C 7C")
    assert c.p_lost == 1.0                       # with every hand known: Fay holds 6C


# ----- views and memory ---------------------------------------------------------------------
def test_views_use_only_what_the_player_saw():
    r = rec(HANDS + OPENING)
    for p in r.header.players:
        a = GAME.analyze(r, p)
        own = [l.split(": ")[1].split() for l in HANDS.splitlines() if l.startswith(p + " ")][0]
        play = Play.of(r)
        for c in own:                         # their own cards (unless moved) are certain
            if play.loc[c] is None:
                assert a.cards[c] == {p: 1.0}
        # they do not know a teammate's hand
        mate = [q for q in play.table.team_of(p) if q != p][0]
        mate_cards = [l.split(": ")[1].split() for l in HANDS.splitlines()
                      if l.startswith(mate + " ")][0]
        assert any(a.cards[c].get(mate, 0) < 1.0 for c in mate_cards)


def test_memory_last_question_a9():
    r = rec(HANDS.splitlines()[0] + "\n" + OPENING, variant="memory=last-question", me="Ana")
    a = GAME.analyze(r, "Ana")
    full = GAME.analyze(rec(HANDS.splitlines()[0] + "\n" + OPENING, me="Ana"), "Ana")
    assert a.memory == "last-question"
    assert full.cards["KD"] == {"Cleo": 1.0}
    assert a.cards["KD"].get("Cleo", 0) < 1.0      # forgotten: only the last question counts
    assert a.cards["2C"].get("Ana", 0) == 0        # own hand still known
    # the last question: Fay asked Ana for 2C: Fay holds a low club, Ana does not have 2C
    assert a.cards["2C"].get("Fay", 0) == 0


# ----- cross-checks on small decks -----------------------------------------------------------
def brute(model):
    """Every deal of a small model, by enumeration: possible sets and exact marginals."""
    cards, locs = model.cards, model.locations
    possible = {c: set() for c in cards}
    hits = {c: Counter() for c in cards}
    total = 0
    for assign in itertools.product(range(len(locs)), repeat=len(cards)):
        cnt = Counter(assign)
        if any(cnt[i] != model.sizes[l] for i, l in enumerate(locs)):
            continue
        ok = all(con.lo <= sum(1 for ci, li in con.terms if assign[ci] == li) <= con.hi
                 for con in model.constraints)
        if ok:
            total += 1
            for ci, li in enumerate(assign):
                possible[cards[ci]].add(locs[li])
                hits[cards[ci]][locs[li]] += 1
    return total, possible, hits


@st.composite
def small_models(draw):
    """Literature-shaped facts on a reduced deck: 2 half-suits of 3 cards, 3 players."""
    cards = ["a1", "a2", "a3", "b1", "b2", "b3"]
    locs = ["P", "Q", "R"]
    m = CardLocationModel(cards, {"P": 2, "Q": 2, "R": 2})
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["no", "yes", "half"]))
        p = draw(st.sampled_from(locs))
        if kind == "no":
            m.exclude(draw(st.sampled_from(cards)), p, source=1)
        elif kind == "yes":
            m.place(draw(st.sampled_from(cards)), p, source=2)
        else:
            half = draw(st.sampled_from(["a", "b"]))
            ks = draw(st.lists(st.sampled_from([half + "1", half + "2", half + "3"]),
                               min_size=2, max_size=3, unique=True))
            m.add(ks, [p], 1, len(ks), source=3)
    return m


@settings(max_examples=60, deadline=None)
@given(small_models())
def test_flow_backbone_and_counting_match_brute_force(m):
    total, possible, hits = brute(m)
    fb = flow_backbone(m)
    if fb is None:                     # overlapping counted sets: CP-SAT is used instead
        fb = m.backbone()
    assert fb.consistent == (total > 0)
    if total:
        assert fb.possible == possible
        from solver.model.counting import count_deals
        c = count_deals(m)
        assert c.exact and c.total == total
        for k in m.cards:
            for l, n in hits[k].items():
                assert abs(c.marginals[k][l] - n / total) < 1e-9


def test_analysis_matches_python_constraint_late_in_a_game():
    """The whole pipeline (facts -> model -> backbone, exact probabilities) against an
    independent encoding of the same facts solved by python-constraint."""
    rec_, deal = simulate_with_deal(4, (), 5)
    Play.of(rec_)          # (the record replays)
    from solver.literature.engine import cut_points
    checked = 0
    for n in cut_points(rec_)[::3]:
        r = rec_.prefix(n)
        for view in (None, "Ana"):
            play = Play.of(r)
            t = play.table
            facts = [f for f in play.facts if f.private is None or f.private == view]
            free = [k for k in t.keys if play.loc[k] is None]
            # domains: cards placed by a unary fact are fixed
            dom = {k: set(t.players) for k in t.keys}
            for f in facts:
                if len(f.keys) == 1 and f.lo == 1:
                    dom[f.keys[0]] &= {f.player}
                if f.hi == 0:
                    for k in f.keys:
                        dom[k].discard(f.player)
            unknown = [k for k in t.keys if len(dom[k]) > 1]
            if len(unknown) > 8:
                continue
            prob = Problem()
            for k in t.keys:
                prob.addVariable(k, sorted(dom[k]))
            for f in facts:
                if f.keys:
                    prob.addConstraint(lambda *xs, f=f: f.lo <= sum(x == f.player for x in xs)
                                       <= f.hi, list(f.keys))
            for p in t.players:
                prob.addConstraint(lambda *xs, p=p: sum(x == p for x in xs) == t.sizes[p],
                                   list(t.keys))
            sols = prob.getSolutions()
            assert sols, "the true deal must fit"
            a = GAME.analyze(r, view)
            for k in free:
                name = repr(t.key_card[k])
                cnt = Counter(s[k] for s in sols)
                assert set(cnt) == {l for l, q in a.cards[name].items() if q > 0}
                if a.exact:
                    for l, c in cnt.items():
                        assert abs(a.cards[name][l] - c / len(sols)) < 1e-9
            checked += 1
        if checked >= 6:
            break
    assert checked >= 3


def test_a_players_view_stretches_its_count_and_its_team_chances_stay_exact():
    """Issue 15: a player's own view may count past max_states (the stretch); the team
    chances then come exactly from the count's own tables (counting.all_in_chances).  When
    even those cannot be had (forced here: the tables dropped, a budget far too small),
    they are shares of uniform deals with an error bar (never the no-information 1.0) that
    agree with the exact ones within it.  The public view stretches alike, and no
    further.  (A 6-player jokers game in mid-play, budgets scaled down.)"""
    from solver.literature.engine import cut_points
    from solver.literature.inference import probabilities, team_probabilities
    from solver.literature.simulate import simulate
    from solver.model.counting import exact_count
    from solver.model.counting.cache import forget_last

    rec = simulate(6, ("jokers",), 1)
    rec = rec.prefix(cut_points(rec)[1:][18])
    view = rec.header.me
    vm = build(rec, view)
    peak = exact_count(vm.model, exact_total=False).states
    small = peak * 2 // 3                 # over the plain budget, within the stretch
    pub = build(rec, None)                # the same stretch in public, and no more
    ppeak = exact_count(pub.model, exact_total=False).states
    assert probabilities(pub, max_states=ppeak * 2 // 3).exact
    assert not probabilities(pub, max_states=ppeak // 3).exact
    full = probabilities(vm)
    ref, ref_exact, _ = team_probabilities(vm, full)
    assert ref_exact
    inner = [k for k, p in ref.items() if 0 < p < 1]
    assert len(inner) >= 3
    probs = probabilities(vm, max_states=small)
    assert probs.exact and probs.states == peak
    got, exact, err = team_probabilities(vm, probs, max_states=small)
    assert exact and err == 0.0 and set(got) == set(ref)
    for key, p in got.items():
        assert p == ref[key] if ref[key] in (0.0, 1.0) else abs(p - ref[key]) < 1e-12
    forget_last()
    got, exact, err = team_probabilities(vm, probs, max_states=small // 20)
    assert not exact and 0 < err < 0.1 and set(got) == set(ref)
    for key, p in got.items():
        if ref[key] in (0.0, 1.0):
            assert p == ref[key]          # decided by the possible places or a proof
        else:
            assert 0 < p < 1 and abs(p - ref[key]) <= 2 * err
