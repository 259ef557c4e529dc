"""Literature inference: the deal as a card-location model, current holders, probabilities.

The hidden information is the deal; every later move is public (O1..O7).  The model's cards
are all the physical cards, its locations the players, their sizes the dealt counts (LIT-4,
A7), and every statement at its time t is a constraint on the deal over the cards that had
not moved by then (:class:`solver.literature.engine.Fact`).  A card's *current* holder is its
last public move's receiver, or, if it never moved, the player it was dealt to; so the
model's marginals for unmoved cards are current probabilities.

Views (:func:`hands_seen`): the recorder of a partial record (not every hand listed) wrote
every ``holds`` line ("a hand known to the recorder": its own, a revealed one;
record-format.md), so it uses them all: ``me:``, or, in a spectator's record (no ``me:``),
the public view, which is the spectator's own (:data:`RECORDER`, resolved by
:func:`seen_by`); any other player sees the public moves and their own ``holds`` lines; the
public view of a player's record, or of a complete one, sees only the moves; :data:`ALL`
(for ``check``) uses every line of the record.  Under ``memory=last-question`` (A9) the
model is of the *current* hands instead, knowing only the hands the view sees, the card
counts, the resolved half-suits and the last question.

Probabilities assume a uniformly random deal and truthful, rule-following players.  They
are exact when the exact count of :mod:`solver.model.counting` fits its state budget, otherwise
estimates (``exact`` false, ``error`` = 95 % half-width); certainties always come from exact
counting or CP-SAT, so an estimate never contradicts one.
"""
from __future__ import annotations

import copy
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Hashable, Literal, cast, overload

from solver.cards import Card
from solver.errors import NotationError, RuleError
from solver.model import CardLocationModel, Explanation, Reason
from solver.model.stats import wilson_halfwidth
from solver.model.view import ModelView
from solver.literature.events import Ask, Claim, parse_event
from solver.literature.engine import OUT, Play, recorder_of
from solver.literature.table import Table
from solver.literature.views import ALL, RECORDER, hands_seen, is_complete, seen_by  # noqa: F401

if TYPE_CHECKING:
    import numpy as np

    from solver.literature.history import HistoryModel
    from solver.records import Record

MAX_STATES = 200_000
TIME_BUDGET = 1.0
SAMPLES = 2000


@dataclass
class ViewModel(ModelView):
    """A view's model: ``fixed`` maps cards whose current place is known outright (moved
    publicly, out of play) to it; the others' current place is their model location."""

    play: Play
    table: Table
    view: str | None
    model: CardLocationModel | HistoryModel
    fixed: dict[str, str]
    statements: dict[int, str]
    deal: bool = True
    #: (record, view as asked: a player, None or ALL) of a model whose certainties only
    #: grow as statements are added (the whole memory): the key under which they are kept
    #: for the next statement (:func:`solver.literature.history.carried`); else None
    source: tuple[Record, str | None] | None = None
    #: the line that places each key of ``fixed`` placed by a hand the view saw (the memory
    #: modes: its ``holds`` line, or a later move into it), for ``why``
    fixed_by: dict[str, int] = field(default_factory=dict)
    #: each hand's count now, when the model was built on counts the engine alone does not
    #: give (the memory modes after unseen events: :func:`counts_now`); else None
    counts: dict[str, int] | None = None

    @property
    def history(self) -> bool:
        """Whether the model is the whole history (a record with unseen events)."""
        from solver.literature.history import HistoryModel

        return isinstance(self.model, HistoryModel)

    def free_keys(self) -> list[str]:
        return [k for k in self.table.keys if k not in self.fixed]

    def loc_label(self, loc: str) -> str:
        return _label(loc)


def view_facts(play: Play, hands: frozenset[str]):
    """The facts a view knows (the public ones, and the ``holds`` lines of ``hands``:
    :func:`hands_seen`), without those implied by a later one: "at least lo of K at A" is
    implied by "at least lo' >= lo of K' at A" when K' is a subset of K (the LIT-6(c)
    facts of repeated questions in one half-suit shrink like that, O3)."""
    facts = [f for f in play.facts if f.private is None or f.private in hands]
    atleast: dict[str, list] = {}
    for i, f in enumerate(facts):
        if f.lo >= 1 and f.hi >= len(f.keys) and len(f.keys) > 1:
            atleast.setdefault(f.player, []).append((i, frozenset(f.keys), f.lo))
    drop = set()
    for p, items in atleast.items():
        for i, ki, li in items:
            for j, kj, lj in items:
                if j != i and j not in drop and kj <= ki and lj >= li and (kj != ki or j > i):
                    drop.add(i)
                    break
    for i, f in enumerate(facts):
        if i not in drop:
            yield f


