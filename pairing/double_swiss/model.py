"""Matches of the FIDE Double-Swiss system (C.04.5, in force 1 Feb 2026).

A Double-Swiss pairing is a match of two games with alternating colours (Preface, Art. 4.4). In
a file each match takes two TRF round columns (game 1, game 2); this module turns those columns
into ``Match`` values and reads off what the pairing rules need: scores, opponents met,
colours, floats. Game values (W, D, L, A) count per game, bye values (P, H, F, Z) per match;
both live in one ``PointSystem`` (``pairing_allocated_bye``, ``half_point_bye``,
``full_point_bye`` and ``zero_point_bye`` are match values here).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pairing.model import (
    PLAYED_RESULTS,
    TPN,
    Color,
    Points,
    PointSystem,
    ResultCode,
    RoundEntry,
    Tournament,
)

__all__ = [
    "DOUBLE_SWISS_POINTS",
    "DOUBLE_SWISS_CODE",
    "Match",
    "DoubleSwissTournament",
    "match_values",
]

DOUBLE_SWISS_CODE = "FIDE_DOUBLESWISS"
"""The ``192`` code of a Double-Swiss file (corpus README)."""


def match_values(
    win: Points = 10, draw: Points = 5, loss: Points = 0, forfeit_loss: Points = 0,
    pab: Points | None = None, half_point_bye: Points | None = None,
    full_point_bye: Points | None = None, zero_point_bye: Points = 0,
) -> PointSystem:
    """Return a Double-Swiss point system: game values, and the match values of the byes.

    Art. 1.4: unless the rules of the tournament say otherwise the PAB is worth a match won
    1½-½ (a win and a draw). A requested bye defaults to a drawn match, a full-point bye to a
    match won 2-0.
    """
    return PointSystem(
        win=win, draw=draw, loss=loss, forfeit_win=win, forfeit_loss=forfeit_loss,
        pairing_allocated_bye=win + draw if pab is None else pab,
        half_point_bye=2 * draw if half_point_bye is None else half_point_bye,
        full_point_bye=2 * win if full_point_bye is None else full_point_bye,
        zero_point_bye=zero_point_bye,
    )


DOUBLE_SWISS_POINTS = match_values()

_BYES = frozenset(
    {
        ResultCode.PAIRING_ALLOCATED_BYE,
        ResultCode.HALF_POINT_BYE,
        ResultCode.FULL_POINT_BYE,
        ResultCode.ZERO_POINT_BYE,
    }
)


@dataclass(frozen=True)
class Match:
    """One player's match: two games against one opponent, or a bye or absence.

    ``color`` is the colour scheduled for game 1 (Art. 4.4); ``games`` are this player's two
    results and ``opponent_games`` the opponent's, both from their owner's side. A bye or an
    absence has no opponent and its code (``U``, ``H``, ``F``, ``Z``) in ``bye``.
    """

    opponent: TPN | None
    color: Color | None
    games: tuple[ResultCode, ResultCode] = (ResultCode.ZERO_POINT_BYE, ResultCode.ZERO_POINT_BYE)
    opponent_games: tuple[ResultCode, ResultCode] = (
        ResultCode.ZERO_POINT_BYE, ResultCode.ZERO_POINT_BYE,
    )
    bye: ResultCode | None = None

    @staticmethod
    def bye_of(code: ResultCode) -> Match:
        """Return a bye or absence (``U``, ``H``, ``F`` or ``Z``)."""
        return Match(None, None, (code, code), (code, code), code)

    @property
    def is_bye(self) -> bool:
        """Whether there was no opponent: a bye, or an absence."""
        return self.opponent is None

    @property
    def is_preset(self) -> bool:
        """Whether it was known before pairing: a requested bye or an absence (reading 15)."""
        return self.opponent is None and self.bye is not ResultCode.PAIRING_ALLOCATED_BYE

    @property
    def was_paired(self) -> bool:
        """Whether pairing produced it: a match (played or not) or the PAB."""
        return self.opponent is not None or self.bye is ResultCode.PAIRING_ALLOCATED_BYE

    @property
    def is_forfeit(self) -> bool:
        """Preface: a match ends by forfeit only if a player forfeits both games (reading 2)."""
        if self.opponent is None:
            return False
        forfeit = ResultCode.FORFEIT_LOSS
        return all(g is forfeit for g in self.games) or all(
            g is forfeit for g in self.opponent_games
        )

    @property
    def was_played(self) -> bool:
        """Whether it counts as played: any match that is not a forfeit match (Preface).

        Only these count for [C1], for the matches played of Art. 3.4.3 and for floats
        (reading 2); a single forfeited game, or one forfeited by each player, does not make
        the match a forfeit.
        """
        return self.opponent is not None and not self.is_forfeit

    @property
    def colour(self) -> Color | None:
        """Art. 1.6: the game-1 colour, if at least one game of the match was actually played."""
        if self.opponent is None or not any(g in PLAYED_RESULTS for g in self.games):
            return None
        return self.color

    def points(self, ps: PointSystem) -> Points:
        """Return what the match scored: both games' points, or the bye's match value."""
        if self.opponent is None:
            return _bye_points(self.bye, ps)
        return sum(_game_points(g, ps) for g in self.games)

    def opponent_points(self, ps: PointSystem) -> Points:
        """Return what the opponent scored in the match."""
        return sum(_game_points(g, ps) for g in self.opponent_games)

    def as_round_entry(self, ps: PointSystem) -> RoundEntry:
        """Return the match as one round entry, for the rules shared with C.04.1-C.04.3.

        It counts as a game played (``game_was_played``) exactly when the match has a colour
        (Art. 1.6); its result is the match result from this player's side.
        """
        if self.opponent is None:
            return RoundEntry(None, None, self.bye or ResultCode.ZERO_POINT_BYE)
        mine, theirs = self.points(ps), self.opponent_points(ps)
        if self.colour is None:
            result = ResultCode.FORFEIT_WIN if mine > theirs else ResultCode.FORFEIT_LOSS
        elif mine > theirs:
            result = ResultCode.WIN
        else:
            result = ResultCode.DRAW if mine == theirs else ResultCode.LOSS
        return RoundEntry(self.opponent, self.color, result)

    def won_by_forfeit(self, ps: PointSystem) -> bool:
        """[C2]: a forfeit match in which this player scored more (reading 3)."""
        return self.is_forfeit and self.points(ps) > self.opponent_points(ps)


def _game_points(result: ResultCode, ps: PointSystem) -> Points:
    """Return one game's points under the game values W, D, L, A."""
    return ps.points_for(RoundEntry(0, None, result))


