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
>>> HandOptions.from_names(["jokers"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.NotationError: unknown Hand option; expected one of teams, players=4|5, ...: 'jokers'
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.errors import NotationError
from solver.options import FLAG, Option, Options


#: every option the rules name, plus the named alternatives of the ambiguity defaults (§10)
SPECS: tuple[Option, ...] = (
    Option("teams", "teams", FLAG, "HR-1", "4 players in two partnerships seated opposite"),
    Option("players", "players", (4, 5), "HR-1",
           "the most players: 4 (HR-1), or 5 as Jawaker plays (2-5 players singly)"),
    Option("rounds", "rounds", (7, 5), "HR-41",
           "scored rounds in a game (HR-41; HR-43's three deals apply to the last round)"),
    Option("runs", "runs", ("13-card", "14-card"), "HR-12",
           "longest run: 13 cards (no ace twice), or 14 from ace to ace as some rooms allow"),
    Option("wilds-per-meld", "wilds_per_meld", (1, 2), "HR-14",
           "most wilds in one meld: 1, or 2 as some online rooms allow (a run may have two "
           "wild positions; a group with two wilds needs two naturals, each wild one missing "
           "suit)"),
    Option("manual-calls", "manual_calls", FLAG, "HR-33",
         "players announce 'one/two/three cards' themselves"),
    Option("deal-rotation", "deal_rotation", ("loser", "rotate"), "HR-45",
         "next dealer: worst score of the last scored round, or the deal passes right"),
    Option("wild-mode", "wild_mode", ("indicator", "jokers-only", "no-jokers"), "HR-46",
         "which cards are wild"),
    Option("no-jokers-ace-indicator", "no_jokers_ace_indicator", ("redraw", "twin-wild"),
         "HR-47", "wild-mode=no-jokers with an ace turned up"),
    Option("ace-penalty", "ace_penalty", (11, 10), "HR-48", "a natural ace left in hand"),
    Option("ace-low-run-value", "ace_low_run_value", (11, 1), "HR-49",
         "an ace in A-2-3 in the initial meld"),
    Option("ace-high-run-value", "ace_high_run_value", (11, 10), "HR-50",
         "an ace in Q-K-A in the initial meld"),
    Option("initial-min", "initial_min", (51, 61, 71, 91), "HR-51", "initial meld minimum"),
    Option("initial-must-exceed", "initial_must_exceed", FLAG, "HR-52",
         "each initial meld must beat the last one made this round"),
    Option("discard-layoff", "discard_layoff", FLAG, "HR-53", "a taken discard may be laid off"),
    Option("discarded-wild", "discarded_wild", ("as-ace", "ace-group-only", "never", "free"),
         "HR-54", "how a discarded wild may be taken"),
    Option("taken-wild", "taken_wild", ("natural", "wild"), "A4",
           "a discarded wild taken as an ace (HR-31) is then a natural card (not swappable, "
           "outside the one-wild limit), or stays a wild standing for that ace"),
    Option("ace-group-only-runs", "ace_group_only_runs", ("none", "high"), "A10",
           "discarded-wild=ace-group-only: no run at all, or (literal reading) only no A-2-3"),
    Option("swap-wild-must-be-used", "swap_wild_must_be_used", FLAG, "HR-55",
         "a swapped wild must be melded or laid off the same turn"),
    Option("pair-wild-third-card", "pair_wild_third_card", FLAG, "HR-56",
         "one missing natural may be added to a 2 + W group at any time"),
    Option("stock-end", "stock_end", ("players", "empty", "reshuffle", "penalties"), "HR-57",
           "when the stock ends the round; penalties: at HR-35's stock end the round is "
           "scored by every player's penalty instead of unscored"),
    Option("first-turn-win", "first_turn_win", FLAG, "HR-58",
         "a player may go out on their own first turn"),
    Option("bonus-wild-discard", "bonus_wild_discard", FLAG, "HR-59",
         "Full Hand, 15th card a wild: x2"),
    Option("bonus-two-wilds", "bonus_two_wilds", FLAG, "HR-59",
         "Full Hand, 13 naturals melded, both wilds discarded: x4"),
    Option("bonus-colour", "bonus_colour", FLAG, "HR-59", "Full Hand all red or all black: x2"),
    Option("bonus-suit", "bonus_suit", FLAG, "HR-59", "Full Hand all one suit: x4"),
    # named alternatives of the ambiguity defaults (rules section 10)
    Option("indicator-in-play", "indicator_in_play", FLAG, "A1",
         "the indicator card is not out of play (a third copy may be held)"),
    Option("below-min-swaps", "below_min_swaps", FLAG, "A6",
         "a below-minimum going-out turn (HR-21) may also swap wilds"),
    Option("redeal-wild-pairs", "redeal_wild_pairs", ("count", "exclude"), "A8",
         "whether two wild aces form an identical pair for HR-10"),
    Option("wild-ace-run-value", "wild_ace_run_value", ("variant", "11"), "A11",
         "a wild standing for a run's ace takes the HR-49/HR-50 value, or always 11"),
    Option("bonus-jokers", "bonus_jokers", ("as-ace", "ignore"), "A12",
         "regime-N jokers take their ace's colour/suit for HR-59, or are ignored like wilds"),
    Option("tie-break", "tie_break", ("all", "tied"), "A15",
         "who plays the HR-44 tie-break rounds"),
    Option("run-wild-end", "run_wild_end", ("declared", "best"), "A16",
         "a wild at a run's end: as written (declared), or always the better reading"),
    Option("own-face-swap", "own_face_swap", ("allowed", "forbidden"), "A17",
         "a wild standing for its own face may be swapped out"),
)

@dataclass(frozen=True, repr=False)
class HandOptions(Options):
    """The variant in force; every field defaults to the rules' first value."""

    GAME = "Hand"
    SPECS = SPECS

    teams: bool = False
    players: int = 4
    rounds: int = 7
    runs: str = "13-card"
    wilds_per_meld: int = 1
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
    taken_wild: str = "natural"
    ace_group_only_runs: str = "none"
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

    def check(self) -> None:
        """Options the rules do not combine (raises :class:`~solver.errors.NotationError`).

        >>> HandOptions.from_names(["no-jokers-ace-indicator=twin-wild"])
        Traceback (most recent call last):
        ...
        solver.errors.NotationError: no-jokers-ace-indicator applies only with wild-mode=no-jokers (HR-47): 'no-jokers-ace-indicator=twin-wild'
        """
        if self.no_jokers_ace_indicator != "redraw" and self.wild_mode != "no-jokers":
            raise NotationError("no-jokers-ace-indicator applies only with wild-mode=no-jokers",
                                text=f"no-jokers-ace-indicator={self.no_jokers_ace_indicator}",
                                rule="HR-47")
        if self.bonus_jokers != "as-ace" and self.wild_mode != "indicator":
            raise NotationError("bonus-jokers concerns regime-N jokers (natural aces), which "
                                "exist only with wild-mode=indicator",
                                text=f"bonus-jokers={self.bonus_jokers}", rule="A12")
        if self.teams and self.players != 4:
            raise NotationError("team play is for four players in two partnerships",
                                text=f"players={self.players}", rule="HR-1")
        if self.ace_group_only_runs != "none" and self.discarded_wild != "ace-group-only":
            raise NotationError("ace-group-only-runs applies only with "
                                "discarded-wild=ace-group-only",
                                text=f"ace-group-only-runs={self.ace_group_only_runs}",
                                rule="A10")


def option_table() -> list[tuple[str, str, str, str]]:
    """(name, values with the default first, rule, what) for help texts and docs."""
    return HandOptions.table()
