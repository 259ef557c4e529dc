"""The Literature advisor offers only what the record accepts: its chances use where each
card is now (a card that moved in public is where it went, not where it was dealt), and
every action it ranks passes the check 'log' applies to a statement."""
from __future__ import annotations

import pytest

from solver.errors import InconsistentError
from solver.literature import advise
from solver.literature.engine import Play
from solver.literature.inference import build
from solver.literature.simulate import Simulator
from solver.model.budget import Budget
from solver.records import parse_record
from solver.session import checked_append

#: KD dealt to Ben, then Ben -> Ana -> Ben -> Cleo in public (lines 6, 8 and 10)
KD = """game: literature
players: Ana Ben Cleo Dev Eli Fay
dealer: Ana
me: Ana
Ana holds: 2H 3H 4H 6H 7H 9S JC QD
Ana asks Ben KD: yes
Ana asks Ben 10S: no
Ben asks Ana KD: yes
Ben asks Cleo 9D: no
Cleo asks Ben KD: yes
Cleo asks Dev 9C: no
Dev asks Eli 10C: no
Eli asks Fay 10D: no
Fay asks Ana 2S: no
"""


def _statements(adv, top=None):
    """Each offered action as the statements that log it: a question with every answer
    it gives a chance, a claim as it stands."""
    for a in adv.actions[:top]:
        if a.kind == "question":
            yield a, [f"{a.action}: {ans}" for ans, p in a.p_answers.items() if p > 0]
        else:
            yield a, [a.action]


def _refused(text, adv, top=None):
    """The offered statements the record refuses (checked_append: 'log''s check).  A claim
    the advisor does not call safe may turn out wrong: 'log' then holds it for its
    'shown' line (a contradiction alone is no refusal), but never breaks a rule."""
    out = []
    for a, statements in _statements(adv, top):
        for st in statements:
            try:
                checked_append(text, st)
            except InconsistentError as e:
                if a.kind != "claim" or a.more.get("safe"):
                    out.append((st, str(e)))
            except Exception as e:      # noqa: BLE001 - any refusal is the failure
                out.append((st, str(e)))
    return out


def _own_hand_only(text: str, view: str = "Ana") -> str:
    """The record as ``view`` keeps it: no other player's hand."""
    return "".join(ln for ln in text.splitlines(keepends=True)
                   if " holds:" not in ln or ln.startswith(f"{view} holds:"))


def test_a_card_moved_in_public_is_where_it_went_in_the_advisors_logic():
    rec = parse_record(KD)
    vm = build(rec, "Ana")
    assert vm.fixed == {"KD": "Cleo"}
    assert advise._support(vm)["KD"] == {"Cleo"}


def test_the_advisor_never_asks_for_a_card_the_record_places_elsewhere():
    rec = parse_record(KD)
    adv = advise.suggest(rec, "Ana")
    assert not adv.exact                # sampled: the chances go through the logic
    kd = {a.action: a.more["p_yes"] for a in adv.actions if a.action.endswith(" KD")}
    assert kd and set(kd.values()) == {0.0}, kd         # Cleo, a team-mate, holds it
    assert not adv.best.action.endswith(" KD")
    assert _refused(KD, adv) == []


def test_the_sample_cut_where_5s_is_with_cleo_does_not_ask_dev_for_it():
    with open("samples/literature/six-players-full-game.txt", encoding="utf-8") as f:
        text = _own_hand_only("".join(f.readlines()[:36]))
    adv = advise.suggest(parse_record(text), "Ana", top=3)
    assert all(" 5S" not in a.action for a in adv.actions), [a.action for a in adv.actions]
    assert _refused(text, adv) == []


def test_an_action_the_rules_refuse_is_never_offered():
    """The filter itself (one source of legality): a question whose likely answer the
    engine refuses is dropped, one it accepts is kept."""
    from solver.advice import ActionAdvice

    play = Play.of(parse_record(KD))
    yes = ActionAdvice("Ana asks Ben KD", 1.0, 0.0, {"yes": 1.0, "no": 0.0}, 0.0, False,
                       "question")
    no = ActionAdvice("Ana asks Ben KD", 1.0, 0.0, {"yes": 0.0, "no": 1.0}, 0.0, False,
                      "question")
    assert not advise._accepted(play, "Ana", yes)
    assert advise._accepted(play, "Ana", no)


def _ana_only(seed: int) -> str:
    """A simulated 6-player game as Ana records it: her own hand, every public line."""
    rec = Simulator(6, (), seed).run()
    head = "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
    return _own_hand_only(head + "".join(s.text + "\n" for s in rec.statements))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_top_suggestion_of_a_simulated_game_is_accepted(seed):
    """Every prefix of the game on Ana's turn: her three best actions parse and are
    accepted by the record's check with every answer they give a chance."""
    lines = _ana_only(seed).splitlines(keepends=True)
    head = 4                            # the header and Ana's hand
    checked = 0
    for n in range(head, len(lines) + 1):
        if n < len(lines) and lines[n].startswith("shown "):
            continue                    # a claim resolved by the next line
        text = "".join(lines[:n])
        rec = parse_record(text)
        play = Play.of(rec)
        if play.over or play.turn != "Ana" or play.count["Ana"] == 0 or play.challenge:
            continue
        adv = advise.suggest(rec, "Ana", top=3, budget=Budget(samples=120), with_leak=False)
        assert _refused(text, adv) == [], (n, text)
        checked += 1
    assert checked >= 5
