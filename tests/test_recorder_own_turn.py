"""The recorder sees their own turns (record-format.md, "What the recorder did not see"):
in their own (partial) record, ``P: ?`` for ``me: P``, an answer of their own turn written
``?`` and a ``turn: Q`` passing over their turn are refused in every game, exit 2 with
file:line:column on the name and the game's rule; a spectator's record may still have them.
Also: a count too large to be shown cites the rule that caps it, and ``sleuth rules`` refuses
a lettered part a rule does not have."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def analyze(tmp_path, text: str):
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    return run("analyze", str(path))


def refused(r, line: int, col: int, rule: str, *words: str) -> None:
    assert r.exit_code == 2, r.output
    assert f"g.txt:{line}:{col}:" in r.output and f"({rule})" in r.output, r.output
    for w in words:
        assert w in r.output, r.output


# ----- Mystery Hand --------------------------------------------------------------------------
MH = "game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"


@pytest.mark.parametrize("body, line, col, rule", [
    ("Ana: ?", 5, 1, "MH-8"),                                  # a whole turn of her own
    ("Ana asks Ben 4H-7H: ?", 5, 1, "MH-10"),                  # the cards are shown to Ana
    ("Ana asks Ben 4H-7H: 0\nBen asks Ana 5*: ?", 6, 10, "MH-10"),    # Ana showed them
    ("Ana asks Ben 4H-7H: 0\nBen asks all 5*: Ana ?, Cleo 1, Dev 0", 6, 18, "MH-13"),
    ("Ana requests KS: ?", 5, 1, "MH-15"),
    ("turn: Ben", 5, 7, "MH-7"),                               # Ana's first turn skipped
    ("Ana asks Ben 4H-7H: 0\nBen: ?\nCleo: ?\nturn: Ben", 8, 7, "MH-7"),
])
def test_mystery_hand_refuses_the_recorders_own_turn_as_unseen(tmp_path, body, line, col,
                                                                 rule):
    r = analyze(tmp_path, MH + body + "\n")
    refused(r, line, col, rule, "Ana is the recorder (me: Ana)")


@pytest.mark.parametrize("body", [
    "turn: Ana",
    "Ana asks Ben 4H-7H: 0\nturn: Dev",                        # Ben's and Cleo's turns missed
    "Ana asks Ben 4H-7H: 0\nBen asks Cleo 4H-7H: ?\nCleo: ?\nDev: ?",
    "Ana asks all 5*: Ben 1, Cleo ?, Dev 0",                   # another's count on her ask-all
])
def test_mystery_hand_still_takes_what_the_recorder_may_miss(tmp_path, body):
    assert analyze(tmp_path, MH + body + "\n").exit_code == 0


def test_a_spectators_mystery_hand_record_may_have_anyones_turn_unseen(tmp_path):
    r = analyze(tmp_path, MH.replace("me: Ana\n", "") + "Ana: ?\nturn: Cleo\n")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("variant, count, rule", [
    ("variant: sneak\n", "7", "MH-24"), ("", "7", "MH-10"), ("", "5", "MH-10")])
def test_a_count_too_large_cites_the_rule_that_caps_it(tmp_path, variant, count, rule):
    head = MH.replace("dealer: Dev", "dealer: Ana") + variant
    r = analyze(tmp_path, head + f"Ben asks Cleo 5*: {count}\n")
    assert r.exit_code == 2 and f"({rule})" in r.output and "MH-9" not in r.output, r.output


# ----- sleuth rules: a lettered part ---------------------------------------------------------
def test_rules_refuses_a_part_the_rule_does_not_have():
    r = run("rules", "LIT-6(z)")
    assert r.exit_code == 2 and "LIT-6(a)-(d)" in r.output, r.output
    r = run("rules", "MH-7(a)")
    assert r.exit_code == 2 and "no lettered parts" in r.output, r.output
    r = run("rules", "LIT-6(d)")
    assert r.exit_code == 0 and "(d) you do not hold c" in r.output
    r = run("rules", "MH-9(b)")                         # a part written inline
    assert r.exit_code == 0 and "MH-9(b): (b) a rank" in r.output, r.output


# ----- Clue ----------------------------------------------------------------------------------
CLUE = "game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"


@pytest.mark.parametrize("body, col", [
    ("Ana: ?", 1),                                               # a suggestion of her own
    ("Ana suggests Plum Knife Library: ?", 1),                   # its refutation
    ("Ana suggests Plum Knife Library: Cleo shows", 34),         # the card shown to her
    ("Ben suggests Plum Knife Library: Cleo passes, Dev passes, Ana shows", 59),  # hers
])
def test_clue_refuses_the_recorders_own_turn_as_unseen(tmp_path, body, col):
    r = analyze(tmp_path, CLUE + body + "\n")
    refused(r, 5, col, "CL-5" if body == "Ana: ?" else "CL-6", "Ana is the recorder (me: Ana)")


@pytest.mark.parametrize("body", [
    "Ben: ?", "Ben suggests Plum Knife Library: ?", "Ben suggests Plum Knife Library: Cleo shows",
])
def test_clue_still_takes_what_the_recorder_may_miss(tmp_path, body):
    assert analyze(tmp_path, CLUE + body + "\n").exit_code == 0
    assert analyze(tmp_path, CLUE.replace("me: Ana\n", "") + "Ana: ?\n").exit_code == 0


# ----- Mysterium -----------------------------------------------------------------------------
def my_head(players: str, me: str, cards: int = 5) -> str:
    """A Mysterium record's head (lines 1-7): easy, ``cards`` of each kind on the table."""
    table = " ".join(map(str, range(1, cards + 1)))
    return (f"game: mysterium\nvariant: easy\nplayers: {players}\n"
            + (f"me: {me}\n" if me else "# a spectator's record\n")
            + "".join(f"table {k}: {table}\n" for k in ("character", "location", "object")))


