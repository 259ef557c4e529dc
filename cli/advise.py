"""The advisor's verbs: ``sleuth suggest`` and ``sleuth review`` (every game that declares
``Capability.ADVISE``; nothing here names a game).  Keys and scoring: docs/advisor.md."""
from __future__ import annotations

import click

from cli.bounds import samples_option, timeout_option
from cli.commands import capable, resolve_view
from cli.main import (FilePath, as_option, cli, conflict_text, echo_sheet, emit_json,
                      handle_errors, with_examples)
from cli.output import check_output, force_option, write_output, wrote
from solver.errors import InconsistentError, NotationError
from solver.games import Capability
from solver.model.budget import Budget
from solver.records import read_record


def player_view(rec, as_, what: str) -> str:
    """The view of ``--as`` (or the record's ``me:``), which must be a player's: the public
    view has no turns to rank or review."""
    view = resolve_view(rec, as_)
    if view is None:
        raise NotationError(f"{what} needs a player's view (--as P, or 'me:' in the record)",
                            text=as_ or "public")
    return view


def _pct(p) -> str:
    return "-" if p is None else f"{100 * p:.1f}%"


def _figure(key: str, v) -> str:
    """A game's own figure of an action as text: a ``p_`` chance in per cent, another
    number to 3 places, a table as ``key value`` pairs (chances in per cent)."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return _pct(v) if key.startswith("p_") else f"{v:.3f}"
    if isinstance(v, dict):
        return ", ".join(f"{k} {_pct(x) if isinstance(x, float) else x}" for k, x in v.items())
    return str(v)


def _field_label(key: str) -> str:
    """A game's own figure's key as the text says it on its line: ``p_yes`` -> ``P(yes)``,
    ``expected_cards`` -> ``expected cards``.

    >>> _field_label("p_yes"), _field_label("expected_cards"), _field_label("safe")
    ('P(yes)', 'expected cards', 'safe')
    """
    words = key.replace("_", " ")
    return f"P({words[2:]})" if key.startswith("p_") else words


#: the JSON keys the notes of an Advice may name, as the text table heads them
TEXT_NAMES = (("info_bits and leak_bits", "info and leak"), ("info_bits", "info"),
              ("leak_bits", "leak"),
              ("per action under 'error'", "per action in --json, key 'error'"))

#: the text's width (a terminal's default; the table wraps below it)
WIDTH = 79


def _text_note(note: str) -> str:
    """A note of the advice as the text shows it: the columns by their heads."""
    for key, head in TEXT_NAMES:
        note = note.replace(key, head)
    return note


def render_advice(adv, top: int | None = None, width: int = WIDTH) -> str:
    """The advice as text, at most ``width`` columns (79; a narrower terminal's in
    ``play``): one row of figures per action, best first, its most likely answers and the
    game's own figures on indented lines below it."""
    import textwrap

    acts = adv.actions if top is None else adv.actions[:top]
    head = f"{adv.view}: " + ("your turn" if adv.on_turn else "not your turn" + (
        " (actions as if it were)" if adv.actions else ""))
    lines = [head]
    if adv.actions:
        lines.append(f"figures: {'exact (every consistent deal)' if adv.exact else adv.method}"
                     f" over {adv.samples} deals")
    lines += textwrap.wrap(_text_note("; ".join(adv.notes)), width, initial_indent="  ",
                           subsequent_indent="  ") if adv.notes else []
    if not acts:
        if top is not None and adv.actions:
            lines.append("  (no actions with --top 0)")
        elif not adv.actions and not adv.summary.get("waiting"):    # (its note says why)
            lines.append("  no legal action")
        return "\n".join(lines)
    from wcwidth import wcswidth    # columns on screen: 李 takes two, a combining mark none

    from solver.games import get_game

    fields = get_game(adv.game).advice_fields        # the game's own figures
    cols = [f for f in fields if f.column and any(a.more.get(f.key) is not None for a in acts)]
    below = [f.key for f in fields if not f.column]
    figures = 7 + 2 + 6 + 2 + 6 + 8 * len(cols)
    room = max(width - 2 - 3 - 2 - 2 - figures, 6)     # what the action column may take
    w = min(max([max(wcswidth(a.action), 0) for a in acts] + [6]), room)

    def pad(text: str) -> str:
        return text + " " * (w - max(wcswidth(text), 0))

    def wrapped(label: str, text: str) -> list[str]:
        return textwrap.wrap(f"{label}: {text}", width, initial_indent=" " * 7,
                             subsequent_indent=" " * 9, break_on_hyphens=False)

    lines.append(f"  {'#':>3}  {'action':<{w}}  {'score':>7}  {'info':>6}  {'leak':>6}"
                 + "".join(f"  {f.column:>6}" for f in cols))
    for i, a in enumerate(acts, 1):
        row = (f"{a.score:7.3f}  {a.info_bits:6.3f}  {a.leak_bits:6.3f}"
               + "".join(f"  {_figure(f.key, a.more.get(f.key)):>6}" for f in cols))
        if wcswidth(a.action) > w:          # a long action on its own line, then its row
            lines.append(f"  {i:>3}  {a.action}")
            lines.append(f"  {'':>3}  {pad('')}  {row}")
        else:
            lines.append(f"  {i:>3}  {pad(a.action)}  {row}")
        likeliest = sorted(a.p_answers.items(), key=lambda kv: -kv[1])[:3]   # stable
        answers = "; ".join(f"{k} {_pct(v)}" for k, v in likeliest)
        if answers:
            lines += wrapped("most likely answers", answers)
        for key in below:
            if a.more.get(key) not in (None, "", {}):
                lines += wrapped(_field_label(key), _figure(key, a.more[key]))
    if top is not None and len(adv.actions) > top:
        lines.append(f"  ... {len(adv.actions) - top} more (--top)")
    return "\n".join(lines)


