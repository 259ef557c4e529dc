"""The meld engine: runs (HR-12), groups (HR-13), one wild per meld (HR-14; two with the
variant ``wilds-per-meld=2``), what the wild stands for (HR-15, HR-16), initial-meld values
(HR-20, HR-49, HR-50, A11).

A meld is written as its cards, e.g. ``7D AC 9D``.  The order of a run is its layout
(HR-12: laid ascending), so ``9C 10C AS`` puts the wild above the 10 and ``AS 9C 10C`` below
the 9 (HR-17 rows 12 and 13).  A wild may also be declared: ``AS=8C``.  A run written out of
order, with its wild at an end, takes the better of its two readings (A16: the player
declares; ``run-wild-end=best`` always takes the better one).

>>> from solver.cards import parse_cards
>>> r = analyse_meld(parse_cards("7D AC 9D"), make_regime(Card.parse("7C")))
>>> r.valid, r.kind, r.wild_as, r.value
(True, 'run', (8D,), 24)
>>> r = analyse_meld(parse_cards("5S 5H AC"), make_regime(Card.parse("AC")))
>>> r.valid, r.reason
(False, 'neither a group (one rank, HR-13) nor a run (one suit, HR-12); AC is a natural card here: only the jokers are wild when an ace is turned up (HR-9)')
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import permutations

from solver.cards import SUITS, Card, split_tokens
from solver.errors import NotationError
from solver.hand.options import HandOptions
from solver.hand.regime import (Regime, check_copies, make_regime, natural_value,
                                run_position_value)

__all__ = ["Reading", "MeldReport", "CheckResult", "analyse_meld", "check", "parse_meld",
           "parse_melds", "layout_cards", "position_card", "natural_position", "wild_limit"]


def wild_limit(options: HandOptions) -> int:
    """The most wilds one meld may hold: 1 (HR-14), 2 with ``wilds-per-meld=2``."""
    return options.wilds_per_meld


def _limit_text(options: HandOptions) -> str:
    return ("a meld holds at most one wild" if options.wilds_per_meld == 1 else
            "a meld holds at most two wilds (wilds-per-meld=2)")


def position_card(pos: int, suit: str) -> Card:
    """Run position 1..14 (1 = ace low, 14 = ace high) as a card."""
    return Card(1 if pos == 14 else pos, suit)


def natural_position(card: Card, ace_high: bool) -> int:
    return 14 if card.rank == 1 and ace_high else card.rank


@dataclass(frozen=True)
class Reading:
    """One way to read a valid meld.

    Runs: ``suit``, positions ``lo..hi`` (1 = ace low, 14 = ace high), ``wild_pos`` (or
    ``None``) and, with ``wilds-per-meld=2``, ``wild_pos2`` (the higher of two wild
    positions).  Groups: ``rank``.  ``wild_as``: the natural card(s) the wild(s) stand for
    (runs: by position, ascending; groups: the missing suits).  ``n_wild``: how many wilds
    (derived when left 0).
    """

    kind: str
    value: int
    wild_as: tuple[Card, ...] = ()
    suit: str = ""
    lo: int = 0
    hi: int = 0
    wild_pos: int | None = None
    rank: int = 0
    wild_pos2: int | None = None
    n_wild: int = 0

    def __post_init__(self):
        if not self.n_wild:
            n = len(self.wild_positions) if self.kind == "run" else int(bool(self.wild_as))
            object.__setattr__(self, "n_wild", n)

    @property
    def wild_positions(self) -> tuple[int, ...]:
        """A run's wild positions, ascending (``()`` for none and for groups)."""
        return tuple(p for p in (self.wild_pos, self.wild_pos2) if p is not None)

    def stand_ins(self) -> tuple[tuple[Card, ...], ...]:
        """What each wild stands for (HR-15): a run's wild its position's card; a group's one
        wild every missing suit together; a group's two wilds one missing suit each
        (``wilds-per-meld=2``).

        >>> Reading("group", 20, (Card.parse("5C"), Card.parse("5D")), rank=5, n_wild=2).stand_ins()
        ((5C,), (5D,))
        """
        if self.kind == "run":
            return tuple((position_card(p, self.suit),) for p in self.wild_positions)
        if self.n_wild >= 2:
            return tuple((c,) for c in self.wild_as)
        return (self.wild_as,) if self.wild_as else ()

    def declare(self, cards, regime: Regime) -> dict[int, tuple[Card, ...]]:
        """Each wild of ``cards`` (written order) declared as what it stands for under this
        reading (HR-25, A16): ``{index: stand-in}``."""
        wild_idx = [i for i, c in enumerate(cards) if regime.is_wild(c)]
        if self.kind == "run":
            pos = self.positions_of(cards, regime)
            return {i: (position_card(pos[i], self.suit),) for i in wild_idx}
        return dict(zip(wild_idx, self.stand_ins()))

    def _end(self, w: int) -> str:
        if w == self.lo:
            return "low"
        return "high" if w == self.hi else "inside"

    @property
    def end(self) -> str | None:
        """Where a run's wild sits: ``low``, ``high``, ``inside``; ``None`` otherwise (two
        wilds: both, as ``low+high``)."""
        if self.kind != "run" or self.wild_pos is None:
            return None
        return "+".join(self._end(w) for w in self.wild_positions)

    def layout(self) -> tuple[Card, ...]:
        """The natural cards the meld represents, in order."""
        if self.kind == "run":
            return tuple(position_card(p, self.suit) for p in range(self.lo, self.hi + 1))
        return tuple(Card(self.rank, s) for s in SUITS)

    def positions_of(self, cards, regime: Regime) -> list[int]:
        """Run positions of ``cards`` (written order) under this reading."""
        out: list[int] = []
        wilds = list(self.wild_positions)   # the wilds in written order, ascending
        low_ace_free = self.lo == 1 and self.hi == 14 and 1 not in wilds   # runs=14-card
        for c in cards:
            if regime.is_wild(c):
                w = wilds.pop(0) if len(wilds) > 1 else wilds[0] if wilds else None
                # a run reading of these cards has one wild position per wild they hold
                assert w is not None
                out.append(w)
            elif low_ace_free and regime.natural(c).rank == 1:
                out.append(1)
                low_ace_free = False
            else:
                out.append(natural_position(regime.natural(c), self.hi == 14))
        return out

    def to_json(self) -> dict:
        return {"kind": self.kind, "wild_as": [repr(c) for c in self.wild_as],
                "value": self.value, "end": self.end}


