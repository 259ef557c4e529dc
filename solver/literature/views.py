"""Who knows what in a Literature record: the views a model is built for, and the hands
(``holds`` lines) each of them knows (record-format.md: a ``holds`` line is "a hand known
to the recorder").  Shared by the deal model (:mod:`solver.literature.inference`) and the
history model (:mod:`solver.literature.history`)."""
from __future__ import annotations

ALL = "*"           # the view that uses every line of the record (consistency checks)
#: the public view of a spectator's record: every ``holds`` line, as the spectator wrote them
RECORDER = "+"


def is_complete(record) -> bool:
    """A complete record lists every player's hand with ``holds:`` (record-format.md)."""
    from solver.literature.events import Holds

    return record.every_hand_listed(Holds)


def seen_by(record, view):
    """The view a model of ``record`` is built for: the public view (``None``) of a
    spectator's record (no ``me:``, not complete) is :data:`RECORDER`, the spectator who
    wrote its ``holds`` lines; any other view is itself."""
    if view is None and record.header.me is None and not is_complete(record):
        return RECORDER
    return view


def hands_seen(record, view) -> frozenset[str]:
    """The players whose ``holds`` lines ``view`` uses: all of them for :data:`ALL` and for
    the recorder of a partial record (not every hand listed), who wrote them -- ``me:``, or
    :data:`RECORDER` in a spectator's record; a player's own otherwise (in a complete record
    each view knows only its own hand); none for the public view of a player's record or of
    a complete one."""
    players = record.header.players
    if view in (ALL, RECORDER) or (view is not None and view == record.header.me
                                   and not is_complete(record)):
        return frozenset(players)
    return frozenset([view]) if view in players else frozenset()
