"""Mystery Hand events: frozen values whose ``repr`` is their record notation.

>>> from solver.records import Header
>>> h = Header(game="mystery-hand", players=("Ana", "Ben", "Cleo"))
>>> print(parse_event("Ana asks Ben 4h-7h: 4H, 6H", h))
Ana asks Ben 4H-7H: 4H 6H
>>> print(parse_event("ben ASKS cleo 5x: none", h))      # names in any case (record-format.md)
Ben asks Cleo 5*: 0
>>> print(parse_event("Cleo asks all 10D-KD: Ana 0, Ben 1", h))
Cleo asks all 10D-KD: Ana 0, Ben 1
>>> print(parse_event("Cleo asks all 10D-KD: 0 ?", h))   # in players: order, the asker skipped
Cleo asks all 10D-KD: Ana 0, Ben ?
>>> parse_event("Ana asks all 10D-KD: 0 1 0", h)
Traceback (most recent call last):
...
solver.errors.NotationError: expected 2 counts, one for each of Ben Cleo in seating order: '0 1 0'
>>> print(parse_event("Ana requests KS: nobody", h), parse_event("Ben announces AS 2H 3D 4C: wrong", h), sep=", ")
Ana requests KS: nobody, Ben announces AS 2H 3D 4C: wrong
>>> parse_event("Ben asks Cleo 4H-7H: ?", h).count is None, parse_event("Ben: ?", h)
(True, Unseen(player='Ben'))
>>> print(parse_event("Cleo asks all 10D-KD: Ana 0, Ben ?", h), parse_event("turn: Cleo", h), sep=", ")
Cleo asks all 10D-KD: Ana 0, Ben ?, turn: Cleo
"""
from __future__ import annotations

from solver.games import Event, TurnIs, Unseen
# The statements every game takes (solver.games), as they read here:
# * Unseen:
#   ``P: ?`` -- P took a whole turn the recorder did not see: any legal query (MH-8: an
#   ask-one, an ask-all or an exact request, never an announcement, which is public) with
#   any answer; an extra turn it earned may follow, by P.
# * TurnIs:
#   ``turn: P`` -- it is P's turn now (re-synchronises the turn order: turns the recorder
#   did not write may have passed since the previous statement).

import re
from dataclasses import dataclass

from solver.records import NAME, name_in, named_groups, player_of
from solver.cards import (SUITS, Card, RankSet, SuitRange, duplicates, format_cards,
                          listed_twice, parse_cards,
                          parse_query_set)
from solver.errors import NotationError, RuleError

QuerySet = SuitRange | RankSet


@dataclass(frozen=True)
class Holds(Event):
    """``P holds: cards`` -- a hand known to the recorder (own hand, or a revealed one; in a
    spectator's record, one it saw)."""
    setup = True

    player: str
    cards: tuple[Card, ...]

    def __str__(self):
        return f"{self.player} holds: {format_cards(self.cards)}"


@dataclass(frozen=True)
class FaceUp(Event):
    """``faceup: cards`` -- the public leftovers F (MH-5)."""
    setup = True

    cards: tuple[Card, ...]

    def __str__(self):
        return f"faceup: {format_cards(self.cards)}"


@dataclass(frozen=True)
class MysteryCards(Event):
    """``mystery Ana: cards`` -- a player's own mystery hand (two-player, MH-28); without a
    player, the mystery hand as the recorder learnt it (after their wrong announcement,
    MH-20; an accepted extension of the contract)."""
    setup = True

    player: str | None
    cards: tuple[Card, ...]

    def __str__(self):
        who = f" {self.player}" if self.player else ""
        return f"mystery{who}: {format_cards(self.cards)}"


@dataclass(frozen=True)
class AskOne(Event):
    """``A asks B X: shown`` (MH-10).  ``shown`` is the tuple of cards when the recorder saw
    them, else ``None`` and ``count`` is the number shown; ``count`` ``None`` (``: ?``): the
    answer was not seen, not even its count (record-format.md, "What the recorder did not
    see")."""

    asker: str
    target: str
    query: QuerySet
    shown: tuple[Card, ...] | None
    count: int | None

    def __str__(self):
        ans = (format_cards(self.shown) if self.shown else
               UNSEEN if self.count is None else str(self.count))
        return f"{self.asker} asks {self.target} {self.query!r}: {ans}"

    @property
    def seen(self) -> bool:
        """Whether the recorder saw at least the count."""
        return self.count is not None


