"""Rounds: paired by the engine, unpaired, published (C.04.2 Art. 3.6), finished."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop, ngettext

from pairing.errors import PairingError
from pairing.model import RoundPairing, Tournament as EngineTournament
from pairing.text import Text
from tournaments.models import ByeRequest, Game, Result, Round, Tournament
from tournaments.sentences import about, engine_said, in_english
from tournaments.services.engine_state import EngineState, build_engine_state
from tournaments.services.errors import ServiceError
from tournaments.services.tournament import draw_by_lot
from tournaments.services.write import audit, locked, locked_round, urgent


def check_pairing(t: Tournament, pairing: RoundPairing, state: EngineTournament, k: int) -> None:
    """Check that the engine paired exactly the players due to play round k, once each."""
    columns = t.system.first_column(k)
    due = {
        p.tpn for p in state.players if len(p.rounds) < columns  # no preset entry in column k
    }
    seen: list[int] = [tpn for b in pairing.boards for tpn in (b.white, b.black)]
    if pairing.bye is not None:
        seen.append(pairing.bye)
    if len(seen) != len(set(seen)) or set(seen) != due:
        raise ServiceError(
            _(
                "The engine's pairing of round %(number)s does not cover the players due to play "
                "(paired %(paired)s, expected %(due)s); nothing was saved."
            ) % {"number": k, "paired": sorted(seen), "due": sorted(due)}
        )


def pair_next_round(tournament: Tournament, actor) -> Round:
    """Pair the next round with the engine and save it as a draft, in one transaction.

    The tournament row is locked, so two arbiters pairing at once get one round; the second one
    is told that the round is already paired. A large round is paired by a worker instead, the
    row unlocked meanwhile (``tournaments.services.pairing_jobs``).
    """
    with transaction.atomic():
        t = locked(tournament)
        k = round_to_pair(t, actor)
        built = build_engine_state(t, pairing_round=k)
        pairing, data = engine_pairing(t, built, k)
        return save_pairing(t, actor, k, built, pairing, data)


def round_to_pair(t: Tournament, actor) -> int:
    """The number of the round to pair now (of a locked tournament), or refuse: a draft or an
    unfinished round first, all rounds paired. Round 1 draws the initial colour by lot if the
    arbiter has not (C.04.3 Art. 5.1), recorded as the arbiter's draw is."""
    last = t.last_round()
    if last is not None and last.state == Round.State.DRAFT:
        raise ServiceError(
            _("Round %(number)s is a draft: publish or unpair it first.")
            % {"number": last.number}
        )
    if last is not None and last.state != Round.State.FINISHED:
        missing = [str(g.board) for g in last.games.all() if not g.has_result]
        if missing:
            raise ServiceError(missing_results(last.number, missing))
        raise ServiceError(
            _("Round %(number)s is not finished: finish it first.") % {"number": last.number}
        )
    k = 1 if last is None else last.number + 1
    if k > t.rounds:
        raise ServiceError(_("All %(count)s rounds have been paired.") % {"count": t.rounds})
    if k == 1 and not t.initial_color:
        draw_by_lot(t, actor)
    return k


def engine_pairing(
    t: Tournament, built: EngineState, k: int, progress: Callable[[Text], None] | None = None
) -> tuple[RoundPairing, dict]:
    """The engine's pairing of round k and its explanation as data, checked to pair exactly the
    players due; refused with the engine's reason when no legal pairing exists."""
    state = built.tournament
    due = [p for p in state.players if len(p.rounds) < t.system.first_column(k)]
    if len(due) < 2:
        raise ServiceError(
            ngettext(
                "Only %(count)s player(s) to pair in round %(number)s.",
                "Only %(count)s player(s) to pair in round %(number)s.",
                len(due),
            ) % {"count": len(due), "number": k}
        )
    try:
        pairing, data = t.system.pair_explained(state, progress=progress)
    except PairingError as error:
        reason = error.args[0] if len(error.args) == 1 else str(error)
        raise ServiceError(
            _(CANNOT_PAIR) % {"number": k, "error": engine_said(error)},
            text=Text(CANNOT_PAIR, number=k, error=reason),
        ) from error
    if progress is not None:
        progress(Text(CHECKING))
    check_pairing(t, pairing, state, k)
    if "brackets" in data:  # the Dutch explanation names players by TPN: keep who they were
        data["players"] = {str(tpn): p.pk for tpn, p in built.player_by_tpn.items()}
    return pairing, data


CHECKING = gettext_noop("checking the pairing against the rules")
CANNOT_PAIR = gettext_noop("The engine cannot pair round %(number)s: %(error)s")


