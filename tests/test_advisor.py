"""The advisor (issue 16): figures against brute-force enumeration on tiny states, the
ranking's determinism, the CLI verbs, and the review page (structure; a real headless
browser when one is installed)."""
from __future__ import annotations

import itertools
import json
import math
import random
import shutil
import subprocess
from collections import Counter, defaultdict
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from cli.main import cli
from solver.advice import posterior
from solver.errors import SleuthError
from solver.model.counting import OverBudget, all_deals
from solver.cards import standard_deck
from solver.games import Capability, games, get_game
from solver.model import CardLocationModel
from solver.records import parse_record

TOL = 1e-9


# ----- brute force ---------------------------------------------------------------------------
def brute_deals(model) -> list[dict]:
    """Every consistent deal of ``model`` by plain enumeration: cards pinned by a one-card
    statement are fixed, every other card tries every location, and a deal is kept when
    it meets the sizes and every statement.  Independent of the counting module."""
    locs = model.locations
    allowed = {c: set(locs) for c in model.cards}
    for con in model.constraints:
        if len({ci for ci, _ in con.terms}) == 1:
            ci = next(iter(con.terms))[0]
            ls = {locs[li] for _, li in con.terms}
            c = model.cards[ci]
            if con.lo >= 1:
                allowed[c] &= ls
            if con.hi == 0:
                allowed[c] -= ls
    free = [c for c in model.cards if len(allowed[c]) > 1]
    assert len(free) <= 12, "not a tiny state"
    fixed = {c: next(iter(allowed[c])) for c in model.cards if len(allowed[c]) == 1}
    out = []
    for combo in itertools.product(*[sorted(allowed[c]) for c in free]):
        deal = dict(fixed)
        deal.update(zip(free, combo))
        sizes = Counter(deal.values())
        if any(sizes.get(l, 0) != model.sizes[l] for l in locs):
            continue
        ok = True
        for con in model.constraints:
            k = sum(1 for ci, li in con.terms if deal[model.cards[ci]] == locs[li])
            if not con.lo <= k <= con.hi:
                ok = False
                break
        if ok:
            out.append(deal)
    return out


def dist(values) -> dict:
    c = Counter(values)
    n = sum(c.values())
    return {k: v / n for k, v in c.items()}


def H(d: dict) -> float:
    return -sum(p * math.log2(p) for p in d.values() if p > 0)


def mi(pairs) -> float:
    """I(X; Y) from equally likely (x, y) pairs."""
    pairs = list(pairs)
    return H(dist(x for x, _ in pairs)) + H(dist(y for _, y in pairs)) - H(dist(pairs))


def kl_cond(xs, mask) -> float:
    p = dist(xs)
    q = dist(x for x, m in zip(xs, mask) if m)
    return sum(v * math.log2(v / p[k]) for k, v in q.items())


# ----- a tiny Mystery Hand state ---------------------------------------------------------------
def tiny_mystery_hand(seed: int = 3) -> str:
    """Three players, Cleo first (MH-7); Cleo announced wrongly (her hand is public, MH-20); Ana and Ben then
    requested most of each other's cards (E4, public): a spectator is left with 8 cards in
    three places, Ana with 6."""
    rng = random.Random(seed)
    deck = standard_deck()
    rng.shuffle(deck)
    m, ana, ben, cleo = deck[:4], deck[4:20], deck[20:36], deck[36:52]
    guess = sorted(m[:3] + [ana[0]])
    lines = ["game: mystery-hand", "players: Ana Ben Cleo", "dealer: Ben", "me: Ana",
             "Ana holds: " + " ".join(map(repr, sorted(ana))),
             "Cleo announces " + " ".join(map(repr, guess)) + ": wrong",
             "Cleo holds: " + " ".join(map(repr, sorted(cleo)))]
    for i in range(14):
        lines.append(f"Ana requests {ben[i]!r}: Ben")
        lines.append(f"Ben requests {ana[i + 2]!r}: Ana")
    return "\n".join(lines) + "\n"


