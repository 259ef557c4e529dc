"""Hindsight replay: a record statement by statement, with what each view knew at each step.

Data only (no printing): :func:`replay` analyses the record after every *step* from every
requested view and returns a :class:`Replay` -- per step the view's uncertainty (the log10
of the number of candidates: mystery hands, consistent deals, secret assignments; the
entropy in bits for Twenty-Two), the cards that became certain, a game summary (the
mystery-hand candidates; the certain cards and safe claims per half-suit; the candidates
per psychic; the scores), and the moments worth telling (:class:`Finding`): when the view
could first have announced or claimed safely, and announcements or claims made while the
announcer could not yet be sure.

A *step* is one statement, except that

* the statements before the first move (the deal: ``holds``, ``faceup``, ``table ...``) are
  step 0, the opening position;
* a Literature claim and the ``shown`` line that resolves it are one step (the claim alone
  means "exactly as claimed", which the shown line corrects); so are a Twenty-Two deal and
  the ``holds`` lines of the hands dealt;
* in a *complete* Mystery Hand record (every hand listed) the hands are known to their
  holders from the start, so every step keeps all of them (each view then uses only what
  that player saw).

Analyses reuse each game's own inference with modest budgets (estimates are marked as
such; certainties are always complete).

>>> from solver.records import parse_record
>>> from solver.mystery_hand import EXAMPLE_1
>>> r = replay(parse_record(EXAMPLE_1))
>>> [s.summary["candidates"] for s in r.views["P1"].steps]
[91390, 73815, 52360, 5984]
>>> r.views["P1"].steps[3].new_certain["KS"]
'mystery'
"""
from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from solver.errors import InconsistentError, NotationError, SleuthError
from solver.games import get_game
from solver.records import Record, Statement

#: events that set up the deal: leading ones form step 0
SETUP_EVENTS = {
    "mystery-hand": ("Holds", "FaceUp", "MysteryCards"),
    "literature": ("Holds",),
    "mysterium": ("TableCards", "Secret"),
    "twenty-two": (),
    "hand": (),
}

#: what ``uncertainty`` measures, per game
MEASURES = {
    "mystery-hand": "log10 of the candidates for the mystery hand",
    "literature": "log10 of the deals consistent with what the view saw",
    "mysterium": "log10 of the consistent secret assignments",
    "twenty-two": "entropy of the card locations (bits)",
}

PUBLIC = "public"


@dataclass(frozen=True)
class Budget:
    """Budgets of the per-step analyses (the games' own defaults are for live play)."""

    max_states: int = 100_000
    time_budget: float = 0.5


# ----- steps -----------------------------------------------------------------------------
@dataclass(frozen=True)
class StepSpec:
    """One step: the statements it adds and the record of everything known after it."""

    index: int
    statements: tuple[Statement, ...]
    record: Record

    @property
    def lines(self) -> list[int]:
        return [s.line for s in self.statements]

    @property
    def text(self) -> str:
        return " / ".join(s.text for s in self.statements)


def _kind(st: Statement) -> str:
    return type(st.event).__name__


def statement_groups(record) -> list[list[int]]:
    """Indices of the record's statements, grouped into steps that belong together (a
    Literature claim and its ``shown`` line; a Twenty-Two deal and the hands dealt)."""
    groups: list[list[int]] = []
    sts = record.statements
    i = 0
    while i < len(sts):
        g = [i]
        if record.game == "literature" and _kind(sts[i]) == "Claim":
            if i + 1 < len(sts) and _kind(sts[i + 1]) == "Shown":
                g.append(i + 1)
        elif record.game == "twenty-two" and _kind(sts[i]) == "Deal":
            while g[-1] + 1 < len(sts) and _kind(sts[g[-1] + 1]) == "Holds":
                g.append(g[-1] + 1)
        groups.append(g)
        i = g[-1] + 1
    return groups


def _complete_mystery_hand(record) -> bool:
    if record.game != "mystery-hand":
        return False
    from solver.mystery_hand.inference import is_complete

    return is_complete(record)


