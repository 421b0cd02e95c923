"""``python -m pairing --double-swiss FILE -p [OUT] | -c [-l [LIST]]``: the Double-Swiss system.

Same output and exit codes as ``--dutch`` (``pairing.cli``): ``-p`` writes the number of pairs,
then ``white black`` per match (White plays game 1 with White), the PAB last as ``tpn 0``;
``-c`` re-pairs every recorded match and prints those that differ; ``-l`` adds the account of
the pairing in C.04.5's terms. The file is the two-column format of ``pairing.double_swiss.trf``.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from pairing.cli import (
    EXIT_FILE_ACCESS,
    EXIT_INVALID_INPUT,
    EXIT_NO_PAIRING,
    EXIT_OK,
    STDOUT,
    CliError,
    write_lines,
)
from pairing.double_swiss.engine import pair_match
from pairing.double_swiss.model import DoubleSwissTournament
from pairing.double_swiss.trf import read_double_swiss, recorded_match, state_before_match
from pairing.errors import NoValidPairing, TrfFormatError
from pairing.model import RoundPairing
from pairing.replay import IDENTICAL, compare_rounds, pairing_lines

__all__ = ["run"]


def read_tournament(path: str) -> DoubleSwissTournament:
    """Read a Double-Swiss file; raise CliError with exit code 5 (access) or 3 (invalid)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except UnicodeDecodeError as exc:
        raise CliError(EXIT_INVALID_INPUT, f"{path}: the file is not valid UTF-8 ({exc.reason})")
    except OSError as exc:
        raise CliError(EXIT_FILE_ACCESS, f"{path}: {exc.strerror or exc}")
    try:
        return read_double_swiss(text)
    except TrfFormatError as exc:
        raise CliError(EXIT_INVALID_INPUT, f"{path}: {exc}")


def pair(dt: DoubleSwissTournament, explain: bool) -> RoundPairing:
    """Pair the next match; a match beyond the planned ones is invalid input (exit 3)."""
    k = dt.next_match_number()
    if dt.total_matches is not None and k > dt.total_matches:
        raise CliError(
            EXIT_INVALID_INPUT,
            f"match {k} cannot be paired: the file plans {dt.total_matches} matches (142)",
        )
    try:
        return pair_match(dt, explain=explain)
    except NoValidPairing as exc:
        raise CliError(EXIT_NO_PAIRING, f"no valid pairing exists: {exc}")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``-p`` or ``-c`` on the file of ``--double-swiss``; return the exit code."""
    dt = read_tournament(args.double_swiss)
    explain = args.explain_output is not None
    if not args.check:
        result = pair(dt, explain)
        write_lines(args.pair_output, result.engine_lines(), out)
        if explain:
            write_lines(args.explain_output, list(result.explanation), out)
        return EXIT_OK
    differing = 0
    report: list[str] = []
    explanations: list[str] = []
    total = dt.paired_matches()
    for k in range(1, total + 1):
        expected = recorded_match(dt, k)
        try:
            got = pair(state_before_match(dt, k), explain)
        except CliError as exc:
            differing += 1
            report.append(f"match {k}: {exc}")
            continue
        verdict = compare_rounds(expected, got)
        if verdict == IDENTICAL:
            continue
        differing += 1
        report.append(f"match {k}: {verdict} differ")
        report.append("  expected: " + ", ".join(pairing_lines(expected)))
        report.append("  got:      " + ", ".join(pairing_lines(got)))
        if explain:
            explanations += [f"match {k}", *got.explanation]
    report.append(f"{total - differing} of {total} matches identical")
    write_lines(STDOUT, report, out)
    if explain:
        write_lines(args.explain_output, explanations, out)
    return EXIT_NO_PAIRING if differing else EXIT_OK
