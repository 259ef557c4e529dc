"""``sleuth analyze`` for Mysterium: the psychics' notebook.

:func:`analyze` replays the record, counts the consistent secret assignments exactly and
gathers, per psychic and stage, the candidates with their probabilities (D1, D2), forced
cards, the clock (D3), the clairvoyancy track (D5), the vision deck and crows (D4) and the
epilogue count (D6).  ``MysteriumAnalysis.to_json()`` adds Mysterium keys to the contract's
``game``, ``view``, ``consistent``, ``exact`` and ``cards`` (docs/mysterium.md lists them).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from solver.errors import InconsistentError
from solver.errors import RuleError
from solver.mysterium.inference import UNUSED, Deduction, deduce, kind_model, mix
from solver.mysterium.epilogue import Count
from solver.mysterium.events import card_name
from solver.mysterium.options import CARDS_SEEN, KINDS, LAST_HOUR, band
from solver.mysterium.engine import Fact, Play, TooManyFillings, replay, replay_all
from solver.mysterium.events import Reveal, Secret, Unseen


def facts_for(play: Play, view: str | None) -> list[Fact]:
    """The observations a view has: every revealed guess (public, MY-12); the ghost's
    ``secret`` lines only in the ghost's own view (MY-5, the screen)."""
    ghost = play.roster.ghost
    return [f for f in play.facts if f.source == "guess" or view == ghost]


def check_consistent(play: Play, facts: list[Fact]) -> Deduction:
    d = deduce(play.table, play.roster.psychics, facts)
    if not d.consistent:
        raise conflict_error(play, facts) or InconsistentError(
            "the statements cannot all be true together (D2: each psychic has one card of "
            "each kind, no two the same)")
    return d


def _where(location: str) -> str:
    return "the unused cards" if location == UNUSED else f"{location}'s secret cards"


def conflict_error(play: Play, facts) -> InconsistentError | None:
    """The contradiction of ``facts``: a minimal set of conflicting lines of one kind,
    quoted, with the sentence saying why (as every game words it), or ``None``."""
    for kind, cards in play.table.items():
        if deduce({kind: cards}, play.roster.psychics, facts).consistent:
            continue
        model = kind_model(kind, cards, play.roster.psychics, facts)
        e = model.conflict_error(play.texts, loc_label=_where)
        if e is not None:
            return e
    return None


@dataclass
class StageInfo:
    kind: str
    status: str                          # found | current | later
    found: int | None                    # the card in the sleeve (or known from a right guess)
    wrong: tuple[int, ...]               # D1: the psychic's wrong guesses at this stage
    d1: tuple[int, ...]                  # D1 candidates
    probabilities: dict[int, Fraction]   # exact, after D2 (zeros left out)
    excluded_by_d2: tuple[int, ...]      # D1 candidates that the all-different rules out
    forced: int | None                   # the only possible card, when not yet found

    def to_json(self) -> dict:
        return {"status": self.status, "found": self.found, "wrong": list(self.wrong),
                "d1_candidates": list(self.d1),
                "candidates": {str(c): float(p) for c, p in self.probabilities.items()},
                "excluded_by_all_different": list(self.excluded_by_d2),
                "forced": self.forced}


@dataclass
class PsychicInfo:
    name: str
    player: str
    stage: str                            # character | location | object | epilogue
    stages: dict[str, StageInfo]
    needed: int                           # D3 N(p)
    guesses_left: int                     # D3 G (a placed guess that may be right counts)
    worst_case: int                       # D3: sum of |possible| over the stages still to find
    finished_hour: int | None
    score: int                            # D5 track position
    bonus: int                            # MY-13 early bonus included in score
    band: str | None                      # MY-19 (None with 2 or 3 players)
    sees: int                             # shared-vision cards seen (MY-19, MY-20)
    tokens_left: int
    pending: dict | None = None           # a placed, unrevealed guess (D5)

    @property
    def slack(self) -> int:
        return self.guesses_left - self.needed

    @property
    def hopeless(self) -> bool:
        return self.needed > self.guesses_left

    @property
    def at_risk(self) -> bool:
        return self.worst_case > self.guesses_left

    def to_json(self) -> dict:
        return {"player": self.player, "stage": self.stage,
                "stages": {k: s.to_json() for k, s in self.stages.items()},
                "needed": self.needed, "guesses_left": self.guesses_left,
                "slack": self.slack, "worst_case": self.worst_case,
                "at_risk": self.at_risk, "hopeless": self.hopeless,
                "finished_hour": self.finished_hour,
                "clairvoyance": {"score": self.score, "early_bonus": self.bonus,
                                 "band": self.band, "sees": self.sees,
                                 "tokens_left": self.tokens_left},
                "pending_guess": self.pending}


