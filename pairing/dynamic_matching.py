"""Maximum weight perfect matching of a graph that changes a little between solves.

``DynamicMatcher(n)`` holds a graph on the vertices 0..n-1 and its current maximum weight
perfect matching with optimal duals.  ``set_weight(u, v, w)`` adds, re-weighs or (with
``w=None``) removes an edge; ``remove_vertex(v)`` takes a vertex and its edges out for good;
``solve()`` returns ``mate`` for the graph as it now is, or raises ``NoPerfectMatching``.

Why.  The Dutch engine asks for hundreds of matchings per round over the same players, and
between two of them only a few vertices change partner.  Solving from scratch costs the whole
graph every time; this matcher starts from the previous optimum instead (a warm start).

Method.  The solver is the primal-dual blossom algorithm of ``pairing.matching``.  Between
solves its state satisfies the optimality conditions: every edge has a non-negative slack,
matched edges and the edges holding blossoms together are tight, blossom duals are >= 0.  A
change that keeps these conditions (an unmatched edge between two top-level blossoms whose
slack stays >= 0) costs nothing.  A matched vertex outside every blossom may keep its mate
when moving its own dual alone (the matched edge tight again) leaves all its edges feasible.
Otherwise one end of the edge is *freed* (the end with the most changes):

* each blossom holding the vertex is dissolved, top-down; adding the blossom's dual z to the
  (doubled) dual of each of its vertices keeps the slack of every edge inside it and raises
  the slack of the edges leaving it by z, so the conditions hold again except for the one
  matched edge leaving the blossom's base, which is unmatched (its ends are freed in turn);
* the vertex is unmatched from its mate, which is freed too;
* a freed vertex gets the smallest dual that keeps all its edges feasible (rounded up to an
  even number: in the algorithm, two trees can only meet on an edge of even slack if every
  root starts with the same parity).

A vertex freed on the way (a mate, or a base left single) has no changed edge: when it is the
base of a blossom, the blossom stays whole and single, and the run grows a tree from it (its
vertex duals made even through the blossom's dual, see ``_even``).  The large blossom an odd
bracket builds is then not built again by every run that frees its base's mate.

The blossom algorithm then grows alternating trees from the freed vertices only.  For a
perfect matching the duals of single vertices are free (no delta_1 of Galil's survey), so the
run needs nothing else from the earlier state; it ends with a perfect matching, optimal for
the new weights, or with single vertices left, which proves that no perfect matching exists.

Large changes.  A change that would free more than n / BULK_SHARE vertices is solved from
scratch instead, on the certified sparse subgraph of ``pairing.matching``, and the solver's
final state is kept.  A new bracket re-weighs all its pairs in one call (``replace_region``):
the edge lists are filtered and solved from scratch, without a per-pair change.  With a
``margin``, only a change of some weight by the margin or more counts as large: the Dutch
engine's generation order moves many weights by small amounts, which a warm run settles
faster.

Dormant edges.  After a solve from scratch, an edge whose slack is at least ``margin`` is kept
out of the solver: the warm runs do not scan it.  Such an edge stays feasible, and not tight,
while no vertex dual falls by half the smallest such slack (a dual that falls by d takes at
most d off the slack of its edges; blossom duals only add slack).  After every solve the
largest fall is compared with that bound; past it, every dormant edge is looked at again and
those whose slack fell under the margin go back to the solver (the infeasible ones as changes,
and the solve goes on).  A perfect matching is therefore optimal for the whole graph (LP
duality), and the optimal matchings are those of the tight edges among the solver's ones.

Sleeping pairs.  ``sleep`` gives pairs the matcher knows by classes only
(``pairing.sleeping_pairs``): the solver never holds them until, after a solve, the duals
leave one infeasible; then it is woken (held from then on) and the solve goes on.  So the
answer is optimal for the whole graph.  Only the pairs of a vertex whose dual fell since the
last check are looked at again (blossom duals move with their vertices' duals); a solve from
scratch checks them all.  Their tight ones join the tight edges the questions are asked of.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Container, Iterable, Iterator
from itertools import chain, compress, count, repeat
from operator import add, and_, eq, ge, is_, is_not, lshift, lt, ne, not_, or_, sub

from pairing.errors import PairingError
from pairing.matching import (
    _FREE,
    _GONE,
    CANDIDATES_PER_VERTEX,
    VIOLATED_PER_VERTEX,
    _Blossom,
    _heaviest_per_vertex,
)
from pairing.sleeping_pairs import SleepingPairs
from pairing.tight_graph import TightGraph

__all__ = ["DynamicMatcher", "NoPerfectMatching"]


BULK_SHARE = 16
"""Changes that would free more than n / BULK_SHARE vertices are solved from scratch."""

BULK_LISTS = 4096
"""``set_weight_lists`` makes the quiet changes of at least this many pairs at C speed."""

_UNSET = object()  # no pending weight (None is one: the edge is taken out)

FAR_BITS = 32
"""A removed vertex's (doubled) dual is 2**FAR_BITS times the heaviest weight and the vertex
count, above any other dual: no edge of it is ever tight (``_drop_vertices``)."""


_SOLVER_EDGES = frozenset({"eu", "ev", "ew", "nbr", "inc"})
"""The solver's edge lists, which a run does not change (``DynamicMatcher.solve_without``)."""


class NoPerfectMatching(PairingError):
    """The graph as it now is has no perfect matching (on the vertices not removed)."""


def _fit_duals(solver: _Blossom) -> None:
    """Starting duals for a perfect matching: as low as keeps every edge feasible.

    Each (doubled) vertex dual starts at the largest weight of its edges, rounded up to an
    even number (d_u + d_v >= 2w holds); then, vertex by vertex, it falls to the least value
    its edges allow, which makes at least one of them tight.  Every dual stays even, as the
    roots of a run for a perfect matching need.  Many pairs are tight from the start and
    are matched along short paths before any tree grows.
    """
    dual, nbr, inc, ew = solver.dual, solver.nbr, solver.inc, solver.ew
    for x in range(solver.n):
        top = max(map(ew.__getitem__, inc[x]), default=0)
        dual[x] = top + (top & 1)
    for x in range(solver.n):
        if inc[x]:
            dual[x] = max(2 * ew[k] - dual[y] for y, k in zip(nbr[x], inc[x]))


