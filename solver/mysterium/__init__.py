"""Mysterium (docs/rules/mysterium.md, MY-1..MY-22): the psychics' notebook.

Rules engine (:mod:`.engine`), statements (:mod:`.events`), options and setup
(:mod:`.options`, :mod:`.roster`), exact deduction of the secret cards (:mod:`.inference`),
the epilogue count (:mod:`.epilogue`), the analysis (:mod:`.analysis`) and a simulator
(:mod:`.simulate`).  No Click, no printing.

>>> from solver.records import parse_record
>>> rec = parse_record('''game: mysterium
... players: Gus Ana Ben Cleo
... table character: 1 2 3 4 5 6
... table location: 1 2 3 4 5 6
... table object: 1 2 3 4 5 6
... hour 1
... Ana guesses character 1: right
... Ben guesses character 2: wrong
... Cleo guesses character 3: wrong
... ''')
>>> # Ben is not 2, Cleo is not 3, and they differ: card 3 is likelier for Ben (D2)
>>> from solver.games import get_game
>>> a = get_game("mysterium").analyze(rec, None)
>>> {c: str(p) for c, p in a.deduction.kinds["character"].distribution("Ben").items()}
{3: '4/13', 4: '3/13', 5: '3/13', 6: '3/13'}
"""
from __future__ import annotations

from solver.lazy import lazy_exports

_EXPORTS: dict[str, str | None] = {"GAME": None}
_EXPORTS["MysteriumAnalysis"] = "solver.mysterium.analysis"
_EXPORTS["analyze"] = "solver.mysterium.analysis"
_EXPORTS["check"] = "solver.mysterium.analysis"
_EXPORTS["check_consistent"] = "solver.mysterium.analysis"
_EXPORTS["facts_for"] = "solver.mysterium.analysis"
_EXPORTS["UNUSED"] = "solver.mysterium.inference"
_EXPORTS["kind_model"] = "solver.mysterium.inference"
_EXPORTS["count_votes"] = "solver.mysterium.epilogue"
_EXPORTS["card_name"] = "solver.mysterium.events"
_EXPORTS["parse_card"] = "solver.mysterium.events"
_EXPORTS["parse_event"] = "solver.mysterium.events"
_EXPORTS["MysteriumOptions"] = "solver.mysterium.options"
_EXPORTS["Setup"] = "solver.mysterium.options"
_EXPORTS["setup_for"] = "solver.mysterium.options"
_EXPORTS["replay"] = "solver.mysterium.engine"
_EXPORTS["roster_of"] = "solver.mysterium.roster"
_EXPORTS["simulate"] = "solver.mysterium.simulate"
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS, game="mysterium")

