"""Literature: the options (V1..V14, A3/A8/A9/A10), on the one option machinery
:mod:`solver.options`; the table is in :mod:`solver.literature.table`.

Every variant of ``docs/rules/literature.md`` is an option under its rules-file name with
``_`` written ``-``; valued options are ``key=value``.  Shorthands: ``jokers`` and
``54-jokers`` (``deck=54-jokers``), ``bluff``/``surrender`` (``own-card-ask=...``),
``srinivasan`` (the three V14 parts).

>>> o = LiteratureOptions.from_names(["removed-rank=7", "own-card-ask=bluff", "claims-any-time"])
>>> o.removed_rank, o.own_card_ask, o.claims_any_time
(7, 'bluff', True)
>>> o.names()
['claims-any-time', 'removed-rank=7', 'own-card-ask=bluff']
>>> LiteratureOptions.from_names(o.names()) == o, o
(True, LiteratureOptions(claims_any_time=True, removed_rank=7, own_card_ask='bluff'))
>>> LiteratureOptions.from_names(["removed-rank=K"]).names()
['removed-rank=K']
>>> LiteratureOptions.from_names(["deck=56"])
Traceback (most recent call last):
...
solver.errors.NotationError: deck is 48 | 54-jokers | 52-seven-card-highs (V8, V9): 'deck=56'
>>> LiteratureOptions.from_names(["deck=54-jokers", "jokers=distinct"]).joker_kind
'distinct'
>>> LiteratureOptions.from_names(["jokers=distinct"])
Traceback (most recent call last):
...
solver.errors.RuleError: jokers=distinct names the two jokers of deck=54-jokers: give that deck too (V8): 'jokers=distinct'
>>> LiteratureOptions.from_names(["deck=52-seven-card-highs", "removed-rank=7"])
Traceback (most recent call last):
...
solver.errors.RuleError: deck=52-seven-card-highs keeps the 8s: it cannot be combined with removed-rank (V9): 'removed-rank=7'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from solver.cards import rank_name, rank_value
from solver.errors import NotationError, RuleError
from solver.options import FLAG, Option, Options

#: removed rank (V7) -> whether the ace is high in the half-suit order
REMOVABLE = {8: True, 2: True, 1: False, 7: False, 13: False}
PLAYER_COUNTS = (4, 6, 8, 12, 16)
#: whole-name shorthands -> the option names they stand for
SHORTHANDS = {
    "jokers": ("deck=54-jokers",),
    "54-jokers": ("deck=54-jokers",),
    "bluff": ("own-card-ask=bluff",),
    "surrender": ("own-card-ask=surrender",),
    "srinivasan": ("srinivasan-forced-claims", "srinivasan-no-odds-talk",
                   "srinivasan-challenges"),
}


@dataclass(frozen=True)
class RankOption(Option):
    """V7 ``removed-rank``: a rank written by name (``7``, ``K``, ``A``), stored as its value."""

    def parse(self, value, raw):
        try:
            r = rank_value(value or "")
        except NotationError:
            r = None
        if r not in self.values:
            raise NotationError("removed-rank is 2, 7, 8, K or A (a split into two runs of 6 "
                                "consecutive ranks)", text=raw, rule=self.rule)
        return r

    def write(self, value) -> str:
        return f"{self.name}={rank_name(value)}"

    def choices_text(self, sep: str = " | ") -> str:
        return sep.join(rank_name(v) for v in self.choices)


@dataclass(frozen=True, repr=False)
class LiteratureOptions(Options):
    """The variant in force; defaults are the core rules and the A-defaults."""

    GAME = "Literature"
    SPECS = (
        Option("claims-any-time", "claims_any_time", FLAG, "V5",
               "anyone may claim at any moment; the turn stays where it was"),
        Option("misallocation-to-opponents", "misallocation_to_opponents", FLAG, "V6",
               "any incorrect claim, LIT-11(b) included, goes to the opponents"),
        Option("srinivasan-forced-claims", "srinivasan_forced_claims", FLAG, "V14",
               "forced claims go round the team; members may pass"),
        Option("srinivasan-no-odds-talk", "srinivasan_no_odds_talk", FLAG, "V14",
               "table talk only (no effect on records)"),
        Option("srinivasan-challenges", "srinivasan_challenges", FLAG, "V14",
               "a player may challenge the other team on a half-suit"),
        Option("first-asker", "first_asker", ("dealer", "dealer-left", "dealer-right"),
               "LIT-5, V1", "who asks first"),
        RankOption("removed-rank", "removed_rank", (8, 2, 1, 7, 13), "V7",
                   "the rank left out of the deck (LIT-1: the 8s)"),
        Option("deck", "deck", ("48", "54-jokers", "52-seven-card-highs"), "V8, V9",
               "the deck: 48 cards, + 2 jokers (a ninth half-suit), or 52 with 7-card highs"),
        Option("high-half-value", "high_half_value", (1, 2), "V9", "points of a high half"),
        Option("empty-turn-chooser", "empty_turn_chooser", ("player", "last-asker"),
               "LIT-14, V10", "who picks the teammate when the turn reaches an empty hand"),
        Option("own-card-ask", "own_card_ask", ("forbidden", "surrender", "bluff"),
               "LIT-6(d), V11, V12", "asking for a card you hold"),
        Option("count-query", "count_query", ("count", "yes-no"), "LIT-13(b), V13",
               "what a count question tells (nothing new to a recorder, O1)"),
        Option("turn-after-failed-claim", "turn_after_failed_claim", ("claimant", "opponents"),
               "A3", "who has the turn after a claim that is not won"),
        Option("challenge-split", "challenge_split", ("challenged-scores", "challengers-score"),
               "A8", "a challenge whose cards are split between the teams"),
        Option("memory", "memory", ("full", "last-question", "last-two"), "LIT-13(a), A9",
               "what the assistant remembers: everything, the last question, or the last two "
               "actions (house rule)"),
        Option("wrong-claim", "wrong_claim", ("opponents", "minus-one"), "LIT-11(c), A10",
               "a claim with an opponent's card"),
        Option("players", "players", (None, 4, 6, 8, 12, 16), "V2, V3, V4",
               "the number of players (the count comes from players:)"),
        # house rules (issue 18): documented in docs/literature.md next to the rule they change
        Option("jokers", "joker_kind", ("identical", "distinct"), "V8",
               "with deck=54-jokers: a red and a black joker (JkR, JkB), as Fish sites play"),
        Option("claim-turn", "claim_turn", ("holder", "claimant"), "V5",
               "after a claim under claims-any-time: the turn stays, or goes to the claimant"),
        Option("out-of-turn-claims", "out_of_turn_claims", ("penalised", "forbidden"), "LIT-12",
               "an out-of-turn claim is penalised (LIT-12), or refused (except when the "
               "player on turn has no cards)"),
        Option("stop-at-majority", "stop_at_majority", FLAG, "LIT-17",
               "the game ends once a team has won more than half of the points"),
    )

    claims_any_time: bool = False               # V5
    misallocation_to_opponents: bool = False    # V6
    srinivasan_forced_claims: bool = False      # V14
    srinivasan_no_odds_talk: bool = False       # V14 (table talk only: no effect on records)
    srinivasan_challenges: bool = False         # V14
    first_asker: str = "dealer"                 # LIT-5; V1 dealer-left | dealer-right
    removed_rank: int = 8                       # LIT-1; V7 (2, 7, 8, K or A)
    deck: str = "48"                            # LIT-1; V8 54-jokers; V9 52-seven-card-highs
    high_half_value: int = 1                    # V9
    empty_turn_chooser: str = "player"          # LIT-14; V10 last-asker
    own_card_ask: str = "forbidden"             # LIT-6(d); V11 surrender; V12 bluff
    count_query: str = "count"                  # LIT-13(b); V13 yes-no (tells nothing new, O1)
    turn_after_failed_claim: str = "claimant"   # A3
    challenge_split: str = "challenged-scores"  # A8
    memory: str = "full"                        # A9: last-question = human memory limits
    wrong_claim: str = "opponents"              # A10: minus-one
    players: int | None = None                  # V2..V4 (the count comes from `players:`)
    joker_kind: str = "identical"               # V8; house rule jokers=distinct (JkR, JkB)
    claim_turn: str = "holder"                  # V5; house rule claim-turn=claimant
    out_of_turn_claims: str = "penalised"       # LIT-12; house rule out-of-turn-claims=forbidden
    stop_at_majority: bool = False              # LIT-17; house rule stop-at-majority

    @classmethod
    def from_names(cls, names) -> "LiteratureOptions":
        expanded: list[str] = []
        for raw in names:
            key = raw.strip().lower().replace("_", "-")
            expanded.extend(SHORTHANDS.get(key, (raw,)))
        return cast(LiteratureOptions, super().from_names(expanded))

    def check(self) -> None:
        if self.deck == "52-seven-card-highs" and self.removed_rank != 8:
            raise RuleError("deck=52-seven-card-highs keeps the 8s: it cannot be combined with "
                            "removed-rank", text=f"removed-rank={rank_name(self.removed_rank)}",
                            rule="V9")
        if self.joker_kind == "distinct" and self.deck != "54-jokers":
            raise RuleError("jokers=distinct names the two jokers of deck=54-jokers: give that "
                            "deck too", text="jokers=distinct", rule="V8")
        if self.claim_turn == "claimant" and not self.claims_any_time:
            raise RuleError("claim-turn=claimant changes who has the turn after a claim under "
                            "claims-any-time: give that option too", text="claim-turn=claimant",
                            rule="V5")
        if self.out_of_turn_claims == "forbidden" and self.claims_any_time:
            raise RuleError("out-of-turn-claims=forbidden contradicts claims-any-time (anyone "
                            "may claim at any moment)", text="out-of-turn-claims=forbidden",
                            rule="LIT-12, V5")

    @property
    def jokers(self) -> int:
        return 2 if self.deck == "54-jokers" else 0
