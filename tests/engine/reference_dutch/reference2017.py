"""Literal brute-force reference of the FIDE Dutch system, 2017 text (Baku 2016, Goynuk 2017).

Same machinery as ``reference.py`` (brackets, S1/S2/Limbo, the sequences of section D, colours
of section E, which are unchanged), with the 2017 criteria: C.4 only for the Penultimate Pairing
Bracket and the Collapsed Last Bracket route of A.9, PSD (A.8) for C.6, look-ahead C.7, floats
C.12-C.19 counted for every player who receives a float, and the 2017 float/bye definitions
(A.4.b, C.2). Open points: docs/INTERPRETATIONS.md, section "2017 rules" (I-30 and on).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations

from pairing.errors import NoValidPairing, UnsupportedFeature
from pairing.model import Board, RoundPairing, RuleSet, Tournament
from pairing.trf import next_round_number
from reference_dutch.reference import (
    DOWN,
    MAX_PLAYERS,
    UP,
    _Bracket,
    _Candidate,
    _facts,
    _Round,
    _StopSearch,
    allocate_colours,
)

__all__ = ["reference_pair_round_2017"]

POINT = 10
"""A.8 "one point", in tenths."""

ENUMERATION_LIMIT = 12
"""Largest bracket whose pairings are all enumerated to find the best vector (I-31)."""


class _Round2017(_Round):
    def __init__(
        self,
        t: Tournament,
        k: int,
        max_players: int = MAX_PLAYERS,
        effective_tpn: bool = True,
        unplayed_downfloat: bool = True,
    ) -> None:
        super().__init__(t, k, max_players, effective_tpn)
        if not unplayed_downfloat:
            # I-34: floats as in the 2026 text (1.4.3-1.4.4) instead of A.4.b
            floats = _facts(replace(t, rules=RuleSet.DUTCH_2026), k, effective_tpn)
            self.facts = {
                tpn: replace(facts, floats=floats[tpn].floats)
                for tpn, facts in self.facts.items()
            }

    def pair(self) -> RoundPairing:
        if self.bye_score(frozenset(self.facts)) is None:
            raise NoValidPairing(f"round {self.k}: no pairing complies with C.1-C.3 (A.9)")
        groups = self.scoregroups()
        pairs: list[tuple[int, int]] = []
        mdps: list[int] = []
        for i, group in enumerate(groups):
            lower = frozenset(tpn for g in groups[i + 1:] for tpn in g)
            bracket = self.bracket(mdps, group, lower, groups[i + 1] if lower else [], False)
            chosen = self.pair_bracket(bracket)
            down = frozenset(chosen.downfloaters)
            if lower and self.bye_score(down | lower) is None:
                # A.9: the bracket just paired is the PPB. Re-pair it with C.4, then its
                # downfloaters and all the lower players form the Collapsed Last Bracket.
                ppb = self.bracket(mdps, group, lower, [], True)
                chosen = self.pair_bracket(ppb)
                pairs += chosen.pairs
                clb_mdps = sorted(chosen.downfloaters, key=self.rank.__getitem__)
                residents = sorted(lower, key=self.rank.__getitem__)
                clb = self.bracket(clb_mdps, residents, frozenset(), [], True)
                chosen = self.pair_bracket(clb)
                pairs += chosen.pairs
                mdps = list(chosen.downfloaters)
                break
            pairs += chosen.pairs
            mdps = sorted(chosen.downfloaters, key=self.rank.__getitem__)
        if len(mdps) > 1:
            raise NoValidPairing(f"round {self.k}: {len(mdps)} players left unpaired (A.9)")
        initial = self.t.initial_color
        if initial is None:
            raise UnsupportedFeature("no initial colour (XXC): E.5 cannot be applied")
        boards = [
            Board(*allocate_colours(self.facts[x], self.facts[y], initial, self.rank))
            for x, y in pairs
        ]
        boards.sort(key=lambda b: min(self.rank[b.white], self.rank[b.black]))
        return RoundPairing(round=self.k, boards=tuple(boards), bye=mdps[0] if mdps else None)

    def bracket(
        self,
        mdps: list[int],
        residents: list[int],
        lower: frozenset[int],
        next_group: list[int],
        completion: bool,
    ) -> _Bracket:
        """A bracket; ``completion`` marks the PPB and the CLB (C.4, no C.7)."""
        return _Bracket(
            players=sorted(mdps + residents, key=self.rank.__getitem__),
            mdps=mdps,
            residents=residents,
            lower=lower,
            next_group=next_group,
            is_last=not lower,
            completion=completion,
        )

    def pair_bracket(self, br: _Bracket) -> _Candidate:
        br.bound = self.best_vector(br)
        if br.bound is None:
            raise NoValidPairing(
                f"round {self.k}: no pairing of the bracket {br.players} complies with C.1-C.4"
            )
        try:
            if br.mdps:
                self.heterogeneous(br)
            else:
                self.homogeneous(br, br.players, (), ())
        except _StopSearch:
            pass
        if br.best_candidate is None:
            raise NoValidPairing(
                f"round {self.k}: the sequence of B.6/B.7 yields no valid candidate for "
                f"{br.players}"
            )
        return br.best_candidate

    def good(self, br: _Bracket, vector: tuple) -> bool:
        return True  # B.1: MaxPairs and M1 only need the absolute criteria (I-5)

    # -- the best vector, by direct enumeration of the pairings of the bracket ------------------

    def matchings(
        self, players: list[int], mdps: frozenset[int], floaters: int
    ) -> Iterator[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]]:
        """Every pairing of the bracket with that many downfloaters, never two MDPs together."""

        def walk(rest: tuple[int, ...], left: int) -> Iterator[tuple[tuple, tuple]]:
            if not rest:
                yield (), ()
                return
            x, others = rest[0], rest[1:]
            if left:
                for pairs, down in walk(others, left - 1):
                    yield pairs, (x,) + down
            if len(rest) - left >= 2:
                for i, y in enumerate(others):
                    if (x in mdps and y in mdps) or not self.compatible(x, y):
                        continue
                    for pairs, down in walk(others[:i] + others[i + 1:], left):
                        yield ((x, y),) + pairs, down

        yield from walk(tuple(players), floaters)

    def best_vector(self, br: _Bracket) -> tuple | None:
        """I-31: the best criteria vector over all pairings of the bracket (fewest floaters).

        Brackets of more than ``ENUMERATION_LIMIT`` players have too many pairings: a lower bound
        is used instead (reaching it still means no later candidate can be better).
        """
        mdps = frozenset(br.mdps)
        n = len(br.players)
        if n > ENUMERATION_LIMIT:
            return self.lower_bound_2017(br)
        for floaters in range(n % 2, n + 1, 2):
            best = None
            for pairs, down in self.matchings(br.players, mdps, floaters):
                cand = _Candidate(pairs, down, tuple(p for p in pairs if p[0] in mdps))
                vector = self.criteria(br, cand)
                if vector is not None and (best is None or vector < best):
                    best = vector
            if best is not None:
                return best
        return None

    def lower_bound_2017(self, br: _Bracket) -> tuple:
        """A vector no candidate of a large bracket can beat (tight for homogeneous brackets)."""
        n = len(br.players)
        floaters = n - 2 * min(n // 2, len(br.residents))
        pairs = (n - floaters) // 2
        if br.mdps:
            psd: tuple[int, ...] = (0,) * (pairs + floaters)  # loose
        else:
            psd = (POINT,) * floaters + (0,) * pairs  # A.8 in a homogeneous bracket
        c7: tuple = ()
        if not br.completion and not br.is_last:
            if br.mdps:
                c7 = (0,)  # loose
            else:
                c7 = min(
                    (self.next_bracket(frozenset(d), br)
                     for d in combinations(br.players, floaters)),
                    default=(0,),
                )
        zeros = (0,) * n
        c10, c11 = self.colour_bound(br.players, floaters)
        return (floaters, psd, c7, 0, 0, c10, c11, 0, 0, 0, 0, zeros, zeros, zeros, zeros)

    # -- criteria ---------------------------------------------------------------------------

    def criteria(self, br: _Bracket, cand: _Candidate) -> tuple | None:
        """C.5-C.19 (lower is better), or None if C.1-C.4 (or A.9 for the last bracket) fail."""
        f = self.facts
        down = cand.downfloaters
        if br.is_last:
            if len(down) > 1:
                return None  # A.9: complete, all but at most one player paired
            if down and not f[down[0]].may_get_bye:
                return None  # C.2: the PAB is part of the pairing of the last bracket
        elif br.completion and self.bye_score(frozenset(down) | br.lower) is None:
            return None  # C.4 (PPB)
        low = min(f[x].score for x in br.players)
        psd = self.psd(cand.pairs, down, low)
        look_ahead = not br.completion and not br.is_last
        c7 = self.next_bracket(frozenset(down), br) if look_ahead else ()
        colours = self.colour_criteria(cand.pairs)
        # A.4.b: who receives a float this round, and the score difference that goes with it
        downfloat: dict[int, int] = {x: f[x].score - (low - POINT) for x in down}  # I-32
        upfloat: dict[int, int] = {}
        for x, y in cand.pairs:
            if f[x].score != f[y].score:
                high, lo = (x, y) if f[x].score > f[y].score else (y, x)
                downfloat[high] = upfloat[lo] = f[high].score - f[lo].score
        k, width = self.k, len(br.players)

        def same(received: dict[int, int], kind: str, rounds_ago: int) -> list[int]:
            return [sd for x, sd in received.items() if f[x].float_in(k - rounds_ago) == kind]

        def differences(values: list[int]) -> tuple[int, ...]:
            return tuple(sorted(values, reverse=True) + [0] * (width - len(values)))

        return (
            len(down),  # C.5
            psd,  # C.6
            c7,  # C.7
            *colours,  # C.8-C.11
            len(same(downfloat, DOWN, 1)),  # C.12
            len(same(upfloat, UP, 1)),  # C.13
            len(same(downfloat, DOWN, 2)),  # C.14
            len(same(upfloat, UP, 2)),  # C.15
            differences(same(downfloat, DOWN, 1)),  # C.16
            differences(same(upfloat, UP, 1)),  # C.17
            differences(same(downfloat, DOWN, 2)),  # C.18
            differences(same(upfloat, UP, 2)),  # C.19
        )

    def psd(self, pairs, down, low: int) -> tuple[int, ...]:
        """A.8: score differences of the pairs and of the downfloaters, highest first."""
        f = self.facts
        sds = [abs(f[x].score - f[y].score) for x, y in pairs]
        sds += [f[x].score - (low - POINT) for x in down]
        return tuple(sorted(sds, reverse=True))

    def next_bracket(self, down: frozenset[int], br: _Bracket) -> tuple:
        """C.7: the most pairs, then the lowest PSD, of the following bracket (I-33)."""
        key = (down, self.rank[br.next_group[0]])
        if key in self._next_best:
            return self._next_best[key]
        f = self.facts
        group = br.next_group
        is_last = not (br.lower - set(group))
        players = list(down) + list(group)
        low = min(f[x].score for x in players)
        best: tuple = (1,)
        for size in range(len(players) % 2, len(players) + 1, 2):
            if is_last and size > 1:
                break
            for floaters in combinations(players, size):
                if is_last and floaters and not f[floaters[0]].may_get_bye:
                    continue
                rest = frozenset(players) - set(floaters)
                if not self.matchable(rest, down):
                    continue
                # every paired MDP meets a resident of the next scoregroup (I-33)
                sds = [f[x].score - f[group[0]].score for x in rest if x in down]
                sds += [0] * ((len(rest) - 2 * len(sds)) // 2)
                sds += [f[x].score - (low - POINT) for x in floaters]
                value = (0, size, tuple(sorted(sds, reverse=True)))
                if value < best:
                    best = value
            if best != (1,):
                break
        self._next_best[key] = best
        return best


def reference_pair_round_2017(
    t: Tournament,
    k: int | None = None,
    *,
    max_players: int = MAX_PLAYERS,
    effective_tpn: bool = True,
    unplayed_downfloat: bool = True,
) -> RoundPairing:
    """Pair round k of a small tournament by the literal 2017 rules (see reference_pair_round).

    ``unplayed_downfloat=False`` gives floats only as the 2026 text does (I-34): no downfloat
    for an absence or a forfeit loss, which is what ``pairing.dutch`` does.
    """
    if t.accelerations or t.baku:
        raise UnsupportedFeature("the reference does not implement accelerated pairings")
    t = replace(t, rules=RuleSet.DUTCH_2017)
    k = k if k is not None else next_round_number(t)
    return _Round2017(t, k, max_players, effective_tpn, unplayed_downfloat).pair()
