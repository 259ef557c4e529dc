"""``sleuth play`` on a small terminal (a phone's SSH client, 40x20; and 60x24): a sheet taller
than the screen scrolls, and every row of it -- each card's row of Clue's notebook, each
player's and each half-suit's row of Literature's sheet -- can be brought on the screen whole
(PgDn, PgUp, or the command 'more'), a row saying which rows are shown; the verdict and the
notes stay in sight.  In a real terminal (tmux), as tests/test_play_audit.py does."""
from __future__ import annotations

import re

import pytest
from wcwidth import wcswidth

from cli.session import Screen, columns, fit_width, sheet_parts
from solver.session import Session
from tests.test_play_audit import Sized, sample, settled, tmux
from tests.test_play_tmux import prompt_ready

MARKER = re.compile(r"rows (\d+)-(\d+) of (\d+) -- ")


def marker(rows: list[str]) -> tuple[int, int, int] | None:
    """The rows shown (first, last, how many) as the screen's marker row says them."""
    m = next((m for m in map(MARKER.match, rows) if m), None)
    return tuple(int(x) for x in m.groups()) if m else None     # type: ignore[return-value]


def expected(path, cols: int) -> list[list[str]]:
    """The short sheet's lines at ``cols`` columns, each as the rows it wraps onto."""
    text, _ = sheet_parts(Session(str(path)), compact=True, cols=cols)
    return [fit_width(ln, cols).split("\n") for ln in text.split("\n") if ln.strip()]


def pages(t: Sized, first: str) -> list[list[str]]:
    """The screens from the first to the one with the sheet's last rows, PgDn after PgDn."""
    rows = t.wait(settled(first), "the first screen")
    out = [rows]
    while (m := marker(rows)) is not None and m[1] < m[2] and len(out) < 10:
        t._tmux("send-keys", "NPage")
        rows = t.wait(lambda r, m=m: prompt_ready(r) and marker(r) not in (None, m),
                      "the next rows")
        out.append(rows)
    return out


def paged(tmp_path, name: str, cols: int, height: int):
    """The sample ``name`` played at ``cols`` x ``height``: its path, and its screens from
    the first to the one with the sheet's last rows (:func:`pages`)."""
    path = sample(tmp_path, name)
    t = Sized(path, cols, height, "--no-hint")
    try:
        return path, pages(t, f"{name}: ")
    finally:
        t.close()


def assert_every_row_reachable(shown: list[list[str]], lines: list[list[str]]) -> None:
    """Each line of the sheet is on one of the screens, all its rows together."""
    for rows in lines:
        want = [r.rstrip() for r in rows]
        assert any(page[i:i + len(want)] == want for page in shown
                   for i in range(len(page))), (want, shown)


def assert_screen(rows: list[str], cols: int, height: int, keep: list[str]) -> None:
    """The screen is the terminal's size, no row wider; ``keep`` (the verdict, the notes)
    on it; the prompt on the last row."""
    assert len(rows) == height and all(wcswidth(r) <= cols for r in rows), rows
    assert rows[-1] == "sleuth>"
    for k in keep:
        assert any(r.startswith(k) for r in rows), (k, rows)


def clue_cards(path) -> list[str]:
    a = Session(str(path)).analyze()
    return [c for group in a.deck.groups for c in group]


# ----- Clue ----------------------------------------------------------------------------------
@tmux
@pytest.mark.parametrize("name", ["four-players-ana.txt", "five-players-face-up.txt"])
def test_clue_at_40x20_shows_every_cards_row(tmp_path, name):
    path, shown = paged(tmp_path, name, 40, 20)
    lines = expected(path, 40)
    assert_every_row_reachable(shown, lines)
    assert len(shown) >= 2, shown[0]            # taller than the screen: it scrolls
    firsts = [marker(p) for p in shown]
    assert firsts[0][0] == 1 and firsts[-1][1] == firsts[-1][2], firsts
    for page in shown:
        assert_screen(page, 40, 20, ["Verdict: not determined", "Out (still refuting"])
        assert marker(page) is not None
    # every card: placed for certain (the 'Placed:' line), else a row of its own
    text = "\n".join(r for page in shown for r in page)
    placed = " ".join(" ".join(rows) for rows in lines if rows[0].startswith("Placed: "))
    for card in clue_cards(path):
        assert re.search(rf"\b{card}\b", placed) or re.search(
            rf"(?m)^ *{card}(:| )", text), card


