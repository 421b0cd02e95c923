"""Values shared by the pairing engine, the TRF reader/writer, the checker and the tie-breaks.

Everything here is immutable. Points are integers counted in tenths of a point (TRF writes
points with one decimal), so 1.5 points is ``15`` and sums never suffer from rounding.
Players are identified by their TPN (tournament pairing number, C.04.2 Art. 2.3).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

Points = int
"""A number of points, in tenths of a point (``15`` is 1.5 points)."""

TPN = int
"""A tournament pairing number, 1-based."""


def points_number(points: Points) -> float:
    """Points as a number of points, as the API gives them: ``15`` -> ``1.5``."""
    return points / 10


def format_points(points: Points) -> str:
    """Return points the way TRF writes them: ``15`` -> ``'1.5'``, ``-5`` -> ``'-0.5'``."""
    sign = "-" if points < 0 else ""
    whole, tenth = divmod(abs(points), 10)
    return f"{sign}{whole}.{tenth}"


class Color(enum.Enum):
    """A colour in a game; the values are the TRF letters."""

    WHITE = "w"
    BLACK = "b"

    @property
    def opposite(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


class RuleSet(enum.Enum):
    """Which text of the FIDE Dutch system pairs the round."""

    DUTCH_2026 = "2026"
    """C.04.3 approved 28/10/2025, in force since 1 Feb 2026 (the default)."""
    DUTCH_2017 = "2017"
    """C.04.3 Baku 2016 / Goynuk 2017, for events and files from before."""


class ResultCode(enum.Enum):
    """The result letter of a TRF round entry (TRF-16 and TRF-2026 share them)."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    WIN_UNRATED = "W"
    """Won a game that lasted less than one move (not rated)."""
    DRAW_UNRATED = "D"
    LOSS_UNRATED = "L"
    HALF_POINT_BYE = "H"
    """Requested half-point bye."""
    FULL_POINT_BYE = "F"
    """Requested full-point bye (not a pairing-allocated bye)."""
    PAIRING_ALLOCATED_BYE = "U"
    ZERO_POINT_BYE = "Z"
    """Requested zero-point bye or known absence; a blank result means the same."""


# Results of a game that was actually played over the board (C.04.2 Art. 3.4 counts only these
# for colours; a forfeit is not a played game, C.04.2 Art. 3.5).
PLAYED_RESULTS = frozenset(
    {
        ResultCode.WIN,
        ResultCode.DRAW,
        ResultCode.LOSS,
        ResultCode.WIN_UNRATED,
        ResultCode.DRAW_UNRATED,
        ResultCode.LOSS_UNRATED,
    }
)

# Entries that the arbiter records before a round is paired (requested byes and absences); all
# the others are produced by pairing the round.
PRESET_RESULTS = frozenset(
    {ResultCode.HALF_POINT_BYE, ResultCode.FULL_POINT_BYE, ResultCode.ZERO_POINT_BYE}
)


@dataclass(frozen=True)
class PointSystem:
    """Points awarded for each kind of round entry, in tenths (TRF-2026 ``162``, TRF(x) ``XXS``)."""

    win: Points = 10
    draw: Points = 5
    loss: Points = 0
    forfeit_win: Points = 10
    forfeit_loss: Points = 0
    pairing_allocated_bye: Points = 10
    half_point_bye: Points = 5
    full_point_bye: Points = 10
    zero_point_bye: Points = 0

    def points_for(self, entry: RoundEntry) -> Points:
        """Return what one round entry scores under this point system."""
        match entry.result:
            case ResultCode.WIN | ResultCode.WIN_UNRATED:
                return self.win
            case ResultCode.DRAW | ResultCode.DRAW_UNRATED:
                return self.draw
            case ResultCode.LOSS | ResultCode.LOSS_UNRATED:
                return self.loss
            case ResultCode.FORFEIT_WIN:
                return self.forfeit_win
            case ResultCode.FORFEIT_LOSS:
                return self.forfeit_loss if entry.opponent is not None else self.zero_point_bye
            case ResultCode.PAIRING_ALLOCATED_BYE:
                return self.pairing_allocated_bye
            case ResultCode.HALF_POINT_BYE:
                return self.half_point_bye
            case ResultCode.FULL_POINT_BYE:
                return self.full_point_bye
            case ResultCode.ZERO_POINT_BYE:
                return self.zero_point_bye


STANDARD_POINTS = PointSystem()


