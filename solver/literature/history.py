"""Literature with unseen events: the whole history as one CP-SAT model.

Used when a record says the recorder missed something (``Ben asks Cleo ?: yes``, ``Ben
asks Cleo 5H: ?``, ``Ben: ?``; record-format.md, "What the recorder did not see").  Then
a card's place is no longer "where it was dealt, unless seen to move": an unseen move
takes *some* card, chosen among everything the rules allow.  So the model follows every
card through time: the deal is one boolean per (card, player); a public move sets the
card's place; an unseen move is a choice variable (which card, which opponent, which
answer) whose card's place after the move is a new variable.  Every statement adds its
constraints at its time, guarded by its line's literal (for minimal conflicts and ``why``):

* a question: LIT-6(a)-(d) at that time, "yes" = the card was with the target (LIT-7),
  "no" = no copy was (LIT-8); with the card or the answer unheard, the same for some
  card / either answer; ``Ben: ?`` for some opponent, some card, either answer;
* whose turn it is, where the record leaves it open (``turn: P``, the next actor, LIT-14);
* ``holds``, ``has N cards`` (LIT-13(b)), claims and their shown holders (O5).

A line out of force (a trial of a conflict's or an explanation's shrink) adds none of its
constraints; one with an unseen part is then either as stated or not there at all
(:meth:`_Build.dropped`), so a conflict is minimal by deletion.

Certainties are complete: a (card, player) pair is possible exactly when CP-SAT finds a
whole rule-following history consistent with the record that ends with the card there.
Probabilities are labelled estimates (see docs/literature.md).

>>> from solver.records import parse_record
>>> rec = parse_record('''game: literature
... players: Ana Ben Cleo Dev Eli Fay
... me: Ana
... Ana holds: 2H 3H 4H 6H 7H 9S JC QD
... Ana asks Ben 10S: no
... Ben asks Cleo 10H: ?
... Ben asks Eli 9D: no
... ''')
>>> from solver.literature.inference import build, backbone
>>> sorted(backbone(build(rec, "Ana")).possible["10H"])   # Ben kept the turn: he got 10H
['Ben']
"""
from __future__ import annotations

import functools
import math
import random
import threading
from collections import Counter, OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Hashable

from solver.errors import BudgetError
from solver.model import Backbone, cp_model, light_presolve
from solver.model.budget import TimeUp, cp_solver
from solver.literature.engine import OUT, Play, recorder_of
from solver.literature.views import hands_seen
from solver.literature.events import (Ask, Challenge, Claim, HandCount, Holds, PassClaim,
                                      PassTurn, Shown, TurnIs, UnheardAnswer, UnheardCard,
                                      Unseen)

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import IntVar

#: deterministic seconds of a covering step of the backbone (every better history found
#: by then is used) ...
COVER_STEP = 0.1
#: ... and of one with the whole presolve after a step that found none; after one of these
#: that found none, the pairs left are proved card by card
GROUP_STEP = 2.0
#: seconds of each further history from a random objective (:meth:`HistoryModel.more_samples`)
SAMPLE_STEP = 0.05
#: ... and of each search that keeps every better history it finds
EVERY_STEP = 0.1
#: of :meth:`HistoryModel.settle`'s work, at most this for its first search ...
SETTLE_COVER = 0.05
#: ... and this for each search of its proof of the certainties
PROOF_STEP = 0.1
#: the most for stage 1's search for a history from the statement before's
#: (:meth:`HistoryModel.one_history`), before a search without it: a safety net (one
#: that needs more would not be quicker from scratch)
HINTED_STEP = 0.5
#: deterministic seconds of a search of :meth:`HistoryModel.possible_each` for a history
#: with one of several ends (the team events no course of the chain allowed): past it, each
#: is proved alone (a disjunction of sums can be far harder to refute than each sum)
EACH_LIMIT = 0.5
#: the histories of a statement whose ends the next statement's stage 1 follows
#: (:meth:`_Build.extension`; :func:`_covering` chooses them)
KEPT_ENDS = 24
#: what :class:`Work` charges each CP-SAT search besides its deterministic time, per variable
#: of the model: its set-up and presolve, which that time leaves out (about 0.03 s for the
#: 2 000 variables of an 8-player record of 60 statements, 0.006 s for a 4-player one)
SOLVE_WORK = 1.5e-5


#: what :meth:`HistoryModel.settle` proved, by the ranks of its proof it finished
_PROVED = {0: "some", 1: "some", 2: "own-and-claims", 3: "certain"}


#: the records whose certainties :func:`remember` keeps (the most recent first out)
CARRY_RECORDS = 8
_SETTLED: "OrderedDict[tuple, dict]" = OrderedDict()
#: what is kept between statements is shared by the threads of a process (serve's
#: requests): one at a time reads or changes it
_KEPT = threading.Lock()


def _events(record) -> tuple:
    """The record's statements as (line, event) pairs: a kept model's tables are keyed by
    line, so a record whose statements moved (a comment line added above them) is another
    record for them."""
    return tuple((st.line, st.event) for st in record.statements)


def _key(record, view) -> tuple:
    """What is kept for ``record`` seen by ``view`` is kept under: its header, the view
    with the hands it knows (:func:`~solver.literature.views.hands_seen`: the ``holds``
    line that completes a record leaves its ``me:`` view only its own hand, so nothing the
    partial record before it proved carries over), its events with their lines."""
    return (record.header, (view, hands_seen(record, view)), _events(record))


def remember(record, view, certain: dict) -> None:
    """Keep ``certain`` (card key -> place: every certainty of ``record`` seen by ``view``,
    as :meth:`HistoryModel.settle` proved them) for :func:`carried`."""
    key = _key(record, view)
    with _KEPT:
        _SETTLED[key] = dict(certain)
        _SETTLED.move_to_end(key)
        while len(_SETTLED) > CARRY_RECORDS:
            _SETTLED.popitem(last=False)


#: the whole models kept for the next statement (:meth:`HistoryModel._built`)
BUILT_RECORDS = 2
_BUILT: "OrderedDict[tuple, _Build]" = OrderedDict()


def _one_copy(table) -> bool:
    """Every card has one copy: nothing is kept between statements with the jokers' two
    copies (``deck=54-jokers``), whose keys are not kept apart."""
    return all(len(ks) == 1 for ks in table.card_keys.values())


def _longest(kept: dict, key: tuple, added_ok=lambda added: True):
    """(the events, the value) of the entry of ``kept`` whose record ``key``'s record
    extends (the same header and view, its events a prefix of these), the longest one
    whose added events ``added_ok`` accepts; else None."""
    head, now = key[:2], key[2]
    with _KEPT:
        items = list(kept.items())
    best = None
    for (h, v, evs), value in items:
        if (h, v) == head and len(evs) <= len(now) and now[:len(evs)] == evs and \
                added_ok(now[len(evs):]) and (best is None or len(evs) > len(best[0])):
            best = (evs, value)
    return best


def _extends(key: tuple, table) -> "_Build | None":
    """The kept model (:data:`_BUILT`) of the longest record that ``key``'s record extends
    by lines other than ``shown`` (a claim before its shown line was taken as claimed),
    where every card has one copy; else None."""
    if not _one_copy(table):
        return None
    got = _longest(_BUILT, key, lambda added: not any(isinstance(e, Shown) for _, e in added))
    return got[1] if got else None


def settled_before(record, view) -> dict | None:
    """Every certainty of this very record seen by ``view`` when :func:`remember` kept them
    (card key -> place; what it keeps is always complete), else ``None``: ``play``'s undo,
    the same version analysed again."""
    with _KEPT:
        return _SETTLED.get(_key(record, view))


def forget() -> tuple[dict, dict]:
    """Drop every certainty :func:`remember` kept, and the models kept
    (:meth:`HistoryModel._built`); returns both (for :func:`restore`)."""
    with _KEPT:
        kept = dict(_SETTLED), dict(_BUILT)
        _SETTLED.clear()
        _BUILT.clear()
    return kept


def restore(kept: tuple[dict, dict]) -> None:
    """Keep again what :func:`forget` returned, and nothing else: the next statement goes
    on as if nothing had been analysed in between."""
    with _KEPT:
        _SETTLED.clear()
        _SETTLED.update(kept[0])
        _BUILT.clear()
        _BUILT.update(kept[1])


def carried(record, view, table) -> dict:
    """The certainties of ``record`` seen by ``view`` that follow from those kept
    (:func:`remember`) of a record it extends (the longest one): card key -> place.

    Every history of the longer record is a history of the shorter one followed by the
    statements added, so a card that none of them can move is where it certainly was:

    * a seen question moves only the card it names (LIT-7; V11 a surrender the other way),
      and a ``no`` nothing (LIT-8);
    * ``Ben asks Cleo ?: yes`` moves a card from Cleo (LIT-7; a ``no`` moves nothing,
      LIT-8); ``Ben asks Cleo 5H: ?`` at most 5H; ``Ben: ?`` a card between Ben and an
      opponent other than the recorder of a partial record (LIT-6(a), either way under
      V11; a question asked of the recorder is one they heard), so only the places of
      Ben's teammates, the recorder and ``out`` stay certain;
    * a claim's cards leave play (fixed, not carried); hands, counts, turns, passes and
      challenges move nothing.

    Nothing is carried with the jokers' two copies (``deck=54-jokers``).

    A ``shown`` line is not a restriction (the record before it took the claim as shown
    as claimed), nor is anything else: then nothing is carried.

    >>> from solver.records import parse_record
    >>> head = "game: literature\\nplayers: Ana Ben Cleo Dev\\nme: Ana\\n"
    >>> r1 = parse_record(head + "Ana asks Ben 9S: no\\n")
    >>> remember(r1, "Ana", {"2H": "Ana", "3H": "Dev", "4H": "Cleo", "9S": "Cleo"})
    >>> r2 = parse_record(head + "Ana asks Ben 9S: no\\nBen asks Ana 9S: yes\\nBen: ?\\n")
    >>> from solver.literature.engine import Play
    >>> sorted(carried(r2, "Ana", Play.of(r2).table).items())
    [('2H', 'Ana'), ('3H', 'Dev')]
    """
    now = _events(record)
    best = _longest(_SETTLED, _key(record, view)) if _one_copy(table) else None
    if best is None:
        return {}
    evs, certain = best
    out = dict(certain)
    for _line, ev in now[len(evs):]:
        if isinstance(ev, Ask) and ev.answer == "no":
            continue
        if isinstance(ev, (Ask, UnheardAnswer)):
            for k in table.card_keys[ev.card]:
                out.pop(k, None)
        elif isinstance(ev, UnheardCard):
            if ev.answer == "yes":
                out = {k: p for k, p in out.items() if p != ev.target}
        elif isinstance(ev, Unseen):
            stay = set(table.team_of(ev.player)) - {ev.player} | {recorder_of(record)}
            out = {k: p for k, p in out.items() if p in stay or p == OUT}
        elif not isinstance(ev, (Holds, HandCount, TurnIs, PassTurn, PassClaim, Challenge,
                                 Claim)):
            return {}
    return out


