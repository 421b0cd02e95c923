"""Results: entered in a published round, changed while the next round is not paired."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import GAME_RESULTS, Game, Result, Round
from tournaments.services import double_swiss
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import row
from tournaments.services.write import audit, locked_round


@dataclass(frozen=True)
class ResultsSaved:
    """What ``set_results`` did: how many boards it saved, and why it left others alone."""

    saved: int
    refused: tuple[str, ...] = ()


def _result_label(value: str) -> str:
    if "|" in value:  # the two games of a Double-Swiss match
        return _(" and ").join(_result_label(part) for part in value.split("|"))
    return str(Result(value).label) if value else _("no result")


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
        t, rnd = locked_round(rnd)
        if rnd.state == Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is not published yet.") % {"number": rnd.number}
            )
        later = t.round_set.filter(number__gt=rnd.number).exists()
        if later:
            raise ServiceError(
                _(
                    "Round %(next)s is already paired: a change to round %(number)s is a "
                    "correction (C.04.2 Art. 4.3)."
                ) % {"next": rnd.number + 1, "number": rnd.number}
            )
        games = {g.pk: g for g in rnd.games.select_related("white", "black")}
        changed = 0
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
            current = game.result
            if game.is_match and not game.is_bye:
                current = game.match_result
                was = "|" if was == "" else was
            if value == was or value == current:
                continue
            if was is not None and current != was:
                black = game.black.name if game.black else ""
                refused.append(
                    _(
                        "Board %(board)s (%(white)s – %(black)s): %(result)s not saved, the board "
                        "was changed meanwhile and now holds %(current)s."
                    ) % {
                        "board": game.board, "white": game.white.name, "black": black,
                        "result": _result_label(value), "current": _result_label(current),
                    }
                )
                continue
            if game.is_bye:
                raise ServiceError(
                    _("%(name)s has a bye: there is no result to enter.")
                    % {"name": game.white.name}
                )
            if game.is_match:
                first, second = double_swiss.match_result(
                    value, game.board, complete=rnd.state == Round.State.FINISHED
                )
                game.result, game.second_result = first, second
                game.save(update_fields=["result", "second_result"])
                changed += 1
                audit(
                    t, actor, "enter result" if current == "|" else "change result",
                    round_number=rnd.number, before=current, after=value, reason=row(game),
                )
                continue
            allowed = GAME_RESULTS if rnd.state == Round.State.FINISHED else GAME_RESULTS | {""}
            if value not in allowed:
                raise ServiceError(
                    _("Board %(board)s: %(value)r is not a game result.")
                    % {"board": game.board, "value": value}
                )
            before = game.result
            game.result = value
            game.save(update_fields=["result"])
            changed += 1
            audit(
                t, actor, "enter result" if before == "" else "change result",
                round_number=rnd.number, before=before, after=value, reason=row(game),
            )
        if changed:
            t.save(update_fields=["updated_at"])
    return ResultsSaved(changed, tuple(refused))


def set_result(game: Game, actor, result: str) -> ResultsSaved:
    return set_results(game.round, actor, {game.pk: result})
