"""CSV player lists as spreadsheets write them (issue 20): semicolons or tabs, sex M/F, the
column aliases said on the page, and a message in good English for one player."""

from __future__ import annotations

import pytest

from tests.web.test_uploads import club, upload  # noqa: F401 (a fixture)
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("sep", [";", "\t", ","])
def test_semicolon_tab_and_comma_separated_files_are_read(client, club, sep):  # noqa: F811
    text = sep.join(["Name", "Elo", "Fed", "Sex", "Born"]) + "\n"
    text += sep.join(['"Muster, Anna"', "2101", "SUI", "F", "1990"]) + "\n"
    text += sep.join(["Beispiel Bruno", "1950", "GER", "M", ""]) + "\n"
    messages = upload(client, club, text)
    assert messages == ["2 players added."]
    anna, bruno = Player.objects.filter(tournament=club).order_by("tpn")
    assert (anna.name, anna.rating, anna.federation, anna.sex, anna.birth_year) == (
        "Muster, Anna", 2101, "SUI", "w", 1990,
    )
    assert (bruno.name, bruno.sex, bruno.birth_year) == ("Beispiel Bruno", "m", None)


def test_a_semicolon_file_with_a_decimal_comma_in_no_column_is_not_split_on_commas():
    rows = services.parse_players_csv("name;rating\nDoe, John;2000\n")
    assert rows == [{"name": "Doe, John", "rating": 2000, "title": "", "federation": ""}]


@pytest.mark.parametrize("value,stored", [("m", "m"), ("M", "m"), ("w", "w"), ("W", "w"),
                                          ("f", "w"), ("F", "w"), ("", "")])
def test_sex_is_read_as_m_or_w_and_f(value, stored):
    (row,) = services.parse_players_csv(f"name,sex\nDoe,{value}\n")
    assert row.get("sex", "") == stored


def test_an_unknown_sex_is_an_error_naming_line_and_column():
    with pytest.raises(services.ServiceError) as refused:
        services.parse_players_csv("name,sex\nDoe,x\n")
    assert any("line 2" in d and "sex" in d for d in refused.value.details)


def test_one_player_added_is_said_in_the_singular(client, club):  # noqa: F811
    assert upload(client, club, "name\nSolo Player\n") == ["1 player added."]


def test_the_upload_form_names_every_column_and_alias(client, club):  # noqa: F811
    from django.urls import reverse

    page = client.get(reverse("arbiter-tournament", args=[club.pk])).content.decode()
    for alias in sorted(services.CSV_COLUMNS):
        assert alias in page, alias
    assert "semicolon" in page and "M/F" in page
