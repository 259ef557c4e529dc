"""``sleuth serve`` on a phone (Debian's Chromium under Playwright, touch), driven by role and
accessible name: a half-typed statement kept per record, a late second tap on Log, a change
refused because the record moved on, long names in the sheet's cells, and the tap entry of
the statements that had none (Mysterium's hour, crow and groups, Hand's round)."""
from __future__ import annotations

import socket
from contextlib import contextmanager

import pytest

from tests.serve_harness import PHONE, Server, sleuth
from tests.test_serve_audit import IDLE, log, phone

PLAYERS = ["Ána", "Βήτα", "Ζωή", "Dev"]


def new_record(path, players=PLAYERS, game="mystery-hand"):
    """A new record, a spectator's (no ``me:``: its filler lines such as "Ána: ?" are no
    recorder's own turn), its header as long as a recorder's (a comment for ``me:``)."""
    sleuth("new", game, str(path), "--players", " ".join(players))
    with open(path, "a", encoding="utf-8") as f:
        f.write("# a spectator's record\n")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def statement_box(page):
    return page.get_by_role("textbox", name="Statement")


def test_two_records_of_one_file_name_keep_a_draft_each(browser, tmp_path):
    """The half-typed statement is kept per record, not per page title: two records named
    game.txt (two folders, served in turn on one address, so one browser storage) keep
    their own drafts; a draft kept under the title before is read once, then kept under
    the record's own key."""
    one = new_record((tmp_path / "one").mkdir() or tmp_path / "one" / "game.txt")
    two = new_record((tmp_path / "two").mkdir() or tmp_path / "two" / "game.txt")
    port = str(free_port())
    context = browser.new_context(viewport=PHONE, has_touch=True)

    def open_page(path):
        server = Server(path, "--port", port)
        page = context.new_page()
        page.set_default_timeout(300_000)
        page.goto(server.url)
        page.wait_for_function(IDLE, polling="raf")
        return server, page

    server, page = open_page(one)
    title = page.title()
    statement_box(page).fill("Ána asks Βήτα 2S-5S")
    page.close()
    server.stop()
    server, page = open_page(two)
    assert page.title() == title                        # the same title: the old key
    assert statement_box(page).input_value() == ""      # not the other record's draft
    statement_box(page).fill("Βήτα asks all 6*")
    page.close()
    server.stop()
    server, page = open_page(one)
    assert statement_box(page).input_value() == "Ána asks Βήτα 2S-5S"
    # a draft kept under the title (as before records had a key of their own): read once
    page.evaluate("t => { localStorage.clear();"
                  " localStorage.setItem('sleuth-statement:' + t, 'Ána: ?'); }", title)
    page.reload()
    page.wait_for_function(IDLE, polling="raf")
    assert statement_box(page).input_value() == "Ána: ?"
    kept = page.evaluate("() => Object.entries(localStorage)")
    assert kept == [[kept[0][0], "Ána: ?"]] and title not in kept[0][0], kept
    page.close()
    server.stop()
    server, page = open_page(two)
    assert statement_box(page).input_value() == ""      # moved to one record, not both
    server.stop()
    context.close()


def test_a_late_second_tap_on_log_keeps_the_confirmation(browser, tmp_path):
    """Log tapped again after the first tap was answered (the box is empty then): the
    status still says what was logged (with a note that nothing more was), not "nothing to
    log" in its place; nothing more is written."""
    path = new_record(tmp_path / "game.txt")
    with Server(path) as server:
        page = phone(browser, server.url)
        statement_box(page).fill("Ána: ?")
        said = log(page)
        assert said.startswith("logged line") and said.endswith("Ána: ?"), said
        lines = path.read_text(encoding="utf-8")
        for _ in range(2):
            page.get_by_role("button", name="Log", exact=True).click()
            page.wait_for_timeout(500)          # an answer, had the tap been sent, has come
            page.wait_for_function(IDLE, polling="raf")
            now = page.get_by_role("status").inner_text()
            assert now.startswith(said) and "nothing more to log" in now, now
            assert now.count("nothing more") == 1, now
        assert path.read_text(encoding="utf-8") == lines
        # with nothing logged from this page, an empty box is said plainly
        page.reload()
        page.wait_for_function(IDLE, polling="raf")
        page.get_by_role("button", name="Log", exact=True).click()
        page.wait_for_function("() => document.getElementById('status').textContent !== ''")
        assert page.get_by_role("status").inner_text().startswith("nothing to log")


