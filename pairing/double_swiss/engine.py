"""FIDE Double-Swiss system, C.04.5 (in force 1 Feb 2026): pairing the next match.

The text is lexicographic, and so is this engine: the PAB first (Art. 3.4), then, again and
again, the top scoregroup with the first valid set of upfloaters (3.5) paired by the first
pairing in identifier order (3.6), then the colours (Art. 4). Each "first" is found by trying
the candidates in the text's order and asking whether the rest can still be completed ([C1],
[C3]); those questions go to ``completion`` (Dirac's bound, else Edmonds' algorithm), and the
optimisations the text asks for ([C4]/[C5] of a set, the least [C8]) to a minimum cost
matching. The readings of the corpus README are cited as R1-R16.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, product

from pairing.double_swiss.colours import allocate_colours, higher_ranked
from pairing.double_swiss.completion import dirac_holds, perfect_matching
from pairing.double_swiss.explain import BracketStep, ColourStep, Explanation, PabStep
from pairing.double_swiss.model import DoubleSwissTournament
from pairing.double_swiss.players import PlayerState, build_players
from pairing.errors import NoValidPairing
from pairing.matching import max_weight_matching
from pairing.model import TPN, Board, Points, RoundPairing
from pairing.text import Text, gettext_noop

__all__ = ["pair_match", "explain_match"]

Pairs = list[tuple[TPN, TPN]]

# Why a match cannot be paired (the web app says it in the reader's language).
NO_LEGAL_PAIRING_C1 = gettext_noop("the players to pair have no legal pairing ([C1])")
NO_LEGAL_PAIRING_C3 = gettext_noop("the players to pair have no legal pairing ([C3])")
NO_PAB_POSSIBLE = gettext_noop("no player may receive the pairing-allocated bye (Art. 3.4)")
NO_UPFLOATERS = gettext_noop("no set of upfloaters completes the round ([C3])")
BRACKET_NO_PAIRING = gettext_noop("the bracket has no legal pairing")


def pair_match(dt: DoubleSwissTournament, *, explain: bool = False) -> RoundPairing:
    """Pair the next match of a Double-Swiss tournament (C.04.5); raise NoValidPairing."""
    pairing, explanation = explain_match(dt)
    if explain:
        return RoundPairing(pairing.round, pairing.boards, pairing.bye, explanation.lines())
    return pairing


def explain_match(dt: DoubleSwissTournament) -> tuple[RoundPairing, Explanation]:
    """Pair the next match; return it with the account of each decision in C.04.5's terms."""
    k = dt.next_match_number()
    r = _Round(dt, k)
    pool = frozenset(r.by_tpn)
    pab = None
    if len(pool) % 2:
        pab = r.assign_pab(pool)  # Art. 3.3.2 step 1
        pool = pool - {pab.bye}
    elif not r.completable(pool):
        raise NoValidPairing(Text(NO_LEGAL_PAIRING_C1))
    steps = []
    pairs: Pairs = []
    while pool:  # Art. 3.3.2 steps 2-3
        step = r.pair_top_scoregroup(pool)
        steps.append(step)
        pairs += step.pairs
        pool = pool - set(step.residents) - set(step.upfloaters)
    colour_steps = []
    for a, b in pairs:  # step 4, Art. 4
        board, article = allocate_colours(r.by_tpn[a], r.by_tpn[b], dt.tournament.initial_color)
        hrp, _ = higher_ranked(r.by_tpn[a], r.by_tpn[b])
        colour_steps.append(ColourStep(board.white, board.black, hrp.tpn, article))
    boards = sorted((Board(c.white, c.black) for c in colour_steps), key=r.board_order)
    bye = pab.bye if pab else None
    explanation = Explanation(k, r.last, pab, tuple(steps), tuple(colour_steps))
    return RoundPairing(round=k, boards=tuple(boards), bye=bye), explanation


