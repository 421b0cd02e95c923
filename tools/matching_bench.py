"""Micro-benchmark of pairing.matching on complete graphs with random wide weights.

    python -m tools.matching_bench 100 300 1000 [--bits 200] [--networkx] [--max-cardinality]
        [--repeat 3] [--calls FILE.pickle]

Prints the CPU time of ``max_weight_matching`` (the best of ``--repeat`` runs; networkx runs
once with ``--networkx``, and both must find the same total weight) for a complete graph of
each size.  ``--calls`` replays recorded calls instead: a pickle holding a list of
``(n, edges)`` pairs (for instance the slowest calls of one engine round); the sizes are then
ignored.
"""

from __future__ import annotations

import argparse
import pickle
import random
import time

from pairing.matching import max_weight_matching


def complete_graph(n: int, bits: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    return [(u, v, rng.getrandbits(bits)) for u in range(n) for v in range(u + 1, n)]


def total_weight(mate: list[int], edges: list[tuple[int, int, int]]) -> int:
    weights: dict[tuple[int, int], int] = {}
    for u, v, w in edges:
        key = (u, v) if u < v else (v, u)
        weights[key] = max(w, weights.get(key, w))
    return sum(weights[(v, m)] for v, m in enumerate(mate) if v < m)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int)
    parser.add_argument("--bits", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--networkx", action="store_true")
    parser.add_argument("--max-cardinality", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--calls", help="pickle of recorded (n, edges) calls to replay")
    args = parser.parse_args(argv)
    if args.calls:
        with open(args.calls, "rb") as f:
            graphs = [(n, list(edges)) for n, edges in pickle.load(f)]
    else:
        graphs = [(n, complete_graph(n, args.bits, args.seed)) for n in args.sizes]
    if not graphs:
        parser.error("give sizes or --calls")
    for n, edges in graphs:
        ours = None
        for _ in range(max(1, args.repeat)):
            start = time.process_time()
            mate = max_weight_matching(n, edges, max_cardinality=args.max_cardinality)
            spent = time.process_time() - start
            ours = spent if ours is None else min(ours, spent)
        line = f"n={n:5d} edges={len(edges):7d} ours={ours:8.3f}s"
        if args.networkx:
            import networkx as nx

            g = nx.Graph()
            g.add_nodes_from(range(n))
            g.add_weighted_edges_from(edges)
            start = time.process_time()
            pairs = nx.max_weight_matching(g, maxcardinality=args.max_cardinality)
            theirs = time.process_time() - start
            nx_total = sum(g[u][v]["weight"] for u, v in pairs)
            same = "same" if nx_total == total_weight(mate, edges) else "DIFFERENT"
            line += f" networkx={theirs:8.3f}s ({same} weight)"
        print(line, flush=True)


if __name__ == "__main__":
    main()
