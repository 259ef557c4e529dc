"""The contradiction sentence says only what is true (issue 14, item 6): over random small
card-location models (four cards, three places) whose statements conflict, every sentence
:func:`solver.model.conflicts.conflict_reason` builds is checked by brute force over every
deal: the lines of each side force exactly what the sentence says they force, and the
sentence names exactly the lines of the minimal conflict."""
from __future__ import annotations

import itertools
import re

from hypothesis import given, settings, strategies as st

from solver.model import CardLocationModel
from solver.model.conflicts import conflict_reason

CARDS = ["a", "b", "c", "d"]
SIZES = {"P": 1, "Q": 1, "R": 1, "S": 1}


def deals():
    for locs in itertools.product(SIZES, repeat=len(CARDS)):
        if all(locs.count(l) == n for l, n in SIZES.items()):
            yield dict(zip(CARDS, locs))


def holds(model, deal, lines) -> bool:
    ci = {c: i for i, c in enumerate(model.cards)}
    li = {l: i for i, l in enumerate(model.locations)}
    at = {(ci[c], li[l]) for c, l in deal.items()}
    return all(con.lo <= len(con.terms & at) <= con.hi for con in model.constraints
               if con.source is None or con.source in lines)


def worlds(model, lines):
    return [d for d in deals() if holds(model, d, lines)]


def named(text: str) -> list[int]:
    out = []
    for m in re.finditer(r"\blines? (\d+(?:(?:, | and )\d+)*)", text):
        out += [int(n) for n in re.findall(r"\d+", m.group(1))]
    return out


def count_ok(phrase: str, k: int) -> bool:
    if phrase == "none":
        return k == 0
    m = re.fullmatch(r"(exactly|at least|at most) (\d+)", phrase)
    if m:
        n = int(m.group(2))
        return {"exactly": k == n, "at least": k >= n, "at most": k <= n}[m.group(1)]
    m = re.fullmatch(r"between (\d+) and (\d+)", phrase)
    return int(m.group(1)) <= k <= int(m.group(2))


def check(model, core, text):
    first, _, second = text.rpartition("; ")
    side1, side2 = named(first), named(second)
    assert sorted(side1 + side2) == sorted(core), text
    w1, w2 = worlds(model, side1), worlds(model, side2)
    assert w1 and w2, text                       # each side alone has deals
    m = re.search(r"(?:puts|put) (\w) in (\w)$", first) or \
        re.search(r"says (\w) is (not) in (\w)$", first) or \
        re.search(r"(\w) (must be|cannot be) in (\w)$", first)
    if m and "only in" not in first:
        # what the conclusion says (not the facts before it: "b is not in P (line 4), so
        # with line 5 a must be in R" puts a in R)
        card, place = m.group(1), m.group(m.lastindex)
        there = m.lastindex == 2 or m.group(2) == "must be"
        assert all((d[card] == place) == there for d in w1), text
        negated = second.endswith("it is not")
        assert second.endswith("it is") or negated, text
        assert all((d[card] == place) == (not negated) for d in w2), text
        return "card"
    m = re.search(r"(?:leaves|leave) (\w) only in (.+)$", first) or \
        re.search(r"(?:puts|put) (\w) in (\w)$", first)
    if m and "line" in second and "puts it in" in second:
        card = m.group(1)
        places1 = set(re.split(r", | or ", m.group(2)))
        places2 = set(re.split(r", | or ", second.partition("puts it in ")[2]))
        assert not places1 & places2, text
        assert all(d[card] in places1 for d in w1) and all(d[card] in places2 for d in w2)
        return "places"
    m = re.search(r"(?:puts|put) (.+) of ([\w ]+) in (\w(?: or \w)*)$", first)
    assert m, text
    phrase1, cards, where = m.groups()
    cards, where = cards.split(), where.split(" or ")
    phrase2 = second.partition(" says ")[2]

    def k(d):
        return sum(1 for c in cards if d[c] in where)

    assert all(count_ok(phrase1, k(d)) for d in w1), text
    assert all(count_ok(phrase2, k(d)) for d in w2), text
    return "count"


# exact counts over one or two cards and places conflict often (each kind of sentence
# occurs: test_the_kinds_of_sentence_are_all_met)
constraint = st.tuples(st.lists(st.sampled_from(CARDS), min_size=1, max_size=2, unique=True),
                       st.lists(st.sampled_from(list(SIZES)), min_size=1, max_size=2,
                                unique=True),
                       st.integers(0, 2), st.sampled_from([0, 0, 1]))


@settings(max_examples=80, deadline=None)
@given(st.lists(constraint, min_size=3, max_size=6))
def test_every_sentence_is_true_of_every_deal(cons):
    m = CardLocationModel(CARDS, SIZES, {c: c for c in CARDS})
    for line, (cards, locs, lo, span) in enumerate(cons, start=3):
        m.add(cards, locs, lo, lo + span, source=line)
    core = m.conflict()
    if core is None or len(core) < 2:
        return
    text = conflict_reason(m, core, lambda l: l)
    if text is not None:
        check(m, core, text)


def test_the_kinds_of_sentence_are_all_met():
    """The random test above is not vacuous: each kind of sentence occurs on these."""
    def kind(*cons):
        m = CardLocationModel(CARDS, SIZES, {c: c for c in CARDS})
        for line, (cards, locs, lo, hi) in enumerate(cons, start=3):
            m.add(cards, locs, lo, hi, source=line)
        core = m.conflict()
        return check(m, core, conflict_reason(m, core, str))

    # a is not in Q, R or S (lines 3, 4), so in P; line 5 puts b there
    assert kind((["a"], ["Q", "R"], 0, 0), (["a"], ["S"], 0, 0), (["b"], ["P"], 1, 1)) == "card"
    # a in P or Q, and a in R or S
    assert kind((["a"], ["P", "Q"], 1, 1), (["a"], ["R", "S"], 1, 1)) == "places"
    # a and b both in P or Q, and one of them in R
    assert kind((["a", "b"], ["P", "Q"], 2, 2), (["a", "b"], ["R"], 1, 1)) == "count"
