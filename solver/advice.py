"""What the advisor returns (``sleuth suggest``, ``sleuth review``) and the game-free
machinery behind its figures: the view's posterior as a set of deals, and information
measures over it.

The posterior of a view is uniform over the deals consistent with what it saw (as
``analyze``).  :func:`posterior` gives it as an array of deals (one row per deal, one
column per card key, values = location indices):

* **exact**: every consistent deal, once each, when their number (counted exactly by
  :mod:`solver.model.counting`) is at most ``enumerate_limit``;
* **sampled**: ``samples`` independent, exactly uniform deals drawn from the counting
  programme's tables (seeded, so the output is reproducible).

Every figure of the advisor is then a plain average over the rows, so the same code gives
exact figures on an enumeration and estimates (with a 95 % error) on samples.

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(list("abcd"), {"P": 2, "M": 2})
>>> m.add(["a", "b"], ["P"], 1, 1)
>>> post = posterior(m, enumerate_limit=100)
>>> post.exact, len(post.deals)
(True, 4)
>>> import numpy as np
>>> x = (post.deals[:, 0] == m.loc_index("M")).astype(np.int64)   # is a in M?
>>> round(mutual_information(x, x, post), 6)                      # H(1/2) = 1 bit
1.0
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: posteriors with at most this many consistent deals are enumerated (exact figures)
ENUMERATE_LIMIT = 5_000
#: otherwise this many exact uniform samples
SAMPLES = 600
from solver.model.stats import Z95  # noqa: E402  (the 95 % normal quantile)


# ----- the posterior ----------------------------------------------------------------------
class NoDeal(Exception):
    """The model has no consistent deal (the caller names the conflicting lines)."""


@dataclass
class Posterior:
    """Deals of a model: every consistent deal (``exact``) or uniform samples."""

    model: Any
    deals: np.ndarray          # (n, cards) location indices
    exact: bool
    total: int | float | None = None   # number of consistent deals (exact count when known)

    @property
    def n(self) -> int:
        return len(self.deals)


def _dp(model, max_states: int):
    """The counting programme of ``model`` (float tables) and what sampling needs."""
    from solver.model.counting import Infeasible, Plan, Programme, last_programme, simplify

    kept = last_programme(model)    # the analysis just counted this model
    if kept is not None and kept[2].peak <= max_states and kept[2].total \
            and _plain_plan(*kept[:2]):
        return kept
    try:
        prob = simplify(model)
        plan = Plan(prob)
        dp = Programme(plan, False, max_states, None, residues=False)
    except Infeasible:
        raise NoDeal("the model has no consistent deal") from None
    if dp.total == 0:
        raise NoDeal("the model has no consistent deal")
    return prob, plan, dp


def _plain_plan(prob, plan) -> bool:
    """Whether ``plan`` is the one ``Plan(prob)`` makes (not one keeping a location's column
    apart, as an analysis counting for ``possible_compositions`` does): its draws for a
    seed are then those of a programme built here, so that the deals sampled depend on
    the record and the seed alone, not on what was counted before."""
    default = {c: g for c, g in enumerate(prob.col_group) if g is not None}
    return plan.col_labels == default and not plan.tags and not plan.relaxed_cols


def _draw(prob, plan, dp, n: int, seed: int) -> np.ndarray:
    from solver.model.counting import deals_from_counts, rngs

    gen, pyr = rngs(seed)
    K = dp.sample_counts(n, gen, pyr)
    return np.asarray(deals_from_counts(prob, plan, K, gen), dtype=np.int16)


def sample_array(model, n: int, seed: int, max_states: int = 400_000) -> np.ndarray:
    """``n`` uniform consistent deals as an array (raises ``OverBudget`` when the counting
    programme does not fit ``max_states``, ``ValueError`` if inconsistent)."""
    prob, plan, dp = _dp(model, max_states)
    return _draw(prob, plan, dp, n, seed)


def sample_relaxed(model, n: int, seed: int, max_states: int = 100_000,
                   max_draws: int = 200_000) -> np.ndarray:
    """``n`` exactly uniform consistent deals when the programme does not fit: uniform
    deals of a relaxed model (the relaxations of :func:`solver.model.counting.estimate`)
    kept only when they meet every dropped statement and relaxed size (rejection keeps
    them exactly uniform).  Fewer rows come back when ``max_draws`` runs out."""
    from solver.model.counting import (Infeasible, OverBudget, accepted_mask,
                                       deals_from_counts, programme, relaxations, rngs,
                                       simplify)

    gen, pyr = rngs(seed)
    try:
        prob0 = simplify(model)
    except Infeasible:
        raise NoDeal("the model has no consistent deal") from None
    found = None
    for dropped, relaxed, prob, plan_args in relaxations(model, prob0):
        try:
            plan, dp = programme(prob, plan_args,
                                 dict(exact=False, max_states=max_states, residues=False))
        except (Infeasible, OverBudget):
            continue
        if dp.total:
            found = dropped, relaxed, prob, plan, dp
            break
    if found is None:
        raise OverBudget
    dropped, relaxed, prob, plan, dp = found
    checks = []
    for j in dropped:
        con = model.constraints[j]
        checks.append((np.array([p[0] for p in con.terms], dtype=np.intp),
                       np.array([p[1] for p in con.terms], dtype=np.int32), con.lo, con.hi))
    sizes = [(li, model.sizes[model.locations[li]]) for li in relaxed]
    kept: list[np.ndarray] = []
    drawn, batch = 0, max(256, 2 * n)
    while sum(len(k) for k in kept) < n and drawn < max_draws:
        K = dp.sample_counts(batch, gen, pyr)
        deals = deals_from_counts(prob, plan, K, gen)
        ok = accepted_mask(deals, sizes, checks)
        kept.append(deals[ok])
        drawn += batch
        batch = min(4 * batch, 65536)
    out = np.concatenate(kept)[:n] if kept else np.zeros((0, len(model.cards)))
    return np.asarray(out, dtype=np.int16)


def posterior(model, *, enumerate_limit: int = ENUMERATE_LIMIT, samples: int = SAMPLES,
              seed: int = 0, max_states: int = 400_000) -> Posterior:
    """The view's posterior: enumerated when it has at most ``enumerate_limit`` deals,
    else ``samples`` uniform deals (see the module doc); over the ``max_states`` budget,
    uniform deals by rejection from a relaxed model (:func:`sample_relaxed`).
    ``ValueError`` if inconsistent; :class:`~solver.errors.BudgetError` if the deals can
    be neither counted nor drawn."""
    from solver.errors import BudgetError
    from solver.model.counting import OverBudget

    try:
        prob, plan, dp = _dp(model, max_states)
    except OverBudget:
        try:
            return Posterior(model, sample_relaxed(model, samples, seed, max_states // 4),
                             False, None)
        except OverBudget:
            raise BudgetError(f"the deals of this view do not fit {max_states} counting "
                              "states; raise the budget (--max-states)") from None
    total = float(dp.total)
    if total <= enumerate_limit * (1 + 1e-9):
        from solver.model.counting import every_deal

        deals = every_deal(prob, plan, dp)
        return Posterior(model, deals, True, len(deals))
    return Posterior(model, _draw(prob, plan, dp, samples, seed), False, total)


# ----- information measures ----------------------------------------------------------------
def _rank(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense codes 0..k-1 for the values of ``x`` and k."""
    u, inv = np.unique(x, return_inverse=True)
    return inv.ravel(), len(u)


