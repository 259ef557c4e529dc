"""A ``holds:`` line for another player in a player's own record (``me:``, not every hand
listed) is a hand known to the recorder (record-format.md: "own hand; a revealed hand"): the
recorder's view uses it, as does the view of the player whose hand it is; a third player's
view and the public view of the record do not.  Literature (its ``holds`` is a hand at that
moment, with or without unseen events, under the memory modes) and Hand (a hand as dealt),
as Mystery Hand, Clue and Twenty-Two already read such a line.  Complete records (every
hand listed) are unchanged: there each view knows only its own hand."""
from __future__ import annotations

from dataclasses import replace

import pytest

from solver.hand.analysis import analyse_round
from solver.hand.events import Draw, Holds as HandHolds
from solver.hand.inference import truth
from solver.hand.simulate import simulate as simulate_round
from solver.literature import GAME as LITERATURE
from solver.literature.advise import suggest
from solver.literature.engine import Play, cut_points
from solver.literature.events import Holds
from solver.literature.inference import backbone, build
from solver.literature.simulate import simulate_lossy, simulate_with_deal
from solver.model.budget import Budget
from solver.records import Record, parse_record, write_record
from tests.test_literature_properties import check_prefix, truth_now

# ----- Literature: table-driven ----------------------------------------------------------------
LIT_HEAD = "game: literature\n{variant}players: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
ANA = "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n"
BEN = "Ben holds: 5H 9C 10C KC AS KS QS JS\n"
BEN_CARDS = "5H 9C 10C KC AS KS QS JS".split()

#: (id, variant, body, Ben's cards the record reveals)
LIT_CASES = [
    ("dealt", "", ANA + BEN + "Ana asks Ben 10S: no\n", BEN_CARDS),
    ("dealt-first", "", BEN + ANA + "Ana asks Ben 10S: no\n", BEN_CARDS),
    # a hand at that moment: after Ana took 5H from Ben
    ("later", "", ANA + "Ana asks Ben 5H: yes\nBen holds: 9C 10C KC AS KS QS JS\n"
     "Ana asks Ben 10S: no\n", BEN_CARDS[1:]),
    # with an answer not heard (the history model): Cleo asks next, so she said no
    ("unseen", "", ANA + BEN + "Ana asks Ben 10S: no\nBen asks Cleo QC: ?\n"
     "Cleo asks Dev 9D: no\n", BEN_CARDS),
    ("unseen-later", "", ANA + "Ana asks Ben 10S: no\nBen asks Cleo QC: ?\n"
     "Cleo asks Dev 9D: no\n" + BEN, BEN_CARDS),
    # A9: the model of the current hands (a hand an unseen question may have changed is
    # forgotten, so here the unseen question is between Cleo and Dev)
    ("last-question", "variant: memory=last-question\n", ANA + BEN + "Ana asks Ben 10S: no\n",
     BEN_CARDS),
    ("last-two", "variant: memory=last-two\n", ANA + BEN + "Ana asks Ben 10S: no\n",
     BEN_CARDS),
    ("last-question-unseen", "variant: memory=last-question\n",
     ANA + BEN + "Ana asks Ben 10S: no\nBen asks Cleo QC: no\nCleo asks Dev 9D: ?\n"
     "Cleo has 8 cards\nDev has 8 cards\n", BEN_CARDS),
]


def lit(variant: str, body: str) -> Record:
    return parse_record(LIT_HEAD.format(variant=variant) + body)


def certain_at(cards: dict, name: str, who: str) -> bool:
    return cards[name] == {who: 1.0}


@pytest.mark.parametrize("variant,body,revealed", [c[1:] for c in LIT_CASES],
                         ids=[c[0] for c in LIT_CASES])
def test_literature_a_revealed_hand_is_known_to_the_recorder_and_its_owner(variant, body,
                                                                          revealed):
    r = lit(variant, body)
    line = next(s.line for s in r.statements if isinstance(s.event, Holds)
                and s.event.player == "Ben")
    budget = Budget(time_budget=0.5)
    seen = {view: LITERATURE.analyze(r, view, budget=budget).cards
            for view in ("Ana", "Ben", "Cleo", None)}
    for c in revealed:
        assert certain_at(seen["Ana"], c, "Ben"), ("Ana", c, seen["Ana"][c])
        assert certain_at(seen["Ben"], c, "Ben"), ("Ben", c, seen["Ben"][c])
    # neither Cleo's view nor the public one knows Ben's hand, and only Ana's knows hers
    for view in ("Cleo", None):
        assert not any(certain_at(seen[view], c, "Ben") for c in revealed), view
    for view in ("Ben", "Cleo", None):
        assert not certain_at(seen[view], "2H", "Ana"), view
    # `why` cites the line
    e = LITERATURE.explain(r, "Ana", revealed[-1])
    assert any(line in reason.lines for reason in e.reasons), e
    assert e.statements[line].startswith("Ben holds:")