@dataclass
class MysteriumAnalysis:
    view: str | None
    play: Play
    deduction: Deduction
    psychics: list[PsychicInfo]
    count: Count | None
    game: str = "mysterium"
    consistent: bool = True
    exact: bool = True
    notes: list[str] = field(default_factory=list)
    #: estimates only (a sample of the unseen statements' fillings): the 95% half-width
    error: float | None = None
    #: a record with unseen statements: the lines, the fillings counted, each psychic's
    #: stage and the outcome over them (``None`` for a record that says everything)
    unseen: dict | None = None
    #: with unseen statements: whether some filling lets the psychics still win
    can_win_any: bool | None = None
    #: with unseen statements: each filling's own analysis (its state, its own deduction)
    #: with its probability, for a report that states only what holds in every filling
    #: (not in ``to_json``)
    courses: list[tuple[Fraction, "MysteriumAnalysis"]] = field(default_factory=list)
    #: with unseen statements: the text report's note on them (``notes`` has the JSON's,
    #: which describes the likeliest filling's state that the JSON keys carry)
    course_note: str | None = None

    @property
    def roster(self):
        return self.play.roster

    #: whether some consistent assignment makes right, together, every placed guess that
    #: must be right for its psychic to finish (set by :func:`analyze`)
    critical_possible: bool = True

    @property
    def can_win(self) -> bool:
        """Whether the psychics can still win: no loss yet (MY-15, MY-22), every N(p) <= G
        (D3, with a placed, unrevealed guess counted while it may be right: MY-12), and
        the placed guesses that must all be right can be right together (MY-10: at most
        one psychic is right on a card; D2)."""
        if self.can_win_any is not None:
            return self.can_win_any
        if self.play.outcome is not None:
            return self.play.outcome == "won"
        return self.critical_possible and not any(p.hopeless for p in self.psychics)

    def card_locations(self) -> dict[str, dict[str, Fraction]]:
        """Every table card -> psychic (or ``unused``) -> probability (zeros left out)."""
        out = {}
        for kind, res in self.deduction.kinds.items():
            for c in res.cards:
                locs = {p: res.p(p, c) for p in res.psychics if res.p(p, c)}
                u = res.p_unused(c)
                if u:
                    locs[UNUSED] = u
                out[card_name(kind, c)] = locs
        return out

    def to_json(self) -> dict:
        play, r = self.play, self.roster
        groups = {}
        if play.phase in ("epilogue", "over") and play.all_done():
            for n, ps in play.group_of().items():
                g = play.groups.get(n)
                cards = (dict(play.sleeve[ps]) if ps is not None
                         else {k: c for k, c in g.cards} if g is not None else None)
                groups[str(n)] = {"psychic": ps, "cards": cards}
        epilogue = None
        if self.count is not None:
            epilogue = {"groups": groups, **self.count.to_json(),
                        "verdict": play.verdict(), "culprit": play.culprit,
                        "culprit_prior": ({str(n): 1 / r.n_groups for n in groups}
                                          if r.options.culprit == "random" else None)}
        return {
            "game": self.game, "view": self.view, "consistent": self.consistent,
            "exact": self.exact,
            "cards": {c: {loc: float(p) for loc, p in locs.items()}
                      for c, locs in self.card_locations().items()},
            "assignments": self.deduction.assignments() if self.deduction.kinds else None,
            "setup": {**r.setup.to_json(), "ghost": r.ghost, "psychics": list(r.psychics),
                      "owners": dict(zip(r.psychics, r.owners)), "eldest": r.eldest,
                      "table": {k: list(v) for k, v in play.table.items()},
                      "options": list(r.options.variant())},
            "clock": {"hour": play.hour, "last_hour": LAST_HOUR, "phase": play.phase,
                      "hours_left": LAST_HOUR - play.hour if play.hour else LAST_HOUR,
                      "can_win": self.can_win, "outcome": play.outcome,
                      "outcome_rule": play.outcome_rule or None},
            "psychics": {p.name: p.to_json() for p in self.psychics},
            "visions": {"logged": play.visions_logged, "deck": play.deck, "discard": play.discard,
                        "ghost_hand": play.ghost_hand, "held": dict(play.held),
                        "reshuffles": play.reshuffles, "crows_used": play.crows_used,
                        "crows_left": play.crows_left()},
            "clairvoyance_votes": [{"hour": tv.hour, "voter": tv.voter, "target": tv.target,
                                    "agree": tv.agree, "line": tv.line, "scored": tv.scored}
                                   for tv in play.token_votes],
            "epilogue": epilogue,
            "notes": list(self.notes),
            **({"error": self.error} if self.error is not None else {}),
            **({"unseen": self.unseen} if self.unseen is not None else {}),
        }


