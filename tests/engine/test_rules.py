"""The shared FIDE rules (pairing/rules.py), each tested from its text.

Every case quotes the article it reads; point systems where the pairing-allocated bye is worth
less than a win come from the corpus' edge files (PAB 0.5 or 0 with standard scoring, 3/1/0
with PAB 1, 2/1/0, 3/2/1).
"""

from __future__ import annotations

import pytest

from pairing.model import Color, PointSystem, ResultCode, RoundEntry, RuleSet
from pairing.rules import (
    NO_PREFERENCE,
    ColourPreference,
    Float,
    Strength,
    colour_difference,
    colour_limits_broken,
    colour_preference,
    float_received,
    is_final_round,
    is_topscorer,
    may_receive_pab,
    opponents_met,
    played_colours,
    same_absolute_preference,
)

W, B = Color.WHITE, Color.BLACK
R = ResultCode
NEW, OLD = RuleSet.DUTCH_2026, RuleSet.DUTCH_2017

PAB = RoundEntry(None, None, R.PAIRING_ALLOCATED_BYE)
HALF_BYE = RoundEntry(None, None, R.HALF_POINT_BYE)
FULL_BYE = RoundEntry(None, None, R.FULL_POINT_BYE)
ABSENT = RoundEntry(None, None, R.ZERO_POINT_BYE)
FORFEIT_WIN = RoundEntry(7, W, R.FORFEIT_WIN)
FORFEIT_LOSS = RoundEntry(7, B, R.FORFEIT_LOSS)
WIN = RoundEntry(3, W, R.WIN)
LOSS = RoundEntry(4, B, R.LOSS)

POINT_SYSTEMS = {
    "standard": PointSystem(),
    "PAB 0.5": PointSystem(pairing_allocated_bye=5),
    "PAB 0": PointSystem(pairing_allocated_bye=0),
    "3/1/0, PAB 1": PointSystem(win=30, draw=10, forfeit_win=30, full_point_bye=30,
                                half_point_bye=10, pairing_allocated_bye=10),
    "2/1/0": PointSystem(win=20, draw=10, forfeit_win=20, full_point_bye=20, half_point_bye=10,
                         pairing_allocated_bye=20),
    "3/2/1": PointSystem(win=30, draw=20, loss=10, forfeit_win=30, full_point_bye=30,
                         half_point_bye=20, pairing_allocated_bye=30),
}


# --- Basic Rules Art. 4, [C2]: "A participant who has already received a pairing-allocated
# bye, or has already scored in one single round, without playing, as many points as rewarded
# for a win, shall not receive the pairing-allocated bye."


@pytest.mark.parametrize("points", POINT_SYSTEMS.values(), ids=POINT_SYSTEMS)
def test_a_second_pab_is_refused_whatever_the_first_was_worth(points):
    assert may_receive_pab([WIN, LOSS], points, NEW)
    assert not may_receive_pab([WIN, PAB, LOSS], points, NEW)
    assert not may_receive_pab([PAB], points, OLD)


@pytest.mark.parametrize("points", POINT_SYSTEMS.values(), ids=POINT_SYSTEMS)
def test_a_win_scored_without_playing_bars_the_pab(points):
    # a forfeit win and a requested full-point bye both score a win without playing
    assert not may_receive_pab([FORFEIT_WIN], points, NEW)
    assert not may_receive_pab([FULL_BYE], points, NEW)
    # a half-point bye, an absence or a forfeit loss score less than a win
    assert may_receive_pab([HALF_BYE, ABSENT, FORFEIT_LOSS], points, NEW)


def test_a_half_point_bye_worth_a_win_bars_the_pab():
    # "as many points as rewarded for a win": the value decides, not the letter
    generous = PointSystem(half_point_bye=10)
    assert not may_receive_pab([HALF_BYE], generous, NEW)


def test_2017_c2_names_only_the_pab_and_a_forfeit_win():
    # 2017 C.2: "... or has already scored a (forfeit) win due to an opponent not appearing"
    standard = PointSystem()
    assert not may_receive_pab([FORFEIT_WIN], standard, OLD)
    assert may_receive_pab([FULL_BYE, HALF_BYE], standard, OLD)


# --- Art. 1.6 and 1.7: colour difference and colour preference


def test_colour_difference_counts_whites_minus_blacks():
    assert colour_difference((W, W, B)) == 1
    assert colour_difference((B, B, B, W)) == -2
    assert colour_difference(()) == 0


def test_only_played_games_make_a_colour_history():
    # C.04.2 Art. 3.4: unplayed rounds are skipped; a forfeit is not a played game
    history = [WIN, PAB, FORFEIT_WIN, RoundEntry(5, B, R.DRAW), HALF_BYE]
    assert played_colours(history) == (W, B)


