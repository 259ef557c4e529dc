"""Rendering of a Clue analysis: the notebook sheet (cards x players, the case file), the
possible case files, the verdict ("accuse: Plum Knife Library" once determined)."""
from __future__ import annotations

import textwrap

from tabulate import tabulate

ENVELOPE, FACEUP = "envelope", "faceup"
#: the columns below which ``play``'s short sheet takes its narrow layout
NARROW = 60


def place_head(loc: str) -> str:
    """A place's column head in the notebook (the terminal's and the web page's): ``FILE``
    for the case file, ``up`` for the face-up cards, else the player."""
    return "FILE" if loc == ENVELOPE else "up" if loc == FACEUP else loc


def _p(p: float) -> str:
    from cli.main import probability

    return f"{p:.3g}" if 0 < p < 0.99 else probability(p)


def sheet(a, fmt: str = "simple") -> str:
    """The notebook: one row per card (suspects, weapons, rooms), one column per player,
    the case file (FILE) and the face-up cards: ``X`` where the card certainly is, ``·``
    where it cannot be, else the chance it is there."""
    from cli.main import percent_cell

    locs = [l for l in a.locations if l not in (ENVELOPE, FACEUP)] + [ENVELOPE] + \
        [l for l in a.locations if l == FACEUP]
    rows = []
    for gi, group in enumerate(a.deck.groups):
        if gi:
            rows.append([""] * (len(locs) + 1))
        for c in group:
            row = [c]
            where = a.certain(c)
            for l in locs:
                if where is not None:
                    row.append("X" if l == where else "·")
                else:
                    p = a.cards[c].get(l, 0.0)
                    row.append("·" if p <= 0 else percent_cell(p))
            rows.append(row)
    return tabulate(rows, headers=[""] + [place_head(l) for l in locs], tablefmt=fmt,
                    stralign="right")


def _wrap(lines: list[str]) -> str:
    return "\n".join(w for ln in "\n".join(lines).split("\n")      # fit 80 columns
                     for w in (textwrap.wrap(ln, 79, subsequent_indent="  ")
                               if len(ln) > 79 else [ln]))


def render_analysis(a) -> str:
    who = a.view if a.view else "public (spectator)"
    lines = textwrap.wrap(
        f"Clue — view: {who}; variant: {', '.join(a.options.names()) or 'standard'}; "
        f"{a.statements} statement{'s' if a.statements != 1 else ''}; still in: "
        f"{' '.join(a.active)}", 79)
    lines.append("")
    lines += textwrap.wrap("Notebook: X = certainly there, · = cannot be there, else the "
                           "chance it is there; FILE = the case file"
                           + ("; up = face up" if FACEUP in a.locations else "") + ".", 79)
    lines.append(sheet(a))
    c = a.envelope
    lines.append("")
    cnt = (f"{c.count:,}" if c.count is not None else f"at most {c.upper:,} (not counted)")
    lines.append(f"Possible case files: {cnt} of {a.deck.triples:,}"
                 + (f" (the most likely below estimated from sampled deals, 95% half-width "
                    f"{c.error:.3f})" if c.error else ""))
    if c.certain:
        lines.append("Certainly in the case file: " + " ".join(c.certain))
    if c.top and c.count != 1:
        p0 = c.top[0][1]
        if c.count and c.exact and abs(p0 * c.count - 1) < 1e-9:
            lines.append(f"All {c.count:,} are equally likely, p = {_p(p0)} each; for example "
                         + " ".join(c.top[0][0]))
        else:
            lines.append(tabulate([[i + 1, " ".join(cs), _p(p)] for i, (cs, p) in
                                   enumerate(c.top)],
                                  headers=["#", "case file", "p"], tablefmt="simple"))
    prec = "exact" if a.exact else f"estimates, 95% half-width {a.error:.3f}"
    lines.append(f"Probabilities: {prec} (uniformly random case file and deal, truthful "
                 "players)")
    lines.append("")
    lines.append("Verdict: " + a.verdict)
    return _wrap(lines)


