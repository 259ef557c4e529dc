"""Proof by simulation: does following the advisor win more games?  (issue 16; results in
docs/advisor.md)

Mystery Hand: one seat (``Ana``, who asks first) is played by a policy; the other seats
are the simulator's random rule-following players (:mod:`solver.mystery_hand.simulate`).
The same seeds (same deals, same random streams for the other seats) are played under
every policy, so the comparisons are paired.  Policies of the seat:

* ``advisor``: the advisor's best action (``suggest``; figures from ``--samples`` exact
  uniform deals of the seat's posterior; leak not computed, to keep the run cheap);
* ``random``: the simulator's random legal policy (its own sound knowledge);
* ``greedy``: ask-one, to the next opponent in turn, for the range or rank with the most
  cards the seat has not placed (direct marks), announcing when complete inference
  determines the mystery hand;
* ``cells``: the "expected cells cleared" method of the Clue assistants: over a few
  (``--cells-deals``) sampled deals, the query that removes the most (card, location)
  possibilities from the seat's direct-mark sheet, announcing as ``greedy``.

For every game and seat it also records when complete inference (the analysis) and
direct-mark bookkeeping (what the paper sheet shows: each statement's own marks only)
first determine the mystery hand.

    python -m benchmarks.advisor --games 300 --players 4 6 --out /tmp/advisor.jsonl
    python -m benchmarks.advisor --summary /tmp/advisor.jsonl

Results are appended one JSON line per game, so a run can be stopped and summarised.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time

POLICIES = ("advisor", "random", "greedy", "cells")
SEAT = "Ana"


# ----- Mystery Hand -------------------------------------------------------------------------
def _record(header, evs):
    from solver.records import Record, Statement

    base = len(header.lines())
    seen, kept = set(), []
    for ev in evs:
        from solver.mystery_hand.events import Holds
        if isinstance(ev, Holds):
            if ev.player in seen:
                continue
            seen.add(ev.player)
        kept.append(ev)
    return Record(header=header, statements=tuple(
        Statement(base + 1 + i, str(ev), ev) for i, ev in enumerate(kept)))


def _determined(rec_seat, target="mystery"):
    """(determined?, the hand) by complete inference from the seat's own record."""
    from solver.model.counting import location_sets
    from solver.mystery_hand.inference import build

    vm = build(rec_seat, SEAT)
    res = location_sets(vm.model, target, top=1, max_states=400_000)
    if res is not None and res[0] == 1:
        return True, tuple(sorted(res[1][0][0]))
    return False, None


