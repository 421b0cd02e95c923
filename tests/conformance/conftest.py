"""Shared settings of the conformance tests."""

from __future__ import annotations


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "engine_exactness: the engine must reproduce bbpPairings' recorded round exactly; "
        "expected to fail until the Dutch engine is exact",
    )
