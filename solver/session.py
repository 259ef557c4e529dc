"""The live session behind ``sleuth play``: one line at a time, the record always on disk.

:class:`Session` is a state machine without any printing: :meth:`Session.handle` takes one
line the user typed and returns an :class:`Outcome` for the CLI to show.  A line is

* a statement in the record syntax (``Ana asks Ben 4H-7H: 4H``, a trailing ``# comment``
  allowed): it is checked against the *whole* record -- it must parse, the record must
  still follow the rules (``game.validate``) and still have a consistent deal
  (``game.check``) -- and only then appended and saved;
* ``force <statement>`` (or ``force`` alone, for the last statement refused as a
  contradiction): saved although it contradicts the record (it must still parse and be
  legal);
* ``undo``: removes the last statement step (with the lines that ``join`` it, such as the
  line that resolves a claim);
  the header, comment lines and blank lines stay; ``redo`` puts back what the last undo
  removed (while nothing else changed);
* ``edit N <statement>`` / ``delete N``: replace or remove the statement on record line N;
  the whole record is re-checked (rules and consistency) and a change that breaks it is
  refused with the conflict, like a new statement (:func:`edited`, also behind
  ``sleuth log --replace N``);
* ``whatif <statement>``: what would follow, without saving;
* ``why CARD``: the statements behind each certainty about a card;
* ``sheet``: the analysis again; ``help``; ``quit`` (or ``exit``, end of input);
* a line with only a ``# comment``: kept in the record as it is.

The file is replaced atomically (:func:`solver.records.atomic_write`) after every accepted
statement and every undo, so it is always a valid record that a person can edit; a crash
loses at most the line being typed.  If the file changes on disk between two lines (edited
by hand), the session reloads it before going on, and marks the lines that changed
(:attr:`Session.theirs`): ``undo``, ``edit N`` and ``delete N`` typed without a version are
refused once rather than act on them unsaid.  A change whose save is refused (a read-only
file, a full disk) leaves the session as it was (an ``undo`` or ``redo`` can be typed again).

Its doctest-style walk-through is ``tests/test_session.py::test_walkthrough``.
"""
from __future__ import annotations

import functools
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

from solver.errors import (FileError, InconsistentError, NotationError, RuleError, SleuthError,
                           StaleError)
from solver.games import Capability, Event, Vocabulary, get_game
from solver.model.budget import STEP_BUDGET
from solver.model.reuse import Memo, reusing
from solver.records import (Record, Statement, atomic_write, check_one_line, clean_temporaries,
                             parse_record, printable, record_lock, split_lines,
                             split_lines_keepends, strip_comment, text_version)
from solver.records import read_text as _read_text

#: what accepts the one correction of the statement just refused (``Session.correction``)
ACCEPT = ("", "y", "yes")

COMMANDS = ("undo", "redo", "edit", "delete", "why", "whatif", "force", "sheet", "help", "quit",
            "exit", "suggest")

#: one line per session command, for ``help``
COMMAND_HELP = (
    ("<statement>", "log it: checked against the whole record, then saved"),
    ("force <statement>", "log it even though it contradicts the record ('force' alone: "
                          "the last statement refused as a contradiction)"),
    ("undo", "remove the last statement from the record (it says which); just after an "
             "edit or delete, undo that"),
    ("redo", "put back what the last 'undo' removed"),
    ("edit N <statement>", "replace the statement on line N (the whole record is re-checked)"),
    ("delete N", "remove the statement on line N (the whole record is re-checked)"),
    ("whatif <statement>", "what would follow from it, without saving"),
    ("why CARD", "the statements behind each certainty about CARD"),
    ("sheet", "show the whole analysis (the likeliest hands, every section)"),
    ("y or Enter", "right after a refusal with one 'did you mean': log that correction"),
    ("suggest [N]", "the advisor: the N best actions of the view now (games with an advisor)"),
    ("help", "this list"),
    ("quit", "leave (everything accepted is already saved); also 'exit' or Ctrl-D"),
    ("# comment", "a comment line, kept in the record"),
)

@dataclass
class Outcome:
    """The result of one line.  ``kind``: ``accepted`` (saved), ``refused`` (not saved;
    ``error``, and ``conflict`` = the conflicting lines for a contradiction), ``pending``
    (a statement whose class is ``held_for`` another, saved as a :data:`HELD_MARK` comment
    line on ``line`` until that one follows, as ``sleuth log`` holds it), ``undone``,
    ``redone`` (``removed``: the lines the undo touched, ``undid``: what it undid;
    :meth:`taken_and_put` says which went out and which came back), ``edited``/``deleted``
    (``line``; ``removed``: the statement that was there), ``whatif``, ``why``,
    ``sheet``, ``help``, ``noted`` (a comment line saved), ``quit``, ``empty``."""

    kind: str
    message: str = ""
    statement: str = ""
    line: int | None = None               # the record line written
    #: the line of the held statement saved with this one (resolved by it), else None
    first: int | None = None
    error: SleuthError | None = None
    conflict: list[tuple[int, str]] = field(default_factory=list)
    forced: bool = False
    removed: list[tuple[int, str]] = field(default_factory=list)
    record: Record | None = None          # whatif: the hypothetical record
    before: Any = None                    # whatif: Knowledge now
    after: Any = None                     # whatif: Knowledge with the statement
    new_certain: dict[str, str] = field(default_factory=dict)
    explanation: Any = None
    reloaded: bool = False
    hypothetical: bool = False            # a refused 'whatif' (never saved anyway)
    undid: str = ""                       # undone/redone: "delete" or "edit" it undid, else ""
    advice: Any = None                    # suggest: the game's Advice

    @property
    def saved(self) -> bool:
        return self.kind in ("accepted", "pending", "undone", "redone", "edited", "deleted",
                             "noted")

    @property
    def exit_code(self) -> int:
        """0, or for a refused statement 2 (notation, rule) or 3 (contradiction)."""
        if self.kind == "refused" and self.error is not None:
            return self.error.exit_code
        return 0

    def to_json(self) -> dict:
        out: dict = {"result": self.kind, "statement": self.statement or None}
        if self.line is not None:
            out["line"] = self.line
        if self.message:
            out["message"] = self.message
        if self.error is not None:
            out["error"] = str(self.error)
            out["exit_code"] = self.error.exit_code
        if self.conflict:
            out["conflict"] = [ln for ln, _ in self.conflict]
        if self.forced:
            out["forced"] = True
        removed, restored = self.taken_and_put()
        if removed:
            out["removed"] = [{"line": ln, "text": t} for ln, t in removed]
        if restored:
            out["restored"] = [{"line": ln, "text": t} for ln, t in restored]
        if self.undid:
            out["undid"] = self.undid
        if self.new_certain:
            out["new_certain"] = self.new_certain
        return out

    def taken_and_put(self) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """The statements this outcome took out of the record and those it put (back) in,
        each with its line: an ``undone`` edit took out the edited statement and put back
        the one it replaced; a ``redone`` statement was put back.  (``removed`` holds what
        ``edit``/``delete`` replaced, and what an undo or redo touched.)"""
        if self.kind not in ("undone", "redone"):
            return list(self.removed), []
        if self.undid == "edit":
            edited = [(ln, strip_comment(self.statement)[0]) for ln, _ in self.removed]
            return (edited, list(self.removed)) if self.kind == "undone" \
                else (list(self.removed), edited)
        # a statement, a held statement's comment line or a deleted line: undo takes it out
        # (puts it back after a delete), redo the other way round
        out = (self.kind == "undone") != (self.undid == "delete")
        return (list(self.removed), []) if out else ([], list(self.removed))


def _lost_lines(before: str, after: str) -> bool:
    """Whether some non-blank line of ``before`` is not in ``after`` as often (lines were
    removed or changed, not only added).  A held statement's comment line (:data:`HELD_MARK`)
    that the statement itself now stands for, as a writer resolving it saves it (the
    statement and the line resolving it in place of the comment), is no line lost."""
    from collections import Counter

    def kept(ln: str) -> str:
        ln = ln.strip()
        return ln[len(HELD_MARK):].strip() if ln.startswith(HELD_MARK) else ln

    had = Counter(ln.strip() for ln in split_lines(before) if ln.strip())
    has = Counter(ln.strip() for ln in split_lines(after) if ln.strip())
    gone = had - has
    for ln, n in list(gone.items()):
        if ln.startswith(HELD_MARK) and has[kept(ln)] - had[kept(ln)] >= n:
            del gone[ln]
    return bool(gone)


