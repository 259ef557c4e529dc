"""The Mystery Hand advisor: every legal action of a view now, ranked (``sleuth suggest``),
what a spectator can infer about the view's hand (``exposure``), and the post-game
review.  Figures and the scoring rule: ``docs/advisor.md``.

All figures are averages over the view's posterior (:func:`solver.advice.posterior`):
exact on an enumeration of every consistent deal, else estimates from exact uniform
samples.  The answer an action gets is a function of the deal:

* ask-one A->B X (MH-10, E1a): the set H_B ∩ X that A sees (the others see its size,
  E1c); Sneak jokers are B's choice, not part of the deal, and are not modelled;
* ask-all A X (MH-13, E3): every other active player's count (everybody sees them);
* exact request A c (MH-15, E4/E5): who shows c, or nobody;
* announce G (MH-18..20): right or wrong.

``info_bits`` is I(M; answer) under the view's posterior (M = the mystery hand the view is
trying to name); ``leak_bits`` is what a spectator learns about M from the question (its
legality, MH-11/MH-15: "the asker does not hold all of X / c") and from what it sees of
the answer (counts, E1c/E3/E4/E5), under the *spectator's* posterior.  On samples, both
are measured on the part of M that the action can see (M ∩ X, or whether c is in M),
a lower bound of the full mutual information with a much smaller sampling bias.

>>> from solver.records import parse_record
>>> from solver.mystery_hand import EXAMPLE_1
>>> adv = suggest(parse_record(EXAMPLE_1), "P1")
>>> adv.view, adv.actions[0].kind in ("ask-one", "ask-all", "request", "announce")
('P1', True)
"""
from __future__ import annotations

import functools

import numpy as np

from solver.advice import (ActionAdvice, Advice, NoDeal, Posterior, _rank, information,
                           kl_divergence, posterior, wilson)
from solver.cards import RankSet, SuitRange, SUITS, standard_deck
from solver.errors import NotationError
from solver.model.budget import Budget
from solver.mystery_hand.engine import can_exact, can_query, can_turn, run, with_hand

#: what a wrong announcement costs, in the score's units (MH-20: out of the game)
ANNOUNCE_SCALE = 100.0
#: weight of what the table learns, against what the asker learns
LEAK_WEIGHT = 0.5
#: counting states for the spectator's posterior (over it: rejection from a relaxed model)
PUBLIC_STATES = 60_000
#: and at most this many of its deals (the spectator's figures cost more to draw)
PUBLIC_SAMPLES = 200
#: deals per turn in a review (a review runs the advisor once per turn)
REVIEW_SAMPLES = 300
QUERIES = [SuitRange(s, lo) for s in SUITS for lo in range(1, 12)] + [
    RankSet(r) for r in range(1, 14)]


class _Ctx:
    """One view's posterior and the indices the figures need."""

    def __init__(self, vm, post: Posterior, target: str):
        self.vm, self.post = vm, post
        m = vm.model
        self.m = m
        self.t = m.loc_index(target)
        self.deck = standard_deck()
        self.ci = {c: m.card_index(c) for c in self.deck}
        D = post.deals
        self.D = D
        real = np.array([self.ci[c] for c in self.deck])
        inm = (D[:, real] == self.t)
        # the mystery hand as a 52-bit code
        w = np.array([1 << i for i in range(len(self.deck))], dtype=np.int64)
        self.mcode = (inm.astype(np.int64) * w).sum(axis=1)

    def bits(self, cards, loc: int) -> np.ndarray:
        """Which of ``cards`` lie at ``loc``, as a small int per deal."""
        idx = [self.ci[c] for c in cards]
        sub = (self.D[:, idx] == loc).astype(np.int64)
        return (sub * (1 << np.arange(len(idx)))).sum(axis=1)

    def mproj(self, cards) -> np.ndarray:
        return self.bits(cards, self.t)

    def target_code(self, proj_cards) -> np.ndarray:
        """M itself on an enumeration; its part among ``proj_cards`` on samples."""
        return self.mcode if self.post.exact else self.mproj(proj_cards)


