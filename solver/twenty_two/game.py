"""The Twenty-Two :class:`~solver.games.Game`, with Rasmussen's variant and Twenty-Six
(TT-1..TT-17, TT-V1, TT-V2, inferences I1..I6).

>>> from solver.records import parse_record
>>> from solver.twenty_two import EXAMPLE
>>> k = TwentyTwoGame().knowledge(parse_record(EXAMPLE), "Ana")
>>> k.summary["deal"], k.summary["unseen"]
(1, 43)
"""
from __future__ import annotations

import math

from solver.errors import SleuthError
from solver.games import CARDS, NAMES, Capability, Game, Keywords, Knowledge, Vocabulary
from solver.model.budget import Budget


class TwentyTwoGame(Game):
    name = "twenty-two"
    title = "Twenty-Two"
    package = "twenty_two"
    rules = "twenty-two"
    rule_prefix = "TT"
    capabilities = frozenset({Capability.ANALYZE, Capability.EXPLAIN, Capability.CHECK,
                              Capability.SIMULATE, Capability.REPLAY})
    player_counts = (2, 3, 4, 5, 6, 7)
    measure = "entropy of the card locations (bits)"
    location_words = ("stock", "discards", "out")
    examples = ("draw: Ana KH, Ben 9H, Cleo 10H", "Ana deals 7",
                "Ana holds: 4S 5S 8S 5D 7D 2C 10C", "Ben exchanges 3", "Cleo exchanges 0",
                "Ana exchanges 3: 5D 8S 2C -> 3C 2D QH", "Ben leads QC; Cleo 4H; Ana QH",
                "Ana leads 7D; Ben AH; Cleo 6S", "Ben leads 10S; Cleo ?; Ana 2D",
                "turn: Cleo", "Cleo leads KH; Ana 3C; Ben AC",
                "Ben leads 4D; Cleo 9H; Ana 4S", "Cleo leads 9D", "Ana plays 10C", "Ben: ?",
                "showdown: Ben 9S, Cleo 9C, Ana 5S")
    keywords = Keywords(("showdown", "draw"), ("deals", "holds", "exchanges", "leads", "plays"),
                        (),
                        # TT-5: a deal is a number; TT-8: an exchange, its cards after ':'
                        (("deals", ((),), ()),
                         ("holds", ((),), (CARDS,)),
                         ("exchanges", ((),), (CARDS, "->")),
                         ("showdown", ((),), (NAMES, CARDS)),
                         ("draw", ((),), (NAMES, CARDS))))

    def options(self, header):
        from solver.twenty_two.options import TwentyTwoOptions

        return TwentyTwoOptions.of(header)

    def check_header(self, header) -> None:
        from solver.twenty_two.options import check_players

        check_players(len(header.players), self.options(header), " ".join(header.players))

    def parse_event(self, text, header):
        from solver.twenty_two import events

        return events.parse_event(text, header)

    def validate(self, record) -> None:
        from solver.twenty_two import engine

        try:
            engine.run(record)
        except SleuthError as e:
            raise e.located(path=record.path) from None

    def analyze(self, record, view, *, budget: Budget = Budget()):
        from solver.twenty_two import analysis

        return analysis.analyze(record, view, **budget.kwargs())

    def explain(self, record, view, card):
        from solver.twenty_two import analysis

        return analysis.explain(record, view, card)

    def check(self, record) -> None:
        """Raise InconsistentError (with the conflicting lines) if the record's own view finds
        no deal that fits every statement, in any hand so far."""
        from solver.twenty_two import analysis

        analysis.check(record)

    def simulate(self, players, options, seed=0, events=None, miss=0.0):
        from solver.twenty_two.simulate import simulate

        if miss:    # not lossy: every record it writes is complete
            raise ValueError(f"{self.title} does not simulate lossy records")
        return simulate(players, options, seed, events)

    def truth(self, record):
        """Where every card of the current deal is after a complete record (every hand
        given): the holdings, the known discards, the cards out, the rest in the stock."""
        from collections import Counter

        from solver.twenty_two.engine import replay
        from solver.twenty_two.inference import DISCARDS, OUT, STOCK, is_complete

        eng = replay(record)
        if not is_complete(eng):
            return None
        d = eng.deal
        assert d is not None    # a complete record has a deal (is_complete)
        where: dict[str, list[str]] = {}
        placed: Counter = Counter()
        for loc, cards in ([(p, eng.known[p]) for p in d.receivers]
                           + [(DISCARDS, eng.known_discards), (OUT, eng.public)]):
            for name, k in cards.items():
                where.setdefault(name, []).extend([loc] * k)
                placed[name] += k
        for name, k in d.deck.items():
            where.setdefault(name, []).extend([STOCK] * (k - placed[name]))
        return {c: ", ".join(sorted(ls)) for c, ls in where.items() if ls}

    # ----- replay and session ------------------------------------------------------------
    def views(self, record):
        from solver.twenty_two.inference import is_complete
        from solver.twenty_two.engine import replay

        h = record.header
        if is_complete(replay(record)):
            return list(h.players)
        return [h.me] if h.me else []

    def knowledge(self, record, view, budget: Budget = Budget()) -> Knowledge:
        from solver.twenty_two import analysis
        from solver.twenty_two.events import Deal

        if not any(isinstance(s.event, Deal) for s in record.statements):
            view = None            # nothing dealt yet: every view is the public one
        kw = budget.kwargs()
        kw.setdefault("samples", 50)
        a = analysis.analyze(record, view, **kw)
        certain = {c: next(iter(ls)) for c, ls in a.possible.items() if len(ls) == 1}
        ent = 0.0
        for name, locs in a.cards.items():
            copies = sum(locs.values())
            for p in locs.values():
                q = p / copies if copies else 0.0
                if 0 < q < 1:
                    ent -= copies * q * math.log2(q)
        summary = {"deal": a.deal_number, "unseen": sum(a.unseen.values()),
                   "certain": len(certain), "turn": a.turn,
                   "totals": {p: s["total"] for p, s in a.scores.items()}}
        return Knowledge(certain, ent, a.exact, summary)

    def certainties(self, record, view) -> Knowledge:
        """The backbone of the current hand alone (no count, no chances)."""
        from solver.twenty_two import analysis
        from solver.twenty_two.events import Deal

        if not any(isinstance(s.event, Deal) for s in record.statements):
            view = None            # nothing dealt yet: every view is the public one
        return Knowledge(analysis.certain_now(record, view), None, False)

    def table_notes(self, record, view, analysis=None):
        """The setup the rules call for that is missing: the deal (TT-4, TT-5, TT-6) and the
        recorder's own hand of the current deal (none once the game is over, TT-17)."""
        from solver.games import Note
        from solver.twenty_two.engine import replay

        eng = replay(record)
        if eng.over:            # the sheet says who won (TT-17): nothing is missing
            return []
        if not eng.deals:
            return [Note(self._deal_missing(eng))]
        deal = eng.deals[-1]
        held = {e[1] for e in deal.events if e[0] == "holds"}
        if view and view in deal.receivers and view not in held:
            return [Note(f"Missing: your own hand of this deal ('{view} holds: ...'; TT-5, "
                         f"TT-6: {deal.size} cards each).", hand_missing=True)]
        return []

    def vocabulary(self, record) -> Vocabulary:
        v = super().vocabulary(record)
        return Vocabulary(v.names, v.lead, v.verbs, v.words, v.cards + ("Jk",), v.ranges)

    @staticmethod
    def _deal_missing(eng) -> str:
        """The note for a record without its first deal, its example written with the
        record's players: the dealer the rules call for (the header's, or the highest
        draw's, TT-4), the tied players' draw again where a draw was tied (TT-4), else
        (anyone may deal until a draw) the game's example ``Ben deals 7`` by seat, the
        record's second player; as many cards as the deal gives (TT-5, TT-7)."""
        players = list(eng.players)
        if eng.draw_pool is not None:
            tied = list(eng.draw_pool)
            again = ", ".join(f"{p} ..." for p in tied)
            return (f"Missing: the deal: {' and '.join(tied)} drew the same rank and draw "
                    f"again ('draw: {again}'; TT-4: the highest draw deals, ties draw "
                    f"again), then the winner deals (TT-5: 7 cards each).")
        allowed = eng.allowed_dealers()
        dealer = allowed[0] if len(allowed) == 1 else players[1 % len(players)]
        per = eng.deal_plan(dealer)[1]
        size = "TT-5: 7 cards each" if per == 7 else f"TT-5, TT-7: {per} cards each"
        return (f"Missing: the deal ('{dealer} deals {per}'; TT-4: the highest draw deals, "
                f"{size}).")