def build(record, view, play: Play | None = None) -> ViewModel:
    """The model of ``record`` seen by ``view`` (a player, ``None`` = public, :data:`ALL`,
    :data:`RECORDER`: see :func:`seen_by`)."""
    play = play or Play.of(record)
    t = play.table
    statements = {s.line: s.text for s in record.statements}
    shown = view if view not in (ALL, RECORDER) else None   # the view the analysis names
    hands = hands_seen(record, view)
    if play.unseen and t.options.memory != "full" and view != ALL:
        return _build_current(play, view, hands, statements, _unseen_events(record),
                              recorder_of(record), counts_now(record, play, view))
    if play.unseen:
        from solver.literature.history import HistoryModel

        # the history model uses every holds line for ALL (the recorder's are all of them)
        hm = HistoryModel(record, ALL if view == RECORDER else view, play)
        hm.course_places = course_places
        return ViewModel(play, t, shown, hm, dict(hm.fixed), statements, True, (record, view))
    if t.options.memory != "full" and view != ALL:
        return _build_current(play, view, hands, statements)
    names = {k: repr(c) for k, c in t.key_card.items()}
    m = CardLocationModel(list(t.keys), dict(t.sizes), names)
    m.groups = _team_groups(t, m)
    for f in view_facts(play, hands):
        # the note cites the fact's rule: the one a contradiction rests on (conflict_rule)
        note = f"{f.note} ({f.rule})" if f.rule and f.rule not in f.note else f.note
        m.add(f.keys, [f.player], f.lo, f.hi, source=f.line, note=note)
    fixed = {k: l for k, l in play.loc.items() if l is not None}
    return ViewModel(play, t, shown, m, fixed, statements, True, (record, view))


def _team_groups(t, m) -> dict:
    """Each player's team (``model.groups``): the count never lumps or merges players of
    different teams, so the chance that a team holds a whole half-suit (what a claim
    needs, LIT-11) comes from its own tables."""
    return {p: ti for ti, team in enumerate(t.teams) for p in team if p in m.sizes}


def _remembered(play: Play) -> list:
    """The questions a memory mode keeps (A9): ``last-question`` the last one; the house
    rule ``last-two`` those among the last two actions (questions and claims), dropping the
    older question when the newer moved a card of its half-suit (its facts may be stale)."""
    if play.table.options.memory == "last-question":
        return play.asks[-1:]
    t = play.table
    claims: list[tuple[int, Ask | None]] = [(r.line, None) for r in play.results]
    actions = sorted(play.asks + claims, key=lambda x: x[0])[-2:]
    out = [(ln, a) for ln, a in actions if a is not None]
    if len(out) == 2 and out[1][1].answer in ("yes", "surrendered") and \
            t.half_of[out[1][1].card] == t.half_of[out[0][1].card]:
        out = out[1:]
    return out


def _unseen_events(record) -> list[tuple[int, object]]:
    """(line, event) of the statements that left something unseen (``?``)."""
    from solver.literature.events import UnheardAnswer, UnheardCard, Unseen

    return [(s.line, s.event) for s in record.statements
            if isinstance(s.event, (UnheardCard, UnheardAnswer, Unseen))]


def counts_now(record, play: Play, view=None) -> dict[str, int | None]:
    """Each hand's count now where the record determines it for ``view``, else ``None``.

    The engine's count, or, where unseen events leave it a range, the count every
    rule-following history ends with, as the whole-memory model of the view has them
    (:meth:`~solver.literature.history.HistoryModel.counts`): the turn order, ``turn:`` and
    ``has N cards`` lines, who could have been asked (never the recorder, nor a teammate,
    nor a player without cards) and what the view's hands say the one asked could hold
    often leave one count, as when ``turn: Cleo`` after ``Ben: ?`` says Ben asked Cleo and
    was refused.  Counts are public (O1, LIT-13(b)): a forgetful player may know them
    whatever they forgot.  A record no history fits leaves its open counts ``None``."""
    t = play.table
    out: dict[str, int | None] = {
        p: play.vague[p][0] if p in play.vague else play.count[p] for p in t.players}
    open_ = [p for p in t.players if p in play.vague and play.vague[p][0] != play.vague[p][1]]
    if not open_:
        return out
    from solver.literature.history import HistoryModel

    # the model the whole memory has of this view (build: the recorder's uses every line)
    hm = HistoryModel(record, ALL if view == RECORDER else view, play)
    if not hm.one_history():
        return {**out, **dict.fromkeys(open_)}
    got = hm.counts()
    out.update({p: got[p] for p in open_})
    return out


def _touches(t, ev, p, recorder: str | None = None) -> bool:
    """Whether an unseen question may have moved a card to or from ``p``: ``Ben: ?`` never
    asks the ``recorder`` of a partial record (:func:`~solver.literature.engine.recorder_of`:
    a question asked of them is one they heard)."""
    from solver.literature.events import Unseen

    if isinstance(ev, Unseen):
        return ev.player == p or (p != recorder and t.opponents(ev.player, p))
    return p in (ev.asker, ev.target)


