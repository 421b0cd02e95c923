"""Questions about the optimal matchings answered on the tight edges (pairing.tight_graph),
against brute force: solve again without the pair and compare the weights."""

from __future__ import annotations

import random

import pytest

from pairing.dynamic_matching import DynamicMatcher, NoPerfectMatching
from pairing.matching import max_weight_matching, max_weight_solver
from pairing.tight_graph import TightGraph

Weights = dict[tuple[int, int], int]


def _total(mate: list[int], weights: Weights) -> int:
    return sum(w for (u, v), w in weights.items() if mate[u] == v)


def _random_graph(rng: random.Random, n: int, top: int, density: float) -> Weights:
    return {
        (u, v): rng.randint(1, top)
        for u in range(n)
        for v in range(u + 1, n)
        if rng.random() < density
    }


def _best(n: int, weights: Weights, perfect: bool) -> int | None:
    """The weight of a maximum weight (perfect) matching, None if no perfect one exists."""
    edges = [(u, v, w) for (u, v), w in weights.items()]
    mate = max_weight_matching(n, edges, max_cardinality=perfect)
    if perfect and any(mate[v] < 0 for v in {x for key in weights for x in key}):
        return None
    return _total(mate, weights)


def _optimal_with(n: int, weights: Weights, x: int, y: int, perfect: bool, live: set[int]) -> bool:
    """Whether some optimal matching of the live vertices pairs x with y (brute force)."""
    rest = {k: w for k, w in weights.items() if x not in k and y not in k}
    forced = max_weight_matching(n, [(u, v, w) for (u, v), w in rest.items()],
                                 max_cardinality=perfect)
    if perfect and any(forced[v] < 0 for v in live - {x, y}):
        return False
    best = max_weight_matching(n, [(u, v, w) for (u, v), w in weights.items()],
                               max_cardinality=perfect)
    return _total(forced, rest) + weights[(min(x, y), max(x, y))] == _total(best, weights)


def _adjacency(weights: Weights, n: int):
    def edges_of(u: int) -> tuple[list[int], list[int]]:
        ys = [b if a == u else a for (a, b) in weights if u in (a, b)]
        return ys, [2 * weights[(min(u, y), max(u, y))] for y in ys]
    return edges_of


@pytest.mark.parametrize("n,top,density", [(8, 2, 0.6), (11, 3, 0.5), (14, 2, 0.4), (12, 6, 0.7)])
def test_maximum_weight_questions_agree_with_brute_force(n: int, top: int, density: float) -> None:
    """Not necessarily perfect (a vertex of zero dual may stay single, as in the 2017
    brackets): True leaves a maximum weight matching pairing x-y, False means none does;
    the pair is then taken out and the questions go on, on the smaller graph (until a pair
    made final inside a blossom leaves the structure to a new solve)."""
    verdicts = {True: 0, False: 0, None: 0}
    in_blossoms = inside_pairs = 0
    for seed in range(80):
        rng = random.Random(seed)
        weights = _random_graph(rng, n, top, density)
        solver = max_weight_solver(n, [(u, v, w) for (u, v), w in weights.items()])
        removed: set[int] = set()
        live_weights = dict(weights)
        graph = TightGraph(solver, _adjacency(live_weights, n), removed.__contains__,
                           perfect=False)
        for _ in range(8):
            keys = list(live_weights)
            if not keys or graph.broken:
                break
            x, y = rng.choice(keys)
            if rng.random() < 0.5:
                x, y = y, x
            blossom = solver.top[x] != x or solver.top[y] != y
            inside = blossom and solver.top[x] == solver.top[y]
            truth = _optimal_with(n, live_weights, x, y, False, set(range(n)) - removed)
            verdict = graph.pair(x, y, final=True)  # the pair is made final when it can be
            verdicts[verdict] += 1
            if verdict is None:
                continue
            assert verdict == truth, (seed, x, y)
            assert _total(solver.mate, live_weights) == _best(n, live_weights, False)
            assert all(solver.mate[v] < 0 or solver.mate[solver.mate[v]] == v for v in range(n))
            if verdict:
                in_blossoms += blossom
                inside_pairs += inside
                assert solver.mate[x] == y
                graph.remove_pair(x, y)  # final: both leave the graph
                removed.update((x, y))
                live_weights = {k: w for k, w in live_weights.items() if not set(k) & {x, y}}
                graph.edges_of = _adjacency(live_weights, n)
    assert verdicts[True] > 40 and verdicts[False] > 40
    assert verdicts[None] < verdicts[True] + verdicts[False]
    assert in_blossoms > 0
    assert inside_pairs > 0  # x and y in one blossom, found inside it


