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


def lazy_exports(package: str, names: dict[str, str | None], game: str | None = None):
    """A module ``__getattr__``: ``names`` maps an exported name to the module defining it;
    ``GAME`` (mapped to ``None``) is the registered game ``game``."""

    def __getattr__(attr):
        if attr not in names:
            raise AttributeError(f"module {package!r} has no attribute {attr!r}")
        if names[attr] is None:
            from solver.games import get_game

            return get_game(game)
        return getattr(importlib.import_module(names[attr]), attr)

    return __getattr__


class LazyModule:
    """A module imported on first attribute access (``cp_model = LazyModule(
    "ortools.sat.python.cp_model")``): OR-Tools pulls in pandas, a second of start-up that
    ``sleuth --help`` should not pay.

    >>> m = LazyModule("json")
    >>> m.dumps([1])
    '[1]'
    """

    def __init__(self, name: str):
        self._name = name
        self._module = None

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)


def keep_functions(module_name: str, names) -> None:
    """Make the package ``module_name`` keep the lazily exported functions ``names`` when a
    submodule of the same name is imported (the import system would otherwise replace the
    package attribute ``best`` with the module ``best``)."""
    import sys
    import types

    keep = frozenset(names)

    class _Package(types.ModuleType):
        def __setattr__(self, name, value):
            if name in keep and isinstance(value, types.ModuleType):
                return          # ``solver.hand.best`` stays the function; the module is in sys.modules
            super().__setattr__(name, value)

    sys.modules[module_name].__class__ = _Package
