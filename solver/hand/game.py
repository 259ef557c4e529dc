"""The Hand (rummy) :class:`~solver.games.Game`: scoresheet records (one statement per
deal) and round records (one round turn by turn, ending in its scoring statement)
(HR-1..HR-59, ambiguities A1..A17).

>>> from solver.records import parse_record
>>> from solver.hand import EXAMPLE
>>> k = HandGame().knowledge(parse_record(EXAMPLE), None)
>>> k.summary["totals"], k.summary["leaders"]
({'Ana': -60, 'Ben': 90, 'Cleo': 200}, ['Ana'])
"""
from __future__ import annotations

from solver.errors import RuleError
from solver.games import CARDS, Capability, Finding, Game, Keywords, Knowledge, Vocabulary
from solver.model.budget import Budget


class HandGame(Game):
    """The ``hand`` game: scoresheet records and round records."""

    name = "hand"
    title = "Hand"
    commands_help = "Hand (rummy): melds, the best opening, table moves, scoring."
    package = "hand"
    rules = "hand-rummy"
    rule_prefix = "HR"
    capabilities = frozenset({Capability.ANALYZE, Capability.REPLAY,
                              Capability.SIMULATE})
    player_counts = (2, 3, 4)
    header_keys = ("teams",)
    location_words = ("stock", "discards", "table", "indicator")
    # 'round 3: ...' and 'indicator 7C' start as a player's 'Round draws' would
    statement_words = ("round", "indicator")
    public_view = False          # a scoresheet is public: every view is the same
    # the scoresheet lines in order are one game under the header above (HR-5, HR-36)
    examples = ("indicator Jk", "indicator 7C",
                "Ana holds: AS 2S 8S AH 3H 4H JH 3D JD JD AC 4C 4C 9C Jk",
                "Ana melds AS AH Jk | JH JD AC", "Ana discards JD", "Cleo draws", "Cleo draws 3D",
                "Cleo takes 9C", "Ana lays off 4H on 6", "Cleo swaps KD on 6",
                "Ana calls two cards", "Ben: ?", "turn: Ben",
                # a scoresheet's round lines, in order (HR-5: the worst score deals next;
                # HR-36: an unscored deal takes no round number)
                "round 1: Cleo out partial; Ana 2D 2S, Ben 2C 2D 4S", "round 2: unscored stock",
                "round 2: unscored redeal Ben",
                "round 2 dealer Ben indicator 7C: Cleo out partial; Ana 2D 2S, Ben 2C 2D 4S")
    keywords = Keywords(("round", "indicator"),
                        ("holds", "draws", "takes", "melds", "lays", "swaps", "discards",
                         "calls"),
                        ("dealer", "indicator", "unscored", "redeal", "stock",
                         "out", "partial", "full-hand", "no-meld",
                         "wild-discard", "two-wilds", "colour", "suit", "off", "on", "one",
                         "two", "three", "card", "cards"),
                        # HR-7 the indicator; HR-28 a turn: draw or take, meld, lay off,
                        # swap, discard; HR-33 the calls
                        (("indicator", ((CARDS,),), ()),
                         ("holds", ((),), (CARDS,)),
                         ("draws", ((CARDS,),), ()),
                         ("takes", ((CARDS,),), ()),
                         ("melds", ((CARDS, "|"),), ()),
                         ("lays", (("off",), (CARDS,), ("on",), ()), ()),
                         ("swaps", ((CARDS,), ("on",), ()), ()),
                         ("discards", ((CARDS,),), ()),
                         ("calls", (("one", "two", "three"), ("card", "cards")), ())))

    def options(self, header):
        from solver.hand.options import HandOptions

        return HandOptions.of(header)

    def check_header(self, header) -> None:
        from solver.hand.engine import team_pairs

        options = self.options(header)
        n = len(header.players)
        if not 2 <= n <= options.players:
            raise RuleError(f"Hand is for 2 to {options.players} players (4 in two teams; "
                            f"variant players=5 allows five), not {n}",
                            text=" ".join(header.players), rule="HR-1")
        team_pairs(header, options)

    def parse_event(self, text, header):
        from solver.hand.events import parse_event

        return parse_event(text, header)

    def validate(self, record) -> None:
        from solver.hand.engine import is_round_record, run

        if is_round_record(record):
            run(record)             # a round, turn by turn (HR-27..HR-36)
        else:
            from solver.hand.analysis import score_sheet

            score_sheet(record)

    def analyze(self, record, view=None, *, budget: Budget = Budget()):
        """A round record: what ``view`` knows of the others' hands
        (:mod:`solver.hand.inference`); a scoresheet: every deal, totals, standings, next
        dealer (``view`` is kept in the output; a scoresheet is public)."""
        from solver.hand.engine import is_round_record

        if is_round_record(record):
            from solver.hand.analysis import analyse_round

            return analyse_round(record, view, samples=budget.samples)
        from solver.hand.analysis import score_sheet

        sheet = score_sheet(record)
        sheet.view = view
        return sheet

    def simulate(self, players, options, seed=0, events=None, miss=0.0):
        """A random rule-following round as a complete record (every hand stated, every
        draw named), ending in its ``round 1: ...`` statement."""
        from solver.hand.simulate import simulate

        if miss:    # not lossy: every record it writes is complete
            raise ValueError(f"{self.title} does not simulate lossy records")
        return simulate(players, options, seed, events)

    def _round(self, record) -> bool:
        from solver.hand.engine import is_round_record

        return is_round_record(record)

    def vocabulary(self, record) -> Vocabulary:
        """The default words, with the jokers (HR-2; none with ``wild-mode=no-jokers``,
        HR-46)."""
        v = super().vocabulary(record)
        if self.options(record.header).wild_mode == "no-jokers":
            return v
        return Vocabulary(v.names, v.lead, v.verbs, v.words, v.cards + ("Jk",), v.ranges)

    def table_notes(self, record, view, analysis=None):
        """In a record of one round's play (or a new record), the setup the rules call for
        that is missing: the indicator (HR-7; none with ``wild-mode=jokers-only``, HR-46),
        which the round needs before anything else, and the recorder's own hand as dealt
        (HR-6).  A score sheet (round results only) needs neither: a new record, which may
        become either, says so."""
        from solver.games import Note
        from solver.hand.events import Holds, Indicator
        from solver.hand.regime import put_back

        evs = [st.event for st in record.statements]
        if evs and not self._round(record):
            return []
        notes = []
        options = self.options(record.header)
        if options.wild_mode != "jokers-only" and \
                not any(isinstance(e, Indicator) and not put_back(e.card, options)
                        for e in evs):
            # a new record may be a scoresheet as well: the note says both
            notes.append(Note("Missing: the indicator ('indicator 7C'; HR-7: it decides the "
                              "wild cards, HR-8, HR-9), to log a round's play turn by turn"
                              + (", or write 'round 1: ...' lines for a scoresheet (round "
                                 "results only, no indicator line)." if not evs else ".")))
        elif view and not any(isinstance(e, Holds) and e.player == view for e in evs):
            notes.append(Note(f"Missing: your own hand ('{view} holds: ...'; HR-6: 14 cards "
                              "each, 15 to the dealer's right)" + (
                                  ", to log a round's play turn by turn, or write 'round 1: "
                                  "...' lines for a scoresheet (round results only)."
                                  if not evs else "."), hand_missing=True))
        notes[:0] = self._turn_notes(record, view)
        return notes

    def _turn_notes(self, record, view) -> list:
        """A round's next player (play passes to the right, HR-4), or how it ended."""
        from solver.errors import SleuthError
        from solver.games import Note
        from solver.hand.engine import play

        try:
            s = play(record)
        except SleuthError:
            return []
        if s.over == "out":
            return [Note(f"The round is over: {s.winner} went out ({s.kind}).",
                         key=f"over:{s.winner}", strong=True)]
        if s.over:
            return [Note(f"The round is over: {s.over}.", key=f"over:{s.over}", strong=True)]
        who = s.current or s.starter
        return [Note(f"Next: {who}'s turn" + (" (yours)" if who == view else "") + ".")]

    def views(self, record):
        if self._round(record):
            from solver.hand.events import Holds

            held = [st.event.player for st in record.statements if isinstance(st.event, Holds)]
            return [p for p in record.header.players if p in held] or [record.header.me]
        return [record.header.me]

    def view_supported(self, record, player) -> bool:
        if self._round(record):
            return player in self.views(record)
        return player == record.header.me

    def hoists_setup(self, record) -> bool:
        return self._round(record)

    def truth(self, record):
        if not self._round(record):
            return None
        from solver.hand.inference import truth

        return truth(record)

    def knowledge(self, record, view, budget: Budget = Budget()) -> Knowledge:
        if self._round(record):
            from solver.hand.analysis import analyse_round

            a = analyse_round(record, view, chances=False)
            s = a.state
            summary = {"stock": s.stock, "turn": s.current, "over": s.over,
                       "counts": {p: st.count for p, st in s.players.items()},
                       "known": {p: [repr(c) for c in st.hand()]
                                 for p, st in s.players.items() if p != view and st.known},
                       "unseen": sum(n for n in a.unseen.values() if n > 0)}
            return Knowledge(a.certain, None, True, summary)
        sheet = self.analyze(record, view)
        leaders = [s for r, s, _ in sheet.standings() if r == 1]
        summary = {"totals": dict(sheet.totals), "rounds_scored": sheet.rounds_scored,
                   "status": sheet.status, "leaders": leaders, "winner": sheet.winner}
        return Knowledge({}, None, True, summary)

    def findings(self, record, view, steps, specs):
        out: list[Finding] = []
        if self._round(record):
            return out
        prev: list[str] = []
        for s in steps[1:]:
            lead = s.summary.get("leaders", [])
            line = s.lines[0] if s.lines else None
            if lead and lead != prev:
                out.append(Finding("lead", s.index, line, ", ".join(lead),
                                   f"{' and '.join(lead)} lead after line {line} "
                                   f"({s.summary['totals'][lead[0]]})", None))
            prev = lead
        return out
