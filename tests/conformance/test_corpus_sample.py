"""A fast deterministic sample of corpus rounds that the engine must reproduce exactly.

About 200 rounds from small files of both corpora and 6 rounds of 150- to 300-player files (no
``_baku`` files, which are informative only). These tests FAIL, not skip, while the engine
differs from bbpPairings on a round: they are the bar (marker ``engine_exactness``). Run them
alone with ``pytest tests/conformance -m engine_exactness``.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from pairing.dutch import pair_round
from pairing.errors import NoValidPairing
from pairing.replay import pairing_lines, recorded_round, state_before_round
from pairing.trf import read_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
MAX_PLAYERS = 40
ROUNDS_PER_CORPUS = 100
SEED = 20260201

_NAME = re.compile(r"_p(\d+)_r(\d+)_")


# A few rounds of bigger files (later rounds: several score groups, dense brackets): the
# matcher's warm starts and its solves on a certified sparse subgraph only run on graphs
# of this size.
BIG_PLAYERS = (150, 300)
BIG_ROUNDS = 6


def sample_rounds(
    corpus: str, players: tuple[int, int] = (1, MAX_PLAYERS), count: int = ROUNDS_PER_CORPUS,
    first_round: int = 1,
) -> list[tuple[str, int]]:
    """Return a deterministic sample of (file, round) of non-Baku files of a corpus whose
    player count is in the range given."""
    candidates = []
    low, high = players
    for path in sorted((CORPUS / corpus).glob("*.trf")):
        match = _NAME.search(path.name)
        if path.stem.endswith("_baku") or not match or not low <= int(match.group(1)) <= high:
            continue
        candidates += [(path.name, k) for k in range(first_round, int(match.group(2)) + 1)]
    count = min(count, len(candidates))
    return sorted(random.Random(SEED).sample(candidates, count))


CASES = [
    pytest.param(corpus, name, k, id=f"{corpus}/{name}#{k}")
    for corpus in ("dutch-2026", "dutch-2017")
    for name, k in sample_rounds(corpus)
] + [
    pytest.param("dutch-2026", name, k, id=f"dutch-2026/{name}#{k}")
    for name, k in sample_rounds("dutch-2026", BIG_PLAYERS, BIG_ROUNDS, first_round=3)
]


def test_sample_covers_both_corpora():
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus in {CORPUS}")
    assert len([c for c in CASES if c.values[0] == "dutch-2026"]) == ROUNDS_PER_CORPUS + BIG_ROUNDS
    assert len([c for c in CASES if c.values[0] == "dutch-2017"]) == ROUNDS_PER_CORPUS


@pytest.mark.engine_exactness
@pytest.mark.parametrize("corpus, name, k", CASES)
def test_engine_reproduces_recorded_round(corpus, name, k):
    t = read_trf((CORPUS / corpus / name).read_text(encoding="utf-8"))
    got = pair_round(state_before_round(t, k))
    assert pairing_lines(got) == pairing_lines(recorded_round(t, k))


UNPAIRABLE = sorted(CORPUS.glob("unpairable-*/*.trf"))


def test_the_corpus_has_unpairable_states():
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus in {CORPUS}")
    assert {p.parent.name for p in UNPAIRABLE} == {"unpairable-2026", "unpairable-2017"}


@pytest.mark.parametrize("path", UNPAIRABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_state_with_no_legal_pairing_is_refused(path):
    # The reference engine exits 1 on each; a pairing here would break [C1]-[C3] or hand the
    # PAB to a player [C2] (2017: C.2) excludes.
    t = read_trf(path.read_text(encoding="utf-8"))
    with pytest.raises(NoValidPairing):
        pair_round(t)
