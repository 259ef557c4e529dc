"""A spectator's record (no ``me:``, not every hand listed) is the recorder's own, public
view: its ``holds:`` lines are hands known to the recorder (record-format.md), so they are
placed, and a later statement contradicting one is a conflict (exit 3).  The public view of a
player's record and of a complete record still knows only what everybody saw.  Mystery Hand,
Twenty-Two, Literature and Hand (Clue: tests/test_solver_leftovers.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.games import get_game
from solver.records import parse_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

# Mystery Hand, four players: the spectator saw Ben's hand
MH = """game: mystery-hand
players: Ana Ben Cleo Dev
dealer: Dev
Ben holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC
"""
BEN_MH = "5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC".split()

# Literature, six players: the spectator saw Ben's hand
LIT = """game: literature
players: Ana Ben Cleo Dev Eli Fay
Ben holds: 5H 9C 10C KC AS KS QS JS
"""
BEN_LIT = "5H 9C 10C KC AS KS QS JS".split()


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write(tmp_path, text: str, name: str = "g.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def analyze_json(path: str, *extra: str, code: int = 0) -> dict:
    r = run("analyze", path, "--json", *extra)
    assert r.exit_code == code, r.output
    return json.loads(r.stdout)


def without_me(text: str) -> str:
    return "".join(ln for ln in text.splitlines(keepends=True) if not ln.startswith("me:"))


def sample(game: str, name: str) -> str:
    return (SAMPLES / game / name).read_text(encoding="utf-8")


# ----- the hands a spectator gives are placed -------------------------------------------------
@pytest.mark.parametrize("text,cards", [(MH, BEN_MH), (LIT, BEN_LIT)], ids=["mh", "lit"])
def test_a_spectators_holds_line_is_a_known_hand(tmp_path, text, cards):
    path = write(tmp_path, text)
    for extra in ((), ("--as", "public")):
        out = analyze_json(path, *extra)
        assert out["view"] is None
        for c in cards:
            assert out["cards"][c] == {"Ben": 1.0}, (c, out["cards"][c])
        assert "Ben" not in out["cards"]["AH"]


def test_mystery_hand_spectator_candidates_leave_out_the_hand_it_saw(tmp_path):
    """The issue's example: 52 - 12 (Ben) cards for a mystery hand of four."""
    out = analyze_json(write(tmp_path, MH))
    assert out["mystery"]["candidates"] == 91390     # C(40, 4), was C(52, 4) = 270725
    r = run("analyze", write(tmp_path, MH))
    assert r.exit_code == 0 and "Candidates for the mystery hand: 91390" in r.output


def test_twenty_two_spectator_knows_the_hand_it_saw(tmp_path):
    text = without_me(sample("twenty-two", "standard-ana-midhand.txt"))
    out = analyze_json(write(tmp_path, text))
    assert out["view"] is None
    for c in "AS AH 10H 6D 10D QD KC".split():   # her second hand, less JS and 6H played
        assert out["cards"][c] == {"Ana": 1.0}, (c, out["cards"][c])
    r = run("why", write(tmp_path, text), "QD")
    assert r.exit_code == 0 and "Ana holds: AS JS AH 6H 10H 6D 10D QD KC" in r.output


@pytest.mark.parametrize("game,name", [("mystery-hand", "five-players-ana.txt"),
                                       ("mystery-hand", "lossy-five-players.txt"),
                                       ("twenty-two", "standard-ana-midhand.txt"),
                                       ("literature", "ex-a-six-players.txt"),
                                       ("literature", "lossy-six-players.txt"),
                                       ("hand", "round-midway-ana.txt")])
def test_a_spectator_who_saw_one_hand_knows_what_that_player_knows(tmp_path, game, name):
    """Ana's record with its 'me:' line removed: the spectator saw what Ana saw (her hand,
    the cards shown to her), so its public view is Ana's view of her own record."""
    text = sample(game, name)
    spectator = analyze_json(write(tmp_path, without_me(text), "sp.txt"))
    ana = analyze_json(write(tmp_path, text, "ana.txt"))
    public = analyze_json(write(tmp_path, text, "ana.txt"), "--as", "public")
    assert spectator["view"] is None and ana["view"] == "Ana"
    assert spectator["cards"] == ana["cards"]
    assert spectator["cards"] != public["cards"]


@pytest.mark.parametrize("memory", ["memory=last-question", "memory=last-two"])
def test_literature_memory_modes_keep_every_hand_the_spectator_saw(tmp_path, memory):
    text = LIT.replace("players:", f"variant: {memory}\nplayers:") + \
        "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\nAna asks Ben 10S: no\n"
    out = analyze_json(write(tmp_path, text))
    for c in BEN_LIT:
        assert out["cards"][c] == {"Ben": 1.0}, (c, out["cards"][c])
    for c in "2H 3H 4H 6H 7H 9S JC QD".split():
        assert out["cards"][c] == {"Ana": 1.0}, (c, out["cards"][c])


