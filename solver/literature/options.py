"""Literature: the options (V1..V14, A3/A8/A9/A10); the table is in :mod:`solver.literature.table`.

Every variant of ``shared/rules/literature.md`` is an option under its rules-file name with
``_`` written ``-``; valued options are ``key=value``.

>>> o = LiteratureOptions.from_names(["removed-rank=7", "own-card-ask=bluff", "claims-any-time"])
>>> o.removed_rank, o.own_card_ask, o.claims_any_time
(7, 'bluff', True)
>>> o.names()
['claims-any-time', 'removed-rank=7', 'own-card-ask=bluff']
>>> LiteratureOptions.from_names(["deck=56"])
Traceback (most recent call last):
...
solver.errors.NotationError: deck is 48 | 54-jokers | 52-seven-card-highs (V8, V9): 'deck=56'
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from solver.cards import rank_name, rank_value
from solver.errors import NotationError, RuleError
from solver.options import option_items

#: flag option -> (field, rule)
FLAGS = {
    "claims-any-time": ("claims_any_time", "V5"),
    "misallocation-to-opponents": ("misallocation_to_opponents", "V6"),
    "srinivasan-forced-claims": ("srinivasan_forced_claims", "V14"),
    "srinivasan-no-odds-talk": ("srinivasan_no_odds_talk", "V14"),
    "srinivasan-challenges": ("srinivasan_challenges", "V14"),
}
#: valued option -> (field, allowed values (None: special), rule, help)
VALUED = {
    "first-asker": ("first_asker", ("dealer", "dealer-left", "dealer-right"), "V1"),
    "removed-rank": ("removed_rank", None, "V7"),
    "deck": ("deck", ("48", "54-jokers", "52-seven-card-highs"), "V8, V9"),
    "high-half-value": ("high_half_value", ("1", "2"), "V9"),
    "empty-turn-chooser": ("empty_turn_chooser", ("player", "last-asker"), "V10"),
    "own-card-ask": ("own_card_ask", ("forbidden", "surrender", "bluff"), "V11, V12"),
    "count-query": ("count_query", ("count", "yes-no"), "V13"),
    "turn-after-failed-claim": ("turn_after_failed_claim", ("claimant", "opponents"), "A3"),
    "challenge-split": ("challenge_split", ("challenged-scores", "challengers-score"), "A8"),
    "memory": ("memory", ("full", "last-question"), "A9"),
    "wrong-claim": ("wrong_claim", ("opponents", "minus-one"), "A10"),
    "players": ("players", ("4", "6", "8", "12", "16"), "V2, V3, V4"),
}
#: removed rank (V7) -> whether the ace is high in the half-suit order
REMOVABLE = {8: True, 2: True, 1: False, 7: False, 13: False}
PLAYER_COUNTS = (4, 6, 8, 12, 16)


@dataclass(frozen=True)
class LiteratureOptions:
    """The variant in force; defaults are the core rules and the A-defaults."""

    first_asker: str = "dealer"                 # LIT-5; V1 dealer-left | dealer-right
    claims_any_time: bool = False               # V5
    misallocation_to_opponents: bool = False    # V6
    removed_rank: int = 8                       # LIT-1; V7 (2, 7, 8, K or A)
    deck: str = "48"                            # LIT-1; V8 54-jokers; V9 52-seven-card-highs
    high_half_value: int = 1                    # V9
    empty_turn_chooser: str = "player"          # LIT-14; V10 last-asker
    own_card_ask: str = "forbidden"             # LIT-6(d); V11 surrender; V12 bluff
    count_query: str = "count"                  # LIT-13(b); V13 yes-no (tells nothing new, O1)
    srinivasan_forced_claims: bool = False      # V14
    srinivasan_no_odds_talk: bool = False       # V14 (table talk only: no effect on records)
    srinivasan_challenges: bool = False         # V14
    turn_after_failed_claim: str = "claimant"   # A3
    challenge_split: str = "challenged-scores"  # A8
    memory: str = "full"                        # A9: last-question = human memory limits
    wrong_claim: str = "opponents"              # A10: minus-one
    players: int | None = None                  # V2..V4 (the count comes from `players:`)

    @classmethod
    def from_names(cls, names) -> "LiteratureOptions":
        kw: dict = {}
        for raw, name, value in option_items(names):
            if value is not None:
                key = name
                if key not in VALUED:
                    raise NotationError("unknown Literature option; valued options are "
                                        + ", ".join(VALUED), text=raw)
                fname, allowed, rule = VALUED[key]
                if key == "removed-rank":
                    try:
                        r = rank_value(value)
                    except NotationError:
                        r = None
                    if r not in REMOVABLE:
                        raise NotationError("removed-rank is 2, 7, 8, K or A (a split into two "
                                            "runs of 6 consecutive ranks)", text=raw, rule="V7")
                    kw[fname] = r
                    continue
                if value not in allowed:
                    raise NotationError(f"{key} is {' | '.join(allowed)}", text=raw, rule=rule)
                kw[fname] = int(value) if key in ("high-half-value", "players") else value
            elif name == "srinivasan":
                kw.update(srinivasan_forced_claims=True, srinivasan_no_odds_talk=True,
                          srinivasan_challenges=True)
            elif name in FLAGS:
                kw[FLAGS[name][0]] = True
            elif name in ("jokers", "54-jokers"):
                kw["deck"] = "54-jokers"
            elif name in ("bluff", "surrender"):
                kw["own_card_ask"] = name
            else:
                raise NotationError("unknown Literature option; expected one of standard, "
                                    + ", ".join(FLAGS) + ", srinivasan, "
                                    + ", ".join(f"{k}=..." for k in VALUED), text=raw)
        opts = cls(**kw)
        if opts.deck == "52-seven-card-highs" and opts.removed_rank != 8:
            raise RuleError("deck=52-seven-card-highs keeps the 8s: it cannot be combined with "
                            "removed-rank", text=f"removed-rank={rank_name(opts.removed_rank)}",
                            rule="V9")
        return opts

    def names(self) -> list[str]:
        out = [k for k, (f, _) in FLAGS.items() if getattr(self, f)]
        for key, (fname, _, _) in VALUED.items():
            v = getattr(self, fname)
            d = next(f.default for f in fields(self) if f.name == fname)
            if v != d:
                out.append(f"{key}={rank_name(v) if key == 'removed-rank' else v}")
        return out

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                         if getattr(self, f.name) != f.default)
        return f"LiteratureOptions({args})"

    @property
    def jokers(self) -> int:
        return 2 if self.deck == "54-jokers" else 0
