"""Twenty-Two plays: ranks and values, the beat-or-tie test, lowest cards, legal plays and
trick winners (TT-2, TT-3, TT-9..TT-13, TT-V1, TT-V2, A5, A7, A8, A10).

Suits never matter (TT-1, A10), so the rules work on *ranks*: 2..14 (ace high, TT-2) and 0 for
a joker, which takes a natural rank inside a play (TT-V2(c,d), A7) and ranks above the ace at
the showdown (TT-V2(g)).  The functions named ``*_r`` take sorted-or-not sequences of ranks;
the others take :class:`solver.cards.Card` and are what the rules engine and the analysis use.

The beat-or-tie test of TT-11 (sorted, pairwise):

>>> from solver.cards import parse_cards as C
>>> beats_or_ties(C("7S QH"), C("7H 7D")), beats_or_ties(C("8S JH"), C("7H 7D"))
(True, True)
>>> beats_or_ties(C("JC 7D 6S"), C("5H 5S 5D")), beats_or_ties(C("KH 7C 7S"), C("JC 7D 6S"))
(True, True)
>>> beats_or_ties(C("KS KD 6H"), C("10C 9D 7S")), lowest_cards(C("KS KD 6H 3C 3D 2S 2H"), 3)
(False, [2S, 2H, 3D])
"""
from __future__ import annotations

from typing import Iterable, Sequence

from solver.cards import Card
from solver.twenty_two.options import TwentyTwoOptions

JK = 0                 # a joker's rank in a hand
ACE = 14
JOKER_SHOWDOWN = 15    # TT-V2(g): a joker counts higher than an ace at the showdown

Ranks = Sequence[int]


def hr(card: Card) -> int:
    """Rank with the ace high (2..14, TT-2); 0 for a joker."""
    return JK if card.rank == 0 else (14 if card.rank == 1 else card.rank)


def ranks(cards: Iterable[Card]) -> list[int]:
    return [hr(c) for c in cards]


def show_rank(card: Card) -> int:
    """Rank at the showdown (TT-13, TT-V2(g))."""
    return JOKER_SHOWDOWN if card.rank == 0 else hr(card)


def show_rank_r(r: int) -> int:
    return JOKER_SHOWDOWN if r == JK else r


def value(card: Card) -> int:
    """Scoring value (TT-3): A = 11, K Q J = 10, others their pips; a joker 13 (TT-V2(g)).

    >>> [value(c) for c in (Card(1, "S"), Card(12, "H"), Card(7, "D"), Card(0, ""))]
    [11, 10, 7, 13]
    """
    if card.is_joker:
        return 13
    if card.rank == 1:
        return 11
    return min(card.rank, 10)


def rank_label(r: int) -> str:
    """2..14 -> ``2``..``A``; a joker (0 or 15) -> ``Jk``."""
    if r in (JK, JOKER_SHOWDOWN):
        return "Jk"
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(r, str(r))


def rank_key(cards: Iterable[Card]) -> tuple[int, ...]:
    """The multiset of ranks, sorted: two plays with equal keys are the same play (A10)."""
    return tuple(sorted(hr(c) for c in cards))


# ----- the rules on ranks ------------------------------------------------------------------
def effective_r(play: Ranks) -> list[int]:
    """The ranks a play counts as, high to low: each joker takes the rank of the highest
    natural in the play (TT-V2(c,d), A7); jokers alone rank as aces (TT-V2(f)).

    >>> effective_r([0, 8]), effective_r([6, 6, 0]), effective_r([0, 0])
    ([8, 8], [6, 6, 6], [14, 14])
    """
    nat = sorted(filter(None, play), reverse=True)
    j = len(play) - len(nat)
    if not nat:
        return [ACE] * j
    return [nat[0]] * j + nat if j else nat


def beats_or_ties_r(q: Ranks, p: Ranks) -> bool:
    """TT-11: sorted high to low, q beats or ties p exactly when q_i >= p_i for every i."""
    if len(q) != len(p):
        return False
    if len(q) == 1:  # the common case, fast
        return (q[0] or ACE) >= (p[0] or ACE)
    return all(x >= y for x, y in zip(effective_r(q), effective_r(p)))


