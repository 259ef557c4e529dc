"""Hand options (HR-1, HR-33, HR-45..HR-59 and the alternatives of ambiguities A1..A17).

Options are named as in ``docs/rules/hand-rummy.md`` with ``_`` written ``-``; flags are
``off | on`` (naming a flag turns it on, ``name=off`` turns it off), valued options are
``name=value``.  The default of each is the first value the rules list.

>>> HandOptions.from_names(["wild-mode=no-jokers", "initial-min=71", "bonus-suit"])
HandOptions(wild_mode='no-jokers', initial_min=71, bonus_suit=True)
>>> HandOptions.from_names(["ace-penalty=10"]).ace_penalty
10
>>> HandOptions.from_names(["initial-min=50"])
Traceback (most recent call last):
...
solver.errors.NotationError: initial-min is 51 | 61 | 71 | 91 (HR-51): 'initial-min=50'
>>> HandOptions.from_names(["jokers"])
Traceback (most recent call last):
...
solver.errors.NotationError: unknown Hand option; see 'sleuth hand --help' or docs/hand.md: 'jokers'
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from solver.errors import NotationError


@dataclass(frozen=True)
class Spec:
    """One option: its record name, dataclass field, allowed values (first = default), rule."""

    name: str
    field: str
    values: tuple
    rule: str
    help: str

    @property
    def is_flag(self) -> bool:
        return self.values == (False, True)


_FLAG = (False, True)

#: every option the rules name, plus the named alternatives of the ambiguity defaults (§10)
SPECS: tuple[Spec, ...] = (
    Spec("teams", "teams", _FLAG, "HR-1", "4 players in two partnerships seated opposite"),
    Spec("manual-calls", "manual_calls", _FLAG, "HR-33",
         "players announce 'one/two/three cards' themselves"),
    Spec("deal-rotation", "deal_rotation", ("loser", "rotate"), "HR-45",
         "next dealer: worst score of the last scored round, or the deal passes right"),
    Spec("wild-mode", "wild_mode", ("indicator", "jokers-only", "no-jokers"), "HR-46",
         "which cards are wild"),
    Spec("no-jokers-ace-indicator", "no_jokers_ace_indicator", ("redraw", "twin-wild"),
         "HR-47", "wild-mode=no-jokers with an ace turned up"),
    Spec("ace-penalty", "ace_penalty", (11, 10), "HR-48", "a natural ace left in hand"),
    Spec("ace-low-run-value", "ace_low_run_value", (11, 1), "HR-49",
         "an ace in A-2-3 in the initial meld"),
    Spec("ace-high-run-value", "ace_high_run_value", (11, 10), "HR-50",
         "an ace in Q-K-A in the initial meld"),
    Spec("initial-min", "initial_min", (51, 61, 71, 91), "HR-51", "initial meld minimum"),
    Spec("initial-must-exceed", "initial_must_exceed", _FLAG, "HR-52",
         "each initial meld must beat the last one made this round"),
    Spec("discard-layoff", "discard_layoff", _FLAG, "HR-53", "a taken discard may be laid off"),
    Spec("discarded-wild", "discarded_wild", ("as-ace", "ace-group-only", "never", "free"),
         "HR-54", "how a discarded wild may be taken"),
    Spec("swap-wild-must-be-used", "swap_wild_must_be_used", _FLAG, "HR-55",
         "a swapped wild must be melded or laid off the same turn"),
    Spec("pair-wild-third-card", "pair_wild_third_card", _FLAG, "HR-56",
         "one missing natural may be added to a 2 + W group at any time"),
    Spec("stock-end", "stock_end", ("players", "empty", "reshuffle"), "HR-57",
         "when the stock ends the round"),
    Spec("first-turn-win", "first_turn_win", _FLAG, "HR-58",
         "a player may go out on their own first turn"),
    Spec("bonus-wild-discard", "bonus_wild_discard", _FLAG, "HR-59",
         "Full Hand, 15th card a wild: x2"),
    Spec("bonus-two-wilds", "bonus_two_wilds", _FLAG, "HR-59",
         "Full Hand, 13 naturals melded, both wilds discarded: x4"),
    Spec("bonus-colour", "bonus_colour", _FLAG, "HR-59", "Full Hand all red or all black: x2"),
    Spec("bonus-suit", "bonus_suit", _FLAG, "HR-59", "Full Hand all one suit: x4"),
    # named alternatives of the ambiguity defaults (rules section 10)
    Spec("indicator-in-play", "indicator_in_play", _FLAG, "A1",
         "the indicator card is not out of play (a third copy may be held)"),
    Spec("below-min-swaps", "below_min_swaps", _FLAG, "A6",
         "a below-minimum going-out turn (HR-21) may also swap wilds"),
    Spec("redeal-wild-pairs", "redeal_wild_pairs", ("count", "exclude"), "A8",
         "whether two wild aces form an identical pair for HR-10"),
    Spec("wild-ace-run-value", "wild_ace_run_value", ("variant", "11"), "A11",
         "a wild standing for a run's ace takes the HR-49/HR-50 value, or always 11"),
    Spec("bonus-jokers", "bonus_jokers", ("as-ace", "ignore"), "A12",
         "regime-N jokers take their ace's colour/suit for HR-59, or are ignored like wilds"),
    Spec("tie-break", "tie_break", ("all", "tied"), "A15",
         "who plays the HR-44 tie-break rounds"),
    Spec("run-wild-end", "run_wild_end", ("declared", "best"), "A16",
         "a wild at a run's end: as written (declared), or always the better reading"),
    Spec("own-face-swap", "own_face_swap", ("allowed", "forbidden"), "A17",
         "a wild standing for its own face may be swapped out"),
)
BY_NAME = {s.name: s for s in SPECS}
BY_FIELD = {s.field: s for s in SPECS}


def _fmt(values) -> str:
    return " | ".join("off" if v is False else "on" if v is True else str(v) for v in values)


@dataclass(frozen=True)
class HandOptions:
    """The variant in force; every field defaults to the rules' first value."""

    teams: bool = False
    manual_calls: bool = False
    deal_rotation: str = "loser"
    wild_mode: str = "indicator"
    no_jokers_ace_indicator: str = "redraw"
    ace_penalty: int = 11
    ace_low_run_value: int = 11
    ace_high_run_value: int = 11
    initial_min: int = 51
    initial_must_exceed: bool = False
    discard_layoff: bool = False
    discarded_wild: str = "as-ace"
    swap_wild_must_be_used: bool = False
    pair_wild_third_card: bool = False
    stock_end: str = "players"
    first_turn_win: bool = False
    bonus_wild_discard: bool = False
    bonus_two_wilds: bool = False
    bonus_colour: bool = False
    bonus_suit: bool = False
    indicator_in_play: bool = False
    below_min_swaps: bool = False
    redeal_wild_pairs: str = "count"
    wild_ace_run_value: str = "variant"
    bonus_jokers: str = "as-ace"
    tie_break: str = "all"
    run_wild_end: str = "declared"
    own_face_swap: str = "allowed"

    @classmethod
    def from_names(cls, names) -> "HandOptions":
        """Build from variant names (``standard`` = none); unknown names and values raise
        :class:`~solver.errors.NotationError` naming the rule."""
        kw: dict = {}
        for raw in names:
            name = raw.strip().lower().replace("_", "-").replace(" ", "")
            if name in ("", "standard"):
                continue
            key, _, value = name.partition("=")
            spec = BY_NAME.get(key)
            if spec is None:
                raise NotationError("unknown Hand option; see 'sleuth hand --help' or "
                                    "docs/hand.md", text=raw)
            if spec.is_flag:
                if not value or value == "on":
                    val = True
                elif value == "off":
                    val = False
                else:
                    raise NotationError(f"{spec.name} is off | on", text=raw, rule=spec.rule)
            else:
                if not value:
                    raise NotationError(f"{spec.name} needs a value: {spec.name}="
                                        + "|".join(map(str, spec.values)), text=raw,
                                        rule=spec.rule)
                val = next((v for v in spec.values if str(v) == value), None)
                if val is None:
                    raise NotationError(f"{spec.name} is {_fmt(spec.values)}", text=raw,
                                        rule=spec.rule)
            if spec.field in kw and kw[spec.field] != val:
                raise NotationError(f"{spec.name} given twice with different values", text=raw,
                                    rule=spec.rule)
            kw[spec.field] = val
        return cls(**kw)

    def names(self) -> list[str]:
        """The variant names of every non-default option (round-trips :meth:`from_names`).

        >>> HandOptions.from_names(["bonus-colour", "deal-rotation=rotate"]).names()
        ['deal-rotation=rotate', 'bonus-colour']
        """
        out = []
        for s in SPECS:
            v = getattr(self, s.field)
            if v == s.values[0]:
                continue
            out.append(s.name if s.is_flag and v is True else f"{s.name}={_fmt((v,))}")
        return out

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                         if getattr(self, f.name) != f.default)
        return f"HandOptions({args})"


def option_table() -> list[tuple[str, str, str, str]]:
    """(name, values with the default first, rule, what) for help texts and docs."""
    return [(s.name, _fmt(s.values), s.rule, s.help) for s in SPECS]
