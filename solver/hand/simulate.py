"""Rule-following Hand rounds, written as complete round records (every hand stated, every
draw named), for tests, samples and ``sleuth simulate hand``.

The deal follows HR-6/HR-7 (A2: a turned joker goes into the middle of the stock).  Each
player takes the top discard when :func:`solver.hand.taking.take` says it may and the turn
with it beats drawing (HR-29), else draws from the stock; melds what ``best`` finds when it
opens (HR-19) or goes out (HR-21, HR-34); after opening lays off natural cards greedily
(HR-23) and discards the card left with the highest penalty.  Every statement is applied to
the round engine as it is written, so a simulated round is accepted by construction (and a
bug in either shows up as a refusal here).

>>> rec = simulate(3, [], seed=2, events=12)
>>> [str(s.event) for s in rec.statements][:2]
['indicator KH', 'Ana holds: AS 2S 2S 3S 7S 7S AH 4H 9H QH 3D 7D JD KD 5C']
"""
from __future__ import annotations

import random
from collections import Counter
from typing import cast

from solver.cards import JOKER, Card, standard_deck
from solver.errors import SleuthError
from solver.hand.best import best, taken_candidates, taken_identities
from solver.hand.engine import HAND, apply, start
from solver.hand.events import (Call, Discard, Draw, Holds, Indicator, LayOff, Melds,
                                MeldSpec, Penalty, RoundEvent, Swap, Take, UnscoredEvent)
from solver.hand.melds import analyse_meld
from solver.hand.options import HandOptions
from solver.hand.regime import penalty, put_back

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli")
MAX_TURNS = 400  # A15: reshuffle can loop forever


def _options(options) -> HandOptions:
    if isinstance(options, HandOptions):
        return options
    return cast(HandOptions, HandOptions.from_names(list(options or ())))