def steps(record) -> list[StepSpec]:
    """The steps of a record: step 0 is the opening (the leading deal statements), then one
    step per statement group (see the module doc)."""
    setup = SETUP_EVENTS.get(record.game, ())
    groups = statement_groups(record)
    sts = record.statements
    lead = 0
    while lead < len(groups) and all(_kind(sts[i]) in setup for i in groups[lead]):
        lead += 1
    hoist = _complete_mystery_hand(record)

    def upto(n: int) -> Record:
        if hoist:
            keep = tuple(s for i, s in enumerate(sts) if i < n or _kind(s) in setup)
            return replace(record, statements=keep)
        return record.prefix(n)

    first = groups[lead - 1][-1] + 1 if lead else 0
    out = [StepSpec(0, tuple(sts[:first]), upto(first))]
    for g in groups[lead:]:
        end = g[-1] + 1
        out.append(StepSpec(len(out), tuple(sts[i] for i in g), upto(end)))
    return out


# ----- what one view knows at one step -----------------------------------------------------
@dataclass
class Knowledge:
    """What a view knows after one step."""

    certain: dict[str, str]                 # card -> where it certainly is
    uncertainty: float | None               # see MEASURES; None when not measured
    exact: bool = True                      # uncertainty exact (else an estimate or bound)
    summary: dict = field(default_factory=dict)
    determined: bool = False                # Mystery Hand: the view can announce
    bound: bool = False                     # uncertainty is an upper bound (too many to count)
    safe: dict[str, dict] = field(default_factory=dict)   # Literature: half -> allocation


def _log10(n) -> float | None:
    if n is None or n <= 0:
        return None
    return math.log10(n)


def _probe_mystery_hand(record, view, budget: Budget) -> Knowledge:
    from solver.model.counting import OverBudget
    from solver.mystery_hand import analysis

    try:
        a = analysis.analyze(record, view, max_states=budget.max_states,
                             time_budget=budget.time_budget)
    except OverBudget:          # the estimate itself ran out of time: the full budget
        a = analysis.analyze(record, view)
    certain = {c: next(iter(ls)) for c, ls in a.possible.items()
               if c != "Jk" and len(ls) == 1}
    c = a.mystery
    if c.count is not None:
        unc, exact = _log10(c.count), True
    else:                       # too many to count: an upper bound from the possible cards
        maybe = sum(1 for n, ls in a.possible.items() if n != "Jk" and a.target in ls)
        need = 4 - len(c.certain)
        unc, exact = _log10(math.comb(maybe - len(c.certain), need)), False
    ans = c.answer()
    summary = {"candidates": c.count, "determined": c.determined,
               "answer": [repr(x) for x in ans] if ans else None,
               "in_mystery": [repr(x) for x in c.certain], "target": a.target,
               "verdict": a.verdict}
    if c.top and not c.determined:
        summary["best"] = {"cards": [repr(x) for x in c.top[0][0]], "p": c.top[0][1]}
    return Knowledge(certain, unc, exact, summary, c.determined, bound=c.count is None)


def _probe_literature(record, view, budget: Budget) -> Knowledge:
    from solver.literature import infer
    from solver.literature.play import Play
    from solver.model.counting import OverBudget, count_deals

    play = Play.of(record)
    t = play.table
    vm = infer.build(record, view, play)
    bb = infer.backbone(vm)
    if not bb.consistent:
        raise infer.conflict_error(vm)
    poss = {k: ({vm.fixed[k]} if k in vm.fixed else set(bb.possible[k])) for k in t.keys}
    unc, exact = None, False
    try:
        cnt = count_deals(vm.model, max_states=budget.max_states,
                          time_budget=budget.time_budget, support=bb.possible)
        unc, exact = _log10(cnt.total), cnt.exact
    except OverBudget:
        pass
    certain: dict[str, str] = {}
    for card, ks in t.card_keys.items():
        if all(len(poss[k]) == 1 for k in ks):
            locs = sorted({next(iter(poss[k])) for k in ks})
            certain[repr(card)] = ", ".join(locs)
    team = t.team_of(view) if view in t.players else None
    halves: dict[str, dict] = {}
    safe: dict[str, dict] = {}
    for h in t.halves:
        hk = play.keys_of_half(h.name)
        st = play.status[h.name]
        status = st[0] if st[0] != "won" else f"won:{t.team_name(st[1])}"
        n_certain = sum(1 for k in hk if len(poss[k]) == 1 and next(iter(poss[k])) != "out")
        info = {"status": status, "certain": n_certain, "cards": len(hk)}
        if status == "open" and team is not None and all(
                len(poss[k]) == 1 and next(iter(poss[k])) in team for k in hk):
            alloc: dict[str, list[str]] = {}
            for k in hk:
                alloc.setdefault(next(iter(poss[k])), []).append(repr(t.key_card[k]))
            safe[h.name] = alloc
            info["safe"] = True
        halves[h.name] = info
    summary = {"halves": halves, "safe_claims": sorted(safe), "turn": play.turn,
               "score": play.score_by_team()}
    return Knowledge(certain, unc, exact, summary, safe=safe)


