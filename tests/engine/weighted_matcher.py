"""A matcher for one graph whose edge weights change between solves, built on the solver's
parts; the tests use it to exercise the certified sparse solve again and again (the engine
itself keeps its optimum warm with ``pairing.dynamic_matching``)."""

from __future__ import annotations

from collections.abc import Iterable

from pairing.matching import (
    CANDIDATES_PER_VERTEX,
    MatchingInputError,
    _Blossom,
    _heaviest_per_vertex,
    _read_edges,
    _solve_from_candidates,
    _with_cardinality_bonus,
)


class WeightedMatcher:
    """Maximum weight matchings of one graph whose edge weights change between solves.

    ``WeightedMatcher(n, edges, max_cardinality=False)`` checks and stores the graph once
    (it must be simple: no parallel edges).  ``set_weight(u, v, w)`` changes the weight of an
    existing edge, ``solve()`` returns mate for the current weights, exactly as
    ``max_weight_matching`` would.  What is reused between solves is the set of candidate
    edges of the last solve (plus the edges whose weight changed): the next solve starts from
    it instead of selecting the heaviest edges of every vertex again, and its optimality is
    certified on all edges like the first one.  Duals are not reused.

    Without max_cardinality, a negative weight takes an edge out (it is never matched).
    """

    def __init__(
        self, n: int, edges: Iterable[tuple[int, int, int]], *, max_cardinality: bool = False
    ) -> None:
        self.n = n
        self.max_cardinality = max_cardinality
        self._eu, self._ev, self._ew = _read_edges(n, edges, keep_negative=True)
        self._index: dict[tuple[int, int], int] = {}
        for k, (u, v) in enumerate(zip(self._eu, self._ev)):
            key = (u, v) if u < v else (v, u)
            if key in self._index:
                raise MatchingInputError(f"parallel edges between {key[0]} and {key[1]}")
            self._index[key] = k
        self._chosen: list[int] | None = None
        self._changed: set[int] = set()

    def weight(self, u: int, v: int) -> int:
        return self._ew[self._edge(u, v)]

    def set_weight(self, u: int, v: int, w: int) -> None:
        if type(w) is not int:
            raise MatchingInputError(f"weight of edge ({u}, {v}) must be an int, got {w!r}")
        k = self._edge(u, v)
        self._ew[k] = w
        self._changed.add(k)

    def _edge(self, u: int, v: int) -> int:
        k = self._index.get((u, v) if u < v else (v, u))
        if k is None:
            raise MatchingInputError(f"no edge between {u!r} and {v!r}")
        return k

    def solve(self) -> list[int]:
        n, eu, ev, ew = self.n, self._eu, self._ev, self._ew
        if self.max_cardinality:
            ew = _with_cardinality_bonus(n, ew)
        # Without max_cardinality, negative edges may stay: vertex duals end >= 0, so such an
        # edge can be neither tight (matched) nor violated.
        if len(ew) <= 2 * CANDIDATES_PER_VERTEX * n:
            return _Blossom(n, eu, ev, ew).solve(False)
        fresh = self._chosen is None or len(self._chosen) > 4 * CANDIDATES_PER_VERTEX * n
        if fresh:
            chosen = _heaviest_per_vertex(n, eu, ev, ew, CANDIDATES_PER_VERTEX)
        else:
            chosen = sorted(self._changed.union(self._chosen))
        self._changed.clear()
        mate, self._chosen = _solve_from_candidates(n, eu, ev, ew, chosen)
        return mate
