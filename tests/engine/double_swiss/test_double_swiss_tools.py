"""The tools around the Double-Swiss engine: the conformance harness and the benchmark."""

from __future__ import annotations

from tools import conformance
from tools.double_swiss_synthetic import measure_match

from .test_double_swiss_corpus import FOLDER, _need_corpus


def test_conformance_replays_the_folder_match_by_match(capsys):
    _need_corpus()
    code = conformance.main([str(FOLDER), str(FOLDER / "unpairable")])
    out = capsys.readouterr().out
    assert code == 0
    assert "double-swiss: 128 rounds from 23 files" in out
    assert "identical (pairs, colours and bye): 128" in out
    assert "no legal pairing (exit 1): 3" in out


def test_a_200_player_last_match_pairs_in_under_two_seconds():
    assert measure_match(200, 9, 8) < 2.0
