"""The courses of a Literature record's unseen events: the figures of a record with ``?``.

A *course* fills in every unseen part of the record (record-format.md, "What the recorder
did not see"): the answer of ``Fay asks Eli KD: ?``, the card of ``Ben asks Cleo ?: yes``,
the opponent, card and answer of ``Ben: ?``.  A course is a complete record: the engine
refuses it when it breaks a public rule (a claimed half-suit, the turn order, a later
``turn:`` line, ...), and the deal model counts its deals exactly otherwise.

**The prior** (docs/literature.md, "What the recorder did not see"): every pair (deal,
rule-following course) consistent with the record is equally likely.  A truthful answer
is decided by the deal, so when the only unseen parts are answers the courses split the
deals without overlap and this is exactly the uniform deal.  An unheard card or a whole unseen question is the
asker's choice, not the deal's: there a deal that leaves the asker more possible questions
weighs more (each of them is one course).

* At most :data:`COURSES` courses the rules allow (and :data:`COURSE_WORK` DP states):
  each is counted, and the figures are the courses' exact figures weighted by their
  numbers of deals: exact
  (the team probabilities too, unless that would cost more than :data:`TEAM_WORK`: then
  they are shares of sampled deals of each course, an estimate).
  The courses the rules allow are found line by line (:func:`rule_courses`): each value
  of an unseen line is followed through the engine up to the next unseen line, so a value
  the turn order, a claim or a later ``turn:`` line refuses is dropped with every course
  after it, within :data:`ENGINE_WORK` such steps.
* More, when the cards the record treats alike (:func:`card_classes`) leave at most
  :data:`ORBITS` orbits of the courses the rules allow: one course per orbit is counted,
  weighed by the orbit's size, each card's figures averaged over its class
  (:func:`orbit_courses`): exact again.
* More: a Metropolis chain over the courses, whose stationary distribution weighs each
  course by its number of deals.  A step changes one part of one unseen line (the card,
  the opponent or the answer) to another value uniformly (a card, half the time, to
  another of its half-suit): a symmetric proposal, accepted with probability
  min(1, deals after / deals before).  Every visited course adds its
  exact figures (not one sampled deal), the chains start from the witness histories of the
  certainties, and the length is fixed by the work per course (no clock): the same record
  gives the same figures on any machine.  Labelled estimates (``method`` ``"course
  chain"``) with a batch-means 95 % error, never below the Wilson half-width at 1/2 of the
  number of moves the chains made, and 0.5 (no error bar) when the chains visited fewer
  than :data:`CHAIN_TRUST` courses; each card's figures are averaged over its class;
  0 and 1 come only from the complete certainties.

Ben kept the turn after his unheard question, so Cleo said yes: one course.

>>> from solver.records import parse_record
>>> from solver.literature.inference import build
>>> rec = parse_record("game: literature\\nplayers: Ana Ben Cleo Dev Eli Fay\\nme: Dev\\n"
...                    "Dev holds: 9C 10C JC 2S 3S 4S 5S 6S\\nAna asks Ben KH: no\\n"
...                    "Ben asks Cleo 10H: ?\\nBen asks Eli 9D: no\\n")
>>> mix = figures(rec, "Dev", build(rec, "Dev"))
>>> mix.probs.exact, mix.probs.method, mix.courses
(True, 'courses', 1)
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

from solver.errors import InconsistentError, NotationError, RuleError
from solver.literature.engine import Play, recorder_of
from solver.literature.events import Ask, UnheardAnswer, UnheardCard, Unseen
from solver.literature.inference import (MAX_STATES, TIME_BUDGET, Probabilities, ViewModel,
                                         _decided, backbone, build, current, probabilities,
                                         team_probabilities)
from solver.model.stats import Z95, wilson_halfwidth

if TYPE_CHECKING:
    import numpy as np

UNSEEN = (UnheardAnswer, UnheardCard, Unseen)
#: the most courses the rules allow that are counted one by one (exact figures) ...
COURSES = 96
#: ... found within this many engine steps (one value of one unseen line followed to the
#: next unseen line): beyond it, or beyond COURSES, the course chain estimates
ENGINE_WORK = 1500
#: ... and tried only when the unseen cards' choices multiply to at most CARD_FACTOR x COURSES
CARD_FACTOR = 2
#: ... and the DP states they may spend (courses x the first course's states)
COURSE_WORK = 1_000_000
#: more courses, counted one per orbit of exchangeable cards (orbit_courses): tried when
#: the unseen lines' values multiply to at most ORBIT_WORK (which also bounds the engine
#: steps finding them), at most ORBIT_COURSES of them following the rules, in at most
#: ORBITS orbits (each one count; COURSE_WORK bounds their DP states as above)
ORBIT_WORK = 50_000
ORBIT_COURSES = 20_000
ORBITS = 800
#: DP states the course chain may spend (its steps: this over one course's states) ...
CHAIN_WORK = 750_000
#: ... within these bounds of proposals, over all chains (fewer than the least: too costly
#: a course, the witness histories' shares are used instead)
CHAIN_STEPS = (12, 96)
#: exactly uniform deals drawn from each course the chain evaluates (its team figures)
COURSE_DEALS = 300
#: DP states' worth of exact team probabilities over the counted courses: one count per
#: course and open (half-suit, team) pair, each worth its states but at least
#: TEAM_COUNT_FLOOR (a small count still costs its set-up); more: the courses' team
#: figures are the shares of COURSE_DEALS deals each (an estimate), the cards stay exact
TEAM_WORK = 3_000_000
TEAM_COUNT_FLOOR = 20_000
#: distinct courses the chains must visit for their batch-means error bar to stand (fewer:
#: error 0.5, no error bar)
CHAIN_TRUST = 200
#: chains, each from another witness history's course
CHAIN_STARTS = 3
#: batches per chain for the batch-means error
BATCHES = 4


class _NotExact(Exception):
    """A course could not be counted exactly: no exact mixture (the caller estimates)."""


@dataclass(frozen=True)
class Mix:
    """A record's figures from its courses."""

    probs: Probabilities        # over the record's own model cards
    pteam: dict                 # (half, team index) -> P(team holds all of it)
    pt_exact: bool
    pt_error: float
    #: the courses counted (exact) or visited (chain)
    courses: int = 0