def _build_current(play: Play, view, hands: frozenset[str], statements,
                   unseen=(), recorder: str | None = None,
                   counts: dict[str, int | None] | None = None) -> ViewModel:
    """A9 ``memory=last-question`` (and the house rule ``last-two``): the current hands,
    knowing only the hands the view sees (``hands``: :func:`hands_seen`), the counts (O1),
    the resolved half-suits and the remembered questions with their answers
    (:func:`_remembered`).

    With unseen events (``?``) the same memory, kept sound: the mode is built on the counts
    (``counts``: :func:`counts_now`), so a count the record leaves open must be logged
    (``P has N cards``, LIT-13); a question followed by an unseen one is forgotten (a card
    of its half-suit may have moved since); a hand the view saw is used only when no unseen
    question may have moved one of its cards."""
    t = play.table
    if counts is None:
        counts = {p: play.vague[p][0] if p in play.vague else play.count[p]
                  for p in t.players}
    vague = [p for p in t.players if counts[p] is None]
    if vague:
        first = unseen[0][0] if unseen else play.first_unseen
        raise RuleError(f"memory={t.options.memory} models the current hands from the card "
                        f"counts, and after the unseen events (line {first}) the counts of "
                        + ", ".join(vague) + " are not known: log them ('"
                        + f"{vague[0]} has N cards', LIT-13) or use memory=full",
                        text=f"memory={t.options.memory}", rule="A9")
    count = {p: n for p, n in counts.items() if n is not None}
    fixed = {k: OUT for k, l in play.loc.items() if l == OUT}
    known: dict[str, int] = {}      # player -> the holds line its hand now comes from
    fixed_by: dict[str, int] = {}
    for p in [q for q in t.players if q in hands]:
        last = [(ln, h) for ln, h in play.holds if h.player == p]
        if last and any(ln > last[-1][0] and _touches(t, ev, p, recorder)
                        for ln, ev in unseen):
            last = []           # an unseen question may have changed that hand
        if last:
            known[p], h = last[-1]
            hand = Counter(h.cards)
            since = dict.fromkeys(hand, known[p])     # card -> the line that put it there
            for mv in play.moves:
                if mv.line <= known[p]:
                    continue
                card = t.key_card[mv.key]
                if mv.dst == p:
                    hand[card] += 1
                    since[card] = mv.line
                if mv.src == p:
                    hand[card] -= 1
            for card, n in hand.items():
                ks = [k for k in t.card_keys[card] if k not in fixed]
                for k in ks[:n]:
                    fixed[k] = p
                    fixed_by[k] = since[card]
    keys = [k for k in t.keys if k not in fixed]
    sizes = {p: count[p] - sum(1 for l in fixed.values() if l == p) for p in t.players}
    names = {k: repr(t.key_card[k]) for k in keys}
    m = CardLocationModel(keys, sizes, names)
    m.groups = _team_groups(t, m)
    for p, line in known.items():
        # a hand the view sees is all fixed: no other card is there
        m.add(keys, [p], 0, 0, source=line,
              note=f"{p} sees their own hand" if p == view else f"{p}'s hand is known")
    for line, ask in _remembered(play):
        if any(ln > line for ln, _ in unseen):
            continue            # forgotten: an unseen question came after it
        h = t.half_of[ask.card]
        if play.status[h.name][0] == "open":
            hk = [k for k in play.keys_of_half(h.name)]
            ck = list(t.card_keys[ask.card])
            a, b = ask.asker, ask.target
            if ask.answer in ("yes", "surrendered"):
                who = a if ask.answer == "yes" else b
                if not any(fixed.get(k) == who for k in ck):   # else the viewer holds it
                    m.add([k for k in ck if k in keys][:1], [who], 1, 1, line,
                          f"{who} got {ask.card!r} "
                          f"({'LIT-7' if ask.answer == 'yes' else 'V11'})")
            else:
                fixed_a = sum(1 for k in hk if fixed.get(k) == a)
                if not fixed_a:
                    m.add([k for k in hk if k in keys], [a], 1, len(hk), line,
                          f"{a} holds a card of {h.name} (LIT-6(c))")
                m.add([k for k in ck if k in keys], [b], 0, 0, line,
                      f"{b} does not hold {ask.card!r} (O2)")
                if t.options.own_card_ask != "bluff":
                    m.add([k for k in ck if k in keys], [a], 0, len(ck) - 1, line,
                          f"{a} does not hold {ask.card!r} (LIT-6(d))")
    return ViewModel(play, t, view if view != RECORDER else None, m, fixed, statements, False,
                     fixed_by=fixed_by, counts=count if play.vague else None)


# ----- counting ------------------------------------------------------------------------------
def _count(model: CardLocationModel, max_states: int, time_budget: float):
    """A count that is deterministic (see :func:`deterministic_count`)."""
    from solver.model.counting import deterministic_count

    return deterministic_count(model, max_states)



