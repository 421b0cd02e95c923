"""Names with accents (issue 27, section 4): a search ignores accents and case on SQLite and on
PostgreSQL (with and without its unaccent extension), and alphabetical lists sort as readers do.

Run on PostgreSQL with ``DATABASE_URL=postgres://...``; the tests that need a vendor say so.
"""

from __future__ import annotations

import doctest
import random

import pytest
from django.db import connection
from django.urls import reverse

from tournaments import fide_list, names, services
from tournaments.models import FidePlayer
from tournaments.names import Folded, fold, name_key
from tournaments.search import search_players

pytestmark = pytest.mark.django_db

FIELD = [
    ("Çelik, Emre", 2310), ("Œuvrard, Luc", 2290), ("Müller, Hans", 2270),
    ("Boudiaf, Karim", 2250), ("Bézier, Anne", 2230), ("Cohen, Dan", 2210),
    ("Ødegaard, Magnus", 2190), ("Łukasiewicz, Jan", 2170), ("Straße, Uwe", 2150),
    ("Núñez, José", 2130),
]


@pytest.fixture
def field(arbiter):
    t = services.create_tournament(arbiter, name="Open des Accents", rounds=5)
    for name, rating in FIELD:
        services.add_player(t, arbiter, name=name, rating=rating)
    return t


def found(t, query) -> list[str]:
    return [p.name for p in search_players(t.players.order_by("tpn"), query)]


def test_the_doctests_hold():
    assert doctest.testmod(names).failed == 0


@pytest.mark.parametrize(("query", "expected"), [
    ("celik", ["Çelik, Emre"]),
    ("CELIK", ["Çelik, Emre"]),
    ("Çelik", ["Çelik, Emre"]),
    ("oeuvrard", ["Œuvrard, Luc"]),
    ("œuvrard luc", ["Œuvrard, Luc"]),
    ("muller", ["Müller, Hans"]),
    ("MÜLLER", ["Müller, Hans"]),
    ("bezier", ["Bézier, Anne"]),
    ("odegaard", ["Ødegaard, Magnus"]),
    ("lukasiewicz", ["Łukasiewicz, Jan"]),
    ("strasse", ["Straße, Uwe"]),
    ("nunez jose", ["Núñez, José"]),
    ("josé", ["Núñez, José"]),
    ("an", ["Müller, Hans", "Bézier, Anne", "Cohen, Dan", "Łukasiewicz, Jan"]),
    ("zz", []),
])
def test_a_search_ignores_accents_and_case(field, query, expected):
    assert found(field, query) == expected


def test_the_database_folds_as_python_does(field):
    rows = field.players.annotate(folded=Folded("name")).values_list("name", "folded")
    assert {name: folded for name, folded in rows} == {name: fold(name) for name, _ in FIELD}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's unaccent")
def test_postgresql_folds_the_same_without_unaccent(field, monkeypatch):
    with_extension = list(field.players.annotate(folded=Folded("name")).values_list("folded"))
    monkeypatch.setitem(names._UNACCENT, connection.alias, False)
    without = list(field.players.annotate(folded=Folded("name")).values_list("folded"))
    assert without == with_extension
    assert found(field, "celik oeuvrard muller") == []
    assert found(field, "oeuvrard") == ["Œuvrard, Luc"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's unaccent")
def test_the_migration_created_unaccent_on_postgresql(db):
    names.forget_unaccent()
    assert names.has_unaccent(connection)


def test_the_public_list_and_the_dashboard_find_accented_names(client, arbiter, field):
    public = client.get(reverse("public-players", args=[field.pk]), {"q": "celik"})
    assert "Çelik, Emre" in public.content.decode()
    assert "Cohen, Dan" not in public.content.decode()
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-tournament", args=[field.pk]), {"q": "oeuvrard"})
    rows = page.content.decode().split('<div id="player-rows">')[1].split("</table>")[0]
    assert "Œuvrard, Luc" in rows and "Müller, Hans" not in rows


def test_the_fide_list_is_searched_without_the_accents_typed(db):
    FidePlayer.objects.create(fide_id=34567890, name="Celik, Emre", federation="TUR",
                              standard_rating=2310)
    FidePlayer.objects.create(fide_id=45678901, name="Mueller, Hans", federation="GER",
                              standard_rating=2270)
    assert [p.name for p in fide_list.search("Çelik")] == ["Celik, Emre"]
    assert [p.name for p in fide_list.search("emre çelik")] == ["Celik, Emre"]


def test_alphabetical_order_is_the_readers(field):
    ordered = sorted((name for name, _ in FIELD), key=name_key)
    assert ordered == [
        "Bézier, Anne", "Boudiaf, Karim", "Çelik, Emre", "Cohen, Dan", "Łukasiewicz, Jan",
        "Müller, Hans", "Núñez, José", "Ødegaard, Magnus", "Œuvrard, Luc", "Straße, Uwe",
    ]


def test_the_printed_players_a_z_sort_as_readers_do(client, arbiter, field):
    services.draw_initial_color(field, arbiter, random.Random(1))
    services.publish_round(services.pair_next_round(field, arbiter), arbiter)
    client.force_login(arbiter)
    page = client.get(reverse("print-alphabetical", args=[field.pk, 1])).content.decode()
    positions = [page.index(f"<td>{name}</td>") for name in
                 ("Bézier, Anne", "Boudiaf, Karim", "Çelik, Emre", "Cohen, Dan")]
    assert positions == sorted(positions), positions


def test_equal_ratings_are_numbered_alphabetically_as_readers_sort(arbiter):
    """C.04.2 Art. 2.2: rating, title, then the name in alphabetical order."""
    t = services.create_tournament(arbiter, name="Égalité", rounds=5)
    for name in ("Boudiaf, Karim", "Cohen, Dan", "Bézier, Anne", "Çelik, Emre"):
        services.add_player(t, arbiter, name=name, rating=2000)
    assert list(t.players.order_by("tpn").values_list("name", flat=True)) == [
        "Bézier, Anne", "Boudiaf, Karim", "Çelik, Emre", "Cohen, Dan"]
