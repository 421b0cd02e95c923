"""Maximum weight matching on a general graph with exact integer weights.

``max_weight_matching(n, edges, max_cardinality=False)`` returns ``mate``: a list of length n
where ``mate[v]`` is the vertex matched to v, or -1.  ``pairing.dynamic_matching`` keeps an
optimum warm while edge weights change.

Method.  Edmonds' primal-dual blossom algorithm as presented in Galil's survey ("Efficient
algorithms for finding maximum matching in graphs", ACM Computing Surveys 18, 1986):
alternating trees grow from every single vertex, odd cycles are shrunk into blossoms, and the
dual variables change (delta_1 .. delta_4 of the survey) until an edge becomes tight.  Four
departures from the textbook stage structure, none of which changes the result:

* After an augmentation only the two trees it went through are dissolved; the other trees
  keep their labels (they are still valid alternating trees with tight edges), so a stage
  does not rescan the whole graph.
* Duals are stored relative to ``total``, the sum of all dual changes so far, and the four
  deltas come from heaps; a dual change costs O(log m), not O(n).  For delta_3 each scanned
  S-vertex sorts its edges to other S-vertices into a list of its own, and the heap holds
  only the first valid entry of each list: when a vertex is labelled again (or a blossom
  swallows both ends) its entries are dropped together, not popped one by one.
* The run starts from a greedy matching on the edges of the largest weight, which are tight
  under the initial duals.
* A tight edge between two S-vertices of the same tree is not shrunk at once: it waits among
  the delta_3 candidates (slack 0) until the scan finds no augmenting path.  With few
  distinct weights many edges are tight together, and shrinking them eagerly built dozens of
  blossoms per augmentation that the end of the stage dissolved again.

Dense graphs (more than 2 * CANDIDATES_PER_VERTEX * n edges) are first solved on a sparse
subgraph: the CANDIDATES_PER_VERTEX heaviest edges of every vertex.  The optimal duals of
that subgraph are then checked against every edge of the graph.  If no edge has negative
slack, they are feasible for the whole graph and, with the complementary slackness that the
algorithm guarantees, prove the matching optimal there (LP duality); otherwise the most
violated edges of each vertex join the subgraph (VIOLATED_PER_VERTEX of them, twice as many
in every further round, so that a badly chosen start costs about log2(n) rounds, not n / 4)
and it is solved again.  The subgraph only grows, so this ends, and the answer is always
exact, never a heuristic.

With ``max_cardinality`` on a dense graph, every weight gets the same bonus K, large enough
that one more edge always outweighs any weight difference (K > (n // 2) * (max - min) - min);
a maximum weight matching for the new weights is then a maximum weight matching among the
maximum cardinality ones for the old weights.

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
* Parallel edges are allowed (the heaviest one counts).
* Self-loops, vertices out of range and non-integer weights raise ``MatchingInputError``.
* When several matchings have the largest weight, which one is returned is unspecified.
"""
from __future__ import annotations

import heapq
import itertools
import operator
from collections.abc import Iterable, Iterator

from pairing.errors import PairingError

__all__ = ["MatchingInputError", "max_weight_matching", "max_weight_solver"]

