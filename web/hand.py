"""Hand's pieces of the ``sleuth serve`` page (found by :func:`web.live.piece`): what the
tap entry offers after ``round N: ...``."""
from __future__ import annotations

from typing import Any


def lead_data(record) -> dict[str, Any]:
    """``round N: ...``: the next round, the partners left out of the penalties, the Full
    Hand bonuses and ``stock`` the variant allows (HR-37..HR-42, HR-57, HR-59)."""
    from solver.hand.analysis import score_sheet
    from solver.hand.engine import team_pairs
    from solver.hand.options import HandOptions

    o = HandOptions.of(record.header)
    partner = {}
    for a, b in team_pairs(record.header, o) or ():
        partner[a], partner[b] = b, a
    bonuses = [name for name, on in (("wild-discard", o.bonus_wild_discard),
                                     ("two-wilds", o.bonus_two_wilds),
                                     ("colour", o.bonus_colour),
                                     ("suit", o.bonus_suit)) if on]
    return {"round": score_sheet(record).next_round, "partner": partner,
            "bonuses": bonuses, "stock": o.stock_end == "penalties"}
