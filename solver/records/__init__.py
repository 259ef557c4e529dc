"""Game records (record-format.md): header, statements, reading and writing.

The reader is generic: it splits the text into the header and the statements, strips
comments, and hands each statement to the game's own event parser (looked up by the
``game:`` header through :mod:`solver.games`).  Errors carry file, line and column.

Round trips and error locations are tested in ``tests/test_records.py``.
"""
from __future__ import annotations

import contextlib
import functools
import os
import re
import secrets
import signal
import stat
import sys
import threading
import time
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

from solver.cards import canonical
from solver.errors import FileError, InconsistentError, NotationError, SleuthError
from solver.games import REGISTRY, get_game
from solver.options import option_items

CORE_HEADER_KEYS = ("game", "variant", "players", "dealer", "me")
#: a player name where a statement's pattern expects one: a run of word characters, `-`
#: and other non-ASCII characters (the combining marks of `अनिल`, of a name written
#: decomposed); :func:`check_player_name` says which names are valid, :func:`player_of`
#: which are the record's players.  The two kinds of character are disjoint, so a run of
#: them is matched one way only (overlapping ones made a failed match backtrack through
#: every split of a long run of non-ASCII letters: minutes for 30 of them)
NAME = r"(?:[\w\-]|[^\x00-\x7f\s\w])+"
_HEADER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_\-]*)\s*:\s*(.*)$")

#: words of every game's JSON and ``--as`` (record-format.md): the spectator's view, the
#: answer of nobody, a question to all.  With a game's own location words
#: (:attr:`solver.games.Game.location_words`) a player may not be called so (compared
#: without case), or that player's view and cards could not be told apart from them
VIEW_WORDS = frozenset({"public", "nobody", "all"})


def reserved_names(game: str | None = None) -> frozenset[str]:
    """The words no player of ``game`` (a registered name) may be called: :data:`VIEW_WORDS`
    and the game's location words; without a game, those of every registered game.

    >>> from solver.games import games
    >>> all(reserved_names(g.name) == VIEW_WORDS | set(g.location_words) for g in games())
    True
    """
    names = [game] if game is not None else list(REGISTRY)
    return VIEW_WORDS.union(*(get_game(n).location_words for n in names))

#: limits on input (docs/reliability.md): a record is a card game, not a data set; larger
#: input is refused at once instead of being parsed for minutes
MAX_RECORD_BYTES = 256 * 1024
MAX_LINE_CHARS = 10_000

#: the name of the label used for a record read from standard input
STDIN_LABEL = "<stdin>"

_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: a suit symbol with a variation selector, as a phone's emoji keyboard types it (``♥️``,
#: U+2665 U+FE0F): the suit itself
_SUIT_VARIANT = re.compile("([\u2660\u2663\u2665\u2666])[\ufe0e\ufe0f]")


def strip_comment(line: str) -> tuple[str, str]:
    """Split a line into its statement text and its comment (without ``#``).

    >>> strip_comment("Ana asks Ben 5*: 2   # backs only")
    ('Ana asks Ben 5*: 2', 'backs only')
    """
    if "#" in line:
        i = line.index("#")
        return line[:i].strip(), line[i + 1:].strip()
    return line.strip(), ""


@functools.lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """``name`` as names are compared: without case and Unicode normalisation (canonical
    caseless matching: ``JOSÉ``, ``josé`` and a decomposed ``José`` are one key), Turkish
    and Azeri i's included: their capital of ``ı`` is ``I`` and of ``i`` is ``İ``, so the
    dotless and dotted i are one letter here (``IŞIK`` writes ``Işık``).

    >>> name_key("JOSÉ") == name_key("jose\\u0301"), name_key("Straße") == name_key("STRASSE")
    (True, True)
    >>> name_key("IŞIK") == name_key("Işık") == name_key("işık") == name_key("İŞIK")
    True

    Greek letters without their tonos and dialytika, which capitals drop:

    >>> name_key("ΒΑΣΙΛΗΣ") == name_key("Βασίλης") == name_key("ΒΑΣΊΛΗΣ"), name_key("Ζωή") == name_key("ΖΩΗ")
    (True, True)
    >>> name_key("Ϊάσων") == name_key("ιασων"), name_key("Zoë") == name_key("Zoe")
    (True, False)
    """
    key = _caseless(name)
    return _GREEK_MARKS.sub(r"\1", key) if _GREEK_MARKS.search(key) else key


def _caseless(name: str) -> str:
    """:func:`name_key` with the Greek marks kept."""
    key = unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).casefold())
    return key.replace("\u0131", "i").replace("i\u0307", "i")


#: a Greek letter's tonos (acute, U+0301) or dialytika (U+0308), with any other marks of the
#: letter: Greek capitals drop the tonos (``ΒΑΣΙΛΗΣ`` writes ``Βασίλης``), so name keys leave
#: out both marks of Greek letters (of those letters only: ``José`` and ``Jose`` stay apart)
_GREEK_MARKS = re.compile("([\u0370-\u03ff\u1f00-\u1fff][\u0300-\u036f]*?)[\u0301\u0308]+")


def name_in(name: str, names) -> str | None:
    """The one of ``names`` that ``name`` writes, as ``names`` spells it: ``name`` itself,
    else the only one equal to it without case (record-format.md: a statement may write a
    name in any case when that is unambiguous); ``None`` when none is.  Two names that
    differ only in case (and a Greek letter's tonos or dialytika, :func:`name_key`) must be
    written exactly (else a ``NotationError``).

    >>> name_in("josé", ("José", "Zoë")), name_in("Ana", ("Ana", "ANA")), name_in("Eli", ("Ana",))
    ('José', 'Ana', None)
    >>> name_in("ana", ("Ana", "ANA"))
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: ambiguous name: Ana and ANA differ only in case; write it exactly as 'players:' does: 'ana'
    """
    if name in names:
        return name
    key = name_key(name)
    found = [p for p in names if name_key(p) == key]
    if len(found) > 1:
        cased = len({_caseless(p) for p in found}) == 1
        raise NotationError("ambiguous name: " + " and ".join(found) + " differ only in case"
                            + ("" if cased else " and Greek accents") + "; "
                            "write it exactly as 'players:' does", text=name)
    return found[0] if found else None


def player_of(name: str, players) -> str:
    """The player of ``players`` that ``name`` writes, spelt as ``players:`` does (any case
    when unambiguous, :func:`name_in`), else the one error every game gives.

    >>> player_of("ben", ("Ana", "Ben")), player_of("ZOË", ("Zoë", "Bjørn"))
    ('Ben', 'Zoë')
    >>> player_of("Cleo", ("Ana", "Ben"))
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: not a player of this record (players: Ana Ben): 'Cleo'
    """
    found = name_in(name, players)
    if found is None:
        raise NotationError("not a player of this record (players: " + " ".join(players) + ")",
                            text=name)
    return found


