"""Twenty-Two plays: ranks and values, the beat-or-tie test, lowest cards, legal plays and
trick winners (TT-2, TT-3, TT-9..TT-13, TT-V1, TT-V2, A5, A7, A8, A10).

Cards are :class:`solver.cards.Card`; suits never matter (TT-1, A10), so plays are compared
as multisets of ranks.  Ranks run 2..14 (ace high, TT-2); a joker takes a natural rank inside
a play (TT-V2(c,d), A7) and ranks above the ace at the showdown (TT-V2(g)).

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

from collections import Counter
from typing import Iterable, Sequence

from solver.cards import Card

from solver.twenty_two.options import TwentyTwoOptions

JOKER_SHOWDOWN = 15  # TT-V2(g): a joker counts higher than an ace at the showdown
ACE = 14


def hr(card: Card) -> int:
    """Natural rank with the ace high (2..14, TT-2); 0 for a joker."""
    return 0 if card.is_joker else card.high_rank()


def show_rank(card: Card) -> int:
    """Rank at the showdown (TT-13, TT-V2(g))."""
    return JOKER_SHOWDOWN if card.is_joker else card.high_rank()


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
    """2..14 -> ``2``..``A``; 15 or 0 -> ``Jk``."""
    if r in (0, JOKER_SHOWDOWN):
        return "Jk"
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(r, str(r))


def rank_key(cards: Iterable[Card]) -> tuple[int, ...]:
    """The multiset of ranks (jokers 0), sorted: two plays with equal keys are the same play
    (A10)."""
    return tuple(sorted(hr(c) for c in cards))


def naturals(cards: Iterable[Card]) -> list[Card]:
    return [c for c in cards if not c.is_joker]


def effective(cards: Sequence[Card]) -> list[int]:
    """The ranks a play counts as, high to low: each joker takes the rank of the highest natural
    in the play (TT-V2(c,d), A7); jokers alone rank as aces (TT-V2(f)).

    >>> from solver.cards import parse_cards as C
    >>> effective(C("Jk 8S")), effective(C("6S 6H Jk")), effective(C("Jk Jk"))
    ([8, 8], [6, 6, 6], [14, 14])
    """
    nat = sorted((hr(c) for c in cards if not c.is_joker), reverse=True)
    j = len(cards) - len(nat)
    if not nat:
        return [ACE] * j
    return [nat[0]] * j + nat


def beats_or_ties(q: Sequence[Card], p: Sequence[Card]) -> bool:
    """TT-11: sorted high to low, q beats or ties p exactly when q_i >= p_i for every i.

    >>> from solver.cards import parse_cards as C
    >>> beats_or_ties(C("Jk KS JH"), C("KD QC 9S")), beats_or_ties(C("Jk QS JH"), C("KD QC 9S"))
    (True, False)
    >>> beats_or_ties(C("6S 8H 9D"), C("6C 6D Jk"))
    True
    """
    a, b = effective(q), effective(p)
    return len(a) == len(b) and all(x >= y for x, y in zip(a, b))


def lowest_cards(hand: Sequence[Card], n: int) -> list[Card]:
    """The n lowest cards (TT-10(b)): the lowest naturals; jokers only when the hand has fewer
    than n naturals (TT-V2(e)).  Among equal ranks any card will do (A10).

    >>> from solver.cards import parse_cards as C
    >>> lowest_cards(C("Jk 7S 3H 2D"), 3), lowest_cards(C("Jk Jk 3H 2D"), 3)
    ([2D, 3H, 7S], [2D, 3H, Jk])
    """
    nat = sorted(naturals(hand), key=lambda c: (hr(c), c.sort_key()))
    if len(nat) >= n:
        return nat[:n]
    jok = [c for c in hand if c.is_joker]
    return nat + jok[: n - len(nat)]


def is_lowest(play: Sequence[Card], hand: Sequence[Card]) -> bool:
    return rank_key(play) == rank_key(lowest_cards(hand, len(play)))


def all_jokers(cards: Iterable[Card]) -> bool:
    cards = list(cards)
    return bool(cards) and all(c.is_joker for c in cards)


def _max_jokers(n: int, opts: TwentyTwoOptions) -> int:
    """How many jokers an n-card play that needs a natural may hold (TT-V2(b), A7)."""
    return n // 2 if opts.jokers_per_natural == "one" else n - 1


def best_play(hand: Sequence[Card], n: int, opts: TwentyTwoOptions) -> list[Card] | None:
    """The strongest n cards the hand can play by choice (every other choice is at most as
    high, position by position): the top natural, as many jokers as allowed, then the next
    naturals; a hand of jokers only plays jokers (TT-V2(f))."""
    if len(hand) < n:
        return None
    if all_jokers(hand):
        return list(hand[:n])
    nat = sorted(naturals(hand), key=hr, reverse=True)
    jok = [c for c in hand if c.is_joker]
    for j in range(min(len(jok), _max_jokers(n, opts)), -1, -1):
        if n - j <= len(nat) and n - j >= 1:
            return nat[:1] + jok[:j] + nat[1:n - j]
    return None


def can_beat(hand: Sequence[Card], target: Sequence[Card], opts: TwentyTwoOptions) -> bool:
    """Whether some n cards of the hand beat or tie ``target`` (TT-11, TT-V1(a))."""
    best = best_play(hand, len(target), opts)
    return best is not None and beats_or_ties(best, target)


def lead_problem(play: Sequence[Card], hand_size: int, hand: Sequence[Card] | None,
                 opts: TwentyTwoOptions) -> tuple[str, str] | None:
    """Why ``play`` cannot be led, as (rule, message); ``None`` when it can.  ``hand`` is the
    leader's whole hand when known (before the play)."""
    n = len(play)
    if n > hand_size - 1:
        return "TT-9", (f"the leader must keep at least 1 card: {n} led from a hand of "
                        f"{hand_size} (A5)")
    nat = naturals(play)
    if len({hr(c) for c in nat}) > 1:
        return "TT-9", "a lead is one card or several cards of the same rank"
    jokers = n - len(nat)
    if jokers:
        if not nat:
            if hand is not None and not all_jokers(hand):
                return "TT-V2(b)", ("a lead of jokers alone needs a hand of jokers alone "
                                    "(TT-V2(f))")
        elif opts.jokers_per_natural == "one" and jokers > len(nat):
            return "A7", "with jokers-per-natural=one each joker needs its own natural card"
    return None


