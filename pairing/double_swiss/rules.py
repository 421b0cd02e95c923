"""The Double-Swiss readings of the rules that C.04.5 shares with the other Swiss systems.

Where the text is the same as C.04.1-C.04.3, the predicates of ``pairing.rules`` are called on
the matches (each as one round entry, ``Match.as_round_entry``). Where C.04.5 says something
else, the predicate is here, with the difference in its docstring.
"""

from __future__ import annotations

from collections.abc import Iterable

from pairing import rules
from pairing.double_swiss.model import Match
from pairing.model import TPN, Color, Points, PointSystem, ResultCode

__all__ = ["colour_history", "floated", "may_receive_pab", "matches_played", "opponents_met"]


def opponents_met(matches: Iterable[Match]) -> frozenset[TPN]:
    """[C1] (C.04.1 Art. 2): the opponents of the matches played.

    Differs from ``pairing.rules.opponents_met``, which needs a game played: here only a
    forfeit match (a player forfeited both games) is not a meeting, so a match whose two
    games were each forfeited by a different player still counts (Preface, reading 2).
    """
    return frozenset(m.opponent for m in matches if m.was_played and m.opponent is not None)


def may_receive_pab(matches: Iterable[Match], ps: PointSystem) -> bool:
    """[C2] (Art. 2.1.2): not after a PAB, a forfeit match won, or a full-point bye.

    Differs from ``pairing.rules.may_receive_pab`` (C.04.1 Art. 4: any round scoring a win
    without playing): a game won by forfeit inside a regular match does not bar the PAB, a
    requested bye worth as much as a won match does not either; only the forfeit *match*
    won counts (reading 3).
    """
    for m in matches:
        if m.bye in (ResultCode.PAIRING_ALLOCATED_BYE, ResultCode.FULL_POINT_BYE):
            return False
        if m.won_by_forfeit(ps):
            return False
    return True


def matches_played(matches: Iterable[Match]) -> int:
    """Art. 3.4.3: the matches played (a forfeit match is not one, reading 2)."""
    return sum(1 for m in matches if m.was_played)


def colour_history(matches: Iterable[Match], ps: PointSystem) -> tuple[Color, ...]:
    """Art. 1.6 with C.04.2 Art. 3.4: the match colours, matches without one left out."""
    return rules.played_colours(m.as_round_entry(ps) for m in matches)


def floated(match: Match, score: Points, opponent_score: Points) -> bool:
    """Art. 1.5: whether the match made the player a floater (reading 10).

    Differs from ``pairing.rules.float_received`` (C.04.3 Art. 1.4): a PAB, a bye, an absence
    or a forfeit match is no float; only a match played against a different score is.
    """
    return match.was_played and score != opponent_score
