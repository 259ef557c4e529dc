"""Issue 3 calibration (on demand): ``python -m benchmarks.calibration [--games 500]``.

Over simulated Mystery Hand games (2 to 8 players, every variant), each analysed once at a
random prefix from a random view (a player's own record, or a spectator's), compare the
predicted probabilities with where the cards really are (the simulator's deal):

* a reliability table over every (card, location) prediction strictly between 0 and 1
  (bins of predicted p: count, mean predicted, observed frequency), plus the certainties
  (p = 0 and p = 1 must be observed 0 % and 100 % of the time);
* the Brier score per card (sum over locations of (p - outcome)^2, averaged over cards)
  against two naive predictors that know the same certainties: uniform over the card's
  possible locations, and proportional to each possible location's free room;
* the top mystery-hand candidate: its predicted probability against how often it is the
  real mystery hand.

Jokers (Sneak) are left out: two interchangeable copies have an expected count, not a
probability.  Prints Markdown for docs/benchmarks.md.
"""
from __future__ import annotations

import os

# one BLAS thread: the rejection baseline's matrix products must not leave worker threads
# spinning on the second core while our single-threaded analysis is being timed
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import random
import sys
import time
from collections import Counter

from benchmarks.common import fmt_s, load, machine, median, print_machine

VARIANTS = [(), ("sneak",), ("keep-em-guessing",), ("no-exact-request",),
            ("sneak", "sneak-jokers-count-for-extra-turn"),
            ("keep-em-guessing", "no-exact-request")]
TWO = [("two-player=seen",), ("two-player=chosen",), ("two-player=blind",)]
BINS = [0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1.0]


def pick_game(rng: random.Random):
    """(players, variants): 2-player variants one game in eight, else 3-8 players."""
    if rng.random() < 1 / 8:
        return 2, rng.choice(TWO)
    return rng.randint(3, 8), rng.choice(VARIANTS)


def one_game(i: int, seed: int):
    """Analyse game ``i`` at a random prefix from a random view; returns the predictions
    (card name, {loc: p}, possible set, true location), the room per location, the top
    candidate's (p, right?) and some facts about the state."""
    from solver.cards import standard_deck
    from solver.mystery_hand.analysis import analyze
    from solver.mystery_hand.inference import as_written_by, build, true_deal
    from solver.mystery_hand.simulate import simulate

    rng = random.Random(seed * 1_000_003 + i)
    players, variants = pick_game(rng)
    rec = simulate(players, list(variants), rng.getrandbits(30))
    view = rng.choice(list(rec.header.players) + [None])
    w = as_written_by(rec, view)
    n = rng.randint(1, len(w.statements))
    prefix = w.prefix(n)
    t0 = time.perf_counter()
    a = analyze(prefix, view)
    secs = time.perf_counter() - t0
    deal = true_deal(rec)
    sizes = build(prefix, view).model.sizes
    certain_at = Counter(loc for name, poss in a.possible.items()
                         if name != "Jk" and len(poss) == 1 for loc in poss)
    room = {l: max(sizes[l] - certain_at.get(l, 0), 0) for l in sizes}
    preds = []
    for c in standard_deck():
        name = repr(c)
        preds.append((name, a.cards[name], a.possible[name], deal[c]))
    top = None
    if a.mystery.top:
        cards, p = a.mystery.top[0]
        truth = {c for c, l in deal.items() if l == a.target}
        top = (p, set(cards) == truth)
    info = {"players": players, "variants": variants, "view": view, "n": n,
            "exact": a.exact, "seconds": secs, "determined": a.mystery.determined,
            "locations": list(a.locations)}
    return preds, room, top, info