@pytest.mark.parametrize("action", ["statement", "fix", "undo"])
def test_a_change_on_a_record_changed_elsewhere_is_explained_and_kept(browser, tmp_path,
                                                                     action):
    """A change sent on a version the record has moved on from (another writer saved
    meanwhile, before the page's poll saw it): the page says what happened and what it did
    (it shows the record as it is now; the statement is still in the box), never "reload
    and try again"; it has refreshed (the other writer's line is listed), and the statement
    kept is logged with one more tap."""
    path = new_record(tmp_path / "game.txt")
    with Server(path) as server:
        page = phone(browser, server.url)
        page.route("**/version*", lambda route: route.abort())     # the poll sees nothing
        # the other writer logs Ána's turn; the page's statement is Βήτα's, next (a
        # correction is offered only when the game accepts it at once: Ána's own, on turn,
        # and the other writer's line leaves the turn with her)
        typed = {"statement": "Βήτα: ?", "fix": "Ána asks Ζωή 2S-5S 1", "undo": "Ána: ?"}
        want = "Ána asks Ζωή 2S-5S: 1" if action == "fix" else typed[action]
        other = {"undo": "Βήτα: ?", "fix": "turn: Ána"}.get(action, "Ána: ?")
        box = statement_box(page)
        box.fill(typed[action])
        if action == "undo":
            assert log(page).startswith("logged")
        if action == "fix":
            assert log(page).startswith("refused")
        sleuth("log", str(path), other)                     # another writer
        page.evaluate("() => { document.getElementById('status').textContent = ''; }")
        button = {"statement": "Log", "undo": "Undo", "fix": f"Use: {want}"}[action]
        page.get_by_role("button", name=button, exact=True).click()
        page.wait_for_function("() => document.getElementById('status').textContent !== ''")
        page.get_by_role("alert").filter(has_text="refreshed").wait_for()
        page.wait_for_function(IDLE, polling="raf")
        said = page.get_by_role("status").inner_text()
        alert = page.get_by_role("alert").filter(has_text="refreshed").inner_text()
        for text in (said, alert):
            assert "reload" not in text.lower() and "try again" not in text.lower(), text
            assert "changed" in text and "now" in text, text
        lines = page.get_by_role("region", name="Lines", exact=True)
        assert lines.get_by_text(other, exact=True).count() == 1          # refreshed
        if action == "undo":
            assert "Undo was not done" in said, said
            assert path.read_text(encoding="utf-8").splitlines()[-1] == other
            return
        assert f"'{want}' is still in the Statement box" in said, said
        assert "still in the box" in alert, alert
        assert box.input_value() == want                    # nothing typed is lost
        assert log(page).startswith("logged")
        assert path.read_text(encoding="utf-8").splitlines()[-2:] == [other, want]


def renamed(tmp_path, sample: str, names: dict[str, str]):
    """A copy of ``samples/<sample>`` with its players renamed (``names``: old -> new)."""
    import re

    from tests.serve_harness import ROOT

    text = (ROOT / "samples" / sample).read_text(encoding="utf-8")
    for old, new in names.items():
        text = re.sub(rf"\b{old}\b", new, text)
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return path


def shortened(page) -> dict[str, str]:
    """The key under the grid: each shortened name and the name in full."""
    key = page.locator("#live .name-key")
    if not key.count():
        return {}
    text = key.inner_text().removeprefix("Names shortened: ")
    return dict(part.split(" = ") for part in text.split("; "))


# the text a head shows on screen (not its part for screen readers only, moved off screen)
SEEN = ("e => [...e.childNodes].filter((n) => n.nodeType === 3"
        " || getComputedStyle(n).position !== 'absolute').map((n) => n.textContent).join('')")
LONG = {"Ben": "Bartholomew", "Cleo": "Cleopatra", "Eli": "Elisabetta"}


def test_long_names_in_a_grids_cells_are_read_whole_or_through_the_key(browser, tmp_path):
    """At 360 px, with the entry panel open (the compact grid) and folded: a cell holding a
    long name (Mystery Hand's holder) shows it whole, not cut ("Bartholo..."): in full,
    else shortened with the key under the grid giving the full name; the cell's
    accessible name stays whole; the page does not scroll sideways."""
    from tests.serve_harness import sheet_names

    path = renamed(tmp_path, "mystery-hand/five-players-ana.txt", LONG)
    with Server(path) as server:
        page = phone(browser, server.url)
        for folded in (False, True):
            if folded:
                page.get_by_role("button", name="Entry", exact=True).click()
                page.wait_for_function(IDLE, polling="raf")
            key = shortened(page)
            held = [n for n in sheet_names(page) if n.split(": ")[1] in LONG.values()]
            assert any(n.endswith("Bartholomew") for n in held), held
            sheet = page.get_by_role("table", name="Sheet", exact=True)
            for name in held:
                cell = sheet.get_by_role("cell", name=name, exact=True)
                whole = name.split(": ")[1]
                shown = cell.inner_text().strip()
                assert shown == whole or key.get(shown) == whole, (name, shown, key)
                assert cell.locator(".cell").evaluate(
                    "e => e.scrollWidth <= e.clientWidth"), (name, shown, folded)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# whether the first ``n`` characters of an element's text stand on one line, within it
