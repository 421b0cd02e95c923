"""Dashboard actions on several players at once, and undoing a publish (issue 17).

Each view validates a form and calls one service of ``tournaments.services.bulk`` or
``tournaments.services``; refusals come back as messages (``arbiter_action``).
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _, gettext_lazy

from tournaments import services
from tournaments.forms import BulkPlayersForm, LeaveDraftManyForm
from tournaments.models import ByeRequest, Round, Tournament
from tournaments.services import bulk, pairing_changes
from tournaments.views_access import arbiter_action, dashboard, form_errors, posted_round

DONE = {
    "H": gettext_lazy("Half-point bye in round %(number)s: %(names)s."),
    "Z": gettext_lazy("Zero-point bye in round %(number)s: %(names)s."),
    "A": gettext_lazy("Absent in round %(number)s: %(names)s."),
    "F": gettext_lazy("Full-point bye in round %(number)s: %(names)s."),
    "withdraw": gettext_lazy("Withdraw from round %(number)s: %(names)s."),
}
"""What the arbiter reads once an action of ``bulk.BULK_ACTIONS`` is done."""


def bulk_form(tournament: Tournament, data=None) -> BulkPlayersForm:
    return BulkPlayersForm(data, tournament=tournament, next_round=tournament.next_round_number())


def leave_many_form(tournament: Tournament, rnd: Round, data=None) -> LeaveDraftManyForm:
    kinds = [
        (code, label) for code, label in pairing_changes.DRAFT_LEAVE_KINDS
        if code != ByeRequest.Kind.FULL or tournament.allow_full_point_bye
    ]
    return LeaveDraftManyForm(data, tournament=tournament, round_number=rnd.number, kinds=kinds)


@arbiter_action
def players_bulk(request, tournament):
    form = bulk_form(tournament, request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return dashboard(tournament, "players")
    data = form.cleaned_data
    done = bulk.apply_to_players(
        tournament, request.user, data["players"], action=data["action"],
        round_number=data["round_number"],
    )
    names = ", ".join(p.name for p in done)
    messages.success(
        request, DONE[data["action"]] % {"number": data["round_number"], "names": names}
    )
    return dashboard(tournament, "players")


@arbiter_action
def round_leave_many(request, tournament, number):
    rnd = posted_round(request, tournament, number)
    form = leave_many_form(tournament, rnd, request.POST)
    if form.is_valid():
        players = list(form.cleaned_data["players"])
        bulk.leave_draft_many(rnd, request.user, players=players, kind=form.cleaned_data["kind"])
        messages.success(
            request,
            _("%(names)s taken out of round %(number)s; the round was paired again.")
            % {"names": ", ".join(p.name for p in players), "number": number},
        )
    else:
        form_errors(request, form)
    return redirect("arbiter-round", pk=tournament.pk, number=number)


@arbiter_action
def round_unpublish(request, tournament, number):
    services.unpublish_round(posted_round(request, tournament, number), request.user)
    messages.success(
        request,
        _("Round %(number)s is a draft again: the public no longer sees it.") % {"number": number},
    )
    return redirect("arbiter-round", pk=tournament.pk, number=number)