def mh_answer(kind, deal, action, active):
    """What the asker Ana sees, and what a spectator sees, in one deal."""
    words = action.split()
    if kind == "ask-one":
        from solver.cards import parse_query_set
        X = parse_query_set(words[3]).cards()
        shown = tuple(sorted(repr(c) for c in X if deal[c] == words[2]))
        return shown, len(shown), X
    if kind == "ask-all":
        from solver.cards import parse_query_set
        X = parse_query_set(words[3]).cards()
        counts = tuple((p, sum(1 for c in X if deal[c] == p)) for p in active if p != "Ana")
        return counts, counts, X
    from solver.cards import Card
    c = Card.parse(words[2])
    who = next((p for p in active if p != "Ana" and deal[c] == p), None)
    return who, who, [c]


def test_tiny_state_is_enumerated_and_matches_brute_force():
    from solver.mystery_hand.inference import build

    rec = parse_record(tiny_mystery_hand(), validate=False)
    vm = build(rec, "Ana")
    brute = brute_deals(vm.model)
    post = posterior(vm.model)
    assert post.exact and len(post.deals) == len(brute) > 1
    got = {tuple(vm.model.locations[li] for li in row) for row in post.deals.tolist()}
    want = {tuple(d[c] for c in vm.model.cards) for d in brute}
    assert got == want


def test_mystery_hand_figures_equal_brute_force():
    from solver.mystery_hand.advise import suggest
    from solver.mystery_hand.inference import build

    rec = parse_record(tiny_mystery_hand(), validate=False)
    adv = suggest(rec, "Ana")
    assert adv.exact and adv.method == "enumerated"
    deals = brute_deals(build(rec, "Ana").model)
    pub = brute_deals(build(rec, None).model)
    active = ["Ana", "Ben"]

    def M(d):
        return frozenset(c for c, l in d.items() if l == "mystery")

    checked = Counter()
    for a in adv.actions:
        if a.kind == "announce":
            best = Counter(M(d) for d in deals).most_common(1)[0][1] / len(deals)
            assert abs(a.more["p_right"] - best) < TOL
            continue
        rows = [(M(d),) + mh_answer(a.kind, d, a.action, active) for d in deals]
        # info_bits = I(M; what Ana sees)
        assert abs(a.info_bits - mi((r[0], r[1]) for r in rows)) < TOL, a.action
        # p_answers: the distribution of what Ana sees
        pa = dist(r[1] for r in rows)
        assert abs(sum(a.p_answers.values()) - 1) < TOL
        assert sorted(a.p_answers.values()) == pytest.approx(sorted(pa.values()), abs=TOL)
        # extra turn (MH-12 / MH-14)
        if a.kind == "ask-one":
            pe = sum(1 for r in rows if r[2] >= 3) / len(rows)
        elif a.kind == "ask-all":
            pe = sum(1 for r in rows if sum(k for _, k in r[2]) == 4) / len(rows)
        else:
            pe = 0.0
        assert abs(a.more["p_extra_turn"] - pe) < TOL
        # determined after / candidates after
        by = defaultdict(set)
        for r in rows:
            by[r[1]].add(r[0])
        assert abs(a.more["p_determined"] - sum(len(by[r[1]]) == 1 for r in rows) / len(rows)) < TOL
        assert abs(a.more["candidates_after"] - sum(len(by[r[1]]) for r in rows) / len(rows)) < TOL
        # leak_bits: what a spectator learns about M from the question's legality
        # (MH-11 / MH-15) and the part of the answer it sees (E1c, E3, E4/E5)
        prow = [(M(d),) + mh_answer(a.kind, d, a.action, active) for d in pub]
        X = prow[0][3]
        if a.kind == "request":
            legal = [d[X[0]] != "Ana" for d in pub]
        else:
            legal = [sum(1 for c in X if d[c] == "Ana") <= 3 for d in pub]
        leak = kl_cond([r[0] for r in prow], legal) + mi(
            (r[0], r[2]) for r, ok in zip(prow, legal) if ok)
        assert abs(a.leak_bits - leak) < TOL, a.action
        checked[a.kind] += 1
    assert checked["ask-one"] and checked["ask-all"] and checked["request"]


