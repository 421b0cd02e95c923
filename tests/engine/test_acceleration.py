"""Baku acceleration (FIDE C.04.7, formerly C.04.5.1), written from the rule text.

Quoted rule: GA = "the first half of the players, rounded up to the nearest even number"
(161 players -> 82); late entries: "the last GA-player shall be the same as in the previous
round" (GA may become odd); accelerated rounds = first half (rounded up) of the rounds, 1 virtual
point in the first half (rounded up) of them and 0.5 in the others; standard scoring only.
"""

from __future__ import annotations

import pytest

from pairing.acceleration import (
    BakuNeedsRoundCount,
    BakuNeedsStandardScoring,
    GroupARule,
    accelerated_rounds,
    group_a,
    initial_players,
    virtual_point_value,
    virtual_points,
)
from pairing.dutch import pair_round
from pairing.dutch.players import build_players
from pairing.errors import UnsupportedFeature
from pairing.model import (
    Color,
    Player,
    PointSystem,
    ResultCode,
    RoundEntry,
    RuleSet,
    Tournament,
)
from pairing.trf import player_points, read_trf, write_trf

# --- model-level helpers ---------------------------------------------------------------------

ABSENT = RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)
HALF_BYE = RoundEntry(None, None, ResultCode.HALF_POINT_BYE)


def played(opponent: int, color: Color = Color.WHITE) -> RoundEntry:
    return RoundEntry(opponent, color, ResultCode.DRAW)


def field(n: int, rounds: int = 9, *, late=(), round_one=None, **kwargs) -> Tournament:
    """n players; the TPNs in ``late`` were absent from round 1 (how a TRF shows a late entry).

    ``round_one`` maps TPNs to their round-1 entry; the others drew a game in round 1.
    """
    round_one = dict(round_one or {})
    players = []
    for tpn in range(1, n + 1):
        if tpn in late:
            entry = ABSENT
        else:
            entry = round_one.get(tpn, played(tpn + 1 if tpn < n else tpn - 1))
        players.append(Player(tpn=tpn, name=f"P{tpn}", rounds=(entry,)))
    return Tournament(players=tuple(players), total_rounds=rounds, baku=True, **kwargs)


def fresh_field(n: int, rounds: int = 9, **kwargs) -> Tournament:
    """n players before round 1 (no round entries yet)."""
    players = tuple(Player(tpn=tpn, name=f"P{tpn}") for tpn in range(1, n + 1))
    return Tournament(players=players, total_rounds=rounds, baku=True, **kwargs)


# --- rounds ------------------------------------------------------------------------------------


def test_nine_rounds_five_accelerated_one_point_in_rounds_1_to_3_half_in_4_and_5():
    # C.04.7 example: "In a nine-round tournament, the accelerated rounds are five. The players
    # in GA are assigned one virtual point in the first three rounds, and half virtual point in
    # the fourth and fifth"
    assert accelerated_rounds(9) == (5, 3)
    assert [virtual_point_value(9, r) for r in range(1, 10)] == [10, 10, 10, 5, 5, 0, 0, 0, 0]


@pytest.mark.parametrize(
    ("rounds", "expected"),
    [(5, (3, 2)), (6, (3, 2)), (7, (4, 2)), (8, (4, 2)), (10, (5, 3)), (11, (6, 3))],
)
def test_accelerated_rounds_are_the_first_half_rounded_up_and_their_first_half_gives_one_point(
    rounds, expected
):
    assert accelerated_rounds(rounds) == expected


def test_rounds_after_the_accelerated_ones_give_no_virtual_point_to_anyone():
    t = fresh_field(20, rounds=9)
    for r in range(6, 10):
        assert set(virtual_points(t, r).values()) == {0}
    assert virtual_points(t, 5)[1] == 5
    assert virtual_points(t, 1)[1] == 10


