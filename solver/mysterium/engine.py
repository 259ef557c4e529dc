"""Replaying a Mysterium record under the rules (MY-1..MY-22).

:func:`replay` walks the statements in order, enforcing every rule with a
:class:`~solver.errors.RuleError` that names the rule and quotes the statement, and leaves a
:class:`Play` holding the state: clock, stages, sleeves, clairvoyancy, visions, crows,
epilogue.  The observations about the secret cards are collected as :class:`Fact` objects for
the deduction (:mod:`solver.mysterium.inference`).

The engine contract (docs/architecture.md): :class:`State` is the frozen public position
(:meth:`Play.state`), ``run(record, upto)`` the state after the first ``upto`` statements,
and ``verify_<action>``/``can_<action>`` for the actions of an hour: ``visions`` (MY-8,
MY-13), ``crow`` (MY-6, MY-9), ``guess`` (MY-10, MY-12, MY-13) and ``clairvoyance``
(MY-11, MY-14, A4), with which :class:`Play` checks those statements.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Callable

from solver.errors import RuleError
from solver.legality import can, check_before
from solver.mysterium.epilogue import Count, count_votes
from solver.mysterium.events import (Clairvoyance, Crow, Culprit, Group, Guess, Hour, Reveal,
                                     Secret, TableCards, TurnIs, Unseen, Verdict, Visions, Vote,
                                     card_name)
from solver.mysterium.options import GHOST_HAND, KINDS, LAST_HOUR, VISION_DECK
from solver.mysterium.roster import Roster, roster_of


@dataclass(frozen=True)
class Fact:
    """``psychic``'s secret card of ``kind`` is (``at``) or is not ``card``; from ``line``.
    ``source`` is ``"guess"`` (public, MY-12) or ``"secret"`` (the ghost's knowledge, MY-5).

    An unseen wrong guess (``P: ?``) is one fact for every card it may have been on:
    ``among`` lists them (``card`` is 0) and the psychic's secret card x is then weighted
    by the number of those cards that are not x (the deals times the fillings, counted
    together: :mod:`solver.mysterium.inference`)."""

    kind: str
    psychic: str
    card: int
    at: bool
    line: int
    source: str
    among: tuple[int, ...] = ()


@dataclass
class TokenVote:
    """A clairvoyancy token (MY-11); ``scored`` is set at the target's revelation (MY-12)."""

    hour: int
    voter: str
    target: str
    agree: bool
    line: int
    scored: bool | None = None


@dataclass(frozen=True)
class State:
    """The public position: the phase and hour, each psychic's stage, who received visions
    and who guessed this hour, whether guessing has begun (the timer), the ghost's hand, the
    cards on the table and those found (kind, card, psychic, hour), the crows and
    clairvoyancy tokens left, the votes of this hour, the outcome."""

    roster: Roster
    phase: str
    hour: int
    stages: tuple[tuple[str, int], ...]
    given: frozenset[str]
    guessed: tuple[tuple[str, int], ...]      # psychic, line of the guess this hour
    active: frozenset[str]
    revealed: frozenset[str]
    timer: bool
    ghost_hand: int
    table: tuple[tuple[str, tuple[int, ...]], ...]
    found: tuple[tuple[str, int, str, int], ...]
    crows_left: int
    tokens_left: tuple[tuple[str, int], ...]
    votes_now: tuple[tuple[str, str], ...]
    outcome: str | None
    outcome_rule: str

    def stage(self, p: str) -> int:
        """``p``'s stage (0 character .. 3 done); a RuleError for one who is no psychic."""
        stages = dict(self.stages)
        if p not in stages:
            raise RuleError(f"{p} is not a psychic: the ghost neither receives visions nor "
                            "guesses", rule="MY-1")
        return stages[p]


# ----- the actions: verify_<action> raises the rule broken, can_<action> says whether not ----

def _verify_not_over(state: State) -> None:
    if state.phase == "over":
        raise RuleError(f"the game is over ({state.outcome}); nothing follows",
                        rule=state.outcome_rule)


def _verify_hour_on(state: State) -> None:
    """An hour of phase 1 is being played (MY-7, MY-13)."""
    _verify_not_over(state)
    if state.phase == "setup":
        raise RuleError("the clock starts at hour 1: write 'hour 1' first", rule="MY-7")
    if state.phase == "epilogue":
        raise RuleError("every psychic has finished phase 1: no more visions, guesses or "
                        "clairvoyancy tokens", rule="MY-13")


def verify_visions(state: State, psychic: str, count: int) -> None:
    """The ghost gives ``psychic`` ``count`` visions: once an hour, before the guesses
    (MY-8, MY-10, MY-13)."""
    _verify_hour_on(state)
    if state.stage(psychic) >= 3:
        raise RuleError(f"{psychic} has finished phase 1 and gets no more visions", rule="MY-13")
    if psychic in state.given:
        raise RuleError(f"{psychic} already received visions this hour (the ghost token is "
                        "against the screen)", rule="MY-8")
    if state.timer:
        raise RuleError("visions come before the guesses of the hour", rule="MY-10")
    if not 1 <= count <= state.ghost_hand:
        raise RuleError(f"the ghost gives one or more cards from a hand of {state.ghost_hand}",
                        rule="MY-8")


def verify_crow(state: State, count: int | None = None) -> None:
    """A crow discards ``count`` cards of the ghost's hand (``None``: all of it): during the
    vision step, within the crows of the difficulty (MY-6, MY-9, A2, A9)."""
    o = state.roster.options
    if state.phase == "epilogue":
        if not o.epilogue_crows:
            raise RuleError("no crows in the epilogue (default; option epilogue-crows=yes)",
                            rule="A9")
    else:
        _verify_hour_on(state)
        if state.timer:
            raise RuleError("a crow is used during the vision step, before the guesses",
                            rule="MY-9")
    n = state.ghost_hand if count is None else count
    if o.crow_discard == "whole-hand" and n != state.ghost_hand:
        raise RuleError(f"a crow discards the whole hand ({state.ghost_hand} cards) under "
                        "crow-discard=whole-hand", rule="MY-9")
    if not 1 <= n <= state.ghost_hand:
        raise RuleError(f"a crow discards 1 to {state.ghost_hand} cards from the ghost's hand",
                        rule="MY-9")
    s = state.roster.setup
    if state.crows_left <= 0:
        if s.crows_total is not None:
            raise RuleError(f"all {s.crows_total} crows of {s.difficulty} are spent", rule="MY-6")
        raise RuleError("on easy the crow is used once per hour"
                        + (" per psychic (easy-crows=per-psychic)"
                           if o.easy_crows == "per-psychic" else ""), rule="MY-6, A2")


def verify_guess(state: State, psychic: str, kind: str, card: int) -> None:
    """``psychic`` guesses ``card`` of ``kind``: once an hour, a card of their stage still
    on the table (MY-10, MY-12, MY-13)."""
    _verify_hour_on(state)
    stage = state.stage(psychic)
    if stage >= 3:
        raise RuleError(f"{psychic} has finished phase 1", rule="MY-13")
    if psychic in dict(state.guessed):
        raise RuleError(f"exactly one guess per psychic per hour: {psychic} guessed on line "
                        f"{dict(state.guessed)[psychic]}", rule="MY-10")
    if kind != KINDS[stage]:
        raise RuleError(f"{psychic} is looking for their {KINDS[stage]}: the guess is on a card "
                        "of the current stage", rule="MY-10")
    if card not in dict(state.table).get(kind, ()):
        raise RuleError(f"{card_name(kind, card)} is not on the table", rule="MY-10")
    # MY-10: several psychics may choose the same card in one hour; it leaves the table only
    # when revealed (MY-12), so only a card found in an earlier hour is gone.
    for k, c, owner, hour in state.found:
        if k == kind and c == card and hour < state.hour:
            raise RuleError(f"{card_name(kind, card)} left the table into {owner}'s sleeve "
                            f"in hour {hour}", rule="MY-12")


def verify_clairvoyance(state: State, voter: str, target: str) -> None:
    """``voter`` places a clairvoyancy token on ``target``'s guess (MY-11, MY-14, A4)."""
    _verify_hour_on(state)
    r = state.roster
    if not r.clairvoyance:
        raise RuleError(f"no clairvoyancy tokens with {r.setup.players} players", rule="MY-11")
    if voter == target:
        raise RuleError("a clairvoyancy token is never placed beside your own intuition token",
                        rule="A4")
    if target not in state.active:
        raise RuleError(f"{target} has finished phase 1: there is no intuition token to vote "
                        "on", rule="MY-11")
    if target in state.revealed:
        raise RuleError(f"{target}'s guess was already revealed: tokens are placed before the "
                        "timer runs out", rule="MY-11")
    if r.options.clairvoyance_limit == "per-psychic" and (voter, target) in state.votes_now:
        raise RuleError(f"at most one token per other psychic per hour: {voter} already voted "
                        f"on {target}", rule="A4")
    state.stage(voter)          # a psychic
    if dict(state.tokens_left)[voter] <= 0:
        after = state.hour >= (4 if r.options.token_refresh == "start-of-hour-4" else 5)
        raise RuleError(f"{voter} has no clairvoyancy token left "
                        + ("for the rest of the game" if after else "until the hour-4 refresh"),
                        rule="MY-14")


can_visions = can(verify_visions)
can_crow = can(verify_crow)
can_guess = can(verify_guess)
can_clairvoyance = can(verify_clairvoyance)


@dataclass
class Play:
    roster: Roster
    table: dict[str, tuple[int, ...]] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)
    secrets: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    hour: int = 0
    phase: str = "setup"          # setup | investigation | epilogue | over
    stage: dict[str, int] = field(default_factory=dict)      # 0 character .. 3 done
    sleeve: dict[str, dict[str, int]] = field(default_factory=dict)
    found_hour: dict[tuple[str, str], int] = field(default_factory=dict)  # (psychic, kind)
    wrong: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    finished_hour: dict[str, int] = field(default_factory=dict)
    # this hour
    active: set[str] = field(default_factory=set)            # in phase 1 at the hour's start
    guessed: dict[str, int] = field(default_factory=dict)    # psychic -> line
    pending: dict[str, Guess] = field(default_factory=dict)
    revealed: set[str] = field(default_factory=set)
    given: dict[str, int] = field(default_factory=dict)      # visions this hour
    timer: bool = False                                      # guessing has begun (MY-10)
    crows_hour: int = 0
    # the game
    crows_used: int = 0
    deck: int = VISION_DECK - GHOST_HAND
    ghost_hand: int = GHOST_HAND
    discard: int = 0
    reshuffles: int = 0
    visions_logged: int = 0       # 'receives N visions' lines so far (D4 is tracked from them)
    held: dict[str, int] = field(default_factory=dict)
    score: dict[str, int] = field(default_factory=dict)
    bonus: dict[str, int] = field(default_factory=dict)
    tokens_used: dict[str, int] = field(default_factory=dict)
    token_votes: list[TokenVote] = field(default_factory=list)
    groups: dict[int, Group] = field(default_factory=dict)
    groups_final: bool = False
    votes: dict[str, int] = field(default_factory=dict)
    verdict_stated: int | None = None
    culprit: int | None = None
    outcome: str | None = None    # won | lost
    outcome_rule: str = ""
    #: line -> the statement as written (to quote a contradiction's lines)
    texts: dict[int, str] = field(default_factory=dict)
    #: who wrote the record (``me:``; ``None``: a spectator), whose own turns are never
    #: unseen (:meth:`_check_recorder_saw`)
    recorder: str | None = None

    def __post_init__(self):
        for p in self.roster.psychics:
            self.stage[p] = 0
            self.sleeve[p] = {}
            self.wrong[p] = {k: [] for k in KINDS}
            self.held[p] = 0
            self.score[p] = 0
            self.bonus[p] = 0
            self.tokens_used[p] = 0

    def state(self) -> State:
        """The public position now, frozen."""
        found = tuple((k, c, p, self.found_hour[(p, k)]) for p, cards in self.sleeve.items()
                      for k, c in cards.items())
        return State(self.roster, self.phase, self.hour, tuple(self.stage.items()),
                     frozenset(self.given), tuple(self.guessed.items()), frozenset(self.active),
                     frozenset(self.revealed), self.timer, self.ghost_hand,
                     tuple(self.table.items()), found, self.crows_left() or 0,
                     tuple((p, self.tokens_left(p)) for p in self.roster.psychics),
                     tuple((tv.voter, tv.target) for tv in self.token_votes
                           if tv.hour == self.hour), self.outcome, self.outcome_rule)

    def _verify(self, verify, st, *args) -> None:
        """A verify_<action> on the state before statement ``st``; its error is the
        statement's."""
        check_before(self, verify, args, st.text, st.line)

    # ----- queries ----------------------------------------------------------------------
    def stage_kind(self, p: str) -> str | None:
        s = self.stage[p]
        return KINDS[s] if s < 3 else None

    def in_sleeves(self, kind: str) -> dict[int, str]:
        return {cards[kind]: p for p, cards in self.sleeve.items() if kind in cards}

    def hour_complete(self) -> bool:
        return all(p in self.revealed for p in self.active)

    def tokens_left(self, p: str) -> int:
        return self.roster.setup.tokens_per_psychic - self.tokens_used[p]

    def crows_left(self) -> int | None:
        """Crows left for the game (medium, hard) or this hour (easy), MY-6."""
        s = self.roster.setup
        if s.crows_total is not None:
            return s.crows_total - self.crows_used
        return self.crow_limit_hour() - self.crows_hour

    def crow_limit_hour(self) -> int:
        if self.roster.options.easy_crows == "per-psychic":  # A2 alternative
            return max(1, len(self.active))
        return self.roster.setup.crows_per_hour or 0

    def guesses_left(self, p: str) -> int:
        """D3: the guesses ``p`` can still make, one per hour through hour 7."""
        if self.phase not in ("setup", "investigation") or self.stage[p] >= 3:
            return 0
        if self.hour == 0:
            return LAST_HOUR
        this = 0 if (p in self.guessed or p not in self.active) else 1
        return LAST_HOUR - self.hour + this

    def all_done(self) -> bool:
        return all(self.stage[p] >= 3 for p in self.roster.psychics)

    def group_of(self) -> dict[int, str | None]:
        """Group number -> psychic (``None``: a random group, 2 players), MY-16."""
        if self.groups:
            out: dict[int, str | None] = {}
            for n in range(1, self.roster.n_groups + 1):
                g = self.groups.get(n)
                out[n] = g.psychic if g else None
            return out
        ps = self.roster.psychics
        return {n: (ps[n - 1] if n <= len(ps) else None)
                for n in range(1, self.roster.n_groups + 1)}

    def count(self) -> Count:
        r = self.roster
        scores = None
        if r.clairvoyance:
            scores = {v: self.score[r.psychics_of(v)[0]] for v in r.voters}
        return count_votes(self.votes, r.voters, scores, r.eldest, r.options)

    def verdict(self) -> int | None:
        c = self.count()
        return c.verdict if c.verdict is not None else self.verdict_stated

    # ----- vision deck (D4) ---------------------------------------------------------------
    def _draw(self, n: int) -> None:
        while n > 0:
            if self.deck == 0:
                if self.discard == 0:
                    return
                self.deck, self.discard = self.discard, 0
                self.reshuffles += 1
            take = min(n, self.deck)
            self.deck -= take
            self.ghost_hand += take
            n -= take

    # ----- applying statements ------------------------------------------------------------
    def apply(self, st) -> None:
        ev = st.event
        self._before: State | None = None     # made once, when a verify_<action> needs it
        self.texts[st.line] = st.text

        def err(msg: str, rule: str) -> RuleError:
            return RuleError(msg, rule=rule, text=st.text, line=st.line)

        if isinstance(ev, Secret):
            return self._secret(ev, st, err)
        self._verify(_verify_not_over, st)
        if isinstance(ev, TurnIs):
            return self._turn(ev, st, err)
        if isinstance(ev, Unseen) or (isinstance(ev, Reveal) and ev.right is None):
            raise err("a statement with an unseen part has several fillings: replay the "
                      "record with replay_all", "MY-1")  # pragma: no cover
        if isinstance(ev, TableCards):
            return self._table(ev, st, err)
        if isinstance(ev, Hour):
            return self._hour(ev, st, err)
        if isinstance(ev, (Group, Vote, Verdict, Culprit)):
            if self.phase != "epilogue":
                raise err("the epilogue begins only when every psychic has found their "
                          "character, location and object", "MY-16")
            handlers: dict[type, Callable[..., None]] = {
                Group: self._group, Vote: self._vote, Verdict: self._verdict,
                Culprit: self._culprit}
            return handlers[type(ev)](ev, st, err)
        if isinstance(ev, Crow) and self.phase == "epilogue":
            return self._crow(ev, st, err)
        self._verify(_verify_hour_on, st)
        if isinstance(ev, Visions):
            return self._visions(ev, st, err)
        if isinstance(ev, Crow):
            return self._crow(ev, st, err)
        if isinstance(ev, Guess):
            return self._guess(ev, st, err)
        if isinstance(ev, Reveal):
            g = self.pending.get(ev.psychic)
            if g is None:
                raise err(f"{ev.psychic} has no guess waiting to be revealed this hour", "MY-12")
            return self._resolve(g, bool(ev.right), st.line, st)
        if isinstance(ev, Clairvoyance):
            return self._clairvoyance(ev, st, err)
        raise err("not a Mysterium statement", "MY-1")  # pragma: no cover

    # ----- what the recorder did not see (record-format.md) --------------------------------
    def clone(self) -> "Play":
        """A copy to change on its own (the roster, the events and the facts, all
        immutable, shared)."""
        c = copy.copy(self)
        for k, v in vars(self).items():
            if isinstance(v, (dict, list, set)):
                setattr(c, k, copy.copy(v))
        c.sleeve = {p: dict(v) for p, v in self.sleeve.items()}
        c.wrong = {p: {k: list(x) for k, x in v.items()} for p, v in self.wrong.items()}
        c.token_votes = [copy.copy(tv) for tv in self.token_votes]
        return c

    def key(self) -> tuple:
        """Everything but the facts and the texts: two plays with equal keys accept the same
        statements from here on."""
        skip = ("facts", "texts", "_before")
        return tuple((k, _canonical(v)) for k, v in sorted(vars(self).items()) if k not in skip)

    def branch(self, st) -> list["Play"]:
        """The plays after statement ``st``: this one, changed, for a statement that was
        seen; for one with an unseen part (``P: ?``, ``reveal P: ?``) a copy per way the
        rules allow to fill it in (:meth:`fillings`)."""
        ev = st.event
        if isinstance(ev, Unseen) or (isinstance(ev, Reveal) and ev.right is None):
            return self.fillings(st)
        self.apply(st)
        return [self]

    def fillings(self, st) -> list["Play"]:
        """One copy of this play for each filling of the unseen statement ``st`` that the
        rules allow (a RuleError when there is none):

        * ``P: ?`` in phase 1 -- P's guess of this hour with its revelation (MY-10, MY-12):
          right on each card of P's stage still on the table (a copy each: the card goes
          into P's sleeve), or wrong on any of them (one copy whose fact is weighted by the
          number of cards it may have been, :class:`Fact`);
        * ``P: ?`` in the epilogue -- P's vote (MY-20), for each group the rules allow;
        * ``reveal P: ?`` -- the outcome of P's placed guess, right or wrong (MY-12)."""
        ev = st.event
        self._before = None
        self.texts[st.line] = st.text

        def err(msg: str, rule: str) -> RuleError:
            return RuleError(msg, rule=rule, text=st.text, line=st.line)

        self._verify(_verify_not_over, st)
        r = self.roster
        if isinstance(ev, Reveal):
            self._verify(_verify_hour_on, st)
            g = self.pending.get(ev.psychic)
            if g is None:
                raise err(f"{ev.psychic} has no guess waiting to be revealed this hour", "MY-12")
            self._check_recorder_saw(ev.psychic, st)
            return self._outcomes(g, None, st)
        p = ev.player
        if p == r.ghost:
            raise err(f"{p} is the ghost, who neither guesses nor votes (MY-1); visions and "
                      "crows the recorder did not see need no line", "MY-1")
        if self.phase == "epilogue":
            self._check_recorder_saw(p, st)
            voter = r.owner_of(p) if p in r.psychics else p
            out, first = [], None
            for n in range(1, r.n_groups + 1):
                c = self.clone()
                try:
                    c._vote(Vote(voter, n), st, err)
                except RuleError as e:
                    first = first or e
                    continue
                out.append(c)
            if not out and first is not None:
                raise first
            return out
        self._verify(_verify_hour_on, st)
        self._check_recorder_saw(p, st)
        if p not in r.psychics:
            ps = r.psychics_of(p)
            raise err(f"{p} runs the psychics {' and '.join(ps)}: name the one whose guess was "
                      f"not seen ('{ps[0]}: ?')", "MY-3")
        stage = self.stage[p]
        kind = KINDS[stage] if stage < 3 else KINDS[0]
        legal = [c for c in self.table.get(kind, ())
                 if can_guess(self._state_now(), p, kind, c)]
        if not legal:          # the rule that forbids every guess (MY-10, MY-13)
            self._verify(verify_guess, st, p, kind, (self.table.get(kind) or (0,))[0])
        self.timer = True
        self.guessed[p] = st.line
        return self._outcomes(Guess(p, kind, 0), tuple(legal), st)

    def _check_recorder_saw(self, p: str, st) -> None:
        """Refuse an unseen statement (``P: ?``, ``reveal P: ?``) that the recorder saw
        (record-format.md, "What the recorder did not see"): the recorder (``me:``) sees
        their own turns, so neither the guess and revelation of one of their own psychics
        (MY-10, MY-12) nor their own vote (MY-20) is ever unseen; the ghost, as the
        recorder, sees every guess placed and reveals every outcome (MY-12), so no guess
        and no revelation is unseen in the ghost's record (a vote may be: it is a
        psychic player's).  A spectator's record (no ``me:``) may leave anyone's unseen."""
        r, me = self.roster, self.recorder
        if me is None:
            return
        reveal = isinstance(st.event, Reveal)
        owner = r.owner_of(p) if p in r.psychics else p
        epilogue = self.phase == "epilogue" and not reveal
        if me == r.ghost and epilogue:
            return
        if me != r.ghost and owner != me:
            return
        m = re.match(r"\s*reveal\s+", st.text, re.IGNORECASE) if reveal else None
        at = m.end() if m else 0           # the column on the name
        ps = (p,) if p in r.psychics else r.psychics_of(p)
        whose = p if p == owner else f"{p} ({me}'s psychic)"
        if p not in r.psychics:
            whose = f"{p}'s psychics ({' and '.join(ps)})"
        if me == r.ghost:
            who = (f"{me} is the recorder (me: {me}), the ghost, who sees every guess placed "
                   "and reveals every outcome (MY-12)")
        else:
            who = f"{me} is the recorder (me: {me}), who sees their own turns"
        if epilogue:
            what, write, rule = (f"{owner}'s vote (MY-20) is never one not seen",
                                 f"'{owner} votes N'", "MY-20")
        elif reveal:
            what, write, rule = (f"the outcome of the guess of {whose} is never one not seen",
                                 f"'reveal {p}: right' or 'reveal {p}: wrong'", "MY-12")
        else:
            what, write, rule = (f"the guess of {whose} this hour and its outcome are never "
                                 "ones not seen", f"'{ps[0]} guesses <card>: right' or 'wrong'",
                                 "MY-10")
        raise RuleError(f"{who}: {what}; write {write}", rule=rule, text=st.text, line=st.line,
                        offset=at if at > 0 else None)

    def _state_now(self) -> State:
        if self._before is None:
            self._before = self.state()
        return self._before

    def _outcomes(self, g: Guess, among: tuple[int, ...] | None, st) -> list["Play"]:
        """The copies for an unseen outcome of ``g`` (``among``: its card unseen too)."""
        play = self.clone()
        play._resolve(g, False, st.line, among=among or ())
        out = [play]                # wrong first: the first filling changes no stage
        taken = self.in_sleeves(g.kind)
        rights = [g.card] if among is None else list(among)
        for c in rights:
            if c in taken:
                continue            # MY-10: at most one psychic is right on a card
            play = self.clone()
            play._resolve(Guess(g.psychic, g.kind, c), True, st.line)
            out.append(play)
        return out

    def _turn(self, ev: TurnIs, st, _err) -> None:
        """``turn: P``: P may take a turn now (no turn order in Mysterium: a check)."""
        r, p = self.roster, ev.player
        at = st.text.find(":") + 1
        at += len(st.text[at:]) - len(st.text[at:].lstrip())

        def err(msg: str, rule: str) -> RuleError:     # the column on the name
            return RuleError(msg, rule=rule, text=st.text, line=st.line, offset=at or None)

        if p == r.ghost or self.phase == "setup":
            return
        if self.phase == "epilogue":
            voter = r.owner_of(p) if p in r.psychics else p
            if voter in self.votes:
                raise err(f"{voter} has voted already (group {self.votes[voter]}): no turn is "
                          "left in the epilogue", "MY-20")
            return
        ps = (p,) if p in r.psychics else r.psychics_of(p)
        if all(self.stage[q] >= 3 for q in ps):
            raise err(f"{p} has finished phase 1: no turn is left until the epilogue's vote",
                      "MY-13")
        if not any(self.stage[q] < 3 and (q not in self.guessed or self.hour_complete())
                   for q in ps):
            q = next(q for q in ps if q in self.guessed)
            raise err(f"{q} guessed on line {self.guessed[q]} this hour: one guess per psychic "
                      f"per hour, the next in hour {self.hour + 1}", "MY-10")

    def _table(self, ev: TableCards, st, err) -> None:
        s = self.roster.setup
        if self.phase != "setup":
            raise err("the psychic cards are laid out at setup, before 'hour 1'", "MY-4")
        if ev.kind in self.table:
            raise err(f"the {ev.kind} cards are on the table already", "MY-4")
        if len(set(ev.cards)) != len(ev.cards):
            raise err("a card is listed twice (each psychic card exists once)", "MY-2")
        if len(ev.cards) != s.cards_per_kind:
            raise err(f"{s.players} players on {s.difficulty} lay out {s.cards_per_kind} "
                      f"{ev.kind} cards, not {len(ev.cards)}", "MY-4")
        self.table[ev.kind] = tuple(ev.cards)

    def _secret(self, ev: Secret, st, err) -> None:
        kinds = [k for k, _ in ev.cards]
        if len(set(kinds)) != len(kinds):
            raise err("a psychic has one secret card of each kind", "MY-5")
        for kind, n in ev.cards:
            if kind not in self.table:
                raise err(f"the ghost deals from the cards on the table: list 'table {kind}:' "
                          "first", "MY-5")
            if n not in self.table[kind]:
                raise err(f"{card_name(kind, n)} is not on the table", "MY-5")
            old = self.secrets.get((ev.psychic, kind))
            if old and old[0] != n:
                raise err(f"{ev.psychic}'s secret {kind} was given as {old[0]} on line "
                          f"{old[1]}", "MY-5")
            for (p, k), (c, line) in self.secrets.items():
                if k == kind and c == n and p != ev.psychic:
                    raise err(f"no two psychics share a card: {card_name(kind, n)} is "
                              f"{p}'s (line {line})", "MY-5")
        for kind, n in ev.cards:
            if (ev.psychic, kind) not in self.secrets:
                self.secrets[(ev.psychic, kind)] = (n, st.line)
                self.facts.append(Fact(kind, ev.psychic, n, True, st.line, "secret"))

    def _hour(self, ev: Hour, st, err) -> None:
        h = ev.number
        if self.phase == "epilogue":
            raise err("every psychic has finished phase 1: the clock has stopped", "MY-16")
        if h > LAST_HOUR:
            raise err("the clock has 7 hours; after hour 7 the game ends", "MY-15")
        if h != self.hour + 1:
            raise err(f"the clock advances one hour at a time: hour {self.hour + 1} comes next",
                      "MY-15")
        if h == 1:
            missing = [k for k in KINDS if k not in self.table]
            if missing:
                raise err("lay out the psychic cards first: " + ", ".join(
                    f"'table {k}: ...'" for k in missing), "MY-4")
        elif not self.hour_complete():
            late = [p for p in self.roster.psychics if p in self.active and p not in self.guessed]
            if late:
                raise err("exactly one guess per psychic per hour: still to guess in hour "
                          f"{self.hour}: " + ", ".join(late), "MY-10")
            unrevealed = [p for p in self.active if p not in self.revealed]
            raise err(f"reveal the guesses of hour {self.hour} first: "
                      + ", ".join(sorted(unrevealed)), "MY-12")
        self.hour = h
        self.phase = "investigation"
        self.active = {p for p in self.roster.psychics if self.stage[p] < 3}
        self.guessed, self.pending, self.revealed, self.given = {}, {}, set(), {}
        self.timer = False
        self.crows_hour = 0
        refresh = 4 if self.roster.options.token_refresh == "start-of-hour-4" else 5
        if h == refresh:  # MY-14, A6
            for p in self.tokens_used:
                self.tokens_used[p] = 0

    def _visions(self, ev: Visions, st, err) -> None:
        p = ev.psychic
        self._verify(verify_visions, st, p, ev.count)
        self.given[p] = ev.count
        self.visions_logged += 1
        self.ghost_hand -= ev.count
        self.held[p] += ev.count
        self._draw(ev.count)

    def _crow(self, ev: Crow, st, err) -> None:
        self._verify(verify_crow, st, ev.count)
        n = self.ghost_hand if ev.count is None else ev.count
        self.crows_used += 1
        self.crows_hour += 1
        self.ghost_hand -= n
        self.discard += n
        self._draw(n)

    def _guess(self, ev: Guess, st, err) -> None:
        p = ev.psychic
        self._verify(verify_guess, st, p, ev.kind, ev.card)
        self.timer = True
        self.guessed[p] = st.line
        if ev.right is None:
            self.pending[p] = ev
        else:
            self._resolve(ev, ev.right, st.line, st)

    def _clairvoyance(self, ev: Clairvoyance, st, err) -> None:
        v, t = ev.voter, ev.target
        self._verify(verify_clairvoyance, st, v, t)
        self.timer = True
        self.tokens_used[v] += 1
        self.token_votes.append(TokenVote(self.hour, v, t, ev.agree, st.line))

    def _resolve(self, g: Guess, right: bool, line: int, st=None, *,
                 among: tuple[int, ...] = ()) -> None:
        """MY-12: the revelation of ``g`` (from statement ``st``: a guess with its outcome,
        or a ``reveal``; ``among``: a wrong guess on one of these cards, not seen which)."""
        p, kind = g.psychic, g.kind
        owner = self.in_sleeves(kind).get(g.card) if right else None
        if owner is not None and owner != p and st is not None:
            # MY-10: several psychics may choose one card, at most one of them is right;
            # the first right one took it into their sleeve (MY-12): one card, two places
            raise RuleError(f"{card_name(kind, g.card)} went into {owner}'s sleeve in hour "
                            f"{self.found_hour[(owner, kind)]}: at most one psychic is right "
                            "on a card", rule="MY-10, MY-12", text=st.text, line=st.line,
                            offset=_outcome_offset(st.text, g.card))
        self.pending.pop(p, None)
        self.revealed.add(p)
        self.facts.append(Fact(kind, p, g.card, right, line, "guess", among))
        for tv in self.token_votes:
            if tv.hour == self.hour and tv.target == p and tv.scored is None:
                tv.scored = tv.agree == right
                if tv.scored:
                    self.score[tv.voter] += 1
        if right:
            self.sleeve[p][kind] = g.card
            self.found_hour[(p, kind)] = self.hour
            self.discard += self.held[p]
            self.held[p] = 0
            self.stage[p] += 1
            if self.stage[p] == 3:  # MY-13, A7
                self.finished_hour[p] = self.hour
                early = (LAST_HOUR if self.roster.options.early_bonus == "7-h"
                         else LAST_HOUR + 1) - self.hour
                self.bonus[p] += early
                self.score[p] += early
        else:
            if not among:
                self.wrong[p][kind].append(g.card)
            if self.roster.options.wrong_guess == "reset":  # A3 alternative (the seed)
                self.stage[p] = 0
                self.sleeve[p] = {}
        if self.all_done():
            self.phase = "epilogue"
            self.crows_hour = 0
        elif self.hour == LAST_HOUR and self.hour_complete():
            self.phase = "over"
            self.outcome = "lost"
            self.outcome_rule = "MY-15"

    def _group(self, ev: Group, st, err) -> None:
        r = self.roster
        if self.votes:
            raise err("the groups are numbered before the vote", "MY-16")
        if not 1 <= ev.number <= r.n_groups:
            raise err(f"the groups are numbered 1-{r.n_groups}", "MY-16")
        if ev.number in self.groups:
            raise err(f"group {ev.number} is numbered already", "MY-16")
        if ev.psychic is not None:
            if any(g.psychic == ev.psychic for g in self.groups.values()):
                raise err(f"{ev.psychic}'s group is numbered already", "MY-16")
        else:
            if r.setup.players != 2:
                raise err("random groups of discarded cards are added only with 2 players; "
                          "name the psychic whose group this is", "MY-16")
            if sorted(k for k, _ in ev.cards) != sorted(KINDS):
                raise err("a group is one character, one location and one object", "MY-16")
            for kind, n in ev.cards:
                if n in self.in_sleeves(kind):
                    raise err(f"{card_name(kind, n)} is in a sleeve, not a discarded card",
                              "MY-16")
                for other in self.groups.values():
                    if (kind, n) in other.cards:
                        raise err(f"{card_name(kind, n)} is in group {other.number} already: "
                                  "each psychic card exists once, so the random groups share "
                                  "no card", "MY-2, MY-16")
        self.groups[ev.number] = ev

    def _finalize_groups(self, err) -> None:
        if self.groups_final:
            return
        if self.groups:
            named = {g.psychic for g in self.groups.values() if g.psychic}
            missing = [p for p in self.roster.psychics if p not in named]
            if missing:
                raise err("number every psychic's group before the vote: "
                          + ", ".join(missing), "MY-16")
        self.groups_final = True

    def _vote(self, ev: Vote, st, err) -> None:
        r = self.roster
        self._finalize_groups(err)
        if ev.voter in self.votes:
            raise err(f"{ev.voter} has voted already (group {self.votes[ev.voter]})", "MY-20")
        if not 1 <= ev.group <= r.n_groups:
            raise err(f"the groups are numbered 1-{r.n_groups}", "MY-20")
        if r.setup.players == 3 and self.votes:
            other = next(iter(self.votes.values()))
            if other != ev.group:
                raise err("with 3 players the vote is open and the two players agree on one "
                          f"group (group {other})", "MY-20")
        self.votes[ev.voter] = ev.group

    def _verdict(self, ev: Verdict, st, err) -> None:
        c = self.count()
        if not c.complete:
            raise err("the count comes after every vote", "MY-21")
        if self.verdict_stated is not None:
            raise err("the verdict is given already", "MY-21")
        if c.verdict is not None and c.verdict != ev.group:
            raise err(f"the count gives group {c.verdict} ({c.rule})", "MY-21")
        if c.verdict is None and ev.group not in c.pending:
            raise err("the eldest decides between groups " + ", ".join(map(str, c.pending)),
                      "MY-21")
        self.verdict_stated = ev.group

    def _culprit(self, ev: Culprit, st, err) -> None:
        r = self.roster
        c = self.count()
        if not c.complete:
            raise err("the culprit is revealed after the vote", "MY-22")
        if not 1 <= ev.group <= r.n_groups:
            raise err(f"the groups are numbered 1-{r.n_groups}", "MY-22")
        verdict = self.verdict()
        if verdict is None:
            if r.eldest is None:
                raise err("the verdict is still tied: name the eldest ('eldest:' in the "
                          "header) or write the group chosen with 'verdict: N'", "MY-21")
            raise err(f"the verdict is still tied: the eldest, {r.eldest}, chooses among "
                      "groups " + ", ".join(map(str, c.pending))
                      + " (A11); write it with 'verdict: N'", "MY-21")
        self.culprit = ev.group
        self.phase = "over"
        self.outcome = "won" if ev.group == verdict else "lost"
        self.outcome_rule = "MY-22"


