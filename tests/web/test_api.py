"""The read-only REST API: contents, draft rounds hidden, query counts, conditional GET."""

from __future__ import annotations

import datetime as dt
import random
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.http import http_date

from tournaments import services, versioning
from tournaments.models import AuditEntry, PublicVersion, Result, Round, Tournament

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def url(name, *args):
    return reverse(name, args=args)


def started(arbiter, players: int, *, results: bool = True, publish: bool = True) -> Tournament:
    """A tournament whose round 1 is paired (and published, with results, unless told not)."""
    t = make_tournament(arbiter, players=players, rounds=3, tiebreaks="")  # ties stay shared
    services.draw_initial_color(t, arbiter, random.Random(0))
    t.initial_color = "w"
    t.save(update_fields=["initial_color"])
    rnd = services.pair_next_round(t, arbiter)
    if publish:
        services.publish_round(rnd, arbiter)
        if results:
            boards = rnd.games.filter(board__isnull=False).order_by("board")
            services.set_results(rnd, arbiter, {g.pk: Result.WHITE_WINS for g in boards})
    return t


def count_queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, **JSON)
    assert response.status_code == 200, response.content
    return len(ctx.captured_queries)


def backdate(t: Tournament, seconds: int = 60) -> None:
    """Move every change of the tournament into the past (so Last-Modified is sent)."""
    past = timezone.now() - dt.timedelta(seconds=seconds)
    Tournament.objects.filter(pk=t.pk).update(updated_at=past)
    AuditEntry.objects.filter(tournament=t).update(at=past)
    PublicVersion.objects.filter(tournament=t).update(changed_at=past)
    versioning.forget(t.pk)


# ---------------------------------------------------------------------------------------------
# Contents


def test_tournament_list_and_detail(client, arbiter):
    t = started(arbiter, 5)
    services.create_tournament(arbiter, name="Empty Cup", rounds=9, place="Basel")

    listing = client.get(url("api-tournaments"), **JSON).json()
    by_name = {item["name"]: item for item in listing}
    assert set(by_name) == {"Test Open", "Empty Cup"}
    assert (by_name["Test Open"]["player_count"], by_name["Test Open"]["public_rounds"]) == (5, 1)
    assert (by_name["Empty Cup"]["player_count"], by_name["Empty Cup"]["status"]) == (
        0, "registration",
    )
    assert by_name["Test Open"]["links"]["standings"].endswith(url("api-standings", t.pk))

    detail = client.get(url("api-tournament", t.pk), **JSON).json()
    assert detail["point_system"]["draw"] == 0.5 and detail["point_system"]["win"] == 1.0
    assert detail["initial_color"] == "w"


def test_players_in_tpn_order_and_player_card(client, arbiter):
    t = started(arbiter, 5)
    players = client.get(url("api-players", t.pk), **JSON).json()
    assert [(p["tpn"], p["name"]) for p in players] == [(i + 1, f"Player {c}") for i, c in
                                                       enumerate("ABCDE")]

    alice = t.players.get(tpn=1)
    card = client.get(url("api-player", t.pk, alice.pk), **JSON).json()
    # Round 1 with 5 players and White for TPN 1: A-C on board 1, A won.
    assert card["score"] == 1.0
    assert card["games"] == [
        {
            "round": 1, "colour": "w", "result": "1", "points": 1.0, "total": 1.0,
            "opponent": {"id": t.players.get(tpn=3).pk, "tpn": 3, "name": "Player C", "title": "",
                         "rating": 2349},
        }
    ]
    other = make_tournament(arbiter, players=1).players.get()
    assert client.get(url("api-player", t.pk, other.pk), **JSON).status_code == 404


def test_a_draft_round_is_never_in_the_api(client, arbiter):
    t = started(arbiter, 5, publish=False)
    assert Round.objects.get(tournament=t).state == Round.State.DRAFT

    assert client.get(url("api-rounds", t.pk), **JSON).json() == []
    assert client.get(url("api-round", t.pk, 1), **JSON).status_code == 404
    assert client.get(url("api-pairings", t.pk, 1), **JSON).status_code == 404
    card = client.get(url("api-player", t.pk, t.players.get(tpn=1).pk), **JSON).json()
    assert card["games"] == []
    assert client.get(url("api-tournaments"), **JSON).json()[0]["public_rounds"] == 0