def test_ranking_is_deterministic_and_sorted():
    from solver.mystery_hand.advise import suggest

    rec = parse_record(tiny_mystery_hand(5), validate=False)
    a1 = [(x.action, x.score) for x in suggest(rec, "Ana").actions]
    a2 = [(x.action, x.score) for x in suggest(rec, "Ana").actions]
    assert a1 == a2
    assert all(a1[i][1] >= a1[i + 1][1] - 1e-12 for i in range(len(a1) - 1))
    # a sampled posterior is seeded: same record, same ranking
    g = get_game("mystery-hand")
    sim = g.simulate(4, [], seed=2, events=8)
    s1 = [x.action for x in g.suggest(sim, "Ana").actions[:10]]
    s2 = [x.action for x in g.suggest(sim, "Ana").actions[:10]]
    assert s1 == s2


def test_a_determined_hand_is_announced_first():
    from solver.mystery_hand.advise import suggest

    rec = parse_record(tiny_mystery_hand(), validate=False)
    adv = suggest(rec, "Ana")
    ann = next(a for a in adv.actions if a.kind == "announce")
    assert ann.more["safe"] == (ann.more["p_right"] == 1.0)
    if ann.more["safe"]:
        assert adv.actions[0] is ann


# ----- Literature ------------------------------------------------------------------------------
def tiny_literature():
    """A simulated 6-player game cut where the view's and the spectator's posteriors are
    both small enough to enumerate."""
    from solver.literature import inference
    from solver.literature.engine import Play
    from solver.model.counting import exact_count
    from solver.records import Record

    g = get_game("literature")
    for seed in range(1, 40):
        full = g.simulate(6, (), seed=seed)
        for n in range(len(full.statements) - 1, 8, -1):
            rec = Record(full.header, full.statements[:n])
            play = Play.of(rec)
            if play.over or play.turn is None or play.count.get(play.turn, 0) == 0:
                continue
            view = play.turn
            try:
                a = exact_count(inference.build(rec, view, play).model).total
                b = exact_count(inference.build(rec, None, play).model).total
            except (OverBudget, SleuthError):   # too big to count, or not a valid view
                continue
            if 2 <= a <= 400 and 2 <= b <= 2000:
                return rec, view
    pytest.skip("no tiny Literature state found")


def test_literature_figures_equal_brute_force():
    from solver.literature import inference
    from solver.literature.advise import suggest
    from solver.literature.engine import Play

    rec, view = tiny_literature()
    play = Play.of(rec)
    t = play.table
    adv = suggest(rec, view)
    assert adv.exact
    vm = inference.build(rec, view, play)
    vp = inference.build(rec, None, play)

    def holders(vm, deals):
        return [{k: vm.fixed.get(k, d.get(k)) for k in t.keys} for d in deals]

    deals = holders(vm, brute_deals(vm.model))
    pub = holders(vp, brute_deals(vp.model))
    n_q = 0
    for a in adv.actions:
        if a.kind == "question":
            _, _, b, c = a.action.split()
            from solver.cards import Card
            card = Card.parse(c)
            ck = t.card_keys[card]
            yes = [any(d[k] == b for k in ck) for d in deals]
            p = sum(yes) / len(yes)
            assert abs(a.p_answers["yes"] - p) < TOL
            assert abs(a.info_bits - H({0: p, 1: 1 - p})) < TOL
            hk = play.keys_of_half(t.half_of[card].name)
            fact = [any(d[k] == view for k in hk if k not in ck)
                    and not all(d[k] == view for k in ck) for d in pub]
            pf = sum(fact) / len(fact)
            assert abs(a.leak_bits - (-math.log2(pf))) < TOL
            n_q += 1
        else:
            hk = play.keys_of_half(a.action.split()[2].rstrip(":"))
            team = set(t.team_of(view))
            pt = sum(all(d[k] in team for k in hk) for d in deals) / len(deals)
            o = a.more["outcomes"]
            assert abs(o["won"] + o["cancelled"] - pt) < TOL
            assert abs(o["lost"] - (1 - pt)) < TOL
            if a.more["safe"]:
                assert pt == 1.0 and o["won"] == 1.0
    assert n_q


