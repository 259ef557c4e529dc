"""Golden records: every sample in samples/ replayed end to end through the CLI.

``sleuth analyze SAMPLE --json`` must exit 0 and give the JSON stored in tests/golden/
(probabilities to 1e-9).  After a deliberate change of output, regenerate with
``SLEUTH_REGEN_GOLDEN=1 pytest tests/test_samples.py`` and review the diff.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*/*.txt"))
GOLDEN = ROOT / "tests" / "golden"


def _close(a, b, path="$"):
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), path
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9), f"{path}: {a} != {b}"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), f"{path}: keys {set(a) ^ set(b)}"
        for k in a:
            _close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: lengths"
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def test_there_are_samples_for_every_game():
    games = {p.parent.name for p in SAMPLES}
    assert {"mystery-hand", "literature", "hand", "twenty-two", "mysterium"} <= games


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_sample_matches_golden_output(sample):
    runner = CliRunner()
    r = runner.invoke(cli, ["analyze", str(sample), "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["game"] == sample.parent.name
    golden = GOLDEN / sample.parent.name / (sample.stem + ".json")
    if os.environ.get("SLEUTH_REGEN_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(json.dumps(got, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    assert golden.exists(), f"no golden output for {sample}; regenerate (see module doc)"
    _close(got, json.loads(golden.read_text()))
    text = runner.invoke(cli, ["analyze", str(sample)], catch_exceptions=False)
    assert text.exit_code == 0 and text.output.strip()


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_sheet_fits_80_columns(sample):
    """The README's promise: every sample's sheet (``sleuth analyze SAMPLE``) fits 80
    columns (long lists wrap, long reasons go under their table)."""
    r = CliRunner().invoke(cli, ["analyze", str(sample)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    wide = [ln for ln in r.output.splitlines() if len(ln) > 80]
    assert not wide, wide[0]
