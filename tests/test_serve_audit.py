"""``sleuth serve`` as a new user meets it on a phone (Debian's Chromium under Playwright, 360 x
640 with touch), driven by role and accessible name: names in another script and typed in
any case, an ask of all's counts typed without names, a refusal read whole, the tap entry
used from the keyboard alone, and the text sheets of the games without a grid."""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.serve_harness import PHONE, ROOT, Server, sleuth

PLAYERS = ["Ána", "Βήτα", "Ζωή", "Dev"]
IDLE = ("() => { const l = document.getElementById('live');"
        " return l && l.getAttribute('aria-busy') === 'false' && l.dataset.pending !== 'yes'"
        " && document.getElementById('working').hidden; }")


@pytest.fixture
def served(tmp_path):
    """A new Mystery Hand record of players written in three scripts, served."""
    path = tmp_path / "game.txt"
    sleuth("new", "mystery-hand", str(path), "--players", " ".join(PLAYERS), "--me", "Ána")
    with Server(path) as server:
        yield path, server.url


def phone(browser, url):
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    page.set_default_timeout(300_000)
    page.goto(url)
    page.wait_for_function(IDLE, polling="raf")
    return page


@contextmanager
def sample_page(browser, tmp_path, sample: str):
    """A copy of ``samples/<sample>`` served, and a phone's page of it."""
    path = tmp_path / Path(sample).name
    shutil.copyfile(ROOT / "samples" / sample, path)
    with Server(path) as server:
        yield phone(browser, server.url)


def log(page) -> str:
    """Tap Log and wait for the server's answer in the status region."""
    page.evaluate("() => { document.getElementById('status').textContent = ''; }")
    page.get_by_role("button", name="Log", exact=True).click()
    page.wait_for_function("() => document.getElementById('status').textContent !== ''")
    page.wait_for_function(IDLE, polling="raf")
    return page.get_by_role("status").inner_text()


def pressed(group) -> list[str]:
    """The names of the buttons of ``group`` that are pressed."""
    buttons = group.get_by_role("button", pressed=True)
    return [buttons.nth(i).inner_text().strip().lstrip("\u2713 ") for i in range(buttons.count())]


def tab_to(page, target, key: str = "Tab") -> None:
    """Press ``key`` (Tab, Shift+Tab) until ``target`` has the focus, as a keyboard user
    moves through the page."""
    for _ in range(60):
        page.keyboard.press(key)
        if target.evaluate("e => e === document.activeElement"):
            return
    raise AssertionError(f"{key} never reached {target}")


def test_names_in_any_case_and_counts_without_names_are_read_by_the_taps(browser, served):
    """A statement typed with the names in another case (record-format.md: any case when
    unambiguous), cards in any of their forms, and an ask of all's counts without names (in seating order, the asker
    skipped) are read by the tap entry as written: each count row has the typed count
    pressed, and a tap on one row changes that count only, keeping the others typed."""
    path, url = served
    page = phone(browser, url)
    box = page.get_by_role("textbox", name="Statement")
    entry = page.get_by_role("group", name="Tap entry", exact=True)
    box.fill("ána asks all 2H-5H: 0 1 0")
    assert pressed(entry.get_by_role("group", name="Βήτα", exact=True)) == ["0"]
    assert pressed(entry.get_by_role("group", name="Ζωή", exact=True)) == ["1"]
    assert pressed(entry.get_by_role("group", name="Dev", exact=True)) == ["0"]
    entry.get_by_role("group", name="Dev", exact=True).get_by_role(
        "button", name="2", exact=True).click()
    assert box.input_value() == "Ána asks all 2H-5H: Βήτα 0, Ζωή 1, Dev 2"
    assert log(page).startswith("logged line")
    assert path.read_text().splitlines()[-1] == "Ána asks all 2H-5H: Βήτα 0, Ζωή 1, Dev 2"
    # names and cards in other cases: the cards typed are the ones pressed, a tap adds one
    box.fill("ΒΉΤΑ asks ζωή 2s-5s")
    answer = entry.get_by_role("group", name="Answer: how many shown", exact=True)
    assert answer.get_by_role("button", name="1", exact=True).count() == 1
    box.fill("ΒΉΤΑ asks ζωή 2s-5s: 1")
    assert pressed(answer) == ["1"]
    box.fill("ána asks ζωή 2h-5h: 2h")
    shown = entry.get_by_role("group", name="Cards shown", exact=True)
    assert pressed(shown) == ["2H"]
    shown.get_by_role("button", name="4H", exact=True).click()
    assert box.input_value() == "Ána asks Ζωή 2H-5H: 2H 4H"
    # the other card forms the record accepts: T for 10, a suit's symbol
    box.fill("ána asks ζωή th-k\u2665: t\u2665")
    assert pressed(shown) == ["10H"]
    shown.get_by_role("button", name="QH", exact=True).click()
    assert box.input_value() == "Ána asks Ζωή 10H-KH: 10H QH"