def test_literature_safe_claim_first():
    from solver.literature.advise import suggest

    rec = parse_record(open("samples/literature/ex-a-six-players.txt").read())
    adv = suggest(rec, rec.header.me)
    assert adv.actions[0].kind == "claim" and adv.actions[0].more["safe"]
    assert adv.actions[0].action.startswith(f"{rec.header.me} claims 2H-7H")


# ----- the generic machinery ---------------------------------------------------------------------
def test_enumeration_matches_brute_force_on_small_models():
    rng = random.Random(7)
    for trial in range(12):
        cards = list("abcdefgh")
        m = CardLocationModel(cards, {"P": 3, "Q": 3, "M": 2})
        for _ in range(rng.randint(1, 4)):
            cs = rng.sample(cards, rng.randint(2, 4))
            loc = rng.choice(["P", "Q", "M"])
            k = rng.randint(0, len(cs))
            m.add(cs, [loc], k, k)
        brute = brute_deals(m)
        got = all_deals(m, 10_000)
        assert got is not None
        assert {tuple(m.locations[li] for li in r) for r in got.tolist()} == \
            {tuple(d[c] for c in cards) for d in brute}
        assert len(got) == len(brute)


def test_sampled_figures_are_labelled_estimates():
    g = get_game("mystery-hand")
    rec = g.simulate(4, [], seed=4, events=6)
    adv = g.suggest(rec, "Ana")
    assert not adv.exact and adv.method == "sampled"
    q = next(a for a in adv.actions if a.kind == "ask-one")
    assert not q.exact and "error" in q.more and q.more["candidates_after_bound"] == "lower"
    assert 0.0 <= q.info_bits and abs(sum(q.p_answers.values()) - 1) < 1e-9


# ----- CLI -------------------------------------------------------------------------------------
def test_advise_capability_is_declared_by_the_advised_games():
    names = [g.name for g in games(Capability.ADVISE)]
    assert "mystery-hand" in names and "literature" in names


def test_cli_suggest_json_shape(tmp_path):
    r = CliRunner().invoke(cli, ["suggest", "samples/literature/ex-a-six-players.txt",
                                 "--json", "--top", "3"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert list(out)[:3] == ["view", "on_turn", "actions"]
    assert len(out["actions"]) == 3
    for a in out["actions"]:
        for key in ("action", "score", "info_bits", "p_answers", "leak_bits", "exact"):
            assert key in a
    scores = [a["score"] for a in out["actions"]]
    assert scores == sorted(scores, reverse=True)


def test_cli_suggest_text_and_public_view_refused():
    r = CliRunner().invoke(cli, ["suggest", "samples/literature/ex-a-six-players.txt",
                                 "--top", "2"])
    assert r.exit_code == 0 and "claims 2H-7H" in r.output
    r = CliRunner().invoke(cli, ["suggest", "samples/literature/ex-a-six-players.txt",
                                 "--as", "public"])
    assert r.exit_code == 2 and "player's view" in r.output


class _Checker(HTMLParser):
    VOID = {"meta", "br", "img", "input", "link", "hr", "circle", "path", "line", "rect"}

    def __init__(self):
        super().__init__()
        self.stack, self.tags, self.errors = [], Counter(), []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] += 1

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] }")
        else:
            self.stack.pop()


def test_cli_review_html_is_self_contained_and_well_formed(tmp_path):
    page = tmp_path / "review.html"
    r = CliRunner().invoke(cli, ["review", "samples/literature/ex-a-six-players.txt",
                                 "--html", str(page)])
    assert r.exit_code == 0, r.output
    assert "first safe moment" in r.output
    text = page.read_text()
    p = _Checker()
    p.feed(text)
    assert not p.errors and not p.stack
    assert p.tags["svg"] == 1 and p.tags["section"] >= 1 and p.tags["table"] >= 1
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text and "<script src" not in text
    data = json.loads(text.split('id="review-data">')[1].split("</script>")[0])
    assert data["view"] == "Ana" and data["turns"]


@pytest.mark.skipif(not (shutil.which("chromium") or shutil.which("chromium-browser")),
                    reason="no headless chromium installed")
