"""Benchmark: pair one round of 100, 300, 500 and 1000-player corpus states.

``python -m tools.bench DIR`` prints, per state, the CPU seconds of ``pair_round``
(``time.process_time``) and the peak memory of a fresh process that loaded the file and paired
the round (``resource`` maximum resident set size; ``--tracemalloc`` adds the peak of Python
allocations, which slows the engine down). Each state runs in its own child process.
``--file F`` pairs the round after the last one recorded in F as well (the corpus has no
2000-player file: ``python -m tools.synthetic`` writes one).  Each state runs ``--repeat``
times (3 by default) and the least CPU time is printed: this machine's speed drifts by a
third from one run to the next.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pairing.replay import compare_rounds, recorded_round, state_before_round
from pairing.trf import read_trf

# (players, preferred file, round): the 1000-player state is round 5 of big_p1000_r09_s1001.
STATES = (
    (100, "gen_p100_r08_i0055.trf", 5),
    (300, "spd_p0300_r09_s301.trf", 5),
    (500, "big_p0500_r09_s501.trf", 5),
    (1000, "big_p1000_r09_s1001.trf", 5),
)

_PLAYERS = re.compile(r"_p0*(\d+)_r(\d+)_")


@dataclass(frozen=True)
class Measurement:
    """What pairing one state cost."""

    file: str
    round: int
    players: int
    cpu_seconds: float | None
    peak_rss_mb: float | None
    peak_traced_mb: float | None
    verdict: str


def choose_file(directory: Path, players: int, preferred: str) -> Path | None:
    """Return the preferred file, else the non-Baku file whose player count is nearest."""
    if (directory / preferred).is_file():
        return directory / preferred
    sized = [
        (abs(int(m.group(1)) - players), p.name, p)
        for p in directory.glob("*.trf")
        if (m := _PLAYERS.search(p.name)) and not p.stem.endswith("_baku")
    ]
    return min(sized)[2] if sized else None


def _peak_rss_mb() -> float | None:
    """Return this process's peak resident set size in MB (None where unavailable)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def measure(path: Path, k: int | None, traced: bool) -> Measurement:
    """Load a file, pair round k from the state before it (k None: the round after the
    last one recorded); return the cost."""
    import tracemalloc

    t = read_trf(path.read_text(encoding="utf-8"))
    recorded = max(len(p.rounds) for p in t.players)
    k = recorded + 1 if k is None else min(k, recorded)
    state = state_before_round(t, k)
    from pairing.dutch import pair_round  # imported (and compiled) outside the timing

    if traced:
        tracemalloc.start()
    start = time.process_time()
    try:
        got = pair_round(state)
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
        verdict = f"error: {type(exc).__name__}: {exc}"
        cpu = None
    else:
        cpu = time.process_time() - start
        verdict = compare_rounds(recorded_round(t, k), got) if k <= recorded else "not recorded"
    traced_mb = tracemalloc.get_traced_memory()[1] / 2**20 if traced else None
    if traced:
        tracemalloc.stop()
    return Measurement(path.name, k, len(t.players), cpu, _peak_rss_mb(), traced_mb, verdict)


def _child(
    path: Path, k: int | None, traced: bool, queue: multiprocessing.Queue[Measurement]
) -> None:
    """Measure in the child process and send the result back."""
    queue.put(measure(path, k, traced))


