"""Tie-breaks of C.07 computed by hand from the definitions, on small tournaments.

Every expected number below was worked out on paper from the article cited next to it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from pairing.model import PointSystem
from pairing.tiebreaks import (
    Context,
    Edition,
    Kind,
    Rules,
    TieBreakInputError,
    compute,
    explain,
    parse_spec,
    parse_specs,
    standings,
)
from tests.engine.tiebreak_helpers import F, build

# ---------------------------------------------------------------------------------------------
# A: four players, three rounds, every game played.
#   R1: 1-2 1-0, 3-4 1/2     R2: 3-1 1/2, 2-4 1-0     R3: 1-4 1-0, 2-3 0-1
#   Scores: 1: 2.5, 2: 1, 3: 2, 4: 0.5
PLAYED = build(
    {
        1: "2w1 3b= 4w1",
        2: "1b0 4w1 3w0",
        3: "4w= 1w= 2b1",
        4: "3b= 2b0 1b0",
    },
    ratings={1: 2000, 2: 1900, 3: 1800, 4: 1700},
)


def value(t, code, tpn, rules=None):
    return compute(Context(t, rules), parse_spec(code), tpn).value


@pytest.mark.parametrize(
    "code, expected",
    [
        # Art. 8.1: sum of the opponents' scores.
        ("BH", {1: F(3.5), 2: F(5), 3: F(4), 4: F(5.5)}),
        # Art. 14.1: Cut-1 leaves out the lowest; Median-1 the lowest and the highest.
        ("BH/C1", {1: F(3), 2: F(4.5), 3: F(3.5), 4: F(4.5)}),
        ("BH/M1", {1: F(1), 2: F(2), 3: F(1), 4: F(2)}),
        # Art. 9.1: opponent's score times the points scored against them.
        ("SB", {1: F(2.5), 2: F(0.5), 3: F(2.5), 4: F(1)}),
        # Art. 7.5: running scores 1, 1.5, 2.5; Cut-1 leaves out the first.
        ("PS", {1: F(5), 2: F(2), 3: F(3.5), 4: F(1.5)}),
        ("PS/C1", {1: F(4), 2: F(2), 3: F(3), 4: F(1)}),
        ("WIN", {1: 2, 2: 1, 3: 1, 4: 0}),
        ("WON", {1: 2, 2: 1, 3: 1, 4: 0}),
        # Art. 7.3 / 7.4: colours 1: w b w, 2: b w w, 3: w w b, 4: b b b.
        ("BPG", {1: 1, 2: 1, 3: 1, 4: 3}),
        ("BWG", {1: 0, 2: 0, 3: 1, 4: 0}),
        ("REP", {1: 3, 2: 3, 3: 3, 4: 3}),
        ("STD", {1: F(2.5), 2: F(1), 3: F(2), 4: F(0.5)}),
        # Art. 9.2: points against opponents with at least 1.5 (players 1 and 3).
        ("KS", {1: F(0.5), 2: F(0), 3: F(0.5), 4: F(0.5)}),
        # Art. 8.3: every final-round game drawn: scores 1: 2, 2: 1.5, 3: 1.5, 4: 1.
        ("FB", {1: F(4), 2: F(4.5), 3: F(4.5), 4: F(5)}),
        # Art. 10.1: average rating of the opponents, 0.5 rounded up (1833.3, 1866.7).
        ("ARO", {1: 1800, 2: 1833, 3: 1867, 4: 1900}),
        ("ARO/C1", {1: 1850, 2: 1900, 3: 1950, 4: 1950}),
        # Art. 10.2: ARO + dp; p = .83 -> 273, .33 -> -125, .67 -> 125, .17 -> -273.
        ("TPR", {1: 2073, 2: 1708, 3: 1992, 4: 1627}),
        ("RTNG", {1: 2000, 2: 1900, 3: 1800, 4: 1700}),
        ("TPN", {1: 1, 2: 2, 3: 3, 4: 4}),
    ],
)
def test_played_games(code, expected):
    assert {tpn: value(PLAYED, code, tpn) for tpn in expected} == expected


def test_aob_and_apro():
    # Art. 8.2: player 1 met 2, 3, 4 whose Buchholz are 5, 4, 5.5.
    assert value(PLAYED, "AOB", 1) == Fraction(29, 6)
    # Art. 10.4: TPRs 1708, 1992, 1627 -> 5327 / 3 = 1775.67 -> 1776.
    assert value(PLAYED, "APRO", 1) == 1776


def test_ptp_lowest_rating_reaching_the_score():
    # Art. 10.3: 1 point from two games against 2000s. At 1997 the difference is 3, still
    # PD 0.50 per game (table 8.1b, 0-3); at 1996 it is 0.49 per game: too little.
    t = build(
        {1: "2w1 3b0", 2: "1b0 4w1", 3: "4b1 1w1", 4: "3w0 2b0"},
        {1: 1500, 2: 2000, 3: 2000, 4: 1500},
    )
    assert value(t, "PTP", 1) == 1997
    # A full score: the lowest rating expecting 1 per game is 736 above the highest opponent
    # (differences above 735 give PD 1.00); no point: lowest opponent - 800.
    assert value(t, "PTP", 3) == 1500 + 736
    assert value(t, "PTP", 4) == 2000 - 800


def test_ptp_exact_where_floating_point_misses():
    # Seven games, 6 points: at 2723 the expected scores add up to exactly 6.00 (a float sum
    # gives 5.999999999999999 and would answer 2724).
    opponents = [2535, 2081, 2628, 2601, 1910, 2191, 1925]
    rows = {1: " ".join(f"{i + 2}w{'=' if i in (0, 2) else '1'}" for i in range(7))}
    for i, _ in enumerate(opponents):
        others = ["Z"] * 7
        others[i] = f"1b{'=' if i in (0, 2) else '0'}"
        rows[i + 2] = " ".join(others)
    ratings = {1: 2500, **{i + 2: r for i, r in enumerate(opponents)}}
    assert value(build(rows, ratings), "PTP", 1) == 2723


# ---------------------------------------------------------------------------------------------
# B: unplayed rounds (Art. 16). Six players, four rounds.
#   P1 beats 2, draws 3, wins by forfeit against 4 (who did not come), beats 5.
#   P2 requested a half-point bye in round 2. P3 got the pairing-allocated bye in round 3.
#   P4 lost by forfeit in round 3, then withdrew (absent in round 4).
#   P5 entered late (absent in round 1). P6 got the bye in round 1, then withdrew.
UNPLAYED = build(
    {
        1: "2w1 3b= 4w+ 5w1",
        2: "1b0 H 5w1 3b0",
        3: "4w1 1w= U 2w1",
        4: "3b0 5w1 1b- Z",
        5: "Z 4b0 2b0 1b0",
        6: "U Z Z Z",
    }
)


def test_scores_and_adjusted_scores():
    ctx = Context(UNPLAYED)
    assert ctx.score == {1: F(3.5), 2: F(1.5), 3: F(3.5), 4: F(1), 5: F(0), 6: F(1)}
    # Art. 16.3: requested byes / absences followed only by VURs count as draws for others:
    # P4's round 4 (after a forfeit loss, itself kept at 0), P6's rounds 2-4. P2's bye in the
    # middle and P5's absence before arriving keep their points.
    assert ctx.adjusted == {1: F(3.5), 2: F(1.5), 3: F(3.5), 4: F(1.5), 5: F(0), 6: F(2.5)}
    kinds = [r.kind for r in ctx.records[4]]
    assert kinds == [Kind.PLAYED, Kind.PLAYED, Kind.FORFEIT_LOSS, Kind.ZERO_POINT_BYE]
    assert [r.vur for r in ctx.records[4]] == [False, False, True, True]
    assert [r.end_vur for r in ctx.records[5]] == [False] * 4


@pytest.mark.parametrize(
    "code, tpn, expected_2026, expected_2024",
    [
        # P1: 1.5 + 3.5 + forfeit win (dummy: 2026 min(3.5, P4's 1.5) = 1.5, 16.4.1;
        # 2024 own 3.5) + 0.
        ("BH", 1, F(6.5), F(8.5)),
        # P2: 3.5 + half-point bye (dummy min(1.5, 4 x 0.5) = 1.5) + 0 + 3.5.
        ("BH", 2, F(8.5), F(8.5)),
        # P3: 1.5 + 3.5 + PAB (dummy: 2026 min(3.5, 2) = 2, 16.4.2; 2024 3.5) + 1.5.
        ("BH", 3, F(8.5), F(10)),
        # P4: 3.5 + 0 + forfeit loss (min(1, 3.5) = 1) + absence (min(1, 2) = 1).
        ("BH", 4, F(5.5), F(5.5)),
        ("BH", 5, F(6.5), F(6.5)),
        ("BH", 6, F(4), F(4)),
        # Art. 16.5: Cut-1 takes a VUR first: P2 cuts the bye (1.5), not the 0 of P5.
        ("BH/C1", 2, F(7), F(7)),
        ("BH/C1", 1, F(6.5), F(8.5)),  # the 0 of P5 is cut; the forfeit win is no VUR
        # P4: both cuts take VURs (1 and 1), re-applied for the second cut (16.5.2).
        ("BH/C2", 4, F(3.5), F(3.5)),
        # Median-1: the lowest VUR, then the highest value (3.5): 0 + 1 left.
        ("BH/M1", 4, F(1), F(1)),
        # Art. 9.1 with dummies: P1 1x1.5 + .5x3.5 + 1x1.5 + 1x0; P3 1.5 + 1.75 + 1x2 + 1.5.
        ("SB", 1, F(4.75), F(6.75)),
        ("SB", 3, F(6.75), F(8.25)),
        ("SB", 2, F(0.75), F(0.75)),
        # SB Cut-1: P3 cuts a product of a lowest-score opponent (1.5); P2's VUR (0.75) is cut
        # rather than the 0 against P5.
        ("SB/C1", 3, F(5.25), F(6.75)),
        ("SB/C1", 2, F(0), F(0)),
        # Art. 8.3: final round drawn: P1 2 + 3 + min(3, 1.5) + P5's 0.5.
        ("FB", 1, F(7), F(8.5)),
        ("FB", 3, F(8.5), F(9.5)),
    ],
)
def test_unplayed_rounds_both_editions(code, tpn, expected_2026, expected_2024):
    assert value(UNPLAYED, code, tpn) == expected_2026
    assert value(UNPLAYED, code, tpn, Rules(edition=Edition.C07_2024)) == expected_2024


@pytest.mark.parametrize(
    "code, expected",
    [
        # Art. 7.1: a forfeit win and the PAB count as wins; the half-point bye does not.
        ("WIN", {1: 3, 2: 1, 3: 3, 4: 1, 5: 0, 6: 1}),
        ("WON", {1: 2, 2: 1, 3: 2, 4: 1, 5: 0, 6: 0}),
        # Art. 7.6: forfeit losses, requested byes and absences are not elected rounds.
        ("REP", {1: 4, 2: 3, 3: 4, 4: 2, 5: 3, 6: 1}),
        ("STD", {1: F(3.5), 2: F(1.5), 3: F(3.5), 4: F(1), 5: F(0), 6: F(1)}),
        ("PS", {1: F(8.5), 2: F(3.5), 3: F(8.5), 4: F(3), 5: F(0), 6: F(4)}),
        # Forfeits and byes have no colour that counts: BPG only over the board.
        ("BPG", {1: 1, 2: 2, 3: 0, 4: 1, 5: 3, 6: 0}),
    ],
)
def test_unplayed_round_counts(code, expected):
    assert {tpn: value(UNPLAYED, code, tpn) for tpn in expected} == expected


def test_played_modifier_counts_forfeits_against_the_scheduled_opponent():
    # /P: P1's forfeit win counts P4's adjusted 1.5 like a game; P4's forfeit loss counts P1.
    assert value(UNPLAYED, "BH/P", 1) == F(6.5)
    assert value(UNPLAYED, "BH/P", 4) == F(3.5 + 0 + 3.5 + 1)
    # ... and is no longer a VUR to cut first: P4's Cut-1 now takes the absence (1).
    assert value(UNPLAYED, "BH/C1/P", 4) == F(7)
    assert value(UNPLAYED, "SB/P", 1) == F(1.5 + 1.75 + 1.5 + 0)


def test_koya_limits():
    # Threshold 50 % of 4 = 2: P1 (3.5) and P3 (3.5) qualify (P6 has 1, 2.5 adjusted).
    assert value(UNPLAYED, "KS", 1) == F(0.5)  # the draw against P3
    assert value(UNPLAYED, "KS", 2) == F(0)
    assert value(UNPLAYED, "KS/L+1", 1) == F(0.5)  # threshold 2.5
    assert value(UNPLAYED, "KS/L+3", 1) == F(0.5)  # threshold 3.5: P3 (3.5) still qualifies
    assert value(UNPLAYED, "KS/L+4", 1) == F(0)  # threshold 4: nobody
    assert value(UNPLAYED, "KS/L-1", 2) == F(0)  # threshold 1.5: P5 (0) still out


# Koya (issue 20): R1 1-2 =, 3-4 1-0; R2 4-1 0-1, PAB 3, P2 absent; R3 1-3 forfeit won by P1,
# PAB 4, P2 absent. Scores: 1: 2.5, 2: 0.5 (1.5 adjusted: absent to the end), 3: 2, 4: 1.
KOYA = build(
    {
        1: "2w= 4b1 3w+",
        2: "1b= Z Z",
        3: "4w1 U 1b-",
        4: "3b0 1w0 U",
    }
)


def test_koya_qualifies_opponents_on_their_actual_score():
    """C.07 Art. 9.2 'opponents who scored 50 %': P2 scored 0.5 of 3 and does not qualify,
    although the others see 1.5 (Art. 16.3). Threshold 1.5: P1 and P3 qualify."""
    ctx = Context(KOYA)
    assert ctx.adjusted[2] == F(1.5) and ctx.score[2] == F(0.5)
    assert value(KOYA, "KS", 2) == F(0.5)  # the draw against P1
    assert value(KOYA, "KS", 4) == F(0)


def test_koya_counts_forfeits_against_qualified_opponents():
    """The text is silent on forfeits; the FIDE TEC's reference counts them: P1's forfeit win
    against P3 (2 points) is a point against a qualified opponent; the draw with P2 is not."""
    assert value(KOYA, "KS", 1) == F(1)
    assert value(KOYA, "KS/P", 1) == F(1)  # /P adds nothing
    assert value(KOYA, "KS", 3) == F(0)  # the forfeit lost to P1
    assert value(KOYA, "KS/L-1", 1) == F(2)  # threshold 1: P4 (1) qualifies too
    notes = [e.note for e in compute(Context(KOYA), parse_spec("KS"), 1).elements]
    assert notes == ["opponent scored 1/2", "opponent scored 1", "opponent scored 2 (forfeit win)"]


def test_aob_counts_games_over_the_board_only():
    # P1 met 2, 3, 5 over the board; their Buchholz: 8.5, 8.5, 6.5.
    assert value(UNPLAYED, "AOB", 1) == Fraction(47, 6)


def test_aob_without_a_game_over_the_board_has_no_value():
    """An average over no opponent is no value (shown '-', ranked last), not 0 (issue 20)."""
    assert value(UNPLAYED, "AOB", 6) is None
    table = standings(UNPLAYED, parse_specs("AOB"))
    assert [row.values[0] for row in table.rows if row.tpn == 6] == [None]


def test_rating_tie_breaks_skip_unplayed_rounds():
    # P1 played 2, 3 and 5 over the board (ratings 1980, 1970, 1950).
    assert value(UNPLAYED, "ARO", 1) == 1967
    # 2.5 / 3 = .83 -> dp 273.
    assert value(UNPLAYED, "TPR", 1) == 1967 + 273
    # P6 never played: no value.
    assert value(UNPLAYED, "ARO", 6) is None


# ---------------------------------------------------------------------------------------------
# Standings, direct encounter, shared ranks


def test_points_only_gives_shared_ranks():
    table = standings(UNPLAYED, [])
    assert [(r.rank, r.tpn, r.shared) for r in table.rows] == [
        (1, 1, True),
        (1, 3, True),
        (3, 2, False),
        (4, 4, True),
        (4, 6, True),
        (6, 5, False),
    ]


def test_direct_encounter_then_buchholz():
    # P1 and P3 drew their game: DE leaves them tied (0.5 each), Buchholz decides (8.5 > 6.5).
    # P4 and P6 never met: DE cannot separate them; Buchholz 5.5 > 4.
    table = standings(UNPLAYED, parse_specs("DE,BH"))
    assert [(r.rank, r.tpn) for r in table.rows] == [(1, 3), (2, 1), (3, 2), (4, 4), (5, 6), (6, 5)]
    row = {r.tpn: r for r in table.rows}
    assert row[1].values == (F(0.5), F(6.5))
    assert row[2].values == (None, F(8.5))  # alone on 1.5 points: DE not needed


def test_direct_encounter_all_met():
    # 1, 2, 3 on 1.5 points and all met: against each other 1 scored 1.5 (beat 2, drew 3),
    # 2 scored 1 (beat 3), 3 scored 0.5 (Art. 6). 5 and 6 on 1 point: 6 beat 5.
    t = build(
        {
            1: "2w1 3b= Z",
            2: "1b0 5w= 3w1",
            3: "6w1 1w= 2b0",
            4: "5w= 6b1 U",
            5: "4b= 2b= 6w0",
            6: "3b0 4w0 5b1",
        }
    )
    ctx = Context(t)
    assert ctx.score[1] == ctx.score[2] == ctx.score[3] == F(1.5)
    table = standings(t, parse_specs("DE"))
    assert [(r.rank, r.tpn) for r in table.rows] == [(1, 4), (2, 1), (3, 2), (4, 3), (5, 6), (6, 5)]
    assert [r.values[0] for r in table.rows] == [None, F(1.5), F(1), F(0.5), F(1), F(0)]


def test_direct_encounter_when_not_all_met():
    # 1, 2, 3 on 2 points; 1 beat 2 and 3; 2 and 3 never met. 1 ranks first (2 > 0 + 1 win);
    # 2 and 3 stay tied.
    t = build(
        {
            1: "2w1 3b1 4w0",
            2: "1b0 4b1 5w1",
            3: "5w1 1w0 6b1",
            4: "6w0 2w0 1b1",
            5: "3b0 6w1 2b0",
            6: "4b1 5b0 3w0",
        }
    )
    ctx = Context(t)
    assert ctx.score[1] == ctx.score[2] == ctx.score[3] == F(2)
    table = standings(t, parse_specs("DE"))
    assert [(r.rank, r.tpn) for r in table.rows[:3]] == [(1, 1), (2, 2), (2, 3)]
    # 4, 5, 6 on 1 point: 6 beat 4, 5 beat 6, 4 and 5 never met. Nobody is sure to be first
    # (5 and 6 have 1 each, and 5 still had a game to win against 4): all three stay tied.
    assert [(r.rank, r.tpn) for r in table.rows[3:]] == [(4, 4), (4, 5), (4, 6)]


def test_tpn_and_reverse_orders():
    table = standings(UNPLAYED, parse_specs("TPN"))
    assert [r.tpn for r in table.rows[:2]] == [1, 3]
    table = standings(UNPLAYED, parse_specs("TPN/R"))
    assert [r.tpn for r in table.rows[:2]] == [3, 1]


def test_unrated_players_drop_rating_tie_breaks_unless_a_rating_is_set():
    t = build({1: "2w1", 2: "1b0", 3: "4w=", 4: "3b="}, {1: 2000, 2: None, 3: 1800, 4: 1700})
    table = standings(t, parse_specs("ARO,BH"))
    assert [s.code for s in table.specs] == ["BH"]
    assert [s.code for s, _ in table.dropped] == ["ARO"]
    assert "unrated" in table.dropped[0][1]
    table = standings(t, parse_specs("ARO,BH"), Rules(unrated_rating=1400))
    assert [s.code for s in table.specs] == ["ARO", "BH"]
    assert {r.tpn: r.values[0] for r in table.rows}[1] == 1400


def test_after_round_gives_the_standings_of_an_earlier_round():
    table = standings(PLAYED, parse_specs("BH"), Rules(after_round=1))
    assert table.rounds == 1
    assert [(r.tpn, r.points) for r in table.rows] == [
        (1, F(1)),
        (3, F(0.5)),
        (4, F(0.5)),
        (2, F(0)),
    ]


def test_explanation_names_opponents_cuts_and_dummies():
    info = explain(UNPLAYED, parse_specs("BH/C1,SB"), 2)
    assert info.points == F(1.5) and info.adjusted == F(1.5)
    bh = info.breakdowns[0]
    assert bh.value == F(7)
    assert [(e.round, e.opponent, e.dummy, e.cut) for e in bh.elements] == [
        (1, 1, False, False),
        (2, None, True, True),
        (3, 5, False, False),
        (4, 3, False, False),
    ]
    assert "16.4.2" in bh.elements[1].note
    forfeit = explain(UNPLAYED, parse_specs("BH"), 1).breakdowns[0].elements[2]
    assert forfeit.dummy and "16.4.1" in forfeit.note and forfeit.value == F(1.5)


def test_non_standard_point_system():
    # 3 / 1 / 0: WIN counts rounds worth 3 points; STD recounts 1 / 1/2 / 0.
    t = build(
        {1: "2w1 3b=", 2: "1b0 U", 3: "U 1w="},
        points=PointSystem(
            win=30,
            draw=10,
            forfeit_win=30,
            pairing_allocated_bye=30,
            full_point_bye=30,
            half_point_bye=10,
        ),
    )
    ctx = Context(t)
    assert ctx.score == {1: F(4), 2: F(3), 3: F(4)}
    assert value(t, "WIN", 2) == 1 and value(t, "STD", 1) == F(1.5)
    # BH of P1: P2 3 + P3 4.
    assert value(t, "BH", 1) == F(7)
    # Dummy for P2's bye under 16.4.2: min(3, 2 rounds x 1 draw point) = 2.
    assert value(t, "BH", 2) == F(4 + 2)


def test_inconsistent_results_are_refused():
    t = build({1: "2w1", 2: "1b1"})
    with pytest.raises(TieBreakInputError, match="do not match"):
        Context(t)
    t = build({1: "2w1", 2: "3b0", 3: "2w1"})
    with pytest.raises(TieBreakInputError, match="paired with"):
        Context(t)
    with pytest.raises(TieBreakInputError, match="no round 5"):
        Context(PLAYED, Rules(after_round=5))


# ---------------------------------------------------------------------------------------------
# C: forfeits both ways in the final round, a double forfeit, a requested full-point bye.
#   R1: 1-2 1-0, 3-4 1-0, 5 full-point bye.  R2: 1-3 forfeit won by 1, 2-4 double forfeit, 5 again.
FORFEITS = build({1: "2w1 3w+", 2: "1b0 4w-", 3: "4w1 1b-", 4: "3b0 2b-", 5: "F F"})


def test_forfeits_double_forfeit_and_full_point_bye():
    ctx = Context(FORFEITS)
    assert ctx.score == {1: F(2), 2: F(0), 3: F(1), 4: F(0), 5: F(2)}
    assert ctx.adjusted == ctx.score  # no requested bye at the end: nothing counts as a draw
    assert [r.kind for r in ctx.records[2]] == [Kind.PLAYED, Kind.FORFEIT_LOSS]
    assert [r.kind for r in ctx.records[4]] == [Kind.PLAYED, Kind.FORFEIT_LOSS]
    assert not any(r.vur for r in ctx.records[5])  # a full-point bye is no VUR
    # 16.4.1: P1's forfeit win: dummy min(2, P3's 1) = 1; P3's forfeit loss: min(1, P1's 2) = 1;
    # double forfeit: min(0, 0) = 0. 16.4.2: P5's byes: min(2, 2 rounds x 0.5) = 1 each.
    expected = {1: F(1), 2: F(2), 3: F(1), 4: F(1), 5: F(2)}
    assert {tpn: value(FORFEITS, "BH", tpn) for tpn in expected} == expected
    # /P: the forfeits count as games against the scheduled opponent.
    expected = {1: F(1), 2: F(2), 3: F(2), 4: F(1), 5: F(2)}
    assert {tpn: value(FORFEITS, "BH/P", tpn) for tpn in expected} == expected
    assert {tpn: value(FORFEITS, "REP", tpn) for tpn in range(1, 6)} == {
        1: 2,
        2: 1,
        3: 1,
        4: 1,
        5: 0,
    }
    assert {tpn: value(FORFEITS, "WIN", tpn) for tpn in range(1, 6)} == {
        1: 2,
        2: 0,
        3: 1,
        4: 0,
        5: 2,
    }
    assert {tpn: value(FORFEITS, "WON", tpn) for tpn in range(1, 6)} == {
        1: 1,
        2: 0,
        3: 1,
        4: 0,
        5: 0,
    }
    assert {tpn: value(FORFEITS, "STD", tpn) for tpn in range(1, 6)} == {
        1: 2,
        2: 0,
        3: 1,
        4: 0,
        5: 2,
    }


def test_fore_buchholz_draws_final_round_forfeits_too():
    # Art. 8.3 "paired games of the final round": 1-3 and 2-4 become draws.
    # Fore scores: 1: 1.5, 2: 0.5, 3: 1.5, 4: 0.5; P5 was not paired and keeps 2.
    expected = {1: F(2), 2: F(2), 3: F(2), 4: F(2)}
    assert {tpn: value(FORFEITS, "FB", tpn) for tpn in expected} == expected
    # P5's byes: dummies min(2, 1) = 1 each.
    assert value(FORFEITS, "FB", 5) == F(2)


def test_appo_averages_the_opponents_perfect_performances():
    # Player 1 of tournament A scored 2.5 against 1900, 1800, 1700 (table 8.1b): at 2089 the
    # differences 189, 289, 389 give .75 + .84 + .91 = 2.50; at 2088, 188 gives .74: 2.49.
    assert value(PLAYED, "PTP", 1) == 2089
    # APPO of player 4 (who met 3, 2, 1): the mean of their PTPs, 0.5 rounded up.
    ctx = Context(PLAYED)
    ptps = [compute(ctx, parse_spec("PTP"), tpn).value for tpn in (1, 2, 3)]
    assert value(PLAYED, "APPO", 4) == (2 * sum(ptps) + 3) // 6


def test_direct_encounter_reapplied_to_the_still_tied():
    # Four players on 2 points who all met: against each other 3 and 4 scored 2, 1 and 2 scored 1.
    # Art. 6: the mini-table gives {3, 4} then {1, 2}; each pair is examined again on its own:
    # 3 beat 4, 1 beat 2. The DE value shown is the score of that innermost group.
    t = build(
        {
            1: "2w1 3b0 4w0 5w1",
            2: "1b0 4w0 3b1 6w1",
            3: "4w1 1w1 2w0 7b0",
            4: "3b0 2b1 1b1 8b0",
            5: "Z Z Z 1b0",
            6: "Z Z Z 2b0",
            7: "Z Z Z 3w1",
            8: "Z Z Z 4w1",
        }
    )
    table = standings(t, parse_specs("DE"))
    assert [(r.rank, r.tpn, r.values[0]) for r in table.rows[:4]] == [
        (1, 3, F(1)),
        (2, 4, F(0)),
        (3, 1, F(1)),
        (4, 2, F(0)),
    ]
    # 7 and 8 (1 point) never met; 5 and 6 (0) neither: shared ranks.
    assert [(r.rank, r.tpn) for r in table.rows[4:]] == [(5, 7), (5, 8), (7, 5), (7, 6)]


ALL_CODES = (
    "BH/C1,BH,BH/M1,SB,SB/C1,KS,AOB,FB,PS,WIN,WON,BPG,BWG,REP,STD,TPN,ARO,TPR,PTP,APRO,APPO,RTNG,DE"
)


@pytest.mark.parametrize("tournament", [UNPLAYED, KOYA], ids=["unplayed", "koya"])
def test_a_stopped_event_ranks_as_one_declaring_the_rounds_played(tournament):
    """A file declaring more rounds (XXR/142) than were played, an event stopped early, gives
    the values and ranks of the same file declaring the rounds played (issue 20)."""
    from pairing.trf import read_trf, write_trf

    played = max(len(p.rounds) for p in tournament.players)
    text = write_trf(replace(tournament, total_rounds=played))
    stopped = re.sub(rf"^142 {played}$", f"142 {played + 5}", text, flags=re.M)
    assert stopped != text and read_trf(stopped).total_rounds == played + 5
    specs = parse_specs(ALL_CODES)
    rules = Rules(unrated_rating=1000)
    expected = standings(read_trf(text), specs, rules)
    got = standings(read_trf(stopped), specs, rules)
    assert [(r.rank, r.tpn, r.values) for r in got.rows] == [
        (r.rank, r.tpn, r.values) for r in expected.rows
    ]
