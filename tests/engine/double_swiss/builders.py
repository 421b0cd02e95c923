"""Tiny Double-Swiss events written as text: ``event(4, ["1-2 1=", "3-4 ++"])``.

A match is a list of tokens separated by commas: ``"1-2 1="`` is 1 (White in game 1) against 2
with game results from 1's side (``1`` win, ``=`` draw, ``0`` loss, ``h`` ½-0, ``l`` 0-½,
``z`` 0-0, ``+`` forfeit win, ``-`` forfeit loss, ``d`` both forfeited); ``"5 U"`` a bye or
absence (``U``, ``H``, ``F``, ``Z``). Players a match does not name are absent (``Z``).
``preset`` gives the next match's requested byes and absences.
"""

from __future__ import annotations

from pairing.double_swiss.model import DOUBLE_SWISS_CODE, DOUBLE_SWISS_POINTS, DoubleSwissTournament
from pairing.double_swiss.trf import build_matches
from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament

R = ResultCode
_GAME = {
    "1": (R.WIN, R.LOSS), "=": (R.DRAW, R.DRAW), "0": (R.LOSS, R.WIN),
    "h": (R.DRAW, R.LOSS), "l": (R.LOSS, R.DRAW), "z": (R.LOSS, R.LOSS),
    "+": (R.FORFEIT_WIN, R.FORFEIT_LOSS), "-": (R.FORFEIT_LOSS, R.FORFEIT_WIN),
    "d": (R.FORFEIT_LOSS, R.FORFEIT_LOSS),
}
_BYE = {"U": R.PAIRING_ALLOCATED_BYE, "H": R.HALF_POINT_BYE, "F": R.FULL_POINT_BYE,
        "Z": R.ZERO_POINT_BYE}


def event(players: int, matches: list[str], *, total: int | None = None,
          preset: dict[int, str] | None = None, initial: Color = Color.WHITE
          ) -> DoubleSwissTournament:
    """Return the state before the next match of a small event."""
    columns: dict[int, list[RoundEntry]] = {p: [] for p in range(1, players + 1)}
    for text in matches:
        named: set[int] = set()
        for token in (t.strip() for t in text.split(",") if t.strip()):
            who, what = token.split()
            if "-" in who:
                white, black = (int(x) for x in who.split("-"))
                named |= {white, black}
                for game, symbol in enumerate(what):
                    mine, theirs = _GAME[symbol]
                    cw = Color.WHITE if game == 0 else Color.BLACK
                    columns[white].append(RoundEntry(black, cw, mine))
                    columns[black].append(RoundEntry(white, cw.opposite, theirs))
            else:
                named.add(int(who))
                columns[int(who)] += [RoundEntry(None, None, _BYE[what])] * 2
        for p in set(columns) - named:
            columns[p] += [RoundEntry(None, None, R.ZERO_POINT_BYE)] * 2
    for p, code in (preset or {}).items():
        columns[p] += [RoundEntry(None, None, _BYE[code])] * 2
    t = Tournament(
        players=tuple(
            Player(tpn=p, name=f"Player {p}", rating=2500 - p, rounds=tuple(columns[p]))
            for p in columns
        ),
        total_rounds=2 * (total if total is not None else len(matches) + 3),
        initial_color=initial, point_system=DOUBLE_SWISS_POINTS,
        tournament_type=DOUBLE_SWISS_CODE,
    )
    return build_matches(t)