def lowest_r(hand: Ranks, n: int, nat: list[int] | None = None) -> list[int]:
    """The n lowest (TT-10(b)): the lowest naturals; jokers only when the hand has fewer than
    n naturals (TT-V2(e)).  ``nat``: the hand's naturals, sorted, when the caller has them.

    >>> lowest_r([0, 7, 3, 2], 3), lowest_r([0, 0, 3, 2], 3)
    ([2, 3, 7], [2, 3, 0])
    """
    if nat is None:
        nat = sorted(filter(None, hand))
    if len(nat) >= n:
        return nat[:n]
    return nat + [JK] * (n - len(nat))


def is_lowest_r(play: Ranks, hand: Ranks, lowest: Ranks | None = None) -> bool:
    """Whether ``play`` is the hand's n lowest (``lowest``: those, when known)."""
    return sorted(play) == sorted(lowest_r(hand, len(play)) if lowest is None else lowest)


def all_jokers_r(hand: Ranks) -> bool:
    return bool(hand) and not any(hand)


def _max_jokers(n: int, opts: TwentyTwoOptions) -> int:
    """How many jokers an n-card play that needs a natural may hold (TT-V2(b), A7)."""
    return n // 2 if opts.jokers_per_natural == "one" else n - 1


def best_r(hand: Ranks, n: int, opts: TwentyTwoOptions,
           naturals: list[int] | None = None) -> list[int] | None:
    """The strongest n cards the hand can play by choice (any other choice is at most as high,
    position by position): the top natural, as many jokers as allowed, then the next
    naturals; a hand of jokers alone plays jokers (TT-V2(f)).  ``naturals``: the hand's
    naturals sorted low to high, when the caller has them."""
    if len(hand) < n:
        return None
    if all_jokers_r(hand):
        return [JK] * n
    nat = (sorted(filter(None, hand), reverse=True) if naturals is None
           else naturals[::-1])
    jok = len(hand) - len(nat)
    for j in range(min(jok, _max_jokers(n, opts)), -1, -1):
        if 1 <= n - j <= len(nat):
            return nat[:1] + [JK] * j + nat[1:n - j]
    return None


def can_beat_r(hand: Ranks, target: Ranks, opts: TwentyTwoOptions) -> bool:
    """Whether some n cards of the hand beat or tie ``target`` (TT-11, TT-V1(a))."""
    best = best_r(hand, len(target), opts)
    return best is not None and beats_or_ties_r(best, target)


def lead_rule_r(play: Ranks, hand_size: int, hand: Ranks | None,
                opts: TwentyTwoOptions) -> str | None:
    """The rule a lead breaks, or ``None``; ``hand`` is the leader's whole hand when known."""
    n = len(play)
    if n < 1 or n > hand_size - 1:
        return "TT-9"
    if n > max_lead(opts):  # four-card-leads=forbidden (a house rule on TT-9)
        return "TT-9"
    nat = {r for r in play if r}
    if len(nat) > 1:
        return "TT-9"
    jokers = play.count(JK)
    if jokers:
        if not nat:
            if hand is not None and not all_jokers_r(hand):
                return "TT-V2(b)"
        elif opts.jokers_per_natural == "one" and jokers > n - jokers:
            return "A7"
    return None


def follow_rule_r(play: Ranks, hand: Ranks, target: Ranks, lead: Ranks,
                  opts: TwentyTwoOptions, lowest: Ranks | None = None) -> str | None:
    """The rule a follow by a player holding ``hand`` (before it) breaks, or ``None``.
    ``target`` is the current highest play (TT-10, TT-12), ``lead`` the led cards;
    ``lowest``: the hand's n lowest (:func:`lowest_r`), when the caller has them."""
    n = len(lead)
    if len(play) != n:
        return "TT-10"
    jokers = play.count(JK)
    if jokers == n and not all_jokers_r(hand):
        return "TT-V2(b)"
    if opts.rasmussen:
        if beats_or_ties_r(play, lead):
            return None
        if can_beat_r(hand, lead, opts) or not is_lowest_r(play, hand, lowest):
            return "TT-V1(a)"
        return None
    if beats_or_ties_r(play, target):
        if (jokers and opts.jokers_per_natural == "one" and jokers > n - jokers
                and not is_lowest_r(play, hand, lowest) and not all_jokers_r(hand)):
            return "A7"
        return None
    if not is_lowest_r(play, hand, lowest):
        return "TT-10"
    return None


def uniform_rank_r(play: Ranks) -> bool:
    return len(set(play)) == 1 and play[0] != JK


