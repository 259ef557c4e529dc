"""The one Game interface, its capabilities, and the registry of games.

Every game is a package ``solver/<package>/`` whose ``game.py`` defines a subclass of
:class:`Game` and registers it (:data:`REGISTRY` is the only list of games).  The generic
parts -- records, the live session, replay, the CLI verbs -- only ever call a game through
this interface: they test what a game can do with :attr:`Game.capabilities` (never
``hasattr``) and event kinds with the class-level flags of :class:`Event` (never class
names).

A game package has the same role modules (``docs/architecture.md``):
``events.py`` (statements: parse and write), ``options.py`` (variants, on
:mod:`solver.options`), ``engine.py`` (turn order, legality, the state after each
statement), ``inference.py`` (the model of what a view knows), ``analysis.py`` (what
``analyze`` returns), ``simulate.py`` and ``game.py`` (the :class:`Game`); game-only
extras keep their own names.

>>> g = get_game("mystery-hand")
>>> g.name, Capability.ANALYZE in g.capabilities
('mystery-hand', True)
>>> [g.name for g in games()]
['mystery-hand', 'literature', 'hand', 'twenty-two', 'mysterium', 'clue']
>>> get_game("chess")
Traceback (most recent call last):
...
solver.errors.NotationError: unknown game; expected one of mystery-hand | literature | hand | twenty-two | mysterium | clue: 'chess'
"""
from __future__ import annotations

import enum
import functools
import importlib
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from solver.errors import InconsistentError, NotationError
from solver.model.budget import Budget

if TYPE_CHECKING:  # pragma: no cover
    from solver.options import Options
    from solver.records import Header, Record

#: record name -> "module:Class" of the game (the only list of games; a new game adds a line)
REGISTRY: dict[str, str] = {
    "mystery-hand": "solver.mystery_hand.game:MysteryHandGame",
    "literature": "solver.literature.game:LiteratureGame",
    "hand": "solver.hand.game:HandGame",
    "twenty-two": "solver.twenty_two.game:TwentyTwoGame",
    "mysterium": "solver.mysterium.game:MysteriumGame",
    "clue": "solver.clue.game:ClueGame",
}

#: the label of the spectator's view (``--as public``); no player may be called so
PUBLIC = "public"


class Capability(enum.Enum):
    """What a game can do; the CLI offers a verb only for the games that declare it."""

    ANALYZE = "analyze"      # analyze(record, view, budget=) -> Analysis
    EXPLAIN = "explain"      # explain(record, view, card) -> Explanation
    CHECK = "check"          # check(record): raise InconsistentError
    SIMULATE = "simulate"    # simulate(players, options, seed, events) -> Record
    REPLAY = "replay"        # knowledge(), views(), findings(), checks()
    ADVISE = "advise"        # suggest(record, view, ...) -> Advice


class Event:
    """Base of every game's statement classes (frozen dataclasses).

    ``str(event)`` is its record notation (``write_record`` writes it; parsing it gives an
    equal event); ``repr`` is for debugging.  Class-level flags tell the generic parts
    what an event is, without naming it:

    * ``setup``: a statement of the deal (``holds``, ``faceup``...): leading ones form the
      opening step of a replay;
    * ``joins``: event classes whose step this event completes when it follows one (a
      Literature ``shown`` line after its claim, Twenty-Two ``holds`` after a deal);
    * ``held_for``: the event class that may resolve this one when, as written alone, it
      is refused (a Literature claim held until its ``shown`` line); ``held_name`` what
      the messages call such a held statement, ``held_advice`` what to type to resolve it;
      ``held_rules`` the rules whose refusal that line may cure (what it says instead of
      this one: where the cards were); a refusal by another rule is no refusal the
      resolving line can change, and is not held.
    """

    setup: ClassVar[bool] = False
    joins: ClassVar[tuple[type, ...]] = ()
    held_for: ClassVar[type | None] = None
    held_rules: ClassVar[tuple[str, ...]] = ()
    held_name: ClassVar[str] = "statement"
    held_advice: ClassVar[str] = ""


