"""The epilogue count (MY-21, D6, A8, A10): tally, plurality, and the tie-breaks.

>>> from solver.mysterium.options import MysteriumOptions
>>> o = MysteriumOptions()
>>> c = count_votes({"Ana": 1, "Ben": 2, "Cleo": 2}, ("Ana", "Ben", "Cleo"),
...                 {"Ana": 9, "Ben": 3, "Cleo": 4}, None, o)
>>> c.verdict, c.rule
(2, 'MY-21: plurality')
>>> c = count_votes({"Ana": 1, "Ben": 2}, ("Ana", "Ben"), {"Ana": 3, "Ben": 5}, None, o)
>>> c.verdict, c.tied
(2, (1, 2))
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TypedDict

from solver.mysterium.options import MysteriumOptions


class _CountBase(TypedDict):
    """The fields of :class:`Count` that every outcome of :func:`count_votes` shares."""

    votes: dict[str, int]
    tally: dict[int, int]
    complete: bool
    revealer: str | None


@dataclass(frozen=True)
class Count:
    """The result of counting the votes.

    ``verdict`` is ``None`` while votes are missing or when the tie-breaks leave a choice
    (``pending``: the groups the eldest still has to choose between).
    """

    votes: dict[str, int]
    tally: dict[int, int]
    complete: bool
    verdict: int | None
    rule: str
    tied: tuple[int, ...] = ()
    pending: tuple[int, ...] = ()
    revealer: str | None = None
    steps: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        return {"votes": dict(self.votes), "tally": {str(g): n for g, n in
                                                      sorted(self.tally.items())},
                "complete": self.complete, "verdict": self.verdict, "rule": self.rule,
                "tied": list(self.tied), "pending": list(self.pending),
                "revealer": self.revealer, "steps": list(self.steps)}


def revealer(scores: dict[str, int] | None, eldest: str | None) -> str | None:
    """MY-21: the psychic highest on the clairvoyancy track reveals the votes; the eldest
    breaks a tie for that job (``None`` when that tie cannot be broken from the record)."""
    if not scores:
        return None
    best = max(scores.values())
    tops = [p for p, s in scores.items() if s == best]
    if len(tops) == 1:
        return tops[0]
    return eldest if eldest in tops else None


def count_votes(votes: dict[str, int], voters: tuple[str, ...], scores: dict[str, int] | None,
                eldest: str | None, options: MysteriumOptions) -> Count:
    """Count the epilogue votes (MY-21; D6).

    ``scores`` are the voters' clairvoyancy track positions (``None`` with 2 or 3 players,
    who have no track and cast one agreed vote, MY-20).  Tie-breaks: the group of the psychic
    furthest along the track; by default (A8) only among those who voted for a tied group,
    with ``tie-break=top-track`` the top psychic's group even outside the tie (MY-21 read
    literally); still tied, the eldest player's vote.  ``count=majority`` (A10) needs more
    than half of the votes; otherwise every group that got votes counts as tied.
    """
    tally = dict(Counter(votes.values()))
    complete = all(v in votes for v in voters)
    rev = revealer(scores, eldest)
    base = _CountBase(votes=dict(votes), tally=tally, complete=complete, revealer=rev)
    if not complete:
        missing = [v for v in voters if v not in votes]
        return Count(**base, verdict=None,
                     rule="MY-20: waiting for the votes of " + ", ".join(missing))
    if not votes:
        return Count(**base, verdict=None, rule="MY-20: no votes")
    if scores is None:  # 2 or 3 players: one (agreed) vote, MY-20
        group = next(iter(votes.values()))
        return Count(**base, verdict=group, rule="MY-20: the psychics' one agreed vote")
    steps: list[str] = []
    top = max(tally.values())
    leaders = tuple(sorted(g for g, n in tally.items() if n == top))
    if options.count == "majority":  # A10 alternative
        if 2 * top > len(votes):
            return Count(**base, verdict=leaders[0], rule="A10: majority")
        tied = tuple(sorted(tally))
        steps.append("A10: no group has a majority; every group with votes is tied")
    else:
        if len(leaders) == 1:
            return Count(**base, verdict=leaders[0], rule="MY-21: plurality")
        tied = leaders
        steps.append("MY-21: groups " + ", ".join(map(str, tied)) + f" tie with {top} votes")
    if options.tie_break == "top-track":
        pool = list(votes)
        who = "the psychic furthest along the clairvoyancy track"
    else:
        pool = [v for v in votes if votes[v] in tied]
        who = "the psychic furthest along the clairvoyancy track among the tied groups' voters"
    best = max(scores.get(v, 0) for v in pool)
    tops = [v for v in pool if scores.get(v, 0) == best]
    groups = tuple(sorted({votes[v] for v in tops}))
    rule_tb = "MY-21 tie-break" + (" (A8)" if options.tie_break == "tied-voters" else
                                   " (tie-break=top-track)")
    if len(groups) == 1:
        steps.append(f"{rule_tb}: {who} ({', '.join(tops)}, track {best}) chose group "
                     f"{groups[0]}")
        return Count(**base, verdict=groups[0], rule=rule_tb, tied=tied, steps=tuple(steps))
    steps.append(f"{rule_tb}: {', '.join(tops)} share track {best} and chose groups "
                 + ", ".join(map(str, groups)))
    rule_el = "MY-21: still tied, the eldest player's vote decides"
    if eldest is None:
        return Count(**base, verdict=None, rule=rule_el + " (no 'eldest:' in the header)",
                     tied=tied, pending=groups, steps=tuple(steps))
    ev = votes.get(eldest)
    if options.tie_break == "top-track" or ev in groups:
        steps.append(f"the eldest, {eldest}, voted group {ev}")
        return Count(**base, verdict=ev, rule=rule_el, tied=tied, steps=tuple(steps))
    steps.append(f"the eldest, {eldest}, voted group {ev}, outside the tie (A8)")
    return Count(**base, verdict=None, rule=rule_el + "; the eldest voted outside the tie (A8)",
                 tied=tied, pending=groups, steps=tuple(steps))
