"""The playout policy's shortcuts against the rules they shortcut.

``solver.twenty_two.policy`` works out what a player may play once per (hand, lead,
target) and, for a one-card lead without ``rasmussen``, directly from the sorted naturals;
the playout keeps the trick's target as it grows instead of asking ``target_r`` at every
play.  These tests check each shortcut against the general rules on random hands and
tricks: the same menus, the same plays, the same showdown."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.twenty_two import policy
from solver.twenty_two.options import TwentyTwoOptions
from solver.twenty_two.ranking import JK, follow_rule_r, target_r, trick_winner_r

OPTIONS = [TwentyTwoOptions(), TwentyTwoOptions(twenty_six=True),
           TwentyTwoOptions(twenty_six=True, jokers_per_natural="one"),
           TwentyTwoOptions(rasmussen=True),
           TwentyTwoOptions(rasmussen=True, rasmussen_ties="first")]
RANKS = st.sampled_from([JK] + list(range(2, 15)))


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(RANKS, min_size=1, max_size=8), t=RANKS,
       opts=st.sampled_from(OPTIONS[:3]))
def test_one_card_follow_shortcut_is_the_general_rule(hand, t, opts):
    nat = sorted(r for r in hand if r)
    fast = policy._follow_one(nat, t)
    general = policy._follow_options(tuple(hand), (t,), (t,), opts, nat)
    assert fast == general
    for play in fast:            # and every option is a legal follow (TT-10, TT-V2)
        assert follow_rule_r(play, hand, (t,), (t,), opts) is None


@settings(max_examples=600, deadline=None)
@given(hand=st.lists(RANKS, min_size=2, max_size=10), lead=st.lists(RANKS, min_size=2,
                                                                   max_size=4),
       opts=st.sampled_from(OPTIONS[:3]), data=st.data())
def test_many_card_follow_shortcut_is_the_general_rule(hand, lead, opts, data):
    n = len(lead)
    if len(hand) <= n:
        return
    target = tuple(data.draw(st.lists(RANKS, min_size=n, max_size=n)))
    nat = sorted(r for r in hand if r)
    fast = policy._follow_plain(tuple(hand), nat, n, target, opts)
    assert fast == policy._follow_options(tuple(hand), tuple(lead), target, opts, nat)
    for play in fast:
        assert follow_rule_r(play, hand, target, tuple(lead), opts) is None


def _reference_playout(hands, receivers, leader, trick, opts, rng, forced=None):
    """The playout as the rules say it, with ``target_r`` and ``trick_winner_r`` at every
    play and no menus (:func:`policy.choose` on a fresh cache each time)."""
    hands = {p: sorted(h) for p, h in hands.items()}
    trick = [(p, tuple(c)) for p, c in trick]
    order = list(receivers)
    while True:
        if not trick:
            if len(hands[order[0]]) <= 1:
                break
            p = leader
        else:
            p = order[(order.index(trick[-1][0]) + 1) % len(order)]
        if forced is not None and forced[0] == p:
            play, forced = tuple(forced[1]), None
        else:
            plays = [c for _, c in trick]
            policy._MENUS.clear()
            if plays:
                target = tuple(target_r(plays, opts))
                menu = policy._work_out_menu(tuple(hands[p]), plays[0], target, opts, False)
            else:
                menu = policy._work_out_menu(tuple(hands[p]), None, None, opts, False)
            play = policy._draw(menu, rng.random)
        for r in play:
            hands[p].remove(r)
        trick.append((p, play))
        if len(trick) == len(order):
            leader = trick[trick_winner_r([c for _, c in trick], opts)][0]
            trick = []
    return {p: h[0] for p, h in hands.items() if h}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 8), size=st.integers(2, 7),
       opts=st.sampled_from(OPTIONS))
def test_playout_is_the_rules_played_out(seed, players, size, opts):
    rng = random.Random(seed)
    pack = [r for r in range(2, 15) for _ in range(4 * (2 if opts.twenty_six else 1))]
    pack += [JK] * (4 if opts.twenty_six else 0)
    rng.shuffle(pack)
    names = [f"P{i}" for i in range(players)]
    if players * size > len(pack):
        size = len(pack) // players
    hands = {p: pack[i * size:(i + 1) * size] for i, p in enumerate(names)}
    leader = names[rng.randrange(players)]
    trick = []
    if seed % 2:                 # start inside a trick: the leader has led
        lead = policy.choose(hands[leader], [], opts, rng)
        hands[leader] = list(hands[leader])
        for r in lead:
            hands[leader].remove(r)
        trick = [(leader, lead)]
    s = rng.randrange(10 ** 9)
    got = policy.playout(hands, names, leader, trick, opts, random.Random(s))
    want = _reference_playout(hands, names, leader, trick, opts, random.Random(s))
    assert got == want
