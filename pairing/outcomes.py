"""What a player got in a round, and what a board's result gives each side: one vocabulary for
the engine, its files and the web app.

An :class:`Outcome` is one player's round, in the words of C.04.2 and C.07 Art. 16: a game won,
drawn or lost over the board, a forfeit won or lost, the pairing-allocated bye (PAB), a
requested half-, full- or zero-point bye, an absence (not paired: absent, withdrawn, not yet
arrived), or a pairing whose game was annulled (not played). A :class:`GameResult` is what a
board holds: an outcome for White and one for Black, written as on a scoresheet (``1-0``).

A TRF file writes an outcome as a round entry (``pairing.model.RoundEntry``): :meth:`Outcome.entry`
and :meth:`Outcome.of_entry` are the one table in each direction. The file cannot tell every
outcome apart, and this is how each is written and read:

- a requested zero-point bye is ``0000 - Z`` and an absence ``0000 - -`` (a blank result is an
  absence too): both score the zero-point bye's points and are not paired, as every engine
  reads them;
- a game annulled (``0/0``) leaves both players unpaired, written as absences; the web app
  names the pair in a ``###`` line of its own (``tournaments.services.trf_notes``);
- a game that lasted less than one move (``W``, ``D``, ``L``) is read as its result over the
  board by :meth:`Outcome.of_entry` (:meth:`Outcome.rated_entry` tells them apart).

>>> GameResult.WHITE_WINS_FORFEIT.outcomes
(<Outcome.FORFEIT_WIN: 'forfeit win'>, <Outcome.FORFEIT_LOSS: 'forfeit loss'>)
>>> Outcome.HALF_POINT_BYE.entry().result
<ResultCode.HALF_POINT_BYE: 'H'>
>>> Outcome.of_entry(Outcome.ABSENT.entry())
<Outcome.ABSENT: 'absent'>
>>> GameResult.of_outcomes(Outcome.LOSS, Outcome.WIN)
<GameResult.BLACK_WINS: '0-1'>
>>> Outcome.DRAW.points(PointSystem(win=30, draw=10))
10
"""

from __future__ import annotations

import enum

from pairing.model import TPN, Color, Points, PointSystem, ResultCode, RoundEntry

__all__ = ["GameResult", "Outcome"]


class Outcome(enum.Enum):
    """What one player got in one round."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit win"
    """The scheduled opponent did not appear (C.04.2 Art. 3.5)."""
    FORFEIT_LOSS = "forfeit loss"
    """Did not appear for a scheduled game; a double forfeit is one for each player."""
    PAIRING_ALLOCATED_BYE = "pairing-allocated bye"
    HALF_POINT_BYE = "half-point bye"
    """Requested (C.04.2 Art. 3.3)."""
    FULL_POINT_BYE = "full-point bye"
    """Requested, where the rules of the event allow it."""
    ZERO_POINT_BYE = "zero-point bye"
    """Requested, or an announced absence."""
    ABSENT = "absent"
    """Not paired: absent, withdrawn (Art. 3.2), or not yet arrived (Art. 2.4)."""
    NOT_PLAYED = "not played"
    """Paired, and the game annulled: neither player scores, as if not paired."""

    @property
    def code(self) -> ResultCode:
        """The TRF result letter."""
        return _CODES[self]

    @property
    def has_opponent(self) -> bool:
        """Whether the round entry names an opponent (a game or a forfeit)."""
        return self in _WITH_OPPONENT

    @property
    def game_was_played(self) -> bool:
        """Whether a game was played over the board."""
        return self in _PLAYED

    def points(self, points: PointSystem) -> Points:
        """What the outcome scores under a point system (TRF-2026 ``162``)."""
        return points.points_for(self.entry(0 if self.has_opponent else None))

    def entry(self, opponent: TPN | None = None, color: Color | None = None) -> RoundEntry:
        """The outcome as a TRF round entry; a game's needs the opponent and the colour."""
        if self.has_opponent:
            if opponent is None:
                raise ValueError(f"a {self.value} needs an opponent")
            return RoundEntry(opponent, color, self.code)
        return RoundEntry(None, None, self.code, absent=self in _WRITTEN_ABSENT)

    @classmethod
    def of_entry(cls, entry: RoundEntry) -> Outcome:
        """The outcome a TRF round entry records (a game of less than one move: its result)."""
        if entry.opponent is None:
            if entry.result is ResultCode.ZERO_POINT_BYE and entry.absent:
                return cls.ABSENT
            return _WITHOUT_OPPONENT[entry.result]
        return _WITH_OPPONENT_READ[entry.result]

    @staticmethod
    def rated_entry(entry: RoundEntry) -> bool:
        """Whether an entry's game counts for rating: not a game of less than one move."""
        return entry.result not in _UNRATED


_CODES = {
    Outcome.WIN: ResultCode.WIN,
    Outcome.DRAW: ResultCode.DRAW,
    Outcome.LOSS: ResultCode.LOSS,
    Outcome.FORFEIT_WIN: ResultCode.FORFEIT_WIN,
    Outcome.FORFEIT_LOSS: ResultCode.FORFEIT_LOSS,
    Outcome.PAIRING_ALLOCATED_BYE: ResultCode.PAIRING_ALLOCATED_BYE,
    Outcome.HALF_POINT_BYE: ResultCode.HALF_POINT_BYE,
    Outcome.FULL_POINT_BYE: ResultCode.FULL_POINT_BYE,
    Outcome.ZERO_POINT_BYE: ResultCode.ZERO_POINT_BYE,
    Outcome.ABSENT: ResultCode.ZERO_POINT_BYE,
    Outcome.NOT_PLAYED: ResultCode.ZERO_POINT_BYE,
}
"""The one table to TRF letters."""

