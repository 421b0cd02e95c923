"""The maximum weight matchings a round is paired with, behind one interface.

Both matchers hold edge weights over all the players still to pair (vertices in pairing order)
and answer a maximum weight matching. A finalized pair is taken out of the graph: no other edge
may touch it, so it belongs to every maximum weight matching and leaving it out changes nothing
for the other players.

``ScratchMatcher`` solves each matching from scratch, perfect or not (the 2017 round outlook).
``WarmMatcher`` keeps the optimum and its duals between two matchings (the 2026 rules: every
weight gives completion the highest priority, so every matching is perfect); it can also
answer questions about the optimal matchings from the tight edges alone, with no solve
(``TightEdges``).  ``MirroredMatcher`` gives the 2017 brackets the same warm solves: a
maximum weight matching of a graph is half of a maximum weight perfect matching of the graph
and its mirror image, each player joined to their image by a zero-weight edge.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from itertools import compress, count
from operator import ne
from typing import Protocol

from pairing.dynamic_matching import DynamicMatcher, NoPerfectMatching
from pairing.matching import _Blossom, max_weight_matching, max_weight_solver
from pairing.sleeping_pairs import SleepingPairs
from pairing.tight_graph import TightGraph

__all__ = ["Matcher", "MirroredMatcher", "ScratchMatcher", "WarmMatcher", "Outside"]


class Matcher(Protocol):
    """What the round pairer asks of a matcher."""

    n: int
    mate: list[int]
    """The current matching: ``mate[v]``, or v itself for a single vertex."""
    fixed: dict[int, int]
    """Finalized pairs, both ways."""

    def set(self, u: int, v: int, weight: int) -> None:
        """Give the pair u-v this weight (0: no edge)."""

    def set_many(self, edges: list[tuple[int, int, int | None]]) -> None:
        """``set`` for each (u, v, weight), a weight of None or 0 taking the pair out."""

    def set_lists(self, us: list[int], vs: list[int], ws: list[int | None]) -> None:
        """``set_many`` for the pairs (us[i], vs[i]) and weights ws[i], each pair once."""

    def replace_region(
        self, region: list[int], settled: list[int], us: list[int], vs: list[int], ws: list[int]
    ) -> None:
        """Take out every pair of two region vertices, except two settled ones, then give
        the pairs (us[i], vs[i]) the weights ws[i]."""

    def get(self, u: int, v: int) -> int:
        """The weight of the pair u-v (0: no edge)."""

    def compute(self) -> list[int]:
        """Solve; return ``mate``."""

    def reweigh(self, v: int, weights: dict[int, int]) -> list[int]:
        """Give the edges v-u the new ``weights[u]``, then return a maximum weight matching."""

    def finalize(self, u: int, v: int) -> None:
        """Fix the pair u-v and take both out of the graph."""

    def first_optimal_partner(self, v: int, candidates: list[int]) -> int | None:
        """The first candidate that v meets in some optimal matching (then v meets it), or
        None when the tight edges of the last solve cannot tell (re-weigh and solve)."""

    def pair_with_any(self, v: int, partners: Container[int]) -> bool | None:
        """Whether some optimal matching pairs v with one of the partners (then v meets
        one of them), or None when the tight edges of the last solve cannot tell."""

    def with_pair(self, u: int, v: int, solve: bool) -> dict[int, tuple[int, int]] | None:
        """How a maximum weight matching in which u and v meet differs from the current
        optimum: each player whose mate changes, with the old and the new mate (itself:
        single), the matcher left as it was: asked of the tight edges of the optimum
        (``TightGraph.mates_with``), or with ``solve`` by a warm solve without u and v
        (``DynamicMatcher.solve_without``).  None when that does not tell."""


class _Pairs:
    """What both matchers share: the matching, the finalized pairs and re-weighing one
    vertex's edges."""

    n: int
    mate: list[int]
    fixed: dict[int, int]

    def get(self, u: int, v: int) -> int:
        raise NotImplementedError

    def set(self, u: int, v: int, weight: int) -> None:
        raise NotImplementedError

    def compute(self) -> list[int]:
        raise NotImplementedError

    def set_many(self, edges: list[tuple[int, int, int | None]]) -> None:
        raise NotImplementedError

    def set_lists(self, us: list[int], vs: list[int], ws: list[int | None]) -> None:
        self.set_many(list(zip(us, vs, ws)))

    def _take_out(self, u: int, v: int) -> None:
        raise NotImplementedError

    def _adopt(self, mate: list[int]) -> list[int]:
        raise NotImplementedError

    def _adopt_some(self, mate: list[int], vertices: list[int]) -> None:
        """Take the solver's mate of these vertices (the others did not change)."""
        n, fixed, own = self.n, self.fixed, self.mate
        for v in vertices:
            if v < n and v not in fixed:
                m = mate[v]
                own[v] = v if m < 0 or m >= n else m

    def _tight_graph(self) -> TightGraph | None:
        """The tight edges of the last solve, or None while a change waits for a solve."""
        raise NotImplementedError

    def _solved_tight_graph(self) -> TightGraph | None:
        """The tight edges of the current optimum, after a solve if a change waits for one
        (None: they cannot tell, a final pair left a blossom behind)."""
        graph = self._tight_graph()
        if graph is None:
            self.compute()
            graph = self._tight_graph()
        return graph

    def first_optimal_partner(self, v: int, candidates: list[int]) -> int | None:
        """Try the candidates in order on the tight edges of the current optimum: the first
        one an optimal matching can give v becomes v's mate, with no solve (one first when
        a change since the last solve waits, or a final pair left a blossom behind)."""
        graph = self._solved_tight_graph()
        if graph is None:
            return None
        # For a perfect matching, once a search has said no, one more search answers all
        # the remaining questions about v (``TightGraph.reachable_without``): the pairs it rules
        # out are not searched one by one.
        s = graph.s
        top, x = s.top, s.top[v]
        tight: set[int] | None = None
        known: set[int] | None = None
        for u in candidates:
            if u == self.mate[v]:
                return u
            if graph.broken:
                return None
            if top[u] != x and s.mate[v] != u:
                if tight is None:
                    tight = set(graph.tight_neighbours(v))
                if u not in tight or (known is not None and top[u] not in known):
                    continue  # no optimal matching pairs them (``TightGraph.pair``)
            verdict = graph.pair(v, u, final=True)  # (the engine makes v's pair final)
            if verdict is None:
                return None
            if verdict:
                self._adopt_some(graph.s.mate, graph.touched)
                return u
            if known is None and top[u] != x:
                known = graph.reachable_without(v)
        return None

    def pair_with_any(self, v: int, partners: Container[int]) -> bool | None:
        graph = self._solved_tight_graph()
        if graph is None:
            return None
        verdict = graph.pair_with_any(v, partners)
        if verdict:
            self._adopt_some(graph.s.mate, graph.touched)
        return verdict

    def with_pair(self, u: int, v: int, solve: bool) -> dict[int, tuple[int, int]] | None:
        return None  # only the warm matchers try a pair (the brackets')

    def reweigh(self, v: int, weights: dict[int, int]) -> list[int]:
        """Only edges of v change. If the change of v's current edge is at least the change
        of any other edge of v, every other matching gains at most as much as the current
        one, which therefore stays optimal and is not recomputed."""
        current = self.mate[v]
        best_gain = 0
        current_gain = 0
        for u, weight in weights.items():
            gain = weight - self.get(v, u)
            self.set(v, u, weight)
            best_gain = max(best_gain, gain)
            if u == current:
                current_gain = gain
        if current != v and current_gain >= best_gain:
            return self.mate
        return self.compute()

    def finalize(self, u: int, v: int) -> None:
        self._take_out(u, v)
        self.fixed[u] = v
        self.fixed[v] = u
        self.mate[u] = v
        self.mate[v] = u


