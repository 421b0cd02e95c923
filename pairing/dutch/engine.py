"""The FIDE Dutch system (C.04.3), pairing one round as a sequence of weighted matchings.

The brackets are paired from the top score group down (Art. 1.9.2). Every pairing decision is
taken by a maximum weight matching over all the players still to pair, whose weights
(``pairing.dutch.weights``) rank the criteria of Art. 2 in priority order; players outside the
current bracket and the next score group keep weights that only ask for completion ([C4]), so a
decision that would leave the rest of the round unpairable is never taken. Within a bracket the
choices the criteria leave open are made in the order of the generation rules of Art. 3-4:
which MDPs are paired (Art. 4.4), with which residents, how many and which resident-exchanges
(Art. 4.3), then each S1 player's opponent in the transposition order (Art. 4.2).

Under the 2017 rules (C.04.3 of 2017, A.9) only the last bracket and the Penultimate Pairing
Bracket must let the round be completed: any other bracket is matched with the next score group
only (C.7), then the rest of the round is checked; if it cannot be completed the bracket is the
PPB, paired again with completion weights over all the players still to pair, and its
downfloaters and every lower player form the Collapsed Last Bracket. C.6 and C.16-C.19 weigh
the score differences of A.8, and A.4.b gives a downfloat for every round not played.
"""

from __future__ import annotations

import gc
from collections.abc import Container, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice

from pairing.dutch.colours import allocate_colours
from pairing.dutch.players import Float, PlayerState, build_players
from pairing.dutch.weights import Layout, PsdLayout, WeightMemo, compatibility
from pairing.dynamic_matching import DynamicMatcher, NoPerfectMatching
from pairing.checker import ViolationKind, check_round
from pairing.errors import EngineFault, NoValidPairing
from pairing.matching import max_weight_matching
from pairing.model import Board, Color, RoundPairing, RuleSet, Tournament, format_points
from pairing.trf import next_round_number

__all__ = ["pair_round"]

FAR_NEIGHBOURS = 16
"""Compatible neighbours kept per player for the completion edges of far players."""

NEXT_GROUP_PARTNERS = 4
"""Pairs within the next score group offered per player to a bracket's first matching."""

S2_NEIGHBOURS = 4
"""S2 residents on each side of an S1 resident's counterpart offered to that matching."""


