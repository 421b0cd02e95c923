"""Every API response matches the OpenAPI schema the API publishes at /api/schema/."""

from __future__ import annotations

import copy
import random
from decimal import Decimal

import jsonschema
import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Result
from tournaments.services import prizes as prize_services

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def json_schema(node):
    """OpenAPI 3.0 to JSON Schema: ``nullable: true`` becomes an explicit null alternative."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


@pytest.fixture
def schema(client):
    document = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    return document


def validator_for(schema: dict, path: str):
    """A validator of the 200 response of GET ``path`` (an OpenAPI path template)."""
    body = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    root = json_schema(copy.deepcopy(body["schema"]))
    root["components"] = json_schema(copy.deepcopy(schema["components"]))
    return jsonschema.Draft202012Validator(root)


def test_every_endpoint_answers_as_its_schema_says(client, arbiter, schema):
    t = make_tournament(arbiter, players=5, rounds=3)
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    first = rnd.games.filter(board__isnull=False).order_by("board").first()
    services.set_results(rnd, arbiter, {first.pk: Result.DRAW})  # one result still pending
    player = first.white
    u2400 = prize_services.save_category(t, arbiter, name="U2400", rating_below=2400)
    prize_services.set_prizes(t, arbiter, general=[Decimal(100)], sharing="hort", currency="€",
                              categories={u2400.pk: [Decimal("20.50")]})

    cases = {
        "/api/tournaments/": reverse("api-tournaments"),
        "/api/tournaments/{id}/": reverse("api-tournament", args=[t.pk]),
        "/api/tournaments/{id}/players/": reverse("api-players", args=[t.pk]),
        "/api/tournaments/{id}/players/{player_pk}/": reverse("api-player", args=[t.pk, player.pk]),
        "/api/tournaments/{id}/rounds/": reverse("api-rounds", args=[t.pk]),
        "/api/tournaments/{id}/rounds/{number}/": reverse("api-round", args=[t.pk, 1]),
        "/api/tournaments/{id}/rounds/{number}/pairings/": reverse("api-pairings", args=[t.pk, 1]),
        "/api/tournaments/{id}/standings/": reverse("api-standings", args=[t.pk]),
        "/api/tournaments/{id}/rounds/{number}/explanation/": reverse(
            "api-round-explanation", args=[t.pk, 1]
        ),
        "/api/tournaments/{id}/categories/": reverse("api-categories", args=[t.pk]),
        "/api/tournaments/{id}/categories/{category_pk}/standings/": reverse(
            "api-category-standings", args=[t.pk, u2400.pk]
        ),
        "/api/tournaments/{id}/prizes/": reverse("api-prizes", args=[t.pk]),
    }
    assert set(cases) == {p for p in schema["paths"] if p.startswith("/api/tournaments")}
    for template, path in cases.items():
        response = client.get(path, **JSON)
        assert response.status_code == 200, path
        errors = [e.message for e in validator_for(schema, template).iter_errors(response.json())]
        assert errors == [], (path, errors)

    # A pending game in a player card (points null) is allowed by the schema too.
    other = rnd.games.filter(board__isnull=False, result="").first().white
    card = client.get(reverse("api-player", args=[t.pk, other.pk]), **JSON).json()
    assert card["games"][0]["points"] is None
    assert not list(
        validator_for(schema, "/api/tournaments/{id}/players/{player_pk}/").iter_errors(card)
    )


def test_the_schema_rejects_a_wrong_response(schema):
    """The check above can fail: a standings row with points as text does not validate."""
    validator = validator_for(schema, "/api/tournaments/{id}/standings/")
    wrong = {
        "after_round": 1, "tiebreak_names": [],
        "rows": [{"rank": 1, "rank_label": "1", "points": "1.5", "games": 1, "tiebreaks": [],
                  "rating_change": None,
                  "player": {"id": 1, "tpn": 1, "name": "A", "title": "", "rating": None}}],
    }
    assert [e.validator for e in validator.iter_errors(wrong)] == ["type"]
