"""Arbiter dashboard views: load with a permission check, validate a form, call a service.

Reading a tournament's dashboard needs one of its arbiters (or a staff user); every change needs
one of its arbiters. Changes are POST only and redirect back (post/redirect/get).
"""

from __future__ import annotations

import csv
import json
from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_POST

from tournaments import audit as audit_trail, corrections, explain, services
from tournaments.forms import (
    ArbiterForm,
    ByeRequestForm,
    ColourCorrectionForm,
    LateEntryForm,
    LeaveDraftForm,
    PairingChangeForm,
    PlayerEditForm,
    PlayerForm,
    RatingCorrectionForm,
    ResultCorrectionForm,
    ResultsForm,
    TournamentForm,
    UploadForm,
    WithdrawForm,
)
from tournaments.models import ByeRequest, Game, Player, Round, Tournament, page_value
from tournaments.report import export_filename
from tournaments.search import search_players


def _readable(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not (request.user.is_staff or tournament.is_arbiter(request.user)):
        raise PermissionDenied(_("You are not an arbiter of this tournament."))
    return tournament


def _writable(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not tournament.is_arbiter(request.user):
        raise PermissionDenied(_("You are not an arbiter of this tournament."))
    return tournament


def _dashboard(tournament: Tournament, anchor: str = "") -> HttpResponse:
    url = reverse("arbiter-tournament", args=[tournament.pk])
    return redirect(f"{url}#{anchor}" if anchor else url)


def arbiter_action(view):
    """A POST-only view of one tournament's arbiters; ServiceError becomes an error message."""

    @login_required
    @require_POST
    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = _writable(request, pk)
        try:
            return view(request, tournament, *args, **kwargs)
        except services.ServiceError as error:
            _service_error(request, error)
            return redirect(_safe_next(request) or _dashboard(tournament).url)

    return wrapper


def _service_error(request: HttpRequest, error: services.ServiceError) -> None:
    messages.error(request, str(error))
    for detail in error.details:
        messages.error(request, detail)


def _safe_next(request: HttpRequest) -> str:
    """Return the posted ``next`` address if it is on this site, else an empty string."""
    target = request.POST.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


def _form_errors(request: HttpRequest, form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(
                request,
                _("%(field)s: %(error)s") % {"field": label, "error": error} if label else error,
            )


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
    if request.method == "POST" and form.is_valid():
        tournament = services.create_tournament(request.user, **form.fields_for_service())
        messages.success(
            request,
            _("Tournament %(name)s created. Add the players.") % {"name": tournament.name},
        )
        return _dashboard(tournament)
    return render(
        request, "tournaments/arbiter/tournament_form.html", {"form": form, "upload": upload}
    )


@login_required
@require_POST
def tournament_import(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied(_("Only staff users can create tournaments."))
    upload = UploadForm(request.POST, request.FILES)
    if not upload.is_valid():
        _form_errors(request, upload)
        return redirect("arbiter-tournament-create")
    try:
        tournament = services.import_trf(upload.cleaned_data["file"], request.user)
    except services.ServiceError as error:
        _service_error(request, error)
        return redirect("arbiter-tournament-create")
    messages.success(request, _("Imported %(name)s.") % {"name": tournament.name})
    return _dashboard(tournament)


def _next_round(tournament: Tournament) -> int:
    last = tournament.last_round()
    return 1 if last is None else last.number + 1


@login_required
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _readable(request, pk)
    query = request.GET.get("q", "")
    next_round = _next_round(tournament)
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
        "bye_requests": ByeRequest.objects.filter(
            player__tournament=tournament, round_number__gte=next_round
        ).select_related("player"),
        "player_form": PlayerForm(),
        "late_form": LateEntryForm(initial={"arrival_round": next_round}),
        "upload_form": UploadForm(),
        "bye_form": ByeRequestForm(tournament=tournament, next_round=next_round),
        "arbiter_form": ArbiterForm(),
        "arbiters": tournament.arbiters.order_by("username"),
    }
    from tournaments.views_bulk import bulk_form

    context["bulk_form"] = bulk_form(tournament)
    return render(request, "tournaments/arbiter/tournament.html", context)


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _writable(request, pk)
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
            return _dashboard(tournament)
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
    return _dashboard(tournament, "arbiters")


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
        _form_errors(request, form)
    return _dashboard(tournament, "players")


@arbiter_action
def players_upload(request, tournament):
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        _form_errors(request, form)
        return _dashboard(tournament, "players")
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
    return _dashboard(tournament, "players")


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
        _form_errors(request, form)
    return _dashboard(tournament, "players")


@arbiter_action
def renumber(request, tournament):
    services.renumber_players(tournament, request.user)
    messages.success(request, _("Pairing numbers reassigned by rating, title and name."))
    return _dashboard(tournament, "players")


@arbiter_action
def draw_colour(request, tournament):
    colour = services.draw_initial_color(tournament, request.user)
    label = Tournament.InitialColor(colour).label
    messages.success(
        request, _("Drawn by lot: TPN 1 has %(colour)s in round 1.") % {"colour": label}
    )
    return _dashboard(tournament)


@arbiter_action
def bye_request(request, tournament):
    form = ByeRequestForm(request.POST, tournament=tournament, next_round=_next_round(tournament))
    if form.is_valid():
        services.request_bye(
            form.cleaned_data["player"], request.user,
            round_number=form.cleaned_data["round_number"], kind=form.cleaned_data["kind"],
        )
        messages.success(request, _("Bye recorded."))
    else:
        _form_errors(request, form)
    return _dashboard(tournament, "byes")


@arbiter_action
def bye_cancel(request, tournament, bye_pk):
    request_obj = ByeRequest.objects.filter(pk=bye_pk, player__tournament=tournament).first()
    if request_obj is None:
        raise services.ServiceError(_("This bye was already cancelled."))
    services.cancel_bye(request_obj, request.user)
    messages.success(request, _("Bye cancelled."))
    return _dashboard(tournament, "byes")


@login_required
def player_edit(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    tournament = _writable(request, pk)
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
            return _dashboard(tournament, "players")
    context = {
        "t": tournament,
        "player": player,
        "form": form,
        "withdraw_form": WithdrawForm(initial={"from_round": _next_round(tournament)}),
    }
    return render(request, "tournaments/arbiter/player_form.html", context)


@arbiter_action
def player_withdraw(request, tournament, player_pk):
    player = _posted_player(tournament, player_pk)
    form = WithdrawForm(request.POST)
    if form.is_valid():
        services.withdraw_player(player, request.user, from_round=form.cleaned_data["from_round"])
        messages.success(
            request,
            _("%(name)s withdrawn from round %(number)s.")
            % {"name": player.name, "number": form.cleaned_data["from_round"]},
        )
    else:
        _form_errors(request, form)
    return _dashboard(tournament, "players")


@arbiter_action
def player_reinstate(request, tournament, player_pk):
    player = _posted_player(tournament, player_pk)
    services.reinstate_player(player, request.user)
    messages.success(request, _("%(name)s is paired again.") % {"name": player.name})
    return _dashboard(tournament, "players")


@arbiter_action
def player_remove(request, tournament, player_pk):
    player = _posted_player(tournament, player_pk)
    services.remove_player(player, request.user)
    messages.success(request, _("%(name)s removed.") % {"name": player.name})
    return _dashboard(tournament, "players")


@arbiter_action
def pair(request, tournament):
    rnd = services.pair_next_round(tournament, request.user)
    messages.success(
        request,
        _("Round %(number)s paired as a draft: review it, then publish.") % {"number": rnd.number},
    )
    return redirect("arbiter-round", pk=tournament.pk, number=rnd.number)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _posted_round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Return the round a page acted on: the one whose id it posted (a draft paired again is
    another round), else round ``number``; refuse when it is gone."""
    rounds = Round.objects.filter(tournament=tournament, number=number)
    posted = request.POST.get("round", "")
    if posted.isascii() and posted.isdigit():
        rounds = rounds.filter(pk=int(posted))
    rnd = rounds.first()
    if rnd is None:
        raise services.ServiceError(services.round_changed_meanwhile(number))
    return rnd


def _posted_player(tournament: Tournament, player_pk: int) -> Player:
    player = tournament.players.filter(pk=player_pk).first()
    if player is None:
        raise services.ServiceError(_("This player was removed meanwhile: nothing was done."))
    return player


@login_required
def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _readable(request, pk)
    rnd = _round(tournament, number)
    games = list(rnd.games.select_related("white", "black"))
    can_write = tournament.is_arbiter(request.user)
    form = None
    if rnd.state != Round.State.DRAFT and can_write:
        form = ResultsForm(request.POST or None, games=games)
        if request.method == "POST":
            if form.is_valid():
                try:
                    saved = services.set_results(
                        rnd, request.user, form.results(), seen=form.seen()
                    )
                except services.ServiceError as error:
                    messages.error(request, str(error))
                else:
                    messages.success(
                        request,
                        ngettext("%(count)d result saved.", "%(count)d results saved.", saved.saved)
                        % {"count": saved.saved},
                    )
                    for refusal in saved.refused:
                        messages.error(request, refusal)
                    if "finish" in request.POST and not saved.refused:
                        return _finish(request, tournament, rnd)
                    return redirect("arbiter-round", pk=tournament.pk, number=rnd.number)
            else:
                _form_errors(request, form)
    elif request.method == "POST":
        raise PermissionDenied(_("Results are entered in published rounds by the arbiters."))
    is_last = not tournament.round_set.filter(number__gt=rnd.number).exists()
    context = {
        "t": tournament,
        "round": rnd,
        "games": [g for g in games if not g.is_bye],
        "byes": [g for g in games if g.is_bye],
        "form": form if is_last else None,
        "can_write": can_write,
        "is_last": is_last,
        "missing": sum(1 for g in games if not g.has_result),
        "why": explain.arbiter_view(rnd, games),
        "leave_form": _leave_form(tournament, rnd)
        if rnd.state == Round.State.DRAFT and can_write
        else None,
    }
    from tournaments.views_bulk import leave_many_form

    if context["leave_form"] is not None:
        context["leave_many_form"] = leave_many_form(tournament, rnd)
    context["can_unpublish"] = (
        can_write and is_last and rnd.state == Round.State.PUBLISHED
        and not any(g.has_result for g in games if not g.is_bye)
    )
    return render(request, "tournaments/arbiter/round.html", context)


def _finish(request, tournament, rnd):
    try:
        services.finish_round(rnd, request.user)
    except services.ServiceError as error:
        messages.error(request, str(error))
        return redirect("arbiter-round", pk=tournament.pk, number=rnd.number)
    messages.success(request, _("Round %(number)s finished.") % {"number": rnd.number})
    return _dashboard(tournament)


@arbiter_action
def round_unpair(request, tournament, number):
    if not tournament.round_set.filter(number=number).exists():
        raise services.ServiceError(_("Round %(number)s is already unpaired.") % {"number": number})
    services.unpair_round(_posted_round(request, tournament, number), request.user)
    messages.success(request, _("Round %(number)s unpaired.") % {"number": number})
    return _dashboard(tournament)


@arbiter_action
def round_publish(request, tournament, number):
    services.publish_round(_posted_round(request, tournament, number), request.user)
    messages.success(request, _("Round %(number)s published.") % {"number": number})
    return redirect("arbiter-round", pk=tournament.pk, number=number)


@arbiter_action
def round_finish(request, tournament, number):
    return _finish(request, tournament, _posted_round(request, tournament, number))


@login_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _readable(request, pk)
    rows = services.standings(tournament)
    names = services.tiebreak_names(tournament)
    return render(
        request,
        "tournaments/arbiter/standings.html",
        {"t": tournament, "rows": rows, "names": names},
    )


AUDIT_PAGE_SIZE = 50


@login_required
def audit(request: HttpRequest, pk: int) -> HttpResponse:
    """The audit trail, newest first, a page at a time, each entry shown by its differences."""
    tournament = _readable(request, pk)
    entries, player, round_number = _audit_entries(request, tournament)
    page = Paginator(entries, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    players = list(tournament.players.order_by("tpn"))
    names = {str(p.pk): _("%(name)s (TPN)") % {"name": p.name} for p in players}
    query = {k: v for k, v in (("player", player and player.pk), ("round", round_number)) if v}
    context = {
        "t": tournament,
        "page": page,
        "entries": page.object_list,
        "rows": [(e, audit_trail.differences(e.before, e.after, names)) for e in page.object_list],
        "player": player,
        "round_number": round_number,
        "players": players,
        "round_numbers": range(1, tournament.rounds + 1),
        "filters": urlencode(query),
    }
    return render(request, "tournaments/arbiter/audit.html", context)


@login_required
def export_trf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _readable(request, pk)
    try:
        text = services.export_trf(tournament)
    except (services.ServiceError, ValueError) as error:
        messages.error(request, _("Cannot export: %(error)s") % {"error": error})
        return _dashboard(tournament)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    name = export_filename(tournament)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# ---------------------------------------------------------------------------------------------
# Corrections and changes (C.04.2 Art. 2.3, 4.3, 4.4): guided pages, applied by the services of
# ``tournaments.corrections``; every page is for the tournament's arbiters only.


@login_required
def game_correct(request: HttpRequest, pk: int, number: int, game_pk: int) -> HttpResponse:
    """Correct a wrong result (4.3.1) or wrong colours (4.3.2), saying which timing case applies."""
    tournament = _writable(request, pk)
    rnd = _round(tournament, number)
    game = get_object_or_404(Game.objects.select_related("white", "black"), pk=game_pk, round=rnd)
    timing, refusal = None, ""
    try:
        timing = corrections.correction_timing(rnd)
    except services.ServiceError as error:
        refusal = str(error)
    result_form = ResultCorrectionForm(
        request.POST if request.POST.get("action") == "result" else None,
        initial={"result": game.rating_result or game.result, "loaded": game.page_token()},
    )
    colour_form = ColourCorrectionForm(
        request.POST if request.POST.get("action") == "colours" else None,
        initial={"loaded": game.page_token()},
    )
    if request.method == "POST":
        form = result_form if request.POST.get("action") == "result" else colour_form
        if form.is_valid():
            reason, loaded = form.cleaned_data["reason"], form.loaded_value()
            try:
                if form is result_form:
                    outcome = corrections.correct_result(
                        game, request.user, result=form.cleaned_data["result"], reason=reason,
                        loaded=loaded,
                    )
                else:
                    outcome = corrections.correct_colours(
                        game, request.user, reason=reason, loaded=loaded
                    )
            except services.ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request, _("Correction recorded. %(effect)s") % {"effect": outcome.message}
                )
                return redirect("arbiter-round", pk=tournament.pk, number=rnd.number)
        else:
            _form_errors(request, form)
    history = tournament.audit.filter(
        round_number=rnd.number, action__startswith="correct"
    ).select_related("actor")
    context = {
        "t": tournament,
        "round": rnd,
        "game": game,
        "timing": timing,
        "effect": corrections.TIMING_EFFECT.get(timing, ""),
        "refusal": refusal,
        "result_form": result_form,
        "colour_form": colour_form,
        "history": [e for e in history if (e.before or {}).get("board") == game.board],
    }
    return render(request, "tournaments/arbiter/game_correct.html", context)


@login_required
def rating_correct(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Correct a rating (4.3.3); TPNs follow only while round 4 is not paired (2.3)."""
    tournament = _writable(request, pk)
    player = get_object_or_404(Player, pk=player_pk, tournament=tournament)
    form = RatingCorrectionForm(
        request.POST or None,
        initial={"rating": player.rating, "loaded": page_value(player.rating)},
    )
    if request.method == "POST":
        if form.is_valid():
            try:
                effect = corrections.correct_rating(
                    player, request.user, rating=form.cleaned_data["rating"],
                    reason=form.cleaned_data["reason"], loaded=form.loaded_value(),
                )
            except services.ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request,
                    _("Rating of %(name)s corrected. %(effect)s")
                    % {"name": player.name, "effect": effect},
                )
                return redirect("arbiter-player", pk=tournament.pk, player_pk=player.pk)
        else:
            _form_errors(request, form)
    frozen = tournament.tpns_frozen()
    context = {"t": tournament, "player": player, "form": form, "frozen": frozen}
    return render(request, "tournaments/arbiter/rating_correct.html", context)


@login_required
def pairing_change(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Pair a draft by hand, swap two players, or change a published pairing (4.4)."""
    tournament = _writable(request, pk)
    rnd = _round(tournament, number)
    if rnd.state == Round.State.FINISHED:
        messages.error(
            request,
            _("Round %(number)s is finished: its pairing cannot change.") % {"number": number},
        )
        return redirect("arbiter-round", pk=tournament.pk, number=number)
    published = rnd.state == Round.State.PUBLISHED
    reasons = corrections.PAIRING_CHANGE_REASONS if published else ()
    data = request.POST.copy() if request.method == "POST" else None
    action = request.POST.get("action", "")
    if data is not None and action == "swap":
        try:
            data["text"] = corrections.swap_in_text(
                data.get("text", ""), int(data.get("swap_a") or 0), int(data.get("swap_b") or 0)
            )
        except (ValueError, services.ServiceError) as error:
            messages.error(request, _("Cannot swap: %(error)s") % {"error": error})
        data["accept_warnings"] = ""
    current = corrections.pairing_text(rnd)
    form = PairingChangeForm(data, reasons=reasons, initial={"text": current, "loaded": current})
    preview = None
    if data is not None and form.is_valid():
        try:
            boards, bye = corrections.parse_pairing(form.cleaned_data["text"])
            if action == "save":
                preview = corrections.change_pairing(
                    rnd,
                    request.user,
                    boards=boards,
                    bye=bye,
                    reason_code=form.cleaned_data["reason_code"],
                    note=form.cleaned_data["note"],
                    accept_warnings=form.cleaned_data["accept_warnings"],
                    loaded=form.loaded_value(),
                )
                messages.success(
                    request,
                    _("Pairing of round %(number)s changed and recorded.") % {"number": number},
                )
                return redirect("arbiter-round", pk=tournament.pk, number=number)
            preview = corrections.preview_pairing(rnd, boards, bye)
        except services.ServiceError as error:
            messages.error(request, str(error))
            try:
                preview = corrections.preview_pairing(rnd, *corrections.parse_pairing(
                    form.cleaned_data["text"]
                ))
            except services.ServiceError:
                preview = None
    elif data is not None:
        _form_errors(request, form)
    context = {"t": tournament, "round": rnd, "form": form, "preview": preview,
               "published": published}
    return render(request, "tournaments/arbiter/pairing_change.html", context)


@arbiter_action
def round_repair(request, tournament, number):
    rnd = corrections.repair_draft(_posted_round(request, tournament, number), request.user)
    messages.success(
        request, _("Round %(number)s paired again by the engine.") % {"number": rnd.number}
    )
    return redirect("arbiter-round", pk=tournament.pk, number=rnd.number)


def _audit_entries(request: HttpRequest, tournament: Tournament):
    """The entries a page or export asks for (``?player=``, ``?round=``), newest first."""
    entries = tournament.audit.select_related("actor", "player").order_by("-at", "-pk")
    round_number = None
    if request.GET.get("round"):
        value = request.GET["round"]
        if not (value.isascii() and value.isdigit() and len(value) <= 4):
            raise Http404(_("No such round."))
        round_number = int(value)
        entries = entries.filter(round_number=round_number)
    player = None
    if request.GET.get("player"):
        try:
            player = tournament.players.get(pk=int(request.GET["player"]))
        except (ValueError, Player.DoesNotExist):
            raise Http404(_("No such player in this tournament.")) from None
        # The player's own entries, and changes of rounds that name them (pairings, results).
        entries = entries.filter(
            Q(player=player) | Q(before__icontains=player.name)
            | Q(after__icontains=player.name) | Q(reason__icontains=player.name)
        )
    return entries, player, round_number


@login_required
def audit_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _readable(request, pk)
    entries, player, round_number = _audit_entries(request, tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    suffix = f"-player-{player.pk}" if player else ""
    suffix += f"-round-{round_number}" if round_number else ""
    response["Content-Disposition"] = (
        f'attachment; filename="audit-{tournament.pk}{suffix}.csv"'
    )
    writer = csv.writer(response)
    writer.writerow(
        ["when_utc", "who", "action", "round", "player", "article", "reason", "before", "after"]
    )
    for e in entries.order_by("at", "pk"):
        writer.writerow(map(csv_cell, [
            e.at.strftime("%Y-%m-%d %H:%M:%S"),
            e.actor.get_username() if e.actor else "system",
            e.action,
            e.round_number or "",
            e.player.name if e.player else "",
            e.article,
            e.reason,
            "" if e.before is None else json.dumps(e.before, ensure_ascii=False),
            "" if e.after is None else json.dumps(e.after, ensure_ascii=False),
        ]))
    return response


FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, CSV injection)."""


def csv_cell(value):
    """Return a CSV cell that a spreadsheet shows as text: a leading ' before a formula prefix."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def _leave_form(tournament: Tournament, rnd: Round, data=None) -> LeaveDraftForm:
    kinds = [
        (code, label) for code, label in corrections.DRAFT_LEAVE_KINDS
        if code != ByeRequest.Kind.FULL or tournament.allow_full_point_bye
    ]
    return LeaveDraftForm(data, tournament=tournament, round_number=rnd.number, kinds=kinds)


@arbiter_action
def round_leave(request, tournament, number):
    rnd = _posted_round(request, tournament, number)
    form = _leave_form(tournament, rnd, request.POST)
    if form.is_valid():
        player = form.cleaned_data["player"]
        rnd = corrections.leave_draft(
            rnd, request.user, player=player, kind=form.cleaned_data["kind"]
        )
        messages.success(
            request,
            _("%(names)s taken out of round %(number)s; the round was paired again.")
            % {"names": player.name, "number": number},
        )
    else:
        _form_errors(request, form)
    return redirect("arbiter-round", pk=tournament.pk, number=number)
