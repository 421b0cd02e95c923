"""Corrections and changes (C.04.2 Art. 2.3, 4.3, 4.4) and the audit trail: guided pages,
applied by the services of ``tournaments.services.corrections`` and ``pairing_changes``; every
page is for the tournament's arbiters only."""

from __future__ import annotations

import csv
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from tournaments import audit as audit_trail, services
from tournaments.forms import (
    ColourCorrectionForm,
    LeaveDraftForm,
    PairingChangeForm,
    RatingCorrectionForm,
    ResultCorrectionForm,
)
from tournaments.models import ByeRequest, Game, Player, Round, Tournament
from tournaments.sentences import say
from tournaments.services import corrections, pairing_changes
from tournaments.services.write import page_value
from tournaments.views_access import (
    arbiter_action,
    form_errors,
    posted_round,
    readable,
    round_of,
    writable,
)

AUDIT_PAGE_SIZE = 50


@login_required
def audit(request: HttpRequest, pk: int) -> HttpResponse:
    """The audit trail, newest first, a page at a time, each entry shown by its differences."""
    tournament = readable(request, pk)
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
def game_correct(request: HttpRequest, pk: int, number: int, game_pk: int) -> HttpResponse:
    """Correct a wrong result (4.3.1) or wrong colours (4.3.2), saying which timing case applies."""
    tournament = writable(request, pk)
    rnd = round_of(tournament, number)
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
            form_errors(request, form)
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
    tournament = writable(request, pk)
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
                    % {"name": player.name, "effect": say(effect)},
                )
                return redirect("arbiter-player", pk=tournament.pk, player_pk=player.pk)
        else:
            form_errors(request, form)
    frozen = tournament.tpns_frozen()
    context = {"t": tournament, "player": player, "form": form, "frozen": frozen}
    return render(request, "tournaments/arbiter/rating_correct.html", context)


@login_required
def pairing_change(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Pair a draft by hand, swap two players, or change a published pairing (4.4)."""
    tournament = writable(request, pk)
    rnd = round_of(tournament, number)
    if rnd.state == Round.State.FINISHED:
        messages.error(
            request,
            _("Round %(number)s is finished: its pairing cannot change.") % {"number": number},
        )
        return redirect("arbiter-round", pk=tournament.pk, number=number)
    published = rnd.state == Round.State.PUBLISHED
    reasons = pairing_changes.PAIRING_CHANGE_REASONS if published else ()
    data = request.POST.copy() if request.method == "POST" else None
    action = request.POST.get("action", "")
    if data is not None and action == "swap":
        try:
            data["text"] = pairing_changes.swap_in_text(
                data.get("text", ""), int(data.get("swap_a") or 0), int(data.get("swap_b") or 0)
            )
        except (ValueError, services.ServiceError) as error:
            messages.error(request, _("Cannot swap: %(error)s") % {"error": error})
        data["accept_warnings"] = ""
    current = pairing_changes.pairing_text(rnd)
    form = PairingChangeForm(data, reasons=reasons, initial={"text": current, "loaded": current})
    preview = None
    if data is not None and form.is_valid():
        try:
            boards, bye = pairing_changes.parse_pairing(form.cleaned_data["text"])
            if action == "save":
                preview = pairing_changes.change_pairing(
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
            preview = pairing_changes.preview_pairing(rnd, boards, bye)
        except services.ServiceError as error:
            messages.error(request, str(error))
            try:
                preview = pairing_changes.preview_pairing(rnd, *pairing_changes.parse_pairing(
                    form.cleaned_data["text"]
                ))
            except services.ServiceError:
                preview = None
    elif data is not None:
        form_errors(request, form)
    context = {"t": tournament, "round": rnd, "form": form, "preview": preview,
               "published": published}
    return render(request, "tournaments/arbiter/pairing_change.html", context)


@arbiter_action
def round_repair(request, tournament, number):
    rnd = pairing_changes.repair_draft(posted_round(request, tournament, number), request.user)
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
    tournament = readable(request, pk)
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
            "" if e.before is None else json.dumps(audit_trail.in_english(e.before),
                                                   ensure_ascii=False),
            "" if e.after is None else json.dumps(audit_trail.in_english(e.after),
                                                  ensure_ascii=False),
        ]))
    return response


FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, CSV injection)."""


def csv_cell(value):
    """Return a CSV cell that a spreadsheet shows as text: a leading ' before a formula prefix."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def leave_form(tournament: Tournament, rnd: Round, data=None) -> LeaveDraftForm:
    kinds = [
        (code, label) for code, label in pairing_changes.DRAFT_LEAVE_KINDS
        if code != ByeRequest.Kind.FULL or tournament.allow_full_point_bye
    ]
    return LeaveDraftForm(data, tournament=tournament, round_number=rnd.number, kinds=kinds)


@arbiter_action
def round_leave(request, tournament, number):
    rnd = posted_round(request, tournament, number)
    form = leave_form(tournament, rnd, request.POST)
    if form.is_valid():
        player = form.cleaned_data["player"]
        rnd = pairing_changes.leave_draft(
            rnd, request.user, player=player, kind=form.cleaned_data["kind"]
        )
        messages.success(
            request,
            _("%(names)s taken out of round %(number)s; the round was paired again.")
            % {"names": player.name, "number": number},
        )
    else:
        form_errors(request, form)
    return redirect("arbiter-round", pk=tournament.pk, number=number)
