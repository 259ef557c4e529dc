"""The Literature advisor: every legal question and claim of a view now, ranked
(``sleuth suggest``), and the post-game review.  Figures and scoring: ``docs/advisor.md``.

Figures are averages over the view's posterior (:func:`solver.advice.posterior`, uniform
over the deals consistent with what the view saw): exact on an enumeration, else
estimates from exact uniform samples.  A card's current holder in a deal is its public
holder when it moved in public (O2, O3), else the player it was dealt to.

* question A->B c (LIT-6): ``p_yes`` = P(B holds c); ``info_bits`` = H(answer) (the answer
  is a function of the deal, so it is the information the table gets about the cards);
  ``expected_cards`` = the cards expected before the turn passes (LIT-7/8), looking two
  questions ahead (this one, then the best next one given "yes");
  ``leak_bits`` = what the question itself tells a spectator (LIT-6(c)/(d): A holds a card
  of c's half-suit other than c, and not c): -log2 of that fact's probability under the
  spectator's posterior;
* claims (LIT-10, LIT-11): safe claims (every holder certain, from the analysis) first;
  otherwise the most likely allocation within the team with its chances of won /
  cancelled / lost.

>>> from solver.records import parse_record
>>> rec = parse_record('''game: literature
... players: Ana Ben Cleo Dev Eli Fay
... me: Ana
... Ana holds: 2H 3H 4H 6H 7H 9S JC QD
... Ana asks Ben 10S: no
... Ben asks Cleo 9D: no
... Cleo asks Ben 3H: no
... ''')
>>> adv = suggest(rec, "Ana")
>>> adv.actions[0].action, adv.actions[0].more["safe"]
('Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H', True)
"""
from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.advice import NoDeal, ActionAdvice, Advice, Posterior, posterior, wilson
from solver.errors import NotationError
from solver.model.budget import Budget

if TYPE_CHECKING:
    from solver.cards import Card

#: a safe claim outranks any question (it scores one half-suit for sure)
SAFE_CLAIM_SCORE = 10.0
#: an unsafe claim: P(won) - P(lost) minus this premium (asking first can make it safe)
CLAIM_RISK = 0.5
#: weight of the bits a question tells the table, against the cards it wins (in 1/6 units)
LEAK_WEIGHT = 0.05

#: deals per turn in a review (a review runs the advisor once per turn)
REVIEW_SAMPLES = 300


def _holders(vm, post, players):
    """(keys, array rows x keys of the current holder's index in ``players``)."""
    t = vm.table
    keys = list(t.keys)
    m = vm.model
    locs = list(m.locations)
    pidx = {p: i for i, p in enumerate(players)}
    out = np.full((post.n, len(keys)), -1, dtype=np.int16)
    model_cards = {c: i for i, c in enumerate(m.cards)}
    for j, k in enumerate(keys):
        if k in vm.fixed:
            out[:, j] = pidx.get(vm.fixed[k], -1)
        elif k in model_cards:
            col = post.deals[:, model_cards[k]] if post.n else np.zeros(0, dtype=np.int16)
            lut = np.array([pidx.get(l, -1) for l in locs], dtype=np.int16)
            out[:, j] = lut[col]
    return keys, out


def _posterior_of(vm, budget: Budget, seed: int) -> Posterior:
    """The posterior of a view model without unseen events (:func:`solver.advice.posterior`)."""
    kw = {"seed": seed}
    if budget.samples:
        kw["samples"] = budget.samples
    if budget.max_states:
        kw["max_states"] = budget.max_states
    try:
        return posterior(vm.model, **kw)
    except NoDeal:
        raise vm.inconsistent() from None


#: further witness histories the advisor draws on a record with unseen events ('?'), as far
#: as its work allows
HISTORY_DEALS = 24
#: a record with unseen events: the CP-SAT work (deterministic seconds, history.Work) of the
#: view's histories and certainties, and of the spectator's histories (leak_bits) ...
VIEW_WORK = 0.3
PUBLIC_WORK = 0.08
#: ... and the wall-clock seconds the advice may take until both are done, whatever the
#: machine's load
HISTORY_SECONDS = 0.8