@dataclass
class Probabilities:
    """Per free card: model location -> probability; exactness and the possible sets."""

    exact: bool
    error: float
    total: float
    marginals: dict[Hashable, dict[str, float]]
    possible: dict[Hashable, set[str]]
    method: str = ""
    seconds: float = 0.0
    states: int = 0
    #: an estimate's exactly uniform accepted deals (array deals x model cards of location
    #: indices), when the estimate kept them
    deals: np.ndarray | None = field(default=None, repr=False, compare=False)


def course_places(record, view) -> tuple[dict, dict] | None:
    """The places of a complete record (a course of a record with unseen events, for
    :meth:`~solver.literature.history.HistoryModel._spread`) seen by ``view``: (the keys
    it fixes, with their places; every other key's possible places), or ``None`` when the
    engine or the deal model refuses it."""
    from solver.errors import InconsistentError

    try:
        vb = build(record, view)
        if vb.history:          # pragma: no cover - a course has no unseen part
            return None
        bb = backbone(vb)
    except (RuleError, NotationError, InconsistentError):
        return None
    return (vb.fixed, bb.possible) if bb.consistent else None


def backbone(vm: ViewModel):
    """Exact possible locations: by network flow when the facts allow it
    (:mod:`solver.literature.flow`), else by CP-SAT."""
    from solver.literature.flow import flow_backbone

    if vm.history:
        return vm.model.backbone()
    bb = flow_backbone(vm.model)
    return bb if bb is not None else vm.model.backbone()


def probabilities(vm: ViewModel, max_states=MAX_STATES, time_budget=TIME_BUDGET,
                  seed: int = 0, bb=None) -> Probabilities:
    """The figures of ``vm``; ``bb``: its :func:`backbone`, when the caller has it."""
    m = vm.model
    t0 = time.perf_counter()
    bb = backbone(vm) if bb is None else bb
    if not bb.consistent:
        raise vm.inconsistent()
    if vm.history:
        return _history_probabilities(vm, bb, t0)
    # the support in location order (a set's order would change the last digits)
    support = {k: dict.fromkeys(l for l in m.locations if l in bb.possible[k])
               for k in m.cards}
    from solver.model.counting import deterministic_count, stretched

    # the exact attempt may stretch past max_states (see STRETCH)
    counting = deterministic_count(m, max_states, support, len(vm.statements),
                                   stretch=stretched(max_states, STRETCH))
    if counting.exact:
        if not counting.total:   # cannot happen after a consistent backbone
            raise vm.inconsistent()
        return Probabilities(True, 0.0, counting.total, counting.marginals, bb.possible,
                             counting.method, time.perf_counter() - t0, counting.states)
    marg = {}
    for k in m.cards:  # clamp the estimate to the exact support
        poss = bb.possible[k]
        if len(poss) == 1:
            marg[k] = {next(iter(poss)): 1.0}
            continue
        d = counting.marginals.get(k, {})
        eps = 1e-6
        ordered = [l for l in m.locations if l in poss]
        row = {l: min(max(d.get(l, 0.0), eps), 1 - eps) for l in ordered}
        if not d:      # nothing estimated: uniform over the possible places
            row = {l: 1.0 for l in ordered}
        tot = sum(row.values())
        marg[k] = {l: q / tot for l, q in row.items()}
    return Probabilities(False, counting.error, counting.total, marg, bb.possible,
                         counting.method, time.perf_counter() - t0,
                         deals=cast("np.ndarray", counting.deals)   # an array when "sampled"
                         if counting.method == "sampled" else None)


#: further witness histories drawn for the estimates of a record with unseen events
HISTORY_SAMPLES = 4


def _history_probabilities(vm: ViewModel, bb, t0) -> Probabilities:
    """Estimates for a record with unseen events: the share of the witness histories (found
    for the certainties, and by random objectives) that end with the card at each possible
    place.  Not a uniform sample: labelled ``exact: false``; 0 and 1 stay logical."""
    m = cast("HistoryModel", vm.model)     # vm.history
    m.more_samples(HISTORY_SAMPLES, seed=len(vm.statements))
    marg = {}
    for k in m.cards:
        poss = [l for l in m.locations if l in bb.possible[k]]
        if len(poss) == 1:
            marg[k] = {poss[0]: 1.0}
            continue
        n = Counter(d.get(k) for d in m.samples)
        row = {l: min(max(n[l] / max(len(m.samples), 1), 1e-6), 1 - 1e-6) for l in poss}
        tot = sum(row.values())
        marg[k] = {l: q / tot for l, q in row.items()}
    return Probabilities(False, 0.5, 0.0, marg, bb.possible, "witness histories",
                         time.perf_counter() - t0, 0)


