"""Replaying a Literature record: turn order, legality, moving cards, claim outcomes, score.

The deal is the only hidden information; every later move is public ("What an observer can
infer").  :class:`Play` replays the statements in order and keeps the *public* state: where
every card that has moved is (``loc``; ``None`` = still where it was dealt), each hand's
size (O1), whose turn it is, the half-suits' status and the score.  Each statement at time
t is turned into :class:`Fact` s, cardinality constraints on the *initial deal* over the
cards that have not moved yet (O2, O3, O5): a card that has not moved is in its holder's
hand exactly when it was dealt there.  Public contradictions (a card handed over by someone
known not to hold it, an illegal question) raise :class:`~solver.errors.RuleError`, and
so does a card that two statements put in two places at once (LIT-1, :meth:`Play._place`:
the one who hands a card over or surrenders it, the holders a claim's ``shown`` line names,
each against where the record last put that card).  A ``holds`` line places cards too, but
only the recorder saw them: :func:`run` checks those places (:func:`_check_placed`), the
replay of the public rules alone (the courses of unseen lines) does not.

The engine contract (docs/architecture.md): :class:`State` is the frozen public position
(:meth:`Play.state`), ``run(record, upto)`` the state after the first ``upto`` statements,
and ``verify_<action>``/``can_<action>`` say whether an action is legal now, for the
actions ``turn`` (the player may ask now), ``ask_whom`` (LIT-6(a), (b)), ``ask_for``
(LIT-6(c), (d)), ``ask`` (all of them) and ``surrender`` (V11); :class:`Play` checks each
question with them.  :class:`Play` is also what the inference reads: the facts, moves and
claim results of the record.

>>> from solver.records import parse_record
>>> rec = parse_record('''game: literature
... players: Ana Ben Cleo Dev Eli Fay
... Ana asks Ben 9C: no
... Ben asks Cleo 5H: yes
... Ben asks Ana 6H: no
... ''')
>>> p = Play.of(rec)
>>> p.turn, p.loc["5H"], p.count["Ben"], p.count["Cleo"]
('Ana', 'Ben', 9, 7)
>>> [f.note for f in p.facts][:4]
['Ana holds a card of 9C-AC', 'Ana does not hold 9C', 'Ben does not hold 9C', 'Ben holds a card of 2H-7H']
>>> st, c5h = run(rec), p.table.card("5H")
>>> st == p.state(), can_ask(st, "Ana", "Ben", c5h), can_ask(st, "Ana", "Cleo", c5h)
(True, True, False)
"""
from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, field

from solver.cards import format_cards
from solver.errors import RuleError
from solver.legality import can, check_before
from solver.literature.events import (Ask, Challenge, Claim, HandCount, Holds,
                                      PassClaim, PassTurn, Shown, TurnIs, UnheardAnswer,
                                      UnheardCard, Unseen)
from solver.literature.table import Table, table_of

OUT = "out"
#: the count of a ``P has N cards`` line (where its error points)
_COUNT_AT = re.compile(r"^\S+\s+has\s+(\d+)", re.I)
TURN_RULES = "LIT-5, LIT-7, LIT-8"


@dataclass(frozen=True)
class Fact:
    """``lo <= #{k in keys dealt to player} <= hi``: a statement's meaning for the deal.

    ``keys`` are the cards that had not moved when the statement was made; ``private`` is
    the player who alone knows it (a ``holds`` line), ``None`` for public facts.
    """

    keys: tuple[str, ...]
    player: str
    lo: int
    hi: int
    line: int
    rule: str
    note: str
    private: str | None = None
    ask_line: int | None = None   # the question a fact comes from (A9 memory mode)


@dataclass(frozen=True)
class Move:
    line: int
    key: str
    src: str
    dst: str       # a player or OUT


@dataclass
class ClaimResult:
    """A resolved claim: LIT-10..LIT-12, LIT-15, V5, V6, V14, A8, A10."""

    line: int
    shown_line: int | None
    claimant: str
    half: str
    claimed: tuple
    shown: tuple
    kind: str          # turn | end-game | any-time | out-of-turn | challenge | forced
    outcome: str       # won | cancelled | lost  (for the claimant's team)
    scorer: int | None  # team index that scores the half-suit, None = discarded
    penalty: int = 0   # A10: points the claimants lose
    rule: str = ""

    def describe(self, table: Table) -> str:
        who = table.team_name(self.scorer) if self.scorer is not None else None
        s = f"{self.half}: {self.outcome}"
        s += f" (team {who} scores it)" if who else " (discarded)"
        if self.penalty:
            s += f", team {table.team_name(self.claimant)} loses {self.penalty}"
        return s + f" [{self.rule}]"


@dataclass(frozen=True)
class State:
    """The public position: whose turn (``turn_known``: whether the record determines it),
    each hand's size (``vague``: the range where unseen moves leave it open; ``counts`` then
    holds one possible value), where each moved card is (``places``: key -> holder or
    ``out``), the open half-suits, the score, the end game (LIT-15), a challenge and a
    forced claimant (V14), the end (LIT-17).  While the turn is not known, ``turn_may`` are
    the players one of whom has it, when the record narrows it down to them (the unseen
    answer or question of one line decides which: ``turn_why`` says how, in words); empty
    when anyone may have it (or the turn is known)."""

    table: Table
    turn: str | None
    turn_known: bool
    counts: tuple[tuple[str, int], ...]
    vague: tuple[tuple[str, tuple[int, int]], ...]
    places: tuple[tuple[str, str], ...]
    open: tuple[str, ...]
    score: tuple[int, int]
    end_game: bool
    over: bool
    challenge: tuple[str, str, str] | None
    forced_member: str | None
    turn_may: tuple[str, ...] = ()
    turn_why: str = ""
    #: the recorder of a partial record (:func:`recorder_of`), whose questions and the
    #: questions asked of them are never missed: no advice logs one as not seen.  Not part
    #: of the position (equality, hash): it is the whole record's (a complete record has
    #: none, the same statements cut short may), and ``run(record, upto=k)`` is the state of
    #: the first k statements whatever follows them
    recorder: str | None = field(default=None, compare=False)

    def count(self, p: str) -> int:
        return dict(self.counts)[p]

    def known(self, p: str) -> int | None:
        """``p``'s card count when the record determines it (O1), else ``None``."""
        return None if p in dict(self.vague) else self.count(p)

    def may_have_cards(self, p: str) -> bool:
        return p in dict(self.vague) or self.count(p) > 0

    def known_at(self, keys, player: str) -> list[str]:
        places = dict(self.places)
        return [k for k in keys if places.get(k) == player]

    def expected(self) -> str:
        """Who must act next, in words (for turn-order errors)."""
        if self.over:
            return "the game is over (LIT-17)"
        if self.challenge:
            return f"{self.challenge[1]} must answer the challenge on {self.challenge[2]}"
        if self.forced_member:
            return f"{self.forced_member} must claim a forced half-suit or pass (V14)"
        if self.turn is None:
            return "nobody is on turn"
        if not self.turn_known:
            return "the turn is not known after an unseen event"
        if self.known(self.turn) == 0:
            return f"{self.turn} is on turn with no cards and must pass the turn (LIT-14)"
        return f"it is {self.turn}'s turn"


