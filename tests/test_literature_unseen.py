"""Literature: seating and dealer, what the recorder did not see (record-format.md), lossy
simulated records (issue 13)."""
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solver.errors import InconsistentError, NotationError, RuleError
from solver.literature import GAME
from solver.literature.engine import Play
from solver.literature.history import HistoryModel
from solver.literature.inference import backbone, build, check
from solver.literature.simulate import simulate, simulate_lossy, simulate_with_deal
from solver.records import Record, parse_record, write_record

SIX = "Ana Ben Cleo Dev Eli Fay"
HEAD = f"game: literature\nplayers: {SIX}\nme: Ana\n"
ANA = "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\nAna asks Ben 10S: no\n"   # Ben is on turn


def rec(body, head=HEAD):
    return parse_record(head + body)


def possible(r, card, view="Ana"):
    vm = build(r, view)
    if card in vm.fixed:
        return {vm.fixed[card]}
    return backbone(vm).possible[card]


# ----- seating and dealer -------------------------------------------------------------------
@pytest.mark.parametrize("variant,dealer,first", [
    ("", "Cleo", "Cleo"),                               # LIT-5: the dealer asks first
    ("first-asker=dealer-left", "Cleo", "Dev"),         # V1: clockwise = the next seat
    ("first-asker=dealer-right", "Cleo", "Ben"),
    ("", None, "Ana"),                                  # no dealer: the first listed
    ("first-asker=dealer-left", None, "Ana"),
])
def test_first_to_act_follows_the_dealer(variant, dealer, first):
    head = f"game: literature\nplayers: {SIX}\n" + (f"variant: {variant}\n" if variant else "") \
        + (f"dealer: {dealer}\n" if dealer else "")
    p = Play.of(rec("", head))
    assert p.turn == first
    other = next(q for q in SIX.split() if q != first and p.table.opponents(q, "Ana"))
    with pytest.raises(RuleError) as e:
        rec(f"{other} asks Ana 9C: no\n" if other != "Ana" else "", head)
    assert "LIT-5" in str(e.value)
    if dealer:   # LIT-4 / A7: dealt from the dealer's left
        assert p.table.dealer == dealer


def test_dealer_must_be_a_player():
    with pytest.raises(NotationError):
        rec("", f"game: literature\nplayers: {SIX}\ndealer: Zed\n")


# ----- the contract's statements ------------------------------------------------------------
@pytest.mark.slow
def test_contract_examples_are_accepted_and_analysed():
    body = ANA + ("Ben: ?\nturn: Cleo\nCleo asks Ben 9D: no\nBen asks Cleo ?: yes\n"
                  "Ben asks Cleo ?: no\nCleo asks Ben 10H: ?\nBen has 8 cards\n")
    r = rec(body)
    assert write_record(parse_record(write_record(r))) == write_record(r)
    a = GAME.analyze(r, "Ana")
    j = a.to_json()
    assert j["consistent"] and j["exact"] is False and j["turn"] is None   # Cleo or Ben now
    assert j["counts"]["Ben"] == 8
    assert GAME.analyze(r, None).to_json()["consistent"]


def test_unheard_answer_then_the_next_actor_decides_it():
    # Ben asks for 10H, answer unheard; Ben asks again: it was "yes", so Ben holds 10H
    r = rec(ANA + "Ben asks Cleo 10H: ?\nBen asks Eli 9D: no\n")
    assert possible(r, "10H") == {"Ben"}
    a = GAME.analyze(r, "Ana")
    assert a.counts["Ben"] == 9 and a.counts["Cleo"] == 7
    # ... or Cleo asks next: it was "no"; LIT-6(d) and the no leave Dev, Eli, Fay
    r = rec(ANA + "Ben asks Cleo 10H: ?\nCleo asks Ben 9C: no\n")
    assert possible(r, "10H") == {"Dev", "Eli", "Fay"}
    e = GAME.explain(r, "Ana", "10H")
    assert 6 in {ln for reason in e.reasons for ln in reason.lines}   # why cites line 6


