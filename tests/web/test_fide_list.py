"""FIDE's rating list: reading its TXT and XML files (zipped or not), loading, searching,
registering players from it and refreshing their data before round 1 (issue 17)."""

from __future__ import annotations

import itertools
import random
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse

from tools.fide_bench import SINGLE_HEADER, single_line, txt_text, xml_text
from tournaments import fide_list, services
from tournaments.models import AuditEntry, FidePlayer

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

PLAYERS = [
    {"fide_id": 1503014, "name": "Carlsen, Magnus", "fed": "NOR", "sex": "M", "title": "GM",
     "std": 2823, "std_games": 0, "std_k": 10, "rapid": 2801, "rapid_games": 12, "rapid_k": 10,
     "blitz": 2860, "blitz_k": 10, "born": 1990},
    {"fide_id": 14109336, "name": "Lagno, Kateryna", "fed": "FID", "sex": "F", "title": "GM",
     "w_title": "WGM", "std": 2520, "std_k": 10, "rapid": 2460, "blitz": 2530, "born": 1989,
     "flag": "w"},
    {"fide_id": 4611234, "name": "Schmidt, Anna", "fed": "GER", "sex": "F", "o_title": "IA,FA",
     "std": 0, "born": 0, "flag": "wi"},
    {"fide_id": 2016192, "name": "Nakamura, Hikaru", "fed": "USA", "sex": "M", "title": "GM",
     "std": 2792, "rapid": 2738, "blitz": 2800, "born": 1987},
]


def rows_by_id(rows) -> dict[int, dict]:
    return {row[0]: dict(zip(fide_list.FIELDS, row)) for row in rows}


