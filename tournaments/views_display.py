"""The hall display (issue 16): a full-screen page for a screen in the playing hall.

No login. It shows the latest public round's boards, then the standings, one screen of
``ROWS`` lines at a time, and turns to the next screen every ``SECONDS`` seconds: by a meta
refresh without JavaScript, by ``static/js/live.js`` (no reload) with it, which also swaps in a
published round or a new result as soon as it is entered.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from tournaments import queries, services
from tournaments.models import Tournament
from tournaments.sentences import format_points
from tournaments.views_public import conditional_for_visitors

ROWS = 15
SECONDS = 15


def _chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def _screen_number(request: HttpRequest) -> int:
    """The screen asked for, written plainly (one cached page per screen)."""
    value = request.GET.get("screen", "1")
    if not (value.isascii() and value.isdigit() and value[0] != "0" and len(value) <= 6):
        raise Http404("'screen' is a screen number")
    return int(value)


@conditional_for_visitors(query=("screen",))
def display(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=pk)
    rounds = list(queries.public_rounds(t))
    screens: list[dict] = []
    if rounds:
        rnd = rounds[-1]
        games = queries.pairing_rows(rnd)
        boards = [g for g in games if not g.is_bye]
        parts = _chunks(boards, ROWS)
        for i, part in enumerate(parts, start=1):
            screens.append(
                {"kind": "pairings", "round": rnd, "games": part, "part": i, "parts": len(parts)}
            )
    try:
        table = queries.public_standings(t, version=request.public_version)
    except services.ServiceError:
        table = None  # the standings page says why; the display shows the pairings only
    if table is not None and table.after_round:
        rows = [{"row": r, "points": format_points(r.points)} for r in table.rows]
        parts = _chunks(rows, ROWS)
        for i, part in enumerate(parts, start=1):
            screens.append(
                {"kind": "standings", "standings": table, "rows": part, "part": i,
                 "parts": len(parts)}
            )
    asked = _screen_number(request)
    number = (asked - 1) % max(len(screens), 1) + 1
    if number != asked:  # fewer screens than when the page turned: round to the start
        return redirect(f"{request.path}?screen={number}")
    context = {
        "t": t,
        "screen": screens[number - 1] if screens else None,
        "number": number,
        "count": len(screens),
        "next": number % max(len(screens), 1) + 1,
        "seconds": SECONDS,
    }
    return render(request, "tournaments/public/display.html", context)
