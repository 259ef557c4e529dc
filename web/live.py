"""What the page of ``sleuth serve`` shows, as plain data for its templates.

Nothing here decides a rule: the figures come from the game's analysis
(``Session.analyze``), the notes and alerts from ``Game.table_notes``, the hint from
``Session.hint``, the choices for tap entry from the record's vocabulary
(:func:`solver.session.vocabulary`).  This module only turns them into cells, labels and
sentences (the same wording as the terminal's sheets, ``cli/<game>.py``)."""
from __future__ import annotations

from typing import Any

from cli.main import percent_cell
from cli.mystery_hand import SUIT_HEAD, short_place
from solver.errors import InconsistentError, SleuthError


def chance_cell(card: str, p: float, place: str) -> tuple[str, str, str]:
    """A sheet cell where the card is not certain: its text, accessible name and kind, the
    chance that ``card`` is in ``place``.

    >>> chance_cell("9S", 0.12, "mystery"), chance_cell("AD", 0.0, "mystery")
    (('12%', '9S: 12% mystery', 'chance'), ('·', 'AD: not mystery', 'no'))
    """
    if p <= 0:
        return "·", f"{card}: not {place}", "no"
    text = percent_cell(p)
    return text, f"{card}: {text} {place}", "chance"


def working_cell(card: str) -> tuple[str, str, str]:
    """A sheet cell of a card not certain yet while the figures are worked on (the sheet
    of stage 1, :func:`stage_sheet`): its text, accessible name and kind.

    >>> working_cell("9S")
    ('working', '9S: working', 'working')
    """
    return "working", f"{card}: working", "working"


def place_name(loc: str, target: str = "mystery") -> str:
    """A location as a person reads it: a player's name, ``mystery``, ``face up``...

    >>> place_name("faceup"), place_name("mystery"), place_name("mystery:Ana"), place_name("Ben")
    ('face up', 'mystery', "Ana's mystery hand", 'Ben')
    """
    if loc == target or loc == "mystery":
        return "mystery"
    if loc.startswith("mystery:"):
        return f"{loc[8:]}'s mystery hand"
    if loc == "faceup":
        return "face up"
    return loc


def mystery_sheet(a, view: str | None) -> dict:
    """Mystery Hand's 13 x 4 memory sheet (MH-6): the holder where certain, else the chance
    the card is in the target mystery hand; every cell with its accessible name."""
    from solver.cards import RANKS, SUITS, Card

    rows = []
    for r in range(1, 14):
        cells = []
        for s in SUITS:
            name = repr(Card(r, s))
            where = a.certain(name)
            if where is not None:
                text = short_place(where, a.target)
                label = f"{name}: {place_name(where, a.target)}"
                kind = "mine" if where == view else "myst" if where == a.target else "known"
            elif a.cards is None:           # stage 1: the figures follow
                text, label, kind = working_cell(name)
            else:
                text, label, kind = chance_cell(name, a.cards[name].get(a.target, 0.0),
                                                "mystery")
            cells.append({"card": name, "text": text, "label": label, "kind": kind})
        rows.append({"rank": RANKS[r - 1], "cells": cells})
    return {"kind": "grid", "heads": [SUIT_HEAD[s] for s in SUITS], "rows": rows}


def clue_sheet(a, view: str | None) -> dict:
    """Clue's notebook (CL-2): one row per card (suspects, weapons, rooms), one column per
    player, the case file and the face-up cards, as the terminal's (``cli/clue.py``): X
    where the card certainly is, · where it cannot be, else the chance it is there; every
    cell with its accessible name ("Knife: Ben", "Knife: 40% case file", "Knife: not Cleo")."""
    from cli.clue import ENVELOPE, FACEUP, _head

    locs = [l for l in a.locations if l not in (ENVELOPE, FACEUP)] + [ENVELOPE] + \
        [l for l in a.locations if l == FACEUP]
    said = {l: "case file" if l == ENVELOPE else place_name(l) for l in locs}
    rows = []
    for title, group in zip(("Suspects", "Weapons", "Rooms"), a.deck.groups):
        for i, card in enumerate(group):
            where = a.certain(card)
            cells = []
            for l in locs:
                p = (1.0 if l == where else 0.0) if where is not None else \
                    None if a.cards is None else a.cards[card].get(l, 0.0)
                if p is None:               # stage 1: the figures follow
                    text, label, kind = working_cell(card)
                elif p >= 1.0:
                    text, label = "X", f"{card}: {said[l]}"
                    kind = "mine" if l == view else "myst" if l == ENVELOPE else "known"
                else:
                    text, label, kind = chance_cell(card, p, said[l])
                cells.append({"card": card, "text": text, "label": label, "kind": kind})
            rows.append({"rank": card, "group": title if i == 0 else None, "cells": cells})
    return {"kind": "grid", "game": "clue", "heads": [_head(l) for l in locs], "rows": rows,
            "legend": "X = certainly there, · = cannot be there, else the chance it is "
                      "there; FILE = the case file" + ("; up = face up"
                                                       if FACEUP in locs else "")}


