"""Literature: the analysis sheet and ``sleuth literature claim``."""
from __future__ import annotations

import textwrap

import click
from tabulate import tabulate

from cli.main import FilePath, as_option, cli, emit_json, handle_errors
from solver.games import get_game
from solver.literature.analysis import count_word
from solver.records import read_record


def _pct(p: float) -> str:
    """A chance as a percentage: "0" only when impossible, "certain" only when certain."""
    from cli.main import percent

    return percent(p)


def _holders(d: dict[str, float], estimate: bool = False) -> str:
    """Who may hold a card and the chance of each; an ``estimate`` in whole percents
    (``<1%``, ``>99%``: its error is wider than any more digits), not ``1e-10%``."""
    from cli.main import percent_cell

    if len(d) == 1 and abs(next(iter(d.values())) - round(next(iter(d.values())))) < 1e-12 \
            and next(iter(d.values())) >= 1.0:
        (loc, v), = d.items()
        return loc + (f" x{int(v)}" if v > 1 else "")
    items = sorted(d.items(), key=lambda kv: -kv[1])
    show = percent_cell if estimate else _pct
    return " ".join(f"{l} {show(p) if p <= 1 else f'{p:.2f}'}" for l, p in items)


def error_words(error: float) -> str:
    """How an estimate's error is said: its 95 % half-width, or, at 0.5 (the figures are
    shares of too few courses for an error bar, docs/literature.md), that there is none."""
    if error >= 0.5:
        return "rough: too few courses sampled for an error bar"
    return f"95% within ±{error:.3f}"


def render_analysis(a) -> str:
    t = a.table
    out = []
    who = a.view if a.view else "the public"
    head = f"Literature, as seen by {who}"
    if a.memory != "full":
        head += " (memory: last question only, A9)"
    out.append(head + f"; {a.statements} statements.")
    if not a.exact and a.cards_exact:
        out.append("The card probabilities are exact; the team chances are estimates")
        out.append(f"({error_words(a.error)}); certainties are exact.")
    elif not a.exact:
        out.append(f"Probabilities are estimates ({error_words(a.error)});")
        out.append("certainties are exact.")
    rows = []
    for i, team in enumerate(t.teams):
        for p in team:
            h = a.hands[p]
            known = h["known"]
            rows.append([t.team_name(i), p + (" *" if p == a.turn else ""), h["count"],
                         " ".join(known) if known else "-"])
    out.append("")
    out.append(tabulate(rows, headers=["team", "player", "cards", "known to hold"]))
    if a.turn:
        out.append("(* = whose turn it is)")
    # compact: one line per half-suit, its holders on indented lines below (fits 80 columns)
    out.append("")
    out.append("Half-suits: the chance each team holds all its cards; who may hold each card")
    out.append("(a name alone = certain; '-' = out of play).")
    size = {h.name: h.size for h in a.table.halves}     # seven in a V9 high half
    for name, h in a.halves.items():
        if h.status != "open":
            c = h.claim or {}
            how = f" (line {c['line']}: {c['claimant']}'s claim {c['outcome']})" if c else ""
            out.append(f"  {name}  {h.status}{how}")
            continue
        pt = ", ".join(f"team {tn} {_pct(p)}" for tn, p in h.p_team.items())
        out.append(f"  {name}  open; all {count_word(size[name])} with {pt}")
        groups: dict[str, list[str]] = {}
        for c, d in h.holders.items():
            groups.setdefault(_holders(d, not a.exact), []).append(c)
        for hd, cs in groups.items():
            out += textwrap.wrap(f"{' '.join(cs)}: {hd}", 78, initial_indent="      ",
                                 subsequent_indent="        ")
    safe = [(n, h.safe_claim) for n, h in a.halves.items() if h.safe_claim]
    if safe:
        out.append("")
        out.append("Safe claims (certain, LIT-11(a)):")
        for n, alloc in safe:
            out.append(f"  {a.view} claims {n}: "
                       + ", ".join(f"{p} {' '.join(cs)}" for p, cs in alloc.items()))
    risky = [(n, tn, r) for n, h in a.halves.items() for tn, r in h.risk.items()
             if not r.startswith("may be lost")]
    if risky:
        out.append("")
        out.append("Claims that would be lost or may be cancelled now:" if a.view else
                   "Claims that would be lost or may be cancelled now (per team):")
        for n, tn, r in risky:
            out.append(f"  {n} by team {tn}: {r}")
    out.append("")
    score = ", ".join(f"team {k} {v}" for k, v in a.score.items())
    if a.over:
        w = a.winner
        out.append(f"Game over. Score: {score}. " + ("A tie (LIT-17)." if w == "tie"
                                                     else f"Team {w} wins (LIT-17)."))
    else:
        out.append(f"Score: {score}.")     # whose turn: the table note "Next: ..." after it
    return "\n".join(out)


def _placed(a, half: str) -> tuple[int, int]:
    """How many cards of an open half-suit have a certain holder, of how many: every copy
    counts (the 8s-and-jokers half-suit of V8 is six cards, two of them jokers)."""
    from collections import Counter

    cards = Counter(repr(c) for h in a.table.halves if h.name == half for c in h.cards)
    known = Counter(c for info in a.hands.values() for c in info["known"])
    placed = sum(n if len(a.halves[half].holders.get(c, {})) == 1 else min(n, known[c])
                 for c, n in cards.items())
    return placed, sum(cards.values())


