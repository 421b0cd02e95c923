"""Results: entered in a published round, changed while the next round is not paired.

Whatever their number, the results of one call are written in one transaction: the version of
the tournament rises once (the standings' with it only when the round counts in them, before or
after: ``_counted``), the games are updated one statement per distinct result, and the
audit trail gets its entries in one insert (a whole round of 2500 boards is a few statements).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    GAME_RESULTS,
    AuditEntry,
    Game,
    Result,
    Round,
    Tournament,
    pending_game,
)
from tournaments.services import double_swiss
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import row
from tournaments.services.write import audit_entry, changed, locked_round


@dataclass(frozen=True)
class ResultsSaved:
    """What ``set_results`` did: how many boards it saved, and why it left others alone."""

    saved: int
    refused: tuple[str, ...] = ()


@dataclass(frozen=True)
class BoardEntered:
    """What ``enter_board`` did: the board as stored now, and whether this call stored it
    (False: it held that result already)."""

    game: Game
    stored: bool


def _result_label(value: str) -> str:
    """A result as an arbiter reads it (``½-½``; a match's two games joined)."""
    if "|" in value:  # the two games of a Double-Swiss match
        return _(" and ").join(_result_label(part) for part in value.split("|"))
    return str(Result(value).label) if value else _("no result")


def _open(rnd: Round) -> tuple[Tournament, Round]:
    """Lock the tournament; return it and the round as stored now, if results go in it. The
    version is raised by what is written (``_write``), if anything is."""
    t, rnd = locked_round(rnd, change=False)
    if rnd.state == Round.State.DRAFT:
        raise ServiceError(_("Round %(number)s is not published yet.") % {"number": rnd.number})
    if t.round_set.filter(number__gt=rnd.number).exists():
        raise ServiceError(
            _(
                "Round %(next)s is already paired: a change to round %(number)s is a "
                "correction (C.04.2 Art. 4.3)."
            ) % {"next": rnd.number + 1, "number": rnd.number}
        )
    return t, rnd


def _stored_value(game: Game) -> str:
    """What a board holds, as result entry sends it (a match: ``game1|game2``)."""
    return game.match_result if game.is_match and not game.is_bye else game.result


def set_results(
    rnd: Round, actor, results: dict[int, str], *, seen: dict[int, str] | None = None
) -> ResultsSaved:
    """Enter or change game results of a round: ``results`` maps game ids to ``Result`` values.

    Results are entered in a published round, or changed in the last finished round while the
    next one is not paired. ``seen`` maps game ids to the values the arbiter's page was loaded
    with (a board it does not name was shown pending): only boards changed on that page are
    written, and a board whose stored result differs from what the page showed is left alone
    and reported (optimistic concurrency: two arbiters, or a stale tab, never erase a result).
    Without ``seen`` every value given is written.
    """
    with transaction.atomic():
        t, rnd = _open(rnd)
        ids = [int(game_id) for game_id in results]
        games = {
            g.pk: g for g in rnd.games.filter(pk__in=ids).select_related("white", "black")
        }
        writes: list[tuple[Game, str]] = []
        refused = []
        for game_id, value in results.items():
            game = games.get(int(game_id))
            if game is None and seen is not None:
                refused.append(_(
                    "A board of your page was paired again meanwhile (C.04.2 Art. 4.4): its "
                    "result was not saved. Check the round as it is now."
                ))
                continue
            if game is None:
                raise ServiceError(
                    _("Game %(game)s is not in round %(number)s.")
                    % {"game": game_id, "number": rnd.number}
                )
            was = None if seen is None else seen.get(game_id, "")
            current = _stored_value(game)
            if game.is_match and not game.is_bye and was == "":
                was = "|"
            if value == was or value == current:
                continue
            if was is not None and current != was:
                refused.append(
                    _(
                        "Board %(board)s (%(white)s – %(black)s): %(result)s not saved, the board "
                        "was changed meanwhile and now holds %(current)s."
                    ) % {
                        "board": game.board, "white": game.white.name,
                        "black": game.black.name if game.black else "",
                        "result": _result_label(value), "current": _result_label(current),
                    }
                )
                continue
            writes.append((game, value))
        _write(t, rnd, actor, writes)
    return ResultsSaved(len(writes), tuple(refused))


def enter_board(rnd: Round, actor, board: int, value: str) -> BoardEntered:
    """Enter the result of one board by its number, as typed in the hall (quick entry).

    Only a board still pending takes a result: a board that holds another one keeps it, and the
    arbiter is told that a change is a correction (C.04.2 Art. 4.3), made on the round's page.
    A fixed number of queries, whatever the size of the round.
    """
    with transaction.atomic():
        t, rnd = _open(rnd)
        game = rnd.games.select_related("white", "black").filter(board=board).first()
        if game is None:
            raise ServiceError(
                _("Round %(number)s has no board %(board)s.")
                % {"number": rnd.number, "board": board}
            )
        current = _stored_value(game)
        if value == current:
            return BoardEntered(game, stored=False)
        if current not in ("", "|"):
            raise ServiceError(
                _(
                    "Board %(board)s (%(white)s – %(black)s) already holds %(current)s: "
                    "%(result)s not saved. Changing an entered result is a correction (C.04.2 "
                    "Art. 4.3): make it in the round's results form or on the board's "
                    "correction page."
                ) % {
                    "board": board, "white": game.white.name, "black": game.black.name,
                    "current": _result_label(current), "result": _result_label(value),
                }
            )
        _write(t, rnd, actor, [(game, value)])
    return BoardEntered(game, stored=True)


def _write(t: Tournament, rnd: Round, actor, writes: list[tuple[Game, str]]) -> None:
    """Check and store each board's new result, with one audit entry each: one update per
    distinct result, one insert for the audit trail."""
    finished = rnd.state == Round.State.FINISHED
    allowed = GAME_RESULTS if finished else GAME_RESULTS | {Result.PENDING}
    by_value: dict[tuple[str, str | None], list[int]] = defaultdict(list)
    entries = []
    for game, value in writes:
        before = _stored_value(game)
        if game.is_bye:
            raise ServiceError(
                _("%(name)s has a bye: there is no result to enter.") % {"name": game.white.name}
            )
        if game.is_match:
            game.result, game.second_result = double_swiss.match_result(
                value, game.board, complete=finished
            )
            by_value[(game.result, game.second_result)].append(game.pk)
        elif value in allowed:
            game.result = value
            by_value[(value, None)].append(game.pk)
        else:
            raise ServiceError(
                _("Board %(board)s: %(value)r is not a game result.")
                % {"board": game.board, "value": value}
            )
        entries.append(audit_entry(
            t, actor, "enter result" if before in ("", "|") else "change result",
            round_number=rnd.number, before=before, after=value, reason=row(game),
        ))
    if not writes:
        return
    changed(t.pk, standings=_counted(rnd, [game.pk for game, _value in writes]))
    for (first, second), pks in by_value.items():
        fields = {"result": first} if second is None else {"result": first, "second_result": second}
        Game.objects.filter(pk__in=pks).update(**fields)
    AuditEntry.objects.bulk_create(entries)
    t.save(update_fields=["updated_at"])


def _counted(rnd: Round, written: list[int]) -> bool:
    """Whether the round, whose boards ``written`` take a result, may count in the standings
    before or after (they count complete rounds only: ``services.standings``). Not when
    another of its boards waits for a result and keeps waiting: then only the pairings, the
    crosstable and the players' cards show the change. A finished round counts: its
    correction (C.04.2 Art. 4.3, 4.4) changes the standings."""
    if rnd.state == Round.State.FINISHED:
        return True
    return not rnd.games.filter(pending_game()).exclude(pk__in=written).exists()


def set_result(game: Game, actor, result: str) -> ResultsSaved:
    return set_results(game.round, actor, {game.pk: result})
