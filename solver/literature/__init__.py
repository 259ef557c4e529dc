"""Literature (shared/rules/literature.md): rules, inference over moving hands, simulator.

>>> from solver.records import parse_record
>>> rec = parse_record('''game: literature
... players: Ana Ben Cleo Dev Eli Fay
... me: Ana
... Ana holds: 2H 3H 4H 6H 7H 9S JC QD
... Ana asks Ben 10S: no
... Ben asks Cleo 9D: no
... Cleo asks Ben 3H: no
... ''')
>>> a = GAME.analyze(rec, "Ana")   # EX-A: Cleo asked for 3H, so she holds 5H
>>> a.cards["5H"], a.halves["2H-7H"].safe_claim
({'Cleo': 1.0}, {'Ana': ['2H', '3H', '4H', '6H', '7H'], 'Cleo': ['5H']})
"""
from __future__ import annotations

from solver.games import Game
from solver.literature.events import (Ask, Challenge, Claim, Holds, PassClaim, PassTurn, Shown,
                                      parse_event as _parse_event)
from solver.literature.play import OUT, ClaimResult, Fact, Play, validate as _validate
from solver.literature.rules import HalfSuit, LiteratureOptions, Table, table_of

__all__ = ["GAME", "LiteratureGame", "LiteratureOptions", "Table", "HalfSuit", "Play", "Fact",
           "ClaimResult", "OUT", "Holds", "Ask", "Claim", "Shown", "PassTurn", "PassClaim",
           "Challenge"]


class LiteratureGame(Game):
    name = "literature"
    header_keys = ("teams",)

    def check_header(self, header) -> None:
        table_of(header)

    def parse_event(self, text: str, header):
        return _parse_event(text, table_of(header))

    def validate(self, record) -> None:
        _validate(record)

    def options(self, header) -> LiteratureOptions:
        return table_of(header).options

    def analyze(self, record, view=None, **kw):
        from solver.literature.infer import analyze

        return analyze(record, view, **kw)

    def check(self, record) -> None:
        from solver.literature.infer import check

        check(record)

    def explain(self, record, view, card_text: str):
        from solver.literature.infer import explain

        return explain(record, view, card_text)

    def check_claim(self, record, view, claim_text: str, **kw):
        from solver.literature.infer import check_claim

        return check_claim(record, view, claim_text, **kw)

    def simulate(self, players, options=(), seed: int = 0, events: int | None = None, **kw):
        from solver.literature.simulate import simulate

        return simulate(players, options, seed, events, **kw)


GAME = LiteratureGame()