MY = my_head("Gus Ana Ben Cleo", "Ana")
# every psychic finds a card an hour: the epilogue begins after line 19
MY_EPILOGUE = "".join(f"hour {h}\n" + "".join(f"{p} guesses {k} {n}: right\n"
                                                for n, p in enumerate(("Ana", "Ben", "Cleo"), 1))
                      for h, k in enumerate(("character", "location", "object"), 1))


@pytest.mark.parametrize("head, body, line, col, rule", [
    (MY, "hour 1\nAna: ?", 9, 1, "MY-10"),                        # her guess and its outcome
    (MY, "hour 1\nAna guesses character 1\nreveal Ana: ?", 10, 8, "MY-12"),   # its outcome
    (MY, MY_EPILOGUE + "Ana: ?", 20, 1, "MY-20"),                  # her vote
    (my_head("Gus Ana", "Ana", 4), "hour 1\nAna-1: ?", 9, 1, "MY-10"),   # both are Ana's
    (my_head("Gus Ana", "Ana", 4), "hour 1\nAna-2 guesses character 1\nreveal Ana-2: ?",
     10, 8, "MY-12"),
    (my_head("Gus Ana Ben", "Ana"), "hour 1\nAna-2: ?", 9, 1, "MY-10"),  # Ana runs two
    (my_head("Gus Ana Ben", "Ana"), "hour 1\nAna: ?", 9, 1, "MY-10"),
])
def test_mysterium_refuses_the_recorders_own_turn_as_unseen(tmp_path, head, body, line, col,
                                                             rule):
    r = analyze(tmp_path, head + body + "\n")
    refused(r, line, col, rule, "Ana is the recorder (me: Ana)")


@pytest.mark.parametrize("body, line, col, rule", [
    ("hour 1\nBen: ?", 9, 1, "MY-10"),                            # the ghost reveals each guess
    ("hour 1\nBen guesses character 1\nreveal Ben: ?", 10, 8, "MY-12"),
])
def test_mysterium_the_ghost_as_recorder_sees_every_guess_and_outcome(tmp_path, body, line,
                                                                       col, rule):
    r = analyze(tmp_path, my_head("Gus Ana Ben Cleo", "Gus") + body + "\n")
    refused(r, line, col, rule, "Gus is the recorder (me: Gus), the ghost")


@pytest.mark.parametrize("me, body", [
    ("Ana", "hour 1\nBen: ?\nCleo: ?"),                             # others' guesses
    ("Ana", "hour 1\nBen guesses character 1\nreveal Ben: ?"),
    ("Ana", MY_EPILOGUE + "Ben: ?\nturn: Ana"),                     # another's vote
    ("Gus", MY_EPILOGUE + "Ana: ?"),                                # the ghost casts no vote
    ("", "hour 1\nAna: ?"),                                         # a spectator's record
    ("", "hour 1\nAna guesses character 1\nreveal Ana: ?"),
    ("", MY_EPILOGUE + "Ana: ?"),
])
def test_mysterium_still_takes_what_the_recorder_may_miss(tmp_path, me, body):
    r = analyze(tmp_path, my_head("Gus Ana Ben Cleo", me) + body + "\n")
    assert r.exit_code == 0, r.output
    assert analyze(tmp_path, my_head("Gus Ana", "", 4) + "hour 1\nAna-1: ?\n").exit_code == 0


# ----- Literature ----------------------------------------------------------------------------
LIT = ("game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\ndealer: Ana\nme: Ana\n"
       "Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n")


