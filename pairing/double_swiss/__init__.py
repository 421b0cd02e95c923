"""The FIDE Double-Swiss system (C.04.5, in force 1 Feb 2026): matches of two games."""

from pairing.double_swiss.engine import explain_match, pair_match
from pairing.double_swiss.model import DoubleSwissTournament, Match
from pairing.double_swiss.trf import (
    is_double_swiss,
    read_double_swiss,
    recorded_match,
    state_before_match,
    write_double_swiss,
)

__all__ = [
    "DoubleSwissTournament",
    "Match",
    "explain_match",
    "is_double_swiss",
    "pair_match",
    "read_double_swiss",
    "recorded_match",
    "state_before_match",
    "write_double_swiss",
]