def test_round_pairings_in_board_order_then_byes(client, arbiter):
    t = started(arbiter, 5, results=False)

    rounds = client.get(url("api-rounds", t.pk), **JSON).json()
    assert [(r["number"], r["state"], r["boards"], r["results_missing"]) for r in rounds] == [
        (1, "published", 2, 2),
    ]
    detail = client.get(url("api-round", t.pk, 1), **JSON).json()
    rows = [
        (p["board"], p["white"]["name"], p["black"] and p["black"]["name"], p["result"])
        for p in detail["pairings"]
    ]
    assert rows == [
        (1, "Player A", "Player C", ""), (2, "Player D", "Player B", ""),
        (None, "Player E", None, "PAB"),
    ]
    pairings = client.get(url("api-pairings", t.pk, 1), **JSON).json()
    assert pairings == detail["pairings"]


def test_standings_follow_results_with_shared_ranks(client, arbiter):
    t = started(arbiter, 5, results=False)
    before = client.get(url("api-standings", t.pk), **JSON).json()
    assert before["after_round"] == 0
    assert {row["rank_label"] for row in before["rows"]} == {"1-5"}

    rnd = t.round_set.get(number=1)
    boards = list(rnd.games.filter(board__isnull=False).order_by("board"))
    services.set_results(rnd, arbiter, {boards[0].pk: Result.WHITE_WINS, boards[1].pk: Result.DRAW})

    after = client.get(url("api-standings", t.pk), **JSON).json()
    assert after["after_round"] == 1
    rows = [(r["rank_label"], r["player"]["name"], r["points"], r["games"]) for r in after["rows"]]
    assert rows == [
        ("1-2", "Player A", 1.0, 1), ("1-2", "Player E", 1.0, 0), ("3-4", "Player B", 0.5, 1),
        ("3-4", "Player D", 0.5, 1), ("5", "Player C", 0.0, 1),
    ]
    early = client.get(url("api-standings", t.pk) + "?after_round=0", **JSON).json()
    assert early["after_round"] == 0
    assert client.get(url("api-standings", t.pk) + "?after_round=x", **JSON).status_code == 400
    assert client.get(url("api-standings", t.pk) + "?after_round=-2", **JSON).status_code == 400


def test_unknown_tournament_is_404(client, db):
    for name in ("api-tournament", "api-players", "api-rounds", "api-standings"):
        assert client.get(url(name, 424242), **JSON).status_code == 404


def test_the_api_is_read_only(client, arbiter):
    t = make_tournament(arbiter, players=2)
    assert client.post(url("api-tournaments"), {"name": "X"}, **JSON).status_code == 405
    assert client.delete(url("api-tournament", t.pk), **JSON).status_code == 405
    assert client.put(url("api-players", t.pk), {}, **JSON).status_code == 405
    assert Tournament.objects.count() == 1


# ---------------------------------------------------------------------------------------------
# Query counts: lists cost the same whatever the number of players (no N+1)


@pytest.mark.parametrize(
    "name, expected",
    [
        # version (1), then: tournament (1) + what the endpoint reads.
        ("api-players", 2),
        ("api-rounds", 2),
        # the standings (4), the rounds' history (3) and the FIDE list's K (1) for Rtg+/-
        ("api-standings", 9),
    ],
)
def test_list_endpoints_do_not_grow_with_the_field(client, arbiter, name, expected,
                                                   django_assert_num_queries):
    small = started(arbiter, 5)
    large = started(arbiter, 14)
    assert count_queries(client, url(name, small.pk)) == count_queries(client, url(name, large.pk))
    versioning.bump(large.pk)  # a change: the body is built again
    with django_assert_num_queries(expected):
        client.get(url(name, large.pk), **JSON)
    with django_assert_num_queries(1):  # the version; the body comes from the cache
        client.get(url(name, large.pk), **JSON)


def test_tournament_list_round_and_card_query_counts(client, arbiter, django_assert_num_queries):
    small = started(arbiter, 5)
    assert count_queries(client, url("api-tournaments")) == 2  # 1 for the version, 1 list
    started(arbiter, 14)
    started(arbiter, 9)
    with django_assert_num_queries(2):
        client.get(url("api-tournaments"), **JSON)

    large = Tournament.objects.order_by("-pk")[1]
    for name in ("api-round", "api-pairings"):
        assert count_queries(client, url(name, small.pk, 1)) == count_queries(
            client, url(name, large.pk, 1)
        )
    versioning.bump(large.pk)  # a change: the body is built again
    with django_assert_num_queries(3):  # version, round with counts, games with both players
        client.get(url("api-round", large.pk, 1), **JSON)
    card_small = count_queries(client, url("api-player", small.pk, small.players.first().pk))
    card_large = count_queries(client, url("api-player", large.pk, large.players.first().pk))
    assert card_small == card_large == 5  # version, tournament, players, rounds, games


