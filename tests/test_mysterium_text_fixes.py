"""Mysterium with unseen turns (``Ana-1: ?``, ``reveal Ana-1: ?``): the text report and the
``sleuth serve`` page state only what holds in every filling of the unseen turns, and give
the chance of the rest; they showed the likeliest filling's state as fact ("found 8 (in the
sleeve)", "wrong 6", "game over: LOST") beside figures that contradicted it.  The JSON is
unchanged."""
from __future__ import annotations

import html
import json
import signal

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.records import parse_record

# a spectator's record (no 'me:'): with 2 players both psychics are Ana's, whose own turns
# her record never leaves unseen; psychics hold no hidden cards, so the public view's
# figures are Ana's
HEAD = ("game: mysterium\nplayers: Gus Ana\nghost: Gus\n"
        "table character: 1 8 9 12 14\ntable location: 4 6 8 12 14\n"
        "table object: 1 4 8 12 18\n")
# Ana-1 found a character in hour 2 (unseen which), her location guess in hour 3 was
# revealed unseen; Ana-2 found a character in hour 1 (unseen which)
M1 = HEAD + ("hour 1\nAna-1 guesses character 1: wrong\nAna-2: ?\nhour 2\nAna-1: ?\n"
             "Ana-2 guesses location 6: wrong\nhour 3\nAna-1 guesses location 6\n"
             "reveal Ana-1: ?\nAna-2 guesses location 8: wrong\n")
# every turn of the seven hours unseen: lost at the end of hour 7 unless both finished
M3 = HEAD + "".join(f"hour {h}\nAna-1: ?\nAna-2: ?\n" for h in range(1, 8))
M6 = HEAD + "".join(f"hour {h}\nAna-1: ?\nAna-2: ?\n" for h in range(1, 7))


def _analyze(tmp_path, text: str, *more: str) -> str:
    f = tmp_path / "g.txt"
    f.write_text(text)
    r = CliRunner().invoke(cli, ["analyze", str(f), *more])
    assert r.exit_code == 0, r.output
    return r.output


def _rows(out: str) -> dict[tuple[str, str], tuple[str, str]]:
    """The candidates table's rows, (psychic, kind) -> (status, candidates and notes), the
    cells' wrapped lines joined."""
    rows: dict[tuple[str, str], list[str]] = {}
    key = None
    table = out.split("Candidates:")[1].split("\n\n")[0].splitlines()
    at = next(i for i, ln in enumerate(table) if ln.startswith("psychic"))
    st, ca = table[at].index("status"), table[at].index("candidates")
    for ln in table[at + 2:]:
        if ln.startswith("Ana-"):
            key = (ln.split()[0], ln.split()[1])
            rows[key] = ["", ""]
        assert key is not None
        rows[key][0] = (rows[key][0] + " " + ln[st:ca].strip()).strip()
        rows[key][1] = (rows[key][1] + " " + ln[ca:].strip()).strip()
    return {k: (a, b) for k, (a, b) in rows.items()}


def test_a_card_found_in_an_unseen_turn_is_not_named_as_fact(tmp_path):
    rows = _rows(_analyze(tmp_path, M1))
    # in every filling Ana-1 has a character in her sleeve, each card 25% (the JSON's)
    assert rows[("Ana-1", "character")] == ("found",
                                            "in the sleeve: 8 9 12 14 (25.0% each); wrong 1")
    status, cell = rows[("Ana-2", "character")]
    assert status == "found" and "(in the sleeve)" not in cell
    assert cell.startswith("in the sleeve: 1: 25.0%, 8: 18.8%")


def test_a_guess_revealed_unseen_is_wrong_only_with_its_chance(tmp_path):
    rows = _rows(_analyze(tmp_path, M1))
    status, loc = rows[("Ana-1", "location")]
    assert status == "current 75.0%, found 25.0%"
    assert loc == ("6: 25.0%, 8: 25.0%, 4: 16.7%, 12: 16.7%, 14: 16.7%; found 6 (25.0%); "
                   "wrong 6 (75.0%)")
    assert rows[("Ana-1", "object")] == ("later 75.0%, current 25.0%",
                                         "1 4 8 12 18 (20.0% each)")
    assert rows[("Ana-2", "location")] == ("current", "4 12 14 (33.3% each); wrong 6 8")