class ScratchMatcher(_Pairs):
    """Edge weights in a dictionary, each matching solved from scratch (need not be a
    perfect one: the 2017 round outlook).  Between two solves, the questions
    about the other optimal matchings are answered on the tight edges of the last one
    (``TightEdges``, ``pairing.tight_graph``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.w: dict[tuple[int, int], int] = {}
        self.nbrs: list[set[int]] = [set() for _ in range(n)]
        self.mate: list[int] = list(range(n))
        self.fixed: dict[int, int] = {}
        self._solver: _Blossom | None = None
        """The last solve, while no weight changed since."""
        self._graph: TightGraph | None = None

    def set(self, u: int, v: int, weight: int) -> None:
        key = (u, v) if u < v else (v, u)
        if self.w.get(key, 0) == weight:
            return
        self._solver = self._graph = None
        if weight:
            self.w[key] = weight
            self.nbrs[u].add(v)
            self.nbrs[v].add(u)
        else:
            del self.w[key]
            self.nbrs[u].discard(v)
            self.nbrs[v].discard(u)

    def set_many(self, edges: list[tuple[int, int, int | None]]) -> None:
        for u, v, weight in edges:
            self.set(u, v, weight or 0)

    def replace_region(
        self, region: list[int], settled: list[int], us: list[int], vs: list[int], ws: list[int]
    ) -> None:
        inside, keep = set(region), set(settled)
        for u, v in list(self.w):
            if u in inside and v in inside and not (u in keep and v in keep):
                self.set(u, v, 0)
        for u, v, weight in zip(us, vs, ws):
            self.set(u, v, weight)

    def get(self, u: int, v: int) -> int:
        return self.w.get((u, v) if u < v else (v, u), 0)

    def compute(self) -> list[int]:
        # the previous pairs still joined by an edge guide the solve (a few weights changed)
        mate, w = self.mate, self.w
        guess = [(u, m) for u, m in enumerate(mate) if u < m and (u, m) in w]
        self._solver = max_weight_solver(
            self.n, [(u, v, weight) for (u, v), weight in w.items()], guess
        )
        self._graph = None
        return self._adopt(self._solver.mate)

    def _adopt(self, mate: list[int]) -> list[int]:
        self.mate = [v if m < 0 else m for v, m in enumerate(mate)]
        for u, v in self.fixed.items():
            self.mate[u] = v
        return self.mate

    def reweigh(self, v: int, weights: dict[int, int]) -> list[int]:
        """As ``_Pairs.reweigh``; when the current matching stays optimal and v is in no
        blossom, v's dual rises by the gain of its matched edge, which keeps every edge of v
        feasible and the matched one tight: the last solve still answers questions."""
        solver = self._solver
        current = self.mate[v]
        gains = [w - self.get(v, u) for u, w in weights.items()]
        gain = weights.get(current, self.get(v, current)) - self.get(v, current)
        mate = super().reweigh(v, weights)
        if (
            self._solver is None and solver is not None and solver.mate[v] == current != v
            and solver.top[v] == v and gain >= max(gains, default=0)
        ):
            solver.dual[v] += 2 * gain
            self._solver = solver
        return mate

    def _tight_graph(self) -> TightGraph | None:
        if self._solver is None:
            return None
        if self._graph is None:
            self._graph = TightGraph(
                self._solver, self._edges_of, self.fixed.__contains__, perfect=False
            )
        return None if self._graph.broken else self._graph

    def _edges_of(self, u: int) -> tuple[list[int], list[int]]:
        w = self.w
        ys = list(self.nbrs[u])
        return ys, [2 * w[(u, y) if u < y else (y, u)] for y in ys]

    def _take_out(self, u: int, v: int) -> None:
        if self._solver is not None:
            graph = self._graph or TightGraph(
                self._solver, self._edges_of, self.fixed.__contains__, perfect=False
            )
            self._graph = graph
            graph.remove_pair(u, v)
        w, nbrs = self.w, self.nbrs
        for x in (u, v):
            for y in nbrs[x]:
                del w[(x, y) if x < y else (y, x)]
                nbrs[y].discard(x)
            nbrs[x] = set()


class WarmMatcher(_Pairs):
    """The same service over a DynamicMatcher: each matching starts from the previous one.

    Every weight gives completion ([C4]) the highest priority, so a maximum weight matching
    of the players is a maximum weight perfect matching, with one extra vertex (the PAB,
    joined to everyone by a zero-weight edge) when their number is odd.  Should the players
    not be perfectly matchable (some pairs taken out), the matching is computed from scratch.
    """

    def __init__(self, n: int, margin: int | None = None) -> None:
        self.n = n
        self.mate = list(range(n))
        self.fixed = {}
        self.bye_vertex = n if n % 2 else -1
        self.dynamic = DynamicMatcher(n + n % 2)
        self.dynamic.margin = margin
        if n % 2:
            for v in range(n):
                self.dynamic.set_weight(v, n, 0)

    def set(self, u: int, v: int, weight: int) -> None:
        self.dynamic.set_weight(u, v, weight or None)

    def set_many(self, edges: list[tuple[int, int, int | None]]) -> None:
        """The matcher takes a weight of None (not 0, a real weight there) as no edge."""
        self.dynamic.set_weights(edges)

    def set_lists(self, us: list[int], vs: list[int], ws: list[int | None]) -> None:
        """A million pairs at once (the generation order of a large bracket)."""
        self.dynamic.set_weight_lists(us, vs, ws)

    def replace_region(
        self, region: list[int], settled: list[int], us: list[int], vs: list[int], ws: list[int]
    ) -> None:
        self.dynamic.replace_region(region, settled, us, vs, ws)

    def get(self, u: int, v: int) -> int:
        return self.dynamic.weight(u, v) or 0

    def compute(self) -> list[int]:
        try:
            mate = self.dynamic.solve()
        except NoPerfectMatching:
            mate = max_weight_matching(self.n, [
                (u, v, w) for u, v, w in self.dynamic.edges() if max(u, v) < self.n and w
            ])
        return self._adopt(mate)

    def _adopt(self, mate: list[int]) -> list[int]:
        self.mate = [v if m < 0 or m == self.bye_vertex else m for v, m in enumerate(mate[:self.n])]
        for u, v in self.fixed.items():
            self.mate[u] = v
        return self.mate

    def _tight_graph(self) -> TightGraph | None:
        """The PAB vertex stands for the PAB."""
        return self.dynamic.tight_graph()

    def raise_duals(self, amounts: dict[int, int]) -> None:
        """Raise these vertices' duals before their edges become heavier."""
        self.dynamic.raise_duals(amounts)

    def with_pair(self, u: int, v: int, solve: bool) -> dict[int, tuple[int, int]] | None:
        """As ``Matcher.with_pair``; the PAB vertex stands for a player left single."""
        dynamic = self.dynamic
        if dynamic.waiting():
            self.compute()  # a re-weighing (``reweigh``) that kept the matching optimal
        changes: dict[int, tuple[int, int]] | None = None
        graph = None if solve else dynamic.tight_graph()
        if graph is not None:
            new = graph.mates_with(u, v)
            if new is not None:
                old = graph.s.mate
                changes = {x: (old[x], m) for x, m in new.items()}
        if solve:
            trial = dynamic.solve_without([u, v])
            if trial is not None:
                before, after = trial
                after[u], after[v] = v, u
                changes = {
                    x: (before[x], after[x])
                    for x in compress(count(), map(ne, before, after))
                }
        if changes is None:
            return None
        n, bye = self.n, self.bye_vertex
        return {
            x: (x if old == bye else old, x if new == bye else new)
            for x, (old, new) in changes.items() if x < n
        }

    def sleep(self, pairs: SleepingPairs | None) -> None:
        """Pairs of the graph the solver holds only once the duals need them
        (``DynamicMatcher.sleep``); their classes name no PAB vertex."""
        self.dynamic.sleep(pairs)

    def woken(self) -> list[tuple[int, int]]:
        """The sleeping pairs the matcher holds since ``sleep``."""
        return self.dynamic.woken()

    def suggest(self, pairs: list[tuple[int, int]]) -> None:
        """Pairs the next solve from scratch is likely to use."""
        self.dynamic.suggest(pairs)

    def _take_out(self, u: int, v: int) -> None:
        self.dynamic.remove_vertex(u)
        self.dynamic.remove_vertex(v)


