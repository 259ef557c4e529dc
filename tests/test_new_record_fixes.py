"""``sleuth new`` (and the New game form, which writes through the same
:func:`solver.records.start_record`): a '#' in a header value would make the rest of its
line a comment, so it is refused before anything is written; a key the game has no header
line for is named as such; an option given twice is written once.  And a command a game
cannot do names the games that can."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("args", [
    ("clue", "--players", "Ana Ben Cleo Dev#x"),
    ("clue", "--players", "Ana Ben#x Cleo"),
    ("mystery-hand", "--players", "Ana Ben Cleo Dev", "--me", "Ana #x"),
])
def test_a_hash_in_a_header_value_is_refused_and_nothing_written(tmp_path, args):
    """'Dev#x' was written as 'players: Ana Ben Cleo Dev#x', read back as the players Ana,
    Ben, Cleo and Dev, and reported as started."""
    path = tmp_path / "g.txt"
    r = run("new", args[0], str(path), *args[1:])
    assert r.exit_code == 2, r.output
    assert "'#' starts a comment in a record" in r.output and "nothing was written" in r.output
    assert not path.exists()


def test_an_unknown_header_key_is_named(tmp_path):
    path = tmp_path / "g.txt"
    r = run("new", "hand", str(path), "--players", "Ana Ben Cleo", "--header", "foo=bar")
    assert r.exit_code == 2 and not path.exists()
    assert "not a header key of hand (its header keys: dealer, game, me, players, teams, " \
           "variant); nothing was written: 'foo'" in " ".join(r.output.split())


def test_an_option_given_twice_is_refused(tmp_path):
    """As on the header's 'variant:' line (record-format.md: an option is named once)."""
    path = tmp_path / "g.txt"
    r = run("new", "mystery-hand", str(path), "--players", "Ana Ben Cleo Dev",
            "--variant", "no-exact-request, no-exact-request")
    assert r.exit_code == 2 and not path.exists()
    assert "no-exact-request given twice" in r.output


def test_a_game_without_an_advisor_names_those_with_one():
    r = run("review", "samples/hand/round-complete.txt")
    assert r.exit_code == 2
    assert "this game has no advisor (the games with one: mystery-hand, literature, clue)" \
        in r.output
