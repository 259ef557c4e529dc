"""What a Mystery Hand observer can infer (section 5, E1..E8), as a card-location model.

The view decides what each statement tells:

* the *recorder* of a partial record knows everything written in it (a ``holds:`` line is
  "a hand known to the recorder", record-format.md): the recorder is ``me:``, or a
  spectator when the record has no ``me:`` (its view is then the public one);
* a view of a *complete* record (every hand listed) knows only what that player saw: its own
  hand, the cards shown to it or by it (E1a/b), counts otherwise (E1c), everything public
  (ask-all counts, exact requests, announcements, the hands of players who are out), its own
  mystery hand under ``two-player=seen|chosen``, and the mystery hand once it announced
  wrongly (E6);
* the public view (``None``) of a record by a player knows only what everybody saw (and
  the hand of a player out after a wrong announcement, MH-20).

What the recorder did not see (``?``, record-format.md) is a free choice among everything
the rules allow: an answer ``?`` constrains nothing but the asker's legality (MH-11,
MH-15); an extra turn taken after it says the answer earned one (MH-12, MH-14: a
cardinality); an extra turn taken after a whole unseen turn ``P: ?`` says that *some* query
P could make earned one: a disjunction, kept exactly by :class:`MysteryHandModel` in CP-SAT
(certainties, ``why``, conflicts) and by rejection sampling for the probabilities.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.cards import Card, standard_deck
from solver.model import CardLocationModel
from solver.model.copies import Copy, copy_keys
from solver.model.view import ModelView
from solver.mystery_hand.events import (QUERIES, TURN_EVENTS, AskAll, AskOne, Announce,
                                        FaceUp, Holds, MysteryCards, Request, TurnIs, Unseen)
from solver.mystery_hand.options import MysteryHandOptions, deal_sizes
from solver.mystery_hand.engine import actor_of, resync, start, step

JOKER_KEYS = copy_keys([("Jk", 2)])["Jk"]   # the two jokers are interchangeable copies
FACEUP = "faceup"


def is_complete(record) -> bool:
    """A complete record lists every player's hand with ``holds:`` (record-format.md), as
    dealt: a hand laid open after its player's wrong announcement (MH-20) is a public event
    of the game, not the hand as the record's writer knew it from the deal.  So a spectator
    who wrote three hands, then the fourth when it was laid open, keeps all four (the record
    stays theirs), where a complete record's public view would keep only what was public."""
    listed: set[str] = set()
    wrong: set[str] = set()
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Announce) and not ev.right:
            wrong.add(ev.player)
        elif isinstance(ev, Holds) and ev.player not in wrong:
            listed.add(ev.player)
    return all(p in listed for p in record.header.players)


def mystery_locations(header, opts: MysteryHandOptions) -> list[str]:
    if opts.two_player:
        return [f"mystery:{p}" for p in header.players]
    return ["mystery"]


def target_of(view: str | None, header, opts: MysteryHandOptions) -> str:
    """The mystery hand the view is trying to name: ``mystery``, or with two players the
    opponent's ``mystery:<opponent>`` (MH-28; for the public view, the first player's
    target)."""
    if not opts.two_player:
        return "mystery"
    me = view if view in header.players else header.players[0]
    return "mystery:" + next(p for p in header.players if p != me)