@dataclass(frozen=True)
class _Histories:
    """The advisor's deals of a record with unseen events (:func:`_histories`)."""

    post: Posterior
    pub: Posterior | None       # the spectator's histories; None: none found in time
    support: dict               # key -> the players who may hold it now (a superset ...)
    proved: str                 # ... exact when "all" (HistoryModel.settle)
    stopped: bool               # the clock stopped the search


def _rows(m) -> Posterior:
    """The final places of the histories ``m`` found, as a (not uniform) posterior."""
    li = {l: i for i, l in enumerate(m.locations)}
    rows = [[li[d[k]] for k in m.cards] for d in m.samples if all(k in d for k in m.cards)]
    return Posterior(m, np.array(rows, dtype=np.int16).reshape(len(rows), len(m.cards)),
                     False, None)


def _histories(vm, vp, seed: int, spent: float = 0.0) -> _Histories:
    """The deals of a record with unseen events: the final places of consistent histories,
    within :data:`VIEW_WORK` and :data:`HISTORY_SECONDS`.  The view's: those found for its
    certainties (:meth:`~solver.literature.history.HistoryModel.settle`: a search from a
    random objective, then the proof of the places its histories all agree on, the view's
    own cards first), then with the work left the rest of the backbone and
    :data:`HISTORY_DEALS` more from random objectives.  The spectator's (``vp``, for
    ``leak_bits``): searches from random objectives within :data:`PUBLIC_WORK`.  Every deal is a whole rule-following history, so a chance is 0 or
    1 only where ``support`` (what was proved) says so; the rest are estimates without an
    error bar (not a uniform sample).  Work, not the clock, bounds the search (the same
    record gives the same advice on any machine); the clock only stops it on a machine too
    loaded to finish in time (``stopped``): :data:`HISTORY_SECONDS` less the ``spent``
    seconds of the advice before."""
    from solver.literature.history import Work
    from solver.model import Backbone, cp_model
    from solver.model.budget import TimeUp, current, part

    m = vm.model
    outer = current()
    bb, proved, stopped = None, "some", False
    cp_model.CpModel        # OR-Tools loaded before the clock starts (once a process)
    with part(max(HISTORY_SECONDS - spent, 0.0)):
        try:
            work = Work(VIEW_WORK)
            bb, proved = m.settle(work, complete=False)     # the certainties first
            if bb.consistent:
                if vp is not None:
                    vp.model.more_samples(HISTORY_DEALS, seed=seed + 1, work=Work(PUBLIC_WORK),
                                          every=True)
                if proved != "all" and work.left > 0:   # then the places ruled out
                    bb, proved = m.settle(work)
                m.more_samples(HISTORY_DEALS, seed=seed, work=work)
        except TimeUp as e:
            if outer is not None and (outer.cancelled or outer.expired()):
                raise
            stopped = True
            if bb is None:          # the proof so far (the first search found a history)
                bb, proved = m.settled() if m.samples else \
                    (getattr(e, "partial_backbone", None) or
                     Backbone(True, {k: set(m.locations) for k in m.cards}), "some")
    if not bb.consistent or (not m.samples and not m.one_history()):
        raise vm.inconsistent()
    support = {k: set(bb.possible[k]) for k in m.cards}
    support.update({k: {p} for k, p in vm.fixed.items()})     # where it is now
    pub = _rows(vp.model) if vp is not None and vp.model.samples else None
    return _Histories(_rows(m), pub, support, proved, stopped)


