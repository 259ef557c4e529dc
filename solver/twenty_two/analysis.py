"""Twenty-Two analysis for one view: unseen cards (I1), each opponent's possible holdings,
the view's legal plays with the chance of ending up with the highest last card (I6), and the
scores (TT-13, TT-16).

Probabilities assume a uniformly random deal consistent with everything the view saw (every
physical card distinct; record-format.md).  Card probabilities are exact when the class DP of
:mod:`solver.model.counting` fits its budget, estimates otherwise (``exact`` false, ``error``
= 95 % half-width); certainties always come from complete reasoning (exact counting or
CP-SAT).

The chance of ending up with the highest last card depends on how everybody will play; it is
computed under the stated model of :mod:`solver.twenty_two.policy`, by playing the hand out
on uniform samples of the consistent deals (an estimate, with its 95 % half-width),
and exactly (by counting) when no choice is left: the play is the last of the hand.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypedDict

from solver.cards import Card
from solver.errors import NotationError
from solver.model.copies import settle_copies
from solver.twenty_two.inference import (DISCARDS, OUT, STOCK, ViewModel, base_loc, build,
                                         is_complete, strongest, visible_players)
from solver.twenty_two.options import TwentyTwoOptions
from solver.twenty_two.ranking import (beats_or_ties, hr, legal_follows, legal_leads, rank_label,
                                    ranks, show_rank, target_of)
from solver.twenty_two.policy import gc_paused, losers, playout
from solver.twenty_two.engine import (Engine, courses, followed, has_unseen, merged_turn,
                                      no_course_error, replay, ruling_lines, unseen_lines)

MAX_STATES = 200_000
TIME_BUDGET = 5.0      # seconds for counting (under half of it for the exact attempt)
SAMPLES = 400          # sampled deals for the showdown risk (at most, per play)
DECISIONS = 60_000     # plays simulated per analysis: fewer samples for many plays, big tables
MIN_SAMPLES = 120
MAX_PLAYS = 40         # plays evaluated (all are listed)

RANK_ORDER = list(range(2, 15)) + [0]   # 2..A, then jokers


@dataclass
class Risk:
    """P(the view ends up holding the highest last card, TT-13/TT-14 -- ties lose too)."""

    p: float
    exact: bool
    error: float = 0.0
    samples: int = 0

    def to_json(self) -> dict:
        out = {"p": self.p, "exact": self.exact}
        if not self.exact:
            out.update(error=self.error, samples=self.samples)
        return out


@dataclass
class PlayOption:
    cards: tuple[Card, ...]
    kind: str                        # lead | beat-or-tie | lowest
    risk: Risk | None = None

    def to_json(self) -> dict:
        return {"cards": [repr(c) for c in self.cards], "kind": self.kind,
                "p_highest_last": None if self.risk is None else self.risk.p,
                **({} if self.risk is None else {"risk": self.risk.to_json()})}


@dataclass
class Holding:
    """What the view knows of one player's hand now."""

    player: str
    size: int
    certain: list[str]                       # card names certainly there (with repeats)
    ranks: dict[str, float]                  # rank label -> expected copies there
    possible_ranks: list[str]
    facts: list[str] = field(default_factory=list)
    #: name -> (copies certainly there, copies in the game), for the game's cards with
    #: more than one copy (``None`` when every card of the game has one copy)
    copies: dict[str, tuple[int, int]] | None = None

    def to_json(self) -> dict:
        out = {"size": self.size, "certain": self.certain, "ranks": self.ranks,
               "possible_ranks": self.possible_ranks, "facts": self.facts}
        if self.copies is not None:
            out["certain_copies"] = {n: {"at_least": k, "of": of}
                                     for n, (k, of) in self.copies.items()}
        return out

    def certain_text(self) -> list[str]:
        """``AC``, or ``7C (at least 1 of 2)`` for a card with several copies."""
        out = []
        for name in dict.fromkeys(self.certain):
            k = self.certain.count(name)
            of = self.copies.get(name, (k, 1))[1] if self.copies is not None else 1
            out.append(name if of == 1 else f"{name} (at least {k} of {of})")
        return out


@dataclass
class TwentyTwoAnalysis:
    """The result of :func:`analyze`; ``to_json()`` follows record-format.md."""

    view: str | None
    players: tuple[str, ...]
    options: TwentyTwoOptions
    deal_number: int
    dealer: str | None
    receivers: tuple[str, ...]
    sizes: dict[str, int]
    turn: str
    to_act: tuple[str, ...]
    trick: list[tuple[str, tuple[Card, ...]]]
    target: tuple[Card, ...] | None
    hand: list[Card] | None
    unseen: dict[str, int]
    unseen_where: dict[str, dict[str, float]]     # rank -> location -> expected unseen copies
    cards: dict[str, dict[str, float]]
    possible: dict[str, set[str]]
    exact: bool
    error: float
    method: str
    holdings: dict[str, Holding]
    plays: list[PlayOption]
    plays_evaluated: int
    risk_now: Risk | None
    scores: dict[str, dict]
    closest: list[str]
    over: bool
    winners: tuple[str, ...]
    statements: int
    notes: list[str] = field(default_factory=list)

    @property
    def limit(self) -> int:
        return self.options.limit

    def certain(self, name: str) -> str | None:
        locs = self.possible.get(name, set())
        return next(iter(locs)) if len(locs) == 1 else None

    def to_json(self) -> dict:
        out: dict[str, object] = {
            "game": "twenty-two",
            "view": self.view,
            "consistent": True,
            "exact": self.exact,
            "cards": self.cards,
            "variant": self.options.names(),
            "deal": {"number": self.deal_number, "dealer": self.dealer,
                     "players": list(self.receivers), "sizes": self.sizes,
                     "turn": self.turn, "to_act": list(self.to_act),
                     "trick": [{"player": p,
                                "cards": None if cs is None else [repr(c) for c in cs]}
                               for p, cs in self.trick],
                     "target": None if self.target is None else [repr(c) for c in self.target]},
            "hand": None if self.hand is None else [repr(c) for c in self.hand],
            "unseen": self.unseen,
            "unseen_where": self.unseen_where,
            "holdings": {p: h.to_json() for p, h in self.holdings.items()},
            "plays": [p.to_json() for p in self.plays],
            "risk_now": None if self.risk_now is None else self.risk_now.to_json(),
            "scores": self.scores,
            "limit": self.limit,
            "closest_to_elimination": self.closest,
            "game_over": self.over,
            "winners": list(self.winners),
            "method": self.method,
            "policy": "last card: keep the lowest allowed; otherwise a uniform choice among "
                      "the lowest, cheapest-beating and strongest legal plays",
        }
        if not self.exact:
            out["error"] = self.error
        return out