@tmux
def test_clue_at_40x20_pgup_and_more(tmp_path):
    path = sample(tmp_path, "four-players-ana.txt")
    t = Sized(path, 40, 20, "--no-hint")
    try:
        shown = pages(t, "four-players-ana.txt: clue")
        last = marker(shown[-1])
        # on the later rows the grid's heading stays above them
        head = next(r for r in shown[0] if r.split()[:5] == ["Ana", "Ben", "Cleo", "Dev",
                                                               "FILE"])
        body = shown[-1][shown[-1].index("") + 1:]
        assert body[0] == head and body[1].split()[0] in clue_cards(path), shown[-1]
        assert "PgUp" in next(r for r in body if MARKER.match(r))
        t._tmux("send-keys", "PPage")
        rows = t.wait(lambda r: prompt_ready(r) and marker(r) not in (None, last), "PgUp")
        assert marker(rows) == marker(shown[-2])
        # 'more' (for a keyboard without PgDn): the next rows, after the last the first
        t.type("more", lambda r: prompt_ready(r) and marker(r) == last, "'more'")
        rows = t.type("more", lambda r: prompt_ready(r) and marker(r) == marker(shown[0]),
                      "'more' back to the first rows")
        assert rows[0] == "four-players-ana.txt: clue, 9"     # the message stays
    finally:
        t.close()


@tmux
def test_tab_completes_more_while_the_sheet_scrolls(tmp_path):
    """'more' is a word of the screen, not of the record: Tab offers it (and 'history')
    as a first word while the sheet is taller than the screen, and Enter takes it."""
    path = sample(tmp_path, "four-players-ana.txt")
    t = Sized(path, 40, 20, "--no-hint")
    try:
        first = marker(t.wait(settled("four-players-ana.txt: clue"), "the first screen"))
        assert first is not None and first[0] == 1
        t._tmux("send-keys", "-l", "mo")
        t._tmux("send-keys", "Tab")
        t.wait(lambda r: r[-1].rstrip() == "sleuth> more", "Tab: 'more'")
        t._tmux("send-keys", "Enter")
        rows = t.wait(lambda r: prompt_ready(r) and marker(r) not in (None, first),
                      "the next rows")
        assert first[0] < marker(rows)[0] <= first[1] + 1, rows
        t._tmux("send-keys", "-l", "hist")
        t._tmux("send-keys", "Tab")
        t.wait(lambda r: r[-1].rstrip() == "sleuth> history", "Tab: 'history'")
    finally:
        t.close()


@tmux
def test_clue_at_60x24_shows_every_cards_row(tmp_path):
    path, shown = paged(tmp_path, "five-players-face-up.txt", 60, 24)
    assert_every_row_reachable(shown, expected(path, 60))
    assert len(shown) == 2, shown[0]
    for page in shown:
        assert_screen(page, 60, 24, ["Verdict: not determined", "Out (still refuting"])
    head = next(r for r in shown[0] if r.split()[:7] == ["Ana", "Ben", "Cleo", "Dev", "Eli",
                                                         "FILE", "up"])
    assert head in shown[1]


# ----- Literature ------------------------------------------------------------------------------
@tmux
@pytest.mark.parametrize("name, cols, height", [("ex-a-six-players.txt", 40, 20),
                                                ("eight-players-jokers.txt", 40, 20),
                                                ("house-rules-eight-players.txt", 60, 24)])
def test_literature_on_a_small_screen_shows_every_player_and_half_suit(tmp_path, name, cols,
                                                                       height):
    path, shown = paged(tmp_path, name, cols, height)
    assert_every_row_reachable(shown, expected(path, cols))
    assert len(shown) >= 2, shown[0]
    for page in shown:
        assert_screen(page, cols, height, [])
        assert marker(page) is not None
    a = Session(str(path)).analyze()
    text = "\n".join(r for page in shown for r in page)
    for p in a.hands:                           # each player's row, each half-suit's
        assert re.search(rf"(?m)^(\w+ +)?{p}\b", text), p
    for h in a.halves:
        assert re.search(rf"(?m)^  {re.escape(h)} ", text), h


