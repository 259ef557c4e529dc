"""Mysterium deduction (D1, D2, D3, D5): exact probabilities against brute-force
enumeration, forced cards, conflicts, views and explanations."""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import InconsistentError, RuleError
from solver.mysterium import GAME
from solver.mysterium.inference import count_injections
from solver.mysterium.events import Guess, Reveal, Secret
from solver.mysterium.options import KINDS
from solver.records import parse_record, read_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "mysterium"


# ----- a reference written independently of solver.mysterium.inference ----------------------
def observations(record, view):
    """(psychic, kind, card, is_theirs) from the statements themselves."""
    ghost = record.header.get("ghost") or record.header.players[0]
    obs, pending = [], {}
    for s in record.statements:
        ev = s.event
        if isinstance(ev, Guess):
            if ev.right is None:
                pending[ev.psychic] = ev
            else:
                obs.append((ev.psychic, ev.kind, ev.card, ev.right))
        elif isinstance(ev, Reveal):
            g = pending.pop(ev.psychic)
            obs.append((g.psychic, g.kind, g.card, ev.right))
        elif isinstance(ev, Secret) and view == ghost:
            obs += [(ev.psychic, k, c, True) for k, c in ev.cards]
    return obs


def brute_force(record, view):
    """Per kind: enumerate every deal of the table cards to the psychics (MY-5) and keep
    those agreeing with every observation; marginals as exact fractions."""
    a = GAME.analyze(record, view)
    psychics = a.roster.psychics
    table = a.play.table
    obs = observations(record, view)
    out = {}
    for kind in KINDS:
        good = []
        for deal in itertools.permutations(table[kind], len(psychics)):
            mine = dict(zip(psychics, deal))
            if all((mine[p] == c) == right for p, k, c, right in obs if k == kind):
                good.append(mine)
        out[kind] = {p: {c: Fraction(sum(d[p] == c for d in good), len(good))
                         for c in table[kind] if any(d[p] == c for d in good)}
                     for p in psychics}
        out[kind]["#"] = len(good)
    return out


def assert_matches_brute_force(record, view):
    a = GAME.analyze(record, view)
    ref = brute_force(record, view)
    for kind in KINDS:
        res = a.deduction.kinds[kind]
        assert res.total == ref[kind]["#"]
        for p in a.roster.psychics:
            assert res.distribution(p) == ref[kind][p], (kind, p)
    js = a.to_json()
    for kind in KINDS:
        for c in a.play.table[kind]:
            probs = js["cards"][f"{kind} {c}"]
            assert abs(sum(probs.values()) - 1) < 1e-9
            for p in a.roster.psychics:
                assert probs.get(p, 0) == pytest.approx(float(ref[kind][p].get(c, 0)))


def test_count_injections_small_cases():
    assert count_injections((1, 2), [{1, 2}, {1, 2}]) == (2, [{1: 1, 2: 1}, {1: 1, 2: 1}])
    assert count_injections((1, 2, 3), [{1}, {1}])[0] == 0   # Hall: 2 psychics, 1 card
    assert count_injections((1, 2, 3), [set(), {1}])[0] == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(n, 9).flatmap(lambda m: st.tuples(
        st.just(m), st.lists(st.sets(st.integers(0, m - 1)), min_size=n, max_size=n))))))
def test_count_injections_against_enumeration(case):
    n, (m, allowed) = case
    cards = tuple(range(m))
    total, marg = count_injections(cards, allowed)
    good = [d for d in itertools.permutations(cards, n)
            if all(d[i] in allowed[i] for i in range(n))]
    assert total == len(good)
    for i in range(n):
        assert marg[i] == {c: k for c in cards
                           if (k := sum(d[i] == c for d in good))}


@pytest.mark.parametrize("players,seed,cut", [(2, 1, 9), (3, 2, 20), (4, 3, 25), (5, 4, 30),
                                              (6, 5, 40), (7, 6, 35), (7, 8, 60)])
def test_simulated_records_against_brute_force(players, seed, cut):
    rec = GAME.simulate(players, ["hard"], seed, cut)
    for view in (None, "Gus"):
        assert_matches_brute_force(rec, view)


@pytest.mark.parametrize("name", ["five-players-won.txt", "six-players-tie-break.txt",
                                  "three-players-lost.txt"])
def test_sample_prefixes_against_brute_force(name):
    rec = read_record(str(SAMPLES / name))
    views = (None, rec.header.me) if rec.header.me else (None,)
    for n in list(range(3, len(rec.statements), 7)) + [len(rec.statements)]:
        for view in views:
            assert_matches_brute_force(rec.prefix(n), view)


