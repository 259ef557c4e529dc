"""What a new user of the record format and of ``sleuth`` meets first, and what an
acceptance check of the contract (record-format.md) would try: an error names the file, line
and column of the offending text and quotes it; a statement of the contract is accepted in
every game it names (Clue's ``turn:``), card lists and names of any script; the commands the
help, the messages and the docs show run as shown; exit statuses as documented (3 for a
contradiction in ``review`` too); nothing is written to a file called ``-``.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.errors import SleuthError
from solver.records import parse_record

ROOT = Path(__file__).resolve().parent.parent
MH = "game: mystery-hand\nvariant: sneak\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\ndealer: Ana\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")
CLUE = "game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"


# ----- the column points at the offending token -------------------------------------------
# The quoted token also occurs earlier in the line, inside a longer word (the range 4H-7H,
# the card Knife): the column is the token's own, not that earlier occurrence's.
@pytest.mark.parametrize("head, line, token, message", [
    (MH, "Ana asks Ben 4H-7H: 4H 7", "7", "expected the answer"),
    (MH, "Ana asks Ben 4H-7H: 4H H", "H", "expected the answer"),
    (MH, "Ana asks all 4H-7H: Ben 1, Cleo 4H, Dev 0", "4H,", "expected a count"),
    (MH, "Ana requests 4H: 4", "4", "not a player"),
    (LIT, "Ana asks Ben 9S: 9", "9", "yes or no"),
    (LIT, "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H 2", "2", "a card or a player"),
    (LIT, "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7, Cleo 5H", "7,", "a card or a player"),
    (CLUE, "Ana suggests Plum Knife Library: Ben shows Knif", "Knif", "not a card"),
], ids=lambda v: v.split("\n", 1)[0] if "\n" in v else None)
def test_the_column_is_the_quoted_tokens_own(head, line, token, message):
    with pytest.raises(SleuthError, match=message) as e:
        parse_record(head + line + "\n", "g.txt")
    err = e.value
    assert (err.path, err.line) == ("g.txt", head.count("\n") + 1)
    # the last whole-word occurrence in these lines is the offending one
    words = line.split(" ")
    col = len(" ".join(words[:len(words) - 1 - words[::-1].index(token)])) + 2
    assert err.column == col, (str(err), col)
    assert str(err).startswith(f"g.txt:{err.line}:{col}: ")


def test_a_card_shown_twice_is_said_so_at_the_card():
    """Not 'expected the answer: a count...' pointing into the range; at the second copy,
    the one that is listed twice (tests/test_error_columns_aliases.py: as typed)."""
    with pytest.raises(SleuthError) as e:
        parse_record(MH + "Ana asks Ben 4H-7H: 4H 4H\n", "g.txt")
    assert str(e.value) == ("g.txt:5:24: 4H is listed twice: expected each card once, as the "
                            "one deck has it (MH-1): '4H'")


@pytest.mark.parametrize("line, column, quoted", [
    ("Ana asks Ben 4H-7H:", 20, "''"),                 # after the colon, where it was due
    ("Ana asks Ben 4H-7H:   # not heard", 20, "''"),
    ("Ana asks Ben 4H-7H: ,", 21, "','"),              # a lone comma shows no card
    ("Ana holds:", 11, "''"),
])
def test_a_missing_answer_is_refused_where_it_was_due(line, column, quoted):
    with pytest.raises(SleuthError) as e:
        parse_record(MH + line + "\n", "g.txt")
    assert str(e.value).startswith(f"g.txt:5:{column}: expected ")
    assert str(e.value).endswith(f": {quoted}")


# ----- what the help and the messages tell a user to type is valid shell --------------------
def _shell_operators(command: str) -> list[str]:
    """The shell operators (``(``, ``)``, ``;``, ``|``, ``&``, ``<``, ``>``) outside quotes
    in ``command``: a command typed as shown would be a syntax error or something else."""
    lex = shlex.shlex(command, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    return [t for t in lex if t and set(t) <= set("();|&<>")]


def test_the_help_examples_are_typed_as_shown():
    from tests.test_help import COMMANDS, help_text

    for path, _ in COMMANDS:
        for line in help_text(path).splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("sleuth "):
                assert not _shell_operators(line.rstrip("\\")), (path, line)


@pytest.mark.parametrize("rule, typed", [
    ("LIT-6(d)", "'LIT-6(d)'"), ("LIT-13(b), O1", "'LIT-13(b)'"), ("MH-7", "MH-7")])
def test_the_rule_a_message_cites_can_be_read_as_the_message_says(rule, typed):
    from cli.main import rule_hint
    from solver.errors import RuleError

    hint = rule_hint(RuleError("a bad question", rule=rule, text="x"))
    assert f"sleuth rules {typed}" in hint
    for command in re.findall(r"sleuth rules [^;)]+(?:\)')?", hint):
        assert not _shell_operators(command), command
        r = CliRunner().invoke(cli, shlex.split(command)[1:])
        assert r.exit_code == 0 and rule.split("(")[0] in r.output, r.output


@pytest.mark.parametrize("typed", ["LIT-6d", "lit-6D", "LIT-6(d)", "lit6d"])
def test_a_lettered_part_may_be_typed_without_parentheses(typed):
    r = CliRunner().invoke(cli, ["rules", typed])
    assert r.exit_code == 0, r.output
    assert "LIT-6(d): (d) you do not hold c." in r.output


# ----- Clue: the number of players, card lists of any script --------------------------------
SMALL = "suspects: S1 S2 S3\nweapons: W1 W2\nrooms: R1 R2\n"        # 4 cards are dealt


@pytest.mark.parametrize("extra, n, refused", [
    ("", 2, "Clue is played by 3 to 6 players, not 2 (CL-1)"),
    ("", 3, None), ("", 6, None),
    ("", 7, "Clue is played by 3 to 6 players, not 7 (CL-1)"),
    (SMALL, 2, "3 to 4 players with these 4 cards outside the case file, not 2"),
    (SMALL, 4, None),
    (SMALL, 5, "3 to 4 players with these 4 cards outside the case file, not 5"),
])
def test_clue_is_played_by_three_to_six_or_as_many_as_the_cards_allow(extra, n, refused):
    players = " ".join(["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus"][:n])
    text = f"game: clue\nplayers: {players}\n{extra}"
    if refused is None:
        assert parse_record(text).header.players == tuple(players.split())
        return
    with pytest.raises(SleuthError) as e:
        parse_record(text, "g.txt")
    assert refused in str(e.value) and e.value.rule.startswith("CL-1")
    assert str(e.value).startswith("g.txt:2:10: ") and str(e.value).endswith(f"'{players}'")


DECK = "suspects: Señora Müller Øst 王\nweapons: Messer Seil\nrooms: Küche Salón Halle\n"


def test_clue_card_lists_of_any_script_are_read_in_any_case_and_written_as_listed(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("game: clue\nplayers: Ána Ben Cleo\nme: ána\n" + DECK
                    + "ÁNA holds: señora SEIL\n"
                    + "ána suggests MÜLLER messer Salo\u0301n: nobody\n"  # decomposed ó
                    + "Ben suggests 王 Messer KÜCHE: nobody\n", encoding="utf-8")
    rec = parse_record(path.read_text(encoding="utf-8"))
    assert [str(s.event) for s in rec.statements] == [
        "Ána holds: Señora Seil", "Ána suggests Müller Messer Salón: nobody",
        "Ben suggests 王 Messer Küche: nobody"]
    r = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert list(got["cards"]) == "Señora Müller Øst 王 Messer Seil Küche Salón Halle".split()
    assert got["cards"]["Messer"] == {"envelope": 1.0} and got["view"] == "Ána"
    assert "王" in r.stdout                        # written as it is, not escaped


@pytest.mark.parametrize("word", ["Señ.ora", "2Küche", "Kü:che", "Kü!che", "\u0301Salon"])
def test_other_card_words_are_refused(word):
    with pytest.raises(SleuthError, match="a card is one word of letters") as e:
        parse_record(f"game: clue\nplayers: Ana Ben Cleo\nrooms: Hall {word}\n", "g.txt")
    assert e.value.rule == "CL-12"


# ----- a time-out still names its game and view ----------------------------------------------
@pytest.mark.parametrize("view, name", [((), "Ana"), (("--as", "public"), None)])
def test_an_analysis_out_of_time_says_which_game_and_view(monkeypatch, view, name):
    """Before the analysis has established anything, exit 4's JSON names the record's game
    and the view (it said "game": null)."""
    from solver.games import get_game
    from solver.model.budget import TimeUp

    def out_of_time(self, record, view, **kw):
        raise TimeUp(0.5, "the probabilities")

    # (on the class: patching the registry's instance would leave a bound method behind)
    monkeypatch.setattr(type(get_game("mystery-hand")), "analyze", out_of_time)
    r = CliRunner().invoke(cli, ["analyze", str(ROOT / "samples/mystery-hand/five-players-ana.txt"),
                                 "--json", *view])
    assert r.exit_code == 4, r.output
    got = json.loads(r.stdout)
    assert (got["game"], got["view"]) == ("mystery-hand", name)
    assert got["unfinished"]["certainties"] == "none"


# ----- a header line after the first statement -----------------------------------------------
@pytest.mark.parametrize("head, late", [
    (CLUE, "variant: refute=all"), (CLUE, "ME: Ana"), (CLUE, "rooms: Hall Study Attic"),
    (MH, "dealer: Ana"),
    (LIT, "teams: Ana Cleo Eli / Ben Dev Fay"),
])
def test_a_late_header_line_is_said_to_be_one(head, late):
    """Not 'not a Clue statement; expected one of ...': the header comes first."""
    first = head.count("\n") + 1
    text = head + "Ana: ?\n" + late + "\n"
    with pytest.raises(SleuthError) as e:
        parse_record(text, "g.txt")
    key = late.split(":")[0].lower()
    first_statement = next(i for i, ln in enumerate(text.splitlines(), 1)
                           if not ln.startswith(("game:", "players:", "dealer:", "me:",
                                                 "variant:")))
    assert str(e.value) == (f"g.txt:{first + 1}:1: '{key}:' is a header line, and the header "
                            f"comes before the first statement (line {first_statement}): "
                            f"{late!r}")


def test_a_player_called_like_a_header_key_still_takes_turns():
    rec = parse_record("game: mystery-hand\nplayers: Ana Ben Me\nAna: ?\nBen: ?\nme: ?\n")
    assert [str(s.event) for s in rec.statements] == ["Ana: ?", "Ben: ?", "Me: ?"]


# ----- Clue: 'turn: P', every game's resynchronisation ----------------------------------------
def test_clue_accepts_turn_but_not_for_a_player_who_is_out(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(CLUE + "Ana holds: Scarlet Rope Kitchen Hall Study\nturn: ben\n"
                    "Ben suggests Plum Knife Library: nobody\n"
                    "Dev accuses Green Wrench Study: wrong\n", encoding="utf-8")
    assert str(parse_record(path.read_text()).statements[1].event) == "turn: Ben"
    r = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert r.exit_code == 0, r.output
    assert set(json.loads(r.stdout)["cards"]["Plum"]) == {"Ben", "envelope"}   # E2
    with pytest.raises(SleuthError) as e:
        parse_record(path.read_text() + "turn: Dev\n", "g.txt")
    assert str(e.value).startswith("g.txt:9:7: Dev is out after a wrong accusation")
    assert e.value.rule == "CL-9"


@pytest.mark.parametrize("game, players, line", [
    ("hand", "Ana Ben Cleo", "hello world"),     # 'turn: Ben', 'Ben: ?': test_hand_unseen.py
    ("twenty-two", "Ana Ben Cleo", "hello world"),   # 'turn: Ben': test_twenty_two_unseen.py
])
def test_a_line_of_no_statement_is_said_to_be_none(game, players, line):
    """Not 'not a player of this record: 'turn:''."""
    from solver.games import get_game

    with pytest.raises(SleuthError) as e:
        parse_record(f"game: {game}\nplayers: {players}\n{line}\n", "g.txt")
    assert str(e.value).startswith(f"g.txt:3:1: expected a {get_game(game).title} statement")
    assert str(e.value).endswith(repr(line))


@pytest.mark.parametrize("command", ["suggest", "review"])
@pytest.mark.parametrize("sample, view", [
    ("mystery-hand/five-players-ana.txt", ("--as", "public")),
    ("clue/four-players-ana.txt", ("--as", "PUBLIC")),
])
def test_the_advisor_on_the_public_view_quotes_the_view(command, sample, view):
    """It quoted 'None'."""
    r = CliRunner().invoke(cli, [command, str(ROOT / "samples" / sample), *view])
    assert r.exit_code == 2
    assert r.stderr.strip().endswith(f"needs a player's view (--as P, or 'me:' in the "
                                     f"record): '{view[1]}'"), r.stderr


def test_a_suit_typed_on_an_emoji_keyboard_is_the_suit():
    """A phone's emoji keyboard types a heart as U+2665 U+FE0F (♥️)."""
    vs = "\ufe0f"
    rec = parse_record(MH + f"Ana asks Ben 4♥{vs}-7♥{vs}: 4♥{vs}, 6\u2665\ufe0e\n"
                       f"Ben requests Q♠{vs}: nobody\n")
    assert [str(s.event) for s in rec.statements] == ["Ana asks Ben 4H-7H: 4H 6H",
                                                      "Ben requests QS: nobody"]
    with pytest.raises(SleuthError) as e:
        parse_record(MH + f"Ana asks Ben 4♥{vs}-8♥{vs}: 1\n", "g.txt")
    assert str(e.value).startswith("g.txt:5:14: a suit range is four consecutive ranks")


