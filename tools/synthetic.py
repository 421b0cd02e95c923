"""Synthetic tournaments for benchmarks larger than the corpus (2000 players and more).

``python -m tools.synthetic --players 2000 --rounds 4 OUT.trf`` writes a TRF-16 file whose
rounds were paired by this engine (FIDE Dutch 2026 rules) and whose results were drawn from a
seeded random generator: the higher-rated player wins with the Elo expectation, a fifth of
the games are drawn.  The same arguments always give the same file.  It is a load test, not
a reference: nothing checks these pairings against another engine.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from pairing.model import Color, Player, ResultCode, RoundEntry, RoundPairing, Tournament
from pairing.trf import write_trf

__all__ = ["synthetic_tournament"]

DRAW_SHARE = 0.2
"""Share of the games drawn (the rest is decided by the Elo expectation)."""


def _expected_score(white: int, black: int) -> float:
    """The Elo expectation of the player rated ``white`` against one rated ``black``."""
    return 1 / (1 + 10 ** ((black - white) / 400))


def _results(t: Tournament, pairing: RoundPairing, rng: random.Random) -> dict[int, RoundEntry]:
    """Draw a result for every board of the round; the PAB as the TRF records it."""
    entries: dict[int, RoundEntry] = {}
    for board in pairing.boards:
        white = t.player(board.white).rating or 0
        black = t.player(board.black).rating or 0
        draw = rng.random() < DRAW_SHARE
        white_wins = rng.random() < _expected_score(white, black)
        if draw:
            results = (ResultCode.DRAW, ResultCode.DRAW)
        elif white_wins:
            results = (ResultCode.WIN, ResultCode.LOSS)
        else:
            results = (ResultCode.LOSS, ResultCode.WIN)
        entries[board.white] = RoundEntry(board.black, Color.WHITE, results[0])
        entries[board.black] = RoundEntry(board.white, Color.BLACK, results[1])
    if pairing.bye is not None:
        entries[pairing.bye] = RoundEntry(None, None, ResultCode.PAIRING_ALLOCATED_BYE)
    return entries


def synthetic_tournament(players: int, rounds: int, *, seed: int = 2026,
                         total_rounds: int = 9) -> Tournament:
    """A tournament of ``players`` rated players after ``rounds`` rounds paired by this engine."""
    if players < 2 or not 0 <= rounds <= total_rounds:
        raise ValueError("need at least 2 players and 0 <= rounds <= total_rounds")
    from pairing.dutch import pair_round

    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2800) for _ in range(players)), reverse=True)
    t = Tournament(
        players=tuple(
            Player(tpn=i + 1, name=f"Player {i + 1:05d}", rating=rating)
            for i, rating in enumerate(ratings)
        ),
        total_rounds=total_rounds,
    )
    for _ in range(rounds):
        entries = _results(t, pair_round(t), rng)
        t = replace(t, players=tuple(
            replace(p, rounds=p.rounds + (entries[p.tpn],)) for p in t.players
        ))
    return t


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.synthetic", description=__doc__)
    parser.add_argument("out", type=Path, metavar="OUT")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4, help="rounds to pair and play")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    t = synthetic_tournament(args.players, args.rounds, seed=args.seed)
    args.out.write_text(write_trf(t), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
