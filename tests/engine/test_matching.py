"""Maximum weight matching: hand-made blossom cases, brute force and networkx as oracles."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st
from weighted_matcher import WeightedMatcher

from pairing import matching
from pairing.matching import MatchingInputError, max_weight_matching

BIG = 2**200


def weight_of(mate, edges):
    weights = {}
    for u, v, w in edges:
        key = (min(u, v), max(u, v))
        weights[key] = max(w, weights.get(key, w))
    total = 0
    count = 0
    for v, m in enumerate(mate):
        if m < 0:
            continue
        assert mate[m] == v, "mate is not symmetric"
        if v < m:
            assert (v, m) in weights, f"matched pair {v}-{m} is not an edge"
            total += weights[(v, m)]
            count += 1
    return total, count


def brute_force(n, edges, max_cardinality):
    """Best (count, weight) or (weight) over every matching: exponential, for tiny graphs."""
    weights = {}
    for u, v, w in edges:
        key = (min(u, v), max(u, v))
        weights[key] = max(w, weights.get(key, w))
    keys = sorted(weights)
    best = None
    for r in range(n // 2 + 1):
        for subset in itertools.combinations(keys, r):
            used = [x for e in subset for x in e]
            if len(set(used)) != len(used):
                continue
            total = sum(weights[e] for e in subset)
            score = (r, total) if max_cardinality else total
            if best is None or score > best:
                best = score
    return best


def networkx_best(n, edges, max_cardinality):
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        if g.has_edge(u, v):
            w = max(w, g[u][v]["weight"])
        g.add_edge(u, v, weight=w)
    pairs = nx.max_weight_matching(g, maxcardinality=max_cardinality)
    return sum(g[u][v]["weight"] for u, v in pairs), len(pairs)


def assert_same_as_networkx(n, edges):
    total, _ = weight_of(max_weight_matching(n, edges), edges)
    assert total == networkx_best(n, edges, False)[0], (n, edges)
    got = weight_of(max_weight_matching(n, edges, max_cardinality=True), edges)
    assert got == networkx_best(n, edges, True), (n, edges)


# -- input handling -----------------------------------------------------------------------


def test_it_handles_empty_graphs():
    assert max_weight_matching(0, []) == []
    assert max_weight_matching(3, []) == [-1, -1, -1]
    assert max_weight_matching(3, [], max_cardinality=True) == [-1, -1, -1]


def test_it_accepts_any_iterable_of_edges():
    assert max_weight_matching(2, iter([(1, 0, 4)])) == [1, 0]


@pytest.mark.parametrize(
    "n, edges",
    [
        (2, [(0, 0, 1)]),
        (2, [(0, 2, 1)]),
        (2, [(-1, 1, 1)]),
        (2, [(0, 1, 1.5)]),
        (2, [(0, 1, True)]),
        (2, [(0, 1)]),
        (2, [None]),
        (-1, []),
        (2.0, []),
    ],
)
def test_it_rejects_malformed_graphs(n, edges):
    with pytest.raises(MatchingInputError):
        max_weight_matching(n, edges)


def test_it_keeps_the_heaviest_of_parallel_edges():
    edges = [(0, 1, 5), (1, 2, 3), (2, 3, 5), (1, 2, 20)]
    assert max_weight_matching(4, edges) == [-1, 2, 1, -1]


def test_it_certifies_matchings_made_with_parallel_edges(monkeypatch):
    # Found by hypothesis: the lighter copies of a matched pair are not tight, and the
    # certificate of the sparse-subgraph path must not take them for the matched edge.
    monkeypatch.setattr(matching, "CANDIDATES_PER_VERTEX", 1)
    edges = [(0, 1, 0), (0, 1, 0), (0, 1, 0), (0, 2, 0), (0, 2, 1), (1, 2, 1), (0, 1, 1)]
    assert weight_of(max_weight_matching(3, edges), edges)[0] == 1
    assert weight_of(max_weight_matching(3, edges, max_cardinality=True), edges) == (1, 1)


def test_it_never_uses_negative_edges_without_max_cardinality():
    assert max_weight_matching(2, [(0, 1, -1)]) == [-1, -1]
    assert max_weight_matching(4, [(0, 1, 3), (1, 2, 4), (2, 3, -2)]) == [-1, 2, 1, -1]


def test_it_uses_negative_edges_to_reach_maximum_cardinality():
    assert max_weight_matching(2, [(0, 1, -1)], max_cardinality=True) == [1, 0]
    edges = [(0, 1, 3), (1, 2, 4), (2, 3, -2)]
    assert max_weight_matching(4, edges, max_cardinality=True) == [1, 0, 3, 2]


def test_it_is_exact_where_floats_would_tie():
    # 2*BIG and 2*BIG + 1 are the same double: only exact integers see the difference.
    edges = [(0, 1, BIG), (2, 3, BIG), (1, 2, 2 * BIG + 1)]
    assert max_weight_matching(4, edges) == [-1, 2, 1, -1]
    edges = [(0, 1, BIG + 2), (2, 3, BIG), (1, 2, 2 * BIG + 1)]
    assert max_weight_matching(4, edges) == [1, 0, 3, 2]


# -- hand-made blossom cases --------------------------------------------------------------


def test_it_matches_through_a_triangle_blossom():
    # The triangle 0-1-2 is shrunk first; the best matching then leaves it through 2-3.
    edges = [(0, 1, 8), (1, 2, 9), (0, 2, 10), (2, 3, 7), (0, 4, 5)]
    mate = max_weight_matching(5, edges)
    assert weight_of(mate, edges)[0] == brute_force(5, edges, False) == 15
    assert mate == [1, 0, 3, 2, -1]


def test_it_relabels_an_expanded_t_blossom():
    # A blossom that becomes a T-blossom, whose dual reaches zero and is expanded mid-stage.
    edges = [(0, 1, 23), (0, 4, 22), (0, 5, 15), (1, 2, 25), (2, 3, 22), (3, 4, 25), (3, 7, 14),
             (4, 6, 13)]
    mate = max_weight_matching(8, edges)
    assert weight_of(mate, edges)[0] == brute_force(8, edges, False)
    assert mate == [5, 2, 1, 7, 6, 0, 4, 3]


def test_it_handles_nested_s_blossoms():
    # Triangle 0-1-2 nested in a pentagon through 3, 4; then augmented from outside.
    edges = [(0, 1, 9), (0, 2, 9), (1, 2, 10), (1, 3, 7), (2, 4, 7), (3, 4, 6), (3, 5, 2),
             (4, 6, 3)]
    mate = max_weight_matching(7, edges)
    assert weight_of(mate, edges)[0] == brute_force(7, edges, False)
    mate = max_weight_matching(7, edges, max_cardinality=True)
    assert weight_of(mate, edges) == brute_force(7, edges, True)[::-1]


def test_it_expands_nested_blossoms_at_stage_end_and_mid_stage():
    # Blossoms inside blossoms, a T-blossom expansion that uncovers a nested S-blossom.
    edges = [(0, 1, 45), (0, 6, 45), (1, 2, 50), (2, 3, 45), (3, 4, 95), (3, 5, 94), (4, 5, 94),
             (5, 6, 50), (0, 7, 30), (2, 9, 35), (4, 8, 36), (6, 10, 26), (8, 10, 5)]
    for max_cardinality in (False, True):
        mate = max_weight_matching(11, edges, max_cardinality=max_cardinality)
        expected = brute_force(11, edges, max_cardinality)
        got = weight_of(mate, edges)
        assert (got[::-1] if max_cardinality else got[0]) == expected


def test_it_expands_a_nested_s_blossom_whose_dual_is_zero_after_augmenting():
    edges = [(0, 3, 27), (0, 5, 20), (1, 4, 26), (2, 3, 29), (2, 4, 29), (3, 5, 26), (4, 5, 26)]
    mate = max_weight_matching(6, edges)
    assert weight_of(mate, edges)[0] == brute_force(6, edges, False) == 75


def test_it_augments_through_nested_blossoms_with_equal_weights():
    # Every edge weighs the same: the matching is a maximum cardinality one.
    petersen = [(i, (i + 1) % 5, 1) for i in range(5)]
    petersen += [(i, i + 5, 1) for i in range(5)]
    petersen += [(5 + i, 5 + (i + 2) % 5, 1) for i in range(5)]
    mate = max_weight_matching(10, petersen)
    assert weight_of(mate, petersen) == (5, 5)
    odd_cycles = [(i, (i + 1) % 7, 1) for i in range(7)] + [(7 + i, 7 + (i + 1) % 7, 1)
                                                           for i in range(7)] + [(0, 7, 1)]
    mate = max_weight_matching(14, odd_cycles)
    assert weight_of(mate, odd_cycles) == (7, 7)


# -- random graphs against the oracles ----------------------------------------------------

FAMILIES = {
    # name: (vertex range, edge probability range, weight range kind)
    "tiny-dense": ((1, 8), (0.5, 1.0), "small"),
    "small-dense": ((5, 16), (0.6, 1.0), "small"),
    "sparse": ((5, 40), (0.05, 0.2), "small"),
    "equal-weights": ((2, 30), (0.1, 0.9), "equal"),
    "huge-weights": ((2, 30), (0.1, 1.0), "huge"),
    "with-zero-and-negative": ((2, 25), (0.1, 1.0), "signed"),
    "few-values": ((2, 30), (0.1, 1.0), "few"),
}

GRAPHS_PER_FAMILY = 400


def random_graph(rng, family):
    (lo_n, hi_n), (lo_p, hi_p), kind = FAMILIES[family]
    n = rng.randint(lo_n, hi_n)
    p = rng.uniform(lo_p, hi_p)
    if kind == "small":
        weight = lambda: rng.randint(1, 20)  # noqa: E731
    elif kind == "equal":
        weight = lambda: 7  # noqa: E731
    elif kind == "huge":
        weight = lambda: rng.getrandbits(200) | (1 << 199)  # noqa: E731
    elif kind == "signed":
        weight = lambda: rng.randint(-10, 10)  # noqa: E731
    else:
        weight = lambda: rng.choice((0, BIG, BIG + 1, 2 * BIG))  # noqa: E731
    edges = [(u, v, weight()) for u in range(n) for v in range(u + 1, n) if rng.random() < p]
    rng.shuffle(edges)
    return n, [(v, u, w) if rng.random() < 0.5 else (u, v, w) for u, v, w in edges]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_it_agrees_with_networkx_on_random_graphs(family):
    rng = random.Random(f"matching-{family}")
    for _ in range(GRAPHS_PER_FAMILY):
        n, edges = random_graph(rng, family)
        assert_same_as_networkx(n, edges)


@pytest.mark.parametrize("per_vertex", [1, 2, 3])
def test_it_certifies_sparse_subgraph_solutions_on_all_edges(monkeypatch, per_vertex):
    # Dense graphs are solved on the heaviest edges of each vertex, then every other edge is
    # checked against the duals and added back when it violates them.  Few candidates per
    # vertex force several such rounds.
    monkeypatch.setattr(matching, "CANDIDATES_PER_VERTEX", per_vertex)
    rng = random.Random(f"sparse-first-{per_vertex}")
    for _ in range(150):
        family = rng.choice(sorted(FAMILIES))
        n, edges = random_graph(rng, family)
        assert_same_as_networkx(n, edges)


def test_it_adds_back_edges_left_out_of_the_sparse_subgraph(monkeypatch):
    # The heaviest edge of every vertex is a spoke to vertex 0, but the best matching uses the
    # rim: only the certificate step can bring those edges back.
    monkeypatch.setattr(matching, "CANDIDATES_PER_VERTEX", 1)
    n = 9
    edges = [(0, v, 10) for v in range(1, n)]
    edges += [(v, v + 1, 9) for v in range(1, n - 1)]
    edges += [(u, v, 1) for u in range(1, n) for v in range(u + 2, n)]
    mate = max_weight_matching(n, edges)
    assert weight_of(mate, edges)[0] == 10 + 3 * 9
    mate = max_weight_matching(n, edges, max_cardinality=True)
    assert weight_of(mate, edges) == (10 + 3 * 9, 4)


def naive_slack(solver, u, v, w):
    """Doubled slack, summing the duals of the common blossoms by walking up the parents."""
    around_u = set()
    x = u
    while solver.parent[x] >= 0:
        x = solver.parent[x]
        around_u.add(x)
    common = 0
    x = v
    while solver.parent[x] >= 0:
        x = solver.parent[x]
        if x in around_u:
            common += solver.dual[x]
    return solver.dual[u] + solver.dual[v] - 2 * w + 2 * common


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_final_duals_prove_optimality(family):
    # The solver's own duals: feasible on every edge (also through nested blossoms, which
    # the fast range-minimum computation must get right), tight on matched edges, zero on
    # single vertices.  This is the certificate the sparse-subgraph path relies on.
    rng = random.Random(f"duals-{family}")
    nested = 0
    for _ in range(150):
        n, edges = random_graph(rng, family)
        eu, ev, ew = matching._read_edges(n, edges, keep_negative=False)
        solver = matching._Blossom(n, eu, ev, ew)
        mate = solver.solve(False)
        solver.certify(False)
        fast = solver.slacks(eu, ev, ew)
        slow = [naive_slack(solver, u, v, w) for u, v, w in zip(eu, ev, ew)]
        assert fast == slow
        assert all(s >= 0 for s in fast)
        assert all(s == 0 for s, u, v in zip(fast, eu, ev) if mate[u] == v)
        assert all(solver.dual[v] == 0 for v in range(n) if mate[v] < 0)
        nested += any(
            solver.base[b] >= 0 and solver.parent[b] >= 0 for b in range(n, 2 * n)
        )
    if family in ("small-dense", "few-values", "equal-weights"):
        assert nested > 0, "no nested blossom left at the end: the check proved little"


small_graphs = st.integers(min_value=0, max_value=8).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(
                st.integers(0, max(n - 1, 0)),
                st.integers(0, max(n - 1, 0)),
                st.one_of(st.integers(-5, 30), st.integers(-(2**210), 2**210)),
            ).filter(lambda e: e[0] != e[1]),
            max_size=20,
        ),
    )
)


@settings(max_examples=400, deadline=None)
@given(small_graphs)
def test_it_agrees_with_brute_force(graph):
    n, edges = graph
    mate = max_weight_matching(n, edges)
    assert weight_of(mate, edges)[0] == brute_force(n, edges, False)
    mate = max_weight_matching(n, edges, max_cardinality=True)
    assert weight_of(mate, edges)[::-1] == brute_force(n, edges, True)


# -- WeightedMatcher: one graph, changing weights -----------------------------------------


def test_matcher_rejects_parallel_edges_and_unknown_edges():
    with pytest.raises(MatchingInputError):
        WeightedMatcher(3, [(0, 1, 1), (1, 0, 2)])
    matcher = WeightedMatcher(3, [(0, 1, 1)])
    with pytest.raises(MatchingInputError):
        matcher.set_weight(1, 2, 5)
    with pytest.raises(MatchingInputError):
        matcher.set_weight(0, 1, 2.5)


def test_matcher_follows_weight_changes():
    matcher = WeightedMatcher(4, [(0, 1, 5), (1, 2, 3), (2, 3, 5)])
    assert matcher.solve() == [1, 0, 3, 2]
    matcher.set_weight(2, 1, 11)
    assert matcher.weight(1, 2) == 11
    assert matcher.solve() == [-1, 2, 1, -1]
    matcher.set_weight(1, 2, -1)
    assert matcher.solve() == [1, 0, 3, 2]


@pytest.mark.parametrize("per_vertex", [1, 3, 8])
@pytest.mark.parametrize("max_cardinality", [False, True])
def test_matcher_agrees_with_a_fresh_solve_after_every_change(
    monkeypatch, per_vertex, max_cardinality
):
    monkeypatch.setattr(matching, "CANDIDATES_PER_VERTEX", per_vertex)
    rng = random.Random(f"matcher-{per_vertex}-{max_cardinality}")
    for _ in range(12):
        family = rng.choice(["small-dense", "huge-weights", "with-zero-and-negative", "few-values"])
        n, edges = random_graph(rng, family)
        if not edges:
            continue
        simple = {}
        for u, v, w in edges:
            simple[(min(u, v), max(u, v))] = w
        edges = [(u, v, w) for (u, v), w in simple.items()]
        matcher = WeightedMatcher(n, edges, max_cardinality=max_cardinality)
        current = dict(simple)
        for _ in range(8):
            for _ in range(rng.randint(1, 4)):
                u, v = rng.choice(sorted(current))
                if family == "huge-weights":
                    w = rng.getrandbits(200)
                elif family == "few-values":
                    w = rng.choice((0, BIG, BIG + 1, 2 * BIG))
                else:
                    w = rng.randint(-10, 25)
                matcher.set_weight(u, v, w)
                current[(u, v)] = w
            now = [(u, v, w) for (u, v), w in current.items()]
            got = weight_of(matcher.solve(), now)
            expected = networkx_best(n, now, max_cardinality)
            assert (got if max_cardinality else got[0]) == (
                expected if max_cardinality else expected[0]
            ), (n, now)


dense_small_graphs = st.integers(min_value=3, max_value=7).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.integers(0, n - 1),
                st.one_of(st.integers(-3, 12), st.integers(0, 2**210)),
            ).filter(lambda e: e[0] != e[1]),
            min_size=2 * n,
            max_size=3 * n,
        ),
    )
)


@settings(max_examples=300, deadline=None)
@given(dense_small_graphs)
def test_the_sparse_subgraph_path_agrees_with_brute_force(graph):
    # One candidate edge per vertex: almost every graph takes the certify-and-extend path.
    n, edges = graph
    saved = matching.CANDIDATES_PER_VERTEX
    matching.CANDIDATES_PER_VERTEX = 1
    try:
        mate = max_weight_matching(n, edges)
        assert weight_of(mate, edges)[0] == brute_force(n, edges, False)
        mate = max_weight_matching(n, edges, max_cardinality=True)
        assert weight_of(mate, edges)[::-1] == brute_force(n, edges, True)
    finally:
        matching.CANDIDATES_PER_VERTEX = saved


@pytest.mark.parametrize("n", [33, 64, 129])
def test_it_solves_ladder_weights_in_few_certificate_rounds(monkeypatch, n):
    # The shape of a Dutch remainder reweighted for exchanges: w(i, j) = C - 2 * min(i, j).
    # Every vertex's heaviest edges go to the first few vertices, while a best matching pairs
    # the first half with the second half (its weight is known in closed form), so the
    # sparse start misses most useful edges.  The edges brought back per vertex double with
    # every certificate round: about log2(n) solves, not n / 4.
    big = 2**100
    edges = [(u, v, big - 2 * min(u, v)) for u in range(n) for v in range(u + 1, n)]
    solves = []
    original = matching._Blossom.solve

    def counted(self, max_cardinality):
        solves.append(len(self.ew))
        return original(self, max_cardinality)

    monkeypatch.setattr(matching._Blossom, "solve", counted)
    pairs = n // 2
    best = pairs * big - 2 * sum(range(pairs))
    assert weight_of(max_weight_matching(n, edges), edges) == (best, pairs)
    assert len(solves) <= n.bit_length() + 1
    assert weight_of(max_weight_matching(n, edges, max_cardinality=True), edges) == (best, pairs)