@dataclass(frozen=True)
class AskAll(Event):
    """``A asks all X: P k, Q k`` (MH-13); a count ``None`` (``P ?``) was not seen."""

    asker: str
    query: QuerySet
    counts: tuple[tuple[str, int | None], ...]

    def __str__(self):
        return (f"{self.asker} asks all {self.query!r}: "
                + ", ".join(f"{p} {UNSEEN if k is None else k}" for p, k in self.counts))

    @property
    def total(self) -> int | None:
        """The number laid down in all; ``None`` when a count was not seen."""
        if any(k is None for _, k in self.counts):
            return None
        return sum(k for _, k in self.counts if k is not None)  # all seen (above)

    @property
    def known_total(self) -> int:
        """The sum of the counts that were seen."""
        return sum(k for _, k in self.counts if k is not None)

    @property
    def unseen(self) -> tuple[str, ...]:
        """The players whose count was not seen."""
        return tuple(p for p, k in self.counts if k is None)


@dataclass(frozen=True)
class Request(Event):
    """``A requests c: P`` or ``: nobody`` (MH-15); ``seen`` false (``: ?``): who showed
    it, or whether anybody did, was not seen (``shower`` is then ``None``)."""

    asker: str
    card: Card
    shower: str | None
    seen: bool = True

    def __str__(self):
        ans = UNSEEN if not self.seen else self.shower or "nobody"
        return f"{self.asker} requests {self.card!r}: {ans}"


@dataclass(frozen=True)
class Announce(Event):
    """``A announces c c c c: right|wrong`` (MH-18..MH-20)."""

    player: str
    cards: tuple[Card, ...]
    right: bool

    def __str__(self):
        return f"{self.player} announces {format_cards(self.cards)}: " + (
            "right" if self.right else "wrong")


#: every query set X (MH-9): the 11 ranges of each suit, then the 13 ranks
QUERIES = tuple([SuitRange(s, lo) for s in SUITS for lo in range(1, 12)]
                + [RankSet(r) for r in range(1, 14)])

#: the mark of what the recorder did not see
UNSEEN = "?"
TURN_EVENTS = (AskOne, AskAll, Request, Announce, Unseen)

_NAME = NAME
_RE_HOLDS = re.compile(rf"^({_NAME})\s+holds\s*:\s*(.*)$", re.I)
_RE_FACEUP = re.compile(r"^face-?up\s*:\s*(.*)$", re.I)
_RE_MYSTERY = re.compile(rf"^mystery(?:\s+({_NAME}))?\s*:\s*(.*)$", re.I)
_RE_ASKALL = re.compile(rf"^({_NAME})\s+asks\s+all\s+(\S+)\s*:\s*(.*)$", re.I)
_RE_ASK = re.compile(rf"^({_NAME})\s+asks\s+({_NAME})\s+(\S+)\s*:\s*(.*)$", re.I)
_RE_REQ = re.compile(rf"^({_NAME})\s+requests\s+(\S+)\s*:\s*(\S+)\s*$", re.I)
_RE_ANN = re.compile(rf"^({_NAME})\s+announces\s+(.*?)\s*:\s*(\S+)\s*$", re.I)
_RE_UNSEEN = re.compile(rf"^({_NAME})\s*:\s*\?$")
_RE_TURN = re.compile(rf"^turn\s*:\s*({_NAME})$", re.I)

STATEMENT_FORMS = (
    "'P holds: cards', 'faceup: cards', 'mystery P: cards', 'A asks B 4H-7H: cards|count|none', "
    "'A asks all 5*: P k, Q k' (or 'k k': the counts in seating order), 'A requests KS: P|nobody', 'A announces c c c c: right|wrong', "
    "'P: ?' (a turn not seen), 'turn: P'; '?' for an answer or a count not seen")


def _cards(text: str, what: str) -> tuple[Card, ...]:
    if not text.strip():
        raise NotationError(f"expected {what}", text=text)
    cards = parse_cards(text)
    dup = set(duplicates(cards, ignore=lambda c: c.is_joker))   # linear (issue 12)
    if dup:     # quoted as typed, at its second copy; one deck has each card once (MH-1)
        c = sorted(dup)[0]
        e = listed_twice(text, cards, c, f"{c!r} is listed twice: expected each card once, "
                         "as the one deck has it")
        raise RuleError(e.message, text=e.text, rule="MH-1", within=e.within, offset=e.offset)
    return tuple(cards)