_FREE, _S, _T = 0, 1, 2  # labels; _FREE: in no alternating tree
_GONE = 3  # a vertex taken out of the graph (``pairing.dynamic_matching``): its edges are skipped
# Stored dual = real dual + shift[label] * total (see _Blossom).
_VSHIFT = (0, 1, -1, 0)  # S-vertices lose, T-vertices gain every dual change
_BSHIFT = (0, -1, 1, 0)  # S-blossoms gain, T-blossoms lose every dual change


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
    """Solver state of the primal-dual algorithm (vertices 0..n-1, blossoms n..2n-1).

    Duals are stored lazily: ``total`` is the sum of all dual changes so far, and a stored
    value is ``real + shift * total`` where the shift depends on the label of the top-level
    blossom (_VSHIFT for vertex duals, _BSHIFT for blossom duals).  A dual change is then a
    single addition to ``total``; values are re-encoded when a label changes.
    """

    def __init__(self, n: int, eu: list[int], ev: list[int], ew: list[int]) -> None:
        self.n = n
        self.eu, self.ev, self.ew = eu, ev, ew
        nbr: list[list[int]] = [[] for _ in range(n)]
        inc: list[list[int]] = [[] for _ in range(n)]
        for k, (u, v) in enumerate(zip(eu, ev)):
            nbr[u].append(v)
            inc[u].append(k)
            nbr[v].append(u)
            inc[v].append(k)
        self.nbr, self.inc = nbr, inc
        maxw = max(ew, default=0)
        if maxw < 0:
            maxw = 0
        self.mate = [-1] * n
        # Doubled vertex duals (d = 2u), then blossom duals z (indexed by blossom id).
        self.dual = [maxw] * n + [0] * n
        self.total = 0
        self.top = list(range(n))  # top-level blossom containing each vertex
        self.parent = [-1] * (2 * n)
        self.base = list(range(n)) + [-1] * n
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.verts: list[list[int]] = [[] for _ in range(2 * n)]  # vertices of each blossom
        # bedges[b][i] = (x, y): x in childs[i], y in childs[i + 1] (cyclically).
        self.bedges: list[list[tuple[int, int]]] = [[] for _ in range(2 * n)]
        self.free_ids = list(range(2 * n - 1, n - 1, -1))
        self.label = [_FREE] * (2 * n)  # for top-level blossoms (a vertex is a trivial blossom)
        # labeledge[b] = (x, y): y in b, x in the tree parent of b; None for a root.
        self.labeledge: list[tuple[int, int] | None] = [None] * (2 * n)
        # root[b]: the single vertex at the root of the alternating tree of labelled blossom b.
        self.root = [-1] * (2 * n)
        # members[r]: blossoms labelled in the tree of root r (may hold stale entries).
        self.members: list[list[int]] = [[] for _ in range(n)]
        # Generations: lgen[v] changes with every label change of vertex v, bgen[b] with every
        # label or level change of blossom b.  Heap entries made under an older one are stale.
        self.lgen = [0] * n
        self.bgen = [0] * (2 * n)
        self.mark = [False] * (2 * n)
        self.queue: list[int] = []  # S-vertices whose edges are still to be scanned
        self.trees = 0  # alternating trees still growing (one per single vertex)
        # delta_2: edges S-vertex to free vertex, key = stored d_u + stored d_v - 2w
        #          (current slack = key - total);
        # delta_3: edges between two S-blossoms, same key (current slack = key - 2 * total);
        # delta_4: T-blossoms, key = stored z (current z = key - total).
        self.heap_sf: list[tuple[int, int, int, int]] = []
        # For each free vertex, its best edge from an S-vertex is in heap_sf; fbest records
        # it (edge, key, generations of both ends) so that worse edges need not be pushed.
        # fbest -1: no S-neighbour so far (each one offers its edge when it is scanned).
        self.fbest = [-1] * n
        self.fbest_key = [0] * n
        self.fbest_gen: list[tuple[int, int]] = [(0, 0)] * n
        # Free vertices whose record may miss their best edge, with their generation: they
        # look at all their S-neighbours before the next dual change, not at once (many are
        # labelled again, or dissolved again, before it).
        self.unsure: list[tuple[int, int]] = []
        # delta_3 from per-vertex lists: scanning S-vertex v sorts its edges to other
        # S-vertices (key, edge, generation of the other end) into ss_list[v], numbered
        # ss_serial[v]; heap_ss holds only each list's first entry still valid, as (key, edge,
        # serial, v, position).  A list dies with its vertex's label (a new serial, or
        # lgen[v] past ss_gen[v]) without its entries being looked at one by one.
        self.heap_ss: list[tuple[int, int, int, int, int]] = []
        self.ss_list: list[list[tuple[int, int, int]] | None] = [None] * n
        self.ss_serial = [0] * n
        self.ss_gen = [0] * n
        self.ss_count = 0
        self.heap_t: list[tuple[int, int, int]] = []

    # -- blossom helpers ------------------------------------------------------------------

    def leaves(self, b: int) -> list[int]:
        """The vertices of blossom b (a list kept per blossom: do not modify it)."""
        return [b] if b < self.n else self.verts[b]

    def lift(self, x: int) -> None:
        """Take vertex x out of every blossom holding it, x being the base of each (matched
        outside them, or single): each blossom's dual goes to its vertices, which keeps the
        slack of every edge inside it and adds to the edges leaving it, none of them matched
        but x's.  The duals and the other blossoms stay optimal for the graph without x and
        its mate (``pairing.tight_graph``)."""
        top, dual = self.top, self.dual
        while top[x] != x:
            b = top[x]
            z = dual[b]
            if z:
                for y in self.verts[b]:
                    dual[y] += z
            self.expand_blossom(b, True)

    def set_label(self, b: int, new: int) -> list[int]:
        """Relabel the top-level blossom b, re-encoding its duals; return its vertices."""
        old = self.label[b]
        self.label[b] = new
        vertices = self.leaves(b)
        total = self.total
        shift = (_VSHIFT[new] - _VSHIFT[old]) * total
        dual, lgen = self.dual, self.lgen
        for x in vertices:
            dual[x] += shift
            lgen[x] += 1
        if b >= self.n:
            dual[b] += (_BSHIFT[new] - _BSHIFT[old]) * total
            self.bgen[b] += 1
            if new == _T:
                heapq.heappush(self.heap_t, (dual[b], b, self.bgen[b]))
        if new == _S:
            self.queue.extend(vertices)
        return vertices

    def push_free_edges(self, x: int) -> None:
        """Record the least-slack edge from an S-vertex to the free vertex x (for delta_2)."""
        dual, top, label, ew, lgen, eu, ev = (
            self.dual, self.top, self.label, self.ew, self.lgen, self.eu, self.ev
        )
        dx = dual[x]
        best_key = best = -1
        for y, k in zip(self.nbr[x], self.inc[x]):
            if label[top[y]] == _S:
                key = dx + dual[y] - 2 * ew[k]
                if best < 0 or key < best_key:
                    best_key, best, other = key, k, y
        self.fbest[x] = best
        if best >= 0:
            self.fbest_key[x] = best_key
            self.fbest_gen[x] = (lgen[x], lgen[other])
            heapq.heappush(self.heap_sf, (best_key, best, lgen[eu[best]], lgen[ev[best]]))

    def assign_label(self, w: int, t: int, v: int) -> None:
        """Label the top blossom of w with t, reached from vertex v (-1 for a root)."""
        b = self.top[w]
        self.set_label(b, t)
        self.labeledge[b] = None if v < 0 else (v, w)
        r = self.root[b] = w if v < 0 else self.root[self.top[v]]
        self.members[r].append(b)
        if t == _T:  # the mate of a T-blossom's base joins the tree as an S-blossom
            base = self.base[b]
            w = self.mate[base]
            b = self.top[w]
            self.set_label(b, _S)
            self.labeledge[b] = (base, w)
            self.root[b] = r
            self.members[r].append(b)

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
        n = self.n
        top, labeledge, parent, label, dual = (
            self.top, self.labeledge, self.parent, self.label, self.dual
        )
        bb = top[base_v]
        b = self.free_ids.pop()
        self.base[b] = base_v
        parent[b] = -1
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
        childs = self.childs[b] = [bb, *vpath, *wpath]
        self.bedges[b] = [*vedges, (v, w), *wedges]
        total = self.total
        for c in childs:
            if label[c] == _T:
                self.set_label(c, _S)  # its vertices become S-vertices (and are queued)
            if c >= n:
                # No longer top-level: its dual is frozen, store the real value.
                dual[c] -= _BSHIFT[_S] * total
                self.bgen[c] += 1
            label[c] = _FREE
        label[b] = _S
        dual[b] = _BSHIFT[_S] * total  # real z = 0
        self.bgen[b] += 1
        labeledge[b] = labeledge[bb]
        r = self.root[b] = self.root[bb]
        self.members[r].append(b)
        verts = self.verts[b] = []
        for c in childs:
            if c < n:
                verts.append(c)
            else:
                verts.extend(self.verts[c])
        for u in verts:
            top[u] = b

    def expand_blossom(self, b: int, endstage: bool) -> None:
        """Dissolve blossom b into its children.

        endstage: b is already unlabelled (its tree was dissolved); children whose dual is
        zero are dissolved too, and theirs, however deep: a stack stands in for recursion
        (nesting can be thousands deep), and the blossoms are released children first, in
        the order a recursion would release them.  Otherwise b is a T-blossom whose dual
        reached zero.
        """
        n = self.n
        top, parent, dual, label = self.top, self.parent, self.dual, self.label
        relabel = not endstage and label[b] == _T
        if relabel:
            entry_edge = self.labeledge[b]
            tree = self.root[b]
            self.set_label(b, _FREE)
        released: list[int] = []
        stack = [(b, 0)]
        while stack:
            blossom, i = stack.pop()
            childs = self.childs[blossom]
            while i < len(childs):
                c = childs[i]
                i += 1
                parent[c] = -1
                if c < n:
                    top[c] = c
                elif endstage and dual[c] == 0:
                    stack.append((blossom, i))
                    stack.append((c, 0))
                    break
                else:
                    for u in self.leaves(c):
                        top[u] = c
            else:
                released.append(blossom)
        if relabel:
            self._relabel_children(self.childs[b], self.bedges[b], entry_edge, tree)
        for blossom in released:
            label[blossom] = _FREE
            self.bgen[blossom] += 1
            self.labeledge[blossom] = None
            self.childs[blossom] = []
            self.verts[blossom] = []
            self.bedges[blossom] = []
            self.base[blossom] = -1
            dual[blossom] = 0
            self.free_ids.append(blossom)

    def _relabel_children(
        self, childs: list[int], bedges: list[tuple[int, int]], entry_edge: tuple[int, int],
        tree: int,
    ) -> None:
        """After expanding a T-blossom: label the children on the even path from the entry
        child to the base child T, S, T, ..., T; the others become free."""
        labeledge, parent, root = self.labeledge, self.parent, self.root
        p, q = entry_edge
        entry = q  # the children are top-level again: climb to the one holding q
        while parent[entry] >= 0:
            entry = parent[entry]
        j = childs.index(entry)
        L = len(childs)
        on_path = {childs[j]}

        def give(c: int, lab: int, edge: tuple[int, int]) -> None:
            self.set_label(c, lab)
            labeledge[c] = edge
            root[c] = tree
            self.members[tree].append(c)
            on_path.add(c)

        give(childs[j], _T, (p, q))
        if j % 2 == 1:  # forward: j, j+1, ..., L (= 0)
            i = j
            while i != L:
                x, y = bedges[i]
                give(childs[(i + 1) % L], _S, (x, y))
                x, y = bedges[(i + 1) % L]
                give(childs[(i + 2) % L], _T, (x, y))
                i += 2
        else:  # backward: j, j-1, ..., 0
            i = j
            while i != 0:
                x, y = bedges[i - 1]
                give(childs[i - 1], _S, (y, x))
                x, y = bedges[i - 2]
                give(childs[i - 2], _T, (y, x))
                i -= 2
        for c in childs:
            if c not in on_path:
                for x in self.leaves(c):
                    self.push_free_edges(x)

    def even_paths(
        self, b: int, v: int
    ) -> Iterator[tuple[int, int, int, list[tuple[int, int]]]]:
        """The walk of making vertex v the base of blossom b: for b and each sub-blossom on
        its even path, (blossom, its new base, position of the child that holds the base, the
        pairs of the even path that become matched).  Nothing changes here: ``augment_blossom``
        applies the walk, ``TightGraph`` reads it.

        The sub-blossoms on the path are re-based the same way; each is independent of the
        others, so they wait in a list instead of a recursion as deep as the nesting.
        """
        n, parent = self.n, self.parent
        pending = [(b, v)]
        while pending:
            b, v = pending.pop()
            t = v
            while parent[t] != b:
                t = parent[t]
            if t >= n:
                pending.append((t, v))
            childs, bedges = self.childs[b], self.bedges[b]
            size = len(childs)
            i = childs.index(t)
            pairs = []
            for j in range(i + 1, size, 2) if i % 2 == 1 else range(i - 2, -1, -2):
                x, y = bedges[j]
                cx, cy = childs[j], childs[(j + 1) % size]
                if cx >= n:
                    pending.append((cx, x))
                if cy >= n:
                    pending.append((cy, y))
                pairs.append((x, y))
            yield b, v, i, pairs

    def augment_blossom(self, b: int, v: int) -> None:
        """Make vertex v the base of blossom b, re-matching along the even path
        (``even_paths``): each blossom on the way rotates its cycle to start at the new base."""
        mate, childs, bedges = self.mate, self.childs, self.bedges
        for c, base, i, pairs in self.even_paths(b, v):
            for x, y in pairs:
                mate[x] = y
                mate[y] = x
            childs[c] = childs[c][i:] + childs[c][:i]
            bedges[c] = bedges[c][i:] + bedges[c][:i]
            self.base[c] = base

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

    def dissolve_trees(self, roots: tuple[int, int]) -> None:
        """After an augmentation, unlabel the two trees it went through (Galil's stage end).

        The other trees stay: their labels, duals and tight edges are still valid.
        """
        n, label, parent, base, dual, root = (
            self.n, self.label, self.parent, self.base, self.dual, self.root
        )
        members = self.members
        dead = []
        for r in roots:
            for b in members[r]:
                if label[b] > 0 and parent[b] < 0 and root[b] == r and (b < n or base[b] >= 0):
                    dead.append(b)
                    label[b] = -label[b]  # mark: listed once even if the list repeats it
            members[r] = []
        for b in dead:
            label[b] = -label[b]
        loose: list[int] = []
        for b in dead:
            was = label[b]
            loose.extend(self.set_label(b, _FREE))
            self.labeledge[b] = None
            if was == _S and b >= n and dual[b] == 0:
                self.expand_blossom(b, True)
        # Other free vertices whose recorded best edge came from a vertex that just left its
        # tree look again when that record reaches the top of heap_sf (see _run).
        self.trees -= 2
        if not self.trees:
            self.unsure.clear()
            return  # no S-vertex is left: the free vertices need no best edge
        fbest, lgen, unsure = self.fbest, self.lgen, self.unsure
        for x in loose:
            fbest[x] = -1
            unsure.append((x, lgen[x]))

    def short_augmentations(self, singles: list[int]) -> None:
        """Before any tree grows: match single vertices along augmenting paths of one or
        three tight edges, outside blossoms (duals decoded, no labels).

        Matched edges stay tight, so the optimality conditions still hold; most
        augmentations of a warm start are that short, and found this way they do not grow
        (and then dissolve) two alternating trees each.
        """
        top, mate, dual, ew, nbr, inc = self.top, self.mate, self.dual, self.ew, self.nbr, self.inc
        # reach[z]: a single vertex joined by a tight edge to z, a matched vertex
        reach: dict[int, int] = {}
        at_dual, at_weight = dual.__getitem__, ew.__getitem__
        tight_of: dict[int, list[int]] = {}  # the tight neighbours of each single vertex
        for x in singles:
            if top[x] != x:
                continue
            tight_of[x] = tight = list(itertools.compress(nbr[x], map(
                operator.eq, map(dual[x].__add__, map(at_dual, nbr[x])),
                map(operator.lshift, map(at_weight, inc[x]), itertools.repeat(1)),
            )))
            for y in tight:
                if y not in reach and mate[y] >= 0:
                    reach[y] = x
        for r in singles:
            if mate[r] >= 0 or top[r] != r:
                continue
            tight = [y for y in tight_of[r] if top[y] == y]
            for y in tight:
                if mate[y] < 0:
                    mate[r], mate[y] = y, r
                    break
            else:
                for y in tight:
                    z = mate[y]
                    t = reach.get(z, -1)
                    if t >= 0 and t != r and mate[t] < 0 and top[z] == z:
                        mate[r], mate[y] = y, r
                        mate[z], mate[t] = t, z
                        break

    def next_ss(self) -> None:
        """Take the first entry off heap_ss and put in its place the next entry of the same
        vertex's list that is still valid (an entry once stale stays stale: generations only
        grow, and two S-vertices once in one blossom stay there while they are S)."""
        _, _, serial, x, i = heapq.heappop(self.heap_ss)
        if self.ss_serial[x] != serial:
            return  # x was scanned again since: a newer list replaced this one
        if self.lgen[x] != self.ss_gen[x]:
            self.ss_list[x] = None  # x was labelled again: its list is dead
            return
        entries = self.ss_list[x]
        assert entries is not None
        eu, ev, lgen, top = self.eu, self.ev, self.lgen, self.top
        tx = top[x]
        for j in range(i + 1, len(entries)):
            key, k, g = entries[j]
            y = eu[k] + ev[k] - x
            if lgen[y] == g and top[y] != tx:
                heapq.heappush(self.heap_ss, (key, k, serial, x, j))
                return
        self.ss_list[x] = None

    def clear_ss(self) -> None:
        """Forget every S-S list (between runs)."""
        self.heap_ss.clear()
        self.ss_list = [None] * self.n

    def decode_duals(self) -> None:
        """Turn the stored duals into real ones (total becomes 0)."""
        n, total, dual, label, top, parent = (
            self.n, self.total, self.dual, self.label, self.top, self.parent
        )
        for x in range(n):
            dual[x] -= _VSHIFT[label[top[x]]] * total
        for b in range(n, 2 * n):
            if parent[b] < 0 and self.base[b] >= 0:
                dual[b] -= _BSHIFT[label[b]] * total
        self.total = 0

    def certify(self, max_cardinality: bool) -> None:
        """Check the optimality conditions that do not depend on the edges left out."""
        n, dual, mate, ew = self.n, self.dual, self.mate, self.ew
        if not max_cardinality:
            if any(dual[x] < 0 or (mate[x] < 0 and dual[x] != 0) for x in range(n)):
                raise AssertionError("vertex duals violate the optimality conditions")
        if any(dual[b] < 0 for b in range(n, 2 * n) if self.base[b] >= 0):
            raise AssertionError("negative blossom dual")
        matched = [k for k, (u, v) in enumerate(zip(self.eu, self.ev)) if mate[u] == v]
        tight = self.slacks(
            [self.eu[k] for k in matched], [self.ev[k] for k in matched], [ew[k] for k in matched]
        )
        # With parallel edges, only the heaviest one between a matched pair is the matched
        # edge: the smallest slack per pair must be zero.
        smallest: dict[int, int] = {}
        for k, slack in zip(matched, tight):
            u = min(self.eu[k], self.ev[k])
            if slack < smallest.get(u, slack + 1):
                smallest[u] = slack
        if any(smallest.values()):
            raise AssertionError("matched edge is not tight")

    def _common_dual_tables(self) -> tuple[list[int], list[list[int]]]:
        """Tables giving, for any two vertices, the sum of the duals of the blossoms holding
        both (decoded duals).

        Vertices are listed in depth-first order of the blossom forest.  Between two
        consecutive vertices the walk turns at their deepest common blossom; sep[i] is the
        sum of the duals of that blossom and of the ones around it (0 between trees).  Such
        a sum only grows with depth, so for vertices at positions a < b the wanted sum is
        the minimum of sep[a .. b-1]: a range minimum, answered from a sparse table.
        """
        n, dual, childs, parent = self.n, self.dual, self.childs, self.parent
        pos = [0] * n
        sep: list[int] = []
        count = 0
        pending: int | None = 0
        for b in range(2 * n):
            if parent[b] >= 0 or (b >= n and self.base[b] < 0):
                continue
            pending = 0  # a new tree: nothing in common with the vertices before it
            stack = [(b, dual[b] if b >= n else 0)]
            while stack:
                x, acc = stack.pop()
                if x < 0:  # back at a blossom between two of its children
                    pending = acc if pending is None else min(pending, acc)
                elif x < n:
                    if count:
                        sep.append(pending)
                    pos[x] = count
                    count += 1
                    pending = None
                else:
                    kids = childs[x]
                    for i in range(len(kids) - 1, -1, -1):
                        c = kids[i]
                        stack.append((c, acc + dual[c] if c >= n else acc))
                        if i:
                            stack.append((-1, acc))
        table = [sep]
        span = 1
        while 2 * span <= len(sep):
            last = table[-1]
            table.append(list(map(min, last[: len(last) - span], last[span:])))
            span *= 2
        return pos, table

    def slacks(self, us: list[int], vs: list[int], ws: list[int]) -> list[int]:
        """Exact doubled slacks of the edges (us[i], vs[i], ws[i]) under the decoded duals."""
        dual = self.dual
        out = [dual[u] + dual[v] - 2 * w for u, v, w in zip(us, vs, ws)]
        self._add_common_duals(us, vs, out, 2)
        return out

    def _add_common_duals(self, us: list[int], vs: list[int], out: list[int], factor: int) -> None:
        """out[i] += factor * (sum of the duals of the blossoms holding us[i] and vs[i])."""
        n = self.n
        if not any(self.base[b] >= 0 for b in range(n, 2 * n)):
            return
        pos, table = self._common_dual_tables()
        top = self.top.__getitem__
        same = itertools.compress(itertools.count(), map(operator.eq, map(top, us), map(top, vs)))
        for i in same:
            a, b = pos[us[i]], pos[vs[i]]
            if a > b:
                a, b = b, a
            j = (b - a).bit_length() - 1
            row = table[j]
            common = min(row[a], row[b - (1 << j)])
            if common:
                out[i] += factor * common

    def violated_edges(
        self, eu: list[int], ev: list[int], ew2: list[int], per_vertex: int,
        sums: list[int] | None = None,
    ) -> list[int]:
        """Edges with a negative (doubled) slack under the decoded duals: for each vertex, its
        per_vertex most violated ones (an empty list proves the duals feasible).

        ew2 holds the doubled weights.  An edge inside blossoms gets twice the dual of each
        blossom holding both its ends.  A list given as ``sums`` receives d_u + d_v of every
        edge (its slack before the blossom duals, plus ew2).
        """
        at = self.dual.__getitem__
        add, sub, count, compress = operator.add, operator.sub, itertools.count, itertools.compress
        # Violation 2w - d_u - d_v, before the blossom duals (which only lower it).
        if sums is None:
            sums = []
        sums[:] = map(add, map(at, eu), map(at, ev))
        rough = list(compress(count(), map(operator.lt, sums, ew2)))
        us = list(map(eu.__getitem__, rough))
        vs = list(map(ev.__getitem__, rough))
        excess = list(map(sub, map(ew2.__getitem__, rough), map(add, map(at, us), map(at, vs))))
        n, top = self.n, self.top
        if any(self.base[b] >= 0 for b in range(n, 2 * n)):
            # The top-level blossom holding both ends is one of the common blossoms: take its
            # dual off first (C-level), and compute the exact sum only where that is not enough.
            outer2 = [2 * at(top[x]) if top[x] >= n else 0 for x in range(n)]
            at_top = top.__getitem__
            same = map(operator.eq, map(at_top, us), map(at_top, vs))
            excess = list(map(sub, excess, map(operator.mul, same, map(outer2.__getitem__, us))))
            left = list(compress(count(), map(operator.lt, itertools.repeat(0), excess)))
            rough = [rough[i] for i in left]
            us = [us[i] for i in left]
            vs = [vs[i] for i in left]
            excess = list(map(sub, map(ew2.__getitem__, rough), map(add, map(at, us), map(at, vs))))
            self._add_common_duals(us, vs, excess, -2)
        bad = list(compress(count(), map(operator.lt, itertools.repeat(0), excess)))
        if len(bad) < len(rough):
            rough = [rough[i] for i in bad]
            us = [us[i] for i in bad]
            vs = [vs[i] for i in bad]
            excess = [excess[i] for i in bad]
        return [rough[i] for i in _heaviest_per_vertex(self.n, us, vs, excess, per_vertex)]

    # -- main loop ------------------------------------------------------------------------

    def solve(self, max_cardinality: bool, roots: list[int] | None = None) -> list[int]:
        """Run to optimality; return mate (the duals are left decoded in self.dual).

        roots: the single vertices to grow trees from (default: every single vertex).  A
        warm start (``pairing.dynamic_matching``) passes the ones it freed.
        """
        self._run(max_cardinality, start=roots)
        self.decode_duals()
        return self.mate

    def _run(self, max_cardinality: bool, start: list[int] | None = None) -> None:
        n = self.n
        eu, ev, ew = self.eu, self.ev, self.ew
        nbr, inc = self.nbr, self.inc
        dual, top, label, mate, root = self.dual, self.top, self.label, self.mate, self.root
        lgen, bgen = self.lgen, self.bgen
        heap_sf, heap_ss, heap_t = self.heap_sf, self.heap_ss, self.heap_t
        ss_list, ss_serial, ss_gen = self.ss_list, self.ss_serial, self.ss_gen
        fbest, fbest_key, fbest_gen = self.fbest, self.fbest_key, self.fbest_gen
        heappush, heappop = heapq.heappush, heapq.heappop
        queue, unsure = self.queue, self.unsure
        # Jump start: with every vertex dual at the largest weight, the edges of that weight
        # are tight; a greedy matching on them keeps the optimality conditions.
        top_weight = max(ew, default=0) if start is None else 0
        if top_weight > 0 and not any(x >= 0 for x in mate):
            for k, w in enumerate(ew):
                if w == top_weight and mate[eu[k]] < 0 and mate[ev[k]] < 0:
                    mate[eu[k]] = ev[k]
                    mate[ev[k]] = eu[k]
        singles = [v for v in range(n) if mate[v] < 0] if start is None else list(start)
        if max_cardinality and len(singles) > 2:
            self.short_augmentations(singles)
            singles = [v for v in singles if mate[v] < 0]
        singles.reverse()
        for v in singles:
            if label[top[v]] == _FREE:
                self.assign_label(v, _S, -1)
                self.trees += 1
        while True:
            while queue:
                v = queue.pop()
                if label[top[v]] != _S:
                    continue
                dv = dual[v]
                total = self.total
                waiting: list[tuple[int, int, int]] = []
                for w, k in zip(nbr[v], inc[v]):
                    bw = top[w]
                    if bw == top[v]:
                        continue
                    lw = label[bw]
                    if lw == _S:
                        key = dv + dual[w] - 2 * ew[k]
                        # A tight edge inside one tree would make a blossom: it waits for
                        # delta_3 (= 0) until the scan finds no augmenting path, so that
                        # blossoms form only when needed (the ladder-shaped weights of the
                        # Dutch remainder made ~64 blossoms per augmentation otherwise).
                        if key - 2 * total > 0 or root[top[v]] == root[bw]:
                            waiting.append((key, k, lgen[w]))
                            continue
                        base_v = self.scan_blossom(v, w)
                        if base_v >= 0:
                            self.add_blossom(base_v, v, w)
                        else:
                            roots = (root[top[v]], root[bw])
                            self.augment(v, w)
                            self.dissolve_trees(roots)
                            break
                    elif lw == _FREE:
                        key = dv + dual[w] - 2 * ew[k]
                        if key - total <= 0:
                            self.assign_label(w, _T, v)
                            continue
                        bk = fbest[w]
                        if bk >= 0 and fbest_gen[w] != (lgen[w], lgen[eu[bk] + ev[bk] - w]):
                            # the record is stale: this edge stands in for it until w
                            # looks at all its S-neighbours (before the next dual change)
                            unsure.append((w, lgen[w]))
                            bk = -1
                        if bk < 0 or key < fbest_key[w]:
                            # no record yet (every S-neighbour offers its edge when it is
                            # scanned), or a better edge than the recorded one
                            fbest[w] = k
                            fbest_key[w] = key
                            fbest_gen[w] = (lgen[w], lgen[v])
                            heappush(heap_sf, (key, k, lgen[eu[k]], lgen[ev[k]]))
                if waiting and label[top[v]] == _S:
                    waiting.sort()
                    self.ss_count += 1
                    serial = ss_serial[v] = self.ss_count
                    ss_list[v] = waiting
                    ss_gen[v] = lgen[v]
                    heappush(heap_ss, (waiting[0][0], waiting[0][1], serial, v, 0))
            # Dual change (Galil, section 3: delta_1 .. delta_4).
            if unsure:
                looked: set[int] = set()
                for x, g in unsure:
                    if lgen[x] == g and x not in looked and label[top[x]] == _FREE:
                        looked.add(x)
                        self.push_free_edges(x)
                unsure.clear()
            total = self.total
            delta = None
            kind = 0
            if not max_cardinality:
                while singles and mate[singles[-1]] >= 0:
                    singles.pop()
                if singles:
                    # Every single vertex is an S-root and all of them have the same dual,
                    # the smallest of all vertex duals.
                    delta = dual[singles[-1]] - total
                    kind = 1
            while heap_sf:
                key, k, gu, gv = heap_sf[0]
                u, v = eu[k], ev[k]
                if lgen[u] == gu and lgen[v] == gv:
                    if delta is None or key - total < delta:
                        delta, kind = key - total, 2
                    break
                heappop(heap_sf)
                # A free vertex whose recorded best edge lost its S-end (dissolved tree)
                # looks at its S-neighbours again.  Its record was its least key, so no
                # other edge of it can be needed before this point.
                for x, gx in ((u, gu), (v, gv)):
                    if fbest[x] == k and lgen[x] == gx and label[top[x]] == _FREE:
                        self.push_free_edges(x)
            while heap_ss:
                key, k, serial, x, i = heap_ss[0]
                if (
                    ss_serial[x] == serial and lgen[x] == ss_gen[x]
                    and lgen[eu[k] + ev[k] - x] == ss_list[x][i][2]
                    and top[eu[k]] != top[ev[k]]
                ):
                    slack = key - 2 * total
                    if slack % 2:
                        raise AssertionError("odd slack between S-vertices")
                    if delta is None or slack // 2 < delta:
                        delta, kind = slack // 2, 3
                    break
                self.next_ss()
            while heap_t:
                key, b, g = heap_t[0]
                if bgen[b] == g:
                    if delta is None or key - total < delta:
                        delta, kind = key - total, 4
                    break
                heappop(heap_t)
            if delta is None:
                # No tree can grow, no augmenting path is left (max_cardinality, or all matched).
                return
            self.total = total + delta
            if kind == 1:
                return
            if kind == 2:
                k = heappop(heap_sf)[1]
                v, w = eu[k], ev[k]
                if label[top[v]] != _S:
                    v, w = w, v
                self.assign_label(w, _T, v)
            elif kind == 3:
                k = heap_ss[0][1]
                self.next_ss()
                v, w = eu[k], ev[k]
                base_v = self.scan_blossom(v, w)
                if base_v >= 0:
                    self.add_blossom(base_v, v, w)
                else:
                    roots = (root[top[v]], root[top[w]])
                    self.augment(v, w)
                    self.dissolve_trees(roots)
            else:
                self.expand_blossom(heappop(heap_t)[1], False)