def play_mystery_hand(n_players: int, seed: int, policy: str, samples: int = 150,
                      cells_deals: int = 12, max_turns: int = 300) -> dict:
    from solver.cards import standard_deck
    from solver.model.budget import Budget
    from solver.mystery_hand import simulate as S
    from solver.mystery_hand.advise import QUERIES, suggest
    from solver.mystery_hand.events import Announce, Holds
    from solver.mystery_hand.inference import as_written_by
    from solver.mystery_hand.options import MysteryHandOptions, deal_sizes
    from solver.records import Header

    opts = MysteryHandOptions.from_names(())
    hand_size, faceup_size = deal_sizes(n_players, opts)
    rng = random.Random(seed)
    seat_rng = random.Random(f"seat-{seed}")
    players = S.NAMES[:n_players]
    deck = standard_deck()
    rng.shuffle(deck)
    mystery = sorted(deck[:4])
    rest = deck[4:]
    rng.shuffle(rest)
    hands = {p: sorted(rest[i * hand_size:(i + 1) * hand_size]) for i, p in enumerate(players)}
    faceup = sorted(rest[n_players * hand_size:])
    # the seat asks first: the dealer is the last player
    header = Header(game="mystery-hand", players=players, variant=(), dealer=players[-1],
                    me=players[0])
    from solver.mystery_hand.events import FaceUp
    evs: list = [Holds(p, tuple(hands[p])) for p in players]
    if faceup:
        evs.append(FaceUp(tuple(faceup)))
    where = {c: p for p, cs in hands.items() for c in cs}
    for c in faceup:
        where[c] = "faceup"
    for c in mystery:
        where[c] = "mystery"
    sizes = {p: hand_size for p in players}
    sizes["mystery"] = 4
    if faceup_size:
        sizes["faceup"] = faceup_size
    real = standard_deck()
    know = {}
    for p in players:
        k = S.Knowledge(real, dict(sizes))
        for c in hands[p]:
            k.place(c, p)
        for c in real:
            if c not in hands[p]:
                k.exclude(c, p)
        for c in faceup:
            k.place(c, "faceup")
        k.propagate()
        know[p] = k
    # the seat's direct-mark sheet: no propagation at all
    direct = S.Knowledge(real, dict(sizes))
    for c in hands[SEAT]:
        direct.place(c, SEAT)
    for c in real:
        if c not in hands[SEAT]:
            direct.exclude(c, SEAT)
    for c in faceup:
        direct.place(c, "faceup")
    from solver.mystery_hand import engine as E

    state = E.start(players, opts, players[-1])
    for p in players:       # every hand is the simulator's to see: the engine's legality
        state = E.with_hand(state, p, hands[p])
    turns = seat_turns = 0
    det_complete = det_direct = None      # statement index when first determined
    det_complete_turn = None              # the seat's turn count then
    winner = None
    t0 = time.process_time()
    while not state.over and turns < max_turns:
        choices = state.may_act()
        if SEAT in choices and policy != "random":
            actor = SEAT        # the seat always takes an extra turn it earned
        else:
            actor = choices[-1] if len(choices) > 1 and rng.random() < 0.8 else choices[0]
        ev = None
        if actor == SEAT:
            seat_turns += 1
            rec_seat = as_written_by(_record(header, evs), SEAT)
            if det_direct is None and len(direct.certain("mystery")) == 4:
                det_direct = turns
            if policy == "random":
                ev = _sim_turn(S, rng, opts, actor, state, hands, where, know[actor], turns,
                               players)
            else:
                if policy == "advisor":     # (its announce is safe when determined)
                    adv = suggest(rec_seat, SEAT, budget=Budget(samples=samples),
                                  seed=seed * 1000 + turns, with_leak=False)
                    ev = _event_of(adv.best, SEAT, state, hands, mystery, S)
                    done = bool(adv.summary.get("determined"))
                else:
                    done, hand = _determined(rec_seat)
                if policy == "advisor":
                    pass
                elif done:
                    ev = Announce(SEAT, hand, tuple(hand) == tuple(mystery))
                elif policy == "greedy":
                    ev = _greedy(SEAT, state, hands, direct, QUERIES, seat_turns)
                else:
                    ev = _cells(SEAT, state, hands, direct, QUERIES, rec_seat, seat_rng,
                                cells_deals)
            if det_complete is None:
                if policy == "random":
                    done = _determined(rec_seat)[0]
                if done:
                    det_complete, det_complete_turn = turns, seat_turns
        else:
            ev = _sim_turn(S, rng, opts, actor, state, hands, where, know[actor], turns, players)
        evs.append(ev)
        turns += 1
        state = E.step(state, ev)
        S._learn(ev, know, hands, where, opts, state, players, {"mystery": mystery})
        _direct_marks(direct, ev, hands, state, players)
        if isinstance(ev, Announce):
            if ev.right:
                winner = ev.player
            else:
                evs.append(Holds(ev.player, tuple(hands[ev.player])))
                if ev.player == SEAT:
                    break
    if winner is None and state.over:
        winner = state.winner
    return {"game": "mystery-hand", "players": n_players, "seed": seed, "policy": policy,
            "winner": winner, "won": winner == SEAT, "statements": turns,
            "seat_turns": seat_turns, "det_complete": det_complete,
            "det_complete_turn": det_complete_turn, "det_direct": det_direct,
            "cpu": time.process_time() - t0}