def recorder_of(record) -> str | None:
    """The recorder of a partial record (``me:``, not every hand listed), who hears every
    question they ask or are asked and its answer (record-format.md, "What the recorder did
    not see"): such a question is never written ``?``, and ``Ben: ?`` is never Ben asking
    them; ``None`` for a spectator's record or a complete one."""
    me = record.header.me
    return me if me and not record.every_hand_listed(Holds) else None


def run(record, upto: int | None = None) -> State:
    """The state after the record's first ``upto`` statements (all by default), each checked
    against the rules, the questions also against the hands the record shows: raise
    :class:`RuleError` with the line of the first that breaks one."""
    play = Play.of(record, upto)
    _check_private(play)
    return play.state()


# ----- the actions: verify_<action> raises the rule broken, can_<action> says whether not ----

def verify_turn(state: State, asker: str) -> None:
    """``asker`` may ask a question now (LIT-5, LIT-7, LIT-8, LIT-14, LIT-15, V14)."""
    if state.over:
        raise RuleError("the game is over", rule="LIT-17")
    if state.challenge:
        raise RuleError(f"{state.challenge[1]} must first claim the challenged half-suit "
                        f"{state.challenge[2]}", rule="V14")
    if state.end_game:
        raise RuleError("one team has no cards: questions stop and the other team claims "
                        "the rest", rule="LIT-15")
    if state.forced_member:
        raise RuleError(state.expected(), rule="V14")
    if state.turn_known and asker != state.turn:
        fix = ""
        if state.recorder in (state.turn, asker):
            pass    # the recorder asks or is asked: a question they would have heard
        elif state.turn is not None and state.known(state.turn) != 0:  # usually a missed turn
            if state.table.opponents(state.turn, asker):
                fix = (f"; if a turn was missed, log it as '{state.turn}: ?' (then the "
                       f"turn is open: 'turn: {asker}' resyncs)")
            else:       # a teammate: one missed question cannot have passed the turn on
                fix = (f"; if turns were missed, log each as 'P: ?', {state.turn}'s first "
                       f"(a question passes the turn to an opponent only), then "
                       f"'turn: {asker}' resyncs")
        raise RuleError(f"{asker} is not on turn: {state.expected()}{fix}", rule=TURN_RULES)
    if not state.turn_known and state.turn_may and asker not in state.turn_may:
        # after an unseen answer or question the turn is one of a few players: anyone else
        # breaks the turn order whatever the recorder missed
        raise RuleError(f"{asker} is not on turn: {state.turn_why}"
                        f"{_missed_turn_fix(state, asker, resync=True)}", rule=TURN_RULES)
    if state.known(asker) == 0:
        raise RuleError(f"{asker} has no cards and must pass the turn to a teammate",
                        rule="LIT-14")


def _missed_turn_fix(state: State, player: str, resync: bool) -> str:
    """The advice for ``player`` acting while the turn is one of ``state.turn_may``: log the
    question missed of a player who may be on turn and could have asked ``player`` (an
    opponent), after which ``player`` may be on turn (``resync``: and ``turn: player`` says
    so); ``''`` when none could (``player`` known to hold no card)."""
    t = state.table
    if state.known(player) == 0 or player == state.recorder:
        return ""       # the recorder hears every question asked of them
    via = [q for q in state.turn_may if t.opponents(q, player) and q != state.recorder]
    if not via:
        return ""
    logs = [f"'{q}: ?'" for q in via]
    said = logs[0] if len(logs) == 1 else ", ".join(logs[:-1]) + " or " + logs[-1]
    if resync:
        return (f"; if a turn was missed, log it as {said} (then the turn is open: "
                f"'turn: {player}' resyncs)")
    return f"; if a turn was missed, log it first as {said}"


def verify_ask_whom(state: State, asker: str, target: str | None = None) -> None:
    """LIT-6(a), (b): the one asked is an opponent who has cards (``target`` ``None``: some
    opponent may have cards)."""
    t = state.table
    if target is not None:
        if not t.opponents(asker, target):
            raise RuleError(f"{target} is not an opponent of {asker}", rule="LIT-6(a)")
        if state.known(target) == 0:
            raise RuleError(f"{target} has no cards and cannot be asked",
                            rule="LIT-6(b), LIT-14")
    elif not any(t.opponents(asker, q) and state.may_have_cards(q) for q in t.players):
        raise RuleError(f"no opponent of {asker} has cards to be asked", rule="LIT-6(b), LIT-15")


def verify_ask_for(state: State, asker: str, card, hand=None) -> None:
    """LIT-6(c), (d): ``card`` (a :class:`~solver.cards.Card`) is of a half-suit still in
    play, the asker holds a card of it and does not hold every copy of ``card`` (unless
    ``own-card-ask=bluff``), as far as the record shows the asker's cards, or ``hand`` (the
    asker's cards, a multiset) says."""
    t = state.table
    h = t.half_of.get(card)
    if h is None:
        raise RuleError(f"{card!r} is not in this game's deck", rule="LIT-2")
    if h.name not in state.open:
        raise RuleError(f"{h.name} is already resolved: nobody holds its cards", rule="LIT-6(c)")
    copies = t.card_keys[card]
    if hand is not None:
        _verify_hand(t, asker, card, hand)
    if t.options.own_card_ask != "bluff" and len(state.known_at(copies, asker)) >= len(copies):
        raise RuleError(f"{asker} holds {card!r} (moved to {asker} before)", rule="LIT-6(d)")


def _verify_hand(t: Table, asker: str, card, hand) -> None:
    """LIT-6(c), (d) against the asker's cards (a multiset)."""
    held = Counter(hand)
    h = t.half_of[card]
    if not any(held[c] > 0 for c in set(h.cards)):
        raise RuleError(f"{asker} holds no card of {h.name}", rule="LIT-6(c)")
    if t.options.own_card_ask != "bluff" and held[card] >= len(t.card_keys[card]):
        raise RuleError(f"{asker} holds {card!r}", rule="LIT-6(d)"
                        if t.options.own_card_ask == "forbidden"
                        else "LIT-6(d), V11: write the answer 'surrendered'")


def verify_ask(state: State, asker: str, target: str, card, hand=None) -> None:
    """A question with a yes or no answer (LIT-5..LIT-8, LIT-14, LIT-15, V14)."""
    verify_turn(state, asker)
    verify_ask_whom(state, asker, target)
    verify_ask_for(state, asker, card, hand)