# Dense graphs are first solved on a sparse subgraph: the heaviest edges of every vertex
# (see the module docstring).
CANDIDATES_PER_VERTEX = 8
# Edges brought back per vertex and round when the certificate fails (more makes the
# subgraphs grow faster than the rounds they save).
VIOLATED_PER_VERTEX = 4


def max_weight_matching(
    n: int, edges: Iterable[tuple[int, int, int]], *, max_cardinality: bool = False
) -> list[int]:
    if not max_cardinality:
        return max_weight_solver(n, edges).mate
    eu, ev, ew = _read_edges(n, edges, keep_negative=True)
    if len(ew) <= 2 * CANDIDATES_PER_VERTEX * n:
        return _Blossom(n, eu, ev, ew).solve(True)
    ew = _with_cardinality_bonus(n, ew)
    chosen = _heaviest_per_vertex(n, eu, ev, ew, CANDIDATES_PER_VERTEX)
    return _solve_from_candidates(n, eu, ev, ew, chosen)[0]


def max_weight_solver(
    n: int, edges: Iterable[tuple[int, int, int]], guess: Iterable[tuple[int, int]] = ()
) -> _Blossom:
    """The solver as ``max_weight_matching(n, edges)`` leaves it: its ``mate``, and duals
    (decoded) and blossoms optimal for every edge given, for questions about the other
    optimal matchings (``pairing.tight_graph``).

    ``guess``: pairs (u < v) likely in an optimal matching (the previous one, when a few
    weights changed), solved with the candidate edges of a dense graph; only the speed
    depends on them.
    """
    eu, ev, ew = _read_edges(n, edges, keep_negative=False)
    if len(ew) <= 2 * CANDIDATES_PER_VERTEX * n:
        solver = _Blossom(n, eu, ev, ew)
        solver.solve(False)
        return solver
    chosen = _heaviest_per_vertex(n, eu, ev, ew, CANDIDATES_PER_VERTEX)
    wanted = set(guess)
    if wanted:
        extra = itertools.compress(itertools.count(), map(wanted.__contains__, zip(eu, ev)))
        chosen = sorted(set(chosen).union(extra))
    return _solver_from_candidates(n, eu, ev, ew, chosen)[0]


