"""Issue 19: certain holdings of cards with several copies (two packs, jokers, Twenty-Six).

A card is certainly in a hand when at least one copy is there in every consistent deal
(TT-1, TT-V2(a)); ``holdings[P].certain`` lists it as often as copies are certain, and
``certain_copies`` says "at least k of n".
"""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.twenty_two import render_analysis
from solver.model.budget import Budget
from solver.model.counting import count_deals
from tests.helpers import record
from solver.twenty_two import GAME
from solver.twenty_two.analysis import _models
from solver.twenty_two.events import Trick
from solver.twenty_two.inference import as_written_by
from solver.twenty_two.engine import replay
from solver.twenty_two.simulate import simulate

FAST = dict(budget=Budget(samples=40))


def rec(body, players="Ana Ben Cleo", variant="", dealer="Cleo", me="Ana"):
    return record("twenty-two", body, players=players, variant=variant, dealer=dealer, me=me)


def test_jokers_alone_leave_a_hand_of_jokers_listed_as_certain():
    """TT-V2(b,f): Cleo plays a joker alone holding 2 cards, so her hand is two of the
    three jokers left: no single joker is certain, but two copies are."""
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 5H 5S 5D 5C 9S 9H 9D
Ana leads 5H 5S 5D 5C; Ben JC 7D 6S 6H; Cleo 4H 3H 2D 2C
Ben leads 9C; Cleo Jk; Ana 9S
""", variant="twenty-six"), "Ana", **FAST)
    assert a.cards["Jk"]["Cleo"] == 2.0
    h = a.holdings["Cleo"]
    assert h.certain == ["Jk", "Jk"]
    assert h.to_json()["certain_copies"] == {"Jk": {"at_least": 2, "of": 4}}
    assert "certainly Jk (at least 2 of 4)" in render_analysis(a)


def test_eight_players_two_packs_the_second_copy():
    """TT-1: eight players play with two packs.  The recorder holds one AC and wrote that
    Cleo holds the other: Cleo certainly holds an AC (at least 1 of 2)."""
    players = "Ana Ben Cleo Dev Eli Fay Gus Hal"
    r = rec("""
Hal deals 7
Ana holds: AC 2C 3C 4C 5C 6C 7C
Cleo holds: AC 9D 9H 9S 10D 10H 10S
""", players=players, dealer="Hal")
    a = GAME.analyze(r, "Ana", **FAST)
    h = a.holdings["Cleo"]
    assert Counter(h.certain)["AC"] == 1 and h.copies["AC"] == (1, 2)
    assert Counter(h.certain)["9D"] == 1
    assert "AC (at least 1 of 2)" in render_analysis(a)
    assert a.holdings["Ben"].certain == []


def test_single_pack_keeps_its_format():
    a = GAME.analyze(rec("""
Cleo deals 7
Ana holds: 2C 3C 4C 5C 6C 7C 8C
Ben holds: AS KS QS JS 10S 9S 8S
"""), "Ana", **FAST)
    js = a.to_json()["holdings"]["Ben"]
    assert "certain_copies" not in js and sorted(js["certain"]) == sorted(
        "AS KS QS JS 10S 9S 8S".split())


def recorder_record(prefix, view, hidden):
    """The record of a recorder ``view`` who wrote every hand but ``hidden``'s (a partial
    record: the recorder's view uses every line written, so the second copy of a card
    in someone's written hand is certain there)."""
    from dataclasses import replace

    from solver.records import Record, Statement
    from solver.twenty_two.events import Exchange, Holds

    kept = []
    for st_ in prefix.statements:
        ev = st_.event
        if isinstance(ev, Holds) and ev.player == hidden:
            continue
        if isinstance(ev, Exchange) and ev.player == hidden and ev.known:
            ev = Exchange(ev.player, ev.count)
        kept.append(ev)
    header = replace(prefix.header, me=view)
    base = len(header.lines())
    return Record(header=header, statements=tuple(
        Statement(base + i + 1, str(ev), ev) for i, ev in enumerate(kept)))


