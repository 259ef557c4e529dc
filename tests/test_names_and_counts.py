"""Player names of any script and in any case, and Mystery Hand ask-all counts without names
(record-format.md, "Lexical rules" and "Mystery Hand events").

Every game is checked on a bundled sample whose players are renamed José, Zoë, Bjørn...: the
record parses, writes back as it was, its statements may write the names in another case,
and ``analyze --json`` (from the record's seat and from the public view) gives what the
original gives, under the new names.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import NotationError
from solver.games import get_game
from solver.records import (Header, check_player_name, name_in, parse_record, player_of,
                            write_record)
from solver.didyoumean import near
from tests.test_samples import _close

ROOT = Path(__file__).resolve().parent.parent
NEW = ["José", "Zoë", "Bjørn", "Åsa", "Łukasz", "Ödön", "Ümit", "Çağla"]


def rename(text: str, mapping: dict[str, str]) -> str:
    """``text`` with every whole-word name of ``mapping`` replaced (``Ana-1`` too)."""
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, mapping)) + r")(?!\w)")
    return pattern.sub(lambda m: mapping[m.group(1)], text)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def analysis(path, *view):
    r = run("analyze", path, "--json", *view)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# ----- one sample per game, renamed ---------------------------------------------------------
SAMPLES = {
    "mystery-hand": "five-players-ana",
    "literature": "ex-a-six-players",
    "hand": "round-midway-ana",
    "twenty-two": "standard-ana-midhand",
    "mysterium": "three-players-lost",
}


def renamed_sample(game: str, tmp_path: Path, case=lambda s: s):
    """The sample of ``game`` with its players renamed (the statements writing the names
    through ``case``), its file, the mapping."""
    text = (ROOT / "samples" / game / (SAMPLES[game] + ".txt")).read_text(encoding="utf-8")
    rec = parse_record(text)
    mapping = dict(zip(rec.header.players, NEW))
    lines = rename(text, mapping).splitlines(keepends=True)
    spelt = {k: case(v) for k, v in mapping.items()}
    for st in rec.statements:                   # the header keeps the names as they are
        lines[st.line - 1] = rename(text.splitlines(keepends=True)[st.line - 1], spelt)
    path = tmp_path / f"{game}-{case('Ab')}.txt"
    path.write_text("".join(lines), encoding="utf-8")
    return text, path, mapping


@pytest.mark.parametrize("game", sorted(SAMPLES))
@pytest.mark.parametrize("case", [str.lower, str.upper], ids=["lower", "upper"])
def test_names_in_another_case_read_as_players_spells_them(game, case, tmp_path):
    text, path, mapping = renamed_sample(game, tmp_path)
    _, path2, _ = renamed_sample(game, tmp_path, case)
    assert path2 != path and path2.read_text(encoding="utf-8") != path.read_text(encoding="utf-8")
    exact = parse_record(path.read_text(encoding="utf-8"))
    other = parse_record(path2.read_text(encoding="utf-8"))
    assert exact.header.players == tuple(NEW[:len(exact.header.players)])
    assert [st.event for st in other.statements] == [st.event for st in exact.statements]
    assert write_record(other, comments=False) == write_record(exact, comments=False)
    assert [s.event for s in parse_record(write_record(other)).statements] == \
        [s.event for s in exact.statements]
    # the canonical text names the players as players: does, never as typed
    body = "\n".join(str(st.event) for st in other.statements)
    assert any(n in body for n in mapping.values())
    assert not any(case(n) in body for n in mapping.values() if case(n) != n)
    # and the original record renamed is what the canonical text of the renamed one says
    original = parse_record(text)
    assert [rename(str(st.event), mapping) for st in original.statements] == \
        [str(st.event) for st in exact.statements]


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_analyze_json_from_a_seat_and_public_under_new_names(game, tmp_path):
    text, path, mapping = renamed_sample(game, tmp_path, str.lower)
    orig = tmp_path / "orig.txt"
    orig.write_text(text, encoding="utf-8")
    me = parse_record(text).header.me
    seat = mapping[me]
    golden = json.loads((ROOT / "tests" / "golden" / game / (SAMPLES[game] + ".json"))
                        .read_text(encoding="utf-8"))
    expected = json.loads(rename(json.dumps(golden, ensure_ascii=False), mapping))
    got = analysis(path)
    assert got["view"] == seat
    _close(got, expected)
    # --as in another case is the same seat
    _close(analysis(path, "--as", seat.upper()), expected)
    public = analysis(orig, "--as", "public")
    _close(analysis(path, "--as", "public"),
           json.loads(rename(json.dumps(public, ensure_ascii=False), mapping)))
    # the names are written as they are, not escaped
    r = run("analyze", path, "--json")
    assert seat in r.stdout


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_the_sheet_names_the_players_as_players_does(game, tmp_path):
    _, path, mapping = renamed_sample(game, tmp_path, str.upper)
    r = run("analyze", path)
    assert r.exit_code == 0, r.output
    assert any(n in r.output for n in mapping.values())
    assert not any(n.upper() in r.output for n in mapping.values())


# ----- new, log, --as ------------------------------------------------------------------------
def test_new_log_analyze_with_names_of_any_script(tmp_path):
    f = tmp_path / "g.txt"
    r = run("new", "mystery-hand", f, "--players", "José Zoë Bjørn Åsa", "--me", "josé",
            "--dealer", "ÅSA")
    assert r.exit_code == 0, r.output
    head = f.read_text(encoding="utf-8")
    assert "me: José\n" in head and "dealer: Åsa\n" in head
    r = run("log", f, "JOSÉ asks zoë 4H-7H: 2")
    assert r.exit_code == 0, r.output
    r = run("log", f, "Zoë asks all 5*: 1 ? 0")      # José 1, Bjørn ?, Åsa 0
    assert r.exit_code == 0, r.output
    rec = parse_record(f.read_text(encoding="utf-8"))
    assert [str(st.event) for st in rec.statements] == [
        "José asks Zoë 4H-7H: 2", "Zoë asks all 5*: José 1, Bjørn ?, Åsa 0"]
    for view, name in (("josé", "José"), ("public", None)):
        got = analysis(f, "--as", view)
        assert got["view"] == name
        assert {"José", "Zoë", "Bjørn", "Åsa", "mystery"} >= {
            loc for locs in got["cards"].values() for loc in locs}
    r = run("analyze", f, "--as", "Björn")
    assert r.exit_code == 2 and "--as must name a player" in r.output


def test_a_near_miss_of_a_name_is_suggested(tmp_path):
    f = tmp_path / "g.txt"
    run("new", "mystery-hand", f, "--players", "José Zoë Bjørn Åsa", "--dealer", "Åsa")
    r = run("log", f, "Jose asks Zoë 4H-7H: 1")
    assert r.exit_code == 2
    assert "did you mean: José asks Zoë 4H-7H: 1" in r.output
    assert near("Jose", ["José", "Zoë"]) == ["José"] and near("bjorn", ["Bjørn"]) == ["Bjørn"]


# ----- which names are valid -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["José", "Zoë", "Bjørn", "张三", "李小龍", "अनिल", "Łukasz",
                                  "Ана", "Jean-Luc", "P_1", "José", "Ødegård2"])
def test_names_of_any_script_are_valid_and_survive_the_reader(name):
    assert check_player_name(name) == name
    rec = parse_record(f"game: mystery-hand\nplayers: {name} Ben Cleo\n{name}: ?\n")
    assert rec.statements[0].event.player == name


@pytest.mark.parametrize("name", ["Ana٣", "x²", "Ana.B", "Ana:", "Ⅻ", "\u0301Ana", "Ana!", ""])
def test_other_characters_are_refused(name):
    with pytest.raises(NotationError, match="letters|digits"):
        check_player_name(name)


@pytest.mark.parametrize("name", ["public", "PUBLIC", "All", "NOBODY", "Mystery", "FaceUp"])
def test_reserved_words_are_refused_in_any_case(name):
    with pytest.raises(NotationError, match="cannot be a player's name"):
        check_player_name(name)


def test_mysterium_refuses_a_player_named_as_its_unused_place():
    """'unused' is Mysterium's place of a card in no sleeve in the JSON: a player called
    'Unused' made two keys differing only in case there."""
    with pytest.raises(NotationError, match="cannot be a player's name"):
        parse_record("game: mysterium\nplayers: Gus Unused Ben Cleo\nghost: Gus\n")
    parse_record("game: hand\nplayers: Unused Ben Cleo\n")        # another game's player


def test_keywords_stay_allowed_as_names():
    """As before: only the location and view words are reserved; a player may be called
    like a verb (the statement's shape tells them apart)."""
    rec = parse_record("game: mystery-hand\nplayers: Asks Turn Holds\nasks asks turn 5*: 1\n")
    assert str(rec.statements[0].event) == "Asks asks Turn 5*: 1"


def test_non_ascii_digits_in_a_statement_are_still_refused():
    with pytest.raises(NotationError, match="digits 0-9"):
        parse_record("game: mystery-hand\nplayers: 张三 Ben Cleo\n张三 asks Ben 5*: ٣\n")


# ----- ambiguity -----------------------------------------------------------------------------
def test_names_differing_only_in_case_are_written_exactly():
    h = Header("mystery-hand", ("Ana", "ANA", "Ben"))
    game = get_game("mystery-hand")
    assert str(game.parse_event("ANA asks ben 5*: 1", h)) == "ANA asks Ben 5*: 1"
    assert str(game.parse_event("Ana asks BEN 5*: 1", h)) == "Ana asks Ben 5*: 1"
    with pytest.raises(NotationError, match="ambiguous name: Ana and ANA differ only in case"):
        game.parse_event("ana asks Ben 5*: 1", h)
    assert name_in("josé", ("José", "Ana")) == "José"
    assert player_of("JOSE\u0301", ("José",)) == "José"       # decomposed, another case


def test_as_with_an_ambiguous_name_is_refused(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("game: mystery-hand\nplayers: Ana ANA Ben\nme: ANA\n", encoding="utf-8")
    assert run("analyze", f, "--as", "ana").exit_code == 2
    assert "ambiguous" in run("analyze", f, "--as", "ana").output
    assert analysis(f, "--as", "ANA")["view"] == "ANA"


@pytest.mark.parametrize("game, header, typed, canonical", [
    ("literature", "players: José Zoë Bjørn Åsa Ödön Ümit",
     "zoë claims 2H-7H: JOSÉ 2H 3H 4H, bjørn 5H 6H 7H",
     "Zoë claims 2H-7H: José 2H 3H 4H, Bjørn 5H 6H 7H"),
    ("literature", "players: José Zoë Bjørn Åsa Ödön Ümit\nteams: josé BJØRN ödön / zoë åsa ümit",
     "josé asks åsa 9C: no", "José asks Åsa 9C: no"),
    ("hand", "players: José Zoë Bjørn",
     "round 1 dealer ZOË: josé out partial; zoë 5h ks, BJØRN no-meld",
     "round 1 dealer Zoë: José out partial; Zoë 5H KS, Bjørn no-meld"),
    ("twenty-two", "players: José Zoë Bjørn", "showdown: josé 4C, ZOË KH, bjørn 9D",
     "showdown: José 4C, Zoë KH, Bjørn 9D"),
    ("mysterium", "players: José Zoë Bjørn Åsa", "zoë agrees with BJØRN", "Zoë agrees with Bjørn"),
    ("mysterium", "players: José Zoë Bjørn Åsa", "group 2: åsa", "group 2: Åsa"),
    ("mysterium", "players: José Zoë Bjørn", "zoë-2 guesses c3: wrong",
     "Zoë-2 guesses character 3: wrong"),
])
def test_each_games_name_lists_resolve_the_case(game, header, typed, canonical):
    rec = parse_record(f"game: {game}\n{header}\n", validate=False)
    g = get_game(game)
    ev = g.parse_event(typed, rec.header)
    assert str(ev) == canonical
    assert g.parse_event(str(ev), rec.header) == ev


def test_a_card_word_that_a_name_also_writes_stays_a_card():
    """In a list of a player's cards, ``as`` is the ace of spades even with a player
    ``As`` (whose name is then written as ``players:`` does)."""
    rec = parse_record("game: hand\nplayers: As Ben Cleo\n", validate=False)
    ev = get_game("hand").parse_event("round 1: Ben out partial; Cleo as ks, As 5", rec.header)
    assert str(ev) == "round 1: Ben out partial; Cleo AS KS, As 5"


# ----- sheets with wide names ---------------------------------------------------------------
def test_the_memory_sheet_aligns_wide_names(tmp_path):
    wcwidth = pytest.importorskip("wcwidth")
    text = (ROOT / "samples/mystery-hand/four-players-sneak.txt").read_text(encoding="utf-8")
    path = tmp_path / "g.txt"
    path.write_text(rename(text, {"Ana": "李小龍", "Ben": "Zoë", "Cleo": "Bjørn"}),
                    encoding="utf-8")
    out = run("analyze", path).output
    rows = [ln for ln in out.splitlines() if re.match(r"^\s*(10|[2-9AJQK])\s{2}", ln)][:13]
    assert len(rows) == 13 and any("李小龍" in r for r in rows)
    assert len({wcwidth.wcswidth(r) for r in rows}) == 1, rows


# ----- Mystery Hand: ask-all counts without names -------------------------------------------
SEATS = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def record(n: int, *lines: str) -> str:
    players = SEATS[:n]
    return ("game: mystery-hand\nplayers: " + " ".join(players) + f"\ndealer: {players[-1]}\n"
            + "".join(line + "\n" for line in lines))


@pytest.mark.parametrize("n, typed, named", [
    (4, "Ana asks all 10D-KD: 0 1 2", "Ana asks all 10D-KD: Ben 0, Cleo 1, Dev 2"),
    (4, "Ana asks all 10D-KD: 0, ?, 2", "Ana asks all 10D-KD: Ben 0, Cleo ?, Dev 2"),
    (5, "Ana asks all 10D-KD: none 1 0 2", "Ana asks all 10D-KD: Ben 0, Cleo 1, Dev 0, Eli 2"),
    (5, "Ana asks all 5*: ? ? ? ?", "Ana asks all 5*: Ben ?, Cleo ?, Dev ?, Eli ?"),
    (8, "Ana asks all 9*: 0 1 0 0 2 0 1",
     "Ana asks all 9*: Ben 0, Cleo 1, Dev 0, Eli 0, Fay 2, Gus 0, Hal 1"),
    (8, "Ana asks all 9*: 0 1 0 ? 2 0 1",
     "Ana asks all 9*: Ben 0, Cleo 1, Dev 0, Eli ?, Fay 2, Gus 0, Hal 1"),
])
def test_counts_in_seating_order(n, typed, named):
    rec = parse_record(record(n, typed))
    ev = rec.statements[0].event
    assert str(ev) == named
    assert ev == parse_record(record(n, named)).statements[0].event
    assert get_game("mystery-hand").parse_event(str(ev), rec.header) == ev
    assert write_record(rec).splitlines()[-1] == named


def test_counts_skip_the_asker_wherever_they_sit():
    rec = parse_record(record(5, "Ana asks Ben 5*: 0", "Ben asks all 5*: 1 0 2 1"))
    assert str(rec.statements[1].event) == "Ben asks all 5*: Ana 1, Cleo 0, Dev 2, Eli 1"


def test_counts_skip_the_players_who_are_out():
    lines = ("Ana asks Ben 5*: 0", "Ben announces AS 2H 3D 4C: wrong",
             "Cleo asks all 10D-KD: 0 ? 2")                     # Ben is out (MH-20)
    rec = parse_record(record(5, *lines))
    assert str(rec.statements[2].event) == "Cleo asks all 10D-KD: Ana 0, Dev ?, Eli 2"
    with pytest.raises(NotationError) as e:
        parse_record(record(5, *lines[:2], "Cleo asks all 10D-KD: 0 1 0 2"), "g.txt")
    assert str(e.value) == ("g.txt:6:23: expected 3 counts, one for each of Ana Dev Eli in "
                            "seating order: '0 1 0 2'")


@pytest.mark.parametrize("n, typed, message", [
    (5, "Cleo asks all 10D-KD: 0 1 0",
     "expected 4 counts, one for each of Ana Ben Dev Eli in seating order: '0 1 0'"),
    (4, "Cleo asks all 10D-KD: 0 1 0 2",
     "expected 3 counts, one for each of Ana Ben Dev in seating order: '0 1 0 2'"),
    (8, "Cleo asks all 9*: 0 ?",
     "expected 7 counts, one for each of Ana Ben Dev Eli Fay Gus Hal in seating order: '0 ?'"),
])
def test_a_wrong_number_of_counts_is_refused_quoting_them(n, typed, message):
    game = get_game("mystery-hand")
    with pytest.raises(NotationError) as e:
        game.parse_event(typed, parse_record(record(n)).header)
    assert str(e.value) == message


def test_log_accepts_counts_after_a_player_is_out_and_keeps_what_was_typed(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text(record(5, "Ana asks Ben 5*: 0", "Ben announces AS 2H 3D 4C: wrong"),
                 encoding="utf-8")
    r = run("log", f, "cleo asks all 10D-KD: 0 1 2")
    assert r.exit_code == 0, r.output
    assert f.read_text(encoding="utf-8").endswith("cleo asks all 10D-KD: 0 1 2\n")
    rec = parse_record(f.read_text(encoding="utf-8"))
    assert str(rec.statements[-1].event) == "Cleo asks all 10D-KD: Ana 0, Dev 1, Eli 2"
    r = run("log", f, "Dev asks all 5*: 0 1 0 2")
    assert r.exit_code == 2
    assert "expected 3 counts, one for each of Ana Cleo Eli in seating order: '0 1 0 2'" \
        in r.output


def test_a_player_named_with_digits_keeps_the_named_form():
    rec = parse_record("game: mystery-hand\nplayers: 7 Ben Cleo\ndealer: Cleo\n"
                       "7 asks all 5*: Ben 1, Cleo 0\nBen asks all 5*: 7 1, Cleo 0\n")
    assert [str(s.event) for s in rec.statements] == ["7 asks all 5*: Ben 1, Cleo 0",
                                                      "Ben asks all 5*: 7 1, Cleo 0"]


def test_the_format_sheet_shows_the_counts_without_names():
    from cli.rules import format_sheet

    sheet = format_sheet(get_game("mystery-hand"))
    assert "Cleo asks all 10D-KD: 0 1 0 2\n" in sheet
    assert "player names are not" not in sheet


def test_the_advice_table_aligns_wide_names():
    from types import SimpleNamespace

    from cli.advise import render_advice

    wcwidth = pytest.importorskip("wcwidth")
    acts = [SimpleNamespace(action=a, p_answers={"0": 0.5}, more={}, score=1.0, info_bits=0.5,
                            leak_bits=0.1)
            for a in ("李小龍 asks all 5*", "Jose\u0301 asks Zoë 4H-7H", "Ana asks Ben 9*")]
    adv = SimpleNamespace(actions=acts, view="李小龍", on_turn=True, exact=True, method="",
                          samples=10, notes=[], game="mystery-hand")
    text = render_advice(adv).splitlines()
    rows = [r for r in text if "score" in r] + [r for r in text if re.match(r"^\s+\d+  \S", r)]
    assert len(rows) == 4, text
    # the score column ends at the same screen column in the header and every row
    ends = {wcwidth.wcswidth(r[:r.index("score") + 5]) for r in rows[:1]}
    ends |= {wcwidth.wcswidth(r[:r.index("1.000") + 5]) for r in rows[1:]}
    assert len(ends) == 1, rows


def test_header_me_and_dealer_resolve_a_name_in_another_case():
    from solver.records import parse_record

    rec = parse_record("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: dev\nme: ANA\n")
    assert (rec.header.me, rec.header.dealer) == ("Ana", "Dev")


def test_a_name_typed_in_two_unicode_forms_is_listed_twice():
    from solver.errors import NotationError
    from solver.records import parse_record

    with pytest.raises(NotationError, match="listed twice"):
        parse_record("game: mystery-hand\nplayers: Jos\u00e9 Jose\u0301 Ben Cleo\n")
