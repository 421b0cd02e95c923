"""Who may read and who may change a tournament in the dashboard."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.models import Round

pytestmark = pytest.mark.django_db


def write_urls(t):
    player = t.players.get(tpn=1)
    return [
        reverse("arbiter-player-add", args=[t.pk]),
        reverse("arbiter-players-upload", args=[t.pk]),
        reverse("arbiter-late-entry", args=[t.pk]),
        reverse("arbiter-renumber", args=[t.pk]),
        reverse("arbiter-draw-colour", args=[t.pk]),
        reverse("arbiter-bye", args=[t.pk]),
        reverse("arbiter-pair", args=[t.pk]),
        reverse("arbiter-add-arbiter", args=[t.pk]),
        reverse("arbiter-player-withdraw", args=[t.pk, player.pk]),
        reverse("arbiter-player-reinstate", args=[t.pk, player.pk]),
        reverse("arbiter-player-remove", args=[t.pk, player.pk]),
        reverse("arbiter-player", args=[t.pk, player.pk]),
        reverse("arbiter-tournament-edit", args=[t.pk]),
        reverse("arbiter-round-publish", args=[t.pk, 1]),
        reverse("arbiter-round-unpair", args=[t.pk, 1]),
        reverse("arbiter-round-finish", args=[t.pk, 1]),
        reverse("arbiter-round", args=[t.pk, 1]),
    ]


def read_urls(t):
    return [
        reverse("arbiter-tournament", args=[t.pk]),
        reverse("arbiter-round", args=[t.pk, 1]),
        reverse("arbiter-standings", args=[t.pk]),
        reverse("arbiter-audit", args=[t.pk]),
        reverse("arbiter-export-trf", args=[t.pk]),
    ]


@pytest.fixture
def with_round(tournament):
    Round.objects.create(tournament=tournament, number=1)
    return tournament


def test_anonymous_users_are_sent_to_login_and_change_nothing(client, with_round):
    t = with_round
    before = (t.players.count(), t.audit.count())
    for url in write_urls(t) + read_urls(t):
        response = client.post(url, {"name": "Intruder", "from_round": "2"})
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url
    assert (t.players.count(), t.audit.count()) == before


def test_an_arbiter_of_another_tournament_gets_403(client, other_arbiter, with_round):
    t = with_round
    client.force_login(other_arbiter)
    before = (t.players.count(), t.audit.count(), t.initial_color)
    for url in write_urls(t):
        assert client.post(url, {"name": "Intruder", "from_round": "2"}).status_code == 403, url
    for url in read_urls(t):
        assert client.get(url).status_code == 403, url
    t.refresh_from_db()
    assert (t.players.count(), t.audit.count(), t.initial_color) == before


def test_staff_reads_but_cannot_change_a_tournament_they_do_not_arbitrate(
    client, staff, with_round
):
    t = with_round
    client.force_login(staff)
    for url in read_urls(t):
        assert client.get(url).status_code == 200, url
    assert client.post(reverse("arbiter-draw-colour", args=[t.pk])).status_code == 403
    page = client.get(reverse("arbiter-tournament", args=[t.pk])).content.decode()
    assert "Draw by lot" not in page


def test_only_staff_create_tournaments(client, arbiter):
    client.force_login(arbiter)
    assert client.get(reverse("arbiter-tournament-create")).status_code == 403
    assert client.post(reverse("arbiter-tournament-import")).status_code == 403


def test_the_arbiter_may_change_and_a_colleague_can_be_added(
    client, arbiter, other_arbiter, tournament
):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter-draw-colour", args=[tournament.pk]))
    assert response.status_code == 302
    client.post(reverse("arbiter-add-arbiter", args=[tournament.pk]), {"username": "other"})
    client.force_login(other_arbiter)
    assert client.get(reverse("arbiter-tournament", args=[tournament.pk])).status_code == 200
    page = client.get(reverse("arbiter-home")).content.decode()
    assert tournament.name in page


def test_get_on_an_action_is_refused(client, arbiter, tournament):
    client.force_login(arbiter)
    assert client.get(reverse("arbiter-pair", args=[tournament.pk])).status_code == 405