def _truth_hands(prefix):
    eng = replay(prefix)
    return {p: Counter(eng.known[p]) for p in eng.deal.receivers}


VARIANTS = [["twenty-six"], ["packs=2"], ["twenty-six", "jokers-per-natural=one"]]


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(variant=st.sampled_from(VARIANTS), n=st.integers(2, 4), seed=st.integers(0, 10_000),
       cut=st.floats(0.0, 1.0), mode=st.sampled_from(["public", "own", "recorder"]))
def test_certain_copies_are_true_and_complete(variant, n, seed, cut, mode):
    """Over two-pack and Twenty-Six games: every listed certainty is true; every copy the
    model's backbone forces into a hand (marginal 1 under exact counting) is listed; and the count listed is the least count over the
    consistent deals (CP-SAT minimum, asked independently) for the cards a hand may hold."""
    full = simulate(n, variant, seed)
    plays = [i for i, s in enumerate(full.statements) if isinstance(s.event, Trick)]
    k = plays[int(cut * (len(plays) - 1))]
    prefix = full.prefix(k)
    mover = full.statements[k].event.plays[0][0]
    view = None if mode == "public" else mover
    if mode == "recorder":
        hidden = next(p for p in full.header.players if p != mover)
        record = recorder_record(prefix, view, hidden)
    else:
        record = as_written_by(prefix, view)
    a = GAME.analyze(record, view, **FAST)
    true = _truth_hands(prefix)
    vm = _models(record, view, replay(record))[-1]
    counting = count_deals(vm.model, max_states=200_000, time_budget=30.0)
    if not counting.exact:                        # pragma: no cover - large mid-game states
        return
    marg = counting.marginals
    checked = 0
    for p, h in a.holdings.items():
        listed = Counter(h.certain)
        assert not listed - true[p], (p, listed - true[p])          # every certainty true
        for name, keys in vm.keys.items():
            forced = sum(1 for key in keys if marg.get(key, {}).get(p, 0) > 1 - 1e-12)
            assert listed[name] >= forced, (p, name)                # backbone-complete
            if h.copies is not None and listed[name]:
                assert h.copies[name] == (listed[name], len(keys))
            may = sum(1 for key in keys if marg.get(key, {}).get(p, 0) > 0)
            if may > forced and checked < 3 and a.cards[name].get(p, 0) >= 1 - 1e-9:
                checked += 1
                lo, _ = vm.model.count_bounds(keys, [p])
                assert listed[name] == lo, (p, name, lo)            # the least count


def test_least_counts_by_cp_sat_alone_agree_with_exact_counting():
    """Without exact counting (over budget) the least counts come from CP-SAT alone: they
    must agree with those pruned by the exact expected counts."""
    from solver.twenty_two.analysis import certain_copies

    class Estimate:                      # what an over-budget count gives: no exact marginals
        exact = False
        marginals: dict = {}

    cases = [(rec("""
Cleo deals 7
Ana holds: 5H 5S 5D 5C 9S 9H 9D
Ana leads 5H 5S 5D 5C; Ben JC 7D 6S 6H; Cleo 4H 3H 2D 2C
Ben leads 9C; Cleo Jk; Ana 9S
""", variant="twenty-six"), "Ana"), (rec("""
Hal deals 7
Ana holds: AC 2C 3C 4C 5C 6C 7C
Cleo holds: AC 9D 9H 9S 10D 10H 10S
""", players="Ana Ben Cleo Dev Eli Fay Gus Hal", dealer="Hal"), "Ana")]
    for one, view in cases:
        vm = _models(one, view, replay(one))[-1]
        exact = count_deals(vm.model, max_states=200_000, time_budget=30.0)
        assert exact.exact
        possible_k = {k: {l for l, p in exact.marginals.get(k, {}).items() if p > 0}
                      for k in vm.model.cards}
        got = certain_copies(vm, possible_k, Estimate(), view)
        assert got == certain_copies(vm, possible_k, exact, view)
        assert any(got.values())
