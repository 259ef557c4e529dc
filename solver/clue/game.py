"""The Clue :class:`~solver.games.Game` (CL-1..CL-13, inferences E1..E5).

>>> from solver.records import parse_record
>>> from solver.clue import EXAMPLE
>>> g = ClueGame()
>>> k = g.knowledge(parse_record(EXAMPLE), "Ana")
>>> k.summary["candidates"], k.certain["Knife"]
(24, 'Cleo')
"""
from __future__ import annotations

from solver.games import (CARDS, NAMES, AdviceField, AdvisorOption, Capability, Finding, Game,
                          Keywords, Knowledge, Note, Vocabulary, log10)
from solver.model.budget import Budget


class ClueGame(Game):
    name = "clue"
    title = "Clue"
    package = "clue"
    rules = "clue"
    rule_prefix = "CL"
    capabilities = frozenset({Capability.ANALYZE, Capability.EXPLAIN, Capability.CHECK,
                              Capability.SIMULATE, Capability.REPLAY, Capability.ADVISE})
    player_counts = (3, 4, 5, 6)
    header_keys = ("suspects", "weapons", "rooms")
    location_words = ("envelope", "faceup", "face-up")
    advice_fields = (AdviceField("p_right"), AdviceField("safe"))
    advisor_options = (AdvisorOption("room", "ROOM", "only the suggestions in this room, the "
                                     "one the player stands in", rule="CL-5",
                                     example="Library"),)
    opening = "(the deal)"
    lossy = True
    solver_modules = ("solver.model.counting",
                      "solver.clue.analysis", "solver.clue.advise")
    demo = "four-players-ana.txt"
    demo_card = "Plum"
    measure = "log10 of the possible case files"
    examples = ("Ana holds: Scarlet Rope Kitchen", "faceup: Plum Knife Hall",
                "Ana suggests Green Pipe Library: Ben passes, Cleo shows Pipe",
                "Ben suggests Plum Rope Lounge: Cleo shows",
                "Cleo suggests Mustard Pipe Ballroom: nobody",
                "Dev accuses Green Wrench Study: wrong",
                "Eli suggests Green Candlestick Lounge: ?",
                # what the recorder saw after their own wrong accusation (docs/clue.md)
                "Ana accuses Green Candlestick Lounge: wrong",
                "Ana sees case: Mustard Candlestick Ballroom", "Ben: ?", "turn: Cleo",
                "Cleo accuses Mustard Candlestick Ballroom: right")
    keywords = Keywords(("faceup", "turn"), ("suggests", "accuses", "holds", "passes", "shows",
                                      "sees"),
                        ("nobody", "right", "wrong", "?", "case"),
                        (("suggests", ((CARDS,),),
                          (NAMES, "passes", "shows", "nobody", "?", CARDS)),    # 'shows X'
                         ("accuses", ((CARDS,),), ("right", "wrong")),
                         ("sees", (("case",),), (CARDS,)),
                         ("holds", ((),), (CARDS,)),
                         ("faceup", ((),), (CARDS,)),
                         ("turn", ((),), (NAMES,))))

    # ----- records -------------------------------------------------------------------------
    def options(self, header):
        from solver.clue.options import ClueOptions

        return ClueOptions.of(header)

    def check_header(self, header) -> None:
        from solver.clue.options import check_deck_header

        check_deck_header(header, self.options(header))

    def parse_event(self, text, header):
        from solver.clue import events

        return events.parse_event(text, header)

    def validate(self, record) -> None:
        from solver.clue import engine

        engine.run(record)

    # ----- capabilities --------------------------------------------------------------------
    def analyze(self, record, view, *, budget: Budget = Budget()):
        from solver.clue import analysis

        kw = {k: v for k, v in budget.kwargs().items() if k == "max_states"}
        return analysis.analyze(record, view, **kw)

    def explain(self, record, view, card):
        from solver.clue import analysis

        return analysis.explain(record, view, card)

    def check(self, record) -> None:
        """Raise InconsistentError if no deal fits everything written in the record."""
        from solver.clue.inference import build

        vm = build(record, record.header.me, omniscient=True)
        if vm.model.conflict() is not None:
            raise vm.inconsistent()

    def simulate(self, players, options, seed=0, events=None, miss=0.0):
        from solver.clue.simulate import simulate

        return simulate(players, options, seed, events, miss=miss)

    def suggest(self, record, view, *, top=None, budget: Budget = Budget(), options=None):
        from solver.clue.advise import suggest

        return suggest(record, view, top=top, budget=budget, **(options or {}))

    def advisor_choices(self, record, name):
        from solver.clue.options import deck_of

        return deck_of(record.header).rooms if name == "room" else ()

    def review(self, record, view):
        from solver.clue.advise import review

        return review(record, view)

    def on_turn(self, record, view) -> bool:
        from solver.clue.advise import on_turn

        return on_turn(record, view)

    def table_notes(self, record, view, analysis=None):
        """Who is out (CL-9), the result (CL-8, CL-9), a missing own hand or face-up
        cards, and the alert that the view can accuse."""
        from solver.clue.engine import run
        from solver.clue.events import FaceUp, Holds
        from solver.clue.inference import locations

        state = run(record)
        evs = [st.event for st in record.statements]
        if state.over:
            how = (f"the case file is {' '.join(state.solved)}; " if state.solved else "")
            if state.winner is None:    # last-player=plays-on (A3): every player is out
                return [Note("The game is over: nobody wins, every player accused wrongly "
                             "(last-player=plays-on, CL-9, A3).", key="over:", strong=True)]
            return [Note(f"The game is over: {how}{state.winner} wins "
                         f"({'CL-8' if state.solved else 'CL-9'}).",
                         key=f"over:{state.winner}", strong=True)]
        notes = []
        if state.out:
            notes.append(Note(f"Out (still refuting, CL-9): {' '.join(state.out)}."))
        if "faceup" in locations(record) and not any(isinstance(e, FaceUp) for e in evs):
            notes.append(Note("Missing: the face-up cards ('faceup: ...', CL-11)."))
        if view and not any(isinstance(e, Holds) and e.player == view for e in evs):
            notes.append(Note(f"Missing: your own hand ('{view} holds: ...', CL-2).",
                              hand_missing=True))
        if analysis is not None and view in state.active:
            ans = analysis.envelope.answer()
            if ans is not None:
                cards = " ".join(ans)
                notes.append(Note(f"You can accuse now: {cards}", key=f"accuse:{cards}",
                                  strong=True))
        return notes

    # ----- replay and session ------------------------------------------------------------
    def hoists_setup(self, record) -> bool:
        from solver.clue.engine import is_complete

        return is_complete(record)

    def views(self, record):
        if self.hoists_setup(record):
            return list(record.header.players)
        return [record.header.me] if record.header.me else []

    def view_supported(self, record, player) -> bool:
        return player == record.header.me or self.hoists_setup(record)

    def knowledge(self, record, view, budget: Budget = Budget()) -> Knowledge:
        from solver.clue import analysis

        kw = {k: v for k, v in budget.kwargs().items() if k == "max_states"}
        a = analysis.analyze(record, view, **kw)
        certain = {c: next(iter(ls)) for c, ls in a.possible.items() if len(ls) == 1}
        c = a.envelope
        ans = c.answer()
        summary: dict = {"candidates": c.count, "determined": c.determined,
                   "answer": list(ans) if ans else None, "in_envelope": list(c.certain),
                   "verdict": a.verdict}
        if c.top and not c.determined:
            summary["best"] = {"cards": list(c.top[0][0]), "p": c.top[0][1]}
        unc = log10(c.count) if c.count is not None else log10(c.upper)
        safe = {"accuse": summary["answer"]} if c.determined else {}
        return Knowledge(certain, unc, a.exact and c.count is not None, summary,
                         bound=c.count is None, safe=safe)

    def findings(self, record, view, steps, specs):
        s = next((s for s in steps if s.knowledge is not None and "accuse" in s.knowledge.safe),
                 None)
        if s is None:
            return []
        who = view if view is not None else "public"
        ans = " ".join(s.summary.get("answer") or [])
        line = s.lines[0] if s.lines else None
        where = f"line {line}" if s.index else "the deal"
        return [Finding("determined", s.index, line, view,
                        f"{who} could accuse {ans} from step {s.index} ({where})", True,
                        s.index)]

    def checks(self, record, specs, knowledge_of, first_safe):
        from solver.clue.events import Accuse
        from solver.games import guess_checks

        return guess_checks(self, record, specs, knowledge_of, first_safe, Accuse,
                            verb="accused", safe="accuse", many="possible case files")

    def truth(self, record):
        from solver.clue.inference import true_deal

        return true_deal(record)

    def vocabulary(self, record) -> Vocabulary:
        from solver.clue.options import deck_of

        k = self.keywords
        return Vocabulary(tuple(record.header.players), k.lead, k.verbs, k.words,
                          deck_of(record.header).cards, (), follows=k.follows)