def _solved_perfect(
    rng: random.Random, n: int, top: int
) -> tuple[dict[tuple[int, int], int], DynamicMatcher] | None:
    """A random graph with a perfect matching (0-1, 2-3, ... added) and its warm matcher
    solved, or None when it has no perfect matching after all."""
    weights = _random_graph(rng, n, top, 0.6)
    for u in range(0, n - 1, 2):
        weights.setdefault((u, u + 1), rng.randint(1, top))
    matcher = DynamicMatcher(n)
    for (u, v), w in weights.items():
        matcher.set_weight(u, v, w)
    try:
        matcher.solve()
    except NoPerfectMatching:
        return None
    return weights, matcher


@pytest.mark.parametrize("n,top", [(10, 2), (14, 3)])
def test_perfect_matching_questions_after_final_pairs_agree_with_brute_force(
    n: int, top: int
) -> None:
    """The warm matcher: each pair an optimal matching allows is made final (both vertices
    removed), and the next questions are answered without a solve, blossoms lifted."""
    decided = 0
    lifted = 0
    for seed in range(60):
        rng = random.Random(500 + seed)
        solved = _solved_perfect(rng, n, top)
        if solved is None:
            continue
        weights, matcher = solved
        live = set(range(n))
        for _ in range(n // 2 - 1):
            x = rng.choice(sorted(live))
            ys = [b if a == x else a for (a, b) in weights if x in (a, b)]
            if not ys:
                break
            y = rng.choice(ys)
            in_blossom = matcher._s.top[x] != x or matcher._s.top[y] != y
            graph = matcher.tight_graph()  # (None while removals wait for a solve)
            verdict = None if graph is None else graph.pair(x, y, final=True)
            if verdict is None:
                matcher.solve()
                continue
            decided += 1
            assert verdict == _optimal_with(n, weights, x, y, True, live), (seed, x, y)
            mate = matcher.mates()
            assert _total(mate, weights) == _best(n, weights, True)
            if not verdict:
                continue
            lifted += in_blossom
            matcher.remove_vertex(x)
            matcher.remove_vertex(y)
            live -= {x, y}
            weights = {k: w for k, w in weights.items() if not set(k) & {x, y}}
    assert decided > 150
    assert lifted > 0


@pytest.mark.parametrize("n,top", [(10, 2), (12, 3)])
def test_one_search_answers_every_question_about_a_vertex(n: int, top: int) -> None:
    """``reachable_without(x)``: y's node is among the nodes it returns, and y is a tight
    neighbour of x, exactly when ``pair(x, y)`` says True (brute force too); pairs made
    final on the way keep it right (blossoms lifted, vertices removed lazily)."""
    asked = agreed_true = 0
    for seed in range(60):
        rng = random.Random(900 + seed)
        solved = _solved_perfect(rng, n, top)
        if solved is None:
            continue
        weights, matcher = solved
        live = set(range(n))
        while len(live) > 2:
            graph = matcher.tight_graph()
            if graph is None:
                matcher.solve()
                continue
            x = rng.choice(sorted(live))
            s = graph.s
            reached = graph.reachable_without(x)
            assert reached is not None
            tight = set(graph.tight_neighbours(x))
            for y in sorted(live - {x}):
                if s.top[y] == s.top[x] or s.mate[x] == y:
                    continue
                said = y in tight and s.top[y] in reached
                joined = (min(x, y), max(x, y)) in weights
                expected = joined and _optimal_with(n, weights, x, y, True, live)
                assert said == expected, (seed, x, y)
                asked += 1
            partners = [y for y in sorted(tight) if s.top[y] in reached]
            y = partners[0] if partners else s.mate[x]
            assert graph.pair(x, y, final=True) is True
            agreed_true += bool(partners)
            matcher.remove_vertex(x)
            matcher.remove_vertex(y)
            live -= {x, y}
            weights = {k: w for k, w in weights.items() if not set(k) & {x, y}}
    assert asked > 500
    assert agreed_true > 50