@dataclass(frozen=True)
class MeldReport:
    """The verdict on one meld: ``valid``, ``kind``, ``wild_as``, ``value`` or ``reason``
    (naming the rule, ``rule``), every valid ``reading`` and the ``chosen`` one."""

    cards: tuple[Card, ...]
    valid: bool
    kind: str | None = None
    wild: Card | None = None
    wild_as: tuple[Card, ...] = ()
    value: int | None = None
    reason: str | None = None
    rule: str | None = None
    readings: tuple[Reading, ...] = ()
    chosen: Reading | None = None
    declared: bool = False
    jokers_as: Card | None = None

    @property
    def best_value(self) -> int | None:
        """The highest value over all readings (what a player placing the meld can get)."""
        return max((r.value for r in self.readings), default=None)

    def wild_text(self) -> str:
        """``AC = 8D``, ``AC = itself``, ``Jk = 5C+5D`` or ``''``; plus natural jokers; two
        wilds (``wilds-per-meld=2``) each: ``AC = 8D, AC = 10D``."""
        parts = []
        if self.wild is not None and self.wild_as:
            each = []
            for stands in (self.chosen.stand_ins() if self.chosen else (self.wild_as,)):
                if len(stands) == 1 and stands[0] == self.wild:
                    each.append(f"{self.wild!r} = itself")
                else:
                    each.append(f"{self.wild!r} = " + "+".join(repr(c) for c in stands))
            parts.append(", ".join(each))
        if self.jokers_as is not None:
            parts.append(f"Jk natural {self.jokers_as!r}")
        return "; ".join(parts)

    def to_json(self) -> dict:
        return {
            "cards": [repr(c) for c in self.cards],
            "valid": self.valid,
            "kind": self.kind,
            "wild_as": [repr(c) for c in self.wild_as],
            "value": self.value,
            "reason": self.reason,
            "rule": self.rule,
            "wild": repr(self.wild) if self.wild is not None and self.valid else None,
            "jokers_as": repr(self.jokers_as) if self.jokers_as is not None else None,
            "declared": self.declared,
            "readings": [r.to_json() for r in self.readings],
        }