class Work:
    """A budget of CP-SAT work, in its deterministic seconds (not the clock's: the same
    record gives the same histories on any machine and under any load).  Each search may
    take what is left and is charged its deterministic time plus :data:`SOLVE_WORK` per
    variable of its model.

    >>> w = Work(0.5); w.left
    0.5
    """

    def __init__(self, units: float):
        self.left = float(units)

    def spend(self, solver, variables: int) -> None:
        """Charge the search ``solver`` just made in a model of ``variables`` variables."""
        self.left -= solver.deterministic_time + SOLVE_WORK * variables


def _solve(solver, model, callback=None):
    """``solver.Solve`` (a :func:`~solver.model.budget.cp_solver`), where an UNKNOWN that
    its deterministic limit caused stays UNKNOWN: under a deadline nearer than its own
    limit, the capped solver takes every UNKNOWN for the deadline's doing (TimeUp).  The
    deterministic time the search spent says which limit stopped it (its wall time does
    not: it leaves out the model's loading, which a loaded machine can make a large part
    of the time the deadline gave it)."""
    from solver.model.budget import current

    try:
        return solver.Solve(model, callback) if callback is not None else solver.Solve(model)
    except TimeUp:
        d = current()
        limit = solver.parameters.max_deterministic_time
        if d is None or d.cancelled or d.expired() or \
                solver.response_proto.deterministic_time < 0.95 * limit:
            raise
        return cp_model.UNKNOWN


def _const(term) -> bool:
    return isinstance(term, int)


def _is(term, value: int) -> bool:
    """``term`` is the constant ``value`` (CP-SAT variables overload ``==``)."""
    return isinstance(term, int) and term == value


