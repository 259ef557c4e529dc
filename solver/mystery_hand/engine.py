"""Mystery Hand engine: turn order (MH-7, MH-8, MH-12, MH-14), legality (MH-10, MH-11,
MH-13, MH-15, MH-27), out players (MH-20), the end (MH-19, MH-21), and cards placed twice
(MH-1: a rule error at the second line, :class:`PlacedTwice` naming both).  Used to validate
records, to build the inference model and to drive the simulator.

The contract every game's engine keeps (docs/architecture.md): a frozen :class:`State`,
``run(record, upto)`` the state after the first ``upto`` statements (raising
:class:`RuleError` at the first illegal one), and for each action ``verify_<action>(state,
...)`` raising the rule it breaks and ``can_<action>(state, ...)``, true exactly when
``verify_<action>`` does not raise.  Actions: ``turn`` (the player may take the next turn),
``query`` (the asker may ask about the set, MH-11), ``exact`` (may request the card,
MH-15), ``ask_one``, ``ask_all``, ``request``, ``announce`` and ``resync`` (``turn: P``).
:func:`start`, :func:`step` and :func:`with_hand` give the states a simulator or an
inference walks through without the record's checks.

Seating (record-format.md): ``players:`` is clockwise from anyone; with ``dealer:`` the
player on the dealer's left acts first (MH-7), else the first listed.  After something the
recorder did not see (an answer ``?``, a whole turn ``P: ?``) an extra turn may or may not
have been earned: the next actor is accepted when the rules allow them to be on turn, and
``turn: P`` says outright who is.

>>> st = start(("Ana", "Ben", "Cleo", "Dev"), MysteryHandOptions(), dealer="Ben")
>>> st.may_act()
['Cleo']
>>> from solver.cards import parse_query_set
>>> can_ask_one(st, "Cleo", "Cleo", parse_query_set("5*"))
False
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from solver.cards import JOKER, Card
from solver.errors import RuleError
from solver.legality import at_statement, can
from solver.mystery_hand.events import (TURN_EVENTS, AskAll, AskOne, Announce, FaceUp, Holds,
                                        MysteryCards, Request, TurnIs, Unseen)
from solver.mystery_hand.options import MysteryHandOptions, deal_sizes


@dataclass(frozen=True)
class State:
    """Whose turn it is, who is out, whether an extra turn was (or may have been) earned,
    and the hands the record gives.  ``extra_sure``: the extra turn was certainly earned
    (else it depends on something the recorder did not see)."""

    players: tuple[str, ...]
    opts: MysteryHandOptions
    dealer: str | None = None
    active: tuple[str, ...] = ()
    current: str | None = None
    extra: str | None = None  # the player who may take an extra turn
    extra_sure: bool = True
    over: bool = False
    winner: str | None = None
    #: the hands the record gives (``P holds: ...``), in the order given
    hands: tuple[tuple[str, frozenset[Card]], ...] = ()

    def hand(self, player: str) -> frozenset[Card] | None:
        return next((h for p, h in self.hands if p == player), None)

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
        out = [self.current] if self.current is not None else []
        if self.extra and self.extra not in out:
            out.append(self.extra)
        return out

    def is_extra(self, actor: str) -> bool:
        """Whether ``actor`` taking the next turn takes an extra turn."""
        return actor == self.extra and actor != self.current


def start(players: tuple[str, ...], opts: MysteryHandOptions,
          dealer: str | None = None) -> State:
    """The state before any statement.  MH-7: the player on the dealer's left (the next one
    clockwise) acts first; without a dealer, the first listed (record-format.md)."""
    st = State(tuple(players), opts, dealer, active=tuple(players))
    return replace(st, current=st.next_after(dealer) if dealer in players else players[0])


def with_hand(state: State, player: str, cards) -> State:
    """The state with ``player``'s hand known to be ``cards`` (a view's own hand)."""
    rest = tuple((p, h) for p, h in state.hands if p != player)
    return replace(state, hands=rest + ((player, frozenset(cards)),))


def resync(state: State, player: str) -> State:
    """``turn: P``: it is P's turn now."""
    return replace(state, current=player, extra=None, extra_sure=True)


