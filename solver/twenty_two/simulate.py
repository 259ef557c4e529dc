"""A random, rule-following game of Twenty-Two (any variant), played to its end (TT-17) and
written as a complete record: every hand with ``holds:``, every exchange with its cards.

Players draw for the first deal (TT-4), exchange a few random cards now and then (TT-8),
play by :func:`solver.twenty_two.policy.choose` (and, one play in four, any legal play at
random), reveal (TT-13), and tied losers draw for the deal (TT-14).  Every statement goes
through the rules engine as it is written.  Deterministic per seed.

>>> rec = simulate(3, [], seed=1)
>>> rec.header.players, rec.statements[0].text.startswith("draw:")
(('Ana', 'Ben', 'Cleo'), True)
>>> from solver.twenty_two.engine import replay
>>> replay(rec).over
True
"""
from __future__ import annotations

import random
from collections import Counter
from typing import cast

from solver.cards import Card
from solver.errors import RuleError
from solver.records import Header, Record, Statement
from solver.twenty_two.events import Deal, Draw, Exchange, Holds, Showdown, Trick
from solver.twenty_two.options import TwentyTwoOptions, check_players
from solver.twenty_two.ranking import pick, ranks
from solver.twenty_two.policy import choose
from solver.twenty_two.engine import Engine

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea",
         "Max", "Ned", "Ola", "Pia")
EXPLORE = 0.25      # share of plays chosen among all legal plays
SPLIT = 0.2         # share of tricks written on two lines (a lead, then 'P plays ...')


def simulate(n_players: int, options, seed: int, events_limit: int | None = None) -> Record:
    """A complete record of a random legal game (stopped after ``events_limit`` statements if
    given)."""
    opts = cast(TwentyTwoOptions, TwentyTwoOptions.from_names(options))
    if n_players > len(NAMES):
        raise RuleError(f"the simulator names at most {len(NAMES)} players", text=str(n_players),
                        rule="TT-1")
    check_players(n_players, opts)
    players = NAMES[:n_players]
    header = Header(game="twenty-two", players=players, variant=tuple(opts.names()),
                    me=players[0])
    sim = _Sim(header, opts, random.Random(seed), events_limit)
    try:
        sim.run()
    except _Stop:
        pass
    return Record(header=header, statements=tuple(sim.statements))


class _Stop(Exception):
    pass


class _Sim:
    def __init__(self, header, opts, rng, limit):
        self.eng = Engine(header, opts)
        self.opts, self.rng, self.limit = opts, rng, limit
        self.statements: list[Statement] = []
        self.line = len(header.lines())
        self.hands: dict[str, list[Card]] = {}

    def emit(self, ev):
        if self.limit is not None and len(self.statements) >= self.limit:
            raise _Stop
        self.line += 1
        st = Statement(self.line, str(ev), ev)
        self.eng.apply(st)  # every simulated statement is checked by the rules engine
        self.statements.append(st)

    def pack(self) -> list[Card]:
        eng = self.eng
        left = Counter(eng.deck)
        left.subtract(Counter(repr(c) for c, _ in eng.scoring_out()))
        cards = [Card.parse(n) for n, k in sorted(left.items()) for _ in range(k)]
        self.rng.shuffle(cards)
        return cards

    def run(self):
        eng = self.eng
        while not eng.over:
            turn = eng.turn()
            cand = eng.dealer_candidates
            if turn.kind == "draw" or (turn.kind == "deal" and (cand is None or len(cand) > 1)):
                pool = eng.draw_pool or cand or eng.players  # TT-4 / TT-14
                pack = self.pack()
                self.emit(Draw(tuple((p, pack[i]) for i, p in enumerate(pool))))
                continue
            if turn.kind == "deal":
                dealer = self.rng.choice(turn.players)
                self.deal(dealer)
                self.exchange()
                self.play_hand()
                continue
            raise AssertionError(f"unexpected turn {turn}")  # pragma: no cover

    def deal(self, dealer: str):
        eng = self.eng
        order, per, _ = eng.deal_plan(dealer)
        pack = self.pack()
        self.hands = {p: [] for p in order}
        for _ in range(per):  # TT-5: one at a time from the dealer's left
            for p in order:
                self.hands[p].append(pack.pop())
        self.stock = pack
        self.emit(Deal(dealer, per))
        for p in order:
            self.emit(Holds(p, tuple(sorted(self.hands[p]))))

    def exchange(self):
        eng = self.eng
        assert eng.deal is not None     # called just after deal() emitted the deal
        for p in eng.deal.receivers:
            if not self.stock:
                break  # TT-8, A4: nothing left to take
            hand = self.hands[p]
            k = 0
            if self.rng.random() < 0.5:
                k = self.rng.randint(1, min(3, len(hand), len(self.stock)))
            if k == 0:
                self.emit(Exchange(p, 0))
                continue
            draws = [self.stock.pop() for _ in range(k)]
            if self.opts.exchange == "draw-first":  # A6
                pool = hand + draws
                discards = self.rng.sample(pool, k)
            else:
                discards = self.rng.sample(hand, k)
                pool = hand + draws
            for c in discards:
                pool.remove(c)
            self.hands[p] = pool
            self.emit(Exchange(p, k, tuple(discards), tuple(draws)))

    def play_hand(self):
        eng = self.eng
        assert eng.deal is not None     # called just after deal() and exchange()
        order = list(eng.deal.receivers)
        while eng.hand_size > 1:
            leader = eng.leader
            assert leader is not None   # set by every deal (TT-9) and trick (TT-12)
            i = order.index(leader)
            trick: list[tuple[str, tuple[Card, ...]]] = []
            for k in range(len(order)):
                p = order[(i + k) % len(order)]
                want = choose(ranks(self.hands[p]), [ranks(c) for _, c in trick], self.opts,
                              self.rng, explore=self.rng.random() < EXPLORE)
                play = pick(self.hands[p], want)
                for c in play:
                    self.hands[p].remove(c)
                trick.append((p, tuple(play)))
            if self.rng.random() < SPLIT:  # written as played: the lead, then the rest
                cut = self.rng.randint(1, len(trick) - 1)
                self.emit(Trick(tuple(trick[:cut]), True))
                self.emit(Trick(tuple(trick[cut:]), False))
            else:
                self.emit(Trick(tuple(trick), True))
        self.emit(Showdown(tuple((p, self.hands[p][0]) for p in order)))
