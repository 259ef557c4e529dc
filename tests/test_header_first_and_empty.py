"""The header comes first, and a header line says something.

A statement written before the header is complete (``game:`` or ``players:`` after it) is
refused at that statement, quoted, naming the header line that comes too late (it was
cited at line 1 quoting nothing, or at the ``game:`` line).  A header key with nothing
after it (``me:``, ``dealer:``, ``variant:``, a game's own key) is refused with its line
(an empty ``me:`` silently gave the public view), and ``variant:`` naming an option twice
is refused at the second naming."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(cli, list(args))


def error_of(tmp_path, text, *args, command="analyze"):
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    r = run(command, str(path), *args)
    assert r.exit_code == 2, r.output
    return " ".join(r.output.split()).replace(str(path), "g.txt")


@pytest.mark.parametrize("text, where", [
    ("Ana holds: AS 2S\ngame: mystery-hand\nplayers: Ana Ben Cleo\n",
     "g.txt:1:1: this statement comes before the header's 'game:' line (line 2)"),
    ("# my game\nAna holds: AS 2S\ngame: mystery-hand\nplayers: Ana Ben Cleo\n",
     "g.txt:2:1: this statement comes before the header's 'game:' line (line 3)"),
    ("game: mystery-hand\nme: Ana\nAna holds: AS 2S\nplayers: Ana Ben Cleo\n",
     "g.txt:3:1: this statement comes before the header's 'players:' line (line 4)"),
    ("game: mystery-hand\nme: Ana\n  Ana holds: AS 2S\nplayers: Ana Ben Cleo\n",
     "g.txt:3:3: this statement comes before the header's 'players:' line (line 4)"),
])
def test_a_statement_before_the_header_is_complete_is_cited(tmp_path, text, where):
    out = error_of(tmp_path, text)
    assert where + ": the header (game:, players:, ...) comes first: 'Ana holds: AS 2S'" \
        in out, out


def test_a_record_of_statements_only_quotes_its_first(tmp_path):
    out = error_of(tmp_path, "\nAna holds: AS 2S\n")
    assert "g.txt:2:1: the header needs 'game: <name>' before the first event: " \
        "'Ana holds: AS 2S'" in out, out


@pytest.mark.parametrize("sample", sorted(
    str(p.relative_to(ROOT)) for game in ("literature", "clue", "hand", "twenty-two",
                                          "mysterium", "mystery-hand")
    for p in [sorted((ROOT / "samples" / game).glob("*.txt"))[0]]))
def test_every_game_cites_the_first_statement_when_game_comes_last(tmp_path, sample):
    lines = (ROOT / sample).read_text(encoding="utf-8").splitlines()
    game = next(ln for ln in lines if ln.startswith("game:"))
    moved = [ln for ln in lines if ln != game] + [game]
    from solver.games import get_game
    from solver.records import CORE_HEADER_KEYS, strip_comment
    keys = set(CORE_HEADER_KEYS) | set(get_game(game.split(":")[1].strip()).header_keys)
    first = next(i for i, ln in enumerate(moved, 1) if strip_comment(ln)[0]
                 and strip_comment(ln)[0].split(":")[0].strip().lower() not in keys)
    out = error_of(tmp_path, "\n".join(moved) + "\n")
    assert f"g.txt:{first}:1: this statement comes before the header's 'game:' line " \
        f"(line {len(moved)})" in out, out
    assert f": '{strip_comment(moved[first - 1])[0]}'" in out, out


def test_log_cites_the_statement_before_the_header(tmp_path):
    text = "game: mystery-hand\nme: Ana\nAna holds: AS 2S\nplayers: Ana Ben Cleo\n"
    out = error_of(tmp_path, text, "Ben asks Cleo 5*: 1", command="log")
    assert "g.txt:3:1: this statement comes before the header's 'players:' line (line 4)" \
        in out, out
    assert (tmp_path / "g.txt").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("text, where", [
    ("game: mystery-hand\nplayers: Ana Ben Cleo\nme:\n"
     "Ana holds: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H\n",
     "g.txt:3:4: 'me:' is empty: name one of the players (Ana Ben Cleo) or remove the line: "
     "'me:'"),
    ("game: mystery-hand\nplayers: Ana Ben Cleo\n  dealer:   # who?\n",
     "g.txt:3:10: 'dealer:' is empty: name one of the players (Ana Ben Cleo) or remove the "
     "line: 'dealer:'"),
    ("game: mystery-hand\nvariant:\nplayers: Ana Ben Cleo\n",
     "g.txt:2:9: 'variant:' is empty: name the options, write 'variant: standard' or remove "
     "the line: 'variant:'"),
    ("game: mystery-hand\nvariant: ,\nplayers: Ana Ben Cleo\n",
     "g.txt:2:11: 'variant:' is empty"),
    ("game: literature\nplayers: Ana Ben Cleo Dev\nteams:\n",
     "g.txt:3:7: 'teams:' is empty: give its value or remove the line: 'teams:'"),
    ("game: mysterium\nplayers: Gus Ana Ben Cleo\neldest:\n",
     "g.txt:3:8: 'eldest:' is empty: give its value or remove the line: 'eldest:'"),
])
def test_a_header_key_with_no_value_is_refused(tmp_path, text, where):
    out = error_of(tmp_path, text, "--no-exposure")
    assert where in out, out


def test_an_empty_header_list_keeps_its_game_s_own_message(tmp_path):
    out = error_of(tmp_path, "game: clue\nplayers: Ana Ben Cleo\nsuspects:\n")
    assert "'suspects:' lists no card (CL-12)" in out, out


@pytest.mark.parametrize("variant, where, quote", [
    ("sneak, sneak", "g.txt:2:17: sneak given twice (first as 'sneak')", "'sneak'"),
    ("sneak,  Sneak=on", "g.txt:2:18: sneak given twice (first as 'sneak')", "'Sneak=on'"),
    ("sneak, sneak=off", "g.txt:2:17: sneak given twice with different values", "'sneak=off'"),
    ("two-player=seen, two_player = seen", "g.txt:2:27: two-player given twice",
     "'two_player = seen'"),
])
def test_an_option_named_twice_is_refused_at_its_second_naming(tmp_path, variant, where,
                                                               quote):
    out = error_of(tmp_path, f"game: mystery-hand\nvariant: {variant}\nplayers: Ana Ben Cleo\n")
    assert where in out and "an option is named once (MH-" in out and quote in out, out


@pytest.mark.parametrize("variant", ["standard", "sneak", "sneak, keep-em-guessing"])
def test_a_variant_named_once_is_read(tmp_path, variant):
    path = tmp_path / "g.txt"
    path.write_text(f"game: mystery-hand\nvariant: {variant}\nplayers: Ana Ben Cleo\n",
                    encoding="utf-8")
    r = run("analyze", str(path))
    assert r.exit_code == 0, r.output