def advance(state: State, ev, real_shown: int | None = None) -> State:
    """The state after the turn event ``ev`` (its legality is verify_*'s)."""
    actor = actor_of(ev)
    opts = state.opts
    st = replace(state, extra=None, extra_sure=True)
    if isinstance(ev, Announce):
        if ev.right:
            return replace(st, over=True, winner=actor)  # MH-19
        if opts.two_player:  # MH-28: any card wrong = the opponent wins
            return replace(st, over=True,
                           winner=next(p for p in state.players if p != actor))
        nxt = st.next_after(actor)
        active = tuple(p for p in st.active if p != actor)  # MH-20
        if len(active) == 1:  # MH-21
            return replace(st, active=active, current=nxt, over=True, winner=active[0])
        return replace(st, active=active, current=nxt)
    st = replace(st, current=st.next_after(actor))
    if opts.two_player:  # MH-28: never extra turns with two players
        return st
    if isinstance(ev, AskOne):
        if ev.count is None:  # not seen: it may have earned one
            return replace(st, extra=actor, extra_sure=False)
        n = ev.count if real_shown is None else real_shown
        if n >= 3:  # MH-12
            return replace(st, extra=actor, extra_sure=real_shown is not None)
    elif isinstance(ev, AskAll):
        if ev.total == 4:  # MH-14
            return replace(st, extra=actor)
        if ev.total is None and ev.known_total <= 4:
            return replace(st, extra=actor, extra_sure=False)
    elif isinstance(ev, Unseen):  # any query: it may have earned one
        return replace(st, extra=actor, extra_sure=False)
    return st


def step(state: State, ev) -> State:
    """The state after any event (its legality is verify_*'s and :func:`run`'s)."""
    if isinstance(ev, Holds):
        if state.hand(ev.player) is not None:
            return state
        return replace(state, hands=state.hands + ((ev.player, frozenset(ev.cards)),))
    if isinstance(ev, TurnIs):
        return resync(state, ev.player)
    if isinstance(ev, TURN_EVENTS):
        return advance(state, ev, real_shown(ev, state.opts) if isinstance(ev, AskOne)
                       else None)
    return state


def actor_of(ev) -> str:
    """Who took the turn of a turn event."""
    return ev.player if isinstance(ev, (Announce, Unseen)) else ev.asker


def real_shown(ev: AskOne, opts: MysteryHandOptions) -> int | None:
    """Real cards of X shown (MH-25 counts only those, unless the option says otherwise);
    ``None`` when the recorder saw only the count."""
    if ev.shown is None:
        return None if (opts.sneak and not opts.sneak_jokers_count_for_extra_turn) else ev.count
    if opts.sneak_jokers_count_for_extra_turn:
        return len(ev.shown)
    return sum(1 for c in ev.shown if not c.is_joker)


# ----- the actions: verify_<action> raises the rule broken, can_<action> says whether not ----
# A RuleError raised here quotes the token at fault; :func:`run` quotes the statement and
# points the column at that token.

def verify_turn(state: State, player: str) -> None:
    """``player`` may take the next turn (MH-7, MH-12, MH-14, MH-19..21)."""
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won)", rule="MH-19/MH-21")
    if player not in state.active:
        raise RuleError(f"{player} is out and takes no turns", rule="MH-20", text=player)
    if player not in state.may_act():
        # the usual cause at a table: a turn the recorder missed; with two players (MH-28)
        # also a second turn taken after cards were shown, which earns none there
        two = bool(state.opts.two_player)
        raise RuleError(f"it is {' or '.join(state.may_act())}'s turn, not {player}'s"
                        + ("; there are never extra turns with two players" if two else "")
                        + f"; if a turn was missed, log it as '{state.current}: ?' or resync "
                        f"with 'turn: {player}'", rule="MH-28" if two else "MH-7")


