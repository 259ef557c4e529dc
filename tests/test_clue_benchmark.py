"""A tiny run of benchmarks/clue.py goes through: every state exact, the notebook
baseline's count of case files equal to ours (the script asserts it), the enumeration's
marginals equal to ours where it finishes (no timing assertions)."""
from __future__ import annotations

import re

from benchmarks import clue


def test_tiny_clue_benchmark(capsys):
    clue.main(["--records", "1", "--upto", "8", "--stride", "4", "--enum-states", "2",
               "--enum-limit", "5"])
    out = capsys.readouterr().out
    assert "| 8 suggestions (target) | both | 2/2 |" in out
    assert "| every prefix | both | 4/4 |" in out
    m = re.search(r"largest difference from our marginals ([0-9.e+-]+)", out)
    assert m is None or float(m.group(1)) < 1e-9


def test_tiny_clue_advisor_simulation():
    """benchmarks/clue_advisor.py plays whole games to a winner under every seat policy at
    both tables, paired by seed (the same deal), and summarises them."""
    from benchmarks import clue_advisor as ca

    rows = [ca.play(3, 2, p, t, samples=60) for t in ca.TABLES for p in ca.POLICIES]
    for r in rows:
        assert r["winner"] in ("Ana", "Ben", "Cleo") and r["won"] == (r["winner"] == "Ana")
        assert r["seat_turns"] >= 1 and r["statements"] >= r["seat_turns"]
    table = ca.Table(3, 2)
    assert table.case == ca.Table(3, 2).case and len(table.case) == 3
    text = ca.summarise(rows)
    assert "a table of `greedy` players" in text and "| 3 | 1 (2-2) |" in text


def test_tiny_clue_advisor_simulation_variants():
    """With --variant the benchmark's table plays by that variant and writes records of it:
    under refute=all every other player answers and exactly those holding a named card
    show one (several in one suggestion); under leftovers=face-up the hands are equal, the
    rest lies face up and the first who can refute ends the round.  Each record passes the
    engine's checks and is analysed from Ana's view."""
    from benchmarks import clue_advisor as ca
    from solver.clue.analysis import analyze
    from solver.clue.engine import run
    from solver.clue.events import FaceUp, Holds, Suggest, seating_after

    def suggestions(t):
        return [ev for ev in t.events if isinstance(ev, Suggest)]

    def answers_follow_the_deal(t, ev):
        for a in ev.answers:
            held = [c for c in ev.cards if c in t.hands[a.player]]
            assert a.shows == bool(held) and (not a.shows or a.card in held)

    rows = []
    several = 0
    for seed in (1, 2):
        for table in ca.TABLES:
            t, r = ca.game(4, seed, "advisor", table, samples=60, variant=("refute=all",))
            rows.append(r)
            assert t.header.variant == ("refute=all",) and r["variant"] == "refute=all"
            assert r["winner"] in t.players and r["won"] == (r["winner"] == "Ana")
            run(t.record())
            analyze(t.record(), "Ana")
            for ev in suggestions(t):
                assert [a.player for a in ev.answers] == list(seating_after(ev.player,
                                                                             t.players))
                answers_follow_the_deal(t, ev)
                several += len(ev.showers) > 1
    assert several > 0

    for seed in (1, 2):
        for table in ca.TABLES:
            t, r = ca.game(4, seed, "greedy", table, variant=("leftovers=face-up",))
            rows.append(r)
            assert t.header.variant == ("leftovers=face-up",)
            assert r["winner"] in t.players
            faceup = [ev for ev in t.events if isinstance(ev, FaceUp)]
            assert len(faceup) == 1 and len(faceup[0].cards) == 2
            assert all(len(ev.cards) == 4 for ev in t.events if isinstance(ev, Holds))
            assert not set(faceup[0].cards) & set(t.case)
            run(t.record())
            for ev in suggestions(t):
                assert len(ev.showers) <= 1 and all(not a.shows for a in ev.answers[:-1])
                answers_follow_the_deal(t, ev)
    text = ca.summarise(rows)
    assert "`variant: refute=all`" in text and "`variant: leftovers=face-up`" in text
    assert "| 4 | 2 (1-2) |" in text