ONE_LINE = ("(e, n) => { const r = document.createRange(); r.setStart(e.firstChild, 0);"
            " r.setEnd(e.firstChild, n);"
            " return r.getClientRects().length === 1 && e.scrollWidth <= e.clientWidth; }")


def test_long_names_on_literatures_sheet_are_read_whole_or_through_the_key(browser,
                                                                         tmp_path):
    """Literature's half-suits at 360 px (six cards a row): a holder's long name, alone or
    beside its chance ("Bartholomew 33%"), is shown whole or shortened with the key, never
    cut or broken inside the word; the cell's accessible name stays whole."""
    from tests.serve_harness import sheet_names

    names = {"Cleo": "Konstantinopolis", "Ben": "Bartholomew"}
    path = renamed(tmp_path, "literature/ex-a-six-players.txt", names)
    with Server(path) as server:
        page = phone(browser, server.url)
        page.get_by_role("button", name="Entry", exact=True).click()
        key = shortened(page)
        sheet = page.get_by_role("table", name="Sheet", exact=True)
        held = [n for n in sheet_names(page) if n.split(": ")[1].split()[0] in names.values()]
        assert any(n.endswith(": Konstantinopolis") for n in held), held
        for name in held:
            who = sheet.get_by_role("cell", name=name, exact=True).locator(".who")
            whole = name.split(": ")[1].split()[0]
            shown = who.inner_text().split()[0]
            assert shown == whole or key.get(shown) == whole, (name, shown, key)
            assert who.evaluate(ONE_LINE, len(shown)), (name, shown)


def test_long_names_in_a_grids_column_heads_are_read_whole_or_through_the_key(browser,
                                                                               tmp_path):
    """Clue's notebook at 360 px: a column head of a long player's name is named in full
    (a screen reader hears "Bartholomew") and shows it whole or shortened with the key,
    never cut."""
    path = renamed(tmp_path, "clue/three-players.txt", LONG)
    with Server(path) as server:
        page = phone(browser, server.url)
        key = shortened(page)
        sheet = page.get_by_role("table", name="Sheet", exact=True)
        for whole in ("Bartholomew", "Cleopatra"):
            head = sheet.get_by_role("columnheader", name=whole, exact=True)
            assert head.count() == 1, whole
            shown = head.evaluate(SEEN).strip()
            assert shown == whole or key.get(shown) == whole, (whole, shown, key)
            assert head.evaluate("e => e.scrollWidth <= e.clientWidth"), (whole, shown)


def cut(tmp_path, sample: str, lines: int):
    """The first ``lines`` lines of ``samples/<sample>``: a record stopped mid-game."""
    from tests.serve_harness import ROOT

    text = (ROOT / "samples" / sample).read_text(encoding="utf-8").splitlines()[:lines]
    path = tmp_path / "game.txt"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


@contextmanager
def tap_page(browser, path):
    """``path`` served, and a phone's page of it: the page, its tap entry and its box."""
    with Server(path) as server:
        page = phone(browser, server.url)
        yield page, page.get_by_role("group", name="Tap entry", exact=True), statement_box(page)


def tap(entry, group: str, name: str) -> None:
    entry.get_by_role("group", name=group, exact=True).get_by_role(
        "button", name=name, exact=True).click()


def offered(entry, group: str) -> list[str]:
    buttons = entry.get_by_role("group", name=group, exact=True).get_by_role("button")
    return [buttons.nth(i).inner_text().strip().lstrip("\u2713 ")
            for i in range(buttons.count())]


