"""The ``sleuth`` command line: thin, formatting only.

Exit codes everywhere: 0 ok, 2 usage or parse error (bad notation, illegal by rule; an
unusable standard stream), 3 inconsistent record, 4 an answer that did not fit its time or
work budget, 70 an internal error (a bug), 130 interrupted (Ctrl-C), 143 terminated
(SIGTERM), 129 hung up (SIGHUP: the terminal closed).  Every :class:`solver.errors.SleuthError` is turned into a
one-line message here, and so is a bug at the program's entry (:func:`main`); no traceback
reaches a user unless ``SLEUTH_DEBUG`` is set.

Every registered game (:mod:`solver.games`) may have a module ``cli.<package>`` with its
renderers (``render_analysis(analysis)``, ``replay_columns(step)``,
``render_change(before, after)``) and its own commands (a Click group added to ``cli``
when imported).  Start-up imports no solver (OR-Tools, numpy) and no command's module:
:data:`COMMANDS` lists the commands, and each module loads when one of its commands runs.
"""
from __future__ import annotations

import signal as _signal

if __name__ == "__main__":  # pragma: no cover
    # ``python -m cli.main``: run the one real module ``cli.main`` (executing this file as
    # ``__main__`` as well would load the commands twice, through a circular import)
    import importlib

    importlib.import_module("cli.main").main()
    raise SystemExit(0)

import functools
import importlib
import json
import os
import re
import sys
from pathlib import Path

import click

from solver.errors import CONFLICT_LIST, BudgetError, InconsistentError, SleuthError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

#: exit codes (docs/reliability.md)
EXIT_OK, EXIT_USAGE, EXIT_INCONSISTENT, EXIT_BUDGET = 0, 2, 3, 4
#: a bug in sleuth (sysexits' EX_SOFTWARE): one line, no traceback (SLEUTH_DEBUG=1 shows it)
EXIT_INTERNAL = 70
#: stopped by Ctrl-C (SIGINT): 128 + 2, as a shell reports a command the signal ended
EXIT_INTERRUPTED = 130
#: stopped by SIGTERM (``kill``, ``timeout``, a service manager): 128 + 15; by SIGHUP (the
#: terminal closed): 128 + 1
EXIT_TERMINATED = 143
EXIT_HANGUP = 129

#: the signals that end the program as SIGTERM does (:func:`on_sigterm`)
ENDING_SIGNALS = (_signal.SIGTERM, _signal.SIGHUP)


class Terminated(BaseException):
    """A SIGTERM (or SIGHUP: ``signum``), raised in the main thread (:func:`on_sigterm`):
    the command unwinds as on Ctrl-C -- worker processes killed and reaped, a save's
    temporary removed -- and ends with one line and :data:`EXIT_TERMINATED` (128 + the
    signal).  Not a ``KeyboardInterrupt``: ``play`` takes that for "drop the line being
    typed" and would go on."""

    def __init__(self, signum: int = _signal.SIGTERM):
        super().__init__(signum)
        self.signum = signum


#: the process that installed :func:`on_sigterm` (a worker forked from it inherits it)
_sigterm_owner = -1