def brier(p: dict, truth: str, locs) -> float:
    return sum((p.get(l, 0.0) - (1.0 if l == truth else 0.0)) ** 2 for l in locs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write every game's facts (view, prefix, top candidate) here")
    args = ap.parse_args(argv)
    info = machine()
    start = time.perf_counter()
    rel = [[0, 0.0, 0] for _ in range(len(BINS) - 1)]   # count, sum p, hits
    zero = [0, 0]                                        # predictions p = 0, observed
    one = [0, 0]                                         # predictions p = 1, observed
    b_ours, b_unif, b_room = [], [], []                  # per uncertain card
    b_all = []                                           # per card, all cards
    tops = []
    facts = []
    for i in range(args.games):
        preds, room, top, st = one_game(i, args.seed)
        st.update(game=i, top=top)
        facts.append(st)
        if top is not None:
            tops.append(top)
        for name, p, poss, truth in preds:
            locs = st["locations"]
            for l in locs:
                q = p.get(l, 0.0)
                y = l == truth
                if q <= 0.0:
                    zero[0] += 1
                    zero[1] += y
                elif q >= 1.0:
                    one[0] += 1
                    one[1] += y
                else:
                    k = min(max(j for j in range(len(BINS) - 1) if BINS[j] <= q),
                            len(BINS) - 2)
                    rel[k][0] += 1
                    rel[k][1] += q
                    rel[k][2] += y
            b_all.append(brier(p, truth, locs))
            if len(poss) > 1:
                b_ours.append(brier(p, truth, locs))
                b_unif.append(brier({l: 1 / len(poss) for l in poss}, truth, locs))
                tot = sum(room[l] for l in poss)
                b_room.append(brier({l: room[l] / tot for l in poss} if tot else
                                    {l: 1 / len(poss) for l in poss}, truth, locs))
        if (i + 1) % 50 == 0:
            print(f"{i + 1} games, {time.perf_counter() - start:.0f} s", file=sys.stderr,
                  flush=True)
    total = time.perf_counter() - start
    out = print
    out("## Calibration: machine and command")
    out("")
    print_machine(info, out)
    out(f"- load average at end: {load()}; run time {total / 60:.1f} min")
    ex = sum(f["exact"] for f in facts)
    out(f"- {len(facts)} games ({Counter(f['players'] for f in facts).most_common()} by "
        f"players; {sum(f['view'] is None for f in facts)} public views), one random prefix "
        f"each (median {median(f['n'] for f in facts):.0f} statements); exact probabilities "
        f"in {ex}/{len(facts)}; median analysis {fmt_s(median(f['seconds'] for f in facts))}")
    out("")
    out("### Reliability (every card x location prediction with 0 < p < 1)")
    out("")
    out("| predicted p | predictions | mean predicted | observed frequency | difference |")
    out("|---|---|---|---|---|")
    for j, (cnt, sp, hits) in enumerate(rel):
        if not cnt:
            continue
        out(f"| [{BINS[j]:.2f}, {BINS[j + 1]:.2f}) | {cnt} | {sp / cnt:.4f} | "
            f"{hits / cnt:.4f} | {hits / cnt - sp / cnt:+.4f} |")
    out(f"| p = 0 (impossible) | {zero[0]} | 0 | {zero[1] / max(zero[0], 1):.4f} | |")
    out(f"| p = 1 (certain) | {one[0]} | 1 | {one[1] / max(one[0], 1):.4f} | |")
    ncal = sum(r[0] for r in rel)
    ece = sum(abs(r[2] - r[1]) for r in rel) / max(ncal, 1)
    out("")
    out(f"Expected calibration error over the uncertain predictions (count-weighted mean "
        f"|observed - predicted| per bin): {ece:.4f}.")
    out("")
    out("### Brier score per card (sum over locations of (p - outcome)^2)")
    out("")
    out("| predictor | uncertain cards | all cards |")
    out("|---|---|---|")
    nc = len(b_all) - len(b_ours)
    for name, b in (("cardsleuth (exact / estimated probabilities)", b_ours),
                    ("uniform over the possible locations", b_unif),
                    ("possible locations weighted by free room", b_room)):
        m = sum(b) / max(len(b), 1)
        out(f"| {name} | {m:.4f} (n = {len(b)}) | {sum(b) / (len(b) + nc):.4f} |")
    out("")
    out("(The naive predictors know the same certainties; on certain cards every predictor "
        "scores 0.)")
    out("")
    out("### The top mystery-hand candidate")
    out("")
    out("| predicted p of the top candidate | games | mean predicted | observed right |")
    out("|---|---|---|---|")
    for lo, hi in ((0, 0.01), (0.01, 0.1), (0.1, 0.3), (0.3, 0.6), (0.6, 0.999999),
                   (0.999999, 1.01)):
        ts = [t for t in tops if lo <= t[0] < hi]
        if ts:
            out(f"| [{lo:g}, {min(hi, 1):g}{']' if hi > 1 else ')'} | {len(ts)} | "
                f"{sum(t[0] for t in ts) / len(ts):.4f} | "
                f"{sum(t[1] for t in ts) / len(ts):.4f} |")


    if args.json:
        import json

        with open(args.json, "w") as f:
            json.dump({"machine": info, "games": facts}, f, indent=1)


if __name__ == "__main__":
    main()
