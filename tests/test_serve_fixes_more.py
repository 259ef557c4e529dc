"""``sleuth serve``: the cards a Mysterium psychic may guess (MY-10, MY-12) for the tap entry,
and the page's ``Turn:`` line for Hand and Twenty-Two (empty before, though their sheets said
``Next: Ana's turn.`` and ``Now: Ana to play``).  The page driven by role and accessible name
at 360 px (Debian's Chromium under Playwright), the data and the page's HTML through the app."""
from __future__ import annotations

import re
import shutil

import pytest

from solver.records import parse_record
from tests.serve_harness import ROOT
from tests.test_serve_audit import log
from tests.test_serve_leftovers import offered, tap
from tests.test_serve_taps_tt import served

PHONE = {"width": 360, "height": 740}
LOST = ROOT / "samples" / "mysterium" / "three-players-lost.txt"


def before_hour_4() -> str:
    """samples/mysterium/three-players-lost.txt up to hour 4 (its lines before ``hour 4``)."""
    lines = LOST.read_text(encoding="utf-8").splitlines()
    return "\n".join(lines[:lines.index("hour 4")]) + "\n"


# ----- Mysterium: a psychic's guess ---------------------------------------------------------
def test_each_psychic_may_guess_the_cards_of_their_stage_still_on_the_table():
    """``lead_data``'s ``guess``: per psychic the kind of their stage and its cards on the
    table that no psychic took into a sleeve in an earlier hour (MY-10, MY-12: location 8
    is in Ana-1's sleeve since hour 2), as the engine checks a guess; a psychic who has
    guessed this hour may not again, and a card found this hour is still on the table for
    the others until the next hour."""
    from web.mysterium import lead_data

    assert lead_data(parse_record(before_hour_4()))["guess"] == {}      # no hour running
    text = before_hour_4() + "hour 4\n"
    assert lead_data(parse_record(text))["guess"] == {
        "Ana-1": {"object": [5, 7, 10, 12, 16]}, "Ana-2": {"location": [2, 3, 11, 17]},
        "Ben-1": {"location": [2, 3, 11, 17]}, "Ben-2": {"location": [2, 3, 11, 17]}}
    text += "Ben-1 guesses location 17: right\n"
    got = lead_data(parse_record(text))["guess"]
    assert "Ben-1" not in got and got["Ana-2"] == {"location": [2, 3, 11, 17]}
    text += ("Ana-1 guesses object 12: right\nAna-2 guesses location 11: wrong\n"
             "Ben-2 guesses location 2: wrong\nhour 5\n")
    got = lead_data(parse_record(text))["guess"]
    assert got == {"Ana-2": {"location": [2, 3, 11]}, "Ben-1": {"object": [5, 7, 10, 16]},
                   "Ben-2": {"location": [2, 3, 11]}}                # Ana-1 is done (MY-13)


def test_a_guess_by_taps_offers_the_cards_on_the_table_of_that_kind(browser, tmp_path):
    """After ``hour 4``: ``Ben-1``, ``guesses``, ``location`` offer the location cards still
    on the table (location 8 went into Ana-1's sleeve in hour 2), under ``Card: location``,
    where "How many" offered 0 to 13 (17, Ben-1's card, missing)."""
    path = tmp_path / "game.txt"
    path.write_text(before_hour_4(), encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        tap(entry, "Table", "hour")
        tap(entry, "Which hour", "4")
        assert log(page).startswith("logged")
        for who in ("Ana-2", "Ben-1"):
            box.fill("")
            tap(entry, "Who acts", who)
            tap(entry, "Or", "guesses")
            entry.get_by_role("button", name="location", exact=True).click()
            assert box.input_value() == f"{who} guesses location"
            assert entry.get_by_role("group", name="How many", exact=True).count() == 0
            assert offered(entry, "Card: location") == ["2", "3", "11", "17"]
        tap(entry, "Card: location", "17")
        assert box.input_value() == "Ben-1 guesses location 17"
        tap(entry, "Answer", "right")
        assert box.input_value() == "Ben-1 guesses location 17: right"
        assert log(page).startswith("logged")
        assert path.read_text(encoding="utf-8").splitlines()[-1] == \
            "Ben-1 guesses location 17: right"


# ----- the Turn line -------------------------------------------------------------------------
def page_html(tmp_path, sample: str, keep: int | None = None) -> str:
    """The page of ``samples/<sample>`` (its first ``keep`` lines), from the app itself."""
    from starlette.testclient import TestClient

    from web.app import create_app

    path = tmp_path / "game.txt"
    if keep is None:
        shutil.copy(ROOT / "samples" / sample, path)
    else:
        lines = (ROOT / "samples" / sample).read_text(encoding="utf-8").splitlines()
        path.write_text("\n".join(lines[:keep]) + "\n", encoding="utf-8")
    c = TestClient(create_app(str(path), token="t", token_required=False, loopback=True),
                   base_url="http://127.0.0.1:8765")
    return c.get("/").text


def turn_line(html: str) -> str:
    m = re.search(r'<p class="turn">(.*?)<span class="viewas">', html, re.S)
    assert m, html[:2000]
    return re.sub(r"<[^>]+>", "", m.group(1)).replace("&nbsp;", "").strip()


@pytest.mark.parametrize("sample, keep, want", [
    ("hand/round-midway-ana.txt", None, "Turn: Ana (yours)"),          # "Next: Ana's turn."
    ("hand/round-midway-ana.txt", 35, "Turn: Cleo"),                   # after Ana's discard
    ("hand/round-complete.txt", None, ""),                             # the round is over
    ("twenty-two/standard-ana-midhand.txt", None, "Turn: Ana (yours)"),  # "Now: Ana to play"
    ("twenty-two/standard-ana-midhand.txt", 18, "Turn: Ana (yours)"),  # Ana follows 9D
    ("twenty-two/standard-ana-midhand.txt", 10, "Turn: Cleo"),         # Cleo exchanges (TT-8)
    ("twenty-two/standard-ana-midhand.txt", 21, "Turn: Cleo"),         # the draw's winner deals
    ("twenty-two/standard-ana-midhand.txt", 6, ""),                    # anyone may draw (TT-4)
    ("twenty-two/standard.txt", None, ""),                             # the game is over
])
def test_the_turn_line_names_whose_turn_it_is(tmp_path, sample, keep, want):
    assert turn_line(page_html(tmp_path, sample, keep)) == want


def test_the_turn_line_follows_the_play_on_a_phone(browser, tmp_path):
    """Twenty-Two at 360 px: ``Turn: Ana (yours)`` above the sheet while Ana is to play;
    after her play the line names Ben, and at the showdown nobody (TT-13)."""
    lines = (ROOT / "samples" / "twenty-two" / "standard-ana-midhand.txt").read_text(
        encoding="utf-8").splitlines()
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines[:18]) + "\n", encoding="utf-8")       # Cleo leads 9D
    with served(browser, path, PHONE) as (page, entry, box):
        turn = page.locator("p.turn")
        assert turn.inner_text().startswith("Turn: Ana (yours)"), turn.inner_text()
        sheet = page.get_by_role("region", name="Sheet")
        if sheet.count():
            assert turn.bounding_box()["y"] < sheet.first.bounding_box()["y"]
        box.fill("Ana plays 10C")
        assert log(page).startswith("logged")
        assert turn.inner_text().startswith("Turn: Ben"), turn.inner_text()
        box.fill("Ben plays 10D")
        assert log(page).startswith("logged")
        assert not turn.inner_text().startswith("Turn:"), turn.inner_text()
