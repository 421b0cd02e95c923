"""Build small tournaments for the tie-break tests from one string per player.

Each round is a token: ``2w1`` (opponent 2, White, won), ``3b=`` (drew with Black), ``4w+`` /
``1b-`` (forfeit won / lost), ``U`` (pairing-allocated bye), ``H`` / ``F`` / ``Z`` (requested
half-, full-, zero-point bye; ``Z`` also marks absence, withdrawal and rounds before a late entry).
"""

from __future__ import annotations

import re
from fractions import Fraction

from pairing.model import (
    STANDARD_POINTS,
    Color,
    Player,
    PointSystem,
    ResultCode,
    RoundEntry,
    Tournament,
)

_TOKEN = re.compile(r"^(\d+)([wb-])([10=+\-WDL])$")


def entry(token: str) -> RoundEntry:
    if token in ("U", "H", "F", "Z"):
        return RoundEntry(None, None, ResultCode(token))
    m = _TOKEN.match(token)
    assert m, token
    color = {"w": Color.WHITE, "b": Color.BLACK, "-": None}[m.group(2)]
    return RoundEntry(int(m.group(1)), color, ResultCode(m.group(3)))


def build(
    rows: dict[int, str],
    ratings: dict[int, int | None] | None = None,
    points: PointSystem = STANDARD_POINTS,
) -> Tournament:
    ratings = ratings or {}
    players = tuple(
        Player(
            tpn=tpn,
            name=f"Player {tpn}",
            rating=ratings.get(tpn, 2000 - 10 * tpn),
            rounds=tuple(entry(tok) for tok in rows[tpn].split()),
        )
        for tpn in sorted(rows)
    )
    return Tournament(
        players=players, total_rounds=max(len(p.rounds) for p in players), point_system=points
    )


def F(text: str | float) -> Fraction:
    return Fraction(str(text))
