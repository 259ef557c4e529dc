"""``sleuth hand take``: the text's "left" is what stays in the hand after the discard; the
JSON's ``left`` keeps the discard among the cards the melds leave (docs/hand.md)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli

ARGS = ["hand", "take", "7S 7D KH QH JH 2C 3C 9D", "--discard", "7H", "--indicator", "5C"]


def test_the_cards_left_after_the_discard_leave_it_out():
    r = CliRunner().invoke(cli, ARGS, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    line = " ".join(r.output.split("from the stock")[0].split("with the discard:")[1].split())
    assert line.endswith("discard 9D; left 2C 3C"), line


def test_the_json_left_still_holds_the_discard():
    r = CliRunner().invoke(cli, [*ARGS, "--json"], catch_exceptions=False)
    w = json.loads(r.output)["with_discard"]
    assert w["discard"] == "9D" and sorted(w["left"]) == ["2C", "3C", "9D"]
