"""``sleuth serve``'s tap entry offers only the cards a statement can name: Hand's ``takes``
the top discard (HR-28, HR-29; ``web/hand.py`` lead_data ``takes``), Twenty-Two's
``showdown`` for each player the last card they may hold (TT-13; ``web/twenty_two.py``
lead_data ``showdown``: never a card played already or known in another hand).

The data tests check what the page is given (``GET /`` and ``/leads`` carry it as
``leads``) against what ``log`` accepts.  The browser tests check what the page offers from
it (``web/static/app.js``: ``slotChoices`` for ``takes``, ``answerChoices`` for
``showdown``); before, it offered every card for both."""
from __future__ import annotations


from tests.serve_harness import PHONE, ROOT

HAND = "hand/round-midway-ana.txt"              # Ben discarded 10S: Ana's turn, no draw yet
MIDHAND = "twenty-two/standard-ana-midhand.txt"
SHOWDOWN_LINE = 19      # the first hand's last trick played: each holds one card (TT-13)


def text_of(sample: str, lines: int | None = None, more: tuple[str, ...] = ()) -> str:
    """The first ``lines`` lines of ``samples/<sample>`` and then ``more``."""
    got = (ROOT / "samples" / sample).read_text(encoding="utf-8").splitlines()
    return "\n".join(got[:lines] + list(more)) + "\n"


def accepted(text: str, statement: str) -> bool:
    from solver.session import checked_append

    try:
        checked_append(text, statement)
    except ValueError:
        return False
    return True


def leads(text: str) -> dict:
    """What the page's tap entry is given after a lead or verb (``E.leads``)."""
    from solver.records import parse_record
    from web.live import lead_data

    return lead_data(parse_record(text))


def test_hands_takes_offers_the_top_discard_only():
    """After ``Ana takes`` only the top discard is offered (HR-29), the one card ``log``
    accepts there; nothing once the turn has drawn, before any discard, or in a score
    sheet."""
    from solver.records import parse_record
    from solver.session import vocabulary

    text = text_of(HAND)
    assert leads(text)["takes"] == ["10S"]
    cards = vocabulary(parse_record(text)).cards
    assert [c for c in cards if accepted(text, f"Ana takes {c}")] == ["10S"]
    assert leads(text_of(HAND, more=("Ana takes 10S",)))["takes"] == []
    assert leads(text_of(HAND, more=("Ana draws 5D",)))["takes"] == []
    # the starter's first turn: no discard yet, no draw (HR-27)
    assert leads(text_of(HAND, 13))["takes"] == []
    assert leads(text_of("hand/full-hand-bonuses.txt"))["takes"] == []


def test_twenty_two_showdown_offers_what_each_player_may_hold():
    """At the showdown each player's offers are the last cards they may hold: the
    recorder's own card; for Ben and Cleo none played already, none of Ana's (held or
    exchanged away), and none the inference rules out (Cleo's 4H did not beat the queen,
    so nothing below 4 is hers, I2: not the 2S the tester tapped).  Each card offered to Cleo is accepted by ``log`` with
    some card of Ben's, each other card with none."""
    from solver.records import parse_record
    from solver.session import vocabulary

    text = text_of(MIDHAND, SHOWDOWN_LINE)
    assert "next" not in leads(text)
    shows = leads(text)["showdown"]
    assert list(shows) == ["Ben", "Cleo", "Ana"]
    assert shows["Ana"] == ["5S"]
    known = {"QC", "4H", "QH", "7D", "AH", "6S", "10S", "JD", "2D", "KH", "3C", "AC", "4D",
             "9H", "4S", "9D", "10C", "10D",           # played
             "5D", "8S", "2C", "5S"}                   # Ana's: exchanged away, her last
    for who in ("Ben", "Cleo"):
        assert shows[who] and not known & set(shows[who]), (who, shows[who])
    assert "2S" not in shows["Cleo"] and "2S" in shows["Ben"]
    assert not [c for c in shows["Cleo"] if c[:-1] in ("2", "3")], shows["Cleo"]
    assert "9C" in shows["Cleo"] and "9S" in shows["Ben"]

    def fits(cleo: str) -> bool:
        return any(accepted(text, f"showdown: Ben {b}, Cleo {cleo}, Ana 5S")
                   for b in shows["Ben"] if b != cleo)

    assert not accepted(text, "showdown: Ben 9S, Cleo 2S, Ana 5S")
    offered_ok = [c for c in shows["Cleo"] if fits(c)]
    assert offered_ok == shows["Cleo"]
    others = [c for c in vocabulary(parse_record(text)).cards if c not in shows["Cleo"]]
    assert not [c for c in others
                if any(accepted(text, f"showdown: Ben {b}, Cleo {c}, Ana 5S")
                       for b in shows["Ben"])]


