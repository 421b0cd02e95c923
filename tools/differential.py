"""Differential testing against another pairing engine, as FIDE's endorsement procedure does it.

``python -m tools.differential --engine PATH [-n 30] [--players 100-300] [--rounds 5-11]``
generates N random tournaments with this engine's generator (``pairing.generator``: seeds
``--seed``, ``--seed``+1, ...; byes, forfeits, withdrawals, late entries and other point systems
drawn for each, or ``--config FILE`` for all), then gives the state before every round to the
other engine (``PATH --dutch STATE -p OUT``, bbpPairings' syntax) and compares its pairing
with ours: identical (pairs, colours and bye), colours only, pairs, or the other engine
failing or finding no legal pairing. ``--theirs`` turns it round: the other engine generates
(``PATH --dutch -g [CONFIG] -o OUT -s SEED``) and this engine re-pairs every round.

Differing states are written to ``--keep DIR`` (default: a temporary directory, printed) with
both pairings, so that each can be run again by hand. ``--trfx`` adds the TRF(x)/TRF(bx)
records (``XXR``, ``XXC``, ``XXP``, ``BB?``) for an engine that does not read TRF-2026 (e.g.
bbpPairings v5, for the 2017 rules with ``--rules 2017``); ``--system-option ''`` leaves out
``--dutch`` (JaVaFo). The other engine is given by path; nothing of it is part of this project.
Exit code 0 when every round is identical, 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pairing.errors import NoValidPairing, PairingError
from pairing.generator import Configuration, generate, parse_configuration, random_configuration
from pairing.model import Color, RoundPairing, RuleSet, Tournament
from pairing.replay import IDENTICAL, compare_rounds, pairing_lines
from pairing.systems import PairingSystem, dutch
from pairing.trf import decode_file, read_pairings
from pairing.trf_records import points_field

THEIR_ERROR = "their error"
THEY_FIND_NO_PAIRING = "no legal pairing for them"
OUR_ERROR = "our error"
VERDICTS = (IDENTICAL, "colors", "pairs", THEY_FIND_NO_PAIRING, THEIR_ERROR, OUR_ERROR)
NOT_GENERATED = "not generated"


@dataclass(frozen=True)
class Engine:
    """The other engine: its command and how it is told the system."""

    command: tuple[str, ...]
    system_option: str
    trfx: bool
    timeout: float

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        system = (self.system_option,) if self.system_option else ()
        return subprocess.run(
            [*self.command, *system, *args], capture_output=True, text=True,
            timeout=self.timeout, check=False,
        )


def trfx_lines(t: Tournament) -> list[str]:
    """The TRF(x)/TRF(bx) records of what TRF-2026 says in 142, 152, 162 and 260."""
    lines = []
    if t.total_rounds is not None:
        lines.append(f"XXR {t.total_rounds}")
    if t.initial_color is not None:
        lines.append("XXC white1" if t.initial_color is Color.WHITE else "XXC black1")
    ps = t.point_system
    for code, value in (("BBW", ps.win), ("BBD", ps.draw), ("BBL", ps.loss),
                        ("BBZ", ps.zero_point_bye), ("BBF", ps.forfeit_loss),
                        ("BBU", ps.pairing_allocated_bye)):
        lines.append(f"{code} {points_field(value)}")
    lines += ["XXP " + " ".join(str(tpn) for tpn in sorted(p.tpns)) for p in t.forbidden_pairs]
    return lines


def state_text(system: PairingSystem, state: Tournament, engine: Engine) -> str:
    """The state before a round as the other engine reads it."""
    text = system.write(state)
    return text + "".join(f"{line}\n" for line in trfx_lines(state)) if engine.trfx else text


@dataclass(frozen=True)
class RoundVerdict:
    seed: int
    round: int
    verdict: str
    ours: tuple[str, ...] = ()
    theirs: tuple[str, ...] = ()
    message: str = ""


def compare_tournament(
    system: PairingSystem, t: Tournament, seed: int, engine: Engine, work: Path, keep: Path
) -> list[RoundVerdict]:
    """Give the state before every round of ``t`` (paired by us) to the other engine."""
    verdicts = []
    for k in system.replayable_rounds(t):
        ours = system.recorded_round(t, k)
        state = work / f"seed{seed}_round{k}.trf"
        state.write_text(state_text(system, system.state_before(t, k), engine), encoding="utf-8")
        out = work / "pairs.txt"
        out.unlink(missing_ok=True)
        try:
            done = engine.run(str(state), "-p", str(out))
        except subprocess.TimeoutExpired:
            verdicts.append(_keep(RoundVerdict(seed, k, THEIR_ERROR, message="timeout"), state,
                                  keep, ours))
            continue
        if done.returncode == 1:
            verdict = RoundVerdict(seed, k, THEY_FIND_NO_PAIRING, message=done.stderr.strip())
        elif done.returncode != 0:
            verdict = RoundVerdict(seed, k, THEIR_ERROR, message=done.stderr.strip())
        else:
            theirs = read_pairings(out.read_text(encoding="utf-8"), k)
            verdict = RoundVerdict(seed, k, compare_rounds(ours, theirs),
                                   tuple(pairing_lines(ours)), tuple(pairing_lines(theirs)))
        verdicts.append(verdict if verdict.verdict == IDENTICAL
                        else _keep(verdict, state, keep, ours))
    return verdicts


def replay_theirs(system: PairingSystem, path: Path, seed: int) -> list[RoundVerdict]:
    """Re-pair with this engine every round of a tournament the other engine generated."""
    try:
        t = system.read(decode_file(path.read_bytes()))
    except PairingError as exc:
        return [RoundVerdict(seed, 0, OUR_ERROR, message=f"cannot read: {exc}")]
    verdicts = []
    for k in system.replayable_rounds(t):
        theirs = system.recorded_round(t, k)
        try:
            ours = system.pair(system.state_before(t, k))
        except NoValidPairing as exc:
            verdicts.append(RoundVerdict(seed, k, OUR_ERROR, message=f"no valid pairing: {exc}"))
            continue
        verdicts.append(RoundVerdict(seed, k, compare_rounds(theirs, ours),
                                     tuple(pairing_lines(ours)), tuple(pairing_lines(theirs))))
    return verdicts


def _keep(verdict: RoundVerdict, state: Path, keep: Path, ours: RoundPairing) -> RoundVerdict:
    """Keep a differing state beside our pairing of it (``.ours``, engine output format)."""
    target = keep / state.name
    target.write_bytes(state.read_bytes())
    target.with_suffix(".ours").write_text(
        "".join(f"{line}\n" for line in ours.engine_lines()), encoding="utf-8")
    return verdict


def draw_configuration(args: argparse.Namespace, seed: int) -> Configuration:
    """The configuration of tournament ``seed``: the file's, or drawn in the ranges asked."""
    if args.config is not None:
        return parse_configuration(args.config.read_text(encoding="utf-8"))
    rng = random.Random(f"differential {seed}")
    return random_configuration(rng, players=args.players, rounds=args.rounds)