def _codes(*cols: np.ndarray) -> np.ndarray:
    """One int code per row for the tuple of columns."""
    code, _ = _rank(cols[0])
    for c in cols[1:]:
        r, k = _rank(c)
        code, _ = _rank(code.astype(np.int64) * k + r)
    return code


def _h(counts: np.ndarray) -> float:
    c = counts[counts > 0].astype(float)
    p = c / c.sum()
    return float(-(p * np.log2(p)).sum())


def entropy(x: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Entropy in bits of the empirical distribution of ``x`` (optionally weighted)."""
    if len(x) == 0:
        return 0.0
    return _h(np.bincount(_codes(x), weights=weights))


def information(x: np.ndarray, y: np.ndarray, mask: np.ndarray | None = None,
                estimate: bool = False) -> tuple[float, float]:
    """(I(X; Y) in bits over the rows, restricted to ``mask``; its 95 % error).

    Exact on an enumerated posterior (rows equally likely; error 0).  With ``estimate``
    (rows are samples): the plug-in value minus the Miller-Madow bias, clamped to
    [0, min(H(X), H(Y))], and as error the normal half-width of the mean pointwise
    information plus that bias."""
    if mask is not None:
        x, y = x[mask], y[mask]
    n = len(x)
    if n == 0:
        return 0.0, (1.0 if estimate else 0.0)
    cx, kx = _rank(x)
    cy, ky = _rank(y)
    cxy, kxy = _rank(cx.astype(np.int64) * ky + cy)
    bx, by, bxy = np.bincount(cx), np.bincount(cy), np.bincount(cxy)
    hx, hy = _h(bx), _h(by)
    v = hx + hy - _h(bxy)
    if not estimate:
        return max(v, 0.0), 0.0
    bias = (kxy - kx - ky + 1) / (2 * n * math.log(2))
    pmi = np.log2(bxy[cxy] * n / (bx[cx] * by[cy].astype(float)))
    err = Z95 * float(pmi.std()) / math.sqrt(n) + abs(bias)
    return min(max(v - bias, 0.0), hx, hy), err


def mutual_information(x: np.ndarray, y: np.ndarray, post: Posterior | None = None,
                       mask: np.ndarray | None = None) -> float:
    """I(X; Y) in bits over the rows (the plug-in value on samples)."""
    return information(x, y, mask)[0]


def kl_divergence(x: np.ndarray, mask: np.ndarray) -> float:
    """D(P(X | mask) || P(X)) in bits over the rows: what learning ``mask`` tells about
    X."""
    if len(x) == 0 or not mask.any():
        return 0.0
    codes, k = _rank(x)
    p = np.bincount(codes, minlength=k).astype(float)
    q = np.bincount(codes[mask], minlength=k).astype(float)
    p /= p.sum()
    q /= q.sum()
    nz = q > 0
    return float(max((q[nz] * np.log2(q[nz] / p[nz])).sum(), 0.0))


def wilson(p: float, n: int) -> float:
    """The larger distance from ``p`` to the ends of its 95 % Wilson interval."""
    from solver.model.stats import wilson_halfwidth

    return float(wilson_halfwidth(float(p), max(n, 0)))


# ----- what the advisor returns ----------------------------------------------------------
@dataclass
class ActionAdvice:
    """One legal action with the figures behind its score (keys: docs/advisor.md)."""

    action: str
    score: float
    info_bits: float
    p_answers: dict[str, float]
    leak_bits: float
    exact: bool
    kind: str = ""
    more: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"action": self.action, "score": self.score, "info_bits": self.info_bits,
                "p_answers": self.p_answers, "leak_bits": self.leak_bits, "exact": self.exact,
                "kind": self.kind, **self.more}


@dataclass
class Advice:
    """Every legal action of ``view`` now, best first (sorted by score, then by text)."""

    game: str
    view: str
    on_turn: bool
    actions: list[ActionAdvice]
    exact: bool
    method: str
    samples: int
    notes: list[str] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    def sort(self) -> "Advice":
        self.actions.sort(key=lambda a: (-round(a.score, 12), a.action))
        return self

    @property
    def best(self) -> ActionAdvice | None:
        return self.actions[0] if self.actions else None

    def hint(self) -> str:
        """One line for the live session."""
        b = self.best
        if self.summary.get("waiting"):         # :func:`waiting`: no advice yet
            return "advisor: " + "; ".join(self.notes)
        if b is None:
            return f"{self.view}: no legal action"
        return (f"advisor: {b.action}  (score {b.score:.3g}, {b.info_bits:.3g} bits, "
                f"gives away {b.leak_bits:.3g})")

    def to_json(self, top: int | None = None) -> dict:
        acts = self.actions if top is None else self.actions[:top]
        return {"game": self.game, "view": self.view, "on_turn": self.on_turn,
                "exact": self.exact, "method": self.method, "samples": self.samples,
                "summary": self.summary, "notes": self.notes,
                "actions": [a.to_json() for a in acts]}


#: a figure of a review this close to the one it is measured against (absolute, or relative
#: to that one) is as good as it: a turn's score to the best one's (``web.review.near_best``),
#: the bits a question gave away to the bits it told the asker (:func:`told_more`).  The
#: estimates' own error is of that size, so within it nothing is called a mistake.
NEAR_ABS, NEAR_REL = 0.01, 0.05


def told_more(leak_bits: float, info_bits: float) -> bool:
    """Whether a question told the table more (``leak_bits``) than it told the asker
    (``info_bits``) by more than the review's tolerance (:data:`NEAR_ABS` bits or
    :data:`NEAR_REL` of ``info_bits``): a review's mistake.

    >>> told_more(0.0514, 0.0508), told_more(0.0684, 0.0), told_more(0.402, 0.366)
    (False, True, True)
    """
    return leak_bits - info_bits > max(NEAR_ABS, NEAR_REL * abs(info_bits))


@dataclass
class TurnReview:
    """One of the view's turns: what was done against the advisor's best."""

    line: int
    step: int
    taken: str
    best: str
    taken_score: float | None
    best_score: float
    taken_info: float | None
    best_info: float
    taken_leak: float | None
    mistakes: list[str] = field(default_factory=list)
    sheet: dict[str, Any] = field(default_factory=dict)      # what the view knew after it
    uncertainty: float | None = None                         # after the turn

    def to_json(self) -> dict:
        return {"line": self.line, "step": self.step, "taken": self.taken, "best": self.best,
                "taken_score": self.taken_score, "best_score": self.best_score,
                "taken_info": self.taken_info, "best_info": self.best_info,
                "taken_leak": self.taken_leak, "mistakes": self.mistakes,
                "uncertainty": self.uncertainty, "sheet": self.sheet}


@dataclass
class Review:
    """A post-game review of one view's turns."""

    game: str
    view: str
    turns: list[TurnReview]
    first_safe: dict[str, Any]          # {"line": int, "step": int, "what": str} or {}
    measure: str | None
    curve: list[tuple[int, float | None]]   # (step, uncertainty) after every statement
    notes: list[str] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    #: the time-out (a :class:`~solver.model.budget.TimeUp`) that stopped the review at the
    #: prefix ``unfinished_step``: the turns and the curve before it are complete
    unfinished: Any = None
    unfinished_step: int | None = None

    def to_json(self) -> dict:
        out = {"game": self.game, "view": self.view, "first_safe": self.first_safe,
               "measure": self.measure, "curve": [list(x) for x in self.curve],
               "turns": [t.to_json() for t in self.turns], "notes": self.notes}
        if self.unfinished is not None:
            out["unfinished"] = {"seconds": self.unfinished.seconds,
                                 "what": self.unfinished.what, "step": self.unfinished_step}
        return out


