"""Literature (docs/rules/literature.md): rules, inference over moving hands, simulator.

>>> from solver.records import parse_record
>>> rec = parse_record('''game: literature
... players: Ana Ben Cleo Dev Eli Fay
... me: Ana
... Ana holds: 2H 3H 4H 6H 7H 9S JC QD
... Ana asks Ben 10S: no
... Ben asks Cleo 9D: no
... Cleo asks Ben 3H: no
... ''')
>>> from solver.games import get_game
>>> a = get_game("literature").analyze(rec, "Ana")   # EX-A: Cleo asked for 3H, so she holds 5H
>>> a.cards["5H"], a.halves["2H-7H"].safe_claim
({'Cleo': 1.0}, {'Ana': ['2H', '3H', '4H', '6H', '7H'], 'Cleo': ['5H']})
"""
from __future__ import annotations

from solver.lazy import lazy_exports

_EXPORTS: dict[str, str | None] = {"GAME": None}
_EXPORTS["Ask"] = "solver.literature.events"
_EXPORTS["Challenge"] = "solver.literature.events"
_EXPORTS["Claim"] = "solver.literature.events"
_EXPORTS["Holds"] = "solver.literature.events"
_EXPORTS["PassClaim"] = "solver.literature.events"
_EXPORTS["PassTurn"] = "solver.literature.events"
_EXPORTS["Shown"] = "solver.literature.events"
_EXPORTS["OUT"] = "solver.literature.engine"
_EXPORTS["ClaimResult"] = "solver.literature.engine"
_EXPORTS["Fact"] = "solver.literature.engine"
_EXPORTS["Play"] = "solver.literature.engine"
_EXPORTS["HalfSuit"] = "solver.literature.table"
_EXPORTS["LiteratureOptions"] = "solver.literature.options"
_EXPORTS["Table"] = "solver.literature.table"
_EXPORTS["table_of"] = "solver.literature.table"
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS, game="literature")

