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

from typing import Hashable, Iterable, Mapping, NamedTuple


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