class _AnalysisBase(TypedDict):
    """The fields of :class:`TwentyTwoAnalysis` that :func:`analyze` knows before any deal."""

    view: str | None
    players: tuple[str, ...]
    options: TwentyTwoOptions
    scores: dict[str, dict]
    closest: list[str]
    over: bool
    winners: tuple[str, ...]
    statements: int
    turn: str
    to_act: tuple[str, ...]


def _models(record, view, eng: Engine, omniscient=False) -> list[ViewModel]:
    complete = is_complete(eng)
    visible_players(record, view, complete, omniscient)  # refuse an unsupported view early
    return [build(record, view, d, eng.opts, complete=complete, omniscient=omniscient)
            for d in eng.deals]


def check(record, view: str | None = None, omniscient: bool = True) -> None:
    """Raise :class:`InconsistentError` when some hand of the record has no consistent deal
    (by default with everything written, as the recorder knows it)."""
    from solver.errors import InconsistentError

    eng = replay(record)
    view = view if view is not None else record.header.me
    errors: list = []
    for w in courses(eng):       # unseen turns: consistent when some course is
        try:
            vms = _models(record, view, w, omniscient)
        except InconsistentError as e:
            errors.append(e)
            continue
        bad = next((vm for vm in vms if not vm.model.is_consistent()), None)
        if bad is None:
            return
        errors.append(bad.inconsistent)     # made only when needed (a solver's core)
    raise _none_left(record, view, errors, omniscient)


def _none_left(record, view, errors: list, omniscient: bool = False) -> Exception:
    """The error when no course of a record with unseen turns fits the deal facts
    (:func:`~solver.twenty_two.engine.no_course_error`): its conflict has the unseen lines
    and the lines that ruled out the courses the deal facts allowed."""
    from solver.errors import InconsistentError

    def allowed(e: Engine) -> bool:
        try:
            vms = _models(record, view, e, omniscient)
        except InconsistentError:
            return False
        return all(vm.model.is_consistent() for vm in vms)

    return no_course_error(errors, unseen_lines(record.statements),
                           ruling=lambda: ruling_lines(record, allowed))


def _scores(eng: Engine) -> tuple[dict[str, dict], list[str]]:
    totals = eng.totals()
    scores = {p: {"cards": [repr(c) for c, _ in eng.scoring[p]], "total": totals[p],
                  "to_go": max(eng.opts.limit - totals[p], 0),
                  "eliminated": p in eng.eliminated} for p in eng.players}
    active = eng.active
    closest = []
    if active and not eng.over:
        top = max(totals[p] for p in active)
        closest = [p for p in active if totals[p] == top]
    return scores, closest


