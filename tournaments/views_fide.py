"""Registering players from FIDE's rating list, and refreshing their data from it (issue 17)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _, ngettext

from tournaments import fide_list, services
from tournaments.models import FidePlayer
from tournaments.views_access import arbiter_action, dashboard, writable


@login_required
def search(request: HttpRequest, pk: int) -> HttpResponse:
    """Find players of the list (GET ``q``); tick them to register them all at once."""
    tournament = writable(request, pk)
    query = request.GET.get("q", "")
    found = fide_list.search(query, limit=50) if query.strip() else []
    registered = set(tournament.players.exclude(fide_id="").values_list("fide_id", flat=True))
    rows = [
        {
            "entry": entry,
            "rating": entry.rating(tournament.rating_type),
            "registered": str(entry.fide_id) in registered,
        }
        for entry in found
    ]
    context = {
        "t": tournament,
        "query": query,
        "rows": rows,
        "list_size": FidePlayer.objects.count() if not query else None,
        "can_register": not tournament.round_set.exists(),
    }
    return render(request, "tournaments/arbiter/fide_list.html", context)


@arbiter_action
def add(request, tournament):
    """Register the players ticked in the list (before round 1), numbered by Art. 2.2."""
    ids = [int(i) for i in request.POST.getlist("fide_ids") if i.isascii() and i.isdigit()]
    if not ids:
        raise services.ServiceError(_("Tick at least one player of the FIDE list."))
    registered = set(tournament.players.exclude(fide_id="").values_list("fide_id", flat=True))
    entries = list(fide_list.players_in_list(ids).order_by("name"))
    already = [e.name for e in entries if str(e.fide_id) in registered]
    new = [e for e in entries if str(e.fide_id) not in registered]
    if already:
        messages.warning(
            request, _("Already registered: %(names)s.") % {"names": ", ".join(already)}
        )
    if new:
        rows = [
            services.clean_player_fields(fide_list.player_fields(e, tournament.rating_type))
            for e in new
        ]
        services.register_players(tournament, request.user, rows)
        messages.success(
            request,
            ngettext(
                "%(count)d player added from the FIDE list.",
                "%(count)d players added from the FIDE list.",
                len(new),
            ) % {"count": len(new)},
        )
    return dashboard(tournament, "players")


@arbiter_action
def refresh(request, tournament):
    changed = fide_list.refresh_players(tournament, request.user)
    messages.success(
        request,
        ngettext(
            "%(count)d player refreshed from the FIDE list (rating, title, federation); "
            "pairing numbers follow (C.04.2 Art. 2.3).",
            "%(count)d players refreshed from the FIDE list (rating, title, federation); "
            "pairing numbers follow (C.04.2 Art. 2.3).",
            len(changed),
        ) % {"count": len(changed)},
    )
    return dashboard(tournament, "players")
