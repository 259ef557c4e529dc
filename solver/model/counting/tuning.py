"""The counting package's tuning: every budget, threshold and switch in one frozen value.

The figures never depend on these (a count is exact or an estimate says its error); the
time and memory an answer takes, and whether an exact answer fits its budget, do.  The
programmes read :data:`CURRENT`, which is :data:`DEFAULT` unless changed for a block by
:func:`tuned` (or a test's ``monkeypatch.setattr(tuning, "CURRENT", replace(...))``); a
kept programme is keyed by the tuning it was built under (:func:`settings`).
``docs/counting.md`` explains each mechanism and its measured effect.

>>> from solver.model.counting import tuning
>>> with tuning.tuned(prune=False) as t:
...     tuning.CURRENT.prune, t is tuning.CURRENT
(False, True)
>>> tuning.CURRENT is tuning.DEFAULT
True
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

#: the compiled step (setup.py builds it where a C compiler is), else None
KERNEL: ModuleType | None
try:
    KERNEL = importlib.import_module("solver.model._kernel")
except ImportError:     # pragma: no cover - a build without a compiler
    KERNEL = None


@dataclass(frozen=True)
class Tuning:
    """The budgets and switches of the counting programmes (see ``docs/counting.md``)."""

    #: run the compiled kernel where it is built (False: the numpy code, same figures)
    use_kernel: bool = True
    #: pack a state's sums as bit fields where they fit in 62 bits (False: mixed radix)
    bit_fields: bool = True
    #: transitions the forward pass keeps for the backward pass and the draws (13 bytes each)
    keep_transitions: int = 12_000_000
    #: merge two columns once the rest of the order treats them alike (Plan._merge_columns)
    merge_columns: bool = True
    #: drop the states the suffix table and the space checks prove dead
    prune: bool = True
    #: ... after a step with at least this many states (fewer: the checks cost more)
    prune_states: int = 10_000
    #: states one numpy space check handles at once (bounds its temporaries)
    alive_chunk: int = 1 << 18
    #: the backward programme of the suffix table: at most this many states ...
    suffix_states: int = 20_000
    #: ... and tables of at most this many entries ...
    suffix_table: int = 1_000_000
    #: ... and this many per state to check (a bigger table costs more than the check)
    suffix_per_state: int = 4
    #: a step's transitions come from one 2-D mask up to this many (state, k) pairs
    expand_2d: int = 16_384
    #: place the classes linked by statements together, widest component first
    component_order: bool = True
    #: components of 3 to this many classes are ordered by an exact search (2^n subsets)
    component_search: int = 17
    #: ... up to this many by a beam search (int64 masks: at most 62), larger greedily
    component_beam_classes: int = 62
    #: partial orders the beam keeps
    component_beam: int = 64
    #: a placed card's weight in the order searches' measure (log ranges of open sums)
    component_cards: float = 0.1
    #: accepted deals an estimate keeps (Counting.deals: the estimated candidates)
    keep_deals: int = 20_000
    #: sampled deals behind a deterministic estimate (95 % half-width at most ~0.015)
    estimate_samples: int = 4000
    #: location_sets' class-by-class tagged programme: at most this many states
    tagged_states: int = 200_000
    #: ... and without a stretch, this many times its state budget summed over the steps
    sets_work: int = 5
    #: a plain count summing at most this many states is cheap: its tagged programme ...
    sets_cheap_base: int = 550_000
    #: ... may go to this many states ...
    sets_cheap_states: int = 400_000
    #: ... and this many summed over its steps (about 0.4 s)
    sets_cheap_work: int = 4_000_000
    #: location_sets' location-by-location order: at most this many states ...
    location_order_states: int = 150_000
    #: ... tried only when the plain count's peak is at most this (else it never fits)
    location_order_base: int = 2_000
    #: a tagged programme's state forgets its tags once its location is full
    collapse: bool = True
    #: ... or, for a location of three cards or more, one card before
    collapse_early: bool = True
    #: the most (state, class) completions by the last card after one step (8 bytes each)
    last_card_cells: int = 8_000_000
    #: the most partial compositions (bits) the possible-sets passes carry: four free places
    #: of a 52-card deck need at most 1 + 52 + 1378; a bigger question is left to estimates
    max_parts: int = 1 << 14
    #: the most transitions a programme's sampling tables keep between draws
    sampling_cache: int = 4_000_000
    #: a programme whose tables pass this many bytes keeps the transitions of its next
    #: steps as next-state indices alone (expanded again when read), and a compiled float
    #: one its next states packed and the forward values of every ``forward_checkpoint``
    #: boundaries alone (and of its merges), counting the others again when read (the
    #: same values: docs/counting.md, "Limits")
    full_tables: int = 16 << 20
    forward_checkpoint: int = 8


#: the tuning the analyses run with
DEFAULT = Tuning()
#: the tuning in use (DEFAULT outside a :func:`tuned` block)
CURRENT = DEFAULT


def kernel() -> Any:
    """The compiled kernel when it is built and in use, else ``None`` (numpy)."""
    return KERNEL if CURRENT.use_kernel else None


def settings() -> tuple:
    """What a programme depends on besides its problem and arguments: the tuning and
    whether the compiled kernel runs (the key of a kept programme)."""
    return (CURRENT, kernel() is None)


@contextlib.contextmanager
def tuned(**changes) -> Iterator[Tuning]:
    """Within the block, :data:`CURRENT` is the current tuning with ``changes`` (field
    names of :class:`Tuning`); restored afterwards."""
    global CURRENT
    before = CURRENT
    CURRENT = dataclasses.replace(before, **changes)
    try:
        yield CURRENT
    finally:
        CURRENT = before
