"""Why a minimal set of statements cannot all hold, in one plain sentence.

:meth:`solver.model.CardLocationModel.conflict` finds a minimal conflicting set of record
lines (a *core*): drop any one line and a deal fits the rest.  :func:`conflict_reason`
turns it into a sentence a person can check:

1. *One card*: split the core into two groups of lines, one forcing a card to be in a
   place and the other forcing it not to be ("lines 7, 8 put 3H 5H in the mystery hand,
   so with line 11 KS is not in the mystery hand; line 13 says it is").  Candidates are the
   (card, place) facts that the core without one line forces one way and the core without
   another line forces the other way; the two groups are then shrunk to minimal ones.
2. *One card, two sets of places*: the core without line z keeps a card to some places and
   z alone to others ("line 36 leaves 7S only in the mystery hand or the face-up cards;
   line 38 puts it in Ben's hand, Cleo's hand or Dev's hand").
3. *A count*: a statement says how many of some cards are in a place, and the other lines
   force a number outside that range ("line 6 puts at least 2 of 4H 5H 6H 7H in Ben's
   hand; line 7 says at most 1").
4. Otherwise ``None`` (the caller keeps its generic sentence).

Everything is asked of CP-SAT on the model built once with a guard literal per line
(:meth:`CardLocationModel._build` with ``enforce``): the lines outside the core are off, a
subset of the core is *assumed*, the rules (``source`` ``None``) always hold -- so a game's
own extensions of the model (choices, joint constraints) are respected.  The work is
bounded by a count of solver calls (:data:`MAX_SOLVES`, so a record always gets the same
sentence); running out only loses the sentence, never the conflict.

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 2}, {"a": "a", "b": "b", "c": "c"})
>>> m.exclude("a", "Q", source=3)          # a is at P
>>> m.exclude("b", "P", source=4)
>>> m.place("c", "P", source=7)            # but only one card fits at P
>>> m.conflict()
[3, 7]
>>> conflict_reason(m, [3, 7], lambda l: l)
'line 3 puts a in P; line 7 says it is not'
"""
from __future__ import annotations

from typing import Callable

from solver.lazy import CP_MODEL, LazyModule

cp_model = LazyModule(CP_MODEL)

Pair = tuple[int, int]

#: at most this many candidate facts are shrunk to minimal groups (each costs a few solves)
MAX_CANDIDATES = 6
#: a chain lists at most this many supporting cards
MAX_CHAIN_CARDS = 8
#: the work allowed for one sentence, in solver calls (a count, not a time: the same record
#: always gets the same sentence); past it the caller keeps its generic sentence
MAX_SOLVES = 300


def lines_text(lines) -> str:
    """``line 7`` / ``lines 7, 8 and 11``: the one wording of a set of lines (a live
    session renumbers them after a deletion, see :func:`solver.session.renumber_text`)."""
    ls = sorted(lines)
    if len(ls) == 1:
        return f"line {ls[0]}"
    return "lines " + ", ".join(map(str, ls[:-1])) + f" and {ls[-1]}"


