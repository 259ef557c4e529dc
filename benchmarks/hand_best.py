"""Benchmark: ``sleuth hand best`` on 15-card hands holding both wilds, against the
exhaustive reference (:mod:`solver.hand.bruteforce`) in the same run.

Run on demand::

    python -m benchmarks.hand_best      # 200 random deals, 50 two-suit, 50 go-out deals
    python -m benchmarks.hand_best --hands 50 --seed 3
    python -m benchmarks.hand_best --hands 0 --dense 0 --take 200   # 'hand take' only

Two families of hands, every Egyptian bonus on (so the Full Hand search is exercised):

* ``random``: the indicator and 13 cards dealt from the shuffled 106-card pack, plus both
  wilds (regime N: the two aces of the indicator's suit; regime A: the two jokers);
* ``two-suit``: 13 cards from two suits only, plus both wilds -- dense hands with hundreds
  of candidate melds;
* ``go-out``: 14 cards made of random runs and groups (3 to 5 cards each), both wilds
  standing in for two of their naturals, plus one random card -- hands that can go out,
  so the Full Hand search (HR-40, HR-59) has work to do.

Every answer is checked against the brute force (value, going out, multiplier); a mismatch
stops the run.  Prints a Markdown table (medians, worst cases, brute force / optimiser
ratio of the medians).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from solver.cards import JOKER, SUITS, Card, standard_deck
from solver.hand import HandOptions, best, make_regime
from solver.hand.bruteforce import brute_force

OPTIONS = HandOptions(bonus_wild_discard=True, bonus_two_wilds=True, bonus_colour=True,
                      bonus_suit=True)


def deal(rng: random.Random, family: str) -> tuple[Card, list[Card]]:
    pack = standard_deck(0) * 2 + [JOKER, JOKER]
    while True:
        ind = rng.choice(pack)
        if not ind.is_joker:
            break
    pack.remove(ind)
    wild = make_regime(ind, OPTIONS).wild
    wilds = [c for c in pack if c == wild][:2]
    rest = [c for c in pack if c != wild]
    if family == "two-suit":
        suits = rng.sample(SUITS, 2)
        rest = [c for c in rest if not c.is_joker and c.suit in suits]
    if family == "go-out":
        return ind, _melded_hand(rng, rest, wilds)
    return ind, wilds + rng.sample(rest, 13)


def _melded_hand(rng: random.Random, rest: list[Card], wilds: list[Card]) -> list[Card]:
    """14 cards that meld completely (random runs and groups, the two wilds standing in for
    two naturals) and a 15th card."""
    while True:
        pool = [c for c in rest if not c.is_joker]
        sizes = rng.choice([(3, 3, 4, 4), (5, 5, 4), (3, 3, 3, 5), (4, 5, 5), (3, 4, 3, 4)])
        melds = []
        for k in sizes:
            if k <= 4 and rng.random() < 0.4:
                rank = rng.randint(1, 13)
                suits = list({c.suit for c in pool if c.rank == rank})
                if len(suits) < k:
                    break
                meld = [Card(rank, s) for s in rng.sample(suits, k)]
            else:
                suit, lo = rng.choice(SUITS), rng.randint(1, 14 - k)
                meld = [Card(r, suit) for r in range(lo, lo + k)]
            if any(pool.count(c) < meld.count(c) for c in meld):
                break
            for c in meld:
                pool.remove(c)
            melds.append(meld)
        else:
            for w, meld in zip(wilds, rng.sample(melds, 2)):
                meld[rng.randrange(len(meld))] = w
            return [c for m in melds for c in m] + [rng.choice(pool)]


def run(n_random: int, n_dense: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for family, n in (("random", n_random), ("two-suit", n_dense), ("go-out", n_dense)):
        t_opt, t_bf, goes = [], [], 0
        if not n:
            continue
        for _ in range(n):
            ind, hand = deal(rng, family)
            t0 = time.perf_counter()
            res = best(hand, ind, OPTIONS)
            t1 = time.perf_counter()
            ref = brute_force(hand, ind, OPTIONS)
            t2 = time.perf_counter()
            got = (res.best_initial.value if res.best_initial else 0, res.can_go_out,
                   res.go_out.multiplier if res.can_go_out else 0)
            if got != (ref.value, ref.can_go_out, ref.multiplier):
                raise SystemExit(f"MISMATCH on {hand} (indicator {ind!r}): best {got}, "
                                 f"brute force {ref}")
            goes += res.can_go_out
            t_opt.append(t1 - t0)
            t_bf.append(t2 - t1)
        rows.append({"family": family, "hands": n, "go_out": goes,
                     "best_median_ms": 1000 * statistics.median(t_opt),
                     "best_worst_ms": 1000 * max(t_opt),
                     "brute_median_ms": 1000 * statistics.median(t_bf),
                     "brute_worst_ms": 1000 * max(t_bf),
                     "ratio": statistics.median(t_bf) / statistics.median(t_opt)})
    return rows


def run_take(n: int, seed: int) -> dict:
    """``sleuth hand take`` on ``n`` random situations: a 14-card hand (13 for an opened
    player, alternately), the top discard, a random indicator; standard options."""
    from solver.hand.taking import take

    rng = random.Random(seed)
    times, yes = [], 0
    for i in range(n):
        pack = standard_deck(0) * 2 + [JOKER, JOKER]
        rng.shuffle(pack)
        ind = next(c for c in pack if not c.is_joker)
        pack.remove(ind)
        opened = i % 2 == 1
        hand, discard = pack[:14 - opened], pack[14]
        t0 = time.perf_counter()
        yes += take(hand, discard, ind, HandOptions(), opened=opened).may_take
        times.append(time.perf_counter() - t0)
    return {"n": n, "may_take": yes, "median_ms": 1000 * statistics.median(times),
            "worst_ms": 1000 * max(times)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200, help="random deals (default 200)")
    ap.add_argument("--dense", type=int, default=50,
                    help="two-suit deals, and as many go-out deals (default 50)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--take", type=int, default=0,
                    help="also time 'hand take' on this many random situations")
    a = ap.parse_args(argv)
    # warm up (imports, CP-SAT's first call)
    best([Card.parse(c) for c in "2H 3H 4H 5H".split()], Card.parse("7C"), OPTIONS)
    rows = run(a.hands, a.dense, a.seed)
    print(f"hand best, 15 cards with both wilds, every bonus on; seed {a.seed}; "
          f"{os.cpu_count()} cores; load {os.getloadavg()[0]:.1f}")
    print("| hands | n | can go out | best median | best worst | brute median | "
          "brute worst | brute/best (medians) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['family']} | {r['hands']} | {r['go_out']} | {r['best_median_ms']:.1f} ms | "
              f"{r['best_worst_ms']:.1f} ms | {r['brute_median_ms']:.1f} ms | "
              f"{r['brute_worst_ms']:.1f} ms | {r['ratio']:.2f} |")
    print("every answer equal to the brute force's")
    if a.take:
        t = run_take(a.take, a.seed)
        print(f"hand take: {t['n']} situations, {t['may_take']} may take; median "
              f"{t['median_ms']:.1f} ms, worst {t['worst_ms']:.1f} ms")


if __name__ == "__main__":
    main()
