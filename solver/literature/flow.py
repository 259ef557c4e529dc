"""An exact, fast backbone for Literature models by network flow (no search).

Literature's facts about the deal are unary (a card is, or is not, with a player) or count
a set of cards of one half-suit with one player ("Cleo holds at least one low heart",
LIT-6(c); joker counts under V8).  When, for every player, those counted sets are disjoint
(always so without jokers, once the implied facts are pruned; nested sets, as with
the jokers' counts inside their half-suit, become a tree of count nodes), the consistent deals are
exactly the integral flows of

    source -> card [1, 1] -> player [0, 1]            (allowed, not in a counted set)
                          -> counted set [0, 1] -> its player [lo, hi]
    player -> sink [size, size]

and a (card, player) pair is possible iff its edge carries flow in some feasible flow:
in one feasible flow, iff it carries flow or closes a cycle of the residual graph (both
ends in one strongly connected component; Régin's argument for global cardinality).
:func:`flow_backbone` returns ``None`` when the facts do not have this shape (the caller
then uses CP-SAT), and an empty result when no deal fits.

>>> from solver.model import CardLocationModel
>>> m = CardLocationModel(["a", "b", "c", "d"], {"P": 2, "Q": 2})
>>> m.add(["a", "b"], ["P"], 1, 2)
>>> m.exclude("a", "P"); m.exclude("c", "P")
>>> fb = flow_backbone(m)
>>> fb.consistent, sorted(fb.possible["b"]), sorted(fb.possible["d"]), sorted(fb.possible["a"])
(True, ['P'], ['P'], ['Q'])
"""
from __future__ import annotations

from collections import deque
from typing import Hashable

from solver.model import Backbone


class _Net:
    __slots__ = ("n", "head", "to", "cap", "lo", "flow")

    def __init__(self, n):
        self.n = n
        self.head: list[list[int]] = [[] for _ in range(n)]    # node -> its edges
        self.to, self.cap, self.lo, self.flow = [], [], [], []

    def edge(self, u, v, lo, hi):
        i = len(self.to)
        self.to += [v, u]
        self.cap += [hi, 0]
        self.lo += [lo, 0]
        self.flow += [0, 0]
        self.head[u].append(i)
        self.head[v].append(i + 1)
        return i


def _maxflow(n, head, to, cap, s, t) -> int:
    """Dinic on residual capacities ``cap`` (modified in place); returns the flow value."""
    total = 0
    while True:
        level = [-1] * n
        level[s] = 0
        q = deque([s])
        while q:
            u = q.popleft()
            for e in head[u]:
                if cap[e] > 0 and level[to[e]] < 0:
                    level[to[e]] = level[u] + 1
                    q.append(to[e])
        if level[t] < 0:
            return total
        it = [0] * n

        def dfs(u, f):
            if u == t:
                return f
            while it[u] < len(head[u]):
                e = head[u][it[u]]
                v = to[e]
                if cap[e] > 0 and level[v] == level[u] + 1:
                    d = dfs(v, min(f, cap[e]))
                    if d:
                        cap[e] -= d
                        cap[e ^ 1] += d
                        return d
                it[u] += 1
            return 0

        while True:
            f = dfs(s, 1 << 30)
            if not f:
                break
            total += f