def analyze(record, view: str | None, *, max_states: int = MAX_STATES,
            time_budget: float = TIME_BUDGET, samples: int = SAMPLES,
            seed: int = 0) -> TwentyTwoAnalysis:
    """Analyse ``record`` from ``view`` (a player, or ``None`` for the public view).

    Raises :class:`InconsistentError` naming a minimal set of conflicting lines when no deal
    fits what the view saw (in the current hand or an earlier one)."""
    from solver.model.counting import count_deals

    eng = replay(record)
    followed(eng)          # too many courses to follow: over budget, not a rule error
    opts = eng.opts
    scores, closest = _scores(eng)
    turn = eng.turn()
    base = _AnalysisBase(view=view, players=eng.players, options=opts, scores=scores,
                         closest=closest, over=eng.over, winners=eng.winners,
                         statements=len(record.statements), turn=turn.kind,
                         to_act=turn.players)
    if not eng.deals:
        visible_players(record, view, False)
        cards = {name: {STOCK: float(k)} for name, k in eng.deck.items()}
        return TwentyTwoAnalysis(deal_number=0, dealer=None, receivers=(), sizes={},
                                 trick=[], target=None, hand=None, unseen=_unseen(eng.deck, []),
                                 unseen_where={},
                                 cards=cards, possible={n: {STOCK} for n in cards}, exact=True,
                                 error=0.0, method="none", holdings={}, plays=[],
                                 plays_evaluated=0, risk_now=None,
                                 notes=["no hand dealt yet: every card is in the pack"], **base)
    if has_unseen(record.statements):
        return _analyze_courses(record, view, eng, base, max_states=max_states,
                                time_budget=time_budget, samples=samples, seed=seed)
    vms = _models(record, view, eng)
    for vm in vms[:-1]:
        if not vm.model.is_consistent():
            raise vm.inconsistent()
    vm = vms[-1]
    m = vm.model
    counting = count_deals(m, max_states=max_states, time_budget=time_budget)
    if counting.exact:
        if not counting.total:
            raise vm.inconsistent()
        possible_k = {k: {l for l, p in counting.marginals.get(k, {}).items() if p > 0}
                      for k in m.cards}
    else:  # certainties by CP-SAT; the sampled deals are consistent, so a head start
        known = {k: {l for l, p in counting.marginals.get(k, {}).items() if p > 0}
                 for k in m.cards} if counting.accepted else None
        bb = m.backbone(known=known)
        if not bb.consistent:
            raise vm.inconsistent()
        possible_k = bb.possible
    cards, possible = _aggregate(vm, counting, possible_k)
    d = vm.deal
    hand = _hand_cards(vm.hands.get(view)) if view in d.receivers else None
    known_at = {p: c for p, c in vm.hands.items() if c is not None}   # what the view has seen
    known_at[DISCARDS] = sum(vm.discarded.values(), Counter())
    seen = sum(known_at.values(), Counter(vm.public))
    unseen = _unseen(d.deck, list(seen.elements()))
    where = _unseen_where(vm, cards, view, known_at)
    holdings = _holdings(vm, cards, possible, view, vm.public,
                         certain_copies(vm, possible_k, counting, view))
    trick = list(eng.trick) if eng.deal is d and not eng.over else []
    target = tuple(target_of([c for _, c in trick], opts)) if trick else None
    plays: list[PlayOption] = []
    evaluated = 0
    risk_now = None
    notes = []
    my_turn = bool(hand) and eng.deal is d and view in turn.players and turn.kind in (
        "lead", "follow")
    if my_turn:
        assert hand is not None  # my_turn: the view holds cards
        plays = _options(hand, trick, opts)
    n_opts = max(1, min(MAX_PLAYS, len(plays)))
    view_size = vm.sizes.get(view, 1) if view is not None else 1
    per_playout = max(1, len(d.receivers) * max(view_size - 1, 1))
    budget = DECISIONS // (n_opts * per_playout)
    sampler = _Sampler(vm, max(min(samples, budget), min(samples, MIN_SAMPLES)),
                       seed, max_states)
    if not counting.exact:  # the exact tables did not fit: no exactly uniform samples either
        sampler.failed = ("showdown risk not computed: too many consistent deals to sample "
                          "exactly within the budget")
    with gc_paused():       # the deals and the playouts: no cycles, many containers
        if my_turn:
            assert hand is not None and view is not None  # my_turn: the view holds cards
            for opt in plays[:MAX_PLAYS]:
                opt.risk = _risk(vm, eng, view, trick, opt.cards, sampler, counting, hand)
            evaluated = min(len(plays), MAX_PLAYS)
        elif hand and eng.deal is d and turn.kind in ("lead", "follow", "showdown"):
            assert view is not None  # only a player holds a hand
            risk_now = _risk(vm, eng, view, trick, None, sampler, counting, hand)
    if sampler.failed and (plays or hand):
        notes.append(sampler.failed)
    return TwentyTwoAnalysis(deal_number=d.number, dealer=d.dealer, receivers=d.receivers,
                             sizes=dict(vm.sizes), trick=trick, target=target, hand=hand,
                             unseen=unseen, unseen_where=where, cards=cards,
                             possible=possible,
                             exact=counting.exact,
                             error=0.0 if counting.exact else counting.error,
                             method=counting.method, holdings=holdings, plays=plays,
                             plays_evaluated=evaluated, risk_now=risk_now, notes=notes, **base)


def _hand_cards(c: Counter | None) -> list[Card] | None:
    if c is None:
        return None
    return sorted((Card.parse(n) for n in c.elements()), key=lambda x: (show_rank(x),
                                                                        x.sort_key()))


def _unseen(deck: Counter, seen: list[str]) -> dict[str, int]:
    """I1: per rank, copies in the deck minus those the view has seen."""
    left = Counter(deck)
    left.subtract(Counter(seen))
    out: dict[str, int] = {}
    for name, k in left.items():
        if k > 0:
            lab = rank_label(hr(Card.parse(name)))
            out[lab] = out.get(lab, 0) + k
    return {lab: out[lab] for lab in (rank_label(r) for r in RANK_ORDER) if lab in out}


def _unseen_where(vm: ViewModel, cards, view, known_at: dict[str, Counter]):
    """Per rank, the expected copies of the *unseen* cards at each hidden location (other
    hands, stock, discards, and ``out`` for plays not seen), leaving out the cards the view
    has seen there (the plays seen are public)."""
    locs = [p for p in vm.deal.receivers if p != view] + [STOCK, DISCARDS, OUT]
    seen = dict(known_at)
    seen[OUT] = Counter(vm.public)
    out: dict[str, dict[str, float]] = {}
    for name, d in cards.items():
        lab = rank_label(hr(Card.parse(name)))
        for loc in locs:
            e = d.get(loc, 0.0) - seen.get(loc, Counter())[name]
            if e > 1e-12:
                out.setdefault(lab, {})
                out[lab][loc] = out[lab].get(loc, 0.0) + e
    order = [rank_label(r) for r in RANK_ORDER]
    return {lab: {l: round(v, 9) for l, v in out[lab].items()} for lab in order if lab in out}


