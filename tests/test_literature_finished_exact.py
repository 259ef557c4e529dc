"""A finished lossy Literature game: every card is certain (out of play), every half-suit
decided. It was labelled "Probabilities are estimates (95% within ±0.220)", exact false,
though nothing was estimated."""
from __future__ import annotations

import json

from tests.serve_harness import sleuth


def test_a_finished_lossy_game_is_exact(tmp_path):
    path = tmp_path / "lit.txt"
    sleuth("simulate", "literature", "--players", "6", "--seed", "1", "--miss", "0.2",
           "-o", str(path))
    assert "?" in path.read_text(encoding="utf-8")            # lossy
    d = json.loads(sleuth("analyze", "--json", str(path)).stdout)
    assert all(list(v.values()) == [1.0] for v in d["cards"].values())
    assert d["exact"] is True and "error" not in d
    assert "estimates" not in sleuth("analyze", str(path)).stdout
