"""The round checker: each absolute rule, and the legality of every recorded corpus round."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pairing.checker import ViolationKind, check_round
from pairing.model import Board, Color, RoundPairing, RuleSet
from pairing.replay import paired_rounds, recorded_round, state_before_round
from pairing.rules import ColourPreference, Strength, colour_preference, played_colours
from pairing.trf import read_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)


def player_line(tpn, points, *entries):
    name = f"Player {tpn}"
    head = f"001 {tpn:>4} m    {name:<33} 2000 NED {'':>11} {'':10} {points:>4} {tpn:>4}"
    return head + "".join(f"  {e}" for e in entries)


def tournament(*lines, rounds=5, extra=()):
    return read_trf("\n".join([*lines, f"XXR {rounds}", "XXC white1", *extra]) + "\n")


# Six players after two rounds; 5 is absent in round 3 (pre-set Z).
#   1: WB (mild, White)   2: BW (mild, Black)   3: WW (absolute, Black)   4: BB (absolute, White)
#   5: W and a forfeit win   6: B and a forfeit loss (strong, White: the forfeit does not count)
STATE_LINES = (
    player_line(1, "2.0", "   2 w 1", "   3 b 1"),
    player_line(2, "1.0", "   1 b 0", "   4 w 1"),
    player_line(3, "1.0", "   6 w 1", "   1 w 0"),
    player_line(4, "1.0", "   5 b 1", "   2 b 0"),
    player_line(5, "1.0", "   4 w 0", "   6 b +", "0000 - Z"),
    player_line(6, "0.0", "   3 b 0", "   5 w -"),
)
STATE = tournament(*STATE_LINES)

# Five players: 3 had the PAB in round 1, 5 a requested full-point bye in round 2.
STATE_ODD_LINES = (
    player_line(1, "2.0", "   2 w 1", "   3 b 1"),
    player_line(2, "1.0", "   1 b 0", "   4 w 1"),
    player_line(3, "1.0", "0000 - U", "   1 w 0"),
    player_line(4, "1.0", "   5 b 1", "   2 b 0"),
    player_line(5, "1.0", "   4 w 0", "0000 - F"),
)
STATE_ODD = tournament(*STATE_ODD_LINES)


def colour_lines(rounds):
    # 1 and 3 played White twice (absolute Black), 2 and 4 Black twice (absolute White)
    return tournament(
        player_line(1, "2.0", "   2 w 1", "   4 w 1"),
        player_line(2, "0.0", "   1 b 0", "   3 b 0"),
        player_line(3, "2.0", "   4 w 1", "   2 w 1"),
        player_line(4, "0.0", "   3 b 0", "   1 b 0"),
        rounds=rounds,
    )


def articles(t, boards, bye=None, k=3, rules=None):
    pairing = RoundPairing(k, tuple(Board(w, b) for w, b in boards), bye)
    return [v.article for v in check_round(t, pairing, rules=rules)]


def test_legal_pairing_has_no_violation():
    assert articles(STATE, [(4, 1), (2, 3)], bye=6) == []


def test_rematch_of_a_played_game_is_c1():
    assert articles(STATE, [(1, 2), (4, 3)], bye=6) == ["C.04.3 Art. 2.1.1 [C1]"]
    assert articles(STATE, [(1, 2), (4, 3)], bye=6, rules=RuleSet.DUTCH_2017) == [
        "C.04.3 (2017) C.1"
    ]


def test_players_whose_game_was_forfeited_may_meet_again():
    # C.04.2 Art. 3.5: 5 and 6 did not play their round-2 game
    t = tournament(*STATE_LINES[:4], player_line(5, "1.0", "   4 w 0", "   6 b +"), STATE_LINES[5])
    assert articles(t, [(4, 1), (2, 3), (6, 5)]) == []


def test_pab_to_a_player_who_had_one_is_c2():
    assert articles(STATE_ODD, [(4, 1), (2, 5)], bye=3) == ["C.04.3 Art. 2.1.2 [C2]"]


def test_a_second_pab_worth_half_a_point_is_c2_too():
    # Basic Rules Art. 4: any earlier PAB bars the PAB, whatever it was worth
    lines = [line.replace("1.0    3", "0.5    3") if line.startswith("001    3") else line
             for line in STATE_ODD_LINES]
    half = tournament(*lines, extra=["162  W 1.0    D 0.5    P 0.5"])
    (violation,) = check_round(half, RoundPairing(3, (Board(4, 1), Board(2, 5)), 3))
    assert violation.kind is ViolationKind.PAB_NOT_ALLOWED
    assert not violation.kind.structural


def test_pab_after_a_full_point_bye_is_c2_under_2026_rules_only():
    assert articles(STATE_ODD, [(4, 1), (2, 3)], bye=5) == ["C.04.3 Art. 2.1.2 [C2]"]
    assert articles(STATE_ODD, [(4, 1), (2, 3)], bye=5, rules=RuleSet.DUTCH_2017) == []


def test_pab_after_a_forfeit_win_is_c2_under_both_rules():
    t = tournament(
        *STATE_LINES[:4],
        player_line(5, "1.0", "   4 w 0", "   6 b +"),
        player_line(6, "0.0", "   3 b 0", "   5 w -", "0000 - Z"),
    )
    assert articles(t, [(4, 1), (2, 3)], bye=5) == ["C.04.3 Art. 2.1.2 [C2]"]
    assert articles(t, [(4, 1), (2, 3)], bye=5, rules=RuleSet.DUTCH_2017) == ["C.04.3 (2017) C.2"]


def test_non_topscorers_with_the_same_absolute_preference_is_c3():
    t = colour_lines(rounds=5)
    assert articles(t, [(1, 3), (2, 4)]) == ["C.04.3 Art. 2.1.3 [C3]"] * 2


def test_topscorers_in_the_final_round_are_exempt_from_c3():
    t = colour_lines(rounds=3)
    # 1 and 3 have 2 of 2 points: topscorers; 2 and 4 have none
    assert articles(t, [(1, 3), (2, 4)]) == ["C.04.3 Art. 2.1.3 [C3]"]


def test_player_paired_twice_or_missing():
    found = check_round(STATE, RoundPairing(3, (Board(4, 1), Board(1, 6)), None))
    assert [v.article for v in found] == ["C.04.3 Art. 1.9.1"] * 3
    assert [v.kind for v in found] == [ViolationKind.PAIRED_TWICE] + [ViolationKind.NOT_PAIRED] * 2
    assert all(v.kind.structural for v in found)
    assert [v.tpns for v in found] == [(1,), (2,), (3,)]
    assert "1 is paired more than once" in found[0].message


def test_absent_player_paired():
    found = check_round(STATE, RoundPairing(3, (Board(4, 1), Board(2, 3), Board(6, 5)), None))
    assert [v.article for v in found] == ["C.04.2 Art. 3.2-3.3"]
    assert found[0].tpns == (5,)


def test_pab_with_an_even_number_of_players():
    t = colour_lines(rounds=5)
    assert "C.04.1 Art. 3" in articles(t, [(4, 1)], bye=2)


def test_prohibited_pair():
    t = tournament(*STATE_LINES, extra=["260   3   3    1    4"])
    assert articles(t, [(4, 1), (2, 3)], bye=6) == ["prohibited pairing (TRF 260/XXP)"]
    t = tournament(*STATE_LINES, extra=["260   4   5    1    4"])
    assert articles(t, [(4, 1), (2, 3)], bye=6) == []


def test_unknown_player():
    found = check_round(STATE, RoundPairing(3, (Board(4, 1), Board(2, 3), Board(6, 9)), None))
    assert [str(v) for v in found] == ["C.04.2 Art. 2: 9 is not a player"]


def color_preference(player, before_round):
    return colour_preference(played_colours(player.rounds[: before_round - 1]))


def test_colour_preferences_skip_unplayed_games():
    assert color_preference(STATE.player(3), 3) == ColourPreference(Color.BLACK, Strength.ABSOLUTE)
    assert color_preference(STATE.player(4), 3) == ColourPreference(Color.WHITE, Strength.ABSOLUTE)
    assert color_preference(STATE.player(6), 3) == ColourPreference(Color.WHITE, Strength.STRONG)
    assert color_preference(STATE.player(1), 3) == ColourPreference(Color.WHITE, Strength.MILD)
    assert color_preference(STATE.player(1), 1) == ColourPreference(None)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
@pytest.mark.parametrize("corpus", ["dutch-2026", "dutch-2017"])
def test_every_recorded_corpus_round_is_legal(corpus):
    checked = 0
    for path in sorted((CORPUS / corpus).glob("*.trf")):
        t = read_trf(path.read_text(encoding="utf-8"))
        for k in range(1, paired_rounds(t) + 1):
            violations = check_round(state_before_round(t, k), recorded_round(t, k))
            assert violations == [], f"{path.name} round {k}: {violations}"
            checked += 1
    assert checked > 1000
