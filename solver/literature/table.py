"""Literature: the table (deck, half-suits, teams, dealer, deal sizes) from the options.

>>> t = Table.build(("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"), LiteratureOptions())
>>> [h.name for h in t.halves][:3], t.sizes["Ana"], t.team_name("Ben"), t.teams
(['2S-7S', '9S-AS', '2H-7H'], 8, 'Ben', (('Ana', 'Cleo', 'Eli'), ('Ben', 'Dev', 'Fay')))
>>> t.half("lowh").name, t.half("9h-ah").cards[-1]
('2H-7H', AH)
>>> Table.build(("A", "B", "C", "D", "E", "F"), LiteratureOptions(removed_rank=7)).halves[2]
AH-6H
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Hashable, cast

from solver.cards import JOKER, SUITS, Card, rank_name
from solver.errors import NotationError, RuleError
from solver.model.copies import copy_keys
from solver.records import name_in
from solver.literature.options import PLAYER_COUNTS, REMOVABLE, LiteratureOptions


@dataclass(frozen=True, order=False)
class ColouredJoker(Card):
    """Under the house rule ``jokers=distinct``: the red (``JkR``) or black (``JkB``) joker,
    two different cards (``Jk`` stays for the identical pair of V8).

    >>> JKR, str(JKB), JKR == JKB, JKR.is_joker, sorted([JKB, JKR])
    (JkR, 'JkB', False, True, [JkR, JkB])
    """

    colour: str = "R"

    def __repr__(self) -> str:
        return f"Jk{self.colour}"

    __str__ = __repr__

    def sort_key(self) -> tuple:
        return (9, "RB".index(self.colour))


JKR = ColouredJoker(0, "", "R")
JKB = ColouredJoker(0, "", "B")
_COLOURED = {"jkr": JKR, "jkb": JKB, "redjoker": JKR, "blackjoker": JKB}


@dataclass(frozen=True)
class HalfSuit:
    """A half-suit (LIT-2): its canonical name (its range, ``2H-7H``), cards and value."""

    name: str
    cards: tuple[Card, ...]      # card names; a joker appears once per copy
    value: int = 1
    suit: str = ""
    high: bool = False

    def __repr__(self) -> str:
        return self.name

    @property
    def size(self) -> int:
        return len(self.cards)


def _halves(opts: LiteratureOptions) -> list[HalfSuit]:
    out = []
    r = opts.removed_rank
    ace_high = REMOVABLE[r]
    if opts.deck == "52-seven-card-highs":       # V9: low 2-7, high 8-A (7 cards)
        low_ranks, high_ranks = [2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 1]
    else:
        order = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1] if ace_high else list(range(1, 14))
        order = [x for x in order if x != r]
        low_ranks, high_ranks = order[:6], order[6:]
    hv = opts.high_half_value
    for s in SUITS:
        lo = tuple(Card(x, s) for x in low_ranks)
        hi = tuple(Card(x, s) for x in high_ranks)
        out.append(HalfSuit(f"{lo[0]!r}-{lo[-1]!r}", lo, 1, s, False))
        out.append(HalfSuit(f"{hi[0]!r}-{hi[-1]!r}", hi, hv, s, True))
    if opts.jokers:                               # V8: the removed rank and 2 jokers
        jokers = (JKR, JKB) if opts.joker_kind == "distinct" else (JOKER,) * opts.jokers
        cards = tuple(Card(r, s) for s in SUITS) + jokers
        out.append(HalfSuit(f"{rank_name(r)}*", cards, 1, "", False))
    return out


@dataclass(frozen=True)
class Table:
    """Everything fixed before the first statement: seats, teams, deck, deal sizes."""

    players: tuple[str, ...]
    options: LiteratureOptions
    teams: tuple[tuple[str, ...], tuple[str, ...]]
    dealer: str
    first: str
    halves: tuple[HalfSuit, ...]
    sizes: dict = field(hash=False, compare=False)
    keys: tuple = ()          # the physical cards (solver.model.copies)
    key_card: dict = field(default_factory=dict, hash=False, compare=False)
    card_keys: dict = field(default_factory=dict, hash=False, compare=False)
    half_of: dict = field(default_factory=dict, hash=False, compare=False)

    @classmethod
    def build(cls, players, options: LiteratureOptions, teams_text: str | None = None,
              dealer: str | None = None) -> "Table":
        players = tuple(players)
        n = len(players)
        if n not in PLAYER_COUNTS:
            raise RuleError("Literature is played by 4, 6, 8, 12 or 16 players in two equal "
                            "teams", text=" ".join(players), rule="LIT-3, V2, V3, V4")
        if options.players is not None and options.players != n:
            raise RuleError(f"the variant says players={options.players} but {n} are listed",
                            text=" ".join(players), rule="V2, V3, V4")
        if teams_text:
            parts = [p.split() for p in teams_text.replace(",", " ").split("/")]
            if len(parts) != 2:
                raise NotationError("teams are written 'Ana Cleo Eli / Ben Dev Fay'",
                                    text=teams_text, rule="LIT-3")
            for p in parts:
                for i, name in enumerate(p):
                    found = name_in(name, players)    # any case; kept as players: spells it
                    if found is None:
                        raise NotationError("a team member must be one of the players ("
                                            + " ".join(players) + ")", text=name, rule="LIT-3")
                    p[i] = found
            flat = parts[0] + parts[1]
            if sorted(flat) != sorted(players) or len(parts[0]) != len(parts[1]):
                raise RuleError("the teams must split the players into two equal halves",
                                text=teams_text, rule="LIT-3")
            teams = (tuple(parts[0]), tuple(parts[1]))
        else:  # LIT-3: seats alternate
            teams = (players[0::2], players[1::2])
        # LIT-5: the dealer asks first; V1 moves the first turn to a neighbour.  `players:`
        # lists the first to act first, so the dealer is derived unless given.
        if dealer is None:
            dealer = {"dealer": players[0], "dealer-left": players[-1],
                      "dealer-right": players[1 % n]}[options.first_asker]
        d = players.index(dealer)
        first = {"dealer": dealer, "dealer-left": players[(d + 1) % n],
                 "dealer-right": players[(d - 1) % n]}[options.first_asker]
        halves = tuple(_halves(options))
        keys, key_card, card_keys, half_of = [], {}, {}, {}
        for h in halves:   # the physical cards: 'QD', the jokers Copy('Jk', 0), ...
            cards = {repr(c): c for c in h.cards}
            counts: Counter[Hashable] = Counter(map(repr, h.cards))
            # copy_keys keeps its keys: here the cards' names
            keyed = cast("dict[str, tuple]", copy_keys(counts, single="card"))
            for name, ks in keyed.items():
                c = cards[name]
                card_keys[c] = ks
                half_of[c] = h
                for k in ks:
                    keys.append(k)
                    key_card[k] = c
        # LIT-4 / A7: dealt singly from the dealer's left; the first players get any extra
        base, extra = divmod(len(keys), n)
        order = [players[(d + 1 + i) % n] for i in range(n)]
        sizes = {p: base + (1 if order.index(p) < extra else 0) for p in players}
        return cls(players, options, teams, dealer, first, halves, sizes, tuple(keys),
                   key_card, card_keys, half_of)

    # ----- helpers -----------------------------------------------------------------------
    def team_index(self, player: str) -> int:
        return 0 if player in self.teams[0] else 1

    def team_of(self, player: str) -> tuple[str, ...]:
        return self.teams[self.team_index(player)]

    def team_name(self, player_or_index) -> str:
        """A team is named by its first player (record-format.md)."""
        i = player_or_index if isinstance(player_or_index, int) else self.team_index(player_or_index)
        return self.teams[i][0]

    def opponents(self, a: str, b: str) -> bool:
        return self.team_index(a) != self.team_index(b)

    def half(self, text: str) -> HalfSuit:
        """A half-suit from its range (``2H-7H``), ``lowH``/``highH``, or ``8*`` (V8)."""
        t = text.strip()
        low = t.lower()
        for h in self.halves:
            if low == h.name.lower():
                return h
        if low[:3] in ("low",) or low[:4] == "high":
            word, s = (low[:3], low[3:]) if low.startswith("low") else (low[:4], low[4:])
            s = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(s, s.upper())
            for h in self.halves:
                if h.suit == s and h.high == (word == "high"):
                    return h
        if "-" in t:
            a, _, b = t.partition("-")
            ca: Card | None
            cb: Card | None
            try:
                ca, cb = Card.parse(a), Card.parse(b)
            except NotationError:
                ca = cb = None
            if ca is not None:
                for h in self.halves:
                    if h.cards[0] == ca and h.cards[-1] == cb:
                        return h
        if self.options.jokers and low in ("jokers", "ninth", f"{rank_name(self.options.removed_rank).lower()}x"):
            return self.halves[-1]
        raise NotationError("expected a half-suit: " + " ".join(h.name for h in self.halves)
                            + " (or lowH/highH)", text=text, rule="LIT-2")

    def parse_card(self, text: str) -> Card:
        """A card's notation; ``JkR``/``JkB`` under ``jokers=distinct`` (house rule), where a
        bare ``Jk`` does not say which joker."""
        low = text.strip().lower()
        if self.options.joker_kind == "distinct":
            if low in _COLOURED:
                return _COLOURED[low]
            c = Card.parse(text)
            if c.is_joker:
                raise NotationError("jokers=distinct: write JkR (red) or JkB (black)", text=text,
                                    rule="V8")
            return c
        if low in _COLOURED:
            raise NotationError("JkR and JkB need the house rule jokers=distinct (else Jk)",
                                text=text, rule="V8")
        return Card.parse(text)

    def card(self, text: str) -> Card:
        c = self.parse_card(text)
        if c not in self.card_keys:
            raise RuleError("this card is not in the deck" + (
                f" (the {rank_name(self.options.removed_rank)}s are removed)"
                if not c.is_joker else " (jokers only with deck=54-jokers)"),
                text=text, rule="LIT-1, V7, V8")
        return c


@lru_cache(maxsize=64)
def table_for(players: tuple[str, ...], variant: tuple[str, ...], teams: str | None,
              dealer: str | None) -> Table:
    return Table.build(players, LiteratureOptions.from_names(variant), teams, dealer)


def table_of(header) -> Table:
    """The table of a record header (cached)."""
    return table_for(tuple(header.players), tuple(header.variant), header.get("teams"),
                     header.dealer)