class _Round:
    """The players of one match and the questions the rules ask about them."""

    def __init__(self, dt: DoubleSwissTournament, k: int) -> None:
        players = build_players(dt, k)
        self.by_tpn: dict[TPN, PlayerState] = {p.tpn: p for p in players}
        self.score: dict[TPN, Points] = {p.tpn: p.score for p in players}
        self.met: dict[TPN, frozenset[TPN]] = {p.tpn: p.met for p in players}
        total = dt.total_matches
        self.last = total is not None and k >= total
        # [C7] and [C8] do not apply in the last round (R9)
        self.floated = {p.tpn: p.floated and not self.last for p in players}

    # --- [C1], [C3] ----------------------------------------------------------------------

    def compatible(self, a: TPN, b: TPN) -> bool:
        """[C1]: the two have not played a match against each other."""
        return b not in self.met[a]

    def completable(self, group: Iterable[TPN]) -> bool:
        """[C3]: whether all these players can be paired under [C1]."""
        players = sorted(group)
        if len(players) % 2:
            return False
        if dirac_holds(players, self.met):
            return True
        return perfect_matching(players, self.compatible) is not None

    def bracket_allowed(self, ups: frozenset[TPN]) -> Callable[[TPN, TPN], bool]:
        """Pairs allowed in a bracket: [C1], and upfloaters never meet each other (R11)."""
        met = self.met
        return lambda a, b: b not in met[a] and not (a in ups and b in ups)

    def bracket_pairable(self, residents: frozenset[TPN], ups: frozenset[TPN]) -> bool:
        """Whether the bracket has a legal pairing."""
        players = sorted(residents | ups)
        if len(players) % 2 or len(ups) > len(residents):
            return False
        excluded = {p: self.met[p] | ups if p in ups else self.met[p] for p in players}
        if dirac_holds(players, excluded):
            return True
        return perfect_matching(players, self.bracket_allowed(ups)) is not None

    def feasible(self, pool: frozenset[TPN], residents: frozenset[TPN],
                 ups: frozenset[TPN]) -> bool:
        """R6: the bracket can be paired and the players left can still all be paired."""
        return self.bracket_pairable(residents, ups) and self.completable(
            pool - residents - ups
        )

    # --- Art. 3.4: the pairing-allocated bye ----------------------------------------------

    def assign_pab(self, pool: frozenset[TPN]) -> PabStep:
        """Art. 3.4: [C2], then 3.4.1 legal pairing left, 3.4.2 lowest score, 3.4.3 most
        matches played, 3.4.4 largest TPN (R5)."""
        eligible = [p for p in self.by_tpn.values() if p.tpn in pool and p.may_receive_pab]
        eligible.sort(key=lambda p: (p.score, -p.matches_played, -p.tpn))
        passed_over: list[TPN] = []
        for p in eligible:
            if self.completable(pool - {p.tpn}):  # 3.4.1
                barred = tuple(sorted(q for q in pool if not self.by_tpn[q].may_receive_pab))
                return PabStep(p.tpn, barred, tuple(passed_over))
            passed_over.append(p.tpn)
        raise NoValidPairing(Text(NO_PAB_POSSIBLE))

    # --- Art. 3.5: the upfloaters of the top scoregroup ---------------------------------

    def pair_top_scoregroup(self, pool: frozenset[TPN]) -> BracketStep:
        """Art. 3.2, 3.5, 3.6: form the bracket of the top scoregroup and pair it."""
        top = max(self.score[p] for p in pool)
        residents = frozenset(p for p in pool if self.score[p] == top)
        counts = self.best_counts(pool, residents)
        ups, c6, c7, examined = self.first_valid_set(pool, residents, counts)
        pairs, identifier, c8 = self.pair_bracket(residents, ups)
        return BracketStep(
            score=top,
            residents=tuple(sorted(residents)),
            upfloaters=tuple(sorted(ups, key=lambda p: (-self.score[p], p))),
            c6=c6, c7=c7, sets_examined=examined,
            identifier=identifier, c8=c8, pairs=tuple(pairs),
        )

    def best_counts(self, pool: frozenset[TPN], residents: frozenset[TPN]) -> dict[Points, int]:
        """[C4], [C5] over the feasible sets (R6): how many upfloaters of each score.

        The fewest upfloaters, then the largest scores taken in ascending order.
        """
        lower = pool - residents
        if len(residents) % 2 == 0:
            if self.bracket_pairable(residents, frozenset()) and self.completable(lower):
                return {}
        else:
            for x in sorted(lower, key=lambda p: (-self.score[p], p)):
                if self.feasible(pool, residents, frozenset((x,))):
                    return {self.score[x]: 1}
        return self.least_cost_counts(pool, residents)

    def least_cost_counts(self, pool: frozenset[TPN], residents: frozenset[TPN]
                          ) -> dict[Points, int]:
        """[C4] then [C5] as one minimum cost perfect matching of all the players to pair.

        A resident paired outside the top scoregroup makes its opponent an upfloater. Each
        costs more than any number of upfloaters of higher scores together (so the ascending
        score vector is as large as it can be) and all of them together less than one more
        upfloater ([C4] first).
        """
        players = sorted(pool)
        index = {p: i for i, p in enumerate(players)}
        scores = sorted({self.score[p] for p in pool - residents}, reverse=True)
        base = len(residents) + 1
        rank = {s: base ** i for i, s in enumerate(scores)}
        one_more = base ** (len(scores) + 1)
        edges = []
        for a, b in combinations(players, 2):
            if not self.compatible(a, b):
                continue
            if (a in residents) == (b in residents):
                edges.append((index[a], index[b], 0))
            else:
                up = b if a in residents else a
                edges.append((index[a], index[b], -(one_more + rank[self.score[up]])))
        mate = max_weight_matching(len(players), edges, max_cardinality=True)
        if any(m == -1 for m in mate):
            raise NoValidPairing(Text(NO_LEGAL_PAIRING_C3))
        counts: dict[Points, int] = {}
        for a in residents:
            b = players[mate[index[a]]]
            if b not in residents:
                counts[self.score[b]] = counts.get(self.score[b], 0) + 1
        return counts

    def first_valid_set(
        self, pool: frozenset[TPN], residents: frozenset[TPN], counts: dict[Points, int]
    ) -> tuple[frozenset[TPN], int, int, int]:
        """Art. 3.5.3-3.5.5: the first set in TPN order with the best [C6], then [C7] (R7).

        Returns the set, its [C6] and [C7] values and the number of sets examined.
        """
        lower = pool - residents
        following = self.following_scoregroup(lower)
        taken = counts.get(self.score[following[0]], 0) if following else 0
        left = len(following) - taken
        least_c6 = 0 if left == 0 else left % 2
        least_c7 = 0
        for score, n in counts.items():
            steady = sum(1 for p in lower if self.score[p] == score and not self.floated[p])
            least_c7 += max(0, n - steady)
        best: tuple[tuple[int, int], frozenset[TPN]] | None = None
        examined = 0
        for ups in self.candidate_sets(lower, counts):
            examined += 1
            if not self.feasible(pool, residents, ups):
                continue
            value = (self.c6(pool, residents, ups, following), self.c7(ups))
            if best is None or value < best[0]:
                best = (value, ups)
            if value == (least_c6, least_c7):
                break
        if best is None:
            raise NoValidPairing(Text(NO_UPFLOATERS))
        (c6, c7), ups = best
        return ups, c6, c7, examined

    def following_scoregroup(self, lower: frozenset[TPN]) -> list[TPN]:
        """The scoregroup after the top one (the highest score among the others)."""
        if not lower:
            return []
        score = max(self.score[p] for p in lower)
        return sorted(p for p in lower if self.score[p] == score)

    def candidate_sets(self, lower: frozenset[TPN], counts: dict[Points, int]
                       ) -> Iterator[frozenset[TPN]]:
        """3.5.2-3.5.4: the sets with these counts per score, in lexicographic TPN order."""
        levels = sorted(counts, reverse=True)
        choices = [
            combinations(sorted(p for p in lower if self.score[p] == s), counts[s])
            for s in levels
        ]
        for parts in product(*choices):
            yield frozenset(p for part in parts for p in part)

    def c6(self, pool: frozenset[TPN], residents: frozenset[TPN], ups: frozenset[TPN],
           following: list[TPN]) -> int:
        """[C6] (R8): the upfloaters the following scoregroup's remaining players need."""
        remaining = frozenset(following) - ups
        if not remaining:
            return 0
        counts = self.best_counts(pool - residents - ups, remaining)
        return sum(counts.values())

    def c7(self, ups: frozenset[TPN]) -> int:
        """[C7] (R9): upfloaters who were floaters in the previous round."""
        return sum(1 for p in ups if self.floated[p])

    # --- Art. 3.6: pairing the bracket ----------------------------------------------------

    def pair_bracket(self, residents: frozenset[TPN], ups: frozenset[TPN]
                     ) -> tuple[Pairs, tuple[TPN, ...], int]:
        """Art. 3.6: the first pairing in identifier order with [C1] and the fewest [C8]."""
        players = sorted(residents | ups)
        base = self.bracket_allowed(ups)
        c8_cost = self.c8_cost(ups)
        least = self.least_c8(players, base, c8_cost)
        search = _IdentifierSearch(players, base, c8_cost, least)
        pairs = search.first_pairing()
        ordered = sorted(pairs)
        identifier = tuple(a for a, _ in ordered) + tuple(b for _, b in ordered)
        return ordered, identifier, least

    def c8_cost(self, ups: frozenset[TPN]) -> Callable[[TPN, TPN], int]:
        """[C8] (R9): 1 for a pair of an upfloater with an opponent who floated before."""
        floated = self.floated

        def cost(a: TPN, b: TPN) -> int:
            return int((a in ups and floated[b]) or (b in ups and floated[a]))

        return cost

    def least_c8(self, players: list[TPN], allowed: Callable[[TPN, TPN], bool],
                 cost: Callable[[TPN, TPN], int]) -> int:
        """The fewest [C8] of any legal pairing of the bracket."""
        if not any(cost(a, b) for a, b in combinations(players, 2) if allowed(a, b)):
            return 0
        if perfect_matching(players, lambda a, b: allowed(a, b) and not cost(a, b)):
            return 0
        return _least_cost(players, allowed, cost)

    def board_order(self, board: Board) -> tuple[int, int, int]:
        """R16, C.04.2 Art. 3.6: the HRP's score, the sum of scores, the HRP's TPN."""
        a, b = self.by_tpn[board.white], self.by_tpn[board.black]
        hrp, opp = higher_ranked(a, b)
        return (-hrp.score, -(hrp.score + opp.score), hrp.tpn)