class DynamicMatcher:
    """A graph with its maximum weight perfect matching, kept up to date (warm starts)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._s = _Blossom(n, [], [], [])
        self._index: dict[tuple[int, int], int] = {}  # edges in the solver: key -> edge id
        self.margin: int | None = None
        """Edges whose slack is at least the margin after a solve from scratch stay dormant:
        known here, feasible under the duals, not scanned by the solver (None: none)."""
        self._dadj: list[dict[int, int]] = [{} for _ in range(n)]  # dormant: row[y] = weight
        self._cert = [0] * n  # the duals under which the dormant edges were certified
        self._floor = 0  # every dormant edge's slack under _cert is at least this
        self._dense_next = False  # the next solve from scratch keeps no edge dormant
        self._spare: list[int] = []  # edge ids free for reuse
        self._removed = [False] * n
        self._pending: dict[tuple[int, int], int | None] = {}
        # some pending change adds an edge or moves a weight by the margin or more (taking
        # edges out, as the generation order does with the pairs it rules out, never does:
        # the warm run settles that)
        self._large = False
        self._pending_removal: list[int] = []
        self._loose: set[int] = set()  # raised duals: matched edges to look at again
        self._suggested: list[tuple[int, int]] = []  # candidates for the next fresh solve
        self._structural: set[tuple[int, int]] | None = None  # cycle edges of the blossoms
        self._slot: list[int] = []  # 2k, 2k+1: where edge k sits in inc[eu[k]], inc[ev[k]]
        self._slots_stale = False  # _slot needs _find_slots (``_drop_many``)
        self._fresh = True  # the next solve starts from scratch (nothing solved yet)
        # replace_region waiting for the next solve: region and settled masks, new edges
        self._replacement: tuple[bytearray, bytearray, list[int], list[int], list[int]] | None
        self._replacement = None
        self._graph: TightGraph | None = None  # the tight edges of the last solve, when asked
        self._heaviest = 0  # the heaviest weight given so far
        self._far = 0  # the dual of the removed vertices (``_drop_vertices``)
        self._sleep: SleepingPairs | None = None  # pairs not held, certified (``sleep``)
        self._set_aside: set[tuple[int, int]] = set()  # sleeping pairs given a weight since
        self._woken: list[tuple[int, int]] = []  # sleeping pairs woken since (held now)
        self._sleep_cert: list[int] | None = None  # duals the sleeping pairs were checked with
        self._tables: tuple[list[int], list[list[int]]] | None = None  # ``_common_duals``
        self._risen = 0  # how far a vertex dual may have risen since the sleeping pairs' sort

    # -- changes (applied by the next solve) ----------------------------------------------

    def set_weight(self, u: int, v: int, weight: int | None) -> None:
        """Give the edge u-v this weight (an int), or remove it (None)."""
        self.set_weights(((u, v, weight),))

    def set_weights(self, edges: Iterable[tuple[int, int, int | None]]) -> None:
        """``set_weight`` for each (u, v, weight) in turn (a new bracket sets tens of
        thousands of weights at once)."""
        if self._replacement is not None:
            self._fold_replacement()
        n, pending, index, ew, dadj = self.n, self._pending, self._index, self._s.ew, self._dadj
        unset = _UNSET
        margin, large, removed = self.margin, self._large, self._removed
        heaviest = self._heaviest
        sleep, aside = self._sleep, self._set_aside
        for u, v, weight in edges:
            key = (u, v) if u < v else (v, u)
            if u == v or key[0] < 0 or key[1] >= n:
                raise ValueError(f"bad edge ({u}, {v})")
            if removed[u] or removed[v]:
                continue  # a removed vertex has no edge (its old ones wait to be swept)
            current = pending.get(key, unset)
            if current is unset:
                k = index.get(key)
                current = dadj[u].get(v) if k is None else ew[k]
                if current is None and k is None and sleep is not None and key not in aside:
                    current = sleep.weight(*key)
                    if current is not None and current != weight:
                        aside.add(key)  # its weight is the one given from now on
                elif (
                    weight is None and current is not None and sleep is not None
                    and key not in aside and sleep.weight(*key) is not None
                ):
                    aside.add(key)  # a held pair taken out does not fall asleep
            if current != weight:
                pending[key] = weight
                if weight is not None and weight > heaviest:
                    heaviest = weight
                if not large and weight is not None and (
                    current is None or margin is None or abs(weight - current) >= margin
                ):
                    large = True
        self._large = large
        self._weigh_up(heaviest)

    def set_weight_lists(self, us: list[int], vs: list[int], ws: list[int | None]) -> None:
        """``set_weights`` for the edges (us[i], vs[i], ws[i]), each pair at most once: a
        bracket's generation order re-weighs or takes out a million pairs.

        A change of an edge the solver holds, neither matched nor a cycle edge of a
        blossom, that leaves the vertex duals covering it, keeps the optimality conditions:
        it is made at once, at C speed (an edge taken out leaves its lists in one pass per
        vertex, ``_drop_many``); so is a change of a dormant edge that leaves it dormant
        (``_reweigh_dormant``).  The other changes wait for the next solve, as
        ``set_weights`` leaves them."""
        if self._replacement is not None or self._fresh or len(us) < BULK_LISTS:
            self.set_weights(zip(us, vs, ws))
            return
        s, n = self._s, self.n
        if not all(map(lt, us, vs)):
            us, vs = list(map(min, us, vs)), list(map(max, us, vs))
        if min(us) < 0 or max(vs) >= n or any(map(eq, us, vs)):
            raise ValueError("bad edge lists")
        removed, index, pending = self._removed.__getitem__, self._index, self._pending
        keys = list(zip(us, vs))
        ks = list(map(index.get, keys))
        at_dual = s.dual.__getitem__
        # held by the solver, both ends still in the graph, not waiting to change already
        fast = map(and_, map(is_not, ks, repeat(None)),
                   map(not_, map(or_, map(removed, us), map(removed, vs))))
        if pending:
            fast = map(and_, fast, map(not_, map(pending.__contains__, keys)))
        # not matched, not holding a blossom together (``_conflicts``)
        fast = map(and_, fast, map(ne, map(s.mate.__getitem__, us), vs))
        structural = {
            (x, y) if x < y else (y, x)
            for c in range(s.n, 2 * s.n) if s.base[c] >= 0 for x, y in s.bedges[c]
        }
        if structural:
            fast = map(and_, fast, map(not_, map(structural.__contains__, keys)))
        fast = list(fast)
        dropping = list(map(is_, ws, repeat(None)))
        cut = list(compress(count(), map(and_, fast, dropping)))
        weighed = list(compress(count(), map(and_, fast, map(not_, dropping))))
        # a re-weighed edge stays feasible: d_u + d_v >= 2w (the duals of the blossoms
        # holding both ends only add to the left)
        covered = list(map(ge, map(add, map(at_dual, map(us.__getitem__, weighed)),
                                    map(at_dual, map(vs.__getitem__, weighed))),
                           map(lshift, map(ws.__getitem__, weighed), repeat(1))))
        quiet = list(compress(weighed, covered))
        if quiet:
            self._graph = None  # the tight edges may change
            new = list(map(ws.__getitem__, quiet))
            deque(map(s.ew.__setitem__, map(ks.__getitem__, quiet), new), maxlen=0)
            self._weigh_up(max(new))
        if cut:
            self._graph = None
            cut_keys = list(map(keys.__getitem__, cut))
            if self._sleep is not None:
                # a held pair taken out does not fall asleep (``set_weights``)
                aside, asleep = self._set_aside, self._sleep.weights_of(cut_keys)
                aside.update(key for key, w in zip(cut_keys, asleep)
                             if w is not None and key not in aside)
            self._drop_many(list(map(ks.__getitem__, cut)), cut_keys)
        done = bytearray(len(us))
        for i in chain(quiet, cut):
            done[i] = 1
        if any(self._dadj):
            self._reweigh_dormant(us, vs, ws, ks, done)
        rest = list(compress(count(), map(not_, done)))
        if rest:
            self.set_weights(zip(map(us.__getitem__, rest), map(vs.__getitem__, rest),
                                 map(ws.__getitem__, rest)))

    def _reweigh_dormant(
        self, us: list[int], vs: list[int], ws: list[int | None], ks: list[int | None],
        done: bytearray,
    ) -> None:
        """The part of ``set_weight_lists`` for dormant edges: one taken out, or re-weighed
        and still dormant (``_stays_dormant``), needs nothing else; each is marked done."""
        dadj, removed, pending, cert = self._dadj, self._removed, self._pending, self._cert
        margin = self.margin
        assert margin is not None  # (no edge is dormant without one)
        sleep, aside = self._sleep, self._set_aside
        floor = self._floor
        for i in compress(count(), map(is_, ks, repeat(None))):
            u, v = us[i], vs[i]
            row = dadj[u]
            current = row.get(v)
            if current is None or removed[u] or removed[v] or (u, v) in pending:
                continue
            weight = ws[i]
            if weight is None:
                if sleep is not None and (u, v) not in aside and sleep.weight(u, v) is not None:
                    aside.add((u, v))  # a held pair taken out does not fall asleep
                del row[v]
                del dadj[v][u]
            else:
                slack = cert[u] + cert[v] - 2 * weight
                if 2 * slack < margin:
                    continue
                row[v] = dadj[v][u] = weight
                floor = min(floor, slack)
                if weight > self._heaviest:
                    self._weigh_up(weight)
            done[i] = 1
        self._floor = floor

    def _drop_many(self, ks: list[int], keys: list[tuple[int, int]]) -> None:
        """Take the solver edges ks (keyed by ``keys``) out: each end's lists are filtered
        once; where each edge sits in them is found again when next needed (``_unlist``)."""
        s = self._s
        dead = bytearray(len(s.eu))
        for k in ks:
            dead[k] = 1
        ends = set(map(s.eu.__getitem__, ks))
        ends.update(map(s.ev.__getitem__, ks))
        nbr, inc, at_dead = s.nbr, s.inc, dead.__getitem__
        for a in ends:
            alive = list(map(not_, map(at_dead, inc[a])))
            nbr[a] = list(compress(nbr[a], alive))
            inc[a] = list(compress(inc[a], alive))
        deque(map(self._index.__delitem__, keys), maxlen=0)
        ew = s.ew
        for k in ks:
            ew[k] = 0
        self._spare.extend(ks)
        self._slots_stale = True

    def _weigh_up(self, heaviest: int) -> None:
        """Note the heaviest weight so far; the duals of the removed vertices stay above
        every other dual (``_drop_vertices``)."""
        if heaviest <= self._heaviest:
            return
        self._heaviest = heaviest
        far = heaviest * self.n << FAR_BITS
        if self._far and far > self._far:
            s, removed = self._s, self._removed
            for v in range(self.n):
                if removed[v] and s.label[v] == _GONE:
                    s.dual[v] = far
            self._far = far

    def weight(self, u: int, v: int) -> int | None:
        if self._replacement is not None:
            self._fold_replacement()
        key = (u, v) if u < v else (v, u)
        if self._removed[u] or self._removed[v]:
            return None
        if key in self._pending:
            return self._pending[key]
        k = self._index.get(key)
        if k is not None:
            return self._s.ew[k]
        weight = self._dadj[u].get(v)
        if weight is None and self._sleep is not None and key not in self._set_aside:
            return self._sleep.weight(*key)
        return weight

    def edges(self) -> list[tuple[int, int, int]]:
        """The edges (u, v, weight) as they are after the pending changes."""
        if self._replacement is not None:
            self._fold_replacement()
        return [(u, v, w) for (u, v), w in self._edges_after_changes().items()]

    def sleep(self, pairs: SleepingPairs | None) -> None:
        """Let these pairs sleep: the graph has them, with their weights, but the solver
        does not hold them until the duals leave one infeasible (``pairing.sleeping_pairs``).
        A pair held (given a weight, or woken) is the matcher's from then on.  Comes after the
        ``replace_region`` whose pairs it describes; replaces the pairs that slept before."""
        self._sleep = pairs
        self._set_aside = set()
        self._woken = []
        self._sleep_cert = None
        self._graph = None

    def woken(self) -> list[tuple[int, int]]:
        """The sleeping pairs woken since ``sleep`` (the solver holds them with the weights
        those pairs gave them): a caller that lets other pairs sleep with other weights
        gives them theirs."""
        return self._woken[:]

    def _holds(self, u: int, v: int) -> bool:
        """Whether the pair u < v is the matcher's, not the sleeping layer's."""
        key = (u, v)
        return key in self._set_aside or key in self._index or v in self._dadj[u]

    def _common_duals(self, u: int, v: int) -> int:
        """Twice the duals of the blossoms holding both u and v (decoded duals), from the
        solver's range-minimum tables (built once per check)."""
        s = self._s
        if s.top[u] != s.top[v] or s.top[u] == u:
            return 0
        if self._tables is None:
            self._tables = s._common_dual_tables()
        pos, table = self._tables
        a, b = pos[u], pos[v]
        if a > b:
            a, b = b, a
        j = (b - a).bit_length() - 1
        row = table[j]
        return 2 * min(row[a], row[b - (1 << j)])

    def _wake_violated(self, per_class: int) -> bool:
        """Check the sleeping pairs against the duals; wake the infeasible ones (pending
        changes).  Only the pairs of a vertex whose dual fell since the last check can have
        become infeasible.  Returns whether any was woken (the solve must go on)."""
        sleep = self._sleep
        if sleep is None:
            return False
        s, n = self._s, self.n
        dual = s.dual
        positive = [b for b in range(n, 2 * n) if s.base[b] >= 0 and dual[b] > 0]
        sleep.sort(dual, self._removed, s.top, s.parent, s.verts, positive)
        self._risen = 0
        cert = self._sleep_cert
        fallen = None if cert is None else list(compress(count(), map(lt, dual, cert)))
        if fallen is not None and len(fallen) * 4 > n:
            fallen = None  # most duals fell: class pair by class pair is quicker
        found = sleep.violated(self._holds, fallen, per_class) if fallen != [] else []
        if not found:
            self._sleep_cert = dual[:n]
            return False
        aside, pending = self._set_aside, self._pending
        for u, v, weight in found:
            aside.add((u, v))
            pending[(u, v)] = weight
            self._woken.append((u, v))
        self._large = True
        return True

    def remove_vertex(self, v: int) -> None:
        """Take v and all its edges out of the graph."""
        self._pending_removal.append(v)

    def suggest(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Offer pairs to the next solve from scratch, besides the heaviest edges of each
        vertex: a guess at pairs of an optimal matching that those miss (players whose
        heaviest edges all lead elsewhere).  Only the speed depends on the guess."""
        self._suggested.extend((u, v) if u < v else (v, u) for u, v in pairs)

    def replace_region(
        self, region: Iterable[int], settled: Iterable[int],
        us: list[int], vs: list[int], ws: list[int],
    ) -> None:
        """Replace every edge between two vertices of the region, except between two
        settled ones, by the edges (us[i], vs[i], ws[i]) (each joins two region vertices,
        not both settled, with an int weight; a pair not listed has no edge).

        A new bracket re-weighs all its pairs at once: the next solve starts from scratch,
        from these lists, without handling the pairs one by one.  Changes made before are
        applied first; a change made after it (or a question about a weight) turns it into
        changes pair by pair first (``_fold_replacement``, rare).
        """
        in_region = bytearray(self.n)
        for v in region:
            in_region[v] = 1
        is_settled = bytearray(self.n)
        for v in settled:
            is_settled[v] = 1
        if all(map(lt, us, vs)):
            low, high = list(us), list(vs)
        else:
            low, high = list(map(min, us, vs)), list(map(max, us, vs))
        at_region, at_settled = in_region.__getitem__, is_settled.__getitem__
        if low and (
            any(map(eq, low, high)) or min(low) < 0 or max(high) >= self.n
            or not all(map(at_region, low)) or not all(map(at_region, high))
            or any(map(and_, map(at_settled, low), map(at_settled, high)))
        ):
            for u, v in zip(us, vs):  # name the first wrong edge
                if u == v or not 0 <= min(u, v) or max(u, v) >= self.n:
                    raise ValueError(f"bad edge ({u}, {v})")
                if not (in_region[u] and in_region[v]) or (is_settled[u] and is_settled[v]):
                    raise ValueError(f"edge ({u}, {v}) outside the replaced pairs")
        if self._replacement is not None:
            self._fold_replacement()
        self._replacement = (in_region, is_settled, low, high, list(ws))
        self._weigh_up(max(ws, default=0))
        if self._pending:
            self._fold_replacement()

    def _fold_replacement(self) -> None:
        """Turn the waiting ``replace_region`` into pending changes, pair by pair."""
        assert self._replacement is not None
        _, _, us, vs, ws = self._replacement
        old = list(self._edges_after_changes())
        replaced = [
            key for key, kept in zip(old, self._kept_by_replacement(
                [u for u, _ in old], [v for _, v in old]
            )) if not kept
        ]
        self._replacement = None
        given = set(zip(us, vs))
        self.set_weights((u, v, None) for (u, v) in replaced if (u, v) not in given)
        removed = self._removed
        self.set_weights(
            (u, v, w) for u, v, w in zip(us, vs, ws) if not (removed[u] or removed[v])
        )

    def raise_duals(self, amounts: dict[int, int]) -> None:
        """Add amounts[v] (even, >= 0) to the (doubled) dual of each vertex v.

        A hint for changes about to raise the weights of v's edges: raised by up to half the
        amount, they stay feasible, and the next solve need not free their ends.  Every edge
        stays feasible (slack only grows); the next solve looks again at each raised
        vertex's matched edge (``_keep_mates`` lowers the dual back where that keeps the
        mate, else the vertex is freed).  A vertex inside blossoms leaves them first
        (``_dissolve``), which leaves two vertices single per blossom of positive dual.
        """
        if self._fresh:
            return  # the next solve starts from scratch: there is nothing to keep
        self._graph = None
        s = self._s
        for v, amount in amounts.items():
            if amount < 0 or amount & 1:
                raise ValueError(f"a dual can only be raised by an even amount, not {amount}")
            if amount and not self._removed[v]:
                # out of its blossoms first (their cycle edges would lose their tightness);
                # the vertices this leaves single are roots of the next solve
                self._dissolve(v)
                s.dual[v] += amount
                self._loose.add(v)

    # -- choosing among optimal matchings ------------------------------------------------

    def pair_if_optimal(self, x: int, y: int) -> bool | None:
        """Match x with y if a maximum weight perfect matching pairs them; say whether one does.

        Between solves (no weight changed since) the duals are optimal, and the optimal
        matchings are those of the tight edges that complementary slackness allows
        (``pairing.tight_graph``): they are searched with no solve.  Returns True (x and y
        are now matched), False (no optimal matching pairs them) or None (undecided: a weight
        changed since the solve, a final pair lay inside a blossom, or x and y are in one
        blossom; re-weigh and ``solve`` instead).
        """
        graph = self.tight_graph()
        return None if graph is None else graph.pair(x, y)

    def pair_with_any_if_optimal(self, x: int, partners: Container[int]) -> bool | None:
        """Match x with one of the partners if a maximum weight perfect matching does so.

        Returns True (x is now matched with one of them), False (no optimal matching does
        it) or None (undecided: re-weigh and ``solve`` instead).
        """
        graph = self.tight_graph()
        return None if graph is None else graph.pair_with_any(x, partners)

    def mates(self) -> list[int]:
        """The current mate of every vertex (-1: removed), as the last change left it."""
        return self._s.mate[:]

    def tight_graph(self) -> TightGraph | None:
        """The tight edges of the current optimum, once the pending removals are applied;
        None while a change waits for a solve."""
        if (
            self._pending or self._fresh or self._loose or self._replacement is not None
            or not self._settle_removals()
        ):
            return None
        if self._graph is None:
            self._graph = TightGraph(
                self._s, self._edges_of, self._removed.__getitem__, perfect=True
            )
        return None if self._graph.broken else self._graph

    def _edges_of(self, u: int) -> tuple[list[int], list[int]]:
        """The neighbours of u in the solver and the doubled weights of those edges."""
        s = self._s
        ys, w2 = s.nbr[u], list(map(lshift, map(s.ew.__getitem__, s.inc[u]), repeat(1)))
        if self._sleep is None:
            return ys, w2
        # the sleeping pairs that may be tight: a slack under the vertex duals of at most
        # the doubled duals of the blossoms holding u
        dual, parent = s.dual, s.parent
        extra = 0
        b = parent[u]
        while b >= 0:
            extra += 2 * dual[b]
            b = parent[b]
        more, more_w2 = self._sleep.tight(
            u, dual, extra, self._risen, self._holds, self._removed
        )
        return ys + more, w2 + more_w2

    def _settle_removals(self) -> bool:
        """Apply pending removals of pairs matched together; whether none is left.

        A pair matched across blossoms leaves them (``TightGraph.remove_pair``); a pair
        inside one blossom waits for the next solve.
        """
        s = self._s
        pending = [v for v in self._pending_removal if not self._removed[v]]
        if not pending:
            self._pending_removal.clear()
            return True
        gone = set(pending)
        mate, top = s.mate, s.top
        if any(mate[v] not in gone or top[v] == top[mate[v]] for v in pending):
            return False
        if any(top[v] != v for v in pending):
            if self._graph is None:
                self._graph = TightGraph(
                    s, self._edges_of, self._removed.__getitem__, perfect=True
                )
            parent, dual = s.parent, s.dual
            for v in pending:
                if v < mate[v]:
                    # a blossom lifted passes its dual to its vertices (``_edges_of``)
                    for x in (v, mate[v]):
                        b = parent[x]
                        while b >= 0:
                            self._risen += dual[b]
                            b = parent[b]
                    self._graph.remove_pair(v, mate[v])
        self._drop_vertices(pending)
        self._pending_removal.clear()
        return True

    def waiting(self) -> bool:
        """Whether changes of weights wait for the next solve."""
        return bool(self._pending or self._loose) or self._replacement is not None

    def solve_without(self, gone: list[int]) -> tuple[list[int], list[int]] | None:
        """The mates of the current optimum and of a maximum weight perfect matching of the
        graph without the vertices ``gone``, the matcher left as it was (a trial: the engine's
        explanation asks what taking a pair out of the optimum costs).

        A warm run from the current optimum, as ``solve`` after ``remove_vertex``, then every
        part of the state that the run may change is put back.  None when that cannot tell:
        changes wait for a solve, a vertex is already removed, no perfect matching is left,
        or a dual fell so far that the dormant edges or the sleeping pairs would have to be
        looked at again.
        """
        if (
            self._pending or self._fresh or self._loose or self._replacement is not None
            or not self._settle_removals()
        ):
            return None
        removed = self._removed
        if len(set(gone)) != len(gone) or any(removed[v] for v in gone):
            return None
        s = self._s
        before = s.mate[:]
        kept_lists = [
            (name, value, value[:]) for name, value in vars(s).items()
            if type(value) is list and name not in _SOLVER_EDGES
        ]
        kept_ints = [(name, value) for name, value in vars(s).items() if type(value) is int]
        kept_removed, kept_rows = removed[:], [(v, self._dadj[v]) for v in gone]
        far, graph = self._far, self._graph
        try:
            self._pending_removal.extend(gone)
            self._solve_warm()
            after: list[int] | None = s.mate[:]
            live = [x for x in range(self.n) if not removed[x]]
            if any(s.mate[x] < 0 for x in live):
                after = None
            elif any(self._dadj):
                fall = max(self._cert[x] - s.dual[x] for x in live)
                if 2 * fall >= self._floor and not self._dormant_feasible():
                    after = None  # a dormant edge would have to join (``_recertify``)
            if after is not None and not self._sleeping_feasible():
                after = None  # a sleeping pair would have to wake (``_wake_violated``)
        finally:
            for name, value, copy in kept_lists:
                value[:] = copy
                setattr(s, name, value)
            for name, number in kept_ints:
                setattr(s, name, number)
            for inner in s.members:
                inner.clear()  # empty between runs (``_tidy``); the run added to them
            removed[:] = kept_removed
            for v, row in kept_rows:
                self._dadj[v] = row
            self._pending_removal.clear()
            self._far, self._graph, self._structural = far, graph, None
        return None if after is None else (before, after)

    # -- solving ---------------------------------------------------------------------------

    def solve(self) -> list[int]:
        """Return mate (-1 for removed vertices) of a maximum weight perfect matching."""
        self._graph = None  # the duals are about to change
        per_class = VIOLATED_PER_VERTEX
        woken = False
        while True:
            if not woken and (
                self._fresh or self._replacement is not None or self._bulk_change()
            ):
                # a change of most edges (a new bracket): solve from scratch right away,
                # without first storing each change in the solver
                self._solve_bulk()
            else:
                self._solve_warm()  # (woken pairs: the duals are near optimal already)
            woken = False
            if self._recertify():
                continue  # some dormant edges were shown to the solver: solve again
            if self._wake_violated(per_class):
                per_class *= 2
                woken = True
                continue  # some sleeping pairs were infeasible: solve again
            s = self._s
            removed = self._removed
            single = [v for v in range(self.n) if s.mate[v] < 0 and not removed[v]]
            if not single:
                return s.mate[:]
            self._restart()
            if any(self._dadj) or self._wake_all_sleeping():
                # a perfect matching may need dormant edges: solve with all of them
                self._wake_all()
                continue
            raise NoPerfectMatching(f"{len(single)} vertices cannot be matched")

    def _solve_warm(self) -> None:
        """Apply the pending changes to the current optimum and grow trees from the vertices
        they free."""
        s = self._s
        dadj = self._dadj
        self._structural = None  # the blossoms are those of the last solve
        to_free: set[int] = set()
        conflicts: list[tuple[int, int]] = []
        for v in self._pending_removal:
            if not self._removed[v]:
                to_free.add(v)
        keys = list(self._pending)
        weights = list(self._pending.values())
        solver_edges = list(map(self._index.get, keys))
        for i in self._reweighed_quietly(keys, weights, solver_edges):
            (u, v), weight, k = keys[i], weights[i], solver_edges[i]
            if k is None and v in dadj[u]:
                del dadj[u][v]
                del dadj[v][u]
                if weight is not None and self._stays_dormant(u, v, weight):
                    continue
            if k is not None and weight is not None and s.ew[k] == weight:
                continue
            if self._conflicts(u, v, k, weight):
                conflicts.append((u, v))
            self._store(u, v, k, weight)
        # Freeing one end is enough: it leaves every blossom, loses its mate, and its new
        # dual covers all its edges.  The end with the most changes goes (usually the one
        # vertex whose edges were all re-weighed).
        changes: dict[int, int] = Counter(chain.from_iterable(keys))
        for x in self._loose:
            # a raised dual: the matched edge may have lost its tightness
            if self._removed[x] or x in to_free:
                continue
            if s.mate[x] >= 0:  # (raise_duals took x out of its blossoms)
                conflicts.append((x, s.mate[x]))
                changes.setdefault(x, 0)
                changes.setdefault(s.mate[x], 0)
        self._loose.clear()
        if conflicts:
            kept = self._keep_mates(conflicts, changes)
            for u, v in conflicts:
                if u not in to_free and v not in to_free and u not in kept and v not in kept:
                    to_free.add(u if changes[u] >= changes[v] else v)
        self._pending.clear()
        self._large = False
        # a previous run that stopped to let dormant edges in may have left vertices single
        to_free.update(v for v in range(self.n) if s.mate[v] < 0 and not self._removed[v])
        exposed = self._free(to_free) if to_free else set()
        gone = [v for v in set(self._pending_removal) if not self._removed[v]]
        self._drop_vertices(gone)
        exposed.difference_update(gone)
        self._pending_removal.clear()
        roots = sorted(exposed)
        dual, ew = s.dual, s.ew
        at_dual, at_weight = dual.__getitem__, ew.__getitem__
        for x in roots:
            if s.top[x] != x:
                continue  # a single blossom keeps its duals (``_free``, ``_even``)
            # the least dual that keeps every edge of x feasible: max(2w - dual[y])
            best = max(
                map(sub, map(lshift, map(at_weight, s.inc[x]), repeat(1)), map(at_dual, s.nbr[x])),
                default=None,
            )
            row = dadj[x]
            if row:
                asleep = max(map(sub, map(lshift, row.values(), repeat(1)), map(at_dual, row)))
                best = asleep if best is None or asleep > best else best
            if best is not None:
                dual[x] = best + (best & 1)  # every root: an even doubled dual
            elif dual[x] & 1:
                dual[x] += 1
        if roots:
            s.solve(True, roots)
        self._tidy()

    def _reweighed_quietly(
        self, keys: list[tuple[int, int]], weights: list[int | None], ks: list[int | None]
    ) -> Iterator[int]:
        """Give the new weight at once to each edge of the solver whose change needs nothing
        else: both ends outside blossoms, not matched together, and the duals still cover
        the new weight (C-level maps: the Art. 4.3.2 terms re-weigh tens of thousands of
        pairs).  Yield, in order, the positions of the other changes."""
        s = self._s
        at, top, ew = s.dual.__getitem__, s.top.__getitem__, s.ew
        cand = list(compress(count(), map(
            and_, map(is_not, ks, repeat(None)), map(is_not, weights, repeat(None))
        )))
        us = [keys[i][0] for i in cand]
        vs = [keys[i][1] for i in cand]
        ws = list(map(weights.__getitem__, cand))
        quiet = map(
            and_,
            map(and_, map(ne, map(s.mate.__getitem__, us), vs), map(eq, map(top, us), us)),
            map(
                and_,
                map(eq, map(top, vs), vs),
                map(ge, map(add, map(at, us), map(at, vs)), map(lshift, ws, repeat(1))),
            ),
        )
        done = bytearray(len(keys))
        for i in compress(cand, quiet):
            ew[ks[i]] = weights[i]
            done[i] = 1
        return compress(count(), map(not_, done))

    def _bulk_change(self) -> bool:
        """Whether the pending changes would free more than n / BULK_SHARE vertices even if
        every conflicting edge freed only one end (a quick look before storing them), and,
        with a margin, change some weight by the margin or more.  Small changes of many
        weights (the generation order of a bracket) are solved warm: solved from scratch,
        their many equal weights would make the candidate edges a poor guess."""
        pending = self._pending
        if len(pending) * BULK_SHARE <= self.n:
            return False
        if self.margin is not None and not self._large:
            return False
        index, ew = self._index, self._s.ew
        self._structural = None
        ends: set[int] = set()
        for (u, v), weight in pending.items():
            k = index.get((u, v))
            if k is not None and weight is not None and ew[k] == weight:
                continue
            if self._conflicts(u, v, k, weight) and u not in ends and v not in ends:
                ends.add(u)
                if len(ends) * BULK_SHARE > self.n:
                    return True
        return False

    def _conflicts(self, u: int, v: int, k: int | None, weight: int | None) -> bool:
        """Whether giving edge u-v (solver edge k, if any) this weight breaks the optimality
        conditions: the edge is matched, or holds a blossom together (one of its cycle
        edges), or the duals no longer cover it.  Inside a blossom the duals of the
        blossoms holding both ends count too: the top one's is enough (the others only add
        slack), so taking out or re-weighing any other edge there keeps the structure."""
        s = self._s
        if k is None:
            return weight is not None and s.dual[u] + s.dual[v] < 2 * weight
        if s.mate[u] == v:
            return True
        b = s.top[u]
        if b != s.top[v] or b == u:
            return weight is not None and s.dual[u] + s.dual[v] < 2 * weight
        if self._structural is None:
            self._structural = {
                (x, y) if x < y else (y, x)
                for c in range(s.n, 2 * s.n)
                if s.base[c] >= 0
                for x, y in s.bedges[c]
            }
        return (u, v) in self._structural or (
            weight is not None and s.dual[u] + s.dual[v] + 2 * s.dual[b] < 2 * weight
        )

    def _solve_bulk(self) -> None:
        """Apply every pending change to the edge list, then solve from scratch."""
        self._sleep_cert = None  # new blossoms: every sleeping pair is checked again
        removed = self._removed
        # Only the vertices removed since the last solve still have edges here (the others
        # left with theirs); a pending weight may name any removed vertex.
        gone = {v for v in self._pending_removal if not removed[v]}
        for v in gone:
            removed[v] = True
        self._pending_removal.clear()
        if self._pending:
            # (a replacement is never waiting with changes: they fold it in)
            edges = self._edges_after_changes(gone)
            eu, ev, ew = [u for u, _ in edges], [v for _, v in edges], list(edges.values())
        else:
            eu, ev, ew = self._edge_lists(outside=self._replacement is not None)
        self._pending.clear()
        self._large = False
        if self._replacement is not None:
            eu, ev, ew = self._replaced(eu, ev, ew)
        self._loose.clear()
        self._fresh = False
        self._solve_afresh(eu, ev, ew)
        s = self._s
        for v in range(self.n):
            if removed[v]:
                s.mate[v] = -1
        self._tidy()
        roots = [v for v in range(self.n) if s.mate[v] < 0 and not removed[v]]
        if roots:
            s.solve(True, roots)
        self._tidy()

    # -- dormant edges -----------------------------------------------------------------------

    def _edge_lists(self, outside: bool = False) -> tuple[list[int], list[int], list[int]]:
        """Every edge (in the solver or dormant) between two vertices not removed, as
        three lists (u < v, v, weight); with ``outside``, only those the waiting
        ``replace_region`` keeps."""
        s, removed = self._s, self._removed
        ids = list(self._index.values())
        at_removed = removed.__getitem__
        us = list(map(s.eu.__getitem__, ids))
        vs = list(map(s.ev.__getitem__, ids))
        keep = map(not_, map(or_, map(at_removed, us), map(at_removed, vs)))
        if outside:
            keep = map(and_, keep, self._kept_by_replacement(us, vs))
        keep = list(keep)
        lows = list(compress(us, keep))
        highs = list(compress(vs, keep))
        if not all(map(lt, lows, highs)):
            lows, highs = list(map(min, lows, highs)), list(map(max, lows, highs))
        ws = list(map(s.ew.__getitem__, compress(ids, keep)))
        in_region = is_settled = b""
        if outside:
            assert self._replacement is not None
            in_region, is_settled = self._replacement[0], self._replacement[1]
        for x, row in enumerate(self._dadj):
            if row and not removed[x]:
                # each dormant edge once, from its lower end (C-level over the row)
                mine = map(and_, map(x.__lt__, row), map(not_, map(at_removed, row)))
                if outside and in_region[x]:
                    # a pair of two region vertices goes, unless both are settled
                    away = map(not_, map(in_region.__getitem__, row))
                    if is_settled[x]:
                        away = map(or_, away, map(is_settled.__getitem__, row))
                    mine = map(and_, mine, away)
                mine = list(mine)
                highs.extend(compress(row, mine))
                ws.extend(compress(row.values(), mine))
                lows.extend(repeat(x, len(highs) - len(lows)))
        return lows, highs, ws

    def _kept_by_replacement(self, eu: list[int], ev: list[int]) -> Iterator[bool]:
        """For each edge, whether the waiting ``replace_region`` keeps it."""
        assert self._replacement is not None
        in_region, is_settled = self._replacement[0], self._replacement[1]
        at_region, at_settled = in_region.__getitem__, is_settled.__getitem__
        replaced = map(
            and_,
            map(and_, map(at_region, eu), map(at_region, ev)),
            map(not_, map(and_, map(at_settled, eu), map(at_settled, ev))),
        )
        return map(not_, replaced)

    def _replaced(
        self, eu: list[int], ev: list[int], ew: list[int]
    ) -> tuple[list[int], list[int], list[int]]:
        """The edge lists, with the pairs of the waiting ``replace_region`` already out,
        and its edges added."""
        assert self._replacement is not None
        _, _, us, vs, ws = self._replacement
        self._replacement = None
        at_removed = self._removed.__getitem__
        new = list(map(not_, map(or_, map(at_removed, us), map(at_removed, vs))))
        eu.extend(compress(us, new))
        ev.extend(compress(vs, new))
        ew.extend(compress(ws, new))
        return eu, ev, ew

    def _all_edges(self) -> dict[tuple[int, int], int]:
        """Every edge between two vertices not removed, in the solver or dormant."""
        s, removed = self._s, self._removed
        edges = {
            (u, v): s.ew[k] for (u, v), k in self._index.items()
            if not (removed[u] or removed[v])
        }
        for x, row in enumerate(self._dadj):
            if not removed[x]:
                edges.update(
                    ((x, y), weight) for y, weight in row.items() if x < y and not removed[y]
                )
        return edges

    def _edges_after_changes(self, gone: set[int] | None = None) -> dict[tuple[int, int], int]:
        """Every edge (in the solver or dormant) with the pending changes applied.

        With ``gone``, the vertices just marked removed: their edges are left out, and so is
        every pending weight that names a removed vertex.
        """
        edges = self._all_edges()
        removed = self._removed
        for v in gone or ():
            for y in self._s.nbr[v]:
                edges.pop((v, y) if v < y else (y, v), None)
            for y in self._dadj[v]:
                edges.pop((v, y) if v < y else (y, v), None)
        for key, weight in self._pending.items():
            if weight is None or (gone is not None and (removed[key[0]] or removed[key[1]])):
                edges.pop(key, None)
            else:
                edges[key] = weight
        return edges

    def _stays_dormant(self, u: int, v: int, weight: int) -> bool:
        """Keep a re-weighed dormant edge out of the solver if its slack under the duals of
        the last certification stays at least half the margin (it lowers the floor)."""
        cert = self._cert
        slack = cert[u] + cert[v] - 2 * weight
        if 2 * slack < self.margin:
            return False
        self._dadj[u][v] = self._dadj[v][u] = weight
        self._floor = min(self._floor, slack)
        return True

    def _recertify(self) -> bool:
        """Check that the duals still cover the dormant edges; wake those they do not.

        At the last certification every dormant edge had a slack of at least ``_floor``
        under the duals ``_cert`` (not counting blossom duals, which only add slack).  A
        vertex dual that fell by d takes at most d off the slack of its edges, so while no
        dual fell by half the floor, every dormant edge keeps a positive slack: the matching
        is optimal for the whole graph (LP duality) and no dormant edge is tight.
        Otherwise every dormant edge is looked at: those left with a slack under the margin
        are woken (shown to the solver; the infeasible ones through the pending changes).
        Returns whether any edge was infeasible (the solve must go on).
        """
        if not any(self._dadj):
            return False
        s = self._s
        dual, cert, removed = s.dual, self._cert, self._removed
        fall = max(cert[x] - dual[x] for x in range(self.n) if not removed[x])
        if 2 * fall < self._floor:
            return False
        margin = self.margin
        floor = None
        infeasible = False
        for x, row in enumerate(self._dadj):
            if removed[x]:
                continue
            dx = dual[x]
            for y, weight in list(row.items()):
                if y < x or removed[y]:
                    continue
                slack = dx + dual[y] - 2 * weight
                if slack >= margin:
                    floor = slack if floor is None or slack < floor else floor
                    continue
                del row[y]
                del self._dadj[y][x]
                if slack < 0:
                    self._pending[(x, y)] = weight
                    infeasible = True
                    self._large = True
                else:
                    self._store(x, y, None, weight)
        self._cert = dual[:self.n]
        self._floor = margin if floor is None else floor
        return infeasible

    def _dormant_feasible(self) -> bool:
        """Whether the duals cover every dormant edge (``_recertify`` without waking any)."""
        dual, removed = self._s.dual, self._removed
        for x, row in enumerate(self._dadj):
            if removed[x] or not row:
                continue
            dx = dual[x]
            for y, weight in row.items():
                if y > x and not removed[y] and dx + dual[y] < 2 * weight:
                    return False
        return True

    def _sleeping_feasible(self) -> bool:
        """Whether the vertices' duals alone cover every sleeping pair (the duals of the
        blossoms holding both, never negative, could only add: a trial that needs them says
        it cannot tell).  Leaves the sleeping pairs' sorted state alone."""
        if self._sleep is None:
            return True
        return self._sleep.covered(self._s.dual, self._removed, self._holds)

    def _wake_all_sleeping(self) -> bool:
        """Hold every sleeping pair (through the pending changes); whether there was one."""
        if self._sleep is None:
            return False
        found = self._sleep.every_pair(self._removed, self._holds)
        for u, v, weight in found:
            self._set_aside.add((u, v))
            self._pending[(u, v)] = weight
            self._woken.append((u, v))
        self._large = self._large or bool(found)
        return bool(found)

    def _wake_all(self) -> None:
        """Put every dormant edge back in the solver (through the pending changes)."""
        removed = self._removed
        for x, row in enumerate(self._dadj):
            for y, weight in row.items():
                if x < y and not removed[y]:
                    self._pending[(x, y)] = weight
                    self._large = True
        self._dadj = [{} for _ in range(self.n)]
        self._dense_next = True

    def _keep_mates(self, conflicts: list[tuple[int, int]], changes: dict[int, int]) -> set[int]:
        """Vertices whose dual alone can be moved to settle their conflicts.

        A vertex outside every blossom, matched, keeps its mate if, with the dual that makes
        the matched edge tight again, all its edges are feasible: the matching is then still
        optimal and nothing needs to be searched (LP duality).  The usual case: the edges of
        one player are re-weighed and the current opponent is still among the best ones.
        """
        s = self._s
        top, mate, dual, ew, nbr, inc = s.top, s.mate, s.dual, s.ew, s.nbr, s.inc
        ends = sorted({x for edge in conflicts for x in edge}, key=lambda x: -changes[x])
        kept: set[int] = set()
        for x in ends:
            m = mate[x]
            if top[x] != x or m < 0:
                continue
            k = self._index.get((x, m) if x < m else (m, x))
            if k is None:  # the matched edge is gone
                continue
            d = 2 * ew[k] - dual[m]
            if all(map(
                ge, map(d.__add__, map(dual.__getitem__, nbr[x])),
                map(lshift, map(ew.__getitem__, inc[x]), repeat(1)),
            )):
                dual[x] = d
                kept.add(x)
        return kept

    def _certify_warm(
        self, eu: list[int], ev: list[int], ew: list[int], left: list[int]
    ) -> tuple[list[int], list[int]]:
        """Bring the edges left out of a solve from scratch in until the duals cover them all.

        The solve on the heaviest edges of each vertex gives optimal duals for that subgraph;
        the edges they leave infeasible are the ones that could improve the matching.  The
        most violated ones of each vertex (VIOLATED_PER_VERTEX, twice as many each round) are
        given to the solver as changes and solved warm, until no edge left out is violated.
        Returns the edges still left out (feasible under the duals), and their slacks under
        the vertex duals alone.
        """
        per_vertex = VIOLATED_PER_VERTEX
        us = list(map(eu.__getitem__, left))
        vs = list(map(ev.__getitem__, left))
        ws2 = list(map(lshift, map(ew.__getitem__, left), repeat(1)))
        sums: list[int] = []
        while left:
            missing = self._s.violated_edges(us, vs, ws2, per_vertex, sums)
            if not missing:
                break
            for i in missing:
                k = left[i]
                self._pending[(eu[k], ev[k])] = ew[k]
                self._large = True
            stay = [True] * len(left)
            for i in missing:
                stay[i] = False
            left, us, vs, ws2 = (list(compress(x, stay)) for x in (left, us, vs, ws2))
            self._solve_warm()
            per_vertex *= 2
        # the slacks under the final duals, before the blossom duals (the last round saw them)
        return left, list(map(sub, sums, ws2)) if left else []

    def _solve_afresh(self, eu: list[int], ev: list[int], ew: list[int]) -> None:
        """Solve the graph from scratch and keep the solver's state for the next changes.

        A large change (a new bracket re-weighs all its pairs) is cheaper solved anew, on
        the heaviest edges of each vertex (the candidates); the other edges join only where
        the duals leave them violated (``_certify_warm``).  The pairs of the previous
        matching still in the graph join the candidates, and so do the pairs offered by
        ``suggest``.  With such pairs, the solve asks for a perfect matching from fitted
        duals (``_fit_duals``); without (the first solve), it maximises the weight from
        equal duals, which leaves the single vertices with dual 0.

        Why that is exact whatever the candidates.  A run for a perfect matching keeps every
        candidate edge feasible and the matched ones tight, and every root falls by the same
        amount, so the vertices it leaves single (when the candidates hold no perfect
        matching) have duals of one parity, as the roots of the warm runs that follow need.
        The edges left out are then certified as after any solve, and the single vertices
        are roots of the next warm run (``_solve_bulk``) on every edge not dormant; a
        perfect matching that needs a dormant edge wakes them all (``solve``).  The
        candidates only decide the speed: the previous matching (of which a new bracket
        keeps most pairs, a finalized pair leaving with both its players) nearly always
        leaves a perfect matching among them, and this run on a few edges per vertex costs
        less than maximising the weight from equal duals, which grows a tree from every
        vertex.

        The graph counts as dense by its vertices still in it, not by ``n``: the last
        brackets of a round keep few players among many removed ones.
        """
        suggested, self._suggested = self._suggested, []
        n = self.n
        live = [v for v in range(n) if not self._removed[v]]
        if min(ew, default=0) < 0:
            # weights below zero: solve for a perfect matching directly, from every vertex
            solver = _Blossom(n, eu, ev, ew)
            solver.solve(True, live)
            chosen = list(range(len(ew)))
        else:
            # the edges of the previous matching that are still here
            mate = self._s.mate
            matched = list(compress(count(), map(eq, map(mate.__getitem__, eu), ev)))
            if len(ew) <= 2 * CANDIDATES_PER_VERTEX * len(live):
                chosen = list(range(len(ew)))
            else:
                chosen = _heaviest_per_vertex(n, eu, ev, ew, CANDIDATES_PER_VERTEX)
                extra = matched[:]
                if suggested:
                    wanted = set(suggested)
                    extra += compress(count(), map(wanted.__contains__, zip(eu, ev)))
                if extra:
                    chosen = sorted(set(chosen).union(extra))
            solver = _Blossom(
                n, [eu[k] for k in chosen], [ev[k] for k in chosen], [ew[k] for k in chosen]
            )
            if matched:
                _fit_duals(solver)
                solver.solve(True, live)
            else:
                solver.solve(False)
        self._s = solver
        self._spare = []
        self._dadj = [{} for _ in range(n)]
        self._index = dict(zip(zip(solver.eu, solver.ev), count()))
        self._find_slots()
        self._tidy()
        outside = bytearray(b"\x01") * len(ew)
        for k in chosen:
            outside[k] = 0
        left, slack = self._certify_warm(eu, ev, ew, list(compress(range(len(ew)), outside)))
        solver = self._s
        # the other edges are feasible under the certified duals: added as they are, or
        # left dormant when their slack is at least the margin
        dadj: list[dict[int, int]] = [{} for _ in range(n)]
        margin = None if self._dense_next else self.margin
        self._dense_next = False
        floor = None
        if margin is not None:
            asleep = list(map(margin.__le__, slack))
            dormant = list(compress(left, asleep))
            if dormant:
                floor = min(compress(slack, asleep))
            for k in dormant:
                u, v = eu[k], ev[k]
                dadj[u][v] = dadj[v][u] = ew[k]
            left = list(compress(left, map(not_, asleep)))
        self._dadj = dadj
        self._cert = solver.dual[:n]
        self._floor = floor if floor is not None else (margin or 0)
        first = len(solver.eu)
        solver.eu.extend(map(eu.__getitem__, left))
        solver.ev.extend(map(ev.__getitem__, left))
        solver.ew.extend(map(ew.__getitem__, left))
        self._index.update(zip(zip(solver.eu[first:], solver.ev[first:]), count(first)))
        nbr, inc, slot = solver.nbr, solver.inc, self._slot
        slot.extend([0] * (2 * len(left)))
        for i, k in enumerate(left, first):
            u, v = eu[k], ev[k]
            slot[2 * i] = len(inc[u])
            slot[2 * i + 1] = len(inc[v])
            nbr[u].append(v)
            inc[u].append(i)
            nbr[v].append(u)
            inc[v].append(i)

    # -- internals --------------------------------------------------------------------------

    def _restart(self) -> None:
        """Forget the matching: the next solve starts from scratch on the same graph
        (``_solve_bulk`` reads the edges, in the solver and dormant)."""
        self._fresh = True

    def _store(self, u: int, v: int, k: int | None, weight: int | None) -> None:
        s = self._s
        if weight is None:
            if k is not None:
                self._drop(k)
            return
        if k is not None:
            s.ew[k] = weight
            return
        if self._spare:
            k = self._spare.pop()
            s.eu[k], s.ev[k], s.ew[k] = u, v, weight
        else:
            k = len(s.eu)
            s.eu.append(u)
            s.ev.append(v)
            s.ew.append(weight)
            self._slot.append(0)
            self._slot.append(0)
        self._index[(u, v)] = k
        self._slot[2 * k] = len(s.inc[u])
        self._slot[2 * k + 1] = len(s.inc[v])
        s.nbr[u].append(v)
        s.inc[u].append(k)
        s.nbr[v].append(u)
        s.inc[v].append(k)

    def _find_slots(self) -> None:
        """Record where each edge sits in the lists of its ends (after a new solver)."""
        s = self._s
        slot = [0] * (2 * len(s.eu))
        eu = s.eu
        for x, edges in enumerate(s.inc):
            for i, k in enumerate(edges):
                slot[2 * k + (eu[k] != x)] = i
        self._slot = slot
        self._slots_stale = False

    def _drop_vertices(self, vertices: list[int]) -> None:
        """Mark the vertices removed and unmatched; their edges stay where they are.

        A finalised pair would otherwise take its thousands of edges out one by one.  The
        solver skips every edge of a vertex labelled ``_GONE``, and its dual, far above any
        weight, leaves those edges with a huge slack: never tight, never the one that sets
        a dual (``_solve_warm``, ``_keep_mates``, ``pairing.tight_graph``).  The edges are
        left out of every edge list read here (``_removed``) and go for good with the next
        solve from scratch, which builds new lists (a new bracket).
        """
        s = self._s
        removed, mate, label, dual, dadj = self._removed, s.mate, s.label, s.dual, self._dadj
        if not self._far:
            self._far = max(self._heaviest, 1) * self.n << FAR_BITS
        far = self._far
        for v in vertices:
            removed[v] = True
            mate[v] = -1
            label[v] = _GONE
            dual[v] = far
            dadj[v] = {}  # the rows of its dormant neighbours keep it (``_removed``)

    def _drop(self, k: int) -> None:
        """Take edge k out of the solver: each end's lists lose it in constant time (the
        last edge of the list takes its slot)."""
        s = self._s
        u, v = s.eu[k], s.ev[k]
        self._unlist(k, 0, u)
        self._unlist(k, 1, v)
        del self._index[(u, v) if u < v else (v, u)]
        s.ew[k] = 0
        self._spare.append(k)

    def _unlist(self, k: int, end: int, a: int) -> None:
        """Take edge k out of the lists of its end a (end 0: eu[k], 1: ev[k]) in constant
        time: the last edge of the list takes its slot."""
        s = self._s
        if self._slots_stale:
            self._find_slots()
        inc, nbr, slot = s.inc[a], s.nbr[a], self._slot
        i = slot[2 * k + end]
        last = inc[-1]
        inc[i] = last
        nbr[i] = nbr[-1]
        slot[2 * last + (s.eu[last] != a)] = i
        inc.pop()
        nbr.pop()

    def _dissolve(self, x: int) -> list[int]:
        """Expand every blossom holding x, top-down, keeping the optimality conditions;
        return the vertices this leaves single.

        Adding a blossom's dual z to the (doubled) dual of each of its vertices keeps the
        slack of every edge inside it and raises the slack of the edges leaving it by z: the
        matched edge leaving its base is then no longer tight, and its ends are unmatched.
        """
        s = self._s
        top, mate, dual = s.top, s.mate, s.dual
        single: list[int] = []
        while top[x] != x:
            b = top[x]
            z = dual[b]
            base = s.base[b]
            partner = mate[base]
            if z:
                for y in s.verts[b]:
                    dual[y] += z
            s.expand_blossom(b, True)
            if z and partner >= 0:
                mate[base] = mate[partner] = -1
                single += (base, partner)
        return single

    def _free(self, vertices: set[int]) -> set[int]:
        """Make each vertex single, out of every blossom, keeping the optimality conditions;
        return every vertex left single (the given ones and those freed on the way).

        A vertex freed on the way (a mate, or a base left single by a dissolved blossom)
        has no changed edge: if it is the base of a blossom, the blossom may stay, single,
        and the next run grows a tree from it instead of building it again (``_even``).
        """
        s = self._s
        top, mate = s.top, s.mate
        exposed: set[int] = set()
        stack = [(x, True) for x in vertices]  # (vertex, whether its edges changed)
        while stack:
            while stack:
                x, changed = stack.pop()
                if changed or top[x] == x or s.base[top[x]] != x:
                    stack.extend((y, False) for y in self._dissolve(x))
                partner = mate[x]
                if partner >= 0:
                    mate[x] = mate[partner] = -1
                    stack.append((partner, False))
                exposed.add(x)
            # once every blossom to dissolve is (their duals passed to their vertices), the
            # single blossoms left need even duals, or are dissolved too
            stack = [(x, True) for x in exposed if top[x] != x and not self._even(top[x])]
        return exposed

    def _even(self, b: int) -> bool:
        """Make the vertex duals of the single top blossom b even, if its dual allows.

        Every root of a run needs an even dual.  The vertices of a blossom share one parity
        (its cycle edges are tight): adding 1 to each vertex dual and taking 1 off the
        blossom's keeps the slack of every edge inside it and adds 1 to the edges leaving it.
        """
        s = self._s
        dual = s.dual
        if dual[s.base[b]] & 1 == 0:
            return True
        if dual[b] < 1:
            return False
        for y in s.verts[b]:
            dual[y] += 1
        dual[b] -= 1
        return True

    def _tidy(self) -> None:
        """Leave the solver with real duals, no labels and empty queues for the next solve."""
        s = self._s
        s.decode_duals()
        label = s.label
        for b in range(2 * self.n):
            if label[b] != _FREE and label[b] != _GONE and s.parent[b] < 0:
                s.set_label(b, _FREE)
                s.labeledge[b] = None
        s.heap_sf.clear()
        s.clear_ss()
        s.heap_t.clear()
        s.queue.clear()
        s.fbest = [-1] * self.n
        s.unsure.clear()
        s.trees = 0
        for r in range(self.n):
            if s.members[r]:
                s.members[r] = []
