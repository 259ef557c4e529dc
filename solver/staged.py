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

#: seconds stage 1 may take (the target is 0.3 s at the 95th percentile, everything
#: around it included: building the model, the notes)
STAGE_SECONDS = 0.2


@dataclass(frozen=True)
class Certainties:
    """Stage 1 of an analysis.  ``certain``: (card, where it certainly is) pairs, in the
    game's card order (copies' places joined by ``", "``, as
    :attr:`solver.games.Knowledge.certain`); ``safe``: (commitment, what) pairs the view
    can make now without risk (an announcement, a safe claim); ``notes``: the game's notes
    on the table that need no figures (whose turn, what is missing, the result);
    ``complete``: every certainty is here (else only those settled within the stage's
    time, and ``safe`` may miss some)."""

    game: str
    view: str | None
    certain: tuple[tuple[str, str], ...]
    safe: tuple[tuple[str, str], ...] = ()
    notes: tuple["Note", ...] = ()
    complete: bool = True

    def where(self, card: str) -> str | None:
        """Where ``card`` certainly is, or ``None``."""
        return dict(self.certain).get(card)

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


def certain_of(places: dict[str, list]) -> dict[str, str]:
    """The certain cards of ``places`` (card -> the possible places of each copy, as
    ``TimeUp.established["places"]`` keeps them): card -> its place(s).

    >>> certain_of({"2S": [["Ana"]], "Jk": [["Ben"], ["out"]], "3S": [["Ana", "Ben"]]})
    {'2S': 'Ana', 'Jk': 'Ben, out'}
    """
    out = {}
    for name, copies in places.items():
        if copies and all(len(c) == 1 for c in copies):
            out[name] = ", ".join(sorted(next(iter(c)) for c in copies))
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
            certain = certain_of(dict(e.established.get("places") or {}))
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
def model_certain(vm, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """The certainties of a game's view model ``vm`` (a
    :class:`~solver.model.view.ModelView`: its ``model``, a
    :class:`~solver.model.CardLocationModel`), cheapest first: propagation (sound: a card
    left one place is certain; noted with the deadline at once,
    :func:`~solver.model.budget.establish`), then a deal found without a solver (its pairs
    are possible), then CP-SAT's backbone told those pairs.  Card names (copies together,
    ``model.name``) -> place; the names in ``skip`` are left out.  Raises
    ``vm.inconsistent()`` when no deal fits, and ``TimeUp`` (with what propagation
    settled) when the time runs out."""
    from solver.model.budget import establish
    from solver.model.witness import Infeasible, propagate

    m = vm.model
    try:
        allowed, _, _, _ = propagate(m)
    except Infeasible:
        raise vm.inconsistent() from None
    places: dict[Hashable, set[str]] = {c: {m.locations[li] for li in allowed[i]}
                                        for i, c in enumerate(m.cards)}
    establish(places=_by_name(m, places))
    deal = m.witness()
    if deal is False:
        raise vm.inconsistent()
    if isinstance(deal, dict) and all(len(ls) == 1 for ls in places.values()):
        bb_possible = places            # propagation placed every card: nothing is open
    else:
        known = {c: {loc} for c, loc in deal.items()} if isinstance(deal, dict) else None
        bb = m.backbone(known=known)
        if not bb.consistent:
            raise vm.inconsistent()
        bb_possible = bb.possible
    return {n: w for n, w in certain_of(_by_name(m, bb_possible)).items() if n not in skip}


def _by_name(m, places: dict[Hashable, set[str]]) -> dict[str, list[list[str]]]:
    """Per card name, the sorted possible places of each copy."""
    out: dict[str, list[list[str]]] = {}
    for c in m.cards:
        out.setdefault(m.name(c), []).append(sorted(places[c]))
    return out
