"""Clue: does following the advisor win more games?  (issue 47; results in docs/advisor.md)

One seat (``Ana``, at the dealer's left, so she suggests first, CL-3) is played by a
policy; every other seat by the table's policy.  The same seed gives the same case file,
deal and random streams of the other seats under every seat policy, so the comparisons are
paired.  Standard deck, the refuter's card chosen at random (A4); the board is not
modelled (any room may be named).  The rules are the standard ones (``refute=first``, hands
dealt as CL-2) or, with ``--variant``, those of the record header's ``variant:`` names
(``solver.clue.options``): ``refute=all`` (CL-13: every player who holds a named card
shows one, in seat order) and ``leftovers=face-up`` (CL-11: equal hands, the rest face up
and known to everyone).  Policies:

* ``advisor``: the advisor's best action (``solver.clue.advise.suggest`` from the player's
  own view: its best suggestion, or its accusation when that ranks first), with
  ``--samples`` exact uniform deals when the posterior is too large to enumerate;
* ``advisor-cautious``: the same suggestions, but a guess only when it is right with
  ``p_right >= 0.75`` (the advisor guesses once it is more likely right than wrong);
* ``greedy`` (one step, competent): complete inference from its own view (the project's
  analysis), accusing the moment the case file is determined; otherwise, in each kind,
  the card that may still be in the case file and is most likely not (the card most likely
  to be shown, ruling one out), the case file's own card in a kind already solved;
* ``random``: the simulator's player (``solver.clue.simulate``): a random triple, mostly of
  cards its own sound bookkeeping has not ruled out (own hand, cards shown to it,
  suggestions nobody refuted), accusing when that bookkeeping leaves one triple and now and
  then on a guess.

A game ends with a right accusation or when one player is left in (CL-8, CL-9); a seat
policy wins when Ana makes the right accusation (or is the last one left).

    python -m benchmarks.clue_advisor --games 100 --players 3 4 5 6 --out /tmp/clue.jsonl
    python -m benchmarks.clue_advisor --games 50 --players 4 --variant refute=all \
        --policies advisor greedy --out /tmp/clue.jsonl
    python -m benchmarks.clue_advisor --summary /tmp/clue.jsonl
"""
from __future__ import annotations

import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import random
import statistics
import sys
import time

from benchmarks.advisor import paired_diff, wilson

SEAT = "Ana"
POLICIES = ("advisor", "advisor-cautious", "greedy", "random")
#: advisor-cautious: the chance of being right from which it accuses on a guess
CAUTIOUS = 0.75
TABLES = ("greedy", "random")
#: a game still going after this many turns counts as nobody's win
MAX_TURNS = 400