def _probe_mysterium(record, view, budget: Budget) -> Knowledge:
    from solver.mysterium.analysis import analyze

    a = analyze(record, view)
    certain = {}
    for card, locs in a.card_locations().items():
        if len(locs) == 1 and next(iter(locs.values())) == 1:
            certain[card] = next(iter(locs))
    psychics = {}
    for p in a.psychics:
        cur = p.stages.get(p.stage) if p.stage in p.stages else None
        psychics[p.name] = {"stage": p.stage,
                            "candidates": (len(cur.probabilities) if cur is not None
                                           and cur.found is None else None),
                            "forced": cur.forced if cur is not None else None,
                            "needed": p.needed, "guesses_left": p.guesses_left}
    unc = _log10(a.deduction.assignments()) if a.deduction.kinds else None
    summary = {"psychics": psychics, "hour": a.play.hour, "phase": a.play.phase,
               "assignments": a.deduction.assignments() if a.deduction.kinds else None}
    return Knowledge(certain, unc, True, summary)


def _probe_twenty_two(record, view, budget: Budget) -> Knowledge:
    from solver.twenty_two import analysis

    if not any(_kind(s) == "Deal" for s in record.statements):
        view = None            # nothing dealt yet: every view is the public one
    a = analysis.analyze(record, view, max_states=budget.max_states,
                         time_budget=budget.time_budget, samples=50)
    certain = {c: next(iter(ls)) for c, ls in a.possible.items() if len(ls) == 1}
    ent = 0.0
    for name, locs in a.cards.items():
        copies = sum(locs.values())
        for p in locs.values():
            q = p / copies if copies else 0.0
            if 0 < q < 1:
                ent -= copies * q * math.log2(q)
    summary = {"deal": a.deal_number, "unseen": sum(a.unseen.values()),
               "certain": len(certain), "turn": a.turn,
               "totals": {p: s["total"] for p, s in a.scores.items()}}
    return Knowledge(certain, ent, a.exact, summary)


def _probe_hand(record, view, budget: Budget) -> Knowledge:
    sheet = get_game("hand").analyze(record, view)
    standings = sheet.standings()
    leaders = [s for r, s, _ in standings if r == 1]
    summary = {"totals": dict(sheet.totals), "rounds_scored": sheet.rounds_scored,
               "status": sheet.status, "leaders": leaders, "winner": sheet.winner}
    return Knowledge({}, None, True, summary)


PROBES: dict[str, Callable[[Record, Any, Budget], Knowledge]] = {
    "mystery-hand": _probe_mystery_hand,
    "literature": _probe_literature,
    "mysterium": _probe_mysterium,
    "twenty-two": _probe_twenty_two,
    "hand": _probe_hand,
}


