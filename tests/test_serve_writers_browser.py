"""``sleuth serve`` with two phones on one record (Debian's Chromium under Playwright, 360 x 640,
touch, driven by role and accessible name): an Edit tapped on one phone wrote over the line
that moved up after another phone deleted a line above it; a late answer for an older version
put the page's version back, so that the next statement was refused as stale and lost; a long
refusal's start was hidden under the entry panel's sticky bar; the status said only
"connected to the server again" over the answer to a statement logged at once; a what if the
record no longer allowed ended with its status still claiming the hypothetical sheet; two
disclosures had no accessible name."""
from __future__ import annotations

import re
import shutil
from contextlib import contextmanager


from tests.serve_harness import ROOT, Server

PHONE = dict(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True,
             device_scale_factor=2)
IDLE = "() => !document.querySelector('[aria-busy=\"true\"]')"


@contextmanager
def served(browser, tmp_path, sample: str, phones: int = 1, **context):
    """A copy of ``samples/<sample>`` served, and ``phones`` phones' pages of it (browser
    contexts of :data:`PHONE` and ``context``)."""
    path = tmp_path / "record.txt"
    shutil.copy(ROOT / "samples" / sample, path)
    with Server(path) as server:
        contexts = [browser.new_context(**{**PHONE, **context}) for _ in range(phones)]
        try:
            pages = []
            for c in contexts:
                p = c.new_page()
                p.set_default_timeout(120_000)
                p.goto(server.url)
                box(p).wait_for()
                idle(p)
                pages.append(p)
            yield path, server, pages
        finally:
            for c in contexts:
                c.close()


def idle(p, t: float = 120) -> None:
    p.wait_for_function(IDLE, timeout=t * 1000)


def status(p) -> str:
    return p.get_by_role("status").first.inner_text().strip()


def box(p):
    return p.get_by_role("textbox", name="Statement")


def line_item(p, text: str):
    return p.get_by_role("region", name="Lines").get_by_role("listitem").filter(has_text=text)


def log(p, text: str) -> str:
    """``text`` typed and logged; the status once the page is idle again."""
    box(p).fill(text)
    p.get_by_role("button", name="Log", exact=True).click()
    p.wait_for_function("() => document.getElementById('status').textContent.trim() !== ''")
    idle(p)
    return status(p)


def test_an_edit_tapped_before_another_phone_deletes_a_line_above_is_refused(browser, tmp_path):
    with served(browser, tmp_path, "clue/four-players-ana.txt", phones=2) as (path, _, (a, b)):
        line_item(b, "Green Revolver Lounge").get_by_role("button", name="Edit").click()
        assert box(b).input_value() == ("edit 15 Cleo suggests Green Revolver Lounge: Dev "
                                        "passes, Ana passes, Ben shows")
        mine = box(b).input_value() + " Revolver"
        box(b).fill(mine)
        line_item(a, "Ben suggests Peacock Candlestick").get_by_role(
            "button", name="Delete").click()
        a.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('deleted line 14')")
        after_delete = path.read_text(encoding="utf-8")
        # B's page picks up the deletion by itself (its poll), then B taps Log
        line_item(b, "Ben suggests Peacock Candlestick").wait_for(state="detached")
        idle(b)
        said = log_saved(b, mine)
        idle(b)
        assert path.read_text(encoding="utf-8") == after_delete, said   # nothing changed
        assert said.startswith("edit 15 refused"), said
        assert "line 15 or a line above it" in said and "Ana suggests Peacock Pipe" in said
        assert box(b).input_value() == mine                              # the text kept
        # its line number mended (Cleo's line is 14 now): done as asked
        said = log_saved(b, mine.replace("edit 15 ", "edit 14 "))
        assert said.startswith("line 14 is now"), said
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[13] == mine[len("edit 15 "):]
        assert lines[14].startswith("Ana suggests Peacock Pipe Billiard: Cleo shows Peacock")


def test_a_late_live_answer_does_not_put_the_version_back(browser, tmp_path):
    """The page's live part asked for after one save and answered after the next (held
    here): its older version must not replace the one the page's own save returned, or the
    next statement is sent on it and refused as stale."""
    statements = ["Eli asks Ben AS-4S: 1", "Ana asks Ben 5D-8D: 0", "Ben asks Cleo 2S-5S: ?"]
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        held, passing = [], []

        def hold(route):
            if passing:
                route.continue_()
            else:
                held.append((route, route.fetch()))     # the answer as it was then, kept back

        p.route(re.compile(r"/live(\?|$)"), hold)
        assert log_saved(p, statements[0]).startswith("logged line 37")
        assert log_saved(p, statements[1]).startswith("logged line 38")
        assert held, "the live part after line 37 was asked for"
        route, answer = held.pop(0)
        route.fulfill(response=answer)              # line 37's version, answered late
        p.wait_for_timeout(300)
        said = log_saved(p, statements[2])
        assert said.startswith("logged line 39"), said
        passing.append(True)
        while held:
            route, answer = held.pop(0)
            route.fulfill(response=answer)
        idle(p)
    assert path.read_text(encoding="utf-8").splitlines()[-3:] == statements


def log_saved(p, text: str) -> str:
    """``text`` logged (the page's live part may be held back: not waited for)."""
    box(p).fill(text)
    p.evaluate("document.getElementById('status').textContent = ''")
    p.get_by_role("button", name="Log", exact=True).click()
    p.wait_for_function("() => document.getElementById('status').textContent.trim() !== ''")
    return status(p)


