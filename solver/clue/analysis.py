"""Clue analysis: certainties, probabilities, the possible case files, the verdict.

Probabilities assume a uniformly random case file and deal (rules section 4) and truthful
players; the refuter's choice among several cards carries no likelihood.  They are exact
when the class DP of :mod:`solver.model.counting` fits its budget (every state of 3-6
players measured by ``benchmarks/clue.py``); otherwise they are estimates (``exact``
false, ``error`` = 95 % half-width) and the certainties come from CP-SAT, so an estimate
never contradicts one.  The case files are counted over the count's own programme
(:func:`solver.model.counting.possible_sets`, the envelope's column kept apart).

>>> from solver.records import parse_record
>>> from solver.clue import EXAMPLE
>>> a = analyze(parse_record(EXAMPLE), "Ana")
>>> a.certain("Knife"), a.certain("Rope"), sorted(a.possible["Plum"])
('Cleo', 'Ana', ['envelope'])
>>> a.envelope.count, a.exact
(24, True)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.clue.inference import ViewModel, build, label
from solver.clue.options import ENVELOPE, ClueOptions, Deck
from solver.errors import NotationError

#: the counting programme's state budget (a 6-player state peaks far below it: see
#: benchmarks/clue.py)
MAX_STATES = 400_000
#: a player's own view may stretch the exact attempt (as Mystery Hand's, factors of
#: MAX_STATES: the peak after a step, the states summed over the steps)
STRETCH = (4.0, 30.0)


@dataclass
class CaseFiles:
    """The possible case files (one suspect, one weapon, one room)."""

    count: int | None          # None: not counted (over budget)
    exact: bool
    top: list[tuple[tuple[str, ...], float]] = field(default_factory=list)
    certain: tuple[str, ...] = ()   # cards certainly in the case file, in kind order
    upper: int | None = None        # when not counted: the product of the possible cards
    error: float = 0.0              # when not counted: 95 % half-width of the ``top`` figures

    @property
    def determined(self) -> bool:
        return len(self.certain) == 3 or self.count == 1

    def answer(self) -> tuple[str, ...] | None:
        if len(self.certain) == 3:
            return self.certain
        if self.count == 1 and self.top:
            return self.top[0][0]
        return None

    def to_json(self) -> dict:
        out: dict = {"determined": self.determined, "candidates": self.count,
                     "top": [{"cards": list(cs), "p": p} for cs, p in self.top]}
        if self.count is None:
            out["candidates_exact"] = False
            out["candidates_at_most"] = self.upper
        if self.top and self.error:
            out["top_estimated"] = True
            out["top_error"] = self.error
        return out


@dataclass
class ClueAnalysis:
    """The result of :func:`analyze`; ``to_json()`` follows record-format.md."""

    view: str | None
    players: tuple[str, ...]
    options: ClueOptions
    deck: Deck
    locations: list[str]
    exact: bool
    error: float
    cards: dict[str, dict[str, float]]      # card -> location -> probability
    possible: dict[str, set[str]]           # card -> possible locations
    envelope: CaseFiles
    active: list[str]
    statements: int
    method: str = "dp"
    winner: str | None = None       # the game is over (CL-8, CL-9): who won
    winner_rule: str = "CL-8"       # CL-8: a right accusation; CL-9: the last one not out
    over: bool = False              # the game is over (with no winner: last-player=plays-on)

    def certain(self, card: str) -> str | None:
        locs = self.possible.get(card, set())
        return next(iter(locs)) if len(locs) == 1 else None

    @property
    def verdict(self) -> str:
        """What the view may do about the case file: accuse when it is certain; nothing
        once the game is over or the view is out (CL-9: it only refutes)."""
        if self.winner is not None:
            return f"the game is over: {self.winner} won ({self.winner_rule})"
        if self.over:
            return ("the game is over: nobody won, every player accused wrongly "
                    "(last-player=plays-on, CL-9, A3)")
        ans = self.envelope.answer()
        if self.view is not None and self.view not in self.active:
            return f"{self.view} is out and may not accuse (CL-9)" + (
                f"; the case file is {' '.join(ans)}" if ans is not None else "")
        if ans is not None:
            return "accuse: " + " ".join(ans)
        c = self.envelope
        many = str(c.count) if c.count is not None else f"at most {c.upper}"
        txt = f"not determined: {many} possible case files"
        if c.top:
            txt += f"; best guess {' '.join(c.top[0][0])} is right with p = {c.top[0][1]:.3g}"
            if c.error:
                txt += f" (estimate +-{c.error:.2g})"
        return txt

    def to_json(self) -> dict:
        out: dict = {"game": "clue", "view": self.view, "consistent": True, "exact": self.exact,
               "cards": self.cards, "envelope": self.envelope.to_json(),
               "verdict": self.verdict, "variant": self.options.names(),
               "method": self.method}
        if not self.exact:
            out["error"] = self.error
        return out


def analyze(record, view: str | None, *, max_states: int = MAX_STATES) -> ClueAnalysis:
    """Analyse ``record`` from ``view`` (a player, or ``None`` for the public view).

    Raises :class:`~solver.errors.InconsistentError` naming a minimal set of conflicting
    lines when no deal fits the record."""
    return analyze_model(build(record, view), record, max_states=max_states)


def analyze_model(vm: ViewModel, record, *, max_states: int = MAX_STATES) -> ClueAnalysis:
    from solver.model.counting import clamp_to_support, deterministic_count, stretched

    m = vm.model
    counting = deterministic_count(m, max_states, seed=len(record.statements),
                                   stretch=stretched(max_states, STRETCH),
                                   prove_support=True, apart=ENVELOPE)
    if counting.exact:
        if not counting.total:
            raise vm.inconsistent()
        possible = {c: {l for l, p in counting.marginals.get(c, {}).items() if p > 0}
                    for c in m.cards}
    else:
        if counting.support is not None:
            possible = counting.support
        else:
            bb = m.backbone()
            if not bb.consistent:
                raise vm.inconsistent()
            possible = bb.possible
        counting = clamp_to_support(counting, possible)
    places: dict[str, set[str]] = {str(c): ls for c, ls in possible.items()}
    cards: dict[str, dict[str, float]] = {}
    for c in map(str, m.cards):
        row = {l: p for l, p in counting.marginals.get(c, {}).items() if p > 0
               and l in places[c]}
        if len(places[c]) == 1:
            row = {next(iter(places[c])): 1.0}
        cards[c] = row
    envelope = _case_files(vm, places, max_states if counting.exact else 0, counting.deals)
    end = vm.end
    return ClueAnalysis(view=vm.view, players=record.header.players, options=vm.opts,
                        deck=vm.deck, locations=list(m.locations), exact=counting.exact,
                        error=0.0 if counting.exact else counting.error, cards=cards,
                        possible=places, envelope=envelope, active=vm.active,
                        statements=len(record.statements), method=counting.method,
                        winner=end.winner if end is not None else None,
                        over=end is not None and end.over,
                        winner_rule="CL-8" if end is not None and end.solved is not None
                        else "CL-9")


def _case_files(vm: ViewModel, possible, max_states: int, deals=None) -> CaseFiles:
    deck = vm.deck
    certain = tuple(c for c in deck.cards if possible[c] == {ENVELOPE})
    maybe = [[c for c in g if ENVELOPE in possible[c]] for g in deck.groups]
    upper = len(maybe[0]) * len(maybe[1]) * len(maybe[2])
    res = None
    if max_states:
        from solver.model.counting import possible_sets

        res = possible_sets(vm.model, ENVELOPE, top=10, max_states=max_states, stretch=STRETCH)
    if res is None:
        if upper == 1:
            return CaseFiles(1, True, [(tuple(g[0] for g in maybe), 1.0)], certain)
        return _sampled_case_files(vm, certain, upper, deals)
    count, top = res
    order = {c: i for i, c in enumerate(deck.cards)}
    ranked = [(tuple(sorted(cs, key=order.__getitem__)), p) for cs, p in top]
    ranked.sort(key=lambda t: (-round(t[1], 12), [order[c] for c in t[0]]))
    return CaseFiles(count, True, ranked, certain)


def _sampled_case_files(vm: ViewModel, certain, upper: int, deals) -> CaseFiles:
    """Over the counting budget: the most likely case files estimated from the estimate's
    exactly uniform accepted deals (``Counting.deals``), with the 95 % half-width; the
    count is not known, only its upper bound."""
    from collections import Counter

    from solver.model.stats import wilson_halfwidth

    if deals is None or not len(deals):
        return CaseFiles(None, False, [], certain, upper)
    m = vm.model
    env = m.loc_index(ENVELOPE)
    idx = [[m.card_index(c) for c in g] for g in vm.deck.groups]
    files: Counter = Counter()
    for row in deals:
        files[tuple(g[next(i for i, ci in enumerate(ix) if row[ci] == env)]
                    for g, ix in zip(vm.deck.groups, idx))] += 1
    n = sum(files.values())
    order = {c: i for i, c in enumerate(vm.deck.cards)}
    ranked = sorted(files.items(), key=lambda kv: (-kv[1], [order[c] for c in kv[0]]))[:10]
    top = [(cs, min(k / n, 1 - 0.5 / (n + 1)) if len(files) < upper or k < n else k / n)
           for cs, k in ranked]
    err = max(wilson_halfwidth(k / n, n) for _, k in ranked)
    return CaseFiles(None, False, top, certain, upper, error=float(err))


def explain(record, view: str | None, card_text: str):
    """Why each certainty about one card holds (``sleuth why``)."""
    vm = build(record, view)
    card = vm.deck.card(card_text)
    if card not in vm.model.cards:      # pragma: no cover - deck.card checks it
        raise NotationError("that card is not in this deck", text=card_text)
    bb = vm.model.backbone()
    if not bb.consistent:
        raise vm.inconsistent()
    return vm.explain_keys([card], bb, label)
