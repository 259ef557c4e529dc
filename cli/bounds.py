"""The bounds a user sets on a command: ``--timeout`` (the wall-clock budget of each
analysis) and ``--samples``, declared once here and shared by every command that analyses.
The numbers live in :mod:`solver.model.budget` (light: no solver is imported at start-up);
what happens at the deadline is docs/reliability.md's "Time and memory".
"""
from __future__ import annotations

import contextlib
import functools

import click

from solver.model.budget import DEFAULT_TIMEOUT, MAX_SAMPLES, MAX_TIMEOUT


class Bounded(click.ParamType):
    """A number within ``[low, high]``; anything else is a usage error (exit 2) that quotes
    the value and says the range (also a number too large for a float or an int, which
    Click's own ranges would not always refuse cleanly)."""

    def __init__(self, kind: type, low, high, unit: str = ""):
        self.kind, self.low, self.high, self.unit = kind, low, high, unit
        self.name = "seconds" if kind is float else "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, self.kind) and not isinstance(value, bool):
            x = value
        else:
            try:
                x = self.kind(str(value).strip())
            except (ValueError, OverflowError):
                self.fail(f"{value!r} is not a{'' if self.kind is float else 'n'} "
                          f"{'number' if self.kind is float else 'integer'}", param, ctx)
        if not (self.low <= x <= self.high):      # (NaN fails both: refused too)
            self.fail(f"{value!r} is out of range: it must be between {self.low:g} and "
                      f"{self.high:g}{self.unit}", param, ctx)
        return x


def timeout_option(fn=None, *, report=None):
    """``--timeout SECONDS``: each analysis of the command stops after that much
    wall-clock time (default :data:`~solver.model.budget.DEFAULT_TIMEOUT`) with exit 4,
    saying what it had established (:class:`~solver.model.budget.TimeUp`).  Put it right
    above the command's function (below ``handle_errors``), so that the deadline covers
    the whole command and its errors are shown like every other.  ``report(e, kwargs)``:
    says what was established before the error line (``@timeout_option(report=...)``)."""
    if fn is None:
        return functools.partial(timeout_option, report=report)
    from solver.model.budget import TimeUp, within

    @functools.wraps(fn)
    def wrapper(*args, timeout=DEFAULT_TIMEOUT, **kwargs):
        with within(timeout):
            try:
                return fn(*args, **kwargs)
            except TimeUp as e:
                if report is not None:
                    report(e, kwargs)
                raise

    return click.option(
        "--timeout", type=Bounded(float, 0.1, MAX_TIMEOUT, " seconds"), default=DEFAULT_TIMEOUT,
        show_default=True, metavar="SECONDS",
        help="Stop each analysis after this many seconds (exit 4, saying what was "
        "established by then).")(wrapper)


def samples_option(help_text: str):
    """``--samples N``: draws of a sampled estimate, at most
    :data:`~solver.model.budget.MAX_SAMPLES` (memory grows with them)."""
    return click.option("--samples", type=Bounded(int, 50, MAX_SAMPLES), metavar="N",
                        help=f"{help_text} (50 to {MAX_SAMPLES}).")


@contextlib.contextmanager
def analysing(game: str, view: str | None):
    """A time-out inside says which game and view it was analysing (its JSON's ``game`` and
    ``view``), also when it came before the analysis had established anything."""
    from solver.model.budget import TimeUp

    try:
        yield
    except TimeUp as e:
        e.established.setdefault("game", game)
        e.established.setdefault("view", view)
        raise


def unfinished(e, kwargs: dict) -> None:
    """What ``analyze`` says when its time ran out (:class:`~solver.model.budget.TimeUp`
    ``e``): the certainties established before, as text or (``--json``) as the contract's
    JSON with the ``unfinished`` key (docs/reliability.md); the error line and exit 4
    follow."""
    from cli.main import emit_json

    got = e.established
    places = got.get("places")
    # "all": every card's places are exact; "some": the search for them was cut short
    # too, and only the cards it had settled are certain
    scope = got.get("certainties") if places is not None else None
    if kwargs.get("as_json"):
        out = {"game": got.get("game"), "view": got.get("view")}
        if places is not None:
            cards = {}
            for name, copies in sorted(places.items()):
                # "some": a card whose search was cut short is left out (its places not
                # ruled out are not known: shares of them would read as a card not certain
                # that may well be)
                if scope != "all" and any(len(locs) != 1 for locs in copies):
                    continue
                row: dict = {}
                for locs in copies:     # no estimate: an equal share of each possible place
                    for loc in locs:
                        row[loc] = row.get(loc, 0.0) + 1.0 / len(locs)
                cards[name] = dict(sorted(row.items()))
            out.update(consistent=True, exact=False, error=1.0, cards=cards)
        out["unfinished"] = {"seconds": e.seconds, "what": e.what,
                             "certainties": scope or "none"}
        emit_json(out)
        return
    if places is None:
        click.echo(f"nothing was established within {e.seconds:g} s.")
        return
    from solver.games import get_game

    who = "the public view" if got.get("view") is None else f"{got['view']}'s view"
    title = get_game(got["game"]).title
    by_place: dict[str, list[str]] = {}
    for name, copies in places.items():
        for locs in copies:
            if len(locs) == 1:
                by_place.setdefault(locs[0], []).append(name)
    if scope == "all":
        click.echo(f"{title}, {who}: the probabilities were not finished within "
                   f"{e.seconds:g} s; every certainty was:")
    else:
        click.echo(f"{title}, {who}: not finished within {e.seconds:g} s; the certainties "
                   "found by then (others may be missing):")
    if not by_place:
        click.echo("  no card's place is certain")
    for place, names in sorted(by_place.items()):
        click.echo(f"  {place}: " + " ".join(names))


def unchecked(e, kwargs: dict) -> None:
    """What ``log`` says when its time ran out: without ``--force`` the statement was
    being checked against the record, and nothing was written; with it, the statement was
    saved and only the check for the warning was cut short."""
    if kwargs.get("force"):
        click.echo("saved; whether the record now contradicts itself was not decided in "
                   "time ('sleuth analyze' says it)", err=True)
    else:
        click.echo("nothing was saved: the record is unchanged ('--force' saves a statement "
                   "without checking it against the record; '--timeout' allows more time)",
                   err=True)
