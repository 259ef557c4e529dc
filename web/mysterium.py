"""Mysterium's pieces of the ``sleuth serve`` page (found by :func:`web.live.piece`): what
the tap entry offers after a lead keyword, and who acts (not the ghost)."""
from __future__ import annotations

from typing import Any


def lead_data(record) -> dict[str, Any]:
    """``hour N`` (the next hour, MY-15), ``crow`` or ``crow: N`` (1 to the ghost's hand,
    MY-9), ``group N: P`` (the groups not numbered yet and the psychics whose group is
    not, MY-16), with 2 players ``group N: character C, location L, object O`` (a random
    group of discarded cards: by kind, the cards in no sleeve and in no other random
    group, MY-2, MY-16; ``random`` empty otherwise), ``verdict: N`` and ``culprit: N``
    (MY-21, MY-22); and for a psychic's guess ``Ana-2 guesses location 17`` (``guess``,
    :func:`_guesses`) the cards each psychic may guess now, by kind."""
    from solver.mysterium.analysis import MAX_FILLINGS, _sample
    from solver.mysterium.engine import TooManyFillings, replay_all
    from solver.mysterium.options import CARDS_PER_KIND_IN_BOX, KINDS, LAST_HOUR

    # a record with unseen statements ('Ana: ?') may be in several states: what any of them
    # allows is offered (beyond MAX_FILLINGS of them, a sample's: listing them all could
    # take minutes)
    try:
        plays = replay_all(record, cap=MAX_FILLINGS)
    except TooManyFillings:
        plays = [p for p, _w in _sample(record)]
    play = plays[0]
    r = play.roster
    named = {g.psychic for g in play.groups.values() if g.psychic}
    whole = r.options.crow_discard == "whole-hand"
    on = any(p.phase in ("setup", "investigation") and p.hour < LAST_HOUR for p in plays)
    random: dict[str, list[int]] = {}
    if r.setup.players == 2:            # the engine's checks of a random group (MY-16)
        for p in plays:
            taken = {card for g in p.groups.values() for card in g.cards}
            for k in KINDS:
                free = random.setdefault(k, [])
                free += [n for n in range(1, CARDS_PER_KIND_IN_BOX + 1)
                         if n not in p.in_sleeves(k) and (k, n) not in taken and n not in free]
        random = {k: sorted(v) for k, v in random.items()}
    return {"hour": [play.hour + 1] if on else [],
            "crow": [] if whole else list(range(1, max(p.ghost_hand for p in plays) + 1)),
            "groups": [n for n in range(1, r.n_groups + 1) if n not in play.groups],
            "all_groups": list(range(1, r.n_groups + 1)),
            "psychics": [p for p in r.psychics if p not in named], "random": random,
            "guess": _union(_guesses(p) for p in plays)}


def _union(tables) -> dict[str, dict[str, list[int]]]:
    """The guesses of several states together (each psychic's kinds, their cards in order)."""
    out: dict[str, dict[str, list[int]]] = {}
    for t in tables:
        for p, kinds in t.items():
            for kind, cards in kinds.items():
                row = out.setdefault(p, {}).setdefault(kind, [])
                row += [c for c in cards if c not in row]
    return out


def _guesses(play) -> dict[str, dict[str, list[int]]]:
    """What each psychic may guess now, as the engine checks a guess (MY-10, MY-12, MY-13:
    :func:`~solver.mysterium.engine.verify_guess`): the kind of their stage and its cards
    on the table that no psychic took into a sleeve in an earlier hour, in the table's
    order, ``{"Ana-2": {"location": [2, 3, 11, 17]}}``; none for a psychic who cannot
    guess (guessed this hour, done with phase 1, no hour running)."""
    from solver.mysterium.engine import can_guess
    from solver.mysterium.options import KINDS

    st = play.state()
    table = dict(st.table)
    out: dict[str, dict[str, list[int]]] = {}
    for p in play.roster.psychics:
        stage = play.stage[p]
        if stage >= len(KINDS):
            continue
        kind = KINDS[stage]
        cards = [n for n in table.get(kind, ()) if can_guess(st, p, kind, n)]
        if cards:
            out[p] = {kind: cards}
    return out


def actors(record) -> list[str]:
    """The players who make statements: the psychics (the ghost, a player of the record,
    never acts)."""
    return [p for p in record.header.players if p != dict(record.header.extra).get("ghost")]
