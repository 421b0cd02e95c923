"""Edge weights: the quality criteria of C.04.3 Art. 2 encoded as one integer per pair.

A maximum weight matching with these weights pairs as many players as possible and, among the
pairings that do, prefers the one that best satisfies the criteria in their order of priority,
because each criterion occupies bits above all the criteria that come after it. Python integers
are unbounded, so the fields never overflow into each other.

Field layout, most significant first (``S`` bits hold a count of players in a score group, ``G``
bits hold one counter per score group so that higher scores weigh more):

1. completion and PAB: 1 for any legal pair ([C4]) plus 1 for each player who cannot be the
   PAB assignee ([C2], [C5]);
2. pairs in the current bracket ([C6]), then the scores paired in it ([C7]);
3. the same two for the next bracket ([C8]);
4. [C9]: for each paired player on the PAB score, the rank of their unplayed games (the more,
   the heavier), so that the PAB goes to the fewest; only in a bracket that downfloats just
   the PAB assignee, who may be a resident or an MDP (docs/INTERPRETATIONS.md I-11, I-37);
5. colours [C10]-[C13];
6. floats [C14]-[C17], then score differences of floaters [C18]-[C21];
7. low bits left free for the generation order of Art. 3-4 (exchanges, then which pairs).
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.dutch.players import Float, PlayerState
from pairing.model import RuleSet
from pairing.rules import same_absolute_preference

__all__ = [
    "Layout", "PsdLayout", "WeightMemo", "bits_to_represent", "compatibility", "compatible",
    "weight_signature",
]


def bits_to_represent(value: int) -> int:
    return max(value, 0).bit_length()


def compatible(a: PlayerState, b: PlayerState, *, forbidden: frozenset[frozenset[int]]) -> bool:
    """Return whether two players may meet under the absolute criteria [C1] and [C3]."""
    if b.tpn in a.met:  # [C1]
        return False
    if frozenset((a.tpn, b.tpn)) in forbidden:  # prohibited pairing (TRF 260/XXP)
        return False
    if same_absolute_preference(a.colour_preference, b.colour_preference):  # [C3]
        return a.topscorer or b.topscorer  # Art. 1.8: topscorers are exempt
    return True


def compatibility(
    players: list[PlayerState], *, forbidden: frozenset[frozenset[int]]
) -> list[bytearray]:
    """``ok[i][j]``: whether players i and j may meet, ``compatible(players[i], players[j])``
    for i > j, asked only of the few pairs it can refuse.

    ``compatible`` refuses only a pair that met ([C1]), a prohibited pair, or two players with
    the same absolute colour preference ([C3]); every other pair may meet.
    """
    n = len(players)
    position = {p.tpn: i for i, p in enumerate(players)}
    doubtful: set[tuple[int, int]] = set()
    for i, p in enumerate(players):
        doubtful.update((i, position[tpn]) for tpn in p.met if tpn in position)  # [C1]
    for pair in forbidden:  # prohibited pairings (TRF 260/XXP)
        ends = [position[tpn] for tpn in pair if tpn in position]
        if len(ends) == 2:
            doubtful.add((ends[0], ends[1]))
    by_colour: dict[object, list[int]] = {}
    for i, p in enumerate(players):
        if p.absolute:
            by_colour.setdefault(p.preference, []).append(i)
    for group in by_colour.values():  # [C3]
        doubtful.update((i, j) for x, i in enumerate(group) for j in group[:x])
    # one byte per pair (a list of bools would take eight): 25 MB, not 200, at 5000 players
    ok = [bytearray(b"\x01") * n for _ in range(n)]
    for i in range(n):
        ok[i][i] = False
    for a, b in doubtful:
        i, j = max(a, b), min(a, b)
        ok[i][j] = ok[j][i] = compatible(players[i], players[j], forbidden=forbidden)
    return ok


@dataclass(frozen=True)
class PsdLayout:
    """Bit offsets of the score differences of one 2017 bracket (A.8, C.6).

    A PSD is a list of score differences compared from the largest down; with the number of
    pairs fixed, counting each difference in a field of its own, larger differences in
    higher bits, compares them the same way.
    """

    shift: dict[int, int]
    width: int
    lowest: int
    """The score one point above which a downfloater's difference is taken."""
    following: PsdLayout | None = None
    """C.7: the layout of the following bracket, when its PSD must be weighed too."""

    def floater_difference(self, score: int) -> int:
        return score - self.lowest + POINT

    @classmethod
    def for_scores(
        cls, scores: list[int], lowest: int, following: PsdLayout | None = None
    ) -> PsdLayout:
        """Room for every difference a pair or a downfloater of these players can have."""
        counts: dict[int, int] = {}
        for i, a in enumerate(scores):
            d = a - lowest + POINT
            counts[d] = counts.get(d, 0) + 1
            for b in scores[i + 1:]:
                d = abs(a - b)
                counts[d] = counts.get(d, 0) + 1
        shift: dict[int, int] = {}
        offset = 0
        for d in sorted(counts):
            shift[d] = offset
            offset += bits_to_represent(counts[d])
        return cls(shift, offset, lowest, following)


