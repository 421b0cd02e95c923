"""Who may read or change a tournament's dashboard, and how an arbiter's action answers.

Reading a tournament's dashboard needs one of its arbiters (or a staff user); every change needs
one of its arbiters. Changes are POST only and redirect back (post/redirect/get); a refusal of the
services (``ServiceError``) comes back as an error message.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import services
from tournaments.models import Player, Round, Tournament


def readable(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not (request.user.is_staff or tournament.is_arbiter(request.user)):
        raise PermissionDenied(_("You are not an arbiter of this tournament."))
    return tournament


def writable(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not tournament.is_arbiter(request.user):
        raise PermissionDenied(_("You are not an arbiter of this tournament."))
    return tournament


def dashboard(tournament: Tournament, anchor: str = "") -> HttpResponse:
    url = reverse("arbiter-tournament", args=[tournament.pk])
    return redirect(f"{url}#{anchor}" if anchor else url)


def arbiter_action(view):
    """A POST-only view of one tournament's arbiters; ServiceError becomes an error message."""

    @login_required
    @require_POST
    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = writable(request, pk)
        try:
            return view(request, tournament, *args, **kwargs)
        except services.ServiceError as error:
            service_error(request, error)
            return redirect(safe_next(request) or dashboard(tournament).url)

    return wrapper


def service_error(request: HttpRequest, error: services.ServiceError) -> None:
    messages.error(request, str(error))
    for detail in error.details:
        messages.error(request, detail)


def safe_next(request: HttpRequest) -> str:
    """Return the posted ``next`` address if it is on this site, else an empty string."""
    target = request.POST.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


def form_errors(request: HttpRequest, form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(
                request,
                _("%(field)s: %(error)s") % {"field": label, "error": error} if label else error,
            )


def round_of(tournament: Tournament, number: int) -> Round:
    rnd = get_object_or_404(Round.objects.light(), tournament=tournament, number=number)
    rnd.tournament = tournament  # read once: the services lock it again
    return rnd


def posted_round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Return the round a page acted on: the one whose id it posted (a draft paired again is
    another round), else round ``number``; refuse when it is gone."""
    rounds = Round.objects.light().filter(tournament=tournament, number=number)
    posted = request.POST.get("round", "")
    if posted.isascii() and posted.isdigit():
        rounds = rounds.filter(pk=int(posted))
    rnd = rounds.first()
    if rnd is None:
        raise services.ServiceError(services.round_changed_meanwhile(number))
    rnd.tournament = tournament  # read once: the services lock it again
    return rnd


def posted_player(tournament: Tournament, player_pk: int) -> Player:
    player = tournament.players.filter(pk=player_pk).first()
    if player is None:
        raise services.ServiceError(_("This player was removed meanwhile: nothing was done."))
    return player
