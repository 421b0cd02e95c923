"""The 16 readings of the corpus README (``double-swiss/README.md``), each on a small case.

Cases that pair a match run on the engine and on the literal reference alike.
"""

from __future__ import annotations

import pytest

from pairing.double_swiss import pair_match
from pairing.double_swiss.colours import allocate_colours
from pairing.double_swiss.players import PlayerState, build_players
from pairing.double_swiss.rules import colour_history, may_receive_pab
from pairing.errors import NoValidPairing
from pairing.model import Board, Color

from .builders import event
from .reference import reference_pair_match

W, B = Color.WHITE, Color.BLACK
ENGINES = pytest.mark.parametrize(
    "pair", [pair_match, reference_pair_match], ids=["engine", "reference"]
)


def pairs(result) -> set[tuple[int, int]]:
    return {(b.white, b.black) for b in result.boards}


def state(dt, tpn: int) -> PlayerState:
    return next(p for p in build_players(dt, dt.next_match_number()) if p.tpn == tpn)


def test_r1_score_is_game_points_plus_bye_match_values():
    dt = event(5, ["1-2 1=, 3 U, 4 H, 5 F", "1-2 h0"])
    assert [dt.score(p) for p in range(1, 6)] == [20, 15, 15, 10, 20]


def test_r1_a_late_entrant_is_absent_before_with_zero():
    dt = event(3, ["1-2 ==", "1-3 =="])
    assert dt.score(3) == 10 and dt.matches_of(3)[0].bye.value == "Z"


@ENGINES
def test_r2_a_forfeit_match_is_no_meeting(pair):
    assert pairs(pair(event(2, ["1-2 ++"]))) == {(1, 2)}
    assert pairs(pair(event(2, ["1-2 dd"]))) == {(1, 2)}


@ENGINES
@pytest.mark.parametrize("games", ["+1", "+-", "-="])
def test_r2_a_single_forfeited_game_leaves_a_regular_match(pair, games):
    with pytest.raises(NoValidPairing):
        pair(event(2, [f"1-2 {games}"]))


def test_r2_a_forfeit_match_is_not_a_match_played_nor_a_colour():
    dt = event(3, ["1-2 ++, 3 Z"])
    one = state(dt, 1)
    assert one.matches_played == 0 and one.colours == () and one.met == frozenset()


def test_r3_only_a_forfeit_match_won_bars_the_pab():
    dt = event(6, ["1-2 ++, 3-4 +1, 5 F, 6 H"])
    barred = {p: not may_receive_pab(dt.matches_of(p), dt.point_system) for p in range(1, 7)}
    assert barred == {1: True, 2: False, 3: False, 4: False, 5: True, 6: False}


def test_r4_colour_history_leaves_out_colourless_matches():
    dt = event(3, ["1-2 ==", "1-2 ++", "3-1 ==", "1-3 +-"])
    assert colour_history(dt.matches_of(1), dt.point_system) == (W, B)


@ENGINES
def test_r5_the_pab_passes_over_a_player_whose_removal_leaves_no_legal_pairing(pair):
    result = pair(event(3, ["1-2 1="]))  # 3 has the lowest score, but 1-2 met (3.4.1)
    assert result.bye == 2 and pairs(result) == {(3, 1)}


@ENGINES
def test_r5_most_matches_played_then_largest_tpn(pair):
    result = pair(event(5, ["1-2 ==, 3-4 ==, 5 H"]))  # all 1.0; 5 played no match (3.4.3)
    assert result.bye == 4


@ENGINES
def test_r6_the_upfloater_comes_from_lower_when_the_next_group_cannot_complete(pair):
    # 1 (3.5) has met 2 (2.0), so its upfloater is 4 (1.5): [C4]/[C5] over feasible sets
    result = pair(event(4, ["1-2 1=, 3-4 ==", "1-3 11, 2-4 1="]))
    assert pairs(result) == {(4, 1), (3, 2)}


@ENGINES
def test_r7_r8_c6_looks_at_the_following_scoregroup_before_the_set_order(pair):
    # {2} comes first, but leaves 3 and 4 (who met) of the 1.0 group without a partner
    result = pair(event(6, ["3-4 ==, 1-5 11, 2 H"]))
    assert pairs(result) == {(3, 1), (4, 2), (5, 6)}


C7_EVENT = ["1-4 11, 2-5 ==, 3-6 ==", "2-4 ==, 3-5 ==, 1-6 =="]


@ENGINES
def test_r9_c7_prefers_an_upfloater_who_did_not_float(pair):
    result = pair(event(6, C7_EVENT, total=5))  # 2 floated in match 2, 3 did not
    assert (3, 1) in pairs(result)


@ENGINES
def test_r9_not_in_the_last_round(pair):
    result = pair(event(6, C7_EVENT, total=3))
    assert (2, 1) in pairs(result)


def test_r10_a_pab_bye_or_forfeit_match_is_no_float():
    dt = event(6, ["1-2 11, 3-4 ++, 5 U, 6 Z", "1-3 ==, 2-4 ==, 5-6 =="])
    floated = {p.tpn: p.floated for p in build_players(dt, 3)}
    assert floated == {1: False, 2: False, 3: False, 4: False, 5: True, 6: True}
    first = {p.tpn: p.floated for p in build_players(event(6, ["1-2 11, 3-4 ++, 5 U"]), 2)}
    assert not any(first.values())


@ENGINES
def test_r11_identifier_order_not_one_two_three_four(pair):
    result = pair(event(4, ["1-3 ==, 2 H, 4 H"]))  # 1-3 met: 1-4 2-3 (4 6 ... order)
    assert pairs(result) == {(4, 1), (3, 2)}


def _player(tpn: int, score: int, colours: str) -> PlayerState:
    return PlayerState(
        tpn, score, frozenset(), True, len(colours), False,
        tuple(W if c == "W" else B for c in colours),
    )


@pytest.mark.parametrize(
    ("a", "b", "initial", "board", "article"),
    [
        ((1, 10, ""), (2, 10, ""), W, (1, 2), "4.3.1"),  # HRP 1 odd: initial colour
        ((2, 10, ""), (3, 10, ""), W, (3, 2), "4.3.1"),  # HRP 2 even: the opposite
        ((4, 20, ""), (1, 10, ""), B, (4, 1), "4.3.1"),  # HRP by score (R12), 4 even: not B
        ((1, 10, "WB"), (2, 10, "BB"), W, (2, 1), "4.3.2"),
        # R13 right-aligned: ..W B vs W B agree, 4.3.4 alternates the HRP's last colour
        ((1, 10, "WB"), (2, 10, "BWB"), W, (1, 2), "4.3.4"),
        ((1, 10, "BWWB"), (2, 10, "WWBB"), W, (2, 1), "4.3.3"),
        ((1, 10, ""), (2, 10, "B"), W, (2, 1), "4.3.5"),  # R14: opponent alternates
    ],
)
def test_r12_to_r14_colours(a, b, initial, board, article):
    got, rule = allocate_colours(_player(*a), _player(*b), initial)
    assert (got, rule) == (Board(*board), article)


@ENGINES
def test_r15_players_with_a_preset_bye_are_not_paired(pair):
    result = pair(event(5, ["1-2 ==, 3-4 ==, 5 H"], preset={5: "H"}))
    assert result.bye is None and pairs(result) == {(3, 1), (2, 4)}


def test_r16_boards_by_hrp_score_then_sum_then_tpn():
    result = pair_match(event(4, ["1-2 00, 3-4 11"]))
    assert result.boards == (Board(2, 3), Board(4, 1))