POINT = 10
"""2017 A.8 "one point", in tenths of a point."""


@dataclass
class Layout:
    """The widths of the fields for one round, and the per-score-group bit offsets."""

    size_bits: int
    """S: bits to count the players of the largest score group."""
    groups_bits: int
    """G: total bits of the per-score-group counters."""
    group_shift: dict[int, int]
    """Bit offset of each score group's counter (the lowest score at 0)."""
    played_rounds: int
    rules: RuleSet

    @classmethod
    def for_players(cls, players: list[PlayerState], played_rounds: int, rules: RuleSet) -> Layout:
        shift: dict[int, int] = {}
        offset = 0
        largest = 0
        sizes: dict[int, int] = {}
        for p in players:
            sizes[p.score] = sizes.get(p.score, 0) + 1
        for score in sorted(sizes):
            shift[score] = offset
            offset += bits_to_represent(sizes[score])
            largest = max(largest, sizes[score])
        return cls(bits_to_represent(largest), offset, shift, played_rounds, rules)

    def weight(
        self,
        higher: PlayerState,
        lower: PlayerState,
        *,
        in_current: bool,
        in_next: bool,
        bye_candidate_higher: bool,
        bye_candidate_lower: bool,
        c9_active: bool = False,
        bye_score: int = 0,
        unplayed_rank: dict[int, int] | None = None,
        completion: bool = True,
        final_next: bool = False,
        psd: PsdLayout | None = None,
    ) -> int:
        """Return the weight of a legal pair (the caller checks compatibility first).

        ``higher`` is the player ranked higher (Art. 1.2); ``in_current``/``in_next`` say
        whether ``lower`` belongs to the bracket being paired or to the next score group.
        ``completion=False`` leaves the completion field empty (2017 rules: only the last
        bracket and the PPB must let the round be completed, A.9); ``final_next`` marks a
        bracket whose next score group is the last one (2017 C.7: the following bracket is
        then the last one, whose pairs must also leave the PAB to an eligible player).
        The fields are those of ``fields``, most significant first.
        """
        w = 0
        for width, value in self.fields(
            higher, lower, in_current=in_current, in_next=in_next,
            bye_candidate_higher=bye_candidate_higher, bye_candidate_lower=bye_candidate_lower,
            c9_active=c9_active, bye_score=bye_score, unplayed_rank=unplayed_rank,
            completion=completion, final_next=final_next, psd=psd,
        ):
            w = (w << width) + value
        return w

    def fields(
        self,
        higher: PlayerState,
        lower: PlayerState,
        *,
        in_current: bool,
        in_next: bool,
        bye_candidate_higher: bool,
        bye_candidate_lower: bool,
        c9_active: bool = False,
        bye_score: int = 0,
        unplayed_rank: dict[int, int] | None = None,
        completion: bool = True,
        final_next: bool = False,
        psd: PsdLayout | None = None,
    ) -> list[tuple[int, int]]:
        """The weight of a legal pair field by field, most significant first: (width,
        value) for each of the FIELDS (a field a round does not use has width 0 and value
        0).  A value may be negative (the 2017 PSD terms): the weight adds each value at its
        place, and a matching's sum of one field compares as the criterion does.
        """
        S, G = self.size_bits, self.groups_bits
        out: list[tuple[int, int]] = []
        # [C4] completion, [C2]/[C5]: pair those who cannot take the PAB
        out.append((
            0, 1 + (not bye_candidate_higher) + (not bye_candidate_lower) if completion else 0
        ))
        # [C6] pairs in the bracket, [C7] scores paired in it
        out.append((S, int(in_current)))
        if psd is not None:
            # 2017 C.6: the lowest PSD (A.8). A paired player no longer counts as a
            # downfloater (score minus one point less than the lowest score); the pair counts
            # its score difference. Larger differences take higher bits.
            value = 0
            if in_current:
                value += 1 << psd.shift[psd.floater_difference(higher.score)]
                value += 1 << psd.shift[psd.floater_difference(lower.score)]
                value -= 1 << psd.shift[higher.score - lower.score]
            out.append((psd.width, value))
        else:
            out.append((G, in_current << self.group_shift[higher.score] if in_current else 0))
        # [C8] the next bracket: its pairs and scores
        if self.rules is RuleSet.DUTCH_2017:
            # 2017 C.7 (A.9): before the last bracket, its pairs count with their PAB
            # eligibility, like the completion field of the last bracket itself
            if final_next:
                nxt = 1 + (not bye_candidate_higher) + (not bye_candidate_lower)
            else:
                nxt = int(in_next)
            out.append((S + 2, nxt))
        else:
            out.append((S, int(in_next)))
        out.append(self._following_field(higher, lower, in_current, in_next, psd))
        # [C9] minimise the unplayed games of the PAB assignee
        value = 0
        if c9_active and unplayed_rank is not None:
            if higher.score == bye_score:
                value += unplayed_rank[self.played_rounds - higher.played_games]
            if lower.score == bye_score:
                value += unplayed_rank[self.played_rounds - lower.played_games]
        out.append((S, value))
        self._colour_fields(out, lower, higher, in_current)
        self._float_fields(out, higher, lower, in_current, psd)
        # room for the generation order (Art. 3.6-3.7, 4.2-4.4)
        out.append((3 * S + 1, 0))
        return out

    def _following_field(
        self, higher: PlayerState, lower: PlayerState, in_current: bool, in_next: bool,
        psd: PsdLayout | None,
    ) -> tuple[int, int]:
        """[C8] the scores paired in the next bracket; 2017 C.7: the following bracket's PSD."""
        following = psd.following if psd is not None else None
        if following is not None:
            # 2017 C.7: then the PSD of the following bracket (A.8). Everyone in this
            # matching counts as its downfloater until paired: a pair in this bracket takes
            # both out of it, a pair in it leaves its own difference instead
            value = 0
            if in_current or in_next:
                value += 1 << following.shift[following.floater_difference(higher.score)]
                value += 1 << following.shift[following.floater_difference(lower.score)]
            if in_next:
                value -= 1 << following.shift[higher.score - lower.score]
            return following.width, value
        if self.rules is not RuleSet.DUTCH_2017:
            return self.groups_bits, (1 << self.group_shift[higher.score]) if in_next else 0
        return 0, 0

    def _colour_fields(
        self, out: list[tuple[int, int]], p: PlayerState, o: PlayerState, mask: bool
    ) -> None:
        S = self.size_bits
        same = p.preference is o.preference and p.preference is not None
        # [C10] topscorers (or opponents) whose colour difference would go beyond +-2
        out.append((S, int(mask and not (p.absolute_imbalance and o.absolute_imbalance and same))))
        # [C11] topscorers (or opponents) getting the same colour three times in a row
        ok = True
        if p.absolute and o.absolute and same:
            if p.imbalance == o.imbalance:
                ok = p.repeated is None or p.repeated is not o.repeated
            else:
                weaker = o if p.imbalance > o.imbalance else p
                ok = weaker.repeated is not p.preference.opposite
        out.append((S, int(mask and ok)))
        # [C12] colour preferences granted
        out.append((S, int(mask and not same)))
        # [C13] strong colour preferences granted
        ok = (
            not (p.strong or p.absolute)
            or not (o.strong or o.absolute)
            or (p.absolute and o.absolute)
            or not same
        )
        out.append((S, int(mask and ok)))

    def _float_fields(
        self, out: list[tuple[int, int]], hi: PlayerState, lo: PlayerState, cur: bool,
        psd: PsdLayout | None,
    ) -> None:
        S = self.size_bits
        shift = self.group_shift
        rounds = self.played_rounds
        for back, attr in ((1, "float1"), (2, "float2")):
            if rounds < back:
                out += ((0, 0), (0, 0))
                continue
            f_lo, f_hi = getattr(lo, attr), getattr(hi, attr)
            # [C14]/[C16] (2017 C.12/C.14): downfloaters repeated
            value = 0
            if cur:
                value = int(f_lo is Float.DOWN) + int(hi.score <= lo.score and f_hi is Float.DOWN)
            out.append((S, value))
            # [C15]/[C17] (2017 C.13/C.15): upfloaters repeated
            out.append((S, int(cur and not (hi.score > lo.score and f_lo is Float.UP))))
        if psd is not None:
            self._float_differences_2017(out, hi, lo, cur, psd)
            return
        for back, attr in ((1, "float1"), (2, "float2")):
            if rounds < back:
                out += ((0, 0), (0, 0))
                continue
            f_lo, f_hi = getattr(lo, attr), getattr(hi, attr)
            # [C18]/[C20]: scores of repeated downfloaters
            value = 0
            if cur:
                value += (f_lo is Float.DOWN) << shift[lo.score]
                value += (f_hi is Float.DOWN) << shift[hi.score]
            out.append((self.groups_bits, value))
            # [C19]/[C21]: scores of the opponents of repeated upfloaters
            out.append((
                self.groups_bits,
                (1 << shift[hi.score]) if cur and not (f_lo is Float.UP and hi.score > lo.score)
                else 0,
            ))

    def _float_differences_2017(
        self, out: list[tuple[int, int]], hi: PlayerState, lo: PlayerState, cur: bool,
        psd: PsdLayout,
    ) -> None:
        """2017 C.16-C.19: the score differences (A.8) of repeated floaters, lowest first.

        A repeated downfloater who is paired in the bracket no longer counts with its
        downfloater difference, only with the difference of its pair if it is the higher
        player; a repeated upfloater counts with the difference of its pair. Terms may be
        negative: one spare bit per field keeps the sums of a matching from reaching the
        field above.
        """
        width = psd.width + 1
        difference = hi.score - lo.score
        for back, attr in ((1, "float1"), (2, "float2")):
            if self.played_rounds < back:
                out += ((0, 0), (0, 0))
                continue
            f_lo, f_hi = getattr(lo, attr), getattr(hi, attr)
            # C.16/C.18: downfloaters repeated from 1 (2) rounds before
            value = 0
            if cur:
                if f_lo is Float.DOWN:
                    value += 1 << psd.shift[psd.floater_difference(lo.score)]
                if f_hi is Float.DOWN:
                    value += 1 << psd.shift[psd.floater_difference(hi.score)]
                    if difference > 0:
                        value -= 1 << psd.shift[difference]
            out.append((width, value))
            # C.17/C.19: upfloaters repeated from 1 (2) rounds before
            value = 0
            if cur and f_lo is Float.UP and difference > 0:
                value -= 1 << psd.shift[difference]
            out.append((width, value))


