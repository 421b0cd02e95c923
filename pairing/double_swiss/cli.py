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
    EXIT_INVALID_INPUT,
    EXIT_NO_PAIRING,
    CliError,
    read_file,
    run_check,
    run_pair,
)
from pairing.double_swiss.engine import pair_match
from pairing.double_swiss.model import DoubleSwissTournament
from pairing.double_swiss.trf import read_double_swiss, recorded_match, state_before_match
from pairing.errors import NoValidPairing
from pairing.model import RoundPairing

__all__ = ["run"]


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
        raise CliError(EXIT_NO_PAIRING, f"no valid pairing exists: {exc}") from None


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``-p`` or ``-c`` on the file of ``--double-swiss``; return the exit code."""
    dt = read_file(args.double_swiss, read_double_swiss)
    explain = args.explain_output is not None
    if not args.check:
        return run_pair(args, pair(dt, explain), out)
    return run_check(
        args, dt.paired_matches(), lambda k: recorded_match(dt, k),
        lambda k: pair(state_before_match(dt, k), explain), out, unit="match",
        units="matches",
    )
