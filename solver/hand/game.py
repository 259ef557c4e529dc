"""The Hand (rummy) :class:`~solver.games.Game`: scoresheet records, one statement per deal
(HR-1..HR-59, ambiguities A1..A17).

>>> from solver.records import parse_record
>>> from solver.hand import EXAMPLE
>>> k = HandGame().knowledge(parse_record(EXAMPLE), None)
>>> k.summary["totals"], k.summary["leaders"]
({'Ana': -60, 'Ben': 90, 'Cleo': 200}, ['Ana'])
"""
from __future__ import annotations

from solver.errors import RuleError
from solver.games import Capability, Finding, Game, Keywords, Knowledge
from solver.model.budget import Budget


class HandGame(Game):
    """The ``hand`` game: scoresheet records (one statement per deal)."""

    name = "hand"
    title = "Hand"
    package = "hand"
    rules = "hand-rummy"
    rule_prefix = "HR"
    capabilities = frozenset({Capability.ANALYZE, Capability.REPLAY})
    player_counts = (2, 3, 4)
    header_keys = ("teams",)
    public_view = False          # a scoresheet is public: every view is the same
    examples = ("round 1: Ana out partial; Ben 45, Cleo no-meld", "round 2: unscored stock",
                "round 3 dealer Ben indicator 7C: Ana out full-hand colour; Ben 5H KS, Cleo 30")
    keywords = Keywords(("round",), (), ("dealer", "indicator", "unscored", "redeal", "stock",
                                         "out", "partial", "full-hand", "no-meld",
                                         "wild-discard", "two-wilds", "colour", "suit"))

    def options(self, header):
        from solver.hand.options import HandOptions

        return HandOptions.from_names(header.variant)

    def check_header(self, header) -> None:
        from solver.hand.analysis import team_pairs

        options = self.options(header)
        n = len(header.players)
        if not 2 <= n <= 4:
            raise RuleError(f"Hand is for 2, 3 or 4 players (4 in two teams), not {n}",
                            text=" ".join(header.players), rule="HR-1")
        team_pairs(header, options)

    def parse_event(self, text, header):
        from solver.hand.events import parse_event

        return parse_event(text, header)

    def validate(self, record) -> None:
        from solver.hand.analysis import score_sheet

        score_sheet(record)

    def analyze(self, record, view=None, *, budget: Budget = Budget()):
        """The scoresheet: every deal, totals, standings, next dealer (``view`` is kept in
        the output; a scoresheet is public)."""
        from solver.hand.analysis import score_sheet

        sheet = score_sheet(record)
        sheet.view = view
        return sheet

    def views(self, record):
        return [record.header.me]

    def knowledge(self, record, view, budget: Budget = Budget()) -> Knowledge:
        sheet = self.analyze(record, view)
        leaders = [s for r, s, _ in sheet.standings() if r == 1]
        summary = {"totals": dict(sheet.totals), "rounds_scored": sheet.rounds_scored,
                   "status": sheet.status, "leaders": leaders, "winner": sheet.winner}
        return Knowledge({}, None, True, summary)

    def findings(self, record, view, steps, specs):
        out: list[Finding] = []
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
