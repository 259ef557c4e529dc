"""A random, rule-following Literature game written as a complete record.

Every player keeps a sound (not complete) picture of where the cards are: their own hand,
the public moves (O2, O3), "no" answers, the asker's LIT-6(c)/(d) facts and the card counts
(O1), propagated to a fixpoint.  On their turn a player claims a half-suit when that
picture places all of its cards in their team (LIT-10, LIT-11(a)), now and then makes a
wrong or guessed claim, and otherwise asks a legal question (LIT-6), preferring a card the
opponent may hold.  The end game (LIT-15), empty hands (LIT-14) and the variants' claims
(V5, V14) are played too.  The same seed always gives the same record.

>>> rec = simulate(6, seed=3)
>>> rec.statements[0].text.startswith("Ana holds: "), len(rec.header.players)
(True, 6)
>>> from solver.literature.engine import Play, can_ask_for, can_ask_whom
>>> Play.of(rec).over
True
"""
from __future__ import annotations

import copy
import random

from solver.cards import Card
from solver.errors import RuleError
from solver.literature.events import (Alloc, Ask, Challenge, Claim, HandCount, Holds, PassClaim,
                                      PassTurn, Shown, TurnIs, UnheardAnswer, UnheardCard,
                                      Unseen)
from solver.literature.engine import Play, can_ask_for, can_ask_whom
from solver.literature.options import LiteratureOptions
from solver.literature.table import Table
from solver.records import Header, Record, Statement

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea",
         "Max", "Ned", "Ola", "Pia")
MAX_STATEMENTS = 3000


class Knowledge:
    """One player's sound picture: ``poss[key]`` = where the card can be now."""

    def __init__(self, table: Table, me: str, hand: set[str]):
        self.t = table
        self.me = me
        others = {p for p in table.players if p != me}
        self.poss = {k: ({me} if k in hand else set(others)) for k in table.keys}

    def moved(self, key: str, dst: str):
        self.poss[key] = {dst}

    def not_at(self, keys, p):
        for k in keys:
            if len(self.poss[k]) > 1:
                self.poss[k].discard(p)

    def at_least_one(self, keys, p):
        cand = [k for k in keys if p in self.poss[k]]
        if len(cand) == 1:
            self.poss[cand[0]] = {p}

    def propagate(self, counts: dict[str, int]):
        changed = True
        while changed:
            changed = False
            for p in self.t.players:
                known = [k for k, s in self.poss.items() if s == {p}]
                maybe = [k for k, s in self.poss.items() if p in s]
                if len(known) == counts[p] and len(maybe) > len(known):
                    for k in maybe:
                        if self.poss[k] != {p}:
                            self.poss[k].discard(p)
                    changed = True
                elif len(maybe) == counts[p] and len(known) < len(maybe):
                    for k in maybe:
                        self.poss[k] = {p}
                    changed = True

    def swap(self, a: str, b: str):
        self.poss[a], self.poss[b] = self.poss[b], self.poss[a]

    def certain_alloc(self, keys) -> dict[str, str] | None:
        out = {}
        for k in keys:
            s = self.poss[k]
            if len(s) != 1:
                return None
            out[k] = next(iter(s))
        return out