def render_compact(a, width: int = 79) -> str:
    """The sheet for a live table (``play`` on a terminal): the players with their card
    counts and known cards, then the half-suits two to a line (cards placed for certain,
    the team likeliest to hold all six, ``*`` a safe claim), the score; ``sheet`` shows
    :func:`render_analysis`, the holders of every card.  Narrower than the table or two
    half-suits (``width`` columns): a line per player and one half-suit a line.  A
    :class:`cli.session.Sheet`: a screen too short for it scrolls the players' and the
    half-suits' rows under their headings."""
    from cli.session import Sheet, columns

    t = a.table
    score = ", ".join(f"team {k} {v}" for k, v in a.score.items())
    out = [f"Literature, as seen by {a.view or 'the public'}; score: {score}"
           + ("" if a.exact else " (estimates)")]
    rows = []
    for i, team in enumerate(t.teams):
        for p in team:
            h = a.hands[p]
            rows.append([t.team_name(i), p + (" *" if p == a.turn else ""), h["count"],
                         " ".join(h["known"]) if h["known"] else "-"])
    table = tabulate(rows, headers=["team", "player", "cards", "known to hold"],
                     tablefmt="plain")
    if max(columns(ln) for ln in table.split("\n")) <= width:
        out.append(table)
        headings = [table.split("\n")[0]]
    else:                               # a line per player: its team, count, known cards
        headings = ["player (team) cards: known to hold"]
        out += headings + [f"{p} ({team}) {n}: {known}" for team, p, n, known in rows]
    cells = []
    for name, h in a.halves.items():
        if h.status != "open":
            cells.append(f"{name:<6} {h.status.replace(':', ' by ')}")
            continue
        placed, total = _placed(a, name)
        team, p = max(h.p_team.items(), key=lambda kv: kv[1]) if h.p_team else ("-", 0.0)
        cells.append(f"{name:<6} {placed}/{total} placed, {team} {_pct(p)}"
                     + (" *" if h.safe_claim else ""))
    headings.append("Half-suits: cards placed, the team likeliest to hold all; * = safe "
                    "claim")
    out.append(headings[-1])
    w = max(columns(c) for c in cells) + 2 if cells else 0
    per = 2 if 2 + 2 * w - 2 <= width else 1
    for i in range(0, len(cells), per):
        out.append("  " + "".join(c + " " * (w - columns(c)) for c in cells[i:i + per]).rstrip())
    return Sheet("\n".join(out), headings=headings)


def render_claim(c) -> str:
    out = [str(c.claim)]
    if c.certain:
        out.append("Certainly correct: won (LIT-11(a)).")
    else:
        out.append(f"P(won) {_pct(c.p_won)}, P(cancelled) {_pct(c.p_cancelled)}, "
                   f"P(lost) {_pct(c.p_lost)}" + ("" if c.exact else " (estimates)"))
    if c.note:
        out.append(c.note)
    unsure = [p for p in c.placements if not p["certain"]]
    if unsure:
        out.append("Uncertain placements:")
        for p in unsure:
            alt = ", ".join(f"{l} {_pct(q)}" for l, q in p["elsewhere"].items())
            out.append(f"  {p['card']} with {p['holder']}: {_pct(p['p'])}"
                       + (f" (else {alt})" if alt else ""))
    return "\n".join(out)


@cli.group("literature")
def literature():
    """Literature helpers (see also the generic verbs: analyze, log, why, simulate).

    \b
    Examples:
      sleuth literature claim samples/literature/ex-a-six-players.txt \\
        "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H"
      sleuth analyze samples/literature/ex-a-six-players.txt
    """


@literature.command("claim")
@click.argument("record", type=FilePath())
@click.argument("statement", nargs=-1, required=True)
@as_option("The view")
@click.option("--json", "as_json", is_flag=True, help="Machine output.")
@handle_errors(json_flag="as_json")
def claim(record, statement, as_, as_json):
    """Would this claim, made now, be won, cancelled or lost?

    \b
    Example:
      sleuth literature claim samples/literature/ex-a-six-players.txt \\
        "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H"

    Exit status 3 when the record itself is inconsistent.
    """
    from cli.commands import resolve_view

    rec = read_record(record)
    if rec.game != "literature":
        from solver.errors import NotationError
        raise NotationError("not a Literature record", text=rec.game)
    from cli.progress import working
    from solver.literature.game import LiteratureGame   # loaded by get_game anyway

    game = get_game("literature")
    assert isinstance(game, LiteratureGame)     # the game registered as literature

    with working("weighing the claim", as_json):
        res = game.check_claim(rec, resolve_view(rec, as_), " ".join(statement))
    if as_json:
        emit_json(res.to_json())
    else:
        click.echo(render_claim(res))


def replay_columns(s) -> tuple[list[str], list]:
    """``sleuth replay``: the headers and cells of one step."""
    k = s.knowledge
    cells = []
    for name, h in s.summary.get("halves", {}).items():
        if h["status"] == "open" and (h["certain"] or h.get("safe")):
            cells.append(f"{name} {h['certain']}/{h['cards']}" + ("*" if h.get("safe") else ""))
    unc = "-" if k is None or k.uncertainty is None else (
        f"{k.uncertainty:.1f}" + ("" if k.exact else "~"))
    return ["log10 deals", "open half-suits with certain holders (* safe)"], [
        unc, " ".join(cells)]


def render_change(before, after) -> list[str]:
    """``whatif``: the headline difference between two Knowledge."""
    b = before.summary if before is not None else {}
    out = []
    for name, h in after.summary["halves"].items():
        hb = b.get("halves", {}).get(name, {})
        if h["status"] != "open":
            if hb.get("status") != h["status"]:
                out.append(f"{name}: {h['status']}")
        elif hb.get("certain") != h["certain"] or h.get("safe"):
            tag = " (safe claim)" if h.get("safe") else ""
            out.append(f"{name}: {hb.get('certain', '?')} -> {h['certain']} of {h['cards']} "
                       f"holders certain{tag}")
    return out
