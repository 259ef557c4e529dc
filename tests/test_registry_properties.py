"""One property suite over the registry (as OpenSpiel's simulation test runs every game).

Every registered game that simulates is played at its fewest, a middle and its most players
(``Game.player_counts``), in its standard rules and in a seeded sample of the variants its
options declare (``Game.option_specs``: one option away from the standard, where the header
accepts it), as a complete record and, where the game writes lossy records
(``Game.lossy``), as a recorder who misses things would write it (``sleuth simulate
--miss``).  Over the replay steps of the record (a seeded sample when there are many: the
opening, two more and the end) and from every view the record supports (each player's and
the public one; each view at every other step, by turns):

* every statement round-trips: ``str(event)`` parses back to an equal event, and the
  written record reads back to the same events;
* the truth is never ruled out: a game that can check (CHECK) finds the prefix consistent,
  its analysis (ANALYZE) gives the true place of every card a chance above 0, and every
  certainty (REPLAY's ``Knowledge.certain``) is true (``Game.truth``, where the record
  tells it), and no two views are certain of different places;
* the estimates never contradict the certainties: a card certain at X has probability 1 at
  X and 0 elsewhere (with copies: the expected copies at each place); and as the truth has
  a chance above 0 wherever it is, a probability of 1 (every copy) is never false.

Which properties apply follows the capabilities a game declares, never its name.  The
cases with the most players, the variants and the lossy records are marked ``slow``
(``pytest -m "not slow"`` leaves them out for a quick run).
"""
from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from solver.errors import SleuthError
from solver.games import REGISTRY, Capability, get_game
from solver.records import Header, parse_record, write_record
from solver.replay import replay_views, steps

#: variants sampled per game beyond the standard rules, steps sampled per record
VARIANTS_PER_GAME = 3
STEPS_PER_RECORD = 4
MISS = 0.1
EVENTS = 50
#: lossy records are dear to analyse (every unseen event is a free choice): shorter
LOSSY_EVENTS = 30
PLAYERS = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")


