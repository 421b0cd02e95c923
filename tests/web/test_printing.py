"""Printable pages: pairings, players A-Z, result slips, standings, crosstable (issue 17)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Game

from .conftest import make_tournament
from .test_services import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(arbiter):
    """Seven players: round 1 finished, round 2 published (a PAB each round)."""
    t = make_tournament(arbiter, players=7, rounds=5, place="Bern", chief_arbiter="IA Anna Schmidt")
    services.draw_initial_color(t, arbiter, random.Random(1))
    play(services.pair_next_round(t, arbiter), arbiter, random.Random(2))
    services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return t


def get(client, name, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_the_dashboard_links_every_printable_page(client, arbiter, running):
    client.force_login(arbiter)
    page = get(client, "arbiter-tournament", running.pk)
    for name, args in [
        ("print-pairings", (running.pk, 2)),
        ("print-alphabetical", (running.pk, 2)),
        ("print-slips", (running.pk, 2)),
        ("print-standings", (running.pk,)),
        ("print-crosstable", (running.pk,)),
    ]:
        assert f'href="{reverse(name, args=args)}"' in page


def test_the_pairings_show_board_tpn_names_ratings_and_points(client, arbiter, running):
    client.force_login(arbiter)
    page = get(client, "print-pairings", running.pk, 2)
    assert "Pairings of round 2" in page and "Bern" in page and "IA Anna Schmidt" in page
    boards = Game.objects.filter(round__tournament=running, round__number=2, board__isnull=False)
    before = {s.player.pk: s.score for s in services.standings(running)}
    for game in boards.select_related("white", "black"):
        for player in (game.white, game.black):
            assert f"<td>{player.name}</td><td class=\"c\">{player.rating}</td>" in page
        row = (
            f'<td class="c">{game.board}</td><td class="c">{game.white.tpn}</td>'
            f"<td>{game.white.name}</td>"
        )
        assert row in page
    assert "Pairing-allocated bye" in page
    assert before  # the points column reads the standings before the round
    assert 'class="c">1</td>' in page


def test_the_alphabetical_list_gives_each_player_board_and_colour(client, arbiter, running):
    client.force_login(arbiter)
    page = get(client, "print-alphabetical", running.pk, 2)
    names = sorted(running.players.values_list("name", flat=True), key=str.casefold)
    positions = [page.index(f"<tr><td>{name}</td>") for name in names]
    assert positions == sorted(positions)
    game = Game.objects.filter(round__number=2, board=1, round__tournament=running).get()
    row = page[page.index(f"<tr><td>{game.black.name}</td>"):]
    assert row.index("Black") < row.index(game.white.name)


def test_one_result_slip_per_board(client, arbiter, running):
    client.force_login(arbiter)
    page = get(client, "print-slips", running.pk, 2)
    boards = Game.objects.filter(round__tournament=running, round__number=2, board__isnull=False)
    assert page.count('<section class="slip">') == boards.count() == 3


def test_standings_and_crosstable_print(client, arbiter, running):
    client.force_login(arbiter)
    assert "Standings after round 1" in get(client, "print-standings", running.pk)
    page = get(client, "print-crosstable", running.pk)
    assert "R1" in page and "R2" in page


def test_printing_is_for_the_tournaments_arbiters(client, other_arbiter, tournament):
    client.force_login(other_arbiter)
    response = client.get(reverse("print-standings", args=[tournament.pk]))
    assert response.status_code == 403


def test_every_page_leaves_menus_and_forms_out_on_paper(client):
    page = client.get("/").content.decode()
    assert "css/print.css" in page