def verify_resync(state: State, player: str) -> None:
    """``turn: player`` may be said: the game goes on and ``player`` is not out."""
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won)", rule="MH-19/MH-21")
    if player not in state.active:
        raise RuleError(f"{player} is out and takes no turns", rule="MH-20", text=player)


def verify_query(state: State, asker: str, query) -> None:
    """MH-11: the asker does not hold all four cards of the set asked about, as far as the
    state knows the asker's hand (lifted by keep-em-guessing)."""
    hand = state.hand(asker)
    if hand is not None and not state.opts.keep_em_guessing and set(query.cards()) <= hand:
        raise RuleError(f"{asker} holds all four of {query!r}", rule="MH-11", text=repr(query))


def verify_ask_one(state: State, asker: str, target: str, query) -> None:
    """An ask of one player (MH-10, MH-11, MH-20)."""
    verify_turn(state, asker)
    if target == asker:
        raise RuleError("a player asks another player", rule="MH-10")
    if target not in state.active:
        raise RuleError(f"{target} is out and is not asked", rule="MH-20", text=target)
    verify_query(state, asker, query)


def verify_ask_all(state: State, asker: str, query) -> None:
    """An ask of all (MH-13, MH-11)."""
    verify_turn(state, asker)
    verify_query(state, asker, query)


def verify_exact(state: State, asker: str, card: Card) -> None:
    """MH-15, MH-27: the asker may request ``card`` exactly (a real card it does not hold, as
    far as the state knows its hand; in a variant that plays exact requests)."""
    if state.opts.no_exact_request:
        raise RuleError("exact requests are not played in this variant", rule="MH-27")
    if card.is_joker:
        raise RuleError("an exact request names a real card", rule="MH-15")
    hand = state.hand(asker)
    if hand is not None and card in hand and not state.opts.keep_em_guessing:
        raise RuleError(f"{asker} holds {card!r}", rule="MH-15", text=repr(card))


def verify_request(state: State, asker: str, card: Card, shower: str | None = None) -> None:
    """An exact request (MH-15, MH-27); ``shower``: who showed the card, if anyone."""
    verify_turn(state, asker)
    verify_exact(state, asker, card)
    if shower is not None and shower == asker:
        raise RuleError("the asker does not show to themselves", rule="MH-15")
    if shower is not None and shower not in state.active:
        raise RuleError(f"{shower} is out", rule="MH-20", text=shower)


def verify_announce(state: State, player: str, cards=()) -> None:
    """An announcement (MH-18, MH-23)."""
    verify_turn(state, player)
    if any(c.is_joker for c in cards):
        raise RuleError("the mystery hand never holds a joker", rule="MH-23")


can_turn = can(verify_turn)
can_resync = can(verify_resync)
can_query = can(verify_query)
can_ask_one = can(verify_ask_one)
can_ask_all = can(verify_ask_all)
can_exact = can(verify_exact)
can_request = can(verify_request)
can_announce = can(verify_announce)


def _err(msg: str, st, rule: str, at: str | None = None, last: bool = False) -> RuleError:
    """The rule error of statement ``st`` found by :func:`run` (what was dealt or shown);
    ``at``: the token at fault (its first occurrence, or its last with ``last``: a shown
    card comes after the query), where the column will point."""
    return at_statement(RuleError(msg, rule=rule, text=at), st, first=not last)


def _verify_event(state: State, ev) -> None:
    """The action of a turn statement, verified."""
    if isinstance(ev, TurnIs):
        verify_resync(state, ev.player)
    elif isinstance(ev, AskOne):
        verify_ask_one(state, ev.asker, ev.target, ev.query)
    elif isinstance(ev, AskAll):
        verify_ask_all(state, ev.asker, ev.query)
    elif isinstance(ev, Request):
        verify_request(state, ev.asker, ev.card, ev.shower)
    elif isinstance(ev, Announce):
        verify_announce(state, ev.player, ev.cards)
    else:  # Unseen: any legal query (never an announcement: it is public)
        verify_turn(state, ev.player)


