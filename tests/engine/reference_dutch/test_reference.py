"""The reference itself: the sequences of Art. 4, colour rules of Art. 5, and corpus rounds."""

from __future__ import annotations

import os
from dataclasses import replace
from itertools import permutations
from pathlib import Path

import pytest

from pairing.errors import NoValidPairing, UnsupportedFeature
from pairing.model import Color, Player, ResultCode, RoundEntry, RuleSet, Tournament
from pairing.replay import compare_rounds, paired_rounds, recorded_round, state_before_round
from pairing.trf import read_trf
from reference_dutch.random_states import random_state
from reference_dutch.reference import (
    ABSOLUTE,
    MILD,
    NONE,
    STRONG,
    PlayerFacts,
    _preference,
    _Round,
    allocate_colours,
    reference_pair_round,
)
from reference_dutch.reference2017 import reference_pair_round_2017

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[4] / "shared" / "corpus")
)
W, B = Color.WHITE, Color.BLACK


# --- Art. 4.2 / 4.3: the order of transpositions and exchanges ------------------------------


def test_transpositions_of_an_11_player_homogeneous_bracket_follow_the_4_2_2_note():
    s1, s2 = next(_Round.subgroup_sequence(11, 5))
    assert (s1, s2) == ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11])
    order = list(permutations(s2, len(s1)))
    assert len(order) == 720
    assert order[:3] == [(6, 7, 8, 9, 10), (6, 7, 8, 9, 11), (6, 7, 8, 10, 9)]
    assert order[-1] == (11, 10, 9, 8, 7)
    assert order.index((7, 6, 8, 9, 10)) == 120


def test_transpositions_with_two_mdps_number_72():
    residents = list(range(3, 12))
    order = list(permutations(residents, 2))
    assert len(order) == 72
    assert order[:3] == [(3, 4), (3, 5), (3, 6)]
    assert order[-1] == (11, 10)


def _exchanges(n: int, p: int) -> list[tuple[set[int], set[int]]]:
    """The exchanges as (moved from S1, moved from S2), in the order the reference uses."""
    s1 = set(range(1, p + 1))
    result = []
    for new_s1, _ in list(_Round.subgroup_sequence(n, p))[1:]:
        result.append((s1 - set(new_s1), set(new_s1) - s1))
    return result


def test_exchanges_follow_the_examples_of_4_3_2():
    order = _exchanges(11, 5)
    position = {(frozenset(a), frozenset(b)): i for i, (a, b) in enumerate(order)}

    def pos(a, b):
        return position[(frozenset(a), frozenset(b))]

    assert order[0] == ({5}, {6})
    assert pos({4}, {6}) < pos({5}, {8})  # smaller difference of the sums
    assert pos({4, 3}, {8, 6}) < pos({5, 4}, {9, 8})
    assert pos({5}, {7}) < pos({4}, {6})  # same difference: move the largest BSN from S1
    assert pos({5, 2}, {6, 7}) < pos({4, 3}, {6, 7})
    assert pos({5}, {6, 7} - {7}) < pos({1, 2}, {6, 7})  # one BSN before two
    assert pos({3, 4}, {6, 9}) < pos({3, 4}, {7, 8})  # then the smallest BSN from S2
    assert len(order) == sum(
        len(list(permutations(range(5), k))) // _fact(k) * len(list(permutations(range(6), k)))
        // _fact(k)
        for k in range(1, 6)
    )


def _fact(k: int) -> int:
    return 1 if k <= 1 else k * _fact(k - 1)


# --- Art. 1.7 / Art. 5 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "colours, expected",
    [
        ((), (None, NONE)),
        ((W,), (B, STRONG)),
        ((W, B), (W, MILD)),
        ((W, W), (B, ABSOLUTE)),
        ((B, W, W), (B, ABSOLUTE)),  # same colour in the two latest games
        ((W, B, W, W, B), (B, STRONG)),
        ((B, B, W, B), (W, ABSOLUTE)),  # colour difference -2
    ],
)
def test_colour_preference_follows_1_7(colours, expected):
    assert _preference(colours) == expected


def _facts(tpn: int, colours: tuple[Color, ...], score: int = 0) -> PlayerFacts:
    preference, strength = _preference(colours)
    return PlayerFacts(
        tpn=tpn, score=score, colours=colours, preference=preference, strength=strength,
        topscorer=False, may_get_bye=True, unplayed=0, floats=(), opponents=frozenset(),
        number=tpn,
    )


