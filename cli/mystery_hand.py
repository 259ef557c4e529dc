"""Rendering of a Mystery Hand analysis: the memory sheet (MH-6), candidates, verdict."""
from __future__ import annotations

import textwrap

from tabulate import tabulate

from solver.cards import RANKS, SUITS, Card

SUIT_HEAD = {"S": "♠ S", "H": "♥ H", "D": "♦ D", "C": "♣ C"}


def short_place(loc: str, target: str) -> str:
    """A card's place in a sheet cell (the terminal's and the web page's): ``MYST`` for the
    target mystery hand, ``m:Ana`` for another's, ``up`` for face up, else the holder."""
    if loc == target:
        return "MYST"
    if loc.startswith("mystery:"):
        return "m:" + loc[8:]
    if loc == "faceup":
        return "up"
    return loc


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _grid(a) -> tuple[list[list[str]], list[str]]:
    """The rows and suit headers of the 13 x 4 grid: the holder where certain, else
    P(card in the target mystery hand); the suit letters alone where the terminal cannot
    show the symbols."""
    from cli.main import percent_cell
    from cli.streams import symbols_ok

    rows = []
    for r in range(1, 14):
        row = [RANKS[r - 1]]
        for s in SUITS:
            name = repr(Card(r, s))
            where = a.certain(name)
            if where is not None:
                row.append(short_place(where, a.target))
            else:
                p = a.cards[name].get(a.target, 0.0)
                row.append("·" if p <= 0 else percent_cell(p))
        rows.append(row)
    return rows, [""] + [SUIT_HEAD[s] if symbols_ok() else s for s in SUITS]


def sheet(a) -> str:
    """The 13 x 4 grid (:func:`_grid`) as the full sheet shows it."""
    rows, heads = _grid(a)
    return tabulate(rows, headers=heads, tablefmt="simple", stralign="right")


def render_analysis(a) -> str:
    who = a.view if a.view else "public (spectator)"
    lines = textwrap.wrap(
        f"Mystery Hand — view: {who}; variant: {', '.join(a.options.names()) or 'standard'};"
        f" {plural(a.statements, 'statement')}; still playing: {' '.join(a.active)}", 79)
    lines.append("")
    target = ("the mystery hand" if a.target == "mystery" else
              f"{a.target[8:]}'s mystery hand")
    lines += textwrap.wrap("Memory sheet: who certainly holds each card, else the chance it is "
                           f"in {target}.", 79)
    legend = ["MYST = certainly in " + target, "· = cannot be there"]
    grid = sheet(a)
    if " up" in grid:
        legend.append("up = face up on the table")
    if " m:" in grid:
        legend.append("m:Ana = in Ana's own mystery hand")
    lines += textwrap.wrap("(" + "; ".join(legend) + ")", 79)
    lines.append(grid)
    if "Jk" in a.cards:
        lines.append("Jokers (expected copies): " + ", ".join(
            f"{l} {p:.2f}" for l, p in sorted(a.cards["Jk"].items(), key=lambda t: -t[1])))
    c = a.mystery
    lines.append("")
    cnt = (str(c.count) if c.count is not None else
           f"between {c.lower} and {c.upper} (too many to count)" if c.lower and c.upper else
           f"at most {c.upper} (too many to count)" if c.upper else "too many to count")
    note = ("" if c.exact or c.withheld else
            f" (hands below estimated from sampled deals, 95% half-width {c.error:.3f})"
            if c.error else " (count by CP-SAT; no per-hand probabilities)")
    lines.append(f"Candidates for the mystery hand: {cnt}" + note)
    if c.certain:
        lines.append("Certainly in it: " + " ".join(map(repr, c.certain)))
    if c.withheld:
        lines.append(f"No hand stands out: in {c.samples:,} sampled deals none came up "
                     "clearly more often than the others, so none is named as the most "
                     f"likely; each is right with p <= {_p(c.p_at_most)} (95%). The sheet "
                     "gives each card's chance of being in it.")
    elif c.top and c.count != 1:
        lines += _top_lines(c)
    prec = "exact" if a.exact else f"estimates, 95% half-width {a.error:.3f}"
    if a.exact and c.withheld:                  # the sheet exact, the bound above not
        prec = "exact on the sheet, estimated for the bound on each hand above"
    elif a.exact and c.error and not c.exact:   # the sheet exact, the hands above not
        prec = "exact on the sheet, estimated for the hands above"
    if a.options.two_player == "chosen":
        lines.append(f"Probabilities: {prec}, but the players chose their mystery hands "
                     "(MH-28), so there is no uniform prior: these figures assume a random "
                     "choice")
    else:
        lines.append(f"Probabilities: {prec} (uniformly random deal, truthful players)")
    lines.append("")
    lines.append("Verdict: " + _verdict(a))
    return "\n".join(w for ln in "\n".join(lines).split("\n")     # fit 80 columns
                     for w in (textwrap.wrap(ln, 79, subsequent_indent="  ")
                               if len(ln) > 79 else [ln]))