def _outcome_offset(text: str, card: int) -> int | None:
    """Where the error of a right outcome on a card already taken points in ``text``: the
    card number in a guess (``Dev guesses character 7: right``), else the outcome word of a
    ``reveal`` (the statement's text as written, comment stripped)."""

    head, colon, tail = text.partition(":")
    if text.lstrip().lower().startswith("reveal"):
        m = re.search(r"\S", tail)
        return len(head) + 1 + m.start() if colon and m else None
    found = [m.start() for m in re.finditer(rf"(?<![0-9]){card}(?![0-9])", head)]
    return found[-1] if found and found[-1] > 0 else None


def _canonical(v) -> str:
    """``repr`` with sets sorted (two equal sets may list their items in different orders)."""
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(_canonical(x) for x in v)) + "}"
    if isinstance(v, dict):
        return "{" + ", ".join(sorted(f"{_canonical(k)}: {_canonical(x)}"
                                      for k, x in v.items())) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_canonical(x) for x in v) + "]"
    return repr(v)


class TooManyFillings(Exception):
    """More fillings of the unseen statements than :func:`replay_all` was allowed."""


def replay_all(record, roster: Roster | None = None, upto: int | None = None, *,
               merge: bool = True, cap: int | None = None) -> list[Play]:
    """Every play the record (all, or the first ``upto`` statements) may have been, under
    the rules: one for a record that says everything, one per legal filling of its unseen
    statements otherwise (``merge``: plays that accept the same statements from here on
    kept once, their facts aside: enough for the rules, not for the deduction).  When no
    filling is legal, the RuleError of the first.  ``cap``: raise :class:`TooManyFillings`
    beyond that many plays."""
    plays = [Play(roster or roster_of(record.header), recorder=record.header.me)]
    for st in record.statements if upto is None else record.statements[:upto]:
        nxt: list[Play] = []
        first: RuleError | None = None
        for play in plays:
            try:
                nxt.extend(play.branch(st))
            except RuleError as e:
                first = first or e
        if not nxt:
            assert first is not None
            raise first
        if merge and len(nxt) > 1:
            seen: set[tuple] = set()
            kept = []
            for p in nxt:
                k = p.key()
                if k not in seen:
                    seen.add(k)
                    kept.append(p)
            nxt = kept
        if cap is not None and len(nxt) > cap:
            raise TooManyFillings(len(nxt))
        plays = nxt
    return plays


