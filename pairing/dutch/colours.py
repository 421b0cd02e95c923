"""Colour allocation for a pair (C.04.3 Art. 5; 2017 text: section E)."""

from __future__ import annotations

from pairing.dutch.players import PlayerState
from pairing.model import Board, Color, Tournament

__all__ = ["allocate_colours"]


def _ranked_below(a: PlayerState, b: PlayerState) -> bool:
    """Return whether a is ranked below b (Art. 1.2: score, then TPN)."""
    return (a.score, -a.rank_index) < (b.score, -b.rank_index)


def _neutral_colour(a: PlayerState, b: PlayerState) -> Color | None:
    """Return a's colour by Art. 5.2.1-5.2.3, or None when they do not decide."""
    if a.preference is None or b.preference is None or a.preference is not b.preference:
        # Art. 5.2.1: grant both colour preferences
        if a.preference is not None:
            return a.preference
        if b.preference is not None:
            return b.preference.opposite
        return None
    # Art. 5.2.2: grant the stronger preference; both absolute: the wider colour difference
    if a.absolute and (a.imbalance > b.imbalance or not b.absolute):
        return a.preference
    if b.absolute and (b.imbalance > a.imbalance or not a.absolute):
        return b.preference.opposite
    if a.strong and not b.strong:
        return a.preference
    if b.strong and not a.strong:
        return b.preference.opposite
    # Art. 5.2.3: alternate to the most recent round in which their colours differed
    for mine, theirs in zip(reversed(a.colors), reversed(b.colors)):
        if mine is not theirs:
            return theirs
    return None


def allocate_colours(t: Tournament, a: PlayerState, b: PlayerState) -> Board:
    """Return the board of a pair with White first."""
    if b.tpn < a.tpn:
        a, b = b, a
    colour = _neutral_colour(a, b)
    if colour is None:
        initial = t.initial_color or Color.WHITE
        if a.preference is None:
            # Art. 5.2.5: the higher ranked player gets the initial colour when their
            # number is odd (rank_index is 0-based), otherwise the opposite colour
            higher = b if _ranked_below(a, b) else a
            higher_colour = initial if higher.rank_index % 2 == 0 else initial.opposite
            colour = higher_colour if higher is a else higher_colour.opposite
        else:
            # Art. 5.2.4: grant the preference of the higher ranked player
            colour = b.preference.opposite if _ranked_below(a, b) else a.preference
    if colour is Color.WHITE:
        return Board(a.tpn, b.tpn)
    return Board(b.tpn, a.tpn)