def test_unheard_card_moves_some_card_of_a_half_ben_held():
    r = rec(ANA + "Ben asks Cleo ?: yes\n")
    p = Play.of(r)
    assert (p.count["Ben"], p.count["Cleo"], p.turn) == (9, 7, "Ben")
    # the moved card is one Ben did not hold: a card Ana holds cannot be it
    assert possible(r, "2H") == {"Ana"}


def test_unseen_question_turn_and_count_conflict():
    # Ben asked someone; "turn: Cleo" means Cleo said no (a no moves nothing), so Cleo
    # still holds 8 cards: "Cleo has 7 cards" conflicts with those two lines
    with pytest.raises(InconsistentError) as e:
        GAME.analyze(rec(ANA + "Ben: ?\nturn: Cleo\nCleo has 7 cards\n"), "Ana")
    assert set(e.value.conflict) == {7, 8}
    # the sentence a person can check: what the other lines leave, what the line says
    assert e.value.reason == "line 7 leaves Cleo 8 cards at line 8; line 8 says 7"
    GAME.analyze(rec(ANA + "Ben: ?\nturn: Cleo\nCleo has 8 cards\n"), "Ana")


def test_checks_stay_strict_where_the_record_decides():
    with pytest.raises(RuleError) as e:       # the turn is known: Ben's
        rec(ANA + "turn: Cleo\n")
    assert "LIT-5" in str(e.value)
    with pytest.raises(RuleError) as e:       # a count the record determines (O1)
        rec(ANA + "Ben has 7 cards\n")
    assert "O1" in str(e.value)
    with pytest.raises(RuleError):            # Dev is Ben's teammate (LIT-6(a))
        rec(ANA + "Ben asks Dev ?: yes\n")
    with pytest.raises(RuleError):            # after "Ben asks Cleo ?: no" Cleo is on turn
        rec(ANA + "Ben asks Cleo ?: no\nBen asks Cleo 9D: no\n")
    rec(ANA + "Ben asks Cleo 10H: ?\nCleo asks Ben 9C: no\n")  # unknown turn: either


# ----- the history model against the deal model ---------------------------------------------
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), cut=st.integers(12, 30))
def test_history_model_equals_the_deal_model_on_complete_records(seed, cut):
    """With nothing unseen, the history model (forced) and the deal model agree."""
    r, _ = simulate_with_deal(4, (), seed, events=cut)
    for view in ("Ana", None):
        vm = build(r, view)
        hm = HistoryModel(r, view, vm.play)
        want = backbone(vm).possible
        got = hm.backbone().possible
        assert {k: want[k] for k in hm.cards} == got


# ----- lossy simulated records --------------------------------------------------------------
def _header_text(r):
    return write_record(Record(r.header, ())).strip()


LOSSY_VARIANTS = [(), (), ("own-card-ask=surrender",), ("own-card-ask=bluff",),
                  ("claims-any-time",), ("deck=54-jokers",)]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([4, 6, 8]), seed=st.integers(0, 10 ** 6),
       where=st.floats(0.2, 1.0), variant=st.sampled_from(LOSSY_VARIANTS))