#: drawing for the deals that meet an unseen turn's choices stops after this many times the
#: deals wanted (fewer deals are then used: still exactly uniform)
CHOICE_DRAWS = 20


def meets_choices(model, deals: np.ndarray) -> np.ndarray:
    """Which rows of ``deals`` (location indices, one column per card key) meet every
    choice of ``model`` (an unseen turn's extra turn, :class:`MysteryHandModel`): the facts
    the counting programme behind :func:`~solver.advice.posterior` does not see."""
    ok = np.ones(len(deals), dtype=bool)
    for _, _, alts in getattr(model, "choices", ()):
        any_alt = np.zeros(len(deals), dtype=bool)
        for terms, lo, hi in alts:
            k = np.zeros(len(deals), dtype=np.int64)
            for ci, li in terms:
                k += deals[:, ci] == li
            any_alt |= (k >= lo) & (k <= hi)
        ok &= any_alt
    return ok


def conditioned(model, post: Posterior, kw: dict) -> Posterior:
    """``post`` conditioned on the model's choices, as the analysis conditions its count
    (rejection): an enumeration keeps the deals meeting them (still every consistent deal,
    so still exact); uniform samples keep those meeting them, drawn again with more samples
    until as many as before are kept (or :data:`CHOICE_DRAWS` times as many drawn).
    :class:`NoDeal` when none does."""
    if not getattr(model, "choices", None) or not post.n:
        return post
    ok = meets_choices(model, post.deals)
    if post.exact:
        if not ok.any():
            raise NoDeal("no deal meets the choices")
        return Posterior(model, post.deals[ok], True, int(ok.sum()))
    want, drawn = post.n, post.n
    while ok.sum() < want and drawn < CHOICE_DRAWS * want:
        rate = max(ok.mean(), 1.0 / drawn)
        drawn = min(int(drawn * min(4.0, 1.2 / rate)) + 1, CHOICE_DRAWS * want)
        post = posterior(model, **dict(kw, samples=drawn))
        ok = meets_choices(model, post.deals)
    if not ok.any():
        from solver.errors import BudgetError

        raise BudgetError(f"none of {drawn} sampled deals met what an unseen turn's extra "
                          "turn says (MH-12, MH-14); raise the samples (--samples)")
    share = float(ok.mean())
    return Posterior(model, post.deals[ok][:want], False,
                     None if post.total is None else post.total * share)


def _build_views(record, view, budget: Budget, seed: int, with_leak: bool = True):
    from solver.mystery_hand.inference import build, target_of

    vm = build(record, view)
    vp = build(record, None)
    kw = {}
    if budget.max_states:
        kw["max_states"] = budget.max_states
    samples = budget.samples or None
    pk = dict(kw, seed=seed)
    if samples:
        pk["samples"] = samples
    try:
        post = conditioned(vm.model, posterior(vm.model, **pk), pk)
        # the spectator's deals (for leak_bits) with a smaller programme
        if with_leak:
            pub = posterior(vp.model, **dict(pk, max_states=min(pk.get("max_states", 400_000),
                                                                PUBLIC_STATES),
                                             samples=min(pk.get("samples", PUBLIC_SAMPLES),
                                                         PUBLIC_SAMPLES)))
            pub = conditioned(vp.model, pub, dict(pk, max_states=min(
                pk.get("max_states", 400_000), PUBLIC_STATES), samples=pub.n))
        else:       # no spectator figures: an empty set of deals
            pub = Posterior(vp.model, np.zeros((0, len(vp.model.cards)), dtype=np.int16), True)
    except NoDeal:
        raise vm.inconsistent() from None
    target = target_of(view, record.header, vm.opts)
    return vm, vp, _Ctx(vm, post, target), _Ctx(vp, pub, target), target


