"""Table moves: laying off (HR-23, HR-26, HR-56) and wild swaps (HR-24, HR-55, A17), with
table melds never rearranged (HR-25) and nothing before the initial meld (HR-18, HR-21, A6).

A table meld is written like any meld; its written order is its layout, so a wild at a run's
end has the identity its position gives it (or declare it: ``AS=JC``).  A play is
``N: cards`` (put these hand cards into table meld N); it is a swap when the cards are the
natural(s) the meld's wild stands for, otherwise a lay-off.  With ``wilds-per-meld=2`` a meld
may hold two wilds: each is swapped on its own, by the natural it stands for (a run's: its
position's card; 2 + W + W: either missing suit, the other wild then standing for the last).

>>> from solver.cards import parse_cards, Card
>>> res = moves("9C 10C AS", parse_cards("JC 7C 5D"), Card.parse("QS"))
>>> [(m.kind, m.cards_text()) for m in res.moves]
[('swap', 'JC')]
>>> res.blocked[0].reason
'AS stands for JC in 9C 10C AS and keeps that identity until swapped; 7C would need it re-read as 8C; swap in JC first, as HR-24 allows'
>>> res = moves("9C 10C AS", parse_cards("JC 7C 5D"), Card.parse("QS"), plays=["1: JC", "1: AS 7C"])
>>> res.table_text()
['7C AS 9C 10C JC']
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from solver.cards import Card
from solver.errors import NotationError, RuleError
from solver.hand.best import candidates
from solver.hand.events import ascii_int
from solver.hand.melds import (Reading, analyse_meld, layout_cards, parse_meld, parse_melds,
                               position_card, wild_limit)
from solver.hand.options import HandOptions
from solver.hand.regime import Regime, check_copies, make_regime


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table, in table order, with its fixed reading (HR-25)."""

    cards: tuple[Card, ...]
    reading: Reading

    def wild(self, regime: Regime) -> Card | None:
        return next((c for c in self.cards if regime.is_wild(c)), None)

    def n_wild(self, regime: Regime) -> int:
        return sum(regime.is_wild(c) for c in self.cards)

    def text(self) -> str:
        return " ".join(repr(c) for c in self.cards)


@dataclass(frozen=True)
class Move:
    """A legal lay-off or swap: hand ``cards`` into table meld ``meld`` (1-based), the wild
    ``take``-n back (swaps), and the meld that results."""

    kind: str
    meld: int
    cards: tuple[Card, ...]
    result: tuple[Card, ...]
    reading: Reading
    take: Card | None = None
    rule: str = "HR-23"
    then: tuple["Move", ...] = ()
    #: what the wild(s) this lay-off adds stand for (a run's new positions; a group's wild)
    new_wild_as: tuple[Card, ...] = ()

    def cards_text(self) -> str:
        return " ".join(repr(c) for c in self.cards)

    def to_json(self) -> dict:
        out = {"kind": self.kind, "meld": self.meld, "cards": [repr(c) for c in self.cards],
               "result": [repr(c) for c in self.result],
               "wild_as": [repr(c) for c in self.reading.wild_as], "rule": self.rule}
        if self.kind == "swap":
            out["take"] = repr(self.take)
            out["then"] = [m.to_json() for m in self.then]
        return out


@dataclass(frozen=True)
class Blocked:
    """A tempting move the rules refuse, with the reason and rule."""

    meld: int
    cards: tuple[Card, ...]
    reason: str
    rule: str

    def to_json(self) -> dict:
        return {"meld": self.meld, "cards": [repr(c) for c in self.cards],
                "reason": self.reason, "rule": self.rule}


@dataclass
class Situation:
    """The mover's circumstances: ``melded`` (has made the initial meld, HR-18),
    ``going_out`` (goes out this turn, HR-21, HR-26(a)), ``one_card`` (after this turn's
    discard some player holds exactly one card, HR-26(b), A5)."""

    melded: bool = True
    going_out: bool = False
    one_card: bool = False


