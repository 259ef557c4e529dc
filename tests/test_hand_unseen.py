"""Hand round records with turns the recorder did not see (record-format.md, "What the
recorder did not see"; docs/hand.md, "Turns not seen"): ``P: ?`` is one whole turn of P's
(a stock draw and a discard, neither seen) and ``turn: P`` says whose turn it is.

The brute-force cross-check fills each ``?`` with every turn the rules allow (every card
the draw may bring, every card then held as the discard), replays each filled record, and
weighs it by the chance of its stock draws under a uniform deal (each of P's cards equally
likely the discard): the analysis of the record with the ``?`` must give the same expected
copies of every card in every place, the same certain cards (the intersection of the
fillings), and the same possible places (their union)."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from solver.errors import SleuthError
from solver.hand.engine import UNSEEN_CARD, in_play, play
from solver.hand.events import Discard, Draw
from solver.hand.inference import _visible, courses, kinds, mixed_locations
from solver.records import parse_record
from web.hand import lead_data, turn

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = (ROOT / "samples" / "hand" / "round-midway-ana.txt").read_text().splitlines()
HEAD = "game: hand\nplayers: Ana Ben\ndealer: Ben\nindicator 4H\n"
ANA = "Ana holds: JH QH KH 10S 10D 10C 2S 2D 2C QD QC 3H 5H 9H 8S\n"
BEN = "Ben holds: QS 9D 9C 4S 5S 6D 7C KS KD 3C 3D JC 8H 6S\n"
OPEN = "Ana melds JH QH KH | 10S 10D 10C | 2S 2D 2C\nAna discards 8S\n"


def _sample_upto(n: int) -> str:
    """The sample's header and statements up to its line ``n``."""
    return "\n".join(SAMPLE[:n]) + "\n"


def _sleuth(*args, stdin: str | None = None):
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True,
                          text=True, input=stdin, cwd=ROOT, timeout=300)


# ----------------------------------------------------------------------------- engine

def test_the_brief_records_are_accepted():
    """Lines 7-14 of the sample then ``Cleo: ?`` or ``turn: Ben`` were refused (exit 2)."""
    for extra in ("Cleo: ?", "turn: Ben"):
        rec = parse_record(_sample_upto(14) + extra + "\n")
        s = play(rec)
        assert s.current == "Ben"
        assert s.players["Cleo"].count == 14 and s.stock == 61
        assert s.top() is UNSEEN_CARD and repr(s.top()) == "?"


def test_turn_is_several_unseen_turns():
    s = play(parse_record(_sample_upto(14) + "turn: Ana\n"))
    assert s.current == "Ana" and s.stock == 60 and s.unseen_turns == 2
    assert [repr(c) for c in s.pile] == ["AS", "?", "?"]
    s2 = play(parse_record(_sample_upto(14) + "Cleo: ?\nBen: ?\n"))
    assert s2.pile == s.pile and s2.stock == s.stock and s2.current == s.current


def test_turn_is_the_player_on_turn_changes_nothing():
    s = play(parse_record(_sample_upto(14) + "turn: Cleo\nCleo draws\n"))
    assert s.unseen_turns == 0 and s.current == "Cleo"


@pytest.mark.parametrize("extra, rule, words", [
    ("Ben: ?", "HR-4", "write 'turn: Ben'"),
    ("Cleo draws\nCleo: ?", "HR-28", "under way"),
    ("Cleo draws\nturn: Ben", "HR-28", "under way"),
])
def test_refused(extra, rule, words):
    with pytest.raises(SleuthError) as e:
        parse_record(_sample_upto(14) + extra + "\n")
    assert e.value.rule == rule and words in str(e.value)


def test_starter_first_turn_unseen_has_no_draw():
    text = "game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ben\nindicator 5S\n"
    s = play(parse_record(text + "Ana: ?\n"))
    assert s.players["Ana"].count == 14 and s.stock == 62 and s.current == "Cleo"


def test_unseen_discard_taken_shows_the_card():
    rec = parse_record(HEAD + ANA + BEN + OPEN + "Ben: ?\nAna takes QS\nAna melds QS QD QC\n"
                       "Ana discards 3H\n")
    s = play(rec)
    assert [repr(c) for c in s.pile] == ["8S", "3H"]
    # Ben may have discarded his QS or drawn the other one and discarded that
    assert len(s.branches) == 2


