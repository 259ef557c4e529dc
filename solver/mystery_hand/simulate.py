"""A random, rule-following Mystery Hand game, written as a complete record.

Players choose random legal queries, take extra turns when earned (usually), announce
when their own knowledge determines the mystery hand, and now and then announce a guess
(usually wrong).  Each simulated player's knowledge is a sound, cheap propagation (never a
false fact), so their announcements from knowledge are always right.  Deterministic per seed.

>>> rec = simulate(4, [], seed=3)
>>> rec.header.players, rec.statements[0].text.startswith("Ana holds:")
(('Ana', 'Ben', 'Cleo', 'Dev'), True)
"""
from __future__ import annotations

import random
from typing import cast

from solver.cards import JOKER, Card, standard_deck
from solver.errors import NotationError
from solver.mystery_hand.events import (QUERIES, TURN_EVENTS, AskAll, AskOne, Announce, FaceUp,
                                        Holds, MysteryCards, Request, TurnIs, Unseen)
from solver.mystery_hand.options import MysteryHandOptions, deal_sizes
from solver.mystery_hand.engine import (actor_of, can_exact, can_query, start, step,
                                        with_hand)
from solver.records import Header, Record, Statement

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal")


class Knowledge:
    """One player's sound (not complete) knowledge: possible locations per card."""

    def __init__(self, cards, sizes: dict[str, int]):
        self.sizes = sizes
        self.poss = {c: set(sizes) for c in cards}
        self.counts: list[tuple[frozenset, str, int, int]] = []

    def place(self, c, loc):
        if c in self.poss:
            self.poss[c] = {loc} if loc in self.poss[c] else self.poss[c]

    def exclude(self, c, loc):
        if c in self.poss and len(self.poss[c]) > 1:
            self.poss[c].discard(loc)

    def count(self, cards, loc, lo, hi):
        self.counts.append((frozenset(c for c in cards if c in self.poss), loc, lo, hi))

    def propagate(self):
        changed = True
        while changed:
            changed = False
            rules = list(self.counts) + [(frozenset(self.poss), l, n, n)
                                         for l, n in self.sizes.items()]
            for cards, loc, lo, hi in rules:
                sure = [c for c in cards if self.poss[c] == {loc}]
                maybe = [c for c in cards if loc in self.poss[c] and len(self.poss[c]) > 1]
                if len(sure) >= hi and maybe:
                    for c in maybe:
                        self.poss[c].discard(loc)
                    changed = True
                elif maybe and len(sure) + len(maybe) <= lo:
                    for c in maybe:
                        self.poss[c] = {loc}
                    changed = True

    def certain(self, loc) -> list:
        return [c for c, ls in self.poss.items() if ls == {loc}]