def _history_ratio(vm: ViewModel, require: dict[str, list[tuple[list, int]]]):
    """P(for every (keys, n) in require[loc]: exactly n of keys at loc) for a record with
    unseen events: 0 when no history allows it, else the share of witnesses (estimate)."""
    m = cast("HistoryModel", vm.model)     # vm.history

    def add(b, final):
        for loc, items in require.items():
            for keys, n in items:
                b.cons([final[k, loc] for k in keys], n, n, None)

    hits = sum(1 for d in m.samples
               if all(sum(1 for k in keys if d.get(k) == loc) == n
                      for loc, items in require.items() for keys, n in items))
    if not hits and not m.possible_with(add):
        return 0.0, True
    p = hits / max(len(m.samples), 1)
    return min(max(p, 1e-6), 1 - 1e-6), False


def _history_team(vm: ViewModel, free, team):
    """P(all of ``free`` in ``team``) for a record with unseen events (see above)."""
    return _history_teams(vm, [(free, team)])[0]


def _history_teams(vm: ViewModel, groups) -> list[tuple[float, bool]]:
    """:func:`_history_team` of each ``(free, team)`` of ``groups``: the share of the witness
    histories; 0 (exact) where none has it and CP-SAT proves no history can (one proof for
    all of them, :meth:`~solver.literature.history.HistoryModel.possible_each`)."""
    m = cast("HistoryModel", vm.model)     # vm.history

    def require(free, team):
        return lambda b, final, lit: b.cons([final[k, p] for k in free for p in team],
                                            len(free), len(free), None, also=(lit,))

    hits = [sum(1 for d in m.samples if all(d.get(k) in team for k in free))
            for free, team in groups]
    unseen = [g for g, h in zip(groups, hits) if not h]
    possible = iter(m.possible_each([require(*g) for g in unseen]))
    out = []
    for h in hits:
        if not h and not next(possible):
            out.append((0.0, True))
        else:
            out.append((min(max(h / max(len(m.samples), 1), 1e-6), 1 - 1e-6), False))
    return out


def joint(vm: ViewModel, probs: Probabilities, require: dict[str, list[tuple[list, int]]],
          max_states=MAX_STATES, time_budget=TIME_BUDGET, seed: int = 0) -> tuple[float, bool]:
    """P(for every (keys, n) in require[loc]: exactly n of keys are at loc); and whether
    it is exact.  Cards in ``require`` are free (model) cards."""
    m = vm.model
    for loc, items in require.items():
        for keys, n in items:
            if n < 0 or n > len(keys):
                return 0.0, True
    if vm.history:
        return _history_ratio(vm, require)
    assert isinstance(m, CardLocationModel)     # not vm.history
    m2 = copy.copy(m)
    m2.constraints = list(m.constraints)
    for loc, items in require.items():
        for keys, n in items:
            m2.add(keys, [loc], n, n)
    return _ratio(m2, probs, max_states, time_budget)


def _ratio(m2: CardLocationModel, probs: Probabilities, max_states, time_budget,
           exact_only: bool = False):
    """P(extra constraints) = count(m2) / count(model); exact when both counts are.
    ``exact_only``: ``None`` when count(m2) is over budget (no estimate is made)."""
    if exact_only:
        from solver.model.counting import OverBudget, exact_count

        try:
            c = exact_count(m2, max_states=max_states, exact_total=False)
        except OverBudget:
            return None
    else:
        c = _count(m2, max_states, time_budget)
    if c.exact and probs.exact:
        return (c.total / probs.total if probs.total else 0.0), True
    if c.exact and c.total == 0:
        return 0.0, True
    if not c.total and not m2.is_consistent():     # an estimate of 0: impossible is 0
        return 0.0, True
    p = c.total / probs.total if probs.total else 0.5
    return min(max(p, 1e-6), 1 - 1e-6), False


def _decided(vm: ViewModel, probs: Probabilities, keys, team) -> tuple[float | None, list]:
    """P(all of ``keys`` in ``team``) when the possible sets decide it (0 or 1), else
    ``None``; and the free keys."""
    free = []
    for k in keys:
        if k in vm.fixed:
            if vm.fixed[k] not in team:
                return 0.0, []
        else:
            free.append(k)
    if not free:
        return 1.0, []
    if any(not (probs.possible[k] & set(team)) for k in free):
        return 0.0, free
    if all(probs.possible[k] <= set(team) for k in free):
        return 1.0, free
    return None, free


@overload
def any_team(vm: ViewModel, probs: Probabilities, keys: list[str], team: tuple[str, ...],
             max_states=..., time_budget=..., exact_only: Literal[False] = ...,
             tables: bool = ...) -> tuple[float, bool]: ...


@overload
def any_team(vm: ViewModel, probs: Probabilities, keys: list[str], team: tuple[str, ...],
             max_states=..., time_budget=..., exact_only: bool = ...,
             tables: bool = ...) -> tuple[float, bool] | None: ...


