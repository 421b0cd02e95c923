"""Conformance harness: re-pair every recorded round of a corpus of TRF files and compare.

``python -m tools.conformance DIR [DIR...]`` replays round k of every file from
the state before it and compares the engine's answer with the recorded round (the corpus
README procedure). ``_baku`` files are counted separately, as informative.
The engine follows the file (``pairing.systems.system_of_file``): a Clock file (``### clock
system`` with ``192 CUSTOM_SWISS``) is paired by the Clock system, a Double-Swiss file (``192
FIDE_DOUBLESWISS``, two columns per match) match by match (its "rounds" in the report are
matches), any other by the Dutch system under the file's rules.
A directory named ``unpairable-*`` holds states with no legal pairing: each is paired as it is,
and the engine must answer ``NoValidPairing`` (the command line's exit 1).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from pairing.errors import NoValidPairing, TrfFormatError
from pairing.model import Tournament
from pairing.replay import IDENTICAL, compare_rounds, pairing_lines
from pairing.systems import PairingSystem, system_of_file

ERROR = "error"
NO_PAIRING = "no legal pairing"
PAIRED = "paired"
"""A state with no legal pairing that the engine paired all the same."""
VERDICTS = (IDENTICAL, "colors", "pairs", ERROR)
UNPAIRABLE_VERDICTS = (NO_PAIRING, PAIRED, ERROR)
SAMPLE_SEED = 2026


@dataclass(frozen=True)
class RoundResult:
    """The outcome of re-pairing one recorded round."""

    directory: str
    file: str
    round: int
    verdict: str
    expected: tuple[str, ...] = ()
    got: tuple[str, ...] = ()
    error: str = ""
    cpu_seconds: float = 0.0

    @property
    def informative(self) -> bool:
        """Return whether the file is a Baku-acceleration file (not part of the bar)."""
        return Path(self.file).stem.endswith("_baku")


@dataclass(frozen=True)
class FileTask:
    """Rounds of one file to replay."""

    directory: str
    path: str
    rounds: tuple[int, ...]
    timeout: float | None = None
    unpairable: bool = False
    """The file is a state to pair as it is, with no legal pairing (exit 1 expected)."""


def corpus_name(directory: Path) -> str:
    """How the report names a corpus directory: ``clock/unpairable`` for a folder nested in
    another corpus, else its own name (``dutch-2026``)."""
    if directory.name == "unpairable":
        return f"{directory.resolve().parent.name}/{directory.name}"
    return directory.name


def is_unpairable_directory(directory: Path | str) -> bool:
    """Whether a corpus directory holds states with no legal pairing."""
    return Path(directory).name.startswith("unpairable")


class RoundTimeout(Exception):
    """The engine took longer than the harness allows for one round."""


def _on_alarm(signum: int, frame: object) -> None:
    """Interrupt the engine when the round's time is up."""
    raise RoundTimeout("time limit exceeded")


@contextmanager
def _time_limit(timeout: float | None) -> Iterator[None]:
    """Raise RoundTimeout in the body once ``timeout`` seconds have passed."""
    use_alarm = bool(timeout) and hasattr(signal, "SIGALRM")
    if use_alarm:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def replay_round(
    directory: str, path: Path, system: PairingSystem, t: Tournament, k: int,
    timeout: float | None = None,
) -> RoundResult:
    """Re-pair round k of a tournament and compare it with the recorded round."""
    expected = system.recorded_round(t, k)
    start = time.process_time()
    try:
        with _time_limit(timeout):
            got = system.pair(system.state_before(t, k))
    except Exception as exc:  # noqa: BLE001 - the harness counts every engine failure
        return RoundResult(
            directory, path.name, k, ERROR, tuple(pairing_lines(expected)),
            error=f"{type(exc).__name__}: {exc}", cpu_seconds=time.process_time() - start,
        )
    seconds = time.process_time() - start
    return RoundResult(
        directory, path.name, k, compare_rounds(expected, got),
        tuple(pairing_lines(expected)), tuple(pairing_lines(got)), cpu_seconds=seconds,
    )


