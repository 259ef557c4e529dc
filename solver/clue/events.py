"""Clue events (record-format.md, "Clue events"): frozen values whose ``str`` is their
record notation.

>>> from solver.records import Header
>>> h = Header(game="clue", players=("Ana", "Ben", "Cleo", "Dev"), dealer="Dev")
>>> print(parse_event("ana suggests plum dagger library: cleo shows knife", h))
Ana suggests Plum Knife Library: Ben passes, Cleo shows Knife
>>> print(parse_event("Cleo suggests Mustard Pipe Ballroom: nobody", h))
Cleo suggests Mustard Pipe Ballroom: nobody
>>> print(parse_event("Cleo suggests Mustard Pipe Ballroom: Dev shows", h))
Cleo suggests Mustard Pipe Ballroom: Dev shows
>>> print(parse_event("Ben suggests Green Candlestick Lounge: ?", h), parse_event("Cleo: ?", h), sep=" / ")
Ben suggests Green Candlestick Lounge: ? / Cleo: ?
>>> print(parse_event("TURN: cleo", h))
turn: Cleo
>>> print(parse_event("Dev accuses Green Wrench Study: wrong", h))
Dev accuses Green Wrench Study: wrong
>>> print(parse_event("dev sees case: mustard rope hall", h))
Dev sees case: Mustard Rope Hall
>>> parse_event("Ana suggests Plum Knife Library: Cleo passes, Ben shows Knife", h)
Traceback (most recent call last):
...
solver.errors.NotationError: the refutation goes clockwise from Ana's left: Ben, then Cleo (CL-6): 'Cleo passes, Ben shows Knife'
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from solver.cards import list_tokens, listed_twice
from solver.clue.options import ClueOptions, deck_of
from solver.errors import NotationError
from solver.games import Event, TurnIs, Unseen
# The statements every game takes (solver.games), as they read here:
# * Unseen:
#   ``P: ?`` -- one suggestion by P that the recorder did not see (any suggestion, any
#   refutation).
# * TurnIs:
#   ``turn: P`` -- it is P's turn now (record-format.md, "What the recorder did not see":
#   every game's resynchronisation).  Clue does not check the turn order (the board is not
#   modelled), so it says only that P is still in (CL-9).
from solver.records import NAME, player_of

#: the mark of what the recorder did not see
UNSEEN = "?"


@dataclass(frozen=True)
class Holds(Event):
    """``P holds: cards`` -- a whole hand known to the recorder (its own; every hand in a
    complete record; in a spectator's record, a hand it saw)."""
    setup = True

    player: str
    cards: tuple[str, ...]

    def __str__(self):
        return f"{self.player} holds: {' '.join(self.cards)}"


@dataclass(frozen=True)
class FaceUp(Event):
    """``faceup: cards`` -- the public leftovers F (CL-11)."""
    setup = True

    cards: tuple[str, ...]

    def __str__(self):
        return f"faceup: {' '.join(self.cards)}"


@dataclass(frozen=True)
class Answer:
    """One player's answer to a suggestion: a pass, or a show (``card`` ``None``: the card
    was not seen)."""

    player: str
    shows: bool
    card: str | None = None

    def __str__(self):
        if not self.shows:
            return f"{self.player} passes"
        return f"{self.player} shows" + (f" {self.card}" if self.card else "")


@dataclass(frozen=True)
class Suggest(Event):
    """``A suggests s w r: answers`` (CL-5, CL-6, CL-13).  ``answers`` lists every player
    asked, in seat order (the passes of the short form filled in from the seating);
    ``None``: the refutation was not seen."""

    player: str
    cards: tuple[str, str, str]
    answers: tuple[Answer, ...] | None

    @property
    def seen(self) -> bool:
        return self.answers is not None

    @property
    def showers(self) -> tuple[Answer, ...]:
        return tuple(a for a in self.answers or () if a.shows)

    def __str__(self):
        head = f"{self.player} suggests {' '.join(self.cards)}: "
        if self.answers is None:
            return head + UNSEEN
        if not self.showers:
            return head + "nobody"
        return head + ", ".join(map(str, self.answers))


@dataclass(frozen=True)
class Accuse(Event):
    """``A accuses s w r: right|wrong`` (CL-8)."""

    player: str
    cards: tuple[str, str, str]
    right: bool

    def __str__(self):
        return f"{self.player} accuses {' '.join(self.cards)}: {'right' if self.right else 'wrong'}"


@dataclass(frozen=True)
class SeesCase(Event):
    """``A sees case: s w r`` -- what A saw in the case file after accusing wrongly (CL-8,
    E3); an extension of the contract (docs/record-format.md), written by A's own record."""

    player: str
    cards: tuple[str, str, str]

    def __str__(self):
        return f"{self.player} sees case: {' '.join(self.cards)}"


TURN_EVENTS = (Suggest, Accuse, Unseen)

_RE_HOLDS = re.compile(rf"^({NAME})\s+holds\s*:\s*(.*)$", re.I)
_RE_FACEUP = re.compile(r"^face-?up\s*:\s*(.*)$", re.I)
_RE_SUGGEST = re.compile(rf"^({NAME})\s+suggests\s+(.*?)\s*:\s*(.*)$", re.I)
_RE_ACCUSE = re.compile(rf"^({NAME})\s+accuses\s+(.*?)\s*:\s*(\S+)\s*$", re.I)
_RE_SEES = re.compile(rf"^({NAME})\s+sees\s+case\s*:\s*(.*)$", re.I)
_RE_UNSEEN = re.compile(rf"^({NAME})\s*:\s*\?$")
_RE_TURN = re.compile(rf"^turn\s*:\s*({NAME})$", re.I)
_RE_ANSWER = re.compile(rf"^({NAME})\s+(passes|pass|shows|show)(?:\s+(\S+(?:\s+\S+){{0,2}}))?$",
                        re.I)

STATEMENT_FORMS = ("'P holds: cards', 'faceup: cards', 'A suggests Suspect Weapon Room: "
                   "[P passes, ...] Q shows [Card]|nobody|?', "
                   "'A accuses Suspect Weapon Room: right|wrong', 'A sees case: Suspect Weapon Room' "
                   "(after A's wrong accusation), 'P: ?' (a suggestion not seen), 'turn: P'")


def card_tokens(text: str, deck) -> list[tuple[int, str]]:
    """The cards of a list with where each starts, as :func:`list_tokens` gives them, but a
    name of two or three words that CL-1 lists (``Colonel Mustard``, ``Lead Pipe``,
    ``Dining Room``) taken as one card, longest first, when its words are separated by
    spaces only (a comma always separates cards).

    >>> from solver.clue.options import STANDARD
    >>> card_tokens("Colonel Mustard Lead Pipe, Dining Room", STANDARD)
    [(0, 'Colonel Mustard'), (16, 'Lead Pipe'), (27, 'Dining Room')]
    >>> card_tokens("Plum Knife Library", STANDARD)
    [(0, 'Plum'), (5, 'Knife'), (11, 'Library')]
    """
    toks = list_tokens(text)
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(toks):
        for n in (3, 2, 1):
            part = toks[i:i + n]
            if len(part) < n:
                continue
            end = part[-1][0] + len(part[-1][1])
            typed = text[part[0][0]:end]
            if n == 1 or ("," not in typed and deck.names(typed)):
                out.append((part[0][0], typed))
                i += n
                break
    return out


def _card_list(text: str, deck, what: str) -> tuple[str, ...]:
    words = [w for _, w in card_tokens(text, deck)]
    if not words:
        raise NotationError(f"expected {what}", text=text)
    cards = tuple(deck.card(w) for w in words)
    dup = next((c for c in cards if cards.count(c) > 1), None)
    if dup:     # quoted as typed (an alias, another case), at its second copy
        raise listed_twice(text, cards, dup)
    return cards


def _triple(text: str, deck, rule: str = "CL-5") -> tuple[str, str, str]:
    """Suspect, weapon, room in that order (record-format.md), separated by spaces and/or
    commas (record-format.md, "Lexical rules"): ``Plum Knife Library``, ``Plum, Knife,
    Library``, ``Plum,Knife,Library``."""
    toks = card_tokens(text, deck)
    if len(toks) != 3:
        raise NotationError("expected three cards: a suspect, a weapon and a room",
                            text=text, rule=rule)
    cards = tuple(deck.card(w) for _, w in toks)
    for c, (at, word), kind, group in zip(cards, toks, ("suspect", "weapon", "room"),
                                          deck.groups):
        if c not in group:      # the word as typed (``Spanner``), where it stands
            raise NotationError(f"expected a {kind} here (suspect, weapon, room in that order)",
                                text=word, rule=rule, within=text, offset=at)
    return cards  # type: ignore[return-value]


def seating_after(player: str, players) -> list[str]:
    """The other players clockwise from ``player``'s left (CL-6)."""
    players = list(players)
    i = players.index(player)
    return players[i + 1:] + players[:i]


def parse_event(text: str, header):
    """Parse one Clue statement (record-format.md, "Clue events")."""
    deck = deck_of(header)
    t = text.strip()
    m = _RE_UNSEEN.match(t)
    if m:
        return Unseen(player_of(m.group(1), header.players))
    m = _RE_TURN.match(t)
    if m:
        return TurnIs(player_of(m.group(1), header.players))
    m = _RE_HOLDS.match(t)
    if m:
        return Holds(player_of(m.group(1), header.players),
                     _card_list(m.group(2), deck, "the cards held"))
    m = _RE_FACEUP.match(t)
    if m:
        return FaceUp(_card_list(m.group(1), deck, "the face-up cards"))
    m = _RE_ACCUSE.match(t)
    if m:
        who = player_of(m.group(1), header.players)
        verdict = m.group(3).lower()
        if verdict not in ("right", "wrong"):
            raise NotationError("expected 'right' or 'wrong'", text=m.group(3), rule="CL-8")
        return Accuse(who, _triple(m.group(2), deck), verdict == "right")
    m = _RE_SEES.match(t)
    if m:
        return SeesCase(player_of(m.group(1), header.players), _triple(m.group(2), deck, "CL-8"))
    m = _RE_SUGGEST.match(t)
    if m:
        who = player_of(m.group(1), header.players)
        cards = _triple(m.group(2), deck)
        body = m.group(3).strip()
        if body == UNSEEN:
            return Suggest(who, cards, None)
        try:
            return Suggest(who, cards, _answers(who, cards, body, header))
        except NotationError as e:
            # a fault in an answer is placed in the whole statement: its words may also
            # stand in the suggestion ('Ben shows Plum Knife' after 'suggests Plum Knife')
            if e.within is not None and e.offset is not None and e.within != t:
                at = t.find(e.within, m.start(3))
                if at >= 0:
                    e.offset, e.within = at + e.offset, t
            raise
    raise NotationError("not a Clue statement; expected one of " + STATEMENT_FORMS, text=t)


def _answers(who: str, cards, body: str, header) -> tuple[Answer, ...]:
    """The answers in seat order: passes left out before the first shower are filled in
    (CL-6); with ``refute=all`` every other player is listed (CL-13)."""
    opts = ClueOptions.of(header)
    deck = deck_of(header)
    order = seating_after(who, header.players)
    if body.lower() == "nobody":
        return tuple(Answer(p, False) for p in order)
    given: list[Answer] = []
    for piece in body.split(","):
        part = piece.strip()
        m = _RE_ANSWER.match(part)
        if not m and part and given and given[-1].shows and given[-1].card \
                and all(deck.names(w) for _, w in card_tokens(part, deck)):
            raise NotationError(f"{given[-1].player} shows one card: a player who refutes "
                                "shows exactly one of the three named", text=part,
                                rule="CL-6", within=part, offset=0)
        if not m:
            raise NotationError("expected 'P passes' or 'P shows [Card]' (or 'nobody', '?')",
                                text=part or body, rule="CL-6", within=part or None,
                                offset=0 if part else None)
        p = player_of(m.group(1), header.players)
        if p == who:
            raise NotationError("the suggester does not answer its own suggestion", text=part,
                                rule="CL-6")
        shows = m.group(2).lower().startswith("show")
        card = None
        if m.group(3):
            if not shows:
                raise NotationError("a pass shows no card", text=part, rule="CL-6")
            if len(shown := card_tokens(m.group(3), deck)) > 1 \
                    and all(deck.names(w) for _, w in shown):
                raise NotationError(f"{p} shows one card: a player who refutes shows exactly "
                                    "one of the three named", text=m.group(3), rule="CL-6",
                                    within=part, offset=m.start(3))
            try:
                card = deck.card(m.group(3))
            except NotationError as e:     # where it stands in the answer
                e.within, e.offset = part, m.start(3)
                raise
            if card not in cards:   # the word as typed (``Spanner``), where it stands
                raise NotationError("the card shown must be one of the three named",
                                    text=m.group(3), rule="CL-6", within=part,
                                    offset=m.start(3))
        if any(a.player == p for a in given):
            raise NotationError("a player answers twice", text=part, rule="CL-6")
        given.append(Answer(p, shows, card))
    seats = [order.index(a.player) for a in given]
    if seats != sorted(seats):
        names = ", then ".join(a.player for a in sorted(given, key=lambda a: order.index(a.player)))
        raise NotationError(f"the refutation goes clockwise from {who}'s left: {names}",
                            text=body, rule="CL-6")
    if opts.refute == "all":
        if len(given) != len(order):
            missing = [p for p in order if p not in {a.player for a in given}]
            raise NotationError("with refute=all every other player answers, each 'passes' "
                                f"or 'shows': {' '.join(missing)} missing", text=body,
                                rule="CL-13")
        return tuple(given)
    shows = [i for i, a in enumerate(given) if a.shows]
    if not shows:
        if len(given) != len(order):
            raise NotationError("nobody showed, so every other player passed: write 'nobody' "
                                "or every pass", text=body, rule="CL-6")
        return tuple(given)
    if shows[0] != len(given) - 1:
        raise NotationError("the first player who shows ends the refutation (CL-6): nobody "
                            "answers after", text=body, rule="CL-6")
    last = given[-1]
    # the passes left out: every player seated between the suggester and the shower
    return tuple(Answer(p, False) for p in order[:order.index(last.player)]) + (last,)