@dataclass(frozen=True)
class RoundEntry:
    """What happened to one player in one round (one 10-column block of a TRF ``001`` line).

    ``opponent`` is None for byes and absences; ``color`` is None where no colour was assigned.
    A forfeit keeps the scheduled opponent and colour. A double forfeit is ``-`` on both sides.
    ``0000 - -`` (absent, not paired) is read as ``ZERO_POINT_BYE`` with no opponent, as
    ``0000 - Z`` (a requested zero-point bye) is: the same to every rule; ``absent`` keeps how
    it was written (``pairing.outcomes``).
    """

    opponent: TPN | None
    color: Color | None
    result: ResultCode
    absent: bool = field(default=False, compare=False)
    """Written ``0000 - -`` or blank: not paired (an absence), not a requested bye."""

    @property
    def game_was_played(self) -> bool:
        """Return whether a game was played over the board (counts for colours and floats)."""
        return self.opponent is not None and self.result in PLAYED_RESULTS

    @property
    def was_paired(self) -> bool:
        """Return whether the pairing produced this entry (a game, a forfeit or the PAB)."""
        return self.opponent is not None or self.result is ResultCode.PAIRING_ALLOCATED_BYE

    @property
    def is_preset(self) -> bool:
        """Return whether the entry is a requested bye or an absence, known before pairing."""
        return self.opponent is None and self.result in PRESET_RESULTS


@dataclass(frozen=True)
class Player:
    """A participant: the ``001`` record. ``rounds[0]`` is round 1."""

    tpn: TPN
    name: str
    rating: int | None = None
    title: str = ""
    sex: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    declared_points: Points | None = None
    """The points column as written in the file (checked against the results by the reader)."""
    rank: int | None = None
    rounds: tuple[RoundEntry, ...] = ()


@dataclass(frozen=True)
class Acceleration:
    """Virtual points added for pairing purposes only (TRF-2026 ``250``, TRF(x) ``XXA``)."""

    tpn: TPN
    round: int
    points: Points


@dataclass(frozen=True)
class ForbiddenPairs:
    """Players who must not be paired with each other (TRF-2026 ``260``, TRF(x) ``XXP``)."""

    tpns: frozenset[TPN]
    first_round: int = 1
    last_round: int | None = None
    """None: until the end of the tournament."""

    def applies_to(self, round_number: int) -> bool:
        last = self.last_round if self.last_round is not None else round_number
        return self.first_round <= round_number <= last


@dataclass(frozen=True)
class Tournament:
    """A tournament as a pairing program sees it: players with their round entries, and rules.

    The state before pairing round k holds rounds 1..k-1 for every player and, in column k,
    only the entries known before pairing (requested byes, absences: ``RoundEntry.is_preset``).
    """

    players: tuple[Player, ...]
    total_rounds: int | None = None
    """Declared number of rounds (``XXR``/``142``); needed to know the final round."""
    initial_color: Color | None = None
    """The colour drawn by lot for TPN 1 in round 1 (``XXC``/``152``), C.04.3 Art. 5.1."""
    rules: RuleSet = RuleSet.DUTCH_2026
    point_system: PointSystem = STANDARD_POINTS
    accelerations: tuple[Acceleration, ...] = ()
    forbidden_pairs: tuple[ForbiddenPairs, ...] = ()
    baku: bool = False
    """``192 ..._BAKU``: the engine derives Baku acceleration itself (C.04.7)."""
    name: str = ""
    tournament_type: str = ""
    """The ``192`` code as written, e.g. ``FIDE_DUTCH_2025``."""
    other_records: tuple[tuple[str, str], ...] = field(default=())
    """Header records kept verbatim for the writer: (three-character code, rest of the line)."""

    def player(self, tpn: TPN) -> Player:
        return self.players[tpn - 1] if self.players[tpn - 1].tpn == tpn else next(
            p for p in self.players if p.tpn == tpn
        )


@dataclass(frozen=True)
class Board:
    """One pair of a round: White first, as engines print it."""

    white: TPN
    black: TPN


@dataclass(frozen=True)
class RoundPairing:
    """The engine's answer for one round."""

    round: int
    boards: tuple[Board, ...]
    bye: TPN | None = None
    """The player who receives the pairing-allocated bye, if any."""
    explanation: tuple[str, ...] = ()
    """A human-readable account of the pairing, bracket by bracket."""

    def engine_lines(self) -> list[str]:
        """Return the bbpPairings/JaVaFo output: a count, then ``white black``, the bye as
        ``tpn 0``."""
        lines = [f"{b.white} {b.black}" for b in self.boards]
        if self.bye is not None:
            lines.append(f"{self.bye} 0")
        return [str(len(lines)), *lines]
