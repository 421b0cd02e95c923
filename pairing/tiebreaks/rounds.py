"""How each round of each player counts for the tie-breaks (C.07 Art. 16, unplayed rounds).

A :class:`RoundRecord` is one round of one participant, classified once:

* what happened (:class:`Kind`): a game played over the board, a forfeit won or lost, the
  pairing-allocated bye, a requested bye, or an absence;
* whether it is a *voluntary unplayed round* (VUR, Art. 16.1.2: a requested half- or zero-point
  bye, an absence, or a forfeit loss);
* what the round is worth for the participant's opponents (Art. 16.3): the points actually
  scored (16.3.1), except a requested bye (or absence) followed only by VURs, i.e. at the end
  of one's tournament (16.2.5), which counts as a draw (16.3.2).

All values are :class:`fractions.Fraction` (points of the tournament's point system), so sums
are exact.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from pairing.model import Color, PointSystem, ResultCode, RoundEntry, Tournament
from pairing.outcomes import Outcome

from .errors import TieBreakInputError


class Kind(enum.Enum):
    """What a round was for one participant: the categories of C.07 Art. 16.2, one for each
    outcome of ``pairing.outcomes`` (``_KINDS``)."""

    PLAYED = "played"
    """A game played over the board (Art. 16.1: not an unplayed round)."""
    FORFEIT_WIN = "forfeit win"
    """Art. 16.2.2: the scheduled opponent did not appear."""
    FORFEIT_LOSS = "forfeit loss"
    """Art. 16.2.4 (double forfeits count as a forfeit loss for both)."""
    PAB = "pairing-allocated bye"
    """Art. 16.2.1."""
    FULL_POINT_BYE = "requested full-point bye"
    HALF_POINT_BYE = "requested half-point bye"
    ZERO_POINT_BYE = "requested zero-point bye or absence"

    @property
    def is_forfeit(self) -> bool:
        return self in (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS)

    @property
    def is_requested_bye(self) -> bool:
        """A bye the participant asked for, or an absence (not paired, Art. 16.2.3/16.2.5)."""
        return self in (Kind.HALF_POINT_BYE, Kind.ZERO_POINT_BYE)


_VOLUNTARY = frozenset({Kind.FORFEIT_LOSS, Kind.HALF_POINT_BYE, Kind.ZERO_POINT_BYE})

_WON = frozenset({ResultCode.WIN, ResultCode.WIN_UNRATED})
_DRAWN = frozenset({ResultCode.DRAW, ResultCode.DRAW_UNRATED})


@dataclass(frozen=True)
class RoundRecord:
    """One round of one participant, as the tie-breaks see it."""

    round: int
    kind: Kind
    points: Fraction
    """Points scored in the round under the tournament's point system."""
    opponent: int | None
    """The scheduled opponent (kept for forfeits), None for byes and absences."""
    color: Color | None
    game_score: Fraction | None
    """1, 1/2 or 0 for a game played over the board (rating tie-breaks); None otherwise."""
    vur: bool
    """A voluntary unplayed round (Art. 16.1.2)."""
    end_vur: bool = False
    """A requested bye or absence followed only by VURs (Art. 16.2.5): a draw for opponents."""

    @property
    def played(self) -> bool:
        return self.kind is Kind.PLAYED

    @property
    def won_over_the_board(self) -> bool:
        return self.played and self.game_score == 1


_KINDS = {
    Outcome.WIN: Kind.PLAYED,
    Outcome.DRAW: Kind.PLAYED,
    Outcome.LOSS: Kind.PLAYED,
    Outcome.FORFEIT_WIN: Kind.FORFEIT_WIN,
    Outcome.FORFEIT_LOSS: Kind.FORFEIT_LOSS,
    Outcome.PAIRING_ALLOCATED_BYE: Kind.PAB,
    Outcome.FULL_POINT_BYE: Kind.FULL_POINT_BYE,
    Outcome.HALF_POINT_BYE: Kind.HALF_POINT_BYE,
    Outcome.ZERO_POINT_BYE: Kind.ZERO_POINT_BYE,
    Outcome.ABSENT: Kind.ZERO_POINT_BYE,
    Outcome.NOT_PLAYED: Kind.ZERO_POINT_BYE,
}
"""The category of C.07 Art. 16 of each outcome (``pairing.outcomes``)."""

_GAME_SCORES = {Outcome.WIN: Fraction(1), Outcome.DRAW: Fraction(1, 2), Outcome.LOSS: Fraction(0)}


def _classify(entry: RoundEntry | None, ps: PointSystem) -> tuple[Kind, Fraction, Fraction | None]:
    if entry is None:  # no entry for this round: not in the tournament yet, or left
        return Kind.ZERO_POINT_BYE, Fraction(ps.zero_point_bye, 10), None
    points = Fraction(ps.points_for(entry), 10)
    try:
        outcome = Outcome.of_entry(entry)
    except KeyError:
        raise TieBreakInputError(f"result {entry.result.value!r} without an opponent") from None
    return _KINDS[outcome], points, _GAME_SCORES.get(outcome)


def player_records(
    entries: tuple[RoundEntry, ...], rounds: int, ps: PointSystem
) -> tuple[RoundRecord, ...]:
    """Classify rounds 1..rounds of one participant (missing entries are absences)."""
    raw = []
    for r in range(1, rounds + 1):
        entry = entries[r - 1] if r <= len(entries) else None
        kind, points, score = _classify(entry, ps)
        raw.append(
            RoundRecord(
                round=r,
                kind=kind,
                points=points,
                opponent=entry.opponent if entry is not None else None,
                color=entry.color if entry is not None and entry.opponent is not None else None,
                game_score=score,
                vur=kind in _VOLUNTARY,
            )
        )
    # Art. 16.2.5: a requested bye (or absence) followed only by voluntary unplayed rounds.
    out = list(raw)
    all_later_vur = True
    for i in range(len(raw) - 1, -1, -1):
        rec = raw[i]
        if rec.kind.is_requested_bye and all_later_vur:
            out[i] = RoundRecord(**{**rec.__dict__, "end_vur": True})
        all_later_vur = all_later_vur and rec.vur
    return tuple(out)


def rounds_of(t: Tournament) -> int:
    """The number of rounds with any entry (the standings are computed after this round)."""
    return max((len(p.rounds) for p in t.players), default=0)


def check_consistency(t: Tournament, records: dict[int, tuple[RoundRecord, ...]]) -> None:
    """Both sides of every game must agree (opponent, result); raise TieBreakInputError if not."""
    for tpn, recs in records.items():
        for rec in recs:
            if rec.opponent is None:
                continue
            other = records.get(rec.opponent)
            if other is None:
                raise TieBreakInputError(
                    f"player {tpn}, round {rec.round}: opponent {rec.opponent} does not exist"
                )
            mirror = other[rec.round - 1]
            if mirror.opponent != tpn:
                raise TieBreakInputError(
                    f"player {tpn}, round {rec.round}: paired with {rec.opponent}, "
                    f"who has {mirror.opponent or 'no opponent'} in that round"
                )
            if rec.played != mirror.played or (
                rec.played
                and cast(Fraction, rec.game_score) + cast(Fraction, mirror.game_score) != 1
            ):
                raise TieBreakInputError(
                    f"round {rec.round}: the results of {tpn} and {rec.opponent} do not match"
                )