def verify_surrender(state: State, asker: str, target: str, card, hand=None) -> None:
    """V11 (``own-card-ask=surrender``): a question for a card the asker holds, which it
    then hands to the one asked."""
    verify_turn(state, asker)
    verify_ask_whom(state, asker, target)
    t = state.table
    if t.options.own_card_ask != "surrender":
        raise RuleError("a card is surrendered only with own-card-ask=surrender", rule="V11")
    h = t.half_of.get(card)
    if h is None or h.name not in state.open:
        raise RuleError(f"{card!r} is not of a half-suit in play", rule="LIT-6(c)")
    if hand is not None and Counter(hand)[card] < 1:
        raise RuleError(f"{asker} does not hold {card!r} and cannot surrender it", rule="V11")


can_turn = can(verify_turn)
can_ask_whom = can(verify_ask_whom)
can_ask_for = can(verify_ask_for)
can_ask = can(verify_ask)
can_surrender = can(verify_surrender)


class Play:
    """The public state after replaying statements one by one (see the module doc)."""

    def __init__(self, table: Table):
        self.table = table
        self.loc: dict[str, str | None] = {k: None for k in table.keys}
        self.dealt: dict[str, str] = {}            # first known holder of a moved card
        self.moved_at: dict[str, int] = {}
        #: LIT-1, each card in one place: key -> (holder or OUT, line) where a public
        #: statement last put a card of one copy, until an unseen event may have moved it
        #: (:meth:`_place`) ...
        self.placed: dict[str, tuple[str, int]] = {}
        #: ... and every placement in order, the ``holds`` lines' too (:func:`_check_placed`)
        self.placings: list[tuple] = []
        self.count = dict(table.sizes)
        self.turn: str | None = table.first
        self.status: dict[str, tuple] = {h.name: ("open",) for h in table.halves}
        self.score = [0, 0]
        self.facts: list[Fact] = []
        self.moves: list[Move] = []
        self.results: list[ClaimResult] = []
        self.holds: list[tuple[int, Holds]] = []
        self.asks: list[tuple[int, Ask]] = []
        self.ask_texts: dict[int, str] = {}        # line -> the question as written
        self.last_asker: dict[str, str] = {}       # V10
        self.last_turn_of_team: dict[int, str] = {table.team_index(table.first): table.first}
        self.challenge: tuple | None = None        # (challenger, target, half) V14
        self.forced: dict | None = None            # V14 srinivasan-forced-claims state
        self.end_game = False                       # LIT-15
        self.end_game_pick = False                  # LIT-15(b) pick made
        self.over = False
        self.line = 0
        self.text = ""
        self._skip_next = False
        # what the recorder did not see (record-format.md): players whose count is not known
        # (-> (lo, hi); ``count`` then holds one possible value), whether the turn is known,
        # and how many statements left something unseen
        self.vague: dict[str, tuple[int, int]] = {}
        self.turn_known = True
        #: while the turn is not known: the players one of whom has it and how the unseen
        #: part decides which (State.turn_may, turn_why); () when anyone may have it
        self.turn_may: tuple[str, ...] = ()
        self.turn_why = ""
        self.unseen = 0
        self.first_unseen: int | None = None
        #: the recorder of a partial record (``me:``, not every hand listed), who hears every
        #: question they ask or are asked and its answer: none of those is ever written as
        #: not heard (record-format.md, "What the recorder did not see"); ``None``: a
        #: spectator's record or a complete one
        self.recorder: str | None = None
        #: line -> (turn known before, turn before, known after, turn after)
        self.turn_log: dict[int, tuple] = {}

    # ----- construction --------------------------------------------------------------------
    @classmethod
    def of(cls, record, upto: int | None = None) -> "Play":
        p = cls(table_of(record.header))
        p.recorder = recorder_of(record)
        st = record.statements if upto is None else record.statements[:upto]
        p.run(st)
        return p

    def fork(self) -> "Play":
        """A copy to replay other statements on, leaving this one as it is (the courses of a
        record's unseen lines, :mod:`solver.literature.courses`).  Every container is
        copied one level deep: what they hold (facts, moves, counts, tuples) is never
        changed in place, only replaced; the table is shared."""
        new = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, (dict, list, set)):
                setattr(new, name, copy.copy(value))
        return new

    def run(self, statements) -> "Play":
        from solver.model.budget import check as deadline

        statements = list(statements)
        for i, s in enumerate(statements):
            deadline("going through the record")   # a long record: within --timeout too
            if self._skip_next:
                self._skip_next = False
                continue
            nxt = statements[i + 1] if i + 1 < len(statements) else None
            try:
                self.apply(s.event, s.line, s.text, nxt)
            except RuleError as e:
                err = e.located(line=s.line) if e.line is None else e
                # an earlier question may break LIT-6(c), (d) against a hand the record
                # shows, an earlier line put a card where a holds line has another: the
                # first statement that breaks a rule is the one named
                _check_private(self, before=s.line)
                raise err
        return self

    def state(self) -> State:
        """The public position now, frozen."""
        return State(self.table, self.turn, self.turn_known, tuple(self.count.items()),
                     tuple(self.vague.items()),
                     tuple((k, v) for k, v in self.loc.items() if v is not None),
                     tuple(self.open_halves()), (self.score[0], self.score[1]),
                     self.end_game, self.over, self.challenge,
                     self.forced_member() if self.forced else None,
                     () if self.turn_known else self.turn_may,
                     "" if self.turn_known else self.turn_why, self.recorder)

    def _verify(self, verify, *args) -> None:
        """A verify_<action> on the state before this statement; its error is the
        statement's."""
        check_before(self, verify, args, self.text, self.line)

    # ----- queries ---------------------------------------------------------------------------
    def half(self, name: str):
        return next(h for h in self.table.halves if h.name == name)

    def keys_of_half(self, name: str) -> list[str]:
        h = self.half(name)
        seen: Counter = Counter()
        out = []
        for c in h.cards:
            out.append(self.table.card_keys[c][seen[c]])
            seen[c] += 1
        return out

    def known_at(self, keys, player) -> list[str]:
        return [k for k in keys if self.loc[k] == player]

    def unmoved(self, keys) -> list[str]:
        return [k for k in keys if self.loc[k] is None]

    def team_cards(self, ti: int) -> int:
        return sum(self.count[p] for p in self.table.teams[ti])

    def known(self, p: str) -> int | None:
        """``p``'s card count when the record determines it (O1), else ``None``."""
        return None if p in self.vague else self.count[p]

    def team_hi(self, ti: int) -> int:
        """The most cards the team can hold now."""
        return sum(self.vague[p][1] if p in self.vague else self.count[p]
                   for p in self.table.teams[ti])

    def team_empty(self, ti: int) -> bool:
        return self.team_hi(ti) == 0

    def _shift(self, p: str, d: int, vague: bool = False):
        """Count of ``p`` changes by ``d`` (``vague``: by ``d`` or by nothing)."""
        lo, hi = self.vague.get(p, (self.count[p], self.count[p]))
        if vague:
            lo, hi = min(lo, lo + d), max(hi, hi + d)
            self.vague[p] = (max(lo, 0), hi)
            return
        self.count[p] += d
        if p in self.vague:
            self.vague[p] = (max(lo + d, 0), hi + d)

    def open_halves(self) -> list[str]:
        return [h for h, st in self.status.items() if st[0] == "open"]

    def where(self, key: str) -> str:
        """A moved card's public position, for messages."""
        loc = self.loc[key]
        line = self.moved_at.get(key)
        if loc == OUT:
            return f"out of play since line {line}"
        return f"with {loc} since line {line}"

    def expected(self) -> str:
        """Who must act next, in words (for turn-order errors)."""
        return self.state().expected()

    def forced_member(self) -> str:
        f = self.forced
        assert f is not None    # asked only while a forced claim is due (V14)
        return f["order"][f["pos"] % len(f["order"])]

    # ----- the statements ------------------------------------------------------------------
    def _fact(self, keys, player, lo, hi, rule, note, private=None, ask_line=None):
        keys = tuple(keys)
        self.facts.append(Fact(keys, player, lo, hi, self.line, rule, note, private, ask_line))

    def _move(self, key: str, src: str, dst: str):
        if self.loc[key] is None:
            self.dealt[key] = src
        self.loc[key] = dst
        self.moved_at[key] = self.line
        self.placed[key] = (dst, self.line)
        self.placings.append(("move", key, dst, self.line))
        self._shift(src, -1)
        if dst != OUT:
            self._shift(dst, 1)
        self.moves.append(Move(self.line, key, src, dst))

    def apply(self, ev, line: int, text: str, nxt=None):
        self.line = line
        self.text = text
        self._before: State | None = None     # made once, when a verify_<action> needs it
        before = (self.turn_known, self.turn)
        if self.over and not isinstance(ev, Holds):
            raise RuleError("the game is over: every half-suit is resolved" if
                            self.open_halves() == [] else "the game is over: a team has won "
                            "a majority (stop-at-majority)", text=text, rule="LIT-17", line=line)
        if self.challenge and not (isinstance(ev, (Claim, Holds))):
            raise RuleError(f"{self.challenge[1]} must first claim the challenged half-suit "
                            f"{self.challenge[2]}", text=text, rule="V14", line=line)
        if isinstance(ev, Holds):
            self._holds(ev)
        elif isinstance(ev, Ask):
            self._ask(ev)
        elif isinstance(ev, Claim):
            shown = None
            if nxt is not None and isinstance(nxt.event, Shown):
                if nxt.event.half != ev.half:
                    raise RuleError(f"the shown half-suit must be the claimed one ({ev.half})",
                                    text=nxt.text, rule="LIT-11", line=nxt.line)
                shown = (nxt.event, nxt.line, nxt.text)
                self._skip_next = True
            self._claim(ev, shown)
        elif isinstance(ev, Shown):
            raise RuleError("a 'shown' line follows the claim it resolves", text=text,
                            rule="LIT-11", line=line)
        elif isinstance(ev, PassTurn):
            self._pass_turn(ev)
        elif isinstance(ev, PassClaim):
            self._pass_claim(ev)
        elif isinstance(ev, Challenge):
            self._challenge(ev)
        elif isinstance(ev, (UnheardCard, UnheardAnswer, Unseen)):
            if self.recorder is not None:
                self._check_recorder_heard(ev, self.recorder)
            self._unseen(ev)
        elif isinstance(ev, TurnIs):
            self._turn_is(ev)
        elif isinstance(ev, HandCount):
            self._hand_count(ev)
        else:  # pragma: no cover - parse_event only makes the above
            raise TypeError(ev)
        self._after()
        if self.turn_known:
            self.turn_may, self.turn_why = (), ""
        self.turn_log[line] = before + (self.turn_known, self.turn)

    def _err(self, msg: str, rule: str):
        return RuleError(msg, text=self.text, rule=rule, line=self.line)

    def _place(self, card, player: str, private: bool = False) -> None:
        """This statement puts ``card`` (a :class:`~solver.cards.Card`) with ``player`` now:
        the one who hands it over or surrenders it, its holder in a claim's ``shown`` line,
        a ``holds`` line (``private``: checked here against the public places only, and
        logged for :func:`_check_placed`, which knows the other ``holds`` lines).
        :func:`_put` refuses it where an earlier statement put it elsewhere."""
        self.placings.append(("put", card, player, self.line, self.text))
        _put(self.placed, self.table, card, player, self.line, self.text, keep=not private)

    def _unplaced(self, places=(), keys=()) -> None:
        """An unseen event may have moved the cards at ``places`` and the cards ``keys``:
        no statement holds them to a place any more."""
        places, keys = frozenset(places), frozenset(keys)
        self.placings.append(("forget", places, keys))
        _forget(self.placed, places, keys)

    def _holds(self, ev: Holds):
        t, p = self.table, ev.player
        if self.known(p) is not None and len(ev.cards) != self.count[p]:
            raise self._err(f"{p} holds {self.count[p]} cards now, the line lists "
                            f"{len(ev.cards)}", "O1")
        names = Counter(ev.cards)
        listed: list[str] = []
        unlisted: list[str] = []
        for c, ks in t.card_keys.items():
            m = names.get(c, 0)
            at = self.known_at(ks, p)
            un = self.unmoved(ks)
            if len(at) > m:
                raise self._err(f"{p} holds {c!r} ({self.where(at[0])}) but the line omits it",
                                "LIT-7")
            if m:
                self._place(c, p, private=True)
            need = m - len(at)
            if need > len(un):
                k = next(k for k in ks if self.loc[k] not in (None, p))
                raise self._err(f"{c!r} is {self.where(k)}", "LIT-7")
            if len(ks) == 1:
                (listed if need else unlisted).extend(un)
            else:
                self._fact(un, p, need, need, "LIT-4", f"{p} holds {need} x {c!r}", private=p)
        self._fact(listed, p, len(listed), len(listed), "LIT-4",
                   f"{p} holds {format_cards(ev.cards)}", private=p)
        self._fact(unlisted, p, 0, 0, "LIT-4", f"{p} holds nothing else", private=p)
        self.holds.append((self.line, ev))

    def _ask(self, ev: Ask):
        t, a, b, c = self.table, ev.asker, ev.target, ev.card
        self._asker_checks(a, b)
        if ev.answer == "surrendered":
            self._verify(verify_surrender, a, b, c)
        else:
            self._verify(verify_ask_for, a, c)
        h = t.half_of[c]
        hk = self.keys_of_half(h.name)
        ck = t.card_keys[c]
        self.asks.append((self.line, ev))
        self.ask_texts[self.line] = self.text
        # (c) the asker holds a card of the half-suit (O2; O3: exactly at this time)
        if ev.answer != "surrendered" and not self.known_at(hk, a):
            un = self.unmoved(hk)
            if not un:
                raise self._err(f"{a} holds no card of {h.name}: all of it is known elsewhere",
                                "LIT-6(c)")
            self._fact(un, a, 1, len(un), "LIT-6(c)", f"{a} holds a card of {h.name}",
                       ask_line=self.line)
        # (d) the asker does not hold c (dropped under V12 bluff; V11 punishes it instead)
        if ev.answer == "surrendered":
            self._place(c, a)
            at = self.known_at(ck, a)
            if at:
                key = at[0]
            else:
                un = self.unmoved(ck)
                if not un:
                    raise self._err(f"{a} cannot surrender {c!r}: it is {self.where(ck[0])}",
                                    "V11")
                key = un[0]
                self._fact([key], a, 1, 1, "V11", f"{a} held {c!r}", ask_line=self.line)
            self._move(key, a, b)
            self.last_asker[b] = a
            self.turn = b
            return
        if t.options.own_card_ask != "bluff":     # the rest of LIT-6(d): a fact on the deal
            at = self.known_at(ck, a)
            self._fact(self.unmoved(ck), a, 0, len(ck) - 1 - len(at), "LIT-6(d)",
                       f"{a} does not hold {c!r}" if len(ck) == 1
                       else f"{a} does not hold every {c!r}", ask_line=self.line)
        self.last_asker[b] = a
        if ev.answer == "yes":   # LIT-7: c passes from b to a; a asks again
            self._place(c, b)
            at = self.known_at(ck, b)
            if at:
                key = at[0]
            else:
                un = self.unmoved(ck)
                if not un:
                    raise self._err(f"{b} cannot hand over {c!r}: it is {self.where(ck[0])}",
                                    "LIT-7")
                key = un[0]
                self._fact([key], b, 1, 1, "LIT-7", f"{b} held {c!r}", ask_line=self.line)
            self._move(key, b, a)
        else:                    # LIT-8: "no": b does not hold c; the turn passes to b
            at = self.known_at(ck, b)
            if at:
                raise self._err(f"{b} holds {c!r} ({self.where(at[0])}) and must hand it over",
                                "LIT-7, LIT-16")
            self._fact(self.unmoved(ck), b, 0, 0, "O2", f"{b} does not hold {c!r}",
                       ask_line=self.line)
            self.turn = b

    def _asker_checks(self, a: str, b: str | None):
        """LIT-5..LIT-8 turn order, LIT-6(a), (b), LIT-14, LIT-15 (:func:`verify_turn`,
        :func:`verify_ask_whom`); the asker is then on turn."""
        self._verify(verify_turn, a)
        self._verify(verify_ask_whom, a, b)
        self.turn, self.turn_known = a, True

    def _unknown(self, keys):
        """Keys whose place the record no longer determines."""
        for k in keys:
            held = self.loc[k]
            if held is not None and held != OUT:
                self.dealt.setdefault(k, held)
                self.loc[k] = None

    def _check_recorder_heard(self, ev, me: str) -> None:
        """Refuse what the recorder ``me`` heard written as not heard (record-format.md,
        "What the recorder did not see"): a question of theirs (``me: ?``), the card of a
        question they asked or were asked (LIT-6: the card is named aloud to the one asked)
        and its answer (LIT-7, LIT-8: the card is handed over face up, or the turn passes)."""
        who = f"{me} is the recorder (me: {me}), who hears every question {me} asks or is asked"
        if isinstance(ev, Unseen):
            if ev.player == me:
                raise self._err_at(f"{who}, so none of them is a question not heard: write "
                                   f"{me}'s question ({me} asks B 9C: yes|no)", "LIT-6", me)
            return
        if me not in (ev.asker, ev.target):
            return
        if isinstance(ev, UnheardCard):
            raise self._err_at(f"{who}: the card is named to the one asked (LIT-6), so it is "
                               f"never one not heard: write it ({ev.asker} asks {ev.target} "
                               f"9C: {ev.answer})", "LIT-6", me, last=ev.asker != me)
        raise self._err_at(f"{who}: the card is handed over face up (LIT-7) or the turn "
                           "passes to the one asked (LIT-8), so the answer is never one not "
                           f"heard: write it ({ev.asker} asks {ev.target} {ev.card!r}: yes|no)",
                           "LIT-7, LIT-8", me, last=ev.asker != me)

    def _err_at(self, msg: str, rule: str, token: str, last: bool = False) -> RuleError:
        """The rule error of this statement, the column on ``token`` (its first occurrence,
        or its last with ``last``)."""
        from solver.records import find_token

        i = find_token(self.text, token, last=last)
        return RuleError(msg, text=self.text, rule=rule, line=self.line,
                         offset=i if i > 0 else None)

    def _unseen(self, ev: Unseen | UnheardCard | UnheardAnswer):
        """``Ben asks Cleo ?: yes|no``, ``Ben asks Cleo 5H: ?``, ``Ben: ?`` (record-format.md,
        "What the recorder did not see"): the public part is checked here; the unknown part
        is a free choice in the model (:mod:`solver.literature.history`)."""
        t = self.table
        self.unseen += 1
        if self.first_unseen is None:
            self.first_unseen = self.line
        a = ev.player if isinstance(ev, Unseen) else ev.asker
        b = None if isinstance(ev, Unseen) else ev.target
        self._asker_checks(a, b)
        if b is not None:
            self.last_asker[b] = a
        if isinstance(ev, UnheardCard):
            b = ev.target                   # the one asked (a str: only "P: ?" names nobody)
            if ev.answer == "yes":          # some card of b's moves to a; a asks again
                self._unknown([k for k in t.keys if self.loc[k] == b])
                self._unplaced(places=[b])
                self._shift(b, -1)
                self._shift(a, 1)
            else:                           # LIT-8: the turn passes to b
                self.turn = b
            return
        if isinstance(ev, UnheardAnswer):
            b = ev.target                   # the one asked, as above
            h = t.half_of[ev.card]
            if self.status[h.name][0] != "open":
                raise self._err(f"{h.name} is already resolved: nobody holds its cards",
                                "LIT-6(c)")
            ck = t.card_keys[ev.card]
            at = self.known_at(ck, a)
            v11 = t.options.own_card_ask == "surrender"   # the answer may be "surrendered"
            if t.options.own_card_ask == "forbidden" and len(at) >= len(ck):
                raise self._err(f"{a} holds {ev.card!r} ({self.where(at[0])})", "LIT-6(d)")
            if all(self.loc[k] not in (None, b) for k in ck) and not (v11 and at):
                # no copy can be with b: the answer was "no"
                self.turn = b
                return
            self._unknown(ck)
            self._unplaced(keys=ck)
            self._shift(b, -1, vague=True)
            self._shift(a, 1, vague=True)
            if v11:
                self._shift(b, 1, vague=True)
                self._shift(a, -1, vague=True)
            self.turn_known = False
            self.turn = a
            self.turn_may = (a, b)      # LIT-7: a asks again after a yes; LIT-8: b after a no
            self.turn_why = (f"it is {a}'s turn if {b} said yes on line {self.line}, "
                             f"else {b}'s")
            return
        # Ben: ? -- any legal question to any opponent, either answer; never to the recorder,
        # who would have heard it
        opps = [q for q in t.players if t.opponents(a, q) and q != self.recorder]
        # the turn: a's after a yes, the one asked (who had cards) after a no or a surrender
        asked = [q for q in opps if q in self.vague or self.count[q] > 0]
        if not asked:       # the recorder is the only opponent with cards (LIT-6(b))
            me = self.recorder
            raise self._err_at(f"{me} is the recorder (me: {me}), who hears every question "
                               f"{me} is asked, and the only opponent of {a} with cards: "
                               f"{a}'s question is one {me} heard (write it: {a} asks {me} "
                               "9C: yes|no)", "LIT-6(b)", a)
        v11 = t.options.own_card_ask == "surrender"     # it may have been a surrender
        self._unknown([k for k in t.keys if self.loc[k] in opps or (v11 and self.loc[k] == a)])
        self._unplaced(places=opps + [a] if v11 else opps)
        self._shift(a, 1, vague=True)
        for q in opps:
            self._shift(q, -1, vague=True)
            if v11:
                self._shift(q, 1, vague=True)
        if v11:
            self._shift(a, -1, vague=True)
        self.turn_known = False
        self.turn_may = (a, *asked)
        names = asked[0] if len(asked) == 1 else ", ".join(asked[:-1]) + " or " + asked[-1]
        self.turn_why = (f"it is {a}'s turn if {a}'s unseen question on line {self.line} got "
                         f"a yes, else the turn of the opponent asked ({names})")

    def _turn_is(self, ev: TurnIs):
        if self.turn_known and self.turn != ev.player and not self.over:
            raise self._err(f"the record says {self.expected()}", TURN_RULES)
        if not self.turn_known and self.turn_may and ev.player not in self.turn_may:
            st = self.state()
            raise self._err(f"the record says {st.turn_why}"
                            f"{_missed_turn_fix(st, ev.player, resync=False)}", TURN_RULES)
        self.turn, self.turn_known = ev.player, True

    def _hand_count(self, ev: HandCount):
        p, n = ev.player, ev.count
        lo, hi = self.vague.get(p, (self.count[p], self.count[p]))
        if not lo <= n <= hi:
            had = f"{lo}" if lo == hi else f"{lo} to {hi}"
            m = _COUNT_AT.match(self.text)
            cards = "card" if hi == 1 else "cards"
            raise RuleError(f"{p} holds {had} {cards} now, not {n}", text=self.text,
                            rule="LIT-13(b), O1", line=self.line,
                            offset=m.start(1) if m else None)
        self.vague.pop(p, None)
        self.count[p] = n

    def claim_kind(self, c: str, half: str) -> str:
        """What kind of claim ``c`` would make on ``half`` now (raises RuleError if illegal):
        ``turn``, ``end-game`` (LIT-15), ``any-time`` (V5), ``out-of-turn`` (LIT-12),
        ``empty-turn`` (out-of-turn-claims=forbidden while the player on turn has no cards),
        ``challenge`` or ``forced`` (V14)."""
        t = self.table
        if self.over:
            raise self._err("the game is over: every half-suit is resolved", "LIT-17")
        assert self.turn is not None    # only a finished game has nobody on turn (_after)
        if self.status[half][0] != "open":
            raise self._err(f"{half} is already resolved", "LIT-11")
        if self.challenge:
            ch, tgt, chalf = self.challenge
            if c != tgt or half != chalf:
                raise self._err(f"{tgt} must first claim the challenged half-suit {chalf}", "V14")
            return "challenge"
        if self.forced:
            if c != self.forced_member():
                raise self._err(self.expected(), "V14")
            return "forced"
        # unknown turn: the claimant has it, unless the record narrows the turn down to
        # others (turn_may): then no course has the claimant on turn, an out-of-turn claim
        on_turn = c == self.turn or (not self.turn_known
                                     and (not self.turn_may or c in self.turn_may))
        if self.end_game:
            holder = 1 if self.team_empty(0) else 0
            if t.options.claims_any_time and t.team_index(c) == holder:
                return "end-game"    # V5: any member of the team with cards
            if on_turn and t.team_index(c) == holder:
                return "end-game"    # LIT-15(a)
            if t.team_index(self.turn) != holder:
                raise self._err(f"{self.turn} (whose team has no cards) must first pick who "
                                f"claims: '{self.turn} passes turn to <opponent>'", "LIT-15(b)")
            raise self._err(f"{self.turn} makes all the remaining claims alone", "LIT-15(a)")
        if c == self.turn or (on_turn and not t.options.claims_any_time):
            return "turn"
        if t.options.claims_any_time:
            return "any-time"
        if t.options.out_of_turn_claims == "forbidden":
            # house rule: refused, not penalised, unless the player on turn has no cards
            if self.known(self.turn) == 0:
                return "empty-turn"
            raise self._err(f"claims only on one's turn ({self.expected()}; "
                            "out-of-turn-claims=forbidden)", "LIT-12")
        return "out-of-turn"

    def _claim(self, ev: Claim, shown):
        t, c = self.table, ev.claimant
        ti = t.team_index(c)
        for p, _ in ev.alloc:
            if t.team_index(p) != ti:
                raise self._err(f"a claim names only members of the claimant's team; {p} is "
                                "an opponent", "LIT-11")
        kind = self.claim_kind(c, ev.half)
        if not self.turn_known and kind in ("turn", "end-game") and \
                not t.options.claims_any_time:
            self.turn, self.turn_known = c, True     # the claimant was on turn
        fact_line, fact_text = self.line, self.text
        if shown is not None:
            sev, sline, stext = shown
            salloc = sev.alloc
            self.line, self.text = sline, stext     # its errors are the shown line's
        else:
            sline, salloc = None, ev.alloc
        # the holders showed their cards (O5, A5): facts about the deal
        hk = self.keys_of_half(ev.half)
        shown_names: dict[str, Counter] = {}
        for p, cs in salloc:
            shown_names.setdefault(p, Counter()).update(cs)
        for p, names in shown_names.items():
            if self.known(p) is not None and sum(names.values()) > self.count[p]:
                raise self._err(f"{p} has only {self.count[p]} cards", "O1")
        holder_of: dict[str, str] = {}
        for card in sorted(set(self.half(ev.half).cards)):
            ck = t.card_keys[card]
            left = Counter({p: n[card] for p, n in shown_names.items() if n[card]})
            for p in left:
                self._place(card, p)
            for k in ck:
                at = self.loc[k]
                if at is None:
                    continue
                if left[at] <= 0:
                    raise self._err(f"{card!r} is {self.where(k)}", "LIT-7")
                left[at] -= 1
                holder_of[k] = at
            un = self.unmoved(ck)
            for p, m in left.items():
                if m > 0:
                    self._fact(un, p, m, m, "LIT-11",
                               f"{p} showed {card!r}" + (f" x{m}" if len(ck) > 1 else ""))
            rest = [p for p, m in sorted(left.items()) for _ in range(max(m, 0))]
            for k, p in zip(un, rest):
                holder_of[k] = p
        for k in hk:   # the cards leave play (LIT-11)
            self._move(k, holder_of[k], OUT)
        self.line, self.text = fact_line, fact_text
        # the outcome, derived (LIT-11, LIT-12, V6, V14, A8, A10)
        all_in = all(t.team_index(p) == ti for p in shown_names)
        claimed = sorted((repr(x), p) for p, cs in ev.alloc for x in cs)
        actual = sorted((repr(x), p) for p, cs in salloc for x in cs)
        exact = all_in and claimed == actual
        value = self.half(ev.half).value
        penalty = 0
        o = t.options
        if kind == "challenge":
            if exact:
                outcome, scorer, rule = "won", ti, "V14"
            elif all_in:
                outcome, scorer, rule = "lost", 1 - ti, "V14"
            elif o.challenge_split == "challengers-score":
                outcome, scorer, rule = "lost", 1 - ti, "V14, A8 challengers-score"
            else:
                outcome, scorer, rule = "won", ti, "V14, A8"
        elif kind == "out-of-turn":
            if all_in:
                outcome, scorer, rule = "cancelled", None, "LIT-12"
            else:
                outcome, scorer, rule = "lost", 1 - ti, "LIT-12"
        elif exact:
            outcome, scorer, rule = "won", ti, "LIT-10" if len(shown_names) == 1 and c in \
                shown_names else "LIT-11(a)"
        elif all_in:
            if o.misallocation_to_opponents:
                outcome, scorer, rule = "lost", 1 - ti, "LIT-11(b), V6"
            else:
                outcome, scorer, rule = "cancelled", None, "LIT-11(b)"
        else:
            if o.wrong_claim == "minus-one":
                outcome, scorer, rule, penalty = "lost", None, "LIT-11(c), A10", 1
            else:
                outcome, scorer, rule = "lost", 1 - ti, "LIT-11(c)"
        if scorer is not None:
            self.score[scorer] += value
            self.status[ev.half] = ("won", scorer)
        else:
            self.status[ev.half] = ("cancelled",)
        if penalty:
            self.score[ti] -= penalty
        self.results.append(ClaimResult(fact_line, sline, c, ev.half, ev.alloc, salloc, kind,
                                        outcome, scorer, penalty, rule))
        # whose turn now (A3; V5 the turn stays where it was)
        if kind == "challenge":
            self.challenge = None
        elif kind == "forced":
            f = self.forced
            assert f is not None    # claim_kind says "forced" only while one is due
            f["order"] = self._team_order(ti, c)
            f["pos"] = 0
            f["passes"] = 0
        if kind in ("any-time", "end-game") and c != self.turn and \
                o.claim_turn == "claimant":
            self.turn, self.turn_known = c, True   # house rule claim-turn=claimant (V5)
        elif kind in ("turn", "end-game"):
            if kind == "end-game" and c != self.turn:
                pass  # V5: any member claims; the turn stays where it was
            elif outcome != "won" and o.turn_after_failed_claim == "opponents":
                n = len(t.players)
                i = t.players.index(c)
                for j in range(1, n):
                    q = t.players[(i + j) % n]
                    if t.opponents(c, q) and (q in self.vague or self.count[q] > 0):
                        self.turn = q
                        if q in self.vague and self.vague[q][0] == 0:
                            self.turn_known = False   # q may have no cards (unseen moves)
                        break
                if not self.turn_known:      # as the model has it: anyone may be on turn
                    self.turn_may, self.turn_why = (), ""

    def _team_order(self, ti: int, start: str) -> list[str]:
        """The team's members clockwise from ``start`` (V14 forced claims)."""
        t = self.table
        n = len(t.players)
        i = t.players.index(start)
        return [t.players[(i + j) % n] for j in range(n) if t.team_index(t.players[(i + j) % n])
                == ti]

    def _pass_turn(self, ev: PassTurn):
        t, a, b = self.table, ev.player, ev.to
        if self.forced:
            raise self._err(self.expected(), "V14")
        if self.turn_known and a != self.turn:
            raise self._err(f"{a} is not on turn: {self.expected()}", "LIT-14")
        if not self.turn_known and self.turn_may and a not in self.turn_may:
            raise self._err(f"{a} is not on turn: {self.turn_why}", "LIT-14")
        if (self.vague[a][0] if a in self.vague else self.count[a]) > 0:
            raise self._err(f"{a} has cards: only a player with none passes the turn", "LIT-14")
        if self.known(b) == 0:
            raise self._err(f"{b} has no cards and cannot be given the turn", "LIT-14")
        self.vague.pop(a, None)        # a has no cards
        self.count[a] = 0
        team = t.team_of(a)
        if t.opponents(a, b) and all((self.vague[q][0] if q in self.vague else self.count[q])
                                     == 0 for q in team):
            for q in team:             # LIT-15(b) after unseen moves: the team is empty
                self.vague.pop(q, None)
                self.count[q] = 0
        if self.team_empty(t.team_index(a)):
            if not t.opponents(a, b):
                raise self._err(f"{a}'s team has no cards: pick an opponent to make the claims",
                                "LIT-15(b)")
            self.end_game_pick = True
        elif t.opponents(a, b):
            raise self._err(f"the turn goes to a teammate of {a} who has cards", "LIT-14")
        self.turn, self.turn_known = b, True

    def _pass_claim(self, ev: PassClaim):
        if not self.forced:
            raise self._err("nobody has to make a forced claim now", "V14")
        if ev.player != self.forced_member():
            raise self._err(self.expected(), "V14")
        f = self.forced
        f["pos"] += 1
        f["passes"] += 1
        halves = self.open_halves()
        if f["passes"] >= len(f["order"]) * 2 * len(halves):
            # V14: every member had 2 x (forced half-suits) chances: the opponents get them all
            other = 1 - f["team"]
            for h in halves:
                self.status[h] = ("won", other)
                self.score[other] += self.half(h).value
                for k in self.keys_of_half(h):
                    if self.loc[k] != OUT:
                        holder = self.loc[k]
                        if holder is None:
                            holder = self._dealt_holder(k)
                        self._move(k, holder, OUT)
                self.results.append(ClaimResult(self.line, None, ev.player, h, (), (), "forced",
                                                "lost", other, 0, "V14 forced claims expired"))

    def _dealt_holder(self, key: str) -> str:
        """After V14 forfeits, the unseen cards leave play without being shown; for the
        bookkeeping of counts they are charged to a team member still holding cards."""
        f = self.forced
        assert f is not None    # only while the V14 forced claims run out
        for p in f["order"]:
            if self.count[p] > 0:
                return p
        raise self._err("no cards left to forfeit", "V14")

    def _challenge(self, ev: Challenge):
        t = self.table
        if not t.opponents(ev.challenger, ev.target):
            raise self._err(f"{ev.target} is not an opponent of {ev.challenger}", "V14")
        if self.status[ev.half][0] != "open":
            raise self._err(f"{ev.half} is already resolved", "V14")
        if self.forced:
            raise self._err(self.expected(), "V14")
        self.challenge = (ev.challenger, ev.target, ev.half)

    def _after(self):
        t = self.table
        if self.turn is not None:
            self.last_turn_of_team[t.team_index(self.turn)] = self.turn
        total = sum(h.value for h in t.halves)
        if not self.open_halves() or (t.options.stop_at_majority
                                      and 2 * max(self.score) > total):
            self.over = True          # LIT-17; house rule stop-at-majority
            self.turn = None
            self.forced = None
            return
        if self.team_empty(0) or self.team_empty(1):
            if not self.end_game:
                self.end_game = True
            holder = 1 if self.team_empty(0) else 0
            if t.options.srinivasan_forced_claims and self.forced is None:
                start = self.last_turn_of_team.get(holder, t.teams[holder][0])
                self.forced = {"team": holder, "order": self._team_order(holder, start),
                               "pos": 0, "passes": 0}

    # ----- results ---------------------------------------------------------------------------
    def score_by_team(self) -> dict[str, int]:
        return {self.table.team_name(i): self.score[i] for i in (0, 1)}

    def winner(self) -> str | None:
        """LIT-17: more half-suits (points under V9) wins; ``"tie"`` on equal scores."""
        if not self.over:
            return None
        if self.score[0] == self.score[1]:
            return "tie"
        return self.table.team_name(0 if self.score[0] > self.score[1] else 1)