# The two statements every game takes (record-format.md, "What the recorder did not see"):
# one class each, shared by every game package; what an unseen turn may be is the game's
# (its engine follows every course its rules allow), said in docs/record-format.md.
@dataclass(frozen=True)
class Unseen(Event):
    """``Ben: ?``: one turn of Ben's that the recorder did not see (in each game, any turn
    its rules allow Ben then; docs/record-format.md)."""

    player: str

    def __str__(self) -> str:
        return f"{self.player}: ?"


@dataclass(frozen=True)
class TurnIs(Event):
    """``turn: Cleo``: it is Cleo's turn now (re-synchronises the turn order after turns
    the recorder did not write)."""

    player: str

    def __str__(self) -> str:
        return f"turn: {self.player}"


# ----- what a view knows after a statement (session and replay) ---------------------------
@dataclass
class Knowledge:
    """What a view knows after a prefix of the record: the common currency of the live
    session (``whatif``) and the replay.

    ``certain``: card -> where it certainly is; ``uncertainty``: the game's
    :attr:`Game.measure` (``None`` when not measured); ``exact``: the uncertainty is exact
    (else an estimate); ``bound``: it is an upper bound; ``summary``: the game's headline
    figures (JSON-able); ``safe``: the commitments the view can make now without risk
    (an announcement, safe claims...) -- key -> detail."""

    certain: dict[str, str]
    uncertainty: float | None
    exact: bool = True
    summary: dict = field(default_factory=dict)
    bound: bool = False
    safe: dict[str, Any] = field(default_factory=dict)


def log10(n) -> float | None:
    """``log10(n)`` for a positive count, else ``None``."""
    if n is None or n <= 0:
        return None
    return math.log10(n)


@dataclass(frozen=True)
class StepSpec:
    """One replay step: the statements it adds and the record of everything known after."""

    index: int
    statements: tuple
    record: Any

    @property
    def lines(self) -> list[int]:
        return [s.line for s in self.statements]

    @property
    def text(self) -> str:
        """The statements as the program writes them (record-format.md: names as
        ``players:`` writes them, cards in their canonical form), not as typed."""
        return " / ".join(str(s.event) for s in self.statements)


@dataclass
class Finding:
    """A moment worth telling in a replay.  ``kind``: ``determined`` (the view could
    announce), ``announce`` (``ok`` true when the announcer was sure), ``safe-claim``,
    ``claim``, ``forced`` (a psychic's card became certain), ``found``, ``lead``,
    ``unchecked`` (the mover's view is not in the record)."""

    kind: str
    step: int
    line: int | None
    player: str | None
    text: str
    ok: bool | None = None
    since: int | None = None          # the step from which it was certain/safe

    def to_json(self) -> dict:
        return {"kind": self.kind, "step": self.step, "line": self.line, "player": self.player,
                "text": self.text, "ok": self.ok, "since": self.since}


def steps_before(since: int, step: int) -> str:
    """How long before the statement at replay step ``step`` a player could have made it,
    knowing it safe since step ``since``.

    >>> steps_before(66, 68)
    '2 steps before it (step 68)'
    """
    n = step - since
    return f"{n} step{'' if n == 1 else 's'} before it (step {step})"


def guess_checks(game, record, specs, knowledge_of, first_safe, event_class, *, verb: str,
                 safe: str, many: str) -> list[Finding]:
    """A replay's findings on each final guess of a record (a game's ``checks``): for every
    step whose statement is an ``event_class`` (a guess of the hidden cards: its
    ``player`` and ``right``), whether the guesser was sure then (the
    view's ``safe`` action was safe: since which step) or guessed (how many ``many`` were
    left, the best guess's chance).  ``verb``: the past tense said ("announced")."""
    out: list[Finding] = []
    for spec in specs[1:]:
        st = spec.statements[0]
        if not isinstance(st.event, event_class):
            continue
        p = st.event.player
        said = f"{p} {verb} at line {st.line} ({'right' if st.event.right else 'wrong'})"
        if not game.view_supported(record, p):
            out.append(Finding("unchecked", spec.index, st.line, p,
                               f"{said}; their view needs a complete record", None))
            continue
        k = knowledge_of(p, spec.index - 1)
        if k is None:
            continue
        since = first_safe(p, safe)
        if safe in k.safe:
            txt = f"{said} when sure"
            if since is not None and since < spec.index - 1:
                txt += f"; sure since step {since}, " + steps_before(since, spec.index)
            out.append(Finding("announce", spec.index, st.line, p, txt, True, since))
        else:
            n = k.summary.get("candidates")
            best = k.summary.get("best")
            txt = f"{said} while not yet sure: {n if n is not None else 'many'} {many}"
            if best:
                txt += f", best guess right with p = {best['p']:.3g}"
            out.append(Finding("announce", spec.index, st.line, p, txt, False, None))
    return out