def _scc(n, adj) -> list[int]:
    """Tarjan's strongly connected components, iteratively; component id per node."""
    index = [0] * n
    low = [0] * n
    onstack = [False] * n
    seen = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = 1
    ncomp = 0
    for root in range(n):
        if seen[root]:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                seen[v] = True
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                onstack[v] = True
            recurse = False
            while i < len(adj[v]):
                w = adj[v][i]
                i += 1
                if not seen[w]:
                    work.append((v, i))
                    work.append((w, 0))
                    recurse = True
                    break
                if onstack[w]:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    onstack[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    return comp


def flow_backbone(model, extra_exclude: dict | None = None) -> Backbone | None:
    """The backbone of ``model`` by flow, or ``None`` if its constraints are not of the
    shape above.  ``extra_exclude`` (card -> locations) adds exclusions."""
    cards, locs = model.cards, model.locations
    nc, nl = len(cards), len(locs)
    allowed = [set(range(nl)) for _ in range(nc)]
    if extra_exclude:
        for c, ls in extra_exclude.items():
            ci = model.card_index(c)
            for l in ls:
                allowed[ci].discard(model.loc_index(l))
    pending = [(con.terms, con.lo, con.hi) for con in model.constraints]
    counted: dict[int, list] = {}          # loc -> [(card set, lo, hi)]
    while True:     # unary facts first; cards they settle leave the other sums
        changed = False
        rest = []
        for terms, lo, hi in pending:
            terms = frozenset(terms)
            fixed_in = sum(1 for ci, li in terms if allowed[ci] == {li})
            live = frozenset((ci, li) for ci, li in terms
                             if li in allowed[ci] and len(allowed[ci]) > 1)
            lo, hi = max(lo - fixed_in, 0), hi - fixed_in
            if lo > hi or lo > len(live):
                return Backbone(False, {c: set() for c in cards})
            if hi >= len(live) and lo == 0:
                if live != terms:
                    changed = True
                continue                     # says nothing more
            if hi == 0:
                for ci, li in live:
                    allowed[ci].discard(li)
                changed = True
                continue
            if lo == len(live) and len({ci for ci, _ in live}) == len(live):
                for ci, li in live:
                    allowed[ci] &= {li}
                changed = True
                continue
            if live != terms:
                changed = True
            rest.append((live, lo, hi))
        pending = rest
        if any(not a for a in allowed):
            return Backbone(False, {c: set() for c in cards})
        if not changed:
            break
    for terms, lo, hi in pending:
        byloc: dict[int, set[int]] = {}
        for ci, li in terms:
            byloc.setdefault(li, set()).add(ci)
        if len(byloc) != 1:
            return None   # a sum over several locations: not this shape
        (li, one), = byloc.items()
        counted.setdefault(li, []).append((frozenset(one), lo, hi))
    # counted sets of one location must be laminar (nested or disjoint): a tree of groups
    # (location, card set, lo, hi, parent group or None)
    groups: list[tuple[int, frozenset[int], int, int, int | None]] = []
    inner: dict[tuple[int, int], int] = {}
    for li, items in counted.items():
        merged: dict[frozenset, list] = {}
        for cs, lo, hi in items:
            if cs in merged:
                merged[cs][0] = max(merged[cs][0], lo)
                merged[cs][1] = min(merged[cs][1], hi)
            else:
                merged[cs] = [lo, hi]
        sets = sorted(merged, key=len, reverse=True)
        for i, a in enumerate(sets):
            for b in sets[i + 1:]:
                if a & b and not b <= a:
                    return None
        base = len(groups)
        for i, cs in enumerate(sets):
            parent = None
            for j in range(i - 1, -1, -1):      # the smallest earlier (larger) superset
                if cs <= sets[j]:
                    parent = base + j
                    break
            lo, hi = merged[cs]
            groups.append((li, cs, lo, hi, parent))
            for ci in cs:
                inner[ci, li] = base + i        # later (smaller) sets override
    if any(not a for a in allowed):
        return Backbone(False, {c: set() for c in cards})
    # nodes: 0 source, 1 sink, cards, groups, locations, then S', T'
    S, T = 0, 1
    cn = 2
    gn = cn + nc
    ln = gn + len(groups)
    SS, TT = ln + nl, ln + nl + 1
    net = _Net(ln + nl + 2)
    card_edges = []          # (edge id, card, location)
    for ci in range(nc):
        net.edge(S, cn + ci, 1, 1)
        for li in allowed[ci]:
            g = inner.get((ci, li))
            if g is None:
                card_edges.append((net.edge(cn + ci, ln + li, 0, 1), ci, li))
            else:
                card_edges.append((net.edge(cn + ci, gn + g, 0, 1), ci, li))
    for gi, (li, cs, lo, hi, parent) in enumerate(groups):
        net.edge(gn + gi, ln + li if parent is None else gn + parent, lo, min(hi, len(cs)))
    for li, loc in enumerate(locs):
        net.edge(ln + li, T, model.sizes[loc], model.sizes[loc])
    net.edge(T, S, 0, nc + 1)
    # lower bounds -> demands on S', T'
    excess = [0] * net.n
    cap = list(net.cap)
    for e in range(0, len(net.to), 2):
        lo = net.lo[e]
        if lo:
            u, v = net.to[e + 1], net.to[e]
            cap[e] -= lo
            excess[v] += lo
            excess[u] -= lo
    head = [list(h) for h in net.head]
    to = list(net.to)
    need = 0
    for v in range(net.n - 2):
        if excess[v] > 0:
            to += [v, SS]
            cap += [excess[v], 0]
            head[SS].append(len(to) - 2)
            head[v].append(len(to) - 1)
            need += excess[v]
        elif excess[v] < 0:
            to += [TT, v]
            cap += [-excess[v], 0]
            head[v].append(len(to) - 2)
            head[TT].append(len(to) - 1)
    if _maxflow(net.n, head, to, cap, SS, TT) != need:
        return Backbone(False, {c: set() for c in cards})
    # flow on the original edges: lo + (original residual capacity - what is left)
    m = len(net.to)
    adj: list[list[int]] = [[] for _ in range(net.n)]
    flows = {}
    for e in range(0, m, 2):
        lo, hi = net.lo[e], net.cap[e]
        f = lo + (hi - lo) - cap[e]
        flows[e] = f
        u, v = net.to[e + 1], net.to[e]
        if u in (S, T) or v in (S, T):
            continue   # S->card and loc->T are exact; T->S closes nothing useful
        if f < hi:
            adj[u].append(v)
        if f > lo:
            adj[v].append(u)
    comp = _scc(net.n, adj)
    possible: dict[Hashable, set[str]] = {c: set() for c in cards}
    for e, ci, li in card_edges:
        u, v = net.to[e + 1], net.to[e]
        if flows[e] > 0 or comp[u] == comp[v]:
            possible[cards[ci]].add(locs[li])
    return Backbone(True, possible)