def out_players(statements) -> tuple[str, ...]:
    """The players whom ``statements`` put out: a wrong announcement (MH-20; with
    two-player it ends the game instead, MH-28)."""
    return tuple(st.event.player for st in statements
                 if isinstance(st.event, Announce) and not st.event.right)


def parse_event(text: str, header, out=()):
    """Parse one Mystery Hand statement (record-format.md, "Mystery Hand events").

    ``out``: the players who are out before it (or a function giving them, asked only by
    an ask-all whose counts come without names, which skips them)."""
    t = text.strip()
    m = _RE_TURN.match(t)
    if m:
        return TurnIs(player_of(m.group(1), header.players))
    m = _RE_UNSEEN.match(t)
    if m:
        return Unseen(player_of(m.group(1), header.players))
    m = _RE_HOLDS.match(t)
    if m:
        return Holds(player_of(m.group(1), header.players), _cards(m.group(2), "the cards held"))
    m = _RE_FACEUP.match(t)
    if m:
        return FaceUp(_cards(m.group(1), "the face-up cards"))
    m = _RE_MYSTERY.match(t)
    if m:
        who = player_of(m.group(1), header.players) if m.group(1) else None
        cards = _cards(m.group(2), "four cards")
        if len(cards) != 4:
            raise NotationError("a mystery hand is four cards", text=m.group(2).strip(),
                                rule="MH-4")
        return MysteryCards(who, cards)
    m = _RE_ASKALL.match(t)
    if m:
        asker = player_of(m.group(1), header.players)
        q = parse_query_set(m.group(2))
        counts: list[tuple[str, int | None]] = []
        body = m.group(3).strip()
        if not body:
            raise NotationError("expected a count for every other active player: 'Ana 0, Ben 1', "
                                "or the counts in seating order: '0 1'", text=t)
        toks = [x for x in re.split(r"[\s,]+", body) if x]
        if _bare_counts(asker, toks, body, header, out):
            return AskAll(asker, q, _counts_in_order(asker, toks, body, header, out))
        for p, (tok,) in named_groups(body, lambda t: player_of(t, header.players), width=1,
                                      expected="'Player count' pairs such as 'Ana 0, Ben 1'"):
            k = None if tok == UNSEEN else _count(tok)
            if any(p == q2 for q2, _ in counts):
                raise NotationError("a player is counted twice", text=f"{p} {tok}")
            counts.append((p, k))
        return AskAll(asker, q, tuple(counts))
    m = _RE_ASK.match(t)
    if m:
        asker = player_of(m.group(1), header.players)
        target = player_of(m.group(2), header.players)
        q = parse_query_set(m.group(3))
        ans = m.group(4).strip()
        if ans == UNSEEN:
            return AskOne(asker, target, q, None, None)
        if re.fullmatch(r"\d+|none", ans, re.I):
            return AskOne(asker, target, q, None, _count(ans, _shown_cap(header)))
        try:
            if not parse_cards(ans):    # nothing, or a lone comma
                raise NotationError("no answer", text=ans)
        except NotationError as e:    # say every form the answer may take (issue 14)
            raise NotationError("expected the answer: a count 0-4, 'none', '?' (not seen) or "
                                "the cards shown", text=e.text) from None
        shown = _cards(ans, "the cards shown")      # (a card shown twice is said so)
        return AskOne(asker, target, q, shown, len(shown))
    m = _RE_REQ.match(t)
    if m:
        asker = player_of(m.group(1), header.players)
        card = Card.parse(m.group(2))
        who = m.group(3)
        if who == UNSEEN:
            return Request(asker, card, None, False)
        shower = None if who.lower() == "nobody" else player_of(who, header.players)
        return Request(asker, card, shower)
    m = _RE_ANN.match(t)
    if m:
        player = player_of(m.group(1), header.players)
        cards = _cards(m.group(2), "four cards")
        if len(cards) != 4:
            raise NotationError("an announcement names four cards", text=m.group(2),
                                rule="MH-18")
        verdict = m.group(3).lower()
        if verdict not in ("right", "wrong"):
            raise NotationError("expected 'right' or 'wrong'", text=m.group(3))
        return Announce(player, cards, verdict == "right")
    raise NotationError("not a Mystery Hand statement; expected one of " + STATEMENT_FORMS,
                        text=t)


