"""What an audit still found around "nothing typed is lost" (docs/reliability.md), each test
failing without its fix:

* piped ``play`` read a line of any length whole: a 200 MB line took 1.2 GB and seconds,
  and was refused as "the record is too long", quoting nothing of it;
* ``serve`` kept a held claim (a Literature claim waiting for its ``shown`` line) only in
  its shared session: no other device saw it, and stopping the server lost it (it is now
  a ``# held:`` line in the file from the moment it is typed, as ``log`` keeps it);
* the page's entry form, posted without JavaScript, sent no version: a post made on a page
  showing an old record was acted on without the stale check.
"""
from __future__ import annotations

import html
import io
import json
import re
import signal
import urllib.request

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.records import MAX_LINE_CHARS
from solver.session import HELD_MARK
from tests.test_lost_audit import ended, started
from tests.test_play_audit import LIT_HELD, WRONG_CLAIM
from tests.serve_harness import Server, chromium
from tests.test_serve_app import TOKEN, client, do, version_of
from tests.test_serve_audit import log, phone
from tests.test_writers import HEADER, turn_lines


# ----- piped play: a line is read within the bound of a statement ----------------------------

class EndlessLine(io.RawIOBase):
    """Standard input holding ``before``, then one line of ``size`` bytes (never built: it is
    served in the pieces asked for), then ``after``.  ``readline`` without a bound, or
    with one over a MiB, fails: it would hold the whole line."""

    def __init__(self, before: bytes, size: int, after: bytes):
        self.parts = [before, b"Ana asks Ben 5*: ", size, b"\n" + after]
        self.asked: list[int] = []

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        got = self.readline(len(b))
        b[:len(got)] = got
        return len(got)

    def readline(self, size: int | None = -1) -> bytes:
        size = -1 if size is None else size
        self.asked.append(size)
        assert 0 <= size <= 1 << 20, f"readline({size}) of a {self.parts} line"
        out = b""
        while self.parts and len(out) < size and not out.endswith(b"\n"):
            part = self.parts[0]
            if isinstance(part, int):       # the long line's 'x's, as many as asked
                n = min(part, size - len(out))
                out += b"x" * n
                if part == n:
                    self.parts.pop(0)
                else:
                    self.parts[0] = part - n
                continue
            cut = part.find(b"\n", 0, size - len(out))
            n = size - len(out) if cut < 0 else cut + 1
            out += part[:n]
            self.parts[0] = part[n:]
            if not self.parts[0]:
                self.parts.pop(0)
        return out


@pytest.mark.parametrize("as_json", [False, True])
def test_a_huge_piped_line_is_refused_without_being_read_whole(tmp_path, as_json):
    """300 MB on one line (over the documented 256 MB bound on its own): refused by its
    line of the input, quoting its start; the lines before and after it are saved."""
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    stdin = EndlessLine(b"turn: Ben\n", 300 << 20, b"turn: Cleo\n")
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"]
                           + (["--json"] if as_json else []), input=stdin)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2, r.output[-2000:]
    assert max(stdin.asked) <= 1 << 20 and not stdin.parts     # bounded reads, to the end
    assert turn_lines(path) == ["turn: Ben", "turn: Cleo"]
    said = (f"<stdin>:2: the line is too long ({(300 << 20) + 18:,} bytes; a line is at most "
            f"{MAX_LINE_CHARS:,} characters), so it was not read: 'Ana asks Ben 5*: xxx")
    assert said in r.output
    assert len(r.output) < 20_000           # the line is neither echoed nor quoted whole


def test_a_long_piped_line_is_refused_by_its_line_of_the_input(tmp_path):
    """Read from a real stream (a blank line counts: it is the input's line 3)."""
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    long = "Ana asks Ben 5*: " + "é" * 60_000
    r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"],
                           input=f"turn: Ben\n\n{long}\nturn: Cleo\n".encode())
    assert r.exit_code == 2, r.output[-2000:]
    assert f"<stdin>:3: the line is too long ({len(long.encode()) + 1:,} bytes; a line " \
        f"is at most {MAX_LINE_CHARS:,} characters), so it was not read: " \
        f"'{long[:40]}...'" in r.output
    assert turn_lines(path) == ["turn: Ben", "turn: Cleo"]


# ----- serve: a held claim is every device's, and kept when the server stops -----------------

SHOWN = "shown 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H"