class _Matcher:
    """Edge weights over all players to pair (vertices in pairing order), and their matching.

    A finalized pair is taken out of the graph: no other edge may touch it, so it belongs to
    every maximum weight matching and leaving it out changes nothing for the other players.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.w: dict[tuple[int, int], int] = {}
        self.mate: list[int] = list(range(n))
        self.fixed: dict[int, int] = {}
        self.calls = 0

    def set(self, u: int, v: int, weight: int) -> None:
        key = (u, v) if u < v else (v, u)
        if weight:
            self.w[key] = weight
        else:
            self.w.pop(key, None)

    def set_many(self, edges: list[tuple[int, int, int | None]]) -> None:
        """``set`` for each (u, v, weight), a weight of None or 0 taking the pair out."""
        for u, v, weight in edges:
            self.set(u, v, weight or 0)

    def replace_region(
        self, region: list[int], settled: list[int], us: list[int], vs: list[int], ws: list[int]
    ) -> None:
        """Take out every pair of two region vertices, except two settled ones, then give
        the pairs (us[i], vs[i]) the weights ws[i]."""
        inside, keep = set(region), set(settled)
        for u, v in list(self.w):
            if u in inside and v in inside and not (u in keep and v in keep):
                del self.w[(u, v)]
        for u, v, weight in zip(us, vs, ws):
            self.set(u, v, weight)

    def get(self, u: int, v: int) -> int:
        return self.w.get((u, v) if u < v else (v, u), 0)

    def compute(self) -> list[int]:
        self.calls += 1
        mate = max_weight_matching(self.n, [(u, v, w) for (u, v), w in self.w.items()])
        self.mate = [v if m < 0 else m for v, m in enumerate(mate)]
        for u, v in self.fixed.items():
            self.mate[u] = v
        return self.mate

    def reweigh(self, v: int, weights: dict[int, int]) -> list[int]:
        """Give the edges v-u the new ``weights[u]``, then return a maximum weight matching.

        Only edges of v change. If the change of v's current edge is at least the change of any
        other edge of v, every other matching gains at most as much as the current one, which
        therefore stays optimal and is not recomputed.
        """
        current = self.mate[v]
        best_gain = 0
        current_gain = 0
        for u, weight in weights.items():
            gain = weight - self.get(v, u)
            self.set(v, u, weight)
            best_gain = max(best_gain, gain)
            if u == current:
                current_gain = gain
        if current != v and current_gain >= best_gain:
            return self.mate
        return self.compute()

    def first_optimal_partner(self, v: int, candidates: list[int]) -> int | None:
        """The first of the candidates that v meets in some maximum weight matching, or
        None when this matcher cannot tell without re-weighing (``reweigh``)."""
        return None

    def raise_duals(self, amounts: dict[int, int]) -> None:
        """A hint before raising the weights of these vertices' edges (see
        ``DynamicMatcher.raise_duals``); a matcher that solves from scratch ignores it."""

    def suggest(self, pairs: list[tuple[int, int]]) -> None:
        """Pairs an optimal matching is likely to use (see ``DynamicMatcher.suggest``);
        ignored here too."""

    def pair_with_any(self, v: int, partners: Container[int]) -> bool | None:
        """Whether some maximum weight matching pairs v with one of the partners (then v
        meets one of them), or None when this matcher cannot tell without re-weighing."""
        return None

    def finalize(self, u: int, v: int) -> None:
        """Fix the pair u-v and take both out of the graph."""
        self._take_out(u, v)
        self.fixed[u] = v
        self.fixed[v] = u
        self.mate[u] = v
        self.mate[v] = u

    def _take_out(self, u: int, v: int) -> None:
        for key in [k for k in self.w if u in k or v in k]:
            del self.w[key]


class _WarmMatcher(_Matcher):
    """The same service over a DynamicMatcher: each matching starts from the previous one.

    Every weight gives completion ([C4]) the highest priority, so a maximum weight matching
    of the players is a maximum weight perfect matching, with one extra vertex (the PAB,
    joined to everyone by a zero-weight edge) when their number is odd.  Should the players
    not be perfectly matchable (some pairs taken out), the matching is computed from scratch
    like ``_Matcher`` does.
    """

    def __init__(self, n: int, margin: int | None = None) -> None:
        super().__init__(n)
        self.bye_vertex = n if n % 2 else -1
        self.dynamic = DynamicMatcher(n + n % 2)
        self.dynamic.margin = margin
        if n % 2:
            for v in range(n):
                self.dynamic.set_weight(v, n, 0)

    def set(self, u: int, v: int, weight: int) -> None:
        self.dynamic.set_weight(u, v, weight or None)

    def set_many(self, edges: list[tuple[int, int, int | None]]) -> None:
        """``set`` for each (u, v, weight); the matcher takes a weight of None (not 0, a
        real weight there) as no edge."""
        self.dynamic.set_weights(edges)

    def replace_region(
        self, region: list[int], settled: list[int], us: list[int], vs: list[int], ws: list[int]
    ) -> None:
        self.dynamic.replace_region(region, settled, us, vs, ws)

    def get(self, u: int, v: int) -> int:
        return self.dynamic.weight(u, v) or 0

    def compute(self) -> list[int]:
        self.calls += 1
        try:
            mate = self.dynamic.solve()
        except NoPerfectMatching:
            mate = max_weight_matching(self.n, [
                (u, v, w) for u, v, w in self.dynamic.edges() if max(u, v) < self.n and w
            ])
        return self._adopt(mate)

    def _adopt(self, mate: list[int]) -> list[int]:
        self.mate = [v if m < 0 or m == self.bye_vertex else m for v, m in enumerate(mate[:self.n])]
        for u, v in self.fixed.items():
            self.mate[u] = v
        return self.mate

    def first_optimal_partner(self, v: int, candidates: list[int]) -> int | None:
        """Try the candidates in order on the tight edges of the current optimum: the first
        one an optimal matching can give v becomes v's mate, with no solve."""
        for u in candidates:
            if u == self.mate[v]:
                return u
            verdict = self.dynamic.pair_if_optimal(v, u)
            if verdict is None:
                return None
            if verdict:
                self._adopt(self.dynamic.mates())
                return u
        return None

    def raise_duals(self, amounts: dict[int, int]) -> None:
        self.dynamic.raise_duals(amounts)

    def suggest(self, pairs: list[tuple[int, int]]) -> None:
        self.dynamic.suggest(pairs)

    def pair_with_any(self, v: int, partners: Container[int]) -> bool | None:
        """Decided on the tight edges of the current optimum, with no solve (the PAB
        vertex stands for the PAB)."""
        verdict = self.dynamic.pair_with_any_if_optimal(v, partners)
        if verdict:
            self._adopt(self.dynamic.mates())
        return verdict

    def _take_out(self, u: int, v: int) -> None:
        self.dynamic.remove_vertex(u)
        self.dynamic.remove_vertex(v)


