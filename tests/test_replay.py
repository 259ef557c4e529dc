"""Hindsight replay (issue 8): steps, what each view knew, announcements and claims checked
against independent facts of complete records, every sample of every game, the plot."""
from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.cards import Card
from solver.games import get_game
from solver.mystery_hand import EXAMPLE_1
from solver.records import parse_record, read_record
from solver.replay import PUBLIC, replay, replay_views, statement_groups, steps
from tests.test_mystery_hand_examples import EX1

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
ALL_SAMPLES = sorted(SAMPLES.glob("*/*.txt"))
#: long samples are replayed for their first steps only (the suite stays fast)
LONG = 40
FIRST_STEPS = 8


# ----- steps ----------------------------------------------------------------------------------
def test_steps_of_a_partial_record():
    rec = parse_record(EXAMPLE_1)
    sp = steps(rec)
    assert [s.lines for s in sp] == [[5], [6], [7], [8]]        # the deal, then each move
    assert [len(s.record.statements) for s in sp] == [1, 2, 3, 4]


def test_steps_of_a_complete_record_keep_every_hand():
    from solver.mystery_hand.inference import is_complete

    rec = parse_record(EX1)
    sp = steps(rec)
    assert len(sp[0].statements) == 4 and len(sp) == 4
    assert all(is_complete(s.record) for s in sp)
    assert [len(s.record.statements) for s in sp] == [4, 5, 6, 7]


def test_a_claim_and_its_shown_line_are_one_step():
    rec = read_record(str(SAMPLES / "literature" / "six-players-full-game.txt"))
    groups = statement_groups(rec)
    pairs = [g for g in groups if len(g) == 2]
    assert pairs
    for g in pairs:
        kinds = [type(rec.statements[i].event).__name__ for i in g]
        assert kinds == ["Claim", "Shown"]
    assert sum(len(g) for g in groups) == len(rec.statements)


# ----- Mystery Hand ---------------------------------------------------------------------------
def test_worked_example_1_step_by_step():
    r = replay(parse_record(EXAMPLE_1))
    vr = r.views["P1"]
    assert [s.summary["candidates"] for s in vr.steps] == [91390, 73815, 52360, 5984]
    assert len(vr.steps[0].new_certain) == 12 and set(vr.steps[0].new_certain.values()) == {"P1"}
    assert vr.steps[1].new_certain == {"4H": "P2", "7H": "P2"}      # shown to P1
    assert vr.steps[2].new_certain == {}                            # counts only
    assert vr.steps[3].new_certain == {"KS": "mystery"}             # nobody had it (E5)
    assert all(s.error is None for s in vr.steps)
    json.dumps(r.to_json())


def test_last_step_agrees_with_the_analysis_of_the_whole_record():
    rec = read_record(str(SAMPLES / "mystery-hand" / "two-player-seen.txt"))
    r = replay(rec)
    last = r.views[rec.header.me].steps[-1]
    a = get_game(rec.game).analyze(rec, rec.header.me)
    assert last.summary["candidates"] == a.mystery.count
    certain = {c: next(iter(ls)) for c, ls in a.possible.items() if len(ls) == 1 and c != "Jk"}
    assert last.knowledge.certain == certain


def test_complete_record_every_view_and_the_truth():
    """From every seat of a simulated complete game: what a view is sure of is true, the
    candidates never grow, and an announcement checked as 'sure' names the true hand."""
    from solver.mystery_hand.inference import true_deal, true_mystery
    from solver.mystery_hand.options import MysteryHandOptions

    rec = get_game("mystery-hand").simulate(3, [], 4, None)
    truth = true_deal(rec)
    mystery = sorted(true_mystery(rec, MysteryHandOptions()))
    views = replay_views(rec)
    assert views == list(rec.header.players) + [None]
    r = replay(rec, views)
    for label, vr in r.views.items():
        unc = [s.uncertainty for s in vr.steps]
        assert all(a >= b - 1e-9 for a, b in zip(unc, unc[1:])), (label, unc)
        for s in vr.steps:
            for card, loc in s.knowledge.certain.items():
                assert truth[Card.parse(card)] == loc, (label, s.index, card)
            if s.knowledge.summary["determined"]:
                assert sorted(s.summary["answer"]) == sorted(map(repr, mystery))
        det = [f for f in vr.findings if f.kind == "determined"]
        if det:
            i = det[0].step
            assert vr.steps[i].knowledge.summary["determined"]
            assert i == 0 or not vr.steps[i - 1].knowledge.summary["determined"]
    announces = [f for f in r.checks if f.kind == "announce"]
    assert announces                       # a simulated game ends with an announcement
    for f in announces:
        before = r.views[f.player].steps[f.step - 1].knowledge
        assert f.ok == before.summary["determined"]
        st = next(s for s in rec.statements if s.line == f.line)
        if f.ok:
            assert st.event.right


