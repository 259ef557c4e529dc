"""``sleuth analyze`` for Mysterium: the psychics' notebook.

:func:`analyze` replays the record, counts the consistent secret assignments exactly and
gathers, per psychic and stage, the candidates with their probabilities (D1, D2), forced
cards, the clock (D3), the clairvoyancy track (D5), the vision deck and crows (D4) and the
epilogue count (D6).  ``MysteriumAnalysis.to_json()`` adds Mysterium keys to the contract's
``game``, ``view``, ``consistent``, ``exact`` and ``cards`` (docs/mysterium.md lists them).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from solver.errors import InconsistentError
from solver.mysterium.inference import UNUSED, Deduction, deduce, kind_model
from solver.mysterium.epilogue import Count
from solver.mysterium.events import card_name
from solver.mysterium.options import CARDS_SEEN, KINDS, LAST_HOUR, band
from solver.mysterium.engine import Fact, Play, replay


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


def analyze(record, view: str | None = None) -> MysteriumAnalysis:
    """Analyse ``record`` from ``view`` (a player, or ``None`` for the public view).

    Raises :class:`~solver.errors.InconsistentError` when the observations conflict."""
    play = replay(record)
    r = play.roster
    facts = facts_for(play, view)
    d = check_consistent(play, facts)
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


def check(record) -> None:
    """Raise :class:`InconsistentError` if the record's observations (the ghost's lines
    included) conflict."""
    play = replay(record)
    check_consistent(play, play.facts)