def _aggregate(vm: ViewModel, counting, possible_k, model=...):
    """Per card name: expected copies per location (record-format.md), possible locations.
    ``model=None``: figures combined over courses, with no single model to prove a whole
    count by CP-SAT, so only what the figures and supports show is settled."""
    cards: dict[str, dict[str, float]] = {}
    possible: dict[str, set[str]] = {}
    for name, keys in vm.keys.items():
        agg: dict[str, float] = {}
        poss: set[str] = set()
        for k in keys:
            poss |= possible_k[k]
            for l, p in counting.marginals.get(k, {}).items():
                agg[l] = agg.get(l, 0.0) + p
        agg = {l: p for l, p in agg.items() if l in poss and p > 0}
        if len(poss) == 1:
            agg = {next(iter(poss)): float(len(keys))}
        elif not counting.exact:  # keep an estimate inside the logical support
            s = sum(agg.values())
            agg = ({l: p * len(keys) / s for l, p in agg.items()} if s > 0 else
                   {l: len(keys) / len(poss) for l in poss})
        cards[name] = agg
        possible[name] = poss
    # a count certain in every deal exactly whole, any other strictly inside its range
    return settle_copies(vm.model if model is ... else model, vm.keys, cards, possible_k,
                         counting), possible


def certain_copies(vm: ViewModel, possible_k, counting, view) -> dict[str, dict[str, int]]:
    """Player (not ``view``) -> card name -> the least number of its copies in that hand over
    every consistent deal (names with none left out): a card is certainly in a hand when at
    least one copy is there in every consistent deal (TT-1, TT-V2(a): copies are
    interchangeable, so no single copy need be certain).

    Complete: the least count lies between the copies forced there one by one (the
    backbone) and the copies that can be there (with exact counting, also the expected
    number); what is left open is settled by CP-SAT, which is asked repeatedly for one deal
    breaking as many of the remaining claims as it can, until none breaks any."""
    m = vm.model
    players = [p for p in vm.deal.receivers if p != view and vm.sizes.get(p)]
    least: dict[tuple[str, str], int] = {}
    floor: dict[tuple[str, str], int] = {}
    open_: dict[tuple[str, str], int] = {}
    for name, keys in vm.keys.items():
        for p in players:
            lo = sum(1 for k in keys if possible_k[k] == {p})
            hi = sum(1 for k in keys if p in possible_k[k])
            if counting.exact:  # the least count is at most the expected count
                e = sum(counting.marginals.get(k, {}).get(p, 0.0) for k in keys)
                hi = min(hi, math.floor(e + 1e-9))
            hi = max(hi, lo)
            floor[name, p] = lo
            if hi > lo:
                open_[name, p] = hi
            elif lo:
                least[name, p] = lo
    while open_:
        claims = list(open_)

        def breaking(cp, x, claims=claims):
            flags = []
            for name, p in claims:
                b = cp.NewBoolVar("")
                li = m.loc_index(p)
                cp.Add(sum(x[m.card_index(k), li] for k in vm.keys[name])
                       <= open_[name, p] - 1).OnlyEnforceIf(b)
                flags.append(b)
            cp.Add(sum(flags) >= 1)
            cp.Maximize(sum(flags))

        deal = m.solution(breaking)
        if deal is None:
            if m.is_consistent(breaking):  # pragma: no cover - a slow first attempt
                continue
            break                           # no deal breaks any claim: each is the least
        held = Counter((vm.model.name(k), loc) for k, loc in deal.items())
        for c in claims:
            open_[c] = min(open_[c], held[c])
            if open_[c] <= floor[c]:
                del open_[c]
                if floor[c]:
                    least[c] = floor[c]
    least.update(open_)
    out: dict[str, dict[str, int]] = {p: {} for p in players}
    for (name, p), k in least.items():
        if k:
            out[p][name] = k
    return out


def _holdings(vm: ViewModel, cards, possible, view, public: Counter,
              least: dict[str, dict[str, int]]) -> dict[str, Holding]:
    """Per opponent: the cards certainly there (``least``: at least so many copies in every
    consistent deal), the expected copies of each rank, the possible ranks and the strongest
    deductions."""
    multi = any(len(keys) > 1 for keys in vm.keys.values())
    out = {}
    for p in vm.deal.receivers:
        if p == view:
            continue
        certain = []
        copies: dict[str, tuple[int, int]] = {}
        ranks: dict[str, float] = {}
        for name, keys in vm.keys.items():
            lab = rank_label(hr(Card.parse(name)))
            e = cards[name].get(p, 0.0)
            if e > 0:
                ranks[lab] = ranks.get(lab, 0.0) + e
            k = least.get(p, {}).get(name, 0)
            if k:
                certain += [name] * k
                if len(keys) > 1:
                    copies[name] = (k, len(keys))
        order = [rank_label(r) for r in RANK_ORDER]
        ranks = {lab: round(ranks[lab], 6) for lab in order if lab in ranks}
        poss_ranks = [lab for lab in order
                      if any(p in possible[n] and rank_label(hr(Card.parse(n))) == lab
                             for n in vm.keys)]
        facts = [f"{f.text} (line {f.line})" for f in strongest(vm.facts)
                 if f.player == p] if vm.sizes.get(p) else []
        out[p] = Holding(p, vm.sizes.get(p, 0), certain, ranks, poss_ranks, facts,
                         copies if multi else None)
    return out