def span(text: str) -> tuple[int, int]:
    """``100-300`` or ``200``, as a range of integers."""
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.differential", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, metavar="PATH",
                        help="the other engine's command (split as a shell would)")
    parser.add_argument("-n", "--tournaments", type=int, default=30, metavar="N")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first tournament")
    parser.add_argument("--players", type=span, default=(100, 300), metavar="LOW-HIGH")
    parser.add_argument("--rounds", type=span, default=(5, 11), metavar="LOW-HIGH")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="a generator configuration for every tournament")
    parser.add_argument("--rules", choices=[r.value for r in RuleSet], default="2026")
    parser.add_argument("--theirs", action="store_true",
                        help="the other engine generates, this one re-pairs")
    parser.add_argument("--trfx", action="store_true",
                        help="add XXR/XXC/XXP/BB? records for an engine without TRF-2026")
    parser.add_argument("--system-option", default="--dutch",
                        help="the option naming the system ('' for none, e.g. JaVaFo)")
    parser.add_argument("--timeout", type=float, default=600, metavar="SECONDS")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="where differing states go")
    return parser


def run_one(args: argparse.Namespace, system: PairingSystem, engine: Engine, seed: int,
            work: Path, keep: Path) -> tuple[str, list[RoundVerdict]] | str:
    """Generate and compare tournament ``seed``: its size and verdicts, or why it was not
    generated."""
    if args.theirs:
        out = work / f"seed{seed}.trf"
        config = [] if args.config is None else [str(args.config)]
        done = engine.run("-g", *config, "-o", str(out), "-s", str(seed))
        if done.returncode != 0:
            return done.stderr.strip()
        return "", replay_theirs(system, out, seed)
    config_ = draw_configuration(args, seed)
    try:
        t = generate(config_, system, seed)
    except NoValidPairing as exc:
        return str(exc)
    return f"{config_.players} players, ", compare_tournament(system, t, seed, engine, work, keep)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    engine = Engine(tuple(shlex.split(args.engine)), args.system_option, args.trfx, args.timeout)
    system = dutch(RuleSet(args.rules))
    keep = args.keep or Path(tempfile.mkdtemp(prefix="differential-"))
    keep.mkdir(parents=True, exist_ok=True)
    counts: Counter[str] = Counter()
    start = time.process_time()
    with tempfile.TemporaryDirectory() as work_dir:
        for seed in range(args.seed, args.seed + args.tournaments):
            done = run_one(args, system, engine, seed, Path(work_dir), keep)
            if isinstance(done, str):
                counts[NOT_GENERATED] += 1
                print(f"seed {seed}: not generated: {done}", flush=True)
                continue
            size, verdicts = done
            tally = Counter(v.verdict for v in verdicts)
            counts.update(tally)
            print(f"seed {seed}: {size}{len(verdicts)} rounds: "
                  + ", ".join(f"{name} {n}" for name, n in sorted(tally.items())), flush=True)
            for r in verdicts:
                if r.verdict != IDENTICAL:
                    print(f"  round {r.round}: {r.verdict} {r.message}".rstrip())
                    if r.ours:
                        print("    ours:   " + ", ".join(r.ours))
                        print("    theirs: " + ", ".join(r.theirs))
    ours = time.process_time() - start
    theirs = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = sum(counts[name] for name in VERDICTS)
    print(f"{args.tournaments - counts[NOT_GENERATED]} tournaments, {total} rounds "
          f"({counts[NOT_GENERATED]} not generated)")
    for name in VERDICTS:
        print(f"  {name + ':':27}{counts[name]}")
    print(f"CPU: this engine {ours:.1f} s (generating, comparing), the other "
          f"{theirs.ru_utime + theirs.ru_stime:.1f} s; differing states in {keep}")
    return 0 if counts[IDENTICAL] == total and not counts[NOT_GENERATED] else 1


if __name__ == "__main__":
    sys.exit(main())