def waiting(game, record, view: str | None, on_turn: bool = False) -> "Advice | None":
    """The advice of a view the advisor cannot help yet, or ``None``: while the game says
    that the view's own hand is missing (:meth:`solver.games.Game.advice_waits`), every
    figure would be over hands it does not hold -- a claim or an announcement ranked on
    them is a guess.  No actions, the reason in ``notes`` and ``summary["waiting"]`` (the
    game's note), ``method`` ``"none"``.

    >>> class Game:                 # says what its table notes say
    ...     name = "g"
    ...     def advice_waits(self, record, view):
    ...         return f"Missing: your own hand ('{view} holds: ...')."
    >>> print(waiting(Game(), None, "Ana").hint())
    advisor: nothing to rank until your own hand is logged ('Ana holds: ...')
    """
    import re

    why = game.advice_waits(record, view)
    if why is None or view is None:
        return None
    example = re.search(r"'[^']*'", why)
    note = "nothing to rank until your own hand is logged" + (
        f" ({example.group(0)})" if example else "")
    return Advice(game.name, view, on_turn, [], True, "none", 0, notes=[note],
                  summary={"waiting": why})


# ----- the post-game review (shared by the games) ------------------------------------------
#: a review shares its prefixes among processes only from this many statements on
PARALLEL_REVIEW = 16


