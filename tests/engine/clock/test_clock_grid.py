"""Appendix A: the seed's 27-player example, exactly, and the grid's shape for every field."""

from __future__ import annotations

import pytest

from pairing.clock import build_grid, pair_round
from pairing.model import Color

from .builders import tournament

W, B = Color.WHITE, Color.BLACK

# "The complete grid" of the example: PN-1..PN-27 -> rank #.
SEED_GRID = {
    1: 1, 2: 14, 3: 8, 4: 21, 5: 4, 6: 17, 7: 11, 8: 24, 9: 3, 10: 16, 11: 10, 12: 23, 13: 6,
    14: 19, 15: 13, 16: 26, 17: 2, 18: 15, 19: 9, 20: 22, 21: 5, 22: 18, 23: 12, 24: 25, 25: 7,
    26: 20, 27: 27,
}

# "The first round is": (PN-PN) #rank-#rank, White first, and (27) #27 bye.
SEED_FIRST_ROUND = [
    ((2, 1), (14, 1)), ((3, 4), (8, 21)), ((5, 6), (4, 17)), ((8, 7), (24, 11)),
    ((9, 10), (3, 16)), ((12, 11), (23, 10)), ((14, 13), (19, 6)), ((15, 16), (13, 26)),
    ((17, 18), (2, 15)), ((20, 19), (22, 9)), ((22, 21), (18, 5)), ((23, 24), (12, 25)),
    ((26, 25), (20, 7)),
]


def test_the_seed_grid_of_27_players_master_colour_black():
    grid = build_grid(27, B)
    assert {s.pairing_number: s.rank for s in grid.seats} == SEED_GRID


def test_the_seed_slots_and_their_colours():
    grid = build_grid(27, B)
    slot = [grid.rank(pn) for pn in range(1, 9)]
    assert slot == [1, 14, 8, 21, 4, 17, 11, 24]  # [7]: the first slot, master colour
    assert [grid.rank(pn) for pn in range(17, 25)] == [2, 15, 9, 22, 5, 18, 12, 25]
    assert [grid.rank(pn) for pn in (25, 26)] == [7, 20]  # [5]: the first odd-slot
    # [5] "7 will get black (the master color), 20 white"; the next odd-slot gets white:
    # "#2 gets white, and #15, #9, #5 ... black; #22, #18 and #12 ... white, #25 ... black"
    assert (grid.colour(7), grid.colour(20)) == (B, W)
    assert [grid.colour(r) for r in (2, 15, 9, 5, 22, 18, 12, 25)] == [W, B, B, B, W, W, W, B]
    assert grid.colour(1) is B and grid.colour(3) is W  # [7]
    assert grid.colour(27) is None  # PN-27 meets the bye


def test_the_seed_first_round_colours_included():
    state = tournament(27, master=B)
    result = pair_round(state)
    grid = build_grid(27, B)
    want = [ranks for _pns, ranks in SEED_FIRST_ROUND]
    assert sorted((b.white, b.black) for b in result.boards) == sorted(want)
    assert result.bye == 27
    for (white_pn, black_pn), (white, black) in SEED_FIRST_ROUND:
        assert (grid.rank(white_pn), grid.rank(black_pn)) == (white, black)


@pytest.mark.parametrize("n", range(1, 61))
@pytest.mark.parametrize("master", [W, B])
def test_every_field_gets_a_grid(n, master):
    grid = build_grid(n, master)
    assert sorted(s.rank for s in grid.seats) == list(range(1, n + 1))
    assert [s.pairing_number for s in grid.seats] == list(range(1, n + 1))
    if n % 2:
        assert grid.rank(n) == n and grid.colour(n) is None  # [b]
    if n >= 2:
        assert grid.rank(1) == 1 and grid.colour(1) is master  # [d]
    for pn in range(1, n - n % 2, 2):  # round 1: PN-1 vs PN-2, ... always opposite colours
        assert grid.seats[pn - 1].colour is grid.seats[pn].colour.opposite


def test_two_players_the_single_slot_is_an_odd_slot_with_the_master_colour():
    grid = build_grid(2, B)
    assert [(s.rank, s.colour) for s in grid.seats] == [(1, B), (2, W)]


def test_six_players_the_median_takes_the_last_pairing_numbers():
    # S = 3: slots 1-4, 2-5, 3-6; the median 2-5 is the odd-slot on PN-5..6 (master colour),
    # then 1-4 on PN-1..2 (master colour) and 3-6 on PN-3..4 (the other one).
    grid = build_grid(6, W)
    assert [(s.rank, s.colour) for s in grid.seats] == [
        (1, W), (4, B), (3, B), (6, W), (2, W), (5, B)
    ]
