"""``sleuth serve`` without JavaScript (docs/serve.md): the full sheet replaces the
provisional one when the analysis is done.  The page's first answer is its quick live part
(stage 1's provisional sheet); the full analysis was only ever asked for by the page's
script, so a page without it stayed provisional for good ("working" cells, no figures)
until a page with the script was opened somewhere.  The server now starts the full
analysis itself when it sends a provisional page (a form post waits for it a moment), and
a newer version still cancels it."""
from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from solver.games import get_game  # noqa: E402
from solver.records import write_record  # noqa: E402
from tests.serve_harness import Server, chromium  # noqa: E402
from tests.test_serve_app import TOKEN, client, do, version_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLUE = ROOT / "samples" / "clue" / "three-players.txt"
STATEMENT = "Ana suggests White Knife Lounge: Ben shows Lounge"


def sheet_of(html: str) -> str | None:
    """The accessible name of the page's sheet table."""
    got = re.search(r'<table class="sheet[^"]*" aria-label="([^"]*)"', html)
    return got.group(1) if got else None


def full_page(c, seconds: float = 30.0) -> str:
    """``GET /`` again (reloads, nothing else asked of the server) until the page shows the
    full sheet, at most ``seconds``; the last page."""
    end = time.monotonic() + seconds
    while True:
        r = c.get("/")
        assert r.status_code == 200
        if sheet_of(r.text) == "Sheet" or time.monotonic() > end:
            return r.text
        time.sleep(0.2)


def test_a_reload_shows_the_full_sheet_without_the_script(tmp_path):
    """The record changed elsewhere (as 'sleuth log' does): the page is provisional, says
    to reload, and a reload (no /live asked for) shows the full sheet."""
    path = tmp_path / "clue2.txt"
    shutil.copy(CLUE, path)
    c = client(path)
    c.get("/")
    full_page(c)                                # the record as it was: analysed
    with path.open("a", encoding="utf-8") as f:
        f.write(STATEMENT + "\n")
    first = c.get("/").text
    assert sheet_of(first) == "Sheet (provisional)"
    assert '"working" follow with the figures.<noscript> Without JavaScript they do not ' \
        'come by themselves: reload the page in a moment for the full sheet.</noscript>' \
        in first
    page = full_page(c)
    assert sheet_of(page) == "Sheet", "still provisional: the full analysis never started"
    assert ">working<" not in page and 'data-pending="no"' in page
    assert re.search(r'aria-label="Rope: \d+% ', page), "no figures"


def test_a_form_post_comes_back_with_the_full_sheet(tmp_path):
    """The steps through the form: Log posted as a browser without the script
    posts it; the page it is sent back to has the full sheet (the analysis, 0.7 s, done
    within the form's wait), or one reload later has."""
    path = tmp_path / "clue2.txt"
    shutil.copy(CLUE, path)
    c = client(path)
    c.get("/")
    r = c.post("/do", data={"token": TOKEN, "version": version_of(path), "cmd": "log",
                            "line": STATEMENT}, follow_redirects=False)
    assert r.status_code == 303 and path.read_text().rstrip().endswith(STATEMENT)
    page = full_page(c)
    assert sheet_of(page) == "Sheet", "still provisional: the full analysis never started"
    assert 'aria-label="Lounge: Ben"' in page and re.search(r'aria-label="Rope: \d+% ', page)


def test_a_newer_version_cancels_the_analysis_the_server_started(tmp_path):
    """The analysis started for a provisional page is stopped by an undo (a newer
    version) at once, and nothing of it is kept for the version it was started on."""
    rec = get_game("literature").simulate(8, (), 1, miss=0.2).prefix(80)
    path = tmp_path / "lossy.txt"
    path.write_text(write_record(rec), encoding="utf-8")
    c = client(path)
    engine = c.app.state.engine
    try:
        old = version_of(path)
        assert 'data-pending="yes"' in c.get("/").text
        later = engine.later
        assert later is not None and later[0] == old and later[1].is_alive()
        end = time.monotonic() + 30
        while engine.running is None and time.monotonic() < end:
            time.sleep(0.01)
        assert engine.running is not None and engine.running[0] == old
        time.sleep(0.3)                             # well into its search
        t0 = time.monotonic()
        assert do(c, "undo", old).json()["kind"] == "undone"
        later[1].join(20)
        assert not later[1].is_alive()
        assert time.monotonic() - t0 < 10.0         # a sanity bound, not a measurement
        assert (old, None) not in engine.live_cache
    finally:
        engine.stop()


def test_the_page_without_javascript_in_chromium(tmp_path):
    """The steps in Chromium with JavaScript off: Log, then reloads; no page with
    the script is open.  The full sheet comes (it stayed 'Sheet (provisional)' for good)."""
    path = tmp_path / "clue2.txt"
    shutil.copy(CLUE, path)
    with chromium() as browser, Server(path) as server:
        page = browser.new_context(java_script_enabled=False).new_page()
        page.goto(server.url)
        page.get_by_role("textbox", name="Statement").fill(STATEMENT)
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_load_state()
        assert path.read_text().rstrip().endswith(STATEMENT)
        end = time.monotonic() + 30
        while page.get_by_role("table", name="Sheet", exact=True).count() == 0:
            assert time.monotonic() < end, "the sheet stayed provisional: " + \
                page.locator("#live").inner_text()
            time.sleep(0.5)
            page.reload()
        assert page.get_by_role("table", name="Sheet (provisional)").count() == 0
        assert page.get_by_role("cell", name=re.compile(r"^Rope: \d+% ")).count() > 0
        assert "working" not in page.locator("table.sheet").inner_text()


def test_the_noscript_words_are_not_shown_with_the_script(tmp_path):
    """The reload advice is for the page without the script only: in a page with it, the
    advice is not shown (the script fills the figures in)."""
    html = (ROOT / "web" / "templates" / "live.html").read_text(encoding="utf-8")
    for p in re.findall(r'<p class="pending[^"]*">.*?</p>', html):
        assert "reload" not in re.sub(r"<noscript>.*?</noscript>", "", p).lower()
        assert "<noscript>" in p