def test_review_page_renders_in_a_headless_browser(tmp_path):
    page = tmp_path / "review.html"
    r = CliRunner().invoke(cli, ["review", "samples/literature/ex-a-six-players.txt",
                                 "--html", str(page)])
    assert r.exit_code == 0
    shot = tmp_path / "shot.png"
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                    f"--screenshot={shot}", "--window-size=1000,1400", f"file://{page}"],
                   capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 5000
    dom = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          f"file://{page}"], capture_output=True, text=True, timeout=120).stdout
    assert "id=\"uncertainty\"" in dom and "Review of Ana" in dom


# ----- exposure ------------------------------------------------------------------------------
@pytest.mark.parametrize("sample", ["samples/mystery-hand/five-players-ana.txt",
                                    "samples/literature/ex-a-six-players.txt"])
def test_analyze_exposure_is_the_public_view_of_the_hand(sample):
    rec = parse_record(open(sample).read())
    g = get_game(rec.game)
    r = CliRunner().invoke(cli, ["analyze", sample, "--exposure", "--json"])
    assert r.exit_code == 0, r.output
    exp = json.loads(r.output)["exposure"]
    assert exp["view"] == rec.header.me
    pub_all = g.analyze(rec, None).to_json()
    pub = pub_all["cards"]
    assert exp["exact"] == pub_all["exact"]
    assert exp["error"] == (0.0 if exp["exact"] else pub_all["error"]) and (
        exp["exact"] or exp["error"] > 0)
    for c, p in exp["cards"].items():
        assert abs(pub[c].get(rec.header.me, 0.0) - p) < TOL
    assert set(exp["certain"]) == {c for c, d in pub.items() if d == {rec.header.me: 1.0}}
    from solver.literature.events import Holds as LitHolds
    from solver.mystery_hand.events import Holds as MHHolds

    held = {repr(c) for s in rec.statements
            if isinstance(s.event, (LitHolds, MHHolds)) and s.event.player == rec.header.me
            for c in s.event.cards}
    assert set(exp["certain"]) <= held
    if rec.game == "literature":
        r = CliRunner().invoke(cli, ["analyze", sample, "--exposure"])
        assert "what the table knows" in r.output


def test_an_exposure_over_its_budget_is_an_estimate_that_keeps_the_certainties(monkeypatch):
    """The exposure's public count has its own, smaller budget (EXPOSURE_STATES): past it
    the chances are estimates with their error bar, and the certain cards are still
    exactly those of the exact public analysis."""
    import solver.mystery_hand.advise as adv

    sample = "samples/mystery-hand/five-players-ana.txt"
    rec = parse_record(open(sample).read())
    g = get_game(rec.game)
    exact = g.exposure(rec, rec.header.me)
    assert exact["exact"] and exact["error"] == 0.0
    monkeypatch.setattr(adv, "EXPOSURE_STATES", 20)
    est = g.exposure(rec, rec.header.me)
    assert not est["exact"] and 0 < est["error"] < 0.2
    assert est["certain"] == exact["certain"]
    assert set(est["cards"]) == set(exact["cards"])       # impossible stays impossible
    for c, p in est["cards"].items():
        assert abs(p - exact["cards"][c]) <= 3 * est["error"] + 1e-9


def test_review_finds_every_taken_question_among_the_advice():
    g = get_game("mystery-hand")
    rec = g.simulate(4, [], seed=6, events=9)
    rv = g.review(rec, "Ana")
    assert rv.turns and len(rv.curve) == len(rec.statements) + 1
    for t in rv.turns:
        if "announces" not in t.taken:
            assert t.taken_score is not None, t.taken     # the taken action was ranked
            assert t.taken_score <= t.best_score + 1e-12
            assert t.taken_info <= t.best_info + 1e-12
        assert t.sheet and all(isinstance(v, str) for v in t.sheet.values())


def test_play_suggest_command(tmp_path):
    rec = tmp_path / "game.txt"
    rec.write_text(open("samples/literature/ex-a-six-players.txt").read())
    r = CliRunner().invoke(cli, ["play", str(rec), "--no-sheet"], input="suggest 2\nquit\n")
    assert r.exit_code == 0, r.output
    assert "claims 2H-7H" in r.output and "tells:" in r.output
    r = CliRunner().invoke(cli, ["play", str(rec), "--json"], input="suggest 1\n")
    out = [json.loads(l) for l in r.output.splitlines() if l.startswith("{")]
    adv = next(o for o in out if o["result"] == "suggest")["advice"]
    assert len(adv["actions"]) == 1 and adv["actions"][0]["kind"] == "claim"