def _sim_turn(S, rng, opts, actor, state, hands, where, k, turns, players):
    from solver.mystery_hand.events import Announce

    sure = k.certain("mystery")
    if len(sure) == 4:
        return Announce(actor, tuple(sorted(sure)), True)
    if rng.random() < 0.025 + max(0, turns - 60) / 200 and (len(sure) >= 2 or turns > 60):
        pool = [c for c, ls in k.poss.items() if "mystery" in ls and c not in sure]
        guess = sure + rng.sample(pool, 4 - len(sure))
        return Announce(actor, tuple(sorted(guess)), all(where[c] == "mystery" for c in guess))
    return S._query(rng, opts, actor, state, hands, where, k)


def _answer(kind, actor, target, q_or_card, state, hands):
    from solver.mystery_hand.events import AskAll, AskOne, Request

    others = [p for p in state.active if p != actor]
    if kind == "ask-one":
        shown = sorted(c for c in q_or_card.cards() if c in hands[target])
        return AskOne(actor, target, q_or_card, tuple(shown) if shown else None, len(shown))
    if kind == "ask-all":
        X = q_or_card.cards()
        return AskAll(actor, q_or_card, tuple((p, sum(1 for c in X if c in hands[p]))
                                              for p in others))
    holders = [p for p in others if q_or_card in hands[p]]
    return Request(actor, q_or_card, holders[0] if holders else None)


def _event_of(best, seat, state, hands, mystery, S):
    """The advisor's best action as an event, answered from the true deal."""
    from solver.cards import Card, parse_query_set
    from solver.mystery_hand.events import Announce

    words = best.action.split()
    if best.kind == "announce":
        cards = tuple(sorted(Card.parse(w) for w in words[2:]))
        return Announce(seat, cards, cards == tuple(mystery))
    if best.kind == "ask-one":
        return _answer("ask-one", seat, words[2], parse_query_set(words[3]), state, hands)
    if best.kind == "ask-all":
        return _answer("ask-all", seat, None, parse_query_set(words[3]), state, hands)
    return _answer("request", seat, None, Card.parse(words[2]), state, hands)


def _unplaced(direct, X):
    return sum(1 for c in X if len(direct.poss[c]) > 1)


def _greedy(seat, state, hands, direct, queries, turn_no):
    others = [p for p in state.active if p != seat]
    own = set(hands[seat])
    legal = [q for q in queries if not set(q.cards()) <= own]
    q = max(legal, key=lambda q: (_unplaced(direct, q.cards()), -legal.index(q)))
    target = others[turn_no % len(others)]
    return _answer("ask-one", seat, target, q, state, hands)


def _cells(seat, state, hands, direct, queries, rec_seat, rng, n_deals):
    """Expected (card, location) possibilities removed from the direct sheet, over a few
    sampled deals of the seat's posterior."""
    from solver.advice import sample_array, sample_relaxed
    from solver.model.counting import OverBudget
    from solver.mystery_hand.inference import build

    vm = build(rec_seat, SEAT)
    m = vm.model
    seed = rng.randrange(1 << 30)
    try:
        D = sample_array(m, n_deals, seed)
    except OverBudget:          # the programme does not fit: deals of a relaxed one, kept
        try:                    # when they meet the dropped statements (still uniform)
            D = sample_relaxed(m, n_deals, seed)
        except OverBudget:
            D = []
    if not len(D):              # no deal to go on: the greedy choice
        return _greedy(seat, state, hands, direct, queries, 0)
    locs = m.locations
    others = [p for p in state.active if p != seat]
    own = set(hands[seat])
    best, best_v = None, -1.0
    for q in queries:
        X = q.cards()
        if set(X) <= own:
            continue
        idx = [m.card_index(c) for c in X]
        for B in others:
            tot = 0
            for d in D:
                for c, ci in zip(X, idx):
                    ps = direct.poss[c]
                    if len(ps) == 1:
                        continue
                    if locs[d[ci]] == B:
                        tot += len(ps) - 1
                    elif B in ps:
                        tot += 1
            v = tot / len(D)
            if v > best_v:
                best, best_v = ("ask-one", B, q), v
    kind, B, q = best
    return _answer(kind, seat, B, q, state, hands)


