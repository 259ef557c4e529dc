"""The Mysterium :class:`~solver.games.Game` (MY-1..MY-22): the psychics' notebook.

>>> from solver.records import parse_record
>>> rec = parse_record('''game: mysterium
... players: Gus Ana Ben Cleo
... table character: 1 2 3 4 5 6
... table location: 1 2 3 4 5 6
... table object: 1 2 3 4 5 6
... hour 1
... Ana guesses character 1: right
... ''')
>>> k = MysteriumGame().knowledge(rec, None)
>>> k.summary["psychics"]["Ana"]["stage"], k.summary["hour"]
('location', 1)
"""
from __future__ import annotations

from solver.errors import NotationError
from solver.games import NAMES, Capability, Finding, Game, Keywords, Knowledge, Vocabulary, log10
from solver.model.budget import Budget


class MysteriumGame(Game):
    name = "mysterium"
    title = "Mysterium"
    commands_help = "Mysterium helpers: the setup table for a player count."
    package = "mysterium"
    rules = "mysterium"
    rule_prefix = "MY"
    capabilities = frozenset({Capability.ANALYZE, Capability.EXPLAIN, Capability.CHECK,
                              Capability.SIMULATE, Capability.REPLAY})
    player_counts = (2, 3, 4, 5, 6, 7)
    header_keys = ("ghost", "psychics", "eldest")
    #: a card in no psychic's sleeve (the JSON's and the sheet's place for it)
    location_words = ("unused",)
    opening = "(the deal)"
    measure = "log10 of the consistent secret assignments"
    examples = ("table character: 2 5 7 9 11 14 17", "table location: 1 3 6 8 10 13 16",
                "table object: 3 4 8 12 15 16 18",
                "secret Ben: character 2, location 3, object 16", "hour 1",
                "Ana receives 2 visions", "crow: 3", "Ana guesses character 7",
                "Ben agrees with Ana", "Cleo disagrees with Ana", "reveal Ana: right",
                "Ben guesses character 5: wrong", "Dev guesses character 9", "reveal Dev: ?",
                "group 3: Cleo", "Ana votes 3", "verdict: 3", "culprit: 3", "Cleo: ?",
                "turn: Ben")
    keywords = Keywords(("table", "secret", "hour", "crow", "reveal", "group", "verdict",
                         "culprit", "turn"),
                        ("guesses", "receives", "agrees", "disagrees", "votes"),
                        ("character", "location", "object", "right", "wrong", "with",
                         "visions", "group", "?"),
                        # MY-4 the table per kind; MY-10 a guess of one card of a kind
                        (("table", (("character", "location", "object"),), ()),
                         ("secret", ((NAMES,),), ("character", "location", "object")),
                         ("guesses", (("character", "location", "object"), ()),
                          ("right", "wrong")),
                         ("receives", ((), ("visions",)), ()),
                         ("agrees", (("with",), (NAMES,)), ()),
                         ("disagrees", (("with",), (NAMES,)), ()),
                         ("reveal", ((NAMES,),), ("right", "wrong", "?")),
                         ("turn", ((),), (NAMES,))))

    def options(self, header):
        from solver.mysterium.roster import roster_of

        return roster_of(header).options

    def check_header(self, header) -> None:
        from solver.mysterium.roster import roster_of

        roster_of(header)

    def parse_event(self, text, header):
        from solver.mysterium.events import parse_event

        return parse_event(text, header)

    def validate(self, record) -> None:
        from solver.mysterium.engine import run

        run(record)

    def analyze(self, record, view=None, *, budget: Budget = Budget()):
        from solver.mysterium.analysis import analyze

        return analyze(record, view)

    def check(self, record) -> None:
        from solver.mysterium.analysis import check

        check(record)

    def explain(self, record, view, card):
        """``sleuth why RECORD C3``: why a card can or cannot be each psychic's secret."""
        from solver.model import explain_card
        from solver.mysterium.analysis import is_unseen, analyze, check_consistent, facts_for
        from solver.mysterium.inference import UNUSED, kind_model
        from solver.mysterium.events import parse_card
        from solver.mysterium.engine import replay

        kind, number = parse_card(card)
        play = replay(record)
        if any(is_unseen(s.event) for s in record.statements):
            # the facts every filling of the unseen statements shares: those seen
            analyze(record, view)               # consistent under some filling
            unseen = {s.line for s in record.statements if is_unseen(s.event)}
            facts = [f for f in facts_for(play, view) if f.line not in unseen]
        else:
            facts = facts_for(play, view)
            check_consistent(play, facts)
        if number not in play.table.get(kind, ()):
            raise NotationError("that card is not on the table (MY-4)", text=card)
        model = kind_model(kind, play.table[kind], play.roster.psychics, facts)
        statements = {s.line: s.text for s in record.statements}
        return explain_card(model, [(kind, number)], model.backbone(), statements,
                            loc_label=lambda l: "no psychic (unused)" if l == UNUSED
                            else f"psychic {l}")

    def simulate(self, players, options, seed=0, events=None, miss=0.0):
        from solver.mysterium.simulate import simulate

        if miss:    # not lossy: every record it writes is complete
            raise ValueError(f"{self.title} does not simulate lossy records")
        return simulate(players, options, seed, events)

    # ----- replay and session ------------------------------------------------------------
    def table_notes(self, record, view, analysis=None):
        """The setup the rules call for that is missing: the psychic cards on the table, per
        kind (MY-4), and for the ghost the psychics' secret cards (MY-5)."""
        from solver.games import Note
        from solver.mysterium.events import Secret, TableCards
        from solver.mysterium.options import KINDS

        evs = [st.event for st in record.statements]
        laid = {e.kind for e in evs if isinstance(e, TableCards)}
        notes = [Note(f"Missing: the {kind} cards on the table ('table {kind}: ...', MY-4).")
                 for kind in KINDS if kind not in laid]
        if view is not None and view == self._ghost(record) and \
                not any(isinstance(e, Secret) for e in evs):
            from solver.mysterium.roster import roster_of

            # the example with this record's first psychic and the cards on its table
            first = roster_of(record.header).psychics[0]
            table = {e.kind: e.cards for e in evs if isinstance(e, TableCards) and e.cards}
            cards = ", ".join(f"{k} {table[k][0] if k in table else n}"
                              for k, n in zip(KINDS, (3, 7, 12)))
            notes.append(Note("Missing: the psychics' secret cards, which the ghost knows "
                              f"('secret {first}: {cards}', MY-5)."))
        return notes

    def _ghost(self, record):
        from solver.mysterium.roster import roster_of

        return roster_of(record.header).ghost

    def views(self, record):
        from solver.mysterium.events import Secret

        if any(isinstance(s.event, Secret) for s in record.statements):
            return [self._ghost(record)]
        return []

    def view_supported(self, record, player) -> bool:
        return True

    def knowledge(self, record, view, budget: Budget = Budget()) -> Knowledge:
        a = self.analyze(record, view)
        certain = {}
        for card, locs in a.card_locations().items():
            if len(locs) == 1 and next(iter(locs.values())) == 1:
                certain[card] = next(iter(locs))
        psychics = {p.name: _summary_of(a, p.name) for p in a.psychics}
        n = a.deduction.assignments() if a.deduction.kinds else None
        courses = [c for _w, c in a.courses] or [a]
        summary = {"psychics": psychics, "hour": _every(c.play.hour for c in courses),
                   "phase": _every(c.play.phase for c in courses), "assignments": n}
        return Knowledge(certain, log10(n) if n is not None else None, True, summary)

    def findings(self, record, view, steps, specs):
        from solver.mysterium.events import Guess

        out: list[Finding] = []
        seen_forced: dict[tuple, int] = {}
        ghost = view is not None and view == self._ghost(record)
        for s in ([] if ghost else steps):      # the ghost knows every card from the start
            line = s.lines[0] if s.lines else None
            for name, info in s.summary.get("psychics", {}).items():
                key = (name, info.get("stage"))
                if info.get("forced") is not None and key not in seen_forced:
                    seen_forced[key] = s.index
                    out.append(Finding("forced", s.index, line, name,
                                       f"{name}'s {info['stage']} was certain ({info['forced']}) "
                                       f"from step {s.index}", True, s.index))
        for spec in specs:
            for st in spec.statements:
                ev = st.event
                if isinstance(ev, Guess) and ev.right:
                    since = seen_forced.get((ev.psychic, ev.kind))
                    txt = f"{ev.psychic} found their {ev.kind} at line {st.line}"
                    if since is not None and since < spec.index:
                        txt += f" (certain since step {since})"
                    out.append(Finding("found", spec.index, st.line, ev.psychic, txt, True,
                                       since))
        return out

    def vocabulary(self, record) -> Vocabulary:
        from solver.mysterium.events import TableCards
        from solver.mysterium.roster import roster_of

        r = roster_of(record.header)
        names = list(record.header.players)
        names += [p for p in r.psychics if p not in names]
        cards = []
        for st in record.statements:
            if isinstance(st.event, TableCards):
                cards += [f"{st.event.kind} {n}" for n in st.event.cards]
        k = self.keywords
        return Vocabulary(tuple(names), k.lead, k.verbs, k.words, tuple(cards), ())