def test_literature_a_revealed_hand_contradicted_is_a_conflict_in_the_recorders_view():
    """Ana's view uses Ben's hand, so a later 'yes' for a card Ana knows Ben lacked is a
    conflict there (exit 3); the public view of her record does not know the hand."""
    from solver.errors import InconsistentError

    r = lit("", ANA + BEN + "Ana asks Ben 10S: no\nBen asks Cleo QC: no\n"
            "Cleo asks Ben 10H: yes\n")
    with pytest.raises(InconsistentError) as e:
        LITERATURE.analyze(r, "Ana", budget=Budget(time_budget=0.5))
    assert 5 in e.value.conflict
    LITERATURE.analyze(r, None, budget=Budget(time_budget=0.5))


def test_literature_advisor_asks_for_what_the_revealed_hand_holds():
    r = lit("", ANA + BEN)
    adv = suggest(r, "Ana", budget=Budget(time_budget=0.5))
    got = {a.action: a.p_answers["yes"] for a in adv.actions if a.kind == "question"}
    assert got["Ana asks Ben KS"] == 1.0 and got["Ana asks Dev KS"] == 0.0


# ----- Literature: properties on simulated records --------------------------------------------
def _header_text(header) -> str:
    return write_record(Record(header, ())).strip() + "\n"


def _revealed(record: Record, cut: int, truth: dict) -> tuple[Record, Record, str]:
    """Ana's record of the first ``cut`` statements of a complete simulated record (her own
    hand, every move), then the same with the hand a player other than Ana holds then
    (truth: card key -> place) revealed after them; and that player."""
    t = Play.of(record).table
    kept = [s.text for s in record.statements[:cut]
            if not (isinstance(s.event, Holds) and s.event.player != "Ana")]
    who = next(p for p in t.players[1:] if any(truth[k] == p for k in t.keys))
    hand = [t.key_card[k] for k in t.keys if truth[k] == who]
    head = _header_text(record.header)
    return (parse_record(head + "\n".join(kept) + "\n"),
            parse_record(head + "\n".join(kept + [f"{who} holds: " + " ".join(map(repr, hand))])
                         + "\n"), who)


PROPERTY_CASES = [(6, (), 3), (4, (), 11), (8, (), 5), (6, ("memory=last-question",), 7),
                  (6, ("deck=54-jokers",), 2), (6, ("own-card-ask=bluff",), 9)]