def test_lossy_records_truth_certainties_and_witnesses(n, seed, where, variant):
    """From every view the record supports, at a prefix of a lossy record: the true places
    are possible, so every certainty is true; and each possible place has a witness, a whole
    rule-following history the engine and the deal model accept (certainties complete)."""
    r, truth = simulate_lossy(n, variant, seed, events=12 + n, miss=0.4)
    cut = max(n + 1, int(len(r.statements) * where))
    sub = Record(r.header, r.statements[:cut])
    if sub.statements[-1].text.startswith("shown"):
        # a claim without its shown line was shown exactly as claimed (record-format.md):
        # cut before the claim
        cut -= 2
        sub = Record(r.header, r.statements[:cut])
    true = truth[cut - 1]
    for view in (r.header.me, None):
        vm = build(sub, view)
        if vm.history:
            vm.model.keep_witnesses = True
        bb = backbone(vm)
        assert bb.consistent
        for k in vm.table.keys:
            poss = {vm.fixed[k]} if k in vm.fixed else bb.possible[k]
            assert true[k] in poss, (k, view)
        if not vm.history:
            continue
        covered = {}
        for final, lines in vm.model.witnesses:
            w = parse_record(_header_text(sub) + "\n" + "\n".join(lines) + "\n")
            check(w)                                  # the deal model accepts it
            assert Play.of(w).unseen == 0
            for k, p in final.items():
                covered.setdefault(k, set()).add(p)
        # the places a witness's course spread (HistoryModel._spread): that course is a
        # complete record the engine accepts, and CP-SAT finds a deal of it with the card
        # there
        for (k, p), course in vm.model.spread_from.items():
            if p in covered.get(k, set()):
                continue
            filled = Record(sub.header, tuple(
                replace(st, event=course[st.line], text=str(course[st.line]))
                if st.line in course else st for st in sub.statements))
            assert Play.of(filled).unseen == 0
            cm = build(filled, view)
            if k in cm.fixed:
                assert cm.fixed[k] == p
            else:
                ci, li = cm.model.card_index(k), cm.model.loc_index(p)
                assert cm.model.is_consistent(lambda mm, x, ci=ci, li=li: mm.Add(x[ci, li] == 1))
            covered.setdefault(k, set()).add(p)
        assert covered == {k: v for k, v in bb.possible.items() if v}


def test_lossy_simulation_is_deterministic_and_parses():
    a = simulate(6, (), 5, events=40, miss=0.3)
    b = GAME.simulate(6, (), 5, events=40, miss=0.3)
    assert write_record(a) == write_record(b)
    assert any("?" in s.text for s in a.statements)
    parse_record(write_record(a))
    assert not any("?" in s.text for s in simulate(6, (), 5, events=40).statements)


@pytest.mark.parametrize("players, seed", [(4, 8), (6, 5), (6, 11), (8, 0)])
def test_a_lossy_record_never_hides_what_its_recorder_heard(players, seed):
    """The recorder (``me:``) hears every question they ask or are asked and its answer:
    the simulator writes those in full, so the record as its recorder wrote it (the others'
    hands left out) is one the engine takes."""
    from solver.literature.events import Holds, UnheardAnswer, UnheardCard, Unseen

    r = simulate(players, (), seed, events=40, miss=0.5)
    me = r.header.me
    assert any("?" in s.text for s in r.statements)
    for s in r.statements:
        ev = s.event
        assert not (isinstance(ev, Unseen) and ev.player == me), s.text
        assert not (isinstance(ev, (UnheardCard, UnheardAnswer))
                    and me in (ev.asker, ev.target)), s.text
    own = Record(r.header, tuple(s for s in r.statements
                                 if not (isinstance(s.event, Holds) and s.event.player != me)))
    Play.of(parse_record(write_record(own)))


@pytest.mark.parametrize("variant", [(), ("claims-any-time",), ("srinivasan",),
                                     ("turn-after-failed-claim=opponents",),
                                     ("own-card-ask=surrender",)])
def test_whole_lossy_games_are_valid_records_with_the_same_outcome(variant):
    """Lossy records of whole games parse (turn order and counts resynchronised where the
    rules need them: claims, the end game) and score as the complete game did."""
    from solver.literature.simulate import Simulator, lossy
    for n, seed in ((4, 1), (6, 5), (8, 0)):
        s = Simulator(n, variant, seed)
        full = s.run()
        r, _ = lossy(full, s.deal, 0.3, seed)
        a, b = Play.of(full), Play.of(parse_record(write_record(r)))
        assert (a.over, a.score) == (b.over, b.score)