def test_a_refusal_is_read_whole_on_a_phone(browser, served):
    """A malformed statement is refused with the input quoted and the rule named, in full
    on a 360 px screen (not cut to the status' two lines), and the box keeps what was
    typed."""
    path, url = served
    before = path.read_bytes()
    page = phone(browser, url)
    box = page.get_by_role("textbox", name="Statement")
    box.fill("Ána asks Βήτα 2S-6S: 2S")
    said = log(page)
    assert said.startswith("refused") and "'2S-6S'" in said and "MH-9" in said, said
    status = page.get_by_role("status")
    assert status.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), said
    assert box.input_value() == "Ána asks Βήτα 2S-6S: 2S"
    assert path.read_bytes() == before


def test_the_tap_entry_from_the_keyboard_alone(browser, served):
    """From the keyboard alone: Tab to a choice, Enter takes it, and the focus goes on to
    the next step's choices (never back to the page's start); the statement is built and
    logged without a tap."""
    path, url = served
    page = phone(browser, url)
    target = page.get_by_role("group", name="Asks whom", exact=True).get_by_role(
        "button", name="Βήτα", exact=True)
    tab_to(page, target)
    page.keyboard.press("Enter")
    box = page.get_by_role("textbox", name="Statement")
    assert box.input_value() == "Ána asks Βήτα"
    ranges = page.get_by_role("group", name="Which range", exact=True)
    assert ranges.get_by_role("button").first.evaluate("e => e === document.activeElement")
    page.keyboard.press("Enter")                        # the first range
    assert box.input_value() == "Ána asks Βήτα AS-4S"
    answer = page.get_by_role("group", name="Answer: how many shown", exact=True)
    first = answer.get_by_role("button", name="0", exact=True)
    assert first.evaluate("e => e === document.activeElement")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")                        # a count of one
    assert box.input_value() == "Ána asks Βήτα AS-4S: 1"
    one = answer.get_by_role("button", name="1", exact=True)
    assert one.get_attribute("aria-pressed") == "true"
    assert one.evaluate("e => e === document.activeElement")      # the same choice, drawn anew
    tab_to(page, box, "Shift+Tab")
    page.evaluate("() => { document.getElementById('status').textContent = ''; }")
    page.keyboard.press("Enter")                        # Enter in the box logs
    page.wait_for_function("() => document.getElementById('status').textContent !== ''")
    assert page.get_by_role("status").inner_text().startswith("logged line")
    assert path.read_text().splitlines()[-1] == "Ána asks Βήτα AS-4S: 1"


@pytest.mark.parametrize("sample", ["twenty-two/standard-ana-midhand.txt",
                                    "hand/round-midway-ana.txt",
                                    "mysterium/five-players-won.txt"])
def test_a_text_sheet_is_a_named_region_the_keyboard_scrolls(browser, tmp_path, sample):
    """Hand, Twenty-Two and Mysterium show the game's text sheet (the terminal's columns): a
    region named "Sheet" that scrolls sideways inside itself at 360 px while the page does
    not, and that the keyboard reaches (Tab) and scrolls (arrow keys)."""
    with sample_page(browser, tmp_path, sample) as page:
        sheet = page.get_by_role("region", name="Sheet", exact=True)
        assert sheet.count() == 1
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert sheet.evaluate("e => e.scrollWidth > e.clientWidth")    # 79 columns
        tab_to(page, sheet)
        page.keyboard.press("ArrowRight")
        page.wait_for_function("e => e.scrollLeft > 0", arg=sheet.element_handle())


def test_the_taps_never_build_what_the_grammar_refuses(browser, tmp_path):
    """Hand's call takes "one card", "two cards" (HR-33): after the number the word is filled
    in, never "one cards"; a player never passes the turn to themselves (Literature's
    "passes turn to" offers the others only)."""
    for sample, actor, taps, want in (
            ("hand/round-midway-ana.txt", "Cleo", ["calls", "one"], "Cleo calls one card"),
            ("hand/round-midway-ana.txt", "Cleo", ["calls", "two"], "Cleo calls two cards"),
            ("literature/ex-a-six-players.txt", None, ["passes"], None)):
        with sample_page(browser, tmp_path, sample) as page:
            entry = page.get_by_role("group", name="Tap entry", exact=True)
            box = page.get_by_role("textbox", name="Statement")
            if actor:
                entry.get_by_role("group", name="Who acts", exact=True).get_by_role(
                    "button", name=actor, exact=True).click()
            for name in taps:
                entry.get_by_role("button", name=name, exact=True).first.click()
            if want:
                assert box.input_value() == want
                assert entry.get_by_role("button", name="cards", exact=True).count() == 0
                continue
            on_turn = box.input_value().split()[0]
            assert box.input_value() == f"{on_turn} passes turn to"
            whom = entry.get_by_role("button")
            names = [whom.nth(i).inner_text().strip() for i in range(whom.count())]
            assert names and on_turn not in names, names


