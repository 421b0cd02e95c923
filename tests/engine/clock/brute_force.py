"""A second Clock-system pairer, written apart from ``pairing.clock`` to check it.

It takes the text at its word and does not try to be quick: the clock is walked seat by seat
(PN-1, PN-2, ..., PN-N, the bye, PN-1, ...), the picker and every candidate are found by that
walk, and backtracking is a recursion: a picker whose candidate leads nowhere declares him
temporarily incompatible and searches again from him. It shares no code with the engine except
the grid (Appendix A, checked on its own against the seed's example) and the model types.
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.clock.grid import build_grid
from pairing.model import Color, ResultCode, Tournament

W, B = Color.WHITE, Color.BLACK
_PLAYED = {ResultCode.WIN, ResultCode.DRAW, ResultCode.LOSS}
_POINTS = {
    ResultCode.WIN: 2, ResultCode.DRAW: 1, ResultCode.LOSS: 0, ResultCode.FORFEIT_WIN: 2,
    ResultCode.FORFEIT_LOSS: 0, ResultCode.PAIRING_ALLOCATED_BYE: 2,
    ResultCode.HALF_POINT_BYE: 1, ResultCode.FULL_POINT_BYE: 2, ResultCode.ZERO_POINT_BYE: 0,
}  # half points


class Unpairable(Exception):
    """No pairing exists."""


@dataclass
class Seat:
    pn: int
    tpn: int
    half_points: int
    colours: list[Color]
    opponents: set[int]
    free_points: bool
    grid_colour: Color | None


def _absolute(colours: list[Color]) -> Color | None:
    """The colour a player must get, if he has played a colour twice in a row or twice more."""
    whites, blacks = colours.count(W), colours.count(B)
    if whites - blacks >= 2:
        return B
    if blacks - whites >= 2:
        return W
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return B if colours[-1] == W else W
    return None


def brute_force_round(t: Tournament) -> tuple[list[tuple[int, int]], int | None]:
    """Pair the next round: the pairs (white TPN, black TPN) in the order stored, and the TPN
    paired with the bye. Raise Unpairable when no pairing exists."""
    k = 1 + max(
        (r for p in t.players for r, e in enumerate(p.rounds, 1)
         if e.opponent is not None or e.result == ResultCode.PAIRING_ALLOCATED_BYE),
        default=0,
    )
    grid = build_grid(len(t.players), t.initial_color)
    pn_of = {s.rank: s.pairing_number for s in grid.seats}
    colour_of = {s.rank: s.colour for s in grid.seats}
    seats: dict[int, Seat] = {}
    for player in t.players:
        if len(player.rounds) >= k:
            continue  # a requested bye or an absence: not on the clock
        past = player.rounds[: k - 1]
        games = [e for e in past if e.opponent is not None and e.result in _PLAYED]
        seats[pn_of[player.tpn]] = Seat(
            pn=pn_of[player.tpn], tpn=player.tpn,
            half_points=sum(_POINTS[e.result] for e in past),
            colours=[e.color for e in games],
            opponents={e.opponent for e in games},
            free_points=any(e.result not in _PLAYED and _POINTS[e.result] > 0 for e in past),
            grid_colour=colour_of[player.tpn],
        )
    if len(seats) % 2:
        seats[0] = Seat(0, 0, 0, [], set(), False, None)
    field = len(t.players)
    last_round = t.total_rounds is not None and k >= t.total_rounds

    def clockwise(pivot: int) -> list[int]:
        """The seats in the order they follow the pivot, the pivot's own seat last."""
        order, pn = [], pivot
        for _ in range(field + 1):
            pn = 0 if pn == field else pn + 1
            if pn in seats:
                order.append(pn)
        return order

    def compatible(a: Seat, b: Seat) -> bool:
        if a.pn == 0 or b.pn == 0:
            return not (b if a.pn == 0 else a).free_points
        if b.tpn in a.opponents:
            return False
        colour_a, colour_b = _absolute(a.colours), _absolute(b.colours)
        if colour_a is None or colour_a != colour_b:
            return True
        return last_round and a.half_points > k - 1 and b.half_points > k - 1  # over 50 %

    def first_after(pivot: int, free: set[int]) -> int | None:
        """The first seat after the pivot among the highest scorers of ``free``."""
        if not free:
            return None
        best = max(seats[pn].half_points for pn in free)
        return next(pn for pn in clockwise(pivot) if pn in free and seats[pn].half_points == best)

    def pair_from(pivot: int, free: set[int]) -> list[tuple[int, int]] | None:
        """Pair everybody in ``free`` from this pivot; None if it cannot be done."""
        if not free:
            return []
        picker = first_after(pivot, free)
        return pick(picker, picker, free - {picker}, set())

    def pick(picker: int, pivot: int, free: set[int], barred: set[int]) -> list | None:
        """Let the picker take his first acceptable candidate; on failure further down, bar
        that candidate and search again from him."""
        left = set(free)
        while True:
            candidate = first_after(pivot, left)
            if candidate is None:
                return None
            pivot = candidate
            left.discard(candidate)
            if candidate in barred or not compatible(seats[picker], seats[candidate]):
                continue
            rest = pair_from(candidate, free - {candidate})
            if rest is not None:
                return [(picker, candidate), *rest]
            return pick(picker, candidate, free, barred | {candidate})

    stored = pair_from(0, set(seats))
    if stored is None:
        raise Unpairable
    pairs, bye = [], None
    for a, b in stored:
        if a == 0 or b == 0:
            bye = seats[b or a].tpn
            continue
        white, black = _colours(seats[a], seats[b], k)
        pairs.append((white.tpn, black.tpn))
    return pairs, bye


def _colours(a: Seat, b: Seat, k: int) -> tuple[Seat, Seat]:
    """Appendix B: return (white, black)."""
    if k == 1:
        if a.grid_colour != b.grid_colour and a.grid_colour is not None:
            return (a, b) if a.grid_colour == W else (b, a)
    want_a, want_b = _absolute(a.colours), _absolute(b.colours)
    if (want_a is None) != (want_b is None):
        want = want_a or want_b
        holder, other = (a, b) if want_a else (b, a)
        return (holder, other) if want == W else (other, holder)
    diff_a = a.colours.count(B) - a.colours.count(W)
    diff_b = b.colours.count(B) - b.colours.count(W)
    if diff_a != diff_b:
        return (a, b) if diff_a > diff_b else (b, a)
    for i in range(1, min(len(a.colours), len(b.colours)) + 1):
        if a.colours[-i] != b.colours[-i]:
            return (a, b) if a.colours[-i] == B else (b, a)
    if a.half_points != b.half_points:
        return (a, b) if a.half_points < b.half_points else (b, a)
    low, high = (a, b) if a.pn < b.pn else (b, a)
    last = low.colours[-1] if low.colours else (low.grid_colour or W)
    return (low, high) if last == W else (high, low)