def test_gb_players_never_get_virtual_points():
    t = fresh_field(20, rounds=9)
    ga = group_a(t)
    for r in range(1, 10):
        points = virtual_points(t, r)
        assert all(points[tpn] == 0 for tpn in range(1, 21) if tpn not in ga)


# --- initial groups division ------------------------------------------------------------------


def test_161_players_give_82_in_ga():
    # C.04.7 note: "if there are 161 players ... the nearest even number that comprises the
    # first half of the players (i.e. 80.5) is 82"; 82 is also the TPN of the last GA player
    assert group_a(fresh_field(161)) == frozenset(range(1, 83))


@pytest.mark.parametrize(
    ("n", "size"), [(4, 2), (5, 4), (6, 4), (7, 4), (8, 4), (10, 6), (178, 90)]
)
def test_ga_is_the_first_half_rounded_up_to_the_nearest_even_number(n, size):
    # 178 -> 90 is the TRF-2026 250 example (GA = 0001-0090)
    assert group_a(fresh_field(n)) == frozenset(range(1, size + 1))


def test_bbppairings_variant_takes_half_rounded_up_which_can_be_odd():
    assert group_a(fresh_field(161), GroupARule.BBPPAIRINGS) == frozenset(range(1, 82))
    assert group_a(fresh_field(178), GroupARule.BBPPAIRINGS) == frozenset(range(1, 90))
    assert group_a(fresh_field(8), GroupARule.BBPPAIRINGS) == frozenset(range(1, 5))


def test_a_requested_bye_in_round_one_keeps_the_player_on_the_list():
    # 10 players, TPN 2 asked for a half-point bye in round 1: still 10 players, GA = 6
    t = field(10, round_one={2: HALF_BYE})
    assert initial_players(t) == list(range(1, 11))
    assert group_a(t) == frozenset(range(1, 7))


# --- late entries -----------------------------------------------------------------------------


def test_late_entry_above_the_last_ga_player_joins_ga_which_becomes_odd():
    # Round 1 had 10 players (GA = 6). A late entry got TPN 3, so the old 6th player is TPN 7
    # now: "the last GA-player shall be the same as in the previous round" -> GA = 1..7 (odd)
    t = field(11, rounds=5, late={3})
    assert initial_players(t) == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]
    ga = group_a(t)
    assert ga == frozenset(range(1, 8))
    assert len(ga) % 2 == 1
    points = virtual_points(t, 2)
    assert [points[tpn] for tpn in range(1, 12)] == [10] * 7 + [0] * 4


def test_late_entry_below_the_last_ga_player_stays_in_gb_and_ga_does_not_change():
    t = field(11, rounds=5, late={10})
    assert group_a(t) == frozenset(range(1, 7))
    assert virtual_points(t, 2)[10] == 0


def test_without_the_late_entry_rule_the_eleven_players_would_give_another_ga():
    # Not the rule: GA cut from all 11 players would end at TPN 6, dropping the old 6th player
    # (now TPN 7) from GA. bbpPairings reads it that way (every player of the file, ceil(N/2)).
    t = field(11, rounds=5, late={3})
    assert group_a(t, GroupARule.BBPPAIRINGS) == frozenset(range(1, 7))
    assert 7 in group_a(t)


# --- refusals ---------------------------------------------------------------------------------


def test_non_standard_scoring_is_refused_naming_the_article():
    three_one_zero = PointSystem(
        win=30, draw=10, forfeit_win=30, pairing_allocated_bye=30, full_point_bye=30,
        half_point_bye=10,
    )
    t = fresh_field(10, point_system=three_one_zero)
    with pytest.raises(BakuNeedsStandardScoring, match="C.04.7"):
        virtual_points(t, 1)


def test_the_number_of_rounds_is_needed():
    with pytest.raises(BakuNeedsRoundCount, match="C.04.7"):
        virtual_points(Tournament(players=fresh_field(4).players, baku=True), 1)


# --- in the engine ----------------------------------------------------------------------------


