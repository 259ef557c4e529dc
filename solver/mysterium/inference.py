"""Deduction over the secret assignment (D1, D2): exact counting and explanations.

Each kind is dealt separately (MY-5): the ghost shuffles the ghost cards matching the table
and deals one to each psychic, so the secret cards of one kind are a uniformly random
*injection* psychics -> table cards.  Observations (a wrong guess: not that card; a right
guess or the ghost's ``secret`` line: that card) restrict each psychic's allowed cards, and
the all-different constraint (D2, including Hall's condition) is exact because we count the
injections themselves: a forward/backward dynamic programme over the subsets of used cards
(at most 9 cards, so at most 512 subsets) with Python integers.

>>> r = solve_kind("character", (1, 2, 3), ("Ana", "Ben"), {"Ana": {1, 2}, "Ben": {1}})
>>> r.total, r.p("Ana", 2), r.forced("Ana"), r.p_unused(3)
(1, Fraction(1, 1), 2, Fraction(1, 1))
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from solver.model import CardLocationModel
from solver.mysterium.events import card_name
from solver.mysterium.options import KINDS

UNUSED = "unused"


@dataclass(frozen=True)
class KindResult:
    """Exact counts for one kind: ``total`` consistent injections and, per psychic and
    card, how many of them give that psychic that card."""

    kind: str
    cards: tuple[int, ...]
    psychics: tuple[str, ...]
    total: int
    counts: dict[str, dict[int, int]]

    def p(self, psychic: str, card: int) -> Fraction:
        if not self.total:
            return Fraction(0)
        return Fraction(self.counts[psychic].get(card, 0), self.total)

    def p_unused(self, card: int) -> Fraction:
        """The probability that no psychic has ``card`` (it stays on the table)."""
        if not self.total:
            return Fraction(0)
        return 1 - sum((self.p(ps, card) for ps in self.psychics), Fraction(0))

    def possible(self, psychic: str) -> tuple[int, ...]:
        return tuple(c for c in self.cards if self.counts[psychic].get(c, 0))

    def forced(self, psychic: str) -> int | None:
        poss = self.possible(psychic)
        return poss[0] if len(poss) == 1 else None

    def distribution(self, psychic: str) -> dict[int, Fraction]:
        return {c: self.p(psychic, c) for c in self.possible(psychic)}


def count_injections(cards: tuple[int, ...], allowed: list[Iterable[int] | dict[int, int]]
                     ) -> tuple[int, list[dict[int, int]]]:
    """The number of injections choosing for psychic i a card of ``allowed[i]`` (all
    different), and for each i and card the number of those giving i that card.  An
    ``allowed[i]`` that maps cards to integer weights counts each injection with the
    product of its cards' weights (unseen guesses: the deals times their fillings).

    >>> count_injections((1, 2, 3), [{1, 2}, {2, 3}])
    (3, [{1: 2, 2: 1}, {2: 1, 3: 2}])
    >>> count_injections((1, 2, 3), [{1: 2, 2: 1}, {2, 3}])
    (5, [{1: 4, 2: 1}, {2: 2, 3: 3}])
    """
    index = {c: i for i, c in enumerate(cards)}
    opts = []
    for a in allowed:
        wt = a if isinstance(a, dict) else dict.fromkeys(a, 1)
        opts.append(sorted((index[c], n) for c, n in wt.items() if c in index and n))
    n = len(opts)

    @functools.lru_cache(maxsize=None)
    def ways(i: int, used: int) -> int:  # psychics i.. choose distinct cards outside used
        if i == n:
            return 1
        return sum(wc * ways(i + 1, used | 1 << c) for c, wc in opts[i] if not used >> c & 1)

    total = ways(0, 0)
    marg: list[dict[int, int]] = [{} for _ in range(n)]
    layer = {0: 1}  # used set -> ways for psychics 0..i-1
    for i in range(n):
        nxt: dict[int, int] = {}
        for used, w in layer.items():
            for c, wc in opts[i]:
                if used >> c & 1:
                    continue
                u2 = used | 1 << c
                rest = ways(i + 1, u2)
                if rest:
                    marg[i][cards[c]] = marg[i].get(cards[c], 0) + w * wc * rest
                    nxt[u2] = nxt.get(u2, 0) + w * wc
        layer = nxt
    return total, marg


def solve_kind(kind: str, cards: tuple[int, ...], psychics: tuple[str, ...],
               allowed: dict[str, set[int]] | dict[str, dict[int, int]]) -> KindResult:
    total, marg = count_injections(cards, [allowed[p] for p in psychics])
    return KindResult(kind, tuple(cards), tuple(psychics), total,
                      {p: marg[i] for i, p in enumerate(psychics)})


def allowed_sets(cards: tuple[int, ...], psychics: tuple[str, ...], facts
                 ) -> dict[str, dict[int, int]]:
    """D1 per psychic: the table cards, restricted by every fact about that psychic, as
    card -> weight: 1 for a card the facts allow, 0 for one they rule out; an unseen wrong
    guess among the cards L (:class:`~solver.mysterium.engine.Fact`) multiplies the weight of
    card x by the number of cards of L other than x, the fillings that leave x possible."""
    allowed = {p: dict.fromkeys(cards, 1) for p in psychics}
    for f in facts:
        w = allowed[f.psychic]
        for c in w:
            if f.among:
                w[c] *= len(f.among) - (c in f.among)
            elif f.at:
                w[c] *= c == f.card
            else:
                w[c] *= c != f.card
    return allowed


@dataclass(frozen=True)
class Deduction:
    """Exact results for every kind on the table (kinds not yet laid out are absent)."""

    kinds: dict[str, KindResult]
    facts: tuple
    #: a mixture's count (:func:`mix`): the kinds' totals are then not independent
    total: int | None = None

    @property
    def consistent(self) -> bool:
        if self.total is not None:
            return self.total > 0
        return all(k.total > 0 for k in self.kinds.values())

    def assignments(self) -> int:
        """The number of consistent secret assignments (all kinds together); with unseen
        statements, of the consistent pairs of an assignment and a filling."""
        if self.total is not None:
            return self.total
        n = 1
        for k in self.kinds.values():
            n *= k.total
        return n


def mix(parts: list[tuple[Deduction, int]]) -> Deduction:
    """The mixture of the deductions of several fillings of a record, each counted with a
    multiplicity (1 when every filling is enumerated; a sample's weight otherwise): every
    consistent pair of a secret assignment and a filling counts once.  Per kind the counts
    are scaled by the other kinds' totals, so that ``p()`` is the mixture's marginal."""
    first = parts[0][0]
    kinds = {}
    for kind, res in first.kinds.items():
        counts: dict[str, dict[int, int]] = {p: {} for p in res.psychics}
        for d, m in parts:
            other = m
            for k2, r2 in d.kinds.items():
                if k2 != kind:
                    other *= r2.total
            if not other:
                continue
            for p, row in d.kinds[kind].counts.items():
                for c, n in row.items():
                    counts[p][c] = counts[p].get(c, 0) + n * other
        total = sum(m * d.assignments() for d, m in parts)
        kinds[kind] = KindResult(kind, res.cards, res.psychics, total, counts)
    return Deduction(kinds, first.facts, sum(m * d.assignments() for d, m in parts))


def deduce(table: dict[str, tuple[int, ...]], psychics: tuple[str, ...], facts) -> Deduction:
    facts = tuple(facts)
    kinds = {}
    for kind in KINDS:
        if kind in table:
            fk = [f for f in facts if f.kind == kind]
            kinds[kind] = solve_kind(kind, table[kind], psychics,
                                     allowed_sets(table[kind], psychics, fk))
    return Deduction(kinds, facts)


def kind_model(kind: str, cards: tuple[int, ...], psychics: tuple[str, ...],
               facts) -> CardLocationModel:
    """The card-location model of one kind: each psychic holds one card, the rest stay
    ``unused`` on the table (MY-5); every fact is tagged with its record line."""
    keys = [(kind, c) for c in cards]
    sizes = {p: 1 for p in psychics}
    if len(cards) > len(psychics):
        sizes[UNUSED] = len(cards) - len(psychics)
    m = CardLocationModel(keys, sizes, names={k: card_name(*k) for k in keys})
    for f in facts:
        if f.kind != kind:
            continue
        rule = "MY-12" if f.source == "guess" else "MY-5"     # a guess revealed; the ghost's
        if f.among:     # an unseen wrong guess: a hard fact only when one card was legal
            if len(f.among) == 1:
                m.exclude((kind, f.among[0]), f.psychic, source=f.line,
                          note=f"{f.psychic}'s {kind} is not {f.among[0]} ({rule})")
        elif f.at:
            m.place((kind, f.card), f.psychic, source=f.line,
                    note=f"{f.psychic}'s {kind} is {f.card} ({rule})")
        else:
            m.exclude((kind, f.card), f.psychic, source=f.line,
                      note=f"{f.psychic}'s {kind} is not {f.card} ({rule})")
    return m


def conflict(table: dict[str, tuple[int, ...]], psychics: tuple[str, ...],
             facts) -> list[int] | None:
    """The lines of a minimal set of conflicting statements (one kind's), or ``None``."""
    d = deduce(table, psychics, facts)
    for kind, res in d.kinds.items():
        if res.total == 0:
            core = kind_model(kind, table[kind], psychics, facts).conflict()
            return core or sorted({f.line for f in facts if f.kind == kind})
    return None
