"""The warm-started matcher against solving from scratch, on random sequences of changes."""

from __future__ import annotations

import random

import pytest

from pairing.dynamic_matching import DynamicMatcher, NoPerfectMatching
from pairing.matching import max_weight_matching


def _total(mate: list[int], weights: dict[tuple[int, int], int]) -> int:
    return sum(w for (u, v), w in weights.items() if mate[u] == v)


def _random_graph(rng: random.Random, n: int, top: int) -> dict[tuple[int, int], int]:
    weights = {
        (u, v): rng.randint(1, top)
        for u in range(n)
        for v in range(u + 1, n)
        if rng.random() < 0.5
    }
    for u in range(0, n - 1, 2):  # a perfect matching exists at the start
        weights.setdefault((u, u + 1), rng.randint(1, top))
    return weights


def _replay(seed: int, n: int, top: int, steps: int = 25) -> int:
    """Change the graph step by step; after each step compare with a fresh solve.

    Returns the number of steps compared (the run stops when no perfect matching is left).
    """
    rng = random.Random(seed)
    weights = _random_graph(rng, n, top)
    matcher = DynamicMatcher(n)
    for (u, v), w in weights.items():
        matcher.set_weight(u, v, w)
    removed: set[int] = set()
    for step in range(steps):
        live = [v for v in range(n) if v not in removed]
        fresh = max_weight_matching(
            n, [(u, v, w) for (u, v), w in weights.items()], max_cardinality=True
        )
        if any(fresh[v] < 0 for v in live):
            with pytest.raises(NoPerfectMatching):
                matcher.solve()
            return step
        mate = matcher.solve()
        assert all((min(v, mate[v]), max(v, mate[v])) in weights for v in live)
        assert _total(mate, weights) == _total(fresh, weights), (seed, step)
        if rng.random() < 0.15 and len(live) > 4:
            v = rng.choice(live)
            for x in (v, mate[v]):  # a pair is taken out, as the engine finalizes one
                removed.add(x)
                matcher.remove_vertex(x)
                for key in [k for k in weights if x in k]:
                    del weights[key]
            continue
        v = rng.choice(live)  # one vertex's edges change, as in the engine
        for u in live:
            key = (min(u, v), max(u, v))
            roll = rng.random()
            if u != v and roll < 0.3:
                weights[key] = rng.randint(1, top)
                matcher.set_weight(u, v, weights[key])
            elif u != v and roll < 0.4 and key in weights:
                del weights[key]
                matcher.set_weight(u, v, None)
    return steps


@pytest.mark.parametrize("n,top", [(6, 5), (12, 3), (16, 20), (24, 1000), (30, 3)])
def test_warm_start_matches_fresh_solves(n: int, top: int) -> None:
    compared = sum(_replay(seed, n, top) for seed in range(40))
    assert compared > 40 * 5  # most sequences run many steps before losing perfection


def test_blossoms_are_dissolved_on_the_way() -> None:
    """Sequences where freed vertices sit inside blossoms with a positive dual (the hard
    case of the warm start) do occur in the random runs above."""
    from pairing import matching

    seen = []
    original = matching._Blossom.expand_blossom

    def spy(self, b, endstage):  # type: ignore[no-untyped-def]
        seen.append(self.dual[b])
        return original(self, b, endstage)

    matching._Blossom.expand_blossom = spy
    try:
        for seed in range(20):
            _replay(seed, 20, 3)
    finally:
        matching._Blossom.expand_blossom = original
    assert any(z > 0 for z in seen)


def test_removed_vertices_and_no_perfect_matching() -> None:
    matcher = DynamicMatcher(4)
    matcher.set_weight(0, 1, 5)
    matcher.set_weight(2, 3, 1)
    matcher.set_weight(0, 2, 9)
    assert matcher.solve() == [1, 0, 3, 2]
    matcher.set_weight(1, 3, 4)
    assert matcher.solve() == [2, 3, 0, 1]  # 9 + 4 beats 5 + 1
    matcher.set_weight(0, 2, None)
    matcher.set_weight(0, 1, None)
    with pytest.raises(NoPerfectMatching):
        matcher.solve()
    matcher.remove_vertex(0)
    matcher.remove_vertex(2)
    assert matcher.solve() == [-1, 3, -1, 1]
