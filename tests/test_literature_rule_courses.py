"""The courses the rules allow, found line by line (solver.literature.courses.rule_courses),
and the exact figures they give where the unseen parts multiply to more courses than are
counted one by one but the rules leave few (issue 45: exact wherever the courses can be
counted)."""
import itertools
import math

import pytest

from solver.errors import NotationError, RuleError
from solver.literature import courses
from solver.literature.engine import Play
from solver.literature.simulate import simulate


def _brute(rec, lines):
    """Every combination of the lines' parts whose whole course record the engine accepts,
    in the same order (the product of the parts)."""
    ps = courses.parts(rec, lines)
    out = []
    for v in itertools.product(*(itertools.product(p[1], p[2], p[3]) for p in ps)):
        try:
            Play.of(courses.course_record(rec, lines, v))
        except (RuleError, NotationError):
            continue
        out.append(v)
    return out


def _raw(rec, lines) -> int:
    """The combinations of the unseen lines' parts, allowed by the rules or not."""
    return math.prod(len(p[1]) * len(p[2]) * len(p[3]) for p in courses.parts(rec, lines))


def _states(players, seeds, most_raw):
    for seed in seeds:
        rec = simulate(players, (), seed, miss=0.3)
        for k in range(5, len(rec.statements) + 1, 4):
            p = rec.prefix(k)
            lines = courses.unseen_lines(p)
            if lines and _raw(p, lines) <= most_raw:
                yield seed, k, p, lines


@pytest.mark.parametrize("players", [4, 6])
def test_line_by_line_finds_exactly_the_courses_the_engine_accepts(players):
    """Followed line by line on forks of the play, the courses are those whose whole
    replay the engine accepts: none lost, none added (fails if a fork shared a container
    with the play it came from, or if a refused value were kept)."""
    seen = 0
    for seed, k, p, lines in _states(players, range(4), 600):
        got = courses.rule_courses(p, lines, None, most=10 ** 9, work=10 ** 9)
        assert got == _brute(p, lines), (seed, k)
        seen += 1
    assert seen >= 5


def test_the_limits_give_up_rather_than_truncate():
    """More courses than ``most``, or more engine steps than ``work``: ``None`` (the chain
    estimates), never a partial list."""
    for seed, k, p, lines in _states(6, range(6), 3000):
        full = courses.rule_courses(p, lines, None, most=10 ** 9, work=10 ** 9)
        if len(full) >= 3:
            assert courses.rule_courses(p, lines, None, most=len(full) - 1,
                                        work=10 ** 9) is None
            assert courses.rule_courses(p, lines, None, most=len(full), work=10 ** 9) == full
            assert courses.rule_courses(p, lines, None, most=10 ** 9, work=1) is None
            return
    pytest.fail("no state with three courses")


def test_a_record_with_many_raw_combinations_but_few_courses_is_exact():
    """Six players, an unheard answer and an unheard card: 96 combinations of the parts,
    more than the courses counted one by one, but the turn order pins the answer: the
    card figures are exact ("courses", not the chain's estimate), and equal the weighted
    course-by-course figures of every combination (the same figures counted without the
    line-by-line search)."""
    from solver.literature.analysis import analyze

    # seed 6: seed 5's record changed when the simulator stopped hiding the recorder's own
    # questions
    rec = simulate(6, (), 6, miss=0.2).prefix(18)
    me = rec.header.me
    lines = courses.unseen_lines(rec)
    raw = _raw(rec, lines)
    assert raw > 64
    found = courses.rule_courses(rec, lines)
    assert found is not None and len(found) < raw
    a = analyze(rec, me)
    assert a.method == "courses"
    # the reference: every combination of the parts counted (no search, no limit)
    weighted = {}
    total = 0
    for v in itertools.product(*(itertools.product(p[1], p[2], p[3])
                                 for p in courses.parts(rec, lines))):
        r = courses._count(courses.course_record(rec, lines, v), me, courses.MAX_STATES,
                           courses.TIME_BUDGET)
        if r is None:
            continue
        vb, pr = r
        total += pr.total
        from solver.literature.inference import current
        for card, d in current(vb, pr)[0].items():
            for loc, q in d.items():
                weighted[card, loc] = weighted.get((card, loc), 0.0) + q * pr.total
    assert total > 0
    vm_cards = a.cards
    checked = 0
    for (key, loc), w in weighted.items():
        card = repr(Play.of(rec).table.key_card[key])
        if card in vm_cards and loc in vm_cards[card]:
            assert vm_cards[card][loc] == pytest.approx(w / total, abs=1e-9), (card, loc)
            checked += 1
    assert checked > 10