def named_groups(body: str, is_name, *, width: int | None = None,
                 expected: str = "a player name first") -> list[tuple[str, list[str]]]:
    """The one lexer of "player, then their values" lists in statements (commas optional):
    ``Ana 0, Ben ?`` (ask-all counts), ``Ana 2H 3H, Cleo 5H`` (claims), ``Ana 4C, Ben KH``.

    With ``width`` every group is a name and exactly ``width`` values (``is_name`` checks
    the name, raising its own error); without it a token for which ``is_name`` is true
    starts a group and the others are its values.

    >>> named_groups("Ana 0, Ben ?", lambda t: t, width=1)
    [('Ana', ['0']), ('Ben', ['?'])]
    >>> named_groups("Ana 2H 3H, Cleo 5H", lambda t: t in ("Ana", "Cleo"))
    [('Ana', ['2H', '3H']), ('Cleo', ['5H'])]
    >>> named_groups("2H Ana", lambda t: t == "Ana")
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: expected a player name first: '2H'
    """
    toks = [t for t in re.split(r"[\s,]+", body.strip()) if t]
    if width is not None:
        if not toks or len(toks) % (width + 1):
            raise NotationError(f"expected {expected}", text=body)
        step = width + 1
        return [(is_name(toks[i]), toks[i + 1:i + step]) for i in range(0, len(toks), step)]
    groups: list[tuple[str, list[str]]] = []
    for tok in toks:
        if is_name(tok):
            groups.append((tok, []))
        elif not groups:
            raise NotationError(f"expected {expected}", text=tok)
        else:
            groups[-1][1].append(tok)
    return groups


def _name_char(ch: str, first: bool) -> bool:
    """Whether ``ch`` may stand in a player's name: a letter of any script, a digit 0-9,
    ``_``, ``-``, or (after the first character) a combining mark."""
    if ch.isascii():
        return ch.isalnum() or ch in "_-"
    return ch.isalpha() or (not first and unicodedata.category(ch).startswith("M"))


def check_player_name(name: str, text: str | None = None, game: str | None = None) -> str:
    """``name`` if it can be a player's name in ``game`` (any game when ``None``): one word
    of letters of any script, digits 0-9, ``_`` and ``-``, not a reserved location or view
    word (:func:`reserved_names`, in any case).

    >>> check_player_name("Ana"), check_player_name("Bjørn"), check_player_name("张三")
    ('Ana', 'Bjørn', '张三')
    >>> check_player_name("Ana٣")
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: a player name is one word of letters (of any script), digits 0-9, '_' or '-': 'Ana٣'
    >>> check_player_name("Public")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: 'Public' cannot be a player's name: the JSON and --as use it for a location or view (reserved: all, ...): 'Public'
    """
    if not name or not all(_name_char(ch, i == 0) for i, ch in enumerate(name)):
        raise NotationError("a player name is one word of letters (of any script), digits 0-9, "
                            "'_' or '-'", text=text or name)
    reserved = reserved_names(game)
    if name_key(name) in reserved:
        raise NotationError(f"'{name}' cannot be a player's name: the JSON and --as use it "
                            "for a location or view (reserved: "
                            + ", ".join(sorted(reserved)) + ")", text=text or name)
    if game is not None and name_key(name) in get_game(game).statement_words:
        raise NotationError(f"'{name}' cannot be a player's name: a line starting with it "
                            f"is a '{name_key(name)}' statement of {game}", text=text or name)
    return name