def simulate(n_players: int, options, seed: int, events: int | None = None,
             miss: float = 0.0) -> Record:
    """A random game as a complete record.  ``miss`` > 0: a lossy record, as a recorder
    who misses things writes it (:func:`lossy`); the hands stay listed, so the truth is
    known and every view can be analysed."""
    if not 0.0 <= miss <= 1.0:
        raise NotationError("--miss is a probability between 0 and 1", text=str(miss))
    opts = cast(MysteryHandOptions, MysteryHandOptions.from_names(options))
    if not 2 <= n_players <= 8:
        err = NotationError("Mystery Hand simulates 2 to 8 players: 3 to 8 by MH-1, 2 by "
                            "A13", text=str(n_players), rule="MH-1, A13")
        err.game = "mystery-hand"
        raise err
    hand_size, faceup_size = deal_sizes(n_players, opts)
    rng = random.Random(seed)
    players = NAMES[:n_players]
    deck = standard_deck()
    rng.shuffle(deck)
    hands: dict[str, list[Card]] = {}
    mysteries: dict[str, list[Card]] = {}
    faceup: list[Card] = []
    if opts.two_player == "chosen":
        for i, p in enumerate(players):
            cards = deck[26 * i: 26 * (i + 1)]
            chosen = rng.sample(cards, 4)
            mysteries[p] = sorted(chosen)
            hands[p] = sorted(c for c in cards if c not in chosen)
    elif opts.two_player:
        for i, p in enumerate(players):
            mysteries[p] = sorted(deck[4 * i: 4 * i + 4])
        rest = deck[8:]
        for i, p in enumerate(players):
            hands[p] = sorted(rest[i::2])
    else:
        mysteries["mystery"] = sorted(deck[:4])
        rest = deck[4:] + [JOKER] * opts.jokers
        rng.shuffle(rest)
        for i, p in enumerate(players):
            hands[p] = sorted(rest[i * hand_size:(i + 1) * hand_size])
        faceup = sorted(rest[n_players * hand_size:])
    header = Header(game="mystery-hand", players=players, variant=tuple(opts.names()),
                    dealer=players[-1], me=players[0])
    evs: list = [Holds(p, tuple(hands[p])) for p in players]
    if faceup:
        evs.append(FaceUp(tuple(faceup)))
    for p, cards in mysteries.items():
        if opts.two_player:
            evs.append(MysteryCards(p, tuple(cards)))

    # where each (non-joker) card really is
    where: dict[Card, str] = {}
    for p, cs in hands.items():
        for c in cs:
            where.setdefault(c, p) if not c.is_joker else None
    for c in faceup:
        if not c.is_joker:
            where[c] = "faceup"
    for key, cs in mysteries.items():
        for c in cs:
            where[c] = key if not opts.two_player else f"mystery:{key}"
    sizes = {p: hand_size for p in players}
    if opts.two_player:
        for p in players:
            sizes[f"mystery:{p}"] = 4
    else:
        sizes["mystery"] = 4
    if faceup_size:
        sizes["faceup"] = faceup_size
    real_cards = standard_deck()
    know: dict[str, Knowledge] = {}
    for p in players:
        k = Knowledge(real_cards, {l: s - (hands[l].count(JOKER) if l in hands else
                                            faceup.count(JOKER) if l == "faceup" else 0)
                                   for l, s in sizes.items()} if opts.jokers else
                      dict(sizes))
        for c in hands[p]:
            if not c.is_joker:
                k.place(c, p)
        for c in real_cards:
            if c not in hands[p]:
                k.exclude(c, p)
        for c in faceup:
            if not c.is_joker:
                k.place(c, "faceup")
        if opts.two_player in ("seen", "chosen"):
            for c in mysteries[p]:
                k.place(c, f"mystery:{p}")
        know[p] = k
    if opts.jokers:
        # joker counts per hand are private; keep hand sizes honest by only using real cards
        # where the holder's joker count is known (own hand, face-up): others get no size rule
        for p in players:
            know[p].sizes = {l: s for l, s in know[p].sizes.items()
                             if l == p or l == "faceup" or l.startswith("mystery")}
    for k in know.values():
        k.propagate()

    state = start(players, opts, header.dealer)
    for p in players:       # every hand is the simulator's to see: the engine's legality
        state = with_hand(state, p, hands[p])
    turns = 0
    out: set[str] = set()
    while not state.over and (events is None or turns < events) and turns < 400:
        choices = state.may_act()
        actor = choices[-1] if len(choices) > 1 and rng.random() < 0.8 else choices[0]
        target_loc = ("mystery:" + next(p for p in players if p != actor)
                      if opts.two_player else "mystery")
        k = know[actor]
        sure = k.certain(target_loc)
        ev = None
        if len(sure) == 4:
            ev = Announce(actor, tuple(sorted(sure)), True)
        elif (rng.random() < 0.025 + max(0, turns - 60) / 200
              and (len(sure) >= 2 or turns > 60)):
            pool = [c for c, ls in k.poss.items() if target_loc in ls and c not in sure]
            guess = sure + rng.sample(pool, 4 - len(sure))
            right = all(where[c] == target_loc for c in guess)
            ev = Announce(actor, tuple(sorted(guess)), right)
        else:
            ev = _query(rng, opts, actor, state, hands, where, k)
        evs.append(ev)
        turns += 1
        state = step(state, ev)
        _learn(ev, know, hands, where, opts, state, players, mysteries)
        if isinstance(ev, Announce) and not ev.right and not opts.two_player:
            out.add(actor)
            evs.append(Holds(actor, tuple(hands[actor])))
    if miss:
        evs = lossy(evs, miss, random.Random(f"miss-{seed}"))
    statements = []
    for i, ev in enumerate(evs):
        statements.append(Statement(len(header.lines()) + 1 + i, str(ev), ev))
    # revealed-hand lines repeat the opening ones: keep only the first of each
    seen_holds: set[str] = set()
    kept = []
    for st in statements:
        if isinstance(st.event, Holds):
            if st.event.player in seen_holds:
                continue
            seen_holds.add(st.event.player)
        kept.append(st)
    kept = [Statement(len(header.lines()) + 1 + i, st.text, st.event) for i, st in enumerate(kept)]
    return Record(header=header, statements=tuple(kept))


