"""Tie-breaks (C.07) of a Double-Swiss event, computed from the matches.

C.04.5 Preface: a match that is not a forfeit match counts as played for tie-breaks and
standings, even with a single game forfeited. So each *match* is one round of the tie-break
engine (``pairing.tiebreaks``), classified once:

* a regular match is a game played against the opponent, worth the game points scored;
* a forfeit match (a player forfeited both games) is a forfeit won by the player who scored
  more, lost by the other (both lost when neither scored more), as C.07 Art. 16 treats forfeits;
* the PAB, a requested bye and an absence are the byes of Art. 16.2, worth their match values.

The match is then what C.07 calls a game: a win is the most a match gives (2-0, twice the game
value W), a draw a drawn match (twice D), the game score of rating tie-breaks (Art. 7.7, 10) the
share of the match's points (2-0 is 1, 1½-½ is ¾, 1-1 is ½).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from pairing.double_swiss.model import DoubleSwissTournament, Match
from pairing.model import ResultCode
from pairing.tiebreaks.compute import Context, Rules
from pairing.tiebreaks.errors import TieBreakInputError
from pairing.tiebreaks.rounds import Kind, RoundRecord

__all__ = ["MatchContext", "match_records"]

_VOLUNTARY = frozenset({Kind.FORFEIT_LOSS, Kind.HALF_POINT_BYE, Kind.ZERO_POINT_BYE})
_BYE_KINDS = {
    ResultCode.PAIRING_ALLOCATED_BYE: Kind.PAB,
    ResultCode.FULL_POINT_BYE: Kind.FULL_POINT_BYE,
    ResultCode.HALF_POINT_BYE: Kind.HALF_POINT_BYE,
    ResultCode.ZERO_POINT_BYE: Kind.ZERO_POINT_BYE,
}


def _record(number: int, match: Match | None, dt: DoubleSwissTournament) -> RoundRecord:
    """Classify one match of one player."""
    ps = dt.point_system
    if match is None:
        return RoundRecord(number, Kind.ZERO_POINT_BYE, Fraction(ps.zero_point_bye, 10), None,
                           None, None, True)
    points = Fraction(match.points(ps), 10)
    if match.opponent is None:
        kind = _BYE_KINDS[match.bye or ResultCode.ZERO_POINT_BYE]
        return RoundRecord(number, kind, points, None, None, None, kind in _VOLUNTARY)
    if match.is_forfeit:
        kind = Kind.FORFEIT_WIN if match.won_by_forfeit(ps) else Kind.FORFEIT_LOSS
        return RoundRecord(number, kind, points, match.opponent, None, None,
                           kind in _VOLUNTARY)
    share = points / Fraction(2 * ps.win, 10) if ps.win else Fraction(0)
    return RoundRecord(number, Kind.PLAYED, points, match.opponent, match.colour or match.color,
                       share, False)


def match_records(dt: DoubleSwissTournament, matches: int) -> dict[int, tuple[RoundRecord, ...]]:
    """Return every player's matches 1..matches as tie-break rounds (Art. 16.2.5 applied)."""
    out = {}
    for tpn in dt.tpns:
        own = dt.matches_of(tpn)
        raw = [_record(m, own[m - 1] if m <= len(own) else None, dt)
               for m in range(1, matches + 1)]
        records = list(raw)
        all_later_vur = True
        for i in range(len(raw) - 1, -1, -1):  # a requested bye followed only by VURs
            if raw[i].kind.is_requested_bye and all_later_vur:
                records[i] = replace(raw[i], end_vur=True)
            all_later_vur = all_later_vur and raw[i].vur
        out[tpn] = tuple(records)
    return out


class MatchContext(Context):
    """``pairing.tiebreaks.Context`` whose rounds are the matches of a Double-Swiss event."""

    def __init__(self, dt: DoubleSwissTournament, rules: Rules | None = None,
                 records: dict[int, tuple[RoundRecord, ...]] | None = None) -> None:
        self.dt = dt
        self.tournament = dt.tournament
        self.rules = rules or Rules()
        last = dt.paired_matches()
        n = self.rules.after_round if self.rules.after_round is not None else last
        if n < 0 or n > last:
            raise TieBreakInputError(f"no match {n}: the event has {last} matches")
        self.rounds = n
        ps = dt.point_system
        self.win = Fraction(2 * ps.win, 10)
        self.draw = Fraction(2 * ps.draw, 10)
        self.players = {p.tpn: p for p in dt.tournament.players}
        self.records = records if records is not None else match_records(dt, n)
        self.score = {
            tpn: sum((r.points for r in recs), Fraction(0)) for tpn, recs in self.records.items()
        }
        self.adjusted = {
            tpn: sum((self.draw if r.end_vur else r.points for r in recs), Fraction(0))
            for tpn, recs in self.records.items()
        }
        self._cache = {}
        self._fore = None

    def fore(self) -> Context:
        """Art. 8.3: the same event with every match of the final round played as a draw."""
        if self._fore is None:
            last = self.rounds
            records = {}
            for tpn, played in self.records.items():
                recs = list(played)
                if recs and recs[-1].round == last and recs[-1].opponent is not None:
                    recs[-1] = replace(recs[-1], kind=Kind.PLAYED, points=self.draw,
                                       game_score=Fraction(1, 2), vur=False)
                records[tpn] = tuple(recs)
            self._fore = MatchContext(self.dt, replace(self.rules, after_round=last), records)
        return self._fore
