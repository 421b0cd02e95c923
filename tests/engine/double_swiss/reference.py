"""A literal, brute-force reading of C.04.5 (Double-Swiss), for small tournaments only.

Written apart from the engine (``pairing.double_swiss.engine``) and on purpose naive: every
set of upfloaters and every pairing of a bracket is enumerated and the text's order applied to
the list, with the corpus README's readings (numbered R1-R16 in the comments). It shares only
the file reader and the ``Match`` values with the engine. Exponential: up to ~14 players.
"""

from __future__ import annotations

from itertools import combinations

from pairing.double_swiss.model import DoubleSwissTournament
from pairing.errors import NoValidPairing
from pairing.model import Board, Color, ResultCode, RoundPairing

W, B = Color.WHITE, Color.BLACK


class _Facts:
    """What the rules read about each player before match k."""

    def __init__(self, dt: DoubleSwissTournament) -> None:
        self.k = k = dt.next_match_number()
        ps = dt.point_system
        self.last = dt.total_matches is not None and k >= dt.total_matches
        self.score: dict[int, int] = {}
        self.met: dict[int, set[int]] = {}
        self.barred: dict[int, bool] = {}
        self.played: dict[int, int] = {}
        self.colours: dict[int, list[Color]] = {}
        self.to_pair: list[int] = []
        for tpn in dt.tpns:
            ms = dt.matches_of(tpn)
            before = ms[: k - 1]
            self.score[tpn] = sum(m.points(ps) for m in before)  # R1
            self.met[tpn] = {m.opponent for m in before if m.was_played}  # R2
            self.barred[tpn] = any(  # [C2], R3
                m.bye in (ResultCode.PAIRING_ALLOCATED_BYE, ResultCode.FULL_POINT_BYE)
                or m.won_by_forfeit(ps)
                for m in before
            )
            self.played[tpn] = sum(1 for m in before if m.was_played)
            self.colours[tpn] = [m.colour for m in before if m.colour is not None]  # R4
            if not (len(ms) >= k and ms[k - 1].is_preset):  # R15
                self.to_pair.append(tpn)
        self.floated: dict[int, bool] = {}
        for tpn in dt.tpns:  # R10
            ms = dt.matches_of(tpn)
            f = False
            if k >= 2 and len(ms) >= k - 1:
                m = ms[k - 2]
                if m.was_played:
                    f = dt.score(tpn, k - 1) != dt.score(m.opponent, k - 1)
            self.floated[tpn] = f

    def compatible(self, a: int, b: int) -> bool:
        return b not in self.met[a]  # [C1]


def _perfect(facts: _Facts, players: frozenset[int]) -> bool:
    """Whether the players can all be paired under [C1] (brute force, memoised)."""
    return _perfect_cached(id(facts), facts, players)


_MEMO: dict[tuple[int, frozenset[int]], bool] = {}


def _perfect_cached(key: int, facts: _Facts, players: frozenset[int]) -> bool:
    memo_key = (key, players)
    if memo_key in _MEMO:
        return _MEMO[memo_key]
    if not players:
        result = True
    elif len(players) % 2:
        result = False
    else:
        first = min(players)
        rest = players - {first}
        result = any(
            facts.compatible(first, other) and _perfect_cached(key, facts, rest - {other})
            for other in sorted(rest)
        )
    _MEMO[memo_key] = result
    return result


def _bracket_pairings(facts: _Facts, residents: frozenset[int], ups: frozenset[int]):
    """Yield every pairing of the bracket: [C1], upfloaters never meet each other (R11)."""
    players = sorted(residents | ups)

    def rec(left: list[int]):
        if not left:
            yield []
            return
        a = left[0]
        for b in left[1:]:
            if a in ups and b in ups:
                continue
            if not facts.compatible(a, b):
                continue
            rest = [x for x in left if x not in (a, b)]
            for tail in rec(rest):
                yield [(a, b), *tail]

    yield from rec(players)


def _feasible(facts: _Facts, pool: frozenset[int], residents: frozenset[int],
              ups: frozenset[int]) -> bool:
    """R6: the bracket can be paired and the rest of the pool completed ([C1], [C3])."""
    if len(residents | ups) % 2:
        return False
    rest = pool - residents - ups
    if not _perfect(facts, rest):
        return False
    return next(iter(_bracket_pairings(facts, residents, ups)), None) is not None


def _feasible_sets(facts: _Facts, pool: frozenset[int], residents: frozenset[int]):
    lower = sorted(pool - residents)
    for size in range(0, len(residents) + 1):
        found = [
            frozenset(s) for s in combinations(lower, size)
            if _feasible(facts, pool, residents, frozenset(s))
        ]
        if found:
            return size, found
    return None, []