@dataclass
class MovesResult:
    table: list[TableMeld]
    hand: list[Card]
    regime: Regime
    moves: list[Move]
    blocked: list[Blocked]
    played: list[Move] = field(default_factory=list)
    note: str | None = None

    def table_text(self) -> list[str]:
        return [m.text() for m in self.table]

    def to_json(self) -> dict:
        return {
            "table": [[repr(c) for c in m.cards] for m in self.table],
            "hand": [repr(c) for c in self.hand],
            "played": [m.to_json() for m in self.played],
            "layoffs": [m.to_json() for m in self.moves if m.kind == "lay-off"],
            "swaps": [m.to_json() for m in self.moves if m.kind == "swap"],
            "blocked": [b.to_json() for b in self.blocked],
            "note": self.note,
            "regime": self.regime.describe(),
        }


# ------------------------------------------------------------------------------ parsing

def _bare(reason: str) -> str:
    """A meld reason without its final ``(HR-n)``, for errors that add the rule."""
    return re.sub(r"\s*\((HR-\d+(, HR-\d+)*)\)$", "", reason)


def parse_table(text: str, regime: Regime, options: HandOptions) -> list[TableMeld]:
    """Table melds separated by ``|``; each must be valid and its wild's identity fixed
    (HR-25: by its written position, or declared ``AS=JC``)."""
    out = []
    for i, (cards, declared) in enumerate(parse_melds(text), 1):
        rep = analyse_meld(cards, regime, options, declared)
        quoted = " ".join(repr(c) for c in cards)
        if not rep.valid:
            assert rep.reason is not None   # an invalid meld says why
            raise RuleError(f"table meld {i} is not a valid meld: {_bare(rep.reason)}",
                            text=quoted, rule=rep.rule)
        if len(rep.readings) > 1 and not rep.declared:
            ends = " or ".join(" ".join(f"{rep.wild!r}={c!r}" for c in r.wild_as)
                               for r in rep.readings)
            raise NotationError(f"table meld {i}: write the run in its table order or declare "
                                f"its wild ({ends}); a wild keeps its place (HR-25, A16)",
                                text=quoted)
        assert rep.chosen is not None   # a valid meld has its chosen reading
        out.append(TableMeld(tuple(layout_cards(cards, rep.chosen, regime)), rep.chosen))
    return out


def parse_play(text: str) -> tuple[int, list[Card], dict]:
    """``"2: 8C AS=7C"`` -> (2, cards, declared).

    >>> parse_play("1: jc")
    (1, [JC], {})
    """
    num, sep, rest = text.partition(":")
    if not sep or ascii_int(num.strip()) is None or not rest.strip():
        raise NotationError("expected a play such as '1: 8C' (table meld number: hand cards)",
                            text=text)
    cards, declared = parse_meld(rest)
    n = ascii_int(num.strip())
    assert n is not None   # checked above
    return n, cards, declared


# ------------------------------------------------------------------------------ the rules

def _take(hand: list[Card], cards: list[Card]) -> list[Card]:
    rest = list(hand)
    for c in cards:
        if c not in rest:
            raise RuleError(f"{c!r} is not in the hand ({' '.join(map(repr, hand))}); cards are "
                            "laid off from the hand", text=repr(c), rule="HR-23")
        rest.remove(c)
    return rest


def _swap_needs(meld: TableMeld) -> list[list[Card]]:
    """The natural(s) that free each of the meld's wilds (HR-24): one list per wild."""
    return [list(x) for x in meld.reading.stand_ins()]


def _need_key(cards) -> list[str]:
    return sorted(map(repr, cards))


def _own_face(w: Card | None, need: list[Card]) -> bool:
    return w is not None and w in need


