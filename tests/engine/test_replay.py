"""Replay of recorded rounds: the state before round k and what column k recorded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pairing.model import Board, ResultCode, RoundEntry
from pairing.replay import (
    paired_rounds,
    played_rounds,
    recorded_round,
    replayable_rounds,
    state_before_round,
)
from pairing.trf import next_round_number, read_trf, write_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)


def player_line(tpn, points, *entries):
    name = f"Player {tpn}"
    head = f"001 {tpn:>4} m    {name:<33} 2000 NED {'':>11} {'':10} {points:>4} {tpn:>4}"
    return head + "".join(f"  {e}" for e in entries)


TEXT = "\n".join(
    [
        player_line(1, "2.0", "   2 w 1", "   3 b =", "0000 - H"),
        player_line(2, "1.0", "   1 b 0", "0000 - U", "   4 w 0"),
        player_line(3, "1.5", "   4 w 1", "   1 w =", "0000 - Z"),
        player_line(4, "1.0", "   3 b 0", "0000 - -", "   2 b 1"),
        player_line(5, "0.0", "0000 - Z", "0000 - Z", "0000 - Z"),
        "XXR 4",
        "XXC white1",
    ]
) + "\n"


def test_state_before_round_keeps_earlier_rounds_and_preset_entries():
    t = read_trf(TEXT)
    s = state_before_round(t, 3)
    assert s.player(1).rounds == t.player(1).rounds  # round 3 H is pre-set, kept
    assert s.player(2).rounds == t.player(2).rounds[:2]  # round 3 game dropped
    assert s.player(3).rounds == t.player(3).rounds  # Z kept
    assert s.player(4).rounds == t.player(4).rounds[:2]
    assert [p.declared_points for p in s.players] == [20, 10, 15, 0, 0]
    assert s.total_rounds == 4 and s.initial_color == t.initial_color


def test_state_before_round_one_and_drops_the_pab():
    t = read_trf(TEXT)
    s1 = state_before_round(t, 1)
    absent = RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)
    assert [p.rounds for p in s1.players] == [(), (), (), (), (absent,)]
    s2 = state_before_round(t, 2)
    assert len(s2.player(2).rounds) == 1  # the U of round 2 is produced by pairing
    assert s2.player(4).rounds[1] == RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)


def test_state_is_a_valid_file():
    t = read_trf(TEXT)
    for k in range(1, 5):
        s = state_before_round(t, k)
        assert read_trf(write_trf(s)) == s


def test_recorded_round():
    t = read_trf(TEXT)
    r1 = recorded_round(t, 1)
    assert r1.round == 1
    assert r1.boards == (Board(1, 2), Board(3, 4))
    assert r1.bye is None
    r2 = recorded_round(t, 2)
    assert r2.boards == (Board(3, 1),)
    assert r2.bye == 2
    assert r2.engine_lines() == ["2", "3 1", "2 0"]
    r3 = recorded_round(t, 3)
    assert r3.boards == (Board(2, 4),)
    # XXR 4, but the event stopped after round 3: round 4 has no record (nor has round 5)
    for k in (4, 5):
        with pytest.raises(ValueError, match=f"round {k} was never paired"):
            recorded_round(t, k)


def test_round_zero_is_rejected():
    t = read_trf(TEXT)
    with pytest.raises(ValueError):
        state_before_round(t, 0)
    with pytest.raises(ValueError):
        recorded_round(t, 0)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
@pytest.mark.parametrize(
    "name",
    [
        "dutch-2026/drv_p010_r05_i0062.trf",
        "dutch-2017/drv_p034_r05_i0013.trf",
        "dutch-2026/gen_p007_r05_i0097.trf",
    ],
)
def test_corpus_replay_is_consistent(name):
    t = read_trf((CORPUS / name).read_text())
    assert played_rounds(t) == t.total_rounds
    for k in range(1, t.total_rounds + 1):
        state = state_before_round(t, k)
        rec = recorded_round(t, k)
        paired = {b.white for b in rec.boards} | {b.black for b in rec.boards}
        paired |= {rec.bye} if rec.bye else set()
        for p in state.players:
            assert len(p.rounds) in (k - 1, k)
            if len(p.rounds) == k:
                assert p.rounds[-1].is_preset and p.tpn not in paired
        # every player is either paired in round k or pre-set absent/bye
        preset = {p.tpn for p in state.players if len(p.rounds) == k}
        assert paired | preset == {p.tpn for p in t.players}
        assert len(paired) == 2 * len(rec.boards) + (1 if rec.bye else 0)


def test_paired_rounds_ignores_a_column_of_preset_byes():
    text = TEXT.replace("0000 - Z  0000 - Z  0000 - Z", "0000 - Z  0000 - Z  0000 - Z  0000 - H")
    t = read_trf(text)
    assert played_rounds(t) == 4
    assert paired_rounds(t) == 3



# A round in which nobody was paired: everyone absent or on a requested bye (fuzz case
# dutch_2017_round_after_a_round_nobody_played, where bbpPairings paired round 2).
NOBODY_PAIRED = "\n".join(
    [
        player_line(1, "0.0", "0000 - Z"),
        player_line(2, "1.0", "0000 - H", "0000 - H"),
        player_line(3, "0.0", "0000 - Z"),
        player_line(4, "1.0", "0000 - F"),
        "XXR 4",
        "XXC white1",
    ]
) + "\n"


def test_a_round_that_paired_nobody_is_over_once_a_later_round_has_an_entry():
    t = read_trf(NOBODY_PAIRED)
    assert paired_rounds(t) == 0
    assert next_round_number(t) == 2  # bbpPairings: column 2 holds a pre-set bye, so 1 is over


def test_a_column_with_an_entry_for_everyone_is_a_decided_round():
    everyone = "\n".join(
        [player_line(tpn, "1.0", "0000 - H", "0000 - H") for tpn in (1, 2, 3, 4)]
        + ["XXR 4", "XXC white1"]
    ) + "\n"
    assert next_round_number(read_trf(everyone)) == 3
    # the usual state before round 3: two rounds paired, a few pre-set byes in round 3
    assert next_round_number(state_before_round(read_trf(TEXT), 3)) == 3


def test_a_round_that_paired_nobody_is_not_replayed():
    t = read_trf("\n".join(
        [
            player_line(1, "2.0", "0000 - Z", "   2 w 1", "0000 - U"),
            player_line(2, "0.5", "0000 - H", "   1 b 0", "   3 b 0"),
            player_line(3, "2.0", "0000 - Z", "0000 - U", "   2 w 1"),
            "XXR 4",
            "XXC white1",
        ]
    ) + "\n")
    assert paired_rounds(t) == 3
    assert replayable_rounds(t) == [2, 3]
    assert next_round_number(state_before_round(t, 2)) == 2
    assert next_round_number(state_before_round(t, 1)) == 2  # round 1 is a decided round
