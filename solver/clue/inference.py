"""What a Clue observer can infer (section 4, E1..E5), as a card-location model.

Locations: the players (hand sizes of CL-2 or CL-11), ``envelope`` (the case file S: one
card of each kind) and ``faceup`` (CL-11).  The view decides what each statement tells:

* the *recorder* of a partial record knows everything written in it (a ``holds:`` line is
  "a hand known to the recorder", record-format.md), with what it saw in the case file
  after its own wrong accusation (``A sees case: s w r``, the record format's extension);
  the recorder is ``me:``, or a spectator when the record has no ``me:`` (its view is then
  the public one: ``--as public`` or no ``--as``);
* a view of a *complete* record (every hand listed) knows only what that player saw: its
  own hand, the card shown to it (E1b, as the suggester) or by it (E1c, as the refuter),
  who showed otherwise (E1a), every pass (E1a, E2, E5), every accusation (E3, E4), and the
  case file itself once it accused wrongly (E3: it looked at S; ``sees case`` lines are
  that player's alone);
* the public view (``None``) of a record by a player knows only what everybody saw.

What the recorder did not see (``?``) is any choice the rules allow: ``P: ?`` and a
refutation ``?`` constrain nothing (whatever the deal, some refutation followed); ``Q
shows`` without the card says Q holds at least one of the three.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.clue.engine import State, is_complete, run
from solver.clue.events import Accuse, FaceUp, Holds, SeesCase, Suggest
from solver.clue.options import (ENVELOPE, FACEUP, ClueOptions, Deck, deck_of, hand_sizes)
from solver.model import CardLocationModel
from solver.model.view import ModelView


@dataclass
class ViewModel(ModelView):
    """A card-location model for one view of one record, with what is needed to report."""

    model: CardLocationModel
    opts: ClueOptions
    deck: Deck
    view: str | None
    recorder: bool
    statements: dict[int, str] = field(default_factory=dict)
    active: list[str] = field(default_factory=list)
    end: State | None = None        # the table's state after the record

    def loc_label(self, loc: str) -> str:
        return label(loc)

    def only_left_text(self, rule, card: str, where: str, names: list[str]) -> str:
        """A line leaves ``card`` the only one of its kind for the case file (the rule of
        CL-2: it holds one suspect, one weapon and one room)."""
        if where != label(ENVELOPE) or card not in self.deck.cards:
            return super().only_left_text(rule, card, where, names)
        return (f"leaves {card} the only {self.deck.kind(card)} that can be in the case "
                "file (CL-2: it holds one of each kind)")

    def inconsistent(self):
        """The conflict (:meth:`ModelView.inconsistent`) in Clue's words: a line that puts
        the card somewhere else says where ("line 6 puts it in the case file", not "says
        it is not"); a pass by a player who must hold the card cites CL-10 (a player who
        holds a named card may not pass), in the sentence and as the error's rule."""
        e = super().inconsistent()
        core = set(e.conflict)
        m = self.model
        passes = {next(iter(c.terms)): c.source for c in m.constraints
                  if c.source in core and len(c.terms) == 1 and c.hi == 0
                  and " passed, E" in c.note}
        placed = {next(iter(c.terms)): c.source for c in m.constraints
                  if c.source in core and len(c.terms) == 1 and c.lo == 1}
        if any(placed.get(pair, src) != src for pair, src in passes.items()):
            e.rule = "CL-10"        # a pass by the player a line puts the card with
        generic = e._reason

        def reason():
            text = generic() if callable(generic) else generic
            return None if text is None else self._clue_reason(text, core, passes, e)

        e.reason = reason
        return e

    def _clue_reason(self, text: str, core, passes, e) -> str:
        import re

        m = self.model
        found = re.search(r"(?:puts (\S+) in|(\S+) (?:must|cannot) be in|says (\S+) is not in)"
                          r" ([^;]+); (?:lines? [\d, and]+) says? it is( not)?$", text)
        if found is None:
            return text
        name = next(g for g in found.groups()[:3] if g)
        card = next((c for c in m.cards if m.name(c) == name), None)
        loc = next((l for l in m.locations if label(l) == found.group(4)), None)
        if card is None or loc is None:
            return text
        pair = (m.card_index(card), m.locations.index(loc))
        tail = re.search(r"line (\d+) says it is not$", text)
        if tail is not None:        # the last line puts the card elsewhere: say where
            y = int(tail.group(1))
            there = [l for c in m.constraints if c.source == y and c.lo == 1
                     and len(c.terms) == 1 and next(iter(c.terms))[0] == pair[0]
                     for l in [m.locations[next(iter(c.terms))[1]]] if l != loc]
            if there:
                text = text[:tail.start()] + f"line {y} puts it in {label(there[0])}"
        if pair in passes:
            at = "" if text.endswith(f"line {passes[pair]} says it is not") \
                else f" at line {passes[pair]}"
            text += (f" ({loc} passed{at}, but a player who holds a named card may not pass, "
                     "CL-10)")
            e.rule = "CL-10"
        return text


def label(loc: str) -> str:
    if loc == ENVELOPE:
        return "the case file"
    if loc == FACEUP:
        return "the face-up cards"
    return f"{loc}'s hand"


def resolve_view(record, view):
    """(view, recorder?) after checking that the record supports that view."""
    from solver.records import resolve_view as resolved

    return resolved(record, view, is_complete(record))


