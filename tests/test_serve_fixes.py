"""``sleuth serve`` on a phone (Debian's Chromium under Playwright, touch), driven by role and
accessible name: a page that outlives its server (the next one's token), a double tap on
Undo, two tabs on one record each keeping their own draft, two long names alike to their
last letters in the sheet's cells, and a long statement in sight in the Statement box."""
from __future__ import annotations


from tests.serve_harness import PHONE, Server, sleuth
from tests.test_serve_audit import IDLE, log, phone
from tests.test_serve_leftovers import free_port, new_record, statement_box

PLAYERS = ["Ána", "Βήτα", "Ζωή", "Dev"]


def lines_of(path) -> list[str]:
    return [ln for ln in path.read_text(encoding="utf-8").split("\n") if ln.strip()]


def test_a_page_open_across_a_restart_of_the_server_still_logs(browser, tmp_path):
    """The server started again on the same address has a new token: the open page's next
    change takes it from the page's own address and is saved (it was refused, 403, until
    the page was reloaded, the status not saying why)."""
    path = new_record(tmp_path / "game.txt", PLAYERS)
    port = str(free_port())
    server = Server(path, "--port", port)
    page = phone(browser, server.url)
    server.stop()
    server = Server(path, "--port", port)
    try:
        statement_box(page).fill("Ána: ?")
        said = log(page)
        assert said.startswith("logged line") and said.endswith("Ána: ?"), said
        assert lines_of(path)[-1] == "Ána: ?"
        page.get_by_role("button", name="Undo", exact=True).click()
        page.wait_for_function("() => document.getElementById('status').textContent"
                               ".startsWith('undo: removed line')")
        assert lines_of(path)[-1] != "Ána: ?"
    finally:
        server.stop()


def test_a_double_tap_on_undo_makes_one_change(browser, tmp_path):
    """Two taps on Undo 75 ms apart (a finger's double tap; the first is answered within
    20 ms on this machine) remove one line, not two; a third tap later removes the next."""
    path = new_record(tmp_path / "game.txt", PLAYERS)
    for line in ("Ána: ?", "Βήτα: ?", "Ζωή: ?"):
        sleuth("log", str(path), line)
    with Server(path) as server:
        page = phone(browser, server.url)
        undo = page.get_by_role("button", name="Undo", exact=True)
        # the two taps from the page itself, 75 ms apart by its own clock (two clicks sent
        # from here could land over 400 ms apart on a loaded machine: two taps, not one)
        gap = page.evaluate("""() => new Promise((done) => {
            const b = document.getElementById("undo");
            const t0 = performance.now();
            b.click();
            setTimeout(() => { b.click(); done(performance.now() - t0); }, 75);
        })""")
        assert gap < 400, f"the page's second tap came {gap:.0f} ms after the first"
        page.wait_for_timeout(600)
        page.wait_for_function(IDLE, polling="raf")
        assert lines_of(path)[-2:] == ["Ána: ?", "Βήτα: ?"]
        undo.click()
        page.wait_for_function("() => document.getElementById('status').textContent"
                               ".includes('Βήτα')")
        assert lines_of(path)[-1] == "Ána: ?"


def test_two_tabs_on_one_record_keep_a_draft_each(browser, tmp_path):
    """Tab B's half-typed statement survives tab A typing and logging another (one draft
    per record was shared: A's typing overwrote it, A's log removed it), and B's reload."""
    path = new_record(tmp_path / "game.txt", PLAYERS)
    with Server(path) as server:
        context = browser.new_context(viewport=PHONE, has_touch=True)
        a, b = context.new_page(), context.new_page()
        for page in (a, b):
            page.set_default_timeout(300_000)
            page.goto(server.url)
            page.wait_for_function(IDLE, polling="raf")
        statement_box(b).fill("Βήτα asks Ζωή 2S-5S: 1")
        statement_box(a).fill("Ána: ?")
        assert log(a).startswith("logged line")
        b.reload()
        b.wait_for_function(IDLE, polling="raf")
        assert statement_box(b).input_value() == "Βήτα asks Ζωή 2S-5S: 1"
        a.reload()
        a.wait_for_function(IDLE, polling="raf")
        assert statement_box(a).input_value() == ""         # logged: not kept
        # a new tab has no draft of its own: the last one typed on the record (not one
        # logged since)
        statement_box(b).fill("Βήτα asks Ζωή 2S-5S: 2")
        c = context.new_page()
        c.goto(server.url)
        c.wait_for_function(IDLE, polling="raf")
        assert statement_box(c).input_value() == "Βήτα asks Ζωή 2S-5S: 2"
        context.close()