def follow_problem(play: Sequence[Card], hand: Sequence[Card], target: Sequence[Card],
                   lead: Sequence[Card], opts: TwentyTwoOptions) -> tuple[str, str] | None:
    """Why a follower holding ``hand`` (before the play) cannot play ``play``; ``None`` when
    it can.  ``target`` is the current highest play (TT-10) and ``lead`` the led cards."""
    n = len(lead)
    if len(play) != n:
        return "TT-10", f"each follower plays exactly {n} card(s), the number led"
    jokers = sum(c.is_joker for c in play)
    if jokers and jokers == n and not all_jokers(hand):
        return "TT-V2(b)", "a play of jokers alone needs a hand of jokers alone (TT-V2(f))"
    if opts.rasmussen:
        if beats_or_ties(play, lead):
            return None
        if can_beat(hand, lead, opts):
            return "TT-V1(a)", ("following is compulsory: this hand can beat or tie the lead "
                                + _fmt(lead) + ", so it must")
        if not is_lowest(play, hand):
            return "TT-V1(a)", ("a hand that cannot beat or tie the lead must play its "
                                f"{n} lowest cards: " + _fmt(lowest_cards(hand, n)))
        return None
    if beats_or_ties(play, target):
        if (jokers and opts.jokers_per_natural == "one" and jokers > n - jokers
                and not is_lowest(play, hand) and not all_jokers(hand)):
            return "A7", "with jokers-per-natural=one each joker needs its own natural card"
        return None
    if not is_lowest(play, hand):
        return "TT-10", ("a play that does not beat or tie the highest play so far ("
                         + _fmt(target) + ", TT-11) must be the player's "
                         f"{n} lowest cards: " + _fmt(lowest_cards(hand, n)))
    return None


def _fmt(cards: Iterable[Card]) -> str:
    return " ".join(repr(c) for c in cards)