def deal(n: int, options: HandOptions, rng: random.Random):
    """Hands (the starter, on the dealer's right, gets 15), the indicator, the stock, and
    the cards turned up before the indicator and put into the stock (HR-7, HR-47)."""
    cards = list(standard_deck(0)) * 2 + ([] if options.wild_mode == "no-jokers" else
                                          [JOKER, JOKER])
    rng.shuffle(cards)
    hands = [cards[i * HAND:(i + 1) * HAND] for i in range(n)]
    rest = cards[n * HAND:]
    hands[0].append(rest.pop(0))                 # the starter (HR-6)
    indicator = None
    turned: list[Card] = []
    if options.wild_mode != "jokers-only":
        while True:
            top = rest.pop(0)
            if put_back(top, options):           # HR-7 (a joker), HR-47 (redraw); A2
                rest.insert(len(rest) // 2, top)
                turned.append(top)
                continue
            indicator = top
            break
    return hands, indicator, rest, turned


def _order(c):
    from solver.cards import SUITS

    return (c.is_joker, SUITS.index(c.suit) if not c.is_joker else 0, c.rank)


def _spec(cards, regime, options) -> MeldSpec:
    """A meld as written: its layout, with the wild declared when the layout leaves it open."""
    rep = analyse_meld(list(cards), regime, options)
    if rep.valid and len(rep.readings) > 1 and not rep.declared and rep.wild is not None:
        assert rep.chosen is not None   # a valid meld has its chosen reading
        return MeldSpec(tuple(cards),
                        tuple(sorted(rep.chosen.declare(list(cards), regime).items())))
    return MeldSpec(tuple(cards))


def _table_text(s) -> str | None:
    return s.table_text()


def _worst(left, regime, options):
    """The discard: the highest penalty, keeping wilds while another card can go."""
    pool = [c for c in left if not regime.is_wild(c)] or left
    return max(pool, key=lambda c: (penalty(c, regime, options), repr(c)))


def simulate(players: int, options=(), seed: int = 0, events: int | None = None):
    """A random rule-following round of ``players`` (2-4) as a complete record."""
    from solver.records import Header, Record, Statement

    opts = _options(options)
    if not 2 <= players <= opts.players:
        raise SleuthError(f"Hand is for 2 to {opts.players} players (variant players=5 "
                          f"allows five), not {players}", rule="HR-1")
    rng = random.Random(seed)
    order = NAMES[:players]
    dealer = order[1 % players]
    header = Header(game="hand", players=tuple(order), variant=tuple(opts.names()),
                    dealer=dealer)
    s = start(header, opts)
    hands, indicator, stock, turned = deal(players, opts, rng)
    out: list = []

    def say(ev) -> None:
        apply(s, ev, str(ev))
        out.append(ev)

    for c in turned:                         # seen by all, then in the stock (HR-7, HR-47)
        say(Indicator(c))
    if indicator is not None:
        say(Indicator(indicator))
    # seat the hands: the starter (dealer's right) holds the 15
    seats = [s.starter]
    while len(seats) < players:
        seats.append(s.next_player(seats[-1]))
    held = {p: sorted(h, key=_order) for p, h in zip(seats, hands)}
    for p in order:
        say(Holds(p, tuple(held[p])))
    regime = s.regime

    def full(limit=events):
        return limit is not None and len(out) >= limit

    turns = 0
    discard: Card | list[Card] | None   # a turn going out may discard both wilds (HR-59)
    while s.over is None and not full() and turns < MAX_TURNS:
        turns += 1
        p = s.current or s.starter
        ps = s.players[p]
        hand = held[p]
        first = s.current is None
        plan_melds, layoffs, discard = [], [], None
        # a player who may not go out (HR-32 first turn, HR-33 missed call) keeps two cards
        # before the discard: discarding the last card would be going out
        keep = 2 if (ps.turns == 0 and not opts.first_turn_win) or ps.failed_call else 1
        if not first:
            top = s.top()
            took = None
            if top is not None and _may_fit(top, hand, regime, opts):
                from solver.hand.taking import take

                r = take(hand, top, indicator, opts, opened=ps.opened, table=_table_text(s),
                         to_beat=s.last_initial, first_turn=ps.turns == 0)
                w = r.with_discard
                if r.may_take and r.better == "discard" and w is not None and w.melds and not (
                        (w.goes_out or len(w.left) < 1 + keep) and keep == 2):
                    took = w
            if took is not None:
                assert top is not None   # only the top discard is taken
                say(Take(p, top))
                hand.append(top)
                plan_melds, layoffs, discard = took.melds, took.layoffs, took.discard
                goes_out = took.goes_out
            else:
                if s.stock == 0 and opts.stock_end == "reshuffle":
                    back = s.pile[:-1]
                    rng.shuffle(back)
                    stock = back
                card = stock.pop(0)
                say(Draw(p, card))
                hand.append(card)
        if first or took is None:
            res = best(hand, indicator, opts, to_beat=s.last_initial,
                       first_turn=ps.turns == 0)
            goes_out = False
            if res.can_go_out and not ps.failed_call and (ps.opened or ps.turns > 0):
                assert res.go_out is not None   # it can go out: the plan is there
                plan_melds, discard, goes_out = res.go_out.melds, res.go_out.discards, True
            elif res.best_initial is not None and (ps.opened or res.can_open) and \
                    len(res.best_initial.left) >= keep:
                plan_melds = res.best_initial.melds
        if plan_melds:
            say(Melds(p, tuple(_spec(m, regime, opts) for m in plan_melds)))
            for m in plan_melds:
                for c in m:
                    hand.remove(c)
        for idx, cards in layoffs:
            if len(hand) - len(cards) < keep:
                break
            say(LayOff(p, MeldSpec(tuple(cards)), idx))
            for c in cards:
                hand.remove(c)
        if s.players[p].opened and not goes_out:
            if not opts.swap_wild_must_be_used:
                _swap(s, p, hand, regime, opts, say)
            _lay_off(s, p, hand, regime, opts, say, keep)
        if goes_out and isinstance(discard, list):
            cards = discard
        elif goes_out and discard is not None and len(hand) == 1:
            assert not isinstance(discard, list)   # going out with a list: the case above
            cards = [discard]
        else:
            cards = [_worst(hand, regime, opts)]
        say(Discard(p, tuple(cards)))
        for c in cards:
            hand.remove(c)
        if s.over is None and 1 <= len(hand) <= 3:
            say(Call(p, len(hand)))
    if s.over == "out":
        say(_score(s, held))
    elif s.over == "stock" and opts.stock_end == "penalties":
        say(_score(s, held))
    elif s.over == "stock":
        say(UnscoredEvent(1, "stock"))
    if events is not None:
        out = out[:events]
    stmts = tuple(Statement(i + 1, str(ev), ev) for i, ev in enumerate(out))
    return Record(header, stmts)


def _may_fit(card, hand, regime, options) -> bool:
    """A quick test before asking the optimiser: some new meld of ``card`` with hand cards."""
    ids, _, _ = taken_identities(card, regime, options)
    return any(taken_candidates(card, k, ok, hand, regime, options) for k, ok in ids)


def _lay_off(s, p, hand, regime, options, say, keep: int = 1) -> None:
    """Natural cards onto the table while a card stays for the discard (HR-23, HR-30)."""
    from solver.hand.table import Situation, _layoffs, parse_table

    while len(hand) > keep:
        text = _table_text(s)
        if not text:
            return
        table = parse_table(text, regime, options)
        moves = [m for m in _layoffs(table, hand, regime, options,
                                     Situation(True, False, False))[0]
                 if len(m.cards) <= len(hand) - keep
                 and not any(regime.is_wild(c) for c in m.cards)
                 and all(Counter(hand)[c] >= n for c, n in Counter(m.cards).items())]
        if not moves:
            return
        m = max(moves, key=lambda m: (len(m.cards), -m.meld))
        say(LayOff(p, MeldSpec(tuple(m.cards)), m.meld))
        for c in m.cards:
            hand.remove(c)


def _swap(s, p, hand, regime, options, say) -> None:
    """Win table wilds with the naturals they stand for (HR-24), while a card stays."""
    from solver.hand.table import Situation, _swaps, parse_table

    done = True
    while done:
        done = False
        text = _table_text(s)
        if not text:
            return
        table = parse_table(text, regime, options)
        for m in _swaps(table, hand, regime, options, Situation(True, False, False))[0]:
            if len(hand) - len(m.cards) + 1 < 1:
                continue
            say(Swap(p, tuple(m.cards), m.meld))
            for c in m.cards:
                hand.remove(c)
            hand.append(m.take)
            done = True
            break


def _score(s, held) -> RoundEvent:
    from solver.hand.engine import team_pairs
    from solver.records import Header

    teams = team_pairs(Header("hand", s.order, tuple(s.options.names())), s.options)
    partner = None
    if teams and s.winner is not None:
        partner = next(q for t in teams if s.winner in t for q in t if q != s.winner)
    pens = []
    for q in s.order:
        if q in (s.winner, partner):
            continue
        st = s.players[q]
        pens.append(Penalty(q, no_meld=True) if not st.melded else
                    Penalty(q, cards=tuple(sorted(st.known.elements(), key=repr))))
    if s.winner is None:                         # stock-end=penalties (HR-57)
        return RoundEvent(1, None, "stock", (), tuple(pens))
    return RoundEvent(1, s.winner, s.kind, s.bonuses, tuple(pens))
