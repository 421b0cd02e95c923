"""Maximum weight matching on a general graph with exact integer weights.

``max_weight_matching(n, edges, max_cardinality=False)`` returns ``mate``: a list of length n
where ``mate[v]`` is the vertex matched to v, or -1.

The method is Edmonds' primal-dual blossom algorithm as presented in Galil's survey
("Efficient algorithms for finding maximum matching in graphs", ACM Computing Surveys, 1986):
stages that each grow alternating trees from every single vertex, shrink odd cycles into
blossoms, change the dual variables until an edge becomes tight, and end with one augmentation.

Exactness: every quantity is a Python int.  Vertex duals are stored doubled, so that with
``d[v] = 2*u_v`` the (doubled) slack of an edge between two top-level blossoms is
``d[i] + d[j] - 2*w``.  All duals start at the largest weight and every dual change is an
integer, so no fraction ever appears, whatever the size of the weights.

Semantics:

* Without ``max_cardinality`` the result has the largest total weight; edges of negative
  weight are never used (they cannot be part of a maximum weight matching).  Zero-weight
  edges may or may not be used.
* With ``max_cardinality`` the result has the largest total weight among the matchings of
  maximum cardinality; negative weights then count like any other weight.
* Parallel edges are allowed: the heaviest one of each pair is kept.
* Self-loops, vertices out of range and non-integer weights raise ``MatchingInputError``.
"""

from __future__ import annotations

import heapq
import operator
from collections.abc import Iterable

from pairing.errors import PairingError

__all__ = ["MatchingInputError", "max_weight_matching"]

_FREE, _S, _T = 0, 1, 2


class MatchingInputError(PairingError, ValueError):
    """The graph given to the matcher is malformed (the message says how)."""


def _read_edges(
    n: int, edges: Iterable[tuple[int, int, int]], keep_negative: bool
) -> tuple[list[int], list[int], list[int]]:
    """Check the graph and return it as three parallel lists (checks run in C-level loops)."""
    if type(n) is not int or n < 0:
        raise MatchingInputError(f"vertex count must be a non-negative int, got {n!r}")
    if not isinstance(edges, (list, tuple)):
        edges = list(edges)
    try:
        lengths = set(map(len, edges))
    except TypeError:
        lengths = {-1}
    if lengths - {3}:
        bad = next(e for e in edges if not isinstance(e, (tuple, list)) or len(e) != 3)
        raise MatchingInputError(f"edge must be a (u, v, weight) triple, got {bad!r}")
    eu = [e[0] for e in edges]
    ev = [e[1] for e in edges]
    ew = [e[2] for e in edges]
    if (set(map(type, eu)) | set(map(type, ev)) | set(map(type, ew))) - {int}:
        bad = next(e for e in edges if any(type(x) is not int for x in e))
        raise MatchingInputError(f"edge {bad!r}: vertices and weight must be ints")
    if eu and (min(min(eu), min(ev)) < 0 or max(max(eu), max(ev)) >= n):
        bad = next(e for e in edges if not (0 <= e[0] < n and 0 <= e[1] < n))
        raise MatchingInputError(f"edge {bad!r}: vertex out of range 0..{n - 1}")
    if any(map(operator.eq, eu, ev)):
        bad = next(e for e in edges if e[0] == e[1])
        raise MatchingInputError(f"edge {bad!r}: self-loop")
    if not keep_negative and ew and min(ew) < 0:
        keep = [k for k, w in enumerate(ew) if w >= 0]
        eu = [eu[k] for k in keep]
        ev = [ev[k] for k in keep]
        ew = [ew[k] for k in keep]
    return eu, ev, ew