def _stage_infos(play: Play, d: Deduction, p: str) -> dict[str, StageInfo]:
    out = {}
    cur = play.stage[p]
    for i, kind in enumerate(KINDS):
        res = d.kinds.get(kind)
        if res is None:
            continue
        found = play.sleeve[p].get(kind) if i < cur else None
        status = "found" if i < cur else "current" if i == cur else "later"
        wrong = tuple(play.wrong[p][kind])
        taken = {c for q, cards in play.sleeve.items() if q != p for k, c in cards.items()
                 if k == kind}
        d1 = (found,) if found is not None else tuple(
            c for c in res.cards if c not in taken and c not in wrong)
        probs = res.distribution(p)
        forced = res.forced(p) if found is None else None
        out[kind] = StageInfo(kind, status, found, wrong, d1, probs,
                              tuple(c for c in d1 if c not in probs), forced)
    return out


def _analysis_of(play: Play, view: str | None, d: Deduction) -> MysteriumAnalysis:
    """The analysis of one play (a record, or one filling of its unseen statements) with the
    deduction ``d`` (the play's own, or the mixture of every filling's)."""
    r = play.roster
    facts = facts_for(play, view)
    infos = []
    critical = []      # placed guesses that must be right for their psychic to finish
    for p in r.psychics:
        stages = _stage_infos(play, d, p)
        worst = sum(len(s.probabilities) for s in stages.values() if s.status != "found")
        score = play.score[p]
        bnd = band(score, r.options.clairvoyance_bands) if r.clairvoyance else None
        pending = None
        left = play.guesses_left(p)
        g = play.pending.get(p)
        if g is not None and g.kind in d.kinds:
            pr = d.kinds[g.kind].p(p, g.card)
            pending = {"card": card_name(g.kind, g.card), "p_right": float(pr),
                       "best_token": "agree" if pr >= Fraction(1, 2) else "disagree",
                       "expected_gain": float(max(pr, 1 - pr))}
            if pr > 0:
                # D3 counts guesses from the start of an hour (MY-15); mid-hour a placed,
                # unrevealed guess is still in play while some consistent assignment
                # makes it right (MY-12: a right guess advances the stage now)
                left += 1
                if left == 3 - play.stage[p]:
                    critical.append(Fact(g.kind, p, g.card, True, 0, "guess"))
        infos.append(PsychicInfo(
            name=p, player=r.owner_of(p),
            stage=KINDS[play.stage[p]] if play.stage[p] < 3 else "epilogue",
            stages=stages, needed=3 - play.stage[p], guesses_left=left,
            worst_case=worst, finished_hour=play.finished_hour.get(p), score=score,
            bonus=play.bonus[p], band=bnd, sees=CARDS_SEEN[bnd] if bnd else 3,
            tokens_left=play.tokens_left(p) if r.clairvoyance else 0, pending=pending))
    count = play.count() if play.phase in ("epilogue", "over") and play.all_done() else None
    notes = []
    if view == r.ghost:
        notes.append("the ghost's view: the 'secret' lines are used (MY-5)")
    elif any(f.source == "secret" for f in play.facts):
        notes.append("'secret' lines are the ghost's and are not used in this view")
    if play.phase == "setup" and len(play.table) < 3:
        notes.append("lay out the cards with 'table character: ...' (and location, object)")
    ok = not critical or deduce(play.table, r.psychics, facts + critical).consistent
    return MysteriumAnalysis(view, play, d, infos, count, notes=notes, critical_possible=ok)


#: the fillings of a record's unseen statements counted exactly, at most (beyond them, a
#: sample of :data:`SAMPLES` fillings gives estimates)
MAX_FILLINGS = 1000
SAMPLES = 200