def _query(rng, opts, actor, state, hands, where, k: Knowledge):
    others = [p for p in state.active if p != actor]
    kinds = ["one"] * 6 + ["all"] * 2 + ([] if opts.no_exact_request else ["exact"] * 2)
    kind = rng.choice(kinds)
    if kind == "exact":
        unknown = [c for c, ls in k.poss.items() if len(ls) > 1 and can_exact(state, actor, c)]
        if unknown:
            c = rng.choice(unknown)
            holders = [p for p in others if c in hands[p]]
            return Request(actor, c, holders[0] if holders else None)
        kind = "one"
    legal = [q for q in QUERIES if can_query(state, actor, q)]
    q = rng.choice(legal)
    X = q.cards()
    if kind == "all":
        return AskAll(actor, q, tuple((p, sum(1 for c in X if c in hands[p])) for p in others))
    target = rng.choice(others)
    shown = [c for c in X if c in hands[target]]
    if opts.jokers:
        for _ in range(hands[target].count(JOKER)):
            if rng.random() < 0.3:
                shown.append(JOKER)
    shown = sorted(shown)
    return AskOne(actor, target, q, tuple(shown) if shown else None, len(shown))


def _learn(ev, know, hands, where, opts, state, players, mysteries):
    for p, k in know.items():
        if isinstance(ev, AskOne):
            X = ev.query.cards()
            if p in (ev.asker, ev.target):
                for c in X:
                    if c in hands[ev.target]:
                        k.place(c, ev.target)
                    else:
                        k.exclude(c, ev.target)
            elif not opts.jokers:
                k.count(X, ev.target, ev.count, ev.count)
            elif ev.count == 0:
                k.count(X, ev.target, 0, 0)
            else:
                assert ev.count is not None     # its own asks carry the count (lossy() hides it)
                k.count(X, ev.target, max(0, ev.count - 2), ev.count)
        elif isinstance(ev, AskAll):
            for q, n in ev.counts:
                k.count(ev.query.cards(), q, n, n)
        elif isinstance(ev, Request):
            if ev.shower:
                k.place(ev.card, ev.shower)
            else:
                for q in players:
                    if q != ev.asker and (q in state.active or q == ev.asker):
                        k.exclude(ev.card, q)
                if not opts.keep_em_guessing or p == ev.asker:
                    k.exclude(ev.card, ev.asker) if ev.card not in hands[ev.asker] else None
        elif isinstance(ev, Announce):
            if not ev.right and not opts.two_player:
                for c in hands[ev.player]:
                    if not c.is_joker:
                        k.place(c, ev.player)
                for c in k.poss:
                    if c not in hands[ev.player]:
                        k.exclude(c, ev.player)
            if not ev.right:
                tgt = ("mystery:" + next(q for q in players if q != ev.player)
                       if opts.two_player else "mystery")
                k.count(ev.cards, tgt, 0, 3)
        k.propagate()


def lossy(evs: list, miss: float, rng: random.Random) -> list:
    """What a recorder who misses things writes (record-format.md, "What the recorder did
    not see"): each observation hidden with probability ``miss`` -- an ask-one's answer
    (``: ?``), each count of an ask-all (``P ?``), who showed an exact card (``: ?``) --,
    a whole turn sometimes written ``P: ?``, and now and then a few turns not written at all,
    followed by ``turn: P``.  Announcements and the deal are always written (public)."""
    out: list = []
    gap = 0  # turns still to leave out
    resync = False
    for ev in evs:
        if not isinstance(ev, TURN_EVENTS):
            out.append(ev)
            continue
        actor = actor_of(ev)
        if not isinstance(ev, Announce):
            if gap == 0 and rng.random() < miss / 8:
                gap = rng.randint(1, 3)
            if gap:
                gap -= 1
                resync = True
                continue
        if resync:
            out.append(TurnIs(actor))
            resync = False
        if isinstance(ev, Announce):
            out.append(ev)
        elif rng.random() < miss / 3:
            out.append(Unseen(actor))
        elif isinstance(ev, AskOne):
            out.append(AskOne(ev.asker, ev.target, ev.query, None, None)
                       if rng.random() < miss else ev)
        elif isinstance(ev, AskAll):
            out.append(AskAll(ev.asker, ev.query, tuple(
                (p, None if rng.random() < miss else k) for p, k in ev.counts)))
        elif isinstance(ev, Request):
            out.append(Request(ev.asker, ev.card, None, False) if rng.random() < miss else ev)
        else:
            out.append(ev)
    return out
