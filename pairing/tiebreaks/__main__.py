"""Print the standings of a TRF file: ``python -m pairing.tiebreaks FILE [--tiebreaks LIST]``.

The tie-break list comes from ``--tiebreaks`` (e.g. ``BH/C1,BH,DE``), else ``--preset``, else the
file's ``212``/``202`` record, else the default preset. ``--explain TPN`` prints how each value of
that player was computed. Exit codes: 0 done, 3 invalid input (the message says why).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pairing.errors import PairingError
from pairing.trf import decode_file, read_trf

from .compute import Edition, Rules
from .presets import DEFAULT_PRESET, PRESETS, preset, tiebreak_records
from .specs import parse_specs
from .standings import explain, format_value as show, standings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pairing.tiebreaks")
    parser.add_argument("file", type=Path)
    parser.add_argument("--tiebreaks", help="comma-separated codes, e.g. BH/C1,BH,DE")
    parser.add_argument("--preset", choices=sorted(PRESETS))
    parser.add_argument(
        "--rules",
        choices=["2026", "2024"],
        default="2026",
        help="C.07 Art. 16 text: 2026 (capped dummies) or 2024",
    )
    parser.add_argument("--unrated-rating", type=int, help="rating given to unrated players")
    parser.add_argument("--after-round", type=int)
    parser.add_argument("--explain", type=int, metavar="TPN")
    args = parser.parse_args(argv)
    try:
        t = read_trf(decode_file(args.file.read_bytes()))
        if args.tiebreaks:
            specs = parse_specs(args.tiebreaks)
        elif args.preset:
            specs = preset(args.preset).specs
        else:
            specs = tiebreak_records(t.other_records) or preset(DEFAULT_PRESET).specs
        rules = Rules(Edition(args.rules), args.unrated_rating, args.after_round)
        if args.explain is not None:
            info = explain(t, specs, args.explain, rules)
            print(
                f"{info.tpn} {info.name}: {show(info.points)} points, "
                f"{show(info.adjusted)} for opponents"
            )
            for b in info.breakdowns:
                print(f"{b.spec.code} = {show(b.value)}  {'; '.join(b.notes)}")
                for e in b.elements:
                    who = f"opponent {e.opponent}" if e.opponent else ("dummy" if e.dummy else "")
                    print(
                        f"    round {e.round:2} {who:12} {show(e.value):>8}"
                        f"{' cut' if e.cut else ''}  {e.note}"
                    )
            for spec, why in info.dropped:
                print(f"{spec.code} dropped: {why}")
            return 0
        table = standings(t, specs, rules)
    except (OSError, PairingError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    print(f"Standings after round {table.rounds}")
    print(
        "Rk   TPN  Name                            Pts "
        + " ".join(f"{s.code:>7}" for s in table.specs)
    )
    for row in table.rows:
        rank = f"{row.rank}{'=' if row.shared else ''}"
        cells = " ".join(f"{show(v):>7}" for v in row.values)
        print(f"{rank:4} {row.tpn:4}  {row.name[:30]:30} {show(row.points):>4} {cells}")
    for spec, why in table.dropped:
        print(f"{spec.code} dropped: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