# ----- a statement contradicting such a hand is a conflict ----------------------------------
@pytest.mark.parametrize("text,line", [(MH, "Ana asks Ben 4H-7H: 0"),
                                       (LIT, "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n"
                                             "Ana asks Ben 5H: no")], ids=["mh", "lit"])
def test_a_spectators_hand_contradicted_later_is_a_conflict(tmp_path, text, line):
    path = write(tmp_path, text + line + "\n")
    out = analyze_json(path, code=3)
    assert out["consistent"] is False
    held = 4 if "mystery-hand" in text else 3
    assert held in out["conflict"] and max(out["conflict"]) == len((text + line).splitlines())
    r = run("analyze", path)
    assert r.exit_code == 3 and "Ben holds:" in r.output


def test_logging_the_contradiction_is_refused_too(tmp_path):
    path = write(tmp_path, MH)
    r = run("log", path, "Ana asks Ben 4H-7H: 0")
    assert r.exit_code == 3, r.output
    assert "Ana asks Ben" not in Path(path).read_text(encoding="utf-8")


# ----- other views of a spectator's record ----------------------------------------------------
@pytest.mark.parametrize("text", [MH, without_me(sample("twenty-two",
                                                       "standard-ana-midhand.txt"))],
                         ids=["mh", "tt"])
def test_a_spectators_record_has_no_other_view(tmp_path, text):
    r = run("analyze", write(tmp_path, text), "--as", "Ben")
    assert r.exit_code == 2
    assert "a spectator's record (no 'me:') is analysed from the public view only" in r.output
    assert "'Ben'" in r.output and "me: None" not in r.output


def test_literature_a_listed_players_view_still_uses_only_its_hand(tmp_path):
    """Literature analyses the view of any player whose hand is listed (every move is
    public): that view uses its own hand only, and the advisor's exposure (what the table
    can infer about it) uses none."""
    text = LIT + "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n"
    ben = analyze_json(write(tmp_path, text), "--as", "Ben", "--exposure")
    assert ben["view"] == "Ben" and ben["cards"]["5H"] == {"Ben": 1.0}
    assert len(ben["cards"]["2H"]) > 1
    assert ben["exposure"]["certain"] == []
    exp = get_game("literature").exposure(parse_record(text), "Ben")
    assert exp["certain"] == [] and all(p < 1 for p in exp["cards"].values())


# ----- what does not change ------------------------------------------------------------------
def test_the_public_view_of_a_players_record_knows_only_what_everybody_saw(tmp_path):
    for text, cards in ((MH.replace("dealer: Dev\n", "dealer: Dev\nme: Ben\n"), BEN_MH),
                        (LIT.replace("Fay\n", "Fay\nme: Ben\n", 1), BEN_LIT)):
        path = write(tmp_path, text)
        mine = analyze_json(path)
        public = analyze_json(path, "--as", "public")
        assert mine["view"] == "Ben" and mine["cards"][cards[0]] == {"Ben": 1.0}
        for c in cards:
            assert public["cards"][c] != {"Ben": 1.0}, c
    text = sample("twenty-two", "standard-ana-midhand.txt")
    public = analyze_json(write(tmp_path, text), "--as", "public")
    assert all(v != {"Ana": 1.0} for c, v in public["cards"].items() if c in ("AS", "QD"))


def test_mystery_hand_revealed_hands_stay_public(tmp_path):
    """MH-20: a wrong announcer's hand is face up, so every view places it -- the public
    view of a player's record too."""
    text = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Cleo\n"
            "Ana announces 2S 3S 4S 5S: wrong\n"
            "Ana holds: AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH\n")
    for extra in ((), ("--as", "public")):
        out = analyze_json(write(tmp_path, text), *extra)
        assert out["cards"]["7H"] == {"Ana": 1.0}
        assert out["cards"]["KS"] != {"Ana": 1.0}


@pytest.mark.parametrize("game,name,lines", [
    ("mystery-hand", "six-players-sneak-complete.txt", None),
    ("twenty-two", "standard.txt", 19),
    ("literature", "six-players-full-game.txt", 30),
    ("hand", "round-complete.txt", 20)])
def test_the_public_view_of_a_complete_record_is_unchanged(tmp_path, game, name, lines):
    """Every hand listed: the public view knows only what everybody saw, with or without
    'me:' (the record is a full history, not a spectator's)."""
    text = sample(game, name)
    if lines:
        text = "".join(text.splitlines(keepends=True)[:lines])
    with_me = analyze_json(write(tmp_path, text, "a.txt"), "--as", "public")
    spectator = analyze_json(write(tmp_path, without_me(text), "b.txt"))
    assert spectator["view"] is None
    assert spectator["cards"] == with_me["cards"]
    certain = {c for c, v in spectator["cards"].items() if len(v) == 1}
    hands = [ln.split(":", 1)[1].split() for ln in text.splitlines()
             if " holds:" in ln and not ln.startswith("#")]
    assert not set(hands[0]) <= certain     # the first hand listed is not all public
