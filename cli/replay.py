"""``sleuth replay``: the game statement by statement, and ``--plot`` (formatting only; the
data is :mod:`solver.replay`)."""
from __future__ import annotations

import math
import os
import sys
import textwrap

import click
from tabulate import tabulate

from cli.bounds import timeout_option
from cli.main import (FilePath, as_option, cli, conflict_text, emit_json, handle_errors, renderer,
                      with_examples)
from cli.output import check_output, force_option, write_output, wrote
from solver.errors import NotationError
from solver.games import PUBLIC, Capability, get_game
from solver.records import read_record
from solver.replay import Finding, Replay, ViewReplay, replay, replay_views

PLOT_INSTALL = "pip install -e '.[plot]'"


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _certain(new: dict[str, str], limit: int = 8, say=None) -> str:
    """The cards and where they are (``say(card, where)``: the game's own words, e.g. for
    a card of several copies; else 'card where'), the first ``limit`` of them; separated by
    '; ' when the words of one card hold a comma."""
    items = [say(c, l) if say else f"{c} {l}" for c, l in new.items()]
    sep = "; " if any("," in i for i in items) else ", "
    if len(items) > limit:
        return sep.join(items[:limit]) + f" (+{len(items) - limit})"
    return sep.join(items)


def _columns(game: str, s) -> tuple[list[str], list]:
    """The game's headers and cells of one step (``replay_columns`` of its CLI module)."""
    mod = renderer(game)
    if mod is not None:
        return mod.replay_columns(s)
    return ["uncertainty"], ["-" if s.uncertainty is None else f"{s.uncertainty:.2f}"]


def lost_certainties(vr: ViewReplay) -> list[dict[str, str]]:
    """Per step, the cards certain at the step before (with an analysis) that no longer
    are, and where they were: an unseen event (``P: ?``) of a game that moves cards may have moved
    them, so a card certain since the deal can stop being certain and become so again."""
    out: list[dict[str, str]] = []
    prev: dict[str, str] | None = None
    for s in vr.steps:
        k = s.knowledge
        if k is None:
            out.append({})
            continue
        out.append({c: l for c, l in prev.items() if c not in k.certain} if prev else {})
        prev = dict(k.certain)
    return out


def render_view(r: Replay, vr: ViewReplay) -> str:
    rows = []
    heads = None
    lost = lost_certainties(vr)
    losing = any(lost)
    mod = renderer(r.game)
    say = getattr(mod, "certain_text", None)     # the game's words for a card's places
    for s, gone in zip(vr.steps, lost):
        h, cells = _columns(r.game, s)
        heads = heads or h
        line = ",".join(map(str, s.lines[:1])) if s.index else ""
        rows.append([s.index, line, s.text] + cells
                    + ([Labelled(_certain(gone, say=say), "no longer certain")] if losing
                       else [])
                    + [Labelled(s.error, "no analysis") if s.error
                       else _certain(s.new_certain, say=say)])
    heads = heads or []
    # a game's column with nothing to say on any step is left out (an empty column reads
    # as a broken one)
    empty = {3 + j for j in range(len(heads)) if all(str(r[3 + j]) == "" for r in rows)}
    if empty:
        heads = [h for j, h in enumerate(heads) if 3 + j not in empty]
        rows = [[c for j, c in enumerate(r) if j not in empty] for r in rows]
    title = f"Replay of {r.path or 'the record'} ({r.game}), view: {vr.label}"
    if r.measure and "uncertainty" in heads:      # the column that shows it
        title += f"; uncertainty = {r.measure}"
    headers = ["step", "line", "statement"] + heads + (
        ["no longer certain"] if losing else []) + ["became certain"]
    return "\n".join(textwrap.wrap(title, WIDTH, subsequent_indent="  ")
                     + fitted_table(rows, headers, keep=3, shrink=2))


#: the width every table keeps to (a terminal's 80 columns, less the last)
WIDTH = 79


