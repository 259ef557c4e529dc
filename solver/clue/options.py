"""Clue options (CL-11, CL-13, A3) and the deck of a record (CL-1, CL-12), on the one option
machinery :mod:`solver.options`.

>>> ClueOptions.from_names(["refute=all", "leftovers=face-up"])
ClueOptions(refute='all', leftovers='face-up')
>>> str(ClueOptions())
'standard'
>>> ClueOptions.from_names(["last-player=plays-on"]).last_player
'plays-on'
>>> d = deck_of(Header(game="clue", players=("Ana", "Ben", "Cleo", "Dev")))
>>> len(d.cards), d.card("miss_scarlett"), d.card("Dagger"), d.card("DiningRoom")
(21, 'Scarlet', 'Knife', 'Dining')
>>> hand_sizes(("Ana", "Ben", "Cleo", "Dev"), "Dev", ClueOptions(), d)
({'Ana': 5, 'Ben': 5, 'Cleo': 4, 'Dev': 4}, 0)
>>> hand_sizes(("Ana", "Ben", "Cleo", "Dev"), "Dev", ClueOptions(leftovers="face-up"), d)
({'Ana': 4, 'Ben': 4, 'Cleo': 4, 'Dev': 4}, 2)
>>> hand_sizes(("Ana", "Ben", "Cleo", "Dev", "Eli"), "Ana", ClueOptions(), d)
({'Ben': 4, 'Cleo': 4, 'Dev': 4, 'Eli': 3, 'Ana': 3}, 0)
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from solver.errors import NotationError, RuleError
from solver.options import Option, Options
from solver.records import Header, name_key

#: CL-1: the standard card lists, in the rules' order
SUSPECTS = ("Scarlet", "Mustard", "White", "Green", "Peacock", "Plum")
WEAPONS = ("Candlestick", "Knife", "Pipe", "Revolver", "Rope", "Wrench")
ROOMS = ("Kitchen", "Ballroom", "Conservatory", "Dining", "Billiard", "Library", "Lounge",
         "Hall", "Study")

#: CL-1: names of other editions and of speech -> the canonical card (compared without
#: case, ``_``, ``-`` or ``.``)
ALIASES = {
    "missscarlet": "Scarlet", "missscarlett": "Scarlet", "scarlett": "Scarlet",
    "colonelmustard": "Mustard", "colmustard": "Mustard", "mrswhite": "White",
    "reverendgreen": "Green", "revgreen": "Green", "mrgreen": "Green",
    "mrspeacock": "Peacock", "professorplum": "Plum", "profplum": "Plum",
    "dagger": "Knife", "leadpipe": "Pipe", "leadenpipe": "Pipe", "spanner": "Wrench",
    "pistol": "Revolver", "gun": "Revolver", "candle": "Candlestick",
    "diningroom": "Dining", "billiardroom": "Billiard",
}

KINDS = ("suspect", "weapon", "room")
#: the location of the case file S (CL-2) and of the face-up leftovers (CL-11)
ENVELOPE = "envelope"
FACEUP = "faceup"


def _fold(word: str) -> str:
    """``word`` as cards are compared: without case, Unicode form, spaces, ``_``, ``-``,
    ``.`` or ``'`` (``KÜCHE`` and a decomposed ``Küche`` are ``Küche``)."""
    return name_key(re.sub(r"[\s_\-.']", "", word))


@dataclass(frozen=True)
class Deck:
    """The card lists of a record (CL-1, or the header's own, CL-12)."""

    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]

    @property
    def cards(self) -> tuple[str, ...]:
        return self.suspects + self.weapons + self.rooms

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        return (self.suspects, self.weapons, self.rooms)

    def kind(self, card: str) -> str:
        for k, g in zip(KINDS, self.groups):
            if card in g:
                return k
        raise KeyError(card)

    def card(self, word: str) -> str:
        """The canonical card that ``word`` names (any case, CL-1 aliases); else a
        ``NotationError`` listing the deck."""
        found = _lookup(self).get(_fold(word))
        if found is None:
            raise NotationError("not a card of this game (suspects: " + " ".join(self.suspects)
                                + "; weapons: " + " ".join(self.weapons) + "; rooms: "
                                + " ".join(self.rooms) + ")", text=word, rule="CL-1")
        return found

    def names(self, words: str) -> bool:
        """Whether ``words`` (one or more, as typed) name a card of this deck."""
        return _fold(words) in _lookup(self)

    @property
    def triples(self) -> int:
        return len(self.suspects) * len(self.weapons) * len(self.rooms)


@lru_cache(maxsize=64)
def _lookup(deck: Deck) -> dict[str, str]:
    out = {}
    for alias, card in ALIASES.items():
        if card in deck.cards:
            out[_fold(alias)] = card
    for c in deck.cards:
        out[_fold(c)] = c
    return out


STANDARD = Deck(SUSPECTS, WEAPONS, ROOMS)


