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
from collections.abc import Iterable

from pairing.errors import PairingError

__all__ = ["MatchingInputError", "max_weight_matching"]

_FREE, _S, _T = 0, 1, 2


class MatchingInputError(PairingError, ValueError):
    """The graph given to the matcher is malformed (the message says how)."""


def _read_edges(
    n: int, edges: Iterable[tuple[int, int, int]], keep_negative: bool
) -> dict[tuple[int, int], int]:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise MatchingInputError(f"vertex count must be a non-negative int, got {n!r}")
    best: dict[tuple[int, int], int] = {}
    for item in edges:
        try:
            u, v, w = item
        except (TypeError, ValueError):
            raise MatchingInputError(f"edge must be a (u, v, weight) triple, got {item!r}")
        for x in (u, v, w):
            if isinstance(x, bool) or not isinstance(x, int):
                raise MatchingInputError(f"edge {item!r}: vertices and weight must be ints")
        if not (0 <= u < n and 0 <= v < n):
            raise MatchingInputError(f"edge {item!r}: vertex out of range 0..{n - 1}")
        if u == v:
            raise MatchingInputError(f"edge {item!r}: self-loop")
        if w < 0 and not keep_negative:
            continue
        key = (u, v) if u < v else (v, u)
        old = best.get(key)
        if old is None or w > old:
            best[key] = w
    return best


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

    # -- main loop ------------------------------------------------------------------------

    def solve(self, max_cardinality: bool) -> list[int]:
        n = self.n
        eu, ev, ew = self.eu, self.ev, self.ew
        nbr, inc = self.nbr, self.inc
        dual, top, label, mate = self.dual, self.top, self.label, self.mate
        self.mark = [False] * (2 * n)
        for _stage in range(n // 2 + 1):
            for b in range(2 * n):
                label[b] = _FREE
                self.labeledge[b] = None
            vbest = [-1] * n
            heap: list[tuple[int, int]] = []
            total = 0  # sum of the dual changes in this stage
            self.queue = queue = []
            for v in range(n):
                if mate[v] < 0 and label[top[v]] == _FREE:
                    self.assign_label(v, _S, -1)
            augmented = False
            while True:
                while queue and not augmented:
                    v = queue.pop()
                    dv = dual[v]
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
                                    self.augment(v, w)
                                    augmented = True
                                    break
                            else:
                                heapq.heappush(heap, (slack + 2 * total, k))
                        elif lw == _FREE and slack <= 0:
                            self.assign_label(w, _T, v)
                        else:
                            bk = vbest[w]
                            if bk < 0 or slack < dual[eu[bk]] + dual[ev[bk]] - 2 * ew[bk]:
                                vbest[w] = k
                if augmented:
                    break
                # Dual change (Galil, section 3: delta_1 .. delta_4).
                delta = None
                kind = 0
                arg = -1
                if not max_cardinality:
                    delta = min((dual[v] for v in range(n) if label[top[v]] == _S), default=None)
                    kind = 1
                for w in range(n):
                    k = vbest[w]
                    if k >= 0 and label[top[w]] == _FREE:
                        s = dual[eu[k]] + dual[ev[k]] - 2 * ew[k]
                        if delta is None or s < delta:
                            delta, kind, arg = s, 2, w
                while heap and top[eu[heap[0][1]]] == top[ev[heap[0][1]]]:
                    heapq.heappop(heap)
                if heap:
                    s2 = heap[0][0] - 2 * total
                    assert s2 % 2 == 0
                    if delta is None or s2 // 2 < delta:
                        delta, kind, arg = s2 // 2, 3, heap[0][1]
                tops = self.tops()
                for b in tops:
                    if label[b] == _T and (delta is None or dual[b] < delta):
                        delta, kind, arg = dual[b], 4, b
                if delta is None:
                    # Only with max_cardinality: no augmenting path is left.
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
                    v = eu[k] if ev[k] == arg else ev[k]
                    self.assign_label(arg, _T, v)
                elif kind == 3:
                    k = heapq.heappop(heap)[1]
                    v, w = eu[k], ev[k]
                    base_v = self.scan_blossom(v, w)
                    if base_v >= 0:
                        self.add_blossom(base_v, v, w)
                    else:
                        self.augment(v, w)
                        break
                else:
                    self.expand_blossom(arg, False)
            for b in self.tops():
                if label[b] == _S and dual[b] == 0:
                    self.expand_blossom(b, True)
        return mate


def max_weight_matching(
    n: int, edges: Iterable[tuple[int, int, int]], *, max_cardinality: bool = False
) -> list[int]:
    best = _read_edges(n, edges, keep_negative=max_cardinality)
    eu = [u for u, _ in best]
    ev = [v for _, v in best]
    ew = list(best.values())
    return _Blossom(n, eu, ev, ew).solve(max_cardinality)
