"""``sleuth serve``: each page's status is the result of its own last action.  Without
JavaScript every page showed the server's last status, whichever device caused it (a
refusal another phone got, another device's ``logged line 42: ...``); the redirect after a
form post now carries an id of its own result, and a plain ``GET /`` shows no other
device's status.  A kept note is named by its text (``Not saved: <statement>
(<refusal>)``), opens whole, says when the record gained its statement elsewhere, and
three of them fold to one row; the status ``started again with a new address`` is cut
like a refusal, with ``Show the whole refusal``; ``What if`` on an ``edit N ...`` says it
takes a statement."""
from __future__ import annotations

import re
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from tests.serve_harness import ROOT, Server, sleuth  # noqa: E402
from tests.test_serve_app import TOKEN, client, do, version_of  # noqa: E402
from tests.test_serve_kept_browser import cleo_takes  # noqa: E402

HAND = ROOT / "samples" / "hand" / "round-midway-ana.txt"


def status_of(html: str) -> str:
    got = re.search(r'<div id="status" role="status"[^>]*>([^<]*)</div>', html)
    assert got is not None
    return got.group(1)


def form(c, line: str, cmd: str = "log"):
    version = re.search(r'id="form-version" value="([^"]*)"', c.get("/").text).group(1)
    return c.post("/do", data={"token": TOKEN, "line": line, "cmd": cmd, "version": version})


def test_a_page_without_the_script_shows_its_own_status_not_another_devices(tmp_path):
    path = tmp_path / "hand.txt"
    shutil.copy(HAND, path)
    a, b = client(path), client(path)
    r = form(a, "Cleo dscards 5S")
    assert status_of(r.text).startswith("refused: "), status_of(r.text)
    assert status_of(b.get("/").text) == ""             # B sent nothing
    r = form(a, "Ana draws 7C")
    assert r.status_code == 200 and "?done=" in str(r.url)
    assert status_of(r.text).startswith("logged line "), status_of(r.text)
    assert status_of(a.get(str(r.url)).text).startswith("logged line ")   # a reload of it
    assert status_of(b.get("/").text) == ""
    assert status_of(b.get("/?done=made-up").text) == ""
    # a change by the script's page (JSON) is not shown on another page either
    assert do(b, "Ana discards 9H", version_of(path)).json()["saved"]
    assert status_of(a.get("/").text) == ""


def test_two_phones_without_the_script_see_their_own_status(browser, tmp_path):
    path = tmp_path / "hand.txt"
    shutil.copy(HAND, path)
    with Server(path) as server:
        a = browser.new_context(java_script_enabled=False).new_page()
        a.goto(server.url)
        a.get_by_role("textbox", name="Statement").fill("Cleo dscards 5S")
        a.get_by_role("button", name="Log", exact=True).click()
        assert a.get_by_role("status").inner_text().startswith("refused: ")
        b = browser.new_context(java_script_enabled=False).new_page()
        b.goto(server.url)
        assert b.get_by_role("status").inner_text().strip() == ""
        b.get_by_role("textbox", name="Statement").fill("Ana draws 7C")
        b.get_by_role("button", name="Log", exact=True).click()
        assert b.get_by_role("status").inner_text().startswith("logged line ")
        sleuth("log", str(path), "Ana discards 9H")
        a.goto(server.url)
        assert a.get_by_role("status").inner_text().strip() == ""


def test_what_if_on_an_edit_says_it_takes_a_statement(tmp_path):
    path = tmp_path / "hand.txt"
    shutil.copy(HAND, path)
    c = client(path)
    d = do(c, "whatif edit 3 Ana draws 7C").json()
    assert d["kind"] == "refused" and not d["saved"]
    assert d["status"].startswith("what if refused: What if takes a statement, not an edit "
                                  "command ('edit 3 Ana draws 7C')"), d["status"]
    assert "expected a Hand statement" not in d["status"]
    r = form(c, "edit 3 Ana draws 7C", "whatif")         # without the script: the same
    assert "What if takes a statement, not an edit command" in status_of(r.text)
    assert do(c, "whatif Ana draws 7C").json()["kind"] == "whatif"


def phone_page(browser, url: str):
    from tests.test_serve_kept_browser import open_page

    return open_page(browser, url, 360, 740)


def type_over(p, text: str) -> None:
    from tests.test_serve_writers_browser import box

    box(p).click()
    p.keyboard.press("Control+A")
    p.keyboard.type(text)


