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


def _courses(a) -> list:
    """The courses of ``a`` with their probabilities: each filling of the record's unseen
    statements (its own analysis), or ``a`` itself for a record that says everything."""
    from fractions import Fraction      # not at start-up

    return a.courses or [(Fraction(1), a)]


def _spread(pairs) -> list:
    """``(probability, value)`` pairs as ``[(value, probability)]``, the values merged,
    likeliest first (ties in the order met)."""
    out: dict = {}
    for w, v in pairs:
        out[v] = out.get(v, 0) + w
    return sorted(out.items(), key=lambda kv: -kv[1])


def _dist(probs: dict) -> str:
    """Cards with their chances: one card, several equally likely, or each its own."""
    items = sorted(probs.items(), key=lambda kv: (-kv[1], kv[0]))
    if not items:
        return "none"
    if len(items) == 1:                         # the one card it can be
        return f"{items[0][0]} (the only one left)"
    if len({p for _c, p in items}) == 1:       # all equally likely: said once
        return " ".join(str(c) for c, _p in items) + f" ({pct(items[0][1])} each)"
    return ", ".join(f"{c}: {pct(p)}" for c, p in items)


def _candidates(stage) -> str:
    """One course's candidates of a stage (its sleeve's card once found)."""
    if stage.found is not None:
        return f"{stage.found} (in the sleeve)"
    return _dist(stage.probabilities)


def _notes(stage) -> str:
    """One course's notes on a stage: forced, wrong guesses, what the all-different rules
    out."""
    out = []
    if stage.forced is not None:
        out.append(f"forced {stage.forced}")
    if stage.wrong:
        out.append("wrong " + " ".join(map(str, stage.wrong)))
    if stage.excluded_by_d2:
        out.append("all-different rules out " + " ".join(map(str, stage.excluded_by_d2)))
    return "; ".join(out)


def _stage_cells(a, name: str, kind: str) -> tuple[str, str]:
    """The status and the "candidates and notes" cells of ``name``'s ``kind``: what holds
    in every course stated plainly, the rest with its chance (the probability of the
    courses where it holds)."""
    courses = [(w, next(q for q in c.psychics if q.name == name).stages[kind])
               for w, c in _courses(a)]
    mixed = next(q for q in a.psychics if q.name == name).stages[kind]
    statuses = _spread((w, st.status) for w, st in courses)
    status = (statuses[0][0] if len(statuses) == 1
              else ", ".join(f"{s} {pct(p)}" for s, p in statuses))
    found = dict(_spread((w, st.found) for w, st in courses if st.status == "found"))
    always = len(statuses) == 1 and statuses[0][0] == "found"
    notes = []
    if always and len(found) == 1:
        cand = f"{next(iter(found))} (in the sleeve)"
    elif always:                               # found in every course, not the same card
        cand = "in the sleeve: " + _dist(found)
    else:
        cand = _dist(mixed.probabilities)
        if found:
            notes.append("found " + ", ".join(f"{c} ({pct(p)})" for c, p in found.items()))
        forced = a.deduction.kinds[kind].forced(name)
        if forced is not None:
            notes.append(f"forced {forced}")
    wrong = _spread((w, c) for w, st in courses for c in st.wrong)
    if wrong:                   # wrong in every course, then in some with their chances
        sure = " ".join(str(c) for c, p in wrong if p == 1)
        some = ", ".join(f"{c} ({pct(p)})" for c, p in wrong if p != 1)
        notes.append("wrong " + ", ".join(x for x in (sure, some) if x))
    ruled = [c for c in courses[0][1].excluded_by_d2
             if all(c in st.excluded_by_d2 for _w, st in courses)]
    if ruled:
        notes.append("all-different rules out " + " ".join(map(str, ruled)))
    return status, cand + ("; " + "; ".join(notes) if notes else "")


