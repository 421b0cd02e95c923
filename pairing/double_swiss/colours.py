"""Colour allocation of the Double-Swiss system (C.04.5 Art. 4).

The colour given is the colour of game 1; game 2 is played with the other (Art. 4.4). Only
these rules apply, in this order; neither C.04.1 Art. 6 nor Art. 7 (reading 14).
"""

from __future__ import annotations

from pairing.double_swiss.players import PlayerState
from pairing.model import Board, Color

__all__ = ["allocate_colours", "higher_ranked"]


def higher_ranked(a: PlayerState, b: PlayerState) -> tuple[PlayerState, PlayerState]:
    """Art. 4.2: return (HRP, opponent): the higher score, then the smaller TPN."""
    return (a, b) if (-a.score, a.tpn) < (-b.score, b.tpn) else (b, a)


def allocate_colours(
    a: PlayerState, b: PlayerState, initial_colour: Color | None
) -> tuple[Board, str]:
    """Return the board (White in game 1 first) and the article that decided it."""
    hrp, opp = higher_ranked(a, b)
    colour, article = _hrp_colour(hrp, opp, initial_colour or Color.WHITE)
    board = Board(hrp.tpn, opp.tpn) if colour is Color.WHITE else Board(opp.tpn, hrp.tpn)
    return board, article


def _hrp_colour(hrp: PlayerState, opp: PlayerState, initial: Color) -> tuple[Color, str]:
    """Art. 4.3: the HRP's colour, by the first rule that decides it."""
    mine, theirs = hrp.colours, opp.colours
    if not mine and not theirs:  # 4.3.1 (reading 12: both histories empty)
        return (initial if hrp.tpn % 2 else initial.opposite), "4.3.1"
    whites_mine = mine.count(Color.WHITE)
    whites_theirs = theirs.count(Color.WHITE)
    if whites_mine != whites_theirs:  # 4.3.2
        return (Color.WHITE if whites_mine < whites_theirs else Color.BLACK), "4.3.2"
    for x, y in zip(reversed(mine), reversed(theirs)):  # 4.3.3, right-aligned (reading 13)
        if x is not y:
            return x.opposite, "4.3.3"
    if mine:  # 4.3.4
        return mine[-1].opposite, "4.3.4"
    return theirs[-1], "4.3.5"  # the opponent alternates, so the HRP gets its last colour
