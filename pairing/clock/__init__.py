"""The Clock (Italian-Swiss) pairing system, from the description annexed to the agenda of the
FIDE SPP Committee, Istanbul 2012. Not a FIDE-approved system: a FIDE-rated event needs the
Qualification Commission's authorisation to use it (C.04.2)."""

from pairing.clock.engine import ClockRound, clock_grid, pair_clock_round, pair_round
from pairing.clock.grid import Grid, Seat, build_grid
from pairing.clock.trf import CLOCK_MARKER, CLOCK_TOURNAMENT_TYPE, is_clock_trf, mark_as_clock

__all__ = [
    "CLOCK_MARKER",
    "CLOCK_TOURNAMENT_TYPE",
    "ClockRound",
    "Grid",
    "Seat",
    "build_grid",
    "clock_grid",
    "is_clock_trf",
    "mark_as_clock",
    "pair_clock_round",
    "pair_round",
]
