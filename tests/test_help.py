"""Help at hand: the rules and the record format ship with the program (``sleuth rules``,
``sleuth format``), every rule an error cites can be read, and every example in every
``--help`` runs."""
from __future__ import annotations

import re
import shutil
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli.main import cli, walk_commands
from solver.errors import SleuthError
from solver.games import games, get_game
from solver.rulebook import game_rules, lookup, rule_ids

ROOT = Path(__file__).resolve().parent.parent


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kw)


# ----- the rules ------------------------------------------------------------------------------
def test_rules_lists_the_games_and_their_rules():
    r = run("rules")
    assert r.exit_code == 0
    for g in games():
        assert g.name in r.output
    r = run("rules", "mystery-hand")
    assert r.exit_code == 0 and "MH-7 The player left of the dealer" in r.output
    assert "A15" in r.output and "E8" in r.output


@pytest.mark.parametrize("rule_id, words", [
    ("MH-7", "The player left of the dealer has the first turn"),
    ("LIT-6(d)", "(d) you do not hold c"),
    ("HR-25", "Table melds are never rearranged"),
    ("TT-10", "Following."),
    ("MY-4", "Psychic cards laid out face up"),
    ("tt-v1", "rasmussen"),
])
def test_rules_prints_one_rule(rule_id, words):
    r = run("rules", rule_id)
    assert r.exit_code == 0, r.output
    assert words in r.output


def test_lettered_rules_are_per_game():
    r = run("rules", "A8")
    with_a8 = [g for g in games() if any(x.id == "A8" for x in game_rules(g.name))]
    assert len(with_a8) >= 2            # several games number their own A8
    assert r.exit_code == 0 and r.output.count("A8 (") == len(with_a8)
    r = run("rules", "literature", "A8")
    assert r.exit_code == 0 and "Challenge" in r.output and "Sneak" not in r.output
    r = run("rules", "MH-99")
    assert r.exit_code == 2 and "no rule numbered so" in r.output


def test_every_game_has_its_rule_file_with_rules_in_order():
    for g in games():
        ids = [r.id for r in game_rules(g.name)]
        main = [int(i.split("-")[1]) for i in ids if re.fullmatch(rf"{g.rule_prefix}-\d+", i)]
        assert main == list(range(1, len(main) + 1)), g.name
        assert len(set(ids)) == len(ids), g.name


_RULE_ARG = re.compile(r"""rule\s*=\s*f?(["'])(.+?)\1""")


def test_every_rule_the_code_cites_can_be_read():
    """Every rule number in a ``rule=`` of the solver is in its game's rule file."""
    missing = []
    for g in games():
        pkg = ROOT / "solver" / g.package
        for path in pkg.rglob("*.py"):
            for m in _RULE_ARG.finditer(path.read_text(encoding="utf-8")):
                for rid in rule_ids(m.group(2)):
                    try:
                        lookup(rid, g.name)
                    except SleuthError:
                        missing.append((str(path.relative_to(ROOT)), rid))
    assert not missing


def test_an_error_that_names_a_rule_says_how_to_read_it(tmp_path):
    runner = CliRunner()
    with runner.isolated_filesystem(temp_dir=tmp_path):
        r = runner.invoke(cli, ["new", "mystery-hand", "g.txt", "--players", "Ana Ben Cleo Dev",
                                "--me", "Ana", "--dealer", "Dev"])
        assert r.exit_code == 0
        r = runner.invoke(cli, ["log", "g.txt", "Ben asks Cleo 4H-7H: 2"])
        assert r.exit_code == 2
        assert "(MH-7)" in r.stderr and "(see: sleuth rules MH-7)" in r.stderr


# ----- the record format ----------------------------------------------------------------------
@pytest.mark.parametrize("name", [g.name for g in games()])
def test_format_examples_parse_for_their_game(name):
    """``sleuth format GAME`` shows a header under which every example statement parses."""
    from cli.rules import example_header

    g = get_game(name)
    assert g.examples, name
    header = example_header(g)
    assert header is not None, f"no sample of {name} takes all its examples"
    for e in g.examples:
        assert str(g.parse_event(e, header)), e
    r = run("format", name)
    assert r.exit_code == 0
    for e in g.examples:
        assert e in r.output
    assert f"game: {name}" in r.output


