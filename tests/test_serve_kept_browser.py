"""``sleuth serve`` on a phone (Debian's Chromium under Playwright, touch, by role and
accessible name): a refused statement kept under the box showed its whole refusal (the
grammar's list of statements) and pushed the next statement's choices below the screen, and
stayed after its correction was logged, inviting a second entry; it was an alert, read out
again at each reload. The status, cut to its two lines, showed the top of a third. Clue's
suspect group lost its name ``Suggests: suspect`` when the verb was tapped first (and an
accusation's had no name of its own in docs/serve.md). A page whose address carries the
token of a server started again since said ``connected to the server again``, then refused
its next Log."""
from __future__ import annotations

import re
import shutil

from tests.serve_harness import ROOT, Server, sleuth
from tests.test_serve_writers_browser import IDLE, box, idle, status


def phone(width: int, height: int) -> dict:
    return dict(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True,
                device_scale_factor=2)


def open_page(browser, url: str, width: int, height: int):
    p = browser.new_context(**phone(width, height)).new_page()
    p.set_default_timeout(120_000)
    p.goto(url)
    box(p).wait_for()
    idle(p)
    return p


def log(p, text: str) -> str:
    box(p).fill(text)
    p.evaluate("document.getElementById('status').textContent = ''")
    p.get_by_role("button", name="Log", exact=True).click()
    p.wait_for_function("() => document.getElementById('status').textContent.trim() !== ''")
    p.wait_for_function(IDLE)
    return status(p)


def in_sight(p, locator) -> bool:
    """The locator's top row (a finger's 44 px) is on the screen, not scrolled below it."""
    b = locator.bounding_box()
    return b is not None and b["y"] >= 0 and b["y"] + 44 <= p.viewport_size["height"]



def cleo_takes(p):
    """Hand: the box cleared and Cleo's take begun by taps (``Cleo``, ``takes``); returns
    the group of the cards she may take, once it is drawn."""
    p.get_by_role("button", name="Clear the statement").click()
    p.get_by_role("group", name="Who acts").get_by_role("button", name="Cleo",
                                                        exact=True).click()
    p.get_by_role("button", name="takes", exact=True).click()
    which = p.get_by_role("group", name="Which card")
    which.wait_for()
    return which

def test_a_kept_refusal_goes_once_its_correction_is_logged(browser, tmp_path):
    """Mysterium at 390 x 844: a typo refused, the corrected statement typed over it (the
    refused one kept under the box) and logged: the kept one goes, and the next statement's
    first choices are on the screen."""
    path = tmp_path / "my.txt"
    text = (ROOT / "samples" / "mysterium" / "three-players-lost.txt").read_text(encoding="utf-8")
    path.write_text(text[:text.index("\nhour 2\n") + 1], encoding="utf-8")
    sleuth("log", str(path), "hour 2")
    bad, good = "Ben-1 gueses location 2: wrong", "Ben-1 guesses location 2: wrong"
    with Server(path) as server:
        p = open_page(browser, server.url, 390, 844)
        assert log(p, bad).startswith("refused"), status(p)
        p.get_by_role("button", name="Use: " + good).wait_for()
        box(p).click()
        p.keyboard.press("Control+A")
        p.keyboard.type(good)
        p.get_by_role("button", name="Back in the box: " + bad).wait_for()
        p.get_by_role("button", name="Log", exact=True).click()
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('logged')", timeout=20_000)
        idle(p)
        assert re.match(r"logged line \d+: " + re.escape(good) + "$", status(p)), status(p)
        assert p.get_by_role("button", name="Back in the box: " + bad).count() == 0
        assert p.get_by_role("button", name="Drop it: " + bad).count() == 0
        assert in_sight(p, p.get_by_role("group", name="Who acts"))
        p.screenshot(path=str(tmp_path / "kept-390.png"))


def test_a_kept_refusal_leaves_the_next_choices_in_sight_and_is_no_alert(browser, tmp_path):
    """Hand at 360 x 740: ``Cleo draw`` refused, typed over by ``Cleo takes 3S`` (refused
    too), the box cleared, ``Cleo``, ``takes``: ``Which card`` is on the screen, the kept
    statement under the box a note cut to two lines (not an alert), said once in the
    announcements."""
    path = tmp_path / "hand.txt"
    shutil.copy(ROOT / "samples" / "hand" / "round-midway-ana.txt", path)
    with Server(path) as server:
        p = open_page(browser, server.url, 360, 740)
        assert log(p, "Cleo draw").startswith("refused"), status(p)
        assert log(p, "Cleo takes 3S").startswith("refused"), status(p)
        p.get_by_role("button", name="Back in the box: Cleo draw").wait_for()
        which = cleo_takes(p)
        p.screenshot(path=str(tmp_path / "kept-360.png"))
        assert in_sight(p, which), which.bounding_box()
        assert p.get_by_role("alert").filter(has_text="Not saved: Cleo draw").count() == 0
        note = p.get_by_role("note").filter(has_text="Not saved: Cleo draw")
        assert note.count() == 1
        lines = note.evaluate("n => n.getBoundingClientRect().height"
                              " / parseFloat(getComputedStyle(n).lineHeight)")
        assert lines <= 2.05, lines
        said = p.get_by_role("log", name="Announcements").inner_text()
        assert said.count("Not saved: Cleo draw") == 1, said
        p.screenshot(path=str(tmp_path / "kept-360.png"))