def unseen_lines(record) -> list[int]:
    """Indices of the statements with an unseen part."""
    return [i for i, s in enumerate(record.statements) if isinstance(s.event, UNSEEN)]


def parts(record, lines) -> list[tuple[str, tuple, tuple, tuple]]:
    """What each of the unseen ``lines`` (in order) may fill in: (asker, opponents, cards,
    answers); a part the recorder saw has one value.  Cards are those of the half-suits open
    at that line (the engine refuses the others anyway).  ``Ben: ?`` never asks the recorder
    of a partial record, who would have heard it.  One replay of the record."""
    from solver.literature.table import table_of

    t = table_of(record.header)
    me = recorder_of(record)
    answers = ("yes", "no", "surrendered") if t.options.own_card_ask == "surrender" \
        else ("yes", "no")
    out: list[tuple[str, tuple, tuple, tuple]] = []
    play, done = Play(t), 0
    for i in lines:
        ev = record.statements[i].event
        if isinstance(ev, UnheardAnswer):
            out.append((ev.asker, (ev.target,), (ev.card,), answers))
            continue
        play.run(record.statements[done:i])       # up to the line, the line not included
        done = i
        open_ = set(play.open_halves())
        cards = tuple(c for h in t.halves if h.name in open_ for c in dict.fromkeys(h.cards))
        if isinstance(ev, UnheardCard):
            out.append((ev.asker, (ev.target,), cards, (ev.answer,)))
        else:
            a = ev.player
            out.append((a, tuple(q for q in t.players if t.opponents(a, q) and q != me), cards,
                        answers))
    return out


