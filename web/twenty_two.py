"""Twenty-Two's pieces of the ``sleuth serve`` page (found by :func:`web.live.piece`): whose
turn the page's ``Turn:`` line names, and the next play to a trick, for the tap entry."""
from __future__ import annotations

from typing import Any

from solver.errors import SleuthError

_CACHE: dict[tuple, dict[str, Any]] = {}


def turn(record) -> str | None:
    """Who acts next, as the sheet's ``Now: Ana to play`` says it (the engine's turn):
    the leader or the player to follow (TT-9, TT-10), the next to exchange (TT-8), the
    dealer where only one may deal (TT-4, TT-6, TT-15); ``None`` where several may (a
    draw for the deal, its tie, anyone to deal), at the showdown (TT-13) and once the
    game is over (TT-17)."""
    from solver.twenty_two.engine import courses, replay

    eng = replay(record)
    firsts = {e.turn().players[:1] for e in courses(eng)}
    if len(firsts) > 1:           # unseen turns leave who acts next open
        return None
    t = eng.turn()
    if t.kind in ("lead", "follow", "exchange") or (t.kind == "deal" and len(t.players) == 1):
        return t.players[0] if t.players else None
    return None


def lead_data(record) -> dict[str, Any]:
    """The next play to a trick, for the tap entry: who plays (the engine's
    leader or follower, when ``can_lead``/``can_follow`` say so), the verb (``leads`` or
    ``plays``), the cards offered and the plays allowed, each as its cards' ranks
    (``Jk`` a joker).  A hand the record gives whole (the recorder's own) offers its cards
    and its legal plays (:func:`solver.twenty_two.ranking.legal_leads`,
    :func:`~solver.twenty_two.ranking.legal_follows`, the engine's rules TT-9..TT-11,
    TT-V1, TT-V2); another player's the cards still unseen that they may hold (every
    consistent deal of the hand, as ``log`` checks it: I1..I5), or every unseen card
    where that cannot be decided in time; their lead of one rank (TT-9, A5), any follow of
    as many cards as were led (TT-10: ``plays`` is ``None``).  At the showdown (TT-13)
    ``showdown``: each player's last card as it may be (:func:`_showdown`) instead.  Empty
    when no play is due (before the deal's exchange is done, between hands)."""
    key = (repr(record.header), tuple(st.text for st in record.statements))
    if key not in _CACHE:
        if len(_CACHE) >= 16:     # the record and the first parts of a trick on one line
            _CACHE.clear()
        _CACHE[key] = _next_play(record)
    return _CACHE[key]


def _next_play(record) -> dict[str, Any]:
    from solver.cards import Card
    from solver.twenty_two.engine import can_follow, can_lead, courses, replay
    from solver.twenty_two.ranking import lead_problem, legal_follows, legal_leads

    eng = replay(record)
    st = eng.state()
    ways = courses(eng)
    if len(ways) > 1 and len({(e.state().leader if not e.trick else e.state().follower,
                               len(e.trick[0][1]) if e.trick else None, e.turn().kind)
                              for e in ways}) > 1:
        return {}                 # who plays next, or how many cards, hangs on unseen turns
    if st.turn == "showdown":
        return {"showdown": _showdown(record, eng, st.may_act)}
    lead = not st.trick
    who = st.leader if lead else st.follower
    if who is None or not (can_lead(st, who) if lead else can_follow(st, who)):
        return {}

    def rank(c: Card) -> str:
        return "Jk" if c.is_joker else repr(c)[:-1]

    def ranks(plays) -> list[list[str]]:
        return [list(p) for p in sorted({tuple(sorted(rank(c) for c in p)) for p in plays})]

    trick = [cards for _, cards in st.trick]
    if eng.full.get(who):
        hand = sorted(Card.parse(n) for n in eng.known[who].elements())
        plays = legal_leads(hand, eng.opts) if lead else [  # in any course of unseen plays
            q for e in ways for q in legal_follows(hand, [c for _, c in e.trick], eng.opts)]
        return {"next": {"player": who, "verb": "leads" if lead else "plays",
                         "cards": [repr(c) for c in hand], "plays": ranks(plays),
                         "n": None, "known": True}}
    may = _may_hold(record, eng, who)
    cards = sorted(Card.parse(n) for n in may.elements())
    out: dict[str, Any] = {"player": who, "verb": "leads" if lead else "plays",
                           "cards": [repr(c) for c in cards], "plays": None,
                           "n": None if lead else len(trick[0]), "known": False}
    if lead:
        out["plays"] = ranks(p for p in legal_leads(cards, eng.opts)
                             if lead_problem(p, st.hand_size, None, eng.opts) is None)
    return {"next": out}


def _showdown(record, eng, players) -> dict[str, list[str]]:
    """The showdown's offers (TT-13): for each player in the hand the card they may reveal,
    their last: a hand the record gives whole (the recorder's own) its card; another
    player's the cards they may hold (:func:`_may_hold`: never a card played already or
    known in another hand)."""
    from solver.cards import Card

    hidden = [p for p in players if not eng.full.get(p)]
    may = _may_hold_all(record, eng, hidden) if hidden else {}
    return {p: [repr(c) for c in sorted(Card.parse(n) for n in
                                        (may[p] if p in may else eng.known[p]))]
            for p in players}


def _may_hold(record, eng, who: str):
    """The cards (name -> copies) ``who``'s hidden hand may hold now: every card some
    consistent deal of the hand puts there (the model ``log``'s check solves, with all that
    is written), else the cards not placed by the record at all."""
    return _may_hold_all(record, eng, [who])[who]


def _may_hold_all(record, eng, players) -> dict:
    """:func:`_may_hold` of each of ``players``, the model solved once for them all."""
    from collections import Counter

    from solver.twenty_two.inference import build, is_complete

    placed = Counter(eng.public) + eng.known_discards
    for hand in eng.known.values():
        placed += hand
    free = Counter(eng.deal.deck) - placed
    unseen = {p: free + eng.known[p] for p in players}
    from solver.twenty_two.engine import has_unseen

    if has_unseen(record.statements):   # one course's model would leave out the others'
        return unseen
    try:
        vm = build(record, record.header.me, eng.deal, eng.opts, complete=is_complete(eng),
                   omniscient=True)
        bb = vm.model.backbone()
    except SleuthError:
        return unseen
    if not bb.consistent:
        return unseen
    may: dict = {p: Counter() for p in players}
    for k, locs in bb.possible.items():
        for p in players:
            if p in locs:
                may[p][vm.model.name(k)] += 1
    return may


