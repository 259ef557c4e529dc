"""``sleuth serve`` on a phone (Debian's Chromium under Playwright, 360 x 640 or 360 x 740,
touch, driven by role and accessible name): a page reloaded while its Log was being saved
said "not saved" and a second Log saved the statement twice; a Log whose answer never
came (the connection went) was not known to the server when sent again; a statement not
sent for want of a connection was lost when the next one was typed over it; a control
focused in the panel was hidden under its sticky bar; a screen reader heard nothing of the
turn or of lines other devices logged; a refusal was cut to two lines once its statement
left the box, with no way to read the rest."""
from __future__ import annotations

import re

import pytest

# the phone, the served sample and the page's parts, as the writers' tests have them
from tests.test_serve_writers_browser import box, idle, served, status

# a record (tests/records) whose next statement, SLOW_LINE, takes about a second to check
SLOW = "../tests/records/literature-eight-lossy-ana.txt"
SLOW_LINE = "Ana asks Dev JH: no"


def log_button(p):
    return p.get_by_role("button", name="Log", exact=True)


def log(p, text: str) -> str:
    """``text`` typed and logged; the status once the page is idle again."""
    box(p).fill(text)
    p.evaluate("document.getElementById('status').textContent = ''")
    log_button(p).click()
    p.wait_for_function("() => document.getElementById('status').textContent.trim() !== ''")
    idle(p)
    return status(p)


def type_over(p, text: str) -> None:
    box(p).click()
    p.keyboard.press("Control+A")
    p.keyboard.type(text)


def statuses(p) -> list[str]:
    """Every text the status has shown since this was called (read with ``said``)."""
    p.evaluate("""() => { window._said = []; const s = document.getElementById('status');
        new MutationObserver(() => window._said.push(s.textContent))
            .observe(s, {childList: true, characterData: true, subtree: true}); }""")
    return []


def said(p) -> list[str]:
    return p.evaluate("window._said || []")


def hold_poll(p):
    """The page's polls (``/version``) held unanswered from now until the function returned
    is called: the page does not learn meanwhile that the server answers (it asks about a
    Log whose answer was lost at the first poll answered)."""
    held: list = []
    pattern = re.compile(r"/version$")

    def hold(route) -> None:
        held.append(route)

    p.route(pattern, hold)

    def release() -> None:
        p.unroute(pattern, hold)
        for route in held:
            try:
                route.continue_()
            except Exception:       # its page reloaded meanwhile
                pass

    return release


def test_a_page_reloaded_while_its_log_is_saved_says_it_was_logged(browser, tmp_path):
    """An 8-player lossy Literature record whose next statement takes about a second to
    check (tests/records): the page reloaded 0.1 s after Log asks the server what became of
    it, never says "not saved" meanwhile, and says the line once it is saved; the statement
    is saved once.  (The six-player lossy sample now checks in 0.04 s: its answer could
    come before the reload.)"""
    with served(browser, tmp_path, SLOW) as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        box(p).click()
        p.keyboard.type(SLOW_LINE)
        log_button(p).click()
        p.wait_for_timeout(100)
        p.reload()
        box(p).wait_for()
        statuses(p)
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('logged before the page was reloaded')")
        assert status(p) == f"logged before the page was reloaded: line {len(before) + 1}: " \
            + SLOW_LINE
        assert not [s for s in said(p) if "not saved" in s], said(p)
        assert box(p).input_value() == ""
        idle(p)
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines == before + [SLOW_LINE]
        p.get_by_role("region", name="Lines").get_by_role("listitem").filter(
            has_text=SLOW_LINE).wait_for()