class Simulator:
    def __init__(self, n_players, options=(), seed=0, wrong_rate=0.015):
        if isinstance(n_players, int):
            if n_players > len(NAMES):
                raise RuleError("too many players", text=str(n_players), rule="LIT-3")
            names = NAMES[:n_players]
        else:
            names = tuple(n_players)
        self.opts = LiteratureOptions.from_names(options)
        self.t = Table.build(names, self.opts)
        self.rng = random.Random(seed)
        self.wrong_rate = wrong_rate
        keys = list(self.t.keys)
        self.rng.shuffle(keys)
        t = self.t
        d = t.players.index(t.dealer)
        order = [t.players[(d + 1 + i) % len(t.players)] for i in range(len(t.players))]
        self.deal: dict[str, str] = {}
        i = 0
        for rnd in range(max(t.sizes.values())):
            for p in order:
                if rnd < t.sizes[p]:
                    self.deal[keys[i]] = p
                    i += 1
        self.cur = dict(self.deal)
        self.play = Play(t)
        self.know = {p: Knowledge(t, p, {k for k, q in self.deal.items() if q == p})
                     for p in t.players}
        self.statements: list[Statement] = []
        self.header = Header(game="literature", players=t.players,
                             variant=tuple(self.opts.names()), me=t.players[0])

    # ----- world ----------------------------------------------------------------------------
    def hand(self, p) -> list[str]:
        return [k for k, q in self.cur.items() if q == p]

    def holds_card(self, p, card) -> int:
        return sum(1 for k in self.t.card_keys[card] if self.cur[k] == p)

    def emit(self, ev, shown=None):
        line = len(self.statements) + 1
        before = len(self.play.moves)
        loc_before = dict(self.play.loc)
        nxt = None
        if shown is not None:
            nxt = Statement(line + 1, str(shown), shown)
        self.play.apply(ev, line, str(ev), nxt)
        self.statements.append(Statement(line, str(ev), ev))
        if nxt is not None:
            self.statements.append(nxt)
            self.play._skip_next = False
        for mv in self.play.moves[before:]:
            if self.cur[mv.key] != mv.src:   # copies (jokers): relabel the truth (symmetric)
                card = self.t.key_card[mv.key]
                k2 = next(k for k in self.t.card_keys[card] if k != mv.key
                          and self.cur[k] == mv.src and loc_before[k] is None)
                self.cur[mv.key], self.cur[k2] = self.cur[k2], self.cur[mv.key]
                self.deal[mv.key], self.deal[k2] = self.deal[k2], self.deal[mv.key]
                for kn in self.know.values():
                    kn.swap(mv.key, k2)
            self.cur[mv.key] = mv.dst
            for kn in self.know.values():
                kn.moved(mv.key, mv.dst)
        self.learn(ev)

    def learn(self, ev):
        t = self.t
        if isinstance(ev, Ask):
            h = t.half_of[ev.card]
            ck = t.card_keys[ev.card]
            for kn in self.know.values():
                if ev.answer == "no":
                    kn.not_at(ck, ev.target)
                    if self.opts.own_card_ask != "bluff" and len(ck) == 1:
                        kn.not_at(ck, ev.asker)
                    if self.play.status[h.name][0] == "open":
                        kn.at_least_one(self.play.keys_of_half(h.name), ev.asker)
        live = {p: self.play.count[p] for p in t.players}
        for kn in self.know.values():
            kn.propagate(live)

    # ----- choices --------------------------------------------------------------------------
    def alloc_for(self, p, half, guess=True) -> Alloc | None:
        """p's claim of ``half``: certain placements, guesses within the team if ``guess``."""
        team = self.t.team_of(p)
        kn = self.know[p]
        keys = self.play.keys_of_half(half)
        by: dict[str, list] = {}
        for k in keys:
            s = kn.poss[k] & set(team)
            if len(kn.poss[k]) == 1 and s:
                q = next(iter(s))
            elif not guess:
                return None
            else:
                q = self.rng.choice(sorted(s) if s else list(team))
            by.setdefault(q, []).append(self.t.key_card[k])
        return tuple((q, tuple(sorted(cs))) for q, cs in sorted(
            by.items(), key=lambda kv: self.t.players.index(kv[0])))

    def shown_for(self, half) -> Alloc:
        by: dict[str, list] = {}
        for k in self.play.keys_of_half(half):
            by.setdefault(self.cur[k], []).append(self.t.key_card[k])
        return tuple((q, tuple(sorted(cs))) for q, cs in sorted(
            by.items(), key=lambda kv: self.t.players.index(kv[0])))

    def claim(self, p, half, guess=True):
        alloc = self.alloc_for(p, half, guess)
        # without guesses only a half whose every card p places in p's team is claimed
        # (safe_half), so there is no card to guess
        assert alloc is not None
        shown = self.shown_for(half)
        ev = Claim(p, half, alloc)
        same = sorted((repr(c), q) for q, cs in alloc for c in cs) == \
            sorted((repr(c), q) for q, cs in shown for c in cs)
        self.emit(ev, None if same else Shown(half, shown))

    def safe_half(self, p) -> str | None:
        team = set(self.t.team_of(p))
        for h in self.play.open_halves():
            a = self.know[p].certain_alloc(self.play.keys_of_half(h))
            if a and all(q in team for q in a.values()):
                return h
        return None

    def legal_asks(self, a):
        """The questions ``a`` may ask (LIT-6), the engine's legality with ``a``'s true hand."""
        t, play = self.t, self.play
        state = play.state()
        opps = [b for b in t.players if can_ask_whom(state, a, b)]
        out: list[tuple[str, Card]] = []
        if not opps:
            return out
        hand = [t.key_card[k] for k in self.hand(a)]
        for h in play.open_halves():
            for c in sorted(set(play.half(h).cards)):
                if can_ask_for(state, a, c, hand):
                    out.extend((b, c) for b in opps)
        return out

    def turn(self):
        play, t, rng = self.play, self.t, self.rng
        a = play.turn
        assert a is not None    # only a game over has nobody on turn, and run stops there
        if play.challenge:
            ch, tgt, half = play.challenge
            self.claim(tgt, half, guess=True)
            return
        if play.forced:
            m = play.forced_member()
            h = self.safe_half(m)
            if h:
                self.claim(m, h, guess=False)
            elif rng.random() < 0.6:
                self.emit(PassClaim(m))
            else:
                self.claim(m, rng.choice(play.open_halves()))
            return
        if play.end_game:
            holder = 0 if play.team_cards(0) else 1
            if t.team_index(a) != holder:
                b = rng.choice([q for q in t.teams[holder] if play.count[q] > 0])
                self.emit(PassTurn(a, b))
                return
            h = self.safe_half(a) or rng.choice(play.open_halves())
            self.claim(a, h)
            return
        if self.opts.claims_any_time and rng.random() < 0.3:
            others = [q for q in t.players if q != a]
            rng.shuffle(others)
            for q in others:
                h = self.safe_half(q)
                if h:
                    self.claim(q, h, guess=False)
                    return
        if play.count[a] == 0 and self.opts.out_of_turn_claims == "forbidden" \
                and rng.random() < 0.5:
            # house rule: anyone may claim while the player on turn has no cards
            for q in t.players:
                h = self.safe_half(q) if q != a else None
                if h:
                    self.claim(q, h, guess=False)
                    return
        if play.count[a] == 0:
            mates = [q for q in t.team_of(a) if q != a and play.count[q] > 0]
            self.emit(PassTurn(a, rng.choice(mates)))
            return
        h = self.safe_half(a)
        if h and rng.random() < 0.9:
            self.claim(a, h, guess=False)
            return
        if self.opts.srinivasan_challenges and rng.random() < 0.02:
            opps = [b for b in t.players if t.opponents(a, b)]
            self.emit(Challenge(a, rng.choice(opps), rng.choice(play.open_halves())))
            return
        late = max(0, len(self.statements) - 150) / 400.0
        if rng.random() < self.wrong_rate + late:
            mine = [h for h in play.open_halves()
                    if any(self.cur[k] == a for k in play.keys_of_half(h))]
            if mine:
                self.claim(a, rng.choice(mine))
                return
        asks = self.legal_asks(a)
        if not asks:   # A4 / LIT-9: no legal question: claim (a complete half-suit, LIT-10)
            self.claim(a, h or rng.choice(play.open_halves()))
            return
        if self.opts.own_card_ask == "surrender" and rng.random() < 0.02:
            own = [(b, self.t.key_card[k]) for k in self.hand(a) for b in t.players
                   if t.opponents(a, b) and play.count[b] > 0]
            if own:
                b, c = rng.choice(own)
                self.emit(Ask(a, b, c, "surrendered"))
                return
        kn = self.know[a]
        good = [(b, c) for b, c in asks
                if any(kn.poss[k] == {b} for k in t.card_keys[c])]
        r = rng.random()
        if good and r < 0.85:
            b, c = rng.choice(good)
        elif r < 0.97:
            # like a player: go for the half-suits where you hold most, and ask someone
            # who may hold the card
            weights = []
            for b, c in asks:
                held = sum(1 for k in play.keys_of_half(t.half_of[c].name) if self.cur[k] == a)
                may = any(b in kn.poss[k] for k in t.card_keys[c]) and \
                    not self.holds_card(a, c)
                weights.append(held * held * (1.0 if may else 0.02))
            b, c = rng.choices(asks, weights=weights)[0]
        else:
            b, c = rng.choice(asks)
        if self.opts.own_card_ask == "surrender" and self.holds_card(a, c):
            ans = "surrendered"
        else:
            ans = "yes" if self.holds_card(b, c) else "no"
        self.emit(Ask(a, b, c, ans))

    def run(self, events: int | None = None) -> Record:
        for p in self.t.players:
            cards = tuple(sorted(self.t.key_card[k] for k in self.hand(p)))
            self.emit(Holds(p, cards))
        while not self.play.over and len(self.statements) < MAX_STATEMENTS:
            if events is not None and len(self.statements) >= events:
                break
            self.turn()
        st = self.statements
        if events is not None:
            n = min(events, len(st))
            if 0 < n < len(st) and isinstance(st[n].event, Shown):
                n -= 1          # keep a claim together with its shown line
            st = st[:n]
        return Record(self.header, tuple(st))


