"""The Twenty-Two rules engine: replays a record statement by statement, checking every rule
it can with what the record tells (all hands in a complete record; otherwise the recorder's
own), and keeping the score.

Dealing (TT-4..TT-7, TT-14, TT-15), the exchange (TT-8, A4, A6), tricks (TT-9..TT-12,
TT-V1, TT-V2), the showdown and scoring (TT-13, TT-14, TT-V1(d), TT-V2(g)), elimination and
the end of the game (TT-16, TT-17, A1..A3, A9).  Illegal statements raise
:class:`~solver.errors.RuleError` naming the rule, with the statement's line and text and
its column on the token at fault: the card played, melded or shown, the player out of turn,
the count; a rule about the statement as a whole points at its start.

The engine also keeps, per deal, a :class:`DealLog` of what happened in order; the inference
(:mod:`solver.twenty_two.inference`) reads it for any view.

The engine contract (docs/architecture.md): :class:`State` is the frozen public position
(:meth:`Engine.state`; :class:`Engine` is the working state :func:`replay` builds, which
the inference reads), ``run(record, upto)`` the state after the first ``upto`` statements,
and ``verify_<action>``/``can_<action>`` for the actions ``deal`` (TT-4, TT-13, TT-15),
``exchange`` (TT-8), ``lead`` (TT-9, TT-10, TT-12) and ``follow`` (TT-10); the cards a
lead or a follow may be are :mod:`solver.twenty_two.ranking`'s.

>>> from solver.records import parse_record
>>> rec = parse_record('''game: twenty-two
... players: Ana Ben Cleo
... Ana deals 7
... ''')
>>> st = run(rec)
>>> st.turn, st.may_act, can_exchange(st, "Ben"), can_follow(st, "Ben"), can_deal(st, "Ben")
('exchange', ('Ben', 'Cleo', 'Ana'), True, False, False)
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.cards import Card, format_cards, standard_deck
from solver.errors import InconsistentError, RuleError
from solver.model.budget import check
from solver.legality import can
from solver.records import find_token
from solver.twenty_two.events import (Deal, Draw, Exchange, Holds, Showdown, Trick, TurnIs,
                                      Unseen)
from solver.twenty_two.options import TwentyTwoOptions, check_players
from solver.twenty_two.ranking import (JK, all_jokers_r, choices_r, follow_problem, follows_r,
                                       lead_problem, leads_r, beats_or_ties, max_lead, pick,
                                       ranks, show_rank, target_of, trick_winner, value)

#: the most ways of filling the unseen turns (``P: ?``, a play ``?``) that :func:`replay`
#: follows (courses ending in the same state counted once); a record leaving more open is
#: accepted as written and its analysis is over budget (:func:`followed`)
MAX_BRANCHES = 3000


@dataclass
class PlayInfo:
    """One play to a trick, as the inference needs it."""

    player: str
    cards: tuple[Card, ...]
    line: int
    lead: bool
    lead_cards: tuple[Card, ...]
    target: tuple[Card, ...]     # what it had to beat or tie (TT-10; the lead under TT-V1(a))
    beats: bool                  # beats or ties the target; False = a lowest-cards play (I2)
    #: a play the recorder did not see: ``cards`` then has the ranks of one way of filling
    #: it in (suits stand for nothing, A10)
    unseen: bool = False


@dataclass
class DealLog:
    """One hand, from the deal to the showdown."""

    number: int
    dealer: str
    line: int
    receivers: tuple[str, ...]               # players dealt cards, from the dealer's left
    size: int                                # cards dealt to each (TT-5..TT-7)
    deck: Counter                            # card name -> copies in the whole deck
    scoring_out: list[tuple[str, int]]       # (name, showdown line): scoring cards out of the pack
    stock0: int                              # stock after the deal
    events: list = field(default_factory=list)   # ("holds"|"exchange"|"play"|"showdown", ...)
    plays: list[PlayInfo] = field(default_factory=list)
    showdown: tuple[dict[str, Card], int] | None = None
    losers: tuple[str, ...] = ()


@dataclass
class Turn:
    """Who acts next and how."""

    kind: str                 # draw | deal | exchange | lead | follow | showdown | over
    players: tuple[str, ...]  # who may act


def full_deck(n_players: int, opts: TwentyTwoOptions) -> Counter:
    """Card name -> copies (TT-1 packs; TT-V2(a) jokers)."""
    c: Counter = Counter()
    for card in standard_deck():
        c[repr(card)] += opts.n_packs(n_players)
    if opts.jokers(n_players):
        c["Jk"] = opts.jokers(n_players)
    return c



@dataclass(frozen=True)
class State:
    """The public position: what comes next (``turn``: draw, deal, exchange, lead, follow,
    showdown or over) and who may do it, the dealers allowed and a draw due, the hand being
    played (who was dealt cards, their size, the stock, who has exchanged, the leader, the
    open trick), who is out, the totals and the winners."""

    players: tuple[str, ...]
    turn: str
    may_act: tuple[str, ...]
    phase: str
    deals: int
    dealers: tuple[str, ...]
    draw_pool: tuple[str, ...] | None
    receivers: tuple[str, ...]
    hand_size: int
    stock: int
    exch_pos: int
    exchanged: frozenset[str]
    leader: str | None
    trick: tuple[tuple[str, tuple[Card, ...]], ...]
    played: bool
    follower: str | None
    eliminated: tuple[str, ...]
    totals: tuple[tuple[str, int], ...]
    over: bool
    winners: tuple[str, ...]


# ----- the actions: verify_<action> raises the rule broken, can_<action> says whether not ----

def verify_deal(state: State, dealer: str) -> None:
    """``dealer`` deals now: after the showdown (TT-13), the first dealer (TT-4) or the
    loser of the last hand (TT-15), once any tie is drawn off (TT-14)."""
    if state.phase != "predeal":
        raise RuleError("a new deal before the showdown of this hand", rule="TT-13")
    if state.draw_pool is not None:
        raise RuleError("the tied players must draw again: " + " ".join(state.draw_pool),
                        rule="TT-15" if state.deals else "TT-4")
    if dealer not in state.dealers:
        why = "the loser of the last hand deals: " if state.deals else "the first dealer is "
        raise RuleError(why + " or ".join(state.dealers), text=dealer,
                        rule="TT-15" if state.deals else "TT-4")


def _verify_in_hand(state: State, player: str | None = None) -> None:
    """A hand is being played (and ``player`` was dealt cards in it)."""
    if state.phase == "predeal" or not state.receivers:
        raise RuleError("no hand is being played: a deal ('P deals') comes first", rule="TT-5")
    if player is not None and player not in state.receivers:
        raise RuleError(f"{player} has no cards in this hand", text=player,
                        rule="TT-16" if player in state.eliminated else "TT-5")


def verify_exchange(state: State, player: str) -> None:
    """``player`` exchanges now: before the first lead, once, in turn from the dealer's
    left (TT-8)."""
    _verify_in_hand(state, player)
    if state.phase != "exchange":
        raise RuleError("the exchange is over once the first trick is led", rule="TT-8")
    if player in state.exchanged:
        raise RuleError(f"{player} has already had their chance to exchange", text=player,
                        rule="TT-8")
    if state.receivers.index(player) < state.exch_pos:
        raise RuleError("exchanges go in turn from the dealer's left: "
                        + " ".join(state.receivers), text=player, rule="TT-8")


def _verify_playing(state: State) -> None:
    if state.phase not in ("exchange", "play"):
        raise RuleError("the hand is over", rule="TT-13")
    if state.hand_size <= 1:
        raise RuleError("each player holds 1 card: the showdown comes now", rule="TT-13")


def verify_lead(state: State, player: str) -> None:
    """``player`` leads now: the dealer's left first (TT-9), then the last trick's winner
    (TT-12), once the open trick is finished (TT-10)."""
    _verify_in_hand(state, player)
    _verify_playing(state)
    if state.trick:
        raise RuleError(f"the trick led by {state.trick[0][0]} is not finished: "
                        f"{state.follower} plays next", rule="TT-10")
    if player != state.leader:
        raise RuleError(f"{state.leader} leads" + (
            " (the dealer's left)" if not state.played else
            " (the winner of the last trick, TT-12)"), text=player, rule="TT-9")


def verify_follow(state: State, player: str) -> None:
    """``player`` plays to the open trick now: clockwise (TT-10)."""
    _verify_in_hand(state, player)
    _verify_playing(state)
    if not state.trick:
        raise RuleError(f"no trick is being played: {state.leader} leads next", rule="TT-9")
    if player != state.follower:
        raise RuleError(f"{state.follower} plays next (clockwise)", text=player, rule="TT-10")


can_deal = can(verify_deal)
can_exchange = can(verify_exchange)
can_lead = can(verify_lead)
can_follow = can(verify_follow)


def token_offset(text: str, token: str | None, *, seg: int | None = None,
                 last: bool = False) -> int | None:
    """Where statement ``text`` writes ``token`` (in any spelling): in its play ``seg`` of
    a trick (``;``-separated) or its ``seg``-th entry of a ``showdown:``/``draw:`` list
    (``,``-separated) when given, the first (``last``: the last) occurrence; ``None`` when
    absent or at the start (the column is then the statement's).

    >>> token_offset("Ana leads 7H; Cleo 2S", "Cleo", seg=1), token_offset("Cleo deals 6", "6")
    (14, 11)
    >>> token_offset("showdown: Ana 2C, Ben 3C", "3C", seg=1, last=True)
    22
    """
    if not token:
        return None
    base, part = 0, text
    if seg is not None:
        sep = ";" if ";" in text or not text.lower().startswith(("showdown", "draw")) else ","
        parts = text.split(sep)
        if seg < len(parts):
            base = sum(len(q) + 1 for q in parts[:seg])
            part = parts[seg]
    i = find_token(part, token, last=last)
    return base + i if i >= 0 and base + i > 0 else None


def fault(msg: str, st, rule: str, token: str | None = None, *, seg: int | None = None,
          last: bool = False) -> RuleError:
    """The rule error of statement ``st`` (its text and line), its column on ``token``
    (:func:`token_offset`), else on the statement's start."""
    return RuleError(msg, text=st.text, rule=rule, line=st.line,
                     offset=token_offset(st.text, token, seg=seg, last=last))


def _count_token(text: str, ev: Exchange) -> str | None:
    """The token of an exchange statement that gives its count: the number written, else
    its first discard."""
    m = re.match(r"^\S+\s+exchanges\s+([0-9]+)", text, re.I)
    if m:
        return m.group(1)
    return repr(ev.discards[0]) if ev.discards else None


#: the word of a statement that says what it does: where a rule about the action points
def _verb(st) -> str | None:
    words = st.text.split()
    if not words:
        return None
    if words[0].lower().rstrip(":") in ("showdown", "draw"):
        return words[0]
    return words[1] if len(words) > 1 else words[0]


class Engine:
    """Replays statements; ``apply(statement)`` raises on an illegal one."""

    def __init__(self, header, opts: TwentyTwoOptions | None = None):
        self.header = header
        self.players: tuple[str, ...] = tuple(header.players)
        self.opts = opts or TwentyTwoOptions.of(header)
        check_players(len(self.players), self.opts)
        self.deck = full_deck(len(self.players), self.opts)
        self.deals: list[DealLog] = []
        # scoring (TT-13): per player the (card, showdown line) kept face up
        self.scoring: dict[str, list[tuple[Card, int]]] = {p: [] for p in self.players}
        # the points each scoring card gave (TT-14: the value; tie-score=split: a share)
        self.points: dict[str, list[int]] = {p: [] for p in self.players}
        self.eliminated: list[str] = []          # in order of elimination (TT-16)
        self.winners: tuple[str, ...] = ()
        self.over = False
        # dealer selection: None = anybody may deal; else the allowed dealers
        self.dealer_candidates: tuple[str, ...] | None = (
            (header.dealer,) if header.dealer else None)
        self.header_dealer = header.dealer      # the first dealer named by the header
        self.draw_pool: tuple[str, ...] | None = None   # who draws next (TT-4/TT-14)
        self.next_size = 7                       # TT-5
        self.phase = "predeal"                   # predeal | exchange | play | over
        #: how many ways of filling in the unseen turns this engine stands for: courses
        #: that end in the same state are kept once (:meth:`course_key`), with their number
        self.mult = 1
        #: the recorder of the recorder's own (partial) record (:func:`recorder_of`): it
        #: plays its own turns and sees them, so none of them is a turn not seen
        self.recorder: str | None = None
        self._reset_deal_state()

    # ----- state of the current deal ---------------------------------------------------
    def _reset_deal_state(self):
        self.deal: DealLog | None = None
        self.hand_size = 0
        self.stock = 0
        self.discards = 0
        self.exch_pos = 0
        self.exchanged: set[str] = set()
        self.trick: list[tuple[str, tuple[Card, ...]]] = []
        self.leader: str | None = None
        # omniscient knowledge from the record: cards known in each hand, whole hand or not
        self.known: dict[str, Counter] = {}
        self.full: dict[str, bool] = {}
        self.hand_line: dict[str, int] = {}
        self.known_discards: Counter = Counter()
        self.public: Counter = Counter()         # scoring-out + played + revealed, this deal

    def state(self) -> State:
        """The public position now, frozen."""
        turn = self.turn()
        d = self.deal
        return State(self.players, turn.kind, tuple(turn.players), self.phase, len(self.deals),
                     tuple(self.allowed_dealers()), self.draw_pool,
                     d.receivers if d is not None else (), self.hand_size, self.stock,
                     self.exch_pos, frozenset(self.exchanged), self.leader,
                     tuple(self.trick), bool(d is not None and d.plays),
                     self._next_follower() if self.trick else None,
                     tuple(self.eliminated), tuple(self.totals().items()), self.over,
                     self.winners)

    def _verify(self, verify, st, *args, seg: int | None = None) -> None:
        """A verify_<action> on the state now; its error is statement ``st``'s, its column
        on the token it quotes (in play ``seg`` of a trick), else on the statement's verb."""
        try:
            verify(self.state(), *args)
        except RuleError as e:
            token = e.text or _verb(st)
            raise fault(e.message, st, e.rule or "", token,
                        seg=seg if e.text else None) from None

    @property
    def active(self) -> list[str]:
        """Players still in the game, seating order."""
        return [p for p in self.players if p not in self.eliminated]

    def totals(self) -> dict[str, int]:
        return {p: sum(self.points[p]) for p in self.players}

    def left_of(self, p: str, among: Sequence[str] | None = None) -> str:
        """The next player clockwise after ``p`` (among ``among``)."""
        among = self.players if among is None else among
        i = self.players.index(p)
        for k in range(1, len(self.players) + 1):
            q = self.players[(i + k) % len(self.players)]
            if q in among:
                return q
        return p

    def scoring_out(self) -> list[tuple[Card, int]]:
        """Scoring cards lying out of the pack (TT-6, TT-13): none under paper scoring
        (TT-V1(d)); eliminated players' cards unless ``eliminated-cards=return`` (A3)."""
        if self.opts.rasmussen:
            return []
        out = []
        for p in self.players:
            if p in self.eliminated and self.opts.eliminated_cards == "return":
                continue
            out += self.scoring[p]
        return out

    def pack_size(self) -> int:
        return sum(self.deck.values()) - len(self.scoring_out())

    def turn(self) -> Turn:
        if self.over:
            return Turn("over", ())
        if self.phase == "predeal":
            if self.draw_pool is not None:
                return Turn("draw", self.draw_pool)
            return Turn("deal", tuple(self.allowed_dealers()))
        d = self.deal
        assert d is not None  # a hand is dealt once the phase is past predeal
        if self.phase == "exchange":
            rest = [p for p in d.receivers[self.exch_pos:]]
            if self.stock > 0 and rest:
                return Turn("exchange", tuple(rest))
        if self.hand_size <= 1 and not self.trick:
            return Turn("showdown", d.receivers)
        if not self.trick:
            assert self.leader is not None  # set by every deal (TT-9) and trick (TT-12)
            return Turn("lead", (self.leader,))
        return Turn("follow", (self._next_follower(),))

    def size_of(self, p: str) -> int:
        """Cards in ``p``'s hand now (a player who has played to the open trick holds fewer)."""
        if self.deal is None or p not in self.deal.receivers:
            return 0
        n = len(self.trick[0][1]) if self.trick else 0
        return self.hand_size - (n if any(q == p for q, _ in self.trick) else 0)

    def _next_follower(self) -> str:
        assert self.deal is not None  # a trick is open
        return self.left_of(self.trick[-1][0], list(self.deal.receivers))

    # ----- card accounting (TT-1: a card cannot be in two places) -----------------------
    def _located(self) -> Counter:
        c = Counter(self.public)
        for p in self.known:
            c += self.known[p]
        c += self.known_discards
        return c

    def _check_now(self, st, names, seg: int | None = None) -> None:
        """After a statement (play ``seg`` of a trick): no card may be in more places than
        the deck has copies; the error points at the card."""
        loc = self._located()
        for name in set(names):
            have = self.deck.get(name, 0)
            if have == 0:
                raise fault(f"{name} is not in this game's deck", st,
                            "TT-V2(a)" if name == "Jk" else "TT-1", name, seg=seg, last=True)
            if loc[name] > have:
                where = []
                if self.public[name]:
                    where.append(f"{self.public[name]} out (played, revealed or scoring)")
                for p in self.known:
                    if self.known[p][name]:
                        where.append(f"{self.known[p][name]} in {p}'s hand")
                if self.known_discards[name]:
                    where.append(f"{self.known_discards[name]} discarded")
                raise fault(f"a card in two places: the deck has {have} {name}, but this makes "
                            + ", ".join(where), st, "TT-1", name, seg=seg, last=True)

    # ----- statements --------------------------------------------------------------------
    def apply(self, st) -> None:
        ev = st.event
        if self.over:
            raise fault("the game is over (winner: " + " ".join(self.winners) + ")", st,
                       "TT-17")
        if isinstance(ev, Draw):
            self._draw(ev, st)
        elif isinstance(ev, Deal):
            self._deal(ev, st)
        elif isinstance(ev, Holds):
            self._holds(ev, st)
        elif isinstance(ev, Exchange):
            self._exchange(ev, st)
        elif isinstance(ev, Trick):
            self._trick(ev, st)
        elif isinstance(ev, Showdown):
            self._showdown(ev, st)
        elif isinstance(ev, (Unseen, TurnIs)) or (
                isinstance(ev, Trick) and any(c is None for _, c in ev.plays)):
            ways = self.step(st)
            if len(ways) != 1:
                raise fault("this engine follows one course: replay() follows the unseen "
                            "turns", st, "TT-8")
            self.__dict__.update(ways[0].__dict__)
        else:  # pragma: no cover - parse_event returns only these
            raise fault("not a Twenty-Two statement", st, "TT-1")

    # ----- what the recorder did not see (record-format.md) ---------------------------------
    def fork(self) -> "Engine":
        """An independent copy (the header, the options and the finished deals shared)."""
        import copy

        memo = {id(self.header): self.header, id(self.opts): self.opts}
        for d in self.deals[:-1]:
            memo[id(d)] = d
        return copy.deepcopy(self, memo)

    def step(self, st) -> list["Engine"]:
        """Statement ``st`` in every way the rules allow: ``[self]`` after a seen statement;
        a copy per way of filling in an unseen turn (``P: ?``, a play ``?``); ``[self]`` or
        nothing after ``turn: P`` (whether P may act now)."""
        ev = st.event
        if isinstance(ev, TurnIs):
            return self._turn_is(ev.player, st)
        if isinstance(ev, Unseen):
            if ev.player == self.recorder and (self._may_exchange(ev.player)
                                               or ev.player in self.turn().players):
                self._own_turn(ev.player, st)    # (out of turn: refused as such below)
            if self._may_exchange(ev.player):
                first = self.turn().players[0]
                if first != ev.player:
                    raise fault(f"{first} exchanges next (in turn from the dealer's left); "
                                f"if the exchanges before {ev.player}'s were not seen, write "
                                f"'turn: {ev.player}' first", st, "TT-8", ev.player)
                return self._unseen_exchange(ev.player, st)
            self._begin_play(st)
            return self._unseen_play(ev.player, not self.trick, st, 0)
        if isinstance(ev, Trick) and any(c is None for _, c in ev.plays):
            self._begin_play(st)
            for k, (p, cards) in enumerate(ev.plays):
                if cards is None and p == self.recorder:
                    self._own_turn(p, st, seg=k, lead=ev.lead and k == 0)
            ways = [self]
            for k, (p, cards) in enumerate(ev.plays):
                is_lead = ev.lead and k == 0
                nxt: list[Engine] = []
                errs: list[Exception] = []
                for e in ways:
                    try:
                        if cards is None:
                            nxt += e._unseen_play(p, is_lead, st, k)
                        else:
                            e._verify(verify_lead if is_lead else verify_follow, st, p, seg=k)
                            e._play(p, tuple(cards), is_lead, st, k)
                            nxt.append(e)
                    except (RuleError, InconsistentError) as x:
                        errs.append(x)
                if not nxt:
                    raise no_course_error(errs)
                ways = nxt
            return ways
        self.apply(st)
        return [self]

    def _own_turn(self, p: str, st, seg: int | None = None, lead: bool = False) -> None:
        """Refuse a turn of the recorder's written as not seen (``P: ?``, a play ``?`` in
        play ``seg`` of a trick line, a lead when ``lead``)."""
        exch = seg is None and self._may_exchange(p)
        lead = lead or (seg is None and not self.trick)
        what = (f"exchange ({p} exchanges N, or with its cards)" if exch
                else "play with its cards")
        raise fault(f"{p} is the recorder (me: {p}), who sees their own turns, so none of "
                    f"them is a turn not seen: write {p}'s {what}", st,
                    "TT-8" if exch else ("TT-9" if lead else "TT-10"), p, seg=seg)

    def _turn_is(self, p: str, st) -> list["Engine"]:
        """``turn: P``: in the play, the courses where P acts now (none: refused); in the
        exchange (in turn from the dealer's left, TT-8), each player from the one to
        exchange up to P had an exchange not seen -- all those left when P is the first
        leader (TT-9) -- and P acts next.  Never the recorder's exchange."""
        t = self.turn()
        if t.kind != "exchange":
            return [self] if p in t.players else []
        if p not in t.players and p != self.leader:
            return []
        ways, out = [self], []
        own: RuleError | None = None     # a course that passes over the recorder's exchange
        while ways:
            kept: dict[tuple, Engine] = {}
            for e in ways:
                t = e.turn()
                if t.kind != "exchange":
                    if p in t.players:
                        out.append(e)
                    continue
                cur = t.players[0]
                if cur == p:
                    out.append(e)
                    continue
                if cur == self.recorder:
                    own = own or fault(
                        f"'turn: {p}' would make {cur}'s exchange one not seen, and {cur} is "
                        f"the recorder (me: {cur}), who sees their own turns: write {cur}'s "
                        f"exchange ({cur} exchanges N) in its place, and 'turn: P' only for "
                        "exchanges missed around it", st, "TT-8", p)
                    continue
                _merge_into(kept, e._unseen_exchange(cur, st))
            ways = list(kept.values())
        if not out and own is not None:
            raise own
        return out

    def _may_exchange(self, p: str) -> bool:
        """``P: ?`` is P's exchange while P may still exchange (TT-8)."""
        return (self.phase == "exchange" and self.stock > 0
                and can_exchange(self.state(), p))

    def _unseen_exchange(self, p: str, st) -> list["Engine"]:
        """P exchanged some number of cards not seen: 0..min(hand, stock) (TT-8).  When
        nothing of P's hand is known, or P exchanged some cards (what is known of the hand
        is then lost whatever their number), the count changes only the stock and the
        discards: the exchange's event is marked so (a fourth item ``True``), and courses
        whose exchanges add up alike end in the same state (:meth:`course_key`)."""
        out = []
        unknown = not self.known[p] and not self.full[p]
        for k in range(min(self.hand_size, self.stock) + 1):
            e = self.fork()
            e._exchange(Exchange(p, k), st)
            d = e.deal
            assert d is not None  # _exchange: a hand is being played
            if unknown or k:
                d.events[-1] = d.events[-1] + (True,)
            out.append(e)
        return out

    def course_key(self) -> tuple:
        """What every later statement and the analysis read of this engine, as a value:
        two courses with the same key are the same course for them, bar the count of an
        exchange that only moved cards between unknown places (marked by
        :meth:`_unseen_exchange`), whose sum is the stock's."""
        return tuple((name, _canon(v)) for name, v in sorted(self.__dict__.items())
                     if name not in ("header", "opts", "mult"))

    def _unseen_play(self, p: str, is_lead: bool, st, seg: int) -> list["Engine"]:
        """P played cards not seen: one copy per play the rules allow, up to suits (A10).
        With P's hand known, its legal plays; else every play of cards not yet placed
        (any such play is legal for some hand: beat-or-tie, or the lowest cards); the
        inference then keeps what each play implies (I2..I4)."""
        self._verify(verify_lead if is_lead else verify_follow, st, p, seg=seg)
        plays = [c for _, c in self.trick]
        if self.full[p]:
            hand = [Card.parse(n) for n in self.known[p].elements()]
            hr_ = ranks(hand)
            options = leads_r(hr_, self.opts) if is_lead else follows_r(
                hr_, [ranks(c) for c in plays], self.opts)
        else:
            free = Counter(self.deck)
            free -= self.public + self.known_discards
            for q, known in self.known.items():
                if q != p:
                    free -= known
            hand = [Card.parse(n) for n in free.elements()]
            hr_ = ranks(hand)
            if is_lead:
                keep = min(self.hand_size - 1, max_lead(self.opts))
                options = [o for o in leads_r(hr_, self.opts) if len(o) <= keep]
                jokers = hr_.count(JK)
                if jokers and not any(all_jokers_r(list(o)) for o in options):
                    options += [(JK,) * j for j in range(1, min(jokers, keep) + 1)]  # TT-V2(f)
            else:
                options = choices_r(hr_, len(plays[0]))
        out = []
        for o in options:
            e = self.fork()
            e._play(p, tuple(pick(hand, o)), is_lead, st, seg, unseen=True)
            out.append(e)
        if not out:
            raise fault(f"{p} has no play the rules allow here", st,
                        "TT-9" if is_lead else "TT-10", p, seg=seg)
        return out

    def _draw(self, ev: Draw, st):
        if self.phase != "predeal":
            raise fault("cards are drawn for the deal only before the first deal (TT-4) or "
                       "between tied losers (TT-14)", st, "TT-4")
        first = not self.deals
        pool = self.draw_pool
        if pool is None:
            if first:
                pool = self.players if self.dealer_candidates is None else None
            else:
                pool = self.dealer_candidates if self.dealer_candidates and len(
                    self.dealer_candidates) > 1 else None
        if pool is None:        # the first dealer is drawn for (TT-4), a later one is the
            # loser (TT-15): the draw is due only between tied losers (TT-14)
            raise fault("no draw is due: the dealer is known ("
                        + " ".join(self.dealer_candidates or ())
                        + (", the header's 'dealer:'; the draw for the first dealer is made "
                           "only when none is named" if first and self.dealer_candidates == (self.header_dealer,) else "")
                        + ")", st, "TT-4" if first else "TT-15")
        drawers = tuple(p for p, _ in ev.cards)
        if set(drawers) != set(pool):
            extra = next((p for p in drawers if p not in pool), None)
            raise fault("the draw is between " + " ".join(pool) + " (TT-4, TT-14)", st,
                        "TT-14" if not first else "TT-4", extra,
                        seg=drawers.index(extra) if extra else None)
        names = Counter(repr(c) for _, c in ev.cards)
        out = Counter(repr(c) for c, _ in self.scoring_out())
        for name, k in names.items():
            if self.deck.get(name, 0) - out[name] < k:
                raise fault(f"{name} is not in the pack to be drawn ({self.deck.get(name, 0)} "
                            f"in the deck, {out[name]} scoring)", st,
                            "TT-4" if first else "TT-14", name, last=True)
        ranks = {p: show_rank(c) for p, c in ev.cards}
        lowest = (not first) and self.opts.tie_draw == "lowest"  # A2
        best = (min if lowest else max)(ranks.values())
        top = tuple(p for p in pool if ranks[p] == best)
        if len(top) == 1:
            self.draw_pool = None
            self.dealer_candidates = top
        else:
            self.draw_pool = top  # ties draw again
            self.dealer_candidates = top

    def allowed_dealers(self) -> list[str]:
        """Who may deal next: the first dealer (header or TT-4 draw), the loser of the last
        hand (TT-15), a tied loser or the winner of their draw (TT-14, A2); with
        ``elimination=immediate`` an eliminated one is replaced by the next player to the
        left still in the game (A1)."""
        cand = self.dealer_candidates
        if cand is None:
            return list(self.players)
        allowed = list(cand)
        if self.deals and self.opts.elimination == "immediate":  # A1: skip the eliminated
            allowed = [q if q not in self.eliminated else self.left_of(q, self.active)
                       for q in cand]
        return list(dict.fromkeys(allowed))

    def deal_plan(self, dealer: str) -> tuple[list[str], int, int]:
        """(players dealt cards from the dealer's left, cards each, pack size): TT-5..TT-7,
        TT-16 (eliminated players get no cards, A1)."""
        order = []
        q = dealer
        for _ in range(len(self.players)):
            q = self.left_of(q)
            if q in self.active and q not in order:
                order.append(q)
        pack = self.pack_size()
        per = min(self.next_size, pack // len(order)) if order else 0  # TT-6, TT-7
        return order, per, pack

    def _deal(self, ev: Deal, st):
        self._verify(verify_deal, st, ev.dealer)
        order, per, pack = self.deal_plan(ev.dealer)
        n = len(order)
        if per < 1:
            raise fault(f"the pack of {pack} cards cannot give each of {n} players a card",
                        st, "TT-7", str(ev.count) if ev.count is not None else _verb(st),
                        last=ev.count is not None)
        if ev.count is not None and ev.count != per:
            if self.deals:
                why = (f"the loser's card gives {self.next_size} cards (TT-6"
                       + (", deal=capped: 5 to 7" if self.opts.deal == "capped" else "") + ")"
                       + (f"; {pack} cards for {n} players give {per} each (TT-7)"
                          if per < self.next_size else ""))
            else:
                why = "the first deal is 7 cards each (TT-5)" + (
                    f"; {pack} cards for {n} players give {per} each (TT-7)"
                    if per < 7 else "")
            raise fault(f"each player gets {per} cards, not {ev.count}: {why}", st,
                        "TT-7" if per < self.next_size else ("TT-6" if self.deals else "TT-5"),
                        str(ev.count), last=True)
        self._reset_deal_state()
        scoring = [(repr(c), line) for c, line in self.scoring_out()]
        self.deal = DealLog(len(self.deals) + 1, ev.dealer, st.line, tuple(order), per,
                            Counter(self.deck), scoring, pack - per * n)
        self.deals.append(self.deal)
        self.hand_size = per
        self.stock = pack - per * n
        self.public = Counter(name for name, _ in scoring)
        self.leader = order[0]  # TT-9: the dealer's left leads the first trick
        self.phase = "exchange"
        self.dealer_candidates = None
        for p in order:
            self.known[p] = Counter()
            self.full[p] = False

    def _need_deal(self, st):
        self._verify(_verify_in_hand, st)

    def _receiver(self, p: str, st):
        self._verify(_verify_in_hand, st, p)

    def _holds(self, ev: Holds, st):
        self._need_deal(st)
        assert self.deal is not None  # _need_deal: a hand is being played
        self._receiver(ev.player, st)
        p = ev.player
        if self.hand_size == 0:
            raise fault("the hand is over", st, "TT-13", _verb(st))
        size = self.size_of(p)
        if len(ev.cards) != size:
            raise fault(f"{p} holds {size} cards now, not {len(ev.cards)}", st,
                        "TT-13" if self.deal.plays else "TT-6", repr(ev.cards[0]))
        new = Counter(repr(c) for c in ev.cards)
        old = self.known[p]
        if (self.full[p] and old != new) or (not self.full[p] and old - new):
            was = format_cards(sorted(Card.parse(n) for n in old.elements()))
            raise InconsistentError(f"{p} is known to hold {was} (line {self.hand_line[p]})",
                                    conflict=[self.hand_line[p], st.line], text=st.text,
                                    line=st.line)
        self.known[p] = new
        self._check_now(st, new)
        self.full[p] = True
        self.hand_line[p] = st.line
        self.deal.events.append(("holds", p, tuple(ev.cards), st.line))

    def _exchange(self, ev: Exchange, st):
        self._verify(verify_exchange, st, ev.player)
        p = ev.player
        d = self.deal
        assert d is not None  # verify_exchange: a hand is being played
        i = d.receivers.index(p)
        count = _count_token(st.text, ev)
        if ev.count > self.hand_size:
            raise fault(f"{p} holds only {self.hand_size} cards", st, "TT-8", count)
        if ev.count > self.stock:
            raise fault(f"only {self.stock} card(s) left in the stock"
                        + (" (A4: none, so no exchange)" if self.stock == 0 else ""), st,
                        "TT-8", count)
        if ev.known and ev.count:
            assert ev.discards is not None and ev.draws is not None  # ev.known
            disc = Counter(repr(c) for c in ev.discards)
            draw = Counter(repr(c) for c in ev.draws)
            hand = self.known[p]
            draw_first = self.opts.exchange == "draw-first"
            if self.full[p]:
                pool = hand + draw if draw_first else hand
                if disc - pool:
                    gone = disc - pool
                    raise fault(f"{p} does not hold " + " ".join(sorted(gone.elements()))
                                + ("" if draw_first else
                                   " (A6: the discards come from the hand, before drawing)"),
                                st, "TT-8", next(repr(c) for c in ev.discards
                                                 if repr(c) in gone))
            self.known[p] = (hand + draw) - disc if draw_first else (hand - disc) + draw
            self.known_discards += disc
            self.hand_line[p] = st.line
            self._check_now(st, disc + draw)
        elif ev.count:
            self.known[p] = Counter()  # which cards left the hand is not said
            self.full[p] = False
        self.stock -= ev.count
        self.discards += ev.count
        self.exch_pos = i + 1
        self.exchanged.add(p)
        d.events.append(("exchange", ev, st.line))

    def _begin_play(self, st) -> None:
        """A play to a trick: a hand is dealt (TT-5), the exchange is over once the first
        lead comes, and the hand is not over (TT-13)."""
        self._need_deal(st)
        if self.phase == "exchange":
            self.phase = "play"
        if self.phase != "play":
            raise fault("the hand is over", st, "TT-13", _verb(st))

    def _trick(self, ev: Trick, st):
        self._begin_play(st)
        for k, (p, cards) in enumerate(ev.plays):
            is_lead = ev.lead and k == 0
            self._verify(verify_lead if is_lead else verify_follow, st, p, seg=k)
            assert cards is not None  # apply() gives a trick with a play '?' to step()
            self._play(p, tuple(cards), is_lead, st, k)

    def _play(self, p: str, cards: tuple[Card, ...], is_lead: bool, st, seg: int = 0,
              unseen: bool = False):
        """``p`` plays ``cards`` (play ``seg`` of the trick statement ``st``); ``unseen``: one
        way of filling in a play not seen (its ranks count, not its suits)."""
        d = self.deal
        assert d is not None  # verify_lead/verify_follow: a hand is being played
        hand_cards = None
        if self.full[p] and not unseen:
            hand_cards = [Card.parse(n) for n in self.known[p].elements()]
            missing = Counter(repr(c) for c in cards) - self.known[p]
            held = sorted(c for c in missing if self.known[p][c])
            if held:        # a card held, played more times than the hand has it
                c = held[0]
                n, k = self.known[p][c], Counter(repr(x) for x in cards)[c]
                packs = self.opts.n_packs(len(self.players))
                raise fault(f"{p} holds {'one' if n == 1 else n} {c} (hand from line "
                            f"{self.hand_line[p]}) but plays it "
                            f"{'twice' if k == 2 else f'{k} times'}: "
                            + ("there is one pack, so one of each card"
                               if packs == 1 else f"{packs} packs give {packs} of each card"),
                            st, "TT-1", c, seg=seg, last=True)
            if missing:
                raise fault(f"{p} does not hold " + " ".join(sorted(missing.elements()))
                            + f" (hand from line {self.hand_line[p]}: "
                            + format_cards(sorted(hand_cards)) + ")", st,
                            "TT-9" if is_lead else "TT-10",
                            next(repr(c) for c in cards if repr(c) in missing), seg=seg)
        if is_lead:
            prob = lead_problem(cards, self.hand_size, hand_cards, self.opts)
            lead, target, beats = cards, cards, True
        else:
            plays = [c for _, c in self.trick]
            lead = plays[0]
            target = tuple(target_of(plays, self.opts))
            if len(cards) != len(lead):
                prob = ("TT-10", f"each follower plays exactly {len(lead)} card(s), the number "
                        "led")
            elif hand_cards is not None:
                prob = follow_problem(cards, hand_cards, target, lead, self.opts)
            else:
                prob = None
            beats = len(cards) == len(lead) and beats_or_ties(cards, target)
        if prob:
            rule, msg = prob
            raise fault(f"{p}: {msg}", st, rule, repr(cards[0]), seg=seg)
        played = Counter(repr(c) for c in cards)
        if unseen:  # which cards left the hand is not known: only their ranks, in this way
            self.known[p] = Counter()
            self.full[p] = False
        else:
            self.known[p] -= played
            self.public += played
            self._check_now(st, played, seg)
        info = PlayInfo(p, cards, st.line, is_lead, tuple(lead), tuple(target),
                        beats, unseen)
        d.plays.append(info)
        d.events.append(("play", info))
        self.trick.append((p, cards))
        if len(self.trick) == len(d.receivers):
            w = trick_winner([c for _, c in self.trick], self.opts)
            self.leader = self.trick[w][0]
            self.hand_size -= len(self.trick[0][1])
            self.trick = []

    def _showdown(self, ev: Showdown, st):
        self._need_deal(st)
        d = self.deal
        assert d is not None  # _need_deal: a hand is being played
        if self.phase == "exchange":
            self.phase = "play"
        if self.trick:
            raise fault(f"the trick is not finished: {self._next_follower()} plays next", st,
                       "TT-13")
        if self.hand_size != 1:
            raise fault(f"the showdown comes when each player holds 1 card, not "
                       f"{self.hand_size}", st, "TT-13")
        shown = dict(ev.cards)
        if set(shown) != set(d.receivers):
            extra = next((p for p in shown if p not in d.receivers), None)
            raise fault("every player in the hand reveals a card: " + " ".join(d.receivers), st,
                        "TT-13", extra, seg=list(shown).index(extra) if extra else None)
        for k, (p, c) in enumerate(shown.items()):
            name = repr(c)
            if self.full[p] and self.known[p][name] != 1:
                have = format_cards(Card.parse(n) for n in self.known[p].elements())
                raise fault(f"{p}'s last card is {have}, not {name}", st, "TT-13", name,
                            seg=k, last=True)
            self.known[p] = Counter()
        names = Counter(repr(c) for c in shown.values())
        self.public += names
        self._check_now(st, names)
        top = max(show_rank(c) for c in shown.values())
        losers = tuple(p for p in d.receivers if show_rank(shown[p]) == top)  # TT-14
        for p in losers:
            self.scoring[p].append((shown[p], st.line))  # TT-13 / TT-V1(d) paper scoring
            self.points[p].append(self.opts.points(value(shown[p]), len(losers)))  # TT-14
        d.showdown = (shown, st.line)
        d.losers = losers
        d.events.append(("showdown", shown, st.line))
        self.hand_size = 0
        # TT-6 (13 after a joker, TT-V2(g)); deal=capped clamps it
        self.next_size = self.opts.deal_size(value(shown[losers[0]]))
        totals = self.totals()
        before = self.active
        newly = [p for p in before if totals[p] >= self.opts.limit]  # TT-16, TT-V2(h)
        self.eliminated += newly
        left = self.active
        self.phase = "predeal"
        if newly and left and self.opts.end == "first-to-22":
            # end=first-to-22: the game ends when a player reaches the limit; they lose
            # and everybody else wins (all out together: TT-17 below)
            self.over = True
            self.phase = "over"
            self.winners = tuple(left)
            return
        if len(left) <= 1:  # TT-17, A9
            self.over = True
            self.phase = "over"
            if left:
                self.winners = tuple(left)
            elif self.opts.simultaneous_out == "all-win":
                self.winners = tuple(before)
            else:
                low = min(totals[p] for p in before)
                self.winners = tuple(p for p in before if totals[p] == low)
            return
        self.dealer_candidates = losers
        self.draw_pool = None


def _canon(x):
    """A hashable value equal for equal engine parts (:meth:`Engine.course_key`)."""
    from dataclasses import fields, is_dataclass

    if isinstance(x, Card):
        return repr(x)
    if isinstance(x, tuple) and len(x) == 4 and x[0] == "exchange" and x[3] is True:
        return ("exchange", x[1].player, x[2], "?")     # only the sum of the counts matters
    if isinstance(x, Counter):
        return tuple(sorted((k, v) for k, v in x.items() if v))
    if isinstance(x, dict):
        return tuple(sorted(((_canon(k), _canon(v)) for k, v in x.items()), key=repr))
    if isinstance(x, (set, frozenset)):
        return tuple(sorted((_canon(v) for v in x), key=repr))
    if isinstance(x, (list, tuple)):
        return tuple(_canon(v) for v in x)
    if is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__,) + tuple(_canon(getattr(x, f.name)) for f in fields(x))
    return x


def _merge_into(kept: dict[tuple, "Engine"], ways: list["Engine"]) -> None:
    """Add ``ways`` to ``kept``, keeping one of the courses that end in the same state
    (:meth:`Engine.course_key`), its :attr:`~Engine.mult` the sum of theirs."""
    for e in ways:
        k = e.course_key()
        if k in kept:
            kept[k].mult += e.mult
        else:
            kept[k] = e


def has_unseen(statements) -> bool:
    """Whether some statement is ``P: ?``, ``turn: P`` or has a play ``?``."""
    return any(isinstance(st.event, (Unseen, TurnIs)) or (
        isinstance(st.event, Trick) and any(c is None for _, c in st.event.plays))
        for st in statements)


def unseen_lines(statements) -> set[int]:
    """The lines of the statements with a turn not seen (``P: ?``, a play ``?``)."""
    return {st.line for st in statements if isinstance(st.event, Unseen) or (
        isinstance(st.event, Trick) and any(c is None for _, c in st.event.plays))}


def no_course_error(errors: list, unseen: set[int] | frozenset[int] = frozenset(),
                    ruling=None) -> Exception:
    """The error to raise when no course is left, ``errors`` each course's in order (an
    error, or a function making it: only the first is made).  A course's own message may
    read its filling of the unseen turns as played -- its cards are stand-ins for their
    ranks, never cards anybody played -- so it is raised only when every course gives the
    same one, or when it is a conflict of lines none of which is unseen (lines ``unseen``);
    else an error that names no stand-in (with the first conflict's lines and the unseen
    ones).  ``ruling``, for a conflict of the deal facts: a function giving the lines that
    dropped courses the deal facts allowed (:func:`ruling_lines`); they belong to a
    conflict that has an unseen line (without them those courses would be left), so the
    course's own error is then never raised alone."""
    first = errors[0]() if callable(errors[0]) else errors[0]
    if len(errors) == 1 and not unseen:     # one course and nothing unseen: its own error
        return first
    if isinstance(first, InconsistentError) and first.conflict and unseen and not (
            set(first.conflict) & set(unseen)):
        return first        # the same in every course, those ruled out included
    extra: set[int] = set()
    if isinstance(first, InconsistentError) and ruling is not None:
        extra = set(ruling()) - set(first.conflict)
    if all(not callable(x) and str(x) == str(first) for x in errors) and not extra:
        return first
    if isinstance(first, InconsistentError):
        lines = sorted(set(first.conflict) | set(unseen) | extra)
        return InconsistentError("no way of filling in the unseen turns that the rules "
                                 "allow fits the record", conflict=lines)
    assert isinstance(first, RuleError)
    return RuleError("no way of filling in the unseen turns that the rules allow makes this "
                     "statement legal", text=first.text, rule=first.rule, line=first.line,
                     offset=first.offset)


class Courses:
    """The engines of every way of filling in the unseen turns that the rules allow, read
    like one engine: its attributes are the first course's, :meth:`turn` and
    :meth:`state` say who may act in some course (the turn may be unknown)."""

    def __init__(self, engines: list[Engine]):
        self.courses = engines
        #: the line of the statement after which the courses were more than
        #: :data:`MAX_BRANCHES`: from there on the record is accepted as written, its later
        #: statements checked against no rule, and the analysis is over budget
        #: (:func:`followed`); ``courses`` are then those before that statement
        self.beyond: int | None = None

    def __getattr__(self, name):
        return getattr(self.courses[0], name)

    def apply(self, st) -> None:
        if self.beyond is not None:
            return              # accepted as written: the courses are not followed
        now = self.turn()           # before the statement: who may act
        kept: dict[tuple, Engine] = {}    # the courses after it, merged (course_key)
        errs: list[Exception] = []
        for i, e in enumerate(self.courses):
            if i % 64 == 63:
                check("following the unseen turns")     # thousands of courses take seconds
            try:
                got = e.step(st)
            except (RuleError, InconsistentError) as x:
                errs.append(x)
                continue
            _merge_into(kept, got)
            if len(kept) > MAX_BRANCHES:   # a valid record: too many courses to follow
                self.beyond = st.line
                return
        ways = list(kept.values())
        ev = st.event
        first_actor = ev.plays[0][0] if isinstance(ev, Trick) and ev.plays else (
            ev.player if isinstance(ev, Unseen) else None)
        if not ways and errs and (len({str(x) for x in errs}) == 1 or first_actor is None
                                  or first_actor in now.players
                                  or now.kind not in ("lead", "follow")):
            raise no_course_error(errs)
        if not ways:
            who = first_actor or ev.player
            raise fault(f"it cannot be {who}'s turn now: " + (
                " or ".join(now.players) + f" ({now.kind})" if now.players else now.kind),
                st, "TT-10" if now.kind in ("lead", "follow") else "TT-8", who)
        self.courses = ways

    def turn(self) -> Turn:
        if self.beyond is not None:
            return Turn("unknown", ())
        return merged_turn(self.courses)

    def state(self) -> State:
        from dataclasses import replace as _replace

        t = self.turn()
        if self.beyond is not None:    # who acts, and the trick, are not followed
            return _replace(self.courses[0].state(), turn=t.kind, may_act=t.players,
                            leader=None, follower=None)
        return _replace(self.courses[0].state(), turn=t.kind, may_act=t.players)


def merged_turn(engines: Sequence[Engine]) -> Turn:
    """Who may act after some of the courses ``engines``: every player acting in one of
    them, the turn's kind the earliest of theirs in a hand."""
    turns = [e.turn() for e in engines]
    kinds = list(dict.fromkeys(t.kind for t in turns))
    players = tuple(dict.fromkeys(p for t in turns for p in t.players))
    order = ("exchange", "lead", "follow", "showdown", "deal", "draw", "over")
    kind = kinds[0] if len(kinds) == 1 else min(kinds, key=order.index)
    return Turn(kind, players)


def ruling_lines(record, allowed) -> set[int]:
    """The lines of the statements after an unseen turn that dropped a course ``allowed``
    accepts as it stood just before them: a course the deal facts so far left open (the
    hands, I2..I4) that the rules rule out there -- a ``turn: P`` where P does not act in
    it, a play out of its turn.  When the deal facts leave no course, those lines are part
    of the conflict: without them such a course would be left (:func:`no_course_error`)."""
    eng = Engine(record.header)
    eng.recorder = recorder_of(record)
    ways = [eng]
    out: set[int] = set()
    started = False
    for st in record.statements:
        if not started and not has_unseen([st]):
            eng.apply(st)           # one course until the first unseen turn
            continue
        started = True
        kept: dict[tuple, Engine] = {}
        dropped: list[Engine] = []
        for e in ways:
            try:
                got = e.fork().step(st)
            except (RuleError, InconsistentError):
                got = []
            if not got:
                dropped.append(e)
            _merge_into(kept, got)
            if len(kept) > MAX_BRANCHES:    # not followed further (:func:`followed`)
                return out
        if any(allowed(e) for e in dropped):
            out.add(st.line)
        ways = list(kept.values())
    return out


def replay(record, upto: int | None = None) -> Engine:
    """Run the engine over a record's statements (all, or the first ``upto``); with unseen
    turns, a :class:`Courses` of every way the rules allow (read like one engine)."""
    from typing import cast

    eng = Engine(record.header)
    eng.recorder = recorder_of(record)
    sts = record.statements if upto is None else record.statements[:upto]
    if not has_unseen(sts):
        for st in sts:
            eng.apply(st)
        return eng
    many = Courses([eng])
    for st in sts:
        many.apply(st)
    return cast(Engine, many)


def recorder_of(record) -> str | None:
    """The recorder of a partial record (``me:``, not every hand given with ``holds:``):
    the record is its log of what it saw, and its own turns are all seen (``P: ?``, a play
    ``?`` and ``turn: P`` never stand for one).  ``None`` without ``me:`` (a spectator's
    record) or when every hand is given (a complete record, analysed from any seat)."""
    if record.header.me and not record.every_hand_listed(Holds):
        return record.header.me
    return None


def courses(eng: Engine) -> list[Engine]:
    """The engines of every course (one for a record without unseen turns); those before
    the statement where they became too many when they did (:func:`beyond`)."""
    return list(eng.courses) if isinstance(eng, Courses) else [eng]


def beyond(eng: Engine) -> int | None:
    """The line of the statement after which :func:`replay` stopped following the unseen
    turns' courses (more than :data:`MAX_BRANCHES`), or ``None``."""
    return eng.beyond if isinstance(eng, Courses) else None


def followed(eng: Engine) -> None:
    """Raise :class:`~solver.errors.BudgetError` (exit 4, no rule: the record is valid)
    when :func:`replay` stopped following the unseen turns' courses."""
    from solver.errors import BudgetError

    line = beyond(eng)
    if line is not None:
        raise BudgetError(f"line {line}: the unseen turns can be filled in more than "
                          f"{MAX_BRANCHES} ways, more than the analysis follows one by one; "
                          "write what was seen of them "
                          "(an exchange's count, a play's cards) or a 'turn:' line")


def run(record, upto: int | None = None) -> State:
    """The state after the record's first ``upto`` statements (all by default), each checked
    against the rules: raise :class:`RuleError` with the line of the first that breaks one."""
    return replay(record, upto).state()
