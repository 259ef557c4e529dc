"""One option machinery for every game: declarative specs, one parser, one writer.

A game declares its variants as :class:`Option` specs (record name, dataclass field,
allowed values with the default first, aliases, the rule it comes from) on a frozen
dataclass that subclasses :class:`Options`.  Parsing (:meth:`Options.from_names`), writing
(:meth:`Options.names`, ``str``) and ``repr`` are written once here; a game keeps only its
specs and, where options constrain each other, :meth:`Options.check`.

Names are case-insensitive, ``_`` is written ``-`` and blanks around ``=`` are dropped;
``standard`` names no option (alone: with others it is refused).  A flag is turned on by
its name (``sneak``) or ``name=on`` (``true``, ``yes``), off by ``name=off`` (``false``,
``no``); a valued option is ``name=value``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, repr=False)
... class Demo(Options):
...     GAME = "Demo"
...     SPECS = (Option("sneak", "sneak", FLAG, "MH-23", "jokers in play"),
...              Option("two-player", "two_player", (None, "seen", "blind"), "MH-28",
...                     "two players", aliases=("duel",)),
...              Option("initial-min", "initial_min", (51, 61), "HR-51", "minimum"))
...     sneak: bool = False
...     two_player: str | None = None
...     initial_min: int = 51
>>> o = Demo.from_names(["Sneak", "duel = blind"])
>>> o, str(o), o.names()
(Demo(sneak=True, two_player='blind'), 'sneak, two-player=blind', ['sneak', 'two-player=blind'])
>>> Demo.from_names(o.names()) == o
True
>>> Demo.from_names(["initial-min=61"]).initial_min
61
>>> Demo.from_names(["sneak=true"]).sneak, Demo.from_names(["sneak = False"]).sneak
(True, False)
>>> Demo.from_names(["standard", "sneak"])
Traceback (most recent call last):
...
solver.errors.NotationError: 'standard' means no option (record-format.md, "Header"): 'standard'
>>> Demo.from_names(["two-player"])
Traceback (most recent call last):
...
solver.errors.NotationError: two-player needs a value: two-player=seen | blind (MH-28): 'two-player'
>>> Demo.from_names(["initial-min=50"])
Traceback (most recent call last):
...
solver.errors.NotationError: initial-min is 51 | 61 (HR-51): 'initial-min=50'
>>> Demo.from_names(["jokers"])
Traceback (most recent call last):
...
solver.errors.NotationError: unknown Demo option; expected one of sneak, two-player=seen|blind, initial-min=51|61: 'jokers'
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar, Self, cast

from solver.errors import NotationError

#: the values of a flag (off is the default)
FLAG = (False, True)
#: how a record may write a flag's value (the rules write some defaults as ``false``)
FLAG_WORDS = {True: ("on", "true", "yes"), False: ("off", "false", "no")}


def _show(v) -> str:
    return "off" if v is False else "on" if v is True else str(v)


@dataclass(frozen=True)
class Option:
    """One variant option.

    ``values``: the allowed values, the default first; :data:`FLAG` for an on/off flag; a
    leading ``None`` means "not in force" (a valued option that is off unless named).
    ``rule``: the rule (or ambiguity) it comes from, cited in errors and in ``sleuth rules``.
    """

    name: str
    field: str
    values: tuple
    rule: str
    help: str
    aliases: tuple[str, ...] = ()

    @property
    def is_flag(self) -> bool:
        return self.values == FLAG

    @property
    def default(self) -> Any:
        return self.values[0]

    @property
    def choices(self) -> tuple:
        """The values a record may write (``None`` is never written)."""
        return tuple(v for v in self.values if v is not None)

    def choices_text(self, sep: str = " | ") -> str:
        return sep.join(_show(v) for v in self.choices)

    def usage(self) -> str:
        """``sneak`` or ``two-player=seen|chosen|blind``."""
        return self.name if self.is_flag else f"{self.name}={self.choices_text('|')}"

    def parse(self, value: str | None, raw: str) -> Any:
        """The value of ``name[=value]`` (``value`` already lower case, or ``None``)."""
        if self.is_flag:
            if value in (None, "", *FLAG_WORDS[True]):
                return True
            if value in FLAG_WORDS[False]:
                return False
            raise NotationError(f"{self.name} is off | on (also false | true, no | yes)",
                                text=raw, rule=self.rule)
        if not value:
            raise NotationError(f"{self.name} needs a value: {self.name}={self.choices_text()}",
                                text=raw, rule=self.rule)
        for v in self.choices:
            if _show(v).lower() == value:
                return v
        raise NotationError(f"{self.name} is {self.choices_text()}", text=raw, rule=self.rule)

    def write(self, value) -> str:
        return self.name if self.is_flag and value is True else f"{self.name}={_show(value)}"


def option_items(names) -> list[tuple[str, str, str | None]]:
    """Variant option names as ``(raw, name, value)``: lower case, ``_`` written ``-``,
    blanks around ``=`` dropped, ``standard`` and empty names dropped, ``value`` ``None``
    for a bare name; ``standard`` with another option is refused (it means none).

    >>> option_items(["Sneak", "two_player = blind", " "]), option_items(["Standard"])
    ([('Sneak', 'sneak', None), ('two_player = blind', 'two-player', 'blind')], [])
    """
    out = []
    standard = None
    for raw in names:
        name = raw.strip().lower().replace("_", "-")
        if name == "standard":
            standard = raw
        if name in ("", "standard"):
            continue
        if "=" in name:
            key, value = (p.strip() for p in name.split("=", 1))
            out.append((raw, key, value))
        else:
            out.append((raw, name, None))
    if standard is not None and out:
        raise NotationError("'standard' means no option (record-format.md, \"Header\")",
                            text=standard.strip())
    return out


@dataclass(frozen=True, repr=False)
class Options:
    """Base of every game's options: a frozen dataclass whose fields are its options.

    Subclasses set ``GAME`` (the game's title, for messages) and ``SPECS``; their field
    defaults must equal each spec's default.  ``check()`` raises for combinations the
    rules forbid (called after parsing)."""

    GAME: ClassVar[str] = ""
    SPECS: ClassVar[tuple[Option, ...]] = ()

    @classmethod
    def spec(cls, name: str) -> Option | None:
        """The spec named ``name`` (or one of its aliases)."""
        for s in cls.SPECS:
            if s.name == name or name in s.aliases:
                return s
        return None

    @classmethod
    def from_names(cls, names) -> "Options":
        """Build from variant names; unknown names and values raise
        :class:`~solver.errors.NotationError` naming the rule."""
        kw: dict = {}
        for raw, name, value in option_items(names):
            spec = cls.spec(name)
            if spec is None:
                raise NotationError(f"unknown {cls.GAME} option; expected one of "
                                    + ", ".join(s.usage() for s in cls.SPECS), text=raw)
            val = spec.parse(value, raw)
            if spec.field in kw and kw[spec.field] != val:
                raise NotationError(f"{spec.name} given twice with different values",
                                    text=raw, rule=spec.rule)
            kw[spec.field] = val
        opts = cls(**kw)
        opts.check()
        return opts

    @classmethod
    def of(cls, header) -> Self:
        """The options of a record header, parsed once per distinct ``variant:`` (the values
        are frozen: every caller may share them)."""
        return cast(Self, _parse_cached(cast(Any, cls), tuple(header.variant)))

    def check(self) -> None:
        """Raise a :class:`~solver.errors.SleuthError` for options the rules do not combine."""

    def names(self) -> list[str]:
        """The variant names of every option not at its default (round-trips
        :meth:`from_names`), in spec order."""
        return [s.write(getattr(self, s.field)) for s in self.SPECS
                if getattr(self, s.field) != s.default]

    def __str__(self) -> str:
        """The ``variant:`` header text (``standard`` when every option is at its default)."""
        return ", ".join(self.names()) or "standard"

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                         if getattr(self, f.name) != f.default)
        return f"{type(self).__name__}({args})"

    @classmethod
    def table(cls) -> list[tuple[str, str, str, str]]:
        """(name, values with the default first, rule, what) for help texts and docs."""
        return [(s.name, " | ".join(_show(v) for v in s.values if v is not None)
                 if None not in s.values else s.choices_text(), s.rule, s.help)
                for s in cls.SPECS]


@lru_cache(maxsize=256)
def _parse_cached(cls: Any, variant: tuple[str, ...]) -> Options:
    return cls.from_names(variant)
