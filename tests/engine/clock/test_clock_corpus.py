"""Every round of the clock corpus (``../shared/corpus/clock``, 17 tournaments, 123 rounds) and
its states without a pairing. The corpus is small and the engine quick, so the normal test run
takes all of it; ``make conformance`` replays it too. Outside CI a missing corpus skips these
tests; with ``REQUIRE_CORPUS=1`` it fails them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pairing.clock import is_clock_trf, pair_round
from pairing.errors import NoValidPairing
from pairing.replay import paired_rounds, pairing_lines, recorded_round, state_before_round
from pairing.trf import read_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[4] / "shared" / "corpus")
)
CLOCK = CORPUS / "clock"
FILES = sorted(CLOCK.glob("*.trf"))
UNPAIRABLE = sorted((CLOCK / "unpairable").glob("*.trf"))


def _need_corpus() -> None:
    if FILES:
        return
    if os.environ.get("REQUIRE_CORPUS") == "1":
        pytest.fail(f"REQUIRE_CORPUS=1 but there is no clock corpus in {CLOCK}")
    pytest.skip(f"no clock corpus in {CLOCK}")


def test_the_corpus_is_all_there():
    _need_corpus()
    # at least the 17 tournaments (123 rounds) and 2 states of 2026-11; more may come
    assert len(FILES) >= 17 and len(UNPAIRABLE) >= 2
    assert sum(paired_rounds(read_trf(p.read_text())) for p in FILES) >= 123


@pytest.mark.parametrize("path", FILES or [None], ids=lambda p: p.name if p else "none")
def test_every_round_is_reproduced(path):
    _need_corpus()
    text = path.read_text(encoding="utf-8")
    assert is_clock_trf(text)
    t = read_trf(text)
    for k in range(1, paired_rounds(t) + 1):
        got = pair_round(state_before_round(t, k))
        assert pairing_lines(got) == pairing_lines(recorded_round(t, k)), f"round {k}"


@pytest.mark.parametrize("path", UNPAIRABLE or [None], ids=lambda p: p.name if p else "none")
def test_states_without_a_pairing_raise_no_valid_pairing(path):
    _need_corpus()
    with pytest.raises(NoValidPairing):
        pair_round(read_trf(path.read_text(encoding="utf-8")))
