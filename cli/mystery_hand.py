"""Rendering of a Mystery Hand analysis: the memory sheet (MH-6), candidates, verdict."""
from __future__ import annotations

from tabulate import tabulate

from solver.cards import RANKS, SUITS, Card

SUIT_HEAD = {"S": "♠ S", "H": "♥ H", "D": "♦ D", "C": "♣ C"}


def _loc_short(loc: str, target: str) -> str:
    if loc == target:
        return "MYST"
    if loc.startswith("mystery:"):
        return "m:" + loc[8:]
    if loc == "faceup":
        return "up"
    return loc


def sheet(a) -> str:
    """The 13 x 4 grid: the holder where certain, else P(card in the target mystery hand)."""
    rows = []
    for r in range(1, 14):
        row = [RANKS[r - 1]]
        for s in SUITS:
            name = repr(Card(r, s))
            where = a.certain(name)
            if where is not None:
                row.append(_loc_short(where, a.target))
            else:
                p = a.cards[name].get(a.target, 0.0)
                row.append("·" if p == 0 else f"{100 * p:.0f}%" if p >= 0.005 else "<1%")
        rows.append(row)
    return tabulate(rows, headers=[""] + [SUIT_HEAD[s] for s in SUITS], tablefmt="simple",
                    stralign="right")


def render_analysis(a) -> str:
    who = a.view if a.view else "public (spectator)"
    lines = [f"Mystery Hand — view: {who}; variant: {', '.join(a.options.names()) or 'standard'};"
             f" {a.statements} statements; active: {' '.join(a.active)}"]
    lines.append("")
    lines.append("Memory sheet (certain holder, else chance the card is in "
                 + ("the mystery hand" if a.target == "mystery" else
                    f"{a.target[8:]}'s mystery hand") + "; · = cannot be there)")
    lines.append(sheet(a))
    if "Jk" in a.cards:
        lines.append("Jokers (expected copies): " + ", ".join(
            f"{l} {p:.2f}" for l, p in sorted(a.cards["Jk"].items(), key=lambda t: -t[1])))
    c = a.mystery
    lines.append("")
    cnt = (str(c.count) if c.count is not None else
           f"between {c.lower} and {c.upper} (too many to count)" if c.lower and c.upper else
           f"at most {c.upper} (too many to count)" if c.upper else "too many to count")
    note = ("" if c.exact else
            f" (hands below estimated from sampled deals, 95% half-width {c.error:.3f})"
            if c.error else " (count by CP-SAT; no per-hand probabilities)")
    lines.append(f"Candidates for the mystery hand: {cnt}" + note)
    if c.certain:
        lines.append("Certainly in it: " + " ".join(map(repr, c.certain)))
    if c.top:
        lines.append(tabulate([[i + 1, " ".join(map(repr, cs)), f"{p:.4f}"]
                               for i, (cs, p) in enumerate(c.top)],
                              headers=["#", "mystery hand", "p"], tablefmt="simple"))
    prec = "exact" if a.exact else f"estimates, 95% half-width {a.error:.3f}"
    lines.append(f"Probabilities: {prec} (uniformly random deal, truthful players)")
    lines.append("")
    lines.append("Verdict: " + a.verdict)
    return "\n".join(lines)


def replay_columns(s) -> tuple[list[str], list]:
    """``sleuth replay``: the headers and cells of one step."""
    k = s.knowledge
    n = s.summary.get("candidates")
    cell = "-" if k is None else (str(n) if n is not None else
                                  f"<=10^{k.uncertainty:.1f}" if k.uncertainty else "many")
    if s.summary.get("determined"):
        cell += " *"
    return ["candidates"], [cell]


def render_change(before, after) -> list[str]:
    """``whatif``: the headline difference between two Knowledge."""
    b = before.summary if before is not None else {}
    a = after.summary
    out = [f"candidates for the mystery hand: {b.get('candidates', '?')} -> "
           f"{a['candidates'] if a['candidates'] is not None else 'many'}"]
    if a.get("verdict"):
        out.append(f"verdict: {a['verdict']}")
    return out
