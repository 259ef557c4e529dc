"""A simple model of how players choose their plays, for the showdown risk (I6) and the
simulator.  It is an *assumption*, stated wherever a probability depends on it:

* a play that decides the player's last card (it leaves one card) keeps the lowest card the
  rules allow -- always the best choice for that player (only the highest card loses, TT-13);
* otherwise the player picks uniformly among a few sensible legal plays: the n lowest cards
  (when legal), the cheapest cards that beat or tie, and the strongest cards that do; a
  leader picks a random rank held and a random number of those cards (TT-9, A5).

``explore`` (the simulator) picks uniformly among *all* distinct legal plays instead, now
and then, so that simulated games exercise every kind of play.

>>> import random
>>> from solver.cards import parse_cards as C
>>> from solver.twenty_two.options import TwentyTwoOptions
>>> choose(C("KS KD 6H 3C 3D 2S 2H"), [("A", tuple(C("5S 5H 5D"))), ("B", tuple(C("10C 9D 7S")))],
...        TwentyTwoOptions(), random.Random(1))   # TT-11: must play the lowest three
(2S, 2H, 3D)
"""
from __future__ import annotations

import random
from typing import Sequence

from solver.cards import Card
from solver.twenty_two.options import TwentyTwoOptions
from solver.twenty_two.play import (best_play, follow_problem, hr, legal_follows, legal_leads,
                                    lowest_cards, rank_key, show_rank, target_of, trick_winner)


def cheapest_beat(hand: Sequence[Card], target: Sequence[Card]) -> list[Card] | None:
    """The lowest naturals that beat or tie ``target`` position by position (greedy: the
    largest target card takes the smallest card that reaches it), or ``None``."""
    need = sorted((hr(c) if not c.is_joker else 14 for c in target), reverse=True)
    avail = sorted((c for c in hand if not c.is_joker), key=hr)
    out = []
    for t in need:
        pick = next((c for c in avail if hr(c) >= t), None)
        if pick is None:
            return None
        avail.remove(pick)
        out.append(pick)
    return out


def choose(hand: Sequence[Card], trick: Sequence[tuple[str, Sequence[Card]]],
           opts: TwentyTwoOptions, rng: random.Random, explore: bool = False) -> tuple[Card, ...]:
    """A legal play for a player holding ``hand`` with ``trick`` played so far."""
    hand = list(hand)
    h = len(hand)
    if not trick:
        leads = legal_leads(hand, opts)
        if explore:
            return rng.choice(leads)
        if h == 2:  # the lead decides the last card: keep the lower one
            return max(leads, key=lambda p: show_rank(p[0]) if p else 0)
        ranks = sorted({max(rank_key(p)) for p in leads})  # the rank led (0: jokers alone)
        r = rng.choice(ranks)
        return rng.choice([p for p in leads if max(rank_key(p)) == r])
    plays = [tuple(c) for _, c in trick]
    lead = plays[0]
    n = len(lead)
    target = target_of(plays, opts)
    if h - n == 1 and not explore:  # keep the lowest card the rules allow
        for keep in sorted(hand, key=show_rank):
            rest = list(hand)
            rest.remove(keep)
            if follow_problem(rest, hand, target, lead, opts) is None:
                return tuple(rest)
    if explore:
        return rng.choice(legal_follows(hand, plays, opts))
    options = []
    for cand in (lowest_cards(hand, n), cheapest_beat(hand, target), best_play(hand, n, opts)):
        if cand is None or len(cand) != n:
            continue
        if follow_problem(cand, hand, target, lead, opts) is None:
            if all(rank_key(cand) != rank_key(o) for o in options):
                options.append(tuple(cand))
    if not options:  # cannot happen with a legal hand; stay total anyway
        return rng.choice(legal_follows(hand, plays, opts))
    return rng.choice(options)


def playout(hands: dict[str, list[Card]], receivers: Sequence[str], leader: str,
            trick: Sequence[tuple[str, Sequence[Card]]], opts: TwentyTwoOptions,
            rng: random.Random, forced: tuple[str, Sequence[Card]] | None = None
            ) -> dict[str, Card]:
    """Play the hand out from this point with :func:`choose` (``forced``: the next play of
    that player is this one) and return every player's last card (TT-13)."""
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
            play = choose(hands[p], trick, opts, rng)
        for c in play:
            hands[p].remove(c)
        trick.append((p, play))
        if len(trick) == len(order):
            leader = trick[trick_winner([c for _, c in trick], opts)][0]
            trick = []
    return {p: h[0] for p, h in hands.items() if h}


def losers(last: dict[str, Card]) -> set[str]:
    """TT-14: everyone holding the top rank loses."""
    top = max(show_rank(c) for c in last.values())
    return {p for p, c in last.items() if show_rank(c) == top}