def _announce(record, vm, me: _Ctx, target: str, budget: Budget) -> dict:
    """The hand to announce and its chance, as ``sleuth analyze`` gives them for the same
    state: the possible sets counted over the plain programme (exact); else, under an
    unseen turn's extra turn (facts that programme does not see), an enumerated posterior
    (every consistent deal meeting them: exact); else the analysis' candidates
    (:func:`solver.mystery_hand.analysis.analyze_model`: bounds on the count, a sampled
    hand named only when it stands out, with its 95 % half-width, else none)."""
    from solver.model.counting import location_sets, possible_sets
    from solver.mystery_hand.analysis import MAX_STATES, analyze_model

    out: dict = {"guess": (), "p": 0.0, "exact": True, "count": None, "bounds": {},
                 "determined": False, "withheld": False, "p_at_most": 0.0, "error": 0.0,
                 "note": ""}
    states = budget.max_states or MAX_STATES
    if not vm.model.choices:
        # (over the plain programme with the target apart first, as the analysis does)
        ls = possible_sets(vm.model, target, top=1, max_states=states)
        if ls is None:
            ls = location_sets(vm.model, target, top=1, max_states=states)
        if ls is not None and ls[1]:
            out.update(count=ls[0], guess=tuple(sorted(ls[1][0][0])), p=ls[1][0][1],
                       determined=ls[0] == 1)
            return out
    if me.post.exact and me.post.n:     # every consistent deal: the hands counted exactly
        vals, cnt = np.unique(me.mcode, return_counts=True)
        j = int(np.argmax(cnt))
        out.update(count=len(vals), determined=len(vals) == 1, p=float(cnt[j]) / me.post.n,
                   guess=tuple(c for i, c in enumerate(me.deck) if int(vals[j]) >> i & 1))
        return out
    c = analyze_model(vm, record, max_states=states).mysteries[target]
    out.update(count=c.count, determined=c.determined, exact=c.exact)
    if c.count is None:
        out["bounds"] = {"candidates_exact": False, "candidates_at_least": c.lower,
                         "candidates_at_most": c.upper}
    sure = c.answer()
    if sure is not None:
        out.update(guess=tuple(sure), p=1.0, exact=True)
    elif c.top:
        out.update(guess=tuple(c.top[0][0]), p=c.top[0][1], error=c.error)
    elif c.withheld:
        out.update(withheld=True, p_at_most=c.p_at_most, note=(
            f"no announcement suggested: no hand stands out in {c.samples} sampled deals, so "
            f"none is the most likely as far as they tell; each candidate is right with "
            f"p <= {c.p_at_most:.3g} (95 %)"))
    else:
        out["note"] = ("no announcement suggested: the candidates' chances could not be "
                       "computed within the budget (--max-states)")
    return out


def _fmt(cards) -> str:
    return " ".join(repr(c) for c in sorted(cards)) if cards else "none"


