"""FIDE rating changes, first ratings, performances (B.02) and title norms (B.01 Art. 1.4),
article by article, against figures worked out from the regulations' own tables."""

from __future__ import annotations

import doctest
from fractions import Fraction as F

import pytest

import pairing.rating.change
import pairing.rating.norms
from pairing.rating import (
    Kind,
    NormGame,
    Participant,
    Record,
    Title,
    check_norm,
    development_coefficient,
    first_rating,
    large_swiss_exemption,
    performance,
    rated_difference,
    rating_change,
)
from pairing.rating.tables import DP_BY_PERCENT, expected_score

W, D, L = F(1), F(1, 2), F(0)


def test_the_doctests_hold():
    for module in (pairing.rating.change, pairing.rating.norms):
        assert doctest.testmod(module).failed == 0, module


# -- B.02 8.1: the tables (one home, shared with the tie-breaks) ------------------------------


@pytest.mark.parametrize(("difference", "pd"), [
    (0, F(50, 100)), (3, F(50, 100)), (4, F(51, 100)), (-4, F(49, 100)), (99, F(64, 100)),
    (106, F(64, 100)), (400, F(92, 100)), (-400, F(8, 100)), (735, F(99, 100)),
    (736, F(1)), (-736, F(0)),
])
def test_table_8_1_2_gives_the_scoring_probability(difference, pd):
    assert expected_score(difference) == pd


def test_table_8_1_1_is_the_mirror_of_itself():
    assert DP_BY_PERCENT[50] == 0 and DP_BY_PERCENT[100] == 800 and DP_BY_PERCENT[0] == -800
    assert DP_BY_PERCENT[57] == 50 and DP_BY_PERCENT[35] == -110
    assert all(DP_BY_PERCENT[p] == -DP_BY_PERCENT[100 - p] for p in range(101))


# -- B.02 8.3: the rating change of a rated player -------------------------------------------


def test_8_3_2_the_change_is_k_times_the_sum_of_score_minus_pd():
    # 2000 beats 2100 (D -100: PD .36) and draws 1900 (D +100: PD .64), K 20
    change = rating_change(2000, [(2100, W), (1900, D)], k=20)
    assert [g.difference for g in change.games] == [-100, 100]
    assert [g.expected for g in change.games] == [F(36, 100), F(64, 100)]
    assert [g.change for g in change.games] == [F(64, 5), F(-14, 5)]  # +12.8, -2.8
    assert change.exact == 10 and change.total == 10


def test_8_3_1_the_400_point_rule_below_2650_and_the_whole_difference_from_2650():
    assert rated_difference(2649, 2100) == 400 and rated_difference(2100, 2649) == -400
    assert rated_difference(2650, 2100) == 550  # from 1 October 2025
    # a 2600 beating 2100 gains 0.8 with K 10 (D counted 400, PD .92) ...
    assert rating_change(2600, [(2100, W)], k=10).exact == F(4, 5)
    # ... a 2700 only 0.2 (D 600, PD .98), and loses 9.8 if beaten
    assert rating_change(2700, [(2100, W)], k=10).exact == F(1, 5)
    assert rating_change(2700, [(2100, L)], k=10).exact == F(-49, 5)
    # the lower-rated player's difference is capped whatever the opponent's rating
    assert rating_change(2100, [(2700, L)], k=20).games[0].difference == -400


def test_rapid_and_blitz_keep_the_cap_and_leave_600_point_games_above_2600_unrated():
    assert rated_difference(2700, 2100, Kind.RAPID) == 400
    change = rating_change(2700, [(2100, W), (2150, W)], k=20, kind=Kind.BLITZ)
    assert not change.games[0].rated and change.games[1].rated  # 7.3.1, from 1 Dec 2024
    assert change.rated_games == 1


def test_games_against_unrated_opponents_are_not_rated_for_a_rated_player():
    change = rating_change(1800, [(None, W), (1800, D)], k=20)
    assert not change.games[0].rated and change.exact == 0


@pytest.mark.parametrize(("exact", "total"), [
    (F(5, 2), 3), (F(-5, 2), -3), (F(12, 5), 2), (F(-12, 5), -2), (F(-1, 2), -1), (F(0), 0),
])
def test_8_3_4_rounds_half_away_from_zero(exact, total):
    from pairing.rating.change import RatingChange

    assert RatingChange(2000, 20, (), exact).total == total


