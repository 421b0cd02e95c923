"""Player search by name, FIDE ID or pairing number, on the dashboard and the public list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.search import search_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(arbiter):
    t = services.create_tournament(arbiter, name="Search Open", rounds=5)
    for name, rating, fide_id in [
        ("Carlsen, Magnus", 2830, "1503014"),
        ("Caruana, Fabiano", 2800, "2020009"),
        ("Nakamura, Hikaru", 2790, "2016192"),
        ("Lagno, Kateryna", 2500, "14109336"),
    ]:
        services.add_player(t, arbiter, name=name, rating=rating, fide_id=fide_id)
    return t


def names(players) -> list[str]:
    return [p.name for p in players]


def test_words_match_the_name_in_any_order_and_case(field):
    players = field.players.order_by("tpn")
    assert names(search_players(players, "car")) == ["Carlsen, Magnus", "Caruana, Fabiano"]
    assert names(search_players(players, "magnus CARL")) == ["Carlsen, Magnus"]
    assert names(search_players(players, "  ")) == names(players)


def test_a_number_is_a_pairing_number_or_the_start_of_a_fide_id(field):
    players = field.players.order_by("tpn")
    assert names(search_players(players, "3")) == ["Nakamura, Hikaru"]
    assert names(search_players(players, "2020")) == ["Caruana, Fabiano"]
    assert names(search_players(players, "1")) == ["Carlsen, Magnus", "Lagno, Kateryna"]


def test_the_public_list_searches_without_javascript(client, field):
    page = client.get(reverse("public-players", args=[field.pk]), {"q": "nakamura"})
    text = page.content.decode()
    assert "Nakamura, Hikaru" in text and "Carlsen" not in text
    assert 'name="q" value="nakamura"' in text
    empty = client.get(reverse("public-players", args=[field.pk]), {"q": "Kasparov"})
    assert "No player matches" in empty.content.decode()


def test_the_dashboard_searches_too(client, arbiter, field):
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-tournament", args=[field.pk]), {"q": "14109336"})
    text = page.content.decode()
    start = text.index('id="player-rows"')
    rows = text[start:text.index("</table>", start)]
    assert "Lagno, Kateryna" in rows and "Caruana" not in rows
    assert "Players (4)" in text
    assert 'data-live-search="player-rows"' in text and 'id="player-rows"' in text
