"""``sleuth serve`` on phones (390 x 844 and 360 x 640, Debian's Chromium under Playwright,
touch), driven by role and accessible name: Twenty-Two's plays to a trick by taps (the
player the engine says plays next, the cards the rules allow), and long names in
Literature's Hands table."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.serve_harness import PHONE, ROOT, Server
from tests.test_serve_audit import IDLE, log
from tests.test_serve_leftovers import offered, renamed, tap

PHONES = [{"width": 390, "height": 844}, PHONE]
SHOTS = ROOT / "build" / "screenshots"


@contextmanager
def served(browser, path, size):
    """``path`` served, and a phone's page of it: the page, its tap entry and its box."""
    with Server(path) as server:
        context = browser.new_context(viewport=size, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(300_000)
        page.goto(server.url)
        page.wait_for_function(IDLE, polling="raf")
        try:
            yield (page, page.get_by_role("group", name="Tap entry", exact=True),
                   page.get_by_role("textbox", name="Statement"))
        finally:
            context.close()


def record(tmp_path, sample: str, lines: int | None = None, more: tuple[str, ...] = ()):
    """The first ``lines`` lines of ``samples/<sample>`` and then ``more``."""
    text = (ROOT / "samples" / sample).read_text(encoding="utf-8").splitlines()
    path = tmp_path / "game.txt"
    path.write_text("\n".join(text[:lines] + list(more)) + "\n", encoding="utf-8")
    return path


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"),
                    full_page=False)


MIDHAND = "twenty-two/standard-ana-midhand.txt"
# the second hand's third trick: Cleo led three 4s; Ana's hand is known (AS AH 10H 6D 10D
# QD KC), Ben's and Cleo's are not
LEAD_LINE = 29


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_twenty_two_plays_to_a_trick_by_taps(browser, tmp_path, size):
    """With the box empty the engine's next player's cards are offered at once, under
    "<player> plays" ("leads" for a lead): the recorder's own follow of three to Cleo's
    4-4-4 from its legal plays (a card that fits none is not offered), another player's
    follow of three from the cards still unseen, then the trick's winner's lead of one
    rank. Each is logged as tapped; a single card is two taps (the card, Log)."""
    path = record(tmp_path, MIDHAND, LEAD_LINE)
    with served(browser, path, size) as (page, entry, box):
        shot(page, "tt-first")
        assert offered(entry, "Ana plays") == ["AS", "AH", "10H", "6D", "10D", "QD", "KC"]
        tap(entry, "Ana plays", "6D")
        # 6 with two cards above it: A A, A K, 10 10, ... but never the 6 alone (TT-10, TT-11)
        assert box.input_value() == "Ana plays 6D"
        tap(entry, "Ana plays", "AS")
        tap(entry, "Ana plays", "AH")
        assert box.input_value() == "Ana plays 6D AS AH"
        assert offered(entry, "Ana plays") == ["AS", "AH", "6D"]     # three: no more
        tap(entry, "Ana plays", "AH")                                # taken back
        assert box.input_value() == "Ana plays 6D AS"
        tap(entry, "Ana plays", "AH")
        shot(page, "tt-ana-plays")
        assert log(page).startswith("logged line"), page.get_by_role("status").inner_text()
        # Ben's hand is not known: the unseen cards he may hold, three of any
        ben = offered(entry, "Ben plays")
        assert "6D" not in ben and "AS" not in ben and "4S" not in ben   # Ana's, played
        assert len(ben) > 20, ben
        for card in ben[:3]:
            tap(entry, "Ben plays", card)
        assert offered(entry, "Ben plays") == ben[:3]
        assert box.input_value() == "Ben plays " + " ".join(ben[:3])
        assert log(page).startswith("logged line"), page.get_by_role("status").inner_text()
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[-2:] == ["Ana plays 6D AS AH", "Ben plays " + " ".join(ben[:3])]
        # the trick is over: its winner leads (TT-12), one card or several of one rank
        group = entry.get_by_role("group", name="Ana leads", exact=True)
        if group.count():                               # Ana's A-A-6 won: her hand
            assert offered(entry, "Ana leads") == ["10H", "10D", "QD", "KC"]
            tap(entry, "Ana leads", "10H")
            assert offered(entry, "Ana leads") == ["10H", "10D"]
            want = "Ana leads 10H"
        else:                                           # Ben's cards beat or tied them
            lead = offered(entry, "Ben leads")
            tap(entry, "Ben leads", lead[0])
            same = [c for c in lead if c[:-1] == lead[0][:-1]]
            assert offered(entry, "Ben leads") == same
            want = "Ben leads " + lead[0]
        assert box.input_value() == want
        shot(page, "tt-lead")
        assert log(page).startswith("logged line"), page.get_by_role("status").inner_text()
        assert path.read_text(encoding="utf-8").splitlines()[-1] == want