class _Blossom:
    """Solver state for one run of the primal-dual algorithm (vertices 0..n-1, blossoms n..2n-1)."""

    def __init__(self, n: int, eu: list[int], ev: list[int], ew: list[int]) -> None:
        self.n = n
        self.eu, self.ev, self.ew = eu, ev, ew
        nbr: list[list[int]] = [[] for _ in range(n)]
        inc: list[list[int]] = [[] for _ in range(n)]
        for k in range(len(eu)):
            u, v = eu[k], ev[k]
            nbr[u].append(v)
            inc[u].append(k)
            nbr[v].append(u)
            inc[v].append(k)
        self.nbr, self.inc = nbr, inc
        maxw = max(ew, default=0)
        if maxw < 0:
            maxw = 0
        self.mate = [-1] * n
        # Doubled vertex duals; real blossom duals z (indexed by blossom id).
        self.dual = [maxw] * n + [0] * n
        self.top = list(range(n))  # top-level blossom containing each vertex
        self.parent = [-1] * (2 * n)
        self.base = list(range(n)) + [-1] * n
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        # bedges[b][i] = (x, y): x in childs[i], y in childs[i + 1] (cyclically).
        self.bedges: list[list[tuple[int, int]]] = [[] for _ in range(2 * n)]
        self.free_ids = list(range(2 * n - 1, n - 1, -1))
        self.label = [_FREE] * (2 * n)
        # labeledge[b] = (x, y): y in b, x in the tree parent of b; None for a root.
        self.labeledge: list[tuple[int, int] | None] = [None] * (2 * n)
        # root[b]: the single vertex at the root of the alternating tree of labelled blossom b.
        self.root = [-1] * (2 * n)

    # -- blossom helpers ------------------------------------------------------------------

    def leaves(self, b: int) -> list[int]:
        n = self.n
        if b < n:
            return [b]
        out = []
        stack = [b]
        childs = self.childs
        while stack:
            c = stack.pop()
            if c < n:
                out.append(c)
            else:
                stack.extend(childs[c])
        return out

    def tops(self) -> list[int]:
        return [b for b in range(self.n, 2 * self.n) if self.base[b] >= 0 and self.parent[b] < 0]

    def assign_label(self, w: int, t: int, v: int) -> None:
        """Label the top blossom of w with t, reached from vertex v (-1 for a root)."""
        b = self.top[w]
        self.label[b] = t
        self.labeledge[b] = None if v < 0 else (v, w)
        self.root[b] = w if v < 0 else self.root[self.top[v]]
        if t == _S:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign_label(self.mate[base], _S, base)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from v and w; return the base of a new blossom or -1 (augmenting path)."""
        top, labeledge, base = self.top, self.labeledge, self.base
        marked: list[int] = []
        mark = self.mark
        result = -1
        while v >= 0 or w >= 0:
            if v >= 0:
                b = top[v]
                if mark[b]:
                    result = base[b]
                    break
                mark[b] = True
                marked.append(b)
                le = labeledge[b]
                if le is None:
                    v = -1
                else:
                    tb = top[le[0]]
                    v = labeledge[tb][0]
            v, w = w, v
        for b in marked:
            mark[b] = False
        return result

    def add_blossom(self, base_v: int, v: int, w: int) -> None:
        top, labeledge, parent = self.top, self.labeledge, self.parent
        bb = top[base_v]
        b = self.free_ids.pop()
        self.base[b] = base_v
        self.parent[b] = -1
        parent[bb] = b
        vpath: list[int] = []
        vedges: list[tuple[int, int]] = []
        x = top[v]
        while x != bb:
            parent[x] = b
            vpath.append(x)
            le = labeledge[x]
            vedges.append(le)
            x = top[le[0]]
        wpath: list[int] = []
        wedges: list[tuple[int, int]] = []
        x = top[w]
        while x != bb:
            parent[x] = b
            wpath.append(x)
            p, q = labeledge[x]
            wedges.append((q, p))
            x = top[p]
        vpath.reverse()
        vedges.reverse()
        self.childs[b] = [bb, *vpath, *wpath]
        self.bedges[b] = [*vedges, (v, w), *wedges]
        self.label[b] = _S
        self.labeledge[b] = labeledge[bb]
        self.root[b] = self.root[bb]
        self.dual[b] = 0
        queue = self.queue
        label = self.label
        for c in self.childs[b]:
            if label[c] == _T:
                queue.extend(self.leaves(c))
            label[c] = _FREE
        for u in self.leaves(b):
            top[u] = b

    def expand_blossom(self, b: int, endstage: bool) -> None:
        n = self.n
        top, parent, dual = self.top, self.parent, self.dual
        childs = self.childs[b]
        for c in childs:
            parent[c] = -1
            if c < n:
                top[c] = c
            elif endstage and dual[c] == 0:
                self.expand_blossom(c, endstage)
            else:
                for u in self.leaves(c):
                    top[u] = c
        if not endstage and self.label[b] == _T:
            self._relabel_expanded_t(b)
        self.label[b] = _FREE
        self.labeledge[b] = None
        self.childs[b] = []
        self.bedges[b] = []
        self.base[b] = -1
        self.dual[b] = 0
        self.free_ids.append(b)

    def _relabel_expanded_t(self, b: int) -> None:
        """Give the sub-blossoms on the even path from the entry child to the base their labels."""
        childs, bedges = self.childs[b], self.bedges[b]
        label, labeledge, parent = self.label, self.labeledge, self.parent
        p, q = self.labeledge[b]
        entry = q  # the children are top-level again: climb to the one holding q
        while parent[entry] >= 0:
            entry = parent[entry]
        j = childs.index(entry)
        L = len(childs)
        label[childs[j]] = _T
        labeledge[childs[j]] = (p, q)
        tree = self.root[b]
        for c in childs:
            self.root[c] = tree
        if j % 2 == 1:  # forward: j, j+1, ..., L (= 0)
            i = j
            while i != L:
                s_child = childs[(i + 1) % L]
                x, y = bedges[i]
                label[s_child] = _S
                labeledge[s_child] = (x, y)
                self.queue.extend(self.leaves(s_child))
                t_child = childs[(i + 2) % L]
                x, y = bedges[(i + 1) % L]
                label[t_child] = _T
                labeledge[t_child] = (x, y)
                i += 2
        else:  # backward: j, j-1, ..., 0
            i = j
            while i != 0:
                s_child = childs[i - 1]
                x, y = bedges[i - 1]
                label[s_child] = _S
                labeledge[s_child] = (y, x)
                self.queue.extend(self.leaves(s_child))
                t_child = childs[i - 2]
                x, y = bedges[i - 2]
                label[t_child] = _T
                labeledge[t_child] = (y, x)
                i -= 2

    def augment_blossom(self, b: int, v: int) -> None:
        """Make vertex v the base of blossom b, re-matching along the even path."""
        n = self.n
        parent, mate = self.parent, self.mate
        t = v
        while parent[t] != b:
            t = parent[t]
        if t >= n:
            self.augment_blossom(t, v)
        childs, bedges = self.childs[b], self.bedges[b]
        L = len(childs)
        i = childs.index(t)
        if i % 2 == 1:
            idx = range(i + 1, L, 2)
        else:
            idx = range(i - 2, -1, -2)
        for j in idx:
            x, y = bedges[j]
            cx, cy = childs[j], childs[(j + 1) % L]
            if cx >= n:
                self.augment_blossom(cx, x)
            if cy >= n:
                self.augment_blossom(cy, y)
            mate[x] = y
            mate[y] = x
        self.childs[b] = childs[i:] + childs[:i]
        self.bedges[b] = bedges[i:] + bedges[:i]
        self.base[b] = v

    def augment(self, v: int, w: int) -> None:
        n = self.n
        top, labeledge, mate = self.top, self.labeledge, self.mate
        for s, partner in ((v, w), (w, v)):
            while True:
                bs = top[s]
                if bs >= n:
                    self.augment_blossom(bs, s)
                mate[s] = partner
                le = labeledge[bs]
                if le is None:
                    break
                bt = top[le[0]]
                x, y = labeledge[bt]
                if bt >= n:
                    self.augment_blossom(bt, y)
                mate[y] = x
                s, partner = x, y

    def violated_edges(self, eu: list[int], ev: list[int], ew: list[int]) -> list[int]:
        """Indices of the edges whose (doubled) slack under the current duals is negative.

        An edge inside blossoms gets twice the dual of each blossom holding both its ends.
        """
        n, dual, top, parent = self.n, self.dual, self.top, self.parent
        out = []
        for k in [k for k, (u, v, w) in enumerate(zip(eu, ev, ew)) if dual[u] + dual[v] < 2 * w]:
            u, v = eu[k], ev[k]
            slack = dual[u] + dual[v] - 2 * ew[k]
            if top[u] == top[v] and top[u] >= n:
                around_u = set()
                x = u
                while parent[x] >= 0:
                    x = parent[x]
                    around_u.add(x)
                x = v
                while parent[x] >= 0:
                    x = parent[x]
                    if x in around_u:
                        slack += 2 * dual[x]
            if slack < 0:
                out.append(k)
        return out

    # -- main loop ------------------------------------------------------------------------

    def best_edge_from_s(self, x: int) -> None:
        """Recompute vbest[x]: the least-slack edge from an S-vertex to the non-S vertex x."""
        dual, top, label, ew = self.dual, self.top, self.label, self.ew
        bx = top[x]
        dx = dual[x]
        best, best_slack = -1, 0
        for y, k in zip(self.nbr[x], self.inc[x]):
            if label[top[y]] == _S and top[y] != bx:
                slack = dx + dual[y] - 2 * ew[k]
                if best < 0 or slack < best_slack:
                    best, best_slack, other = k, slack, y
        self.vbest[x] = best
        if best >= 0:
            self.vbest_gen[x] = self.gen[other]

    def dissolve_trees(self, roots: tuple[int, int]) -> None:
        """After an augmentation, unlabel the two trees it went through (Galil's stage end).

        The other trees stay: their labels, duals and tight edges are still valid.
        """
        label, gen, dual, n = self.label, self.gen, self.dual, self.n
        loose: list[int] = []
        for b in [b for b in range(2 * self.n) if self.parent[b] < 0 and label[b] != _FREE]:
            if b >= n and self.base[b] < 0:
                continue
            if self.root[b] not in roots:
                continue
            lab = label[b]
            label[b] = _FREE
            self.labeledge[b] = None
            vertices = self.leaves(b)
            for x in vertices:
                gen[x] += 1
            loose.extend(vertices)
            if lab == _S and b >= n and dual[b] == 0:
                self.expand_blossom(b, True)
        for x in loose:
            self.best_edge_from_s(x)

    def solve(self, max_cardinality: bool) -> list[int]:
        n = self.n
        eu, ev, ew = self.eu, self.ev, self.ew
        nbr, inc = self.nbr, self.inc
        dual, top, label, mate, root = self.dual, self.top, self.label, self.mate, self.root
        self.mark = [False] * (2 * n)
        # gen[v] changes whenever v stops being an S-vertex: heap entries and vbest
        # records made under an older generation are stale.
        self.gen = gen = [0] * n
        # vbest[w]: least-slack edge from an S-vertex to the non-S vertex w (delta_2).
        self.vbest = vbest = [-1] * n
        self.vbest_gen = vbest_gen = [0] * n
        # S-S edges between different blossoms (delta_3), keyed by slack + 2 * total so that
        # the order survives dual changes (both ends lose delta at every change).
        heap: list[tuple[int, int, int, int]] = []
        total = 0  # sum of all dual changes so far
        self.queue = queue = []
        for v in range(n):
            if mate[v] < 0 and label[top[v]] == _FREE:
                self.assign_label(v, _S, -1)
        while True:
            augmented = False
            while queue:
                v = queue.pop()
                if label[top[v]] != _S:
                    continue
                dv = dual[v]
                gv = gen[v]
                for w, k in zip(nbr[v], inc[v]):
                    bv, bw = top[v], top[w]
                    if bv == bw:
                        continue
                    slack = dv + dual[w] - 2 * ew[k]
                    lw = label[bw]
                    if lw == _S:
                        if slack <= 0:
                            base_v = self.scan_blossom(v, w)
                            if base_v >= 0:
                                self.add_blossom(base_v, v, w)
                            else:
                                roots = (root[bv], root[bw])
                                self.augment(v, w)
                                self.dissolve_trees(roots)
                                augmented = True
                                break
                        else:
                            heapq.heappush(heap, (slack + 2 * total, k, gen[eu[k]], gen[ev[k]]))
                    elif lw == _FREE and slack <= 0:
                        self.assign_label(w, _T, v)
                    else:
                        bk = vbest[w]
                        if bk < 0:
                            vbest[w] = k
                            vbest_gen[w] = gv
                        elif vbest_gen[w] != gen[eu[bk] + ev[bk] - w]:
                            # The recorded S-end has left its tree: look at all S-neighbours.
                            self.best_edge_from_s(w)
                        elif slack < dual[eu[bk]] + dual[ev[bk]] - 2 * ew[bk]:
                            vbest[w] = k
                            vbest_gen[w] = gv
            if augmented:
                continue
            # Dual change (Galil, section 3: delta_1 .. delta_4).
            delta = None
            kind = 0
            arg = -1
            s_min = None
            for w in range(n):
                lab = label[top[w]]
                if lab == _S:
                    if s_min is None or dual[w] < s_min:
                        s_min = dual[w]
                elif lab == _FREE:
                    k = vbest[w]
                    if k < 0:
                        continue
                    if vbest_gen[w] != gen[eu[k] + ev[k] - w]:
                        self.best_edge_from_s(w)
                        k = vbest[w]
                        if k < 0:
                            continue
                    s = dual[eu[k]] + dual[ev[k]] - 2 * ew[k]
                    if delta is None or s < delta:
                        delta, kind, arg = s, 2, w
            if not max_cardinality and s_min is not None and (delta is None or s_min <= delta):
                delta, kind = s_min, 1
            while heap:
                k = heap[0][1]
                u, v = eu[k], ev[k]
                if gen[u] == heap[0][2] and gen[v] == heap[0][3] and top[u] != top[v]:
                    break
                heapq.heappop(heap)
            if heap:
                s2 = heap[0][0] - 2 * total
                if s2 % 2:
                    raise AssertionError("odd slack between S-vertices")
                if delta is None or s2 // 2 < delta:
                    delta, kind, arg = s2 // 2, 3, heap[0][1]
            tops = self.tops()
            for b in tops:
                if label[b] == _T and (delta is None or dual[b] < delta):
                    delta, kind, arg = dual[b], 4, b
            if delta is None:
                # No tree can grow, no augmenting path is left (max_cardinality, or all matched).
                return mate
            for v in range(n):
                lab = label[top[v]]
                if lab == _S:
                    dual[v] -= delta
                elif lab == _T:
                    dual[v] += delta
            for b in tops:
                lab = label[b]
                if lab == _S:
                    dual[b] += delta
                elif lab == _T:
                    dual[b] -= delta
            total += delta
            if kind == 1:
                return mate
            if kind == 2:
                k = vbest[arg]
                self.assign_label(arg, _T, eu[k] + ev[k] - arg)
            elif kind == 3:
                k = heapq.heappop(heap)[1]
                v, w = eu[k], ev[k]
                base_v = self.scan_blossom(v, w)
                if base_v >= 0:
                    self.add_blossom(base_v, v, w)
                else:
                    roots = (root[top[v]], root[top[w]])
                    self.augment(v, w)
                    self.dissolve_trees(roots)
            else:
                self.expand_blossom(arg, False)


# Dense graphs are first solved on a sparse subgraph: the heaviest edges of every vertex.
CANDIDATES_PER_VERTEX = 8


def max_weight_matching(
    n: int, edges: Iterable[tuple[int, int, int]], *, max_cardinality: bool = False
) -> list[int]:
    eu, ev, ew = _read_edges(n, edges, keep_negative=max_cardinality)
    return _solve(n, eu, ev, ew, max_cardinality, CANDIDATES_PER_VERTEX)


def _solve(
    n: int, eu: list[int], ev: list[int], ew: list[int], max_cardinality: bool, per_vertex: int
) -> list[int]:
    m = len(ew)
    if m <= 2 * per_vertex * n:
        return _Blossom(n, eu, ev, ew).solve(max_cardinality)
    if max_cardinality:
        # Maximum cardinality is maximum weight once every weight gets a bonus K larger than
        # any weight difference a smaller matching can make up:  K > (n // 2) * range - min.
        low, high = min(ew), max(ew)
        bonus = (n // 2) * (high - low) + abs(low) + 1
        ew = [w + bonus for w in ew]
    chosen = _heaviest_per_vertex(n, eu, ev, ew, per_vertex)
    while True:
        solver = _Blossom(n, [eu[k] for k in chosen], [ev[k] for k in chosen],
                          [ew[k] for k in chosen])
        mate = solver.solve(False)
        missing = solver.violated_edges(eu, ev, ew)
        if not missing:
            return mate
        chosen = sorted(set(chosen).union(missing))


def _heaviest_per_vertex(n: int, eu: list[int], ev: list[int], ew: list[int], k: int) -> list[int]:
    """Indices of the edges that are among the k heaviest of one of their ends."""
    rows: list[list[int]] = [[] for _ in range(n)]
    for u, v, w in zip(eu, ev, ew):
        rows[u].append(w)
        rows[v].append(w)
    threshold = [heapq.nlargest(k, row)[-1] if len(row) >= k else -1 for row in rows]
    # Ties at the threshold may let a vertex keep more than k edges; that is harmless.
    return [
        i for i, (u, v, w) in enumerate(zip(eu, ev, ew)) if w >= threshold[u] or w >= threshold[v]
    ]