def weight_signature(p: PlayerState) -> tuple:
    """Every attribute of a player that ``Layout.weight`` reads, directly or through the PAB
    candidacy its caller derives from the score and the eligibility ([C2], [C5])."""
    return (
        p.score,
        p.preference, p.absolute, p.strong, p.imbalance, p.repeated,  # [C10]-[C13]
        p.float1, p.float2,  # [C14]-[C21]
        p.played_games,  # [C9]
        p.eligible_for_bye,
    )


class WeightMemo:
    """The weights of one round, remembered by the weight signatures of the two players.

    Exact: ``Layout.weight`` reads nothing of a player outside ``weight_signature``, so two
    pairs whose players have the same signatures, in the same order, get the same weight for
    the same arguments. The caller keys a weight with the signatures and every argument that
    varies between calls, except the 2017 PSD layout (A.8), which is a new object for each
    bracket: ``bracket`` starts an empty memo when another one comes. A thousand players
    have about a hundred signatures, so most of the pairs of a bracket are found here.
    """

    def __init__(self, players: list[PlayerState]) -> None:
        ids: dict[tuple, int] = {}
        self.signature = [ids.setdefault(weight_signature(p), len(ids)) for p in players]
        """The signature of each vertex, as a small int."""
        self.psd: PsdLayout | None = None
        self.weights: dict[tuple, int] = {}

    def bracket(self, psd: PsdLayout | None) -> dict[tuple, int]:
        """The weights remembered with this PSD layout (None outside the 2017 rules)."""
        if psd is not self.psd:
            self.psd = psd
            self.weights = {}
        return self.weights
