"""The Literature sheet's heading says which figures are estimates."""
from __future__ import annotations


def test_the_text_says_only_the_team_chances_are_estimates_when_the_cards_are_exact(tmp_path):
    """One unheard card: the card figures are exact over the courses (docs/literature.md,
    "Few courses: exact"), only the team chances may be estimates; the text's heading says
    so instead of calling every probability an estimate."""
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path / "L.txt"
    path.write_text("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
                    "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\nAna asks Ben 10S: no\n"
                    "Ben asks Cleo ?: yes\n")
    out = CliRunner().invoke(cli, ["analyze", str(path)]).output
    assert "The card probabilities are exact; the team chances are estimates" in out, out
    assert "Probabilities are estimates" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