def test_twenty_two_showdown_of_a_complete_record_offers_the_known_cards():
    """A record with every hand written: each player's one card left, as ``log`` checks it
    (TT-13: a known hand reveals its last card)."""
    text = text_of("twenty-two/standard.txt", 24)
    assert leads(text)["showdown"] == {"Ben": ["9S"], "Cleo": ["9C"], "Ana": ["5S"]}
    assert accepted(text, "showdown: Ben 9S, Cleo 9C, Ana 5S")


# ----- the page (Debian's Chromium under Playwright, a 360 px phone) ----------------------

def served(browser, tmp_path, text: str):
    """``text`` served, and a phone's page of it: the page, its tap entry and its box
    (:func:`tests.test_serve_taps_tt.served`)."""
    from tests.test_serve_taps_tt import served as served_path

    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return served_path(browser, path, PHONE)


def test_hands_takes_by_taps(browser, tmp_path):
    """Ana, takes: the one card offered is the top discard, and is logged as tapped."""
    from tests.test_serve_audit import log
    from tests.test_serve_leftovers import offered, tap

    with served(browser, tmp_path, text_of(HAND)) as (page, entry, box):
        tap(entry, "Who acts", "Ana")
        tap(entry, "Or", "takes")
        assert box.input_value() == "Ana takes"
        assert offered(entry, "Which card") == ["10S"]
        tap(entry, "Which card", "10S")
        assert box.input_value() == "Ana takes 10S"
        assert log(page).startswith("logged line"), page.get_by_role("status").inner_text()


def test_twenty_two_showdown_by_taps(browser, tmp_path):
    """showdown, a player: only the cards that player may reveal are offered (Cleo: no 2S,
    nothing played; Ana: her own last card); the whole showdown is logged as tapped."""
    from tests.test_serve_audit import log
    from tests.test_serve_leftovers import offered, tap

    text = text_of(MIDHAND, SHOWDOWN_LINE)
    want = leads(text)["showdown"]
    with served(browser, tmp_path, text) as (page, entry, box):
        tap(entry, "Table", "showdown")
        assert box.input_value() == "showdown:"
        # a name first: no card is offered before one (they were all 53, the joker too)
        assert entry.get_by_role("group", name="Cards", exact=True).count() == 0
        tap(entry, "Who", "Ben")
        assert offered(entry, "Cards") == want["Ben"]
        tap(entry, "Cards", "9S")
        assert entry.get_by_role("group", name="Cards", exact=True).count() == 0
        tap(entry, "Who", "Cleo")
        assert box.input_value() == "showdown: Ben 9S, Cleo"
        # Cleo's, less the card Ben has shown in this line
        assert "9S" in want["Cleo"] and "9S" not in offered(entry, "Cards")
        assert offered(entry, "Cards") == [c for c in want["Cleo"] if c != "9S"]
        assert "2S" not in offered(entry, "Cards")
        tap(entry, "Cards", "9C")
        tap(entry, "Who", "Ana")
        assert offered(entry, "Cards") == ["5S"]
        tap(entry, "Cards", "5S")
        assert box.input_value() == "showdown: Ben 9S, Cleo 9C, Ana 5S"
        assert log(page).startswith("logged line"), page.get_by_role("status").inner_text()
