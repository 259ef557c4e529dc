"""What the page of ``sleuth serve`` shows, as plain data for its templates.

Nothing here decides a rule: the figures come from the game's analysis
(``Session.analyze``), the notes and alerts from ``Game.table_notes``, the hint from
``Session.hint``, the choices for tap entry from the record's vocabulary
(:func:`solver.session.vocabulary`).  This module only turns them into cells, labels and
sentences (the same wording as the terminal's sheets, ``cli/<package>.py``), and names no
game: a game's own page pieces are the functions of its module ``web/<package>.py``
(:func:`pieces`), each named for its role (:data:`ROLES`), and only those it needs; where
a game has none, the page does without (or shows the terminal's sheet):

* ``sheet(analysis, view) -> dict``: the sheet as a grid (``kind`` ``"grid"``: ``heads``,
  ``rows`` of cells) or as half-suits (``"halves"``), each cell with its accessible name;
  ``extras(analysis, view) -> dict``: the verdict, the precision, the candidates (its
  ``alerts`` join the page's); ``stage_analysis(session, record, first)``: stage 1 of the
  analysis standing in for it in ``sheet`` (a :class:`StageOne`);
* ``turn(record)``: whose turn the page's ``Turn:`` line names, where the game says it
  but keeps its tap entry without an implied actor (else ``current_player``'s player);
* for the tap entry, from the game's state: ``still_in(record)`` (the players still
  asked and answering), ``current_player(record)`` (who is on turn, and who else may
  act), ``actors(record)`` (the players who make statements), ``range_cards(record,
  ranges)`` (each range's cards), ``asks(record, view, held)`` (whom each player may ask
  for which cards), ``card_groups(record)`` (the cards by kind), ``refutes_all(record)``
  (every other player answers a suggestion), ``lead_data(record)`` (what follows a lead
  keyword that the vocabulary gives no slots).

A piece of the tap entry or of the sheet of stage 1 that raises a
:class:`~solver.errors.SleuthError` (a record its engine cannot replay) gives way to the
default, as for a game without it."""
from __future__ import annotations

from typing import Any

from cli.main import percent_cell
from solver.errors import InconsistentError, SleuthError
from solver.session import pair_lines, undo_lines


def chance_cell(card: str, p: float, place: str) -> tuple[str, str, str]:
    """A sheet cell where the card is not certain: its text, accessible name and kind, the
    chance that ``card`` is in ``place``.

    >>> chance_cell("9S", 0.12, "mystery"), chance_cell("AD", 0.0, "mystery")
    (('12%', '9S: 12% mystery', 'chance'), ('·', 'AD: not mystery', 'no'))
    """
    if p <= 0:
        return "·", f"{card}: not {place}", "no"
    text = percent_cell(p)
    return text, f"{card}: {text} {place}", "chance"


def working_cell(card: str) -> tuple[str, str, str]:
    """A sheet cell of a card not certain yet while the figures are worked on (the sheet
    of stage 1, :func:`stage_sheet`): its text, accessible name and kind.

    >>> working_cell("9S")
    ('working', '9S: working', 'working')
    """
    return "working", f"{card}: working", "working"


def place_name(loc: str, target: str = "mystery") -> str:
    """A location as a person reads it: a player's name, ``mystery``, ``face up``...

    >>> place_name("faceup"), place_name("mystery"), place_name("mystery:Ana"), place_name("Ben")
    ('face up', 'mystery', "Ana's mystery hand", 'Ben')
    """
    if loc == target or loc == "mystery":
        return "mystery"
    if loc.startswith("mystery:"):
        return f"{loc[8:]}'s mystery hand"
    if loc == "faceup":
        return "face up"
    return loc


class StageOne:
    """Stage 1 of the analysis (:class:`solver.staged.Certainties`) standing in for the
    analysis in the sheet functions (:func:`stage_sheet`): where each certain card is;
    no figures (``cards`` is ``None``: those cells say "working"); the rest (``target``,
    ``locations``, ``table``...) is the record's structure, which needs no analysis."""

    cards = None

    def __init__(self, first, **structure: Any):
        self.places = dict(first.certain)
        self.__dict__.update(structure)

    def certain(self, card: str) -> str | None:
        return self.places.get(card)

    def certain_dist(self, card: str) -> dict[str, float] | None:
        """A certain card's places as the analysis gives them (the places of a card dealt
        in several copies joined by ", "; out of play: none); ``None`` when not certain
        yet."""
        where = self.places.get(card)
        if where is None:
            return None
        return {} if where == "out" else {w: 1.0 for w in where.split(", ")}