def _options(hand: list[Card], trick, opts: TwentyTwoOptions) -> list[PlayOption]:
    """Every distinct legal play now (A10: up to suits), weakest first."""
    if not trick:
        return [PlayOption(p, "lead") for p in legal_leads(hand, opts)]
    plays = [c for _, c in trick]
    target = target_of(plays, opts)
    out = []
    for p in legal_follows(hand, plays, opts):
        kind = "beat-or-tie" if beats_or_ties(p, target) else "lowest"
        out.append(PlayOption(p, kind))
    out.sort(key=lambda o: (sorted((hr(c) for c in o.cards), reverse=True)))
    return out


class _Sampler:
    """Uniform consistent deals of the view's model (from the count's tables), drawn once
    and shared by every play."""

    def __init__(self, vm: ViewModel, n: int, seed: int, max_states: int):
        self.vm, self.n, self.seed, self.max_states = vm, n, seed, max_states
        #: the sampled deals, each player's hand as ranks (:meth:`deals`), once sampled
        self._deals: list[dict[str, list[int]]] | None = None
        self.failed = ""

    def deals(self):
        if self._deals is None and not self.failed:
            from solver.model.budget import TimeUp
            from solver.model.counting import OverBudget, sample_deals

            try:
                # from the float tables of the count just made (kept by counting): uniform
                # to float rounding (~1e-14), without a second programme in integers
                raw = sample_deals(self.vm.model, self.n, self.seed, max_states=self.max_states,
                                   time_budget=5.0, exact_ints=False)
            except TimeUp:
                raise
            except (OverBudget, ValueError) as e:
                self.failed = ("showdown risk not computed: the consistent deals could not be "
                               f"sampled exactly ({type(e).__name__})")
                return None
            rank_of = {k: hr(Card.parse(self.vm.model.name(k))) for k in self.vm.model.cards}
            self._deals = []
            for deal in raw:
                hands: dict[str, list[int]] = {p: [] for p in self.vm.deal.receivers}
                for k, loc in deal.items():
                    if loc in hands:
                        hands[loc].append(rank_of[k])
                self._deals.append(hands)
        return self._deals


def _risk(vm: ViewModel, eng: Engine, view: str, trick, play, sampler: _Sampler, counting,
          hand: list[Card]) -> Risk | None:
    """P(view's last card is the highest) after ``play`` (None: from now on)."""
    d = vm.deal
    n_players = len(d.receivers)
    last_play = (play is not None and len(trick) == n_players - 1
                 and vm.sizes[view] - len(play) == 1)
    all_one = play is None and not trick and all(vm.sizes[p] == 1 for p in d.receivers)
    if last_play or all_one:
        mine_left = list(hand)
        for c in play or ():
            mine_left.remove(c)
        exact = _exact_last(vm, view, mine_left[0], counting)
        if exact is not None:
            return exact
    deals = sampler.deals()
    if not deals:
        return None
    rng = random.Random(sampler.seed + 1)
    hits = 0
    mine = ranks(hand)
    trick_r = [(p, ranks(c)) for p, c in trick]
    forced = None if play is None else (view, ranks(play))
    assert eng.leader is not None  # a hand is being played
    for hands in deals:
        hands = dict(hands)
        hands[view] = mine
        last = playout(hands, d.receivers, eng.leader, trick_r, vm.opts, rng, forced)
        hits += view in losers(last)
    n = len(deals)
    p = hits / n
    # simulated playouts prove nothing: an estimate never says 0 or 1 (certainty is only
    # claimed by the exact count above)
    eps = 0.5 / (n + 1)
    return Risk(min(max(p, eps), 1.0 - eps), False, _wilson(p, n), n)


def _exact_last(vm: ViewModel, view: str, card: Card, counting) -> Risk | None:
    """No choice left: P(no other player's last card outranks ``card``) by counting."""
    from solver.model.counting import count_deals

    m = vm.model
    others = [p for p in vm.deal.receivers if p != view]
    higher = [k for name, ks in vm.keys.items() if show_rank(Card.parse(name)) > show_rank(card)
              for k in ks]
    if not higher:
        return Risk(1.0, counting.exact, 0.0 if counting.exact else counting.error)
    m2 = _copy_model(m)
    m2.add(higher, others, 0, 0, None, "no other player holds a higher card")
    c2 = count_deals(m2, max_states=MAX_STATES, time_budget=TIME_BUDGET)
    if not (counting.exact and c2.exact):
        return None
    return Risk(float(c2.total) / float(counting.total), True)


def _copy_model(m):
    import copy

    m2 = copy.copy(m)
    m2.constraints = list(m.constraints)
    return m2


def _wilson(p: float, n: int) -> float:
    """95 % half-width (the larger side of the Wilson interval)."""
    from solver.model.stats import wilson_halfwidth

    return float(wilson_halfwidth(float(p), n))


def certain_now(record, view: str | None) -> dict[str, str]:
    """Where each card certainly is in the current hand (card name -> place): the
    backbone alone, no count and no chances (:func:`solver.staged.model_certain`); every
    card in the pack before the first deal.  The earlier hands are checked as
    :func:`analyze` checks them."""
    from solver.staged import model_certain

    eng = replay(record)
    followed(eng)
    if not eng.deals:
        visible_players(record, view, False)
        return {name: STOCK for name in eng.deck}
    if has_unseen(record.statements):
        return _certain_courses(record, view, courses(eng))
    vms = _models(record, view, eng)
    for vm in vms[:-1]:
        if not vm.model.is_consistent():
            raise vm.inconsistent()
    return model_certain(vms[-1], joined=False)


