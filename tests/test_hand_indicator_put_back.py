"""A Hand round record that ends on ``indicator Jk`` (a joker turned up and put back into
the stock, HR-7: the next card is turned) is where a recorder is right after logging it.
Every command reads it: the joker is in the stock (A2), the other cards anywhere, and the
sheet says the indicator is still to come."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli

RECORD = "game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ana\nindicator Jk\n"


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text(RECORD)
    return path


def test_analyze_reads_a_record_ending_on_a_joker_put_back(record):
    r = CliRunner().invoke(cli, ["analyze", str(record)])
    assert r.exit_code == 0, r.output
    assert "no indicator yet: Jk turned up and put back into the stock (HR-7)" in r.output
    j = json.loads(CliRunner().invoke(cli, ["analyze", str(record), "--json"]).output)
    assert j["cards"]["Jk"]["stock"] >= 1.0           # the joker put back is in the stock
    assert abs(sum(j["cards"]["Jk"].values()) - 2) < 1e-9
    assert abs(sum(j["cards"]["AS"].values()) - 2) < 1e-9


@pytest.mark.parametrize("args", [["replay"], ["analyze", "--as", "public"]])
def test_other_commands_read_it(record, args):
    r = CliRunner().invoke(cli, [args[0], str(record), *args[1:]])
    assert r.exit_code == 0, r.output


def test_play_goes_on_to_the_next_indicator(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text(RECORD.replace("indicator Jk\n", ""))
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"],
                           input="indicator Jk\nindicator 7C\n")
    assert r.exit_code == 0, r.output
    assert path.read_text().endswith("indicator Jk\nindicator 7C\n")


def test_serve_shows_it(record):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from web.app import create_app

    c = TestClient(create_app(str(record), token="t", token_required=False),
                   base_url="http://127.0.0.1")
    assert c.get("/").status_code == 200
    r = c.get("/live")
    assert r.status_code == 200 and "no indicator yet" in r.text, r.text[:300]
