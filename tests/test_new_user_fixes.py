"""What a new user met following the README and the docs: a view that cannot be analysed was
accepted by play and serve (then every statement said "no analysis" and asked for a hand that
would not help); replay put an inconsistent step's conflict under "became certain", cut;
``why`` had no ``--json``; ``log --replace`` of a comment alone printed the same line twice;
the Hand format's scoresheet lines did not make one game."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli

HEAD = "game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
TOUR = HEAD + ("Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n"
               "Ana asks Ben 4H-7H: 4H 7H\n"
               "Ben asks all 6*: Ana 1, Cleo 1, Dev 2\n"
               "Ben requests KS: nobody\n")


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_play_and_serve_refuse_a_view_the_record_cannot_give(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(TOUR, encoding="utf-8")
    before = p.read_text(encoding="utf-8")
    for args in (("play", str(p), "--as", "Ben"), ("serve", str(p), "--port", "0", "--as", "ben")):
        r = run(*args, input="Ben holds: AS 2S 3S 4S 7S 8S 9S 10S JS QS 4H 7H\n")
        assert r.exit_code == 2, (args, r.output)
        assert "only the record's own view ('me: Ana') or the public view" in r.stderr
        assert r.stderr.rstrip().endswith("'Ben'")
        assert "no analysis" not in r.output
    assert p.read_text(encoding="utf-8") == before         # nothing logged
    # the views it can give: the record's own and the public one
    r = run("play", str(p), "--as", "public", "--no-sheet", input="")
    assert r.exit_code == 0 and "view: public" in r.output
    r = run("play", str(p), "--as", "ana", "--no-sheet", input="")
    assert r.exit_code == 0 and "view: Ana" in r.output


def test_a_complete_record_may_be_played_from_any_view(tmp_path):
    from solver.mystery_hand.simulate import simulate
    from solver.records import write_record

    p = tmp_path / "c.txt"
    rec = simulate(4, [], 3)
    p.write_text(write_record(rec), encoding="utf-8")
    other = next(q for q in rec.header.players if q != rec.header.me)
    r = run("play", str(p), "--as", other, "--no-sheet", input="")
    assert r.exit_code == 0, r.output
    assert f"view: {other}" in r.output


def test_replay_says_an_inconsistent_step_whole_and_as_such(tmp_path):
    p = tmp_path / "inc.txt"
    p.write_text(TOUR + "Cleo requests KS: Ben\n", encoding="utf-8")
    r = run("replay", str(p))
    assert r.exit_code == 3
    out = r.stdout.split("\n")
    at = next(i for i, ln in enumerate(out) if "Cleo requests KS: Ben" in ln)
    rest = out[at + 1:]
    said = " ".join(ln.strip() for ln in rest[:rest.index("")])     # the step's whole cell
    whole = (f"no analysis: {p}:9:1: these 2 statements cannot all be true: line 8 says KS "
             "is not in Ben's hand; line 9 says it is (E4)")
    assert said.replace(" ", "").startswith(whole.replace(" ", "")), said  # a long path wraps
    assert not any("became certain: error" in ln for ln in out)
    assert "…" not in said
    assert all(len(ln) <= 80 for ln in out)


def test_why_has_json(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(TOUR, encoding="utf-8")
    r = run("why", str(p), "KS", "--json")
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    assert d == {"card": "KS", "summary": "certainly in the mystery hand",
                 "reasons": [{"fact": "KS is in the mystery hand", "lines": [8],
                              "statements": ["Ben requests KS: nobody"]}]}
    p.write_text(TOUR + "Cleo requests KS: Ben\n", encoding="utf-8")
    r = run("why", str(p), "KS", "--json")
    assert r.exit_code == 3
    assert json.loads(r.stdout) == {"consistent": False, "conflict": [8, 9]}


def test_log_replace_says_a_changed_comment(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(TOUR, encoding="utf-8")
    hand = "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC"
    r = run("log", str(p), "--replace", "5", f"{hand}   # checked")
    assert r.exit_code == 0
    assert r.output.split("\n")[:2] == [f"replaced line 5: {hand}",
                                        f"      with: {hand}   # checked"]
    assert p.read_text(encoding="utf-8").split("\n")[4] == f"{hand}   # checked"


def test_the_hand_formats_scoresheet_lines_make_one_game(tmp_path):
    """`sleuth format hand` lists its round lines in order: under its header they are a game
    that `hand score` accepts (HR-5: the worst score deals next, the same dealer after an
    unscored deal; HR-36: an unscored deal does not take a round's number)."""
    from solver.games import get_game

    g = get_game("hand")
    r = run("format", "hand")
    header = [ln.strip() for ln in r.output.split("\n") if ln.strip().startswith(
        ("game:", "variant:", "players:", "dealer:"))]
    rounds = [e for e in g.examples if e.startswith("round ")]
    assert len(rounds) >= 3
    p = tmp_path / "s.txt"
    p.write_text("\n".join(header + rounds) + "\n", encoding="utf-8")
    r = run("hand", "score", str(p))
    assert r.exit_code == 0, r.output + r.stderr


def test_another_view_of_a_spectators_record_says_to_add_me(tmp_path):
    """A record started without ``--me``: ``--as Ana`` is refused, and the refusal says how
    to make it Ana's record (it said only that a complete record is needed)."""
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path / "g.txt"
    path.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
                    "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n")
    r = CliRunner().invoke(cli, ["suggest", str(path), "--as", "Ana"])
    assert r.exit_code == 2
    assert "add 'me: Ana' to its header" in r.output, r.output
