"""``sleuth hand ...`` through Click's runner: every command, the JSON shapes of issue 5,
and the exit codes (0 ok, 2 bad input)."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "hand"


def run(*args):
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.output


def test_check_text_and_json():
    code, out = run("hand", "check", "7D AC 9D | 5S 5C AC | AS 9C 10C", "--indicator", "7C")
    assert code == 0 and "AC = 8D" in out and "AC = 5H+5D" in out and "total" in out
    code, out = run("hand", "check", "7D AC 9D | 5S 5C AC", "-i", "7C", "--json")
    js = json.loads(out)
    assert code == 0 and js["total"] == 39 and js["opens"] is False
    m = js["melds"][0]
    assert {"cards", "valid", "kind", "wild_as", "value", "reason"} <= set(m)
    assert m == {**m, "cards": ["7D", "AC", "9D"], "valid": True, "kind": "run",
                 "wild_as": ["8D"], "value": 24, "reason": None}
    code, out = run("hand", "check", "AC KC AC", "-i", "7C", "--json")
    m = json.loads(out)["melds"][0]
    assert m["valid"] is False and m["kind"] is None and m["value"] is None
    assert "HR-14" in m["reason"]


def test_check_variants_repeatable_and_comma_separated():
    melds = "AD 2D 3D 4D 5D | 9H 9S 9D"
    assert json.loads(run("hand", "check", melds, "-i", "7H", "--json")[1])["opens"] is True
    for args in (["--variant", "initial-min=61,ace-low-run-value=1"],
                 ["--variant", "initial-min=61", "--variant", "ace-low-run-value=1"]):
        js = json.loads(run("hand", "check", melds, "-i", "7H", "--json", *args)[1])
        assert js["opens"] is False and js["total"] == 42


def test_best_json():
    code, out = run("hand", "best", "AH 2H 3H 4H 5H 9H 9S 9D KC", "-i", "7S", "--json")
    js = json.loads(out)
    assert code == 0
    assert js["best_initial"] == {"melds": [["9S", "9H", "9D"], ["AH", "2H", "3H", "4H", "5H"]],
                                  "value": 52, "left": ["KC"]}
    assert js["can_open"] is True and js["can_go_out"] is True and js["discard"] == "KC"
    code, out = run("hand", "best", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AC AC AH", "-i", "7C",
                    "-v", "bonus-suit,bonus-two-wilds", "--json")
    js = json.loads(out)
    assert js["full_hand"] and js["multiplier"] == 16 and js["bonuses"] == ["two-wilds", "suit"]
    code, out = run("hand", "best", "2C 5D 9S", "-i", "7S", "--json")
    js = json.loads(out)
    assert js["best_initial"] is None and not js["can_open"] and not js["can_go_out"]
    assert js["discard"] is None


def test_best_text():
    code, out = run("hand", "best", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AC AC 5S", "-i", "7C",
                    "--variant", "bonus-suit")
    assert code == 0 and "Full Hand" in out and "discard 5S" in out and "x4" in out


def test_moves():
    code, out = run("hand", "moves", "--table", "9C 10C AS | 8C 8H AS", "--hand", "JC 7C 8S 5D",
                    "-i", "QS")
    assert code == 0 and "swap" in out and "refused: 7C" in out and "HR-26" in out
    code, out = run("hand", "moves", "-t", "9C 10C AS", "--hand", "JC 7C 5D", "-i", "QS",
                    "--play", "1: JC", "--play", "1: AS 7C", "--json")
    js = json.loads(out)
    assert code == 0 and js["table"] == [["7C", "AS", "9C", "10C", "JC"]] and js["hand"] == ["5D"]
    assert [p["kind"] for p in js["played"]] == ["swap", "lay-off"]
    code, out = run("hand", "moves", "-t", "9C 10C AS", "--hand", "JC 7C 5D", "-i", "QS",
                    "--play", "1: 7C")
    assert code == 2 and "HR-25" in out


def test_redeal():
    code, out = run("hand", "redeal", "5H 5H 9S 9S KD KD 2C 3H 4H 6S 7S 8D 10C AC", "-i", "7C")
    assert code == 0 and "redeal allowed (b)" in out
    code, out = run("hand", "redeal", "5H 5H 9S 9S KD 2C 3H 4H 6S 7S 8D 10C AC QD", "-i", "7C",
                    "--json")
    assert code == 0 and json.loads(out)["redeal"] is False


def test_score_and_generic_analyze():
    path = str(SAMPLES / "full-hand-bonuses.txt")
    code, out = run("hand", "score", path)
    assert code == 0 and "game over: Ana wins" in out and "x4" in out
    code, out = run("hand", "score", path, "--json")
    js = json.loads(out)
    assert js["totals"] == {"Ana": -40, "Ben": 569, "Cleo": 722} and js["winner"] == "Ana"
    code, out = run("analyze", str(SAMPLES / "team-game.txt"))
    assert code == 0 and "Ana+Cleo" in out and "HR-42" in out
    code, out = run("analyze", str(SAMPLES / "team-game.txt"), "--json")
    assert json.loads(out)["game"] == "hand"


def test_score_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("game: hand\nplayers: Ana Ben\nround 1: Ana out partial\n")
    code, out = run("hand", "score", str(bad))
    assert code == 2 and "HR-38" in out and "bad.txt:3" in out
    code, out = run("hand", "score", str(tmp_path / "missing.txt"))
    assert code == 2


@pytest.mark.parametrize("args", [
    ["hand", "check", "7D 1C AC", "-i", "7C"],
    ["hand", "check", "7D 8D 9D", "-i", "Jk"],
    ["hand", "check", "7D 8D 9D"],
    ["hand", "check", "7D 8D 9D", "-i", "7C", "--variant", "jokers"],
    ["hand", "best", "5H 5H 5H 6C", "-i", "7C"],
    ["hand", "best", "5H 6H 7H", "-i", "AS", "--variant", "wild-mode=no-jokers"],
    ["hand", "moves", "-t", "5D 6D 8D", "--hand", "2C", "-i", "QS"],
    ["hand", "redeal", "5H 5H", "-i", "7C"],
])
def test_bad_input_exits_2_with_a_message(args):
    code, out = run(*args)
    assert code == 2 and "sleuth: error:" in out


def test_help_has_worked_examples():
    for cmd in ("check", "best", "moves", "redeal", "score"):
        code, out = run("hand", cmd, "--help")
        assert code == 0 and "Example" in out and f"sleuth hand {cmd}" in out
    code, out = run("hand", "--help")
    assert code == 0 and all(c in out for c in ("check", "best", "moves", "redeal", "score"))
