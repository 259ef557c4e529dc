"""Hand statements: parse and write (their notation is ``str``).

A scoresheet record has one statement per deal::

    round 1: Ana out full-hand; Ben 45, Cleo no-meld
    round 2 dealer Cleo indicator 7C: Ben out partial; Ana 5H KS AC, Cleo 30
    round 3: unscored redeal Ana
    round 3: unscored stock

A penalty is the card points left in hand (HR-38, before any doubling), the cards
themselves, or ``no-meld`` (flat 100).  Full Hand bonuses (HR-59) follow ``full-hand``:
``wild-discard`` or ``two-wilds``, and ``colour`` or ``suit``.

A round record logs one deal turn by turn (HR-27..HR-36; checked by
:mod:`solver.hand.engine`) and ends in the same ``round N: ...`` statement::

    indicator 7C                      # the turned-up card (HR-7)
    Ana holds: 7D AC 9D 5S 5C ...     # a hand known to the recorder (setup)
    Ana discards 9H                   # the starter's first turn: no draw (HR-27)
    Ben draws                         # from the stock, card not seen ...
    Ben draws 4C                      # ... or seen (the recorder's own draw)
    Ben takes 9H                      # the top discard (HR-29)
    Ben melds 7D AC 9D | 5S 5C 5H     # new melds, numbered 1, 2, ... in the order laid
    Ben lays off 8D on 3              # hand cards onto table meld 3 (HR-23)
    Ben swaps 8D on 1                 # the natural(s) for meld 1's wild, which goes to hand
    Ben discards 9C                   # ends the turn (HR-28); the last card goes out
    Ben calls two cards               # HR-33 (automatic unless manual-calls)
    Ben: ?                            # a whole turn of Ben's the recorder did not see
    turn: Cleo                        # it is Cleo's turn now (the turns before it not seen)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from solver.records import name_in, named_groups, player_of
from solver.cards import Card, split_tokens
from solver.errors import NotationError
from solver.games import Event, TurnIs, Unseen
# The statements every game takes (solver.games), as they read here:
# * Unseen:
#   ``P: ?`` -- one whole turn of P's the recorder did not see (record-format.md, "What
#   the recorder did not see"): a draw from the stock (none on the starter's first turn,
#   HR-27) and a discard, each card unseen.  Melds, lay-offs and swaps lie face up on the
#   table for the rest of the round (HR-11, HR-23, HR-25), so a turn that made any was
#   seen; and a taken discard must go into a new meld (HR-29), so the draw was from the
#   stock.  Which card was discarded is any card P then held.
# * TurnIs:
#   ``turn: P`` -- it is P's turn now: each player from the one on turn up to P's left-
#   hand neighbour took one turn not seen (as ``Q: ?``).

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
    """A scored deal: ``winner`` went out (``partial`` HR-37 or ``full-hand`` HR-40), or,
    with ``stock-end=penalties``, the stock ended it (``kind`` ``stock``, no winner: every
    player scores their penalty)."""

    number: int
    winner: str | None
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
        out = "stock" if self.kind == "stock" else \
            " ".join([f"{self.winner} out {self.kind}", *self.bonuses])
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


def parse_event(text: str, header) -> Event:
    """Parse one statement: a scoresheet line (``round N: ...``) or a turn statement
    (:func:`parse_turn`).

    >>> from solver.records import Header
    >>> h = Header("hand", ("Ana", "Ben", "Cleo"))
    >>> print(parse_event("Round 2 dealer cleo: ben OUT partial; ANA 5h ks, Cleo no-meld", h))
    round 2 dealer Cleo: Ben out partial; Ana 5H KS, Cleo no-meld
    >>> parse_event("round 2: Ben out partial; Ana 5h ks, Cleo no-meld, Dev 3", h)
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: not a player of this record (players: Ana Ben Cleo): 'Dev'
    >>> parse_event("round 2: Ben out partial; Ana 5h ks, Cleo no-meld 3", h)
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: a penalty is the card points, the cards left in hand, or no-meld (HR-38): 'Cleo no-meld 3'
    """
    players = header.players
    m = _HEAD.match(text.strip())
    if not m and not re.match(r"^\s*round\b", text, re.I):
        return parse_turn(text, header)
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
            dealer = player_of(opts[i + 1], players)
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
            by = player_of(words[2], players)
        elif len(words) > 2:
            raise NotationError("expected 'unscored redeal [<player>]' or 'unscored stock'",
                                text=body)
        return UnscoredEvent(number, cause, by, dealer)
    winner_part, _, pen_part = body.partition(";")
    w = winner_part.split()
    stock = [x.lower() for x in w] == ["stock"]
    if stock:
        w = [None, "out", "stock"]
    if len(w) < 3 or w[1].lower() != "out" or w[2].lower() not in (
            ("stock",) if stock else ("partial", "full-hand")):
        raise NotationError("expected '<player> out partial' (HR-37), '<player> out "
                            "full-hand [bonuses]' (HR-40) or 'stock' (stock-end=penalties)",
                            text=winner_part.strip())
    winner = None if stock else player_of(w[0], players)
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
    toks = pen_part.split()
    if toks:
        player_of(toks[0].strip(","), players)          # did-you-mean for the first name
    for who, rest in named_groups(pen_part, lambda t: _starts_penalty(t, players)):
        who = player_of(who, players)
        text = " ".join([who] + rest)
        if not rest:
            raise NotationError(f"{who}'s penalty is missing: points, the cards, or no-meld",
                                text=text)
        if len(rest) == 1 and rest[0].lower() in ("no-meld", "nomeld"):
            pens.append(Penalty(who, no_meld=True))
        elif len(rest) == 1 and ascii_int(rest[0]) is not None:
            pens.append(Penalty(who, points=ascii_int(rest[0])))
        else:
            try:
                pens.append(Penalty(who, cards=tuple(Card.parse(t) for t in rest)))
            except NotationError:
                for t in rest:      # a mistyped or unknown name: say which, not the penalty
                    if not _card_like(t.strip(",")):
                        player_of(t.strip(","), players)
                raise NotationError("a penalty is the card points, the cards left in hand, or "
                                    "no-meld", text=text, rule="HR-38") from None
    return RoundEvent(number, winner, kind, tuple(bonuses), tuple(pens), dealer, indicator)


def _starts_penalty(tok: str, players) -> bool:
    """Whether ``tok`` of the penalties is a player's name (in any case; a token that also
    reads as a card or a count, ``as`` for a player ``As``, is a name only as ``players:``
    writes it)."""
    return tok in players or (name_in(tok, players) is not None and not _card_like(tok))


def _card_like(tok: str) -> bool:
    """Whether ``tok`` reads as a card, a count or ``no-meld`` (not a player's name)."""
    if ascii_int(tok) is not None or tok.lower() in ("no-meld", "nomeld"):
        return True
    try:
        Card.parse(tok)
    except NotationError:
        return False
    return True


# ------------------------------------------------------------------------------ turns

def _cards_text(cards) -> str:
    return " ".join(repr(c) for c in cards)


@dataclass(frozen=True)
class MeldSpec:
    """One meld as written: its cards in written order and declared wild stand-ins
    (``AS=8C``: index -> cards)."""

    cards: tuple[Card, ...]
    declared: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    def __str__(self) -> str:
        decl = dict(self.declared)
        return " ".join(repr(c) + ("=" + "+".join(map(repr, decl[i])) if i in decl else "")
                        for i, c in enumerate(self.cards))


def _spec(text: str) -> MeldSpec:
    from solver.hand.melds import parse_meld

    cards, declared = parse_meld(text)
    return MeldSpec(tuple(cards), tuple(sorted(declared.items())))


@dataclass(frozen=True)
class Indicator(Event):
    """The turned-up indicator (HR-7): it decides the wilds (HR-8, HR-9)."""

    setup = True
    card: Card

    def __str__(self) -> str:
        return f"indicator {self.card!r}"


@dataclass(frozen=True)
class Holds(Event):
    """A hand as dealt, known to the recorder (their own; every hand in a complete record)."""

    setup = True
    player: str
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.player} holds: {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Draw(Event):
    """Step 1 from the stock (HR-28); ``card`` when the recorder saw it."""

    player: str
    card: Card | None = None

    def __str__(self) -> str:
        return f"{self.player} draws" + (f" {self.card!r}" if self.card is not None else "")


@dataclass(frozen=True)
class Take(Event):
    """Step 1 from the discard pile: its top card (HR-28, HR-29)."""

    player: str
    card: Card

    def __str__(self) -> str:
        return f"{self.player} takes {self.card!r}"


@dataclass(frozen=True)
class Melds(Event):
    """New melds from the hand (HR-11); table melds are numbered 1, 2, ... as laid."""

    player: str
    melds: tuple[MeldSpec, ...]

    def __str__(self) -> str:
        return f"{self.player} melds " + " | ".join(map(str, self.melds))


@dataclass(frozen=True)
class LayOff(Event):
    """Hand cards added to table meld ``meld`` (HR-23)."""

    player: str
    cards: MeldSpec
    meld: int

    def __str__(self) -> str:
        return f"{self.player} lays off {self.cards} on {self.meld}"


@dataclass(frozen=True)
class Swap(Event):
    """The natural(s) a table meld's wild stands for put in; the wild goes to hand (HR-24)."""

    player: str
    cards: tuple[Card, ...]
    meld: int

    def __str__(self) -> str:
        return f"{self.player} swaps {_cards_text(self.cards)} on {self.meld}"


@dataclass(frozen=True)
class Discard(Event):
    """Step 3: the turn's discard (HR-28); two cards only for a ``two-wilds`` Full Hand
    (HR-59, A12).  Discarding the last card goes out (HR-34)."""

    player: str
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.player} discards {_cards_text(self.cards)}"


