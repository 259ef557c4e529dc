"""The Clue advisor (docs/advisor.md): every suggestion the view could make now, ranked by
what its answer tells the view about the case file, less what the table learns; and the
accusation, ranked by the chance it is right.

The figures are averages over the view's posterior (:func:`solver.advice.posterior`: every
consistent deal when there are few, else exactly uniform samples).  A refuter holding
several of the three shows each with equal chance (A4): under ``refute=first`` each deal
then stands for one row per card it could show, weighted equally, so the figures stay
exact on an enumerated posterior; under ``refute=all`` every shower's card is drawn (seeded)
and the figures are estimates.

* suggestion: ``score = info_bits - 0.5 x leak_bits``; ``info_bits`` = I(case file; the
  answer the view would see: who shows and the card), ``leak_bits`` = I(case file; who
  shows), what every other player learns; on samples both are measured on the part of the
  case file the suggestion names (which of its three cards are in it), a lower bound with
  a small sampling bias (the whole case file's would be about the answer's entropy);
* accusation (the most likely case file): ``100`` when it is determined (``safe``), else
  ``100 x (2 p_right - 1)``: a wrong accusation puts the player out (CL-9).
"""
from __future__ import annotations

import functools
import itertools

import numpy as np

from solver.clue.events import Accuse, Suggest, seating_after
from solver.clue.options import ENVELOPE
from solver.errors import NotationError
from solver.model.budget import Budget

LEAK_WEIGHT = 0.5
#: posterior samples when the deals are too many to enumerate
SAMPLES = 600
#: the review's samples per turn
REVIEW_SAMPLES = 300


