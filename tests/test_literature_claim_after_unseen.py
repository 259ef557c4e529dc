"""Literature: after an unseen answer the turn is one of a few players (``turn_may``). A
claim by a player outside them is out of turn in every course of the record (LIT-12:
cancelled if the claimant's team holds all six, else the opponents score it); it was taken
as a claim on the claimant's turn, which gave the claimant the turn and the half-suit.
A claim by one of them is on turn, as before.  The record is a spectator's who saw Ana's
hand: Ana, the recorder of her own record, would have heard Ben's answer."""
from __future__ import annotations

import json

import pytest

from tests.serve_harness import sleuth

HEAD = """game: literature
players: Ana Ben Cleo Dev Eli Fay
# a spectator's record (no me:) that saw Ana's hand
Ana holds: 2H 3H 4H 5H 6H 7H 9S 10S
Ana asks Ben JS: ?
"""


def analysed(tmp_path, claim: str) -> dict:
    path = tmp_path / "lit.txt"
    path.write_text(HEAD + claim + "\n", encoding="utf-8")
    r = sleuth("analyze", "--json", str(path), check=False)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("claim, kind, outcome", [
    # Cleo is neither Ana (asks again after a yes) nor Ben (after a no): out of turn
    ("Cleo claims 9C-AC: Cleo 9C 10C JC QC KC AC", "out-of-turn", "cancelled"),
    ("Cleo claims 9C-AC: Cleo 9C 10C JC QC KC AC\nshown 9C-AC: Cleo 9C 10C JC QC KC, Dev AC",
     "out-of-turn", "lost"),
    # Ben may be on turn (a no): his claim is on turn
    ("Ben claims 9C-AC: Ben 9C 10C JC QC KC AC", "turn", "won"),
])
def test_a_claim_after_an_unseen_answer(tmp_path, claim, kind, outcome):
    d = analysed(tmp_path, claim)
    c = d["half_suits"]["9C-AC"]["claim"]
    assert (c["kind"], c["outcome"]) == (kind, outcome)
    if kind == "out-of-turn":
        assert c["rule"] == "LIT-12" and d["turn"] != "Cleo"


def test_an_out_of_turn_claim_names_the_turn_the_record_leaves_open(tmp_path):
    path = tmp_path / "lit.txt"
    path.write_text(HEAD + "Cleo claims 9C-AC: Cleo 9C 10C JC QC KC AC\n", encoding="utf-8")
    out = " ".join(sleuth("analyze", str(path)).stdout.split())
    assert "Out of turn: Cleo's claim of 9C-AC (line 6; it was Ana's or Ben's turn) is " \
           "cancelled" in out