def _certain_courses(record, view, ways: list[Engine]) -> dict[str, str]:
    """:func:`certain_now` of a record with unseen turns: a card is certain when every
    consistent course puts all its copies in the same place, an unseen play's cards being
    ``out`` (:func:`~solver.twenty_two.inference.base_loc`).  Cheapest first: propagation
    in every course (each copy's places there, a superset of its possible ones: a card left
    one place over all courses together is certain; what a time-out establishes), then
    each course's exact places, until every other card has two places somewhere."""
    from solver.model.budget import TimeUp, check, establish
    from solver.model.witness import Infeasible, propagate
    from solver.staged import _counted, certain_of

    errors: list = []
    vms = []
    sup: dict[str, list[set[str]]] = {}      # card name -> per copy, places in some course
    try:
        for _, vm in _course_models(record, view, ways, errors):
            m = vm.model
            try:
                allowed, _, _, _ = propagate(m)
            except Infeasible:
                errors.append(vm.inconsistent)
                continue
            vms.append(vm)
            for name, keys in vm.keys.items():
                row = sup.setdefault(name, [set() for _ in keys])
                for j, k in enumerate(keys):
                    row[j] |= {base_loc(m.locations[li]) for li in allowed[m.card_index(k)]}
            check("the certainties")
    except TimeUp as e:
        establish(places={}, joined=False)
        raise type(e)(e.seconds, e.what, {"places": {}, "joined": False}) from None
    if not vms:
        raise _none_left(record, view, errors)
    places = {n: [sorted(c) for c in row] for n, row in sup.items()}
    establish(places=places, joined=False)
    certain = certain_of(places, joined=False)
    # the others: certain when every consistent course has all copies in one same place
    open_: dict[str, str | None] = {n: None for n in sup if n not in certain}
    consistent = False
    try:
        for vm in vms:
            if not open_ and consistent:
                break
            m = vm.model
            got = _counted(m)
            if got is None:
                bb = m.backbone()
                got = bb.possible if bb.consistent else {k: set() for k in m.cards}
            if not any(got.values()):
                errors.append(vm.inconsistent)
                continue
            consistent = True
            for name in list(open_):
                here = {base_loc(l) for k in vm.keys[name] for l in got[k]}
                if len(here) != 1 or open_[name] not in (None, *here):
                    del open_[name]
                else:
                    open_[name] = here.pop()
            check("the certainties")
    except TimeUp as e:
        raise type(e)(e.seconds, e.what, {"places": places, "joined": False}) from None
    if not consistent:
        raise _none_left(record, view, errors)
    certain.update({n: l for n, l in open_.items() if l is not None})
    return certain


def explain(record, view: str | None, card_text: str):
    """Why each certainty about one card holds in the current hand (``sleuth why``)."""
    card = Card.parse(card_text)
    eng = replay(record)
    followed(eng)
    if not eng.deals:
        raise NotationError("no hand has been dealt yet", text=card_text)
    name = repr(card)
    if name not in eng.deals[-1].deck:
        raise NotationError("that card is not in this game's deck", text=card_text)
    if has_unseen(record.statements):
        return _explain_courses(record, view, courses(eng), name)
    vm = _models(record, view, eng)[-1]
    bb = vm.model.backbone()
    if not bb.consistent:
        raise vm.inconsistent()
    return vm.explain_keys(vm.keys[name], bb, vm.loc_label)


def _forced(m, negate, lines: set[int]) -> bool:
    """Whether the statements of ``lines`` alone (with the rules) leave no deal in which
    ``negate`` holds (:meth:`~solver.model.CardLocationModel._core`'s model)."""
    from ortools.sat.python import cp_model

    cm, x, lits = m._build(True, negate)
    for s, lit in lits.items():       # the others free: the solver may drop them
        if s in lines:
            cm.Add(lit == 1)
    return m._solver(seconds=30.0).Solve(cm) == cp_model.INFEASIBLE


def _explain_courses(record, view, ways: list[Engine], name: str):
    """:func:`explain` of a record with unseen turns, in the words of
    :func:`solver.model.explain_card`: a place is possible when some consistent course
    allows it (an unseen play's cards are ``out``), a certainty holds in every course, and
    its lines are those that force it in each course, together."""
    from types import SimpleNamespace

    from solver.model import Explanation, Reason, place_phrase

    from solver.model.budget import check
    from solver.staged import _counted

    errors: list = []
    done: list[tuple[ViewModel, Any]] = []
    for _, vm in _course_models(record, view, ways, errors):
        got = _counted(vm.model)
        if got is None:
            bb = vm.model.backbone()
            got = bb.possible if bb.consistent else {k: set() for k in vm.model.cards}
        if any(got.values()):
            done.append((vm, SimpleNamespace(possible=got)))
        else:
            errors.append(vm.inconsistent)
        check("the explanation")
    if not done:
        raise _none_left(record, view, errors)
    first = done[0][0]
    keys = first.keys[name]
    label = first.loc_label
    places = list(dict.fromkeys(base_loc(l) for l in first.model.locations))

    def possible(k) -> set[str]:
        return {base_loc(l) for vm, bb in done for l in bb.possible[k]}

    def lines(k, place: str, at: bool) -> tuple[int, ...]:
        """The lines forcing copy ``k`` to be at ``place`` (``at``) or not, in every
        course: a minimal set in the first course, and in each other course where the
        lines found so far do not force it, its own minimal set added."""
        got: set[int] = set()
        for vm, _ in done:
            m = vm.model
            bad = [m.locations.index(l) for l in m.locations if (base_loc(l) == place) != at]

            def negate(cm, x, bad=bad, ci=m.card_index(k)):   # copy k somewhere it is not
                cm.AddBoolOr([x[ci, li] for li in bad])

            if got and _forced(m, negate, got):
                continue
            got.update(m._core(negate) or [])
            check("the explanation")
        return tuple(sorted(got))

    reasons: list[Reason] = []
    if len(keys) == 1:
        poss = possible(keys[0])
        if len(poss) == 1:
            loc = next(iter(poss))
            reasons.append(Reason(f"{name} is {place_phrase(label(loc))}",
                                  lines(keys[0], loc, True)))
            summary = f"certainly {place_phrase(label(loc))}"
        else:
            for loc in places:
                if loc not in poss:
                    reasons.append(Reason(f"{name} is not {place_phrase(label(loc))}",
                                          lines(keys[0], loc, False)))
            summary = "could be " + ", ".join(place_phrase(label(l)) for l in places
                                              if l in poss)
    else:
        poss = set().union(*(possible(k) for k in keys))
        for loc in places:
            if loc not in poss:
                reasons.append(Reason(f"no {name} is {place_phrase(label(loc))}",
                                      lines(keys[0], loc, False)))
        summary = "copies could be " + ", ".join(place_phrase(label(l)) for l in places
                                                 if l in poss)
    return Explanation(name, summary, reasons,
                       {ln: first.statements.get(ln, "") for r in reasons for ln in r.lines})