def _weighted_info(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """I(X; Y) in bits over weighted rows."""
    from solver.advice import entropy

    ky = int(y.max()) + 1 if len(y) else 1
    return max(entropy(x, w) + entropy(y, w) - entropy(x * ky + y, w), 0.0)


def accusation_score(p_right: float, determined: bool) -> float:
    """``100`` when the case file is determined, else ``100 x (2 p - 1)``: a wrong
    accusation puts the player out (CL-9), so a guess ranks above the suggestions only
    when it is more likely right than wrong.  Waiting for certainty (a guess only from
    p >= 0.75) lost more races against competent players (docs/advisor.md, "Clue")."""
    return 100.0 if determined else 100.0 * (2 * p_right - 1)


def suggest(record, view: str | None, *, top: int | None = None,
            budget: Budget = Budget(), seed: int | None = None, room: str | None = None,
            accuse: tuple[str, ...] | None = None):
    """The advice (see the module doc); ``room``: only the suggestions naming that room, the
    one the player stands in (CL-5; the advisor option ``--room``); ``accuse``: a case file
    whose accusation is ranked too, when it is not the most likely one (the review's
    accusation as made: its chance of being right and its score, -100 when impossible)."""
    from solver.advice import ActionAdvice, Advice, posterior
    from solver.clue.analysis import analyze_model
    from solver.clue.engine import can_turn, run
    from solver.clue.inference import build

    if view is None or view not in record.header.players:
        raise NotationError("the advisor needs a player's view (--as P, or 'me:' in the "
                            "record)", text=str(view))
    if not can_turn(run(record), view):
        raise NotationError(f"{view} cannot suggest or accuse now (out or the game is over, "
                            "CL-8, CL-9)", text=view)
    vm = build(record, view)
    a = analyze_model(vm, record)
    m = vm.model
    samples = budget.samples or SAMPLES
    post = posterior(m, samples=samples, seed=len(record.statements) if seed is None else seed)
    deals = post.deals
    n = len(deals)
    env = m.loc_index(ENVELOPE)
    deck = vm.deck
    rooms = deck.groups[2]
    if room is not None:
        room = deck.card(room)
        if room not in rooms:
            raise NotationError(f"--room names a room ({' '.join(rooms)})", text=room,
                                rule="CL-5")
        rooms = (room,)
    # the case file of each deal, as one code
    code = np.zeros(n, dtype=np.int64)
    for group in deck.groups:
        idx = [m.card_index(c) for c in group]
        which = np.argmax(deals[:, idx] == env, axis=1)
        code = code * len(group) + which
    order = seating_after(view, record.header.players)
    seat_li = [m.loc_index(p) for p in order]
    acts = []
    if not n:                   # pragma: no cover - analyze_model raised already
        raise NotationError("no deal fits the record", text=view)
    exact = post.exact and vm.opts.refute == "first"
    for ti, triple in enumerate(itertools.product(*deck.groups)):
        if triple[2] not in rooms:
            continue
        cols = deals[:, [m.card_index(c) for c in triple]]            # (n, 3) locations
        # on samples, the case file as far as the three named can show it (which of them
        # are in it): the whole case file has about as many values as there are samples,
        # so its plug-in information would be the answer's entropy, not what it tells
        target = code if post.exact else (cols == env) @ np.array([4, 2, 1])
        if vm.opts.refute == "first":
            who = np.full(n, len(order), dtype=np.int64)              # nobody
            for k in range(len(order) - 1, -1, -1):
                who = np.where((cols == seat_li[k]).any(axis=1), k, who)
            held = np.zeros((n, 3), dtype=bool)
            some = who < len(order)
            li = np.array(seat_li + [-1])[who]
            held = (cols == li[:, None]) & some[:, None]
            reps = np.maximum(held.sum(axis=1), 1)
            # each deal's possible shown cards, one row each (none: one row, card 3), in
            # deal order
            row, card = np.nonzero(np.concatenate([held, ~some[:, None]], axis=1))
            w = 1.0 / reps[row]
            seen = who[row] * 4 + card
            info = _weighted_info(target[row], seen, w)
            leak = _weighted_info(target[row], who[row], w)
            answers = {p: float((who == k).mean()) for k, p in enumerate(order)}
            answers["nobody"] = float((who == len(order)).mean())
        else:       # each suggestion its own draws: the same figures with --room or without
            rng = np.random.default_rng((0, ti))
            seen = np.zeros(n, dtype=np.int64)
            public = np.zeros(n, dtype=np.int64)
            for k, l in enumerate(seat_li):
                h = cols == l
                any_h = h.any(axis=1)
                pick = np.where(any_h, np.argmax(h * rng.random(h.shape), axis=1) + 1, 0)
                seen = seen * 4 + pick
                public = public * 2 + any_h
            w = np.ones(n)
            info = _weighted_info(target, seen, w)
            leak = _weighted_info(target, public, w)
            answers = {"nobody": float((public == 0).mean())}
        acts.append(ActionAdvice(f"{view} suggests {' '.join(triple)}",
                                 info - LEAK_WEIGHT * leak, info,
                                 {k: v for k, v in answers.items() if v > 0}, leak,
                                 exact, kind="suggest"))
    c = a.envelope
    if c.top:
        best, p = c.top[0]
        score = accusation_score(p, c.determined)
        acts.append(ActionAdvice(f"{view} accuses {' '.join(best)}", score, 0.0,
                                 {"right": p, "wrong": 1 - p}, 0.0, a.exact, kind="accuse",
                                 more={"p_right": p, "safe": c.determined}))
    if accuse is not None and (not c.top or tuple(accuse) != tuple(c.top[0][0])):
        p, p_exact = _p_right(tuple(accuse), a, code, post.exact)
        acts.append(ActionAdvice(f"{view} accuses {' '.join(accuse)}",
                                 accusation_score(p, False), 0.0,
                                 {"right": p, "wrong": 1 - p}, 0.0, p_exact, kind="accuse",
                                 more={"p_right": p, "safe": False}))
    adv = Advice("clue", view, True, acts, exact, "enumerated" if post.exact else "sampled",
                 n, summary={"candidates": c.count, "determined": c.determined,
                             "verdict": a.verdict})
    if not exact:
        adv.notes.append("figures from sampled deals (estimates)")
    if room is not None:
        adv.notes.append(f"suggestions in the {room} only, the room {view} is in (CL-5)")
    adv.sort()
    if top is not None:
        adv.actions = adv.actions[:top]
    return adv


def _p_right(triple: tuple[str, ...], a, code: np.ndarray, enumerated: bool
             ) -> tuple[float, bool]:
    """The chance that ``triple`` is the case file for the analysis ``a``, and whether it is
    exact: from the ten most likely case files when it is among them, 0 when one of its
    cards cannot be in the case file or every possible case file is listed, else the share
    of the posterior's deals (``code``: each deal's case file) that have it."""
    c = a.envelope
    for cs, p in c.top:
        if tuple(cs) == triple:
            return p, not c.error
    if any(ENVELOPE not in a.possible[x] for x in triple) or (
            c.count is not None and c.count <= len(c.top)):
        return 0.0, True
    want = 0
    for x, group in zip(triple, a.deck.groups):
        want = want * len(group) + group.index(x)
    return (float((code == want).mean()) if len(code) else 0.0), enumerated


def _review_advice(record, *, view: str, budget: Budget, accused: dict):
    """The advice before one of ``view``'s turns, with the accusation made there (the
    statement after ``record``, ``accused[len(record.statements)]``) ranked too."""
    return suggest(record, view, budget=budget, accuse=accused.get(len(record.statements)))


def review(record, view, *, samples: int | None = REVIEW_SAMPLES):
    """Each of ``view``'s suggestions and accusations against the advisor's best, every
    accusation scored as made (``100 x (2 p_right - 1)``, 100 when certain): mistakes are
    an accusation while the case file was not determined, an accusation of another case
    file while it was, and a suggestion while it was (a safe accusation was available)."""
    from solver.advice import review_turns
    from solver.games import get_game

    if view is None or view not in record.header.players:
        raise NotationError("the review needs a player's view (--as P, or 'me:' in the "
                            "record)", text=str(view))
    turns = [i for i, s in enumerate(record.statements)
             if isinstance(s.event, (Suggest, Accuse)) and s.event.player == view]
    accused = {i: record.statements[i].event.cards for i in turns
               if isinstance(record.statements[i].event, Accuse)}

    def taken_text(s):
        ev = s.event
        verb = "accuses" if isinstance(ev, Accuse) else "suggests"
        return f"{view} {verb} {' '.join(ev.cards)}"

    def mistakes_of(taken, adv, s):
        if isinstance(s.event, Accuse):
            if not adv.summary.get("determined"):
                p = taken.more.get("p_right") if taken is not None else None
                return ["accused while the case file was not determined (CL-9)"
                        + (": an impossible case file" if p == 0 else
                           f": right with p = {p:.3g}" if p is not None else
                           ": not even the most likely case file")]
            safe = next((a for a in adv.actions if a.kind == "accuse" and a.more.get("safe")),
                        None)
            if safe is not None and safe.action != taken_text(s):
                return [f"a wrong accusation while the case file was determined "
                        f"({safe.action.split(' ', 2)[2]}): a certain accusation was "
                        "available (CL-8, CL-9)"]
            return []
        if adv.summary.get("determined"):
            return ["the case file was determined: a safe accusation was available (CL-8)"]
        return []

    budget = Budget(samples=samples) if samples else Budget()
    return review_turns(get_game("clue"), record, view, turns,
                        functools.partial(_review_advice, view=view, budget=budget,
                                          accused=accused), taken_text,
                        mistakes_of)


def on_turn(record, view) -> bool:
    from solver.clue.engine import can_turn, run

    return view is not None and can_turn(run(record), view)
