"""Maximum weight matching on a general graph with exact integer weights.

``max_weight_matching(n, edges, max_cardinality=False)`` returns ``mate``: a list of length n
where ``mate[v]`` is the vertex matched to v, or -1.

TEMPORARY: delegates to networkx (a development dependency) until the project's own
implementation lands; the engine only ever calls this function.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["max_weight_matching"]


def max_weight_matching(
    n: int, edges: Iterable[tuple[int, int, int]], *, max_cardinality: bool = False
) -> list[int]:
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        g.add_edge(u, v, weight=w)
    mate = [-1] * n
    for u, v in nx.max_weight_matching(g, maxcardinality=max_cardinality):
        mate[u] = v
        mate[v] = u
    return mate