class _Outside:
    """Every vertex but the given ones (a container for ``pair_with_any``)."""

    def __init__(self, excluded: set[int]) -> None:
        self.excluded = excluded

    def __contains__(self, vertex: object) -> bool:
        return vertex not in self.excluded


@dataclass
class _Explanation:
    lines: list[str] = field(default_factory=list)

    def add(self, line: str) -> None:
        self.lines.append(line)


def pair_round(
    t: Tournament, *, rules: RuleSet | None = None, explain: bool = False
) -> RoundPairing:
    """Pair the next round of a tournament under the FIDE Dutch system (C.04.3)."""
    rules = rules or t.rules
    k = next_round_number(t)
    players = build_players(t, k, rules)
    note = _Explanation()
    if not players:
        return RoundPairing(round=k, boards=(), bye=None, explanation=("no player to pair",))
    with _cyclic_gc_paused():
        pairs = _pair(t, k, rules, players, note)
    by_vertex = players
    boards = []
    bye = None
    for u, v in pairs:
        if u == v:
            bye = by_vertex[u].tpn
            continue
        a, b = by_vertex[u], by_vertex[v]
        boards.append(allocate_colours(t, a, b))
    boards.sort(key=lambda b: (min(b.white, b.black), b.white))
    if bye is not None:
        note.add(f"pairing-allocated bye: {bye}")
    if explain:
        _explain_criteria(note, {p.tpn: p for p in players}, boards, bye)
    pairing = RoundPairing(
        round=k, boards=tuple(boards), bye=bye, explanation=tuple(note.lines) if explain else ()
    )
    _refuse_what_the_rules_forbid(t, pairing, rules)
    return pairing


def _refuse_what_the_rules_forbid(t: Tournament, pairing: RoundPairing, rules: RuleSet) -> None:
    """The round goes through the checker's predicates before it is answered: a PAB that
    [C2] forbids means no legal pairing exists; any other violation is a fault of the engine,
    raised, never printed as a pairing."""
    violations = check_round(t, pairing, rules=rules)
    if not violations:
        return
    if all(v.kind is ViolationKind.PAB_NOT_ALLOWED for v in violations):
        raise NoValidPairing(f"{violations[0]} (Art. 1.9.3)")
    raise EngineFault("; ".join(map(str, violations)))


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a round is paired.

    The matchings allocate hundreds of thousands of small containers (edges, heap entries)
    that live until the round is paired, and every full collection scans them all: 10-15 %
    of a 1000-player round.  Reference counting still frees them; the few cycles left
    (closures of ``_pair``) wait for the next collection after the round.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _first_compatible(ok_row: list[bool], candidates: Iterable[int], count: int) -> list[int]:
    """The first ``count`` candidates that may meet the player whose row of ``ok`` is given."""
    return list(islice((j for j in candidates if ok_row[j]), count))


def _without_history(t: Tournament, k: int, players: list[PlayerState]) -> bool:
    """Whether no criterion can tell any two pairs apart: one score group, no game, float,
    colour or opponent behind anyone, everyone may take the PAB, no prohibited pair."""
    first = players[0].score
    return not any(fp.applies_to(k) for fp in t.forbidden_pairs) and all(
        p.score == first and not p.colors and p.preference is None and not p.met
        and p.played_games == 0 and p.float1 is Float.NONE and p.float2 is Float.NONE
        and p.eligible_for_bye
        for p in players
    )


def _pair_without_history(
    players: list[PlayerState], note: _Explanation
) -> list[tuple[int, int]]:
    """Pair one bracket in which every pair meets every criterion (typically round 1).

    Every pairing then complies with [C1]-[C21] equally, so the first candidate of the
    generation order is the pairing (Art. 4.2, no transposition, no exchange): S1 holds the
    first MaxPairs players, S1[i] meets S2[i]; with an odd number of players the last of S2
    is left over and receives the PAB ([C5] and [C9] cannot choose: all equal).
    """
    n = len(players)
    half = n // 2
    _explain_bracket(note, players, list(range(n)), 0, n)
    pairs = [(i, half + i) for i in range(half)]
    note.add("  pairs: " + " ".join(f"{players[u].tpn}-{players[v].tpn}" for u, v in pairs))
    if n % 2:
        pairs.append((n - 1, n - 1))
    return pairs


