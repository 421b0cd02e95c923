"""Compare our tie-breaks with an independent implementation over a corpus of TRF files.

The reference is the PyPI package ``tiebreak-core`` (rulesets ``fide-2026`` and ``fide-2024``),
pinned in requirements-dev.txt. It is a development tool only: nothing in :mod:`pairing` imports
it. Usage::

    python -m tools.tiebreak_crosscheck ../shared/corpus/dutch-2026 [--limit N] [--samples K]

For every file, every player and every tie-break of :data:`CRITERIA`, both values are computed
and compared (exactly, up to float rounding of the reference). Direct encounter is compared as
the ordered split of every group of players tied on points. The reference accepts game
scores 1 / 1/2 / 0 only, so in files with another point system only the tie-breaks of
:data:`POINT_FREE` are compared. Printed: counts per tie-break, every disagreement sorted into
a known kind (each kind confirmed by recomputing our value under the reference's reading), and
examples of each. Exit code 1 if some disagreement fits no known kind.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from pairing.model import STANDARD_POINTS, ResultCode, RoundEntry, Tournament
from pairing.rating.tables import round_half_up
from pairing.tiebreaks.compute import Context, Edition, Rules, compute
from pairing.tiebreaks.rounds import Kind
from pairing.tiebreaks.specs import Acronym, parse_spec
from pairing.tiebreaks.standings import direct_encounter
from pairing.trf import read_trf

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
POINT_FREE = ("WON", "BPG", "BWG", "REP", "STD", "ARO", "ARO/C1", "TPR")
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
                    GameRecord(
                        r.opponent,
                        rating(r.opponent),
                        float(r.game_score),
                        colour,
                        r.round,
                        kind="played",
                    )
                )
            elif r.kind is Kind.FORFEIT_WIN:
                games.append(
                    GameRecord(
                        r.opponent, rating(r.opponent), 1.0, colour, r.round, kind="forfeit_win"
                    )
                )
            elif r.kind is Kind.FORFEIT_LOSS:
                games.append(
                    GameRecord(
                        r.opponent, rating(r.opponent), 0.0, colour, r.round, kind="forfeit_loss"
                    )
                )
            elif r.kind is Kind.PAB:
                games.append(GameRecord(-1, 0, 1.0, "white", r.round, kind="pairing_bye"))
            else:
                games.append(
                    GameRecord(
                        -1, 0, _SCORE.get(r.kind, 0.0), "white", r.round, kind="requested_bye"
                    )
                )
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


UNEXPLAINED = "unexplained"
FB_FORFEIT = (
    "a final-round forfeit: a drawn game for us (Art. 8.3, paired games), a forfeit for the "
    "reference"
)
KS_FORFEIT = (
    "a forfeit against an opponent who scored 50 %: counted by us, as by the FIDE TEC's "
    "reference implementation; left out by this reference"
)
CUT_ALL = "the cut would remove every game: no value for us, the reference cuts fewer ratings"
PTP_FLOAT = "the reference sums probabilities in floating point and misses an exact equality"
APPO_PTP = "an opponent's PTP differs (see PTP)"
DE_FORFEIT = (
    "a pair of the group met only in a forfeit: not met for us (Art. 6 certainty rule), met "
    "for the reference"
)


def _forfeit_in_final_round(ctx: Context, tpn: int) -> bool:
    last = ctx.rounds
    involved = {tpn} | {r.opponent for r in ctx.records[tpn] if r.opponent is not None}
    return any(last and ctx.records[p][last - 1].kind.is_forfeit for p in involved)


def _explain(code: str, ctx: Context, ref, tpn: int, ours, theirs: float, pre):
    """Name the known kind of disagreement this one belongs to, or None."""
    from tiebreak_core import fide2024, fide2026

    spec = parse_spec(code.split()[0])
    acronym = spec.acronym.value
    # Each kind is confirmed by recomputing our value under the reference's reading.
    if acronym == "FB" and _forfeit_in_final_round(ctx, tpn):
        bh = replace(spec, acronym=Acronym.BH)
        if _same(compute(_fore_played_games_only(ctx), bh, tpn).value, theirs):
            return FB_FORFEIT
    if acronym == "KS":
        threshold = ctx.win * ctx.rounds / 2 + ctx.win / 2 * spec.limit
        over_the_board = sum(
            (
                r.points
                for r in ctx.records[tpn]
                if ctx._as_game(r, spec.played) and ctx.score[r.opponent] >= threshold
            ),
            Fraction(0),
        )
        if _same(over_the_board, theirs):
            return KS_FORFEIT
    if acronym == "ARO":
        games = sum(1 for r in ctx.records[tpn] if r.played)
        if ours is None and games <= spec.cut + 2 * spec.median:
            return CUT_ALL
    if acronym == "PTP":
        games = [(r.game_score, ctx.rating(r.opponent)) for r in ctx.records[tpn] if r.played]
        score = sum((g for g, _ in games), Fraction(0))
        float_sum = sum(fide2024._pd_for_rating(ours, rating) for _, rating in games)
        if float_sum < float(score):
            return PTP_FLOAT
    if acronym == "APPO":
        # Our average of the reference's PTPs of the opponents gives the reference's APPO.
        ptps = [
            Fraction(
                fide2026.FIDE2026_REGISTRY["ptp"](
                    ref[r.opponent], ref, ctx.rounds, "swiss", 0.5, False, pre
                )
            )
            for r in ctx.records[tpn]
            if r.played
        ]
        if ptps and _same(round_half_up(sum(ptps) / len(ptps)), theirs):
            return APPO_PTP
    return None


_FORE_PLAYED: dict[int, Context] = {}


def _fore_played_games_only(ctx: Context) -> Context:
    """The reference's reading of Art. 8.3: final-round games played over the board become
    draws, final-round forfeits stay forfeits."""
    cached = _FORE_PLAYED.get(id(ctx))
    if cached is not None and cached.rules.after_round == ctx.rounds:
        return cached
    last = ctx.rounds
    players = []
    for p in ctx.tournament.players:
        entries = list(p.rounds[:last])
        if len(entries) == last and entries[-1].game_was_played:
            e = entries[-1]
            entries[-1] = RoundEntry(e.opponent, e.color, ResultCode.DRAW)
        players.append(replace(p, rounds=tuple(entries)))
    fore = Context(
        replace(ctx.tournament, players=tuple(players)), replace(ctx.rules, after_round=last)
    )
    _FORE_PLAYED.clear()
    _FORE_PLAYED[id(ctx)] = fore
    return fore


class Report:
    def __init__(self, samples: int) -> None:
        self.samples = samples
        self.compared: Counter[str] = Counter()
        self.differ: Counter[str] = Counter()
        self.kinds: dict[str, Counter[str]] = defaultdict(Counter)
        self.examples: dict[str, list[str]] = defaultdict(list)
        self.skipped: Counter[str] = Counter()
        self.files = 0

    def record(self, code: str, same: bool, where: str, why=None) -> None:
        """Count one comparison; a disagreement is sorted by the explanation ``why()`` gives."""
        self.compared[code] += 1
        if not same:
            self.differ[code] += 1
            kind = (why() if why else None) or UNEXPLAINED
            self.kinds[code][kind] += 1
            if kind == UNEXPLAINED or len(self.examples[code]) < self.samples:
                self.examples[code].append(f"[{kind}] {where}")


def check_file(path: Path, report: Report) -> None:
    from tiebreak_core import fide2024, fide2026
    from tiebreak_core.strict import validate_players

    t: Tournament = read_trf(path.read_text(encoding="utf-8"))
    standard = t.point_system == STANDARD_POINTS
    ctx = Context(t, Rules(unrated_rating=UNRATED_RATING))
    n = ctx.rounds
    report.files += 1
    ref = validate_players(reference_players(ctx))
    fide2026.validate_inputs(ref, n)
    pre = fide2026._precompute(ref, n, "swiss", 0.5)
    pre_p = fide2026._precompute(ref, n, "swiss", 0.5)
    criteria = CRITERIA
    if not standard:
        # The reference takes game scores 1 / 1/2 / 0 only: compare what does not depend on
        # the point system.
        report.skipped[
            "non-standard point system (files; point-based tie-breaks not compared)"
        ] += 1
        criteria = {code: CRITERIA[code] for code in POINT_FREE}
    def compare(code: str, theirs_of, pre_of) -> None:
        spec = parse_spec(code)
        for tpn in ctx.records:
            theirs = theirs_of(tpn)
            ours = compute(ctx, spec, tpn).value
            report.record(
                code,
                _same(ours, theirs),
                f"{path.name} #{tpn}: ours {ours} theirs {theirs} | {_describe(ctx, tpn)}",
                lambda code=code, tpn=tpn, ours=ours, theirs=theirs: _explain(
                    code, ctx, ref, tpn, ours, theirs, pre_of
                ),
            )

    for code, name in criteria.items():
        fn = fide2026.FIDE2026_REGISTRY[name]
        if name == "koya":  # the reference's Koya takes its 50 % threshold before `pre`
            compare(
                code, lambda tpn, fn=fn: fn(ref[tpn], ref, n, "swiss", 0.5, False, 0.0, pre), pre
            )
        else:
            compare(code, lambda tpn, fn=fn: fn(ref[tpn], ref, n, "swiss", 0.5, False, pre), pre)
    if not standard:
        return
    for code, name in PLAYED_VARIANTS.items():
        fn = fide2026.FIDE2026_REGISTRY[name]
        compare(code, lambda tpn, fn=fn: fn(ref[tpn], ref, n, "swiss", 0.5, True, pre_p), pre_p)
    old = Context(t, Rules(edition=Edition.C07_2024, unrated_rating=UNRATED_RATING))
    pre24 = fide2024._precompute(ref, n)
    for code, name in EDITION_2024.items():
        spec = parse_spec(code)
        fn = fide2024.FIDE2024_REGISTRY[name]
        for tpn in ctx.records:
            theirs = fn(ref[tpn], ref, n, pre24)
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
        report.record(
            "DE (tied groups)",
            ours == theirs,
            f"{path.name} group {group}: ours {ours} theirs {theirs}",
            lambda group=group: _explain_de(ctx, group),
        )


def _explain_de(ctx: Context, group: list[int]):
    members = set(group)
    for tpn in group:
        played = {r.opponent for r in ctx.records[tpn] if r.played}
        forfeited = {r.opponent for r in ctx.records[tpn] if r.kind.is_forfeit}
        if (forfeited & members) - played:
            return DE_FORFEIT
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.tiebreak_crosscheck")
    parser.add_argument("corpus", type=Path, help="a folder of finished tournaments (.trf)")
    parser.add_argument("--limit", type=int, default=0, help="check only the first N files")
    parser.add_argument("--samples", type=int, default=3, help="disagreements shown per tie-break")
    parser.add_argument("--max-players", type=int, default=0, help="skip larger files")
    parser.add_argument("--progress", action="store_true", help="name each file on stderr")
    args = parser.parse_args(argv)
    try:
        import tiebreak_core  # noqa: F401
    except ImportError:
        print(
            "tiebreak-core is not installed (pip install -r requirements-dev.txt)", file=sys.stderr
        )
        return 3
    files = sorted(args.corpus.glob("*.trf"))
    if args.limit:
        files = files[: args.limit]
    report = Report(args.samples)
    start = time.process_time()
    for path in files:
        if args.max_players:
            players = sum(
                1
                for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith("001")
            )
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
    unexplained = sum(kinds[UNEXPLAINED] for kinds in report.kinds.values())
    print(f"unexplained: {unexplained}")
    for code in report.compared:
        print(f"  {code:18} compared {report.compared[code]:7}  differ {report.differ[code]:6}")
        for kind, count in report.kinds[code].most_common():
            print(f"      {count:6}  {kind}")
    for code, lines in report.examples.items():
        print(f"\n{code}:")
        for line in lines:
            print(f"  {line}")
    return 0 if unexplained == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