# ---------------------------------------------------------------------------- notation

def parse_meld(text: str) -> tuple[list[Card], dict[int, tuple[Card, ...]]]:
    """Cards of one meld and declared wild stand-ins (``AS=8C``, ``AC=AD+AS``).

    >>> parse_meld("9c 10c as=8c")
    ([9C, 10C, AS], {2: (8C,)})
    """
    cards: list[Card] = []
    declared: dict[int, tuple[Card, ...]] = {}
    for tok in split_tokens(text):
        if "=" in tok:
            face, _, stands = tok.partition("=")
            card = Card.parse(face)
            try:
                declared[len(cards)] = tuple(Card.parse(t) for t in stands.split("+") if t)
            except NotationError:
                raise NotationError("expected a declared wild such as AS=8C or AC=AD+AS",
                                    text=tok) from None
            if not declared[len(cards)]:
                raise NotationError("expected a declared wild such as AS=8C", text=tok)
            cards.append(card)
        else:
            cards.append(Card.parse(tok))
    return cards, declared


def parse_melds(text: str) -> list[tuple[list[Card], dict[int, tuple[Card, ...]]]]:
    """Melds separated by ``|``.

    >>> [m for m, d in parse_melds("7D AC 9D | 5S 5C AC")]
    [[7D, AC, 9D], [5S, 5C, AC]]
    """
    parts = [p for p in text.split("|")]
    if not text.strip():
        raise NotationError("expected melds such as '7D AC 9D | 5S 5C 5H'", text=text)
    out = []
    for p in parts:
        if not p.strip():
            raise NotationError("an empty meld between '|' separators", text=text)
        out.append(parse_meld(p))
    return out


# ---------------------------------------------------------------------------- readings

def _group_readings(nats: list[Card], n_wild: int) -> tuple[list[Reading], str | None]:
    rank = nats[0].rank
    seen: set[str] = set()
    for c in nats:
        if c.suit in seen:
            return [], f"a group has one card of each suit; {c!r} twice (HR-13)"
        seen.add(c.suit)
    total = len(nats) + n_wild
    if total > 4:
        return [], f"a group has 3 or 4 cards, one of each suit; {total} here (HR-13)"
    if n_wild >= 2 and len(nats) < 2:
        # wilds-per-meld=2: only 2 + W + W gives each wild one missing suit (HR-15)
        return [], ("a group with two wilds needs two naturals, each wild standing for one "
                    "missing suit (wilds-per-meld=2, HR-14)")
    missing = tuple(Card(rank, s) for s in SUITS if s not in seen) if n_wild else ()
    # a wild counts once, at the group's rank (HR-20, HR-17 row 14)
    return [Reading("group", total * natural_value(rank), missing, rank=rank,
                    n_wild=n_wild)], None