def suggest(record, view, *, top=None, budget: Budget = Budget(), seed=None,
            with_leak: bool = True) -> Advice:
    from solver.literature.engine import Play, can_ask_for, can_ask_whom
    from solver.literature.events import Claim

    h = record.header
    if view is None or view not in h.players:
        raise NotationError("the advisor needs a player's view (--as P, or 'me:' in the "
                            "record)", text=str(view))
    started = time.monotonic()
    seed = len(record.statements) if seed is None else seed
    play = Play.of(record)
    t = play.table
    players = list(t.players)
    if play.over:
        return Advice("literature", view, False, [], True, "none", 0,
                      notes=["the game is over (LIT-17): no action to suggest"])
    from solver.literature import inference

    vm = inference.build(record, view, play)
    vp = inference.build(record, None, play) if with_leak else None
    hist = _histories(vm, vp, seed, time.monotonic() - started) if vm.history else None
    if hist is not None:
        post, pub = hist.post, hist.pub
    else:
        post = _posterior_of(vm, budget, seed)
        pub = _posterior_of(vp, budget, seed + 1) if vp is not None else None
    keys, H = _holders(vm, post, players)
    n = post.n
    kpos = {k: j for j, k in enumerate(keys)}
    me = players.index(view)
    team = set(t.team_of(view))
    est = not post.exact
    on_turn = (not play.over) and play.turn == view
    actions: list[ActionAdvice] = []
    if pub is not None:                 # leak_bits computed (the spectator's deals found)
        _, HP = _holders(vp, pub, players)
    # the view's own hand: keys it certainly holds now (unseen events: as far as proved)
    support = hist.support if hist is not None else _support(vm) if est else None
    if hist is not None:
        assert support is not None      # hist.support
        mine = {k for k in keys if support[k] == {view}}
    else:
        mine = {k for k in keys if n and (H[:, kpos[k]] == me).all()}
    # the questions the engine allows the view with the cards it certainly holds (LIT-6)
    state = play.state()
    opps = [b for b in players if can_ask_whom(state, view, b)]
    open_halves = play.open_halves()
    hand = [t.key_card[k] for k in mine]
    questions: list[tuple[str, Card, str, list[str], list[str]]] = []
    if play.count[view] > 0:
        for hn in open_halves:
            hk = play.keys_of_half(hn)
            for c in sorted(set(play.half(hn).cards)):
                if can_ask_for(state, view, c, hand):
                    questions.extend((b, c, hn, list(t.card_keys[c]), hk) for b in opps)
    bluff = t.options.own_card_ask == "bluff"   # the others then learn nothing of LIT-6(d)
    yes_cols = {}
    for b, c, hn, ck, hk in questions:
        bi = players.index(b)
        yes_cols[b, c] = (H[:, [kpos[k] for k in ck]] == bi).any(axis=1)
    for b, c, hn, ck, hk in questions:
        yes = yes_cols[b, c]
        p = float(yes.mean()) if n else 0.0
        if est:     # an estimate is 0 or 1 only when the logic says so
            assert support is not None      # hist.support or _support(vm) when est
            p = _logical(p, n, certain=any(support[k] == {b} for k in ck),
                         possible=any(b in support[k] for k in ck))
        info = 0.0 if p in (0.0, 1.0) else float(-(p * math.log2(p) + (1 - p) * math.log2(1 - p)))
        # two questions ahead: this one, then the best next given "yes" (the card moves)
        nxt = 0.0
        if yes.any():
            for (b2, c2), y2 in yes_cols.items():
                if c2 == c:
                    continue
                nxt = max(nxt, float(y2[yes].mean()))
        exp_cards = p * (1 + nxt)
        leak = 0.0
        if pub is not None and pub.n:
            other = [k for k in hk if k not in ck]
            fact = (HP[:, [kpos[k] for k in other]] == me).any(axis=1) if other else \
                np.zeros(pub.n, dtype=bool)
            if not bluff:
                fact &= ~(HP[:, [kpos[k] for k in ck]] == me).all(axis=1)
            pf = float(fact.mean())
            pf = max(pf, 0.5 / (pub.n + 1)) if not pub.exact else pf
            leak = 0.0 + max(-math.log2(pf), 0.0) if pf > 0 else 0.0
        score = exp_cards / 6 - LEAK_WEIGHT * leak
        more = {"p_yes": p, "expected_cards": exp_cards,
                "tells": f"{view} holds a card of {hn} other than {c!r}, and not {c!r} "
                         "(LIT-6(c)/(d))"}
        if est:
            more["error"] = {"p": wilson(p, n)}
        actions.append(ActionAdvice(f"{view} asks {b} {c!r}", score, info,
                                    {"yes": p, "no": 1 - p}, leak,
                                    post.exact and (pub is None or pub.exact), "question",
                                    more))
    # claims (LIT-10, LIT-11): any open half-suit
    safe = _safe_of(t, play, team, support) if hist is not None else \
        _safe_claims(record, view, budget)
    tix = [players.index(q) for q in sorted(team, key=players.index)]
    for hn in open_halves:
        hk = play.keys_of_half(hn)
        cols = H[:, [kpos[k] for k in hk]] if n else np.zeros((0, len(hk)), dtype=np.int16)
        in_team = np.isin(cols, tix).all(axis=1) if n else np.zeros(0, dtype=bool)
        if hn in safe:
            alloc = tuple((q, tuple(sorted(_card(t, c) for c in cs)))
                          for q, cs in sorted(safe[hn].items(), key=lambda kv: players.index(kv[0])))
            pw, pc, pl, is_safe = 1.0, 0.0, 0.0, True
        else:
            if not in_team.any():       # certainly lost: the likeliest stating
                best = _lost_allocation(play, hk, cols, players, tix)
                pw = 0.0
            else:
                sub = cols[in_team]
                best = {}
                for j, k in enumerate(hk):
                    vals, cnt = np.unique(sub[:, j], return_counts=True)
                    best[k] = players[int(vals[int(np.argmax(cnt))])]
                want = np.array([players.index(best[k]) for k in hk])
                pw = float((cols == want).all(axis=1).mean())
            pt = float(in_team.mean()) if n else 0.0
            if est:
                assert support is not None      # hist.support or _support(vm) when est
                pt = _logical(pt, n, certain=all(support[k] <= team for k in hk),
                              possible=all(support[k] & team for k in hk))
                pw = min(pw, pt)
            pc, pl, is_safe = max(pt - pw, 0.0), 1.0 - pt, False
            by: dict[str, list] = {}
            for k in hk:
                by.setdefault(best[k], []).append(t.key_card[k])
            alloc = tuple((q, tuple(sorted(cs))) for q, cs in
                          sorted(by.items(), key=lambda kv: players.index(kv[0])))
        ev = Claim(view, hn, alloc)
        score = SAFE_CLAIM_SCORE + 1.0 if is_safe else pw - pl - CLAIM_RISK
        more = {"safe": is_safe, "outcomes": {"won": pw, "cancelled": pc, "lost": pl}}
        if est and not is_safe:
            more["error"] = {"p": wilson(0.5, n)}
        actions.append(ActionAdvice(str(ev), score, 0.0,
                                    {"won": pw, "cancelled": pc, "lost": pl}, 0.0,
                                    is_safe or post.exact, "claim", more))
    # one source of legality: only what the game's rules accept now is offered (a question
    # with each answer it gives a chance), as 'log' checks a statement
    actions = [a for a in actions if _accepted(play, view, a)]
    adv = Advice("literature", view, on_turn, actions, post.exact and (pub is None or pub.exact),
                 "enumerated" if post.exact else "sampled", n,
                 summary={"safe_claims": sorted(safe), "turn": play.turn})
    if hist is not None:
        adv.summary["proved"] = hist.proved
        adv.notes += _history_notes(hist, view, with_leak)
    elif est:
        adv.notes.append(f"estimates from {n} exact uniform deals of {view}'s posterior")
    adv.sort()
    # safe claims first, then the best unsafe claim, then the questions (others follow)
    if top is not None:
        adv.actions = adv.actions[:top]
    return adv


