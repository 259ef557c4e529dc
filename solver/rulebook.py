"""The numbered rules of every game, read from the rule files that ship with the program
(``docs/rules/<game>.md``, packaged as ``solver/rulebook_docs/``).

A rule is a bullet of its file that starts with its number (``- MH-7 ...``,
``- **LIT-6 Question.** ...``, ``- **A3** ...``), with its indented continuation lines
and tables.  Numbers with a game prefix (``MH-7``, ``LIT-6(d)``, ``TT-V1``) belong to
one game; the lettered ones (``A3``, ``E1``, ``V2``, ``D4``, ``I2``, ``O5``) and the worked
examples (``EX-1``, ``EX-A``) are per game.

>>> r = rule("MH-11")
>>> r.game, r.id, r.text.startswith("MH-11 Legality")
('mystery-hand', 'MH-11', True)
>>> rule("lit-6(d)").id, "(d) you do not hold c" in rule("LIT-6(d)").text
('LIT-6', True)
>>> [r.game for r in lookup("A8")]
['mystery-hand', 'literature', 'hand', 'twenty-two', 'mysterium']
>>> rule_ids("LIT-3, V2 and MY-21: tie-break; TT-V1/TT-V2")
['LIT-3', 'V2', 'MY-21', 'TT-V1', 'TT-V2']
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from solver.errors import NotationError

#: where the rule files are (symbolic links to ``docs/`` in a source checkout; copies in a
#: built package)
RULEBOOK = Path(__file__).resolve().parent / "rulebook_docs"
DOCS = Path(__file__).resolve().parent.parent / "docs"

#: a rule number as errors cite it: ``MH-7``, ``LIT-6(d)``, ``TT-V1``, ``A10``, ``E3``; a
#: worked example's, per game like the lettered ones: ``EX-1``, ``EX-A``
_NUMBER = r"(?:[A-Z]{2,3}-V?\d+|EX-[A-Z]|[AEIDOV]\d+)"
ID = rf"{_NUMBER}(?:\([a-z]\))?"
_ID = re.compile(rf"(?<![\w-])({ID})(?![\w-])")
_ENTRY = re.compile(rf"^- (?:\*\*)?({_NUMBER})\b")


@dataclass(frozen=True)
class Rule:
    game: str          # the record's game name
    id: str            # MH-7, A3
    section: str       # the heading it is under
    text: str          # the rule as written (markdown, without the bullet)

    @property
    def title(self) -> str:
        """The first line, shortened."""
        first = re.sub(r"\*\*", "", self.text.splitlines()[0])
        return first if len(first) <= 76 else first[:73].rstrip() + "..."


#: a lettered part of a rule as its text writes it: ``(a)`` opening a line or inline
#: (``either (a) a range ... or (b) a rank``), never a citation's (``LIT-6(c)``)
_PART = re.compile(r"(?<![\w(-])\(([a-z])\)(?=\s)")


def parts(r: Rule) -> list[str]:
    """The letters of ``r``'s lettered parts, ``(a)`` onwards (a letter that does not
    follow on from ``a`` names another rule's part, as A8 cites HR-10's ``(b)``).

    >>> parts(rule("LIT-6")), parts(rule("MH-9")), parts(rule("MH-7"))
    (['a', 'b', 'c', 'd'], ['a', 'b'], [])
    """
    out: list[str] = []
    for letter in _PART.findall(r.text.replace("**", "")):
        if letter == chr(ord("a") + len(out)):
            out.append(letter)
    return out


def part_range(letters: list[str]) -> str:
    """``['a', 'b', 'c', 'd']`` -> ``'(a)-(d)'``, ``['a']`` -> ``'(a)'``."""
    return f"({letters[0]})" + (f"-({letters[-1]})" if len(letters) > 1 else "")


def _path(rules_name: str) -> Path:
    for base in (RULEBOOK / f"{rules_name}.md", DOCS / "rules" / f"{rules_name}.md"):
        if base.exists():
            return base
    raise NotationError("the rule files are missing from this installation", text=rules_name)


def record_format_text() -> str:
    """The text of the record format (``docs/record-format.md``)."""
    for p in (RULEBOOK / "record-format.md", DOCS / "record-format.md"):
        if p.exists():
            return p.read_text(encoding="utf-8")
    raise NotationError("the record format is missing from this installation",
                        text="record-format.md")


def parse_rules(text: str, game: str) -> list[Rule]:
    """The numbered rules of one rule file."""
    out: list[Rule] = []
    section = ""
    cur: list[str] | None = None
    cur_id = ""

    def close():
        nonlocal cur
        if cur is not None:
            while cur and not cur[-1].strip():
                cur.pop()
            out.append(Rule(game, cur_id, section, "\n".join(cur)))
        cur = None

    for line in text.splitlines():
        m = _ENTRY.match(line)
        if line.startswith("#"):
            close()
            section = line.lstrip("#").strip()
        elif m:
            close()
            cur_id = m.group(1)
            cur = [line[2:]]
        elif cur is not None and (not line.strip() or line.startswith((" ", "\t", "|"))):
            cur.append(line)
        else:
            close()
    close()
    return out


@lru_cache(maxsize=None)
def game_rules(name: str) -> tuple[Rule, ...]:
    """Every numbered rule of the game called ``name`` (in file order)."""
    from solver.games import get_game

    g = get_game(name)
    return tuple(parse_rules(_path(g.rules).read_text(encoding="utf-8"), g.name))


def rules_text(name: str) -> str:
    """The whole rule file of a game."""
    from solver.games import get_game

    return _path(get_game(name).rules).read_text(encoding="utf-8")


def normalize(rule_id: str) -> tuple[str, str | None]:
    """``'mh7'`` -> ``('MH-7', None)``; ``'LIT-6(d)'`` -> ``('LIT-6', 'd')``."""
    s = rule_id.strip().replace(" ", "")
    m = re.fullmatch(r"([A-Za-z]{2,3})-?([Vv]?\d+)(?:\(([a-zA-Z])\))?", s)
    if m and m.group(1).upper() in _prefixes():
        return f"{m.group(1).upper()}-{m.group(2).upper()}", (m.group(3) or "").lower() or None
    m = re.fullmatch(r"[Ee][Xx]-?(\d+|[A-Za-z])", s)
    if m:                       # a worked example: EX-1, EX-A
        return f"EX-{m.group(1).upper()}", None
    m = re.fullmatch(r"([A-Za-z])(\d+)(?:\(([a-zA-Z])\))?", s)
    if m:
        return f"{m.group(1).upper()}{m.group(2)}", (m.group(3) or "").lower() or None
    raise NotationError("expected a rule number such as MH-7, LIT-6(d), TT-V1, A3 or EX-1",
                        text=rule_id)


def _prefixes() -> dict[str, str]:
    from solver.games import games

    return {g.rule_prefix: g.name for g in games() if g.rule_prefix}


def lookup(rule_id: str, game: str | None = None) -> list[Rule]:
    """The rules numbered ``rule_id`` (one per game for the lettered ones unless ``game``
    is given); ``NotationError`` when there is none."""
    from solver.games import games

    key, sub = normalize(rule_id)
    prefix = key.split("-")[0] if "-" in key else None
    names = [game] if game else ([_prefixes()[prefix]] if prefix in _prefixes()
                                 else [g.name for g in games()])
    found = [r for n in names for r in game_rules(n) if r.id == key]
    if not found:
        where = f" in {game}" if game else ""
        raise NotationError(f"no rule numbered so{where}; 'sleuth rules GAME' lists them",
                            text=rule_id)
    if sub is not None:     # a lettered part: only of the rules that have it
        with_part = [r for r in found if sub in parts(r)]
        if not with_part:
            many = len(found) > 1       # a lettered rule of several games: say whose
            has = [f"{r.game + ' ' if many else ''}{r.id}{part_range(parts(r))}"
                   for r in found if parts(r)]
            raise NotationError(
                f"{key} has no part ({sub}): "
                + (f"its parts are {', '.join(has)}" if has else "it has no lettered parts"),
                text=rule_id)
        found = with_part
    return found


def rule(rule_id: str, game: str | None = None) -> Rule:
    """The one rule numbered ``rule_id`` (the first game's for an ambiguous lettered one)."""
    return lookup(rule_id, game)[0]


def rule_ids(text: str) -> list[str]:
    """The rule numbers cited in ``text`` (an error's ``rule``), in order, once each."""
    out: list[str] = []
    for m in _ID.finditer(text or ""):
        if m.group(1) not in out:
            out.append(m.group(1))
    return out


def hint(rule_text: str | None, game: str | None = None) -> str:
    """How to read the rules an error cites: ``'(see: sleuth rules MH-7)'``, or ``''``; a
    lettered rule that several games number names ``game`` when given (``sleuth rules hand
    A10``: ``sleuth rules A10`` would list every game's)."""
    ids = [i for i in rule_ids(rule_text or "") if _known(i)]
    if not ids:
        return ""

    def command(i: str) -> str:
        if game and len(lookup(i)) > 1 and _known(i, game):
            return f"sleuth rules {game} {i}"
        return f"sleuth rules {i}"
    return "(see: " + "; ".join(command(i) for i in ids) + ")"


def _known(rule_id: str, game: str | None = None) -> bool:
    try:
        lookup(rule_id, game)
    except NotationError:
        return False
    return True
