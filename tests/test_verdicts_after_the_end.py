"""The verdict says what the view may do: a Clue player out after a wrong accusation may
not accuse (CL-9: it only refutes), and once a game is over nobody accuses or announces.
Both verdicts said ``accuse: ...`` / ``announce: ...`` there."""
from __future__ import annotations

import json

from tests.serve_harness import ROOT, sleuth

OUT = """game: clue
players: Ana Ben Cleo Dev
me: Dev
Dev holds: Plum Kitchen Ballroom Library
Dev accuses Green Wrench Study: wrong
dev sees case: green spanner hall
"""


def verdict(path) -> str:
    return json.loads(sleuth("analyze", "--json", str(path)).stdout)["verdict"]


def test_a_clue_player_out_is_told_not_to_accuse(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text(OUT, encoding="utf-8")
    assert verdict(path) == ("Dev is out and may not accuse (CL-9); the case file is "
                             "Green Wrench Hall")
    path.write_text(OUT + "Ana accuses Green Wrench Hall: right\n", encoding="utf-8")
    assert verdict(path) == "the game is over: Ana won (CL-8)"


def test_a_mystery_hand_game_over_says_so():
    path = ROOT / "samples" / "mystery-hand" / "seven-players.txt"
    assert verdict(path) == "the game is over: Ana won (MH-19, MH-21)"


def test_the_last_clue_player_not_out_wins_by_cl9(tmp_path):
    """Everyone else accused wrongly: the last one in wins by CL-9, not CL-8 (a right
    accusation), in the verdict and in the refusal of a later line."""
    import shutil

    path = tmp_path / "c.txt"
    shutil.copy(ROOT / "samples" / "clue" / "three-players.txt", path)
    for line in ("Ana accuses Green Rope Hall: wrong", "Ben accuses Green Rope Hall: wrong"):
        sleuth("log", str(path), line)
    assert verdict(path) == "the game is over: Cleo won (CL-9)"
    r = sleuth("log", str(path), "Cleo suggests White Knife Hall: Ana passes, Ben shows",
               check=False)
    assert r.returncode == 2 and "(CL-9)" in r.stderr and "(CL-8)" not in r.stderr