def suggest(record, view: str | None, *, top: int | None = None,
            budget: Budget = Budget(), seed: int | None = None,
            with_leak: bool = True) -> Advice:
    """Every legal action of ``view`` now (ask-one, ask-all, exact requests, announce),
    with its figures, best first (see the module doc and ``docs/advisor.md``)."""
    h = record.header
    if view is None or view not in h.players:
        raise NotationError("the advisor needs a player's view (--as P, or 'me:' in the "
                            "record)", text=str(view))
    seed = len(record.statements) if seed is None else seed
    state = run(record)
    if state.over or view not in state.active:
        why = ("the game is over (MH-19, MH-21)" if state.over else
               f"{view} is out of the game (MH-20)")
        return Advice("mystery-hand", view, False, [], True, "none", 0,
                      notes=[why + ": no action to suggest"])
    vm, vp, me, pub, target = _build_views(record, view, budget, seed, with_leak)
    opts = vm.opts
    on_turn = can_turn(state, view)
    D = me.D
    n = me.post.n
    exact = me.post.exact and (pub.post.exact or not with_leak)
    loc = me.m.loc_index
    A = loc(view)
    others = [p for p in state.active if p != view]
    # the view's own hand: the cards certain to be at A
    own = {c for c in me.deck if (D[:, me.ci[c]] == A).all()} if n else set()
    mcode = me.mcode
    m_rank, n_m = _rank(mcode)
    cands_now = n_m
    actions: list[ActionAdvice] = []

    def after(ans: np.ndarray) -> dict:
        """Chance that M is determined after the answer, and the candidates left."""
        if n == 0:
            return {}
        codes, k = _rank(ans)
        pair, _ = _rank(codes.astype(np.int64) * n_m + m_rank)
        # distinct hands per answer: each distinct (answer, hand) pair counted once
        first = np.zeros(pair.max() + 1, dtype=np.int64)
        first[pair] = codes
        distinct = np.bincount(first, minlength=k)
        per_row = distinct[codes]
        out: dict[str, float | str] = {"p_determined": float((per_row == 1).mean()),
                                       "candidates_after": float(per_row.mean())}
        if not me.post.exact:
            out["candidates_after_bound"] = "lower"
            out["p_determined_bound"] = "upper"
        return out

    def answer_table(ans: np.ndarray, label) -> dict[str, float]:
        vals, cnt = np.unique(ans, return_counts=True)
        out = {label(int(v)): float(c) / n for v, c in zip(vals, cnt)}
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    est = not me.post.exact
    pest = not pub.post.exact

    def figures(kind, text, ans, proj, pub_ans, pub_legal, pub_proj, extra_turn, more,
                ans_proj=None, pub_ans_proj=None):
        """``ans_proj``/``pub_ans_proj``: on samples, the part of the answer measured."""
        if not with_leak and n and (ans == ans[0]).all():   # a known answer tells nothing
            fig = {"p_extra_turn": float(extra_turn.mean()) if extra_turn is not None
                   and not opts.two_player else 0.0, **after(ans), **more}
            p_extra = fig["p_extra_turn"]
            return ActionAdvice(text, 0.0, 0.0, {}, 0.0, exact, kind, fig)
        tcode = me.target_code(proj)
        info, err = information(tcode, ans if not est or ans_proj is None else ans_proj,
                                estimate=est)
        leak, lerr = 0.0, 0.0
        if with_leak and pub.post.n:
            ptc = pub.target_code(pub_proj)
            leak = kl_divergence(ptc, pub_legal) if pub_legal is not None else 0.0
            pa = pub_ans if not pest or pub_ans_proj is None else pub_ans_proj
            v, lerr = information(ptc, pa, mask=pub_legal, estimate=pest)
            leak += v
        p_extra = (float(extra_turn.mean()) if extra_turn is not None and n
                   and not opts.two_player else 0.0)      # MH-28: no extra turns
        score = info * (1 + p_extra) - LEAK_WEIGHT * leak
        fig = {"p_extra_turn": p_extra, **after(ans), **more}
        if est:
            fig["error"] = {"info_bits": err, "p": wilson(0.5, n), "leak_bits": lerr}
        elif with_leak and pest:
            fig["error"] = {"leak_bits": lerr}
        return ActionAdvice(text, score, info, {}, leak, exact, kind, fig)

    mine = with_hand(state, view, own)     # the engine's legality, as the view knows its hand
    legal_q = [q for q in QUERIES if can_query(mine, view, q)]
    pA = pub.m.loc_index(view)
    for q in legal_q:
        X = list(q.cards())
        # MH-11 as the spectator sees it: the asker does not hold all four
        pub_legal = None if opts.keep_em_guessing else (pub.bits(X, pA) != 15)
        # ask-one, every active opponent (E1)
        for B in others:
            b = loc(B)
            ans = me.bits(X, b)
            pub_cnt = np.zeros(pub.post.n, dtype=np.int64)
            if pub.post.n:
                pub_cnt = (pub.D[:, [pub.ci[c] for c in X]] == pub.m.loc_index(B)).sum(1)
            shown = np.array([bin(int(v)).count("1") for v in range(16)])
            a = figures("ask-one", f"{view} asks {B} {q!r}", ans, X, pub_cnt, pub_legal, X,
                        shown[ans] >= 3, {})   # MH-12: 3 or 4 shown
            a.p_answers = answer_table(ans, lambda v, X=X: _fmt(
                [X[i] for i in range(4) if v >> i & 1]))
            actions.append(a)
        # ask-all (E3): every other active player's count, public
        if others:
            cols = [(D[:, [me.ci[c] for c in X]] == loc(p)).sum(1) for p in others]
            ans = np.zeros(n, dtype=np.int64)
            for c in cols:
                ans = ans * 5 + c
            tot = sum(cols) if cols else np.zeros(n)
            pcols = [(pub.D[:, [pub.ci[c] for c in X]] == pub.m.loc_index(p)).sum(1)
                     for p in others] if pub.post.n else []
            pans = np.zeros(pub.post.n, dtype=np.int64)
            for c in pcols:
                pans = pans * 5 + c

            def lab(v, others=others):
                ks = []
                for _ in others:
                    ks.append(v % 5)
                    v //= 5
                return ", ".join(f"{p} {k}" for p, k in zip(others, reversed(ks)))

            ptot = sum(pcols) if pcols else np.zeros(pub.post.n, dtype=np.int64)
            a = figures("ask-all", f"{view} asks all {q!r}", ans, X, pans, pub_legal, X,
                        np.asarray(tot) == 4, {},   # MH-14
                        ans_proj=np.asarray(tot), pub_ans_proj=np.asarray(ptot))
            a.p_answers = answer_table(ans, lab)
            actions.append(a)
    # exact requests (MH-15, E4/E5)
    if not opts.no_exact_request:
        holders = others
        for c in me.deck:
            if not can_exact(mine, view, c):
                continue
            col = D[:, me.ci[c]]
            ans = np.full(n, -1, dtype=np.int64)
            for p in holders:
                ans[col == loc(p)] = loc(p)
            pcol = pub.D[:, pub.ci[c]] if pub.post.n else np.zeros(0, dtype=np.int64)
            pans = np.full(pub.post.n, -1, dtype=np.int64)
            for p in holders:
                pans[pcol == pub.m.loc_index(p)] = pub.m.loc_index(p)
            pub_legal = None if opts.keep_em_guessing else (pcol != pA)
            a = figures("request", f"{view} requests {c!r}", ans, [c], pans, pub_legal, [c],
                        None, {})
            names = {loc(p): p for p in holders}
            a.p_answers = answer_table(ans, lambda v, names=names: names.get(v, "nobody"))
            actions.append(a)
    # announce (MH-18..20): the most likely hand, with the analysis' figures
    ann = _announce(record, vm, me, target, budget)
    count = ann["count"]
    if ann["guess"]:
        guess, p_right = ann["guess"], ann["p"]
        score = ANNOUNCE_SCALE if p_right >= 1.0 else ANNOUNCE_SCALE * (2 * p_right - 1)
        cost = ("none: the hand is certain" if p_right >= 1.0 else
                ("out of the game, your hand laid face up (MH-20)" if not opts.two_player
                 else "the opponent wins (MH-28)"))
        more = {"p_right": p_right, "wrong_costs": cost, "safe": p_right >= 1.0,
                "candidates": count}
        if not ann["exact"]:
            more.update(ann["bounds"])
            more["error"] = {"p": ann["error"]}
        actions.append(ActionAdvice(
            f"{view} announces {_fmt(guess)}", score, 0.0,
            {"right": p_right, "wrong": 1.0 - p_right}, 0.0, ann["exact"], "announce", more))
    summary = {"candidates": count, "determined": ann["determined"],
               "candidates_in_deals": cands_now, "target": target,
               "deals": me.post.total if me.post.exact else None}
    summary.update(ann["bounds"])
    if ann["withheld"]:
        summary.update(announce_withheld=True, p_right_at_most=ann["p_at_most"])
    adv = Advice("mystery-hand", view, on_turn, actions, exact,
                 "enumerated" if me.post.exact else "sampled", n, summary=summary)
    if vm.model.choices:
        adv.notes.append("conditioned on what an unseen turn's extra turn says (MH-12, MH-14) "
                         "by rejection, as the analysis")
    if not me.post.exact:
        adv.notes.append(f"estimates from {n} exact uniform deals of {view}'s posterior "
                         "(95 % errors per action under 'error'); info_bits and leak_bits "
                         "measure the part of the mystery hand the action can see")
    if ann["note"]:
        adv.notes.append(ann["note"])
    adv.sort()
    if top is not None:
        adv.actions = adv.actions[:top]
    return adv


