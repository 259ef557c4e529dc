"""Hand (rummy) as played in Jordan, Lebanon and Palestine (docs/rules/hand-rummy.md,
HR-1..HR-59, ambiguities A1..A17): meld legality and values, the provably best initial meld
and going out, table moves, the redeal check, round scoring and the whole-game scoresheet.

No Click and no printing here; ``cli/hand.py`` formats.

>>> from solver.cards import Card, parse_cards
>>> from solver.hand import best, check
>>> r = check("7D AC 9D | 5S 5C AC", Card.parse("7C"))        # HR-17 rows 1 and 2
>>> [(m.kind, m.wild_text(), m.value) for m in r.reports], r.total, r.opens
([('run', 'AC = 8D', 24), ('group', 'AC = 5H+5D', 15)], 39, False)
>>> best(parse_cards("AH 2H 3H 4H 5H 9H 9S 9D KC"), Card.parse("7S")).to_json()["best_initial"]
{'melds': [['9S', '9H', '9D'], ['AH', '2H', '3H', '4H', '5H']], 'value': 52, 'left': ['KC']}
>>> from solver.records import parse_record
>>> from solver.games import get_game
>>> sheet = get_game("hand").analyze(parse_record(EXAMPLE), None)
>>> sheet.totals, sheet.next_dealer
({'Ana': -60, 'Ben': 90, 'Cleo': 200}, 'Cleo')
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from solver.lazy import keep_functions, lazy_exports

if TYPE_CHECKING:   # the functions named like their submodules (keep_functions, below)
    from solver.hand.best import best as best
    from solver.hand.redeal import redeal as redeal

_EXPORTS: dict[str, str | None] = {"GAME": None}
_EXPORTS["BestResult"] = "solver.hand.best"
_EXPORTS["best"] = "solver.hand.best"
_EXPORTS["RedealResult"] = "solver.hand.redeal"
_EXPORTS["redeal"] = "solver.hand.redeal"
_EXPORTS["CheckResult"] = "solver.hand.melds"
_EXPORTS["MeldReport"] = "solver.hand.melds"
_EXPORTS["analyse_meld"] = "solver.hand.melds"
_EXPORTS["check"] = "solver.hand.melds"
_EXPORTS["parse_meld"] = "solver.hand.melds"
_EXPORTS["parse_melds"] = "solver.hand.melds"
_EXPORTS["HandOptions"] = "solver.hand.options"
_EXPORTS["Regime"] = "solver.hand.regime"
_EXPORTS["make_regime"] = "solver.hand.regime"
_EXPORTS["penalty"] = "solver.hand.regime"
_EXPORTS["RoundEvent"] = "solver.hand.events"
_EXPORTS["Scoresheet"] = "solver.hand.analysis"
_EXPORTS["UnscoredEvent"] = "solver.hand.events"
_EXPORTS["parse_event"] = "solver.hand.events"
_EXPORTS["round_scores"] = "solver.hand.engine"
_EXPORTS["score_sheet"] = "solver.hand.analysis"
_EXPORTS["team_pairs"] = "solver.hand.engine"
_EXPORTS["MovesResult"] = "solver.hand.table"
_EXPORTS["moves"] = "solver.hand.table"
_EXPORTS["TakeResult"] = "solver.hand.taking"
_EXPORTS["take"] = "solver.hand.taking"
__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS, game="hand")
keep_functions(__name__, ("best", "redeal"))   # submodules named like their function

EXAMPLE = """game: hand
players: Ana Ben Cleo
dealer: Cleo
round 1: Ana out full-hand; Ben 45, Cleo no-meld
"""