def _place_words(place: str) -> str:
    return "out of play" if place == OUT else place


def _put(placed: dict, t: Table, card, player: str, line: int, text: str,
         keep: bool = True) -> None:
    """Statement ``text`` (line ``line``) puts ``card`` with ``player``.  Where ``placed``
    (key -> (place, line)) has it elsewhere from an earlier line, and nothing since can have
    moved it (a move is a statement too, and an unseen one forgets what it may move), the
    two lines cannot both be right: the rule error of this one (LIT-1: one deck, each card
    in one place), at the card, naming both lines.  Else ``placed`` keeps the place (with
    ``keep``).  Cards of two copies (the jokers) are left to the model."""
    keys = t.card_keys[card]
    if len(keys) != 1:
        return
    prev = placed.get(keys[0])
    if prev is not None and prev[0] != player:
        from solver.records import find_token

        i = find_token(text, repr(card))
        raise RuleError(f"{card!r} would be in two places ({_place_words(prev[0])} on line "
                        f"{prev[1]} and {_place_words(player)} on line {line})", text=text,
                        rule="LIT-1", line=line, offset=i if i > 0 else None)
    if keep:
        placed[keys[0]] = (player, line)


def _forget(placed: dict, places: frozenset, keys: frozenset) -> None:
    for k in [k for k, (q, _) in placed.items() if q in places or k in keys]:
        del placed[k]