#: the public count behind the exposure gives up for its estimate past this many states
#: (a quarter of the analysis' own budget), so that the exposure, computed beside the
#: player's own analysis, costs no more than it; its chances are then estimates with
#: error bars where a larger budget would have made them exact
EXPOSURE_STATES = 150_000


def exposure(record, view: str, *, budget: Budget = Budget()) -> dict:
    """What a spectator -- and so every opponent at least -- can infer about ``view``'s
    hand from the public record: certain cards, counts per suit, each card's chance
    (``error``: the 95 % half-width of each chance when the public analysis is an
    estimate, else 0; certain cards are proved either way)."""
    from solver.mystery_hand.analysis import analyze

    a = analyze(record, None, candidates=False,
                max_states=budget.max_states or EXPOSURE_STATES)
    cards = {c: ls.get(view, 0.0) for c, ls in a.cards.items() if ls.get(view, 0.0) > 0}
    certain = sorted((c for c, p in cards.items() if a.possible.get(c) == {view}))
    per_suit = {}
    for s in SUITS:
        per_suit[s] = sum(p for c, p in cards.items() if c.endswith(s) and c != "Jk")
    top = sorted(cards.items(), key=lambda kv: (-kv[1], kv[0]))
    return {"view": view, "exact": a.exact, "error": 0.0 if a.exact else a.error,
            "certain": certain, "expected_per_suit": per_suit,
            "cards": dict(top), "known_share": len(certain)}


