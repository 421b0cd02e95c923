"""What the Double-Swiss rules read about each player before a match is paired."""

from __future__ import annotations

from dataclasses import dataclass

from pairing.double_swiss import rules
from pairing.double_swiss.model import DoubleSwissTournament
from pairing.model import TPN, Color, Points

__all__ = ["PlayerState", "build_players"]


@dataclass(frozen=True)
class PlayerState:
    """One player to pair, as the pairing of match k sees them."""

    tpn: TPN
    score: Points
    """Art. 1.2.1, reading 1: game points plus the match values of byes."""
    met: frozenset[TPN]
    """[C1]: the opponents of the matches played."""
    may_receive_pab: bool
    """[C2]."""
    matches_played: int
    """Art. 3.4.3."""
    floated: bool
    """Art. 1.5: a floater in the previous match (reading 10)."""
    colours: tuple[Color, ...]
    """Art. 1.6: the match colours, oldest first, colourless matches left out (reading 4)."""


def build_players(dt: DoubleSwissTournament, k: int) -> tuple[PlayerState, ...]:
    """Return the players to pair in match k (reading 15: not those with a pre-set bye)."""
    ps = dt.point_system
    players = []
    for tpn in dt.tpns:
        own = dt.matches_of(tpn)
        if len(own) >= k and own[k - 1].is_preset:
            continue
        before = own[: k - 1]
        previous = own[k - 2] if k >= 2 and len(own) >= k - 1 else None
        floated = previous is not None and previous.opponent is not None and rules.floated(
            previous, dt.score(tpn, k - 1), dt.score(previous.opponent, k - 1)
        )
        players.append(
            PlayerState(
                tpn=tpn,
                score=sum(m.points(ps) for m in before),
                met=rules.opponents_met(before),
                may_receive_pab=rules.may_receive_pab(before, ps),
                matches_played=rules.matches_played(before),
                floated=floated,
                colours=rules.colour_history(before, ps),
            )
        )
    return tuple(players)
