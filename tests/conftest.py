"""Settings shared by every test: where the corpus is, and that CI may not run without it.

The corpus (``../shared/corpus`` beside the repository, or ``PAIRING_CORPUS``) is the bar the
engine is measured against. Outside CI a missing corpus skips the tests that need it, each
saying so; with ``REQUIRE_CORPUS=1`` (set by ``.ci/run``) a missing corpus stops the run
before any test, as an error.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus")
)


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("REQUIRE_CORPUS") == "1" and not (CORPUS / "dutch-2026").is_dir():
        raise pytest.UsageError(
            f"REQUIRE_CORPUS=1 but there is no corpus in {CORPUS}: clone the repository next "
            "to shared/ or set PAIRING_CORPUS"
        )