#: a count as an ask-all without names gives it: 0-9, ``none`` or ``?``
_COUNT_TOKEN = re.compile(r"[0-9]+|none|\?", re.I)


def _names_player(tok: str, header) -> bool:
    """Whether ``tok`` writes a player's name (a player may be called ``2``)."""
    try:
        return name_in(tok, header.players) is not None
    except NotationError:
        return True


def _bare_counts(asker: str, toks: list[str], body: str, header, out) -> bool:
    """Whether an ask-all's answer ``toks`` are counts without names (``0 1 0 2``, in
    seating order) rather than name/count pairs (``Ana 0, Ben 1``).

    Counts only can be counts without names; a name, then a count, alternating to the
    end, can be pairs.  When both fit (players called ``1 2 3 4 5``), the number of tokens
    tells them apart: one count for each other active player is the form without names,
    as the contract shows it (``Cleo asks all 10D-KD: 0 1 0 2``), unless commas group the
    tokens two by two as the pairs are written (``1 0, 2 1``); any other number is read
    as pairs, the form that then parses whole.

    >>> from solver.records import Header
    >>> h = Header(game="mystery-hand", players=("1", "2", "3", "4", "5"))
    >>> def bare(body, out=()):
    ...     return _bare_counts("3", body.replace(",", " ").split(), body, h, out)
    >>> bare("1 0 0 2"), bare("1, 0, 0, 2"), bare("1 0 2 1 4 0 5 2"), bare("1 0, 2 1")
    (True, True, False, False)
    >>> bare("1 0 2", ("5",)), bare("1 0 2 1", ("5",))
    (True, False)
    """
    if not all(_COUNT_TOKEN.fullmatch(x) for x in toks):
        return False
    pairs = len(toks) % 2 == 0 and all(
        _names_player(name, header) and _COUNT_TOKEN.fullmatch(count)
        for name, count in zip(toks[::2], toks[1::2]))
    if not pairs:
        return True
    if "," in body and all(len(g.split()) == 2 for g in body.split(",") if g.strip()):
        return False
    gone = set(out() if callable(out) else out)
    return len(toks) == sum(1 for p in header.players if p != asker and p not in gone)


def _counts_in_order(asker: str, toks: list[str], body: str, header,
                     out) -> tuple[tuple[str, int | None], ...]:
    """``0 ? 1``: one count for each player in seating order (``players:``), the asker and
    the players who are out skipped (MH-13, MH-20), as the named pairs."""
    gone = set(out() if callable(out) else out)
    order = [p for p in header.players if p != asker and p not in gone]
    if len(toks) != len(order):
        raise NotationError(f"expected {len(order)} count{'s' if len(order) != 1 else ''}, "
                            f"one for each of {' '.join(order)} in seating order", text=body)
    return tuple((p, None if tok == UNSEEN else _count(tok)) for p, tok in zip(order, toks))


def _shown_cap(header) -> tuple[int, str, str]:
    """The most cards an ask-one may show, what says so and its rule: the cards of the set
    (MH-10), and in Sneak the jokers too (MH-24; MH-23: none with two players, MH-28)."""
    from solver.mystery_hand.options import MysteryHandOptions

    try:
        jokers = MysteryHandOptions.of(header).jokers
    except (NotationError, RuleError):     # a bad variant: the header's error says it
        jokers = 0
    if jokers:
        return 4 + jokers, (f"at most {4 + jokers} cards can be shown: the 4 of the set and "
                            f"the {jokers} jokers of Sneak"), "MH-24"
    return 4, "at most 4 cards can be shown, the cards of the set", "MH-10"


#: the cap of an ask-all's count: the cards of the set laid down (no joker, MH-24)
_LAID_CAP = (4, "a player lays down at most the 4 cards of the set", "MH-13")


def _count(tok: str, cap: tuple[int, str, str] = _LAID_CAP) -> int:
    if tok.lower() == "none":
        return 0
    if not (tok.isascii() and tok.isdigit()):   # not ²: int() would raise (issue 12)
        raise NotationError("expected a count (a number or 'none')", text=tok)
    k = int(tok)
    most, says, rule = cap
    if k > most:
        raise NotationError(says, text=tok, rule=rule)
    return k
