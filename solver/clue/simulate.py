"""A random, rule-following Clue game, written as a complete record.

The case file and the deal are random (CL-2, CL-11); players take turns clockwise from the
dealer's left (CL-3), each suggesting a random triple (mostly of cards it has not yet
ruled out, CL-5), refuted as CL-6 or CL-13 with a random choice among the cards a
refuter could show; a player accuses as soon as its own sound knowledge (its hand, the
face-up cards, the cards shown to it, the suggestions nobody could refute) leaves one
triple, and now and then accuses on a guess (usually wrong: out, still refuting, CL-9).
Deterministic per seed.

>>> rec = simulate(4, [], seed=3, events=6)
>>> rec.header.players, rec.statements[0].text.startswith("Ana holds:")
(('Ana', 'Ben', 'Cleo', 'Dev'), True)
"""
from __future__ import annotations

import random
from typing import cast

from solver.clue.engine import State, can_turn, step
from solver.clue.events import Accuse, Answer, FaceUp, Holds, Suggest, Unseen, seating_after
from solver.clue.options import STANDARD, ClueOptions, hand_sizes, seating_from
from solver.errors import NotationError
from solver.records import Header, Record, Statement

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
#: the chance that a player not yet sure accuses on its best guess
GUESS = 0.04


def simulate(n_players: int, options, seed: int, events: int | None = None,
             miss: float = 0.0, deck=STANDARD, accusations: bool = True) -> Record:
    """A random game as a complete record (every hand listed, so that every view can be
    analysed); ``miss`` > 0: what a recorder who misses things writes (a suggestion not
    seen, a refutation not seen, a card not seen), the hands still listed."""
    if not 0.0 <= miss <= 1.0:
        raise NotationError("--miss is a probability between 0 and 1", text=str(miss))
    if not 3 <= n_players <= 6:
        raise NotationError("Clue simulates 3 to 6 players", text=str(n_players), rule="CL-1")
    opts = cast(ClueOptions, ClueOptions.from_names(options))
    rng = random.Random(seed)
    players = NAMES[:n_players]
    dealer = players[-1]
    extra = () if deck == STANDARD else tuple(
        (k, " ".join(v)) for k, v in zip(("suspects", "weapons", "rooms"), deck.groups))
    header = Header(game="clue", players=players, variant=tuple(opts.names()), dealer=dealer,
                    me=players[0], extra=extra)
    sizes, nface = hand_sizes(players, dealer, opts, deck)
    case = tuple(rng.choice(g) for g in deck.groups)
    rest = [c for c in deck.cards if c not in case]
    rng.shuffle(rest)
    faceup = rest[:nface]
    rest = rest[nface:]
    hands: dict[str, list[str]] = {}
    i = 0
    for p in seating_from(players, dealer):
        hands[p] = rest[i:i + sizes[p]]
        i += sizes[p]
    order = {c: k for k, c in enumerate(deck.cards)}
    evs: list = [Holds(p, tuple(sorted(hands[p], key=order.__getitem__))) for p in players]
    if faceup:
        evs.append(FaceUp(tuple(sorted(faceup, key=order.__getitem__))))
    # each player's sound knowledge: the cards it knows are not in the case file
    cleared = {p: set(hands[p]) | set(faceup) for p in players}
    state = State(tuple(players), last_player=opts.last_player)
    turns = events if events is not None else 60
    seat = seating_from(players, dealer)
    t = 0
    while len(evs) < turns + len(players) + 1 and t < 10 * turns + 10:
        p = seat[t % len(seat)]
        t += 1
        if not can_turn(state, p):       # out after a wrong accusation (CL-9)
            continue
        left = [[c for c in g if c not in cleared[p]] for g in deck.groups]
        if accusations and (all(len(g) == 1 for g in left) or rng.random() < GUESS):
            guess = tuple(g[0] if len(g) == 1 else rng.choice(g) for g in left)
            right = guess == case
            evs.append(Accuse(p, guess, right))
            state = step(state, evs[-1])
            if state.over:              # right, the last one in, or nobody left (CL-8, CL-9)
                break
            cleared[p] |= set(deck.cards) - set(case)   # it looked at the case file (E3)
            continue
        triple = tuple(rng.choice(g) if g and rng.random() < 0.85 else rng.choice(full)
                       for g, full in zip(left, deck.groups))
        answers = []
        for q in seating_after(p, players):
            can = [c for c in triple if c in hands[q]]
            if can:
                shown = rng.choice(can)
                answers.append(Answer(q, True, shown))
                cleared[p].add(shown)
                if opts.refute == "first":
                    break
            else:
                answers.append(Answer(q, False))
        if not any(a.shows for a in answers):   # E2: the three are in A's hand or S
            for g in deck.groups:
                c = next(c for c in triple if c in g)
                if c not in hands[p] and c not in faceup:
                    cleared[p] |= set(g) - {c}
        evs.append(Suggest(p, triple, tuple(answers)))
    if miss:
        evs = lossy(evs, miss, random.Random(f"miss-{seed}"))
    base = len(header.lines())
    return Record(header=header, statements=tuple(
        Statement(base + 1 + k, str(ev), ev) for k, ev in enumerate(evs)))


def lossy(evs: list, miss: float, rng: random.Random) -> list:
    """What a recorder who misses things writes: each suggestion is missed whole (``P:
    ?``), its refutation missed (``: ?``) or the card shown missed (``Q shows``), each with
    probability ``miss``; the deal and the accusations (public) stay."""
    out = []
    for ev in evs:
        if isinstance(ev, Suggest) and ev.answers is not None:
            r = rng.random()
            if r < miss / 3:
                ev = Unseen(ev.player)
            elif r < 2 * miss / 3:
                ev = Suggest(ev.player, ev.cards, None)
            elif r < miss:
                ev = Suggest(ev.player, ev.cards, tuple(
                    Answer(a.player, a.shows, None) for a in ev.answers or ()))
        out.append(ev)
    return out
