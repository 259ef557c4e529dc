"""Rendering of a Twenty-Two analysis (solver.twenty_two.analysis): the table now, unseen
cards (I1), where they can be, each opponent's hand, my legal plays with the chance of ending
with the highest last card (I6), and the scores (TT-13, TT-16)."""
from __future__ import annotations

from tabulate import tabulate

from solver.twenty_two.ranking import rank_label

TURN_WORDS = {"lead": "to lead", "follow": "to play", "exchange": "to exchange (TT-8)",
              "showdown": "showdown: everybody reveals their last card (TT-13)",
              "deal": "to deal", "draw": "to draw for the deal (TT-4/TT-14)", "over": ""}


def _cards(cards) -> str:
    return " ".join(repr(c) for c in cards) if cards else "-"


def _play(cards) -> str:
    """A play of the trick so far: its cards, ``?`` when it was not seen."""
    return "? (not seen)" if cards is None else _cards(cards)


def _size(x) -> str:
    """A hand's size: a whole number, or the expected one that unseen plays leave
    (``5.83``)."""
    return str(int(round(x))) if abs(x - round(x)) < 5e-7 else f"{x:.2f}"


def _num(x: float) -> str:
    if x == 0:
        return "·"
    if abs(x - round(x)) < 5e-7:
        return str(int(round(x)))
    return f"{x:.2f}"


def _risk(r) -> str:
    """A chance that never misleads: 0 and 1 only when exact and so; an estimate of 0 or
    1 says it is below or above what the samples can tell."""
    from cli.main import probability

    if r is None:
        return "n/a"
    if r.exact:
        p = (probability(r.p) if r.p <= 0 or r.p > 0.99 else
             f"{r.p:.3f}" if r.p >= 0.001 else f"{r.p:.2g}")
        return f"{p} (exact)"
    if r.p <= 0:
        return f"< {max(r.error, 0.01):.2f} (estimate)"
    if r.p >= 1:
        return f"> {1 - max(r.error, 0.01):.2f} (estimate)"
    return f"{r.p:.2f} ± {r.error:.2f}"


def _header(a) -> list[str]:
    who = a.view if a.view else "public (spectator)"
    variant = ", ".join(a.options.names()) or "standard"
    lines = [f"Twenty-Two ({variant}) — view: {who}; {a.statements} statement"
             + ("" if a.statements == 1 else "s")]
    if a.deal_number:
        lines.append(f"Hand {a.deal_number}: dealt by {a.dealer}, "
                     f"{', '.join(f'{p} {_size(a.sizes.get(p, 0))}' for p in a.receivers)} card(s); "
                     f"stock {a.sizes.get('stock', 0)}, discards {a.sizes.get('discards', 0)}")
    if a.over:
        lines.append("Game over: " + " and ".join(a.winners)
                     + (" win" if len(a.winners) > 1 else " wins") + " (TT-17)")
    elif a.turn in ("showdown",):
        lines.append("Now: " + TURN_WORDS["showdown"])
    elif a.to_act:
        then = f" (then {', '.join(a.to_act[1:])} may)" if a.turn == "exchange" and len(
            a.to_act) > 1 else ""
        who_acts = a.to_act[0] if a.turn == "exchange" else " or ".join(a.to_act)
        lines.append(f"Now: {who_acts} {TURN_WORDS.get(a.turn, a.turn)}{then}")
    if a.trick:
        lines.append("Trick so far: " + "; ".join(f"{p} {_play(c)}" for p, c in a.trick)
                     + (f"  (to beat or tie: {_cards(a.target)}"
                        + (", the lead, TT-V1(a))" if a.options.rasmussen else ", TT-10/11)")
                        if a.target else ""))
    return lines


def _where_table(a) -> str:
    locs = [p for p in a.receivers if p != a.view and a.sizes.get(p)] + ["stock", "discards"]
    # cards played unseen: out of play, which ones not known
    if any(w.get("out") for w in a.unseen_where.values()):
        locs.append("out")
    rows = []
    for r in list(range(2, 15)) + [0]:
        lab = rank_label(r)
        if lab not in a.unseen:
            continue
        row = [lab, a.unseen[lab]]
        for loc in locs:
            row.append(_num(a.unseen_where.get(lab, {}).get(loc, 0.0)))
        rows.append(row)
    return tabulate(rows, headers=["rank", "unseen"] + locs, tablefmt="simple",
                    stralign="right", disable_numparse=True)


