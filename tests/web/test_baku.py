"""Baku acceleration (C.04.7) in the web app: the setting, its refusals, TRF import and export."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def baku_tournament(arbiter, players: int = 16, rounds: int = 7, **fields) -> Tournament:
    """A tournament with strictly decreasing ratings, so TPN i is the i-th best player."""
    t = services.create_tournament(
        arbiter, name="Baku Open", rounds=rounds, baku_acceleration=True, **fields
    )
    for i in range(players):
        services.add_player(t, arbiter, name=f"Player {i + 1:02d}", rating=2500 - 20 * i)
    services.renumber_players(t, arbiter)
    return t


def test_the_setting_is_passed_to_the_engine(arbiter):
    t = baku_tournament(arbiter)
    assert services.engine_state(t).baku is True
    t.baku_acceleration = False
    t.save()
    assert services.engine_state(t).baku is False


def test_round_one_pairs_group_a_as_its_own_score_group(arbiter):
    # N = 16: GA = 2 * ceil(16/4) = 8 players; R = 7: A = 4 accelerated rounds, GA gets 1 virtual
    # point in rounds 1-2. So GA (TPN 1-8) is a score group of its own in round 1: its top half
    # meets its bottom half (1-5, 2-6, 3-7, 4-8), and GB (9-16) likewise (9-13 ... 12-16).
    t = baku_tournament(arbiter)
    assert [p.tpn for p in t.players.order_by("-rating")] == list(range(1, 17))
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    rnd = services.pair_next_round(t, arbiter)
    pairs = sorted(
        sorted((g.white.tpn, g.black.tpn)) for g in rnd.games.select_related("white", "black")
    )
    assert pairs == [[1, 5], [2, 6], [3, 7], [4, 8], [9, 13], [10, 14], [11, 15], [12, 16]]


def test_without_the_setting_round_one_is_not_accelerated(arbiter):
    t = baku_tournament(arbiter)
    services.update_tournament(t, arbiter, baku_acceleration=False)
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    rnd = services.pair_next_round(t, arbiter)
    pairs = sorted(
        sorted((g.white.tpn, g.black.tpn)) for g in rnd.games.select_related("white", "black")
    )
    assert pairs == [[i, i + 8] for i in range(1, 9)]


def test_refused_with_non_standard_scoring(arbiter):
    with pytest.raises(services.ServiceError, match=r"C\.04\.7"):
        services.create_tournament(
            arbiter, name="Football", rounds=7, baku_acceleration=True, points_win=30,
            points_draw=10,
        )
    t = services.create_tournament(
        arbiter, name="Football", rounds=7, points_win=30, points_draw=10
    )
    with pytest.raises(services.ServiceError, match=r"C\.04\.7"):
        services.update_tournament(t, arbiter, baku_acceleration=True)
    t.refresh_from_db()
    assert t.baku_acceleration is False


def test_form_refuses_non_standard_scoring(arbiter):
    data = {
        "name": "Football", "rounds": 7, "pairing_system": Tournament.PairingSystem.DUTCH_2026,
        "points_win": "3", "points_draw": "1", "points_loss": "0", "points_forfeit_win": "3",
        "points_forfeit_loss": "0", "points_pairing_bye": "3", "points_half_bye": "1",
        "points_full_bye": "3", "points_zero_bye": "0", "baku_acceleration": "on",
        "tiebreaks": "",
    }
    form = TournamentForm(data=data)
    assert not form.is_valid()
    assert "C.04.7" in " ".join(form.errors["baku_acceleration"])
    form = TournamentForm(data={**data, "points_win": "1", "points_draw": "0.5",
                                "points_forfeit_win": "1", "points_pairing_bye": "1",
                                "points_half_bye": "0.5", "points_full_bye": "1"})
    assert form.is_valid(), form.errors
    assert form.fields_for_service()["baku_acceleration"] is True


def test_change_is_recorded_in_the_audit_trail(arbiter):
    t = baku_tournament(arbiter, players=4)
    services.update_tournament(t, arbiter, baku_acceleration=False)
    entry = AuditEntry.objects.filter(tournament=t, action="update tournament").latest("pk")
    assert entry.article == "C.04.7"
    assert entry.before == {"baku_acceleration": "True"}
    assert entry.after == {"baku_acceleration": "False"}


def test_refused_once_round_one_is_paired(arbiter):
    t = baku_tournament(arbiter)
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    services.pair_next_round(t, arbiter)
    with pytest.raises(services.ServiceError, match="Round 1 has been paired"):
        services.update_tournament(t, arbiter, baku_acceleration=False)
    t.refresh_from_db()
    assert t.baku_acceleration is True
    # Other settings may still change, the unchanged setting passes.
    services.update_tournament(t, arbiter, baku_acceleration=True, place="Baku")


def test_export_writes_baku(arbiter):
    t = baku_tournament(arbiter, players=6)
    lines = services.export_trf(t).splitlines()
    type_lines = [line for line in lines if line.startswith("192 ")]
    assert len(type_lines) == 1 and type_lines[0].startswith("192 FIDE_DUTCH_")
    assert type_lines[0].endswith("_BAKU")
    assert not any(line.startswith(("250", "XXA")) for line in lines)


def test_import_of_a_baku_file_sets_the_setting(arbiter):
    text = services.export_trf(baku_tournament(arbiter, players=6))
    copy = services.import_trf(text, arbiter)
    assert copy.baku_acceleration is True
    assert services.engine_state(copy).baku is True
    plain = services.import_trf(text.replace("_BAKU", ""), arbiter)
    assert plain.baku_acceleration is False


def test_import_of_a_baku_file_with_other_scoring_is_refused(arbiter):
    text = services.export_trf(baku_tournament(arbiter, players=6))
    text = text.replace("142 7\n", "142 7\n162 W 3.0 D 1.0 L 0.0\n")
    with pytest.raises(services.ServiceError, match=r"C\.04\.7"):
        services.import_trf(text, arbiter)


def test_import_still_refuses_explicit_acceleration_lines(arbiter):
    text = services.export_trf(baku_tournament(arbiter, players=6))
    text = text.replace("142 7\n", "142 7\n250 00.0 01.0 001 004 0001 0004\n")
    assert "250 " in text
    with pytest.raises(services.ServiceError, match="accelerated pairings are not supported"):
        services.import_trf(text, arbiter)


# Through the arbiter dashboard.

FORM = {
    "name": "Baku Open", "rounds": "7", "pairing_system": "2026", "points_win": "1",
    "points_draw": "0.5", "points_loss": "0", "points_forfeit_win": "1", "points_forfeit_loss": "0",
    "points_pairing_bye": "1", "points_half_bye": "0.5", "points_full_bye": "1",
    "points_zero_bye": "0", "tiebreaks": "",
}


def test_staff_creates_a_baku_tournament_in_the_form(client, staff):
    client.force_login(staff)
    page = client.get(reverse("arbiter-tournament-create"))
    assert b'name="baku_acceleration"' in page.content
    response = client.post(
        reverse("arbiter-tournament-create"), {**FORM, "baku_acceleration": "on"}
    )
    assert response.status_code == 302
    assert Tournament.objects.get(name="Baku Open").baku_acceleration is True
    refused = client.post(
        reverse("arbiter-tournament-create"),
        {**FORM, "name": "Football", "points_win": "3", "points_draw": "1",
         "baku_acceleration": "on"},
    )
    assert refused.status_code == 200 and b"C.04.7" in refused.content
    assert not Tournament.objects.filter(name="Football").exists()


def test_settings_form_keeps_the_setting_once_round_one_is_paired(client, arbiter):
    t = baku_tournament(arbiter)
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    services.pair_next_round(t, arbiter)
    client.force_login(arbiter)
    edit = reverse("arbiter-tournament-edit", args=[t.pk])
    page = client.get(edit)
    assert b"can no longer be changed" in page.content
    # A posted change of the disabled field is ignored; the other settings are saved.
    response = client.post(edit, {**FORM, "place": "Baku"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.baku_acceleration is True and t.place == "Baku"


def test_dashboard_and_public_page_say_the_pairings_are_accelerated(client, arbiter):
    t = baku_tournament(arbiter)
    plain = services.create_tournament(arbiter, name="Plain Open", rounds=7)
    client.force_login(arbiter)
    assert b"Baku acceleration (C.04.7)" in client.get(
        reverse("arbiter-tournament", args=[t.pk])
    ).content
    assert b"Baku acceleration" not in client.get(
        reverse("arbiter-tournament", args=[plain.pk])
    ).content
    client.logout()
    public = client.get(reverse("public-tournament", args=[t.pk]))
    assert b"Baku acceleration (FIDE C.04.7)" in public.content
    assert b"the standings do not" in public.content
    assert b"Baku acceleration" not in client.get(
        reverse("public-tournament", args=[plain.pk])
    ).content