def _every(values, unsure=None):
    """The value every one of ``values`` has, else ``unsure``."""
    seen = set(values)
    return next(iter(seen)) if len(seen) == 1 else unsure


def _summary_of(a, name: str) -> dict:
    """``name``'s entry of the replay summary: what holds in every filling of the record's
    unseen statements (``P: ?``).  The stage is ``"?"`` when the fillings differ on it; the
    count of candidates of the current stage (None once found) is ``"N?"`` when they agree
    on the stage but not on the count, N the likeliest count, and ``"?"`` with the stage;
    ``forced``, ``needed`` and ``guesses_left`` are None unless every filling agrees."""
    courses = [(w, next(q for q in c.psychics if q.name == name)) for w, c in a.courses] \
        or [(1, next(q for q in a.psychics if q.name == name))]

    def count(p):
        cur = p.stages.get(p.stage)
        return len(cur.probabilities) if cur is not None and cur.found is None else None

    stage = _every((p.stage for _w, p in courses), "?")
    counts: dict = {}
    for w, p in courses:
        counts[count(p)] = counts.get(count(p), 0) + w
    likeliest = max(counts, key=lambda k: counts[k])
    candidates = ("?" if stage == "?" else likeliest if len(counts) == 1
                  else f"{likeliest if likeliest is not None else '-'}?")
    forced = _every(p.stages[p.stage].forced if p.stage in p.stages else None
                    for _w, p in courses)
    return {"stage": stage, "candidates": candidates, "forced": forced,
            "needed": _every(p.needed for _w, p in courses),
            "guesses_left": _every(p.guesses_left for _w, p in courses)}
