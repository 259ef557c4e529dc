"""Literature record statements (record-format.md, "Literature events").

Each event is a frozen dataclass whose ``repr`` is its canonical record notation.

>>> from solver.literature.options import LiteratureOptions
>>> from solver.literature.table import Table
>>> t = Table.build(("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"), LiteratureOptions())
>>> print(parse_event("ana holds: 2h 3h", t))         # names in any case (record-format.md)
Ana holds: 2H 3H
>>> print(parse_event("Cleo claims lowH: ANA 2H 3H 4H 6H 7H, cleo 5H", t))
Cleo claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H
>>> str(parse_event("Ana asks Ben 9c: No", t)), str(parse_event("Ana holds: 2h, 3H  th", t))
('Ana asks Ben 9C: no', 'Ana holds: 2H 3H 10H')
>>> print(parse_event("Cleo claims lowH: Ana 2H 3H 4H 6H 7H, Cleo 5H", t))
Cleo claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H
>>> print(parse_event("shown 2H-7H: Ana 2H 3H 4H 6H 7H, Ben 5H", t))
shown 2H-7H: Ana 2H 3H 4H 6H 7H, Ben 5H
>>> print(parse_event("Ana passes turn to Eli", t))
Ana passes turn to Eli
>>> [str(parse_event(x, t)) for x in ("Ben asks Cleo ?: Yes", "Ben asks Cleo 5h: ?", "Ben: ?",
...                                   "TURN: Cleo", "Ben has 1 card")]
['Ben asks Cleo ?: yes', 'Ben asks Cleo 5H: ?', 'Ben: ?', 'turn: Cleo', 'Ben has 1 card']
"""
from __future__ import annotations

from solver.games import Event, TurnIs, Unseen
# The statements every game takes (solver.games), as they read here:
# * Unseen:
#   ``Ben: ?``: one question by Ben not seen at all: any legal question to any opponent,
#   with either answer (never a claim: claims are always recorded).
# * TurnIs:
#   ``turn: Cleo``: it is Cleo's turn now (re-synchronises after unseen events).

import re
from dataclasses import dataclass

from solver.records import name_in, named_groups, player_of
from solver.cards import Card, copy_at, format_cards, split_tokens
from solver.errors import NotationError, RuleError

Alloc = tuple[tuple[str, tuple[Card, ...]], ...]


def _alloc_repr(alloc: Alloc) -> str:
    return ", ".join(f"{p} {format_cards(cs)}" for p, cs in alloc)


@dataclass(frozen=True)
class Holds(Event):
    """``Ana holds: ...``: the whole hand of a player at this moment (known to the recorder)."""
    setup = True

    player: str
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.player} holds: {format_cards(self.cards)}".rstrip()


@dataclass(frozen=True)
class Ask(Event):
    """``Ana asks Ben 9C: yes|no`` (LIT-6..LIT-8); ``surrendered`` under V11."""

    asker: str
    target: str
    card: Card
    answer: str  # yes | no | surrendered

    def __str__(self) -> str:
        return f"{self.asker} asks {self.target} {self.card!r}: {self.answer}"


@dataclass(frozen=True)
class Claim(Event):
    """``Cleo claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H``: a claim as stated (LIT-10, LIT-11)."""

    claimant: str
    half: str
    alloc: Alloc

    def __str__(self) -> str:
        return f"{self.claimant} claims {self.half}: {_alloc_repr(self.alloc)}"

    def holder_of(self) -> dict[Card, list[str]]:
        out: dict[Card, list[str]] = {}
        for p, cs in self.alloc:
            for c in cs:
                out.setdefault(c, []).append(p)
        return out


@dataclass(frozen=True)
class Shown(Event):
    """``shown 2H-7H: ...``: who actually showed each card of the claimed half-suit (A5)."""
    joins = (Claim,)

    half: str
    alloc: Alloc

    def __str__(self) -> str:
        return f"shown {self.half}: {_alloc_repr(self.alloc)}"


Claim.held_for = Shown     # a claim refused as written waits for its shown line
Claim.held_name = "claim"
Claim.held_advice = "if the cards shown differed, the 'shown' line comes next"
# what the shown line may cure: a card placed where the record has it elsewhere (LIT-1,
# LIT-7) or more cards than a player holds (O1); not a claim naming an opponent, a card
# twice or out of its half-suit (LIT-11, LIT-2), which no cards shown change
Claim.held_rules = ("LIT-1", "LIT-7", "O1")


