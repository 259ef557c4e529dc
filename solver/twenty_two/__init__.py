"""Twenty-Two, with Rasmussen's variant and Twenty-Six (shared/rules/twenty-two.md: TT-1..TT-17,
TT-V1 ``rasmussen``, TT-V2 ``twenty-six``, inferences I1..I6, ambiguities A1..A10).

Statements are documented in docs/twenty-two.md; an illegal one is refused naming its rule:

>>> from solver.records import parse_record
>>> rec = parse_record(EXAMPLE)
>>> eng = rules.replay(rec)
>>> eng.deals[0].size, eng.deals[0].stock0, eng.turn().kind
(7, 31, 'lead')
>>> parse_record(EXAMPLE + "Ana leads 7D\\n")
Traceback (most recent call last):
...
solver.errors.RuleError: <record>:10: Cleo leads (the dealer's left) (TT-9): 'Ana leads 7D'
"""
from __future__ import annotations

from solver.errors import SleuthError
from solver.games import Game
from solver.twenty_two import analysis, events, rules
from solver.twenty_two.options import TwentyTwoOptions, check_players

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


class TwentyTwoGame(Game):
    name = "twenty-two"

    def check_header(self, header) -> None:
        check_players(len(header.players), TwentyTwoOptions.from_names(header.variant))

    def parse_event(self, text, header):
        return events.parse_event(text, header)

    def validate(self, record) -> None:
        try:
            rules.validate(record)
        except SleuthError as e:
            raise e.located(path=record.path) from None

    def analyze(self, record, view, **kw):
        return analysis.analyze(record, view, **kw)

    def explain(self, record, view, card_text):
        return analysis.explain(record, view, card_text)

    def check(self, record) -> None:
        """Raise InconsistentError (with the conflicting lines) if the record's own view finds
        no deal that fits every statement, in any hand so far."""
        analysis.check(record)

    def simulate(self, n_players, options, seed, events_limit=None):
        from solver.twenty_two.simulate import simulate

        return simulate(n_players, options, seed, events_limit)


GAME = TwentyTwoGame()
