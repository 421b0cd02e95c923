"""Colour assignment of the Clock system: Appendix B.

Round 1 takes the colours of the grid (Appendix A). From round 2, in this order (reading 14):
(a) the one player with an absolute preference gets it; (b) White to the larger colour
difference #B - #W; (c) the played colours, right-aligned and compared from the latest game
backwards: the first position with W against B gives White to the one who had Black;
(d) White to the lower score; (e) the lower PN repeats his last played colour (his grid colour
if he never played).
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.clock.players import ClockPlayer
from pairing.model import Color
from pairing.rules import colour_difference
from pairing.text import Text, gettext_noop

# Which step of Appendix B decided (the web app says it in the reader's language).
ABSOLUTE_OF = gettext_noop("absolute preference of %(player)s")
COLOUR_DIFFERENCE = gettext_noop("colour difference")
COLOUR_HISTORY = gettext_noop("colour history (%(back)s back)")
FEWER_POINTS = gettext_noop("fewer points")
REPEATS_LAST = gettext_noop("%(player)s repeats his last colour")
GRID_COLOURS = gettext_noop("grid colours (round 1)")

__all__ = ["ColourDecision", "assign_colours"]


@dataclass(frozen=True)
class ColourDecision:
    """Who has White and Black in one pair, and which step of Appendix B decided it."""

    white: ClockPlayer
    black: ClockPlayer
    reason: str


def _white_to(white: ClockPlayer, other: ClockPlayer, reason: str) -> ColourDecision:
    return ColourDecision(white, other, reason)


def assign_colours(a: ClockPlayer, b: ClockPlayer, round_number: int) -> ColourDecision:
    """Return the colours of the pair <a, b> (neither is the bye)."""
    if round_number == 1:
        return _grid_colours(a, b)
    pa, pb = a.preference, b.preference
    if pa.absolute != pb.absolute:  # (a) just one player has an absolute preference
        holder, other = (a, b) if pa.absolute else (b, a)
        colour = holder.preference.colour
        white = holder if colour is Color.WHITE else other
        return _white_to(white, a if white is b else b, Text(ABSOLUTE_OF, player=holder.label))
    # (b) White to the biggest difference between games with Black and games with White
    da, db = -colour_difference(a.colours), -colour_difference(b.colours)
    if da != db:
        white = a if da > db else b
        return _white_to(white, b if white is a else a, Text(COLOUR_DIFFERENCE))
    # (c) colour histories, unplayed games discarded and put at the beginning, compared backwards
    for back, (ca, cb) in enumerate(zip(reversed(a.colours), reversed(b.colours)), start=1):
        if ca is not cb:
            white = a if ca is Color.BLACK else b
            return _white_to(white, b if white is a else a, Text(COLOUR_HISTORY, back=back))
    if a.score != b.score:  # (d) White to the player with less points
        white = a if a.score < b.score else b
        return _white_to(white, b if white is a else a, Text(FEWER_POINTS))
    # (e) the lower pairing number gets the colour he got in the last played round
    lower, higher = (a, b) if a.pairing_number < b.pairing_number else (b, a)
    last = lower.colours[-1] if lower.colours else lower.grid_colour
    if last is None:  # never played and no grid colour (PN-N of an odd field): White
        last = Color.WHITE
    white = lower if last is Color.WHITE else higher
    return _white_to(white, b if white is a else a, Text(REPEATS_LAST, player=lower.label))


def _grid_colours(a: ClockPlayer, b: ClockPlayer) -> ColourDecision:
    """Round 1: the colours of the grid (Appendix A [3]).

    Without absences in round 1 the two always have opposite grid colours. Otherwise the lower
    PN keeps his (PN-N of an odd field has none: the other one keeps his).
    """
    lower, higher = (a, b) if a.pairing_number < b.pairing_number else (b, a)
    keeper = lower if lower.grid_colour is not None else higher
    colour = keeper.grid_colour or Color.WHITE
    white = keeper if colour is Color.WHITE else (higher if keeper is lower else lower)
    return _white_to(white, b if white is a else a, Text(GRID_COLOURS))