def _least_cost(players: list[TPN], allowed: Callable[[TPN, TPN], bool],
                cost: Callable[[TPN, TPN], int]) -> int:
    """Return the least total cost of a perfect matching (none: raise NoValidPairing)."""
    index = {p: i for i, p in enumerate(players)}
    edges = [
        (index[a], index[b], -cost(a, b)) for a, b in combinations(players, 2) if allowed(a, b)
    ]
    mate = max_weight_matching(len(players), edges, max_cardinality=True)
    if any(m == -1 for m in mate):
        raise NoValidPairing(Text(BRACKET_NO_PAIRING))
    return sum(cost(players[i], players[m]) for i, m in enumerate(mate) if i < m)


@dataclass
class _IdentifierSearch:
    """Art. 3.6.1-3.6.3: the first pairing in identifier order among those allowed.

    The identifier is the top members in ascending order, then their bottom members. So the
    set of top members is decided first, smallest TPN first (each player is a top member if
    some allowed pairing still makes it one), then each top member's bottom member, in the
    same way. A pairing found on the way is kept: a player it already pairs as wished needs
    no new question.
    """

    players: list[TPN]
    allowed: Callable[[TPN, TPN], bool]
    cost: Callable[[TPN, TPN], int]
    limit: int
    """The fewest [C8]: no pairing may have more."""

    def first_pairing(self) -> Pairs:
        players = self.players
        m = len(players) // 2
        fold = [(players[i], players[m + i]) for i in range(m)]
        if all(self.allowed(a, b) for a, b in fold) and (
            sum(self.cost(a, b) for a, b in fold) <= self.limit
        ):
            return fold  # the smallest identifier of all
        mate = self.solve(set(), set(), {}, fold)
        if mate is None:
            raise NoValidPairing(Text(BRACKET_NO_PAIRING))
        tops: set[TPN] = set()
        bottoms: set[TPN] = set()
        for v in players:  # the top members
            if len(tops) == m:
                bottoms.add(v)
            elif mate[v] > v:
                tops.add(v)
            else:
                trial = self.solve(tops | {v}, bottoms, {}, mate.items())
                if trial is None:
                    bottoms.add(v)
                else:
                    mate = trial
                    tops.add(v)
        fixed: dict[TPN, TPN] = {}
        for t in sorted(tops):  # their bottom members
            for b in sorted(bottoms - set(fixed.values())):
                if b < t or not self.allowed(t, b):
                    continue
                if mate[t] == b:
                    fixed[t] = b
                    break
                trial = self.solve(tops, bottoms, {**fixed, t: b}, mate.items())
                if trial is not None:
                    mate = trial
                    fixed[t] = b
                    break
        return sorted(fixed.items())

    def solve(self, tops: set[TPN], bottoms: set[TPN], fixed: dict[TPN, TPN],
              start: Iterable[tuple[TPN, TPN]]) -> dict[TPN, TPN] | None:
        """A pairing with these top and bottom members and pairs, or None."""
        spent = sum(self.cost(a, b) for a, b in fixed.items())
        if spent > self.limit or any(not self.allowed(a, b) for a, b in fixed.items()):
            return None
        taken = set(fixed) | set(fixed.values())
        free = [p for p in self.players if p not in taken]
        allowed, cost = self.allowed, self.cost

        def ok(a: TPN, b: TPN) -> bool:
            lo, hi = (a, b) if a < b else (b, a)
            return lo not in bottoms and hi not in tops and allowed(lo, hi)

        if self.limit == 0:
            mate = perfect_matching(free, lambda a, b: ok(a, b) and not cost(a, b), start)
        else:
            mate = _cheap_enough(free, ok, cost, self.limit - spent)
        if mate is None:
            return None
        for a, b in fixed.items():
            mate[a], mate[b] = b, a
        return mate


def _cheap_enough(players: list[TPN], allowed: Callable[[TPN, TPN], bool],
                  cost: Callable[[TPN, TPN], int], limit: int) -> dict[TPN, TPN] | None:
    """A perfect matching of total cost at most ``limit``, or None."""
    if not players:
        return {}
    index = {p: i for i, p in enumerate(players)}
    edges = [
        (index[a], index[b], -cost(a, b)) for a, b in combinations(players, 2) if allowed(a, b)
    ]
    mate = max_weight_matching(len(players), edges, max_cardinality=True)
    if any(m == -1 for m in mate):
        return None
    if sum(cost(players[i], players[m]) for i, m in enumerate(mate) if i < m) > limit:
        return None
    return {players[i]: players[m] for i, m in enumerate(mate)}
