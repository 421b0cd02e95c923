"""Registration at the pace of a queue at the desk (issue 27, section 3): many players of the
FIDE list in one step, late entries from it, CSV headers in French, the file's encoding
detected, the initial colour drawn by lot when round 1 is paired, the site's time zone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.web.test_uploads import club, upload  # noqa: F401 (a fixture)
from tools.fide_bench import txt_text
from tournaments import fide_list, services
from tournaments.forms import TournamentForm
from tournaments.models import AuditEntry, Player

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

QUEUE = [
    {"fide_id": 30000000 + i, "name": f"Desk{chr(65 + i)}, Player", "fed": "FRA",
     "sex": "M" if i % 2 else "F", "std": 1500 + 17 * i, "born": 1980 + i}
    for i in range(24)
]


@pytest.fixture
def queue_list(tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(txt_text(QUEUE).encode())
    fide_list.import_list(path)


def ticked(page: str) -> list[str]:
    return re.findall(r'name="fide_ids" value="(\d+)"[^>]*\bchecked\b', page)


def test_it_adds_20_players_of_the_fide_list_in_one_step(client, arbiter, queue_list):
    t = services.create_tournament(arbiter, name="Desk Open", rounds=7)
    client.force_login(arbiter)
    ids = [str(p["fide_id"]) for p in QUEUE[:20]]
    # The queue's FIDE IDs typed or pasted, several on a line: every one found comes ticked.
    lines = " ".join(ids[:10]) + "\n" + "\n".join(ids[10:])
    page = client.get(reverse("arbiter-fide-list", args=[t.pk]), {"lines": lines})
    assert sorted(ticked(page.content.decode())) == sorted(ids)
    response = client.post(reverse("arbiter-fide-add", args=[t.pk]), {"fide_ids": ids},
                           follow=True)
    assert "20 players added from the FIDE list." in response.content.decode()
    assert t.players.count() == 20
    assert sorted(t.players.values_list("tpn", flat=True)) == list(range(1, 21))
    top = t.players.get(tpn=1)
    assert (top.fide_id, top.rating) == (str(QUEUE[19]["fide_id"]), QUEUE[19]["std"])
    assert AuditEntry.objects.filter(tournament=t, action="add player").count() == 20


def test_a_line_that_finds_several_players_is_not_ticked(client, arbiter, queue_list):
    t = services.create_tournament(arbiter, name="Desk Open", rounds=7)
    client.force_login(arbiter)
    page = client.get(
        reverse("arbiter-fide-list", args=[t.pk]), {"lines": "deska\ndesk\nNobody, Here"}
    ).content.decode()
    assert ticked(page) == [str(QUEUE[0]["fide_id"])]
    assert "DeskB, Player" in page and "no player of the list" in page


def test_late_entries_come_from_the_fide_list_too(client, arbiter, queue_list):
    t = make_tournament(arbiter, players=6, rounds=5)
    services.draw_initial_color(t, arbiter)
    services.pair_next_round(t, arbiter)
    client.force_login(arbiter)
    page = client.get(
        reverse("arbiter-fide-list", args=[t.pk]), {"lines": "30000001 30000002"}
    ).content.decode()
    assert 'name="arrival_round"' in page and "late entries" in page
    response = client.post(
        reverse("arbiter-fide-add", args=[t.pk]),
        {"fide_ids": ["30000001", "30000002"], "arrival_round": "2"}, follow=True,
    )
    assert "2 players added from the FIDE list." in response.content.decode()
    late = t.players.filter(fide_id__in=["30000001", "30000002"])
    assert [p.arrival_round for p in late] == [2, 2]
    assert AuditEntry.objects.filter(tournament=t, action="admit late entry").count() == 2
    # The late-entry rules hold as for one player: round 1 is paired, so not from round 1.
    response = client.post(
        reverse("arbiter-fide-add", args=[t.pk]),
        {"fide_ids": ["30000003"], "arrival_round": "1"}, follow=True,
    )
    assert "can arrive in round 2 at the earliest" in response.content.decode()
    assert not t.players.filter(fide_id="30000003").exists()


def test_french_csv_headers_are_read(client, club):  # noqa: F811
    text = (
        "Nom;Prénom;Elo;Titre;Fédération;Né;Club;Sexe;ID FIDE\n"
        "Dupont;Marie;2105;WFM;FRA;1994;Échiquier Lyonnais;F;20612345\n"
        "Martin;Paul;1890;;BEL;2001;;M;\n"
    )
    assert upload(client, club, text) == ["2 players added."]
    marie, paul = Player.objects.filter(tournament=club).order_by("tpn")
    assert (marie.name, marie.rating, marie.title, marie.federation, marie.birth_year,
            marie.club, marie.sex, marie.fide_id) == (
        "Dupont, Marie", 2105, "WFM", "FRA", 1994, "Échiquier Lyonnais", "w", "20612345"
    )
    assert (paul.name, paul.federation, paul.sex, paul.birth_year) == (
        "Martin, Paul", "BEL", "m", 2001
    )


@pytest.mark.parametrize("header,field", [
    ("FEDERATION", "federation"), ("naissance", "birth_year"), ("Année de naissance",
    "birth_year"), ("fide-id", "fide_id"), ("Nee", "birth_year"), ("SEXE", "sex"),
])
def test_a_header_is_matched_without_case_or_accents(header, field):
    value = {"federation": "FRA", "birth_year": "1990", "fide_id": "123", "sex": "M"}[field]
    (row,) = services.parse_players_csv(f"nom,{header}\nDoe,{value}\n")
    assert str(row[field]).lower() == value.lower()


def test_the_upload_form_names_the_french_headers(client, club):  # noqa: F811
    page = client.get(reverse("arbiter-tournament", args=[club.pk])).content.decode()
    for alias in ("Nom", "Prénom", "Fédération", "Né", "Naissance", "ID FIDE", "Sexe"):
        assert f'<code lang="fr">{alias}</code>' in page, alias


def test_the_encoding_is_detected_unless_the_arbiter_chooses_it(client, club):  # noqa: F811
    text = "Nom;Elo\nMüller, Jörg;2100\nŒuvrard, Zoé;1900\n"
    assert upload(client, club, text.encode("cp1252")) == ["2 players added."]
    assert set(club.players.values_list("name", flat=True)) == {"Müller, Jörg", "Œuvrard, Zoé"}
    # The arbiter's choice overrides the detection.
    messages = upload(client, club, "Nom\nGroß, Jürgen\n".encode("cp1252"), encoding="utf-8")
    assert messages[0].startswith("The file is not valid UTF-8 (line 2")
    assert not club.players.filter(name__startswith="Groß").exists()
    page = client.get(reverse("arbiter-tournament", args=[club.pk])).content.decode()
    assert '<option value="" selected>Detect</option>' in page


def test_a_damaged_utf8_file_is_refused_not_misread_as_latin1(client, club):  # noqa: F811
    damaged = "Nom\nMüller, Jörg\nGroß, Jürgen\n".encode() + b"Caf\xe9, Ana\n"
    messages = upload(client, club, damaged)
    assert messages[0].startswith("The file is not valid UTF-8 (line 4")
    assert not club.players.exists()


def test_round_1_draws_the_initial_colour_by_lot_when_the_arbiter_has_not(arbiter):
    t = make_tournament(arbiter, players=6)
    assert not t.initial_color
    services.pair_next_round(t, arbiter)
    t.refresh_from_db()
    assert t.initial_color in ("w", "b") and t.initial_color_drawn_at is not None
    entry = AuditEntry.objects.get(tournament=t, action="draw initial colour")
    assert (entry.after, entry.article, entry.actor) == (t.initial_color, "C.04.3 5.1", arbiter)


def test_a_pairing_job_for_round_1_draws_the_initial_colour_too(arbiter):
    from tournaments.services import pairing_jobs

    t = make_tournament(arbiter, players=6)
    job = pairing_jobs.request_pairing(t, arbiter)
    t.refresh_from_db()
    assert job.round_number == 1 and t.initial_color in ("w", "b")
    assert AuditEntry.objects.filter(tournament=t, action="draw initial colour").count() == 1


def test_the_time_zone_defaults_to_the_sites(settings):
    settings.TIME_ZONE = "Europe/Paris"
    assert TournamentForm()["time_zone"].value() == "Europe/Paris"