def run(record, upto: int | None = None) -> State:
    """The state after the record's first ``upto`` statements (all by default), each checked
    against the rules: raise :class:`RuleError` with the line of the first that breaks one."""
    h = record.header
    opts = MysteryHandOptions.of(h)
    n = len(h.players)
    hand_size, faceup_size = deal_sizes(n, opts)
    state = start(h.players, opts, h.dealer)
    placed: dict[Card, tuple[str, int]] = {}  # MH-1: each card in one place
    # a complete record is the full history (record-format.md): it may give every mystery hand
    complete = record.every_hand_listed(Holds)
    # the recorder of a partial record, who sees their own turns and the answers given to
    # them or by them: none of those is ever written as not seen (record-format.md)
    recorder = h.me if h.me and not complete else None
    statements = record.statements if upto is None else record.statements[:upto]
    for st in statements:
        ev = st.event
        if isinstance(ev, Holds):
            if state.hand(ev.player) is not None:
                raise _err(f"{ev.player}'s hand is given twice", st, "MH-5")
            if len(ev.cards) != hand_size:
                raise _err(f"a hand has {hand_size} cards with {n} players", st, "MH-5")
            if ev.cards.count(JOKER) > opts.jokers:
                raise _err("too many jokers for this variant", st, "MH-23")
        elif isinstance(ev, FaceUp):
            if len(ev.cards) != faceup_size:
                raise _err(f"{faceup_size} cards lie face up with {n} players", st, "MH-5")
            if ev.cards.count(JOKER) > opts.jokers:
                raise _err("too many jokers for this variant", st, "MH-23")
        elif isinstance(ev, MysteryCards):
            if any(c.is_joker for c in ev.cards):
                raise _err("the mystery hand never holds a joker", st, "MH-23")
            if ev.player and not opts.two_player:
                raise _err("a player's own mystery hand exists only with two-player", st,
                           "MH-28")
            if ev.player is None and opts.two_player:
                raise _err("with two-player name whose mystery hand it is: 'mystery Ana: ...'",
                           st, "MH-28")
            if ev.player and not complete and not state.over:
                _check_mystery_seen(ev.player, h.me, opts, st)
        else:  # a turn (or ``turn: P``): the action, then what was shown
            try:
                _verify_event(state, ev)
            except RuleError as e:
                actor = ev.player if isinstance(ev, TurnIs) else actor_of(ev)
                raise at_statement(e, st, first=e.text == actor) from None
            if recorder is not None:
                _check_recorder_saw(state, ev, recorder, st)
            if isinstance(ev, AskOne):
                _check_shown(ev, st, opts, hand_size)
            elif isinstance(ev, AskAll):
                _check_counts(state, ev, st)
        twice = placed_twice(placed, st, h.players, opts)
        if twice is not None:
            raise _err(twice.sentence(), st, "MH-1", repr(twice.card), last=True)
        state = step(state, ev)
    return state


@dataclass(frozen=True)
class PlacedTwice:
    """A card two statements put in two places (MH-1): ``first`` on ``first_line``,
    ``second`` on ``line`` (places as :func:`placements` names them)."""

    card: Card
    first: str
    first_line: int
    second: str
    line: int

    def sentence(self) -> str:
        """``'4H would be in two places (Ben on line 6 and Cleo on line 9)'``."""
        return (f"{self.card!r} would be in two places ({_place_words(self.first)} on line "
                f"{self.first_line} and {_place_words(self.second)} on line {self.line})")


def _place_words(loc: str) -> str:
    if loc == "faceup":
        return "face up"
    if loc == "mystery":
        return "the mystery hand"
    if loc.startswith("mystery:"):
        return f"{loc[8:]}'s mystery hand"
    return loc


