"""Pairs a ``DynamicMatcher`` does not hold, described by classes of vertices and certified by
the duals (``DynamicMatcher.sleep``).

Why.  A bracket of 1,100 players and the score group below it make 2.4 million pairs, and
most of them never come near an optimal matching.  Players with the same weight signature
are interchangeable but for their order and the pairs [C1] and [C3] rule out: every pair of
two classes has one weight (given which class is ranked higher).  The matcher holds a few
pairs per player; the others *sleep*, known here by their classes only.

Certificate.  After a solve on the pairs it holds, the matching is optimal for the whole graph
when every sleeping pair is feasible for the duals (reduced cost >= 0: d_u + d_v >= 2w, in
doubled duals; blossom duals only add to that, LP duality).  ``violated`` finds the sleeping
pairs that are not, class pair by class pair: with each class's vertices sorted by dual, a
class pair whose two smallest duals cover its weight is feasible as a whole, and otherwise the
scan stops at the first vertex whose dual covers the weight.  The matcher wakes those pairs
(holds them from then on) and solves again, until none is left: the answer is exact whatever
pairs it started with, and no constant decides it.

The optimal matchings are those of the tight pairs (``pairing.tight_graph``): ``tight`` gives
the sleeping pairs of a vertex that may be tight, for the questions asked between solves.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter

__all__ = ["SleepingPairs"]

_NONE = float("-inf")
"""A bound on a dual that no vertex is under (``SleepingPairs._inside_limits``)."""


class _Level:
    """A sorted list of vertices and duals, less those of a set, filtered lazily: ``ws`` and
    ``es`` hold the vertices outside the set up to the first dual not under the largest
    bound asked so far (``reach``)."""

    __slots__ = ("_ws", "_es", "_skip", "_pos", "ws", "es")

    def __init__(self, ws: list[int], es: list[int], skip: set[int] | None) -> None:
        self._ws, self._es, self._skip, self._pos = ws, es, skip, 0
        self.ws: list[int] = [] if skip is not None else ws
        self.es: list[int] = [] if skip is not None else es

    def reach(self, bound: int) -> None:
        """Filter on until every vertex of the set's complement with a dual under bound is
        listed (a scan stops at the first dual at or above its bound)."""
        skip = self._skip
        if skip is None:
            return
        ws, es, i, end = self._ws, self._es, self._pos, len(self._ws)
        out_ws, out_es = self.ws, self.es
        while i < end and es[i] < bound:
            v = ws[i]
            if v not in skip:
                out_ws.append(v)
                out_es.append(es[i])
            i += 1
        self._pos = i

    def first(self) -> int | None:
        """The least dual outside the set (None: every vertex is in it)."""
        while not self.es and self._skip is not None and self._pos < len(self._ws):
            self.reach(self._es[self._pos] + 1)  # (lists at least the next vertex's dual)
        return self.es[0] if self.es else None


Explicit = Callable[[int, int], bool]
"""Whether the matcher holds (or has set aside) the pair u < v: then it is not sleeping."""


class SleepingPairs:
    """The pairs between classes of vertices whose weights ``weight_of`` gives.

    ``cls[v]``: the class of vertex v (-1: v has no sleeping pair).  ``weight_of(a, b)``: the
    weight of a pair whose higher-ranked vertex (the lower number) is in class a and the other
    in class b, or None (no pair, or one the matcher holds).  ``ok[u][v]``: whether u and v may
    meet at all.
    """

    def __init__(
        self, cls: Sequence[int], weight_of: Callable[[int, int], int | None],
        ok: Sequence[bytes | bytearray],
    ) -> None:
        self.cls = list(cls)
        self.ok = ok
        count = max(self.cls, default=-1) + 1
        members: list[list[int]] = [[] for _ in range(count)]
        for v, c in enumerate(self.cls):
            if c >= 0:
                members[c].append(v)
        self.members = members
        first = [m[0] if m else 0 for m in members]
        last = [m[-1] if m else -1 for m in members]
        # weights[a * count + b]: a ranked higher; None where no vertex of a precedes one of b
        self._count = count
        weights: list[int | None] = [None] * (count * count)
        for a in range(count):
            for b in range(count):
                if members[a] and members[b] and first[a] < last[b]:
                    w = weight_of(a, b)
                    weights[a * count + b] = w or None
        self._weights = weights
        # partners[a]: (b, doubled largest weight of an a-b pair), for every class b with one;
        # least[a][i]: the doubled least weight of the same pairs
        partners: list[list[tuple[int, int]]] = [[] for _ in range(count)]
        least: list[list[int]] = [[] for _ in range(count)]
        for a in range(count):
            for b in range(count):
                w1, w2 = weights[a * count + b], weights[b * count + a]
                top = max(w1 or 0, w2 or 0)
                if top:
                    partners[a].append((b, 2 * top))
                    least[a].append(2 * min(w for w in (w1, w2) if w))
        self._partners = partners
        self._least_weight = least
        # per class, its vertices still in the graph grouped by top-level blossom (``sort``):
        # (blossom or -1 for the vertices in none, vertices by dual, duals)
        self._groups: list[list[tuple[int, list[int], list[int]]]] = [[] for _ in range(count)]
        self._least: list[int | None] = [None] * count  # the least dual of each class

    def weight(self, u: int, v: int) -> int | None:
        """The weight of the sleeping pair u-v, or None."""
        cu, cv = self.cls[u], self.cls[v]
        if cu < 0 or cv < 0 or u == v or not self.ok[u][v]:
            return None
        if u < v:
            return self._weights[cu * self._count + cv]
        return self._weights[cv * self._count + cu]

    def weights_of(self, pairs: list[tuple[int, int]]) -> list[int | None]:
        """``weight`` of each pair (u, v), u < v."""
        cls, ok, count, weights = self.cls, self.ok, self._count, self._weights
        out: list[int | None] = []
        for u, v in pairs:
            cu, cv = cls[u], cls[v]
            out.append(weights[cu * count + cv] if cu >= 0 and cv >= 0 and ok[u][v] else None)
        return out

    def sort(
        self, dual: Sequence[int], removed: Sequence[bool], top: Sequence[int],
        parent: Sequence[int], verts: Sequence[list[int]], positive: Iterable[int],
    ) -> None:
        """Sort each class's vertices still in the graph by dual (before ``violated`` and
        ``tight``), per top-level blossom and per blossom of positive dual holding them: a
        pair inside blossoms has twice their duals more slack (the blossoms of zero dual,
        most of them, add nothing).  ``positive``: the blossoms of positive dual."""
        n = len(self.cls)
        self._n, self._dual, self._top = n, dual, top
        cls = self.cls
        # the top-level blossoms and the blossoms of positive dual, outermost first
        holders = {t for t in top if t >= n}
        holders.update(positive)
        chains: dict[int, list[int]] = {}
        inside: list[dict[int, list[tuple[int, int]]]] = [{} for _ in range(self._count)]
        members_of: dict[int, set[int]] = {}
        for blossom in sorted(holders, key=lambda x: -len(verts[x])):
            live = [v for v in verts[blossom] if not removed[v] and cls[v] >= 0]
            members_of[blossom] = set(live)
            for v in live:
                chains.setdefault(v, []).append(blossom)
                inside[cls[v]].setdefault(blossom, []).append((dual[v], v))
        for c, vs in enumerate(self.members):
            plain = sorted(((dual[v], v) for v in vs if not removed[v] and top[v] < n),
                           key=itemgetter(0))
            groups: list[tuple[int, list[int], list[int]]] = []
            if plain:
                groups.append((-1, [v for _, v in plain], [d for d, _ in plain]))
            for t, entries in inside[c].items():
                if parent[t] < 0:  # a top-level blossom
                    entries.sort(key=itemgetter(0))
                    groups.append((t, [v for _, v in entries], [d for d, _ in entries]))
            self._groups[c] = groups
            self._least[c] = min((ds[0] for _, _, ds in groups), default=None)
        self._inside = [
            {b: ([v for _, v in live], [d for d, _ in live])
             for b, live in ((b, sorted(live, key=itemgetter(0))) for b, live in nested.items())}
            for nested in inside
        ]
        self._holder_chains, self._members_of = chains, members_of
        self._chains: dict[int, list[tuple[int, int, int]]] = {}
        self._levels: dict[tuple[int, int, int], _Level] = {}
        # the next blossom in after the top-level one on each vertex's chain (-1: none),
        # and the ones met in each class's group of a top-level blossom (``_inside_limits``)
        self._inner = {u: holders[1] if len(holders) > 1 else -1 for u, holders in chains.items()}
        self._inners: dict[tuple[int, int], set[int]] = {}

    def violated(
        self, explicit: Explicit, fallen: Sequence[int] | None, per_class: int,
    ) -> list[tuple[int, int, int]]:
        """Sleeping pairs (u, v, weight), u < v, infeasible under the duals of the last
        ``sort`` (d_u + d_v + twice the duals of the blossoms holding both < 2w): for each
        vertex and class, the ``per_class`` most violated.  ``fallen``: only pairs with one
        of these vertices (the others kept their duals since they were all found feasible),
        or None for all."""
        found: dict[tuple[int, int], int] = {}
        groups = self._groups
        least = self._least
        if fallen is None:
            # group by group (top-level blossoms): two groups whose least duals, with the dual
            # of the blossom they share, cover the weight have no violated pair
            dual = self._dual
            for a in range(self._count):
                la = least[a]
                if la is None:
                    continue
                for b, top2 in self._partners[a]:
                    lb = least[b]
                    if b < a or lb is None or la + lb >= top2:
                        continue
                    for ta, vs, ds in groups[a]:
                        shared_top = 2 * dual[ta] if ta >= 0 else 0
                        for tb, ws, es in groups[b]:
                            same = ta == tb and ta >= 0
                            shared = shared_top if same else 0
                            if ds[0] + es[0] + shared >= top2:
                                continue
                            if same:
                                limits = self._inside_limits(a, ta, b, top2)
                                inner = self._inner
                            for u, du in zip(vs, ds):
                                if du + es[0] + shared >= top2:
                                    break
                                if same:
                                    if du < limits[inner[u]]:
                                        self._scan_inside(u, b, top2, explicit, per_class,
                                                          found)
                                else:
                                    self._take(u, b, ws, es, top2 - du, 0, explicit,
                                               per_class, found, 0)
        else:
            cls, dual = self.cls, self._dual
            for u in fallen:
                a = cls[u]
                if a < 0:
                    continue
                du = dual[u]
                for b, top2 in self._partners[a]:
                    lb = least[b]
                    if lb is not None and du + lb < top2:
                        self._scan(u, b, top2, explicit, per_class, found)
        return [(u, v, w) for (u, v), w in found.items()]

    def _scan(
        self, u: int, b: int, top2: int, explicit: Explicit, per_class: int,
        found: dict[tuple[int, int], int],
    ) -> None:
        """The violated sleeping pairs of u with class b, the most violated first in each
        group: the vertices in other top-level blossoms (no common dual), then, blossom by
        blossom from u's top-level one inwards, those whose deepest blossom shared with u is
        that one."""
        n, dual, top = self._n, self._dual, self._top
        du = dual[u]
        tu = top[u] if top[u] >= n else -1
        taken = 0
        for tb, ws, es in self._groups[b]:
            if tb == tu and tu >= 0:
                continue
            taken = self._take(u, b, ws, es, top2 - du, 0, explicit, per_class, found, taken)
            if taken >= per_class:
                return
        if tu >= 0 and taken < per_class:
            self._scan_inside(u, b, top2, explicit, per_class, found, taken)

    def _scan_inside(
        self, u: int, b: int, top2: int, explicit: Explicit, per_class: int,
        found: dict[tuple[int, int], int], taken: int = 0,
    ) -> None:
        """``_scan`` in the top-level blossom holding u: blossom by blossom of positive dual
        from it inwards, the vertices whose deepest such blossom shared with u is that one."""
        du, least = self._dual[u], self._least[b]
        if least is None:
            return
        for blossom, shared, inner in self._chain(u):
            if du + shared + least >= top2:
                return  # deeper blossoms only add to the duals shared
            bound = top2 - du - shared
            level = self._level(b, blossom, inner)
            if level is None:
                continue
            level.reach(bound)
            taken = self._take(u, b, level.ws, level.es, bound, shared, explicit, per_class,
                               found, taken)
            if taken >= per_class:
                return

    def _inside_limits(self, a: int, t: int, b: int, top2: int) -> dict[int, float]:
        """For the vertices of class a in the top-level blossom t, by the next blossom in on
        their chain (``_inner``): a bound on the dual under which ``_scan_inside`` may find
        a violated pair with class b (at or above it, none).

        Why it is exact: ``_scan_inside`` finds a pair of u at the first level only with a
        vertex of class b in t but not in u's next blossom I, of dual under
        ``top2 - du - shared`` (``shared``: t's doubled dual), so only if du is under
        ``top2 - shared`` less the least such dual; at any deeper level only if du is under
        ``top2 - shared - 2 * dual[I]`` less the least dual of class b, as the duals
        shared only grow inwards.  A vertex at or above both finds nothing: skipping it
        leaves the pairs found, and their order, as they were.  Without it, when one large
        blossom holds the bracket, every vertex of it was scanned for every class.
        """
        key = (a, t)
        inners = self._inners.get(key)
        if inners is None:
            inner = self._inner
            inners = self._inners[key] = {inner[u] for u in self._inside[a][t][0]}
        dual = self._dual
        shared = 2 * dual[t]
        least = self._least[b]
        limits: dict[int, float] = {}
        for i in inners:
            level = self._level(b, t, i)
            first = level.first() if level is not None else None
            limit = _NONE if first is None else top2 - shared - first
            if i >= 0 and least is not None:
                limit = max(limit, top2 - shared - 2 * dual[i] - least)
            limits[i] = limit
        return limits

    def _chain(self, u: int) -> list[tuple[int, int, int]]:
        """The top-level blossom holding u and the blossoms of positive dual holding u inside
        it, outermost first, each with the doubled duals it and the ones around it add to a
        pair inside it, and the next one in (-1 for none)."""
        chain = self._chains.get(u)
        if chain is None:
            dual = self._dual
            holders = self._holder_chains.get(u, [])
            chain = []
            shared = 0
            for i, blossom in enumerate(holders):
                shared += 2 * dual[blossom]
                inner = holders[i + 1] if i + 1 < len(holders) else -1
                chain.append((blossom, shared, inner))
            self._chains[u] = chain
        return chain

    def _level(self, b: int, blossom: int, inner: int) -> _Level | None:
        """The vertices of class b in ``blossom`` but not in ``inner`` (a blossom inside it,
        or -1), sorted by dual (None: class b has none in ``blossom``): the ones whose
        deepest blossom shared with a vertex of ``inner`` is ``blossom``.

        Why: the vertices of ``inner`` share more with such a vertex and are scanned at the
        next level, and when ``inner`` holds most of the low duals, every vertex of it would
        step over them one by one at this level (millions of steps in a bracket that one
        large blossom holds).  The list is kept per (class, blossom, inner) and filtered
        only as far as a scan needs it; a scan sees the same vertices in the same order as
        it would by skipping those of ``inner``, so the pairs found are the same.
        """
        key = (b, blossom, inner)
        level = self._levels.get(key)
        if level is None:
            members = self._inside[b].get(blossom)
            if members is None:
                return None
            level = self._levels[key] = _Level(
                members[0], members[1], self._members_of[inner] if inner >= 0 else None
            )
        return level

    def _take(
        self, u: int, b: int, ws: list[int], es: list[int], bound: int, shared: int,
        explicit: Explicit, per_class: int, found: dict[tuple[int, int], int], taken: int,
    ) -> int:
        """Record the violated pairs of u with these vertices of class b (sorted by dual),
        which share blossoms of doubled dual ``shared`` with u; return how many are
        recorded for u and b."""
        ok_u, cu, count, weights, dual = (
            self.ok[u], self.cls[u], self._count, self._weights, self._dual
        )
        du = dual[u] + shared
        for v, dv in zip(ws, es):
            if dv >= bound:
                break
            if v == u or not ok_u[v]:
                continue
            if u < v:
                w, key = weights[cu * count + b], (u, v)
            else:
                w, key = weights[b * count + cu], (v, u)
            if w is None or du + dv >= 2 * w or key in found or explicit(*key):
                continue
            found[key] = w
            taken += 1
            if taken >= per_class:
                break
        return taken

    def tight(
        self, u: int, dual: Sequence[int], extra: int, risen: int, explicit: Explicit,
        removed: Sequence[bool],
    ) -> tuple[list[int], list[int]]:
        """The sleeping pairs of u that may be tight: a slack under the vertex duals between
        -``extra`` (the doubled duals of the blossoms around u) and 0, as neighbours and
        doubled weights.  The duals may have risen since ``sort``, by ``risen`` at most."""
        a = self.cls[u]
        ys: list[int] = []
        w2s: list[int] = []
        if a < 0:
            return ys, w2s
        du, ok_u, count, weights = dual[u], self.ok[u], self._count, self._weights
        for (b, top2), low2 in zip(self._partners[a], self._least_weight[a]):
            high = top2 - du  # a listed dual is at most the current one
            low = low2 - du - extra - risen
            for _, ws, es in self._groups[b]:
                for i in range(bisect_left(es, low), len(es)):
                    if es[i] > high:
                        break
                    v = ws[i]
                    if v == u or not ok_u[v] or removed[v]:
                        continue
                    w = weights[a * count + b] if u < v else weights[b * count + a]
                    if w is None:
                        continue
                    slack = du + dual[v] - 2 * w
                    if slack > 0 or slack < -extra:
                        continue
                    if explicit(u, v) if u < v else explicit(v, u):
                        continue
                    ys.append(v)
                    w2s.append(2 * w)
        return ys, w2s

    def covered(self, dual: Sequence[int], removed: Sequence[bool], explicit: Explicit) -> bool:
        """Whether the vertices' duals alone cover every sleeping pair between two vertices
        still in the graph (d_u + d_v >= 2w).  Two classes whose least duals cover the
        largest weight between them have no pair to look at; within the others, each vertex
        looks only at the partners of least dual, up to the first that covers that weight."""
        live: list[tuple[list[int], list[int]]] = []
        for vs in self.members:
            entries = sorted((dual[v], v) for v in vs if not removed[v])
            live.append(([v for _, v in entries], [d for d, _ in entries]))
        for a, (us, uds) in enumerate(live):
            if not us:
                continue
            for b, top2 in self._partners[a]:
                ws, wds = live[b]
                if not ws or uds[0] + wds[0] >= top2:
                    continue
                for u, du in zip(us, uds):
                    if du + wds[0] >= top2:
                        break
                    for v, dv in zip(ws, wds):
                        if du + dv >= top2:
                            break
                        if u < v:
                            w = self.weight(u, v)
                            if w is not None and du + dv < 2 * w and not explicit(u, v):
                                return False
        return True

    def every_pair(self, removed: Sequence[bool], explicit: Explicit) -> list[tuple[int, int, int]]:
        """Every sleeping pair between two vertices still in the graph (to wake them all)."""
        out = []
        for a, vs in enumerate(self.members):
            for u in vs:
                if removed[u]:
                    continue
                for b, _ in self._partners[a]:
                    for v in self.members[b]:
                        if u < v and not removed[v]:
                            w = self.weight(u, v)
                            if w is not None and not explicit(u, v):
                                out.append((u, v, w))
        return out