def test_rule_files_are_shipped_with_the_package():
    from solver import rulebook

    for g in games():
        assert (rulebook.RULEBOOK / f"{g.rules}.md").read_text(encoding="utf-8") == \
            (ROOT / "docs" / "rules" / f"{g.rules}.md").read_text(encoding="utf-8")
    assert (rulebook.RULEBOOK / "record-format.md").exists()


def test_no_reference_outside_the_repository():
    """README, docs and help send the reader to files of the repository."""
    bad = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
                 *sorted((ROOT / "cli").glob("*.py")), *sorted((ROOT / "solver").rglob("*.py"))]:
        if "shared/rules" in path.read_text(encoding="utf-8") or \
                "shared/record-format" in path.read_text(encoding="utf-8"):
            bad.append(str(path.relative_to(ROOT)))
    assert not bad


# ----- every example in every --help runs -----------------------------------------------------
COMMANDS = list(walk_commands())


def test_the_command_table_names_every_command_and_its_module():
    """``sleuth --help`` lists the commands without importing them: the generic verbs from
    ``cli.main.COMMANDS``, a game's own group (named as the game) from its
    ``Game.commands_help``.  They must name exactly the commands the modules define, the
    verbs each with the module that defines it, and the listing must show each line."""
    from cli.main import COMMANDS as TABLE, game_cli

    lines = {name: line for name, (_, line) in TABLE.items()}
    for g in games():
        if game_cli(g) is not None and g.name in cli.commands:   # registered when imported
            assert g.commands_help, f"{g.name}: its command group is not listed"
        if g.commands_help:
            assert g.name in cli.commands, f"{g.name}: listed, but cli.{g.package} has no group"
            assert cli.commands[g.name].callback.__module__ == f"cli.{g.package}"
            lines[g.name] = g.commands_help
    ctx = click.Context(cli)
    defined = {name: cli.get_command(ctx, name) for name in cli.list_commands(ctx)}
    assert set(defined) == set(lines) == set(cli.commands)
    for name, cmd in defined.items():
        assert name not in TABLE or cmd.callback.__module__ == TABLE[name][0], name
        assert cmd.get_short_help_str(80) == lines[name], name
    listing = run("--help").output
    for name, line in lines.items():
        assert re.search(rf"^  {name} +{re.escape(line)}$", listing, re.M), name


def help_text(path) -> str:
    r = run(*path, "--help")
    assert r.exit_code == 0, r.output
    return r.output


def examples(text: str) -> list[list[str]]:
    """The example commands of a help text: lines starting with ``sleuth `` (a trailing
    backslash continues one on the next line), as argument lists."""
    out, cur = [], None
    for raw in text.splitlines():
        line = raw.strip()
        if cur is not None:
            cur += " " + line
        elif line.startswith("sleuth "):
            cur = line
        else:
            continue
        if cur.endswith("\\"):
            cur = cur[:-1].rstrip()
            continue
        out.append(shlex.split(cur, comments=True)[1:])
        cur = None
    return out


def test_examples_are_found():
    assert ["rules", "MH-7"] in examples(help_text(("rules",)))
    joined = examples("  sleuth hand best \"2H 3H\" -i 7C \\\n    --top 3\n")
    assert joined == [["hand", "best", "2H 3H", "-i", "7C", "--top", "3"]]


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "sleuth")
def test_every_help_example_runs(path, tmp_path, monkeypatch):
    """Each example runs, in order, in a directory holding a copy of the samples."""
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    for args in examples(help_text(path)):
        r = CliRunner().invoke(cli, args, input="")
        assert r.exit_code == 0, f"sleuth {shlex.join(args)}\n{r.output}"


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "sleuth")
def test_every_command_and_option_has_help(path):
    cmd = dict(COMMANDS)[path]
    assert (cmd.help or "").strip(), f"{path} has no help"
    for p in cmd.params:
        if isinstance(p, click.Option):
            assert (p.help or "").strip(), f"{' '.join(path)} {p.opts} has no help"