def any_team(vm: ViewModel, probs: Probabilities, keys: list[str], team: tuple[str, ...],
             max_states=MAX_STATES, time_budget=TIME_BUDGET,
             exact_only: bool = False, tables: bool = True) -> tuple[float, bool] | None:
    """P(all of ``keys`` currently in ``team``): from the exact count's tables
    (:func:`~solver.model.counting.all_in_chances`; ``tables=False``: not tried), else by
    one more exact count (``exact_only``: ``None`` when that count is over budget, instead
    of an estimate of it)."""
    p, free = _decided(vm, probs, keys, team)
    if p is not None:
        return p, True
    if vm.history:
        return _history_team(vm, free, team)
    m = vm.model
    assert isinstance(m, CardLocationModel)     # not vm.history
    if probs.exact and tables:  # from the count's own tables when they keep it apart
        from solver.model.counting import all_in_chances

        ps = all_in_chances(m, [(free, team)], max_states=max_states)
        if ps is not None:
            return ps[0], True
    m2 = copy.copy(m)
    m2.constraints = list(m.constraints)
    m2.add(free, list(team), len(free), len(free))
    return _ratio(m2, probs, max_states, time_budget, exact_only)


def _possible_all_in(vm: ViewModel, free, team) -> bool:
    from solver.literature.flow import flow_backbone

    model = vm.model
    assert isinstance(model, CardLocationModel)     # not vm.history (team_probabilities)
    others = [l for l in model.locations if l not in team]
    bb = flow_backbone(model, {k: others for k in free})
    if bb is not None:
        return bb.consistent

    def all_in(mm, x):
        mm.Add(sum(x[model.card_index(k), model.loc_index(l)]
                   for k in free for l in team) == len(free))

    return model.is_consistent(all_in)


#: DP states (base count's peak x counts needed) allowed for exact team probabilities
PTEAM_STATES = 4_000_000
#: the exact attempt may go past max_states, up to STRETCH[0] times it after a step while
#: the states summed over its steps stay within STRETCH[1] times it
#: (``solver.model.counting``, "stretch"), from either view, the team chances' programme
#: too: the estimate it saves costs about as much, and 8-player jokers games need it to be
#: exact (docs/benchmarks.md)
STRETCH = (2.5, 40.0)
PTEAM_SAMPLES = 1500


def team_probabilities(vm: ViewModel, probs: Probabilities, max_states=MAX_STATES,
                       time_budget=TIME_BUDGET, rows=None) -> tuple[dict, bool, float]:
    """``{(half, team index): P(team holds all of it)}`` for the open half-suits.

    Decided by the possible sets where they decide it (exact 0 or 1).  Otherwise by one
    exact count each when the base count was cheap enough for all of them to fit
    :data:`PTEAM_STATES`; otherwise estimated from exactly uniform sampled deals (or, when
    the deals cannot be counted, from the product of the cards' estimated probabilities).
    ``rows``: exactly uniform deals already drawn (array deals x model cards of location
    indices): the estimate uses them, with no exact counts (the course chain's courses).
    Returns the probabilities, whether all are exact, and the estimates' 95 % half-width.
    """
    t, play = vm.table, vm.play
    out: dict = {}
    todo = []
    for h in play.open_halves():
        hk = play.keys_of_half(h)
        for ti in (0, 1):
            p, free = _decided(vm, probs, hk, t.teams[ti])
            if p is not None:
                out[h, ti] = p
            else:
                todo.append((h, ti, free))
    if not todo:
        return out, True, 0.0
    if vm.history:
        for (h, ti, _), (p, _) in zip(todo, _history_teams(
                vm, [(free, t.teams[ti]) for _, ti, free in todo])):
            out[h, ti] = p
        return out, False, 0.5
    if rows is None and probs.exact:
        # every team chance at once, exactly, from one programme whose classes keep the
        # half-suits apart (counting.all_in_chances), within the base count's budget
        from solver.model.counting import all_in_chances, stretched

        ps = all_in_chances(vm.model, [(free, t.teams[ti]) for _, ti, free in todo],
                            max_states=max_states,
                            stretch=stretched(max_states, STRETCH))
        if ps is not None:
            for (h, ti, _), p in zip(todo, ps):
                out[h, ti] = p
            return out, True, 0.0
    # over that budget (the split classes cost more states): one exact count each when
    # the base count was cheap enough for all of them to fit PTEAM_STATES (those over
    # budget are shares of uniform deals below: an estimate of a count ratio would have
    # no error bar); after a stretched base count there is no room for them
    if rows is None and probs.exact and probs.states <= max_states and \
            max(probs.states, 1) * len(todo) <= PTEAM_STATES:
        left = []
        for h, ti, free in todo:
            r = any_team(vm, probs, play.keys_of_half(h), t.teams[ti], max_states,
                         time_budget, exact_only=True, tables=False)
            if r is None:
                left.append((h, ti, free))
            else:
                out[h, ti] = r[0]
        if not left:
            return out, True, 0.0
        todo = left
    import numpy as np

    li = {l: i for i, l in enumerate(vm.model.locations)}
    ki = {k: i for i, k in enumerate(vm.model.cards)}
    arr = None
    if rows is not None:                    # deals drawn by the caller
        arr = np.asarray(rows) if len(rows) else None
    elif probs.exact:
        # uniform deals from the exact count's own tables (kept by counting; a count
        # stretched past max_states could not be redone within it)
        from solver.model.counting import OverBudget, sample_deal_rows

        from solver.model.budget import TimeUp

        try:
            arr = sample_deal_rows(vm.model, PTEAM_SAMPLES, len(vm.statements),
                                   max_states=None, exact_ints=False)
        except TimeUp:
            raise
        except (OverBudget, ValueError):
            arr = None
    if arr is None and probs.deals is not None and len(probs.deals):
        arr = np.asarray(probs.deals)           # the estimate's uniform deals
    err = 0.0
    for h, ti, free in todo:
        team = set(t.teams[ti])
        if arr is not None:
            tmask = np.zeros(len(vm.model.locations), dtype=bool)
            for l in team:
                tmask[li[l]] = True
            cols = arr[:, [ki[k] for k in free]]
            hits = int(tmask[cols].all(axis=1).sum())
            n = len(arr)
            p = hits / n
            err = max(err, wilson_halfwidth(p, n))
        else:   # rough: as if the cards were independent
            p = 1.0
            for k in free:
                p *= sum(q for l, q in probs.marginals.get(k, {}).items() if l in team)
            err = 1.0
        if not _possible_all_in(vm, free, team):
            # checked jointly (an asker holds one of the half, LIT-6): impossible is 0
            # exactly, and an estimate of 0 is never printed for a possible event
            out[h, ti] = 0.0
            continue
        out[h, ti] = min(max(p, 1e-6), 1 - 1e-6)
    return out, False, err


