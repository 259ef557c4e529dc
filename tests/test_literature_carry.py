"""Certainties carried from one statement to the next (``solver.literature.history.carried``):
stage 1 of a Literature record with unseen events that extends a record already settled
(``play`` and ``serve``: the statement before) takes the certainties no added statement can
have changed as proved, and proves only the rest."""
from __future__ import annotations

import pytest

from solver.games import get_game
from solver.literature import history
from solver.literature.engine import Play
from solver.literature.history import carried, remember
from solver.records import parse_record
from solver.staged import certainties

HEAD = "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n"
BASE = "Ana asks Ben 9S: no\n"
#: what the base record is taken to have settled: one card at each place
SETTLED = {"2H": "Ana", "3H": "Ben", "4H": "Cleo", "5H": "Dev", "6H": "Eli", "7H": "Fay",
           "9S": "Cleo"}


@pytest.mark.parametrize("added,kept", [
    # seen questions move only the card they name
    ("Ben asks Cleo 9S: yes", {"2H", "3H", "4H", "5H", "6H", "7H"}),
    # a no moves nothing
    ("Ben asks Cleo 5H: no", set(SETTLED)),
    # an unheard card moved from Cleo: Cleo's places are open again
    ("Ben asks Cleo ?: yes", {"2H", "3H", "5H", "6H", "7H"}),
    # an unheard card Cleo did not have: nothing moved
    ("Ben asks Cleo ?: no", set(SETTLED)),
    # an unheard answer: at most its card moved
    ("Ben asks Cleo 9S: ?", {"2H", "3H", "4H", "5H", "6H", "7H"}),
    # Ben's unseen question: a card between Ben and an opponent other than the recorder
    # Ana (she hears a question asked of her); his teammates and Ana keep theirs
    ("Ben: ?", {"2H", "5H", "7H"}),
    # nothing moves
    ("Ben has 8 cards", set(SETTLED)),
    ("turn: Ben", set(SETTLED)),
])
def test_carried_keeps_what_no_added_statement_can_move(added, kept):
    base = parse_record(HEAD + BASE)
    remember(base, "Ana", SETTLED)
    rec = parse_record(HEAD + BASE + added + "\n")
    table = Play.of(rec).table
    assert carried(rec, "Ana", table) == {k: SETTLED[k] for k in kept}


def test_only_a_record_extended_from_the_same_header_and_view_carries():
    base = parse_record(HEAD + BASE)
    remember(base, "Ana", SETTLED)
    rec = parse_record(HEAD + BASE + "Ben asks Cleo ?: no\n")
    table = Play.of(rec).table
    assert carried(rec, None, table) == {}                       # another view
    other = parse_record(HEAD.replace("me: Ana", "variant: claims-any-time\nme: Ana")
                         + BASE + "Ben asks Cleo ?: no\n")
    assert carried(other, "Ana", table) == {}                    # other options
    assert carried(parse_record(HEAD + "Ana asks Ben 10S: no\n"), "Ana", table) == {}


def test_the_same_record_again_needs_no_search(monkeypatch):
    """Every certainty of a record already settled is known (play's undo, the same version
    analysed again): stage 1 gives them without building the model."""
    game = get_game("literature")
    rec = game.simulate(6, (), 0, miss=0.2)
    gaps = [i for i, st in enumerate(rec.statements) if "?" in st.text]
    p = rec.prefix(gaps[1] + 1)
    first = certainties(game, p, "Ana", seconds=600)

    def refuse(self):
        raise AssertionError("the model was built again")

    monkeypatch.setattr(history.HistoryModel, "_built", refuse)
    again = certainties(game, p, "Ana", seconds=600)
    assert again == first and again.complete


def test_nothing_is_carried_with_the_jokers_copies():
    head = HEAD.replace("me: Ana", "variant: deck=54-jokers\nme: Ana")
    base = parse_record(head + BASE)
    remember(base, "Ana", SETTLED)
    rec = parse_record(head + BASE + "Ben has 9 cards\n")
    assert carried(rec, "Ana", Play.of(rec).table) == {}


