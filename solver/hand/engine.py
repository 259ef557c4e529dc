"""Turn order, legality and the state after each statement of a Hand round record
(HR-4, HR-6, HR-18..HR-36, HR-40, HR-52..HR-59, A3..A6, A14).

A turn (HR-28) is a draw (``draws``/``takes``; none on the starter's first turn, HR-27,
A3), then melds, lay-offs and swaps in order, then the discard, at which the turn is checked
as a whole: the taken discard went into a new meld (HR-29), an initial meld reached the
minimum or the player went out (HR-19, HR-21), a provisional lay-off before the minimum or
onto a 2 + wild group was justified by going out or a one-card hand (HR-21, HR-26), a
swapped wild was used (HR-55), going out was allowed (HR-32, HR-33).  The round ends by going
out (HR-34), a redeal (HR-10) or the stock (HR-35, HR-57), and then only its ``round N: ...``
statement may follow, checked against what happened (HR-37, HR-38, HR-40, HR-59).
A refused statement's error quotes it and points at the token at fault (the card drawn,
taken, melded, laid off or discarded, the meld number, the count called, the winner or
penalty of the scoring statement); a rule about the statement as a whole points at its start.

Each hand is tracked as the cards known (dealt and seen, drawn and seen, taken from the
discard pile, wilds won by swaps) plus a number of unknown cards, so the same engine checks
a complete record and the recorder's own view of it (:func:`view_record`).

>>> from solver.records import parse_record
>>> rec = parse_record(EXAMPLE)
>>> s = play(rec)
>>> s.players["Ben"].count, s.players["Ben"].opened, s.stock, [t.text() for t in s.table]
(8, True, 60, ['6C 7C 8C', 'KS KH KD'])
>>> s.current, s.pile
('Ana', [8S, 3H, 9H])

The engine contract (docs/architecture.md): :class:`State` is the frozen public position of
a round (:meth:`RoundState.state`; :class:`RoundState` is the working state :func:`play`
builds, which the inference reads), ``run(record, upto)`` the state after the first
``upto`` statements of a round record, and ``verify_<action>``/``can_<action>`` for the
actions ``turn`` (the player acts now, HR-4), ``draw`` (from the stock), ``take`` (the top
discard) and ``play`` (a meld, lay-off, swap or discard, after the draw).  A scoresheet
record (one statement per deal) is checked by :func:`solver.hand.analysis.score_sheet`.

>>> st = run(rec)
>>> st.current, can_draw(st, "Ana"), can_play(st, "Ana"), can_draw(st, "Ben")
('Ana', True, False, False)
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from solver.cards import JOKER, SUITS, Card
from solver.errors import NotationError, RuleError, SleuthError
from solver.legality import can
from solver.hand.events import (BONUS_NAMES, Call, Discard, Draw, Holds, Indicator, LayOff,
                                Melds, RoundEvent, Swap, Take, TurnIs, Unseen, UnscoredEvent)
from solver.hand.melds import analyse_meld, layout_cards
from solver.hand.options import HandOptions
from solver.hand.regime import Regime, copies_in_play, make_regime, penalty, put_back
from solver.records import find_token

if TYPE_CHECKING:
    from solver.hand.table import TableMeld

HAND = 14  # HR-6; the starter gets one more
DECK = 106  # HR-2
#: the courses of a round with turns not seen that are followed one by one (above it, the
#: cards a player was known to hold before such a turn become unknown: a labelled estimate)
MAX_BRANCHES = 64


class _UnseenCard:
    """A discard the recorder did not see (``P: ?``), face down for the view: written ``?``."""

    def __repr__(self) -> str:
        return "?"

    def __reduce__(self):
        return "UNSEEN_CARD"


#: an unseen discard in the pile
UNSEEN_CARD = _UnseenCard()

EXAMPLE = """game: hand
players: Ana Ben Cleo
dealer: Ben
me: Ben
indicator 5S
Ben holds: 6C 7C KH KS KD QD JD 10D 2D 9H 3S 4D 5D 2H
Ana discards 8S
Cleo draws
Cleo discards 3H
Ben draws 8C
Ben melds 6C 7C 8C | KH KS KD
Ben discards 9H
"""


@dataclass
class PlayerState:
    """One hand: ``known`` cards and ``unknown`` many others; the round so far."""

    name: str
    known: Counter = field(default_factory=Counter)
    unknown: int = 0
    opened: bool = False          # made the initial meld (HR-18, HR-19)
    melded: bool = False          # has any meld on the table (HR-38 no-meld)
    turns: int = 0
    first_meld_turn: int | None = None
    added_to_others: bool = False  # put a card into another player's meld (HR-37, A14)
    failed_call: bool = False      # HR-33 with manual-calls
    dealt_known: bool = False

    @property
    def count(self) -> int:
        return sum(self.known.values()) + self.unknown

    def hand(self) -> list[Card]:
        """The known cards (the whole hand when ``unknown`` is 0)."""
        return sorted(self.known.elements(), key=repr)


@dataclass
class TableEntry:
    """A table meld: its owner, the meld as the rules read it (``meld``: a taken wild
    played as a natural ace stands there as that natural, A4) and the physical cards."""

    owner: str
    meld: TableMeld
    stand_in: tuple[Card, Card] | None = None   # (as read, physical) for a taken wild, A4

    @property
    def physical(self) -> list[Card]:
        """The cards on the table, in table order."""
        cards = list(self.meld.cards)
        if self.stand_in is not None:
            cards[cards.index(self.stand_in[0])] = self.stand_in[1]
        return cards

    def text(self) -> str:
        return " ".join(repr(c) for c in self.physical)


@dataclass
class Turn:
    player: str
    drew: bool = False
    taken: Card | None = None
    taken_from: str | None = None
    taken_placed: bool = False
    taken_laid_off: bool = False
    value: int = 0
    new_melds: list[int] = field(default_factory=list)
    needs_out: list[tuple[str, str]] = field(default_factory=list)   # (rule, why)
    needs_out_or_one: list[tuple[str, str]] = field(default_factory=list)
    swapped: int = 0               # wilds won by swaps not yet used (HR-55)
    opened_before: bool = False
    melded_before: bool = False


@dataclass
class RoundState:
    """The round after a prefix of its record."""

    players: dict[str, PlayerState]
    order: tuple[str, ...]
    dealer: str
    starter: str
    options: HandOptions
    regime: Regime | None = None
    indicator: Card | None = None
    stock: int = 0
    pile: list = field(default_factory=list)   # Card, or UNSEEN_CARD (a discard not seen)
    pile_from: list[str] = field(default_factory=list)
    table: list[TableEntry] = field(default_factory=list)
    current: str | None = None
    turn: Turn | None = None
    over: str | None = None          # None | "out" | "stock" | "redeal"
    winner: str | None = None
    kind: str | None = None          # partial | full-hand
    bonuses: tuple[str, ...] = ()
    last_initial: int | None = None  # HR-52, A13
    seen: Counter = field(default_factory=Counter)
    discards_made: int = 0
    scored: bool = False
    last_discarder: str | None = None
    call_open: str | None = None     # the player who may call now (after their discard)
    last_draw_emptied: bool = False
    turned: list[Card] = field(default_factory=list)   # put back into the stock (HR-7, HR-47)
    stock_draws: int = 0             # cards drawn from the stock so far
    stock_known: dict[int, Card] = field(default_factory=dict)  # draw number -> a put-back card
    # turns not seen (``P: ?``): this state is one course of the round, which card each such
    # turn discarded; ``weight`` counts the courses it stands for (the discard's copies held
    # times, for every card seen since the deal, its unseen copies then, and for one shown
    # from a hand's unknown cards, how many they were: see
    # :func:`play_branches`); ``branches`` (on the state :func:`play` returns) lists them all
    weight: int = 1
    branches: list = field(default_factory=list)
    lossy: bool = False              # known cards dropped at MAX_BRANCHES (an estimate)
    unseen_turns: int = 0
    # the recorder of the recorder's own (partial) record, ``me:`` (:func:`recorder_of`):
    # it plays its own turns, so none of them is a turn not seen
    recorder: str | None = None
    call_unheard: bool = False       # the open call follows a turn not seen: it may have been
    # where the record says it (set by :func:`play_branches`, else ``None``), for refusals
    # that name the line: the statement being applied, ``(line, text)``; the first
    # statement that makes the record a round record (:func:`is_round_record`); and where
    # things happened: ``indicator``, ``out``, ``stock`` (it ran out), ``meld:P`` (P's
    # first meld), ``added:P`` (P's first card put into another player's meld)
    at: tuple[int, str] | None = None
    anchor: tuple[int, str] | None = None
    marks: dict[str, tuple[int, str]] = field(default_factory=dict)

    @property
    def started(self) -> bool:
        return self.current is not None

    def state(self) -> "State":
        """The public position now, frozen."""
        return _state(self)

    def needed(self) -> int:
        n = self.options.initial_min
        if self.options.initial_must_exceed and self.last_initial is not None:
            n = max(n, self.last_initial + 1)
        return n

    def top(self):
        """The top discard: a card, :data:`UNSEEN_CARD` (``?``) when it was discarded in a
        turn not seen, ``None`` when the pile is empty."""
        return self.pile[-1] if self.pile else None

    def next_player(self, p: str) -> str:
        """Play passes to the right (HR-4): counter-clockwise in ``players:`` order."""
        i = self.order.index(p)
        return self.order[(i - 1) % len(self.order)]

    def table_melds(self) -> list:
        return [e.meld for e in self.table]

    def table_text(self) -> str | None:
        """The table melds as ``sleuth hand moves --table`` reads them (as the rules read
        them: a taken wild as its natural ace, A4), a run's wild declared (HR-25, A16)."""
        out = []
        for e in self.table:
            assert self.regime is not None   # melds on the table: the indicator is turned
            r = e.meld.reading
            stands = r.declare(e.meld.cards, self.regime) if r.kind == "run" else {}
            toks = [repr(c) + (f"={stands[i][0]!r}" if i in stands else "")
                    for i, c in enumerate(e.meld.cards)]
            out.append(" ".join(toks))
        return " | ".join(out) or None