@pytest.mark.parametrize("body, line, col, rule", [
    ("Ana: ?", 6, 1, "LIT-6"),                                 # a question of her own
    ("Ana asks Ben ?: yes", 6, 1, "LIT-6"),                    # she named the card
    ("Ana asks Ben 5H: ?", 6, 1, "LIT-7, LIT-8"),              # she heard the answer
    ("Ana asks Ben 5H: no\nBen asks Ana ?: no", 7, 10, "LIT-6"),         # asked of her
    ("Ana asks Ben 5H: no\nBen asks Ana 5H: ?", 7, 10, "LIT-7, LIT-8"),  # she answered
])
def test_literature_refuses_the_recorders_own_question_as_unseen(tmp_path, body, line, col,
                                                                 rule):
    r = analyze(tmp_path, LIT + body + "\n")
    refused(r, line, col, rule, "Ana is the recorder (me: Ana)")


@pytest.mark.parametrize("body", [
    "Ana asks Ben 5H: no\nBen asks Cleo ?: yes",
    "Ana asks Ben 5H: no\nBen asks Cleo 9D: ?",
    "Ana asks Ben 5H: no\nBen: ?",
])
def test_literature_still_takes_what_the_recorder_may_miss(tmp_path, body):
    r = analyze(tmp_path, LIT + body + "\n")
    assert r.exit_code == 0, r.output


def _complete_literature(me: str | None) -> str:
    """Every hand listed (a complete record), each player dealt 8 cards in deck order."""
    from solver.literature.options import LiteratureOptions
    from solver.literature.table import Table

    players = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
    t = Table.build(players, LiteratureOptions())
    deck = [repr(c) for h in t.halves for c in h.cards]
    head = "game: literature\nplayers: " + " ".join(players) + "\ndealer: Ana\n"
    head += f"me: {me}\n" if me else ""
    return head + "".join(f"{p} holds: {' '.join(deck[8 * i:8 * i + 8])}\n"
                          for i, p in enumerate(players))


@pytest.mark.parametrize("body", ["Ana: ?", "Ana asks Ben ?: yes", "Ana asks Ben 5H: ?"])
def test_a_spectators_or_a_complete_literature_record_may_miss_anyones_question(tmp_path,
                                                                               body):
    spectator = LIT.replace("me: Ana\n", "")
    assert analyze(tmp_path, spectator + body + "\n").exit_code == 0
    body = body.replace("5H", "JS")         # Ana, dealt 2S-7S 9S 10S, holds no JS
    r = analyze(tmp_path, _complete_literature("Ana") + body + "\n")
    assert r.exit_code == 0, r.output


def _json(tmp_path, text: str) -> dict:
    import json

    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    r = run("analyze", "--json", str(path))
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_literature_an_unseen_question_never_asks_the_recorder(tmp_path):
    """``Ben: ?`` in Ana's record is a question Ben asked someone else: Ana would have heard
    one asked of her, so her cards stay hers; in a spectator's record that saw Ana's hand,
    Ben may have asked her and taken one."""
    body = "Ana asks Ben 5H: no\nBen: ?\n"
    mine = _json(tmp_path, LIT + body)["cards"]
    assert all(mine[c] == {"Ana": 1.0} for c in ("2H", "3H", "9S", "JC", "QD")), mine
    theirs = _json(tmp_path, LIT.replace("me: Ana\n", "") + body)["cards"]
    assert theirs["9S"].get("Ben", 0) > 0, theirs["9S"]       # Ben may hold a high spade


def test_literature_refuses_an_unseen_question_only_the_recorder_could_have_been_asked(
        tmp_path):
    """Cleo has shown all her cards: Ben's one opponent with cards is Ana, the recorder."""
    text = ("game: literature\nplayers: Ana Ben Cleo Dev\ndealer: Cleo\nme: Ana\n"
            "Ana holds: 2H 3H 4H 5H 6H 7H 9H 10H JH QH KH 3C\n"
            "Cleo claims 2S-7S: Cleo 2S 3S 4S 5S 6S 7S\n"
            "Cleo claims 9S-AS: Cleo 9S 10S JS QS KS AS\n"
            "Cleo passes turn to Ana\nAna claims 2H-7H: Ana 2H 3H 4H 5H 6H 7H\n"
            "Ana asks Ben 2C: no\nBen: ?\n")
    refused(analyze(tmp_path, text), 11, 1, "LIT-6(b)", "Ana is the recorder (me: Ana)")
    assert analyze(tmp_path, text.replace("me: Ana\n", "")).exit_code == 0


@pytest.mark.parametrize("body", ["Ben asks Cleo 9S: no",                 # Ana's turn
                                  "Ana asks Ben 5H: no\nBen asks Cleo 9S: no\nCleo asks Ben 9S: no\n"
                                  "Ana asks Ben 9S: no"])              # Ben's, Ana asks
def test_literature_advises_no_unseen_question_the_recorder_would_have_heard(tmp_path, body):
    r = analyze(tmp_path, LIT + body + "\n")
    assert r.exit_code == 2 and "not on turn" in r.output, r.output
    assert "'Ana: ?'" not in r.output and "'Ben: ?'" not in r.output, r.output
