"""The one base of the games' view models on the card-location model.

A game's ``ViewModel`` (a dataclass in its ``inference.py``) holds what it needs to report;
this base gives every one of them the same two answers, worded the same way in every game:
why the record is inconsistent, and why a card is where it is.

>>> from dataclasses import dataclass
>>> from solver.model import CardLocationModel
>>> @dataclass
... class Demo(ModelView):
...     model: CardLocationModel
...     view: str | None
...     statements: dict
>>> m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1})
>>> m.place("a", "P", source=3); m.place("b", "P", source=4)
>>> vm = Demo(m, None, {3: "a at P", 4: "b at P"})
>>> print(vm.inconsistent())
no deal fits the record; these statements conflict: line 3: a at P; line 4: b at P
"""
from __future__ import annotations

from typing import Any, Hashable, Sequence

from solver.errors import InconsistentError


class ModelView:
    """Mixin of a view model with attributes ``model`` (a
    :class:`~solver.model.CardLocationModel`), ``view`` (a player or ``None``) and
    ``statements`` (record line -> text)."""

    model: Any
    view: Any
    statements: Any

    def inconsistent(self) -> InconsistentError:
        """The error naming a minimal set of conflicting lines and saying why they cannot
        all hold (its ``reason``, worded with :meth:`loc_label`); call it when the model has
        no deal (an empty conflict if the solver finds one after all)."""
        return self.model.conflict_error(self.statements, self.loc_label,
                                         self.only_left_text) or \
            InconsistentError("no deal fits the record", conflict=[])

    def loc_label(self, loc: str) -> str:
        """How a sentence names a model location ("the mystery hand", "Ben's hand"); a
        game's view model overrides it (default: the location's own name)."""
        return loc

    def only_left_text(self, rule, card: str, where: str, names: list[str]) -> str:
        """How a conflict sentence says that a line leaves ``card`` the only one of the
        cards ``names`` of a rule of the model (``rule``, a constraint of no line) that can
        be in ``where``: "leaves C the only ..." (a game's view model may word it in its
        rules' terms; default :func:`solver.model.conflicts.only_left_text`)."""
        from solver.model.conflicts import only_left_text

        return only_left_text(rule, card, where, names)

    def explain_keys(self, keys: Sequence[Hashable], backbone, loc_label=lambda l: l):
        """:func:`solver.model.explain_card` for the card(s) ``keys`` of this view."""
        from solver.model import explain_card

        return explain_card(self.model, keys, backbone, self.statements, loc_label)
