"""Game records (record-format.md): header, statements, reading and writing.

The reader is generic: it splits the text into the header and the statements, strips
comments, and hands each statement to the game's own event parser (looked up by the
``game:`` header through :mod:`solver.games`).  Errors carry file, line and column.

Round trips and error locations are tested in ``tests/test_records.py``.
"""
from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from solver.errors import NotationError, SleuthError
from solver.games import REGISTRY, get_game

CORE_HEADER_KEYS = ("game", "variant", "players", "dealer", "me")
_NAME_RE = re.compile(r"^[A-Za-z0-9_\-]+$")
_HEADER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_\-]*)\s*:\s*(.*)$")


def strip_comment(line: str) -> tuple[str, str]:
    """Split a line into its statement text and its comment (without ``#``).

    >>> strip_comment("Ana asks Ben 5*: 2   # backs only")
    ('Ana asks Ben 5*: 2', 'backs only')
    """
    if "#" in line:
        i = line.index("#")
        return line[:i].strip(), line[i + 1:].strip()
    return line.strip(), ""


def check_player_name(name: str, text: str | None = None) -> str:
    if not _NAME_RE.match(name):
        raise NotationError("a player name is one word of letters, digits, '_' or '-'",
                            text=text or name)
    return name


@dataclass(frozen=True)
class Header:
    """The record header.  ``options`` maps option names to values (``True`` for flags)."""

    game: str
    players: tuple[str, ...]
    variant: tuple[str, ...] = ()
    dealer: str | None = None
    me: str | None = None
    extra: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.extra:
            if k == key:
                return v
        return default

    def options(self) -> dict[str, str | bool]:
        """``variant: sneak, two-player=blind`` -> ``{'sneak': True, 'two-player': 'blind'}``."""
        out: dict[str, str | bool] = {}
        for opt in self.variant:
            if "=" in opt:
                k, v = opt.split("=", 1)
                out[k.strip()] = v.strip()
            else:
                out[opt] = True
        return out

    def lines(self) -> list[str]:
        out = [f"game: {self.game}"]
        if self.variant:
            out.append("variant: " + ", ".join(self.variant))
        out.append("players: " + " ".join(self.players))
        if self.dealer:
            out.append(f"dealer: {self.dealer}")
        for k, v in self.extra:
            out.append(f"{k}: {v}")
        if self.me:
            out.append(f"me: {self.me}")
        return out


@dataclass(frozen=True)
class Statement:
    """One event line of a record: its 1-based line number, its text and the parsed event."""

    line: int
    text: str
    event: Any
    comment: str = ""

    def __repr__(self) -> str:
        return f"{self.line}: {self.text}"


@dataclass(frozen=True)
class Record:
    header: Header
    statements: tuple[Statement, ...] = ()
    path: str | None = None

    @property
    def game(self) -> str:
        return self.header.game

    def events(self) -> list[Any]:
        return [s.event for s in self.statements]

    def prefix(self, n: int) -> "Record":
        """The record with only its first ``n`` statements."""
        return replace(self, statements=self.statements[:n])


def _locate(err: SleuthError, path: str | None, lineno: int, raw: str) -> SleuthError:
    col = None
    if err.column is None and err.text:
        idx = raw.find(err.text)
        if idx < 0:
            idx = raw.lower().find(err.text.lower())
        col = idx + 1 if idx >= 0 else 1
    return err.located(path=path, line=lineno, column=col)