class _Probe:
    """The model built once with a guard per line; questions under a subset of lines."""

    def __init__(self, model, core, seconds: float = 2.0):
        self.model = model
        self.m, self.x, self.lits = model._build(True)
        for line, lit in self.lits.items():     # the other lines are off for good: presolve
            if line not in core:                 # drops their constraints (a solve of a long
                self.m.Add(lit == 0)             # record's core is then fast)
        self.seconds = seconds
        self.solves = 0
        self.proven = True

    def _solve(self, m, optimize: bool = False):
        self.solves += 1
        if self.solves > MAX_SOLVES:
            raise TimeoutError
        from solver.model.budget import cp_solver

        s = cp_solver(cp_model, self.seconds)   # cut to the analysis's deadline (budget.py)
        s.parameters.num_workers = 1
        if not optimize:                            # a yes/no question, asked many times:
            s.parameters.cp_model_presolve = False  # these make each solve ~3x faster
            s.parameters.linearization_level = 0
        st = s.Solve(m)
        if st == cp_model.UNKNOWN:
            raise TimeoutError
        if optimize and st == cp_model.FEASIBLE:
            self.proven = False
        return s, st in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def _assume(self, m, lines, facts=()):
        lits = [self.lits[l] for l in lines if l in self.lits]
        for p, v in facts:
            lits.append(self.x[p] if v else self.x[p].Not())
        m.ClearAssumptions()
        m.AddAssumptions(lits)

    def feasible(self, lines, facts=()) -> bool:
        self._assume(self.m, lines, facts)
        return self._solve(self.m)[1]

    def forced(self, lines, pairs) -> dict[Pair, int]:
        """The pairs among ``pairs`` whose value every deal meeting ``lines`` agrees on
        (pair -> 0 or 1): deals covering as many unseen values as they can, until none
        covers another."""
        seen: dict[Pair, set[int]] = {p: set() for p in pairs}
        while True:
            mm = self.m.clone()
            get = mm.get_bool_var_from_proto_index
            want = []
            for p, vals in seen.items():
                v = get(self.x[p].Index())
                if 1 not in vals:
                    want.append(v)
                if 0 not in vals:
                    want.append(v.Not())
            if not want:
                break
            mm.Add(sum(want) >= 1)
            mm.Maximize(sum(want))
            self._assume(mm, lines)
            s, ok = self._solve(mm, optimize=True)
            if not ok:
                break
            for p, vals in seen.items():
                vals.add(int(s.Value(get(self.x[p].Index()))))
        return {p: next(iter(v)) for p, v in seen.items() if len(v) == 1}

    def bounds(self, lines, terms) -> tuple[int, int] | None:
        out = []
        for sense in (1, -1):
            mm = self.m.clone()
            get = mm.get_bool_var_from_proto_index
            expr = sum(get(self.x[p].Index()) for p in terms)
            mm.Minimize(expr) if sense == 1 else mm.Maximize(expr)
            self._assume(mm, lines)
            self.proven = True
            s, ok = self._solve(mm, optimize=True)
            if not ok:
                return None
            if not self.proven:         # a bound not proven is no bound to state
                raise TimeoutError
            out.append(int(round(s.ObjectiveValue())))
        return out[0], out[1]

    def shrink(self, lines, facts) -> list[int]:
        """A minimal subset of ``lines`` that, with the rules, rules out ``facts``."""
        keep = sorted(lines)
        i = 0
        while i < len(keep):
            trial = keep[:i] + keep[i + 1:]
            if not self.feasible(trial, facts):
                keep = trial
            else:
                i += 1
        return keep


def only_left_text(rule, card: str, where: str, names: list[str]) -> str:
    """How a sentence says that a line leaves ``card`` the only card of the rule ``rule``
    (a :class:`~solver.model.Constraint` of no line: ``where`` holds one of ``names``)
    that can be in ``where``; a game's view model words it in its own terms
    (:meth:`~solver.model.view.ModelView.only_left_text`).

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b", "c"], {"P": 1, "Q": 1, "E": 1}, {c: c for c in "abc"})
    >>> m.add(["a", "b"], ["E"], 1, 1)         # a rule: E holds one of a, b
    >>> m.place("a", "P", source=3); m.place("b", "Q", source=5)
    >>> conflict_reason(m, [3, 5], lambda l: l)
    'line 3 puts a in P; line 5 leaves a the only card that can be in E, which holds one of a b'
    """
    from solver.model import place_phrase

    which = " ".join(names) if len(names) <= MAX_CHAIN_CARDS else f"{len(names)} cards"
    some = "one" if rule.hi == 1 else "at least one"
    return (f"leaves {card} the only card that can be {place_phrase(where)}, which holds "
            f"{some} of {which}")


def conflict_reason(model, core: list[int], label: Callable[[str], str],
                    only_left: Callable[..., str] = only_left_text) -> str | None:
    """One sentence saying why the lines of ``core`` (a minimal conflicting set of
    ``model``) cannot all hold, or ``None`` when no single fact or count explains it.
    ``label(location)`` words a place ("the mystery hand", "Ben's hand"); ``only_left``
    words a line that fixes a card only through a rule of the model (:func:`only_left_text`,
    the same arguments)."""
    if len(core) < 2:
        return None
    try:
        probe = _Probe(model, set(core))
        return (_one_card(model, probe, core, label, only_left)
                or _one_card_places(model, probe, core, label)
                or _one_count(model, probe, core, label))
    except TimeoutError:
        return None


#: at most this many rules are tried for the one a contradiction rests on (a solve each)
MAX_RULE_TRIES = 8