def test_colours_grant_both_preferences_when_they_differ():  # 5.2.1
    a, b = _facts(1, (W,)), _facts(2, (B,))
    assert allocate_colours(a, b, W, {1: 0, 2: 1}) == (2, 1)


def test_colours_grant_the_stronger_preference():  # 5.2.2
    a, b = _facts(1, (W, B)), _facts(2, (B, W, B))  # a mild for White, b strong for White
    assert allocate_colours(a, b, W, {1: 0, 2: 1}) == (2, 1)


def test_colours_alternate_to_the_last_difference():  # 5.2.3
    a, b = _facts(1, (W, B, W, B)), _facts(2, (B, W, W, B))  # both mild for White
    # the latest round with different colours is the third-to-last: a had Black, b White.
    # b is higher ranked, so 5.2.4 would have given b White.
    assert allocate_colours(a, b, W, {1: 1, 2: 0}) == (1, 2)


def test_colours_fall_back_to_the_higher_ranked_preference():  # 5.2.4
    a, b = _facts(3, (B,)), _facts(4, (B,))
    assert allocate_colours(a, b, B, {3: 1, 4: 0}) == (4, 3)


@pytest.mark.parametrize("tpn, initial, white", [(1, W, 1), (1, B, 2), (2, W, 3), (2, B, 2)])
def test_colours_use_the_initial_colour_and_the_tpn_parity(tpn, initial, white):  # 5.2.5
    a, b = _facts(tpn, ()), _facts(tpn + 1, ())
    assert allocate_colours(a, b, initial, {tpn: 0, tpn + 1: 1})[0] == white


# --- Whole rounds ---------------------------------------------------------------------------


def _player(tpn: int, *entries: RoundEntry) -> Player:
    return Player(tpn=tpn, name=f"P{tpn}", rounds=entries)


def test_round_one_pairs_top_half_against_bottom_half_with_alternating_colours():
    t = Tournament(players=tuple(_player(i) for i in range(1, 8)), total_rounds=5,
                   initial_color=W)
    pairing = reference_pair_round(t)
    assert [(b.white, b.black) for b in pairing.boards] == [(1, 4), (5, 2), (3, 6)]
    assert pairing.bye == 7


def test_the_pab_goes_to_the_lowest_player_and_a_pab_counts_as_a_downfloat():
    # Round 2 of 5 players. 3 had the PAB in round 1: that was a downfloat (1.4.3).
    g = ResultCode
    players = (
        _player(1, RoundEntry(4, W, g.WIN)),
        _player(2, RoundEntry(5, B, g.WIN)),
        _player(3, RoundEntry(None, None, g.PAIRING_ALLOCATED_BYE)),
        _player(4, RoundEntry(1, B, g.LOSS)),
        _player(5, RoundEntry(2, W, g.LOSS)),
    )
    pairing = reference_pair_round(Tournament(players=players, total_rounds=3, initial_color=W))
    assert pairing.bye == 5  # 4 and 5 have 0 points; 5 is lower ranked ([C5], then 3.8.1)
    # In the 1-point bracket {1, 2, 3}, 1-2 would make 3 downfloat again ([C14]): 2 floats.
    assert [(b.white, b.black) for b in pairing.boards] == [(3, 1), (2, 4)]


def test_c9_gives_the_pab_to_the_player_with_fewer_unplayed_games():
    # Random "chaos" state 10855, round 5: the last bracket holds MDPs 5 and 7 (1.5 points)
    # and 6, who already had an unplayed win. 7 missed two rounds, 5 none: [C9] gives 5 the
    # PAB although the first candidate of the sequence (5-6) would give it to 7.
    t = random_state(10855, chaos=0.8)
    pairing = reference_pair_round(t, effective_tpn=True)
    assert pairing.bye == 5
    assert {frozenset((b.white, b.black)) for b in pairing.boards} >= {frozenset((6, 7))}


def test_no_legal_pairing_is_reported_not_hidden():
    g = ResultCode
    players = (
        _player(1, RoundEntry(2, W, g.WIN)),
        _player(2, RoundEntry(1, B, g.LOSS)),
    )
    with pytest.raises(NoValidPairing):
        reference_pair_round(Tournament(players=players, total_rounds=3, initial_color=W))


def test_too_many_players_and_2017_rules_are_refused():
    many = Tournament(players=tuple(_player(i) for i in range(1, 14)), initial_color=W)
    with pytest.raises(UnsupportedFeature):
        reference_pair_round(many)
    old = Tournament(players=tuple(_player(i) for i in range(1, 5)), initial_color=W,
                     rules=RuleSet.DUTCH_2017)
    with pytest.raises(UnsupportedFeature):
        reference_pair_round(old)


