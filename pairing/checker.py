"""Check a round-pairing against the absolute rules (C.04.1, C.04.2, C.04.3 [C1]-[C3]).

``check_round(t_before, pairing)`` lists every violation, each naming the article it breaks, so
that a manual pairing can be warned about before it is published. It does not judge quality
criteria ([C4] onwards): a pairing with no violation is legal, not necessarily the engine's.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass

from pairing.model import (
    Color,
    Player,
    ResultCode,
    RoundPairing,
    RuleSet,
    Tournament,
)
from pairing.trf import next_round_number

__all__ = ["Violation", "ColorPreference", "Strength", "color_preference", "check_round"]


@dataclass(frozen=True)
class Violation:
    """One broken rule: the article, what happened, and the players involved."""

    article: str
    message: str
    tpns: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"{self.article}: {self.message}"


class Strength(enum.Enum):
    """How strong a colour preference is (C.04.3 Art. 1.7.1-1.7.3)."""

    ABSOLUTE = "absolute"
    STRONG = "strong"
    MILD = "mild"


@dataclass(frozen=True)
class ColorPreference:
    """The colour a player should ideally get next, and how strongly."""

    color: Color | None
    strength: Strength | None = None


NO_PREFERENCE = ColorPreference(None)


def played_colors(player: Player, before_round: int) -> list[Color]:
    """Return the colours of the games played before a round (unplayed ones skipped, C.04.2 3.4)."""
    return [
        e.color
        for e in player.rounds[: before_round - 1]
        if e.game_was_played and e.color is not None
    ]


def color_preference(player: Player, before_round: int) -> ColorPreference:
    """Return the colour preference of a player for a round (C.04.3 Art. 1.7)."""
    colors = played_colors(player, before_round)
    if not colors:
        return NO_PREFERENCE  # Art. 1.7.4
    difference = colors.count(Color.WHITE) - colors.count(Color.BLACK)  # Art. 1.6
    if difference > 1:
        return ColorPreference(Color.BLACK, Strength.ABSOLUTE)  # Art. 1.7.1
    if difference < -1:
        return ColorPreference(Color.WHITE, Strength.ABSOLUTE)
    if len(colors) >= 2 and colors[-1] is colors[-2]:
        return ColorPreference(colors[-1].opposite, Strength.ABSOLUTE)
    if difference == 1:
        return ColorPreference(Color.BLACK, Strength.STRONG)  # Art. 1.7.2
    if difference == -1:
        return ColorPreference(Color.WHITE, Strength.STRONG)
    return ColorPreference(colors[-1].opposite, Strength.MILD)  # Art. 1.7.3


def _article(rules: RuleSet, criterion: int) -> str:
    """Name an absolute criterion in the numbering of the rule set."""
    if rules is RuleSet.DUTCH_2017:
        return f"C.04.3 (2017) C.{criterion}"
    return f"C.04.3 Art. 2.1.{criterion} [C{criterion}]"


def _score(t: Tournament, player: Player, k: int) -> int:
    """Return the points of a player before round k."""
    return sum(t.point_system.points_for(e) for e in player.rounds[: k - 1])


def is_topscorer(t: Tournament, player: Player, k: int) -> bool:
    """Return whether a player is a topscorer: over 50% of the maximum, final round only (1.8)."""
    if t.total_rounds is None or k != t.total_rounds:
        return False
    return 2 * _score(t, player, k) > (k - 1) * t.point_system.win


def had_pab_or_unplayed_win(t: Tournament, player: Player, k: int, rules: RuleSet) -> bool:
    """Return whether a player may no longer receive the PAB ([C2], C.04.1 Art. 4)."""
    for entry in player.rounds[: k - 1]:
        if entry.result is ResultCode.PAIRING_ALLOCATED_BYE:
            return True
        if rules is RuleSet.DUTCH_2017:
            # 2017 C.2: a (forfeit) win due to an opponent not appearing
            if entry.result is ResultCode.FORFEIT_WIN:
                return True
        elif not entry.game_was_played and t.point_system.points_for(entry) >= t.point_system.win:
            return True
    return False


def _is_absent(player: Player, k: int) -> bool:
    """Return whether the player has a pre-set entry (bye or absence) for round k."""
    return len(player.rounds) >= k and player.rounds[k - 1].is_preset


def _met_before(a: Player, b: Player, k: int) -> bool:
    """Return whether two players played a game before round k (forfeits do not count, 3.5)."""
    return any(e.opponent == b.tpn and e.game_was_played for e in a.rounds[: k - 1])


def check_round(
    t_before: Tournament, pairing: RoundPairing, *, rules: RuleSet | None = None
) -> list[Violation]:
    """Return the violations of the absolute rules by a round-pairing (empty when legal)."""
    rules = rules or t_before.rules
    k = pairing.round if pairing.round >= 1 else next_round_number(t_before)
    players = {p.tpn: p for p in t_before.players}
    violations: list[Violation] = []

    listed = [tpn for b in pairing.boards for tpn in (b.white, b.black)]
    listed += [pairing.bye] if pairing.bye is not None else []
    unknown = sorted({tpn for tpn in listed if tpn not in players})
    for tpn in unknown:
        violations.append(Violation("C.04.2 Art. 2", f"{tpn} is not a player", (tpn,)))
    counts = Counter(listed)
    for tpn in sorted(t for t, n in counts.items() if n > 1 and t in players):
        violations.append(Violation("C.04.3 Art. 1.9.1", f"{tpn} is paired more than once", (tpn,)))

    expected = {tpn for tpn, p in players.items() if not _is_absent(p, k)}
    for tpn in sorted(expected - set(listed)):
        violations.append(Violation("C.04.3 Art. 1.9.1", f"{tpn} is not paired", (tpn,)))
    for tpn in sorted(t for t in set(listed) if t in players and t not in expected):
        violations.append(Violation(
            "C.04.2 Art. 3.2-3.3", f"{tpn} is withdrawn or absent in round {k} but paired", (tpn,)
        ))

    if pairing.bye is not None and pairing.bye in players:
        if len(expected) % 2 == 0:
            violations.append(Violation(
                "C.04.1 Art. 3", f"PAB to {pairing.bye} with an even number of players to pair",
                (pairing.bye,),
            ))
        if had_pab_or_unplayed_win(t_before, players[pairing.bye], k, rules):
            violations.append(Violation(
                _article(rules, 2),
                f"{pairing.bye} already had a PAB or an unplayed win and cannot get the PAB",
                (pairing.bye,),
            ))

    for board in pairing.boards:
        if board.white not in players or board.black not in players:
            continue
        white, black = players[board.white], players[board.black]
        violations += _board_violations(t_before, white, black, k, rules)
    return violations


def _board_violations(
    t: Tournament, white: Player, black: Player, k: int, rules: RuleSet
) -> list[Violation]:
    """Return the violations of one board: [C1], [C3] and prohibited pairings."""
    pair = (white.tpn, black.tpn)
    found: list[Violation] = []
    if white.tpn == black.tpn:
        return found  # reported as paired more than once
    if _met_before(white, black, k):
        found.append(
            Violation(_article(rules, 1), f"{white.tpn} and {black.tpn} already played", pair)
        )
    a, b = color_preference(white, k), color_preference(black, k)
    if (
        a.strength is Strength.ABSOLUTE
        and b.strength is Strength.ABSOLUTE
        and a.color is b.color
        and not is_topscorer(t, white, k)
        and not is_topscorer(t, black, k)
    ):
        found.append(Violation(
            _article(rules, 3),
            f"{white.tpn} and {black.tpn} both have an absolute preference for "
            f"{'White' if a.color is Color.WHITE else 'Black'}",
            pair,
        ))
    for forbidden in t.forbidden_pairs:
        if forbidden.applies_to(k) and set(pair) <= forbidden.tpns:
            found.append(Violation(
                "prohibited pairing (TRF 260/XXP)",
                f"{white.tpn} and {black.tpn} must not be paired in round {k}",
                pair,
            ))
    return found
