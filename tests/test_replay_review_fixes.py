"""replay and review: the steps finished before a time-out are kept (exit 4), one step
numbering for both, and a Literature claim out of turn (LIT-12) is said and never called
safe or the advisor's best."""
from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from cli.main import cli
from solver.model.budget import TimeUp

EX_A = "samples/literature/ex-a-six-players.txt"
CLAIM = "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H"


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _time_up_from(n_statements, monkeypatch):
    """Every replay step whose record has at least ``n_statements`` statements runs out of
    time (in this process and in forked workers)."""
    import solver.replay as sr

    real = sr.probe

    def probe(record, view, budget=sr.STEP_BUDGET, detail=True):
        if len(record.statements) >= n_statements:
            raise TimeUp(2, "the analysis")
        return real(record, view, budget, detail)

    monkeypatch.setattr(sr, "probe", probe)


# ----- 1. a time-out keeps the finished steps ----------------------------------------------
def test_replay_time_out_prints_the_steps_done_then_exits_4(monkeypatch):
    _time_up_from(4, monkeypatch)          # EX-A: step 3 is the 4th statement
    r = run("replay", EX_A, "--jobs", "1")
    assert r.exit_code == 4, r.output
    assert "step 3 of the replay: the analysis did not finish within 2 s" in r.stderr
    rows = [ln.split()[0] for ln in r.stdout.splitlines() if ln[:6].strip().isdigit()]
    assert rows == ["0", "1", "2"], r.stdout
    assert "Ana asks Ben 10S" in r.stdout and "Cleo asks Ben 3H" not in r.stdout
    assert "Unfinished: step 3 (Ana)" in r.stdout


def test_replay_time_out_at_step_0_says_no_step_came_before(monkeypatch):
    _time_up_from(0, monkeypatch)
    r = run("replay", EX_A, "--jobs", "1")
    assert r.exit_code == 4, r.output
    said = " ".join(r.stdout.split())
    assert "Unfinished: step 0 (Ana)" in said and "no step was analysed before it" in said
    assert "the steps before it are above" not in said


def test_replay_json_time_out_is_a_document_with_the_steps_done(monkeypatch):
    _time_up_from(4, monkeypatch)
    r = run("replay", EX_A, "--jobs", "1", "--json")
    assert r.exit_code == 4, r.output
    out = json.loads(r.stdout)
    assert [s["step"] for s in out["views"]["Ana"]["steps"]] == [0, 1, 2]
    assert out["unfinished"] == {"seconds": 2, "what": "step 3 of the replay: the analysis",
                                 "step": 3, "view": "Ana"}
    assert out["views"]["Ana"]["unfinished"]["step"] == 3
    assert "did not finish within 2 s" in r.stderr


def test_replay_time_out_in_worker_processes_keeps_the_steps_before(monkeypatch):
    rec = "samples/mystery-hand/six-players-sneak-complete.txt"   # 7 deal lines, 99 steps
    _time_up_from(7 + 20, monkeypatch)     # step 20 and after
    r = run("replay", rec, "--upto", "30", "--jobs", "2", "--json")
    assert r.exit_code == 4, r.output
    out = json.loads(r.stdout)
    (view,) = out["views"].values()
    assert [s["step"] for s in view["steps"]] == list(range(20))
    assert out["unfinished"]["step"] == 20


def test_replay_all_views_time_out_keeps_every_view_done(monkeypatch):
    import solver.replay as sr

    real = sr.probe

    def probe(record, view, budget=sr.STEP_BUDGET, detail=True):
        if view is None and len(record.statements) >= 3:     # the public view's step 2
            raise TimeUp(2, "the analysis")
        return real(record, view, budget, detail)

    monkeypatch.setattr(sr, "probe", probe)
    r = run("replay", EX_A, "--all-views", "--jobs", "2", "--json")
    assert r.exit_code == 4, r.output
    out = json.loads(r.stdout)
    assert len(out["views"]["Ana"]["steps"]) == 5 and "unfinished" not in out["views"]["Ana"]
    assert len(out["views"]["public"]["steps"]) == 2
    assert out["unfinished"]["view"] == "public" and out["unfinished"]["step"] == 2
    text = run("replay", EX_A, "--all-views", "--jobs", "2")
    assert text.exit_code == 4 and "Unfinished: step 2 (public)" in text.stdout
    assert "Other views (final uncertainty" in text.stdout


# ----- 2. one numbering ----------------------------------------------------------------------
def test_review_numbers_steps_as_replay_does():
    rv = json.loads(run("review", EX_A, "--json").stdout)
    rp = json.loads(run("replay", EX_A, "--json").stdout)
    step_of_line = {ln: s["step"] for s in rp["views"]["Ana"]["steps"] for ln in s["lines"]}
    assert rv["first_safe"]["line"] == 12
    assert rv["first_safe"]["step"] == step_of_line[12] == 3
    safe = next(f for f in rp["views"]["Ana"]["findings"] if f["kind"] == "safe-claim")
    assert safe["step"] == rv["first_safe"]["step"]
    for t in rv["turns"]:
        assert t["step"] == step_of_line[t["line"]]
    assert [x for x, _ in rv["curve"]] == [s["step"] for s in rp["views"]["Ana"]["steps"]]
    text = run("review", EX_A).stdout
    assert "first safe moment: step 3 (line 12)" in text