def _lost_allocation(play, hk, cols, players, tix) -> dict:
    """key -> team-mate for a claim no deal lets the team win: each card with the team-mate
    who holds it in the most deals (any team-mate when none does), never more cards to one
    than they hold (O1), so that the claim can be stated; ties to the first at the table."""
    left = {i: play.known(players[i]) for i in tix}
    out = {}
    for j, k in enumerate(hk):
        counts = {i: int((cols[:, j] == i).sum()) if len(cols) else 0 for i in tix}
        room = [i for i in tix if left[i] is None or left[i] > 0] or tix
        i = max(room, key=lambda i: (counts[i], -tix.index(i)))
        if left[i] is not None:
            left[i] -= 1
        out[k] = players[i]
    return out


def _accepted(play, view: str, a: ActionAdvice) -> bool:
    """Whether the engine's rules (:meth:`~solver.literature.engine.Play.apply`, the check a
    logged statement passes) accept action ``a`` of ``view`` after ``play``, on ``view``'s
    turn (:func:`suggest` ranks the actions as if it were): a question with every answer it
    gives a chance, a claim as it stands."""
    from solver.errors import RuleError
    from solver.literature.events import parse_event

    texts = ([f"{a.action}: {ans}" for ans, p in a.p_answers.items() if p > 0]
             if a.kind == "question" else [a.action])
    for text in texts:
        f = play.fork()
        f.turn, f.turn_known = view, True
        try:
            f.apply(parse_event(text, play.table), play.line + 1, text)
        except (RuleError, NotationError):
            return False
    return True


