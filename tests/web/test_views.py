"""The arbiter dashboard through the Django test client."""

from __future__ import annotations

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, Player, Result, Round, Tournament

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(name, args=args)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_staff_creates_a_tournament_with_points_in_decimals(client, staff):
    client.force_login(staff)
    response = client.post(
        url("arbiter-tournament-create"),
        {
            "name": "Spring Open", "place": "Bern", "start_date": "2026-04-01",
            "end_date": "2026-04-05", "rounds": "7", "pairing_system": "2026",
            "points_win": "3", "points_draw": "1", "points_loss": "0", "points_forfeit_win": "3",
            "points_forfeit_loss": "0", "points_pairing_bye": "1.5", "points_half_bye": "1",
            "points_full_bye": "3", "points_zero_bye": "0", "tiebreaks": "",
        },
    )
    t = Tournament.objects.get(name="Spring Open")
    assert response.status_code == 302 and response["Location"] == url("arbiter-tournament", t.pk)
    assert (t.points_win, t.points_draw, t.points_pairing_bye) == (30, 10, 15)
    assert list(t.arbiters.all()) == [staff]


def test_end_before_start_is_refused(client, staff):
    client.force_login(staff)
    response = client.post(
        url("arbiter-tournament-create"),
        {"name": "X", "rounds": "5", "pairing_system": "2026", "start_date": "2026-04-05",
         "end_date": "2026-04-01", "points_win": "1", "points_draw": "0.5", "points_loss": "0",
         "points_forfeit_win": "1", "points_forfeit_loss": "0", "points_pairing_bye": "1",
         "points_half_bye": "0.5", "points_full_bye": "1", "points_zero_bye": "0"},
    )
    assert response.status_code == 200
    assert "cannot end before it starts" in response.content.decode()
    assert not Tournament.objects.exists()


def test_arbiter_adds_players_one_by_one_and_by_csv(client, arbiter):
    t = services.create_tournament(arbiter, name="Club", rounds=5)
    client.force_login(arbiter)
    client.post(url("arbiter-player-add", t.pk), {"name": "Solo, Han", "rating": "1800"})
    csv = 'name,rating,title,fed\n"Alpha, Ann",2100,fm,SUI\n"Beta, Bob",2200,,GER\n'

    response = client.post(
        url("arbiter-players-upload", t.pk),
        {"file": SimpleUploadedFile("players.csv", csv.encode())},
        follow=True,
    )
    assert "2 players added." in messages_of(response)
    assert list(t.players.order_by("tpn").values_list("tpn", "name", "title", "federation")) == [
        (1, "Beta, Bob", "", "GER"), (2, "Alpha, Ann", "FM", "SUI"), (3, "Solo, Han", "", ""),
    ]


def test_a_csv_row_with_too_many_fields_is_refused(client, arbiter):
    t = services.create_tournament(arbiter, name="Club", rounds=5)
    client.force_login(arbiter)
    csv = "name,rating\nAlpha, Ann,2100\n"
    response = client.post(
        url("arbiter-players-upload", t.pk),
        {"file": SimpleUploadedFile("players.csv", csv.encode())},
        follow=True,
    )
    assert "CSV file, line 2: more fields than columns (quote names with commas)." in messages_of(
        response
    )


def test_a_bad_csv_adds_nobody_and_says_which_line(client, arbiter):
    t = services.create_tournament(arbiter, name="Club", rounds=5)
    client.force_login(arbiter)
    csv = "name,rating\nAnn,2100\nBob,strong\n"
    response = client.post(
        url("arbiter-players-upload", t.pk),
        {"file": SimpleUploadedFile("players.csv", csv.encode())},
        follow=True,
    )
    assert "CSV file, line 3: rating 'strong' is not a number." in messages_of(response)
    assert not t.players.exists()


def test_players_upload_accepts_trf(client, arbiter):
    t = services.create_tournament(arbiter, name="Club", rounds=5)
    source = make_tournament(arbiter, players=4)
    text = services.export_trf(source)
    client.force_login(arbiter)
    client.post(
        url("arbiter-players-upload", t.pk), {"file": SimpleUploadedFile("list.trf", text.encode())}
    )
    assert t.players.count() == 4


def test_draw_colour_is_shown(client, arbiter, tournament):
    client.force_login(arbiter)
    response = client.post(url("arbiter-draw-colour", tournament.pk), follow=True)
    tournament.refresh_from_db()
    assert tournament.initial_color in ("w", "b")
    assert any(m.startswith("Drawn by lot") for m in messages_of(response))


