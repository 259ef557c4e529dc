"""The Mystery Hand :class:`~solver.games.Game` (MH-1..MH-28, inferences E1..E8).

>>> from solver.records import parse_record
>>> from solver.mystery_hand import EXAMPLE_1
>>> g = MysteryHandGame()
>>> a = g.analyze(parse_record(EXAMPLE_1), "P1")
>>> a.certain("KS"), a.certain("4H"), sorted(a.possible["6H"])
('mystery', 'P2', ['P3', 'P4'])
>>> k = g.knowledge(parse_record(EXAMPLE_1), "P1")
>>> k.summary["candidates"], k.certain["KS"]
(5984, 'mystery')
>>> from solver.replay import replay
>>> r = replay(parse_record(EXAMPLE_1))
>>> [s.summary["candidates"] for s in r.views["P1"].steps]
[91390, 73815, 52360, 5984]
>>> r.views["P1"].steps[3].new_certain["KS"]
'mystery'
"""
from __future__ import annotations

import math

from solver.games import (CARDS, NAMES, RANGES, AdviceField, Capability, Finding, Game,
                          Keywords, Knowledge, Vocabulary, log10)
from solver.model.budget import Budget
from solver.model.copies import Copy


class MysteryHandGame(Game):
    name = "mystery-hand"
    title = "Mystery Hand"
    package = "mystery_hand"
    rules = "mystery-hand"
    rule_prefix = "MH"
    capabilities = frozenset({Capability.ANALYZE, Capability.EXPLAIN, Capability.CHECK,
                              Capability.SIMULATE, Capability.REPLAY,
                              Capability.ADVISE})
    player_counts = tuple(range(3, 9))
    opening = "(the deal)"
    location_words = ("mystery", "faceup", "face-up")
    advice_fields = (AdviceField("p_extra_turn", "extra"), AdviceField("p_right"),
                     AdviceField("wrong_costs"), AdviceField("safe"))
    lossy = True
    solver_modules = ("solver.model.counting", "solver.mystery_hand.analysis",
                      "solver.mystery_hand.advise")
    demo = "five-players-ana.txt"
    demo_card = "KS"
    measure = "log10 of the candidates for the mystery hand"
    examples = ("Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C", "faceup: 3C 7D 9S",
                "Ana asks Ben 4H-7H: 4H 6H", "Ben asks Cleo 5*: 2",
                "Cleo asks all 10D-KD: Ana 0, Ben 1, Dev 0, Eli 2",
                "Cleo asks all 10D-KD: 0 1 0 2", "Dev requests QS: Ben",
                "Eli requests 2C: nobody", "Ben announces AS 2H 3D 4C: wrong",
                "Ben asks Cleo 4H-7H: ?", "Cleo asks all 10D-KD: Ana 0, Ben ?, Dev 1, Eli 0",
                "Dev requests KS: ?", "Ben: ?", "turn: Cleo", "mystery: KS AS 2S 3S")
    variant_examples = (("two-player=seen", "mystery Ana: 2C 5H 9S KD"),)
    keywords = Keywords(("faceup", "mystery", "turn"), ("asks", "requests", "announces", "holds"),
                        ("all", "nobody", "none", "right", "wrong", "?"),
                        # MH-9: a query set is a range or a rank; MH-15: a request names one card
                        # MH-13: an ask of all is answered by counts, or by name and count
                        (("asks all", ((RANGES,),), (NAMES, "?")),
                         ("asks", ((NAMES, "all"), (RANGES,)), (CARDS, NAMES, "none", "?")),
                         ("requests", ((CARDS,),), (NAMES, "nobody", "?")),
                         ("announces", ((CARDS,),), ("right", "wrong")),
                         ("holds", ((),), (CARDS,)),
                         ("faceup", ((),), (CARDS,)),
                         ("mystery", ((),), (CARDS,)),
                         ("turn", ((),), (NAMES,))))

    # ----- records -------------------------------------------------------------------------
    def options(self, header):
        from solver.mystery_hand.options import MysteryHandOptions

        return MysteryHandOptions.of(header)

    def check_header(self, header) -> None:
        from solver.mystery_hand.options import deal_sizes

        opts = self.options(header)
        # an error quotes what the record wrote: the players, or the two-player option
        two = next((o for o in header.variant if o.split("=")[0].strip() == "two-player"), None)
        deal_sizes(len(header.players), opts, players=" ".join(header.players), variant=two)

    def parse_event(self, text, header):
        from solver.mystery_hand import events

        return events.parse_event(text, header)

    def parse_statement(self, text, header, earlier):
        from solver.mystery_hand import events

        # an ask-all's counts without names skip the players who are out (MH-20)
        return events.parse_event(text, header, out=lambda: events.out_players(earlier))

    def validate(self, record) -> None:
        from solver.mystery_hand import engine

        engine.run(record)

    # ----- capabilities --------------------------------------------------------------------
    def analyze(self, record, view, *, budget: Budget = Budget()):
        from solver.mystery_hand import analysis

        kw = {k: v for k, v in budget.kwargs().items() if k in ("max_states", "time_budget")}
        return analysis.analyze(record, view, **kw)

    def explain(self, record, view, card):
        from solver.mystery_hand import analysis

        return analysis.explain(record, view, card)

    def check(self, record) -> None:
        """Raise InconsistentError if no deal fits everything written in the record."""
        from solver.mystery_hand.inference import build

        vm = build(record, record.header.me, omniscient=True)
        if vm.model.conflict() is not None:
            raise vm.inconsistent()

    def simulate(self, players, options, seed=0, events=None, miss=0.0):
        from solver.mystery_hand.simulate import simulate

        return simulate(players, options, seed, events, miss=miss)

    def suggest(self, record, view, *, top=None, budget: Budget = Budget(), options=None):
        from solver.mystery_hand.advise import suggest

        return suggest(record, view, top=top, budget=budget)

    def review(self, record, view):
        from solver.mystery_hand.advise import review

        return review(record, view)

    def exposure(self, record, view, *, budget: Budget = Budget()):
        from solver.mystery_hand.advise import exposure

        return exposure(record, view, budget=budget)

    def on_turn(self, record, view) -> bool:
        from solver.mystery_hand.engine import can_turn, run

        return can_turn(run(record), view)

    def table_notes(self, record, view, analysis=None):
        """Whose turn, an extra turn (MH-12, MH-14), the result (MH-19..MH-21), a missing
        ``faceup:`` (MH-5) or own ``holds:``, a revealed hand to log (MH-20), and the alert
        that the view can announce."""
        from solver.games import Note
        from solver.mystery_hand.engine import run
        from solver.mystery_hand.events import Announce, FaceUp, Holds
        from solver.mystery_hand.options import deal_sizes

        notes = []
        evs = [st.event for st in record.statements]
        state = run(record)
        if state.over:
            last = next((e for e in reversed(evs) if isinstance(e, Announce)), None)
            how = (f"{last.player} announced {' '.join(map(repr, last.cards))}: "
                   f"{'right' if last.right else 'wrong'}; " if last else "")
            rule = ("MH-19" if last is not None and last.right else
                    "MH-28" if self.options(record.header).two_player else "MH-21")
            return [Note(f"The game is over: {how}{state.winner} wins ({rule}).",
                         key=f"over:{state.winner}", strong=True)]
        who = state.current
        turn = f"{who}'s turn" + (" (yours)" if who == view else "")
        if state.extra and state.extra != who:
            turn += (f"; {state.extra} may take an extra turn first"
                     + ("" if state.extra_sure else " (if one was earned)") + " (MH-12, MH-14)")
        notes.append(Note(f"Next: {turn}."))
        opts = self.options(record.header)
        _size, faceup = deal_sizes(len(record.header.players), opts)
        if faceup and not any(isinstance(e, FaceUp) for e in evs):
            notes.append(Note(f"Missing: the {faceup} face-up cards ('faceup: ...', MH-5)."))
        if view and not any(isinstance(e, Holds) and e.player == view for e in evs):
            notes.append(Note(f"Missing: your own hand ('{view} holds: ...', MH-5).",
                              hand_missing=True))
        for i, e in enumerate(evs):
            if isinstance(e, Announce) and not e.right and not any(
                    isinstance(x, Holds) and x.player == e.player for x in evs[i:]):
                notes.append(Note(f"{e.player}'s hand is now face up (MH-20): log it with "
                                  f"'{e.player} holds: ...'.", key=f"reveal:{e.player}"))
        if analysis is not None and view in state.active:
            ans = analysis.mystery.answer()
            if ans is not None:
                cards = " ".join(map(repr, ans))
                when = "now" if who == view else "on your turn"
                # an alert once when it is first known, and once more when the turn comes
                notes.append(Note(f"You can announce {when}: {cards}",
                                  key=f"announce:{when}:{cards}", strong=True))
        return notes

    # ----- replay and session ------------------------------------------------------------
    def hoists_setup(self, record) -> bool:
        from solver.mystery_hand.inference import is_complete

        return is_complete(record)

    def views(self, record):
        if self.hoists_setup(record):
            return list(record.header.players)
        return [record.header.me] if record.header.me else []

    def view_supported(self, record, player) -> bool:
        return player == record.header.me or self.hoists_setup(record)

    def knowledge(self, record, view, budget: Budget = Budget()) -> Knowledge:
        return self._knowledge(record, view, budget, top=True)

    def step_knowledge(self, record, view, budget: Budget = Budget()) -> Knowledge:
        # the number of candidates without the most likely ones (no "best"): their
        # chances take a pass over the counting programme three times as long as the count
        return self._knowledge(record, view, budget, top=False)

    def _knowledge(self, record, view, budget: Budget, top: bool) -> Knowledge:
        from solver.model.counting import OverBudget
        from solver.mystery_hand import analysis

        try:
            a = analysis.analyze(record, view, top=top, **budget.kwargs())
        except OverBudget:          # the estimate itself ran out of time: the full budget
            a = analysis.analyze(record, view, top=top)
        certain = {c: next(iter(ls)) for c, ls in a.possible.items()
                   if c != "Jk" and len(ls) == 1}
        c = a.mystery
        if c.count is not None:
            unc, exact = log10(c.count), True
        else:                       # too many to count: an upper bound from the possible cards
            maybe = sum(1 for n, ls in a.possible.items() if n != "Jk" and a.target in ls)
            need = 4 - len(c.certain)
            unc, exact = log10(math.comb(maybe - len(c.certain), need)), False
        ans = c.answer()
        summary: dict = {"candidates": c.count, "determined": c.determined,
                         "answer": [repr(x) for x in ans] if ans else None,
                         "in_mystery": [repr(x) for x in c.certain], "target": a.target,
                         "verdict": a.verdict}
        if c.top and not c.determined:
            summary["best"] = {"cards": [repr(x) for x in c.top[0][0]], "p": c.top[0][1]}
        safe = {"announce": summary["answer"]} if c.determined else {}
        return Knowledge(certain, unc, exact, summary, bound=c.count is None, safe=safe)

    def certainties(self, record, view) -> Knowledge:
        """The backbone alone (no count): the cards certainly placed, and the announcement
        once the four cards of the mystery hand are all certain (MH-19)."""
        from solver.cards import Card
        from solver.mystery_hand.inference import build, target_of
        from solver.staged import model_certain

        vm = build(record, view)
        certain = model_certain(vm, skip=("Jk",))
        target = target_of(view, record.header, vm.opts)
        inside = sorted((Card.parse(c) for c, l in certain.items() if l == target))
        ans = [repr(c) for c in inside] if len(inside) == 4 else None
        return Knowledge(certain, None, False, {"target": target, "answer": ans},
                         safe={"announce": ans} if ans else {})

    def findings(self, record, view, steps, specs):
        from solver.mystery_hand.events import Announce

        s = next((s for s in steps if s.knowledge is not None and "announce" in s.knowledge.safe),
                 None)
        if s is None:
            return []
        label = view if view is not None else "public"
        ans = " ".join(s.summary.get("answer") or [])
        line = s.lines[0] if s.lines else None
        where = f"line {line}" if s.index else "the deal"
        ev = specs[s.index].statements[0].event if specs[s.index].statements else None
        if isinstance(ev, Announce) and ev.player == view and not ev.right:
            txt = f"{label} saw the mystery hand {ans} after announcing wrongly at line {line}"
        else:
            txt = f"{label} could announce {ans} from step {s.index} ({where})"
        return [Finding("determined", s.index, line, view, txt, True, s.index)]

    def checks(self, record, specs, knowledge_of, first_safe):
        from solver.games import guess_checks
        from solver.mystery_hand.events import Announce

        return guess_checks(self, record, specs, knowledge_of, first_safe, Announce,
                            verb="announced", safe="announce", many="candidates")

    def truth(self, record):
        """Where every card is in a complete record (the hands, face-up cards and mystery
        hands it lists)."""
        from solver.mystery_hand.inference import is_complete, true_deal

        if not is_complete(record):
            return None
        deal = true_deal(record) or {}
        out: dict[str, list[str]] = {}
        for key, loc in deal.items():
            name = "Jk" if isinstance(key, Copy) else repr(key)
            out.setdefault(name, []).append(loc)
        return {c: ", ".join(sorted(ls)) for c, ls in out.items()}

    def vocabulary(self, record) -> Vocabulary:
        from solver.cards import RANKS, SUITS

        cards = [f"{r}{s}" for s in SUITS for r in RANKS]
        if self.options(record.header).jokers:
            cards.append("Jk")
        ranges = []
        for s in SUITS:
            for i in range(len(RANKS) - 2):        # A-4 .. J-A (the ace low and high)
                a, b = RANKS[i], RANKS[(i + 3) % len(RANKS)]
                ranges.append(f"{a}{s}-{b}{s}")
        ranges += [f"{r}*" for r in RANKS]
        k = self.keywords
        return Vocabulary(tuple(record.header.players), k.lead, k.verbs, k.words,
                          tuple(cards), tuple(ranges))