class _Build:
    """One CP-SAT model of the history seen by a view."""

    #: the rules left out of this model (:meth:`cons`; :meth:`HistoryModel.conflict_rule`)
    off: frozenset = frozenset()

    def __init__(self, hm: "HistoryModel", enforce: bool, only=None):
        self.hm = hm
        self.t = t = hm.table
        self.play = hm.play
        self.m = m = cp_model.CpModel()
        self.enforce = enforce
        self.only = only           # the lines in force (None: all)
        self.used: set[int] = set()
        self.lits: dict[int, IntVar] = {}
        self.locs = list(t.players) + [OUT]
        self.n = 0
        #: the statements in the model (:meth:`continued` adds the rest of a longer record)
        self.upto = 0
        #: key -> location -> whether the card is there: a Boolean variable or a constant
        self.pos: dict[str, dict[str, IntVar | int]] = {}
        for k in t.keys:
            row = {p: m.NewBoolVar(f"d{k}_{p}") for p in t.players}
            m.AddExactlyOne(row.values())
            row[OUT] = 0
            self.pos[k] = row
        for p in t.players:
            m.Add(sum(self.pos[k][p] for k in t.keys) == t.sizes[p])
        self.deal = {k: dict(row) for k, row in self.pos.items()}
        #: line -> how to read the unseen choices back (see :meth:`HistoryModel.witness`)
        self.choices: dict[int, tuple] = {}
        #: 'P has N cards' line -> (P, N, the terms of P's count then): for conflict sentences
        self.count_at: dict[int, tuple] = {}
        #: a question's line -> (asker, card, the asker's copies of the half-suit's other
        #: cards then, of the card asked): LIT-6(c), (d) in conflict sentences
        self.asker_at: dict[int, tuple] = {}
        #: line -> the rules its constraints state (:meth:`cons`), for the rule a
        #: contradiction cites (:meth:`HistoryModel.conflict_rule`)
        self.rules_at: dict[int, list[str]] = {}
        self.turn = {p: int(p == t.first) for p in t.players}
        #: the last history :meth:`HistoryModel.one_history` found in this model (every
        #: variable's value, by index): the next statement's model starts its search from
        #: it (:meth:`continued` keeps the variables of this one, in the same order)
        self.hint: list[int] | None = None
        #: where each history found in this model ends (:meth:`end`: stage 1's witnesses,
        #: the backbone's), and where those of the model this one continues end, with
        #: that model's statements (:meth:`continued`): the next statement's stage 1
        #: follows them with the lines added (:meth:`extension`)
        self.ends: list[tuple[dict, dict]] = []
        self.before: list[tuple[dict, dict]] = []
        self.since = 0
        self._of_play(hm)
        self.halves_keys = {h.name: hm.play.keys_of_half(h.name) for h in t.halves}

    def _of_play(self, hm: "HistoryModel") -> None:
        """What the model reads of the record's play: each claim's result, the cards
        each line puts out of play."""
        self.results = {r.line: r for r in hm.play.results}
        self.out_at: dict[int, list[str]] = {}
        for mv in hm.play.moves:
            if mv.dst == OUT:
                self.out_at.setdefault(mv.line, []).append(mv.key)

    # ----- helpers ---------------------------------------------------------------------------
    def var(self, name="v"):
        self.n += 1
        return self.m.NewBoolVar(f"{name}{self.n}")

    def lit(self, line):
        if not self.enforce or line is None:
            return None
        v = self.lits.get(line)
        if v is None:
            v = self.lits[line] = self.m.NewBoolVar(f"s{line}")
        return v

    def cons(self, terms, lo, hi, line, also=(), rule=None):
        """``lo <= sum(terms) <= hi`` when the line (and every literal of ``also``) holds;
        ``rule``, the rule it states (noted by line in :attr:`rules_at`; left out of a
        model built without it, :attr:`off`: which rule a contradiction needs)."""
        if line is not None:
            self.used.add(line)
            if rule is not None:
                self.rules_at.setdefault(line, []).append(rule)
            if self.only is not None and line not in self.only:
                return
        if rule is not None and rule in self.off:
            return
        enf = []
        for a in also:
            if _const(a):
                if not a:
                    return
                continue
            enf.append(a)
        L = self.lit(line)
        if L is not None:
            enf.append(L)
        const = sum(x for x in terms if _const(x))
        var = [x for x in terms if not _const(x)]
        if not var:
            if lo <= const <= hi:
                return
            self.m.AddBoolOr([e.Not() for e in enf])
            return
        c = self.m.AddLinearConstraint(sum(var), lo - const, hi - const)
        if enf:
            c.OnlyEnforceIf(enf)

    def lin(self, pairs, lo, hi, line):
        """``lo <= sum(coef * term) <= hi`` when the line holds (redundant count links)."""
        if line is not None:
            self.used.add(line)
            if self.only is not None and line not in self.only:
                return
        const = sum(c * x for c, x in pairs if _const(x))
        var = [(c, x) for c, x in pairs if not _const(x)]
        if not var:
            return
        con = self.m.AddLinearConstraint(sum(c * x for c, x in var), lo - const, hi - const)
        L = self.lit(line)
        if L is not None:
            con.OnlyEnforceIf(L)

    def moved_counts(self, old, src_ys, dst, line):
        """Redundant: each player's count after a move (the solver's LP sees the counting).
        ``old``: the rows before; ``src_ys``: source -> the literals of the cards it gave."""
        gone = [y for ys in src_ys.values() for y in ys]
        for p, ys in src_ys.items():
            pairs = [(1, self.pos[k][p]) for k in self.t.keys] + \
                [(-1, old[k][p]) for k in self.t.keys] + [(1, y) for y in ys]
            self.lin(pairs, 0, 0, line)
        pairs = [(1, self.pos[k][dst]) for k in self.t.keys] + \
            [(-1, old[k][dst]) for k in self.t.keys] + [(-1, y) for y in gone]
        self.lin(pairs, 0, 0, line)

    def at(self, keys, p):
        return [self.pos[k][p] for k in keys]

    def count(self, p):
        return [self.pos[k][p] for k in self.t.keys]

    def live(self, k) -> bool:
        return not _is(self.pos[k][OUT], 1)

    def could(self, k, p) -> bool:
        return not _is(self.pos[k][p], 0)

    def copies(self, card):
        return self.t.card_keys[card]

    def half_keys(self, card):
        return self.halves_keys[self.t.half_of[card].name]

    def set_const(self, k, dst):
        self.pos[k] = {l: int(l == dst) for l in self.locs}

    def move(self, ys: dict, dst: str):
        """Key k moves to ``dst`` exactly when ``ys[k]`` (from wherever it is)."""
        m = self.m
        for k, y in ys.items():
            row: dict[str, IntVar | int] = {}
            for l in self.locs:
                old = self.pos[k][l]
                if l == dst:
                    if _is(old, 1):
                        new = 1
                    elif _is(old, 0):
                        new = y
                    else:
                        new = self.var("p")
                        m.AddImplication(old, new)
                        m.AddImplication(y, new)
                        m.AddBoolOr([old, y, new.Not()])
                else:
                    if _is(old, 0):
                        new = 0
                    elif _is(old, 1):
                        new = self.var("p")
                        m.Add(new + y == 1)
                    else:
                        assert not isinstance(old, int)     # not a constant: a variable
                        new = self.var("p")
                        m.AddImplication(new, old)
                        m.AddBoolOr([new.Not(), y.Not()])
                        m.AddBoolOr([old.Not(), y, new])
                row[l] = new
            if sum(1 for v in row.values() if not _const(v)) > 1:
                self.m.AddExactlyOne([v for v in row.values() if not _const(v)]) \
                    if not any(_is(v, 1) for v in row.values()) else None
            self.pos[k] = row

    def choose(self, n, line, name, when=None):
        """``n`` choice literals, at most one true, exactly one when the line holds; with
        ``when`` (a literal, ``line`` None: :meth:`dropped`), exactly one when it holds and
        none when it does not."""
        vs = [self.var(name) for _ in range(n)]
        if vs:
            self.m.Add(sum(vs) <= 1)
        if when is None:
            self.cons(vs, 1, 1, line)
        else:
            self.cons(vs, 1, 1, None, (when,))
            self.cons(vs, 0, 0, None, (when.Not(),))
        return vs

    def surrender(self, z):
        """Under V11 an unseen question may have been for the asker's own card (surrendered):
        a literal for that (exclusive with "yes" ``z``) and its negation; else 0 and 1."""
        if self.t.options.own_card_ask != "surrender":
            return 0, 1
        sv, nsv = self.var("sv"), self.var("nsv")
        self.m.Add(sv + nsv == 1)
        self.m.Add(sv + z <= 1)
        return sv, nsv

    def need_turn(self, actor, line, ev_line=None, also=()):
        """The actor is on turn, where the record leaves the turn open."""
        log = self.play.turn_log.get(ev_line or line)
        if log is not None and not log[0]:
            self.cons([self.turn[actor]], 1, 1, line, also)

    def asker_rules(self, a, card, line, also=()):
        """LIT-6(c) and (d) for asking ``card`` now (d dropped under V12)."""
        self.cons(self.at(self.half_keys(card), a), 1, 10 ** 6, line, also, "LIT-6(c)")
        if self.t.options.own_card_ask != "bluff":
            ck = self.copies(card)
            self.cons(self.at(ck, a), 0, len(ck) - 1, line, also, "LIT-6(d)")

    def note_asker(self, a, card, line) -> None:
        """What the asker of ``card`` on ``line`` holds of its half-suit now, for
        :meth:`HistoryModel.conflict_reason` (kept whether or not the line is in force)."""
        ck = self.copies(card)
        self.asker_at[line] = (a, card, self.at([k for k in self.half_keys(card)
                                                 if k not in ck], a), self.at(ck, a))

    def names(self):
        """The card names still in play (some copy not out)."""
        return [c for c, ks in self.t.card_keys.items() if any(self.live(k) for k in ks)]

    # ----- the statements --------------------------------------------------------------------
    def run(self, record, hands: frozenset[str], start: int = 0):
        """Add the statements of ``record`` from the ``start``-th on (those before it are
        in the model already: :meth:`continued`); the ``holds`` lines of ``hands`` only
        (:func:`~solver.literature.views.hands_seen`)."""
        from solver.model.budget import check

        st = record.statements[start:]
        self.upto = len(record.statements)
        skip = set()
        for s in st:
            check("the model of the unseen events")     # a long record takes a while
            if s.line in skip:
                continue
            ev, line = s.event, s.line
            done = [line]
            if isinstance(ev, Holds):
                if ev.player in hands:
                    have = Counter(ev.cards)
                    for c, ks in self.t.card_keys.items():
                        self.cons(self.at(ks, ev.player), have[c], have[c], line, (), "LIT-4")
            elif isinstance(ev, Ask):
                self.ask(ev, line)
            elif isinstance(ev, Claim):
                r = self.results.get(line)
                sline = r.shown_line if r is not None else None
                if sline is not None:
                    skip.add(sline)
                    done.append(sline)
                self.claim(ev, r, line, sline)
            elif isinstance(ev, PassTurn):
                a, b = ev.player, ev.to
                self.need_turn(a, line)
                self.cons(self.count(a), 0, 0, line)
                self.cons(self.count(b), 1, 10 ** 6, line)
                if self.t.opponents(a, b):
                    team = self.t.team_of(a)
                    self.cons([x for p in team for x in self.count(p)], 0, 0, line)
            elif isinstance(ev, TurnIs):
                self.need_turn(ev.player, line)
            elif isinstance(ev, HandCount):
                self.count_at[line] = (ev.player, ev.count, self.count(ev.player))
                self.cons(self.count(ev.player), ev.count, ev.count, line, (), "O1")
            elif isinstance(ev, (UnheardCard, UnheardAnswer, Unseen)) and \
                    (self.enforce or self.only is not None and line not in self.only):
                self.dropped(ev, line)
            elif isinstance(ev, UnheardCard):
                self.unheard_card(ev, line)
            elif isinstance(ev, UnheardAnswer):
                self.unheard_answer(ev, line)
            elif isinstance(ev, Unseen):
                self.unseen_ask(ev, line)
            for ln in done:
                for k in self.out_at.get(ln, ()):
                    self.set_const(k, OUT)
            log = self.play.turn_log.get(line)
            if log is not None and log[2]:
                self.turn = {p: int(p == log[3]) for p in self.t.players}
            elif log is not None and log[0] and not isinstance(ev, (UnheardAnswer, Unseen)):
                # the turn became unknown otherwise (A3 opponents after unseen moves): any
                # player may have it (sound; the next statements say who)
                vs = [self.var("turn") for _ in self.t.players]
                self.m.AddExactlyOne(vs)
                self.turn = dict(zip(self.t.players, vs))

    def ask(self, ev: Ask, line):
        a, b, c = ev.asker, ev.target, ev.card
        ck = self.copies(c)
        self.need_turn(a, line)
        if ev.answer == "surrendered":          # V11: a gives c to b
            self.give(ck, a, b, line, "V11")
            return
        self.note_asker(a, c, line)
        self.asker_rules(a, c, line)
        self.cons(self.count(b), 1, 10 ** 6, line, (), "LIT-6(b)")
        if ev.answer == "yes":
            self.give(ck, b, a, line, "LIT-7")
        else:                                   # a "no": c is not in b's hand
            self.cons(self.at(ck, b), 0, 0, line, (), "O2")

    def give(self, ck, src, dst, line, rule=None):
        """A copy of a named card moves from ``src`` to ``dst`` (``rule``: LIT-7, V11)."""
        if len(ck) == 1:
            self.cons([self.pos[ck[0]][src]], 1, 1, line, (), rule)
            self.set_const(ck[0], dst)
            return
        cand = [k for k in ck if self.could(k, src)]
        ys = self.choose(len(cand), line, "c")
        for k, y in zip(cand, ys):
            self.cons([self.pos[k][src]], 1, 1, line, (y,), rule)
        old = dict(self.pos)
        self.move(dict(zip(cand, ys)), dst)
        self.moved_counts(old, {src: ys}, dst, line)

    def claim(self, ev: Claim, r, line, sline):
        t = self.t
        if r is None:
            return
        log = self.play.turn_log.get(line)
        if log is not None and not log[0] and r.kind in ("turn", "end-game") \
                and not t.options.claims_any_time:
            self.cons([self.turn[ev.claimant]], 1, 1, line)
        fline = sline if sline is not None else line
        shown: dict = {}
        for p, cs in r.shown:
            for c in cs:
                shown.setdefault(c, Counter())[p] += 1
        for c, holders in shown.items():
            for p, n in holders.items():
                self.cons(self.at(self.copies(c), p), n, n, fline)

    def unheard_card(self, ev: UnheardCard, line, when=None):
        """``Ben asks Cleo ?: yes`` (some card moved from Cleo to Ben) or ``: no``.  With
        ``when`` (a literal): only where it holds, else nothing moves (:meth:`dropped`)."""
        a, b = ev.asker, ev.target
        g, ln = ((), line) if when is None else ((when,), None)
        self.need_turn(a, ln, ev_line=line, also=g)
        self.cons(self.count(b), 1, 10 ** 6, ln, g)
        if ev.answer == "yes":
            cand = [k for k in self.t.keys if self.live(k) and self.could(k, b)]
            ys = self.choose(len(cand), ln, "u", when)
            if when is None:
                self.choices[line] = ("key", dict(zip(cand, ys)))
            for k, y in zip(cand, ys):
                self.cons([self.pos[k][b]], 1, 1, ln, (y,) + g)
                self.asker_rules(a, self.t.key_card[k], ln, (y,) + g)
            old = dict(self.pos)
            self.move(dict(zip(cand, ys)), a)
            self.moved_counts(old, {b: ys}, a, ln)
            return
        names = self.names()
        ws = self.choose(len(names), ln, "w", when)
        if when is None:
            self.choices[line] = ("name", dict(zip(names, ws)))
        for c, w in zip(names, ws):
            self.asker_rules(a, c, ln, (w,) + g)
            self.cons(self.at(self.copies(c), b), 0, 0, ln, (w,) + g)

    def unheard_answer(self, ev: UnheardAnswer, line, when=None):
        """``Ben asks Cleo 5H: ?``: either answer (under V11 a surrender too).  With ``when``
        (a literal): only where it holds, else nothing moves (:meth:`dropped`)."""
        a, b, c = ev.asker, ev.target, ev.card
        ck = self.copies(c)
        g, ln = ((), line) if when is None else ((when,), None)
        self.need_turn(a, ln, ev_line=line, also=g)
        self.cons(self.count(b), 1, 10 ** 6, ln, g)
        z = self.var("z")
        sv, nsv = self.surrender(z)
        if when is not None:        # nothing moves where the question did not happen
            self.m.AddImplication(z, when)
            if not _is(sv, 0):
                self.m.AddImplication(sv, when)
        if _is(sv, 0):              # not V11: the asker's rules hold whatever the answer
            self.note_asker(a, c, line)
        self.asker_rules(a, c, ln, (nsv,) + g)
        if when is None:
            self.choices[line] = ("answer", z, sv)
        cand = [k for k in ck if self.live(k) and self.could(k, b)]
        ys = [self.var("y") for _ in cand]
        self.m.Add(sum(ys) == z) if ys else self.m.Add(z == 0)
        for k, y in zip(cand, ys):
            self.cons([self.pos[k][b]], 1, 1, ln, (y,) + g)
        self.cons(self.at(ck, b), 0, 0, ln, (z.Not(), nsv) + g)
        old = dict(self.pos)
        self.move(dict(zip(cand, ys)), a)
        self.moved_counts(old, {b: ys}, a, ln)
        if not _is(sv, 0):            # V11: a held c and gave it to b
            own = [k for k in ck if self.live(k) and not _is(old[k][a], 0)]
            y2 = [self.var("s") for _ in own]
            self.m.Add(sum(y2) == sv) if y2 else self.m.Add(sv == 0)
            for k, y in zip(own, y2):
                self.cons([old[k][a]], 1, 1, ln, (y,) + g)
            old2 = dict(self.pos)
            self.move(dict(zip(own, y2)), b)
            self.moved_counts(old2, {a: y2}, b, ln)
        self.turn = {p: 0 for p in self.t.players}
        self.turn[a] = z
        nz = self.var("nz")
        self.m.Add(nz + z == 1)
        self.turn[b] = nz

    def dropped(self, ev, line):
        """A statement with an unseen part, where it is not in force (:attr:`only`, a trial
        of :meth:`HistoryModel._core`): either it holds as stated or the line is not there
        at all (no card moves, the turn stays where it was).  Every history of the whole
        record is one of these, so lines that no history satisfies this way conflict
        however the others are; and dropping a line leaves its deletion from the record
        among the histories allowed.  (Its move with its constraints dropped -- a card to
        the asker from anywhere, even from the recorder's own hand -- let lines that
        conflict without it look consistent, and kept it in their conflict.)

        With :attr:`enforce` (a literal for every line) it is in force exactly when its
        literal holds, and dropped when it does not."""
        self.used.add(line)
        h = self.var("h")           # the question happened, as stated
        before = dict(self.turn)
        if isinstance(ev, UnheardCard):
            self.unheard_card(ev, line, h)
        elif isinstance(ev, UnheardAnswer):
            self.unheard_answer(ev, line, h)
        else:
            self.unseen_ask(ev, line, h)
        self.turn = {p: self._either(h, self.turn[p], before[p]) for p in self.t.players}
        L = self.lit(line)
        if L is not None:
            self.m.AddImplication(L, h)

    def _either(self, h, x, y):
        """A term equal to ``x`` when the literal ``h`` holds, else to ``y``."""
        if x is y or _const(x) and _const(y) and x == y:
            return x
        v = self.var("e")
        self.m.Add(v == x).OnlyEnforceIf(h)
        self.m.Add(v == y).OnlyEnforceIf(h.Not())
        return v

    def unseen_ask(self, ev: Unseen, line, when=None):
        """``Ben: ?``: one legal question by Ben to some opponent (never the recorder of a
        partial record, who would have heard it), for some card, with either answer.  With ``when`` (a literal): only where it holds, else nothing moves and
        nobody is on turn after it (:meth:`dropped` puts the turn back)."""
        t, m = self.t, self.m
        a = ev.player
        g, ln = ((), line) if when is None else ((when,), None)
        self.need_turn(a, ln, ev_line=line, also=g)
        opps = [q for q in t.players if t.opponents(a, q) and q != self.hm.recorder]
        ts = self.choose(len(opps), ln, "t", when)
        for q, tq in zip(opps, ts):
            self.cons(self.count(q), 1, 10 ** 6, ln, (tq,) + g)
        names = self.names()
        ws = self.choose(len(names), ln, "w", when)
        w_of = dict(zip(names, ws))
        z = self.var("z")
        nz = self.var("nz")
        m.Add(nz + z == 1)
        sv, nsv = self.surrender(z)
        for c, w in w_of.items():
            self.asker_rules(a, c, ln, (w, nsv) + g)
        if when is None:
            self.choices[line] = ("unseen", dict(zip(opps, ts)), w_of, z, sv)
        ys: dict = {}
        for q, tq in zip(opps, ts):
            for k in t.keys:
                if not (self.live(k) and self.could(k, q)) or t.key_card[k] not in w_of:
                    continue
                y = self.var("y")
                ys[k, q] = y
                m.AddImplication(y, tq)
                m.AddImplication(y, w_of[t.key_card[k]])
                self.cons([self.pos[k][q]], 1, 1, ln, (y,) + g)
            for c, w in w_of.items():
                self.cons(self.at(self.copies(c), q), 0, 0, ln, (nz, nsv, tq, w) + g)
        m.Add(sum(ys.values()) == z) if ys else m.Add(z == 0)
        moved = {}
        for k in t.keys:
            yk = [y for (kk, _), y in ys.items() if kk == k]
            if not yk:
                continue
            if len(yk) == 1:
                moved[k] = yk[0]
            else:
                v = self.var("Y")
                m.Add(v == sum(yk))
                moved[k] = v
        old = dict(self.pos)
        self.move(moved, a)
        self.moved_counts(old, {q: [y for (_, qq), y in ys.items() if qq == q] for q in opps},
                          a, ln)
        if not _is(sv, 0):            # V11: a surrendered a card of theirs to q
            own = [k for k in t.keys if self.live(k) and not _is(old[k][a], 0)
                   and t.key_card[k] in w_of]
            y2s = []
            for q, tq in zip(opps, ts):
                y2 = {k: self.var("s") for k in own}
                for k, y in y2.items():
                    m.AddImplication(y, tq)
                    m.AddImplication(y, w_of[t.key_card[k]])
                    self.cons([old[k][a]], 1, 1, ln, (y,) + g)
                y2s.append((q, y2))
            allv = [y for _, y2 in y2s for y in y2.values()]
            m.Add(sum(allv) == sv) if allv else m.Add(sv == 0)
            for q, y2 in y2s:
                old2 = dict(self.pos)
                self.move(y2, q)
                self.moved_counts(old2, {a: list(y2.values())}, q, ln)
        self.turn = {p: 0 for p in t.players}
        self.turn[a] = z
        for q, tq in zip(opps, ts):
            u = self.var("n")
            m.AddImplication(u, nz)
            m.AddImplication(u, tq)
            m.AddBoolOr([z, tq.Not(), u])
            self.turn[q] = u

    def continued(self, hm: "HistoryModel") -> "_Build":
        """A copy of this whole model (built with every line in force) for ``hm``, whose
        record extends this one's, with the lines added (the model is cloned: this one is
        left as it is, for any other model that extends it).  The model is the one
        :meth:`HistoryModel.build` makes afresh: the same variables and constraints in the
        same order (``tests/test_literature_carry.py``).  Only where every card has one
        copy (the keys of a half-suit never change) and no ``shown`` line was added
        (:func:`_extends`)."""
        b = object.__new__(_Build)
        b.__dict__.update(self.__dict__)
        b.m = self.m.clone()
        b.pos, b.turn, b.choices = dict(self.pos), dict(self.turn), dict(self.choices)
        b.lits, b.used, b.count_at = dict(self.lits), set(self.used), dict(self.count_at)
        b.asker_at, b.rules_at = dict(self.asker_at), dict(self.rules_at)
        b.hm, b.play, b.t = hm, hm.play, hm.table
        # the histories found for this record: by this model's searches, and by those of
        # the model of the same record it continues (stage 1 before the figures)
        ends = self.ends + (self.before if self.since == self.upto else [])
        if ends:
            b.before, b.since = _covering(ends), self.upto
        b.ends = []
        b._of_play(hm)
        b.run(hm.record, hm.hands, start=self.upto)
        return b

    def end(self, value) -> tuple[dict, dict]:
        """Where a history of this model leaves every card and whose turn it then is,
        ``value`` reading its literals: (key -> place -> 0 or 1, player -> 0 or 1)."""
        def v(x):
            return x if _const(x) else int(value(x))
        return ({k: {p: v(x) for p, x in row.items()} for k, row in self.pos.items()},
                {p: v(x) for p, x in self.turn.items()})

    def extension(self, end: tuple[dict, dict]) -> "_Build":
        """A model of this model's statements after :attr:`since` alone, from ``end``: the
        end of a history of the record of those before (:attr:`before`).  Its only
        variables are those statements' unseen parts; each of its solutions, after that
        history, is a history of this record (a statement's rules read only where the
        cards are and whose turn it is)."""
        x = object.__new__(_Build)
        x.__dict__.update(self.__dict__)
        x.m = cp_model.CpModel()
        x.pos = {k: dict(row) for k, row in end[0].items()}
        x.turn = dict(end[1])
        x.choices, x.lits, x.used, x.count_at, x.asker_at = {}, {}, set(), {}, {}
        x.rules_at = {}
        x.ends, x.before, x.n = [], [], 0
        x.run(self.hm.record, self.hm.hands, start=self.since)
        return x


