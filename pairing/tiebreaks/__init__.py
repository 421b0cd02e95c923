"""FIDE tie-breaks (C.07, as amended 1 March 2026) computed from a
:class:`pairing.model.Tournament`.

Pure Python, no Django. Values are exact (:class:`fractions.Fraction` or ints).

>>> from pairing.tiebreaks import parse_specs, standings
>>> table = standings(tournament, parse_specs("BH/C1,BH,DE"))      # doctest: +SKIP
"""

from .compute import Breakdown, Context, Edition, Element, Rules, compute
from .errors import TieBreakError, TieBreakInputError, TieBreakSpecError
from .presets import (
    DEFAULT_PRESET,
    PRESETS,
    parse_202,
    parse_212,
    preset,
    record_202,
    record_212,
    tiebreak_records,
)
from .rounds import Kind, RoundRecord
from .specs import Acronym, TieBreakSpec, format_specs, parse_spec, parse_specs
from .standings import PlayerExplanation, StandingRow, Standings, explain, format_value, standings

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "Acronym",
    "Breakdown",
    "Context",
    "Edition",
    "Element",
    "Kind",
    "PlayerExplanation",
    "RoundRecord",
    "Rules",
    "StandingRow",
    "Standings",
    "TieBreakError",
    "TieBreakInputError",
    "TieBreakSpec",
    "TieBreakSpecError",
    "compute",
    "explain",
    "format_specs",
    "format_value",
    "parse_202",
    "parse_212",
    "parse_spec",
    "parse_specs",
    "preset",
    "record_202",
    "record_212",
    "standings",
    "tiebreak_records",
]