# --- Corpus ---------------------------------------------------------------------------------


def _small_corpus_rounds() -> list[tuple[str, int]]:
    directory = CORPUS / "dutch-2026"
    if not directory.is_dir():
        return []
    cases = []
    for path in sorted(directory.glob("*.trf")):
        if path.stem.endswith("_baku"):
            continue
        t = read_trf(path.read_text())
        if len(t.players) <= 12:
            cases += [(path.name, k) for k in range(1, paired_rounds(t) + 1)]
    return cases


SMALL_ROUNDS = _small_corpus_rounds()


@pytest.mark.skipif(not SMALL_ROUNDS, reason=f"no corpus under {CORPUS}")
@pytest.mark.parametrize("name, k", SMALL_ROUNDS)
def test_reference_reproduces_small_corpus_rounds(name, k):
    t = read_trf((CORPUS / "dutch-2026" / name).read_text())
    got = reference_pair_round(state_before_round(t, k), k)
    assert compare_rounds(recorded_round(t, k), got) == "identical"


@pytest.mark.skipif(
    not (CORPUS / "dutch-2026" / "gen_p018_r05_i0127.trf").exists(), reason="corpus missing"
)
def test_tpn_parity_for_5_2_5_literal_and_as_bbppairings_counts_it():
    # I-10: players 8 and 10 are on requested byes in round 1, so TPN 9 is the 8th player.
    t = read_trf((CORPUS / "dutch-2026" / "gen_p018_r05_i0127.trf").read_text())
    state, expected = state_before_round(t, 1), recorded_round(t, 1)
    literal = reference_pair_round(state, 1, max_players=18, effective_tpn=False)
    effective = reference_pair_round(state, 1, max_players=18, effective_tpn=True)
    assert compare_rounds(expected, literal) == "colors"
    assert compare_rounds(expected, effective) == "identical"


# --- 2017 rules -----------------------------------------------------------------------------


def _small_corpus_rounds_2017() -> list[tuple[str, int]]:
    directory = CORPUS / "dutch-2017"
    if not directory.is_dir():
        return []
    cases = []
    for path in sorted(directory.glob("*.trf")):
        t = read_trf(path.read_text())
        if len(t.players) <= 12:
            cases += [(path.name, k) for k in range(1, paired_rounds(t) + 1)]
    return cases


SMALL_ROUNDS_2017 = _small_corpus_rounds_2017()


@pytest.mark.skipif(not SMALL_ROUNDS_2017, reason=f"no corpus under {CORPUS}")
@pytest.mark.parametrize("name, k", SMALL_ROUNDS_2017)
def test_2017_reference_reproduces_small_corpus_rounds(name, k):
    t = read_trf((CORPUS / "dutch-2017" / name).read_text())
    got = reference_pair_round_2017(state_before_round(t, k), k)
    assert compare_rounds(recorded_round(t, k), got) == "identical"


@pytest.mark.skipif(
    not (CORPUS / "dutch-2017" / "gen_p011_r09_i0054.trf").exists(), reason="corpus missing"
)
@pytest.mark.parametrize("k", [3, 9])
def test_rounds_where_the_2017_and_2026_rules_disagree(k):
    # Round 3: 2026 [C5] floats two players so that a 0-point player gets the PAB; 2017 has
    # no such criterion. Round 9 differs too. The recorded 2017 pairing is the 2017 one.
    t = read_trf((CORPUS / "dutch-2017" / "gen_p011_r09_i0054.trf").read_text())
    state, expected = state_before_round(t, k), recorded_round(t, k)
    as_2017 = reference_pair_round_2017(state, k)
    as_2026 = reference_pair_round(replace(state, rules=RuleSet.DUTCH_2026), k)
    assert compare_rounds(expected, as_2017) == "identical"
    assert compare_rounds(expected, as_2026) == "pairs"


def test_2017_floats_for_unplayed_rounds_change_the_pab():
    # Random state 157, round 2: 3 and 5 were absent in round 1. A.4.b gives them a downfloat
    # ("for whatever reason"), so C.12 keeps the PAB (a downfloat) away from them; with the
    # 2026 float rules (I-34) the lowest player, 5, gets it.
    t = replace(random_state(157), rules=RuleSet.DUTCH_2017)
    assert reference_pair_round_2017(t, effective_tpn=True).bye == 4
    assert reference_pair_round_2017(t, effective_tpn=True, unplayed_downfloat=False).bye == 5
