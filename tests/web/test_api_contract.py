"""What the API promises beyond its bodies (issue 20): a root, JSON errors, 404 before any
precondition, strict query parameters, documented error responses, docs served from here."""

from __future__ import annotations

import random

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tournaments import services
from tournaments.models import Result

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def url(name, *args):
    return reverse(name, args=args)


@pytest.fixture
def event(arbiter):
    """Round 1 published with every result in; tie-breaks as the settings form stores them."""
    t = make_tournament(arbiter, players=5, rounds=3, tiebreaks="BH/C1,BH,DE")
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards = rnd.games.filter(board__isnull=False)
    services.set_results(rnd, arbiter, {g.pk: Result.WHITE_WINS for g in boards})
    return t


def test_tiebreaks_are_a_list_of_codes(client, event):
    detail = client.get(url("api-tournament", event.pk), **JSON).json()
    assert detail["tiebreaks"] == ["BH/C1", "BH", "DE"]


def test_the_api_root_lists_the_endpoints(client, db):
    response = client.get("/api/", **JSON)
    assert response.status_code == 200
    links = response.json()
    assert links["tournaments"] == "http://testserver/api/tournaments/"
    assert {"schema", "docs", "redoc"} <= set(links)
    for link in links.values():
        assert client.get(link.removeprefix("http://testserver")).status_code == 200, link


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/", "/api/schema/"])
def test_docs_answer_options_and_refuse_post_without_an_error(client, db, path):
    options = client.options(path)
    assert options.status_code == 200 and "GET" in options["Allow"]
    assert client.post(path).status_code == 405


def test_docs_load_their_scripts_from_this_site(client, db):
    for path in ("/api/docs/", "/api/redoc/"):
        page = client.get(path).content.decode()
        assert "cdn.jsdelivr" not in page and "://" not in page.split("<body", 1)[-1].replace(
            "http://testserver", ""
        ), path
    swagger = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in swagger
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    redoc = client.get("/api/redoc/").content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in redoc


@pytest.mark.parametrize(
    "headers",
    [{"HTTP_IF_NONE_MATCH": "*"}, {"HTTP_IF_MATCH": '"x"'}, {"HTTP_IF_MATCH": "*"}],
    ids=["if-none-match-star", "if-match-other", "if-match-star"],
)
def test_a_missing_resource_is_404_whatever_the_preconditions(client, event, headers):
    missing = [
        url("api-player", event.pk, 999999),
        url("api-round", event.pk, 9),
        url("api-pairings", event.pk, 9),
        url("api-round-explanation", event.pk, 9),
        url("api-tournament", 999999),
        url("api-standings", 999999),
    ]
    for path in missing:
        response = client.get(path, **headers, **JSON)
        assert response.status_code == 404, (path, response.status_code)
        assert response["Content-Type"] == "application/json", path
        assert "detail" in response.json(), path


def test_a_failed_precondition_is_answered_in_json(client, event):
    response = client.get(url("api-players", event.pk), HTTP_IF_MATCH='"x"', **JSON)
    assert response.status_code == 412
    assert response["Content-Type"] == "application/json"
    assert "detail" in response.json()


def test_a_bad_after_round_is_400_before_any_precondition(client, event):
    path = url("api-standings", event.pk) + "?after_round=x"
    assert client.get(path, HTTP_IF_NONE_MATCH="*", **JSON).status_code == 400


def test_unknown_api_paths_are_json_404(client, db):
    for path in ("/api/nothing/", "/api/tournaments/abc/", "/api/tournaments/1/nothing/"):
        response = client.get(path, **JSON)
        assert response.status_code == 404, path
        assert response["Content-Type"] == "application/json", path
        assert response.json()["detail"]


@pytest.mark.parametrize("value", ["1_0", "+1", "١", "٠", " 1", "1.0", "01x", "99999999999"])
def test_after_round_takes_plain_digits_only(client, event, value):
    response = client.get(url("api-standings", event.pk), {"after_round": value}, **JSON)
    assert response.status_code == 400, value
    assert "after_round" in response.json()["detail"]


def test_after_round_in_plain_digits_still_works(client, event):
    for value, expected in (("0", 0), ("1", 1), ("01", 1)):
        body = client.get(url("api-standings", event.pk), {"after_round": value}, **JSON).json()
        assert body["after_round"] == expected, value
    # beyond the rounds complete: a 400 that says so (test_api_scoreboards.py), not round 1
    assert client.get(url("api-standings", event.pk), {"after_round": "7"}, **JSON
                      ).status_code == 400


@pytest.mark.parametrize("value", ["1_0", "+1", "١"])
def test_public_after_takes_plain_digits_only(client, event, value):
    response = client.get(url("public-standings", event.pk), {"after": value})
    assert response.status_code == 404, value


def test_the_schema_documents_errors_and_the_after_round_minimum(client, db):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()[
        "paths"
    ]
    for path, operations in paths.items():
        responses = operations["get"]["responses"]
        assert "200" in responses, path
        if "{" in path:
            assert "404" in responses, path
    standings = paths["/api/tournaments/{id}/standings/"]["get"]
    assert "400" in standings["responses"]
    (after,) = [p for p in standings["parameters"] if p["name"] == "after_round"]
    assert after["schema"]["type"] == "integer" and after["schema"]["minimum"] == 0
    assert "/api/" in paths and "200" in paths["/api/"]["get"]["responses"]


def test_a_failed_precondition_on_a_cached_body_is_json_too(client, event):
    path = url("api-players", event.pk)
    first = client.get(path, **JSON)  # now in the cache of the tournament's version
    assert first.status_code == 200
    assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"], **JSON).status_code == 304
    refused = client.get(path, HTTP_IF_MATCH='"x"', **JSON)
    assert refused.status_code == 412 and refused["Content-Type"] == "application/json"


def test_an_id_too_large_for_the_database_is_a_404(client, event):
    """Found by the schema fuzzer: an id beyond 64 bits reached the database (a 500)."""
    huge = 95419478901887923650560
    for path in (url("api-player", huge, 300), url("api-standings", huge),
                 url("api-round", huge, 1), f"/t/{huge}/", f"/t/{huge}/standings/"):
        assert client.get(path, **JSON).status_code == 404, path
    assert client.get(url("api-player", event.pk, huge), **JSON).status_code == 404