def card_classes(record, view) -> dict:
    """Card -> the cards exchangeable with it under ``record`` seen by ``view`` (in their
    half-suit's order, the card itself among them; a class of one where nothing is
    exchangeable).

    Two cards are exchangeable when they are of the same half-suit, are in exactly the same
    ``holds`` lines that ``view`` uses (:func:`~solver.literature.views.hands_seen`), and
    neither is in any other line: no ask, unheard answer, claim, shown or challenge names
    it or its half-suit (a line naming a half-suit names all of its cards), and ``holds``
    lines the view does not use are not part of what it knows.  A card with more than one
    copy (the jokers of ``deck=54-jokers``) is in a class of its own.

    Why a permutation ``s`` of the cards that keeps each class is a symmetry of the
    figures: ``s`` changes no line of the record (every card a line names is fixed, a used
    ``holds`` line is mapped onto itself as a set), and the rules (the engine, the deal
    model) see a card only through its half-suit, which ``s`` keeps, and through the lines.
    So a course ``c`` follows the rules and a deal ``d`` fits it exactly when ``s(c)`` does
    and ``s(d)`` fits it: ``s`` is a bijection of the consistent (deal, course) pairs, the
    prior (each pair equally likely) is ``s``-invariant, the courses ``c`` and ``s(c)`` have
    the same number of deals, and P(card k at place l) = P(s(k) at l).  Hence the exact
    figures of a card are the same for every card of its class, and averaging each card's
    figures over its class leaves exact figures unchanged (:func:`_orbits`,
    :func:`_symmetrise`)."""
    from dataclasses import fields, is_dataclass

    from solver.cards import Card
    from solver.literature.events import Holds
    from solver.literature.table import table_of
    from solver.literature.views import hands_seen

    t = table_of(record.header)
    seen = hands_seen(record, view)
    # a card with copies (the jokers of deck=54-jokers) stays in a class of its own: the
    # permutations below fix it, so they are symmetries of the rest all the same
    named: set = {c for c, ks in t.card_keys.items() if len(ks) != 1}
    holds: dict = {}            # card -> the used holds lines listing it

    def walk(x):
        if isinstance(x, Card):
            named.add(x)
        elif isinstance(x, (tuple, list, set, frozenset)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for y in x.items():
                walk(y)

    for i, st in enumerate(record.statements):
        ev = st.event
        if isinstance(ev, Holds):
            if ev.player in seen:
                for c in ev.cards:
                    holds.setdefault(c, []).append(i)
            continue
        if not is_dataclass(ev):        # pragma: no cover - every event is a dataclass
            return {}
        for f in fields(ev):
            v = getattr(ev, f.name)
            if f.name == "half" and isinstance(v, str):
                try:
                    named.update(t.half(v).cards)
                except (KeyError, ValueError, NotationError):    # pragma: no cover
                    return {}
            else:
                walk(v)
    groups: dict = {}
    for h in t.halves:
        for c in dict.fromkeys(h.cards):
            key = (h.name, tuple(holds.get(c, ())), c if c in named else None)
            groups.setdefault(key, []).append(c)
    return {c: tuple(g) for g in groups.values() for c in g}


def _orbits(values, classes) -> list[tuple[tuple, int]] | None:
    """The courses ``values`` grouped by orbit under the card permutations that keep each
    of ``classes`` (:func:`card_classes`): ``[(representative, orbit size)]``, the
    representative the orbit's canonical course (within each class, the distinct cards in
    their order of first use become the class's first, second, ... card).  ``None`` when
    ``values`` is not a union of whole orbits (then the rules would not be symmetric: the
    caller counts every course)."""
    count: dict = {}
    size: dict = {}
    for v in values:
        key, size[key] = _canonical(v, classes)
        count[key] = count.get(key, 0) + 1
    if any(count[key] != size[key] for key in count):
        return None
    return list(count.items())


def key_classes(record, classes) -> list[tuple[str, ...]]:
    """The card ``classes`` (:func:`card_classes`) of two or more cards, as model keys."""
    from solver.literature.table import table_of

    t = table_of(record.header)
    out = {tuple(t.card_keys[c][0] for c in cls) for cls in classes.values() if len(cls) > 1}
    return sorted(out)


def _canonical(value, classes) -> tuple[tuple, int]:
    """The canonical course of ``value``'s orbit (:func:`_orbits`) and the orbit's size: the
    number of ways to pick its distinct cards of each class, in order."""
    used: dict = {}             # class -> {card: canonical card}
    canon = []
    for target, card, answer in value:
        cls = classes.get(card, (card,))
        m = used.setdefault(cls, {})
        if card not in m:
            m[card] = cls[len(m)]
        canon.append((target, m[card], answer))
    return tuple(canon), math.prod(math.perm(len(cls), len(m)) for cls, m in used.items())


def _symmetrise(lp: dict, classes) -> dict:
    """One course's card figures ``lp`` (key -> place -> probability) averaged over each
    class of ``classes`` (tuples of keys, :func:`key_classes`): applied to every course of an orbit, the orbit's
    sum is its size times this (for ``k`` of class K, the permutations keeping the classes
    send ``k`` to each card of K equally often); the figures of the whole mixture are so
    unchanged, and cards of one class get the same figures."""
    out = dict(lp)
    for ks in classes:
        rows = [lp.get(k, {}) for k in ks]
        avg: dict = {}
        for row in rows:
            for l, p in row.items():
                avg[l] = avg.get(l, 0.0) + p / len(rows)
        for k in ks:
            out[k] = dict(avg)
    return out


def course_record(record, lines, value):
    """The complete record of one course: ``value[j]`` = (opponent, card, answer) of the
    unseen line ``lines[j]``."""
    sts = list(record.statements)
    for i, (target, card, answer) in zip(lines, value):
        ask = Ask(_asker(sts[i].event), target, card, answer)
        sts[i] = replace(sts[i], event=ask, text=str(ask))
    return replace(record, statements=tuple(sts))


def _asker(ev) -> str:
    return ev.player if isinstance(ev, Unseen) else ev.asker


def _count(record, view, max_states, time_budget, play=None):
    """(view model, exact Probabilities) of a complete course, or ``None`` when it breaks a
    rule or no deal fits it.  ``play``: the course's replay, when the caller has it."""
    try:
        vb = build(record, view, play)
        if vb.history:          # pragma: no cover - a course has no unseen part
            raise _NotExact
        bb = backbone(vb)
        if not bb.consistent:   # no deal: no need of the minimal conflict that says why
            return None
        pr = probabilities(vb, max_states, time_budget, bb=bb)
    except (RuleError, NotationError, InconsistentError):
        return None
    if not pr.exact:
        raise _NotExact
    return (vb, pr) if pr.total else None


def exact_courses(record, view, max_states=MAX_STATES, time_budget=TIME_BUDGET,
                  answers_only: bool = False, ps=None):
    """Every consistent course of the record, counted: ``[(view model, Probabilities)]``;
    ``None`` when the rules allow more than :data:`COURSES`, or more than :data:`COURSE_WORK`
    DP states' worth, (or, with ``answers_only``, when a card or a question is unseen), or
    when a course cannot be counted exactly.  ``ps``: the unseen lines' :func:`parts`, when
    the caller has them."""
    lines = unseen_lines(record)
    if not lines:
        return None
    if answers_only and any(not isinstance(record.statements[i].event, UnheardAnswer)
                            for i in lines):
        return None
    ps = ps or parts(record, lines)
    # the rules seldom refuse a card asked for: lines whose card is unseen give about the
    # product of their cards' numbers of courses, too many to follow when it is far above
    # COURSES (two such lines while six half-suits are open: 36 x 36)
    if math.prod(len(p[2]) for p in ps) > CARD_FACTOR * COURSES:
        return None
    values = rule_courses(record, lines, ps)
    if values is None:
        return None
    n = len(values)
    out = []
    try:
        for value in values:
            r = _count(course_record(record, lines, value), view, max_states, time_budget)
            if r is not None:
                if n * max(r[1].states, 1) > COURSE_WORK:
                    return None         # too much work: the course chain estimates
                out.append(r)
    except _NotExact:
        return None
    return out or None


def orbit_courses(record, view, max_states=MAX_STATES, time_budget=TIME_BUDGET, ps=None):
    """Every consistent course of the record, counted one per orbit under the card classes
    (:func:`card_classes`): ``([(view model, Probabilities, orbit size)], key classes)``;
    ``None`` when the unseen lines' values multiply to more than :data:`ORBIT_WORK`, the
    rules allow more than :data:`ORBIT_COURSES` courses, there are more than :data:`ORBITS`
    orbits or :data:`COURSE_WORK` DP states' worth of them, or a course cannot be counted
    exactly.  Each orbit's courses have the same number of deals, so the figures are
    exact: the representative's weighed by the orbit size, each card's averaged over its
    class (:func:`_symmetrise`)."""
    lines = unseen_lines(record)
    if not lines:
        return None
    ps = ps or parts(record, lines)
    if math.prod(len(p[1]) * len(p[2]) * len(p[3]) for p in ps) > ORBIT_WORK:
        return None
    classes = card_classes(record, view)
    if not classes:
        return None
    first: dict = {}            # canonical course -> (the first course of its orbit, its play)

    def keep(value, play):
        key = _canonical(value, classes)[0]
        if key not in first:
            first[key] = (value, play)

    values = rule_courses(record, lines, ps, most=ORBIT_COURSES, work=ORBIT_WORK, keep=keep)
    if values is None:
        return None
    orbits = _orbits(values, classes)
    if orbits is None or len(orbits) > ORBITS:
        return None
    out = []
    try:
        for key, size in orbits:
            # any course of the orbit has its number of deals and, averaged over the card
            # classes, its figures: the first one found, whose replay is at hand
            value, play = first[key]
            r = _count(course_record(record, lines, value), view, max_states, time_budget,
                       play)
            if r is not None:
                if len(orbits) * max(r[1].states, 1) > COURSE_WORK:
                    return None
                out.append((*r, size))
    except _NotExact:
        return None
    return (out, key_classes(record, classes)) if out else None


def rule_courses(record, lines, ps=None, most: int | None = None,
                 work: int | None = None, keep=None) -> list[tuple] | None:
    """The courses of ``record``'s unseen ``lines`` that the engine accepts (the public
    rules: the turn order, the claims, later ``turn:`` lines, ...), each a tuple of
    (opponent, card, answer) per line; ``None`` when there are more than ``most``
    (:data:`COURSES`) or finding them takes more than ``work`` (:data:`ENGINE_WORK`)
    engine steps.  Line by line: each value of an unseen line is replayed, on a fork of the
    play before it, up to the next unseen line, so a value refused there is dropped with
    every course that would follow it (the same statements in the same order as the
    course's whole replay: the same verdict).  ``keep(value, play)``, when given, is called
    with each course and its replay (its own fork)."""
    most = COURSES if most is None else most
    work = ENGINE_WORK if work is None else work
    ps = ps or parts(record, lines)
    sts = record.statements
    out: list[tuple] = []
    spent = 0

    def follow(j: int, play: Play, prefix: tuple) -> bool:
        nonlocal spent
        i = lines[j]
        upto = lines[j + 1] if j + 1 < len(lines) else len(sts)
        asker = _asker(sts[i].event)
        for target, card, answer in itertools.product(ps[j][1], ps[j][2], ps[j][3]):
            spent += 1
            if spent > work:
                return False
            ask = Ask(asker, target, card, answer)
            p = play.fork()
            try:
                p.run([replace(sts[i], event=ask, text=str(ask)), *sts[i + 1:upto]])
            except (RuleError, NotationError):
                continue
            value = prefix + ((target, card, answer),)
            if j + 1 < len(lines):
                if not follow(j + 1, p, value):
                    return False
            else:
                out.append(value)
                if keep is not None:
                    keep(value, p)
                if len(out) > most:
                    return False
        return True

    return out if follow(0, Play.of(record, upto=lines[0]), ()) else None


def figures(record, view, vm: ViewModel, max_states=MAX_STATES, time_budget=TIME_BUDGET,
            seed: int = 0) -> Mix | None:
    """The figures of a record with unseen events, seen by ``view`` (``vm``: its history
    model): exact from every course when they are few, else the course chain; ``None``
    when a course cannot be counted exactly (the caller falls back to the history model's
    witness estimates)."""
    lines = unseen_lines(record)
    if not lines:
        return None
    ps = parts(record, lines)
    branches: list | None = exact_courses(record, view, max_states, time_budget, ps=ps)
    classes: list = []
    if branches:
        branches = [(vb, pr, 1) for vb, pr in branches]
    else:
        got = orbit_courses(record, view, max_states, time_budget, ps=ps)
        if got:
            branches, classes = got
    if branches:
        W = sum(pr.total * n for _, pr, n in branches)
        pairs = 2 * len(vm.play.open_halves())
        if sum(max(pr.states, TEAM_COUNT_FLOOR) for _, pr, _ in branches) * pairs > TEAM_WORK:
            from solver.model.counting import sample_deal_rows

            rows: list[np.ndarray | None] = [
                sample_deal_rows(vb.model, COURSE_DEALS, i, max_states=None, exact_ints=False)
                for i, (vb, _, _) in enumerate(branches)]
        else:
            rows = [None] * len(branches)
        figs = [_figures(vb, pr, max_states, time_budget, rows=r)
                for (vb, pr, _), r in zip(branches, rows)]
        figs = [(_symmetrise(f[0], classes),) + tuple(f[1:]) for f in figs]
        probs, pteam, pt_exact, pt_err = _mix(
            vm, [(f, pr.total * n / W) for f, (_, pr, n) in zip(figs, branches)],
            max(pr.states for _, pr, _ in branches))
        probs = replace(probs, exact=True, error=0.0, total=W, method="courses")
        return Mix(probs, pteam, pt_exact, pt_err, sum(n for _, _, n in branches))
    try:
        return _chain(record, view, vm, lines, ps, max_states, time_budget, seed)
    except _NotExact:
        return None


def _figures(vb, pr, max_states, time_budget, rows=None):
    """One course's figures: (current places, team probabilities, exact, error); with
    ``rows`` (deals drawn from it) the team probabilities are their shares, not counts."""
    lp, _ = current(vb, pr)
    return (lp,) + tuple(team_probabilities(vb, pr, max_states, time_budget, rows=rows))


def _mix(vm: ViewModel, weighted, states: int):
    """Weighted figures of courses ``[(figures, weight)]``: (Probabilities over ``vm``'s
    model cards, team probabilities, whether those are exact, their error)."""
    bb = backbone(vm)
    loc: dict = {}
    pteam: dict = {}
    seen: dict = {}             # (half, team) -> the courses' values (0 and 1 stay exact)
    pt_exact, pt_err = True, 0.0
    for (lp, pt, ex, err), w in weighted:
        for k, d in lp.items():
            row = loc.setdefault(k, {})
            for l, p in d.items():
                row[l] = row.get(l, 0.0) + w * p
        pt_exact = pt_exact and ex
        pt_err = max(pt_err, err)
        for key, p in pt.items():
            pteam[key] = pteam.get(key, 0.0) + w * p
            seen.setdefault(key, set()).add(p)
    marg = {k: {l: p for l, p in loc.get(k, {}).items() if l in bb.possible[k]}
            for k in vm.model.cards}
    probs = Probabilities(True, 0.0, 0.0, marg, bb.possible, "courses", 0.0, states)
    for key, vals in seen.items():      # a weighted sum rounds: the same 0 or 1 in every
        if vals in ({0.0}, {1.0}):       # course is exactly that
            pteam[key] = next(iter(vals))
        else:
            pteam[key] = min(max(pteam[key], 0.0), 1.0)
    return probs, pteam, pt_exact, pt_err


def _neighbour(ps, value, rng: random.Random, half_of=None):
    """``value`` with one of its parts (opponent, card or answer) changed to another value,
    uniformly: a symmetric proposal.  With ``half_of`` (card -> its half-suit), a card is
    half the time changed to another of its half-suit (LIT-6(c) holds there whenever it
    held: far more of those are rule-following courses), else to any other: each kernel
    symmetric, and so their mixture."""
    free = [j for j in (1, 2, 3) if len(ps[j]) > 1]
    if not free:
        return value
    j = rng.choice(free)
    cur = value[j - 1]
    pool = ps[j]
    if j == 2 and half_of is not None and rng.random() < 0.5:
        pool = [x for x in pool if half_of[x] == half_of[cur]]
        if len(pool) < 2:
            return value
    new = rng.choice([x for x in pool if x != cur])
    out = list(value)
    out[j - 1] = new
    return tuple(out)


def _chain(record, view, vm, lines, ps, max_states, time_budget, seed) -> Mix | None:
    bb = backbone(vm)               # finds the witness histories the chains start from
    starts = []
    for c in vm.model.courses:
        v = tuple((c[record.statements[i].line].target, c[record.statements[i].line].card,
                   c[record.statements[i].line].answer) for i in lines)
        if v not in starts:
            starts.append(v)
    if not bb.consistent or not starts:
        return None
    starts = starts[:CHAIN_STARTS]
    from solver.literature.table import table_of

    half_of = {c: h.name for h in table_of(record.header).halves for c in h.cards}
    cache: dict = {}
    drawn: dict = {}
    from solver.model.counting import sample_deal_rows

    def at(v):
        if v not in cache:
            r = cache[v] = _count(course_record(record, lines, v), view, max_states,
                                  time_budget)
            if r is not None:       # from the count's own tables, just kept: cheap
                drawn[v] = sample_deal_rows(r[0].model, COURSE_DEALS, len(cache),
                                            max_states=None, exact_ints=False)
        return cache[v]

    first = at(starts[0])
    if first is None:               # pragma: no cover - a witness is a consistent course
        return None
    steps = CHAIN_WORK // max(first[1].states, 1)
    if steps < CHAIN_STEPS[0]:
        return None                 # each course too costly to count often enough
    steps = min(steps, CHAIN_STEPS[1])
    per = max(steps // len(starts), 2 * BATCHES)
    rng = random.Random(seed * 7919 + len(record.statements))
    chains, moves = [], 0
    for s in starts:
        cur = s
        if at(cur) is None:         # pragma: no cover
            continue
        visits = []
        for _ in range(per):
            j = rng.randrange(len(lines))
            values = list(cur)
            values[j] = _neighbour(ps[j], cur[j], rng, half_of)
            prop = tuple(values)
            r = at(prop)
            if r is not None and rng.random() * at(cur)[1].total < r[1].total:
                moves += prop != cur
                cur = prop
            visits.append(cur)
        chains.append(visits[len(visits) // 5:])        # burn-in: the first fifth
    if not chains:
        return None
    # per visited course: its card and team figures, once
    counts: dict = {}
    for ch in chains:
        for v in ch:
            counts[v] = counts.get(v, 0) + 1
    # a visited course counts: at(v) is its (view model, Probabilities)
    # each card's figures averaged over its class of exchangeable cards (card_classes): the
    # exact figures are unchanged by it, the estimate's are the same for cards the record
    # treats alike
    classes = key_classes(record, card_classes(record, view))
    figs = {v: _figures(*cast("tuple[ViewModel, Probabilities]", at(v)), max_states,
                        time_budget, rows=drawn[v]) for v in counts}
    figs = {v: (_symmetrise(f[0], classes),) + tuple(f[1:]) for v, f in figs.items()}
    n = sum(counts.values())
    probs, pteam, pt_exact, pt_err = _mix(vm, [(figs[v], c / n) for v, c in counts.items()],
                                          max(at(v)[1].states for v in counts))
    # batch means over every chain's batches
    batches = []
    for ch in chains:
        size = max(len(ch) // BATCHES, 1)
        for b in range(0, len(ch) - size + 1, size):
            batches.append(ch[b:b + size])
    err = 0.0
    keys = [(k, l) for k in vm.model.cards for l in vm.model.locations
            if l in bb.possible[k] and len(bb.possible[k]) > 1]
    if len(batches) > 1:
        series = [[sum(figs[v][0].get(k, {}).get(l, 0.0) for v in b) / len(b) for b in batches]
                  for k, l in keys]
        series += [[sum(figs[v][1][key] for v in b) / len(b) for b in batches]
                   for key in pteam]
        for xs in series:
            mu = sum(xs) / len(xs)
            sd = math.sqrt(sum((x - mu) ** 2 for x in xs) / (len(xs) - 1))
            err = max(err, Z95 * sd / math.sqrt(len(xs)))
    err = max(err, wilson_halfwidth(0.5, moves + 1))
    if len(counts) < CHAIN_TRUST:
        # too few courses seen for the batch means to mean anything (a chain of 96
        # proposals over 1 692 courses, 31 seen, was 0.25 off with a bar of 0.14; one of
        # 600 proposals, 117 seen, 0.14 off with 0.084): no error bar, as the witness shares
        err = 0.5
    # 0 and 1 only from the certainties: a team event no visited course allows is checked
    # by the history model; one that every visited course has is not thereby certain
    hprobs = replace(probs, possible=bb.possible)
    unvisited = []                  # (key, free cards, team) no visited course allows
    for (h, ti), p in list(pteam.items()):
        team = vm.table.teams[ti]
        d, free = _decided(vm, hprobs, vm.play.keys_of_half(h), team)
        if d is not None:
            pteam[h, ti] = d
        elif p <= 0.0:
            unvisited.append(((h, ti), free, team))
        else:
            pteam[h, ti] = min(max(p, 1e-6), 1 - 1e-6)
    from solver.literature.inference import _history_teams

    # a witness history has it, or CP-SAT says whether one can (one proof for all)
    for (key, _, _), (p, exact) in zip(unvisited, _history_teams(
            vm, [(free, team) for _, free, team in unvisited])):
        pteam[key] = 0.0 if (p, exact) == (0.0, True) else 1e-6
    probs = replace(probs, exact=False, error=err, method="course chain")
    return Mix(probs, pteam, False, max(err, pt_err), len(counts))