def _direct_marks(direct, ev, hands, state, players):
    """The marks a statement gives the seat directly (no counting, no propagation)."""
    from solver.mystery_hand.events import AskAll, AskOne, Announce, Request

    if isinstance(ev, AskOne) and SEAT in (ev.asker, ev.target):
        for c in ev.query.cards():
            if c in hands[ev.target]:
                direct.place(c, ev.target)
            else:
                direct.exclude(c, ev.target)
    elif isinstance(ev, AskAll):
        for p, k in ev.counts:
            if k == 0:
                for c in ev.query.cards():
                    direct.exclude(c, p)
    elif isinstance(ev, Request):
        if ev.shower:
            direct.place(ev.card, ev.shower)
        else:
            direct.place(ev.card, "mystery")
    elif isinstance(ev, Announce) and not ev.right:
        for c in hands[ev.player]:
            direct.place(c, ev.player)


# ----- Literature --------------------------------------------------------------------------
def play_literature(seed: int, policy: str, samples: int = 150) -> dict:
    """Six players; team Ana-Cleo-Eli follows ``policy`` (``advisor`` or ``random``)."""
    from solver.literature.advise import play_game

    t0 = time.process_time()
    out = play_game(seed, policy, samples=samples)
    out.update(game="literature", players=6, seed=seed, policy=policy,
               cpu=time.process_time() - t0)
    return out


def literature_safe(seed: int, view: str = "Ana", max_steps: int = 400) -> dict:
    """When a claim first becomes safe for ``view`` in a random 6-player game: by complete
    inference (``Game.knowledge(...).safe``, the analysis) and by direct marks (the view's own
    hand plus the cards seen moving in public; no inference at all).  Statement indices."""
    from dataclasses import replace

    from solver.games import get_game
    from solver.literature.engine import Play, cut_points
    from solver.literature.events import Ask, Holds
    from solver.model.budget import STEP_BUDGET

    g = get_game("literature")
    rec = g.simulate(6, (), seed=seed)
    t0 = time.process_time()
    st = rec.statements
    play0 = Play.of(replace(rec, statements=()))
    t = play0.table
    team = set(t.team_of(view))
    where: dict = {}
    direct = complete = None
    cuts = set(cut_points(rec))
    for i in range(1, min(len(st), max_steps) + 1):
        ev = st[i - 1].event
        if isinstance(ev, Holds) and ev.player == view:
            for c in ev.cards:
                where[repr(c)] = view
        elif isinstance(ev, Ask) and ev.answer == "yes":
            where[repr(ev.card)] = ev.asker
        if i not in cuts:          # a claim without its shown line yet
            continue
        prefix = replace(rec, statements=tuple(st[:i]))
        play = Play.of(prefix)
        if direct is None:
            for h in play.open_halves():
                cards = {repr(c) for c in play.half(h).cards}
                if all(where.get(c) in team for c in cards):
                    direct = i
                    break
        if complete is None:
            k = g.knowledge(prefix, view, STEP_BUDGET)
            if k.safe:
                complete = i
        if direct is not None and complete is not None:
            break
    return {"game": "literature-safe", "seed": seed, "complete": complete, "direct": direct,
            "statements": len(st), "cpu": time.process_time() - t0}


# ----- summary ------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, c - h), min(1.0, c + h))


def paired_diff(a: list[int], b: list[int], z: float = 1.96) -> tuple[float, float, float]:
    """Mean difference of paired 0/1 outcomes and its normal 95 % interval."""
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    if n < 2:
        return (0.0, -1.0, 1.0)
    m = statistics.fmean(d)
    s = statistics.stdev(d) / math.sqrt(n)
    return (m, m - z * s, m + z * s)


