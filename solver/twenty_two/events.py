"""Twenty-Two record statements (docs/twenty-two.md): frozen values whose ``repr`` is their
canonical record notation, so that ``write_record`` round-trips.

>>> from solver.records import Header
>>> h = Header(game="twenty-two", players=("Ana", "Ben", "Cleo"))
>>> print(parse_event("ana LEADS 5h 5s 5d; BEN JC,7D,6S; Cleo plays KH 7C 7S", h))
Ana leads 5H 5S 5D; Ben JC 7D 6S; Cleo KH 7C 7S
>>> [str(parse_event(t, h)) for t in ("Ben plays 9c", "Cleo deals", "Cleo deals 7")]
['Ben plays 9C', 'Cleo deals', 'Cleo deals 7']
>>> print(parse_event("Ana exchanges 2: 2s 5h -> 3c kd", h), parse_event("Ben exchanges 1", h), sep=", ")
Ana exchanges 2: 2S 5H -> 3C KD, Ben exchanges 1
>>> print(parse_event("Ben: ?", h), parse_event("TURN: cleo", h), parse_event("Ana leads 7h; ben ?; Cleo 2s", h), sep=", ")
Ben: ?, turn: Cleo, Ana leads 7H; Ben ?; Cleo 2S
>>> print(parse_event("SHOWDOWN: Ana 4C, Ben KH, Cleo 9D", h), parse_event("draw: Ana 9C, Ben KD", h), sep=", ")
showdown: Ana 4C, Ben KH, Cleo 9D, draw: Ana 9C, Ben KD
"""
from __future__ import annotations

from solver.games import Event, TurnIs, Unseen
# The statements every game takes (solver.games), as they read here:
# * Unseen:
#   ``Ben: ?`` -- one turn of Ben's that the recorder did not see: his exchange while he
#   may still exchange (any number of cards the rules allow, TT-8), else his play to the
#   trick (a lead or a follow, any cards the rules allow, TT-9/TT-10).
# * TurnIs:
#   ``turn: Cleo`` -- it is Cleo's turn now (resynchronises after unseen plays).

import re
from dataclasses import dataclass

from solver.records import NAME, named_groups, player_of
from solver.cards import Card, format_cards, parse_cards
from solver.errors import NotationError

#: a play: the player and the cards, ``None`` for a play the recorder did not see (``Ben ?``)
Play = tuple[str, tuple[Card, ...] | None]


@dataclass(frozen=True)
class Draw(Event):
    """``draw: Ana 9C, Ben KD`` -- cards drawn to choose a dealer (TT-4, TT-14, A2)."""

    cards: tuple[tuple[str, Card], ...]

    def __str__(self):
        return "draw: " + ", ".join(f"{p} {c!r}" for p, c in self.cards)


@dataclass(frozen=True)
class Deal(Event):
    """``Ana deals 7`` -- a new hand: the dealer and the cards each player gets (TT-5..TT-7).

    The number is optional (it follows from the rules); when given it is checked."""

    dealer: str
    count: int | None = None

    def __str__(self):
        return f"{self.dealer} deals" + ("" if self.count is None else f" {self.count}")


@dataclass(frozen=True)
class Holds(Event):
    """``Ana holds: 2S 5H ...`` -- a player's whole hand at this point of the deal (the
    recorder's own; every hand in a complete record; in a spectator's record, one it
    saw)."""
    joins = (Deal,)

    player: str
    cards: tuple[Card, ...]

    def __str__(self):
        return f"{self.player} holds: {format_cards(self.cards)}"


@dataclass(frozen=True)
class Exchange(Event):
    """``Ana exchanges 2: 2S 5H -> 3C KD`` (discards -> new cards, when seen) or
    ``Ben exchanges 1`` (only the number is public) -- TT-8."""

    player: str
    count: int
    discards: tuple[Card, ...] | None = None
    draws: tuple[Card, ...] | None = None

    @property
    def known(self) -> bool:
        return self.discards is not None

    def __str__(self):
        s = f"{self.player} exchanges {self.count}"
        if self.discards is not None and self.count:
            assert self.draws is not None   # the new cards are seen with the discards
            s += f": {format_cards(self.discards)} -> {format_cards(self.draws)}"
        return s


@dataclass(frozen=True)
class Trick(Event):
    """Plays to a trick, in turn: ``Ana leads 7H; Ben 9C; Cleo 2S`` (``lead``) or the rest of
    a trick already led, ``Ben plays 9C; Cleo 2S`` (TT-9, TT-10)."""

    plays: tuple[Play, ...]
    lead: bool = True

    def __str__(self):
        parts = []
        for i, (p, cards) in enumerate(self.plays):
            verb = (" leads " if self.lead else " plays ") if i == 0 else " "
            parts.append(p + verb + ("?" if cards is None else format_cards(cards)))
        return "; ".join(parts)


@dataclass(frozen=True)
class Showdown(Event):
    """``showdown: Ana 4C, Ben KH, Cleo 9D`` -- the last cards, revealed together (TT-13)."""

    cards: tuple[tuple[str, Card], ...]

    def __str__(self):
        return "showdown: " + ", ".join(f"{p} {c!r}" for p, c in self.cards)


