"""Mystery Hand analysis: certainties, probabilities, candidates, the verdict.

Probabilities assume a uniformly random deal and truthful, rule-following players
(MH-17).  They are exact when the class DP of :mod:`solver.model.counting` fits its
budget; otherwise they are estimates (``exact`` false, ``error`` = 95 % half-width), and
certainties still come from CP-SAT, so an estimate never contradicts one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from solver.cards import Card, standard_deck
from solver.errors import NotationError
from solver.model.copies import settle_copies
from solver.mystery_hand.inference import ViewModel, build, mystery_locations, target_of
from solver.mystery_hand.options import MysteryHandOptions

#: default budget for live play
MAX_STATES = 400_000
#: from a player's own view the exact attempt may go past max_states, up to
#: STRETCH[0] * max_states states after a step, while the states summed over its steps
#: stay within STRETCH[1] * max_states; then the estimate takes over (its relaxed
#: programmes keep to max_states).  Chosen so that a player's view is exact on every state
#: of the benchmark's target and corpus (docs/benchmarks.md)
STRETCH = (4.0, 30.0)
#: the same for the tagged programme of the candidate sets (factors of each one's budget,
#: at most Tuning.tagged_states): the second attempt, after counting.possible_sets over the
#: count's own programme.  Large, so that a player's candidates are exact on the
#: benchmark's states; the price is where nothing fits (the public view of hard 8-player
#: states): such a programme gives up after seconds and up to about 1 GB
SETS_STRETCH = (30.0, 400.0)
#: the public view's count, with the mystery hand's column kept apart (its programme also
#: gives the candidates, counting.possible_sets): a small stretch, because attempts
#: that fail cost as much as the states they reach.  An analysis without candidates (the
#: exposure's), or under facts the programme does not see (the count is then conditioned
#: by rejection: an estimate anyway), keeps the plain budget
PUBLIC_STRETCH = (1.5, 30.0)
#: over the DP budget, candidates are counted one CP-SAT check each up to this many
CANDIDATE_CHECKS = 120
#: ``None``: budget by DP states only, and estimates from a fixed number of seeded samples,
#: so the output never depends on the machine's speed; a number of seconds instead makes
#: the count give up by the clock (live play on a slow machine)
TIME_BUDGET: float | None = None


@dataclass
class Candidates:
    """The possible contents of one mystery hand."""

    location: str
    count: int | None          # number of possible 4-card hands (None: too many to count)
    exact: bool                # count and probabilities exact (a count is always exact)
    top: list[tuple[tuple[Card, ...], float]] = field(default_factory=list)
    certain: tuple[Card, ...] = ()
    upper: int | None = None   # when ``count`` is None: an upper bound on it
    lower: int | None = None   # when ``count`` is None: a lower bound (hands shown possible)
    error: float = 0.0         # 95 % half-width of the ``top`` probabilities when estimated
    #: sampled candidates only: ``top`` was left empty because no hand stood out from the
    #: rest in the ``samples`` deals (:func:`_standing`); every candidate's chance is then
    #: at most ``p_at_most`` (the 95 % upper end of the most drawn one's)
    withheld: bool = False
    samples: int = 0
    p_at_most: float = 0.0

    def __post_init__(self):
        # one order for every output (the sheet, its verdict, --json): most likely first,
        # ties in card order (suits as on the sheet, then ranks)
        self.top = sorted(self.top, key=lambda t: (-round(t[1], 12),
                                                   sorted(map(Card.sort_key, t[0]))))

    @property
    def determined(self) -> bool:
        return len(self.certain) == 4 or self.count == 1

    def answer(self) -> tuple[Card, ...] | None:
        if len(self.certain) == 4:
            return tuple(sorted(self.certain))
        if self.count == 1 and self.top:
            return self.top[0][0]
        return None

    def to_json(self) -> dict:
        # a count is only ever the count: when the sets could not be counted, "candidates"
        # is null and the bounds say what is known (never an upper bound as the count)
        out: dict[str, object] = {
            "determined": self.determined, "candidates": self.count,
            "top": [{"cards": [repr(c) for c in cs], "p": p} for cs, p in self.top]}
        if self.count is None:
            out["candidates_exact"] = False
            out["candidates_at_least"] = self.lower
            out["candidates_at_most"] = self.upper
        if self.top and self.error:
            out["top_estimated"] = True
            out["top_error"] = self.error
        if self.withheld:
            out["top_withheld"] = True
            out["top_samples"] = self.samples
            out["top_p_at_most"] = self.p_at_most
        return out


@dataclass
class MysteryHandAnalysis:
    """The result of :func:`analyze`; ``to_json()`` follows record-format.md."""

    view: str | None
    players: tuple[str, ...]
    options: MysteryHandOptions
    locations: list[str]
    exact: bool
    error: float
    cards: dict[str, dict[str, float]]          # card name -> location -> probability
    possible: dict[str, set[str]]               # card name -> possible locations
    mysteries: dict[str, Candidates]
    target: str
    active: list[str]
    statements: int
    method: str = "dp"
    winner: str | None = None       # the game is over (MH-19, MH-21): who won

    @property
    def mystery(self) -> Candidates:
        return self.mysteries[self.target]

    def certain(self, card: str) -> str | None:
        locs = self.possible.get(card, set())
        return next(iter(locs)) if len(locs) == 1 and card != "Jk" else None

    @property
    def verdict(self) -> str:
        if self.winner is not None:
            return f"the game is over: {self.winner} won (MH-19, MH-21)"
        ans = self.mystery.answer()
        if ans is not None:
            return "announce: " + " ".join(map(repr, ans))
        c = self.mystery
        best = c.top[0] if c.top else None
        if c.count is not None:
            many = str(c.count)
        elif c.lower and c.upper:
            many = f"{c.lower}-{c.upper}"
        else:
            many = "many"
        txt = f"not determined: {many} candidates"
        if c.withheld:
            txt += (f"; no hand stands out in {c.samples} sampled deals: each is right with "
                    f"p <= {c.p_at_most:.2g}")
        elif best:
            txt += (f"; best guess {' '.join(map(repr, best[0]))} is right with p = "
                    f"{best[1]:.3g}" + (f" (estimate +-{c.error:.2g})" if c.error else ""))
        return txt

    def to_json(self) -> dict:
        out: dict[str, object] = {
            "game": "mystery-hand",
            "view": self.view,
            "consistent": True,
            "exact": self.exact,
            "cards": self.cards,
            "mystery": self.mystery.to_json(),
            "verdict": self.verdict,
            "variant": self.options.names(),
            "method": self.method,
        }
        if not self.exact:
            out["error"] = self.error
        if self.options.two_player == "chosen":
            out["prior"] = ("none: the mystery hands were chosen (MH-28), so these "
                            "probabilities assume a uniform choice")
        if len(self.mysteries) > 1:
            out["mysteries"] = {loc: c.to_json() for loc, c in self.mysteries.items()}
            out["target"] = self.target
        return out


def _clamp(marg: dict[str, float], possible: set[str], copies: int) -> dict[str, float]:
    """Keep an estimate inside the logical support: impossible -> absent, certain -> exact."""
    if len(possible) == 1:
        return {next(iter(possible)): float(copies)}
    kept = {l: p for l, p in marg.items() if l in possible and p > 0}
    s = sum(kept.values())
    if s <= 0:
        return {l: copies / len(possible) for l in possible}
    return {l: p * copies / s for l, p in kept.items()}


def analyze(record, view: str | None, *, max_states: int = MAX_STATES,
            time_budget: float | None = TIME_BUDGET,
            candidates: bool = True, top: bool = True) -> MysteryHandAnalysis:
    """Analyse ``record`` from ``view`` (a player, or ``None`` for the public view);
    ``candidates=False``: the cards only (``mysteries`` empty: what the table knows about a
    hand needs no candidate list); ``top=False``: the number of candidates without the
    most likely ones (their ``top`` empty unless one is left: a replay's or review's step).

    Raises :class:`~solver.errors.InconsistentError` naming a minimal set of conflicting
    lines when no deal fits the record.
    """
    vm = build(record, view)
    return analyze_model(vm, record, max_states=max_states, time_budget=time_budget,
                         candidates=candidates, top=top)



def analyze_model(vm: ViewModel, record, *, max_states: int = MAX_STATES,
                  time_budget: float | None = TIME_BUDGET,
                  candidates: bool = True, top: bool = True) -> MysteryHandAnalysis:
    from solver.model.counting import (clamp_to_support, count_deals, deterministic_count,
                                       stretched)

    m = vm.model
    if time_budget is None:
        # the candidates, when their sets cannot be counted, are drawn from this count's
        # own tables afterwards (kept: counting.sample_deal_rows)
        # a player's own view: the exact attempt may stretch (see STRETCH)
        # with candidates, the target's column is kept apart in the count, whose
        # programme then also gives the candidates (counting.possible_sets); the
        # public view stretches too (PUBLIC_STRETCH)
        # (not under facts the programme does not see: that count is conditioned by
        # rejection, an estimate whatever its budget)
        apart = (target_of(vm.view, record.header, vm.opts)
                 if candidates and not m.choices else None)
        counting = deterministic_count(
            m, max_states, seed=len(record.statements),
            stretch=stretched(max_states, STRETCH if vm.view is not None else
                              PUBLIC_STRETCH if apart else None),
            prove_support=not m.choices, apart=apart)
    else:
        counting = count_deals(m, max_states=max_states, time_budget=time_budget)
    if m.choices:   # facts the DP cannot count (an unseen turn's extra turn): rejection
        counting = m.condition(counting, seed=len(record.statements))
    if counting.exact:
        if not counting.total:
            raise vm.inconsistent()
        possible_k = {k: {l for l, p in counting.marginals.get(k, {}).items() if p > 0}
                      for k in m.cards}
    else:
        # the estimate's figures are shares of consistent deals (accepted exact draws or
        # the chain's states): the pairs they show are possible, CP-SAT looks for the rest
        # (with choices the conditioned deals are already the model's witnesses)
        if counting.support is not None and not m.choices:
            # proved by the draws and the relaxed count (see counting.estimate): no
            # CP-SAT (and no import of it) needed
            possible_k = counting.support
        else:
            seen = None if m.choices else {
                k: {l for l, p in ls.items() if p > 0} for k, ls in counting.marginals.items()}
            bb = m.backbone(known=seen)
            if not bb.consistent:
                raise vm.inconsistent()
            possible_k = bb.possible
        # an estimate never contradicts a certainty: impossible stays absent, certain is 1,
        # and a possible place no accepted sample showed keeps a small positive share
        counting = clamp_to_support(counting, possible_k)
    cards: dict[str, dict[str, float]] = {}
    possible: dict[str, set[str]] = {}
    for name, keys in vm.keys.items():
        agg: dict[str, float] = {}
        poss: set[str] = set()
        for k in keys:
            poss |= possible_k[k]
            for l, p in counting.marginals.get(k, {}).items():
                agg[l] = agg.get(l, 0.0) + p
        if counting.exact:
            agg = {l: p for l, p in agg.items() if p > 0}
            if len(poss) == 1:
                agg = {next(iter(poss)): float(len(keys))}
        else:
            agg = _clamp(agg, poss, len(keys))
        cards[name] = agg
        possible[name] = poss
    # a count certain in every deal exactly whole, any other strictly inside its range (the
    # copies' shares summed, or an estimate, could otherwise round onto or past a bound)
    cards = settle_copies(m, vm.keys, cards, possible_k, counting)
    mysteries = {}
    for loc in mystery_locations(record.header, vm.opts) if candidates else ():
        mysteries[loc] = _candidates(vm, loc, possible, max_states if counting.exact else 0,
                                     seed=len(record.statements),
                                     base_states=counting.raw_states or counting.states or None,
                                     base_work=counting.work or None, deals=counting.deals,
                                     ranked=top)
    return MysteryHandAnalysis(
        view=vm.view, players=record.header.players, options=vm.opts,
        locations=list(m.locations), exact=counting.exact,
        error=0.0 if counting.exact else counting.error, cards=cards, possible=possible,
        mysteries=mysteries, target=target_of(vm.view, record.header, vm.opts),
        active=vm.active, statements=len(record.statements), method=counting.method,
        winner=vm.winner)


def _candidates(vm: ViewModel, loc: str, possible, max_states: int, seed: int = 0,
                base_states: int | None = None, base_work: int | None = None,
                deals=None, ranked: bool = True) -> Candidates:
    certain = tuple(sorted(Card.parse(n) for n, ls in possible.items()
                           if ls == {loc} and n != "Jk"))
    from solver.model.counting import location_sets
    from solver.model.counting import possible_set_count, possible_sets

    # (max_states 0: the deals could not even be counted, so the sets cannot be either)
    # first over the count's own programme when it kept the column apart (one float per
    # partial composition: counting.possible_sets), then the tagged programme
    res: tuple[int, list[tuple[frozenset, float]]] | None = None
    stretch = STRETCH if vm.view is not None else PUBLIC_STRETCH
    if max_states and not ranked:
        # the number only: one bit per partial composition, no chances (a pass three times
        # shorter); one candidate left is named by the ranked pass below
        n = possible_set_count(vm.model, loc, max_states=max_states, stretch=stretch)
        if n is not None and n != 1:
            res = (n, [])
    if max_states and res is None:
        res = possible_sets(vm.model, loc, top=10, max_states=max_states, stretch=stretch)
        if res is None:
            res = location_sets(vm.model, loc, top=10, max_states=max_states,
                                base_states=base_states,
                                stretch=SETS_STRETCH if vm.view is not None else None,
                                base_work=base_work)
    if res is not None:
        count, top = res
        return Candidates(loc, count, True,
                          [(tuple(sorted(cs)), p) for cs, p in top], certain)
    # over budget: count the candidates with CP-SAT when few cards can be there
    maybe = [c for c in standard_deck() if loc in possible.get(repr(c), set())]
    free = [c for c in maybe if c not in certain]
    need = 4 - len(certain)
    from math import comb
    bound = comb(len(free), need)
    if bound > CANDIDATE_CHECKS:  # too many to check one by one: estimate from sampled deals
        return _sampled_candidates(vm, loc, certain, bound, seed, deals)
    found = []
    for extra in combinations(free, need):
        hand = list(certain) + list(extra)

        def fix(mm, x, hand=hand):
            li = vm.model.loc_index(loc)
            mm.Add(sum(x[vm.model.card_index(c), li] for c in hand) == 4)

        if vm.model.is_consistent(fix):
            found.append(tuple(sorted(hand)))
    # exact count; no probabilities per hand without the DP (one hand left is certain)
    return Candidates(loc, len(found), len(found) == 1,
                      [(found[0], 1.0)] if len(found) == 1 else [], certain)


#: exactly uniform deals drawn for the candidates when their sets cannot be counted
CANDIDATE_SAMPLES = 4000


def _sampled_candidates(vm: ViewModel, loc: str, certain, bound: int, seed: int,
                        sampled=None) -> Candidates:
    """The most likely hands, estimated from exactly uniform deals of the counting DP (a
    seeded, fixed number: the output does not depend on the machine), with the 95 %
    half-width: only those standing out from the rest (:func:`_standing`; none: ``top``
    empty and ``withheld``, with the bound on every hand's chance); the count is not known, only bounds: at least every hand with as many cards
    of each class of interchangeable cards as a drawn one (:func:`_by_class`; the distinct
    hands drawn where facts outside the counting programme could tell such cards apart), at
    most every hand of the possible cards.  A hand's estimate is never 0 (its composition
    was drawn) and never 1 unless it is the only possible one."""
    import heapq
    from collections import Counter

    from solver.model.stats import wilson_halfwidth

    import numpy as np

    from solver.model.counting import OverBudget, sample_deal_rows

    m = vm.model
    if sampled is not None:       # deals kept by the count: exact draws or accepted samples
        rows = np.asarray(sampled)
    else:                         # the count was exact: draws from its programme
        try:
            # (whole deals only where the choices must be checked on them)
            rows = sample_deal_rows(m, CANDIDATE_SAMPLES, seed, max_states=None,
                                    exact_ints=False, at=None if m.choices else loc)
        except (OverBudget, ValueError):
            return Candidates(loc, None, False, [], certain, upper=bound)
    if vm.model.choices:              # facts the DP does not see: keep the deals meeting them
        keep = [m.satisfies_choices({k: m.locations[li] for k, li in zip(m.cards, row)})
                for row in rows.tolist()]
        rows = rows[np.asarray(keep, dtype=bool)] if len(rows) else rows
    n = len(rows)
    if not n:
        return Candidates(loc, None, False, [], certain, upper=bound)
    # the hand in ``loc`` of each deal, as the sorted column indices of its cards
    card_of = [Card.parse(m.name(k)) for k in m.cards]
    r_i, c_i = np.nonzero(rows == m.loc_index(loc))
    per = np.bincount(r_i, minlength=n)
    same_size = len(per) and (per == per[0]).all()     # the usual case
    by_class = (None if m.choices or not same_size else
                _by_class(m, loc, c_i.reshape(n, int(per[0])), card_of, n, bound))
    if by_class is not None:
        top, lower, err, at_most = by_class
        return Candidates(loc, None, False, top, certain, upper=bound, lower=lower,
                          error=err, withheld=not top, samples=n,
                          p_at_most=0.0 if top else at_most)
    order = sorted(range(len(card_of)), key=lambda i: card_of[i])
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    hands: Counter[tuple[Card, ...]] = Counter()
    if same_size:
        cols = rank[c_i].reshape(n, int(per[0])) if per[0] else np.zeros((n, 0), np.int64)
        cols.sort(axis=1)
        uniq, cnt = np.unique(cols, axis=0, return_counts=True)
        for u, k in zip(uniq.tolist(), cnt.tolist()):
            hands[tuple(card_of[order[j]] for j in u)] = k
    else:
        for row in range(n):
            hands[tuple(sorted(card_of[j] for j in c_i[r_i == row]))] += 1
    # the ten most drawn (ties by the cards' names): only hands drawn at least as often
    # as the tenth most drawn can be among them, so only those get a name key
    least = heapq.nlargest(10, hands.values())[-1]
    ranked = sorted(((cs, k) for cs, k in hands.items() if k >= least),
                    key=lambda kv: (-kv[1], [repr(c) for c in kv[0]]))[:10]
    # only the hands that stand out from all the others are named (_standing)
    counts = heapq.nlargest(len(ranked) + 1, hands.values())
    undrawn = len(hands) < bound      # possible hands no deal showed (drawn 0 times)
    groups = [(k, 1) for k in counts] + ([(0, 1)] if undrawn else [])
    named, at_most = _standing(groups, len(ranked), n)
    if not named:
        return Candidates(loc, None, False, [], certain, upper=bound, lower=len(hands),
                          withheld=True, samples=n, p_at_most=at_most)
    ranked = ranked[:named]
    top, err = [], 0.0
    for cs, k in ranked:
        p = k / n
        err = max(err, wilson_halfwidth(p, n))
        if len(hands) < bound:        # other hands are possible: never a certainty
            p = min(p, 1 - 0.5 / (n + 1))
        top.append((cs, p))
    return Candidates(loc, None, False, top, certain, upper=bound, lower=len(hands),
                      error=err)


def _by_class(m, loc: str, hands, card_of, n: int, bound: int, top: int = 10):
    """The candidates from ``n`` uniform deals whose hands in ``loc`` are the rows of
    ``hands`` (card indices), through the classes of interchangeable cards
    (:func:`solver.model.counting.interchangeable`): every hand with as many cards of each
    class as a drawn one is possible, and all of them equally likely.  So the lower bound
    is the number of hands of the compositions drawn (not only the hands drawn), and a
    hand's chance is estimated from every draw of its composition: ``(top, lower, error)``;
    ``None`` when the classes do not account for the drawn hands."""
    import math
    from collections import Counter
    from fractions import Fraction

    from solver.model.counting import interchangeable, smallest_sets
    from solver.model.stats import wilson_halfwidth

    import numpy as np

    sym = interchangeable(m, loc)
    if sym is None:
        return None
    classes, fixed = sym
    cls = np.full(len(card_of), -2, dtype=np.int64)
    cls[fixed] = -1
    for r, cs in enumerate(classes):
        cls[cs] = r
    of = cls[hands]
    if (of == -2).any() or ((of == -1).sum(axis=1) != len(fixed)).any():
        return None
    of.sort(axis=1)
    uniq, cnt = np.unique(of, axis=0, return_counts=True)
    comps = []
    for u, k in zip(uniq.tolist(), cnt.tolist()):
        kinds = Counter(r for r in u if r >= 0)
        nsets = math.prod(math.comb(len(classes[r]), c) for r, c in kinds.items())
        comps.append((Fraction(k, nsets), k, nsets, sorted(kinds.items())))
    lower = sum(c[2] for c in comps)
    comps.sort(key=lambda c: -c[0])
    # the compositions that fill the list, of which only those standing out from all the
    # others are named (_standing); compositions no deal showed: drawn 0 times, one hand
    # each at most (the largest chance such a hand may have)
    room, fill = top, 0
    while fill < len(comps) and room > 0:
        room -= comps[fill][2]
        fill += 1
    groups = [(k, nsets) for _, k, nsets, _ in comps] + ([(0, 1)] if lower < bound else [])
    keep, at_most = _standing(groups, fill, n)
    base = [card_of[ci] for ci in fixed]
    out: list[tuple[tuple[Card, ...], float]] = []
    err, i = 0.0, 0
    while i < keep and len(out) < top:
        j = i
        while j < len(comps) and comps[j][0] == comps[i][0]:
            j += 1
        # equally likely: the first by their cards' names
        tied = [[([card_of[ci] for ci in classes[r]], c) for r, c in kinds]
                for _, _, _, kinds in comps[i:j]]
        k, nsets = comps[i][1], comps[i][2]
        p = k / n / nsets
        if lower < bound:             # other hands are possible: never a certainty
            p = min(p, 1 - 0.5 / (n + 1))
        for hand in smallest_sets(tied, base, top - len(out)):
            out.append((tuple(sorted(hand)), p))
            err = max(err, wilson_halfwidth(k / n, n) / nsets)
        i = j
    return out, lower, err, at_most


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion drawn ``k`` times in ``n``."""
    import math

    from solver.model.stats import Z95

    z2 = Z95 * Z95
    p = k / n
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _standing(groups, most: int, n: int) -> tuple[int, float]:
    """How many of the first ``most`` groups of sampled hands stand out from the rest.

    ``groups``: ``(k, size)`` for each group of equally likely hands (one hand, or the hands
    of one composition of interchangeable cards) drawn ``k`` times in ``n`` deals, the likeliest
    first (``k / size`` not increasing); a group ``(0, 1)`` at the end stands for the possible
    hands no deal showed.  A hand's chance is in ``[lo, hi] / size`` (95 % Wilson interval of
    ``k / n``).  The answer is the largest ``j <= most`` whose first ``j`` groups each have a
    lower end above the upper end of every group after them: those hands, and only those, are
    more likely than every other candidate, so they may be called the most likely (0: none
    is, e.g. every hand drawn once among thousands of candidates).  With it, the largest upper
    end of any group: no candidate's chance is above it."""
    ends = [(lo / size, hi / size) for lo, hi, size in
            ((*_wilson(k, n), size) for k, size in groups)]
    at_most = max((hi for _lo, hi in ends), default=0.0)
    for j in range(min(most, len(ends)), 0, -1):
        rest = max((hi for _lo, hi in ends[j:]), default=-1.0)
        if min(lo for lo, _hi in ends[:j]) > rest:
            return j, at_most
    return 0, at_most


def explain(record, view: str | None, card_text: str):
    """Why each certainty about one card holds (``sleuth why``)."""
    card = Card.parse(card_text)
    vm = build(record, view)
    name = repr(card)
    if name not in vm.keys:
        raise NotationError("that card is not in this deck", text=card_text)
    bb = vm.model.backbone()
    if not bb.consistent:
        raise vm.inconsistent()
    return vm.explain_keys(vm.keys[name], bb, vm.loc_label)