class MysteryHandModel(CardLocationModel):
    """The card-location model plus *choices*: facts that are a disjunction of
    cardinalities (``lo <= #(terms) <= hi`` for at least one alternative), tagged with the
    record line like every constraint.  CP-SAT keeps them exactly (backbone, explanations,
    conflicts, consistency); the counting DP does not see them, so :meth:`condition`
    turns its figures into estimates by rejection sampling."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.choices: list[tuple[tuple[int, ...], str, list[tuple[frozenset, int, int]]]] = []
        #: constraints that follow from several lines together (index -> their lines): an
        #: extra turn taken says something about the turn before it
        self.joint: dict[int, tuple[int, ...]] = {}
        self._witnessed: dict = {}  # card -> locations some consistent deal uses

    def add_joint(self, cards, locs, lo: int, hi: int, sources: tuple[int, ...],
                  note: str) -> None:
        """A constraint that holds when all of ``sources`` do (explanations and conflicts
        name every one of them)."""
        before = len(self.constraints)
        self.add(cards, locs, lo, hi, sources[0], note)
        if len(self.constraints) > before and len(sources) > 1:
            self.joint[before] = tuple(sources)

    def add_choice(self, alternatives, sources: tuple[int, ...], note: str) -> None:
        alts = [(frozenset(t), lo, hi) for t, lo, hi in alternatives]
        self.choices.append((tuple(sources), note, alts))

    def _build(self, enforce: bool, extra=None):
        joint = self.joint if enforce else {}
        saved = self.constraints
        if joint:
            self.constraints = [c for i, c in enumerate(saved) if i not in joint]
        try:
            m, x, lits = super()._build(enforce, extra)
        finally:
            self.constraints = saved

        def guards(sources):
            out = []
            for s in sources:
                if s not in lits:
                    lits[s] = m.NewBoolVar(f"s{s}")
                out.append(lits[s])
            return out

        for i, sources in joint.items():
            con = saved[i]
            if con.lo > con.hi:
                m.AddBoolOr([g.Not() for g in guards(sources)])
            else:
                m.AddLinearConstraint(sum(x[p] for p in con.terms), con.lo,
                                      con.hi).OnlyEnforceIf(guards(sources))
        for sources, _, alts in self.choices:
            bs = []
            for terms, lo, hi in alts:
                b = m.NewBoolVar("alt")
                m.AddLinearConstraint(sum(x[p] for p in terms), lo, hi).OnlyEnforceIf(b)
                bs.append(b)
            if enforce:
                m.AddBoolOr(bs).OnlyEnforceIf(guards(sources))
            else:
                m.AddBoolOr(bs)
        return m, x, lits

    def accepts(self, deal: dict) -> bool:
        """A deal checked without CP-SAT (:meth:`CardLocationModel.witness`) must meet the
        choices too."""
        return self.satisfies_choices(deal)

    def backbone(self, known=None):
        if self._witnessed:
            merged = {c: set(ls) for c, ls in self._witnessed.items()}
            for c, ls in (known or {}).items():
                merged.setdefault(c, set()).update(ls)
            bb = super().backbone(merged)
            if not bb.consistent:
                # the witnesses are consistent deals: CP-SAT found no deal using a pair they
                # do not, so those pairs are all there is
                from solver.model import Backbone

                return Backbone(True, {c: set(merged.get(c, ())) for c in self.cards})
            return bb
        return super().backbone(known)

    def _where(self, deal: dict) -> list[int]:
        """The location index of every card of a deal, in card order."""
        if len(deal) == len(self.cards) and next(iter(deal)) is self.cards[0] \
                and list(deal)[-1] is self.cards[-1]:   # a deal in card order (no hashing)
            li = self._li
            return [li[l] for l in deal.values()]
        where = [0] * len(self.cards)
        for c, l in deal.items():
            where[self.card_index(c)] = self.loc_index(l)
        return where

    def _meets(self, where: list[int]) -> bool:
        return all(any(lo <= sum(1 for ci, li in terms if where[ci] == li) <= hi
                       for terms, lo, hi in alts)
                   for _, _, alts in self.choices)

    def satisfies_choices(self, deal: dict) -> bool:
        """Whether a deal (card key -> location) meets every choice."""
        return self._meets(self._where(deal))

    def condition(self, counting, seed: int = 0, samples: int = 4000,
                  max_states: int = 400_000):
        """Counting of the model without its choices -> estimates under them: uniform
        deals, kept when they meet every choice (rejection sampling, seeded: the output
        does not depend on the machine).  After an exact count the deals are drawn from
        its programme; after an estimate they are the estimate's own accepted deals
        (exactly uniform over the deals meeting every constraint), so the figures no
        longer ignore the choices."""
        import math

        from solver.model.counting import Counting, OverBudget, sample_deals

        if not self.choices or not counting.total:
            return counting
        if not counting.exact:        # rows of location indices, in card order
            wheres = [] if counting.deals is None else [list(r) for r in counting.deals]
        else:
            try:
                deals = sample_deals(self, samples, seed, max_states=max_states)
            except (OverBudget, ValueError):
                deals = []
            wheres = [self._where(d) for d in deals]
        nl = len(self.locations)
        tally = [[0] * nl for _ in self.cards]
        n = 0
        kept = []
        for where in wheres:
            if self._meets(where):
                n += 1
                kept.append(where)
                for ci, li in enumerate(where):
                    tally[ci][li] += 1
        marg: dict = {}
        for ci, c in enumerate(self.cards):
            row = {self.locations[li]: k / n for li, k in enumerate(tally[ci]) if k}
            if row:
                marg[c] = row
                # consistent deals: witnesses that spare the backbone CP-SAT calls
                self._witnessed.setdefault(c, set()).update(row)
        share = n / len(wheres) if wheres else 0.0
        return Counting(False, counting.total * share, marg,
                        error=1.96 * math.sqrt(0.25 / n) if n else 1.0,
                        method=counting.method + "+rejection", samples=len(wheres),
                        accepted=n, states=counting.states,
                        deals=kept if not counting.exact else None)


@dataclass
class ViewModel(ModelView):
    """A card-location model for one view of one record, with what is needed to report."""

    model: MysteryHandModel
    opts: MysteryHandOptions
    view: str | None
    recorder: bool
    keys: dict[str, list]  # card name -> model keys (jokers: two copies)
    statements: dict[int, str] = field(default_factory=dict)
    active: list[str] = field(default_factory=list)
    winner: str | None = None       # the game is over (MH-19, MH-21): who won

    def loc_label(self, loc: str) -> str:
        """A location in words."""
        if loc == "mystery":
            return "the mystery hand"
        if loc.startswith("mystery:"):
            return f"{loc[8:]}'s mystery hand"
        if loc == FACEUP:
            return "the face-up cards"
        return f"{loc}'s hand"


def card_keys(opts: MysteryHandOptions) -> tuple[list, dict]:
    keys: list = list(standard_deck())
    names: dict = {}
    for k in JOKER_KEYS[: opts.jokers]:
        keys.append(k)
        names[k] = "Jk"
    return keys, names


def _resolve_view(record, view):
    """(view, recorder?) after checking that the record supports that view."""
    from solver.records import resolve_view as resolved

    return resolved(record, view, is_complete(record))


def build(record, view: str | None, *, omniscient: bool = False) -> ViewModel:
    """The model of what ``view`` knows after the record's statements.

    ``omniscient`` uses everything written (for checking a record as a whole)."""
    h = record.header
    opts = MysteryHandOptions.of(h)
    n = len(h.players)
    hand_size, faceup_size = deal_sizes(n, opts)
    if omniscient:
        recorder = True
    else:
        view, recorder = _resolve_view(record, view)
    keys, names = card_keys(opts)
    sizes = {p: hand_size for p in h.players}
    mlocs = mystery_locations(h, opts)
    for ml in mlocs:
        sizes[ml] = 4
    if faceup_size:
        sizes[FACEUP] = faceup_size
    m = MysteryHandModel(keys, sizes, names)
    jokers = list(JOKER_KEYS[: opts.jokers])
    for jk in jokers:  # MH-23: the mystery hand never holds a joker
        for ml in mlocs:
            m.exclude(jk, ml, None, "the mystery hand holds no joker (MH-23)")

    def place_all(cards, loc, L, what):
        """The whole contents of ``loc``: real cards placed, jokers counted (copies are
        interchangeable), nothing else there."""
        real = [c for c in cards if not c.is_joker]
        j = len(cards) - len(real)
        for c in real:
            m.place(c, loc, L, f"{c!r} is in {what}")
        if jokers:
            m.add(jokers, [loc], j, j, L, f"{what} holds {j} joker(s)")
        m.add(real, [loc], len(real), len(real), L, f"{what} is exactly these cards")

    statements = {st.line: st.text for st in record.statements}
    revealed = {st.event.player for st in record.statements
                if isinstance(st.event, Announce) and not st.event.right and not opts.two_player}
    complete = is_complete(record)

    # turn bookkeeping: who is active at each statement, which asks earned a taken extra turn
    state = start(h.players, opts, h.dealer)
    active_at: dict[int, list[str]] = {}
    took_extra: dict[int, int] = {}  # a turn's line -> the line of the extra turn taken
    last_turn = None
    for st in record.statements:
        ev = st.event
        if isinstance(ev, TurnIs):  # turns not written may have passed: no extra-turn fact
            state = resync(state, ev.player)
            last_turn = None
        elif isinstance(ev, TURN_EVENTS):
            active_at[st.line] = list(state.active)
            if state.over:
                break
            was_extra = state.is_extra(actor_of(ev))
            state = step(state, ev)
            if was_extra and last_turn is not None:
                took_extra[last_turn] = st.line
            last_turn = st.line

    def sees_hand(p: str) -> bool:
        return recorder or p == view or p in revealed  # MH-20: a wrong announcer's hand is public

    for st in record.statements:
        ev, L = st.event, st.line
        if isinstance(ev, Holds):
            if sees_hand(ev.player):
                place_all(ev.cards, ev.player, L, f"{ev.player}'s hand")
        elif isinstance(ev, FaceUp):
            if FACEUP in sizes:
                place_all(ev.cards, FACEUP, L, "the face-up cards (MH-5)")
        elif isinstance(ev, MysteryCards):
            loc = f"mystery:{ev.player}" if ev.player else "mystery"
            if loc not in sizes:
                continue
            visible = recorder or (ev.player is not None and ev.player == view
                                   and opts.two_player in ("seen", "chosen"))
            if visible:
                m.add(ev.cards, [loc], 4, 4, L, f"the cards of {loc} (MH-28)")
        elif isinstance(ev, AskOne):
            A, B, X = ev.asker, ev.target, ev.query.cards()
            if not opts.keep_em_guessing:  # E1(b,c): MH-11 tells the others #(H_A,X) <= 3
                m.add(X, [A], 0, 3, L, f"{A} does not hold all of {ev.query!r} (MH-11)")
            if ev.count is None:  # the answer was not seen: only an extra turn tells
                if L in took_extra:
                    _earned_ask_one(m, A, B, ev.query, jokers, opts, (L, took_extra[L]))
                continue
            full = ev.shown is not None and (recorder or view in (A, B))
            if full:
                assert ev.shown is not None  # full: the cards shown were seen
                real = [c for c in ev.shown if not c.is_joker]
                j = len(ev.shown) - len(real)
                for c in X:  # E1(a): H_B ∩ X = S
                    if c in real:
                        m.place(c, B, L, f"{c!r} is in {B}'s hand (shown)")
                    else:
                        m.exclude(c, B, L, f"{c!r} is not in {B}'s hand (not shown)")
                if j:  # E2(a): B holds at least j jokers
                    m.add(jokers, [B], j, 2, L, f"{B} holds at least {j} joker(s) (E2)")
            else:
                k = ev.count
                if opts.sneak and jokers:  # E2(c): #(H_B,X) = k - j, 0 <= j <= #(H_B,Jk)
                    m.add(X, [B], 0, k, L, f"#({B}, {ev.query!r}) <= {k} (E2)")
                    m.add(list(X) + jokers, [B], k, 6, L,
                          f"#({B}, {ev.query!r}) + {B}'s jokers >= {k} (E2)")
                    if L in took_extra and not opts.sneak_jokers_count_for_extra_turn:
                        m.add_joint(X, [B], 3, 4, (L, took_extra[L]),
                                    f"{A} took an extra turn, so {B} showed at least 3 "
                                    "real cards (MH-25, E2c)")
                else:  # E1(c)
                    m.add(X, [B], k, k, L, f"#({B}, {ev.query!r}) = {k} (E1)")
        elif isinstance(ev, AskAll):
            A, X = ev.asker, ev.query.cards()
            if not opts.keep_em_guessing:
                m.add(X, [A], 0, 3, L, f"{A} does not hold all of {ev.query!r} (MH-11)")
            for p, count in ev.counts:  # E3
                if count is not None:
                    m.add(X, [p], count, count, L, f"#({p}, {ev.query!r}) = {count} (E3)")
            if ev.total is None and L in took_extra:  # MH-14: four were laid down in all
                r = 4 - ev.known_total
                m.add_joint(X, list(ev.unseen), r, r, (L, took_extra[L]),
                            f"{A} took an extra turn, so "
                            f"{' + '.join(ev.unseen)} laid down {r} of {ev.query!r} (MH-14)")
        elif isinstance(ev, Request):
            A, c = ev.asker, ev.card
            if not opts.keep_em_guessing:  # MH-15: A does not hold c
                m.exclude(c, A, L, f"{A} does not hold {c!r} (MH-15)")
            if not ev.seen:  # who showed it (if anybody did) was not seen
                continue
            if ev.shower:  # E4
                m.place(c, ev.shower, L, f"{c!r} is in {ev.shower}'s hand (shown, E4)")
            else:  # E5: nobody else holds it
                for p in active_at.get(L, h.players):
                    if p != A:
                        m.exclude(c, p, L, f"{c!r} is not in {p}'s hand (nobody showed, E5)")
        elif isinstance(ev, Unseen):  # any legal query with any answer: nothing, unless ...
            if L in took_extra:  # ... it earned the extra turn taken after it
                _earned_some_query(m, ev.player, active_at.get(L, h.players), jokers, opts,
                                   (L, took_extra[L]))
        elif isinstance(ev, Announce):
            tgt = "mystery"
            if opts.two_player:
                tgt = "mystery:" + next(p for p in h.players if p != ev.player)
            if ev.right:  # MH-19
                m.add(ev.cards, [tgt], 4, 4, L, f"{tgt} is {' '.join(map(repr, ev.cards))}")
            else:  # E6
                m.add(ev.cards, [tgt], 0, 3, L, f"{tgt} is not exactly these four (E6)")
                if (view == ev.player and complete and not recorder
                        and not opts.two_player):
                    # E6: the announcer looked at M
                    truth = true_mystery(record, opts)
                    if truth is not None:
                        m.add(truth, ["mystery"], 4, 4, L, f"{ev.player} saw the mystery hand")
    return ViewModel(m, opts, view, recorder, _name_keys(keys, names), statements,
                     list(state.active), state.winner)


def _earned_ask_one(m, A, B, query, jokers, opts, lines) -> None:
    """A took the extra turn of an ask-one whose answer was not seen: B showed at least
    three cards (MH-12), real ones unless jokers count (MH-25)."""
    X = list(query.cards())
    if jokers and opts.sneak_jokers_count_for_extra_turn:
        m.add_joint(X + jokers, [B], 3, 6, lines,
                    f"{A} took an extra turn, so {B} showed at least 3 "
                    f"cards of {query!r} and jokers (MH-12, MH-25)")
    else:
        m.add_joint(X, [B], 3, 4, lines,
                    f"{A} took an extra turn, so {B} showed at least 3 of {query!r} (MH-12)")


def _earned_some_query(m, A, active, jokers, opts, lines) -> None:
    """A took an extra turn after a turn not seen: some legal query earned it -- an
    ask-one to an active B who holds at least three cards of X (MH-12; with MH-25 jokers
    count), or an ask-all of X whose four cards the other active players hold (MH-14).
    MH-11 holds by itself then (A cannot hold all four)."""
    others = [p for p in active if p != A]
    alts = []
    for q in QUERIES:
        X = list(q.cards())
        for B in others:
            if jokers and opts.sneak_jokers_count_for_extra_turn:
                alts.append((m.pairs(X + jokers, [B]), 3, 6))
            else:
                alts.append((m.pairs(X, [B]), 3, 4))
        alts.append((m.pairs(X, others), 4, 4))
    m.add_choice(alts, lines, f"{A} took an extra turn, so the turn not seen earned one "
                 "(MH-12, MH-14)")


def _name_keys(keys, names) -> dict[str, list]:
    out: dict[str, list] = {}
    for k in keys:
        out.setdefault(names.get(k, repr(k)), []).append(k)
    return out


def true_mystery(record, opts: MysteryHandOptions) -> list[Card] | None:
    """The mystery hand of a complete standard record: the cards in no hand and not face up."""
    seen: set[Card] = set()
    for st in record.statements:
        if isinstance(st.event, (Holds, FaceUp)):
            seen |= {c for c in st.event.cards if not c.is_joker}
    rest = [c for c in standard_deck() if c not in seen]
    return rest if len(rest) == 4 else None


def true_deal(record) -> dict | None:
    """card key -> location for a complete record (for tests and the simulator).  Joker
    copies are numbered in the order they appear; they are interchangeable in the model."""
    h = record.header
    opts = MysteryHandOptions.of(h)
    deal: dict = {}
    for st in record.statements:
        ev = st.event
        if isinstance(ev, (Holds, FaceUp, MysteryCards)):
            loc = (ev.player if isinstance(ev, Holds) else FACEUP if isinstance(ev, FaceUp)
                   else (f"mystery:{ev.player}" if ev.player else "mystery"))
            j = sum(1 for k in deal if isinstance(k, Copy))
            for c in ev.cards:
                if c.is_joker:
                    deal[JOKER_KEYS[j]] = loc
                    j += 1
                else:
                    deal[c] = loc
    if not opts.two_player:
        for c in standard_deck():
            deal.setdefault(c, "mystery")
    keys, _ = card_keys(opts)
    return deal if all(k in deal for k in keys) else None


def as_written_by(record, player: str | None):
    """The record ``player`` would have written at the table from a complete record: their
    own hand (and own mystery hand with ``two-player=seen|chosen``), the face-up cards,
    revealed hands, cards shown to or by them, counts for everything else.  ``None``: a
    spectator's record.  The result has ``me: player``.
    """
    from dataclasses import replace

    from solver.records import Record, Statement

    opts = MysteryHandOptions.of(record.header)
    out_players: set[str] = set()
    kept = []
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Announce) and not ev.right and not opts.two_player:
            out_players.add(ev.player)
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Holds):
            if ev.player != player:
                continue
        elif isinstance(ev, MysteryCards):
            if not (ev.player == player and opts.two_player in ("seen", "chosen")):
                continue
        elif isinstance(ev, AskOne) and ev.shown is not None and player not in (ev.asker,
                                                                                 ev.target):
            ev = AskOne(ev.asker, ev.target, ev.query, None, ev.count)
        kept.append(Statement(0, str(ev), ev, st.comment))
        if isinstance(ev, Announce) and not ev.right and ev.player != player \
                and not opts.two_player:
            hand = next((s.event for s in record.statements
                         if isinstance(s.event, Holds) and s.event.player == ev.player), None)
            if hand is not None:
                kept.append(Statement(0, str(hand), hand, "revealed (MH-20)"))
    header = replace(record.header, me=player)
    base = len(header.lines())
    return Record(header=header, statements=tuple(
        Statement(base + i + 1, s.text, s.event, s.comment) for i, s in enumerate(kept)),
        path=record.path)