def try_swap(meld: TableMeld, idx: int, cards: list[Card], hand: list[Card], regime: Regime,
             options: HandOptions, sit: Situation, table: list[TableMeld]) -> Move:
    """A wild swap (HR-24) or a :class:`RuleError`."""
    w = meld.wild(regime)
    quoted = " ".join(map(repr, cards))
    if w is None:
        raise RuleError(f"table meld {idx} has no wild to swap", text=quoted, rule="HR-24")
    needs = _swap_needs(meld)
    given = sorted(repr(regime.natural(c)) for c in cards if not regime.is_wild(c))
    which = next((j for j, n in enumerate(needs) if _need_key(n) == given), None)
    if which is None or any(regime.is_wild(c) for c in cards):
        raise RuleError("a swap puts in exactly the natural(s) the wild stands for: "
                        + " or ".join(" ".join(_need_key(n)) for n in needs),
                        text=quoted, rule="HR-24")
    need = needs[which]
    if not sit.melded and not (sit.going_out and options.below_min_swaps):
        raise RuleError("no wild swaps before your initial meld" + (
            "; a below-minimum going-out turn permits lay-offs only (A6; variant "
            "below-min-swaps allows swaps)" if sit.going_out else ""), text=quoted,
            rule="HR-18" if not sit.going_out else "HR-21")
    if _own_face(w, need) and options.own_face_swap == "forbidden":
        raise RuleError(f"{w!r} stands for its own face; own-face-swap=forbidden keeps it",
                        text=quoted, rule="A17")
    # the swapped wild leaves; another wild (wilds-per-meld=2) keeps its place (HR-25)
    wild_idx = [i for i, c in enumerate(meld.cards) if regime.is_wild(c)]
    gone = wild_idx[which] if meld.reading.kind == "run" else wild_idx[-1]
    kept = [c for i, c in enumerate(meld.cards) if i != gone]
    decl = {}
    if meld.reading.kind == "run":
        stands = meld.reading.declare(meld.cards, regime)
        decl = {j: stands[i] for j, i in enumerate(i for i in range(len(meld.cards))
                                                    if i != gone) if i in stands}
    result = kept + list(cards)
    rep = analyse_meld(result, regime, options, decl)
    if not rep.valid:  # pragma: no cover - a swap restores the naturals the wild stood for
        assert rep.reason is not None   # an invalid meld says why
        raise RuleError(rep.reason, text=quoted, rule=rep.rule)
    reading = rep.chosen
    assert reading is not None   # a valid meld has its chosen reading
    if meld.reading.kind == "run":
        reading = next(r for r in rep.readings
                       if (r.lo, r.hi) == (meld.reading.lo, meld.reading.hi)
                       and set(r.wild_positions) <= set(meld.reading.wild_positions))
    move = Move("swap", idx, tuple(cards), tuple(layout_cards(result, reading, regime)),
                reading, take=w, rule="HR-24")
    new_hand = _take(hand, cards) + [w]
    new_table = list(table)
    new_table[idx - 1] = TableMeld(move.result, reading)
    then = tuple(m for m in _layoffs(new_table, new_hand, regime, options, sit)[0]
                 if w in m.cards)
    if options.swap_wild_must_be_used and not then and not _can_meld_wild(new_hand, regime,
                                                                          options):
        raise RuleError(f"the swapped {w!r} could not be melded or laid off this turn "
                        "(swap-wild-must-be-used)", text=quoted, rule="HR-55")
    return Move(move.kind, idx, move.cards, move.result, reading, w, "HR-24", then)


def _can_meld_wild(hand: list[Card], regime: Regime, options: HandOptions) -> bool:
    counts = Counter(regime.natural(c) for c in hand if not regime.is_wild(c))
    n_wild = sum(regime.is_wild(c) for c in hand)
    return any(m.wild for m in candidates(counts, n_wild, options))