def held_note(page: str) -> str | None:
    """The page's sentence about a held statement, its tags stripped."""
    m = re.search(r'<p class="held-claim">(.*?)</p>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else None


def test_every_device_sees_a_claim_held_on_another(tmp_path):
    """The claim typed on device A was held in the shared session; device B's page showed
    nothing of it (B could not know that the shown line comes next, nor enter it).  It is
    a ``# held:`` line in the file at once: every device's poll sees the new version."""
    path = tmp_path / "lit.txt"
    path.write_text(LIT_HELD)
    c = client(path)
    assert do(c, WRONG_CLAIM, version_of(path)).json()["kind"] == "pending"     # device A
    assert path.read_text() == LIT_HELD + HELD_MARK + WRONG_CLAIM + "\n"
    v = version_of(path)
    # device B: its poll sees the held statement, and the page shows it
    assert c.get("/version").json() == {"version": v, "held": WRONG_CLAIM}
    for url in ("/live?quick=1", "/live", "/"):
        page = c.get(url).text
        assert held_note(page) == (f"Held claim, a comment on line 5 until resolved: "
                                   f"{WRONG_CLAIM}. Log the line that resolves it next (on any "
                                   "device): the two are checked and saved together."), url
        assert f'data-held="{WRONG_CLAIM}"' in page
    # device B logs the shown line: both saved, nothing held any more
    assert do(c, SHOWN, v).json()["kind"] == "accepted"
    assert path.read_text() == LIT_HELD + f"{WRONG_CLAIM}\n{SHOWN}\n"
    assert c.get("/version").json()["held"] == ""
    page = c.get("/live").text
    assert held_note(page) is None and 'data-held=""' in page


def test_an_open_page_shows_a_claim_held_on_another_device(tmp_path):
    """In Chromium: device B's open page shows the claim A typed (its poll saw only the
    version, which a held claim leaves as it is), B logs the shown line, and A's page
    then shows the claim saved and nothing held."""
    path = tmp_path / "lit.txt"
    path.write_text(LIT_HELD)
    with chromium() as browser, Server(path) as server:
        a, b = phone(browser, server.url), phone(browser, server.url)
        a.get_by_role("textbox", name="Statement").fill(WRONG_CLAIM)
        assert log(a).startswith("held: ")
        note = b.locator("#live p.held-claim")
        note.wait_for(timeout=30_000)
        assert WRONG_CLAIM in note.inner_text()
        b.get_by_role("textbox", name="Statement").fill(SHOWN)
        assert log(b).startswith("logged lines 5-6: ")
        a.wait_for_function("() => document.querySelectorAll('#live .lines-list li').length"
                            " === 3 && !document.querySelector('#live p.held-claim')",
                            timeout=30_000)                 # holds, the claim, its shown
    assert path.read_text() == LIT_HELD + f"{WRONG_CLAIM}\n{SHOWN}\n"


def test_a_held_comment_line_shows_on_the_page(tmp_path):
    """A claim kept as a ``# held:`` line (by ``log``, ``serve`` or ``play``) is shown with
    its line, and the poll's ``held`` names it."""
    path = tmp_path / "lit.txt"
    path.write_text(LIT_HELD + HELD_MARK + WRONG_CLAIM + "\n")
    c = client(path)
    assert held_note(c.get("/").text).startswith(
        f"Held claim, a comment on line 5 until resolved: {WRONG_CLAIM}. ")
    assert c.get("/version").json()["held"] == WRONG_CLAIM
    assert do(c, SHOWN, version_of(path)).json()["kind"] == "accepted"
    assert path.read_text() == LIT_HELD + f"{WRONG_CLAIM}\n{SHOWN}\n"


def post(url: str, token: str, line: str, version: str) -> dict:
    req = urllib.request.Request(url + "do", method="POST",
                                 data=json.dumps({"line": line, "version": version}).encode(),
                                 headers={"Content-Type": "application/json",
                                          "X-Sleuth-Token": token})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("sig, code, line", [
    (signal.SIGINT, 130, "sleuth: interrupted; the record is as last saved"),
    (signal.SIGTERM, 143, "sleuth: terminated; the record is as last saved"),
    (signal.SIGHUP, 129, "sleuth: terminated; the record is as last saved")])
def test_serve_keeps_a_held_claim_when_it_stops(tmp_path, sig, code, line):
    """The claim is a ``# held:`` comment line from the moment it is posted (before the
    server stops), which its shown line, logged next (on a page or with ``log``), resolves.
    A SIGHUP (the terminal closed) ends serve as SIGTERM does; it lost the claim."""
    path = tmp_path / "lit.txt"
    path.write_text(LIT_HELD)
    p = started("serve", path, "--port", "0")
    url = p.stdout.readline().decode().strip()
    with urllib.request.urlopen(url, timeout=120) as r:
        tok = re.search(r'name="sleuth-token" content="([^"]*)"', r.read().decode()).group(1)
    assert post(url, tok, WRONG_CLAIM, version_of(path))["kind"] == "pending"
    assert path.read_text() == LIT_HELD + HELD_MARK + WRONG_CLAIM + "\n"
    got, err = ended(p, sig)
    assert got == code and err.splitlines() == [line], (got, err)
    assert path.read_text() == LIT_HELD + HELD_MARK + WRONG_CLAIM + "\n"
    r = CliRunner().invoke(cli, ["log", str(path), SHOWN])
    assert r.exit_code == 0, r.output
    assert path.read_text() == LIT_HELD + f"{WRONG_CLAIM}\n{SHOWN}\n"


# ----- the entry form without JavaScript: a stale post is refused, the text kept -------------

def form_version(page: str) -> str:
    return re.search(r'id="form-version" value="([^"]*)"', page).group(1)


def test_a_stale_form_post_is_refused_and_keeps_the_typed_text(tmp_path):
    """The page rendered the form's version empty, so a post without the script (which
    fills it in) was acted on whatever the record had become since the page showed it."""
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    c = client(path)
    page = c.get("/").text
    shown = form_version(page)
    assert shown == version_of(path)
    assert do(c, "turn: Ben", version_of(path)).json()["saved"]          # another device
    typed = "turn: Cleo"
    r = c.post("/do", data={"token": TOKEN, "version": shown, "line": typed, "cmd": "log"},
               follow_redirects=False)
    assert r.status_code == 409
    assert turn_lines(path) == ["turn: Ben"]
    assert "refused: not saved: the record changed since this page showed it" in \
        html.unescape(r.text)
    assert re.search(r'<textarea id="statement"[^>]*>turn: Cleo</textarea>', r.text)
    # the page now shows the record as it is: posted again from it, the line is saved
    assert form_version(r.text) == version_of(path)
    r = c.post("/do", data={"token": TOKEN, "version": form_version(r.text), "line": typed,
                            "cmd": "log"}, follow_redirects=False)
    assert r.status_code == 303 and turn_lines(path) == ["turn: Ben", "turn: Cleo"]


def test_a_refused_form_post_keeps_the_typed_text(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    c = client(path)
    r = c.post("/do", data={"token": TOKEN, "version": form_version(c.get("/").text),
                            "line": "turn: Bne", "cmd": "log"}, follow_redirects=False)
    assert r.status_code == 200 and path.read_text() == HEADER
    assert re.search(r'<div id="status" role="status"[^>]*\bclass="status refusal">refused: ',
                     r.text)
    assert re.search(r'<textarea id="statement"[^>]*>turn: Bne</textarea>', r.text)


def test_a_stale_post_of_the_page_without_javascript(tmp_path):
    """The same in Chromium with JavaScript off: the form as a browser posts it."""
    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    with chromium() as browser, Server(path) as server:
        page = browser.new_context(java_script_enabled=False).new_page()
        page.goto(server.url)
        tok = page.locator('meta[name="sleuth-token"]').get_attribute("content")
        assert post(server.url, tok, "turn: Ben", version_of(path))["saved"]   # elsewhere
        page.get_by_role("textbox", name="Statement").fill("turn: Cleo")
        page.get_by_role("button", name="Log", exact=True).click()
        assert page.get_by_role("status").inner_text().startswith(
            "refused: not saved: the record changed since this page showed it")
        assert page.get_by_role("textbox", name="Statement").input_value() == "turn: Cleo"
        assert turn_lines(path) == ["turn: Ben"]
        page.get_by_role("button", name="Log", exact=True).click()     # checked: log again
        page.locator(".lines-list li").nth(1).wait_for()
        assert turn_lines(path) == ["turn: Ben", "turn: Cleo"]


def test_serve_stops_on_sighup_as_uvicorn_stops_on_sigterm():
    """Within serve's run, SIGHUP asks the server to stop (no new request, the one being
    checked finished) and reaches the program's own handler only once it has stopped; it
    raised at once in the event loop, whose end then waited for every analysis running."""
    import uvicorn

    from web.server import hangup_server

    got = []
    before = signal.signal(signal.SIGHUP, lambda s, f: got.append(s))
    try:
        server = hangup_server(uvicorn.Config(lambda *a: None))
        with server.capture_signals():
            signal.raise_signal(signal.SIGHUP)
            assert server.should_exit and got == []
        assert got == [signal.SIGHUP]
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_form_post_without_the_script_offers_its_correction(tmp_path):
    """The page without JavaScript: a typo's refusal came with no correction (the JSON
    route gave one); each correction is now a form of its own, 'Use: <statement>', which
    logs it."""
    from tests.test_serve_app import TOKEN, client, version_of

    path = tmp_path / "game.txt"
    path.write_text(HEADER)
    c = client(path)
    r = c.post("/do", data={"token": TOKEN, "version": version_of(path), "cmd": "log",
                            "line": "turn: Bne"})
    assert r.status_code == 200 and "refused" in r.text
    assert 'value="turn: Ben"' in r.text and "Use: turn: Ben</button>" in r.text, r.text
    r = c.post("/do", data={"token": TOKEN, "version": version_of(path), "cmd": "log",
                            "line": "turn: Ben"}, follow_redirects=False)
    assert r.status_code == 303 and turn_lines(path) == ["turn: Ben"]
