"""The conformance harness itself, driven by a stand-in engine (a test double)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from pairing.model import Board, RoundPairing
from pairing.replay import recorded_round
from pairing.systems import DutchSystem
from pairing.trf import next_round_number, read_trf
from tools import conformance

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
FILES = ["drv_p010_r05_i0062.trf", "drv_p011_r07_i0080_baku.trf", "gen_p007_r05_i0097.trf"]

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")


@pytest.fixture
def small_dir(tmp_path):
    target = tmp_path / "mini"
    target.mkdir()
    for name in FILES:
        shutil.copy(CORPUS / "dutch-2026" / name, target / name)
    return target


def install_engine(monkeypatch, behaviour):
    """Install a stand-in Dutch engine whose answer for round k is behaviour(t, k)."""
    monkeypatch.setattr(
        DutchSystem, "pair",
        lambda system, t, *, explain=False: behaviour(t, next_round_number(t)),
    )


def recording_engine(small_dir, *, swap=(), fail=(), slow=()):
    """Answer with the recorded round; swap colours, raise, or hang for chosen (file, k)."""
    full = {p.name: read_trf(p.read_text()) for p in small_dir.glob("*.trf")}

    def behaviour(t, k):
        name = next(n for n, f in full.items() if f.name == t.name)
        if (name, k) in fail:
            raise RuntimeError("engine bug")
        if (name, k) in slow:
            time.sleep(5)
        rec = recorded_round(full[name], k)
        boards = rec.boards
        if (name, k) in swap:
            boards = tuple(Board(b.black, b.white) for b in boards)
        return RoundPairing(k, boards, rec.bye)

    return behaviour


def test_all_identical(monkeypatch, small_dir, capsys):
    install_engine(monkeypatch, recording_engine(small_dir))
    assert conformance.main([str(small_dir)]) == 0
    out = capsys.readouterr().out
    assert "mini: 10 rounds from 2 files" in out
    assert "identical (pairs, colours and bye): 10" in out
    assert "_baku files (informative): 7 rounds: identical 7" in out


def test_differences_and_errors_are_counted(monkeypatch, small_dir, capsys, tmp_path):
    install_engine(monkeypatch, recording_engine(
        small_dir,
        swap={("drv_p010_r05_i0062.trf", 2)},
        fail={("gen_p007_r05_i0097.trf", 4), ("drv_p011_r07_i0080_baku.trf", 1)},
    ))
    report = tmp_path / "out.json"
    assert conformance.main([str(small_dir), "--json", str(report)]) == 1
    out = capsys.readouterr().out
    assert "identical (pairs, colours and bye): 8" in out
    assert "identical pairs, colour difference: 1" in out
    assert "errors:                             1" in out
    assert "drv_p010_r05_i0062.trf round 2: colors" in out
    assert "RuntimeError: engine bug" in out
    assert "errors 1" in out  # the Baku file's error is informative
    data = json.loads(report.read_text())
    assert data["mini"]["counts"] == {"identical": 8, "colors": 1, "pairs": 0, "error": 1}
    assert data["mini"]["baku_counts"]["error"] == 1
    assert len(data["mini"]["rounds"]) == 17


def test_an_engine_that_cannot_run_is_counted_not_fatal(monkeypatch, small_dir, capsys):
    def missing(t, k):
        raise ImportError("no module named pairing.dutch")

    install_engine(monkeypatch, missing)
    assert conformance.main([str(small_dir), "--only", "gen_"]) == 1
    assert "errors:                             5" in capsys.readouterr().out


def test_timeout_counts_an_error(monkeypatch, small_dir, capsys):
    install_engine(monkeypatch, recording_engine(small_dir, slow={("gen_p007_r05_i0097.trf", 3)}))
    assert conformance.main([str(small_dir), "--only", "gen_", "--timeout", "0.5"]) == 1
    assert "RoundTimeout" in capsys.readouterr().out


def test_filters_and_deterministic_sample(small_dir):
    tasks = conformance.collect_tasks(small_dir, only="drv_")
    assert sorted(Path(t.path).name for t in tasks) == FILES[:2]
    small = conformance.collect_tasks(small_dir, max_players=9)
    assert [(Path(t.path).name, t.rounds) for t in small] == [(FILES[2], (1, 2, 3, 4, 5))]
    first = conformance.collect_tasks(small_dir, sample=6)
    assert sum(len(t.rounds) for t in first) == 6
    assert conformance.collect_tasks(small_dir, sample=6) == first


def test_parallel_jobs_give_the_same_counts_as_one_job(small_dir, capsys):
    # worker processes import the real engine; the counts must not depend on the job count
    def counts(jobs):
        conformance.main([str(small_dir), "--jobs", str(jobs)])
        out = capsys.readouterr().out
        return [line for line in out.splitlines() if "CPU" not in line]

    one = counts(1)
    assert any(line.strip().startswith("identical (pairs") for line in one)
    assert counts(2) == one
