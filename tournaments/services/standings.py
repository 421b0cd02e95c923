"""Standings: points, then the tournament's tie-breaks (C.07), over the complete rounds."""

from __future__ import annotations

from dataclasses import dataclass

from pairing.tiebreaks import format_value
from tournaments.models import Player, Tournament
from tournaments.services.engine_state import build_engine_state
from tournaments.services.tiebreak_list import tiebreak_specs


@dataclass(frozen=True)
class Standing:
    rank: int
    rank_label: str
    """``"3"``, or ``"3-5"`` for players tied on points and every tie-break."""
    player: Player
    score: int
    """Tenths of a point."""
    games: int
    """Games played over the board."""
    tiebreaks: tuple[str, ...] = ()
    """The tournament's tie-breaks, formatted, in the order of ``tiebreak_names``; ``-`` where a
    tie-break was not used (e.g. rating-based with unrated players, C.07 Art. 10)."""


def standings(tournament: Tournament, *, after_round: int | None = None) -> list[Standing]:
    """Rank by points, then the tournament's tie-breaks (C.07); players still tied share a rank.

    Only complete rounds count (all results in), up to ``after_round`` if given.
    """
    specs = tiebreak_specs(tournament)
    built = build_engine_state(tournament)
    last = built.rounds if after_round is None else max(0, min(after_round, built.rounds))
    return [
        Standing(
            rank=row.rank,
            rank_label=str(row.rank) if row.tied == 1 else f"{row.rank}-{row.rank + row.tied - 1}",
            player=built.player_by_tpn[row.tpn],
            score=row.score,
            games=row.games,
            tiebreaks=tuple(format_value(value) for value in row.values),
        )
        for row in tournament.system.standings(built.tournament, specs, last)
    ]
