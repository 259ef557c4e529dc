"""Mystery Hand options (MH-22..MH-28), on the one option machinery :mod:`solver.options`.

>>> MysteryHandOptions.from_names(["sneak", "keep-em-guessing"])
MysteryHandOptions(sneak=True, keep_em_guessing=True)
>>> MysteryHandOptions.from_names(["two-player=blind"]).two_player
'blind'
>>> str(MysteryHandOptions.from_names(["keep_em_guessing", "sneak"]))
'sneak, keep-em-guessing'
>>> MysteryHandOptions.from_names(["two-player=sideways"])
Traceback (most recent call last):
...
solver.errors.NotationError: two-player is seen | chosen | blind (MH-28): 'two-player=sideways'
>>> MysteryHandOptions.from_names(["sneak-jokers-count-for-extra-turn"])
Traceback (most recent call last):
...
solver.errors.NotationError: sneak-jokers-count-for-extra-turn needs sneak (MH-25): 'sneak-jokers-count-for-extra-turn'
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.errors import NotationError, RuleError
from solver.options import FLAG, Option, Options

TWO_PLAYER_MODES = ("seen", "chosen", "blind")


@dataclass(frozen=True, repr=False)
class MysteryHandOptions(Options):
    """The variant in force.  ``two_player`` is ``None`` or one of ``seen|chosen|blind``."""

    GAME = "Mystery Hand"
    SPECS = (
        Option("no-memory-sheet", "no_memory_sheet", FLAG, "MH-22",
               "no notes allowed (no effect on the logic)"),
        Option("sneak", "sneak", FLAG, "MH-23", "two jokers dealt with the rest; shown at will "
               "in an ask-one (MH-24)"),
        Option("sneak-jokers-count-for-extra-turn", "sneak_jokers_count_for_extra_turn", FLAG,
               "MH-25", "shown jokers count towards the extra turn of MH-12"),
        Option("keep-em-guessing", "keep_em_guessing", FLAG, "MH-26",
               "MH-11 and the ban of MH-15 are lifted"),
        Option("no-exact-request", "no_exact_request", FLAG, "MH-27",
               "exact requests (MH-15/16) are unavailable"),
        Option("two-player", "two_player", (None,) + TWO_PLAYER_MODES, "MH-28",
               "two players, each with their own mystery hand"),
    )

    no_memory_sheet: bool = False
    sneak: bool = False
    sneak_jokers_count_for_extra_turn: bool = False
    keep_em_guessing: bool = False
    no_exact_request: bool = False
    two_player: str | None = None

    def check(self) -> None:
        # MH-25 refines the jokers of MH-24: without Sneak there is no joker to count
        if self.sneak_jokers_count_for_extra_turn and not self.sneak:
            raise NotationError("sneak-jokers-count-for-extra-turn needs sneak",
                                text="sneak-jokers-count-for-extra-turn", rule="MH-25")

    @property
    def jokers(self) -> int:
        """Jokers in the deck: two in Sneak (MH-23), none with two_player (MH-28)."""
        return 2 if self.sneak and not self.two_player else 0


def deal_sizes(n: int, opts: MysteryHandOptions, *, players: str | None = None,
               variant: str | None = None) -> tuple[int, int]:
    """(cards per player, face-up leftovers) per MH-5 / MH-28.  An error quotes
    ``players`` (the names as a record lists them) or ``variant`` (the option as given)
    when known, else the number ``n``.

    >>> [deal_sizes(n, MysteryHandOptions()) for n in (3, 5, 7)]
    [(16, 0), (9, 3), (6, 6)]
    >>> deal_sizes(5, MysteryHandOptions(sneak=True)), deal_sizes(2, MysteryHandOptions(two_player="seen"))
    ((10, 0), (22, 0))
    """
    if opts.two_player:
        if n != 2:
            raise RuleError(f"two-player needs exactly 2 players, not {n}",
                            text=variant or players or str(n), rule="MH-28")
        return 22, 0
    if not 2 <= n <= 8:
        raise RuleError(f"Mystery Hand is for 3 to 8 players (2 with the standard rules), not {n}",
                        text=players or str(n), rule="MH-1")
    rest = 48 + (2 if opts.sneak else 0)
    return rest // n, rest % n