def test_review_time_out_names_the_replay_step(monkeypatch):
    from solver.literature.game import LiteratureGame

    real = LiteratureGame.step_knowledge

    def step_knowledge(self, record, view, budget=None):
        if len(record.statements) >= 4:
            raise TimeUp(2, "the analysis")
        return real(self, record, view, budget) if budget is not None else \
            real(self, record, view)

    monkeypatch.setattr(LiteratureGame, "step_knowledge", step_knowledge)
    r = run("review", EX_A)
    assert r.exit_code == 4
    assert "step 3 of the review: the analysis did not finish" in r.stderr
    assert "Unfinished: step 3 did not finish" in " ".join(r.stdout.split())


FULL = "samples/literature/six-players-full-game.txt"


def _review_time_up_from(n_statements, monkeypatch):
    """Every prefix of the review with at least ``n_statements`` statements runs out of time
    (in this process and in forked workers)."""
    from solver.literature.game import LiteratureGame

    real = LiteratureGame.step_knowledge

    def step_knowledge(self, record, view, budget=None):
        if len(record.statements) >= n_statements:
            raise TimeUp(2, "the analysis")
        return real(self, record, view, budget) if budget is not None else \
            real(self, record, view)

    monkeypatch.setattr(LiteratureGame, "step_knowledge", step_knowledge)


def test_review_time_out_prints_the_turns_done_then_exits_4(monkeypatch):
    """The turns before the prefix out of time are reviewed and printed (the review printed
    nothing but the error line), then the time-out; exit 4.  With --json: one document
    with those turns and an 'unfinished' part."""
    whole = json.loads(run("review", FULL, "--json").stdout)
    _review_time_up_from(30, monkeypatch)
    r = run("review", FULL)
    assert r.exit_code == 4, r.output
    said = " ".join(r.stdout.split())
    cut = json.loads(run("review", FULL, "--json").stdout)
    step = cut["unfinished"]["step"]
    assert f"Unfinished: step {step} did not finish" in said
    done = [t for t in whole["turns"] if t["step"] < step]
    assert done and cut["turns"] == done, (step, cut["turns"])
    assert len(cut["turns"]) < len(whole["turns"])
    assert cut["curve"] == [c for c in whole["curve"] if c[0] < step]


# ----- 3. a claim out of turn (LIT-12) -------------------------------------------------------
def _record(tmp_path, on_turn: bool):
    p = tmp_path / "l.txt"
    shutil.copy(EX_A, p)
    if not on_turn:         # without the last line it is Ben's turn
        lines = p.read_text().splitlines(keepends=True)
        p.write_text("".join(lines[:-1]))
    return str(p)


def test_log_says_a_claim_was_out_of_turn_and_what_it_cost(tmp_path):
    rec = _record(tmp_path, on_turn=False)
    r = run("log", rec, CLAIM)
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert "logged line 13" in said
    assert "Out of turn: Ana's claim of 2H-7H (line 13; it was Ben's turn) is cancelled" in said
    assert "(LIT-12)" in said and "on Ana's turn it would have won 2H-7H" in said


def test_a_claim_on_turn_has_no_out_of_turn_note(tmp_path):
    rec = _record(tmp_path, on_turn=True)
    r = run("log", rec, CLAIM)
    assert r.exit_code == 0, r.output
    assert "Out of turn" not in r.stdout and "LIT-12" not in r.stdout


def test_review_and_replay_do_not_call_an_out_of_turn_claim_safe(tmp_path):
    rec = _record(tmp_path, on_turn=False)
    assert run("log", rec, CLAIM).exit_code == 0
    rv = json.loads(run("review", rec, "--json").stdout)
    t = next(t for t in rv["turns"] if t["line"] == 13)
    assert t["taken"] != t["best"] and t["taken_score"] < t["best_score"] - 0.1
    assert any("out of turn (LIT-12)" in m for m in t["mistakes"])
    text = " ".join(run("review", rec).stdout.split())
    assert "the advisor's best (score" not in text.split("line 13:")[1]
    rp = json.loads(run("replay", rec, "--json").stdout)
    (claim,) = [f for f in rp["checks"] if f["kind"] == "claim"]
    assert claim["ok"] is False and "out of turn" in claim["text"]
    out = " ".join(run("replay", rec).stdout.split())
    assert "safely" not in out and "claim NOT OK: Ana claimed 2H-7H at line 13 out of turn" in out


def test_a_claim_on_turn_is_still_safe_and_best(tmp_path):
    rec = _record(tmp_path, on_turn=True)
    assert run("log", rec, CLAIM).exit_code == 0
    rv = json.loads(run("review", rec, "--json").stdout)
    t = next(t for t in rv["turns"] if t["line"] == 14)
    assert t["taken"] == t["best"] and not t["mistakes"]
    rp = json.loads(run("replay", rec, "--json").stdout)
    (claim,) = [f for f in rp["checks"] if f["kind"] == "claim"]
    assert claim["ok"] is True and "safely" in claim["text"]


def test_the_safe_claim_alert_comes_only_when_the_claim_may_be_made(tmp_path):
    """The alert that the view can claim a half-suit safely comes on its turn; on another's
    the claim would be out of turn (LIT-12: cancelled at best), and the alert said 'You can
    claim 2H-7H safely' all the same.  The sheet lists the safe claim either way."""
    now = " ".join(run("analyze", _record(tmp_path, on_turn=True)).stdout.split())
    assert "You can claim 2H-7H safely (LIT-11(a)): Ana 2H 3H 4H 6H 7H, Cleo 5H." in now
    (tmp_path / "later").mkdir()
    later = " ".join(run("analyze", _record(tmp_path / "later", on_turn=False)).stdout.split())
    assert "You can claim 2H-7H" not in later
    assert "Safe claims (certain, LIT-11(a)): Ana claims 2H-7H" in later
