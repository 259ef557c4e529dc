"""Mysterium with unseen turns (``P: ?``): ``sleuth play``'s short sheet and the
``replay``/``whatif`` summary state only what holds in every filling of the unseen turns,
as the whole report does, and give the rest with its chance (or as unsure)."""
from __future__ import annotations

from click.testing import CliRunner

from cli.main import cli
from solver.records import parse_record

# the text report's records: Ana-1 found a character in hour 2 (unseen which), her location
# guess in hour 3 was revealed unseen (right in a quarter of the fillings)
from tests.test_mysterium_text_fixes import HEAD, M1


def _sheet(text: str, width: int = 79) -> str:
    from cli.play_sheets import mysterium
    from solver.mysterium.analysis import analyze

    return mysterium(analyze(parse_record(text), None), width)


def _rows(sheet: str) -> dict[str, list[str]]:
    """The short sheet's table: each psychic's rows, each row its cells (the lines of a
    wrapped cell joined) joined by spaces."""
    import re

    lines = sheet.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("psychic "))
    spans = [m.span() for m in re.finditer(r"-+", lines[at + 1])]
    spans[-1] = (spans[-1][0], None)
    rows: list[tuple[str, list[str]]] = []
    for ln in lines[at + 2:]:
        if ln.startswith("need/left"):
            break
        cells = [ln[a:b].strip() for a, b in spans]
        if cells[0]:
            rows.append((cells[0], cells))
        else:
            rows[-1] = (rows[-1][0], [" ".join(x for x in (old, new) if x)
                                      for old, new in zip(rows[-1][1], cells)])
    out: dict[str, list[str]] = {}
    for name, cells in rows:
        out.setdefault(name, []).append(" ".join(c for c in cells if c))
    return out


def test_the_play_sheet_gives_each_stage_of_a_psychic_its_chance():
    """Ana-1 is at her location in 75% of the fillings, at her object in 25%: a row each,
    with its chance, its need/left; not one row of the likeliest filling as if certain."""
    rows = _rows(_sheet(M1))
    assert len(rows["Ana-1"]) == 2, rows
    loc, obj = rows["Ana-1"]
    assert loc.startswith("Ana-1 location ") and loc.endswith(" 2/4 at risk 75.0%"), loc
    assert obj.startswith("Ana-1 object ") and obj.endswith(" 1/4 at risk 25.0%"), obj
    # the location guess 6 is wrong only in the fillings where it was revealed wrong
    assert "wrong 6 (75.0%)" in loc and "found 6 (25.0%)" in loc, loc
    assert "1 4 8 12 18 (20.0% each)" in obj, obj
    # Ana-2 is at her location in every filling: one row, no chance
    assert rows["Ana-2"] == ["Ana-2 location 4 12 14 (33.3% each); wrong 6 8 2/4 at risk "
                             "certain"]


def test_the_play_sheet_note_says_every_cell_holds_in_every_filling():
    text = " ".join(_sheet(M1).split())
    assert "a cell states only what holds in every filling" in text
    assert "likeliest filling" not in text


def test_the_play_sheet_of_a_narrow_screen_keeps_the_chances():
    text = " ".join(_sheet(M1, 40).split())
    assert "psychic Ana-1: stage location;" in text and "at risk; chance 75.0%" in text, text
    assert "psychic Ana-1: stage object;" in text and "at risk; chance 25.0%" in text, text
    assert "need/left 1/4" in text and "wrong 6 (75.0%)" in text


def test_the_replay_summary_says_only_what_holds_in_every_filling():
    from solver.mysterium.game import MysteriumGame

    game = MysteriumGame()
    k = game.knowledge(parse_record(M1), None)
    ana1, ana2 = k.summary["psychics"]["Ana-1"], k.summary["psychics"]["Ana-2"]
    assert ana1 == {"stage": "?", "candidates": "?", "forced": None, "needed": None,
                    "guesses_left": 4}
    assert ana2 == {"stage": "location", "candidates": 3, "forced": None, "needed": 2,
                    "guesses_left": 4}
    assert k.summary["hour"] == 3 and k.summary["phase"] == "investigation"
    # after Ana-2's unseen turn of hour 1: Ana-1 is at her character in every filling, its
    # count of candidates differs (Ana-2 may have found one of them)
    first = parse_record(HEAD + "hour 1\nAna-1 guesses character 1: wrong\nAna-2: ?\n")
    s = game.knowledge(first, None).summary["psychics"]
    assert s["Ana-1"]["stage"] == "character" and s["Ana-1"]["candidates"] == "4?"
    assert s["Ana-2"]["stage"] == "?"


def test_replay_shows_no_stage_the_unseen_turns_leave_open(tmp_path):
    path = tmp_path / "m1.txt"
    path.write_text(M1, encoding="utf-8")
    out = CliRunner().invoke(cli, ["replay", str(path)]).output
    last = out[out.rfind("Ana-2 guesses location 8: wrong"):]
    assert "Ana-1 ?:? Ana-2 loc:3" in last, out
    assert "Ana-1 loc:5 Ana-2 loc:3" not in out
    assert "Ana-1 cha:4? Ana-2 ?:?" in out, out


def test_a_record_without_unseen_turns_keeps_its_summary():
    from solver.mysterium.game import MysteriumGame

    text = HEAD + "hour 1\nAna-1 guesses character 1: wrong\nAna-2 guesses character 8: right\n"
    s = MysteriumGame().knowledge(parse_record(text), None).summary
    assert s["psychics"]["Ana-1"] == {"stage": "character", "candidates": 3, "forced": None,
                                      "needed": 3, "guesses_left": 6}
    assert s["psychics"]["Ana-2"]["stage"] == "location"
    rows = _rows(_sheet(text))
    assert rows["Ana-1"][0].startswith("Ana-1 character 9 12 14 (33.3% each); wrong 1"), rows


def test_a_course_chance_is_not_given_to_a_certain_stage():
    """Ana is certainly at her character stage; two courses of Cleo's unseen turn differ only
    in Ana's clock (7 or 6 guesses left): the chance is the course's, in a column of its own,
    never written after the stage as if the stage were uncertain."""
    from cli.play_sheets import mysterium
    from solver.mysterium.analysis import analyze

    text = ("game: mysterium\nplayers: Gus Ana Ben Cleo\nghost: Gus\nme: Ana\n"
            "table character: 2 5 7 9 11 14\ntable location: 1 3 6 8 10 13\n"
            "table object: 3 4 8 12 15 16\nhour 1\nAna receives 2 visions\n"
            "Ben receives 1 vision\nCleo: ?\nAna guesses character 7\n"
            "Ben guesses character 7: wrong\n")
    a = analyze(parse_record(text), "Ana")
    for width in (79, 60):
        sheet = " ".join(mysterium(a, width).split())
        assert "character 96.7%" not in sheet and "character 3.3%" not in sheet, sheet
        assert "96.7%" in sheet and "3.3%" in sheet