def player_line(tpn, points, *entries, rating=None):
    rating = 2400 - 10 * tpn if rating is None else rating
    name = f"Player {tpn}"
    head = f"001 {tpn:>4} m    {name:<33} {rating:>4} NED {'':>11} {'':10} {points:>4} {tpn:>4}"
    return head + "".join(f"  {e}" for e in entries)


def trf(*lines, rounds=5, code="FIDE_DUTCH_2025_BAKU", extra=()):
    header = [f"192 {code}"]
    return read_trf("\n".join([*header, *lines, f"XXR {rounds}", "XXC white1", *extra]) + "\n")


def boards(pairing):
    return sorted((b.white, b.black) for b in pairing.boards)


EIGHT = [player_line(i, "0.0") for i in range(1, 9)]


def test_round_one_pairs_ga_and_gb_apart():
    # 8 players: GA = 1..4 with 1 virtual point, GB = 5..8: two brackets, each folded (Art. 3)
    t = trf(*EIGHT)
    assert t.baku
    assert boards(pair_round(t)) == [(1, 3), (4, 2), (5, 7), (8, 6)]
    without = trf(*EIGHT, code="FIDE_DUTCH_2025")
    assert boards(pair_round(without)) == [(1, 5), (3, 7), (6, 2), (8, 4)]


def test_explicit_250_lines_override_baku():
    # TRF-2026 250 overrides _BAKU: only TPNs 1 and 2 get 1.0 in round 1
    line_250 = f"250 {'':4} {'1.0':>4} {1:>3} {1:>3} {1:>4} {2:>4}"
    t = trf(*EIGHT, extra=[line_250])
    assert boards(pair_round(t)) == [(1, 2), (3, 6), (5, 8), (7, 4)]


def test_pairing_score_of_a_late_entry_in_ga_and_standings_unchanged():
    # Round 1 list: 1 3 4 5 6 (TPN 2 arrives in round 2); GA = 2*ceil(5/4) = 4 -> last GA
    # player is TPN 5, so GA = 1..5 in round 2. 4 rounds: A = 2, round 2 gives 0.5.
    t = trf(
        player_line(1, "1.0", "   4 w 1"),
        player_line(2, "0.0", "0000 - Z"),
        player_line(3, "0.5", "   5 w ="),
        player_line(4, "0.0", "   1 b 0"),
        player_line(5, "0.5", "   3 b ="),
        player_line(6, "1.0", "0000 - U"),
        rounds=4,
    )
    scores = {p.tpn: p.score for p in build_players(t, 2, RuleSet.DUTCH_2026)}
    assert scores == {1: 15, 2: 5, 3: 10, 4: 5, 5: 10, 6: 10}
    # virtual points affect pairing only: the points and the written file stay as they were
    assert [player_points(t, p) for p in t.players] == [10, 0, 5, 0, 5, 10]
    text = write_trf(t)
    assert "\n250 " not in text and "\nXXA" not in text
    assert read_trf(text).players == t.players


def test_round_one_of_the_late_entry_example_pairs_ga_1_3_4_5():
    t = trf(
        *(player_line(i, "0.0") for i in (1, 3, 4, 5, 6)),
        player_line(2, "0.0", "0000 - Z"),
        rounds=4,
    )
    # GA bracket {1 3 4 5}: S1 = 1 3, S2 = 4 5; TPN 6 alone in GB gets the PAB. TPN 3 was the
    # second player of round 1 (provisional TPN 2, C.04.2 Art. 2.5), so it gets Black (5.2.5)
    p = pair_round(t)
    assert boards(p) == [(1, 4), (5, 3)]
    assert p.bye == 6


def test_engine_refuses_baku_with_non_standard_scoring():
    t = trf(*EIGHT, extra=["XXS W=3 D=1"])
    with pytest.raises(UnsupportedFeature, match="C.04.7"):
        pair_round(t)