@pytest.mark.parametrize(
    "colours, expected",
    [
        ((), NO_PREFERENCE),  # 1.7.4: no game played
        ((W, B, W, W), ColourPreference(B, Strength.ABSOLUTE)),  # 1.7.1: difference > +1
        ((B, B), ColourPreference(W, Strength.ABSOLUTE)),  # 1.7.1: difference < -1
        ((B, W, W), ColourPreference(B, Strength.ABSOLUTE)),  # 1.7.1: the two latest alike
        ((W, B, B), ColourPreference(W, Strength.ABSOLUTE)),
        ((W,), ColourPreference(B, Strength.STRONG)),  # 1.7.2: difference +1
        ((W, B, B, W, B), ColourPreference(W, Strength.STRONG)),  # 1.7.2: difference -1
        ((W, B), ColourPreference(W, Strength.MILD)),  # 1.7.3: alternate the last game
        ((B, W), ColourPreference(B, Strength.MILD)),
    ],
)
def test_colour_preference(colours, expected):
    assert colour_preference(colours) == expected


def test_c3_needs_two_absolute_preferences_for_the_same_colour():
    absolute_black = colour_preference((W, W))
    assert same_absolute_preference(absolute_black, colour_preference((B, W, W)))
    assert not same_absolute_preference(absolute_black, colour_preference((B, B)))
    assert not same_absolute_preference(absolute_black, colour_preference((W,)))  # strong
    assert not same_absolute_preference(absolute_black, NO_PREFERENCE)


def test_basic_rules_6_and_7_on_the_history_with_the_next_game():
    assert colour_limits_broken((W, B, W, W)) == ()
    assert colour_limits_broken((W, W, B, W, W)) == ("C.04.1 Art. 6",)
    assert colour_limits_broken((B, W, W, W)) == ("C.04.1 Art. 7",)
    assert colour_limits_broken((W, W, W)) == ("C.04.1 Art. 6", "C.04.1 Art. 7")


# --- Art. 1.8: topscorers, "over 50% of the maximum possible score when pairing the final
# round"


def test_topscorers_have_over_half_the_maximum_before_the_final_round():
    standard = PointSystem()
    assert is_topscorer(35, 6, standard)  # 3.5 of 6
    assert not is_topscorer(30, 6, standard)  # exactly half is not over half
    three = POINT_SYSTEMS["3/1/0, PAB 1"]
    assert is_topscorer(100, 6, three) and not is_topscorer(90, 6, three)  # of 18 points


def test_the_final_round_is_the_declared_last_one():
    assert is_final_round(9, 9)
    assert not is_final_round(8, 9)
    assert not is_final_round(5, None)  # no declared number of rounds: never the final one


# --- Art. 1.4 (2017: A.4): floats


@pytest.mark.parametrize("points", POINT_SYSTEMS.values(), ids=POINT_SYSTEMS)
def test_a_pab_worth_more_than_a_loss_is_a_downfloat(points):
    # 1.4.3: "A downfloat is also given to any player who receives a pairing-allocated bye";
    # I-15: only when it scores more than a loss, as bbpPairings v6.0.0 pairs
    expected = Float.DOWN if points.pairing_allocated_bye > points.loss else Float.NONE
    assert float_received(PAB, 10, None, points, NEW) is expected
    assert float_received(PAB, 10, None, points, OLD) is Float.DOWN  # 2017 A.4.b


def test_a_pab_worth_nothing_is_no_float():
    # fuzz case dutch_2026_pab_worth_nothing_no_float: 8 had a 0-point PAB the round before
    # and still downfloats again ([C14] does not count that PAB)
    assert float_received(PAB, 10, None, POINT_SYSTEMS["PAB 0"], NEW) is Float.NONE


def test_an_unplayed_round_floats_only_when_it_scores_more_than_a_loss():
    standard = PointSystem()
    assert float_received(HALF_BYE, 10, None, standard, NEW) is Float.DOWN  # 1.4.3
    assert float_received(FORFEIT_WIN, 10, 10, standard, NEW) is Float.DOWN
    assert float_received(ABSENT, 10, None, standard, NEW) is Float.NONE  # 1.4.4
    assert float_received(FORFEIT_LOSS, 10, 10, standard, NEW) is Float.NONE
    # 2017 A.4.b: "a player who, for whatever reason, does not play ... receives a downfloat"
    assert float_received(ABSENT, 10, None, standard, OLD) is Float.DOWN


def test_the_higher_of_two_scores_downfloats_and_the_lower_upfloats():
    standard = PointSystem()
    assert float_received(WIN, 20, 15, standard, NEW) is Float.DOWN  # 1.4.2
    assert float_received(WIN, 15, 20, standard, NEW) is Float.UP
    assert float_received(WIN, 15, 15, standard, NEW) is Float.NONE


# --- [C1]: "Two participants shall not play against each other more than once"


def test_a_forfeited_game_is_no_meeting():
    # C.04.2 Art. 3.5: players whose game was not played may be paired again
    assert opponents_met([WIN, LOSS, FORFEIT_WIN, PAB]) == frozenset({3, 4})