def replay_unpairable(
    directory: str, path: Path, system: PairingSystem, t: Tournament,
    timeout: float | None = None,
) -> RoundResult:
    """Pair a state with no legal pairing as it is: the engine must say so."""
    k = system.next_round(t)
    start = time.process_time()
    try:
        with _time_limit(timeout):
            got = system.pair(t)
    except NoValidPairing as exc:
        return RoundResult(directory, path.name, k, NO_PAIRING, error=str(exc),
                           cpu_seconds=time.process_time() - start)
    except Exception as exc:  # noqa: BLE001 - the harness counts every engine failure
        return RoundResult(directory, path.name, k, ERROR, error=f"{type(exc).__name__}: {exc}",
                           cpu_seconds=time.process_time() - start)
    return RoundResult(directory, path.name, k, PAIRED, got=tuple(pairing_lines(got)),
                       cpu_seconds=time.process_time() - start)


def replay_file(task: FileTask) -> list[RoundResult]:
    """Replay the requested rounds of one file (run in a worker process)."""
    path = Path(task.path)
    try:
        system, t = system_of_file(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, TrfFormatError) as exc:
        return [RoundResult(task.directory, path.name, 0, ERROR, error=f"cannot read: {exc}")]
    if task.unpairable:
        return [replay_unpairable(task.directory, path, system, t, task.timeout)]
    return [replay_round(task.directory, path, system, t, k, task.timeout) for k in task.rounds]


def collect_tasks(
    directory: Path,
    *,
    only: str | None = None,
    max_players: int | None = None,
    sample: int | None = None,
    timeout: float | None = None,
) -> list[FileTask]:
    """List the (file, rounds) to replay in a directory, filtered and sampled."""
    rounds: list[tuple[str, int]] = []
    for path in sorted(directory.glob("*.trf")):
        if only and only not in path.name:
            continue
        try:
            system, t = system_of_file(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, TrfFormatError):
            rounds.append((str(path), 0))  # reported as an error by the worker
            continue
        if max_players is not None and len(t.players) > max_players:
            continue
        if is_unpairable_directory(directory):
            rounds.append((str(path), system.next_round(t)))
            continue
        rounds += [(str(path), k) for k in system.replayable_rounds(t)]
    if sample is not None and sample < len(rounds):
        rounds = sorted(random.Random(SAMPLE_SEED).sample(rounds, sample))
    by_file: dict[str, list[int]] = {}
    for path_text, k in rounds:
        by_file.setdefault(path_text, []).append(k)
    name = corpus_name(directory)
    unpairable = is_unpairable_directory(directory)
    return [FileTask(name, p, tuple(ks), timeout, unpairable) for p, ks in by_file.items()]


def run_tasks(tasks: Sequence[FileTask], jobs: int) -> list[RoundResult]:
    """Replay all tasks, in worker processes when jobs > 1."""
    results: list[RoundResult] = []
    if jobs <= 1:
        for task in tasks:
            results += replay_file(task)
    else:
        with multiprocessing.Pool(jobs) as pool:
            for part in pool.imap_unordered(replay_file, tasks):
                results += part
            # The workers end as they are told to, not by SIGTERM (Pool's exit), which a
            # handler inherited from the parent may keep from stopping them.
            pool.close()
            pool.join()
    results.sort(key=lambda r: (r.directory, r.file, r.round))
    return results


def summarize(
    results: Iterable[RoundResult], verdicts: tuple[str, ...] = VERDICTS
) -> dict[str, int]:
    """Count the verdicts."""
    counts = Counter(r.verdict for r in results)
    return {v: counts.get(v, 0) for v in verdicts}


def passed(directory: str, r: RoundResult) -> bool:
    """Whether a result meets the bar: identical, or no legal pairing for an unpairable state."""
    if is_unpairable_directory(directory):
        return r.verdict == NO_PAIRING
    return r.informative or r.verdict == IDENTICAL


def format_unpairable_report(directory: str, results: list[RoundResult], show: int) -> list[str]:
    """Return the report lines of a directory of states with no legal pairing."""
    counts = summarize(results, UNPAIRABLE_VERDICTS)
    lines = [
        f"{directory}: {len(results)} states with no legal pairing",
        f"  no legal pairing (exit 1): {counts[NO_PAIRING]}",
        f"  paired all the same:       {counts[PAIRED]}",
        f"  errors:                    {counts[ERROR]}",
    ]
    for r in [r for r in results if r.verdict != NO_PAIRING][:show]:
        lines.append(f"    {r.file} round {r.round}: {r.verdict} {r.error or ', '.join(r.got)}")
    return lines


