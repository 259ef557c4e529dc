"""A rule-following random Mysterium game, written as a complete record.

The record includes the ghost's ``secret`` lines, so it can be analysed from the ghost's view
(everything known) or any psychic's (only the revealed guesses).  Psychics guess their true
card with probability 1/2, otherwise a card still possible for them by D1; visions, crows
and clairvoyancy tokens are drawn at random within the rules.

>>> rec = simulate(5, [], seed=1)
>>> rec.header.players[0], rec.header.get("ghost"), str(rec.statements[3].event)[:6]
('Gus', 'Gus', 'secret')
"""
from __future__ import annotations

import random

from solver.errors import SleuthError
from solver.mysterium.events import (Clairvoyance, Crow, Culprit, Group, Guess, Hour, Reveal,
                                     Secret, TableCards, Verdict, Visions, Vote)
from solver.mysterium.options import CARDS_PER_KIND_IN_BOX, KINDS, LAST_HOUR, MysteriumOptions
from solver.mysterium.engine import Play, can_crow
from solver.mysterium.roster import roster_of
from solver.records import Header, Record, Statement, parse_record, write_record

NAMES = ("Gus", "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")


class _Stop(Exception):
    pass


def simulate(players: int, options, seed: int = 0, events: int | None = None) -> Record:
    """A complete random record for ``players`` (ghost included) under ``options``
    (``variant:`` entries such as ``"difficulty=hard"``); at most ``events`` statements."""
    if not 2 <= players <= 7:
        raise SleuthError("Mysterium is played by 2 to 7 players, the ghost included (MY-1)",
                          rule="MY-1", text=str(players))
    rng = random.Random(seed)
    names = NAMES[:players]
    variant = tuple(MysteriumOptions.from_names(options).names())  # the canonical names
    extra = [("ghost", names[0])]
    if players > 3:
        extra.append(("eldest", rng.choice(names[1:])))
    header = Header("mysterium", names, variant=variant, extra=tuple(extra))
    roster = roster_of(header)
    play = Play(roster)
    statements: list[Statement] = []
    first_line = len(header.lines()) + 1

    def emit(ev) -> None:
        if events is not None and len(statements) >= events:
            raise _Stop
        st = Statement(first_line + len(statements), str(ev), ev)
        play.apply(st)
        statements.append(st)

    try:
        _play(rng, roster, play, emit)
    except _Stop:
        pass
    rec = Record(header, tuple(statements))
    return parse_record(write_record(rec))


def _play(rng: random.Random, roster, play: Play, emit) -> None:
    setup = roster.setup
    psychics = roster.psychics
    secret: dict[str, dict[str, int]] = {p: {} for p in psychics}
    for kind in KINDS:
        cards = sorted(rng.sample(range(1, CARDS_PER_KIND_IN_BOX + 1), setup.cards_per_kind))
        emit(TableCards(kind, tuple(cards)))
        for p, c in zip(psychics, rng.sample(cards, len(psychics))):
            secret[p][kind] = c
    for p in psychics:
        emit(Secret(p, tuple((k, secret[p][k]) for k in KINDS)))
    for hour in range(1, LAST_HOUR + 1):
        emit(Hour(hour))
        active = [p for p in psychics if play.stage[p] < 3]
        if rng.random() < 0.25 and can_crow(play.state()):
            n = None if roster.options.crow_discard == "whole-hand" else rng.randint(1, 7)
            emit(Crow(n))
        for p in active:
            emit(Visions(p, rng.randint(1, 3)))
        votes: list[tuple[str, str, bool]] = []
        if roster.clairvoyance:
            for v in psychics:
                for t in active:
                    if t != v and play.tokens_left(v) - sum(x[0] == v for x in votes) > 0 \
                            and rng.random() < 0.3:
                        votes.append((v, t, rng.random() < 0.5))
        targeted = {t for _, t, _ in votes}
        outcomes = {}
        for p in active:
            stage_kind = play.stage_kind(p)
            assert stage_kind is not None  # p is active: stage < 3
            kind = stage_kind
            taken = play.in_sleeves(kind)
            choices = [c for c in play.table[kind]
                       if c not in taken and c not in play.wrong[p][kind]]
            card = secret[p][kind] if rng.random() < 0.5 else rng.choice(choices)
            outcomes[p] = card == secret[p][kind]
            emit(Guess(p, kind, card, None if p in targeted else outcomes[p]))
        for v, t, agree in votes:
            emit(Clairvoyance(v, t, agree))
        for p in active:
            if p in targeted:
                emit(Reveal(p, outcomes[p]))
        if play.phase != "investigation":
            break
    if play.phase != "epilogue":
        return
    groups = list(range(1, roster.n_groups + 1))
    if rng.random() < 0.5:
        rng.shuffle(groups)
        for p, n in zip(psychics, groups):
            emit(Group(n, psychic=p))
        # MY-2: one copy of each card, so the random groups (MY-16) share no card
        used = {kind: set(play.in_sleeves(kind)) for kind in KINDS}
        for n in groups[len(psychics):]:
            group_cards: list[tuple[str, int]] = []
            for kind in KINDS:
                c = rng.choice([c for c in range(1, CARDS_PER_KIND_IN_BOX + 1)
                                if c not in used[kind]])
                used[kind].add(c)
                group_cards.append((kind, c))
            emit(Group(n, cards=tuple(group_cards)))
    culprit = rng.randint(1, roster.n_groups)
    agreed = None
    for v in roster.voters:
        if agreed is not None and setup.players == 3:
            g = agreed
        else:
            g = culprit if rng.random() < 0.6 else rng.randint(1, roster.n_groups)
        agreed = g
        emit(Vote(v, g))
    count = play.count()
    if count.verdict is None:
        emit(Verdict(rng.choice(count.pending)))
    emit(Culprit(culprit))