def analyze(record, view: str | None = None) -> MysteriumAnalysis:
    """Analyse ``record`` from ``view`` (a player, or ``None`` for the public view).

    A record with unseen statements (``P: ?``, ``reveal P: ?``) is analysed as the mixture of
    its legal fillings: every consistent pair of a secret assignment and a filling equally
    likely (docs/mysterium.md, "What the recorder did not see"); exact while there are at most
    :data:`MAX_FILLINGS` of them, estimated from a sample otherwise.

    Raises :class:`~solver.errors.InconsistentError` when the observations conflict.  A view
    other than the ghost's does not use the ghost's ``secret`` lines; when the record with
    them conflicts (which ``sleuth log`` and the ghost's view refuse), a note says so, naming
    the lines (docs/mysterium.md, "The ghost's lines in another view")."""
    a = _analyze(record, view)
    ghost = a.play.roster.ghost
    if view != ghost and any(isinstance(st.event, Secret) for st in record.statements):
        try:
            check(record)
        except InconsistentError as e:
            why = e.reason or "lines " + ", ".join(map(str, e.conflict))
            rule = f" ({e.rule})" if e.rule and f"({e.rule})" not in why else ""
            a.notes.append(f"the record with the ghost's 'secret' lines contradicts itself: "
                           f"{why}{rule}; this view does not use them, but 'sleuth analyze "
                           f"--as {ghost}' and 'sleuth log' refuse the record (exit 3) until "
                           "a line is fixed")
    return a


def _analyze(record, view: str | None = None) -> MysteriumAnalysis:
    if not any(is_unseen(st.event) for st in record.statements):
        play = replay(record)
        return _analysis_of(play, view, check_consistent(play, facts_for(play, view)))
    try:
        parts = [(p, 1) for p in replay_all(record, merge=False, cap=MAX_FILLINGS)]
        sampled = False
    except TooManyFillings:
        parts, sampled = _sample(record), True
    return _mixture(record, view, parts, sampled)


def is_unseen(ev) -> bool:
    """A statement with a part the recorder did not see (``P: ?``, ``reveal P: ?``)."""
    return isinstance(ev, Unseen) or (isinstance(ev, Reveal) and ev.right is None)


def _sample(record, n: int = SAMPLES, seed: int = 0) -> list[tuple[Play, int]]:
    """``n`` fillings drawn one statement at a time among the legal ones, each in proportion
    to the fillings it stands for (a wrong guess on one of L cards: L; a right one or a vote:
    1); a filling that a later statement refuses is dropped.  Each comes with its importance
    weight: the product over its draws of (the choices' total) / (the chosen one's), scaled
    to an integer."""
    import random

    rng = random.Random(seed)
    out: list[tuple[Play, Fraction]] = []
    roster = replay(record, upto=0).roster
    for _ in range(n):
        play, weight = Play(roster, recorder=record.header.me), Fraction(1)
        try:
            for st in record.statements:
                options = play.branch(st)
                if len(options) > 1:
                    q = [_stands_for(o, st.line) for o in options]
                    i = rng.choices(range(len(options)), weights=q)[0]
                    weight *= Fraction(sum(q), q[i])
                    play = options[i]
                else:
                    play = options[0]
        except RuleError:
            continue
        out.append((play, weight))
    if not out:
        replay(record)          # the rule error of the first filling
    scale = 1
    for _, w in out:
        scale = scale * w.denominator // math.gcd(scale, w.denominator)
    return [(p, int(w * scale)) for p, w in out]


def _stands_for(play: Play, line: int) -> int:
    """How many fillings of the statement on ``line`` the play ``play`` stands for."""
    last = play.facts[-1] if play.facts else None
    return len(last.among) if last is not None and last.line == line and last.among else 1


