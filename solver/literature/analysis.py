"""What :meth:`LiteratureGame.analyze` returns: :class:`LiteratureAnalysis` (``to_json()``
follows record-format.md), built by :func:`analyze` from the model of a view
(:mod:`solver.literature.inference`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from solver.literature.engine import Play
from solver.literature.inference import (MAX_STATES, TIME_BUDGET, Probabilities, ViewModel,
                                         backbone, build, current,
                                         probabilities, team_probabilities)
from solver.literature.table import Table
from solver.model import CardLocationModel
from solver.model.copies import settle_copies

if TYPE_CHECKING:
    from solver.literature.history import HistoryModel


def count_word(n: int) -> str:
    """A half-suit's card count as a word (``six``; ``seven`` for a high half under V9).

    >>> count_word(6), count_word(7), count_word(12)
    ('six', 'seven', '12')
    """
    return _WORDS.get(n, str(n))


_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
          9: "nine"}


@dataclass
class HalfInfo:
    name: str
    value: int
    status: str                                # open | won:<team> | cancelled
    holders: dict[str, dict[str, float]]       # card -> holder -> p (expected copies)
    p_team: dict[str, float]
    safe_claim: dict[str, list[str]] | None
    claim: dict | None = None                  # the resolving claim
    risk: dict[str, str] = field(default_factory=dict)   # team -> what a claim now risks


@dataclass
class LiteratureAnalysis:
    """The result of :func:`analyze`; ``to_json()`` follows record-format.md."""

    table: Table
    view: str | None
    exact: bool
    error: float
    cards: dict[str, dict[str, float]]
    possible: dict[str, set[str]]
    hands: dict[str, dict]
    halves: dict[str, HalfInfo]
    counts: dict[str, int | None]     # None: not determined (unseen events)
    turn: str | None
    score: dict[str, int]
    over: bool
    winner: str | None
    results: list
    statements: int
    method: str = ""
    memory: str = "full"
    #: the card figures (``cards``) are exact, whatever ``exact`` says of the team chances
    cards_exact: bool = True

    def to_json(self) -> dict:
        t = self.table
        out: dict[str, Any] = {"game": "literature", "view": self.view, "consistent": True,
                               "exact": self.exact}
        if not self.exact:
            out["error"] = self.error
            # a key the contract allows adding: the card figures may be exact while the
            # team chances (p_team) are estimates
            out["cards_exact"] = self.cards_exact
        out["cards"] = {name: dict(sorted(d.items())) for name, d in self.cards.items()}
        out["half_suits"] = {}
        for name, h in self.halves.items():
            d: dict[str, Any] = {"status": h.status, "p_team": h.p_team,
                                 "safe_claim": h.safe_claim, "value": h.value}
            if h.claim:
                d["claim"] = h.claim
            if h.risk:
                d["risk"] = h.risk
            out["half_suits"][name] = d
        out["teams"] = {t.team_name(i): list(t.teams[i]) for i in (0, 1)}
        out["counts"] = dict(self.counts)
        out["known"] = {p: info["known"] for p, info in self.hands.items()}
        out["turn"] = self.turn
        out["score"] = dict(self.score)
        out["over"] = self.over
        out["winner"] = self.winner
        out["statements"] = self.statements
        return out


def _status(play: Play, name: str) -> str:
    st = play.status[name]
    if st[0] == "won":
        return f"won:{play.table.team_name(st[1])}"
    return st[0]


def analyze(record, view, *, max_states=MAX_STATES, time_budget=TIME_BUDGET,
            play: Play | None = None) -> LiteratureAnalysis:
    """Analyse ``record`` from ``view``; raises :class:`InconsistentError` (with a minimal
    set of conflicting lines) when no deal fits what the view saw."""
    vm = build(record, view, play)
    if vm.history:              # course by course (solver.literature.courses)
        from solver.literature.courses import figures

        # the certainties first (the history model keeps its backbone: no extra work), so
        # that an analysis over its time still says them (solver.model.budget.TimeUp)
        settled_backbone(vm)
        mix = figures(record, view, vm, max_states, time_budget)
        if mix:
            return analyze_model(vm, mix.probs, len(record.statements), max_states,
                                 time_budget, teams=(mix.pteam, mix.pt_exact, mix.pt_error))
    probs = probabilities(vm, max_states, time_budget)
    return analyze_model(vm, probs, len(record.statements), max_states, time_budget)


def places_of(vm: ViewModel, bb) -> dict:
    """What a backbone ``bb`` of ``vm`` establishes, as :func:`solver.model.budget.establish`
    keeps it: each card's possible places (one list per copy; a single place is a
    certainty; of a backbone cut short, the places not yet ruled out), the game and the
    view."""
    t = vm.table
    places = {repr(card): [sorted({vm.fixed[k]} if k in vm.fixed else bb.possible[k])
                           for k in ks] for card, ks in t.card_keys.items()}
    return {"game": "literature", "view": vm.view, "places": places}


def settled_backbone(vm: ViewModel):
    """:func:`backbone` of ``vm``, its certainties noted with the analysis's deadline
    (:func:`establish_places`); when the time runs out first, the cards settled by then
    are noted before :class:`~solver.model.budget.TimeUp` goes on."""
    from solver.model import Backbone
    from solver.model.budget import TimeUp

    try:
        bb = backbone(vm)
    except TimeUp as e:
        # stopped before its search began: the cards whose last move was seen are settled
        bb = getattr(e, "partial_backbone", None) or \
            Backbone(True, {k: set(vm.model.locations) for k in vm.model.cards})
        e.established.update(places_of(vm, bb), certainties="some")
        raise
    establish_places(vm, bb)
    _remember(vm, bb)
    return bb


def _remember(vm: ViewModel, bb) -> None:
    """Keep the certainties of the complete backbone ``bb`` for the next statement's
    stage 1 (:func:`solver.literature.history.carried`)."""
    from solver.literature.history import remember

    if bb.consistent and vm.source is not None:
        # current places: a card's last public move, else its one place in the backbone
        # (of the deal model: where it was dealt, and it never moved since)
        remember(*vm.source, {**{k: next(iter(ps)) for k, ps in bb.possible.items()
                                 if len(ps) == 1 and k not in vm.fixed}, **vm.fixed})


def certain_backbone(vm: ViewModel):
    """The certainties of ``vm`` (stage 1 of the analysis, :mod:`solver.staged`), as a
    backbone: every certain card at its one place, the others at a superset of their
    places.  Without unseen events it is :func:`settled_backbone`.  With them, the places
    every consistent history agrees on are proved
    (:meth:`~solver.literature.history.HistoryModel.settle` without the places ruled out,
    the rest of the backbone: cheaper, and all a certainty needs); when the time runs out
    first, the cards proved by then are noted (with what the model's own facts settle)
    before :class:`~solver.model.budget.TimeUp` goes on."""
    import math

    from solver.literature.history import Work, carried, settled_before
    from solver.model import Backbone
    from solver.model.budget import TimeUp

    if not vm.history:
        return settled_backbone(vm)
    m = cast("HistoryModel", vm.model)
    again = settled_before(*vm.source) if vm.source is not None else None
    if again is not None:       # every certainty of this record is known: no search at all
        return Backbone(True, {k: {again[k]} if k in again else set(m.locations)
                               for k in m.cards})
    # what an earlier record this one extends settled (play and serve: the statement
    # before) needs no proof again
    m.known = carried(*vm.source, vm.table) if vm.source is not None else {}
    try:
        bb, proved = m.settle(Work(math.inf), complete=False)
    except TimeUp as e:
        e.established.update(places_of(vm, m.settled()[0]), certainties="some")
        raise
    # every certain card proved (a search that ran out of work is not possible here: its
    # work is unbounded, only the clock stops it, above)
    assert proved in ("all", "certain"), proved
    _remember(vm, bb)
    return bb


def establish_places(vm: ViewModel, bb) -> None:
    """Note the certainties of ``bb`` with the analysis's deadline: what ``analyze`` still
    says when the probabilities do not finish in time."""
    from solver.model.budget import establish

    if bb.consistent:
        establish(**places_of(vm, bb), certainties="all")


def by_card(table: Table, loc_p, poss) -> tuple[dict, dict]:
    """Per card name (the copies of a joker together): the expected number of copies at
    each place, and the places possible -- from the per-key figures of :func:`current`."""
    cards: dict[str, dict[str, float]] = {}
    possible: dict[str, set[str]] = {}
    for card, ks in table.card_keys.items():
        agg: dict[str, float] = {}
        pset: set[str] = set()
        for k in ks:
            pset |= poss[k]
            for l, p in loc_p[k].items():
                agg[l] = agg.get(l, 0.0) + p
        cards[repr(card)] = agg
        possible[repr(card)] = pset
    return cards, possible


def settled_by_card(vm: ViewModel, probs: Probabilities, loc_p, poss) -> tuple[dict, dict]:
    """:func:`by_card` with the jokers' count in a hand certain in every deal exactly whole
    (their two copies' shares summed could round past it) and every other figure strictly
    inside its copies' range (:func:`~solver.model.copies.settle_copies`); the analysis and
    the exposure both report these.  A history model has no CP-SAT claims to ask."""
    cards, possible = by_card(vm.table, loc_p, poss)
    cards = settle_copies(vm.model if isinstance(vm.model, CardLocationModel) else None,
                          {repr(c): ks for c, ks in vm.table.card_keys.items()}, cards, poss,
                          probs)
    return cards, possible


def analyze_model(vm: ViewModel, probs: Probabilities, n_statements: int,
                  max_states=MAX_STATES, time_budget=TIME_BUDGET,
                  teams=None) -> LiteratureAnalysis:
    """``teams``: the team probabilities already known (their dict, exact, error)."""
    t, play = vm.table, vm.play
    loc_p, poss = current(vm, probs)
    exact = probs.exact
    cards, possible = settled_by_card(vm, probs, loc_p, poss)
    counts = cast("HistoryModel", vm.model).counts() if vm.history else \
        dict(vm.counts or play.count)
    hands = {}
    for p in t.players:
        known = sorted((t.key_card[k] for k in t.keys if poss[k] == {p}))
        hands[p] = {"count": counts[p], "known": [repr(c) for c in known]}
    view_team = t.team_index(vm.view) if vm.view in t.players else None
    pteam, pt_exact, pt_err = teams or team_probabilities(vm, probs, max_states, time_budget)
    exact = exact and pt_exact
    halves: dict[str, HalfInfo] = {}
    results = {r.half: r for r in play.results}
    for h in t.halves:
        hk = play.keys_of_half(h.name)
        status = _status(play, h.name)
        holders = {}
        for c in sorted(set(h.cards)):
            holders[repr(c)] = {l: p for l, p in cards[repr(c)].items()}
        p_team: dict[str, float] = {}
        safe: dict[str, list[str]] | None = None
        risk: dict[str, str] = {}
        if status == "open":
            for ti in (0, 1):
                p_team[t.team_name(ti)] = pteam[h.name, ti]
            certain = all(len(poss[k]) == 1 for k in hk)
            if view_team is not None and certain and \
                    all(next(iter(poss[k])) in t.teams[view_team] for k in hk):
                safe = {}
                for k in hk:
                    safe.setdefault(next(iter(poss[k])), []).append(repr(t.key_card[k]))
                safe = {p: sorted(cs, key=lambda x: t.parse_card(x)) for p, cs in
                        sorted(safe.items(), key=lambda kv: t.players.index(kv[0]))}
            teams = [view_team] if view_team is not None else [0, 1]
            for ti in teams:
                tname = t.team_name(ti)
                pt = p_team[tname]
                outside = [repr(t.key_card[k]) for k in hk
                           if not (poss[k] & set(t.teams[ti]))]
                unsure = sorted({repr(t.key_card[k]) for k in hk if len(poss[k]) > 1},
                                key=lambda x: t.parse_card(x))
                if pt == 0.0:
                    risk[tname] = ("lost: " + " ".join(sorted(set(outside))) +
                                   " with an opponent" if outside
                                   else f"lost: not all {count_word(h.size)} can be in "
                                   "the team")
                elif pt == 1.0 and unsure:
                    risk[tname] = "may be cancelled: holders of " + " ".join(unsure) + \
                        " uncertain"
                elif pt < 1.0:
                    risk[tname] = f"may be lost: P(team holds all) = {pt:.3g}"
        else:
            p_team = {t.team_name(0): 0.0, t.team_name(1): 0.0}
        claim = None
        if h.name in results:
            r = results[h.name]
            claim = {"line": r.line, "claimant": r.claimant, "kind": r.kind,
                     "outcome": r.outcome, "rule": r.rule}
        halves[h.name] = HalfInfo(h.name, h.value, status, holders, p_team, safe, claim, risk)
    # every card certain and every open half-suit's team chances 0 or 1: nothing is left
    # to estimate (a finished lossy game: the chain's stated error is no figure's)
    if not exact and all(len(poss[k]) == 1 for k in t.keys) and \
            all(p in (0.0, 1.0) for h in halves.values() for p in h.p_team.values()):
        exact = True
    return LiteratureAnalysis(
        table=t, view=vm.view, exact=exact,
        error=0.0 if exact else max(probs.error if not probs.exact else 0.0, pt_err),
        cards=cards, possible=possible, hands=hands, halves=halves, counts=counts,
        turn=play.turn if play.turn_known else None, score=play.score_by_team(), over=play.over, winner=play.winner(),
        results=list(play.results), statements=n_statements, method=probs.method,
        memory=t.options.memory, cards_exact=exact or probs.exact)
