"""The registry of games: name -> the module that implements it.

Each game module exposes ``GAME``, an object with ``name``, ``header_keys``,
``check_header(header)``, ``parse_event(text, header)`` and ``validate(record)``; games
that analyse records also have ``analyze(record, view=..., **options)``.

>>> get_game("mystery-hand").name
'mystery-hand'
"""
from __future__ import annotations

import importlib

from solver.errors import NotationError

GAME_MODULES = {
    "mystery-hand": "solver.mystery_hand",
    "literature": "solver.literature",
    "hand": "solver.hand",
    "twenty-two": "solver.twenty_two",
    "mysterium": "solver.mysterium",
}


def get_game(name: str):
    """The ``GAME`` object of a game, by its record name."""
    mod = GAME_MODULES.get(name)
    if mod is None:
        raise NotationError("unknown game; expected one of " + " | ".join(GAME_MODULES),
                            text=name)
    try:
        return importlib.import_module(mod).GAME
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith(mod):
            raise NotationError("this game is not supported by this version of cardsleuth",
                                text=name) from None
        raise


class Game:
    """Base of every game's ``GAME`` object.

    Subclasses implement ``parse_event`` and usually ``validate``; games that analyse
    records add ``analyze(record, view)`` (returning an object with ``to_json()``),
    ``explain(record, view, card)``, ``check(record)`` (raise
    :class:`~solver.errors.InconsistentError` if the observations conflict) and
    ``simulate(players, options, seed, events)``.
    """

    name = ""
    header_keys: tuple[str, ...] = ()

    def check_header(self, header) -> None:
        """Raise a :class:`~solver.errors.SleuthError` for a header this game cannot play."""

    def parse_event(self, text: str, header):
        raise NotImplementedError(f"{type(self).__name__} must implement parse_event")

    def validate(self, record) -> None:
        """Raise :class:`~solver.errors.RuleError` (with the line) for an illegal record."""
