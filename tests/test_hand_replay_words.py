"""sleuth replay of a Hand round: the copies of a certain card named in words (the JSON keeps
a place per copy), the cards the other players are known to hold, and that column left out
when nobody is known to hold any."""
from __future__ import annotations

import json

from tests.test_replay_fits_width import SAMPLES, run

MIDWAY = SAMPLES + "hand/round-midway-ana.txt"


def test_hand_replay_names_each_copy_of_a_card_in_words():
    r = run("replay", MIDWAY)
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert "became certain: JH: both on the table" in said
    assert "became certain: JS: both held by Ana" in said
    assert "became certain: JS: one held by Ana, one on the table" in said
    assert "became certain: 8H: one in the discards, one on the table" in said
    assert "became certain: AD: both in the discards" in said
    for garbled in ("table, table", "Ana, Ana", "discards, discards", "8H discards"):
        assert garbled not in said
    # nobody takes a card in this round: no other player is known to hold one, and the
    # column that would say so is left out rather than empty on every row
    head = next(ln for ln in r.output.splitlines() if ln.lstrip().startswith("step"))
    assert head.split() == ["step", "line", "statement", "stock"], r.output


def test_hand_replay_json_keeps_a_place_per_copy():
    r = run("replay", MIDWAY, "--json")
    steps = json.loads(r.output)["views"]["Ana"]["steps"]
    new = [s["new_certain"] for s in steps if s["new_certain"]]
    assert new[0] == {"JH": "table, table"} and {"AD": "discards, discards"} in new


def test_hand_replay_says_what_the_others_are_known_to_hold():
    r = run("replay", SAMPLES + "hand/round-complete.txt")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    head = next(ln for ln in lines if ln.lstrip().startswith("step"))
    assert head.split()[-2:] == ["others", "hold"], r.output
    assert any("Cleo takes 9C" in ln and ln.rstrip().endswith("Cleo 9C") for ln in lines)


def test_certain_text_counts_the_copies():
    from cli.hand import certain_text

    assert certain_text("Jk", "stock, table") == "Jk: one in the stock, one on the table"
    assert certain_text("7C", "indicator, table") == \
        "7C: one turned as the indicator, one on the table"
    assert certain_text("Jk", "Ben, Ben, Ben") == "Jk: all three held by Ben"
    assert certain_text("AS", "Cleo") == "AS: held by Cleo"