def on_sigterm(signum, frame):
    """SIGTERM or SIGHUP in the program: :class:`Terminated`; in a worker process forked
    from it, the default action (it ends at once; the program reaps it)."""
    if os.getpid() != _sigterm_owner:
        _signal.signal(signum, _signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    for sig in ENDING_SIGNALS:                  # once: the clean-up is not cut short
        if _signal.getsignal(sig) is on_sigterm:
            _signal.signal(sig, _signal.SIG_IGN)
    raise Terminated(signum)


def unraisable(hook_args) -> None:
    """``sys.unraisablehook`` of the program: a Ctrl-C or SIGTERM whose exception was raised
    where Python can only print and drop it (a weakref callback of the import machinery,
    a ``__del__``) is sent again, to be raised where the command can stop on it (a moment
    later, from a thread: sent now, it would be raised inside this hook and dropped again;
    a command that ends first ends as interrupted, :func:`end`); anything else is printed
    as Python does."""
    import threading
    import time

    if issubclass(hook_args.exc_type, KeyboardInterrupt):
        signum = _signal.SIGINT
    elif issubclass(hook_args.exc_type, Terminated):
        signum = getattr(hook_args.exc_value, "signum", _signal.SIGTERM)
        _signal.signal(signum, on_sigterm)
    else:
        sys.__unraisablehook__(hook_args)
        return
    _dropped.append(signum)
    # sent only once this hook has started the thread (a signal raised while the hook still
    # waits for the thread to start would be dropped inside the hook), and a moment later
    started = threading.Event()

    def send() -> None:
        started.wait()
        time.sleep(0.01)
        os.kill(os.getpid(), signum)

    threading.Thread(target=send, daemon=True).start()
    started.set()


#: the signals :func:`unraisable` sends again (until one is handled)
_dropped: list[int] = []


#: the commands that write a record: their interrupt says it is unchanged (a save is one
#: atomic rename, so an interrupted command either saved or did not touch the file)
WRITES_RECORD = frozenset({"new", "log", "play", "serve"})


def emit_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


def quiet_stdout(stderr: bool = False) -> None:
    """Point standard output (and with ``stderr`` standard error) at ``/dev/null``, after
    a broken pipe, so that no later write or the final flush at exit can raise again."""
    import os

    for stream in (sys.stdout, sys.stderr) if stderr else (sys.stdout,):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass


def broken_pipe(e: BaseException) -> bool:
    """Whether ``e`` is a write to a pipe whose reader left (``| head``)."""
    import errno

    return isinstance(e, BrokenPipeError) or (isinstance(e, OSError)
                                              and e.errno == errno.EPIPE)


def left_pipe() -> None:
    """A reader left the pipe of standard output or error (``sleuth analyze ... 2>&1 |
    head``), maybe while an error was being said: end quietly with exit 2, whatever the
    command was doing (docs/reliability.md; Click alone would exit 1)."""
    quiet_stdout(stderr=True)
    sys.exit(EXIT_USAGE)


def handle_errors(json_flag: str | None = None):
    """Decorator: turn cardsleuth errors into messages and exit codes (2; 3 for an
    inconsistent record; 4 over budget).  With ``--json`` an inconsistency is also
    reported as the contract's ``{"consistent": false, "conflict": [...]}``.

    It is the one place that also turns the failures of file operations into messages:
    an ``OSError`` (a full disk, a read-only folder, a missing file) and a ``UnicodeError``
    (bytes that are not UTF-8) exit 2 with advice.  Programming errors are not caught."""

    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            want_json = bool(json_flag and kwargs.get(json_flag))
            try:
                return fn(*args, **kwargs)
            except InconsistentError as e:
                if want_json:
                    emit_json({"consistent": False, "conflict": e.conflict})
                say_error("sleuth: inconsistent: " + conflict_text(e, hint=True))
                sys.exit(e.exit_code)
            except BudgetError as e:
                say_error(f"sleuth: error: {e} (over the time or work budget; the record is "
                          "fine: ask about a shorter prefix or a simpler question)")
                sys.exit(e.exit_code)
            except SleuthError as e:
                say_error(f"sleuth: error: {e}" + rule_hint(e) + did_you_mean(e))
                sys.exit(e.exit_code)
            except BrokenPipeError:
                quiet_stdout()          # 'sleuth analyze ... | head': the reader left
                sys.exit(EXIT_USAGE)
            except OSError as e:        # a file operation the solver did not wrap
                stream = failed_stream(e)
                if stream is not None:  # '> /dev/full': a stream, not a file of the user's
                    quiet_stdout()
                    click.echo(f"sleuth: error: cannot write {stream} ({e.strerror or e})",
                               err=True)
                    sys.exit(EXIT_USAGE)
                from solver.errors import FileError

                err = FileError.from_os(e, e.filename, "use the file")
                click.echo(f"sleuth: error: {err}", err=True)
                sys.exit(EXIT_USAGE)
            except UnicodeEncodeError as e:     # text a stream or file name cannot hold
                click.echo(f"sleuth: error: cannot write {e.object[e.start:e.end]!r} in the "
                           f"{e.encoding} encoding", err=True)
                sys.exit(EXIT_USAGE)
            except UnicodeError as e:   # bytes that are not UTF-8 (argv, stdin, a file)
                click.echo("sleuth: error: the input is not UTF-8 text "
                           f"({getattr(e, 'reason', e)}); "
                           "save it as UTF-8", err=True)
                sys.exit(EXIT_USAGE)

        return wrapper

    return deco


def say_error(text: str) -> None:
    """``text`` on standard error; on a terminal its long lines broken at spaces to the
    terminal's width (the terminal itself would break them mid-word)."""
    try:
        cols = os.get_terminal_size(sys.stderr.fileno()).columns - 1 \
            if sys.stderr.isatty() else 0
    except (AttributeError, ValueError, OSError):
        cols = 0
    if cols >= 20:
        from cli.session import fit_width

        text = fit_width(text, cols)
    click.echo(text, err=True)


#: the columns a sheet and its notes fit (README: the sheets fit 80 columns)
SHEET_COLUMNS = 79


def echo_sheet(text: str) -> None:
    """A command's text output (a sheet, a table note under it) within
    :data:`SHEET_COLUMNS`: a table wider than that laid out a row at a time
    (:func:`cli.play_sheets.narrow_tables`), long lines broken at spaces."""
    from cli.play_sheets import narrow_tables
    from cli.session import fit_width

    click.echo(fit_width(narrow_tables(text, SHEET_COLUMNS), SHEET_COLUMNS))


def failed_stream(e: OSError) -> str | None:
    """``'standard output'`` (or ``'standard error'``) when ``e`` was raised writing to it
    (``> /dev/full``), else ``None`` (a file's error, which names the file)."""
    import errno

    tb = e.__traceback__
    while tb is not None:
        f = tb.tb_frame
        if f.f_code.co_name == "echo" and "click" in f.f_code.co_filename:
            return "standard error" if f.f_locals.get("err") else "standard output"
        tb = tb.tb_next
    if e.filename is None and e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "standard output"        # print() or a stream's own write: no file named
    return None


def rule_hint(e: SleuthError) -> str:
    """``' (see: sleuth rules MH-7)'`` for an error that names a rule, else ``''``; a
    lettered part quoted, ``(see: sleuth rules 'LIT-6(d)')``."""
    if not e.rule:
        return ""
    import shlex

    from solver.rulebook import ID, hint

    # as it is typed in a shell, which takes '(' for its own: sleuth rules 'LIT-6(d)'
    h = re.sub(rf"(?<=sleuth rules )(?:\S+ )?({ID})", lambda m: m.group(0)[:m.start(1) - m.start()]
               + shlex.quote(m.group(1)), hint(e.rule, e.game))
    return f" {h}" if h else ""


_CONFLICT = CONFLICT_LIST


def conflict_text(e: InconsistentError, hint: bool = False) -> str:
    """A contradiction a person can read, worded alike in every game: where it is
    (``FILE:LINE:COL:``, the statement completing it), one plain sentence saying why, the
    rule it rests on when one is known (``(E3)``; with ``hint``, then ``(see: sleuth rules
    E3)``), then the minimal set of conflicting lines, one a line (once)."""
    text = e.message if e.text is None else f"{e.message}: {e.text!r}"
    if _CONFLICT in text:
        head, _, rest = text.partition(_CONFLICT)
        why = e.reason or ("no deal of the cards fits them together"
                           if len(e.conflict) > 1 else "no deal of the cards fits it")
        head = head.replace("no deal fits the record",
                            f"these {len(e.conflict)} statements cannot all be true: {why}"
                            if len(e.conflict) != 1 else f"this statement cannot be true: {why}")
        items = re.split(r"; (?=line \d+: )", rest)
    else:               # a game's own sentence: it names its lines, which are then listed
        head = text
        if e.conflict and not re.search(r"\blines? \d", text):
            from solver.model.conflicts import lines_text

            head += f" ({lines_text(e.conflict)})"
        items = [f"line {n}: {e.statements[n]}" for n in e.conflict if n in e.statements]
    rule = e.rule
    if rule and not re.search(rf"(?<![\w-]){re.escape(rule)}(?![\w-])", head):
        head += f" ({rule})"
    if hint:
        head += rule_hint(e)
    return "\n".join([e.where() + head] + [f"  {it}" for it in items])


def _record_arg(ctx) -> str:
    """The RECORD being typed on the command line (for shell completion)."""
    return ctx.params.get("record") or next((a for a in ctx.args if not a.startswith("-")), "")


class FilePath(click.Path):
    """A file argument or option: completed as a path by the shell, checked only when it
    is read or written, so that a missing file or a folder gets sleuth's one-line message
    and exit 2 (``sleuth: error: cannot read the record ...``) like every other bad
    input, not Click's usage error."""

    def __init__(self, writes: bool = False):
        super().__init__(dir_okay=False)
        #: the command writes this file: ``-`` (standard input, for a record read) would
        #: be written as a file called '-' in the current folder, so it is refused
        self.writes = writes

    def convert(self, value, param, ctx):
        value = os.fsdecode(value) if isinstance(value, bytes) else value
        if self.writes and value == "-":
            self.fail("'-' is standard input or output, not a file this command can write: "
                      "name a file ('./-' for one called '-')", param, ctx)
        return value


def complete_player(ctx, param, incomplete):
    """Shell completion of ``--as``: the players whose view the record gives (all of a
    complete record's, else its ``me:``) and ``public``."""
    from solver.session import record_views

    names = record_views(_record_arg(ctx)) + ["public"]
    return [n for n in names if n.lower().startswith(incomplete.lower())]


def count_column(step, header: str) -> tuple[list[str], list]:
    """``sleuth replay``'s one column for a game whose hidden cards have candidates: their
    number, a bound, or ``-`` without an analysis; ``*`` once determined."""
    k = step.knowledge
    n = step.summary.get("candidates")
    cell = "-" if k is None else (str(n) if n is not None else
                                  f"<=10^{k.uncertainty:.1f}" if k.uncertainty else "many")
    if step.summary.get("determined"):
        cell += " *"
    return [header], [cell]


def count_change(before, after, label: str) -> list[str]:
    """``whatif``'s headline for such a game: the number of candidates before and after,
    and the verdict."""
    b = before.summary if before is not None else {}
    a = after.summary
    out = [f"{label}: {b.get('candidates', '?')} -> "
           f"{a['candidates'] if a['candidates'] is not None else 'many'}"]
    if a.get("verdict"):
        out.append(f"verdict: {a['verdict']}")
    return out


def as_option(what: str = "The view", *, public: bool = True):
    """The one ``--as PLAYER`` option of every command that takes a view (a shared option
    decorator, as sqlite-utils has them): ``what`` says what the view is for; ``public``
    whether a spectator's view may be asked for."""
    return click.option("--as", "as_", metavar="PLAYER", shell_complete=complete_player,
                        help=f"{what} (default: the record's 'me:'"
                        + ("; 'public' = a spectator" if public else "") + ").")


def complete_card(ctx, param, incomplete):
    """Shell completion of a CARD: the cards of the record's game."""
    import os

    from solver.errors import SleuthError

    path = _record_arg(ctx)
    if not os.path.exists(path):
        return []
    try:
        from solver.records import read_record
        from solver.session import vocabulary

        cards = vocabulary(read_record(path, validate=False)).cards
    except (SleuthError, OSError):
        return []
    return [c for c in cards if c.lower().startswith(incomplete.lower())]


def percent(p: float) -> str:
    """A probability as a percentage that never misleads: ``0`` only when impossible,
    ``certain`` only when certain, and nothing in between rounds to either.

    >>> [percent(x) for x in (0, 1e-05, 0.0018, 0.5, 0.996, 0.99999, 1)]
    ['0', '0.001%', '0.18%', '50%', '99.6%', '99.999%', 'certain']
    """
    if p >= 1.0:
        return "certain"
    if p <= 0.0:
        return "0"
    x = 100 * p
    if x < 1:
        return f"{x:.2g}%".replace("e-0", "e-")
    d = 0
    while round(x, d) >= 100 or (d == 0 and round(x) < 1):
        d += 1
    return f"{x:.{d}f}%"


def read_as_line(st) -> str | None:
    """``"  read as: ..."``: how a statement saved as typed is read, as the program writes
    it (names as 'players:' spells them, cards canonical, an ask of all's counts with their
    players), when that is not what was typed; else ``None``."""
    from solver.records import strip_comment

    said = str(st.event)
    return None if said == strip_comment(st.text)[0].strip() else f"  read as: {said}"


def percent_cell(p: float) -> str:
    """A chance in a sheet's cell (the terminal's and the web page's): whole percents, never
    0% or 100% when it is neither.

    >>> [percent_cell(x) for x in (0.004, 0.12, 0.996)]
    ['<1%', '12%', '>99%']
    """
    x = 100 * p
    return "<1%" if x < 1 else ">99%" if x > 99 else f"{x:.0f}%"


def probability(p: float) -> str:
    """A probability as a number that never misleads (``0``/``1`` only when so).

    >>> [probability(x) for x in (0, 1.1e-05, 0.00153, 0.25, 0.99996, 1)]
    ['0', '1.1e-05', '0.0015', '0.25', '0.99996', '1']
    """
    if p >= 1.0:
        return "1"
    if p <= 0.0:
        return "0"
    if p > 0.99:
        d = 2
        while round(p, d) >= 1:
            d += 1
        return f"{p:.{d}f}"
    return f"{p:.2g}"


def did_you_mean(e: SleuthError) -> str:
    """The corrections attached to a refused statement (:mod:`solver.didyoumean`), one a
    line, or ``''``."""
    fixes = getattr(e, "did_you_mean", None) or []
    if not fixes:
        return ""
    first, rest = fixes[0].split(" "), fixes[1:]
    alts = []
    for f in rest:     # alternatives for the same word: named, not repeated in full
        words = f.split(" ")
        diff = [i for i, (a, b) in enumerate(zip(first, words)) if a != b]
        if len(words) != len(first) or len(diff) != 1:
            return "".join(f"\n  did you mean: {f}" for f in fixes)
        alts.append(words[diff[0]].strip(",;:"))
    return f"\n  did you mean: {fixes[0]}" + (f"  (or {', '.join(alts)})" if alts else "")


def game_cli(game, layer: str = "cli"):
    """The ``cli.<package>`` module of a game, or (``layer``) its module of another package
    laid out the same way (``web.<package>``: its page pieces); ``None`` if it has none."""
    name = f"{layer}.{game.package}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def demo_game():
    """The first registered game that ships a demo record (``Game.demo``)."""
    from solver.games import REGISTRY, get_game

    return next(g for g in map(get_game, REGISTRY) if g.demo)


def demo_record() -> Path:
    g = demo_game()
    return SAMPLES / g.name / g.demo


def with_examples(fn):
    """Fill a command's help examples from the registry (``{demo}``: the demo record,
    ``{game}``: its game, ``{card}``: a card of it, ``{new}``: the arguments of ``sleuth
    new`` for a record with the demo's players, ``{statement}``: a first statement for it),
    so that they name real files and run (``tests/test_help.py`` runs them)."""
    fn.__doc__ = fn.__doc__.format(**example_fields())
    return fn


@functools.lru_cache(maxsize=None)
def example_fields() -> dict:
    """The values of the help placeholders (see :func:`with_examples`)."""
    g = demo_game()
    fields = dict(demo=f"samples/{g.name}/{g.demo}", game=g.name, card=g.demo_card,
                  new=f'{g.name} game.txt --players "Ana Ben Cleo Dev" --me Ana',
                  statement=g.examples[0] if g.examples else "", line=5)
    try:              # the header only: parsing the statements would slow every start-up
        from solver.records import parse_record

        with open(demo_record(), encoding="utf-8") as f:
            head = []
            for line in f:
                if line.strip() and not line.lstrip().startswith("#") and ":" not in \
                        line.split("#")[0].split()[0]:
                    break
                head.append(line)
        h = parse_record("".join(head), str(demo_record()), validate=False).header
    except (SleuthError, OSError, IndexError):   # no samples beside the program
        return fields
    new = f'{g.name} game.txt --players "{" ".join(h.players)}"'
    new += f" --me {h.me}" if h.me else ""
    new += f" --dealer {h.dealer}" if h.dealer else ""
    new += "".join(f" --variant {v}" for v in h.variant)
    fields["new"] = new
    fields["line"] = len(h.lines()) + 1     # the first statement line of that record
    return fields


def renderer(name: str):
    """The CLI module of the game called ``name``."""
    from solver.games import get_game

    return game_cli(get_game(name))


#: The top-level commands: name -> (the module that defines it, its line in the listing).
#: ``sleuth --help`` and shell completion read this table, so that start-up imports no
#: command's module: a module is imported when one of its commands runs or shows its own
#: help.  A game's own group (named as the game, in ``cli/<package>.py``) is listed with
#: its ``Game.commands_help``.  ``tests/test_help.py`` checks both against the modules.
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("cli.commands", "Start a record: write its header."),
    "log": ("cli.commands", "Append one statement after checking it against the record."),
    "analyze": ("cli.commands", "What is known now: the sheet, the candidates, the verdict."),
    "why": ("cli.commands", "Where CARD can be, and which statements force each certainty."),
    "simulate": ("cli.commands", "Play a random rule-following game; write its record."),
    "demo": ("cli.commands", "Analyse a bundled sample record."),
    "play": ("cli.session", "Live play: each statement is checked, saved and analysed."),
    "replay": ("cli.replay", "What became known, statement by statement."),
    "suggest": ("cli.advise", "Every legal action of a player now, ranked, with its figures."),
    "review": ("cli.advise", "Each of a player's turns against the advisor's best."),
    "rules": ("cli.rules", "The rules of the games, numbered as the messages cite them."),
    "format": ("cli.rules", "The record format: the header, then every statement of GAME."),
    "serve": ("cli.serve", "The record as a web page for a phone: tap entry, live sheet."),
}