_WITH_OPPONENT = frozenset({
    Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS,
})
_PLAYED = frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS})
_WRITTEN_ABSENT = frozenset({Outcome.ABSENT, Outcome.NOT_PLAYED})
"""Outcomes written ``0000 - -`` (not paired), not ``0000 - Z`` (a requested bye)."""

_WITHOUT_OPPONENT = {
    ResultCode.PAIRING_ALLOCATED_BYE: Outcome.PAIRING_ALLOCATED_BYE,
    ResultCode.HALF_POINT_BYE: Outcome.HALF_POINT_BYE,
    ResultCode.FULL_POINT_BYE: Outcome.FULL_POINT_BYE,
    ResultCode.ZERO_POINT_BYE: Outcome.ZERO_POINT_BYE,
    ResultCode.FORFEIT_LOSS: Outcome.ABSENT,  # a forfeit without an opponent: not paired
}
_WITH_OPPONENT_READ = {
    ResultCode.WIN: Outcome.WIN,
    ResultCode.DRAW: Outcome.DRAW,
    ResultCode.LOSS: Outcome.LOSS,
    ResultCode.WIN_UNRATED: Outcome.WIN,
    ResultCode.DRAW_UNRATED: Outcome.DRAW,
    ResultCode.LOSS_UNRATED: Outcome.LOSS,
    ResultCode.FORFEIT_WIN: Outcome.FORFEIT_WIN,
    ResultCode.FORFEIT_LOSS: Outcome.FORFEIT_LOSS,
}
_UNRATED = frozenset({ResultCode.WIN_UNRATED, ResultCode.DRAW_UNRATED, ResultCode.LOSS_UNRATED})


class GameResult(enum.Enum):
    """The result of a board, White's side first, as a scoresheet writes it (the value)."""

    WHITE_WINS = "1-0"
    DRAW = "1/2-1/2"
    BLACK_WINS = "0-1"
    WHITE_WINS_FORFEIT = "+/-"
    BLACK_WINS_FORFEIT = "-/+"
    DOUBLE_FORFEIT = "-/-"
    NOT_PLAYED = "0/0"
    """Annulled: neither player scores, as if they were not paired."""
    # Only a game of a Double-Swiss match has these (C.04.5 Preface: ½-0, 0-½ and 0-0).
    WHITE_HALF_BLACK_ZERO = "1/2-0"
    WHITE_ZERO_BLACK_HALF = "0-1/2"
    BOTH_LOSE = "0-0"

    @property
    def outcomes(self) -> tuple[Outcome, Outcome]:
        """White's outcome and Black's."""
        return _GAME_OUTCOMES[self]

    @property
    def with_colours_exchanged(self) -> GameResult:
        """The same result once White and Black are exchanged (C.04.2 Art. 4.3.2): the winner
        keeps the win."""
        white, black = self.outcomes
        return GameResult.of_outcomes(black, white)

    @property
    def in_a_match_only(self) -> bool:
        """A result only a game of a Double-Swiss match may have."""
        return self in _MATCH_ONLY

    @classmethod
    def of_outcomes(cls, white: Outcome, black: Outcome) -> GameResult:
        """The result that gives White and Black these outcomes; raise KeyError if none."""
        return _OF_OUTCOMES[(white, black)]

    def entries(self, white: TPN, black: TPN) -> tuple[RoundEntry, RoundEntry]:
        """White's round entry and Black's (an annulled game leaves both unpaired)."""
        w, b = self.outcomes
        if self is GameResult.NOT_PLAYED:
            return w.entry(), b.entry()
        return w.entry(black, Color.WHITE), b.entry(white, Color.BLACK)


_GAME_OUTCOMES = {
    GameResult.WHITE_WINS: (Outcome.WIN, Outcome.LOSS),
    GameResult.DRAW: (Outcome.DRAW, Outcome.DRAW),
    GameResult.BLACK_WINS: (Outcome.LOSS, Outcome.WIN),
    GameResult.WHITE_WINS_FORFEIT: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    GameResult.BLACK_WINS_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    GameResult.DOUBLE_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
    GameResult.NOT_PLAYED: (Outcome.NOT_PLAYED, Outcome.NOT_PLAYED),
    GameResult.WHITE_HALF_BLACK_ZERO: (Outcome.DRAW, Outcome.LOSS),
    GameResult.WHITE_ZERO_BLACK_HALF: (Outcome.LOSS, Outcome.DRAW),
    GameResult.BOTH_LOSE: (Outcome.LOSS, Outcome.LOSS),
}
_OF_OUTCOMES = {outcomes: result for result, outcomes in _GAME_OUTCOMES.items()}
_MATCH_ONLY = frozenset(
    {GameResult.WHITE_HALF_BLACK_ZERO, GameResult.WHITE_ZERO_BLACK_HALF, GameResult.BOTH_LOSE}
)
