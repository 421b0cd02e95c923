"""Tiny builders for Clock-system test tournaments: rounds as lists of games and byes."""

from __future__ import annotations

from dataclasses import dataclass

from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament

W, B = Color.WHITE, Color.BLACK

_GAME = {
    "1-0": (ResultCode.WIN, ResultCode.LOSS),
    "0-1": (ResultCode.LOSS, ResultCode.WIN),
    "=": (ResultCode.DRAW, ResultCode.DRAW),
    "+-": (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
    "-+": (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN),
    "--": (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS),
}
_BYE = {
    "U": ResultCode.PAIRING_ALLOCATED_BYE,
    "H": ResultCode.HALF_POINT_BYE,
    "F": ResultCode.FULL_POINT_BYE,
    "Z": ResultCode.ZERO_POINT_BYE,
}


@dataclass(frozen=True)
class Game:
    white: int
    black: int
    result: str = "1-0"


def game(white: int, black: int, result: str = "1-0") -> Game:
    """A game of a round: ``1-0``, ``0-1``, ``=``; forfeits ``+-``, ``-+``, double ``--``."""
    return Game(white, black, result)


def tournament(
    players: int,
    rounds: list[list[Game | tuple[int, str]]] = (),  # type: ignore[assignment]
    *,
    preset: dict[int, str] | None = None,
    total_rounds: int = 9,
    master: Color = Color.WHITE,
) -> Tournament:
    """Return a tournament of ``players`` players (TPN = rank) after the rounds given.

    A round lists its games and its byes as ``(tpn, "U"|"H"|"F"|"Z")``; a player missing from a
    round is absent (Z). ``preset`` gives the requested byes/absences of the round to pair next.
    """
    history: dict[int, list[RoundEntry]] = {tpn: [] for tpn in range(1, players + 1)}
    for number, items in enumerate(rounds, start=1):
        for item in items:
            if isinstance(item, Game):
                white_result, black_result = _GAME[item.result]
                history[item.white].append(RoundEntry(item.black, W, white_result))
                history[item.black].append(RoundEntry(item.white, B, black_result))
            else:
                tpn, letter = item
                history[tpn].append(RoundEntry(None, None, _BYE[letter]))
        for entries in history.values():
            if len(entries) < number:
                entries.append(RoundEntry(None, None, ResultCode.ZERO_POINT_BYE))
    for tpn, letter in (preset or {}).items():
        history[tpn].append(RoundEntry(None, None, _BYE[letter]))
    return Tournament(
        players=tuple(
            Player(tpn=tpn, name=f"Player {tpn:02d}", rating=2500 - 10 * tpn,
                   rounds=tuple(history[tpn]))
            for tpn in range(1, players + 1)
        ),
        total_rounds=total_rounds,
        initial_color=master,
        tournament_type="CUSTOM_SWISS",
    )
