"""What the Dutch system needs to know about each player before a round is paired.

Everything is derived from the round entries of ``pairing.model``: scores (with the virtual points
of acceleration), colour difference and colour preference (C.04.3 Art. 1.6-1.7), floats
(Art. 1.4), eligibility for the pairing-allocated bye ([C2]) and the opponents already met ([C1]).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from pairing.acceleration import virtual_points
from pairing.model import Color, Player, ResultCode, RuleSet, Tournament

__all__ = ["Float", "PlayerState", "build_players"]


class Float(enum.Enum):
    """The float a player received in an earlier round (Art. 1.4)."""

    DOWN = "down"
    UP = "up"
    NONE = "none"


@dataclass(frozen=True)
class PlayerState:
    """One player to be paired, as the Dutch system sees them before the round."""

    tpn: int
    rank_index: int
    """0-based position among the players entered so far (parity decides Art. 5.2.5)."""
    score: int
    """Pairing score: points plus acceleration for this round, in tenths (Art. 1.2.1)."""
    colors: tuple[Color, ...]
    """Colours of the games actually played, oldest first (C.04.2 Art. 3.4)."""
    preference: Color | None
    absolute: bool
    """Absolute colour preference (Art. 1.7.1)."""
    strong: bool
    """Strong colour preference (Art. 1.7.2)."""
    imbalance: int
    """Absolute value of the colour difference (Art. 1.6)."""
    repeated: Color | None
    """The colour of the two latest played games when they were the same, else None."""
    eligible_for_bye: bool
    """May receive the pairing-allocated bye ([C2])."""
    played_games: int
    float1: Float
    """Float received in the previous round (Art. 1.4)."""
    float2: Float
    """Float received two rounds before."""
    met: frozenset[int]
    """TPNs of the opponents met over the board ([C1]; forfeits do not count, C.04.2 3.5)."""

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1


def _acceleration(t: Tournament, k: int) -> dict[tuple[int, int], int]:
    """Return the virtual points by (TPN, round) for rounds 1..k (pairing only, never standings)."""
    table: dict[tuple[int, int], int] = {}
    if t.baku and not t.accelerations:
        # C.04.7 Baku acceleration derived by the engine; explicit 250/XXA lines override _BAKU
        for r in range(1, k + 1):
            for tpn, points in virtual_points(t, r).items():
                if points:
                    table[(tpn, r)] = points
        return table
    for a in t.accelerations:
        table[(a.tpn, a.round)] = table.get((a.tpn, a.round), 0) + a.points
    return table


def _is_valid(player: Player, k: int) -> bool:
    """Return whether a player counts among the entered players for round k (rank numbering)."""
    if len(player.rounds) < k:
        return True
    return any(e.was_paired for e in player.rounds)


def build_players(t: Tournament, k: int, rules: RuleSet) -> list[PlayerState]:
    """Return the players to pair in round k (those without a pre-set bye or absence)."""
    ps = t.point_system
    accel = _acceleration(t, k)
    by_tpn = {p.tpn: p for p in t.players}

    def score_before(player: Player, rounds_back: int) -> int:
        """Pairing score when round k - rounds_back was paired (acceleration of that round)."""
        r = k - rounds_back
        points = sum(ps.points_for(e) for e in player.rounds[: r - 1])
        return points + accel.get((player.tpn, r), 0)

    def float_of(player: Player, rounds_back: int) -> Float:
        r = k - rounds_back
        if r < 1 or len(player.rounds) < r:
            return Float.NONE
        entry = player.rounds[r - 1]
        if rules is RuleSet.DUTCH_2017 and not entry.game_was_played:
            return Float.DOWN  # 2017 A.4.b: a player who, for whatever reason, does not play
        # Art. 1.4.3: a PAB, or more points than a loss without playing, is a downfloat
        if not entry.game_was_played and ps.points_for(entry) > ps.loss:
            return Float.DOWN
        if not entry.game_was_played or entry.opponent not in by_tpn:
            return Float.NONE  # Art. 1.4.4: no other float without a game played
        mine = score_before(player, rounds_back)
        theirs = score_before(by_tpn[entry.opponent], rounds_back)
        # Art. 1.4.2: the higher ranked player of two with different scores downfloats
        if mine > theirs:
            return Float.DOWN
        if mine < theirs:
            return Float.UP
        return Float.NONE

    rank = 0
    result = []
    for player in sorted(t.players, key=lambda p: p.tpn):
        if not _is_valid(player, k):
            continue
        rank_index = rank
        rank += 1
        if len(player.rounds) >= k:
            continue  # requested bye or absence in round k: not paired
        history = player.rounds[: k - 1]
        colors = tuple(e.color for e in history if e.game_was_played and e.color is not None)
        whites = colors.count(Color.WHITE)
        blacks = len(colors) - whites
        imbalance = abs(whites - blacks)
        lower = Color.BLACK if whites > blacks else Color.WHITE
        two_same = len(colors) >= 2 and colors[-1] is colors[-2]
        if imbalance > 1:  # Art. 1.7.1
            preference: Color | None = lower
        elif two_same:
            preference = colors[-1].opposite
        elif imbalance > 0:  # Art. 1.7.2
            preference = lower
        elif colors:  # Art. 1.7.3
            preference = colors[-1].opposite
        else:  # Art. 1.7.4
            preference = None
        repeated = colors[-1] if two_same else None
        absolute = imbalance > 1 or repeated is not None
        if rules is RuleSet.DUTCH_2017:
            # 2017 C.2: no PAB after a PAB or a (forfeit) win due to an opponent not appearing
            eligible = not any(
                e.result in (ResultCode.PAIRING_ALLOCATED_BYE, ResultCode.FORFEIT_WIN)
                and e.was_paired
                and not e.game_was_played
                for e in history
            )
        else:
            # [C2]: no PAB after a PAB or as many points as a win in one round without playing
            eligible = not any(
                not e.game_was_played and ps.points_for(e) >= ps.win for e in history
            )
        met = frozenset(
            e.opponent for e in history if e.game_was_played and e.opponent is not None
        )
        result.append(
            PlayerState(
                tpn=player.tpn,
                rank_index=rank_index,
                score=score_before(player, 0),
                colors=colors,
                preference=preference,
                absolute=absolute,
                strong=not absolute and imbalance > 0,
                imbalance=imbalance,
                repeated=repeated,
                eligible_for_bye=eligible,
                played_games=len(colors),
                float1=float_of(player, 1) if k > 1 else Float.NONE,
                float2=float_of(player, 2) if k > 2 else Float.NONE,
                met=met,
            )
        )
    return result