def _history_notes(hist: _Histories, view: str, with_leak: bool) -> list[str]:
    """What the advice on a record with unseen events rests on (docs/advisor.md)."""
    n = hist.post.n
    histories = "history" if n == 1 else "histories"
    out = [f"estimates from {n} consistent {histories} of {view}'s record with unseen events "
           "(not a uniform sample; no error bar)"]
    within = "within the advisor's budget" + (" (stopped by the clock)" if hist.stopped else "")
    if hist.proved == "certain":
        out.append("every certainty is proved (safe claims and chances of 1 complete); not "
                   f"every impossible place was ruled out {within}: a chance is 0 only where "
                   "proved (sleuth analyze proves them all)")
    elif hist.proved == "own-and-claims":
        out.append(f"{view}'s own cards and the safe claims are proved, not every other "
                   f"certainty {within}: a chance is 0 or 1 only where proved (sleuth analyze "
                   "proves them all)")
    elif hist.proved == "some":
        out.append(f"the certainties were not all proved {within}: a chance is 0 or 1 only "
                   f"where proved, a safe claim or a question {view} may ask can be missing "
                   "(sleuth analyze proves them all)")
    if with_leak:
        out.append(f"leak_bits from {hist.pub.n} histories of the spectator's record"
                   if hist.pub is not None else
                   "leak_bits not computed: no history of the spectator's record was found "
                   "in time (shown as 0)")
    return out


def _safe_of(t, play, team, support) -> dict:
    """half-suit -> {player: [cards]} for the safe claims (LIT-11(a)) that ``support``
    (key -> the places it may be) proves: every card of an open half-suit certainly held
    in ``team``."""
    out: dict = {}
    for hn in play.open_halves():
        hk = play.keys_of_half(hn)
        if all(len(support[k]) == 1 and next(iter(support[k])) in team for k in hk):
            alloc: dict = {}
            for k in hk:
                alloc.setdefault(next(iter(support[k])), []).append(t.key_card[k])
            out[hn] = alloc
    return out


def _support(vm) -> dict:
    """key -> the players who can hold it now in some consistent deal (the logic: the
    network-flow backbone where the facts allow it, else CP-SAT; a card of ``vm.fixed``,
    moved in public, where it is now)."""
    from solver.literature.inference import backbone

    bb = backbone(vm)
    out = {k: set(bb.possible[k]) for k in vm.model.cards}
    # a card that moved in public is where it went: the model's column of such a card (a
    # model of the deal has one for every card) is where it was dealt
    out.update({k: {p} for k, p in vm.fixed.items()})
    return out


def _logical(p: float, n: int, *, certain: bool, possible: bool) -> float:
    """A sampled chance kept off 0 and 1 unless the logic makes the event impossible or
    certain."""
    if certain:
        return 1.0
    if not possible:
        return 0.0
    eps = 0.5 / (n + 1)
    return min(max(p, eps), 1.0 - eps)


def _card(t, c):
    return c


def _safe_claims(record, view, budget: Budget) -> dict:
    """half-suit -> {player: [cards]} for the view's safe claims (the analysis: logical)."""
    from solver.literature.analysis import analyze

    kw: dict[str, Any] = {"max_states": budget.max_states} if budget.max_states else {}
    a = analyze(record, view, **kw)
    out = {}
    for name, hi in a.halves.items():
        sc = getattr(hi, "safe_claim", None)
        if sc:
            from solver.cards import Card
            out[name] = {q: [Card.parse(c) if isinstance(c, str) else c for c in cs]
                         for q, cs in sc.items()}
    return out


