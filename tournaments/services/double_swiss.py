"""What the web app stores differently for the FIDE Double-Swiss system (C.04.5).

A round is a match of two games with alternating colours: the row's White plays game 1 with
White and game 2 with Black (Art. 4.4). ``Game.result`` is game 1, ``Game.second_result``
game 2, each written from its own White (game 2's White is the row's Black), as on a
scoresheet. Scores are game points; byes are worth the tournament's *match* values
(``points_pairing_bye`` etc., Preface: byes apply only to matches). The engine sees each match
as two TRF columns (``pairing.double_swiss.trf``); everything else that differs is the system's
(``pairing.systems.DOUBLE_SWISS``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from pairing.model import RoundEntry
from pairing.outcomes import GameResult
from tournaments.models import BYE_OUTCOMES, MATCH_GAME_RESULTS, Game, Result, Tournament
from tournaments.sentences import labelled
from tournaments.services.errors import ServiceError

__all__ = ["game_label", "match_entries", "match_result", "set_match_bye_values"]

DUTCH_BYE_DEFAULTS = (10, 5, 10)


def set_match_bye_values(t: Tournament) -> None:
    """Give a Double-Swiss tournament still on the Dutch bye values the match values: the PAB
    a won game and a drawn one (Art. 1.4), a requested bye a drawn match, a full-point bye a
    match won 2-0 (and back when it leaves the Double-Swiss system)."""
    byes = (t.points_pairing_bye, t.points_half_bye, t.points_full_bye)
    match = (t.points_win + t.points_draw, 2 * t.points_draw, 2 * t.points_win)
    if t.system.matches and byes == DUTCH_BYE_DEFAULTS:
        t.points_pairing_bye, t.points_half_bye, t.points_full_bye = match
    elif not t.system.matches and byes == match:
        t.points_pairing_bye, t.points_half_bye, t.points_full_bye = DUTCH_BYE_DEFAULTS


def match_entries(game: Game, tpn_of: dict[int, int]) -> dict[int, tuple[RoundEntry, ...]]:
    """Return both columns of each player of a match row (a bye fills both with its entry)."""
    if game.black_id is None:
        return {game.white_id: (BYE_OUTCOMES[game.result].entry(),) * 2}
    white, black = tpn_of[game.white_id], tpn_of[game.black_id]
    w1, b1 = GameResult(game.result).entries(white, black)
    b2, w2 = GameResult(game.second_result).entries(black, white)  # game 2: Black has White
    return {game.white_id: (w1, w2), game.black_id: (b1, b2)}


def match_result(value: str, board: int | None, *, complete: bool) -> tuple[str, str]:
    """Read ``game1|game2`` as entered; refuse what a match cannot hold.

    Each game is a game result (½-0, 0-½ and 0-0 included, Preface), never an annulled game
    or a bye (byes apply only to matches). A game 2 without game 1 is refused; in a finished
    round both are needed.
    """
    first, sep, second = value.partition("|")
    where = _("Board %(board)s") % {"board": board}
    if not sep:
        raise ServiceError(labelled(where, _("a match needs the results of its two games.")))
    for n, part in ((1, first), (2, second)):
        if part and part not in MATCH_GAME_RESULTS:
            raise ServiceError(labelled(
                _("Board %(board)s, game %(game)s") % {"board": board, "game": n},
                _("%(value)r is not a game result of a match.") % {"value": part},
            ))
    if second and not first:
        raise ServiceError(labelled(where, _("game 2 has a result but game 1 has none.")))
    if complete and not (first and second):
        raise ServiceError(labelled(where, _("a finished round needs both games' results.")))
    return first, second


def game_label(result: str) -> str:
    """A game result as pages show it (``½-0``)."""
    return Result(result).label if result else "…"
