"""What the others hold: the next player's chance to take a discard (HR-29) against brute
force on small deals, and the analysis JSON (the contract's ``cards`` key)."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import cli
from solver.cards import JOKER, Card
from solver.errors import RuleError
from solver.hand.engine import _taken_wild_meld, start
from solver.hand.inference import _pair_chance, _patterns
from solver.hand.melds import analyse_meld
from solver.hand.options import HandOptions
from solver.hand.regime import make_regime
from solver.records import Header

ROOT = Path(__file__).resolve().parent.parent


def _state(indicator, variant):
    o = HandOptions.from_names(variant)
    s = start(Header("hand", ("Ana", "Ben", "Cleo")), o)
    s.regime = make_regime(indicator, o)
    s.indicator = indicator
    return s


def _can_take(card, hand, s) -> bool:
    """Brute force with the round engine's judge: two hand cards make a meld with it."""
    for a, b in itertools.combinations(hand, 2):
        for cards in ([card, a, b], [a, card, b], [a, b, card]):
            if s.regime.is_wild(card):
                try:
                    if _taken_wild_meld(list(cards), {}, card, s, "")[0].valid:
                        return True
                except RuleError:
                    pass
                continue
            rep = analyse_meld(list(cards), s.regime, s.options)
            if rep.valid:
                return True
    return False


NEAR = [Card(r, s) for s in ("H", "C") for r in (1, 2, 3, 4, 5, 6, 7, 8, 12, 13)] + \
    [Card(r, s) for s in ("S", "D") for r in (1, 5, 7)] + [JOKER]


@settings(max_examples=40, deadline=None)
@given(data=st.data(),
       ind=st.sampled_from([Card.parse(x) for x in ("9H", "4C", "AS", "QD")]),
       variant=st.sampled_from([[], ["discarded-wild=free"], ["discarded-wild=ace-group-only"],
                                ["taken-wild=wild"]]))
def test_take_chance_equals_brute_force_on_small_deals(data, ind, variant):
    s = _state(ind, variant)
    pool_all = [c for c in NEAR if c != ind]
    card = data.draw(st.sampled_from(pool_all))
    rest = [c for c in pool_all if c != card]
    pool = data.draw(st.lists(st.sampled_from(rest), min_size=4, max_size=9, unique=True))
    known = data.draw(st.lists(st.sampled_from([c for c in rest if c not in pool]),
                               max_size=2, unique=True))
    m = data.draw(st.integers(1, min(4, len(pool))))
    want = 0
    combos = list(itertools.combinations(range(len(pool)), m))
    for idx in combos:
        want += _can_take(card, known + [pool[i] for i in idx], s)
    got = _pair_chance(_patterns(card, s), Counter(known), Counter(pool), m, s.regime)
    assert abs(got - want / len(combos)) < 1e-12, (card, known, pool, m)


def test_a_wild_discard_as_ace_only():
    s = _state(Card.parse("9H"), [])          # AH is wild; jokers are natural AH
    pats = _patterns(Card.parse("AH"), s)
    assert all(Card.parse("8H") not in p for p in pats)     # never as 8H (HR-31)
    assert any(Card.parse("KH") in p and Card.parse("QH") in p for p in pats)
    s = _state(Card.parse("9H"), ["discarded-wild=never"])
    assert _patterns(Card.parse("AH"), s) == []


def test_analyze_round_json_uses_the_contracts_cards_key():
    r = CliRunner().invoke(cli, ["analyze", str(ROOT / "samples/hand/round-midway-ana.txt"),
                                 "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["game"] == "hand" and d["view"] == "Ana" and d["consistent"]
    assert len(d["cards"]) == 53
    places = {p for dist in d["cards"].values() for p in dist}
    assert places <= {"Ana", "Ben", "Cleo", "stock", "discards", "table", "indicator"}
    for name, dist in d["cards"].items():
        total = sum(dist.values())
        assert abs(total - 2) < 1e-9, name       # two packs (the indicator is one copy)
    assert d["cards"][d["indicator"]]["indicator"] == 1.0
    assert d["take_chance"] and all(0 <= t["p"] <= 1 for t in d["take_chance"].values())
    assert set(d["take_chance"]) == set(d["hands"]["Ana"]["known"])


def test_simulate_hand_from_the_cli(tmp_path):
    out = tmp_path / "r.txt"
    r = CliRunner().invoke(cli, ["simulate", "hand", "--players", "3", "--seed", "4", "-o",
                                 str(out)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(cli, ["analyze", str(out), "--as", "Ben"])
    assert r.exit_code == 0 and "Ben's view" in r.output


LAYOFF = """game: hand
variant: {variant}
players: Ana Ben
dealer: Ben
me: Ana
indicator 7C
Ana holds: AC QS QH KS KH KD 7D 9D 2S 3S 4S 5H 6H 8C 10S
Ana melds QS QH AC | KS KH KD
Ana discards 8C
Ben draws
Ben melds JS JH JD | 10H 10D 10C
Ben discards 9S
"""


def test_take_chance_with_discard_layoff_hr53():
    from solver.records import parse_record

    from solver.hand.analysis import analyse_round as analyse

    a = analyse(parse_record(LAYOFF.format(variant="discard-layoff")), "Ana")
    t = a.chances["10S"]
    assert t.player == "Ben" and t.p == 1.0 and t.exact and "HR-53" in t.note
    b = analyse(parse_record(LAYOFF.format(variant="standard")), "Ana")
    assert b.chances["10S"].exact and b.chances["10S"].p < 1.0