class Table:
    """The true deal and the complete record so far."""

    def __init__(self, n_players: int, seed: int, variant: tuple[str, ...] = ()):
        from solver.clue.engine import State
        from solver.clue.events import FaceUp, Holds
        from solver.clue.options import STANDARD, ClueOptions, hand_sizes, seating_from
        from solver.clue.simulate import NAMES
        from solver.records import Header

        rng = random.Random(seed)
        self.deck = STANDARD
        self.players = NAMES[:n_players]
        self.opts = ClueOptions.from_names(variant)      # a NotationError names a bad one
        dealer = self.players[-1]
        self.header = Header(game="clue", players=self.players,
                             variant=tuple(self.opts.names()), dealer=dealer, me=SEAT)
        sizes, nface = hand_sizes(self.players, dealer, self.opts, self.deck)
        self.case = tuple(rng.choice(g) for g in self.deck.groups)
        rest = [c for c in self.deck.cards if c not in self.case]
        rng.shuffle(rest)
        # CL-11 as the simulator deals: the first of the shuffled rest face up (none under
        # the standard rules, so their deals are those of the same seed before variants)
        self.faceup, rest = rest[:nface], rest[nface:]
        self.hands: dict[str, list[str]] = {}
        i = 0
        for p in seating_from(self.players, dealer):
            self.hands[p] = rest[i:i + sizes[p]]
            i += sizes[p]
        order = {c: k for k, c in enumerate(self.deck.cards)}
        self.events: list = [Holds(p, tuple(sorted(self.hands[p], key=order.__getitem__)))
                             for p in self.players]
        if self.faceup:
            self.events.append(FaceUp(tuple(sorted(self.faceup, key=order.__getitem__))))
        self.order = seating_from(self.players, dealer)     # Ana first
        self.state = State(tuple(self.players))             # the engine's: who is out, the end

    def record(self):
        from solver.records import Record, Statement

        base = len(self.header.lines())
        return Record(header=self.header, statements=tuple(
            Statement(base + 1 + k, str(ev), ev) for k, ev in enumerate(self.events)))

    @property
    def out(self) -> tuple[str, ...]:
        return self.state.out

    def suggest(self, p: str, triple, rng: random.Random):
        """The refutation from the true deal (CL-6, or CL-13 under ``refute=all``: every
        player who can shows), each refuter's card at random (A4)."""
        from solver.clue.engine import verify_suggest
        from solver.clue.events import Answer, Suggest, seating_after

        verify_suggest(self.state, p)
        answers = []
        for q in seating_after(p, self.players):
            can = [c for c in triple if c in self.hands[q]]
            if can:
                answers.append(Answer(q, True, rng.choice(can)))
                if self.opts.refute == "first":
                    break
            else:
                answers.append(Answer(q, False))
        ev = Suggest(p, tuple(triple), tuple(answers))
        self.events.append(ev)
        return ev

    def accuse(self, p: str, triple):
        from solver.clue.engine import step, verify_accuse
        from solver.clue.events import Accuse

        verify_accuse(self.state, p)
        ev = Accuse(p, tuple(triple), tuple(triple) == self.case)
        self.events.append(ev)
        self.state = step(self.state, ev)
        return ev


class RandomPlayer:
    """The simulator's player (solver.clue.simulate): its own sound bookkeeping."""

    def __init__(self, table: Table, p: str):
        self.t, self.p = table, p
        self.cleared = set(table.hands[p]) | set(table.faceup)     # CL-11: face up is public

    def act(self, rng: random.Random):
        from solver.clue.simulate import GUESS

        t = self.t
        left = [[c for c in g if c not in self.cleared] for g in t.deck.groups]
        if all(len(g) == 1 for g in left) or rng.random() < GUESS:
            guess = tuple(g[0] if len(g) == 1 else rng.choice(g) for g in left)
            return t.accuse(self.p, guess)
        triple = tuple(rng.choice(g) if g and rng.random() < 0.85 else rng.choice(full)
                       for g, full in zip(left, t.deck.groups))
        return t.suggest(self.p, triple, rng)

    def learn(self, ev) -> None:
        from solver.clue.events import Accuse, Suggest

        t = self.t
        if isinstance(ev, Accuse) and not ev.right and ev.player == self.p:
            self.cleared |= set(t.deck.cards) - set(t.case)     # it looked (E3)
        if not isinstance(ev, Suggest) or ev.player != self.p:
            return
        for a in ev.answers or ():
            if a.shows and a.card:
                self.cleared.add(a.card)
        if not ev.showers:                  # E2: each of the three is its own or in S
            for g in t.deck.groups:
                c = next(c for c in ev.cards if c in g)
                if c not in t.hands[self.p] and c not in t.faceup:
                    self.cleared |= set(g) - {c}


def _case_file_view(table: Table, p: str):
    """The analysis from p's own view of the complete record so far."""
    from solver.clue.analysis import analyze

    return analyze(table.record(), p)


