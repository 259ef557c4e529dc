"""Programmes kept between calls: the last exact count's (for the draws and chances that
follow it on the same model) and, within a :class:`~solver.model.reuse.reusing` block,
one per problem, arguments and tuning."""
from __future__ import annotations

from solver.model import reuse

from .plan import Plan
from .problem import OverBudget, Problem
from .programme import Programme, give_back_memory, table_bytes
from .tuning import settings


#: the float programme of the last exact count (one entry): fingerprint -> (prob, plan, dp)
_LAST: dict[tuple, tuple[Problem, Plan, Programme]] = {}


#: a dropped programme of at least this many bytes of tables has its memory handed back
#: to the system (programme.give_back_memory)
GIVE_BACK = 32 << 20


def keep_last(model, prob: Problem, plan: Plan, dp: Programme) -> None:
    """Keep ``model``'s float programme for the draws and chances asked next."""
    _LAST.clear()
    _LAST[fingerprint(model)] = (prob, plan, dp)


def _drop(dps) -> None:
    """The programmes ``dps`` were just dropped: hand their memory back to the system
    when it was large (the next step of a replay may need far less)."""
    if sum(table_bytes(dp) for dp in dps) >= GIVE_BACK:
        give_back_memory()


def forget_other(model) -> None:
    """Drop the kept programme unless it is ``model``'s: a new count is about to be made,
    and the one kept for another model would otherwise stay in memory beside it while it
    is built (only a count of that model reads it)."""
    key = fingerprint(model)
    if _LAST and key not in _LAST:
        dropped = [v[2] for v in _LAST.values()]
        _LAST.clear()
        memo = reuse.current()
        if memo is None or not any(d is dp for d in dropped for _, dp in memo.built.values()):
            _drop(dropped)


def last_programme(model) -> tuple[Problem, Plan, Programme] | None:
    """``(problem, plan, programme)`` of the last exact count when it was of a model equal
    to ``model`` (same cards, sizes and constraints), else ``None``."""
    return _LAST.get(fingerprint(model))


def forget_last() -> None:
    """Drop the kept programme (its memory, or a test's fresh start)."""
    _LAST.clear()


def problem_key(prob: Problem) -> tuple:
    """Everything of a problem a programme reads (not the model's constraint ids)."""
    return (prob.n_cards, prob.n_locs, tuple(sorted(prob.fixed.items())),
            tuple(map(tuple, prob.rows)), tuple(prob.cols), tuple(prob.col_cap),
            tuple(sorted(prob.loc_cap.items())), tuple(sorted(prob.cells.items())),
            tuple(prob.users), prob.lump_factor, tuple(prob.col_group))


def _frozen(v):
    if isinstance(v, dict):
        return tuple(sorted(((k, _frozen(x)) for k, x in v.items()), key=repr))
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    return v


def programme(prob: Problem, plan_args: dict, dp_args: dict,
              deadline: float | None = None) -> tuple[Plan, Programme]:
    """``(Plan(prob, **plan_args), Programme(plan, deadline=deadline, **dp_args))``, taken
    from the :class:`~solver.model.reuse.reusing` block when it holds the same one
    (raising :class:`OverBudget` at once for one it saw over its budget).

    >>> from solver.model import CardLocationModel
    >>> from solver.model.counting import exact_count
    >>> from solver.model.reuse import reusing
    >>> m = CardLocationModel(list("abcd"), {"P": 2, "Q": 2})
    >>> with reusing() as r:
    ...     a = exact_count(m)
    ...     m.add(["a", "b", "c", "d"], ["P", "Q"], 4, 4)   # implied: the same problem
    ...     b = exact_count(m)
    >>> a.marginals == b.marginals, r.memo.hits
    (True, 1)
    """
    memo = reuse.current() if deadline is None else None
    key = None
    if memo is not None:
        key = (problem_key(prob), _frozen(plan_args), _frozen(dp_args), settings())
        if key in memo.over:
            memo.hits += 1
            raise OverBudget(memo.over[key])
        if key in memo.built:
            memo.hits += 1
            memo.keep(memo.built, key, memo.built[key], reuse.PROGRAMMES)
            return memo.built[key]
    if memo is not None and memo.built:
        # the new programme replaces the block's oldest: dropped now rather than once the
        # new one is built (the two at once were a replay's peak of memory)
        old = []
        while len(memo.built) >= reuse.PROGRAMMES:
            old.append(memo.built.pop(next(iter(memo.built)))[1])
        if not any(v[2] is d for d in old for v in _LAST.values()):
            _drop(old)
        del old
    try:
        plan = Plan(prob, **plan_args)
        dp = Programme(plan, deadline=deadline, **dp_args)
    except OverBudget as e:
        if memo is not None:
            memo.keep(memo.over, key, str(e), reuse.KEYS)
        raise
    if memo is not None:
        memo.keep(memo.built, key, (plan, dp), reuse.PROGRAMMES)
    return plan, dp


def fingerprint(model) -> tuple:
    """What the count of a model depends on (its cards, sizes and constraints)."""
    return (tuple(model.cards), tuple(model.sizes.items()),
            tuple((c.terms, c.lo, c.hi) for c in model.constraints),
            tuple(sorted(getattr(model, "groups", {}).items(), key=repr)))