def trick_winner_r(plays: Sequence[Ranks], opts: TwentyTwoOptions) -> int:
    """Index of the winning play (TT-12; TT-V1(b,c) and A8 under ``rasmussen``)."""
    if opts.rasmussen:
        if len(plays[0]) == 1:  # TT-V1(c): the highest card; equal cards -> the last
            best = 0
            for i in range(1, len(plays)):
                if plays[i][0] >= plays[best][0]:
                    best = i
            return best
        best = 0  # TT-V1(b): only sets of one rank win (the lead is one)
        for i in range(1, len(plays)):
            if not uniform_rank_r(plays[i]):
                continue
            a, b = plays[i][0], plays[best][0]
            if a > b or (a == b and opts.rasmussen_ties == "last"):  # A8
                best = i
        return best
    best = 0
    for i in range(1, len(plays)):
        if beats_or_ties_r(plays[i], plays[best]):
            best = i
    return best


def target_r(plays: Sequence[Ranks], opts: TwentyTwoOptions) -> Ranks:
    """What the next follower must beat or tie to escape the lowest-cards rule: the current
    highest play (TT-10, TT-12), or the lead under ``rasmussen`` (TT-V1(a))."""
    if opts.rasmussen:
        return plays[0]
    return plays[trick_winner_r(plays, opts)]


def max_lead(opts: TwentyTwoOptions) -> int:
    """The most cards a lead may have: 3 under ``four-card-leads=forbidden`` (TT-9 house
    rule), else any number (keeping one card)."""
    return 3 if opts.four_card_leads == "forbidden" else 10 ** 6


def leads_r(hand: Ranks, opts: TwentyTwoOptions) -> list[tuple[int, ...]]:
    """Every distinct lead: 1..k cards of one rank held, jokers joining (TT-V2(c), A7),
    keeping at least one card (TT-9, A5); jokers alone from a hand of jokers (TT-V2(f))."""
    h = min(len(hand), max_lead(opts) + 1)   # keep one card (TT-9); at most max_lead led
    jok = hand.count(JK)
    if all_jokers_r(hand):
        return [(JK,) * j for j in range(1, h)]
    counts: dict[int, int] = {}
    for r in hand:
        if r:
            counts[r] = counts.get(r, 0) + 1
    out = []
    for r in sorted(counts):
        for k in range(1, counts[r] + 1):
            for j in range(0, jok + 1):
                if k + j > h - 1 or (j and opts.jokers_per_natural == "one" and j > k):
                    break
                out.append((r,) * k + (JK,) * j)
    return out


def choices_r(hand: Ranks, n: int) -> list[tuple[int, ...]]:
    """Every distinct choice of n cards from the hand, up to suits (A10)."""
    counts: dict[int, int] = {}
    for r in hand:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items())
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]):
        if left == 0:
            out.append(acc)
            return
        if i == len(groups) or sum(k for _, k in groups[i:]) < left:
            return
        r, k = groups[i]
        for t in range(min(k, left), -1, -1):
            rec(i + 1, left - t, acc + (r,) * t)

    rec(0, n, ())
    return out


def follows_r(hand: Ranks, plays: Sequence[Ranks], opts: TwentyTwoOptions
              ) -> list[tuple[int, ...]]:
    """Every distinct legal follow to the trick so far (TT-10, TT-V1(a), TT-V2)."""
    return follows_to_r(hand, plays[0], target_r(plays, opts), opts)


def follows_to_r(hand: Ranks, lead: Ranks, target: Ranks, opts: TwentyTwoOptions
                 ) -> list[tuple[int, ...]]:
    """:func:`follows_r` given the trick's lead and its target (:func:`target_r`)."""
    return [p for p in choices_r(hand, len(lead))
            if follow_rule_r(p, hand, target, lead, opts) is None]


# ----- the same on cards ---------------------------------------------------------------------
def beats_or_ties(q: Sequence[Card], p: Sequence[Card]) -> bool:
    """TT-11 on cards.

    >>> from solver.cards import parse_cards as C
    >>> beats_or_ties(C("Jk KS JH"), C("KD QC 9S")), beats_or_ties(C("Jk QS JH"), C("KD QC 9S"))
    (True, False)
    >>> beats_or_ties(C("6S 8H 9D"), C("6C 6D Jk"))
    True
    """
    return beats_or_ties_r(ranks(q), ranks(p))


def pick(hand: Sequence[Card], want: Iterable[int]) -> list[Card]:
    """Cards of the hand with the given ranks (any of equal rank, A10), lowest suit first."""
    pool = sorted(hand, key=lambda c: (hr(c), c.sort_key()))
    out = []
    for r in want:
        c = next(c for c in pool if hr(c) == r)
        pool.remove(c)
        out.append(c)
    return out