@dataclass(frozen=True)
class Keywords:
    """A game's keywords, for completion and did-you-mean: words that start a statement,
    words after a player's name, and words later on."""

    lead: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    #: what may follow a keyword (a verb after a name, or a leading keyword), for completion:
    #: ``(keyword, slots, answer)`` -- ``slots`` the words before the colon, one tuple of
    #: choices per word (the last repeats), ``answer`` the words after it.  A choice is a
    #: literal word or a class: :data:`NAMES`, :data:`CARDS`, :data:`RANGES`, :data:`WORDS`.
    #: A keyword not listed completes with every class.
    follows: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...] = ()


#: the word classes of :attr:`Keywords.follows`
NAMES, CARDS, RANGES, WORDS = "<names>", "<cards>", "<ranges>", "<words>"


@dataclass(frozen=True)
class Vocabulary:
    """The words of one record's language, for completion."""

    names: tuple[str, ...]        # players (and psychics)
    lead: tuple[str, ...]         # keywords that start a statement
    verbs: tuple[str, ...]        # keywords after a name
    words: tuple[str, ...]        # other keywords
    cards: tuple[str, ...]
    ranges: tuple[str, ...]       # suit ranges, rank sets, half-suits
    commands: tuple[str, ...] = ()
    follows: tuple = ()           # :attr:`Keywords.follows`
    #: whom a player may name where a keyword's slot before the colon takes a player's
    #: name (:data:`NAMES`), when the rules allow only some players there: ``(keyword,
    #: player, names)``, completion offering ``player keyword`` only ``names`` there; a
    #: keyword or player not listed may name every player
    named: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class AdviceField:
    """One of a game's own figures of an advised action (``ActionAdvice.more[key]``), as
    ``sleuth suggest`` shows it: a column of the table headed ``column``, or (``None``) a
    line below the action's row.  A ``p_`` key is a chance, shown in per cent."""

    key: str
    column: str | None = None


@dataclass(frozen=True)
class AdvisorOption:
    """An option the game's advisor takes: ``sleuth suggest --<name> VALUE``.  ``value_type``
    ``str`` or ``int``; a ``str`` value must be one of :meth:`Game.advisor_choices` when
    the game lists them (any case); ``rule`` the rule it comes from, cited in help and
    errors; ``example`` a value for the game's demo record (``sleuth suggest --help``)."""

    name: str
    metavar: str
    help: str
    rule: str = ""
    value_type: type = str
    example: str = ""


