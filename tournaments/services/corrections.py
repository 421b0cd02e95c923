"""Corrections of C.04.2 Art. 4.3 (a result, colours, a rating), each a guided, audited change.

Every function locks the tournament row, checks the rules, writes an ``AuditEntry`` (who, when,
before, after, article, reason) and raises ``ServiceError`` with a readable sentence on refusal.
Nothing is overwritten without the old value being kept in the audit trail; a correction notified
too late (Art. 4.3, after the end of the next round) is stored beside the value the engine reads
(``Game.rating_result``, ``Game.rating_colors_swapped``), so that pairings and standings do not
move and the rating report can still use it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _, gettext_lazy, gettext_noop

from pairing.outcomes import GameResult
from pairing.text import Text
from tournaments.models import (
    GAME_RESULTS,
    TPN_FREEZE_ROUND,
    Game,
    Player,
    Result,
    Round,
    Tournament,
)
from tournaments.sentences import noted
from tournaments.services.errors import ServiceError
from tournaments.services.players import renumber
from tournaments.services.write import audit, current_player, locked, page_value, player_data

# ---------------------------------------------------------------------------------------------
# Wrong result (4.3.1), wrong colours (4.3.2): the three timing cases


class Timing(enum.Enum):
    """When a correction of round k is notified, relative to round k+1 (C.04.2 Art. 4.3)."""

    # The values are stored in the audit trail (in English); ``label`` is what a person reads.
    BEFORE_NEXT_PAIRING = gettext_noop("before the next pairing")
    NEXT_ROUND_RUNNING = gettext_noop("after the next pairing, before the end of the next round")
    RATING_ONLY = gettext_noop("after the end of the next round")

    @property
    def label(self) -> str:
        """When the correction was notified, in the request's language."""
        return _(self.value)


TIMING_EFFECT = {
    Timing.BEFORE_NEXT_PAIRING: gettext_lazy(
        "The standings and the next pairing use the corrected data."
    ),
    Timing.NEXT_ROUND_RUNNING: gettext_lazy(
        "The published pairing of the next round stands; the pairing after it uses the "
        "corrected data."
    ),
    Timing.RATING_ONLY: gettext_lazy(
        "The correction is recorded for rating purposes only and does not alter pairings or "
        "standings (C.04.2 Art. 4.3)."
    ),
}


def correction_timing(rnd: Round) -> Timing:
    """Return the timing case of a correction to a game of ``rnd``, or refuse it."""
    if rnd.state == Round.State.DRAFT:
        raise ServiceError(
            _("Round %(number)s is a draft: change its pairing, there is no result to correct.")
            % {"number": rnd.number}
        )
    following = Round.objects.filter(tournament_id=rnd.tournament_id, number=rnd.number + 1).first()
    if following is None:
        return Timing.BEFORE_NEXT_PAIRING
    if following.state == Round.State.DRAFT:
        raise ServiceError(
            _(
                "Round %(number)s is a draft paired with the old data: unpair it, correct the "
                "result, then pair again (C.04.2 Art. 4.3: the next pairing uses the new data)."
            ) % {"number": following.number}
        )
    if following.state == Round.State.PUBLISHED:
        return Timing.NEXT_ROUND_RUNNING
    return Timing.RATING_ONLY


@dataclass(frozen=True)
class CorrectionOutcome:
    timing: Timing
    message: str


def _locked_game(game: Game, loaded: str | None = None) -> tuple[Tournament, Round, Game]:
    """Lock the tournament; return the row as stored now, or refuse when it changed since the
    page was loaded (``loaded``: its ``Game.page_token``) or is gone (the pairing changed)."""
    t = locked(game.round.tournament)
    current = Game.objects.select_related("round", "white", "black").filter(pk=game.pk).first()
    if current is None:
        raise ServiceError(
            _("Board %(board)s of round %(number)s was re-paired meanwhile: nothing was saved.")
            % {"board": game.board, "number": game.round.number}
        )
    if loaded is not None and loaded != current.page_token():
        raise ServiceError(
            _(
                "Board %(board)s was changed meanwhile by someone else; it now reads "
                "%(game)s. Nothing was saved: check it and correct again if still needed."
            ) % {"board": current.board, "game": _describe(current)}
        )
    return t, current.round, current


