"""Who is who in a Mysterium record: the ghost, the psychics and the players running them.

Header (record-format.md plus three Mysterium keys)::

    game: mysterium
    variant: difficulty=hard
    players: Gus Ana Ben Cleo Dev      # the ghost is one of the players (MY-1)
    ghost: Gus                         # default: the dealer, else the first player
    psychics: Ana Ben Cleo Dev         # optional names (2 and 3 players: see below)
    eldest: Cleo                       # optional: the eldest player (MY-21 tie-break)

With 4..7 players the psychics are the players other than the ghost.  With 2 players the one
psychic player runs two psychics, ``Ana-1`` and ``Ana-2``; with 3 players each psychic player
runs two (A5 default), ``Ana-1 Ana-2 Ben-1 Ben-2``, or one with ``psychics-3p=2`` (MY-3).
``psychics:`` renames them; player k runs the k-th block of psychics.

>>> from solver.records import Header
>>> r = roster_of(Header("mysterium", ("Gus", "Ana", "Ben")))
>>> r.ghost, r.psychics, r.owner_of("Ben-2"), r.voters
('Gus', ('Ana-1', 'Ana-2', 'Ben-1', 'Ben-2'), 'Ben', ('Ana', 'Ben'))
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from solver.errors import NotationError, RuleError
from solver.mysterium.options import MysteriumOptions, Setup, setup_for
from solver.records import check_player_name, name_in, name_key


@dataclass(frozen=True)
class Roster:
    players: tuple[str, ...]
    ghost: str
    psychics: tuple[str, ...]
    owners: tuple[str, ...]          # owners[i] runs psychics[i]
    eldest: str | None
    setup: Setup
    options: MysteriumOptions

    @property
    def voters(self) -> tuple[str, ...]:
        """The players who vote in the epilogue (MY-20): every player but the ghost."""
        return tuple(p for p in self.players if p != self.ghost)

    def owner_of(self, psychic: str) -> str:
        return self.owners[self.psychics.index(psychic)]

    def psychics_of(self, player: str) -> tuple[str, ...]:
        return tuple(p for p, o in zip(self.psychics, self.owners) if o == player)

    @property
    def n_groups(self) -> int:
        """MY-16: one group per psychic; with 2 players two random groups more (4 in all)."""
        return self.setup.psychics + (2 if self.setup.players == 2 else 0)

    @property
    def clairvoyance(self) -> bool:
        """MY-11: no clairvoyancy with 2 or 3 players."""
        return self.setup.tokens_per_psychic > 0

    def psychic(self, name: str, text: str | None = None) -> str:
        """The psychic ``name`` writes (in any case when unambiguous), as the roster spells
        it."""
        found = name_in(name, self.psychics)
        if found is None:
            expected = "expected one of " + " ".join(self.psychics)
            if name_in(name, (self.ghost,)):
                raise NotationError(f"{self.ghost} is the ghost, not a psychic; {expected}",
                                    text=text or name, rule="MY-1")
            player = name_in(name, self.owners)
            if player is not None:      # 2 or 3 players: a player runs named psychics
                raise NotationError(f"{player} plays as " + " ".join(self.psychics_of(player))
                                    + f", the psychic names; {expected}", text=text or name,
                                    rule="MY-3")
            raise NotationError("unknown psychic; " + expected, text=text or name)
        return found

    def voter(self, name: str, text: str | None = None) -> str:
        """The voter ``name`` writes (in any case when unambiguous), as ``players:`` does."""
        found = name_in(name, self.voters)
        if found is None:
            raise NotationError("only a psychic player votes (MY-20); expected one of "
                                + " ".join(self.voters), text=text or name)
        return found


@functools.lru_cache(maxsize=256)
def roster_of(header) -> Roster:
    """The roster of a header; raises for a header Mysterium cannot be played with."""
    options = MysteriumOptions.of(header)
    n = len(header.players)
    if not 2 <= n <= 7:
        raise RuleError("Mysterium is played by 2 to 7 players, the ghost included (MY-1)",
                        rule="MY-1", text=" ".join(header.players))
    setup = setup_for(n, options.difficulty, options.psychics_3p)
    written = (header.get("ghost") or "").strip() or header.dealer or header.players[0]
    ghost = name_in(written, header.players)      # any case; as players: spells it
    if ghost is None:
        raise NotationError("'ghost:' must name one of the players (" + " ".join(header.players)
                            + ")", text=written)
    runners = tuple(p for p in header.players if p != ghost)
    per = setup.psychics // len(runners)
    owners = tuple(r for r in runners for _ in range(per))
    given = (header.get("psychics") or "").replace(",", " ").split()
    if given:
        if len(given) != setup.psychics:
            raise RuleError(f"{n} players play with {setup.psychics} psychics (MY-3"
                            + (", A5" if n == 3 else "") + ")", rule="MY-3",
                            text=" ".join(given))
        for name in given:
            check_player_name(name, game=header.game)
        if len({name_key(g) for g in given}) != len(given):
            raise NotationError("a psychic is named twice", text=" ".join(given))
        for name, owner in zip(given, owners):
            if name_in(name, header.players) not in (None, owner):
                raise NotationError(f"the psychic {name} is run by {owner}; a psychic may "
                                    "not take another player's name", text=name)
        psychics = tuple(given)
    elif per == 1:
        psychics = runners
    else:
        psychics = tuple(f"{r}-{i}" for r in runners for i in range(1, per + 1))
        # a psychic's name is a player's too (players: Gus Ana Ana-1): a statement and a
        # JSON key of that name would mean either; refused, as 'psychics:' settles it
        for name, owner in zip(psychics, owners):
            other = name_in(name, header.players)
            if other is not None and other != owner:
                own = ", ".join(q for q, o in zip(psychics, owners) if o == owner)
                raise NotationError(
                    f"the player {other} has the name of {owner}'s psychic {name} "
                    f"({owner} runs {per}: {own}); name the psychics with 'psychics:' or "
                    "rename the player", text=other)
    written = (header.get("eldest") or "").strip() or None
    eldest = None if written is None else name_in(written, runners)
    if written is not None and eldest is None:
        raise NotationError("'eldest:' must name a psychic player (" + " ".join(runners) + ")",
                            text=written)
    return Roster(tuple(header.players), ghost, psychics, owners, eldest, setup, options)