def undo_lines(o: Outcome) -> list[str]:
    """What an ``undone`` or ``redone`` outcome did, one sentence a line it touched: a
    statement removed or put back, a deleted line put back or deleted again, an edited line
    as it was or as edited (``o.undid``: ``delete`` or ``edit`` when it undid one)."""
    word = "undo" if o.kind == "undone" else "redo"
    undo = o.kind == "undone"
    if o.undid == "held":
        ln = o.removed[0][0] if o.removed else o.line
        return [f"undo: took back the held statement (the comment line {ln}): {o.statement}"
                if undo else f"redo: put back the held statement as line {ln}: {o.statement}"]
    out = []
    for ln, text in o.removed:
        if o.undid == "delete":
            out.append(f"{word}: put back line {ln}: {text}" if undo
                       else f"{word}: deleted line {ln} again: {text}")
        elif o.undid == "edit":
            out.append(f"{word}: line {ln} is again: {text if undo else o.statement}")
        else:
            out.append(f"{word}: removed line {ln}: {text}" if undo
                       else f"{word}: put back line {ln}: {text}")
    return out


def appended(text: str, statement: str) -> str:
    """``text`` with one more line, ended as the record's lines are (``\r\n`` in a record
    written so, not a mix of both)."""
    end = "\r\n" if "\r\n" in text else "\n"
    if text and not text.endswith("\n"):
        text += end
    return text + statement.strip() + end


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def check_record(record: Record) -> None:
    """Raise :class:`InconsistentError` when the game finds no consistent course of play
    (a game without the CHECK capability has nothing to check)."""
    game = get_game(record.game)
    if Capability.CHECK in game.capabilities:
        game.check(record)


def checked_append(text: str, statement: str, path: str | None = None, *,
                   force: bool = False) -> tuple[str, Record]:
    """The record ``text`` with ``statement`` appended, parsed, validated and (unless
    ``force``) checked for consistency -- or the error; nothing is written.

    A statement is one line holding one game statement (a trailing ``# comment`` is kept):
    empty text, control characters, line breaks and header lines are refused.
    """
    if _SURROGATE.search(statement):
        raise NotationError("the statement is not UTF-8 text (an invalid byte)",
                            text=printable(statement), path=path)
    at = len(split_lines(text)) + 1         # the line the statement would be
    _one_line(statement, path, at)
    if not strip_comment(statement)[0]:
        raise NotationError("expected a game statement" + (
            ", not only a comment" if statement.strip() else ""), text=statement, path=path,
            line=at, column=_first_column(statement))
    new_text = appended(text, statement)
    n = len(split_lines(new_text))
    rec = _parse_correcting(new_text, path, statement, text, n, holds=True)
    if not rec.statements or rec.statements[-1].line != n:
        raise NotationError("expected a game statement, not a header line", text=statement,
                            path=path, line=n, column=_first_column(statement))
    if not force:
        check_record(rec)
    return new_text, rec


def _first_column(statement: str) -> int:
    """The column (1-based) of the statement's first character that is not a space."""
    return len(statement) - len(statement.lstrip()) + 1 if statement.strip() else 1


def _one_line(statement: str, path: str | None, line: int | None = None) -> None:
    """Refuse a statement that is more than one line or holds a control character (a
    line break that an editor or ``str.splitlines`` would honour could smuggle a second
    statement or a header line in): ``NotationError`` with the column."""
    if re.search(r"[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", statement):
        check_one_line(statement, path, line=line,
                       what="one statement at a time: a statement")
    check_one_line(statement, path, line=line)


#: seconds the did-you-mean corrections of a refused statement may spend checking each one
#: against the rules; past them the others are offered unchecked (a record whose every
#: check takes seconds, e.g. one following many unseen turns, is refused at once)
CORRECTION_SECONDS = 2.0


def _parse_correcting(new_text: str, path: str | None, statement: str, old_text: str,
                      line: int, *, holds: bool = False) -> Record:
    """``parse_record(new_text)``; a ``NotationError`` on ``line`` (the new statement)
    gets its did-you-mean corrections (:func:`solver.didyoumean.attach_corrections`).
    ``holds``: the statement is appended by a writer that holds a statement the rules
    refuse as written alone when its class waits for another (``held_for``,
    :func:`log_statement`), so such a correction is offered too."""
    try:
        return parse_record(new_text, path)
    except NotationError as e:
        if e.line == line:
            from solver.didyoumean import attach_corrections

            from solver.model.budget import TimeUp, part

            until = time.monotonic() + CORRECTION_SECONDS
            try:
                base = parse_record(old_text, path, validate=False)
            except SleuthError:
                raise e from None

            def allowed(text: str) -> bool:     # the rules keep: the game accepts it
                left = until - time.monotonic()
                if left <= 0:
                    return True         # past the time for checks: offered unchecked (it
                try:                    # is checked like any statement when logged)
                    with part(left):
                        parse_record(appended(old_text, text), path)
                except TimeUp:
                    return True
                except RuleError as r:  # refused alone, but held until the line resolving it
                    kind = _event_class(text, base) if holds else None
                    return may_hold(kind, r, len(split_lines(appended(old_text, text))))
                except SleuthError:
                    return False
                return True

            try:
                attach_corrections(e, statement, base, allowed)
            except SleuthError:
                pass
        raise


def read_text(path: str) -> str:
    """The text of a record file (:func:`solver.records.read_text`: ``NotationError`` when
    it is not UTF-8 or too long, ``FileError`` when it cannot be read)."""
    return _read_text(path)


def current_text(path: str, expect: str | None = None, statement: str = "") -> str:
    """The record's text now, read under its lock by the caller; with ``expect`` (the
    :func:`~solver.records.text_version` the writer decided on) a text that has moved on
    is a :class:`~solver.errors.StaleError` quoting ``statement``."""
    clean_temporaries(os.path.dirname(os.path.realpath(path)))
    text = read_text(path)
    if expect is not None and text_version(text) != expect:
        raise StaleError("not saved: the record changed since this version was read "
                         "(another device, 'sleuth log' or an editor saved it); reload and "
                         "try again", text=printable(statement) or None, path=path)
    return text


#: how many times a change is checked against the record an editor saved while it was
#: being checked, before it is refused (:func:`saving`)
RECHECKS = 3


def saving(path: str, expect: str | None, statement: str, change):
    """``change(text)`` on the record's text now, under its lock; ``change`` saves with
    ``atomic_write(..., base=text)``.  An editor takes no lock: if it saved the record
    while the change was checked, nothing is written over its lines; the change is checked
    again against the record as it is now (up to :data:`RECHECKS` times, then
    :class:`~solver.errors.StaleError`), or, with ``expect``, refused as stale."""
    with record_lock(path):
        for _ in range(RECHECKS - 1):
            text = current_text(path, expect, statement)
            try:
                return change(text)
            except StaleError:      # saved by an editor meanwhile: check it again
                continue
        try:
            return change(current_text(path, expect, statement))
        except StaleError as e:
            raise quoting(e, statement) from None


def quoting(e: SleuthError, text: str) -> SleuthError:
    """``e`` quoting ``text`` (what was typed), unless it quotes something already."""
    if e.text is None and text:
        e.text = printable(text)
        e.args = (e._render(),)
    return e


def append_statement(path: str, statement: str, *, force: bool = False,
                     expect: str | None = None) -> Record:
    """Check ``statement`` against the whole record file and append it (atomically), all
    under the record's lock (:func:`~solver.records.record_lock`): another writer's line
    saved meanwhile is checked with it, never written over (:func:`saving`).  On any
    refusal the file is left byte for byte as it was."""
    def change(text: str) -> Record:
        new_text, rec = checked_append(text, statement, path, force=force)
        atomic_write(path, new_text, base=text)
        return rec

    return saving(path, expect, statement, change)


#: a statement refused as written whose class waits for another (its event class's
#: ``held_for``: a claim that turned out wrong waits for the line showing the cards) is
#: kept at the record's end as a comment line with this mark, until ``log`` gets the line
#: that resolves it
HELD_MARK = "# held: "


@dataclass(frozen=True)
class Logged:
    """What :func:`log_statement` did: ``record`` is the record saved; ``held`` the
    statement kept as a held comment (``error``: why it could not stand alone);
    ``joined`` the held statement saved now together with this one; ``dropped`` a held
    statement left as a comment because another kind of statement followed it;
    ``advice`` the game's word on resolving the held statement (its ``held_advice``)."""

    record: Record
    held: str | None = None
    error: SleuthError | None = None
    advice: str = ""
    joined: str | None = None
    dropped: str | None = None
    line: int | None = None      # the record line written


def held_statement(text: str) -> tuple[int, str] | None:
    r"""The held statement at the end of a record's text (its line and statement), if the
    last line that is neither blank nor another comment line is a :data:`HELD_MARK` comment
    (a note typed after a held statement leaves it held).

    >>> held_statement("players: Ana Ben\n# held: Ana claims 2H-7H: Ana 2H\n\n# a note\n")
    (2, 'Ana claims 2H-7H: Ana 2H')
    >>> held_statement("players: Ana Ben\n# held: x\nAna has 5 cards\n") is None
    True
    """
    lines = split_lines(text)
    for i in range(len(lines) - 1, -1, -1):
        ln = lines[i].strip()
        if ln.startswith(HELD_MARK):
            return i + 1, ln[len(HELD_MARK):].strip()
        if ln and not ln.startswith("#"):
            return None
    return None


