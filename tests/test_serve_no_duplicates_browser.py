"""``sleuth serve`` on a phone (Debian's Chromium under Playwright, 360 x 640): a Log saved
whose answer was lost, then the server stopped and started again -- its memory of the
changes' ids (web/app.py Sent) is empty. The page offered the statement as not saved (a
"Not sent" copy under the box, or "not saved ... log it" with it in the box) and a Log
saved it a second time. Now the record's last lines are the evidence: one saying that
statement, added since the version it was first sent on, is its save, said as such; and a
Log of it sent again with its id is answered "logged before" by the server (``sent_on``)."""
from __future__ import annotations

import re


from tests.serve_harness import Server
from tests.test_serve_reconnect_browser import LINE, NEXT, log, lose_next_answer, wait_status
from tests.test_serve_writers_browser import box, idle, served, status


def restart(p, server: Server, path) -> Server:
    """Ctrl-C, then ``sleuth serve`` on the same port again; the page sees the connection
    go and come back."""
    port = server.port
    server.stop()
    p.get_by_role("alert").filter(has_text="No connection").wait_for()
    again = Server(path, "--port", str(port))
    p.get_by_role("alert").filter(has_text="No connection").wait_for(state="hidden")
    return again


def test_a_not_sent_copy_the_record_has_goes_after_a_server_restart(browser, tmp_path):
    """Saved, its answer lost, typed over by the next statement (saved): its "Not sent" copy
    stays under the box. The server started again does not know its id; the record's line
    37, added since it was sent, does: the copy goes, the status says its line, and nothing
    offers it to be logged again."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, server, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        lose_next_answer(p)
        assert log(p, LINE).startswith("no answer from the server"), status(p)
        box(p).click()
        p.keyboard.press("Control+A")
        p.keyboard.type(NEXT)
        back = p.get_by_role("button", name="Back in the box: " + LINE)
        back.wait_for()
        p.wait_for_function("() => document.querySelector('#live li[data-line=\"37\"]')")
        p.get_by_role("button", name="Clear the statement").click()
        assert log(p, NEXT).startswith("logged line 38: " + NEXT), status(p)
        idle(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, NEXT]
        with restart(p, server, path):
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
    """Saved, its answer lost; the page shows the record with it (line 37); the server
    stops, Log is tapped again meanwhile (no answer), the server starts again: the page
    says it was logged, not "not saved ... log it", and a Log of the same change is
    answered as logged before, not saved twice."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, server, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        lose_next_answer(p)
        assert log(p, LINE).startswith("no answer from the server"), status(p)
        p.wait_for_function("() => document.querySelector('#live li[data-line=\"37\"]')")
        assert box(p).input_value() == LINE
        port = server.port
        server.stop()
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
        lose_next_answer(p)
        assert log(p, LINE).startswith("no answer from the server"), status(p)
        p.wait_for_function("() => document.querySelector('#live li[data-line=\"37\"]')")
        held: list = []
        p.route(re.compile(r"/version$"), lambda route: held.append(route))
        p.wait_for_timeout(1500)                 # the poll waits on its request
        port = server.port
        server.stop()
        with Server(path, "--port", str(port)):
            for route in held:
                route.continue_()
            p.unroute(re.compile(r"/version$"))
            assert p.get_by_role("alert").filter(has_text="No connection").is_hidden()
            p.evaluate("document.getElementById('status').textContent = ''")
            p.get_by_role("button", name="Log", exact=True).click()
            said = wait_status(p, "logged")
            assert said.startswith("logged before"), said
            assert said.endswith("line 37: turn: Ana"), said
            idle(p)
            assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]