def test_the_unseen_discard_is_any_card_held():
    s = play(parse_record(HEAD + ANA + BEN + OPEN + "Ben: ?\n"))
    # each of Ben's 14 known cards, or the card he drew (unknown, face down)
    assert len(s.branches) == 15 and s.players["Ben"].known == Counter()
    assert s.players["Ben"].count == 14 and s.top() is UNSEEN_CARD
    assert sum(b.top() is UNSEEN_CARD for b in s.branches) == 1


def test_rules_still_apply_after_an_unseen_turn():
    with pytest.raises(SleuthError) as e:
        parse_record(HEAD + ANA + BEN + OPEN + "Ben: ?\nAna draws 7C\nAna discards 7C\n"
                     "Ben takes 7C\nBen discards 3C\n")
    assert e.value.rule == "HR-29"


def test_unseen_turns_end_the_round_by_the_stock():
    text = "game: hand\nplayers: Ana Ben\ndealer: Ben\nvariant: stock-end=empty\nindicator 5S\n"
    lines = ["Ana: ?"] + ["Ben: ?", "Ana: ?"] * 38
    s = play(parse_record(text + "\n".join(lines) + "\n"))
    assert s.stock == 0 and s.over == "stock"
    rec = parse_record(text + "\n".join(lines) + "\nround 1: unscored stock\n")
    assert play(rec).scored


def test_a_complete_record_has_none():
    from solver.hand.inference import truth

    assert truth(parse_record(HEAD + ANA + BEN + OPEN + "Ben: ?\n")) is None


# ----------------------------------------------------------------- brute-force cross-check

def _stock_pool(s) -> tuple[Counter, int]:
    """The cards a stock draw may bring now (copies not in any visible place) and how many
    cards it is drawn from."""
    vis = _visible(s, None)
    pool = Counter({c: in_play(s, c) - sum(v[c] for place, v in vis.items()
                                           if place != "indicator")
                    for c in kinds(s.regime)})
    return +pool, s.stock - len(s.stock_known)


def _fillings(text: str):
    """Every course of the record that names every card: each unnamed draw and each
    ``P: ?`` filled with every card the stock may bring (its chance: the copies left over
    the stock's size, a uniform deal) and each unseen discard with every card then held
    (its chance: copies held over the hand's size), dropping the courses the engine (the
    rules) refuses.  Yields (final state, chance)."""
    from copy import deepcopy

    from solver.hand.engine import apply, start
    from solver.hand.events import Unseen

    rec = parse_record(text)
    sts = list(rec.statements)

    def walk(s, k: int, w: Fraction):
        if k == len(sts):
            yield s, w
            return
        ev, line = sts[k].event, sts[k].text
        if isinstance(ev, Draw) and ev.card is None or isinstance(ev, Unseen):
            pool, size = _stock_pool(s)
            for x, n in pool.items():
                b = deepcopy(s)
                try:
                    apply(b, Draw(ev.player, x), f"{ev.player} draws {x!r}")
                except SleuthError:
                    continue
                if isinstance(ev, Draw):
                    yield from walk(b, k + 1, w * Fraction(n, size))
                    continue
                held = b.players[ev.player].known
                for d, nd in held.items():
                    c = deepcopy(b)
                    try:
                        apply(c, Discard(ev.player, (d,)), f"{ev.player} discards {d!r}")
                    except SleuthError:
                        continue
                    yield from walk(c, k + 1, w * Fraction(n, size)
                                    * Fraction(nd, sum(held.values())))
            return
        if isinstance(ev, Draw):
            pool, size = _stock_pool(s)
            w *= Fraction(pool[ev.card], size)
        try:
            apply(s, ev, line)
        except SleuthError:
            return
        yield from walk(s, k + 1, w)

    yield from walk(start(rec.header), 0, Fraction(1))


def _places(s) -> dict[str, Counter]:
    """Where every card is at the end of a course that names every card (the stock: the
    rest)."""
    vis = _visible(s, None)
    out = {}
    for c in kinds(s.regime):
        where = Counter({place: v[c] for place, v in vis.items() if v[c]})
        rest = in_play(s, c) + (c == s.indicator) - sum(where.values())
        if rest:
            where["stock"] += rest
        out[repr(c)] = where
    return out


