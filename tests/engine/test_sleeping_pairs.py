"""Sleeping pairs (``pairing.sleeping_pairs``): a DynamicMatcher that holds a few pairs and
lets the others sleep, certified by the duals, answers as one that holds them all."""

from __future__ import annotations

import random

import pytest

from pairing.dynamic_matching import DynamicMatcher
from pairing.matching import max_weight_matching
from pairing.sleeping_pairs import SleepingPairs


def _total(mate: list[int], weights: dict[tuple[int, int], int]) -> int:
    return sum(w for (u, v), w in weights.items() if mate[u] == v)


def _class_graph(
    rng: random.Random, n: int, classes: int, top: int
) -> tuple[list[int], list[list[int | None]], list[bytearray], dict[tuple[int, int], int]]:
    """Vertices in classes (ranked by number), one weight per ordered pair of classes, a few
    pairs ruled out (the backbone u, u+1 kept: a perfect matching exists)."""
    cls = sorted(rng.randrange(classes) for _ in range(n))
    table: list[list[int | None]] = [
        [rng.randint(1, top) if rng.random() < 0.9 else None for _ in range(classes)]
        for _ in range(classes)
    ]
    ok = [bytearray(n) for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            allowed = rng.random() < 0.85 or (u % 2 == 0 and v == u + 1)
            ok[u][v] = ok[v][u] = allowed
    weights = {}
    for u in range(n):
        for v in range(u + 1, n):
            w = table[cls[u]][cls[v]]
            if ok[u][v] and w:
                weights[(u, v)] = w
    for u in range(0, n - 1, 2):
        if (u, u + 1) not in weights:
            ok[u][u + 1] = ok[u + 1][u] = 0
    return cls, table, ok, weights


def _best(n: int, weights: dict[tuple[int, int], int]) -> int:
    mate = max_weight_matching(n, [(u, v, w) for (u, v), w in weights.items()],
                               max_cardinality=True)
    return _total(mate, weights)


@pytest.mark.parametrize("n,classes,top", [(10, 2, 3), (16, 3, 5), (24, 4, 2), (30, 5, 50)])
def test_a_few_held_pairs_give_the_optimum_of_all(n: int, classes: int, top: int) -> None:
    """Hold one pair per vertex (the lightest, to make the certificate work), let the others
    sleep; every solve, after changes and finalized pairs, has the weight of a fresh solve
    of the whole graph."""
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        cls, table, ok, weights = _class_graph(rng, n, classes, top)
        if any(max_weight_matching(n, [(u, v, w) for (u, v), w in weights.items()],
                                   max_cardinality=True)[v] < 0 for v in range(n)):
            continue
        matcher = DynamicMatcher(n)
        held = {min(((w, k) for k, w in weights.items() if v in k), default=(0, None))[1]
                for v in range(n)} - {None}
        for u in range(0, n - 1, 2):
            if (u, u + 1) in weights:
                held.add((u, u + 1))
        for u, v in held:
            matcher.set_weight(u, v, weights[(u, v)])
        matcher.sleep(SleepingPairs(cls, lambda a, b, t=table: t[a][b], ok))
        removed: set[int] = set()
        for _ in range(6):
            mate = matcher.solve()
            live = [v for v in range(n) if v not in removed]
            assert all((min(v, mate[v]), max(v, mate[v])) in weights for v in live)
            assert _total(mate, weights) == _best(n, weights), seed
            compared += 1
            if rng.random() < 0.3 and len(live) > 4:
                v = rng.choice(live)
                for x in (v, mate[v]):  # a pair made final
                    removed.add(x)
                    matcher.remove_vertex(x)
                    for key in [k for k in weights if x in k]:
                        del weights[key]
                continue
            v = rng.choice(live)
            for u in live:  # one vertex's pairs re-weighed or taken out (held from then on)
                key = (min(u, v), max(u, v))
                if key in weights and rng.random() < 0.5:
                    if rng.random() < 0.3 and key != (v - v % 2, v - v % 2 + 1):
                        del weights[key]
                        matcher.set_weight(*key, None)
                    else:
                        weights[key] = rng.randint(1, top)
                        matcher.set_weight(*key, weights[key])
    assert compared > 60


def test_the_tight_sleeping_pairs_answer_the_questions() -> None:
    """pair_if_optimal sees the sleeping pairs: on a graph of interchangeable vertices whose
    held pairs are one perfect matching, another optimal pair is found among the sleeping
    ones."""
    n = 8
    cls = [0] * n
    ok = [bytearray(b"\x01") * n for _ in range(n)]
    matcher = DynamicMatcher(n)
    for u in range(0, n, 2):
        matcher.set_weight(u, u + 1, 5)
    matcher.sleep(SleepingPairs(cls, lambda a, b: 5, ok))
    matcher.solve()
    assert matcher.pair_if_optimal(0, 2) is True
    assert matcher.mates()[0] == 2
    assert matcher.weight(0, 7) == 5


def test_a_held_pair_taken_out_stays_out() -> None:
    """A pair the sleeping layer describes, once given no weight, is no pair any longer."""
    n = 4
    ok = [bytearray(b"\x01") * n for _ in range(n)]
    matcher = DynamicMatcher(n)
    matcher.set_weight(0, 1, 1)
    matcher.set_weight(2, 3, 1)
    matcher.sleep(SleepingPairs([0] * n, lambda a, b: 10, ok))
    mate = matcher.solve()
    assert mate[0] in (2, 3)  # two sleeping pairs of 10 beat the held ones
    matcher.set_weight(0, 2, None)
    matcher.set_weight(0, 3, None)
    assert matcher.weight(0, 2) is None
    mate = matcher.solve()
    assert mate[0] == 1 and mate[2] == 3



def _both_answers(seed: int) -> tuple[bool, bool]:
    """``covered`` and the check of every sleeping pair, for random duals, removed vertices
    and held pairs."""
    rng = random.Random(seed)
    n = rng.randrange(4, 30)
    cls, table, ok, _ = _class_graph(rng, n, rng.randrange(1, 5), 20)
    sleep = SleepingPairs(cls, lambda a, b: table[a][b], ok)
    dual = [rng.randint(0, 40) for _ in range(n)]
    removed = [rng.random() < 0.2 for _ in range(n)]
    held = {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.1}

    def explicit(u: int, v: int) -> bool:
        return (u, v) in held

    every = all(dual[u] + dual[v] >= 2 * w for u, v, w in sleep.every_pair(removed, explicit))
    return sleep.covered(dual, removed, explicit), every


def test_covered_says_what_every_pair_says() -> None:
    """``covered`` (classes and vertices pruned by their least duals) agrees with looking at
    every sleeping pair; both answers occur."""
    answers = [_both_answers(seed) for seed in range(200)]
    assert all(fast == every for fast, every in answers)
    assert {every for _, every in answers} == {True, False}