def conflict_rule(model, core: list[int]) -> str | None:
    """The rule a contradiction of ``model``'s lines ``core`` rests on, or ``None``: of the
    rules that the constraints of its lines cite in their notes (``"#(Ben, 4H-7H) = 0
    (E3)"``), newest line first, then those of the game's own rules (constraints of no
    line: ``"the case file holds one suspect (CL-2)"``), the first whose constraints the
    contradiction needs -- without them the lines of ``core`` hold together.

    >>> from solver.model import CardLocationModel
    >>> m = CardLocationModel(["a", "b"], {"P": 1, "Q": 1}, {"a": "a", "b": "b"})
    >>> m.place("a", "P", source=3, note="a is at P (XY-1)")
    >>> m.add(["a"], ["Q"], 0, 0, 4, "a is not at Q (XY-9)")      # not what conflicts
    >>> m.add(["a"], ["P"], 0, 0, 4, "a is not at P (XY-2)")
    >>> conflict_rule(m, [3, 4])
    'XY-2'
    """
    from dataclasses import replace

    from solver.rulebook import rule_ids

    groups: list[tuple[str, list[int]]] = []
    for source in sorted(core, reverse=True) + [None]:
        cited: dict[str, list[int]] = {}
        for i, c in enumerate(model.constraints):
            if c.source == source:
                for r in rule_ids(c.note):
                    cited.setdefault(r, []).append(i)
        groups += list(cited.items())
    saved = model.constraints
    try:
        for rule, idx in groups[:MAX_RULE_TRIES]:
            off = set(idx)
            model.constraints = [replace(c, lo=0, hi=len(c.terms)) if i in off else c
                                 for i, c in enumerate(saved)]
            if _Probe(model, set(core)).feasible(core):
                return rule
    except TimeoutError:
        return None
    finally:
        model.constraints = saved
    return None


def _core_pairs(model, core) -> list[Pair]:
    """Every (card, place) pair of a card that a line of the core mentions."""
    cards = sorted({ci for c in model.constraints if c.source in core for ci, _ in c.terms})
    return [(ci, li) for ci in cards for li in range(len(model.locations))]


def _one_card(model, probe: _Probe, core: list[int], label,
              only_left: Callable[..., str] = only_left_text) -> str | None:
    pairs = _core_pairs(model, core)
    if not pairs:
        return None
    rules = probe.forced([], pairs)
    pairs = [p for p in pairs if p not in rules]
    if not pairs:
        return None
    forced = {z: probe.forced([l for l in core if l != z], pairs) for z in core}
    best = None
    tried = 0
    for p in pairs:
        vals = {f[p] for f in forced.values() if p in f}
        if vals != {0, 1}:
            continue
        tried += 1
        at = probe.shrink(core, [(p, 0)])      # lines forcing the card there
        off = probe.shrink(core, [(p, 1)])     # lines forcing it elsewhere
        if set(at) & set(off) or len(at) == len(core) or len(off) == len(core):
            continue
        score = (max(len(at), len(off)), len(at) + len(off))
        if best is None or score < best[0]:
            best = (score, p, at, off)
        if tried >= MAX_CANDIDATES:
            break
    if best is None:
        return None
    _, p, at, off = best
    card, where = model.name(model.cards[p[0]]), label(model.locations[p[1]])
    # the side holding the newest line comes second: "...; line 22 says it is"
    first, second = (at, off) if max(off) > max(at) else (off, at)
    v1 = 1 if first is at else 0
    # a line that fixes the card only through a rule (the one card of a kind left for a
    # place that holds one of them) says so, not that it says where the card is
    via1 = _only_left(model, probe, first, p, v1, label, only_left)
    via2 = _only_left(model, probe, second, p, 1 - v1, label, only_left)
    head = via1 or _chain(model, probe, first, p, v1, label, card, where)
    if via2:
        return f"{head}; {via2}"
    says = "says" if len(second) == 1 else "say"
    if not via1:
        return f"{head}; {lines_text(second)} {says} it is" + ("" if v1 == 0 else " not")
    # the first part did not name the place: the second does
    if v1 == 0 and len(second) == 1 and _direct(model, second[0], p, 1):
        return f"{head}; line {second[0]} puts it in {where}"
    return f"{head}; {lines_text(second)} {says} it is" + ("" if v1 == 0 else " not") + \
        f" in {where}"