def test_a_log_whose_answer_was_lost_is_not_saved_twice(browser, tmp_path):
    """The server saved the statement but its answer never reached the page (the
    connection cut): logged again, the page sends it with the same id, and the server says
    it is saved already instead of saving it a second time."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        release = hold_poll(p)      # the page not told by a poll meanwhile (it asks then)
        cut = []

        def lose_answer(route):
            if not cut:
                cut.append(route.fetch())        # the server does it ...
                route.abort("connectionreset")   # ... and its answer is lost
            else:
                route.continue_()

        p.route(re.compile(r"/do$"), lose_answer)
        said_first = log(p, "Eli asks Ben AS-4S: 1")
        assert said_first.startswith("no answer from the server"), said_first
        assert box(p).input_value() == "Eli asks Ben AS-4S: 1"
        assert path.read_text(encoding="utf-8").splitlines() == before + ["Eli asks Ben AS-4S: 1"]
        p.wait_for_timeout(500)                   # not a double tap
        log_button(p).click()
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('logged before')")
        assert status(p) == ("logged before (the answer to its first Log did not come): "
                             "line 37: Eli asks Ben AS-4S: 1"), status(p)
        assert box(p).input_value() == ""
        release()
        idle(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + ["Eli asks Ben AS-4S: 1"]


def test_a_page_reloaded_with_its_log_cut_before_the_server_is_told_not_saved(
        browser, tmp_path):
    """A Log that never reached the server (dropped on its way), then the page reloaded:
    not saved, said so, the statement back in the box; logged, it is saved once."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        release = hold_poll(p)      # the page not told by a poll meanwhile (it asks then)
        p.route(re.compile(r"/do$"), lambda route: route.abort("connectionreset"))
        box(p).click()
        p.keyboard.type("Eli asks Ben AS-4S: 1")
        log_button(p).click()
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('no answer from the server')")
        p.unroute(re.compile(r"/do$"))
        p.reload()
        box(p).wait_for()
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('not saved before the page was reloaded')")
        assert "(the server does not know it: not in the record)" in status(p), status(p)
        assert box(p).input_value() == "Eli asks Ben AS-4S: 1"
        release()
        idle(p)
        assert log(p, "Eli asks Ben AS-4S: 1").startswith("logged line 37"), status(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + ["Eli asks Ben AS-4S: 1"]


@pytest.mark.parametrize("delay", [0, 30, 300])
def test_a_page_reloaded_as_its_log_is_answered_says_it_was_logged(browser, tmp_path, delay):
    """Log, then the page reloaded at once or a moment later (the answer may come before
    the reload is done, or never reach the page): the reloaded page says the line."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        box(p).click()
        p.keyboard.type("turn: Ana # RL2")
        log_button(p).click()
        if delay:
            p.wait_for_timeout(delay)
        p.reload()
        box(p).wait_for()
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('logged before the page was reloaded')")
        assert status(p) == "logged before the page was reloaded: line 37: turn: Ana # RL2"
        assert box(p).input_value() == ""
        assert path.read_text(encoding="utf-8").splitlines() == before + ["turn: Ana # RL2"]


def test_a_statement_not_sent_offline_is_kept_when_typed_over(browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        first, second = "Ben asks Cleo 4D-7D: 1", "Cleo asks Ana 2C-5C: 0"
        p.context.set_offline(True)
        p.get_by_role("alert").filter(has_text="No connection").wait_for()
        type_over(p, first)
        log_button(p).click()
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('no answer from the server')")
        type_over(p, second)
        p.get_by_role("button", name="Back in the box: " + first).wait_for()
        p.get_by_role("button", name="Drop it: " + first).wait_for()
        p.context.set_offline(False)
        p.get_by_role("alert").filter(has_text="No connection").wait_for(state="hidden")
        assert box(p).input_value() == second
        p.reload()
        box(p).wait_for()
        p.get_by_role("button", name="Back in the box: " + first).wait_for()     # a reload keeps it
        p.get_by_role("button", name="Back in the box: " + first).click()
        assert box(p).input_value() == first
        p.get_by_role("button", name="Back in the box: " + second).wait_for()    # not lost either


def test_a_control_focused_in_the_panel_is_never_under_its_bar(browser, tmp_path):
    """360 x 740, the panel scrolled down: Tab and Shift+Tab onto the Statement box, its ✕
    and Log bring each fully below the panel's sticky bar."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt",
                viewport={"width": 360, "height": 740}) as (path, _, (p,)):
        bar = p.locator("#entry .entry-bar")
        controls = [box(p), p.get_by_role("button", name="Clear the statement"), log_button(p)]
        checked = 0
        for key, start in (("Tab", p.get_by_role("button", name="What if", exact=True)),
                           ("Shift+Tab", p.locator("#choices button").first)):
            for c in controls:
                p.evaluate("document.getElementById('entry').scrollTop = 1e6")
                p.wait_for_timeout(100)
                assert p.evaluate("document.getElementById('entry').scrollTop") > 40
                if key == "Tab":
                    # from the control before it
                    c.evaluate("""el => { const all = [...document.querySelectorAll(
                        '#entry button, #entry textarea')].filter(e => e.offsetParent);
                        all[all.indexOf(el) - 1].focus({preventScroll: true}); }""")
                else:
                    c.evaluate("""el => { const all = [...document.querySelectorAll(
                        '#entry button, #entry textarea')].filter(e => e.offsetParent);
                        all[all.indexOf(el) + 1].focus({preventScroll: true}); }""")
                p.evaluate("document.getElementById('entry').scrollTop = 1e6")
                p.keyboard.press(key)
                p.wait_for_timeout(150)
                assert c.evaluate("el => el === document.activeElement")
                top = c.bounding_box()["y"]
                b = bar.bounding_box()
                assert top >= b["y"] + b["height"] - 0.5, (key, c, top, b)
                checked += 1
        assert checked == 6, start