def may_hold(kind: type[Event] | None, e: SleuthError, line: int) -> bool:
    """Whether a statement of class ``kind`` refused with ``e`` as the record's line
    ``line`` is held until the line resolving it (``held_for``): a contradiction it is part
    of (not one the record had before it), or a refusal by one of the rules that line may
    cure (``held_rules``: the claim's cards placed where the cards shown say otherwise);
    a refusal the resolving line cannot change is a refusal."""
    if kind is None or kind.held_for is None:
        return False
    if isinstance(e, InconsistentError):
        return not e.conflict or line in e.conflict
    if not isinstance(e, RuleError) or e.line not in (None, line):
        return False
    rules = {r.strip().split("(")[0] for r in (e.rule or "").split(",")}
    return bool(rules & set(kind.held_rules))


def unheld(text: str, line: int, statement: str) -> str:
    r"""``text`` with its held statement's comment line ``line`` made the statement itself,
    in its place (a comment typed after it stays after it; its line end kept).

    >>> unheld("a\n# held: x y\n# a note\n", 2, "x y")
    'a\nx y\n# a note\n'
    """
    lines = split_lines_keepends(text)
    old = lines[line - 1]
    lines[line - 1] = statement + old[len(old.rstrip("\r\n")):]
    return "".join(lines)


def pair_lines(first: int, last: int) -> str:
    """The lines of a held statement and the one that resolved it, as messages say them."""
    return f"lines {first}-{last}" if last == first + 1 else f"lines {first} and {last}"


def without_line(text: str, line: int) -> str:
    """``text`` without its line ``line`` (1-based; a held statement's comment line, taken
    out when the statement is resolved or undone)."""
    lines = split_lines_keepends(text)
    return "".join(lines[: line - 1] + lines[line:])


def holding(text: str, statement: str) -> str:
    """``text`` with ``statement`` held: a :data:`HELD_MARK` comment line appended (what
    ``log``, ``play`` and ``serve`` all save for a statement refused as written alone whose
    class waits for another)."""
    return appended(text, HELD_MARK + statement.strip())


def advice_waits(text: str, record: Record, view: str | None):
    """The advice (:class:`solver.advice.Advice`, no actions) of ``view`` while the advisor
    has nothing to rank on the record ``text`` (``record`` parsed), else ``None``: while a
    statement is held (its :data:`HELD_MARK` comment line ends the record) the line that
    resolves it comes next -- an action ranked on the record without it would be one more
    statement of the same kind (a second claim of the same cards) -- and while the view's
    own hand is missing it is needed first (:func:`solver.advice.waiting`).  ``play``'s
    hint and ``suggest``, ``sleuth suggest`` and ``serve``'s hint all say it."""
    from solver.advice import Advice, waiting

    game = get_game(record.game)
    held = held_statement(text)
    if held is not None and view is not None:
        kind = _event_class(held[1], record)
        then = getattr(kind, "held_advice", "") or "the line that resolves it comes next"
        note = (f"the held {getattr(kind, 'held_name', 'statement')} on line {held[0]} "
                f"comes first ({then}): {held[1]}")
        return Advice(game.name, view, game.on_turn(record, view), [], True, "none", 0,
                      notes=[note], summary={"waiting": note})
    return waiting(game, record, view, game.on_turn(record, view))


def _event_class(statement: str, record: Record) -> type[Event] | None:
    try:
        return type(get_game(record.game).parse_event(strip_comment(statement)[0],
                                                      record.header))
    except SleuthError:
        return None


def same_statement(a: str, b: str, record: Record) -> bool:
    """Whether statements ``a`` and ``b`` say the same (as the program writes them) in
    ``record``'s game."""
    game, h = get_game(record.game), record.header
    try:
        return str(game.parse_event(strip_comment(a)[0], h)) \
            == str(game.parse_event(strip_comment(b)[0], h))
    except SleuthError:
        return False


def log_statement(path: str, statement: str, *, force: bool = False,
                  expect: str | None = None) -> Logged:
    """``sleuth log``: :func:`append_statement`, and every true line of a game can be
    logged one at a time.  A statement that, as written alone, is refused (a rule or a
    contradiction) but whose class waits for another (``held_for``: a claim that turned
    out wrong, resolved by the line showing the cards) is saved as a :data:`HELD_MARK`
    comment, as ``play`` and ``serve`` hold it; the next ``log`` of the resolving class
    checks the two together and writes them as statements in place of the comment.  The
    same statement held already is not held twice.  Anything else leaves the held comment
    where it is (nothing typed is lost)."""
    return saving(path, expect, statement,
                  lambda text: _log_over(path, text, statement, force))


def _log_over(path: str, text: str, statement: str, force: bool) -> Logged:
    """:func:`log_statement` on the record's ``text`` (read under its lock)."""
    base = parse_record(text, path, validate=False)
    held = held_statement(text)
    if held is not None:
        held_line, held_stmt = held
        kind = _event_class(held_stmt, base)
        if kind is not None and kind.held_for is not None \
                and _event_class(statement, base) is kind.held_for:
            new_text, rec = checked_append(unheld(text, held_line, held_stmt), statement,
                                           path, force=force)
            atomic_write(path, new_text, base=text)
            return Logged(rec, joined=held_stmt, line=rec.statements[-1].line)
        if kind is not None and kind.held_for is not None and not force \
                and same_statement(held_stmt, statement, base):
            # held already (another recorder typed it first): one held statement, not two
            return Logged(base, held=held_stmt, advice=kind.held_advice, line=held_line)
    try:
        new_text, rec = checked_append(text, statement, path, force=force)
    except (InconsistentError, RuleError) as e:
        kind = _event_class(statement, base)
        if kind is None or not may_hold(kind, e, len(split_lines(appended(text, statement)))):
            raise
        new_text = holding(text, statement)
        rec = parse_record(new_text, path)
        atomic_write(path, new_text, base=text)
        return Logged(rec, held=statement.strip(), error=e, advice=kind.held_advice,
                      line=len(split_lines(new_text)),
                      dropped=held[1] if held is not None else None)
    atomic_write(path, new_text, base=text)
    return Logged(rec, dropped=held[1] if held is not None else None,
                  line=rec.statements[-1].line)


def line_number(text) -> int | None:
    """``text`` (an int or a string) as a line number, if it is written with at most 12 of
    the digits 0-9 (``int()`` also takes ``'５'``, ``'1_0'``, ``'+5'``, and raises on
    thousands of digits); else ``None``.

    >>> line_number(" 12"), line_number("５"), line_number("9" * 5000), line_number(-1)
    (12, None, None, -1)
    """
    t = str(text).strip()
    return int(t) if re.fullmatch(r"-?[0-9]{1,12}", t) else None


def statement_line(text: str, line, path: str | None = None) -> int:
    """``line`` (an int or its text) as the record line of a statement of ``text`` --
    else a ``NotationError`` that says which lines hold statements."""
    n = line_number(line)
    if n is None:
        raise NotationError("expected a line number written 0-9 (the 'line N' of the "
                            "messages)", text=printable(str(line))[:40], path=path)
    rec = parse_record(text, path, validate=False)
    lines = [st.line for st in rec.statements]
    if n not in lines:
        span = f"lines {lines[0]}-{lines[-1]}" if lines else "none yet"
        raise NotationError(f"line {n} holds no statement (statements: {span})",
                            text=str(line), path=path)
    return n


def edited(text: str, line, statement: str | None, path: str | None = None, *,
           force: bool = False) -> tuple[str, Record, str]:
    """The record ``text`` with the statement on record line ``line`` replaced by
    ``statement`` (``None``: deleted), parsed, validated and (unless ``force``) checked for
    consistency as a whole -- or the error, like a new statement; nothing is written.
    Returns the new text, its record and the statement that was there.  A replacement
    keeps the old line's comment unless it brings its own.  An inconsistency after a
    deletion names the lines as they are numbered now."""
    n = statement_line(text, line, path)
    lines = split_lines_keepends(text)
    old = lines[n - 1]
    old_stmt, old_comment = strip_comment(old.strip())
    if statement is None:
        new_lines = lines[: n - 1] + lines[n:]
    else:
        _one_line(statement, path, n)
        stmt, comment = strip_comment(statement.strip())
        if not stmt:
            raise NotationError("expected a game statement", text=statement, path=path,
                                line=n, column=_first_column(statement))
        comment = comment or old_comment
        new = f"{stmt}   # {comment}" if comment else stmt
        end = old[len(old.rstrip("\r\n")):]          # the old line's own end (CRLF kept)
        new_lines = lines[: n - 1] + [new + end] + lines[n:]
    new_text = "".join(new_lines)
    try:
        rec = (parse_record(new_text, path) if statement is None
               else _parse_correcting(new_text, path, statement, text, n))
        if statement is not None and n not in {st.line for st in rec.statements}:
            raise NotationError("expected a game statement, not a header line",
                                text=statement, path=path, line=n,
                                column=_first_column(statement))
        if not force:
            check_record(rec)
    except SleuthError as e:
        if statement is None:
            _renumber_after_delete(e, n)
        raise
    return new_text, rec, old_stmt