def try_layoff(meld: TableMeld, idx: int, cards: list[Card], declared: dict, regime: Regime,
               options: HandOptions, sit: Situation) -> Move:
    """A lay-off (HR-23) keeping the meld's wild where it is (HR-25), or a RuleError."""
    quoted = " ".join(map(repr, cards))
    if not sit.melded and not sit.going_out:
        raise RuleError("no laying off before your initial meld (HR-21: unless you go out "
                        "this turn)", text=quoted, rule="HR-18")
    old_wild = meld.wild(regime)
    new_wilds = [c for c in cards if regime.is_wild(c)]
    n_wild = meld.n_wild(regime) + len(new_wilds)
    if new_wilds and n_wild > wild_limit(options):
        raise RuleError(f"table meld {idx} would hold two wilds" if n_wild == 2 else
                        f"table meld {idx} would hold {n_wild} wilds; a meld holds at most "
                        f"{wild_limit(options)} (wilds-per-meld={options.wilds_per_meld})",
                        text=quoted, rule="HR-14")
    combined = list(meld.cards) + list(cards)
    off = len(meld.cards)
    decl = {off + i: v for i, v in declared.items()}
    if old_wild is not None and meld.reading.kind == "run":  # its place is fixed (HR-25)
        decl.update(meld.reading.declare(meld.cards, regime))
    rep = analyse_meld(combined, regime, options, decl)
    if not rep.valid:
        assert rep.reason is not None   # an invalid meld says why
        free = analyse_meld(combined, regime, options,
                            {k: v for k, v in decl.items() if k >= off})
        if free.valid and old_wild is not None:
            now = "+".join(map(repr, meld.reading.wild_as))
            then = "+".join(map(repr, free.wild_as))
            raise RuleError(f"{old_wild!r} stands for {now} in {meld.text()} and keeps that "
                            f"identity until swapped; {quoted} would need it re-read as {then}",
                            text=quoted, rule="HR-25")
        raise RuleError(f"{quoted} cannot be laid off on {meld.text()}: {_bare(rep.reason)}",
                        text=quoted, rule=rep.rule or "HR-23")
    fits = [r for r in rep.readings if r.kind == meld.reading.kind]
    if meld.reading.kind == "run":
        fits = [r for r in fits if r.lo <= meld.reading.lo and r.hi >= meld.reading.hi]
    if not fits:
        raise RuleError(f"{quoted} would turn {meld.text()} into another kind of meld; table "
                        "melds are never rearranged", text=quoted, rule="HR-25")
    undeclared = new_wilds and not any(
        regime.is_wild(cards[i]) for i in declared)  # the order of added cards says nothing
    if len(fits) > 1 and undeclared and options.run_wild_end == "declared":
        old = meld.reading.wild_positions
        ends = " or ".join(" ".join(f"{new_wilds[0]!r}={position_card(p, r.suit)!r}"
                                    for p in r.wild_positions if p not in old) for r in fits)
        raise NotationError(f"say which card the wild stands for: {ends} (A16)", text=quoted)
    if undeclared:
        reading = max(fits, key=lambda r: (r.value, r.wild_positions))
    else:
        reading = rep.chosen if rep.chosen in fits else max(fits, key=lambda r: r.value)
    rule = "HR-23"
    if meld.reading.kind == "group" and old_wild is not None:
        # 2 + W gaining one natural: 8C 8H W + 8S (HR-26); a second wild
        # (wilds-per-meld=2) narrows the first wild to one suit as well
        if not (sit.going_out or sit.one_card or options.pair_wild_third_card):
            what = ("a second wild (wilds-per-meld=2: it narrows the first to one suit)"
                    if new_wilds else "a single missing natural")
            raise RuleError(f"{what} may not be added to the 2 + wild group "
                            f"{meld.text()} unless you go out this turn or a player is down to "
                            "one card (variant pair-wild-third-card lifts this, HR-56)",
                            text=quoted, rule="HR-26")
        rule = "HR-56" if options.pair_wild_third_card and not (sit.going_out or sit.one_card) \
            else "HR-26"
    new_wild_as: tuple[Card, ...] = ()
    if new_wilds:
        if reading.kind == "run":
            old_set = set(meld.reading.wild_positions)
            new_wild_as = tuple(position_card(p, reading.suit) for p in reading.wild_positions
                                if p not in old_set)
        else:
            new_wild_as = reading.stand_ins()[-1]
    return Move("lay-off", idx, tuple(cards), tuple(layout_cards(combined, reading, regime)),
                reading, rule=rule, new_wild_as=new_wild_as)


