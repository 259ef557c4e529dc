"""``sleuth serve``'s disclosures and the legend under the grid, on a phone in Debian's Chromium
under Playwright, the page driven by role and accessible name: "Advice and exposure", the
candidates for the mystery hand and the New game page's "Each game's variant options and header
lines" are ``<details>`` whose summary was no button (``get_by_role`` found none by its name);
each is a named button now whose ``aria-expanded`` follows a tap, Enter and Space, and a
re-render of the live part (the candidates' "Most likely" table, class "top", was drawn as the
page's header bar). With the entry panel open at 360 x 640 the legend's second line
was cut by the panel's top edge; its short form is one line above the panel, the 13 rows
still in sight."""
from __future__ import annotations

import re
import shutil


from tests.serve_harness import ROOT, Server, rows_in_sight
from tests.test_serve_audit import IDLE, log

PHONE = {"width": 360, "height": 640}
SMALL = {"width": 320, "height": 568}
MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
      "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n")
CANDIDATES = re.compile(r"^Candidates for the mystery hand: \d+$")


def phone(browser, url, size=PHONE):
    page = browser.new_context(viewport=size, has_touch=True).new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    return page


def expanded(button) -> str | None:
    return button.get_attribute("aria-expanded")


def wait_expanded(page, button, state: str) -> None:
    handle = button.element_handle()
    page.wait_for_function("([b, s]) => b.getAttribute('aria-expanded') === s", arg=[handle, state])


def test_the_live_disclosures_are_named_buttons_with_their_expanded_state(browser, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    with Server(path) as server:
        page = phone(browser, server.url)
        page.wait_for_function(IDLE, polling="raf")
        advice = page.get_by_role("button", name="Advice and exposure", exact=True)
        candidates = page.get_by_role("button", name=CANDIDATES)
        assert advice.count() == 1 and candidates.count() == 1
        assert expanded(advice) == "false" and expanded(candidates) == "false"
        assert page.get_by_role("button", name="Advice and exposure", expanded=False).count() == 1

        # one thumb: the panel folded, a tap opens each, another closes it
        page.get_by_role("button", name="Entry", exact=True).tap()
        advice.tap()
        wait_expanded(page, advice, "true")
        page.wait_for_function("() => !/opens on demand|Working/.test("
                               "document.querySelector('#live .advice-text').textContent)")
        candidates.tap()
        wait_expanded(page, candidates, "true")
        likely = page.get_by_role("table", name="Most likely: mystery hand")
        assert likely.is_visible()
        # a table, not the page's header bar (its class "top" took the bar's flex and colours)
        assert likely.evaluate("t => [getComputedStyle(t).display, getComputedStyle(t)"
                               ".backgroundColor]") == ["table", "rgba(0, 0, 0, 0)"]
        candidates.tap()
        wait_expanded(page, candidates, "false")
        assert not page.get_by_role("table", name="Most likely: mystery hand").is_visible()

        # the keyboard: Enter and Space on the focused button
        candidates.focus()
        page.keyboard.press("Enter")
        wait_expanded(page, candidates, "true")
        page.keyboard.press("Space")
        wait_expanded(page, candidates, "false")

        # a statement logged re-renders the live part: the advice stays open, and says so
        page.get_by_role("button", name="Entry", exact=True).tap()
        page.get_by_role("textbox", name="Statement").fill("Ana asks Ben 4H-7H: 4H 7H")
        assert log(page).startswith("logged line"), page.get_by_role("status").inner_text()
        page.wait_for_function("() => { const t = document.querySelector('#live .lines-list .txt');"
                               " return t && t.textContent.includes('4H-7H'); }")
        advice = page.get_by_role("button", name="Advice and exposure", exact=True)
        wait_expanded(page, advice, "true")
        assert expanded(page.get_by_role("button", name=CANDIDATES)) == "false"


def test_the_new_game_pages_options_are_a_named_button_with_its_expanded_state(browser,
                                                                             tmp_path):
    with Server(tmp_path / "fresh.txt") as server:
        page = phone(browser, server.url)
        options = page.get_by_role("button", name="Each game's variant options and header lines",
                                   exact=True)
        assert options.count() == 1
        wait_expanded(page, options, "false")
        heading = page.get_by_role("heading", name="Mystery Hand (mystery-hand)")
        assert not heading.is_visible()
        options.tap()
        wait_expanded(page, options, "true")
        assert heading.is_visible()
        options.focus()
        page.keyboard.press("Enter")
        wait_expanded(page, options, "false")
        assert not heading.is_visible()
        # the form still starts a game (the page's script takes no part in it)
        form = page.get_by_role("main", name="New game")
        form.get_by_role("textbox", name="Players").fill("Ana Ben Cleo")
        form.get_by_role("button", name="Start the game").click()
        page.get_by_role("table", name="Sheet", exact=True).wait_for()


def test_the_legend_is_in_sight_above_the_open_panel_with_the_13_rows(browser, tmp_path):
    path = tmp_path / "game.txt"
    shutil.copyfile(ROOT / "samples" / "mystery-hand" / "five-players-ana.txt", path)
    with Server(path) as server:
        page = phone(browser, server.url)
        page.wait_for_function(IDLE, polling="raf")
        pane = page.get_by_role("region", name="Entry", exact=True).bounding_box()
        legend = page.locator("#live p.legend")
        box = legend.bounding_box()
        assert rows_in_sight(page) == 13
        assert box["y"] + box["height"] <= pane["y"], (box, pane)
        text = legend.inner_text()
        assert "MYST" in text and "%" in text and "face up" in text, text
        # the caption still carries the whole legend for a screen reader
        sheet = page.get_by_role("table", name="Sheet", exact=True)
        assert "who holds each card" in sheet.locator("caption").inner_text()
        # folded, the cells grow and the whole legend is under the grid
        page.get_by_role("button", name="Entry", exact=True).tap()
        assert legend.inner_text().startswith("who holds each card")

        # a smaller phone: the grid is taller than the room above the panel, and the legend
        # scrolls clear of it
        small = phone(browser, server.url, SMALL)
        small.wait_for_function(IDLE, polling="raf")
        pane = small.get_by_role("region", name="Entry", exact=True).bounding_box()
        legend = small.locator("#live p.legend")
        box = legend.bounding_box()
        small.evaluate(f"window.scrollBy(0, {box['y'] + box['height'] - pane['y'] + 4})")
        box = legend.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= pane["y"], (box, pane)