def _bye_points(code: ResultCode | None, ps: PointSystem) -> Points:
    """Return the match value of a bye or absence."""
    match code:
        case ResultCode.PAIRING_ALLOCATED_BYE:
            return ps.pairing_allocated_bye
        case ResultCode.HALF_POINT_BYE:
            return ps.half_point_bye
        case ResultCode.FULL_POINT_BYE:
            return ps.full_point_bye
    return ps.zero_point_bye


@dataclass(frozen=True)
class DoubleSwissTournament:
    """A Double-Swiss tournament: the TRF columns as read, and the matches they make.

    ``tournament.players[i].rounds`` are the game columns (two per match); ``matches[i]`` are
    the same player's matches, match 1 first. ``tournament.point_system`` holds the game values
    and the match values of the byes (``162``).
    """

    tournament: Tournament
    matches: tuple[tuple[Match, ...], ...] = field(default=())

    @property
    def total_matches(self) -> int | None:
        """The planned number of matches (``142`` / 2)."""
        t = self.tournament.total_rounds
        return None if t is None else t // 2

    @property
    def point_system(self) -> PointSystem:
        return self.tournament.point_system

    @property
    def tpns(self) -> tuple[TPN, ...]:
        return tuple(p.tpn for p in self.tournament.players)

    def matches_of(self, tpn: TPN) -> tuple[Match, ...]:
        """Return a player's matches, match 1 first."""
        return self.matches[tpn - 1]

    def score(self, tpn: TPN, before_match: int | None = None) -> Points:
        """Reading 1: game points plus bye match values, of the matches before ``before_match``."""
        matches = self.matches_of(tpn)
        if before_match is not None:
            matches = matches[: before_match - 1]
        return sum(m.points(self.point_system) for m in matches)

    def paired_matches(self) -> int:
        """Return the number of matches already paired (pre-set byes alone are not one)."""
        last = 0
        for matches in self.matches:
            for k, m in enumerate(matches, start=1):
                if m.was_paired:
                    last = max(last, k)
        return last

    def next_match_number(self) -> int:
        """Return the match to pair next."""
        return self.paired_matches() + 1


def is_bye_code(code: ResultCode) -> bool:
    """Whether a result code stands for a bye or absence (no opponent)."""
    return code in _BYES
