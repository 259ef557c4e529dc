"""What a Twenty-Two observer can infer (rules, "What an observer can infer", I1..I5), as one
card-location model per deal.

Locations: every player dealt cards in the hand (their hand *now*), ``stock`` (cards left in
the stock), ``discards`` (the exchange discards, TT-8) and ``out`` (everything face up: the
cards played to tricks and revealed at the showdown in this hand, and the scoring cards kept
out of the pack, TT-13/A3).  Sizes are public (TT-13: all hands are the same size; the
exchange counts and the stock are seen).  Statements:

* public cards (I1): each card played, revealed or scoring is ``out``;
* the view's own hand and exchange (its ``holds:`` and ``exchanges ...: a -> b`` lines);
* I2 (and I5): a play that does not beat or tie what it had to (the highest play so far;
  the lead under ``rasmussen``) was the player's n lowest cards, so nothing left in that
  hand -- and so nothing in it now -- ranks below the play's top card;
* I3 (``rasmussen``): such a play also means the hand before it held fewer than n cards
  ranking at least the led rank;
* I4 (``twenty-six``): a lowest-cards play containing a joker, and any play of jokers alone
  (TT-V2(b,f)), leave only jokers in that hand; without a joker, the remaining naturals rank
  at least its top natural.

A bound on an earlier hand is turned into one on the hand now plus the cards the player has
played since, which are public; when those already break it, the record is inconsistent and
the conflicting lines are named.

Which statements a view may use: the public view (``None``) of a record by a player only
public ones; a view of a *complete* record (every hand given with ``holds:`` and every
exchange with its cards) only its own hand and exchanges besides (the public view: none);
the recorder of a partial record everything written -- ``me:``, or a spectator when the
record has no ``me:`` (its view is then the public one: a ``holds:`` line is "a hand known
to the recorder", record-format.md).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import cast

from solver.cards import Card
from solver.errors import InconsistentError
from solver.model import CardLocationModel
from solver.model.copies import copy_keys
from solver.model.view import ModelView
from solver.twenty_two.events import Exchange, Holds
from solver.twenty_two.options import TwentyTwoOptions
from solver.twenty_two.ranking import all_jokers_r, hr, rank_label, ranks
from solver.twenty_two.engine import DealLog, Engine, PlayInfo

STOCK, DISCARDS, OUT = "stock", "discards", "out"


@dataclass
class Fact:
    """A deduction about one player's hand, for the report: ``text`` cites its rule.
    ``kind`` and ``level`` let a report keep only the strongest fact of each kind (the
    highest I2 floor, the lowest I3 cap per rank)."""

    player: str
    text: str
    line: int
    kind: tuple = ()
    level: int = 0


def strongest(facts: list[Fact]) -> list[Fact]:
    """Per player and kind, the strongest fact (ties: the latest)."""
    best: dict[tuple, Fact] = {}
    for f in facts:
        key = (f.player,) + f.kind
        if key not in best or f.level >= best[key].level:
            best[key] = f
    return sorted(best.values(), key=lambda f: f.line)


@dataclass
class ViewModel(ModelView):
    model: CardLocationModel
    opts: TwentyTwoOptions
    view: str | None
    deal: DealLog
    keys: dict[str, tuple]                      # card name -> physical copies (model keys)
    statements: dict[int, str]
    hands: dict[str, Counter | None]            # hands the view knows now (name counts)
    sizes: dict[str, int]
    facts: list[Fact] = field(default_factory=list)
    public: Counter = field(default_factory=Counter)          # names out (I1)
    discarded: dict[str, Counter] = field(default_factory=dict)  # discards the view saw

    def loc_label(self, loc: str) -> str:
        """A location in words."""
        loc = base_loc(loc)       # an unseen play's cards are out
        return {STOCK: "the stock", DISCARDS: "the discards",
                OUT: "out (played, revealed or scoring)"}.get(loc, f"{loc}'s hand")


def is_complete(eng: Engine) -> bool:
    """Every hand of every deal given with ``holds:`` and every exchange with its cards
    (``eng``: the engine after replaying the record)."""
    if not eng.deals:
        return False
    for d in eng.deals:
        held = {e[1] for e in d.events if e[0] == "holds"}
        if set(d.receivers) - held:
            return False
        if any(e[0] == "exchange" and e[1].count and not e[1].known for e in d.events):
            return False
    return True


def visible_players(record, view: str | None, complete: bool, omniscient: bool = False):
    """The players whose ``holds:``/exchange cards this view may use."""
    from solver.records import resolve_view

    players = set(record.header.players)
    if omniscient:
        return players
    view, recorder = resolve_view(record, view, complete, "every hand given with 'holds:', "
                                  "every exchange with its cards")
    if complete:
        return {view} if view is not None else set()
    return players if recorder else set()    # the recorder wrote it: they know it


def card_keys(deck: Counter) -> tuple[list, dict, dict[str, tuple]]:
    by = cast("dict[str, tuple]",
              copy_keys([(name, deck[name]) for name in sorted(deck, key=_name_order)]))
    keys = [k for ks in by.values() for k in ks]
    return keys, {k: k.card for k in keys}, by


def _name_order(name: str):
    c = Card.parse(name)
    return (hr(c) if not c.is_joker else 15, c.sort_key())


def sizes_of(deal: DealLog) -> dict[str, int]:
    """Location sizes at the end of the deal's log (now, for the current deal)."""
    played: Counter[str] = Counter()
    for e in deal.events:
        if e[0] == "play":
            played[e[1].player] += len(e[1].cards)
    sizes = {}
    for p in deal.receivers:
        sizes[p] = deal.size - played[p] - (1 if deal.showdown else 0)
    exch = sum(e[1].count for e in deal.events if e[0] == "exchange")
    sizes[STOCK] = deal.stock0 - exch
    sizes[DISCARDS] = exch
    for i, pl in unseen_plays(deal):
        sizes[unseen_loc(i)] = len(pl.cards)
    sizes[OUT] = sum(deal.deck.values()) - sum(sizes.values())
    return sizes