@pytest.mark.parametrize("typed, meant", [("anlyze", "analyze"), ("reveiw", "review"),
                                          ("Hand", "hand"), ("lgo", "log")])
def test_a_mistyped_command_is_named(typed, meant):
    """A command that does not exist exits 2, naming the closest ones (from the command
    table and the games' groups, without importing them)."""
    r = CliRunner().invoke(cli, [typed, "x"])
    assert r.exit_code == 2
    assert f"No such command {typed!r}; did you mean {meant}" in r.output
    r = CliRunner().invoke(cli, ["xyzzy"])
    assert r.exit_code == 2 and "No such command 'xyzzy'." in r.output


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "sleuth")
def test_no_help_line_has_lost_its_break(path):
    """A help text's own lines (before the options) never run on with a gap of spaces
    (an aligned ``# comment`` aside): the mark of a docstring line ending in a lone
    backslash, which Python joins to the next (a shown continuation is written with
    two)."""
    text = help_text(path).split("\nOptions:")[0]
    for line in text.splitlines():
        assert not re.search(r"\S {5,}[^#\s]", line), f"{' '.join(path)}: {line.strip()!r}"


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "sleuth")
def test_every_help_example_fits_80_columns(path, tmp_path, monkeypatch):
    """What each example prints (its text, not JSON) fits 80 columns (README: the sheets
    fit 80 columns; a wider table is laid out a row at a time, a long line broken)."""
    from wcwidth import wcswidth

    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    for args in examples(help_text(path)):
        if "--json" in args:
            continue
        r = CliRunner().invoke(cli, args, input="")
        wide = [ln for ln in r.output.splitlines() if wcswidth(ln) > 80]
        assert not wide, f"sleuth {shlex.join(args)}: {wide}"


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS if p != ("serve",)],
                         ids=lambda p: " ".join(p) or "sleuth")
def test_every_command_has_a_worked_example(path):
    """docs/session.md: every command's --help has a worked example (a line that runs:
    the test above runs it).  ``serve``'s examples serve until Ctrl-C: they are shown
    with a prompt, not run."""
    assert examples(help_text(path)), f"sleuth {' '.join(path)} --help has no example"


def test_a_lettered_rule_hint_names_the_game_that_numbers_it(tmp_path):
    """A4 or A10 is numbered in several games: the hint names the record's game, so that
    the command it suggests prints that rule alone (it listed every game's A4)."""
    runner = CliRunner()
    rec = tmp_path / "my.txt"
    head = open(ROOT / "samples/mysterium/five-players-won.txt", encoding="utf-8")
    rec.write_text("".join(head.readlines()[:15]), encoding="utf-8")
    r = runner.invoke(cli, ["log", str(rec), "Ana agrees with Ana"])
    assert r.exit_code == 2
    assert "(A4)" in r.stderr and "(see: sleuth rules mysterium A4)" in r.stderr
    shown = runner.invoke(cli, ["rules", "mysterium", "A4"])
    assert shown.exit_code == 0 and "numbered in" not in shown.output
    r = runner.invoke(cli, ["new", "hand", str(tmp_path / "h.txt"), "--players",
                            "Ana Ben Cleo Dev", "--variant", "ace-group-only-runs=high",
                            "--dealer", "Ana"])
    assert r.exit_code == 2 and "(see: sleuth rules hand A10)" in r.stderr


@pytest.mark.parametrize("words, out, near", [
    (["hand-rummy"], "Hand (docs/rules/hand-rummy.md)", None),     # the rules file's name
    (["hand-rummy", "HR-7"], "HR-7 Indicator", None),
    (["mystery"], None, "mystery-hand"),                              # the start of a name
    (["cluedo"], None, "clue"),                                       # nearly spelt
    (["EX-A"], "EX-A", None),                                         # still rule numbers
])
def test_rules_takes_the_rules_file_name_and_suggests_a_game(words, out, near):
    r = CliRunner().invoke(cli, ["rules", *words])
    if out is not None:
        assert r.exit_code == 0 and out in r.output, r.output
    else:
        assert r.exit_code == 2
        assert "expected a game (mystery-hand | literature" in r.stderr
        assert f"did you mean: {near}" in r.stderr
