"""Literal brute-force reference of the FIDE Dutch system, C.04.3 (2026 text).

``reference_pair_round(t)`` pairs the next round of a small tournament (at most
``MAX_PLAYERS`` players present) by doing what the text says, bracket by bracket (Art. 1.9.2):
build S1, S2 and the Limbo (Art. 3.2), generate the candidates in the order of Art. 3.6/3.7 and
4.2-4.4, evaluate every candidate against [C1]-[C21] (Art. 2), keep the best one (Art. 3.8.1)
and allocate colours (Art. 5). Open points of the text: docs/INTERPRETATIONS.md (I-numbers below).

Nothing here is fast: completion checks ([C4]) are exhaustive searches over the remaining
players. It is an oracle for tests, not an engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, permutations

from pairing.errors import NoValidPairing, UnsupportedFeature
from pairing.model import Board, Color, Player, ResultCode, RoundPairing, RuleSet, Tournament
from pairing.trf import next_round_number

__all__ = ["MAX_PLAYERS", "reference_pair_round", "PlayerFacts", "allocate_colours"]

MAX_PLAYERS = 12

# Strength of a colour preference (Art. 1.7): higher is stronger.
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3

DOWN, UP = "down", "up"


@dataclass(frozen=True)
class PlayerFacts:
    """What the Dutch rules need to know about one present player before round k."""

    tpn: int
    score: int
    colours: tuple[Color, ...]
    """Colours of the played games, unplayed rounds skipped (C.04.2 Art. 3.4)."""
    preference: Color | None
    strength: int
    topscorer: bool
    may_get_bye: bool
    """[C2] / C.04.1 Art. 4."""
    unplayed: int
    """Rounds without a played game (for [C9])."""
    floats: tuple[str | None, ...]
    """floats[r - 1]: DOWN, UP or None for round r (Art. 1.4)."""
    opponents: frozenset[int]
    """Players met in played games (C.04.2 Art. 3.5: unplayed pairings do not count, I-3)."""
    number: int
    """The number whose parity Art. 5.2.5 looks at: the TPN, or the effective one (I-10)."""

    @property
    def colour_difference(self) -> int:
        """Art. 1.6."""
        return self.colours.count(Color.WHITE) - self.colours.count(Color.BLACK)

    def float_in(self, r: int) -> str | None:
        return self.floats[r - 1] if 1 <= r <= len(self.floats) else None


# ---------------------------------------------------------------------------------------------
# Facts about players


def _preference(colours: tuple[Color, ...]) -> tuple[Color | None, int]:
    """Art. 1.7: the colour preference and its strength."""
    if not colours:
        return None, NONE  # 1.7.4
    cd = colours.count(Color.WHITE) - colours.count(Color.BLACK)
    if cd < -1 or cd > 1 or (len(colours) >= 2 and colours[-1] is colours[-2]):  # 1.7.1
        if cd < -1:
            return Color.WHITE, ABSOLUTE
        if cd > 1:
            return Color.BLACK, ABSOLUTE
        return colours[-1].opposite, ABSOLUTE
    if cd == 1:  # 1.7.2
        return Color.BLACK, STRONG
    if cd == -1:
        return Color.WHITE, STRONG
    return colours[-1].opposite, MILD  # 1.7.3


def _is_present(p: Player, k: int) -> bool:
    """C.04.2 Art. 3.2-3.3: a withdrawn or absent player has a pre-set entry in round k."""
    return not (len(p.rounds) >= k and p.rounds[k - 1].is_preset)


def _effective_numbers(t: Tournament, k: int) -> dict[int, int]:
    """I-10: TPNs counted over the players present in round k or paired in an earlier round."""
    counted = [
        p.tpn
        for p in sorted(t.players, key=lambda p: p.tpn)
        if _is_present(p, k) or any(e.was_paired for e in p.rounds[: k - 1])
    ]
    return {tpn: i for i, tpn in enumerate(counted, start=1)}


def _facts(
    t: Tournament, k: int, effective_tpn: bool, rules: RuleSet = RuleSet.DUTCH_2026
) -> dict[int, PlayerFacts]:
    """Return the facts of every player present in round k (not withdrawn, no pre-set entry).

    With the 2017 rules, a player who did not play receives a downfloat (A.4.b) and only a
    PAB or a forfeit win forbids the PAB (C.2).
    """
    old = rules is RuleSet.DUTCH_2017
    ps = t.point_system
    by_tpn = {p.tpn: p for p in t.players}
    numbers = _effective_numbers(t, k) if effective_tpn else {p.tpn: p.tpn for p in t.players}

    def score_before(tpn: int, r: int) -> int:
        return sum(ps.points_for(e) for e in by_tpn[tpn].rounds[: r - 1])

    facts = {}
    for p in t.players:
        if not _is_present(p, k):
            continue
        history = p.rounds[: k - 1]
        colours = tuple(e.color for e in history if e.game_was_played and e.color is not None)
        preference, strength = _preference(colours)
        score = score_before(p.tpn, k)
        floats: list[str | None] = []
        for r, e in enumerate(history, start=1):
            if e.game_was_played:
                mine, theirs = score_before(p.tpn, r), score_before(e.opponent, r)
                # 1.4.2: the higher ranked of two players with different scores floats down
                floats.append(DOWN if mine > theirs else UP if mine < theirs else None)
            elif old:
                floats.append(DOWN)  # 2017 A.4.b: "for whatever reason"
            elif ps.points_for(e) > ps.loss:
                floats.append(DOWN)  # 1.4.3 (a PAB worth no more than a loss: none, I-15)
            else:
                floats.append(None)  # 1.4.4
        may_get_bye = not any(
            e.result is ResultCode.PAIRING_ALLOCATED_BYE
            or (old and e.result is ResultCode.FORFEIT_WIN)  # 2017 C.2
            or (not old and not e.game_was_played and ps.points_for(e) >= ps.win)
            for e in history
        )  # [C2], C.04.1 Art. 4
        topscorer = (
            t.total_rounds is not None
            and k == t.total_rounds
            and 2 * score > (k - 1) * ps.win
        )  # Art. 1.8
        facts[p.tpn] = PlayerFacts(
            tpn=p.tpn,
            score=score,
            colours=colours,
            preference=preference,
            strength=strength,
            topscorer=topscorer,
            may_get_bye=may_get_bye,
            unplayed=sum(1 for e in history if not e.game_was_played),
            floats=tuple(floats),
            opponents=frozenset(e.opponent for e in history if e.game_was_played),
            number=numbers[p.tpn],
        )
    return facts


# ---------------------------------------------------------------------------------------------
# Colour allocation (Art. 5)


def allocate_colours(
    a: PlayerFacts, b: PlayerFacts, initial_colour: Color, rank: dict[int, int]
) -> tuple[int, int]:
    """Return (white, black) for a pair, applying Art. 5.2.1-5.2.5 in order."""

    def give(player: PlayerFacts, colour: Color) -> tuple[int, int]:
        other = b if player is a else a
        return (player.tpn, other.tpn) if colour is Color.WHITE else (other.tpn, player.tpn)

    # 5.2.1 grant both colour preferences (a player without preference accepts either, 1.7.4)
    if a.preference is None and b.preference is not None:
        return give(b, b.preference)
    if b.preference is None and a.preference is not None:
        return give(a, a.preference)
    if a.preference is not None and a.preference is not b.preference:
        return give(a, a.preference)
    # 5.2.2 grant the stronger preference; both absolute: the wider colour difference
    if a.preference is not None:
        if a.strength != b.strength:
            stronger = a if a.strength > b.strength else b
            return give(stronger, stronger.preference)
        if a.strength == ABSOLUTE and abs(a.colour_difference) != abs(b.colour_difference):
            wider = a if abs(a.colour_difference) > abs(b.colour_difference) else b
            return give(wider, wider.preference)
    # 5.2.3 alternate to the most recent round in which they had different colours
    # (histories aligned at their last played game, C.04.2 Art. 3.4)
    for ca, cb in zip(reversed(a.colours), reversed(b.colours)):
        if ca is not cb:
            return give(a, ca.opposite)
    higher, lower = (a, b) if rank[a.tpn] < rank[b.tpn] else (b, a)
    # 5.2.4 grant the preference of the higher ranked player
    if higher.preference is not None:
        return give(higher, higher.preference)
    # 5.2.5 odd TPN: the initial colour
    return give(higher, initial_colour if higher.number % 2 == 1 else initial_colour.opposite)


# ---------------------------------------------------------------------------------------------
# The round


class _StopSearch(Exception):
    """A candidate reached the lower bound of every criterion: it is perfect (Art. 3.4.1)."""


@dataclass
class _Candidate:
    pairs: tuple[tuple[int, int], ...]
    """(S1 player, S2 player) for the MDP-Pairing first, then the remainder."""
    downfloaters: tuple[int, ...]
    mdp_pairs: tuple[tuple[int, int], ...]
    """(MDP, resident opponent)."""


@dataclass
class _Bracket:
    players: list[int]
    """In the order of Art. 1.2 (BSN i is players[i - 1])."""
    mdps: list[int]
    residents: list[int]
    lower: frozenset[int]
    """Players of the scoregroups below the bracket (not yet in any bracket)."""
    next_group: list[int]
    is_last: bool
    completion: bool = True
    """2017: C.4 applies only to the PPB; 2026: [C4] always applies."""
    best: tuple | None = None
    best_candidate: _Candidate | None = None
    seen: dict = field(default_factory=dict)
    bound: tuple | None = None
    generated: int = 0


class _Round:
    def __init__(
        self, t: Tournament, k: int, max_players: int = MAX_PLAYERS, effective_tpn: bool = True
    ) -> None:
        self.t = t
        self.k = k
        self.facts = _facts(t, k, effective_tpn, t.rules)
        if len(self.facts) > max_players:
            raise UnsupportedFeature(
                f"the reference pairs at most {max_players} players, got {len(self.facts)}"
            )
        self.order = sorted(self.facts, key=lambda tpn: (-self.facts[tpn].score, tpn))  # 1.2
        self.rank = {tpn: i for i, tpn in enumerate(self.order)}
        self.forbidden = [
            f.tpns for f in t.forbidden_pairs if f.applies_to(k)
        ]
        self._matchable: dict[tuple[frozenset[int], frozenset[int]], bool] = {}
        self._bye_score: dict[frozenset[int], int | None] = {}
        self._next_best: dict[tuple[frozenset[int], int], tuple] = {}

    # -- absolute criteria -------------------------------------------------------------------

    def compatible(self, x: int, y: int) -> bool:
        """[C1] and [C3] for one pair (and the arbiter's prohibited pairs, I-4)."""
        a, b = self.facts[x], self.facts[y]
        if y in a.opponents:
            return False  # [C1]
        if (
            not a.topscorer
            and not b.topscorer
            and a.strength == ABSOLUTE
            and b.strength == ABSOLUTE
            and a.preference is b.preference
        ):
            return False  # [C3]
        return not any({x, y} <= f for f in self.forbidden)

    def matchable(self, players: frozenset[int], mdps: frozenset[int] = frozenset()) -> bool:
        """Whether all the players can be paired among themselves, never two of ``mdps``."""
        key = (players, mdps & players)
        if key not in self._matchable:
            if not players:
                result = True
            else:
                first = min(players, key=self.rank.__getitem__)
                rest = players - {first}
                result = any(
                    self.matchable(rest - {other}, mdps)
                    for other in rest
                    if self.compatible(first, other) and not ({first, other} <= mdps)
                )
            self._matchable[key] = result
        return self._matchable[key]

    def bye_score(self, remaining: frozenset[int]) -> int | None:
        """[C4]/[C5]: complete the round for the players not yet paired.

        None when no pairing complying with [C1]-[C3] exists; otherwise the lowest score a
        PAB assignee can have (-1 when the number is even: nobody gets the PAB).
        """
        if remaining not in self._bye_score:
            if len(remaining) % 2 == 0:
                result = -1 if self.matchable(remaining) else None
            else:
                result = None
                for tpn in sorted(remaining, key=lambda x: (self.facts[x].score, x)):
                    if self.facts[tpn].may_get_bye and self.matchable(remaining - {tpn}):
                        result = self.facts[tpn].score
                        break
            self._bye_score[remaining] = result
        return self._bye_score[remaining]

    # -- the round ---------------------------------------------------------------------------

    def scoregroups(self) -> list[list[int]]:
        groups: list[list[int]] = []
        for tpn in self.order:
            if groups and self.facts[groups[-1][0]].score == self.facts[tpn].score:
                groups[-1].append(tpn)
            else:
                groups.append([tpn])
        return groups

    def pair(self) -> RoundPairing:
        everyone = frozenset(self.facts)
        if self.bye_score(everyone) is None:
            raise NoValidPairing(f"round {self.k}: no pairing complies with [C1]-[C3] (1.9.3)")
        groups = self.scoregroups()
        pairs: list[tuple[int, int]] = []
        mdps: list[int] = []
        for i, group in enumerate(groups):
            lower = frozenset(tpn for g in groups[i + 1:] for tpn in g)
            bracket = _Bracket(
                players=sorted(mdps + group, key=self.rank.__getitem__),
                mdps=mdps,
                residents=group,
                lower=lower,
                next_group=groups[i + 1] if i + 1 < len(groups) else [],
                is_last=i + 1 == len(groups),
            )
            chosen = self.pair_bracket(bracket)
            pairs += chosen.pairs
            mdps = sorted(chosen.downfloaters, key=self.rank.__getitem__)
        if len(mdps) > 1:
            raise NoValidPairing(f"round {self.k}: {len(mdps)} players left unpaired (1.9.1)")
        bye = mdps[0] if mdps else None
        initial = self.t.initial_color
        if initial is None:
            raise UnsupportedFeature("no initial colour (XXC): Art. 5.2.5 cannot be applied")
        boards = [
            Board(*allocate_colours(self.facts[x], self.facts[y], initial, self.rank))
            for x, y in pairs
        ]
        boards.sort(key=lambda b: min(self.rank[b.white], self.rank[b.black]))
        return RoundPairing(round=self.k, boards=tuple(boards), bye=bye)

    # -- one bracket ---------------------------------------------------------------------------

    def pair_bracket(self, br: _Bracket) -> _Candidate:
        br.bound = self.lower_bound(br)
        try:
            if br.mdps:
                self.heterogeneous(br)
            else:
                self.homogeneous(br, br.players, (), ())
        except _StopSearch:
            pass
        if br.best_candidate is None:
            raise NoValidPairing(
                f"round {self.k}: no candidate complies with [C1]-[C4] in the bracket of "
                f"{br.players} (1.9.3)"
            )
        return br.best_candidate

    def homogeneous(
        self,
        br: _Bracket,
        players: list[int],
        head: tuple[tuple[int, int], ...],
        mdp_pairs: tuple[tuple[int, int], ...],
        limbo: tuple[int, ...] = (),
    ) -> bool:
        """Art. 3.6 on a homogeneous bracket or a remainder; return whether a candidate was valid.

        MaxPairs (3.1.2) is taken as the largest S1 size giving a candidate that complies with
        [C1]-[C4] (I-5): sizes are tried from half the players down.
        """
        n = len(players)
        for max_pairs in range(n // 2, -1, -1):
            found = False
            for s1, s2 in self.subgroup_sequence(n, max_pairs):
                for transposition in permutations(s2, max_pairs):  # 4.2.2
                    pairs = tuple(
                        (players[x - 1], players[y - 1]) for x, y in zip(s1, transposition)
                    )
                    if not all(self.compatible(x, y) for x, y in pairs):
                        continue
                    unpaired = tuple(players[y - 1] for y in s2 if y not in transposition)
                    candidate = _Candidate(head + pairs, limbo + unpaired, mdp_pairs)
                    if self.evaluate(br, candidate):
                        found = True
            if found:
                return True
        return False

    @staticmethod
    def subgroup_sequence(n: int, p: int) -> Iterator[tuple[list[int], list[int]]]:
        """The original S1/S2 (BSNs), then each resident-exchange in the order of 4.3.2."""
        s1, s2 = list(range(1, p + 1)), list(range(p + 1, n + 1))
        yield s1, s2
        exchanges = [
            (a, b)
            for size in range(1, min(len(s1), len(s2)) + 1)
            for a in combinations(s1, size)
            for b in combinations(s2, size)
        ]
        exchanges.sort(
            key=lambda ab: (
                len(ab[0]),  # fewest exchanged BSNs
                sum(ab[1]) - sum(ab[0]),  # smallest difference of the sums
                tuple(-x for x in sorted(ab[0], reverse=True)),  # largest differing from S1
                tuple(sorted(ab[1])),  # smallest differing from S2
            )
        )
        for a, b in exchanges:
            # 3.6.1: reorder the new subgroups by Art. 1.2 (= BSN order in a homogeneous group)
            yield sorted(set(s1) - set(a) | set(b)), sorted(set(s2) - set(b) | set(a))

    def heterogeneous(self, br: _Bracket) -> None:
        """Art. 3.7: MDP sets (4.4), transpositions of S2 (4.2), then the remainder (3.7.1)."""
        m0 = len(br.mdps)
        bsn = {tpn: i for i, tpn in enumerate(br.players, start=1)}
        mdp_bsns = [bsn[x] for x in br.mdps]
        s2 = [bsn[x] for x in br.residents]  # 3.2.3
        for m1 in range(min(m0, len(s2)), -1, -1):  # I-5: the largest M1 that works
            found = False
            for s1 in self.mdp_sets(br, mdp_bsns, m1):
                limbo = tuple(br.players[x - 1] for x in mdp_bsns if x not in s1)  # 3.2.4
                for transposition in permutations(s2, m1):  # 3.7.2 / 4.2.2
                    mdp_pairs = tuple(
                        (br.players[x - 1], br.players[y - 1]) for x, y in zip(s1, transposition)
                    )
                    if not all(self.compatible(x, y) for x, y in mdp_pairs):
                        continue
                    # 3.3.3 / 3.7.1: the remainder, with its own BSNs (4.1.1)
                    remainder = [br.players[y - 1] for y in s2 if y not in transposition]
                    if self.homogeneous(br, remainder, mdp_pairs, mdp_pairs, limbo):
                        found = True
            if found:
                return

    def mdp_sets(self, br: _Bracket, mdp_bsns: list[int], m1: int) -> list[tuple[int, ...]]:
        """Art. 4.4: sets of M1 MDPs; valid ones (Limbo best for [C7]) by smallest BSN first.

        The sets whose Limbo is worse for [C7] follow, best Limbo first (I-6); they can only be
        chosen when every valid set fails the absolute criteria.
        """

        def limbo_key(chosen: tuple[int, ...]) -> tuple[int, ...]:
            limbo = [self.facts[br.players[x - 1]].score for x in mdp_bsns if x not in chosen]
            return tuple(-s for s in sorted(limbo, reverse=True))

        sets = list(combinations(mdp_bsns, m1))
        sets.sort(key=lambda s: (tuple(-v for v in limbo_key(s)), s))
        return sets

    # -- evaluation (Art. 3.4, 3.8) -----------------------------------------------------------

    def evaluate(self, br: _Bracket, cand: _Candidate) -> bool:
        """Score a candidate; keep it if it is the best so far.

        Return whether it complies with [C1]-[C4] and reaches the best [C5] of the round (I-5).
        """
        br.generated += 1
        key = frozenset(frozenset(p) for p in cand.pairs)
        if key in br.seen:
            return br.seen[key]  # the same pairing was generated earlier
        vector = self.criteria(br, cand)
        br.seen[key] = vector is not None and self.good(br, vector)
        if vector is None:
            return False
        if br.best is None or vector < br.best:  # 3.8.1: ties go to the earlier candidate
            br.best, br.best_candidate = vector, cand
        if vector == br.bound:
            raise _StopSearch
        return br.seen[key]

    def good(self, br: _Bracket, vector: tuple) -> bool:
        """Whether a valid candidate counts for MaxPairs and M1 (I-5): it reaches the best [C5]."""
        return vector[0] == br.bound[0]

    def criteria(self, br: _Bracket, cand: _Candidate) -> tuple | None:
        """The values of [C5]-[C21] (lower is better), or None if [C1]-[C4] or 1.9.1 fail."""
        f = self.facts
        down = cand.downfloaters
        if br.is_last and len(down) > 1:
            return None  # 1.9.1: at most one player downfloats from the last bracket
        remaining = frozenset(down) | br.lower
        c5 = self.bye_score(remaining)
        if c5 is None:
            return None  # [C4]
        c6 = len(down)
        c7 = tuple(sorted((f[x].score for x in down), reverse=True))
        c8 = () if br.is_last else self.next_bracket(frozenset(down), br)
        c9 = 0
        if len(down) == 1 and self.bound_to_bye(down[0], remaining, c5):
            c9 = f[down[0]].unplayed
        colours = self.colour_criteria(cand.pairs)
        residents = set(br.residents)
        k = self.k
        c14 = sum(1 for x in down if x in residents and f[x].float_in(k - 1) == DOWN)
        c16 = sum(1 for x in down if x in residents and f[x].float_in(k - 2) == DOWN)
        c15 = sum(1 for _, y in cand.mdp_pairs if f[y].float_in(k - 1) == UP)
        c17 = sum(1 for _, y in cand.mdp_pairs if f[y].float_in(k - 2) == UP)
        width = len(br.players)

        # I-9: an MDP left in the Limbo will meet, at best, a player of the next scoregroup
        floor = f[br.next_group[0]].score if br.next_group else 0
        limbo = [x for x in down if x in br.mdps]

        def differences(rounds_ago: int, mdp_side: bool) -> tuple[int, ...]:
            diffs = [
                f[x].score - f[y].score
                for x, y in cand.mdp_pairs
                if (f[x].float_in(k - rounds_ago) == DOWN if mdp_side
                    else f[y].float_in(k - rounds_ago) == UP)
            ]
            if mdp_side:
                diffs += [
                    f[x].score - floor for x in limbo if f[x].float_in(k - rounds_ago) == DOWN
                ]
            diffs.sort(reverse=True)
            return tuple(diffs + [0] * (width - len(diffs)))

        return (
            c5, c6, c7, c8, c9, *colours, c14, c15, c16, c17,
            differences(1, True), differences(1, False),
            differences(2, True), differences(2, False),
        )

    def bound_to_bye(self, floater: int, remaining: frozenset[int], bye_score: int) -> bool:
        """[C9] note: whether the single downfloater will end up receiving the PAB (I-11).

        True when no completion with the best PAB score ([C5]) gives the PAB to another player.
        """
        if len(remaining) % 2 == 0:
            return False
        return not any(
            self.facts[x].may_get_bye
            and self.facts[x].score == bye_score
            and self.matchable(remaining - {x})
            for x in remaining - {floater}
        )

    def colour_criteria(self, pairs: tuple[tuple[int, int], ...]) -> tuple[int, int, int, int]:
        """[C10]-[C13] for the colours Art. 5 gives each pair."""
        c10 = c11 = c12 = c13 = 0
        initial = self.t.initial_color or Color.WHITE
        for x, y in pairs:
            a, b = self.facts[x], self.facts[y]
            white, _ = allocate_colours(a, b, initial, self.rank)
            for player in (a, b):
                colour = Color.WHITE if player.tpn == white else Color.BLACK
                if a.topscorer or b.topscorer:
                    new = player.colours + (colour,)
                    cd = new.count(Color.WHITE) - new.count(Color.BLACK)
                    c10 += cd > 2 or cd < -2
                    c11 += len(new) >= 3 and new[-1] is new[-2] is new[-3]
                if player.preference is not None and player.preference is not colour:
                    c12 += 1
                    c13 += player.strength == STRONG  # I-8: Art. 1.7.2 strong, not absolute
        return c10, c11, c12, c13

    def next_bracket(self, down: frozenset[int], br: _Bracket) -> tuple:
        """[C8]: the best ([C5], [C6], [C7]) the following bracket can reach (I-7)."""
        key = (down, self.rank[br.next_group[0]])
        if key in self._next_best:
            return self._next_best[key]
        group = br.next_group
        below = br.lower - set(group)
        is_last = not below
        players = list(down) + list(group)
        best: tuple = (1,)
        for size in range(len(players) % 2, len(players) + 1, 2):
            if is_last and size > 1:
                break
            for floaters in combinations(players, size):
                rest = frozenset(players) - set(floaters)
                if not self.matchable(rest, down):
                    continue
                c5 = self.bye_score(frozenset(floaters) | below)
                if c5 is None:
                    continue
                scores = tuple(sorted((self.facts[x].score for x in floaters), reverse=True))
                value = (0, c5, size, scores)
                if value < best:
                    best = value
        self._next_best[key] = best
        return best

    def lower_bound(self, br: _Bracket) -> tuple:
        """A vector no candidate of the bracket can beat: reaching it means 'perfect'."""
        f = self.facts
        c5 = self.bye_score(frozenset(br.players) | br.lower)
        n = len(br.players)
        c6 = n - 2 * min(n // 2, len(br.residents))
        lowest = sorted(f[x].score for x in br.players)[:c6]
        c7 = tuple(sorted(lowest, reverse=True))
        if br.is_last:
            c8: tuple = ()
            eligible = [f[x].unplayed for x in br.players if f[x].may_get_bye]
            c9 = min(eligible) if c6 == 1 and eligible else 0
        else:
            m = c6 + len(br.next_group)
            next_lowest = sorted(f[x].score for x in br.next_group)[: m % 2]
            c8 = (0, c5, m % 2, tuple(sorted(next_lowest, reverse=True)))
            c9 = 0
        zeros = (0,) * n
        c12, c13 = self.colour_bound(br.players, c6)
        return (c5, c6, c7, c8, c9, 0, 0, c12, c13, 0, 0, 0, 0, zeros, zeros, zeros, zeros)

    def colour_bound(self, players: list[int], floaters: int) -> tuple[int, int]:
        """Fewest preferences ([C12]) and strong preferences ([C13]) that must be lost.

        A player preferring colour c gets it if they float, meet a player preferring the other
        colour or none, or meet a weaker preference for c. The others meet each other in pairs
        where exactly one loses. Summed over both colours.
        """
        f = self.facts
        c12 = c13 = 0
        for colour in (Color.WHITE, Color.BLACK):
            same = [x for x in players if f[x].preference is colour]
            free = len(players) - len(same)  # the other colour, or no preference
            mild = sum(1 for x in same if f[x].strength == MILD)
            strong = sum(1 for x in same if f[x].strength == STRONG)
            c12 += max(0, -(-(len(same) - floaters - free) // 2))
            c13 += max(0, -(-(strong - floaters - free - mild) // 2))
        return c12, c13


def reference_pair_round(
    t: Tournament,
    k: int | None = None,
    *,
    max_players: int = MAX_PLAYERS,
    effective_tpn: bool = True,
) -> RoundPairing:
    """Pair round k (default: the next round) of a small tournament by the literal rules.

    ``max_players`` guards against searches that would not end in reasonable time.
    ``effective_tpn`` (the default) makes Art. 5.2.5 count only the players present or
    already paired, as the endorsed engines do (I-10); ``effective_tpn=False`` reads the TPN
    itself, letter by letter.
    """
    if t.rules is not RuleSet.DUTCH_2026:
        raise UnsupportedFeature(f"the reference implements the 2026 rules, not {t.rules.value}")
    if t.accelerations or t.baku:
        raise UnsupportedFeature("the reference does not implement accelerated pairings")
    k = k if k is not None else next_round_number(t)
    return _Round(t, k, max_players, effective_tpn).pair()
