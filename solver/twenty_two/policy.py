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

import gc
import random
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from typing import Sequence

from solver.twenty_two.options import TwentyTwoOptions
from solver.twenty_two.ranking import (Ranks, beats_or_ties_r, best_r, follow_rule_r,
                                    follows_to_r, leads_r, lowest_r, show_rank_r, ACE, JK,
                                    target_r, trick_winner_r)


def cheapest_beat_r(hand: Ranks, target: Ranks) -> list[int] | None:
    """The lowest naturals that beat or tie ``target`` position by position (greedy: the
    largest target card takes the smallest card that reaches it), or ``None``."""
    need = sorted((r if r else 14 for r in target), reverse=True)
    avail = sorted(filter(None, hand))   # (a copy: it is used up)
    out = []
    for t in need:
        i = bisect_left(avail, t)          # the smallest card that reaches t
        if i == len(avail):
            return None
        out.append(avail.pop(i))
    return out


def choose(hand: Ranks, trick: Sequence[Ranks], opts: TwentyTwoOptions, rng: random.Random,
           explore: bool = False) -> tuple[int, ...]:
    """A legal play (ranks) for a player holding ``hand`` with ``trick`` played so far."""
    menus = _menus(opts, explore)
    if not trick:
        return _pick(_menu(menus, tuple(hand), None, None, opts, explore), rng)
    lead, target = tuple(trick[0]), tuple(target_r(trick, opts))
    return _pick(_menu(menus, tuple(hand), lead, target, opts, explore), rng)


def _pick(menu, rng: random.Random) -> tuple[int, ...]:
    """The play a :func:`_menu` leaves to chance: one ``rng.choice`` per level."""
    kind, items = menu
    if kind == "fixed":
        return items
    if kind == "lead":      # a rank, then a lead of that rank
        ranks_led, by_rank = items
        return rng.choice(by_rank[rng.choice(ranks_led)])
    return rng.choice(items)


def _draw(menu, rnd) -> tuple[int, ...]:
    """:func:`_pick` for the playouts, with ``rnd`` = ``rng.random``: one uniform draw
    per level that has a choice (none for a single option), cheaper than ``rng.choice``.
    The simulator keeps :func:`_pick`, so that a seed still gives the same game."""
    kind, items = menu
    if kind == "fixed":
        return items
    if kind == "lead":
        ranks_led, by_rank = items
        items = by_rank[ranks_led[int(rnd() * len(ranks_led))] if len(ranks_led) > 1
                        else ranks_led[0]]
    return items[int(rnd() * len(items))] if len(items) > 1 else items[0]


#: menus already worked out, per (options, explore): (hand, lead, target) -> menu.  A
#: playout meets the same hands again and again (the analysis plays out every legal play
#: on the same deals), and the menu is a pure function of its key.
_MENUS: dict = {}
_MENUS_MAX = 100_000       # (about 30 000 an analysis of a big table; some 25 MB)


def _menus(opts: TwentyTwoOptions, explore: bool) -> dict:
    if sum(map(len, _MENUS.values())) >= _MENUS_MAX:
        _MENUS.clear()
    return _MENUS.setdefault((opts, explore), {})


def _menu(menus: dict, hand: tuple[int, ...], lead: tuple[int, ...] | None,
          target: tuple[int, ...] | None, opts: TwentyTwoOptions, explore: bool):
    """What :func:`choose` may play: ``("fixed", play)``, ``("any", plays)`` (one of them
    uniformly) or ``("lead", (ranks, {rank: leads}))`` (a rank, then one of its leads);
    ``menus``: :func:`_menus` of ``opts`` and ``explore``."""
    key = (hand, lead, target)
    menu = menus.get(key)
    if menu is None:
        menu = menus[key] = _work_out_menu(hand, lead, target, opts, explore)
    return menu


def _work_out_menu(hand, lead, target, opts, explore):
    h = len(hand)
    if lead is None:
        leads = leads_r(hand, opts)
        if explore:
            return ("any", leads)
        if h == 2:  # the lead decides the last card: keep the lower one
            return ("fixed", max(leads, key=lambda p: show_rank_r(p[0])))
        by_rank: dict[int, list] = {}
        for p in leads:          # the rank led (0: jokers alone)
            by_rank.setdefault(max(p), []).append(p)
        return ("lead", (sorted(by_rank), by_rank))
    n = len(lead)
    if explore:
        return ("any", follows_to_r(hand, lead, target, opts))
    if h - n == 1:  # keep the lowest card the rules allow
        for keep in sorted(set(hand), key=show_rank_r):
            rest = list(hand)
            rest.remove(keep)
            if follow_rule_r(rest, hand, target, lead, opts) is None:
                return ("fixed", tuple(rest))
    nat = sorted(filter(None, hand))
    if opts.rasmussen:
        return ("any", _follow_options(hand, lead, target, opts, nat))
    if n == 1:
        return ("any", _follow_one(nat, target[0]))
    return ("any", _follow_plain(hand, nat, n, target, opts))


def _follow_options(hand, lead, target, opts, nat) -> list[tuple[int, ...]]:
    """The follows :func:`choose` picks from (``nat``: the hand's naturals, sorted)."""
    # the n lowest worked out once for every check of TT-10(b)
    n = len(lead)
    low = lowest_r(hand, n, nat)
    options: list[tuple[int, ...]] = []
    cand: Sequence[int] | None
    for cand in (low, cheapest_beat_r(nat, target), best_r(hand, n, opts, nat)):
        if cand is None or len(cand) != n:
            continue
        cand = tuple(sorted(cand))
        if cand not in options and follow_rule_r(cand, hand, target, lead, opts,
                                                 lowest=low) is None:
            options.append(cand)
    if not options:  # cannot happen with a legal hand; stay total anyway
        return follows_to_r(hand, lead, target, opts)
    return options


