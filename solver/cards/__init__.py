"""Cards and notation (record-format.md, "Lexical rules").

A :class:`Card` is a frozen value whose ``repr`` is its canonical notation.

>>> Card.parse("th"), Card.parse("Q♠"), Card.parse("as"), Card.parse("joker")
(10H, QS, AS, Jk)
>>> parse_cards("2c, 5H 9s")
[2C, 5H, 9S]
>>> SuitRange.parse("JH-AH").cards()
[JH, QH, KH, AH]
>>> RankSet.parse("5x")
5*
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from solver.errors import NotationError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
JOKER_RANK = 0

_RANK_VALUE = {r: i + 1 for i, r in enumerate(RANKS)}  # A=1 .. K=13
_RANK_VALUE["T"] = 10
_JOKER_WORDS = {"jk", "joker"}


def rank_value(token: str) -> int:
    """``"A"`` -> 1, ``"10"``/``"T"`` -> 10, ``"K"`` -> 13.

    >>> rank_value("t"), rank_value("K")
    (10, 13)
    """
    v = _RANK_VALUE.get(token.upper())
    if v is None:
        raise NotationError("expected a rank (A 2-10 J Q K, T for 10)", text=token)
    return v


def rank_name(value: int) -> str:
    return "Jk" if value == JOKER_RANK else RANKS[value - 1]


@dataclass(frozen=True, order=False)
class Card:
    """A card: ``rank`` 1 (ace) .. 13 (king), or 0 for a joker (``suit`` is then ``""``)."""

    rank: int
    suit: str

    def __post_init__(self):
        if self.rank == JOKER_RANK:
            if self.suit != "":
                raise NotationError("a joker has no suit", text=repr(self))
        elif not (1 <= self.rank <= 13) or self.suit not in SUITS:
            raise NotationError("not a card", text=f"{self.rank}{self.suit}")

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse one card in any accepted spelling; raise :class:`NotationError` otherwise."""
        card = _PARSED.get(text) if cls is Card else None
        if card is None:
            card = cls._parse(text)
            if cls is Card and len(_PARSED) < 4096:    # (the spellings met are few)
                _PARSED[text] = card
        return card

    @classmethod
    def _parse(cls, text: str) -> "Card":
        t = text.strip()
        if t.lower() in _JOKER_WORDS:
            return JOKER
        if len(t) < 2:
            raise NotationError("expected a card such as 10H, QS or Jk", text=text)
        suit_tok = t[-1]
        suit = SUIT_SYMBOLS.get(suit_tok, suit_tok.upper())
        if suit not in SUITS:
            raise NotationError("expected a card such as 10H, QS or Jk (suit S H D C)", text=text)
        rank_tok = t[:-1]
        if rank_tok.upper() not in _RANK_VALUE:
            raise NotationError("expected a card such as 10H, QS or Jk (rank A 2-10 J Q K)",
                                text=text)
        return cls(_RANK_VALUE[rank_tok.upper()], suit)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def rank_name(self) -> str:
        return rank_name(self.rank)

    def high_rank(self) -> int:
        """Rank with the ace high (2..14); jokers 0."""
        return 14 if self.rank == 1 else self.rank

    def sort_key(self) -> tuple:
        if self.is_joker:
            return (9, 0)
        return (SUITS.index(self.suit), self.rank)

    def __repr__(self) -> str:
        return "Jk" if self.is_joker else f"{RANKS[self.rank - 1]}{self.suit}"

    __str__ = __repr__

    def __lt__(self, other: "Card") -> bool:
        return self.sort_key() < other.sort_key()


JOKER = Card(JOKER_RANK, "")
#: Card.parse's answers by the text parsed (values are frozen: one Card a spelling)
_PARSED: dict[str, Card] = {}

_SPLIT = re.compile(r"[\s,]+")


def split_tokens(text: str) -> list[str]:
    """Split a list on spaces and/or commas.

    >>> split_tokens(" a, b  c,d ")
    ['a', 'b', 'c', 'd']
    """
    return [t for t in _SPLIT.split(text.strip()) if t]


_TOKEN = re.compile(r"[^\s,]+")


def list_tokens(text: str) -> list[tuple[int, str]]:
    """The tokens of a list as :func:`split_tokens` splits it, each with where it starts in
    ``text``.

    >>> list_tokens(" 4h, 4♥ 9C")
    [(1, '4h'), (5, '4♥'), (8, '9C')]
    """
    return [(m.start(), m.group()) for m in _TOKEN.finditer(text)]


def copy_at(text: str, keys: Sequence, key, copy: int = 2) -> tuple[int | None, str]:
    """Where the ``copy``-th copy of ``key`` stands in the list ``text`` and how it is typed
    there (``keys``: what each token of ``text``, :func:`list_tokens`, writes, e.g. its
    card); ``(None, str(key))`` when there are fewer copies.

    >>> copy_at("4h, 4♥ 9C", parse_cards("4h, 4♥ 9C"), Card.parse("4H"))
    (4, '4♥')
    """
    toks = list_tokens(text)
    if len(toks) == len(keys):
        seen = 0
        for (pos, tok), k in zip(toks, keys):
            if k == key:
                seen += 1
                if seen == copy:
                    return pos, tok
    return None, str(key)


def listed_twice(text: str, keys: Sequence, key, message: str = "a card is listed twice",
                 rule: str | None = None) -> NotationError:
    """The error of ``key`` written twice in the list ``text`` (``keys`` as :func:`copy_at`
    takes them): it quotes the second copy as typed and points at it (record-format.md:
    an error quotes the offending text), wherever the list stands in its line.

    >>> e = listed_twice("4h, 4♥ 9C", parse_cards("4h, 4♥ 9C"), Card.parse("4H"))
    >>> str(e), e.within, e.offset
    ("a card is listed twice: '4♥'", '4h, 4♥ 9C', 4)
    """
    pos, tok = copy_at(text, keys, key)
    return NotationError(message, text=tok, rule=rule, within=text if pos is not None else None,
                         offset=pos)