@dataclass(frozen=True)
class PassTurn(Event):
    """``Ana passes turn to Eli``: LIT-14 (empty hand) or LIT-15(b) (empty team)."""

    player: str
    to: str

    def __str__(self) -> str:
        return f"{self.player} passes turn to {self.to}"


@dataclass(frozen=True)
class PassClaim(Event):
    """``Ana passes``: declining a forced claim (V14 srinivasan-forced-claims)."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} passes"


@dataclass(frozen=True)
class Challenge(Event):
    """``Ana challenges Ben 9H-AH``: V14 srinivasan-challenges; Ben must claim it next."""

    challenger: str
    target: str
    half: str

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.target} {self.half}"


@dataclass(frozen=True)
class UnheardCard(Event):
    """``Ben asks Cleo ?: yes|no``: a question whose card the recorder did not hear.

    ``yes``: some card c that Cleo held, of a half-suit Ben held a card of (and, unless
    V12, not held by Ben), moved to Ben, who asks again; ``no``: Cleo held no copy of some
    such card c, and the turn passed to Cleo (LIT-6..LIT-8)."""

    asker: str
    target: str
    answer: str  # yes | no

    def __str__(self) -> str:
        return f"{self.asker} asks {self.target} ?: {self.answer}"


@dataclass(frozen=True)
class UnheardAnswer(Event):
    """``Ben asks Cleo 5H: ?``: a legal question whose answer the recorder did not hear;
    who asks next is then unknown (LIT-7, LIT-8)."""

    asker: str
    target: str
    card: Card

    def __str__(self) -> str:
        return f"{self.asker} asks {self.target} {self.card!r}: ?"


@dataclass(frozen=True)
class HandCount(Event):
    """``Ben has 5 cards``: a hand count, which anyone may ask at any time (LIT-13(b), O1)."""

    player: str
    count: int

    def __str__(self) -> str:
        return f"{self.player} has {self.count} card" + ("" if self.count == 1 else "s")


#: the statements that leave part of what happened unknown
UNSEEN = (UnheardCard, UnheardAnswer, Unseen)

_UNSEEN = re.compile(r"^(\S+)\s*:\s*\?$")
_TURN = re.compile(r"^turn\s*:\s*(\S+)$", re.I)
_COUNT = re.compile(r"^(\S+)\s+has\s+(\d+)\s+cards?$", re.I)
_ASK = re.compile(r"^(\S+)\s+asks\s+(\S+)\s+(\S+)\s*:\s*(\S+)$", re.I)
_HOLDS = re.compile(r"^(\S+)\s+holds\s*:\s*(.*)$", re.I)
_CLAIM = re.compile(r"^(\S+)\s+claims\s+(\S+)\s*:\s*(.*)$", re.I)
_SHOWN = re.compile(r"^shown\s+(\S+)\s*:\s*(.*)$", re.I)
_PASS_TURN = re.compile(r"^(\S+)\s+pass(?:es)?\s+(?:the\s+)?turn\s+to\s+(\S+)$", re.I)
_PASS = re.compile(r"^(\S+)\s+pass(?:es)?(?:\s+claim)?$", re.I)
_CHALLENGE = re.compile(r"^(\S+)\s+challenges\s+(\S+)\s+(\S+)$", re.I)
ANSWERS = {"yes": "yes", "y": "yes", "no": "no", "n": "no", "surrendered": "surrendered",
           "surrender": "surrendered"}


def parse_alloc(body: str, table, half, text: str) -> Alloc:
    """``Ana 2H 3H, Cleo 5H`` (commas optional): a player name starts each group."""
    groups: list[tuple[str, list[Card]]] = []
    expected = "an allocation to start with a player name (players: " \
        + " ".join(table.players) + ")"
    for p, toks in named_groups(body, lambda t: _starts_group(t, table), expected=expected):
        groups.append((player_of(p, table.players), []))
        for tok in toks:
            try:
                c = table.parse_card(tok)
            except NotationError as e:
                if e.rule == "V8":
                    raise
                raise NotationError("expected a card or a player name", text=tok) from None
            groups[-1][1].append(c)
    seen: list[Card] = []
    for p, cs in groups:
        if not cs:
            raise NotationError(f"no cards given for {p}", text=p)
        for c in cs:
            if c not in half.cards:
                raise RuleError(f"{c!r} is not in half-suit {half.name}", text=repr(c),
                                rule="LIT-2")
            seen.append(c)
    want = sorted(half.cards)
    if sorted(seen) != want:
        missing = [c for c in set(want) if seen.count(c) < want.count(c)]
        extra = [c for c in set(seen) if seen.count(c) > want.count(c)]
        what = []
        if missing:
            what.append("missing " + format_cards(sorted(missing)))
        if extra:
            what.append("given twice " + format_cards(sorted(extra)))
        raise RuleError(f"a claim places each of the {len(want)} cards of {half.name} once ("
                        + "; ".join(what) + ")", text=text, rule="LIT-11")
    return tuple((p, tuple(cs)) for p, cs in groups)


def _starts_group(tok: str, table) -> bool:
    """Whether ``tok`` of an allocation is a player's name (in any case; a token that is
    also a card, ``th`` for a player ``Th``, is a name only as ``players:`` writes it)."""
    if tok in table.players:
        return True
    if name_in(tok, table.players) is None:
        return False
    try:
        table.parse_card(tok)
    except NotationError:
        return True
    return False


def parse_event(text: str, table):
    """Parse one statement against the table (players, deck, half-suits)."""
    t = text.strip()
    m = _ASK.match(t)
    if m:
        a, b = player_of(m.group(1), table.players), player_of(m.group(2), table.players)
        if m.group(3) == "?":
            ans = ANSWERS.get(m.group(4).lower())
            if ans not in ("yes", "no"):
                raise NotationError("a question whose card was not heard is answered yes or no "
                                    "(write 'Ben: ?' when nothing was seen)", text=m.group(4))
            return UnheardCard(a, b, ans)
        card = table.card(m.group(3))
        if m.group(4) == "?":
            return UnheardAnswer(a, b, card)
        ans = ANSWERS.get(m.group(4).lower())
        if ans is None:
            raise NotationError("the answer is yes or no (surrendered under "
                                "own-card-ask=surrender)", text=m.group(4))
        if ans == "surrendered" and table.options.own_card_ask != "surrender":
            raise RuleError("'surrendered' needs the variant own-card-ask=surrender",
                            text=m.group(4), rule="V11")
        return Ask(a, b, card, ans)
    m = _UNSEEN.match(t)
    if m:
        return Unseen(player_of(m.group(1), table.players))
    m = _TURN.match(t)
    if m:
        return TurnIs(player_of(m.group(1), table.players))
    m = _COUNT.match(t)
    if m:
        return HandCount(player_of(m.group(1), table.players), int(m.group(2)))
    m = _HOLDS.match(t)
    if m:
        p = player_of(m.group(1), table.players)
        cards = []
        for tok in split_tokens(m.group(2)):
            cards.append(table.card(tok))
        for c in set(cards):
            if cards.count(c) > len(table.card_keys[c]):     # the first copy too many, as typed
                at, typed = copy_at(m.group(2), cards, c, len(table.card_keys[c]) + 1)
                raise RuleError(f"{c!r} is listed more often than the deck has it", text=typed,
                                rule="LIT-1", within=m.group(2) if at is not None else None,
                                offset=at)
        return Holds(p, tuple(sorted(cards)))
    m = _CLAIM.match(t)
    if m:
        p = player_of(m.group(1), table.players)
        half = table.half(m.group(2))
        return Claim(p, half.name, parse_alloc(m.group(3), table, half, t))
    m = _SHOWN.match(t)
    if m:
        half = table.half(m.group(1))
        return Shown(half.name, parse_alloc(m.group(2), table, half, t))
    m = _PASS_TURN.match(t)
    if m:
        return PassTurn(player_of(m.group(1), table.players), player_of(m.group(2), table.players))
    m = _PASS.match(t)
    if m and name_in(m.group(1), table.players) is not None:
        if not table.options.srinivasan_forced_claims:
            raise RuleError("passing a forced claim needs srinivasan-forced-claims", text=t,
                            rule="V14")
        return PassClaim(player_of(m.group(1), table.players))
    m = _CHALLENGE.match(t)
    if m:
        if not table.options.srinivasan_challenges:
            raise RuleError("challenges need the variant srinivasan-challenges", text=t,
                            rule="V14")
        a, b = player_of(m.group(1), table.players), player_of(m.group(2), table.players)
        return Challenge(a, b, table.half(m.group(3)).name)
    asker = table.players[0]                    # the example asks across the table
    other = table.teams[1 - table.team_index(asker)][0]
    raise NotationError(f"expected a statement such as '{asker} asks {other} 9C: no' "
                        "(players: " + " ".join(table.players) + ")", text=t)
