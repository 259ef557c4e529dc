"""A Literature record with unseen parts (the history model) says why a question cannot
have been asked: the other lines of the conflict leave the asker no card of the half-suit
(LIT-6(c)), or none but the card asked (LIT-6(d)) -- not only "no deal of the cards fits
them together"."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli

HEAD = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\ndealer: Ana\nme: Ana\n"
        "Ana holds: {hand}\n"
        "Ana asks Ben 9C: no\n"
        "Ben asks Cleo 5S: yes\n"
        "Ben asks Cleo ?: no\n"                  # unseen: the history model
        "Cleo asks Dev 5H: {answer}\n")


def analyze(tmp_path, hand, answer, *flags):
    p = tmp_path / "lit.txt"
    p.write_text(HEAD.format(hand=hand, answer=answer))
    return CliRunner().invoke(cli, ["analyze", str(p), *flags], catch_exceptions=False)


@pytest.mark.parametrize("answer", ["?", "no"])
def test_none_but_the_card_asked(tmp_path, answer):
    hand = "2H 3H 4H 6H 7H 9S JC QD"                # every low heart but 5H
    r = analyze(tmp_path, hand, answer, "--json")
    assert r.exit_code == 3 and json.loads(r.stdout) == {"consistent": False,
                                                         "conflict": [5, 9]}
    r = analyze(tmp_path, hand, answer)
    assert r.exit_code == 3
    assert ("line 5 leaves Cleo no card of 2H-7H but 5H at line 9; asking for 5H there "
            "needs another (LIT-6(c), LIT-6(d))") in r.stderr, r.stderr
    assert "no deal of the cards fits" not in r.stderr


def test_no_card_of_the_half_suit(tmp_path):
    r = analyze(tmp_path, "2H 3H 4H 5H 6H 7H 9S JC", "?")   # every low heart
    assert r.exit_code == 3
    assert ("line 5 leaves Cleo no card of 2H-7H at line 9; asking for 5H there needs one "
            "(LIT-6(c))") in r.stderr, r.stderr