# ----- the simulation (benchmarks/advisor.py) -----------------------------------------------
def play_game(seed: int, policy: str, samples: int = 150, team: int = 0) -> dict:
    """One 6-player game; team ``team`` (Ana Cleo Eli) follows ``policy`` (``advisor``: the
    advisor's best action on its normal turns; ``random``: the simulator's players)."""
    from solver.literature.events import Ask, Shown
    from solver.literature.simulate import Simulator
    from solver.records import Record

    class AdvisedSimulator(Simulator):
        claims: int         # the claims the advisor made (set before the game)

        def turn(self):
            play = self.play
            a = play.turn
            if (policy != "advisor" or a not in self.t.teams[team] or play.challenge
                    or play.forced or play.end_game or play.count[a] == 0):
                return super().turn()
            rec = Record(self.header, tuple(self.statements))
            adv = suggest(rec, a, budget=Budget(samples=samples), seed=seed * 7919 +
                          len(self.statements), with_leak=False)
            best = adv.best
            if best is None:
                return super().turn()
            if best.kind == "claim":
                words = best.action.split(":", 1)
                half = words[0].split()[2]
                from solver.literature.events import parse_event
                ev = parse_event(best.action, self.t)
                shown = self.shown_for(half)
                same = sorted((repr(c), q) for q, cs in ev.alloc for c in cs) == \
                    sorted((repr(c), q) for q, cs in shown for c in cs)
                self.emit(ev, None if same else Shown(half, shown))
                self.claims += 1
                return None
            _, _, b, c = best.action.split()
            from solver.cards import Card
            card = Card.parse(c)
            ans = "yes" if self.holds_card(b, card) else "no"
            self.emit(Ask(a, b, card, ans))
            return None

    sim = AdvisedSimulator(6, (), seed)
    sim.claims = 0
    rec = sim.run()
    w = sim.play.winner()
    mine = sim.t.team_name(team)
    return {"winner": w, "won": w == mine, "tie": w == "tie",
            "score": sim.play.score_by_team(), "statements": len(rec.statements)}


def review_advice(record, *, view, budget: Budget = Budget()) -> Advice:
    """The advice a review compares a turn with (:func:`suggest`), except that when it is
    not ``view``'s turn and a claim now would be out of turn (LIT-12: not under
    ``claims_any_time``) the claims are scored as such -- never won: cancelled when the
    team holds all six, else lost -- and the questions, which only the player on turn may
    ask (LIT-6), give way to waiting for the turn (score 0).  ``suggest`` itself ranks the
    actions as if it were the view's turn."""
    from dataclasses import replace

    from solver.errors import RuleError
    from solver.literature.engine import Play

    adv = suggest(record, view, budget=budget)
    if adv.on_turn:
        return adv
    play = Play.of(record)
    if play.over:
        return adv
    claims = []                 # (advice, its half-suit, the kind of claim it would be)
    for a in adv.actions:
        if a.kind != "claim":
            continue
        half = a.action.split(":", 1)[0].split()[-1]     # "Ana claims 2H-7H: ..."
        try:
            kind = play.claim_kind(view, half)
        except RuleError:
            kind = None
        claims.append((a, half, kind))
    late = {half for _, half, kind in claims if kind == "out-of-turn"}
    if not late:
        return adv
    actions = []
    for a, _half, kind in claims:
        if kind != "out-of-turn":
            actions.append(a)
            continue
        o = a.more.get("outcomes", {})
        p_team = 1.0 if a.more.get("safe") else o.get("won", 0.0) + o.get("cancelled", 0.0)
        out = {"won": 0.0, "cancelled": p_team, "lost": max(1.0 - p_team, 0.0)}
        more = dict(a.more, safe=False, outcomes=out, out_of_turn=True,
                    safe_on_turn=bool(a.more.get("safe")))
        actions.append(replace(a, score=-out["lost"] - CLAIM_RISK, p_answers=dict(out),
                               more=more))
    actions.append(ActionAdvice(f"wait for {view}'s turn", 0.0, 0.0, {}, 0.0, True, "wait",
                                {}))
    adv.actions = actions
    adv.summary["safe_claims"] = [h for h in adv.summary.get("safe_claims", [])
                                  if h not in late]
    adv.notes.append(f"it is {play.turn}'s turn: a claim by {view} now is out of turn, "
                     "never won (LIT-12)")
    return adv.sort()


