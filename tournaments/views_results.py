"""A round's page and its results entry: the boards a page at a time (each page a form, so a
round of any size is saved from the browser), quick entry from the result slips ("25 1",
Enter), and finishing the round. The services write; these views read the post and answer.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_POST

from tournaments import audit as audit_trail, explain, services
from tournaments.forms_results import QuickEntryForm, ResultsForm
from tournaments.models import Game, Round, Tournament
from tournaments.views_access import (
    arbiter_action,
    dashboard,
    form_errors,
    posted_round,
    readable,
    round_of,
    service_error,
    writable,
)
from tournaments.views_bulk import leave_many_form
from tournaments.views_corrections import leave_form

BOARDS_PER_PAGE = 200
"""Boards on one page of a round: each page is a form of two fields a board, well below
Django's limit of fields a post may send (``DATA_UPLOAD_MAX_NUMBER_FIELDS``, 1000)."""


def _page_number(value: str, pages: int) -> int:
    number = int(value) if value.isascii() and value.isdigit() else 1
    return min(max(number, 1), pages)


def _round_url(tournament: Tournament, number: int, page: int = 1, anchor: str = "") -> str:
    url = reverse("arbiter-round", args=[tournament.pk, number])
    return f"{url}{f'?page={page}' if page > 1 else ''}{f'#{anchor}' if anchor else ''}"


