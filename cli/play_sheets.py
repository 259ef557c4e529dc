"""Short sheets for ``play``'s one screen (cli.session.Screen) of the games whose CLI module
has none (Twenty-Two, Mysterium, Hand): what a player needs at the table within an 80x24
terminal, the rest on request (``sheet`` shows the whole analysis)."""
from __future__ import annotations

from tabulate import tabulate

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


def mysterium(a) -> str:
    """Mysterium: the table now (the hour, whether the psychics can still win), each
    psychic's current stage with its candidates and the clock (guesses needed against
    guesses left, D3), the guesses waiting for the revelation, the visions; from the
    epilogue on, the epilogue and the verdict as the whole sheet says them."""
    from cli.mysterium import _candidates, _notes, render_analysis

    full = render_analysis(a)
    head, _, rest = full.partition("\n\n")
    lines = [head]
    if a.count is not None:             # the epilogue: the groups, votes and verdict
        at = full.find("\nEpilogue (D6")
        return "\n".join(lines + ([full[at + 1:]] if at >= 0 else []))
    rows = []
    for p in a.psychics:
        st = p.stages.get(p.stage)
        if p.needed == 0 or st is None:
            cands, outlook = "-", (f"done hour {p.finished_hour}"
                                   if p.finished_hour else "")
        else:
            notes = _notes(st)
            cands = _candidates(st) + (f"; {notes}" if notes else "")
            outlook = "cannot finish" if p.hopeless else "at risk" if p.at_risk else ""
        rows.append([p.name, p.stage, cands, f"{p.needed}/{p.guesses_left}", outlook])
    if a.deduction.kinds:
        lines.append(tabulate(rows, headers=["psychic", "stage", "candidates now",
                                             "need/left", "outlook"],
                              tablefmt="simple", maxcolwidths=[12, None, 28, None, 13]))
        lines.append("need/left: the guesses the stage needs / the guesses left (D3)")
    for p in a.psychics:
        if p.pending:
            lines.append(f"{p.name}'s guess {p.pending['card']} waits for the revelation")
    visions = rest[rest.find("Visions (D4)"):].split("\n")     # the line and its wrap
    lines += visions[:1] + [ln for ln in visions[1:2] if ln.startswith("    ")]
    return "\n".join(lines)


def hand(a) -> str:
    """Hand: the whole sheet but for the list of unseen cards, said as how many and where
    they can be (a round's unseen cards take five rows of an 80x24 screen), and the rules
    under the tables' headings."""
    import re

    from cli.hand import render_analysis

    out: list[str] = []
    listing = False
    discards = None                     # the discards' rows shown, while in their table
    at = 0                              # where their table's rows start
    for ln in render_analysis(a).split("\n"):
        if re.fullmatch(r" *-+( +-+)*", ln):
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
                out.append(ln)
        elif not (listing and ln.startswith("  ")):   # the list's wrapped rows
            out.append(ln)
            listing = False
            if ln.startswith("discard ") and "may take it" in ln:
                discards = 0
                at = len(out)
    more = len(a.chances) - DISCARDS_SHOWN if getattr(a, "chances", None) else 0
    if more > 0:
        out.insert(at + DISCARDS_SHOWN, f"  ... {more} more discard{'' if more == 1 else 's'}"
                   " ('sheet' lists them all)")
    return "\n".join(out)


#: game name -> its short sheet
COMPACT = {"twenty-two": twenty_two, "mysterium": mysterium, "hand": hand}