def _run_readings(nats: list[Card], n_wild: int, options: HandOptions
                  ) -> tuple[list[Reading], str | None]:
    suit = nats[0].suit
    has_ace = any(c.rank == 1 for c in nats)
    longest = 14 if options.runs == "14-card" else 13      # HR-12, variant runs=14-card
    errors: list[tuple[int, str]] = []
    out: list[Reading] = []
    modes: tuple = (False, True) if has_ace else (False,)
    if longest == 14 and sum(c.rank == 1 for c in nats) == 2:
        modes = ("both",)          # A ... A: one ace below the 2, the other above the K
    for ace_high in modes:
        if ace_high == "both":
            first = next(i for i, c in enumerate(nats) if c.rank == 1)
            pos = [14 if c.rank == 1 and i != first else natural_position(c, False)
                   for i, c in enumerate(nats)]
        else:
            pos = [natural_position(c, ace_high) for c in nats]
        dup = [p for p, k in Counter(pos).items() if k > 1]
        if dup:
            return [], (f"a run has each rank once; {position_card(dup[0], suit)!r} twice "
                        "(HR-12)")
        lo, hi = min(pos), max(pos)
        gaps = [p for p in range(lo, hi + 1) if p not in pos]
        if len(gaps) > n_wild:
            errors.append((len(gaps), "ranks not consecutive: missing "
                           + " ".join(repr(position_card(p, suit)) for p in gaps)
                           + (f" and {_limit_text(options)} (HR-12, HR-14)" if n_wild
                              else " (HR-12)")))
            continue
        # the gaps take wilds; the others go to the ends (e below, n_wild - len(gaps) - e above)
        ends = n_wild - len(gaps)
        spans = [(lo - e, hi + ends - e,
                  tuple(sorted(gaps + list(range(lo - e, lo)) + list(range(hi + 1,
                                                                           hi + 1 + ends - e)))))
                 for e in range(ends, -1, -1)]
        for a, b, ws in spans:
            if a < 1 or b > 14:
                continue
            if b - a + 1 > longest:
                errors.append((0, f"a run has at most {longest} cards (HR-12)"))
                continue
            if a == 1 and b == 14 and longest < 14:  # pragma: no cover - by the length
                continue
            value = sum(run_position_value(p, p in ws, options) for p in range(a, b + 1))
            out.append(Reading("run", value, tuple(position_card(w, suit) for w in ws),
                               suit=suit, lo=a, hi=b, wild_pos=ws[0] if ws else None,
                               wild_pos2=ws[1] if len(ws) > 1 else None))
    if out:
        # with no natural ace, the ace-low and ace-high numberings coincide: de-duplicate
        uniq = {(r.lo, r.hi, r.wild_positions): r for r in out}
        return sorted(uniq.values(), key=lambda r: (r.lo, r.wild_positions)), None
    others = [c.rank for c in nats if c.rank != 1]
    if (has_ace or n_wild) and others and min(others) <= 3 and max(others) >= 12:
        return [], ("the ace sits below the 2 or above the K, never between them "
                    "(K-A-2 wraps) (HR-12)")
    if not errors:
        return [], "no reading as a run (HR-12)"
    return [], min(errors)[1]


def _raw_readings(nats: list[Card], n_wild: int, options: HandOptions
                  ) -> tuple[list[Reading], str, str]:
    """All readings of naturals plus ``n_wild`` (0..2) wilds, or the reason and rule."""
    ranks = {c.rank for c in nats}
    suits = {c.suit for c in nats}
    readings: list[Reading] = []
    reason = None
    if len(ranks) == 1:
        g, reason = _group_readings(nats, n_wild)
        readings += g
    if len(suits) == 1:
        r, run_reason = _run_readings(nats, n_wild, options)
        readings += r
        if reason is None or len(ranks) != 1:
            reason = run_reason
    if readings:
        return readings, "", ""
    if len(ranks) != 1 and len(suits) != 1:
        reason = "neither a group (one rank, HR-13) nor a run (one suit, HR-12)"
    assert reason is not None   # no reading: the group or the run check said why
    rule = "HR-13" if "HR-13" in reason else "HR-14" if reason.endswith(
        "(wilds-per-meld=2, HR-14)") else "HR-12"
    return [], reason, rule


