"""The Literature :class:`~solver.games.Game` (LIT-1.., variants V1..V14).

>>> from solver.records import parse_record
>>> rec = parse_record('''game: literature
... players: Ana Ben Cleo Dev Eli Fay
... me: Ana
... Ana holds: 2H 3H 4H 6H 7H 9S JC QD
... Ana asks Ben 10S: no
... Ben asks Cleo 9D: no
... Cleo asks Ben 3H: no
... ''')
>>> g = LiteratureGame()
>>> a = g.analyze(rec, "Ana")   # EX-A: Cleo asked for 3H, so she holds 5H
>>> a.cards["5H"], a.halves["2H-7H"].safe_claim
({'Cleo': 1.0}, {'Ana': ['2H', '3H', '4H', '6H', '7H'], 'Cleo': ['5H']})
>>> g.knowledge(rec, "Ana").safe["2H-7H"]
{'Ana': ['2H', '3H', '4H', '6H', '7H'], 'Cleo': ['5H']}
"""
from __future__ import annotations

from solver.games import (CARDS, NAMES, RANGES, AdviceField, Capability, Finding, Game,
                          Keywords, Knowledge, Vocabulary, log10, steps_before)
from solver.model.budget import Budget


class LiteratureGame(Game):
    name = "literature"
    title = "Literature"
    commands_help = "Literature helpers: would a claim made now be won?"
    package = "literature"
    rules = "literature"
    rule_prefix = "LIT"
    capabilities = frozenset({Capability.ANALYZE, Capability.EXPLAIN, Capability.CHECK,
                              Capability.SIMULATE, Capability.REPLAY,
                              Capability.ADVISE})
    player_counts = (4, 6, 8)
    header_keys = ("teams",)
    location_words = ("out",)
    advice_fields = (AdviceField("outcomes"), AdviceField("safe"), AdviceField("p_yes"),
                     AdviceField("expected_cards"), AdviceField("tells"))
    lossy = True
    solver_modules = ("solver.model.counting", "solver.literature.analysis",
                      "solver.literature.advise")
    opening = "(the deal)"
    measure = "log10 of the deals consistent with what the view saw"
    examples = ("Ana holds: 2H 3H 4H 6H 7H 9S JC QD", "Ana asks Ben 9C: no",
                "Ben asks Cleo 5H: yes", "Cleo claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H",
                "shown 2H-7H: Ana 2H 3H 4H 6H 7H, Ben 5H", "Dev passes turn to Ben",
                # what the recorder did not see (record-format.md): the card asked, the
                # answer, a whole turn; a hand's size when it is said; the turn resynced
                "Ben asks Cleo ?: yes", "Ben asks Cleo 5H: ?", "Ben: ?", "Ben has 8 cards",
                "turn: Cleo")
    keywords = Keywords(("shown", "turn"), ("asks", "claims", "passes", "challenges", "holds",
                                          "has"),
                        ("yes", "no", "surrendered", "turn", "to", "cards"),
                        # LIT-6: ask one player for one exact card; LIT-11: claim a half-suit
                        (("asks", ((NAMES,), (CARDS, "?")), ("yes", "no", "surrendered", "?")),
                         ("claims", ((RANGES,),), (NAMES, CARDS)),
                         ("shown", ((RANGES,),), (NAMES, CARDS)),
                         ("passes", (("turn",), ("to",), (NAMES,)), ()),
                         ("challenges", ((NAMES,), (RANGES,)), ()),
                         ("holds", ((),), (CARDS,)),
                         ("has", ((), ("cards",)), ()),
                         ("turn", ((),), (NAMES,))))

    # ----- records -------------------------------------------------------------------------
    def table(self, header):
        from solver.literature.table import table_of

        return table_of(header)

    def options(self, header):
        return self.table(header).options

    def check_header(self, header) -> None:
        self.table(header)

    def parse_event(self, text, header):
        from solver.literature.events import parse_event

        return parse_event(text, self.table(header))

    def validate(self, record) -> None:
        from solver.literature.engine import run

        run(record)

    # ----- capabilities --------------------------------------------------------------------
    def analyze(self, record, view=None, *, budget: Budget = Budget()):
        from solver.literature.analysis import analyze
        from solver.literature.inference import seen_by

        kw = {k: v for k, v in budget.kwargs().items() if k in ("max_states", "time_budget")}
        return analyze(record, seen_by(record, view), **kw)

    def check(self, record) -> None:
        from solver.literature.inference import check

        check(record)

    def explain(self, record, view, card):
        from solver.literature.inference import explain, seen_by

        return explain(record, seen_by(record, view), card)

    def check_claim(self, record, view, claim_text: str, **kw):
        """``sleuth literature claim``: the outcome of a claim from ``view``."""
        from solver.literature.inference import check_claim, seen_by

        return check_claim(record, seen_by(record, view), claim_text, **kw)

    def simulate(self, players, options=(), seed=0, events=None, miss=0.0):
        from solver.literature.simulate import simulate

        return simulate(players, options, seed, events, miss=miss)

    def suggest(self, record, view, *, top=None, budget: Budget = Budget(), options=None):
        from solver.literature.advise import suggest

        return suggest(record, view, top=top, budget=budget)

    def review(self, record, view):
        from solver.literature.advise import review

        return review(record, view)

    def on_turn(self, record, view) -> bool:
        from solver.literature.engine import Play

        play = Play.of(record)
        return not play.over and play.turn == view

    def exposure_on_sheet(self, record) -> bool:
        """Not with unseen statements: the exposure's public analysis of the histories takes
        3-4 times the view's own (docs/session.md)."""
        from solver.literature.events import UNSEEN

        return not any(isinstance(s.event, UNSEEN) for s in record.statements)

    def exposure(self, record, view, *, budget: Budget = Budget()):
        from solver.literature.advise import exposure

        return exposure(record, view, budget=budget)

    # ----- replay and session ------------------------------------------------------------
    def table_notes(self, record, view, analysis=None):
        """Whose turn (or the result of a finished game, LIT-17), the setup the rules call
        for that is missing: the recorder's own hand as dealt (LIT-4: all the cards are
        dealt, so a player at the table knows theirs), and the alert that the view can claim
        a half-suit safely now (LIT-11(a); from ``analysis``, when given; not while a claim
        would be out of turn, LIT-12: the alert comes on the view's turn)."""
        import textwrap

        from solver.errors import SleuthError
        from solver.games import Note
        from solver.literature.engine import Play

        notes = []
        try:
            play = Play.of(record)
        except SleuthError:
            play = None
        if play is not None:        # the last statement resolved a claim out of turn
            notes += self._out_of_turn_notes(record, play)
        if play is not None and play.over:
            w = play.winner()
            score = ", ".join(f"team {k} {v}" for k, v in play.score_by_team().items())
            return notes + [Note(f"The game is over: {score}; " + (
                "a tie (LIT-17)." if w == "tie" else f"team {w} wins (LIT-17)."),
                key=f"over:{w}", strong=True)]
        if play is not None and play.turn is not None:
            what = play.expected()
            if what == f"it is {play.turn}'s turn":
                what = f"{play.turn}'s turn" + (" (yours)" if play.turn == view else "")
            notes.append(Note(f"Next: {what}."))
        if view and view not in self._held(record):
            notes.append(Note(f"Missing: your own hand ('{view} holds: ...'; LIT-4: every "
                              "card is dealt, so yours are known to you).",
                              hand_missing=True))
        halves = getattr(analysis, "halves", None) if analysis is not None and view else None
        for name, h in (halves or {}).items():
            if h.safe_claim:
                cards = ", ".join(f"{p} {' '.join(cs)}" for p, cs in h.safe_claim.items())
                if not self._may_claim_now(play, view, name):
                    continue        # out of turn it would be cancelled (LIT-12): on its turn
                text = f"You can claim {name} safely (LIT-11(a)): {cards}."
                notes.append(Note("\n  ".join(textwrap.wrap(text, 76)), key=f"safe:{name}",
                                  strong=True))
        return notes

    @staticmethod
    def _may_claim_now(play, view: str, half: str) -> bool:
        """Whether ``view``'s claim of ``half`` now would be judged as claimed (on turn, in
        the end game, any time under V5, ...), not as out of turn (LIT-12) or refused."""
        from solver.errors import SleuthError

        if play is None:
            return True
        try:
            return play.claim_kind(view, half) not in ("out-of-turn", "empty-turn")
        except SleuthError:
            return False

    @staticmethod
    def _out_of_turn_notes(record, play) -> list:
        """A note when the record's last statement made (or resolved) a claim out of turn:
        what it was (LIT-12: cancelled if the claimant's team held all six, else lost) and
        what it cost against the same claim on the claimant's turn (LIT-11)."""
        from solver.games import Note
        from solver.literature.engine import Play

        if not record.statements or not play.results:
            return []
        last = record.statements[-1].line
        res = play.results[-1]
        if res.kind != "out-of-turn" or last not in (res.line, res.shown_line):
            return []
        t = play.table
        ti = t.team_index(res.claimant)
        at = next((i for i, st in enumerate(record.statements) if st.line == res.line), None)
        before = Play.of(record, at) if at is not None else None
        if before is None or before.turn is None:
            when = ""
        elif before.turn_known:
            when = f"; it was {before.turn}'s turn"
        elif before.turn_may:       # unseen lines left it to one of a few
            names = [f"{p}'s" for p in before.turn_may]
            when = "; it was " + ", ".join(names[:-1]) + f" or {names[-1]} turn"
        else:
            when = ""
        got = ("cancelled: neither team scores it" if res.outcome == "cancelled" else
               f"lost: team {t.team_name(1 - ti)} scores it")
        all_in = all(t.team_index(p) == ti for p, _ in res.shown)
        exact = all_in and sorted((repr(x), p) for p, cs in res.claimed for x in cs) == \
            sorted((repr(x), p) for p, cs in res.shown for x in cs)
        cost = (f"; on {res.claimant}'s turn it would have won {res.half} for team "
                f"{t.team_name(ti)}" if exact else "")
        return [Note(f"Out of turn: {res.claimant}'s claim of {res.half} (line {res.line}"
                     f"{when}) is {got} (LIT-12){cost}.", key=f"out-of-turn:{res.line}",
                     strong=True)]

    def _held(self, record) -> set[str]:
        from solver.literature.events import Holds

        return {s.event.player for s in record.statements if isinstance(s.event, Holds)}

    def truth(self, record):
        """Where every card is after a complete record: every hand listed before play
        begins, nothing unseen; the dealt hands moved by the record's moves."""
        from collections import Counter

        from solver.literature.engine import OUT, Play
        from solver.literature.events import Holds

        lead = 0
        while lead < len(record.statements) and isinstance(record.statements[lead].event,
                                                          Holds):
            lead += 1
        if len(self._held(record.prefix(lead))) < len(record.header.players):
            return None
        play = Play.of(record)
        if play.unseen:
            return None
        at = {p: Counter(record.statements[i].event.cards) for i in range(lead)
              for p in [record.statements[i].event.player]}
        at.setdefault(OUT, Counter())
        for mv in play.moves:
            card = play.table.key_card[mv.key]
            at[mv.src][card] -= 1
            at.setdefault(mv.dst, Counter())[card] += 1
        out: dict[str, list[str]] = {}
        for loc, cards in at.items():
            for card, k in cards.items():
                out.setdefault(repr(card), []).extend([loc] * k)
        return {c: ", ".join(sorted(ls)) for c, ls in out.items()}

    def views(self, record):
        h = record.header
        held = self._held(record)
        out = [h.me] if h.me else []
        return out + [p for p in h.players if p in held and p != h.me]

    def view_supported(self, record, player) -> bool:
        return player == record.header.me or player in self._held(record)

    def certainties(self, record, view) -> Knowledge:
        """The certainties and safe claims alone (no count): :meth:`knowledge` without its
        ``uncertainty``, from :func:`~solver.literature.analysis.certain_backbone`."""
        return self.knowledge(record, view, count=False)

    def knowledge(self, record, view, budget: Budget = Budget(),
                  count: bool = True) -> Knowledge:
        """``count=False``: the certainties and safe claims only (``uncertainty`` None)."""
        from solver.literature import inference
        from solver.literature.analysis import certain_backbone, settled_backbone
        from solver.literature.engine import Play

        play = Play.of(record)
        t = play.table
        seen = inference.seen_by(record, view)
        vm = inference.build(record, seen, play)
        # the certainties alone need no place ruled out (with unseen events, far cheaper)
        bb = settled_backbone(vm) if count else certain_backbone(vm)
        if not bb.consistent:
            raise vm.inconsistent()
        poss = {k: ({vm.fixed[k]} if k in vm.fixed else set(bb.possible[k])) for k in t.keys}
        unc, exact = self._uncertainty(record, seen, vm, bb, budget) if count else (None, False)
        certain: dict[str, str] = {}
        for card, ks in t.card_keys.items():
            if all(len(poss[k]) == 1 for k in ks):
                locs = sorted({next(iter(poss[k])) for k in ks})
                certain[repr(card)] = ", ".join(locs)
        team = t.team_of(view) if view in t.players else None
        halves: dict[str, dict] = {}
        safe: dict[str, dict] = {}
        for h in t.halves:
            hk = play.keys_of_half(h.name)
            st = play.status[h.name]
            status = st[0] if st[0] != "won" else f"won:{t.team_name(st[1])}"
            n_certain = sum(1 for k in hk if len(poss[k]) == 1 and next(iter(poss[k])) != "out")
            info = {"status": status, "certain": n_certain, "cards": len(hk)}
            if status == "open" and team is not None and all(
                    len(poss[k]) == 1 and next(iter(poss[k])) in team for k in hk):
                alloc: dict[str, list[str]] = {}
                for k in hk:
                    alloc.setdefault(next(iter(poss[k])), []).append(repr(t.key_card[k]))
                safe[h.name] = alloc
                info["safe"] = True
            halves[h.name] = info
        summary = {"halves": halves, "safe_claims": sorted(safe), "turn": play.turn,
                   "score": play.score_by_team()}
        return Knowledge(certain, unc, exact, summary, safe=safe)

    @staticmethod
    def _uncertainty(record, view, vm, bb, budget: Budget) -> tuple[float | None, bool]:
        """log10 of the number of deals (or of courses) and whether it is exact; ``None``
        past the counting budget."""
        from solver.model.counting import OverBudget, count_deals

        kw = {k: v for k, v in budget.kwargs().items() if k in ("max_states", "time_budget")}
        try:
            if vm.history:      # exact only for unheard answers (course by course)
                from solver.literature.courses import exact_courses

                branches = exact_courses(record, view, answers_only=True, **kw)
                if branches:
                    return log10(sum(pr.total for _, pr in branches)), True
            else:
                cnt = count_deals(vm.model, support=bb.possible, **budget.kwargs())
                return log10(cnt.total), cnt.exact
        except OverBudget:
            pass
        return None, False

    def findings(self, record, view, steps, specs):
        label = view if view is not None else "public"
        out: list[Finding] = []
        seen: set[str] = set()
        for s in steps:
            if s.knowledge is None:
                continue
            for h, alloc in s.knowledge.safe.items():
                if h not in seen:
                    seen.add(h)
                    txt = ", ".join(f"{p} {' '.join(cs)}" for p, cs in alloc.items())
                    out.append(Finding("safe-claim", s.index, s.lines[0] if s.lines else None,
                                       view, f"a safe claim of {h} existed for {label}'s team "
                                       f"from step {s.index}: {txt}", True, s.index))
        return out

    def checks(self, record, specs, knowledge_of, first_safe):
        from solver.literature.events import Claim
        from solver.literature.engine import Play

        out: list[Finding] = []
        for spec in specs[1:]:
            st = spec.statements[0]
            ev = st.event
            if not isinstance(ev, Claim):
                continue
            p = ev.claimant
            res = next((r for r in Play.of(spec.record).results if r.line == st.line), None)
            outcome = res.outcome if res is not None else "?"
            if not self.view_supported(record, p):
                out.append(Finding("unchecked", spec.index, st.line, p,
                                   f"{p} claimed {ev.half} at line {st.line} ({outcome}); "
                                   "their hand is not in the record", None))
                continue
            k = knowledge_of(p, spec.index - 1)
            if k is None:
                continue
            since = first_safe(p, ev.half)
            if res is not None and res.kind == "out-of-turn":     # LIT-12: at best cancelled
                txt = f"{p} claimed {ev.half} at line {st.line} out of turn ({outcome}, LIT-12)"
                if ev.half in k.safe:
                    txt += f"; on {p}'s turn it was a safe claim"
                out.append(Finding("claim", spec.index, st.line, p, txt, False,
                                   since if ev.half in k.safe else None))
            elif ev.half in k.safe:
                txt = f"{p} claimed {ev.half} at line {st.line} ({outcome}) safely"
                if since is not None and since < spec.index - 1:
                    txt += f"; safe since step {since}, " + steps_before(since, spec.index)
                out.append(Finding("claim", spec.index, st.line, p, txt, True, since))
            else:
                h = k.summary.get("halves", {}).get(ev.half, {})
                txt = (f"{p} claimed {ev.half} at line {st.line} ({outcome}) without a safe "
                       f"claim: {h.get('certain', '?')} of {h.get('cards', '?')} cards certain")
                out.append(Finding("claim", spec.index, st.line, p, txt, False, None))
        return out

    def vocabulary(self, record) -> Vocabulary:
        from solver.cards import RANKS, SUITS

        order = [f"{r}{s}" for s in SUITS for r in RANKS]
        t = self.table(record.header)
        cards = sorted({repr(c) for c in t.card_keys},
                       key=lambda c: order.index(c) if c in order else 99)
        k = self.keywords
        # LIT-6(a): the player asked is an opponent; V14: the challenged, of the other team
        opponents = {p: tuple(q for q in record.header.players if q not in t.team_of(p))
                     for p in record.header.players}
        return Vocabulary(tuple(record.header.players), k.lead, k.verbs, k.words,
                          tuple(cards), tuple(hs.name for hs in t.halves),
                          named=tuple((verb, p, them) for verb in ("asks", "challenges")
                                      for p, them in opponents.items()))
