"""Compare our tie-breaks with an independent implementation over a corpus of TRF files.

The reference is the PyPI package ``tiebreak-core`` (rulesets ``fide-2026`` and ``fide-2024``),
pinned in requirements-dev.txt. It is a development tool only: nothing in :mod:`pairing` imports
it. Usage::

    python -m pairing.tiebreaks.crosscheck ../shared/corpus/dutch-2026 [--limit N] [--samples K]

For every file, every player and every tie-break of :data:`CRITERIA`, both values are computed
and compared (exactly, up to float rounding of the reference). Direct encounter is compared as
the ordered split of every group of players tied on points. Files whose point system is not
1 / 1/2 / 0 are skipped for the tie-breaks that depend on it: the reference accepts only those
game scores. Printed: counts per tie-break, and the first disagreements of each, with the
player's rounds, so that each kind can be explained.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

from pairing.model import STANDARD_POINTS, Tournament
from pairing.trf import read_trf

from .compute import Context, Edition, Rules, compute
from .rounds import Kind
from .specs import parse_spec
from .standings import direct_encounter

# Our code -> the reference's criterion name (fide-2026 registry).
CRITERIA: dict[str, str] = {
    "BH": "buchholz",
    "BH/C1": "buchholz_cut1",
    "BH/C2": "buchholz_cut2",
    "BH/M1": "median_buchholz",
    "BH/M2": "median_buchholz_2",
    "SB": "sonneborn_berger",
    "SB/C1": "sonneborn_berger_cut1",
    "SB/C2": "sonneborn_berger_cut2",
    "PS": "progressive",
    "PS/C1": "progressive_cut1",
    "WIN": "wins",
    "WON": "won",
    "BPG": "games_black",
    "BWG": "wins_black",
    "REP": "rounds_elected",
    "STD": "std",
    "AOB": "aob",
    "FB": "fore_buchholz",
    "FB/C1": "fore_buchholz_cut1",
    "FB/M1": "fore_median1",
    "KS": "koya",
    "ARO": "aro",
    "ARO/C1": "aro_cut1",
    "ARO/M1": "aro_median1",
    "TPR": "tpr",
    "PTP": "ptp",
    "APRO": "apro",
    "APPO": "appo",
}
PLAYED_VARIANTS = {"BH/P": "buchholz", "SB/P": "sonneborn_berger", "FB/P": "fore_buchholz"}
EDITION_2024 = {"BH": "buchholz", "BH/C1": "buchholz_cut1", "SB": "sonneborn_berger"}

UNRATED_RATING = 1000
"""Rating given to unrated players on both sides (the tournament-set rating of C.07 Art. 10)."""

_SCORE = {Kind.FORFEIT_WIN: 1.0, Kind.PAB: 1.0, Kind.FULL_POINT_BYE: 1.0, Kind.HALF_POINT_BYE: 0.5}


def reference_players(ctx: Context):
    """The tournament in the reference's input model (one GameRecord per round)."""
    from tiebreak_core import GameRecord, PlayerTiebreakData

    def rating(tpn: int) -> int:
        return ctx.rating(tpn) or 0

    players = {}
    for tpn, records in ctx.records.items():
        games = []
        for r in records:
            colour = "black" if r.color is not None and r.color.value == "b" else "white"
            if r.kind is Kind.PLAYED:
                games.append(
                    GameRecord(r.opponent, rating(r.opponent), float(r.game_score), colour, r.round, kind="played")
                )
            elif r.kind is Kind.FORFEIT_WIN:
                games.append(GameRecord(r.opponent, rating(r.opponent), 1.0, colour, r.round, kind="forfeit_win"))
            elif r.kind is Kind.FORFEIT_LOSS:
                games.append(GameRecord(r.opponent, rating(r.opponent), 0.0, colour, r.round, kind="forfeit_loss"))
            elif r.kind is Kind.PAB:
                games.append(GameRecord(-1, 0, 1.0, "white", r.round, kind="pairing_bye"))
            else:
                games.append(GameRecord(-1, 0, _SCORE.get(r.kind, 0.0), "white", r.round, kind="requested_bye"))
        points = sum(g.score for g in games)
        players[tpn] = PlayerTiebreakData(tpn, rating(tpn), points, games)
    return players


def _same(ours, theirs: float) -> bool:
    mine = 0.0 if ours is None else float(Fraction(ours))
    return abs(mine - theirs) < 1e-9


def _describe(ctx: Context, tpn: int) -> str:
    marks = []
    for r in ctx.records[tpn]:
        if r.kind is Kind.PLAYED:
            marks.append(f"{r.opponent}{'+=-'[int(2 - 2 * r.game_score)]}")
        else:
            tag = {
                Kind.FORFEIT_WIN: "f+",
                Kind.FORFEIT_LOSS: "f-",
                Kind.PAB: "PAB",
                Kind.FULL_POINT_BYE: "F",
                Kind.HALF_POINT_BYE: "H",
                Kind.ZERO_POINT_BYE: "Z",
            }[r.kind]
            marks.append(f"{r.opponent or ''}{tag}{'*' if r.end_vur else ''}")
    return " ".join(marks)


