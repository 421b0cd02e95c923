"""Printable pages for the arbiters: pairings, the alphabetical list, result slips, standings and
the crosstable. Plain HTML on A4 (``static/css/print.css``); the browser's Print makes the paper
or the PDF. Readable by the tournament's arbiters and staff, like the dashboard.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments import queries, ratings, services
from tournaments.models import Player, Round, Tournament
from tournaments.names import name_key
from tournaments.sentences import format_points
from tournaments.views_access import readable
from tournaments.views_public import cross_cell


def _round(t: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=t, number=number)


def _rows(t: Tournament, rnd: Round) -> list[dict]:
    """Each row of a round with both players' points before it (pending results count 0)."""
    hist = queries.history(t)
    games = queries.pairing_rows(rnd)
    # A draft round is not in the history; the rounds before it are, finished.
    points = {}
    for game in games:
        for player in (game.white, game.black):
            if player is not None:
                points[player.pk] = format_points(
                    hist.score_before(player.pk, rnd.number)
                )
    return [
        {
            "game": g,
            "white_points": points[g.white_id],
            "black_points": points.get(g.black_id, ""),
        }
        for g in games
    ]


def _render(request, template: str, t: Tournament, what: str, **context) -> HttpResponse:
    return render(
        request, f"tournaments/print/{template}", {"t": t, "what": what, **context}
    )


@login_required
def pairings(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Boards in order (C.04.2 Art. 3.6): TPN, name, rating and points of both players."""
    t = readable(request, pk)
    rnd = _round(t, number)
    rows = _rows(t, rnd)
    return _render(
        request, "pairings.html", t, _("Pairings of round %(number)s") % {"number": number},
        round=rnd,
        boards=[r for r in rows if not r["game"].is_bye],
        byes=[r for r in rows if r["game"].is_bye],
    )


@login_required
def alphabetical(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Every player of the round by name: board, colour, opponent (or the bye)."""
    t = readable(request, pk)
    rnd = _round(t, number)
    lines = []
    for row in _rows(t, rnd):
        game = row["game"]
        lines.append({"player": game.white, "points": row["white_points"], "game": game,
                      "colour": "" if game.is_bye else _("White"), "opponent": game.black})
        if game.black is not None:
            lines.append({"player": game.black, "points": row["black_points"], "game": game,
                          "colour": _("Black"), "opponent": game.white})
    lines.sort(key=lambda line: (name_key(line["player"].name), line["player"].tpn))
    return _render(
        request, "alphabetical.html", t, _("Round %(number)s: players A-Z") % {"number": number},
        round=rnd, lines=lines,
    )


@login_required
def slips(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One result slip per board, to cut out and sign."""
    t = readable(request, pk)
    rnd = _round(t, number)
    boards = [r for r in _rows(t, rnd) if not r["game"].is_bye]
    what = _("Result slips, round %(number)s") % {"number": number}
    return _render(request, "slips.html", t, what, round=rnd, boards=boards)


@login_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    t = readable(request, pk)
    table = queries.public_standings(t)
    change = ratings.changes(t, queries.history(t), up_to=table.after_round)
    rows = [{"row": r, "points": format_points(r.points), "change": change.get(r.player.pk)}
            for r in table.rows]
    title = (
        _("Standings after round %(number)s") % {"number": table.after_round}
        if table.after_round
        else _("Starting list")
    )
    # Paper has no link to follow: each tie-break code is named under the table (C.07).
    legend = [(spec.code, queries.tiebreak_name(spec)) for spec in services.tiebreak_specs(t)
              if spec.code in table.tiebreak_names]
    return _render(request, "standings.html", t, title, standings=table, rows=rows,
                   legend=legend, rated=any(v is not None for v in change.values()))


@login_required
def crosstable(request: HttpRequest, pk: int) -> HttpResponse:
    t = readable(request, pk)
    try:
        table, rounds, rows = queries.crosstable(t)
    except services.ServiceError as error:
        return HttpResponse(str(error), status=503, content_type="text/plain; charset=utf-8")
    lines = [
        {
            "row": line.row,
            "points": format_points(line.row.points),
            "cells": [cross_cell(cell, opponent) for cell, opponent in line.cells],
        }
        for line in rows
    ]
    return _render(request, "crosstable.html", t, _("Crosstable"), standings=table,
                   rounds=rounds, lines=lines)


@login_required
def norms(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """The data of a title norm certificate (B.01 1.8): the event, the player, every game
    counted with the opponent's title, federation and rating, and each condition of 1.4."""
    t = readable(request, pk)
    player = get_object_or_404(Player, pk=player_pk, tournament=t)
    rating = ratings.card(t, queries.history(t), player)
    what = _("Title norm data: %(name)s") % {"name": player.name}
    return _render(request, "norms.html", t, what, player=player, rating=rating)