def locations(record) -> dict[str, int]:
    """Every location with its size: the players, the envelope, the face-up cards."""
    h = record.header
    sizes, faceup = hand_sizes(h.players, h.dealer, ClueOptions.of(h), deck_of(h))
    out = {p: sizes[p] for p in h.players}
    out[ENVELOPE] = 3
    if faceup:
        out[FACEUP] = faceup
    return out


def build(record, view: str | None, *, omniscient: bool = False) -> ViewModel:
    """The model of what ``view`` knows after the record's statements; ``omniscient`` uses
    everything written (checking a record as a whole)."""
    h = record.header
    opts = ClueOptions.of(h)
    deck = deck_of(h)
    if omniscient:
        recorder = True
    else:
        view, recorder = resolve_view(record, view)
    sizes = locations(record)
    # (a card's printed name is the card itself: Knife, not 'Knife')
    m = CardLocationModel(list(deck.cards), sizes, names={c: c for c in deck.cards})
    for kind, group in zip(("suspect", "weapon", "room"), deck.groups):   # CL-2
        m.add(group, [ENVELOPE], 1, 1, None, f"the case file holds one {kind} (CL-2)")
    complete = is_complete(record)
    truth = true_deal(record) if complete else None
    for st in record.statements:
        ev, L = st.event, st.line
        if isinstance(ev, Holds):
            if recorder or ev.player == view:
                for c in ev.cards:
                    m.place(c, ev.player, L, f"{c} is in {ev.player}'s hand")
        elif isinstance(ev, FaceUp):
            if FACEUP in sizes:
                for c in ev.cards:
                    m.place(c, FACEUP, L, f"{c} is face up (CL-11)")
        elif isinstance(ev, Suggest):
            if ev.answers is None:            # the refutation was not seen: nothing
                continue
            A, X = ev.player, list(ev.cards)
            # a passer holds none of the three (E1(a), whether anyone shows or nobody, which
            # E2 goes on from; E5 when every player answers): the rule a contradiction cites
            passed = "E5" if opts.refute == "all" else "E1(a)"
            for a in ev.answers:
                if not a.shows:
                    for c in X:
                        m.exclude(c, a.player, L, f"{c} is not in {a.player}'s hand "
                                  f"({a.player} passed, {passed})")
                elif a.card is not None and (recorder or view in (A, a.player)):
                    m.place(a.card, a.player, L, f"{a.card} is in {a.player}'s hand "
                            f"(shown to {A})")  # E1b/E1c
                else:
                    m.add(X, [a.player], 1, 3, L, f"{a.player} holds at least one of "
                          f"{' '.join(X)} ({a.player} showed, E1(a))")
        elif isinstance(ev, Accuse):
            if ev.right:                      # E4
                for c in ev.cards:
                    m.place(c, ENVELOPE, L, f"{c} is in the case file (a right accusation)")
            else:                             # E3
                m.add(ev.cards, [ENVELOPE], 0, 2, L, "the case file is not "
                      f"{' '.join(ev.cards)} (a wrong accusation, E3)")
                if view == ev.player and truth is not None and not recorder:
                    for c in deck.cards:
                        if truth[c] == ENVELOPE:
                            m.place(c, ENVELOPE, L, f"{c} is in the case file ({view} looked "
                                    "at it after accusing, E3)")
        elif isinstance(ev, SeesCase):        # E3: only the accuser saw it
            if recorder or view == ev.player:
                for c in ev.cards:
                    m.place(c, ENVELOPE, L, f"{c} is in the case file ({ev.player} looked "
                            "at it after accusing, E3)")
    statements = {st.line: st.text for st in record.statements}
    end = run(record)
    return ViewModel(m, opts, deck, view, recorder, statements, list(end.active), end)


def true_deal(record) -> dict[str, str] | None:
    """card -> location for a complete record: the hands and face-up cards listed, the
    case file the cards in none of them."""
    if not is_complete(record):
        return None
    deck = deck_of(record.header)
    deal: dict[str, str] = {}
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Holds):
            for c in ev.cards:
                deal[c] = ev.player
        elif isinstance(ev, FaceUp):
            for c in ev.cards:
                deal[c] = FACEUP
    for c in deck.cards:
        deal.setdefault(c, ENVELOPE)
    return deal


def as_written_by(record, player: str | None):
    """The record ``player`` would have written at the table from a complete record: its
    own hand, the face-up cards, the cards shown to it or by it, who showed otherwise, and
    after its own wrong accusation the case file it saw (``sees case``).  ``None``: a
    spectator's record.  The result has ``me: player``."""
    from dataclasses import replace

    from solver.clue.events import Answer
    from solver.records import Record, Statement

    truth = true_deal(record)
    kept = []
    for st in record.statements:
        ev = st.event
        if isinstance(ev, (Holds, SeesCase)) and ev.player != player:
            continue
        if isinstance(ev, Suggest) and ev.answers is not None and player != ev.player:
            ev = Suggest(ev.player, ev.cards, tuple(
                a if (not a.shows or a.player == player) else Answer(a.player, True, None)
                for a in ev.answers))
        kept.append((str(ev), ev, st.comment))
        if (isinstance(ev, Accuse) and not ev.right and ev.player == player and truth
                and not any(isinstance(s.event, SeesCase) for s in record.statements)):
            seen = SeesCase(player, tuple(c for g in deck_of(record.header).groups for c in g
                                          if truth[c] == ENVELOPE))   # type: ignore[arg-type]
            kept.append((str(seen), seen, ""))
    header = replace(record.header, me=player)
    base = len(header.lines())
    return Record(header=header, statements=tuple(
        Statement(base + i + 1, t, e, c) for i, (t, e, c) in enumerate(kept)), path=record.path)
