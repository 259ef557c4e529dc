"""Short sheets for ``play``'s one screen (cli.session.Screen) of the games whose CLI module
has none (Twenty-Two, Mysterium, Hand): what a player needs at the table within an 80x24
terminal, the rest on request (``sheet`` shows the whole analysis); and every short sheet's
tables on a narrower screen (:func:`narrow_tables`)."""
from __future__ import annotations

import re
from typing import Callable

from tabulate import tabulate

#: tabulate's ruler under a table's heading (its "simple" layout): the columns' extents
RULER = re.compile(r" *-+( +-+)*")

#: the legal plays a short Twenty-Two sheet lists, safest first
PLAYS_SHOWN = 5
#: the discards a short Hand sheet lists, the least likely to be taken first
DISCARDS_SHOWN = 5


def twenty_two(a) -> str:
    """Twenty-Two: the table now (whose turn, the trick), your hand, your safest legal
    plays with the chance of ending with the highest last card (TT-13/TT-14), the notes,
    and the scores on one line."""
    from cli.twenty_two import _cards, _header, _risk

    lines = _header(a)
    if a.deal_number and not a.over:
        if a.hand is not None:
            lines.append(f"Your hand: {_cards(a.hand)}")
        lines.append(f"Unseen cards (I1): {sum(a.unseen.values())}")
        if a.plays:
            ranked = sorted(a.plays, key=lambda o: (o.risk is None,
                                                    o.risk.p if o.risk is not None else 0))
            lines.append("Your legal plays, safest first (P: your last card is the "
                         "highest, TT-13):")
            rows = [[_cards(o.cards), o.kind, _risk(o.risk)] for o in ranked[:PLAYS_SHOWN]]
            lines.append(tabulate(rows, headers=["play", "kind", "P(highest last)"],
                                  tablefmt="simple", disable_numparse=True))
            if len(ranked) > PLAYS_SHOWN:
                more = len(ranked) - PLAYS_SHOWN
                lines.append(f"  ... {more} more play{'' if more == 1 else 's'} "
                             "('sheet' lists them all)")
        elif a.risk_now is not None:
            lines.append("Chance your last card ends up the highest (TT-13/TT-14): "
                         + _risk(a.risk_now))
    lines += [f"Note: {n}" for n in a.notes]
    scores = ", ".join(
        f"{p} {a.scores[p]['total']}" + (" out" if a.scores[p]["eliminated"] else "")
        for p in a.players)
    lines.append(f"Scores (out at {a.limit}): {scores}")
    if a.closest:
        top = a.scores[a.closest[0]]
        lines.append("Closest to elimination: " + ", ".join(a.closest)
                     + f" ({top['total']}, {top['to_go']} to go)")
    return "\n".join(lines)


def mysterium(a, width: int = 79) -> str:
    """Mysterium: the table now (the hour, whether the psychics can still win), each
    psychic's current stage with its candidates and the clock (guesses needed against
    guesses left, D3), the guesses waiting for the revelation, the visions; from the
    epilogue on, the epilogue and the verdict as the whole sheet says them.  With unseen
    statements (``P: ?``) its cells, as the whole report's, state only what holds in every
    filling: a psychic whose stage or clock differs between them gets a row a course, with
    its chance.  Within ``width`` columns: its tables by :func:`narrow_tables`, then its
    lines wrapped."""
    from cli.mysterium import (_courses, _pending, _render_analysis, _rows_by_course,
                               _stage_cells, wrapped)

    full = _render_analysis(a, every_cell=True)
    head, _, rest = full.partition("\n\n")
    lines = [head]
    courses = _courses(a)
    if all(c.count is not None for _w, c in courses):   # the epilogue: groups, votes, verdict
        at = full.find("\nEpilogue (D6")
        lines += [full[at + 1:]] if at >= 0 else []
        return wrapped(narrow_tables("\n".join(lines), width), width)

    def row_of(c) -> list[list]:
        rows = []
        for p in c.psychics:
            if p.needed == 0 or p.stage not in p.stages:
                rows.append([p.name, p.stage, f"{p.needed}/{p.guesses_left}",
                             f"done hour {p.finished_hour}" if p.finished_hour else "", True])
            else:
                rows.append([p.name, p.stage, f"{p.needed}/{p.guesses_left}",
                             "cannot finish" if p.hopeless else "at risk" if p.at_risk
                             else "", False])
        return rows

    rows = []
    shown: set[tuple[str, str]] = set()
    for (name, stage, need, outlook, done, chance) in _rows_by_course(a, row_of)[0]:
        if done:
            cands = "-"
        elif (name, stage) in shown:
            cands = "(as above)"
        else:
            cands = _stage_cells(a, name, stage)[1]
        shown.add((name, stage))
        rows.append([name, stage, cands, need, outlook, chance])
    if a.deduction.kinds:
        # a row a course: its chance in a column of its own (the course's, not the stage's:
        # two courses may differ only in the clock)
        courses_differ = any(r[-1] != "certain" for r in rows)
        heads = ["psychic", "stage", "candidates now", "need/left", "outlook"]
        widths: list[int | None] = [12, 14, 28, None, 13]
        if courses_differ:      # the sixth column fits 80 with narrower cells
            heads, widths = heads + ["chance"], [8, 10, 22, None, 8, None]
        else:
            rows = [r[:-1] for r in rows]
        lines.append(tabulate(rows, headers=heads, tablefmt="simple", maxcolwidths=widths))
        lines.append("need/left: the guesses the stage needs / the guesses left (D3)")
    waiting = _pending(a)
    if len(courses) == 1:
        for p in a.psychics:
            if p.pending:
                lines.append(f"{p.name}'s guess {p.pending['card']} waits for the revelation")
    elif waiting:               # over the fillings: P(right) if placed, the chance it was
        lines += waiting[1:]
    lines.append(rest[rest.find("Visions (D4)"):].split("\n")[0])
    return wrapped(narrow_tables("\n".join(lines), width), width)