# ----- review of an inconsistent record -------------------------------------------------------
INCONSISTENT = {
    "mystery-hand": ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
                     "Ana holds: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS\n"
                     "Ana asks Ben 4H-7H: 4H\nBen asks Cleo 4H-7H: 4\n", [6, 7]),
    "clue": (CLUE + "Ana holds: Scarlet Rope Kitchen Hall Study\n"
             "Ana suggests Plum Knife Library: Ben passes, Cleo shows Knife\n"
             "Ben suggests White Knife Lounge: nobody\n", [6, 7]),
}


@pytest.mark.parametrize("game", sorted(INCONSISTENT))
def test_review_of_an_inconsistent_record_exits_3_with_its_lines(game, tmp_path):
    """It reviewed the turns before the contradiction and exited 0."""
    text, lines = INCONSISTENT[game]
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["review", str(path)])
    assert r.exit_code == 3, r.output
    assert "sleuth: inconsistent:" in r.stderr
    assert all(f"line {n}: " in r.stderr for n in lines)
    r = CliRunner().invoke(cli, ["review", str(path), "--json"])
    assert r.exit_code == 3
    assert json.loads(r.stdout) == {"consistent": False, "conflict": lines}


def test_clue_names_its_cards_without_quotes_in_why_and_in_contradictions(tmp_path):
    """They read 'Knife': certainly in Cleo's hand, and line 4 puts 'Rope' in Ana's hand."""
    r = CliRunner().invoke(cli, ["why", str(ROOT / "samples/clue/four-players-ana.txt"),
                                 "dagger"])
    assert r.exit_code == 0 and r.output.startswith("Knife: certainly in Cleo's hand"), r.output
    assert "'Knife'" not in r.output
    path = tmp_path / "g.txt"
    path.write_text(INCONSISTENT["clue"][0], encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(path)])
    assert r.exit_code == 3 and "line 6 puts Knife in Cleo's hand" in r.stderr, r.stderr


