"""The error hierarchy.

Every error is a :class:`ValueError`; its message quotes the offending input and names the
rule (``MH-11``, ``LIT-6(c)``...) when a rule is broken.  The CLI turns them into messages
and exit codes; nothing below the CLI prints.

>>> e = NotationError("bad card", text="1Z")
>>> isinstance(e, ValueError), str(e)
(True, "bad card: '1Z'")
"""
from __future__ import annotations

from typing import Any


class SleuthError(ValueError):
    """Base class of every error cardsleuth raises on bad input."""

    exit_code = 2
    #: corrected versions of the input the message offers ("did you mean"), best first
    did_you_mean: list[str] | tuple[str, ...] = ()
    #: the game of the record or command the error is about, where known: a lettered rule
    #: (A4) is numbered in several games, and the hint names the game (``sleuth rules hand A4``)
    game: str | None = None

    def __init__(self, message: str, *, text: str | None = None, rule: str | None = None,
                 path: str | None = None, line: int | None = None, column: int | None = None,
                 offset: int | None = None, within: str | None = None):
        self.message = message
        self.text = text
        #: where in ``text`` the fault is (0-based), when not at its start: the column
        #: then points at it once the line is known (records._locate)
        self.offset = offset
        #: the part of the statement (a card list) in which ``offset`` places ``text``,
        #: when ``text`` alone would not say which of its copies is meant (a card listed
        #: twice: the second copy); the column then points there (records._locate)
        self.within = within
        self.rule = rule
        self.path = path
        self.line = line
        self.column = column
        super().__init__(self._render())

    def where(self) -> str:
        """``'FILE:LINE:COL: '`` as far as the position is known, else ``''``."""
        if self.path is None and self.line is None:
            return ""
        parts = [self.path or "<record>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts) + ": "

    def _render(self) -> str:
        where = self.where()
        msg = self.message
        if self.rule and f"({self.rule})" not in msg:   # never '(MY-1) (MY-1)'
            msg = f"{msg} ({self.rule})"
        if self.text is not None:
            msg = f"{msg}: {self.text!r}"
        return where + msg

    def located(self, *, path: str | None = None, line: int | None = None,
                column: int | None = None) -> "SleuthError":
        """Fill in the position (keeping any already known) and re-render the message."""
        if path is not None and self.path is None:
            self.path = path
        if line is not None and self.line is None:
            self.line = line
        if column is not None and self.column is None:
            self.column = column
        self.args = (self._render(),)
        return self

    def __str__(self) -> str:  # keep str() in step with located()
        return self.args[0] if self.args else self._render()


class NotationError(SleuthError):
    """Text that does not parse: a bad card, range, keyword or statement."""


class RuleError(SleuthError):
    """Well-formed input that a game rule forbids (an illegal ask, a card in two places...)."""


class BudgetError(SleuthError):
    """An answer that could not be found within the time or work allowed (a solver time-out).

    Exit code 4: the record is fine, the question was too hard for the budget; run again
    with a larger budget or on a shorter prefix."""

    exit_code = 4


class FileError(SleuthError):
    """A record (or output) file that cannot be read or written: missing, read-only, a full
    disk, a read-only file system, bytes that are not UTF-8.  Exit code 2, like bad input;
    the message says what to do.  Build one from an :class:`OSError` with :meth:`from_os`.

    >>> import errno
    >>> full = OSError(errno.ENOSPC, "No space left on device")
    >>> str(FileError.from_os(full, "g.txt", "save the file"))
    "cannot save the file (the disk is full: free some space and try again, the file is unchanged): 'g.txt'"
    """

    #: errno -> advice
    ADVICE = {
        "ENOSPC": "the disk is full: free some space and try again, the file is unchanged",
        "EDQUOT": "the disk quota is exhausted: free some space and try again, the file is "
                  "unchanged",
        "EROFS": "the file system is read-only: copy the record to a writable folder",
        "EACCES": "permission denied: check the permissions of the file and its folder",
        "EPERM": "permission denied: check the permissions of the file and its folder",
        "ENOENT": "no such file or folder: check the path",
        "EISDIR": "that is a folder, not a file",
        "ENOTDIR": "a part of the path is not a folder",
        "ENAMETOOLONG": "the file name is too long",
        "ELOOP": "too many symbolic links (a loop?)",
        "EIO": "an input/output error: check the disk",
    }

    @classmethod
    def from_os(cls, err: OSError, path: str | None = None,
                action: str = "write the file") -> "FileError":
        import errno as _errno

        name = _errno.errorcode.get(err.errno or 0, "")
        # the advice says the system's reason in plain words, and what to do
        reason = cls.ADVICE.get(name) or err.strerror or str(err)
        return cls(f"cannot {action} ({reason})",
                   text=path if path is not None else err.filename)


class StaleError(SleuthError):
    """A change built on a version of the record that has moved on: another writer (a second
    device of ``sleuth serve``, ``sleuth log``, an editor) saved it in between.  Nothing was
    written; the writer reloads and decides again.  Exit code 2.

    >>> str(StaleError("the record changed since this page was loaded", text="Ana asks Ben 5*: 1"))
    "the record changed since this page was loaded: 'Ana asks Ben 5*: 1'"
    """


#: how a conflict's message goes on to quote its lines ("no deal fits the record; these
#: statements conflict: line 6: ...; line 8: ...")
CONFLICT_LIST = "; these statements conflict: "


class InconsistentError(SleuthError):
    """Observations that cannot all be true together.

    ``conflict`` lists the record lines of a minimal set of conflicting statements;
    ``reason``, when known, is one plain sentence saying why they cannot all hold ("lines
    7, 8 put 3H 5H in the mystery hand, so with line 11 KS cannot be in the mystery hand;
    line 13 says it is"), naming lines the way :func:`solver.model.conflicts.lines_text`
    does.  ``rule``, when known, is the rule the sentence rests on (``E3``, ``CL-10``);
    like ``reason`` it may be made on first use.  Its position (:meth:`located`, filled in
    by :func:`solver.records.locate_conflict` where the record is known) is the statement
    that completes the contradiction: the last line of ``conflict`` unless a game names
    another; ``statements`` quotes the record's lines of ``conflict`` (line -> text) when
    the message does not.

    >>> e = InconsistentError("no deal fits the record", conflict=[8, 6], rule=lambda: "E3")
    >>> e.conflict, e.rule, str(e.located(path="g.txt", line=8, column=1))
    ([6, 8], 'E3', 'g.txt:8:1: no deal fits the record')
    """

    exit_code = 3

    def __init__(self, message: str, conflict: list[int] | None = None,
                 reason=None, **kw):
        self.conflict = sorted(set(conflict or []))
        self._reason = reason       # a sentence, or a function making it when first asked
        self._rule: Any = None      # likewise the rule (set through ``rule`` below)
        self._rule_read = False
        #: record line -> its statement, for the lines of ``conflict`` a message does not quote
        self.statements: dict[int, str] = {}
        super().__init__(message, **kw)

    @property
    def reason(self) -> str | None:
        """The sentence (made on first use: callers that only test consistency, such as
        the advisor's hypothetical answers, never pay for it)."""
        if callable(self._reason):
            self._reason = self._reason()
        return self._reason

    @reason.setter
    def reason(self, value) -> None:
        self._reason = value

    @property   # type: ignore[override]
    def rule(self) -> str | None:
        """The rule the contradiction rests on (made on first use, like :attr:`reason`);
        when none was given, the one rule the sentence itself cites, if it cites one."""
        if callable(self._rule):
            self._rule = self._rule()
        if self._rule is None and not self._rule_read:
            self._rule_read = True
            from solver.rulebook import rule_ids

            said = self.message.partition(CONFLICT_LIST)[0]     # not the statements quoted
            cited = rule_ids(f"{said} {self.reason or ''}")
            self._rule = cited[0] if len(cited) == 1 else None
        return self._rule

    @rule.setter
    def rule(self, value) -> None:
        self._rule = value
        self._rule_read = False

    def _render(self) -> str:
        # the rule is not rendered here (making it may cost solver calls): the CLI's
        # conflict text (cli.main.conflict_text) says it once, after the sentence
        msg = self.message if self.text is None else f"{self.message}: {self.text!r}"
        return self.where() + msg