def advisor_values(game, record, given: dict[str, Any]) -> dict[str, Any]:
    """The advisor options ``given`` (name -> value as typed, ``None`` for one not given)
    checked against ``game``'s :attr:`~solver.games.Game.advisor_options`: a value of a
    listed choice (:meth:`~solver.games.Game.advisor_choices`, any case) becomes that
    choice.  An option the game does not take, or a value not among its choices, is a
    :class:`~solver.errors.NotationError` naming the option and quoting the input.

    >>> class Demo:
    ...     title, advisor_options = "Demo", (AdvisorOption("room", "ROOM", "a room"),)
    ...     def advisor_choices(self, record, name):
    ...         return ("Hall", "Library")
    >>> advisor_values(Demo(), None, {"room": "library", "seat": None})
    {'room': 'Library'}
    >>> advisor_values(Demo(), None, {"room": "Libary"})
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: --room is one of Hall, Library: 'Libary'
    >>> advisor_values(Demo(), None, {"depth": 2})
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: the Demo advisor does not take --depth (it takes --room ROOM): '--depth 2'
    """
    from solver.didyoumean import near
    from solver.errors import NotationError

    specs = {o.name: o for o in game.advisor_options}
    out: dict[str, Any] = {}
    for name, value in given.items():
        if value is None:
            continue
        spec = specs.get(name)
        if spec is None:
            takes = ", ".join(f"--{o} {specs[o].metavar}" for o in specs) or "no option"
            raise NotationError(f"the {game.title} advisor does not take --{name} (it takes "
                                f"{takes})", text=f"--{name} {value}")
        choices = game.advisor_choices(record, name) if spec.value_type is str else ()
        if choices:
            match = [c for c in choices if c.casefold() == str(value).casefold()]
            if not match:
                err = NotationError(f"--{name} is one of {', '.join(choices)}",
                                    text=str(value), rule=spec.rule or None)
                err.did_you_mean = [f"--{name} {w}" for w in near(str(value), choices)]
                raise err
            value = match[0]
        out[name] = value
    return out


@dataclass(frozen=True)
class Note:
    """One plain sentence about the table (:meth:`Game.table_notes`).  ``key``: an alert,
    shown once by ``play`` when it first appears (the same key again is not news);
    ``strong``: worth highlighting; ``hand_missing``: the note says that the view's own hand
    is not logged yet (the advisor waits for it: :meth:`Game.advice_waits`)."""

    text: str
    key: str | None = None
    strong: bool = False
    hand_missing: bool = False


#: ``knowledge_of(player, step_index)`` -> that player's Knowledge (``None`` if unknown)
KnowledgeOf = Callable[[str, int], "Knowledge | None"]


# ----- the interface -------------------------------------------------------------------------
def _locating(method):
    """``method`` (a :class:`Game` method taking a record first), its
    :class:`~solver.errors.InconsistentError` placed in that record."""
    if getattr(method, "_locates", False):
        return method

    @functools.wraps(method)
    def run(self, record, *args, **kwargs):
        try:
            return method(self, record, *args, **kwargs)
        except InconsistentError as e:
            from solver.records import locate_conflict

            if getattr(record, "statements", None) is not None:
                locate_conflict(e, record)
            raise

    run._locates = True     # type: ignore[attr-defined]
    return run


