"""The Dutch engine on small hand-made tournaments, one article of C.04.3 at a time.

Each expected pairing is worked out by hand from the rule text (2026 numbering unless said).
"""

from __future__ import annotations

import pytest

from pairing.checker import check_round
from pairing.dutch import pair_round
from pairing.errors import NoValidPairing
from pairing.model import Board, RuleSet
from pairing.trf import read_trf


def player_line(tpn, points, *entries, rating=2000):
    name = f"Player {tpn}"
    head = f"001 {tpn:>4} m    {name:<33} {rating:>4} NED {'':>11} {'':10} {points:>4} {tpn:>4}"
    return head + "".join(f"  {e}" for e in entries)


def tournament(*lines, rounds=5, colour="white1", extra=()):
    return read_trf("\n".join([*lines, f"XXR {rounds}", f"XXC {colour}", *extra]) + "\n")


def fresh(n, colour="white1", extra=()):
    return tournament(*(player_line(i, "0.0") for i in range(1, n + 1)), colour=colour, extra=extra)


def boards(pairing):
    return sorted((b.white, b.black) for b in pairing.boards)


def test_round_one_folds_s1_against_s2_and_alternates_colours_from_the_initial_colour():
    # Art. 3.2-3.3: S1 = 1 2 3, S2 = 4 5 6; Art. 5.2.5: odd TPNs get the initial colour
    p = pair_round(fresh(6))
    assert boards(p) == [(1, 4), (3, 6), (5, 2)]
    assert p.bye is None


def test_round_one_with_black_drawn_for_tpn_one():
    p = pair_round(fresh(6, colour="black1"))
    assert boards(p) == [(2, 5), (4, 1), (6, 3)]


def test_odd_number_of_players_the_lowest_gets_the_pab():
    # C.04.1 Art. 3 / [C5]: the PAB goes to a player of the lowest score, the last ranked
    p = pair_round(fresh(7))
    assert p.bye == 7
    assert boards(p) == [(1, 4), (3, 6), (5, 2)]


# Round 2 of four players: 1 beat 3, 2 beat 4 (1 and 2 had White, 3 and 4 Black).
AFTER_ONE_ROUND = (
    player_line(1, "1.0", "   3 w 1"),
    player_line(2, "1.0", "   4 w 1"),
    player_line(3, "0.0", "   1 b 0"),
    player_line(4, "0.0", "   2 b 0"),
)


def test_score_groups_are_paired_first_and_the_higher_ranked_gets_their_preference():
    # Art. 1.3: {1, 2} and {3, 4}; both of a pair prefer the same colour, they never had
    # different colours (Art. 5.2.3), so the higher ranked one's preference wins (Art. 5.2.4)
    p = pair_round(tournament(*AFTER_ONE_ROUND))
    assert boards(p) == [(2, 1), (3, 4)]


def test_no_rematch_c1():
    # 1 beat 2 and 3 beat 4 in round 1: 1 and 3 lead, but 2-4 and 1-3 are fresh
    t = tournament(
        player_line(1, "1.0", "   2 w 1"),
        player_line(2, "0.0", "   1 b 0"),
        player_line(3, "1.0", "   4 w 1"),
        player_line(4, "0.0", "   3 b 0"),
    )
    p = pair_round(t)
    pairs = {frozenset((b.white, b.black)) for b in p.boards}
    assert pairs == {frozenset((1, 3)), frozenset((2, 4))}
    assert check_round(t, p) == []


def test_a_forfeit_is_not_a_game_so_the_players_may_meet_again():
    # C.04.2 Art. 3.5: 1 won against 2 by forfeit; in the 1.0 group 1 and 2 may meet... but 2
    # has 0 points: the pair 1-3 would be the fold; with 3 absent, 1 plays 2 again.
    t = tournament(
        player_line(1, "1.0", "   2 w +"),
        player_line(2, "0.0", "   1 b -"),
        player_line(3, "0.0", "0000 - Z", "0000 - Z"),
    )
    p = pair_round(t)
    assert {frozenset((b.white, b.black)) for b in p.boards} == {frozenset((1, 2))}


def test_the_pab_is_not_given_twice_c2():
    # Five players; 5 had the PAB in round 1 and is the lowest: 4 takes the PAB instead
    t = tournament(
        player_line(1, "1.0", "   3 w 1"),
        player_line(2, "1.0", "   4 w 1"),
        player_line(3, "0.0", "   1 b 0"),
        player_line(4, "0.0", "   2 b 0"),
        player_line(5, "1.0", "0000 - U"),
    )
    p = pair_round(t)
    assert p.bye not in (None, 5)
    assert check_round(t, p) == []


def test_pab_goes_to_the_lowest_score_c5():
    # 1 has 1 point and 4 players have 0: the PAB goes to a zero-point player
    t = tournament(
        player_line(1, "1.0", "   2 w 1"),
        player_line(2, "0.0", "   1 b 0"),
        player_line(3, "0.5", "   4 w ="),
        player_line(4, "0.5", "   3 b ="),
        player_line(5, "0.0", "0000 - Z"),
    )
    p = pair_round(t)
    assert p.bye in (2, 5)


