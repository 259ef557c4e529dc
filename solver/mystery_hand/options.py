"""Mystery Hand options (MH-22..MH-28): a frozen dataclass built from variant names.

>>> MysteryHandOptions.from_names(["sneak", "keep-em-guessing"])
MysteryHandOptions(sneak=True, keep_em_guessing=True)
>>> MysteryHandOptions.from_names(["two-player=blind"]).two_player
'blind'
>>> MysteryHandOptions.from_names(["two-player=sideways"])
Traceback (most recent call last):
...
solver.errors.NotationError: two-player is seen | chosen | blind (MH-28): 'two-player=sideways'
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from solver.errors import NotationError, RuleError
from solver.options import option_items

#: option name in records -> (field, rule)
FLAGS = {
    "no-memory-sheet": ("no_memory_sheet", "MH-22"),
    "sneak": ("sneak", "MH-23"),
    "sneak-jokers-count-for-extra-turn": ("sneak_jokers_count_for_extra_turn", "MH-25"),
    "keep-em-guessing": ("keep_em_guessing", "MH-26"),
    "no-exact-request": ("no_exact_request", "MH-27"),
}
TWO_PLAYER_MODES = ("seen", "chosen", "blind")


@dataclass(frozen=True)
class MysteryHandOptions:
    """The variant in force.  ``two_player`` is ``None`` or one of ``seen|chosen|blind``."""

    no_memory_sheet: bool = False
    sneak: bool = False
    sneak_jokers_count_for_extra_turn: bool = False
    keep_em_guessing: bool = False
    no_exact_request: bool = False
    two_player: str | None = None

    @classmethod
    def from_names(cls, names) -> "MysteryHandOptions":
        kw: dict = {}
        for raw, name, value in option_items(names):
            if value is not None:
                key = name
                if key != "two-player":
                    raise NotationError("unknown Mystery Hand option; valued option is "
                                        "two-player=seen|chosen|blind", text=raw, rule="MH-28")
                if value not in TWO_PLAYER_MODES:
                    raise NotationError("two-player is seen | chosen | blind", text=raw,
                                        rule="MH-28")
                kw["two_player"] = value
            elif name == "two-player":
                raise NotationError("two-player needs a mode: two-player=seen|chosen|blind",
                                    text=raw, rule="MH-28")
            elif name in FLAGS:
                kw[FLAGS[name][0]] = True
            else:
                raise NotationError("unknown Mystery Hand option; expected one of standard, "
                                    + ", ".join(FLAGS) + ", two-player=seen|chosen|blind",
                                    text=raw)
        return cls(**kw)

    def names(self) -> list[str]:
        out = [k for k, (f, _) in FLAGS.items() if getattr(self, f)]
        if self.two_player:
            out.append(f"two-player={self.two_player}")
        return out

    @property
    def jokers(self) -> int:
        """Jokers in the deck: two in Sneak (MH-23), none with two_player (MH-28)."""
        return 2 if self.sneak and not self.two_player else 0

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                         if getattr(self, f.name) != f.default)
        return f"MysteryHandOptions({args})"


def deal_sizes(n: int, opts: MysteryHandOptions) -> tuple[int, int]:
    """(cards per player, face-up leftovers) per MH-5 / MH-28.

    >>> [deal_sizes(n, MysteryHandOptions()) for n in (3, 5, 7)]
    [(16, 0), (9, 3), (6, 6)]
    >>> deal_sizes(5, MysteryHandOptions(sneak=True)), deal_sizes(2, MysteryHandOptions(two_player="seen"))
    ((10, 0), (22, 0))
    """
    if opts.two_player:
        if n != 2:
            raise RuleError(f"two-player needs exactly 2 players, not {n}", text=str(n),
                            rule="MH-28")
        return 22, 0
    if not 2 <= n <= 8:
        raise RuleError(f"Mystery Hand is for 3 to 8 players (2 with the standard rules), not {n}",
                        text=str(n), rule="MH-1")
    rest = 48 + (2 if opts.sneak else 0)
    return rest // n, rest % n