# ----- the round's scores (HR-37..HR-40, HR-42, HR-59), partnerships and seats ---------

def multiplier(bonuses) -> int:
    """HR-59: discard factor (wild-discard 2, two-wilds 4) x colour 2 / suit 4.

    >>> multiplier(()), multiplier(("colour", "wild-discard")), multiplier(("two-wilds", "suit"))
    (1, 4, 16)
    """
    m = 1
    for b in bonuses:
        m *= {"wild-discard": 2, "two-wilds": 4, "colour": 2, "suit": 4}[b]
    return m


@dataclass(frozen=True)
class RoundScore:
    """Individual scores of a round (the winner's partner 0, A7) and the multiplier."""

    scores: dict
    multiplier: int


def check_bonuses(kind: str, bonuses, options: HandOptions, text: str = "") -> None:
    """Bonuses need a Full Hand and their options (HR-59), at most one of each pair; the
    error quotes ``text`` (the statement) pointing at the bonus at fault, else the bonuses."""
    if not bonuses:
        return
    quoted = text or " ".join(bonuses)

    def bad(msg: str, bonus: str) -> RuleError:
        return RuleError(msg, text=quoted, rule="HR-59",
                         offset=token_offset(text, bonus, after=":") if text else None)

    def later(a: str, b: str) -> str:
        return a if list(bonuses).index(a) > list(bonuses).index(b) else b

    if kind != "full-hand":
        raise bad("Egyptian bonuses apply to a Full Hand only", bonuses[0])
    for b in bonuses:
        if not getattr(options, BONUS_NAMES[b]):
            raise bad(f"the bonus {b} is not in this game's variant (bonus-{b})", b)
    if "wild-discard" in bonuses and "two-wilds" in bonuses:
        raise bad("wild-discard and two-wilds are two discard factors; take one",
                  later("wild-discard", "two-wilds"))
    if "colour" in bonuses and "suit" in bonuses:
        raise bad("the suit bonus replaces the colour bonus", later("colour", "suit"))


def round_scores(winner: str, kind: str, bonuses, penalties: dict, options: HandOptions,
                 partner: str | None = None) -> RoundScore:
    """Individual scores: ``penalties`` maps each opponent to their card points (``None``:
    no meld).  Partial (HR-37): winner -30, opponents 100 flat or their points (HR-38).
    Full Hand (HR-40, HR-59): winner -60M, opponents 200M flat or 2M x points.  In a team
    game (HR-42) the partner scores 0; a team's round score is the sum of its players'.

    >>> round_scores("Ana", "partial", (), {"Ben": 7, "Cleo": None}, HandOptions()).scores
    {'Ana': -30, 'Ben': 7, 'Cleo': 100}
    >>> round_scores("Ana", "full-hand", ("two-wilds", "suit"), {"Ben": 10, "Cleo": None},
    ...              HandOptions(bonus_two_wilds=True, bonus_suit=True)).scores
    {'Ana': -960, 'Ben': 320, 'Cleo': 3200}
    """
    check_bonuses(kind, tuple(bonuses), options)
    m = multiplier(bonuses)
    full = kind == "full-hand"
    scores = {} if kind == "stock" else {winner: -60 * m if full else -30}
    if partner is not None:
        scores[partner] = 0
    for p, pts in penalties.items():
        if pts is None:
            scores[p] = 200 * m if full else 100
        else:
            scores[p] = 2 * m * pts if full else pts
    return RoundScore(scores, m)


# ------------------------------------------------------------------------------ the sheet

def team_pairs(header, options: HandOptions) -> list[tuple[str, str]] | None:
    """The partnerships (HR-1, HR-42): ``teams: Ana Cleo / Ben Dev`` or the ``teams`` option
    (partners sit opposite: 1st + 3rd, 2nd + 4th player)."""
    spec = header.get("teams")
    players = header.players
    if spec is None and not options.teams:
        return None
    if len(players) != 4:
        raise RuleError(f"team play is for 4 players in two partnerships, not {len(players)}",
                        text=" ".join(players), rule="HR-1")
    opposite = [(players[0], players[2]), (players[1], players[3])]
    if spec is None:
        return opposite
    sides = [tuple(s.split()) for s in spec.split("/")]
    if len(sides) != 2 or any(len(s) != 2 for s in sides) or \
            sorted(p for s in sides for p in s) != sorted(players):
        raise NotationError("expected 'teams: <two players> / <the other two>'", text=spec)
    for s in sides:
        if s not in opposite and s[::-1] not in opposite:
            raise RuleError("partners sit opposite each other (1st with 3rd, 2nd with 4th "
                            "in the players: line)", text=spec, rule="HR-1")
    return [tuple(s) for s in sides]


def first_dealer(header) -> str:
    """The ``dealer:`` header, else the player whose right-hand neighbour (the first to act,
    HR-6, HR-27) is the first listed: the second listed (``players:`` is clockwise)."""
    return header.dealer or header.players[1 % len(header.players)]


