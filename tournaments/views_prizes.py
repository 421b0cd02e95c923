"""Categories and prizes: the arbiters define them, the public pages and paper show each
category's ranking list and, after the last round, who receives which prize."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import prize_lists, queries, services
from tournaments.models import Category, Tournament
from tournaments.prize_forms import CategoryForm, PrizesForm
from tournaments.sentences import format_points
from tournaments.services import prizes as prize_services
from tournaments.views_access import arbiter_action, form_errors, readable, writable
from tournaments.views_public import after_round_asked, conditional_for_visitors, unavailable


def _page(tournament: Tournament) -> HttpResponse:
    return redirect(reverse("arbiter-prizes", args=[tournament.pk]))


def _lines(giving: prize_lists.PrizeGiving) -> list[dict]:
    """Each section of the prize list with its lines' points and amounts written out."""
    return [
        {
            "section": s,
            "announced": [prize_lists.money(a, giving.currency) for a in s.announced],
            "lines": [
                {"line": line, "points": format_points(line.points),
                 "amount": prize_lists.money(line.amount, giving.currency)}
                for line in s.lines
            ],
        }
        for s in giving.sections
    ]


# ---------------------------------------------------------------------------------------------
# The arbiters' page


@login_required
def prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """The categories and the prize list of an event; POST saves the prize list."""
    t = readable(request, pk) if request.method == "GET" else writable(request, pk)
    categories = list(t.categories.all())
    form = PrizesForm(t, categories, request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                prize_services.set_prizes(t, request.user, **form.for_service())
            except services.ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(request, _("Prize list saved."))
                return _page(t)
        else:
            form_errors(request, form)
    players = list(t.players.all())
    rows = [
        {"category": c, "conditions": prize_lists.conditions(t, c),
         "members": len(prize_lists.members(t, c, players))}
        for c in categories
    ]
    context = {
        "t": t, "rows": rows, "form": form, "category_form": CategoryForm(),
        "can_write": t.is_arbiter(request.user), "year": prize_lists.event_year(t),
    }
    return render(request, "tournaments/arbiter/prizes.html", context)


@arbiter_action
def category_add(request, tournament):
    form = CategoryForm(request.POST)
    if form.is_valid():
        category = prize_services.save_category(tournament, request.user, **form.cleaned_data)
        messages.success(request, _("Category %(name)s added.") % {"name": category.name})
    else:
        form_errors(request, form)
    return _page(tournament)


@login_required
def category_edit(request: HttpRequest, pk: int, category_pk: int) -> HttpResponse:
    t = writable(request, pk)
    category = get_object_or_404(Category, pk=category_pk, tournament=t)
    form = CategoryForm(request.POST or None, instance=category)
    if request.method == "POST" and form.is_valid():
        try:
            prize_services.save_category(t, request.user, category, **form.cleaned_data)
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Category %(name)s saved.") % {"name": category.name})
            return _page(t)
    context = {"t": t, "category": category, "form": form}
    return render(request, "tournaments/arbiter/category_form.html", context)


@arbiter_action
def category_remove(request, tournament, category_pk: int):
    category = get_object_or_404(Category, pk=category_pk, tournament=tournament)
    prize_services.remove_category(tournament, request.user, category)
    messages.success(request, _("Category %(name)s removed.") % {"name": category.name})
    return _page(tournament)


# ---------------------------------------------------------------------------------------------
# Public pages


@conditional_for_visitors
def public_prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """The prize list: who receives which prize once the last round is in; until then the
    prizes announced. With the links to each category's ranking list."""
    t = get_object_or_404(Tournament, pk=pk)
    try:
        giving = prize_lists.prize_giving(t, version=request.public_version)
    except services.ServiceError as error:
        return unavailable(request, t, "prizes", error)
    context = {
        "t": t, "giving": giving, "sections": _lines(giving), "tab": "prizes",
        "announced_total": prize_lists.money(giving.announced_total, giving.currency),
    }
    return render(request, "tournaments/public/prizes.html", context)


@conditional_for_visitors
def public_category(request: HttpRequest, pk: int, category_pk: int) -> HttpResponse:
    """A category's ranking list: the standings of its players, in the standings' order."""
    t = get_object_or_404(Tournament, pk=pk)
    category = get_object_or_404(Category, pk=category_pk, tournament=t)
    try:
        table = prize_lists.category_standings(
            t, category, after_round=after_round_asked(request), version=request.public_version
        )
    except services.ServiceError as error:
        return unavailable(request, t, "prizes", error)
    context = {
        "t": t, "table": table, "standings": table.standings, "tab": "prizes",
        "rows": [{"label": r.rank_label, "row": r.row, "points": format_points(r.row.points)}
                 for r in table.rows],
        "categories": list(t.categories.all()),
        "rounds": queries.public_round_numbers(t),
    }
    return render(request, "tournaments/public/category.html", context)


# ---------------------------------------------------------------------------------------------
# Paper


@login_required
def print_prizes(request: HttpRequest, pk: int) -> HttpResponse:
    t = readable(request, pk)
    giving = prize_lists.prize_giving(t)
    what = (_("Prize list") if giving.final
            else _("Prize list after round %(number)s (provisional)")
            % {"number": giving.after_round})
    return render(request, "tournaments/print/prizes.html", {
        "t": t, "what": what, "giving": giving, "sections": _lines(giving),
        "announced_total": prize_lists.money(giving.announced_total, giving.currency),
        "given_total": prize_lists.money(giving.given_total, giving.currency),
    })


@login_required
def print_categories(request: HttpRequest, pk: int) -> HttpResponse:
    """Every category's ranking list, one after the other (each on a page of its own)."""
    t = readable(request, pk)
    tables = [prize_lists.category_standings(t, c) for c in t.categories.all()]
    after = tables[0].standings.after_round if tables else 0
    what = _("Categories after round %(number)s") % {"number": after}
    lists = [
        {"table": table, "rows": [
            {"label": r.rank_label, "row": r.row, "points": format_points(r.row.points)}
            for r in table.rows
        ]}
        for table in tables
    ]
    return render(request, "tournaments/print/categories.html",
                  {"t": t, "what": what, "lists": lists})