def _is_swap(cards: list[Card], meld: TableMeld, regime: Regime) -> bool:
    """Whether ``cards`` are exactly what frees one of the meld's wilds (HR-24)."""
    if meld.wild(regime) is None or any(regime.is_wild(c) for c in cards):
        return False
    given = sorted(repr(regime.natural(c)) for c in cards)
    return any(_need_key(n) == given for n in _swap_needs(meld))


def _pick(hand: list[Card], regime: Regime, want: Card | None) -> Card | None:
    """A physical hand card of natural identity ``want`` (or a wild for ``None``)."""
    for c in hand:
        if want is None and regime.is_wild(c):
            return c
        if want is not None and not regime.is_wild(c) and regime.natural(c) == want:
            return c
    return None


def _proposals(meld: TableMeld, hand: list[Card], regime: Regime, longest: int = 13,
               limit: int = 1):
    """Hand-card combinations worth trying on a meld: run extensions (each prefix, the wild
    anywhere in it), a 4th card or the wild for groups, and single cards of its suit/rank
    (to explain refusals)."""
    r = meld.reading
    has_wild = meld.n_wild(regime)
    out: list[tuple[list[Card], dict]] = []
    if r.kind == "run":
        for step in (-1, 1):
            def grow(pos, used: list[Card], decl: dict, wild_used: int):
                nxt = pos + step
                lo = min(r.lo, nxt)
                hi = max(r.hi, nxt)
                if nxt < 1 or nxt > 14 or hi - lo + 1 > longest:
                    return
                rest = list(hand)
                for c in used:
                    rest.remove(c)
                nat = _pick(rest, regime, position_card(nxt, r.suit))
                if nat is not None:
                    out.append((used + [nat], dict(decl)))
                    grow(nxt, used + [nat], decl, wild_used)
                w = _pick(rest, regime, None)
                if w is not None and has_wild + wild_used < limit:
                    d = dict(decl)
                    d[len(used)] = (position_card(nxt, r.suit),)
                    out.append((used + [w], d))
                    grow(nxt, used + [w], d, wild_used + 1)
            grow(r.lo if step < 0 else r.hi, [], {}, 0)
        for c in hand:
            if not regime.is_wild(c) and regime.natural(c).suit == r.suit:
                out.append(([c], {}))
    else:
        for c in hand:
            if not regime.is_wild(c) and regime.natural(c).rank == r.rank:
                out.append(([c], {}))
        w = _pick(hand, regime, None)
        if w is not None:
            out.append(([w], {}))
    seen, uniq = set(), []
    for cards, decl in out:
        key = (tuple(sorted(map(repr, cards))), tuple(sorted((k, v) for k, v in decl.items())))
        if key not in seen:
            seen.add(key)
            uniq.append((cards, decl))
    return uniq


def _layoffs(table: list[TableMeld], hand: list[Card], regime: Regime, options: HandOptions,
             sit: Situation) -> tuple[list[Move], list[Blocked]]:
    legal: list[Move] = []
    blocked: list[Blocked] = []
    for i, meld in enumerate(table, 1):
        for cards, decl in _proposals(meld, hand, regime,
                                      14 if options.runs == "14-card" else 13,
                                      wild_limit(options)):
            if _is_swap(cards, meld, regime):
                continue  # that is the swap (HR-24), listed with the swaps
            try:
                legal.append(try_layoff(meld, i, cards, decl, regime, options, sit))
            except RuleError as e:
                if e.rule in ("HR-25", "HR-26"):
                    blocked.append(Blocked(i, tuple(cards), e.message, e.rule))
            except NotationError:  # an undeclared wild end: the proposals declare both
                pass
    return legal, blocked


