"""Public pages: no login, plain HTML that works without JavaScript, phone first.

Only published and finished rounds appear here (``tournaments.queries``); a draft round is the
arbiters' business until it is published.
"""

from __future__ import annotations

from functools import partial, wraps
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import pgettext_lazy

from tournaments import conditional, explain, queries, ratings, services
from tournaments.models import Player, Round, Tournament
from tournaments.search import search_players
from tournaments.sentences import format_points


def _live_version(request: HttpRequest) -> int | None:
    """The version a live page was told of (``static/js/live.js`` sends it when it refreshes)."""
    try:
        return int(request.headers.get("X-Live-Version", ""))
    except ValueError:
        return None


def conditional_for_visitors(view=None, *, query: tuple[str, ...] = ()):
    """ETag / Last-Modified and 304 for anonymous visitors (a phone refreshing the standings).

    Logged-in users see their name and forms in the page header, so their pages are always
    rendered afresh. ``request.public_version`` is the version the page shows: the live pages
    start from it, and ``tournaments.middleware`` caches the page under it. ``query``: the
    query parameters that make another page of the view worth keeping (each with a bounded
    number of values); a request with any other parameter is rendered, not kept.
    """
    if view is None:
        return partial(conditional_for_visitors, query=query)

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        pk = kwargs.get("pk")
        version = getattr(request, "public_version", None)  # read by tournaments.middleware
        if version is not None:
            pass
        elif pk is None:
            version = queries.site_version()
        else:
            version = queries.tournament_version(pk, at_least=_live_version(request))
        if version is None:
            raise Http404("No such tournament.")
        request.public_version = version
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        # One ETag per language of the page.
        etag = version.etag(request.get_full_path(), f"html-{request.LANGUAGE_CODE}")
        last_modified = version.http_last_modified()
        response = conditional.not_modified(request, etag, last_modified)
        if response is None:
            response = view(request, *args, **kwargs)
            if response.status_code == 200:
                conditional.stamp(response, etag, last_modified)
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
        return response

    wrapper.versioned_cache = True  # tournaments.middleware serves it from the cache
    wrapper.cache_query = query
    return wrapper


def switch_language(request: HttpRequest, code: str) -> HttpResponse:
    """Show the pages in another language from now on (a cookie), back on the page it was
    asked from. A link, not a form: it works on any page, cached or not, without JavaScript."""
    if code not in dict(settings.LANGUAGES):
        raise Http404("No such language.")
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = redirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code, max_age=365 * 24 * 3600, samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


@conditional_for_visitors
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = queries.public_tournaments()
    return render(request, "tournaments/public/list.html", {"tournaments": tournaments})


