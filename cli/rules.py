"""``sleuth rules`` and ``sleuth format``: the rules and the record format, from the files
that ship with the program (:mod:`solver.rulebook`)."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import click

from cli.main import cli, echo_sheet, handle_errors
from solver.errors import NotationError


def _rule_block(r, sub: str | None = None) -> str:
    from solver.games import get_game

    text = r.text.replace("**", "")
    head = f"{r.id} ({get_game(r.game).title}, {r.section})"
    if sub:
        picked = [ln.strip() for ln in text.splitlines()
                  if ln.strip().startswith((f"({sub})", f"- ({sub})"))]
        # a part written inline (MH-9: 'either (a) a range ...; or (b) a rank'): up to the
        # next part, or the end of its sentence
        picked = picked or [m.group(0).rstrip(" ;,") for m in re.finditer(
            rf"(?<![\w(-])\({sub}\)\s.*?(?=;?\s*(?:or\s+|and\s+)?\([a-z]\)\s|\.\s|\.?$)",
            " ".join(text.split()))][:1]
        if picked:
            head += f"\n  {r.id}({sub}): " + picked[0].lstrip("- ")
    return head + "\n" + "\n".join(wrap(text, "  "))


def wrap(text: str, indent: str, width: int = 79) -> list[str]:
    """Lines of ``text`` wrapped to ``width`` (tables and their rows are kept whole), the
    continuation of a wrapped line indented under its start."""
    import textwrap

    out: list[str] = []
    for ln in text.splitlines():
        lead = ln[: len(ln) - len(ln.lstrip())]
        if ln.lstrip().startswith("|") or len(indent + ln) <= width:
            out.append((indent + ln).rstrip())
            continue
        more = "  " if ln.lstrip().startswith(("- ", "(")) else ""
        out += textwrap.wrap(ln.strip(), width, initial_indent=indent + lead,
                             subsequent_indent=indent + lead + more + "  ",
                             break_on_hyphens=False)
    return out


def _with_parentheses(rule_id: str) -> str:
    """``LIT-6d`` -> ``LIT-6(d)``: a rule's lettered part typed without the parentheses
    that a shell wants quoted; any other text as it is."""
    m = re.fullmatch(r"\s*([A-Za-z]{1,3}-?[Vv]?\d+)([A-Za-z])\s*", rule_id)
    return f"{m.group(1)}({m.group(2).lower()})" if m else rule_id


def _game_of(word: str):
    """The game ``word`` names: its name, or the name of its rules file (``hand-rummy``)."""
    from solver.games import REGISTRY, games, get_game

    key = word.strip().lower()
    if key in REGISTRY:
        return get_game(key)
    return next((g for g in games() if g.rules == key), None)


def _rule_like(word: str) -> bool:
    """Whether ``word`` may be a rule number (``MH-7``, ``LIT-6d``, ``A3``, ``EX-A``)."""
    return bool(re.fullmatch(r"\s*[A-Za-z]{1,3}-?[A-Za-z]?\d*(?:\(?[a-zA-Z]\)?)?\s*", word)
                and re.search(r"\d|^\s*EX-", word, re.I))


def _not_a_game(word: str) -> NotationError:
    """The error for ``word``, neither a game nor a rule number: the games, and the one it
    begins (``mystery``) or nearly spells (``cluedo``)."""
    import difflib

    from solver.games import games

    key = word.strip().lower()
    names = [g.name for g in games()]
    near = [n for n in names if n.startswith(key)] if len(key) >= 3 else []
    near = near or difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    err = NotationError("expected a game (" + " | ".join(names) + ") or a rule number such "
                        "as MH-7", text=word)
    err.did_you_mean = [near[0]] if near else []
    return err


@cli.command()
@click.argument("what", nargs=-1, metavar="[GAME] [RULE]")
@handle_errors()
def rules(what):
    """The rules of the games, numbered as the messages cite them.

    \b
    Examples:
      sleuth rules
      sleuth rules mystery-hand
      sleuth rules MH-7
      sleuth rules 'LIT-6(d)'
      sleuth rules literature A3
    'sleuth rules A3' shows A3 of every game that has one (a worked example's number,
    EX-1, too); LIT-6d is LIT-6(d). The files are docs/rules/*.md.
    """
    from solver.games import games
    from solver.rulebook import game_rules, lookup, normalize

    if len(what) > 2:
        raise NotationError("expected at most a game and a rule number", text=" ".join(what))
    if not what:
        click.echo("Games (sleuth rules GAME lists a game's rules; sleuth rules MH-7 prints one):")
        for g in games():
            rs = game_rules(g.name)
            click.echo(f"  {g.name:<13} {g.title}: {len(rs)} rules "
                       f"({g.rule_prefix}-1 ...), docs/rules/{g.rules}.md")
        return
    game = _game_of(what[0])
    if game is not None and len(what) == 1:
        click.echo(f"{game.title} (docs/rules/{game.rules}.md); 'sleuth rules ID' prints one:")
        section = None
        for r in game_rules(game.name):
            if r.section != section:
                section = r.section
                click.echo(f"{section}")
            click.echo(f"  {r.title}")
        specs = game.option_specs()
        if specs:
            click.echo("Variant options ('variant: a, b=v' in the header; the default first):")
            for o in specs:
                echo_sheet(f"  {o.usage()} ({o.rule}): {o.help}")
        return
    if game is None and (len(what) == 2 or not _rule_like(what[0])):
        raise _not_a_game(what[0])
    rule_id = _with_parentheses(what[-1])
    found = lookup(rule_id, game.name if game else None)
    _key, sub = normalize(rule_id)
    if len(found) > 1:
        click.echo(f"{rule_id} is numbered in {len(found)} games "
                   "('sleuth rules GAME " + rule_id + "' for one):")
    click.echo("\n\n".join(_rule_block(r, sub) for r in found))


@cli.command(name="format")
@click.argument("game", required=False)
@handle_errors()
def format_(game):
    """The record format: the header, then one example of every statement of GAME.

    \b
    Examples:
      sleuth format mystery-hand
      sleuth format literature
    The whole format: docs/record-format.md.
    """
    from solver.games import games, get_game

    if game is None:
        click.echo("Which game? " + " | ".join(g.name for g in games())
                   + " (sleuth format GAME)")
        return
    g = get_game(game)
    click.echo(format_sheet(g))


def format_sheet(g) -> str:
    """The cheat-sheet of one game's records."""
    out = [f"{g.title} records (docs/record-format.md; rules: sleuth rules {g.name})", "",
           "Header (before the first statement; players in seating order; 'me:' = whose",
           "view, absent for a spectator; 'variant:' = comma-separated options):"]
    found = _example_table(g.name)
    refused: dict[str, str] = {}
    if found is not None:
        header, refused = found
        out += [f"  {ln}" for ln in header.lines()]
    else:
        out += [f"  game: {g.name}", "  players: Ana Ben Cleo Dev", "  me: Ana"]
        out += [f"  {key}: ..." for key in g.header_keys]
    if in_order_refusal(g.name) is None:
        out += ["", "Statements, one a line (# starts a comment); in this order they are one",
                "game's record:"]
    else:
        out += ["", "Statements, one a line (# starts a comment). Each line is an example on",
                "its own, not one game in order (some exclude others):"]
    out += [f"  {e}" + ("    # not under the header above" if e in refused else "")
            for e in g.examples]
    if g.variant_examples:
        out += ["", "Under a variant (its option on the 'variant:' line):"]
        out += [f"  {e}    (variant: {opt})" for opt, e in g.variant_examples]
    out += ["", "Keywords are case-insensitive; so are player names where unambiguous",
            "(the program writes a name as 'players:' does)."]
    return "\n".join(out)


def example_header(g):
    """The header ``sleuth format`` prints for ``g``: that of a bundled sample under which
    every example statement is accepted (:func:`example_refusals`); when none takes them
    all, the one that refuses the fewest (``format_sheet`` marks those); ``None`` if no
    sample of ``g`` reads."""
    found = _example_table(g.name)
    return found[0] if found else None


def example_refusals(g, record, examples=None) -> dict[str, str]:
    """The examples of ``g`` (or those of ``examples``) that no point of ``record`` (a
    bundled sample) takes, each with the refusal: an example is taken when the header,
    then a prefix of the sample's statements (none; up to where the example, or a statement
    it begins, or one of its kind, or by its actor, stands; all but the last; all), then
    possibly ``turn: P`` for the example's actor, the example listed before it, or the run of
    examples before it that begin with its first word (a scoresheet's round lines), then the
    example, is a record that reads and keeps the rules."""
    from solver.errors import SleuthError
    from solver.games import TurnIs, Unseen
    from solver.records import parse_record

    header = record.header
    head = header.lines()
    texts = [st.text for st in record.statements]
    refused: dict[str, str] = {}
    for e in g.examples if examples is None else examples:
        i = g.examples.index(e) if e in g.examples else 0
        try:
            ev = g.parse_event(e, header)
        except SleuthError as err:
            refused[e] = str(err)
            continue
        kind = type(ev)
        actor = ev.player if isinstance(ev, TurnIs | Unseen) else e.split(" ", 1)[0].rstrip(":")
        same = [k for k, st in enumerate(record.statements) if type(st.event) is kind]
        by_actor = [k for k, t in enumerate(texts) if t.split(" ", 1)[0].rstrip(":") == actor]
        same_text = [k for k, t in enumerate(texts) if t.startswith(e)]
        points = dict.fromkeys([0, *same_text[:1], *same[:3], *by_actor[:3],
                                max(len(texts) - 1, 0), len(texts)])
        leads: list[list[str]] = [[]]
        if actor in header.players and kind not in (TurnIs, Unseen):
            leads.append([f"turn: {actor}"])
        if i:
            leads.append([g.examples[i - 1]])
            j = i               # the examples just before it that begin with its first word
            while j and g.examples[j - 1].split(" ", 1)[0] == e.split(" ", 1)[0]:
                j -= 1
            if j < i - 1:
                leads.append(list(g.examples[j:i]))
        why = ""
        for k in points:
            for lead in leads:
                try:
                    parse_record("\n".join([*head, *texts[:k], *lead, e]) + "\n")
                except SleuthError as err:
                    why = why or str(err)
                    continue
                break
            else:
                continue
            break
        else:
            refused[e] = why
    return refused


@functools.lru_cache(maxsize=None)
def in_order_refusal(name: str) -> str | None:
    """Why the printed header, then the examples of game ``name`` in their order, is not a
    record that reads, keeps the rules and is consistent; ``None`` when it is one (the
    sheet then says the examples read as one game)."""
    from solver.errors import SleuthError
    from solver.games import get_game
    from solver.records import parse_record

    g = get_game(name)
    header = example_header(g)
    if header is None:
        return "no bundled sample reads"
    try:
        g.check(parse_record("\n".join([*header.lines(), *g.examples]) + "\n"))
    except SleuthError as err:
        return str(err)
    return None


@functools.lru_cache(maxsize=None)
def _example_table(name: str):
    """(the header, the refused examples) of the bundled samples of game ``name``: the first
    header (the demo's first, then the shortest sample's) under which the samples with that
    header take every example, else the one under which the fewest are refused; ``None``
    when no sample reads."""
    from cli.main import SAMPLES
    from solver.errors import SleuthError
    from solver.games import get_game
    from solver.records import read_record

    g = get_game(name)
    records = []
    for path in (SAMPLES / g.name).glob("*.txt"):
        try:
            records.append(read_record(str(path)))
        except SleuthError:
            continue
    records.sort(key=lambda r: (Path(r.path or "").name != g.demo, len(r.statements), r.path))
    by_header: dict[tuple[str, ...], list] = {}
    for rec in records:
        by_header.setdefault(tuple(rec.header.lines()), []).append(rec)
    best = None
    for recs in by_header.values():
        refused: dict[str, str] = dict.fromkeys(g.examples, "")
        for rec in recs:
            refused = example_refusals(g, rec, tuple(refused))
            if not refused:
                return rec.header, {}
        if best is None or len(refused) < len(best[1]):
            best = (recs[0].header, refused)
    return best
