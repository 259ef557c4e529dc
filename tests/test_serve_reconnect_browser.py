"""``sleuth serve`` on a phone (Debian's Chromium under Playwright, 360 x 640): a Log whose
answer was lost as the connection went, the connection back without a reload. The page
said "the statement in the box is not saved yet; log it" whether or not the server had
saved it, and the change's id stayed: the same text logged later as a new statement was
answered "logged before" and dropped. Now the page asks the server what became of it and
says so (saved: its line, the box emptied; never received: not saved, in the box), and the
id goes once its fate is known -- also after a reload, for an id left by an earlier Log."""
from __future__ import annotations

import re


# the browser, the phone's Log and the page's parts, as the reload tests have them
from tests.test_serve_reload_offline_browser import hold_poll, log
from tests.test_serve_writers_browser import box, idle, served, status

LINE = "turn: Ana"          # a statement the record takes twice in a row
NEXT = "Ana asks Ben 5D-8D: 0"


def wait_status(p, start: str) -> str:
    p.wait_for_function("s => document.getElementById('status').textContent.startsWith(s)",
                        arg=start)
    return status(p)


def lose_next_answer(p) -> None:
    """The next Log reaches the server, which saves it; its answer is lost."""
    cut: list = []

    def do(route):
        if not cut and route.request.method == "POST":
            cut.append(route.fetch())
            route.abort("connectionreset")
        else:
            route.continue_()

    p.route(re.compile(r"/do$"), do)


def lost_then_typed_over(p):
    """The page's polls held (it does not ask yet), LINE logged and its answer lost, then
    NEXT typed over it: the "Back in the box" button of LINE's copy kept under the box, and
    the function that lets the polls go again."""
    release = hold_poll(p)
    lose_next_answer(p)
    said = log(p, LINE)
    assert said.startswith("no answer from the server"), said
    box(p).click()
    p.keyboard.press("Control+A")
    p.keyboard.type(NEXT)
    back = p.get_by_role("button", name="Back in the box: " + LINE)
    back.wait_for()
    return back, release


def log_next_unpolled(p) -> None:
    """NEXT logged by a page whose polls are held (hold_poll): refused as the record moved
    on (line 37 saved, its answer lost), the page shows the record then; logged again,
    saved as line 38."""
    said = log(p, NEXT)
    assert said.startswith("refused: not saved: the record changed"), said
    idle(p)
    p.wait_for_function("() => document.querySelector('#live li[data-line=\"37\"]')")
    assert log(p, NEXT).startswith("logged line 38: " + NEXT), status(p)
    idle(p)


def cut_connection(p, reach_server: bool) -> list:
    """The next Log's answer (that one only) lost as the connection goes (the server does it first when
    ``reach_server``, else never gets it); the poll finds no server from then on until the
    list returned is emptied."""
    down: list = []
    cut: list = []

    def do(route):
        if cut or route.request.method != "POST":
            route.continue_()
            return
        if reach_server:
            route.fetch()                   # the server does it ...
        cut.append(1)
        down.append(1)
        route.abort("connectionreset")      # ... its answer is lost

    def version(route):
        if down:
            route.abort("connectionrefused")
        else:
            route.continue_()

    p.route(re.compile(r"/do$"), do)
    p.route(re.compile(r"/version$"), version)
    return down


def offline_then_back(p, down: list) -> None:
    p.get_by_role("alert").filter(has_text="No connection").wait_for()
    down.clear()
    p.get_by_role("alert").filter(has_text="No connection").wait_for(state="hidden")


def test_a_log_saved_as_the_connection_went_is_said_saved_when_it_is_back(browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        down = cut_connection(p, reach_server=True)
        said = log(p, LINE)
        assert said.startswith("no answer from the server"), said
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]
        offline_then_back(p, down)
        said = wait_status(p, "logged when the connection went")
        assert said == "logged when the connection went: line 37: turn: Ana", said
        assert box(p).input_value() == ""
        idle(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]
        # the same text later, a new statement: saved again, not "logged before"
        p.wait_for_timeout(500)
        said = log(p, LINE)
        assert said.startswith("logged line 38: turn: Ana"), said
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, LINE]


