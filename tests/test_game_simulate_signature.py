"""Every game's ``simulate`` takes the parameters of :meth:`solver.games.Game.simulate`,
``miss`` too: a game whose records are never lossy takes ``miss=0`` and refuses more."""
import inspect

import pytest

from solver.games import games


@pytest.mark.parametrize("game", games(), ids=lambda g: g.name)
def test_simulate_takes_the_base_parameters(game):
    sig = inspect.signature(game.simulate)
    sig.bind(4, (), 0, None, 0.0)
    sig.bind(4, (), seed=0, events=None, miss=0.0)


@pytest.mark.parametrize("game", [g for g in games() if not g.lossy], ids=lambda g: g.name)
def test_a_game_without_lossy_records_refuses_miss(game):
    with pytest.raises(ValueError, match="does not simulate lossy records"):
        game.simulate(4, (), 0, None, miss=0.5)
