"""Clue's pieces of the ``sleuth serve`` page (found by :func:`web.live.piece`): the
notebook, the possible case files and the verdict, the cards by kind and whether every
player answers, for the tap entry of a suggestion."""
from __future__ import annotations

from cli.clue import place_head
from solver.clue.options import ENVELOPE, FACEUP
from web.live import StageOne, chance_cell, place_name, working_cell


def sheet(a, view: str | None) -> dict:
    """The notebook (CL-2): one row per card (suspects, weapons, rooms), one column per
    player, the case file and the face-up cards, as the terminal's (``cli/clue.py``): X
    where the card certainly is, · where it cannot be, else the chance it is there; every
    cell with its accessible name ("Knife: Ben", "Knife: 40% case file", "Knife: not Cleo")."""
    locs = [l for l in a.locations if l not in (ENVELOPE, FACEUP)] + [ENVELOPE] + \
        [l for l in a.locations if l == FACEUP]
    said = {l: "case file" if l == ENVELOPE else place_name(l) for l in locs}
    rows = []
    for title, group in zip(("Suspects", "Weapons", "Rooms"), a.deck.groups):
        for i, card in enumerate(group):
            where = a.certain(card)
            cells = []
            for l in locs:
                p = (1.0 if l == where else 0.0) if where is not None else \
                    None if a.cards is None else a.cards[card].get(l, 0.0)
                if p is None:               # stage 1: the figures follow
                    text, label, kind = working_cell(card)
                elif p >= 1.0:
                    text, label = "X", f"{card}: {said[l]}"
                    kind = "mine" if l == view else "myst" if l == ENVELOPE else "known"
                else:
                    text, label, kind = chance_cell(card, p, said[l])
                cells.append({"card": card, "text": text, "label": label, "kind": kind})
            rows.append({"rank": card, "group": title if i == 0 else None, "cells": cells})
    return {"kind": "grid", "game": "clue", "heads": [place_head(l) for l in locs],
            "rows": rows,
            "legend": "X = certainly there, · = cannot be there, else the chance it is "
                      "there; FILE = the case file" + ("; up = face up"
                                                       if FACEUP in locs else "")}


def stage_analysis(session, record, first) -> StageOne:
    """Stage 1 (``first``) standing in for the analysis in :func:`sheet`: the record's
    places and deck."""
    from solver.clue.inference import locations
    from solver.clue.options import deck_of

    return StageOne(first, locations=list(locations(record)), deck=deck_of(record.header))


def extras(a, view: str | None) -> dict:
    """The possible case files, the verdict and what is an estimate."""
    c = a.envelope
    count = f"{c.count:,}" if c.count is not None else f"at most {c.upper:,} (not counted)"
    precision = ("Probabilities: exact (uniformly random case file and deal, truthful "
                 "players)." if a.exact else
                 f"Probabilities: estimates (95% half-width {a.error:.3f}); certainties "
                 "are exact.")
    top = [{"cards": " ".join(cards), "p": f"{p:.3g}" if 0 < p < 0.99 else
            ("1" if p >= 1 else "0")} for cards, p in (c.top or [])]
    return {"candidates": count, "certain_in": " ".join(c.certain), "top": top,
            "verdict": a.verdict, "precision": precision, "estimate": not a.exact,
            "candidates_title": "Possible case files", "top_title": "case file"}


def card_groups(record) -> list[list[str]]:
    """The cards by kind (suspects, weapons, rooms: the header's own lists where it has
    them), for the tap entry of a suggestion."""
    from solver.clue.options import deck_of

    return [list(g) for g in deck_of(record.header).groups]


def refutes_all(record) -> bool:
    """Whether every other player answers a suggestion (``variant: refute=all``, CL-13)."""
    from solver.clue.options import ClueOptions

    return ClueOptions.of(record.header).refute == "all"
