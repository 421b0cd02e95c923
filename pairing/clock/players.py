"""The players on the clock in one round, and the Clock system's compatibility rule.

What the Clock text shares with the FIDE rules is read through ``pairing.rules``: played colours
(unplayed games skipped), the colour difference, the absolute colour preference (its definition,
"twice in a row with the same color or ... two more times than with the other", is C.04.3
Art. 1.7.1 word for word), opponents met over the board, the final round and "more than 50 % of
the maximum possible points" (Art. 1.8). The compatibility rule itself is the Clock text's own
and lives here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.clock.grid import BYE_PN, Grid
from pairing.model import Color, Points, Tournament
from pairing.rules import (
    ColourPreference,
    colour_preference,
    is_final_round,
    is_topscorer,
    opponents_met,
    played_colours,
    same_absolute_preference,
)
from pairing.text import Text, gettext_noop

# How the explanation says them (the web app in the reader's language).
BYE_LABEL = gettext_noop("bye (PN-0)")
PN_LABEL = gettext_noop("PN-%(pn)s (#%(tpn)s)")
"""A player on the clock: the place around it (PN), then the ranking number (TPN)."""
PN_ONLY = gettext_noop("PN-%(pn)s")
POINTS_WITHOUT_PLAYING = gettext_noop(
    "got points without playing (round %(rounds)s), so not the bye"
)
ALREADY_MET = gettext_noop("already met")
SAME_ABSOLUTE_WHITE = gettext_noop("same absolute colour preference (white)")
SAME_ABSOLUTE_BLACK = gettext_noop("same absolute colour preference (black)")

__all__ = ["BYE", "ClockPlayer", "incompatibility", "players_on_the_clock"]


@dataclass(frozen=True)
class ClockPlayer:
    """A player on the clock when a round is paired (or the bye, pairing number 0)."""

    tpn: int
    """The ranking number #; 0 for the bye."""
    pairing_number: int
    score: Points
    """Points of the rounds already played (tenths)."""
    colours: tuple[Color, ...] = ()
    """Colours of the games played over the board, oldest first."""
    met: frozenset[int] = frozenset()
    """TPNs met over the board (a forfeit is no meeting, reading 6)."""
    points_without_playing: tuple[int, ...] = ()
    """Rounds in which he got points without playing: U, H, F or a forfeit win (reading 9)."""
    grid_colour: Color | None = None

    @property
    def is_bye(self) -> bool:
        return self.pairing_number == BYE_PN

    @property
    def preference(self) -> ColourPreference:
        """The colour preference of C.04.3 Art. 1.7; only its absolute form matters here.

        The Clock text defines the absolute preference as Art. 1.7.1 does but does not say which
        colour it is for when its two conditions disagree (e.g. B B B B W W: two Blacks more,
        and White twice in a row). Art. 1.7.1 lets the colour difference decide (White here);
        the corpus never meets such a history (reading 7).
        """
        return colour_preference(self.colours)

    @property
    def label(self) -> str:
        """How the explanation names him: ``PN-5 (#4)``, or ``bye``."""
        if self.is_bye:
            return Text(BYE_LABEL)
        return Text(PN_LABEL, pn=self.pairing_number, tpn=self.tpn)


BYE = ClockPlayer(tpn=0, pairing_number=BYE_PN, score=0)
"""The fictitious player: no points, always loses ("Odd number of players")."""


def players_on_the_clock(t: Tournament, k: int, grid: Grid) -> list[ClockPlayer]:
    """Return the players to pair in round k in PN order, the bye last when the count is odd.

    A player with an entry already in column k (a requested bye or an absence) is off the clock
    for the round (reading 4); the text itself is silent on absences.
    """
    players = []
    for player in t.players:
        if len(player.rounds) >= k:
            continue
        history = player.rounds[: k - 1]
        players.append(
            ClockPlayer(
                tpn=player.tpn,
                pairing_number=grid.pairing_number(player.tpn),
                score=sum(t.point_system.points_for(e) for e in history),
                colours=played_colours(history),
                met=opponents_met(history),
                points_without_playing=tuple(
                    r for r, e in enumerate(history, start=1)
                    if not e.game_was_played and t.point_system.points_for(e) > 0
                ),
                grid_colour=grid.colour(player.tpn),
            )
        )
    players.sort(key=lambda p: p.pairing_number)
    if len(players) % 2:
        players.append(BYE)
    return players


@dataclass(frozen=True)
class Compatibility:
    """What the compatibility rule needs to know about the round."""

    final_round: bool
    rounds_played: int
    tournament: Tournament

    @classmethod
    def of(cls, t: Tournament, k: int) -> Compatibility:
        return cls(is_final_round(k, t.total_rounds), k - 1, t)

    def over_half(self, player: ClockPlayer) -> bool:
        """More than 50 % of the maximum possible points (the same measure as Art. 1.8)."""
        return is_topscorer(player.score, self.rounds_played, self.tournament.point_system)


def incompatibility(a: ClockPlayer, b: ClockPlayer, rules: Compatibility) -> str | None:
    """Return why two players are not compatible, or None if they are ("Compatibility").

    The text says "not played yet **or** not the same absolute colour preference"; read
    literally that allows rematches, so both conditions must hold (reading 8). Only the colour
    clause is lifted in the last round, for two players above 50 % of the maximum points.
    The bye is incompatible with whoever got points without playing (reading 9).

    Why this is not the Dutch engine's rule: [C3] lifts the colour clause in the final round
    when *either* player is a topscorer, here *both* must be above 50 %; and [C2] bars from
    the bye only a player who had it or scored a win without playing, here any points scored
    without playing (a half-point bye too) bar him.
    """
    if a.is_bye or b.is_bye:
        player = b if a.is_bye else a
        if player.points_without_playing:
            rounds = ", ".join(str(r) for r in player.points_without_playing)
            return Text(POINTS_WITHOUT_PLAYING, rounds=rounds)
        return None
    if b.tpn in a.met:
        return Text(ALREADY_MET)
    if same_absolute_preference(a.preference, b.preference):
        if rules.final_round and rules.over_half(a) and rules.over_half(b):
            return None  # last round, both above 50 %: the colour clause is lifted
        colour = a.preference.colour
        return Text(SAME_ABSOLUTE_WHITE if colour is Color.WHITE else SAME_ABSOLUTE_BLACK)
    return None