def test_a_log_the_server_never_got_is_said_not_saved_when_the_connection_is_back(
        browser, tmp_path):
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        down = cut_connection(p, reach_server=False)
        said = log(p, LINE)
        assert said.startswith("no answer from the server"), said
        offline_then_back(p, down)
        said = wait_status(p, "not saved when the connection went")
        assert said == ("not saved when the connection went (the server does not know it: not in the "
                        "record): "
                        "turn: Ana; it is in the box: log it"), said
        assert box(p).input_value() == LINE
        idle(p)
        assert path.read_text(encoding="utf-8").splitlines() == before
        p.wait_for_timeout(500)
        assert log(p, LINE).startswith("logged line 37"), status(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]


def test_an_earlier_logs_id_is_dropped_after_a_reload_once_its_fate_is_known(
        browser, tmp_path):
    """A Log saved but its answer lost (the page's polls held: it did not ask yet), its
    statement then typed over by the next one, which is saved: after a reload the page asks
    about the first; its copy kept under the box goes, and the same text logged later is a
    new statement."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        _, release = lost_then_typed_over(p)
        p.get_by_role("button", name="Clear the statement").click()
        log_next_unpolled(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, NEXT]
        p.wait_for_timeout(1500)      # its answer not one the reload cut (sentBefore's late)
        p.reload()
        box(p).wait_for()
        said = wait_status(p, "logged earlier")
        assert said == "logged earlier, its answer lost: line 37: turn: Ana", said
        p.get_by_role("button", name="Back in the box: " + LINE).wait_for(state="detached")
        release()
        idle(p)
        p.wait_for_timeout(500)
        said = log(p, LINE)
        assert said.startswith("logged line 39: turn: Ana"), said
        assert path.read_text(encoding="utf-8").splitlines() == before + [
            LINE, NEXT, LINE]


def test_a_log_whose_answer_was_lost_is_asked_about_at_the_next_poll(browser, tmp_path):
    """A Log saved, its answer lost, the connection never gone (the poll answers): the page
    asks the server at once what became of it -- saved: its line said, the box emptied, its
    id dropped (the same text typed later is a new statement, saved)."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        lose_next_answer(p)
        box(p).fill(LINE)
        p.get_by_role("button", name="Log", exact=True).click()
        said = wait_status(p, "logged when its answer was lost")
        assert said == "logged when its answer was lost: line 37: turn: Ana", said
        assert box(p).input_value() == ""
        idle(p)
        assert log(p, NEXT).startswith("logged line 38: " + NEXT), status(p)
        p.wait_for_timeout(500)
        assert log(p, LINE).startswith("logged line 39: turn: Ana"), status(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, NEXT, LINE]


def test_a_not_sent_copy_goes_at_the_next_poll_once_the_record_has_it(browser, tmp_path):
    """Its answer lost, the statement typed over before the page asked: its "Not sent" copy
    goes when the poll answers (the record has it), the status saying its line."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        back, release = lost_then_typed_over(p)
        release()
        back.wait_for(state="detached")
        assert "line 37: turn: Ana" in status(p), status(p)
        assert box(p).input_value() == NEXT


def test_the_same_text_typed_anew_after_a_lost_answer_is_a_new_statement(browser, tmp_path):
    """Its answer lost (the page not told yet: its polls held), the box typed over and the
    next statement logged; the same text typed again is a new statement: saved, not
    answered "logged before" under the first one's id (a statement lost)."""
    with served(browser, tmp_path, "mystery-hand/five-players-ana.txt") as (path, _, (p,)):
        before = path.read_text(encoding="utf-8").splitlines()
        _, release = lost_then_typed_over(p)
        log_next_unpolled(p)
        p.wait_for_timeout(500)
        box(p).click()
        p.keyboard.type(LINE)
        p.evaluate("document.getElementById('status').textContent = ''")
        p.get_by_role("button", name="Log", exact=True).click()
        said = wait_status(p, "logged")
        assert said.startswith("logged line 39: turn: Ana"), said
        release()
        idle(p)
        assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, NEXT, LINE]
