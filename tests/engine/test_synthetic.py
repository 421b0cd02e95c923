"""Synthetic tournaments (load tests beyond the corpus): valid, complete and reproducible."""

from __future__ import annotations

import pytest

from pairing.checker import check_round
from pairing.model import ResultCode
from pairing.replay import recorded_round, state_before_round
from pairing.trf import read_trf, write_trf
from tools.synthetic import main, synthetic_tournament


def test_every_round_pairs_everyone_once():
    t = synthetic_tournament(31, 3, seed=7)
    assert len(t.players) == 31
    for k in range(3):
        entries = [p.rounds[k] for p in t.players]
        byes = [e for e in entries if e.result is ResultCode.PAIRING_ALLOCATED_BYE]
        assert len(byes) == 1  # 31 players: one PAB per round
        opponents = {p.tpn: p.rounds[k].opponent for p in t.players}
        for tpn, opp in opponents.items():
            if opp is not None:
                assert opponents[opp] == tpn


def test_same_seed_same_file_other_seed_other_results():
    a = write_trf(synthetic_tournament(20, 2, seed=1))
    assert a == write_trf(synthetic_tournament(20, 2, seed=1))
    assert a != write_trf(synthetic_tournament(20, 2, seed=2))


def test_the_file_reads_back_and_every_round_is_legal(tmp_path):
    out = tmp_path / "syn.trf"
    assert main(["--players", "24", "--rounds", "3", "--seed", "5", str(out)]) == 0
    t = read_trf(out.read_text())
    assert [len(p.rounds) for p in t.players] == [3] * 24
    assert all(p.rating for p in t.players)
    for k in (1, 2, 3):
        assert check_round(state_before_round(t, k), recorded_round(t, k)) == []


def test_rejects_impossible_sizes():
    with pytest.raises(ValueError):
        synthetic_tournament(1, 1)
    with pytest.raises(ValueError):
        synthetic_tournament(10, 10)