# ----- memory modes with unseen events (A9) ---------------------------------------------------
def test_memory_mode_needs_the_counts_after_an_unseen_question():
    """Only a count the record leaves open is refused (A9, LIT-13): here Fay may have got
    QH from Eli or not; logging the counts lets the forgetful model run."""
    body = ("Ana holds: 5S 7S KS 5H JH KD 2C 7C\nAna asks Dev 6S: no\nDev asks Ana 10S: no\n"
            "Ana asks Fay KH: no\nFay asks Eli QH: ?\n")
    head = HEAD + "variant: memory=last-question\n"
    with pytest.raises(RuleError) as e:
        build(rec(body, head), "Ana")
    assert "LIT-13" in str(e.value) and e.value.rule == "A9"
    assert "counts of Eli, Fay are not known" in str(e.value)
    vm = build(rec(body + "Eli has 8 cards\nFay has 8 cards\nEli asks Fay 6S: yes\n", head),
               "Ana")
    bb = backbone(vm)
    assert bb.consistent and not vm.history
    # the own hand is kept (no unseen question touched Ana), the question before the unseen
    # one is forgotten, the one after it is remembered
    assert all(vm.fixed.get(k) == "Ana" for k in ("5S", "KD", "2C"))
    assert bb.possible["6S"] == {"Eli"}
    notes = " ".join(c.note for c in vm.model.constraints)
    assert "KH" not in notes and "6S" in notes


FOUR = "game: literature\nvariant: {}\nplayers: Ana Ben Cleo Dev\nme: Ana\n" \
    "Ana holds: 2H 3H 4H 9S 10S 2C 3C 9D 10D JD QD KD\nAna asks Ben 5H: no\nBen: ?\n"


def _memory_against_full(body, counts):
    """``FOUR`` + ``body`` under memory=last-question: not refused, the counts are
    ``counts``, those of the whole memory's analysis, and every place the whole memory
    allows stays possible (a forgetful view knows less, never something else)."""
    from solver.literature.analysis import analyze

    lossy = parse_record(FOUR.format("memory=last-question") + body)
    full = parse_record(FOUR.format("memory=full") + body)
    got = {p: h["count"] for p, h in analyze(lossy, "Ana").hands.items()}
    assert got == counts == {p: h["count"] for p, h in analyze(full, "Ana").hands.items()}
    vm, vf = build(lossy, "Ana"), build(full, "Ana")
    assert not vm.history and vf.history
    bm, bf = backbone(vm), backbone(vf)
    assert bm.consistent
    for k in vm.table.keys:
        pm = {vm.fixed[k]} if k in vm.fixed else bm.possible[k]
        pf = {vf.fixed[k]} if k in vf.fixed else bf.possible[k]
        assert pf <= pm, k
    return vm, bm


def test_memory_mode_takes_the_counts_the_turn_decides():
    """``turn: Cleo`` after ``Ben: ?``: Ben asked Cleo and was refused (LIT-8), so no card
    moved and every count is known: not refused (A9 asks only for open counts)."""
    vm, bm = _memory_against_full("turn: Cleo\nCleo asks Dev 4S: yes\nCleo asks Ben 7S: no\n",
                                  {"Ana": 12, "Ben": 12, "Cleo": 13, "Dev": 11})
    assert bm.possible["7S"] == {"Dev"}         # the last question, remembered


def test_memory_mode_takes_the_counts_a_logged_count_decides():
    """``Ben has 13 cards`` after ``Ben: ?``: Ben got a card, and only Cleo can have given
    it (Ana, the recorder, was not asked; Dev is Ben's teammate): Cleo has 11."""
    _memory_against_full("Ben has 13 cards\n", {"Ana": 12, "Ben": 13, "Cleo": 11, "Dev": 12})