def measure_in_child(path: Path, k: int | None, traced: bool) -> Measurement:
    """Run measure() in a fresh process so that peak memory is this state's alone."""
    queue: multiprocessing.Queue[Measurement] = multiprocessing.Queue()
    process = multiprocessing.Process(target=_child, args=(path, k, traced, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def best_of(runs: list[Measurement]) -> Measurement:
    """The least CPU time of several runs of one state (a shared machine only ever slows a
    run down), with the largest peak memory."""
    timed = [m for m in runs if m.cpu_seconds is not None]
    best = min(timed, key=lambda m: m.cpu_seconds or 0.0) if timed else runs[0]
    peaks = [m.peak_rss_mb for m in runs if m.peak_rss_mb is not None]
    return replace(best, peak_rss_mb=max(peaks) if peaks else None)


HEADER = (
    f"{'players':>7} {'file':<28} {'round':>5} {'CPU s':>9} {'RSS MB':>8} {'traced':>8}  result"
)


def format_row(m: Measurement) -> str:
    """Return one line of the report."""
    cpu = f"{m.cpu_seconds:9.2f}" if m.cpu_seconds is not None else f"{'-':>9}"
    rss = f"{m.peak_rss_mb:8.1f}" if m.peak_rss_mb is not None else f"{'-':>8}"
    traced = f"{m.peak_traced_mb:8.1f}" if m.peak_traced_mb is not None else f"{'-':>8}"
    return f"{m.players:>7} {m.file:<28} {m.round:>5} {cpu} {rss} {traced}  {m.verdict}"


SYNTHETIC_ROUNDS = 3


def synthetic_file(players: int, directory: Path = Path("out")) -> Path:
    """The synthetic tournament of this many players after SYNTHETIC_ROUNDS rounds, written
    by tools.synthetic the first time it is asked for (its generator is seeded)."""
    from tools.synthetic import main as write_synthetic

    path = directory / f"syn_p{players}_r{SYNTHETIC_ROUNDS}.trf"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        print(f"writing {path} (pairs {SYNTHETIC_ROUNDS} rounds of {players} players)", flush=True)
        write_synthetic(["--players", str(players), "--rounds", str(SYNTHETIC_ROUNDS), str(path)])
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print one line per state."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__)
    parser.add_argument("directory", type=Path, metavar="DIR", nargs="?")
    parser.add_argument(
        "--file", type=Path, action="append", default=[],
        help="also pair the round after the last one recorded in this TRF file (for instance "
        "one written by python -m tools.synthetic); may be repeated",
    )
    parser.add_argument(
        "--sizes", default="100,300,500,1000", help="comma-separated player counts to run"
    )
    parser.add_argument("--tracemalloc", action="store_true", help="also trace Python allocations")
    parser.add_argument(
        "--double-swiss", type=int, metavar="PLAYERS",
        help="also pair match 9 of 9 (and match 5) of a synthetic Double-Swiss event of this "
        "many players (tools.double_swiss_synthetic, seeded)",
    )
    parser.add_argument(
        "--synthetic", type=int, action="append", default=[], metavar="PLAYERS",
        help="also pair round 4 of a synthetic tournament of this many players, written once "
        "by tools.synthetic into out/ (3 rounds; minutes for 5000 players) and measured once",
    )
    parser.add_argument(
        "--repeat", type=int, default=3,
        help="fresh processes per state; the least CPU time is printed (default 3)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    repeat = args.repeat
    sizes = {int(s) for s in args.sizes.split(",") if s.strip()}
    print(HEADER)
    for path in args.file:
        runs = [measure_in_child(path, None, args.tracemalloc) for _ in range(repeat)]
        print(format_row(best_of(runs)), flush=True)
    for players in args.synthetic:
        path = synthetic_file(players)
        print(format_row(measure_in_child(path, None, args.tracemalloc)), flush=True)
    if args.double_swiss:
        from tools.double_swiss_synthetic import measure_match

        for played in (8, 4):
            best = min(measure_match(args.double_swiss, 9, played) for _ in range(repeat))
            print(
                f"{args.double_swiss:>7} {'double-swiss synthetic':<28} {played + 1:>5} "
                f"{best:9.2f}  (C.04.5, match {played + 1} of 9)", flush=True,
            )
    for players, preferred, k in STATES:
        if args.directory is None or players not in sizes:
            continue
        path = choose_file(args.directory, players, preferred)
        if path is None:
            print(f"{players:>7} no file in {args.directory}")
            continue
        runs = [measure_in_child(path, k, args.tracemalloc) for _ in range(repeat)]
        print(format_row(best_of(runs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