class StageOne:
    """Stage 1 of the analysis (:class:`solver.staged.Certainties`) standing in for the
    analysis in the sheet functions (:func:`stage_sheet`): where each certain card is;
    no figures (``cards`` is ``None``: those cells say "working"); the rest (``target``,
    ``locations``, ``table``...) is the record's structure, which needs no analysis."""

    cards = None

    def __init__(self, first, **structure: Any):
        self.places = dict(first.certain)
        self.__dict__.update(structure)

    def certain(self, card: str) -> str | None:
        return self.places.get(card)

    def certain_dist(self, card: str) -> dict[str, float] | None:
        """A certain card's places as the analysis gives them (Literature: copies' places
        joined by ", "; out of play: none); ``None`` when not certain yet."""
        where = self.places.get(card)
        if where is None:
            return None
        return {} if where == "out" else {w: 1.0 for w in where.split(", ")}


def stage_sheet(session, record, first) -> dict | None:
    """The sheet of stage 1 (``first``, a :class:`~solver.staged.Certainties`): the game's
    own sheet (:func:`mystery_sheet`, :func:`clue_sheet`, :func:`literature_sheet`) with
    the certain cards as the full sheet words them and every other cell "working",
    marked ``provisional``; ``None`` for a game without a grid."""
    view, h = session.view, record.header
    try:
        if record.game == "mystery-hand":
            from solver.mystery_hand.inference import target_of

            a = StageOne(first, target=target_of(view, h, session.game.options(h)))
            sheet = mystery_sheet(a, view)
        elif record.game == "clue":
            from solver.clue.inference import locations
            from solver.clue.options import deck_of

            a = StageOne(first, locations=list(locations(record)), deck=deck_of(h))
            sheet = clue_sheet(a, view)
        elif record.game == "literature":
            from types import SimpleNamespace

            from solver.literature.analysis import _status
            from solver.literature.engine import Play

            play = Play.of(record)
            t = play.table
            held: dict[str, list[str]] = {}
            for card, where in first.certain:
                held.setdefault(where, []).append(card)
            a = StageOne(first, table=t, turn=play.turn if play.turn_known else None,
                         halves={x.name: SimpleNamespace(status=_status(play, x.name),
                                                         p_team=None) for x in t.halves},
                         hands={p: {"known": held.get(p, [])} for p in t.players},
                         counts={p: None if p in play.vague else play.count[p]
                                 for p in t.players})
            sheet = literature_sheet(a, view)
        else:
            return None
    except SleuthError:
        return None
    sheet["provisional"] = True
    return sheet


def clue_extras(a) -> dict:
    """The possible case files, the verdict and what is an estimate (Clue)."""
    c = a.envelope
    count = f"{c.count:,}" if c.count is not None else f"at most {c.upper:,} (not counted)"
    precision = ("Probabilities: exact (uniformly random case file and deal, truthful "
                 "players)." if a.exact else
                 f"Probabilities: estimates (95% half-width {a.error:.3f}); certainties "
                 "are exact.")
    top = [{"cards": " ".join(cards), "p": f"{p:.3g}" if 0 < p < 0.99 else
            ("1" if p >= 1 else "0")} for cards, p in (c.top or [])]
    return {"candidates": count, "certain_in": " ".join(c.certain), "top": top,
            "verdict": a.verdict, "precision": precision, "estimate": not a.exact,
            "candidates_title": "Possible case files", "top_title": "case file"}