def test_twenty_two_taps_leave_out_what_the_player_cannot_hold(tmp_path):
    """Another player's cards are the unseen ones they may still hold: after Cleo's 4H did
    not beat the queen led, her lowest card (I2), no 2 or 3 is offered for her; every card
    offered is accepted by ``log`` as her play, a 2 or 3 still unseen is not."""
    from solver.records import parse_record
    from solver.session import checked_append
    from web.live import lead_data

    path = record(tmp_path, MIDHAND, 13, ("Ana leads 7D; Ben AH; Cleo 6S", "Ben leads 10S"))
    text = path.read_text(encoding="utf-8")
    nxt = lead_data(parse_record(text))["next"]
    assert (nxt["player"], nxt["verb"], nxt["n"], nxt["known"]) == ("Cleo", "plays", 1, False)
    cards = nxt["cards"]
    assert cards and not [c for c in cards if c[:-1] in ("2", "3")], cards
    for card in cards:
        checked_append(text, f"Cleo plays {card}")
    low = [c for c in ("2S", "2H", "3S", "3H", "3D") if c not in text]
    assert low
    for card in low:
        with pytest.raises(ValueError):
            checked_append(text, f"Cleo plays {card}")


LONG = {"Cleo": "Konstantinopolis", "Ben": "Bartholomew"}
# the text a table's cell shows (its part for screen readers only, moved off screen, left
# out), whether it stands on one line, and whether it stays within the cell
SHOWN = ("e => { const seen = e.querySelector('[aria-hidden=true]') || e;"
         " const r = document.createRange(); r.selectNodeContents(seen);"
         " const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));"
         " return [seen.textContent, tops.size === 1, e.scrollWidth <= e.clientWidth]; }")


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_long_names_in_literatures_hands_table_are_whole_or_keyed(browser, tmp_path, size):
    """Literature's Hands table on a phone, the entry panel open and folded: a long team or
    player name ("Bartholomew", "Konstantinopolis") stands on one line, whole (in a smaller
    font) or shortened to a prefix the key under the sheet gives in full, never broken
    inside the word ("Bartholo / mew"); its cell's accessible name stays whole; the page
    does not scroll sideways."""
    path = renamed(tmp_path, "literature/ex-a-six-players.txt", LONG)
    with served(browser, path, size) as (page, entry, box):
        for folded in (False, True):
            if folded:
                page.get_by_role("button", name="Entry", exact=True).click()
                page.wait_for_function(IDLE, polling="raf")
            hands = page.get_by_role("table", name="Hands", exact=True)
            hands.scroll_into_view_if_needed()
            shot(page, f"lit-hands-{int(folded)}")
            key = page.locator("#live .name-key")
            keyed = dict(part.split(" = ") for part in key.inner_text().removeprefix(
                "Names shortened: ").split("; ")) if key.count() else {}
            places = [(role, whole) for whole in LONG.values()
                      for role in ("cell", "rowheader")]
            found = 0
            for role, whole in places:
                cells = hands.get_by_role(role, name=whole, exact=True)
                found += cells.count()
                for i in range(cells.count()):
                    shown, one_line, within = cells.nth(i).evaluate(SHOWN)
                    shown = shown.strip()
                    assert shown == whole or keyed.get(shown) == whole, (role, whole, shown)
                    assert one_line and within, (role, whole, shown, size, folded)
            assert found == 5, found          # Bartholomew's team of three, the two players
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