# ----- the screen's rows, without a terminal ---------------------------------------------------
def test_a_wrapped_row_is_never_split_between_screens(tmp_path):
    """A card's line wrapped onto two rows (Clue at 40 columns with five players) is shown
    whole on one screen or the next, never its first row on one and the rest on the next."""
    path = sample(tmp_path, "five-players-face-up.txt")
    screen = Screen(Session(str(path)), colour=False, sheet=True, size=(40, 20))
    screen.board("saved line 13: ...")
    seen = [screen.lines()]
    while screen.scroll(1):
        seen.append(screen.lines())
    assert len(seen) >= 2
    for page in seen:
        body = page[2:page.index(next(r for r in page if MARKER.match(r)))]
        assert not body[0].startswith("  ") and body[-1].endswith("%"), page
    assert_every_row_reachable(seen, expected(path, 40))
    while screen.scroll(-1):
        screen.lines()
    assert screen.lines() == seen[0]


def test_a_new_statement_shows_the_sheet_from_its_top(tmp_path):
    """The rows scrolled to are of the sheet before the change: after a statement the sheet
    is shown from its first rows, and 'help' names 'more'."""
    path = sample(tmp_path, "ex-a-six-players.txt")
    screen = Screen(Session(str(path)), colour=False, sheet=True, size=(40, 20))
    screen.board("")
    first = marker(screen.lines())
    assert first is not None and first[0] == 1
    assert screen.scroll(1) and marker(screen.lines())[0] > 1
    assert screen.session.handle("Ana asks Ben 10S: no").kind == "accepted"
    screen.board("saved line 14: Ana asks Ben 10S: no")
    rows = screen.lines()
    assert marker(rows)[0] == 1 and rows[2].startswith("Literature, as seen by Ana"), rows
    said = screen.help(screen.session.handle("help").message)
    assert any(r.split()[:1] == ["more"] and "PgDn" in r for r in said.split("\n")), said


# ----- the tables of the other games' short sheets on 40 columns ----------------------------
def test_narrow_tables_lays_out_a_wide_table_a_row_at_a_time():
    from tabulate import tabulate

    from cli.play_sheets import narrow_tables

    table = tabulate([["Ana", "location", "1 3 6 8 10 13 16 (14.3% each)", "2/6"],
                      ["Ben", "character", "9: 30.8%, 2: 23.1%", ""]],
                     headers=["psychic", "stage", "candidates now", "need/left"],
                     tablefmt="simple", maxcolwidths=[None, None, 16, None])
    assert len(table.split("\n")) == 6          # Ana's and Ben's candidates wrap
    text = "\n".join(["head", table, "  ... 2 more psychics", "need/left: the guesses"])
    assert narrow_tables(text, 40).split("\n") == [
        "head",
        "psychic Ana: stage location; candidates now 1 3 6 8 10 13 16 (14.3% each); "
        "need/left 2/6",
        "psychic Ben: stage character; candidates now 9: 30.8%, 2: 23.1%",
        "  ... 2 more psychics", "need/left: the guesses"]
    assert narrow_tables(text, 80) == text       # it fits: as it was


def short(path: str, cols: int) -> str:
    text, _ = sheet_parts(Session(path), compact=True, cols=cols)
    return text


def test_twenty_two_plays_on_40_columns_one_row_each():
    path = "samples/twenty-two/standard-ana-midhand.txt"
    a = Session(path).analyze()
    text = short(path, 40)
    from cli.twenty_two import _cards

    for o in sorted(a.plays, key=lambda o: o.risk.p)[:5]:
        assert f"play {_cards(o.cards)}: kind {o.kind}; P(highest last) " in text, text
    assert "play       kind" in short(path, 80)      # the table where it fits


def test_hand_players_and_discards_on_40_columns_one_row_each():
    path = "samples/hand/round-midway-ana.txt"
    a = Session(path).analyze()
    text = short(path, 40)
    for p, st in a.state.players.items():
        assert f"player {p}: cards {st.count}; known to hold " in text, text
    assert sum(ln.startswith("discard ") for ln in text.split("\n")) == min(5, len(a.chances))
    assert not any(set(ln.strip()) == {"-"} for ln in text.split("\n"))   # no ruler
    wide = short(path, 80)
    assert "player      cards  known to hold" in wide and "player Ana:" not in wide


