"""Greek names in capitals: Greek capitals drop the tonos (and may drop the dialytika), so
``ΒΑΣΙΛΗΣ`` writes ``Βασίλης``; the name key leaves both marks out on Greek letters only,
keeps Turkish i's as before, and two players whose names differ only so are ambiguous."""
import pytest

from solver.errors import NotationError
from solver.records import name_in, name_key, parse_record

HEAD = "game: clue\nplayers: Ана Βασίλης 李 Zoë\nme: Ана\n"


@pytest.mark.parametrize("typed", ["ΒΑΣΙΛΗΣ", "ΒΑΣΊΛΗΣ", "βασιλης", "Βασίλης", "βασίλησ"])
def test_greek_name_in_any_case_writes_the_player(typed):
    rec = parse_record(HEAD + f"{typed} suggests Plum Knife Library: 李 shows\n")
    assert str(rec.statements[0].event).startswith("Βασίλης suggests")


@pytest.mark.parametrize("a,b,same", [
    ("ΒΑΣΙΛΗΣ", "Βασίλης", True),
    ("ΖΩΗ", "Ζωή", True),
    ("ΑΪΔΑ", "Αΐδα", True),           # dialytika and tonos together
    ("ΑΙΔΑ", "Αΐδα", True),
    ("Zoe", "Zoë", False),            # Latin letters keep their marks
    ("JOSE", "José", False),
    ("JOSÉ", "jose\u0301", True),
    ("IŞIK", "işık", True),            # Turkish dotless and dotted i
    ("İŞIK", "Işık", True),
])
def test_name_key(a, b, same):
    assert (name_key(a) == name_key(b)) is same


def test_names_differing_only_by_greek_accents_are_written_exactly():
    names = ("Βασίλης", "Βασιλης", "Ana")
    assert name_in("Βασίλης", names) == "Βασίλης" and name_in("Βασιλης", names) == "Βασιλης"
    with pytest.raises(NotationError, match="ambiguous name: Βασίλης and Βασιλης differ only "
                                            "in case and Greek accents"):
        name_in("ΒΑΣΙΛΗΣ", names)
    with pytest.raises(NotationError) as e:
        parse_record("game: clue\nplayers: Ана Βασίλης Βασιλης Zoë\nme: Ана\n"
                     "ΒΑΣΙΛΗΣ suggests Plum Knife Library: Zoë shows\n")
    assert e.value.line == 4 and "ΒΑΣΙΛΗΣ" in str(e.value)


def test_names_differing_only_in_case_say_so():
    with pytest.raises(NotationError, match=r"IŞIK and Işık differ only in case; "):
        name_in("işık", ("IŞIK", "Işık"))