def _covering(ends: list, most: int = KEPT_ENDS) -> list:
    """At most ``most`` of the histories' ``ends`` (:meth:`_Build.end`), in their order:
    first, one at a time, the one that leaves the most cards at places (and the turn with
    a player) that none chosen does, while one does; then the latest of the others."""
    def marks(end):
        return {(k, p) for k, row in end[0].items() for p, v in row.items() if v} | \
            {("turn", p) for p, v in end[1].items() if v}
    got = [marks(e) for e in ends]
    left = set().union(*got)
    chosen: list[int] = []
    while left and len(chosen) < most:
        i = max(range(len(ends)), key=lambda i: len(got[i] & left))
        chosen.append(i)
        left -= got[i]
    chosen += [i for i in reversed(range(len(ends))) if i not in chosen][:most - len(chosen)]
    return [ends[i] for i in sorted(chosen)]


class _Copy:
    """A copy of a built model, with the part of :class:`_Build` that extra constraints use."""

    def __init__(self, m):
        self.m = m
        self.n = 0
        self.only = None
        self.enforce = False
        self.used: set[int] = set()
        self.lits: dict = {}
        self.rules_at: dict[int, list[str]] = {}

    off: frozenset = frozenset()
    var = _Build.var
    lit = _Build.lit
    cons = _Build.cons


