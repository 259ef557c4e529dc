"""Clue's spectator records use their ``holds:`` lines; Literature's exposure reports the
jokers' counts as the analysis does (solver.model.copies.settle_copies)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from solver.clue.analysis import analyze as clue_analyze
from solver.literature.advise import exposure
from solver.literature.analysis import analyze as literature_analyze
from solver.records import parse_record

# a spectator's record (no 'me:'): Ben's hand is known to the recorder (record-format.md)
SPECTATOR_CLUE = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev
Ben holds: Plum Knife Library Lounge Pipe
Ana suggests Plum Knife Library: Ben shows
"""


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_a_spectators_record_uses_the_hands_it_gives(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(SPECTATOR_CLUE, encoding="utf-8")
    for extra in ((), ("--as", "public")):
        r = run("analyze", str(path), "--json", *extra)
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["view"] is None
        for card in ("Plum", "Knife", "Library", "Lounge", "Pipe"):
            assert out["cards"][card] == {"Ben": 1.0}, (card, out["cards"][card])
        # Ben's five cards are nowhere else: 5 suspects, 4 weapons, 7 rooms for the case file
        assert out["envelope"]["candidates"] == 5 * 4 * 7
        assert "Ben" not in out["cards"]["Scarlet"]
    r = run("analyze", str(path))
    assert r.exit_code == 0 and "Possible case files: 140 of 324" in r.output, r.output


def test_a_card_a_spectator_saw_shown_is_placed():
    rec = parse_record(SPECTATOR_CLUE.replace("Ben holds: Plum Knife Library Lounge Pipe\n", "")
                       .replace("Ben shows", "Ben shows Knife"))
    assert clue_analyze(rec, None).cards["Knife"] == {"Ben": 1.0}


def test_a_spectators_hands_can_contradict_its_passes(tmp_path):
    """A hand given is a fact like any other: a pass it contradicts is a conflict (exit 3)."""
    path = tmp_path / "g.txt"
    path.write_text(SPECTATOR_CLUE.replace("Ben shows", "Ben passes, Cleo shows"),
                    encoding="utf-8")
    r = run("analyze", str(path), "--json")
    assert r.exit_code == 3, r.output
    out = json.loads(r.stdout)
    assert out["consistent"] is False and set(out["conflict"]) >= {4, 5}


def test_a_spectators_record_has_no_other_view(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(SPECTATOR_CLUE, encoding="utf-8")
    r = run("analyze", str(path), "--as", "Ben")
    assert r.exit_code == 2
    assert "a spectator's record (no 'me:') is analysed from the public view only" in r.output
    assert "'Ben'" in r.output and "me: None" not in r.output


def test_the_public_view_of_a_players_record_still_knows_only_what_everybody_saw():
    """Ana's own hand is hers: the public view of her record does not place it.  (Ana sees
    the card Ben shows her, CL-6: her record names it.)"""
    rec = parse_record(SPECTATOR_CLUE.replace("dealer: Dev\n", "dealer: Dev\nme: Ana\n")
                       .replace("Ben holds: Plum Knife Library Lounge Pipe",
                                "Ana holds: Scarlet Rope Kitchen Hall Study")
                       .replace(": Ben shows\n", ": Ben shows Knife\n"))
    assert clue_analyze(rec, "Ana").cards["Scarlet"] == {"Ana": 1.0}
    public = clue_analyze(rec, None).cards["Scarlet"]
    assert len(public) > 1 and all(p < 1 for p in public.values())


# Dev takes the four 8s from Ana, so by LIT-6(c) holds a joker (the ninth half-suit 8* is
# the 8s and the two jokers, V8), and asking for one (LIT-6(d)) says not both: exactly one
# joker, either copy.  The two copies' shares summed gave 0.9999999999999999.
JOKERS = """game: literature
variant: deck=54-jokers
players: Ana Ben Cleo Dev Eli Fay
Ana asks Dev 2S: no
Dev asks Ana 8S: yes
Dev asks Ana 8H: yes
Dev asks Ana 8D: yes
Dev asks Ana 8C: yes
Dev asks Cleo Jk: no
Cleo asks Dev KC: no
Dev asks Ana QD: no
"""


def test_the_exposure_counts_jokers_as_the_analysis_does():
    rec = parse_record(JOKERS)
    public = literature_analyze(rec, None)
    assert public.exact and public.cards["Jk"]["Dev"] == 1.0
    for p in rec.header.players:
        exp = exposure(rec, p)
        assert exp["exact"]
        want = {c: d[p] for c, d in public.cards.items() if d.get(p, 0.0) > 0}
        assert exp["cards"] == want, p
    dev = exposure(rec, "Dev")
    assert dev["cards"]["Jk"] == 1.0 and dev["expected_per_half_suit"]["8*"] == 5.0


def test_the_exposure_in_the_json_has_the_whole_joker(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(JOKERS.replace("players: Ana Ben Cleo Dev Eli Fay\n",
                                   "players: Ana Ben Cleo Dev Eli Fay\nme: Dev\n"),
                    encoding="utf-8")
    r = run("analyze", str(path), "--exposure", "--json")
    assert r.exit_code == 0, r.output
    exp = json.loads(r.stdout)["exposure"]
    assert exp["view"] == "Dev" and exp["cards"]["Jk"] == 1.0
    assert all(0 < v < 1 for c, v in exp["cards"].items() if c not in ("Jk", "8S", "8H", "8D",
                                                                       "8C"))
