"""The best initial meld and going out (HR-19..HR-21, HR-30, HR-34, HR-40, HR-59), provably
optimal.

Every candidate meld the hand can make is enumerated from the card counts (runs: every span
of positions of a suit with at most one position filled by a wild, two with
``wilds-per-meld=2``; groups: every set of 2-4 suits of a rank, with or without the wild(s)),
in the spirit of den Hertog and Hulshof's
rummikub model; CP-SAT then chooses how often to use each (two packs: a meld can be made
twice) to maximise the value with at least one card left for the discard (HR-30).  Two copies
of a card are interchangeable (HR-2), and so are two wilds, so cards are counted by kind.

>>> from solver.cards import parse_cards, Card
>>> res = best(parse_cards("7D AC 9D 5S 5H 5D QC KC JC 2H 3H 4H KS KH KD"), Card.parse("7C"))
>>> res.best_initial.value, res.can_open, res.can_go_out, res.best_initial.left
(99, True, False, [2H, 3H, 4H])
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Callable


from solver.cards import SUITS, Card
from solver.errors import BudgetError, RuleError
from solver.lazy import CP_MODEL, LazyModule
from solver.hand.melds import Reading, position_card, wild_limit
from solver.hand.options import HandOptions
from solver.hand.regime import (Regime, check_copies, make_regime, natural_value,
                                run_position_value)

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
else:
    cp_model = LazyModule(CP_MODEL)     # loaded on first use

#: what a taken discard may be in a meld of this reading, as this kind (taken_identities)
Allowed = Callable[[Reading, Card | str], bool]

WILD = "W"  # the kind of every wild card (two wilds are interchangeable)
TAKEN = "T"  # the kind of a taken discard (it must be melded this turn, HR-29)
UNKNOWN = "?"  # the card about to be drawn from the stock (unknown: it can only be kept)
TIME_LIMIT = 20.0  # seconds; a 15-card hand takes milliseconds
SPLIT_RUNS = 5  # longest run the optimiser considers (longer ones are joined afterwards)


@dataclass(frozen=True)
class Candidate:
    """A meld by kinds: the naturals it uses, how many wilds (0, 1; 2 with
    ``wilds-per-meld=2``), its best reading."""

    naturals: tuple[Card, ...]
    wild: int
    reading: Reading
    #: the kind (a natural card or :data:`WILD`) that the taken discard plays in this meld
    #: (HR-29: a taken discard goes into a new meld); ``None`` for melds of hand cards only
    taken: Card | str | None = None

    @property
    def size(self) -> int:
        return len(self.naturals) + self.wild

    @property
    def value(self) -> int:
        return self.reading.value


def candidates(counts: Counter, n_wild: int, options: HandOptions, longest: int = 13
               ) -> list[Candidate]:
    """Every meld (HR-12..HR-16) makeable from natural card ``counts`` and ``n_wild`` wilds,
    each with its value (HR-20), runs up to ``longest`` cards.  A wild may stand for a card
    held elsewhere (HR-16).

    The optimiser asks for runs of at most 5 cards: a run of 6 or more splits into runs of
    3 to 5 with the same cards, within the wild limit each (and, with two wilds, every part
    of 3 or more cards keeps a natural), and the same value (a run's value is the sum of its
    positions', HR-20), so nothing is lost; :func:`_realise` joins them again.

    >>> from solver.cards import parse_cards
    >>> len(candidates(Counter(parse_cards("5S 5H 5D")), 1, HandOptions()))  # 3 pairs+W, 5S5H5D, +W
    5
    """
    out: list[Candidate] = []
    limit = min(n_wild, wild_limit(options))
    # groups (HR-13): 3-4 naturals of distinct suits, or 2-3 naturals + the wild (2 + W + W
    # with wilds-per-meld=2: each wild one missing suit)
    by_rank: dict[int, list[str]] = {}
    for c in counts:
        by_rank.setdefault(c.rank, []).append(c.suit)
    for rank, suits in by_rank.items():
        suits = sorted(suits, key=SUITS.index)
        v = natural_value(rank)
        for k in (2, 3, 4):
            for combo in combinations(suits, k):
                nat = tuple(Card(rank, s) for s in combo)
                missing = tuple(Card(rank, s) for s in SUITS if s not in combo)
                if k >= 3:
                    out.append(Candidate(nat, 0, Reading("group", k * v, (), rank=rank)))
                for w in range(1, min(limit, 4 - k) + 1):
                    out.append(Candidate(nat, w, Reading("group", (k + w) * v, missing,
                                                         rank=rank, n_wild=w)))
    # runs (HR-12): positions 1 (ace low) .. 14 (ace high), 3..13 long
    pv = [(run_position_value(p, False, options), run_position_value(p, True, options))
          if p else (0, 0) for p in range(15)]
    for suit in SUITS:
        have = [False] * 16
        for p in range(1, 15):
            have[p] = counts.get(position_card(p, suit), 0) > 0
        for lo in range(1, 13):
            holes: list[int] = []
            for hi in range(lo, min(lo + longest - 1, 14) + 1):
                if not have[hi]:
                    holes.append(hi)
                if len(holes) > limit:
                    break
                if hi - lo < 2:
                    continue
                # the missing positions take wilds; spare wilds may stand for held cards too
                present = [p for p in range(lo, hi + 1) if p not in holes]
                for extra in range(0, limit - len(holes) + 1):
                    for more in combinations(present, extra):
                        out.append(_run(suit, lo, hi, tuple(sorted(holes + list(more))), pv))
    return out


def _run(suit: str, lo: int, hi: int, ws: tuple[int, ...], pv: list) -> Candidate:
    nat = tuple(position_card(p, suit) for p in range(lo, hi + 1) if p not in ws)
    value = sum(pv[p][p in ws] for p in range(lo, hi + 1))
    reading = Reading("run", value, tuple(position_card(w, suit) for w in ws), suit=suit,
                      lo=lo, hi=hi, wild_pos=ws[0] if ws else None,
                      wild_pos2=ws[1] if len(ws) > 1 else None)
    return Candidate(nat, len(ws), reading)


@dataclass
class Plan:
    """Chosen melds (physical cards, table order), their total value and the cards left."""

    melds: list[list[Card]]
    readings: list[Reading]
    value: int
    left: list[Card]
    discards: list[Card] = field(default_factory=list)
    multiplier: int = 1
    bonuses: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"melds": [[repr(c) for c in m] for m in self.melds], "value": self.value,
                "left": [repr(c) for c in self.left]}


@dataclass
class BestResult:
    """What ``sleuth hand best`` reports (JSON keys per issue 5, plus more)."""

    hand: list[Card]
    regime: Regime
    options: HandOptions
    best_initial: Plan | None
    needed: int
    can_open: bool
    go_out: Plan | None
    can_go_out: bool
    go_out_reason: str | None
    full_hand: bool
    n_candidates: int

    @property
    def discard(self) -> Card | None:
        return self.go_out.discards[0] if self.go_out and self.can_go_out else None

    def to_json(self) -> dict:
        go = self.go_out if self.can_go_out else None
        return {
            "best_initial": ({"melds": [[repr(c) for c in m] for m in self.best_initial.melds],
                              "value": self.best_initial.value,
                              "left": [repr(c) for c in self.best_initial.left]}
                             if self.best_initial else None),
            "can_open": self.can_open,
            "can_go_out": self.can_go_out,
            "discard": repr(self.discard) if self.discard is not None else None,
            "needed": self.needed,
            "go_out": ({"melds": [[repr(c) for c in m] for m in go.melds],
                        "discards": [repr(c) for c in go.discards], "value": go.value}
                       if go else None),
            "go_out_reason": self.go_out_reason,
            "full_hand": self.full_hand,
            "bonuses": list(go.bonuses) if go and self.full_hand else [],
            "multiplier": go.multiplier if go and self.full_hand else 1,
            "regime": self.regime.describe(),
            "candidates": self.n_candidates,
            "optimal": True,
        }


def _kinds(hand: list[Card], regime: Regime) -> tuple[Counter, int, dict]:
    counts: Counter = Counter()
    pools: dict = {}
    n_wild = 0
    for c in hand:
        if regime.is_wild(c):
            n_wild += 1
            pools.setdefault(WILD, []).append(c)
        else:
            nat = regime.natural(c)
            counts[nat] += 1
            pools.setdefault(nat, []).append(c)
    return counts, n_wild, pools


def _solve(model: cp_model.CpModel) -> cp_model.CpSolver | None:
    from solver.model.budget import cp_solver

    solver = cp_solver(cp_model, TIME_LIMIT, "the meld optimiser")   # cut to the deadline
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    if status == cp_model.OPTIMAL:
        return solver
    if status == cp_model.INFEASIBLE:
        return None
    raise BudgetError(f"the meld optimiser stopped without a proof of optimality "
                       f"({solver.status_name(status)})")


def _uses(cands: list[Candidate]) -> dict:
    uses: dict = {}
    for i, m in enumerate(cands):
        for k in _keys(m):
            uses.setdefault(k, []).append(i)
    return uses


def _join_runs(melds: list, readings: list, options: HandOptions) -> tuple[list, list]:
    """Join runs of one suit that meet end to end while the result is a valid run (at most
    13 cards, the wild limit: HR-12, HR-14); values add up (HR-20)."""
    melds, readings = list(melds), list(readings)
    longest = 14 if options.runs == "14-card" else 13
    limit = wild_limit(options)
    joined = True
    while joined:
        joined = False
        for i in range(len(melds)):
            for j in range(len(melds)):
                a, b = readings[i], readings[j]
                if i == j or a.kind != "run" or b.kind != "run" or a.suit != b.suit \
                        or a.hi + 1 != b.lo or b.hi - a.lo + 1 > longest \
                        or len(a.wild_positions) + len(b.wild_positions) > limit:
                    continue
                ws = a.wild_positions + b.wild_positions
                r = Reading("run", a.value + b.value, a.wild_as + b.wild_as, suit=a.suit,
                            lo=a.lo, hi=b.hi, wild_pos=ws[0] if ws else None,
                            wild_pos2=ws[1] if len(ws) > 1 else None)
                melds[i], readings[i] = melds[i] + melds[j], r
                del melds[j], readings[j]
                joined = True
                break
            if joined:
                break
    return melds, readings


def _realise(cands, counts_used: list[int], pools: dict, regime: Regime,
             options: HandOptions) -> tuple[list[list[Card]], list[Reading], list[Card]]:
    pools = {k: list(v) for k, v in pools.items()}
    melds, readings = [], []
    for i, k in enumerate(counts_used):
        for _ in range(k):
            m = cands[i]
            r = m.reading
            if r.kind == "run":
                keys = [WILD if p in r.wild_positions else position_card(p, r.suit)
                        for p in range(r.lo, r.hi + 1)]
            else:
                keys = list(m.naturals) + [WILD] * m.wild
            if m.taken is not None:
                keys[keys.index(m.taken)] = TAKEN
            cards = [pools[k].pop(0) for k in keys]
            melds.append(cards)
            readings.append(r)
    melds, readings = _join_runs(melds, readings, options)
    left = [c for v in pools.values() for c in v]
    order = sorted(range(len(melds)), key=lambda j: (-readings[j].value, repr(melds[j])))
    return [melds[j] for j in order], [readings[j] for j in order], left


def _colour(c: Card) -> str:
    return "red" if c.suit in "HD" else "black"


def bonus_factor(melded: list[Card], regime: Regime, options: HandOptions) -> tuple[int, list]:
    """HR-59 colour/suit factor of the melded cards, wilds ignored (A12: regime-N jokers count
    as their ace unless ``bonus-jokers=ignore``).

    >>> from solver.cards import parse_cards
    >>> reg = make_regime(Card.parse("7C"))
    >>> bonus_factor(parse_cards("2H 3H 4H AC"), reg, HandOptions(bonus_suit=True))
    (4, ['suit'])
    """
    nats = []
    for c in melded:
        if regime.is_wild(c) or (c.is_joker and options.bonus_jokers == "ignore"):
            continue
        nats.append(regime.natural(c))
    if not nats:
        return 1, []
    if options.bonus_suit and len({c.suit for c in nats}) == 1:
        return 4, ["suit"]
    if options.bonus_colour and len({_colour(c) for c in nats}) == 1:
        return 2, ["colour"]
    return 1, []


def best(hand: list[Card], indicator: Card | None, options: HandOptions | None = None, *,
         to_beat: int | None = None, first_turn: bool = False) -> BestResult:
    """The maximum-value disjoint melds of ``hand`` (the cards held after the draw) leaving at
    least one card (HR-30), whether they open (HR-19, HR-51; HR-52 with ``to_beat``), and
    whether and how the player can go out (HR-21, HR-34), as a Full Hand with the best
    Egyptian multiplier (HR-40, HR-59) when the hand has 15 cards.

    >>> from solver.cards import parse_cards
    >>> r = best(parse_cards("AH 2H 3H 4H 5H 9H 9S 9D KC"), Card.parse("7S"))
    >>> r.best_initial.value, r.can_open, r.can_go_out, r.discard
    (52, True, True, KC)
    """
    options = options or HandOptions()
    regime = make_regime(indicator, options)
    hand = list(hand)
    if not hand:
        raise RuleError("the hand is empty; every turn ends with a discard", text="",
                        rule="HR-30")
    check_copies(hand, regime, options)
    if any(c.is_joker and not regime.jokers_in_play for c in hand):
        raise RuleError("wild-mode=no-jokers plays without jokers", text="Jk", rule="HR-46")
    needed = options.initial_min
    if options.initial_must_exceed and to_beat is not None:
        needed = max(needed, to_beat + 1)
    initial, go, reason, n_cands = _plans(hand, regime, options)
    can_open = initial is not None and initial.value >= needed
    can_go_out = go is not None
    if can_go_out and first_turn and not options.first_turn_win:
        can_go_out = False
        reason = ("no player may go out on their own first turn (HR-32, A3; variant "
                  "first-turn-win lifts this)")
    return BestResult(hand, regime, options, initial, needed, can_open, go, can_go_out,
                      reason, len(hand) == 15 and can_go_out, n_cands)



def _plans(hand: list[Card], regime: Regime, options: HandOptions, *,
           taken: tuple[Card, list[Candidate]] | None = None, unknown: bool = False,
           keep: int = 1):
    """The one optimiser behind ``best`` and ``take``: the maximum-value melds leaving at
    least one card (HR-30), and the best way to go out (HR-34, HR-40, HR-59).

    ``hand``: the cards held (the taken discard not included); ``taken``: the taken
    discard and its candidate melds (:func:`taken_candidates`): it must be melded, exactly
    once (HR-29); ``unknown``: a card about to be drawn from the stock, which can only be
    kept or discarded.  Returns ``(initial plan | None, go-out plan | None, reason, number
    of candidates)``.  ``keep``: cards the initial plan leaves (1, HR-30; 2 for a player
    who may not go out, whose last card's discard would go out, HR-32)."""
    counts, n_wild, pools = _kinds(hand, regime)
    cands = candidates(counts, n_wild, options, longest=SPLIT_RUNS)
    avail = dict(counts)
    if n_wild:
        avail[WILD] = n_wild
    if taken is not None:
        cands = cands + list(taken[1])
        avail[TAKEN] = 1
        pools[TAKEN] = [taken[0]]
    if unknown:
        avail[UNKNOWN] = 1
        pools[UNKNOWN] = []
    uses = _uses(cands)
    n = sum(avail.values())
    hand_all = list(hand) + ([taken[0]] if taken is not None else [])

    # 1. the best initial meld: maximise the value, keep >= 1 card (HR-30)
    initial = None
    if cands and (taken is None or taken[1]):
        model = cp_model.CpModel()
        x = _variables(model, cands, avail)
        for k, idx in uses.items():
            total = cp_model.LinearExpr.sum([x[i] for i in idx])
            model.add(total == 1 if k == TAKEN else total <= avail[k])
        model.add(cp_model.LinearExpr.weighted_sum(x, [m.size for m in cands])
                  <= n - keep)  # HR-30
        model.maximize(cp_model.LinearExpr.weighted_sum(x, [m.value for m in cands]))
        sol = _solve(model)
        used = [sol.value(v) for v in x] if sol else [0] * len(cands)
        if any(used):
            melds, readings, left = _realise(cands, used, pools, regime, options)
            initial = Plan(melds, readings, sum(r.value for r in readings), left)

    # 2. going out: meld all but the discard(s), best multiplier first (HR-34, HR-40, HR-59)
    full = n == 15
    go, reason = _go_out(hand_all, cands, uses, avail, counts, n_wild, pools, regime, options,
                         full)
    return initial, go, reason, len(cands)


def taken_identities(card: Card, regime: Regime, options: HandOptions
                     ) -> tuple[list[tuple[Card | str, Allowed]], str | None, str | None]:
    """What a taken discard may be in a meld (HR-29, HR-31, HR-54, A4, A10): a list of
    ``(kind, allowed(reading, kind))``, or the refusal and its rule.

    >>> from solver.hand.regime import make_regime
    >>> ids, why, rule = taken_identities(Card.parse("AC"), make_regime(Card.parse("7C")), HandOptions())
    >>> [k for k, _ in ids], why
    ([AC], None)
    >>> taken_identities(Card.parse("AC"), make_regime(Card.parse("7C")),
    ...                  HandOptions(discarded_wild="never"))[1:]
    ('a discarded wild may not be taken (discarded-wild=never)', 'HR-54')
    """
    def anything(reading, kind):
        return True

    if not regime.is_wild(card):
        return [(regime.natural(card), anything)], None, None
    mode = options.discarded_wild
    if mode == "never":
        return [], "a discarded wild may not be taken (discarded-wild=never)", "HR-54"
    if mode == "free":
        return [(WILD, anything)], None, None
    # as-ace (HR-31) or ace-group-only (HR-54, A10): only as an ace
    suits = SUITS if card.is_joker else (card.suit,)
    aces = [Card(1, s) for s in suits]

    def run_ok(reading) -> bool:
        if mode != "ace-group-only":
            return True
        # A10: no run at all; ``ace-group-only-runs=high``: the literal text, no A-2-3 only
        return options.ace_group_only_runs == "high" and reading.lo != 1

    if options.taken_wild == "wild":   # A4's alternative: it stays a wild standing for an ace
        def as_ace(reading, kind):
            if reading.kind == "group":
                return reading.rank == 1 and any(a in reading.wild_as for a in aces)
            return any(a in reading.wild_as for a in aces) and run_ok(reading)
        return [(WILD, as_ace)], None, None

    def natural_ace(reading, kind):    # A4: then a natural ace
        return reading.kind == "group" or run_ok(reading)
    return [(a, natural_ace) for a in aces], None, None


def taken_candidates(card: Card, kind: Card | str, allowed: Allowed, hand: list[Card],
                     regime: Regime, options: HandOptions) -> list[Candidate]:
    """The melds the taken discard ``card`` can go into as ``kind`` with cards of ``hand``
    (a new meld of it and at least two hand cards, HR-29)."""
    counts, n_wild, _ = _kinds(hand, regime)
    if kind == WILD:
        n_wild += 1
    else:
        counts[kind] += 1
    out = []
    for m in candidates(counts, n_wild, options, longest=SPLIT_RUNS):
        keys = list(m.naturals) + [WILD] * m.wild
        if kind in keys and allowed(m.reading, kind):
            out.append(Candidate(m.naturals, m.wild, m.reading, taken=kind))
    return out


def _keys(m: Candidate):
    keys = list(m.naturals) + [WILD] * m.wild
    if m.taken is not None:
        keys[keys.index(m.taken)] = TAKEN
    return keys


def _variables(model: cp_model.CpModel, cands: list[Candidate], avail: dict) -> list:
    """How often each candidate is used: at most as often as its scarcest card (two packs)."""
    return [model.new_int_var(0, min(avail[k] for k in _keys(m)), f"x{i}")
            for i, m in enumerate(cands)]


def _go_out(hand, cands, uses, avail, counts, n_wild, pools, regime, options, full):
    """Meld every card but one discard (or, HR-59 ``bonus-two-wilds``, both wilds)."""
    if len(hand) < 4:
        return None, "going out needs a meld of 3 or more cards and a discard (HR-11, HR-34)"
    if not cands:
        return None, "no meld can be made from this hand (HR-12, HR-13)"
    modes = []  # (name, {kind: cards removed}, multiplier, bonuses)
    for k in ([UNKNOWN] if UNKNOWN in avail else avail):
        if k == TAKEN:
            continue  # a taken discard is melded (HR-29)
        removed = {k: 1}
        melded = _without(hand, regime, removed)
        mult = 1
        bonuses: list[str] = []
        if full:
            f, bonuses = bonus_factor(melded, regime, options)
            mult = f
            if k == WILD and options.bonus_wild_discard:
                mult *= 2
                bonuses = ["wild-discard"] + bonuses
        modes.append((removed, mult, bonuses))
    if full and options.bonus_two_wilds and n_wild == 2 and UNKNOWN not in avail:
        removed = {WILD: 2}
        f, bonuses = bonus_factor(_without(hand, regime, removed), regime, options)
        modes.append((removed, 4 * f, ["two-wilds"] + bonuses))
    # a card no candidate uses must be discarded: keep only the modes that discard them all
    stuck = [k for k in avail if k not in uses]
    modes = [m for m in modes if all(avail[k] == m[0].get(k, 0) for k in stuck)]
    if not modes:
        return None, ("no way to meld all cards but one (HR-34): "
                      + " ".join(repr(c) for c in hand if (WILD if regime.is_wild(c)
                                                          else regime.natural(c)) in stuck)
                      + " fit no meld")
    model = cp_model.CpModel()
    x = _variables(model, cands, avail)
    y = [model.new_bool_var(f"mode{j}") for j in range(len(modes))]
    model.add_exactly_one(y)
    for k in avail:
        idx = uses.get(k, [])
        removed_k = [(j, r[k]) for j, (r, _, _) in enumerate(modes) if r.get(k)]
        model.add(cp_model.LinearExpr.sum([x[i] for i in idx])
                  + cp_model.LinearExpr.weighted_sum([y[j] for j, _ in removed_k],
                                            [c for _, c in removed_k]) == avail[k])
    big = 1 + sum(m.value * min(avail[k] for k in _keys(m)) for m in cands)
    model.maximize(cp_model.LinearExpr.weighted_sum(y, [big * m[1] for m in modes])
                   + cp_model.LinearExpr.weighted_sum(x, [m.value for m in cands]))
    sol = _solve(model)
    if sol is None:
        return None, "no way to meld all cards but one (HR-34)"
    used = [sol.value(v) for v in x]
    j = next(j for j in range(len(modes)) if sol.value(y[j]))
    removed, mult, bonuses = modes[j]
    melds, readings, left = _realise(cands, used, pools, regime, options)
    plan = Plan(melds, readings, sum(r.value for r in readings), [], left, mult, bonuses)
    return plan, None


def _without(hand, regime, removed: dict) -> list[Card]:
    removed = dict(removed)
    out = []
    for c in hand:
        k = WILD if regime.is_wild(c) else regime.natural(c)
        if removed.get(k, 0) > 0:
            removed[k] -= 1
            continue
        out.append(c)
    return out