@login_required
def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = readable(request, pk)
    rnd = round_of(tournament, number)
    boards = rnd.games.filter(black__isnull=False)
    count = boards.count()
    pages = max(1, -(-count // BOARDS_PER_PAGE))
    page = _page_number(request.GET.get("page", ""), pages)
    can_write = tournament.is_arbiter(request.user)
    is_last = not tournament.round_set.filter(number__gt=rnd.number).exists()
    if request.method == "POST":
        if rnd.state == Round.State.DRAFT or not can_write:
            raise PermissionDenied(_("Results are entered in published rounds by the arbiters."))
        return _save(request, tournament, rnd, page, pages)
    form = None
    if rnd.state != Round.State.DRAFT and can_write and is_last:
        form = ResultsForm(games=_boards(boards, page), focus=rnd.state != Round.State.PUBLISHED)
    games = form.games if form is not None else _boards(boards, page)
    context = {
        "t": tournament,
        "round": rnd,
        "games": games,
        "byes": list(rnd.games.filter(black__isnull=True).select_related("white")),
        "form": form,
        "quick_form": QuickEntryForm() if form and rnd.state == Round.State.PUBLISHED else None,
        "page": page,
        "pages": [
            (n, (n - 1) * BOARDS_PER_PAGE + 1, min(n * BOARDS_PER_PAGE, count))
            for n in range(1, pages + 1)
        ] if pages > 1 else [],
        "next_page": page + 1 if page < pages else None,
        "can_write": can_write,
        "is_last": is_last,
        "missing": rnd.games.filter(
            Q(result="") | Q(is_match=True, black__isnull=False, second_result="")
        ).count(),
        # The engine's explanation covers the whole round (megabytes at 5000 players): with one
        # page of boards it is on it, with more on a page of its own that each page links to.
        "why": _why(rnd) if pages == 1 else None,
        "explained_apart": pages > 1 and _explained(rnd),
        "leave_form": leave_form(tournament, rnd)
        if rnd.state == Round.State.DRAFT and can_write
        else None,
    }
    if context["leave_form"] is not None:
        context["leave_many_form"] = leave_many_form(tournament, rnd)
    context["can_unpublish"] = (
        can_write and is_last and rnd.state == Round.State.PUBLISHED
        and not boards.exclude(result="").exists()
    )
    return render(request, "tournaments/arbiter/round.html", context)


def _explained(rnd: Round) -> bool:
    """Whether the engine left an explanation of the round, asked of the database (the round
    was read without it: megabytes at 5000 players)."""
    return Round.objects.filter(pk=rnd.pk).exclude(explanation="").exists()


def _why(rnd: Round):
    """The round's explanation for the arbiter's page. "round" is read too: the related manager
    sets each row's round from round_id, a deferred one costs a query a row."""
    return explain.arbiter_view(rnd, rnd.games.only("round", "white", "black", "result"))


@login_required
def round_explanation(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """How the engine paired a round whose boards take more than one page."""
    tournament = readable(request, pk)
    rnd = round_of(tournament, number)
    if not _explained(rnd):
        return redirect("arbiter-round", tournament.pk, number)
    return render(request, "tournaments/arbiter/round_explanation.html",
                  {"t": tournament, "round": rnd, "why": _why(rnd)})


def _boards(boards, page: int) -> list[Game]:
    start = (page - 1) * BOARDS_PER_PAGE
    return list(boards.select_related("white", "black")[start:start + BOARDS_PER_PAGE])


def _save(request, tournament: Tournament, rnd: Round, page: int, pages: int) -> HttpResponse:
    """Save the boards a page posts: the whole page without a script, with one only the boards
    changed on it (``static/js/results.js``); then the same page, the next, or finish."""
    # The form checks the values posted; the service reads the boards again under the lock,
    # with the players its audit entries name.
    games = list(
        rnd.games.filter(pk__in=ResultsForm.posted_ids(request.POST), black__isnull=False)
    )
    form = ResultsForm(request.POST, games=games)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(_round_url(tournament, rnd.number, page))
    try:
        saved = services.set_results(
            rnd, request.user, {**form.gone(), **form.results()}, seen=form.seen()
        )
    except services.ServiceError as error:
        service_error(request, error)
        return redirect(_round_url(tournament, rnd.number, page))
    messages.success(
        request,
        ngettext("%(count)d result saved.", "%(count)d results saved.", saved.saved)
        % {"count": saved.saved},
    )
    for refusal in saved.refused:
        messages.error(request, refusal)
    if saved.refused:
        return redirect(_round_url(tournament, rnd.number, page))
    if "finish" in request.POST:
        return _finish(request, tournament, rnd)
    if "next_page" in request.POST and page < pages:
        page += 1
    return redirect(_round_url(tournament, rnd.number, page))


@login_required
@require_POST
def quick_entry(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One board's result as typed ("25 1"): stored, or refused with the reason. A script's
    request (``Accept: application/json``) gets the answer as JSON and stays on the page; a
    form's goes back to the round page, with the answer as a message."""
    tournament = writable(request, pk)
    form = QuickEntryForm(request.POST)
    try:
        rnd = posted_round(request, tournament, number)
        if not form.is_valid():
            raise services.ServiceError(form.errors["entry"][0])
        board, value = form.cleaned_data["entry"]
        entered = services.enter_board(rnd, request.user, board, value)
    except services.ServiceError as error:
        return _answer(request, tournament, number, str(error), ok=False)
    game = entered.game
    names = {
        "board": game.board, "white": game.white.name, "black": game.black.name,
        "result": audit_trail.result_label(value),
    }
    said = (
        _("Board %(board)s: %(result)s %(white)s–%(black)s") if entered.stored
        else _("Board %(board)s already holds %(result)s (%(white)s–%(black)s): nothing changed.")
    ) % names
    return _answer(request, tournament, number, said, ok=True, game=game)


def _answer(request, tournament, number, said: str, *, ok: bool, game: Game | None = None):
    if "application/json" in request.headers.get("Accept", ""):
        answer: dict[str, object] = {"ok": ok, "message": said}
        if game is not None:
            answer.update(game=game.pk, result=game.result, second_result=game.second_result)
        return JsonResponse(answer, status=200 if ok else 400)
    (messages.success if ok else messages.error)(request, said)
    page = request.POST.get("page", "")
    page_number = int(page) if page.isascii() and page.isdigit() else 1
    return redirect(_round_url(tournament, number, page_number, "quick-entry"))


def _finish(request, tournament, rnd):
    try:
        services.finish_round(rnd, request.user)
    except services.ServiceError as error:
        messages.error(request, str(error))
        return redirect("arbiter-round", pk=tournament.pk, number=rnd.number)
    messages.success(request, _("Round %(number)s finished.") % {"number": rnd.number})
    return dashboard(tournament)


@arbiter_action
def round_finish(request, tournament, number):
    return _finish(request, tournament, posted_round(request, tournament, number))
