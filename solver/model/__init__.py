"""The generic card-location model, shared by every game.

Cards x locations; each card is in exactly one location; each location holds a known
number of cards; and any number of *cardinality constraints* ``lo <= #(pairs) <= hi`` over
(card, location) pairs, each tagged with the record line of the statement it came from
(``source``; ``None`` for a rule of the game, which always holds).

It answers, with CP-SAT (complete, not rules of thumb):

* is the model consistent, and if not, a minimal set of conflicting statements;
* for every card and location, whether the card can be there in some consistent deal (the
  *backbone*: a card is certain exactly when every consistent deal agrees);
* why a certainty holds: a minimal set of statements that force it.

Exact counting of the deals (probabilities) lives in :mod:`solver.model.counting`.

Cards are any hashable keys; physical copies (two jokers, two packs) are distinct keys
with the same ``name`` (see :meth:`CardLocationModel.name`).

>>> m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 2})
>>> m.add(["a"], ["P"], 0, 0, source=3, note="a not at P")
>>> m.add(["b"], ["Q"], 0, 0, source=4, note="b not at Q")
>>> bb = m.backbone()
>>> bb.consistent, bb.location_of("b"), bb.location_of("a"), sorted(bb.possible["c"])
(True, 'P', 'Q', ['Q'])
>>> m.explain("c", "Q")   # b is not at Q, so b fills P and c must be at Q
[4]
>>> m.add(["c"], ["P"], 1, 1, source=7, note="c at P")
>>> m.conflict()
[4, 7]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Sequence

from solver.errors import BudgetError, InconsistentError
from solver.lazy import CP_MODEL, LazyModule


cp_model = LazyModule(CP_MODEL)


def light_presolve(solver: Any) -> Any:
    """``solver`` (a CpSolver) with a light presolve: one pass, no probing, no symmetries.
    For the searches whose answer does not depend on which solution is found (a backbone,
    a proof of the certainties), where most of a search over these models is its presolve
    (the figures: docs/benchmarks.md, issue 45's first target)."""
    p = solver.parameters
    p.max_presolve_iterations = 1
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    return solver

Pair = tuple[int, int]


@dataclass(frozen=True)
class Constraint:
    """``lo <= number of true (card, location) pairs in terms <= hi``."""

    terms: frozenset[Pair]
    lo: int
    hi: int
    source: int | None = None
    note: str = ""


@dataclass
class Backbone:
    """What every consistent deal agrees on.

    ``possible[card]`` is the set of locations the card can be in (empty for all cards when
    the model is inconsistent).
    """

    consistent: bool
    possible: dict[Hashable, set[str]] = field(default_factory=dict)
    conflict: list[int] = field(default_factory=list)

    def location_of(self, card: Hashable) -> str | None:
        """The card's location when it is certain, else ``None``."""
        locs = self.possible.get(card, set())
        return next(iter(locs)) if len(locs) == 1 else None


class CardLocationModel:
    """Cards, locations with sizes, and tagged cardinality constraints."""

    def __init__(self, cards: Sequence[Hashable], sizes: dict[str, int],
                 names: dict[Hashable, str] | None = None):
        self.cards: list[Hashable] = list(cards)
        if len(set(self.cards)) != len(self.cards):
            raise ValueError("card keys must be distinct (use copies for duplicates)")
        self.locations: list[str] = list(sizes)
        self.sizes: dict[str, int] = dict(sizes)
        self._ci = {c: i for i, c in enumerate(self.cards)}
        self._li = {l: i for i, l in enumerate(self.locations)}
        self._names = dict(names or {})
        #: location -> a group label (e.g. a team): the counting programme never merges
        #: locations of different groups, so the chance that cards lie within one group
        #: comes from the count's own tables (counting.all_in_chances)
        self.groups: dict[str, Hashable] = {}
        self.constraints: list[Constraint] = []
        if sum(self.sizes.values()) != len(self.cards):
            self.constraints.append(Constraint(frozenset(), 1, 0, None,
                                               "location sizes do not add up to the deck"))

    # ----- building -------------------------------------------------------------------
    def name(self, card: Hashable) -> str:
        """The printed name of a card key (copies share a name)."""
        return self._names.get(card, repr(card))

    def card_index(self, card: Hashable) -> int:
        return self._ci[card]

    def loc_index(self, loc: str) -> int:
        return self._li[loc]

    def pairs(self, cards: Iterable[Hashable], locs: Iterable[str]) -> frozenset[Pair]:
        locs = list(locs)
        return frozenset((self._ci[c], self._li[l]) for c in cards for l in locs)

    def add(self, cards: Iterable[Hashable], locs: Iterable[str], lo: int, hi: int,
            source: int | None = None, note: str = "") -> None:
        """Constrain the number of ``cards`` lying in any of ``locs`` to ``[lo, hi]``."""
        self.add_terms(self.pairs(cards, locs), lo, hi, source, note)

    def add_terms(self, terms: Iterable[Pair], lo: int, hi: int, source: int | None = None,
                  note: str = "") -> None:
        terms = frozenset(terms)
        lo = max(lo, 0)
        hi = min(hi, len(terms))
        if lo == 0 and hi >= len(terms) and lo <= hi:
            return  # says nothing
        self.constraints.append(Constraint(terms, lo, hi, source, note))

    def place(self, card: Hashable, loc: str, source: int | None = None, note: str = ""):
        self.add([card], [loc], 1, 1, source, note or f"{self.name(card)} is at {loc}")

    def exclude(self, card: Hashable, loc: str, source: int | None = None, note: str = ""):
        self.add([card], [loc], 0, 0, source, note or f"{self.name(card)} is not at {loc}")

    # ----- CP-SAT ---------------------------------------------------------------------
    def _build(self, enforce: bool, extra=None):
        """A CP-SAT model.  With ``enforce`` each statement's constraints are guarded by a
        literal (for assumptions); ``extra(model, x)`` adds further constraints."""
        m = cp_model.CpModel()
        x = {}
        nl = len(self.locations)
        for ci in range(len(self.cards)):
            for li in range(nl):
                x[ci, li] = m.NewBoolVar(f"x{ci}_{li}")
            m.AddExactlyOne(x[ci, li] for li in range(nl))
        for li, loc in enumerate(self.locations):
            m.Add(sum(x[ci, li] for ci in range(len(self.cards))) == self.sizes[loc])
        lits: dict[int, Any] = {}          # CP-SAT literals
        for con in self.constraints:
            expr = sum(x[p] for p in con.terms)
            if enforce and con.source is not None:
                lit = lits.get(con.source)
                if lit is None:
                    lit = lits[con.source] = m.NewBoolVar(f"s{con.source}")
                if con.lo > con.hi:
                    m.AddBoolOr([lit.Not()])
                    continue
                m.AddLinearConstraint(expr, con.lo, con.hi).OnlyEnforceIf(lit)
            else:
                if con.lo > con.hi:
                    m.AddBoolOr([])
                    continue
                m.AddLinearConstraint(expr, con.lo, con.hi)
        if extra is not None:
            extra(m, x)
        return m, x, lits

    @staticmethod
    def _solver(seconds: float = 10.0, workers: int = 1) -> Any:      # a CpSolver
        from solver.model.budget import cp_solver

        s = cp_solver(cp_model, seconds)    # cut to the analysis's deadline (budget.py)
        s.parameters.num_workers = workers
        return s

    def witness(self) -> dict[Hashable, str] | bool | None:
        """A consistent deal found without a solver (:func:`solver.model.witness.find_deal`:
        verified against every constraint), ``False`` if propagation proves there is none,
        ``None`` if undecided.  Cheap: no numpy, no OR-Tools (``sleuth log`` on every turn)."""
        from solver.model.witness import find_deal

        cls = type(self)
        if cls._build is not CardLocationModel._build and \
                cls.accepts is CardLocationModel.accepts:
            return None     # a subclass adds facts to CP-SAT that a deal cannot be checked on
        deal = find_deal(self)
        if isinstance(deal, dict) and not self.accepts(deal):
            return None
        return deal

    def accepts(self, deal: dict[Hashable, str]) -> bool:
        """Whether a deal meeting every constraint also meets the facts a subclass adds to
        its CP-SAT model beyond :attr:`constraints` (none here).  A subclass that extends
        :meth:`_build` overrides this too, or :meth:`witness` stays undecided."""
        return True

    def is_consistent(self, extra=None) -> bool:
        if extra is None:
            w = self.witness()
            if w is not None:
                return bool(w)
        m, x, _ = self._build(False, extra)
        st = self._solver().Solve(m)
        if st == cp_model.UNKNOWN:
            raise BudgetError("CP-SAT could not decide consistency in time")
        return st in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def solution(self, extra=None) -> dict[Hashable, str] | None:
        """One consistent deal (card -> location), or ``None``."""
        m, x, _ = self._build(False, extra)
        s = self._solver()
        st = s.Solve(m)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return {c: self.locations[li] for ci, c in enumerate(self.cards)
                for li in range(len(self.locations)) if s.Value(x[ci, li])}

    def count_bounds(self, cards: Iterable[Hashable], locs: Iterable[str]) -> tuple[int, int] | None:
        """The least and greatest number of ``cards`` in ``locs`` over all consistent deals
        (``None`` if inconsistent).

        >>> m = CardLocationModel(["a", "b", "c"], {"P": 2, "Q": 1})
        >>> m.count_bounds(["a", "b"], ["P"])
        (1, 2)
        """
        ps = [(self._ci[c], self._li[l]) for c in cards for l in locs]
        out = []
        for sense in (1, -1):
            m, x, _ = self._build(False)
            expr = sum(x[p] for p in ps)
            m.Minimize(expr) if sense == 1 else m.Maximize(expr)
            s = self._solver(seconds=30.0)
            st = s.Solve(m)
            if st == cp_model.INFEASIBLE:
                return None
            if st != cp_model.OPTIMAL:
                raise BudgetError("CP-SAT could not bound the count in time")
            out.append(int(round(s.ObjectiveValue())))
        return out[0], out[1]

    def fits(self, deal: dict[Hashable, str]) -> bool:
        """Whether a complete deal (card key -> location) satisfies every constraint;
        copies sharing a name are interchangeable (only their counts per location matter).

        >>> m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1})
        >>> m.exclude("a", "P", source=1)
        >>> m.fits({"a": "Q", "b": "P"}), m.fits({"a": "P", "b": "Q"})
        (True, False)
        """
        groups: dict[str, dict[str, int]] = {}
        members: dict[str, list[int]] = {}
        for c, loc in deal.items():
            n = self.name(c)
            groups.setdefault(n, {})
            groups[n][loc] = groups[n].get(loc, 0) + 1
        for c in self.cards:
            members.setdefault(self.name(c), []).append(self._ci[c])

        def extra(m, x):
            for n, locs in groups.items():
                for loc, k in locs.items():
                    li = self._li[loc]
                    m.Add(sum(x[ci, li] for ci in members[n]) == k)

        return self.is_consistent(extra)

    def backbone(self, known: dict[Hashable, set[str]] | None = None) -> Backbone:
        """Every (card, location) pair that some consistent deal uses.

        Repeatedly asks CP-SAT for a deal that uses as many not-yet-seen pairs as it can
        (at least one); when none exists, every unseen pair is impossible.  ``known`` may
        give pairs already known to be possible (e.g. from exact counting).
        """
        base, x0, _ = self._build(False)   # built once; each step searches a copy of it
        unseen = set(x0)
        if known:
            for c, locs in known.items():
                for l in locs:
                    unseen.discard((self._ci[c], self._li[l]))
        solver = light_presolve(self._solver(seconds=0.5))
        possible: dict[Hashable, set[str]] = {c: set() for c in self.cards}
        if known:
            for c, locs in known.items():
                possible[c] |= set(locs)
        first = True
        while True:
            if not unseen and not first:
                break
            mm, x = base.clone(), x0       # a copy keeps the variables' indices
            if unseen:
                cover = [mm.get_bool_var_from_proto_index(x[p].Index()) for p in unseen]
                mm.Add(sum(cover) >= 1)
                mm.Maximize(sum(cover))
            st = solver.Solve(mm)
            if st == cp_model.UNKNOWN:  # no deal found quickly: plain feasibility, longer
                mm.ClearObjective()
                slow = light_presolve(self._solver(seconds=60.0))
                st = slow.Solve(mm)
                solver_used = slow
            else:
                solver_used = solver
            if st == cp_model.INFEASIBLE or st == cp_model.MODEL_INVALID:
                if first and not (known and unseen and self.is_consistent()):
                    return Backbone(False, {c: set() for c in self.cards})
                break       # (with ``known``: the deals exist, they use no unseen pair)
            if st == cp_model.UNKNOWN:
                raise BudgetError("CP-SAT could not finish the backbone in time")
            first = False
            for p, v in x.items():
                if solver_used.Value(v):
                    unseen.discard(p)
                    possible[self.cards[p[0]]].add(self.locations[p[1]])
            if not unseen:
                break
        return Backbone(True, possible)

    # ----- explanations -----------------------------------------------------------------
    def _core(self, extra=None) -> list[int] | None:
        """A minimal set of statement lines that together with the rules (and ``extra``)
        is infeasible; ``None`` if the whole model plus ``extra`` is feasible."""
        m, x, lits = self._build(True, extra)
        order = sorted(lits)
        solver = self._solver(seconds=30.0)
        m.AddAssumptions([lits[s] for s in order])
        st = solver.Solve(m)
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        if st == cp_model.UNKNOWN:
            raise BudgetError("CP-SAT could not decide in time")
        core_idx = set(solver.SufficientAssumptionsForInfeasibility())
        core = [s for s in order if lits[s].Index() in core_idx] or list(order)

        def infeasible(subset: list[int]) -> bool:
            m.ClearAssumptions()
            m.AddAssumptions([lits[s] for s in subset])
            st2 = solver.Solve(m)
            return st2 == cp_model.INFEASIBLE

        if not infeasible(core):  # be safe: fall back to every statement
            core = list(order)
        # deletion-based minimisation: drop each statement that is not needed
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1:]
            if infeasible(trial):
                core = trial
            else:
                i += 1
        return core

    def conflict(self) -> list[int] | None:
        """Lines of a minimal set of statements that cannot all hold, or ``None``.  A deal
        found without a solver (:meth:`witness`) settles the consistent case; CP-SAT is only
        asked when there is none (and names the lines)."""
        if self.witness():
            return None
        return self._core()

    def explain(self, card: Hashable, loc: str, at: bool = True) -> list[int] | None:
        """A minimal set of statement lines forcing ``card`` to be at ``loc`` (``at``) or not
        at ``loc`` (``not at``); ``None`` if the records do not force it."""
        p = (self._ci[card], self._li[loc])

        def negate(m, x):
            m.Add(x[p] == (0 if at else 1))

        return self._core(negate)

    def conflict_error(self, statements: dict[int, str], loc_label=lambda l: l,
                       only_left=None) -> InconsistentError | None:
        """``None`` when the model is consistent, else the error every game raises: it names
        a minimal conflicting set of lines, quoting ``statements`` (line -> text), and says
        why they cannot all hold (``reason``, :func:`solver.model.conflicts.conflict_reason`;
        ``loc_label`` words a location, ``only_left`` the one card a rule leaves for one).

        >>> m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1}, {"a": "a", "b": "b"})
        >>> m.place("a", "P", source=3); m.place("b", "P", source=4)
        >>> m.conflict_error({3: "a at P", 4: "b at P"}).reason
        'line 3 puts a in P; line 4 says it is not'
        """
        core = self.conflict()
        if core is None:
            return None
        return InconsistentError("no deal fits the record; these statements conflict: "
                                 + "; ".join(f"line {l}: {statements.get(l, '')}"
                                             for l in core), conflict=core,
                                 reason=lambda: self.conflict_reason(core, loc_label,
                                                                     only_left),
                                 rule=lambda: self.conflict_rule(core))

    def conflict_rule(self, core: list[int]) -> str | None:
        """The rule a minimal conflicting set ``core`` rests on, as the notes of the
        model's constraints cite it, or ``None`` (:func:`solver.model.conflicts.conflict_rule`)."""
        from solver.model.conflicts import conflict_rule

        return conflict_rule(self, core)

    def conflict_reason(self, core: list[int], loc_label=lambda l: l,
                        only_left=None) -> str | None:
        """One plain sentence saying why the lines of ``core`` (a minimal conflicting set)
        cannot all hold, or ``None`` (:mod:`solver.model.conflicts`)."""
        from solver.model.conflicts import conflict_reason, only_left_text

        return conflict_reason(self, core, loc_label, only_left or only_left_text)