class Game(ABC):
    """One game.  Subclasses set the class attributes and implement the methods of the
    capabilities they declare; a method of an undeclared capability is never called."""

    #: the record's ``game:`` name
    name: ClassVar[str] = ""
    #: the game's title, for people ("Mystery Hand")
    title: ClassVar[str] = ""
    #: the Python package (``solver.<package>``; its CLI module is ``cli.<package>``)
    package: ClassVar[str] = ""
    #: the rules file and rule-number prefix (``docs/rules/<rules>.md``, ``MH``)
    rules: ClassVar[str] = ""
    rule_prefix: ClassVar[str] = ""
    capabilities: ClassVar[frozenset[Capability]] = frozenset()
    #: player counts the standard rules allow (simulation and the conformance tests use them)
    player_counts: ClassVar[tuple[int, ...]] = ()
    #: header keys beyond ``game variant players dealer me``
    header_keys: ClassVar[tuple[str, ...]] = ()
    #: what a replay's ``uncertainty`` measures (``None``: nothing to plot)
    measure: ClassVar[str | None] = None
    #: one example per statement kind (help, ``sleuth format``)
    examples: ClassVar[tuple[str, ...]] = ()
    #: statements that only a variant allows: (its ``variant:`` option, an example), shown
    #: by ``sleuth format`` after the examples above
    variant_examples: ClassVar[tuple[tuple[str, str], ...]] = ()
    keywords: ClassVar[Keywords] = Keywords()
    #: a bundled sample (``samples/<name>/<demo>``) for ``sleuth demo`` and help examples,
    #: and a card worth asking ``why`` about in it
    demo: ClassVar[str | None] = None
    demo_card: ClassVar[str | None] = None
    #: the line of the game's own command group (``sleuth <name> ...``, defined in
    #: ``cli/<package>.py``) in ``sleuth --help``; ``None``: the game has no commands of its
    #: own (the listing reads it without importing the command line's module)
    commands_help: ClassVar[str | None] = None
    #: the replay's label of step 0 ("(the deal)" for games whose records open with it)
    opening: ClassVar[str] = "(the start)"
    #: whether replay adds the public view to the game's :meth:`views`
    public_view: ClassVar[bool] = True
    #: whether :meth:`simulate` writes lossy records (``miss`` > 0)
    lossy: ClassVar[bool] = False
    #: the modules its analyses load (numpy, the counting programme...): imported before
    #: ``analyze`` forks the exposure's analysis, so that it is done once
    #: (:func:`solver.parallel.beside`)
    solver_modules: ClassVar[tuple[str, ...]] = ()
    #: words that name a place of the game's cards in its JSON and ``--as`` (``mystery``,
    #: ``stock``): no player of the game may be called so (:func:`solver.records.reserved_names`)
    location_words: ClassVar[tuple[str, ...]] = ()
    #: words that start a statement without a colon, where a player's name would stand
    #: (Hand's ``round 3: ...``): no player of the game may be called so either
    statement_words: ClassVar[tuple[str, ...]] = ()
    #: ADVISE: the game's own figures of an action that ``sleuth suggest`` shows, in order
    advice_fields: ClassVar[tuple[AdviceField, ...]] = ()
    #: ADVISE: the options its advisor takes (``sleuth suggest --<name>``), passed to
    #: :meth:`suggest` as ``options`` once checked (:func:`advisor_values`)
    advisor_options: ClassVar[tuple[AdvisorOption, ...]] = ()

    #: the methods taking a record first whose contradictions are placed in that record
    #: (:func:`solver.records.locate_conflict`: its file, the line and column of the
    #: statement completing the contradiction), whichever game's code raised them
    LOCATES_CONFLICTS: ClassVar[tuple[str, ...]] = (
        "validate", "analyze", "explain", "check", "suggest", "review", "exposure",
        "knowledge", "certainties", "step_knowledge", "findings", "checks", "table_notes")

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for name in Game.LOCATES_CONFLICTS:
            if name in cls.__dict__:
                setattr(cls, name, _locating(cls.__dict__[name]))

    # ----- records (every game) ----------------------------------------------------------
    def options(self, header: "Header") -> "Options":
        """The variant in force, parsed from the header (raises ``NotationError``)."""
        raise NotImplementedError

    def option_specs(self) -> tuple:
        """The game's variant options (:class:`solver.options.Option` specs), for help and
        ``sleuth rules GAME``."""
        from solver.records import Header

        n = self.player_counts[len(self.player_counts) // 2] if self.player_counts else 4
        header = Header(game=self.name, players=tuple(f"P{i}" for i in range(1, n + 1)))
        return tuple(type(self.options(header)).SPECS)

    @abstractmethod
    def check_header(self, header: "Header") -> None:
        """Raise a :class:`~solver.errors.SleuthError` for a header this game cannot play
        (unknown options, wrong player counts), naming the rule."""

    @abstractmethod
    def parse_event(self, text: str, header: "Header") -> Event:
        """One statement line (comment stripped) -> its event (``NotationError``)."""

    def parse_statement(self, text: str, header: "Header", earlier) -> Event:
        """``text`` read as the statement after ``earlier`` (the record's statements before
        it): the reader's entry, for a notation whose reading depends on the play so far
        (Mystery Hand's ask-all counts without names skip the players who are out).  By
        default :meth:`parse_event`."""
        return self.parse_event(text, header)

    def validate(self, record: "Record") -> None:
        """Raise :class:`~solver.errors.RuleError` (with the line) for an illegal record."""

    # ----- capabilities --------------------------------------------------------------------
    def analyze(self, record: "Record", view: str | None, *, budget: Budget = Budget()):
        """ANALYZE: what ``view`` knows (``None`` = the public view); an object with
        ``to_json()`` (the contract's keys)."""
        raise NotImplementedError

    def explain(self, record: "Record", view: str | None, card: str):
        """EXPLAIN: a :class:`solver.model.Explanation` of where ``card`` can be."""
        raise NotImplementedError

    def check(self, record: "Record") -> None:
        """CHECK: raise :class:`~solver.errors.InconsistentError` (minimal conflicting
        lines) when no course of the game fits everything written in the record."""
        raise NotImplementedError

    def simulate(self, players: int, options, seed: int = 0,
                 events: int | None = None, miss: float = 0.0) -> "Record":
        """SIMULATE: a random rule-following game as a complete record.  ``miss`` > 0 (only
        where :attr:`lossy` is set): each observation is hidden with that probability
        (record-format.md, "What the recorder did not see")."""
        raise NotImplementedError

    # ----- the advisor (ADVISE) ------------------------------------------------------------
    def suggest(self, record: "Record", view: str | None, *, top: int | None = None,
                budget: Budget = Budget(), options: dict[str, Any] | None = None):
        """ADVISE: every legal action of ``view`` now, best first
        (:class:`solver.advice.Advice`; keys and scoring: docs/advisor.md); ``options``:
        values of :attr:`advisor_options` by name (only those given)."""
        raise NotImplementedError

    def advisor_choices(self, record: "Record", name: str) -> tuple[str, ...]:
        """ADVISE: the values the advisor option ``name`` may take in ``record`` (``()``:
        any value of its type)."""
        return ()

    def review(self, record: "Record", view: str | None):
        """ADVISE: each of the view's turns against the advisor's best
        (:class:`solver.advice.Review`)."""
        raise NotImplementedError

    def exposure(self, record: "Record", view: str | None, *, budget: Budget = Budget()):
        """ADVISE: what a spectator can infer about ``view``'s hand (a JSON-able dict), or
        ``None``."""
        return None

    def exposure_on_sheet(self, record: "Record") -> bool:
        """ADVISE: whether ``analyze`` works out the exposure of ``record`` for the sheet
        unasked (beside the analysis, where it is cheap); ``False`` where it costs several
        analyses (then only ``--exposure``)."""
        return True

    def on_turn(self, record: "Record", view: str | None) -> bool:
        """ADVISE: whether it is ``view``'s turn after ``record`` (the live hint)."""
        return False

    def advice_waits(self, record: "Record", view: str | None) -> str | None:
        """ADVISE: why the advisor has nothing to rank for ``view`` yet, or ``None``: the
        note of :meth:`table_notes` saying that the view's own hand is missing
        (``Note.hand_missing``); every figure would be over hands it does not hold.
        ``suggest``, ``play``'s hint and ``serve``'s say it instead of advice
        (:func:`solver.advice.waiting`)."""
        from solver.errors import SleuthError

        if view is None:
            return None
        try:
            notes = self.table_notes(record, view)
        except SleuthError:
            return None
        return next((n.text for n in notes if n.hand_missing), None)

    # ----- the table state, said plainly (every game) ------------------------------------
    def table_notes(self, record: "Record", view: str | None, analysis=None) -> list["Note"]:
        """Plain sentences about the table after ``record`` from ``view``: whose turn it
        is, an extra turn, setup statements the rules call for that are missing, the
        result of a finished game.  A note with a ``key`` is an alert that ``play`` shows
        once, when it first appears (``you can announce now: ...``).  ``analysis``: the
        game's analysis of the record from ``view``, when already computed."""
        return []

    # ----- replay and the live session (REPLAY) ------------------------------------------
    def knowledge(self, record: "Record", view: str | None,
                  budget: Budget = Budget()) -> Knowledge:
        """What ``view`` knows after ``record`` (raises the game's errors)."""
        raise NotImplementedError

    def certainties(self, record: "Record", view: str | None) -> Knowledge:
        """The first answer of an analysis (:mod:`solver.staged`): ``certain`` and ``safe``
        of :class:`Knowledge`, complete, and quick.  By default the whole of
        :meth:`knowledge` (a game whose analysis is quick); a game whose figures can take
        long gives its backbone alone (``uncertainty`` ``None``)."""
        return self.knowledge(record, view)

    def step_knowledge(self, record: "Record", view: str | None,
                       budget: Budget = Budget()) -> Knowledge:
        """REPLAY: :meth:`knowledge` as one prefix of a review needs it: ``certain``,
        ``uncertainty``, ``exact``, ``bound`` and ``safe`` the same; the ``summary`` may
        leave out figures that cost more than the rest (the most likely hidden hand).  By
        default the whole of :meth:`knowledge`."""
        return self.knowledge(record, view, budget)

    def views(self, record: "Record") -> list[str | None]:
        """Every view the record supports (players; the public view is added by replay)."""
        return [record.header.me] if record.header.me else []

    def view_supported(self, record: "Record", player: str) -> bool:
        """Whether ``player``'s own view can be reconstructed from the record."""
        return player == record.header.me

    def hoists_setup(self, record: "Record") -> bool:
        """Whether every step keeps all the setup statements (a complete record, where every
        hand is known to its holder from the start)."""
        return False

    def findings(self, record: "Record", view: str | None, steps: list,
                 specs: list[StepSpec]) -> list[Finding]:
        """The moments worth telling in one view's replay (``steps``: its
        :class:`solver.replay.Step` list)."""
        return []

    def checks(self, record: "Record", specs: list[StepSpec],
               knowledge_of: KnowledgeOf, first_safe: Callable[[str, Any], int | None]
               ) -> list[Finding]:
        """Moves that needed certainty (announcements, claims), checked from the mover's
        view: ``knowledge_of(player, step)``; ``first_safe(player, key)`` -> the first step
        whose ``Knowledge.safe`` has ``key`` in that player's replay (or ``None``)."""
        return []

    def truth(self, record: "Record") -> dict[str, str] | None:
        """Where every card is after a *complete* record (card -> location; several copies:
        locations joined by ``", "`` as in :attr:`Knowledge.certain`), or ``None`` when the
        record does not say (the conformance tests check every certainty against it)."""
        return None

    def vocabulary(self, record: "Record") -> Vocabulary:
        """Names, keywords, cards and ranges of the record's language (completion)."""
        from solver.cards import RANKS, SUITS

        k = self.keywords
        return Vocabulary(tuple(record.header.players), k.lead, k.verbs, k.words,
                          tuple(f"{r}{s}" for s in SUITS for r in RANKS), ())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


_LOADED: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The game registered as ``name`` (case-insensitive); ``NotationError`` otherwise."""
    key = (name or "").strip().lower()
    game = _LOADED.get(key)
    if game is not None:
        return game
    target = REGISTRY.get(key)
    if target is None:
        raise NotationError(_unknown_game(key), text=name)
    module, _, cls = target.partition(":")
    game = getattr(importlib.import_module(module), cls)()
    if game.name != key:  # pragma: no cover - a registration mistake
        raise RuntimeError(f"{target} registers as {key!r} but is named {game.name!r}")
    _LOADED[key] = game
    return game


def _unknown_game(key: str) -> str:
    """Why ``key`` names no game: a variant's name says whose (``rasmussen``: a variant of
    twenty-two), a near miss gets a "did you mean"."""
    import difflib

    msg = "unknown game; expected one of " + " | ".join(REGISTRY)
    if key:
        for name in REGISTRY:
            for spec in get_game(name).option_specs():
                if key in (spec.name, *spec.aliases):
                    return (f"{msg} ({key} is a variant of {name}: 'game: {name}' with "
                            f"'variant: {key}', or --variant {key})")
    close = difflib.get_close_matches(key, list(REGISTRY), n=1, cutoff=0.7)
    return f"{msg}; did you mean {close[0]}?" if close else msg


def games(capability: Capability | None = None) -> list[Game]:
    """Every registered game (in registry order), or those with ``capability``."""
    out = [get_game(n) for n in REGISTRY]
    return [g for g in out if capability is None or capability in g.capabilities]


def game_names(capability: Capability | None = None) -> list[str]:
    """The names of :func:`games` (all of them without loading a game)."""
    return list(REGISTRY) if capability is None else [g.name for g in games(capability)]
