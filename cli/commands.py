"""The generic verbs: analyze, new, log, why, simulate, demo."""
from __future__ import annotations

import functools
import importlib
import os

import click

from cli.bounds import analysing, timeout_option, unchecked, unfinished
from cli.main import (SAMPLES, FilePath, as_option, cli, complete_card, conflict_text,
                      demo_record, echo_sheet, emit_json, handle_errors, read_as_line, renderer,
                      with_examples)
from cli.output import check_output, force_option, write_output, wrote
from cli.progress import working
from solver.errors import InconsistentError, NotationError
from solver.games import PUBLIC, Capability, game_names, get_game
from solver.records import check_option_list, name_in, read_record, start_record, write_record


class GameChoice(click.Choice):
    """The games that have ``capability``, as a Click choice (so no verb is offered for a
    game that cannot do it).  The games load when the choice is first read, not when the
    command is defined."""

    def __init__(self, capability: Capability | None = None):
        self.capability, self.case_sensitive = capability, False

    # mypy takes a cached_property for a read-only property; it is writable (Click's own
    # attribute, set in Choice.__init__, which this class does not call)
    @functools.cached_property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]  # mypy: cached_property
        return tuple(game_names(self.capability))


def capable(rec, capability: Capability, what: str):
    """The record's game, if it has ``capability`` (else a usage error)."""
    game = get_game(rec.game)
    if capability not in game.capabilities:
        raise NotationError(f"this game has no {what} (the games with one: "
                            f"{', '.join(game_names(capability))})", text=rec.game)
    return game


def resolve_view(record, as_: str | None):
    """``--as P`` if given (``public`` = the spectator's view), else the record's ``me:``."""
    if as_ is None:
        return record.header.me
    if as_.lower() == PUBLIC:
        return None
    found = name_in(as_, record.header.players)     # any case when unambiguous
    if found is None:
        raise NotationError("--as must name a player of the record or 'public' (players: "
                            + " ".join(record.header.players) + ")", text=as_)
    return found


def live_view(record, as_: str | None):
    """:func:`resolve_view` for ``play`` and ``serve``, which analyse the record after every
    statement: a player's view that the record cannot give (not ``me:``, and not made
    possible by the record as the game allows, e.g. every hand given) is refused at the
    start, as ``analyze`` refuses it, not after each statement."""
    view = resolve_view(record, as_)
    if view is None or view == record.header.me \
            or get_game(record.game).view_supported(record, view):
        return view
    me = record.header.me
    own = (f"only the record's own view ('me: {me}') or the public view can be analysed"
           if me is not None else "a spectator's record (no 'me:') is analysed from the "
           "public view only")
    raise NotationError(f"{own}: other players' views need a complete record (every hand "
                        "given with 'holds:'; the game's docs say what else it allows)",
                        text=view)


def split_variants(values, game: str | None = None) -> list[str]:
    """The options of ``--variant`` (comma-separated or repeated); with ``game``, an option
    named twice is refused, as on the header's ``variant:`` line."""
    out = []
    for v in values or ():
        out += [o.strip() for o in v.split(",") if o.strip()]
    if game is not None:
        check_option_list(game, out)
    return out


#: the default exposure section waits at most this fraction of the analysis' time more
EXPOSURE_PATIENCE = 0.2


def core_free() -> bool:
    """Whether a core is idle for the default exposure's second analysis (the last
    minute's load average at least half a core under the number of cores): on a busy
    machine that analysis would only take time from the first."""
    try:
        return os.getloadavg()[0] <= (os.cpu_count() or 1) - 0.5
    except OSError:             # no load average on this system: assume a core is free
        return True


@cli.command()
@click.argument("record", type=FilePath())
@as_option("Analyse from this player's view; another player's needs a complete record "
           "(or, in a game that allows it, the public moves and that player's own 'holds:' "
           "lines: the game's docs)")
@click.option("--json", "as_json", is_flag=True, help="Machine output per docs/record-format.md.")
@click.option("--exposure/--no-exposure", default=None,
              help="What a spectator (so every opponent) can infer about the view's hand "
              "(games with an advisor). Shown on the sheet by default for a player's view "
              "while the game is on and the game finds it cheap (not where it costs several "
              "analyses, as after an unseen statement), when a core is free for it and it takes at most a fifth longer "
              "than the analysis; "
              "in --json (key 'exposure') when asked for, as it costs a second analysis (run "
              "beside the first on a second core).")