# ----- records with unseen turns (``P: ?``, a play ``?``) -----------------------------------

@dataclass
class _Course:
    """One way of filling in the unseen turns, with what its view model counts."""

    eng: Engine
    vm: ViewModel
    counting: Any
    possible_k: dict
    weight: float


def _trick_shown(eng: Engine) -> list[tuple[str, tuple[Card, ...] | None]]:
    """The open trick as seen: an unseen play's cards are ``None``."""
    d = eng.deal
    if d is None or not eng.trick:
        return []
    infos = d.plays[-len(eng.trick):]
    return [(i.player, None if i.unseen else tuple(i.cards)) for i in infos]


def _course_counts(record, view, ways: list[Engine], max_states: int,
                   time_budget: float) -> list[_Course]:
    """Each course's model of the current hand, counted; the courses no deal fits are left
    out (when none is left, their conflict: :func:`~solver.twenty_two.engine.no_course_error`)."""
    from solver.model.counting import count_deals

    out: list[_Course] = []
    errors: list = []
    for w, vm in _course_models(record, view, ways, errors):
        c = count_deals(vm.model, max_states=max_states, time_budget=time_budget)
        if c.exact:
            if not c.total:
                errors.append(vm.inconsistent)
                continue
            pk = {k: {l for l, p in c.marginals.get(k, {}).items() if p > 0}
                  for k in vm.model.cards}
        else:
            bb = vm.model.backbone()
            if not bb.consistent:
                errors.append(vm.inconsistent)
                continue
            pk = bb.possible
        out.append(_Course(w, vm, c, pk, float(c.total) * w.mult))   # merged courses
    if not out:
        raise _none_left(record, view, errors)
    return out


def _course_models(record, view, ways: list[Engine], errors: list | None = None):
    """Each course's model of the current hand, the courses whose record is inconsistent
    (a build conflict, or an earlier hand no deal fits) left out, their errors added to
    ``errors``."""
    from solver.errors import InconsistentError

    checked: dict[int, bool] = {}
    for w in ways:
        try:
            vms = _models(record, view, w)
        except InconsistentError as e:
            if errors is not None:
                errors.append(e)
            continue
        ok = True
        for d, vm in zip(w.deals[:-1], vms[:-1]):
            if id(d) not in checked:
                checked[id(d)] = vm.model.is_consistent()
            if not checked[id(d)]:
                if errors is not None:
                    errors.append(vm.inconsistent)
                ok = False
                break
        if ok:
            yield w, vms[-1]


