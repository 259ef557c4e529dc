"""An independent exhaustive solver for :func:`solver.hand.best.best`: the reference the
tests and ``benchmarks/hand_best.py`` compare against.

It shares nothing with the optimiser but the meld judge: every subset of the physical cards
that could be a meld (at most one wild, HR-14, two with ``wilds-per-meld=2``; naturals of one suit or one rank, HR-12/13) is
judged by :func:`~solver.hand.melds.analyse_meld`, and a memoised search over the remaining
cards (a bit mask) tries every way to combine disjoint melds.  Exponential; fine up to 15
cards, slow beyond.

>>> from solver.cards import parse_cards, Card
>>> brute_force(parse_cards("AH 2H 3H 4H 5H 9H 9S 9D"), Card.parse("7S"))  # 5H left (HR-30)
BruteResult(value=47, can_go_out=True, multiplier=1)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solver.cards import Card
from solver.hand.melds import analyse_meld, wild_limit
from solver.hand.options import HandOptions
from solver.hand.regime import make_regime


@dataclass(frozen=True)
class BruteResult:
    """``value``: best total leaving >= 1 card (HR-30); ``can_go_out``: all but one card
    (or both wilds, ``bonus-two-wilds``) meldable; ``multiplier``: the best HR-59 factor of
    a Full Hand (15 cards), 1 for other hands that can go out, 0 if none."""

    value: int
    can_go_out: bool
    multiplier: int


def meld_masks(hand: list[Card], regime, options) -> dict[int, int]:
    """Bit mask of every valid meld among the physical cards -> its best value."""
    n = len(hand)
    wild = [regime.is_wild(c) for c in hand]
    nat = [None if wild[i] else regime.natural(hand[i]) for i in range(n)]
    found: dict[int, int] = {}
    limit = wild_limit(options)

    def grow(start: int, mask: int, members: list[int], wilds: int, suit, rank):
        if len(members) >= 3:
            rep = analyse_meld([hand[i] for i in members], regime, options)
            if rep.valid:
                value = rep.best_value
                assert value is not None   # a valid meld has a reading
                found[mask] = value
        for j in range(start, n):
            if wild[j]:
                if wilds >= limit:
                    continue
                grow(j + 1, mask | 1 << j, members + [j], wilds + 1, suit, rank)
                continue
            c = nat[j]
            assert c is not None   # j is not wild
            s = suit if suit in (None, c.suit) else False
            r = rank if rank in (None, c.rank) else False
            if s is False and r is False:
                continue
            grow(j + 1, mask | 1 << j, members + [j], wilds, c.suit if s is not False else False,
                 c.rank if r is not False else False)

    grow(0, 0, [], 0, None, None)
    return found


def _factor(cards: list[Card], regime, options) -> int:
    nats = [regime.natural(c) for c in cards if not regime.is_wild(c)
            and not (c.is_joker and options.bonus_jokers == "ignore")]
    if not nats:
        return 1
    if options.bonus_suit and len({c.suit for c in nats}) == 1:
        return 4
    if options.bonus_colour and len({c.suit in "HD" for c in nats}) == 1:
        return 2
    return 1


def brute_force(hand: list[Card], indicator: Card | None,
                options: HandOptions | None = None) -> BruteResult:
    options = options or HandOptions()
    regime = make_regime(indicator, options)
    n = len(hand)
    full = (1 << n) - 1
    melds = meld_masks(hand, regime, options)
    by_low: dict[int, list[tuple[int, int]]] = {}
    for m, v in melds.items():
        low = (m & -m).bit_length() - 1
        by_low.setdefault(low, []).append((m, v))

    @lru_cache(maxsize=None)
    def most(mask: int) -> int:
        if not mask:
            return 0
        low = (mask & -mask).bit_length() - 1
        best_v = most(mask & ~(1 << low))
        for m, v in by_low.get(low, ()):
            if m & mask == m:
                best_v = max(best_v, v + most(mask & ~m))
        return best_v

    @lru_cache(maxsize=None)
    def covers(mask: int) -> bool:
        if not mask:
            return True
        low = (mask & -mask).bit_length() - 1
        return any(m & mask == m and covers(mask & ~m) for m, _ in by_low.get(low, ()))

    value = max((most(full & ~(1 << i)) for i in range(n)), default=0)
    mult = 0
    is_full = n == 15
    wild_idx = [i for i in range(n) if regime.is_wild(hand[i])]
    for i in range(n):
        rest = full & ~(1 << i)
        if rest and covers(rest):
            m = 1
            if is_full:
                m = _factor([hand[j] for j in range(n) if rest >> j & 1], regime, options)
                if i in wild_idx and options.bonus_wild_discard:
                    m *= 2
            mult = max(mult, m)
    if is_full and options.bonus_two_wilds and len(wild_idx) == 2:
        rest = full & ~(1 << wild_idx[0]) & ~(1 << wild_idx[1])
        if covers(rest):
            mult = max(mult, 4 * _factor([hand[j] for j in range(n) if rest >> j & 1], regime,
                                         options))
    return BruteResult(value, mult > 0, mult)


def verify_plan(plan, hand: list[Card], regime, options) -> None:
    """Raise ``AssertionError`` unless every meld of ``plan`` is valid with its value under
    the meld judge, and melds, cards left and discards are exactly ``hand``."""
    used = [c for m in plan.melds for c in m] + list(plan.left) + list(plan.discards)
    if sorted(used, key=repr) != sorted(hand, key=repr):
        raise AssertionError(f"plan cards {used} are not the hand {hand}")
    if sum(r.value for r in plan.readings) != plan.value:
        raise AssertionError("plan value is not the sum of its melds")
    for cards, reading in zip(plan.melds, plan.readings):
        rep = analyse_meld(cards, regime, options)
        if not rep.valid or reading.value not in [r.value for r in rep.readings]:
            raise AssertionError(f"plan meld {cards} is not valid as read: {rep.reason}")