def test_memory_mode_takes_the_counts_the_views_hand_decides():
    """Eli cannot have given KD, which Ana holds: the answer was no, the counts unchanged."""
    body = ("Ana holds: 5S 7S KS 5H JH KD 2C 7C\nAna asks Dev 6S: no\nDev asks Ana 10S: no\n"
            "Ana asks Fay KH: no\nFay asks Eli KD: ?\n")
    vm = build(rec(body, HEAD + "variant: memory=last-question\n"), "Ana")
    assert vm.counts == dict.fromkeys(SIX.split(), 8)
    assert backbone(vm).consistent


def test_memory_mode_refuses_the_counts_an_unseen_question_left_open():
    """``Ben: ?`` with nothing after it: Ben may have got a card from Cleo or not."""
    with pytest.raises(RuleError) as e:
        build(parse_record(FOUR.format("memory=last-question")), "Ana")
    assert "counts of Ben, Cleo are not known" in str(e.value) and e.value.rule == "A9"


def test_memory_mode_keeps_the_recorders_hand_after_an_opponents_unseen_question():
    """``Ben: ?`` by an opponent of the recorder never asks the recorder (record-format.md,
    "What the recorder did not see": a question asked of them is one they heard), so under
    a memory mode Ana's own hand stays known after it (it was forgotten: every card 1/6)."""
    head = HEAD + "variant: memory=last-question\n"
    counts = "".join(f"{p} has 8 cards\n" for p in SIX.split()[1:])
    vm = build(rec("Ana holds: 2H 3H 4H 6H 7H 9S JC QD\nAna asks Ben KD: no\nBen: ?\n"
                   + counts, head), "Ana")
    assert all(vm.fixed.get(k) == "Ana" for k in ("2H", "3H", "4H", "6H", "7H", "9S", "JC",
                                                 "QD"))
    assert backbone(vm).consistent


def test_carried_certainties_keep_the_recorders_cards_after_an_unseen_question():
    """The certainties carried to the next statement keep the recorder's cards after an
    opponent's ``Ben: ?`` (it cannot have taken one of them)."""
    from solver.literature.history import carried, remember

    head = "game: literature\nplayers: Ana Ben Cleo Dev\nme: Ana\n"
    r1 = parse_record(head + "Ana asks Ben 9S: no\n")
    remember(r1, "Ana", {"2H": "Ana", "3H": "Dev", "4H": "Cleo"})
    r2 = parse_record(head + "Ana asks Ben 9S: no\nBen: ?\n")
    assert carried(r2, "Ana", Play.of(r2).table) == {"2H": "Ana", "3H": "Dev"}


@pytest.mark.slow
@pytest.mark.parametrize("memory", ["memory=last-question", "memory=last-two"])
def test_memory_modes_on_lossy_records_never_rule_out_the_truth(memory):
    """A memory mode on lossy records, at every prefix: refused only for unknown counts
    (LIT-13), else the counts are the true ones and the true current places stay possible
    from the recorder's view."""
    analysed = 0
    for seed in range(12):
        r, truth = simulate_lossy(6, (memory,), seed, events=20, miss=0.4)
        for cut in range(7, len(r.statements) + 1):
            sub = Record(r.header, r.statements[:cut])
            try:
                vm = build(sub, r.header.me)
            except RuleError as e:
                assert "LIT-13" in str(e) and e.rule == "A9"
                continue
            bb = backbone(vm)
            assert bb.consistent
            true = truth[cut - 1]
            for k in vm.table.keys:
                poss = {vm.fixed[k]} if k in vm.fixed else bb.possible[k]
                assert true[k] in poss, (seed, cut, k)
            if vm.counts is not None:       # counts the record decided (no log line)
                assert vm.counts == {p: sum(1 for l in true.values() if l == p)
                                     for p in vm.table.players}, (seed, cut)
            analysed += 1
    assert analysed >= 20


# ----- unheard answers counted exactly, course by course -------------------------------------
def _replace_me(header, me):
    from dataclasses import replace as _replace

    return _replace(header, me=me)