@dataclass(frozen=True)
class Header:
    """The record header.  ``options`` maps option names to values (``True`` for flags);
    ``at`` the line of each header key in the record read (none for a header made
    otherwise), so a game's header check can place its error on the line at fault."""

    game: str
    players: tuple[str, ...]
    variant: tuple[str, ...] = ()
    dealer: str | None = None
    me: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    at: tuple[tuple[str, int], ...] = field(default=(), compare=False, repr=False)

    def get(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.extra:
            if k == key:
                return v
        return default

    def line_of(self, key: str) -> int | None:
        """The record line of header key ``key``, where known."""
        return next((n for k, n in self.at if k == key), None)

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


def find_token(text: str, token: str, last: bool = False) -> int:
    """Where ``text`` (a statement as typed) writes ``token`` as an error quotes it: a card,
    range or player as the program writes them (``9C``, ``4H-7H``, ``Ben``), written in the
    statement in any spelling (``9♣``, ``4h-7h``, ``ben``: record-format.md, "Lexical
    rules"); the first (``last``: the last) whole word that writes a card, suit range or
    rank set before any other occurrence (``4H`` inside ``4H-7H``), anything else where
    ``str.find`` finds it, else at a whole word that writes the same name in another case;
    -1 when it is not there (:func:`solver.legality.at_statement`).

    >>> t = "Ana asks ben 4H-7H: 4♥ 9♣"
    >>> find_token(t, "9C", True), find_token(t, "4H"), find_token(t, "Ben", True)
    (23, 20, 9)
    >>> find_token(t, "asks"), find_token(t, "KS")
    (4, -1)
    """
    if not token:
        return -1
    spots = written_as(text, token)
    if not spots:
        i = text.rfind(token) if last else text.find(token)
        if i >= 0:
            return i
        key = name_key(token)
        spots = [(m.start(), m.group()) for m in _WORD.finditer(text)
                 if name_key(m.group()) == key]
    return spots[-1 if last else 0][0] if spots else -1


@dataclass(frozen=True)
class Statement:
    """One event line of a record: its 1-based line number, its text and the parsed event."""

    line: int
    text: str
    event: Any
    comment: str = ""
    #: the 1-based column where the statement starts on its line (after any indentation)
    column: int = field(default=1, compare=False)

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

    def every_hand_listed(self, holds: type[Any]) -> bool:
        """Whether every player's hand is given by a statement of the game's event class
        ``holds`` (``P holds: ...``): the hands of a complete record (record-format.md)."""
        held = {st.event.player for st in self.statements if isinstance(st.event, holds)}
        return all(p in held for p in self.header.players)


def resolve_view(record: Record, view: str | None, complete: bool,
                 needs: str = "every hand given with 'holds:'") -> tuple[str | None, bool]:
    """(view, whether it is the recorder's) of ``record`` seen by ``view`` (a player, ``None``
    the public view), ``complete`` saying whether the record is a full history (``needs``:
    what makes it one).  Any view may look at a complete record, none as its recorder;
    otherwise only the record's own: ``me:``'s, or the public view of a spectator's record
    (no ``me:``), the recorder's, which knows all it wrote; and the public view of a
    player's record.  Another view is refused (NotationError quoting it)."""
    me = record.header.me
    if complete:
        return view, False
    if view == me:
        return view, True
    if view is None:
        return None, False
    own = (f"only the record's own view ('me: {me}') or the public view can be analysed"
           if me is not None else "a spectator's record (no 'me:') is analysed from the "
           "public view only")
    mine = (f"; if the record is {view}'s own, add 'me: {view}' to its header"
            if me is None else "")
    raise NotationError(f"{own}: other players' views need a complete record ({needs})"
                        + mine, text=view)


#: what separates the words of a statement (a quoted token is looked for between these)
_WORD_EDGE = r"\s,:;|"
_WORD = re.compile(rf"[^{_WORD_EDGE}]+")


def written_as(raw: str, quote: str) -> list[tuple[int, str]]:
    """Where ``raw`` writes ``quote`` in any spelling: ``quote`` is a card, suit range or
    rank set in its canonical notation (what errors quote), or several separated by
    spaces (a meld), and these are the runs of whole words of ``raw`` that write them in
    that order, each with where it starts and as typed; none when ``quote`` is not such
    a notation.

    >>> written_as("Ana asks Ben 4h-7h: 4♥ 9C, 4H", "4H")
    [(20, '4♥'), (27, '4H')]
    >>> written_as("Ana asks Ben 5x: 2", "5*"), written_as("Ana asks Ben 5x: 2", "Ben")
    ([(13, '5x')], [])
    >>> written_as("Ana melds jh q♥ K♥ | 2S 2d 3♣", "QH KH"), written_as("2S 2d", "2D 3C")
    ([(13, 'q♥ K♥')], [])
    """
    parts = quote.split()
    if not parts or any(canonical(p) != p for p in parts):
        return []
    words = list(_WORD.finditer(raw))
    canon = [canonical(w.group()) for w in words]
    n = len(parts)
    return [(words[i].start(), raw[words[i].start():words[i + n - 1].end()])
            for i in range(len(words) - n + 1)
            if canon[i] == parts[0] and canon[i:i + n] == parts]


def quote_in(raw: str, text: str) -> tuple[int, str]:
    """Where the quote ``text`` of an error stands in the line ``raw``, and the quote as the
    line writes it: ``text`` as a whole word; else, for a card, range or rank set quoted
    in its canonical notation, the first whole word that writes it in another spelling
    (``9♣`` for ``9C``: the column is the word's, the quote the word as typed); else
    where :func:`find_quoted` finds it (-1 when absent).

    >>> quote_in("Ana asks Ben 4H-7H: 4♥ 9♣", "9C"), quote_in("Ana holds: knif", "Knif")
    ((23, '9♣'), (11, 'Knif'))
    """
    i = _whole_word(raw, re.escape(text), 0)
    if i >= 0:
        return i, text
    spots = written_as(raw, text)
    if spots:
        return spots[0]
    return find_quoted(raw, text), text


def _whole_word(raw: str, needle: str, flags: int) -> int:
    m = re.search(rf"(?<![^{_WORD_EDGE}]){needle}(?![^{_WORD_EDGE}])", raw, flags) \
        if needle else None
    return m.start() if m else -1


def find_quoted(raw: str, text: str) -> int:
    """Where ``text`` (an error's quote) stands in the line ``raw``: its first occurrence as
    a whole word, not inside a longer one (the ``7`` of ``Ana asks Ben 4H-7H: 4H 7`` is the
    last word, not the one of the range), else its first occurrence; as typed, else in
    another case; a quote of several words also where the line separates them otherwise
    (``Ana 30 no-meld`` in ``Ana 30, no-meld``); -1 when absent.

    >>> find_quoted("Ana asks Ben 4H-7H: 4H 7", "7"), find_quoted("Ana holds: knif", "Knif")
    (23, 11)
    >>> find_quoted("round 7: Cleo out; Ana 30,  no-meld", "Ana 30 no-meld")
    19
    """
    words = [re.escape(w) for w in text.split()]
    for needle, flags in ((re.escape(text), 0), (re.escape(text), re.I),
                          (rf"[{_WORD_EDGE}]+".join(words), re.I)):
        i = _whole_word(raw, needle, flags)
        if i >= 0:
            return i
    idx = raw.find(text)
    return idx if idx >= 0 else raw.lower().find(text.lower())


def _locate(err: SleuthError, path: str | None, lineno: int, raw: str) -> SleuthError:
    """``err`` placed on line ``lineno`` (``raw``, as read): its column is where its quote
    stands (:func:`_quote_column`), or, when something is missing (an empty quote), just
    after the statement."""
    # a suit with a variation selector (a phone's ♥️) is read as the suit: the column is
    # found in the line as read, then counted in the line as typed
    line = _SUIT_VARIANT.sub(r"\1", raw) if not raw.isascii() else raw
    col = None
    if err.column is None and err.text == "":       # something missing: where it was due
        col = len(line.split("#", 1)[0].rstrip()) + 1
    elif err.column is None and err.text:
        col = _quote_column(err, line)
    if col is not None and line != raw:
        text = err.text or ""
        if text and line[col - 1:col - 1 + len(text)] == text:    # quoted as typed: 3♥️
            err.text = raw[_typed_column(raw, col) - 1:_typed_column(raw, col + len(text)) - 1]
        col = _typed_column(raw, col)
    return err.located(path=path, line=lineno, column=col)


def _quote_column(err: SleuthError, line: str) -> int:
    """The 1-based column of ``err``'s quote in ``line``: at ``offset`` in the part of the
    line ``within`` (a card listed twice: its second copy), else where :func:`quote_in`
    finds it (then quoted as the line writes it: ``'9♣'``, not ``'9C'``), moved on by
    ``offset`` into a quoted statement (the faulty token); 1 when absent."""
    text = err.text or ""
    if err.within and err.offset is not None:
        at = find_quoted(line, err.within)
        if at >= 0:
            return at + err.offset + 1
    idx, typed = quote_in(line, text)
    if idx < 0:
        return 1
    if typed != text:
        err.text = typed
        return idx + 1
    if err.offset is not None and not err.within and 0 <= err.offset < len(text):
        return idx + 1 + err.offset     # the faulty token, not the statement's start
    return idx + 1


def _typed_column(raw: str, col: int) -> int:
    """The column in ``raw`` of column ``col`` of ``raw`` read (its suits' variation
    selectors dropped, as :func:`parse_record` reads a line).

    >>> _typed_column("4\u2665\ufe0f 9\u2663\ufe0f", 5)
    6
    """
    n = 0
    for i, ch in enumerate(raw):
        if ch in "\ufe0e\ufe0f" and i > 0 and raw[i - 1] in "\u2660\u2663\u2665\u2666":
            continue
        if n == col - 1:
            return i + 1
        n += 1
    return len(raw) + col - n


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
            check_player_name(p, game=gname)
        except SleuthError as e:
            raise _locate(e, path, pl, praw) from None
    shapes = [unicodedata.normalize("NFC", p) for p in players]   # José typed two ways
    if len(set(shapes)) != len(shapes):
        dup = next(p for p, s in zip(players, shapes) if shapes.count(s) > 1)
        raise NotationError("a player is listed twice", text=dup, path=path, line=pl,
                            column=praw.find(dup) + 1)
    variant: tuple[str, ...] = ()
    as_written: dict[str, str] = {}     # an option as the header has it -> as the line wrote it
    if "variant" in values:
        vl, vval, vraw = values["variant"]
        opts: list[str] = []
        for o in re.split(r",", vval):
            norm = o.strip().lower().replace("_", "-")
            if norm and norm != "standard":
                opts.append(re.sub(r"\s*=\s*", "=", norm))
                as_written.setdefault(opts[-1], o.strip())
        try:                            # 'standard' with other options (option_items)
            option_items(vval.split(","))
        except NotationError as e:
            raise NotationError(f"{e.message}; write 'variant: "
                                f"{', '.join(as_written.values())}' or 'variant: standard'",
                                text=e.text, path=path, line=vl,
                                column=find_quoted(vraw, e.text or "") + 1) from None
        _check_repeated_options(game, vval, vraw, path, vl)
        variant = tuple(opts)
    dealer = me = None
    for key in ("dealer", "me"):
        if key in values:
            kl, kval, kraw = values[key]
            name = kval.strip()
            try:
                found = name_in(name, players) if name else None
            except SleuthError as e:
                raise _locate(e, path, kl, kraw) from None
            if name and found is None:
                raise NotationError(f"'{key}:' must name one of the players "
                                    f"({' '.join(players)})", text=name, path=path, line=kl,
                                    column=kraw.find(name) + 1)
            name = found or name
            if key == "dealer":
                dealer = name or None
            else:
                me = name or None
    extra = tuple((k, v) for k, (l, v, r) in values.items()
                  if k not in ("game", "variant", "players", "dealer", "me"))
    header = Header(game=gname, players=players, variant=variant, dealer=dealer, me=me,
                    extra=extra, at=tuple((k, l) for k, (l, _, _) in values.items()))
    try:
        game.check_header(header)
    except SleuthError as e:
        key = "variant" if "variant" in values else "players"
        if e.text in as_written:        # quote an option as the line wrote it
            e.text = as_written[e.text]
        elif e.text and "," in e.text and "variant" in values:
            _quote_combination(e, as_written, values["variant"][1].strip())
        if e.line is not None:          # the check placed it (Header.at)
            key = next((k for k in values if values[k][0] == e.line), key)
        elif e.text:           # the header line that holds the quoted text
            key = next((k for k in ("variant", "players", *values) if k in values
                        and find_quoted(values[k][2], e.text) >= 0), key)
        kl, _, kraw = values[key]
        raise _locate(e, path, kl, kraw) from None
    _check_no_empty_value(values, players, path)
    return header


def _check_no_empty_value(values: dict[str, tuple[int, str, str]], players: tuple[str, ...],
                          path: str | None) -> None:
    """Refuse a header line with nothing after its key (``me:``, ``dealer:``, ``variant:``
    or ``variant: ,``, a game's own key): an optional line is left out, not left empty
    (record-format.md, "Header").  Run once the game's check has passed, so that a game
    that says more of an empty line of its own (a list that lists nothing) says it."""
    for key, (line, value, raw) in sorted(values.items(), key=lambda kv: kv[1][0]):
        if value.strip(" ," if key == "variant" else " "):
            continue
        if key in ("me", "dealer"):
            fix = f"name one of the players ({' '.join(players)}) or remove the line"
        elif key == "variant":
            fix = "name the options, write 'variant: standard' or remove the line"
        else:
            fix = "give its value or remove the line"
        stmt = strip_comment(raw)[0]
        raise NotationError(f"'{key}:' is empty: {fix}", text=stmt, path=path, line=line,
                            column=raw.find(stmt) + len(stmt) + 1)


def _check_repeated_options(game: Any, value: str, raw: str, path: str | None,
                            line: int) -> None:
    """Refuse an option that ``variant:`` (``value``, in the line ``raw``) names twice
    (``sneak, sneak``, or once by an alias), pointing at its second naming."""
    try:
        specs = game.option_specs()
    except SleuthError:
        specs = ()
    seen: dict[str, tuple[str, Any]] = {}
    pos = raw.find(value)
    for piece in value.split(","):
        typed = piece.strip()
        start = pos + len(piece) - len(piece.lstrip())
        pos += len(piece) + 1
        name, _, val = typed.lower().replace("_", "-").partition("=")
        name, val = name.strip(), val.strip()
        if name in ("", "standard"):
            continue
        spec = next((sp for sp in specs if name == sp.name or name in sp.aliases), None)
        try:
            parsed = spec.parse(val or None, typed) if spec is not None else val
        except SleuthError:
            parsed = typed              # the game's check names the bad value
        key = spec.name if spec is not None else name
        if key in seen:
            first, before = seen[key]
            differs = "" if parsed == before else " with different values"
            raise NotationError(f"{key} given twice{differs} (first as '{first}'): an option "
                                "is named once", text=typed, path=path, line=line,
                                column=start + 1, rule=spec.rule if spec else None)
        seen[key] = (typed, parsed)


def check_option_list(game: str, options) -> None:
    """Refuse an option named twice in a list given outside a record (a command's
    ``--variant``), as the header's ``variant:`` line refuses it (docs/record-format.md)."""
    value = ", ".join(str(o).strip() for o in options)
    try:
        _check_repeated_options(get_game(game), value, value, None, 0)
    except SleuthError as e:    # about an option given, not a line of a file
        e.path = e.line = e.column = None
        e.args = (e._render(),)
        raise


def _quote_combination(err: SleuthError, as_written: dict[str, str], typed: str) -> None:
    """An error about options that do not combine, quoted by their names (``'rasmussen,
    twenty-six'``): quote the ``variant:`` text as typed and point at the one of them typed
    last (the one that does not fit the others)."""
    names = [as_written[p.strip()] for p in (err.text or "").split(",")
             if p.strip() in as_written]
    at = [i for i in (find_quoted(typed, n) for n in names) if i >= 0]
    if at:
        err.text, err.within, err.offset = typed, typed, max(at)


def parse_record(text: str, path: str | None = None, *, validate: bool = True) -> Record:
    """Parse a whole record.  With ``validate`` the game's rule checks run over the events
    (turn order, legality), raising :class:`~solver.errors.RuleError` with the line; an
    error knows the record's game once the header names one (``SleuthError.game``)."""
    named: list[str] = []
    try:
        return _parse_record(text, path, validate, named)
    except SleuthError as e:
        if e.game is None and named:
            e.game = named[0]
        raise


def _parse_record(text: str, path: str | None, validate: bool, named: list[str]) -> Record:
    header_pairs: list[tuple[int, str, str, str]] = []
    body: list[tuple[int, str, str, str]] = []
    header_keys = set(CORE_HEADER_KEYS)
    game = None
    check_size(text, path)
    lines = split_lines(text)
    for lineno, typed in enumerate(lines, 1):
        check_line(typed, path, lineno)
        raw = _SUIT_VARIANT.sub(r"\1", typed) if not typed.isascii() else typed
        stmt, comment = strip_comment(raw)
        if not stmt:
            continue
        if not stmt.isascii():
            check_digits(stmt, raw, path, lineno)
        check_number_size(stmt, raw, path, lineno)
        m = _HEADER_RE.match(stmt)
        if not body and m and m.group(1).lower() == "game":
            gname = m.group(2).strip().lower()
            if gname in REGISTRY:
                game = get_game(gname)
                named.append(game.name)
                header_keys |= set(game.header_keys)
        if not body and m and m.group(1).lower() in header_keys:
            key = m.group(1).lower()
            if any(k == key for _, k, _, _ in header_pairs):
                raise NotationError(f"header key '{key}' given twice", text=stmt, path=path,
                                    line=lineno, column=1)
            header_pairs.append((lineno, key, m.group(2).strip(), raw))
        else:
            body.append((lineno, stmt, comment, typed))
    _check_header_first(header_pairs, body, path)
    header = parse_header(header_pairs, path)
    game = get_game(header.game)
    statements: list[Statement] = []
    for lineno, stmt, comment, raw in body:
        try:
            ev = game.parse_statement(stmt, header, statements)
        except NotationError as e:
            m = _HEADER_RE.match(stmt)
            late = m is not None and m.group(1).lower() in header_keys
            err = NotationError(f"'{m.group(1).lower()}:' is a header line, and the header "
                                f"comes before the first statement (line {body[0][0]})",
                                text=stmt) if m and late else e   # not a statement
            raise _locate(err, path, lineno, raw) from None
        except SleuthError as e:
            raise _locate(e, path, lineno, raw) from None
        statements.append(Statement(lineno, stmt, ev, comment,
                                    column=len(raw) - len(raw.lstrip()) + 1))
    rec = Record(header=header, statements=tuple(statements), path=path)
    if validate:
        try:
            game.validate(rec)
        except SleuthError as e:
            if e.line is not None and 1 <= e.line <= len(lines):
                raise _locate(e, path, e.line, lines[e.line - 1]) from None
            raise e.located(path=path) from None
    return rec


def locate_conflict(err: InconsistentError, record: Record) -> InconsistentError:
    """``err`` (a contradiction found in ``record``) placed as every error is: the record's
    file, and the line and column of the statement that completes the contradiction -- the
    one the error names already (a statement being logged, a game's own finding), else the
    last line of its minimal conflicting set; ``statements`` quotes that set's lines.  A
    position already known is kept (:meth:`~solver.errors.SleuthError.located`)."""
    by_line = {st.line: st for st in record.statements}
    for n in err.conflict:
        if n in by_line:
            err.statements.setdefault(n, by_line[n].text)
    line = err.line if err.line is not None else (err.conflict[-1] if err.conflict else None)
    at = by_line.get(line) if line is not None else None
    if err.game is None:
        err.game = record.game
    err.located(path=record.path, line=line, column=at.column if at is not None else None)
    return err


def _check_header_first(pairs: list[tuple[int, str, str, str]],
                        body: list[tuple[int, str, str, str]], path: str | None) -> None:
    """Refuse a record whose header is not complete before its first statement: the first
    statement (``body``: line, statement, comment, line as typed) that comes before the
    ``game:`` or ``players:`` line written after it, quoted where it stands; with neither
    line written anywhere, the first statement when the header has no line to quote."""
    have = {k for _, k, _, _ in pairs}
    missing = [k for k in ("game", "players") if k not in have]
    if not missing or not body:
        return
    keys = set(CORE_HEADER_KEYS)
    for _, k, v, _ in pairs:                # the game's own header keys, wherever named
        if k == "game" and v.strip().lower() in REGISTRY:
            keys |= set(get_game(v.strip().lower()).header_keys)
    for _, stmt, _, _ in body:
        m = _HEADER_RE.match(stmt)
        if m and m.group(1).lower() == "game" and m.group(2).strip().lower() in REGISTRY:
            keys |= set(get_game(m.group(2).strip().lower()).header_keys)
    late: dict[str, int] = {}
    first = None
    for lineno, stmt, _, typed in body:
        m = _HEADER_RE.match(stmt)
        if m and m.group(1).lower() in keys:
            late.setdefault(m.group(1).lower(), lineno)
        elif first is None:
            first = (lineno, stmt, typed)
    lineno, stmt, typed = first or (body[0][0], body[0][1], body[0][3])
    after = [(late[k], k) for k in missing if k in late and late[k] > lineno]
    if after:
        at, key = min(after)
        err = NotationError(f"this statement comes before the header's '{key}:' line "
                            f"(line {at}): the header (game:, players:, ...) comes first",
                            text=stmt)
    elif not pairs:
        err = NotationError(f"the header needs '{missing[0]}: "
                            f"{'<name>' if missing[0] == 'game' else '<names in seating order>'}'"
                            " before the first event", text=stmt)
    else:
        return
    raise _locate(err, path, lineno, typed)


def check_size(text: str, path: str | None = None) -> None:
    """Refuse a record over :data:`MAX_RECORD_BYTES` (counted in characters here)."""
    if len(text) > MAX_RECORD_BYTES:
        raise NotationError(f"the record is too long (over {MAX_RECORD_BYTES // 1024} KiB; "
                            "a game record is far smaller: is this the right file?)",
                            text=path or STDIN_LABEL, path=path)


#: characters that other programs take for a line break, or that have no place in a line:
#: C0 controls but tab, DEL, C1 controls (NEL among them), the Unicode line and paragraph
#: separators.  Only ``\n`` (and ``\r\n``) end a record line, as in every editor; one of
#: these inside a line is refused with its position, so that the line numbers the program
#: prints are the editor's and no statement hides inside another line.
_LINE_BREAKERS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    r"""The lines of a record's text as an editor numbers them: only ``\n`` ends a line, and
    a ``\r`` before it is part of the line end (``\r\n``).  Unlike ``str.splitlines`` a
    form feed, ``\x85`` or U+2028 does not start a new line (:func:`check_line` refuses it).

    >>> split_lines("a\r\nb\x0cc\nd")
    ['a', 'b\x0cc', 'd']
    >>> split_lines("a\n"), split_lines("")
    (['a'], [])
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def split_lines_keepends(text: str) -> list[str]:
    r""":func:`split_lines` with each line's own end kept (``\n``, ``\r\n`` or none for a last
    line without one): joining them gives back ``text``.

    >>> split_lines_keepends("a\r\nb\x0bc\nd")
    ['a\r\n', 'b\x0bc\n', 'd']
    """
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def check_one_line(text: str, path: str | None = None, *, line: int | None = None,
                   what: str = "a statement") -> None:
    r"""Refuse ``text`` (one line: a statement, a comment) holding a line break or another
    control or line-separator character, naming the character and its column.

    >>> check_one_line("Ana asks Ben 5*: 1  # note\x0bme: Ben")
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: a statement is one line without control characters (U+000B, a vertical tab, at column 27): 'Ana asks Ben 5*: 1  # note\x0bme: Ben'
    """
    m = _LINE_BREAKERS.search(text)
    if m is None:
        return
    ch = m.group()
    col = m.start() + 1
    raise NotationError(f"{what} is one line without control characters (U+{ord(ch):04X}, "
                        f"{_CHAR_NAMES.get(ch, 'a control character')}, at column {col})",
                        text=printable(text), path=path, line=line,
                        column=col if line is not None else None)


_CHAR_NAMES = {"\n": "a line feed", "\r": "a carriage return", "\x0b": "a vertical tab",
               "\x0c": "a form feed", "\x85": "a next-line character", "\x00": "a NUL",
               "\u2028": "a line separator", "\u2029": "a paragraph separator",
               "\x1b": "an escape character", "\x7f": "a delete character",
               "\x08": "a backspace"}


def check_line(raw: str, path: str | None, lineno: int) -> None:
    """Refuse a line over :data:`MAX_LINE_CHARS`, or holding bytes that were not UTF-8
    (surrogate escapes from the command line or standard input) or a NUL."""
    if len(raw) > MAX_LINE_CHARS:
        raise NotationError(f"the line is too long ({len(raw)} characters; at most "
                            f"{MAX_LINE_CHARS})", text=raw[:40] + "...", path=path,
                            line=lineno, column=MAX_LINE_CHARS + 1)
    m = _SURROGATE.search(raw)
    if m:
        raise NotationError("the text is not UTF-8 (an invalid byte)", text=printable(raw),
                            path=path, line=lineno, column=m.start() + 1)
    i = raw.find("\x00")
    if i >= 0:
        raise NotationError("the line holds a NUL character", text=printable(raw), path=path,
                            line=lineno, column=i + 1)
    m = _LINE_BREAKERS.search(raw)
    if m is not None:
        ch = m.group()
        raise NotationError(
            f"a record line holds no control or line-separator characters (U+{ord(ch):04X}, "
            f"{_CHAR_NAMES.get(ch, 'a control character')}; only a line feed ends a line)",
            text=raw, path=path, line=lineno, column=m.start() + 1)


def check_digits(stmt: str, raw: str, path: str | None, lineno: int) -> None:
    """Refuse a number written with digits that are not ASCII (``²``, ``٣``, ``۳``): every
    number in a record is written 0-9 (record-format.md, "Lexical rules").

    >>> check_digits("Ana asks Ben 4H-7H: ٣", "Ana asks Ben 4H-7H: ٣", "g.txt", 9)
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: g.txt:9:21: numbers are written with the digits 0-9: '٣'
    """
    for i, ch in enumerate(stmt):
        if not ch.isascii() and ch.isnumeric() and not ch.isalpha():   # 三 of 张三 is a letter
            raise NotationError("numbers are written with the digits 0-9", text=ch, path=path,
                                line=lineno, column=raw.find(ch) + 1)


#: the most digits of a number in a record: no count, line, points or card number comes near
#: a billion (and ``int`` refuses a string of over 4 300 digits)
MAX_DIGITS = 9
_LONG_NUMBER = re.compile(r"\b[0-9]{%d,}\b" % (MAX_DIGITS + 1))


def check_number_size(stmt: str, raw: str, path: str | None, lineno: int) -> None:
    """Refuse a number of more than :data:`MAX_DIGITS` digits (a digit run inside a name,
    ``Bot1234567890``, is part of the name).

    >>> check_number_size("round 12345678901: Ana out", "round 12345678901: Ana out", "g.txt", 4)
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: g.txt:4:7: a number of 11 digits: no number in a record is over 9 digits: '12345678901'
    """
    m = _LONG_NUMBER.search(stmt)
    if m is not None:
        n = len(m.group())
        said = m.group() if n <= 40 else m.group()[:20] + "..." + m.group()[-4:]
        raise NotationError(f"a number of {n} digits: no number in a record is over "
                            f"{MAX_DIGITS} digits", text=said, path=path, line=lineno,
                            column=raw.find(m.group()) + 1)


def printable(text: str) -> str:
    r"""``text`` with the undecodable bytes of a surrogate-escaped string (``os.fsdecode``,
    ``sys.argv``) shown as ``\xNN``: safe to print and to put into JSON.

    >>> printable("AS\udcff")
    'AS\\xff'
    """
    if not _SURROGATE.search(text):
        return text
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF
                   else f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


#: the UTF-8 byte-order mark some editors put at the start of a text file
BOM = b"\xef\xbb\xbf"


def decode(data: bytes, path: str | None = None) -> str:
    """The text of a record file's bytes: UTF-8 (a leading byte-order mark is dropped), at
    most :data:`MAX_RECORD_BYTES`; else :class:`~solver.errors.NotationError` with the line
    and column of the first invalid byte."""
    if len(data) > MAX_RECORD_BYTES:
        check_size(" " * len(data), path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        start = e.start + (len(BOM) if data.startswith(BOM) else 0)
        line = data.count(b"\n", 0, start) + 1
        begin = data.rfind(b"\n", 0, start) + 1
        col = len(data[begin:start].decode("utf-8-sig" if begin == 0 else "utf-8",
                                           "replace")) + 1
        raise NotationError(f"the record is not UTF-8 text (byte 0x{data[start]:02x}; save it "
                            "as UTF-8)", text=path or STDIN_LABEL, path=path, line=line,
                            column=col) from None


def read_text(path: str) -> str:
    """The text of the record file ``path`` (``-``: standard input), checked by
    :func:`decode`; a file that cannot be read is a :class:`~solver.errors.FileError`."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        try:
            data = stream.read(MAX_RECORD_BYTES + 1) if stream is not None else \
                sys.stdin.read(MAX_RECORD_BYTES + 1).encode("utf-8", "surrogateescape")
        except OSError as e:
            raise FileError.from_os(e, STDIN_LABEL, "read standard input") from None
        return decode(data, STDIN_LABEL)
    check_path(path)
    try:
        # a FIFO, a device or a socket would block the read or never end: refused before
        # it is opened, and again on the opened file (opened without blocking, in case the
        # name was swapped in between)
        check_regular(os.stat(path), path)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as f:
            check_regular(os.fstat(f.fileno()), path)
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise FileError.from_os(e, path, "read the record") from None
    return decode(data, path)