#: the prefix of the parameters that carry the games' advisor options (``--room`` ->
#: ``advisor_room``), apart from the command's own
ADVISOR_PARAM = "advisor_"


class AdvisorCommand(click.Command):
    """``sleuth suggest``: one option per advisor option a registered game declares
    (:attr:`solver.games.Game.advisor_options`; one option of a name several games declare,
    its help naming each), and an example of each in the help (the game's demo record, the
    option's ``example``).  Built the first time the command's parameters are read (to
    parse, show help or complete), so that loading ``cli.advise`` (``review``, ``play``,
    ``serve``) imports no game."""

    _built = False

    @property
    def params(self) -> list[click.Parameter]:
        if not self._built:
            self._built = True
            self._add_advisor_options()
        return self._params

    @params.setter
    def params(self, value: list[click.Parameter]) -> None:
        self._params = value

    def _add_advisor_options(self) -> None:
        from solver.games import Capability, games

        by_name: dict[str, list] = {}
        for g in games():
            if Capability.ADVISE in g.capabilities:
                for o in g.advisor_options:
                    by_name.setdefault(o.name, []).append((g, o))
        at = next(i for i, p in enumerate(self._params) if p.name == "timeout")
        examples = []
        for name, declared in by_name.items():
            helps = "; ".join(f"{g.title}: {o.help}" + (f" ({o.rule})" if o.rule else "")
                              for g, o in declared) + "."
            g, o = declared[0]
            self._params.insert(at, click.Option(
                [f"--{name}", ADVISOR_PARAM + name.replace("-", "_")], metavar=o.metavar,
                type=o.value_type, help=helps))
            at += 1
            if o.example and g.demo:
                examples.append(f"      sleuth suggest samples/{g.name}/{g.demo} --{name} "
                                f"{o.example}")     # indented as the docstring's
        self.help = (self.help or "").rstrip() + "".join(f"\n{e}" for e in examples)


@cli.command(cls=AdvisorCommand)
@click.argument("record", type=FilePath())
@as_option("Advise this player", public=False)
@click.option("--top", type=click.IntRange(min=1), help="Show only the N best actions.")
@samples_option("Deals drawn when the posterior is too large to enumerate (default 600)")
@click.option("--json", "as_json", is_flag=True, help="Machine output (docs/advisor.md).")
@handle_errors(json_flag="as_json")
@with_examples
@timeout_option
def suggest(record, as_, top, samples, as_json, **advisor):
    """Every legal action of a player now, ranked, with the figures behind it.

    A game's advisor may take options of its own (below: the game named in the help);
    another game's advisor refuses them.

    \b
    Examples:
      sleuth suggest {demo} --top 5
      sleuth suggest {demo} --json
    """
    from solver.games import advisor_values

    rec = read_record(record)
    game = capable(rec, Capability.ADVISE, "advisor")
    view = player_view(rec, as_, "the advisor")
    given = {k[len(ADVISOR_PARAM):].replace("_", "-"): v for k, v in advisor.items()}
    options = advisor_values(game, rec, given)
    from cli.progress import working

    from solver.session import advice_waits, read_text

    adv = advice_waits(read_text(record), rec, view)    # a held claim, the view's hand first
    if adv is None:
        with working(f"ranking {view}'s actions", as_json):     # a line on stderr after 1 s
            adv = game.suggest(rec, view, budget=Budget(samples=samples), options=options)
    if as_json:
        out = adv.to_json(top)
        emit_json({"view": out.pop("view"), "on_turn": out.pop("on_turn"),
                   "actions": out.pop("actions"), **out})
    else:
        click.echo(render_advice(adv, top))


