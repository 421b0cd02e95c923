"""What a scoreboard developer needs of the API (issue 27, section 6): CORS for the origins the
site allows, a 400 for standings after a round not complete, tie-break values as numbers, and
API docs that load nothing from another site."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Result

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
BOARD = "https://board.example.org"


@pytest.fixture
def event(arbiter):
    """Round 1 finished (every result in), round 2 published and pending."""
    t = make_tournament(arbiter, players=6, rounds=4, tiebreaks="BH/C1,SB,WIN")
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards = list(rnd.games.filter(board__isnull=False).order_by("board"))
    services.set_results(rnd, arbiter, {boards[0].pk: Result.DRAW,
                                        **{g.pk: Result.WHITE_WINS for g in boards[1:]}})
    services.finish_round(rnd, arbiter)
    services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return t


def standings(event) -> str:
    return reverse("api-standings", args=[event.pk])


def test_the_api_answers_the_origins_allowed(client, settings, event):
    settings.CORS_ALLOWED_ORIGINS = [BOARD]
    for _ in range(2):  # the second time from the page cache of the tournament's version
        response = client.get(standings(event), HTTP_ORIGIN=BOARD, **JSON)
        assert response.status_code == 200
        assert response["Access-Control-Allow-Origin"] == BOARD
        assert "ETag" in response["Access-Control-Expose-Headers"]
    # A scoreboard that asks If-None-Match gets its 304 with the header too.
    again = client.get(standings(event), HTTP_ORIGIN=BOARD,
                       HTTP_IF_NONE_MATCH=response["ETag"], **JSON)
    assert again.status_code == 304 and again["Access-Control-Allow-Origin"] == BOARD
    # The browser's preflight for a conditional GET.
    preflight = client.options(standings(event), HTTP_ORIGIN=BOARD,
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                               HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match")
    assert preflight.status_code == 200
    assert "if-none-match" in preflight["Access-Control-Allow-Headers"]
    assert "POST" not in preflight["Access-Control-Allow-Methods"]


def test_other_origins_and_the_pages_get_no_cors_header(client, settings, event):
    settings.CORS_ALLOWED_ORIGINS = [BOARD]
    other = client.get(standings(event), HTTP_ORIGIN="https://evil.example", **JSON)
    assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other
    page = client.get(reverse("public-standings", args=[event.pk]), HTTP_ORIGIN=BOARD)
    assert "Access-Control-Allow-Origin" not in page


def test_any_origin_when_the_site_says_so(client, settings, event):
    settings.CORS_ALLOW_ALL_ORIGINS = True
    response = client.get(standings(event), HTTP_ORIGIN="https://tv.example", **JSON)
    assert response["Access-Control-Allow-Origin"] == "*"


def test_the_setting_reads_a_list_or_a_star(monkeypatch):
    import importlib

    import config.settings as config

    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", f"{BOARD}, https://tv.example")
    reloaded = importlib.reload(config)
    assert reloaded.CORS_ALLOWED_ORIGINS == [BOARD, "https://tv.example"]
    assert not reloaded.CORS_ALLOW_ALL_ORIGINS
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", "*")
    reloaded = importlib.reload(config)
    assert reloaded.CORS_ALLOW_ALL_ORIGINS and reloaded.CORS_ALLOWED_ORIGINS == []
    monkeypatch.delenv("CORS_ALLOWED_ORIGINS")
    importlib.reload(config)


def test_standings_after_a_round_not_complete_are_a_400(client, event):
    assert client.get(standings(event), {"after_round": "1"}, **JSON).json()["after_round"] == 1
    assert client.get(standings(event), {"after_round": "0"}, **JSON).json()["after_round"] == 0
    for after in ("2", "9"):  # published but pending; not played
        response = client.get(standings(event), {"after_round": after}, **JSON)
        assert response.status_code == 400, after
        assert response.json()["detail"] == (
            f"after_round: round {after} is not complete; the standings go up to round 1 "
            "(0: before the first round).")


def test_tie_break_values_are_numbers_like_the_points(client, event):
    body = client.get(standings(event), **JSON).json()
    assert body["tiebreak_names"] == ["BH/C1", "SB", "WIN"]
    for row in body["rows"]:
        assert isinstance(row["points"], float)
        assert all(isinstance(v, float) for v in row["tiebreaks"]), row
    page = client.get(reverse("public-standings", args=[event.pk])).content.decode()
    drawn = next(r for r in body["rows"] if r["points"] == 0.5)
    assert drawn["tiebreaks"][2] == 0.0 and f">{drawn['player']['name']}<" in page


def test_the_redoc_page_may_load_from_this_site_only(client, db):
    response = client.get("/api/redoc/")
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"]
                  .split(";"))
    assert policy["default-src"] == "'none'" and policy["img-src"] == "'self' data:"
    assert all("http" not in sources for sources in policy.values()), policy