# ----- sleuth new ----------------------------------------------------------------------------
@pytest.mark.parametrize("force", [(), ("--force",)])
def test_new_on_a_folder_says_it_is_a_folder(tmp_path, force):
    """Not 'the file exists already (use --force to overwrite)', which --force did not cure."""
    r = CliRunner().invoke(cli, ["new", "mystery-hand", str(tmp_path), "--players",
                                 "Ana Ben Cleo", *force])
    assert r.exit_code == 2
    assert "that is a folder, not a file" in r.stderr and "--force" not in r.stderr


def test_the_docs_commands_name_options_that_exist():
    """docs/clue.md showed 'sleuth new clue ... --extra', an option 'new' does not have."""
    import click

    new = cli.get_command(click.Context(cli), "new")      # loaded on use
    assert new is not None
    options = {o for p in new.params if isinstance(p, click.Option) for o in p.opts}
    text = " ".join((ROOT / "docs" / name).read_text(encoding="utf-8").replace("\n", " ")
                    for name in ("clue.md", "record-format.md", "session.md"))
    for command in re.findall(r"sleuth new [^`]*", text):
        used = set(re.findall(r"(?<!\S)--[a-z-]+", command))
        assert used <= options, (command, used - options)


# ----- the docs' command blocks run as shown --------------------------------------------------
def _doc_blocks(path: Path) -> list[list[str]]:
    """The ``sleuth`` commands of each fenced block of ``path`` (not 'serve' or 'play',
    which wait for their user, nor a synopsis with RECORD), as argument lists."""
    blocks, cur = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if cur:
                blocks.append(cur)
            cur = [] if cur is None else None
            continue
        words = line.strip().removeprefix("$ ")
        if cur is not None and words.startswith("sleuth ") and "RECORD" not in words:
            args = shlex.split(words, comments=True)[1:]
            if args[0] not in ("serve", "play"):
                cur.append(args)
    return blocks