def test_plot_marks_come_from_what_a_finding_says_not_its_name():
    """The plot's star is the view's first moment that holds from its own step (Mystery
    Hand's 'determined', Literature's first safe claim); its lines are the commitments
    checked, never the unchecked ones (cli.replay: no game's kinds named there)."""
    from cli.replay import checked, first_sure

    rec = get_game("mystery-hand").simulate(3, [], 4, None)
    r = replay(rec, replay_views(rec))
    for vr in r.views.values():
        det = [f for f in vr.findings if f.kind == "determined"]
        assert first_sure(vr) == (det[0] if det else None)
    assert checked(r) == [f for f in r.checks if f.kind == "announce"] and checked(r)
    lit = replay(read_record(str(SAMPLES / "literature" / "six-players-full-game.txt")))
    assert first_sure(lit.views["Ana"]).kind == "safe-claim"
    assert checked(lit) == [f for f in lit.checks if f.kind == "claim"]
    blind = replay(read_record(str(SAMPLES / "mystery-hand" / "two-player-blind.txt")))
    assert all(f.kind != "unchecked" for f in checked(blind))
    assert any(f.kind == "unchecked" for f in blind.checks)   # so the filter drops one


@pytest.mark.parametrize("name", ["five-players-ana.txt", "four-players-sneak.txt",
                                  "lossy-five-players.txt"])
def test_step_knowledge_is_knowledge_without_the_headline(name):
    """A review's step (Game.step_knowledge): what the view is sure of, the uncertainty and
    what is safe exactly as the replay's knowledge; Mystery Hand's summary only leaves out
    the best guess (its chance costs a pass three times the count's)."""
    game = get_game("mystery-hand")
    rec = read_record(str(SAMPLES / "mystery-hand" / name))
    for n in range(1, len(rec.statements) + 1, 3):
        for view in (rec.header.me, None):
            k, s = game.knowledge(rec.prefix(n), view), game.step_knowledge(rec.prefix(n), view)
            assert (s.certain, s.uncertainty, s.exact, s.bound, s.safe) == \
                (k.certain, k.uncertainty, k.exact, k.bound, k.safe), (n, view)
            assert "best" not in s.summary
            assert {x: v for x, v in s.summary.items() if x != "verdict"} == \
                {x: v for x, v in k.summary.items() if x not in ("best", "verdict")}


@pytest.mark.parametrize("name", ["three-players-keep-em-guessing.txt",
                                  "two-player-seen.txt", "five-players-ana.txt"])
def test_a_replay_without_detail_tells_the_same_story(name):
    """``sleuth replay`` as a table analyses its steps without the headline figures
    (detail=False) and yet prints what the full replay prints: the steps, every view's
    findings, and the checks, whose 'best guess right with p = ...' comes from the full
    analysis of the step they judge."""
    from cli.replay import render_replay

    rec = read_record(str(SAMPLES / "mystery-hand" / name))
    views = replay_views(rec)
    full, lean = replay(rec, views), replay(rec, views, detail=False)
    primary = rec.header.me or PUBLIC
    assert render_replay(lean, primary) == render_replay(full, primary)
    assert [f.to_json() for f in lean.checks] == [f.to_json() for f in full.checks]
    assert any("best" in s.summary for v in full.views.values() for s in v.steps)
    assert not any("best" in s.summary for v in lean.views.values() for s in v.steps)


def test_announcement_of_a_player_without_their_view_is_not_judged():
    rec = read_record(str(SAMPLES / "mystery-hand" / "two-player-blind.txt"))
    r = replay(rec)
    others = [f for f in r.checks if f.player != rec.header.me]
    assert others and all(f.kind == "unchecked" and f.ok is None for f in others)