def test_the_combined_txt_list_is_read_by_its_header(tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(txt_text(PLAYERS).encode())
    assert all(len(line) == 162 for line in path.read_text().splitlines())
    rows = rows_by_id(fide_list.read_file(path))
    carlsen = rows[1503014]
    assert (carlsen["name"], carlsen["federation"], carlsen["sex"], carlsen["title"]) == (
        "Carlsen, Magnus", "NOR", "M", "GM"
    )
    assert (carlsen["standard_rating"], carlsen["rapid_rating"], carlsen["blitz_rating"]) == (
        2823, 2801, 2860
    )
    assert (carlsen["rapid_games"], carlsen["standard_k"], carlsen["birth_year"]) == (12, 10, 1990)
    assert rows[14109336]["w_title"] == "WGM" and rows[14109336]["flag"] == "w"
    assert rows[4611234]["o_title"] == "IA,FA" and rows[4611234]["birth_year"] is None


def test_a_single_kind_list_names_its_rating_column_by_the_month(tmp_path):
    path = tmp_path / "rapid_rating_list.txt"
    lines = [SINGLE_HEADER.format(month="OCT26")] + [single_line(p, p["rapid"]) for p in PLAYERS
                                                      if p.get("rapid")]
    path.write_text("\r\n".join(lines) + "\r\n")
    rows = rows_by_id(fide_list.read_file(path))
    assert rows[1503014]["rapid_rating"] == 2801
    assert rows[1503014]["standard_rating"] is None


def test_xml_zipped_or_not_reads_the_same(tmp_path):
    xml = tmp_path / "players_list_xml_foa.xml"
    xml.write_text(xml_text(PLAYERS))
    archive = tmp_path / "players_list_xml.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(xml, "players_list_xml_foa.xml")
    txt = tmp_path / "players_list_foa.txt"
    txt.write_bytes(txt_text(PLAYERS).encode())
    from_txt = rows_by_id(fide_list.read_file(txt))
    assert rows_by_id(fide_list.read_file(xml)) == from_txt
    assert rows_by_id(fide_list.read_file(archive)) == from_txt


def test_a_file_is_read_as_a_stream_not_whole():
    def lines():
        yield txt_text(PLAYERS[:1]).splitlines(keepends=True)[0]
        yield txt_text(PLAYERS[:1]).splitlines(keepends=True)[1]
        raise AssertionError("read past the first player")

    first = list(itertools.islice(fide_list.read_txt(enumerate(lines(), start=1)), 1))
    assert first[0] == (2, first[0][1]) and first[0][1][0] == 1503014


@pytest.mark.parametrize(
    "text, message",
    [
        ("Name Rating\r\nCarlsen 2830\r\n", "not a FIDE rating list"),
        ("<playerslist><player><name>x</name></player></playerslist>", "numeric <fideid>"),
        ("<playerslist><player>", "XML error: no element found"),
    ],
)
def test_other_files_are_refused(tmp_path, text, message):
    path = tmp_path / ("list.xml" if text.startswith("<") else "list.txt")
    path.write_text(text)
    with pytest.raises(fide_list.FideListError, match=message):
        list(fide_list.read_file(path))


def test_the_command_loads_and_replaces_the_list(tmp_path, capsys):
    path = tmp_path / "players_list.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("players_list_foa.txt", txt_text(PLAYERS))
    call_command("import_fide_list", str(path))
    assert "4 players loaded" in capsys.readouterr().out
    assert FidePlayer.objects.get(fide_id=1503014).standard_rating == 2823
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("players_list_foa.txt", txt_text(PLAYERS[:2]))
    call_command("import_fide_list", str(path))
    assert FidePlayer.objects.count() == 2


@pytest.fixture
def loaded(tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(txt_text(PLAYERS).encode())
    fide_list.import_list(path)


def names(found) -> list[str]:
    return [p.name for p in found]


def test_search_by_id_by_the_start_of_a_name_or_by_words(loaded):
    assert names(fide_list.search("14109336")) == ["Lagno, Kateryna"]
    assert names(fide_list.search("carlsen, m")) == ["Carlsen, Magnus"]
    assert names(fide_list.search("N")) == ["Nakamura, Hikaru"]
    assert names(fide_list.search("hikaru naka")) == ["Nakamura, Hikaru"]
    assert fide_list.search("") == [] and fide_list.search("Kasparov") == []


def test_arbiters_add_players_from_the_list(client, arbiter, loaded):
    t = services.create_tournament(arbiter, name="Rapid Open", rounds=5, rating_type="rapid")
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-fide-list", args=[t.pk]), {"q": "carlsen"}).content.decode()
    assert "Carlsen, Magnus" in page and 'value="1503014"' in page
    response = client.post(
        reverse("arbiter-fide-add", args=[t.pk]), {"fide_ids": ["1503014", "14109336"]},
        follow=True,
    )
    assert "2 players added from the FIDE list" in response.content.decode()
    carlsen = t.players.get(fide_id="1503014")
    assert (carlsen.rating, carlsen.title, carlsen.federation, carlsen.sex, carlsen.birth_year) == (
        2801, "GM", "NOR", "m", 1990
    )
    assert t.players.get(fide_id="14109336").sex == "w"
    response = client.post(
        reverse("arbiter-fide-add", args=[t.pk]), {"fide_ids": ["1503014"]}, follow=True
    )
    assert "Already registered: Carlsen, Magnus." in response.content.decode()
    assert t.players.count() == 2


def test_ratings_titles_and_federations_are_refreshed_before_round_1(client, arbiter, loaded):
    t = make_tournament(arbiter, players=3)
    magnus = t.players.get(tpn=3)
    services.update_player(magnus, arbiter, name="Carlsen, Magnus", fide_id="1503014",
                           rating=2700, federation="", title="")
    client.force_login(arbiter)
    response = client.post(reverse("arbiter-fide-refresh", args=[t.pk]), follow=True)
    assert "1 player refreshed" in response.content.decode()
    magnus.refresh_from_db()
    assert (magnus.rating, magnus.title, magnus.federation, magnus.tpn) == (2823, "GM", "NOR", 1)
    entry = AuditEntry.objects.get(action="refresh from FIDE list")
    assert entry.before["rating"] == 2700 and entry.after["rating"] == 2823
    services.draw_initial_color(t, arbiter, random.Random(1))
    services.pair_next_round(t, arbiter)
    with pytest.raises(services.ServiceError, match="Round 1 has been paired"):
        fide_list.refresh_players(t, arbiter)