@functools.lru_cache(maxsize=4096)
def canonical(word: str) -> str | None:
    """The canonical notation of the card, suit range or rank set that ``word`` writes in
    any accepted spelling (record-format.md, "Lexical rules": ``♠♥♦♣``, any case, ``T`` for
    10, ``joker``, ``5x``), else ``None``: what an error quotes of a word it read.

    >>> canonical("9♣"), canonical("th"), canonical("joker"), canonical("4♥-7♥"), canonical("5x")
    ('9C', '10H', 'Jk', '4H-7H', '5*')
    >>> canonical("Ana"), canonical("2"), canonical("")
    (None, None, None)
    """
    try:
        return repr(Card.parse(word))
    except NotationError:
        pass
    try:
        return repr(parse_query_set(word)) if word else None
    except NotationError:
        return None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a card list; a string is split on spaces and commas."""
    tokens = split_tokens(text) if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in tokens]


def duplicates(items: Iterable, ignore=lambda x: False) -> list:
    """The items that occur more than once, each once, in order of their second occurrence
    (linear time: a list of thousands of cards is checked at once).  ``ignore(item)``: items
    that may repeat (jokers).

    >>> duplicates(parse_cards("5S 6S 5S Jk Jk 6S 5S"), ignore=lambda c: c.is_joker)
    [5S, 6S]
    """
    seen: set = set()
    out: list = []
    reported: set = set()
    for x in items:
        if ignore(x):
            continue
        if x in seen:
            if x not in reported:
                reported.add(x)
                out.append(x)
        else:
            seen.add(x)
    return out


def standard_deck(jokers: int = 0) -> list[Card]:
    """The 52 cards in canonical order (spades, hearts, diamonds, clubs; ace first), plus
    ``jokers`` copies of the joker.

    >>> len(standard_deck()), standard_deck(2)[-1]
    (52, Jk)
    """
    return [Card(r, s) for s in SUITS for r in range(1, 14)] + [JOKER] * jokers


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(repr(c) for c in cards)


@dataclass(frozen=True)
class SuitRange:
    """Four consecutive ranks of one suit (MH-9(a)); ace low ``AH-4H`` or high ``JH-AH``.

    ``low`` is the lowest rank in ace-high numbering for ``JH-AH`` (11) and 1 for ``AH-4H``.

    >>> SuitRange.parse("4h-7h"), SuitRange.parse("AH-4H").cards()
    (4H-7H, [AH, 2H, 3H, 4H])
    >>> SuitRange.parse("KH-3H")
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: a suit range is four consecutive ranks of one suit, no wrap (MH-9): 'KH-3H'
    """

    suit: str
    low: int  # 1..11, where low=11 means J-Q-K-A

    def __post_init__(self):
        if self.suit not in SUITS or not (1 <= self.low <= 11):
            raise NotationError("not a suit range", text=f"{self.low}{self.suit}")

    @classmethod
    def parse(cls, text: str, size: int = 4, rule: str = "MH-9") -> "SuitRange":
        parts = text.strip().split("-")
        if len(parts) != 2:
            raise NotationError("expected a suit range such as 4H-7H", text=text)
        try:
            a, b = Card.parse(parts[0]), Card.parse(parts[1])
        except NotationError:
            raise NotationError("expected a suit range such as 4H-7H", text=text) from None
        if a.is_joker or b.is_joker or a.suit != b.suit:
            raise NotationError("a suit range is within one suit", text=text, rule=rule)
        lo = a.rank
        hi = b.high_rank() if a.rank != 1 else b.rank
        if hi - lo != size - 1:
            raise NotationError(f"a suit range is {'four' if size == 4 else size} consecutive "
                                "ranks of one suit, no wrap", text=text, rule=rule)
        return cls(a.suit, lo)

    def cards(self) -> list[Card]:
        out = []
        for r in range(self.low, self.low + 4):
            out.append(Card(1 if r == 14 else r, self.suit))
        return out

    def __repr__(self) -> str:
        c = self.cards()
        return f"{c[0]!r}-{c[-1]!r}"


@dataclass(frozen=True)
class RankSet:
    """All four cards of one rank (MH-9(b)), written ``5*`` or ``5x``.

    >>> RankSet.parse("10*").cards()
    [10S, 10H, 10D, 10C]
    """

    rank: int

    @classmethod
    def parse(cls, text: str) -> "RankSet":
        t = text.strip()
        if len(t) < 2 or t[-1] not in "*xX":
            raise NotationError("expected a rank set such as 5* or 5x", text=text)
        try:
            return cls(rank_value(t[:-1]))
        except NotationError:
            raise NotationError("expected a rank set such as 5* or 5x", text=text) from None

    def cards(self) -> list[Card]:
        return [Card(self.rank, s) for s in SUITS]

    def __repr__(self) -> str:
        return f"{rank_name(self.rank)}*"


def parse_query_set(text: str) -> SuitRange | RankSet:
    """A Mystery Hand query set: a suit range or a rank set.

    >>> parse_query_set("Q*"), parse_query_set("10d-kd")
    (Q*, 10D-KD)
    """
    t = text.strip()
    if t and t[-1] in "*xX" and "-" not in t:
        return RankSet.parse(t)
    if "-" in t:
        return SuitRange.parse(t)
    raise NotationError("expected a suit range such as 4H-7H or a rank set such as 5*", text=text)
