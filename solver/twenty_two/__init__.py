"""Twenty-Two, with Rasmussen's variant and Twenty-Six (docs/rules/twenty-two.md: TT-1..TT-17,
TT-V1 ``rasmussen``, TT-V2 ``twenty-six``, inferences I1..I6, ambiguities A1..A10).

Statements are documented in docs/twenty-two.md; an illegal one is refused naming its rule:

>>> from solver.records import parse_record
>>> rec = parse_record(EXAMPLE)
>>> from solver.twenty_two import engine
>>> eng = engine.replay(rec)
>>> eng.deals[0].size, eng.deals[0].stock0, eng.turn().kind
(7, 31, 'lead')
>>> parse_record(EXAMPLE + "Ana leads 7D\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.RuleError: <record>:10:...Cleo leads (the dealer's left) (TT-9): 'Ana leads 7D'
"""
from __future__ import annotations

from solver.lazy import lazy_exports

_EXPORTS: dict[str, str | None] = {"GAME": None}
_EXPORTS["TwentyTwoOptions"] = "solver.twenty_two.options"
_EXPORTS["check_players"] = "solver.twenty_two.options"
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS, game="twenty-two")


EXAMPLE = """game: twenty-two
players: Ana Ben Cleo
dealer: Ben
me: Ana
Ben deals 7
Ana holds: 2C 5H 7D 9S JC QH AD
Cleo exchanges 1
Ana exchanges 2: 2C 5H -> 3S KD
Ben exchanges 0
"""
