"""Mysterium record statements: one frozen dataclass each, whose ``repr`` is its notation.

Keywords are case-insensitive, and so are names where unambiguous (record-format.md: written
back as ``players:`` and the roster spell them).  Cards are numbered
1..18 within their kind (MY-2) and written ``character 3``, ``location 12``, ``object 7``
(``C3``/``L12``/``O7`` and ``char``, ``loc``, ``obj``, ``suspect``, ``place``, ``weapon`` are
accepted).  Statements, in the order a game produces them (docs/mysterium.md):

    table character: 2 5 7 11 13 16        # MY-4: the psychic cards laid out, per kind
    secret Ana: character 5, location 2    # MY-5: the ghost's assignment (ghost's view only)
    hour 1                                 # MY-15: the clock
    Ana receives 2 visions                 # MY-8
    crow: 3                                # MY-9: discard 3 and redraw (`crow` = whole hand)
    Ana guesses character 5: right         # MY-10/MY-12: a guess and its outcome ...
    Ben guesses character 7                # ... or the guess alone, ...
    Cleo agrees with Ben                   # MY-11: a clairvoyancy token, check side ...
    Ana disagrees with Ben                 # ... or cross side
    reveal Ben: wrong                      # ... and its outcome later (MY-12)
    group 1: Ana                           # MY-16: the numbered groups (default: seating order)
    Ana votes 2                            # MY-20: the secret votes, written when counted
    verdict: 2                             # MY-21: optional, must agree with the count
    culprit: 2                             # MY-22: the culprit token revealed
    Ben: ?                                 # Ben's guess of this hour (or, in the epilogue,
                                           # his vote), not seen (record-format.md)
    reveal Ben: ?                          # the outcome of Ben's placed guess, not seen
    turn: Cleo                             # Cleo may act now (no turn order: a check)

>>> from solver.records import Header
>>> h = Header("mysterium", ("Gus", "Ana", "Ben", "Cleo"))
>>> print(parse_event("ana GUESSES c3: Correct", h))
Ana guesses character 3: right
>>> print(parse_event("Table Objects: 1, 4 9 12 15 18", h))
table object: 1 4 9 12 15 18
>>> print(parse_event("secret Ben: L2, object 9", h))
secret Ben: location 2, object 9
>>> print(parse_event("ben: ?", h), parse_event("Turn: cleo", h), parse_event("reveal Ana: ?", h),
...       sep=", ")
Ben: ?, turn: Cleo, reveal Ana: ?
>>> print(parse_event("Crow", h), parse_event("crow 2", h), parse_event("Cleo gets 1 vision", h), sep=", ")
crow, crow: 2, Cleo receives 1 vision
"""
from __future__ import annotations

from solver.games import Event, TurnIs, Unseen
# The statements every game takes (solver.games), as they read here:
# * Unseen:
#   ``P: ?`` (record-format.md, "What the recorder did not see"): P's turn that the
#   recorder did not see.  In phase 1 a psychic's turn is the guess of the hour with its
#   revelation (MY-10, MY-12): any card of their stage still on the table, right or wrong;
#   in the epilogue it is a psychic player's vote (MY-20), for any group.
# * TurnIs:
#   ``turn: P``: P may act now.  Mysterium has no turn order (the psychics guess and vote
#   at once, MY-10, MY-20), so this resynchronises nothing: it checks that P can still
#   take a turn (a psychic in phase 1 who has not guessed this hour, or the next hour when
#   this one is resolved; a player who has not voted in the epilogue; the ghost while the
#   game is not over).

import re
from dataclasses import dataclass

from solver.cards import split_tokens
from solver.records import NAME, name_in
from solver.errors import NotationError
from solver.mysterium.options import CARDS_PER_KIND_IN_BOX, KINDS
from solver.mysterium.roster import Roster, roster_of