def test_c9_the_pab_goes_to_the_player_with_fewer_unplayed_games():
    # Last bracket 0.5 = {4, 5, 6}, none met; 6 missed round 2 (H). Without [C9] the sequence
    # would pair 4-5 (both preferences granted) and give 6 the PAB; [C9] ranks above the
    # colours: 6 is paired, with 4 (6 White, 4 Black) rather than 5 (both prefer White).
    t = tournament(
        player_line(1, "1.5", "   4 w 1", "   5 w ="),
        player_line(2, "1.5", "   5 w 1", "   4 b ="),
        player_line(3, "2.0", "   6 w 1", "0000 - U", "0000 - Z"),
        player_line(4, "0.5", "   1 b 0", "   2 w ="),
        player_line(5, "0.5", "   2 b 0", "   1 b ="),
        player_line(6, "0.5", "   3 b 0", "0000 - H"),
    )
    p = pair_round(t)
    assert p.bye == 5
    assert boards(p) == [(2, 1), (6, 4)]


def test_c9_also_chooses_among_mdps_who_carry_the_pab_score():
    # docs/INTERPRETATIONS.md I-37. 2 and 3 (1.5 points) met, so both float into the last bracket
    # (1.0), whose only resident 5 already had the PAB: the bracket downfloats exactly one of
    # them, who ends up with the PAB. 3 missed round 1 (H), 2 did not: [C9] pairs 3-5 and gives
    # 2 the PAB, although 2-5 would grant both colour preferences (3 and 5 both prefer Black).
    t = tournament(
        player_line(1, "2.5", "   2 w 1", "   3 w =", "   5 b 1"),
        player_line(2, "1.5", "   1 b 0", "   4 w 1", "   3 b ="),
        player_line(3, "1.5", "0000 - H", "   1 b =", "   2 w ="),
        player_line(4, "2.0", "   5 w 1", "   2 b 0", "0000 - U"),
        player_line(5, "1.0", "   4 b 0", "0000 - U", "   1 w 0"),
    )
    p = pair_round(t)
    assert p.bye == 2
    assert boards(p) == [(4, 1), (5, 3)]


def test_players_with_the_same_absolute_preference_do_not_meet_c3():
    # 1 and 2 both played White twice (absolute preference for Black); 3 and 4 Black twice
    t = tournament(
        player_line(1, "2.0", "   3 w 1", "   4 w 1"),
        player_line(2, "2.0", "   4 w 1", "   3 w 1"),
        player_line(3, "0.0", "   1 b 0", "   2 b 0"),
        player_line(4, "0.0", "   2 b 0", "   1 b 0"),
        rounds=5,
    )
    with pytest.raises(NoValidPairing):
        pair_round(t)


def topscorer_state(rounds):
    # 1 and 2 played White twice and won twice (absolute preference for Black)
    return tournament(
        player_line(1, "2.0", "   3 w 1", "   5 w 1"),
        player_line(2, "2.0", "   4 w 1", "   6 w 1"),
        player_line(3, "0.5", "   1 b 0", "   4 w ="),
        player_line(4, "0.5", "   2 b 0", "   3 b ="),
        player_line(5, "0.5", "   6 w =", "   1 b 0"),
        player_line(6, "0.5", "   5 b =", "   2 b 0"),
        rounds=rounds,
    )


def test_topscorers_may_meet_with_the_same_absolute_preference_in_the_last_round():
    # Art. 1.8: in the final round 1 and 2 (over 50 %) are topscorers; [C3] does not bind them
    final = {frozenset((b.white, b.black)) for b in pair_round(topscorer_state(3)).boards}
    assert frozenset((1, 2)) in final
    # 4 and 6 (absolute White, not topscorers) still may not meet
    assert final == {frozenset((1, 2)), frozenset((3, 6)), frozenset((4, 5))}
    earlier = {frozenset((b.white, b.black)) for b in pair_round(topscorer_state(5)).boards}
    assert frozenset((1, 2)) not in earlier


def test_no_legal_pairing_raises():
    t = tournament(player_line(1, "1.0", "   2 w 1"), player_line(2, "0.0", "   1 b 0"))
    with pytest.raises(NoValidPairing):
        pair_round(t)


def test_requested_byes_and_absences_are_not_paired():
    t = tournament(*(player_line(i, "0.0") for i in range(1, 6)),
                   player_line(6, "0.5", "0000 - H"))
    p = pair_round(t)
    listed = {x for b in p.boards for x in (b.white, b.black)} | {p.bye}
    assert 6 not in listed
    assert listed == {1, 2, 3, 4, 5}


