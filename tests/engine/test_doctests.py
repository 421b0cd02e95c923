"""The examples in the engine's docstrings are tests: every module of ``pairing`` is searched
for them (``--doctest-modules`` cannot be limited to one package while the test folders share
the name ``conftest``), and each module with examples is one test."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pairing


def _modules_with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    names = [pairing.__name__] + [
        info.name for info in pkgutil.walk_packages(pairing.__path__, f"{pairing.__name__}.")
    ]
    return [
        name
        for name in names
        if any(test.examples for test in finder.find(importlib.import_module(name)))
    ]


MODULES = _modules_with_examples()


def test_the_examples_are_found():
    # the package docstring, the colour preference rule, the transposition order, the clock
    # grid and its TRF, the tie-break package: a finder that finds nothing would pass silently
    assert {"pairing", "pairing.rules", "pairing.dutch.explanation"} <= set(MODULES)
    assert len(MODULES) >= 6


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_the_docstrings_hold(name):
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner()
    report: list[str] = []
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert runner.tries > 0