_KIND_WORDS = {
    "character": "character", "characters": "character", "char": "character", "c": "character",
    "suspect": "character", "suspects": "character",
    "location": "location", "locations": "location", "loc": "location", "l": "location",
    "place": "location", "places": "location",
    "object": "object", "objects": "object", "obj": "object", "o": "object",
    "weapon": "object", "weapons": "object",
}
_OUTCOMES = {"right": True, "correct": True, "yes": True, "✓": True,
             "wrong": False, "incorrect": False, "no": False, "✗": False}


def parse_kind(word: str, text: str | None = None) -> str:
    kind = _KIND_WORDS.get(word.lower())
    if kind is None:
        raise NotationError("expected a kind of psychic card: character | location | object",
                            text=text or word)
    return kind


def is_number(word: str) -> bool:
    """ASCII digits only: ``str.isdigit()`` also passes ``²`` and Persian or Arabic-Indic
    digits, which ``int()`` then refuses or reads (issue 12)."""
    return word.isascii() and word.isdigit()


def parse_number(word: str, text: str | None = None) -> int:
    if not is_number(word) or not 1 <= int(word) <= CARDS_PER_KIND_IN_BOX:
        raise NotationError(f"a psychic card is a number 1-{CARDS_PER_KIND_IN_BOX}",
                            text=word, rule="MY-2")
    return int(word)


_CARD_RE = re.compile(r"^\s*([A-Za-z]+)\s*[: ]?\s*([^\s:,A-Za-z][^\s:,]*)\s*$")


def parse_card(text: str) -> tuple[str, int]:
    """``character 3``, ``character:3``, ``C3`` -> ``('character', 3)``.

    >>> parse_card("L12"), parse_card("object 7")
    (('location', 12), ('object', 7))
    """
    m = _CARD_RE.match(text)
    if not m:
        raise NotationError("expected a psychic card such as 'character 3' or 'C3'", text=text)
    return parse_kind(m.group(1), text), parse_number(m.group(2), text)


def card_name(kind: str, number: int) -> str:
    return f"{kind} {number}"


def _outcome(word: str, text: str) -> bool:
    v = _OUTCOMES.get(word.lower())
    if v is None:
        raise NotationError("expected the outcome: right | wrong", text=word)
    return v


# ----- the events ----------------------------------------------------------------------------
@dataclass(frozen=True)
class TableCards(Event):
    """MY-4: the psychic cards of one kind laid out face up."""
    setup = True
    kind: str
    cards: tuple[int, ...]

    def __str__(self):
        return f"table {self.kind}: " + " ".join(map(str, self.cards))


@dataclass(frozen=True)
class Secret(Event):
    """MY-5: (part of) a psychic's secret cards, as the ghost knows them."""
    setup = True
    psychic: str
    cards: tuple[tuple[str, int], ...]

    def __str__(self):
        return f"secret {self.psychic}: " + ", ".join(card_name(k, n) for k, n in self.cards)


@dataclass(frozen=True)
class Hour(Event):
    """MY-15: the clock advances to ``number``."""
    number: int

    def __str__(self):
        return f"hour {self.number}"


@dataclass(frozen=True)
class Visions(Event):
    """MY-8: the ghost gives a psychic ``count`` vision cards."""
    psychic: str
    count: int

    def __str__(self):
        return f"{self.psychic} receives {self.count} vision{'s' if self.count != 1 else ''}"


@dataclass(frozen=True)
class Crow(Event):
    """MY-9: a crow; ``count`` cards discarded and redrawn (``None``: the whole hand)."""
    count: int | None = None

    def __str__(self):
        return "crow" if self.count is None else f"crow: {self.count}"


@dataclass(frozen=True)
class Guess(Event):
    """MY-10: a psychic's intuition token on a card; ``right`` is ``None`` until revealed."""
    psychic: str
    kind: str
    card: int
    right: bool | None = None

    def __str__(self):
        s = f"{self.psychic} guesses {card_name(self.kind, self.card)}"
        return s if self.right is None else s + (": right" if self.right else ": wrong")


@dataclass(frozen=True)
class Reveal(Event):
    """MY-12: the ghost reveals the outcome of a psychic's guess of this hour (``None``: the
    recorder did not see it, ``reveal Ana: ?``)."""
    psychic: str
    right: bool | None

    def __str__(self):
        out = "?" if self.right is None else "right" if self.right else "wrong"
        return f"reveal {self.psychic}: {out}"


