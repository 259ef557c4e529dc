"""The CP-SAT backbone, explanations and conflicts cross-checked against an independent
model written with python-constraint, on small random card-location problems of the kind
the games produce (hands, a small mystery pile, counts over query sets, unit facts)."""
from __future__ import annotations

import random

import constraint as pc
import pytest

from solver.model import CardLocationModel


def random_model(rng: random.Random):
    n_cards = rng.randint(6, 10)
    cards = [f"c{i}" for i in range(n_cards)]
    n_locs = rng.randint(2, 4)
    locs = [f"L{i}" for i in range(n_locs)]
    # random sizes summing to n_cards
    cuts = sorted(rng.sample(range(1, n_cards), n_locs - 1))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [n_cards])]
    m = CardLocationModel(cards, dict(zip(locs, sizes)))
    line = 10
    for _ in range(rng.randint(1, 6)):
        kind = rng.random()
        if kind < 0.4:  # a count over a query set at one or two locations (E1, E3)
            X = rng.sample(cards, rng.randint(2, 4))
            L = rng.sample(locs, rng.randint(1, 2))
            k = rng.randint(0, len(X))
            lo, hi = (k, k) if rng.random() < 0.6 else (0, k)
            m.add(X, L, lo, hi, line)
        elif kind < 0.7:  # a card is / is not at a location (E4, E5)
            c, l = rng.choice(cards), rng.choice(locs)
            (m.place if rng.random() < 0.4 else m.exclude)(c, l, line)
        else:  # "at least" (Sneak's jokers, E2)
            X = rng.sample(cards, rng.randint(2, 3))
            m.add(X, [rng.choice(locs)], rng.randint(1, 2), len(X), line)
        line += 1
    return m


def independent_solutions(m: CardLocationModel):
    """All deals by python-constraint, from the model's cards, sizes and constraints."""
    p = pc.Problem()
    idx = {c: i for i, c in enumerate(m.cards)}
    for c in m.cards:
        p.addVariable(c, list(m.locations))
    for loc, size in m.sizes.items():
        p.addConstraint(pc.FunctionConstraint(
            lambda *vals, loc=loc, size=size: sum(v == loc for v in vals) == size), m.cards)
    for con in m.constraints:
        terms = [(m.cards[ci], m.locations[li]) for ci, li in con.terms]
        vars_ = sorted({c for c, _ in terms}, key=idx.get)

        def check(*vals, terms=terms, vars_=vars_, lo=con.lo, hi=con.hi):
            val = dict(zip(vars_, vals))
            n = sum(val[c] == l for c, l in terms)
            return lo <= n <= hi

        if vars_:
            p.addConstraint(pc.FunctionConstraint(check), vars_)
        elif con.lo > con.hi:
            return []
    return p.getSolutions()


@pytest.mark.parametrize("seed", range(40))
def test_backbone_matches_python_constraint(seed):
    rng = random.Random(seed)
    m = random_model(rng)
    sols = independent_solutions(m)
    bb = m.backbone()
    assert bb.consistent == bool(sols)
    if not sols:
        core = m.conflict()
        assert core
        # minimal: dropping any one statement of the core makes it consistent
        for drop in core:
            sub = CardLocationModel(m.cards, m.sizes)
            sub.constraints = [c for c in m.constraints if c.source in core and c.source != drop
                               or c.source is None]
            assert sub.is_consistent()
        return
    expected = {c: {s[c] for s in sols} for c in m.cards}
    assert {c: set(v) for c, v in bb.possible.items()} == expected
    # explanations: the named statements alone force the fact, and each is needed
    for c in m.cards:
        if len(expected[c]) == 1:
            loc = next(iter(expected[c]))
            why = m.explain(c, loc)
            sub = CardLocationModel(m.cards, m.sizes)
            sub.constraints = [k for k in m.constraints if k.source in why or k.source is None]
            assert not any(s[c] != loc for s in independent_solutions(sub))
            for drop in why:
                sub2 = CardLocationModel(m.cards, m.sizes)
                sub2.constraints = [k for k in sub.constraints if k.source != drop]
                assert any(s[c] != loc for s in independent_solutions(sub2))


def test_count_bounds_match_enumeration():
    rng = random.Random(99)
    for _ in range(15):
        m = random_model(rng)
        sols = independent_solutions(m)
        if not sols:
            continue
        X = rng.sample(m.cards, 3)
        loc = rng.choice(m.locations)
        counts = [sum(s[c] == loc for c in X) for s in sols]
        assert m.count_bounds(X, [loc]) == (min(counts), max(counts))


def test_backbone_with_known_pairs_covering_everything_possible():
    """``known`` may already hold every possible pair: the model is still consistent."""
    m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1})
    m.add(["a"], ["P"], 1, 1, source=1)
    bb = m.backbone(known={"a": {"P"}, "b": {"Q"}})
    assert bb.consistent and bb.possible == {"a": {"P"}, "b": {"Q"}}
