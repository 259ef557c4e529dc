"""A review analyses consecutive prefixes together (issue 45 item 3): one memo for the
prefixes of a process (solver.model.reuse), so a prefix whose counting problem is the
previous one's is not counted again; shared among processes in pieces of consecutive
prefixes.  The figures are the same either way (tests/test_advisor.py compares one process
with two)."""
from __future__ import annotations

import contextlib
import os

import solver.advice as advice
from solver.games import get_game
from solver.model import reuse
from solver.records import read_record

SAMPLE = "samples/mystery-hand/five-players-ana.txt"


def _watch(monkeypatch, game):
    """Every (prefix length, memo in force) of the review's analyses."""
    seen: list[tuple[int, object]] = []
    knowledge = type(game).step_knowledge

    def spy(self, record, view, budget):
        seen.append((len(record.statements), reuse.current()))
        return knowledge(self, record, view, budget)

    monkeypatch.setattr(type(game), "step_knowledge", spy)
    return seen


def test_a_review_in_one_process_keeps_one_memo_and_reuses_counts(monkeypatch):
    rec = read_record(SAMPLE)
    game = get_game(rec.game)
    seen = _watch(monkeypatch, game)
    hits = []
    monkeypatch.setattr(advice, "REVIEW_PROGRESS", None)
    real = advice._review_part

    def part(args):
        out = real(args)
        hits.append(reuse.current().hits)
        return out

    monkeypatch.setattr(advice, "_review_part", part)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    game.review(rec, rec.header.me)
    memos = {id(m) for _, m in seen}
    assert len(memos) == 1 and None not in {m for _, m in seen}
    assert [n for n, _ in seen] == list(range(len(rec.statements) + 1))
    assert hits and hits[-1] > 0          # some prefix left the counting problem as it was


def test_pieces_shared_among_processes_are_consecutive_prefixes(monkeypatch):
    """With two processes: eight pieces of consecutive prefixes, in order, covering every
    prefix once; each piece (here run in this process, as a worker would) goes on with the
    worker's memo."""
    rec = read_record(SAMPLE)
    game = get_game(rec.game)
    seen = _watch(monkeypatch, game)
    parts: list[list[int]] = []

    class Serial:
        def map(self, fn, args):
            for a in args:
                parts.append(list(a[5]))
                yield fn(a)

    @contextlib.contextmanager
    def pool(n):
        yield Serial()

    import solver.parallel

    monkeypatch.setattr(solver.parallel, "pool", pool)
    monkeypatch.setattr(advice, "_PART_MEMO", {})
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    game.review(rec, rec.header.me)
    n = len(rec.statements) + 1
    assert len(parts) == 8
    assert [i for p in parts for i in p] == list(range(n))
    assert all(p == list(range(p[0], p[0] + len(p))) for p in parts)
    assert len({id(m) for _, m in seen}) == 1     # the worker's one memo