def test_the_placeholder_example_names_the_records_players(tmp_path):
    """The Statement box's example is written with the record's players (the player on
    turn asking the next), not the examples' Ana and Ben, which a new user would type and
    see refused; a record of Ana and Ben keeps the example as it is."""
    pytest.importorskip("starlette")
    import html
    import re

    from starlette.testclient import TestClient

    from web.app import create_app

    path = tmp_path / "game.txt"
    path.write_text("game: mystery-hand\nplayers: Ána Βήτα Ζωή Dev\ndealer: Βήτα\nme: Ána\n",
                    encoding="utf-8")
    for players, want in ((path, "Ζωή asks Dev 4H-7H: 4H 6H"),
                          (ROOT / "samples" / "mystery-hand" / "five-players-ana.txt",
                           "Ana asks Ben 4H-7H: 4H 6H")):
        app = create_app(str(players), token="t", token_required=False)
        page = TestClient(app, base_url="http://127.0.0.1:8765").get("/").text
        shown = html.unescape(re.search(r'placeholder="([^"]*)"', page).group(1))
        assert shown == f"tap below, or type: {want}", shown


def test_an_ask_of_alls_rows_show_long_names_whole(browser, tmp_path):
    """The count rows of an ask of all name their player in full at 360 px (a long name in a
    smaller font, wrapped whole: never "An..." beside "Ana"), the rows' buttons stay in one
    column, and the page does not scroll sideways."""
    players = ["Ana", "Anastasiya", "Βαρθολομαίος", "Dev"]
    path = tmp_path / "game.txt"
    sleuth("new", "mystery-hand", str(path), "--players", " ".join(players), "--me", "Ana")
    with Server(path) as server:
        page = phone(browser, server.url)
        entry = page.get_by_role("group", name="Tap entry", exact=True)
        entry.get_by_role("group", name="Asks whom", exact=True).get_by_role(
            "button", name="all", exact=True).click()
        entry.get_by_role("button", name="2H-5H", exact=True).click()
        lefts = set()
        for name in players[1:]:
            row = entry.get_by_role("group", name=name, exact=True)
            label = row.locator(".count-name")
            assert label.inner_text() == name
            assert label.evaluate("e => e.scrollWidth <= e.clientWidth"
                                  " && e.scrollHeight <= e.clientHeight + 1"), name
            lefts.add(round(row.get_by_role("button", name="0", exact=True).bounding_box()["x"]))
        assert len(lefts) == 1, lefts
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_double_tap_on_log_or_undo_is_one_change(browser, served):
    """Log (or Undo) tapped twice in a row, the second tap before the server has answered
    the first: one change is made and the page says so, not that the record "changed
    elsewhere" (which would invite logging the statement again)."""
    path, url = served
    page = phone(browser, url)
    page.get_by_role("textbox", name="Statement").fill("Ána asks Βήτα 2S-5S: 0")   # (Ána, the recorder, writes her own turn)
    lines = len(path.read_text().splitlines())
    for name, said, added in (("Log", "logged line", 1), ("Undo", "undo: removed line", 0)):
        page.evaluate("() => { document.getElementById('status').textContent = ''; }")
        page.get_by_role("button", name=name, exact=True).evaluate(
            "b => { b.click(); b.click(); }")
        page.wait_for_function("() => document.getElementById('status').textContent !== ''")
        page.wait_for_function(IDLE, polling="raf")
        page.wait_for_timeout(500)          # a second answer, if one was sent, has come
        assert page.get_by_role("status").inner_text().startswith(said)
        assert page.get_by_role("alert").count() == 0
        assert len(path.read_text().splitlines()) == lines + added


def test_a_page_opened_says_nothing_of_another_phones_refusal(browser, served):
    """A statement refused on one phone is said there; a second phone opening the page then
    does not show that refusal as if it were its own (its status is its own actions')."""
    path, url = served
    first = phone(browser, url)
    first.get_by_role("textbox", name="Statement").fill("Ána asks Βήτα 2S-6S: 2S")
    assert log(first).startswith("refused")
    second = phone(browser, url)
    assert second.get_by_role("status").inner_text().strip() == ""
    assert first.get_by_role("status").inner_text().startswith("refused")