def _pair(
    t: Tournament, k: int, rules: RuleSet, players: list[PlayerState], note: _Explanation
) -> list[tuple[int, int]]:
    """Return the pairs as vertex pairs (a vertex paired with itself has the PAB)."""
    players.sort(key=lambda p: (-p.score, p.rank_index))
    if _without_history(t, k, players):
        return _pair_without_history(players, note)
    n = len(players)
    played_rounds = k - 1
    layout = Layout.for_players(players, played_rounds, rules)
    memo = WeightMemo(players)
    signature = memo.signature
    S, G = layout.size_bits, layout.groups_bits
    forbidden = frozenset(
        frozenset((a, b))
        for fp in t.forbidden_pairs
        if fp.applies_to(k)
        for a in fp.tpns
        for b in fp.tpns
        if a != b
    )
    ok = compatibility(players, forbidden=forbidden)
    # Outside the bracket being paired and the next score group, an edge only says "these two
    # could still be paired" ([C4]). Keeping, for each player, the edges to the nearest
    # FAR_NEIGHBOURS compatible players above and below in the pairing order is enough for
    # that and keeps the graph sparse; the bracket and the next group always get all edges.
    near: set[tuple[int, int]] = set()
    for i in range(n):
        near.update((i, j) for j in _first_compatible(ok[i], range(i + 1, n), FAR_NEIGHBOURS))
        near.update((j, i) for j in _first_compatible(ok[i], range(i - 1, -1, -1), FAR_NEIGHBOURS))
    top_score = players[0].score
    odd = n % 2 == 1
    two_thousand_seventeen = rules is RuleSet.DUTCH_2017
    # Within a bracket, the generation order changes weights only below bit 3S+1 (Art.
    # 3-4): pairs whose slack is far above that after a bracket's first matching cannot
    # become tight, and the matcher keeps them aside (it checks that they stay covered).
    m = _Matcher(n) if two_thousand_seventeen else _WarmMatcher(n, margin=1 << (3 * S + 4))

    def candidate(p: PlayerState, bye_score: int | None) -> bool:
        if not p.eligible_for_bye:
            return False
        return bye_score is None or p.score <= bye_score

    # The PAB score ([C5]) and whether [C9] applies: set once the whole-round matching is
    # known; the weights read them.
    bye_score: int | None = None if two_thousand_seventeen else 0
    c9 = False
    unplayed_rank: dict[int, int] = {}

    def base(
        hi: int, lo: int, cur: bool, nxt: bool, completion: bool = True,
        final_next: bool = False, psd: PsdLayout | None = None,
    ) -> int:
        if not ok[hi][lo]:
            return 0
        # unplayed_rank follows from bye_score, fixed before the first bracket
        key = (signature[hi], signature[lo], cur, nxt, completion, final_next, c9, bye_score)
        weights = memo.bracket(psd)
        w = weights.get(key)
        if w is None:
            w = weights[key] = layout.weight(
                players[hi], players[lo], in_current=cur, in_next=nxt,
                bye_candidate_higher=candidate(players[hi], bye_score),
                bye_candidate_lower=candidate(players[lo], bye_score),
                c9_active=c9, bye_score=bye_score or 0, unplayed_rank=unplayed_rank,
                completion=completion, final_next=final_next, psd=psd,
            )
        return w

    def completion_weights(pairs: list[tuple[int, int]]) -> list[tuple[int, int, int | None]]:
        """The weights of pairs outside any bracket ([C4], [C5])."""
        return [(i, j, base(j, i, False, False) or None) for j, i in pairs]

    # Whole-round matching: does a complete pairing exist ([C4], Art. 1.9.1), and which score
    # gets the PAB ([C5], minimised).
    def initial_weights(pairs: list[tuple[int, int]]) -> list[int]:
        if odd and not two_thousand_seventeen:
            edges: list[tuple[int, int, int | None]] = []
            for j, i in pairs:
                a, b = players[i], players[j]
                w = 1 + (not a.eligible_for_bye) + (not b.eligible_for_bye)
                w = (w << G) | (layout.group_shift[a.score] + layout.group_shift[b.score])
                w = (w << S) | (a.score >= top_score)
                edges.append((i, j, w))
            m.set_many(edges)
        else:
            m.set_many(completion_weights(pairs))
        return m.compute()

    def complete(mate: list[int]) -> bool:
        """Art. 1.9.1: everyone paired but at most one player, who may receive the PAB ([C2]).
        The weights pair first the players who may not, so a maximum weight matching leaves
        such a player out only when no round-pairing can avoid it."""
        left = [v for v in range(n) if mate[v] == v]
        return len(left) <= 1 and all(players[v].eligible_for_bye for v in left)

    mate = initial_weights(sorted(near))
    if not complete(mate):
        # the sparse graph may miss a long edge: decide on all the compatible pairs
        near = {(j, i) for i in range(n) for j in range(i) if ok[i][j]}
        mate = initial_weights(sorted(near))
    if not complete(mate):
        if sum(1 for v in range(n) if mate[v] == v) > 1:
            raise NoValidPairing(
                "no round-pairing complies with the absolute criteria [C1]-[C3] (Art. 1.9.3)"
            )
        raise NoValidPairing(
            "every round-pairing leaves the pairing-allocated bye to a player who may not "
            "receive it ([C2], Art. 1.9.3)"
        )
    if odd and not two_thousand_seventeen:
        bye_score = next(players[v].score for v in range(n) if mate[v] == v)
        m.set_many(completion_weights(sorted(near)))
        if bye_score >= top_score:
            c9 = all(
                players[mate[v]].score >= top_score
                for v in range(n)
                if players[v].score >= top_score
            )
        # [C9]: among the players on the PAB score, the more unplayed games a player has, the
        # more their being paired weighs (rank: last position in the ascending order)
        counts = sorted(played_rounds - p.played_games for p in players if p.score == bye_score)
        for rank_, unplayed in enumerate(counts):
            unplayed_rank[unplayed] = rank_
    if odd and two_thousand_seventeen:
        bye_score = None

    def completable(vertices: list[int]) -> bool:
        """Whether these players can all be paired, at most one taking the PAB (C.1-C.3)."""
        count = len(vertices)
        edges = [
            (i, j, 1)
            for i in range(count)
            for j in range(i + 1, count)
            if ok[vertices[i]][vertices[j]]
        ]
        if count % 2:
            edges += [(i, count, 1) for i in range(count) if players[vertices[i]].eligible_for_bye]
            count += 1
        return all(x >= 0 for x in max_weight_matching(count, edges))

    def take_first_partner(v: int, candidates: list[tuple[int, int]]) -> list[int]:
        """Art. 4.2 (and 3.3.3 for an MDP): v meets the first of the candidates (vertex and
        weight, in the order of preference) that a maximum weight matching allows."""
        if m.first_optimal_partner(v, [u for u, _ in candidates]) is not None:
            return m.mate
        count = len(candidates)
        return m.reweigh(v, {u: w + count - i for i, (u, w) in enumerate(candidates)})

    result: list[tuple[int, int]] = []
    matched = [False] * n
    # The bracket: vertices of the MDPs then of the residents, then the next score group.
    group_start = 0
    bracket: list[int] = []
    while group_start < n and players[group_start].score >= top_score:
        bracket.append(group_start)
        group_start += 1
    mdp_count = 0
    resident_first_vertex = 0
    ppb = False  # 2017 A.9: the bracket is paired again as the Penultimate Pairing Bracket
    while len(bracket) > 1 or group_start < n:
        saved = (
            bracket[:], group_start, dict(m.fixed), m.mate[:], matched[:], len(result),
            len(note.lines),
        )
        size = len(bracket)  # players of the bracket being paired
        next_first_vertex = resident_first_vertex + (size - mdp_count)
        next_group_start = group_start
        while group_start < n and (
            ppb or players[group_start].score >= players[next_group_start].score
        ):
            bracket.append(group_start)
            group_start += 1
        if size == len(bracket) and mdp_count == size:
            raise NoValidPairing("players left unpaired after the last bracket (Art. 1.9.3)")
        # 2017 A.9: only the last bracket and the PPB must let the round be completed
        # (completion weights over every player still to pair); any other bracket is paired
        # looking at itself and the next score group only (C.7), then checked.
        special = not two_thousand_seventeen or ppb or size == len(bracket)
        final_next = two_thousand_seventeen and not special and group_start == n
        psd = None
        if two_thousand_seventeen:
            m.w.clear()  # finalized pairs are kept in m.fixed
            # C.6 differences; like bbpPairings, a downfloater's difference is counted from the
            # lowest score among the players in the matching (the next score group's)
            lowest = min(players[v].score for v in bracket)
            scores = [players[v].score for v in bracket]
            # C.7 (not for the PPB or the last bracket): the following bracket's PSD, of
            # this bracket's downfloaters and the next score group
            following = None if special else PsdLayout.for_scores(scores, lowest)
            psd = PsdLayout.for_scores(scores[:size], lowest, following)
        # Base weights: pairs in this bracket ([C6]-[C7]) and in the next score group ([C8]),
        # every pair of them but those of two MDPs (already weighed in the bracket above).
        # bw keeps those of the bracket, which the generation order reads and changes.
        bw: dict[tuple[int, int], int] = {}
        his: list[int] = []
        los: list[int] = []
        ws: list[int] = []
        for li in range(mdp_count, len(bracket)):
            lo = bracket[li]
            cur, nxt = li < size, li >= size and not ppb
            compatible_with_lo = ok[lo]
            by_signature: dict[int, int] = {}  # the weight is the same for equal signatures
            for si in range(li):
                hi = bracket[si]
                if not compatible_with_lo[hi]:
                    continue
                w = by_signature.get(signature[hi])
                if w is None:
                    w = by_signature[signature[hi]] = base(
                        hi, lo, cur, nxt, completion=special, final_next=final_next, psd=psd,
                    )
                if cur:
                    bw[(li, si)] = w
                if w:
                    his.append(hi)
                    los.append(lo)
                    ws.append(w)
        m.replace_region(bracket, bracket[:mdp_count], his, los, ws)
        del his, los, ws
        # The heaviest pairs of a player of the next score group lead to this bracket
        # ([C8] counts a higher score); the pairs the matching mostly needs are within the
        # group: offer the matcher a few of those, each player's next compatible ones.
        m.suggest([
            (v, u)
            for li, v in enumerate(bracket[size:], size)
            for u in _first_compatible(ok[v], bracket[li + 1:], NEXT_GROUP_PARTNERS)
        ])
        # Within the bracket most pairs tie on the criteria, and the heaviest pairs of each
        # resident, drawn among the ties, rarely form the structure an optimal pairing has:
        # S1 players against S2 players (Art. 3.3.1).  Offer each S1 resident the S2
        # residents around its counterpart in the original order (Art. 4.2): with them the
        # first solve of a bracket needs no second round of certification.
        half = (size - mdp_count) // 2
        m.suggest([
            (bracket[i], bracket[j])
            for i in range(mdp_count, mdp_count + half)
            for j in range(i + half - S2_NEIGHBOURS, i + half + S2_NEIGHBOURS + 1)
            if mdp_count + half <= j < size and ok[bracket[i]][bracket[j]]
        ])

        def W(li: int, si: int) -> int:
            return bw.get((li, si), 0)

        def in_bracket(vertex: int) -> bool:
            return resident_first_vertex <= vertex < next_first_vertex

        mate = m.compute()
        _explain_bracket(note, players, bracket, mdp_count, size)

        # Art. 4.4 / 3.2.2: which MDPs are paired (top down; [C7] pairs the highest scores)
        i = 0
        while i < mdp_count:
            score = players[bracket[i]].score
            group = [x for x in range(i, mdp_count) if players[bracket[x]].score == score]
            remaining = len(group)
            can_pair = sum(1 for x in group if in_bracket(mate[bracket[x]]))
            for x in group:
                v = bracket[x]
                if not can_pair:
                    break
                if remaining <= can_pair:
                    matched[v] = True
                    continue
                remaining -= 1
                if not in_bracket(mate[v]):
                    for r in range(mdp_count, size):
                        if W(r, x):
                            m.set(v, bracket[r], W(r, x) | 1)
                    mate = m.compute()
                if in_bracket(mate[v]):
                    matched[v] = True
                    can_pair -= 1
                    for r in range(mdp_count, size):
                        if W(r, x):
                            m.set(v, bracket[r], (W(r, x) | (size - mdp_count)) + 1)
            i += len(group)

        # Art. 3.3.3 / 4.2: the MDP-pairing, each MDP with the highest resident possible
        for x in range(mdp_count):
            v = bracket[x]
            if not matched[v]:
                continue
            mate = take_first_partner(v, [
                (bracket[r], W(r, x))
                for r in range(mdp_count, size)
                if not matched[bracket[r]] and W(r, x)
            ])
            opp = mate[v]
            matched[opp] = True
            m.finalize(v, opp)

        # The remainder (Art. 3.3.3): residents not paired with an MDP.
        remainder = [
            x for x in range(mdp_count, size) if mate[bracket[x]] >= resident_first_vertex
        ]
        rpairs = sum(1 for x in remainder if mate[bracket[x]] < bracket[x])

        def term(s_pos: int) -> int:
            # Art. 4.3.2: fewest exchanges, then the smallest BSN differences
            return ((s_pos < rpairs) << (2 * S)) - s_pos

        def ew(si: int, li: int, s_pos: int) -> int:
            w = W(li, si)
            return w + (term(s_pos) << 1) if w else 0

        def s1_type(x: int) -> bool:
            v = bracket[x]
            return v < mate[v] < next_first_vertex

        # An optimal matching that already pairs each of the first rpairs players with a
        # lower one needs no exchange and has the smallest BSN sum: the Art. 4.3.2 terms
        # would change nothing, and the S1-S2 pairs keep their bare weights (see below).
        if not all(s1_type(x) for x in remainder[:rpairs]):
            # A pair's weight gains twice the term of its higher player (``ew``); raising
            # each player's doubled dual by twice that gain, where positive, keeps every
            # pair feasible and the optimal S1-S2 pairs tight: only the others are re-paired.
            m.raise_duals({
                bracket[x]: term(p) << 2 for p, x in enumerate(remainder) if term(p) > 0
            })
            m.set_many([
                (bracket[a], bracket[b], ew(a, b, a_pos) or None)
                for a_pos, a in enumerate(remainder)
                for b in remainder[a_pos + 1:]
            ])
            mate = m.compute()

        def pair_in_optimum(x: int, p_pos: int, partners: Container[int], step: int) -> list[int]:
            """Art. 4.3.2: let x meet one of the partners if an optimal matching allows it,
            asked of the tight edges first, else by moving x's pairs with the lower
            remainder players by step (-1: away from them, +1: towards them) and solving."""
            v = bracket[x]
            if m.pair_with_any(v, partners) is not None:
                return m.mate
            for y in remainder[p_pos + 1:]:
                w = ew(x, y, p_pos)
                if w:
                    m.set(v, bracket[y], w + step)
            return m.compute()

        exchanges = sum(1 for x in remainder[:rpairs] if not s1_type(x))
        note_exchanges = exchanges
        # Art. 4.3.2: move the lowest possible players of S1 to S2
        left = exchanges
        p_pos = rpairs
        while p_pos > 0 and left:
            p_pos -= 1
            x = remainder[p_pos]
            v = bracket[x]
            if s1_type(x):
                # can an optimal matching pair x with anyone but a lower remainder player?
                lower = {bracket[y] for y in remainder[p_pos + 1:]}
                mate = pair_in_optimum(x, p_pos, _Outside(lower), -1)
            exchange = not s1_type(x)
            left -= exchange
            for y in remainder[p_pos + 1:]:
                if exchange:
                    bw[(y, x)] = 0
                m.set(v, bracket[y], ew(x, y, p_pos))
        # Art. 4.3.2: move the highest possible players of S2 to S1
        left = exchanges
        for p_pos in range(rpairs, len(remainder)):
            if left <= 1:
                break
            x = remainder[p_pos]
            v = bracket[x]
            already = s1_type(x)
            if not already:
                # can an optimal matching pair x with a lower remainder player?
                lower = {bracket[y] for y in remainder[p_pos + 1:]}
                mate = pair_in_optimum(x, p_pos, lower, +1)
            if s1_type(x):
                left -= 1
                for y in remainder[:p_pos]:
                    bw[(x, y)] = 0
                    m.set(v, bracket[y], 0)
                for y in range(size, len(bracket)):
                    bw[(y, x)] = 0
                    m.set(v, bracket[y], 0)
            if not already:
                for y in remainder[p_pos + 1:]:
                    m.set(v, bracket[y], ew(x, y, p_pos))
        # S1 and S2 of the remainder are now fixed: only S1-S2 pairs stay possible.  These
        # keep their Art. 4.3.2 terms: as a term depends on the S1 player only, it adds the
        # same to every matching that pairs all of S1 in the bracket, as every optimal one
        # does ([C6]), so the optimal matchings stay those of the bare weights W.
        apart: list[tuple[int, int, None]] = []
        for a_pos, a in enumerate(remainder):
            for b in remainder[a_pos + 1:]:
                if not s1_type(a) or s1_type(b):
                    bw[(b, a)] = 0
                    apart.append((bracket[a], bracket[b], None))
        m.set_many(apart)
        # Art. 4.2: each S1 player in order takes the first S2 player the criteria allow.
        mate = m.compute()
        for x in remainder:
            v = bracket[x]
            if not s1_type(x):
                continue
            mate = take_first_partner(v, [
                (bracket[y], W(y, x))
                for y in remainder
                if y > x and not matched[bracket[y]] and W(y, x)
            ])
            opp = mate[v]
            matched[v] = matched[opp] = True
            m.finalize(v, opp)

        if not special and not completable([v for v in range(n) if v not in m.fixed]):
            # 2017 A.9: the downfloaters cannot be paired with the lower players: this bracket
            # is the PPB; pair it again so that the round can be completed (C.4)
            bracket, group_start, m.fixed, m.mate, matched, kept, lines = saved
            del result[kept:]
            del note.lines[lines:]
            ppb = True
            continue
        ppb = False
        # Pairs of this bracket, and the players moving down (Art. 1.4.1).
        new_bracket: list[int] = []
        new_mdp = 0
        # [C9] note: the next bracket downfloats exactly one player, who will end up receiving
        # the PAB. Its residents score no more than the PAB score (the assignee may be one of
        # its MDPs, I-37) and the matching pairs none of its players below them.
        next_score = players[next_group_start].score if next_group_start < n else None
        c9 = bool(
            odd and bye_score is not None and next_score is not None
            and bye_score >= next_score
        )
        for idx, v in enumerate(bracket):
            if idx < size and matched[v]:
                if v < mate[v]:
                    result.append((v, mate[v]))
            else:
                new_bracket.append(v)
                if idx < size:
                    new_mdp += 1
                if c9 and players[mate[v]].score < next_score:
                    c9 = False
        paired_here = [
            f"{players[v].tpn}-{players[mate[v]].tpn}"
            for v in bracket[:size]
            if matched[v] and v < mate[v]
        ]
        if paired_here:
            note.add("  pairs: " + " ".join(paired_here))
        downfloaters = [players[v].tpn for v in new_bracket[:new_mdp]]
        if downfloaters and size > 1:
            note.add(f"  downfloaters: {', '.join(map(str, downfloaters))}")
        if note_exchanges:
            note.add(f"  resident-exchanges in the remainder: {note_exchanges}")
        bracket = new_bracket
        mdp_count = new_mdp
        resident_first_vertex = next_first_vertex
    for v in bracket:
        result.append((v, v))
    return result