class Labelled(str):
    """A cell that says something other than its column's heading (a step's error in the
    'became certain' column): :func:`fitted_table` says it whole on a line of its own,
    under its row, after its ``label``."""
    label: str

    def __new__(cls, text: str, label: str):
        s = super().__new__(cls, text)
        s.label = label
        return s


def fitted_table(rows: list[list], headers: list[str], keep: int,
                 shrink: int | None = None) -> list[str]:
    """``rows`` as a table at most :data:`WIDTH` wide: as one when it fits; else the
    columns after the first ``keep`` that are wider than a number (text such as 'became
    certain') or empty on every row leave the table, each said on an indented line under its row when it is not
    empty and not what the row above said; so does a column with a :class:`Labelled`
    cell, said after the cell's own label. When the columns left are still too wide
    (several figures with long headings), the text of column ``shrink`` (one of the
    first ``keep``) is cut shorter, with '…', until the table fits."""
    labelled = [j for j in range(keep, len(headers)) if any(isinstance(r[j], Labelled)
                                                             for r in rows)]
    lines = tabulate(rows, headers=headers, tablefmt="simple").split("\n")
    if max(map(len, lines)) <= WIDTH and not labelled:
        return lines
    # a column empty on every row leaves first (its heading alone may be what overflows)
    moved = [j for j in range(keep, len(headers))
             if j in labelled or max((len(str(r[j])) for r in rows), default=0) > 14
             or not any(str(r[j]) for r in rows)]
    stay = [j for j in range(len(headers)) if j not in moved]
    kept = [[r[j] for j in stay] for r in rows]
    lines = tabulate(kept, headers=[headers[j] for j in stay], tablefmt="simple").split("\n")
    over = max(map(len, lines)) - WIDTH
    if over > 0 and shrink is not None and shrink in stay:
        at = stay.index(shrink)
        room = max(len(headers[shrink]),
                   max((len(str(k[at])) for k in kept), default=0) - over)
        for k in kept:
            k[at] = _short(str(k[at]), room)
        lines = tabulate(kept, headers=[headers[j] for j in stay],
                         tablefmt="simple").split("\n")
    out = lines[:2]
    before: dict[int, str] = {}
    for r, ln in zip(rows, lines[2:]):
        out.append(ln)
        for j in moved:
            said, before[j] = before.get(j), str(r[j])
            if str(r[j]) and str(r[j]) != said:
                head = r[j].label if isinstance(r[j], Labelled) else headers[j]
                out += textwrap.wrap(f"{head}: {r[j]}", WIDTH, initial_indent=" " * 10,
                                     subsequent_indent=" " * 12, break_on_hyphens=False)
    return out


def render_findings(r: Replay) -> str:
    out = []
    for label, vr in r.views.items():
        for f in vr.findings:
            out.append(f"  [{label}] {f.text}")
    for f in r.checks:
        # not ok although sure since a step (a claim out of turn, say): NOT OK
        mark = "" if f.ok is None else (" ok" if f.ok else " NOT SURE" if f.since is None
                                        else " NOT OK")
        out.append(f"  {f.kind}{mark}: {f.text}")
    return ("What happened:\n" + "\n".join(out)) if out else "Nothing to report."


def render_replay(r: Replay, primary: str) -> str:
    parts = [render_view(r, r.views[primary])]
    others = [v for k, v in r.views.items() if k != primary]
    if others:
        measure = f" = {r.measure}" if r.measure else ""
        parts.append(f"Other views (final uncertainty{measure}): " + ", ".join(
            f"{v.label} {v.steps[-1].uncertainty:.2f}"
            if v.steps and v.steps[-1].uncertainty is not None
            else f"{v.label} -" for v in others))
    parts.append(render_findings(r))
    if r.unfinished is not None:
        parts.append(render_unfinished(r))
    return "\n\n".join("\n".join(ln for line in part.split("\n") for ln in (
        textwrap.wrap(line, WIDTH, subsequent_indent=" " * (len(line) - len(line.lstrip()) + 2),
                      break_on_hyphens=False) if len(line) > WIDTH else [line]))
        for part in parts)


