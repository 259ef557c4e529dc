"""Lazy re-exports for package ``__init__`` modules (PEP 562), so that importing a game
package for its :class:`~solver.games.Game` does not import its solvers (OR-Tools, numpy).

>>> import types
>>> m = types.ModuleType("demo")
>>> m.__getattr__ = lazy_exports("demo", {"sqrt": "math", "GAME": None}, game="hand")
>>> m.sqrt(4.0), m.GAME.name
(2.0, 'hand')
"""
from __future__ import annotations

import importlib
import sys
import types


def lazy_exports(package: str, names: dict[str, str | None], game: str | None = None):
    """A module ``__getattr__``: ``names`` maps an exported name to the module defining it;
    ``GAME`` (mapped to ``None``) is the registered game ``game``."""

    def __getattr__(attr):
        if attr not in names:
            raise AttributeError(f"module {package!r} has no attribute {attr!r}")
        module = names[attr]
        if module is None:
            from solver.games import get_game

            assert game is not None     # a package exporting GAME names its game
            return get_game(game)
        return getattr(importlib.import_module(module), attr)

    return __getattr__


#: OR-Tools' CP-SAT module (``LazyModule(CP_MODEL)`` imports it through
#: :func:`import_cp_model`)
CP_MODEL = "ortools.sat.python.cp_model"


class LazyModule:
    """A module imported on first attribute access (``cp_model = LazyModule(CP_MODEL)``):
    OR-Tools pulls in pandas, a second of start-up that ``sleuth --help`` should not pay;
    its CP-SAT module is imported without pandas (:func:`import_cp_model`).

    >>> m = LazyModule("json")
    >>> m.dumps([1])
    '[1]'
    """

    def __init__(self, name: str):
        self._name = name
        self._module: types.ModuleType | None = None

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        if self._module is None and self._name == CP_MODEL:
            # a Ctrl-C waits for the import (0.1-0.4 s): one inside it can leave a C
            # extension half loaded, and the retry of import_cp_model swallow it
            from solver.interrupt import sigint_blocked

            with sigint_blocked():
                self._module = import_cp_model()
        elif self._module is None:
            self._module = importlib.import_module(self._name)
        if attr == "CpSolver" and self._name == CP_MODEL:
            # a solver that a Ctrl-C stops with KeyboardInterrupt (CP-SAT's own handler
            # would only end the search early, and the command answer "over budget")
            from solver.interrupt import stoppable_solver_class

            return stoppable_solver_class(self._module)
        return getattr(self._module, attr)



def import_cp_model():
    """OR-Tools' ``cp_model`` without importing pandas (about 0.25 s of the 0.35 s its
    import costs; every analysis that asks CP-SAT for a backbone or a conflict paid it).

    ``cp_model`` imports pandas at its top for its ``*_series`` helpers and a type alias
    (``Union[pd.Index, pd.Series]``); this program never passes it a pandas object.  So,
    unless pandas is already loaded, the import sees a stand-in module whose ``Index`` and
    ``Series`` are classes nothing is an instance of, and any other attribute loads the
    real pandas; the stand-in is taken out of ``sys.modules`` afterwards, so a later
    ``import pandas`` gets the real one.  If the import fails with the stand-in (a future
    OR-Tools that needs more of pandas at import), it is imported as usual.

    >>> cp = import_cp_model()
    >>> m = cp.CpModel(); x = m.new_int_var(0, 9, "x"); _ = m.add(2 * x == 6)
    >>> s = cp.CpSolver(); s.solve(m) == cp.OPTIMAL, s.value(x)
    (True, 3)
    """
    if CP_MODEL in sys.modules or "pandas" in sys.modules:
        return importlib.import_module(CP_MODEL)
    stand_in = _PandasStandIn("pandas")
    sys.modules["pandas"] = stand_in
    try:
        return importlib.import_module(CP_MODEL)
    except Exception:               # noqa: BLE001 - imported again below, as usual
        for name in [m for m in sys.modules if m.startswith("ortools.sat.python")]:
            del sys.modules[name]
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    return importlib.import_module(CP_MODEL)


class _PandasStandIn(types.ModuleType):
    """``pandas`` while OR-Tools' ``cp_model`` is imported (:func:`import_cp_model`)."""

    class Index:            # nothing this program passes to CP-SAT is one
        pass

    class Series:
        pass

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if sys.modules.get("pandas") is self:
            del sys.modules["pandas"]
        return getattr(importlib.import_module("pandas"), attr)


def keep_functions(module_name: str, names) -> None:
    """Make the package ``module_name`` keep the lazily exported functions ``names`` when a
    submodule of the same name is imported (the import system would otherwise replace the
    package attribute ``best`` with the module ``best``)."""
    keep = frozenset(names)

    class _Package(types.ModuleType):
        def __setattr__(self, name, value):
            if name in keep and isinstance(value, types.ModuleType):
                return          # ``solver.hand.best`` stays the function; the module is in sys.modules
            super().__setattr__(name, value)

    sys.modules[module_name].__class__ = _Package
