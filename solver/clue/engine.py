"""Clue legality and the table's state after each statement (CL-2, CL-8, CL-9, CL-11), on
the engine contract (docs/architecture.md): a frozen :class:`State`, ``run(record, upto)``,
``verify_<action>``/``can_<action>`` for the actions ``turn`` (a suggestion or accusation
by the player now), ``suggest``, ``accuse`` and ``sees_case`` (the wrong accuser's look at
the case file, CL-8).

Turn order is not checked (the board is not modelled and turns without a suggestion need
no line, record-format.md): a suggestion or accusation may come from any player who is not
out.

>>> from solver.records import parse_record
>>> from solver.clue import EXAMPLE
>>> s = run(parse_record(EXAMPLE))
>>> s.out, s.active, s.over
(('Dev',), ('Ana', 'Ben', 'Cleo'), False)
>>> can_suggest(s, "Dev"), can_suggest(s, "Ana")
(False, True)
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from solver.clue.events import Accuse, FaceUp, Holds, SeesCase, Suggest, TurnIs, Unseen
from solver.clue.options import ClueOptions, deck_of, hand_sizes
from solver.errors import RuleError
from solver.legality import at_statement, can
from solver.legality import statement_error as _err


@dataclass(frozen=True)
class State:
    """Who is out, whether the game is over (``winner`` ``None`` once over: every player
    accused wrongly, ``last-player=plays-on``), and the wrong accusers who have not yet said
    what they saw in the case file (``looking``: player and the triple accused)."""

    players: tuple[str, ...]
    out: tuple[str, ...] = ()
    winner: str | None = None
    over: bool = False
    solved: tuple[str, ...] | None = None     # the case file, once a right accusation shows it
    looking: tuple[tuple[str, tuple[str, ...]], ...] = ()
    last_player: str = "wins"                 # the option of A3 (CL-9)

    @property
    def active(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.out)


def step(state: State, ev) -> State:
    """The state after ``ev`` (its legality is verify_*'s and :func:`run`'s)."""
    if isinstance(ev, Accuse):
        if ev.right:
            return replace(state, over=True, winner=ev.player, solved=ev.cards)
        st = replace(state, out=state.out + (ev.player,),
                     looking=state.looking + ((ev.player, ev.cards),))
        if len(st.active) == 1 and st.last_player == "wins":   # CL-9 default: the last one
            return replace(st, over=True, winner=st.active[0])  # in wins
        if not st.active:             # last-player=plays-on (A3): everyone out, nobody won
            return replace(st, over=True)
        return st
    if isinstance(ev, SeesCase):
        return replace(state, looking=tuple(x for x in state.looking if x[0] != ev.player))
    return state


def is_complete(record) -> bool:
    """A complete record lists every player's hand with ``holds:`` (and the face-up cards
    when there are any)."""
    h = record.header
    if not record.every_hand_listed(Holds):
        return False
    _sizes, faceup = hand_sizes(h.players, h.dealer, ClueOptions.of(h), deck_of(h))
    return not faceup or any(isinstance(st.event, FaceUp) for st in record.statements)


# ----- the actions: verify_<action> raises the rule broken, can_<action> says whether not ----

def verify_turn(state: State, player: str) -> None:
    """``player`` may suggest or accuse now: the game goes on and ``player`` is not out."""
    if state.over:
        raise RuleError(f"the game is over ({over_text(state)})",
                        rule="CL-8" if state.solved is not None else "CL-9")
    if player in state.out:
        raise RuleError(f"{player} is out after a wrong accusation: no more turns, "
                        "suggestions or accusations (CL-9)", rule="CL-9", text=player)


def over_text(state: State) -> str:
    """Who won a game that is over: ``Ana won``, or nobody (``last-player=plays-on``, A3)."""
    if state.winner is not None:
        return f"{state.winner} won"
    return "nobody won: every player accused wrongly, last-player=plays-on"


def verify_suggest(state: State, player: str) -> None:
    """A suggestion (CL-5, CL-9)."""
    verify_turn(state, player)


def verify_accuse(state: State, player: str) -> None:
    """An accusation (CL-8, CL-9)."""
    verify_turn(state, player)


def verify_sees_case(state: State, player: str, cards: tuple[str, ...]) -> None:
    """CL-8: a wrong accuser looks at the case file once after the accusation, and it is not
    the triple accused."""
    accused = dict(state.looking).get(player)
    if accused is None:
        why = (f"{player} has looked already (a 'sees case' line is logged for the "
               "accusation)" if player in state.out
               else f"{player} has not accused wrongly before")
        raise RuleError("only a player who accused wrongly looks at the case file, once: "
                        + why, rule="CL-8")
    if tuple(cards) == tuple(accused):
        raise RuleError("the case file seen is not the triple accused wrongly", rule="CL-8")


can_turn = can(verify_turn)
can_suggest = can(verify_suggest)
can_accuse = can(verify_accuse)
can_sees_case = can(verify_sees_case)



def run(record, upto: int | None = None) -> State:
    """The state after the record's first ``upto`` statements (all by default), each checked
    against the rules: raise :class:`RuleError` with the line of the first that breaks one."""
    h = record.header
    opts = ClueOptions.of(h)
    deck = deck_of(h)
    sizes, faceup = hand_sizes(h.players, h.dealer, opts, deck)
    state = State(h.players, last_player=opts.last_player)
    placed: dict[str, str] = {}
    given: set[str] = set()
    # the recorder of a partial record, who sees their own turns and the cards shown to them
    # or by them: none of those is ever written as not seen (record-format.md)
    recorder = h.me if h.me and not is_complete(record) else None
    if upto is not None:        # the state of the first statements is theirs alone
        record = replace(record, statements=record.statements[:upto])
    statements = record.statements
    for st in statements:
        ev = st.event
        if isinstance(ev, (Holds, FaceUp)):
            where = ev.player if isinstance(ev, Holds) else "faceup"
            if isinstance(ev, Holds):
                if len(ev.cards) != sizes[ev.player]:
                    raise _err(f"{ev.player} holds {sizes[ev.player]} cards (CL-2"
                               f"{', CL-11' if faceup else ''}), not {len(ev.cards)}", st, "CL-2")
            else:
                if not faceup and opts.leftovers == "face-up":
                    dealt = len(deck.cards) - 3     # the case file holds three (CL-2)
                    n = len(h.players)
                    raise _err(f"no card is face up: the {dealt} cards left after the case "
                               f"file deal evenly among {n} players ({dealt // n} each)",
                               st, "CL-11")
                if not faceup:
                    raise _err("no card is face up without 'variant: leftovers=face-up'",
                               st, "CL-11")
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
        try:
            if isinstance(ev, SeesCase):        # the extension's line (docs/record-format.md)
                verify_sees_case(state, ev.player, ev.cards)
            elif isinstance(ev, Accuse):
                verify_accuse(state, ev.player)
            elif isinstance(ev, (Suggest, Unseen)):
                verify_suggest(state, ev.player)
            elif isinstance(ev, TurnIs):
                verify_turn(state, ev.player)
        except RuleError as e:
            raise at_statement(e, st, first=True) from None
        if recorder is not None:
            _check_recorder_saw(ev, recorder, st)
        if isinstance(ev, SeesCase) and not is_complete(record) and ev.player != h.me:
            raise _err(f"only {ev.player} saw the case file: a record by "
                       f"{h.me or 'a spectator'} cannot say what it was", st, "CL-8")
        if isinstance(ev, Suggest) and ev.answers is not None and opts.refute == "first":
            if len(ev.showers) > 1:   # the parser allows one; kept for events built in code
                raise _err("only the first player who can refute shows (CL-6)", st, "CL-6")
        state = step(state, ev)
    return state


def _check_recorder_saw(ev, me: str, st) -> None:
    """Refuse what the recorder ``me`` saw written as not seen (record-format.md, "What the
    recorder did not see"): a suggestion of theirs (``me: ?``, CL-5), the refutation of
    their own suggestion and the card shown to them (CL-6), and the card they showed."""
    who = f"{me} is the recorder (me: {me}), who sees their own turns"
    if isinstance(ev, Unseen) and ev.player == me:
        raise _at(f"{who}, so none of them is a turn not seen: write {me}'s suggestion "
                   f"({me} suggests s w r: ...)", st, "CL-5", me)
    if not isinstance(ev, Suggest):
        return
    if ev.player == me and ev.answers is None:
        raise _at(f"{who}: the refutation of {me}'s own suggestion is shown to {me} (CL-6), "
                   "so it is never one not seen: write who passed and who showed which card, "
                   "or 'nobody'", st, "CL-6", me)
    for a in ev.showers:
        if a.card is None and me in (ev.player, a.player):
            if ev.player == me:
                raise _at(f"{who}: {a.player} shows the card to {me} (CL-6), so it is never "
                           f"one not seen: write '{a.player} shows CARD'", st, "CL-6",
                           a.player)
            raise _at(f"{me} is the recorder (me: {me}), who knows the card they show (CL-6),"
                       f" so it is never one not seen: write '{me} shows CARD'", st, "CL-6",
                       me, last=True)


def _at(msg: str, st, rule: str, token: str, last: bool = False) -> RuleError:
    """The rule error of statement ``st``, the column on ``token`` (its first occurrence,
    or its last with ``last``)."""
    return at_statement(RuleError(msg, rule=rule, text=token), st, first=not last)