def _mixture(record, view, parts: list[tuple[Play, int]], sampled: bool) -> MysteriumAnalysis:
    """The analysis of a record with unseen statements from its fillings ``parts`` (every
    legal one, or a weighted sample)."""
    done = []
    for play, m in parts:
        d = deduce(play.table, play.roster.psychics, facts_for(play, view))
        if d.consistent:
            done.append((play, m, d))
    if not done:
        raise _unseen_conflict(record, [p for p, _ in parts], view)
    weights = [m * d.assignments() for _, m, d in done]
    total = sum(weights)
    best = max(range(len(done)), key=lambda i: weights[i])
    mixed = mix([(d, m) for _, m, d in done])
    a = _analysis_of(done[best][0], view, mixed)
    a.courses = [(Fraction(w, total), _analysis_of(play, view, d))
                 for (play, _, d), w in zip(done, weights)]
    a.can_win_any = a.can_win or any(c.can_win for _, c in a.courses)
    stages: dict[str, dict[str, Fraction]] = {}
    outcomes: dict[str, Fraction] = {}
    for (play, _, _), w in zip(done, weights):
        for ps in play.roster.psychics:
            s = KINDS[play.stage[ps]] if play.stage[ps] < 3 else "epilogue"
            row = stages.setdefault(ps, {})
            row[s] = row.get(s, Fraction(0)) + Fraction(w, total)
        o = play.outcome or "open"
        outcomes[o] = outcomes.get(o, Fraction(0)) + Fraction(w, total)
    order = (*KINDS, "epilogue")
    stages = {ps: dict(sorted(row.items(), key=lambda kv: order.index(kv[0])))
              for ps, row in stages.items()}
    lines = [st.line for st in record.statements if is_unseen(st.event)]
    a.exact = not sampled
    if sampled:
        a.error = _half_width(done, weights)
    a.unseen = {"lines": lines, "fillings": len(done), "sampled": sampled,
                "shown": float(Fraction(weights[best], total)),
                "stages": {ps: {s: float(p) for s, p in row.items()}
                           for ps, row in stages.items()},
                "outcomes": {o: float(p) for o, p in outcomes.items()}}
    what = ("estimates from a sample of " + str(len(done)) + " fillings"
            if sampled else f"exact over the {len(done)} fillings that fit")
    head = ("unseen statements on line" + ("s " if len(lines) > 1 else " ")
            + ", ".join(map(str, lines)) + f": the probabilities are {what} "
            "(every consistent pair of a deal and a filling equally likely, and "
            "the count is of those pairs)")
    uncertain = ("; uncertain: " + "; ".join(
        f"{ps} " + ", ".join(f"{s} {float(p):.1%}" for s, p in row.items())
        for ps, row in stages.items() if len(row) > 1)
        if any(len(row) > 1 for row in stages.values()) else "")
    a.notes.insert(0, head + "; the state shown is the likeliest filling's "
                   f"({float(weights[best]) / total:.1%})" + uncertain)
    a.course_note = (head + "; a cell states only what holds in every filling, and gives "
                     "each value's chance where they differ" + uncertain)
    return a


def _half_width(done, weights) -> float:
    """The 95% half-width of the sampled probabilities (the largest over the cards: a ratio
    estimate's normal approximation)."""
    total = sum(weights)
    worst = 0.0
    kinds = done[0][2].kinds
    for kind, res in kinds.items():
        for ps in res.psychics:
            for c in res.cards:
                xs = [float(d.kinds[kind].p(ps, c)) for _, _, d in done]
                p = sum(w * x for w, x in zip(weights, xs)) / total
                var = sum((w / total) ** 2 * (x - p) ** 2 for w, x in zip(weights, xs))
                worst = max(worst, 1.96 * math.sqrt(var))
    return worst


def _unseen_conflict(record, plays: list[Play], view) -> InconsistentError:
    """No filling of the unseen statements fits the rest: a conflicting set of lines that
    holds under every filling (the statements seen, when they conflict by themselves; else
    the unseen lines with every filling's minimal conflicting set)."""
    seen = [f for f in facts_for(plays[0], view) if not _from_unseen(record, f)]
    e = conflict_error(plays[0], seen)
    if e is not None:
        return e
    lines = {st.line for st in record.statements if is_unseen(st.event)}
    for play in plays[:200]:
        facts = facts_for(play, view)
        for kind, cards in play.table.items():
            if not deduce({kind: cards}, play.roster.psychics, facts).consistent:
                lines |= set(kind_model(kind, cards, play.roster.psychics, facts).conflict()
                             or {f.line for f in facts if f.kind == kind})
                break
    texts = plays[0].texts
    core = sorted(lines)
    return InconsistentError(
        "no deal fits the record; these statements conflict: "
        + "; ".join(f"line {n}: {texts.get(n, '')}" for n in core), conflict=core,
        reason="no way to fill in the unseen statements lets a deal fit them together")


def _from_unseen(record, fact) -> bool:
    ev = next((st.event for st in record.statements if st.line == fact.line), None)
    return ev is None or is_unseen(ev)


def check(record) -> None:
    """Raise :class:`InconsistentError` if the record's observations (the ghost's lines
    included) conflict (with unseen statements: under every filling)."""
    if any(is_unseen(st.event) for st in record.statements):
        analyze(record, replay(record, upto=0).roster.ghost)
        return
    play = replay(record)
    check_consistent(play, play.facts)