def unseen_loc(i: int) -> str:
    """The model's place for the cards of unseen play ``i`` (its index in the deal's events):
    part of ``out``, kept apart so that its ranks can be required (:func:`base_loc`)."""
    return f"{OUT}#{i}"


def base_loc(loc: str) -> str:
    """The reported location of a model location (an unseen play's cards are ``out``)."""
    return OUT if loc.startswith(OUT + "#") else loc


def unseen_plays(deal: DealLog) -> list[tuple[int, PlayInfo]]:
    return [(i, e[1]) for i, e in enumerate(deal.events) if e[0] == "play" and e[1].unseen]


def _leaving(deal: DealLog, player: str, after: int) -> tuple[list[tuple[Card, int]],
                                                                 list[str]]:
    """Cards seen leaving ``player``'s hand after the event at index ``after`` (later plays
    and the showdown), with their lines; and the model places of ``player``'s later unseen
    plays (:func:`unseen_loc`), whose cards in a course are stand-ins for their ranks, not
    cards played: a bound on the hand then is one on the hand now and those places."""
    out = []
    hidden = []
    for i, e in enumerate(deal.events[after + 1:], after + 1):
        if e[0] == "play" and e[1].player == player:
            if e[1].unseen:
                hidden.append(unseen_loc(i))
            else:
                out += [(c, e[1].line) for c in e[1].cards]
        elif e[0] == "showdown" and player in e[1]:
            out.append((e[1][player], e[2]))
    return out, hidden


