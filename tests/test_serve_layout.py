"""The layout of ``sleuth serve``'s page in Debian's Chromium (Playwright): on a phone (360 x 640)
the sheet is in sight on load above the entry panel fixed to the bottom, which "Entry" folds and
unfolds; on a desktop (1280 x 800) entry and sheet stand side by side."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.serve_harness import DESKTOP, PHONE, ROOT, Server, chromium, rows_in_sight

SAMPLE = ROOT / "samples" / "mystery-hand" / "five-players-ana.txt"

IDLE = ("() => { const l = document.getElementById('live');"
        " return l && l.getAttribute('aria-busy') === 'false' && l.dataset.pending !== 'yes'"
        " && document.getElementById('working').hidden; }")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("layout")) / SAMPLE.name
    shutil.copyfile(SAMPLE, path)
    with chromium() as browser, Server(path) as server:
        yield browser, server.url


def open_page(browser, url, viewport):
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(300_000)
    page.goto(url)
    page.wait_for_function(IDLE, polling="raf")
    return page


def box(locator) -> dict:
    b = locator.bounding_box()
    assert b is not None, locator
    return b


def test_on_a_phone_the_sheet_is_in_sight_above_the_entry_panel(served):
    browser, url = served
    page = open_page(browser, url, PHONE)
    sheet = page.get_by_role("table", name="Sheet", exact=True)
    first = sheet.get_by_role("row").nth(1)              # the ace's row, under the suits' heads
    panel = page.get_by_role("region", name="Entry", exact=True)
    row, pane = box(first), box(panel)
    assert 0 <= row["y"] and row["y"] + row["height"] <= pane["y"], (row, pane)
    assert pane["y"] + pane["height"] <= PHONE["height"] + 1          # fixed to the bottom
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the entry's controls are in the panel, at a finger's size
    statement = page.get_by_role("textbox", name="Statement")
    assert statement.is_visible()
    for name in ("Entry", "Log", "Undo", "Redo", "Why", "What if"):
        b = box(page.get_by_role("button", name=name, exact=True))
        assert b["height"] >= 44 and b["width"] >= 44, (name, b)
        assert b["y"] >= pane["y"] - 1, (name, b, pane)

    # one tap folds the panel to its bar, and the sheet gets the screen; one more unfolds it
    toggle = page.get_by_role("button", name="Entry", exact=True)
    assert toggle.get_attribute("aria-expanded") == "true"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not statement.is_visible()
    assert not page.get_by_role("group", name="Tap entry").is_visible()
    folded = box(panel)
    assert folded["height"] < 100 and folded["y"] > pane["y"], (folded, pane)
    assert page.get_by_role("status").is_visible()
    # folded, the sheet's cells are a finger's size
    cell = sheet.get_by_role("button", name="AS: ", exact=False).first
    assert box(cell)["height"] >= 44 and box(cell)["width"] >= 44
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert statement.is_visible()


def test_the_whole_sheet_stays_in_sight_while_a_statement_is_entered(served):
    """At 360 x 640 with the entry panel open, all 13 rows of the grid are on screen at every
    step of an ask (whom, range, answer) and of an ask of all (its count rows), with no
    sideways scrolling; the panel's choices scroll inside it."""
    browser, url = served
    page = open_page(browser, url, PHONE)
    entry = page.get_by_role("group", name="Tap entry", exact=True)
    seen = [rows_in_sight(page)]
    entry.get_by_role("group", name="Asks whom").get_by_role("button", name="Ana", exact=True).click()
    seen.append(rows_in_sight(page))
    entry.get_by_role("button", name="4H-7H", exact=True).click()
    seen.append(rows_in_sight(page))
    assert page.get_by_role("group", name="Answer: how many shown").is_visible()
    page.get_by_role("textbox", name="Statement").fill("")
    entry.get_by_role("group", name="Asks whom").get_by_role("button", name="all", exact=True).click()
    entry.get_by_role("button", name="4H-7H", exact=True).click()
    assert page.get_by_role("group", name="Ben", exact=True).is_visible()
    seen.append(rows_in_sight(page))
    print(f"\nrows of the sheet in sight at 360 x 640, panel open, per step: {seen}")
    assert seen == [13] * len(seen), seen
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the controls of the panel are still a finger's size
    for b in page.get_by_role("region", name="Entry", exact=True).get_by_role("button").all():
        if b.is_visible():
            bb = box(b)
            assert bb["height"] >= 44 and bb["width"] >= 44, (b.inner_text(), bb)


def test_the_last_line_scrolls_clear_of_the_panel(served):
    browser, url = served
    page = open_page(browser, url, PHONE)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    lines = page.get_by_role("region", name="Lines").get_by_role("listitem")
    last = box(lines.last)
    pane = box(page.get_by_role("region", name="Entry", exact=True))
    assert last["y"] + last["height"] <= pane["y"] + 1, (last, pane)