def render_exposure(exp: dict) -> str:
    """What the table can infer about the view's hand (``analyze --exposure``)."""
    import textwrap

    def item(head, parts, sep=", "):   # wrapped to 80 columns between parts, not inside
        text = head + sep.join(p.replace(" ", "\0") for p in parts)
        return textwrap.fill(text, 80, initial_indent="  ",
                             subsequent_indent="    ").replace("\0", " ")

    lines = [f"what the table knows about {exp['view']}'s hand "
             f"({'exact' if exp.get('exact') else 'estimated'}, from the public record):"]
    if not exp.get("exact") and exp.get("error"):
        lines.append(f"  each chance within ±{exp['error']:.2g} (95 %)")
    lines.append(item("certain: ", exp["certain"] or ["nothing"], " "))
    for key in exp:             # the game's groups of cards: expected_per_<group>
        if key.startswith("expected_per_") and exp[key]:
            what = key[len("expected_per_"):].replace("_", "-")
            lines.append(item(f"expected cards per {what}: ",
                              [f"{s} {v:.2f}" for s, v in exp[key].items()]))
    likely = [(c, p) for c, p in exp["cards"].items() if p < 1.0][:8]
    if likely:
        lines.append(item("most likely other cards: ", [f"{c} {_pct(p)}" for c, p in likely]))
    return "\n".join(lines)


# ----- review -------------------------------------------------------------------------------
def render_review(rv) -> str:
    """The review as text, at most 79 columns: per turn what was done, how it scored
    against the advisor's best (a score within the tolerance of the best is as good as it,
    :func:`web.review.near_best`, and its remarks are not called mistakes), the bits it
    learned and gave away."""
    import textwrap

    from solver.advice import said
    from web.review import NEAR_ABS, NEAR_REL, kind_of

    def wrap(text: str, indent: int) -> list[str]:
        return textwrap.wrap(text, WIDTH, initial_indent=" " * indent,
                             subsequent_indent=" " * (indent + 2), break_on_hyphens=False)

    lines = [f"review of {rv.view}'s turns ({rv.game})"]
    if rv.first_safe:
        lines += wrap(f"first safe moment: step {rv.first_safe.get('step')} "
                      f"(line {rv.first_safe.get('line')}): "
                      f"{said(rv.first_safe.get('what'))}", 0)
    else:
        lines.append("never a safe moment: nothing to commit to was ever certain")
    lines += wrap("score: the advisor's ranking (higher is better; within "
                  f"{NEAR_ABS:g} or {NEAR_REL:.0%} of the best counts as the best); bits: "
                  "information, 1 bit = a fair yes-or-no answer (giving away more than was "
                  "learned is a mistake only beyond the same margin)", 0)
    for t in rv.turns:
        kind = kind_of(t)
        ts = "-" if t.taken_score is None else f"{t.taken_score:.3f}"
        if kind == "best":
            verdict = f"the advisor's best (score {ts})"
        elif kind == "near":
            verdict = f"as good as the best, {t.best} (score {ts} vs {t.best_score:.3f})"
        else:
            verdict = f"score {ts}; the advisor's best was {t.best} ({t.best_score:.3f})"
        lines += wrap(f"line {t.line}: {t.taken}: {verdict}", 2)
        ti = "-" if t.taken_info is None else f"{t.taken_info:.3f}"
        tl = "-" if t.taken_leak is None else f"{t.taken_leak:.3f}"
        lines += wrap(f"learned {ti} bits (the most any action could: {t.best_info:.3f}); "
                      f"gave away {tl}", 6)
        for m in t.mistakes:
            lines += wrap(("mistake: " if kind == "mistake" else "remark: ") + m, 6)
    for n in rv.notes:
        lines += wrap(n, 0)
    return "\n".join(lines)