FORCED = """game: mysterium
variant: easy
players: Gus Ana Ben Cleo
me: Ana
table character: 2 5 7 11 14
table location: 1 3 6 9 12
table object: 4 8 10 13 16
hour 1
Ana guesses character 2: wrong
Ben guesses character 5: wrong
Cleo guesses character 2: wrong  # line 10
hour 2
Ana guesses character 5: wrong
Ben guesses character 7: wrong
Cleo guesses character 5: wrong  # line 14
hour 3
Ana guesses character 7: wrong
Ben guesses character 2: wrong
"""


def test_all_different_forces_a_card():
    """D2 (Hall): Ana, Ben and Cleo all exclude 2 and 5, so the three of them hold 7, 11,
    14; Ana and Ben both exclude 7, so Cleo's character is 7, although none of her own
    guesses (2 and 5) touched it.  Statements are on lines 9-11, 13-15, 17-18."""
    rec = parse_record(FORCED)
    a = GAME.analyze(rec, "Ana")
    cleo = {p.name: p for p in a.psychics}["Cleo"].stages["character"]
    assert cleo.forced == 7 and cleo.probabilities == {7: 1}
    assert set(cleo.d1) == {7, 11, 14}                  # D1 alone leaves three
    assert set(cleo.excluded_by_d2) == {11, 14}
    ana = {p.name: p for p in a.psychics}["Ana"].stages["character"]
    assert ana.probabilities == {11: Fraction(1, 2), 14: Fraction(1, 2)}
    assert a.card_locations()["character 2"] == {"unused": 1}
    js = a.to_json()
    assert js["psychics"]["Cleo"]["stages"]["character"]["forced"] == 7
    assert js["cards"]["character 7"] == {"Cleo": 1.0}
    assert_matches_brute_force(rec, "Ana")
    # the minimal reasons, from the CP-SAT card-location model
    exp = GAME.explain(rec, "Ana", "C7")
    assert exp.summary == "certainly with psychic Cleo"
    # every wrong guess is needed: Ana and Ben exclude 2, 5 and 7 (so they hold 11 and 14),
    # and Cleo excludes 2 and 5; none of the 'hour' lines
    assert set(exp.reasons[0].lines) == {9, 10, 11, 13, 14, 15, 17, 18}
    assert_matches_brute_force(rec.prefix(len(rec.statements) - 1), None)


def test_clock_hours_left_against_guesses_needed():
    """D3: at hour 3 (before guessing) each psychic has 5 guesses; Ana needs 3."""
    rec = parse_record(FORCED)
    a = GAME.analyze(rec, None)
    p = {x.name: x for x in a.psychics}
    assert (p["Ana"].guesses_left, p["Ana"].needed, p["Ana"].slack) == (4, 3, 1)
    assert p["Cleo"].guesses_left == 5          # Cleo has not guessed in hour 3 yet
    assert p["Cleo"].worst_case == 1 + 5 + 5    # forced character, 5 locations, 5 objects
    assert p["Cleo"].at_risk and not p["Cleo"].hopeless and a.can_win
    late = FORCED + ("Cleo guesses character 11: wrong\n"
                     "hour 4\nAna guesses character 11: right\nBen guesses character 14: right\n"
                     "Cleo guesses character 7: right\n"
                     "hour 5\nAna guesses location 1: wrong\nBen guesses location 3: right\n"
                     "Cleo guesses location 6: wrong\n")
    a = GAME.analyze(parse_record(late), None)
    p = {x.name: x for x in a.psychics}
    assert [(p[n].needed, p[n].guesses_left, p[n].slack) for n in ("Ana", "Ben", "Cleo")] == [
        (2, 2, 0), (1, 2, 1), (2, 2, 0)]
    assert a.can_win and not any(x.hopeless for x in a.psychics)
    a = GAME.analyze(parse_record(late + "hour 6\nAna guesses location 6: wrong\n"), None)
    p = {x.name: x for x in a.psychics}
    assert p["Ana"].hopeless and (p["Ana"].needed, p["Ana"].guesses_left) == (2, 1)
    assert not a.can_win


def test_hopeless_when_needed_exceeds_hours():
    body = "".join(f"hour {h}\nAna guesses character {h}: wrong\nBen guesses character "
                   f"{h % 6 + 1}: wrong\nCleo guesses character {(h + 1) % 6 + 1}: wrong\n"
                   for h in range(1, 6))
    rec = parse_record("game: mysterium\nvariant: hard\nplayers: Gus Ana Ben Cleo\n"
                       "table character: 1 2 3 4 5 6 7\ntable location: 1 2 3 4 5 6 7\n"
                       "table object: 1 2 3 4 5 6 7\n" + body)
    a = GAME.analyze(rec, None)
    assert all(p.hopeless for p in a.psychics) and not a.can_win
    assert a.to_json()["clock"]["can_win"] is False