def hand(a, width: int = 79) -> str:
    """Hand: the whole sheet but for the list of unseen cards, said as how many and where
    they can be (a round's unseen cards take five rows of an 80x24 screen), and the rules
    under the tables' headings; its tables within ``width`` (:func:`narrow_tables`)."""
    from cli.hand import render_analysis

    out: list[str] = []
    listing = False
    discards = None                     # the discards' rows shown, while in their table
    at = None                           # where their table's rows start
    for ln in render_analysis(a).split("\n"):
        if RULER.fullmatch(ln):
            out.append(ln)              # kept for narrow_tables, dropped below
            continue
        if discards is not None and (ln.startswith("why") or not ln.strip()):
            discards = None
        if ln.startswith("unseen (") and "): " in ln:
            where = ", ".join(f"{k} {n}" for k, n in a.slots.items() if n)
            out.append(f"unseen: {sum(a.unseen.values())} cards, in {where} "
                       "('sheet' lists them)")
            listing = True
        elif discards is not None:      # the safest discards first: the first few
            discards += 1
            if discards <= DISCARDS_SHOWN:
                at = len(out) if at is None else at
                out.append(ln)
        elif not (listing and ln.startswith("  ")):   # the list's wrapped rows
            out.append(ln)
            listing = False
            if ln.startswith("discard ") and "may take it" in ln:
                discards = 0
    more = len(a.chances) - DISCARDS_SHOWN if getattr(a, "chances", None) else 0
    if more > 0 and at is not None:
        out.insert(at + DISCARDS_SHOWN, f"  ... {more} more discard{'' if more == 1 else 's'}"
                   " ('sheet' lists them all)")
    text = narrow_tables("\n".join(out), width)
    return "\n".join(ln for ln in text.split("\n") if not RULER.fullmatch(ln))


def narrow_tables(text: str, cols: int) -> str:
    r"""``text`` with each table (tabulate's "simple" layout: a heading, a ruler of dashes,
    its rows) wider than ``cols`` columns laid out a row at a time, each cell after its
    heading (a row wrapped at a column's gaps is unreadable on a phone's 40 columns).  A
    row a cell wraps onto (its first cell empty) joins the row above; the table ends at a
    blank line, at a line with text in a gap between the columns, or at ``  ...``.

    >>> t = tabulate([["Ana", 4, "3H 5H"], ["Ben", 14, "-"]],
    ...              headers=["player", "cards", "known to hold"])
    >>> print(narrow_tables(t + "\nunseen: 73 cards", 20))
    player Ana: cards 4; known to hold 3H 5H
    player Ben: cards 14; known to hold -
    unseen: 73 cards
    >>> narrow_tables(t, 40) == t
    True
    """
    from cli.session import columns

    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if not (i + 1 < len(lines) and RULER.fullmatch(lines[i + 1]) and ln.strip()):
            out.append(ln)
            i += 1
            continue
        spans = [m.span() for m in re.finditer(r"-+", lines[i + 1])]
        j = i + 2
        while j < len(lines) and _is_row(lines[j], spans):
            j += 1
        if max(columns(x) for x in lines[i:j]) <= cols:
            out += lines[i:j]
        else:
            heads = _cells(ln, spans)
            rows: list[list[str]] = []
            for row in lines[i + 2:j]:
                cells = _cells(row, spans)
                if rows and not cells[0]:       # a cell wrapped onto this row
                    rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells)]
                else:
                    rows.append(cells)
            for cells in rows:
                said = [f"{h} {c}".strip() for h, c in zip(heads[1:], cells[1:]) if c]
                out.append(f"{heads[0]} {cells[0]}".strip() + ": " + "; ".join(said))
        i = j
    return "\n".join(out)


def _is_row(line: str, spans: list[tuple[int, int]]) -> bool:
    """Whether ``line`` is a row of the table whose columns are ``spans``."""
    if not line.strip() or line.startswith("  ...") or RULER.fullmatch(line):
        return False
    gaps = [(a[1], b[0]) for a, b in zip(spans, spans[1:])]
    return all(not line[x:y].strip() for x, y in gaps)


def _cells(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """The cells of a table row: the text under each column (the last runs to the end)."""
    ends = [b[0] for b in spans[1:]] + [len(line)]
    return [line[a:e].strip() for (a, _), e in zip(spans, ends)]


#: game name -> its short sheet (some take the screen's ``width``: cli.session's
#: render_compact asks their signature)
COMPACT: dict[str, Callable[..., str]] = {"twenty-two": twenty_two, "mysterium": mysterium,
                                          "hand": hand}