class Report:
    def __init__(self, samples: int) -> None:
        self.samples = samples
        self.compared: Counter[str] = Counter()
        self.differ: Counter[str] = Counter()
        self.examples: dict[str, list[str]] = defaultdict(list)
        self.skipped: Counter[str] = Counter()
        self.files = 0

    def record(self, code: str, same: bool, where: str) -> None:
        self.compared[code] += 1
        if not same:
            self.differ[code] += 1
            if len(self.examples[code]) < self.samples:
                self.examples[code].append(where)


def check_file(path: Path, report: Report) -> None:
    from tiebreak_core import fide2024, fide2026
    from tiebreak_core.strict import validate_players

    t: Tournament = read_trf(path.read_text(encoding="utf-8"))
    standard = t.point_system == STANDARD_POINTS
    ctx = Context(t, Rules(unrated_rating=UNRATED_RATING))
    n = ctx.rounds
    report.files += 1
    if not standard:
        report.skipped["non-standard point system (files)"] += 1
        return
    ref = validate_players(reference_players(ctx))
    fide2026.validate_inputs(ref, n)
    pre = fide2026._precompute(ref, n, "swiss", 0.5)
    pre_p = fide2026._precompute(ref, n, "swiss", 0.5)
    for code, name in CRITERIA.items():
        spec = parse_spec(code)
        fn = fide2026.FIDE2026_REGISTRY[name]
        for tpn in ctx.records:
            if name == "koya":
                theirs = fn(ref[tpn], ref, n, "swiss", 0.5, False, 0.0, pre)
            else:
                theirs = fn(ref[tpn], ref, n, "swiss", 0.5, False, pre)
            ours = compute(ctx, spec, tpn).value
            report.record(
                code,
                _same(ours, theirs),
                f"{path.name} #{tpn}: ours {ours} theirs {theirs} | {_describe(ctx, tpn)}",
            )
    for code, name in PLAYED_VARIANTS.items():
        spec = parse_spec(code)
        fn = fide2026.FIDE2026_REGISTRY[name]
        for tpn in ctx.records:
            theirs = fn(ref[tpn], ref, n, "swiss", 0.5, True, pre_p)
            ours = compute(ctx, spec, tpn).value
            report.record(
                code, _same(ours, theirs), f"{path.name} #{tpn}: ours {ours} theirs {theirs} | {_describe(ctx, tpn)}"
            )
    old = Context(t, Rules(edition=Edition.C07_2024, unrated_rating=UNRATED_RATING))
    for code, name in EDITION_2024.items():
        spec = parse_spec(code)
        fn = fide2024.FIDE2024_REGISTRY[name]
        for tpn in ctx.records:
            theirs = fn(ref[tpn], ref, n)
            ours = compute(old, spec, tpn).value
            report.record(
                f"{code} (2024)",
                _same(ours, theirs),
                f"{path.name} #{tpn}: ours {ours} theirs {theirs} | {_describe(ctx, tpn)}",
            )
    # Direct encounter: the ordered split of each group tied on points.
    groups: dict[Fraction, list[int]] = defaultdict(list)
    for tpn in sorted(ctx.records):
        groups[ctx.score[tpn]].append(tpn)
    for group in groups.values():
        if len(group) < 2:
            continue
        ours = [sorted(tier) for tier in direct_encounter(ctx, group, False)]
        theirs = [sorted(tier) for tier in fide2026._de_tiers(group, ref, "swiss")]
        report.record("DE (tied groups)", ours == theirs, f"{path.name} group {group}: ours {ours} theirs {theirs}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pairing.tiebreaks.crosscheck")
    parser.add_argument("corpus", type=Path, help="a folder of finished tournaments (.trf)")
    parser.add_argument("--limit", type=int, default=0, help="check only the first N files")
    parser.add_argument("--samples", type=int, default=3, help="disagreements shown per tie-break")
    parser.add_argument("--max-players", type=int, default=0, help="skip larger files")
    parser.add_argument("--progress", action="store_true", help="name each file on stderr")
    args = parser.parse_args(argv)
    try:
        import tiebreak_core  # noqa: F401
    except ImportError:
        print("tiebreak-core is not installed (pip install -r requirements-dev.txt)", file=sys.stderr)
        return 3
    files = sorted(args.corpus.glob("*.trf"))
    if args.limit:
        files = files[: args.limit]
    report = Report(args.samples)
    start = time.process_time()
    for path in files:
        if args.max_players:
            players = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("001"))
            if players > args.max_players:
                report.skipped[f"more than {args.max_players} players (files)"] += 1
                continue
        if args.progress:
            print(f"{time.process_time() - start:7.1f} s  {path.name}", file=sys.stderr, flush=True)
        check_file(path, report)
    print(f"files read: {report.files}, CPU {time.process_time() - start:.1f} s")
    for what, count in report.skipped.items():
        print(f"skipped: {what}: {count}")
    total = sum(report.compared.values())
    bad = sum(report.differ.values())
    print(f"values compared: {total}, disagreements: {bad}")
    for code in report.compared:
        print(f"  {code:18} compared {report.compared[code]:7}  differ {report.differ[code]:6}")
    for code, lines in report.examples.items():
        print(f"\n{code}:")
        for line in lines:
            print(f"  {line}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