def mystery_extras(a) -> dict:
    """The candidates, the verdict and what is an estimate (Mystery Hand)."""
    c = a.mystery
    if c.count is not None:
        count = str(c.count)
    elif c.lower and c.upper:
        count = f"between {c.lower} and {c.upper} (too many to count)"
    elif c.upper:
        count = f"at most {c.upper} (too many to count)"
    else:
        count = "too many to count"
    if a.exact and not (c.error and not c.exact):
        precision = "Probabilities: exact (uniformly random deal, truthful players)."
    elif a.exact:
        precision = ("Probabilities: exact on the sheet; the candidate hands' chances are "
                     f"estimates (95% half-width {c.error:.3f}).")
    else:
        precision = (f"Probabilities: estimates (95% half-width {a.error:.3f}); "
                     "certainties are exact.")
    top = [{"cards": " ".join(map(repr, cards)), "p": f"{p:.3g}" if 0 < p < 0.99 else
            ("1" if p >= 1 else "0")} for cards, p in (c.top or [])]
    return {"candidates": count, "certain_in": " ".join(map(repr, c.certain)), "top": top,
            "verdict": a.verdict, "precision": precision, "estimate": not a.exact}


def literature_cell(cn: str, dist: dict[str, float], view: str | None) -> tuple[str, str, str]:
    """A Literature card's cell from where it may be (``{place: chance}``): its holder, out
    of play, or who may hold it with the chances.

    >>> literature_cell("9S", {"Ben": 1.0}, "Ana"), literature_cell("2H", {}, "Ana")
    (('Ben', '9S: Ben', 'known'), ('out', '2H: out of play', 'no'))
    """
    places = sorted(((l, p) for l, p in dist.items() if p > 0), key=lambda lp: -lp[1])
    if not places:
        return "out", f"{cn}: out of play", "no"
    if len(places) == 1 and places[0][1] >= 1.0 - 1e-12:
        who = places[0][0]
        return who, f"{cn}: {who}", "mine" if who == view else "known"
    parts = [f"{l} {percent_cell(min(p, 1.0))}" for l, p in places]
    return parts[0], f"{cn}: " + ", ".join(parts), "chance"


def literature_sheet(a, view: str | None) -> dict:
    """Literature's half-suits (LIT-2), each card with who holds it or who may, and the
    hands: counts and the cards known in each."""
    t = a.table
    halves = []
    for name, h in a.halves.items():
        cells = []
        half = next(x for x in t.halves if x.name == name)
        seen: list[str] = []
        for card in half.cards:
            cn = repr(card)
            if cn in seen:
                continue
            seen.append(cn)
            dist = a.cards.get(cn, {}) if a.cards is not None else a.certain_dist(cn)
            if dist is None:                # stage 1: the figures follow
                text, label, kind = working_cell(cn)
            else:
                text, label, kind = literature_cell(cn, dist, view)
            cells.append({"card": cn, "text": text, "label": label, "kind": kind})
        status = h.status
        if status.startswith("won:"):
            status = f"won by team {status[4:]}"
        teams = ", ".join(f"team {k} " + (percent_cell(v) if 0 < v < 1 else f"{round(v * 100)}%")
                          for k, v in (h.p_team or {}).items())
        head = f"{name}: {status}" + (f"; all six with {teams}" if status == "open" and teams
                                      else "")
        halves.append({"name": name, "head": head, "cells": cells})
    hands = []
    for i in (0, 1):
        for p in t.teams[i]:
            info = a.hands.get(p, {})
            n = a.counts.get(p)
            hands.append({"team": t.team_name(i), "player": p, "turn": p == a.turn,
                          "count": "?" if n is None else str(n),
                          "known": " ".join(info.get("known", [])) or "-"})
    return {"kind": "halves", "halves": halves, "hands": hands}


def literature_extras(a, view: str | None = None) -> dict:
    """The score, the verdict and what is an estimate (Literature); a safe claim as an alert
    where the game's notes do not say it already (they do for a player's view:
    ``Game.table_notes``, "You can claim 2H-7H safely ...")."""
    alerts = []
    for name, h in a.halves.items():
        if h.safe_claim and view is None:
            cards = ", ".join(f"{p} {' '.join(cs)}" for p, cs in h.safe_claim.items())
            alerts.append(f"Safe claim now: {name}: {cards}")
    score = ", ".join(f"team {k} {v}" for k, v in a.score.items())
    verdict = (f"Game over: {a.winner or 'a tie'} wins; score {score}." if a.over
               else f"Score: {score}.")
    precision = ("Probabilities: exact." if a.exact else
                 f"Probabilities: estimates (95% within ±{a.error:.3f}); certainties are exact.")
    return {"alerts": alerts, "verdict": verdict, "precision": precision,
            "estimate": not a.exact}