@dataclass(frozen=True)
class Clairvoyance(Event):
    """MY-11: ``voter`` places a clairvoyancy token by ``target``'s intuition token."""
    voter: str
    target: str
    agree: bool

    def __str__(self):
        return f"{self.voter} {'agrees' if self.agree else 'disagrees'} with {self.target}"


@dataclass(frozen=True)
class Group(Event):
    """MY-16: the ghost token ``number`` beside a psychic's group (or, with 2 players, a
    random group of discarded psychic cards)."""
    number: int
    psychic: str | None = None
    cards: tuple[tuple[str, int], ...] = ()

    def __str__(self):
        body = self.psychic if self.psychic else ", ".join(card_name(k, n)
                                                          for k, n in self.cards)
        return f"group {self.number}: {body}"


@dataclass(frozen=True)
class Vote(Event):
    """MY-20: a player's vote for a group."""
    voter: str
    group: int

    def __str__(self):
        return f"{self.voter} votes {self.group}"


@dataclass(frozen=True)
class Verdict(Event):
    """MY-21: the group the count designates (a check, or the eldest's decision)."""
    group: int

    def __str__(self):
        return f"verdict: {self.group}"


@dataclass(frozen=True)
class Culprit(Event):
    """MY-22: the culprit token revealed."""
    group: int

    def __str__(self):
        return f"culprit: {self.group}"


# ----- parsing -------------------------------------------------------------------------------
_NAME = f"({NAME})"
_R = {
    "table": re.compile(r"^table\s+([A-Za-z]+)\s*:\s*(.*)$", re.I),
    "secret": re.compile(r"^secret\s+" + _NAME + r"\s*:\s*(.*)$", re.I),
    "hour": re.compile(r"^hour\s*:?\s*(\S+)$", re.I),
    "visions": re.compile(r"^" + _NAME + r"\s+(?:receives|gets)\s+(\S+)\s+visions?$", re.I),
    "crow": re.compile(r"^crows?(?:\s*:?\s*(\S+))?$", re.I),
    "guess": re.compile(r"^" + _NAME + r"\s+guesses\s+([A-Za-z]+)\s*([^\s:A-Za-z][^\s:]*)"
                        r"(?:\s*:\s*(\S+))?$",
                        re.I),
    "reveal": re.compile(r"^reveal\s+" + _NAME + r"\s*:\s*(\S+)$", re.I),
    "unseen": re.compile(r"^" + _NAME + r"\s*:\s*\?$"),
    "turn": re.compile(r"^turn\s*:\s*" + _NAME + r"$", re.I),
    "clair": re.compile(r"^" + _NAME + r"\s+(agrees|disagrees)\s+with\s+" + _NAME + r"$", re.I),
    "group": re.compile(r"^group\s+(\S+)\s*:\s*(.*)$", re.I),
    "vote": re.compile(r"^" + _NAME + r"\s+votes\s+(?:for\s+)?(?:group\s+)?(\S+)$", re.I),
    "verdict": re.compile(r"^verdict\s*:\s*(?:group\s+)?(\S+)$", re.I),
    "culprit": re.compile(r"^culprit\s*:\s*(?:group\s+)?(\S+)$", re.I),
}
_CARD_ITEM = re.compile(r"([A-Za-z]+)\s*([0-9]+)")


def _card_list(body: str, text: str) -> tuple[tuple[str, int], ...]:
    items = [s.strip() for s in body.split(",") if s.strip()]
    if not items:
        raise NotationError("expected cards such as 'character 5, location 2'", text=text)
    out = []
    for item in items:
        out.append(parse_card(item))
    return tuple(out)


def _int(word: str, what: str, text: str) -> int:
    if not is_number(word):
        raise NotationError(f"expected {what}", text=word)
    return int(word)