def _direct(model, line: int, p: Pair, v: int) -> bool:
    """Whether ``line`` itself says that pair ``p`` has value ``v``: it puts the card
    there, keeps it from there, or puts it somewhere else."""
    for c in model.constraints:
        if c.source != line:
            continue
        if v == 1 and c.terms == {p} and c.lo >= 1:
            return True
        if v == 0 and p in c.terms and c.hi == 0:
            return True
        if v == 0 and len(c.terms) == 1 and c.lo >= 1 and next(iter(c.terms))[0] == p[0]:
            return True
    return False


def _only_left(model, probe: _Probe, lines: list[int], p: Pair, v: int, label,
               only_left: Callable[..., str]) -> str | None:
    """``line L leaves C the only ...`` when one line ``L`` gives pair ``p`` the value ``v``
    not by what it says but through a rule of the model (a constraint of no line: a place
    holds one of some cards) whose other cards the line keeps from that place; else
    ``None``."""
    if len(lines) != 1 or _direct(model, lines[0], p, v):
        return None
    line = lines[0]
    for rule in model.constraints:
        if rule.source is not None or rule.lo != 1 or len({li for _, li in rule.terms}) != 1:
            continue
        q = next((t for t in rule.terms if t[0] == p[0]), None)
        if q is None or (q == p) != bool(v):
            continue
        others = sorted(rule.terms - {q})
        off = probe.forced([line], others)
        if not others or any(off.get(t) != 0 for t in others):
            continue
        names = [model.name(model.cards[ci]) for ci, _ in sorted(rule.terms)]
        text = only_left(rule, model.name(model.cards[p[0]]),
                         label(model.locations[q[1]]), names)
        return f"line {line} {text}"
    return None


def _chain(model, probe: _Probe, lines: list[int], p: Pair, v: int, label, card, where) -> str:
    """How ``lines`` force pair ``p`` to value ``v``: with one line, what it says; with
    more, the facts the others give about the cards of one of them, then that line."""
    if len(lines) == 1:
        return (f"line {lines[0]} puts {card} in {where}" if v
                else f"line {lines[0]} says {card} is not in {where}")
    verdict = f"{card} {'must be' if v else 'cannot be'} in {where}"
    for y in sorted(lines, reverse=True):
        rest = [l for l in lines if l != y]
        terms = {q for c in model.constraints if c.source == y for q in c.terms} - {p}
        if not terms:
            continue
        known = probe.forced(rest, sorted(terms))
        rules = probe.forced([], sorted(known))
        facts = {q: val for q, val in known.items() if q not in rules}
        placed = {q[0] for q, val in facts.items() if val == 1}
        facts = {q: val for q, val in facts.items() if val == 1 or q[0] not in placed}
        if not facts or len({q[0] for q in facts}) > MAX_CHAIN_CARDS:
            continue
        return f"{_facts_text(model, facts, label)} ({lines_text(rest)}), so with line {y} " \
               f"{verdict}"
    return f"{lines_text(lines)} together mean {verdict}"


def _facts_text(model, facts: dict[Pair, int], label) -> str:
    """``3H 5H 6H are in the mystery hand and KS is not in Ben's hand``."""
    groups: dict[tuple[int, int], list[int]] = {}
    for (ci, li), v in sorted(facts.items()):
        groups.setdefault((li, v), []).append(ci)
    parts = []
    for (li, v), cis in sorted(groups.items(), key=lambda g: (-g[0][1], min(g[1]))):
        names = " ".join(model.name(model.cards[ci]) for ci in cis)
        verb = ("is" if len(cis) == 1 else "are") + ("" if v else " not")
        parts.append(f"{names} {verb} in {label(model.locations[li])}")
    return " and ".join(parts)


def _count_text(lo: int, hi: int, n: int) -> str:
    if lo == hi:
        return f"exactly {lo}" if lo else "none"
    if hi >= n:
        return f"at least {lo}"
    if lo <= 0:
        return f"at most {hi}" if hi else "none"
    return f"between {lo} and {hi}"