def still_in(record) -> list[str]:
    """The players still asked and answering (Mystery Hand: not out after a wrong
    announcement, MH-20); every player where the game does not say."""
    if record.game == "mystery-hand":
        try:
            from solver.mystery_hand.engine import run

            return list(run(record).active)
        except SleuthError:
            pass
    return list(record.header.players)


def current_player(record) -> tuple[str | None, list[str]]:
    """Who is on turn after ``record`` (the game's own turn order) and who else may act now
    (an extra turn); ``(None, [])`` where the game does not say."""
    try:
        if record.game == "mystery-hand":
            from solver.mystery_hand.engine import run

            st = run(record)
            return (None if st.over else st.current), list(st.may_act())
        if record.game == "literature":
            from solver.literature.engine import run as run_literature

            lit = run_literature(record)
            return (None if lit.over else lit.turn), []
    except SleuthError:
        pass
    return None, []


def range_cards(record, ranges) -> dict[str, list[str]]:
    """The cards of every range, rank set or half-suit of the vocabulary (for the answer
    choices: the cards shown from that range)."""
    out: dict[str, list[str]] = {}
    try:
        if record.game == "mystery-hand":
            from solver.cards import parse_query_set

            for r in ranges:
                out[r] = [repr(c) for c in parse_query_set(r).cards()]
        elif record.game == "literature":
            from solver.games import get_game

            table = get_game("literature").table(record.header)     # type: ignore[attr-defined]
            for h in table.halves:
                names: list[str] = []
                for c in h.cards:
                    if repr(c) not in names:
                        names.append(repr(c))
                out[h.name] = names
    except SleuthError:
        pass
    return out


def literature_asks(record, view: str | None, held: dict[str, list[str]]) -> dict[str, Any]:
    """Whom each player may ask and for which cards now (Literature, LIT-6), from the
    engine's state: an opponent with cards; a card of an open half-suit.  For the view,
    whose hand is known, only the half-suits it holds a card of and, unless the variant
    lets one ask for one's own card (``own-card-ask=bluff``), the cards it does not hold.
    For a claim (LIT-10, LIT-11): each player's team (a claim names only its members) and
    the half-suits still open."""
    from solver.literature.engine import can_ask_for, can_ask_whom, run

    try:
        state = run(record)
    except SleuthError:
        return {}
    t = state.table
    whom = {a: [b for b in t.players if can_ask_whom(state, a, b)] for a in t.players}
    cards: dict[str, list[str]] = {}
    for a in t.players:
        # the view's cards when known: LIT-6(c), (d) with them
        hand = [t.card(n) for n in held[a]] if a == view and a in held else None
        out: list[str] = []
        for h in t.halves:
            for c in h.cards:
                if repr(c) not in out and can_ask_for(state, a, c, hand):
                    out.append(repr(c))
        cards[a] = out
    return {"whom": whom, "cards": cards, "open": list(state.open),
            "team": {a: list(t.team_of(a)) for a in t.players}}


def card_groups(record) -> list[list[str]]:
    """Clue's cards by kind (suspects, weapons, rooms: the header's own lists where it
    has them), for the tap entry of a suggestion; none for the other games."""
    if record.game != "clue":
        return []
    from solver.clue.options import deck_of

    try:
        return [list(g) for g in deck_of(record.header).groups]
    except SleuthError:
        return []


def refutes_all(record) -> bool:
    """Whether every other player answers a suggestion (Clue's ``variant: refute=all``,
    CL-13)."""
    if record.game != "clue":
        return False
    from solver.clue.options import ClueOptions

    try:
        return ClueOptions.of(record.header).refute == "all"
    except SleuthError:
        return False