DOCS = sorted(p for p in (ROOT / "docs").glob("*.md") if _doc_blocks(p))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_command_block_of_the_docs_runs_in_order(doc, tmp_path, monkeypatch):
    """docs/mysterium.md logged a guess before the table and the hour, unquoted."""
    import shutil

    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    for i, block in enumerate(_doc_blocks(doc)):
        for f in ("game.txt", "g.txt"):
            (tmp_path / f).unlink(missing_ok=True)       # each block starts afresh
        for args in block:
            r = CliRunner().invoke(cli, args, input="")
            assert r.exit_code == 0, f"{doc.name} block {i}: sleuth {shlex.join(args)}\n{r.output}"


# ----- '-' where a file is written --------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["log", "-", "Ben: ?"], ["new", "clue", "-", "--players", "Ana Ben Cleo"],
    ["play", "-", "--no-sheet"],       # (serve's RECORD is the same type; it would wait)
    ["simulate", "mystery-hand", "--players", "4", "-o", "-"],
    ["review", "{sample}", "--html", "-"], ["replay", "{sample}", "--plot", "-"],
], ids=lambda a: " ".join(a[:1] + [x for x in a if x.startswith("-") and x != "-"]))
def test_a_file_that_is_written_is_not_standard_input(args, tmp_path, monkeypatch):
    """'sleuth log - ...' read the record from standard input and wrote it, with the new
    line, to a file called '-' in the current folder (so did -o -, --html -, --plot -)."""
    monkeypatch.chdir(tmp_path)
    sample = str(ROOT / "samples/mystery-hand/five-players-ana.txt")
    r = CliRunner().invoke(cli, [a.replace("{sample}", sample) for a in args],
                           input=(ROOT / "samples/mystery-hand/five-players-ana.txt")
                           .read_text(encoding="utf-8"))
    assert r.exit_code == 2, r.output
    assert "'-' is standard input or output, not a file this command can write" in r.output
    assert not (tmp_path / "-").exists()


