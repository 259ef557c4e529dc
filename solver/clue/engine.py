"""Clue legality and the table's state after each statement (CL-2, CL-8, CL-9, CL-11).

Turn order is not checked (the board is not modelled and turns without a suggestion need
no line, record-format.md): a suggestion or accusation may come from any player who is not
out.

>>> from solver.records import parse_record
>>> from solver.clue import EXAMPLE
>>> s = table_state(parse_record(EXAMPLE))
>>> s.out, s.active, s.over
(['Dev'], ['Ana', 'Ben', 'Cleo'], False)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.clue.events import Accuse, FaceUp, Holds, SeesCase, Suggest, Unseen
from solver.clue.options import ClueOptions, deck_of, hand_sizes
from solver.errors import RuleError


@dataclass
class TableState:
    players: tuple[str, ...]
    out: list[str] = field(default_factory=list)
    winner: str | None = None
    over: bool = False
    solved: tuple[str, ...] | None = None     # the case file, once a right accusation shows it

    @property
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    def apply(self, ev) -> None:
        if isinstance(ev, Accuse):
            if ev.right:
                self.over, self.winner, self.solved = True, ev.player, ev.cards
            else:
                self.out.append(ev.player)
                if len(self.active) == 1:       # CL-9 default: the last one in wins
                    self.over, self.winner = True, self.active[0]


def _err(msg: str, st, rule: str) -> RuleError:
    return RuleError(msg, text=st.text, rule=rule, line=st.line)


def validate(record) -> None:
    """Raise :class:`RuleError` (with the line) for an illegal record."""
    h = record.header
    opts = ClueOptions.of(h)
    deck = deck_of(h)
    sizes, faceup = hand_sizes(h.players, h.dealer, opts, deck)
    state = TableState(h.players)
    placed: dict[str, str] = {}
    given: set[str] = set()
    wrong: dict[str, tuple[str, ...]] = {}      # who accused wrongly: the triple
    for st in record.statements:
        ev = st.event
        if isinstance(ev, SeesCase):            # the extension's line (docs/record-format.md)
            from solver.clue.inference import is_complete

            if ev.player not in wrong:
                raise _err("only a player who accused wrongly looks at the case file, once: "
                           f"{ev.player} has not accused wrongly before", st, "CL-8")
            if ev.cards == wrong.pop(ev.player):
                raise _err("the case file seen is not the triple accused wrongly", st, "CL-8")
            if not is_complete(record) and ev.player != h.me:
                raise _err(f"only {ev.player} saw the case file: a record by "
                           f"{h.me or 'a spectator'} cannot say what it was", st, "CL-8")
            continue
        if isinstance(ev, Accuse) and not ev.right:
            wrong[ev.player] = ev.cards
        if isinstance(ev, (Holds, FaceUp)):
            where = ev.player if isinstance(ev, Holds) else "faceup"
            if isinstance(ev, Holds):
                if len(ev.cards) != sizes[ev.player]:
                    raise _err(f"{ev.player} holds {sizes[ev.player]} cards (CL-2"
                               f"{', CL-11' if faceup else ''}), not {len(ev.cards)}", st, "CL-2")
            else:
                if not faceup:
                    raise _err("no card is face up without 'variant: leftovers=face-up' "
                               "(or when the cards deal evenly)", st, "CL-11")
                if len(ev.cards) != faceup:
                    raise _err(f"{faceup} cards are face up (CL-11), not {len(ev.cards)}",
                               st, "CL-11")
            for c in ev.cards:
                if placed.get(c, where) != where:
                    raise _err(f"{c} is listed in two places ({placed[c]} and {where})", st,
                               "CL-2")
                placed[c] = where
            if where in given:
                raise _err(f"the cards of {where} are given twice", st, "CL-2")
            given.add(where)
            continue
        if state.over:
            raise _err(f"the game is over ({state.winner} won)", st, "CL-8")
        who = ev.player
        if who in state.out and isinstance(ev, (Suggest, Accuse, Unseen)):
            raise _err(f"{who} is out after a wrong accusation: no more suggestions or "
                       "accusations (CL-9)", st, "CL-9")
        if isinstance(ev, Suggest) and ev.answers is not None and opts.refute == "first":
            if len(ev.showers) > 1:   # the parser allows one; kept for events built in code
                raise _err("only the first player who can refute shows (CL-6)", st, "CL-6")
        state.apply(ev)


def table_state(record) -> TableState:
    """The state after the record's statements (who is out, whether it is over)."""
    state = TableState(record.header.players)
    for st in record.statements:
        if isinstance(st.event, Accuse):
            state.apply(st.event)
    return state
