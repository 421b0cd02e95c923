"""Changes to several players at once: byes, absences, withdrawals, leaving a draft.

Each function locks the tournament once and applies the one-player services of
``tournaments.services.players`` in the same transaction, so every rule is checked and every
change is audited as if made one by one; the first refusal undoes them all (all or nothing), and the
message names the player.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _, gettext_lazy

from pairing.text import Text
from tournaments.models import Player, Round, Tournament
from tournaments.sentences import about, in_english
from tournaments.services.errors import ServiceError
from tournaments.services.pairing_changes import DRAFT_LEAVE_KINDS
from tournaments.services.players import not_due_to_play, request_bye, withdraw_player
from tournaments.services.rounds import pair_next_round, round_rows, unpair_round
from tournaments.services.write import audit, locked, locked_round

BULK_ACTIONS = {
    "H": gettext_lazy("Half-point bye"),
    "Z": gettext_lazy("Zero-point bye"),
    "A": gettext_lazy("Absent"),
    "F": gettext_lazy("Full-point bye"),
    "withdraw": gettext_lazy("Withdraw"),
}
"""What the dashboard's bulk form can do to the players ticked."""


def _players(t: Tournament, players: Iterable[Player]) -> list[Player]:
    chosen = list(players)
    if not chosen:
        raise ServiceError(_("Tick at least one player."))
    current = {p.pk: p for p in t.players.filter(pk__in=[p.pk for p in chosen])}
    missing = [p.name for p in chosen if p.pk not in current]
    if missing:
        raise ServiceError(
            _("%(names)s: removed meanwhile; nothing was done.") % {"names": ", ".join(missing)}
        )
    return sorted(current.values(), key=lambda p: p.tpn)


def _each(players: list[Player], change) -> None:
    for player in players:
        try:
            change(player)
        except ServiceError as error:
            raise ServiceError(
                _("%(name)s: %(error)s Nothing was done for anyone.")
                % {"name": player.name, "error": error}
            ) from error


def apply_to_players(
    tournament: Tournament, actor, players: Iterable[Player], *, action: str, round_number: int
) -> list[Player]:
    """Record the same bye or absence (C.04.2 Art. 3.3) for ``round_number``, or withdraw the
    players from it on (Art. 3.2); all of them or none."""
    if action not in BULK_ACTIONS:
        raise ServiceError(_("Unknown action %(action)r.") % {"action": action})
    with transaction.atomic():
        t = locked(tournament)
        chosen = _players(t, players)
        if action == "withdraw":
            _each(chosen, lambda p: withdraw_player(p, actor, from_round=round_number))
        else:
            _each(chosen, lambda p: request_bye(
                p, actor, round_number=round_number, kind=action
            ))
    return chosen


def leave_draft_many(rnd: Round, actor, *, players: Iterable[Player], kind: str) -> Round:
    """Several players of a draft round will not play it: unpair the draft, record each one's
    withdrawal (3.2) or bye / absence (3.3), and let the engine pair the round once again."""
    if kind not in dict(DRAFT_LEAVE_KINDS):
        raise ServiceError(_("Unknown choice %(choice)r.") % {"choice": kind})
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _(
                    "Round %(number)s is published: enter forfeits, or change the pairing under "
                    "C.04.2 Art. 4.4."
                ) % {"number": rnd.number}
            )
        chosen = _players(t, players)
        for player in chosen:
            if not player.plays_in(rnd.number):
                raise ServiceError(not_due_to_play(player, rnd.number))
        before = round_rows(rnd)
        number = rnd.number
        unpair_round(rnd, actor)
        if kind == "withdraw":
            _each(chosen, lambda p: withdraw_player(p, actor, from_round=number))
        else:
            _each(chosen, lambda p: request_bye(
                p, actor, round_number=number, kind=kind
            ))
        new = pair_next_round(t, actor)
        audit(
            t, actor, "re-pair draft", round_number=number,
            reason=about(
                ", ".join(p.name for p in chosen), Text(in_english(dict(DRAFT_LEAVE_KINDS)[kind]))
            ),
            before=before, after=round_rows(new),
        )
    return new
