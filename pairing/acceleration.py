"""Baku acceleration (FIDE C.04.7, formerly C.04.5.1): the virtual points the engine derives.

A tournament whose ``192`` code ends in ``_BAKU`` and that carries no explicit ``250``/``XXA``
lines (explicit lines override ``_BAKU``, TRF-2026 ``250``) is paired with these virtual points.
They change the pairing score only (score groups, floats), never the standings.

The method, as C.04.7 states it:

- It applies only with the standard scoring (1 for a win, ½ for a draw, 0 for a loss).
- Initial groups division: before round 1 the properly sorted list of the players to be paired
  is split into GA, "the first half of the players, rounded up to the nearest even number"
  (2·⌈N/4⌉, so N = 161 gives 82), and GB, the rest.
- Late entries are placed in the list by C.04.2 Art. 2 and "the last GA-player shall be the
  same as in the previous round": GA is every player whose TPN is not after that player's TPN,
  so GA may become odd.
- The accelerated rounds are the first half (rounded up) of the rounds, A = ⌈R/2⌉. GA players
  get 1 virtual point before pairing each of the first ⌈A/2⌉ of them and ½ before the others;
  GB players, and every player after round A, get nothing.

In a TRF file a late entry and a player absent from round 1 look the same (``0000 - Z`` or
``0000 - -`` in round 1): both are read as not being on the list of round 1.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping

from pairing.errors import UnsupportedFeature
from pairing.model import TPN, Points, ResultCode, Tournament
from pairing.text import Text, gettext_noop

__all__ = [
    "BakuNeedsStandardScoring",
    "BakuNeedsRoundCount",
    "GroupARule",
    "accelerated_rounds",
    "group_a",
    "initial_players",
    "virtual_point_value",
    "virtual_points",
]

ONE_POINT: Points = 10
HALF_POINT: Points = 5


# Why a file cannot be paired with Baku acceleration (the web app says it in the reader's
# language).
BAKU_STANDARD_SCORING = gettext_noop(
    "C.04.7 Baku acceleration is applicable only with the standard scoring point system "
    "(1 for a win, 1/2 for a draw, 0 for a loss)"
)
BAKU_ROUND_COUNT = gettext_noop(
    "C.04.7 Baku acceleration needs the number of rounds of the tournament (XXR or 142)"
)


class BakuNeedsStandardScoring(UnsupportedFeature):
    """C.04.7 Baku acceleration is only applicable with the standard scoring (1, ½, 0)."""

    def __init__(self) -> None:
        super().__init__(Text(BAKU_STANDARD_SCORING))


class BakuNeedsRoundCount(UnsupportedFeature):
    """C.04.7 counts the accelerated rounds from the number of rounds (``XXR``/``142``)."""

    def __init__(self) -> None:
        super().__init__(Text(BAKU_ROUND_COUNT))


class GroupARule(enum.Enum):
    """Which players form GA."""

    FIDE = "fide"
    """C.04.7: the first half of the N players of round 1 rounded up to the nearest even number,
    2·⌈N/4⌉ (161 -> 82); late entries by their TPN against the last GA player."""
    BBPPAIRINGS = "bbppairings"
    """bbpPairings v6 ``applyBakuAcceleration``: the first ⌈N/2⌉ TPNs (161 -> 81), N counting
    every player in the file, late entries included (it has no late-entry rule). Kept to measure
    which reading the corpus ``_baku`` files follow; it is not the FIDE text."""

    def size(self, n: int) -> int:
        if self is GroupARule.FIDE:
            return 2 * math.ceil(n / 4)
        return math.ceil(n / 2)


def accelerated_rounds(total_rounds: int) -> tuple[int, int]:
    """Return (A, F): A = ⌈R/2⌉ accelerated rounds, of which the first F = ⌈A/2⌉ give 1 point."""
    accelerated = math.ceil(total_rounds / 2)
    return accelerated, math.ceil(accelerated / 2)


def virtual_point_value(total_rounds: int, round_number: int) -> Points:
    """Return the virtual points of a GA player before pairing a round, in tenths (C.04.7)."""
    accelerated, full = accelerated_rounds(total_rounds)
    if round_number <= full:
        return ONE_POINT
    if round_number <= accelerated:
        return HALF_POINT
    return 0


def _absent_from_round_one(t: Tournament, tpn: TPN) -> bool:
    """Return whether round 1 of a player is a zero-point absence (a late entry, in a TRF)."""
    rounds = t.player(tpn).rounds
    if not rounds:
        return False
    first = rounds[0]
    return not first.was_paired and first.result is ResultCode.ZERO_POINT_BYE


def initial_players(t: Tournament) -> list[TPN]:
    """Return the TPNs on the list of round 1, in order: every player but the late entries.

    A requested half- or full-point bye in round 1 keeps a player on the list; a zero-point
    absence in round 1 is how a TRF shows a late entry, so such a player is not on it.
    """
    return sorted(p.tpn for p in t.players if not _absent_from_round_one(t, p.tpn))


def group_a(t: Tournament, rule: GroupARule = GroupARule.FIDE) -> frozenset[TPN]:
    """Return the TPNs of GA (C.04.7 "Initial Groups Division" and "Late entries").

    GA is cut from the list of round 1; a late entry joins GA when its TPN comes before the
    last GA player's TPN ("the last GA-player shall be the same as in the previous round").
    ``GroupARule.BBPPAIRINGS`` cuts the whole list of the file instead.
    """
    if rule is GroupARule.BBPPAIRINGS:
        first_list = sorted(p.tpn for p in t.players)
    else:
        first_list = initial_players(t)
    size = min(rule.size(len(first_list)), len(first_list))
    if size == 0:
        return frozenset()
    last_ga_player = first_list[size - 1]
    return frozenset(p.tpn for p in t.players if p.tpn <= last_ga_player)


def virtual_points(
    t: Tournament, round_number: int, rule: GroupARule = GroupARule.FIDE
) -> Mapping[TPN, Points]:
    """Return every player's virtual points before pairing a round, in tenths (C.04.7).

    Raises ``BakuNeedsStandardScoring`` for any other point system and ``BakuNeedsRoundCount``
    when the number of rounds is unknown.
    """
    ps = t.point_system
    if (ps.win, ps.draw, ps.loss) != (ONE_POINT, HALF_POINT, 0):
        raise BakuNeedsStandardScoring()
    if t.total_rounds is None:
        raise BakuNeedsRoundCount()
    value = virtual_point_value(t.total_rounds, round_number)
    ga = group_a(t, rule) if value else frozenset()
    return {p.tpn: value if p.tpn in ga else 0 for p in t.players}