def _courses_cover_the_backbone_and_the_truth(full, sub, me, truth, teams_exact=True):
    """``sub`` (``full`` with unseen parts) seen by ``me``: its courses are counted, their
    supports together are the history model's complete backbone (two independent methods),
    the card figures are exact ("courses"; the team probabilities too with
    ``teams_exact``, else an estimate with a small error) and the true current places are
    possible."""
    from solver.literature.analysis import analyze
    from solver.literature.courses import exact_courses
    from solver.literature.inference import current

    vm = build(sub, me)
    assert vm.history
    bb = backbone(vm)
    branches = exact_courses(sub, me)
    assert branches
    union = {k: set() for k in vm.table.keys}
    for vb, pr in branches:
        for k, ls in current(vb, pr)[1].items():
            union[k] |= ls
    for k in vm.table.keys:
        assert union[k] == ({vm.fixed[k]} if k in vm.fixed else bb.possible[k]), k
    a = analyze(sub, me)
    assert a.method == "courses"
    if teams_exact:
        assert a.exact and a.error == 0.0
    else:       # many courses: the team chances are shares of each course's sampled deals
        assert a.exact or 0 < a.error <= 0.1
    play = Play.of(full)                  # the true current places: moved or as dealt
    for k in vm.table.keys:
        place = play.loc[k] if play.loc[k] is not None else truth[k]
        assert place in a.possible[repr(vm.table.key_card[k])], k


def _hide(r, which, heard):
    """``r`` with each ask at positions ``which`` written as ``heard(ask)``: what the
    recorder heard of it."""
    from dataclasses import replace as _replace

    sts = list(r.statements)
    for i in which:
        un = heard(sts[i].event)
        sts[i] = _replace(sts[i], event=un, text=str(un))
    return Record(r.header, tuple(sts))


def _hide_answers(r, which):
    """``r`` with the answers of the asks at positions ``which`` written as '?' (the
    recorder's own questions are always heard, so only others' asks are hidden)."""
    from solver.literature.events import UnheardAnswer

    return _hide(r, which, lambda ev: UnheardAnswer(ev.asker, ev.target, ev.card))


def test_a_decided_unheard_answer_is_the_complete_record():
    """'turn: Eli' after an unheard answer to Fay says it was 'no' (LIT-8): the figures are
    exactly those of the record with 'no' written."""
    from solver.literature.analysis import analyze

    body = ("Ana holds: 5S 7S KS 5H JH KD 2C 7C\nAna asks Dev 6S: no\nDev asks Ana 10S: no\n"
            "Ana asks Fay KH: no\nFay asks Eli KC: {}\nturn: Eli\nEli asks Fay 6S: yes\n")
    lossy = analyze(rec(body.format("?")), "Ana")
    full = analyze(rec(body.format("no").replace("turn: Eli\n", "")), "Ana")
    assert lossy.exact and full.exact
    assert lossy.cards.keys() == full.cards.keys()
    for c, d in full.cards.items():
        assert lossy.cards[c].keys() == d.keys()
        assert all(abs(lossy.cards[c][l] - p) < 1e-12 for l, p in d.items()), c
    for h, i in full.halves.items():
        assert all(abs(lossy.halves[h].p_team[t] - p) < 1e-12 for t, p in i.p_team.items())


@pytest.mark.parametrize("seed", range(6))
def test_courses_of_unheard_answers_agree_with_the_history_model(seed):
    """Two independent methods: the union of the courses' exact supports (deal models, one
    per answer) equals the history model's complete backbone (CP-SAT over histories), the
    true course is among them, and the mixed figures are exact and put the truth in the
    support."""
    import random as _random

    from solver.literature.events import Ask

    r, truth = simulate_with_deal(6, (), seed, events=24)
    me = r.header.me or r.header.players[0]
    if r.header.me is None:
        r = Record(_replace_me(r.header, me), r.statements)
    asks = [i for i, s in enumerate(r.statements)
            if isinstance(s.event, Ask) and me not in (s.event.asker, s.event.target)]
    rng = _random.Random(seed)
    which = sorted(rng.sample(asks, min(2, len(asks))))
    cut = which[-1] + 1 + rng.randrange(0, 4)
    full = Record(r.header, r.statements[:cut])
    _courses_cover_the_backbone_and_the_truth(full, _hide_answers(full, which), me, truth)