def _review_part(args):
    """The analysis of each prefix in ``indices`` and, before each of the view's turns, the
    advice (right after that prefix's analysis: its counting programme is shared)."""
    from dataclasses import replace

    from solver.errors import SleuthError
    from solver.games import get_game
    from solver.model.budget import TimeUp, restart

    from solver.model.reuse import Memo, current, reusing

    game_name, record, view, budget, suggest, indices, turns = args
    game = get_game(game_name)
    memo = None
    if current() is None:       # a worker process: its pieces go on with one memo
        key = (game_name, view, record.statements)
        if _PART_MEMO.get("key") != key:
            _PART_MEMO.update(key=key, memo=Memo())
        memo = _PART_MEMO["memo"]
    out = []
    with reusing(memo):         # consecutive prefixes: an unchanged problem is not recounted
        for i in indices:
            restart()               # each prefix is its own analysis: a fresh time budget
            rec = replace(record, statements=tuple(record.statements[:i]))
            try:
                try:
                    k = game.step_knowledge(rec, view, budget)   # no headline figures needed
                except SleuthError as e:
                    if isinstance(e, TimeUp):
                        raise
                    k = None
                out.append((i, k, suggest(rec) if i in turns else None))
            except TimeUp as e:     # said, not taken for an unknown step; the prefixes
                raise TimeUp(e.seconds, f"step {i} of the review: {e.what}",   # before it
                             {"reviewed": out}) from None                      # kept
    return out


#: in a worker process of a review: the record it reviews and the memo of its pieces
_PART_MEMO: dict = {}