def test_the_clock_gives_a_row_a_course(tmp_path):
    out = _analyze(tmp_path, M1)
    clock = out.split("Clock (D3)")[1].split("\n\n")[0]
    assert "a row a course" in clock
    lines = [" ".join(ln.split()) for ln in clock.splitlines()]
    assert "Ana-1 location 2 4 2 9 at risk 75.0%" in lines
    assert "Ana-1 object 1 4 3 5 at risk 25.0%" in lines
    assert "Ana-2 location 2 4 2 8 at risk certain" in lines


def test_an_outcome_open_in_some_filling_is_not_a_headline_fact(tmp_path):
    out = _analyze(tmp_path, M3)
    assert "game over" not in out and "LOST" not in out
    head = out.splitlines()[2]
    assert head.startswith("lost (MY-15) 98.7%, still open (epilogue) 1.3%")
    rows = _rows(out)
    assert not any("(in the sleeve)" in cell for _s, cell in rows.values())
    status, cell = rows[("Ana-2", "location")]
    assert status == "found 69.6%, current 30.4%"
    assert "found 4 (31.2%), 8 (19.4%)" in cell
    # the epilogue of a course is marked as one course's
    assert "Epilogue (D6, MY-21), in one course of the unseen turns (" in out


@pytest.mark.parametrize("text", [M1, M3])
def test_every_line_within_80_columns(tmp_path, text):
    assert max(len(ln) for ln in _analyze(tmp_path, text).splitlines()) < 80


def test_the_json_keeps_its_figures(tmp_path):
    j = json.loads(_analyze(tmp_path, M1, "--json"))
    assert j["cards"]["character 8"]["Ana-1"] == 0.25
    assert j["psychics"]["Ana-1"]["stages"]["character"]["found"] == 8   # the likeliest's
    assert j["notes"][0].endswith("the state shown is the likeliest filling's (4.7%); "
                                  "uncertain: Ana-1 location 75.0%, object 25.0%")
    assert j["unseen"]["outcomes"] == {"open": 1.0}


def test_the_serve_page_shows_the_same_sheet(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from web.app import create_app

    f = tmp_path / "g.txt"
    f.write_text(M1)
    c = TestClient(create_app(str(f), token="t", token_required=False, loopback=True),
                   base_url="http://127.0.0.1:8765")
    page = html.unescape(c.get("/live").text)
    assert "in the sleeve: 8 9 12 14 (25.0% each)" in page
    assert "8 (in the sleeve)" not in page and "wrong 6;" not in page


def test_the_entry_offers_what_any_filling_allows():
    from web.mysterium import lead_data

    # a random group's cards: those in no sleeve in some filling (8 and 1 are in a sleeve
    # only in some)
    random = lead_data(parse_record(M1))["random"]
    assert {1, 8} <= set(random["character"])


def test_the_entry_of_many_unseen_turns_comes_in_seconds():
    """Listing every state of seven hours of unseen turns took more than ten minutes."""
    from web.mysterium import lead_data

    def late(*_):
        raise TimeoutError("lead_data took over 60 s")

    old = signal.signal(signal.SIGALRM, late)
    signal.alarm(60)
    try:
        d = lead_data(parse_record(M6))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert d["hour"] == [7] and d["guess"] == {}


def test_the_play_sheet_says_what_its_rows_hold():
    """``sleuth play``'s short sheet builds its rows over every filling (as the report
    does): its note says that every cell holds in every filling, never that the state
    shown is the likeliest filling's."""
    from cli.play_sheets import mysterium
    from solver.mysterium.analysis import analyze

    text = " ".join(mysterium(analyze(parse_record(M1), None)).split())
    assert "the state shown is the likeliest filling's" not in text
    assert "a cell states only what holds in every filling" in text
