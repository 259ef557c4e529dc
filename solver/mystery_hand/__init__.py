"""Mystery Hand (docs/rules/mystery-hand.md, MH-1..MH-28, inferences E1..E8).

The game is :class:`solver.mystery_hand.game.MysteryHandGame`; ``GAME`` is its registered
instance.

>>> from solver.records import parse_record
>>> from solver.games import get_game
>>> a = get_game("mystery-hand").analyze(parse_record(EXAMPLE_1), "P1")
>>> a.certain("KS"), a.certain("4H"), sorted(a.possible["6H"])
('mystery', 'P2', ['P3', 'P4'])
"""
from __future__ import annotations

# Worked example 1 of the rules (section 7), from P1's view: P1 holds 5H and 6S, not 6H/KS.
EXAMPLE_1 = """game: mystery-hand
players: P1 P2 P3 P4
dealer: P4
me: P1
P1 holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC
P1 asks P2 4H-7H: 4H 7H
P2 asks all 6*: P1 1, P3 1, P4 2
P2 requests KS: nobody
"""


def __getattr__(name):
    if name == "GAME":
        from solver.games import get_game

        return get_game("mystery-hand")
    raise AttributeError(name)