@pytest.mark.parametrize(("record", "year", "games", "k"), [
    (Record(1600, rated_games=12), 2026, 9, 40),  # new to the list: under 30 games
    (Record(2250, birth_year=2008), 2026, 9, 40),  # 18 this year, under 2300
    (Record(2300, birth_year=2008), 2026, 9, 20),  # 18, but 2300
    (Record(2250, birth_year=2007), 2026, 9, 20),  # 19 this year
    (Record(2399), 2026, 9, 20),
    (Record(2400), 2026, 9, 10),
    (Record(2380, reached_2400=True), 2026, 9, 10),  # K 10 stays once 2400 was reached
    (Record(2000, k_from_list=40), 2026, 9, 40),  # the list's K
    (Record(2000, k_from_list=40), 2026, 18, 38),  # K x n <= 700
    (Record(2000), 2026, 36, 19),
])
def test_8_3_3_the_development_coefficient(record, year, games, k):
    assert development_coefficient(record, year, games).k == k


# -- B.02 8.2 and 7.1.4: an unrated player's first rating -----------------------------------


def test_8_2_two_hypothetical_draws_against_1800_and_ru_ra_plus_dp():
    # 5 rated opponents summing 9507, 3 points: Ra = (9507 + 3600) / 7, p = 4/7 = .57, dp 50
    games = [(1900, W), (1950, D), (2000, L), (1850, W), (1807, D)]
    first = first_rating(games)
    assert (first.average, first.percent, first.dp, first.rating) == (F(13107, 7), 57, 50, 1922)
    assert first.missing == ()


def test_8_2_the_first_rating_is_at_most_2200_and_needs_five_rated_games():
    strong = first_rating([(2400, W)] * 4)
    assert strong.rating == 2200  # Ra 2200, p 5/6 = .83: 2473, capped
    assert [str(m) for m in strong.missing] == [
        "4 of the 5 games against rated opponents a first rating needs (7.1.4)"]


def test_8_2_1_a_zero_score_is_disregarded_and_unrated_opponents_do_not_count():
    assert first_rating([(1900, L)] * 6).rating is None
    first = first_rating([(None, W), (1800, D)])
    assert first.games == 1 and first.score == D


def test_a_first_rating_below_1400_is_not_published():
    first = first_rating([(1400, L)] * 8 + [(1400, D)])
    assert first.rating < 1400
    assert [str(m) for m in first.missing] == ["below 1400, the lowest rating published (7.1.4)"]


def test_the_performance_rating_over_rated_opponents():
    p = performance([(2400, W), (2200, D), (2300, L), (None, W)])
    assert (p.games, p.score, p.average, p.percent) == (3, F(3, 2), 2300, 50)
    assert p.rating == 2300 and performance([(None, W)]) is None


# -- B.01 1.4: title norms -------------------------------------------------------------------

FEDS = ("GER", "FRA", "ESP", "ITA", "NED", "AUT", "POL", "CZE", "HUN")


def games(scores, ratings=2450, titles="GM", federations=FEDS) -> list[NormGame]:
    n = len(scores)
    ratings = [ratings] * n if isinstance(ratings, int) else ratings
    titles = [titles] * n if isinstance(titles, str) else titles
    return [NormGame(r, t, f, F(s)) for r, t, f, s in zip(ratings, titles, federations, scores)]


def unmet(result) -> list[str]:
    return [c.article for c in result.conditions if not c.met]


def test_1_4_8_a_gm_norm_with_6_of_9_needs_an_average_of_2475():
    # 6/9 = 67 %: dp 125; 2475 + 125 = 2600
    assert check_norm(Title.GM, "SUI", games([1] * 6 + [0] * 3, 2475), rounds=9).reached
    short = check_norm(Title.GM, "SUI", games([1] * 6 + [0] * 3, 2474), rounds=9)
    assert unmet(short) == ["1.4.8"] and short.performance == 2599
    assert [str(m) for m in short.missing] == ["0.5 more points in these games"]


def test_1_4_8_b_the_minimum_score_is_35_percent():
    result = check_norm(Title.IM, "SUI", games([1, 1, 1] + [0] * 6, 2700), rounds=9)
    assert result.performance >= 2450 and unmet(result) == ["1.4.8 b"]  # 33 %
    assert [str(m) for m in result.missing] == ["0.5 more points in these games"]


