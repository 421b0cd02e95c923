"""Random small Clock tournaments, paired round by round by the brute-force search.

Each round first draws the requested byes and absences (none in round 1), then pairs by
``brute_force_round``, then draws the results: wins, draws, forfeits and double forfeits. A
tournament whose next round has no pairing stops there.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament

from .brute_force import Unpairable, brute_force_round

W, B = Color.WHITE, Color.BLACK


@dataclass(frozen=True)
class State:
    """A state before a round, and what the brute-force search made of it."""

    tournament: Tournament
    pairs: tuple[tuple[int, int], ...] | None
    """(white, black) in the order stored; None when no pairing exists."""
    bye: int | None


def random_tournament(rng: random.Random) -> Iterator[State]:
    """Yield the state before each round of one random tournament."""
    n = rng.randint(2, 14)
    rounds = rng.randint(2, min(9, n + 2))
    absent_rate = rng.choice((0.0, 0.05, 0.15))
    forfeit_rate = rng.choice((0.0, 0.05, 0.15))
    t = Tournament(
        players=tuple(Player(tpn=i, name=f"P{i:02d}", rating=2400 - i) for i in range(1, n + 1)),
        total_rounds=rounds,
        initial_color=rng.choice((W, B)),
        tournament_type="CUSTOM_SWISS",
    )
    withdrawn: set[int] = set()
    for k in range(1, rounds + 1):
        history = {p.tpn: list(p.rounds) for p in t.players}
        if k > 1:
            for tpn, entries in history.items():
                if tpn in withdrawn:
                    entries.append(RoundEntry(None, None, ResultCode.ZERO_POINT_BYE))
                elif rng.random() < absent_rate:
                    letter = rng.choice("HZZF")
                    if letter == "Z" and rng.random() < 0.3:
                        withdrawn.add(tpn)
                    code = {"H": ResultCode.HALF_POINT_BYE, "Z": ResultCode.ZERO_POINT_BYE,
                            "F": ResultCode.FULL_POINT_BYE}[letter]
                    entries.append(RoundEntry(None, None, code))
        t = _with(t, history)
        try:
            pairs, bye = brute_force_round(t)
        except Unpairable:
            yield State(t, None, None)
            return
        yield State(t, tuple(pairs), bye)
        for white, black in pairs:
            draw = rng.random()
            if draw < forfeit_rate:
                res = rng.choice(((ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
                                  (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN),
                                  (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS)))
            else:
                res = rng.choice(((ResultCode.WIN, ResultCode.LOSS),
                                  (ResultCode.DRAW, ResultCode.DRAW),
                                  (ResultCode.LOSS, ResultCode.WIN)))
            history[white].append(RoundEntry(black, W, res[0]))
            history[black].append(RoundEntry(white, B, res[1]))
        if bye is not None:
            history[bye].append(RoundEntry(None, None, ResultCode.PAIRING_ALLOCATED_BYE))
        t = _with(t, history)


def _with(t: Tournament, history: dict[int, list[RoundEntry]]) -> Tournament:
    return replace(t, players=tuple(replace(p, rounds=tuple(history[p.tpn])) for p in t.players))