#: the statements :func:`replay` may apply in its search for a legal filling of a record's
#: unseen statements before it gives up with the error of the filling that went furthest
SEARCH_BUDGET = 200_000


def replay(record, roster: Roster | None = None, upto: int | None = None) -> Play:
    """Replay the statements of ``record`` (all, or the first ``upto``) under the rules: the
    :class:`Play` the inference reads.  With unseen statements, the first legal filling's
    (depth first, wrong before right, the cards in the table's order; a state already
    refused at a statement is not tried again): :func:`replay_all` gives them all.  When
    no filling is legal (or none is found within :data:`SEARCH_BUDGET` statements), the
    RuleError of the filling that went furthest (the first of those): a line just added that
    no filling takes is named, not an earlier line that only some fillings refuse."""
    statements = list(record.statements if upto is None else record.statements[:upto])
    start = Play(roster or roster_of(record.header), recorder=record.header.me)
    furthest: list[tuple[int, RuleError]] = []
    refused: set[tuple] = set()
    work = [0]

    def walk(play: Play, i: int) -> Play | None:
        while i < len(statements):
            st = statements[i]
            work[0] += 1
            try:
                options = play.branch(st)
            except RuleError as e:
                if not furthest or i > furthest[0][0]:
                    furthest[:] = [(i, e)]
                return None
            i += 1
            if len(options) > 1:
                for option in options:
                    key = (i, option.key())
                    if key in refused:
                        continue
                    done = walk(option, i)
                    if done is not None:
                        return done
                    refused.add(key)
                    if work[0] > SEARCH_BUDGET:
                        break
                return None
            play = options[0]
        return play

    done = walk(start, 0)
    if done is None:
        raise furthest[0][1]
    return done


def run(record, upto: int | None = None) -> State:
    """The state after the record's first ``upto`` statements (all by default), each checked
    against the rules: raise :class:`RuleError` with the line of the first that breaks one."""
    return replay(record, upto=upto).state()