# ----- Literature -----------------------------------------------------------------------------
def test_ex_a_safe_claim_from_cleos_question():
    rec = read_record(str(SAMPLES / "literature" / "ex-a-six-players.txt"))
    r = replay(rec)
    vr = r.views["Ana"]
    safe = [f for f in vr.findings if f.kind == "safe-claim"]
    assert len(safe) == 1
    line = next(s.line for s in rec.statements if s.text.startswith("Cleo asks Ben 3H"))
    assert safe[0].line == line
    k = vr.steps[safe[0].step].knowledge
    assert k.safe["2H-7H"] == {"Ana": ["2H", "3H", "4H", "6H", "7H"], "Cleo": ["5H"]}
    assert k.summary["halves"]["2H-7H"]["certain"] == 6
    assert not vr.steps[safe[0].step - 1].knowledge.safe


def test_a_claim_judged_safe_is_won():
    """Safe means every holder certain: such a claim cannot be cancelled or lost."""
    rec = read_record(str(SAMPLES / "literature" / "six-players-full-game.txt"))
    r = replay(rec)
    claims = [f for f in r.checks if f.kind == "claim"]
    assert len(claims) == sum(1 for s in rec.statements if type(s.event).__name__ == "Claim")
    assert any(f.ok for f in claims) and any(f.ok is False for f in claims)
    for f in claims:
        if f.ok:
            assert "(won)" in f.text, f.text
    for s in r.views["Ana"].steps:       # certain holders per half-suit never exceed its size
        for h in s.summary["halves"].values():
            assert 0 <= h["certain"] <= h["cards"]


# ----- Mysterium, Hand, Twenty-Two --------------------------------------------------------------
def test_mysterium_forced_cards_are_the_secret_ones():
    rec = read_record(str(SAMPLES / "mysterium" / "three-players-lost.txt"))
    secret = {}
    for s in rec.statements:
        if type(s.event).__name__ == "Secret":
            for kind, n in s.event.cards:
                secret[s.event.psychic, kind] = n
    r = replay(rec, [None])
    vr = r.views[PUBLIC]
    forced = [f for f in vr.findings if f.kind == "forced"]
    assert forced
    for f in forced:
        info = vr.steps[f.step].summary["psychics"][f.player]
        assert secret[f.player, info["stage"]] == info["forced"]
    counts = [s.summary["assignments"] for s in vr.steps if s.summary.get("assignments")]
    assert all(a >= b for a, b in zip(counts, counts[1:]))


def test_hand_replay_ends_with_the_scoresheet_totals():
    rec = read_record(str(SAMPLES / "hand" / "full-hand-bonuses.txt"))
    r = replay(rec)
    vr = next(iter(r.views.values()))
    assert vr.steps[-1].summary["totals"] == get_game("hand").analyze(rec, None).totals
    assert r.measure is None


def test_twenty_two_replay_of_a_simulated_game():
    game = get_game("twenty-two")
    rec = game.simulate(3, [], 1, 12)
    r = replay(rec, replay_views(rec))
    assert set(r.views) == {"Ana", "Ben", "Cleo", PUBLIC}
    for vr in r.views.values():
        assert all(s.error is None for s in vr.steps)
        dealt = next(s for s in vr.steps if s.summary.get("deal"))
        # a player sees their own hand: fewer unseen cards than the public
        if vr.view is not None:
            assert dealt.summary["unseen"] < r.views[PUBLIC].steps[dealt.index].summary["unseen"]


# ----- every sample ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", ALL_SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_sample_replays(path):
    rec = read_record(str(path))
    upto = None if len(rec.statements) <= LONG else FIRST_STEPS
    r = replay(rec, upto=upto)
    vr = next(iter(r.views.values()))
    n = len(steps(rec)) if upto is None else upto + 1
    assert len(vr.steps) == n
    assert all(s.error is None for s in vr.steps), [s.error for s in vr.steps if s.error]
    json.dumps(r.to_json())
    if rec.game == "mystery-hand":
        unc = [s.uncertainty for s in vr.steps]
        assert all(a >= b - 1e-9 for a, b in zip(unc, unc[1:])), unc
    if rec.game in ("mystery-hand", "literature", "mysterium"):
        assert all(s.uncertainty is not None for s in vr.steps[:1])