@pytest.mark.slow
def test_literature_advice_on_a_record_with_unseen_events():
    """A record with '?' lines (issue 13) is advised from its witness histories: labelled
    estimates, every chance 0 or 1 only when the logic (the backbone) says so."""
    from solver.literature import inference
    from solver.literature.advise import _support, suggest
    from solver.literature.engine import Play
    from solver.records import read_record

    rec = read_record("samples/literature/lossy-six-players.txt")
    view = rec.header.me
    adv = suggest(rec, view, with_leak=False)
    assert adv.actions and not adv.exact
    assert any("consistent histor" in n for n in adv.notes)
    vm = inference.build(rec, view, Play.of(rec))
    sup = _support(vm)
    t = vm.table
    for a in adv.actions:
        if a.kind != "question":
            continue
        _, _, b, card = a.action.split()
        keys = t.card_keys[next(c for c in t.card_keys if repr(c) == card)]
        p = a.p_answers["yes"]
        certain = any(sup[k] == {b} for k in keys)
        possible = any(b in sup[k] for k in keys)
        assert (p < 1.0 or certain) and (p > 0.0 or not possible), a.action
        if adv.summary["proved"] == "all":      # every 0 and 1 once the backbone is whole
            assert (p == 1.0) == certain and (p == 0.0) == (not possible), a.action


def test_review_works_on_every_advised_sample(tmp_path):
    """'Done when' of issue 16: review runs on the Mystery Hand and Literature samples
    (here the record with unseen events, the one the advisor used to refuse)."""
    lines = open("samples/literature/lossy-six-players.txt").read().splitlines()
    # up to the first unseen answer and past Ana's next turn (the sample's header comment has
    # six lines since commit 26596cc: Ana's first question is on line 13)
    short = tmp_path / "lossy.txt"
    short.write_text("\n".join(lines[:21]) + "\n")
    assert "Fay asks Eli KD: ?" in short.read_text()
    r = CliRunner().invoke(cli, ["review", str(short)])
    assert r.exit_code == 0, r.output
    assert "review of Ana's turns" in r.output and "line 13: Ana asks Dev 6S" in r.output


def test_play_hint_when_asked_for_in_a_piped_session(tmp_path):
    """The one-line hint on the view's turn: off when piped, on with --hint (issue 16)."""
    rec = tmp_path / "g.txt"
    rec.write_text("game: mystery-hand\nplayers: Ana Ben Cleo Dev\nme: Ana\n"
                   "Ana holds: 2C 5C 9C KC 3D 6D 10D QD 4H 7H JH 2S\n"
                   "Ana asks Ben 2H-5H: 1\nBen asks Cleo 6H-9H: 0\nCleo asks Dev 2S-5S: 2\n")
    line = "Dev asks Ana 10S-KS: 0\nundo\n"
    quiet = CliRunner().invoke(cli, ["play", str(rec), "--no-sheet"], input=line)
    loud = CliRunner().invoke(cli, ["play", str(rec), "--no-sheet", "--hint"], input=line)
    assert quiet.exit_code == 0 and loud.exit_code == 0, loud.output
    assert "advisor:" not in quiet.output
    hint = next(l for l in loud.output.splitlines() if l.startswith("advisor: "))
    assert hint.startswith("advisor: Ana ") and "bits" in hint


def test_review_in_two_processes_is_the_same(monkeypatch, process_pools):
    """The review's prefixes shared among processes give the sequential review."""
    import os

    import solver.advice as advice
    from solver.records import read_record

    monkeypatch.setattr(advice, "PARALLEL_REVIEW", 2)
    pools = process_pools
    rec = read_record("samples/mystery-hand/two-player-seen.txt")
    game = get_game(rec.game)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    seq = game.review(rec, rec.header.me)
    assert not pools
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    two = game.review(rec, rec.header.me)
    assert pools == [2]
    assert two.to_json() == seq.to_json()