def test_the_status_cut_to_two_lines_shows_whole_lines(browser, tmp_path):
    """Hand at 360 x 740: a long refusal, the box cleared and the next statement begun by
    taps: the status shows two whole lines (none cut through), ``Show the whole refusal``
    beside them."""
    path = tmp_path / "hand.txt"
    shutil.copy(ROOT / "samples" / "hand" / "round-midway-ana.txt", path)
    with Server(path) as server:
        p = open_page(browser, server.url, 360, 740)
        assert log(p, "Ana draws 7C").startswith("logged"), status(p)
        assert log(p, "Ana discards 9H").startswith("logged"), status(p)
        assert log(p, "Cleo draw").startswith("refused"), status(p)
        cleo_takes(p)
        more = p.get_by_role("button", name="Show the whole refusal")
        more.wait_for()
        shown = p.get_by_role("status").first.evaluate(
            "s => { const c = getComputedStyle(s); return (s.clientHeight"
            " - parseFloat(c.paddingTop) - parseFloat(c.paddingBottom))"
            " / parseFloat(c.lineHeight); }")
        assert abs(shown - round(shown)) < 0.05 and round(shown) == 2, shown
        assert in_sight(p, p.get_by_role("group", name="Which card"))
        p.screenshot(path=str(tmp_path / "status-360.png"))
        more.click()
        assert p.get_by_role("status").first.evaluate("s => s.scrollHeight <= s.clientHeight + 1")


def test_clue_groups_keep_their_names_whatever_the_order_of_the_taps(browser, tmp_path):
    path = tmp_path / "clue.txt"
    shutil.copy(ROOT / "samples" / "clue" / "three-players.txt", path)
    with Server(path) as server:
        p = open_page(browser, server.url, 390, 844)

        def tap(group: str, name: str) -> None:
            p.get_by_role("group", name=group, exact=True).get_by_role(
                "button", name=name, exact=True).click()

        tap("Who acts", "Ben")
        p.get_by_role("group", name="Suggests: suspect", exact=True).wait_for()
        tap("Or", "suggests")
        suspects = p.get_by_role("group", name="Suggests: suspect", exact=True)
        suspects.wait_for()
        assert p.get_by_role("group", name="Suspect", exact=True).count() == 0
        p.get_by_role("button", name="Clear the statement").click()
        tap("Who acts", "Ana")
        tap("Or", "accuses")
        accused = p.get_by_role("group", name="Accuses: suspect", exact=True)
        accused.wait_for()
        accused.get_by_role("button").first.click()
        p.get_by_role("group", name="Weapon", exact=True).get_by_role("button").first.click()
        p.get_by_role("group", name="Room", exact=True).get_by_role("button").first.click()
        p.get_by_role("group", name="Answer", exact=True).get_by_role(
            "button", name="wrong", exact=True).wait_for()


def test_a_page_whose_token_is_gone_says_to_open_the_new_address(browser, tmp_path):
    """A page opened with ``?token=`` (``--host 0.0.0.0``) whose server was started again
    (its polls refused: 403, the token is not the new server's): the alert says at once that
    the page can log nothing more and must be opened from the new address, not ``connected to
    the server again``."""
    path = tmp_path / "clue.txt"
    shutil.copy(ROOT / "samples" / "clue" / "three-players.txt", path)
    with Server(path, "--host", "0.0.0.0") as server:
        port, token = re.match(r"http://[^/]+:(\d+)/\?token=([\w-]+)$", server.url).groups()
        p = open_page(browser, f"http://127.0.0.1:{port}/?token={token}", 360, 740)
        state = {"down": True}

        def version(route):
            if state["down"]:
                route.abort("connectionrefused")
            else:
                route.fulfill(status=403, body="refused: the URL's token is missing or wrong")

        p.route(re.compile(r"/version$"), version)
        p.get_by_role("alert").filter(has_text="No connection").wait_for()
        state["down"] = False
        gone = p.get_by_role("alert").filter(has_text="started again with a new address")
        gone.wait_for()
        assert "Open the address it printed now" in gone.inner_text()
        p.wait_for_timeout(1500)             # polls answered meanwhile: still said
        assert gone.is_visible()
        assert "connected to the server again" not in status(p), status(p)