class _Trials:
    """The trials of :meth:`HistoryModel._core`: which sets of lines some history satisfies.

    One model of the record with a literal for each line (:meth:`HistoryModel.build` with
    ``enforce``: a line whose literal is off is dropped, as :meth:`_Build.dropped` says);
    each trial is a copy with every literal fixed, on for the lines in force.  A history
    found is kept with every line it satisfies (its literals set free with all else fixed
    at the history: one search, which the presolve settles), so that a later trial of
    some of those lines needs no search."""

    def __init__(self, hm: "HistoryModel", extra=None):
        self.hm = hm
        b, _ = hm.build(True, extra)
        self.m = b.m
        #: line -> its literal (a line without one constrains nothing)
        self.lits: dict[int, IntVar] = dict(b.lits)
        self._index = {v.Index() for v in self.lits.values()}
        #: the lines each history found satisfies
        self.found: list[set[int]] = []

    def _solve(self, m):
        solver = self.hm._solver(30.0)
        st = solver.Solve(m)
        if st == cp_model.UNKNOWN:
            raise BudgetError("CP-SAT could not decide in time")
        return solver, st in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def satisfied(self, lines: set[int]) -> set[int] | None:
        """Every line that a history satisfying ``lines`` satisfies (``lines`` and more);
        ``None`` when no history satisfies them."""
        lines = set(lines)
        for got in self.found:
            if lines <= got:
                return got
        m = self.m.clone()
        for line, v in self.lits.items():
            m.Add(m.get_bool_var_from_proto_index(v.Index()) == int(line in lines))
        solver, ok = self._solve(m)
        if not ok:
            return None
        # the lines that history satisfies: every literal free, everything else fixed
        values = list(solver.response_proto.solution)
        m = self.m.clone()
        rest = [i for i in range(len(values)) if i not in self._index]
        hint = m.Proto().solution_hint
        hint.vars.extend(rest)
        hint.values.extend(values[i] for i in rest)
        free = {line: m.get_bool_var_from_proto_index(v.Index())
                for line, v in self.lits.items()}
        m.Maximize(sum(free.values()))
        solver = self.hm._solver(30.0)
        solver.parameters.fix_variables_to_their_hinted_value = True
        got = set(lines)
        if solver.Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            got |= {line for line, v in free.items() if solver.Value(v)}
        self.found.append(got)
        return got


@functools.cache
def _each_solution_class():
    """A CP-SAT solution callback calling ``found(self)`` on each history CP-SAT finds (with
    an objective: each better one); ``self.Value`` reads it as a solver's would.  Made on
    first use: ortools is imported only when a model is solved."""

    # the lazily imported OR-Tools module's class: a base known only at run time
    base: Any = cp_model.CpSolverSolutionCallback

    class EachSolution(base):
        def __init__(self, found):
            super().__init__()
            self.found = found

        def on_solution_callback(self):
            self.found(self)

    return EachSolution