def _anyone(r: Roster, name: str) -> str:
    """A psychic, a player (a psychic player, or the ghost), as the roster spells it."""
    found = name_in(name, r.psychics) or name_in(name, r.players)
    if found is None:
        raise NotationError("unknown player or psychic; expected one of "
                            + " ".join(dict.fromkeys(r.players + r.psychics)), text=name)
    return found


def parse_event(text: str, header_or_roster) -> object:
    """Parse one Mysterium statement (see the module docstring)."""
    r: Roster = (header_or_roster if isinstance(header_or_roster, Roster)
                 else roster_of(header_or_roster))
    t = " ".join(text.strip().split())
    m = _R["table"].match(t)
    if m:
        kind = parse_kind(m.group(1), t)
        words = split_tokens(m.group(2))
        if not words:
            raise NotationError("list the card numbers on the table (MY-4)", text=t)
        return TableCards(kind, tuple(parse_number(w, t) for w in words))
    m = _R["secret"].match(t)
    if m:
        return Secret(r.psychic(m.group(1)), _card_list(m.group(2), t))
    m = _R["hour"].match(t)
    if m:
        return Hour(_int(m.group(1), "an hour number 1-7 (MY-15)", t))
    m = _R["crow"].match(t)
    if m:
        return Crow(None if m.group(1) is None
                    else _int(m.group(1), "the number of vision cards discarded (MY-9)", t))
    m = _R["reveal"].match(t)
    if m:
        return Reveal(r.psychic(m.group(1)),
                      None if m.group(2) == "?" else _outcome(m.group(2), t))
    m = _R["turn"].match(t)
    if m:
        return TurnIs(_anyone(r, m.group(1)))
    m = _R["unseen"].match(t)
    if m:
        return Unseen(_anyone(r, m.group(1)))
    m = _R["group"].match(t)
    if m:
        number = _int(m.group(1), "a group number (MY-16)", t)
        body = m.group(2).strip()
        if name_in(body, r.psychics) is not None:
            return Group(number, psychic=r.psychic(body))
        if re.fullmatch(_NAME, body) and not _CARD_ITEM.fullmatch(body):
            r.psychic(body)  # raises: unknown psychic
        return Group(number, cards=_card_list(body, t))
    m = _R["verdict"].match(t)
    if m:
        return Verdict(_int(m.group(1), "a group number (MY-21)", t))
    m = _R["culprit"].match(t)
    if m:
        return Culprit(_int(m.group(1), "a group number (MY-22)", t))
    m = _R["visions"].match(t)
    if m:
        return Visions(r.psychic(m.group(1)),
                       _int(m.group(2), "the number of vision cards (MY-8)", t))
    m = _R["guess"].match(t)
    if m:
        right = None if m.group(4) is None else _outcome(m.group(4), t)
        return Guess(r.psychic(m.group(1)), parse_kind(m.group(2), t),
                     parse_number(m.group(3), t), right)
    m = _R["clair"].match(t)
    if m:
        return Clairvoyance(r.psychic(m.group(1)), r.psychic(m.group(3)),
                            m.group(2).lower() == "agrees")
    m = _R["vote"].match(t)
    if m:
        return Vote(r.voter(m.group(1)), _int(m.group(2), "a group number (MY-20)", t))
    raise NotationError(
        "expected a Mysterium statement: 'table character: 1 4 7 ...', 'hour 3', "
        "'Ana receives 2 visions', 'crow: 3', 'Ana guesses character 3: wrong', "
        "'reveal Ana: right', 'Ben agrees with Ana', 'group 1: Ana', 'Ana votes 2', "
        "'verdict: 2', 'culprit: 2', 'secret Ana: character 3, location 5, object 2', "
        "'Ana: ?' (a guess or vote not seen), 'reveal Ana: ?' or 'turn: Ana'",
        text=t)


__all__ = ["TableCards", "Secret", "Hour", "Visions", "Crow", "Guess", "Reveal", "Unseen", "TurnIs",
           "Clairvoyance", "Group", "Vote", "Verdict", "Culprit", "parse_event", "parse_card",
           "parse_kind", "card_name", "KINDS"]
