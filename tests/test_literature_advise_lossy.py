"""The Literature advisor on records with unseen events ('?' lines), within its budget
(issue 45): every 0 and 1 it shows is logical, the safe claims and the view's questions are
those of the complete analysis wherever it says it proved them, the same record gives the
same advice, and the clock only cuts it short (saying so).  Also: a replay's claim checks
run on a fresh time budget."""
from __future__ import annotations

import json

import pytest

from solver.literature import advise
from solver.literature.advise import suggest
from solver.literature.analysis import analyze
from solver.literature.engine import Play
from solver.literature.inference import backbone, build
from solver.literature.simulate import simulate_lossy
from solver.records import Record, read_record


def _cut(rec, n):
    """The prefix of ``n`` statements, one earlier when it would end on a claim (its
    ``shown`` line follows)."""
    from solver.literature.events import Claim

    while n > 1 and isinstance(rec.statements[n - 1].event, Claim):
        n -= 1
    return Record(rec.header, rec.statements[:n])


def _lossy_states():
    """(record prefix, true places there) of simulated lossy games of 4, 6 and 8 players."""
    out = []
    # 4 players: seed 11, whose second state has a safe claim (seed 3 had one while the
    # simulator could hide the recorder's own questions)
    for players, seed, at in ((4, 11, (0.5, 0.9)), (6, 7, (0.4, 0.8)), (8, 1, (0.5, 0.9))):
        rec, truth = simulate_lossy(players, (), seed, events=20 + 4 * players, miss=0.3)
        for f in at:
            sub = _cut(rec, int(len(rec.statements) * f))
            if Play.of(sub).unseen and not Play.of(sub).over:
                out.append((sub, truth[len(sub.statements) - 1]))
    return out


STATES = _lossy_states()


def _card_keys(t, name):
    return t.card_keys[next(c for c in t.card_keys if repr(c) == name)]


@pytest.mark.slow
@pytest.mark.parametrize("i", range(len(STATES)))
def test_lossy_advice_is_sound_and_complete_where_it_says(i, monkeypatch):
    """Against the complete backbone: a chance of 1 (0) only for a certain (impossible)
    answer, never 0 for the truth; what the advice says it proved is the analysis's (the
    safe claims, the questions the view may ask, every 1 -- and every 0 when all is
    proved)."""
    monkeypatch.setattr(advise, "HISTORY_SECONDS", 600.0)      # work, not the clock
    rec, true = STATES[i]
    view = rec.header.me
    adv = suggest(rec, view)
    proved = adv.summary["proved"]
    assert proved in ("all", "certain", "own-and-claims", "some")
    assert not adv.exact and any("consistent histor" in n for n in adv.notes)
    vm = build(rec, view, Play.of(rec))
    bb = backbone(vm)
    sup = {k: {vm.fixed[k]} if k in vm.fixed else set(bb.possible[k]) for k in vm.table.keys}
    t = vm.table
    asked = set()
    for a in adv.actions:
        if a.kind != "question":
            continue
        _, _, b, card = a.action.split()
        keys = _card_keys(t, card)
        asked.add((b, card))
        p = a.p_answers["yes"]
        certain = any(sup[k] == {b} for k in keys)
        possible = any(b in sup[k] for k in keys)
        assert p < 1.0 or certain, a.action
        assert p > 0.0 or not possible, a.action
        if any(true[k] == b for k in keys):
            assert p > 0.0, a.action
        if proved in ("all", "certain"):
            assert (p == 1.0) == certain, a.action
        if proved == "all":
            assert (p == 0.0) == (not possible), a.action
    full = analyze(rec, view)
    safe = sorted(h for h, hi in full.halves.items() if hi.safe_claim)
    if proved != "some":
        assert adv.summary["safe_claims"] == safe
        # the questions the view may ask with the cards it certainly holds (LIT-6)
        mine = [t.key_card[k] for k in t.keys if sup[k] == {view}]
        from solver.literature.engine import can_ask_for, can_ask_whom

        play = Play.of(rec)
        state = play.state()
        want = set()
        if play.count[view] > 0:
            for hn in play.open_halves():
                for c in set(play.half(hn).cards):
                    if can_ask_for(state, view, c, mine):
                        want |= {(b, repr(c)) for b in t.players if can_ask_whom(state, view, b)}
        assert asked == want
    else:
        assert set(adv.summary["safe_claims"]) <= set(safe)


@pytest.mark.slow
def test_lossy_advice_is_the_same_every_time(monkeypatch):
    """Bounded by CP-SAT's deterministic work, not the clock: the same record, the same
    advice (two fresh runs)."""
    monkeypatch.setattr(advise, "HISTORY_SECONDS", 600.0)
    rec = STATES[-1][0]
    one = suggest(rec, rec.header.me).to_json()
    two = suggest(rec, rec.header.me).to_json()
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