def test_mysteriums_hour_crow_and_groups_by_taps(browser, tmp_path):
    """Mysterium's "hour 3" (the next hour only, MY-15), "crow: 2" (or "crow", the whole
    hand, MY-9) and "group 1: Ana" (the groups and psychics not numbered yet, MY-16) are
    built by taps from the Table's keywords, a vote "Ana votes 3" (MY-20) from the
    player's verbs, and logged as built."""
    path = cut(tmp_path, "mysterium/five-players-won.txt", 49)       # hour 2 is over
    with tap_page(browser, path) as (page, entry, box):
        tap(entry, "Table", "hour")
        assert offered(entry, "Which hour") == ["3"]
        tap(entry, "Which hour", "3")
        assert box.input_value() == "hour 3"
        assert log(page).startswith("logged")
        tap(entry, "Table", "crow")
        assert box.input_value() == "crow"                              # the whole hand
        assert offered(entry, "Crow: cards discarded")[:3] == ["whole hand", "1", "2"]
        tap(entry, "Crow: cards discarded", "2")
        assert box.input_value() == "crow: 2"
        assert log(page).startswith("logged")
        assert path.read_text(encoding="utf-8").splitlines()[-2:] == ["hour 3", "crow: 2"]
    path = cut(tmp_path, "mysterium/five-players-won.txt", 80)       # the epilogue begins
    with tap_page(browser, path) as (page, entry, box):
        tap(entry, "Table", "group")
        assert offered(entry, "Which group") == ["1", "2", "3", "4"]
        tap(entry, "Which group", "1")
        assert box.input_value() == "group 1:"
        assert offered(entry, "Whose group") == ["Ana", "Ben", "Cleo", "Dev"]
        tap(entry, "Whose group", "Ana")
        assert box.input_value() == "group 1: Ana"
        assert log(page).startswith("logged")
        tap(entry, "Table", "group")
        assert offered(entry, "Which group") == ["2", "3", "4"]
        tap(entry, "Which group", "2")
        assert offered(entry, "Whose group") == ["Ben", "Cleo", "Dev"]
    path = cut(tmp_path, "mysterium/five-players-won.txt", 86)       # the groups numbered
    with tap_page(browser, path) as (page, entry, box):
        tap(entry, "Who acts", "Ana")
        tap(entry, "Or", "votes")
        assert offered(entry, "Votes for group") == ["1", "2", "3", "4"]
        tap(entry, "Votes for group", "3")
        assert box.input_value() == "Ana votes 3"
        assert log(page).startswith("logged")


def test_hands_round_by_taps(browser, tmp_path):
    """Hand's scoring statement (HR-37, HR-38) by taps: the round, who went out and how,
    then each opponent's penalty (no-meld, or points digit by digit); "unscored stock"
    (HR-35) in two taps. Each is logged as built."""
    path = tmp_path / "game.txt"
    sleuth("new", "hand", str(path), "--players", "Ana Ben Cleo", "--me", "Ana")
    with tap_page(browser, path) as (page, entry, box):
        tap(entry, "Table", "round")
        assert offered(entry, "Which round") == ["1"]
        tap(entry, "Which round", "1")
        assert box.input_value() == "round 1:"
        tap(entry, "Who went out", "Ana")
        tap(entry, "How", "partial")
        assert box.input_value().rstrip() == "round 1: Ana out partial;"
        for digit in ("4", "6"):
            tap(entry, "Penalty: Ben", digit)
        entry.get_by_role("group", name="Penalty: Ben", exact=True).get_by_role(
            "button", name="Take back a digit", exact=True).click()
        tap(entry, "Penalty: Ben", "5")
        tap(entry, "Penalty: Cleo", "no-meld")
        assert box.input_value() == "round 1: Ana out partial; Ben 45, Cleo no-meld"
        assert entry.get_by_role("group", name="Penalty: Ana", exact=True).count() == 0
        assert log(page).startswith("logged")
        tap(entry, "Table", "round")
        assert offered(entry, "Which round") == ["2"]
        tap(entry, "Which round", "2")
        tap(entry, "Or", "unscored stock")
        assert box.input_value() == "round 2: unscored stock"
        assert log(page).startswith("logged")
        assert path.read_text(encoding="utf-8").splitlines()[-2:] == [
            "round 1: Ana out partial; Ben 45, Cleo no-meld", "round 2: unscored stock"]


def test_a_literature_safe_claim_is_one_alert_in_words(browser, tmp_path):
    """A safe claim (LIT-11(a)) is said once, as the terminal says it ("You can claim 2H-7H
    safely ...: Ana 2H 3H 4H 6H 7H, Cleo 5H."), not a second time as the analysis' data
    ("{'Ana': ['2H', ...]}")."""
    from tests.test_serve_audit import sample_page

    with sample_page(browser, tmp_path, "literature/ex-a-six-players.txt") as page:
        alerts = [t.strip() for t in page.get_by_role("alert").all_inner_texts()]
        claims = [a for a in alerts if "2H-7H" in a]
        assert len(claims) == 1, alerts
        assert "Ana 2H 3H 4H 6H 7H, Cleo 5H" in claims[0], claims
        assert not any(c in a for a in alerts for c in "{}[]'"), alerts