def test_arbiter_runs_a_round_in_the_dashboard(client, arbiter, tournament):
    services.draw_initial_color(tournament, arbiter, rng=random.Random(7))
    client.force_login(arbiter)
    response = client.post(url("arbiter-pair", tournament.pk), follow=True)
    assert response.redirect_chain[-1][0] == url("arbiter-round", tournament.pk, 1)
    page = response.content.decode()
    assert "Publish" in page and "Unpair" in page
    rnd = Round.objects.get(tournament=tournament, number=1)
    client.post(url("arbiter-round-publish", tournament.pk, 1))
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PUBLISHED
    page = client.get(url("arbiter-round", tournament.pk, 1)).content.decode()
    games = list(rnd.games.order_by("board"))
    assert page.count("<select") == len(games) == 5
    assert 'autofocus' in page
    data = {f"g{g.pk}": Result.WHITE_WINS for g in games[:4]}
    response = client.post(
        url("arbiter-round", tournament.pk, 1), {**data, "finish": "1"}, follow=True
    )
    assert "4 results saved." in messages_of(response)
    assert "Round 1 has missing results (board 5)." in messages_of(response)
    data[f"g{games[4].pk}"] = Result.DRAW
    response = client.post(
        url("arbiter-round", tournament.pk, 1), {**data, "finish": "1"}, follow=True
    )
    assert "Round 1 finished." in messages_of(response)
    rnd.refresh_from_db()
    assert rnd.state == Round.State.FINISHED
    standings = client.get(url("arbiter-standings", tournament.pk)).content.decode()
    assert "<td>1</td>" in standings and "½" in standings
    assert AuditEntry.objects.filter(tournament=tournament, action="enter result").count() == 5


def test_unpair_from_the_dashboard(client, arbiter, tournament):
    services.draw_initial_color(tournament, arbiter, rng=random.Random(7))
    services.pair_next_round(tournament, arbiter)
    client.force_login(arbiter)
    client.post(url("arbiter-round-unpair", tournament.pk, 1))
    assert not Round.objects.filter(tournament=tournament).exists()


def test_withdraw_and_late_entry_forms(client, arbiter, tournament):
    client.force_login(arbiter)
    player = tournament.players.get(tpn=3)
    client.post(url("arbiter-player-withdraw", tournament.pk, player.pk), {"from_round": "2"})
    player.refresh_from_db()
    assert player.withdrawn_from_round == 2
    Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    response = client.post(
        url("arbiter-late-entry", tournament.pk),
        {"name": "Late, Lara", "rating": "2000", "arrival_round": "1"},
        follow=True,
    )
    assert "the player can arrive in round 2 at the earliest" in " ".join(messages_of(response))
    client.post(
        url("arbiter-late-entry", tournament.pk),
        {"name": "Late, Lara", "rating": "2000", "arrival_round": "2"},
    )
    assert Player.objects.get(name="Late, Lara").arrival_round == 2


def test_bye_request_form(client, arbiter, tournament):
    client.force_login(arbiter)
    player = tournament.players.get(tpn=2)
    client.post(
        url("arbiter-bye", tournament.pk), {"player": player.pk, "round_number": "2", "kind": "H"}
    )
    assert player.bye_requests.get().round_number == 2
    response = client.post(
        url("arbiter-bye", tournament.pk),
        {"player": player.pk, "round_number": "3", "kind": "F"},
        follow=True,
    )
    assert player.bye_requests.count() == 1
    assert any("Select a valid choice" in m for m in messages_of(response))
    page = client.get(url("arbiter-tournament", tournament.pk)).content.decode()
    assert "Half-point bye" in page


def test_export_trf_downloads_the_players(client, arbiter, tournament):
    client.force_login(arbiter)
    response = client.get(url("arbiter-export-trf", tournament.pk))
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "012 Test Open"
    assert sum(1 for line in lines if line.startswith("001")) == 10


def test_import_trf_creates_a_tournament(client, staff, arbiter):
    text = services.export_trf(make_tournament(arbiter, players=6))
    client.force_login(staff)
    response = client.post(
        url("arbiter-tournament-import"), {"file": SimpleUploadedFile("t.trf", text.encode())}
    )
    copy = Tournament.objects.exclude(arbiters=arbiter).get()
    assert response["Location"] == url("arbiter-tournament", copy.pk)
    assert copy.players.count() == 6


def test_import_of_a_broken_trf_names_the_line(client, staff):
    client.force_login(staff)
    response = client.post(
        url("arbiter-tournament-import"),
        {"file": SimpleUploadedFile("t.trf", b"012 X\n001    x m    Broken\n")},
        follow=True,
    )
    assert any(m.startswith("TRF file: line 2") for m in messages_of(response))


def test_a_message_is_shown_once(client, arbiter, tournament):
    client.force_login(arbiter)
    response = client.post(url("arbiter-renumber", tournament.pk), follow=True)
    assert "Pairing numbers reassigned by rating, title and name." in messages_of(response)
    again = client.get(url("arbiter-tournament", tournament.pk))
    assert messages_of(again) == []
