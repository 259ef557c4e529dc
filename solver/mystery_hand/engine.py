"""Mystery Hand engine: turn order (MH-7, MH-8, MH-12, MH-14), legality (MH-10, MH-11,
MH-13, MH-15, MH-27), out players (MH-20), the end (MH-19, MH-21), and cards placed twice
(MH-1).  Used to validate records, to build the inference model and to drive the simulator.

Seating (record-format.md): ``players:`` is clockwise from anyone; with ``dealer:`` the
player on the dealer's left acts first (MH-7), else the first listed.  After something the
recorder did not see (an answer ``?``, a whole turn ``P: ?``) an extra turn may or may not
have been earned: the next actor is accepted when the rules allow them to be on turn, and
``turn: P`` says outright who is.

>>> st = TurnState(("Ana", "Ben", "Cleo", "Dev"), MysteryHandOptions(), dealer="Ben")
>>> st.may_act()
['Cleo']
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.cards import JOKER, Card
from solver.errors import RuleError
from solver.mystery_hand.events import (TURN_EVENTS, AskAll, AskOne, Announce, FaceUp, Holds,
                                        MysteryCards, Request, Turn, Unseen)
from solver.mystery_hand.options import MysteryHandOptions, deal_sizes


@dataclass
class TurnState:
    """Whose turn it is, who is out, and whether an extra turn was (or may have been)
    earned.  ``extra_sure``: the extra turn was certainly earned (else it depends on
    something the recorder did not see)."""

    players: tuple[str, ...]
    opts: MysteryHandOptions
    dealer: str | None = None
    active: list[str] = field(default_factory=list)
    current: str | None = None
    extra: str | None = None  # the player who may take an extra turn
    extra_sure: bool = True
    over: bool = False
    winner: str | None = None

    def __post_init__(self):
        self.active = list(self.players)
        # MH-7: the player on the dealer's left (the next one clockwise) acts first;
        # without a dealer, the first listed (record-format.md)
        self.current = (self.next_after(self.dealer) if self.dealer in self.players
                        else self.players[0])

    def next_after(self, player: str) -> str:
        i = self.players.index(player)
        for k in range(1, len(self.players) + 1):
            p = self.players[(i + k) % len(self.players)]
            if p in self.active:
                return p
        return player

    def may_act(self) -> list[str]:
        """Players who may take the next turn."""
        if self.over:
            return []
        out = [self.current]
        if self.extra and self.extra not in out:
            out.append(self.extra)
        return out

    def resync(self, player: str) -> None:
        """``turn: P``: it is P's turn now."""
        self.current, self.extra, self.extra_sure = player, None, True

    def apply(self, ev, real_shown: int | None = None) -> bool:
        """Advance past a turn event; returns True when ``ev`` was an extra turn."""
        actor = actor_of(ev)
        was_extra = actor == self.extra and actor != self.current
        self.extra, self.extra_sure = None, True
        if isinstance(ev, Announce):
            if ev.right:
                self.over, self.winner = True, actor  # MH-19
                return was_extra
            if self.opts.two_player:  # MH-28: any card wrong = the opponent wins
                self.over = True
                self.winner = next(p for p in self.players if p != actor)
                return was_extra
            nxt = self.next_after(actor)
            self.active.remove(actor)  # MH-20
            if len(self.active) == 1:  # MH-21
                self.over, self.winner = True, self.active[0]
            self.current = nxt
            return was_extra
        self.current = self.next_after(actor)
        if not self.opts.two_player:  # MH-28: never extra turns with two players
            if isinstance(ev, AskOne):
                if ev.count is None:  # not seen: it may have earned one
                    self.extra, self.extra_sure = actor, False
                else:
                    n = ev.count if real_shown is None else real_shown
                    if n >= 3:  # MH-12
                        self.extra = actor
                        self.extra_sure = real_shown is not None
            elif isinstance(ev, AskAll):
                if ev.total == 4:  # MH-14
                    self.extra = actor
                elif ev.total is None and ev.known_total <= 4:
                    self.extra, self.extra_sure = actor, False
            elif isinstance(ev, Unseen):  # any query: it may have earned one
                self.extra, self.extra_sure = actor, False
        return was_extra


