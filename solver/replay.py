"""Hindsight replay: a record statement by statement, with what each view knew at each step.

Data only (no printing): :func:`replay` asks the game (:meth:`solver.games.Game.knowledge`)
what each requested view knew after every *step*, and returns a :class:`Replay` -- per
step the view's uncertainty (the game's ``measure``), the cards that became certain, the
game's summary, and the moments worth telling (:class:`~solver.games.Finding`, from
:meth:`~solver.games.Game.findings` and :meth:`~solver.games.Game.checks`): when the view
could first commit safely (announce, claim), and commitments made before the mover could
be sure.

A *step* is one statement, except that

* the leading statements of the deal (event classes with ``setup``) are step 0, the
  opening position;
* an event whose class ``joins`` the class of the step's first event belongs to that step
  (a claim and the line that resolves it; a deal and the hands dealt);
* when the game says so (:meth:`~solver.games.Game.hoists_setup`: a complete record, every
  hand known to its holder from the start), every step keeps all the setup statements.

Each step is its own analysis with its own time budget; a step that runs out of it ends its
view's replay there (``ViewReplay.unfinished``, ``Replay.unfinished``): the steps before it,
their findings and checks are kept, so that ``sleuth replay`` shows them before it exits 4.
``sleuth review`` numbers its steps by :func:`step_numbers` too.

No game is named here: everything game-specific comes through the Game interface.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from solver.errors import InconsistentError, NotationError, SleuthError
from solver.games import (PUBLIC, Capability, Finding, Game, Knowledge, StepSpec, get_game)
from solver.model.budget import STEP_BUDGET, Budget, TimeUp, restart
from solver.model.reuse import reusing
from solver.records import Record, Statement

__all__ = ["PUBLIC", "Budget", "Finding", "Knowledge", "Replay", "Step", "StepSpec",
           "ViewReplay", "probe", "replay", "replay_view", "replay_views", "statement_groups",
           "step_numbers", "step_of_prefix", "steps", "view_supported"]


def _replayable(record) -> Game:
    game = get_game(record.game)
    if Capability.REPLAY not in game.capabilities:
        raise NotationError("this game has no replay", text=record.game)
    return game


# ----- steps -----------------------------------------------------------------------------
def statement_groups(record) -> list[list[int]]:
    """Indices of the record's statements, grouped into steps that belong together: an
    event whose class ``joins`` the class of the step's first event completes that step
    (a claim and the line that resolves it; a deal and the hands dealt)."""
    groups: list[list[int]] = []
    for i, st in enumerate(record.statements):
        if groups:
            first = record.statements[groups[-1][0]].event
            if type(st.event).joins and isinstance(first, type(st.event).joins):
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups


def step_numbers(record) -> list[int]:
    """The step (:func:`steps`) of each of the record's statements, by index: the leading
    deal statements are step 0, an event that joins the step before is in it.

    ``[0] + step_numbers(record)[:i]`` ends with the step of the prefix of ``i``
    statements (:func:`step_of_prefix`): the numbering ``review`` shares with ``replay``."""
    groups = statement_groups(record)
    sts = record.statements
    lead = 0
    while lead < len(groups) and all(_setup(sts[i]) for i in groups[lead]):
        lead += 1
    out = [0] * len(sts)
    for n, g in enumerate(groups[lead:], 1):
        for i in g:
            out[i] = n
    return out


def step_of_prefix(record, i: int, numbers: list[int] | None = None) -> int:
    """The step whose statements include the last of the first ``i`` statements (0 for
    the deal and for no statement at all)."""
    if i <= 0:
        return 0
    return (numbers if numbers is not None else step_numbers(record))[i - 1]


def _setup(st: Statement) -> bool:
    return type(st.event).setup


def steps(record) -> list[StepSpec]:
    """The steps of a record: step 0 is the opening (the leading deal statements), then one
    step per statement group (see the module doc)."""
    game = get_game(record.game)
    groups = statement_groups(record)
    sts = record.statements
    lead = 0
    while lead < len(groups) and all(_setup(sts[i]) for i in groups[lead]):
        lead += 1
    hoist = game.hoists_setup(record)

    def upto(n: int) -> Record:
        if hoist:
            keep = tuple(s for i, s in enumerate(sts) if i < n or _setup(s))
            return replace(record, statements=keep)
        return record.prefix(n)

    first = groups[lead - 1][-1] + 1 if lead else 0
    out = [StepSpec(0, tuple(sts[:first]), upto(first))]
    for g in groups[lead:]:
        end = g[-1] + 1
        out.append(StepSpec(len(out), tuple(sts[i] for i in g), upto(end)))
    return out


def probe(record, view, budget: Budget = STEP_BUDGET, detail: bool = True) -> Knowledge:
    """What ``view`` knows after ``record`` (raises the game's errors, e.g.
    :class:`~solver.errors.InconsistentError`); ``detail=False``: without the summary's
    costly headline figures (:meth:`~solver.games.Game.step_knowledge`)."""
    game = _replayable(record)
    if detail:
        return game.knowledge(record, view, budget)
    return game.step_knowledge(record, view, budget)


# ----- the replay --------------------------------------------------------------------------
@dataclass
class Step:
    index: int
    lines: list[int]
    text: str
    knowledge: Knowledge | None
    new_certain: dict[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def uncertainty(self) -> float | None:
        return self.knowledge.uncertainty if self.knowledge else None

    @property
    def summary(self) -> dict:
        return self.knowledge.summary if self.knowledge else {}

    def to_json(self) -> dict:
        k = self.knowledge
        return {"step": self.index, "lines": self.lines, "statement": self.text,
                "uncertainty": None if k is None else k.uncertainty,
                "uncertainty_exact": None if k is None else k.exact,
                "new_certain": self.new_certain,
                "certain": 0 if k is None else len(k.certain),
                "summary": {} if k is None else k.summary, "error": self.error}


@dataclass
class ViewReplay:
    view: str | None
    steps: list[Step]
    findings: list[Finding] = field(default_factory=list)
    #: the step that ran out of its time (``steps`` are those before it), else None
    unfinished: TimeUp | None = None
    unfinished_step: int | None = None

    @property
    def label(self) -> str:
        return self.view if self.view is not None else PUBLIC

    def first(self, pred) -> Step | None:
        return next((s for s in self.steps if s.knowledge is not None and pred(s.knowledge)),
                    None)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"view": self.view, "steps": [s.to_json() for s in self.steps],
                               "findings": [f.to_json() for f in self.findings]}
        if self.unfinished is not None:
            out["unfinished"] = _unfinished_json(self.unfinished, self.unfinished_step,
                                                 self.label)
        return out


def _unfinished_json(e: TimeUp, step: int | None, label: str | None) -> dict:
    """What ran out of time (docs/reliability.md): ``step`` and ``label`` (the view) are
    None when it was the checks."""
    return {"seconds": e.seconds, "what": e.what, "step": step, "view": label}


@dataclass
class Replay:
    game: str
    path: str | None
    measure: str | None
    views: dict[str, ViewReplay]               # label (player or 'public') -> replay
    checks: list[Finding] = field(default_factory=list)   # announcements / claims checked
    statements: int = 0
    #: what ran out of its time first (a step of a view, or the checks), else None: the
    #: steps before it are kept, the findings and checks are of those steps
    unfinished: TimeUp | None = None
    unfinished_step: int | None = None
    unfinished_view: str | None = None

    def to_json(self) -> dict:
        out = {"game": self.game, "record": self.path, "measure": self.measure,
               "statements": self.statements,
               "views": {k: v.to_json() for k, v in self.views.items()},
               "checks": [f.to_json() for f in self.checks]}
        if self.unfinished is not None:
            out["unfinished"] = _unfinished_json(self.unfinished, self.unfinished_step,
                                                 self.unfinished_view)
        return out


def replay_views(record) -> list[str | None]:
    """Every view the record supports (the game's :meth:`~solver.games.Game.views`), then
    the public view (``None``) unless the game's views already cover it."""
    game = _replayable(record)
    out: list[str | None] = [v for v in game.views(record) if v is not None]
    if game.public_view or not out:
        out.append(None)
    seen: list[str | None] = []
    for v in out:
        if v not in seen:
            seen.append(v)
    return seen


def view_supported(record, player: str) -> bool:
    """Whether ``player``'s own view can be reconstructed from the record (to check their
    announcements and claims)."""
    return get_game(record.game).view_supported(record, player)


#: a view's steps are probed in parallel processes only from this many steps on
PARALLEL_STEPS = 12


def _probe_one(spec, view, budget, detail):
    restart()                   # each step is its own analysis: a fresh time budget
    try:
        return probe(spec.record, view, budget, detail), None
    except InconsistentError as e:      # a contradiction saved with 'force'
        return None, str(e)
    except TimeUp as e:                 # which step ran out of time
        raise TimeUp(e.seconds, f"step {spec.index} of the replay: {e.what}") from None


def step_conflict(record, view, index: int) -> InconsistentError | None:
    """The contradiction that left step ``index`` of ``view`` with no analysis (its
    ``Step.error`` is only its text), found again for its rendering -- placed in the record,
    with its reason and rule -- or ``None`` when the step holds no contradiction now."""
    specs = steps(record)
    if not 0 <= index < len(specs):
        return None
    restart()                   # its own analysis, like the step's
    try:
        probe(specs[index].record, view, detail=False)
    except InconsistentError as e:
        return e
    except (SleuthError, TimeUp):
        return None
    return None


#: consecutive steps probed together (one task of a worker process): within a process the
#: counting programmes of a step whose problem is the previous one's are reused
#: (solver.model.reuse), so only a block's first step misses its predecessor; eight keep
#: that loss small and still share an 8-player game's 80-110 steps out evenly
STEP_BLOCK = 8


def _probe_steps(specs, indices, view, budget, detail, progress=None,
                 memo=None) -> list[tuple]:
    """``(index, knowledge or None, error or None)`` of the steps ``indices``, in order,
    within one :class:`~solver.model.reuse.reusing` block (going on with ``memo``): a
    statement that leaves the counting problem as it was costs no second count (the same
    figures).  A step that runs out of its time ends the list: ``(index, None, TimeUp)``."""
    out: list[tuple] = []
    with reusing(memo):
        for i in indices:
            if progress:
                progress(view, specs[i].index, len(specs))
            try:
                out.append((i, *_probe_one(specs[i], view, budget, detail)))
            except TimeUp as e:     # the steps before it stand (docs/reliability.md)
                out.append((i, None, e))
                break
    return out


class _Stop(Exception):
    """Leaves the pool once a step ran out of time (its workers killed: the steps after it
    are not shown)."""


#: in a worker process: the record it probes (its text, path and steps) and its memo
_WORKER: dict = {}


def _probe_job(args):
    text, path, view, budget, detail, n, indices = args
    if _WORKER.get("key") != (text, path, view, n):
        from solver.model.reuse import Memo
        from solver.records import parse_record

        restart()       # reading the record again: not on the clock of the parent's start

        _WORKER.update(key=(text, path, view, n), memo=Memo(),
                       specs=steps(parse_record(text, path))[:n])
    return _probe_steps(_WORKER["specs"], indices, view, budget, detail,
                        memo=_WORKER["memo"])


def _probes(record, view, budget, detail, specs, jobs: int, progress) -> list[tuple]:
    """(knowledge or None, error or None) of every step up to the first that ran out of
    its time, whose error is then the :class:`TimeUp` (the last item): in ``jobs``
    processes when there are enough steps and the record's file is what was parsed
    (blocks of :data:`STEP_BLOCK` consecutive steps, each to the next process free: the
    hard steps of the middle game are shared out), else one by one."""
    text = _text_of(record) if jobs > 1 and len(specs) >= PARALLEL_STEPS else None
    if text is None:
        return [r[1:] for r in _probe_steps(specs, range(len(specs)), view, budget, detail,
                                            progress)]
    from solver.parallel import pool     # workers that a Ctrl-C stops at once

    res: dict[int, tuple] = {}
    blocks = [list(range(i, min(i + STEP_BLOCK, len(specs))))
              for i in range(0, len(specs), STEP_BLOCK)]
    args = [(text, record.path, view, budget, detail, len(specs), b) for b in blocks]
    try:
        with pool(jobs) as ex:
            for part in ex.map(_probe_job, args):   # in order: the blocks before are done
                for i, k, err in part:
                    res[i] = (k, err)
                if progress:
                    progress(view, len(res), len(specs))
                if part and isinstance(part[-1][2], TimeUp):
                    raise _Stop
    except _Stop:
        pass
    out = []
    for i in range(len(specs)):
        out.append(res[i])
        if isinstance(res[i][1], TimeUp):
            break
    return out


def replay_view(record, view, budget: Budget = STEP_BUDGET, specs: list[StepSpec] | None = None,
                progress: Callable[[Any, int, int], None] | None = None,
                jobs: int = 1, detail: bool = True) -> ViewReplay:
    """The steps of one view (an analysis error at a step is kept in ``Step.error``: a record
    saved with a contradiction still replays up to it).  ``jobs`` > 1 probes the steps in
    that many processes (the same figures: each step is its own analysis); ``detail=False``:
    the steps' knowledge without the summary's costly headline figures (:func:`probe`).
    A step that runs out of its time ends the view: its steps before it, their findings,
    and the step in ``unfinished_step`` (the :class:`TimeUp` in ``unfinished``)."""
    game = _replayable(record)
    specs = specs if specs is not None else steps(record)
    out: list[Step] = []
    prev: dict[str, str] = {}
    probes = _probes(record, view, budget, detail, specs, jobs, progress)
    late = None
    if probes and isinstance(probes[-1][1], TimeUp):
        late = probes.pop()[1]
    for spec, (k, err) in zip(specs, probes):
        new = {}
        if k is not None:
            new = {c: l for c, l in k.certain.items() if prev.get(c) != l}
            prev = k.certain
            last = next((s.knowledge.uncertainty for s in reversed(out)
                         if s.knowledge is not None and s.knowledge.uncertainty is not None),
                        None)
            if k.bound and last is not None and k.uncertainty is not None \
                    and last < k.uncertainty:
                # what a view knows only grows, so the count never rises: the last figure
                # is a tighter upper bound
                k.uncertainty = last
        out.append(Step(spec.index, spec.lines, spec.text if spec.index else game.opening,
                        k, new, err))
    vr = ViewReplay(view, out)
    vr.findings = game.findings(record, view, out, specs[:len(out)])
    if late is not None:
        vr.unfinished, vr.unfinished_step = late, specs[len(out)].index
    return vr


def _view_job(args):
    text, path, view, budget, n, detail = args
    from solver.records import parse_record

    restart()       # reading the record again: not on the clock of the parent's start
    rec = parse_record(text, path)
    return replay_view(rec, view, budget, steps(rec)[:n], detail=detail)


def replay(record, views: list[str | None] | None = None, *, budget: Budget = STEP_BUDGET,
           jobs: int = 1, upto: int | None = None,
           progress: Callable[[Any, int, int], None] | None = None,
           detail: bool = True) -> Replay:
    """Replay ``record`` from each of ``views`` (default: the recorder's view, or the public
    view when the record has no ``me:``), for its first ``upto`` steps after the deal (all
    by default).  ``jobs`` > 1 replays views in parallel processes.  Moves that needed
    certainty (announcements, claims) are checked from the mover's view whenever the record
    supports it (:meth:`~solver.games.Game.checks`).  ``detail=False``: the steps without
    the summary's costly headline figures (a replay shown as a table needs none of them);
    the steps the checks judge are then analysed in full."""
    if views is None:
        views = [record.header.me]
    specs = steps(record)
    if upto is not None:
        specs = specs[: upto + 1]
    result: dict[str, ViewReplay] = {}
    text = _text_of(record) if jobs > 1 and len(views) > 1 else None
    if text is not None:      # workers re-read the file, so its line numbers are kept
        from solver.parallel import pool     # workers that a Ctrl-C stops at once

        with pool(min(jobs, len(views))) as ex:
            jobs_args = [(text, record.path, v, budget, len(specs), detail) for v in views]
            for vr in ex.map(_view_job, jobs_args):
                result[vr.label] = vr
                if progress:
                    progress(vr.view, len(specs), len(specs))
    else:                     # one view (or no file to share): its steps in parallel
        for v in views:
            vr = replay_view(record, v, budget, specs, progress, jobs=jobs, detail=detail)
            result[vr.label] = vr
    late = [vr for vr in result.values() if vr.unfinished is not None]
    first = min(late, key=lambda vr: len(vr.steps)) if late else None
    stop: tuple[TimeUp | None, int | None, str | None] | None = \
        (first.unfinished, first.unfinished_step, first.label) if first else None
    try:    # the checks of the steps every view finished
        checks = _checks(record, specs[:len(first.steps)] if first else specs, result,
                         budget, detail)
    except TimeUp as e:
        checks = []
        stop = stop or (TimeUp(e.seconds, f"the checks of the replay: {e.what}"), None, None)
    out = Replay(record.game, record.path, get_game(record.game).measure, result, checks,
                 len(record.statements))
    if stop is not None:
        out.unfinished, out.unfinished_step, out.unfinished_view = stop
    return out


def _text_of(record) -> str | None:
    """The record's own file text when it is still what was parsed (keeps line numbers)."""
    if not record.path:
        return None
    try:
        with open(record.path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    from solver.records import parse_record

    try:
        again = parse_record(text, record.path, validate=False)
    except SleuthError:
        return None
    same = [(s.line, s.text) for s in again.statements] == \
        [(s.line, s.text) for s in record.statements]
    return text if same else None


# ----- findings ----------------------------------------------------------------------------
def _checks(record, specs, result, budget, detail=True) -> list[Finding]:
    game = get_game(record.game)

    def knowledge_of(player, index):
        vr = result.get(player)
        if vr is not None and (detail or vr.steps[index].knowledge is None):
            return vr.steps[index].knowledge
        restart()
        try:
            return probe(specs[index].record, player, budget)
        except TimeUp:
            raise
        except SleuthError:
            return None

    def first_safe(player, key):
        vr = result.get(player)
        if vr is None:
            return None
        s = vr.first(lambda k: key in k.safe)
        return s.index if s is not None else None

    # the checks are an analysis of their own: a fresh time budget (the steps were timed
    # each on its own, in worker processes, while this process's clock ran on)
    restart()
    return game.checks(record, specs, knowledge_of, first_safe)