class MirroredMatcher(_Pairs):
    """Warm maximum weight matchings that need not be perfect (the 2017 brackets before the
    last one), over the players of one region (a bracket and the next score group).

    Each region player x (local number i) has an image i + m in a mirror copy of the region's
    graph, joined to it by an edge of weight 0; every pair of the graph is in both copies.  A
    perfect matching of the doubled graph is a matching of the graph (x single: matched with
    its image) plus one of the mirror, so its weight is at most twice the optimum, with
    equality exactly when both halves are maximum weight matchings; and every maximum weight
    matching, with its image, makes an optimal perfect matching.  So the optimal perfect
    matchings of the doubled graph (``DynamicMatcher``, warm) hold exactly the optimal
    matchings of the graph in their first half, and the tight-edge questions about it keep
    their answers.  A player left single is one matched with their own image (or, in an odd
    region, with the extra vertex: see ``replace_region``).
    """

    def __init__(self, n: int, margin: int | None = None) -> None:
        self.n = n
        self.mate = list(range(n))
        self.fixed = {}
        self.margin = margin
        self._region: list[int] = []  # local number -> player
        self._local: dict[int, int] = {}  # player -> local number
        self._dynamic: DynamicMatcher | None = None

    def _doubled(self, u: int, v: int, weight: int | None) -> list[tuple[int, int, int | None]]:
        local, m = self._local, len(self._region)
        i, j = local[u], local[v]
        return [(i, j, weight), (i + m, j + m, weight)]

    def set(self, u: int, v: int, weight: int) -> None:
        self.set_many([(u, v, weight)])

    def set_many(self, edges: list[tuple[int, int, int | None]]) -> None:
        """As ``WarmMatcher.set_many``, both copies alike."""
        assert self._dynamic is not None
        doubled: list[tuple[int, int, int | None]] = []
        for u, v, weight in edges:
            doubled += self._doubled(u, v, weight or None)
        self._dynamic.set_weights(doubled)

    def replace_region(
        self, region: list[int], settled: list[int], us: list[int], vs: list[int], ws: list[int]
    ) -> None:
        """A new region: its players, the pairs given, nothing else (``clear`` came first, so
        no pair is settled)."""
        self._region = region[:]
        self._local = local = {v: i for i, v in enumerate(region)}
        m = len(region)
        for v in range(self.n):
            if v not in self.fixed:
                self.mate[v] = v
        # An odd region leaves a player single in every matching: with the images alone,
        # each copy tends to be one blossom of positive dual (its odd set), in which no pair
        # can be made final without a solve.  A vertex joined to every player by a
        # zero-weight edge (and another to every image; the two not joined, so each takes
        # one) takes that player instead, as the PAB vertex does in ``WarmMatcher``: it
        # changes no matching's weight, and a matching with its image still makes a perfect
        # matching (one player single in both halves takes the two extra vertices).
        hub = m % 2
        dynamic = self._dynamic = DynamicMatcher(2 * m + 2 * hub)
        dynamic.margin = self.margin
        lu = [local[u] for u in us]
        lv = [local[v] for v in vs]
        players, images = list(range(m)), list(range(m, 2 * m))
        dynamic.replace_region(
            range(2 * m + 2 * hub), (),
            lu + [i + m for i in lu] + players + (players + images) * hub,
            lv + [i + m for i in lv] + images + ([2 * m] * m + [2 * m + 1] * m) * hub,
            list(ws) + list(ws) + [0] * (m + 2 * m * hub),
        )

    def get(self, u: int, v: int) -> int:
        if self._dynamic is None or u not in self._local or v not in self._local:
            return 0
        return self._dynamic.weight(self._local[u], self._local[v]) or 0

    def suggest(self, pairs: list[tuple[int, int]]) -> None:
        """Pairs the next solve from scratch is likely to use (in both copies)."""
        if self._dynamic is not None:
            local, m = self._local, len(self._region)
            self._dynamic.suggest(
                [(local[u], local[v]) for u, v in pairs]
                + [(local[u] + m, local[v] + m) for u, v in pairs]
            )

    def raise_duals(self, amounts: dict[int, int]) -> None:
        """As ``WarmMatcher.raise_duals``, in both copies."""
        if self._dynamic is not None:
            local, m = self._local, len(self._region)
            doubled = {local[v]: amount for v, amount in amounts.items()}
            doubled.update({local[v] + m: amount for v, amount in amounts.items()})
            self._dynamic.raise_duals(doubled)

    def compute(self) -> list[int]:
        assert self._dynamic is not None
        return self._adopt(self._dynamic.solve())

    def _adopt(self, mate: list[int]) -> list[int]:
        self._adopt_some(mate, range(len(self._region)))
        return self.mate

    def _adopt_some(self, mate: list[int], vertices: Iterable[int]) -> None:
        """Take the doubled graph's mate of these local numbers (the image: single)."""
        region, m, own, fixed = self._region, len(self._region), self.mate, self.fixed
        for i in vertices:
            if i < m:
                v = region[i]
                if v not in fixed:
                    j = mate[i]
                    own[v] = region[j] if 0 <= j < m else v

    def _tight_graph(self) -> TightGraph | None:
        return None if self._dynamic is None else self._dynamic.tight_graph()

    def first_optimal_partner(self, v: int, candidates: list[int]) -> int | None:
        """As ``_Pairs.first_optimal_partner``; the pair is taken in the mirror too, so that
        ``finalize`` leaves both copies matched."""
        graph = self._solved_tight_graph()
        if graph is None:
            return None
        local, m = self._local, len(self._region)
        i = local[v]
        for u in candidates:
            j = local[u]
            if u != self.mate[v]:
                verdict = graph.pair(i, j, final=True)
                if verdict is None:
                    return None
                if not verdict:
                    continue
                self._adopt_some(graph.s.mate, graph.touched)
            # the images too, so that the final pair leaves the graph with no solve (a path
            # in the mirror may pass through the players: their mates are taken again)
            if graph.pair(i + m, j + m, final=True):
                self._adopt_some(graph.s.mate, graph.touched)
            return u
        return None

    def with_pair(self, u: int, v: int, solve: bool) -> dict[int, tuple[int, int]] | None:
        """As ``Matcher.with_pair``, by a warm solve of the doubled graph only (u-v in both
        copies); a player matched with its image (or an extra vertex) is single."""
        if not solve or self._dynamic is None or u not in self._local or v not in self._local:
            return None
        local, region, m = self._local, self._region, len(self._region)
        i, j = local[u], local[v]
        if self._dynamic.waiting():
            self.compute()  # a re-weighing (``reweigh``) that kept the matching optimal
        trial = self._dynamic.solve_without([i, j, i + m, j + m])
        if trial is None:
            return None
        before, after = trial
        after[i], after[j] = j, i

        def player(x: int, y: int) -> int:
            return region[y] if 0 <= y < m else region[x]

        return {
            region[x]: (player(x, before[x]), player(x, after[x]))
            for x in range(m) if before[x] != after[x]
        }

    def pair_with_any(self, v: int, partners: Container[int]) -> bool | None:
        """As ``_Pairs.pair_with_any``, asked of v's local number: v's image stands for v
        left single."""
        return super().pair_with_any(self._local[v], _Players(partners, self._region, v))

    def _take_out(self, u: int, v: int) -> None:
        assert self._dynamic is not None
        m = len(self._region)
        for x in (u, v):
            i = self._local[x]
            self._dynamic.remove_vertex(i)
            self._dynamic.remove_vertex(i + m)

    def clear(self) -> None:
        """Forget the region (the finalized pairs stay in ``fixed``)."""
        self._region, self._local, self._dynamic = [], {}, None

    def snapshot(self) -> tuple[dict[int, int], list[int]]:
        """The finalized pairs and the matching, to go back to (``restore``)."""
        return dict(self.fixed), self.mate[:]

    def restore(self, state: tuple[dict[int, int], list[int]]) -> None:
        self.fixed, self.mate = state
        self.clear()


class _Players:
    """The local numbers of a container of players, for the neighbours of player v (its
    image and the odd region's extra vertex stand for v left single)."""

    def __init__(self, players: Container[int], region: list[int], v: int) -> None:
        self.players, self.region, self.v = players, region, v

    def __contains__(self, i: object) -> bool:
        assert isinstance(i, int)
        return (self.region[i] if i < len(self.region) else self.v) in self.players


class Outside:
    """Every vertex but the given ones (a container for ``pair_with_any``)."""

    def __init__(self, excluded: set[int]) -> None:
        self.excluded = excluded

    def __contains__(self, vertex: object) -> bool:
        return vertex not in self.excluded