def actor_of(ev) -> str:
    """Who took the turn of a turn event."""
    return ev.player if isinstance(ev, (Announce, Unseen)) else ev.asker


def _err(msg: str, st, rule: str, at: str | None = None, last: bool = False) -> RuleError:
    """The rule error of statement ``st``; ``at``: the token at fault (its first
    occurrence, or its last with ``last``: a shown card comes after the query), where the
    column will point."""
    i = -1 if at is None else (st.text.rfind(at) if last else st.text.find(at))
    return RuleError(msg, text=st.text, rule=rule, line=st.line,
                     offset=i if i > 0 else None)


def real_shown(ev: AskOne, opts: MysteryHandOptions) -> int | None:
    """Real cards of X shown (MH-25 counts only those, unless the option says otherwise);
    ``None`` when the recorder saw only the count."""
    if ev.shown is None:
        return None if (opts.sneak and not opts.sneak_jokers_count_for_extra_turn) else ev.count
    if opts.sneak_jokers_count_for_extra_turn:
        return len(ev.shown)
    return sum(1 for c in ev.shown if not c.is_joker)


def validate(record) -> None:
    """Check a whole record against the rules; raise :class:`RuleError` with the line."""
    h = record.header
    opts = MysteryHandOptions.of(h)
    n = len(h.players)
    hand_size, faceup_size = deal_sizes(n, opts)
    state = TurnState(h.players, opts, h.dealer)
    known: dict[str, set[Card]] = {}
    placed: dict[Card, tuple[str, int]] = {}
    out: set[str] = set()

    def place(card: Card, loc: str, st):
        if card.is_joker:
            return
        prev = placed.get(card)
        if prev and prev[0] != loc:
            raise _err(f"{card!r} would be in two places ({prev[0]} on line {prev[1]} and "
                       f"{loc})", st, "MH-1", repr(card), last=True)
        placed.setdefault(card, (loc, st.line))

    for st in record.statements:
        ev = st.event
        if isinstance(ev, Holds):
            if ev.player in known:
                raise _err(f"{ev.player}'s hand is given twice", st, "MH-5")
            if len(ev.cards) != hand_size:
                raise _err(f"a hand has {hand_size} cards with {n} players", st, "MH-5")
            if ev.cards.count(JOKER) > opts.jokers:
                raise _err("too many jokers for this variant", st, "MH-23")
            known[ev.player] = set(ev.cards)
            for c in ev.cards:
                place(c, ev.player, st)
            continue
        if isinstance(ev, FaceUp):
            if len(ev.cards) != faceup_size:
                raise _err(f"{faceup_size} cards lie face up with {n} players", st, "MH-5")
            if ev.cards.count(JOKER) > opts.jokers:
                raise _err("too many jokers for this variant", st, "MH-23")
            for c in ev.cards:
                place(c, "faceup", st)
            continue
        if isinstance(ev, MysteryCards):
            if any(c.is_joker for c in ev.cards):
                raise _err("the mystery hand never holds a joker", st, "MH-23")
            if ev.player and not opts.two_player:
                raise _err("a player's own mystery hand exists only with two-player", st,
                           "MH-28")
            if ev.player is None and opts.two_player:
                raise _err("with two-player name whose mystery hand it is: 'mystery Ana: ...'",
                           st, "MH-28")
            for c in ev.cards:
                place(c, f"mystery:{ev.player}" if ev.player else "mystery", st)
            continue
        # a turn (or ``turn: P``)
        if state.over:
            raise _err(f"the game is over ({state.winner} won)", st, "MH-19/MH-21")
        actor = ev.player if isinstance(ev, Turn) else actor_of(ev)
        if actor in out:
            raise _err(f"{actor} is out and takes no turns", st, "MH-20", actor)
        if isinstance(ev, Turn):
            state.resync(actor)
            continue
        if actor not in state.may_act():
            # the usual cause at a table: a turn the recorder missed
            raise _err(f"it is {' or '.join(state.may_act())}'s turn, not {actor}'s; if a "
                       f"turn was missed, log it as '{state.current}: ?' or resync with "
                       f"'turn: {actor}'", st, "MH-7")
        hand = known.get(actor)
        if isinstance(ev, AskOne):
            if ev.target == actor:
                raise _err("a player asks another player", st, "MH-10")
            if ev.target in out:
                raise _err(f"{ev.target} is out and is not asked", st, "MH-20", ev.target)
            X = set(ev.query.cards())
            if hand is not None and X <= hand and not opts.keep_em_guessing:
                raise _err(f"{actor} holds all four of {ev.query!r}", st, "MH-11",
                           repr(ev.query))
            max_n = 4 + (opts.jokers if opts.sneak else 0)
            if ev.count is not None and ev.count > min(max_n, hand_size):
                raise _err(f"{ev.target} cannot show {ev.count} cards", st,
                           "MH-24" if opts.sneak else "MH-10")
            if ev.shown is not None:
                for c in ev.shown:
                    if c.is_joker:
                        if not opts.sneak or opts.two_player:
                            raise _err("jokers are shown only in Sneak", st, "MH-24")
                    elif c not in X:
                        raise _err(f"{c!r} is not in {ev.query!r}", st, "MH-10", repr(c),
                                   last=True)
                    place(c, ev.target, st)
            if ev.count is not None and ev.count > 4 and not opts.sneak:
                raise _err("at most four cards can be shown", st, "MH-10")
            state.apply(ev, real_shown(ev, opts))
        elif isinstance(ev, AskAll):
            X = set(ev.query.cards())
            if hand is not None and X <= hand and not opts.keep_em_guessing:
                raise _err(f"{actor} holds all four of {ev.query!r}", st, "MH-11",
                           repr(ev.query))
            expected = [p for p in state.active if p != actor]
            got = [p for p, _ in ev.counts]
            if sorted(got) != sorted(expected):
                missing = [p for p in expected if p not in got]
                extra = [p for p in got if p not in expected]
                what = (f"missing {' '.join(missing)}" if missing else "") + (
                    f"{'; ' if missing else ''}{' '.join(extra)} cannot answer" if extra else "")
                raise _err(f"every other active player answers an ask-all ({what})", st,
                           "MH-13")
            if ev.known_total > 4:
                raise _err("only four cards of a set exist", st, "MH-13")
            state.apply(ev)
        elif isinstance(ev, Request):
            if opts.no_exact_request:
                raise _err("exact requests are not played in this variant", st, "MH-27")
            if ev.card.is_joker:
                raise _err("an exact request names a real card", st, "MH-15")
            if hand is not None and ev.card in hand and not opts.keep_em_guessing:
                raise _err(f"{actor} holds {ev.card!r}", st, "MH-15", repr(ev.card))
            if ev.shower is not None and ev.shower == actor:
                raise _err("the asker does not show to themselves", st, "MH-15")
            if ev.shower in out:
                raise _err(f"{ev.shower} is out", st, "MH-20", ev.shower, last=True)
            if ev.shower:
                place(ev.card, ev.shower, st)
            state.apply(ev)
        elif isinstance(ev, Unseen):  # any legal query (never an announcement: it is public)
            state.apply(ev)
        elif isinstance(ev, Announce):
            if any(c.is_joker for c in ev.cards):
                raise _err("the mystery hand never holds a joker", st, "MH-23")
            if ev.right:
                target = "mystery"
                if opts.two_player:
                    target = "mystery:" + next(p for p in h.players if p != actor)
                for c in ev.cards:
                    place(c, target, st)
            state.apply(ev)
            if not ev.right and not opts.two_player:
                out.add(actor)


def turn_state(record) -> TurnState:
    """The turn state after the record's turns: who may act now, who is out, whether an
    extra turn may be taken (no solver: ``sleuth log`` and the table notes use it)."""
    opts = MysteryHandOptions.of(record.header)
    state = TurnState(record.header.players, opts, record.header.dealer)
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Turn):
            state.resync(ev.player)
        elif isinstance(ev, TURN_EVENTS):
            if state.over:
                break
            state.apply(ev, real_shown(ev, opts) if isinstance(ev, AskOne) else None)
    return state
