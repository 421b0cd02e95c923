"""Every match of the Double-Swiss corpus (``../shared/corpus/double-swiss``: 23 tournaments,
128 matches) and its 3 states without a legal pairing. Small and quick, so the normal test run
takes all of it. Outside CI a missing corpus skips these tests; with ``REQUIRE_CORPUS=1`` it
fails them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pairing.double_swiss import (
    is_double_swiss,
    pair_match,
    read_double_swiss,
    recorded_match,
    state_before_match,
)
from pairing.errors import NoValidPairing
from pairing.replay import pairing_lines

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[4] / "shared" / "corpus")
)
FOLDER = CORPUS / "double-swiss"
FILES = sorted(FOLDER.glob("*.trf"))
UNPAIRABLE = sorted((FOLDER / "unpairable").glob("*.trf"))


def _need_corpus() -> None:
    if FILES:
        return
    if os.environ.get("REQUIRE_CORPUS") == "1":
        pytest.fail(f"REQUIRE_CORPUS=1 but there is no double-swiss corpus in {FOLDER}")
    pytest.skip(f"no double-swiss corpus in {FOLDER}")


def test_the_corpus_is_all_there():
    _need_corpus()
    assert len(FILES) == 23 and len(UNPAIRABLE) == 3
    assert sum(read_double_swiss(p.read_text()).paired_matches() for p in FILES) == 128


@pytest.mark.parametrize("path", FILES or [None], ids=lambda p: p.name if p else "none")
def test_every_match_is_reproduced(path):
    _need_corpus()
    text = path.read_text(encoding="utf-8")
    assert is_double_swiss(text)
    dt = read_double_swiss(text)
    for k in range(1, dt.paired_matches() + 1):
        expected = recorded_match(dt, k)
        got = pair_match(state_before_match(dt, k))
        assert got.bye == expected.bye, f"match {k}"
        assert pairing_lines(got) == pairing_lines(expected), f"match {k}"


@pytest.mark.parametrize("path", UNPAIRABLE or [None], ids=lambda p: p.name if p else "none")
def test_unpairable_states_have_no_legal_pairing(path):
    _need_corpus()
    dt = read_double_swiss(path.read_text(encoding="utf-8"))
    with pytest.raises(NoValidPairing):
        pair_match(dt)


@pytest.mark.parametrize("path", FILES + UNPAIRABLE or [None],
                         ids=lambda p: p.name if p else "none")
def test_files_are_written_back_unchanged(path):
    from pairing.double_swiss import write_double_swiss

    _need_corpus()
    text = path.read_text(encoding="utf-8")
    assert write_double_swiss(read_double_swiss(text)) == text
