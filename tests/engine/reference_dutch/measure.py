"""Measure how many recorded corpus rounds the reference reproduces.

``PYTHONPATH=tests/engine .venv/bin/python -m reference_dutch.measure [FILE...]``
(default: the files of ``dutch-2026`` with at most 12 players). Prints one line per round that
differs and a summary: identical / colours differ / pairs differ / error.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from pairing.errors import PairingError
from pairing.replay import (
    compare_rounds,
    pairing_lines,
    paired_rounds,
    recorded_round,
    state_before_round,
)
from pairing.trf import read_trf
from reference_dutch.reference import MAX_PLAYERS, reference_pair_round

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"


def small_files(directory: Path) -> list[Path]:
    files = []
    for path in sorted(directory.glob("*.trf")):
        if path.stem.endswith("_baku"):
            continue
        t = read_trf(path.read_text())
        if len(t.players) <= MAX_PLAYERS:
            files.append(path)
    return files


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or small_files(CORPUS / "dutch-2026")
    verdicts: Counter[str] = Counter()
    for path in paths:
        t = read_trf(path.read_text())
        for k in range(1, paired_rounds(t) + 1):
            start = time.process_time()
            expected = recorded_round(t, k)
            try:
                got = reference_pair_round(state_before_round(t, k), k)
            except PairingError as exc:
                verdicts["error"] += 1
                print(f"{path.name} r{k}: error {exc}")
                continue
            verdict = compare_rounds(expected, got)
            verdicts[verdict] += 1
            seconds = time.process_time() - start
            if verdict != "identical":
                print(
                    f"{path.name} r{k}: {verdict} ({seconds:.1f}s)\n"
                    f"  recorded: {' | '.join(pairing_lines(expected))}\n"
                    f"  ref:      {' | '.join(pairing_lines(got))}"
                )
    total = sum(verdicts.values())
    print(f"{total} rounds: " + ", ".join(f"{v} {verdicts[v]}" for v in
                                          ("identical", "colors", "pairs", "error")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