def test_analyze_shows_the_exposure_on_the_sheet_by_default(monkeypatch):
    """Issue 16 item 3: the sheet says what the table knows about the view's hand unless
    --no-exposure; the JSON carries it when asked (it costs a second analysis).  (By
    default it is waited for only a fifth longer than the analysis: here as long as it
    takes, so that a busy machine does not decide the test.)"""
    from cli import commands

    monkeypatch.setattr(commands, "EXPOSURE_PATIENCE", 1e6)
    monkeypatch.setattr(commands, "core_free", lambda: True)
    s = "samples/mystery-hand/five-players-ana.txt"
    run = lambda *a: CliRunner().invoke(cli, ["analyze", s, *a])   # noqa: E731
    shown, hidden, as_json = run(), run("--no-exposure"), run("--json")
    assert shown.exit_code == hidden.exit_code == as_json.exit_code == 0
    assert "what the table knows about Ana's hand" in shown.output
    assert "what the table knows" not in hidden.output
    assert "exposure" not in json.loads(as_json.output)
    assert "what the table knows" not in run("--as", "public").output


def test_the_sheet_says_how_far_an_estimated_exposure_can_be_off():
    from cli.advise import render_exposure

    exp = {"view": "Ana", "exact": False, "error": 0.041, "certain": ["7H"],
           "expected_per_suit": {"S": 1.5}, "cards": {"7H": 1.0, "2S": 0.6}}
    lines = render_exposure(exp).splitlines()
    assert "(estimated," in lines[0] and lines[1] == "  each chance within ±0.041 (95 %)"
    exact = render_exposure(dict(exp, exact=True, error=0.0)).splitlines()
    assert "(exact," in exact[0] and "within" not in exact[1]


def test_an_exposure_that_fails_leaves_the_analysis_and_says_so(monkeypatch):
    from cli import commands
    from solver.errors import BudgetError

    monkeypatch.setattr(commands, "core_free", lambda: True)
    game = get_game("mystery-hand")

    def broken(*a, **k):
        raise BudgetError("no time", text="x")

    monkeypatch.setattr(type(game), "exposure", broken)
    r = CliRunner().invoke(cli, ["analyze", "samples/mystery-hand/five-players-ana.txt"])
    assert r.exit_code == 0, r.output
    assert "what the table knows about your hand: not computed" in r.output
    assert "Memory sheet" in r.output


def test_the_default_exposure_waits_for_a_free_core(monkeypatch):
    """On a busy machine the sheet's exposure is not started (its second analysis would
    take time from the first): the sheet says so and the analysis runs alone."""
    from cli import commands
    import solver.parallel

    def beside(*a, **k):
        raise AssertionError("the exposure was started on a busy machine")

    monkeypatch.setattr(commands, "core_free", lambda: False)
    monkeypatch.setattr(solver.parallel, "beside", beside)
    r = CliRunner().invoke(cli, ["analyze", "samples/mystery-hand/five-players-ana.txt"])
    assert r.exit_code == 0, r.output
    assert "what the table knows about your hand: not computed" in r.output
    assert "no core is free" in r.output and "Memory sheet" in r.output


def test_no_exposure_unasked_after_an_unseen_literature_statement(monkeypatch):
    """Literature's exposure after a '?' line costs several analyses: the sheet leaves it
    out unless asked (Game.exposure_on_sheet); without '?' lines it is on the sheet."""
    from cli import commands
    import solver.parallel

    started = []
    real = solver.parallel.beside

    def beside(*a, **k):
        started.append(1)
        return real(*a, **k)

    monkeypatch.setattr(commands, "core_free", lambda: True)
    monkeypatch.setattr(commands, "EXPOSURE_PATIENCE", 1e6)
    monkeypatch.setattr(solver.parallel, "beside", beside)
    lossy = CliRunner().invoke(cli, ["analyze", "samples/literature/lossy-six-players.txt"])
    assert lossy.exit_code == 0, lossy.output
    assert not started and "what the table knows" not in lossy.output
    clean = CliRunner().invoke(cli, ["analyze", "samples/literature/ex-a-six-players.txt"])
    assert clean.exit_code == 0, clean.output
    assert started and "what the table knows" in clean.output
