"""The FIDE rules that more than one part of the product applies, each in one place.

Every predicate is named after what the text defines and cites its article. The Dutch engine
(``pairing.dutch``), the checker (``pairing.checker``), the weights and the web app's
corrections all call these; none keeps a copy. A rule written twice drifts: the second
pairing-allocated bye when the bye is worth less than a win was such a drift.

Colour histories are the colours of the games actually played, oldest first (C.04.2 Art. 3.4:
unplayed rounds are skipped).

>>> W, B = Color.WHITE, Color.BLACK
>>> colour_preference((W, B, W))
ColourPreference(colour=<Color.BLACK: 'b'>, strength=<Strength.STRONG: 'strong'>)
>>> colour_preference((B, W, W)).strength
<Strength.ABSOLUTE: 'absolute'>
>>> colour_preference(()) == NO_PREFERENCE
True

A PAB worth half a point still counts against a second one (Basic Rules Art. 4):

>>> half_point_pab = PointSystem(pairing_allocated_bye=5)
>>> pab = RoundEntry(None, None, ResultCode.PAIRING_ALLOCATED_BYE)
>>> may_receive_pab([pab], half_point_pab, RuleSet.DUTCH_2026)
False
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pairing.model import (
    Color,
    Points,
    PointSystem,
    ResultCode,
    RoundEntry,
    RuleSet,
)

__all__ = [
    "NO_PREFERENCE",
    "ColourPreference",
    "Float",
    "Strength",
    "colour_difference",
    "colour_limits_broken",
    "colour_preference",
    "float_received",
    "is_final_round",
    "is_topscorer",
    "may_receive_pab",
    "opponents_met",
    "played_colours",
    "same_absolute_preference",
]


# --- Colours (C.04.3 Art. 1.6, 1.7) -----------------------------------------------------------


class Strength(enum.Enum):
    """How strong a colour preference is (Art. 1.7.1-1.7.3)."""

    ABSOLUTE = "absolute"
    STRONG = "strong"
    MILD = "mild"


@dataclass(frozen=True)
class ColourPreference:
    """The colour a player should ideally receive for the next game, and how strongly."""

    colour: Color | None
    strength: Strength | None = None

    @property
    def absolute(self) -> bool:
        return self.strength is Strength.ABSOLUTE


NO_PREFERENCE = ColourPreference(None)
"""Art. 1.7.4: a player who has played no game has no colour preference."""


def played_colours(history: Iterable[RoundEntry]) -> tuple[Color, ...]:
    """The colours of the games played over the board, oldest first (C.04.2 Art. 3.4)."""
    return tuple(e.color for e in history if e.game_was_played and e.color is not None)


def colour_difference(colours: Sequence[Color]) -> int:
    """Art. 1.6: games played with White minus games played with Black."""
    whites = sum(1 for c in colours if c is Color.WHITE)
    return whites - (len(colours) - whites)


def colour_preference(colours: Sequence[Color]) -> ColourPreference:
    """Art. 1.7: the colour preference after these played games (oldest first)."""
    if not colours:
        return NO_PREFERENCE  # Art. 1.7.4
    difference = colour_difference(colours)
    if difference > 1:  # Art. 1.7.1
        return ColourPreference(Color.BLACK, Strength.ABSOLUTE)
    if difference < -1:
        return ColourPreference(Color.WHITE, Strength.ABSOLUTE)
    if len(colours) >= 2 and colours[-1] is colours[-2]:
        return ColourPreference(colours[-1].opposite, Strength.ABSOLUTE)
    if difference == 1:  # Art. 1.7.2
        return ColourPreference(Color.BLACK, Strength.STRONG)
    if difference == -1:
        return ColourPreference(Color.WHITE, Strength.STRONG)
    return ColourPreference(colours[-1].opposite, Strength.MILD)  # Art. 1.7.3


def colour_limits_broken(colours: Sequence[Color]) -> tuple[str, ...]:
    """Basic Rules Art. 6 and 7 on a colour history that includes the next game: the
    articles it breaks (a colour difference beyond +2 or -2; one colour three times in a row).
    The Dutch system keeps them through [C3], with topscorers as its exception."""
    broken = []
    if abs(colour_difference(colours)) > 2:
        broken.append("C.04.1 Art. 6")
    if len(colours) >= 3 and colours[-1] is colours[-2] is colours[-3]:
        broken.append("C.04.1 Art. 7")
    return tuple(broken)


def same_absolute_preference(a: ColourPreference, b: ColourPreference) -> bool:
    """[C3] (Art. 2.1.3; 2017 C.3): both have an absolute preference for the same colour."""
    return a.absolute and b.absolute and a.colour is b.colour


# --- Opponents ([C1], Basic Rules Art. 2) ----------------------------------------------------


def opponents_met(history: Iterable[RoundEntry]) -> frozenset[int]:
    """[C1]: the TPNs a player has met over the board; a forfeited game was not played
    (C.04.2 Art. 3.5), so those two may still meet."""
    return frozenset(e.opponent for e in history if e.game_was_played and e.opponent is not None)


# --- Topscorers (Art. 1.8; 2017 A.7) ----------------------------------------------------------


def is_final_round(round_number: int, total_rounds: int | None) -> bool:
    """Whether the round being paired is the final one (Art. 1.8 and [C3] look at it)."""
    return total_rounds is not None and round_number >= total_rounds


def is_topscorer(score: Points, rounds_played: int, points: PointSystem) -> bool:
    """Art. 1.8: over 50 % of the maximum possible score, asked when pairing the final round.

    ``rounds_played`` is the number of rounds before the final one; the maximum possible score
    is a win (or, where a draw would be worth more, a draw) in each of them.
    """
    best = max(points.win, points.draw)
    return 2 * score > rounds_played * best


# --- The pairing-allocated bye (Basic Rules Art. 4, [C2]; 2017 C.2) ---------------------------


def may_receive_pab(history: Iterable[RoundEntry], points: PointSystem, rules: RuleSet) -> bool:
    """Whether a player with these earlier rounds may receive the pairing-allocated bye.

    2026, [C2] (C.04.1 Art. 4): not after a PAB, whatever it was worth, nor after scoring in
    one single round, without playing, as many points as a win.
    2017, C.2: not after a PAB, nor after a (forfeit) win due to an opponent not appearing.
    """
    for entry in history:
        if entry.result is ResultCode.PAIRING_ALLOCATED_BYE:
            return False
        if entry.game_was_played:
            continue
        if rules is RuleSet.DUTCH_2017:
            if entry.result is ResultCode.FORFEIT_WIN and entry.was_paired:
                return False
        elif points.points_for(entry) >= points.win:
            return False
    return True


# --- Floats (Art. 1.4; 2017 A.4) --------------------------------------------------------------


class Float(enum.Enum):
    """The float a player received in a round (Art. 1.4)."""

    DOWN = "down"
    UP = "up"
    NONE = "none"


def float_received(
    entry: RoundEntry, score: Points, opponent_score: Points | None, points: PointSystem,
    rules: RuleSet,
) -> Float:
    """The float a player received in a round: ``entry`` is what happened, ``score`` and
    ``opponent_score`` the pairing scores both had when that round was paired."""
    if not entry.game_was_played:
        if rules is RuleSet.DUTCH_2017:
            return Float.DOWN  # 2017 A.4.b: a player who, for whatever reason, does not play
        # Art. 1.4.3: the PAB, or more points than a loss without playing, is a downfloat;
        # a PAB worth no more than a loss (162 P 0.0) is none, as bbpPairings reads it (I-15)
        if points.points_for(entry) > points.loss:
            return Float.DOWN
        return Float.NONE  # Art. 1.4.4: no other float without a game played
    if opponent_score is None:
        return Float.NONE
    # Art. 1.4.2: of two players with different scores, the higher ranked one downfloats
    if score > opponent_score:
        return Float.DOWN
    if score < opponent_score:
        return Float.UP
    return Float.NONE