def summarise(rows: list[dict]) -> str:
    out = []
    mh = [r for r in rows if r["game"] == "mystery-hand"]
    for n in sorted({r["players"] for r in mh}):
        by = {p: {r["seed"]: r for r in mh if r["players"] == n and r["policy"] == p}
              for p in POLICIES}
        common = set.intersection(*[set(v) for v in by.values() if v]) if any(by.values()) \
            else set()
        out.append(f"\n### Mystery Hand, {n} players ({len(common)} paired games; seat Ana "
                   f"asks first)\n")
        out.append("| seat policy | games | wins | win rate (95 % CI) | median seat turns "
                   "to determined | median statements | CPU s/game |")
        out.append("|---|---|---|---|---|---|---|")
        for p in POLICIES:
            rs = [by[p][s] for s in sorted(common)] if common else []
            if not rs:
                continue
            k = sum(r["won"] for r in rs)
            lo, hi = wilson(k, len(rs))
            dt = [r["det_complete_turn"] for r in rs if r["det_complete_turn"] is not None]
            med = statistics.median(dt) if dt else None
            out.append(f"| {p} | {len(rs)} | {k} | {k / len(rs):.3f} ({lo:.3f}-{hi:.3f}) | "
                       f"{med if med is not None else '-'} ({len(dt)} games) | "
                       f"{statistics.median(r['statements'] for r in rs)} | "
                       f"{statistics.fmean(r['cpu'] for r in rs):.1f} |")
        if common and by["advisor"]:
            adv = [int(by["advisor"][s]["won"]) for s in sorted(common)]
            out.append("")
            for p in POLICIES[1:]:
                if not by[p]:
                    continue
                other = [int(by[p][s]["won"]) for s in sorted(common)]
                m, lo, hi = paired_diff(adv, other)
                ratio = (sum(adv) / sum(other)) if sum(other) else float("inf")
                out.append(f"- advisor minus {p}: {m:+.3f} win rate (95 % CI {lo:+.3f} to "
                           f"{hi:+.3f}); ratio {ratio:.2f}x")
        gaps, never = [], 0
        for r in mh:
            if r["players"] != n:
                continue
            if r["det_complete"] is not None:
                if r["det_direct"] is None:
                    never += 1
                else:
                    gaps.append(r["det_direct"] - r["det_complete"])
        tot = sum(1 for r in mh if r["players"] == n and r["det_complete"] is not None)
        if tot:
            out.append(f"- complete inference vs direct marks ({tot} seat-games where complete "
                       f"inference determined the mystery hand): direct marks never did in "
                       f"{never} ({never / tot:.0%}); where both did ({len(gaps)}), direct "
                       f"marks were {statistics.median(gaps) if gaps else '-'} statements "
                       f"later (median)")
    ls = [r for r in rows if r["game"] == "literature-safe"]
    if ls:
        both = [r["direct"] - r["complete"] for r in ls
                if r["direct"] is not None and r["complete"] is not None]
        only = sum(1 for r in ls if r["complete"] is not None and r["direct"] is None)
        done = sum(1 for r in ls if r["complete"] is not None)
        out.append(f"\n### Literature: first safe claim, complete inference vs direct marks "
                   f"({len(ls)} random 6-player games, view Ana)\n")
        out.append(f"- complete inference found a safe claim in {done} games; direct marks "
                   f"never did in {only} of them; where both did ({len(both)}), direct marks "
                   f"were {statistics.median(both) if both else '-'} statements later "
                   f"(median; mean {statistics.fmean(both) if both else float('nan'):.1f})")
    lit = [r for r in rows if r["game"] == "literature"]
    if lit:
        out.append("\n### Literature, 6 players (team Ana Cleo Eli)\n")
        out.append("| team policy | games | wins | ties | win rate (95 % CI) | CPU s/game |")
        out.append("|---|---|---|---|---|---|")
        for p in ("advisor", "random"):
            rs = [r for r in lit if r["policy"] == p]
            if not rs:
                continue
            k = sum(r["won"] for r in rs)
            t = sum(r.get("tie", False) for r in rs)
            lo, hi = wilson(k, len(rs))
            out.append(f"| {p} | {len(rs)} | {k} | {t} | {k / len(rs):.3f} ({lo:.3f}-{hi:.3f})"
                       f" | {statistics.fmean(r['cpu'] for r in rs):.1f} |")
        if lit:
            ex = [r for r in lit if r.get("claims_safe_first") is not None]
            if ex:
                g = [r["claims_safe_first"] for r in ex]
                out.append(f"\n- safe claims: complete inference made a claim safe "
                           f"{statistics.median(g)} statements earlier than direct marks "
                           f"(median over {len(g)} games)")
    return "\n".join(out)


