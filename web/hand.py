"""Hand's pieces of the ``sleuth serve`` page (found by :func:`web.live.piece`): whose turn
the page's ``Turn:`` line names, and what the tap entry offers after ``round N: ...`` and
after ``takes`` (the top discard)."""
from __future__ import annotations

from typing import Any


def turn(record) -> str | None:
    """Who plays next in a round record, as its sheet's ``Next: Cleo's turn.`` says it (the
    starter before the first turn, HR-6, HR-27; play passes to the right, HR-4); ``None``
    once the round is over or in a record of scores only (no round's play)."""
    from solver.hand.engine import is_round_record, play

    if record.statements and not is_round_record(record):
        return None
    s = play(record)
    if s.over:
        return None
    return s.current or s.starter


def lead_data(record) -> dict[str, Any]:
    """``round N: ...``: the next round, the partners left out of the penalties, the Full
    Hand bonuses and ``stock`` the variant allows (HR-37..HR-42, HR-57, HR-59); for a
    penalty given as the cards left (HR-38): the cards in play and their copies
    (:func:`~solver.hand.regime.copies_in_play`: HR-2, HR-46, A1), the cards that count by
    the round's wilds (aces and jokers: then ``round N indicator C:``, unless
    ``wild-mode=jokers-only``), and in a round record the indicator turned up and the
    hands the record gives whole at its end (``left``); and ``takes``: the cards the
    player on turn may take after ``takes`` (HR-28, HR-29: the top discard only, as
    :func:`~solver.hand.engine.can_take` checks it; every card with a copy still unseen when
    the top was discarded in a turn not seen, ``P: ?``; none where the pile is empty, the
    turn has drawn already, the round is over or the record keeps scores only)."""
    from solver.cards import Card
    from solver.hand.analysis import score_sheet
    from solver.cards import JOKER
    from solver.hand.engine import (UNSEEN_CARD, can_take, in_play, is_round_record, play,
                                    team_pairs)
    from solver.hand.inference import kinds
    from solver.hand.options import HandOptions
    from solver.hand.regime import copies_in_play
    from solver.session import vocabulary

    o = HandOptions.of(record.header)
    partner = {}
    for a, b in team_pairs(record.header, o) or ():
        partner[a], partner[b] = b, a
    bonuses = [name for name, on in (("wild-discard", o.bonus_wild_discard),
                                     ("two-wilds", o.bonus_two_wilds),
                                     ("colour", o.bonus_colour),
                                     ("suit", o.bonus_suit)) if on]
    indicator, left, takes = None, {}, []
    if is_round_record(record):
        s = play(record)
        indicator = s.indicator
        left = {p: [repr(c) for c in st.hand()] for p, st in s.players.items()
                if not st.unknown and st.known}
        now, top = s.state(), s.top()
        if top is UNSEEN_CARD:      # discarded in a turn not seen ('P: ?'): any card that
            if can_take(now, now.current, JOKER if indicator is None else indicator):
                takes = [repr(c) for c in kinds(s.regime, s.options)   # may still be unseen
                         if in_play(s, c) > s.seen[c]]
        elif top is not None and can_take(now, now.current, top):
            takes = [repr(top)]
    copies = {c: n for c in vocabulary(record).cards
              if (n := copies_in_play(Card.parse(c), o, indicator))}
    cards = list(copies)
    return {"round": score_sheet(record).next_round, "partner": partner,
            "bonuses": bonuses, "stock": o.stock_end == "penalties",
            "copies": copies,
            "by_wilds": [] if o.wild_mode == "jokers-only" else
            [c for c in cards if c == "Jk" or c.startswith("A")],
            "indicator": repr(indicator) if indicator is not None else None, "left": left,
            "takes": takes}