# ----- current holders -------------------------------------------------------------------
def current(vm: ViewModel, probs: Probabilities):
    """Current location probabilities and possible sets per key."""
    loc_p: dict[str, dict[str, float]] = {}
    poss: dict[str, set[str]] = {}
    for k in vm.table.keys:
        if k in vm.fixed:
            loc_p[k] = {vm.fixed[k]: 1.0}
            poss[k] = {vm.fixed[k]}
        else:
            poss[k] = set(probs.possible[k])
            if len(poss[k]) == 1:
                loc_p[k] = {next(iter(poss[k])): 1.0}
            else:   # not certain: never print 0 or 1 (those are certainties)
                d = probs.marginals.get(k, {})
                row = {l: min(max(d.get(l, 0.0), 1e-12), 1 - 1e-12)
                       for l in vm.model.locations if l in poss[k]}
                tot = sum(row.values())
                loc_p[k] = {l: q / tot for l, q in row.items()}
    return loc_p, poss


def check(record) -> None:
    """Raise :class:`InconsistentError` when no deal fits every line of the record."""
    vm = build(record, ALL)
    if isinstance(vm.model, CardLocationModel) and vm.model.witness():
        return                  # a verified deal: consistent, no solver needed
    if not backbone(vm).consistent:
        raise vm.inconsistent()


# ----- claim check -------------------------------------------------------------------------
@dataclass
class ClaimCheck:
    claim: Claim
    kind: str
    certain: bool
    p_won: float
    p_cancelled: float
    p_lost: float
    exact: bool
    placements: list[dict]      # card, stated holder, p, alternatives
    note: str = ""

    def to_json(self) -> dict:
        return {"claim": str(self.claim), "kind": self.kind, "certain": self.certain,
                "p_won": self.p_won, "p_cancelled": self.p_cancelled, "p_lost": self.p_lost,
                "exact": self.exact, "placements": self.placements, "note": self.note}


