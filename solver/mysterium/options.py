"""Mysterium options (the rules file's named options and ambiguities) and the setup table.

Options come from the record header's ``variant:`` line, named as in
``docs/rules/mysterium.md`` with ``-`` for ``_``.  Every ambiguity A1..A10 uses its default
unless the named alternative is given.

>>> o = MysteriumOptions.from_options({"difficulty": "hard", "tie-break": "top-track"})
>>> o.difficulty, o.tie_break, o.count
('hard', 'top-track', 'plurality')
>>> s = setup_for(4, "medium")
>>> s.psychics, s.cards_per_kind, s.tokens_per_psychic, s.crows_total
(3, 6, 4, 3)
>>> setup_for(3, "easy").psychics, setup_for(3, "easy", psychics_3p=2).psychics
(4, 2)
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from solver.errors import NotationError, RuleError

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


# option name -> (field, allowed values or a parser, rule)
_CHOICES = {
    "difficulty": ("difficulty", DIFFICULTIES, "MY-4"),
    "crow-discard": ("crow_discard", ("any-number", "whole-hand"), "MY-9"),
    "easy-crows": ("easy_crows", ("per-hour", "per-psychic"), "A2"),
    "wrong-guess": ("wrong_guess", ("keep-stage", "reset"), "A3"),
    "clairvoyance-limit": ("clairvoyance_limit", ("per-psychic", "any"), "A4"),
    "psychics-3p": ("psychics_3p", ("4", "2"), "A5"),
    "token-refresh": ("token_refresh", ("start-of-hour-4", "end-of-hour-4"), "A6"),
    "early-bonus": ("early_bonus", ("7-h", "8-h"), "A7"),
    "tie-break": ("tie_break", ("tied-voters", "top-track"), "A8"),
    "epilogue-crows": ("epilogue_crows", ("no", "yes"), "A9"),
    "count": ("count", ("plurality", "majority"), "A10"),
    "culprit": ("culprit", ("chosen", "random"), "MY-17"),
}
_VALUED = ("timer-s", "clairvoyance-bands")
OPTION_NAMES = tuple(_CHOICES) + _VALUED


@dataclass(frozen=True)
class MysteriumOptions:
    """The variant options of a Mysterium record (defaults = the rules file's defaults).

    ``difficulty`` (MY-4, MY-6), ``crow_discard`` (MY-9), ``easy_crows`` (A2),
    ``timer_s`` (A1; recorded only), ``wrong_guess`` (A3), ``clairvoyance_limit`` (A4),
    ``psychics_3p`` (A5), ``token_refresh`` (A6), ``early_bonus`` (A7), ``tie_break``
    (A8), ``epilogue_crows`` (A9), ``count`` (A10), ``culprit`` (MY-17) and
    ``clairvoyance_bands`` (MY-19: the first Intermediate and the first High space).
    """

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

    @classmethod
    def from_options(cls, opts: dict[str, str | bool]) -> "MysteriumOptions":
        """Build from ``Header.options()``.  A bare ``easy``/``medium``/``hard`` is accepted
        for ``difficulty=...`` and a bare flag for ``=yes`` (``epilogue-crows``)."""
        kw: dict = {}
        for name, value in opts.items():
            name = name.strip().lower().replace("_", "-")
            if value is True and name in DIFFICULTIES:
                name, value = "difficulty", name
            if name in _CHOICES:
                field, allowed, rule = _CHOICES[name]
                if value is True and "yes" in allowed:
                    value = "yes"
                value = str(value).strip().lower()
                if value not in allowed:
                    raise NotationError(f"option {name} ({rule}) is one of "
                                        + " | ".join(allowed), text=f"{name}={value}")
                if field == "psychics_3p":
                    kw[field] = int(value)
                elif field == "epilogue_crows":
                    kw[field] = value == "yes"
                else:
                    kw[field] = value
            elif name == "timer-s":
                try:
                    t = int(str(value))
                except ValueError:
                    t = 0
                if t <= 0 or value is True:
                    raise NotationError("timer-s (A1) is a number of seconds, e.g. timer-s=60",
                                        text=f"{name}={value}")
                kw["timer_s"] = t
            elif name == "clairvoyance-bands":
                kw["clairvoyance_bands"] = parse_bands(str(value))
            else:
                raise NotationError("unknown Mysterium option; expected one of "
                                    + ", ".join(OPTION_NAMES), text=name)
        return cls(**kw)

    def variant(self) -> tuple[str, ...]:
        """The non-default options as ``variant:`` entries (round-trips ``from_options``)."""
        out = []
        default = MysteriumOptions()
        for f in fields(self):
            v, d = getattr(self, f.name), getattr(default, f.name)
            if v == d:
                continue
            name = f.name.replace("_", "-")
            if f.name == "epilogue_crows":
                out.append(f"{name}={'yes' if v else 'no'}")
            elif f.name == "clairvoyance_bands":
                out.append(f"{name}={v[0]}/{v[1]}")
            else:
                out.append(f"{name}={v}")
        return tuple(out)


def parse_bands(text: str) -> tuple[int, int]:
    """``5/9``: spaces 0-4 are Low, 5-8 Intermediate, 9 and up High (MY-19).

    >>> parse_bands("4/10")
    (4, 10)
    """
    parts = text.replace("-", "/").split("/")
    try:
        lo, hi = (int(p) for p in parts)
    except ValueError:
        lo = hi = -1
    if not 0 < lo < hi:
        raise NotationError("clairvoyance-bands (MY-19) is FIRST-INTERMEDIATE/FIRST-HIGH, "
                            "e.g. clairvoyance-bands=5/9", text=text)
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