def _renumber_after_delete(e: SleuthError, n: int) -> None:
    """Line numbers of an error about the record without line ``n``, as numbered before."""
    if isinstance(e, InconsistentError):
        e.conflict = sorted(ln + 1 if ln >= n else ln for ln in e.conflict)
        if e.reason:
            e.reason = renumber_text(e.reason, lambda ln: ln + 1 if ln >= n else ln)
    if e.line is not None and e.line >= n:
        e.line += 1
        e.args = (e._render(),)


_LINES = re.compile(r"\b(lines? )(\d+(?:(?:, | and )\d+)*)")


def renumber_text(text: str, renumber) -> str:
    """``text`` with every line number it names (``line 7``, ``lines 7, 8 and 11``: the
    wording of :func:`solver.model.conflicts.lines_text`) passed through ``renumber``.

    >>> renumber_text("lines 3, 5 and 9 put KS there; line 12 says not", lambda n: n + 1)
    'lines 4, 6 and 10 put KS there; line 13 says not'
    """
    def one(m):
        nums = re.sub(r"\d+", lambda d: str(renumber(int(d.group()))), m.group(2))
        return m.group(1) + nums

    return _LINES.sub(one, text)


def replace_statement(path: str, line, statement: str | None, *,
                      force: bool = False, expect: str | None = None) -> tuple[Record, str]:
    """Replace (``None``: delete) the statement on record line ``line`` of the file, after
    checking the whole record (atomically; on any refusal the file is left as it was).
    Used by ``sleuth log --replace N``; under the record's lock, like every save.  Returns
    the new record and the statement that was there.  Checked again after an editor's
    save only while lines 1 to N are as they were: line N is never re-aimed."""
    first: list[list[str]] = []

    def change(text: str) -> tuple[Record, str]:
        n = statement_line(text, line, path)
        if first and split_lines(text)[:n] != first[0][:n]:
            raise StaleError(f"not saved: line {n} or a line above it changed on disk while "
                             "this change was being checked (an editor saved it?); nothing "
                             "was written: look at the record again and retry", path=path)
        first.append(split_lines(text))
        new_text, rec, old = edited(text, line, statement, path, force=force)
        atomic_write(path, new_text, base=text)
        return rec, old

    return saving(path, expect, statement or f"delete {line}", change)


