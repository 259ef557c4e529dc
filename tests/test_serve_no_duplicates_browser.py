"""``sleuth serve`` on a phone (Debian's Chromium under Playwright, 360 x 640): a Log saved
whose answer was lost, then the server stopped and started again -- its memory of the
changes' ids (web/app.py Sent) is empty. The page offered the statement as not saved (a
"Not sent" copy under the box, or "not saved ... log it" with it in the box) and a Log
saved it a second time. Now the record's last lines are the evidence: one saying that
statement, added since the version it was first sent on, is its save, said as such; and a
Log of it sent again with its id is answered "logged before" by the server (``sent_on``)."""
from __future__ import annotations

from contextlib import contextmanager



from tests.serve_harness import Server
from tests.test_serve_reconnect_browser import (LINE, NEXT, hold_poll, log, log_next_unpolled,
                                                lose_next_answer, lost_then_typed_over,
                                                wait_status)
from tests.test_serve_writers_browser import PHONE, box, idle, served, status


def restart(p, server: Server, path, release=None) -> Server:
    """Ctrl-C, then ``sleuth serve`` on the same port again; the page sees the connection
    go and come back (its polls held till then: ``release``d once the server is down)."""
    port = server.port
    server.stop()
    if release is not None:
        release()
    p.get_by_role("alert").filter(has_text="No connection").wait_for()
    again = Server(path, "--port", str(port))
    p.get_by_role("alert").filter(has_text="No connection").wait_for(state="hidden")
    return again


def test_a_not_sent_copy_the_record_has_goes_after_a_server_restart(browser, tmp_path):
    """Saved, its answer lost (the page's polls held: not asked yet), typed over by the next
    statement (saved): its "Not sent" copy stays under the box. The server started again
    does not know its id; the record's line 37, added since it was sent, does: the copy
    goes, the status says its line, and nothing offers it to be logged again."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, server, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        back, release = lost_then_typed_over(p)
        p.get_by_role("button", name="Clear the statement").click()
        log_next_unpolled(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, NEXT]
        with restart(p, server, path, release):
            said = wait_status(p, "logged earlier")
            assert said == "logged earlier, its answer lost: line 37: turn: Ana", said
            back.wait_for(state="detached")
            idle(p)
            assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, NEXT]
            # the same text later, a new statement: saved again
            p.wait_for_timeout(500)
            assert log(p, LINE).startswith("logged line 39: turn: Ana"), status(p)
            assert path.read_text(encoding="utf-8").splitlines() == before + [
                LINE, NEXT, LINE]


def test_a_log_retried_while_the_server_was_down_is_saved_once_after_its_restart(
        browser, tmp_path):
    """Saved, its answer lost (the page's polls held: not asked yet); the server stops, Log
    is tapped again meanwhile (no answer), the server starts again: the page says it was
    logged, not "not saved ... log it", and a Log of the same change is answered as
    logged before, not saved twice."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, server, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        release = hold_poll(p)
        lose_next_answer(p)
        assert log(p, LINE).startswith("no answer from the server"), status(p)
        assert box(p).input_value() == LINE
        port = server.port
        server.stop()
        release()
        p.get_by_role("alert").filter(has_text="No connection").wait_for()
        p.get_by_role("button", name="Log", exact=True).click()     # retried: no answer
        p.wait_for_function("() => !document.getElementById('status').textContent"
                            ".startsWith('checking')")
        with Server(path, "--port", str(port)):
            p.get_by_role("alert").filter(has_text="No connection").wait_for(state="hidden")
            said = wait_status(p, "logged when the connection went")
            assert said == "logged when the connection went: line 37: turn: Ana", said
            assert box(p).input_value() == ""
            idle(p)
            assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]


def test_a_change_sent_again_with_its_id_after_an_unseen_restart_is_not_saved_twice(
        browser, tmp_path):
    """Saved, its answer lost; the server is started again between two of the page's polls
    (it never sees the connection go); Log tapped again sends the change with its id and
    the version it was first sent on: answered as logged before, the record unchanged."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, server, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        release = hold_poll(p)              # the poll waits on its request
        lose_next_answer(p)
        assert log(p, LINE).startswith("no answer from the server"), status(p)
        port = server.port
        server.stop()
        with Server(path, "--port", str(port)):
            assert p.get_by_role("alert").filter(has_text="No connection").is_hidden()
            p.evaluate("document.getElementById('status').textContent = ''")
            p.get_by_role("button", name="Log", exact=True).click()
            said = wait_status(p, "logged")
            assert said.startswith("logged before"), said
            assert said.endswith("line 37: turn: Ana"), said
            release()
            idle(p)
            assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]


LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")
CLAIM = "Ana claims 2H-7H: Ana 2H 3H 4H 5H 6H 7H"     # wrong (Ana lacks 5H): held


@contextmanager
def literature(browser, tmp_path):
    path = tmp_path / "record.txt"
    path.write_text(LIT, encoding="utf-8")
    with Server(path) as server:
        context = browser.new_context(**PHONE)
        try:
            p = context.new_page()
            p.set_default_timeout(120_000)
            p.goto(server.url)
            box(p).wait_for()
            idle(p)
            yield path, server, p
        finally:
            context.close()


def held_claim_lost(p, server, path):
    """The claim logged (held: its '# held:' line 5), its answer lost, the page's polls
    held, the server stopped."""
    release = hold_poll(p)
    lose_next_answer(p)
    assert log(p, CLAIM).startswith("no answer from the server"), status(p)
    assert path.read_text(encoding="utf-8").splitlines()[-1] == "# held: " + CLAIM
    port = server.port
    server.stop()
    return release, port


def test_a_held_claim_whose_answer_was_lost_is_said_held_after_a_server_restart(
        browser, tmp_path):
    """A wrong Literature claim, held by its '# held:' line, its answer lost; the server
    started again does not know its id: the record's held line is its save, said "held",
    not "not saved ... log it"."""
    with literature(browser, tmp_path) as (path, server, p):
        release, port = held_claim_lost(p, server, path)
        release()
        p.get_by_role("alert").filter(has_text="No connection").wait_for()
        with Server(path, "--port", str(port)):
            said = wait_status(p, "held when")
            assert said == "held when the connection went: line 5: " + CLAIM, said
            assert box(p).input_value() == ""
            idle(p)
            assert path.read_text(encoding="utf-8") == LIT + "# held: " + CLAIM + "\n"


def test_a_held_claim_sent_again_after_an_unseen_restart_is_not_held_twice(browser, tmp_path):
    """The same, the page not seeing the restart: Log tapped again sends the claim with its
    id and first version; the server takes the '# held:' line as its save (sent_on)."""
    with literature(browser, tmp_path) as (path, server, p):
        release, port = held_claim_lost(p, server, path)
        with Server(path, "--port", str(port)):
            p.evaluate("document.getElementById('status').textContent = ''")
            p.get_by_role("button", name="Log", exact=True).click()
            said = wait_status(p, "held")
            assert said.startswith("held before"), said
            assert said.endswith("line 5: " + CLAIM), said
            release()
            idle(p)
            assert path.read_text(encoding="utf-8") == LIT + "# held: " + CLAIM + "\n"