def test_1_4_1_nine_games_or_eight_and_a_win_without_playing():
    eight = games([1] * 6 + [0] * 2, 2500)
    assert unmet(check_norm(Title.GM, "SUI", eight, rounds=9)) == ["1.4.1"]
    assert check_norm(Title.GM, "SUI", eight, rounds=9, unplayed_wins=1).reached  # 1.4.1 c
    assert unmet(check_norm(Title.GM, "SUI", eight, rounds=11, unplayed_wins=1)) == ["1.4.1"]


def test_1_4_3_two_foreign_federations_fid_not_counted():
    one_foreign = games([1] * 7 + [0] * 2, 2500, federations=["GER"] * 5 + ["FID"] * 2 +
                        ["SUI"] * 2)
    result = check_norm(Title.GM, "SUI", one_foreign, rounds=9)
    assert unmet(result) == ["1.4.3"]
    assert [str(m) for m in result.missing] == ["opponents from 1 more federation other than SUI"]


def test_1_4_4_at_most_three_fifths_from_home_and_two_thirds_from_one_federation():
    home = games([1] * 7 + [0] * 2, 2500, federations=["SUI"] * 6 + ["GER", "FRA", "ITA"])
    assert unmet(check_norm(Title.GM, "SUI", home, rounds=9)) == ["1.4.4"]  # 6 > 5 (3/5 of 9)
    one = games([1] * 7 + [0] * 2, 2500, federations=["GER"] * 7 + ["FRA", "ITA"])
    result = check_norm(Title.GM, "SUI", one, rounds=9)
    assert unmet(result) == ["1.4.4"]  # 7 > 6 (2/3 of 9)
    assert [str(m) for m in result.missing] == ["1 opponent fewer from GER"]


def test_1_4_3_exemptions_waive_the_federation_rules():
    home = games([1] * 7 + [0] * 2, 2500, federations=["SUI"] * 9)
    assert check_norm(Title.GM, "SUI", home, rounds=9, exempt="national championship").reached


def test_1_4_5_half_titleholders_and_a_third_with_the_title():
    titles = ["GM", "GM", "IM", "FM", "CM", "CM", "WCM", "", ""]
    result = check_norm(Title.GM, "SUI", games([1] * 7 + [0] * 2, 2500, titles), rounds=9)
    assert unmet(result) == ["1.4.5 a", "1.4.5 b"]  # 4 of 5 titleholders, 2 of 3 GMs
    assert [str(m) for m in result.missing] == [
        "1 more titled opponent (GM, IM, FM, WGM, WIM, WFM)", "1 more opponent with the title GM"]
    # an IM norm counts IMs and GMs; a WIM norm WIMs, WGMs, IMs and GMs
    im = check_norm(Title.IM, "SUI", games([1] * 6 + [0] * 3, 2350, titles), rounds=9)
    assert "1.4.5 c" not in unmet(im)


def test_1_4_6_only_the_lowest_opponent_is_raised_to_the_floor_and_unrated_count_1400():
    ratings = [2600, 2600, 2600, 2600, 2600, 2600, 2600, 2000, None]
    result = check_norm(Title.GM, "SUI", games([1] * 6 + [0] * 3, ratings), rounds=9)
    # 1400 raised to 2200; 2000 stays: (7 x 2600 + 2000 + 2200) / 9 = 2488.9
    assert result.average == 2489
    assert "one opponent raised to 2200" in str(
        next(c.what for c in result.conditions if c.article == "1.4.8 a"))


def test_1_4_8_a_the_minimum_average_of_the_opponents():
    result = check_norm(Title.WIM, "SUI", games([1] * 9, 1900, "WIM"), rounds=9)
    assert result.performance >= 2250 and unmet(result) == ["1.4.8 a"]
    assert [str(m) for m in result.missing] == [
        "an average rating of the opponents 130 points higher"]


def test_1_4_3_d_a_large_international_swiss_is_exempt():
    field = [Participant(True, f, "GM" if i < 10 else "", 0)
             for i, f in enumerate(["GER", "FRA", "ESP"] * 7)]
    assert large_swiss_exemption("SUI", field) is not None
    assert large_swiss_exemption("SUI", field[:19]) is None  # 19 foreign players
    assert large_swiss_exemption("GER", field) is None  # 14 not from the host
    missed = [Participant(p.rated, p.federation, p.title, 2) for p in field[:2]] + field[2:]
    assert large_swiss_exemption("SUI", missed) is None  # two missed more than one round