def deck_of(header) -> Deck:
    """The deck of a record: CL-1, or the ``suspects:``/``weapons:``/``rooms:`` header
    lines (CL-12: one word a card; a list not given keeps the standard one).  An error is
    placed on the header line at fault (``Header.at``): a card listed twice at its second
    copy, naming where the first is."""
    lists: list[tuple[str, ...]] = []
    # card -> (its list's key, the list as written, where the card stands in it)
    where: list[tuple[str, str | None, int]] = []
    for key, std in (("suspects", SUSPECTS), ("weapons", WEAPONS), ("rooms", ROOMS)):
        raw = header.get(key)
        if raw is None:
            lists.append(std)
            where += [(key, None, 0)] * len(std)
            continue
        words = _custom(key, raw, header.line_of(key))
        lists.append(tuple(w for w, _ in words))
        where += [(key, raw, at) for _, at in words]
    deck = Deck(*lists)
    seen: dict[str, int] = {}
    for i, c in enumerate(deck.cards):
        f = _fold(c)
        if f in seen:
            j = seen[f]
            key1, raw1, _ = where[j]
            key, raw, at = where[i]
            first = deck.cards[j]
            line1 = header.line_of(key1)
            if raw1 is None:
                there = f"among the standard {key1}, CL-1"
            elif key1 == key:
                there = f"earlier in '{key}:'"
            else:
                there = f"in '{key1}:'" + (f" on line {line1}" if line1 else "")
            raise NotationError(f"a card is listed twice (first as {first} {there})", text=c,
                                rule="CL-12", line=header.line_of(key), within=raw,
                                offset=at)
        seen[f] = i
    return deck


def _card_word(word: str) -> bool:
    """A letter of any script, then letters, digits 0-9, ``_``, ``-`` and (after a letter)
    combining marks: ``Küche``, ``Señora``, ``Col_Mustard``, ``厨房``."""
    return word[:1].isalpha() and all(
        ch.isalpha() or ch in "_-" or (ch.isascii() and ch.isdigit())
        or unicodedata.category(ch).startswith("M") for ch in word[1:])


def _custom(key: str, raw: str, line: int | None = None) -> list[tuple[str, int]]:
    """The cards of header line ``key: raw`` (on record line ``line``, where known), each
    with where it stands in ``raw``."""
    words = [(m.group(), m.start()) for m in re.finditer(r"[^\s,]+", raw)]
    if not words:                   # quoted as the header line, the column after it
        raise NotationError(f"'{key}:' lists no card", text=f"{key}:", rule="CL-12",
                            line=line, within=f"{key}:", offset=len(key) + 1)
    for w, at in words:
        if not _card_word(w):
            raise NotationError("a card is one word of letters (of any script), digits 0-9, "
                                "'_' or '-', starting with a letter", text=w, rule="CL-12",
                                line=line, within=raw, offset=at)
        if w.lower() in ("nobody", "passes", "shows", "right", "wrong", "envelope", "faceup"):
            raise NotationError("a card may not be called as a keyword", text=w, rule="CL-12",
                                line=line, within=raw, offset=at)
    return words


@dataclass(frozen=True, repr=False)
class ClueOptions(Options):
    """The variant in force."""

    GAME = "Clue"
    SPECS = (
        Option("refute", "refute", ("first", "all"), "CL-13",
               "first: the first player who can refute shows (CL-6); all: every other "
               "player who can shows one card, in seat order (a house rule)"),
        Option("leftovers", "leftovers", ("dealt", "face-up"), "CL-11",
               "dealt: uneven hands (CL-2); face-up: equal hands, the rest face up"),
        Option("last-player", "last_player", ("wins", "plays-on"), "A3",
               "wins: when all but one player are out, that player wins (CL-9); plays-on: "
               "that player is not declared the winner and plays on, and a wrong "
               "accusation of theirs ends the game with no winner"),
    )

    refute: str = "first"
    leftovers: str = "dealt"
    last_player: str = "wins"


def seating_from(players, dealer) -> list[str]:
    """The players clockwise from the dealer's left (CL-2, CL-3; no dealer: the last
    listed player deals, so the first listed plays first)."""
    players = list(players)
    if dealer is None or dealer not in players:
        return players
    i = players.index(dealer)
    return players[i + 1:] + players[:i + 1]


def hand_sizes(players, dealer, opts: ClueOptions, deck: Deck) -> tuple[dict[str, int], int]:
    """(player -> hand size, face-up leftovers): CL-2 (the first dealt get one more) or
    CL-11 (equal hands, the rest face up)."""
    n = len(players)
    rest = len(deck.cards) - 3
    if n < 2:
        raise RuleError(f"Clue needs at least 2 players, not {n}", text=str(n), rule="CL-1")
    if rest < n:
        raise RuleError(f"{rest} cards outside the case file cannot be dealt to {n} players",
                        text=str(n), rule="CL-2")
    base, extra = divmod(rest, n)
    order = seating_from(players, dealer)
    if opts.leftovers == "face-up":
        return {p: base for p in order}, extra
    return {p: base + (1 if i < extra else 0) for i, p in enumerate(order)}, 0


def check_deck_header(header: Header, opts: ClueOptions) -> Deck:
    deck = deck_of(header)
    n, rest = len(header.players), len(deck.cards) - 3
    most = 6 if deck == STANDARD else rest
    if not 3 <= n <= most:      # CL-1; CL-12: as many as get a card (large edition: 10)
        if deck == STANDARD:
            msg = f"Clue is played by 3 to {most} players, not {n}"
        elif rest < 3:
            msg = (f"these card lists leave {rest} card{'' if rest == 1 else 's'} outside the "
                   "case file: too few for any game, as Clue is played by 3 players or more, "
                   "each dealt a card at least")
        else:
            msg = (f"Clue is played by {3 if most == 3 else f'3 to {most}'} players with these "
                   f"{rest} cards outside the case file, not {n}")
        raise RuleError(msg, text=" ".join(header.players),
                        rule="CL-1" if deck == STANDARD else "CL-1, CL-12")
    hand_sizes(header.players, header.dealer, opts, deck)
    return deck
