"""Command line compatible with bbpPairings and JaVaFo callers.

``python -m pairing --dutch FILE -p [OUT] [-l [LIST]] [--rules 2017|2026]`` pairs the next round;
``python -m pairing --dutch FILE -c`` re-pairs every recorded round and prints the differences.
``--clock FILE`` instead of ``--dutch FILE`` pairs by the Clock (Italian-Swiss) system
(``pairing.clock``, not a FIDE system), with the same options, output and exit codes.
``--double-swiss FILE`` pairs the next match by the FIDE Double-Swiss system (C.04.5,
``pairing.double_swiss.cli``; two TRF round columns per match), with the same options,
output and exit codes.
Exit codes as bbpPairings: 0 done, 1 no valid pairing or differences found, 2 unexpected error,
3 invalid input, 5 file access error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from pairing.errors import EngineFault, NoValidPairing, TrfFormatError, UnsupportedFeature
from pairing.model import RoundPairing, RuleSet, Tournament
from pairing.replay import (
    IDENTICAL,
    compare_rounds,
    pairing_lines,
    paired_rounds,
    recorded_round,
    state_before_round,
)
from pairing.trf import next_round_number, read_trf

EXIT_OK = 0
EXIT_NO_PAIRING = 1
EXIT_UNEXPECTED = 2
EXIT_INVALID_INPUT = 3
EXIT_FILE_ACCESS = 5

STDOUT = "-"


class CliError(Exception):
    """A failure that ends the program with an exit code and a message."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser (bbpPairings option names)."""
    parser = argparse.ArgumentParser(
        prog="python -m pairing",
        description="FIDE Dutch system pairing engine (C.04.3), bbpPairings-compatible interface.",
    )
    system = parser.add_mutually_exclusive_group(required=True)
    system.add_argument("--dutch", metavar="FILE", help="TRF input file, FIDE Dutch system")
    system.add_argument(
        "--clock", metavar="FILE",
        help="TRF input file, Clock (Italian-Swiss) system (not FIDE-approved)",
    )
    system.add_argument(
        "--double-swiss", metavar="FILE",
        help="TRF input file with two columns per match, FIDE Double-Swiss system (C.04.5)",
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument(
        "-p", dest="pair_output", metavar="OUT", nargs="?", const=STDOUT,
        help="pair the next round; write the pairs to OUT (default: standard output)",
    )
    action.add_argument(
        "-c", dest="check", action="store_true",
        help="re-pair every recorded round and print the rounds that differ",
    )
    parser.add_argument(
        "-l", dest="explain_output", metavar="LIST", nargs="?", const=STDOUT,
        help="write the engine's explanation to LIST (default: standard output)",
    )
    parser.add_argument(
        "--rules", choices=[r.value for r in RuleSet],
        help="rule set (default: the file's 192 record, else 2026)",
    )
    return parser


def read_tournament(path: str) -> Tournament:
    """Read a TRF file; raise CliError with exit code 5 (access) or 3 (invalid)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except UnicodeDecodeError as exc:
        raise CliError(EXIT_INVALID_INPUT, f"{path}: the file is not valid UTF-8 ({exc.reason})")
    except OSError as exc:
        raise CliError(EXIT_FILE_ACCESS, f"{path}: {exc.strerror or exc}")
    try:
        return read_trf(text)
    except TrfFormatError as exc:
        raise CliError(EXIT_INVALID_INPUT, f"{path}: {exc}")


def pair(
    t: Tournament, rules: RuleSet | None, explain: bool, clock: bool = False
) -> RoundPairing:
    """Pair the next round with the Dutch (or Clock) engine; map engine errors to exit codes."""
    # imported here: the CLI works for checks without the engines
    if clock:
        from pairing.clock import pair_round as pair_clock
    else:
        from pairing.dutch import pair_round

    k = next_round_number(t)
    if t.total_rounds is not None and k > t.total_rounds:
        raise CliError(
            EXIT_INVALID_INPUT,
            f"round {k} cannot be paired: the file declares {t.total_rounds} rounds (XXR/142)",
        )
    try:
        if clock:
            return pair_clock(t, explain=explain)
        return pair_round(t, rules=rules, explain=explain)
    except NoValidPairing as exc:
        raise CliError(EXIT_NO_PAIRING, f"no valid pairing exists: {exc}")
    except UnsupportedFeature as exc:
        raise CliError(EXIT_INVALID_INPUT, f"unsupported: {exc}")
    except EngineFault as exc:
        raise CliError(EXIT_UNEXPECTED, f"internal error, please report it with the file: {exc}")


def write_lines(target: str, lines: Sequence[str], stdout: TextIO) -> None:
    """Write lines to a file, or to standard output for ``-``."""
    text = "".join(f"{line}\n" for line in lines)
    if target == STDOUT:
        stdout.write(text)
        return
    try:
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise CliError(EXIT_FILE_ACCESS, f"{target}: {exc.strerror or exc}")


def run_pair(args: argparse.Namespace, t: Tournament, rules: RuleSet | None, out: TextIO) -> int:
    """Pair the next round and write the engine output (and explanation)."""
    explain = args.explain_output is not None
    result = pair(t, rules, explain, args.clock is not None)
    write_lines(args.pair_output, result.engine_lines(), out)
    if explain:
        write_lines(args.explain_output, list(result.explanation), out)
    return EXIT_OK


def run_check(args: argparse.Namespace, t: Tournament, rules: RuleSet | None, out: TextIO) -> int:
    """Re-pair every recorded round; print and count the rounds that differ."""
    differing = 0
    report: list[str] = []
    explanations: list[str] = []
    explain = args.explain_output is not None
    total = paired_rounds(t)
    for k in range(1, total + 1):
        expected = recorded_round(t, k)
        try:
            got = pair(state_before_round(t, k), rules, explain, args.clock is not None)
        except CliError as exc:
            differing += 1
            report.append(f"round {k}: {exc}")
            continue
        verdict = compare_rounds(expected, got)
        if verdict == IDENTICAL:
            continue
        differing += 1
        report.append(f"round {k}: {verdict} differ")
        report.append("  expected: " + ", ".join(pairing_lines(expected)))
        report.append("  got:      " + ", ".join(pairing_lines(got)))
        if explain:
            explanations += [f"round {k}", *got.explanation]
    report.append(f"{total - differing} of {total} rounds identical")
    write_lines(STDOUT, report, out)
    if explain:
        write_lines(args.explain_output, explanations, out)
    return EXIT_NO_PAIRING if differing else EXIT_OK


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; return the exit code."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.clock is not None and args.rules:
        parser.error("--rules chooses a Dutch rule set; the Clock system has one text")
    if args.double_swiss is not None and args.rules:
        parser.error("--rules chooses a Dutch rule set; the Double-Swiss system has one text")
    rules = RuleSet(args.rules) if args.rules else None
    try:
        if args.double_swiss is not None:
            from pairing.double_swiss.cli import run as run_double_swiss

            return run_double_swiss(args, out)
        t = read_tournament(args.dutch if args.clock is None else args.clock)
        if args.check:
            return run_check(args, t, rules, out)
        return run_pair(args, t, rules, out)
    except CliError as exc:
        print(exc, file=err)
        return exc.code
    except ImportError as exc:
        print(f"the pairing engine is not available: {exc}", file=err)
        return EXIT_UNEXPECTED
    except Exception as exc:  # noqa: BLE001 - a bug: said plainly, with exit 2, not a traceback
        print(f"internal error, please report it with the file: {type(exc).__name__}: {exc}",
              file=err)
        return EXIT_UNEXPECTED