def _c6(facts: _Facts, pool: frozenset[int], residents: frozenset[int],
        ups: frozenset[int]) -> int:
    """R8: the upfloaters the following scoregroup's remaining players would need."""
    lower = pool - residents
    if not lower:
        return 0
    following_score = max(facts.score[p] for p in lower)
    following = frozenset(p for p in lower if facts.score[p] == following_score)
    remaining = following - ups
    if not remaining:
        return 0
    size, _ = _feasible_sets(facts, pool - residents - ups, remaining)
    assert size is not None
    return size


def _order_key(facts: _Facts, s: frozenset[int]) -> tuple[int, ...]:
    """3.5.3: descending score, then ascending TPN; 3.5.4 compares these lexicographically."""
    return tuple(sorted(s, key=lambda p: (-facts.score[p], p)))


def _choose_upfloaters(facts: _Facts, pool: frozenset[int], residents: frozenset[int]):
    size, sets = _feasible_sets(facts, pool, residents)
    if size is None:
        raise NoValidPairing("the top scoregroup cannot be paired")
    # [C5], R6: the largest ascending score vector
    best = max(tuple(sorted(facts.score[p] for p in s)) for s in sets)
    candidates = [s for s in sets if tuple(sorted(facts.score[p] for p in s)) == best]
    candidates.sort(key=lambda s: _order_key(facts, s))

    def value(s: frozenset[int]) -> tuple[int, int]:
        c7 = 0 if facts.last else sum(1 for p in s if facts.floated[p])  # R9
        return (_c6(facts, pool, residents, s), c7)

    best_value = min(value(s) for s in candidates)  # R7
    return next(s for s in candidates if value(s) == best_value)


def _identifier(pairs: list[tuple[int, int]]) -> tuple[int, ...]:
    """3.6.2: the top members ascending, then the bottom member of each of those pairs."""
    ordered = sorted((min(p), max(p)) for p in pairs)
    return tuple(t for t, _ in ordered) + tuple(b for _, b in ordered)


def _pair_bracket(facts: _Facts, residents: frozenset[int], ups: frozenset[int]):
    best = None
    for pairing in _bracket_pairings(facts, residents, ups):
        c8 = 0
        if not facts.last:  # R9
            for a, b in pairing:
                for up, other in ((a, b), (b, a)):
                    if up in ups and facts.floated[other]:
                        c8 += 1
        key = (c8, _identifier(pairing))
        if best is None or key < best[0]:
            best = (key, pairing)
    assert best is not None
    return best[1]


def _colours(facts: _Facts, a: int, b: int, initial: Color | None) -> Board:
    """Art. 4 (R12-R14): return the board with White first."""
    hrp, opp = (a, b) if (-facts.score[a], a) < (-facts.score[b], b) else (b, a)
    ch, co = facts.colours[hrp], facts.colours[opp]
    if not ch and not co:  # 4.3.1
        first = initial or W
        hc = first if hrp % 2 == 1 else (B if first is W else W)
    elif ch.count(W) != co.count(W):  # 4.3.2
        hc = W if ch.count(W) < co.count(W) else B
    else:
        hc = None
        for x, y in zip(reversed(ch), reversed(co)):  # 4.3.3, right-aligned
            if x is not y:
                hc = B if x is W else W
                break
        if hc is None:
            if ch:  # 4.3.4
                hc = B if ch[-1] is W else W
            else:  # 4.3.5
                hc = W if co[-1] is W else B
    return Board(hrp, opp) if hc is W else Board(opp, hrp)


def reference_pair_match(dt: DoubleSwissTournament) -> RoundPairing:
    """Pair the next match by the literal reading; raise NoValidPairing when none exists."""
    _MEMO.clear()
    facts = _Facts(dt)
    pool = frozenset(facts.to_pair)
    bye = None
    if len(pool) % 2:  # 3.4
        order = sorted(
            (p for p in pool if not facts.barred[p]),
            key=lambda p: (facts.score[p], -facts.played[p], -p),
        )
        bye = next((p for p in order if _perfect(facts, pool - {p})), None)
        if bye is None:
            raise NoValidPairing("no player can receive the pairing-allocated bye")
        pool = pool - {bye}
    elif not _perfect(facts, pool):
        raise NoValidPairing("no legal pairing")
    pairs = []
    while pool:
        top = max(facts.score[p] for p in pool)
        residents = frozenset(p for p in pool if facts.score[p] == top)
        ups = _choose_upfloaters(facts, pool, residents)
        pairs += _pair_bracket(facts, residents, ups)
        pool = pool - residents - ups
    boards = [_colours(facts, a, b, dt.tournament.initial_color) for a, b in pairs]
    boards.sort(key=lambda b: (min(b.white, b.black), b.white))
    return RoundPairing(round=facts.k, boards=tuple(boards), bye=bye)