def review(record, view, *, samples: int | None = REVIEW_SAMPLES):
    """Each of ``view``'s turns against the advisor's best (:class:`solver.advice.Review`):
    mistakes are an announcement while the hand was not determined (MH-20) and a question
    that told the table more than it told the asker (leak_bits > info_bits beyond the
    review's tolerance, :func:`solver.advice.told_more`)."""
    from solver.advice import review_turns, told_more
    from solver.games import get_game
    from solver.mystery_hand.events import AskAll, AskOne, Announce, Request

    if view is None or view not in record.header.players:
        raise NotationError("the review needs a player's view (--as P, or 'me:' in the "
                            "record)", text=str(view))
    def actor(ev):
        return ev.player if isinstance(ev, Announce) else ev.asker

    turns = [i for i, s in enumerate(record.statements)
             if isinstance(s.event, (AskOne, AskAll, Request, Announce))
             and actor(s.event) == view]

    def taken_text(s):
        if isinstance(s.event, Announce):
            return f"{view} announces {_fmt(s.event.cards)}"
        return str(s.event).split(":")[0].strip()

    def mistakes_of(taken, adv, s):
        out = []
        if isinstance(s.event, Announce):
            if not adv.summary.get("determined"):
                p = taken.more.get("p_right") if taken is not None else None
                out.append("announced while the mystery hand was not determined (MH-20)"
                           + (f": right with p = {p:.3g}" if p is not None else
                              f": right with p <= {adv.summary['p_right_at_most']:.3g}, no "
                              "hand standing out" if adv.summary.get("announce_withheld")
                              else ": not even the most likely hand"))
        else:
            if adv.summary.get("determined"):
                out.append("the mystery hand was determined: a safe announcement was "
                           "available (MH-18)")
            if taken is not None and told_more(taken.leak_bits, taken.info_bits):
                out.append(f"told the table more about the mystery hand "
                           f"({taken.leak_bits:.3g} bits) than it told you "
                           f"({taken.info_bits:.3g} bits)")
        return out

    budget = Budget(samples=samples) if samples else Budget()
    return review_turns(get_game("mystery-hand"), record, view, turns,
                        functools.partial(suggest, view=view, budget=budget), taken_text,
                        mistakes_of)