def _check_placed(play: Play, before: int | None = None) -> None:
    """LIT-1 with the ``holds`` lines too: :meth:`Play._place`'s placements replayed in
    order, each checked against where the lines before put the card (:func:`_put`).
    ``before``: only the lines before that one."""
    placed: dict[str, tuple[str, int]] = {}
    for entry in play.placings:
        if entry[0] == "put":
            _, card, player, line, text = entry
            if before is not None and line >= before:
                break
            _put(placed, play.table, card, player, line, text)
        elif entry[0] == "move":
            _, key, dst, line = entry
            placed[key] = (dst, line)
        else:
            _forget(placed, entry[1], entry[2])


def _check_private(play: Play, before: int | None = None) -> None:
    """The checks of what only the recorder saw (:func:`_check_shown_hands`,
    :func:`_check_placed`): the error of the first line either refuses (LIT-6 before
    LIT-1 on the same line: the question itself was illegal)."""
    errs = []
    for check in (_check_shown_hands, _check_placed):
        try:
            check(play, before)
        except RuleError as e:
            errs.append(e)
    if errs:
        raise min(errs, key=lambda e: e.line or 0)


def cut_points(record) -> list[int]:
    """The prefix lengths that do not separate a claim from its ``shown`` line (a claim
    without one means "exactly as claimed")."""
    st = record.statements
    return [n for n in range(len(st) + 1)
            if not (0 < n < len(st) and isinstance(st[n].event, Shown)
                    and isinstance(st[n - 1].event, Claim))]