def in_steps(rv, rec):
    """The review ``rv`` of ``rec`` numbered by the replay's steps (one numbering for
    ``review`` and ``replay``: step 0 is the deal, then one step per statement, a claim
    and the line resolving it one step; :func:`solver.replay.step_numbers`): the first safe
    moment and each turn at the step of its statement, the curve one point per step (the
    figure at the step's end).  The game's review counts prefixes of statements."""
    from dataclasses import replace

    from solver.replay import step_numbers, step_of_prefix

    numbers = step_numbers(rec)
    fs = dict(rv.first_safe)
    if fs.get("step") is not None:
        fs["step"] = step_of_prefix(rec, fs["step"], numbers)
    curve: dict[int, float | None] = {}
    for i, u in rv.curve:       # in order: a step's last prefix is its end
        curve[step_of_prefix(rec, i, numbers)] = u
    turns = [replace(t, step=step_of_prefix(rec, t.step, numbers)) for t in rv.turns]
    if rv.unfinished is not None:
        rv = replace(rv, unfinished=_review_step_timeup(rv.unfinished, rec),
                     unfinished_step=step_of_prefix(rec, rv.unfinished_step, numbers))
    return replace(rv, first_safe=fs, turns=turns, curve=sorted(curve.items()))


def _review_step_timeup(e, rec):
    """A review's time-out (``step N of the review: ...``, N a prefix of statements) with
    the replay's step number."""
    import re

    from solver.model.budget import TimeUp
    from solver.replay import step_of_prefix

    m = re.match(r"step (\d+) of the review: (.*)", e.what, re.S)
    if m is None:
        return e
    n = step_of_prefix(rec, int(m.group(1)))
    return TimeUp(e.seconds, f"step {n} of the review: {m.group(2)}", e.established)


@cli.command()
@click.argument("record", type=FilePath())
@as_option("Review this player's turns", public=False)
@click.option("--html", "html_file", type=FilePath(writes=True),
              help="Also write one self-contained HTML page to FILE (an existing FILE only "
                   "with --force).")
@force_option
@click.option("--json", "as_json", is_flag=True, help="Machine output.")
@handle_errors(json_flag="as_json")
@with_examples
@timeout_option
def review(record, as_, html_file, force, as_json):
    """Each of a player's turns against the advisor's best, the first safe moment, mistakes.

    Steps are numbered as 'sleuth replay' numbers them: step 0 is the deal, then one step
    per statement (a claim and the line resolving it are one step).

    \b
    Examples:
      sleuth review {demo}
    Exit status 3 when the record has a contradiction (with its lines; the text reviews the
    turns before it, --json prints the contract's {{"consistent": false, ...}}).
    """
    if html_file:   # a folder, the record itself, a file without --force: before the review
        check_output(html_file, force=force, reading=(record,), what="the page")
    rec = read_record(record)
    game = capable(rec, Capability.ADVISE, "advisor")
    view = player_view(rec, as_, "the review")
    from cli.progress import Line, on_terminal
    from solver.advice import reporting
    from solver.model.budget import TimeUp, restart

    line = Line() if on_terminal(as_json) else None
    with reporting(line and (lambda done, n: line.show(
            f"review of {view}'s turns: {done}/{n} positions analysed"))):
        try:
            rv = game.review(rec, view)
        except TimeUp as e:     # said with the replay's step number
            restart()
            raise _review_step_timeup(e, rec) from None
        finally:
            if line:
                line.clear()
    restart()       # the steps' numbers and the check: the last prefix's budget may be spent
    rv = in_steps(rv, rec)
    broken = None       # a step that could not be analysed: a contradiction, if check says so
    if any(u is None for _, u in rv.curve) and Capability.CHECK in game.capabilities:
        try:
            game.check(rec)
        except InconsistentError as e:
            broken = e
    if broken is not None and as_json:
        raise broken            # the contract's {"consistent": false, "conflict": [...]}
    if html_file:
        from web.review import review_html   # Jinja2 only for the page

        write_output(html_file, review_html(
            rv, None if broken is None else conflict_text(broken)), "the page")
    if as_json:
        emit_json(rv.to_json())
    else:
        click.echo(render_review(rv))
        if html_file:
            click.echo(wrote(html_file))
    if broken is not None:
        raise broken            # the turns before it reviewed, then its lines and status 3
    if rv.unfinished is not None:   # the turns before it reviewed, then the time-out, exit 4
        if not as_json:
            echo_sheet(f"\nUnfinished: step {rv.unfinished_step} did not finish within "
                       f"{rv.unfinished.seconds:.3g} s: the turns before it are above, the ones "
                       "after it were not reviewed (--timeout SECONDS allows more).")
        raise rv.unfinished