def test_a_file_called_dash_is_named_dot_slash_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["new", "mystery-hand", "./-", "--players", "Ana Ben Cleo"])
    assert r.exit_code == 0 and (tmp_path / "-").read_text().startswith("game: mystery-hand")
    r = CliRunner().invoke(cli, ["log", "./-", "Ana: ?"])
    assert r.exit_code == 0 and (tmp_path / "-").read_text().endswith("Ana: ?\n")


def test_serve_writes_its_record_too():
    from cli.main import FilePath

    import click

    # the group loads its commands on use: 'serve' is not in cli.commands before
    serve = cli.get_command(click.Context(cli), "serve")
    assert serve is not None
    record = next(p for p in serve.params if p.name == "record")
    assert isinstance(record.type, FilePath) and record.type.writes


@pytest.mark.parametrize("line, column", [
    ("round 1: Cleo out full-hand; Ana 30, no-meld", 30),   # quoted 'Ana 30 no-meld'
    ("Ana melds JH QH KH  7D 8D 9D", 11),                    # quoted 'JH QH KH 7D 8D 9D'
])
def test_a_quote_of_several_words_is_found_where_the_line_spaces_them_otherwise(line, column):
    head = "game: hand\nplayers: Ana Ben Cleo\n" + ("indicator 4H\n" if "melds" in line else "")
    with pytest.raises(SleuthError) as e:
        parse_record(head + line + "\n", "g.txt")
    assert (e.value.line, e.value.column) == (head.count("\n") + 1, column), str(e.value)


