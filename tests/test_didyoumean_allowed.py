"""A one-tap correction ("did you mean") is offered only when the game accepts the
corrected statement (README): ``Ana aks Ben 9S-QS: 5`` offered ``Ana asks Ben 9S-QS: 5``,
which the rules then refused (MH-10: Ben cannot show 5 cards), and a correction by a
player not on turn was offered too (MH-7)."""
from __future__ import annotations

import shutil

import pytest

from tests.serve_harness import ROOT, sleuth


@pytest.mark.parametrize("typed, offered", [
    ("Ana aks Ben 9S-QS: 5", None),                     # MH-10
    ("eli aks ben 9s-qs: 1", None),                     # MH-7: Ana's turn
    ("ana aks ben 9s-qs: 1", "ana asks ben 9s-qs: 1"),
])
def test_a_correction_is_one_the_game_accepts(tmp_path, typed, offered):
    path = tmp_path / "mh.txt"
    shutil.copy(ROOT / "samples" / "mystery-hand" / "five-players-ana.txt", path)
    with path.open("a", encoding="utf-8") as f:
        f.write("turn: Ana\n")
    before = path.read_text(encoding="utf-8")
    r = sleuth("log", str(path), typed, check=False)
    assert r.returncode == 2 and path.read_text(encoding="utf-8") == before
    said = [ln.strip() for ln in r.stderr.splitlines() if "did you mean" in ln]
    assert said == ([] if offered is None else [f"did you mean: {offered}"]), r.stderr


def test_two_words_changed_in_more_than_one_way_is_no_correction(tmp_path):
    """A verb mistyped and a card the deck does not have (8S, the 8s removed): four
    corrections were offered, each a card guessed (AS, JS, QS, KS); two words changed in
    more than one way is a guess, not a typo's correction. One way is still offered."""
    path = tmp_path / "lit.txt"
    shutil.copy(ROOT / "samples" / "literature" / "ex-a-six-players.txt", path)
    r = sleuth("log", str(path), "Ana aks Ben 8S: no", check=False)
    assert r.returncode == 2 and "did you mean" not in r.stderr, r.stderr
    r = sleuth("log", str(path), "Ana aks Bne 10S: no", check=False)
    assert "did you mean: Ana asks Ben 10S: no" in r.stderr, r.stderr