def save_pairing(
    t: Tournament, actor, k: int, built: EngineState, pairing: RoundPairing, data: dict
) -> Round:
    """Save the engine's pairing of round k as a draft (call with the tournament locked): the
    boards in board order (C.04.2 Art. 3.6), the PAB, the requested byes, the audit entry."""
    state = built.tournament
    rnd = Round.objects.create(
        tournament=t, number=k, explanation="\n".join(pairing.explanation),
        explanation_data=data,
    )
    player = built.player_by_tpn
    games = [
        Game(round=rnd, board=n, white=player[w], black=player[b], is_match=t.system.matches)
        for n, (w, b) in enumerate(t.system.board_order(state, pairing), start=1)
    ]
    if pairing.bye is not None:
        games.append(Game(round=rnd, white=player[pairing.bye], result=Result.PAIRING_BYE))
    for request in ByeRequest.objects.filter(
        player__tournament=t, round_number=k
    ).select_related("player"):  # not one query per request
        if request.player.takes_request(k):
            games.append(Game(round=rnd, white=request.player, result=request.kind))
    Game.objects.bulk_create(games, batch_size=1000)
    if t.status == Tournament.Status.REGISTRATION:
        t.status = Tournament.Status.RUNNING
        t.save(update_fields=["status", "updated_at"])
    else:
        t.save(update_fields=["updated_at"])
    # The rows just written, in the order the round reads them back (Game.Meta.ordering): the
    # boards, then the rows without a board by TPN; not read again (5000 rows and their players).
    games.sort(key=lambda g: (g.board is None, g.board or 0, g.white.tpn))
    audit(
        t, actor, "pair round", round_number=k, article=t.system.article,
        after=[row(g) for g in games],
    )
    return rnd


def round_rows(rnd: Round) -> list[str]:
    """The rows of a round as the audit trail stores them: a board as its line
    (``3. Dupont - Keller ½-½``), a row without Black as its player and kind, each a sentence
    said to each reader in their language."""
    return [row(g) for g in rnd.games.select_related("white", "black")]


def row(g: Game) -> Text:
    """One row of a round as the audit trail says it (``round_rows``)."""
    if g.black_id is None:
        return about(g.white.name, Text(in_english(g.get_result_display())))
    return Text(BOARD_ROW, board=g.board, white=g.white.name, black=g.black.name, result=_result(g))


BOARD_ROW = gettext_noop("%(board)s. %(white)s - %(black)s %(result)s")
BOTH_GAMES = gettext_noop("%(first)s · %(second)s")


def _result(game: Game) -> str:
    """A board's result as its row says it: ``½-½``, a match's two games, ``*`` while pending."""
    first = Text(in_english(game.get_result_display())) if game.result else "*"
    if not game.is_match:
        return first
    second = Text(in_english(game.get_second_result_display())) if game.second_result else "*"
    return Text(BOTH_GAMES, first=first, second=second)


def missing_results(number: int, boards: list[str]) -> str:
    return _("Round %(number)s has missing results (board %(boards)s).") % {
        "number": number, "boards": ", ".join(boards),
    }




def round_in_state(rnd: Round) -> str:
    """Say that a round is a draft, published or finished (what an action did not expect)."""
    if rnd.state == Round.State.DRAFT:
        return _("Round %(number)s is draft (not published).") % {"number": rnd.number}
    if rnd.state == Round.State.PUBLISHED:
        return _("Round %(number)s is published.") % {"number": rnd.number}
    return _("Round %(number)s is finished.") % {"number": rnd.number}


def unpair_round(rnd: Round, actor) -> None:
    """Delete a draft round (it was never published)."""
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is published: it cannot be unpaired.") % {"number": rnd.number}
            )
        before = round_rows(rnd)
        number = rnd.number
        rnd.delete()
        if number == 1:
            t.status = Tournament.Status.REGISTRATION
        t.save(update_fields=["status", "updated_at"])
        audit(t, actor, "unpair round", round_number=number, before=before)


def publish_round(rnd: Round, actor) -> Round:
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is already published.") % {"number": rnd.number}
            )
        rnd.state = Round.State.PUBLISHED
        rnd.published_at = timezone.now()
        rnd.save(update_fields=["state", "published_at"])
        urgent(t.pk)  # the players wait for the pairings: shown at once
        t.save(update_fields=["updated_at"])
        audit(t, actor, "publish round", round_number=rnd.number, article="C.04.2 3.6")
    return rnd


def unpublish_round(rnd: Round, actor) -> Round:
    """Take a published round back to a draft while no board has a result (undo a publish)."""
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if rnd.state != Round.State.PUBLISHED:
            raise ServiceError(round_in_state(rnd))
        entered = [str(g.board) for g in rnd.games.all() if not g.is_bye and g.has_result]
        if entered:
            raise ServiceError(
                _(
                    "Round %(number)s has results (board %(boards)s): it stays "
                    "published; change the pairing under C.04.2 Art. 4.4 instead."
                ) % {"number": rnd.number, "boards": ", ".join(entered)}
            )
        rnd.state = Round.State.DRAFT
        rnd.published_at = None
        rnd.save(update_fields=["state", "published_at"])
        urgent(t.pk)  # pairings taken back: off the open pages at once
        t.save(update_fields=["updated_at"])
        audit(t, actor, "unpublish round", round_number=rnd.number, before="published",
               after="draft")
    return rnd



def finish_round(rnd: Round, actor) -> Round:
    """Close a published round whose results are all in."""
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if rnd.state != Round.State.PUBLISHED:
            raise ServiceError(round_in_state(rnd))
        missing = [str(g.board) for g in rnd.games.all() if not g.has_result]
        if missing:
            raise ServiceError(missing_results(rnd.number, missing))
        rnd.state = Round.State.FINISHED
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["state", "finished_at"])
        if rnd.number == t.rounds:
            t.status = Tournament.Status.FINISHED
        t.save(update_fields=["status", "updated_at"])
        audit(t, actor, "finish round", round_number=rnd.number)
    return rnd