@pytest.mark.parametrize("penalty, quoted", [("Ana Jk", "Ana Jk"), ("Ana 1", "Ana 1")])
def test_a_hand_penalty_is_quoted_as_written(penalty, quoted):
    """It quoted the program's own value: "Penalty(player='Ana', points=1, ...)"."""
    line = f"round 1: Ben out partial; {penalty}, Cleo 5"
    with pytest.raises(SleuthError) as e:
        parse_record(f"game: hand\nplayers: Ana Ben Cleo\n{line}\n", "g.txt")
    assert str(e.value).startswith(f"g.txt:3:{line.index(penalty) + 1}: ")
    assert str(e.value).endswith(f": {quoted!r}") and e.value.rule == "HR-38"


# ----- a record written with CRLF line ends keeps them ----------------------------------------
def _write_back(how: str, path: Path, statement: str) -> None:
    """``statement`` added to the record at ``path`` by ``sleuth log`` or ``sleuth play``."""
    if how == "log":
        r = CliRunner().invoke(cli, ["log", str(path), statement])
    else:
        r = CliRunner().invoke(cli, ["play", str(path), "--no-sheet"], input=statement + "\n")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("how", ["log", "play"])
def test_a_crlf_record_stays_crlf(how, tmp_path):
    """log and play ended the new line with a bare LF: a file of two kinds of line ends."""
    path = tmp_path / "g.txt"
    path.write_bytes(b"game: mystery-hand\r\nplayers: Ana Ben Cleo Dev\r\ndealer: Dev\r\n"
                     b"Ana asks Ben 4H-7H: 2\r\n")
    _write_back(how, path, "Ben asks Cleo 5*: 1")
    data = path.read_bytes()
    assert data.endswith(b"Ben asks Cleo 5*: 1\r\n") and data.count(b"\n") == data.count(b"\r\n")


