"""Arbiter dashboard views: load with a permission check (``tournaments.views_access``),
validate a form, call a service. The tournament, its players, its rounds and results; the
corrections and the audit trail are in ``tournaments.views_corrections``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_POST

from tournaments import audit as audit_trail, queries, ratings, services
from tournaments.forms import (
    ArbiterForm,
    ArchiveUploadForm,
    ByeRequestForm,
    LateEntryForm,
    PlayerEditForm,
    PlayerForm,
    TournamentForm,
    UploadForm,
    WithdrawForm,
)
from tournaments.models import ByeRequest, Player, Round, Tournament
from tournaments.report import export_filename
from tournaments.search import search_players
from tournaments.services import archive, archive_import, pairing_jobs
from tournaments.views_access import (
    arbiter_action,
    dashboard,
    form_errors,
    posted_player,
    posted_round,
    readable,
    service_error,
    writable,
)
from tournaments.views_bulk import bulk_form


@login_required
def home(request: HttpRequest) -> HttpResponse:
    tournaments = (
        Tournament.objects.all() if request.user.is_staff else request.user.tournaments.all()
    )
    return render(
        request,
        "tournaments/arbiter/home.html",
        {"tournaments": tournaments.order_by("-created_at"), "can_create": request.user.is_staff},
    )


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied(_("Only staff users can create tournaments."))
    form = TournamentForm(request.POST or None)
    upload = UploadForm()
    archive_upload = ArchiveUploadForm(prefix="archive")
    if request.method == "POST" and form.is_valid():
        tournament = services.create_tournament(request.user, **form.fields_for_service())
        messages.success(
            request,
            _("Tournament %(name)s created. Add the players.") % {"name": tournament.name},
        )
        return dashboard(tournament)
    return render(
        request, "tournaments/arbiter/tournament_form.html",
        {"form": form, "upload": upload, "archive_upload": archive_upload},
    )


@login_required
@require_POST
def tournament_import(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied(_("Only staff users can create tournaments."))
    upload = UploadForm(request.POST, request.FILES)
    if not upload.is_valid():
        form_errors(request, upload)
        return redirect("arbiter-tournament-create")
    try:
        tournament = services.import_trf(upload.cleaned_data["file"], request.user)
    except services.ServiceError as error:
        service_error(request, error)
        return redirect("arbiter-tournament-create")
    messages.success(request, _("Imported %(name)s.") % {"name": tournament.name})
    return dashboard(tournament)


@login_required
@require_POST
def event_import(request: HttpRequest) -> HttpResponse:
    """A tournament made from an event archive (another server's, or a backup)."""
    if not request.user.is_staff:
        raise PermissionDenied(_("Only staff users can create tournaments."))
    upload = ArchiveUploadForm(request.POST, request.FILES, prefix="archive")
    if not upload.is_valid():
        form_errors(request, upload)
        return redirect("arbiter-tournament-create")
    try:
        raw = upload.cleaned_data["file"]
        tournament = archive_import.import_event(archive_import.decoded(raw), request.user)
    except services.ServiceError as error:
        service_error(request, error)
        return redirect("arbiter-tournament-create")
    messages.success(request, _("Imported %(name)s.") % {"name": tournament.name})
    return dashboard(tournament)


@login_required
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = readable(request, pk)
    query = request.GET.get("q", "")
    next_round = tournament.next_round_number()
    rounds = list(tournament.round_set.order_by("number"))
    last = rounds[-1] if rounds else None
    context = {
        "t": tournament,
        "can_write": tournament.is_arbiter(request.user),
        "players": search_players(tournament.players.order_by("tpn"), query),
        "player_count": tournament.players.count(),
        "query": query,
        "rounds": rounds,
        "last": last,
        "next_round": next_round,
        "can_pair": next_round <= tournament.rounds
        and (last is None or last.state == Round.State.FINISHED),
        "tpns_frozen": tournament.tpns_frozen(),
        "pairing_job": tournament.pairing_jobs.filter(state__in=pairing_jobs.ACTIVE).first(),
        "bye_requests": ByeRequest.objects.filter(
            player__tournament=tournament, round_number__gte=next_round
        ).select_related("player"),
        "player_form": PlayerForm(),
        "late_form": LateEntryForm(initial={"arrival_round": next_round}),
        "upload_form": UploadForm(),
        "csv_headers": services.csv_header_names(),
        "bye_form": ByeRequestForm(tournament=tournament, next_round=next_round),
        "arbiter_form": ArbiterForm(),
        "arbiters": tournament.arbiters.order_by("username"),
    }
    context["bulk_form"] = bulk_form(tournament)
    return render(request, "tournaments/arbiter/tournament.html", context)


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = writable(request, pk)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_tournament(
                tournament, request.user, loaded=form.loaded_values(), **form.fields_for_service()
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Settings saved."))
            return dashboard(tournament)
    context = {"form": form, "t": tournament}
    return render(request, "tournaments/arbiter/tournament_form.html", context)


@arbiter_action
def add_arbiter(request, tournament):
    form = ArbiterForm(request.POST)
    if form.is_valid():
        user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
        if user is None:
            raise services.ServiceError(
                _("No user named “%(name)s”.") % {"name": form.cleaned_data["username"]}
            )
        services.add_arbiter(tournament, request.user, user)
        messages.success(
            request,
            _("%(name)s is now an arbiter of this tournament.") % {"name": user.username},
        )
    return dashboard(tournament, "arbiters")


@arbiter_action
def player_add(request, tournament):
    form = PlayerForm(request.POST)
    if form.is_valid():
        player = services.add_player(tournament, request.user, **form.cleaned_data)
        messages.success(
            request,
            _("%(name)s added with TPN %(tpn)s.") % {"name": player.name, "tpn": player.tpn},
        )
    else:
        form_errors(request, form)
    return dashboard(tournament, "players")


@arbiter_action
def players_upload(request, tournament):
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        form_errors(request, form)
        return dashboard(tournament, "players")
    text = form.cleaned_data["file"]
    name = request.FILES["file"].name.lower()
    if name.endswith((".trf", ".txt")) or text.startswith(("012", "001")):
        added = services.import_players_trf(tournament, request.user, text)
    else:
        added = services.import_players_csv(tournament, request.user, text)
    count = len(added)
    messages.success(
        request,
        ngettext("%(count)d player added.", "%(count)d players added.", count) % {"count": count},
    )
    return dashboard(tournament, "players")


@arbiter_action
def late_entry(request, tournament):
    form = LateEntryForm(request.POST)
    if form.is_valid():
        data = dict(form.cleaned_data)
        arrival = data.pop("arrival_round")
        player = services.admit_late_entry(tournament, request.user, arrival_round=arrival, **data)
        messages.success(
            request,
            _("%(name)s admitted from round %(number)s with TPN %(tpn)s.")
            % {"name": player.name, "number": arrival, "tpn": player.tpn},
        )
    else:
        form_errors(request, form)
    return dashboard(tournament, "players")


@arbiter_action
def renumber(request, tournament):
    services.renumber_players(tournament, request.user)
    messages.success(request, _("Pairing numbers reassigned by rating, title and name."))
    return dashboard(tournament, "players")


@arbiter_action
def draw_colour(request, tournament):
    colour = services.draw_initial_color(tournament, request.user)
    label = Tournament.InitialColor(colour).label
    messages.success(
        request, _("Drawn by lot: TPN 1 has %(colour)s in round 1.") % {"colour": label}
    )
    return dashboard(tournament)


@arbiter_action
def bye_request(request, tournament):
    form = ByeRequestForm(
        request.POST, tournament=tournament, next_round=tournament.next_round_number()
    )
    if form.is_valid():
        services.request_bye(
            form.cleaned_data["player"], request.user,
            round_number=form.cleaned_data["round_number"], kind=form.cleaned_data["kind"],
        )
        messages.success(request, _("Bye recorded."))
    else:
        form_errors(request, form)
    return dashboard(tournament, "byes")


@arbiter_action
def bye_cancel(request, tournament, bye_pk):
    request_obj = ByeRequest.objects.filter(pk=bye_pk, player__tournament=tournament).first()
    if request_obj is None:
        raise services.ServiceError(_("This bye was already cancelled."))
    services.cancel_bye(request_obj, request.user)
    messages.success(request, _("Bye cancelled."))
    return dashboard(tournament, "byes")


@login_required
def player_edit(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    tournament = writable(request, pk)
    player = get_object_or_404(Player, pk=player_pk, tournament=tournament)
    form = PlayerEditForm(request.POST or None, instance=Player.objects.get(pk=player.pk))
    if request.method == "POST" and form.is_valid():
        try:
            services.update_player(
                player, request.user, loaded=form.loaded_values(), **form.fields_for_service()
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("%(name)s saved.") % {"name": form.cleaned_data["name"]})
            return dashboard(tournament, "players")
    context = {
        "t": tournament,
        "player": player,
        "form": form,
        "withdraw_form": WithdrawForm(initial={"from_round": tournament.next_round_number()}),
        "rating": ratings.card(tournament, queries.history(tournament), player),
    }
    return render(request, "tournaments/arbiter/player_form.html", context)


@arbiter_action
def player_withdraw(request, tournament, player_pk):
    player = posted_player(tournament, player_pk)
    form = WithdrawForm(request.POST)
    if form.is_valid():
        services.withdraw_player(player, request.user, from_round=form.cleaned_data["from_round"])
        messages.success(
            request,
            _("%(name)s withdrawn from round %(number)s.")
            % {"name": player.name, "number": form.cleaned_data["from_round"]},
        )
    else:
        form_errors(request, form)
    return dashboard(tournament, "players")


@arbiter_action
def player_reinstate(request, tournament, player_pk):
    player = posted_player(tournament, player_pk)
    services.reinstate_player(player, request.user)
    messages.success(request, _("%(name)s is paired again.") % {"name": player.name})
    return dashboard(tournament, "players")


@arbiter_action
def player_remove(request, tournament, player_pk):
    player = posted_player(tournament, player_pk)
    services.remove_player(player, request.user)
    messages.success(request, _("%(name)s removed.") % {"name": player.name})
    return dashboard(tournament, "players")


@arbiter_action
def pair(request, tournament):
    """Ask a worker to pair the next round (at once with the immediate backend), then follow
    it on the job's page."""
    job = pairing_jobs.request_pairing(tournament, request.user)
    pairing_jobs.start(job)
    return redirect("arbiter-pairing-job", pk=tournament.pk)


@login_required
def pairing_job(request: HttpRequest, pk: int) -> HttpResponse:
    """The latest pairing of the tournament: what the worker does, then the draft or why it
    failed. The page reloads itself while the worker works (no JavaScript needed)."""
    tournament = readable(request, pk)
    job = pairing_jobs.latest(tournament)
    if job is None:
        return dashboard(tournament)
    if job.state == job.State.DONE and job.round is not None and "stay" not in request.GET:
        messages.success(
            request,
            _("Round %(number)s paired as a draft: review it, then publish.")
            % {"number": job.round_number},
        )
        return redirect("arbiter-round", pk=tournament.pk, number=job.round.number)
    stale = pairing_jobs.is_stale(job)
    return render(request, "tournaments/arbiter/pairing_job.html", {
        "t": tournament,
        "job": job,
        "working": job.state in pairing_jobs.ACTIVE and not stale,
        "stale": stale,
        "stage": audit_trail.shown(job.stage) if job.stage else "",
        "failure": audit_trail.shown(job.failure) if job.failure else "",
        "can_write": tournament.is_arbiter(request.user),
    })


@arbiter_action
def round_unpair(request, tournament, number):
    if not tournament.round_set.filter(number=number).exists():
        raise services.ServiceError(_("Round %(number)s is already unpaired.") % {"number": number})
    services.unpair_round(posted_round(request, tournament, number), request.user)
    messages.success(request, _("Round %(number)s unpaired.") % {"number": number})
    return dashboard(tournament)


@arbiter_action
def round_publish(request, tournament, number):
    services.publish_round(posted_round(request, tournament, number), request.user)
    messages.success(request, _("Round %(number)s published.") % {"number": number})
    return redirect("arbiter-round", pk=tournament.pk, number=number)


@login_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = readable(request, pk)
    rows = services.standings(tournament)
    names = services.tiebreak_names(tournament)
    return render(
        request,
        "tournaments/arbiter/standings.html",
        {"t": tournament, "rows": rows, "names": names},
    )


@login_required
def export_trf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = readable(request, pk)
    try:
        text = services.export_trf(tournament)
    except (services.ServiceError, ValueError) as error:
        messages.error(request, _("Cannot export: %(error)s") % {"error": error})
        return dashboard(tournament)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    name = export_filename(tournament)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def export_event(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament whole as an event archive, to download."""
    tournament = readable(request, pk)
    response = HttpResponse(
        archive.export_event(tournament), content_type="application/json; charset=utf-8"
    )
    name = archive.archive_filename(tournament)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
