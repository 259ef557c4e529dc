"""Twenty-Two options: the variants TT-V1 ``rasmussen`` and TT-V2 ``twenty-six``, the number of
packs (TT-1), and every ambiguity of the rules (A1..A10, TT-17) that has an alternative.

Option names are the rules file's, written with ``-`` (record-format.md, "Header").

>>> TwentyTwoOptions.from_names(["rasmussen", "elimination=immediate"])
TwentyTwoOptions(rasmussen=True, elimination='immediate')
>>> TwentyTwoOptions.from_names(["twenty-six"]).deck_size(4), TwentyTwoOptions().limit
(108, 22)
>>> TwentyTwoOptions.from_names(["tie-draw=middle"])
Traceback (most recent call last):
...
solver.errors.NotationError: tie-draw is highest | lowest (A2): 'tie-draw=middle'

Ambiguities without a meaningful alternative (no option): A4 (an empty stock allows no
exchange: TT-8 already caps k by the stock), A5 (a lead is 1..k equal cards, keeping one card:
TT-9), A9 (with one player left there is nobody to play against) and A10 (suits never matter:
TT-1).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields

from solver.errors import NotationError, RuleError
from solver.options import option_items

#: valued options: record name -> (field, allowed values (default first), rule)
VALUED = {
    "elimination": ("elimination", ("after-deal", "immediate"), "A1"),
    "tie-draw": ("tie_draw", ("highest", "lowest"), "A2"),
    "eliminated-cards": ("eliminated_cards", ("out", "return"), "A3"),
    "exchange": ("exchange", ("discard-first", "draw-first"), "A6"),
    "jokers-per-natural": ("jokers_per_natural", ("many", "one"), "A7"),
    "rasmussen-ties": ("rasmussen_ties", ("last", "first"), "A8"),
    "simultaneous-out": ("simultaneous_out", ("lowest-total", "all-win"), "TT-17"),
}
FLAGS = {"rasmussen": ("rasmussen", "TT-V1"), "twenty-six": ("twenty_six", "TT-V2")}


@dataclass(frozen=True)
class TwentyTwoOptions:
    """The rules in force.

    * ``rasmussen`` (TT-V1): compulsory following, same-rank sets win, paper scoring.
    * ``twenty_six`` (TT-V2): two packs and four jokers, elimination at 26.
    * ``packs`` (TT-1): packs combined; ``None`` = 1 for up to 6 players, then one per 4
      players (two packs plus four jokers in Twenty-Six).
    * ``elimination`` (A1): ``after-deal`` -- a player at 22 still deals the next hand but gets
      no cards; ``immediate`` -- they are skipped and the player to their left deals.
    * ``tie_draw`` (A2): tied losers draw for the deal; ``highest`` or ``lowest`` card deals.
    * ``eliminated_cards`` (A3): scoring cards of eliminated players stay ``out`` of the pack, or
      ``return`` to it.
    * ``exchange`` (A6): ``discard-first`` (the new cards are not seen before discarding) or
      ``draw-first`` (draw k, then discard any k of the enlarged hand).
    * ``jokers_per_natural`` (A7, Twenty-Six): ``many`` jokers may join one natural
      (joker-joker-8 = three 8s), or only ``one`` joker per natural card.
    * ``rasmussen_ties`` (A8): among equal winning sets the ``last`` (or ``first``) played wins.
    * ``simultaneous_out`` (TT-17): when everybody left goes out together, the
      ``lowest-total`` wins (equal lowest share), or ``all-win``.
    """

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

    @classmethod
    def from_names(cls, names) -> "TwentyTwoOptions":
        kw: dict = {}
        for raw, name, value in option_items(names):
            if value is not None:
                key = name
                if key == "packs":
                    if not value.isdigit() or not 1 <= int(value) <= 8:
                        raise NotationError("packs is a number of packs from 1 to 8", text=raw,
                                            rule="TT-1")
                    kw["packs"] = int(value)
                    continue
                if key not in VALUED:
                    raise NotationError("unknown Twenty-Two option; expected " + _known(),
                                        text=raw)
                fld, allowed, rule = VALUED[key]
                if value not in allowed:
                    raise NotationError(f"{key} is {' | '.join(allowed)}", text=raw, rule=rule)
                kw[fld] = value
            elif name in FLAGS:
                kw[FLAGS[name][0]] = True
            else:
                raise NotationError("unknown Twenty-Two option; expected " + _known(), text=raw)
        opts = cls(**kw)
        if opts.rasmussen and opts.twenty_six:
            raise RuleError("rasmussen (Twenty-Two by Ben Rasmussen) and twenty-six (a separate "
                            "game by Roman Igmenov) are separate variants; choose one",
                            text="rasmussen, twenty-six", rule="TT-V1/TT-V2")
        if opts.jokers_per_natural != "many" and not opts.twenty_six:
            raise NotationError("jokers-per-natural applies to twenty-six only",
                                text="jokers-per-natural=" + opts.jokers_per_natural, rule="A7")
        if opts.rasmussen_ties != "last" and not opts.rasmussen:
            raise NotationError("rasmussen-ties applies to rasmussen only",
                                text="rasmussen-ties=" + opts.rasmussen_ties, rule="A8")
        return opts

    def names(self) -> list[str]:
        """The option names in record form (``[]`` = standard)."""
        out = [k for k, (f, _) in FLAGS.items() if getattr(self, f)]
        if self.packs is not None:
            out.append(f"packs={self.packs}")
        for key, (fld, allowed, _) in VALUED.items():
            if getattr(self, fld) != allowed[0]:
                out.append(f"{key}={getattr(self, fld)}")
        return out

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

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                         if getattr(self, f.name) != f.default)
        return f"TwentyTwoOptions({args})"


def _known() -> str:
    return ("standard, rasmussen, twenty-six, packs=N, "
            + ", ".join(f"{k}={'|'.join(v[1])}" for k, v in VALUED.items()))


def check_players(n: int, opts: TwentyTwoOptions) -> None:
    """TT-1/TT-5: at least 2 players, and 7 cards each at the first deal."""
    if n < 2:
        raise RuleError(f"Twenty-Two needs at least 2 players, not {n}", text=str(n), rule="TT-1")
    size = opts.deck_size(n)
    if 7 * n > size:
        need = math.ceil(7 * n / 52)
        raise RuleError(f"{n} players need 7 cards each from {size} cards; combine packs "
                        f"(packs={need})", text=str(n), rule="TT-1")