def _cross_check(text: str) -> None:
    fills = list(_fillings(text))
    assert fills
    total = sum(w for _, w in fills)
    expect: dict[str, dict[str, Fraction]] = {}
    possible: dict[str, set] = {}
    certain: dict[str, set] = {}
    for end, w in fills:
        for card, where in _places(end).items():
            e = expect.setdefault(card, {})
            for place, n in where.items():
                e[place] = e.get(place, Fraction(0)) + w * n / total
            certain.setdefault(card, set()).add(", ".join(sorted(where.elements())))
            possible.setdefault(card, set()).update(where)
    cards, sure, _, _ = mixed_locations(play(parse_record(text)))
    for card, e in expect.items():
        got = {k: v for k, v in cards[card].items() if v > 1e-12}
        assert set(got) == possible[card], card                      # union of places
        for place, x in e.items():
            assert got[place] == pytest.approx(float(x), abs=1e-9), (card, place)
        if len(certain[card]) == 1:                                   # intersection
            assert sure.get(card) == next(iter(certain[card])), card
        else:
            assert card not in sure, card


@pytest.mark.parametrize("tail", [
    "Ben: ?\nAna draws 7C\nAna discards 7C\n",             # a named draw after it
    "Ben: ?\nAna takes QS\nAna melds QS QD QC\nAna discards 3H\n",   # the discard taken
    "Ben: ?\nAna draws 7C\nAna discards 7C\nBen draws 4D\nBen discards 9D\n",   # a card he held
])
def test_analysis_equals_every_filling(tail):
    _cross_check(HEAD + ANA + BEN + OPEN + tail)