def _natural_hint(cards: list[Card], regime: Regime, options: HandOptions
                  ) -> tuple[str, str] | None:
    """If the meld would be valid with one of its natural aces/jokers wild, say why that card
    is natural here, and under which rule (HR-8, HR-9, HR-46, HR-47)."""
    if any(regime.is_wild(c) for c in cards):
        return None
    for i, c in enumerate(cards):
        if not (c.is_joker or c.rank == 1):
            continue
        nats = [regime.natural(x) for j, x in enumerate(cards) if j != i]
        if any(x.is_joker for x in nats):
            continue
        if _raw_readings(nats, 1, options)[0]:
            if regime.name == "A":
                why, rule = "only the jokers are wild when an ace is turned up", "HR-9"
            elif regime.name == "N" and c.is_joker:
                why, rule = (f"a joker is a natural {regime.joker_as!r} under indicator "
                             f"{regime.indicator!r}", "HR-8")
            elif regime.name in ("N", "no-jokers", "twin-wild"):
                why, rule = (f"only {regime.wild!r} is wild under indicator "
                             f"{regime.indicator!r}", regime.rule)
            else:
                why, rule = "with wild-mode=jokers-only every ace is natural", "HR-46"
            return f"{c!r} is a natural card here: {why} ({rule})", rule
    return None


def _fits(r: Reading, wants: list[set]) -> bool:
    """Whether the declared stand-ins ``wants`` (one set a declared wild) fit reading ``r``,
    each wild its own stand-in (HR-15; a group's one wild may be declared as part of it)."""
    have = [set(x) for x in r.stand_ins()]
    return any(all(w <= have[j] and (r.kind == "group" or w == have[j])
                   for w, j in zip(wants, perm))
               for perm in permutations(range(len(have)), len(wants)))


def _invalid(cards, reason, rule, **kw) -> MeldReport:
    return MeldReport(tuple(cards), False, reason=reason, rule=rule, **kw)


def analyse_meld(cards: list[Card], regime: Regime | None = None,
                 options: HandOptions | None = None,
                 declared: dict[int, tuple[Card, ...]] | None = None) -> MeldReport:
    """Judge one meld (cards in written order) under a wild regime.

    >>> from solver.cards import parse_cards
    >>> ind = make_regime(Card.parse("QS"))
    >>> [analyse_meld(parse_cards(m), ind).value for m in ("9C 10C AS", "AS 9C 10C")]
    [29, 27]
    >>> analyse_meld(parse_cards("AC KC AC"), make_regime(Card.parse("7C"))).reason
    'a meld holds at most one wild; AC, AC are both wild (HR-14)'
    """
    options = options or HandOptions()
    regime = regime or make_regime(Card.parse("7H"), options)
    declared = declared or {}
    cards = list(cards)
    wild_idx = [i for i, c in enumerate(cards) if regime.is_wild(c)]
    wild = cards[wild_idx[0]] if wild_idx else None
    jokers_as = regime.joker_as if any(c.is_joker for c in cards) and regime.name == "N" \
        else None
    for i, c in enumerate(cards):
        if c.is_joker and not regime.jokers_in_play:
            return _invalid(cards, "wild-mode=no-jokers plays without jokers (HR-46)", "HR-46")
    if len(cards) < 3:
        return _invalid(cards, f"a meld has at least 3 cards; {len(cards)} here (HR-11)",
                        "HR-11")
    if len(wild_idx) > wild_limit(options):
        return _invalid(cards, f"{_limit_text(options)}; "
                        + ", ".join(repr(cards[i]) for i in wild_idx) + " are both wild (HR-14)"
                        if len(wild_idx) == 2 else
                        f"{_limit_text(options)}; {len(wild_idx)} here (HR-14)", "HR-14")
    for i in declared:
        if i not in wild_idx:
            return _invalid(cards, f"{cards[i]!r} is not a wild here, so it stands only for "
                            f"itself ({regime.describe()}; HR-15)", "HR-15")
    nats = [regime.natural(c) for i, c in enumerate(cards) if i not in wild_idx]
    readings, reason, rule = _raw_readings(nats, len(wild_idx), options)
    if not readings:
        hint = _natural_hint(cards, regime, options)
        if hint:
            reason, rule = f"{reason}; {hint[0]}", hint[1]
        return _invalid(cards, reason, rule, jokers_as=jokers_as)
    chosen = None
    is_declared = False
    pool = readings
    wants = [set(declared[i]) for i in wild_idx if i in declared]
    if wants:
        pool = [r for r in readings if _fits(r, wants)]
        if not pool:
            can = " or ".join(", ".join("+".join(repr(c) for c in x) for x in r.stand_ins())
                              for r in readings)
            return _invalid(cards, f"{wild!r} cannot stand for "
                            + ", ".join("+".join(repr(c) for c in declared[i])
                                        for i in wild_idx if i in declared)
                            + f" here; it can stand for {can} (HR-15)", "HR-15",
                            readings=tuple(readings), jokers_as=jokers_as)
        if len(pool) == 1:
            chosen, is_declared = pool[0], True
    if chosen is None and len(pool) > 1 and options.run_wild_end == "declared":
        laid = [r for r in pool if r.kind == "run"
                and r.positions_of(cards, regime) == list(range(r.lo, r.hi + 1))]
        if len(laid) == 1:  # the written order is the layout (HR-12): the end is declared
            chosen, is_declared = laid[0], True
    if chosen is None:
        chosen = max(pool, key=lambda r: (r.value, r.wild_positions, r.kind == "run"))
    return MeldReport(tuple(cards), True, chosen.kind, wild, chosen.wild_as, chosen.value,
                      None, None, tuple(readings), chosen, is_declared, jokers_as)


