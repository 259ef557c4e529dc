"""Hand (rummy) as played in Jordan, Lebanon and Palestine (shared/rules/hand-rummy.md,
HR-1..HR-59, ambiguities A1..A17): meld legality and values, the provably best initial meld
and going out, table moves, the redeal check, round scoring and the whole-game scoresheet.

No Click and no printing here; ``cli/hand.py`` formats.

>>> from solver.cards import Card, parse_cards
>>> r = check("7D AC 9D | 5S 5C AC", Card.parse("7C"))        # HR-17 rows 1 and 2
>>> [(m.kind, m.wild_text(), m.value) for m in r.reports], r.total, r.opens
([('run', 'AC = 8D', 24), ('group', 'AC = 5H+5D', 15)], 39, False)
>>> best(parse_cards("AH 2H 3H 4H 5H 9H 9S 9D KC"), Card.parse("7S")).to_json()["best_initial"]
{'melds': [['9S', '9H', '9D'], ['AH', '2H', '3H', '4H', '5H']], 'value': 52, 'left': ['KC']}
>>> from solver.records import parse_record
>>> sheet = GAME.analyze(parse_record(EXAMPLE), None)
>>> sheet.totals, sheet.next_dealer
({'Ana': -60, 'Ben': 90, 'Cleo': 200}, 'Cleo')
"""
from __future__ import annotations

from solver.errors import RuleError
from solver.games import Game
from solver.hand.best import BestResult, best
from solver.hand.melds import (CheckResult, MeldReport, analyse_meld, check, parse_meld,
                               parse_melds)
from solver.hand.options import HandOptions
from solver.hand.redeal import RedealResult, redeal
from solver.hand.regime import Regime, make_regime, penalty
from solver.hand.scoring import (RoundEvent, Scoresheet, UnscoredEvent, parse_event,
                                 round_scores, score_sheet, team_pairs)
from solver.hand.table import MovesResult, moves

__all__ = ["GAME", "HandOptions", "Regime", "make_regime", "penalty", "analyse_meld", "check",
           "parse_meld", "parse_melds", "MeldReport", "CheckResult", "best", "BestResult",
           "moves", "MovesResult", "redeal", "RedealResult", "round_scores", "score_sheet",
           "Scoresheet", "RoundEvent", "UnscoredEvent"]

EXAMPLE = """game: hand
players: Ana Ben Cleo
dealer: Cleo
round 1: Ana out full-hand; Ben 45, Cleo no-meld
"""


class HandGame(Game):
    """The ``hand`` game: scoresheet records (one statement per deal)."""

    name = "hand"
    header_keys = ("teams",)

    def check_header(self, header) -> None:
        options = HandOptions.from_names(header.variant)
        n = len(header.players)
        if not 2 <= n <= 4:
            raise RuleError(f"Hand is for 2, 3 or 4 players (4 in two teams), not {n}",
                            text=" ".join(header.players), rule="HR-1")
        team_pairs(header, options)

    def parse_event(self, text, header):
        return parse_event(text, header)

    def validate(self, record) -> None:
        score_sheet(record)

    def analyze(self, record, view=None, **kw) -> Scoresheet:
        """The scoresheet: every deal, totals, standings, next dealer (``view`` is kept in
        the output; a scoresheet is public)."""
        sheet = score_sheet(record)
        sheet.view = view
        return sheet


GAME = HandGame()