def pieces(game: str):
    """The page pieces of the game called ``game``: its module ``web/<package>.py``, found
    as its terminal side ``cli/<package>.py`` is (:func:`cli.main.game_cli`); ``None`` if
    it has none.  Each piece is a function of one role, named for it (:data:`ROLES`); a
    game gives only those it needs."""
    from cli.main import game_cli
    from solver.games import get_game

    return game_cli(get_game(game), "web")


#: the roles of a game's page pieces (``web/<package>.py``): the name of each function and
#: what it takes (the module doc says what each returns)
ROLES: dict[str, tuple[str, ...]] = {
    "sheet": ("analysis", "view"), "extras": ("analysis", "view"),
    "stage_analysis": ("session", "record", "first"), "turn": ("record",),
    "still_in": ("record",), "current_player": ("record",), "actors": ("record",),
    "range_cards": ("record", "ranges"), "asks": ("record", "view", "held"),
    "card_groups": ("record",), "refutes_all": ("record",), "lead_data": ("record",),
}


def piece(game: str, role: str):
    """The function of ``role`` (one of :data:`ROLES`) of the game called ``game``
    (:func:`pieces`), ``None`` where the game has none."""
    if role not in ROLES:       # a misspelt role would fall back without a word
        raise KeyError(role)
    mod = pieces(game)
    return getattr(mod, role, None) if mod is not None else None


def by_game(record, role: str, default: Any, *args: Any) -> Any:
    """The game's piece of ``role`` on ``record`` (and ``args``), or ``default`` where the
    game has none or the record cannot be played (a :class:`SleuthError`: the taps then
    offer what the grammar allows)."""
    fn = piece(record.game, role)
    if fn is None:
        return default
    try:
        return fn(record, *args)
    except SleuthError:
        return default


def stage_sheet(session, record, first) -> dict | None:
    """The sheet of stage 1 (``first``, a :class:`~solver.staged.Certainties`): the game's
    own sheet (its ``sheet`` piece) on its ``stage_analysis`` of ``first``, with the
    certain cards as the full sheet words them and every other cell "working", marked
    ``provisional``; ``None`` for a game without a grid."""
    make, sheet = piece(record.game, "stage_analysis"), piece(record.game, "sheet")
    if make is None or sheet is None:
        return None
    try:
        out = sheet(make(session, record, first), session.view)
    except SleuthError:
        return None
    out["provisional"] = True
    return out


def still_in(record) -> list[str]:
    """The players still asked and answering (a game's ``still_in``: those not out of
    the game); every player where the game does not say."""
    got = by_game(record, "still_in", None)
    return list(record.header.players) if got is None else got


def current_player(record) -> tuple[str | None, list[str]]:
    """Who is on turn after ``record`` (the game's own turn order) and who else may act now
    (an extra turn); ``(None, [])`` where the game does not say."""
    return by_game(record, "current_player", (None, []))


def turn_of(record) -> str | None:
    """The player the page's ``Turn:`` line names after ``record``: the game's ``turn``
    piece where it has one (the turn its sheet gives, with no actor implied in the tap
    entry), else who is on turn for the tap entry (:func:`current_player`); ``None`` where
    the game does not say (nobody is on turn, the game is over)."""
    if piece(record.game, "turn") is not None:
        return by_game(record, "turn", None)
    return current_player(record)[0]


def actors(record) -> list[str]:
    """The players who make statements (every player where the game does not say)."""
    got = by_game(record, "actors", None)
    return list(record.header.players) if got is None else got


def range_cards(record, ranges) -> dict[str, list[str]]:
    """The cards of every range, rank set or half-suit of the vocabulary (for the answer
    choices: the cards shown from that range)."""
    return by_game(record, "range_cards", {}, ranges)


def card_groups(record) -> list[list[str]]:
    """The cards by kind (a game's suspects, weapons, rooms), for the tap entry of a
    suggestion; none where the game has no such entry."""
    return by_game(record, "card_groups", [])


def refutes_all(record) -> bool:
    """Whether every other player answers a suggestion (a game's variant)."""
    return by_game(record, "refutes_all", False)