def _with_cardinality_bonus(n: int, ew: list[int]) -> list[int]:
    """Weights under which every maximum weight matching is a maximum cardinality one.

    Each weight gets a bonus K larger than any weight difference a matching with fewer edges
    could make up: with K > (n // 2) * (max - min) - min, one more edge always wins.
    """
    if not ew:
        return ew
    low, high = min(ew), max(ew)
    bonus = (n // 2) * (high - low) + abs(low) + 1
    return [w + bonus for w in ew]


def _solve_from_candidates(
    n: int, eu: list[int], ev: list[int], ew: list[int], chosen: list[int]
) -> tuple[list[int], list[int]]:
    solver, chosen = _solver_from_candidates(n, eu, ev, ew, chosen)
    return solver.mate, chosen


def _solver_from_candidates(
    n: int, eu: list[int], ev: list[int], ew: list[int], chosen: list[int]
) -> tuple[_Blossom, list[int]]:
    """Solve on the chosen edges, then certify on all edges (weights all >= 0).

    The solution on a subgraph comes with optimal duals (vertex duals >= 0 and 0 on single
    vertices, blossom duals >= 0, matched edges tight).  If no edge of the whole graph has
    negative slack under them, they are feasible for the whole graph and the matching is
    optimal there too (LP duality).  Otherwise the violated edges join the subgraph and it is
    solved again; the subgraph only grows, so this ends.
    """
    ew2 = [w + w for w in ew]
    per_vertex = VIOLATED_PER_VERTEX
    while True:
        solver = _Blossom(
            n, [eu[k] for k in chosen], [ev[k] for k in chosen], [ew[k] for k in chosen]
        )
        solver.solve(False)
        solver.certify(False)
        missing = solver.violated_edges(eu, ev, ew2, per_vertex)
        if not missing:
            return solver, chosen
        chosen = sorted(set(chosen).union(missing))
        per_vertex *= 2


def _heaviest_per_vertex(n: int, eu: list[int], ev: list[int], ew: list[int], k: int) -> list[int]:
    """Indices of the edges that are among the k heaviest of one of their ends.

    Among edges of equal weight, the order is that of a fixed pseudo-random number per
    vertex (the exclusive or of the two ends): the choice spreads over the graph instead of
    favouring the first vertices, and a vertex brings in k edges, not all of its ties.
    """
    mix = [(x * 2654435761) % 4294967296 for x in range(n)]  # the same in every run
    # one sort on small ints: the rank of the weight (heaviest first) above the tie order
    # (few distinct weights: a bracket's pairs share a handful of criteria patterns)
    rank = {w: r << 32 for r, w in enumerate(sorted(set(ew), reverse=True))}
    key: list[int] | list[float] = list(map(
        operator.or_,
        map(rank.__getitem__, ew),
        map(operator.xor, map(mix.__getitem__, eu), map(mix.__getitem__, ev)),
    ))
    if len(rank) < 1 << 21:
        # as floats, exact below 2**53: the sort compares them faster than ints of two digits
        key = list(map(float, key))
    order = sorted(range(len(ew)), key=key.__getitem__)
    seen = [0] * n
    chosen = []
    for i in order:
        u, v = eu[i], ev[i]
        a, b = seen[u], seen[v]
        seen[u] = a + 1
        seen[v] = b + 1
        if a < k or b < k:
            chosen.append(i)
    chosen.sort()
    return chosen