def test_unheard_answer_figures_weigh_each_course_by_its_deals():
    """One unheard answer, both answers possible: each card's chance is the two complete
    records' chances weighted by their exact numbers of deals."""
    from dataclasses import replace as _replace

    from solver.literature.analysis import analyze
    from solver.literature.events import Ask
    from solver.literature.inference import current, probabilities

    for seed in range(20):
        r, _ = simulate_with_deal(6, (), seed, events=16)
        me = r.header.me or r.header.players[0]
        r = Record(_replace_me(r.header, me), r.statements)
        asks = [i for i, s in enumerate(r.statements)
                if isinstance(s.event, Ask) and me not in (s.event.asker, s.event.target)]
        if not asks:
            continue
        i = asks[-1]
        full = Record(r.header, r.statements[:i + 1])      # the unheard line is the last
        courses = []
        for ans in ("yes", "no"):
            ev = full.statements[i].event
            ask = Ask(ev.asker, ev.target, ev.card, ans)
            course = Record(r.header, full.statements[:i] + (
                _replace(full.statements[i], event=ask, text=str(ask)),))
            try:
                vm = build(course, me)
                pr = probabilities(vm)
            except (RuleError, NotationError):
                continue
            courses.append((vm, pr))
        if len(courses) < 2:
            continue
        W = sum(pr.total for _, pr in courses)
        a = analyze(_hide_answers(full, [i]), me)
        assert a.exact
        for card, got in a.cards.items():
            want: dict = {}
            for vm, pr in courses:
                lp, _ = current(vm, pr)
                for k in vm.table.card_keys[vm.table.parse_card(card)]:
                    for l, p in lp[k].items():
                        want[l] = want.get(l, 0.0) + pr.total / W * p
            assert set(got) == {l for l, p in want.items() if p > 0}, card
            assert all(abs(got[l] - want[l]) < 1e-9 for l in got), card
        return
    pytest.fail("no record with two possible answers")


def _hide_cards(r, which):
    """``r`` with the cards of the asks at positions ``which`` not heard ('Ben asks Cleo ?:
    yes')."""
    from solver.literature.events import UnheardCard

    return _hide(r, which, lambda ev: UnheardCard(ev.asker, ev.target, ev.answer))


