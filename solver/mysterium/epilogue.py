"""The epilogue count (MY-21, D6, A8, A10, A11): tally, plurality, and the tie-breaks.

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
    revealer_candidates: tuple[str, ...]


@dataclass(frozen=True)
class Count:
    """The result of counting the votes.

    ``verdict`` is ``None`` while votes are missing or when the tie-breaks leave a choice
    (``pending``: the groups the eldest still has to choose between).  ``revealer`` is the
    psychic who reveals the votes (MY-21), ``None`` when the record cannot say which of
    ``revealer_candidates`` (the psychics tied highest on the track) the eldest picked.
    """

    votes: dict[str, int]
    tally: dict[int, int]
    complete: bool
    verdict: int | None
    rule: str
    tied: tuple[int, ...] = ()
    pending: tuple[int, ...] = ()
    revealer: str | None = None
    revealer_candidates: tuple[str, ...] = ()
    steps: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        return {"votes": dict(self.votes), "tally": {str(g): n for g, n in
                                                      sorted(self.tally.items())},
                "complete": self.complete, "verdict": self.verdict, "rule": self.rule,
                "tied": list(self.tied), "pending": list(self.pending),
                "revealer": self.revealer,
                "revealer_candidates": list(self.revealer_candidates),
                "steps": list(self.steps)}


def revealer_candidates(scores: dict[str, int] | None) -> tuple[str, ...]:
    """MY-21: the psychics highest on the clairvoyancy track, one of whom reveals the votes
    (in track order as given; empty without a track, 2 or 3 players)."""
    if not scores:
        return ()
    best = max(scores.values())
    return tuple(p for p, s in scores.items() if s == best)


def revealer(scores: dict[str, int] | None, eldest: str | None) -> str | None:
    """MY-21: the psychic highest on the clairvoyancy track reveals the votes; the eldest
    breaks a tie for that job.  ``None`` when that tie is left to the eldest's choice and the
    record cannot say whom they picked: the eldest is not named, or is not among the tied
    psychics (then the choice is theirs and is not written down; see
    :func:`revealer_candidates`).  An eldest among the tied takes the job."""
    tops = revealer_candidates(scores)
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
    literally).  Still tied, the eldest player's vote decides: whenever the eldest voted for
    one of the groups in contention (the groups tied on votes, and with ``top-track`` the
    groups the top psychics chose), that group is the verdict, under either tie-break.  An
    eldest who voted for a group outside it (A11): by default (``eldest-outside=choose``)
    the eldest chooses among the groups in contention, written as a ``verdict:`` line
    (``pending``); with ``eldest-outside=vote`` their vote is the verdict all the same.
    ``count=majority`` (A10) needs more than half of the votes; otherwise every group that
    got votes counts as tied.
    """
    tally = dict(Counter(votes.values()))
    complete = all(v in votes for v in voters)
    rev = revealer(scores, eldest)
    cands = revealer_candidates(scores)
    base = _CountBase(votes=dict(votes), tally=tally, complete=complete, revealer=rev,
                      revealer_candidates=(rev,) if rev is not None else cands)
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
        steps.append("MY-21: groups " + ", ".join(map(str, tied))
                     + f" tie with {top} vote{'s' if top != 1 else ''}")
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
    # MY-21's last step: "the eldest player's vote decides".  The groups in contention are
    # the vote tie (and, with top-track, the groups the top psychics chose outside it).
    contention = tuple(sorted(set(tied) | set(groups)))
    rule_el = "MY-21: still tied, the eldest player's vote decides"
    literal = options.eldest_outside == "vote"
    if eldest is None:
        # the eldest's vote may be any group in contention, or (A11, eldest-outside=vote)
        # any group that got a vote
        return Count(**base, verdict=None, rule=rule_el + " (no 'eldest:' in the header)",
                     tied=tied, pending=tuple(sorted(tally)) if literal else contention,
                     steps=tuple(steps))
    ev = votes.get(eldest)
    if ev in contention:
        steps.append(f"the eldest, {eldest}, voted group {ev}, one of the tied groups")
        return Count(**base, verdict=ev, rule=rule_el, tied=tied, steps=tuple(steps))
    if literal and ev is not None:
        steps.append(f"the eldest, {eldest}, voted group {ev}, outside the tie; "
                     "their vote decides all the same (eldest-outside=vote, A11)")
        return Count(**base, verdict=ev, rule=rule_el + " (eldest-outside=vote, A11)",
                     tied=tied, steps=tuple(steps))
    said = f"voted group {ev}, outside the tie" if ev is not None else "cast no vote"
    steps.append(f"the eldest, {eldest}, {said}: the eldest chooses among groups "
                 + ", ".join(map(str, contention)) + " (A11)")
    return Count(**base, verdict=None,
                 rule="MY-21: still tied, the eldest decides; the eldest voted outside the "
                      "tie (A11)" if ev is not None else
                      "MY-21: still tied, the eldest decides (A11)",
                 tied=tied, pending=contention, steps=tuple(steps))