def _explain_criteria(
    note: _Explanation, players: dict[int, PlayerState], boards: list[Board], bye: int | None
) -> None:
    """List the quality criteria the round does not fully meet ([C12]-[C17])."""
    no_colour, no_strong, down_again, up_again = [], [], [], []
    for board in boards:
        for tpn, colour in ((board.white, Color.WHITE), (board.black, Color.BLACK)):
            p = players[tpn]
            if p.preference is not None and p.preference is not colour:
                no_colour.append(tpn)
                if p.strong or p.absolute:
                    no_strong.append(tpn)
        w, b = players[board.white], players[board.black]
        if w.score != b.score:
            high, low = (w, b) if w.score > b.score else (b, w)
            if high.float1 is Float.DOWN:
                down_again.append(high.tpn)
            if low.float1 is Float.UP:
                up_again.append(low.tpn)
    if bye is not None and players[bye].float1 is Float.DOWN:
        down_again.append(bye)
    for article, what, tpns in (
        ("[C12]", "colour preference not granted", no_colour),
        ("[C13]", "strong or absolute colour preference not granted", no_strong),
        ("[C14]", "downfloat again after a downfloat in the previous round", down_again),
        ("[C15]", "upfloat again after an upfloat in the previous round", up_again),
    ):
        if tpns:
            note.add(f"{article} {what}: {' '.join(map(str, sorted(tpns)))}")


def _explain_bracket(
    note: _Explanation, players: list[PlayerState], bracket: list[int], mdps: int, size: int
) -> None:
    if size == 0:
        return
    residents = bracket[mdps:size]
    score = players[residents[0]].score if residents else players[bracket[0]].score
    note.add(f"bracket {format_points(score)}:")
    if mdps:
        note.add("  MDPs: " + " ".join(
            f"{players[v].tpn}({format_points(players[v].score)})" for v in bracket[:mdps]
        ))
    note.add("  residents: " + " ".join(str(players[v].tpn) for v in residents))
