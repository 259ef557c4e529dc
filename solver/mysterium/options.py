"""Mysterium options (the rules file's named options and ambiguities) and the setup table.

Options come from the record header's ``variant:`` line, named as in
``docs/rules/mysterium.md`` with ``-`` for ``_``.  Every ambiguity A1..A11 uses its default
unless the named alternative is given.

Parsed by the one option machinery (:mod:`solver.options`): each option is an
:class:`~solver.options.Option` spec with the rule it comes from.

>>> o = MysteriumOptions.from_names(["hard", "tie-break=top-track"])
>>> o.difficulty, o.tie_break, o.count, str(o)
('hard', 'top-track', 'plurality', 'difficulty=hard, tie-break=top-track')
>>> MysteriumOptions.from_names(["timer-s=٦٠"])
Traceback (most recent call last):
...
solver.errors.NotationError: timer-s is a number of seconds, e.g. timer-s=60 (A1): 'timer-s=٦٠'
>>> s = setup_for(4, "medium")
>>> s.psychics, s.cards_per_kind, s.tokens_per_psychic, s.crows_total
(3, 6, 4, 3)
>>> setup_for(3, "easy").psychics, setup_for(3, "easy", psychics_3p=2).psychics
(4, 2)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from solver.errors import NotationError, RuleError
from solver.options import Option, Options

KINDS = ("character", "location", "object")
#: MY-2: 18 psychic cards of each kind, numbered 1..18 here.
CARDS_PER_KIND_IN_BOX = 18
#: MY-2: 84 vision cards; MY-7 and MY-8: the ghost holds 7.
VISION_DECK = 84
GHOST_HAND = 7
#: MY-15: the clock runs from hour 1 to hour 7.
LAST_HOUR = 7
DIFFICULTIES = ("easy", "medium", "hard")

#: MY-3: psychics by player count (incl. the ghost); 3 players: A5 (default 4).
PSYCHICS = {2: 2, 3: 4, 4: 3, 5: 4, 6: 5, 7: 6}
#: MY-3: clairvoyancy tokens per psychic (none with 2 or 3 players).
TOKENS = {2: 0, 3: 0, 4: 4, 5: 4, 6: 6, 7: 6}
#: MY-4: psychic cards of each kind on the table, by difficulty and player count.
TABLE_CARDS = {
    "easy": {2: 4, 3: 5, 4: 5, 5: 6, 6: 6, 7: 7},
    "medium": {2: 5, 3: 6, 4: 6, 5: 7, 6: 8, 7: 8},
    "hard": {2: 6, 3: 7, 4: 7, 5: 8, 6: 9, 7: 9},
}
#: MY-6: crows.  easy: 1 use per hour; medium: 3 for the game; hard: 1 for the game.
CROWS = {"easy": (None, 1), "medium": (3, None), "hard": (1, None)}  # (total, per hour)


@dataclass(frozen=True)
class Setup:
    """What MY-3, MY-4 and MY-6 give for a player count and difficulty."""

    players: int
    difficulty: str
    psychics: int
    cards_per_kind: int
    tokens_per_psychic: int
    crows_total: int | None      # medium, hard
    crows_per_hour: int | None   # easy

    def to_json(self) -> dict:
        return {"players": self.players, "difficulty": self.difficulty,
                "psychics": self.psychics, "cards_per_kind": self.cards_per_kind,
                "clairvoyance_tokens": self.tokens_per_psychic,
                "crows": ({"per_hour": self.crows_per_hour} if self.crows_per_hour
                          else {"total": self.crows_total})}


def setup_for(players: int, difficulty: str = "medium", psychics_3p: int = 4) -> Setup:
    """The setup for ``players`` (ghost included, MY-1: 2..7) at ``difficulty``."""
    if players not in PSYCHICS:
        raise RuleError("Mysterium is played by 2 to 7 players, the ghost included (MY-1)",
                        rule="MY-1", text=str(players))
    if difficulty not in TABLE_CARDS:
        raise NotationError("difficulty is easy, medium or hard (MY-4, MY-6)",
                            text=difficulty)
    psychics = PSYCHICS[players]
    if players == 3:
        psychics = psychics_3p  # A5
    total, per_hour = CROWS[difficulty]
    return Setup(players, difficulty, psychics, TABLE_CARDS[difficulty][players],
                 TOKENS[players], total, per_hour)


class _Number(Option):
    """A whole number of seconds (A1): any positive ASCII number, the default first."""

    def parse(self, value, raw):
        if not (value and value.isascii() and value.isdigit()) or int(value) <= 0:
            raise NotationError(f"{self.name} is a number of seconds, e.g. {self.name}=60",
                                text=raw, rule=self.rule)
        return int(value)

    def usage(self) -> str:
        return f"{self.name}=SECONDS"

    def choices_text(self, sep: str = " | ") -> str:
        return "a number of seconds"


class _Bands(Option):
    """MY-19: ``FIRST-INTERMEDIATE/FIRST-HIGH``."""

    def parse(self, value, raw):
        if not value:
            raise NotationError(f"{self.name} needs a value, e.g. {self.name}=5/9", text=raw,
                                rule=self.rule)
        return parse_bands(value, raw)

    def write(self, value) -> str:
        return f"{self.name}={value[0]}/{value[1]}"

    def usage(self) -> str:
        return f"{self.name}=LOW/HIGH"

    def choices_text(self, sep: str = " | ") -> str:
        return "FIRST-INTERMEDIATE/FIRST-HIGH"


class _YesNo(Option):
    """An on/off option written ``=yes``/``=no`` (a bare name is ``yes``)."""

    def parse(self, value, raw):
        if value in (None, "", "yes", "on"):
            return True
        if value in ("no", "off"):
            return False
        raise NotationError(f"{self.name} is no | yes", text=raw, rule=self.rule)

    def write(self, value) -> str:
        return f"{self.name}={'yes' if value else 'no'}"


SPECS: tuple[Option, ...] = (
    Option("difficulty", "difficulty", DIFFICULTIES[1:2] + DIFFICULTIES[:1] + DIFFICULTIES[2:],
           "MY-4", "cards on the table (MY-4) and crows (MY-6); a bare easy | medium | hard "
           "names it too"),
    Option("crow-discard", "crow_discard", ("any-number", "whole-hand"), "MY-9",
           "a crow discards any number of cards, or the whole hand"),
    Option("easy-crows", "easy_crows", ("per-hour", "per-psychic"), "A2",
           "easy: one crow per hour, or one per psychic per hour"),
    _Number("timer-s", "timer_s", (120,), "A1", "the sand timer in seconds (recorded only)"),
    Option("wrong-guess", "wrong_guess", ("keep-stage", "reset"), "A3",
           "a wrong guess keeps the stage, or sends the psychic back to the character"),
    Option("clairvoyance-limit", "clairvoyance_limit", ("per-psychic", "any"), "A4",
           "at most one token per other psychic per hour, or any number"),
    Option("psychics-3p", "psychics_3p", (4, 2), "A5",
           "3 players: each psychic player runs two psychics, or one"),
    Option("token-refresh", "token_refresh", ("start-of-hour-4", "end-of-hour-4"), "A6",
           "the clairvoyancy tokens come back at the start or the end of hour 4 (MY-14)"),
    Option("early-bonus", "early_bonus", ("7-h", "8-h"), "A7",
           "the MY-13 bonus is 7 - hour, or 8 - hour"),
    Option("tie-break", "tie_break", ("tied-voters", "top-track"), "A8",
           "a tied vote goes to the furthest-track psychic among the tied voters, or overall"),
    Option("eldest-outside", "eldest_outside", ("choose", "vote"), "A11",
           "still tied, an eldest who voted outside the tie chooses among the tied groups "
           "(a 'verdict:' line), or their vote is the verdict all the same"),
    _YesNo("epilogue-crows", "epilogue_crows", (False, True), "A9",
           "crows may be used in the epilogue"),
    Option("count", "count", ("plurality", "majority"), "A10",
           "the verdict needs a plurality, or a majority"),
    Option("culprit", "culprit", ("chosen", "random"), "MY-17",
           "the ghost chooses the culprit, or draws it at random"),
    _Bands("clairvoyance-bands", "clairvoyance_bands", ((5, 9),), "MY-19",
           "the first Intermediate and the first High space of the clairvoyancy track"),
)
OPTION_NAMES = tuple(s.name for s in SPECS)


@dataclass(frozen=True, repr=False)
class MysteriumOptions(Options):
    """The variant options of a Mysterium record (defaults = the rules file's defaults).

    ``difficulty`` (MY-4, MY-6), ``crow_discard`` (MY-9), ``easy_crows`` (A2),
    ``timer_s`` (A1; recorded only), ``wrong_guess`` (A3), ``clairvoyance_limit`` (A4),
    ``psychics_3p`` (A5), ``token_refresh`` (A6), ``early_bonus`` (A7), ``tie_break``
    (A8), ``epilogue_crows`` (A9), ``count`` (A10), ``culprit`` (MY-17),
    ``clairvoyance_bands`` (MY-19: the first Intermediate and the first High space) and
    ``eldest_outside`` (A11).
    """

    GAME = "Mysterium"
    SPECS = SPECS

    difficulty: str = "medium"
    crow_discard: str = "any-number"
    easy_crows: str = "per-hour"
    timer_s: int = 120
    wrong_guess: str = "keep-stage"
    clairvoyance_limit: str = "per-psychic"
    psychics_3p: int = 4
    token_refresh: str = "start-of-hour-4"
    early_bonus: str = "7-h"
    tie_break: str = "tied-voters"
    epilogue_crows: bool = False
    count: str = "plurality"
    culprit: str = "chosen"
    clairvoyance_bands: tuple[int, int] = (5, 9)
    eldest_outside: str = "choose"

    @classmethod
    def from_names(cls, names) -> "MysteriumOptions":
        """Build from ``variant:`` entries; a bare ``easy``/``medium``/``hard`` names the
        difficulty (MY-4)."""
        names = [f"difficulty={n.strip().lower()}" if n.strip().lower() in DIFFICULTIES else n
                 for n in names]
        return cast("MysteriumOptions", super().from_names(names))

    def variant(self) -> tuple[str, ...]:
        """The non-default options as ``variant:`` entries (round-trips ``from_names``)."""
        return tuple(self.names())


def parse_bands(text: str, raw: str | None = None) -> tuple[int, int]:
    """``5/9``: spaces 0-4 are Low, 5-8 Intermediate, 9 and up High (MY-19).  Numbers are
    ASCII digits only (``²`` or Arabic-Indic digits are refused).

    >>> parse_bands("4/10")
    (4, 10)
    """
    parts = [p.strip() for p in text.replace("-", "/").split("/")]
    if len(parts) == 2 and all(p.isascii() and p.isdigit() for p in parts):
        lo, hi = (int(p) for p in parts)
    else:
        lo = hi = -1
    if not 0 < lo < hi:
        raise NotationError("clairvoyance-bands is FIRST-INTERMEDIATE/FIRST-HIGH, "
                            "e.g. clairvoyance-bands=5/9", text=raw or text, rule="MY-19")
    return lo, hi


def band(score: int, bands: tuple[int, int]) -> str:
    """MY-19: the band of a clairvoyancy track space.

    >>> [band(s, (5, 9)) for s in (4, 5, 6, 11)]
    ['low', 'intermediate', 'intermediate', 'high']
    """
    lo, hi = bands
    return "low" if score < lo else "intermediate" if score < hi else "high"


#: MY-19: Low sees 1 shared-vision card, Intermediate 2, High 3.
CARDS_SEEN = {"low": 1, "intermediate": 2, "high": 3}
