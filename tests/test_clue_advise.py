"""The Clue advisor: its information figures against an independent computation over every
deal of a small deck, the accusation ranked first once determined, and the review."""
from __future__ import annotations

import math
import sys
from collections import defaultdict
from pathlib import Path

from solver.clue.advise import review, suggest
from solver.clue.events import seating_after
from solver.clue.inference import true_deal
from solver.clue.simulate import simulate
from solver.records import parse_record, write_record
from tests.helpers import SMALL_CLUE

sys.path.insert(0, str(Path(__file__).parent))
from test_clue_crosscheck import MEDIUM, all_deals, fits  # noqa: E402


def _info(joint: dict) -> float:
    """I(X; Y) in bits from a dict (x, y) -> weight."""
    tot = sum(joint.values())
    px, py = defaultdict(float), defaultdict(float)
    for (x, y), w in joint.items():
        px[x] += w
        py[y] += w
    return sum(w / tot * math.log2(w * tot / (px[x] * py[y])) for (x, y), w in joint.items()
               if w > 0)


def test_information_equals_an_independent_count():
    full = parse_record(write_record(simulate(3, [], 5, events=4, deck=MEDIUM,
                                              accusations=False)))
    view = "Ana"
    truth = true_deal(full)
    deals = [d for d in all_deals(full) if fits(d, full, view, truth)]
    adv = suggest(full, view)
    assert adv.exact and adv.method == "enumerated"
    order = seating_after(view, full.header.players)
    checked = 0
    for act in adv.actions:
        if act.kind != "suggest":
            continue
        triple = act.action.split()[2:]
        seen, public = defaultdict(float), defaultdict(float)
        for d in deals:
            case = tuple(sorted(c for c, l in d.items() if l == "envelope"))
            who = next((q for q in order if any(d[c] == q for c in triple)), None)
            held = [c for c in triple if d[c] == who] if who else [None]
            for c in held:
                seen[case, (who, c)] += 1 / len(held)
                public[case, who] += 1 / len(held)
        assert math.isclose(act.info_bits, _info(seen), abs_tol=1e-9), act.action
        assert math.isclose(act.leak_bits, _info(public), abs_tol=1e-9), act.action
        assert math.isclose(sum(act.p_answers.values()), 1.0, rel_tol=1e-9)
        checked += 1
    assert checked == 3 * 3 * 4
    assert any(a.info_bits > 0 for a in adv.actions)


#: two case files left for Ana: Maid Rope Attic and Maid Rope Hall
TWO_FILES = SMALL_CLUE + """Ana suggests Maid Rope Garden: Ben shows Garden
Ana suggests Maid Axe Hall: Ben shows Axe
"""


def test_a_determined_case_file_is_accused_first():
    rec = parse_record(TWO_FILES)
    adv = suggest(rec, "Ana")
    acc = next(a for a in adv.actions if a.kind == "accuse")     # two case files left
    assert acc.score < 100 and adv.best.kind == "suggest" and adv.best.info_bits > 0
    rec = parse_record(write_record(rec) + "Ana suggests Maid Rope Hall: Ben passes, "
                       "Cleo shows Hall\n")
    adv = suggest(rec, "Ana")
    assert adv.best.action == "Ana accuses Maid Rope Attic" and adv.best.score == 100
    assert all(a.info_bits == 0 for a in adv.actions)          # nothing left to learn


def test_review_flags_an_accusation_on_a_guess():
    rec = parse_record(SMALL_CLUE + "Ana accuses Maid Rope Garden: wrong\n")
    rv = review(rec, "Ana")
    assert [t.line for t in rv.turns] == [8, 9]
    assert rv.turns[1].mistakes and "not determined" in rv.turns[1].mistakes[0]
    assert not rv.turns[0].mistakes


def test_a_guess_ranks_above_the_suggestions_only_when_more_likely_right_than_wrong():
    """A wrong accusation puts the player out (CL-9): at p = 1/2 the guess scores 0, below
    a suggestion that tells something; a determined case file scores 100."""
    from solver.clue.advise import accusation_score

    assert accusation_score(0.4, True) == 100.0
    assert accusation_score(0.5, False) == 0.0 < accusation_score(0.75, False) == 50.0
    adv = suggest(parse_record(TWO_FILES), "Ana")
    acc = next(a for a in adv.actions if a.kind == "accuse")
    assert acc.more["p_right"] == 0.5 and acc.score == 0.0
    assert adv.best.kind == "suggest" and adv.best.score > 0


def test_on_samples_the_information_is_about_the_named_cards():
    """Early in a 6-player game the posterior is sampled: a suggestion's information is
    measured on which of its three cards are in the case file, so it never exceeds the
    entropy of those three memberships (the whole case file, with about as many values
    as samples, would make it about the answer's entropy instead)."""
    full = parse_record(write_record(simulate(6, [], 11, events=2, accusations=False)))
    adv = suggest(full, "Ana")
    assert not adv.exact and adv.method == "sampled"
    from solver.clue.analysis import analyze

    cards = analyze(full, "Ana").cards

    def h(p):
        return 0.0 if p in (0.0, 1.0) else -p * math.log2(p) - (1 - p) * math.log2(1 - p)

    sugg = [a for a in adv.actions if a.kind == "suggest"]
    assert len(sugg) == 6 * 6 * 9 and max(a.info_bits for a in sugg) > 0.3
    for a in sugg:
        bound = sum(h(cards[c].get("envelope", 0.0)) for c in a.action.split()[2:])
        assert a.info_bits <= bound + 0.15, (a.action, a.info_bits, bound)