def _one_unheard_card(seed, events=20):
    """A simulated 6-player record seen by its recorder, with the card of one other
    player's question not heard; and the true places."""
    from solver.literature.events import Ask

    r, truth = simulate_with_deal(6, (), seed, events=events)
    me = r.header.me or r.header.players[0]
    r = Record(_replace_me(r.header, me), r.statements)
    asks = [i for i, s in enumerate(r.statements)
            if isinstance(s.event, Ask) and me not in (s.event.asker, s.event.target)
            and s.event.answer in ("yes", "no")]
    if not asks:
        return None
    i = asks[len(asks) // 2]
    full = Record(r.header, r.statements[:i + 4])
    return full, _hide_cards(full, [i]), me, truth


@pytest.mark.parametrize("seed", range(2))
def test_an_unheard_card_is_counted_exactly_course_by_course(seed):
    """'Ben asks Cleo ?: yes|no' has at most one course per card of the open half-suits
    (issue 13): they are counted one by one, so the card figures are exact under the
    documented prior (every consistent (deal, course) pair equally likely); the courses'
    supports together are the history model's complete backbone, and the truth is in it."""
    got = _one_unheard_card(seed)
    assert got
    _courses_cover_the_backbone_and_the_truth(*got, teams_exact=False)


def test_the_course_chain_agrees_with_the_exact_courses(monkeypatch):
    """Forced to estimate (no enumeration), a long course chain comes within its own error
    bar of the exact course-by-course figures, and keeps every certainty."""
    from solver.literature import courses
    from solver.literature.analysis import analyze

    full, sub, me, _ = _one_unheard_card(1)
    exact = analyze(sub, me)            # exact cards; the team chances may be estimates
    assert exact.method == "courses"
    monkeypatch.setattr(courses, "COURSES", 0)
    monkeypatch.setattr(courses, "ORBITS", 0)
    monkeypatch.setattr(courses, "CHAIN_STEPS", (240, 240))
    monkeypatch.setattr(courses, "CHAIN_WORK", 10 ** 12)
    est = analyze(sub, me)
    # a bar only after CHAIN_TRUST distinct courses, else 0.5 (no error bar)
    assert not est.exact and est.method == "course chain" and 0 < est.error <= 0.5
    for card, d in exact.cards.items():
        assert set(est.cards[card]) == set(d), card            # the same support
        for l, p in d.items():
            assert (est.cards[card][l] == 1.0) == (p == 1.0), card
            assert abs(est.cards[card][l] - p) <= est.error, (card, l)
    for h, info in exact.halves.items():
        for team, p in info.p_team.items():
            q = est.halves[h].p_team[team]
            assert (q in (0.0, 1.0)) == (p in (0.0, 1.0)) and (q == p or p not in (0, 1)), h
            assert abs(q - p) <= est.error + exact.error, h


def test_unseen_questions_are_counted_by_orbits_with_logical_certainties():
    """The lossy sample (unheard cards and whole unseen questions: too many courses to
    count one by one) is counted one course per orbit of exchangeable cards: exact card
    figures (the team chances shares of sampled deals, a small error), and a 1.0 exactly
    for the cards the complete backbone decides."""
    import pathlib

    from solver.literature.analysis import analyze

    path = pathlib.Path(__file__).parent.parent / "samples/literature/lossy-six-players.txt"
    r = parse_record(path.read_text())
    a = analyze(r, "Ana")
    assert a.method == "courses" and 0 <= a.error < 0.1
    vm = build(r, "Ana")
    bb = backbone(vm)
    for k in vm.table.keys:
        card = repr(vm.table.key_card[k])
        poss = {vm.fixed[k]} if k in vm.fixed else bb.possible[k]
        if len(vm.table.card_keys[vm.table.key_card[k]]) == 1:
            assert set(a.cards[card]) == poss, card
            assert (a.cards[card].get(next(iter(poss))) == 1.0) == (len(poss) == 1), card


@pytest.mark.parametrize("players,seed,cut", [(6, 0, 60), (6, 1, 30), (8, 0, 30)])
def test_whether_a_team_may_hold_a_half_suit_is_decided_together_as_one_by_one(
        players, seed, cut):
    """HistoryModel.possible_each (one search for a history with one of the groups not yet
    found, one proof for the impossible ones) gives, for every open half-suit and team,
    what possible_with gives for each alone (fails if a history found for one group were
    taken for another, or the last proof dropped a possible one)."""
    from solver.literature.simulate import simulate

    rec = simulate(players, (), seed, miss=0.3).prefix(cut)
    vm = build(rec, rec.header.me)
    assert vm.history
    groups = []
    for h in vm.play.open_halves():
        free = [k for k in vm.play.keys_of_half(h) if k not in vm.fixed]
        groups += [(free, team) for team in vm.table.teams if free]
    alone = []
    for free, team in groups:
        def add(b, final, free=free, team=team):
            b.cons([final[k, p] for k in free for p in team], len(free), len(free), None)
        alone.append(vm.model.possible_with(add))
    assert True in alone and False in alone

    def each(free, team):
        return lambda b, final, lit: b.cons([final[k, p] for k in free for p in team],
                                            len(free), len(free), None, also=(lit,))

    assert vm.model.possible_each([each(*g) for g in groups]) == alone