def probe(record, view, budget: Budget = Budget()) -> Knowledge:
    """What ``view`` knows after ``record`` (raises the game's errors, e.g.
    :class:`~solver.errors.InconsistentError`)."""
    fn = PROBES.get(record.game)
    if fn is None:
        raise NotationError("this game has no replay", text=record.game)
    return fn(record, view, budget)


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
class Finding:
    """A moment worth telling: ``kind`` is one of ``determined`` (the view could announce),
    ``announce`` (an announcement, ``ok`` true when the announcer was sure), ``safe-claim``
    (a safe claim became available), ``claim`` (a claim, ``ok`` as for announcements),
    ``forced`` (a psychic's card became certain), ``found`` (guessed right), ``lead`` (a
    new leader), ``unchecked`` (the announcer's or claimant's view is not in the record)."""

    kind: str
    step: int
    line: int | None
    player: str | None
    text: str
    ok: bool | None = None
    since: int | None = None          # the step from which it was certain/safe

    def to_json(self) -> dict:
        return {"kind": self.kind, "step": self.step, "line": self.line, "player": self.player,
                "text": self.text, "ok": self.ok, "since": self.since}


@dataclass
class ViewReplay:
    view: str | None
    steps: list[Step]
    findings: list[Finding] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.view if self.view is not None else PUBLIC

    def first(self, pred) -> Step | None:
        return next((s for s in self.steps if s.knowledge is not None and pred(s.knowledge)),
                    None)

    def to_json(self) -> dict:
        return {"view": self.view, "steps": [s.to_json() for s in self.steps],
                "findings": [f.to_json() for f in self.findings]}


@dataclass
class Replay:
    game: str
    path: str | None
    measure: str | None
    views: dict[str, ViewReplay]               # label (player or 'public') -> replay
    checks: list[Finding] = field(default_factory=list)   # announcements / claims checked
    statements: int = 0

    def to_json(self) -> dict:
        return {"game": self.game, "record": self.path, "measure": self.measure,
                "statements": self.statements,
                "views": {k: v.to_json() for k, v in self.views.items()},
                "checks": [f.to_json() for f in self.checks]}


def replay_views(record) -> list[str | None]:
    """Every view the record supports: all players and the public for a complete record,
    otherwise the recorder's own view (``me:``) and the public."""
    h = record.header
    out: list[str | None] = []
    if record.game == "mystery-hand":
        out = list(h.players) if _complete_mystery_hand(record) else [h.me]
    elif record.game == "literature":
        held = {s.event.player for s in record.statements if _kind(s) == "Holds"}
        out = [h.me] + [p for p in h.players if p in held and p != h.me]
    elif record.game == "mysterium":
        from solver.mysterium.roster import roster_of

        ghost = roster_of(h).ghost
        out = [ghost] if any(_kind(s) == "Secret" for s in record.statements) else []
    elif record.game == "hand":
        return [h.me]
    elif record.game == "twenty-two":
        from solver.twenty_two.inference import is_complete
        from solver.twenty_two.rules import replay as run

        out = list(h.players) if is_complete(run(record)) else [h.me]
    else:
        out = [h.me]
    out = [v for v in out if v is not None]
    seen: list[str | None] = []
    for v in out + [None]:
        if v not in seen:
            seen.append(v)
    return seen


def view_supported(record, player: str) -> bool:
    """Whether ``player``'s own view can be reconstructed from the record (to check their
    announcements and claims)."""
    if player == record.header.me:
        return True
    if record.game == "mystery-hand":
        return _complete_mystery_hand(record)
    if record.game == "literature":
        return any(_kind(s) == "Holds" and s.event.player == player for s in record.statements)
    if record.game == "mysterium":
        return True
    return False


def replay_view(record, view, budget: Budget = Budget(), specs: list[StepSpec] | None = None,
                progress: Callable[[Any, int, int], None] | None = None) -> ViewReplay:
    """The steps of one view (an analysis error at a step is kept in ``Step.error``: a record
    saved with a contradiction still replays up to it)."""
    specs = specs if specs is not None else steps(record)
    out: list[Step] = []
    prev: dict[str, str] = {}
    for spec in specs:
        if progress:
            progress(view, spec.index, len(specs))
        try:
            k = probe(spec.record, view, budget)
            err = None
        except InconsistentError as e:      # a contradiction saved with 'force'
            k, err = None, str(e)
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
        opening = "(the deal)" if SETUP_EVENTS.get(record.game) else "(the start)"
        out.append(Step(spec.index, spec.lines, spec.text if spec.index else opening,
                        k, new, err))
    vr = ViewReplay(view, out)
    vr.findings = _view_findings(record, vr, specs)
    return vr