def placements(ev, players, opts: MysteryHandOptions):
    """The (card, place) pairs a statement states outright: a hand, the face-up cards, a
    mystery hand, the cards shown to an ask, the holder of a requested card, the cards of a
    right announcement.  Places: a player, ``faceup``, ``mystery``, ``mystery:P``."""
    if isinstance(ev, Holds):
        return [(c, ev.player) for c in ev.cards]
    if isinstance(ev, FaceUp):
        return [(c, "faceup") for c in ev.cards]
    if isinstance(ev, MysteryCards):
        return [(c, f"mystery:{ev.player}" if ev.player else "mystery") for c in ev.cards]
    if isinstance(ev, AskOne) and ev.shown:
        return [(c, ev.target) for c in ev.shown]
    if isinstance(ev, Request) and ev.shower:
        return [(ev.card, ev.shower)]
    if isinstance(ev, Announce) and ev.right:
        target = "mystery"
        if opts.two_player:
            target = "mystery:" + next(p for p in players if p != ev.player)
        return [(c, target) for c in ev.cards]
    return []


def placed_twice(placed: dict[Card, tuple[str, int]], st, players,
                 opts: MysteryHandOptions) -> PlacedTwice | None:
    """The first card statement ``st`` puts somewhere other than an earlier line did (MH-1:
    each card is in one place), else ``None``; ``placed`` (each card's place and line so
    far) gains the statement's placements.  :func:`run` raises it as the rule error of
    ``st``, naming both lines.

    >>> from solver.records import parse_record
    >>> rec = parse_record("game: mystery-hand\\nplayers: Ana Ben Cleo Dev\\nme: Ana\\n"
    ...                    "Ana asks Ben 4H-7H: 4H\\nBen asks Cleo 4H-7H: 4H\\n",
    ...                    validate=False)
    >>> placed, opts, players = {}, MysteryHandOptions.of(rec.header), rec.header.players
    >>> placed_twice(placed, rec.statements[0], players, opts) is None
    True
    >>> placed_twice(placed, rec.statements[1], players, opts).sentence()
    '4H would be in two places (Ben on line 4 and Cleo on line 5)'
    """
    for c, loc in placements(st.event, players, opts):
        if c.is_joker:
            continue
        prev = placed.setdefault(c, (loc, st.line))
        if prev[0] != loc:
            return PlacedTwice(c, prev[0], prev[1], loc, st.line)
    return None


def _check_recorder_saw(state: State, ev, me: str, st) -> None:
    """Refuse what the recorder ``me`` saw written as not seen (record-format.md, "What the
    recorder did not see"): a whole turn of theirs (``me: ?``, MH-8), ``turn: P`` passing
    over their turn (MH-7), the answer to their own ask-one (shown to them, MH-10) and to
    their own exact request (MH-15), the answer they gave (MH-10) and the count they laid
    down (MH-13).  (Another player's count on their own ask-all may still be ``?``.)"""
    who = f"{me} is the recorder (me: {me}), who sees their own turns"
    if isinstance(ev, Unseen) and ev.player == me:
        raise _err(f"{who}, so none of them is a turn not seen: write {me}'s turn ({me} asks "
                   f"B 4H-7H: ..., {me} asks all 5*: ..., {me} requests KS: ... or {me} "
                   "announces ...)", st, "MH-8", me)
    if isinstance(ev, TurnIs) and ev.player not in state.may_act() and me in state.active:
        p = state.current
        while p is not None and p != ev.player:
            if p == me:     # every course to P's turn has one of the recorder's
                raise _err(f"it is {state.current}'s turn, and 'turn: {ev.player}' would make "
                           f"{me}'s next turn one not seen, but {who}: write {me}'s turn, "
                           f"then 'turn: {ev.player}' if turns were missed after it", st,
                           "MH-7", ev.player)
            p = state.next_after(p)
            if p == state.current:
                break
    if isinstance(ev, AskOne) and ev.count is None and me in (ev.asker, ev.target):
        if ev.asker == me:
            raise _err(f"{who}: {ev.target} shows {me} every card of {ev.query!r} {ev.target} "
                       f"holds (MH-10), so the answer is never one not seen: write the cards "
                       "shown, or 'none'", st, "MH-10", me)
        raise _err(f"{me} is the recorder (me: {me}), who shows the cards of their own "
                   f"answers (MH-10), so theirs is never one not seen: write the cards {me} "
                   "showed, or 'none'", st, "MH-10", me)
    if isinstance(ev, AskAll) and me in ev.unseen:
        raise _err(f"{me} is the recorder (me: {me}), who lays down their own cards (MH-13), "
                   f"so {me}'s count is never one not seen: write it", st, "MH-13", me,
                   last=True)
    if isinstance(ev, Request) and not ev.seen and ev.asker == me:
        raise _err(f"{who}: whoever holds {ev.card!r} shows it to everyone (MH-15), so the "
                   f"answer to {me}'s own request is never one not seen: write who showed it, "
                   "or 'nobody'", st, "MH-15", me)


