"""One key for one physical card, in every game on the card-location model.

A deck may hold several identical copies of a card (two jokers, the pairs of a Twenty-Two
pack with jokers). The model needs one key per physical card; the copies of a card are
interchangeable, so a key is the card and the copy's index. :class:`Copy` is that key in
every game (Mystery Hand's and Literature's jokers, every card of Twenty-Two's pack), and
:func:`copy_keys` lays out the keys of a deck.

>>> Copy("Jk", 0), str(Copy("Jk", 1))
(Copy(card='Jk', index=0), 'Jk#2')
>>> copy_keys({"Jk": 2, "AS": 1})
{'Jk': (Copy(card='Jk', index=0), Copy(card='Jk', index=1)), 'AS': (Copy(card='AS', index=0),)}
>>> copy_keys({"Jk": 2, "AS": 1}, single="card")["AS"]
('AS',)
"""
from __future__ import annotations

import math
from typing import Hashable, Iterable, Mapping, NamedTuple, Sequence


class Copy(NamedTuple):
    """A physical copy of a card: the card (its name or value) and the copy's index (0-based).

    Its notation is ``<card>#<n>``, counting copies from 1, as the explanations print it."""

    card: Hashable
    index: int  # type: ignore[assignment]  # (a field, shadowing tuple.index)

    def __str__(self) -> str:
        return f"{self.card}#{self.index + 1}"


def copy_keys(counts: Mapping[Hashable, int] | Iterable[tuple[Hashable, int]], *,
              single: str = "copy") -> dict[Hashable, tuple]:
    """card -> the model keys of its physical copies, in the given order.

    ``single="card"`` keys a card the deck holds once by the card itself (the games whose
    cards are otherwise unique); ``"copy"`` gives every card :class:`Copy` keys."""
    if single not in ("copy", "card"):
        raise ValueError(f"single must be 'copy' or 'card', not {single!r}")
    items = counts.items() if isinstance(counts, Mapping) else counts
    out: dict = {}
    for card, n in items:
        if n == 1 and single == "card":
            out[card] = (card,)
        else:
            out[card] = tuple(Copy(card, i) for i in range(n))
    return out


def settle_copies(model, keys: Mapping[str, Sequence], cards: Mapping[str, dict[str, float]],
                  possible_k: Mapping, counting) -> dict[str, dict[str, float]]:
    """``cards`` (card name -> location -> expected copies, summed over the copies' figures
    in ``counting``, a :class:`~solver.model.counting.Counting`) with each value inside what
    is logically possible, ``keys`` the copies of each name and ``possible_k`` each copy's
    possible locations; ``model`` the card-location model counted (``None``: a model
    without CP-SAT's searches, whose claims stay unproved).

    A location a name may have several of holds between ``lo`` (its copies certainly there)
    and ``hi`` (its copies possibly there) copies.  A count that is the same in every
    consistent deal is written as that whole number, exactly: when ``lo == hi``, or when a
    figure lies within the count's float rounding (an estimate: within its error) of a
    whole number that no consistent deal departs from.  That is proved by a statement
    fixing the count, by the counts of every other place the card can be, or else by
    CP-SAT, asked for deals breaking as many of these claims as it can until none breaks
    any.  Any other figure lies strictly between ``lo`` and ``hi``, so that neither
    rounding nor summing makes it look certain or leave the range.
    """
    tol = 8 * max(getattr(counting, "rounding", 0.0), 1e-15) if counting.exact \
        else counting.error
    out: dict[str, dict[str, float]] = {}
    certain: dict[tuple[str, str], int] = {}
    claims: dict[tuple[str, str], int] = {}
    for name, agg in cards.items():
        ks = keys[name]
        row = {}
        for loc, p in agg.items():
            lo = sum(1 for k in ks if possible_k[k] == {loc})
            hi = sum(1 for k in ks if loc in possible_k[k])
            c = round(p)
            if lo == hi:
                certain[name, loc] = lo
            elif lo < c < hi and abs(p - c) <= tol * len(ks):
                claims[name, loc] = c
            row[loc] = min(max(p, math.nextafter(lo, hi)), math.nextafter(hi, lo))
        out[name] = row
    for (name, loc), c in list(claims.items()):
        others = set().union(*(possible_k[k] for k in keys[name])) - {loc}
        if all((name, l) in certain for l in others) and \
                len(keys[name]) - sum(certain[name, l] for l in others) == c:
            certain[name, loc] = claims.pop((name, loc))
    if claims and model is not None:
        # in the model's terms: its copies (a copy placed outright may be left out of it)
        # and the count less the copies placed there outright
        inside = set(model.cards)
        asked = {}
        for (name, loc), c in claims.items():
            ks = [k for k in keys[name] if k in inside]
            asked[name, loc] = (ks, c - sum(1 for k in keys[name] if k not in inside
                                            and possible_k[k] == {loc}))
        fixed = {con.terms: con.lo for con in model.constraints if con.lo == con.hi}
        for claim, (ks, c) in list(asked.items()):
            if fixed.get(model.pairs(ks, [claim[1]])) == c:
                certain[claim] = claims[claim]
                del asked[claim]
        certain.update({claim: claims[claim] for claim in _unbroken(model, asked)})
    for (name, loc), c in certain.items():
        out[name][loc] = float(c)
    return {name: {l: p for l, p in row.items() if p > 0} for name, row in out.items()}


def _unbroken(model, claims: dict[tuple[str, str], tuple[list, int]]) -> set[tuple[str, str]]:
    """The claims ``(name, loc) -> (copies, count)`` (``count`` of the ``copies`` at ``loc``)
    that every consistent deal of ``model`` keeps."""
    open_ = dict(claims)
    while open_:
        now = list(open_)

        def breaking(cp, x, now=now, most=True):
            flags = []
            for claim in now:
                ks, c = open_[claim]
                b = cp.NewBoolVar("")
                li = model.loc_index(claim[1])
                cp.Add(sum(x[model.card_index(k), li] for k in ks) != c).OnlyEnforceIf(b)
                flags.append(b)
            cp.Add(sum(flags) >= 1)
            if most:
                cp.Maximize(sum(flags))

        deal = model.solution(breaking)
        if deal is None:        # none, or none found in time: a plain search decides
            deal = model.solution(lambda cp, x: breaking(cp, x, most=False))
        if deal is None:
            if model.is_consistent(breaking):   # pragma: no cover - found, not in time
                return set()    # (undecided: no claim is made certain)
            break               # no consistent deal breaks any: each is certain
        broken = [claim for claim in now
                  if sum(1 for k in open_[claim][0] if deal[k] == claim[1]) != open_[claim][1]]
        if not broken:          # pragma: no cover - the solver's deal keeps every claim
            break
        for claim in broken:
            del open_[claim]
    return set(open_)