def to_right(players, p: str, k: int = 1) -> str:
    """The player ``k`` seats to the right of ``p`` (counter-clockwise, HR-4)."""
    return players[(players.index(p) - k) % len(players)]


def token_offset(text: str, token: str | None, *, last: bool = False, after: str | None = None,
                 seg: int | None = None) -> int | None:
    """Where statement ``text`` writes ``token`` (in any spelling): after the first
    ``after`` when given, in its meld ``seg`` (``|``-separated) when given, the first
    (``last``: the last) occurrence; ``None`` when absent or at the start (the column is
    then the statement's).

    >>> token_offset("Ana melds 9H 9C 9D | 9H 9S 9C", "9H", seg=1)
    21
    >>> token_offset("round 1 dealer Ana: Ana out partial; Ben 5", "Ana", after=":")
    20
    """
    if not token or not text:
        return None
    start = 0
    if after is not None and after in text:
        start = text.index(after) + len(after)
    part = text[start:]
    if seg is not None:
        parts = part.split("|")
        if seg < len(parts):
            start += sum(len(q) + 1 for q in parts[:seg])
            part = parts[seg]
    i = find_token(part, token, last=last)
    return start + i if i >= 0 and start + i > 0 else None


def penalty_offset(text: str, player: str) -> int | None:
    """Where a scoring statement ``text`` writes ``player``'s penalty (after the name)."""
    i = token_offset(text, player, after=";")
    if i is None:
        return None
    j = i + len(player)
    while j < len(text) and text[j].isspace():
        j += 1
    return j if j < len(text) else i


def _fail(msg: str, rule: str, text: str = "", at: str | None = None, *, last: bool = False,
          after: str | None = None, seg: int | None = None,
          offset: int | None = None) -> RuleError:
    """The error of statement ``text``, its column on token ``at`` (:func:`token_offset`) or
    at ``offset``, else on the statement's start."""
    if offset is None:
        offset = token_offset(text, at, last=last, after=after, seg=seg)
    return RuleError(msg, text=text, rule=rule, offset=offset)


def _mark(s: RoundState, key: str) -> None:
    """Note where ``key`` happened (:attr:`RoundState.marks`): the statement being applied,
    when the record's lines are known; the first time only."""
    if s.at is not None:
        s.marks.setdefault(key, s.at)


def _where(s: RoundState, key: str) -> str:
    """`` (line 12: 'Ben discards 9C')``: where ``key`` happened, or ``""`` if not known."""
    m = s.marks.get(key)
    return f" (line {m[0]}: '{m[1]}')" if m else ""


def _not_out(s: RoundState, ev) -> tuple[str, str]:
    """Why round line ``ev`` (naming who went out) is refused in a round that nobody went
    out of, in the record's terms, and the rule: in a round record the round line ends the
    turns recorded since the line that made it one (:attr:`RoundState.anchor`)."""
    who, a = ev.winner, s.anchor
    sheet = ("a scoresheet (round lines only) has no indicator line"
             if a is not None and a[1].split()[0].lower() == "indicator"
             else "a scoresheet has round lines only")
    if s.over == "stock":
        how = (f"'round {ev.number}: stock; <every player's penalty>' (HR-57)"
               if s.options.stock_end == "penalties" else f"'round {ev.number}: unscored stock'")
        return (f"{who} has not gone out: the stock ran out{_where(s, 'stock')}, which ends "
                f"the round with nobody out (HR-35); write {how}"), "HR-35"
    since = f"'{a[1]}' (line {a[0]})" if a is not None else None
    if a is not None and s.at is not None and a[0] > s.at[0]:
        return (f"{who} has not gone out: this round line comes before {since}, which makes "
                "this a round record, played turn by turn, where the round line comes last "
                f"and the round ends when a player goes out (HR-34); {sheet}"), "HR-34"
    if not s.started:
        head = (f"no turn is recorded since {since}" if since else "no turn is recorded") \
            + f", so {who} has not gone out"
    else:
        head = f"{who} has not gone out in the turns recorded" + (
            f" since {since}" if since else "")
    return (f"{head}: in a round record the round ends when a player goes out (HR-34); "
            f"{sheet}"), "HR-34"


def _verb(text: str) -> str | None:
    """The word of a turn statement that says what it does (``draws``, ``melds``...)."""
    words = text.split()
    return words[1] if len(words) > 1 else None


def start(header, options: HandOptions | None = None) -> RoundState:
    options = options or HandOptions.of(header)
    order = tuple(header.players)
    dealer = first_dealer(header)
    starter = order[(order.index(dealer) - 1) % len(order)]   # dealer's right (HR-6)
    players = {p: PlayerState(p, unknown=HAND + (p == starter)) for p in order}
    jokers = 0 if options.wild_mode == "no-jokers" else 2
    stock = DECK - (2 - jokers) - HAND * len(order) - 1 - (options.wild_mode != "jokers-only")
    s = RoundState(players, order, dealer, starter, options, stock=stock)
    if options.wild_mode == "jokers-only":
        s.regime = make_regime(None, options)
    return s


def in_play(s: RoundState, card: Card) -> int:
    """Copies of ``card`` in hands, stock, discards and on the table this round: two packs
    (HR-2), no jokers under ``no-jokers`` (HR-46), less the indicator's copy face up beside
    the stock (A1; a round has only the two physical copies, whatever
    ``indicator-in-play`` lets a meld check accept)."""
    if s.regime is None:          # only a joker turned up and put back so far (HR-7)
        return copies_in_play(card, s.options)
    return min(s.regime.copies(card, s.options), 2 - (card == s.indicator))


