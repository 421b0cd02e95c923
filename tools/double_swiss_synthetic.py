"""Synthetic Double-Swiss events for the benchmark: the engine pairs, results are drawn.

``python -m tools.double_swiss_synthetic --players 200 --matches 9 --played 8 OUT`` writes a
Double-Swiss TRF file whose first 8 matches were paired by ``pairing.double_swiss`` and
played with results drawn from the rating difference (seeded): draws, some ½-0 and 0-0
games, single forfeits, a few forfeit matches, requested byes and absences.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from pairing.double_swiss import pair_match, write_double_swiss
from pairing.double_swiss.model import DOUBLE_SWISS_CODE, DOUBLE_SWISS_POINTS
from pairing.double_swiss.trf import build_matches
from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament

R = ResultCode


def _game(rng: random.Random, white_rating: int, black_rating: int) -> tuple[R, R]:
    """Draw one game's result (White's, Black's) from the rating difference."""
    roll = rng.random()
    if roll < 0.01:
        return (R.FORFEIT_WIN, R.FORFEIT_LOSS) if rng.random() < 0.5 else (
            R.FORFEIT_LOSS, R.FORFEIT_WIN)
    if roll < 0.015:
        return (R.DRAW, R.LOSS) if rng.random() < 0.5 else (R.LOSS, R.LOSS)
    expected = 1 / (1 + 10 ** ((black_rating - white_rating + 35) / 400))
    draw = 0.3
    roll = rng.random()
    if roll < draw:
        return R.DRAW, R.DRAW
    return (R.WIN, R.LOSS) if roll < draw + (1 - draw) * expected else (R.LOSS, R.WIN)


def synthetic_event(players: int, matches: int, played: int, seed: int) -> Tournament:
    """Return the columns of an event of ``matches`` matches after ``played`` of them."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1200, 2700) for _ in range(players)), reverse=True)
    people = [Player(tpn=i + 1, name=f"Player {i + 1:04d}", rating=r)
              for i, r in enumerate(ratings)]
    columns: dict[int, list[RoundEntry]] = {p.tpn: [] for p in people}
    t = Tournament(
        players=tuple(people), total_rounds=2 * matches, initial_color=Color.WHITE,
        point_system=DOUBLE_SWISS_POINTS, tournament_type=DOUBLE_SWISS_CODE,
        name=f"Synthetic Double-Swiss {players} players, seed {seed}",
    )
    for _ in range(played):
        for p in people:
            roll = rng.random()
            if roll < 0.01:
                columns[p.tpn] += [RoundEntry(None, None, R.HALF_POINT_BYE)] * 2
            elif roll < 0.015:
                columns[p.tpn] += [RoundEntry(None, None, R.ZERO_POINT_BYE)] * 2
        state = _with_columns(t, columns)
        pairing = pair_match(build_matches(state))
        if pairing.bye is not None:
            columns[pairing.bye] += [RoundEntry(None, None, R.PAIRING_ALLOCATED_BYE)] * 2
        for board in pairing.boards:
            w, b = board.white, board.black
            whole_forfeit = rng.random() < 0.005
            for game in range(2):
                first, second = (w, b) if game == 0 else (b, w)
                if whole_forfeit:
                    rf, rs = (R.FORFEIT_WIN, R.FORFEIT_LOSS) if game == 0 else (
                        R.FORFEIT_LOSS, R.FORFEIT_WIN)
                    rf, rs = (rf, rs) if first == w else (rs, rf)
                else:
                    rf, rs = _game(rng, ratings[first - 1], ratings[second - 1])
                columns[first].append(RoundEntry(second, Color.WHITE, rf))
                columns[second].append(RoundEntry(first, Color.BLACK, rs))
    return _with_columns(t, columns)


def measure_match(players: int, matches: int, played: int, seed: int = 2026) -> float:
    """Return the CPU seconds of pairing match ``played + 1`` of a synthetic event."""
    dt = build_matches(synthetic_event(players, matches, played, seed))
    start = time.process_time()
    pair_match(dt)
    return time.process_time() - start


def _with_columns(t: Tournament, columns: dict[int, list[RoundEntry]]) -> Tournament:
    return replace(t, players=tuple(replace(p, rounds=tuple(columns[p.tpn])) for p in t.players))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.double_swiss_synthetic")
    parser.add_argument("out", type=Path)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=9)
    parser.add_argument("--played", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    t = synthetic_event(args.players, args.matches, args.played, args.seed)
    args.out.write_text(write_double_swiss(build_matches(t)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
