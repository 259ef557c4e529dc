"""Literature (docs/rules/literature.md): rules, inference over moving hands, simulator.

The game is :class:`solver.literature.game.LiteratureGame` (its doctest works EX-A of the
rules); ``GAME`` is its registered instance.  The package only re-exports, lazily.
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

