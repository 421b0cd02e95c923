"""Whether a group of players can all be paired: [C1] and the completion criterion [C3].

C.04.5 asks this again and again (Art. 3.4.1, 3.5, [C6]), so it must be cheap. Two ways:

* Dirac's theorem: a graph on n >= 3 vertices where every vertex has at least n/2 neighbours
  has a Hamiltonian cycle, so for even n a perfect matching. In a Swiss event a player has met
  few of the others, so in a large group this settles the question by counting.
* Otherwise Edmonds' blossom algorithm for a maximum cardinality matching, started from a
  greedy (or given) matching: each exposed vertex gets one search for an augmenting path; a
  vertex without one stays exposed in every maximum matching, so the first failure answers no.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

__all__ = ["perfect_matching", "dirac_holds"]

Allowed = Callable[[int, int], bool]
"""Whether two players (by TPN) may be paired, for the question at hand."""


def dirac_holds(players: Sequence[int], excluded: Mapping[int, frozenset[int]]) -> bool:
    """Whether every player may be paired with at least half of the others (Dirac).

    ``excluded[p]`` holds the players p may not meet; only exclusions inside the group count.
    False proves nothing: the group may still be pairable.
    """
    n = len(players)
    if n < 4 or n % 2:
        return False
    limit = n // 2 - 1  # degree n - 1 - missing >= n / 2
    group = frozenset(players)
    for p in players:
        ex = excluded.get(p)
        if ex and len(ex) > limit and len(ex & group) > limit:
            return False
    return True


def perfect_matching(
    players: Sequence[int], allowed: Allowed, start: Iterable[tuple[int, int]] = (),
) -> dict[int, int] | None:
    """Return a perfect matching of the players (partner by TPN), or None if there is none.

    ``start`` offers pairs to begin with (those still allowed are kept), so a question that
    differs a little from the last one costs a search or two.
    """
    n = len(players)
    if n % 2:
        return None
    if n == 0:
        return {}
    index = {p: i for i, p in enumerate(players)}
    adj: list[list[int]] = [[] for _ in range(n)]
    i: int | None  # an index, or (below) the index of a TPN of ``start`` if it has one
    j: int | None
    for i in range(n):
        a = players[i]
        for j in range(i + 1, n):
            if allowed(a, players[j]):
                adj[i].append(j)
                adj[j].append(i)
    mate = [-1] * n
    for a, b in start:
        i, j = index.get(a), index.get(b)
        if i is None or j is None or mate[i] != -1 or mate[j] != -1 or j not in adj[i]:
            continue
        mate[i], mate[j] = j, i
    for i in range(n):  # greedy, sparsest first would be better; the start usually covers it
        if mate[i] == -1:
            for j in adj[i]:
                if mate[j] == -1:
                    mate[i], mate[j] = j, i
                    break
    for root in range(n):
        if mate[root] == -1 and not _augment(root, adj, mate):
            return None
    return {players[i]: players[mate[i]] for i in range(n)}


def _augment(root: int, adj: list[list[int]], mate: list[int]) -> bool:
    """Search an augmenting path from an exposed vertex (Edmonds); apply it if found."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    in_tree = [False] * n
    in_tree[root] = True
    queue = [root]
    head = 0

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                b = common_base(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not in_tree[i]:
                            in_tree[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:  # flip the path back to the root
                        pv = parent[to]
                        nxt = mate[pv]
                        mate[to], mate[pv] = pv, to
                        to = nxt
                    return True
                in_tree[mate[to]] = True
                queue.append(mate[to])
    return False
