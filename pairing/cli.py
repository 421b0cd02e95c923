"""Command line compatible with bbpPairings and JaVaFo callers.

``python -m pairing --dutch FILE -p [OUT] [-l [LIST]] [--rules 2017|2026]`` pairs the next round;
``python -m pairing --dutch FILE -c`` re-pairs every recorded round and prints the differences.
``python -m pairing --dutch -g [CONFIG] -o OUT [-s SEED]`` (or ``--dutch MODEL -g -o OUT``) writes
a random tournament paired by this engine (``pairing.generator``).
``--clock FILE`` instead of ``--dutch FILE`` pairs by the Clock (Italian-Swiss) system
(``pairing.clock``, not a FIDE system), with the same options, output and exit codes.
``--double-swiss FILE`` pairs the next match by the FIDE Double-Swiss system (C.04.5; two TRF
round columns per match), with the same options, output and exit codes. The option names the
system (``pairing.systems``); everything else is the same for all of them.
Exit codes as bbpPairings: 0 done, 1 no valid pairing or differences found, 2 unexpected error,
3 invalid input, 5 file access error.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import TextIO, TypeVar

from pairing.errors import (
    ConfigurationError,
    EngineFault,
    NoValidPairing,
    TrfFormatError,
    UndecodableFile,
    UnsupportedFeature,
)
from pairing.generator import (
    configuration_of_model,
    generate,
    parse_configuration,
    random_configuration,
)
from pairing.model import RoundPairing, RuleSet, Tournament
from pairing.replay import IDENTICAL, compare_rounds, pairing_lines
from pairing.systems import PairingSystem, read_as, system_of_option
from pairing.trf import decode_file

EXIT_OK = 0
EXIT_NO_PAIRING = 1
EXIT_UNEXPECTED = 2
EXIT_INVALID_INPUT = 3
EXIT_FILE_ACCESS = 5

STDOUT = "-"
NO_FILE = ""
"""A system option given without its file (``--dutch -g CONFIG``)."""

SYSTEM_OPTIONS = (("--dutch", "dutch"), ("--clock", "clock"), ("--double-swiss", "double_swiss"))
"""The options that name the file and its pairing system (``pairing.systems``), and their dest."""

T = TypeVar("T")


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
    # FILE may be left out before -g (bbpPairings' syntax): the option then holds NO_FILE
    system.add_argument(
        "--dutch", metavar="FILE", nargs="?", const=NO_FILE,
        help="TRF input file, FIDE Dutch system",
    )
    system.add_argument(
        "--clock", metavar="FILE", nargs="?", const=NO_FILE,
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
    action.add_argument(
        "-g", dest="generate", metavar="CONFIG", nargs="?", const=NO_FILE,
        help="write a random tournament paired by this engine to -o: as CONFIG says, else "
        "drawn from the seed, or played again from the model FILE (pairing.generator)",
    )
    parser.add_argument("-o", dest="generated_output", metavar="OUT", help="with -g: TRF file")
    parser.add_argument(
        "-s", dest="seed", metavar="SEED", type=int,
        help="with -g: the random seed (default: drawn, and written in the 012 line)",
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


def read_file(path: str, parse: Callable[[str], T]) -> T:
    """Read a file and parse its text; raise CliError with exit code 5 (access) or 3 (invalid:
    not UTF-8, with the line and the byte, or the parser's line and column)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise CliError(EXIT_FILE_ACCESS, f"{path}: {exc.strerror or exc}") from None
    try:
        return parse(decode_file(raw))
    except (UndecodableFile, TrfFormatError, ConfigurationError) as exc:
        raise CliError(EXIT_INVALID_INPUT, f"{path}: {exc}") from None


def pair(system: PairingSystem, t: Tournament, explain: bool) -> RoundPairing:
    """Pair the next round with the system's engine; map engine errors to exit codes."""
    k = system.next_round(t)
    planned = system.planned_rounds(t)
    if planned is not None and k > planned:
        raise CliError(
            EXIT_INVALID_INPUT,
            f"{system.unit} {k} cannot be paired: the file plans {planned} {system.units} "
            f"({system.planned_record})",
        )
    try:
        return system.pair(t, explain=explain)
    except NoValidPairing as exc:
        raise CliError(EXIT_NO_PAIRING, f"no valid pairing exists: {exc}") from None
    except UnsupportedFeature as exc:
        raise CliError(EXIT_INVALID_INPUT, f"unsupported: {exc}") from None
    except EngineFault as exc:
        raise CliError(
            EXIT_UNEXPECTED, f"internal error, please report it with the file: {exc}"
        ) from None


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
        raise CliError(EXIT_FILE_ACCESS, f"{target}: {exc.strerror or exc}") from None


def run_pair(
    args: argparse.Namespace, system: PairingSystem, t: Tournament, pairing: RoundPairing,
    out: TextIO,
) -> int:
    """Write the engine output of a pairing in board order (C.04.2 Art. 3.6), as bbpPairings
    and JaVaFo do (and its explanation)."""
    write_lines(args.pair_output, system.published(t, pairing).engine_lines(), out)
    if args.explain_output is not None:
        write_lines(args.explain_output, list(pairing.explanation), out)
    return EXIT_OK


def run_check(
    args: argparse.Namespace, system: PairingSystem, t: Tournament, out: TextIO
) -> int:
    """Re-pair every recorded round (from the state before it, against what was recorded);
    print and count the rounds that differ."""
    unit, units = system.unit, system.units
    total = system.paired_rounds(t)
    explain = args.explain_output is not None
    differing = 0
    report: list[str] = []
    explanations: list[str] = []
    for k in range(1, total + 1):
        expected = system.recorded_round(t, k)
        if not expected.boards and expected.bye is None:
            total -= 1  # nobody was paired: a decided round, nothing to reproduce (replay)
            continue
        try:
            got = pair(system, system.state_before(t, k), explain)
        except CliError as exc:
            differing += 1
            report.append(f"{unit} {k}: {exc}")
            continue
        verdict = compare_rounds(expected, got)
        if verdict == IDENTICAL:
            continue
        differing += 1
        report.append(f"{unit} {k}: {verdict} differ")
        report.append("  expected: " + ", ".join(pairing_lines(expected)))
        report.append("  got:      " + ", ".join(pairing_lines(got)))
        if args.explain_output is not None:
            explanations += [f"{unit} {k}", *got.explanation]
    report.append(f"{total - differing} of {total} {units} identical")
    write_lines(STDOUT, report, out)
    if args.explain_output is not None:
        write_lines(args.explain_output, explanations, out)
    return EXIT_NO_PAIRING if differing else EXIT_OK


def run_generate(
    args: argparse.Namespace, option: str, model_path: str, rules: RuleSet | None, out: TextIO
) -> int:
    """Write a random tournament (``pairing.generator``) and say its seed."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    system = system_of_option(option, rules)
    players = None
    if model_path:
        system, model = read_file(model_path, lambda text: read_as(option, text, rules))
        rounds = system.planned_rounds(model) or system.paired_rounds(model)
        if not rounds:
            raise CliError(EXIT_INVALID_INPUT, f"{model_path}: the model has no rounds")
        config = configuration_of_model(model, rounds)
        players = model.players
    elif args.generate:
        config = read_file(args.generate, parse_configuration)
    else:
        config = random_configuration(random.Random(f"configuration {seed}"))
    try:
        t = generate(config, system, seed, players=players)
    except NoValidPairing as exc:
        raise CliError(EXIT_NO_PAIRING, f"no valid pairing exists: {exc}") from None
    except ValueError as exc:
        raise CliError(EXIT_INVALID_INPUT, str(exc)) from None
    write_lines(args.generated_output, system.write(t).splitlines(), out)
    return EXIT_OK


def check_options(parser: argparse.ArgumentParser, args: argparse.Namespace, path: str) -> None:
    """Refuse options that do not go together (argparse's own exit 2 and usage)."""
    if args.clock is not None and args.rules:
        parser.error("--rules chooses a Dutch rule set; the Clock system has one text")
    if args.double_swiss is not None and args.rules:
        parser.error("--rules chooses a Dutch rule set; the Double-Swiss system has one text")
    if args.generate is None:
        if path == NO_FILE:
            parser.error("-p and -c need the TRF file")
        if args.generated_output is not None or args.seed is not None:
            parser.error("-o and -s go with -g")
        return
    if args.generated_output is None:
        parser.error("-g needs -o OUT")
    if path and args.generate:
        parser.error("-g takes a model file or a configuration file, not both")
    if args.explain_output is not None:
        parser.error("-l does not go with -g")


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; return the exit code."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    rules = RuleSet(args.rules) if args.rules else None
    option, path = next(
        (option, getattr(args, dest)) for option, dest in SYSTEM_OPTIONS
        if getattr(args, dest) is not None
    )
    check_options(parser, args, path)
    try:
        if args.generate is not None:
            return run_generate(args, option, path, rules, out)
        system, t = read_file(path, lambda text: read_as(option, text, rules))
        if args.check:
            return run_check(args, system, t, out)
        return run_pair(args, system, t, pair(system, t, args.explain_output is not None), out)
    except CliError as exc:
        print(exc, file=err)
        return exc.code
    except Exception as exc:  # noqa: BLE001 - a bug: said plainly, with exit 2, not a traceback
        print(f"internal error, please report it with the file: {type(exc).__name__}: {exc}",
              file=err)
        return EXIT_UNEXPECTED