def uniform_rank(cards: Sequence[Card]) -> bool:
    return len({hr(c) for c in cards}) == 1 and not any(c.is_joker for c in cards)


def trick_winner(plays: Sequence[Sequence[Card]], opts: TwentyTwoOptions) -> int:
    """Index of the winning play (TT-12; TT-V1(b,c) and A8 under ``rasmussen``).

    >>> from solver.cards import parse_cards as C
    >>> trick_winner([C("6S 6H"), C("QD 10C"), C("7S 7C")], TwentyTwoOptions(rasmussen=True))
    2
    >>> trick_winner([C("6S 6H"), C("QD 10C"), C("7S 7C")], TwentyTwoOptions())
    1
    """
    if opts.rasmussen:
        if len(plays[0]) == 1:  # TT-V1(c): the highest card; equal cards -> the last
            best = 0
            for i in range(1, len(plays)):
                if hr(plays[i][0]) >= hr(plays[best][0]):
                    best = i
            return best
        best = 0  # TT-V1(b): only sets of one rank win (the lead is one)
        for i in range(1, len(plays)):
            if not uniform_rank(plays[i]):
                continue
            a, b = hr(plays[i][0]), hr(plays[best][0])
            if a > b or (a == b and opts.rasmussen_ties == "last"):  # A8
                best = i
        return best
    best = 0
    for i in range(1, len(plays)):
        if beats_or_ties(plays[i], plays[best]):
            best = i
    return best


def target_of(plays: Sequence[Sequence[Card]], opts: TwentyTwoOptions) -> Sequence[Card]:
    """What the next follower must beat or tie to escape the lowest-cards rule: the current
    highest play (TT-10, TT-12), or the lead under ``rasmussen`` (TT-V1(a))."""
    if opts.rasmussen:
        return plays[0]
    return plays[trick_winner(plays, opts)]


# ----- enumeration (analysis and simulator) ---------------------------------------------
def _groups(hand: Sequence[Card]) -> list[list[Card]]:
    by: dict[int, list[Card]] = {}
    for c in sorted(hand, key=lambda c: (hr(c), c.sort_key())):
        by.setdefault(hr(c), []).append(c)
    return [by[k] for k in sorted(by)]


def legal_leads(hand: Sequence[Card], opts: TwentyTwoOptions) -> list[tuple[Card, ...]]:
    """Every distinct lead (as rank multisets, A10): 1..k cards of one rank held, jokers
    joining (TT-V2(c), A7), keeping at least one card (TT-9, A5)."""
    h = len(hand)
    jok = [c for c in hand if c.is_joker]
    out: list[tuple[Card, ...]] = []
    if all_jokers(hand):
        return [tuple(jok[:j]) for j in range(1, h)]
    for grp in _groups(naturals(hand)):
        for k in range(1, len(grp) + 1):
            for j in range(0, len(jok) + 1):
                if k + j > h - 1:
                    break
                if j and opts.jokers_per_natural == "one" and j > k:
                    break
                out.append(tuple(grp[:k]) + tuple(jok[:j]))
    return out


def sub_multisets(hand: Sequence[Card], n: int) -> list[tuple[Card, ...]]:
    """Every distinct choice of n cards from the hand, up to suits (A10)."""
    groups = _groups(hand)
    out: list[tuple[Card, ...]] = []

    def rec(i: int, left: int, acc: list[Card]):
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(groups):
            return
        rest = sum(len(g) for g in groups[i:])
        if rest < left:
            return
        g = groups[i]
        for k in range(min(len(g), left), -1, -1):
            rec(i + 1, left - k, acc + g[:k])

    rec(0, n, [])
    return out


def legal_follows(hand: Sequence[Card], plays: Sequence[Sequence[Card]],
                  opts: TwentyTwoOptions) -> list[tuple[Card, ...]]:
    """Every distinct legal follow to the trick so far (TT-10, TT-V1(a), TT-V2)."""
    lead = plays[0]
    target = target_of(plays, opts)
    return [p for p in sub_multisets(hand, len(lead))
            if follow_problem(p, hand, target, lead, opts) is None]


def play_counter(cards: Iterable[Card]) -> Counter:
    return Counter(repr(c) for c in cards)