TwentyTwoEvent = Draw | Deal | Holds | Exchange | Trick | Showdown | Unseen | TurnIs

_NAME = f"({NAME})"
_DEAL = re.compile(rf"^{_NAME}\s+deals(?:\s+(\S+))?$", re.I)
_HOLDS = re.compile(rf"^{_NAME}\s+holds\s*:\s*(.*)$", re.I)
_EXCH = re.compile(rf"^{_NAME}\s+exchanges(?:\s+(\S+?))?\s*(?::\s*(.*))?$", re.I)
_LEAD = re.compile(rf"^{_NAME}\s+(leads|plays)\s+(.+)$", re.I)
_LISTED = re.compile(r"^(showdown|draw)\s*:\s*(.*)$", re.I)
_UNSEEN = re.compile(rf"^{_NAME}\s*:\s*\?$")
_TURN = re.compile(rf"^turn\s*:\s*{_NAME}$", re.I)
_SEGMENT = re.compile(rf"^{_NAME}(?:\s+plays)?\s+(.+)$", re.I)


def _count(tok: str) -> int:
    # ASCII digits only: str.isdigit() also passes '²' and Persian or Arabic-Indic digits,
    # which int() then refuses or reads (issue 12)
    if not (tok.isascii() and tok.isdigit()):
        raise NotationError("expected a number of cards", text=tok)
    return int(tok)


def _player_cards(body: str, header, what: str) -> tuple[tuple[str, Card], ...]:
    """``Ana 4C, Ben KH`` -> ((Ana, 4C), (Ben, KH))."""
    groups = named_groups(body, lambda t: player_of(t, header.players), width=1,
                          expected=f"'{what}: <player> <card>, <player> <card> ...'")
    out = [(p, Card.parse(c)) for p, (c,) in groups]
    seen = [p for p, _ in out]
    dup = next((p for p in seen if seen.count(p) > 1), None)
    if dup:
        raise NotationError(f"a player appears twice in one {what}", text=dup)
    return tuple(out)


def parse_event(text: str, header) -> TwentyTwoEvent:
    """Parse one statement line (comment already stripped)."""
    t = text.strip()
    m = _TURN.match(t)
    if m:
        return TurnIs(player_of(m.group(1), header.players))
    m = _UNSEEN.match(t)
    if m:
        return Unseen(player_of(m.group(1), header.players))
    m = _LISTED.match(t)
    if m:
        kind = m.group(1).lower()
        pc = _player_cards(m.group(2), header, kind)
        return Showdown(pc) if kind == "showdown" else Draw(pc)
    m = _HOLDS.match(t)
    if m:
        cards = tuple(parse_cards(m.group(2)))
        if not cards:
            raise NotationError("expected the cards held after 'holds:'", text=t)
        return Holds(player_of(m.group(1), header.players), cards)
    m = _DEAL.match(t)
    if m:
        return Deal(player_of(m.group(1), header.players), _count(m.group(2)) if m.group(2) else None)
    m = _EXCH.match(t)
    if m:
        player = player_of(m.group(1), header.players)
        count = _count(m.group(2)) if m.group(2) else None
        body = m.group(3)
        if body is None or not body.strip():
            if count is None:
                raise NotationError("expected 'P exchanges k' or 'P exchanges k: discards -> "
                                    "new cards'", text=t)
            return Exchange(player, count)
        arrow = "->" if "->" in body else "→" if "→" in body else None
        if arrow is None:
            raise NotationError("expected 'discards -> new cards' after the colon", text=body)
        left, right = body.split(arrow, 1)
        discards, draws = tuple(parse_cards(left)), tuple(parse_cards(right))
        if len(discards) != len(draws):
            raise NotationError("an exchange takes as many cards as it discards (TT-8)",
                                text=body)
        if count is not None and count != len(discards):
            raise NotationError(f"{count} cards exchanged but {len(discards)} listed", text=t)
        return Exchange(player, len(discards), discards, draws)
    m = _LEAD.match(t)
    if m:
        lead = m.group(2).lower() == "leads"
        segments = [s.strip() for s in t.split(";")]
        plays: list[Play] = []
        for i, seg in enumerate(segments):
            if not seg:
                raise NotationError("empty play between ';'", text=t)
            sm = _LEAD.match(seg) if i == 0 else _SEGMENT.match(seg)
            if not sm:
                raise NotationError("expected '<player> <cards>'", text=seg)
            if i > 0 and re.match(r"^\S+\s+leads\b", seg, re.I):
                raise NotationError("only the first play of a trick is a lead (TT-9)", text=seg,
                                    rule="TT-9")
            player = player_of(sm.group(1), header.players)
            body = (sm.group(3) if i == 0 else sm.group(2)).strip()
            if body == "?":      # a play the recorder did not see
                plays.append((player, None))
                continue
            cards = tuple(parse_cards(body))
            if not cards:
                raise NotationError("expected the cards played", text=seg)
            plays.append((player, cards))
        return Trick(tuple(plays), lead)
    raise NotationError("expected a Twenty-Two statement: 'draw: ...', 'P deals [n]', "
                        "'P holds: ...', 'P exchanges k[: ... -> ...]', 'P leads ...; Q ...; ...',"
                        " 'P plays ...', 'showdown: ...', 'P: ?', 'turn: P'", text=t)