def _rows_by_course(a, row_of) -> tuple[list[list], bool]:
    """The rows ``row_of(course analysis)`` gives (a list of rows, each starting with its
    psychic) over the courses, merged where equal, each psychic's likeliest first, with
    their chances; and whether any row is not certain (so the chances are worth a column)."""
    pairs = [(w, tuple(r)) for w, c in _courses(a) for r in row_of(c)]
    spread = _spread(pairs)
    names = [q.name for q in a.psychics]
    spread.sort(key=lambda rp: names.index(rp[0][0]) if rp[0][0] in names else len(names))
    return [list(r) + [pct(p)] for r, p in spread], any(p != 1 for _r, p in spread)


def _chance_table(rows: list[list], uncertain: bool, headers: list[str]) -> str:
    if uncertain:
        return tabulate(rows, headers=headers + ["chance"], tablefmt=TABLEFMT)
    return tabulate([r[:-1] for r in rows], headers=headers, tablefmt=TABLEFMT)


def _clock_label(play) -> str:
    if play.phase == "setup":
        return "before hour 1"
    if play.phase == "investigation":
        return f"hour {play.hour} of 7"
    if play.phase == "epilogue":
        return "epilogue"
    return f"game over: {play.outcome.upper()} ({play.outcome_rule})"


def _course_clock(play) -> str:
    """The clock of one course among several: the outcome lower case, as one of them."""
    if play.outcome is not None:
        return f"{play.outcome} ({play.outcome_rule})"
    return f"still open ({_clock_label(play)})"


def render_analysis(a) -> str:
    """The analysis of a Mysterium record as text tables, every line within 80 columns."""
    return wrapped(_render_analysis(a, every_cell=True))


def wrapped(text: str, width: int = 79) -> str:
    """Each line of ``text`` longer than ``width`` wrapped, its rows after the first
    indented four."""
    import textwrap

    return "\n".join(w for ln in text.split("\n")
                     for w in (textwrap.wrap(ln, width, subsequent_indent="    ")
                               if len(ln) > width else [ln]))


def _render_analysis(a, every_cell: bool = False) -> str:
    """The analysis of a Mysterium record as text tables.  ``every_cell``: the note on
    unseen statements says that each cell states only what holds in every filling (true of
    this whole report; a caller that shows its own rows of one filling's state, as the
    short sheet of ``sleuth play`` does, keeps the note that says so)."""
    r = a.roster
    s = r.setup
    lines = [f"Mysterium: {s.players} players (ghost {r.ghost}), {s.difficulty}, "
             f"{s.psychics} psychics, {s.cards_per_kind} cards of each kind"
             + (f"; options {', '.join(r.options.variant())}" if r.options.variant() else ""),
             f"view: {a.view or 'public'}"]
    courses = _courses(a)
    clocks = _spread((w, _clock_label(c.play)) for w, c in courses)
    if len(clocks) == 1:
        clock = clocks[0][0]
    else:                       # the unseen turns leave the phase or the outcome open
        clock = ", ".join(f"{lab} {pct(p)}" for lab, p in
                          _spread((w, _course_clock(c.play)) for w, c in courses))
    over = all(c.play.outcome is not None for _w, c in courses)
    verdict = ("the psychics can still win" if a.can_win and not over
               else "" if over else "the psychics can no longer win (D3)")
    lines.append(clock + (f"; {verdict}" if verdict else ""))
    if a.deduction.kinds:
        lines.append(f"consistent secret assignments: {a.deduction.assignments()}")
    for n in ([a.course_note] + a.notes[1:] if a.course_note and every_cell else a.notes):
        lines.append(f"note: {n}")

    if a.deduction.kinds:
        rows = []
        for p in a.psychics:
            for kind in p.stages:
                rows.append([p.name, kind, *_stage_cells(a, p.name, kind)])
        how = ("exact probabilities" if a.exact else
               f"estimated probabilities (95 % within ±{a.error:.2f})" if a.error is not None
               else "estimated probabilities")
        lines += ["", f"Candidates: {how} under a uniform deal (D1, D2)",
                  tabulate(rows, headers=["psychic", "kind", "status", "candidates and notes"],
                           tablefmt=TABLEFMT,
                           maxcolwidths=[None, None, 14, 40] if len(courses) > 1
                           else [None, None, None, 46])]

    def clock_rows(c) -> list[list]:
        if c.play.phase not in ("setup", "investigation"):
            return []
        rows = []
        for p in c.psychics:
            flag = ("cannot finish" if p.hopeless else "at risk" if p.at_risk else "")
            if p.needed == 0:
                flag = f"finished hour {p.finished_hour}"
            rows.append([p.name, p.stage, p.needed, p.guesses_left, p.slack, p.worst_case,
                         flag])
        return rows

    rows, uncertain = _rows_by_course(a, clock_rows)
    if rows:
        lines += ["", "Clock (D3): guesses needed against guesses left"
                  + (", a row a course" if uncertain else ""),
                  _chance_table(rows, uncertain, ["psychic", "stage", "needs",
                                                  "left" if uncertain else "guesses left",
                                                  "slack", "worst" if uncertain else "worst case",
                                                  "outlook"])]
    lines += _pending(a)
    if r.clairvoyance:
        rows, uncertain = _rows_by_course(a, lambda c: [
            [p.name, p.score, p.bonus or "", p.band, p.sees, p.tokens_left]
            for p in c.psychics])
        lo, hi = r.options.clairvoyance_bands
        lines += ["", f"Clairvoyancy (D5; bands: Low < {lo} <= Intermediate < {hi} <= High)"
                  + (", a row a course" if uncertain else ""),
                  _chance_table(rows, uncertain, ["psychic", "track", "early bonus", "band",
                                                  "sees", "tokens left"])]
    visions = _spread((w, _visions(c.play)) for w, c in courses)
    if len(visions) == 1:
        lines += ["", f"Visions (D4): {visions[0][0]}"]
    else:
        lines += ["", "Visions (D4), by course: "
                  + "; ".join(f"{v} ({pct(p)})" for v, p in visions)]
    epilogues = _spread((w, "\n".join(_epilogue(c))) for w, c in courses if c.count)
    if epilogues:               # the likeliest course's, marked as such when not certain
        text, p = epilogues[0]
        head, _, body = text.partition("\n")
        if p != 1:
            head += f", in one course of the unseen turns ({pct(p)})"
        lines += ["", head, body]
        if len(epilogues) > 1:
            more = len(epilogues) - 1
            lines.append(f"(the epilogue of {more} other course{'s' if more > 1 else ''}, "
                         f"{pct(sum(q for _t, q in epilogues[1:]))} together, not shown)")
    return "\n".join(lines)