def announcements(p) -> str:
    return p.get_by_role("log", name="Announcements").inner_text()


def test_turn_changes_and_other_devices_lines_are_announced(browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt", phones=2) as (
            path, _, (a, b)):
        region = a.get_by_role("log", name="Announcements")
        assert region.get_attribute("aria-live") == "polite"
        assert announcements(a) == ""
        # another device logs a line: said on this one, with whose turn it is now
        assert log(b, "Eli asks Ben AS-4S: 1").startswith("logged line 37")
        a.wait_for_function("() => document.getElementById('announce').textContent"
                            ".includes('line 37')")
        said_a = announcements(a)
        assert "Another device logged line 37: Eli asks Ben AS-4S: 1." in said_a, said_a
        assert "Turn: Ana (yours)." in said_a, said_a
        # this page's own Log: the turn, not "another device"
        assert log(a, "Ana asks Ben 5D-8D: 0").startswith("logged line 38")
        a.wait_for_function("() => document.getElementById('announce').childElementCount >= 2")
        last = a.locator("#announce p").last.inner_text()
        assert last.startswith("Turn: ") and "Another device" not in last, last
        # the whole sheet is not in the region
        assert "Sheet" not in announcements(a) and "%" not in announcements(a)


def test_a_refusal_stays_whole_after_its_statement_leaves_the_box(browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt",
                viewport={"width": 360, "height": 740}) as (path, _, (p,)):
        log(p, "Eli asks Ben AS-4S: 1")                  # Ana's turn
        said_it = log(p, "Ana asks Ben 2S-5S: 4")         # a conflict, its lines listed
        assert said_it.startswith("refused: ") and "cannot all be true" in said_it, said_it
        p.locator("#fixes ul.conflict").wait_for()
        p.get_by_role("button", name="Clear the statement").click()
        assert box(p).input_value() == ""
        p.wait_for_timeout(200)
        # cut to two lines out of the way of the next statement, with a control for all of it
        p.get_by_role("button", name="Show the whole refusal").click()
        p.wait_for_timeout(200)
        st = p.get_by_role("status").first
        full = st.evaluate("el => el.scrollHeight")
        shown = st.evaluate("el => el.clientHeight")
        assert full > 2 * 13 * 1.3 + 4, full           # more than two lines long
        assert shown >= full - 1, (shown, full)        # all of it in sight, not cut
        assert status(p) == said_it
