"""Mystery Hand (shared/rules/mystery-hand.md, MH-1..MH-28, inferences E1..E8).

>>> from solver.records import parse_record
>>> rec = parse_record(EXAMPLE_1)
>>> a = GAME.analyze(rec, "P1")
>>> a.certain("KS"), a.certain("4H"), sorted(a.possible["6H"])
('mystery', 'P2', ['P3', 'P4'])
"""
from __future__ import annotations

from solver.games import Game
from solver.mystery_hand import analysis, events, rules
from solver.mystery_hand.options import MysteryHandOptions, deal_sizes

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


class MysteryHandGame(Game):
    name = "mystery-hand"

    def check_header(self, header) -> None:
        opts = MysteryHandOptions.from_names(header.variant)
        deal_sizes(len(header.players), opts)

    def parse_event(self, text, header):
        return events.parse_event(text, header)

    def validate(self, record) -> None:
        rules.validate(record)

    def analyze(self, record, view, **kw):
        return analysis.analyze(record, view, **kw)

    def explain(self, record, view, card_text):
        return analysis.explain(record, view, card_text)

    def check(self, record) -> None:
        """Raise InconsistentError if no deal fits everything written in the record."""
        from solver.mystery_hand.inference import build

        vm = build(record, record.header.me, omniscient=True)
        core = vm.model.conflict()
        if core is not None:
            raise analysis.inconsistent(vm)

    def simulate(self, n_players, options, seed, events_limit=None):
        from solver.mystery_hand.simulate import simulate

        return simulate(n_players, options, seed, events_limit)


GAME = MysteryHandGame()