def check_claim(record, view, claim_text: str, *, max_states=MAX_STATES,
                time_budget=TIME_BUDGET) -> ClaimCheck:
    """Would this claim, made now, be won, cancelled or lost (LIT-11, LIT-12, V5, V6, V14)?"""
    play = Play.of(record)
    t = play.table
    ev = parse_event(claim_text, t)
    if not isinstance(ev, Claim):
        raise NotationError("expected a claim such as 'Ana claims 2H-7H: Ana 2H 3H, Cleo 4H 5H "
                            "6H 7H'", text=claim_text)
    ti = t.team_index(ev.claimant)
    for p, _ in ev.alloc:
        if t.team_index(p) != ti:
            raise RuleError(f"a claim names only members of the claimant's team; {p} is an "
                            "opponent", text=claim_text, rule="LIT-11")
    play.text = claim_text
    kind = play.claim_kind(ev.claimant, ev.half)
    vm = build(record, view, play)
    probs = probabilities(vm, max_states, time_budget)
    loc_p, poss = current(vm, probs)
    hk = play.keys_of_half(ev.half)
    team = t.teams[ti]
    p_in, ex1 = any_team(vm, probs, hk, team, max_states, time_budget)
    # the stated allocation: per card name, per player, how many copies
    stated: dict[Card, Counter] = {}
    for p, cs in ev.alloc:
        for c in cs:
            stated.setdefault(c, Counter())[p] += 1
    require: dict[str, list] = {}
    impossible = False
    placements = []
    for c in sorted(stated):
        ks = t.card_keys[c]
        free = [k for k in ks if k not in vm.fixed]
        for p, n in stated[c].items():
            fixed_here = sum(1 for k in ks if vm.fixed.get(k) == p)
            need = n - fixed_here
            if need < 0 or need > len(free):
                impossible = True
            elif free:
                require.setdefault(p, []).append((free, need))
            exp = sum(loc_p[k].get(p, 0.0) for k in ks)
            pr = min(exp / n, 1.0) if n else 0.0
            alts: dict[str, float] = {}
            for k in ks:
                for l, q in loc_p[k].items():
                    if l != p:
                        alts[l] = alts.get(l, 0.0) + q
            placements.append({"card": repr(c), "holder": p, "p": pr,
                               "certain": all(poss[k] == {p} for k in ks) if n == len(ks)
                               else pr == 1.0,
                               "elsewhere": {l: q for l, q in sorted(alts.items())}})
    if impossible:
        p_exact, ex2 = 0.0, True
    elif all(pl["certain"] for pl in placements):
        p_exact, ex2 = 1.0, True
    else:
        p_exact, ex2 = joint(vm, probs, require, max_states, time_budget)
    p_exact = min(p_exact, p_in)
    o = t.options
    note = ""
    if kind == "out-of-turn":
        won, canc, lost = 0.0, p_in, 1.0 - p_in
        note = "out of turn: at best cancelled (LIT-12)"
    elif kind == "challenge":
        won, canc, lost = p_exact, 0.0, p_in - p_exact
        if o.challenge_split == "challengers-score":
            lost += 1.0 - p_in
        else:
            won += 1.0 - p_in
    else:
        won = p_exact
        canc = p_in - p_exact
        lost = 1.0 - p_in
        if o.misallocation_to_opponents:
            lost, canc = lost + canc, 0.0
            note = "a misallocated claim goes to the opponents (V6)"
        if o.wrong_claim == "minus-one":
            note = "a claim with an opponent's card costs the claimants 1 point (A10)"
    return ClaimCheck(ev, kind, p_exact == 1.0 and kind != "out-of-turn", won, canc,
                      max(lost, 0.0), probs.exact and ex1 and ex2, placements, note)


# ----- why ---------------------------------------------------------------------------------
def _label(loc: str) -> str:
    return "out of play" if loc == OUT else f"{loc}'s hand"


def explain(record, view, card_text: str) -> Explanation:
    """Why each certainty about one card holds (``sleuth why``): its public moves, and for a
    card that has not moved, the minimal sets of statements placing its deal."""
    play = Play.of(record)
    t = play.table
    try:
        card = t.card(card_text)
    except RuleError as e:
        raise NotationError(e.message, text=card_text) from None
    vm = build(record, view, play)
    # a card seen moving is certain whatever else holds, but not in a record that no course
    # of play fits: that is refused, as the analysis refuses it
    bb = backbone(vm)
    if not bb.consistent:
        raise vm.inconsistent()
    keys = list(t.card_keys[card])
    reasons: list[Reason] = []
    moved = [k for k in keys if k in vm.fixed]
    free = [k for k in keys if k not in vm.fixed]
    for k in moved:
        loc = vm.fixed[k]
        line = vm.fixed_by.get(k, play.moved_at.get(k))
        if line is not None:
            reasons.append(Reason(f"{card!r} is {'out of play' if loc == OUT else 'with ' + loc}"
                                  f" (seen at line {line})", (line,)))
        else:
            reasons.append(Reason(f"{card!r} is in {_label(loc)}", ()))
    summary = ""
    if moved:
        locs = Counter(vm.fixed[k] for k in moved)
        summary = ("certainly " if not free else "one certainly ") + ", ".join(
            ("out of play" if l == OUT else f"with {l}") + (f" (x{n})" if n > 1 else "")
            for l, n in locs.items())
    if free:
        ex = vm.explain_keys(free, bb, _label)
        reasons += ex.reasons
        summary = (summary + "; " if summary else "") + ex.summary
    stmts = {ln: vm.statements.get(ln, "") for r in reasons for ln in r.lines}
    return Explanation(repr(card), summary, reasons, stmts)
