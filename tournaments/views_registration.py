"""The public registration page of an event and its arbiters' list of entries to approve or
reject (issue 27; the rules in ``tournaments.services.registration``)."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments.models import RegistrationEntry, Tournament
from tournaments.registration_forms import EntryForm
from tournaments.services import ServiceError, registration
from tournaments.views_access import arbiter_action, service_error, writable


def register(request: HttpRequest, pk: int) -> HttpResponse:
    """The entry form (while the arbiters keep it open); an entry sent waits for approval."""
    t = get_object_or_404(Tournament, pk=pk)
    form = EntryForm(request.POST or None)
    status = 200
    if request.method == "POST" and t.registration_open:
        if too_many_posts(request):
            messages.error(request, _("Too many entries sent from here: try again in a few "
                                      "minutes."))
            status = 429
        elif form.is_valid():
            if form.is_robot():  # answered as a person is, so that the robot learns nothing
                return redirect("public-register", t.pk)
            try:
                entry = registration.submit_entry(t, **form.cleaned_data)
            except ServiceError as error:
                service_error(request, error)
            else:
                messages.success(request, _(
                    "Thank you, %(name)s: your entry waits for the arbiter's approval. A "
                    "confirmation was sent to %(email)s."
                ) % {"name": entry.name, "email": entry.email})
                return redirect("public-register", t.pk)
    context = {"t": t, "form": form, "tab": "register"}
    return render(request, "tournaments/public/register.html", context, status=status)


def too_many_posts(request: HttpRequest) -> bool:
    """Whether this address sent more entries than ``REGISTRATION_POSTS_PER_HOUR`` this hour."""
    key = f"registration-posts:{get_client_ip_address(request)}"
    cache.add(key, 0, timeout=3600)
    try:
        count = cache.incr(key)
    except ValueError:  # expired in between
        cache.add(key, 1, timeout=3600)
        count = 1
    return count > settings.REGISTRATION_POSTS_PER_HOUR


@login_required
def entries(request: HttpRequest, pk: int) -> HttpResponse:
    """The entries of the public page: those waiting first, to approve or reject."""
    t = writable(request, pk)
    rows = list(t.entries.select_related("player"))
    next_round = t.next_round_number()
    context = {
        "t": t,
        "waiting": [e for e in rows if e.state == RegistrationEntry.State.WAITING],
        "decided": [e for e in rows if e.state != RegistrationEntry.State.WAITING],
        "late": t.round_set.exists(),
        "next_round": next_round,
    }
    return render(request, "tournaments/arbiter/entries.html", context)


@arbiter_action
def open_close(request, tournament):
    is_open = request.POST.get("open") == "1"
    registration.set_registration_open(tournament, request.user, is_open)
    messages.success(
        request,
        _("The registration page is open.") if is_open else _("The registration page is closed."),
    )
    return redirect("arbiter-entries", tournament.pk)


@arbiter_action
def decide(request, tournament, entry_pk: int):
    entry = get_object_or_404(RegistrationEntry, pk=entry_pk, tournament=tournament)
    if request.POST.get("decision") == "approve":
        arrival = request.POST.get("arrival_round", "")
        player = registration.approve_entry(
            entry, request.user,
            arrival_round=int(arrival) if arrival.isascii() and arrival.isdigit() else None,
        )
        messages.success(request, _("%(name)s approved: TPN %(tpn)s.")
                         % {"name": player.name, "tpn": player.tpn})
    else:
        registration.reject_entry(entry, request.user)
        messages.success(request, _("The entry of %(name)s was rejected.") % {"name": entry.name})
    return redirect("arbiter-entries", tournament.pk)