# ----- a certain count is exactly whole, no figure leaves its range ----------------------------
SNEAK_ANA = (MH + "me: Ana\nAna holds: AS 2S 9H JD QC 4D 8S 3H 5C 6D 7C Jk\nfaceup: 3C 7D\n"
             "Ana asks Ben 4H-7H: 4H Jk\nBen asks Cleo 5*: 1\n"
             "Cleo asks all 10D-KD: Ana 1, Ben 1, Dev 0\n")


def test_a_certain_joker_count_is_exactly_one(tmp_path):
    """Ana holds one joker and saw Ben's: each holds exactly one; the two copies' shares
    summed gave 1.0000000000000002."""
    path = tmp_path / "g.txt"
    path.write_text(SNEAK_ANA, encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert r.exit_code == 0, r.output
    cards = json.loads(r.output)["cards"]
    assert cards["Jk"] == {"Ana": 1.0, "Ben": 1.0}
    for name, row in cards.items():
        top = 2 if name == "Jk" else 1
        assert all(0 < p <= top for p in row.values()), (name, row)
        assert all(p < 1 for p in row.values()) or len(row) == 1 or name == "Jk", (name, row)


def test_a_certain_joker_count_is_exactly_one_in_literature(tmp_path):
    """Ana holds one of the two jokers (deck=54-jokers): 1.0000000000000002 before."""
    path = tmp_path / "g.txt"
    path.write_text("game: literature\nvariant: deck=54-jokers\n"
                    "players: Ana Ben Cleo Dev Eli Fay Gus Hal\nme: Ana\n"
                    "Ana holds: 3S 4S 8H 9H AD Jk\nAna asks Ben 8S: no\n"
                    "Ben asks Cleo 8C: no\nCleo asks Dev 3H: no\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert r.exit_code == 0, r.output
    jokers = json.loads(r.output)["cards"]["Jk"]
    assert jokers["Ana"] == 1.0 and all(0 < p < 1 for l, p in jokers.items() if l != "Ana")


def _copies_model(one_at_p: bool):
    """Two copies J of a card and x, y, over P and Q (2 places each); with ``one_at_p``
    x is at P and y at Q: exactly one J at P, stated nowhere."""
    from solver.model import CardLocationModel
    from solver.model.copies import copy_keys

    keys = copy_keys({"J": 2, "x": 1, "y": 1})
    names = {k: c for c, ks in keys.items() for k in ks}
    m = CardLocationModel([k for ks in keys.values() for k in ks],
                          {"P": 2, "Q": 2}, names)
    if one_at_p:
        m.place(keys["x"][0], "P")
        m.place(keys["y"][0], "Q")
    return m, keys


@pytest.mark.parametrize("one_at_p", [True, False])
def test_a_count_rounded_near_whole_is_whole_only_when_certain(one_at_p):
    from solver.model.copies import settle_copies
    from solver.model.counting import Counting

    m, keys = _copies_model(one_at_p)
    both = {"P", "Q"}
    possible_k = {k: both for k in keys["J"]}
    possible_k |= {keys["x"][0]: {"P"} if one_at_p else both,
                   keys["y"][0]: {"Q"} if one_at_p else both}
    over = 1.0000000000000002          # two shares of 0.5000000000000001 summed
    cards = {"J": {"P": over, "Q": over}}
    if not one_at_p:
        cards |= {"x": {"P": over, "Q": 1e-300}, "y": {"P": 0.0, "Q": 1.0}}
    out = settle_copies(m, keys, cards, possible_k, Counting(True, 1, {}, rounding=1e-14))
    if one_at_p:            # proved by CP-SAT: no deal puts 0 or 2 of J at P
        assert out["J"] == {"P": 1.0, "Q": 1.0}
        return
    # J at P may be 0, 1 or 2: the figure stays what was counted, inside (0, 2)
    assert out["J"] == {"P": over, "Q": over}
    # a single card's share is a probability: below 1 where it may be elsewhere, and a
    # zero figure of a possible place is not written as certain absence
    assert 0 < out["x"]["P"] < 1 and out["x"]["Q"] > 0
    assert out["y"]["P"] > 0 and out["y"]["Q"] < 1


# ----- Hand's analyze --json carries the contract's fixed keys ---------------------------------
@pytest.mark.parametrize("sample", sorted((ROOT / "samples" / "hand").glob("*.txt")),
                         ids=lambda p: p.stem)
def test_hand_json_has_the_fixed_keys_and_an_estimate_its_error(sample):
    """A scoresheet had neither "exact" nor "cards"; a round whose take chances are
    estimated said "exact": false without the "error" the contract then requires."""
    r = CliRunner().invoke(cli, ["analyze", str(sample), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {"game", "view", "consistent", "exact", "cards"} <= set(out)
    assert out["exact"] or 0 < out["error"] < 1
    for chance in out.get("take_chance", {}).values():
        assert chance["exact"] or 0 < chance["error"] < 1
        assert chance["exact"] or out["error"] >= chance["error"]


# ----- statements the program writes name players as 'players:' does ---------------------------
def test_replay_json_writes_each_statement_with_the_headers_names(tmp_path):
    """replay --json printed 'ána asks βήτα 4H-7H: 4h', as typed."""
    path = tmp_path / "g.txt"
    path.write_text("game: mystery-hand\nplayers: Ána Βήτα Cleo Dev\ndealer: Dev\nme: Ána\n"
                    "Ána holds: AS 2S 9H JD QC 4D 8S 3H 5C 6D 7C 9C\n"
                    "ána asks βήτα 4H-7H: 4h\nβήτα asks cleo 5x: 1\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert r.exit_code == 0, r.output
    steps = json.loads(r.output)["views"]["Ána"]["steps"]
    assert [s["statement"] for s in steps[1:]] == [
        "Ána asks Βήτα 4H-7H: 4H", "Βήτα asks Cleo 5*: 1"]


def test_a_scoresheet_writes_each_statement_with_the_headers_names(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("game: hand\nplayers: Ána Ben Cleo Dev\ndealer: Dev\n"
                    "round 1: ben out partial; ána 34, CLEO no-meld, dev 20\n",
                    encoding="utf-8")
    r = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert r.exit_code == 0, r.output
    text = json.loads(r.output)["rounds"][0]["statement"]
    assert "Ben out" in text and "Ána 34" in text and "Cleo no-meld" in text, text


# ----- a record saved with a UTF-8 byte-order mark keeps it --------------------------------------
@pytest.mark.parametrize("how", ["log", "play", "session-log", "session-edit"])
def test_a_record_with_a_bom_keeps_it(how, tmp_path):
    """Writing a record back (log, play, serve's appends and edits) dropped the mark."""
    from solver.session import log_statement, replace_statement

    path = tmp_path / "g.txt"
    path.write_bytes(b"\xef\xbb\xbfgame: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n"
                     b"Ana asks Ben 4H-7H: 2\n")
    if how in ("log", "play"):
        _write_back(how, path, "Ben asks Cleo 5*: 1")
    elif how == "session-log":
        log_statement(str(path), "Ben asks Cleo 5*: 1")
    else:
        replace_statement(str(path), 4, "Ana asks Ben 4H-7H: 1")
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfgame: mystery-hand\n")
    assert data.count(b"\xef\xbb\xbf") == 1
    assert data.endswith(b"Ben asks Cleo 5*: 1\n" if how != "session-edit"
                         else b"Ana asks Ben 4H-7H: 1\n")


def test_a_record_without_a_bom_gets_none(tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(b"game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n")
    r = CliRunner().invoke(cli, ["log", str(path), "Ana asks Dev 5*: 1"])
    assert r.exit_code == 0, r.output
    assert path.read_bytes().startswith(b"game: mystery-hand\n")