def _swaps(table, hand, regime, options, sit) -> tuple[list[Move], list[Blocked]]:
    legal, blocked = [], []
    for i, meld in enumerate(table, 1):
        if meld.wild(regime) is None:
            continue
        for need in _swap_needs(meld):
            rest = list(hand)
            give = []
            for n in need:
                c = _pick(rest, regime, n)
                if c is None:
                    break
                give.append(c)
                rest.remove(c)
            else:
                try:
                    legal.append(try_swap(meld, i, give, hand, regime, options, sit, table))
                except RuleError as e:
                    assert e.rule is not None   # try_swap names the rule of each refusal
                    blocked.append(Blocked(i, tuple(give), e.message, e.rule))
    return legal, blocked


def _hr25_hints(blocked: list[Blocked], table, hand, regime) -> list[Blocked]:
    out = []
    for b in blocked:
        reason = b.reason
        if b.rule == "HR-25":
            need = next((n for n in _swap_needs(table[b.meld - 1])
                         if all(_pick(hand, regime, c) is not None for c in n)), None)
            if need is not None:
                reason += "; swap in " + " ".join(map(repr, need)) + " first, as HR-24 allows"
        out.append(Blocked(b.meld, b.cards, reason, b.rule))
    return out


def moves(table: str, hand: list[Card], indicator: Card | None,
          options: HandOptions | None = None, *, melded: bool = True, going_out: bool = False,
          one_card: bool = False, plays: list[str] | tuple = ()) -> MovesResult:
    """Apply ``plays`` in order (each refused with its rule if illegal), then list every legal
    lay-off and swap of the hand on the table, and the tempting ones the rules refuse."""
    options = options or HandOptions()
    regime = make_regime(indicator, options)
    melds = parse_table(table, regime, options)
    hand = list(hand)
    check_copies([c for m in melds for c in m.cards] + hand, regime, options)
    sit = Situation(melded, going_out, one_card)
    played = []
    for text in plays:
        idx, cards, decl = parse_play(text)
        if not 1 <= idx <= len(melds):
            raise NotationError(f"there are {len(melds)} table melds", text=text)
        meld = melds[idx - 1]
        rest = _take(hand, cards)
        if _is_swap(cards, meld, regime):
            move = try_swap(meld, idx, cards, hand, regime, options, sit, melds)
            assert move.take is not None   # a swap takes the wild back
            hand = rest + [move.take]
        else:
            try:
                move = try_layoff(meld, idx, cards, decl, regime, options, sit)
            except RuleError as e:
                if e.rule == "HR-25":
                    hint = _hr25_hints([Blocked(idx, tuple(cards), e.message, e.rule)], melds,
                                       hand, regime)[0].reason
                    raise RuleError(hint, text=e.text, rule="HR-25") from None
                raise
            hand = rest
        if not hand:
            raise RuleError("every turn ends with a discard: keep at least one card", text=text,
                            rule="HR-30")
        melds[idx - 1] = TableMeld(move.result, move.reading)
        played.append(move)
    note = None
    if not melded and not going_out:
        note = ("no lay-offs or swaps before your initial meld (HR-18); a player going out "
                "this turn may lay off (HR-21)")
        return MovesResult(melds, hand, regime, [], [], played, note)
    lay, blocked = _layoffs(melds, hand, regime, options, sit)
    sw, sw_blocked = _swaps(melds, hand, regime, options, sit)
    if not melded and not options.below_min_swaps:
        note = "a below-minimum going-out turn may lay off but not swap (HR-21, A6)"
    blocked = _hr25_hints(blocked, melds, hand, regime) + sw_blocked
    # one entry per distinct refusal
    uniq, seen = [], set()
    for b in blocked:
        key = (b.meld, tuple(map(repr, b.cards)), b.rule)
        if key not in seen:
            seen.add(key)
            uniq.append(b)
    return MovesResult(melds, hand, regime, sw + lay, uniq, played, note)

