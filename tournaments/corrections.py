"""Corrections and changes of C.04.2 Art. 2.3, 4.3 and 4.4, each a guided, audited workflow.

Like ``tournaments.services``, every function locks the tournament row, checks the rules, writes
an ``AuditEntry`` (who, when, before, after, article, reason) and raises ``ServiceError`` with a
readable sentence on refusal. Nothing is overwritten without the old value being kept in the
audit trail; a correction notified too late (Art. 4.3, after the end of the next round) is stored
beside the value the engine reads (``Game.rating_result``, ``Game.rating_colors_swapped``), so
that pairings and standings do not move and the rating report can still use it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from django.db import transaction

from pairing.model import Board, RoundPairing
from tournaments.models import (
    GAME_RESULTS,
    TPN_FREEZE_ROUND,
    ByeRequest,
    Game,
    Player,
    Result,
    Round,
    Tournament,
)
from tournaments.services import (
    ServiceError,
    _audit,
    _locked,
    _player_data,
    _renumber,
    board_order,
    build_engine_state,
    _scores,
)

# ---------------------------------------------------------------------------------------------
# Wrong result (4.3.1), wrong colours (4.3.2): the three timing cases


class Timing(enum.Enum):
    """When a correction of round k is notified, relative to round k+1 (C.04.2 Art. 4.3)."""

    BEFORE_NEXT_PAIRING = "before the next pairing"
    NEXT_ROUND_RUNNING = "after the next pairing, before the end of the next round"
    RATING_ONLY = "after the end of the next round"


TIMING_EFFECT = {
    Timing.BEFORE_NEXT_PAIRING: "The standings and the next pairing use the corrected data.",
    Timing.NEXT_ROUND_RUNNING: (
        "The published pairing of the next round stands; the pairing after it uses the "
        "corrected data."
    ),
    Timing.RATING_ONLY: (
        "Notified after the end of the next round: the correction is recorded for rating "
        "purposes only and does not alter pairings or standings (C.04.2 Art. 4.3)."
    ),
}


def correction_timing(rnd: Round) -> Timing:
    """Return the timing case of a correction to a game of ``rnd``, or refuse it."""
    if rnd.state == Round.State.DRAFT:
        raise ServiceError(
            f"Round {rnd.number} is a draft: change its pairing, there is no result to correct."
        )
    following = Round.objects.filter(tournament_id=rnd.tournament_id, number=rnd.number + 1).first()
    if following is None:
        return Timing.BEFORE_NEXT_PAIRING
    if following.state == Round.State.DRAFT:
        raise ServiceError(
            f"Round {following.number} is a draft paired with the old data: unpair it, correct "
            "the result, then pair again (C.04.2 Art. 4.3: the next pairing uses the new data)."
        )
    if following.state == Round.State.PUBLISHED:
        return Timing.NEXT_ROUND_RUNNING
    return Timing.RATING_ONLY


@dataclass(frozen=True)
class CorrectionOutcome:
    timing: Timing
    message: str


def _locked_game(game: Game) -> tuple[Tournament, Round, Game]:
    t = _locked(game.round.tournament)
    game = Game.objects.select_related("round", "white", "black").get(pk=game.pk)
    return t, game.round, game


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("Give the reason for the correction (who notified what, and when).")
    return reason


def _game_data(game: Game) -> dict:
    return {
        "board": game.board,
        "white": game.white.name,
        "black": game.black.name if game.black_id else None,
        "result": game.result,
        "rating_result": game.rating_result,
        "rating_colors_swapped": game.rating_colors_swapped,
    }


def correct_result(game: Game, actor, *, result: str, reason: str) -> CorrectionOutcome:
    """Correct a result written down incorrectly (C.04.2 Art. 4.3.1)."""
    reason = _clean_reason(reason)
    with transaction.atomic():
        t, rnd, game = _locked_game(game)
        if game.is_bye:
            raise ServiceError(f"{game.white.name} has a bye: there is no game result to correct.")
        if result not in GAME_RESULTS:
            raise ServiceError(f"{result!r} is not a game result.")
        timing = correction_timing(rnd)
        before = _game_data(game)
        if timing is Timing.RATING_ONLY:
            current = game.rating_result or game.result
            if result == current:
                raise ServiceError(f"Board {game.board} already has {result} for rating.")
            game.rating_result = "" if result == game.result else result
            game.save(update_fields=["rating_result"])
        else:
            if result == game.result:
                raise ServiceError(f"Board {game.board} already has the result {result}.")
            game.result = result
            game.save(update_fields=["result"])
        _audit(
            t, actor,
            "correct result (rating only)" if timing is Timing.RATING_ONLY else "correct result",
            round_number=rnd.number, article="C.04.2 4.3.1",
            reason=f"{reason} [{timing.value}]", before=before, after=_game_data(game),
        )
        t.save(update_fields=["updated_at"])
    return CorrectionOutcome(timing, TIMING_EFFECT[timing])


_MIRROR = {
    Result.WHITE_WINS: Result.BLACK_WINS,
    Result.BLACK_WINS: Result.WHITE_WINS,
    Result.WHITE_WINS_FORFEIT: Result.BLACK_WINS_FORFEIT,
    Result.BLACK_WINS_FORFEIT: Result.WHITE_WINS_FORFEIT,
}


def correct_colours(game: Game, actor, *, reason: str) -> CorrectionOutcome:
    """Record that a game was played with the wrong colours (C.04.2 Art. 4.3.2).

    White and Black are exchanged; the result keeps its winner (1-0 becomes 0-1).
    """
    reason = _clean_reason(reason)
    with transaction.atomic():
        t, rnd, game = _locked_game(game)
        if game.is_bye:
            raise ServiceError(f"{game.white.name} has a bye: no colours to correct.")
        if game.result == Result.NOT_PLAYED or game.result in {
            Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT,
        }:
            raise ServiceError(
                f"Board {game.board} was not played: its colours do not count (C.04.2 Art. 3.4)."
            )
        timing = correction_timing(rnd)
        before = _game_data(game)
        if timing is Timing.RATING_ONLY:
            game.rating_colors_swapped = not game.rating_colors_swapped
            game.save(update_fields=["rating_colors_swapped"])
        else:
            game.white_id, game.black_id = game.black_id, game.white_id
            game.result = _MIRROR.get(game.result, game.result)
            game.save(update_fields=["white", "black", "result"])
            game = Game.objects.select_related("white", "black").get(pk=game.pk)
        _audit(
            t, actor,
            "correct colours (rating only)" if timing is Timing.RATING_ONLY else "correct colours",
            round_number=rnd.number, article="C.04.2 4.3.2",
            reason=f"{reason} [{timing.value}]", before=before, after=_game_data(game),
        )
        t.save(update_fields=["updated_at"])
    return CorrectionOutcome(timing, TIMING_EFFECT[timing])


# ---------------------------------------------------------------------------------------------
# Rating corrected (4.3.3, 2.3)


def correct_rating(player: Player, actor, *, rating: int | None, reason: str) -> str:
    """Correct a player's rating; return what happened to the TPNs, in a sentence.

    Standings and rating-based tie-breaks read the rating, so they follow at once. TPNs are
    recomputed from the initial order (Art. 2.2) only while round 4 is not paired (Art. 2.3).
    """
    reason = _clean_reason(reason)
    if rating is not None and not 0 <= rating <= 3500:
        raise ServiceError(f"{rating} is not a rating.")
    with transaction.atomic():
        t = _locked(player.tournament)
        player = Player.objects.get(pk=player.pk)
        if rating == player.rating:
            raise ServiceError(f"{player.name} already has the rating {rating}.")
        before = _player_data(player)
        player.rating = rating
        player.save(update_fields=["rating"])
        if t.tpns_frozen():
            effect = (
                f"TPNs stay frozen: round {TPN_FREEZE_ROUND} has been paired "
                "(C.04.2 Art. 2.3); the new rating counts for standings and tie-breaks."
            )
        elif t.round_set.exists():
            _renumber(t)
            effect = (
                f"TPNs recomputed from the corrected initial order (round {TPN_FREEZE_ROUND} is "
                "not paired yet, C.04.2 Art. 2.3); paired rounds keep their games."
            )
        else:
            _renumber(t)
            effect = "TPNs recomputed from the corrected initial order (C.04.2 Art. 2.2, 2.3)."
        player.refresh_from_db()
        _audit(
            t, actor, "correct rating", player=player, article="C.04.2 4.3.3, 2.3",
            reason=f"{reason} [{effect}]", before=before, after=_player_data(player),
        )
        t.save(update_fields=["updated_at"])
    return effect
