"""What the Dutch system needs to know about each player before a round is paired.

Everything is derived from the round entries of ``pairing.model``: scores (with the virtual points
of acceleration), colour difference and colour preference (C.04.3 Art. 1.6-1.7), floats
(Art. 1.4), eligibility for the pairing-allocated bye ([C2]) and the opponents already met ([C1]).
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.acceleration import virtual_points
from pairing.model import Color, Player, RuleSet, Tournament
from pairing.rules import (
    NO_PREFERENCE,
    ColourPreference,
    Float,
    Strength,
    colour_difference,
    colour_preference,
    float_received,
    is_final_round,
    is_topscorer,
    may_receive_pab,
    opponents_met,
    played_colours,
)

__all__ = ["Float", "PlayerState", "build_players"]


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
    topscorer: bool = False
    """Over 50 % of the maximum possible score when pairing the final round (Art. 1.8)."""

    @property
    def colour_preference(self) -> ColourPreference:
        """The preference as ``pairing.rules`` states it (Art. 1.7)."""
        if self.preference is None:
            return NO_PREFERENCE
        if self.absolute:
            return ColourPreference(self.preference, Strength.ABSOLUTE)
        return ColourPreference(
            self.preference, Strength.STRONG if self.strong else Strength.MILD
        )

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
        opponent = by_tpn.get(entry.opponent) if entry.game_was_played else None
        return float_received(
            entry, score_before(player, rounds_back),
            score_before(opponent, rounds_back) if opponent else None, ps, rules,
        )

    final_round = is_final_round(k, t.total_rounds)
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
        colors = played_colours(history)
        preference = colour_preference(colors)
        two_same = len(colors) >= 2 and colors[-1] is colors[-2]
        score = score_before(player, 0)
        result.append(
            PlayerState(
                tpn=player.tpn,
                rank_index=rank_index,
                score=score,
                colors=colors,
                preference=preference.colour,
                absolute=preference.absolute,
                strong=preference.strength is Strength.STRONG,
                imbalance=abs(colour_difference(colors)),
                repeated=colors[-1] if two_same else None,
                eligible_for_bye=may_receive_pab(history, ps, rules),
                played_games=len(colors),
                float1=float_of(player, 1) if k > 1 else Float.NONE,
                float2=float_of(player, 2) if k > 2 else Float.NONE,
                met=opponents_met(history),
                topscorer=final_round and is_topscorer(score, k - 1, ps),
            )
        )
    return result
