"""Twenty-Two options, on the one option machinery (:mod:`solver.options`): the variants TT-V1
``rasmussen`` and TT-V2 ``twenty-six``, the number of packs (TT-1), every ambiguity of the
rules (A1..A10, TT-17) that has an alternative, and the house rules other implementations
play (issue 18: ``tie-score``, ``end``, ``deal``, ``four-card-leads``).

Option names are the rules file's, written with ``-`` (record-format.md, "Header").

>>> TwentyTwoOptions.from_names(["rasmussen", "elimination=immediate"])
TwentyTwoOptions(rasmussen=True, elimination='immediate')
>>> TwentyTwoOptions.from_names(["twenty-six"]).deck_size(4), TwentyTwoOptions().limit
(108, 22)
>>> str(TwentyTwoOptions.from_names(["deal=capped", "tie-score = split", "packs=2"]))
'packs=2, tie-score=split, deal=capped'
>>> TwentyTwoOptions.from_names(["tie-draw=middle"])
Traceback (most recent call last):
...
solver.errors.NotationError: tie-draw is highest | lowest (A2): 'tie-draw=middle'
>>> TwentyTwoOptions.from_names(["twenty-six", "deal=capped"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.RuleError: deal=capped deals at most 7 cards, but in twenty-six a joker loss deals 13 (TT-V2(g)); ...

Ambiguities without a meaningful alternative (no option): A4 (an empty stock allows no
exchange: TT-8 already caps k by the stock), A5 (a lead is 1..k equal cards, keeping one card:
TT-9), A9 (with one player left there is nobody to play against) and A10 (suits never matter:
TT-1).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from solver.errors import NotationError, RuleError
from solver.options import FLAG, Option, Options

#: ``deal=capped``: later deals give the loser's card value clamped to this range (a fixed
#: deal table: 2-5 -> 5 cards, 6 -> 6, 7-11 -> 7), TT-7's short pack still applying
CAPPED_DEAL = (5, 7)

SPECS: tuple[Option, ...] = (
    Option("rasmussen", "rasmussen", FLAG, "TT-V1",
           "Rasmussen: compulsory following, same-rank sets win, paper scoring"),
    Option("twenty-six", "twenty_six", FLAG, "TT-V2",
           "Twenty-Six: two packs and four jokers, elimination at 26"),
    Option("packs", "packs", (None,) + tuple(range(1, 9)), "TT-1",
           "packs combined (default: 1 for up to 6 players, then one per 4 players)"),
    Option("elimination", "elimination", ("after-deal", "immediate"), "A1",
           "a player at the limit still deals the next hand but gets no cards, or is skipped"),
    Option("tie-draw", "tie_draw", ("highest", "lowest"), "A2",
           "tied losers draw for the deal: the highest or the lowest card deals"),
    Option("eliminated-cards", "eliminated_cards", ("out", "return"), "A3",
           "scoring cards of eliminated players stay out of the pack, or return to it"),
    Option("exchange", "exchange", ("discard-first", "draw-first"), "A6",
           "discard unseen, then draw; or draw k, then discard any k"),
    Option("jokers-per-natural", "jokers_per_natural", ("many", "one"), "A7",
           "twenty-six: several jokers may join one natural, or one joker per natural"),
    Option("rasmussen-ties", "rasmussen_ties", ("last", "first"), "A8",
           "rasmussen: among equal winning sets the last (or first) played wins"),
    Option("simultaneous-out", "simultaneous_out", ("lowest-total", "all-win"), "TT-17",
           "everybody left goes out together: the lowest total wins, or all win"),
    # house rules (issue 18)
    Option("tie-score", "tie_score", ("each", "split"), "TT-14",
           "tied losers each score the card's value, or share it (rounded down)"),
    Option("end", "end", ("last-standing", "first-to-22"), "TT-17",
           "the last player left wins, or the game ends when the first player reaches 22 "
           "(that player loses, everybody else wins)"),
    Option("deal", "deal", ("value", "capped"), "TT-6",
           "later deals give the loser's card value, or that value clamped to 5..7 cards"),
    Option("four-card-leads", "four_card_leads", ("allowed", "forbidden"), "TT-9",
           "a lead of four or more cards of one rank is allowed, or forbidden"),
)


@dataclass(frozen=True, repr=False)
class TwentyTwoOptions(Options):
    """The rules in force (see :data:`SPECS` for each option's rule).

    * ``rasmussen`` (TT-V1): compulsory following, same-rank sets win, paper scoring.
    * ``twenty_six`` (TT-V2): two packs and four jokers, elimination at 26.
    * ``packs`` (TT-1): packs combined; ``None`` = 1 for up to 6 players, then one per 4
      players (two packs plus four jokers in Twenty-Six).
    * ``elimination`` (A1), ``tie_draw`` (A2), ``eliminated_cards`` (A3), ``exchange`` (A6),
      ``jokers_per_natural`` (A7, Twenty-Six), ``rasmussen_ties`` (A8),
      ``simultaneous_out`` (TT-17): the ambiguities' alternatives.
    * House rules: ``tie_score`` (TT-14: ``split`` shares the card's value between tied
      losers, rounded down), ``end`` (TT-17: ``first-to-22`` ends the game when the first
      player reaches 22), ``deal`` (TT-6: ``capped`` clamps later deals to 5..7 cards),
      ``four_card_leads`` (TT-9: ``forbidden`` refuses leads of four or more cards).
    """

    GAME = "Twenty-Two"
    SPECS = SPECS

    rasmussen: bool = False
    twenty_six: bool = False
    packs: int | None = None
    elimination: str = "after-deal"
    tie_draw: str = "highest"
    eliminated_cards: str = "out"
    exchange: str = "discard-first"
    jokers_per_natural: str = "many"
    rasmussen_ties: str = "last"
    simultaneous_out: str = "lowest-total"
    tie_score: str = "each"
    end: str = "last-standing"
    deal: str = "value"
    four_card_leads: str = "allowed"

    def check(self) -> None:
        if self.rasmussen and self.twenty_six:
            raise RuleError("rasmussen (Twenty-Two by Ben Rasmussen) and twenty-six (a separate "
                            "game by Roman Igmenov) are separate variants; choose one",
                            text="rasmussen, twenty-six", rule="TT-V1/TT-V2")
        if self.jokers_per_natural != "many" and not self.twenty_six:
            raise NotationError("jokers-per-natural applies to twenty-six only",
                                text="jokers-per-natural=" + self.jokers_per_natural, rule="A7")
        if self.rasmussen_ties != "last" and not self.rasmussen:
            raise NotationError("rasmussen-ties applies to rasmussen only",
                                text="rasmussen-ties=" + self.rasmussen_ties, rule="A8")
        if self.end == "first-to-22" and self.twenty_six:
            raise RuleError("end=first-to-22 ends the game at 22, but twenty-six plays to 26 "
                            "(TT-V2(h)); choose one", text="twenty-six, end=first-to-22",
                            rule="TT-17/TT-V2(h)")
        if self.deal == "capped" and self.twenty_six:
            raise RuleError("deal=capped deals at most 7 cards, but in twenty-six a joker loss "
                            "deals 13 (TT-V2(g)); choose one", text="twenty-six, deal=capped",
                            rule="TT-6/TT-V2(g)")
        if self.end == "first-to-22" and self.elimination != "after-deal":
            raise NotationError("elimination (A1) says who deals after a player reaches the "
                                "limit; under end=first-to-22 the game ends there",
                                text="end=first-to-22, elimination=" + self.elimination,
                                rule="A1")
        if self.end == "first-to-22" and self.eliminated_cards != "out":
            raise NotationError("eliminated-cards (A3) applies when the game goes on after an "
                                "elimination; under end=first-to-22 it ends there",
                                text="end=first-to-22, eliminated-cards="
                                + self.eliminated_cards, rule="A3")

    @property
    def limit(self) -> int:
        """Elimination total: 22 (TT-16), 26 in Twenty-Six (TT-V2(h))."""
        return 26 if self.twenty_six else 22

    @property
    def variant_name(self) -> str:
        return "twenty-six" if self.twenty_six else "rasmussen" if self.rasmussen else "standard"

    def n_packs(self, n_players: int) -> int:
        """TT-1: one pack for 2-6 players, about one per 4 beyond; TT-V2(a): two packs."""
        if self.packs is not None:
            return self.packs
        if self.twenty_six:
            return 2
        return 1 if n_players <= 6 else math.ceil(n_players / 4)

    def jokers(self, n_players: int) -> int:
        """TT-V2(a): four jokers with the two packs of Twenty-Six (two per pack)."""
        return 2 * self.n_packs(n_players) if self.twenty_six else 0

    def deck_size(self, n_players: int) -> int:
        return 52 * self.n_packs(n_players) + self.jokers(n_players)

    def deal_size(self, value: int) -> int:
        """TT-6: the cards each player gets after a loss with a card worth ``value``
        (before TT-7's short pack); ``deal=capped`` clamps it to :data:`CAPPED_DEAL`."""
        if self.deal == "capped":
            lo, hi = CAPPED_DEAL
            return min(max(value, lo), hi)
        return value

    def points(self, value: int, losers: int) -> int:
        """TT-14: what each of ``losers`` tied losers scores for a card worth ``value``
        (``tie-score=split``: an equal share, rounded down)."""
        return value // losers if self.tie_score == "split" else value


def check_players(n: int, opts: TwentyTwoOptions, players: str | None = None) -> None:
    """TT-1/TT-5: at least 2 players, and 7 cards each at the first deal.  An error quotes
    ``players`` (the names as a record lists them) when known, else the number ``n``."""
    said = players or str(n)
    if n < 2:
        raise RuleError(f"Twenty-Two needs at least 2 players, not {n}", text=said, rule="TT-1")
    size = opts.deck_size(n)
    if 7 * n > size:
        need = math.ceil(7 * n / 52)
        raise RuleError(f"{n} players need 7 cards each from {size} cards; combine packs "
                        f"(packs={need})", text=said, rule="TT-1")
