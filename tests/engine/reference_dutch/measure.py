"""Measure how many recorded corpus rounds the reference reproduces.

``PYTHONPATH=tests/engine .venv/bin/python -m reference_dutch.measure [FILE...]``
(default: the files of ``dutch-2026`` with at most 12 players; environment:
``REFERENCE_MAX_PLAYERS=22`` for larger files, ``REFERENCE_CORPUS=dutch-2017``,
``REFERENCE_EFFECTIVE_TPN=1`` for the bbpPairings reading of Art. 5.2.5).
Prints one line per round that differs and a summary: identical / colours differ / pairs
differ / error.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

from pairing.errors import PairingError
from pairing.model import RuleSet
from pairing.replay import (
    compare_rounds,
    paired_rounds,
    pairing_lines,
    recorded_round,
    state_before_round,
)
from pairing.trf import read_trf
from reference_dutch.reference import MAX_PLAYERS, reference_pair_round
from reference_dutch.reference2017 import reference_pair_round_2017

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"


LIMIT = int(os.environ.get("REFERENCE_MAX_PLAYERS", MAX_PLAYERS))
EFFECTIVE_TPN = os.environ.get("REFERENCE_EFFECTIVE_TPN", "") == "1"


def small_files(directory: Path) -> list[Path]:
    files = []
    for path in sorted(directory.glob("*.trf")):
        if path.stem.endswith("_baku"):
            continue
        t = read_trf(path.read_text())
        if len(t.players) <= LIMIT:
            files.append(path)
    return files


def main(argv: list[str]) -> int:
    directory = CORPUS / os.environ.get("REFERENCE_CORPUS", "dutch-2026")
    paths = [Path(a) for a in argv] or small_files(directory)
    verdicts: Counter[str] = Counter()
    for path in paths:
        t = read_trf(path.read_text())
        file_start = time.process_time()
        for k in range(1, paired_rounds(t) + 1):
            start = time.process_time()
            expected = recorded_round(t, k)
            try:
                pair = (
                    reference_pair_round_2017
                    if t.rules is RuleSet.DUTCH_2017 else reference_pair_round
                )
                got = pair(
                    state_before_round(t, k), k, max_players=LIMIT, effective_tpn=EFFECTIVE_TPN
                )
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
        print(f"{path.name}: done ({time.process_time() - file_start:.1f}s)", flush=True)
    total = sum(verdicts.values())
    print(f"{total} rounds: " + ", ".join(f"{v} {verdicts[v]}" for v in
                                          ("identical", "colors", "pairs", "error")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