def _reusing(method):
    """``method`` within the session's :class:`~solver.model.reuse.reusing` block: a
    statement that leaves the counting problem as it was costs no second count."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with reusing(self.memo):
            return method(self, *args, **kwargs)
    return run


class Session:
    """A live session on one record file (see the module doc).

    ``view``: whose analysis to show and explain (default: the record's ``me:``; ``None``
    = the public view)."""

    _ME = object()

    def __init__(self, path: str, view: Any = _ME):
        self.path = path
        try:
            clean_temporaries(os.path.dirname(os.path.realpath(path)))
            self.text = read_text(path)
        except SleuthError as e:
            if os.path.exists(path):
                raise
            raise NotationError(f"{e.message}; start one with 'sleuth new GAME RECORD "
                                "--players ...'", text=path) from None
        self.record = parse_record(self.text, path)
        self.game = get_game(self.record.game)
        self.view = self.record.header.me if view is Session._ME else view
        self.last_refused: str | None = None   # the last statement refused as a contradiction
        #: the one correction of the statement just refused (its 'did you mean'), which
        #: ``y`` or an empty line logs; any other line forgets it
        self.correction: str | None = None
        #: the keys of the alerts shown (:meth:`table_notes`): each is shown once
        self.alerted: set[str] = set()
        #: the texts of the notes last said without a sheet (:meth:`new_notes`)
        self.noted: set[str] = set()
        #: what 'redo' can put back: (text before the undo, text after it, lines removed)
        #: what ``redo`` puts back: (the text before the undo, after it, the lines it
        #: removed or restored, what it undid: "" a statement, "delete" or "edit", the
        #: edited line's new text)
        self.redo_stack: list[tuple[str, str, list[tuple[int, str]], str, str]] = []
        #: the last change, when it was an ``edit N``/``delete N``: (the text before it,
        #: after it, its outcome), so that ``undo`` undoes it rather than remove another line
        self.last_edit: tuple[str, str, Outcome] | None = None
        #: the lines of :attr:`text` (0-based) that another writer or an editor wrote,
        #: changed or moved (the line after lines it removed) since the session last said
        #: so: a line typed without a version (``play``) decided ``undo``, ``edit N`` or
        #: ``delete N`` on the record as shown, so they are refused once when they would
        #: act on such a line (:meth:`_not_as_shown`), also when the session reloaded the
        #: file during an earlier line (a statement refused)
        self.theirs: set[int] = set()
        #: the counting programmes kept between commands (solver.model.reuse)
        self.memo = Memo()

    # ----- the file ------------------------------------------------------------------------
    def consistent(self) -> InconsistentError | None:
        """``None`` if the record has a consistent deal, else the error."""
        try:
            self._check(self.record)
        except InconsistentError as e:
            return e
        return None

    def _check(self, rec: Record) -> None:
        check_record(rec)

    def _sync(self) -> bool:
        """Reload the record if the file changed on disk; True when it did."""
        text = read_text(self.path)
        if text == self.text:
            return False
        rec = parse_record(text, self.path)   # a broken hand edit: refuse until it is fixed
        if rec.game != self.record.game:
            raise NotationError("the record's game changed on disk", text=rec.game)
        self._carry(text, theirs=True)
        self.text, self.record = text, rec
        return True

    def _carry(self, new_text: str, *, theirs: bool) -> None:
        """Carry :attr:`theirs` from :attr:`text` to ``new_text``: a line kept keeps its
        mark; a line written or changed is marked when ``theirs`` (a reload), as is the line
        that now stands where lines were removed (or the last line, when they were at the
        end): its number, or the last statement, is not the one shown."""
        import difflib

        old, new = split_lines(self.text), split_lines(new_text)
        head = 0
        while head < min(len(old), len(new)) and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        marks = {i for i in self.theirs if i < head}
        marks |= {i + len(new) - len(old) for i in self.theirs if i >= len(old) - tail}
        a, b = old[head:len(old) - tail], new[head:len(new) - tail]
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b,
                                                           autojunk=False).get_opcodes():
            if tag == "equal":
                marks |= {head + j1 + k for k in range(i2 - i1) if head + i1 + k in self.theirs}
            elif theirs:
                marks |= set(range(head + j1, head + j2))
                if i2 - i1 > j2 - j1 and new:       # lines removed: the next one moved up
                    marks.add(min(head + j2, len(new) - 1))
        self.theirs = marks

    def _save(self, text: str, rec: Record, *, keep_redo: bool = False) -> None:
        """Save ``text`` over the record the session holds (:attr:`text`, read under the
        lock); a file an editor saved meanwhile is not written over (``StaleError``)."""
        atomic_write(self.path, text, base=self.text)
        if not keep_redo:
            self.redo_stack.clear()
        self.last_edit = None
        self._carry(text, theirs=False)
        self.text, self.record = text, rec

    # ----- one line ------------------------------------------------------------------------
    def handle(self, line: str, expect: str | None = None) -> Outcome:
        """Act on one line typed by the user.  Nothing here raises on bad input: a line that
        is not UTF-8 text (surrogate escapes) or holds a control character, or a save that
        fails (a full disk, a read-only file: :class:`~solver.errors.FileError`), is a
        refused outcome and the file on disk is what it was.

        A line that changes the record is read, checked and saved under the record's lock
        (:func:`~solver.records.record_lock`), so another writer's save is reloaded first
        and never written over.  ``expect``: the :func:`~solver.records.text_version` of
        the record the user decided on (a page of ``sleuth serve``); if the file moved on
        since, a change is refused with :class:`~solver.errors.StaleError` and the session
        reloads."""
        raw = line.strip()
        if _SURROGATE.search(line):
            shown = printable(raw)
            return Outcome("refused", statement=shown, error=NotationError(
                "the line is not UTF-8 text (an invalid byte)", text=shown, path=self.path))
        try:
            check_one_line(raw, self.path, what="a line")
        except NotationError as e:
            return Outcome("refused", statement=printable(raw), error=e)
        if expect is not None:
            # a page sends the correction it offered, or 'force <statement>', itself: 'y',
            # an empty line or 'force' alone from one device must not log the correction
            # or the refused statement of another device
            self.correction = self.last_refused = None
        # what the line may use up, kept for a save that fails (a correction)
        correction = self.correction
        try:
            if not self._writes(raw):
                return self._handle(line, versioned=expect is not None)
            with record_lock(self.path):
                if expect is not None:
                    try:
                        current_text(self.path, expect, raw)
                    except StaleError as e:
                        reloaded = self._sync_quietly()
                        return Outcome("refused", statement=raw, error=e, reloaded=reloaded)
                return self._handle(line, versioned=expect is not None)
        except StaleError as e:         # an editor saved the file while the line was checked
            self.correction = correction
            return Outcome("refused", statement=raw, error=quoting(e, raw),
                           reloaded=self._sync_quietly())
        except FileError as e:
            self.correction = correction
            return Outcome("refused", "not saved: the file could not be written",
                           statement=raw, error=e)

    @property
    def version(self) -> str:
        """The :func:`~solver.records.text_version` of the record as the session has it."""
        return text_version(self.text)

    def _writes(self, raw: str) -> bool:
        """Whether the line ``raw`` may change the record (a statement, a comment line,
        ``undo``, ``redo``, ``edit``, ``delete``, ``force``)."""
        stmt = strip_comment(raw)[0]
        if not raw:
            return self.correction is not None
        word = stmt.partition(" ")[0]
        if self.correction is not None and raw.lower() in ACCEPT:
            return True
        if word.lower() in COMMANDS and word not in self.record.header.players:
            return word.lower() in ("undo", "redo", "edit", "delete", "force")
        return True

    def reread(self) -> bool:
        """The record read again if another writer changed the file (whether it did); an
        unreadable file leaves the session as it was (its next change says why)."""
        return self._sync_quietly()

    def _sync_quietly(self) -> bool:
        try:
            return self._sync()
        except SleuthError:
            return False

    def _handle(self, line: str, versioned: bool = False) -> Outcome:
        """:meth:`handle` under the lock; ``versioned``: the line came with the version it
        was decided on (checked already)."""
        raw = line.strip()
        fix, self.correction = self.correction, None
        if fix is not None and raw.lower() in ACCEPT:
            try:
                reloaded = self._sync()
            except SleuthError as e:
                return Outcome("refused", "the file on disk no longer parses", error=e)
            out = self._submit_noting(fix)
            out.reloaded = reloaded
            return out
        if not raw:
            return Outcome("empty")
        stmt, comment = strip_comment(raw)
        word, _, rest = stmt.partition(" ")
        cmd = word.lower()
        if cmd in COMMANDS and word not in self.record.header.players:
            rest = stmt[len(word):].strip()
            if rest and cmd in ("undo", "redo", "sheet", "quit", "exit"):
                # 'undo 5' is not 'undo': the words after it are a mistake, not ignored
                return Outcome("refused", statement=raw, error=NotationError(
                    f"'{cmd}' takes nothing after it (to change or remove line N: "
                    f"'edit N <statement>', 'delete N')", text=raw, path=self.path))
            if cmd in ("quit", "exit"):
                return Outcome("quit")
            if cmd == "help":
                return Outcome("help", message=self.help_text())
            try:
                reloaded = self._sync()
            except SleuthError as e:
                return Outcome("refused", "the file on disk no longer parses; fix it or "
                               "undo there first", error=e)
            why = None if versioned else self._not_as_shown(cmd, rest)
            if why is not None:
                # decided on the record as it was shown: another writer's lines are the
                # last statement, or moved the line numbers; never act on them unsaid.
                # Said now: typed again, it acts on the record as it is
                self.theirs.clear()
                return Outcome("refused", statement=raw, reloaded=reloaded, error=StaleError(
                    f"not done: the record changed on disk before this '{cmd}' (another "
                    f"writer or an editor saved it{'; reloaded' if reloaded else ''}): "
                    f"{why}", text=raw, path=self.path))
            if cmd == "sheet":
                out = Outcome("sheet")
            elif cmd == "undo":
                out = self.undo()
            elif cmd == "redo":
                out = self.redo()
            elif cmd == "edit":
                num, _, new = rest.partition(" ")
                out = self.edit(num, self._with_comment(new.strip(), comment) if new.strip()
                                else "")
            elif cmd == "delete":
                out = self.edit(rest, None)
            elif cmd == "why":
                out = self.why(rest)
            elif cmd == "whatif":
                out = self.whatif(self._with_comment(rest, comment))
            elif cmd == "suggest":
                out = self.advise(rest)
            else:  # force
                target = self._with_comment(rest, comment) if rest else self.last_refused
                if not target:
                    out = Outcome("refused", error=NotationError(
                        "nothing to force: type 'force <statement>'", text=raw))
                else:
                    out = self.submit(target, force=True)
            out.reloaded = reloaded
            return out
        if not stmt:          # a comment line
            try:
                reloaded = self._sync()
            except SleuthError as e:
                return Outcome("refused", "the file on disk no longer parses", error=e)
            new = appended(self.text, raw)
            self._save(new, parse_record(new, self.path))
            return Outcome("noted", statement=raw, reloaded=reloaded)
        shown_text = self.text
        try:
            reloaded = self._sync()
        except SleuthError as e:
            return Outcome("refused", "the file on disk no longer parses", error=e)
        if reloaded and not versioned and _lost_lines(shown_text, self.text):
            # lines the session had are gone from the file: an editor's save that removed
            # them, or one still being written (truncated, then written in parts), whose
            # half would be saved over. Not saved now; typed again, it is saved on the file
            # as it is then
            return Outcome("refused", statement=raw, reloaded=True, error=StaleError(
                "not saved: the record on disk lost lines since it was last read (an editor "
                "saved it, or is still saving it; reloaded): look at it, then type the line "
                "again", text=raw, path=self.path))
        out = self._submit_noting(raw)
        out.reloaded = reloaded
        return out

    def _not_as_shown(self, cmd: str, rest: str) -> str | None:
        """Why ``cmd`` would act on lines another writer or an editor wrote, changed or
        moved since the session showed the record (:attr:`theirs`): the last statement
        (``undo``; not when it undoes the session's own ``edit N``/``delete N``; a held
        statement's comment line another writer saved counts as theirs), line N or a line
        above it (``edit N``, ``delete N``; a comment changed counts: it would be written
        over); else ``None``."""
        from solver.replay import statement_groups

        if not self.theirs:
            return None
        if cmd == "undo":
            if self.last_edit is not None and self.last_edit[1] == self.text:
                return None
            held = held_statement(self.text)
            if held is not None:
                if held[0] - 1 not in self.theirs:
                    return None
                return (f"its last change is now the held {self.held_name(held[1])} on line "
                        f"{held[0]}: {held[1]}; 'undo' typed again takes that one back")
            if not self.record.statements:
                return None
            last = [self.record.statements[i] for i in statement_groups(self.record)[-1]]
            if not any(st.line - 1 in self.theirs for st in last):
                return None
            st = last[-1]
            return (f"its last statement is now line {st.line}: {st.text}; 'undo' typed "
                    "again removes that one")
        if cmd in ("edit", "delete"):
            n = line_number(rest.partition(" ")[0])
            if n is not None and any(i < n for i in self.theirs):
                lines = split_lines(self.text)
                now = f"line {n} is now: {lines[n - 1]}" if 1 <= n <= len(lines) \
                    else f"the record has {len(lines)} lines now"
                return (f"line {n} or a line above it is not as shown ({now}): look at it "
                        "again, then type it again")
        return None

    def _submit_noting(self, statement: str) -> Outcome:
        """:meth:`submit`, keeping the correction of a refusal that has exactly one."""
        out = self.submit(statement)
        fixes = getattr(out.error, "did_you_mean", None) if out.kind == "refused" else None
        if fixes and len(fixes) == 1:
            self.correction = fixes[0]
        return out

    @staticmethod
    def _with_comment(stmt: str, comment: str) -> str:
        return f"{stmt}   # {comment}" if comment else stmt

    def _conflict_lines(self, err: InconsistentError, text: str) -> list[tuple[int, str]]:
        lines = split_lines(text)
        out = []
        for ln in err.conflict:
            if 1 <= ln <= len(lines):
                out.append((ln, strip_comment(lines[ln - 1])[0]))
        return out

    def _try(self, statement: str, force: bool, text: str | None = None) -> tuple[str, Record]:
        """The record text with ``statement`` appended, parsed, validated and (unless
        ``force``) checked (see :func:`checked_append`)."""
        base = self.text if text is None else text
        try:
            return checked_append(base, statement, self.path, force=force)
        except InconsistentError as e:
            # cited as a parse or rule refusal is: the line the statement would have been
            raise e.located(path=self.path, line=len(split_lines(base)) + 1,
                            column=_first_column(statement))
        except SleuthError as e:
            raise e.located(path=self.path)

    def submit(self, statement: str, force: bool = False) -> Outcome:
        """Check ``statement`` against the whole record and save it (see the module doc).
        A held statement ending the record (a :data:`HELD_MARK` comment line, saved by this
        session, another one or ``sleuth log``) is resolved by a statement of the class it
        waits for: the two are checked together and saved as statements in place of the
        comment.  Any other statement saved leaves the comment line where it is, and says
        so; a line refused leaves it held."""
        held = held_statement(self.text)
        if held is not None and self._resolves(held[1], statement):
            both = unheld(self.text, held[0], held[1])
            try:
                both, rec = self._try(statement, force, both)
            except InconsistentError as e:      # still held: its line may be typed again
                self.last_refused = None
                return Outcome("refused", statement=statement, error=e,
                               conflict=self._conflict_lines(e, both))
            except SleuthError as e:
                return Outcome("refused", statement=statement, error=e)
            self._save(both, rec)
            return Outcome("accepted", statement=f"{held[1]} / {statement}",
                           line=rec.statements[-1].line, first=rec.statements[-2].line,
                           forced=force)
        if held is not None and not force and self._same(held[1], statement):
            # the same statement held already (another device, or 'sleuth log', typed it
            # first): one held statement, not two
            kind = self._kind_of(statement)
            return Outcome("pending", statement=statement, line=held[0], message=(
                f"held already on line {held[0]} (a comment until resolved): {held[1]}"
                + (f"; {kind.held_advice}" if kind is not None and kind.held_advice else "")))
        note = ""
        if held is not None:
            note = (f"note: the held {self.held_name(held[1])} on line {held[0]} stays a "
                    f"comment line, not a statement: {held[1]}")
        out = self._alone(statement, force, note)
        if out.kind == "refused":
            out.message = ""            # a line refused saved nothing: the claim is held still
        return out

    def _alone(self, statement: str, force: bool, note: str) -> Outcome:
        """:meth:`submit` of a statement that resolves no held one (``note``: the held one
        it leaves a comment line, said with the outcome)."""
        new_text = appended(self.text, statement)
        try:
            new_text, rec = self._try(statement, force)
        except (InconsistentError, RuleError) as e:
            kind = self._kind_of(statement)
            if kind is not None and may_hold(kind, e, len(split_lines(new_text))):
                # held as 'sleuth log' holds it: a comment line saved at once, so that no
                # end of the session (a signal, a closed terminal, a power cut) loses it
                held_text = holding(self.text, statement)
                self._save(held_text, parse_record(held_text, self.path))
                n = len(split_lines(held_text))
                return Outcome("pending", statement=statement, error=e, line=n,
                               conflict=(self._conflict_lines(e, new_text)
                                         if isinstance(e, InconsistentError) else []),
                               message=f"saved as comment line {n} ({HELD_MARK}...), not yet "
                               f"a statement: as stated, this {kind.held_name} "
                               + ("contradicts the record" if isinstance(e, InconsistentError)
                                  else "breaks a rule")
                               + (f"; {kind.held_advice}" if kind.held_advice else "")
                               + f" (another statement saved leaves the {kind.held_name} a "
                               "comment line; 'undo' takes it back)"
                               + (f"\n  {note}" if note else ""))
            if isinstance(e, InconsistentError):
                self.last_refused = statement
                return Outcome("refused", note, statement=statement, error=e,
                               conflict=self._conflict_lines(e, new_text))
            return Outcome("refused", note, statement=statement, error=e)
        except SleuthError as e:
            return Outcome("refused", note, statement=statement, error=e)
        self._save(new_text, rec)
        conflict: list[tuple[int, str]] = []
        if force:
            self.last_refused = None
            bad = self.consistent()
            if bad is not None:
                conflict = self._conflict_lines(bad, new_text)
        return Outcome("accepted", note, statement=statement,
                       line=rec.statements[-1].line if rec.statements else None, forced=force,
                       conflict=conflict)

    def _same(self, a: str, b: str) -> bool:
        """Whether statements ``a`` and ``b`` say the same (as the program writes them)."""
        return same_statement(a, b, self.record)

    def _resolves(self, held: str, statement: str) -> bool:
        """Whether ``statement`` is of the class the held statement waits for."""
        kind = self._kind_of(held)
        return kind is not None and kind.held_for is not None \
            and self._kind_of(statement) is kind.held_for

    def held_name(self, statement: str | None = None) -> str:
        """What the messages call a held statement (the game's word: its event class's
        ``held_name``); ``statement`` defaults to the one held now (ending the record)."""
        if statement is None:
            held = held_statement(self.text)
            statement = held[1] if held is not None else ""
        kind = self._kind_of(statement)
        return getattr(kind, "held_name", "statement")

    def _kind_of(self, statement: str) -> type[Event] | None:
        """The event class of ``statement`` (``None`` if it does not parse)."""
        try:
            ev = self.game.parse_event(strip_comment(statement)[0], self.record.header)
        except SleuthError:
            return None
        return type(ev)

    def undo(self) -> Outcome:
        """Remove the last statement (a claim with its ``shown`` line) from the record; just
        after an ``edit N`` or ``delete N`` (nothing else changed since), undo that instead:
        a line deleted by mistake is put back where it was, an edited one is as it was; with
        a claim held for its ``shown`` line (its :data:`HELD_MARK` comment line ending the
        record), take the claim back: that comment line is removed ('redo' puts it back)."""
        from solver.replay import statement_groups

        held = held_statement(self.text)
        if held is not None and not (self.last_edit is not None
                                     and self.last_edit[1] == self.text):
            # a claim held for its shown line is the last thing logged: undo takes it back
            # (not the saved statement before it)
            before, new_text = self.text, without_line(self.text, held[0])
            self._save(new_text, parse_record(new_text, self.path), keep_redo=True)
            removed = [(held[0], split_lines(before)[held[0] - 1].strip())]
            self.redo_stack.append((before, new_text, removed, "held", held[1]))
            return Outcome("undone", statement=held[1], line=held[0], removed=removed,
                           undid="held")
        if self.last_edit is not None and self.last_edit[1] == self.text:
            before, after, o = self.last_edit
            undid = "delete" if o.kind == "deleted" else "edit"
            self._save(before, parse_record(before, self.path), keep_redo=True)
            self.redo_stack.append((after, before, o.removed, undid, o.statement or ""))
            return Outcome("undone", statement=o.statement, line=o.line,
                           removed=o.removed, undid=undid)
        if not self.record.statements:
            return Outcome("refused", error=NotationError("nothing to undo: the record has no "
                                                          "statements", text="undo"))
        last = statement_groups(self.record)[-1]
        gone = [self.record.statements[i] for i in last]
        drop = {s.line for s in gone}
        lines = split_lines_keepends(self.text)
        new_text = "".join(l for i, l in enumerate(lines, 1) if i not in drop)
        rec = parse_record(new_text, self.path)
        before = self.text
        self._save(new_text, rec, keep_redo=True)
        removed = [(s.line, s.text) for s in gone]
        self.redo_stack.append((before, new_text, removed, "", ""))
        return Outcome("undone", removed=removed)

    def redo(self) -> Outcome:
        """Put back what the last ``undo`` removed (while nothing else changed since)."""
        if not self.redo_stack:
            return Outcome("refused", error=NotationError(
                "nothing to redo: 'redo' follows an 'undo'", text="redo"))
        before, after, removed, undid, statement = self.redo_stack[-1]
        if self.text != after:
            self.redo_stack.clear()
            return Outcome("refused", error=NotationError(
                "nothing to redo: the record changed since the undo", text="redo"))
        self._save(before, parse_record(before, self.path), keep_redo=True)
        self.redo_stack.pop()           # (after the save: a refused save uses up nothing)
        line = removed[-1][0] if removed else None
        if undid in ("delete", "edit"):  # the edit or delete done again: undo undoes it again
            kind = "deleted" if undid == "delete" else "edited"
            self.last_edit = (after, before, Outcome(kind, statement=statement, line=line,
                                                     removed=removed))
        return Outcome("redone", statement=statement, removed=removed, line=line, undid=undid)

    def edit(self, line: str, statement: str | None) -> Outcome:
        """Replace (``None``: delete) the statement on record line ``line``; the whole
        record is re-checked and a change that breaks it is refused like a new statement."""
        what = "delete" if statement is None else "edit"
        if not str(line).strip():
            return Outcome("refused", error=NotationError(
                "which line? 'delete N'" if statement is None
                else "which line? 'edit N <statement>'", text=what))
        if statement is not None and not statement.strip():
            return Outcome("refused", error=NotationError(
                "edit to what? 'edit N <statement>'", text=f"edit {line}"))
        try:
            new_text, rec, old = edited(self.text, line, statement, self.path)
        except InconsistentError as e:
            # cited at the line changed, as a refusal of the new text there is (not where
            # the game placed it in the edited record: the statement as typed, its column)
            e.line = e.column = None
            e.located(path=self.path, line=line_number(line),
                      column=1 if statement is None else _first_column(statement))
            text = self.text if statement is None else self._edited_text(line, statement)
            return Outcome("refused", "not changed: the record would be inconsistent",
                           statement=statement or "", error=e,
                           conflict=self._conflict_lines(e, text), line=int(line))
        except SleuthError as e:
            n = line_number(line)
            return Outcome("refused", statement=statement or "", error=e.located(path=self.path),
                           line=n)
        n = int(str(line).strip())
        before = self.text
        self._save(new_text, rec)
        kind = "deleted" if statement is None else "edited"
        out = Outcome(kind, statement=statement or "", line=n, removed=[(n, old)])
        self.last_edit = (before, new_text, out)
        return out

    def _edited_text(self, line, statement: str) -> str:
        """The text with line ``line`` replaced, unchecked (to quote a conflict)."""
        lines = split_lines_keepends(self.text)
        n = int(str(line).strip())
        lines[n - 1] = statement + "\n"
        return "".join(lines)

    def why(self, card: str) -> Outcome:
        if not card:
            return Outcome("refused", error=NotationError("which card? 'why KS'", text="why"))
        if Capability.EXPLAIN not in self.game.capabilities:
            return Outcome("refused", error=NotationError("this game has no card explanations",
                                                          text=self.record.game))
        try:
            exp = self.game.explain(self.record, self.view, card)
        except SleuthError as e:
            return Outcome("refused", statement=card, error=e)
        return Outcome("why", statement=card, explanation=exp)

    @_reusing
    def whatif(self, statement: str) -> Outcome:
        """What would follow from ``statement`` (nothing is saved)."""
        from solver.replay import probe

        if not statement:
            return Outcome("refused", error=NotationError("what if what? 'whatif <statement>'",
                                                          text="whatif"))
        new_text = appended(self.text, statement)
        try:
            new_text, rec = self._try(statement, False)
        except InconsistentError as e:
            return Outcome("refused", "it would contradict the record", statement=statement,
                           error=e, conflict=self._conflict_lines(e, new_text),
                           hypothetical=True)
        except SleuthError as e:
            return Outcome("refused", statement=statement, error=e, hypothetical=True)
        try:
            before = probe(self.record, self.view, STEP_BUDGET)
        except SleuthError:
            before = None
        try:
            after = probe(rec, self.view, STEP_BUDGET)
        except SleuthError as e:
            return Outcome("refused", statement=statement, error=e, hypothetical=True)
        new = {c: l for c, l in after.certain.items()
               if before is None or before.certain.get(c) != l}
        return Outcome("whatif", statement=statement, record=rec, before=before, after=after,
                       new_certain=new)

    @_reusing
    def analyze(self, record: Record | None = None):
        """The game's analysis of the record (or ``record``) from the session's view; raises
        the game's errors (an inconsistent record: :class:`InconsistentError`)."""
        rec = record if record is not None else self.record
        if Capability.ANALYZE not in self.game.capabilities:
            raise NotationError("this game has no analysis", text=rec.game)
        return self.game.analyze(rec, self.view)

    @_reusing
    def advise(self, rest: str = "") -> Outcome:
        """``suggest [N]``: the advisor's N (default 5) best actions of the view now."""
        if Capability.ADVISE not in self.game.capabilities:
            return Outcome("refused", error=NotationError("this game has no advisor",
                                                          text="suggest"))
        try:
            top = int(rest) if rest.strip() else 5
        except ValueError:
            top = 0
        if top < 1:
            return Outcome("refused", error=NotationError(
                "expected 'suggest [N]', N a number of actions from 1", text=rest))
        try:
            adv = self._waiting() or self.game.suggest(self.record, self.view, top=top)
        except SleuthError as e:
            return Outcome("refused", error=e)
        return Outcome("suggest", advice=adv)

    @_reusing
    def hint(self) -> str | None:
        """One line from the advisor when it is the view's turn (else ``None``); instead,
        what must come first while the advisor waits (:meth:`_waiting`): a held statement's
        resolution whatever the turn (it comes next), the view's own hand on its turn."""
        if Capability.ADVISE not in self.game.capabilities or self.view is None:
            return None
        try:
            adv = self._waiting()
            on_turn = self.game.on_turn(self.record, self.view)
            if adv is not None:
                held = held_statement(self.text) is not None
                return adv.hint() if held or on_turn else None
            if not on_turn:
                return None
            return self.game.suggest(self.record, self.view, top=1).hint()
        except SleuthError:
            return None

    def _waiting(self):
        """The advice (:class:`solver.advice.Advice`, no actions) while the advisor has
        nothing to rank, else ``None``: while a statement is held (its comment line ends
        the record) the line that resolves it comes next -- an action ranked on the record
        without it would be one more statement of the same kind (a second claim of the
        same cards) -- and while the view's own hand is missing it is needed first
        (:func:`solver.advice.waiting`)."""
        return advice_waits(self.text, self.record, self.view)

    @_reusing
    def table_notes(self, analysis=None) -> list:
        """The game's notes on the table now (:meth:`solver.games.Game.table_notes`),
        without the alerts already shown; an alert that stops holding may be shown again
        when it holds once more."""
        try:
            notes = self.game.table_notes(self.record, self.view, analysis)
        except SleuthError:
            return []
        if held_statement(self.text) is not None:
            # a held statement comes first: the alerts to act (a safe claim, an accusation)
            # wait, unshown and so shown once it is resolved
            notes = [n for n in notes if n.key is None]
        keys = {n.key for n in notes if n.key}
        out = [n for n in notes if n.key is None or n.key not in self.alerted]
        self.alerted = keys
        return out

    def new_notes(self, analysis=None) -> list:
        """The notes worth saying when no sheet is shown (``play --no-sheet``): the alerts
        not shown yet (as :meth:`table_notes`) and the other notes whose text is new since
        the last call (``Next: Ben's turn.`` each turn, ``Missing: ...`` once).  Without an
        ``analysis`` the game gets one that is computed only if it asks for it."""
        notes = self.table_notes(analysis if analysis is not None else _LazyAnalysis(self))
        out = [n for n in notes if n.key is not None or n.text not in self.noted]
        self.noted = {n.text for n in notes if n.key is None}
        return out

    # ----- help and completion -------------------------------------------------------------
    def help_text(self) -> str:
        w = max(len(a) for a, _ in COMMAND_HELP)
        out = ["Type one statement a line, or a command:"]
        out += [f"  {a.ljust(w)}  {b}" for a, b in COMMAND_HELP]
        examples = own_examples(self.record)
        if examples:
            out.append(f"Statements ({self.game.name}; all of them: sleuth format "
                       f"{self.game.name}), for example:")
            out += [f"  {e}" for e in examples]
        out.append("Players: " + " ".join(self.vocabulary().names))
        return "\n".join(out)

    def vocabulary(self) -> Vocabulary:
        return vocabulary(self.record)

    def complete(self, before_cursor: str) -> list[str]:
        """Completions of the word being typed (see :func:`complete`); after ``edit`` or
        ``delete`` the record's statement line numbers (:meth:`completion_meta`), the last
        first, and after ``edit N`` a statement."""
        words = before_cursor.split()
        typing = not before_cursor[-1:].isspace()
        if words and words[0].lower() in ("edit", "delete") and len(words) >= 1 + typing:
            if len(words) == 1 + typing:        # the line number
                typed = words[1] if typing else ""
                return [n for n in self.completion_meta(before_cursor) if n.startswith(typed)]
            if words[0].lower() == "delete":     # nothing follows the number
                return []
            from dataclasses import replace

            at = before_cursor.index(words[1], before_cursor.lower().index("edit") + 4)
            return complete(replace(self.vocabulary(), commands=()),
                            before_cursor[at + len(words[1]):])
        return complete(self.vocabulary(), before_cursor)

    def completion_meta(self, before_cursor: str) -> dict[str, str]:
        """What the menu shows beside a completion: after ``edit`` or ``delete``, each
        statement line's number (the last first) with its text; else nothing."""
        words = before_cursor.split()
        if not words or words[0].lower() not in ("edit", "delete"):
            return {}
        return {str(st.line): st.text for st in reversed(self.record.statements)}


_NAME = re.compile(r"\b[A-Z][a-z]+\b")


def own_examples(record) -> list[str]:
    """The game's example statements written with ``record``'s players: the names of the
    examples, in order of appearance, become the record's players in seating order; an
    example that does not parse under the record's header then is left out."""
    game = get_game(record.game)
    k = game.keywords
    keywords = {w.lower() for w in (*k.lead, *k.verbs, *k.words)}
    names: list[str] = []
    for e in game.examples:
        for m in _NAME.finditer(e):
            if m.group(0).lower() not in keywords and m.group(0) not in names:
                names.append(m.group(0))
    players = list(record.header.players)
    mapping = dict(zip(names, players))
    out = []
    for e in game.examples:
        named = _NAME.sub(lambda m: mapping.get(m.group(0), m.group(0)), e)
        for candidate in (named, e, *_shorter_answers(named)):
            try:
                game.parse_event(candidate, record.header)
            except SleuthError:
                continue
            fitted = _dealt(game, record, candidate)
            if fitted is not None and fitted not in out:
                out.append(fitted)
            break
    return out


def _shorter_answers(example: str) -> list[str]:
    """``example`` with the last items of its answer left out, one more each time (an
    answer listing one item a player, ``P 0, Q 1, R 0`` or ``0 1 0``: a smaller table has
    fewer players to list)."""
    head, colon, answer = example.partition(":")
    if not colon:
        return []
    sep = "," if "," in answer else " "
    items = [x for x in answer.split(sep) if x.strip()]
    return [f"{head}: {(sep + ' ' if sep == ',' else sep).join(x.strip() for x in items[:n])}"
            for n in range(len(items) - 1, 0, -1)]


#: a setup line of cards whose count the table sets: a hand (``Ana holds: ...``), the cards
#: face up (``faceup: ...``)
_DEALT = re.compile(r"^((?:\S+ )?(?:holds|faceup|mystery)(?: \S+)?:)\s*(.*)$", re.I)


def _dealt(game, record, example: str) -> str | None:
    """``example`` as it fits ``record``'s table when it lists the cards of a deal (a hand,
    the cards face up): with as many cards as the table deals there (the example's own
    first, then others of the game's), or ``None`` when no such line fits it (no card face
    up at a table that deals none); any other example as it is."""
    from dataclasses import replace

    m = _DEALT.match(example)
    if m is None:
        return example
    own = m.group(2).split()
    deck = [c for c in game.vocabulary(record).cards if c not in own]
    pool = own + deck

    def refusal(cards: list[str]) -> str | None:
        """Why the line with ``cards`` does not fit the table alone (``None``: it does)."""
        line = f"{m.group(1)} {' '.join(cards)}"
        try:
            ev = game.parse_event(line, record.header)
            game.validate(replace(record, statements=(Statement(1, line, ev),)))
        except SleuthError as e:
            return str(e)
        return None
    why = refusal(own)
    if why is None:
        return example
    for n in range(1, min(len(pool), 30) + 1):
        if n != len(own) and refusal(pool[:n]) is None:
            return f"{m.group(1)} {' '.join(pool[:n])}"
    # no count fits: dropped when the count was what was wrong, else the line needs other
    # lines before it (a deal first), which an example cannot show: kept as it is
    said = why.rpartition(": '")[0] or why
    return None if re.search(r"\bcards?\b", said) else example


def vocabulary(record) -> Vocabulary:
    """Names, keywords, cards and ranges of ``record``'s game, with the session's commands."""
    from dataclasses import replace

    game = get_game(record.game)
    v = game.vocabulary(record)
    return replace(v, commands=COMMANDS, follows=v.follows or game.keywords.follows)


_TOKEN = re.compile(r"[^\s,;:]*$")


def complete(v: Vocabulary, before_cursor: str) -> list[str]:
    """The completions of the last word of ``before_cursor``, best first: commands, names
    and leading keywords for the first word, verbs after a name, cards after ``why``, and
    names, cards, ranges and keywords later on.  Case-insensitive prefix match.

    >>> v = Vocabulary(("Ana", "Ben"), ("faceup",), ("asks",), ("all",), ("AS", "AH"), ("AS-4S",),
    ...                COMMANDS)
    >>> complete(v, "Ana holds: A")
    ['AS', 'AH', 'Ana', 'all']
    >>> complete(v, ""), complete(v, "Ana a"), complete(v, "Ana asks B"), complete(v, "why a")
    (['undo', 'redo', 'edit', 'delete', 'why', 'whatif', 'force', 'sheet', 'help', 'quit', 'exit', 'suggest', 'Ana', 'Ben', 'faceup'], ['asks'], ['Ben'], ['AS', 'AH'])
    """
    text = before_cursor.lstrip()
    m = _TOKEN.search(text)
    prefix = m.group(0) if m else ""
    head = text[: len(text) - len(prefix)]
    words = head.split()
    if words and words[0].lower() in ("whatif", "force"):
        return complete(v, text[len(words[0]):])
    if words and words[0].lower() == "why":
        pool: list[str] = list(v.cards)
    elif not words:
        pool = list(v.commands) + list(v.names) + list(v.lead)
    elif len(words) == 1 and _is_name(v, words[0]):
        pool = list(v.verbs)
    elif (follows := _follows(v, words, head)) is not None:
        pool = follows
    elif ":" in head:     # an answer or a list: what follows a colon (no query sets)
        pool = list(v.cards) + list(v.names) + list(v.words)
    else:
        pool = list(v.names) + list(v.ranges) + list(v.cards) + list(v.words) + list(v.verbs)
    low = prefix.lower()
    out: list[str] = []
    for w in pool:
        if w.lower().startswith(low) and w not in out:
            out.append(w)
    return out


def _is_name(v: Vocabulary, word: str) -> bool:
    """Whether ``word`` is a player's name, in any case (as a statement may write it)."""
    return word.casefold() in {n.casefold() for n in v.names}


def _follows(v: Vocabulary, words: list[str], head: str) -> list[str] | None:
    """What may come next after the keyword that starts the statement (``Ana requests``,
    ``faceup``) by the game's :attr:`solver.games.Keywords.follows`; ``None`` when the
    game does not say.

    >>> from solver.games import CARDS, NAMES, RANGES
    >>> v = Vocabulary(("Ana", "Ben"), (), ("asks", "requests"), ("all",), ("AS", "AH"),
    ...                ("A*",), (), (("requests", ((CARDS,),), (NAMES, "nobody")),
    ...                               ("asks", ((NAMES, "all"), (RANGES,)), (CARDS,))))
    >>> complete(v, "Ana requests A"), complete(v, "Ana requests AS: "), complete(v, "Ana asks ")
    (['AS', 'AH'], ['Ana', 'Ben', 'nobody'], ['Ana', 'Ben', 'all'])
    >>> complete(v, "Ana asks all "), complete(v, "Ana asks Ben A*: A")
    (['A*'], ['AS', 'AH'])

    A game whose rules let a player name only some players there says whom
    (:attr:`solver.games.Vocabulary.named`):

    >>> from dataclasses import replace
    >>> w = replace(v, names=("Ana", "Ben", "Cleo"), named=(("asks", "Ana", ("Ben",)),))
    >>> complete(w, "ana asks "), complete(w, "Ben asks ")
    (['Ben', 'all'], ['Ana', 'Ben', 'Cleo', 'all'])

    A keyword of two words (``asks all``) is preferred to its first word alone.
    """
    from solver.games import CARDS, NAMES, RANGES, WORDS

    if not v.follows or not words:
        return None
    at = 1 if _is_name(v, words[0]) and len(words) > 1 else 0
    key = words[at].rstrip(":").lower()
    two = " ".join(w.rstrip(":").lower() for w in words[at:at + 2])     # 'asks all'
    spec = (next((f for f in v.follows if f[0].lower() == two), None) if len(words) > at + 1
            else None) or next((f for f in v.follows if f[0].lower() == key), None)
    if spec is None:
        return None
    keyword, slots, answer = spec
    if ":" in head:
        choices = answer
    else:
        n = len(words) - at - len(keyword.split())
        choices = slots[min(n, len(slots) - 1)] if slots else ()
    names = v.names
    if at and ":" not in head:          # whom this player may name there (the game's rules)
        actor = next(n for n in v.names if n.casefold() == words[0].casefold())
        names = next((allowed for k, p, allowed in v.named
                      if k.lower() == keyword.lower() and p == actor), names)
    classes = {NAMES: names, CARDS: v.cards, RANGES: v.ranges, WORDS: v.words}
    out: list[str] = []
    for c in choices:
        out += list(classes.get(c, (c,)))
    return out


class _LazyAnalysis:
    """The session's analysis, computed on the first use of one of its attributes (a
    game's notes that need no analysis cost none); an error there reads as no analysis."""

    def __init__(self, session: "Session"):
        self._session = session
        self._value: Any = None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if self._value is None:
            self._value = self._session.analyze()
        return getattr(self._value, name)


def record_views(path: str) -> list[str]:
    """The players whose view of a record file can be analysed (for shell completion of
    ``--as``): every player of a complete record, else the recorder (``me:``) alone; empty
    if it does not parse."""
    from solver.games import get_game

    if not os.path.exists(path):
        return []
    try:
        with open(path, encoding="utf-8") as f:
            record = parse_record(f.read(), path)
        return [v for v in get_game(record.game).views(record) if v is not None]
    except (SleuthError, OSError, UnicodeDecodeError):
        return []