def test_a_literature_claim_offers_the_claimants_team_and_the_open_half_suits(browser,
                                                                              tmp_path):
    """A claim by taps (LIT-10, LIT-11) offers the half-suits still open and, for whom holds
    each card, the claimant's team only: the taps build no claim the rules refuse for
    naming an opponent or a half-suit already out of play."""
    with sample_page(browser, tmp_path, "literature/lossy-six-players.txt") as page:
        entry = page.get_by_role("group", name="Tap entry", exact=True)
        box = page.get_by_role("textbox", name="Statement")
        box.fill("Ben claims")
        ranges = entry.get_by_role("group", name="Which range", exact=True)
        offered = [ranges.get_by_role("button").nth(i).inner_text()
                   for i in range(ranges.get_by_role("button").count())]
        assert "2H-7H" not in offered and "9S-AS" in offered, offered  # 2H-7H: claimed
        ranges.get_by_role("button", name="9S-AS", exact=True).click()
        who = entry.get_by_role("group", name="Who", exact=True).get_by_role("button")
        names = {who.nth(i).inner_text().strip().lstrip("\u2713 ") for i in range(who.count())}
        assert names == {"Ben", "Dev", "Fay"}, names                   # Ben's team


def test_each_lines_edit_and_delete_say_which_line(browser, served):
    """The Lines list's buttons are named Edit and Delete (docs/serve.md); a screen reader
    moving from button to button also hears which line each acts on (their description:
    the line's number and text)."""
    from playwright.sync_api import expect

    path, url = served
    page = phone(browser, url)
    for statement in ("Ána asks Βήτα 2S-5S: 0", "Βήτα: ?"):
        page.get_by_role("textbox", name="Statement").fill(statement)
        assert log(page).startswith("logged line")
    lines = page.get_by_role("region", name="Lines", exact=True)
    for n, statement in ((5, "Βήτα: ?"), (4, "Ána asks Βήτα 2S-5S: 0")):
        for name in ("Edit", "Delete"):
            button = lines.get_by_role("listitem").filter(has_text=statement).get_by_role(
                "button", name=name, exact=True)
            expect(button).to_have_accessible_description(f"{n} {statement}")


def test_a_two_player_mystery_hand_is_tapped_with_whose_it_is(browser, tmp_path):
    """With two players a mystery hand is a player's own ("mystery Ana: ...", MH-28): the
    Table's "mystery" is followed by whose it is, then the cards, never "mystery:" alone
    (refused there); with more players "mystery:" takes the cards at once."""
    for sample, want in (("two-player-seen.txt", "mystery Ben: 2S"),
                         ("five-players-ana.txt", "mystery: 2S")):
        with sample_page(browser, tmp_path, f"mystery-hand/{sample}") as page:
            entry = page.get_by_role("group", name="Tap entry", exact=True)
            entry.get_by_role("group", name="Table", exact=True).get_by_role(
                "button", name="mystery", exact=True).click()
            whose = entry.get_by_role("group", name="Whose", exact=True)
            assert whose.count() == ("Ben" in want)
            if "Ben" in want:
                whose.get_by_role("button", name="Ben", exact=True).click()
            entry.get_by_role("group", name="Cards", exact=True).get_by_role(
                "button", name="2S", exact=True).click()
            assert page.get_by_role("textbox", name="Statement").input_value() == want


def test_a_twenty_two_deal_and_exchange_take_their_number_before_any_colon(browser, tmp_path):
    """Twenty-Two's "Ben deals 7" and "Cleo exchanges 1" (TT-5, TT-8) by taps: the verb is
    followed by its number, not by a colon (which the grammar refuses); "holds" still
    takes the colon at once."""
    with sample_page(browser, tmp_path, "twenty-two/standard-ana-midhand.txt") as page:
        entry = page.get_by_role("group", name="Tap entry", exact=True)
        box = page.get_by_role("textbox", name="Statement")
        for verb, number, want in (("deals", "7", "Ben deals 7"),
                                   ("exchanges", "1", "Ben exchanges 1"),
                                   ("holds", None, "Ben holds:")):
            box.fill("")
            entry.get_by_role("group", name="Who acts", exact=True).get_by_role(
                "button", name="Ben", exact=True).click()
            entry.get_by_role("group", name="Or", exact=True).get_by_role(
                "button", name=verb, exact=True).click()
            if number:
                assert box.input_value() == f"Ben {verb}"
                many = entry.get_by_role("group", name="How many", exact=True)
                assert many.count() == 1
                many.get_by_role("button", name=number, exact=True).click()
            assert box.input_value() == want