def _analyze_courses(record, view, eng: Engine, base: _AnalysisBase, *, max_states: int,
                     time_budget: float, samples: int, seed: int) -> TwentyTwoAnalysis:
    """:func:`analyze` of a record with unseen turns: every course (a way of filling them in
    that the rules allow, :class:`~solver.twenty_two.engine.Courses`) is counted; the
    figures are the courses' own weighted by their numbers of deals (every consistent pair
    of a course and a deal equally likely), the places possible in some course are
    possible, and a certainty holds in every course."""
    from types import SimpleNamespace

    cs = _course_counts(record, view, courses(eng), max_states, time_budget)
    # who may act: in some course the deal facts allow (the rules alone allow more)
    now = merged_turn([c.eng for c in cs])
    base = _AnalysisBase(**{**base, "turn": now.kind, "to_act": now.players})
    total = sum(c.weight for c in cs)
    exact = all(c.counting.exact for c in cs)
    marg: dict = {}
    poss_k: dict = {}
    first = cs[0].vm
    for c in cs:
        share = c.weight / total
        for k in c.vm.model.cards:
            row = marg.setdefault(k, {})
            for l, p in c.counting.marginals.get(k, {}).items():
                row[base_loc(l)] = row.get(base_loc(l), 0.0) + share * p
            poss_k.setdefault(k, set()).update(base_loc(l) for l in c.possible_k[k])
    error = max((c.counting.error for c in cs), default=0.0)
    counting = SimpleNamespace(exact=exact, total=total, marginals=marg, error=error,
                               rounding=max(getattr(c.counting, "rounding", 0.0) for c in cs),
                               method=cs[0].counting.method)
    sizes: dict[str, float] = {}
    for c in cs:
        merged: dict[str, int] = {}
        for l, n in c.vm.sizes.items():
            merged[base_loc(l)] = merged.get(base_loc(l), 0) + n
        for l, n in merged.items():
            sizes[l] = sizes.get(l, 0.0) + n * c.weight / total
    sizes = {l: (round(n) if abs(n - round(n)) < 1e-9 else round(n, 2))
             for l, n in sizes.items()}
    # the facts every course proves; the view's sizes, the same as any course's or expected
    common = set.intersection(*({(f.player, f.text, f.line) for f in c.vm.facts}
                                for c in cs))
    from dataclasses import replace as _replace

    vm = _replace(first, sizes=sizes,  # type: ignore[arg-type]
                  facts=[f for f in first.facts if (f.player, f.text, f.line) in common])
    cards, possible = _aggregate(first, counting, poss_k, model=None)
    least: dict[str, dict[str, int]] | None = None
    for c in cs:
        cc = certain_copies(c.vm, c.possible_k, c.counting, view)
        least = cc if least is None else {
            p: {n: min(k, cc.get(p, {}).get(n, 0)) for n, k in least[p].items()
                if cc.get(p, {}).get(n, 0)} for p in least}
    d = first.deal
    hand = _hand_cards(first.hands.get(view)) if view in d.receivers else None
    known_at = {p: h for p, h in first.hands.items() if h is not None}
    known_at[DISCARDS] = sum(first.discarded.values(), Counter())
    seen = sum(known_at.values(), Counter(first.public))
    unseen = _unseen(d.deck, list(seen.elements()))
    where = _unseen_where(vm, cards, view, known_at)
    holdings = _holdings(vm, cards, possible, view, first.public, least or {})
    live = eng.deal is not None and cs[0].eng.deal is not None and not eng.over
    trick_seen = _trick_shown(cs[0].eng) if live else []
    if any(len(_trick_shown(c.eng)) != len(trick_seen) for c in cs):
        trick_seen = []      # the open trick itself depends on the unseen turns
    target = None
    if trick_seen and all(cards_ is not None for _, cards_ in trick_seen):
        target = tuple(target_of([cards_ for _, cards_ in trick_seen
                                  if cards_ is not None], eng.opts))
    notes = ["unseen turns: the figures weigh every way of filling them in that the rules "
             f"allow ({sum(c.eng.mult for c in cs)}) by its number of deals"]
    plays, evaluated, risk_now = _course_risks(cs, view, hand, samples, seed, max_states,
                                               total, notes)
    return TwentyTwoAnalysis(deal_number=d.number, dealer=d.dealer, receivers=d.receivers,
                             sizes=sizes, trick=trick_seen,  # type: ignore[arg-type]
                             target=target, hand=hand, unseen=unseen, unseen_where=where,
                             cards=cards, possible=possible, exact=exact,
                             error=0.0 if exact else error, method=counting.method,
                             holdings=holdings, plays=plays, plays_evaluated=evaluated,
                             risk_now=risk_now, notes=notes, **base)


def _course_risks(cs: list[_Course], view, hand, samples: int, seed: int, max_states: int,
                  total: float, notes: list[str]):
    """The view's legal plays now (in any course where it is the view's turn) and their
    risks, each the courses' own weighted by their deals (courses drawn too seldom to get
    a sample are left out: then an estimate)."""
    if not hand or view is None:
        return [], 0, None
    mine = [c for c in cs if c.eng.deal is c.vm.deal and not c.eng.over
            and c.eng.turn().kind in ("lead", "follow", "showdown")]
    if not mine:
        return [], 0, None
    to_act = [c for c in mine if view in c.eng.turn().players
              and c.eng.turn().kind in ("lead", "follow")]
    options: dict[tuple, PlayOption] = {}
    legal: dict[int, set[tuple]] = {}
    for c in to_act:
        own = _options(hand, list(c.eng.trick), c.eng.opts)
        legal[id(c)] = set()
        for o in own:
            key = tuple(sorted(repr(x) for x in o.cards))
            legal[id(c)].add(key)
            if key not in options:
                options[key] = PlayOption(o.cards, o.kind)
            elif options[key].kind != o.kind:
                options[key].kind = "unknown"   # beats or not: an unseen play decides
    plays = list(options.values())[:MAX_PLAYS]
    failed: list[str] = []

    def mix(play, among: list[_Course]) -> Risk | None:
        w = sum(c.weight for c in among)
        if not w:
            return None
        acc, err, n, exact = 0.0, 0.0, 0, True
        for c in among:
            share = c.weight / w
            k = int(round(samples * share))
            if k < 1 and not exact:
                continue
            sampler = _Sampler(c.vm, max(k, 1), seed, max_states)
            if not c.counting.exact:
                sampler.failed = "showdown risk not computed: counting over budget"
            r = _risk(c.vm, c.eng, view, list(c.eng.trick), play, sampler, c.counting, hand)
            if r is None:
                if sampler.failed:
                    failed.append(sampler.failed)
                return None
            acc += share * r.p
            exact = exact and r.exact
            err += (share * r.error) ** 2     # strata: the shares are known exactly
            n += r.samples
        return Risk(acc, exact, 0.0 if exact else math.sqrt(err), n)

    with gc_paused():
        if plays:
            for opt in plays:
                key = tuple(sorted(repr(x) for x in opt.cards))
                opt.risk = mix(opt.cards, [c for c in to_act if key in legal[id(c)]])
            if failed:
                notes.append(failed[0])
            return plays, len(plays), None
        risk_now = mix(None, mine)
    if failed:
        notes.append(failed[0])
    return [], 0, risk_now
