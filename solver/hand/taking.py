"""May I take that discard?  (HR-29, HR-31, HR-53, HR-54, A4, A10.)

A taken discard must go, this turn, into a new meld with at least two cards from hand; a
player without an initial meld must thereby make a valid initial meld (HR-19, HR-51, HR-52)
or go out (HR-21); it may not be laid off (HR-29) unless ``discard-layoff`` (HR-53).  A
discarded wild is taken only as a natural ace (HR-31; A4: then a natural card), or as
``discarded-wild`` says (HR-54; A10 for ``ace-group-only``).

The answer comes from the same optimiser as ``best`` (:func:`solver.hand.best._plans`): the
taken card is one more kind, with its own candidate melds, that must be melded exactly once;
the stock alternative is the same optimiser with one unknown card that can only be kept.

>>> from solver.cards import Card, parse_cards
>>> r = take(parse_cards("7S 7D KH QH 2C 3C 9D 4S"), Card.parse("7H"), Card.parse("5C"))
>>> r.may_take, r.reason
(False, 'with 7H the best new melds are worth 21 and an initial meld needs 51 (HR-19); the hand cannot go out either (HR-21): take from the stock (HR-29)')
>>> r = take(parse_cards("7S 7D KH QH JH 2C 3C 9D"), Card.parse("7H"), Card.parse("5C"))
>>> r.may_take, [[repr(c) for c in m] for m in r.with_discard.melds], r.with_discard.opens
(True, [['JH', 'QH', 'KH'], ['7S', '7H', '7D']], True)
>>> take(parse_cards("5H 6H"), Card.parse("7H"), Card.parse("5C"), opened=True).rule
'HR-30'
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.cards import Card
from solver.errors import RuleError
from solver.hand.best import WILD, _plans, taken_candidates, taken_identities
from solver.hand.options import HandOptions
from solver.hand.regime import Regime, check_copies, make_regime, penalty


@dataclass
class TurnPlan:
    """One way to play the turn: the new melds, their value (HR-20), whether they open
    (HR-19) and whether the player goes out (HR-34), the discard, cards laid off."""

    melds: list[list[Card]]
    value: int
    opens: bool
    goes_out: bool
    discard: Card | None
    left: list[Card] = field(default_factory=list)
    layoffs: list[tuple[int, list[Card]]] = field(default_factory=list)
    taken_as: Card | str | None = None

    def to_json(self) -> dict:
        out = {"melds": [[repr(c) for c in m] for m in self.melds], "value": self.value,
               "opens": self.opens, "goes_out": self.goes_out,
               "discard": repr(self.discard) if self.discard is not None else None,
               "left": [repr(c) for c in self.left],
               "layoffs": [{"meld": i, "cards": [repr(c) for c in cs]}
                           for i, cs in self.layoffs]}
        if self.taken_as is not None:
            out["taken_as"] = "wild" if self.taken_as == WILD else repr(self.taken_as)
        return out


@dataclass
class TakeResult:
    """``sleuth hand take``: may the discard be taken, the best turn with it, and the best
    the hand can do drawing from the stock instead."""

    hand: list[Card]
    discard: Card
    regime: Regime
    opened: bool
    needed: int
    may_take: bool
    reason: str | None
    rule: str | None
    with_discard: TurnPlan | None
    from_stock: TurnPlan

    @property
    def better(self) -> str:
        """``discard`` or ``stock``: going out first, then the value melded."""
        if self.with_discard is None:
            return "stock"
        w, s = self.with_discard, self.from_stock
        return "discard" if (w.goes_out, w.opens or self.opened, w.value) > \
            (s.goes_out, s.opens or self.opened, s.value) else "stock"

    def to_json(self) -> dict:
        return {"may_take": self.may_take, "reason": self.reason, "rule": self.rule,
                "with_discard": self.with_discard.to_json() if self.with_discard else None,
                "from_stock": self.from_stock.to_json(), "better": self.better,
                "opened": self.opened, "needed": self.needed,
                "regime": self.regime.describe(), "optimal": True}


def _worst(left: list[Card], regime: Regime, options: HandOptions) -> Card | None:
    """The discard of a turn that does not go out: the card left with the highest penalty
    (HR-38), the usual choice; the tests only rely on it being a card left."""
    if not left:
        return None
    return max(left, key=lambda c: (penalty(c, regime, options), repr(c)))


def _layoffs(plan_left: list[Card], table_text: str | None, regime: Regime,
             options: HandOptions, keep: int = 1
             ) -> tuple[list[tuple[int, list[Card]]], list[Card]]:
    """Lay off cards left onto the table while ``keep`` cards stay (one for the discard,
    HR-23, HR-30; two when the player may not go out, HR-32), greedily, largest first."""
    if not table_text:
        return [], plan_left
    from solver.hand.table import Situation, TableMeld, _layoffs as legal, parse_table

    table = parse_table(table_text, regime, options)
    left = list(plan_left)
    done: list[tuple[int, list[Card]]] = []
    while len(left) > keep:
        moves = [m for m in legal(table, left, regime, options, Situation(True, False, False))[0]
                 if len(m.cards) <= len(left) - keep and all(left.count(c) >= m.cards.count(c)
                                                      for c in m.cards)]
        if not moves:
            break
        m = max(moves, key=lambda m: (len(m.cards), m.meld))
        for c in m.cards:
            left.remove(c)
        table[m.meld - 1] = TableMeld(m.result, m.reading)
        done.append((m.meld, list(m.cards)))
    return done, left


def _layoff_alone(card: Card, table_text: str | None, regime: Regime, options: HandOptions
                  ) -> int | None:
    """HR-53: the table meld the taken discard can be laid off on alone (or ``None``)."""
    if not table_text:
        return None
    from solver.hand.table import Situation, parse_table, try_layoff

    for i, meld in enumerate(parse_table(table_text, regime, options), 1):
        try:
            try_layoff(meld, i, [card], {}, regime, options, Situation(True, False, False))
            return i
        except Exception:  # noqa: BLE001 - a refusal (RuleError/NotationError) or none
            continue
    return None


def _needed(options: HandOptions, to_beat: int | None) -> int:
    needed = options.initial_min
    if options.initial_must_exceed and to_beat is not None:
        needed = max(needed, to_beat + 1)   # HR-52, A13
    return needed


def take(hand: list[Card], discard: Card, indicator: Card | None,
         options: HandOptions | None = None, *, opened: bool = False,
         table: str | None = None, discarder_melded: bool = True, to_beat: int | None = None,
         first_turn: bool = False) -> TakeResult:
    """May ``discard`` be taken into ``hand`` (the cards held before the draw)?  And the
    best turn with it against the best without it (see the module doc)."""
    options = options or HandOptions()
    regime = make_regime(indicator, options)
    hand = list(hand)
    if not hand:
        raise RuleError("the hand is empty", text="", rule="HR-30")
    table_cards: list[Card] = []
    if table:
        from solver.hand.table import parse_table

        table_cards = [c for m in parse_table(table, regime, options) for c in m.cards]
    check_copies(hand + [discard] + table_cards, regime, options)
    needed = _needed(options, to_beat)
    no_out = first_turn and not options.first_turn_win   # HR-32

    # the stock: the same optimiser with one unknown card that can only be kept (or thrown)
    init, go, _, _ = _plans(hand, regime, options, unknown=True, keep=1 + no_out)
    if go is not None and not no_out:
        stock = TurnPlan(go.melds, go.value, not opened and go.value >= needed, True, None)
    elif init is not None and (opened or init.value >= needed):
        stock = TurnPlan(init.melds, init.value, not opened, False, None, init.left)
    else:
        stock = TurnPlan([], 0, False, False, None, list(hand))

    ids, why, rule = taken_identities(discard, regime, options)
    best_plan: TurnPlan | None = None
    best_key = None
    best_value = 0
    fits = False
    blocked_out = False
    for kind, allowed in ids:
        tc = taken_candidates(discard, kind, allowed, hand, regime, options)
        if not tc:
            continue
        fits = True
        i_plan, g_plan, _, _ = _plans(hand, regime, options, taken=(discard, tc),
                                      keep=1 + no_out)
        options_here = []
        blocked_out = blocked_out or (g_plan is not None and no_out)
        if g_plan is not None and not no_out:
            options_here.append(TurnPlan(g_plan.melds, g_plan.value,
                                         not opened and g_plan.value >= needed, True,
                                         g_plan.discards[0] if g_plan.discards else None,
                                         [], [], kind))
        if i_plan is not None:
            best_value = max(best_value, i_plan.value)
            if opened or i_plan.value >= needed:
                lay, left = _layoffs(i_plan.left, table, regime, options, 1 + no_out)
                out = len(left) == 1 and not no_out and bool(lay)
                options_here.append(TurnPlan(i_plan.melds, i_plan.value, not opened, out,
                                             _worst(left, regime, options), left, lay, kind))
        for p in options_here:
            key = (p.goes_out, p.value, -len(p.left))
            if best_key is None or key > best_key:
                best_plan, best_key = p, key
    if best_plan is not None:
        return TakeResult(hand, discard, regime, opened, needed, True, None, None, best_plan,
                          stock)
    # HR-53: laid off alone, if the discarder has melded and the taker has or opens now
    if options.discard_layoff and discarder_melded and why is None:
        at = _layoff_alone(discard, table, regime, options)
        if at is not None and (opened or stock.opens):
            lay_plan = TurnPlan(stock.melds, stock.value, stock.opens, False,
                                _worst(stock.left, regime, options), stock.left,
                                [(at, [discard])], None)
            return TakeResult(hand, discard, regime, opened, needed, True, None, None,
                              lay_plan, stock)
    if why is None:
        if fits and best_value == 0:
            why, rule = (f"{discard!r} would meld only with every card of the hand, and every "
                         "turn ends with a discard: take from the stock (HR-29, HR-30)", "HR-30")
        elif best_value == 0:
            why, rule = (f"{discard!r} fits no new meld with two cards from this hand; a taken "
                         "discard must go into a new meld this turn and may not be laid off"
                         + ("" if not options.discard_layoff else
                            " (HR-53 needs the discarder's meld on the table and a meld of "
                            "the taker's)") + ": take from the stock", "HR-29")
            if regime.is_wild(discard) and options.discarded_wild != "free":
                why += (" (a discarded wild is taken only as an ace, HR-31"
                        + (", in a group of aces, A10" if options.discarded_wild ==
                           "ace-group-only" else "") + ")")
                rule = "HR-31" if options.discarded_wild == "as-ace" else "HR-54"
        else:
            why, rule = (f"with {discard!r} the best new melds are worth {best_value} and an "
                         f"initial meld needs {needed} (HR-19); the hand cannot go out either "
                         f"(HR-21): take from the stock (HR-29)", "HR-29")
            if blocked_out:
                why = why.replace("the hand cannot go out either (HR-21)",
                                  "it could go out, but no player goes out on their own "
                                  "first turn (HR-32)")
                rule = "HR-32"
    assert rule is not None   # every refusal above names its rule
    if rule not in why:
        why += f" ({rule})"
    return TakeResult(hand, discard, regime, opened, needed, False, why, rule, None, stock)