def layout_cards(cards: list[Card], reading: Reading, regime: Regime) -> list[Card]:
    """``cards`` in their table order for ``reading``: runs ascending with the wild in its
    position (HR-12), groups by suit with the wild last.

    >>> from solver.cards import parse_cards
    >>> reg = make_regime(Card.parse("QS"))
    >>> r = analyse_meld(parse_cards("10C AS 9C"), reg, declared={1: (Card.parse("8C"),)})
    >>> layout_cards(list(r.cards), r.chosen, reg)
    [AS, 9C, 10C]
    """
    if reading.kind == "run":
        pos = reading.positions_of(cards, regime)
        return [c for _, c in sorted(zip(pos, cards), key=lambda t: t[0])]
    wild = [c for c in cards if regime.is_wild(c)]
    nat = sorted((c for c in cards if not regime.is_wild(c)),
                 key=lambda c: SUITS.index(regime.natural(c).suit))
    return nat + wild


def meld_text(cards, reading: Reading | None = None, regime: Regime | None = None) -> str:
    if reading is not None and regime is not None:
        cards = layout_cards(list(cards), reading, regime)
    return " ".join(repr(c) for c in cards)



@dataclass(frozen=True)
class CheckResult:
    """``sleuth hand check``: every meld judged, the total of the valid ones, and whether
    together they are a legal initial meld (HR-19, HR-51; HR-52 with ``to_beat``)."""

    reports: tuple[MeldReport, ...]
    total: int
    opens: bool
    needed: int
    regime: Regime

    def to_json(self) -> dict:
        return {"melds": [r.to_json() for r in self.reports], "total": self.total,
                "opens": self.opens, "needed": self.needed, "regime": self.regime.describe()}


def check(text: str, indicator: Card | None, options: HandOptions | None = None, *,
          to_beat: int | None = None) -> CheckResult:
    """Judge melds written ``"7D AC 9D | 5S 5C AC"`` under an indicator.

    >>> r = check("AD 2D 3D 4D 5D | 9H 9S 9D", Card.parse("7H"))   # HR-17 row 22
    >>> r.total, r.opens
    (52, True)
    >>> check("7D AC 9D | 5S 5C AC", Card.parse("7C")).total
    39
    """
    options = options or HandOptions()
    regime = make_regime(indicator, options)
    melds = parse_melds(text)
    check_copies([c for cards, _ in melds for c in cards], regime, options)
    reports = tuple(analyse_meld(cards, regime, options, declared) for cards, declared in melds)
    total = sum(r.value for r in reports if r.valid and r.value is not None)
    needed = options.initial_min
    if options.initial_must_exceed and to_beat is not None:
        needed = max(needed, to_beat + 1)  # HR-52, A13
    opens = all(r.valid for r in reports) and total >= needed
    return CheckResult(reports, total, opens, needed, regime)
