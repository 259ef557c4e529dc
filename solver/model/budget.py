"""How much work an analysis may do (light: no solver imports).

>>> Budget().max_states is None, Budget(max_states=100_000).max_states
(True, 100000)
>>> Budget(max_states=10).kwargs()
{'max_states': 10}
"""
from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Budget:
    """Budgets of one analysis; ``None`` leaves the game's own default (tuned for live play).

    ``max_states``: states of the exact counting programme before it falls back to an
    estimate; ``time_budget``: seconds for one counting attempt; ``samples``: draws for a
    sampled estimate (Twenty-Two's chances)."""

    max_states: int | None = None
    time_budget: float | None = None
    samples: int | None = None

    def kwargs(self) -> dict:
        """The budgets that are set, as keyword arguments."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None}


#: the budget of one replay or whatif step: the games' own defaults, so that every step
#: shows exactly what ``sleuth analyze`` shows on that prefix (issue 15)
STEP_BUDGET = Budget()
