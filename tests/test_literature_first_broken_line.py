"""Literature: of several statements that break a rule, the error names the first, also
when the first breaks LIT-6(c)/(d) against a hand the record shows (a ``holds`` line) and a
later one breaks a rule the public replay sees."""
import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import RuleError
from solver.records import parse_record

HEAD = """game: literature
players: Ana Ben Cleo Dev Eli Fay
me: Ana
Ana holds: 2H 3H 4H 5H 6H 7H 9S 10S
"""

CASES = [
    # (the two statements after the header, the message of line 5, its rule)
    (["Ana asks Ben 9S: no", "Ben asks Dev 3D: no"], "Ana holds 9S", "LIT-6(d)"),
    (["Ana asks Ben 9S: yes", "Ana asks Ben 9S: yes"], "Ana holds 9S", "LIT-6(d)"),
    (["Ana asks Ben 9D: no", "Ben asks Dev 3D: no"], "Ana holds no card of 9D-AD",
     "LIT-6(c)"),
]


@pytest.mark.parametrize("body,message,rule", CASES)
def test_first_broken_statement_is_named(body, message, rule):
    text = HEAD + "".join(f"{s}\n" for s in body)
    with pytest.raises(RuleError) as e:
        parse_record(text)
    assert e.value.line == 5, str(e.value)
    assert message in str(e.value) and e.value.rule == rule and body[0] in str(e.value)


@pytest.mark.parametrize("body,message,rule", CASES)
def test_analyze_names_line_5(tmp_path, body, message, rule):
    p = tmp_path / "l12.txt"
    p.write_text(HEAD + "".join(f"{s}\n" for s in body))
    r = CliRunner().invoke(cli, ["analyze", str(p)], catch_exceptions=False)
    assert r.exit_code == 2, r.output
    assert "l12.txt:5:1:" in r.output and f"({rule})" in r.output and repr(body[0]) in r.output
    assert "Traceback" not in r.output


def test_a_later_public_breach_alone_is_still_named():
    with pytest.raises(RuleError) as e:
        parse_record(HEAD + "Ana asks Ben JS: no\nBen asks Dev 3D: no\n")
    assert e.value.line == 6 and e.value.rule == "LIT-6(a)"