def _late_round(*unseen: str, stop: str | None = None) -> str:
    """A simulated two-player round (every hand and draw written) up to its end by the stock,
    where Ben's turns drawing the cards ``unseen`` are written ``Ben: ?``: the stock is then
    small, so every filling can be tried."""
    from solver.hand.simulate import simulate
    from solver.records import write_record

    out = write_record(simulate(2, [], seed=0), comments=False).splitlines()[:-1]
    for c in unseen:            # Ben's last turn drawing c: its draw, discard and call
        i = max(k for k, line in enumerate(out) if line == f"Ben draws {c}")
        assert out[i + 1:i + 3] == [f"Ben discards {c}", "Ben calls one card"]
        out[i:i + 3] = ["Ben: ?"]
    if stop is not None:
        out = out[:out.index(stop) + 1]
    return "\n".join(out) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("unseen, stop", [
    (("KC",), None),
    (("10S", "KC"), "Ana discards KD"),      # Ben's 3H or the card he drew went
    (("10S", "KC"), "Ana discards JS"),      # courses of unequal weight (1/4, 1/4, 1/2)
    (("10S", "KC"), "Ben swaps AH on 4"),
    (("10S", "KC"), None),                   # he discards 3H: one course is left
])
def test_analysis_equals_every_filling_late_in_a_round(unseen, stop):
    """Ben's unseen turns late in a round (he holds one card): one, then two (the second's
    courses multiply the first's, and Ben may hold two cards not seen at it); his later
    statements pick among them (he discards 3H, which he must then still hold)."""
    text = _late_round(*unseen, stop=stop)
    if stop == "Ana discards JS":
        assert sorted(w for _, w in courses(play(parse_record(text)))) == \
            [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    _cross_check(text)


# ------------------------------------------------------------------------------ commands

def _write(tmp_path, text: str) -> str:
    p = tmp_path / "round.txt"
    p.write_text(text)
    return str(p)


def test_cli_analyze_text_json_and_as(tmp_path):
    path = _write(tmp_path, _sample_upto(14) + "Cleo: ?\nturn: Ana\nAna draws 10C\n"
                  "Ana discards 10C\n")
    r = _sleuth("analyze", path)
    assert r.returncode == 0, r.stderr
    assert "Cleo to play" in r.stdout and "discards (2)" in r.stdout
    r = _sleuth("analyze", path, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["discards"] == ["AS", "?", "?", "10C"] and d["unknown_places"]["discards"] == 2
    assert d["unseen_turns"] == 2 and d["turn"] == "Cleo"
    assert sum(d["cards"]["9D"].values()) == pytest.approx(2.0)
    assert 0 < d["cards"]["9D"]["discards"] < 1
    assert d["hands"]["Cleo"]["count"] == 14 and d["hands"]["Ben"]["count"] == 14
    r = _sleuth("analyze", path, "--as", "Ana", "--json")
    assert r.returncode == 0, r.stderr


def test_cli_replay_log_and_score(tmp_path):
    path = _write(tmp_path, _sample_upto(14))
    r = _sleuth("log", path, "Cleo: ?")
    assert r.returncode == 0, r.stderr
    r = _sleuth("log", path, "turn: Ana")
    assert r.returncode == 0 and "Ana's turn" in r.stdout, r.stderr
    r = _sleuth("log", path, "Cleo: ?")
    assert r.returncode == 2 and "turn: Cleo" in r.stderr
    r = _sleuth("replay", path)
    assert r.returncode == 0 and "turn: Ana" in r.stdout, r.stderr
    r = _sleuth("hand", "score", path)
    assert r.returncode == 0, r.stderr


def test_web_entry_after_an_unseen_turn():
    rec = parse_record(_sample_upto(14) + "Cleo: ?\n")
    assert turn(rec) == "Ben"
    takes = lead_data(rec)["takes"]
    assert "?" not in takes and "9D" in takes and "AS" in takes   # one AS still unseen
    s = play(rec)
    assert takes == [repr(c) for c in kinds(s.regime) if in_play(s, c) > s.seen[c]]


def test_a_call_after_an_unseen_turn_may_have_gone_unheard():
    """Under manual-calls a missed call forbids going out next turn (HR-33); after a turn
    not seen the call may have been made unheard, so it does not (a spectator's record:
    Ana's own turns are never unseen in hers)."""
    text = ("game: hand\nplayers: Ana Ben\ndealer: Ben\nvariant: manual-calls\n"
            "indicator 4H\nAna holds: JH QH KH 10S 10D 10C 2S 2D 2C 7S 8S 9S 5H 5D KC\n"
            "Ana melds JH QH KH | 10S 10D 10C | 2S 2D 2C | 7S 8S 9S\nAna discards KC\n")
    s = play(parse_record(text + "Ben draws\n"))            # Ana did not call two cards
    assert s.players["Ana"].failed_call
    s = play(parse_record(text + "Ana calls two cards\nBen: ?\nAna: ?\nBen draws\n"))
    assert s.players["Ana"].count == 2
    assert not any(b.players["Ana"].failed_call for b in s.branches)
    s = play(parse_record(text + "Ana calls two cards\nBen: ?\nAna: ?\nAna calls two cards\n"))
    assert not s.players["Ana"].failed_call


# a spectator's record (no ``me:``) that knows Ana's hand: Ana's turns may be unseen in it
OWN = ("game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nindicator 4H\n"
       "Ana holds: AS 2S 2S QS 3H 5H 9H JH QH KH 2D QD 2C 6C QC\n")


def test_take_chance_over_courses_is_one_estimate():
    """Ana's turn not seen: 14 courses (which of her cards went); the take
    chance of the 2S she holds in each, for Cleo (no initial meld: sampled), is one
    estimate over hands drawn from the courses by their chances."""
    from solver.hand.analysis import analyse_round

    a = analyse_round(parse_record(OWN + "Ana: ?\nCleo: ?\nBen: ?\n"), "Ana")
    d = a.to_json()
    assert d["courses"] == 14 and d["unseen_turns"] == 3
    assert list(d["take_chance"]) == ["2S"]
    t = d["take_chance"]["2S"]
    assert not t["exact"] and t["samples"] == 24 and 0 < t["p"] <= t["upper"] < 1
    assert d["exact"] is False and d["error"] == t["error"]
    assert d["cards"]["AS"]["Ana"] == pytest.approx(14 / 15)
    assert sum(d["cards"]["AS"].values()) == pytest.approx(2.0)


def test_too_many_courses_are_merged_and_said_so():
    from solver.hand.analysis import analyse_round

    d = analyse_round(parse_record(OWN + "Ana: ?\nCleo: ?\nBen: ?\nAna: ?\n"), "Ana",
                      chances=False).to_json()
    assert d["exact"] is False and "approximation" in d["note"] and d["error"] is None
    assert d["hands"]["Ana"]["known"] == [] and d["hands"]["Ana"]["count"] == 14


def test_the_text_says_when_too_many_courses_were_merged(tmp_path, monkeypatch):
    """Past MAX_BRANCHES courses the cards known in only some of them count as unknown:
    --json said so in its note, the text said nothing."""
    from click.testing import CliRunner

    import solver.hand.engine as engine
    from cli.main import cli

    def run(*args):         # in this process: the patched limit applies
        return CliRunner().invoke(cli, list(args))

    text = _late_round("10S", "KC", stop="Ana discards JS")     # three courses
    path = _write(tmp_path, text)
    assert "note:" not in run("analyze", path, "--as", "Ben").stdout
    monkeypatch.setattr(engine, "MAX_BRANCHES", 2)
    r = run("analyze", path, "--as", "Ben")     # Ben knows his hand: courses differ
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert "note: over 2 courses of the unseen turns: the cards known in only some" in said
    d = json.loads(run("analyze", path, "--as", "Ben", "--json").stdout)
    assert d["exact"] is False and d["note"] == said.split("note: ")[1].split(" unseen (")[0]


# ------------------------------------------------------------ the recorder's own turns

@pytest.mark.parametrize("extra, col", [
    ("Ana: ?", 1),                                  # the starter's first turn, Ana's own
    ("Ana discards AS\nCleo: ?\nBen: ?\nAna: ?", 1),
    ("Ana discards AS\nturn: Cleo\nCleo: ?\nturn: Cleo", 7),   # Ben, then Ana's turn
    ("Ana discards AS\nCleo: ?\nBen: ?\nturn: Ben", 7),
])
def test_the_recorders_own_turn_is_never_unseen(extra, col):
    """``me: Ana`` and ``Ana: ?``: the text showed none of Ana's 15 cards as known and no
    discards among the unknown places, while the cards put AS at Ana 14/15."""
    text = _sample_upto(12) + extra.replace("Ana discards AS\n",
                                            SAMPLE[12] + "\nAna discards AS\n") + "\n"
    with pytest.raises(SleuthError) as e:
        parse_record(text)
    assert e.value.rule == "HR-28" and "Ana is the recorder (me: Ana)" in str(e.value)
    assert f"<record>:{text.count(chr(10))}:{col}: " in str(e.value)


def test_the_recorders_own_unseen_turn_cli(tmp_path):
    path = _write(tmp_path, _sample_upto(12) + "Ana: ?\n")
    r = _sleuth("analyze", path)
    assert r.returncode == 2 and f"{path}:13:1: Ana is the recorder" in r.stderr, r.stderr
    path = _write(tmp_path, _sample_upto(14) + "Cleo: ?\nBen: ?\nturn: Cleo\n")
    r = _sleuth("analyze", path)
    assert r.returncode == 2 and f"{path}:17:7: it is Ana's turn" in r.stderr, r.stderr


def test_others_may_write_any_players_turn_unseen():
    """Without ``me:`` (a spectator's record) or in a complete record (every hand stated)
    any player's turn may be ``?``, in every seat's view."""
    from solver.hand.analysis import analyse_round

    spectator = "\n".join(line for line in SAMPLE[:12] if line != "me: Ana") + "\nAna: ?\n"
    assert play(parse_record(spectator)).unseen_turns == 1
    complete = parse_record(HEAD.replace("indicator", "me: Ana\nindicator") + ANA + BEN
                            + "Ana: ?\nBen: ?\nturn: Ben\n")
    for view in ("Ana", "Ben", None):
        assert analyse_round(complete, view, chances=False).state.unseen_turns == 3


def test_the_text_shows_the_pile_with_its_unseen_discards(tmp_path):
    """docs/hand.md's example: the text said only 'discard pile top: 10C'."""
    path = _write(tmp_path, _sample_upto(14) + "Cleo: ?\nturn: Ana\nAna draws 10C\n"
                  "Ana discards 10C\n")
    r = _sleuth("analyze", path)
    assert r.returncode == 0, r.stderr
    assert "discard pile (bottom to top): AS ? ? 10C" in r.stdout.splitlines()
    r = _sleuth("analyze", _write(tmp_path, _sample_upto(14)))
    assert "discard pile (bottom to top)" not in r.stdout      # every discard seen
