"""Each rule of the Clock system on a small tournament that exercises it.

Grids used (master colour White): 4 players PN-1..4 = #1, #3, #2, #4; 5 players the same and
#5 on PN-5; 8 players PN-1..8 = #1, #5, #3, #7, #2, #6, #4, #8.
"""

from __future__ import annotations

import pytest

from pairing.clock import build_grid, pair_clock_round, pair_round
from pairing.clock.colours import assign_colours
from pairing.clock.explanation import Backtrack, CandidateDiscarded, PickerChosen
from pairing.clock.players import ClockPlayer, Compatibility, incompatibility, players_on_the_clock
from pairing.errors import NoValidPairing
from pairing.model import Color

from .builders import game, tournament

W, B = Color.WHITE, Color.BLACK
GRID8 = build_grid(8, W)


def pairs_by_pn(result, grid) -> list[tuple[int, ...]]:
    """The stored pairs as sorted PN couples, in the order stored."""
    return [
        tuple(sorted(grid.pairing_number(t) for t in (b.white, b.black))) for b in result.boards
    ]


def on_clock(t, k=None):
    k = k or max(len(p.rounds) for p in t.players) + 1
    players = players_on_the_clock(t, k, build_grid(len(t.players), t.initial_color))
    return {p.tpn: p for p in players}, Compatibility.of(t, k)


# --- Picker, candidate, pivot -------------------------------------------------------------------


def test_round_one_pairs_neighbours_on_the_clock_with_the_grid_colours():
    result = pair_round(tournament(8))
    assert pairs_by_pn(result, GRID8) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    # grid colours: PN-1 #1 w, PN-2 #5 b, PN-3 #3 b, PN-4 #7 w, PN-5 #2 b, PN-6 #6 w, ...
    assert [(b.white, b.black) for b in result.boards] == [(1, 5), (7, 3), (6, 2), (4, 8)]


def test_the_search_walks_the_top_score_group_clockwise_then_the_next_group():
    # the even pairing numbers win round 1
    first = [game(1, 5, "0-1"), game(7, 3, "1-0"), game(6, 2, "1-0"), game(4, 8, "0-1")]
    result = pair_round(tournament(8, [first]))
    assert pairs_by_pn(result, GRID8) == [(2, 4), (6, 8), (1, 3), (5, 7)]


def test_the_next_group_starts_where_the_walk_stopped_and_wraps_around():
    # PN-1, PN-3, PN-5 win; PN-7 and PN-8 draw: 1 / 0.5 / 0 points
    first = [game(1, 5, "1-0"), game(7, 3, "0-1"), game(6, 2, "0-1"), game(4, 8, "=")]
    got = pair_clock_round(tournament(8, [first]), explain=True)
    pairs = [tuple(sorted(GRID8.pairing_number(p.tpn) for p in (d.white, d.black)))
             for d in got.pairs]
    # <1,3>; PN-5 picks the first 0.5 after him (PN-7); PN-8 picks PN-2 (after 8: 1 is paired)
    assert pairs == [(1, 3), (5, 7), (2, 8), (4, 6)]
    pickers = [e.picker.pairing_number for e in got.events if isinstance(e, PickerChosen)]
    assert pickers == [1, 5, 8, 4]


def test_a_player_met_over_the_board_is_passed_over():
    # 2 players who have played each other cannot meet again: no pairing exists
    with pytest.raises(NoValidPairing):
        pair_round(tournament(2, [[game(1, 2, "1-0")]]))


def test_a_forfeited_game_is_no_meeting_and_gives_no_colour():
    t = tournament(2, [[game(1, 2, "+-")]])
    result = pair_round(t)
    assert len(result.boards) == 1
    players, _ = on_clock(t)
    assert players[1].colours == () and players[1].met == frozenset()


def test_a_player_on_a_requested_bye_or_absent_is_off_the_clock():
    t = tournament(4, [[game(1, 3), game(4, 2)]], preset={2: "H"})
    result = pair_round(t)
    seated = {result.bye, *(x for b in result.boards for x in (b.white, b.black))}
    assert seated == {1, 3, 4}  # three on the clock: the bye exists, #2 is not paired
    assert len(result.boards) == 1


def test_the_bye_can_be_the_picker():
    # 3 players (PN-1..3 = #1..#3): round 1 #1 beat #2, #3 got the bye
    t = tournament(3, [[game(1, 2, "1-0"), (3, "U")]])
    got = pair_clock_round(t, explain=True)
    pickers = [e.picker for e in got.events if isinstance(e, PickerChosen)]
    assert [p.pairing_number for p in pickers] == [1, 0]  # after <1,3> the bye follows PN-3
    assert got.bye is not None and got.bye.tpn == 2


# --- Compatibility ------------------------------------------------------------------------------


def test_same_absolute_colour_preference_is_incompatible():
    # #1, #2, #3 played White twice in a row, #4, #5, #6 Black
    t = tournament(6, [[game(1, 4), game(2, 5), game(3, 6)], [game(1, 5), game(2, 6), game(3, 4)]])
    players, rules = on_clock(t)
    same = "same absolute colour preference"
    assert incompatibility(players[1], players[2], rules) == f"{same} (black)"
    assert incompatibility(players[4], players[6], rules) == f"{same} (white)"
    assert incompatibility(players[1], players[6], rules) is None  # opposite preferences