class GreedyPlayer:
    """One step: complete inference, the card most likely shown in each kind."""

    def __init__(self, table: Table, p: str):
        self.t, self.p = table, p

    def act(self, rng: random.Random):
        from solver.clue.options import ENVELOPE

        t = self.t
        a = _case_file_view(t, self.p)
        ans = a.envelope.answer()
        if ans is not None:
            return t.accuse(self.p, ans)
        triple = []
        for g in t.deck.groups:
            maybe = [c for c in g if ENVELOPE in a.possible[c]]
            if len(maybe) == 1:
                triple.append(maybe[0])
                continue
            # the least likely in the case file; ties in the deck's order
            triple.append(min(maybe, key=lambda c: a.cards[c].get(ENVELOPE, 0.0)))
        return t.suggest(self.p, triple, rng)

    def learn(self, ev) -> None:
        """Nothing to keep: the analysis reads the record."""


class AdvisorPlayer:
    """The advisor's best action from the player's own view."""

    def __init__(self, table: Table, p: str, samples: int, seed: int, cautious: bool = False):
        self.t, self.p, self.samples, self.seed = table, p, samples, seed
        self.cautious = cautious
        self.turn = 0

    def act(self, rng: random.Random):
        from solver.clue.advise import suggest
        from solver.model.budget import Budget

        self.turn += 1
        adv = suggest(self.t.record(), self.p, budget=Budget(samples=self.samples),
                      seed=self.seed * 1000 + self.turn)
        best = adv.actions[0]
        if (self.cautious and best.kind == "accuse" and not best.more["safe"]
                and best.more["p_right"] < CAUTIOUS):
            best = next(a for a in adv.actions if a.kind == "suggest")
        triple = best.action.split()[2:5]
        if best.kind == "accuse":
            return self.t.accuse(self.p, triple)
        return self.t.suggest(self.p, triple, rng)

    def learn(self, ev) -> None:
        """Nothing to keep: the advisor reads the record."""


def _player(policy: str, table: Table, p: str, samples: int, seed: int):
    if policy.startswith("advisor"):
        return AdvisorPlayer(table, p, samples, seed, cautious=policy == "advisor-cautious")
    if policy == "greedy":
        return GreedyPlayer(table, p)
    return RandomPlayer(table, p)


def play(n_players: int, seed: int, seat_policy: str, table_policy: str,
         samples: int = 200, variant: tuple[str, ...] = ()) -> dict:
    """One game; the other seats' random streams do not depend on the seat's policy."""
    return game(n_players, seed, seat_policy, table_policy, samples, variant)[1]


def game(n_players: int, seed: int, seat_policy: str, table_policy: str,
         samples: int = 200, variant: tuple[str, ...] = ()) -> tuple[Table, dict]:
    """One game: the table at its end (its record) and the result row."""
    from solver.clue.engine import can_turn
    from solver.clue.events import Accuse

    t = Table(n_players, seed, variant)
    players = {p: _player(seat_policy if p == SEAT else table_policy, t, p, samples, seed)
               for p in t.players}
    rngs = {p: random.Random(f"{seed}-{p}") for p in t.players}
    winner = None
    turns = seat_turns = 0
    seat_cpu = 0.0
    t0 = time.process_time()
    while winner is None and turns < MAX_TURNS:
        p = t.order[turns % len(t.order)]
        turns += 1
        if not can_turn(t.state, p):        # out after a wrong accusation (CL-9)
            continue
        c0 = time.process_time()
        ev = players[p].act(rngs[p])
        if p == SEAT:
            seat_turns += 1
            seat_cpu += time.process_time() - c0
        for q in players.values():
            q.learn(ev)
        if t.state.over:                # a right accusation, or the last one in (CL-9)
            winner = t.state.winner
    accusations = [ev for ev in t.events if isinstance(ev, Accuse) and ev.player == SEAT]
    deal = n_players + bool(t.faceup)       # the holds: lines and the faceup: line
    return t, {"game": "clue", "players": n_players, "seed": seed, "policy": seat_policy,
               "table": table_policy, "variant": " ".join(t.header.variant),
               "winner": winner, "won": winner == SEAT, "seat_out": SEAT in t.out,
               "seat_accused_wrong": sum(not a.right for a in accusations),
               "statements": len(t.events) - deal, "seat_turns": seat_turns,
               "seat_cpu": seat_cpu, "cpu": time.process_time() - t0}