def render_compact(a, width: int = 79) -> str:
    """The sheet for a live table (``play`` on a terminal): the 13 x 4 grid, a one-line
    legend and the verdict, in at most 18 lines of at most 79 columns; the candidate list
    and the rest of :func:`render_analysis` are for ``sheet``.  The verdict is wrapped at
    ``width`` columns where a screen has more than 79 (an 80-column terminal shows a line of
    80 on one row: a verdict of 80 takes a row of the screen, not two)."""
    target = ("the mystery hand" if a.target == "mystery" else
              f"{a.target[8:]}'s mystery hand")
    rows, heads = _grid(a)
    grid = tabulate(rows, headers=heads, tablefmt="plain", stralign="right")
    legend = [f"% = chance in {target}", "MYST = surely in it", "· = not"]
    if " up" in grid:
        legend.append("up = face up")
    if " m:" in grid:
        legend.append("m:Ana = Ana's own")
    lines = [grid] + textwrap.wrap("; ".join(legend), 79)
    if "Jk" in a.cards:
        lines.append("Jokers (expected copies): " + ", ".join(
            f"{l} {p:.2f}" for l, p in sorted(a.cards["Jk"].items(), key=lambda t: -t[1])))
    verdict = textwrap.wrap("Verdict: " + _short_verdict(a), max(79, width),
                            subsequent_indent="  ")
    from cli.session import Sheet       # a screen too short scrolls the grid, verdict kept

    return Sheet("\n".join(lines + verdict), headings=grid.split("\n")[:1], foot=len(verdict))


def _short_verdict(a) -> str:
    """The verdict in one line: the hand when determined, else how many candidates and the
    chance of the likeliest (``sheet`` lists them)."""
    c = a.mystery
    if c.answer() is not None or not c.top:
        return _verdict(a)
    many = (f"{c.count:,}" if c.count is not None else
            f"{c.lower:,}-{c.upper:,}" if c.lower and c.upper else "many")
    est = f" (estimate +-{c.error:.2g})" if c.error else ""
    return (f"not determined: {many} candidates, likeliest p = {_p(c.top[0][1])}{est} "
            "(see: sheet)")


def _p(p: float) -> str:
    """A hand's probability, three digits (so that unequal ones do not look tied)."""
    from cli.main import probability

    return f"{p:.3g}" if 0 < p < 0.99 else probability(p)


def _verdict(a) -> str:
    c = a.mystery
    ans = c.answer()
    if ans is not None:
        return f"determined: the mystery hand is {' '.join(map(repr, ans))}"
    many = (f"{c.count:,}" if c.count is not None else
            f"{c.lower:,}-{c.upper:,}" if c.lower and c.upper else "many")
    if c.withheld:      # sampled, and no hand more likely than the rest: no best guess
        return (f"not determined: {many} candidates, none more likely than the rest as "
                f"far as {c.samples:,} sampled deals tell (each p <= {_p(c.p_at_most)}); "
                "no best guess")
    if not c.top:
        return a.verdict
    top = c.top      # most likely first, ties in card order (Candidates)
    best, p = top[0]
    ties = sum(1 for _cs, q in top if abs(q - p) <= 1e-12 * max(1.0, p))
    guess = ("a best guess" if ties > 1 else "the best guess")
    est = f" (estimate +-{c.error:.2g})" if c.error else ""
    return (f"not determined: {many} candidates; {guess}, {' '.join(map(repr, best))}, is "
            f"right with p = {_p(p)}{est}")


def _top_lines(c) -> list[str]:
    """The most likely mystery hands: ties said as such, in card order."""
    from cli.main import probability

    top = c.top      # most likely first, ties in card order (Candidates)
    p0 = top[0][1]
    tied = [t for t in top if abs(t[1] - p0) <= 1e-12 * max(1.0, p0)]
    if c.count and c.exact and abs(p0 * c.count - 1) < 1e-9:
        return [f"All {c.count:,} candidates are equally likely, p = {probability(p0)} each; "
                "for example " + " ".join(map(repr, top[0][0]))]
    out = []
    if len(tied) > 1:
        more = " (perhaps more)" if len(tied) == len(top) else ""
        out.append(f"{len(tied)} most likely hands tie{more} at p = {_p(p0)} each:")
    out.append(tabulate([[i + 1, " ".join(map(repr, cs)), _p(p)]
                         for i, (cs, p) in enumerate(top)],
                        headers=["#", "mystery hand", "p"], tablefmt="simple"))
    return out


def replay_columns(s) -> tuple[list[str], list]:
    """``sleuth replay``: the headers and cells of one step."""
    from cli.main import count_column

    return count_column(s, "candidates")


def render_change(before, after) -> list[str]:
    """``whatif``: the headline difference between two Knowledge."""
    from cli.main import count_change

    return count_change(before, after, "candidates for the mystery hand")
