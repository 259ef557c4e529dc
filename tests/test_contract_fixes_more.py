"""The record contract at its edges (record-format.md): names the program makes up or reads as
statements (a Mysterium player called as another's psychic, a Hand player called
``Indicator`` or ``Round``), names in Turkish capitals, the JSON of an analysis out of time
before its certainties were settled, and the two-player turn rule (MH-28) cited as such."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import NotationError
from solver.records import check_player_name, name_in, parse_record


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


MYSTERIUM = ("game: mysterium\nvariant: easy\nplayers: Gus Ana {third}\nghost: Gus\n"
             "table character: 1 4 6 9 13\ntable location: 2 3 8 11 17\n"
             "table object: 5 7 10 12 16\nhour 1\n{guesser} guesses character 4: right\n")


def test_a_player_may_not_have_another_players_psychic_name(tmp_path):
    """3 players: Ana and the third run two psychics each, ``Ana-1`` and ``Ana-2``: a
    player called ``Ana-1`` was read as Ana's first psychic (its guess credited to her)."""
    p = tmp_path / "m.txt"
    p.write_text(MYSTERIUM.format(third="Ana-1", guesser="Ana-1"), encoding="utf-8")
    r = run("analyze", str(p), "--json")
    assert r.exit_code == 2
    assert "the player Ana-1 has the name of Ana's psychic Ana-1 (Ana runs 2: Ana-1, " \
        "Ana-2)" in r.stderr
    assert ":3:" in r.stderr
    r = run("new", "mysterium", str(tmp_path / "n.txt"), "--players", "Gus Ana ana-2")
    assert r.exit_code == 2 and not (tmp_path / "n.txt").exists()
    # another name is fine, and so is one like a psychic's when psychics: names them
    p.write_text(MYSTERIUM.format(third="Ben", guesser="Ben-1"), encoding="utf-8")
    assert run("analyze", str(p), "--json").exit_code == 0
    p.write_text(MYSTERIUM.format(third="Ana-1", guesser="Ana-1").replace(
        "ghost: Gus\n", "ghost: Gus\npsychics: Ana Anita Ana-1 Bo\n"), encoding="utf-8")
    r = run("analyze", str(p), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["cards"]["character 4"] == {"Ana-1": 1.0}


@pytest.mark.parametrize("name, why", [
    ("Indicator", "the JSON and --as use it for a location or view"),
    ("ROUND", "a line starting with it is a 'round' statement of hand")])
def test_hand_refuses_names_its_statements_or_json_use(name, why):
    with pytest.raises(NotationError, match=why):
        check_player_name(name, game="hand")
    check_player_name(name, game="mystery-hand")        # another game's words are names


@pytest.mark.parametrize("typed", ["IŞIK", "işık", "Işık", "İŞIK"])
def test_a_turkish_name_in_any_case(typed):
    assert name_in(typed, ("Işık", "Ben")) == "Işık"


def test_a_turkish_name_in_capitals_in_a_statement():
    rec = parse_record("game: mystery-hand\nplayers: Işık Ben Cleo Dev Eli\ndealer: Eli\n"
                       "IŞIK asks Ben 4H-7H: 2\n")
    assert str(rec.statements[0].event) == "Işık asks Ben 4H-7H: 2"


def test_json_out_of_time_lists_only_settled_cards_when_the_search_was_cut(monkeypatch):
    """``certainties: some``: the cards not settled were each given an equal share of every
    player (1/6), the recorder's own cards among them; now only the settled ones are."""
    from solver.model.budget import TimeUp

    from solver.literature.game import LiteratureGame

    def cut(self, record, view, budget=None, **kw):
        e = TimeUp(1.0, "the analysis")
        e.established = {"game": "literature", "view": "Ana", "certainties": "some",
                         "places": {"5S": [["Ana", "Ben", "Cleo"]], "2C": [["Dev"]]}}
        raise e

    monkeypatch.setattr(LiteratureGame, "analyze", cut)
    r = run("analyze", "samples/literature/lossy-six-players.txt", "--json")
    assert r.exit_code == 4
    d = json.loads(r.stdout)
    assert d["cards"] == {"2C": {"Dev": 1.0}}
    assert d["unfinished"]["certainties"] == "some" and d["error"] == 1.0


def test_two_players_take_no_extra_turn_and_the_refusal_says_mh_28(tmp_path):
    text = (tmp_path.parent / "x").name       # (a unique name only)
    src = "samples/mystery-hand/two-player-seen.txt"
    with open(src, encoding="utf-8") as f:
        lines = f.read().splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("Ben asks Ana 3C-6C"))
    assert "no extra turn with two players (MH-28)" in lines[at]
    p = tmp_path / f"{text}.txt"
    p.write_text("\n".join(lines[:at + 1]) + "\n", encoding="utf-8")
    r = run("log", str(p), "Ben asks Ana 7C-10C: 0")
    assert r.exit_code == 2
    assert "there are never extra turns with two players" in r.stderr
    assert "(MH-28)" in r.stderr
