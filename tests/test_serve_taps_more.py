"""``sleuth serve`` on a phone (360 x 740, Debian's Chromium under Playwright, touch), driven
by role and accessible name: the statements that could only be typed before, now built by
taps and logged as built: Mysterium's random group of discarded cards (2 players, MY-16),
Hand's penalty given as the cards left (HR-38), and Twenty-Two's whole trick on one line.
Every tap target of the entry panel is a finger's size and nothing overflows the screen."""
from __future__ import annotations


from tests.serve_harness import ROOT, sleuth
from tests.test_serve_audit import log
from tests.test_serve_leftovers import offered, tap
from tests.test_serve_taps_tt import served

PHONE = {"width": 360, "height": 740}
SHOTS = ROOT / "build" / "screenshots"

# every visible button of the entry panel at least 44 x 44 px, and nothing wider than the
# screen (the page does not scroll sideways)
SMALL = """() => [...document.querySelectorAll('#entry button')]
  .filter((b) => b.offsetParent !== null)
  .map((b) => [b.textContent, b.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([t, r]) => t + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
WIDE = "() => document.documentElement.scrollWidth - window.innerWidth"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"more-{name}.png"), full_page=False)


def thumb_sized(page) -> None:
    assert page.evaluate(SMALL) == []
    assert page.evaluate(WIDE) <= 0


def write(tmp_path, text: str):
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return path


# Mysterium with 2 players (the ghost Gus and Ana running two psychics, Ana-1 and Ana-2):
# phase 1 over, C1 L1 O1 and C2 L2 O2 in the sleeves
MYSTERIUM_2P = (
    "game: mysterium\nplayers: Gus Ana\ntable character: 1 2 3 4 5\n"
    "table location: 1 2 3 4 5\ntable object: 1 2 3 4 5\n"
    "hour 1\nAna-1 guesses C1: right\nAna-2 guesses C2: right\n"
    "hour 2\nAna-1 guesses L1: right\nAna-2 guesses L2: right\n"
    "hour 3\nAna-1 guesses O1: right\nAna-2 guesses O2: right\n")


def test_mysteriums_random_group_by_taps(browser, tmp_path):
    """With 2 players a group may be a random group of discarded cards (MY-16): after
    "group 2:" the psychics are offered and, kind by kind, the cards in no sleeve and in no
    other random group; "group 2: character 3, location 9, object 17" is logged as built,
    and the next random group offers none of its cards."""
    path = write(tmp_path, MYSTERIUM_2P)
    with served(browser, path, PHONE) as (page, entry, box):
        tap(entry, "Table", "group")
        tap(entry, "Which group", "2")
        assert box.input_value() == "group 2:"
        assert offered(entry, "Whose group") == ["Ana-1", "Ana-2"]
        chars = offered(entry, "Random group: character")
        assert chars == [str(n) for n in range(3, 19)]           # C1, C2 are in sleeves
        assert entry.get_by_role("group", name="Random group: location").count() == 0
        tap(entry, "Random group: character", "3")
        assert box.input_value() == "group 2: character 3"
        assert entry.get_by_role("group", name="Whose group").count() == 0
        # the kind to choose next first (at the panel's top), then the one chosen
        assert [g.get_attribute("aria-label") for g in entry.get_by_role("group").all()] \
            == ["Random group: location", "Random group: character"]
        shot(page, "mysterium-random-group-next")
        tap(entry, "Random group: location", "9")
        tap(entry, "Random group: object", "17")
        shot(page, "mysterium-random-group")
        thumb_sized(page)
        assert box.input_value() == "group 2: character 3, location 9, object 17"
        tap(entry, "Random group: character", "4")                 # a kind changed again
        assert box.input_value() == "group 2: character 4, location 9, object 17"
        assert log(page).startswith("logged"), page.get_by_role("status").inner_text()
        assert path.read_text(encoding="utf-8").splitlines()[-1] == \
            "group 2: character 4, location 9, object 17"
        tap(entry, "Table", "group")
        assert offered(entry, "Which group") == ["1", "3", "4"]
        tap(entry, "Which group", "3")
        assert "4" not in offered(entry, "Random group: character")   # in group 2 (MY-2)


def test_hands_penalty_in_cards_by_taps(browser, tmp_path):
    """A penalty given as the cards left (HR-38) by taps: "cards" under the player's
    penalty, then one tap a copy (two packs: a third tap on a card takes its copies back);
    an ace among them asks for the round's indicator, which rewrites the round's head
    ("round 1 indicator 7C: ..."); logged as built."""
    path = tmp_path / "game.txt"
    sleuth("new", "hand", str(path), "--players", "Ana Ben Cleo", "--me", "Ana")
    with served(browser, path, PHONE) as (page, entry, box):
        tap(entry, "Table", "round")
        tap(entry, "Which round", "1")
        tap(entry, "Who went out", "Ana")
        tap(entry, "How", "partial")
        assert entry.get_by_role("group", name="Cards left: Ben").count() == 0
        tap(entry, "Penalty: Ben", "cards")
        shot(page, "hand-cards-step")
        # the cards in sight under the panel's bar, not below the digits
        bar = page.get_by_role("button", name="Undo", exact=True).bounding_box()
        first = entry.get_by_role("group", name="Cards left: Ben").get_by_role(
            "button").first.bounding_box()
        assert bar["y"] + bar["height"] <= first["y"] and \
            first["y"] + first["height"] <= PHONE["height"], (bar, first)
        for card in ("5H", "5H", "KS"):
            tap(entry, "Cards left: Ben", card)
        assert box.input_value() == "round 1: Ana out partial; Ben 5H 5H KS"
        tap(entry, "Cards left: Ben", "5H")                       # no third 5H: taken back
        assert box.input_value() == "round 1: Ana out partial; Ben KS"
        assert entry.get_by_role("group", name="Round's indicator").count() == 0
        tap(entry, "Cards left: Ben", "5H")
        tap(entry, "Cards left: Ben", "AC")
        shot(page, "hand-penalty-cards")
        thumb_sized(page)
        tap(entry, "Round's indicator", "7C")
        tap(entry, "Penalty: Cleo", "no-meld")
        assert box.input_value() == "round 1 indicator 7C: Ana out partial; Ben KS 5H AC, Cleo no-meld"
        assert log(page).startswith("logged"), page.get_by_role("status").inner_text()
        assert path.read_text(encoding="utf-8").splitlines()[-1] == \
            "round 1 indicator 7C: Ana out partial; Ben KS 5H AC, Cleo no-meld"


def test_hands_penalty_from_a_round_records_hands(browser, tmp_path):
    """In a round record the cards left in a hand the record gives whole are one tap."""
    text = (ROOT / "samples/hand/round-complete.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    path = write(tmp_path, "\n".join(lines[:-1]) + "\n")
    with served(browser, path, PHONE) as (page, entry, box):
        tap(entry, "Table", "round")
        tap(entry, "Which round", "1")
        tap(entry, "Who went out", "Cleo")
        tap(entry, "How", "partial")
        tap(entry, "Penalty: Ana", "2D 2S")
        tap(entry, "Penalty: Ben", "2C 2D 4S")
        shot(page, "hand-penalty-left")
        thumb_sized(page)
        assert box.input_value() == "round 1: Cleo out partial; Ana 2D 2S, Ben 2C 2D 4S"
        assert log(page).startswith("logged"), page.get_by_role("status").inner_text()
        assert path.read_text(encoding="utf-8").splitlines()[-1] == lines[-1]


MIDHAND = "twenty-two/standard-ana-midhand.txt"


def cut(tmp_path, sample: str, lines: int):
    text = (ROOT / "samples" / sample).read_text(encoding="utf-8").splitlines()
    return write(tmp_path, "\n".join(text[:lines]) + "\n")


def wait_group(entry, name: str):
    group = entry.get_by_role("group", name=name, exact=True)
    group.wait_for(timeout=30_000)
    return group


def test_twenty_two_a_whole_trick_on_one_line_by_taps(browser, tmp_path):
    """A whole trick on one line (docs/twenty-two.md: "Cleo leads 4S 4H 4D; Ana 6D AS AH;
    Ben ..."): once a play is whole, the next player's cards are offered (the engine's, after
    the plays before it on the line: the recorder's legal follows to the three 4s, another
    player's unseen cards less those played), each tap adding "; Ben 9C"; after the trick's
    last play nothing more; logged as built, one line."""
    path = cut(tmp_path, MIDHAND, 28)               # Cleo won the last trick: she leads
    with served(browser, path, PHONE) as (page, entry, box):
        tap(entry, "Cleo leads", "4S")
        assert box.input_value() == "Cleo leads 4S"
        wait_group(entry, "Ana plays")              # a lead of one card is whole already
        # the lead's own cards first (more of its rank), then the next player's
        assert [g.get_attribute("aria-label") for g in entry.get_by_role("group").all()] \
            == ["Cleo leads", "Ana plays"]
        shot(page, "tt-lead-whole")
        tap(entry, "Cleo leads", "4H")
        tap(entry, "Cleo leads", "4D")
        assert box.input_value() == "Cleo leads 4S 4H 4D"
        wait_group(entry, "Ana plays")
        # the recorder's follows to three 4s, by the engine after this lead (TT-10, TT-11)
        assert offered(entry, "Ana plays") == ["AS", "AH", "10H", "6D", "10D", "QD", "KC"]
        assert entry.get_by_role("group", name="Ben plays").count() == 0
        tap(entry, "Ana plays", "6D")
        assert box.input_value() == "Cleo leads 4S 4H 4D; Ana 6D"
        tap(entry, "Ana plays", "AS")
        tap(entry, "Ana plays", "AH")
        assert box.input_value() == "Cleo leads 4S 4H 4D; Ana 6D AS AH"
        wait_group(entry, "Ben plays")
        # the next player's cards first, in sight at the panel's top; then Ana's, to change
        assert [g.get_attribute("aria-label") for g in entry.get_by_role("group").all()] \
            == ["Ben plays", "Ana plays"]
        shot(page, "tt-next-player")
        thumb_sized(page)
        ben = offered(entry, "Ben plays")
        assert not {"4S", "4H", "4D", "6D", "AS", "AH"} & set(ben), ben     # played
        assert len(ben) > 20, ben
        for card in ben[:3]:
            tap(entry, "Ben plays", card)
        want = "Cleo leads 4S 4H 4D; Ana 6D AS AH; Ben " + " ".join(ben[:3])
        assert box.input_value() == want
        shot(page, "tt-whole-trick")
        thumb_sized(page)
        page.wait_for_timeout(300)                  # the trick is over: no next play
        groups = entry.get_by_role("group").all()
        assert [g.get_attribute("aria-label") for g in groups] == ["Ben plays"]
        assert log(page).startswith("logged"), page.get_by_role("status").inner_text()
        assert path.read_text(encoding="utf-8").splitlines()[-1] == want


def test_leads_after_a_first_part_reads_only(tmp_path):
    """GET /leads?after=S: the game's lead_data on the record with S added, nothing saved;
    a first part the engine refuses (a play out of turn, TT-10) gives nothing; a remote
    request without the token is refused."""
    from tests.test_serve_app import client

    path = cut(tmp_path, MIDHAND, 28)
    before = path.read_bytes()
    c = client(path)
    got = c.get("/leads", params={"after": "Cleo leads 4S"}).json()["leads"]["next"]
    assert (got["player"], got["verb"], got["known"]) == ("Ana", "plays", True)
    assert got["cards"] == ["AS", "AH", "10H", "6D", "10D", "QD", "KC"]
    assert c.get("/leads", params={"after": "Cleo leads 4S; Ben 9C"}).json()["leads"] == {}
    assert c.get("/leads", params={"after": ""}).json()["leads"] == {}
    assert path.read_bytes() == before
    remote = client(path, remote=True)
    assert remote.get("/leads", params={"after": "Cleo leads 4S"}).status_code == 403


def test_hands_penalty_cards_offer_the_copies_the_engine_allows():
    """The copies a penalty's cards offer are the engine's (solver.hand.regime.copies_in_play):
    in a round record the indicator turned up is out of play (A1), so one copy of it;
    under wild-mode=no-jokers no joker (HR-46). A second count of the deck here offered
    two of the indicator, which the log then refused (HR-2)."""
    from solver.records import parse_record, read_record
    from web.hand import lead_data

    rec = read_record(str(ROOT / "samples/hand/round-midway-ana.txt"))
    got = lead_data(rec)
    assert got["indicator"] == "4H" and got["copies"]["4H"] == 1
    assert got["copies"]["5H"] == 2 and got["copies"]["Jk"] == 2
    sheet = parse_record("game: hand\nplayers: Ana Ben Cleo\nvariant: wild-mode=no-jokers\n"
                         "round 1 dealer Ben indicator 7C: Ana out partial; Ben 5H, Cleo no-meld\n")
    got = lead_data(sheet)
    assert "Jk" not in got["copies"] and got["copies"]["7C"] == 2