def test_kept_notes_are_named_open_whole_and_fold(browser, tmp_path):
    """Hand at 360 x 740: three statements refused and typed over: each kept note is named
    ``Not saved: <statement> (<refusal>)``; the newest alone shows (``2 more kept``
    unfolds the others), it opens whole, and the next step's choices stay in sight."""
    from tests.test_serve_kept_browser import in_sight, log
    from tests.test_serve_writers_browser import status

    path = tmp_path / "hand.txt"
    shutil.copy(HAND, path)
    with Server(path) as server:
        p = phone_page(browser, server.url)
        for bad, then in (("Cleo draw", "Cleo takes 3S"), ("Cleo takes 3S", "Ben draw"),
                          ("Ben draw", "Ana")):
            if bad == "Cleo draw":
                assert log(p, bad).startswith("refused"), status(p)
            else:
                assert status(p).startswith("refused") or log(p, bad).startswith("refused")
            type_over(p, then)
            p.get_by_role("button", name="Back in the box: " + bad).wait_for()
            if then != "Ana":
                assert log(p, then).startswith("refused"), status(p)
        newest = p.get_by_role("note", name="Not saved: Ben draw (refused: ")
        assert newest.is_visible()
        assert p.get_by_role("note").count() == 1          # the older two folded
        more = p.get_by_role("button", name="2 more kept")
        assert more.is_visible() and more.get_attribute("aria-expanded") == "false"
        which = cleo_takes(p)
        p.screenshot(path=str(tmp_path / "kept-three-360.png"))
        assert in_sight(p, which), which.bounding_box()
        whole = p.get_by_role("button", name="Show the whole note: Ben draw")
        assert whole.is_visible() and whole.get_attribute("aria-expanded") == "false"
        cut = newest.evaluate("n => n.scrollHeight > n.clientHeight + 1")
        assert cut
        whole.click()
        assert whole.get_attribute("aria-expanded") == "true"
        assert newest.evaluate("n => n.scrollHeight <= n.clientHeight + 1")
        p.screenshot(path=str(tmp_path / "kept-whole-360.png"))
        more.click()
        fold = p.get_by_role("button", name="Fold the older kept")
        assert fold.get_attribute("aria-expanded") == "true"
        for bad in ("Cleo draw", "Cleo takes 3S", "Ben draw"):
            assert p.get_by_role("note", name=f"Not saved: {bad} (refused: ").count() == 1
        assert p.get_by_role("note", name="Not saved: Cleo draw (refused: ").is_visible()
        assert p.get_by_role("button", name="Back in the box: Cleo draw").is_visible()


def test_a_kept_note_says_when_the_record_gained_its_statement(browser, tmp_path):
    """A statement put aside for an Edit (kept, ``Not logged yet: ...``), then logged by
    ``sleuth log``: the note says ``Now line N (logged elsewhere)``, no longer ``Not``."""
    from tests.test_serve_writers_browser import box

    path = tmp_path / "hand.txt"
    shutil.copy(HAND, path)
    with Server(path) as server:
        p = phone_page(browser, server.url)
        box(p).fill("Ana draws 7C")
        p.get_by_role("region", name="Lines").get_by_role("button", name="Edit").first.click()
        note = p.get_by_role("note", name="Not logged yet: Ana draws 7C (")
        note.wait_for()
        sleuth("log", str(path), "Ana draws 7C")
        n = path.read_text().splitlines().index("Ana draws 7C") + 1
        done = p.get_by_role("note", name=re.compile(r"^Now line \d+ \(logged elsewhere\): "
                                                     r"Ana draws 7C"))
        done.wait_for(timeout=30_000)
        assert "Not logged yet" not in done.inner_text()
        line = int(re.search(r"Now line (\d+)", done.inner_text()).group(1))
        assert line == n
        p.reload()
        p.get_by_role("note", name=re.compile(r"^Now line \d+ \(logged elsewhere\)")).wait_for()


def test_the_new_address_status_is_cut_with_its_button(browser, tmp_path):
    """A Log refused with 403 (the server started again with a new token): the status is
    cut to two lines with an ellipsis and ``Show the whole refusal``, not scrolled inside."""
    from tests.test_serve_writers_browser import box

    path = tmp_path / "hand.txt"
    shutil.copy(HAND, path)
    with Server(path) as server:
        p = phone_page(browser, server.url)
        p.route(re.compile(r"/do(\?|$)"), lambda route: route.fulfill(
            status=403, body="refused: the URL's token is missing or wrong"))
        box(p).fill("Ana draws 7C")
        p.get_by_role("button", name="Log", exact=True).click()
        st = p.get_by_role("status").first
        p.wait_for_function("() => document.getElementById('status').textContent"
                            ".includes('started again with a new address')")
        more = p.get_by_role("button", name="Show the whole refusal")
        more.wait_for()
        p.screenshot(path=str(tmp_path / "address-360.png"))
        assert st.evaluate("s => getComputedStyle(s).overflowY") == "hidden"
        assert st.evaluate("s => getComputedStyle(s).webkitLineClamp") == "2"
        more.click()
        assert st.evaluate("s => s.scrollHeight <= s.clientHeight + 1")
        assert "your statement stays in the box" in st.inner_text()