def parse_header(pairs: list[tuple[int, str, str, str]], path: str | None) -> Header:
    values: dict[str, tuple[int, str, str]] = {}
    for lineno, key, value, raw in pairs:
        values[key] = (lineno, value, raw)
    if "game" not in values:
        raise NotationError("the header needs 'game: <name>' before the first event",
                            text=pairs[0][3] if pairs else "", path=path,
                            line=pairs[0][0] if pairs else 1, column=1)
    gl, gname, graw = values["game"]
    gname = gname.strip().lower()
    try:
        game = get_game(gname)
    except SleuthError as e:
        raise e.located(path=path, line=gl, column=graw.lower().find(gname) + 1 or 1) from None
    if "players" not in values:
        raise NotationError("the header needs 'players: <names in seating order>'",
                            text=graw, path=path, line=gl, column=1)
    pl, pval, praw = values["players"]
    players = tuple(pval.split())
    for p in players:
        try:
            check_player_name(p)
        except SleuthError as e:
            raise _locate(e, path, pl, praw) from None
    if len(set(players)) != len(players):
        dup = next(p for p in players if players.count(p) > 1)
        raise NotationError("a player is listed twice", text=dup, path=path, line=pl,
                            column=praw.find(dup) + 1)
    variant: tuple[str, ...] = ()
    if "variant" in values:
        vl, vval, vraw = values["variant"]
        opts = [o.strip().lower().replace("_", "-") for o in re.split(r",", vval) if o.strip()]
        opts = [re.sub(r"\s*=\s*", "=", o) for o in opts if o != "standard"]
        variant = tuple(opts)
    dealer = me = None
    for key in ("dealer", "me"):
        if key in values:
            kl, kval, kraw = values[key]
            name = kval.strip()
            if name and name not in players:
                raise NotationError(f"'{key}:' must name one of the players "
                                    f"({' '.join(players)})", text=name, path=path, line=kl,
                                    column=kraw.find(name) + 1)
            if key == "dealer":
                dealer = name or None
            else:
                me = name or None
    extra = tuple((k, v) for k, (l, v, r) in values.items()
                  if k not in ("game", "variant", "players", "dealer", "me"))
    header = Header(game=gname, players=players, variant=variant, dealer=dealer, me=me,
                    extra=extra)
    try:
        game.check_header(header)
    except SleuthError as e:
        key = "variant" if "variant" in values else "players"
        kl, _, kraw = values.get(key, values["players"])
        raise _locate(e, path, kl, kraw) from None
    return header


def parse_record(text: str, path: str | None = None, *, validate: bool = True) -> Record:
    """Parse a whole record.  With ``validate`` the game's rule checks run over the events
    (turn order, legality), raising :class:`~solver.errors.RuleError` with the line."""
    header_pairs: list[tuple[int, str, str, str]] = []
    body: list[tuple[int, str, str, str]] = []
    header_keys = set(CORE_HEADER_KEYS)
    game = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        stmt, comment = strip_comment(raw)
        if not stmt:
            continue
        m = _HEADER_RE.match(stmt)
        if not body and m and m.group(1).lower() == "game":
            gname = m.group(2).strip().lower()
            if gname in REGISTRY:
                game = get_game(gname)
                header_keys |= set(game.header_keys)
        if not body and m and m.group(1).lower() in header_keys:
            key = m.group(1).lower()
            if any(k == key for _, k, _, _ in header_pairs):
                raise NotationError(f"header key '{key}' given twice", text=stmt, path=path,
                                    line=lineno, column=1)
            header_pairs.append((lineno, key, m.group(2).strip(), raw))
        else:
            body.append((lineno, stmt, comment, raw))
    header = parse_header(header_pairs, path)
    game = get_game(header.game)
    statements = []
    for lineno, stmt, comment, raw in body:
        try:
            ev = game.parse_event(stmt, header)
        except SleuthError as e:
            raise _locate(e, path, lineno, raw) from None
        statements.append(Statement(lineno, stmt, ev, comment))
    rec = Record(header=header, statements=tuple(statements), path=path)
    if validate:
        game.validate(rec)
    return rec


def read_record(path: str, *, validate: bool = True) -> Record:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise NotationError(f"cannot read the record ({e.strerror})", text=path) from None
    except UnicodeDecodeError:
        raise NotationError("the record is not UTF-8 text", text=path) from None
    return parse_record(text, path, validate=validate)


def write_record(record: Record, comments: bool = True) -> str:
    """The canonical text of a record (header, then one event a line).

    Parsing the result gives back the same header and events.
    """
    lines = record.header.lines()
    for s in record.statements:
        line = str(s.event)
        if comments and s.comment:
            line += f"   # {s.comment}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def atomic_write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, flushed,
    then renamed over the target.  A crash leaves either the old or the new file."""
    folder = os.path.dirname(os.path.abspath(path)) or "."
    fd, tmp = tempfile.mkstemp(prefix=".sleuth-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