def render_compact(a, width: int = 79) -> str:
    """The short sheet for a live table (``play``'s one screen, 80x24 with the prompt): the
    cards placed for certain by place, the notebook of the others (two blocks side by side
    where ``width`` columns allow, else one, else a line per card), the case files counted
    with the most likely, and the verdict; ``sheet`` shows :func:`render_analysis`.  A
    :class:`cli.session.Sheet`: a screen too short for it scrolls the grid's rows under its
    heading, the verdict in sight."""
    from cli.main import percent_cell
    from cli.session import Sheet, columns

    locs = [l for l in a.locations if l not in (ENVELOPE, FACEUP)] + [ENVELOPE] + \
        [l for l in a.locations if l == FACEUP]
    who = a.view if a.view else "public"
    lines = [f"Clue — view: {who}; {a.statements} statement{'s' if a.statements != 1 else ''}"
             f"; still in: {' '.join(a.active)}"]
    placed: dict[str, list[str]] = {}
    open_cards = []
    for c in (c for group in a.deck.groups for c in group):
        where = a.certain(c)
        if where is None:
            open_cards.append(c)
        else:
            placed.setdefault(where, []).append(c)
    if placed:
        lines.append("Placed: " + "; ".join(f"{place_head(l)} {' '.join(placed[l])}"
                                            for l in locs if l in placed))
    heading: list[str] = []
    if open_cards:
        lines.append("The open cards: % = the chance it is there, · = cannot be; FILE = the "
                     "case file" if width >= NARROW else "% = chance, · = not; FILE = case file")
        grid, heading = _open_grid(a, open_cards, locs, width, percent_cell, columns)
        lines += grid
    c = a.envelope
    if a.verdict.startswith("accuse"):
        lines.append("Verdict: " + a.verdict)
    else:                               # the verdict's count and best guess, with the next two
        cnt = f"{c.count:,}" if c.count is not None else f"at most {c.upper:,}"
        top = ", ".join(f"{' '.join(cs)} {_p(p)}" for cs, p in c.top[:3 if width >= NARROW else 1])
        lines.append(f"Verdict: not determined: {cnt} possible case files of "
                     f"{a.deck.triples:,}" + (f"; the most likely {top}" if top else "")
                     + (f" (estimates +-{c.error:.2g})" if c.error else ""))
    return Sheet("\n".join(lines), headings=heading, foot=1)


def _open_grid(a, cards: list[str], locs: list[str], width: int, cell, columns
               ) -> tuple[list[str], list[str]]:
    """The notebook's rows of ``cards`` in ``width`` columns: two blocks side by side, else
    one, else (too narrow for a grid) a line per card naming where it may be; and the
    grid's heading row (none for the lines)."""
    heads = [place_head(l) for l in locs]
    name = max(columns(c) for c in cards)
    wide = [max(columns(h), 4) for h in heads]

    def grid(part: list[str]) -> list[str]:
        def row(first: str, cells: list[str]) -> str:
            return " " * (name - columns(first)) + first + "".join(
                " " * (w + 1 - columns(x)) + x for x, w in zip(cells, wide))
        return [row("", heads)] + [row(c, ["·" if a.cards[c].get(l, 0.0) <= 0
                                           else cell(a.cards[c][l]) for l in locs])
                                   for c in part]

    half = (len(cards) + 1) // 2
    left, right = grid(cards[:half]), grid(cards[half:]) if len(cards) > 1 else []
    span = max(columns(r) for r in left)
    if right and span + 3 + max(columns(r) for r in right) <= width:
        right += [""] * (len(left) - len(right))
        rows = [(l + " " * (span - columns(l)) + " | " + r).rstrip()
                for l, r in zip(left, right)]
        return rows, rows[:1]
    whole = grid(cards)
    if max(columns(r) for r in whole) <= width:
        return whole, whole[:1]
    return [f"{c}: " + ", ".join(f"{place_head(l)} {cell(p)}" for l, p in a.cards[c].items()
                                 if p > 0) for c in cards], []


def replay_columns(s) -> tuple[list[str], list]:
    """``sleuth replay``: the headers and cells of one step."""
    from cli.main import count_column

    return count_column(s, "case files")


def render_change(before, after) -> list[str]:
    """``whatif``: the headline difference between two Knowledge."""
    from cli.main import count_change

    return count_change(before, after, "possible case files")
