"""The redeal check (HR-10, A8).

A player holding (a) four identical pairs, (b) three identical pairs plus a wild card, or
(c) two identical pairs plus both jokers may show them and demand a redeal before the first
discard.  An identical pair is two copies of one card; Jk + Jk counts.  A8: pairs are judged
by physical identity (two wild aces form a pair; ``redeal-wild-pairs=exclude`` says they do
not), and the extra wild of (b) lies outside the pairs.  (c) is void without jokers (HR-46).

>>> from solver.cards import parse_cards, Card
>>> r = redeal(parse_cards("5H 5H 9S 9S KD KD 2C 2C 3H 4H 6S 7S 8D 10C"), Card.parse("7C"))
>>> r.allowed, r.condition, r.pairs
(True, 'a', [9S, 5H, KD, 2C])
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.cards import Card
from solver.errors import RuleError
from solver.hand.options import HandOptions
from solver.hand.regime import Regime, check_copies, make_regime


@dataclass(frozen=True)
class RedealResult:
    allowed: bool
    condition: str | None  # 'a', 'b' or 'c'
    pairs: list[Card]
    extra: list[Card]  # the wild of (b) or the jokers of (c)
    reason: str
    regime: Regime

    def to_json(self) -> dict:
        return {"redeal": self.allowed, "condition": self.condition,
                "pairs": [repr(c) for c in self.pairs], "extra": [repr(c) for c in self.extra],
                "reason": self.reason, "regime": self.regime.describe()}


def redeal(hand: list[Card], indicator: Card | None,
           options: HandOptions | None = None) -> RedealResult:
    """May this hand (14 cards, or the starter's 15) demand a redeal (HR-10)?"""
    options = options or HandOptions()
    regime = make_regime(indicator, options)
    hand = list(hand)
    if len(hand) not in (14, 15):
        raise RuleError(f"a redeal is asked with the dealt hand (14 cards, 15 for the "
                        f"starter) before the first discard; {len(hand)} cards given",
                        text=" ".join(map(repr, hand)), rule="HR-10")
    check_copies(hand, regime, options)
    counts = Counter(hand)
    pairs = sorted(c for c, k in counts.items() if k == 2
                   and not (regime.is_wild(c) and options.redeal_wild_pairs == "exclude"))
    wilds = [c for c in hand if regime.is_wild(c)]
    jokers = [c for c in hand if c.is_joker]
    natural_pairs = [c for c in pairs if not c.is_joker]

    def res(cond, ps, extra, why):
        return RedealResult(cond is not None, cond, ps, extra, why, regime)

    if len(pairs) >= 4:
        return res("a", pairs[:4] if len(pairs) == 4 else pairs, [],
                   f"{len(pairs)} identical pairs (HR-10a)")
    # (b): three pairs plus a wild that is not in one of them
    spare_wild = [c for c in wilds if c not in pairs]
    if len(pairs) >= 3 and spare_wild:
        return res("b", pairs, spare_wild[:1],
                   f"three identical pairs plus the wild {spare_wild[0]!r} (HR-10b)")
    if regime.jokers_in_play and len(jokers) == 2 and len(natural_pairs) >= 2:
        return res("c", natural_pairs, jokers, "two identical pairs plus both jokers (HR-10c)")
    why = (f"{len(pairs)} identical pair(s)" + (f" ({' '.join(map(repr, pairs))})" if pairs
                                                else "")
           + (f", wild {' '.join(map(repr, wilds))}" if wilds else "")
           + "; a redeal needs four pairs, three pairs and a wild, or two pairs and both "
             "jokers (HR-10)")
    return res(None, pairs, [], why)