def _describe(game: Game) -> str:
    black = game.black.name if game.black else ""
    text = f"{game.white.name} – {black} {game.result or _('pending')}"
    if game.rating_result or game.rating_colors_swapped:
        result = game.rating_result or game.result
        if game.rating_colors_swapped:
            text += " " + _("(for rating: colours exchanged, %(result)s)") % {"result": result}
        else:
            text += " " + _("(for rating: %(result)s)") % {"result": result}
    return text


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(
            _("Give the reason for the correction (who notified what, and when).")
        )
    return reason


def _game_data(game: Game) -> dict:
    return {
        "board": game.board,
        "white": game.white.name,
        "black": game.black.name if game.black_id else None,
        "white_tpn": game.white.tpn,
        "black_tpn": game.black.tpn if game.black_id else None,
        "result": game.result,
        "rating_result": game.rating_result,
        "rating_colors_swapped": game.rating_colors_swapped,
    }


def _record_game_correction(
    t: Tournament, rnd: Round, game: Game, actor, action: str, article: str, reason: str,
    timing: Timing, before: dict,
) -> CorrectionOutcome:
    """Audit a corrected game (inside the caller's transaction) and say what it changes."""
    audit(
        t, actor, f"{action} (rating only)" if timing is Timing.RATING_ONLY else action,
        round_number=rnd.number, article=article,
        reason=noted(reason, Text(timing.value)), before=before, after=_game_data(game),
    )
    t.save(update_fields=["updated_at"])
    return CorrectionOutcome(
        timing,
        _("Notified %(when)s: %(effect)s")
        % {"when": timing.label, "effect": TIMING_EFFECT[timing]},
    )


def correct_result(
    game: Game, actor, *, result: str, reason: str, loaded: str | None = None
) -> CorrectionOutcome:
    """Correct a result written down incorrectly (C.04.2 Art. 4.3.1).

    ``loaded``: the row's ``Game.page_token`` as the page showed it; refused if it changed.
    """
    reason = _clean_reason(reason)
    with transaction.atomic():
        t, rnd, game = _locked_game(game, loaded)
        if game.is_bye:
            raise ServiceError(
                _("%(name)s has a bye: there is no game result to correct.")
                % {"name": game.white.name}
            )
        if game.is_match:
            raise ServiceError(_match_not_corrected(game))
        if result not in GAME_RESULTS:
            raise ServiceError(_("%(value)r is not a game result.") % {"value": result})
        timing = correction_timing(rnd)
        before = _game_data(game)
        if timing is Timing.RATING_ONLY:
            current = game.rating_result or game.result
            if result == current:
                raise ServiceError(
                    _("Board %(board)s already has %(result)s for rating.")
                    % {"board": game.board, "result": result}
                )
            game.rating_result = "" if result == game.result else result
            game.save(update_fields=["rating_result"])
        else:
            if result == game.result:
                raise ServiceError(
                    _("Board %(board)s already has the result %(result)s.")
                    % {"board": game.board, "result": result}
                )
            game.result = result
            game.save(update_fields=["result"])
        return _record_game_correction(
            t, rnd, game, actor, "correct result", "C.04.2 4.3.1", reason, timing, before
        )


def _match_not_corrected(game: Game) -> str:
    return _(
        "Board %(board)s is a Double-Swiss match: correct its two games on the round's result "
        "page while the next round is not paired (a correction after that is not supported for "
        "matches yet)."
    ) % {"board": game.board}