@pytest.mark.parametrize("cut", [30, None])
def test_mysterium_stages_and_epilogue_on_40_columns_one_row_each(tmp_path, cut):
    src = "samples/mysterium/five-players-won.txt"
    path = tmp_path / "m.txt"
    lines = open(src, encoding="utf-8").read().split("\n")
    path.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    a = Session(str(path)).analyze()
    text = " ".join(ln.strip() for ln in short(str(path), 40).split("\n"))
    first = "group 1: psychic " if cut is None else "psychic "
    names = [p.name for p in a.psychics]
    for n in names:
        assert (f"psychic {n}: stage " if cut else f"psychic {n}; cards ") in text, text
    assert first in text
    assert all(columns(ln) <= 40 for ln in short(str(path), 40).split("\n"))


@tmux
@pytest.mark.parametrize("name", ["standard-ana-midhand.txt", "round-midway-ana.txt",
                                  "six-players-tie-break.txt"])
def test_other_games_at_40x20_every_row_whole(tmp_path, name):
    """Twenty-Two's plays, Hand's players and discards, Mysterium's epilogue: on a 40x20
    screen each of their rows is one line of the sheet, brought on the screen whole."""
    path, shown = paged(tmp_path, name, 40, 20)
    lines = expected(path, 40)
    assert_every_row_reachable(shown, lines)
    for page in shown:
        assert len(page) == 20 and all(wcswidth(r) <= 40 for r in page), page
    text = "\n".join(" ".join(rows) for rows in lines)
    assert re.search(r"(?m)^(play|player|group) \S+.*: ", text), text


@tmux
def test_a_page_taller_than_the_screen_scrolls(tmp_path):
    """The help page at 40x20 is taller than the screen: it was printed whole, its first
    lines scrolled off (a phone's SSH client has no scrollback at hand).  It shows its
    first rows and a row saying which; 'more' (Tab completes it) and PgUp show the others,
    every line of the help among them, and Enter brings the sheet back."""
    path = sample(tmp_path, "four-players-ana.txt")
    t = Sized(path, 40, 20, "--no-hint")
    try:
        t.wait(settled("four-players-ana.txt: clue"), "the first screen")
        t._tmux("send-keys", "-l", "help")
        t._tmux("send-keys", "Enter")
        rows = t.wait(lambda r: prompt_ready(r) and "(Enter: back to the sheet)" in r,
                      "the help page")
        first = marker(rows)
        assert first is not None and first[0] == 1 and first[1] < first[2], rows
        seen = [rows]
        while marker(seen[-1])[1] < first[2] and len(seen) < 20:
            t._tmux("send-keys", "-l", "mo")
            t._tmux("send-keys", "Tab")
            t.wait(lambda r: r[-1].rstrip() == "sleuth> more", "Tab: 'more'")
            t._tmux("send-keys", "Enter")
            m = marker(seen[-1])
            seen.append(t.wait(lambda r, m=m: prompt_ready(r) and marker(r) not in (None, m),
                               "the page's next rows"))
        help_text = Screen(Session(str(path)), False, True).help(Session(str(path)).handle(
            "help").message)
        want = [r.rstrip() for r in fit_width(help_text, 40).split("\n") if r.strip()]
        shown = {r.rstrip() for page in seen for r in page}
        assert [r for r in want if r not in shown] == []
        assert all(wcswidth(r) <= 40 for page in seen for r in page)
        t._tmux("send-keys", "PPage")
        up = t.wait(lambda r: prompt_ready(r) and marker(r) not in (None, marker(seen[-1])),
                    "PgUp: the rows before")
        assert marker(up)[1] < first[2]
        t._tmux("send-keys", "Enter")
        back = t.wait(lambda r: prompt_ready(r) and "(Enter: back to the sheet)" not in r,
                      "the sheet again")
        assert any("four-players-ana.txt" in r or "Ana" in r for r in back), back
    finally:
        t.close()