def _check_mystery_seen(player: str, me: str | None, opts: MysteryHandOptions, st) -> None:
    """MH-28: during play a player's own mystery hand is known to that player alone, under
    ``two-player=seen|chosen``, and to nobody under ``blind``; a record that is not
    complete states only what its recorder (``me``, ``None`` a spectator) knows."""
    who = me or "a spectator"
    if opts.two_player == "blind":
        raise _err(f"under two-player=blind no one looks at their own mystery hand: a record "
                   f"by {who} cannot say what {player}'s was", st, "MH-28", player)
    if player != me:
        raise _err(f"only {player} saw {player}'s mystery hand (two-player={opts.two_player}):"
                   f" a record by {who} cannot say what it was", st, "MH-28", player)


def _check_shown(ev: AskOne, st, opts: MysteryHandOptions, hand_size: int) -> None:
    """What an ask of one showed (MH-10, MH-24)."""
    X = set(ev.query.cards())
    max_n = 4 + (opts.jokers if opts.sneak else 0)
    if ev.count is not None and ev.count > min(max_n, hand_size):
        raise _err(f"{ev.target} cannot show {ev.count} cards", st,
                   "MH-24" if opts.sneak else "MH-10")
    if ev.shown is not None:
        jokers = ev.shown.count(JOKER)
        if jokers and (not opts.sneak or opts.two_player):
            raise _err("jokers are shown only in Sneak", st, "MH-24")
        if jokers > opts.jokers:        # MH-23: the column on the last joker, one too many
            raise _err(f"{ev.target} shows {jokers} jokers: expected at most "
                       f"{opts.jokers}, the jokers Sneak adds to the deck", st, "MH-23",
                       repr(JOKER), last=True)
        for c in ev.shown:
            if not c.is_joker and c not in X:
                raise _err(f"{c!r} is not in {ev.query!r}", st, "MH-10", repr(c), last=True)
    if ev.count is not None and ev.count > 4 and not opts.sneak:
        raise _err("at most four cards can be shown", st, "MH-10")


def _check_counts(state: State, ev: AskAll, st) -> None:
    """The answers of an ask of all (MH-13): every other active player's, four at most."""
    expected = [p for p in state.active if p != ev.asker]
    got = [p for p, _ in ev.counts]
    if sorted(got) != sorted(expected):
        missing = [p for p in expected if p not in got]
        extra = [p for p in got if p not in expected]
        what = (f"missing {' '.join(missing)}" if missing else "") + (
            f"{'; ' if missing else ''}{' '.join(extra)} cannot answer" if extra else "")
        raise _err(f"every other active player answers an ask-all ({what})", st, "MH-13")
    if ev.known_total > 4:
        raise _err("only four cards of a set exist", st, "MH-13")