def _counts(game) -> list[int]:
    c = sorted(game.player_counts)
    return sorted({c[0], c[len(c) // 2], c[-1]})


def _accepts(game, n: int, names: list[str]) -> bool:
    header = Header(game=game.name, players=PLAYERS[:n], variant=tuple(names))
    try:
        game.check_header(header)
        game.options(header).check()
    except SleuthError:
        return False
    return True


def _variants(game, n: int) -> list[tuple[str, ...]]:
    """A seeded sample of the variants one option away from the standard rules that the
    header of ``n`` players accepts."""
    header = Header(game=game.name, players=PLAYERS[:n])
    base = game.options(header)
    out = []
    for spec in game.option_specs():
        for value in spec.choices:
            if value == spec.default:
                continue
            try:
                names = dataclasses.replace(base, **{spec.field: value}).names()
            except (SleuthError, TypeError, ValueError):
                continue
            if _accepts(game, n, names):
                out.append(tuple(names))
    rng = random.Random(f"{game.name}-{n}")
    return rng.sample(out, min(VARIANTS_PER_GAME, len(out)))


def _cases():
    """Every player count of :func:`_counts` in the standard rules; the sampled variants at
    the middle count; a lossy record (where the game writes them) at the fewest.  The
    largest count, the variants and the lossy record are ``slow``."""
    for name in REGISTRY:
        game = get_game(name)
        if Capability.SIMULATE not in game.capabilities:
            continue
        counts = _counts(game)
        mid = counts[len(counts) // 2]
        runs = [(n, (), 0.0) for n in counts]
        runs += [(mid, v, 0.0) for v in _variants(game, mid)]
        if game.lossy:
            runs.append((counts[0], (), MISS))
        for n, variant, miss in runs:
            slow = (n == counts[-1] and len(counts) > 1) or bool(variant) or bool(miss)
            ident = f"{name}-{n}p-{','.join(variant) or 'standard'}" + (
                f"-miss{miss}" if miss else "")
            yield pytest.param(name, n, variant, miss, id=ident,
                               marks=[pytest.mark.slow] if slow else [])


CASES = list(_cases())

#: cases that find a bug not fixed yet (strict: remove the entry once it is fixed)
KNOWN_BUGS: dict[str, str] = {}


def _known(cases):
    out = []
    for p in cases:
        if p.id in KNOWN_BUGS:
            p = pytest.param(*p.values, id=p.id, marks=[*p.marks, pytest.mark.xfail(
                reason=KNOWN_BUGS[p.id], strict=True)])
        out.append(p)
    return out


def simulated(name: str, n: int, variant, miss: float, seed: int = 7):
    """A simulated record of ``name`` as the reader reads it back."""
    game = get_game(name)
    kw = {"miss": miss} if miss else {}
    rec = game.simulate(n, list(variant), seed, LOSSY_EVENTS if miss else EVENTS, **kw)
    return parse_record(write_record(rec))


def _sampled_steps(rec, seed: str):
    specs = steps(rec)
    if len(specs) <= STEPS_PER_RECORD:
        return specs
    rng = random.Random(seed)
    inner = sorted(rng.sample(range(1, len(specs) - 1), STEPS_PER_RECORD - 2))
    return [specs[0]] + [specs[i] for i in inner] + [specs[-1]]


def _places(text: str) -> list[str]:
    """``"Ana"`` or ``"stock, table"`` (one place per copy) -> the places."""
    return [p.strip() for p in text.split(",")]


def certainty_is_true(certain: str, truth: str) -> bool:
    """A certainty names the place of every copy (``"table, table"``) or one place for all
    of them (``"out"``)."""
    c, t = _places(certain), _places(truth)
    return Counter(c) == Counter(t) if len(c) == len(t) else len(set(c)) == 1 and set(t) == set(c)


def estimate_agrees(certain: str, probs: dict[str, float]) -> bool:
    """The probabilities of a card certain at ``certain``: above 0 only at its places, and
    with one place per copy, the copies there."""
    c = _places(certain)
    held = {loc: p for loc, p in probs.items() if p > 0}
    if set(held) != set(c):
        return False
    copies = round(sum(held.values()))
    if len(c) == copies:
        return all(abs(held[loc] - k) < 1e-9 for loc, k in Counter(c).items())
    return True


# ----- str(event) / parse round-trips -------------------------------------------------------
@pytest.mark.parametrize("name,n,variant,miss", CASES)
def test_statements_round_trip(name, n, variant, miss):
    game = get_game(name)
    kw = {"miss": miss} if miss else {}
    rec = game.simulate(n, list(variant), 7, LOSSY_EVENTS if miss else EVENTS, **kw)
    text = write_record(rec)
    again = parse_record(text)
    # the reader writes option values in lower case ('removed-rank=a'): the same options
    assert dataclasses.replace(again.header, variant=()) == dataclasses.replace(rec.header,
                                                                                variant=())
    assert game.options(again.header) == game.options(rec.header)
    assert [s.event for s in again.statements] == [s.event for s in rec.statements]
    if not variant:
        assert write_record(again) == text
    assert write_record(parse_record(write_record(again))) == write_record(again)
    for i, st in enumerate(again.statements):
        ev = game.parse_statement(str(st.event), again.header, again.statements[:i])
        assert ev == st.event, (st.line, st.text, str(st.event))
        assert str(ev) == st.text, (st.line, st.text)


# ----- the truth, the certainties and the estimates, at every step from every view ----------
def check_step(game, record, view, known: dict[str, str]) -> None:
    """The properties at one prefix from one view; ``known``: the certainties of the views
    already checked at this prefix (updated)."""
    truth = game.truth(record)
    certain = {}
    if Capability.REPLAY in game.capabilities:
        certain = game.knowledge(record, view).certain
        if truth is not None:
            wrong = {c: (at, truth.get(c)) for c, at in certain.items()
                     if c not in truth or not certainty_is_true(at, truth[c])}
            assert not wrong, f"certainties that are false: {wrong}"
        clash = {c: (at, known[c]) for c, at in certain.items()
                 if c in known and set(_places(at)) != set(_places(known[c]))}
        assert not clash, f"views certain of different places: {clash}"
        known.update(certain)
    if Capability.ANALYZE in game.capabilities:
        a = game.analyze(record, view).to_json()
        assert a["consistent"] is True
        cards = a["cards"]
        off = {c: (at, cards.get(c)) for c, at in certain.items()
               if not estimate_agrees(at, cards.get(c, {}))}
        assert not off, f"estimates that contradict certainties: {off}"
        if truth is not None:
            for c, probs in cards.items():
                real = Counter(_places(truth[c])) if c in truth else Counter()
                ruled_out = [loc for loc in real if probs.get(loc, 0) <= 0]
                assert not ruled_out, f"{c} is at {truth.get(c)}, the analysis says {probs}"


@pytest.mark.parametrize("name,n,variant,miss", _known(CASES))
def test_truth_certainties_and_estimates_at_every_step(name, n, variant, miss):
    game = get_game(name)
    rec = simulated(name, n, variant, miss)
    checked: set = set()
    specs = _sampled_steps(rec, f"{name}-{n}-{variant}-{miss}")
    for j, spec in enumerate(specs):
        prefix = spec.record
        if Capability.CHECK in game.capabilities:
            game.check(prefix)                     # the true course of play fits
        known: dict[str, str] = {}
        views = replay_views(prefix)
        # every other view at each step, by turns, and at the last step every view not
        # checked yet
        last = j == len(specs) - 1
        for i, view in enumerate(views):
            if (i + j) % 2 == 0 or (last and view not in checked):
                check_step(game, prefix, view, known)
                checked.add(view)
    assert checked == set(replay_views(rec)), "every view of the record is checked"
    if not miss:
        assert game.truth(rec) is not None or Capability.REPLAY not in game.capabilities \
            or not _tells_truth(game), "a complete simulated record tells the truth"


def _tells_truth(game) -> bool:
    """Whether the game gives ``truth`` at all (it overrides the interface's ``None``)."""
    from solver.games import Game

    return type(game).truth is not Game.truth
