"""Exact counting of the consistent deals of a :class:`~solver.model.CardLocationModel`.

Under a uniformly random deal (every consistent assignment of the cards to the locations,
with the given location sizes, equally likely; physical copies are distinct cards) this
package gives the number of consistent deals, every card's probability per location, the
distribution of the set of cards in one small location (the Mystery Hand's mystery hand),
and exactly uniform random deals.  See ``docs/counting.md`` for the algorithm and its cost.

Method, in short: propagate the trivial facts; group the remaining cards into *classes* of
interchangeable cards (same allowed locations, same membership in every statement); lump
locations that no statement mentions; then a dynamic programme over the *cells* (class,
location) in class-major order whose state is the partial sums of the *open* sums (class
sizes, location sizes, statements), each split of a class weighted by its multinomial
coefficient; two locations that the rest of the order cannot tell apart are merged into
one sum as it goes.  A forward and a backward pass give every marginal at once; the same tables
draw uniform deals.  Over budget, :func:`count_deals` falls back to an honest estimate
(``exact=False``, ``error`` = 95 % half-width).

The modules, each with one job:

* :mod:`.problem`: the simplified problem (classes, lumps), :class:`Counting`,
  :class:`OverBudget`;
* :mod:`.plan`: the cell order, the open sums of every step, merges, dead-state checks;
* :mod:`.programme`: the dynamic programme (forward, backward, compositions, draws of
  cell counts), over :mod:`.arithmetic` (binomials, residues);
* :mod:`.cache`: programmes kept between calls (the last count's, a reuse block's);
* :mod:`.exact`: exact counts and marginals, all-in chances;
* :mod:`.sampling`: exactly uniform deals, and every deal where they are few;
* :mod:`.estimates`: the fallback estimates (relaxed rejection, :mod:`.mcmc`);
* :mod:`.sets` and :mod:`.possible`: the candidate sets of one location;
* :mod:`.tuning`: every budget and switch, one frozen :class:`Tuning`.

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(["a", "b", "c", "d"], {"P": 2, "Q": 2})
>>> m.add(["a", "b"], ["P"], 1, 1)          # exactly one of a, b at P
>>> r = count_deals(m)
>>> r.exact, r.total, r.method
(True, 4, 'dp')
>>> r.marginals["a"], r.marginals["c"]
({'P': 0.5, 'Q': 0.5}, {'P': 0.5, 'Q': 0.5})
>>> m.exclude("a", "P")
>>> r = count_deals(m)
>>> r.total, r.marginals["a"], r.marginals["b"]
(2, {'Q': 1.0}, {'P': 1.0})
"""
from __future__ import annotations

from solver.model.witness import Infeasible, propagate

from .cache import last_programme, programme
from .estimates import (accepted_mask, clamp_to_support, count_deals, deterministic_count,
                        estimate, relaxations)
from .exact import all_in_chances, exact_count
from .plan import Plan
from .possible import possible_compositions, possible_set_count, possible_sets
from .problem import Counting, OverBudget, simplify
from .programme import Programme, stretched
from .sampling import (all_deals, deals_from_counts, every_deal, rngs, sample_deal_rows,
                       sample_deals)
from .sets import interchangeable, location_sets, smallest_sets
from .tuning import DEFAULT, KERNEL, Tuning, tuned

__all__ = [
    # counts, estimates and their result
    "Counting", "OverBudget", "count_deals", "exact_count", "deterministic_count", "estimate",
    "clamp_to_support", "stretched", "all_in_chances",
    # uniform deals, and every deal where they are few
    "sample_deals", "sample_deal_rows", "all_deals", "every_deal",
    # candidate sets of one location
    "location_sets", "possible_sets", "possible_compositions", "possible_set_count",
    "interchangeable", "smallest_sets",
    # the programme itself, for callers that draw from it (solver.advice)
    "Infeasible", "propagate", "simplify", "Plan", "Programme", "programme",
    "last_programme", "deals_from_counts", "rngs", "relaxations", "accepted_mask",
    # tuning
    "Tuning", "DEFAULT", "tuned", "KERNEL",
]