def _one_count(model, probe: _Probe, core: list[int], label) -> str | None:
    """A set of cards X in a place L (first those a line z says something about, then any
    set a line of the core names, in any place) such that the core without z bounds their
    number outside what z alone allows."""
    sets = []
    origin: dict[frozenset, str] = {}      # a set of cards -> how a line named it
    for z in sorted(core, reverse=True):
        for con in model.constraints:
            if con.source == z and con.terms:
                x = frozenset(ci for ci, _ in con.terms)
                if x not in sets:
                    sets.append(x)
                if con.note:
                    origin.setdefault(x, f"the {len(x)} cards that line {z} names ('{con.note}')")
    cache: dict = {}

    def bounds(lines, terms):
        key = (tuple(lines), terms)
        if key not in cache:
            cache[key] = probe.bounds(lines, terms)
        return cache[key]

    for z in sorted(core, reverse=True):
        rest = [l for l in core if l != z]
        own = []
        for c in model.constraints:
            if c.source != z or not c.terms or c.lo > c.hi:
                continue
            # without the pairs z itself rules out ("Dev holds a low heart, not 5H": the
            # low hearts but 5H) the count is the one a person reads
            off = probe.forced([z], sorted(c.terms))
            refined = frozenset(p for p in c.terms if off.get(p) != 0)
            if refined and refined != c.terms:
                own.append((refined, ""))
            own.append((c.terms, c.note))
        others = [(frozenset((ci, li) for ci in x), "") for x in sets
                  for li in range(len(model.locations))]
        for terms, note in own + others:
            b_z = bounds([z], terms)
            if b_z is None or b_z == (0, len(terms)):
                continue
            b_r = bounds(rest, terms)
            if b_r is None or (b_r[1] >= b_z[0] and b_r[0] <= b_z[1]):
                continue
            n = len(terms)
            cards = sorted({ci for ci, _ in terms})
            where = " or ".join(label(model.locations[li])
                                for li in sorted({li for _, li in terms}))
            if b_r[0] > b_z[1]:
                rest_says, z_says = _count_text(b_r[0], n, n), _count_text(0, b_z[1], n)
            else:
                rest_says, z_says = _count_text(0, b_r[1], n), _count_text(b_z[0], n, n)
            verb = "puts" if len(rest) == 1 else "put"
            if len(cards) <= MAX_CHAIN_CARDS or not note:
                names = (" ".join(model.name(model.cards[ci]) for ci in cards)
                         if len(cards) <= MAX_CHAIN_CARDS
                         else origin.get(frozenset(cards), f"{len(cards)} cards"))
                return (f"{lines_text(rest)} {verb} {rest_says} of {names} in {where}; "
                        f"line {z} says {z_says}")
            return (f"line {z} says {note}, but {lines_text(rest)} {verb} {rest_says} of "
                    f"those {len(cards)} cards in {where}")
    return None


def _places(label, model, lis) -> str:
    names = [label(model.locations[li]) for li in sorted(lis)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _one_card_places(model, probe: _Probe, core: list[int], label) -> str | None:
    """One card that the core without line z keeps to some places and z alone to others
    ("line 36 leaves 7S only in the mystery hand or the face-up cards; line 38 puts it in
    Ben's hand, Cleo's hand or Dev's hand")."""
    pairs = _core_pairs(model, core)
    nl = len(model.locations)
    for z in sorted(core, reverse=True):
        rest = [l for l in core if l != z]
        f_rest, f_z = probe.forced(rest, pairs), probe.forced([z], pairs)
        best = None
        for ci in sorted({ci for ci, _ in pairs}):
            p_rest = {li for li in range(nl) if f_rest.get((ci, li)) != 0}
            p_z = {li for li in range(nl) if f_z.get((ci, li)) != 0}
            if p_rest & p_z or not p_rest or not p_z:
                continue
            if best is None or len(p_rest) + len(p_z) < len(best[1]) + len(best[2]):
                best = (ci, p_rest, p_z)
        if best is None:
            continue
        ci, p_rest, p_z = best
        card = model.name(model.cards[ci])
        verb = "puts" if len(rest) == 1 else "put"
        left = ("leaves" if len(rest) == 1 else "leave") + f" {card} only in"
        first = (f"{lines_text(rest)} {verb} {card} in {_places(label, model, p_rest)}"
                 if len(p_rest) == 1 else f"{lines_text(rest)} {left} "
                 f"{_places(label, model, p_rest)}")
        return f"{first}; line {z} puts it in {_places(label, model, p_z)}"
    return None
