"""Mystery Hand: candidates estimated from sampled deals are named as the most likely only
when they stand out from the rest; otherwise neither the sheet, the verdicts, --json's
``top`` nor the replay's summary offers a "most likely" hand or a best guess."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from solver.mystery_hand.analysis import analyze
from solver.records import parse_record

# an unseen turn that earned an extra turn: the candidates come from sampled deals
# (thousands of them, each hand drawn a time or two)
UNSEEN_EXTRA = """\
game: mystery-hand
players: Ana Ben Cleo Dev
dealer: Dev
me: Ana
Ana holds: AS 2S 3S 4S 6S 7S 8S 9S 10S JS QS KS
Ana asks Ben 2*: 0
Ben: ?
Ben asks Dev 2*: 1
"""


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_no_hand_is_called_most_likely_when_none_stands_out(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(UNSEEN_EXTRA)
    runner = CliRunner()
    r = runner.invoke(cli, ["analyze", str(path), "--no-exposure"])
    assert r.exit_code == 0, r.output
    out = _flat(r.output)
    assert "most likely hands" not in out and "best guess," not in out
    assert "No hand stands out" in out and "no best guess" in out
    assert "between " in out and "(too many to count)" in out
    # the per-card chances stay on the sheet
    assert "%" in r.output
    r = runner.invoke(cli, ["analyze", str(path), "--json"])
    data = json.loads(r.output)
    mys = data["mystery"]
    assert mys["top"] == [] and mys["top_withheld"] is True
    assert mys["top_samples"] > 0 and 0 < mys["top_p_at_most"] < 0.01
    assert mys["candidates"] is None
    assert 0 < mys["candidates_at_least"] < mys["candidates_at_most"]
    assert "best guess" not in data["verdict"] and "no hand stands out" in data["verdict"]
    assert data["cards"]["2H"]["mystery"] > 0


def test_the_replay_summary_and_announce_note_offer_no_sampled_guess():
    """The knowledge a replay and review read (its ``best``, behind their "best guess
    right with p = ..."), and the "You can announce" note, rest on no sampled hand."""
    from solver.mystery_hand.game import MysteryHandGame

    rec = parse_record(UNSEEN_EXTRA)
    game = MysteryHandGame()
    k = game.knowledge(rec, "Ana")
    assert "best" not in k.summary and not k.safe
    a = analyze(rec, "Ana")
    assert a.mystery.withheld and a.mystery.answer() is None
    notes = [n.text for n in game.table_notes(rec, "Ana", a)]
    assert not any("announce" in t for t in notes)


def test_standing_names_only_what_stands_out():
    """The cut: hands drawn far more often than every other are named; hands drawn once
    or twice among thousands of possible ones are not; groups of equally likely hands
    (a composition) are compared hand by hand."""
    from solver.mystery_hand.analysis import _standing

    n = 4000
    # one hand drawn 400 times, the next 10 times, the possible undrawn ones 0
    assert _standing([(400, 1), (10, 1), (0, 1)], 1, n)[0] == 1
    # ten hands drawn twice, the eleventh twice too, undrawn ones possible
    keep, at_most = _standing([(2, 1)] * 11 + [(0, 1)], 10, n)
    assert keep == 0 and 2 / n < at_most < 0.01
    # two clear leaders, then a tie the list cannot split
    assert _standing([(500, 1), (450, 1), (30, 1), (30, 1), (0, 1)], 3, n)[0] == 2
    # every possible hand listed: nothing else to compare with
    assert _standing([(2000, 1), (2000, 1)], 2, n)[0] == 2
    # compositions of 50 equally likely hands drawn 500 and 480 times: 10 per hand, less
    # than a single hand drawn 40 times, and the two not told apart
    assert _standing([(40, 1), (500, 50), (480, 50), (0, 1)], 2, n)[0] == 1
    assert _standing([(40, 1), (500, 50), (0, 1)], 2, n)[0] == 2
