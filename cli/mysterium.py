"""Mysterium: the analysis renderer and the ``sleuth mysterium`` commands (formatting only)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import click
from tabulate import tabulate

from cli.main import cli, emit_json, handle_errors
from solver.mysterium.options import DIFFICULTIES, PSYCHICS, setup_for

if TYPE_CHECKING:
    from fractions import Fraction

TABLEFMT = "simple"


def pct(p: Fraction) -> str:
    """A chance: "certain" and "0" only when so, nothing in between rounds to them."""
    if p == 1:
        return "certain"
    if p == 0:
        return "0"
    x = float(p) * 100
    if x < 0.1:
        return f"{x:.2g}%"
    return ">99.9%" if round(x, 1) >= 100 else f"{x:.1f}%"


def _candidates(stage) -> str:
    if stage.found is not None:
        return f"{stage.found} (in the sleeve)"
    items = sorted(stage.probabilities.items(), key=lambda kv: (-kv[1], kv[0]))
    if not items:
        return "none"
    if len(items) == 1:                         # the one card it can be
        return f"{items[0][0]} (the only one left)"
    if len({p for _c, p in items}) == 1:       # all equally likely: said once
        return " ".join(str(c) for c, _p in items) + f" ({pct(items[0][1])} each)"
    return ", ".join(f"{c}: {pct(p)}" for c, p in items)


def _notes(stage) -> str:
    out = []
    if stage.forced is not None:
        out.append(f"forced {stage.forced}")
    if stage.wrong:
        out.append("wrong " + " ".join(map(str, stage.wrong)))
    if stage.excluded_by_d2:
        out.append("all-different rules out " + " ".join(map(str, stage.excluded_by_d2)))
    return "; ".join(out)


def render_analysis(a) -> str:
    """The analysis of a Mysterium record as text tables, every line within 80 columns."""
    return wrapped(_render_analysis(a))


def wrapped(text: str, width: int = 79) -> str:
    """Each line of ``text`` longer than ``width`` wrapped, its rows after the first
    indented four."""
    import textwrap

    return "\n".join(w for ln in text.split("\n")
                     for w in (textwrap.wrap(ln, width, subsequent_indent="    ")
                               if len(ln) > width else [ln]))


def _render_analysis(a) -> str:
    """The analysis of a Mysterium record as text tables."""
    play, r = a.play, a.roster
    s = r.setup
    lines = [f"Mysterium: {s.players} players (ghost {r.ghost}), {s.difficulty}, "
             f"{s.psychics} psychics, {s.cards_per_kind} cards of each kind"
             + (f"; options {', '.join(r.options.variant())}" if r.options.variant() else ""),
             f"view: {a.view or 'public'}"]
    if play.phase == "setup":
        clock = "before hour 1"
    elif play.phase == "investigation":
        clock = f"hour {play.hour} of 7"
    elif play.phase == "epilogue":
        clock = "epilogue"
    else:
        clock = f"game over: {play.outcome.upper()} ({play.outcome_rule})"
    verdict = ("the psychics can still win" if a.can_win and play.outcome is None
               else "" if play.outcome else "the psychics can no longer win (D3)")
    lines.append(clock + (f"; {verdict}" if verdict else ""))
    if a.deduction.kinds:
        lines.append(f"consistent secret assignments: {a.deduction.assignments()}")
    for n in a.notes:
        lines.append(f"note: {n}")

    if a.deduction.kinds:
        rows = []
        for p in a.psychics:
            for kind, st in p.stages.items():
                notes = _notes(st)
                rows.append([p.name, kind, st.status,
                             _candidates(st) + (f"; {notes}" if notes else "")])
        how = ("exact probabilities" if a.exact else
               f"estimated probabilities (95 % within ±{a.error:.2f})" if a.error is not None
               else "estimated probabilities")
        lines += ["", f"Candidates: {how} under a uniform deal (D1, D2)",
                  tabulate(rows, headers=["psychic", "kind", "status", "candidates and notes"],
                           tablefmt=TABLEFMT, maxcolwidths=[None, None, None, 46])]

    if play.phase in ("setup", "investigation"):
        rows = []
        for p in a.psychics:
            flag = ("cannot finish" if p.hopeless else "at risk" if p.at_risk else "")
            if p.needed == 0:
                flag = f"finished hour {p.finished_hour}"
            rows.append([p.name, p.stage, p.needed, p.guesses_left, p.slack, p.worst_case,
                         flag])
        lines += ["", "Clock (D3): guesses needed against guesses left",
                  tabulate(rows, headers=["psychic", "stage", "needs", "guesses left",
                                          "slack", "worst case", "outlook"],
                           tablefmt=TABLEFMT)]
    pend = [(p.name, p.pending) for p in a.psychics if p.pending]
    if pend:
        from fractions import Fraction      # not at start-up

        rows = [[n, d["card"], pct(Fraction(d["p_right"]).limit_denominator(10 ** 6)),
                 d["best_token"]] for n, d in pend]
        lines += ["", "Guesses waiting for the revelation (D5)",
                  tabulate(rows, headers=["psychic", "guess", "P(right)", "best token"],
                           tablefmt=TABLEFMT)]
    if r.clairvoyance:
        rows = [[p.name, p.score, p.bonus or "", p.band, p.sees, p.tokens_left]
                for p in a.psychics]
        lo, hi = r.options.clairvoyance_bands
        lines += ["", f"Clairvoyancy (D5; bands: Low < {lo} <= Intermediate < {hi} <= High)",
                  tabulate(rows, headers=["psychic", "track", "early bonus", "band",
                                          "sees", "tokens left"], tablefmt=TABLEFMT)]
    crows = play.crows_left()
    deck = (f"deck {play.deck}, discard {play.discard}, ghost's hand {play.ghost_hand}, "
            f"reshuffles {play.reshuffles}" if play.visions_logged
            else "no 'receives N visions' lines logged")
    lines += ["", f"Visions (D4): {deck}; crows used {play.crows_used}, left {crows}"
              + (" this hour" if s.crows_total is None else "")]

    if a.count is not None:
        c = a.count
        groups = play.group_of()
        rows = []
        for n, ps in groups.items():
            g = play.groups.get(n)
            if ps is not None:
                cards = ", ".join(f"{k} {v}" for k, v in play.sleeve[ps].items())
            else:
                cards = ", ".join(f"{k} {v}" for k, v in g.cards) if g else "(random group)"
            rows.append([n, ps or "-", cards, c.tally.get(n, 0),
                         " ".join(v for v, gv in c.votes.items() if gv == n)])
        lines += ["", "Epilogue (D6, MY-21)",
                  tabulate(rows, headers=["group", "psychic", "cards", "votes", "voters"],
                           tablefmt=TABLEFMT)]
        for step in c.steps:
            lines.append(f"  {step}")
        v = play.verdict()
        if v is not None:
            lines.append(f"verdict: group {v} ({c.rule if c.verdict is not None else 'stated'})")
        else:
            lines.append(f"verdict: pending: {c.rule}")
        if c.revealer:
            lines.append(f"the votes are revealed by {c.revealer} (MY-21)")
        elif len(c.revealer_candidates) > 1:
            chooser = f"the eldest, {play.roster.eldest}," if play.roster.eldest else "the eldest"
            lines.append("the votes are revealed by " + " or ".join(c.revealer_candidates)
                         + f", tied highest on the track: {chooser} picks (MY-21)")
        if play.culprit is not None:
            lines.append(f"culprit: group {play.culprit}: the psychics "
                         f"{'WIN' if play.outcome == 'won' else 'LOSE'} (MY-22)")
    return "\n".join(lines)


@cli.group("mysterium")
def mysterium():
    """Mysterium helpers (the analysis is 'sleuth analyze RECORD').

    \b
    Examples:
      sleuth mysterium setup --players 4
      sleuth analyze samples/mysterium/five-players-won.txt
    """


@mysterium.command("setup")
@click.option("--players", type=click.IntRange(2, 7), help="Players, the ghost included "
              "(default: every count).")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), help="Default: every level.")
@click.option("--psychics-3p", type=click.Choice(["4", "2"]), default="4", show_default=True,
              help="Psychics with 3 players (A5).")
@click.option("--json", "as_json", is_flag=True, help="Machine output.")
@handle_errors(json_flag="as_json")
def setup(players, difficulty, psychics_3p, as_json):
    """The setup table: psychics, cards of each kind, tokens, crows (MY-3, MY-4, MY-6).

    \b
    Example:
      sleuth mysterium setup --players 5 --difficulty hard
    """
    counts = [players] if players else sorted(PSYCHICS)
    levels = [difficulty] if difficulty else list(DIFFICULTIES)
    setups = [setup_for(n, d, int(psychics_3p)) for n in counts for d in levels]
    if as_json:
        emit_json([s.to_json() for s in setups])
        return
    rows = [[s.players, s.difficulty, s.psychics, s.cards_per_kind, s.tokens_per_psychic or "-",
             "1 per hour" if s.crows_per_hour else f"{s.crows_total} in all"] for s in setups]
    click.echo(tabulate(rows, headers=["players", "difficulty", "psychics", "cards per kind",
                                       "tokens each", "crows"], tablefmt=TABLEFMT))


def replay_columns(s) -> tuple[list[str], list]:
    """``sleuth replay``: the headers and cells of one step."""
    ps = s.summary.get("psychics", {})
    cells = [f"{n} {p['stage'][:3]}:{p['candidates'] if p['candidates'] is not None else '-'}"
             for n, p in ps.items() if p["stage"] != "epilogue"]
    return ["assignments", "candidates (stage:count)"], \
        [s.summary.get("assignments", "-"), " ".join(cells)]


def render_change(before, after) -> list[str]:
    """``whatif``: the headline difference between two Knowledge."""
    b = before.summary if before is not None else {}
    out = []
    for name, p in after.summary["psychics"].items():
        pb = b.get("psychics", {}).get(name, {})
        if p != pb:
            out.append(f"{name}: {p['stage']}, candidates {pb.get('candidates', '?')} -> "
                       f"{p['candidates']}")
    return out