def test_on_a_desktop_entry_and_sheet_stand_side_by_side(served):
    browser, url = served
    page = open_page(browser, url, DESKTOP)
    panel = box(page.get_by_role("region", name="Entry", exact=True))
    sheet = box(page.get_by_role("table", name="Sheet", exact=True))
    assert panel["x"] + panel["width"] <= sheet["x"], (panel, sheet)
    assert sheet["y"] < DESKTOP["height"] / 2
    assert not page.get_by_role("button", name="Entry", exact=True).is_visible()
    assert page.get_by_role("textbox", name="Statement").is_visible()


def test_the_page_shell_opens_offline_from_the_service_worker(served):
    browser, url = served
    page = open_page(browser, url, PHONE)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", polling=100,
                            timeout=60_000)
    page.reload()                        # the page itself, fetched through the worker once
    page.wait_for_function(IDLE, polling="raf")
    page.context.set_offline(True)
    page.reload()
    assert page.get_by_role("textbox", name="Statement").is_visible()
    log = box(page.get_by_role("button", name="Log", exact=True))
    assert log["height"] >= 44                          # the style came from the cache too
    assert page.evaluate("document.querySelector('script[src^=\"/static/app.js\"]') !== null")
    page.context.set_offline(False)


# every control a finger can reach: buttons, links, fields, summaries, anything focusable
INTERACTIVE = ("button, a[href], input:not([type=hidden]), select, textarea, summary, "
               "[role=button], [tabindex]:not([tabindex='-1'])")
UNDERSIZED = """sel => [...document.querySelectorAll(sel)].filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'
    && (r.width < 43.5 || r.height < 43.5);
}).map(e => { const r = e.getBoundingClientRect();
  return `${e.tagName} ${e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30)}`
    + ` ${Math.round(r.width)}x${Math.round(r.height)}`; })"""


@pytest.mark.parametrize("sample", [SAMPLE, ROOT / "samples" / "clue" / "six-players-refute-all.txt",
                                    ROOT / "samples" / "literature" / "ex-a-six-players.txt"])
def test_every_control_is_a_fingers_size_with_the_panel_open_and_folded(served, tmp_path,
                                                                        sample):
    """At 360 x 640 every visible interactive control is at least 44 x 44 px, with the entry
    panel open (the compact grid's cells are then text, not buttons, and a hint says how to
    ask why) and folded (the cells wide enough are buttons that explain their card)."""
    path = tmp_path / sample.name
    shutil.copyfile(sample, path)
    browser = served[0]
    with Server(path) as server:
        page = open_page(browser, server.url, PHONE)
        toggle = page.get_by_role("button", name="Entry", exact=True)
        assert toggle.get_attribute("aria-expanded") == "true"
        assert page.evaluate(UNDERSIZED, INTERACTIVE) == []
        # a first tap of the entry: the next step's choices too
        entry = page.get_by_role("group", name="Tap entry", exact=True)
        entry.get_by_role("button").first.click()
        assert page.evaluate(UNDERSIZED, INTERACTIVE) == []
        grid = page.locator("#live table.sheet.grid")
        if grid.count():
            assert grid.locator("button.cell").count() == 0     # compact: no buttons
            assert page.locator("#live .cell-hint").is_visible()
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "false"
        assert page.evaluate(UNDERSIZED, INTERACTIVE) == []
        cells = page.get_by_role("table", name="Sheet", exact=True).get_by_role("button")
        if sample == SAMPLE:                    # folded, the grid's cells explain their card
            assert cells.count() == 52
            cells.first.click()
            page.wait_for_function("() => /^why /.test("
                                   "document.getElementById('status').textContent)")


def test_the_hands_column_heads_are_whole_words_on_a_phone(served, tmp_path):
    """At 360 x 640 each column head of Literature's Hands table ("team", "player",
    "cards", "known to hold") stays whole: none is broken into letters on two lines,
    and the page does not scroll sideways."""
    sample = ROOT / "samples" / "literature" / "ex-a-six-players.txt"
    path = tmp_path / sample.name
    shutil.copyfile(sample, path)
    with Server(path) as server:
        page = open_page(served[0], server.url, PHONE)
        heads = page.get_by_role("table", name="Hands", exact=True).get_by_role("columnheader")
        assert heads.count() == 4
        for i in range(4):
            head = heads.nth(i)
            words = head.inner_text().split()
            # a head of n words fills at most n lines: no word is split over two
            lines = head.evaluate("e => { const r = document.createRange();"
                                  " r.selectNodeContents(e);"
                                  " return new Set([...r.getClientRects()]"
                                  ".map(x => Math.round(x.top))).size; }")
            assert lines <= len(words), (words, lines)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