def build(record, view: str | None, deal: DealLog, opts: TwentyTwoOptions, *,
          complete: bool, omniscient: bool = False) -> ViewModel:
    """The model of what ``view`` knows of ``deal`` (at the end of its log)."""
    see = visible_players(record, view, complete, omniscient)
    statements = {st.line: st.text for st in record.statements}
    keys, names, by = card_keys(deal.deck)
    sizes = sizes_of(deal)
    m = CardLocationModel(keys, sizes, names)
    facts: list[Fact] = []

    next_copy: Counter = Counter()
    claims: dict[str, list[int]] = {}

    def place_known(loc: str, entries: list[tuple[str, int]], what: str):
        """Place known cards.  Copies of a card are interchangeable under every statement,
        so the k-th known copy of X is copy k (a fixed fact instead of a count: the
        probabilities per card name are the same, and the counting is much cheaper)."""
        for name, line in sorted(entries, key=lambda t: t[1]):
            claims.setdefault(name, []).append(line)
            i = next_copy[name]
            if i >= len(by[name]):
                _conflict(f"more {name} are placed than the deck has ({len(by[name])}, TT-1)",
                          sorted(set(claims[name])))
            next_copy[name] += 1
            m.place(by[name][i], loc, line, f"{name} {what}")

    # I1: public cards
    public = list(deal.scoring_out)
    for e in deal.events:
        if e[0] == "play" and not e[1].unseen:
            public += [(repr(c), e[1].line) for c in e[1].cards]
        elif e[0] == "showdown":
            public += [(repr(c), e[2]) for c in e[1].values()]
    place_known(OUT, public, "is out (played, revealed or scoring; I1)")

    # hands and exchanges the view saw
    hands: dict[str, Counter | None] = {}
    discarded: dict[str, Counter] = {}
    for p in deal.receivers:
        if p not in see:
            continue
        hand: list[tuple[str, int]] | None = None
        disc: list[tuple[str, int]] = []
        for e in deal.events:
            if e[0] == "holds" and e[1] == p:
                hand = [(repr(c), e[3]) for c in e[2]]
            elif e[0] == "exchange" and e[1].player == p:
                ex: Exchange = e[1]
                if ex.known and ex.count:
                    assert ex.discards is not None and ex.draws is not None  # ex.known
                    disc += [(repr(c), e[2]) for c in ex.discards]
                    if hand is not None:
                        drawn = [(repr(c), e[2]) for c in ex.draws]
                        if opts.exchange == "draw-first":  # A6
                            hand = _remove(hand + drawn, ex.discards)
                        else:
                            hand = _remove(hand, ex.discards) + drawn
                elif ex.count:
                    hand = None
            elif e[0] == "play" and e[1].player == p and hand is not None:
                # an unseen play: which of the known cards left is not known (a hand known
                # before it is no longer tracked; never wrong, only less precise)
                hand = None if e[1].unseen else _remove(hand, e[1].cards)
            elif e[0] == "showdown" and hand is not None:
                hand = _remove(hand, [e[1][p]])
        if hand is not None:
            place_known(p, hand, f"is in {p}'s hand")
            hands[p] = Counter(n for n, _ in hand)
        if disc:
            place_known(DISCARDS, disc, f"was discarded by {p} (TT-8)")
            discarded[p] = Counter(n for n, _ in disc)

    # an unseen play, in this course: cards of its ranks (A10: suits stand for nothing)
    for i, hidden in unseen_plays(deal):
        want = Counter(hr(c) for c in hidden.cards)
        for r, k in want.items():
            same = [key for name, ks in by.items() if hr(Card.parse(name)) == r
                    for key in ks]
            m.add(same, [unseen_loc(i)], k, k, hidden.line,
                  f"{hidden.player}'s unseen play has {k} card(s) of rank {rank_label(r)}")

    # I2..I4 from plays
    naturals_all = [k for name, ks in by.items() if name != "Jk" for k in ks]
    for idx, e in enumerate(deal.events):
        if e[0] != "play":
            continue
        pl: PlayInfo = e[1]
        P, L = pl.player, pl.line
        later, stand_ins = _leaving(deal, P, idx)
        jokers_only = all_jokers_r(ranks(pl.cards))
        lowest = not pl.lead and not pl.beats
        has_joker = any(c.is_joker for c in pl.cards)
        if jokers_only or (lowest and has_joker):  # TT-V2(b,f), I4
            bad = [(c, ln) for c, ln in later if not c.is_joker]
            why = ("a play of jokers alone (TT-V2(b,f))" if jokers_only else
                   "a lowest-cards play with a joker (I4, TT-V2(e))")
            if bad:
                _conflict(f"{why} leaves {P} only jokers, but {P} later played "
                          f"{bad[0][0]!r}", [L, bad[0][1]])
            m.add(naturals_all, [P] + stand_ins, 0, 0, L, f"{P} holds only jokers ({why})")
            facts.append(Fact(P, f"only jokers ({'TT-V2(f)' if jokers_only else 'I4'})", L,
                              ("jokers",)))
            continue
        if not lowest:
            continue
        top = max(hr(c) for c in pl.cards if not c.is_joker)
        if top > 2:  # I2/I5 (I4 without a joker: naturals only)
            bad = [(c, ln) for c, ln in later if not c.is_joker and hr(c) < top]
            if bad and pl.unseen:   # its cards are this course's stand-ins: not named
                _conflict(f"{P}'s unseen play (line {L}) cannot have been a lowest-cards "
                          f"play (I2) this way: {P} later played {bad[0][0]!r}",
                          [L, bad[0][1]])
            if bad:
                _conflict(f"{P}'s lowest-cards play leaves nothing below {rank_label(top)} "
                          f"(I2), but {P} later played {bad[0][0]!r}", [L, bad[0][1]])
            low = [k for name, ks in by.items() if name != "Jk" and hr(Card.parse(name)) < top
                   for k in ks]
            m.add(low, [P] + stand_ins, 0, 0, L,
                  f"{P} holds no card below {rank_label(top)} (I2: lowest-cards play)")
            facts.append(Fact(P, f"nothing below {rank_label(top)}"
                              + (" among naturals" if opts.twenty_six else "") + " (I2)", L,
                              ("I2",), top))
        if opts.rasmussen:  # I3: fewer than n cards >= the led rank before the play
            r, n = hr(pl.lead_cards[0]), len(pl.lead_cards)
            gone = [(c, ln) for c, ln in [(c, L) for c in pl.cards] + later if hr(c) >= r]
            bound = n - 1 - len(gone)
            led = next(e2[1] for e2 in reversed(deal.events[:idx + 1])
                       if e2[0] == "play" and e2[1].lead)
            if bound < 0 and (pl.unseen or led.unseen):   # stand-in cards: not named
                _conflict(f"{P}'s play (line {L}) cannot have been a lowest-cards play "
                          "(I3) with the unseen plays filled in this way",
                          sorted({L} | {ln for _, ln in gone}))
            if bound < 0:
                _conflict(f"{P} could not beat or tie the lead (I3), so held at most {n - 1} "
                          f"card(s) of rank {rank_label(r)} or higher, but played "
                          + " ".join(repr(c) for c, _ in gone),
                          sorted({L} | {ln for _, ln in gone}))
            high = [k for name, ks in by.items() if name != "Jk" and hr(Card.parse(name)) >= r
                    for k in ks]
            m.add(high, [P] + stand_ins, 0, bound, L,
                  f"{P} holds at most {bound} card(s) of rank {rank_label(r)} or higher (I3)")
            facts.append(Fact(P, f"at most {bound} card(s) {rank_label(r)} or higher (I3)", L,
                              ("I3", r), -bound))
    return ViewModel(m, opts, view, deal, by, statements, hands, sizes, facts,
                     Counter(n for n, _ in public), discarded)


def _remove(entries: list[tuple[str, int]], cards) -> list[tuple[str, int]]:
    """Drop one copy of each card (the most recently sourced first)."""
    out = list(entries)
    for c in cards:
        name = repr(c)
        for i in range(len(out) - 1, -1, -1):
            if out[i][0] == name:
                del out[i]
                break
    return out


def _conflict(msg: str, lines: list[int]):
    raise InconsistentError(msg, conflict=lines)


def as_written_by(record, player: str | None):
    """The record ``player`` would have written at the table from a complete record: their own
    ``holds:`` lines and exchanges with cards, every other exchange as its count, everything
    public.  ``None``: a spectator's record.  The result has ``me: player``."""
    from dataclasses import replace

    from solver.records import Record, Statement

    kept = []
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Holds) and ev.player != player:
            continue
        if isinstance(ev, Exchange) and ev.player != player and ev.known:
            ev = Exchange(ev.player, ev.count)
        kept.append((str(ev), ev, st.comment))
    header = replace(record.header, me=player)
    base = len(header.lines())
    return Record(header=header, statements=tuple(
        Statement(base + i + 1, t, ev, c) for i, (t, ev, c) in enumerate(kept)),
        path=record.path)