def test_in_the_last_round_two_players_over_half_the_points_may_share_the_preference():
    rounds = [[game(1, 3), game(2, 4)], [game(1, 4), game(2, 3)]]
    players, rules = on_clock(tournament(4, rounds, total_rounds=3))
    assert incompatibility(players[1], players[2], rules) is None  # 2 of 2 points each
    players, rules = on_clock(tournament(4, rounds, total_rounds=4))
    assert incompatibility(players[1], players[2], rules) is not None  # not the last round


def test_exactly_half_the_points_is_not_over_half():
    rounds = [[game(1, 3), game(2, 4, "=")], [game(1, 4), game(2, 3, "=")]]
    players, rules = on_clock(tournament(4, rounds, total_rounds=3))
    assert players[2].score == 10  # 1 point of 2
    assert incompatibility(players[1], players[2], rules) is not None


@pytest.mark.parametrize("entry", ["U", "H", "F"])
def test_the_bye_is_incompatible_with_points_without_playing(entry):
    t = tournament(3, [[game(1, 2), (3, entry)]])
    players, rules = on_clock(t)
    bye = ClockPlayer(0, 0, 0)
    assert incompatibility(bye, players[3], rules) is not None
    assert incompatibility(players[2], bye, rules) is None


def test_a_forfeit_win_bars_the_bye_but_a_forfeit_loss_or_an_absence_does_not():
    t = tournament(5, [[game(1, 2, "+-"), game(3, 4, "--"), (5, "Z")]])
    players, rules = on_clock(t)
    bye = ClockPlayer(0, 0, 0)
    assert incompatibility(bye, players[1], rules) is not None
    assert [incompatibility(bye, players[t], rules) for t in (2, 3, 4, 5)] == [None] * 4


# --- Backtracking -------------------------------------------------------------------------------


def backtracking_state():
    """5 players before round 3 (from a random tournament): two pairs must be undone."""
    return tournament(
        5,
        [[game(1, 3, "="), game(4, 2, "="), (5, "U")],
         [(1, "F"), (2, "U"), game(3, 5, "0-1"), (4, "H")]],
        total_rounds=5,
    )


def test_backtracking_undoes_the_last_pair_and_then_a_superior_one():
    got = pair_clock_round(backtracking_state(), explain=True)
    undone = [(e.picker.tpn, e.undone.tpn) for e in got.events if isinstance(e, Backtrack)]
    # <PN-3 #2, PN-2 #3> is undone; #2 then has no candidate, so <PN-5 #5, PN-1 #1> is undone
    assert undone == [(2, 3), (5, 1)]
    passed = [(e.picker.tpn, e.candidate.tpn, e.reason) for e in got.events
              if isinstance(e, CandidateDiscarded)]
    assert (2, 3, "temporarily incompatible") in passed
    result = got.round_pairing()
    assert [(b.white, b.black) for b in result.boards] == [(2, 5), (4, 1)]
    assert result.bye == 3


def test_no_pairing_when_nothing_is_left_to_undo():
    # 4 players who have all met: round 4 cannot be paired
    rounds = [[game(1, 3), game(4, 2)], [game(1, 2), game(3, 4)], [game(4, 1), game(2, 3)]]
    with pytest.raises(NoValidPairing):
        pair_round(tournament(4, rounds))


# --- Appendix B -----------------------------------------------------------------------------------


def player(tpn: int, colours: str, score: int = 10, pn: int | None = None) -> ClockPlayer:
    return ClockPlayer(tpn, pn or tpn, score, tuple(W if c == "w" else B for c in colours))


def colours(a, b, k=5) -> tuple[int, int, str]:
    d = assign_colours(a, b, k)
    return d.white.tpn, d.black.tpn, d.reason


def test_b_a_the_one_absolute_preference_is_granted():
    assert colours(player(1, "ww"), player(2, "wb"))[:2] == (2, 1)
    assert colours(player(1, "bwbb"), player(2, "wb"))[:2] == (1, 2)


def test_b_b_white_to_the_bigger_black_minus_white():
    assert colours(player(1, "w"), player(2, "b"))[:2] == (2, 1)
    assert colours(player(1, "bwb"), player(2, "wb"))[:2] == (1, 2)


def test_b_c_histories_compared_backwards_unplayed_games_at_the_start():
    assert colours(player(1, "wb"), player(2, "bw"))[:2] == (1, 2)  # last: #1 black
    assert colours(player(1, "bwwb"), player(2, "wbwb"))[:2] == (2, 1)  # 3 back: #2 black
    # a position where one has no game never decides: on to the scores
    assert colours(player(1, "wb", 20), player(2, "bwwb", 10))[:3] == (2, 1, "fewer points")


def test_b_d_white_to_fewer_points_and_b_e_lower_pn_repeats_his_last_colour():
    assert colours(player(1, "wb", 20), player(2, "wb", 15))[:2] == (2, 1)
    assert colours(player(1, "wb", 15, pn=3), player(2, "wb", 15, pn=2))[:2] == (1, 2)
    assert colours(player(1, "bw", 15, pn=3), player(2, "bw", 15, pn=2))[:2] == (2, 1)


def test_round_one_colours_come_from_the_grid():
    grid = build_grid(4, B)
    a = ClockPlayer(1, 1, 0, grid_colour=grid.colour(1))
    b = ClockPlayer(3, 2, 0, grid_colour=grid.colour(3))
    assert colours(a, b, k=1)[:2] == (3, 1)  # master colour black: #1 has Black