def review(record, view, *, samples: int | None = REVIEW_SAMPLES):
    """Each of ``view``'s questions and claims against the advisor's best: mistakes are an
    unsafe claim (LIT-11) and a question that told the table more than the answer told
    the asker (leak_bits > info_bits beyond the review's tolerance,
    :func:`solver.advice.told_more`)."""
    from solver.advice import review_turns, told_more
    from solver.games import get_game
    from solver.literature.events import Ask, Claim

    if view is None or view not in record.header.players:
        raise NotationError("the review needs a player's view (--as P, or 'me:' in the "
                            "record)", text=str(view))
    turns = [i for i, s in enumerate(record.statements)
             if (isinstance(s.event, Ask) and s.event.asker == view)
             or (isinstance(s.event, Claim) and s.event.claimant == view)]

    def taken_text(s):
        if isinstance(s.event, Claim):
            return str(s.event)
        return str(s.event).split(":")[0].strip()

    def mistakes_of(taken, adv, s):
        out = []
        if isinstance(s.event, Claim) and taken is not None and taken.more.get("out_of_turn"):
            o = taken.more["outcomes"]
            out.append(f"claimed out of turn (LIT-12): won 0, cancelled {o['cancelled']:.2f}, "
                       f"lost {o['lost']:.2f}" + (f"; on {view}'s turn it was a safe claim"
                                                  if taken.more.get("safe_on_turn") else ""))
        elif isinstance(s.event, Claim):
            if s.event.half not in adv.summary.get("safe_claims", []) or \
                    (taken is not None and not taken.more.get("safe")):
                o = taken.more.get("outcomes") if taken is not None else None
                out.append("claimed while not safe (LIT-11)" + (
                    f": won {o['won']:.2f}, cancelled {o['cancelled']:.2f}, lost {o['lost']:.2f}"
                    if o else ""))
        elif taken is not None and told_more(taken.leak_bits, taken.info_bits):
            out.append(f"the question told the table more ({taken.leak_bits:.3g} bits) than "
                       f"the answer told you ({taken.info_bits:.3g} bits)")
        return out

    budget = Budget(samples=samples) if samples else Budget()
    return review_turns(get_game("literature"), record, view, turns,
                        functools.partial(review_advice, view=view, budget=budget),
                        taken_text, mistakes_of)


def exposure(record, view, *, budget: Budget = Budget()) -> dict:
    """What a spectator -- and so every opponent at least -- can infer about ``view``'s
    hand from the public moves (O1-O6): certain cards, expected cards per half-suit,
    each card's chance."""
    from solver.literature.analysis import analyze, settled_by_card
    from solver.literature.inference import build, current, probabilities

    kw: dict[str, Any] = {"max_states": budget.max_states} if budget.max_states else {}
    vm = build(record, None)
    if vm.history:                      # unseen events: the whole analysis (courses)
        a = analyze(record, None, **kw)
        table, exact, places, possible = a.table, a.exact, a.cards, a.possible
        error = 0.0 if exact else a.error
    else:                               # the cards only: no team probabilities needed
        probs = probabilities(vm, **kw)
        loc_p, poss = current(vm, probs)
        table, exact = vm.table, probs.exact
        error = 0.0 if exact else probs.error
        places, possible = settled_by_card(vm, probs, loc_p, poss)   # as analyze reports
    cards = {c: d.get(view, 0.0) for c, d in places.items() if d.get(view, 0.0) > 0}
    certain = sorted(c for c, p in cards.items() if possible.get(c) == {view})
    per_half = {}
    for h in table.halves:
        if vm.play.status[h.name][0] != "open":
            continue
        per_half[h.name] = sum(cards.get(repr(c), 0.0) for c in set(h.cards))
    top = sorted(cards.items(), key=lambda kv: (-kv[1], kv[0]))
    return {"view": view, "exact": exact, "error": error, "certain": certain,
            "expected_per_half_suit": per_half, "cards": dict(top),
            "known_share": len(certain)}
