"""The compatibility table built from the exceptions equals the pairwise rule."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from pairing.dutch.players import build_players
from pairing.dutch.weights import compatibility, compatible
from pairing.replay import state_before_round
from pairing.trf import next_round_number, read_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
FILES = ["dutch-2026/drv_p059_r10_i0012.trf", "dutch-2017/drv_p074_r11_i0064.trf"]


@pytest.mark.parametrize("name", FILES)
def test_table_equals_pairwise_rule(name: str) -> None:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not present")
    t = read_trf(path.read_text())
    checked = 0
    for k in range(2, (t.total_rounds or 0) + 1):
        state = state_before_round(t, k)
        players = build_players(state, next_round_number(state), state.rules)
        players.sort(key=lambda p: (-p.score, p.rank_index))
        for final_round in (False, True):
            # as if this were the final round: players over 50 % are topscorers (Art. 1.8)
            players = [
                replace(p, topscorer=final_round and 2 * p.score > (k - 1) * 10) for p in players
            ]
            forbidden = frozenset({frozenset((players[0].tpn, players[-1].tpn))})
            ok = compatibility(players, forbidden=forbidden)
            for i in range(len(players)):
                assert not ok[i][i]
                for j in range(i):
                    expected = compatible(players[i], players[j], forbidden=forbidden)
                    assert bool(ok[i][j]) is expected and bool(ok[j][i]) is expected, (k, i, j)
                    checked += not expected
    assert checked > 100  # the file has enough incompatible pairs to mean something