def _pending(a) -> list[str]:
    """The guesses waiting for the revelation: each with its chance of being right (and,
    where the unseen turns leave it open, the chance that it was placed and is waiting)."""
    from fractions import Fraction      # not at start-up

    placed: dict[tuple[str, str], list[Fraction]] = {}
    for w, c in _courses(a):
        for p in c.psychics:
            if p.pending:
                got = placed.setdefault((p.name, p.pending["card"]), [Fraction(0), Fraction(0)])
                got[0] += w
                got[1] += w * Fraction(p.pending["p_right"]).limit_denominator(10 ** 6)
    if not placed:
        return []
    uncertain = any(w != 1 for w, _r in placed.values())
    rows = [[n, card, pct(right / w), "agree" if right / w >= Fraction(1, 2) else "disagree",
             pct(w)] for (n, card), (w, right) in placed.items()]
    return ["", "Guesses waiting for the revelation (D5)"
            + (" (P(right) if placed; chance: that it was placed)" if uncertain else ""),
            _chance_table(rows, uncertain, ["psychic", "guess", "P(right)", "best token"])]


def _visions(play) -> str:
    crows = play.crows_left()
    deck = (f"deck {play.deck}, discard {play.discard}, ghost's hand {play.ghost_hand}, "
            f"reshuffles {play.reshuffles}" if play.visions_logged
            else "no 'receives N visions' lines logged")
    return (f"{deck}; crows used {play.crows_used}, left {crows}"
            + (" this hour" if play.roster.setup.crows_total is None else ""))


def _epilogue(a) -> list[str]:
    """The epilogue of one course: its heading, the groups, the count, the verdict."""
    play, c = a.play, a.count
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
    lines = ["Epilogue (D6, MY-21)",
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
    return lines


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
