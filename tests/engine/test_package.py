"""The engine package stands alone: standard library only, its public API, its examples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pairing

ROOT = Path(__file__).resolve().parents[2]


def test_pairing_imports_without_django_or_any_third_party_package():
    # A fresh interpreter imports every module of the package with site-packages out of
    # reach: any import of Django (or of a developer tool's dependency) fails there.
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "pairing").rglob("*.py")
        if p.name != "__main__.py"
    )
    code = (
        "import sys, importlib\n"
        "for m in sys.argv[1:]:\n"
        "    importlib.import_module(m)\n"
        "assert 'django' not in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code, *modules], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_the_public_api_and_its_example():
    assert {"pair_round", "explain_round", "read_trf", "write_trf", "check_round"} <= set(
        pairing.__all__
    )