def _check_shown_hands(play: Play, before: int | None = None) -> None:
    """LIT-6(c) and (d) need the asker's hand: they are checked here whenever the record
    lists that hand (a ``holds`` line, at any time); otherwise they become constraints on
    the deal (see :mod:`solver.literature.inference`), and a breach shows as an
    inconsistency.  ``before``: only the questions on earlier lines (the replay stopped at
    that line)."""
    if not play.holds:
        return
    # after an unseen move the hands are no longer determined: the model checks the rest
    cut = play.first_unseen if play.first_unseen is not None else float("inf")
    if before is not None:
        cut = min(cut, before - 1)
    t = play.table
    # the deal of every player whose hand the record shows: hand at t, moves undone
    deal: dict[str, Counter] = {}
    for line, h in play.holds:
        if h.player in deal or line > cut:
            continue
        hand = Counter(h.cards)
        for mv in play.moves:
            if mv.line >= line:
                break
            card = t.key_card[mv.key]
            if mv.dst == h.player:
                hand[card] -= 1
            if mv.src == h.player:
                hand[card] += 1
        deal[h.player] = hand
    # replay with those hands
    hands = {p: Counter(d) for p, d in deal.items()}
    mi = 0
    moves = play.moves
    for line, ask in play.asks:
        if line > cut:
            break
        while mi < len(moves) and moves[mi].line < line:
            mv = moves[mi]
            card = t.key_card[mv.key]
            if mv.src in hands:
                hands[mv.src][card] -= 1
            if mv.dst in hands:
                hands[mv.dst][card] += 1
            mi += 1
        a = ask.asker
        if a not in hands:
            continue
        hand = hands[a]
        text = play.ask_texts[line]
        if ask.answer != "surrendered":
            try:
                _verify_hand(t, a, ask.card, hand)
            except RuleError as e:
                raise RuleError(f"{e.message} (hand shown by the record)", text=text,
                                rule=e.rule, line=line) from None
        if ask.answer == "surrendered" and hand[ask.card] < 1:
            raise RuleError(f"{a} does not hold {ask.card!r} and cannot surrender it", text=text,
                            rule="V11", line=line)
