"""A round in which no criterion can tell pairs apart is paired directly (Art. 4.2, first
candidate); the direct pairing must be what the whole matching machinery gives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import pairing.dutch.engine as engine
from pairing.dutch import pair_round
from pairing.replay import state_before_round
from pairing.trf import read_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
FILES = sorted(
    p for d in ("dutch-2026", "dutch-2017") for p in (CORPUS / d).glob("*_p0[0-4]*.trf")
)[::7]


def _general(state):  # type: ignore[no-untyped-def]
    saved = engine._without_history
    engine._without_history = lambda *args: False
    try:
        return pair_round(state)
    finally:
        engine._without_history = saved


@pytest.mark.skipif(not FILES, reason="no corpus")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_direct_first_round_equals_the_matchings(path: Path) -> None:
    state = state_before_round(read_trf(path.read_text()), 1)
    direct, general = pair_round(state), _general(state)
    assert (direct.boards, direct.bye) == (general.boards, general.bye)


def test_later_rounds_do_not_take_the_direct_pairing(monkeypatch) -> None:
    path = CORPUS / "dutch-2026" / "drv_p010_r05_i0062.trf"
    if not path.is_file():
        pytest.skip("no corpus")
    state = state_before_round(read_trf(path.read_text()), 2)
    monkeypatch.setattr(engine, "_pair_without_history", None)  # would fail if called
    assert pair_round(state).boards


def test_odd_first_round_gives_the_pab_to_the_last_player() -> None:
    lines = ["012 Odd", "XXR 5"]
    for tpn in range(1, 8):
        name = f"Player {tpn}".ljust(33)
        lines.append(
            f"001 {tpn:4d} m    {name} {2400 - tpn:4d} NED {tpn:11d} 2000/01/01  0.0 {tpn:4d}"
        )
    state = read_trf("\n".join(lines) + "\n")
    result = pair_round(state)
    assert result.bye == 7
    assert sorted((min(b.white, b.black), max(b.white, b.black)) for b in result.boards) == [
        (1, 4), (2, 5), (3, 6)
    ]