def entry_data(session, held: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """What the page's tap entry offers: the vocabulary of the record (names, keywords,
    cards, ranges, and what follows each keyword), who is on turn, each range's cards, and
    the cards each player certainly holds (``held``: the likely answers to a question)."""
    v = session.vocabulary()
    rec = session.record
    turn, may = current_player(rec)
    return {"game": rec.game, "view": session.view, "names": list(v.names),
            "active": still_in(rec), "held": held or {},
            "lead": list(v.lead), "verbs": list(v.verbs), "words": list(v.words),
            "cards": list(v.cards), "ranges": list(v.ranges),
            "follows": [[k, [list(s) for s in slots], list(ans)] for k, slots, ans in v.follows],
            "turn": turn, "may_act": may, "range_cards": range_cards(rec, v.ranges),
            "groups": card_groups(rec), "refute_all": refutes_all(rec),
            "worded": worded(session.game, v.follows), "leads": lead_data(rec),
            "asks": literature_asks(rec, session.view, held or {})
            if rec.game == "literature" else {}}


def lead_data(record) -> dict[str, Any]:
    """What the tap entry offers after a lead keyword that the vocabulary gives no slots
    (its numbers and names come from the game's state): Mysterium's ``hour N`` (the next
    hour, MY-15), ``crow`` or ``crow: N`` (1 to the ghost's hand, MY-9), ``group N: P``
    (the groups not numbered yet and the psychics whose group is not, MY-16),
    ``verdict: N`` and ``culprit: N`` (MY-21, MY-22); Hand's ``round N: ...`` (the next
    round, the partners left out of the penalties, the Full Hand bonuses and
    ``stock`` the variant allows: HR-37..HR-42, HR-57, HR-59).  Empty where the record
    cannot be replayed (the taps then offer what the grammar allows)."""
    try:
        if record.game == "mysterium":
            from solver.mysterium.engine import replay
            from solver.mysterium.options import LAST_HOUR

            play = replay(record)
            r = play.roster
            named = {g.psychic for g in play.groups.values() if g.psychic}
            whole = r.options.crow_discard == "whole-hand"
            on = play.phase in ("setup", "investigation") and play.hour < LAST_HOUR
            return {"hour": [play.hour + 1] if on else [],
                    "crow": [] if whole else list(range(1, play.ghost_hand + 1)),
                    "groups": [n for n in range(1, r.n_groups + 1) if n not in play.groups],
                    "all_groups": list(range(1, r.n_groups + 1)),
                    "psychics": [p for p in r.psychics if p not in named]}
        if record.game == "hand":
            from solver.hand.analysis import score_sheet
            from solver.hand.engine import team_pairs
            from solver.hand.options import HandOptions

            o = HandOptions.of(record.header)
            partner = {}
            for a, b in team_pairs(record.header, o) or ():
                partner[a], partner[b] = b, a
            bonuses = [name for name, on in (("wild-discard", o.bonus_wild_discard),
                                             ("two-wilds", o.bonus_two_wilds),
                                             ("colour", o.bonus_colour),
                                             ("suit", o.bonus_suit)) if on]
            return {"round": score_sheet(record).next_round, "partner": partner,
                    "bonuses": bonuses, "stock": o.stock_end == "penalties"}
        if record.game == "twenty-two":
            return twenty_two_play(record)
    except SleuthError:
        pass
    return {}


_TT_CACHE: dict[tuple, dict[str, Any]] = {}


def twenty_two_play(record) -> dict[str, Any]:
    """Twenty-Two's next play to a trick, for the tap entry: who plays (the engine's
    leader or follower, when ``can_lead``/``can_follow`` say so), the verb (``leads`` or
    ``plays``), the cards offered and the plays allowed, each as its cards' ranks
    (``Jk`` a joker).  A hand the record gives whole (the recorder's own) offers its cards
    and its legal plays (:func:`solver.twenty_two.ranking.legal_leads`,
    :func:`~solver.twenty_two.ranking.legal_follows`, the engine's rules TT-9..TT-11,
    TT-V1, TT-V2); another player's the cards still unseen that they may hold (every
    consistent deal of the hand, as ``log`` checks it: I1..I5), or every unseen card
    where that cannot be decided in time; their lead of one rank (TT-9, A5), any follow of
    as many cards as were led (TT-10: ``plays`` is ``None``).  Empty when no play is due
    (before the deal's exchange is done, at the showdown, between hands)."""
    key = (repr(record.header), tuple(st.text for st in record.statements))
    if key not in _TT_CACHE:
        if len(_TT_CACHE) >= 4:
            _TT_CACHE.clear()
        _TT_CACHE[key] = _twenty_two_play(record)
    return _TT_CACHE[key]


def _twenty_two_play(record) -> dict[str, Any]:
    from solver.cards import Card
    from solver.twenty_two.engine import can_follow, can_lead, replay
    from solver.twenty_two.ranking import lead_problem, legal_follows, legal_leads

    eng = replay(record)
    st = eng.state()
    lead = not st.trick
    who = st.leader if lead else st.follower
    if who is None or not (can_lead(st, who) if lead else can_follow(st, who)):
        return {}

    def rank(c: Card) -> str:
        return "Jk" if c.is_joker else repr(c)[:-1]

    def ranks(plays) -> list[list[str]]:
        return [list(p) for p in sorted({tuple(sorted(rank(c) for c in p)) for p in plays})]

    trick = [cards for _, cards in st.trick]
    if eng.full.get(who):
        hand = sorted(Card.parse(n) for n in eng.known[who].elements())
        plays = legal_leads(hand, eng.opts) if lead else legal_follows(hand, trick, eng.opts)
        return {"next": {"player": who, "verb": "leads" if lead else "plays",
                         "cards": [repr(c) for c in hand], "plays": ranks(plays),
                         "n": None, "known": True}}
    may = _may_hold(record, eng, who)
    cards = sorted(Card.parse(n) for n in may.elements())
    out: dict[str, Any] = {"player": who, "verb": "leads" if lead else "plays",
                           "cards": [repr(c) for c in cards], "plays": None,
                           "n": None if lead else len(trick[0]), "known": False}
    if lead:
        out["plays"] = ranks(p for p in legal_leads(cards, eng.opts)
                             if lead_problem(p, st.hand_size, None, eng.opts) is None)
    return {"next": out}


def _may_hold(record, eng, who: str):
    """The cards (name -> copies) ``who``'s hidden hand may hold now: every card some
    consistent deal of the hand puts there (the model ``log``'s check solves, with all that
    is written), else the cards not placed by the record at all."""
    from collections import Counter

    from solver.twenty_two.inference import build, is_complete

    placed = Counter(eng.public) + eng.known_discards
    for hand in eng.known.values():
        placed += hand
    unseen = (Counter(eng.deal.deck) - placed) + eng.known[who]
    try:
        vm = build(record, record.header.me, eng.deal, eng.opts, complete=is_complete(eng),
                   omniscient=True)
        bb = vm.model.backbone()
    except SleuthError:
        return unseen
    if not bb.consistent:
        return unseen
    may: Counter = Counter()
    for k, locs in bb.possible.items():
        if who in locs:
            may[vm.model.name(k)] += 1
    return may


def worded(game, follows) -> list[str]:
    """The keywords of one free slot that a word follows before any colon, by the game's
    own examples (Twenty-Two's "Ben deals 7", "Cleo exchanges 1: ..."): the tap entry
    offers that word first.  The other keywords of one free slot take the colon at once
    ("Ana holds: ...", "faceup: ...")."""
    def word_after(k: str, example: str) -> bool:       # k as a lead word or a verb
        w = [x.lower() for x in example.split()]
        return any(i < len(w) - 1 and w[i] == k for i in (0, 1))

    return [k for k, slots, _ in follows if len(slots) == 1 and not slots[0]
            and any(word_after(k, e) for e in game.examples)]


def first_stage(session, record=None) -> Any:
    """Stage 1 of the analysis of ``record`` (default: the session's) from the session's
    view (:func:`solver.staged.certainties`: the certainties and the alerts that need no
    figures): a :class:`~solver.staged.Certainties`, the conflict's sentence when no deal
    fits the record, or ``None`` when the game has no analysis, the analysis was cancelled
    (a newer version) or failed otherwise (the full analysis then says why).  Run it
    within a deadline (:func:`solver.model.budget.within`): stage 1 takes a part of it."""
    from solver.games import Capability
    from solver.model.budget import TimeUp
    from solver.staged import certainties

    if Capability.ANALYZE not in session.game.capabilities:
        return None
    rec = record if record is not None else session.record
    try:
        return certainties(session.game, rec, session.view)
    except TimeUp:
        return None
    except InconsistentError as e:
        return inconsistent_text(e)
    except SleuthError:
        return None


def inconsistent_text(e: InconsistentError) -> str:
    """The page's sentence for a record no deal fits: the conflict, and the way out."""
    from cli.main import conflict_text

    return "inconsistent: " + conflict_text(e).replace("\n", " ") + \
        " ('Undo' removes the last statement.)"


def certain_line(certain) -> str | None:
    """Certain cards as one line ("2S: Ana; 9H: mystery"), ``None`` if none."""
    parts = [f"{card}: {place_name(where)}" for card, where in sorted(dict(certain).items())]
    return "; ".join(parts) if parts else None


def live(session, whatif: str | None = None, quick: bool = False,
         known=None, first=None) -> dict[str, Any]:
    """Everything the live part of the page shows for the session's record now (or, with
    ``whatif``, for the record with that statement added, not saved).  ``quick``: what needs
    no analysis (the turn, the lines, the notes), marked ``pending``.  The advisor's hint
    is not here: it comes apart (``GET /hint``), as it can take long.  ``known``: the
    outcome of ``whatif`` when already computed.  ``first``: with ``quick``, stage 1 of
    the analysis (:func:`first_stage`), shown while the figures are worked on: its
    certainties (``certain``, ``certain_so_far``), alerts and notes; ``stage`` says which
    answer this is (``"none"``, ``"certainties"``, ``"figures"``)."""
    from solver.games import Capability

    from solver.records import text_version

    rec = session.record
    game = session.game
    view = session.view
    out: dict[str, Any] = {
        "title": game.title or rec.game, "game": rec.game, "view": view or "public",
        "version": text_version(session.text), "whatif": None, "whatif_error": None,
        "pending": quick, "held": {}, "certain_so_far": None,
        "stage": "none", "certain": {}, "certain_complete": None,
        "alerts": [], "notes": [], "hint": None, "sheet": None, "text_sheet": None,
        "extras": {"verdict": None, "precision": None, "estimate": False}, "error": None, "turn": None, "lines": [],
        "has_advice": Capability.ADVISE in game.capabilities and view is not None,
    }
    raw = session.text.splitlines()
    out["lines"] = [{"line": st.line, "text": st.text,
                     "shown": raw[st.line - 1].strip() if st.line <= len(raw) else st.text}
                    for st in rec.statements]
    turn, _ = current_player(rec)
    out["turn"] = turn
    target = rec
    if whatif is not None:
        o = known if known is not None else session.whatif(whatif)     # known: just computed
        if o.kind != "whatif":
            out["whatif_error"] = _error_text(o)
        else:
            target = o.record
            out["turn"] = current_player(target)[0]
            out["whatif"] = whatif
            out["new_certain"] = ", ".join(f"{c}: {l}" for c, l in sorted(o.new_certain.items()))
    analysis = None
    if quick:
        if isinstance(first, str):          # stage 1 found the record inconsistent
            out["error"], out["pending"] = first, False
        if first is not None and not isinstance(first, str):
            out["stage"], out["certain"] = "certainties", dict(first.certain)
            out["certain_complete"] = first.complete
            out["certain_so_far"] = certain_line(first.certain)
            if whatif is None:
                out["sheet"] = stage_sheet(session, rec, first)
            out["alerts"] += first.alerts
            out["notes"] += [n.text for n in first.notes if not n.strong]
        else:
            notes = _notes(game, target, view, None)
            out["alerts"] += [n.text for n in notes if n.strong]
            out["notes"] += [n.text for n in notes if not n.strong]
        return out
    try:
        analysis = session.analyze(target)
    except InconsistentError as e:
        out["error"] = inconsistent_text(e)
    except SleuthError as e:
        out["error"] = f"no analysis: {e}"
        out["certain_so_far"] = established(e)
    if analysis is not None:
        out["stage"] = "figures"
    if analysis is not None and whatif is None:
        for card, places in getattr(analysis, "possible", {}).items():
            if len(places) == 1:
                out["held"].setdefault(next(iter(places)), []).append(card)
    if analysis is not None:
        if rec.game == "mystery-hand":
            out["sheet"] = mystery_sheet(analysis, view)
            out["extras"] = mystery_extras(analysis)
        elif rec.game == "clue":
            out["sheet"] = clue_sheet(analysis, view)
            out["extras"] = clue_extras(analysis)
        elif rec.game == "literature":
            out["sheet"] = literature_sheet(analysis, view)
            out["extras"] = literature_extras(analysis, view)
            out["alerts"] += out["extras"]["alerts"]
        else:
            from cli.session import render_analysis

            out["text_sheet"] = render_analysis(analysis, rec.game)
    for n in _notes(game, target, view, analysis):
        (out["alerts"] if n.strong else out["notes"]).append(n.text)
    return out


def established(e: Any) -> str | None:
    """What an analysis had established (``TimeUp.established``, or a running deadline's):
    the cards whose place was certain, as one line; ``None`` if nothing."""
    from solver.staged import certain_of

    got = getattr(e, "established", None) or {}
    places = got.get("places")
    if not places:
        return None
    return certain_line(certain_of(places, got.get("joined", True)))


def _notes(game, record, view, analysis) -> list:
    """The game's notes on the table (whose turn, what is missing, the alerts)."""
    try:
        return list(game.table_notes(record, view, analysis))
    except SleuthError:
        return []


def _error_text(o) -> str:
    """A refused outcome's error as one sentence (the conflict's sentence for a
    contradiction)."""
    from cli.main import conflict_text, rule_hint

    e = o.error
    if e is None:
        return o.message or "refused"
    if isinstance(e, InconsistentError):
        return conflict_text(e).split("\n")[0] + rule_hint(e)
    return str(e) + rule_hint(e)


def stale_text(line: str) -> str:
    """The page's sentence for a change refused because the record moved on since the page
    showed it (:class:`~solver.errors.StaleError`): what happened, and what the page does
    (it shows the record as it is now; a statement stays in the box: nothing is lost).

    >>> print(stale_text("undo"))
    refused: not saved: the record changed since this page showed it (another device, \
'sleuth log' or an editor saved it); the page now shows it as it is: Undo was not done, \
tap it again if the last line is still the one to take back
    """
    word = line.split(" ", 1)[0].lower()
    if word in ("undo", "redo"):
        then = f"{word.capitalize()} was not done, tap it again if the last line is still " \
            f"the one to {'take back' if word == 'undo' else 'put back'}"
    elif word == "delete":
        then = f"line {line[7:].strip()} was not deleted, check the Lines and delete again"
    else:
        then = f"'{line}' is still in the Statement box, check it and log it again"
    return ("refused: not saved: the record changed since this page showed it (another "
            "device, 'sleuth log' or an editor saved it); the page now shows it as it is: "
            + then)


def outcome(o, session) -> dict[str, Any]:
    """One action's result for the page: its kind, the sentence for the status region,
    the corrections to offer (did-you-mean), the conflicting lines, a why's text."""
    k = o.kind
    d: dict[str, Any] = {"kind": k, "saved": o.saved, "fixes": [], "conflict": [],
                         "why": None, "whatif": None}
    if k == "accepted":
        status = f"logged line {o.line}: {o.statement}" + (" (forced)" if o.forced else "")
    elif k == "refused":
        why = _error_text(o)
        if o.message and o.error is not None and o.message not in why:
            why = f"{o.message}: {why}"     # the context: "the file on disk no longer parses"
        status = ("what if refused: " if o.hypothetical else "refused: ") + why
        d["fixes"] = list(getattr(o.error, "did_you_mean", None) or [])
        d["conflict"] = [{"line": ln, "text": t} for ln, t in o.conflict]
        from solver.errors import StaleError

        d["stale"] = isinstance(o.error, StaleError)
        if d["stale"]:
            status = stale_text(o.statement or "")
    elif k == "pending":
        status = f"held: {o.error}. {o.message}"
    elif k == "undone":
        status = "; ".join(f"undo: removed line {ln}: {t}" for ln, t in o.removed)
    elif k == "redone":
        status = "; ".join(f"redo: put back line {ln}: {t}" for ln, t in o.removed)
    elif k == "edited":
        status = f"line {o.line} is now: {o.statement}"
    elif k == "deleted":
        was = o.removed[0][1] if o.removed else ""
        status = f"deleted line {o.line}: {was} (the lines after it move up one)"
    elif k == "whatif":
        status = f"what if: {o.statement} (hypothetical, not saved)"
        d["whatif"] = o.statement
    elif k == "why":
        from cli.commands import render_explanation

        d["why"] = render_explanation(o.explanation)
        status = f"why {o.statement}"
    elif k == "noted":
        status = f"noted: {o.statement}"
    elif k == "suggest":
        from cli.advise import render_advice

        d["why"] = render_advice(o.advice)
        status = "advice"
    elif k == "help":
        d["why"] = o.message
        status = "help"
    elif k == "empty":
        status = "nothing to log: the Statement box is empty"
    else:
        status = k
    if o.reloaded and not d.get("stale"):
        status += " (the record had changed on disk: the page read it again first)"
    d["status"] = status
    return d
