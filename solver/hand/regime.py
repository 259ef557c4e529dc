"""Which cards are wild (HR-7..HR-9, HR-46, HR-47) and what every card is worth (HR-3,
HR-20, HR-38, HR-48..HR-50).

>>> from solver.cards import Card
>>> r = make_regime(Card.parse("7C"))
>>> r.name, r.wild, r.natural(JOKER)
('N', AC, AC)
>>> make_regime(Card.parse("AH")).wild
Jk
>>> penalty(JOKER, r, HandOptions()), penalty(Card.parse("AC"), r, HandOptions())
(11, 15)
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from solver.cards import JOKER, Card
from solver.errors import NotationError, RuleError
from solver.hand.options import HandOptions


@dataclass(frozen=True)
class Regime:
    """The wild regime of a round.

    ``name``: ``N`` (indicator not an ace: the two aces of its suit are wild, the jokers are
    natural aces of that suit, HR-8), ``A`` (an ace turned: the jokers are wild, HR-9),
    ``jokers-only`` (HR-46), ``no-jokers`` (HR-46) or ``twin-wild`` (HR-47).
    """

    name: str
    indicator: Card | None
    wild: Card
    joker_as: Card | None
    jokers_in_play: bool
    rule: str

    def is_wild(self, card: Card) -> bool:
        return card == self.wild

    def natural(self, card: Card) -> Card:
        """The natural identity of a non-wild card (a regime-N joker is an ace, HR-8)."""
        if card.is_joker and self.joker_as is not None:
            return self.joker_as
        return card

    def describe(self) -> str:
        """One line for humans.

        >>> make_regime(Card.parse("QS")).describe()
        'indicator QS: AS is wild; Jk is a natural AS (HR-8)'
        """
        ind = f"indicator {self.indicator!r}: " if self.indicator else ""
        if self.name == "N":
            return f"{ind}{self.wild!r} is wild; Jk is a natural {self.joker_as!r} ({self.rule})"
        if self.name == "A":
            return f"{ind}Jk is wild; every ace is natural ({self.rule})"
        if self.name == "jokers-only":
            return f"no indicator: Jk is wild; every ace is natural ({self.rule})"
        if self.name == "no-jokers":
            return (f"{ind}{self.wild!r} is wild; no jokers, no natural "
                    f"{self.wild!r} ({self.rule})")
        return f"{ind}the other {self.wild!r} is the only wild ({self.rule})"

    def copies(self, card: Card, options: HandOptions) -> int:
        """How many copies of ``card`` can be in play (HR-2; the indicator is out, A1)."""
        return copies_in_play(card, options, self.indicator)


def copies_in_play(card: Card, options: HandOptions, indicator: Card | None = None) -> int:
    """How many copies of ``card`` can be in play: two packs and two jokers (HR-2), no
    jokers under ``wild-mode=no-jokers`` (HR-46), one less of the indicator when it is
    known and out of play (A1).

    >>> copies_in_play(Card.parse("Jk"), HandOptions(wild_mode="no-jokers")), copies_in_play(
    ...     Card.parse("7C"), HandOptions(), Card.parse("7C"))
    (0, 1)
    """
    if card.is_joker:
        return 0 if options.wild_mode == "no-jokers" else 2
    n = 2
    if indicator is not None and card == indicator and not options.indicator_in_play:
        n -= 1
    return n


def put_back(card: Card, options: HandOptions) -> bool:
    """Whether a card turned up for the indicator goes into the middle of the stock and the
    next card is turned instead: a joker (HR-7), or an ace under ``wild-mode=no-jokers`` with
    ``no-jokers-ace-indicator=redraw`` (HR-47).  Such a card is seen by everyone, stays in
    the stock at ``A2``'s place and is drawn like any other stock card.

    >>> put_back(JOKER, HandOptions()), put_back(Card.parse("AS"), HandOptions())
    (True, False)
    >>> put_back(Card.parse("AS"), HandOptions(wild_mode="no-jokers")), put_back(
    ...     JOKER, HandOptions(wild_mode="no-jokers"))
    (True, False)
    """
    if options.wild_mode == "jokers-only":
        return False                 # no indicator is turned (HR-46)
    if card.is_joker:
        return options.wild_mode != "no-jokers"     # no jokers in play under no-jokers
    return card.rank == 1 and options.wild_mode == "no-jokers" and \
        options.no_jokers_ace_indicator == "redraw"


def make_regime(indicator: Card | None, options: HandOptions | None = None) -> Regime:
    """The regime for a turned-up indicator under ``options`` (HR-7..HR-9, HR-46, HR-47).

    >>> make_regime(Card.parse("AS"), HandOptions(wild_mode="no-jokers"))
    Traceback (most recent call last):
    ...
    solver.errors.RuleError: an ace turned up under wild-mode=no-jokers is put back and another indicator turned (no-jokers-ace-indicator=redraw) (HR-47): 'AS'
    """
    options = options or HandOptions()
    if options.wild_mode == "jokers-only":
        if indicator is not None:
            raise RuleError("wild-mode=jokers-only turns no indicator; leave it out",
                            text=repr(indicator), rule="HR-46")
        return Regime("jokers-only", None, JOKER, None, True, "HR-46")
    if indicator is None:
        raise NotationError("the indicator card is needed to know the wilds (e.g. --indicator 7C)",
                            rule="HR-7")      # (nothing to quote: it was not given)
    if indicator.is_joker:
        if options.wild_mode == "no-jokers":
            raise RuleError("wild-mode=no-jokers plays without jokers", text="Jk",
                            rule="HR-46")
        raise RuleError("a joker is never the indicator: it goes into the stock and the next "
                        "card is turned", text="Jk", rule="HR-7")
    ace = Card(1, indicator.suit)
    if options.wild_mode == "no-jokers":
        if indicator.rank == 1:
            if options.no_jokers_ace_indicator == "redraw":
                raise RuleError("an ace turned up under wild-mode=no-jokers is put back and "
                                "another indicator turned (no-jokers-ace-indicator=redraw)",
                                text=repr(indicator), rule="HR-47")
            return Regime("twin-wild", indicator, ace, None, False, "HR-47")
        return Regime("no-jokers", indicator, ace, None, False, "HR-46")
    if indicator.rank == 1:
        return Regime("A", indicator, JOKER, None, True, "HR-9")
    return Regime("N", indicator, ace, ace, True, "HR-8")


def check_copies(cards: Iterable[Card], regime: Regime, options: HandOptions) -> None:
    """Raise :class:`RuleError` if more copies of a card are given than are in play.

    >>> check_copies([Card.parse("5H")] * 3, make_regime(Card.parse("7C")), HandOptions())
    Traceback (most recent call last):
    ...
    solver.errors.RuleError: 5H appears 3 times; two packs hold 2 (HR-2): '5H 5H 5H'
    """
    cards = list(cards)
    for card, k in Counter(cards).items():
        limit = regime.copies(card, options)
        if k <= limit:
            continue
        quoted = " ".join(repr(c) for c in cards if c == card)
        if card.is_joker:
            raise RuleError("wild-mode=no-jokers plays without jokers" if limit == 0 else
                            f"Jk appears {k} times; there are 2 jokers", text=quoted,
                            rule="HR-46" if limit == 0 else "HR-2")
        if limit == 1:
            raise RuleError(f"{card!r} appears {k} times but one copy is the indicator, out of "
                            "play (A1; variant indicator-in-play lifts this)", text=quoted,
                            rule="HR-2")
        raise RuleError(f"{card!r} appears {k} times; two packs hold 2", text=quoted,
                        rule="HR-2")


def natural_value(rank: int) -> int:
    """HR-3: A 11; K, Q, J 10; pips face value.

    >>> [natural_value(r) for r in (1, 2, 10, 11, 13)]
    [11, 2, 10, 10, 10]
    """
    if rank == 1:
        return 11
    return 10 if rank >= 10 else rank


def run_position_value(pos: int, wild: bool, options: HandOptions) -> int:
    """Initial-meld value of run position ``pos`` (1 = ace low .. 14 = ace high), HR-20,
    HR-49, HR-50; a wild counts as the card it stands for (A11, or 11 with
    ``wild-ace-run-value=11``).

    >>> o = HandOptions(ace_low_run_value=1, ace_high_run_value=10)
    >>> run_position_value(1, False, o), run_position_value(14, False, o), run_position_value(12, True, o)
    (1, 10, 10)
    """
    if pos in (1, 14):
        if wild and options.wild_ace_run_value == "11":
            return 11
        return options.ace_low_run_value if pos == 1 else options.ace_high_run_value
    return natural_value(pos)


def penalty(card: Card, regime: Regime, options: HandOptions) -> int:
    """HR-38 penalty of a card left in hand: wild 15, natural ace 11 (``ace-penalty=10``:
    10; regime-N jokers are natural aces), K/Q/J 10, pips face value."""
    if regime.is_wild(card):
        return 15
    nat = regime.natural(card)
    if nat.is_joker:  # cannot happen: a joker is wild or a natural ace
        raise RuleError("a joker is not in play here", text="Jk", rule="HR-46")
    if nat.rank == 1:
        return options.ace_penalty
    return natural_value(nat.rank)
