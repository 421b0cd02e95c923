"""The benchmark driver: file choice and one measured state (with a stand-in engine)."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from pairing.model import RoundPairing
from pairing.replay import recorded_round
from pairing.trf import next_round_number, read_trf
from tools import bench

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
DUTCH_2026 = CORPUS / "dutch-2026"

pytestmark = pytest.mark.skipif(not DUTCH_2026.is_dir(), reason="no corpus")


def test_the_four_states_exist_in_the_corpus():
    for players, preferred, _ in bench.STATES:
        path = bench.choose_file(DUTCH_2026, players, preferred)
        assert path is not None and path.name == preferred
        t = read_trf(path.read_text())
        assert abs(len(t.players) - players) <= players // 10


def test_nearest_file_when_the_preferred_one_is_missing():
    path = bench.choose_file(DUTCH_2026, 12, "absent.trf")
    assert path is not None and "_p01" in path.name


def test_measure_reports_cpu_memory_and_verdict(monkeypatch):
    path = DUTCH_2026 / "drv_p010_r05_i0062.trf"
    full = read_trf(path.read_text())
    module = types.ModuleType("pairing.dutch")

    def pair_round(t, *, rules=None, explain=False):
        rec = recorded_round(full, next_round_number(t))
        return RoundPairing(rec.round, rec.boards, rec.bye)

    module.pair_round = pair_round
    monkeypatch.setitem(sys.modules, "pairing.dutch", module)
    m = bench.measure(path, 5, traced=True)
    assert (m.players, m.round, m.verdict) == (10, 5, "identical")
    assert m.cpu_seconds is not None and m.cpu_seconds >= 0
    assert m.peak_traced_mb is not None
    row = bench.format_row(m)
    assert "drv_p010_r05_i0062.trf" in row and row.endswith("identical")


def test_measure_without_a_round_pairs_the_next_one(tmp_path):
    path = DUTCH_2026 / "drv_p010_r05_i0062.trf"
    last = max(len(p.rounds) for p in read_trf(path.read_text()).players)
    m = bench.measure(path, None, traced=False)
    assert (m.round, m.verdict) == (last + 1, "not recorded")
    assert m.cpu_seconds is not None


def test_best_of_takes_the_least_cpu_and_the_largest_memory():
    runs = [
        bench.Measurement("f.trf", 5, 10, 2.5, 80.0, None, "identical"),
        bench.Measurement("f.trf", 5, 10, 2.1, 70.0, None, "identical"),
        bench.Measurement("f.trf", 5, 10, None, 90.0, None, "error: boom"),
    ]
    best = bench.best_of(runs)
    assert (best.cpu_seconds, best.peak_rss_mb, best.verdict) == (2.1, 90.0, "identical")
    assert bench.best_of(runs[2:]).verdict == "error: boom"