#: stands in for a hyphen while Click wraps a usage line: it breaks lines at hyphens
#: ("twenty-\ntwo"), and a game's or an option's name is better kept whole
_HYPHEN = "\u2011"


class SleuthFormatter(click.HelpFormatter):
    """Click's help formatter, but a usage line breaks at spaces and between the choices
    of a list (``{a|b-c}``), never inside a hyphenated name (``b-c``)."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        at = len(self.buffer)
        super().write_usage(prog, args.replace("-", _HYPHEN).replace("|", "| "), prefix)
        self.buffer[at:] = [t.replace(_HYPHEN, "-").replace("| ", "|")
                            for t in self.buffer[at:]]


class SleuthContext(click.Context):
    formatter_class = SleuthFormatter


class SleuthCommand(click.Command):
    """A top-level command (``@cli.command()``): its help written by :class:`SleuthFormatter`."""

    context_class = SleuthContext


class SleuthGroup(click.Group):
    """The top-level group: its commands load on first use (:data:`COMMANDS`), its help
    is written when shown, and it refuses an argument no shell can pass (a NUL inside, from
    a program calling ``main``) before Click's own checks would raise a bare ``ValueError``
    on it (``os.stat`` of a path with a NUL)."""

    def main(self, args=None, *rest, **kwargs):
        argv = sys.argv[1:] if args is None else list(args)
        bad = next((a for a in argv if "\x00" in str(a)), None)
        try:
            if bad is not None:
                click.echo(f"sleuth: error: an argument holds a NUL character: {bad!r}",
                           err=True)
                sys.exit(EXIT_USAGE)
            return super().main(args, *rest, **kwargs)
        except OSError as e:        # a usage error said to a pipe its reader left
            if not broken_pipe(e):
                raise
            left_pipe()

    def make_context(self, info_name, args, parent=None, **extra):
        try:                        # parsing the command line, printing --help
            return super().make_context(info_name, args, parent=parent, **extra)
        except OSError as e:        # the help written to a pipe whose reader left
            if not broken_pipe(e):
                raise
            left_pipe()
        except KeyboardInterrupt:   # Click would say "Aborted!" and exit 1
            interrupted(None)
        except Terminated as e:
            interrupted(None, terminated=True, signum=e.signum)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OSError as e:        # the answer or an error's message written to a pipe
            if not broken_pipe(e):  # whose reader left: Click would exit 1
                raise
            left_pipe()
        except KeyboardInterrupt:   # Click would say "Aborted!" and exit 1
            interrupted(ctx.invoked_subcommand)
        except Terminated as e:
            interrupted(ctx.invoked_subcommand, terminated=True, signum=e.signum)

    def add_command(self, cmd, name=None):
        name = name or cmd.name
        if cmd.short_help is None:
            cmd.short_help = self.line(name)
        super().add_command(cmd, name)

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=2)
            if close:
                ctx.fail(f"No such command {name!r}; did you mean {' or '.join(close)}?")
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx):
        from solver.games import games

        own = {g.name for g in games() if g.commands_help}
        return sorted(set(COMMANDS) | own | set(self.commands))

    def get_command(self, ctx, name):
        if name not in self.commands:       # import the module that registers it
            if name in COMMANDS:
                importlib.import_module(COMMANDS[name][0])
            elif self.line(name):
                from solver.games import get_game

                game_cli(get_game(name))
        return super().get_command(ctx, name)

    @staticmethod
    def line(name: str) -> str | None:
        """A command's line in the listing, read without importing its module."""
        if name in COMMANDS:
            return COMMANDS[name][1]
        from solver.games import REGISTRY, get_game

        return get_game(name).commands_help if name in REGISTRY else None

    def listing(self, name: str, limit: int = 45) -> str:
        cmd = self.commands.get(name)
        if cmd is not None:
            return cmd.get_short_help_str(limit)
        return click.utils.make_default_short_help(self.line(name) or "", limit)

    def format_commands(self, ctx, formatter):
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        with formatter.section("Commands"):
            formatter.write_dl([(n, self.listing(n, limit)) for n in names])

    def shell_complete(self, ctx, incomplete):
        from click.shell_completion import CompletionItem

        out = [CompletionItem(n, help=self.listing(n)) for n in self.list_commands(ctx)
               if n.startswith(incomplete)]
        return out + click.Command.shell_complete(self, ctx, incomplete)   # the options

    def format_help_text(self, ctx, formatter):
        if not self._written:       # the examples and the games, when the help is shown
            self.help, self._written = _main_help(), True
        super().format_help_text(ctx, formatter)

    _written = False
    context_class = SleuthContext
    command_class = SleuthCommand


