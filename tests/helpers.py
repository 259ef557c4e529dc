"""Record helpers shared by the test modules: a record from a header's fields and a body.

>>> r = record("twenty-two", "Cleo deals", players="Ana Ben Cleo", dealer="Cleo", me="Ana")
>>> r.header.game, r.header.players, r.header.dealer, r.header.me
('twenty-two', ('Ana', 'Ben', 'Cleo'), 'Cleo', 'Ana')
>>> header("literature", players="Ana Ben Cleo Dev", variant="deck=54-jokers")
'game: literature\\nvariant: deck=54-jokers\\nplayers: Ana Ben Cleo Dev\\n'
>>> len(lines("game: mystery-hand\\nplayers: Ana Ben Cleo\\n", "Ana: ?", "Ben: ?").statements)
2
"""
from __future__ import annotations

from solver.records import Record, parse_record


def header(game: str, *, players: str, variant: str = "", dealer: str | None = None,
           me: str | None = None, extra: str = "") -> str:
    """The header lines of a record (``variant``, ``dealer``, ``me`` left out when empty;
    ``extra``: more header lines, written last)."""
    h = f"game: {game}\n"
    if variant:
        h += f"variant: {variant}\n"
    h += f"players: {players}\n"
    if dealer:
        h += f"dealer: {dealer}\n"
    if me:
        h += f"me: {me}\n"
    return h + extra


def record(game: str, body: str = "", **fields) -> Record:
    """The record of :func:`header` and ``body`` (stripped; each line a statement)."""
    body = body.strip()
    return parse_record(header(game, **fields) + (body + "\n" if body else ""))


def lines(head: str, *statements: str) -> Record:
    """The record of a header text and statements given one per argument."""
    return parse_record(head + "".join(f"{s}\n" for s in statements))


#: a small Clue table (2 suspects, 3 weapons, 4 rooms) as Ana sees it after her first
#: suggestion; the Clue tests add their own lines
SMALL_CLUE = """game: clue
players: Ana Ben Cleo
suspects: Butler Maid
weapons: Poison Rope Axe
rooms: Cellar Attic Garden Hall
me: Ana
Ana holds: Butler Cellar
Ana suggests Maid Poison Attic: Ben passes, Cleo shows Poison
"""