def entry_data(session, held: dict[str, list[str]] | None = None,
               possible: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """What the page's tap entry offers: the vocabulary of the record (names, keywords,
    cards, ranges, and what follows each keyword), who is on turn, each range's cards, the
    cards each player certainly holds (``held``: the likely answers to a question) and the
    places each card not certain may be at (``possible``: a player certainly without a
    card is not offered as showing it)."""
    v = session.vocabulary()
    rec = session.record
    turn, may = current_player(rec)
    return {"game": rec.game, "view": session.view, "names": list(v.names),
            "active": still_in(rec), "held": held or {}, "possible": possible or {},
            "lead": list(v.lead), "verbs": list(v.verbs), "words": list(v.words),
            "cards": list(v.cards), "ranges": list(v.ranges),
            "follows": [[k, [list(s) for s in slots], list(ans)] for k, slots, ans in v.follows],
            "turn": turn, "may_act": may, "range_cards": range_cards(rec, v.ranges),
            "groups": card_groups(rec), "refute_all": refutes_all(rec),
            "worded": worded(session.game, v.follows), "leads": lead_data(rec),
            "asks": by_game(rec, "asks", {}, session.view, held or {})}


def lead_data(record) -> dict[str, Any]:
    """What the tap entry offers after a lead keyword that the vocabulary gives no slots
    (its numbers and names come from the game's state, its ``lead_data``: the next hour
    or round, the groups not numbered yet, the next play to a trick...).  Empty where the
    game has none or the record cannot be replayed (the taps then offer what the grammar
    allows)."""
    return by_game(record, "lead_data", {})


def entry_after(session, statement: str) -> dict[str, Any]:
    """What the tap entry needs after ``statement`` is added to the session's record
    (nothing saved): ``leads`` (:func:`lead_data`), ``turn`` and ``may_act``
    (:func:`current_player`).  The page asks for it while a statement it sent is still
    being checked, so that its taps offer the player on turn after that statement, not
    before it.  ``statement`` may be several lines (statements queued one after another).
    Empty leads and no turn where the record with it does not parse or replay."""
    from solver.records import parse_record
    from solver.session import appended

    try:
        rec = parse_record(appended(session.text, statement), session.record.path)
    except SleuthError:
        return {"leads": {}, "turn": None, "may_act": []}
    turn, may = current_player(rec)
    return {"leads": lead_data(rec), "turn": turn, "may_act": list(may)}


def worded(game, follows) -> list[str]:
    """The keywords of one free slot that a word follows before any colon, by the game's
    own examples ("Ben deals 7", "Cleo exchanges 1: ..."): the tap entry
    offers that word first.  The other keywords of one free slot take the colon at once
    ("Ana holds: ...", "faceup: ...")."""
    def word_after(k: str, example: str) -> bool:       # k as a lead word or a verb
        w = [x.lower() for x in example.split()]
        return any(i < len(w) - 1 and w[i] == k for i in (0, 1))

    return [k for k, slots, _ in follows if len(slots) == 1 and not slots[0]
            and any(word_after(k, e) for e in game.examples)]


def first_stage(session, record=None) -> Any:
    """Stage 1 of the analysis of ``record`` (default: the session's) from the session's
    view (:func:`solver.staged.certainties`: the certainties and the alerts that need no
    figures): a :class:`~solver.staged.Certainties`, the conflict's sentence when no deal
    fits the record, or ``None`` when the game has no analysis, the analysis was cancelled
    (a newer version) or failed otherwise (the full analysis then says why).  Run it
    within a deadline (:func:`solver.model.budget.within`): stage 1 takes a part of it."""
    from solver.games import Capability
    from solver.model.budget import TimeUp
    from solver.staged import certainties

    if Capability.ANALYZE not in session.game.capabilities:
        return None
    rec = record if record is not None else session.record
    try:
        return certainties(session.game, rec, session.view)
    except TimeUp:
        return None
    except InconsistentError as e:
        return inconsistent_text(e)
    except SleuthError:
        return None


def inconsistent_text(e: InconsistentError) -> str:
    """The page's sentence for a record no deal fits: the conflict, and the way out."""
    from cli.main import conflict_text

    return "inconsistent: " + conflict_text(e).replace("\n", " ") + \
        " ('Undo' removes the last statement.)"


def certain_line(certain) -> str | None:
    """Certain cards as one line ("2S: Ana; 9H: mystery"), ``None`` if none."""
    parts = [f"{card}: {place_name(where)}" for card, where in sorted(dict(certain).items())]
    return "; ".join(parts) if parts else None


def live(session, whatif: str | None = None, quick: bool = False,
         known=None, first=None) -> dict[str, Any]:
    """Everything the live part of the page shows for the session's record now (or, with
    ``whatif``, for the record with that statement added, not saved).  ``quick``: what needs
    no analysis (the turn, the lines, the notes), marked ``pending``.  The advisor's hint
    is not here: it comes apart (``GET /hint``), as it can take long.  ``known``: the
    outcome of ``whatif`` when already computed.  ``first``: with ``quick``, stage 1 of
    the analysis (:func:`first_stage`), shown while the figures are worked on: its
    certainties (``certain``, ``certain_so_far``), alerts and notes; ``stage`` says which
    answer this is (``"none"``, ``"certainties"``, ``"figures"``)."""
    from solver.games import Capability

    from solver.records import text_version

    rec = session.record
    game = session.game
    view = session.view
    out: dict[str, Any] = {
        "title": game.title or rec.game, "game": rec.game, "view": view or "public",
        "version": text_version(session.text), "whatif": None, "whatif_error": None,
        "pending": quick, "held": {}, "possible": {}, "certain_so_far": None,
        "stage": "none", "certain": {}, "certain_complete": None,
        "alerts": [], "notes": [], "hint": None, "sheet": None, "text_sheet": None,
        "extras": {"verdict": None, "precision": None, "estimate": False}, "error": None, "turn": None, "lines": [],
        "has_advice": Capability.ADVISE in game.capabilities and view is not None,
    }
    raw = session.text.splitlines()
    out["lines"] = [{"line": st.line, "text": st.text,
                     "shown": raw[st.line - 1].strip() if st.line <= len(raw) else st.text}
                    for st in rec.statements]
    out["turn"] = turn_of(rec)
    target = rec
    if whatif is not None:
        o = known if known is not None else session.whatif(whatif)     # known: just computed
        if o.kind != "whatif":
            out["whatif_error"] = _error_text(o)
        else:
            target = o.record
            out["turn"] = turn_of(target)
            out["whatif"] = whatif
            out["new_certain"] = ", ".join(f"{c}: {l}" for c, l in sorted(o.new_certain.items()))
    analysis = None
    if quick:
        if isinstance(first, str):          # stage 1 found the record inconsistent
            out["error"], out["pending"] = first, False
        if first is not None and not isinstance(first, str):
            out["stage"], out["certain"] = "certainties", dict(first.certain)
            out["certain_complete"] = first.complete
            out["certain_so_far"] = certain_line(first.certain)
            if whatif is None:
                out["sheet"] = stage_sheet(session, rec, first)
            out["alerts"] += first.alerts
            out["notes"] += [n.text for n in first.notes if not n.strong]
        else:
            notes = _notes(game, target, view, None)
            out["alerts"] += [n.text for n in notes if n.strong]
            out["notes"] += [n.text for n in notes if not n.strong]
        return out
    try:
        analysis = session.analyze(target)
    except InconsistentError as e:
        out["error"] = inconsistent_text(e)
    except SleuthError as e:
        out["error"] = f"no analysis: {e}"
        out["certain_so_far"] = established(e)
    if analysis is not None:
        out["stage"] = "figures"
    if analysis is not None and whatif is None:
        for card, places in getattr(analysis, "possible", {}).items():
            if len(places) == 1:
                out["held"].setdefault(next(iter(places)), []).append(card)
            else:
                out["possible"][card] = sorted(places)
    if analysis is not None:
        sheet, extras = piece(rec.game, "sheet"), piece(rec.game, "extras")
        if sheet is not None:
            out["sheet"] = sheet(analysis, view)
        else:                               # the terminal's sheet, as text
            from cli.session import render_analysis

            out["text_sheet"] = render_analysis(analysis, rec.game)
        if extras is not None:
            out["extras"] = extras(analysis, view)
            out["alerts"] += out["extras"].get("alerts", [])
    for n in _notes(game, target, view, analysis):
        (out["alerts"] if n.strong else out["notes"]).append(n.text)
    return out


def established(e: Any) -> str | None:
    """What an analysis had established (``TimeUp.established``, or a running deadline's):
    the cards whose place was certain, as one line; ``None`` if nothing."""
    from solver.staged import certain_of

    got = getattr(e, "established", None) or {}
    places = got.get("places")
    if not places:
        return None
    return certain_line(certain_of(places, got.get("joined", True)))


def _notes(game, record, view, analysis) -> list:
    """The game's notes on the table (whose turn, what is missing, the alerts)."""
    try:
        return list(game.table_notes(record, view, analysis))
    except SleuthError:
        return []


def _error_text(o) -> str:
    """A refused outcome's error as one sentence (the conflict's sentence for a
    contradiction)."""
    from cli.main import conflict_text, rule_hint

    e = o.error
    if e is None:
        return o.message or "refused"
    if isinstance(e, InconsistentError):
        return conflict_text(e).split("\n")[0] + rule_hint(e)
    return str(e) + rule_hint(e)


def stale_text(line: str) -> str:
    """The page's sentence for a change refused because the record moved on since the page
    showed it (:class:`~solver.errors.StaleError`): what happened, and what the page does
    (it shows the record as it is now; a statement stays in the box: nothing is lost).

    >>> print(stale_text("undo"))
    refused: not saved: the record changed since this page showed it (another device, \
'sleuth log' or an editor saved it); the page now shows it as it is: Undo was not done, \
tap it again if the last line is still the one to take back
    """
    word = line.split(" ", 1)[0].lower()
    if word in ("undo", "redo"):
        then = f"{word.capitalize()} was not done, tap it again if the last line is still " \
            f"the one to {'take back' if word == 'undo' else 'put back'}"
    elif word == "delete":
        then = f"line {line[7:].strip()} was not deleted, check the Lines and delete again"
    else:
        then = f"'{line}' is still in the Statement box, check it and log it again"
    return ("refused: not saved: the record changed since this page showed it (another "
            "device, 'sleuth log' or an editor saved it); the page now shows it as it is: "
            + then)


def same_line(session, statement: str, since: int | None, last: int = 5) -> int | None:
    """The line of one of the record's statements added since the page showed its first
    ``since`` statements (at most the ``last`` of them) that says ``statement`` (as the
    program writes both), else ``None`` (also when ``since`` is not known): a change refused
    as stale because another device logged the same statement first (two phones, one
    table) is then said to be there, not left to be logged a second time.  A line the page
    had already shown is not another device's: the same statement again is a new one."""
    from solver.games import get_game
    from solver.records import strip_comment

    if since is None:
        return None
    rec = session.record
    text = strip_comment(statement.strip())[0].strip()
    if not text or text.split(" ", 1)[0].lower() in ("undo", "redo", "delete", "edit"):
        return None
    try:
        said = str(get_game(rec.game).parse_event(text, rec.header))
    except (SleuthError, ValueError):
        return None
    added = rec.statements[since:][-last:]
    return next((st.line for st in reversed(added) if str(st.event) == said), None)


def same_text(line: int) -> str:
    """The status of a statement not logged because another device logged it first."""
    return (f"not saved: another device logged this same statement first (line {line}); "
            "log it again only if it happened twice")


def outcome(o, session, since: int | None = None) -> dict[str, Any]:
    """One action's result for the page: its kind, the sentence for the status region,
    the corrections to offer (did-you-mean), the conflicting lines, a why's text.
    ``since``: how many statements the page had when its statement was typed (a stale
    one's :func:`same_line`)."""
    k = o.kind
    d: dict[str, Any] = {"kind": k, "saved": o.saved, "fixes": [], "conflict": [],
                         "why": None, "whatif": None}
    if k == "accepted":
        where = pair_lines(o.first, o.line) if o.first and o.line else f"line {o.line}"
        status = f"logged {where}: {o.statement}" + (" (forced)" if o.forced else "")
        if o.message:                   # a held statement left a comment line: said
            status += f"; {o.message}"
    elif k == "refused":
        why = _error_text(o)
        if o.message and o.error is not None and o.message not in why:
            why = f"{o.message}: {why}"     # the context: "the file on disk no longer parses"
        status = ("what if refused: " if o.hypothetical else "refused: ") + why
        d["fixes"] = list(getattr(o.error, "did_you_mean", None) or [])
        d["conflict"] = [{"line": ln, "text": t} for ln, t in o.conflict]
        from solver.errors import StaleError

        d["stale"] = isinstance(o.error, StaleError)
        if d["stale"]:
            d["same_line"] = same_line(session, o.statement or "", since)
            status = stale_text(o.statement or "") if d["same_line"] is None \
                else "refused: " + same_text(d["same_line"])
    elif k == "pending":
        status = f"held: {o.error}. {o.message}" if o.error is not None else f"held: {o.message}"
    elif k in ("undone", "redone"):
        status = "; ".join(undo_lines(o))
    elif k == "edited":
        status = f"line {o.line} is now: {o.statement}"
    elif k == "deleted":
        was = o.removed[0][1] if o.removed else ""
        status = f"deleted line {o.line}: {was} (the lines after it move up one)"
    elif k == "whatif":
        status = f"what if: {o.statement} (hypothetical, not saved)"
        d["whatif"] = o.statement
    elif k == "why":
        from cli.commands import render_explanation

        d["why"] = render_explanation(o.explanation)
        status = f"why {o.statement}"
    elif k == "noted":
        status = f"noted: {o.statement}"
    elif k == "suggest":
        from cli.advise import render_advice

        d["why"] = render_advice(o.advice)
        status = "advice"
    elif k == "help":
        d["why"] = o.message
        status = "help"
    elif k == "empty":
        status = "nothing to log: the Statement box is empty"
    else:
        status = k
    if o.reloaded and not d.get("stale"):
        status += " (the record had changed on disk: the page read it again first)"
    d["status"] = status
    return d