class HistoryModel:
    """The model of a record with unseen events, seen by ``view`` (duck-types the parts of
    :class:`~solver.model.CardLocationModel` that ``why`` and the analysis use)."""

    def __init__(self, record, view, play: Play):
        self.record = record
        self.view = view
        #: the recorder of a partial record, whom no ``P: ?`` asks (:func:`recorder_of`)
        self.recorder = recorder_of(record)
        #: the players whose ``holds`` lines the view uses
        self.hands = hands_seen(record, view)
        self.play = play
        self.table = play.table
        t = self.table
        self.fixed = {k: l for k, l in play.loc.items() if l is not None}
        self.cards = [k for k in t.keys if k not in self.fixed]
        self.locations = list(t.players)
        self.names = {k: repr(t.key_card[k]) for k in t.keys}
        self.samples: list[dict[str, str]] = []
        self.keep_witnesses = False
        self.witnesses: list[tuple[dict, list[str]]] = []
        #: the unseen parts of each history the backbone found (:meth:`course`)
        self.courses: list[dict[int, Ask]] = []
        self._bb: Backbone | None = None
        #: what :meth:`settle` proved certain (card -> place) and the ranks it finished; and
        #: how far its proof had got (the same, while it runs: :meth:`settled`)
        self._certain: tuple[dict, int] | None = None
        self._progress: tuple[dict, int] = ({}, 0)
        #: the whole model and each (key, place)'s variable (:meth:`_built`), once built
        self._base: tuple[_Build, dict[tuple[str, str], IntVar | int]] | None = None
        #: certainties already known (card -> place: :func:`carried`, from an earlier
        #: record this one extends): :meth:`settle` takes them as proved, and its
        #: searches are given them as facts (implied, so no history is lost)
        self.known: dict = {}
        #: the searches of the certainties' proof use a light presolve (stage 1:
        #: :meth:`settle` with unbounded work, where only the clock counts)
        self.quick = False
        #: places proved possible beyond those of :attr:`samples`: every place a card has
        #: in some deal of a course a found history took (:meth:`_spread`); the courses
        #: spread so far, and those found but not yet spread
        self.spread: dict[Hashable, set[str]] = {k: set() for k in self.cards}
        #: (card, place) -> the course that spread it there (a witness's course, for tests)
        self.spread_from: dict[tuple[Hashable, str], dict[int, Ask]] = {}
        #: a complete record seen by a view -> (the keys it fixes with their places, every
        #: other key's possible places), or ``None`` when the engine or the deal model
        #: refuses it (:func:`solver.literature.inference.course_places`, set by
        #: ``build``; without it nothing is spread)
        self.course_places: Callable[[Any, Any], tuple[dict, dict] | None] | None = None
        self._spread_done: set[tuple] = set()
        self._to_spread: list[dict[int, Ask]] = []

    def name(self, key) -> str:
        return self.names[key]

    def build(self, enforce: bool, extra=None, only=None, off: frozenset = frozenset()):
        b = _Build(self, enforce, only)
        b.off = off
        b.run(self.record, self.hands)
        final = {(k, p): b.pos[k][p] for k in self.cards for p in self.locations}
        if extra is not None:
            extra(b, final)
        return b, final

    def _built(self):
        """The whole model, built once (:meth:`build`; the searches add to copies of it);
        where the record extends one whose model was kept (:data:`_BUILT`: the statement
        before, in play and serve), that model with the lines added."""
        if self._base is None:
            key = _key(self.record, self.view)
            got = _extends(key, self.table)
            if got is not None:
                b = got.continued(self)
                self._base = b, {(k, p): b.pos[k][p] for k in self.cards
                                 for p in self.locations}
            else:
                self._base = self.build(False)
            with _KEPT:
                _BUILT[key] = self._base[0]
                _BUILT.move_to_end(key)
                while len(_BUILT) > BUILT_RECORDS:
                    _BUILT.popitem(last=False)
        return self._base

    def _searched(self):
        """A copy of the whole model to search in (same variables), with the places of
        :attr:`known` stated: implied by the record, so every history is still there, and
        CP-SAT's presolve starts from them."""
        b, final = self._built()
        m = b.m.clone()
        for k, p in self.known.items():
            v = final.get((k, p))
            if v is not None and not _const(v):
                m.Add(m.get_bool_var_from_proto_index(v.Index()) == 1)
        return m

    @staticmethod
    def _solver(seconds, deterministic: float | None = None, quick: bool = False):
        """One-thread CP-SAT.  ``deterministic``: a limit in CP-SAT's deterministic time, so
        that the deals found (and the estimates made from them) never depend on the
        machine's speed; ``seconds`` is then only a safety net.  ``quick``:
        :func:`~solver.model.light_presolve`, for the certainties' proofs."""
        s = cp_solver(cp_model, seconds)    # cut to the analysis's deadline (budget.py)
        s.parameters.num_workers = 1
        if deterministic is not None:
            s.parameters.max_deterministic_time = deterministic
        return light_presolve(s) if quick else s

    def course(self, solver, b) -> dict[int, Ask]:
        """The unseen parts of the history ``solver`` found in the model ``b``: for each
        line with an unseen event, the question it was (card, target and answer filled in).
        Replacing those lines gives a complete record: one *course* of the unseen events."""
        t = self.table

        def val(v):
            return v if _const(v) else solver.Value(v)

        def pick(d):
            return next((x for x, v in d.items() if val(v)), None)

        out = {}
        for st in self.record.statements:
            ev = st.event
            ch = b.choices.get(st.line)
            if isinstance(ev, UnheardCard):
                if ev.answer == "yes":
                    card = t.key_card[pick(ch[1])]
                else:
                    card = pick(ch[1])
                out[st.line] = Ask(ev.asker, ev.target, card, ev.answer)
            elif isinstance(ev, UnheardAnswer):
                out[st.line] = Ask(ev.asker, ev.target, ev.card, "yes" if val(ch[1]) else
                                   "surrendered" if val(ch[2]) else "no")
            elif isinstance(ev, Unseen):
                out[st.line] = Ask(ev.player, pick(ch[1]), pick(ch[2]), "yes" if val(ch[3])
                                   else "surrendered" if val(ch[4]) else "no")
        return out

    def witness(self, solver, b) -> list[str]:
        """The statements of a complete record for the history ``solver`` found in the model
        ``b``: every hand dealt, then each statement with its unseen parts filled in (for
        tests: the engine and the deal model must accept it)."""
        t = self.table

        def val(v):
            return v if _const(v) else solver.Value(v)

        out = []
        for p in t.players:
            cards = sorted(t.key_card[k] for k in t.keys if val(b.deal[k][p]))
            out.append(str(Holds(p, tuple(cards))))
        filled = self.course(solver, b)
        for st in self.record.statements:
            if not isinstance(st.event, Holds):
                out.append(str(filled.get(st.line, st.event)))
        return out

    def _read(self, solver, final) -> dict[str, str]:
        out = {}
        for (k, p), v in final.items():
            if (v if _const(v) else solver.Value(v)):
                out[k] = p
        return out

    def backbone(self) -> Backbone:
        """Every (card, player) pair some consistent history ends with: covering steps, each
        a search for a history with at least one pair not yet seen, as many of them as it
        finds in :data:`COVER_STEP` (each better history on the way a witness too), until
        one proves that no history has any of the pairs left; pairs a step of
        :data:`GROUP_STEP` with the whole presolve leaves undecided are settled card by
        card."""
        if self._bb is None:
            self._cover(None)
        assert self._bb is not None
        return self._bb

    def _cover(self, work: "Work | None") -> tuple[Backbone, bool]:
        """:meth:`backbone` within ``work`` (``None``: no bound): (the backbone, True) when
        it finished, else (what it settled, False): each card's places found in a history
        plus those not yet ruled out -- a superset of the true places, so a card left one
        place is certain and a place left out is impossible.  The histories found either
        way are in :attr:`samples`."""
        b, final = self._built()
        m = b.m.clone()             # the objectives go on a copy (the same variables)
        size = len(m.Proto().variables)
        possible: dict[Hashable, set[str]] = {k: set() for k in self.cards}
        unseen = set()
        for (k, p), v in final.items():
            if _is(v, 1):
                possible[k].add(p)
            elif not _const(v):
                unseen.add((k, p))
        # the histories already found (an earlier, bounded search) are witnesses too
        known = bool(self.samples)
        for deal in self.samples:
            for k, p in deal.items():
                possible[k].add(p)
                unseen.discard((k, p))

        def spread() -> None:
            # every place of a deal of the courses the histories found took (:meth:`_spread`)
            self._spread()
            for k, ps in self.spread.items():
                for p in ps:
                    possible[k].add(p)
                    unseen.discard((k, p))

        spread()
        # covering steps search with the light presolve: their answer (a history with a new
        # pair, or the proof that none has one) does not depend on which history is found,
        # and most of a longer step would go to proving its history the best; a step that
        # finds nothing is tried again with the whole presolve, which some proofs need
        # (without it, tails of seconds)
        cover = self._solver(60.0, COVER_STEP, quick=True)
        group = self._solver(60.0, GROUP_STEP)

        def take(used):
            deal = self._read(used, final)
            self.samples.append(deal)
            # a witness of every possible place: the most the next statement can follow
            b.ends.append(b.end(used.Value))
            course = self.course(used, b)
            self.courses.append(course)
            self._to_spread.append(course)
            if self.keep_witnesses:
                self.witnesses.append((deal, self.witness(used, b)))
            for k, p in deal.items():
                possible[k].add(p)
                unseen.discard((k, p))

        def partial() -> Backbone:
            # out of time: a card none of whose places is still undecided is settled (its
            # possible places are exact); the others may be anywhere not yet ruled out
            return Backbone(True, {k: possible[k] | {p for (c, p) in unseen if c == k}
                                   for k in self.cards})

        def solve(s, model, step, callback=None):
            """``s.Solve`` within the work left (``None``: out of work, not solved)."""
            if work is not None:
                if work.left <= 0:
                    return None
                s.parameters.max_deterministic_time = min(step, work.left)
            elif s is cover or s is group:
                s.parameters.max_deterministic_time = step
            st = _solve(s, model, callback)
            if work is not None:
                work.spend(s, size)
            return st

        # every improving history of a covering step is a witness too (not only its last):
        # each covers pairs, so fewer steps (each a whole presolve and search) are needed
        each = _each_solution_class()(take)

        def cover_step(s, step):
            """A history with at least one of the pairs not yet seen (INFEASIBLE: none has
            any), the most of them ``s`` finds within ``step``."""
            m2 = m.clone()
            lits = [m2.get_bool_var_from_proto_index(final[x].Index()) for x in unseen]
            m2.AddBoolOr(lits)
            m2.Maximize(sum(lits))
            return solve(s, m2, step, each)

        try:
            # with no history known, the first comes from the first covering step (one
            # search less): every pair not fixed is unseen, so INFEASIBLE there means no
            # history at all; only when that step finds none, a search for any history
            st = cp_model.UNKNOWN
            if unseen and not known:
                st = cover_step(cover, COVER_STEP)
            if st in (cp_model.UNKNOWN, None) and not known:
                st = solve(self._solver(60.0), m, 60.0, each)
        except TimeUp as e:         # what the model's own facts settle (and the histories found)
            setattr(e, "partial_backbone", partial())   # read back with getattr
            raise
        if st in (cp_model.INFEASIBLE, cp_model.MODEL_INVALID) and not known:
            self._bb = Backbone(False, {k: set() for k in self.cards})
            return self._bb, True
        if st in (cp_model.UNKNOWN, None) and not known:
            if work is not None:
                return partial(), False
            raise BudgetError("CP-SAT could not find a history in time")
        try:
            while unseen:
                spread()
                if not unseen:
                    break
                before = len(unseen)
                st = cover_step(cover, COVER_STEP)
                if st is not None and st != cp_model.INFEASIBLE and len(unseen) == before:
                    st = cover_step(group, GROUP_STEP)
                if st == cp_model.INFEASIBLE:
                    unseen.clear()
                elif st is None or len(unseen) == before:
                    break
            # what no step decided: each card's remaining places at once, in a copy of the
            # model with the constraint stated (assumptions would turn CP-SAT's presolve
            # off: far slower proofs)
            one = self._solver(30.0)
            for k in self.cards:
                while True:
                    spread()
                    rest = [p for p in self.locations if (k, p) in unseen]
                    if not rest:
                        break
                    m2 = m.clone()
                    lits = [m2.get_bool_var_from_proto_index(final[k, p].Index()) for p in rest]
                    m2.AddBoolOr(lits)
                    st = solve(one, m2, 30.0)
                    if st == cp_model.INFEASIBLE:
                        for p in rest:
                            unseen.discard((k, p))
                        break
                    if st in (cp_model.UNKNOWN, None):
                        if work is not None and work.left <= 0:
                            return partial(), False
                        raise BudgetError("CP-SAT could not finish the certainties in time")
                    take(one)
        except TimeUp as e:
            setattr(e, "partial_backbone", partial())   # read back with getattr
            raise
        self._bb = Backbone(True, possible)
        return self._bb, True

    def settle(self, work: Work, complete: bool = True) -> tuple[Backbone, str]:
        """The backbone within ``work``, the certainties first (the advisor's budget): a
        search from a random objective of at most :data:`SETTLE_COVER` finds histories
        (every better one on its way, :meth:`more_samples`); the places they all agree on
        are proved certain, a rank at a time (:meth:`_prove_agreed`, once); with
        ``complete``, the work left goes on with the rest of the backbone (:meth:`_cover`;
        a later call goes on from there).  Returns (backbone, what is proved): ``"all"`` (the backbone; an
        inconsistent one when there is no history); else every card proved certain has its
        one place and the others the places found or not yet ruled out, and what is proved
        is ``"certain"`` (every certain card), ``"own-and-claims"`` (those of the view's
        own hand and of the half-suits its team may claim, :meth:`_rank`) or ``"some"``.
        The histories found are in :attr:`samples`."""
        if self._bb is not None:
            return self._bb, "all"
        if self._certain is None:
            if math.isinf(work.left):
                # unbounded (stage 1: only the clock stops it): one history, the quickest
                # search; the proof's first search goes as far from it as it can
                self.quick = True
            else:
                first = Work(min(SETTLE_COVER, work.left))
                before = first.left
                self.more_samples(1, seed=len(self.record.statements), work=first,
                                  every=True)
                work.left -= before - first.left
            self.extended()
            if not self.samples and not self.one_history():
                self._bb = Backbone(False, {k: set() for k in self.cards})
                return self._bb, "all"
            self._certain = self._prove_agreed(work)
        bb, done = self._cover(work if complete else Work(0.0))
        if done:
            return bb, "all"
        known, ranks = self._certain
        return Backbone(True, {k: {known[k]} if k in known else bb.possible[k]
                               for k in self.cards}), _PROVED[ranks]

    def settled(self) -> tuple[Backbone, str]:
        """What :meth:`settle` had proved when the clock stopped it (``TimeUp``), as it
        returns it: each card proved certain at its one place, every other one anywhere
        the model's own facts allow."""
        known, ranks = self._progress
        b, final = self._built()
        return Backbone(True, {k: {known[k]} if k in known else
                               {p for p in self.locations if not _is(final[k, p], 0)}
                               for k in self.cards}), _PROVED[ranks]

    def _agreed(self) -> dict:
        """card -> place of the cards every history found (:attr:`samples`) leaves at one
        place, and no course they took spread elsewhere (:attr:`spread`)."""
        out = {}
        for k in self.cards:
            places = {d.get(k) for d in self.samples} | self.spread[k]
            if len(places) == 1:
                out[k] = next(iter(places))
        return out

    def _spread(self) -> int:
        """Every place each card has in some deal of the courses of the histories found
        since the last call (:attr:`spread`): a history fixes one deal, but its course (the
        unseen parts filled in) is a complete record whose every deal is a history too, and
        that record's possible places come from a network flow or one small search
        (milliseconds), where each further history would cost a search of the whole
        history model.  A course the engine or the deal model refuses adds nothing (its
        history was found in the model: it should not happen).  Returns how many pairs were
        added."""
        added = 0
        pending, self._to_spread = self._to_spread, []
        places = self.course_places
        if places is None:
            return 0
        for course in pending:
            key = tuple(sorted((line, str(a)) for line, a in course.items()))
            if key in self._spread_done:
                continue
            self._spread_done.add(key)
            sts = tuple(replace(st, event=course[st.line], text=str(course[st.line]))
                        if st.line in course else st for st in self.record.statements)
            got = places(replace(self.record, statements=sts), self.view)
            if got is None:
                continue
            fixed, possible = got
            for k in self.cards:
                for p in ({fixed[k]} if k in fixed else possible[k]):
                    if p not in self.spread[k]:
                        self.spread[k].add(p)
                        self.spread_from[k, p] = course
                        added += 1
        return added

    def _rank(self, agreed: dict) -> dict:
        """The order in which :meth:`_prove_agreed` proves the agreed places: 0 the view's own
        cards (what it may ask, LIT-6), 1 those of an open half-suit whose every card is
        agreed (or known) within the view's team (a safe claim, LIT-11), 2 the rest."""
        t = self.table
        team = set(t.team_of(self.view)) if self.view in t.players else set()
        where = {**self.fixed, **agreed}
        out = {k: 2 for k in agreed}
        for h in self.play.open_halves() if team else ():
            hk = self.play.keys_of_half(h)
            if all(where.get(k) in team for k in hk):
                out.update({k: 1 for k in hk if k in agreed})
        out.update({k: 0 for k, p in agreed.items() if p == self.view})
        return out

    def _prove_agreed(self, work: Work) -> tuple[dict, int]:
        """(card -> place, the ranks finished: 3 is every certain card): the places the histories
        found (:attr:`samples`, at least one) all agree on, proved in the order of
        :meth:`_rank`, each rank by one search proving no history leaves any of its cards
        elsewhere; as far as ``work`` goes (an unbounded ``Work(math.inf)``: to the end,
        each search given twice the time after one that found nothing in its own; only
        the clock stops it).  The search maximises the agreements a history breaks: each
        better history it finds is a witness, its cards drop out of the agreed ones and
        the proof is tried again."""
        proved: dict = {k: p for k, p in self.known.items() if k in self.cards}
        if not self.samples:
            return proved, 0
        b0, final = self._built()
        size = len(b0.m.Proto().variables)
        base = self._searched() if self.known else b0.m
        self._progress = (dict(proved), 0)
        solver = self._solver(30.0, PROOF_STEP, quick=self.quick)

        each = _each_solution_class()(lambda used: self._take(used, final))
        step = PROOF_STEP
        for rank in (0, 1, 2):
            while True:
                self._spread()
                agreed = self._agreed()
                ranks = self._rank(agreed)
                todo = {k: p for k, p in agreed.items() if ranks[k] == rank and k not in proved}
                lits = [final[k, p] for k, p in todo.items() if not _const(final[k, p])]
                if not lits:            # the model's own facts fix every one of them
                    proved.update(todo)
                    break
                if work.left <= 0:
                    return proved, rank
                m2 = base.clone()
                broken = [m2.get_bool_var_from_proto_index(v.Index()).Not() for v in lits]
                m2.AddBoolOr(broken)
                m2.Maximize(sum(broken))
                solver.parameters.max_deterministic_time = min(step, work.left)
                st = _solve(solver, m2, each)
                work.spend(solver, size)
                if st == cp_model.INFEASIBLE:
                    proved.update(todo)
                    break
                if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    if math.isinf(work.left):   # unbounded work (stage 1): only the clock
                        step *= 2               # stops the proof; a longer search again
                        continue
                    return proved, rank
            self._progress = (dict(proved), rank + 1)
        return proved, 3

    def one_history(self) -> bool:
        """Find one consistent history (its final places added to :attr:`samples`), as long
        as the analysis's deadline allows; ``False`` when there is none.

        With :attr:`quick` (stage 1) in a model continued from the statement before, the
        search first starts from that statement's history (:attr:`_Build.hint`: most of
        this record's variables are that record's), with neither presolve nor linear
        relaxation, which a history close to the hint does not need; only when that finds
        none within :data:`HINTED_STEP`, the search as without it.  Which history is found
        does not matter to stage 1 (its certainties are complete either way); elsewhere the
        histories found feed estimates, which must not depend on what this process
        analysed before: no hint there."""
        b, final = self._built()
        m = self._searched()
        st = cp_model.UNKNOWN
        if self.quick and b.hint:
            h = m.Proto().solution_hint
            h.vars.extend(range(len(b.hint)))
            h.values.extend(b.hint)
            solver = self._solver(60.0, HINTED_STEP)
            solver.parameters.cp_model_presolve = False
            solver.parameters.linearization_level = 0
            st = _solve(solver, m)
            if st == cp_model.UNKNOWN:
                m.ClearHints()
        if st == cp_model.UNKNOWN:
            solver = self._solver(60.0, quick=self.quick)
            st = _solve(solver, m)
        if st in (cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
            if self.known:          # never a conflict of what was carried: without it
                self.known = {}
                return self.one_history()
            return False
        if st == cp_model.UNKNOWN:
            raise BudgetError("CP-SAT could not find a history in time")
        self._take(solver, final)
        if self.quick:
            b.hint = list(solver.response_proto.solution)
        return True

    def _take(self, used, final) -> None:
        """Add the history ``used`` (a solver or a solution callback) found: its final places
        to :attr:`samples`, and in stage 1 (:attr:`quick`) where it ends to the model's
        :attr:`_Build.ends`, for the next statement."""
        self.samples.append(self._read(used, final))
        b = self._built()[0]
        self._to_spread.append(self.course(used, b))
        if self.quick:
            b.ends.append(b.end(used.Value))

    def extended(self) -> int:
        """Stage 1 (:attr:`quick`) in a model continued from the statement before: each
        history found for that statement (:attr:`_Build.before`) followed by the
        lines added, where some course of their unseen parts fits it (a small model of
        those lines alone, :meth:`_Build.extension`), added to :attr:`samples`: witnesses,
        so that the proof searches only for what they leave agreed; with more courses
        where the lines added have unseen parts, while one breaks an agreement.  Returns
        how many histories it added."""
        b, final = self._built()
        if not self.quick:
            return 0
        before = len(self.samples)
        solver = self._solver(60.0)
        ok = (cp_model.OPTIMAL, cp_model.FEASIBLE)

        def take(x):
            self.samples.append(self._read(solver, {(k, p): x.pos[k][p] for k in self.cards
                                                    for p in self.locations}))
            b.ends.append(x.end(solver.Value))

        fit = []
        for end in b.before:
            x = b.extension(end)
            if _solve(solver, x.m) in ok:
                take(x)
                fit.append(x)
        # where the added lines have unseen parts: in each history they fit, the courses
        # that break the most of what the witnesses still agree on, while one breaks some
        for x in fit:
            while True:
                lits = [x.pos[k][p] for k, p in self._agreed().items()
                        if k not in self.known and not _const(x.pos[k][p])]
                if not lits:
                    break
                broken = [v.Not() for v in lits]
                x.m.AddBoolOr(broken)       # implied by those before: the agreed only shrink
                x.m.Maximize(sum(broken))
                if _solve(solver, x.m) not in ok:
                    break
                take(x)
        return len(self.samples) - before

    def more_samples(self, n: int, seed: int = 0, work: "Work | None" = None,
                     every: bool = False):
        """``n`` further consistent histories' final places, from random objectives (witnesses,
        not a uniform sample); fewer when ``work`` (:class:`Work`) runs out.  ``every``: each
        search (with presolve, :data:`EVERY_STEP`) keeps every better history it finds on
        the way, not only its last: several histories a search."""
        b, final = self._built()
        m = self._searched()
        rng = random.Random(seed)
        solver = self._solver(30.0, EVERY_STEP if every else SAMPLE_STEP)
        solver.parameters.cp_model_presolve = every
        each = _each_solution_class()(lambda used: self.samples.append(self._read(used, final)))
        terms = [(v, rng.randint(-3, 3)) for v in final.values() if not _const(v)]
        for _ in range(n):
            if work is not None and work.left <= 0:
                break
            if terms:
                m.Maximize(sum(w * v for v, w in terms))
                terms = [(v, rng.randint(-3, 3)) for v, _ in terms]
            if work is not None:
                solver.parameters.max_deterministic_time = min(
                    EVERY_STEP if every else SAMPLE_STEP, work.left)
            st = _solve(solver, m, each if every else None)
            if work is not None:
                work.spend(solver, len(m.Proto().variables))
            if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                break
            if not every:
                self.samples.append(self._read(solver, final))

    def counts(self) -> dict[str, int | None]:
        """Each player's card count now, where every consistent history agrees (else
        ``None``): the engine's count when the record determines it (O1, LIT-13), else the
        witnesses' common count once CP-SAT proves no other."""
        out: dict[str, int | None] = {}
        for p in self.table.players:
            if p not in self.play.vague:
                out[p] = self.play.count[p]
                continue
            fixed_here = sum(1 for l in self.fixed.values() if l == p)
            seen = {sum(1 for l in d.values() if l == p) for d in self.samples}
            if len(seen) != 1:
                out[p] = None
                continue
            n = next(iter(seen))

            def other(b, final, p=p, lo=0, hi=0):
                b.cons([final[k, p] for k in self.cards], lo, hi, None)

            # the engine's range bounds every history's count: a side past it needs no search
            lo, hi = self.play.vague[p]
            other_count = (n + fixed_here > lo and
                           self.possible_with(lambda b, f: other(b, f, lo=0, hi=n - 1))) or \
                (n + fixed_here < hi and
                 self.possible_with(lambda b, f: other(b, f, lo=n + 1, hi=10 ** 6)))
            out[p] = None if other_count else n + fixed_here
        return out

    def possible_with(self, require) -> bool:
        """Whether some consistent history ends with ``require(b, final)`` (adds constraints;
        on a copy of the model built once)."""
        b0, final0 = self._built()
        b = _Copy(b0.m.clone())
        final = {x: (v if _const(v) else b.m.get_bool_var_from_proto_index(v.Index()))
                 for x, v in final0.items()}
        require(b, final)
        st = self._solver(30.0).Solve(b.m)
        if st == cp_model.UNKNOWN:
            raise BudgetError("CP-SAT could not decide in time")
        return st in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def possible_each(self, requires) -> list[bool]:
        """For each of ``requires`` (``require(b, final, lit)`` adds constraints that hold
        when ``lit`` does), whether some consistent history ends with it.  One search for a
        history with at least one of those not yet found, again until none is left: the
        impossible ones share one proof, where :meth:`possible_with` proves each (and does,
        when that search is not settled within :data:`EACH_LIMIT`)."""
        if not requires:
            return []
        b0, final0 = self._built()
        out = [False] * len(requires)
        left = list(range(len(requires)))
        while left:
            b = _Copy(b0.m.clone())
            final = {x: (v if _const(v) else b.m.get_bool_var_from_proto_index(v.Index()))
                     for x, v in final0.items()}
            lits = {}
            for e in left:
                lits[e] = b.m.NewBoolVar(f"each{e}")
                requires[e](b, final, lits[e])
            b.m.AddBoolOr(list(lits.values()))
            solver = self._solver(30.0, deterministic=EACH_LIMIT)
            st = solver.Solve(b.m)
            if st == cp_model.UNKNOWN:  # a disjunction CP-SAT cannot settle: one by one
                for e in left:
                    out[e] = self.possible_with(lambda b, f, e=e: requires[e](b, f, 1))
                break
            if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                break                   # none of those left: every one impossible
            for e in left:
                out[e] = bool(solver.Value(lits[e]))
            left = [e for e in left if not out[e]]
        return out

    # ----- explanations ------------------------------------------------------------------------
    def _core(self, extra=None) -> list[int] | None:
        """A minimal set of lines that (with the rules and ``extra``) no history satisfies;
        ``None`` when the whole record is consistent.  Minimal: with any one of its lines
        dropped (:meth:`_Build.dropped`), some history satisfies the others.

        The trials are copies of one model with a literal for each line, the lines in
        force fixed on and the others off (:class:`_Trials`; the presolve removes what is
        off and proves most trials at once).  Deletion in chunks, from the last line back:
        a chunk whose lines the others do not need goes, and the next chunk is twice as
        long; where they do, the history found says which lines of the chunk it breaks --
        a single one is needed (kept for good), several halve the chunk."""
        trials = _Trials(self, extra)
        keep = set(trials.lits)
        if trials.satisfied(keep) is not None:
            return None
        todo = sorted(keep, reverse=True)
        size = 1
        while todo:
            chunk = set(todo[:size])
            got = trials.satisfied(keep - chunk)
            if got is None:                 # the chunk is not needed
                keep -= chunk
                todo = todo[size:]
                size *= 2
                continue
            broken = keep - got             # lines of the chunk the history breaks
            if len(broken) == 1:            # needed: without it, that history
                todo.remove(broken.pop())
            elif size > 1:
                size //= 2
            else:                           # pragma: no cover - none broken: ``keep``
                todo = todo[1:]             # would have a history
        return sorted(keep)

    def conflict(self) -> list[int] | None:
        return self._core()

    def conflict_error(self, statements: dict[int, str], loc_label=None, only_left=None):
        """As :meth:`solver.model.CardLocationModel.conflict_error`; the ``reason`` sentence
        is given for a hand count the other lines rule out (:meth:`conflict_reason`;
        ``loc_label`` and ``only_left`` are not used)."""
        from solver.errors import InconsistentError

        core = self.conflict()
        if core is None:
            return None
        e = InconsistentError("no deal fits the record; these statements conflict: "
                              + "; ".join(f"line {l}: {statements.get(l, '')}"
                                          for l in core), conflict=core,
                              reason=lambda: self.conflict_reason(core))

        def rule() -> str | None:
            from solver.rulebook import rule_ids

            cited = rule_ids(e.reason or "")    # the sentence's own rule(s), else the one
            return ", ".join(cited) if cited else self.conflict_rule(core)   # needed
        e.rule = rule
        return e

    def conflict_rule(self, core: list[int]) -> str | None:
        """The rule a minimal conflicting set ``core`` rests on: of the rules its lines'
        constraints state (:meth:`_Build.cons`; newest line first), the first without
        which those lines have a history (as
        :func:`solver.model.conflicts.conflict_rule` does for a deal model), else the first
        two together (``"LIT-6(d), LIT-7"``); ``None`` when none is (the turn order, say,
        which no one constraint states)."""
        from solver.model.conflicts import MAX_RULE_TRIES

        b, _ = self.build(False, only=set(core))
        tried: list[str] = []
        for line in sorted(core, reverse=True):
            for r in b.rules_at.get(line, []):
                if r not in tried:
                    tried.append(r)
        # one rule, else two of the first four: a line read two ways (an unheard answer)
        # can break a rule either way ("yes": the asker holds the card, LIT-6(d), and the
        # target cannot hand it over again, LIT-7)
        first = tried[:4]
        sets = [(r,) for r in tried[:MAX_RULE_TRIES]] + \
            [(r, q) for i, r in enumerate(first) for q in first[i + 1:]]
        for rules in sets:
            trial, _ = self.build(False, only=set(core), off=frozenset(rules))
            try:
                status = self._solver(10.0).Solve(trial.m)
            except TimeoutError:
                return None
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return ", ".join(rules)
        return None

    def conflict_reason(self, core: list[int]) -> str | None:
        """One sentence for a core holding a hand count (``P has N cards``, LIT-13): the
        least and greatest count the core's other lines leave P at that point, and the
        count the line says ("line 7 leaves Cleo 8 cards at line 8; line 8 says 7"); or a
        question whose asker the other lines leave no card of the half-suit to ask with
        (LIT-6(c), (d): "line 5 leaves Cleo no card of 2H-7H but 5H at line 9; asking for
        5H needs another").  ``None`` for other cores (the caller keeps its generic
        sentence)."""
        from solver.model.conflicts import lines_text

        for z in core:
            rest = [l for l in core if l != z]
            b, _ = self.build(False, only=set(rest))
            if z in b.asker_at:
                why = self._asker_reason(b, z, lines_text(rest) if rest else "the rules",
                                         len(rest))
                if why is not None:
                    return why
            if z not in b.count_at:
                continue
            player, said, terms = b.count_at[z]
            # the counts the record's other lines leave (the core's alone may leave more:
            # a move a line outside the core makes is then off); where those lines
            # conflict by themselves, the core's
            every = {st.line for st in self.record.statements} - {z}
            span: list[int] = []
            if every != set(rest):
                whole, _ = self.build(False, only=every)
                span = self._count_span(whole.count_at[z][2], whole)
            if len(span) < 2 or span[0] <= said <= span[1]:
                span = self._count_span(terms, b)
            if len(span) < 2 or span[0] <= said <= span[1]:
                continue
            lo, hi = span
            left = f"{lo} cards" if lo == hi else f"between {lo} and {hi} cards"
            who = lines_text(rest) if rest else "the rules"
            verb = "leaves" if len(rest) == 1 else "leave"
            return (f"{who} {verb} {player} {left} at line {z}; "
                    f"line {z} says {said}")
        return None

    def _count_span(self, terms, b: "_Build") -> list[int]:
        """[least, greatest] of the hand count ``terms`` in ``b``'s histories; shorter when
        ``b`` has none (or the search does not settle)."""
        span: list[int] = []
        for sense in (1, -1):
            b.m.Minimize(sum(terms)) if sense == 1 else b.m.Maximize(sum(terms))
            solver = self._solver(10.0)
            if solver.Solve(b.m) != cp_model.OPTIMAL:
                break
            span.append(int(round(solver.ObjectiveValue())))
        return span

    def _asker_reason(self, b: "_Build", z: int, who: str, n_rest: int) -> str | None:
        """The sentence of :meth:`conflict_reason` for the question on line ``z`` when,
        in ``b`` (the core's other lines in force), its asker can hold no card of the
        half-suit (LIT-6(c)) or none but the card asked (LIT-6(d), one copy)."""
        a, card, others, own = b.asker_at[z]

        def most(terms) -> int | None:
            if all(_const(x) for x in terms):
                return int(sum(terms))
            b.m.Maximize(sum(terms))
            solver = self._solver(10.0)
            if solver.Solve(b.m) != cp_model.OPTIMAL:
                return None
            return int(round(solver.ObjectiveValue()))

        half = self.table.half_of[card].name
        verb = "leaves" if n_rest == 1 else "leave"
        if most(others + own) == 0:
            return (f"{who} {verb} {a} no card of {half} at line {z}; asking for {card!r} "
                    "there needs one (LIT-6(c))")
        if self.table.options.own_card_ask != "bluff" and len(own) == 1 and most(others) == 0:
            return (f"{who} {verb} {a} no card of {half} but {card!r} at line {z}; asking "
                    f"for {card!r} there needs another (LIT-6(c), LIT-6(d))")
        return None

    def explain(self, card, loc, at: bool = True) -> list[int] | None:
        def negate(b, final):
            v = final[card, loc]
            if _const(v):
                if bool(v) == at:
                    b.m.AddBoolOr([])
                return
            b.m.Add(v == (0 if at else 1))

        return self._core(negate)
