"""Literature's pieces of the ``sleuth serve`` page (found by :func:`web.live.piece`): the
half-suits and the hands, the score and the verdict, who is on turn, the cards of each
half-suit and whom each player may ask for which card, for the tap entry."""
from __future__ import annotations

from typing import Any

from cli.literature import error_words
from cli.main import percent_cell
from web.live import StageOne, working_cell


def _cell(cn: str, dist: dict[str, float], view: str | None) -> tuple[str, str, str]:
    """A card's cell from where it may be (``{place: chance}``): its holder, out of play,
    or who may hold it with the chances.

    >>> _cell("9S", {"Ben": 1.0}, "Ana"), _cell("2H", {}, "Ana")
    (('Ben', '9S: Ben', 'known'), ('out', '2H: out of play', 'no'))
    """
    places = sorted(((l, p) for l, p in dist.items() if p > 0), key=lambda lp: -lp[1])
    if not places:
        return "out", f"{cn}: out of play", "no"
    if len(places) == 1 and places[0][1] >= 1.0 - 1e-12:
        who = places[0][0]
        return who, f"{cn}: {who}", "mine" if who == view else "known"
    parts = [f"{l} {percent_cell(min(p, 1.0))}" for l, p in places]
    return parts[0], f"{cn}: " + ", ".join(parts), "chance"


def sheet(a, view: str | None) -> dict:
    """The half-suits (LIT-2), each card with who holds it or who may, and the hands:
    counts and the cards known in each."""
    t = a.table
    halves = []
    for name, h in a.halves.items():
        cells = []
        half = next(x for x in t.halves if x.name == name)
        seen: list[str] = []
        for card in half.cards:
            cn = repr(card)
            if cn in seen:
                continue
            seen.append(cn)
            dist = a.cards.get(cn, {}) if a.cards is not None else a.certain_dist(cn)
            if dist is None:                # stage 1: the figures follow
                text, label, kind = working_cell(cn)
            else:
                text, label, kind = _cell(cn, dist, view)
            cells.append({"card": cn, "text": text, "label": label, "kind": kind})
        status = h.status
        if status.startswith("won:"):
            status = f"won by team {status[4:]}"
        teams = ", ".join(f"team {k} " + (percent_cell(v) if 0 < v < 1 else f"{round(v * 100)}%")
                          for k, v in (h.p_team or {}).items())
        head = f"{name}: {status}" + (f"; all six with {teams}" if status == "open" and teams
                                      else "")
        halves.append({"name": name, "head": head, "cells": cells})
    hands = []
    for i in (0, 1):
        for p in t.teams[i]:
            info = a.hands.get(p, {})
            n = a.counts.get(p)
            hands.append({"team": t.team_name(i), "player": p, "turn": p == a.turn,
                          "count": "?" if n is None else str(n),
                          "known": " ".join(info.get("known", [])) or "-"})
    return {"kind": "halves", "halves": halves, "hands": hands}


def stage_analysis(session, record, first) -> StageOne:
    """Stage 1 (``first``) standing in for the analysis in :func:`sheet`: the table, the
    turn, each half-suit's status (no team's chance yet), the cards certainly in each hand
    and the hands' counts, all from the engine's play."""
    from types import SimpleNamespace

    from solver.literature.analysis import _status
    from solver.literature.engine import Play

    play = Play.of(record)
    t = play.table
    held: dict[str, list[str]] = {}
    for card, where in first.certain:
        held.setdefault(where, []).append(card)
    return StageOne(first, table=t, turn=play.turn if play.turn_known else None,
                    halves={x.name: SimpleNamespace(status=_status(play, x.name),
                                                    p_team=None) for x in t.halves},
                    hands={p: {"known": held.get(p, [])} for p in t.players},
                    counts={p: None if p in play.vague else play.count[p]
                            for p in t.players})


def extras(a, view: str | None) -> dict:
    """The score, the verdict and what is an estimate; a safe claim as an alert where the
    game's notes do not say it already (they do for a player's view:
    ``Game.table_notes``, "You can claim 2H-7H safely ...")."""
    alerts = []
    for name, h in a.halves.items():
        if h.safe_claim and view is None:
            cards = ", ".join(f"{p} {' '.join(cs)}" for p, cs in h.safe_claim.items())
            alerts.append(f"Safe claim now: {name}: {cards}")
    score = ", ".join(f"team {k} {v}" for k, v in a.score.items())
    verdict = (f"Game over: {a.winner or 'a tie'} wins; score {score}." if a.over
               else f"Score: {score}.")
    precision = ("Probabilities: exact." if a.exact else
                 f"Probabilities: estimates ({error_words(a.error)}); certainties are exact.")
    return {"alerts": alerts, "verdict": verdict, "precision": precision,
            "estimate": not a.exact}


def current_player(record) -> tuple[str | None, list[str]]:
    """Who asks next (none once the game is over)."""
    from solver.literature.engine import run

    lit = run(record)
    return (None if lit.over else lit.turn), []


def range_cards(record, ranges) -> dict[str, list[str]]:
    """The cards of each half-suit (every half-suit of the table; ``ranges`` are their
    names)."""
    from solver.literature.table import table_of

    table = table_of(record.header)
    out: dict[str, list[str]] = {}
    for h in table.halves:
        names: list[str] = []
        for c in h.cards:
            if repr(c) not in names:
                names.append(repr(c))
        out[h.name] = names
    return out


def asks(record, view: str | None, held: dict[str, list[str]]) -> dict[str, Any]:
    """Whom each player may ask and for which cards now (LIT-6), from the engine's state:
    an opponent with cards; a card of an open half-suit.  For the view, whose hand is
    known, only the half-suits it holds a card of and, unless the variant lets one ask for
    one's own card (``own-card-ask=bluff``), the cards it does not hold.  For a claim
    (LIT-10, LIT-11): each player's team (a claim names only its members) and the
    half-suits still open."""
    from solver.literature.engine import can_ask_for, can_ask_whom, run

    state = run(record)
    t = state.table
    whom = {a: [b for b in t.players if can_ask_whom(state, a, b)] for a in t.players}
    cards: dict[str, list[str]] = {}
    for a in t.players:
        # the view's cards when known: LIT-6(c), (d) with them
        hand = [t.card(n) for n in held[a]] if a == view and a in held else None
        out: list[str] = []
        for h in t.halves:
            for c in h.cards:
                if repr(c) not in out and can_ask_for(state, a, c, hand):
                    out.append(repr(c))
        cards[a] = out
    return {"whom": whom, "cards": cards, "open": list(state.open),
            "team": {a: list(t.team_of(a)) for a in t.players}}