def format_report(directory: str, results: list[RoundResult], show: int) -> list[str]:
    """Return the report lines of one directory."""
    if is_unpairable_directory(directory):
        return format_unpairable_report(directory, results, show)
    bar = [r for r in results if not r.informative]
    baku = [r for r in results if r.informative]
    counts = summarize(bar)
    files = len({r.file for r in bar})
    cpu = sum(r.cpu_seconds for r in results)
    lines = [
        f"{directory}: {len(bar)} rounds from {files} files ({cpu:.1f} s CPU)",
        f"  identical (pairs, colours and bye): {counts[IDENTICAL]}",
        f"  identical pairs, colour difference: {counts['colors']}",
        f"  different pairs:                    {counts['pairs']}",
        f"  errors:                             {counts[ERROR]}",
    ]
    if baku:
        b = summarize(baku)
        lines.append(
            f"  _baku files (informative): {len(baku)} rounds: identical {b[IDENTICAL]}, "
            f"colours {b['colors']}, pairs {b['pairs']}, errors {b[ERROR]}"
        )
    if results:
        slowest = max(results, key=lambda r: r.cpu_seconds)
        lines.append(
            f"  slowest round: {slowest.file} round {slowest.round} "
            f"({slowest.cpu_seconds:.2f} s CPU)"
        )
    differing = [r for r in bar if r.verdict != IDENTICAL]
    if differing and show > 0:
        lines.append(f"  first differing rounds (of {len(differing)}):")
    for r in differing[:show]:
        lines.append(f"    {r.file} round {r.round}: {r.verdict}")
        if r.error:
            lines.append(f"      error:    {r.error}")
        lines += _difference_lines(r)
    return lines


def _difference_lines(r: RoundResult, limit: int = 16) -> list[str]:
    """Return expected vs got, only the lines that differ when the round is long."""
    expected, got = list(r.expected), list(r.got)
    if r.verdict != ERROR and len(expected) + len(got) > 2 * limit:
        expected = [line for line in r.expected if line not in set(r.got)]
        got = [line for line in r.got if line not in set(r.expected)]
        prefix = ("expected (only)", "got (only)")
    else:
        prefix = ("expected", "got")

    def show(lines: list[str]) -> str:
        """Join at most `limit` lines."""
        more = f" ... (+{len(lines) - limit})" if len(lines) > limit else ""
        return ", ".join(lines[:limit]) + more

    out = [f"      {prefix[0] + ':':16}{show(expected)}"]
    if r.verdict != ERROR:
        out.append(f"      {prefix[1] + ':':16}{show(got)}")
    return out


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.conformance",
        description="Re-pair every recorded round of TRF corpora and compare with the record.",
    )
    parser.add_argument("directories", nargs="+", type=Path, metavar="DIR")
    parser.add_argument(
        "--sample", type=int, metavar="N", help="a deterministic sample of N rounds per directory"
    )
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes")
    parser.add_argument("--only", metavar="SUBSTRING", help="only files whose name contains it")
    parser.add_argument("--max-players", type=int, metavar="N", help="skip files with more players")
    parser.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="count a round as an error after this"
    )
    parser.add_argument(
        "--show", type=int, default=10, metavar="N", help="differing rounds to print"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write all results as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the harness; return 0 when every round (Baku files aside) is identical and every
    unpairable state has no legal pairing, else 1."""
    args = build_parser().parse_args(argv)
    all_results: dict[str, list[RoundResult]] = {}
    for directory in args.directories:
        if not directory.is_dir():
            print(f"{directory}: not a directory", file=sys.stderr)
            return 5
        tasks = collect_tasks(
            directory, only=args.only, max_players=args.max_players, sample=args.sample,
            timeout=args.timeout,
        )
        results = run_tasks(tasks, args.jobs)
        all_results[corpus_name(directory)] = results
        print("\n".join(format_report(corpus_name(directory), results, args.show)), flush=True)
    if args.json:
        payload = {
            name: {
                "counts": summarize(r for r in results if not r.informative),
                "baku_counts": summarize(r for r in results if r.informative),
                "rounds": [asdict(r) for r in results],
            }
            for name, results in all_results.items()
        }
        args.json.write_text(json.dumps(payload, indent=1), encoding="utf-8")
    failed = any(not passed(d, r) for d, rs in all_results.items() for r in rs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