@click.group(cls=SleuthGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardsleuth")
@click.option("--no-color", "--no-colour", "no_color", is_flag=True,
              help="No colour, even on a terminal (as does setting NO_COLOR).")
@click.pass_context
def cli(ctx, no_color):
    """cardsleuth: what can be known at a card table."""
    ctx.meta["sleuth.no_color"] = no_color


def walk_commands(cmd: click.Command = cli, path: tuple[str, ...] = ()):
    """``(path, command)`` for ``cmd`` (``sleuth`` itself by default) and every command
    below it, in listing order, loading their modules (the tests that check every
    command's help, error handling and hostile arguments walk them all)."""
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            assert sub is not None      # a name the group lists
            yield from walk_commands(sub, path + (name,))


def _main_help() -> str:
    """The group's help, its examples written for the demo's game (:func:`demo_game`)."""
    from solver.games import REGISTRY

    ex = example_fields()
    return f"""cardsleuth: what can be known at a card table.

    \b
    Log a game as a record (one statement a line), then ask what follows:
      sleuth new {ex["new"]}
      sleuth log game.txt "{ex["statement"]}"
      sleuth analyze game.txt
      sleuth rules {demo_game().rule_prefix}-7
      sleuth demo

    Games: {", ".join(REGISTRY)}.

    Exit codes: 0 ok, 2 usage or parse error, 3 inconsistent record, 4 over the
    time or work budget, 70 an internal error (a bug in sleuth), 130 interrupted
    (Ctrl-C), 143 terminated (SIGTERM), 129 (SIGHUP: the terminal closed).
    Shell completion: eval "$(_SLEUTH_COMPLETE=bash_source sleuth)" (zsh_source, fish_source).
    """


def main(argv=None, *, end_process: bool | None = None):
    """Run ``sleuth`` on ``argv`` (default ``sys.argv[1:]``) and end with its exit code.

    As the program's entry point (``sleuth``, ``python -m cli.main``: no ``argv``) it ends
    the process as soon as the output is flushed, without the interpreter's teardown:
    clearing every module and freeing the counting tables costs 55-70 ms after an
    analysis (numpy alone: 35 ms), time a player waits for the prompt and nothing uses.
    Every file the commands write is closed (and synced) before they return, and their
    worker processes are joined.  Called with ``argv`` (a program, a test) it raises
    :class:`SystemExit` as Click does, unless ``end_process`` says otherwise."""
    if end_process is None:
        end_process = argv is None
    global _sigterm_owner
    if getattr(_signal.getsignal(_signal.SIGINT), "__name__", "") == "_interrupted_at_start":
        # loaded: Ctrl-C raises (the start-up handler is the cli package's)
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    for sig in ENDING_SIGNALS if end_process else ():
        if _signal.getsignal(sig) == _signal.SIG_DFL or getattr(
                _signal.getsignal(sig), "__name__", "") == "_terminated_at_start":
            _sigterm_owner = os.getpid()
            _signal.signal(sig, on_sigterm)
    if end_process:
        sys.unraisablehook = unraisable
    try:
        if end_process:
            from cli.streams import StdoutClosed, fit_streams

            try:
                fit_streams()       # closed streams, encodings without the suit symbols
            except StdoutClosed:
                click.echo("sleuth: error: standard output is closed (nowhere to write the "
                           "answer); nothing was done", err=True)
                end(EXIT_USAGE)
        cli.main(args=argv, prog_name="sleuth")     # (standalone: always SystemExit)
    except (KeyboardInterrupt, Terminated) as e:    # before or after a command (its own:
        try:                                        # SleuthGroup.invoke)
            interrupted(None, terminated=isinstance(e, Terminated),
                        signum=getattr(e, "signum", _signal.SIGTERM))
        except SystemExit as e:
            if not end_process:
                raise
            end(e.code)
    except SystemExit as e:
        if not end_process:
            raise
        end(e.code)
    except Exception as e:          # a bug: said in one line, not as a traceback
        if os.environ.get("SLEUTH_DEBUG"):
            raise
        click.echo(f"sleuth: internal error (a bug in sleuth, not in your input): {e!r}. "
                   "Please report it with the command and the record; SLEUTH_DEBUG=1 shows "
                   "the traceback", err=True)
        if not end_process:
            raise SystemExit(EXIT_INTERNAL) from None
        end(EXIT_INTERNAL)


#: the line ``play`` is checking (set while :meth:`~solver.session.Session.handle` runs on
#: it): a Ctrl-C then names it as not saved
CHECKING: list[str] = []


def interrupted(command: str | None, terminated: bool = False,
                signum: int = _signal.SIGTERM):
    """A Ctrl-C: one line, exit 130 (``; the record is unchanged`` for a command that
    writes the record and had not saved it; ``; the record is as last saved`` once it had,
    as ``play`` after a line).  A further Ctrl-C is ignored from here on, so that the line
    is written whole and the clean-up under way (workers killed) finishes.  ``terminated``:
    a SIGTERM instead (``sleuth: terminated``, exit 143), or the ``signum`` that ended it as
    SIGTERM does (SIGHUP: the same line, exit 129)."""
    _dropped.clear()
    try:
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
        for sig in ENDING_SIGNALS:
            if _signal.getsignal(sig) is on_sigterm:
                _signal.signal(sig, _signal.SIG_IGN)
    except ValueError:              # not the main thread
        pass
    tail = ""
    if command in WRITES_RECORD:
        records = sys.modules.get("solver.records")
        saved = records is not None and records.saved_in_this_process
        tail = "; the record is as last saved" if saved else "; the record is unchanged"
        if CHECKING and not saved:
            tail += f" (the line being checked was not saved: {CHECKING[0]})"
    click.echo(("sleuth: terminated" if terminated else "sleuth: interrupted") + tail,
               err=True)
    sys.exit((128 + signum) if terminated else EXIT_INTERRUPTED)


def end(code) -> None:
    """End the process now with ``code`` (as :class:`SystemExit` reads it), after flushing
    standard output and error; a reader that left the pipe ends it quietly with exit 2,
    as everywhere else (docs/reliability.md)."""
    import os

    if _dropped:            # a Ctrl-C Python dropped, not raised again before the end
        terminated = _dropped[-1] in ENDING_SIGNALS
        saved = getattr(sys.modules.get("solver.records"), "saved_in_this_process", None)
        print(("sleuth: terminated" if terminated else "sleuth: interrupted")
              + ("; the record is as last saved" if saved else ""), file=sys.stderr)
        code = 128 + _dropped[-1] if terminated else EXIT_INTERRUPTED
    if code is None:
        code = EXIT_OK
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        if sys.stdout is not None:      # (None: started with it closed)
            sys.stdout.flush()
    except BrokenPipeError:
        code = EXIT_USAGE
    except (OSError, ValueError) as e:  # a failing stream ('> /dev/full'): the answer is lost
        quiet_stdout()
        if code == EXIT_OK:
            why = getattr(e, "strerror", None) or e
            print(f"sleuth: error: cannot write standard output ({why})", file=sys.stderr)
            code = EXIT_USAGE
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)
