"""Did you mean...?  Corrections of a statement that does not parse, for every game alike.

A statement is refused with a :class:`~solver.errors.NotationError`; :func:`corrections`
looks at its words, and where one is not a word of the record's language but is near one
(another case, one letter added, dropped, changed or two swapped, or the start of a
longer keyword) it tries the statement with that word replaced -- and spaces around a
range's ``-`` dropped -- and keeps the versions that the game parses.  Nothing here knows
any game: the words come from :meth:`solver.games.Game.vocabulary`, and only the game's
own parser decides.

>>> near("cleo", ["Ana", "Cleo"]), near("Dve", ["Dev", "Eli"]), near("al", ["all", "Ana"])
(['Cleo'], ['Dev'], ['all'])
>>> near("Jose", ["José", "Zoë"]), near("BJORN", ["Bjørn"]), near("zoe", ["Zoë"])
(['José'], ['Bjørn'], ['Zoë'])
>>> near("Zed", ["Ana", "Ben"])
[]
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterable

from solver.errors import SleuthError

#: how many corrected statements an error offers at most
LIMIT = 4
#: statements of more words than this get no suggestions (the search grows with the cube
#: of the words: fifty took seconds, thousands would take hours)
MAX_CORRECTED = 24


def fold(word: str) -> str:
    """``word`` without case, composed (``é`` one letter however it was typed)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", word).casefold())


def one_edit_apart(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one edit: a letter inserted, deleted or changed,
    or two neighbours swapped (case-insensitive: ``Jose`` and ``JOSÉ``)."""
    a, b = fold(a), fold(b)
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] \
            and a[diff[1]] == b[diff[0]]
    if la > lb:
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:]


def near(word: str, vocabulary: Iterable[str]) -> list[str]:
    """The words of ``vocabulary`` that ``word`` probably meant, best first: the same word
    in another case, then one edit away, then (for two letters or more) a longer word it
    starts."""
    vocab = list(dict.fromkeys(vocabulary))
    if word in vocab:
        return []
    low = fold(word)
    same = [v for v in vocab if fold(v) == low]
    if same:
        return same
    if len(word) < 2:
        return []
    one = [v for v in vocab if len(v) >= 2 and one_edit_apart(word, v)]
    start = [v for v in vocab if len(low) >= 2 and fold(v).startswith(low) and v not in one]
    return one + start


_WORD = re.compile(r"[^\s,;:]+")


def corrected_versions(statement: str, vocabulary: Iterable[str]) -> list[str]:
    """Versions of ``statement`` with one word corrected (see :func:`near`), or with the
    spaces around a ``-`` dropped, in order of the words."""
    vocab = list(vocabulary)
    out: list[str] = []
    squeezed = re.sub(r"(?<=\w)\s*-\s*(?=\w)", "-", statement)
    if squeezed != statement:
        out.append(squeezed)
    if ":" not in statement:        # a forgotten colon: after one of the words
        for m in _WORD.finditer(statement):
            v = statement[: m.end()] + ":" + statement[m.end():]
            if m.end() < len(statement) and v not in out:
                out.append(v)
    for m in _WORD.finditer(statement):
        for w in near(m.group(0), vocab):
            v = statement[: m.start()] + w + statement[m.end():]
            if v not in out:
                out.append(v)
    return out


def corrections(statement: str, vocabulary: Iterable[str], parses: Callable[[str], bool],
                limit: int = LIMIT) -> list[str]:
    """The corrected versions of ``statement`` that ``parses`` accepts: one word at a
    time, else two (a name and a keyword both misspelt)."""
    if len(_WORD.findall(statement, 0, 2000)) > MAX_CORRECTED:   # a long line is no typo
        return []                                                  # (issue 12: refuse at once)
    vocab = list(vocabulary)
    first = corrected_versions(statement, vocab)
    good = [v for v in first if parses(v)]
    if not good:
        for v in first:
            good += [w for w in corrected_versions(v, vocab) if w not in good and parses(w)]
            if len(good) > 1:
                # two words changed, and more than one way: a guess (a card picked among
                # several), not a typo's correction
                return []
    return good[:limit]


def record_words(vocabulary) -> list[str]:
    """The words of a :class:`solver.games.Vocabulary` worth correcting to (names,
    keywords, cards, ranges; a vocabulary entry of several words adds each)."""
    out: list[str] = []
    for group in (vocabulary.names, vocabulary.lead, vocabulary.verbs, vocabulary.words,
                  vocabulary.cards, vocabulary.ranges):
        for entry in group:
            out += entry.split()
    return list(dict.fromkeys(out))


def attach_corrections(error: SleuthError, statement: str, record,
                       allowed: Callable[[str], bool] | None = None) -> SleuthError:
    """Attach ``did_you_mean`` (corrected statements, possibly empty) to ``error``, a
    refusal of ``statement`` written under ``record``'s header; returns the error.
    ``allowed``: whether the record with a corrected statement added keeps the rules (a
    correction the game would refuse at once is not offered)."""
    from solver.games import get_game
    from solver.records import strip_comment

    stmt, _comment = strip_comment(statement.strip())
    game = get_game(record.game)
    try:
        words = record_words(game.vocabulary(record))
    except SleuthError:
        words = list(record.header.players)

    def parses(text: str) -> bool:
        try:       # as the statement after the record's (an ask-all's counts skip who is out)
            game.parse_statement(text, record.header, record.statements)
        except SleuthError:
            return False
        return allowed is None or allowed(text)

    error.did_you_mean = corrections(stmt, words, parses) if stmt else []
    return error
