"""``sleuth play``: the live session at the table (formatting only; the state machine is
:mod:`solver.session`)."""
from __future__ import annotations

import json
import os
import re
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

import click

from cli.bounds import timeout_option
from cli.main import (FilePath, as_option, cli, conflict_text, did_you_mean, handle_errors,
                      rule_hint, with_examples)
from cli.progress import working
from solver.errors import InconsistentError, SleuthError
from solver.records import printable, split_lines
from solver.session import Outcome, Session, held_statement, pair_lines, undo_lines

if TYPE_CHECKING:
    from prompt_toolkit.application import Application

    from solver.model.budget import Deadline
    from solver.staged import Certainties

# ----- colour -----------------------------------------------------------------------------
_CARD = re.compile(r"(?<![\w*])(10|[2-9AJQKT])([SHDC])(?![\w])")
_SUIT_SYMBOL = re.compile(r"([♥♦♠♣])")
RED = {"H", "D", "♥", "♦"}


def use_colour(stream=None) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR`` set (https://no-color.org),
    ``TERM=dumb`` or ``sleuth --no-color``."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.meta.get("sleuth.no_color"):
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    stream = stream or sys.stdout
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _paint(text: str, suit: str) -> str:
    return click.style(text, fg="red") if suit in RED else click.style(text, bold=True)


def colourize(text: str, colour: bool) -> str:
    """Hearts and diamonds in red, spades and clubs in bold, when ``colour``.

    >>> colourize("AS 10H", False)
    'AS 10H'
    >>> colourize("10H", True) == click.style("10H", fg="red")
    True
    """
    if not colour:
        return text

    def card(m):
        return _paint(m.group(0), m.group(2))

    def suit(m):
        return _paint(m.group(1), m.group(1))

    def strong(m):
        return click.style(STRONG, fg="yellow", bold=True) + m.group(1)

    text = _SUIT_SYMBOL.sub(suit, _CARD.sub(card, text))
    return re.sub(rf"(?m)^{re.escape(STRONG)}( )", strong, text)


# ----- rendering ----------------------------------------------------------------------------
def render_analysis(analysis, game: str) -> str:
    """The game's own sheet (``render_analysis`` of its CLI module), or its JSON when the
    game has no CLI module."""
    from cli.main import renderer

    mod = renderer(game)
    if mod is not None:
        return mod.render_analysis(analysis)
    return json.dumps(analysis.to_json(), indent=1, ensure_ascii=False)


def render_compact(analysis, game: str, cols: int | None = None) -> str | None:
    """The game's short sheet for a live table (``render_compact`` of its CLI module, else
    :mod:`cli.play_sheets`), or ``None`` when the game has none.  ``cols``: the screen's
    columns, for a sheet that takes ``width`` (a narrower layout on a narrow terminal)."""
    import inspect

    from cli.main import renderer
    from cli.play_sheets import COMPACT, narrow_tables

    mod = renderer(game)
    fn: Callable[..., str] | None = getattr(mod, "render_compact", None) \
        if mod is not None else None
    fn = fn or COMPACT.get(game)
    if fn is None:
        return None
    if cols is None:
        return fn(analysis)
    text = fn(analysis, width=cols) if "width" in inspect.signature(fn).parameters \
        else fn(analysis)
    narrow = narrow_tables(text, cols)
    if narrow == text or not isinstance(text, Sheet):
        return text if narrow == text else narrow
    return Sheet(narrow, text.headings, text.foot)   # its foot (the verdict) is no table


#: the rows a compact sheet leaves free for the rest of a statement's output: the line
#: typed, the 'saved' line, the notes, the hint and the prompt
SPARE_ROWS = 7


def sheet_text(session: Session, compact: bool = False, rows: int | None = None, *,
               sheet: bool = True, every_note: bool = False) -> str:
    """The sheet and its notes as one text (see :func:`sheet_parts`), a note longer than
    the sheet's lines wrapped as they are (:data:`SHEET_COLUMNS`)."""
    text, notes = sheet_parts(session, compact, rows, sheet=sheet, every_note=every_note)
    notes = [fit_width(n, SHEET_COLUMNS) for n in notes]
    return "\n".join([t for t in [text, *notes] if t])


#: the columns of the games' sheets (an 80-column terminal's, less one)
SHEET_COLUMNS = 79


def sheet_parts(session: Session, compact: bool = False, rows: int | None = None, *,
                sheet: bool = True, every_note: bool = False,
                cols: int | None = None) -> tuple[str, list[str]]:
    """The analysis of the session's record (or why there is none), then the table notes
    (whose turn, what is missing, an alert the first time it holds).

    ``compact``: the game's short sheet (:func:`render_compact`) where it has one, unless
    the terminal has ``rows`` enough for the whole analysis with the notes.  ``sheet``:
    false for the notes alone; ``every_note``: every note that holds now, an alert as long
    as it holds (a :class:`Screen` shows them all each time); ``cols``: the screen's
    columns, for the short sheet's layout."""
    analysis = None
    text = ""
    try:
        analysis = session.analyze()
        if sheet:
            text = render_analysis(analysis, session.record.game)
            if compact and (rows is None or text.count("\n") + 1 + SPARE_ROWS > rows):
                text = render_compact(analysis, session.record.game, cols) or text
    except InconsistentError as e:
        return "", [f"inconsistent: {conflict_text(e, hint=True)}", "(the record has a "
                    "contradiction: 'edit N' the "
                    "wrong line, or 'undo' if it is the last)"]
    except SleuthError as e:
        text = f"no analysis: {e}" if sheet else ""
    if every_note:
        try:
            notes = session.game.table_notes(session.record, session.view, analysis)
        except SleuthError:
            notes = []
    else:
        notes = session.table_notes(analysis)
    return text, [note_text(n) for n in notes]


#: the mark of a note worth highlighting (an alert); coloured on a terminal
STRONG = ">>"


def note_text(note) -> str:
    return f"{STRONG} {note.text}" if note.strong else note.text


def notes_text(session: Session) -> list[str]:
    """Without the sheet (``--no-sheet``): the table notes that are news -- an alert the
    first time it holds, the others when their text changes (:meth:`Session.new_notes`)."""
    return [note_text(n) for n in session.new_notes()]


def after_change(session: Session, show_sheet: bool | str | None) -> list[str]:
    """What follows a change of the record: the sheet (with its notes), else the news.
    ``show_sheet``: ``True`` the whole analysis, ``"compact"`` the short sheet (the whole
    one when the terminal is tall enough), ``False`` only the news, ``None`` nothing (the
    :class:`Screen` shows the sheet in its own place)."""
    if show_sheet is None:
        return []
    if show_sheet == "compact":
        return [sheet_text(session, compact=True, rows=_terminal_rows())]
    if show_sheet:
        return ["", sheet_text(session)]
    return notes_text(session)


def fit_width(text: str, width: int) -> str:
    r"""``text`` with every line longer than ``width`` wrapped at spaces, its continuation
    indented two more than the line (a terminal would break it mid-word).

    Widths are columns on the screen: a CJK name (``李``) takes two, a combining mark none.

    >>> fit_width("refused: it is Cleo's turn, not Ben's", 20)
    "refused: it is\n  Cleo's turn, not\n  Ben's"
    >>> fit_width("李李 李李李", 8)
    '李李\n  李李李'
    """
    out = []
    for ln in text.split("\n"):
        if columns(ln) <= width:
            out.append(ln)
            continue
        lead = " " * (len(ln) - len(ln.lstrip(" ")))
        out += _wrapped(ln, width, lead + "  ")
    return "\n".join(out)


def columns(text: str) -> int:
    """The columns ``text`` takes on a terminal (a character it cannot print counts one)."""
    from wcwidth import wcwidth

    return sum(max(wcwidth(ch), 0) if ch >= " " else 1 for ch in text)


def _wrapped(line: str, width: int, indent: str) -> list[str]:
    """``line`` broken at spaces into lines of at most ``width`` columns, each after the
    first starting with ``indent`` (at most half a line); a word wider than a line is
    broken where it must."""
    import re

    indent = indent[:width // 2]
    out: list[str] = []
    cur, used = "", 0
    for chunk in re.findall(r"\s+|\S+", line):
        w = columns(chunk)
        if chunk.isspace():
            if cur.strip():             # spaces inside a line; none at a line's start
                cur, used = cur + chunk, used + w
            elif not out:               # the line's own indentation
                cur = chunk[:width // 2]
                used = len(cur)
            continue
        if used + w > width and cur.strip():
            out.append(cur.rstrip())
            cur, used = indent, columns(indent)
        while used + w > width and w > 1:       # wider than any line: cut it
            room = width - used
            part, pw = "", 0
            for ch in chunk:
                cw = columns(ch)
                if pw + cw > room and part:
                    break
                part, pw = part + ch, pw + cw
            out.append(cur + part)
            chunk, w = chunk[len(part):], w - pw
            cur, used = indent, columns(indent)
        cur, used = cur + chunk, used + w
    if cur.strip():
        out.append(cur.rstrip())
    return out or [line]


def _terminal_columns() -> int | None:
    """The columns of the terminal on standard output, less one (a line as wide as the
    terminal makes some terminals add an empty line)."""
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns - 1
    except (AttributeError, ValueError, OSError):
        return None


def _terminal_rows() -> int | None:
    """The rows of the terminal on standard output (``None`` when it is not one)."""
    try:
        if not sys.stdout.isatty():
            return None
        return os.get_terminal_size(sys.stdout.fileno()).lines
    except (AttributeError, ValueError, OSError):
        return None


#: the heading of a refusal's lines in conflict (:func:`render_conflict`)
CONFLICT_HEAD = "  the statements that conflict:"


def render_conflict(conflict: list[tuple[int, str]], new_line: int | None = None) -> list[str]:
    out = [CONFLICT_HEAD]
    for ln, text in conflict:
        mark = "  <- this statement" if new_line is not None and ln == new_line else ""
        out.append(f"    line {ln}: {text}{mark}")
    return out


def fix_advice(conflict: list[tuple[int, str]], new_line: int) -> list[str]:
    """What to do about a statement refused as a contradiction: it was never saved, so
    'undo' would remove a good line; the fix is to force it, to retype it, or to edit the
    earlier line that is wrong."""
    earlier = [ln for ln, _text in conflict if ln != new_line]
    out = ["  not saved; 'force' saves it anyway, or retype it if it was mistyped"]
    if len(earlier) == 1:
        out.append(f"  if line {earlier[0]} is the mistake: 'edit {earlier[0]} <statement>'")
    elif earlier:
        nums = ", ".join(map(str, earlier[:-1])) + f" or {earlier[-1]}"
        out.append(f"  if line {nums} is the mistake: 'edit N <statement>' (N its number)")
    return out


def render_knowledge_change(before, after, game: str) -> list[str]:
    """The headline difference between two :class:`solver.games.Knowledge` (the game's
    ``render_change``), then the uncertainty."""
    from cli.main import renderer

    mod = renderer(game)
    out = list(mod.render_change(before, after)) if mod is not None else []
    if before is not None and before.uncertainty is not None and after.uncertainty is not None:
        out.append(f"uncertainty (log10 / bits): {before.uncertainty:.2f} -> "
                   f"{after.uncertainty:.2f}")
    return out


def read_as(session: Session, line: int | None, typed: str | None) -> list[str]:
    """How the statement saved on ``line`` was read, as the program writes it (names as
    'players:' spells them, cards canonical, an ask of all's counts with their players),
    when that is not what was typed (:func:`cli.main.read_as_line`); else nothing."""
    from cli.main import read_as_line

    st = next((st for st in session.record.statements if st.line == line), None)
    if st is None or not typed or " / " in typed:       # a held statement with its pair
        return []
    said = read_as_line(st)
    return [said] if said else []


def render_outcome(o: Outcome, session: Session, show_sheet: bool | str | None,
                   keys: str = "y", fit: tuple[int, int] | None = None) -> str:
    """What ``play`` says after one line; ``keys``: what accepts a refusal's one
    correction; ``fit``: the columns and rows of the screen a ``whatif`` page is shown on
    (its hypothetical sheet fitted to the columns; a taller page scrolls, :class:`Screen`)."""
    from cli.commands import render_explanation

    k = o.kind
    out: list[str] = []
    if o.reloaded:
        out.append(f"(reloaded {session.path}: it changed on disk)")
    if o.message and k not in ("help", "pending"):
        out.append(o.message)
    if k == "accepted":
        where = pair_lines(o.first, o.line) if o.first and o.line else f"line {o.line}"
        out.append(f"saved {where}: {o.statement}" + ("  (forced)" if o.forced else ""))
        out += read_as(session, o.line, o.statement)
        if o.forced and o.conflict:
            out.append("  the record is now inconsistent ('undo' removes it):")
            out += render_conflict(o.conflict, o.line)[1:]
        out += after_change(session, show_sheet)
    elif k == "refused":
        said = str(o.error)
        if o.conflict and isinstance(o.error, InconsistentError):
            said = conflict_text(o.error).split("\n")[0]   # the lines follow, once
        assert o.error is not None      # a refusal says why
        fix = did_you_mean(o.error)
        if fix and session.correction is not None:
            fix += f"  ({keys}: log it)"
        # a contradiction's rule is in its sentence ("(E1)"); on a narrow screen its rows go
        # to the lines and their fix rather than to the shell command that shows the rule
        narrow = fit is not None and fit[0] < 60
        hint = "" if narrow and o.conflict and isinstance(o.error, InconsistentError) \
            else rule_hint(o.error)
        out.append(("whatif refused: " if o.hypothetical else "refused: ") + said
                   + hint + fix)
        if o.conflict:
            new_line = o.line if o.line is not None else len(split_lines(session.text)) + 1
            out += render_conflict(o.conflict, new_line)
            if o.line is not None:
                out.append("  the record is unchanged")
            elif o.statement and not o.hypothetical:
                out += fix_advice(o.conflict, new_line)
        elif o.line is not None:
            out.append("  the record is unchanged")
        elif o.statement and not o.hypothetical:
            out.append("  not saved")
    elif k == "pending":
        if o.error is None:             # held already (another writer held it first)
            out.append(f"held: {o.message}")
        else:
            said = str(o.error)
            if o.conflict and isinstance(o.error, InconsistentError):
                said = conflict_text(o.error, hint=True).split("\n")[0]   # lines follow
            out.append(f"held: {said}")
            if o.conflict:
                out += render_conflict(o.conflict)
            out.append("  " + o.message)
    elif k == "undone":
        out += undo_lines(o)
        out.append("  ('redo' does it again)" if o.undid in ("edit", "delete")
                   else "  ('redo' puts it back)")
        out += after_change(session, show_sheet)
    elif k == "redone":
        out += undo_lines(o)
        out += after_change(session, show_sheet)
    elif k in ("edited", "deleted"):
        for ln, text in o.removed:
            out.append(f"line {ln} was: {text}")
        out.append(f"line {o.line} is now: {o.statement}" if k == "edited"
                   else f"deleted line {o.line} (the lines after it move up one)")
        if k == "edited":
            out += read_as(session, o.line, o.statement)
        out += after_change(session, show_sheet)
    elif k == "whatif":
        out.append(f"what if: {o.statement}   (not saved)")
        out += ["  " + l for l in render_knowledge_change(o.before, o.after, session.record.game)]
        if o.new_certain:
            out.append("  would become certain: " + ", ".join(
                f"{c} -> {l}" for c, l in sorted(o.new_certain.items())))
        else:
            out.append("  no card would become certain")
        if show_sheet:
            try:
                a = session.analyze(o.record)
                sheet = ((show_sheet == "compact"
                          and render_compact(a, session.record.game, fit[0] if fit else None))
                         or render_analysis(a, session.record.game))
                head, end = ["", "--- what if (hypothetical: not saved) ---"], \
                    "--- end of what if ---"
                if fit is not None:     # on the screen: its columns (the page scrolls)
                    sheet = fit_width(sheet, fit[0])
                out += [*head, sheet, end]
            except SleuthError as e:
                out.append(f"  no analysis: {e}")
    elif k == "why":
        out.append(render_explanation(o.explanation))
    elif k == "help":
        out.append(o.message)
    elif k == "sheet":
        out.append(sheet_text(session))
    elif k == "suggest":
        from cli.advise import render_advice

        out.append(render_advice(o.advice, width=fit[0]) if fit else render_advice(o.advice))
    elif k == "noted":
        out.append("noted")
    return "\n".join(out)


def outcome_json(o: Outcome, session: Session) -> dict:
    d = o.to_json()
    if o.kind == "help":
        d["message"] = o.message
    if o.kind == "why":
        from cli.commands import explanation_json

        d["why"] = explanation_json(o.explanation)
    if o.kind == "suggest":
        d["advice"] = o.advice.to_json()
    if o.kind == "whatif":
        d["after"] = {"uncertainty": o.after.uncertainty, "summary": o.after.summary}
    if o.kind in ("accepted", "undone", "redone", "edited", "deleted", "sheet", "whatif"):
        try:
            rec = o.record if o.kind == "whatif" else None
            d["analysis"] = session.analyze(rec).to_json()
        except InconsistentError as e:
            d["analysis"] = {"consistent": False, "conflict": e.conflict}
        except SleuthError as e:
            d["analysis"] = None
            d["analysis_error"] = str(e)
    return d


# ----- the screen on a terminal -------------------------------------------------------------
#: home the cursor and erase the screen (ECMA-48 CUP and ED)
CLEAR = "\x1b[H\x1b[2J"
#: what a line shows in place of the ones it leaves out
MORE = "... {n} more line{s} ('history' shows them)"
#: outcomes shown as a page of their own (on request), the sheet back with an empty line
PAGES = ("whatif", "why", "help", "sheet", "suggest")
HISTORY_HELP = ("history [N]", "the last N lines said here (what the screen no longer shows)")
MORE_HELP = ("more", "the sheet's next rows when it is taller than the screen (PgDn; PgUp "
             "back)")


def screen_wanted(interactive: bool, show_sheet: bool | str) -> bool:
    """Whether ``play`` keeps one screen redrawn in place: on a terminal that can move its
    cursor (``TERM`` set and not ``dumb``), unless every statement is to print the whole
    analysis (``--full``), which is taller than a screen."""
    term = os.environ.get("TERM", "")
    return interactive and show_sheet is not True and term not in ("", "dumb")


class Sheet(str):
    """A short sheet's text with what a screen too short for it needs to scroll it:
    ``headings``, the lines that head the rows below them (column headings), shown above
    the rows they head when the screen scrolls past them; ``foot``, how many of its last
    lines stay in sight (the verdict) while the rows above them scroll."""
    headings: tuple[str, ...]
    foot: int

    def __new__(cls, text: str, headings=(), foot: int = 0):
        s = super().__new__(cls, text)
        s.headings, s.foot = tuple(headings), foot
        return s


class Layout(NamedTuple):
    """Where a sheet fitted to a screen's columns (its blank lines left out, as
    :func:`scroll_sheet` leaves them) has what scrolling keeps together: each heading's
    rows and each line's rows where it wraps (its first row and end), and how many of the
    last rows are its foot (:func:`sheet_layout`)."""
    headings: tuple[tuple[int, int], ...] = ()
    foot: int = 0
    wrapped: tuple[tuple[int, int], ...] = ()


def sheet_layout(text: str, cols: int) -> Layout:
    """The :class:`Layout` of ``text`` fitted to ``cols``: a :class:`Sheet` says its headings
    and foot, a plain text has none."""
    heads = set(getattr(text, "headings", ()))
    lines = text.split("\n")
    foot_from = len(lines) - getattr(text, "foot", 0)
    headings, wrapped, foot, at = [], [], 0, 0
    for i, ln in enumerate(lines):
        n = len([w for w in fit_width(ln, cols).split("\n") if w.strip()])
        if n and ln in heads:
            headings.append((at, at + n))
        if n > 1:
            wrapped.append((at, at + n))
        if i >= foot_from:
            foot += n
        at += n
    return Layout(tuple(headings), foot, tuple(wrapped))


def scroll_marker(first: int, last: int, total: int, cols: int) -> str:
    """The row that says which of a scrolled sheet's rows are shown and how to see the
    others (PgDn and PgUp, or the command 'more', which after the last rows goes back to the
    first).

    >>> scroll_marker(1, 9, 21, 40)
    "rows 1-9 of 21 -- PgDn or 'more'"
    >>> scroll_marker(13, 21, 21, 40)
    "rows 13-21 of 21 -- PgUp; 'more': top"
    """
    keys = ("PgDn or 'more'" if first == 1 else "PgUp; 'more': top" if last == total
            else "PgUp, PgDn or 'more'")
    said = f"rows {first}-{last} of {total} -- {keys}"
    if columns(said) > cols:
        said = f"rows {first}-{last}/{total} " + ("PgDn" if first == 1 else "PgUp" if
                                                   last == total else "PgUp PgDn")
    return said[:cols]


def scroll_sheet(lines: list[str], notes: int, room: int, cols: int, top: int = 0,
                 layout: Layout = Layout()) -> tuple[list[str], tuple[int, int, int] | None]:
    """``lines`` (a sheet, then its last ``notes`` lines the notes: whose turn, alerts) in
    at most ``room`` rows, scrolled: its blank rows go first; then, where the rest is still
    taller, the notes and the sheet's foot (its verdict) stay and the rows above them show
    from row ``top`` (0 the first) under the heading of the rows shown, a line wrapped onto
    several rows never split, with a row that says which rows are shown and how to see the
    others (:func:`scroll_marker`).  Also the rows shown, as their first and last (from 1)
    and how many there are, or ``None`` when nothing is cut.  In fewer rows than the
    notes, the notes' end; in fewer than the notes, the foot, a row of the rest and the
    marker, the foot scrolls with the rest.

    >>> sheet, at = ["head", "", "a", "b", "c", "d", "Next: Ben"], Layout(headings=((0, 1),))
    >>> scroll_sheet(sheet, 1, 5, 80, 0, at)
    (['head', 'a', 'b', "rows 1-3 of 5 -- PgDn or 'more'", 'Next: Ben'], (1, 3, 5))
    >>> scroll_sheet(sheet, 1, 5, 80, 3, at)[0]
    ['head', 'c', 'd', "rows 4-5 of 5 -- PgUp; 'more': top", 'Next: Ben']
    """
    if len(lines) <= room:
        return lines, None
    if room <= 0:
        return [], None
    tail = lines[len(lines) - notes:] if notes else []
    body = [ln for ln in lines[:len(lines) - notes] if ln.strip()]
    left = room - len(tail)
    if len(body) <= left:
        return body + tail, None
    if left < 2:                        # no room for any of the sheet: the notes' end
        return tail[len(tail) - room:], None
    # the foot stays whole with a row of the rest and the marker's, else it scrolls with
    # the rest (a row of it cut would split its line, or drop its start unsaid)
    foot = layout.foot if layout.foot <= left - 2 else 0
    end = body[len(body) - foot:] if foot else []
    body = body[:len(body) - foot]
    shown = left - len(end) - 1                 # one row says which rows are shown
    together = [(s, e) for s, e in (*layout.headings, *layout.wrapped) if e <= len(body)]

    def window(top: int) -> tuple[int, list[str], int]:
        """The window from row ``top`` (moved up to the start of a heading or a wrapped
        line it would cut): its first row, the heading over it (none when it starts at
        one, the end of the rows the one before heads), and how many rows it shows under
        that heading (a wrapped line that would not fit whole left to the next)."""
        top = max(0, min(top, len(body) - 1))
        top = next((s for s, e in together if s < top < e), top)
        over = [(s, e) for s, e in layout.headings if e <= top]
        head = [] if not over or any(s == top for s, _ in layout.headings) else \
            body[over[-1][0]:over[-1][1]]
        if shown - len(head) < 1:
            head = []
        fit = shown - len(head)
        cut = next((s for s, e in together if s < top + fit < e and s > top), None)
        return top, head, fit if cut is None else cut - top

    top, head, fit = window(top)
    if top + fit >= len(body):                  # the last rows: the fullest window
        top, head, fit = next((w for w in map(window, range(len(body)))
                               if w[0] + w[2] >= len(body)), (top, head, fit))
    rows = body[top:top + fit]
    last = top + len(rows)
    return head + rows + [scroll_marker(top + 1, last, len(body), cols)] + end + tail, \
        (top + 1, last, len(body))


#: how a refusal's correction starts (:func:`cli.main.did_you_mean`)
DID_YOU_MEAN = "  did you mean: "

#: a message's lines by what a cut keeps first (:func:`prized_rows`): the sentence saying
#: why a statement was refused (or held), a line in conflict (:func:`render_conflict`), the
#: fix (:func:`fix_advice`), that lines which came in after it were not entered
#: (:meth:`Ahead.held`); the others after these
PRIZED = (re.compile(r"(whatif )?refused: |held: |" + re.escape(DID_YOU_MEAN)),
          re.compile(r"    line \d+: "),
          re.compile(r"  (not saved; 'force'|if line )"),
          re.compile(r"  \d+ more .*not entered:$"))


def _more(n: int, cols: int) -> str:
    return MORE.format(n=n, s="" if n == 1 else "s")[:cols]


def _middle_cut(lines: list[str], room: int, tail: int, cols: int) -> list[str]:
    """``lines`` in ``room`` rows: their middle cut, the first and the last ``tail`` kept
    as far as they go, a row saying how many went."""
    cut = len(lines) - room + 1
    head = max(1, min((room - 1) // 2, room - 1 - tail))
    return lines[:head] + [_more(cut, cols)] + lines[head + cut:]


#: the line that starts a refusal (or a statement held for an answer)
REFUSAL = re.compile(r"(whatif )?refused: |held: ")
#: how a message holding a statement starts
HELD = "held: "


def _alert_cut(lines: list[str], notes: int) -> tuple[list[str], int, bool]:
    """A sheet's ``lines`` (its last ``notes`` rows the notes) without its last alert (a
    note starting with :data:`STRONG`, with the rows it wraps onto), how many notes rows
    are left, and whether there was an alert to take out."""
    alert = next((i for i in reversed(range(len(lines) - notes, len(lines)))
                  if lines[i].startswith(STRONG)), None)
    if alert is None:
        return lines, notes, False
    end = alert + 1
    while end < len(lines) and lines[end][:1].isspace():
        end += 1
    return lines[:alert] + lines[end:], notes - (end - alert), True


def _ranks(logical: list[str]) -> tuple[list[int], bool]:
    """Each of a message's lines ranked by :data:`PRIZED` (``len(PRIZED)`` the others), and
    whether the message is one the sheet gives way to whole as far as it can: a
    contradiction (a line in conflict) or a statement held (its sentence, the lines in
    conflict, then what to type next).  The lines under a note of lines not entered (the
    lines held, how to bring them back) rank with that note; in a held message, the lines
    after its sentence other than those in conflict and their heading (what to type next)
    rank with the fix."""
    ranks: list[int] = []
    held = under = False
    for ln in logical:
        r = next((r for r, p in enumerate(PRIZED) if p.match(ln)), len(PRIZED))
        if under:
            r = 3
        elif r == 3:
            under = True
        elif r == 0:
            held = held or ln.startswith(HELD)
        elif held and r == len(PRIZED) and ln != CONFLICT_HEAD:
            r = 2
        ranks.append(r)
    return ranks, 1 in ranks or held


def prized_need(message: str, cols: int) -> int:
    """The rows a refusal's message needs on a screen of ``cols``: for a contradiction (or a
    statement held) the sentence saying why, the lines in conflict and the fix or what to
    type next, and the lines typed ahead not entered (:data:`PRIZED`, :func:`_ranks`), and a
    row saying how many other lines went when some do; for another refusal with lines held
    behind it (:meth:`Ahead.held`), all of its rows (its sentence, the fix, the lines held);
    0 for any other message (another refusal is cut to the rows the sheet leaves, keeping
    its start and its fix).

    >>> said = ("refused: line 6 says 7H is out; line 10 says it is in\\n  the statements "
    ...         "that conflict:\\n    line 6: A\\n    line 10: B\\n  not saved; 'force' "
    ...         "saves it anyway")
    >>> prized_need(said, 80), prized_need(said, 40), prized_need("refused: no", 80)
    (5, 6, 0)
    >>> held = "refused: no\\n  not saved\\n  1 more pasted line not entered:\\n    A\\n  (Up)"
    >>> prized_need(held, 80), prized_need("refused: no\\n  not saved", 80)
    (5, 0)
    >>> prized_need(said + "\\n  1 more line typed or pasted ahead, not entered:\\n    C\\n"
    ...             "  (Up brings it back)", 80)
    8
    """
    logical = message.split("\n")
    ranks, prized = _ranks(logical)
    rows = [len(fit_width(ln, cols).split("\n")) for ln in logical]
    if not prized:
        refusal = 3 in ranks and any(REFUSAL.match(ln) for ln in logical)
        return sum(rows) if refusal else 0
    kept = sum(n for n, r in zip(rows, ranks) if r < len(PRIZED))
    # a row saying that one row went is no shorter than that row
    return kept + 1 if kept + 1 < sum(rows) else sum(rows)


def prized_rows(message: str, cols: int, room: int) -> list[str] | None:
    """A message with lines in conflict (a contradiction, or a statement held) in ``room``
    rows of ``cols``: all of it when it fits, else its lines by :data:`PRIZED` -- the
    sentence saying why, then the lines in conflict, then the fix (or what to type next),
    then the note of lines not entered, then the others, earlier first -- as many as fit
    whole, in their order, and a last row saying how many lines went ('history' shows
    them); ``None`` when the message has no line in conflict and holds no statement, or
    the sentence does not fit.

    >>> said = ("not changed: the record would be inconsistent\\nrefused: line 6 says 7H is "
    ...         "out; line 10 says it is in\\n  the statements that conflict:\\n    line 6: "
    ...         "A\\n    line 10: B\\n  the record is unchanged")
    >>> for row in prized_rows(said, 80, 4):
    ...     print(row)
    refused: line 6 says 7H is out; line 10 says it is in
        line 6: A
        line 10: B
    ... 3 more lines ('history' shows them)
    >>> held = ("held: line 6 says 7H is out\\n  the statements that conflict:\\n    line 6: A"
    ...         "\\n  not yet saved: its answer comes next\\n  note: an older one stays")
    >>> for row in prized_rows(held, 80, 4):
    ...     print(row)
    held: line 6 says 7H is out
        line 6: A
      not yet saved: its answer comes next
    ... 2 more lines ('history' shows them)
    """
    logical = message.split("\n")
    ranks, prized = _ranks(logical)
    if not prized or room < 2:
        return None
    rows = [fit_width(ln, cols).split("\n") for ln in logical]
    if sum(map(len, rows)) <= room:
        return [r for rs in rows for r in rs]
    kept: set[int] = set()
    used = 0
    # the lines under a note of lines not entered are shown with that note, never bare
    note = next((i for i, r in enumerate(ranks) if r == len(PRIZED) - 1), None)
    for i in sorted(range(len(logical)), key=lambda i: (ranks[i], i)):
        if note is not None and i > note and note not in kept:
            continue
        if used + len(rows[i]) <= room - 1:
            kept.add(i)
            used += len(rows[i])
        elif ranks[i] == 0:             # the sentence does not fit whole
            return None
    gone = sum(len(rows[i]) for i in range(len(logical)) if i not in kept)
    return [r for i in sorted(kept) for r in rows[i]] + ([_more(gone, cols)] if gone else [])


class Screen:
    """``play``'s one screen on a terminal, redrawn in place after every line: the last
    message at the top (what was saved or refused, and the fix), the sheet at the bottom
    (the short one, or the whole analysis when the terminal is tall enough) with every
    table note that holds now (whose turn, the verdict, alerts) and the advisor's hint,
    then the prompt on the last row.  A contradiction, a statement held, or a refusal with
    lines held behind it, takes the rows it needs (:func:`prized_need`) short of the sheet's
    least (its notes, its foot, a row of the rest and the marker) and the sheet scrolls in
    the rest (the alerts among its notes giving way first where the message needs their
    rows); the blank row between them gives way first;
    another message too long for the rows the sheet leaves is cut, and ``history`` shows it
    whole; a sheet too tall for the screen loses the hint and then scrolls (:func:`scroll_sheet`): a row says which of its rows are shown, PgDn and
    PgUp (or ``more``) show the others, its notes and verdict stay.
    ``whatif``, ``why``, ``sheet``, ``suggest``, ``help`` and ``history`` show a page of
    their own, which scrolls the same way when it is taller than the screen (its first rows
    first); an empty line brings the sheet back.  ``sheet=False`` (``--no-sheet``): the
    notes without the sheet.

    :meth:`lines` is what stands above the prompt; the board is the prompt's own message
    (so the completion menu can open over the sheet), a page is printed before it.  After a
    change the board shows stage 1 (:meth:`stage`: the certainties) until a worker thread
    has the sheet.
    ``size``: columns and rows, else those of the terminal."""

    def __init__(self, session: Session, colour: bool, sheet: bool,
                 size: tuple[int, int] | None = None):
        self.session = session
        self.colour = colour
        self.sheet = sheet
        self.fixed_size = size
        self.said: list[str] = []           # every line typed and every message, in order
        self.hint = ""                      # the advisor's hint after the last change
        #: the record and view the hint was worked out for: shown only with their sheet
        self.hint_for: tuple = ()
        self.message = ""                   # the message on the board
        self.paged: str | None = None       # the page shown, else None: the board
        self._drawn: tuple = ()             # the record and size the cached sheet is for
        #: its lines, how many at the end are the notes, and its layout
        self._sheet_lines: tuple[list[str], int, Layout] = ([], 0, Layout())
        #: the sheet scrolled (when taller than the screen): the row shown first (0 the
        #: sheet's first), the first rows of the windows before it (PgUp), the rows shown
        #: last drawn (first, last, how many; None when the whole sheet was), and the
        #: record the scrolling is for (a change of it shows the sheet from its top)
        self.top = 0
        self.tops: list[int] = []
        self.shown: tuple[int, int, int] | None = None
        self._scrolled_for: tuple = ()
        #: the same for the page shown, when it is taller than the screen
        self.page_top = 0
        self.page_tops: list[int] = []
        self.page_shown: tuple[int, int, int] | None = None
        #: stage 1 of the record's analysis (solver.staged: the certainties, alerts and
        #: notes) shown while the worker works out the sheet; the worker thread, its
        #: deadline, and what redraws the prompt when it is done (prompt_toolkit's app)
        self.first: Certainties | None = None
        self.hinting = False                # the advisor's hint after each change
        self.worker: threading.Thread | None = None
        self.deadline: Deadline | None = None
        self.app: Application[Any] | None = None
        #: the lines that came in ahead of their turn (:class:`Ahead`): held, and said,
        #: when a line before them is refused
        self.ahead = Ahead()

    def size(self) -> tuple[int, int]:
        """Columns and rows (every line ends with a newline, so one as wide as the terminal
        adds no empty line)."""
        if self.fixed_size is not None:
            return self.fixed_size
        try:
            size = os.get_terminal_size(sys.stdout.fileno())
            return max(20, size.columns), max(8, size.lines)
        except (AttributeError, ValueError, OSError):
            return 80, 24

    def typed(self, line: str) -> None:
        if line.strip():
            self.said.append(f"sleuth> {printable(line)}")

    def _key(self, cols: int, rows: int) -> tuple:
        return (self.session.text, self.session.view, cols, rows)

    def ready(self) -> bool:
        """Whether the sheet of the record as it is has been worked out (at some size)."""
        return self._drawn[:2] == (self.session.text, self.session.view)

    def sheet_lines(self, cols: int, rows: int) -> list[str]:
        """The sheet and the notes that hold now (each alert while it holds, not only the
        first time), fitted to ``cols``; the short sheet unless the whole one fits with
        room left for a message.  While the worker works it out: stage 1."""
        return self._sheet(cols, rows)[0]

    def _sheet(self, cols: int, rows: int) -> tuple[list[str], int, Layout]:
        """:meth:`sheet_lines`, how many of them at the end are the notes (whose turn, the
        verdict, alerts: kept whole when the sheet is scrolled to fit), and the sheet's
        :class:`Layout`."""
        key = self._key(cols, rows)
        if key == self._drawn:
            return self._sheet_lines
        if self.worker is not None and self.worker.is_alive() \
                and threading.current_thread() is not self.worker:
            return (*self._first(cols), Layout())
        text, notes = sheet_parts(self.session, compact=True, rows=rows, sheet=self.sheet,
                                  every_note=True, cols=cols)
        body = fit_width(text, cols).split("\n") if text else []
        tail = fit_width("\n".join(notes), cols).split("\n") if notes else []
        self._sheet_lines = (body + tail, len(tail), sheet_layout(text, cols))
        self._drawn = key                   # after the lines: another thread reads them
        return self._sheet_lines

    def first_lines(self, cols: int) -> list[str]:
        """Stage 1 in the sheet's place: the cards certainly placed, by place, the alerts
        and notes, and that the figures follow."""
        return self._first(cols)[0]

    def _first(self, cols: int) -> tuple[list[str], int]:
        """:meth:`first_lines` and how many of them at the end are the notes."""
        c = self.first
        body: list[str] = []
        notes: list[str] = []
        if c is not None:
            by_place: dict[str, list[str]] = {}
            for card, where in c.certain:
                by_place.setdefault(where, []).append(card)
            if self.sheet:                  # --no-sheet: the alerts and notes alone
                body.append("certain now" + ("" if c.complete else " (so far)") + ":"
                            + ("" if by_place else " no card"))
                body += [f"  {where}: {' '.join(cards)}" for where, cards in by_place.items()]
            notes += [f"{STRONG} {a}" for a in c.alerts]
            notes += [n.text for n in c.notes if not n.strong]
        notes.append("(working out the figures...)")
        body = fit_width("\n".join(body), cols).split("\n") if body else []
        tail = fit_width("\n".join(notes), cols).split("\n")
        return body + tail, len(tail)

    def stage(self, timeout: float | None) -> None:
        """After a change: stage 1 now (:func:`solver.staged.certainties`, about 0.3 s),
        the sheet and the hint in a worker thread, within ``timeout`` of its own (the
        prompt is redrawn when they are done, so the next line can be typed meanwhile)."""
        from solver.model.budget import TimeUp, within
        from solver.staged import certainties

        self.settle(cancel=True)
        try:
            self.first = certainties(self.session.game, self.session.record,
                                     self.session.view)
        except (TimeUp, SleuthError):
            self.first = None
            return              # an inconsistent record, no analysis: said at once
        size = self.size()

        def work():
            from solver.model.budget import Cancelled

            # a deadline even without a time limit: settle() may have to cancel it
            with within(timeout if timeout is not None else float("inf")) as deadline:
                assert deadline is not None     # within() was given a time (inf at most)
                self.deadline = deadline
                try:
                    self.sheet_lines(*size)
                    if deadline.cancelled:      # its 'no analysis: stopped' is no sheet
                        self._drawn = ()
                        return
                    self._redraw()          # the sheet in: the prompt shows it now
                    key = (self.session.text, self.session.view)
                    if self.hinting and self.hint_for != key:
                        self.hint = self.session.hint() or ""
                        if deadline.cancelled:
                            return
                        self.hint_for = key
                        if self.hint:
                            self._redraw()      # and the hint when it is in, unasked
                except Cancelled:
                    return
        self.worker = threading.Thread(target=work, name="sheet", daemon=True)
        # the lines are computed by the worker alone: sheet_lines shows stage 1 meanwhile
        self._drawn = ()
        self.worker.start()

    def settle(self, cancel: bool) -> None:
        """Before the next line: the worker stopped (``cancel``: its figures are for a
        record about to change) or waited for, so that one thread uses the session."""
        w = self.worker
        if w is not None and w.is_alive():
            if cancel and self.deadline is not None:
                self.deadline.cancel()
            w.join()
        self.worker = None
        self._redraw()

    def _redraw(self) -> None:
        """The prompt drawn again with what the board has now (safe from the worker
        thread: prompt_toolkit's ``invalidate`` schedules the redraw on its own loop)."""
        if self.app is not None:
            self.app.invalidate()

    def board(self, message: str) -> None:
        """The board next: the message at the top, the sheet at the bottom."""
        if message:
            self.said += message.split("\n")
        self.message = message
        self.paged, self.page_shown = None, None

    def back(self) -> None:
        """The board again, with its last message (after a page)."""
        self.paged, self.page_shown = None, None

    def page(self, text: str, said: bool = True) -> None:
        """A page on request next: its text, then how to bring the sheet back; a page
        taller than the screen shows its first rows and scrolls (PgDn, PgUp, ``more``).
        ``said``: kept for ``history``."""
        if text and said:
            self.said += text.split("\n")
        self.paged = text
        self.page_top, self.page_tops, self.page_shown = 0, [], None

    def lines(self) -> list[str]:
        """The rows above the prompt: the page, or the board filling the screen."""
        cols, rows = self.size()
        if self.paged is not None:           # padded: the prompt stays on the last row
            page = (fit_width(self.paged, cols).split("\n") if self.paged else []) + [
                "(Enter: back to the sheet)"]
            # taller than the screen: scrolled as a sheet is, the way back in sight
            page, self.page_shown = scroll_sheet(page, 1, rows - 1, cols, self.page_top)
            return page + [""] * (rows - 1 - len(page))
        sheet, notes, layout = self._sheet(cols, rows)
        # the hint of the record as it is (one worked out before a reload is stale)
        hint = fit_width(self.hint, cols).split("\n") \
            if self.hint and self.hint_for == (self.session.text, self.session.view) else []
        lines = fit_width(self.message, cols).split("\n") if self.message else []
        # the message keeps its first line, and its last (the fix) with the cut between,
        # and a blank row; where the sheet needs more rows than the rest, the advisor's
        # hint (advice is on request: 'suggest') and then the sheet's middle give way
        # a correction that Enter logs stays whole in sight (from 'did you mean' on)
        fix = next((i for i, ln in enumerate(lines) if ln.startswith(DID_YOU_MEAN)), None)
        tail = len(lines) - fix if fix is not None else 1
        keep = min(len(lines), max(3, tail + 2))
        # a contradiction keeps its sentence, the lines in conflict and the fix, a refusal
        # the lines held behind it, at any size (80x24 too), and the sheet gives way
        # (scrolled, its notes and verdict staying): it is the sheet shown before
        # short of the rows the sheet cannot scroll below: its notes, its foot (the
        # verdict), a row of the rest and the row saying which rows are shown
        least = min(len(sheet), notes + layout.foot + 2)
        need = prized_need(self.message, cols)
        while need > rows - 1 - least:  # the alerts give way to it, the last first
            sheet, notes, gone = _alert_cut(sheet, notes)
            if not gone:
                break
            least = min(len(sheet), notes + layout.foot + 2)
        keep = max(keep, min(need, rows - 1 - least))
        room = rows - 1 - (keep + 1 if keep else 0)     # the last row is the prompt's
        gap = bool(keep)                # a blank row between message and sheet
        if keep and (room < least or len(sheet) == room + 1):
            room, gap = room + 1, False     # which gives way to the sheet first
        if self._scrolled_for != (self.session.text, self.session.view):
            self.top, self.tops = 0, []         # a changed record: its sheet from the top
            self._scrolled_for = (self.session.text, self.session.view)
        self.shown = None
        if len(sheet) + len(hint) > room:
            (sheet, self.shown), hint = scroll_sheet(sheet, notes, room, cols, self.top,
                                                     layout), []
        sheet = sheet + hint
        free = rows - 1 - len(sheet)
        # the blank row, unless it gave way and the message needs it
        room = free - 1 if sheet and (gap or len(lines) < free) else free
        if lines and len(lines) > room:
            # a contradiction: the sentence saying why and the lines in conflict first;
            # else its middle goes: the start says what was refused, the end the fix
            lines = prized_rows(self.message, cols, room) or _middle_cut(lines, room, tail,
                                                                         cols)
        return lines + [""] * (free - len(lines)) + sheet

    def scroll(self, step: int) -> bool:
        """PgDn (``step`` 1) or PgUp (-1): the next or previous rows of the page shown, or
        else of the sheet, when it is taller than the screen; whether that changed the
        screen."""
        if self.paged is not None:
            moved = _scrolled(self.page_shown, self.page_top, self.page_tops, step)
            if moved is None:
                return False
            self.page_top = moved
            return True
        moved = _scrolled(self.shown, self.top, self.tops, step)
        if moved is None:
            return False
        self.top = moved
        return True

    def more(self) -> None:
        """``more``: the next rows (after the last rows, the first) of a page taller than
        the screen, or else of the sheet, the board back if a page that fits is shown; said
        when the whole sheet is on the screen."""
        if self.paged is not None and self.page_shown is not None:
            if not self.scroll(1):
                self.page_top, self.page_tops = 0, []
            return
        self.back()
        if self.shown is None:
            self.board("more: the whole sheet is on the screen")
        elif not self.scroll(1):
            self.top, self.tops = 0, []

    def history(self, rest: str) -> None:
        """``history [N]``: the last N lines said (default: a screenful)."""
        cols, rows = self.size()
        try:
            n = int(rest) if rest.strip() else rows - 3
        except ValueError:
            n = 0
        if n < 1:
            self.board("refused: expected 'history [N]', N a number of lines from 1")
            return
        lines = self.said[:-1][-n:] if self.said else []     # not the 'history' typed
        head = f"the last {len(lines)} line{'' if len(lines) == 1 else 's'} said here:"
        self.page("\n".join([head, *lines]) if lines else "nothing said yet", said=False)

    def help(self, text: str) -> str:
        """The session's help with the screen's own command."""
        from solver.session import COMMAND_HELP

        lines = text.split("\n")
        at = next((i + 1 for i, ln in enumerate(lines) if ln.lstrip().startswith("help ")),
                  len(lines))
        w = max(len(a) for a, _ in (*COMMAND_HELP, HISTORY_HELP, MORE_HELP))
        own = [f"  {a.ljust(w)}  {b}" for a, b in (HISTORY_HELP, MORE_HELP)]
        return "\n".join(lines[:at] + own + lines[at:])

    def prompt(self, stream=None):
        """Clear the screen for the next prompt; its message: the board or the page (a
        callable, so a resized terminal gets them at its size)."""
        from prompt_toolkit.formatted_text import ANSI

        stream = stream or sys.stdout
        stream.write(CLEAR)
        stream.flush()
        return lambda: ANSI(colourize("\n".join(self.lines()), self.colour) + "\n" + PROMPT)


def _scrolled(shown: tuple[int, int, int] | None, top: int, tops: list[int],
              step: int) -> int | None:
    """The first row (from 0) of the window after (``step`` 1) or before (-1) the one
    ``shown`` (its first and last rows, from 1, and how many there are; ``None``: nothing is
    cut), ``tops`` keeping the windows passed for PgUp; ``None`` when there is none."""
    if shown is None:
        return None
    first, last, total = shown
    if step > 0:
        if last >= total:
            return None
        tops.append(first - 1)
        return last
    if first == 1:
        return None
    return tops.pop() if tops else max(0, 2 * first - last - 2)


# ----- input --------------------------------------------------------------------------------
class Ahead:
    """The input that came in ahead of the answer to the line before it, at a terminal:
    the lines of a paste still to be entered one by one (:func:`_interactive_lines`), its
    last line not ended (the next input, to be edited), and the keys typed -- or pasted
    by a terminal that does not bracket a paste -- while a line was being checked, which
    the next prompt would enter as typed.  When a line is refused none of them is entered:
    :meth:`held` takes them out of the input and says them."""

    def __init__(self) -> None:
        self.pasted: list[str] = []
        self.rest = ""
        #: the text typed ahead, taken out of the input (set by the prompt that reads it)
        self.typed: Callable[[], str] = lambda: ""
        #: keeps a line in the prompt's history (Up brings it back)
        self.remember: Callable[[str], None] = lambda line: None

    def held(self, refused: str = "") -> str:
        """After a refused line: the lines that came in after it, taken out of the input
        and kept in the prompt's history, as the lines the refusal adds to say that they
        were not entered (none: an empty string).  A last line typed ahead and not ended
        stays as the next input, to be edited.  The ``refused`` line itself is kept last,
        so that Up brings it back first (to be put right), then the lines held.

        >>> a = Ahead()
        >>> a.pasted, a.typed = ["Cleo: ?"], lambda: "Dev asks Ana 2C-5C: 2C\\n\\nDev as"
        >>> print(a.held()[1:])
          2 more lines typed or pasted ahead, not entered:
            Cleo: ?
            Dev asks Ana 2C-5C: 2C
          (Up brings them back)
        >>> a.typed = lambda: ""            # taken out of the input: none left
        >>> a.rest, a.pasted, a.held()
        ('Dev as', [], '')
        """
        *ended, last = self.typed().split("\n")
        ended = [ln for ln in ended if ln.strip()]
        self.rest += last
        lines, pasted = [*self.pasted, *ended], not ended
        self.pasted.clear()
        if not lines:
            return ""
        for ln in lines:
            self.remember(ln)
        if refused.strip():
            self.remember(refused)
        n, s = len(lines), "" if len(lines) == 1 else "s"
        head = (f"{n} more pasted line{s} not entered" if pasted else
                f"{n} more line{s} typed or pasted ahead, not entered")
        return (f"\n  {head}:" + "".join(f"\n    {printable(ln)}" for ln in lines)
                + f"\n  (Up brings {'it' if n == 1 else 'them'} back)")


def keys_text(keys) -> str:
    """The text of prompt_toolkit key presses read ahead: characters as typed, Enter as the
    end of a line, a bracketed paste's text; a backspace takes back the character before it
    on its line; other keys (arrows, Tab, a terminal's reports) add nothing."""
    from prompt_toolkit.keys import Keys

    out: list[str] = []
    for k in keys:
        if k.key in (Keys.ControlM, Keys.ControlJ):
            out.append("\n")
        elif k.key == Keys.BracketedPaste:
            out.append(k.data.replace("\r\n", "\n").replace("\r", "\n"))
        elif k.key in (Keys.Backspace, Keys.ControlH):
            if out and out[-1] != "\n":
                out.pop()
        elif not isinstance(k.key, Keys) and k.key.isprintable():
            out.append(k.key)
    return "".join(out)


def being_checked(session: Session, line: str) -> list[str]:
    """What a Ctrl-C while ``line`` is handled names as not saved: the statement (or the
    command that changes the record) as typed, the correction that 'y' or an empty line
    logs, nothing for a line that only reads the record."""
    from solver.session import ACCEPT

    raw = line.strip()
    if session.correction is not None and raw.lower() in ACCEPT:
        return [printable(session.correction)]
    word = raw.partition(" ")[0].lower()
    return [] if word in READING or not raw else [printable(raw)]


def marked(session: Session, lines):
    """``lines`` (of the input), each named in :data:`cli.main.CHECKING` from the moment it
    is read until the next is asked for: a Ctrl-C just after Enter, before the line is
    handled (the sheet being worked out still stopping), names it as not saved too."""
    from cli.main import CHECKING

    for line in lines:
        CHECKING[:] = being_checked(session, line) if isinstance(line, str) else []
        yield line
        CHECKING.clear()
    CHECKING.clear()


def checked(session: Session, line: str) -> Outcome:
    """``session.handle(line)``, the line named as not saved if a Ctrl-C ends it
    (:data:`cli.main.CHECKING`, kept for :func:`cli.main.interrupted` when the
    interrupt comes through here)."""
    from cli.main import CHECKING

    CHECKING[:] = being_checked(session, line)
    try:
        o = session.handle(line)
    except Exception:
        CHECKING.clear()
        raise
    CHECKING.clear()
    return o


#: the prompt of ``play`` on a terminal
PROMPT = "sleuth> "

#: the word being typed at the end of a line
_WORD_END = re.compile(r"[^\s,;:]*$")

#: the keywords after which a card or range the asker holds is no legal word: a card
#: requested, a range asked wholly held, a card asked (each game's rules say so)
NOT_OWN = ("asks", "requests")


def known_hands(session: Session, screen: Screen | None = None) -> Callable[[str], set[str]]:
    """The cards a player certainly holds, as the session's view knows now: the screen's
    stage 1 (:meth:`Screen.stage`), else worked out once for the record as it is."""
    known: dict[tuple, Any] = {}

    def held(player: str) -> set[str]:
        from solver.model.budget import TimeUp
        from solver.staged import certainties

        first = screen.first if screen is not None else None
        if first is None:
            key = (session.text, session.view)
            if key not in known:
                known.clear()
                try:
                    known[key] = certainties(session.game, session.record, session.view)
                except (TimeUp, SleuthError):
                    known[key] = None
            first = known[key]
        if first is None:
            return set()
        return {card for card, where in first.certain if where == player}
    return held


def legal_words(vocabulary, before: str, words: list[str],
                held: Callable[[str], set[str]] | None = None) -> list[str]:
    """``words`` (the completions of ``before``) without what the rules forbid the player
    who starts the statement: herself as the player asked, passed to or showing (she may
    name herself in an answer of hands by player, a claim); after ``asks`` or ``requests``
    a card she is known to hold, or a range she holds wholly (``held``: the cards known to
    be in a player's hand).

    >>> from solver.games import Vocabulary
    >>> v = Vocabulary(("Ana", "Ben"), (), ("asks",), ("all",), ("2C", "5C"), ("2C-5C",),
    ...                follows=(("asks", (("<names>", "all"), ("<ranges>",)), ()),))
    >>> legal_words(v, "Ana asks ", ["Ana", "Ben", "all"])
    ['Ben', 'all']
    >>> legal_words(v, "Ana asks Ben ", ["2C-5C", "6C-9C"], lambda p: {"2C", "3C", "4C", "5C"})
    ['6C-9C']
    """
    from solver.cards import parse_query_set

    text = before.lstrip()
    prefix = _WORD_END.findall(text)[0]
    head = text[:len(text) - len(prefix)]
    said = head.split()
    if said and said[0].lower() in ("whatif", "force"):    # a statement follows
        return legal_words(vocabulary, text[len(said[0]):], words, held)
    if len(said) >= 2 and said[0].lower() == "edit" and said[1].isdigit():
        at = text.index(said[1], len(said[0])) + len(said[1])
        return legal_words(vocabulary, text[at:], words, held)
    words = answer_words(vocabulary, head, words)
    if len(said) < 2:
        return words
    actor = next((n for n in vocabulary.names if n.casefold() == said[0].casefold()), None)
    if actor is None:
        return words
    keyword = said[1].rstrip(":").lower()
    answer = ":" in head
    spec = next((f for f in vocabulary.follows if f[0].lower() == keyword), None)
    hands = answer and spec is not None and tuple(spec[2][:2]) == ("<names>", "<cards>")
    out = [w for w in words if hands or w != actor]
    if keyword not in NOT_OWN or answer or held is None:
        return out
    cards = vocabulary.cards
    ranges = vocabulary.ranges
    if not any(w in cards or w in ranges for w in out):
        return out
    own = held(actor)
    if not own:
        return out

    def allowed(w: str) -> bool:
        if w in cards:
            return w not in own
        if w in ranges:
            try:
                return not {str(c) for c in parse_query_set(w).cards()} <= own
            except (ValueError, AttributeError):
                return True
        return True
    return [w for w in out if allowed(w)]


def _named_cards(vocabulary, word: str) -> set[str]:
    """The cards ``word`` names: itself when it is a card; of a range (``4H-7H``, a
    half-suit ``9H-AH``) the cards of its suit from its first to its last, in the order of
    the game's cards (round the suit's end when the last comes first); of a rank set
    (``5*``) the cards of the rank.

    >>> from solver.games import Vocabulary
    >>> cards = ("AH", "2H", "3H", "9H", "10H", "JH", "QH", "KH", "AS", "9S")
    >>> v = Vocabulary((), (), (), (), cards, ())
    >>> sorted(_named_cards(v, "9h-ah")), sorted(_named_cards(v, "9*"))
    (['10H', '9H', 'AH', 'JH', 'KH', 'QH'], ['9H', '9S'])
    """
    cards = vocabulary.cards

    def card(text: str) -> str | None:
        return next((c for c in cards if c.casefold() == text.casefold()), None)

    one = card(word)
    if one is not None:
        return {one}
    first, dash, last = word.partition("-")
    a, b = card(first), card(last)
    if dash and a is not None and b is not None and a[-1:] == b[-1:]:
        suit = [c for c in cards if c[-1:] == a[-1:]]
        i, j = suit.index(a), suit.index(b)
        return set(suit[i:j + 1] if i <= j else suit[i:] + suit[:j + 1])
    if word.endswith("*") and len(word) > 1:
        return {c for c in cards if c[:-1].casefold() == word[:-1].casefold()}
    return set()


def answer_words(vocabulary, head: str, words: list[str]) -> list[str]:
    """``words`` (offered after ``head``, the line up to the word being typed) without what
    cannot stand in the answer after the statement's colon: a card that the words before
    the colon do not name (the cards shown come from the range asked, the cards named),
    or that the answer lists already; no player's name in the answer to a question put to
    one player (the answer is hers); where an answer goes player by player, no card at
    the start of a player's part (her name comes first); right after a keyword of the
    answer, only a card named (a card shown after the one showing it).

    >>> from solver.games import Vocabulary
    >>> v = Vocabulary(("Ana", "Ben"), (), ("asks",), ("none",), ("3C", "4C", "5C", "4H"),
    ...                ("3C-5C",), follows=(("asks", (("<names>",), ("<ranges>",)),
    ...                                      ("<cards>", "<names>", "none")),))
    >>> answer_words(v, "Ana asks Ben 3C-5C: ", ["3C", "4C", "5C", "4H", "Ben", "none"])
    ['3C', '4C', '5C', 'none']
    >>> answer_words(v, "Ana asks Ben 3C-5C: 4C ", ["3C", "4C", "5C", "4H", "none"])
    ['3C', '5C', 'none']
    """
    from solver.games import CARDS, NAMES, RANGES

    before, colon, answer = head.partition(":")
    said = before.split()
    if not colon or not said:
        return words
    names = {n.casefold() for n in vocabulary.names}
    at = 1 if said[0].casefold() in names and len(said) > 1 else 0
    two = " ".join(said[at:at + 2]).lower()
    spec = next((f for f in vocabulary.follows if f[0].lower() == two), None) \
        if len(said) > at + 1 else None
    spec = spec or next((f for f in vocabulary.follows if f[0].lower() == said[at].lower()),
                        None)
    if spec is None:
        return words
    keyword, slots, replies = spec
    rest = said[at + len(keyword.split()):]
    out = list(words)
    by_name = NAMES in replies
    if by_name and rest and slots and NAMES in slots[0] \
            and rest[0].casefold() in names:         # asked of one player: her answer
        out = [w for w in out if w not in vocabulary.names]
        by_name = False
    if CARDS not in replies or not any(CARDS in s or RANGES in s for s in slots):
        return out
    named: set[str] = set()
    for w in rest:
        named |= _named_cards(vocabulary, w)
    if not named:
        return out
    given = re.findall(r"[^\s,;:]+|,", answer)
    cards = set(vocabulary.cards)
    listed = {c for c in cards for w in given if c.casefold() == w.casefold()}
    out = [w for w in out if w not in cards or (w in named and w not in listed)]
    keywords = {k.casefold() for k in (*vocabulary.verbs, *vocabulary.words)}
    if given and given[-1].casefold() in keywords:  # 'shows ': the card shown
        out = [w for w in out if w in cards]
    elif by_name and (not given or given[-1] == ","):   # a part of an answer by player
        out = [w for w in out if w not in cards]        # starts with her name
    return out


def _interactive_lines(session: Session, colour: bool, screen: Screen | None = None,
                       ahead: Ahead | None = None):
    """Lines from a prompt_toolkit prompt with completion; ends on Ctrl-D.  With a
    ``screen``, each prompt redraws it.  ``ahead``: where the lines of a paste wait their
    turn, and what takes the input typed ahead out (:meth:`Ahead.held`)."""
    import select

    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    held = known_hands(session, screen)

    class SessionCompleter(Completer):
        def get_completions(self, document, complete_event):
            before = document.text_before_cursor
            end = re.search(r"[^\s,;:]*$", before)
            assert end is not None      # it matches at the end of any text (maybe empty)
            word = end.group(0)
            meta = session.completion_meta(before)      # 'edit N': the line's text
            words = legal_words(session.vocabulary(), before, session.complete(before), held)
            for w in words + screen_words(before):
                yield Completion(w, start_position=-len(word), display_meta=meta.get(w))

    def screen_words(before: str) -> list[str]:
        """The screen's own commands as a first word: 'history', and 'more' while the
        sheet or the page is taller than the screen (after the session's: a name that starts the
        same comes first)."""
        if screen is None or before != before.lstrip() or " " in before:
            return []
        own = ["more"] if screen.page_shown is not None or screen.shown is not None else []
        return [w for w in (*own, "history") if w.startswith(before.lower())
                and w not in session.complete(before)]

    keys = KeyBindings()

    @keys.add("tab")
    def _(event):
        """Tab takes the first word offered (the next one when pressed again), whether or
        not the menu opened while typing: one key completes, however fast it is typed."""
        from prompt_toolkit.buffer import CompletionState
        from prompt_toolkit.completion import CompleteEvent

        b = event.current_buffer
        if b.complete_state is not None and b.complete_state.complete_index is not None:
            b.complete_next()
            return
        # the words worked out here, not by the menu's loading while typing: a Tab pressed
        # while that is still loading was dropped (prompt_toolkit runs one at a time)
        words = list(b.completer.get_completions(b.document,
                                                 CompleteEvent(completion_requested=True)))
        if words:
            b.complete_state = CompletionState(original_document=b.document,
                                               completions=words)
            b.go_to_completion(0)
            b.on_completions_changed.fire()

    if ahead is None:
        ahead = screen.ahead if screen is not None else Ahead()

    @keys.add(Keys.BracketedPaste)
    def _(event):
        """A paste of several lines: each entered as if typed and ended with Enter (the
        first now, the others next, blank ones skipped: an empty line would take a
        correction); its last line, not ended, stays to be edited."""
        b = event.current_buffer
        data = event.data.replace("\r\n", "\n").replace("\r", "\n")
        if "\n" not in data:
            b.insert_text(data)
            return
        *ended, last = (b.text + data).split("\n")
        ended = [ln for ln in ended if ln.strip()]
        if not ended:                   # blank lines, then the last: nothing to enter
            b.text = last
            b.cursor_position = len(last)
            return
        b.text = ended[0]
        ahead.pasted.extend(ended[1:])
        ahead.rest = last
        b.validate_and_handle()

    # no rows kept free below the prompt for the completion menu (prompt_toolkit keeps 8
    # by default): on an 80x24 terminal they would push the sheet off the screen, and the
    # menu opens above the prompt when there is no room below
    if screen is not None:
        @keys.add("pagedown")
        def _(event):
            """PgDn: the sheet's next rows, when it is taller than the screen."""
            if screen.scroll(1):
                event.app.invalidate()

        @keys.add("pageup")
        def _(event):
            """PgUp: the sheet's rows before."""
            if screen.scroll(-1):
                event.app.invalidate()

    ps: PromptSession[str] = PromptSession(
        history=InMemoryHistory(), completer=SessionCompleter(), complete_while_typing=True,
        reserve_space_for_menu=0, key_bindings=keys)
    if screen is not None:
        screen.app = ps.app             # the worker redraws the prompt when the sheet is in

    def typed_ahead() -> str:
        """The keys that came in since the last line was entered and no prompt has handled
        yet (prompt_toolkit's type-ahead, read with the line before them; what waits in
        the terminal, read now), taken out of the input, as text (:func:`keys_text`)."""
        from prompt_toolkit.input.typeahead import get_typeahead

        inp = ps.input
        keys = list(get_typeahead(inp))
        try:
            with inp.raw_mode():
                while not inp.closed and select.select([inp.fileno()], [], [], 0)[0]:
                    keys += inp.read_keys()
                keys += inp.flush_keys()
        except (OSError, ValueError):
            pass
        return keys_text(keys)

    def remember(line: str) -> None:
        """``line`` the newest in the history (Up brings it back first), once."""
        strings = ps.history._loaded_strings      # newest first
        if line in strings:
            strings.remove(line)
        ps.history.append_string(line)

    ahead.typed = typed_ahead
    ahead.remember = remember
    while True:
        if ahead.pasted:                # the lines of a paste, one by one: in the history
            line = ahead.pasted.pop(0)  # as each typed line is
            remember(line)
            yield line
            continue
        default, ahead.rest = ahead.rest, ""
        try:
            yield ps.prompt(screen.prompt() if screen is not None else PROMPT,
                            default=default)
        except KeyboardInterrupt:      # Ctrl-C: drop the line being typed, kept in the
            dropped = ps.default_buffer.text    # history (Up brings it back)
            if dropped.strip():
                ps.history.append_string(dropped)
            continue
        except EOFError:               # Ctrl-D
            return


#: the first words of the lines that read the record without changing it (the sheet being
#: worked out is waited for, not stopped)
READING = ("why", "whatif", "sheet", "suggest", "help", "quit", "exit")


def current_seconds() -> float | None:
    """The seconds of the running command's deadline (``--timeout``), for a worker."""
    from solver.model.budget import current

    d = current()
    return d.seconds if d is not None else None


def _on_screen(screen: Screen, lines, keys: str, hint: bool) -> None:
    """``play`` on a terminal: each line typed redraws :class:`Screen`."""
    from solver.model.budget import restart

    session = screen.session
    screen.hinting = hint
    if screen.worker is None:           # the first board needs no stage (an inconsistent
        screen.sheet_lines(*screen.size())     # record): its sheet before the prompt
    for line in lines:
        screen.typed(line)
        word, _, rest = line.strip().partition(" ")
        if not word and screen.paged is not None:
            screen.back()               # Enter on a page: the sheet again, as the page says
            continue                    # (not a refusal's correction logged unseen)
        if word.lower() == "history" and word not in session.record.header.players:
            screen.history(rest)
            continue
        if word.lower() == "more" and not rest.strip() \
                and word not in session.record.header.players:
            screen.more()               # the sheet's next rows (PgDn's, typed)
            continue
        # the sheet being worked out for the record as it is: waited for by a line that
        # reads it, stopped by one that may change it
        screen.settle(cancel=word.lower() not in READING
                      and (word or session.correction is not None))
        # the line is checked (and stage 1 found) on the row below the prompt, the spinner
        # from the first moment; the sheet follows in the worker
        text = ""
        with working("checking", after=0):
            restart()                   # each line is its own analysis: a fresh --timeout
            o = checked(session, line)
            if o.kind == "quit":
                return
            if o.kind in PAGES:
                text = render_outcome(o, session, "compact" if screen.sheet else False, keys,
                                      fit=screen.size())
                if o.reloaded:          # the sheet and hint of the record reloaded
                    restart()
                    screen.stage(current_seconds())
            elif o.kind != "empty":
                if o.saved or o.reloaded or not screen.ready():
                    restart()
                    screen.stage(current_seconds())
                text = render_outcome(o, session, None, keys, fit=(screen.size()[0], 0))
        # the record by its file name: its whole path is noise on the screen
        text = text.replace(f"{session.path}:", f"{os.path.basename(session.path)}:")
        if o.kind == "refused":         # what came in after it may hang on it: held
            text += screen.ahead.held(line)
        if o.kind == "empty":
            screen.back()
        elif o.kind in PAGES:
            # the line used up a refusal's correction: the board comes back with the
            # refusal, no longer saying that Enter logs its correction
            if session.correction is None:
                screen.message = screen.message.replace(f"  ({keys}: log it)", "")
            screen.page(screen.help(text) if o.kind == "help" else text)
        else:
            screen.board(text)


def _piped_lines():
    """Lines of piped standard input, decoded as UTF-8; bytes that are not UTF-8 stay as
    surrogate escapes, for the session to refuse with a message (never a traceback).  A
    line longer than a statement can be (``MAX_LINE_CHARS`` characters of up to 4 bytes,
    and its end) is never held whole: it comes as a refused :class:`Outcome` quoting its
    start, the rest of it skipped, so that memory stays bounded (docs/reliability.md 5a)."""
    from solver.errors import NotationError
    from solver.records import MAX_LINE_CHARS

    stream = click.get_binary_stream("stdin")
    bound = 4 * MAX_LINE_CHARS + 2
    number = 0
    while True:
        line = stream.readline(bound)
        if not line:
            return
        number += 1
        if len(line) == bound and not line.endswith(b"\n"):
            size, rest = len(line), line
            while rest and not rest.endswith(b"\n"):
                rest = stream.readline(1 << 20)
                size += len(rest)
            start = printable(line[:160].decode("utf-8", "surrogateescape")[:40]) + "..."
            yield Outcome("refused", statement=start, error=NotationError(
                f"the line is too long ({size:,} bytes; a line is at most {MAX_LINE_CHARS:,} "
                "characters), so it was not read", text=start, path="<stdin>", line=number))
            continue
        yield line.decode("utf-8", "surrogateescape").rstrip("\n")


@cli.command()
@click.argument("record", type=FilePath(writes=True))
@as_option("Whose sheet to show")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object a line for every input line (for programs).")
@click.option("--no-sheet", is_flag=True, help="Do not print the sheet after each statement.")
@click.option("--compact/--full", "compact", default=None,
              help="After each statement the short sheet that fits an 80x24 terminal (the "
              "'sheet' command shows the whole analysis), or the whole analysis (default: "
              "short on a terminal, whole when piped).")
@click.option("--hint/--no-hint", default=None,
              help="The advisor's one-line hint after a statement when it is the view's "
              "turn (default: on in a terminal, off when piped).")
@handle_errors(json_flag="as_json")
@with_examples
@timeout_option
def play(record, as_, as_json, no_sheet, compact=None, hint=None):
    """Live play: type one statement a line; each is checked, saved and analysed.

    Every statement is checked against the whole record before it is saved: one that does
    not parse or breaks a rule is refused; one that contradicts the record is refused with
    the conflicting lines ('force' saves it anyway). The file is replaced atomically after
    every change, so it is always a valid record.

    \b
    Commands: undo | redo | edit N <statement> | delete N | whatif <statement> |
              why CARD | force [<statement>] | sheet | suggest [N] | history [N] |
              more | help | quit
    N is the line number the messages show ('saved line 7'). Tab completes names, cards,
    ranges and keywords. Ctrl-D quits. The statements of a game: sleuth format GAME.

    Right after a refusal with one 'did you mean', 'y' (or Enter on a terminal) logs that
    correction. On a terminal one screen is redrawn after each line: the last message at
    the top, the sheet that fits (80x24: the short one; 'sheet' shows the whole analysis)
    with the verdict and whose turn, the prompt at the bottom; 'history' shows what the
    screen no longer does. A sheet taller than the screen scrolls: a row says which of its
    rows are shown, PgDn and PgUp (or 'more') show the others. --full prints the whole analysis after each statement,
    scrolling.

    \b
    Example:
      sleuth new {new}
      sleuth play game.txt
      sleuth> {statement}
      sleuth> undo
      sleuth> redo
    Piped:  printf '{statement}\\nundo\\n' | sleuth play game.txt --no-sheet

    When the input is not a terminal, lines are read plainly and echoed, and the exit
    status is 3 if a contradiction was refused, else 2 if any line was refused, else 0.
    """
    from cli.commands import live_view

    session = Session(record)
    if as_ is not None:
        session.view = live_view(session.record, as_)
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not as_json
    colour = use_colour() and not as_json
    show_sheet: bool | str = not no_sheet
    if show_sheet and (interactive if compact is None else compact):
        show_sheet = "compact"

    width = _terminal_columns() if interactive else None
    screen = (Screen(session, colour, sheet=bool(show_sheet))
              if screen_wanted(interactive, show_sheet) else None)

    def say(text: str):
        if text:
            click.echo(colourize(fit_width(text, width) if width else text, colour))

    rec = session.record
    if as_json:
        click.echo(json.dumps({"result": "started", "record": record, "game": rec.game,
                               "players": list(rec.header.players), "view": session.view,
                               "statements": len(rec.statements)}))
    else:
        n = len(rec.statements)
        start = (f"{record}: {rec.game}, {' '.join(rec.header.players)}; "
                 f"{n} statement{'' if n == 1 else 's'}; view: {session.view or 'public'}."
                 "\nType 'help' for commands.")
        bad = session.consistent()
        if bad is not None:
            start += (f"\nwarning: the record is inconsistent: {conflict_text(bad, hint=True)}"
                      "\n'edit N' the wrong line, or 'undo' if it is the last")
        held = held_statement(session.text)
        if held is not None:
            start += (f"\nheld on line {held[0]} (a comment until resolved): {held[1]}; the "
                      "line that resolves it comes next")
        if screen is not None:           # the same, short enough for the screen's top
            screen.board(f"{os.path.basename(record)}: {rec.game}, {n} statement"
                         f"{'' if n == 1 else 's'}, view: {session.view or 'public'}; 'help' "
                         "for commands" + start.partition("Type 'help' for commands.")[2])
            screen.hinting = bool((interactive if hint is None else hint) and rec.statements)
            screen.stage(current_seconds())
        else:
            say(start)
            if bad is None and show_sheet and rec.statements:
                say(sheet_text(session, compact=show_sheet == "compact",
                               rows=_terminal_rows()))
            elif bad is None and not show_sheet:
                say("\n".join(notes_text(session)))
    # what accepts a refusal's one correction (Session.correction): on a terminal also an
    # empty line; piped, empty lines are skipped, so that a blank line in a script logs nothing
    keys = "Enter or y" if interactive else "y"
    ahead = screen.ahead if screen is not None else Ahead()
    lines = _interactive_lines(session, colour, screen, ahead) if interactive \
        else _piped_lines()
    # a held claim is a '# held:' comment line in the file from the moment it is typed (as
    # 'sleuth log' keeps one): no end of the session, a signal or a power cut, loses it
    worst = _lines(session, screen, lines, keys, show_sheet, interactive, as_json, hint,
                   say, width, ahead if interactive else None)
    if not interactive and worst:
        sys.exit(worst)


def _lines(session: Session, screen: Screen | None, lines, keys: str, show_sheet,
           interactive: bool, as_json: bool, hint: bool | None, say,
           width: int | None = None, ahead: Ahead | None = None) -> int:
    """``play``'s lines, each handled and answered; the exit status they call for.
    ``width``: the terminal's columns the answers are fitted to (``say`` fits them; a text
    that wraps itself, the advice, is written for them, so as to be wrapped once).
    ``ahead``: at a terminal, the input come in ahead, held after a refused line."""
    from solver.model.budget import restart

    worst = 0
    lines = marked(session, lines)
    if screen is not None:
        _on_screen(screen, lines, keys, hint is not False)
    else:
        for line in lines:
            read = line if isinstance(line, Outcome) else None  # refused as read (too long)
            if read is not None:
                line = read.statement
            if not interactive and not line.strip():
                continue                # only a key at a terminal accepts a correction
            if not interactive and not as_json:
                say(f"> {printable(line)}")
            word = line.strip().partition(" ")[0]
            if word.lower() in ("history", "more") and word not in session.record.header.players:
                # a terminal's pages: piped, every line said is on standard output already
                said = (f"{word.lower()}: a page of the terminal's screen; here every answer "
                        "is on standard output already")
                click.echo(json.dumps({"result": "noted", "message": said}) if as_json
                           else said)
                continue
            restart()                   # each line is its own analysis: a fresh --timeout
            o = read or checked(session, line)
            if o.kind == "empty":
                continue
            if o.kind == "refused" and o.error is not None:
                worst = max(worst, o.exit_code)
            if as_json:
                click.echo(json.dumps(outcome_json(o, session), ensure_ascii=False))
            elif o.kind != "quit":
                said = render_outcome(o, session, show_sheet, keys,
                                      fit=(width, 0) if width else None)
                if o.kind == "refused" and ahead is not None:
                    said += ahead.held(line)    # what came in after it: held, said
                say(said)
                if (interactive if hint is None else hint) and o.saved:
                    restart()
                    say(session.hint() or "")   # the advisor's one-line hint on the view's turn
            if o.kind == "quit":
                break
    return worst