def lossy(record: Record, deal: dict[str, str], miss: float, seed: int = 0):
    """The record a recorder who misses things would write (record-format.md, "What the
    recorder did not see"), and the true place of every card after each of its statements.

    Each question is hidden with probability ``miss``: its card (``A asks B ?: yes``), its
    answer (``A asks B 5H: ?``) or all of it (``A: ?``); a surrender (V11) by its answer or
    all of it.  The recorder (the header's ``me:``) hears every question they ask or are
    asked and its answer, so those are always written in full (the draws that would have hidden
    them are still made).
    After an unseen event the recorder sometimes learns whose turn it is (``turn: P``) or a
    hand count (``P has N cards``, LIT-13), and always learns the turn before a claim or a
    pass (public events) and every count once questions stop (LIT-15).  Claims, shown lines and hands are kept."""
    rng = random.Random(seed * 7919 + 17)
    t = None
    from solver.literature.table import table_of

    t = table_of(record.header)
    full, seen = Play(t), Play(t)
    out: list[Statement] = []
    truth: list[dict[str, str]] = []
    st = list(record.statements)
    me = record.header.me

    def place():
        return {k: (full.loc[k] if full.loc[k] is not None else deal[k]) for k in t.keys}

    def put(ev, nxt_ev=None, now=None):
        """Write ``ev`` (``now``: the true places after it, when not the current ones)."""
        line = len(out) + 1
        nxt = Statement(line + 1, str(nxt_ev), nxt_ev) if nxt_ev is not None else None
        seen.apply(ev, line, str(ev), nxt)
        seen._skip_next = False
        out.append(Statement(line, str(ev), ev))
        truth.append(place() if now is None else now)
        if nxt is not None:
            out.append(nxt)
            truth.append(place())

    i = 0
    while i < len(st):
        ev = st[i].event
        shown = st[i + 1].event if i + 1 < len(st) and isinstance(st[i + 1].event, Shown) \
            else None
        nxt = Statement(st[i + 1].line, st[i + 1].text, shown) if shown is not None else None
        turn_before, before = full.turn, place()
        full.apply(ev, st[i].line, st[i].text, nxt)
        full._skip_next = False
        i += 2 if shown is not None else 1
        hidden = None
        if isinstance(ev, Ask) and rng.random() < miss:
            r = rng.random()
            if ev.answer == "surrendered":      # V11: the card or the answer, not "?: yes"
                r = 0.4 + 0.6 * r
            hidden = (None if me in (ev.asker, ev.target) else     # the recorder heard it
                      UnheardCard(ev.asker, ev.target, ev.answer) if r < 0.4 else
                      UnheardAnswer(ev.asker, ev.target, ev.card) if r < 0.75 else
                      Unseen(ev.asker))
        if hidden is not None:
            backup = (copy.deepcopy(seen), len(out))
            try:
                put(hidden)
            except RuleError:
                hidden = None
                seen = backup[0]
                del out[backup[1]:], truth[backup[1]:]
        if hidden is None:
            if not seen.turn_known and isinstance(ev, (Ask, Claim, PassTurn, PassClaim,
                                                       Challenge)) and turn_before is not None:
                if not (isinstance(ev, Claim) and t.options.claims_any_time):
                    put(TurnIs(turn_before), now=before)   # said before ev happened
            put(ev, shown)
            if not seen.turn_known and full.turn is not None and isinstance(ev, Claim):
                put(TurnIs(full.turn))
            if full.end_game and not full.over and seen.vague:   # public (LIT-15)
                for p in list(seen.vague):
                    put(HandCount(p, full.count[p]))
            continue
        if not seen.turn_known and rng.random() < 0.3 and full.turn is not None:
            put(TurnIs(full.turn))
        if full.end_game and not full.over and seen.vague:     # public (LIT-15)
            for p in list(seen.vague):
                put(HandCount(p, full.count[p]))
            continue
        for p in list(seen.vague):
            if rng.random() < 0.25:
                put(HandCount(p, full.count[p]))
    return Record(record.header, tuple(out)), truth


def simulate(players, options=(), seed: int = 0, events: int | None = None,
             wrong_rate: float = 0.015, miss: float = 0.0) -> Record:
    """A complete record of a random legal game (deterministic per ``seed``); with ``miss``
    > 0 a lossy one (:func:`lossy`)."""
    s = Simulator(players, options, seed, wrong_rate)
    rec = s.run(events)
    if miss:
        rec, _ = lossy(rec, s.deal, miss, seed)
    return rec


def simulate_with_deal(players, options=(), seed: int = 0, events: int | None = None,
                       wrong_rate: float = 0.015):
    """The record and the true deal (card key -> player) it was played from (for tests)."""
    s = Simulator(players, options, seed, wrong_rate)
    rec = s.run(events)
    return rec, dict(s.deal)


def simulate_lossy(players, options=(), seed: int = 0, events: int | None = None,
                   miss: float = 0.2):
    """A lossy record and the true place of every card after each statement (for tests)."""
    s = Simulator(players, options, seed)
    rec = s.run(events)
    return lossy(rec, dict(s.deal), miss, seed)