def test_prohibited_pairs_are_respected():
    # XXP 1 4: the fold 1-4 is forbidden, so S2 is transposed (Art. 4.2): 1-5, 2-4, 3-6
    p = pair_round(fresh(6, extra=("XXP 1 4",)))
    assert {frozenset((b.white, b.black)) for b in p.boards} == {
        frozenset((1, 5)), frozenset((2, 4)), frozenset((3, 6))
    }


def test_acceleration_moves_players_into_a_higher_score_group():
    # Virtual points (XXA) for 1-4 in round 1: {1..4} and {5..8} are separate groups
    extra = tuple(f"XXA {i:>4}  1.0" for i in range(1, 5))
    p = pair_round(fresh(8, extra=extra))
    pairs = {frozenset((b.white, b.black)) for b in p.boards}
    assert pairs == {frozenset(x) for x in ((1, 3), (2, 4), (5, 7), (6, 8))}


def test_downfloater_is_paired_with_the_highest_resident_possible():
    # Three players on 1 point (1, 2, 3), three on 0 (4, 5, 6); 1-2 already met.
    # Bracket 1.0: 1-3 (2 was met by 1), 2 floats and meets 4, the first of S2 (Art. 4.2)
    t = tournament(
        player_line(1, "1.0", "   4 w 1"),
        player_line(2, "1.0", "   5 b 1"),
        player_line(3, "1.0", "   6 w 1"),
        player_line(4, "0.0", "   1 b 0"),
        player_line(5, "0.0", "   2 w 0"),
        player_line(6, "0.0", "   3 b 0"),
    )
    p = pair_round(t)
    pairs = {frozenset((b.white, b.black)) for b in p.boards}
    assert frozenset((1, 2)) in pairs
    assert frozenset((3, 4)) in pairs
    assert frozenset((5, 6)) in pairs


def test_rule_set_2017_is_accepted_and_pairs_round_one_the_same():
    t = fresh(6)
    assert boards(pair_round(t, rules=RuleSet.DUTCH_2017)) == boards(pair_round(t))


def test_explanation_lists_the_brackets():
    p = pair_round(fresh(7), explain=True)
    text = "\n".join(p.explanation)
    assert "bracket 0.0" in text
    assert "pairing-allocated bye: 7" in text
    assert pair_round(fresh(7)).explanation == ()


def test_colour_allocation_grants_both_preferences():
    # Art. 5.2.1: 1 (had Black) plays 2 (had White): 1 gets White
    t = tournament(
        player_line(1, "1.0", "   3 b 1"),
        player_line(2, "1.0", "   4 w 1"),
        player_line(3, "0.0", "   1 w 0"),
        player_line(4, "0.0", "   2 b 0"),
    )
    p = pair_round(t)
    assert Board(1, 2) in p.boards
    assert Board(4, 3) in p.boards


# Colour allocation (Art. 5.2) tested on the player facts directly.
from pairing.dutch.colours import allocate_colours  # noqa: E402
from pairing.dutch.players import Float, PlayerState  # noqa: E402
from pairing.model import Color  # noqa: E402

W, B = Color.WHITE, Color.BLACK


def facts(tpn, colours, score=10):
    whites = colours.count(W)
    imbalance = abs(2 * whites - len(colours))
    two_same = len(colours) >= 2 and colours[-1] is colours[-2]
    more_white = whites * 2 > len(colours)
    if imbalance > 1:  # Art. 1.7.1
        pref = B if more_white else W
    elif two_same:
        pref = colours[-1].opposite
    elif imbalance == 1:  # Art. 1.7.2
        pref = B if more_white else W
    elif colours:  # Art. 1.7.3
        pref = colours[-1].opposite
    else:
        pref = None
    absolute = imbalance > 1 or two_same
    return PlayerState(
        tpn=tpn, rank_index=tpn - 1, score=score, colors=tuple(colours), preference=pref,
        absolute=absolute, strong=not absolute and imbalance == 1, imbalance=imbalance,
        repeated=colours[-1] if two_same else None, eligible_for_bye=True,
        played_games=len(colours), float1=Float.NONE, float2=Float.NONE, met=frozenset(),
    )


def test_colour_stronger_preference_wins_522():
    # 1 (B W) has a mild preference for Black, 2 (W W) an absolute one: 2 gets Black
    t = fresh(2)
    assert allocate_colours(t, facts(1, [B, W]), facts(2, [W, W])) == Board(1, 2)


def test_colour_alternates_to_the_latest_difference_523():
    # Both mild for Black after W in the last round; in round 3 both had Black; in round 2
    # 1 had White and 2 Black: now 1 gets Black
    t = fresh(2)
    one, two = facts(1, [B, W, B, W]), facts(2, [W, B, B, W])
    assert one.preference is B and two.preference is B
    assert allocate_colours(t, one, two) == Board(2, 1)


def test_colour_higher_ranked_preference_524():
    # Same histories: the higher ranked (2 has more points) gets their preference (Black)
    t = fresh(2)
    assert allocate_colours(t, facts(1, [W, B, W]), facts(2, [W, B, W], score=20)) == Board(1, 2)
