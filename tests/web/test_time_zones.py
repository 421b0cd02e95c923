"""Times are shown in the tournament's time zone, named; dates in one format (issue 20)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse

from tests.web.pages import form_data
from tournaments import services
from tournaments.models import AuditEntry, Tournament
from tournaments.services import corrections

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

WINTER = dt.datetime(2026, 12, 1, 12, 5, tzinfo=dt.UTC)


@pytest.fixture
def zurich(arbiter):
    t = make_tournament(arbiter, players=4, rounds=3, time_zone="Europe/Zurich",
                        start_date=dt.date(2026, 12, 1), end_date=dt.date(2026, 12, 3))
    services.draw_initial_color(t, arbiter, random.Random(0))
    corrections.correct_rating(t.players.get(tpn=2), arbiter, rating=1500, reason="typo")
    Tournament.objects.filter(pk=t.pk).update(initial_color_drawn_at=WINTER)
    AuditEntry.objects.filter(tournament=t).update(at=WINTER)
    return t


def test_every_time_is_local_to_the_tournament_and_named(client, arbiter, zurich):
    client.force_login(arbiter)
    dashboard = client.get(reverse("arbiter-tournament", args=[zurich.pk])).content.decode()
    assert "drawn 1 Dec 2026, 13:05 CET" in dashboard
    assert "1 Dec 2026 – 3 Dec 2026" in dashboard
    audit = client.get(reverse("arbiter-audit", args=[zurich.pk])).content.decode()
    assert "1 Dec 2026, 13:05 CET" in audit and "UTC" not in audit and "12:05" not in audit
    home = client.get(reverse("arbiter-home")).content.decode()
    assert "1 Dec 2026 – 3 Dec 2026" in home and "Dec. 1" not in home


def test_summer_time_is_followed(client, arbiter, zurich):
    AuditEntry.objects.filter(tournament=zurich).update(at=WINTER.replace(month=7))
    client.force_login(arbiter)
    audit = client.get(reverse("arbiter-audit", args=[zurich.pk])).content.decode()
    assert "1 Jul 2026, 14:05 CEST" in audit


def test_a_new_tournament_is_in_utc_and_says_so(client, arbiter):
    t = make_tournament(arbiter, players=2, rounds=1)
    services.draw_initial_color(t, arbiter, random.Random(0))
    Tournament.objects.filter(pk=t.pk).update(initial_color_drawn_at=WINTER)
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-tournament", args=[t.pk])).content.decode()
    assert "drawn 1 Dec 2026, 12:05 UTC" in page


def test_the_settings_choose_a_time_zone_and_refuse_an_unknown_one(client, arbiter, zurich):
    client.force_login(arbiter)
    url = reverse("arbiter-tournament-edit", args=[zurich.pk])
    data = form_data(client.get(url).content.decode())
    assert data["time_zone"] == "Europe/Zurich"
    client.post(url, {**data, "time_zone": "Asia/Kolkata"})
    zurich.refresh_from_db()
    assert zurich.time_zone == "Asia/Kolkata"
    refused = client.post(url, {**data, "time_zone": "Mars/Base"})
    assert refused.status_code == 200
    zurich.refresh_from_db()
    assert zurich.time_zone == "Asia/Kolkata"