@pytest.mark.parametrize("n,variant,seed", PROPERTY_CASES)
def test_literature_simulated_records_with_a_revealed_hand(n, variant, seed):
    """The truth is never ruled out from any view (tests/test_literature_properties.py's
    check), and the recorder's view places the revealed hand."""
    rec, deal = simulate_with_deal(n, variant, seed, events=40)
    cps = [c for c in cut_points(rec) if c > n]
    for cut in (cps[len(cps) // 3], cps[-1]):
        now = truth_now(Play.of(rec.prefix(cut)), deal)
        own, r, who = _revealed(rec, cut, now)
        check_prefix(r, deal, "Ana")
        vm = build(r, "Ana")
        bb = backbone(vm)
        t = vm.table
        for k in t.keys:
            if now[k] == who and len(t.card_keys[t.key_card[k]]) == 1:  # copies: either one
                assert vm.fixed.get(k, who) == who and \
                    (k in vm.fixed or bb.possible[k] == {who}), (k, who)
        # unchanged: Ana's view of the complete record knows what her own record tells
        complete, alone = build(rec.prefix(cut), "Ana"), build(own, "Ana")
        assert complete.fixed == alone.fixed
        assert backbone(complete).possible == backbone(alone).possible


# (6, 3): a record with each kind of unseen line ('Cleo asks Ben ?: no', 'Fay: ?', 'Ben asks
# Eli 4C: ?'); seed 5 had none left once the lossy simulator stopped hiding the recorder's
# questions (commit 26596cc)
@pytest.mark.parametrize("n,seed", [(4, 1), (6, 3), (6, 12), (8, 3)])
def test_literature_lossy_records_with_a_revealed_hand(n, seed):
    """With unseen events (the history model): the true places stay possible from the
    recorder's view, the revealed player's and the public one, and the recorder's view
    places the revealed hand."""
    full, truths = simulate_lossy(n, (), seed, events=12 + n, miss=0.4)
    cut = len(full.statements)
    now = truths[cut - 1]
    _, r, who = _revealed(full, cut, now)
    assert Play.of(r).unseen
    for view in ("Ana", who, None):
        vm = build(r, view)
        assert vm.history
        bb = backbone(vm)
        assert bb.consistent
        for k in vm.table.keys:
            poss = {vm.fixed[k]} if k in vm.fixed else bb.possible[k]
            assert now[k] in poss, (view, k)
            if now[k] == who and view in ("Ana", who) and \
                    len(vm.table.card_keys[vm.table.key_card[k]]) == 1:
                assert poss == {who}, (view, k)


# ----- Hand ------------------------------------------------------------------------------------
def _anas_round(rec: Record, also: str | None) -> Record:
    """Ana's record of a complete simulated round: her hand and ``also``'s (revealed), her
    own draws named, the others' written unseen."""
    out = []
    for s in rec.statements:
        ev = s.event
        if isinstance(ev, HandHolds) and ev.player not in ("Ana", also):
            continue
        if isinstance(ev, Draw) and ev.player != "Ana" and ev.card is not None:
            out.append(str(Draw(ev.player)))
            continue
        out.append(s.text)
    return parse_record(_header_text(replace(rec.header, me="Ana")) + "\n".join(out) + "\n")


def _dealt(rec: Record, who: str):
    return next(s.event.cards for s in rec.statements
                if isinstance(s.event, HandHolds) and s.event.player == who)


#: (players, variant, seed) of simulated rounds; Ben's hand is revealed in Ana's record
HAND_CASES = [(3, (), 1), (4, (), 2), (3, ("teams",), 5), (4, ("wild-mode=jokers-only",), 3),
              (3, ("discard-layoff",), 8)]


@pytest.mark.parametrize("n,variant,seed", HAND_CASES)
def test_hand_a_revealed_hand_is_known_to_the_recorder_and_its_owner(n, variant, seed):
    if "teams" in variant:
        n = 4
    full = simulate_round(n, list(variant), seed)
    rec = _anas_round(full, "Ben")
    dealt = sorted(_dealt(rec, "Ben"), key=repr)
    start = max(s.line for s in rec.statements if isinstance(s.event, HandHolds))
    head = Record(rec.header, tuple(s for s in rec.statements if s.line <= start))
    for view, knows in (("Ana", True), ("Ben", True), ("Cleo", False), (None, False)):
        ben = analyse_round(head, view, chances=False).state.players["Ben"]
        assert (sorted(ben.known.elements(), key=repr) == dealt) == knows, view
        assert (ben.unknown == 0) == knows, view
    # Ana's own hand stays hers: Ben's view does not know it
    assert analyse_round(head, "Ben", chances=False).state.players["Ana"].unknown > 0


@pytest.mark.parametrize("n,variant,seed", HAND_CASES)
def test_hand_simulated_rounds_with_a_revealed_hand_never_rule_out_the_truth(n, variant, seed):
    """tests/test_hand_round.py's property on Ana's record with Ben's hand revealed: from
    every view the record allows, every certainty is true and the truth is never ruled out;
    Ana's view knows more of Ben's hand than the public one."""
    if "teams" in variant:
        n = 4
    full = simulate_round(n, list(variant), seed)
    rec, own = _anas_round(full, "Ben"), _anas_round(full, None)
    # the hands Ana's record leaves out are stated before the first turn
    dropped = len(full.statements) - len(rec.statements)
    for cut in sorted({len(rec.statements) // 3, 2 * len(rec.statements) // 3,
                       len(rec.statements)}):
        prefix = Record(rec.header, rec.statements[:cut])
        whole = Record(full.header, full.statements[:cut + dropped])    # the same statements
        where = truth(whole)
        # unchanged: Ana's view of the complete round knows what her own record tells
        alone = Record(own.header, own.statements[:cut + dropped - len(full.statements)
                                                  + len(own.statements)])
        assert analyse_round(whole, "Ana", chances=False).cards == \
            analyse_round(alone, "Ana", chances=False).cards
        for view in ("Ana", "Ben", "Cleo", None):
            a = analyse_round(prefix, view, chances=False)
            for card, place in a.certain.items():
                assert where[card] == place, (view, card)
            for card, places in where.items():
                for p in set(places.split(", ")):
                    assert a.cards[card].get(p, 0) > 0, (view, card, p)
        ana = analyse_round(prefix, "Ana", chances=False).state.players["Ben"]
        pub = analyse_round(prefix, None, chances=False).state.players["Ben"]
        assert ana.unknown < pub.unknown or pub.unknown == 0


@pytest.mark.parametrize("seed", [1, 4])
def test_literature_the_holds_line_completing_a_record_carries_nothing_over(seed):
    """Statement by statement (stage 1 carries the certainties of the record before): the
    last hand logged makes Ana's partial record complete, and from then on her view knows
    only her own hand, so what the partial record proved with the others' hands is not
    carried over."""
    from solver.literature.history import forget

    full, truths = simulate_lossy(4, (), seed, events=16, miss=0.4)
    last = next(s for s in reversed(full.statements)
                if isinstance(s.event, Holds) and s.event.player != "Ana")
    t = Play.of(full).table
    hand = [t.key_card[k] for k in t.keys if truths[-1][k] == last.event.player]
    body = [s.text for s in full.statements if s is not last]
    head = _header_text(full.header)
    partial = parse_record(head + "\n".join(body) + "\n")
    complete = parse_record(head + "\n".join(body + [f"{last.event.player} holds: "
                                                     + " ".join(map(repr, hand))]) + "\n")
    assert Play.of(partial).unseen
    known = LITERATURE.certainties(partial, "Ana").certain
    # the partial record's hands tell Ana more than her own hand does (her view of the
    # simulator's complete record)
    own = LITERATURE.certainties(full, "Ana").certain
    assert own.items() < known.items()
    carried = LITERATURE.certainties(complete, "Ana").certain
    forget()
    assert carried == LITERATURE.certainties(complete, "Ana").certain
