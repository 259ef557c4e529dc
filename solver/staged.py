"""Answers in order of cost: the certainties of a statement first, then the figures.

A player acts on what is certain (where a card certainly is, an announcement or a claim
that is safe now); the probabilities and counts can follow.  :func:`analyze_staged` gives
both, one after the other, for every registered game:

1. :func:`certainties` -- a :class:`Certainties`: the game's
   :meth:`~solver.games.Game.certainties` (by default the whole of its ``knowledge``; the
   games whose figures can take long give their backbone alone, e.g. through
   :func:`model_certain`), within :data:`STAGE_SECONDS` of its own.  If that time runs
   out, what was settled by then (``TimeUp.established``: the cards none of whose places
   is still open) is given, marked ``complete=False``: every certainty it shows is one,
   and stage 2 completes them.
2. the game's ``analyze`` (the exact or estimated figures), within the rest of the
   analysis's budget.

Both stages run under the caller's deadline (:func:`solver.model.budget.within`): a
cancel of it (a newer version of the record) stops either stage, CP-SAT searches
included, with :class:`~solver.model.budget.Cancelled`.

``sleuth play`` and ``sleuth serve`` show stage 1 at once and fill in stage 2::

    for stage in analyze_staged(game, record, view):
        show(stage)             # a Certainties, then the game's analysis
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Hashable, Iterator

from solver.model.budget import Budget, TimeUp, part

if TYPE_CHECKING:  # pragma: no cover
    from solver.games import Game, Note

#: seconds stage 1 may take, building the model and the notes included (the target is
#: 0.3 s at the 95th percentile; the rest is left to drawing the answer)
STAGE_SECONDS = 0.25


@dataclass(frozen=True)
class Certainties:
    """Stage 1 of an analysis.  ``certain``: (card, where it certainly is) pairs, in the
    game's card order (copies' places joined by ``", "``, as
    :attr:`solver.games.Knowledge.certain`); ``safe``: (commitment, what) pairs the view
    can make now without risk (an announcement, a safe claim); ``notes``: the game's notes
    on the table that need no figures (whose turn, what is missing, the result);
    ``complete``: every certainty is here (else only those settled within the stage's
    time, and no ``safe``: the game's own stage did not finish)."""

    game: str
    view: str | None
    certain: tuple[tuple[str, str], ...]
    safe: tuple[tuple[str, str], ...] = ()
    notes: tuple["Note", ...] = ()
    complete: bool = True

    @property
    def alerts(self) -> list[str]:
        """The sentences a player acts on: the game's strong notes, then each safe
        commitment."""
        return [n.text for n in self.notes if n.strong] + \
            [f"Safe now: {k}: {what}" for k, what in self.safe]

    def to_json(self) -> dict:
        return {"game": self.game, "view": self.view, "stage": "certainties",
                "complete": self.complete, "certain": dict(self.certain),
                "safe": dict(self.safe), "alerts": self.alerts,
                "notes": [n.text for n in self.notes if not n.strong]}


def _said(detail: Any) -> str:
    """A safe commitment's detail as text: cards, or each holder's cards.

    >>> _said(["4H", "5S"]), _said({"Ana": ["2S", "3S"], "Ben": ["4S"]})
    ('4H 5S', 'Ana 2S 3S; Ben 4S')
    """
    if isinstance(detail, dict):
        return "; ".join(f"{k} {_said(v)}" for k, v in detail.items())
    if isinstance(detail, (list, tuple)):
        return " ".join(map(str, detail))
    return str(detail)


def certain_of(places: dict[str, list], joined: bool = True) -> dict[str, str]:
    """The certain cards of ``places`` (card -> the possible places of each copy, as
    ``TimeUp.established["places"]`` keeps them): card -> its place(s).  ``joined``:
    copies certainly in different places are certain too (their places joined by ``", "``);
    else only copies all in one place are.

    >>> p = {"2S": [["Ana"]], "Jk": [["Ben"], ["out"]], "3S": [["Ana", "Ben"]]}
    >>> certain_of(p), certain_of(p, joined=False)
    ({'2S': 'Ana', 'Jk': 'Ben, out'}, {'2S': 'Ana'})
    """
    out = {}
    for name, copies in places.items():
        if copies and all(len(c) == 1 for c in copies):
            where = sorted({next(iter(c)) for c in copies})
            if joined or len(where) == 1:
                out[name] = ", ".join(where)
    return out


def certainties(game: "Game", record, view: str | None,
                seconds: float = STAGE_SECONDS) -> Certainties:
    """Stage 1: what ``view`` certainly knows after ``record``, within ``seconds`` (see
    the module's doc).  Raises the game's errors (``InconsistentError`` when no deal fits),
    and :class:`~solver.model.budget.TimeUp` when the enclosing analysis's own time is up
    or it was cancelled."""
    from solver.errors import SleuthError
    from solver.model.budget import current

    complete = True
    safe: dict = {}
    outer = current()
    with part(seconds):
        try:
            k = game.certainties(record, view)
            certain, safe = dict(k.certain), dict(k.safe)
        except TimeUp as e:
            if outer is not None and (outer.cancelled or outer.expired()):
                raise               # the whole analysis's time, or a cancel: not this stage's
            got = e.established
            certain = certain_of(dict(got.get("places") or {}), got.get("joined", True))
            complete = False
    try:
        notes = tuple(game.table_notes(record, view, None))
    except SleuthError:
        notes = ()
    return Certainties(record.game, view, tuple(certain.items()),
                       tuple((key, _said(v)) for key, v in safe.items()), notes, complete)


def analyze_staged(game: "Game", record, view: str | None, *, budget: Budget = Budget(),
                   seconds: float = STAGE_SECONDS) -> Iterator[Any]:
    """The analysis in order of cost: first :func:`certainties` (a :class:`Certainties`),
    then ``game.analyze(record, view, budget=budget)``.  Stop iterating after the first to
    skip the figures."""
    yield certainties(game, record, view, seconds)
    yield game.analyze(record, view, budget=budget)


# ----- the certainties of a card-location model, cheapest first ---------------------------
#: deals looked for without a solver before CP-SAT's backbone (each one's pairs are
#: possible, so CP-SAT has fewer to find): at most this many, and no more once
#: :data:`STALE` in a row showed no new pair
WITNESSES = 24
STALE = 4
#: the exact count tried first where it sees every fact of the model (its support is then
#: the backbone): at most this many states and about this many seconds for its forward
#: pass, else the deals and CP-SAT
COUNT_STATES = 100_000
COUNT_SECONDS = 0.04


def model_certain(vm, skip: tuple[str, ...] = (), joined: bool = True) -> dict[str, str]:
    """The certainties of a game's view model ``vm`` (a
    :class:`~solver.model.view.ModelView`: its ``model``, a
    :class:`~solver.model.CardLocationModel`), cheapest first: propagation (sound: a card
    left one place is certain; noted with the deadline at once,
    :func:`~solver.model.budget.establish`), then deals found without a solver (their
    pairs are possible; :data:`WITNESSES`), then CP-SAT's backbone told those pairs.  Card
    names (copies together, ``model.name``; ``joined`` as :func:`certain_of`) -> place;
    the names in ``skip`` are left out.  Raises ``vm.inconsistent()`` when no deal fits,
    and ``TimeUp`` (with what propagation settled) when the time runs out.  Where the
    exact count sees every fact of the model (no facts beyond its constraints, or
    Mystery Hand's ``choices`` empty) a small count comes first: the places of its deals
    are the backbone (:data:`COUNT_STATES`)."""
    from solver.model import CardLocationModel
    from solver.model.budget import check, establish
    from solver.model.witness import Infeasible, find_deal, propagate

    m = vm.model
    try:
        allowed, _, _, _ = propagate(m)
    except Infeasible:
        raise vm.inconsistent() from None
    places: dict[Hashable, set[str]] = {c: {m.locations[li] for li in allowed[i]}
                                        for i, c in enumerate(m.cards)}
    establish(places=_by_name(m, places), joined=joined)
    if type(m)._build is CardLocationModel._build or not getattr(m, "choices", True):
        counted = _counted(m)
        if counted is not None:
            if not any(counted.values()):
                raise vm.inconsistent()
            return {n: w for n, w in certain_of(_by_name(m, counted), joined).items()
                    if n not in skip}
    deal = m.witness()
    if deal is False:
        raise vm.inconsistent()
    known: dict[Hashable, set[str]] = {c: set() for c in m.cards}
    stale, seed = 0, 1
    while isinstance(deal, dict) and stale < STALE and seed <= WITNESSES:
        new = [(c, loc) for c, loc in deal.items() if loc not in known[c]]
        for c, loc in new:
            known[c].add(loc)
        stale = 0 if new else stale + 1
        if known == places:
            break               # every place propagation left open is possible: all settled
        check("the certainties")
        deal = find_deal(m, seed=seed)
        if isinstance(deal, dict) and not m.accepts(deal):
            deal = None
        seed += 1
    if known == places:
        possible = places
    else:
        bb = m.backbone(known={c: ls for c, ls in known.items() if ls} or None)
        if not bb.consistent:
            raise vm.inconsistent()
        possible = bb.possible
    return {n: w for n, w in certain_of(_by_name(m, possible), joined).items()
            if n not in skip}


def _counted(m) -> dict[Hashable, set[str]] | None:
    """Each card's places in some deal, by a small exact count (``None``: too large)."""
    from solver.model.counting import OverBudget, exact_count

    try:
        c = exact_count(m, max_states=COUNT_STATES, time_budget=COUNT_SECONDS,
                        exact_total=False)
    except OverBudget:
        return None
    if not c.total:
        return {k: set() for k in m.cards}
    return {k: {loc for loc, p in c.marginals.get(k, {}).items() if p > 0} for k in m.cards}


def _by_name(m, places: dict[Hashable, set[str]]) -> dict[str, list[list[str]]]:
    """Per card name, the sorted possible places of each copy."""
    out: dict[str, list[list[str]]] = {}
    for c in m.cards:
        out.setdefault(m.name(c), []).append(sorted(places[c]))
    return out