# ---------------------------------------------------------------------------------------------
# Conditional GET


def test_if_none_match_gives_304_in_one_query_until_something_changes(
    client, arbiter, django_assert_num_queries
):
    t = started(arbiter, 5, results=False)
    path = url("api-standings", t.pk)
    first = client.get(path, **JSON)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    assert first["Cache-Control"] == "no-cache" and "Accept" in first["Vary"]

    with django_assert_num_queries(1):
        again = client.get(path, HTTP_IF_NONE_MATCH=etag, **JSON)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag

    rnd = t.round_set.get(number=1)
    board = rnd.games.get(board=1)
    services.set_results(rnd, arbiter, {board.pk: Result.DRAW})

    changed = client.get(path, HTTP_IF_NONE_MATCH=etag, **JSON)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_every_public_endpoint_answers_304(client, arbiter):
    t = started(arbiter, 5)
    paths = [
        url("api-tournaments"), url("api-tournament", t.pk), url("api-players", t.pk),
        url("api-player", t.pk, t.players.first().pk), url("api-rounds", t.pk),
        url("api-round", t.pk, 1), url("api-pairings", t.pk, 1), url("api-standings", t.pk),
    ]
    etags = set()
    for path in paths:
        etag = client.get(path, **JSON)["ETag"]
        etags.add(etag)
        assert client.get(path, HTTP_IF_NONE_MATCH=etag, **JSON).status_code == 304, path
        assert client.head(path, HTTP_IF_NONE_MATCH=etag, **JSON).status_code == 304, path
    assert len(etags) == len(paths)  # one ETag per resource


def test_if_modified_since(client, arbiter):
    t = started(arbiter, 5, results=False)
    backdate(t)
    path = url("api-rounds", t.pk)
    first = client.get(path, **JSON)
    stamp = first["Last-Modified"]

    assert client.get(path, HTTP_IF_MODIFIED_SINCE=stamp, **JSON).status_code == 304
    older = http_date((timezone.now() - dt.timedelta(hours=1)).timestamp())
    assert client.get(path, HTTP_IF_MODIFIED_SINCE=older, **JSON).status_code == 200

    rnd = t.round_set.get(number=1)
    services.set_results(rnd, arbiter, {rnd.games.get(board=1).pk: Result.BLACK_WINS})
    backdate(t, seconds=5)
    assert client.get(path, HTTP_IF_MODIFIED_SINCE=stamp, **JSON).status_code == 200


def test_no_last_modified_during_the_second_of_a_change(client, arbiter):
    t = started(arbiter, 5)
    changed_at = Tournament.objects.get(pk=t.pk).updated_at
    with mock.patch("tournaments.queries.timezone.now", return_value=changed_at):
        response = client.get(url("api-rounds", t.pk), **JSON)
    # A second change within the same second would not move a one-second HTTP date.
    assert response.status_code == 200 and "Last-Modified" not in response
    assert "ETag" in response


def test_json_and_browsable_api_have_different_etags(client, arbiter):
    t = started(arbiter, 5)
    path = url("api-rounds", t.pk)
    as_json = client.get(path, **JSON)
    as_html = client.get(path, HTTP_ACCEPT="text/html")
    assert as_html.status_code == 200 and b"<html" in as_html.content
    assert as_json["ETag"] != as_html["ETag"]
    assert client.get(path, HTTP_ACCEPT="text/html",
                      HTTP_IF_NONE_MATCH=as_json["ETag"]).status_code == 200


# ---------------------------------------------------------------------------------------------
# OpenAPI


def test_openapi_schema_and_docs(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/tournaments/", "/api/tournaments/{id}/players/", "/api/tournaments/{id}/rounds/",
        "/api/tournaments/{id}/rounds/{number}/pairings/", "/api/tournaments/{id}/standings/",
    ):
        assert set(paths[path]) == {"get"}, path
    standings = paths["/api/tournaments/{id}/standings/"]["get"]
    assert any(p["name"] == "after_round" for p in standings["parameters"])
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