#: what a file that is not a regular file is, by its ``stat`` type
_NOT_REGULAR = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISSOCK, "a socket"))


def check_regular(st: os.stat_result, path: str) -> None:
    """Refuse a record that is not a regular file (:class:`~solver.errors.FileError`
    naming it): reading a FIFO or ``/dev/zero`` would block or never end."""
    if stat.S_ISREG(st.st_mode):
        return
    kind = next((what for test, what in _NOT_REGULAR if test(st.st_mode)), "not a file")
    raise FileError(f"cannot read the record (that is {kind}, not a file: give the path of a "
                    "record file, or '-' for standard input)", text=path)


def check_path(path: str) -> None:
    """Refuse a file name that no file can have (a NUL inside: ``open`` would raise a bare
    ``ValueError``)."""
    if "\x00" in str(path):
        raise FileError("no file name holds a NUL character", text=printable(str(path)))


def read_record(path: str, *, validate: bool = True) -> Record:
    """Read and parse the record file ``path``; ``-`` reads it from standard input (and
    messages name it ``<stdin>``)."""
    text = read_text(path)
    return parse_record(text, STDIN_LABEL if path == "-" else path, validate=validate)


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


TEMP_PREFIX, TEMP_SUFFIX = ".sleuth-", ".tmp"
#: ``.sleuth-<pid>-<random>.tmp``: the pid tells the next run whether its writer is alive
_TEMP_RE = re.compile(r"^\.sleuth-(?:(\d+)-)?[A-Za-z0-9_]+\.tmp$")
#: a temporary without a pid (older versions) is stale after this many seconds
_LEGACY_STALE = 3600


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:          # exists, but not ours
        return True
    return True