def test_a_statement_refused_after_it_left_the_box_is_kept_under_it(browser, tmp_path):
    """A statement refused while still in the box, then replaced by the next one typed over
    it, is kept under the box with its refusal, not lost."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        # refused (out of turn: Ana is not on turn after line 36)
        said = log(p, "Ben asks Cleo 2S-5S: ?")
        assert said.startswith("refused"), said
        box(p).fill("Eli asks Ben AS-4S: 1")      # typed over it
        kept = p.get_by_role("button", name="Back in the box: Ben asks Cleo 2S-5S: ?")
        kept.wait_for()
        p.get_by_role("button", name="Drop it: Ben asks Cleo 2S-5S: ?").wait_for()


def test_a_long_refusal_starts_below_the_panels_bar(browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        log(p, "Eli asks Ben AS-4S: 1")             # Ana's turn next
        said = log(p, "Ana aks Dev 4D-7D: 1")
        assert said.startswith("refused"), said
        p.wait_for_timeout(300)                     # the panel's scrolling done
        bar = p.locator("#entry .entry-bar").bounding_box()
        top = p.get_by_role("status").first.bounding_box()
        assert top["y"] >= bar["y"] + bar["height"] - 1, (top, bar)


def test_the_status_after_reconnecting_is_the_last_actions(browser, tmp_path):
    line = "Ana asks Ben 5D-8D: 0"
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt", phones=2) as (
            path, _, (a, b)):
        log(b, "Eli asks Ben AS-4S: 1")
        idle(a)
        a.wait_for_function("() => document.querySelector('#live li[data-line=\"37\"]')")
        a.context.set_offline(True)
        a.get_by_role("alert").filter(has_text="No connection").wait_for()
        box(a).fill(line)
        assert log(b, line).startswith("logged line 38")
        a.context.set_offline(False)
        a.get_by_role("button", name="Log", exact=True).click()
        a.get_by_role("alert").filter(has_text="another device logged this same "
                                      "statement first (line 38)").wait_for()
        a.wait_for_timeout(1500)                    # the poll has found the server again
        said = status(a)
        assert "another device logged this same statement first (line 38)" in said, said


def test_a_what_if_the_record_no_longer_allows_ends_said(browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt", phones=2) as (
            path, _, (a, b)):
        box(b).fill("Eli asks Ben AS-4S: 0")
        b.get_by_role("button", name="What if", exact=True).click()
        b.get_by_role("table", name="Sheet (hypothetical)").wait_for()
        assert "hypothetical" in status(b)
        log(a, "Eli asks Ben AS-4S: 1")
        b.get_by_role("table", name="Sheet", exact=True).wait_for()
        idle(b)
        said = status(b)
        assert "hypothetical, not saved" not in said, said
        assert said.startswith("the what if ended"), said
        assert "MH-7" in said, said


def test_the_disclosures_are_named(browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        log(p, "Eli asks Ben AS-4S: 1")             # Ana's turn: the advice is offered
        live = p.get_by_role("main", name="Game")
        p.get_by_role("group", name="Advice and exposure").wait_for()
        live.get_by_role("group", name=re.compile(r"^Candidates for the mystery hand: ")
                         ).wait_for()
        assert not re.search(r"^\s*- group:", live.aria_snapshot(), re.M)   # none unnamed


def test_an_edit_is_checked_against_the_lines_it_was_decided_on(tmp_path):
    """The server's side (no browser): ``edit N`` sent with the version its page showed
    when Edit was tapped (``typed_on``) is refused when line N or a line above it changed
    since, and done when only lines below it were added."""
    from solver.records import text_version
    from solver.session import appended
    from tests.test_serve_app import TOKEN, client

    path = tmp_path / "clue.txt"
    shutil.copy(ROOT / "samples" / "clue" / "four-players-ana.txt", path)
    c = client(path)
    c.get("/live")
    shown = text_version(path.read_text(encoding="utf-8"))

    def post(line, version, typed_on):
        return c.post("/do", json={"line": line, "version": version, "typed_on": typed_on},
                      headers={"X-Sleuth-Token": TOKEN}).json()

    edit = ("edit 15 Cleo suggests Green Revolver Lounge: Dev passes, Ana passes, Ben shows "
            "Revolver")
    d = post("delete 14", shown, shown)                  # another phone deletes line 14
    assert d["saved"], d["status"]
    now = d["version"]
    before = path.read_text(encoding="utf-8")
    d = post(edit, now, shown)                           # decided on the lines before it
    assert not d["saved"] and d["stale"], d["status"]
    assert d["status"].startswith("edit 15 refused: not done: line 15 or a line above it")
    assert path.read_text(encoding="utf-8") == before
    d = post("delete 15", now, shown)                    # a Delete the same
    assert not d["saved"] and d["status"].startswith("delete 15 refused"), d["status"]
    # a line added below: the line is where the page showed it
    path.write_text(appended(before, "# Ben looked at the clock"),
                    encoding="utf-8")
    c.get("/live")
    later = text_version(path.read_text(encoding="utf-8"))
    d = post("edit 14 Cleo suggests Green Revolver Lounge: Dev passes, Ana passes, Ben shows",
             later, now)
    assert d["saved"], d["status"]