@dataclass(frozen=True)
class Reason:
    """One deduced fact and the record lines of a minimal set of statements forcing it."""

    fact: str
    lines: tuple[int, ...]


@dataclass
class Explanation:
    """What is known about one card and why (``sleuth why``)."""

    card: str
    summary: str
    reasons: list[Reason]
    statements: dict[int, str]


def place_phrase(label: str) -> str:
    """How a sentence says a card is at the place a view names ``label``
    (:meth:`~solver.model.view.ModelView.loc_label`).

    >>> [place_phrase(x) for x in ("Ben's hand", "the case file", "psychic Cleo",
    ...                            "out of play")]
    ["in Ben's hand", 'in the case file', 'with psychic Cleo', 'out of play']
    """
    if label.startswith("out"):
        return label
    if label.startswith(("psychic ", "no ")):
        return "with " + label
    return "in " + label


def explain_card(model: CardLocationModel, keys: Sequence[Hashable], backbone: Backbone,
                 statements: dict[int, str], loc_label=lambda l: l) -> Explanation:
    """Explain every certainty about the card(s) ``keys`` (copies of one card share a name):
    where it certainly is, or each location it certainly is not in.

    >>> m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1})
    >>> m.exclude("a", "P", source=2)
    >>> e = explain_card(m, ["b"], m.backbone(), {2: "a is not at P"})
    >>> e.summary, e.reasons
    ('certainly in P', [Reason(fact="'b' is in P", lines=(2,))])
    """
    name = model.name(keys[0])
    reasons: list[Reason] = []
    if not backbone.consistent:
        return Explanation(name, "the record is inconsistent", [], statements)
    if len(keys) == 1:
        key = keys[0]
        poss = backbone.possible[key]
        if len(poss) == 1:
            loc = next(iter(poss))
            lines = model.explain(key, loc, at=True) or []
            reasons.append(Reason(f"{name} is {place_phrase(loc_label(loc))}",
                                  tuple(lines)))
            summary = f"certainly {place_phrase(loc_label(loc))}"
        else:
            for loc in model.locations:
                if loc not in poss:
                    lines = model.explain(key, loc, at=False) or []
                    reasons.append(Reason(f"{name} is not {place_phrase(loc_label(loc))}",
                                          tuple(lines)))
            summary = "could be " + ", ".join(place_phrase(loc_label(l))
                                              for l in model.locations if l in poss)
    else:
        poss = set().union(*(backbone.possible[k] for k in keys))
        for loc in model.locations:
            if loc not in poss:
                lines = model.explain(keys[0], loc, at=False) or []
                reasons.append(Reason(f"no {name} is {place_phrase(loc_label(loc))}",
                                      tuple(lines)))
        summary = "copies could be " + ", ".join(place_phrase(loc_label(l))
                                                 for l in model.locations if l in poss)
    return Explanation(name, summary, reasons,
                       {ln: statements.get(ln, "") for r in reasons for ln in r.lines})