def render_unfinished(r: Replay) -> str:
    """The line after a replay cut short by its time budget (exit 4 follows)."""
    e = r.unfinished
    assert e is not None
    if r.unfinished_step is None:
        return (f"Unfinished: {e.what} did not finish within {e.seconds:g} s: the steps "
                "above are complete, the checks of the claims and announcements are left out.")
    before = ("the steps before it are above, the ones after it" if r.unfinished_step
              else "no step was analysed before it, and the ones after it")
    return (f"Unfinished: step {r.unfinished_step} ({r.unfinished_view}) did not finish "
            f"within {e.seconds:g} s: {before} were not analysed (--timeout SECONDS allows "
            "more; --upto N stops earlier).")


# ----- the plot -----------------------------------------------------------------------------
def first_sure(vr: ViewReplay) -> Finding | None:
    """The view's first moment that holds from its own step on (``since`` is its step: it
    could announce, a claim became safe, a card became certain): the plot's star."""
    return next((f for f in vr.findings if f.ok and f.since == f.step), None)


def checked(r: Replay) -> list[Finding]:
    """The commitments checked from the mover's own view (``ok`` said: sure or not): a
    line each on the plot; those whose view is not in the record are not drawn."""
    return [f for f in r.checks if f.ok is not None]


def plot_replay(r: Replay, path: str) -> None:
    """Uncertainty against statements, one line per view, on one chart (PNG), written
    atomically (:func:`cli.output.write_output`)."""
    try:
        import matplotlib
    except ImportError:
        click.echo(f"sleuth: error: --plot needs matplotlib: {PLOT_INSTALL}", err=True)
        sys.exit(2)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    for label, vr in r.views.items():
        xs = [s.index for s in vr.steps]
        ys = [s.uncertainty if s.uncertainty is not None else math.nan for s in vr.steps]
        style = "--" if label == PUBLIC else "-"
        ax.plot(xs, ys, style, marker=".", markersize=3, linewidth=1.4, label=label)
        det = first_sure(vr)
        if det is not None and det.step < len(ys):
            ax.plot([det.step], [ys[det.step]], "*", markersize=12, color="black")
    for f in checked(r):
        ax.axvline(f.step, color="red" if f.ok is False else "grey", linestyle=":",
                   linewidth=1)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))      # steps are whole
    ax.set_xlabel("statement (step)")
    ax.set_ylabel(r.measure or "uncertainty")
    name = os.path.basename(r.path) if r.path else "record"
    # the file name as it is: '$' or '_' in it is not TeX (parse_math off)
    ax.set_title(f"{r.game}: {name}", parse_math=False)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    # the format of the name's extension, else PNG (and the file is the name given:
    # Matplotlib would add '.png' to a name without an extension)
    ext = os.path.splitext(path)[1][1:].lower()
    import io

    buf = io.BytesIO()          # drawn whole first: a failure leaves no truncated file
    fig.savefig(buf, dpi=100,
                format=ext if ext in fig.canvas.get_supported_filetypes() else "png")
    plt.close(fig)
    write_output(path, buf.getvalue(), "the plot")


# ----- the command --------------------------------------------------------------------------
@cli.command("replay")
@click.argument("record", type=FilePath())
@as_option("The view to replay")
@click.option("--all-views", is_flag=True,
              help="Replay every view the record supports (all players of a complete record).")
@click.option("--json", "as_json", is_flag=True, help="Machine output: every step of every view.")
@click.option("--plot", type=FilePath(writes=True), metavar="FILE.png",
              help="Draw the uncertainty of every view against the statements (needs "
                   "matplotlib: " + PLOT_INSTALL + "); an existing FILE only with --force.")
