"""``sleuth suggest`` after an unseen turn that earned an extra turn: its candidates and its
announcement agree with ``sleuth analyze`` (the count conditioned on the extra-turn fact by
rejection, so bounds instead of a count, and no sampled hand named unless it stands out),
and its deals meet that fact."""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
from click.testing import CliRunner

from cli.main import cli
from solver.advice import Posterior
from solver.mystery_hand.advise import conditioned, meets_choices, suggest
from solver.mystery_hand.analysis import analyze
from solver.mystery_hand.inference import build
from solver.records import parse_record
from tests.test_mystery_hand_sampled_top import UNSEEN_EXTRA

# the record of the analysis's tests, then Ana's turn
RECORD = UNSEEN_EXTRA + "turn: Ana\n"


def test_suggest_candidates_and_announce_agree_with_analyze():
    rec = parse_record(RECORD)
    assert build(rec, "Ana").model.choices      # the extra turn's fact is a choice
    c = analyze(rec, "Ana").mystery
    assert c.count is None and c.withheld and not c.top      # bounds only, no hand named
    adv = suggest(rec, "Ana")
    s = adv.summary
    # not the plain programme's count, which ignores the extra-turn fact
    assert s["candidates"] is None and s["candidates_exact"] is False
    assert (s["candidates_at_least"], s["candidates_at_most"]) == (c.lower, c.upper)
    assert not s["determined"]
    # no sampled hand presented as the likeliest, let alone with an exact chance
    assert not [a for a in adv.actions if a.kind == "announce"]
    assert s["announce_withheld"] is True and s["p_right_at_most"] == c.p_at_most
    assert any("no hand stands out" in n for n in adv.notes)
    assert not adv.exact


def test_suggest_cli_json_and_text():
    r = CliRunner().invoke(cli, ["suggest", "-", "--json"], input=RECORD)
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["summary"]["candidates"] is None
    assert all(a["kind"] != "announce" for a in d["actions"])
    r = CliRunner().invoke(cli, ["suggest", "-"], input=RECORD)
    assert r.exit_code == 0, r.output
    assert "no announcement suggested" in " ".join(r.output.split())
    assert "announces" not in r.output


def test_suggest_deals_meet_the_extra_turn_fact():
    rec = parse_record(RECORD)
    vm = build(rec, "Ana")
    from solver.mystery_hand.advise import _build_views
    from solver.model.budget import Budget

    _, _, me, pub, _ = _build_views(rec, "Ana", Budget(), 0)
    assert meets_choices(vm.model, me.D).all() and meets_choices(vm.model, pub.D).all()


def test_conditioned_keeps_only_deals_meeting_the_choices():
    # one choice: card 0 at location 1; an enumeration stays exact, with its count
    model = SimpleNamespace(choices=[((7, 8), "extra turn", [(frozenset({(0, 1)}), 1, 1)])])
    deals = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.int16)
    assert meets_choices(model, deals).tolist() == [True, False, True]
    post = conditioned(model, Posterior(model, deals, True, 3), {})
    assert post.exact and post.total == 2
    assert post.deals.tolist() == [[1, 0], [1, 1]]
