"""sleuth replay keeps its table to 79 columns however many figures a game shows: a step's
figures (Twenty-Two's entropy and unseen cards) end its own row, the statement cut shorter
when they would not fit, whatever the terminal's width."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

SAMPLES = str(Path(__file__).resolve().parent.parent / "samples") + "/"

TT = SAMPLES + "twenty-two/standard-ana-midhand.txt"


def run(*args, **env):
    """``sleuth ARGS`` in this process, with ``env`` set."""
    return CliRunner(env=env or None).invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.parametrize("columns", ["80", "120"])
def test_twenty_two_replay_table_fits_with_every_figure_on_its_row(columns):
    r = run("replay", TT, "--upto", "3", "--jobs", "1", COLUMNS=columns)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(map(len, lines)) <= 79, r.output
    head = next(ln for ln in lines if ln.lstrip().startswith("step"))
    assert "entropy (bits)" in head and head.rstrip().endswith("unseen"), r.output
    rows = [ln for ln in lines if ln[:6].strip().isdigit()]
    assert [ln.split()[0] for ln in rows] == ["0", "1", "2", "3"], r.output
    # the step's figures (entropy, unseen cards) end its own row, not a line of their own
    assert all(ln.split()[-1].isdigit() for ln in rows), r.output
    assert not any(ln.strip().isdigit() for ln in lines), r.output


def test_fitted_table_cuts_the_statement_when_the_figures_are_too_wide():
    from cli.replay import WIDTH, fitted_table

    rows = [[i, 7, "x" * 44, "1.0", 52, f"a long text that leaves the table {i}"]
            for i in range(3)]
    heads = ["step", "line", "statement", "a wide heading one", "a wide heading two", "more"]
    out = fitted_table(rows, heads, keep=3, shrink=2)
    assert max(map(len, out)) <= WIDTH
    assert out[0].split()[-3:] == ["wide", "heading", "two"]
    assert all(ln.rstrip().endswith("52") for ln in out[2::2]), out
    assert all("…" in ln for ln in out[2::2])
    assert [ln.strip() for ln in out[3::2]] == [
        f"more: a long text that leaves the table {i}" for i in range(3)]


def test_a_statement_is_cut_only_where_the_table_has_no_room_for_it():
    """Statements were cut at 44 characters however narrow the table: a Hand round line (the
    whole of its step) lost its last scores in a 60-column table."""
    r = run("replay", SAMPLES + "hand/house-rules.txt")
    assert r.exit_code == 0, r.output
    assert "round 1: Eli out partial; Ana 3, Ben 22, Cleo no-meld, Dev 16" in r.output
    assert max(len(ln) for ln in r.output.splitlines()) <= 79
