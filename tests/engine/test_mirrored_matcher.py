"""The 2017 brackets' warm matcher (``MirroredMatcher``): maximum weight matchings that need not
be perfect, as half of a perfect matching of the graph and its mirror image, against brute
force (``max_weight_matching`` solved from scratch)."""

from __future__ import annotations

import random

import pytest

from pairing.dutch.matchers import MirroredMatcher, Outside
from pairing.matching import max_weight_matching

Weights = dict[tuple[int, int], int]


def _best(n: int, weights: Weights) -> int:
    mate = max_weight_matching(n, [(u, v, w) for (u, v), w in weights.items()])
    return _total(mate, weights)


def _total(mate: list[int], weights: Weights) -> int:
    return sum(w for (u, v), w in weights.items() if mate[u] == v)


def _live(weights: Weights, gone: set[int]) -> Weights:
    return {k: w for k, w in weights.items() if not gone.intersection(k)}


def _matcher(rng: random.Random, n: int) -> tuple[MirroredMatcher, list[int], Weights]:
    """A matcher over a region of n players (the others outside it), random weights."""
    m = MirroredMatcher(n, margin=rng.choice([None, 8]))
    region = sorted(rng.sample(range(n), rng.randint(n // 2, n)))
    weights = {
        (u, v): rng.randint(1, 6)
        for i, u in enumerate(region)
        for v in region[i + 1:]
        if rng.random() < 0.5
    }
    pairs = list(weights)
    m.replace_region(region, [], [u for u, _ in pairs], [v for _, v in pairs],
                     [weights[k] for k in pairs])
    return m, region, weights


@pytest.mark.parametrize("seed", range(40))
def test_warm_solves_give_maximum_weight_matchings(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(4, 14)
    m, region, weights = _matcher(rng, n)
    gone: set[int] = set()
    for _ in range(6):
        mate = m.compute()
        live = _live(weights, gone)
        assert all(mate[mate[v]] == v for v in range(n))
        assert all(mate[v] == v for v in range(n) if v not in region)
        assert all(v == mate[v] or (min(v, mate[v]), max(v, mate[v])) in live
                   for v in range(n) if v not in gone)
        assert _total(mate, live) == _best(n, live)
        # a few weights change, then a pair becomes final (as the generation order does)
        free = [v for v in region if v not in gone]
        for _ in range(3):
            if len(free) > 1:
                u, v = sorted(rng.sample(free, 2))
                w = rng.choice([0, 1, 3, 7])
                m.set(u, v, w)
                if w:
                    weights[(u, v)] = w
                else:
                    weights.pop((u, v), None)
        mate = m.compute()
        paired = [v for v in free if mate[v] != v]
        if paired:
            v = paired[0]
            m.finalize(v, mate[v])
            gone |= {v, mate[v]}


@pytest.mark.parametrize("seed", range(40))
def test_tight_edge_answers_are_optimal_matchings(seed: int) -> None:
    """A partner found without a solve is the first candidate that some optimal matching
    gives; a True of ``pair_with_any`` leaves an optimal matching that does what it says."""
    rng = random.Random(1000 + seed)
    n = rng.randint(4, 14)
    m, region, weights = _matcher(rng, n)
    best = _best(n, weights)
    m.compute()
    v = rng.choice(region)
    candidates = [u for u in region if u != v and (min(u, v), max(u, v)) in weights]
    rng.shuffle(candidates)
    u = m.first_optimal_partner(v, candidates)
    if u is not None:
        assert m.mate[v] == u and _total(m.mate, weights) == best
        for earlier in candidates[:candidates.index(u)]:
            rest = _live(weights, {v, earlier})
            w = weights[(min(v, earlier), max(v, earlier))]
            assert _best(n, rest) + w < best
    lower = set(rng.sample(region, len(region) // 2)) - {v}
    for partners in (lower, Outside(lower)):
        m.compute()
        verdict = m.pair_with_any(v, partners)
        if verdict:
            assert _total(m.mate, weights) == best
            assert m.mate[v] in partners or (m.mate[v] == v and isinstance(partners, Outside))