@force_option
@click.option("--upto", type=click.IntRange(0), default=None, metavar="N",
              help="Stop after the first N statements (steps) after the deal.")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, metavar="N",
              help="Parallel processes: one per view, or one view's steps shared among them "
              "(default: the number of CPUs; the same figures).")
@handle_errors(json_flag="as_json")
@with_examples
@timeout_option
def replay_cmd(record, as_, all_views, as_json, plot, force, upto, jobs):
    """What became known, statement by statement.

    After each statement: the view's uncertainty (the game's measure: candidates for
    hidden hands, consistent deals, secret assignments...), the game's headline figures,
    the cards that became certain; then the moments worth telling: the first moment the
    view could announce or claim safely, and every announcement or claim checked from the
    mover's own view (where the record holds it).

    \b
    Examples:
      sleuth replay {demo}
      sleuth replay {demo} --json
      sleuth replay {demo} --upto 8 --plot story.png
    RECORD '-' reads the record from standard input.
    Exit status 2 for a bad record or view (or --plot without matplotlib); 3 when the record
    has a contradiction (saved with 'force'): the steps up to it are still shown; 4 when a
    step did not finish within --timeout: the steps before it are still shown (with --json
    under "unfinished" the step, its view and the seconds).
    """
    from cli.commands import resolve_view

    rec = read_record(record)
    if Capability.REPLAY not in get_game(rec.game).capabilities:
        raise NotationError("this game has no replay", text=rec.game)
    if plot and not get_game(rec.game).measure:
        raise NotationError("this game's replay has no uncertainty to plot", text=rec.game)
    if plot:        # a folder, the record itself, a file without --force: before the replay
        check_output(plot, force=force, reading=(record,), what="the plot")
    if plot:
        try:
            import matplotlib  # noqa: F401  (fail before the long replay)
        except ImportError:
            click.echo(f"sleuth: error: --plot needs matplotlib: {PLOT_INSTALL}", err=True)
            sys.exit(2)
    view = resolve_view(rec, as_)
    views = [view]
    if plot or all_views:
        views = replay_views(rec)
        if view in views:
            views.remove(view)
        views.insert(0, view)
    from cli.progress import Line, on_terminal

    line = Line() if on_terminal(as_json) else None
    progress = None
    if line is not None:
        def progress(v, i, n):
            line.show(f"replaying {v or PUBLIC}: step {i}/{n}")
    # the table, the plot and the findings need no step's headline figures; the JSON has them
    try:
        r = replay(rec, views, jobs=jobs or os.cpu_count() or 1, upto=upto, progress=progress,
                   detail=as_json)
    finally:
        if line is not None:
            line.clear()
    if plot:
        plot_replay(r, plot)
    primary = r.views[view if view is not None else PUBLIC]
    broken = next((s for s in primary.steps if s.error), None)
    said = broken.error if broken is not None else None
    if broken is not None:      # worded as every contradiction is (cli.main.conflict_text)
        from solver.replay import step_conflict

        e = step_conflict(rec, primary.view, broken.index)
        if e is not None:
            said = conflict_text(e, hint=True)
            if not as_json:     # the table's cell: the sentence (the JSON keeps its text)
                broken.error = conflict_text(e).split("\n")[0]
    if as_json:
        out = r.to_json()
        if plot:
            out["plot"] = plot
        emit_json(out)
    else:
        from cli.session import colourize, use_colour

        click.echo(colourize(render_replay(r, primary.label), use_colour()))
        if plot:
            click.echo("\n" + wrote(plot))
    if broken is not None:       # the story up to the contradiction, then exit status 3
        click.echo(f"sleuth: inconsistent from step {broken.index}: {said}", err=True)
        sys.exit(3)
    if r.unfinished is not None:    # the steps done, then the time-out's line and exit 4
        raise r.unfinished