@handle_errors(json_flag="as_json")
@with_examples
@timeout_option(report=unfinished)
def analyze(record, as_, as_json, exposure=None):
    """What is known now: the sheet, the candidates and the verdict.

    \b
    Examples:
      sleuth analyze {demo}
      sleuth analyze {demo} --as public --json
      cat game.txt | sleuth analyze -
    RECORD '-' reads the record from standard input.
    Exit status 3 (with the conflicting lines) when the record is inconsistent.
    """
    rec = read_record(record)
    game = capable(rec, Capability.ANALYZE, "analysis")
    view = resolve_view(rec, as_)
    exp = None
    advised = Capability.ADVISE in game.capabilities and view is not None
    if exposure and not advised:
        raise NotationError("--exposure needs a player's view in a game with an advisor",
                            text=rec.game if view else "public")
    # by default only where cheap: not where the game says it costs several analyses,
    # not once the game is over (a note keyed 'over:' says so), not without a free core,
    # and not waited for more than a fifth longer than the analysis takes
    over = exposure is None and advised and (not game.exposure_on_sheet(rec) or any(
        (n.key or "").startswith("over:") for n in game.table_notes(rec, view, None)))
    busy = exposure is None and advised and not as_json and not over and not core_free()
    if busy:
        exp = {"not_computed": "no core is free for it"}
    with working(f"analysing {record}", as_json), analysing(rec.game, view):
        # (a line on stderr after 1 s)
        if exposure or (exposure is None and advised and not as_json and not over
                        and not busy):
            # the second analysis runs beside the first (2 cores: the slower of the two, not
            # their sum); on the sheet's default a failing one never costs the analysis
            from solver.parallel import beside

            def renderers():        # the sheet's printers load while the exposure runs on
                renderer(rec.game)
                importlib.import_module("cli.advise")       # render_exposure

            result, exp, failed = beside(lambda: game.analyze(rec, view),
                                         lambda: game.exposure(rec, view),
                                         preload=game.solver_modules,
                                         meanwhile=None if as_json else renderers,
                                         patience=None if exposure else EXPOSURE_PATIENCE)
            if failed is not None:
                if exposure:
                    raise failed
                exp = {"not_computed": str(failed)}
        else:
            result = game.analyze(rec, view)
    if as_json:
        out = result.to_json()
        if exp is not None:
            out["exposure"] = exp
        emit_json(out)
    else:
        click.echo(renderer(rec.game).render_analysis(result))
        for note in game.table_notes(rec, view, result):     # whose turn, the result...
            echo_sheet(note.text)
        if exp is not None and "not_computed" in exp:
            click.echo("what the table knows about your hand: not computed\n  "
                       f"({exp['not_computed']}; --exposure waits for it)\n  (what any "
                       "player can infer of your hand from the record: docs/advisor.md)")
        elif exp is not None:
            from cli.advise import render_exposure

            click.echo(render_exposure(exp))



def _read_as(st) -> str:
    """:func:`cli.main.read_as_line` on a line of its own, or ``""``."""
    said = read_as_line(st)
    return "\n" + said if said else ""


def key_values(lines) -> list[tuple[str, str]]:
    """``KEY=VALUE`` lines (a header's extra fields) as stripped pairs; blank lines are
    skipped, a line without ``=`` is a NotationError quoting it."""
    pairs = []
    for kv in lines:
        if not kv.strip():
            continue
        if "=" not in kv:
            raise NotationError("expected KEY=VALUE", text=kv)
        k, v = kv.split("=", 1)
        pairs.append((k.strip(), v.strip()))
    return pairs


@cli.command()
@click.argument("game", type=GameChoice())
@click.argument("record", type=FilePath(writes=True))
@click.option("--players", required=True, help="Seating order, clockwise: 'Ana Ben Cleo'; who acts first follows the "
              "game's rules (and --dealer where it has one).")
@click.option("--me", help="Whose view the record is written from (omit for a spectator).")
@click.option("--variant", multiple=True, help="Variant options, comma-separated or repeated.")
@click.option("--dealer", help="The dealer, where the rules do not derive it.")
@click.option("--header", "extra", multiple=True, metavar="KEY=VALUE",
              help="Further header lines the game accepts (e.g. teams=\"Ana Cleo / Ben Dev\").")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@handle_errors()