def speed(players=(4, 5, 6), seeds=range(1, 6), events=(12, 24)) -> str:
    """``sleuth suggest`` (the whole advice, leak included, default budget) from the first
    player's own record, mid-game: CPU and wall seconds per state."""
    from solver.games import get_game
    from solver.mystery_hand.inference import as_written_by

    g = get_game("mystery-hand")
    lines = ["| players | statements | states | median CPU s | max CPU s | median wall s | "
             "max wall s | exact |", "|---|---|---|---|---|---|---|---|"]
    for n in players:
        for ev in events:
            cpu, wall, ex = [], [], 0
            for seed in seeds:
                rec = as_written_by(g.simulate(n, [], seed=seed, events=ev), "Ana")
                t0, c0 = time.perf_counter(), time.process_time()
                adv = g.suggest(rec, "Ana")
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - t0)
                ex += adv.exact
            lines.append(f"| {n} | {ev} | {len(cpu)} | {statistics.median(cpu):.2f} | "
                         f"{max(cpu):.2f} | {statistics.median(wall):.2f} | {max(wall):.2f} | "
                         f"{ex}/{len(cpu)} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, nargs="*", default=[4, 6])
    ap.add_argument("--policies", nargs="*", default=list(POLICIES))
    ap.add_argument("--literature", type=int, default=0, help="Literature games (6 players)")
    ap.add_argument("--samples", type=int, default=150)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/advisor.jsonl")
    ap.add_argument("--summary", help="Summarise a results file and exit.")
    ap.add_argument("--speed", action="store_true", help="Time 'suggest' in mid-game states.")
    ap.add_argument("--literature-safe", type=int, default=0,
                    help="Games for the first-safe-claim comparison (Literature).")
    a = ap.parse_args(argv)
    if a.speed:
        print(speed())
        return 0
    if a.literature_safe:
        with open(a.out, "a") as f:
            for seed in range(a.first_seed, a.first_seed + a.literature_safe):
                f.write(json.dumps(literature_safe(seed)) + "\n")
                f.flush()
        print(summarise([json.loads(l) for l in open(a.out) if l.strip()]))
        return 0
    if a.summary:
        rows = [json.loads(l) for l in open(a.summary) if l.strip()]
        print(summarise(rows))
        return 0
    from benchmarks.common import machine  # noqa: F401  (one BLAS thread etc.)
    with open(a.out, "a") as f:
        for seed in range(a.first_seed, a.first_seed + a.games):
            for n in a.players:
                for p in a.policies:
                    r = play_mystery_hand(n, seed, p, samples=a.samples)
                    f.write(json.dumps(r) + "\n")
                    f.flush()
            if seed - a.first_seed < a.literature:
                for p in ("advisor", "random"):
                    try:
                        r = play_literature(seed, p, samples=a.samples)
                    except ImportError:
                        continue
                    f.write(json.dumps(r) + "\n")
                    f.flush()
    print(summarise([json.loads(l) for l in open(a.out) if l.strip()]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