def _view_job(args):
    text, path, view, budget, n = args
    from solver.records import parse_record

    rec = parse_record(text, path)
    return replay_view(rec, view, budget, steps(rec)[:n])


def replay(record, views: list[str | None] | None = None, *, budget: Budget = Budget(),
           jobs: int = 1, upto: int | None = None,
           progress: Callable[[Any, int, int], None] | None = None) -> Replay:
    """Replay ``record`` from each of ``views`` (default: the recorder's view, or the public
    view when the record has no ``me:``), for its first ``upto`` steps after the deal (all
    by default).  ``jobs`` > 1 replays views in parallel processes.  Announcements (Mystery
    Hand) and claims (Literature) are checked from the announcer's or claimant's view
    whenever the record supports it."""
    if views is None:
        views = [record.header.me]
    specs = steps(record)
    if upto is not None:
        specs = specs[: upto + 1]
    result: dict[str, ViewReplay] = {}
    text = _text_of(record) if jobs > 1 and len(views) > 1 else None
    if text is not None:      # workers re-read the file, so its line numbers are kept
        with ProcessPoolExecutor(max_workers=min(jobs, len(views))) as ex:
            jobs_args = [(text, record.path, v, budget, len(specs)) for v in views]
            for vr in ex.map(_view_job, jobs_args):
                result[vr.label] = vr
                if progress:
                    progress(vr.view, len(specs), len(specs))
    else:
        for v in views:
            vr = replay_view(record, v, budget, specs, progress)
            result[vr.label] = vr
    checks = _checks(record, specs, result, budget)
    return Replay(record.game, record.path, MEASURES.get(record.game), result, checks,
                  len(record.statements))


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
def _line(spec_or_step) -> int | None:
    lines = spec_or_step.lines
    return lines[0] if lines else None


def _view_findings(record, vr: ViewReplay, specs: list[StepSpec]) -> list[Finding]:
    game = record.game
    out: list[Finding] = []
    if game == "mystery-hand":
        s = vr.first(lambda k: k.determined)
        if s is not None:
            ans = " ".join(s.summary.get("answer") or [])
            where = f"line {_line(s)}" if s.index else "the deal"
            ev = specs[s.index].statements[0].event if specs[s.index].statements else None
            if (type(ev).__name__ == "Announce" and ev.player == vr.view
                    and not ev.right):
                txt = (f"{vr.label} saw the mystery hand {ans} after announcing wrongly at "
                       f"line {_line(s)}")
            else:
                txt = f"{vr.label} could announce {ans} from step {s.index} ({where})"
            out.append(Finding("determined", s.index, _line(s), vr.view, txt, True, s.index))
    elif game == "literature":
        seen: set[str] = set()
        for s in vr.steps:
            if s.knowledge is None:
                continue
            for h in s.knowledge.safe:
                if h not in seen:
                    seen.add(h)
                    alloc = ", ".join(f"{p} {' '.join(cs)}"
                                      for p, cs in s.knowledge.safe[h].items())
                    out.append(Finding("safe-claim", s.index, _line(s), vr.view,
                                       f"a safe claim of {h} existed for {vr.label}'s team "
                                       f"from step {s.index}: {alloc}", True, s.index))
    elif game == "mysterium":
        from solver.mysterium.roster import roster_of

        seen_forced: dict[tuple, int] = {}
        ghost = vr.view is not None and vr.view == roster_of(record.header).ghost
        for s in ([] if ghost else vr.steps):      # the ghost knows every card from the start
            for name, info in s.summary.get("psychics", {}).items():
                key = (name, info.get("stage"))
                if info.get("forced") is not None and key not in seen_forced:
                    seen_forced[key] = s.index
                    out.append(Finding("forced", s.index, _line(s), name,
                                       f"{name}'s {info['stage']} was certain ({info['forced']}) "
                                       f"from step {s.index}", True, s.index))
        for spec in specs:
            for st in spec.statements:
                ev = st.event
                if _kind(st) == "Guess" and getattr(ev, "right", None):
                    since = seen_forced.get((ev.psychic, ev.kind))
                    txt = f"{ev.psychic} found their {ev.kind} at line {st.line}"
                    if since is not None and since < spec.index:
                        txt += f" (certain since step {since})"
                    out.append(Finding("found", spec.index, st.line, ev.psychic, txt, True,
                                       since))
    elif game == "hand":
        prev: list[str] = []
        for s in vr.steps[1:]:
            lead = s.summary.get("leaders", [])
            if lead and lead != prev:
                out.append(Finding("lead", s.index, _line(s), ", ".join(lead),
                                   f"{' and '.join(lead)} lead after line {_line(s)} "
                                   f"({s.summary['totals'][lead[0]]})", None))
            prev = lead
    return out