@with_examples
def new(game, record, players, me, variant, dealer, extra, force):
    """Start a record: write its header.

    \b
    Example:
      sleuth new {game} game.txt --players "Ana Ben Cleo Dev" --me Ana --dealer Dev
    """
    extras = key_values(extra)
    header = start_record(record, game, players, me=me, variant=split_variants(variant, game),
                          dealer=dealer, extra=extras, force=force)
    click.echo(f"started {record}: {game} with {' '.join(header.players)}")


@cli.command()
@click.argument("record", type=FilePath(writes=True))
@click.argument("statement", nargs=-1, required=True)
@click.option("--force", is_flag=True,
              help="Save even if it contradicts the record (it must still parse and be legal).")
@click.option("--replace", metavar="N",
              help="Replace the statement on line N instead of appending (the whole record "
              "is re-checked).")
@handle_errors()
@with_examples
@timeout_option(report=unchecked)
def log(record, statement, force, replace):
    """Append one statement after checking it against the whole record.

    A statement that does not parse or breaks a rule is refused (exit 2); one that
    contradicts the record is refused with the conflicting lines (exit 3). The file is
    left untouched when refused and replaced atomically when accepted. With --replace N
    the statement on line N is replaced and the whole record checked again. The
    statements of a game: sleuth format GAME.

    \b
    Example:
      sleuth new {new}
      sleuth log game.txt "{statement}"
      sleuth log game.txt --replace {line} "{statement}   # checked"
    """
    from solver.session import (log_statement, pair_lines,  # (not for analyze)
                                replace_statement)

    if replace is not None:
        was = _comment_of(record, replace)
        with working(f"checking {record}"):      # (the line number checked there: 0-9)
            rec, old = replace_statement(record, replace, " ".join(statement), force=force)
        replace = int(replace)
        now = next(st for st in rec.statements if st.line == replace)
        # with their comments: a change of the comment alone is a change said
        click.echo(f"replaced line {replace}: {old}" + (f"   # {was}" if was else "")
                   + f"\n      with: {now.text}" + (f"   # {now.comment}" if now.comment else "")
                   + _read_as(now))
        if force:
            forced_warning(rec)
        return
    with working(f"checking {record}"):
        done = log_statement(record, " ".join(statement), force=force)
    rec = done.record
    if done.held is not None and done.error is None:      # the same claim held already
        click.echo(f"held already on line {done.line} (a comment until resolved): "
                   f"{done.held}; {done.advice or 'the line resolving it comes next'}")
        return
    if done.held is not None:
        why = ("contradicts the record" if isinstance(done.error, InconsistentError)
               else "breaks a rule")
        click.echo(f"held line {done.line}: {done.held}\n  not in the record yet: as stated "
                   f"it {why} ({done.error}); {done.advice or 'the line resolving it comes next'}"
                   ": log it and the two are checked together (the held line stays a comment "
                   "otherwise)")
        if done.dropped is not None:
            click.echo(f"note: the held line before it stays a comment: {done.dropped}",
                       err=True)
        return
    last = rec.statements[-1]
    if done.joined is not None:
        claim = rec.statements[-2]
        click.echo(f"logged the held line with its resolution, "
                   f"{pair_lines(claim.line, last.line)}: {claim.text} / {last.text}"
                   + _read_as(claim) + _read_as(last))
    else:
        # the line as saved (as typed, as play saves it), and how it was read when that
        # differs (names as 'players:' spells them, an ask of all's counts with their names)
        click.echo(f"logged line {last.line}: {last.text}" + _read_as(last))
    if done.dropped is not None:
        click.echo(f"note: the held line before it stays a comment: {done.dropped}", err=True)
    if force:
        forced_warning(rec)
    for note in table_notes(rec):        # whose turn, a missing setup line, the result
        echo_sheet(note.text)


def forced_warning(rec) -> None:
    """After ``--force``: say so when the saved record contradicts itself (it was saved
    all the same), with the conflicting lines and how to fix one."""
    from solver.errors import InconsistentError
    from solver.session import check_record

    try:
        check_record(rec)
    except InconsistentError as e:
        click.echo("warning: saved with --force, and the record contradicts itself: "
                   + conflict_text(e, hint=True) + "\n'sleuth analyze' refuses it (exit 3) until a line "
                   "is fixed: sleuth log RECORD --replace N \"<statement>\"", err=True)


def table_notes(rec) -> list:
    """The game's notes on the table that need no analysis (``sleuth log`` stays quick:
    no solver is loaded); the alerts that need one are ``play``'s and ``analyze``'s."""
    from solver.errors import SleuthError

    try:
        return get_game(rec.game).table_notes(rec, rec.header.me, None)
    except SleuthError:
        return []


