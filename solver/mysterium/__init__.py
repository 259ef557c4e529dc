"""Mysterium (shared/rules/mysterium.md, MY-1..MY-22): the psychics' notebook.

Rules engine (:mod:`.play`), statements (:mod:`.events`), options and setup
(:mod:`.options`, :mod:`.roster`), exact deduction of the secret cards (:mod:`.deduce`),
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
>>> a = GAME.analyze(rec, None)
>>> {c: str(p) for c, p in a.deduction.kinds["character"].distribution("Ben").items()}
{3: '4/13', 4: '3/13', 5: '3/13', 6: '3/13'}
"""
from __future__ import annotations

from solver.errors import NotationError
from solver.games import Game
from solver.mysterium.analysis import MysteriumAnalysis, analyze, check, check_consistent, facts_for
from solver.mysterium.deduce import UNUSED, kind_model
from solver.mysterium.epilogue import count_votes
from solver.mysterium.events import card_name, parse_card, parse_event
from solver.mysterium.options import MysteriumOptions, Setup, setup_for
from solver.mysterium.play import replay
from solver.mysterium.roster import roster_of
from solver.mysterium.simulate import simulate


class MysteriumGame(Game):
    name = "mysterium"
    header_keys = ("ghost", "psychics", "eldest")

    def check_header(self, header) -> None:
        roster_of(header)

    def parse_event(self, text: str, header):
        return parse_event(text, header)

    def validate(self, record) -> None:
        replay(record)

    def analyze(self, record, view: str | None = None) -> MysteriumAnalysis:
        return analyze(record, view)

    def check(self, record) -> None:
        check(record)

    def explain(self, record, view: str | None, card_text: str):
        """``sleuth why RECORD C3``: why a card can or cannot be each psychic's secret."""
        from solver.model import explain_card

        kind, number = parse_card(card_text)
        play = replay(record)
        facts = facts_for(play, view)
        check_consistent(play, facts)
        if number not in play.table.get(kind, ()):
            raise NotationError("that card is not on the table (MY-4)", text=card_text)
        model = kind_model(kind, play.table[kind], play.roster.psychics, facts)
        statements = {s.line: s.text for s in record.statements}
        return explain_card(model, [(kind, number)], model.backbone(), statements,
                            loc_label=lambda l: "no psychic (unused)" if l == UNUSED
                            else f"psychic {l}")

    def simulate(self, players: int, options, seed: int = 0, events: int | None = None):
        return simulate(players, options, seed, events)


GAME = MysteriumGame()

__all__ = ["GAME", "MysteriumGame", "MysteriumOptions", "MysteriumAnalysis", "Setup",
           "setup_for", "parse_event", "card_name", "count_votes", "replay", "analyze",
           "check", "simulate"]