def clean_temporaries(folder: str) -> list[str]:
    """Remove the temporaries that a killed save left in ``folder`` (``.sleuth-<pid>-*.tmp``
    whose process is gone); return their names.  Never raises."""
    removed: list[str] = []
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return removed
    for name in names:
        m = _TEMP_RE.match(name)
        if not m:
            continue
        full = os.path.join(folder, name)
        try:
            if m.group(1) is not None:
                if _alive(int(m.group(1))):
                    continue
            elif time.time() - os.lstat(full).st_mtime < _LEGACY_STALE:
                continue
            os.unlink(full)
            removed.append(name)
        except OSError:
            continue
    return removed


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def writable(path: str, st: os.stat_result | None = None) -> bool:
    """Whether the user may change the file at ``path``: ``os.access`` says so *and* its mode
    has a write bit (root may write anything; a mode 444 file is still read-only to us)."""
    st = st or os.stat(path)
    return os.access(path, os.W_OK) and bool(stat.S_IMODE(st.st_mode) & 0o222)


def atomic_write(path: str, text: str, *, base: str | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: a temporary file in the same folder,
    flushed and synced, then renamed over the target.  A crash leaves either the old or the
    new file, and at most a temporary that the next save removes (:func:`clean_temporaries`).

    * ``base``: the text the change was made from.  If the file holds anything else just
      before the rename (an editor, which takes no lock, saved it while the change was
      checked), nothing is written and :class:`~solver.errors.StaleError` says so: the
      editor's lines are never written over.

    * A symbolic link is written through: its target is replaced, the link stays a link.
    * An existing file keeps its mode (and, for root, its owner); a new file gets
      ``0666 & ~umask``.
    * A file the user cannot write (mode 444, or no permission) is refused with a
      :class:`~solver.errors.FileError`, and so is any ``OSError`` (full disk, read-only
      file system, missing folder): the old file is then untouched.
    * A file that starts with a UTF-8 byte-order mark keeps it (:func:`decode` drops it
      from the text read, so the text written back has none).
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise NotationError("the text is not UTF-8 (an invalid byte)",
                            text=printable(text[max(0, e.start - 20):e.end + 20])) from None
    if not data.startswith(BOM) and _starts_with_bom(path):
        data = BOM + data
    atomic_write_bytes(path, data, check=None if base is None else lambda: _unchanged(path, base))


def _unchanged(path: str, base: str) -> None:
    """Raise :class:`~solver.errors.StaleError` unless the record at ``path`` still holds
    ``base`` (one that can no longer be read has changed too)."""
    from solver.errors import StaleError

    try:
        same = read_text(path) == base
    except SleuthError:
        same = False
    if not same:
        raise StaleError("not saved: the record changed on disk while this change was being "
                         "checked (an editor saved it?); nothing was written: look at the "
                         "record again and retry", path=path)


def _starts_with_bom(path: str) -> bool:
    """Whether the regular file at ``path`` (through a link) starts with :data:`BOM`;
    anything else (no file, a FIFO, unreadable) is no."""
    try:
        target = os.path.realpath(path)
        if not stat.S_ISREG(os.stat(target).st_mode):
            return False
        with open(target, "rb") as f:
            return f.read(len(BOM)) == BOM
    except (OSError, ValueError):
        return False


#: the files :func:`atomic_write_bytes` has replaced in this process (so that an
#: interrupted command can say whether it changed its record)
saved_in_this_process: set[str] = set()

_HELD_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


@contextlib.contextmanager
def _signals_held():
    """Hold SIGINT, SIGTERM and SIGHUP back in the main thread while the block runs (the rename
    of a save and the note that it was saved): an interrupt is delivered when the block
    ends, so its message can never say "unchanged" of a record just replaced.  Elsewhere
    (another thread, no ``pthread_sigmask``) a no-op; :func:`atomic_write_bytes` then
    notes the save from the temporary being gone."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = mask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def atomic_write_bytes(path: str, data: bytes, action: str = "save the file", *,
                       check=None) -> None:
    """Write ``data`` to ``path`` atomically, as :func:`atomic_write` writes text (an
    output file such as a plot is bytes).  ``action``: what a failure says could not be
    done (``cannot write the plot (the disk is full...)``).  ``check``: called just before
    the rename; what it raises leaves the file as it was (and no temporary).

    A replaced file is noted in :data:`saved_in_this_process` with the rename, SIGINT and
    SIGTERM held back between the two: an interrupt never finds the record saved and not
    noted (its message would say "unchanged" of a saved line, which the user would type
    again).  One handled between them anyway (a signal another thread took) is caught
    here: the temporary is gone, so the rename was done, and the save is noted."""
    check_path(path)
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    clean_temporaries(folder)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise FileError.from_os(e, path, action) from None
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise FileError("cannot save: not a regular file", text=path)
        if not writable(target, st):
            raise FileError("cannot save: the file is read-only (make it writable, e.g. "
                            "'chmod u+w', or copy it); nothing was changed", text=path)
        mode = stat.S_IMODE(st.st_mode)
    else:
        mode = 0o666 & ~_umask()
    tmp = os.path.join(folder, f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}")
    fd = -1
    renaming = False
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fchmod(fd, mode)
        if st is not None and os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
            try:
                os.fchown(fd, st.st_uid, st.st_gid)
            except OSError:
                pass
        os.fsync(fd)
        os.close(fd)
        fd = -1
        if check is not None:
            check()
        renaming = True
        with _signals_held():
            os.replace(tmp, target)
            saved_in_this_process.add(path)     # (an interrupt's message says so)
    except BaseException as e:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            if renaming:            # renamed: saved, whatever interrupted the bookkeeping
                saved_in_this_process.add(path)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise FileError.from_os(e, path, action) from None
        raise
    try:                       # make the rename durable (best effort)
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def text_version(text: str) -> str:
    """A short name of one version of a record's text: two versions differ exactly when
    their texts do (a SHA-256 prefix).  A writer that decided on one version passes it back
    (``Session.handle(..., expect=...)``) and is refused if the file moved on meanwhile.

    >>> text_version("players: Ana Ben\\n") == text_version("players: Ana Ben\\n")
    True
    >>> len(text_version(""))
    16
    """
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


#: how long a writer waits for another one to finish with the record before giving up; the
#: longest a writer holds the lock is one check of a statement (the analysis time budget)
LOCK_WAIT = 120.0

_LOCKS_GUARD = threading.Lock()
#: lock file -> [thread lock, open descriptor or -1, depth]: the lock is re-entrant within
#: a thread (a session's save calls functions that lock too) and exclusive between threads
#: (``sleuth serve`` answers requests on several) and processes (``flock``)
_LOCKS: dict[str, list] = {}


def _flock(lp: str, path: str, limit: float) -> int:
    """Open the lock file ``lp`` and take its ``flock``, waiting up to ``limit`` seconds;
    the descriptor.  The holder removes the file before it lets go, so a writer that
    waited on a file now removed has locked nothing: it checks that the name still leads
    to the file it holds, and starts again if not."""
    import fcntl

    deadline = time.monotonic() + limit
    while True:
        try:
            fd = os.open(lp, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666 & ~_umask())
        except PermissionError as e:
            # a lock file left by another user's writer that was killed (only its owner
            # may write it): flock takes a descriptor open for reading as well, and the
            # folder's permission is what removing it needs
            try:
                fd = os.open(lp, os.O_RDONLY | os.O_CLOEXEC)
            except FileNotFoundError:
                continue                    # removed meanwhile by its holder: again
            except OSError:
                raise FileError.from_os(e, path, "lock the record for writing") from None
        except OSError as e:
            raise FileError.from_os(e, path, "lock the record for writing") from None
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise FileError("the record is being changed by another sleuth for "
                                        f"over {limit:g} s (lock file {lp}); try again",
                                        text=path) from None
                    time.sleep(0.01)
            try:
                same = os.stat(lp).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
        except OSError as e:
            os.close(fd)
            raise FileError.from_os(e, path, "lock the record for writing") from None
        except BaseException:
            os.close(fd)
            raise
        if same:
            return fd
        os.close(fd)


def lock_path(path: str) -> str:
    """The lock file of the record ``path``: ``.<name>.sleuth-lock`` beside the file the
    record really is (symbolic links followed).  A separate file, because every save
    replaces the record's inode (:func:`atomic_write`): a lock on the record itself would
    be held on a file that is no longer there."""
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.sleuth-lock")


@contextlib.contextmanager
def record_lock(path: str, wait: float | None = None):
    """Hold the record's exclusive write lock for the block: every command that changes a
    record (``log``, ``play``, ``new``, ``serve``) reads, checks and writes it under this
    lock, so two writers never save over each other (docs/reliability.md, "Concurrent
    writers").  Waits up to ``wait`` seconds (default :data:`LOCK_WAIT`) for another writer,
    then raises :class:`~solver.errors.FileError` naming the record.  Re-entrant within a
    thread.  The lock file exists only while the lock is held."""
    import fcntl

    check_path(path)
    lp = lock_path(path)
    limit = LOCK_WAIT if wait is None else wait
    with _LOCKS_GUARD:
        entry = _LOCKS.setdefault(lp, [threading.RLock(), -1, 0])
    tlock = entry[0]
    if not tlock.acquire(timeout=limit):
        raise FileError(f"the record is being changed by another writer for over {limit:g} s; "
                        "try again", text=path)
    try:
        if entry[2] == 0:
            entry[1] = _flock(lp, path, limit)
        entry[2] += 1
        try:
            yield
        finally:
            entry[2] -= 1
            if entry[2] == 0:
                fd, entry[1] = entry[1], -1
                try:            # removed while still held: see _flock
                    os.unlink(lp)
                except OSError:
                    pass
                try:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                finally:
                    os.close(fd)
    finally:
        tlock.release()


def start_record(path: str, game: str, players, *, me: str | None = None,
                 variant=(), dealer: str | None = None, extra=(), force: bool = False,
                 over_blank: bool = False) -> Header:
    """Write a new record's header to ``path`` and return it (``sleuth new`` and the New
    game form of ``sleuth serve``).  ``players``: the seats in order (a string is split at
    spaces and commas); ``me`` and ``dealer`` are matched to them in any case when
    unambiguous; ``variant``: option names; ``extra``: further ``(key, value)`` header
    lines.  The header is checked as a record (names, options, player counts) before
    anything is written; an existing file is refused unless ``force``, or ``over_blank``
    and it holds nothing but blanks.  Written atomically under the record's lock."""
    def taken() -> bool:
        if not os.path.exists(path) or force:
            return False
        if over_blank:
            try:
                return bool(read_text(path).strip())
            except SleuthError:
                return True
        return True

    if os.path.isdir(path):         # not 'exists already': --force would not help
        raise FileError("cannot start the record there (that is a folder, not a file: give "
                        "the path of a new record file)", text=path)
    if taken():
        raise NotationError("the file exists already (use --force to overwrite)", text=path)
    # each value becomes (part of) one header line: a line break inside one would add an
    # unchecked line to the record (a statement, another header line)
    for value in (" ".join(players) if not isinstance(players, str) else players, me, dealer,
                  *variant, *(f"{k}={v}" for k, v in extra)):
        if value:
            try:
                check_one_line(str(value), what="a header value")
                if "#" in str(value):   # the rest of the line would be a comment, unread
                    raise NotationError("'#' starts a comment in a record, so a header "
                                        "value cannot hold it (a player name is letters, "
                                        "digits, '_' and '-')", text=str(value))
            except SleuthError as e:
                e.message += "; nothing was written"
                e.args = (e._render(),)
                raise
    seats = tuple(players.replace(",", " ").split()) if isinstance(players, str) \
        else tuple(players)
    # an option given twice is refused by the header's check, as in a record
    variant = tuple(str(v).strip() for v in variant)
    if game.lower() in REGISTRY:        # a key the game has no header line for, by name
        keys = sorted(set(CORE_HEADER_KEYS) | set(get_game(game.lower()).header_keys))
        for k, _v in extra:
            if str(k).strip().lower() not in keys:
                raise NotationError(f"not a header key of {game.lower()} (its header keys: "
                                    f"{', '.join(keys)}); nothing was written", text=str(k))
    me, dealer = ((name_in(n, seats) or n) if n else n for n in (me, dealer))
    header = Header(game=game.lower(), players=seats, variant=tuple(variant), dealer=dealer,
                    me=me, extra=tuple(extra))
    text = "\n".join(header.lines()) + "\n"
    try:
        rec = parse_record(text, path)  # validates names, options and player counts
        if rec.statements:          # a KEY=VALUE the game has no header key for
            keys = sorted(set(CORE_HEADER_KEYS) | set(get_game(rec.game).header_keys))
            raise NotationError(f"not a header key of {rec.game} (its header keys: "
                                f"{', '.join(keys)})", text=rec.statements[0].text)
    except SleuthError as e:
        # about an option given, not a line of the file (which is not written)
        e.path = e.line = e.column = None
        e.message += "; nothing was written"
        e.args = (e._render(),)
        raise
    with record_lock(path):         # another writer may have made it since the look above
        if taken():
            raise NotationError("the file exists already (use --force to overwrite)",
                                text=path)
        atomic_write(path, text)
    return header