def _follow_plain(hand, nat: list[int], n: int, target, opts) -> list[tuple[int, ...]]:
    """:func:`_follow_options` without ``rasmussen``, with one rule check instead of three:
    the n lowest are always legal (they beat or tie the target, or are the lowest; TT-10),
    the cheapest naturals that beat or tie always are (no jokers), and the strongest are
    when they beat or tie (their jokers are within A7), else they are not the lowest.
    ``tests/test_twenty_two_policy`` checks it against the general rules."""
    low = tuple(sorted(lowest_r(hand, n, nat)))
    out = [low]
    cheap: Sequence[int] | None = cheapest_beat_r(nat, target)
    if cheap is not None:
        cheap = tuple(sorted(cheap))
        if cheap not in out:
            out.append(cheap)
    best: Sequence[int] | None = best_r(hand, n, opts, nat)
    if best is not None:
        best = tuple(sorted(best))
        if best not in out and beats_or_ties_r(best, target):
            out.append(best)
    return out


def _follow_one(nat: list[int], t: int) -> list[tuple[int, ...]]:
    """:func:`_follow_options` for a one-card lead without ``rasmussen`` (three in four
    of a playout's choices), worked out directly: the lowest card (always legal: it beats
    the target or is the lowest), the cheapest that beats or ties ``t`` (TT-11; a joker
    counts as an ace, TT-V2(c)) and the highest natural (legal when it beats or ties, or
    is also the lowest).  A hand of jokers alone plays a joker.  ``tests/test_twenty_two_policy``
    checks it against the general rules."""
    if not nat:
        return [(JK,)]
    lowest = (nat[0],)
    out: list[tuple[int, ...]] = [lowest]
    tt = t or ACE
    i = bisect_left(nat, tt)
    if i < len(nat) and nat[i] != nat[0]:
        out.append((nat[i],))
    top = nat[-1]
    if top >= tt and top != nat[0] and (i == len(nat) or top != nat[i]):
        out.append((top,))
    return out


def playout(hands: dict[str, list[int]], receivers: Sequence[str], leader: str,
            trick: Sequence[tuple[str, Ranks]], opts: TwentyTwoOptions, rng: random.Random,
            forced: tuple[str, Ranks] | None = None) -> dict[str, int]:
    """Play the hand out from this point with :func:`choose` (``forced``: the next play of
    that player) and return every player's last card's rank (TT-13)."""
    # hands kept sorted: a hand's menu is then found again whatever order it came in
    hands = {p: sorted(h) for p, h in hands.items()}
    plays = [tuple(c) for _, c in trick]
    order = list(receivers)
    seat = {p: i for i, p in enumerate(order)}
    n = len(order)
    i = seat[trick[-1][0]] if trick else None
    # the trick's target (what a follower must beat or tie, target_r), kept as it grows:
    # the latest play that beats or ties the best so far (TT-12), the lead under rasmussen
    best = trick_winner_r(plays, opts) if plays else 0
    menus = _menus(opts, False)
    rnd = rng.random
    track_best = not opts.rasmussen  # (rasmussen: the target is the lead)
    while True:
        if not plays:
            if len(hands[order[0]]) <= 1:
                break
            i = seat[leader]
        else:
            assert i is not None  # set from the trick, or by the lead
            i = (i + 1) % n
        p = order[i]
        if forced is not None and forced[0] == p:
            play = tuple(forced[1])
            forced = None
        elif not plays:
            play = _draw(_menu(menus, tuple(hands[p]), None, None, opts, False), rnd)
        elif track_best and len(plays[0]) == 1 and len(hands[p]) > 2:
            # a one-card follow without rasmussen (TT-10, TT-11; three in four of the
            # choices) that does not decide the last card: the menu _work_out_menu gives
            # it, _follow_one of the naturals (the sorted hand past its jokers), is
            # cheaper to work out than to look up by the whole hand, which is mostly new
            hp = hands[p]
            play = _draw(("any", _follow_one(hp[bisect_right(hp, JK):], plays[best][0])),
                         rnd)
        else:
            target = plays[0] if opts.rasmussen else plays[best]
            play = _draw(_menu(menus, tuple(hands[p]), plays[0], target, opts, False), rnd)
        hp = hands[p]
        for r in play:
            hp.remove(r)
        if plays and track_best:
            cur = plays[best]
            if (((play[0] or ACE) >= (cur[0] or ACE)) if len(play) == 1
                    else beats_or_ties_r(play, cur)):        # TT-11, as beats_or_ties_r
                best = len(plays)
        plays.append(play)
        if len(plays) == n:
            w = trick_winner_r(plays, opts) if opts.rasmussen else best
            leader = order[(i + 1 + w) % n]     # the trick began at the seat after i
            plays = []
            best = 0
    return {p: h[0] for p, h in hands.items() if h}


@contextmanager
def gc_paused():
    """No cyclic garbage collection inside (the sampled deals and their playouts): they
    make no reference cycles, but allocate tens of thousands of tuples and lists, and the
    menus kept in :data:`_MENUS` (up to 100 000 containers) made every full collection
    walk them all: half the time of a big table's analysis (the slowest Twenty-Six state,
    1.09 -> 0.58 s).  Collection resumes, as it was, on the way out.

    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def losers(last: dict[str, int]) -> set[str]:
    """TT-14: everyone holding the top rank loses (a joker above an ace, TT-V2(g))."""
    top = max(show_rank_r(r) for r in last.values())
    return {p for p, r in last.items() if show_rank_r(r) == top}
