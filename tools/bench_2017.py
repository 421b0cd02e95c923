"""Benchmark: every round of generated Dutch 2017 events, with and without prohibited pairs.

``python -m tools.bench_2017 [--sizes 100,200,400]`` writes, the first time, one event per size
and kind into out/ with this engine's generator (``pairing.generator``, seeded: the same file
every time), under the 2017 rules: 9 rounds, draws, forfeits, requested byes, withdrawals and
late entries, and a twin with 21 ``XXP`` pairs. Then it pairs the state before every round
again and prints the CPU seconds of each (``time.process_time``), the largest and the total,
and whether every round came out as the file records it. The states are the ones to give
another engine (bbpPairings v5.0.1 implements the 2017 rules) for a comparison.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pairing.dutch.engine import pair_round
from pairing.generator import generate, parse_configuration
from pairing.model import RuleSet
from pairing.replay import recorded_round, replayable_rounds, state_before_round
from pairing.systems import dutch
from pairing.trf import read_trf, write_trf

CONFIGURATION = """\
PlayersNumber={players}
RoundsNumber=9
DrawPercentage=30
ForfeitRate=40
HalfPointByeRate=20
RetiredRate=40
LateEntryRate=40
ForbiddenPairs={forbidden}
"""
SEED = 7
FORBIDDEN = 21
"""The prohibited pairs (``XXP``) of the twin event, as in the held-out event of issue 25."""


def event_file(players: int, forbidden: int, directory: Path = Path("out")) -> Path:
    """The generated event, written the first time it is asked for."""
    path = directory / f"d2017_p{players}_x{forbidden}_s{SEED}.trf"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        print(f"writing {path}", flush=True)
        config = parse_configuration(CONFIGURATION.format(players=players, forbidden=forbidden))
        path.write_text(write_trf(generate(config, dutch(RuleSet.DUTCH_2017), SEED)))
    return path


def measure(path: Path) -> str:
    """One line: the CPU seconds of every round, the largest, the total, the verdict."""
    t = read_trf(path.read_text())
    seconds = []
    same = True
    for k in replayable_rounds(t):
        state = state_before_round(t, k)
        start = time.process_time()
        pairing = pair_round(state)
        seconds.append(time.process_time() - start)
        recorded = recorded_round(t, k)
        same = same and (
            sorted((b.white, b.black) for b in pairing.boards) ==
            sorted((b.white, b.black) for b in recorded.boards) and pairing.bye == recorded.bye
        )
    rounds = " ".join(f"{s:.2f}" for s in seconds)
    verdict = "as recorded" if same else "DIFFERENT from the record"
    return (f"{path.name:<26} max {max(seconds):5.2f} total {sum(seconds):6.2f}  "
            f"rounds: {rounds}  ({verdict})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_2017", description=__doc__)
    parser.add_argument("--sizes", default="100,200,400", help="comma-separated player counts")
    args = parser.parse_args(argv)
    for players in (int(s) for s in args.sizes.split(",") if s.strip()):
        for forbidden in (0, FORBIDDEN):
            print(measure(event_file(players, forbidden)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