def test_a_shown_line_carries_nothing():
    """A record that ends with a claim took its cards as shown as claimed; the ``shown``
    line after it may say otherwise: not a restriction, so nothing is carried over it."""
    text = HEAD + ("Ana holds: 2H 3H 4H 6H 7H 9S JC QD\n"
                   "Ana claims 2H-7H: Ana 2H 3H 4H 6H 7H, Cleo 5H\n")
    rec = parse_record(text)
    remember(rec, "Ana", {"JC": "Ana"})
    longer = parse_record(text + "shown 2H-7H: Ana 2H 3H 4H 6H 7H, Eli 5H\n")
    assert carried(longer, "Ana", Play.of(longer).table) == {}


@pytest.mark.slow
@pytest.mark.parametrize("players,seed,public,options", [
    (4, 0, False, ()), (6, 0, True, ()), (4, 1, True, ("own-card-ask=surrender",))])
def test_stage_one_statement_by_statement_is_stage_one_afresh(players, seed, public, options):
    """Statement by statement (as ``play`` and ``serve`` run it), stage 1 with what it
    carries from the statement before gives exactly the certainties of stage 1 run on each
    record alone (the recorder's view, or the public one)."""
    from solver.literature.engine import cut_points

    game = get_game("literature")
    rec = game.simulate(players, options, seed, miss=0.2)
    gaps = [i for i, st in enumerate(rec.statements) if "?" in st.text]
    upto = gaps[4] + 8
    carried_some = 0
    for view in [None if public else rec.header.me]:
        history.forget()
        # every record a player could have (not one that cuts a claim from its shown line)
        for k in [c for c in cut_points(rec) if 0 < c <= upto]:
            p = rec.prefix(k)
            before = carried(p, view, Play.of(p).table)
            carried_some += bool(before)
            step = certainties(game, p, view, seconds=600)
            kept = history.forget()
            alone = certainties(game, p, view, seconds=600)
            history.restore(kept)
            assert step.complete and alone.complete
            assert step.certain == alone.certain, (k, view)
    assert carried_some


@pytest.mark.parametrize("players,seed", [(4, 0), (8, 1)])
def test_a_model_continued_is_the_model_built_afresh(players, seed, monkeypatch):
    """Statement by statement, the whole history model of each record continues the kept
    model of the record before (HistoryModel._built, _Build.continued): the same
    variables and constraints, in the same order, as the model built afresh."""
    from solver.literature.engine import cut_points
    from solver.literature.inference import build

    continued = []
    real = history._Build.continued

    def spy(self, hm):
        continued.append(len(hm.record.statements))
        return real(self, hm)

    monkeypatch.setattr(history._Build, "continued", spy)
    rec = get_game("literature").simulate(players, (), seed, miss=0.2)
    for k in [c for c in cut_points(rec) if c][:60]:
        p = rec.prefix(k)
        vm = build(p, p.header.me)
        if not vm.history:
            continue
        (b, final), (b2, final2) = vm.model._built(), vm.model.build(False)
        assert str(b.m.Proto()) == str(b2.m.Proto()), k
        assert {x: getattr(v, "Index", lambda v=v: v)() for x, v in final.items()} == \
            {x: getattr(v, "Index", lambda v=v: v)() for x, v in final2.items()}, k
    assert len(continued) > 20