CALLS = {1: "one card", 2: "two cards", 3: "three cards"}


@dataclass(frozen=True)
class Call(Event):
    """HR-33: 'one card', 'two cards', 'three cards' after the discard."""

    player: str
    count: int

    def __str__(self) -> str:
        return f"{self.player} calls {CALLS[self.count]}"


TURN_FORMS = ("indicator <card>", "<player> holds: <cards>", "<player> draws [<card>]",
              "<player> takes <card>", "<player> melds <meld> | <meld>",
              "<player> lays off <cards> on <meld number>",
              "<player> swaps <cards> on <meld number>", "<player> discards <card>",
              "<player> calls one card|two cards|three cards",
              "<player>: ? (a turn not seen)", "turn: <player>")


_RE_UNSEEN = re.compile(r"^(\S+)\s*:\s*\?$")
_RE_TURN = re.compile(r"^turn\s*:\s*(\S+)$", re.I)

#: the words after the player's name in a turn statement
TURN_VERBS = ("draws", "takes", "melds", "lays", "swaps", "discards", "calls")


def _expected(text: str) -> NotationError:
    return NotationError("expected a Hand statement: " + "; ".join(TURN_FORMS)
                         + "; or 'round N: ...'", text=text)


def parse_turn(text: str, header) -> Event:
    """One turn statement of a round record.

    >>> from solver.records import Header
    >>> h = Header("hand", ("Ana", "Ben", "Cleo"))
    >>> [str(parse_turn(t, h)) for t in ("Ana melds 7d ac 9d | 5s 5c 5h", "Ben lays off 8D on 3",
    ...                                  "Ben draws", "Cleo calls Two Cards", "INDICATOR 7c")]
    ['Ana melds 7D AC 9D | 5S 5C 5H', 'Ben lays off 8D on 3', 'Ben draws', 'Cleo calls two cards', 'indicator 7C']
    >>> [str(parse_turn(t, h)) for t in ("cleo: ?", "Turn: ben", "Ben:?")]
    ['Cleo: ?', 'turn: Ben', 'Ben: ?']
    >>> parse_turn("Ben lays off 8D on ²", h)
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: a table meld number (1, 2, ...: the order melds were laid): '²'
    """
    s = text.strip()
    words = s.split()
    if not words:
        raise _expected(text)
    m = _RE_TURN.match(s)
    if m:
        return TurnIs(player_of(m.group(1), header.players))
    m = _RE_UNSEEN.match(s)
    if m:
        return Unseen(player_of(m.group(1), header.players))
    if words[0].lower() == "indicator":
        if len(words) != 2:
            raise NotationError("expected 'indicator <card>' (HR-7)", text=text)
        return Indicator(Card.parse(words[1]))
    head, sep, rest = s.partition(":")
    if sep and head.split()[1:] and head.split()[1].lower() == "holds" and len(head.split()) == 2:
        who = player_of(head.split()[0], header.players)
        return Holds(who, tuple(Card.parse(t) for t in split_tokens(rest)))
    if len(words) < 2:
        raise _expected(text)
    verb = words[1].lower()
    if verb not in TURN_VERBS and name_in(words[0], header.players) is None:
        raise _expected(text)     # neither a player nor a verb ('turn: Ben', 'Ben: ?')
    who = player_of(words[0], header.players)
    args = words[2:]
    body = s.split(None, 2)[2] if len(words) > 2 else ""
    if verb == "draws":
        if len(args) > 1:
            raise NotationError("expected '<player> draws' or '<player> draws <card>'", text=text)
        return Draw(who, Card.parse(args[0]) if args else None)
    if verb == "takes":
        if len(args) != 1:
            raise NotationError("expected '<player> takes <card>' (the top discard, HR-29)",
                                text=text)
        return Take(who, Card.parse(args[0]))
    if verb == "melds":
        if not body.strip():
            raise NotationError("expected '<player> melds 7D AC 9D | 5S 5C 5H'", text=text)
        from solver.hand.melds import parse_melds

        melds = tuple(MeldSpec(tuple(c), tuple(sorted(d.items()))) for c, d in parse_melds(body))
        return Melds(who, melds)
    if verb in ("lays", "swaps"):
        if verb == "lays":
            if not args or args[0].lower() != "off":
                raise _expected(text)
            args = args[1:]
        if len(args) < 3 or args[-2].lower() != "on":
            raise NotationError(f"expected '<player> {'lays off' if verb == 'lays' else 'swaps'}"
                                " <cards> on <meld number>'", text=text)
        n = ascii_int(args[-1])
        if n is None or n < 1:
            raise NotationError("a table meld number (1, 2, ...: the order melds were laid)",
                                text=args[-1])
        spec = _spec(" ".join(args[:-2]))
        if verb == "lays":
            return LayOff(who, spec, n)
        if spec.declared:
            raise NotationError("a swap puts in naturals: nothing to declare", text=text,
                                rule="HR-24")
        return Swap(who, spec.cards, n)
    if verb == "discards":
        if not 1 <= len(args) <= 2:
            raise NotationError("expected '<player> discards <card>' (HR-28)", text=text)
        return Discard(who, tuple(Card.parse(a) for a in args))
    if verb == "calls":
        said = " ".join(a.lower() for a in args)
        for n, name in CALLS.items():
            if said == name or said == name.rstrip("s"):
                return Call(who, n)
        raise NotationError("expected '<player> calls one card|two cards|three cards' (HR-33)",
                            text=text)
    raise _expected(text)