def said(value) -> str:
    """A commitment's value as people write it: cards spaced, holders with their cards.

    >>> said({"Ana": ["2S", "3S"], "Cleo": ["6S"]}), said(["5S", "3H"]), said("x")
    ('Ana 2S 3S, Cleo 6S', '5S 3H', 'x')
    """
    if isinstance(value, dict):
        return ", ".join(f"{k} {said(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value))
    return str(value)


#: called with (prefixes analysed, all of them) as a review goes; ``sleuth review`` sets it
#: on a terminal (:func:`reporting`); never called in a worker process
REVIEW_PROGRESS = None


@contextlib.contextmanager
def reporting(report):
    """Within the block, :func:`review_turns` calls ``report(done, total)`` as it goes."""
    global REVIEW_PROGRESS
    before, REVIEW_PROGRESS = REVIEW_PROGRESS, report
    try:
        yield
    finally:
        REVIEW_PROGRESS = before


def review_turns(game, record, view, turns, suggest, taken_text, mistakes_of,
                 budget=None, jobs: int | None = None) -> Review:
    """Review ``view``'s turns.  ``turns``: indices (into ``record.statements``) of the
    view's turn statements; ``suggest(prefix_record)`` -> :class:`Advice` before a turn (a
    picklable callable: a module function or a ``functools.partial`` of one);
    ``taken_text(statement)`` -> the action as the advisor writes it; ``mistakes_of(taken
    action or None, advice, statement)`` -> list of mistakes.  The sheet after each turn and
    the uncertainty curve come from ``game.step_knowledge`` (the replay's figures).  ``jobs``
    processes share the prefixes (default: the cores, from :data:`PARALLEL_REVIEW`
    statements on); every prefix is its own analysis, so the review is the same."""
    import os

    from solver.model.budget import STEP_BUDGET

    budget = budget or STEP_BUDGET
    st = record.statements
    n = len(st) + 1
    turn_set = frozenset(turns)
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    jobs = min(jobs, n) if n >= PARALLEL_REVIEW else 1
    report = REVIEW_PROGRESS
    # pieces of consecutive prefixes (solver.model.reuse: a prefix whose counting problem is
    # the previous one's is not counted again), four a worker, each to the next worker free
    # (the hard middle game is shared out); with a progress report in this process, one
    # prefix a piece, each reported as it ends
    pieces = min(n, jobs * 4) if jobs > 1 else (n if report else 1)
    parts = [list(range(j * n // pieces, (j + 1) * n // pieces)) for j in range(pieces)]
    args = [(game.name, record, view, budget, suggest, ix, turn_set) for ix in parts]
    from solver.model.budget import TimeUp

    done: list = []
    # a prefix out of time ends the review there: the prefixes before it are reviewed
    unfinished: TimeUp | None = None
    if jobs > 1:
        from solver.parallel import pool     # workers that a Ctrl-C stops at once

        try:
            with pool(jobs) as ex:      # (a time-out leaving it stops the other workers)
                for part in ex.map(_review_part, args):      # in order, each as it ends
                    done += part
                    if report:
                        report(len(done), n)
        except TimeUp as e:
            done += e.established.get("reviewed", [])
            unfinished = e
    else:
        from solver.model.reuse import reusing

        with reusing():         # one memo for the whole review, freed with it
            for a in args:
                try:
                    done += _review_part(a)
                except TimeUp as e:
                    done += e.established.get("reviewed", [])
                    unfinished = e
                    break
                if report:
                    report(len(done), n)
    know = {i: k for i, k, _ in done}
    advice = {i: a for i, _, a in done if a is not None}
    curve: list[tuple[int, float | None]] = []
    first_safe: dict = {}
    n = len(done)           # the prefixes reviewed: all, or those before the time-out
    for i in range(n):
        k = know[i]
        curve.append((i, None if k is None else k.uncertainty))
        if k is not None and k.safe and not first_safe:
            first_safe = {"step": i, "line": st[i - 1].line if i else None,
                          "what": "; ".join(f"{key}: {said(v)}" for key, v in k.safe.items())}
    out = []
    for i in turns:
        if i + 1 >= n:          # its position after it not analysed: the time-out's
            break
        s = st[i]
        adv = advice[i]
        text = taken_text(s)
        taken = next((a for a in adv.actions if a.action == text), None)
        best = adv.best
        k = know.get(i + 1)
        sheet = dict(k.certain) if k is not None else {}
        out.append(TurnReview(
            s.line, i + 1, text, best.action if best else "-",
            None if taken is None else taken.score, best.score if best else 0.0,
            None if taken is None else taken.info_bits,
            max((a.info_bits for a in adv.actions), default=0.0),
            None if taken is None else taken.leak_bits,
            mistakes_of(taken, adv, s), sheet, None if k is None else k.uncertainty))
    return Review(game.name, view, out, first_safe, game.measure, curve,
                  unfinished=unfinished, unfinished_step=None if unfinished is None else n)