def _knowledge_of(record, specs, result, player, index, budget) -> Knowledge | None:
    """``player``'s knowledge after step ``index`` (from the replay when computed)."""
    vr = result.get(player)
    if vr is not None:
        return vr.steps[index].knowledge
    try:
        return probe(specs[index].record, player, budget)
    except SleuthError:
        return None


def _checks(record, specs, result, budget) -> list[Finding]:
    out: list[Finding] = []
    game = record.game
    for spec in specs[1:]:
        st = spec.statements[0]
        kind = _kind(st)
        if game == "mystery-hand" and kind == "Announce":
            p = st.event.player
            verdict = "right" if st.event.right else "wrong"
            if not view_supported(record, p):
                out.append(Finding("unchecked", spec.index, st.line, p,
                                   f"{p} announced at line {st.line} ({verdict}); their view "
                                   "needs a complete record", None))
                continue
            k = _knowledge_of(record, specs, result, p, spec.index - 1, budget)
            if k is None:
                continue
            since = None
            vr = result.get(p)
            if vr is not None:
                first = vr.first(lambda kk: kk.determined)
                since = first.index if first is not None else None
            if k.determined:
                txt = f"{p} announced at line {st.line} ({verdict}) when sure"
                if since is not None and since < spec.index - 1:
                    txt += f"; sure since step {since}, {spec.index - 1 - since} step(s) earlier"
                out.append(Finding("announce", spec.index, st.line, p, txt, True, since))
            else:
                n = k.summary.get("candidates")
                best = k.summary.get("best")
                txt = (f"{p} announced at line {st.line} ({verdict}) while not yet sure: "
                       f"{n if n is not None else 'many'} candidates")
                if best:
                    txt += f", best guess right with p = {best['p']:.3g}"
                out.append(Finding("announce", spec.index, st.line, p, txt, False, None))
        elif game == "literature" and kind == "Claim":
            ev = st.event
            p = ev.claimant
            from solver.literature.play import Play

            res = next((r for r in Play.of(spec.record).results if r.line == st.line), None)
            outcome = res.outcome if res is not None else "?"
            if not view_supported(record, p):
                out.append(Finding("unchecked", spec.index, st.line, p,
                                   f"{p} claimed {ev.half} at line {st.line} ({outcome}); "
                                   "their hand is not in the record", None))
                continue
            k = _knowledge_of(record, specs, result, p, spec.index - 1, budget)
            if k is None:
                continue
            since = None
            vr = result.get(p)
            if vr is not None:
                first = vr.first(lambda kk: ev.half in kk.safe)
                since = first.index if first is not None else None
            if ev.half in k.safe:
                txt = f"{p} claimed {ev.half} at line {st.line} ({outcome}) safely"
                if since is not None and since < spec.index - 1:
                    txt += f"; safe since step {since}, {spec.index - 1 - since} step(s) earlier"
                out.append(Finding("claim", spec.index, st.line, p, txt, True, since))
            else:
                h = k.summary.get("halves", {}).get(ev.half, {})
                txt = (f"{p} claimed {ev.half} at line {st.line} ({outcome}) without a safe "
                       f"claim: {h.get('certain', '?')} of {h.get('cards', '?')} cards certain")
                out.append(Finding("claim", spec.index, st.line, p, txt, False, None))
    return out