@pytest.mark.parametrize("options", [(), ("own-card-ask=surrender",)])
def test_stage_one_follows_the_histories_before_with_the_lines_added(options):
    """Statement by statement, stage 1 follows each history the statement before found with
    the line added (HistoryModel.extended, _Build.extension): each one it keeps is a history
    of the longer record (the whole model allows its final places), and a history the line
    added does not fit is dropped (also under V11, where an unseen question may have been
    a surrender)."""
    from ortools.sat.python import cp_model

    from solver.literature.engine import cut_points

    game = get_game("literature")
    rec = game.simulate(4, options, 0, miss=0.2)
    gaps = [i for i, st in enumerate(rec.statements) if "?" in st.text]
    history.forget()
    followed = dropped = 0
    for k in [c for c in cut_points(rec) if gaps[0] < c <= gaps[3] + 4]:
        p = rec.prefix(k)
        hm = history.HistoryModel(p, "Ana", Play.of(p))
        hm.quick = True
        b, final = hm._built()
        n = hm.extended()
        followed += n
        dropped += len(b.before) - n
        for places in hm.samples:
            m = b.m.clone()
            for card, place in places.items():
                v = final[card, place]
                if not isinstance(v, int):
                    m.Add(m.get_bool_var_from_proto_index(v.Index()) == 1)
            assert cp_model.CpSolver().Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE), k
        certainties(game, p, "Ana", seconds=600)       # its histories, for the next one
    assert followed > 20 and dropped


def test_stage_one_follows_the_histories_the_figures_found():
    """The figures of a record (stage 2, computed between statements in play and serve)
    find a history for every place a card may be at (the backbone); the next statement's
    stage 1 follows them (HistoryModel.extended), even where no stage 1 ran before; the
    figures of the next statement do not."""
    game = get_game("literature")
    rec = game.simulate(4, (), 0, miss=0.2)
    gaps = [i for i, st in enumerate(rec.statements) if "?" in st.text]
    history.forget()
    first = rec.prefix(gaps[1] + 1)
    game.analyze(first, "Ana")
    then = rec.prefix(gaps[1] + 2)
    hm = history.HistoryModel(then, "Ana", Play.of(then))
    hm.quick = True
    b, _ = hm._built()
    assert b.since == len(first.statements) and len(b.before) > 1
    assert hm.extended() > 1
    # the figures never follow them: the same record gives the same figures whatever
    # the process analysed before
    figures = history.HistoryModel(then, "Ana", Play.of(then))
    assert figures._built()[0].before and figures.extended() == 0 and not figures.samples
    history.forget()


def test_stage_one_searches_from_the_history_before_and_the_figures_never_do(monkeypatch):
    """Where no history of the statement before fits the line added, stage 1's search for a
    history starts from that record's history (HistoryModel.one_history, _Build.hint); the
    analysis's figures, which the histories found feed, never search from a hint (the same
    record gives the same figures whatever was analysed before)."""
    game = get_game("literature")
    rec = game.simulate(6, (), 0, miss=0.2)
    gaps = [i for i, st in enumerate(rec.statements) if "?" in st.text]
    searches: list[tuple[int, bool]] = []
    real = history._solve

    def spy(solver, model, callback=None):
        searches.append((len(model.Proto().solution_hint.vars),
                         solver.parameters.cp_model_presolve))
        return real(solver, model, callback)

    monkeypatch.setattr(history, "_solve", spy)
    monkeypatch.setattr(history.HistoryModel, "extended", lambda self: 0)
    history.forget()
    first = rec.prefix(gaps[1] + 1)
    certainties(game, first, "Ana", seconds=600)
    assert not any(n for n, _ in searches)          # nothing before it: no hint
    searches.clear()
    then = rec.prefix(gaps[1] + 2)
    step = certainties(game, then, "Ana", seconds=600)
    hinted = [n for n, presolve in searches if n and not presolve]
    assert hinted and hinted[0] == len(history.HistoryModel(
        first, "Ana", Play.of(first))._built()[0].m.Proto().variables)
    searches.clear()
    figures = history.HistoryModel(then, "Ana", Play.of(then))     # not stage 1
    assert figures._built()[0].hint and figures.one_history()
    assert searches and not any(n for n, _ in searches)
    history.forget()
    assert certainties(game, then, "Ana", seconds=600).certain == step.certain