@pytest.mark.slow
def test_the_clock_cuts_the_search_short_and_says_so(monkeypatch):
    """With no time for the histories the advice still comes (from one history), marked
    as such, every 0 and 1 still logical; the analysis's own deadline is not swallowed."""
    from solver.model.budget import TimeUp, within

    rec = STATES[-1][0]
    view = rec.header.me
    monkeypatch.setattr(advise, "HISTORY_SECONDS", 1e-4)
    adv = suggest(rec, view)
    assert adv.summary["proved"] == "some" and adv.samples >= 1
    assert any("stopped by the clock" in n for n in adv.notes)
    vm = build(rec, view, Play.of(rec))
    bb = backbone(vm)
    sup = {k: {vm.fixed[k]} if k in vm.fixed else set(bb.possible[k]) for k in vm.table.keys}
    for a in adv.actions:
        if a.kind == "question":
            _, _, b, card = a.action.split()
            keys = _card_keys(vm.table, card)
            p = a.p_answers["yes"]
            assert p < 1.0 or any(sup[k] == {b} for k in keys), a.action
            assert p > 0.0 or not any(b in sup[k] for k in keys), a.action
    monkeypatch.setattr(advise, "HISTORY_SECONDS", 600.0)
    with pytest.raises(TimeUp):
        with within(1e-4):
            suggest(rec, view)


def test_the_samples_lossy_record_is_advised_from_its_whole_backbone(monkeypatch):
    """The 6-player lossy sample is small enough for the whole backbone within the
    advisor's work: every 0 and 1 is the analysis's, and the note says where the leak comes
    from."""
    monkeypatch.setattr(advise, "HISTORY_SECONDS", 600.0)      # work, not the clock
    rec = read_record("samples/literature/lossy-six-players.txt")
    adv = suggest(rec, rec.header.me)
    assert adv.summary["proved"] == "all"
    assert any(n.startswith("leak_bits from ") for n in adv.notes)
    assert len(adv.notes) == 2


def test_a_replays_claim_checks_get_a_fresh_time_budget(monkeypatch):
    """The claims are checked from the claimant's view after the steps, which ran in
    worker processes while this process's clock went on: the checks start a budget of
    their own (they ended with exit 4 once the steps had taken longer than one budget)."""
    import time

    from solver import replay as rp
    from solver.model.budget import current, within

    rec = read_record("samples/literature/six-players-full-game.txt")
    probes = rp._probes

    def slow(*a, **k):          # the steps took the whole budget
        out = probes(*a, **k)
        current().at = time.monotonic() - 1.0
        return out

    monkeypatch.setattr(rp, "_probes", slow)
    with within(30.0):
        r = rp.replay(rec, [None], detail=False)
    assert r.checks and all(f.kind in ("claim", "unchecked") for f in r.checks)


@pytest.mark.slow
def test_a_clock_stop_after_the_proof_keeps_what_it_proved(monkeypatch):
    """Stopped by the clock once the certainties are proved (before the spectator's
    histories and the rest of the backbone): the advice stands on what was proved -- the
    analysis's safe claims and questions, every 1 certain -- and says it was stopped."""
    from solver.literature import history
    from solver.model.budget import TimeUp

    proof = history.HistoryModel._prove_agreed

    def then_stop(self, work):
        proof(self, work)
        raise TimeUp(advise.HISTORY_SECONDS, "the advisor's histories")

    monkeypatch.setattr(history.HistoryModel, "_prove_agreed", then_stop)
    monkeypatch.setattr(advise, "HISTORY_SECONDS", 600.0)
    rec = STATES[1][0]                  # 4 players, a safe claim
    view = rec.header.me
    adv = suggest(rec, view)
    assert adv.summary["proved"] == "certain"
    assert any("stopped by the clock" in n for n in adv.notes)
    assert any("leak_bits not computed" in n for n in adv.notes)
    full = analyze(rec, view)
    assert adv.summary["safe_claims"] == sorted(h for h, hi in full.halves.items()
                                                if hi.safe_claim) != []
    vm = build(rec, view, Play.of(rec))
    bb = backbone(vm)
    t = vm.table
    for a in adv.actions:
        if a.kind == "question":
            _, _, b, card = a.action.split()
            certain = any((bb.possible.get(k) or {vm.fixed.get(k)}) == {b}
                          for k in _card_keys(t, card))
            assert (a.p_answers["yes"] == 1.0) == certain, a.action
