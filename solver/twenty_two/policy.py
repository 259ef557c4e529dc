"""A simple model of how players choose their plays, for the showdown risk (I6) and the
simulator.  It is an *assumption*, stated wherever a probability depends on it:

* a play that decides the player's last card (it leaves one card) keeps the lowest card the
  rules allow -- always the best choice for that player (only the highest card loses, TT-13);
* otherwise the player picks uniformly among a few sensible legal plays: the n lowest cards
  (when legal), the cheapest cards that beat or tie, and the strongest cards that do; a
  leader picks a random rank held and a random number of those cards (TT-9, A5).

``explore`` (the simulator) picks uniformly among *all* distinct legal plays instead.
Suits never matter (A10), so hands and plays are ranks here (2..14, jokers 0).

>>> import random
>>> from solver.twenty_two.options import TwentyTwoOptions
>>> choose([13, 13, 6, 3, 3, 2, 2], [[5, 5, 5], [10, 9, 7]], TwentyTwoOptions(),
...        random.Random(1))   # TT-11: K-K-6 fails against 10-9-7, so the lowest three
(2, 2, 3)
"""
from __future__ import annotations

import random
from typing import Sequence

from solver.twenty_two.options import TwentyTwoOptions
from solver.twenty_two.ranking import (Ranks, best_r, follow_rule_r, follows_r, leads_r,
                                    lowest_r, show_rank_r, target_r, trick_winner_r)


def cheapest_beat_r(hand: Ranks, target: Ranks) -> list[int] | None:
    """The lowest naturals that beat or tie ``target`` position by position (greedy: the
    largest target card takes the smallest card that reaches it), or ``None``."""
    need = sorted((r if r else 14 for r in target), reverse=True)
    avail = sorted(r for r in hand if r)
    out = []
    for t in need:
        i = next((i for i, r in enumerate(avail) if r >= t), None)
        if i is None:
            return None
        out.append(avail.pop(i))
    return out


def choose(hand: Ranks, trick: Sequence[Ranks], opts: TwentyTwoOptions, rng: random.Random,
           explore: bool = False) -> tuple[int, ...]:
    """A legal play (ranks) for a player holding ``hand`` with ``trick`` played so far."""
    h = len(hand)
    if not trick:
        leads = leads_r(hand, opts)
        if explore:
            return rng.choice(leads)
        if h == 2:  # the lead decides the last card: keep the lower one
            return max(leads, key=lambda p: show_rank_r(p[0]))
        r = rng.choice(sorted({max(p) for p in leads}))  # the rank led (0: jokers alone)
        return rng.choice([p for p in leads if max(p) == r])
    lead = trick[0]
    n = len(lead)
    target = target_r(trick, opts)
    if explore:
        return rng.choice(follows_r(hand, trick, opts))
    if h - n == 1:  # keep the lowest card the rules allow
        for keep in sorted(set(hand), key=show_rank_r):
            rest = list(hand)
            rest.remove(keep)
            if follow_rule_r(rest, hand, target, lead, opts) is None:
                return tuple(rest)
    options: list[tuple[int, ...]] = []
    for cand in (lowest_r(hand, n), cheapest_beat_r(hand, target), best_r(hand, n, opts)):
        if cand is None or len(cand) != n:
            continue
        cand = tuple(sorted(cand))
        if cand not in options and follow_rule_r(cand, hand, target, lead, opts) is None:
            options.append(cand)
    if not options:  # cannot happen with a legal hand; stay total anyway
        return rng.choice(follows_r(hand, trick, opts))
    return rng.choice(options)


def playout(hands: dict[str, list[int]], receivers: Sequence[str], leader: str,
            trick: Sequence[tuple[str, Ranks]], opts: TwentyTwoOptions, rng: random.Random,
            forced: tuple[str, Ranks] | None = None) -> dict[str, int]:
    """Play the hand out from this point with :func:`choose` (``forced``: the next play of
    that player) and return every player's last card's rank (TT-13)."""
    hands = {p: list(h) for p, h in hands.items()}
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
            play = tuple(forced[1])
            forced = None
        else:
            play = choose(hands[p], [c for _, c in trick], opts, rng)
        hp = hands[p]
        for r in play:
            hp.remove(r)
        trick.append((p, play))
        if len(trick) == len(order):
            leader = trick[trick_winner_r([c for _, c in trick], opts)][0]
            trick = []
    return {p: h[0] for p, h in hands.items() if h}


def losers(last: dict[str, int]) -> set[str]:
    """TT-14: everyone holding the top rank loses (a joker above an ace, TT-V2(g))."""
    top = max(show_rank_r(r) for r in last.values())
    return {p for p, r in last.items() if show_rank_r(r) == top}