def put_back_draws(turned, stock: int) -> dict[int, Card]:
    """Which stock draw (1 = the first card drawn) takes each card turned up for the
    indicator and put back (HR-7, HR-47), for a stock of ``stock`` cards after the indicator.
    A2: each goes in at position floor(n/2) from the top of the ``n`` cards left after it
    was turned (``n`` = ``stock``: the indicator is still to come off the top), so the last
    one put back is draw ``stock // 2`` and each earlier one a draw before it (every
    turn after it took a card off the top).

    >>> put_back_draws([JOKER], 62), put_back_draws([JOKER, JOKER], 61)
    ({31: Jk}, {29: Jk, 30: Jk})
    """
    k = len(turned)
    return {stock // 2 - (k - i): c for i, c in enumerate(turned, 1)}


def _reveal(s: RoundState, cards) -> None:
    """Count newly seen physical cards; more than the copies in play is HR-2."""
    for c in cards:
        limit = in_play(s, c)
        s.weight *= max(limit - s.seen[c], 1)    # the copies it may be (play_branches)
        s.seen[c] += 1
        if s.seen[c] > limit:
            raise _fail(f"{c!r} seen {s.seen[c]} times; only {limit} in play"
                        + (" (one copy is the indicator, A1)" if c == s.indicator else "")
                        + (" (turned up at the deal and put into the stock, HR-7)"
                           if c in s.turned else ""),
                        "HR-2", repr(c))


def _remove(s: RoundState, p: PlayerState, cards, text: str, seg: int | None = None) -> None:
    """Take ``cards`` out of ``p``'s hand: from the known cards, else from the unknown (a
    card not there: the error points at it, in meld ``seg`` of the statement if given)."""
    for c in cards:
        if p.known[c] > 0:
            p.known[c] -= 1
            if not p.known[c]:
                del p.known[c]
        elif p.unknown > 0:
            # any of the hand's unknown cards may be it: a course whose turns not seen
            # left the hand fewer of them stands for fewer deals (play_branches)
            s.weight *= p.unknown
            p.unknown -= 1
            _reveal(s, [c])
        else:
            raise _fail(f"{p.name} does not hold {c!r} (hand: "
                        f"{' '.join(map(repr, p.hand())) or 'empty'})", "HR-28", text,
                        repr(c), seg=seg, after=_verb(text) if seg is None else None)


def _natural_stand_in(card: Card, regime: Regime) -> list[Card]:
    """Cards that read as the natural ace(s) a taken wild may be (HR-31, A4)."""
    suits = SUITS if card.is_joker else (card.suit,)
    out = []
    for s in suits:
        ace = Card(1, s)
        if not regime.is_wild(ace):
            out.append(ace)
        elif regime.joker_as == ace:
            out.append(JOKER)          # regime N: a joker is that natural ace (HR-8)
    return out


def _taken_wild_meld(cards: list[Card], declared: dict, card: Card, s: RoundState,
                     text: str, seg: int | None = None):
    """Judge a new meld holding a taken wild (HR-31, HR-54, A4, A10): the report and the
    cards as the rules read them (the stand-in natural ace for ``taken-wild=natural``)."""
    o, regime = s.options, s.regime
    assert regime is not None   # a turn is played: the indicator is turned (HR-7)
    mode = o.discarded_wild
    if mode == "never":
        raise _fail("a discarded wild may not be taken (discarded-wild=never)", "HR-54", text,
                    repr(card), seg=seg)
    i = cards.index(card)
    if mode == "free":
        return analyse_meld(cards, regime, o, declared), cards
    aces = [Card(1, x) for x in (SUITS if card.is_joker else (card.suit,))]

    def fits(rep) -> bool:
        if not rep.valid:
            return False
        if mode == "ace-group-only" and rep.kind == "run":
            return o.ace_group_only_runs == "high" and rep.chosen.lo != 1
        return True

    stand_ins = _natural_stand_in(card, regime) if o.taken_wild == "natural" else []
    for sub in stand_ins:
        logical = cards[:i] + [sub] + cards[i + 1:]
        rep = analyse_meld(logical, regime, o, {k: v for k, v in declared.items() if k != i})
        if fits(rep):
            return rep, logical
    if not stand_ins:
        rep = analyse_meld(cards, regime, o, declared)
        if fits(rep) and (set(rep.wild_as) & set(aces)):
            return rep, cards
    rule = "HR-31" if mode == "as-ace" else "HR-54"
    raise _fail(f"a taken discarded wild {card!r} plays only as "
                + ("a natural ace" if card.is_joker else f"the natural {aces[0]!r}")
                + (" in a group of aces (A10)" if mode == "ace-group-only" else "")
                + f"; {' '.join(map(repr, cards))} does not read so", rule, text, repr(card),
                seg=seg)


@dataclass(frozen=True)
class State:
    """The round's public position: who acts next (the starter before the first turn) and
    whether they have drawn (``first_turn``: the starter's first, which has no draw), each
    hand's size, who has made the initial meld, the stock, the discard pile, the indicator
    (``wilds``: turned, or none needed), how the round ended and whether it was scored."""

    order: tuple[str, ...]
    dealer: str
    starter: str
    current: str
    drew: bool
    first_turn: bool
    counts: tuple[tuple[str, int], ...]
    opened: tuple[str, ...]
    stock: int
    pile: tuple[Card, ...]
    indicator: Card | None
    wilds: bool
    reshuffle: bool
    over: str | None
    winner: str | None
    scored: bool


def _state(s: RoundState) -> State:
    current = s.current if s.started else s.starter
    assert current is not None   # started: someone is to act
    return State(s.order, s.dealer, s.starter, current,
                 s.turn.drew if s.turn is not None else True,
                 current == s.starter and s.players[current].turns == 0,
                 tuple((p, s.players[p].count) for p in s.order),
                 tuple(p for p in s.order if s.players[p].opened), s.stock, tuple(s.pile),
                 s.indicator, s.regime is not None, s.options.stock_end == "reshuffle",
                 s.over, s.winner, s.scored)


# ----- the actions: verify_<action> raises the rule broken, can_<action> says whether not ----

def _verify_going(state: State) -> None:
    """The round is being played: the wilds are known (HR-7) and it has not ended (HR-34)."""
    if state.scored:
        raise RuleError("the round record ended with its scoring statement", rule="HR-34")
    if not state.wilds:
        raise RuleError("turn the indicator first ('indicator 7C'): it decides the wilds",
                        rule="HR-7")
    if state.over is not None:
        raise RuleError("the round is over" + (f": {state.winner} went out" if state.winner
                                                else " (the stock ran out)")
                        + "; only its 'round N: ...' statement may follow", rule="HR-34")


def verify_turn(state: State, player: str) -> None:
    """``player`` acts now: play passes to the right (HR-4)."""
    _verify_going(state)
    if player != state.current:
        raise RuleError(f"it is {state.current}'s turn, not {player}'s (play passes to the "
                        "right)", text=player, rule="HR-4")


def _verify_no_draw_yet(state: State) -> None:
    if state.drew:
        if state.first_turn:
            raise RuleError("the starter's first turn has no draw: it starts by discarding",
                            rule="HR-27")
        raise RuleError("one draw per turn, before melding", rule="HR-28")


def verify_draw(state: State, player: str) -> None:
    """A draw from the stock (HR-28; HR-57: an empty stock, unless the pile is reshuffled)."""
    verify_turn(state, player)
    _verify_no_draw_yet(state)
    if state.stock == 0 and not (state.reshuffle and len(state.pile) > 1):
        raise RuleError("the stock is empty", rule="HR-57")


def verify_take(state: State, player: str, card: Card) -> None:
    """Taking the top discard (HR-28)."""
    verify_turn(state, player)
    _verify_no_draw_yet(state)
    top = state.pile[-1] if state.pile else None
    if top is UNSEEN_CARD:
        return                  # a discard not seen: the take says which card it was
    if top != card:
        raise RuleError(f"only the top discard may be taken: {top!r}" if top is not None
                        else "the discard pile is empty", text=repr(card), rule="HR-28")


def verify_play(state: State, player: str) -> None:
    """A meld, lay-off, swap or discard: after the turn's draw (HR-28)."""
    verify_turn(state, player)
    if not state.drew:
        raise RuleError(f"{player} draws first: from the stock or the top discard",
                        rule="HR-28")


can_turn = can(verify_turn)
can_draw = can(verify_draw)
can_take = can(verify_take)
can_play = can(verify_play)


def apply(s: RoundState, ev, text: str = "") -> None:
    """Apply one statement to the round (raises :class:`RuleError` naming the rule)."""
    o = s.options
    if s.scored:
        raise _fail("the round record ended with its scoring statement", "HR-34", text)
    if isinstance(ev, Indicator):
        if s.started or s.indicator is not None:
            raise _fail("the indicator is turned once, before play", "HR-7", text,
                        repr(ev.card))
        if put_back(ev.card, o):                # HR-7 (a joker), HR-47 (redraw): the next
            s.turned.append(ev.card)            # card is turned; this one is in the stock
            s.stock_known = put_back_draws(s.turned, s.stock)   # (A2), seen before the next
            return
        s.regime = make_regime(ev.card, o)
        s.indicator = ev.card
        _mark(s, "indicator")
        _reveal(s, s.turned)
        s.stock_known = put_back_draws(s.turned, s.stock)
        return
    if isinstance(ev, Holds):
        if s.started:
            raise _fail("a dealt hand is stated before the first turn", "HR-6", text)
        if s.regime is None:
            raise _fail("turn the indicator first ('indicator 7C'): it decides the wilds",
                        "HR-7", text)
        p = s.players[ev.player]
        want = HAND + (ev.player == s.starter)
        if p.dealt_known:
            raise _fail(f"{ev.player}'s hand is stated twice", "HR-6", text)
        if len(ev.cards) != want:
            raise _fail(f"{ev.player} is dealt {want} cards (the dealer's right-hand player "
                        f"15, HR-6), not {len(ev.cards)}", "HR-6", text, repr(ev.cards[0]),
                        after=":")
        _reveal(s, ev.cards)
        p.known, p.unknown, p.dealt_known = Counter(ev.cards), 0, True
        return
    if isinstance(ev, (RoundEvent, UnscoredEvent)):
        _end(s, ev, text)
        return
    if isinstance(ev, (Unseen, TurnIs)):    # one course of it (play follows them all)
        b = step(s, ev, text)[0]
        s.__dict__.update(b.__dict__)
        return
    st = _state(s)
    try:        # the round is not being played: about the statement as a whole
        _verify_going(st)
    except RuleError as e:
        raise _fail(e.message, e.rule or "", text) from None
    try:        # the token the rule quotes (the player, the card taken), else the action
        if isinstance(ev, Draw):
            verify_draw(st, ev.player)
        elif isinstance(ev, Take):
            verify_take(st, ev.player, ev.card)
        elif not isinstance(ev, Call):
            verify_play(st, ev.player)
    except RuleError as e:
        raise _fail(e.message, e.rule or "", text, e.text or _verb(text),
                    last=e.text is not None and e.text != ev.player) from None
    if not s.started:
        s.current = s.starter
        s.turn = Turn(s.starter, drew=True)   # the starter does not draw (HR-27, A3)
    if isinstance(ev, Call):
        _call(s, ev, text)
        return
    who = ev.player
    if s.call_open is not None and who != s.call_open:
        _missed_call(s)
    p, t = s.players[who], s.turn
    assert t is not None   # a turn is under way (started above)
    if isinstance(ev, (Draw, Take)):
        if isinstance(ev, Draw):
            _stock_draw(s, p, ev.card, text)
        else:
            if s.pile.pop() is UNSEEN_CARD:     # a discard not seen: the take shows it
                _reveal(s, [ev.card])
            t.taken_from = s.pile_from.pop()
            p.known[ev.card] += 1
            t.taken = ev.card
        t.drew = True
        return
    if isinstance(ev, Melds):
        _melds(s, p, t, ev, text)
    elif isinstance(ev, LayOff):
        _layoff(s, p, t, ev, text)
    elif isinstance(ev, Swap):
        _swap(s, p, t, ev, text)
    elif isinstance(ev, Discard):
        _discard(s, p, t, ev, text)
    else:  # pragma: no cover - every event class is handled above
        raise _fail("not a turn statement", "HR-28", text)


def _stock_draw(s: RoundState, p: PlayerState, card: Card | None, text: str) -> None:
    """Step 1 from the stock (HR-28): ``card`` when the recorder saw it; a card turned up at
    the deal and put back is known to all when its draw comes (HR-7, A2)."""
    o = s.options
    known = s.stock_known.get(s.stock_draws + 1)
    if known is not None and card is not None and card != known:
        raise _fail(f"this draw takes stock card {s.stock_draws + 1}, the {known!r} "
                    f"turned at the deal and put into the middle of the stock "
                    f"(A2), not {card!r}", "HR-7", text, repr(card), last=True)
    if s.stock == 0 and o.stock_end == "reshuffle" and len(s.pile) > 1:
        back = s.pile[:-1]                      # HR-57: a new stock
        for c in back:
            if c is not UNSEEN_CARD:
                s.seen[c] -= 1
        s.stock += len(back)
        s.pile, s.pile_from = s.pile[-1:], s.pile_from[-1:]
    s.stock -= 1
    s.stock_draws += 1
    s.last_draw_emptied = s.stock == 0
    if known is not None:
        del s.stock_known[s.stock_draws]
        p.known[known] += 1         # seen by everyone when it was turned
    elif card is not None:
        _reveal(s, [card])
        p.known[card] += 1
    else:
        p.unknown += 1


def _unseen_turn(s: RoundState, who: str, text: str) -> list[RoundState]:
    """``who: ?`` -- a whole turn not seen (:class:`~solver.hand.events.Unseen`): the draw
    from the stock (none on the starter's first turn, HR-27; a taken discard would have to
    go into a new meld, HR-29, and a turn that melds is seen), then the discard of any card
    held.  One state per discard: each card known to be held, and an unknown card (the
    pile then shows :data:`UNSEEN_CARD`); each weighted by the copies it may be."""
    if who == s.recorder:
        raise _fail(f"{who} is the recorder (me: {who}): it plays its own turns (HR-28), so "
                    f"none is a turn not seen; write this one ({who} draws ..., {who} "
                    "discards ...)", "HR-28", text, who)
    st = _state(s)
    try:
        _verify_going(st)
        verify_turn(st, who)
    except RuleError as e:
        raise _fail(e.message + (f"; write 'turn: {who}' when the turns before it were not "
                                 "seen" if e.rule == "HR-4" else ""),
                    e.rule or "", text) from None
    if not s.started:
        s.current = s.starter
        s.turn = Turn(s.starter, drew=True)   # the starter does not draw (HR-27, A3)
    t = s.turn
    assert t is not None
    p = s.players[who]
    first = who == s.starter and p.turns == 0
    if (t.drew and not first) or t.new_melds or t.swapped:
        raise _fail(f"{who}'s turn is under way: write the rest of it (its discard ends it, "
                    "HR-28)", "HR-28", text)
    if s.call_open is not None and who != s.call_open:
        _missed_call(s)
    if not first:
        try:
            verify_draw(st, who)
        except RuleError as e:
            raise _fail(e.message, e.rule or "", text) from None
        _stock_draw(s, p, None, text)
    s.unseen_turns += 1
    out = []
    for c in sorted(p.known, key=repr):
        b = _fork(s)
        b.weight *= p.known[c]
        bp = b.players[who]
        bp.known[c] -= 1
        if not bp.known[c]:
            del bp.known[c]
        b.pile.append(c)
        out.append(b)
    if p.unknown:
        b = _fork(s)
        b.weight *= p.unknown
        b.players[who].unknown -= 1
        b.pile.append(UNSEEN_CARD)
        out.insert(0, b)
    for b in out:
        bp = b.players[who]
        b.pile_from.append(who)
        b.discards_made += 1
        b.last_discarder = who
        bp.failed_call = False
        _next_turn(b, bp)
        b.call_unheard = b.call_open == who     # its call (HR-33) may have gone unheard
    return out


def _fork(s: RoundState) -> RoundState:
    from copy import deepcopy

    b = deepcopy(s)
    b.branches = []
    return b


def _turn_is(s: RoundState, who: str, text: str) -> list[RoundState]:
    """``turn: who`` -- the players from the one on turn up to ``who`` (not included) each
    took one turn not seen."""
    st = _state(s)
    try:
        _verify_going(st)
    except RuleError as e:
        raise _fail(e.message, e.rule or "", text) from None
    states = [s]
    for _ in range(len(s.order)):
        cur = states[0].current or states[0].starter
        if cur == who:
            return states
        if cur == s.recorder:
            raise _fail(f"it is {cur}'s turn, and {cur} is the recorder (me: {cur}), who "
                        f"plays its own turns (HR-28): 'turn: {who}' would make one of them "
                        f"a turn not seen; write {cur}'s turn ({cur} draws ..., {cur} "
                        "discards ...), then 'turn: " + who + "' if turns were missed after it",
                        "HR-28", text, who)
        states = [b for x in states for b in _unseen_turn(x, cur, text)]
        if states[0].over is not None:
            raise _fail(f"the round ended before {who}'s turn (the stock, HR-35)", "HR-35",
                        text)
    return states   # pragma: no cover - the order comes round to every player


def _open_if_reached(s: RoundState, p: PlayerState, t: Turn) -> None:
    if not p.opened and t.value >= s.needed():     # HR-19, HR-22
        p.opened = True
        s.last_initial = t.value


def _melds(s, p, t, ev, text):
    from solver.hand.table import TableMeld

    for k, spec in enumerate(ev.melds):
        cards, declared = list(spec.cards), dict(spec.declared)
        quoted = " ".join(map(repr, cards))
        logical = cards
        taken_here = (t.taken is not None and not t.taken_placed and t.taken in cards)
        if taken_here and s.regime.is_wild(t.taken):
            rep, logical = _taken_wild_meld(cards, declared, t.taken, s, text, k)
        else:
            rep = analyse_meld(cards, s.regime, s.options, declared)
        if not rep.valid:
            raise _fail(f"not a valid meld: {rep.reason}", rep.rule or "HR-11", quoted)
        if len(rep.readings) > 1 and not rep.declared and s.options.run_wild_end == "declared":
            raise _fail("say where the wild stands: write the run in table order or declare "
                        "it (" + " or ".join(" ".join(f"{rep.wild!r}={c!r}" for c in r.wild_as)
                                             for r in rep.readings) + ")",
                        "A16", quoted)
        _remove(s, p, cards, text, k)
        if p.count == 0:
            raise _fail("every turn ends with a discard: keep at least one card", "HR-30", text,
                        repr(cards[0]), seg=k)
        if taken_here:
            t.taken_placed = True
        if t.swapped:
            t.swapped = max(0, t.swapped - sum(s.regime.is_wild(c) for c in logical))
        stand_in = None
        if logical is not cards:
            i = next(j for j, (a, b) in enumerate(zip(logical, cards)) if a != b)
            stand_in = (logical[i], cards[i])
        s.table.append(TableEntry(p.name, TableMeld(tuple(layout_cards(logical, rep.chosen,
                                                                       s.regime)),
                                                    rep.chosen), stand_in))
        t.new_melds.append(len(s.table))
        t.value += rep.value
        if p.first_meld_turn is None:
            p.first_meld_turn = p.turns
            _mark(s, f"meld:{p.name}")
        p.melded = True
        _open_if_reached(s, p, t)


def _situation(p, t):
    from solver.hand.table import Situation

    # provisional: going out and one-card are checked at the discard (HR-21, HR-26)
    return Situation(melded=p.opened, going_out=True, one_card=True)


def _entry(s, n, text, rule: str = "HR-23") -> TableEntry:
    """Meld ``n`` of the table, for a lay-off (HR-23) or a swap (``rule`` HR-24)."""
    if not 1 <= n <= len(s.table):
        raise _fail(f"there are {len(s.table)} melds on the table (numbered as laid)",
                    rule, text, str(n), last=True)
    return s.table[n - 1]


def _layoff(s, p, t, ev, text):
    from solver.hand.table import TableMeld, try_layoff

    e = _entry(s, ev.meld, text)
    cards, declared = list(ev.cards.cards), dict(ev.cards.declared)
    if t.taken is not None and not t.taken_placed and t.taken in cards:
        discarder = t.taken_from
        if not s.options.discard_layoff:
            raise _fail(f"the taken {t.taken!r} must go into a new meld with two hand cards; "
                        "it may not be laid off (variant discard-layoff allows it, HR-53)",
                        "HR-29", text, repr(t.taken), after=_verb(text))
        if not any(x.owner == discarder for x in s.table):
            raise _fail(f"discard-layoff: {discarder}, who discarded {t.taken!r}, has no meld "
                        "on the table", "HR-53", text, repr(t.taken), after=_verb(text))
        t.taken_placed = t.taken_laid_off = True
    if not p.opened:
        t.needs_out.append(("HR-21", "laid off before reaching the initial meld"))
    try:
        move = try_layoff(e.meld, ev.meld, cards, declared, s.regime, s.options,
                          _situation(p, t))
    except SleuthError as err:
        raise _fail(err.message, err.rule or "HR-23", text,
                    _placed_token(text, err.text, cards)) from None
    if move.rule == "HR-26" and not s.options.pair_wild_third_card:   # HR-56 lifts it
        t.needs_out_or_one.append(("HR-26", "a second wild added to a 2 + wild group"
                                   if any(s.regime.is_wild(c) for c in cards) else
                                   "a single natural added to a 2 + wild group"))
    _remove(s, p, cards, text)
    if p.count == 0:
        raise _fail("every turn ends with a discard: keep at least one card", "HR-30", text,
                    repr(cards[0]), after=_verb(text))
    if t.swapped:
        t.swapped = max(0, t.swapped - sum(s.regime.is_wild(c) for c in cards))
    e.meld = TableMeld(move.result, move.reading)
    if e.owner != p.name:
        p.added_to_others = True
        _mark(s, f"added:{p.name}")


def _swap(s, p, t, ev, text):
    from solver.hand.table import TableMeld, try_swap

    e = _entry(s, ev.meld, text, "HR-24")
    cards = list(ev.cards)
    opts = replace(s.options, swap_wild_must_be_used=False)   # checked at the discard
    sit = _situation(p, t)
    if not p.opened:
        t.needs_out.append(("HR-21", "swapped a wild before reaching the initial meld"))
    try:
        move = try_swap(e.meld, ev.meld, cards, cards, s.regime, opts, sit,
                        s.table_melds())
    except SleuthError as err:
        raise _fail(err.message, err.rule or "HR-24", text,
                    _placed_token(text, err.text, cards)) from None
    _remove(s, p, cards, text)
    p.known[move.take] += 1
    e.meld = TableMeld(move.result, move.reading)
    t.swapped += 1
    if e.owner != p.name:
        p.added_to_others = True
        _mark(s, f"added:{p.name}")


def _placed_token(text: str, quoted: str | None, cards) -> str | None:
    """The token a lay-off's or swap's error points at: what it quotes, when the statement
    writes it, else the first card placed."""
    if quoted and token_offset(text, quoted, after=_verb(text)) is not None:
        return quoted
    return repr(cards[0]) if cards else None


def _discard(s, p, t, ev, text):
    o = s.options
    cards = list(ev.cards)
    # the rules checked at the discard (the turn as a whole) point at the card discarded
    at = repr(cards[0]) if cards else None
    if p.count < len(cards):
        raise _fail("every turn ends with a discard: keep at least one card", "HR-30", text,
                    at, after=_verb(text))
    _remove(s, p, cards, text)
    out = p.count == 0
    if len(cards) == 2:
        if not (out and o.bonus_two_wilds and all(s.regime.is_wild(c) for c in cards)
                and p.first_meld_turn == p.turns):
            raise _fail("one discard per turn; two only as both wilds ending a Full Hand "
                        "(bonus-two-wilds)", "HR-59", text, repr(cards[1]), last=True)
    if t.taken is not None and not t.taken_placed:
        raise _fail(f"the taken {t.taken!r} must go, this turn, into a new meld with at least "
                    "two cards from hand", "HR-29", text, at, after=_verb(text))
    if not p.opened and t.new_melds and not out:
        raise _fail(f"an initial meld is worth at least {s.needed()}; these melds are worth "
                    f"{t.value}" + (" (a taken discard must make the initial meld)"
                                    if t.taken is not None else ""),
                    "HR-19" if t.taken is None else "HR-29", text, at, after=_verb(text))
    for rule, why in t.needs_out:
        if not out:
            raise _fail(f"{why}: allowed only when going out this turn", rule, text, at,
                        after=_verb(text))
    if out and t.needs_out and p.first_meld_turn == p.turns and not p.opened:
        pass  # HR-21: a one-turn going out below the minimum may lay off
    for rule, why in t.needs_out_or_one:
        one = any(q.count == 1 for q in s.players.values())
        if not (out or one):
            raise _fail(f"{why}: allowed when going out or when a player then holds one card "
                        "(A5: true counts)", rule, text, at, after=_verb(text))
    if t.swapped and o.swap_wild_must_be_used:
        raise _fail("a swapped wild must be melded or laid off the same turn "
                    "(swap-wild-must-be-used)", "HR-55", text, at, after=_verb(text))
    if out:
        if p.turns == 0 and not o.first_turn_win:
            raise _fail("no player may go out on their own first turn (variant first-turn-win)",
                        "HR-32", text, at, after=_verb(text))
        if p.failed_call:
            raise _fail(f"{p.name} did not call last turn, so may not go out this turn",
                        "HR-33", text, at, after=_verb(text))
    s.pile.extend(cards)
    s.pile_from.extend([p.name] * len(cards))
    s.discards_made += 1
    s.last_discarder = p.name
    p.failed_call = False
    if out:
        s.over, s.winner = "out", p.name
        _mark(s, "out")
        full = p.first_meld_turn == p.turns and not p.added_to_others
        s.kind = "full-hand" if full else "partial"
        s.bonuses = _bonuses(s, p, cards) if full else ()
        s.current, s.turn = None, None
        return
    _next_turn(s, p)


def _next_turn(s: RoundState, p: PlayerState) -> None:
    """After ``p``'s discard (not going out): the call (HR-33), the stock (HR-35, HR-57),
    the next player (HR-4)."""
    o = s.options
    p.turns += 1
    if 1 <= p.count <= 3:
        s.call_open, s.call_unheard = p.name, False
    # the stock (HR-35, HR-57)
    if o.stock_end in ("players", "penalties") and s.stock <= len(s.order):
        s.over = "stock"
    elif o.stock_end == "empty" and s.stock == 0 and s.last_draw_emptied:
        s.over = "stock"
    if s.over == "stock":
        _mark(s, "stock")
    s.current = s.next_player(p.name)
    s.turn = Turn(s.current, opened_before=s.players[s.current].opened)


def _bonuses(s, p, discards) -> tuple[str, ...]:
    """HR-59 bonuses of a Full Hand just made (only the variants in force; A12)."""
    from solver.hand.best import bonus_factor

    o = s.options
    melded = [c for e in s.table if e.owner == p.name for c in e.physical]
    out = []
    if len(discards) == 2:
        out.append("two-wilds")
    elif s.regime.is_wild(discards[0]) and o.bonus_wild_discard:
        out.append("wild-discard")
    out += bonus_factor(melded, s.regime, o)[1]
    return tuple(out)


def _call(s, ev, text):
    p = s.players[ev.player]
    if s.call_open != ev.player and not (s.turn and s.turn.player == ev.player):
        raise _fail(f"{ev.player} calls after their own discard", "HR-33", text)
    if p.count != ev.count:
        raise _fail(f"{ev.player} holds {p.count} cards, not {ev.count}", "HR-33", text,
                    text.split()[2] if len(text.split()) > 2 else None)
    s.call_open, s.call_unheard = None, False


def _missed_call(s):
    p = s.players[s.call_open]
    if s.options.manual_calls and not s.call_unheard:
        p.failed_call = True
    s.call_open, s.call_unheard = None, False


def _end(s, ev, text):
    if isinstance(ev, UnscoredEvent):
        if ev.cause == "redeal":
            if s.discards_made:
                raise _fail("a redeal is demanded before the first discard", "HR-10", text,
                            "redeal", after=":")
            if ev.by is not None:
                p = s.players[ev.by]
                if p.unknown == 0:
                    from solver.hand.redeal import redeal

                    r = redeal(p.hand(), s.indicator, s.options)
                    if not r.allowed:
                        raise _fail(f"{ev.by} may not demand a redeal: {r.reason}", "HR-10",
                                    text, ev.by, after=":")
        elif s.over != "stock":
            raise _fail("the stock has not run out" + (
                f" ({s.stock} cards left, more than the {len(s.order)} players)"
                if s.options.stock_end == "players" else ""), "HR-35", text, "stock",
                after=":")
        elif s.options.stock_end == "penalties":
            raise _fail("with stock-end=penalties the round is scored: 'round N: stock; "
                        "<every player's penalty>'", "HR-57", text, "stock", after=":")
        s.over = s.over or "redeal"
        s.scored = True
        return
    if ev.kind == "stock":
        if s.over != "stock" or s.options.stock_end != "penalties":
            raise _fail("a round is scored by penalties only when the stock ends it under "
                        "stock-end=penalties", "HR-57", text, "stock", after=":")
    elif s.over != "out":
        msg, rule = _not_out(s, ev)
        raise _fail(msg, rule, text, ev.winner, after=":")
    if ev.kind == "stock":
        pass
    elif ev.winner != s.winner:
        raise _fail(f"{s.winner} went out{_where(s, 'out')}, not {ev.winner}", "HR-34", text,
                    ev.winner, after=":")
    if ev.kind != "stock" and ev.kind != s.kind:
        w = s.winner
        if s.kind == "full-hand":
            why = (f"a Full Hand: {w} melded nothing before the turn {w} went out"
                   f"{_where(s, 'out')} and put nothing into another player's meld")
        else:
            why = "partial: " + " and ".join(
                [f"{w} melded before the turn {w} went out{_where(s, f'meld:{w}')}"]
                * (s.players[w].first_meld_turn != s.players[w].turns)
                + [f"{w} put a card into another player's meld{_where(s, f'added:{w}')}"]
                * s.players[w].added_to_others)
        raise _fail(f"{w}'s going out was {why}", "HR-40" if s.kind == "full-hand"
                    else "HR-37", text, ev.kind, after=":")
    if ev.kind != "stock" and set(ev.bonuses) != set(s.bonuses):
        wrong = [b for b in ev.bonuses if b not in s.bonuses]
        raise _fail("the Full Hand's bonuses are " + (" ".join(s.bonuses) or "none")
                    + " (only those in the variant count)"
                    + (f": {s.winner} went out{_where(s, 'out')}" if "out" in s.marks else ""),
                    "HR-59", text,
                    wrong[0] if wrong else ev.kind, after=":")
    if ev.indicator is not None and ev.indicator != s.indicator:
        raise _fail(f"the indicator was {s.indicator!r}{_where(s, 'indicator')}", "HR-7", text,
                    repr(ev.indicator))
    if ev.dealer is not None and ev.dealer != s.dealer:
        raise _fail(f"{s.dealer} dealt this round", "HR-5", text, ev.dealer)
    from solver.records import Header

    teams = team_pairs(Header("hand", s.order, s.options.names()), s.options)
    partner = None
    if teams and s.winner is not None:
        partner = next(q for tm in teams if s.winner in tm for q in tm if q != s.winner)
    for pen in ev.penalties:
        q = s.players[pen.player]
        at = penalty_offset(text, pen.player)     # the penalty given
        if pen.no_meld != (not q.melded):
            raise _fail(f"{q.name} " + ("never melded in the turns recorded: the penalty is "
                                        "no-meld" if not q.melded else
                                        f"has melded{_where(s, f'meld:{q.name}')}: the "
                                        "penalty is the cards in hand"), "HR-38", text,
                        offset=at)
        if pen.cards is not None:
            if len(pen.cards) != q.count:
                raise _fail(f"{q.name} holds {q.count} cards, not {len(pen.cards)}", "HR-38",
                            text, offset=at)
            if q.unknown == 0 and Counter(pen.cards) != q.known:
                raise _fail(f"{q.name} holds {' '.join(map(repr, q.hand()))}", "HR-38", text,
                            offset=at)
        if pen.points is not None and q.unknown == 0:
            pts = sum(penalty(c, s.regime, s.options) for c in q.known.elements())
            if pts != pen.points:
                raise _fail(f"{q.name}'s cards count {pts}", "HR-38", text, offset=at)
    given = {pen.player for pen in ev.penalties}
    missing = [q for q in s.order if q not in given and q not in (s.winner, partner)]
    if missing:
        raise _fail("every opponent's penalty is needed: missing " + ", ".join(missing),
                    "HR-38", text)
    s.scored = True


def is_round_record(record) -> bool:
    """Whether ``record`` logs one round turn by turn (else it is a scoresheet)."""
    return any(not isinstance(st.event, (RoundEvent, UnscoredEvent))
               for st in record.statements)


def step(s: RoundState, ev, text: str = "") -> list[RoundState]:
    """The states after statement ``ev``: one, or for a turn not seen (``P: ?``, ``turn:
    P``) one per card it may have discarded (:func:`play_branches`)."""
    if isinstance(ev, Unseen):
        return _unseen_turn(s, ev.player, text)
    if isinstance(ev, TurnIs):
        return _turn_is(s, ev.player, text)
    apply(s, ev, text)
    return [s]


def play_branches(record, upto: int | None = None) -> list[RoundState]:
    """Every course of the round a record with turns not seen (``P: ?``) leaves open, as far
    as the record tells them apart: which card each such turn discarded, a card known to be
    held or an unknown one (then face down, :data:`UNSEEN_CARD`).  A statement is refused
    only when every course refuses it (the error: the first course's); a course it refuses
    is dropped.  ``weight`` (with the unseen cards' arrangements, :func:`course_weight`)
    counts the equally likely courses of the deal each state stands for.  Over
    :data:`MAX_BRANCHES` they are merged into one (:func:`merge`: the cards not known in
    every course become unknown; ``lossy``)."""
    states = [start(record.header)]
    states[0].recorder = recorder_of(record)
    states[0].anchor = next(((st.line, st.text) for st in record.statements
                             if not isinstance(st.event, (RoundEvent, UnscoredEvent))), None)
    sts = record.statements if upto is None else record.statements[:upto]
    for st in sts:
        nxt: list[RoundState] = []
        err: SleuthError | None = None
        for s in states:
            s.at = (st.line, st.text)
            try:
                nxt += step(s, st.event, st.text)
            except SleuthError as e:
                err = err or e
        if not nxt:
            assert err is not None
            if err.text in (None, ""):
                err.text = st.text
            raise err.located(path=record.path, line=st.line) from None
        states = nxt if len(nxt) <= MAX_BRANCHES else [merge(nxt, lossy=True)]
    return states


def course_weight(s: RoundState, unknown: int) -> int:
    """The courses of the deal state ``s`` stands for, with ``unknown`` cards unseen: its
    ``weight`` times the ways to lay those cards (copies told apart) on their places."""
    from math import factorial

    return s.weight * factorial(unknown)


def merge(states: list[RoundState], lossy: bool = False) -> RoundState:
    """The public position common to ``states`` (courses of one record): each hand's cards
    known in every course, a discard seen in every course, the rest unknown."""
    m = _fork(states[0])
    m.weight, m.lossy = 1, lossy or any(b.lossy for b in states)
    for name, p in m.players.items():
        known = states[0].players[name].known
        for b in states[1:]:
            known = known & b.players[name].known
        p.unknown = p.count - sum(known.values())
        p.known = Counter(known)
    m.pile = [c if all(len(b.pile) > i and b.pile[i] == c for b in states) else UNSEEN_CARD
              for i, c in enumerate(states[0].pile)]
    seen: Counter = Counter()
    for p in m.players.values():
        seen.update(p.known)
    seen.update(c for e in m.table for c in e.physical)
    seen.update(c for c in m.pile if c is not UNSEEN_CARD)
    seen.update(m.stock_known.values())
    m.seen = seen
    return m


def play(record, upto: int | None = None) -> RoundState:
    """Replay a round record (its first ``upto`` statements); raise :class:`RuleError` with
    the line on the first statement the rules refuse.  With turns not seen (``P: ?``) that
    leave several courses open, the public position common to them (:func:`merge`), the
    courses in its ``branches``."""
    states = play_branches(record, upto)
    if len(states) == 1:
        return states[0]
    m = merge(states)
    m.branches = states
    return m


def run(record, upto: int | None = None) -> State:
    """The state after the first ``upto`` statements (all by default) of a round record,
    each checked against the rules (:func:`play`)."""
    return _state(play(record, upto))


def recorder_of(record) -> str | None:
    """The recorder of a partial record (``me:``, not every hand stated): the record is its
    log of what it saw, and its own turns are all seen (``P: ?`` and ``turn: P`` never stand
    for one).  ``None`` without ``me:`` (a spectator's record) or when every hand is stated
    (a simulated or finished round, analysed from any seat, some turns perhaps written
    ``?``: whose view keeps which hands is :func:`view_record`'s)."""
    if record.header.me and not record.every_hand_listed(Holds):
        return record.header.me
    return None


def complete_record(record) -> bool:
    """Whether ``record`` is a complete record: every hand and every draw written, so no
    turn not seen (``P: ?``, ``turn: P``; record-format.md: a complete record has none)."""
    return record.every_hand_listed(Holds) and not any(
        isinstance(st.event, (Unseen, TurnIs)) for st in record.statements)


def view_record(record, view: str | None):
    """The record as ``view`` saw it: other players' dealt hands dropped and their stock
    draws unnamed (``None``: a spectator's view).  The recorder of a partial record (not
    :func:`complete_record`: a hand not stated, or a turn not seen) -- ``me:``, or the
    spectator of a record without ``me:`` (``None``) -- saw everything written: a hand or
    draw it wrote is one it knows (record-format.md)."""
    from solver.records import Record, Statement

    if view == record.header.me and not complete_record(record):
        return record
    out = []
    for st in record.statements:
        ev = st.event
        if isinstance(ev, Holds) and ev.player != view:
            continue
        if isinstance(ev, Draw) and ev.player != view and ev.card is not None:
            ev = Draw(ev.player)
            st = Statement(st.line, str(ev), ev, st.comment)
        out.append(st)
    # a seat's view of a complete record is not a recorder's log (:func:`recorder_of`)
    header = record.header if recorder_of(record) else replace(record.header, me=None)
    return Record(header, tuple(out), record.path)
