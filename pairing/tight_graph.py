"""Which pairs the optimal matchings of a solved graph can use, told from its tight edges.

After a solve of ``pairing.matching`` the duals are optimal, and complementary slackness says
which matchings are optimal too: those made of tight edges (zero slack) that keep exactly one
vertex of every blossom of positive dual matched outside it, and that leave single only
vertices whose dual is zero (every vertex, when the matching must be perfect).  Such a blossom
is one *node* here: its vertices can be re-matched inside it so that any one of them is the
one matched outside (``_Blossom.augment_blossom``).  Blossoms of zero dual constrain nothing
and are opened first.

``TightGraph.pair(x, y)``: is x-y in some optimal matching?  Taking it unmatches the nodes A
and B that x's and y's nodes were matched with; some optimal matching pairs x with y exactly
when A and B can be matched again (or left single, where their duals allow it) along
alternating paths of tight edges between nodes, away from x's and y's nodes (Berge).
Edmonds' search finds such a path, shrinking the odd cycles of tight edges it meets, with no
dual change and no solve.  The answer is True (the solver's matching now pairs x with y and is
still optimal), False (no optimal matching does), or None where this cannot tell: x and y in
one node, or two searches that would have to be chosen together.

``remove_pair(x, y)``: x-y is final.  The matchings of the graph without x and y that are
optimal are those that are optimal with x-y added (the weight of x-y is the same in all of
them), so the duals stay optimal; a blossom that held x (x is its base, matched outside) passes
its dual to its vertices (``_Blossom.lift``) and leaves the structure a valid one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container
from itertools import compress
from operator import eq

from pairing.matching import _Blossom

__all__ = ["TightGraph"]

Edge = tuple[int, int]
"""(vertex in one node, vertex in the other), a tight edge between two nodes."""


class TightGraph:
    """The tight edges of a solved matching, between the nodes of its optimal matchings.

    ``edges_of(u)`` gives the neighbours of vertex u and the doubled weights of those edges;
    ``removed(u)`` whether u has left the graph.  With ``perfect``, every vertex must stay
    matched; otherwise a vertex of zero dual may be left single.
    """

    def __init__(
        self, solver: _Blossom, edges_of: Callable[[int], tuple[list[int], list[int]]],
        removed: Callable[[int], bool], *, perfect: bool,
    ) -> None:
        self.s = solver
        self.edges_of = edges_of
        self.removed = removed
        self.perfect = perfect
        self.broken = False
        """A final pair lay inside a blossom: the structure no longer tells (solve again)."""
        self.touched: list[int] = []
        """The vertices whose mate the last True answer may have changed."""
        # u -> (u's dual when listed, tight neighbours then, their doubled weights, lifts then)
        self._tight: dict[int, tuple[int, list[int], list[int], int]] = {}
        self._lifts = 0  # blossoms lifted so far (each raises duals)
        s = solver
        for b in range(s.n, 2 * s.n):
            if s.parent[b] < 0 and s.base[b] >= 0 and s.dual[b] == 0:
                s.expand_blossom(b, True)  # no constraint: its children become nodes

    # -- nodes ------------------------------------------------------------------------------

    def _vertices(self, node: int) -> list[int]:
        return self.s.leaves(node)

    def _base(self, node: int) -> int:
        return node if node < self.s.n else self.s.base[node]

    def _may_stay_single(self, node: int) -> bool:
        """Whether an optimal matching can leave this node unmatched (a vertex of zero dual)."""
        if self.perfect:
            return False
        dual = self.s.dual
        return any(dual[v] == 0 for v in self._vertices(node))

    def _tight_of(self, u: int) -> list[int]:
        """The vertices joined to u by a tight edge (maybe in u's node), still in the graph."""
        dual = self.s.dual
        du = dual[u]
        listed = self._tight.get(u)
        if listed is None or listed[0] != du:
            ys, w2 = self.edges_of(u)
            mask = list(map(eq, map(du.__add__, map(dual.__getitem__, ys)), w2))
            listed = (du, list(compress(ys, mask)), list(compress(w2, mask)), self._lifts)
            self._tight[u] = listed
        removed = self.removed
        if listed[3] == self._lifts:
            return [y for y in listed[1] if not removed(y)]
        # duals only rise between solves (a lifted blossom): an edge listed may have lost
        # its tightness, none can have gained it
        return [y for y, w in zip(listed[1], listed[2]) if du + dual[y] == w and not removed(y)]

    def tight_neighbours(self, u: int) -> list[int]:
        """The vertices joined to u by a tight edge, outside u's node, still in the graph."""
        top = self.s.top
        tu = top[u]
        return [y for y in self._tight_of(u) if top[y] != tu]

    # -- questions ----------------------------------------------------------------------------

    def pair(self, x: int, y: int, final: bool = False) -> bool | None:
        """Match x with y if an optimal matching does; True, False, or None (cannot tell).

        With ``final`` (x-y is made final next, ``remove_pair``), x and y in one blossom are
        looked for inside it, its outside edge kept (``_pair_inside``): True, or None.
        """
        if self.broken:
            return None
        s = self.s
        mate, top = s.mate, s.top
        if mate[x] == y:
            return True
        X, Y = top[x], top[y]
        if X == Y:
            return self._pair_inside(X, x, y) if final else None
        if y not in self.tight_neighbours(x):
            return False
        partner: dict[int, Edge | None] = {}  # node -> (own vertex, other vertex); None: single
        changed: dict[int, Edge | None] = {}
        a_vertex, b_vertex = mate[self._base(X)], mate[self._base(Y)]
        A = top[a_vertex] if a_vertex >= 0 else -1
        B = top[b_vertex] if b_vertex >= 0 else -1
        changed[X], changed[Y] = (x, y), (y, x)
        if A == Y:
            self._commit(changed)
            return True
        excluded = {X, Y}
        needy = []
        for node in (A, B):
            if node >= 0:
                partner[node] = changed[node] = None
                if not self._may_stay_single(node):
                    needy.append(node)
        first = True
        for root in needy:
            if changed.get(root, None) is not None:
                continue  # the first path ended there
            found = self._search(root, excluded, partner, top.__getitem__, self._tight_of)
            if found is None:
                return False if first else None
            for node, edge in found.items():
                partner[node] = changed[node] = edge
            first = False
        self._commit(changed)
        return True

    def mates_with(self, x: int, y: int) -> dict[int, int] | None:
        """For a perfect matching: the vertices whose mate changes, and their new mates, in a
        matching of the tight edges and x-y (not tight: x and y in two nodes), or None when
        there is none this way.  The matching does not change.

        Such a matching is a maximum weight one in which x meets y: every perfect matching
        loses, against the optimum, at least the slack of each of its edges (LP duality;
        no blossom holds both x and y), and this one loses exactly the slack of x-y.  As in
        ``pair``, A and B, the nodes matched with x's and y's, need a path between them.
        """
        if self.broken or not self.perfect:
            return None
        s = self.s
        mate, top = s.mate, s.top
        X, Y = top[x], top[y]
        if X == Y or mate[x] == y:
            return None
        a_vertex, b_vertex = mate[self._base(X)], mate[self._base(Y)]
        if a_vertex < 0 or b_vertex < 0:
            return None
        A, B = top[a_vertex], top[b_vertex]
        if A == Y:
            return None
        found = self._search(A, {X, Y}, {A: None, B: None}, top.__getitem__, self._tight_of)
        if found is None or found.get(B) is None:
            return None
        found[X], found[Y] = (x, y), (y, x)
        out: dict[int, int] = {}
        n = s.n
        for node, edge in found.items():
            assert edge is not None  # (a perfect matching leaves no node single)
            own, other = edge
            if node >= n:
                self._rebased(node, own, out)
            out[own] = other
        return {v: m for v, m in out.items() if mate[v] != m}

    def _rebased(self, b: int, v: int, out: dict[int, int]) -> None:
        """The pairs inside blossom b once v is its base (``_Blossom.even_paths``, the solver
        left as it is), written into ``out``."""
        for _blossom, _base, _position, pairs in self.s.even_paths(b, v):
            for x, y in pairs:
                out[x] = y
                out[y] = x

    def _pair_inside(self, b: int, x: int, y: int) -> bool | None:
        """x and y in blossom b: match them with b's vertex matched outside b kept; True, or
        None when this does not find it (another outside vertex for b might).

        Inside b the nodes are its outermost blossoms of positive dual and the vertices in
        none (blossoms of zero dual constrain nothing); the node of b's base is matched
        outside.  The blossoms of zero dual no longer describe the matching then: x-y must
        be made final, which dissolves b and, with it, every one of them inside it.
        """
        s = self.s
        parent, mate, dual = s.parent, s.mate, s.dual
        node: dict[int, int] = {}
        for v in s.verts[b]:
            c = outermost = v
            while parent[c] != b:
                c = parent[c]
                if dual[c] > 0:
                    outermost = c
            node[v] = outermost
        nx, ny = node[x], node[y]
        if nx == ny:
            return self._pair_inside(nx, x, y) if nx >= s.n else None
        e0 = node[s.base[b]]
        if e0 in (nx, ny):
            return None
        common = 0  # the duals of b and the blossoms around it count in every slack inside
        c = b
        while c >= 0:
            common += dual[c]
            c = parent[c]
        edges_of = self.edges_of

        def tight_inside(u: int) -> list[int]:
            du = dual[u] + 2 * common
            ys, w2 = edges_of(u)
            return [v for v, w in zip(ys, w2) if v in node and du + dual[v] == w]

        if y not in tight_inside(x):
            return None
        a = node[mate[self._base(nx)]]
        bb = node[mate[self._base(ny)]]
        changed: dict[int, Edge | None] = {nx: (x, y), ny: (y, x)}
        if a != ny:
            partner: dict[int, Edge | None] = {a: None, bb: None}
            found = self._search(
                a, {nx, ny, e0}, partner, node.__getitem__, tight_inside, perfect=True
            )
            if found is None or found.get(bb) is None:
                return None
            changed.update(found)
        self._commit(changed)
        return True

    def reachable_without(self, x: int) -> set[int] | None:
        """For a perfect matching: the nodes Y for which ``pair(x, y)`` finds its path, for
        any tight neighbour y of x in Y (while the matching does not change); None where
        this does not apply.

        Taking x-y leaves A, the node matched with x's node X, unmatched, and y's node Y
        loses its partner B; ``pair`` looks for an alternating path from A to B away from
        X and Y.  With Y's matched edge added at its end, that path is an even alternating
        path from A to Y in the graph without X, where A is the only unmatched node.  The
        nodes such paths reach are the outer nodes of one Edmonds search from A that finds
        no augmenting path (Gallai-Edmonds): one search answers every y, and ``pair(x, y)``
        is True exactly when y is a tight neighbour of x whose node is among them.
        """
        if self.broken or not self.perfect:
            return None
        s = self.s
        top = s.top
        X = top[x]
        a_vertex = s.mate[self._base(X)]
        if a_vertex < 0:
            return None
        A = top[a_vertex]
        reached: set[int] = set()
        found = self._search(A, {X}, {A: None}, top.__getitem__, self._tight_of, reached=reached)
        if found is not None:  # another node was unmatched: not a perfect matching
            return None
        return reached

    def pair_with_any(self, x: int, partners: Container[int]) -> bool | None:
        """Match x with one of the partners if an optimal matching does so (each partner joined
        to x by a tight edge is tried in turn)."""
        if self.broken:
            return None
        X = self.s.top[x]
        # a partner in x's own node: a question about the inside of a blossom
        undecided = X >= self.s.n and any(y in partners for y in self._vertices(X) if y != x)
        for y in self.tight_neighbours(x):
            if y in partners:
                verdict = self.pair(x, y)
                if verdict:
                    return True
                undecided = undecided or verdict is None
        return None if undecided else False

    def remove_pair(self, x: int, y: int) -> None:
        """x and y are paired for good and leave the graph (the caller marks them removed)."""
        s = self.s
        if self.broken or s.mate[x] != y or s.top[x] == s.top[y]:
            self.broken = self.broken or s.top[x] == s.top[y] or s.mate[x] != y
            return
        if s.top[x] != x or s.top[y] != y:
            self._lifts += 1
            s.lift(x)
            s.lift(y)

    # -- Edmonds' search between nodes --------------------------------------------------------

    def _matched(self, node: int, partner: dict[int, Edge | None]) -> Edge | None:
        """The edge that matches the node outside itself (own vertex first), or None."""
        if node in partner:
            return partner[node]
        b = self._base(node)
        m = self.s.mate[b]
        return (b, m) if m >= 0 else None

    def _search(
        self, root: int, excluded: set[int], partner: dict[int, Edge | None],
        node_of: Callable[[int], int], tight: Callable[[int], list[int]],
        perfect: bool | None = None, reached: set[int] | None = None,
    ) -> dict[int, Edge | None] | None:
        """An alternating path from the unmatched node root to a node that may be left single
        or is single: the new matching edges of its nodes (None for one left single).  When
        there is none, ``reached`` (if given) receives the outer nodes of the search.

        Edmonds' search, breadth first, as in the usual array form: ``parent`` of an inner
        node is the outer node that reached it; a tight edge between two outer nodes closes
        an odd cycle, whose nodes all become outer, with ``parent`` set along the cycle so
        that the path from any of them back to the root can be read off.
        """
        s = self.s
        top, mate, n, base_arr = node_of, s.mate, s.n, s.base
        perfect = self.perfect if perfect is None else perfect
        may_stay_single = None if perfect else self._may_stay_single
        outer = {root}
        parent: dict[int, int] = {}
        via: dict[int, Edge] = {}  # node -> edge (own vertex, vertex of parent[node])
        sbase: dict[int, int] = {}  # node -> base of the shrunk cycle holding it
        members: dict[int, list[int]] = {}
        mnode: dict[int, int] = {}

        def mate_node(node: int) -> int:
            m = mnode.get(node)
            if m is None:
                if node in partner:
                    e = partner[node]
                    m = -1 if e is None else top(e[1])
                else:
                    x = mate[node if node < n else base_arr[node]]
                    m = top(x) if x >= 0 else -1
                mnode[node] = m
            return m

        def lca(a: int, b: int) -> int:
            seen = set()
            while True:
                a = sbase.get(a, a)
                seen.add(a)
                m = mate_node(a)
                if m < 0:
                    break
                a = parent[m]
            while True:
                b = sbase.get(b, b)
                if b in seen:
                    return b
                b = parent[mate_node(b)]

        def mark_path(v: int, b: int, child: int, edge: Edge, cycle: set[int]) -> None:
            while sbase.get(v, v) != b:
                m = mate_node(v)
                cycle.add(sbase.get(v, v))
                cycle.add(sbase.get(m, m))
                parent[v] = child
                via[v] = edge
                child = m
                edge = (via[m][1], via[m][0])  # m was reached from parent[m]
                v = parent[m]

        queue = deque([root])
        while queue:
            v = queue.popleft()
            mv = mate_node(v)
            for u in (v,) if v < n else s.verts[v]:
                for w in tight(u):
                    t = top(w)
                    if t == mv or t in excluded:
                        continue
                    bt = sbase.get(t, t)
                    if sbase.get(v, v) == bt:
                        continue
                    mt = mate_node(t)
                    if t == root or (mt >= 0 and mt in parent):
                        # an edge between two outer nodes: shrink the odd cycle it closes
                        b = lca(v, t)
                        cycle: set[int] = set()
                        mark_path(v, b, t, (u, w), cycle)
                        mark_path(t, b, v, (w, u), cycle)
                        group = members.setdefault(b, [b])
                        for old in cycle:
                            if old == b:
                                continue
                            for node in members.pop(old, [old]):
                                sbase[node] = b
                                group.append(node)
                                if node not in outer:
                                    outer.add(node)
                                    queue.append(node)
                                    if may_stay_single and node != root and may_stay_single(node):
                                        return self._flip_to(node, parent, via, partner, top)
                    elif t not in parent:
                        parent[t] = v
                        via[t] = (w, u)
                        if mt < 0:
                            return self._augment(t, parent, via, partner, top)
                        outer.add(mt)
                        queue.append(mt)
                        if may_stay_single and may_stay_single(mt):
                            return self._flip_to(mt, parent, via, partner, top)
        if reached is not None:
            reached.update(outer)
        return None

    def _augment(
        self, t: int, parent: dict[int, int], via: dict[int, Edge],
        partner: dict[int, Edge | None], node_of: Callable[[int], int],
        found: dict[int, Edge | None] | None = None,
    ) -> dict[int, Edge | None]:
        """The new matching edges along the path from t (single) back to the root."""
        found = {} if found is None else found
        v = t
        while v >= 0:
            pv = parent[v]
            own, other = via[v]  # own in v, other in pv
            old = found[pv] if pv in found else self._matched(pv, partner)
            found[v] = (own, other)
            found[pv] = (other, own)
            v = -1 if old is None else node_of(old[1])
        return found

    def _flip_to(
        self, o: int, parent: dict[int, int], via: dict[int, Edge],
        partner: dict[int, Edge | None], node_of: Callable[[int], int],
    ) -> dict[int, Edge | None]:
        """The even path from the outer node o back to the root: o is left single."""
        m = self._matched(o, partner)
        assert m is not None
        return self._augment(node_of(m[1]), parent, via, partner, node_of, {o: None})

    def _commit(self, changed: dict[int, Edge | None]) -> None:
        """Re-match the solver: each changed node gets its new outside edge (re-based at its
        own vertex of it) or is left single at a vertex of zero dual."""
        s = self.s
        ends: list[Edge] = []
        touched = self.touched = []
        for node, edge in changed.items():
            touched.extend(self._vertices(node))
            if edge is None:
                single = next(v for v in self._vertices(node) if s.dual[v] == 0)
                if node >= s.n:
                    s.augment_blossom(node, single)
                s.mate[single] = -1
            else:
                if node >= s.n:
                    s.augment_blossom(node, edge[0])
                ends.append(edge)
        for own, other in ends:
            s.mate[own] = other
