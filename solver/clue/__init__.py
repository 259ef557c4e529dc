"""Clue (Cluedo) (docs/rules/clue.md, CL-1..CL-13, inferences E1..E5).

The game is :class:`solver.clue.game.ClueGame`; ``GAME`` is its registered instance.
``EXAMPLE`` is the worked position of the rules (section 5) from Ana's view.
"""
from __future__ import annotations

EXAMPLE = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev
me: Ana
Ana holds: Scarlet Rope Kitchen Hall Study
Ana suggests Plum Knife Library: Ben passes, Cleo shows Knife
Ben suggests Plum Rope Lounge: Cleo passes, Dev passes, Ana shows Rope
Cleo suggests Mustard Pipe Ballroom: nobody
Dev accuses Green Wrench Study: wrong
"""


def __getattr__(name):
    if name == "GAME":
        from solver.games import get_game

        return get_game("clue")
    raise AttributeError(name)