def render_analysis(a) -> str:
    """The sheet, every line within 80 columns."""
    import textwrap

    text = _render_analysis(a)
    return "\n".join(w for ln in text.split("\n")
                     for w in (textwrap.wrap(ln, 79, subsequent_indent="    ")
                               if len(ln) > 79 else [ln]))


def _render_analysis(a) -> str:
    lines = _header(a)
    if a.deal_number:
        lines.append("")
        if a.hand is not None:
            lines.append(f"Your hand: {_cards(a.hand)}")
        unseen_n = sum(a.unseen.values())
        lines.append(f"Unseen cards (I1): {unseen_n} — "
                     + ", ".join(f"{lab}×{k}" for lab, k in a.unseen.items()))
        prec = ("exact" if a.exact else
                f"estimates, 95% half-width {a.error:.3f}")
        lines.append("")
        lines.append(f"Where they can be (expected copies of each rank; {prec}; · = impossible):")
        lines.append(_where_table(a))
        if any(h.size for h in a.holdings.values()):
            lines.append("")
            lines.append("Opponents' hands:" if a.view else "Hands:")
            for p, h in a.holdings.items():
                txt = f"  {p} ({_size(h.size)} card{'s' if h.size != 1 else ''})"
                if h.size:
                    if h.certain:
                        txt += ": certainly " + " ".join(h.certain_text()) + ";"
                    txt += " possible ranks " + " ".join(h.possible_ranks)
                lines.append(txt)
                for f in h.facts:
                    lines.append(f"      {f}")
        if a.plays:
            lines.append("")
            lines.append("Your legal plays, safest first (P = chance your last card ends up "
                         "the highest,")
            lines.append("so you lose, TT-13/TT-14):")
            ranked = sorted(a.plays, key=lambda o: (o.risk is None,
                                                    o.risk.p if o.risk is not None else 0))
            rows = [[_cards(o.cards), o.kind, _risk(o.risk)] for o in ranked]
            lines.append(tabulate(rows, headers=["play", "kind", "P(highest last)"],
                                  tablefmt="simple", disable_numparse=True))
            if a.plays_evaluated < len(a.plays):
                lines.append(f"  (P computed for the first {a.plays_evaluated} plays)")
            if any(o.risk is not None and not o.risk.exact for o in a.plays):
                n = next(o.risk.samples for o in a.plays if o.risk and not o.risk.exact)
                lines.append(f"  estimates: the hand played out on {n} uniform consistent "
                             "deals; players keep their lowest allowed last card "
                             "and otherwise choose at random among sensible plays")
        elif a.risk_now is not None:
            lines.append("")
            lines.append("Chance your last card ends up the highest (TT-13/TT-14): "
                         + _risk(a.risk_now)
                         + ("" if a.risk_now.exact else
                            " (the hand played out on sampled deals; see 'sleuth analyze "
                            "--json' for the assumption)"))
    for n in a.notes:
        lines.append(f"Note: {n}")
    lines.append("")
    end = ("; the first to reach it ends the game, end=first-to-22"
           if a.options.end == "first-to-22" else "")
    split = "; tied losers share the value, tie-score=split" if a.options.tie_score == "split" else ""
    lines.append(f"Scores (out at {a.limit}{', paper scoring' if a.options.rasmussen else ''}"
                 f"{end}{split}):")
    rows = []
    for p in a.players:
        s = a.scores[p]
        status = "out" if s["eliminated"] else ("winner" if p in a.winners else "in")
        rows.append([p, " ".join(s["cards"]) or "-", s["total"], s["to_go"], status])
    lines.append(tabulate(rows, headers=["player", "scoring cards", "total", "to go", "status"],
                          tablefmt="simple", disable_numparse=True))
    if a.closest:
        top = a.scores[a.closest[0]]
        lines.append("Closest to elimination: " + ", ".join(a.closest)
                     + f" ({top['total']}, {top['to_go']} to go)")
    return "\n".join(lines)


def replay_columns(s) -> tuple[list[str], list]:
    """``sleuth replay``: the headers and cells of one step."""
    k = s.knowledge
    return ["entropy (bits)", "unseen"], ["-" if k is None else f"{k.uncertainty:.1f}",
                                   s.summary.get("unseen", "-")]


def render_change(before, after) -> list[str]:
    """``whatif``: the headline difference between two Knowledge."""
    return ["totals: " + ", ".join(f"{k} {v}" for k, v in after.summary["totals"].items())]