@cli.command()
@click.argument("record", type=FilePath())
@click.argument("card", shell_complete=complete_card)
@as_option("The view", public=False)
@click.option("--json", "as_json", is_flag=True,
              help="Machine output: the card, the summary, each reason with its lines.")
@handle_errors(json_flag="as_json")
@with_examples
@timeout_option
def why(record, card, as_, as_json):
    """Explain where CARD can be: which statements force each certainty.

    \b
    Examples:
      sleuth why {demo} {card}
      sleuth why {demo} {card} --json
    RECORD '-' reads the record from standard input.
    """
    rec = read_record(record)
    game = capable(rec, Capability.EXPLAIN, "card explanations")
    with working(f"explaining {card}", as_json):
        exp = game.explain(rec, resolve_view(rec, as_), card)
    if as_json:
        emit_json(explanation_json(exp))
    else:
        click.echo(render_explanation(exp))


def _comment_of(path: str, line: str) -> str:
    """The comment (without ``#``) on ``line`` of the file ``path`` as it is, "" when it has
    none or the line is not there (:func:`solver.session.replace_statement` says why)."""
    from solver.records import strip_comment

    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        return strip_comment(lines[int(line) - 1].strip())[1].strip()
    except (OSError, UnicodeError, ValueError, IndexError):
        return ""


def explanation_json(exp) -> dict:
    """``why``'s machine output: the card, its summary, and each reason with the lines it
    rests on and their statements (``play --json``'s ``why`` has the same)."""
    return {"card": exp.card, "summary": exp.summary,
            "reasons": [{"fact": r.fact, "lines": list(r.lines),
                         "statements": [exp.statements.get(ln, "") for ln in r.lines]}
                        for r in exp.reasons]}


def render_explanation(exp) -> str:
    from solver.model.conflicts import lines_text      # light (CP-SAT loads on use)

    lines = [f"{exp.card}: {exp.summary}"]
    for r in exp.reasons:
        lines.append(f"  {r.fact}" + (f"  <- {lines_text(r.lines)}"
                                      if r.lines else "  <- the rules of the deal alone"))
        for ln in r.lines:
            lines.append(f"      {ln}: {exp.statements.get(ln, '')}")
    return "\n".join(lines)


@cli.command()
@click.argument("game", type=GameChoice(Capability.SIMULATE))
@click.option("--players", "n", type=int, required=True, help="Number of players.")
@click.option("--variant", multiple=True, help="Variant options, comma-separated or repeated.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (deterministic).")
@click.option("--events", type=int, default=None, help="Stop after this many events.")
@click.option("-o", "--output", type=FilePath(writes=True),
              help="Write here (default: stdout); an existing file only with --force.")
@force_option
@click.option("--miss", type=float, default=0.0, show_default=True,
              help="Hide each observation with this probability (a lossy record; the "
                   "games that have none refuse it).")
@handle_errors()
@with_examples
def simulate(game, n, variant, seed, events, output, force, miss):
    """Play a random rule-following game and write its complete record.

    \b
    Example:
      sleuth simulate {game} --players 5 --seed 7 -o game.txt
    """
    g = get_game(game)
    if miss and not g.lossy:
        raise NotationError(f"--miss: {g.title} does not simulate lossy records",
                            text=f"--miss {miss}")
    if output:
        check_output(output, force=force, what="the output file")
    rec = g.simulate(n, split_variants(variant, game), seed, events,
                     **({"miss": miss} if miss else {}))
    text = write_record(rec)
    if output:
        write_output(output, text, "the record")
        click.echo(wrote(output, f"{len(rec.statements)} statements"))
    else:
        click.echo(text, nl=False)




@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Machine output.")
@handle_errors(json_flag="as_json")
@with_examples
def demo(as_json):
    """Analyse a bundled sample record ({demo}).

    \b
    Examples:
      sleuth demo
      sleuth demo --json
    """
    DEMO = demo_record()
    if not DEMO.exists():
        raise NotationError("the bundled samples are missing (run from a source checkout)",
                            text=str(DEMO))
    rec = read_record(str(DEMO))
    result = get_game(rec.game).analyze(rec, rec.header.me)
    if as_json:
        emit_json(result.to_json())
        return
    click.echo(f"# {DEMO.relative_to(SAMPLES.parent)}")
    with open(DEMO, encoding="utf-8") as f:
        click.echo(f.read())
    click.echo(renderer(rec.game).render_analysis(result))