CONFLICT = """game: mysterium
players: Gus Ana Ben Cleo
table character: 1 2 3 4 5 6
table location: 1 2 3 4 5 6
table object: 1 2 3 4 5 6
hour 1
Ana guesses character 1: wrong
Ben guesses character 2: right
Cleo guesses character 3: wrong
"""


def test_two_right_on_one_card_in_one_hour_is_a_rule_error():
    # MY-10: the same card may be chosen twice in an hour, but at most one is right: the
    # first right one took it into a sleeve (MY-12), so a second right is a card in two
    # places, a rule error like a later hour's guess of it (exit 2, not a contradiction)
    with pytest.raises(RuleError) as ei:
        parse_record(CONFLICT.replace("Cleo guesses character 3: wrong",
                                      "Cleo guesses character 2: right"))
    e = ei.value
    assert (e.line, e.column, e.exit_code) == (9, 24, 2) and "MY-10" in str(e)
    assert "character 2 went into Ben's sleeve in hour 1" in str(e)
    text = CONFLICT.replace("Cleo guesses character 3: wrong", "Cleo guesses character 2\n"
                            "reveal Cleo: right")
    with pytest.raises(RuleError) as ei:
        parse_record(text)
    assert (ei.value.line, ei.value.column) == (10, 14)            # the outcome word
    parse_record(text.replace("reveal Cleo: right", "reveal Cleo: wrong"))   # legal


def test_right_after_wrong_is_inconsistent_and_secret_conflicts_only_for_the_ghost():
    text = CONFLICT + "hour 2\nAna guesses character 1: right\n"
    with pytest.raises(InconsistentError) as ei:
        GAME.analyze(parse_record(text), None)
    assert ei.value.conflict == [7, 11]
    rec = parse_record(CONFLICT + "secret Ana: character 1\n")
    GAME.analyze(rec, None)                        # the public view ignores the ghost's line
    with pytest.raises(InconsistentError) as ei:
        GAME.analyze(rec, "Gus")
    assert ei.value.conflict == [7, 10]
    with pytest.raises(InconsistentError):
        GAME.check(rec)


def test_ghost_view_is_certain_and_psychic_view_is_not():
    rec = read_record(str(SAMPLES / "three-players-lost.txt"))
    cut = rec.prefix(12)   # tables, secrets, hour 1 with its guesses
    ghost = GAME.analyze(cut, "Gus")
    assert ghost.deduction.assignments() == 1
    assert ghost.to_json()["cards"]["object 7"] == {"Ben-2": 1.0}
    public = GAME.analyze(cut, "Ana")
    assert public.deduction.assignments() > 1
    assert "not used" in public.notes[0]


def test_pending_guess_probability_for_clairvoyance():
    rec = read_record(str(SAMPLES / "five-players-won.txt"))
    n = next(i for i, s in enumerate(rec.statements) if s.text == "reveal Ana: wrong")
    a = GAME.analyze(rec.prefix(n), "Ana")
    ben = {p.name: p for p in a.psychics}["Ben"]
    # Ben (not 5) guesses 2 while Dev (not 9) is unknown: P = 3/13 by all-different
    assert ben.pending["card"] == "character 2"
    assert ben.pending["p_right"] == pytest.approx(3 / 13)
    assert ben.pending["best_token"] == "disagree"
    assert a.deduction.kinds["character"].p("Ben", 2) == Fraction(3, 13)


def test_wrong_guess_reset_keeps_knowledge():
    rec = parse_record("game: mysterium\nvariant: wrong-guess=reset\nplayers: Gus Ana Ben Cleo\n"
                       "table character: 1 2 3 4 5 6\ntable location: 1 2 3 4 5 6\n"
                       "table object: 1 2 3 4 5 6\nhour 1\nAna guesses C1: right\n"
                       "Ben guesses C2: wrong\nCleo guesses C3: wrong\nhour 2\n"
                       "Ana guesses L1: wrong\nBen guesses C3: wrong\nCleo guesses C2: wrong\n")
    a = GAME.analyze(rec, None)
    ana = {p.name: p for p in a.psychics}["Ana"]
    assert ana.stage == "character" and ana.needed == 3
    assert ana.stages["character"].forced == 1     # found before, back on the table (A3)
