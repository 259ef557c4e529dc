"""Hand statements: parse and write (their notation is ``str``).

A scoresheet record has one statement per deal::

    round 1: Ana out full-hand; Ben 45, Cleo no-meld
    round 2 dealer Cleo indicator 7C: Ben out partial; Ana 5H KS AC, Cleo 30
    round 3: unscored redeal Ana
    round 3: unscored stock

A penalty is the card points left in hand (HR-38, before any doubling), the cards
themselves, or ``no-meld`` (flat 100).  Full Hand bonuses (HR-59) follow ``full-hand``:
``wild-discard`` or ``two-wilds``, and ``colour`` or ``suit``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from solver.cards import Card, split_tokens
from solver.errors import NotationError
from solver.games import Event

BONUS_NAMES = {"wild-discard": "bonus_wild_discard", "two-wilds": "bonus_two_wilds",
               "colour": "bonus_colour", "suit": "bonus_suit"}
BONUS_ALIASES = {"color": "colour"}


def ascii_int(text: str) -> int | None:
    """``int(text)`` for ASCII digits only (``str.isdigit`` accepts ``²`` and Persian digits,
    which ``int`` refuses or reads; issue 12), else ``None``.

    >>> ascii_int("45"), ascii_int("4\u00b2"), ascii_int("\u06f4\u06f5"), ascii_int("")
    (45, None, None, None)
    """
    return int(text) if text and text.isascii() and text.isdigit() else None



@dataclass(frozen=True)
class Penalty:
    """One opponent's line: card points, the cards, or no meld (flat, HR-38)."""

    player: str
    points: int | None = None
    cards: tuple[Card, ...] | None = None
    no_meld: bool = False

    def __str__(self) -> str:
        if self.no_meld:
            return f"{self.player} no-meld"
        if self.cards is not None:
            return f"{self.player} " + " ".join(map(repr, self.cards))
        return f"{self.player} {self.points}"


@dataclass(frozen=True)
class RoundEvent(Event):
    """A scored deal: ``winner`` went out (``partial`` HR-37 or ``full-hand`` HR-40)."""

    number: int
    winner: str
    kind: str
    bonuses: tuple[str, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    dealer: str | None = None
    indicator: Card | None = None

    def __str__(self) -> str:
        head = f"round {self.number}"
        if self.dealer:
            head += f" dealer {self.dealer}"
        if self.indicator is not None:
            head += f" indicator {self.indicator!r}"
        out = " ".join([f"{self.winner} out {self.kind}", *self.bonuses])
        return f"{head}: {out}" + ("; " + ", ".join(map(str, self.penalties))
                                   if self.penalties else "")


@dataclass(frozen=True)
class UnscoredEvent(Event):
    """A deal that did not count (HR-36): a redeal (HR-10) or the stock ran out (HR-35)."""

    number: int
    cause: str
    by: str | None = None
    dealer: str | None = None

    def __str__(self) -> str:
        head = f"round {self.number}" + (f" dealer {self.dealer}" if self.dealer else "")
        return f"{head}: unscored {self.cause}" + (f" {self.by}" if self.by else "")


_HEAD = re.compile(r"^round\s+([0-9]+)\s*(.*?)\s*:\s*(.*)$", re.I | re.ASCII)


def _player(name: str, players, text: str) -> str:
    if name not in players:
        raise NotationError(f"not a player of this record ({' '.join(players)})", text=name)
    return name


def parse_event(text: str, header) -> RoundEvent | UnscoredEvent:
    """Parse one scoresheet statement.

    >>> from solver.records import Header
    >>> h = Header("hand", ("Ana", "Ben", "Cleo"))
    >>> parse_event("Round 2 dealer Cleo: ben OUT partial; Ana 5h ks, Cleo no-meld", h)
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: not a player of this record (Ana Ben Cleo): 'ben'
    >>> print(parse_event("round 2 dealer Cleo: Ben out partial; Ana 5h ks, Cleo no-meld", h))
    round 2 dealer Cleo: Ben out partial; Ana 5H KS, Cleo no-meld
    """
    players = header.players
    m = _HEAD.match(text.strip())
    if not m:
        raise NotationError("expected 'round N: <player> out partial|full-hand; <player> "
                            "<points|cards|no-meld>, ...' or 'round N: unscored redeal|stock'",
                            text=text)
    number = int(m.group(1))
    if number < 1:
        raise NotationError("rounds are numbered from 1", text=m.group(1))
    dealer = indicator = None
    opts = split_tokens(m.group(2))
    i = 0
    while i < len(opts):
        key = opts[i].lower()
        if key not in ("dealer", "indicator") or i + 1 >= len(opts):
            raise NotationError("after 'round N' only 'dealer <player>' and 'indicator <card>' "
                                "may come before the ':'", text=opts[i])
        if key == "dealer":
            dealer = _player(opts[i + 1], players, text)
        else:
            indicator = Card.parse(opts[i + 1])
        i += 2
    body = m.group(3).strip()
    words = body.split()
    if words and words[0].lower() == "unscored":
        if indicator is not None:
            raise NotationError("an unscored deal has no penalties to count; leave out the "
                                "indicator", text=text)
        if len(words) < 2 or words[1].lower() not in ("redeal", "stock"):
            raise NotationError("expected 'unscored redeal [<player>]' (HR-10) or "
                                "'unscored stock' (HR-35)", text=body)
        cause = words[1].lower()
        by = None
        if len(words) == 3 and cause == "redeal":
            by = _player(words[2], players, text)
        elif len(words) > 2:
            raise NotationError("expected 'unscored redeal [<player>]' or 'unscored stock'",
                                text=body)
        return UnscoredEvent(number, cause, by, dealer)
    winner_part, _, pen_part = body.partition(";")
    w = winner_part.split()
    if len(w) < 3 or w[1].lower() != "out" or w[2].lower() not in ("partial", "full-hand"):
        raise NotationError("expected '<player> out partial' (HR-37) or '<player> out "
                            "full-hand [bonuses]' (HR-40)", text=winner_part.strip())
    winner = _player(w[0], players, text)
    kind = w[2].lower()
    bonuses = []
    for b in w[3:]:
        name = BONUS_ALIASES.get(b.lower(), b.lower())
        if name not in BONUS_NAMES:
            raise NotationError("expected a Full Hand bonus: wild-discard, two-wilds, colour, "
                                "suit", text=b, rule="HR-59")
        if name in bonuses:
            raise NotationError("bonus given twice", text=b, rule="HR-59")
        bonuses.append(name)
    pens = []
    for part in pen_part.split(","):
        toks = part.split()
        if not toks:
            if pen_part.strip():
                raise NotationError("an empty penalty between commas", text=pen_part)
            continue
        who = _player(toks[0], players, text)
        rest = toks[1:]
        if not rest:
            raise NotationError(f"{who}'s penalty is missing: points, the cards, or no-meld",
                                text=part.strip())
        if len(rest) == 1 and rest[0].lower() in ("no-meld", "nomeld"):
            pens.append(Penalty(who, no_meld=True))
        elif len(rest) == 1 and ascii_int(rest[0]) is not None:
            pens.append(Penalty(who, points=ascii_int(rest[0])))
        else:
            try:
                pens.append(Penalty(who, cards=tuple(Card.parse(t) for t in rest)))
            except NotationError:
                raise NotationError("a penalty is the card points, the cards left in hand, or "
                                    "no-meld", text=part.strip(), rule="HR-38") from None
    return RoundEvent(number, winner, kind, tuple(bonuses), tuple(pens), dealer, indicator)