def lowest_cards(hand: Sequence[Card], n: int) -> list[Card]:
    """The n lowest cards (TT-10(b), TT-V2(e)).

    >>> from solver.cards import parse_cards as C
    >>> lowest_cards(C("Jk 7S 3H 2D"), 3), lowest_cards(C("Jk Jk 3H 2D"), 3)
    ([2D, 3H, 7S], [2D, 3H, Jk])
    """
    return pick(hand, lowest_r(ranks(hand), n))


def _fmt(cards: Iterable[Card]) -> str:
    return " ".join(repr(c) for c in cards)


def lead_problem(play: Sequence[Card], hand_size: int, hand: Sequence[Card] | None,
                 opts: TwentyTwoOptions) -> tuple[str, str] | None:
    """Why ``play`` cannot be led, as (rule, message); ``None`` when it can."""
    rule = lead_rule_r(ranks(play), hand_size, None if hand is None else ranks(hand), opts)
    if rule is None:
        return None
    n = len(play)
    if rule == "TT-9" and n >= 4 and opts.four_card_leads == "forbidden":
        return rule, f"a lead has at most 3 cards under four-card-leads=forbidden, not {n}"
    if rule == "TT-9" and n > hand_size - 1:
        return rule, (f"the leader must keep at least 1 card: {n} led from a hand of "
                      f"{hand_size} (A5)")
    return rule, {
        "TT-9": "a lead is one card or several cards of the same rank",
        "TT-V2(b)": "a lead of jokers alone needs a hand of jokers alone (TT-V2(f))",
        "A7": "with jokers-per-natural=one each joker needs its own natural card",
    }[rule]


def follow_problem(play: Sequence[Card], hand: Sequence[Card], target: Sequence[Card],
                   lead: Sequence[Card], opts: TwentyTwoOptions) -> tuple[str, str] | None:
    """Why a follower holding ``hand`` (before the play) cannot play ``play``, as (rule,
    message); ``None`` when it can."""
    h = ranks(hand)
    rule = follow_rule_r(ranks(play), h, ranks(target), ranks(lead), opts)
    if rule is None:
        return None
    n = len(lead)
    low = _fmt(lowest_cards(hand, n)) if len(hand) >= n else ""
    return rule, {
        "TT-10": (f"each follower plays exactly {n} card(s), the number led"
                  if len(play) != n else
                  "a play that does not beat or tie the highest play so far (" + _fmt(target)
                  + ", TT-11) must be the player's " + f"{n} lowest cards: {low}"),
        "TT-V2(b)": "a play of jokers alone needs a hand of jokers alone (TT-V2(f))",
        "TT-V1(a)": ("following is compulsory: this hand can beat or tie the lead "
                     + _fmt(lead) + ", so it must" if can_beat_r(h, ranks(lead), opts) else
                     f"a hand that cannot beat or tie the lead must play its {n} lowest cards: "
                     + low),
        "A7": "with jokers-per-natural=one each joker needs its own natural card",
    }[rule]


def trick_winner(plays: Sequence[Sequence[Card]], opts: TwentyTwoOptions) -> int:
    """Index of the winning play (TT-12; TT-V1(b,c), A8).

    >>> from solver.cards import parse_cards as C
    >>> trick_winner([C("6S 6H"), C("QD 10C"), C("7S 7C")], TwentyTwoOptions(rasmussen=True))
    2
    >>> trick_winner([C("6S 6H"), C("QD 10C"), C("7S 7C")], TwentyTwoOptions())
    1
    """
    return trick_winner_r([ranks(p) for p in plays], opts)


def target_of(plays: Sequence[Sequence[Card]], opts: TwentyTwoOptions) -> Sequence[Card]:
    if opts.rasmussen:
        return plays[0]
    return plays[trick_winner(plays, opts)]


def legal_leads(hand: Sequence[Card], opts: TwentyTwoOptions) -> list[tuple[Card, ...]]:
    """Every distinct lead, as cards of the hand (A10)."""
    return [tuple(pick(hand, p)) for p in leads_r(ranks(hand), opts)]


def legal_follows(hand: Sequence[Card], plays: Sequence[Sequence[Card]],
                  opts: TwentyTwoOptions) -> list[tuple[Card, ...]]:
    """Every distinct legal follow, as cards of the hand (A10)."""
    return [tuple(pick(hand, p))
            for p in follows_r(ranks(hand), [ranks(p) for p in plays], opts)]
