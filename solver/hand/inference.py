"""What a view knows of a round record: the model of what the others hold (issue 17);
:func:`solver.hand.analysis.analyse_round` returns it as ``analyze``'s answer.

From the round so far (:mod:`solver.hand.engine`, on the record as the view saw it): the
cards each opponent is known to hold (discards they took and have not melded, wilds they won
by swaps), the cards still unseen and where they can be, and for each card the recorder could
discard, the chance that the next player can take it (HR-29).

The model.  Every card the view has not seen is in some player's unknown cards or in the
stock, and nothing in the record tells these places apart: a player may always draw from
the stock, and any discard is legal (HR-31), so every arrangement of the unseen cards over the
unknown places is consistent with the record, and all are equally likely (a uniform deal).
Hence exactly: a card's expected copies in a place is its copies seen there plus its unseen
copies times the place's share of the unknown places, and a card is certain where all its
copies are seen, or when one place holds every unknown card.

The chance the next player can take a card (HR-29): a player who has made the initial meld
can take it when their hand holds two cards that make a meld with it (any larger meld with it
holds such a three-card meld): a union of pair events over a few card kinds, counted exactly
over the hypergeometric draw of their unknown cards.  A player without an initial meld must
make it (51) or go out with it: that needs the whole hand, so it is estimated by sampling
their unknown cards (labelled, with the exact pair chance as an upper bound and 0 kept
logical).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from solver.cards import JOKER, Card, standard_deck
from solver.errors import SleuthError
from solver.hand.best import WILD, taken_candidates, taken_identities
from solver.hand.engine import UNSEEN_CARD, RoundState, course_weight, play
from solver.model.stats import wilson_halfwidth

SAMPLES = 24  # sampled hands per card for a player without an initial meld (the estimate)


def kinds(regime, options=None) -> list[Card]:
    """Every card of the round's packs (one entry per card, two copies each; jokers once).
    Before the indicator is turned (``regime`` None: only a joker turned up and put back,
    HR-7) the jokers are in play unless ``wild-mode=no-jokers`` (HR-46)."""
    out = list(standard_deck(0))
    if regime.jokers_in_play if regime is not None else \
            (options is None or options.wild_mode != "no-jokers"):
        out.append(JOKER)
    return out


def _visible(s: RoundState, view: str | None) -> dict[str, Counter]:
    """Cards seen, by place: each player's known cards, ``table``, ``discards``,
    ``indicator``, and ``stock``: a card turned up for the indicator and put back (HR-7,
    HR-47) until the draw that takes it (A2)."""
    out: dict[str, Counter] = {p: Counter(st.known) for p, st in s.players.items()}
    out["table"] = Counter(c for e in s.table for c in e.physical)
    out["discards"] = Counter(c for c in s.pile if c is not UNSEEN_CARD)
    out["indicator"] = Counter([s.indicator] if s.indicator is not None else [])
    out["stock"] = Counter(s.stock_known.values())
    return out


def _slots(s: RoundState) -> dict[str, int]:
    out = {p: st.unknown for p, st in s.players.items()}
    out["stock"] = s.stock - len(s.stock_known)
    out["discards"] = sum(c is UNSEEN_CARD for c in s.pile)    # discards not seen (P: ?)
    return out


def _in_play(card: Card, s: RoundState) -> int:
    from solver.hand.engine import in_play

    return in_play(s, card)


def locations(s: RoundState) -> tuple[dict[str, dict[str, float]], dict[str, str],
                                       Counter, dict[str, int]]:
    """Per card: place -> expected copies; certain cards (-> places, one per copy, joined
    by ``", "``); the unseen copies; the unknown places and their sizes."""
    vis = _visible(s, None)
    slots = _slots(s)
    total = sum(slots.values())
    cards: dict[str, dict[str, float]] = {}
    certain: dict[str, str] = {}
    unseen: Counter = Counter()
    for c in kinds(s.regime, s.options):
        name = repr(c)
        dist: dict[str, float] = {}
        copies: list[str] = []
        seen = 0
        for place, cnt in vis.items():
            if cnt[c]:
                dist[place] = float(cnt[c])
                copies += [place] * cnt[c]
                if place != "indicator":
                    seen += cnt[c]
        u = _in_play(c, s) - seen
        unseen[c] = u
        if u > 0:
            for place, n in slots.items():
                if n:
                    dist[place] = dist.get(place, 0.0) + u * n / total
            live = [p for p, n in slots.items() if n]
            if len(live) == 1:
                copies += live * u
        cards[name] = dist
        if u == 0 or len([p for p, n in slots.items() if n]) == 1:
            certain[name] = ", ".join(sorted(copies))
    return cards, certain, unseen, slots


def courses(s: RoundState) -> list[tuple[RoundState, Fraction]]:
    """The courses of the round ``s`` stands for (:func:`~solver.hand.engine.play_branches`:
    one without turns not seen) and the chance of each: its courses of the deal over all."""
    states = s.branches or [s]
    if len(states) == 1:
        return [(states[0], Fraction(1))]
    ws = [course_weight(b, sum(_slots(b).values())) for b in states]
    total = sum(ws)
    return [(b, Fraction(w, total)) for b, w in zip(states, ws)]


def mixed_locations(s: RoundState) -> tuple[dict[str, dict[str, float]], dict[str, str],
                                             Counter, dict[str, int]]:
    """:func:`locations` over the courses of a record with turns not seen: the expected
    copies are the courses' weighted by their chances, a card is certain when it is, in the
    same places, in every course, and a card's unseen copies and a place's unknown cards
    are the most any course has."""
    cs = courses(s)
    if len(cs) == 1:
        return locations(cs[0][0])
    parts = [(locations(b), w) for b, w in cs]
    cards: dict[str, dict[str, float]] = {}
    for (dist, _, _, _), w in parts:
        for name, places in dist.items():
            out = cards.setdefault(name, {})
            for place, x in places.items():
                out[place] = out.get(place, 0.0) + float(w) * x
    certain = {}
    for name, where in parts[0][0][1].items():
        if all(loc[1].get(name) == where for loc, _ in parts):
            certain[name] = where
    unseen: Counter = Counter()
    slots: dict[str, int] = {}
    for (_, _, u, sl), _ in parts:
        for c, n in u.items():
            unseen[c] = max(unseen[c], n)
        for k, n in sl.items():
            slots[k] = max(slots.get(k, 0), n)
    return cards, certain, unseen, slots


def truth(record) -> dict[str, str] | None:
    """Where every card is after a complete record (every hand stated and every draw
    named): card -> its places, one per copy, joined by ``", "`` (the stock included)."""
    s = play(record)
    if any(st.unknown for st in s.players.values()) or s.unseen_turns:
        return None          # not a complete record: some hand is not stated, or a turn
    vis = _visible(s, None)
    out = {}
    for c in kinds(s.regime, s.options):
        copies = []
        for place, cnt in vis.items():
            copies += [place] * cnt[c]
        copies += ["stock"] * (_in_play(c, s) + (c == s.indicator) - len(copies))
        out[repr(c)] = ", ".join(sorted(copies))
    return out


# ------------------------------------------------------------------------------ take chance

def _patterns(card: Card, s: RoundState) -> list[tuple]:
    """The pairs of hand kinds (natural cards or ``W``) that make a three-card meld with the
    taken ``card`` (HR-29, with HR-31/HR-54/A4/A10 for a wild)."""
    assert s.regime is not None   # cards are held: the indicator is turned (HR-7)
    ids, why, _ = taken_identities(card, s.regime, s.options)
    full = [c for c in kinds(s.regime, s.options) for _ in range(2)]
    out = set()
    for kind, allowed in ids:
        for m in taken_candidates(card, kind, allowed, full, s.regime, s.options):
            if m.size != 3:
                continue
            keys = list(m.naturals) + [WILD] * m.wild    # W W with wilds-per-meld=2
            keys.remove(kind)
            out.add(tuple(sorted(keys, key=repr)))
    return sorted(out, key=repr)


def _kind_of(c: Card, regime):
    return WILD if regime.is_wild(c) else regime.natural(c)


def _pair_chance(patterns, known: Counter, unseen: Counter, m: int, regime) -> float:
    """P(the hand -- ``known`` cards plus ``m`` drawn from the unseen cards, uniformly --
    holds both kinds of some pattern), counted exactly.  A kind may occur twice in a pattern
    (``W W`` under ``wilds-per-meld=2``): then two of it are needed."""
    if not patterns:
        return 0.0
    have: Counter[Card | str] = Counter()
    for c, n in known.items():
        have[_kind_of(c, regime)] += n
    pool: Counter[Card | str] = Counter()
    for c, n in unseen.items():
        if n > 0:
            pool[_kind_of(c, regime)] += n
    T = sum(pool.values())
    rel = sorted({k for p in patterns for k in p}, key=repr)
    need = {k: max(Counter(p)[k] for p in patterns) for k in rel}
    idx = {(k, j): i for i, (k, j) in enumerate((k, j) for k in rel
                                                 for j in range(1, need[k] + 1))}

    def bits(k, n: int) -> int:
        """The bits of holding ``n`` cards of kind ``k``."""
        return sum(1 << idx[(k, j)] for j in range(1, min(n, need[k]) + 1))

    pats = [sum(bits(k, c) for k, c in Counter(p).items()) for p in patterns]
    base = sum(bits(k, have[k]) for k in rel)
    if any(p & base == p for p in pats):
        return 1.0
    if m <= 0 or T == 0:
        return 0.0
    states = {(base, 0): 1}
    for k in rel:
        u = pool[k]
        nxt: dict = {}
        for (mask, drawn), w in states.items():
            for n in range(0, min(u, m - drawn) + 1):
                key = (mask | bits(k, have[k] + n), drawn + n)
                nxt[key] = nxt.get(key, 0) + w * comb(u, n)
        states = nxt
    rest = T - sum(pool[k] for k in rel)
    good = sum(w * comb(rest, m - drawn) for (mask, drawn), w in states.items()
               if any(p & mask == p for p in pats))
    return good / comb(T, m)


@dataclass
class TakeChance:
    card: str
    player: str
    p: float
    exact: bool
    upper: float | None = None
    samples: int | None = None
    note: str = ""
    error: float = 0.0      # an estimate's 95 % half-width (0 when exact)

    def to_json(self) -> dict:
        out = {"player": self.player, "p": self.p, "exact": self.exact}
        if not self.exact:
            out.update({"upper": self.upper, "samples": self.samples, "error": self.error})
        if self.note:
            out["note"] = self.note
        return out


def mixed_take_chances(s: RoundState, view: str, samples: int = SAMPLES,
                       seed: int = 0) -> dict[str, TakeChance]:
    """:func:`take_chances` over the courses of a record with turns not seen (each card the
    view holds in every course): the chances weighted by the courses', exact when every
    course's is (an estimate's bound and error weighted alike)."""
    cs = courses(s)
    if len(cs) == 1:
        b = cs[0][0]
        return take_chances(b, view, locations(b)[2], samples, seed)
    unseen = [locations(b)[2] for b, _ in cs]
    per = [(take_chances(b, view, u, samples, seed, sample=False), w)
           for (b, w), u in zip(cs, unseen)]
    out = {}
    for name in sorted(set.intersection(*(set(ch) for ch, _ in per))):
        parts = [(ch[name], w) for ch, w in per]
        first = parts[0][0]
        exact = all(t.exact for t, _ in parts)
        p = sum(float(w) * t.p for t, w in parts if t.exact)
        if exact:
            out[name] = TakeChance(name, first.player, p, True,
                                   note="; ".join(sorted({t.note for t, _ in parts
                                                          if t.note})))
            continue
        # the courses without an exact figure: ``samples`` hands in all, each of a course
        # drawn by its chance (an estimate of their weighted mean, as one course's is)
        est = [(i, w) for i, (t, w) in enumerate(parts) if not t.exact]
        ws = float(sum(w for _, w in est))
        upper_s = sum(float(w) * (parts[i][0].upper or 0.0) for i, w in est) / ws
        rng = random.Random(f"{seed}:{name}:{first.player}:courses")
        picks = Counter(rng.choices([i for i, _ in est], [float(w) for _, w in est],
                                    k=samples))
        card = Card.parse(name)
        yes = 0
        for i, n in sorted(picks.items()):
            b = cs[i][0]
            q = b.players[first.player]
            yes += _takers(card, b, q, unseen[i], _patterns(card, b), n, rng, view)
        share = yes / samples
        q_est = min(max(share, 1 / (2 * samples)), upper_s) if upper_s < 1.0 else \
            max(share, 1 / (2 * samples))
        if q_est >= 1.0:
            q_est = 1 - 1 / (2 * samples)
        error = ws * (wilson_halfwidth(share, samples) + abs(q_est - share))
        s0 = cs[0][0]
        out[name] = TakeChance(name, first.player, p + ws * q_est, False,
                               p + ws * upper_s, samples,
                               f"estimate over {samples} sampled hands (of the courses of "
                               f"the turns not seen): without an initial meld {first.player} "
                               f"must open ({s0.needed()}) or go out with it (HR-29)", error)
    return out


def take_chances(s: RoundState, view: str, unseen: Counter, samples: int = SAMPLES,
                 seed: int = 0, *, sample: bool = True) -> dict[str, TakeChance]:
    """For each card ``view`` holds, the chance the next player may take it (HR-29);
    ``sample`` false leaves an estimate to the caller (``p`` None, ``upper`` its bound)."""
    me = s.players[view]
    q = s.players[s.next_player(view)]
    out = {}
    for c in sorted(set(me.known), key=repr):
        name = repr(c)
        pats = _patterns(c, s)
        if q.count < 3:
            out[name] = TakeChance(name, q.name, 0.0, True, note="HR-30: a meld of three "
                                   "would leave no card to discard")
            continue
        lay = _layoff_alone(c, s, view)
        if q.opened and lay:
            out[name] = TakeChance(name, q.name, 1.0, True,
                                   note="HR-53: it can be laid off alone on the table")
            continue
        # without HR-53 a three-card meld is needed: its chance bounds the rest
        upper = 1.0 if lay else _pair_chance(pats, q.known, unseen, q.unknown, s.regime)
        if q.opened or upper == 0.0:
            out[name] = TakeChance(name, q.name, upper, True)
            continue
        out[name] = _sampled(c, s, q, unseen, pats, upper, samples, seed, view) if sample \
            else TakeChance(name, q.name, None, False, upper)   # type: ignore[arg-type]
    return out


def _layoff_alone(card, s: RoundState, discarder: str) -> bool:
    """HR-53 (``discard-layoff``): the discarder has a meld on the table and the card can be
    laid off alone on one of the table melds."""
    if not s.options.discard_layoff or not any(e.owner == discarder for e in s.table):
        return False
    from solver.hand.table import Situation, try_layoff

    assert s.regime is not None   # melds on the table: the indicator is turned (HR-7)
    for i, e in enumerate(s.table, 1):
        try:
            try_layoff(e.meld, i, [card], {}, s.regime, s.options, Situation(True, False,
                                                                              False))
            return True
        except SleuthError:
            continue
    return False


def _takers(card, s, q, unseen, pats, n: int, rng, view) -> int:
    """Of ``n`` hands of ``q`` sampled (the known cards and a draw of the unseen ones), how
    many may take ``card`` (:func:`solver.hand.taking.take`)."""
    from solver.hand.taking import take

    pool = [c for c, k in sorted(unseen.items(), key=lambda kv: repr(kv[0]))
            for _ in range(max(k, 0))]
    known = list(q.known.elements())
    table = s.table_text()
    melded = any(e.owner == view for e in s.table)
    yes = 0
    for _ in range(n):
        hand = known + rng.sample(pool, q.unknown)
        if _pair_chance(pats, Counter(hand), Counter(), 0, s.regime) == 0.0 and \
                not s.options.discard_layoff:
            continue
        r = take(hand, card, s.indicator, s.options, opened=False, table=table,
                 discarder_melded=melded, to_beat=s.last_initial, first_turn=q.turns == 0)
        yes += r.may_take
    return yes


def _sampled(card, s, q, unseen, pats, upper, samples, seed, view) -> TakeChance:
    """A player without an initial meld: sampled hands, judged by the take optimiser."""
    rng = random.Random(f"{seed}:{card!r}:{q.name}")
    share = _takers(card, s, q, unseen, pats, samples, rng, view) / samples
    # an estimate: 0 and 1 stay logical (0 only when impossible, 1 only when certain)
    p = min(max(share, 1 / (2 * samples)), upper) if upper < 1.0 else \
        max(share, 1 / (2 * samples))
    if p >= 1.0:
        p = 1 - 1 / (2 * samples)
    # the Wilson half-width of the share drawn, widened by the move off 0 or 1 above
    error = wilson_halfwidth(share, samples) + abs(p - share)
    return TakeChance(repr(card), q.name, p, False, upper, samples,
                      f"estimate over {samples} sampled hands: without an initial meld "
                      f"{q.name} must open ({s.needed()}) or go out with it (HR-29)", error)
