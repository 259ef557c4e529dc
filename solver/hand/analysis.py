"""The whole-game scoresheet (HR-5, HR-36, HR-41..HR-45, A7, A15), on the round scores of
the engine (:func:`solver.hand.engine.round_scores`, HR-37..HR-40, HR-42, HR-59).

What ``analyze`` returns for a scoresheet record (one statement per deal, see
:mod:`solver.hand.events`): every deal's scores, running totals, standings and who deals
next.  A round record (turn by turn, :mod:`solver.hand.engine`) is analysed by
:func:`analyse_round` (the model: :mod:`solver.hand.inference`).

>>> round_scores("Ana", "full-hand", ("wild-discard", "suit"), {"Ben": 12, "Cleo": None},
...              HandOptions(bonus_wild_discard=True, bonus_suit=True)).scores
{'Ana': -480, 'Ben': 192, 'Cleo': 1600}
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.errors import RuleError
from solver.hand import engine
from solver.hand.engine import (RoundState, check_bonuses, first_dealer, round_scores,
                                team_pairs, to_right, token_offset)
from solver.hand.events import Penalty, RoundEvent, UnscoredEvent
from solver.hand.options import HandOptions
from solver.hand.regime import check_copies, make_regime, natural_value, penalty

ROUNDS = 7  # HR-41 (the default of variant rounds)
WORDS = {4: "four", 6: "six"}
MAX_CARDS_MELDED_PLAYER = 11  # 15 after a draw - 3 melded (HR-11) - 1 discard (HR-30)
MAX_POINTS = 2 * 15 + 9 * 11  # two wilds and nine aces (HR-38)


@dataclass
class DealLine:
    line: int | None
    number: int
    deal: int
    dealer: str
    scored: bool
    text: str
    winner: str | None = None
    kind: str | None = None
    bonuses: tuple = ()
    multiplier: int = 1
    scores: dict = field(default_factory=dict)
    side_scores: dict = field(default_factory=dict)
    totals: dict = field(default_factory=dict)
    note: str = ""

    def to_json(self) -> dict:
        return {"line": self.line, "round": self.number, "deal": self.deal,
                "dealer": self.dealer, "scored": self.scored, "statement": self.text,
                "winner": self.winner, "kind": self.kind, "bonuses": list(self.bonuses),
                "multiplier": self.multiplier, "scores": self.side_scores,
                "player_scores": self.scores, "totals": self.totals, "note": self.note}


@dataclass
class Scoresheet:
    """The game so far: every deal, running totals, standings, who deals next."""

    players: tuple[str, ...]
    teams: list[tuple[str, str]] | None
    options: HandOptions
    deals: list[DealLine]
    totals: dict
    rounds_scored: int
    status: str  # "in progress" | "tie-break" | "over"
    winner: str | None
    next_dealer: str | None
    next_round: int | None
    note: str = ""
    view: str | None = None

    @property
    def sides(self) -> list[str]:
        return list(self.totals)

    def standings(self) -> list[tuple[int, str, int]]:
        """(rank, side, total), lowest first; equal totals share a rank (HR-41, HR-42)."""
        order = sorted(self.totals.items(), key=lambda kv: (kv[1], self.sides.index(kv[0])))
        out: list[tuple[int, str, int]] = []
        for i, (s, t) in enumerate(order):
            rank = out[-1][0] if out and out[-1][2] == t else i + 1
            out.append((rank, s, t))
        return out

    def to_json(self) -> dict:
        return {
            "game": "hand",
            "view": self.view,
            "consistent": True,
            # record-format.md's fixed keys: the scores are exact, and a scoresheet places
            # no card (no deal is recorded card by card)
            "exact": True,
            "cards": {},
            "record": "scoresheet",
            "players": list(self.players),
            "teams": [list(t) for t in self.teams] if self.teams else None,
            "variant": self.options.names(),
            "rounds": [d.to_json() for d in self.deals],
            "rounds_scored": self.rounds_scored,
            "totals": dict(self.totals),
            "standings": [{"rank": r, "side": s, "total": t} for r, s, t in self.standings()],
            "status": self.status,
            "winner": self.winner,
            "next_round": self.next_round,
            "next_dealer": self.next_dealer,
            "note": self.note,
        }


def _side_name(team) -> str:
    return "+".join(team)


def _penalty_points(ev: RoundEvent, pen: Penalty, options: HandOptions) -> int | None:
    if pen.no_meld:
        return None
    if pen.points is not None:
        if not 2 <= pen.points <= MAX_POINTS:
            raise RuleError(f"{pen.player}'s card points must lie between 2 and {MAX_POINTS}: a "
                            "player who has melded holds 1 to 11 cards, a wild 15, an ace 11",
                            text=str(pen), rule="HR-38")
        return pen.points
    cards = list(pen.cards or ())
    if not 1 <= len(cards) <= MAX_CARDS_MELDED_PLAYER:
        raise RuleError(f"a player who has melded holds 1 to {MAX_CARDS_MELDED_PLAYER} cards "
                        f"({len(cards)} given; no-meld is the flat penalty)", text=str(pen),
                        rule="HR-38")
    needs_regime = any(c.is_joker or c.rank == 1 for c in cards)
    if ev.indicator is None and options.wild_mode != "jokers-only":
        if needs_regime:
            raise RuleError("aces and jokers count by the round's wilds: write 'round "
                            f"{ev.number} indicator <card>: ...'", text=str(pen),
                            rule="HR-38")
        return sum(natural_value(c.rank) for c in cards)
    regime = make_regime(ev.indicator, options)
    check_copies(cards, regime, options)
    return sum(penalty(c, regime, options) for c in cards)


def score_sheet(record) -> Scoresheet:
    """Replay a scoresheet record; raise :class:`RuleError` (with the line) on the first
    statement the rules refuse.  A round record is totalled by its scoring statement (its
    turns are the engine's, :mod:`solver.hand.engine`); its round may be any round."""
    header = record.header
    statements = [st for st in record.statements
                  if isinstance(st.event, (RoundEvent, UnscoredEvent))]
    is_round = len(statements) != len(record.statements)
    options = HandOptions.of(header)
    rounds = options.rounds           # HR-41 (variant rounds=5)
    players = header.players
    teams = team_pairs(header, options)
    side_of = {}
    if teams:
        for t in teams:
            for p in t:
                side_of[p] = _side_name(t)
    else:
        side_of = {p: p for p in players}
    sides = list(dict.fromkeys(side_of[p] for p in players))
    totals = {s: 0 for s in sides}
    dealer = first_dealer(header)
    scored = 0
    deal_in_round = 0
    r7_unscored = 0
    phase = "regular"  # regular -> tie-break -> over
    participants = list(players)
    winner_side = None
    deals: list[DealLine] = []
    note = ""

    def fail(msg, st, rule, at=None, *, last=False, after=None):
        # quoting the statement, its column on token ``at`` (engine.token_offset)
        raise RuleError(msg, text=st.text, rule=rule, line=st.line, path=record.path,
                        offset=token_offset(st.text, at, last=last, after=after))

    def decide():
        nonlocal phase, winner_side, participants, dealer
        low = min(totals.values())
        tied = [s for s in sides if totals[s] == low]
        if len(tied) == 1:
            phase, winner_side = "over", tied[0]
            return
        phase = "tie-break"  # HR-44
        if options.tie_break == "tied" and not teams:
            participants = [p for p in players if side_of[p] in tied]
            if dealer not in participants:
                dealer = next(to_right(players, dealer, k) for k in range(1, len(players))
                              if to_right(players, dealer, k) in participants)

    if is_round and statements:
        scored = statements[0].event.number - 1     # a round record: its round's number
    for st in statements:
        ev = st.event
        if phase == "over":
            fail(f"the game is over: {winner_side} won with the lowest total after {scored} "
                 "scored rounds", st, "HR-41" if scored >= rounds - 1 else "HR-44")
        if ev.number != scored + 1:
            fail(f"this deal is round {scored + 1}: unscored deals do not count among the "
                 f"{rounds} and rounds are numbered by scored rounds", st, "HR-36",
                 str(ev.number))
        if ev.dealer is not None and ev.dealer != dealer:
            rule = "HR-45" if options.deal_rotation == "rotate" else "HR-5"
            fail(f"{dealer} deals round {ev.number}, not {ev.dealer}", st, rule, ev.dealer)
        deal_in_round += 1
        if isinstance(ev, UnscoredEvent):
            if ev.cause == "stock" and options.stock_end == "penalties":
                fail("with stock-end=penalties a round ended by the stock is scored: "
                     f"'round {ev.number}: stock; <every player's penalty>'", st, "HR-57",
                     "stock", after=":")
            if ev.by is not None and ev.by not in participants:
                fail(f"{ev.by} is not playing this deal", st, "A15", ev.by, after=":")
            if ev.cause == "stock" and options.stock_end == "reshuffle":
                line_note = "turn cap reached (stock-end=reshuffle, A15)"
            else:
                line_note = "redeal (HR-10)" if ev.cause == "redeal" else "stock ran out (HR-35)"
            line = DealLine(st.line, ev.number, deal_in_round, dealer, False, str(ev),
                            totals=dict(totals), note=line_note + "; same dealer (HR-5)")
            deals.append(line)
            if phase == "regular" and ev.number == rounds:
                r7_unscored += 1
                if r7_unscored == 2:
                    line.note += f"; the next deal is the last of round {rounds} (HR-43)"
                if r7_unscored == 3:
                    left = WORDS.get(rounds - 1, rounds - 1)
                    line.note = line.note.replace("; same dealer (HR-5)", "") + \
                        f"; round {rounds} dropped, {left} rounds decide (HR-43)"
                    note = f"round {rounds} was dropped after three unscored deals (HR-43)"
                    deal_in_round = 0
                    decide()
                    if phase == "tie-break":
                        line.note += "; tied: further rounds (HR-44)"
            continue
        # a scored deal
        if ev.kind == "stock" and options.stock_end != "penalties":
            fail("a round ended by the stock is unscored ('unscored stock'); variant "
                 "stock-end=penalties scores it by every player's penalty", st, "HR-35",
                 "stock", after=":")
        if ev.kind != "stock" and ev.winner not in participants:
            fail(f"{ev.winner} is not playing this deal", st, "A15", ev.winner, after=":")
        partner = None
        if teams:
            partner = next(p for t in teams if ev.winner in t for p in t if p != ev.winner)
        expected = [p for p in participants if p != ev.winner and p != partner]
        if ev.kind == "stock":
            expected = list(participants)     # nobody went out: everyone scores (HR-57)
        given = [pen.player for pen in ev.penalties]
        if partner is not None and partner in given:
            fail(f"the winner's partner's cards do not count: leave {partner} out", st,
                 "HR-42", partner, after=";")
        for p in given:
            if given.count(p) > 1:
                fail(f"{p}'s penalty is given twice", st, "HR-38", p, last=True)
            if p not in expected:
                fail(f"{p} is not an opponent in this deal", st, "HR-38", p, after=";")
        missing = [p for p in expected if p not in given]
        if missing:
            fail("every opponent's penalty is needed (points, cards or no-meld): missing "
                 + ", ".join(missing), st, "HR-38")
        try:
            check_bonuses(ev.kind, ev.bonuses, options, st.text)
            pens = {pen.player: _penalty_points(ev, pen, options)
                    for pen in ev.penalties}
            rs = round_scores(ev.winner, ev.kind, ev.bonuses, pens, options, partner)
        except RuleError as e:
            raise e.located(path=record.path, line=st.line) from None
        side_scores = {s: 0 for s in sides}
        for p, v in rs.scores.items():
            side_scores[side_of[p]] += v
        for s in sides:
            totals[s] += side_scores[s]
        scored += 1
        deals.append(DealLine(st.line, ev.number, deal_in_round, dealer, True, str(ev),
                              ev.winner, ev.kind, ev.bonuses, rs.multiplier, rs.scores,
                              side_scores, dict(totals)))
        deal_in_round = 0
        # the next dealer (HR-5 / HR-45; teams compare individual scores, A7)
        if options.deal_rotation == "rotate":
            dealer = next(to_right(players, dealer, k) for k in range(1, len(players) + 1)
                          if to_right(players, dealer, k) in participants)
        else:
            worst = max(rs.scores.get(p, 0) for p in participants)
            tied = [p for p in participants if rs.scores.get(p, 0) == worst]
            if dealer not in tied:
                dealer = next(to_right(players, dealer, k) for k in range(1, len(players))
                              if to_right(players, dealer, k) in tied)
        if phase == "regular" and scored >= rounds:
            decide()
        elif phase == "tie-break":
            decide()
    status = phase if phase != "regular" else "in progress"
    if phase == "regular" and scored == rounds - 1 and r7_unscored == 2:
        note = note or f"round {rounds}: the next deal is the last (HR-43)"
    return Scoresheet(players, teams, options, deals, totals, scored, status, winner_side,
                      None if phase == "over" else dealer,
                      None if phase == "over" else scored + 1, note)


# ------------------------------------------------------------------------------ a round

@dataclass
class RoundAnalysis:
    """``sleuth analyze ROUND``: what ``view`` knows of the round."""

    view: str | None
    state: RoundState
    cards: dict
    certain: dict
    unseen: dict             # card -> copies not seen
    slots: dict
    chances: dict = field(default_factory=dict)

    def hands(self) -> dict:
        s = self.state
        return {p: {"count": st.count, "known": [repr(c) for c in st.hand()],
                    "unknown": st.unknown, "opened": st.opened, "melded": st.melded}
                for p, st in s.players.items()}

    def to_json(self) -> dict:
        s = self.state
        estimates = [t.error for t in self.chances.values() if not t.exact]
        out = {
            "game": "hand", "view": self.view, "consistent": True,
            "exact": not estimates and not s.lossy,
            "record": "round",
            "cards": self.cards,
            "hands": self.hands(),
            "stock": s.stock,
            "stock_known": [{"card": repr(c), "position": n - s.stock_draws}
                            for n, c in sorted(s.stock_known.items())],
            "discards": [repr(c) for c in s.pile],
            "table": [{"meld": i, "owner": e.owner, "cards": [repr(c) for c in e.physical]}
                      for i, e in enumerate(s.table, 1)],
            "indicator": repr(s.indicator) if s.indicator is not None else None,
            "regime": s.regime.describe() if s.regime else None,
            "turn": s.current,
            "over": s.over, "winner": s.winner, "kind": s.kind,
            "unseen": {repr(c): n for c, n in sorted(self.unseen.items(), key=lambda kv:
                                                     repr(kv[0])) if n > 0},
            "unknown_places": {k: v for k, v in self.slots.items() if v},
            "take_chance": {k: t.to_json() for k, t in self.chances.items()},
            "next_player": s.next_player(self.view) if self.view in s.players else None,
        }
        if estimates:   # record-format.md: with "exact" false, the estimates' 95 % half-width
            out["error"] = max(estimates)
        if s.unseen_turns:      # turns not seen (P: ?): the courses of the round followed
            out["unseen_turns"] = s.unseen_turns
            out["courses"] = len(s.branches) or 1
        if s.lossy:
            out["note"] = self.lossy_note
            out.setdefault("error", None)
        return out

    @property
    def lossy_note(self) -> str:
        """What the figures are when the courses of the unseen turns were too many to
        follow one by one (``""`` otherwise)."""
        if not self.state.lossy:
            return ""
        return (f"over {engine.MAX_BRANCHES} courses of the unseen turns: the cards known in "
                "only some of them are counted as unknown (an approximation)")


def analyse_round(record, view: str | None, *, chances: bool = True,
                  samples: int | None = None) -> RoundAnalysis:
    """A round record from ``view`` (a player, or ``None`` for a spectator): the model of
    :mod:`solver.hand.inference` on the record as the view saw it."""
    from solver.hand.engine import play, view_record
    from solver.hand.inference import SAMPLES, mixed_locations, mixed_take_chances

    s = play(view_record(record, view))
    cards, certain, unseen, slots = mixed_locations(s)
    ch = {}
    if chances and view is not None and s.over is None:
        ch = mixed_take_chances(s, view, samples or SAMPLES)
    return RoundAnalysis(view, s, cards, certain, unseen, slots, ch)
