"""Registering players from FIDE's rating list, and refreshing their data from it (issue 17)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _, ngettext

from tournaments import fide_list
from tournaments.models import FidePlayer
from tournaments.views_access import arbiter_action, dashboard, writable


@login_required
def search(request: HttpRequest, pk: int) -> HttpResponse:
    """Find players of the list (GET ``q``, or ``lines``: one search a line); tick them and
    register them all at once. A line that finds one player comes ticked."""
    tournament = writable(request, pk)
    query = request.GET.get("q", "")
    lines = request.GET.get("lines", "")
    registered = set(tournament.players.exclude(fide_id="").values_list("fide_id", flat=True))

    def row(entry: FidePlayer, *, ticked: bool = False) -> dict:
        new = str(entry.fide_id) not in registered
        return {
            "entry": entry,
            "rating": entry.rating(tournament.rating_type),
            "registered": not new,
            "ticked": ticked and new,
        }

    found = fide_list.search(query, limit=50) if query.strip() else []
    groups = [
        {"query": q, "rows": [row(e, ticked=len(entries) == 1) for e in entries]}
        for q, entries in fide_list.search_lines(lines)
    ]
    next_round = tournament.next_round_number()
    context = {
        "t": tournament,
        "query": query,
        "lines": lines,
        "rows": [row(e) for e in found],
        "groups": groups,
        "list_size": FidePlayer.objects.count() if not (query or lines) else None,
        "late": tournament.round_set.exists(),
        "next_round": next_round if next_round <= tournament.rounds else None,
    }
    return render(request, "tournaments/arbiter/fide_list.html", context)


@arbiter_action
def add(request, tournament):
    """Register the players ticked in the list, at once: before round 1 numbered by Art. 2.2,
    afterwards late entries from the round given (Art. 2.4)."""
    ids = [int(i) for i in request.POST.getlist("fide_ids") if i.isascii() and i.isdigit()]
    arrival = request.POST.get("arrival_round", "")
    new, already = fide_list.register_from_list(
        tournament, request.user, ids,
        arrival_round=int(arrival) if arrival.isascii() and arrival.isdigit() else None,
    )
    if already:
        messages.warning(
            request, _("Already registered: %(names)s.") % {"names": ", ".join(already)}
        )
    if new:
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