LONG = ["Bartholomew", "Maximiliana", "Christopherson", "Alexandrina", "Konstantinos",
        "Wilhelmina", "Bartholomeus", "Evangelina"]


def test_names_alike_but_for_their_ends_are_told_apart_in_the_cells(browser, tmp_path):
    """Bartholomew and Bartholomeus: no start of either fits a cell and is one player's, so
    each is shown by its start and end (both were cut to the same 'Bartholo…'); the key
    under the sheet gives each in full."""
    path = tmp_path / "game.txt"
    sleuth("new", "mystery-hand", str(path), "--players", " ".join(LONG), "--me", LONG[0],
           "--dealer", LONG[-1])
    for line in ("Bartholomew holds: AS 2S 9H JD QC 4D",
                 "Bartholomew asks all 4H-7H: Maximiliana 2, Christopherson 0, "
                 "Alexandrina 0, Konstantinos 0, Wilhelmina 0, Bartholomeus 0, Evangelina 1",
                 "Maximiliana asks Bartholomeus 2C-5C: ?",
                 "Christopherson requests 8S: Bartholomeus"):
        sleuth("log", str(path), line)
    with Server(path) as server:
        page = phone(browser, server.url)
        page.get_by_role("button", name="Entry", exact=True).click()     # the sheet whole
        page.wait_for_function(IDLE, polling="raf")
        seen = {}
        for card in ("9H", "8S"):
            cell = page.get_by_label(f"{card}: ", exact=False).first
            seen[card] = cell.evaluate("e => [e.textContent, e.scrollWidth <= e.clientWidth]")
        assert seen["9H"][0] != seen["8S"][0], seen
        assert all(fits for _, fits in seen.values()), seen
        key = page.locator(".name-key").inner_text()
        assert f"{seen['9H'][0]} = Bartholomew" in key and \
            f"{seen['8S'][0]} = Bartholomeus" in key, key


def test_a_long_statement_grows_the_box_to_four_lines(browser, tmp_path):
    """The Statement box grows with a long statement (an ask of all of eight players) up to
    four lines, its first line in sight; then it scrolls."""
    path = tmp_path / "game.txt"
    sleuth("new", "mystery-hand", str(path), "--players", " ".join(LONG), "--me", LONG[0],
           "--dealer", LONG[-1])
    with Server(path) as server:
        page = phone(browser, server.url)
        box = statement_box(page)
        one = box.evaluate("e => e.offsetHeight")
        box.fill("Bartholomew asks all 4H-7H: Maximiliana 2, Christopherson 0")
        two = box.evaluate("e => [e.offsetHeight, e.scrollHeight <= e.clientHeight]")
        assert two[0] > one and two[1], (one, two)
        box.fill("Bartholomew asks all 4H-7H: " + ", ".join(f"{n} 0" for n in LONG[1:]) * 3)
        most = box.evaluate("e => [e.offsetHeight, e.scrollHeight > e.clientHeight,"
                            " parseFloat(getComputedStyle(e).fontSize)]")
        assert most[1] and most[0] <= 4 * 1.5 * most[2] + 20, most
        box.fill("")
        assert box.evaluate("e => e.offsetHeight") == one


def test_clue_card_names_fit_their_row_heads(browser, tmp_path):
    """At 360 px every card's name is whole in its row head (Candlestick and Conservatory
    were cut to 'Candles…', 'Conserv…'): a smaller font where it does not fit."""
    import shutil

    from tests.serve_harness import ROOT

    path = tmp_path / "game.txt"
    shutil.copy(ROOT / "samples" / "clue" / "large-edition-custom-cards.txt", path)
    with Server(path) as server:
        page = phone(browser, server.url)
        page.get_by_role("button", name="Entry", exact=True).click()     # the sheet whole
        page.wait_for_function(IDLE, polling="raf")
        heads = page.evaluate("() => [...document.querySelectorAll("
                              "'#live table.sheet.clue tbody th')].map(e => "
                              "[e.textContent, e.scrollWidth <= e.clientWidth])")
        assert len(heads) > 20 and "Conservatory" in [h for h, _ in heads], heads
        assert all(fits for _, fits in heads), [h for h, fits in heads if not fits]
