"""Mystery Hand's pieces of the ``sleuth serve`` page (found by :func:`web.live.piece`):
the 13 x 4 memory sheet, the candidates and the verdict, who is still in and on turn, the
cards of each range for the tap entry."""
from __future__ import annotations

from cli.mystery_hand import SUIT_HEAD, short_place
from web.live import StageOne, chance_cell, place_name, working_cell


def sheet(a, view: str | None) -> dict:
    """The 13 x 4 memory sheet (MH-6): the holder where certain, else the chance the card
    is in the target mystery hand; every cell with its accessible name."""
    from solver.cards import RANKS, SUITS, Card

    rows = []
    for r in range(1, 14):
        cells = []
        for s in SUITS:
            name = repr(Card(r, s))
            where = a.certain(name)
            if where is not None:
                text = short_place(where, a.target)
                label = f"{name}: {place_name(where, a.target)}"
                kind = "mine" if where == view else "myst" if where == a.target else "known"
            elif a.cards is None:           # stage 1: the figures follow
                text, label, kind = working_cell(name)
            else:
                text, label, kind = chance_cell(name, a.cards[name].get(a.target, 0.0),
                                                "mystery")
            cells.append({"card": name, "text": text, "label": label, "kind": kind})
        rows.append({"rank": RANKS[r - 1], "cells": cells})
    return {"kind": "grid", "heads": [SUIT_HEAD[s] for s in SUITS], "rows": rows}


def stage_analysis(session, record, first) -> StageOne:
    """Stage 1 (``first``) standing in for the analysis in :func:`sheet`: the target
    mystery hand is the view's (MH-6)."""
    from solver.mystery_hand.inference import target_of

    h = record.header
    return StageOne(first, target=target_of(session.view, h, session.game.options(h)))


def extras(a, view: str | None) -> dict:
    """The candidates, the verdict and what is an estimate."""
    c = a.mystery
    if c.count is not None:
        count = str(c.count)
    elif c.lower and c.upper:
        count = f"between {c.lower} and {c.upper} (too many to count)"
    elif c.upper:
        count = f"at most {c.upper} (too many to count)"
    else:
        count = "too many to count"
    if a.exact and c.withheld:
        precision = ("Probabilities: exact on the sheet; the bound on each candidate hand's "
                     "chance is an estimate from sampled deals, in which no hand stood out.")
    elif a.exact and not (c.error and not c.exact):
        precision = "Probabilities: exact (uniformly random deal, truthful players)."
    elif a.exact:
        precision = ("Probabilities: exact on the sheet; the candidate hands' chances are "
                     f"estimates (95% half-width {c.error:.3f}).")
    else:
        precision = (f"Probabilities: estimates (95% half-width {a.error:.3f}); "
                     "certainties are exact.")
    top = [{"cards": " ".join(map(repr, cards)), "p": f"{p:.3g}" if 0 < p < 0.99 else
            ("1" if p >= 1 else "0")} for cards, p in (c.top or [])]
    return {"candidates": count, "certain_in": " ".join(map(repr, c.certain)), "top": top,
            "verdict": a.verdict, "precision": precision, "estimate": not a.exact}


def still_in(record) -> list[str]:
    """The players not out after a wrong announcement (MH-20)."""
    from solver.mystery_hand.engine import run

    return list(run(record).active)


def current_player(record) -> tuple[str | None, list[str]]:
    """Who is on turn (none once the game is over) and who else may act now."""
    from solver.mystery_hand.engine import run

    st = run(record)
    return (None if st.over else st.current), list(st.may_act())


def range_cards(record, ranges) -> dict[str, list[str]]:
    """The cards of each suit range or rank set (``5H-8H``, ``Q*``)."""
    from solver.cards import parse_query_set

    return {r: [repr(c) for c in parse_query_set(r).cards()] for r in ranges}
