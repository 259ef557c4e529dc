"""``sleuth serve`` at a real table, on a phone (360 px, Debian's Chromium under Playwright,
the page driven by role and accessible name): a statement logged while the one before was
still being checked was dropped and the box emptied (the line lost); the same statement logged
on two phones was kept twice by following the page's advice; a second Undo within a double
tap's time was dropped unsaid; a refusal's "Use: ..." stayed live after the box was cleared;
a question asked of the view in Literature did not get its answer from the view's hand; Tab
could put focus under the fixed Entry panel; a refused Delete did not say it was the Delete;
leaving a what if left its status."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.serve_harness import ROOT, Server
from tests.test_serve_audit import IDLE, log
from tests.test_serve_leftovers import tap
from tests.test_serve_taps_tt import served

PHONE = {"width": 360, "height": 740}
MH = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
      "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n")
# the page's own fetch, the next POST /do held back ``window.__hold`` ms before it is sent:
# a check that takes that long, as a big record's does on a phone's server
HOLD = """
(() => {
  const real = window.fetch;
  window.__hold = 0;
  window.fetch = async (url, opts) => {
    if (String(url).endsWith("/do") && window.__hold) {
      const ms = window.__hold; window.__hold = 0;
      await new Promise((r) => setTimeout(r, ms));
    }
    return real(url, opts);
  };
})();
"""


@contextmanager
def two_phones(browser, path):
    """``path`` served, and two phones' pages of it (Clue's empty record: two players at one
    table logging the same questions)."""
    path.write_text("game: clue\nplayers: Ana Ben Cleo Dev\nme: Ana\n", encoding="utf-8")
    with Server(path) as server:
        phones = [browser.new_context(viewport=PHONE, has_touch=True) for _ in range(2)]
        try:
            pages = []
            for c in phones:
                pg = c.new_page()
                pg.set_default_timeout(120_000)
                pg.goto(server.url)
                pg.wait_for_function(IDLE, polling="raf")
                pages.append(pg)
            yield pages
        finally:
            for c in phones:
                c.close()


def statements(path) -> list[str]:
    return [ln for ln in path.read_text(encoding="utf-8").splitlines()[4:] if ln.strip()]


def test_a_statement_logged_while_the_one_before_is_checked_is_saved_after_it(browser,
                                                                              tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        page.evaluate(HOLD)
        page.evaluate("() => { window.__hold = 1500; }")
        box.fill("Ana asks Ben 4H-7H: 4H 7H")
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_timeout(300)              # the first still on its way
        box.fill("Ben asks all 6*: Ana 1, Cleo 1, Dev 2")
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('logged line 7')")
        page.wait_for_function(IDLE, polling="raf")
        assert statements(path)[-2:] == ["Ana asks Ben 4H-7H: 4H 7H",
                                         "Ben asks all 6*: Ana 1, Cleo 1, Dev 2"]
        assert box.input_value() == ""
        # typed while the first was checked, not logged: it stays in the box
        page.evaluate("() => { window.__hold = 1500; }")
        box.fill("Cleo requests KS: nobody")
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_timeout(300)
        box.fill("Dev asks Ana 2C-5C: 2C 3C 4C 5C")
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('logged line 8')")
        page.wait_for_function(IDLE, polling="raf")
        assert statements(path)[-1] == "Cleo requests KS: nobody"
        assert box.input_value() == "Dev asks Ana 2C-5C: 2C 3C 4C 5C"


@contextmanager
def same_statement_refused(browser, tmp_path):
    """Two phones, one Clue table, both holding ``Ben suggests Plum Pipe Lounge: Cleo
    shows``: the first logs it (line 4), the second is refused as stale, told the record
    has it. Yields (path, the statement, the second phone's page)."""
    path = tmp_path / "c.txt"
    line = "Ben suggests Plum Pipe Lounge: Cleo shows"
    with two_phones(browser, path) as pages:
        for pg in pages:
            pg.get_by_role("textbox", name="Statement").fill(line)
        assert log(pages[0]).startswith("logged line 4")
        pages[1].get_by_role("button", name="Log", exact=True).click()
        alert = pages[1].get_by_role("alert").filter(has_text="same statement")
        alert.wait_for()
        assert "another device logged this same statement first (line 4)" in alert.inner_text()
        assert pages[1].get_by_role("textbox", name="Statement").input_value() == ""
        assert path.read_text(encoding="utf-8").count(line) == 1
        yield path, line, pages[1]


def test_the_same_statement_from_two_phones_is_logged_once_and_said(browser, tmp_path):
    """The second Log is refused as stale and says the record has it (the line), its box
    emptied; "Log it again" logs it a second time, for a statement that was said twice."""
    with same_statement_refused(browser, tmp_path) as (path, line, page):
        page.get_by_role("button", name=f"Log it again: {line}").click()
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('logged')")
        assert path.read_text(encoding="utf-8").count(line) == 2


def test_a_second_undo_within_a_double_tap_is_said(browser, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(MH + "Ana asks Ben 4H-7H: 4H 7H\nBen asks all 6*: Ana 1, Cleo 1, Dev 2\n",
                    encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        page.evaluate(HOLD)
        page.evaluate("() => { window.__hold = 800; }")
        undo = page.get_by_role("button", name="Undo", exact=True)
        undo.click()
        undo.click()                            # while the first is on its way
        status = page.get_by_role("status")
        page.wait_for_function(
            "() => document.getElementById('status').textContent.includes('double tap')")
        assert status.inner_text().startswith("undo: removed line 7")
        assert "tap again if it was meant" in status.inner_text()
        assert len(statements(path)) == 2       # one line undone, as the status says
        page.wait_for_timeout(450)
        undo.click()
        page.wait_for_function(
            "() => document.getElementById('status').textContent.includes('line 6')")
        assert len(statements(path)) == 1


@pytest.mark.parametrize("moved_on", ["cleared", "retyped"])
def test_a_refusals_correction_goes_when_the_box_moves_on(browser, tmp_path, moved_on):
    """A refusal's "Use: ..." stayed live after the box was cleared (or held another
    statement): one stray tap logged a statement given up."""
    path = tmp_path / "game.txt"
    path.write_text(MH + "Ana asks Ben 4H-7H: 4H 7H\n", encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        box.fill("ben askz cleo 5S-8S: 1")
        assert log(page).startswith("refused")
        fix = page.get_by_role("button", name="Use: Ben asks Cleo 5S-8S: 1")
        assert fix.count() == 1
        if moved_on == "retyped":
            box.fill("Ben asks Dev 5S-8S: 0")
            assert fix.count() == 0
            return
        page.get_by_role("button", name="Clear the statement").click()
        assert fix.count() == 0
        assert "refusal" not in (page.locator("#status").get_attribute("class") or "")
        tap(entry, "Asks whom", "Cleo")           # Ben's turn: his question by taps
        assert box.input_value() == "Ben asks Cleo"
        assert fix.count() == 0
        assert statements(path)[-1] == "Ana asks Ben 4H-7H: 4H 7H"


def test_a_question_asked_of_the_view_gets_its_answer_from_the_hand(browser, tmp_path):
    """Literature: ``Dev asks Ana`` then a card: yes for a card Ana holds (3S, dealt; 5S,
    taken from Dev), no for one she does not, as Mystery Hand fills in the cards shown."""
    path = tmp_path / "lit.txt"
    path.write_text("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
                    "Ana holds: 3S 7S AH 10H JD 2C 5C QC\nAna asks Ben 9H: yes\n"
                    "Ana asks Dev 5S: yes\nAna asks Dev KH: no\n", encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        for card, answer in (("3S", "yes"), ("5S", "yes"), ("4S", "no")):
            page.get_by_role("button", name="Clear the statement").click()
            tap(entry, "Asks whom", "Ana")
            tap(entry, "Which card", card)
            assert box.input_value() == f"Dev asks Ana {card}: {answer}"
        assert log(page) == "logged line 8: Dev asks Ana 4S: no"


def test_focus_is_never_under_the_entry_panel(browser, tmp_path):
    """WCAG 2.4.11: every control Tab reaches on the page is scrolled above the fixed Entry
    panel (the Edit and Delete buttons of the lines were under it)."""
    import shutil

    copy = tmp_path / "five.txt"
    shutil.copyfile(ROOT / "samples" / "mystery-hand" / "five-players-ana.txt", copy)
    with served(browser, copy, PHONE) as (page, entry, box):
        page.locator("body").click(position={"x": 5, "y": 5})
        hidden = []
        for _ in range(60):
            page.keyboard.press("Tab")
            hidden += page.evaluate("""() => {
              const el = document.activeElement, panel = document.getElementById('entry');
              if (!el || el === document.body || panel.contains(el)) return [];
              const r = el.getBoundingClientRect();
              const top = window.innerHeight - panel.offsetHeight;
              return r.bottom > top + 1 ? [el.textContent.trim().slice(0, 30)] : [];
            }""")
        assert hidden == []


def test_a_refused_delete_says_it_was_the_delete(browser, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(MH + "Ana asks Ben 4H-7H: 4H 7H\nBen asks Cleo 8D-JD: 0\n",
                    encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        # deleting line 6 would leave Ben's ask out of turn: the Delete is refused
        page.evaluate("() => { document.getElementById('status').textContent = ''; }")
        page.get_by_role("listitem").filter(has_text="Ana asks Ben 4H-7H").get_by_role(
            "button", name="Delete").click()
        page.wait_for_function("() => document.getElementById('status').textContent !== ''")
        assert page.get_by_role("status").inner_text().startswith("delete 6 refused: ")


def test_a_first_visit_opens_again_offline_and_says_it_is_a_copy(browser, tmp_path):
    """A page opened once (no second load) whose server is then out of reach: a reload shows
    the page from the worker's cache (it failed: the page was cached only by a later load),
    saying that it is the browser's copy and that nothing can be logged."""
    path = tmp_path / "game.txt"
    path.write_text(MH + "Ana asks Ben 4H-7H: 4H 7H\n", encoding="utf-8")
    with Server(path) as server:
        context = browser.new_context(viewport=PHONE, has_touch=True)
        try:
            page = context.new_page()
            page.set_default_timeout(120_000)
            page.goto(server.url)
            page.wait_for_function(IDLE, polling="raf")
            page.wait_for_function("() => !!navigator.serviceWorker.controller", polling=100)
            banner = page.get_by_role("alert").filter(has_text="No connection")
            assert banner.count() == 0
            context.set_offline(True)
            page.reload()
            assert page.get_by_role("textbox", name="Statement").is_visible()
            banner.wait_for()
            assert "the browser's copy of the last one loaded" in banner.inner_text()
            assert "nothing can be logged" in banner.inner_text()
        finally:
            context.set_offline(False)
            context.close()


def test_a_lost_connection_is_said_and_so_is_its_return(browser, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        banner = page.get_by_role("alert").filter(has_text="No connection")
        page.context.set_offline(True)
        banner.wait_for()                       # said without waiting for a tap
        assert "browser's copy" not in banner.inner_text()
        box.fill("Ana asks Ben 4H-7H: 4H 7H")
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_function("() => document.getElementById('status').textContent"
                               ".includes('no answer from the server')")
        assert box.input_value() == "Ana asks Ben 4H-7H: 4H 7H"
        page.context.set_offline(False)
        # the server never got it (asked: GET /sent), so it is said not saved, in the box
        page.wait_for_function("() => document.getElementById('status').textContent"
                               ".startsWith('not saved when the connection went')")
        assert page.get_by_role("status").inner_text() == (
            "not saved when the connection went (the server does not know it: not in the "
            "record): "
            "Ana asks Ben 4H-7H: 4H 7H; it is in the box: log it")
        assert banner.count() == 0
        assert log(page) == "logged line 6: Ana asks Ben 4H-7H: 4H 7H"


def test_a_statement_refused_after_the_box_moved_on_is_kept(browser, tmp_path):
    """Logged, then the next typed and logged while the first is checked: the first is
    refused (MH-11: Ana holds all of 2C-5C). Its refusal was overwritten by the second's
    answer and the statement was nowhere; it is kept under the box, to be put back."""
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    bad, good = "Ana asks Ben 2C-5C: 0", "Ana asks Ben 4H-7H: 4H 7H"
    with served(browser, path, PHONE) as (page, entry, box):
        page.evaluate(HOLD)
        page.evaluate("() => { window.__hold = 1200; }")
        box.fill(bad)
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_timeout(200)
        box.fill(good)
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('logged line 6')")
        assert statements(path)[-1] == good
        kept = page.get_by_role("note").filter(has_text=f"Not saved: {bad}")
        assert kept.count() == 1 and "MH-11" in kept.inner_text()
        assert box.input_value() == ""
        page.get_by_role("button", name=f"Back in the box: {bad}").click()
        assert box.input_value() == bad
        assert kept.count() == 0


def test_a_reload_while_a_statement_is_checked_says_whether_it_was_saved(browser, tmp_path):
    """The statement reached the server (saved) but the page reloaded before the answer:
    its draft came back and one more Log saved it twice. Now the page says it was logged
    and empties the box; one that never reached the server stays in the box, said so."""
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    line = "Ana asks Ben 4H-7H: 4H 7H"
    with served(browser, path, PHONE) as (page, entry, box):
        held = []

        def hold(route):
            held.append(route.fetch())          # sent to the server; the answer held back
        page.route("**/do", hold)
        box.fill(line)
        page.get_by_role("button", name="Log", exact=True).click()
        for _ in range(50):
            if held:
                break
            page.wait_for_timeout(100)
        assert held and statements(path)[-1] == line
        page.reload()                           # the held request goes with the page
        page.unroute("**/do")
        page.wait_for_function(IDLE, polling="raf")
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('logged before')")
        assert page.get_by_role("status").inner_text() == \
            f"logged before the page was reloaded: line 6: {line}"
        assert box.input_value() == ""
        # never sent (held in the page): it stays in the box, said not saved
        page.evaluate(HOLD)
        page.evaluate("() => { window.__hold = 5000; }")
        box.fill("Ben asks all 6*: Ana 1, Cleo 1, Dev 2")
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_timeout(200)
        page.reload()
        page.wait_for_function(IDLE, polling="raf")
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('not saved')")
        assert box.input_value() == "Ben asks all 6*: Ana 1, Cleo 1, Dev 2"
        assert statements(path)[-1] == line


def test_the_same_statement_begun_before_another_phone_logged_it(browser, tmp_path):
    """The second phone began its statement before the first logged it, and finished it
    after its page had shown the new line: the check compares the version the statement
    was begun on (it took the last keystroke's, and logged it twice)."""
    path = tmp_path / "c.txt"
    line = "Ana suggests Green Knife Lounge: Ben shows Knife"    # the recorder sees the card
    with two_phones(browser, path) as pages:
        second = pages[1].get_by_role("textbox", name="Statement")
        second.press_sequentially("Ana suggests Green")
        pages[0].get_by_role("textbox", name="Statement").fill(line)
        assert log(pages[0]).startswith("logged line 4")
        pages[1].wait_for_function(
            "() => [...document.querySelectorAll('#live li[data-line]')].length === 1")
        second.press_sequentially(" Knife Lounge: Ben shows Knife")
        pages[1].get_by_role("button", name="Log", exact=True).click()
        alert = pages[1].get_by_role("alert").filter(has_text="same statement")
        alert.wait_for()
        assert path.read_text(encoding="utf-8").count(line) == 1
        # the alert and its button go once the box is cleared
        second.fill("Ben suggests Plum Pipe Study")
        pages[1].get_by_role("button", name="Clear the statement").click()
        assert pages[1].get_by_role("button", name=f"Log it again: {line}").count() == 0


def test_each_long_name_has_one_short_form(browser, tmp_path):
    """Places of different widths cut one name differently (Bartholomeus as Bartholo.us,
    Bartholo.s and Bartho.s in one key): one form a name now, the shortest any place needs."""
    path = tmp_path / "lit.txt"
    path.write_text("game: literature\nplayers: Bartholomew Bartholomeus Christabella Dev "
                    "Maximiliano Fay\nme: Dev\n", encoding="utf-8")
    with served(browser, path, {"width": 320, "height": 740}) as (page, entry, box):
        key = page.locator("#live .name-key")
        key.wait_for()
        pairs = [p.split(" = ") for p in key.inner_text().removeprefix(
            "Names shortened: ").split("; ")]
        names = [name for _, name in pairs]
        assert len(names) == len(set(names)), pairs
        assert "Bartholomeus" in names and "Bartholomew" in names
        # every shortened place of a name shows its one form
        for short, name in pairs:
            cells = page.locator("#live table").get_by_text(short, exact=True)
            assert cells.count() >= 1, short


def test_taps_offer_the_turn_after_a_statement_still_being_checked(browser, tmp_path):
    """While a statement is checked (a big record's check takes seconds), an empty box's
    taps name the player on turn after it, not before it: the next statement is begun
    meanwhile. A statement refused gives the turn back."""
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    actor = "() => (document.querySelector('#choices .actor') || {}).textContent || ''"
    with served(browser, path, PHONE) as (page, entry, box):
        assert page.evaluate(actor) == "Ana (on turn)"
        page.evaluate(HOLD)
        page.evaluate("() => { window.__hold = 2500; }")
        box.fill("Ana asks Ben 4H-7H: 4H 7H")
        page.get_by_role("button", name="Log", exact=True).click()
        page.get_by_role("button", name="Clear the statement").click()
        page.wait_for_function(f"() => ({actor})() === 'Ben (on turn)'", timeout=2000)
        assert "logged" not in page.locator("#status").text_content()   # still on its way
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('logged line 6')")
        page.wait_for_function(IDLE, polling="raf")
        assert page.evaluate(actor) == "Ben (on turn)"
        # refused (a player asks himself, MH-10): still Ben's turn, once answered
        page.evaluate("() => { window.__hold = 2500; }")
        box.fill("Ben asks Ben 2S-6S: none")
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_function("() => document.getElementById('status').classList"
                               ".contains('refusal')")
        page.get_by_role("button", name="Clear the statement").click()
        assert page.evaluate(actor) == "Ben (on turn)"
        assert statements(path)[-1] == "Ana asks Ben 4H-7H: 4H 7H"


def test_a_tap_keeps_the_statements_comment(browser, tmp_path):
    """A tap rewrites the statement and keeps its ``# comment`` (it used to drop it), with
    the caret before the comment."""
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        box.fill("Ana asks Ben 8S-JS: 1  # Ben looked nervous")
        tap(entry, "Answer: how many shown", "2")
        assert box.input_value() == "Ana asks Ben 8S-JS: 2  # Ben looked nervous"
        assert page.evaluate("() => document.getElementById('statement').selectionStart") \
            == len("Ana asks Ben 8S-JS: 2")
        assert log(page).startswith("logged line 6: Ana asks Ben 8S-JS: 2")
        assert path.read_text(encoding="utf-8").splitlines()[-1] \
            == "Ana asks Ben 8S-JS: 2  # Ben looked nervous"


def test_edit_puts_a_statement_being_typed_aside(browser, tmp_path):
    """Edit on a line used to replace what the box held, unsaid: it is kept below the box
    with ``Back in the box``."""
    path = tmp_path / "game.txt"
    path.write_text(MH + "Ana asks Ben 4H-7H: 4H 7H\n", encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        draft = "Ben asks Cleo 9S-QS: 2  # a note typed with care"
        box.fill(draft)
        page.get_by_role("button", name="Edit").first.click()
        assert box.input_value() == "edit 6 Ana asks Ben 4H-7H: 4H 7H"
        kept = page.get_by_role("note").filter(has_text="Not logged yet: " + draft)
        assert kept.count() == 1
        # kept across a reload, as the box's draft is
        page.reload()
        page.wait_for_function(IDLE, polling="raf")
        assert page.get_by_role("note").filter(has_text="Not logged yet: " + draft).count() == 1
        page.get_by_role("button", name="Back in the box: " + draft).click()
        assert box.input_value() == draft
        # an edit changed in the box, then another line's Edit: the changed edit is kept
        page.get_by_role("button", name="Edit").first.click()
        changed = "edit 6 Ana asks Ben 4H-7H: 4H 7H  # changed"
        box.fill(changed)
        page.get_by_role("button", name="Edit").nth(1).click()
        assert page.get_by_role("button", name="Back in the box: " + changed).count() == 1


def test_six_player_clue_figures_are_whole_at_320_px(browser, tmp_path):
    """Six players and the case file at 320 px: a figure ("30%") was cut to "3…"."""
    import shutil

    path = tmp_path / "clue6.txt"
    shutil.copy(ROOT / "samples" / "clue" / "six-players-refute-all.txt", path)
    with served(browser, path, {"width": 320, "height": 640}) as (page, entry, box):
        page.wait_for_function("() => document.querySelector('#live table.sheet.clue .cell')")
        page.wait_for_function(IDLE, polling="raf")
        for panel in ("open", "folded"):
            cut = page.evaluate("""() => [...document.querySelectorAll(
                '#live table.sheet.clue .cell')].filter((c) => c.scrollWidth > c.clientWidth)
                .map((c) => c.textContent)""")
            figures = page.evaluate("""() => [...document.querySelectorAll(
                '#live table.sheet.clue .cell')].filter((c) => c.textContent.includes('%'))
                .length""")
            assert figures and cut == [], (panel, cut)
            page.get_by_role("button", name="Entry").click()


def test_a_long_refusals_correction_is_in_sight_at_320_px(browser, tmp_path):
    """A long refusal (the format list) pushed the box, Log and the one-tap ``Use: ...``
    below the panel's fold at 320 x 640: they are scrolled into sight."""
    import shutil

    path = tmp_path / "mh5.txt"
    shutil.copy(ROOT / "samples" / "mystery-hand" / "five-players-ana.txt", path)
    with served(browser, path, {"width": 320, "height": 640}) as (page, entry, box):
        box.fill("Eli asks Ben 2H - 5H: 0")
        page.get_by_role("button", name="Log", exact=True).click()
        fix = page.get_by_role("button", name="Use: Eli asks Ben 2H-5H: 0")
        fix.wait_for()
        page.wait_for_timeout(200)
        for el in (fix, box, page.get_by_role("button", name="Log", exact=True)):
            r = el.bounding_box()
            assert r is not None and r["y"] >= 0 and r["y"] + r["height"] <= 640 + 0.5, r


def test_cards_shown_are_the_cards_the_one_showing_may_hold(browser, tmp_path):
    """Mystery Hand: ``Cards shown`` offered every card of the range, the view's own too
    (JC to Ana's own question); now the cards the one who shows may hold: none of the
    view's to the view, only the view's when the view shows."""
    path = tmp_path / "game.txt"
    path.write_text(MH, encoding="utf-8")
    with served(browser, path, PHONE) as (page, entry, box):
        def offered():
            g = entry.get_by_role("group", name="Cards shown", exact=True)
            return [b.text_content() for b in g.get_by_role("button").all()]

        box.fill("Ana asks Ben 4H-7H: ")
        assert offered() == ["4H", "6H", "7H"]            # Ana holds 5H
        box.fill("Ben asks Ana 4H-7H: ")
        assert offered() == ["5H"]


def test_a_hand_known_whole_discards_one_of_its_cards(browser, tmp_path):
    """Hand: ``Ana discards`` offered every card of the pack (the engine then refused most,
    HR-28); a hand known whole (the view's) offers its own cards."""
    import shutil

    path = tmp_path / "hand.txt"
    shutil.copy(ROOT / "samples" / "hand" / "round-midway-ana.txt", path)
    with served(browser, path, PHONE) as (page, entry, box):
        box.fill("Ana discards ")
        g = entry.get_by_role("group", name="Which card", exact=True)
        assert sorted(b.text_content() for b in g.get_by_role("button").all()) \
            == ["3H", "5H", "6C", "9H"]


def test_after_a_same_statement_refusal_the_same_statement_typed_again_is_logged(browser,
                                                                               tmp_path):
    """After "another device logged this same statement first" the page kept sending the
    version the first statement was begun on, so the same statement typed afresh (a
    repeated suggestion) was refused again, until a reload."""
    with same_statement_refused(browser, tmp_path) as (path, line, page):
        page.wait_for_function(IDLE, polling="raf")
        page.get_by_role("textbox", name="Statement").fill(line)   # the suggestion again
        assert log(page).startswith("logged line 5")
        assert path.read_text(encoding="utf-8").count(line) == 2


def test_cards_shown_leave_out_cards_the_player_asked_cannot_hold(browser, tmp_path):
    """Mystery Hand: ``Cards shown`` offered cards the analysis rules out for the player
    asked (the sample's Eli holds no 2S), which the engine then refused."""
    import json
    import shutil

    path = tmp_path / "mh5.txt"
    shutil.copy(ROOT / "samples" / "mystery-hand" / "five-players-ana.txt", path)
    from tests.serve_harness import sleuth

    cards = json.loads(sleuth("analyze", "--json", str(path)).stdout)["cards"]
    may = [c for c in ("2S", "3S", "4S", "5S") if cards[c].get("Eli", 0) > 0]
    with served(browser, path, PHONE) as (page, entry, box):
        page.wait_for_function("() => document.querySelector('#live').dataset.pending === 'no'")
        box.fill("Ana asks Eli 2S-5S: ")
        g = entry.get_by_role("group", name="Cards shown", exact=True)
        assert [b.text_content() for b in g.get_by_role("button").all()] == may