@conditional_for_visitors
def tournament_home(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(pk)
    rounds = list(queries.public_rounds(t))
    context = {
        "t": t,
        "rounds": rounds,
        "player_count": t.players.count(),
        "current": rounds[-1] if rounds else None,
        "tab": "home",
    }
    return render(request, "tournaments/public/home.html", context)


@conditional_for_visitors
def round_pairings(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    t = _tournament(pk)
    rnd = get_object_or_404(Round, tournament=t, number=number, state__in=queries.PUBLIC_STATES)
    games = queries.pairing_rows(rnd)
    hist = queries.history(t, version=request.public_version)
    rows = [
        {
            "game": g,
            "white_score": format_points(hist.score_before(g.white_id, number)),
            "black_score": (
                format_points(hist.score_before(g.black_id, number))
                if g.black_id
                else ""
            ),
        }
        for g in games
    ]
    context = {
        "t": t,
        "round": rnd,
        "boards": [r for r in rows if not r["game"].is_bye],
        "byes": [r for r in rows if r["game"].is_bye],
        "rounds": hist.rounds,
        "tab": "rounds",
    }
    return render(request, "tournaments/public/round.html", context)


def unavailable(request, t: Tournament, tab: str, error: Exception) -> HttpResponse:
    """The tournament's data cannot be ranked (e.g. a bad tie-break list): say why."""
    context = {"t": t, "tab": tab, "error": str(error)}
    return render(request, "tournaments/public/unavailable.html", context, status=503)


def after_round_asked(request: HttpRequest) -> int | None:
    value = request.GET.get("after")
    if value in (None, ""):
        return None
    # Plain ASCII digits: int() would also take "1_0", "+3" or Arabic-Indic digits.
    if not (value.isascii() and value.isdigit() and len(value) <= 4):
        raise Http404("'after' must be a round number")
    return int(value)


PAGE_SIZE = 100
"""Rows of a page of the public standings: what a phone loads, whatever the event's size."""
MATCHES = 20
"""Players listed at most when a name searched on the standings page matches several."""


def _number(request: HttpRequest, name: str) -> int | None:
    """A positive whole number given as ``name`` (written plainly: one key per page), or None."""
    value = request.GET.get(name)
    if value in (None, ""):
        return None
    if not (value.isascii() and value.isdigit() and value[0] != "0" and len(value) <= 9):
        raise Http404(f"'{name}' must be a positive whole number")
    return int(value)


@conditional_for_visitors(query=("after", "page"))
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """A page of ``PAGE_SIZE`` rows (``?page=``, the first by default), and the reader's own
    row below it (``?player=``, found by name with ``?q=``)."""
    t = _tournament(pk)
    try:
        table = queries.public_standings(
            t, after_round=after_round_asked(request), version=request.public_version
        )
    except services.ServiceError as error:
        return unavailable(request, t, "standings", error)
    after = {"after": request.GET["after"]} if request.GET.get("after") else {}
    query = request.GET.get("q", "").strip()
    matches = None
    if query:
        matches = list(search_players(t.players.order_by("name"), query)[: MATCHES + 1])
        if len(matches) == 1:
            return redirect(f"{request.path}?{urlencode({**after, 'player': matches[0].pk})}")
    pages = max(1, -(-len(table.rows) // PAGE_SIZE))
    page = _number(request, "page") or 1
    if page > pages:
        raise Http404(f"The standings have {pages} pages.")
    shown = table.rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    mine = None
    wanted = _number(request, "player")
    if wanted is not None:
        mine = next((r for r in table.rows if r.player.pk == wanted), None)
        if mine is None:
            raise Http404("No such player in these standings.")
    hist = queries.history(t, version=request.public_version)
    change = ratings.changes(t, hist, up_to=table.after_round)

    def line(r):
        return {"row": r, "points": format_points(r.points), "change": change.get(r.player.pk),
                "mine": r is mine}

    context = {
        "t": t,
        "standings": table,
        "rows": [line(r) for r in shown],
        "own": line(mine) if mine is not None and mine not in shown else None,
        "rated": any(v is not None for v in change.values()),
        "rounds": queries.public_round_numbers(t),
        "page": page,
        "pages": _page_links(page, pages, after),
        "query": query,
        "matches": matches[:MATCHES] if matches is not None else None,
        "more_matches": matches is not None and len(matches) > MATCHES,
        "after_query": urlencode(after),
        "tab": "standings",
    }
    return render(request, "tournaments/public/standings.html", context)


def _page_links(page: int, pages: int, after: dict) -> list[tuple[int, str]]:
    """The pages a reader may jump to: the first, the last, and those near the current one."""
    near = {1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)}
    return [(n, "?" + urlencode({**after, "page": n})) for n in sorted(near)] if pages > 1 else []


@conditional_for_visitors
def crosstable(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(pk)
    try:
        table, rounds, rows = queries.crosstable(t, version=request.public_version)
    except services.ServiceError as error:
        return unavailable(request, t, "crosstable", error)
    lines = [
        {
            "row": line.row,
            "points": format_points(line.row.points),
            "cells": [
                cross_cell(cell, opponent) for cell, opponent in line.cells
            ],
        }
        for line in rows
    ]
    context = {"t": t, "rounds": rounds, "lines": lines, "standings": table, "tab": "crosstable"}
    return render(request, "tournaments/public/crosstable.html", context)


COLOUR_LETTERS = {
    "w": pgettext_lazy("the letter of White in a crosstable cell", "w"),
    "b": pgettext_lazy("the letter of Black in a crosstable cell", "b"),
}
"""The colour in a crosstable cell as the reader's language abbreviates it (French b, n)."""


def cross_cell(cell: queries.Cell | None, opponent: int | None) -> str:
    """'12w1': opponent's row, colour, result; byes as their short name; '' when not paired."""
    if cell is None:
        return ""
    if cell.opponent is None or opponent is None:
        return cell.symbol
    return f"{opponent}{COLOUR_LETTERS.get(cell.colour, cell.colour)}{cell.symbol}"


@conditional_for_visitors
def player_list(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(pk)
    query = request.GET.get("q", "")
    players = search_players(t.players.order_by("tpn"), query)
    context = {"t": t, "players": players, "query": query, "tab": "players"}
    return render(request, "tournaments/public/players.html", context)


@conditional_for_visitors
def player_card(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    t = _tournament(pk)
    player = get_object_or_404(Player, pk=player_pk, tournament=t)
    hist = queries.history(t, version=request.public_version)
    games = [
        {
            "round": number,
            "cell": cell,
            "points": format_points(cell.points) if cell else "",
            "total": format_points(total),
        }
        for number, cell, total in hist.running(player.pk)
    ]
    total = hist.running(player.pk)[-1][2] if hist.rounds else 0
    context = {
        "t": t,
        "player": player,
        "games": games,
        "total": format_points(total),
        "why": explain.player_rounds(hist, player),
        "rating": ratings.card(t, hist, player),
        "tab": "players",
    }
    return render(request, "tournaments/public/player.html", context)


@conditional_for_visitors(query=("after",))
def player_tiebreaks(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """How each of the tournament's tie-break values of one player was computed (C.07)."""
    t = _tournament(pk)
    player = get_object_or_404(Player, pk=player_pk, tournament=t)
    try:
        info = queries.player_tiebreaks(t, player, after_round=after_round_asked(request))
    except services.ServiceError as error:
        return unavailable(request, t, "standings", error)
    context = {
        "t": t,
        "player": player,
        "info": info,
        "rounds": queries.public_round_numbers(t),
        "tab": "standings",
    }
    return render(request, "tournaments/public/player_tiebreaks.html", context)