def summarise(rows: list[dict]) -> str:
    """One table per table policy: a row per player count, over the seeds every seat
    policy finished (paired), each policy's win rate with its 95 % Wilson interval, the
    paired differences from the advisor with their 95 % normal intervals, and how often
    each policy put itself out with a wrong accusation; the standard rules' tables first,
    then each variant's."""
    rows = [r for r in rows if r.get("game") == "clue"]
    variants = sorted({r.get("variant", "") for r in rows})
    return "\n".join(_summarise_variant([r for r in rows if r.get("variant", "") == v], v)
                     for v in variants)


def _summarise_variant(rows: list[dict], variant: str) -> str:
    out = []
    rules = f", `variant: {variant}`" if variant else ""
    for table in TABLES:
        ns = sorted({r["players"] for r in rows if r["table"] == table})
        present = [p for p in POLICIES if any(r["table"] == table and r["policy"] == p
                                              for r in rows)]
        if not ns or not present:
            continue
        others = [p for p in present if p != "advisor"]
        out.append(f"\n### Clue, a table of `{table}` players (Ana suggests first{rules})\n")
        out.append("| players | paired games (seeds) | " +
                   " | ".join(f"{p} wins (95 % CI)" for p in present) + " | " +
                   " | ".join(f"advisor - {p} (95 % CI)" for p in others
                              if "advisor" in present) +
                   " | out on a wrong accusation (" + " / ".join(present) + ") | median "
                   "turns of Ana's wins (" + " / ".join(present) + ") |")
        out.append("|---|---|" + "---|" * len(present) +
                   "---|" * (len(others) if "advisor" in present else 0) + "---|---|")
        for n in ns:
            by = {p: {r["seed"]: r for r in rows
                      if r["players"] == n and r["table"] == table and r["policy"] == p}
                  for p in present}
            common = sorted(set.intersection(*[set(by[p]) for p in present]))
            if not common:
                continue
            won = {p: [int(by[p][s]["won"]) for s in common] for p in present}
            cells = []
            for p in present:
                k = sum(won[p])
                lo, hi = wilson(k, len(common))
                cells.append(f"{k} = {k / len(common):.2f} ({lo:.2f}-{hi:.2f})")
            if "advisor" in present:
                for p in others:
                    m, lo, hi = paired_diff(won["advisor"], won[p])
                    cells.append(f"{m:+.2f} ({lo:+.2f} to {hi:+.2f})")
            wrong = " / ".join(str(sum(by[p][s]["seat_accused_wrong"] > 0 for s in common))
                               for p in present)
            turns = " / ".join(
                f"{statistics.median(by[p][s]['seat_turns'] for s in common if by[p][s]['won']):g}"
                if any(won[p]) else "-" for p in present)
            out.append(f"| {n} | {len(common)} ({common[0]}-{common[-1]}) | "
                       + " | ".join(cells) + f" | {wrong} | {turns} |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    ap.add_argument("--policies", nargs="*", default=list(POLICIES), choices=POLICIES)
    ap.add_argument("--tables", nargs="*", default=list(TABLES), choices=TABLES)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--variant", nargs="*", default=[],
                    help="the rules' variant names as a record header's 'variant:' line "
                         "takes them, e.g. refute=all, leftovers=face-up (default: standard)")
    ap.add_argument("--out", default="/tmp/clue_advisor.jsonl")
    ap.add_argument("--summary", help="Summarise a results file and exit.")
    a = ap.parse_args(argv)
    if not a.summary:
        with open(a.out, "a") as f:
            for seed in range(a.first_seed, a.first_seed + a.games):
                for n in a.players:
                    for table in a.tables:
                        for p in a.policies:
                            r = play(n, seed, p, table, samples=a.samples,
                                     variant=tuple(a.variant))
                            f.write(json.dumps(r) + "\n")
                            f.flush()
    with open(a.summary or a.out) as f:
        print(summarise([json.loads(l) for l in f if l.strip()]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