def correct_colours(
    game: Game, actor, *, reason: str, loaded: str | None = None
) -> CorrectionOutcome:
    """Record that a game was played with the wrong colours (C.04.2 Art. 4.3.2).

    White and Black are exchanged; the result keeps its winner (1-0 becomes 0-1). ``loaded``:
    the row's ``Game.page_token`` as the page showed it; refused if it changed.
    """
    reason = _clean_reason(reason)
    with transaction.atomic():
        t, rnd, game = _locked_game(game, loaded)
        if game.is_bye:
            raise ServiceError(
                _("%(name)s has a bye: no colours to correct.") % {"name": game.white.name}
            )
        if game.is_match:
            raise ServiceError(_match_not_corrected(game))
        if game.result == Result.NOT_PLAYED or game.result in {
            Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT,
        }:
            raise ServiceError(
                _("Board %(board)s was not played: its colours do not count (C.04.2 Art. 3.4).")
                % {"board": game.board}
            )
        timing = correction_timing(rnd)
        before = _game_data(game)
        if timing is Timing.RATING_ONLY:
            game.rating_colors_swapped = not game.rating_colors_swapped
            game.save(update_fields=["rating_colors_swapped"])
        else:
            game.white_id, game.black_id = game.black_id, game.white_id
            if game.result:  # the winner keeps the win (1-0 becomes 0-1)
                game.result = GameResult(game.result).with_colours_exchanged.value
            game.save(update_fields=["white", "black", "result"])
            game = Game.objects.select_related("white", "black").get(pk=game.pk)
        return _record_game_correction(
            t, rnd, game, actor, "correct colours", "C.04.2 4.3.2", reason, timing, before
        )


# ---------------------------------------------------------------------------------------------
# Rating corrected (4.3.3, 2.3)


def correct_rating(
    player: Player, actor, *, rating: int | None, reason: str, loaded: str | None = None
) -> Text:
    """Correct a player's rating; return what happened to the TPNs, in a sentence.

    Standings and rating-based tie-breaks read the rating, so they follow at once. TPNs are
    recomputed from the initial order (Art. 2.2) only while round 4 is not paired (Art. 2.3).
    ``loaded``: the rating as the page showed it (``page_value``); refused if it changed.
    """
    reason = _clean_reason(reason)
    if rating is not None and not 0 <= rating <= 3500:
        raise ServiceError(_("%(rating)s is not a rating.") % {"rating": rating})
    with transaction.atomic():
        t = locked(player.tournament)
        player = current_player(t, player)
        if loaded is not None and loaded != page_value(player.rating):
            raise ServiceError(
                _(
                    "%(name)s's rating was changed meanwhile by someone else to %(rating)s: "
                    "nothing was saved. Check it and correct again."
                ) % {"name": player.name, "rating": player.rating or _("unrated")}
            )
        if rating == player.rating:
            raise ServiceError(
                _("%(name)s already has the rating %(rating)s.")
                % {"name": player.name, "rating": rating}
            )
        before = player_data(player)
        player.rating = rating
        player.save(update_fields=["rating"])
        if t.tpns_frozen():
            effect = Text(TPNS_STAY_FROZEN, number=TPN_FREEZE_ROUND)
        elif t.round_set.exists():
            renumber(t)
            effect = Text(TPNS_RECOMPUTED_ROUNDS_KEPT, number=TPN_FREEZE_ROUND)
        else:
            renumber(t)
            effect = Text(TPNS_RECOMPUTED)
        player.refresh_from_db()
        audit(
            t, actor, "correct rating", player=player, article="C.04.2 4.3.3, 2.3",
            reason=noted(reason, effect), before=before, after=player_data(player),
        )
        t.save(update_fields=["updated_at"])
    return effect


TPNS_STAY_FROZEN = gettext_noop(
    "TPNs stay frozen: round %(number)s has been paired (C.04.2 Art. 2.3); the new rating counts "
    "for standings and tie-breaks."
)
TPNS_RECOMPUTED_ROUNDS_KEPT = gettext_noop(
    "TPNs recomputed from the corrected initial order (round %(number)s is not paired yet, "
    "C.04.2 Art. 2.3); paired rounds keep their games."
)
TPNS_RECOMPUTED = gettext_noop(
    "TPNs recomputed from the corrected initial order (C.04.2 Art. 2.2, 2.3)."
)