# ----- the command ----------------------------------------------------------------------------
def run(*args):
    return CliRunner().invoke(cli, ["replay", *map(str, args)])


def test_replay_command_text_and_json():
    path = SAMPLES / "mystery-hand" / "two-player-chosen.txt"
    r = run(path)
    assert r.exit_code == 0, r.output
    assert "candidates" in r.output and "became certain" in r.output
    assert "What happened:" in r.output and "could announce" in r.output
    assert "\x1b[" not in r.output
    # the column shows counts: the title does not call it a log10, the other views' line
    # (which shows the log10) says what it is
    assert "log10" not in r.output.splitlines()[0]
    a = run(path, "--all-views")
    assert "Other views (final uncertainty = log10 of the candidates" in a.output
    j = run(path, "--json", "--upto", 5)
    assert j.exit_code == 0, j.output
    out = json.loads(j.output)
    assert out["game"] == "mystery-hand" and list(out["views"]) == ["Ana"]
    assert len(out["views"]["Ana"]["steps"]) == 6
    assert out["views"]["Ana"]["steps"][0]["statement"] == "(the deal)"


def test_replay_command_views_and_errors(tmp_path):
    path = SAMPLES / "mystery-hand" / "five-players-ana.txt"
    r = run(path, "--as", "public", "--upto", 3, "--json")
    assert r.exit_code == 0 and list(json.loads(r.output)["views"]) == [PUBLIC]
    assert run(path, "--as", "Ben", "--upto", 3).exit_code == 2     # partial: not Ben's view
    assert run(path, "--as", "Zed").exit_code == 2
    assert run(tmp_path / "missing.txt").exit_code == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("game: mystery-hand\nplayers: A B C\nA flies\n", encoding="utf-8")
    assert run(bad).exit_code == 2
    hand = SAMPLES / "hand" / "team-game.txt"
    if hand.exists():
        assert run(hand, "--plot", tmp_path / "x.png").exit_code == 2   # nothing to plot


def test_replay_of_a_forced_contradiction_reports_the_steps(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(EXAMPLE_1 + "P3 asks P4 6*: 0\n", encoding="utf-8")   # contradicts line 7
    r = run(path, "--json")
    assert r.exit_code == 3, r.output
    assert "inconsistent from step 4" in r.stderr and "line 9" in r.stderr
    st = json.loads(r.stdout)["views"]["P1"]["steps"]
    assert st[-1]["error"] and "conflict" in st[-1]["error"]
    assert all(s["error"] is None for s in st[:-1])


def test_parallel_views_give_the_same_replay():
    rec = read_record(str(SAMPLES / "mystery-hand" / "two-player-seen.txt"))
    views = replay_views(rec)
    a = replay(rec, views, upto=4, jobs=1).to_json()
    b = replay(rec, views, upto=4, jobs=2).to_json()
    assert a == b


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_plot_is_a_real_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "story.png"
    r = run(SAMPLES / "mystery-hand" / "two-player-seen.txt", "--plot", out, "--jobs", 1)
    assert r.exit_code == 0, r.output
    assert f"wrote {out}" in r.output
    w, h = png_size(out)
    assert 600 <= w <= 2000 and 300 <= h <= 1500
    assert out.stat().st_size > 10_000          # lines, axes and a legend, not an empty canvas


def test_plot_without_matplotlib_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # import fails
    out = tmp_path / "story.png"
    r = run(SAMPLES / "literature" / "ex-a-six-players.txt", "--plot", out)
    assert r.exit_code == 2
    assert "pip install -e '.[plot]'" in r.output
    assert not out.exists()


def test_one_view_replayed_in_two_processes_is_the_same(monkeypatch, process_pools):
    """A view's steps probed in parallel processes (issue 15: replay uses both cores) give
    exactly the sequential replay."""
    import solver.replay as rp
    from solver.records import read_record

    monkeypatch.setattr(rp, "PARALLEL_STEPS", 2)      # this short record in parallel too
    pools = process_pools
    rec = read_record("samples/literature/ex-a-six-players.txt")
    one = rp.replay(rec, jobs=1)
    assert not pools
    two = rp.replay(rec, jobs=2)
    assert pools == [2]
    assert two.to_json() == one.to_json()
