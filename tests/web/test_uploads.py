"""Issue 13, findings 2 and 3: player uploads in one pass, every error a message (line and
column), never a 500, nothing saved on refusal; model-level validation of what reaches a file."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, Player, Tournament

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def upload(client, t, content: bytes | str, name="players.csv", encoding=None):
    data = content.encode() if isinstance(content, str) else content
    fields = {"file": SimpleUploadedFile(name, data)}
    if encoding:
        fields["encoding"] = encoding
    response = client.post(reverse("arbiter-players-upload", args=[t.pk]), fields, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[0][1] == 302
    return messages_of(response)


@pytest.fixture
def club(client, arbiter):
    client.force_login(arbiter)
    return services.create_tournament(arbiter, name="Club", rounds=5)


def trf_player(tpn: int, name: str, rating: int = 2000, birth: str = "1990/01/01") -> str:
    """A TRF-16 player line (001) in its fixed columns."""
    return (
        f"001 {tpn:4d} m    {name:<33} {rating:4d} SUI {1000000 + tpn:>11} {birth:<10}  0.0 "
        f"{tpn:4d}"
    )


def test_a_thousand_players_are_numbered_once_in_the_initial_order(client, club):
    rows = ["name,rating,title"]
    for i in range(1000):
        rows.append(f'"P{i:04d}, X",{1500 + (i * 7919) % 1000},{"GM" if i % 97 == 0 else ""}')
    messages = upload(client, club, "\n".join(rows) + "\n")
    assert "1000 players added." in messages
    players = list(club.players.order_by("tpn"))
    assert [p.tpn for p in players] == list(range(1, 1001))
    assert [p.initial_order_key()[:3] for p in players] == sorted(
        p.initial_order_key()[:3] for p in players
    )
    assert AuditEntry.objects.filter(tournament=club, action="add player").count() == 1000


def test_uploaded_players_join_those_already_registered(client, arbiter, club):
    services.add_player(club, arbiter, name="Strong, Sam", rating=2600)
    services.add_player(club, arbiter, name="Weak, Wim", rating=1000)
    upload(client, club, "name,rating\nMiddle, Max,1800\nTop, Tina,2700\n".replace(
        "Middle, Max", '"Middle, Max"').replace("Top, Tina", '"Top, Tina"'))
    assert list(club.players.order_by("tpn").values_list("name", flat=True)) == [
        "Top, Tina", "Strong, Sam", "Middle, Max", "Weak, Wim",
    ]


def test_every_error_is_listed_with_line_and_column_and_nothing_is_saved(client, club):
    text = (
        "name,rating,title,federation,fide_id,birth_year\n"
        f"{'N' * 101},2000,,,,\n"  # line 2: name too long
        "Ann,2000,GMXX,,,\n"  # line 3: title over 3
        "Bob,2000,,GERM,,\n"  # line 4: federation over 3
        "Cid,2000,,,123456789012,\n"  # line 5: FIDE id over 11
        "Dan,2000,,,,99999\n"  # line 6: birth year out of range
        "Eve,²³,,,,\n"  # line 7: superscript digits pass isdigit() but are no rating
        "Fay,2000,,,12³4,\n"  # line 8: FIDE id, ASCII digits only
        "Gus,2000,,S1I,,\n"  # line 9: federation letters only
        "Hal,2000,,,,\n"  # fine
    )
    messages = upload(client, club, text)
    assert messages[0] == (
        "CSV file: 8 error(s), nothing was saved. Correct the file and upload it again."
    )
    listed = messages[1:]
    assert [m.split(":")[0] for m in listed] == [f"CSV file, line {n}" for n in range(2, 10)]
    assert "line 2: name: Ensure this value has at most 100 characters" in listed[0]
    assert "line 3: title:" in listed[1] and "line 4: federation:" in listed[2]
    assert "line 5: fide_id: Ensure this value has at most 11 characters" in listed[3]
    assert "line 6: birth_year: Ensure this value is less than or equal to 2100." in listed[4]
    assert listed[5] == "CSV file, line 7: rating '²³' is not a number."
    assert listed[6] == "CSV file, line 8: fide_id: Digits 0-9 only."
    assert listed[7] == "CSV file, line 9: federation: Letters A-Z only."
    assert not club.players.exists()


def test_a_long_list_of_errors_is_cut_and_counted(client, club):
    text = "name,rating\n" + "".join(f"P{i},x{i}\n" for i in range(80))
    messages = upload(client, club, text)
    assert messages[0].startswith("CSV file: 80 error(s)")
    assert len(messages) == 1 + 50 + 1 and messages[-1] == "... and 30 more."


def test_control_characters_in_a_name_are_refused(client, club):
    messages = upload(client, club, 'name\n"Tab\tName"\n')
    assert any(
        m.startswith("CSV file, line 2: name: Must not contain control characters")
        and "U+0009" in m
        for m in messages
    )
    assert not club.players.exists()


def test_a_nul_byte_or_a_binary_file_is_refused_as_not_text(client, club):
    messages = upload(client, club, b"name\nAnn\x00ie\n")
    assert messages == [
        "This is not a text file (a NUL byte on line 2): upload the CSV or TRF file itself."
    ]
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"
    messages = upload(client, club, png, name="photo.csv")
    assert messages and messages[0].startswith("This is not a text file")
    messages = upload(client, club, b"name\nAnn\x1b[31m\n")
    assert messages == ["This is not a text file: control character U+001B on line 2."]
    assert not club.players.exists()


def test_cr_only_line_ends_are_read_as_lines(client, club):
    messages = upload(client, club, 'name,rating\r"Alpha, Ann",2100\rBob,1900\r')
    assert "2 players added." in messages
    assert sorted(club.players.values_list("name", flat=True)) == ["Alpha, Ann", "Bob"]


def test_an_unbalanced_quote_is_refused_not_read_as_one_player(client, club):
    messages = upload(client, club, 'name,rating\n"Alpha, Ann,2100\nBob,1900\nCid,1800\n')
    assert messages[0].startswith("CSV file: 1 error(s)")
    assert messages[1].startswith("CSV file, line 2:") and "quote left open" in messages[1]
    assert not club.players.exists()


def test_a_file_that_is_not_utf8_is_refused_when_declared_utf8(client, club):
    latin1 = "name,rating\nMüller, Jörg,2100\n".replace("Müller, Jörg", '"Müller, Jörg"')
    messages = upload(client, club, latin1.encode("cp1252"), encoding="utf-8")
    assert messages == [
        "The file is not valid UTF-8 (line 2, byte 15). Save it as UTF-8, or choose "
        "Latin-1 if it was written that way."
    ]
    assert not club.players.exists()
    messages = upload(client, club, latin1.encode("cp1252"), encoding="latin-1")
    assert "1 player added." in messages
    assert club.players.get().name == "Müller, Jörg"


def test_utf8_with_trailing_garbage_is_refused_not_decoded_as_latin1(client, staff, arbiter):
    from tests.web.conftest import make_tournament

    text = services.export_trf(make_tournament(arbiter, players=4))
    client.force_login(staff)
    before = Tournament.objects.count()
    response = client.post(
        reverse("arbiter-tournament-import"),
        {"file": SimpleUploadedFile("t.trf", text.encode() + b"\xff\xfe\xfa garbage"),
         "encoding": "utf-8"},
        follow=True,
    )
    assert any(m.startswith("The file is not valid UTF-8") for m in messages_of(response))
    assert Tournament.objects.count() == before


def test_trf_import_refuses_bad_player_data_with_a_message(client, staff):
    client.force_login(staff)
    text = "\n".join(
        ["012 Fuzz Open", trf_player(1, "Alpha, Ann"),
         trf_player(2, "Bravo, Bob", birth="¹⁹⁹⁰/01/01"), trf_player(3, "Nul\x0bChar")]
    ) + "\n"
    response = client.post(
        reverse("arbiter-tournament-import"),
        {"file": SimpleUploadedFile("t.trf", text.encode())},
        follow=True,
    )
    assert response.status_code == 200
    shown = messages_of(response)
    assert not Tournament.objects.exists()
    assert shown == ["This is not a text file: control character U+000B on line 4."]


def test_trf_import_with_superscript_birth_digits_gives_no_birth_year(client, staff):
    client.force_login(staff)
    text = "\n".join(
        ["012 Digits Open", trf_player(1, "Alpha, Ann"),
         trf_player(2, "Bravo, Bob", birth="¹⁹⁹⁰/01/01")]
    ) + "\n"
    response = client.post(
        reverse("arbiter-tournament-import"), {"file": SimpleUploadedFile("t.trf", text.encode())}
    )
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert list(t.players.order_by("tpn").values_list("birth_year", flat=True)) == [1990, None]


def test_a_tournament_name_with_a_line_break_is_refused(arbiter):
    with pytest.raises(services.ServiceError, match="Name: Must not contain control characters"):
        services.create_tournament(arbiter, name="Open\r\nXXC black1", rounds=5)
    assert not Tournament.objects.exists()


def test_the_model_refuses_what_would_break_a_file(tournament):
    player = Player(tournament=tournament, tpn=99, name="Line\nbreak", fide_id="１２３")
    with pytest.raises(ValidationError) as refused:
        player.full_clean()
    assert set(refused.value.message_dict) == {"name", "fide_id"}
    for bad in ("Nul\x00", "Para\u2029graph", "Del\x7f"):
        with pytest.raises(ValidationError):
            Player(tournament=tournament, tpn=98, name=bad).full_clean()
    Player(tournament=tournament, tpn=97, name="Nguyễn, Thị Ánh", federation="VIE").full_clean()


def test_the_player_form_refuses_a_long_title_instead_of_failing(client, arbiter, tournament):
    client.force_login(arbiter)
    response = client.post(
        reverse("arbiter-player-add", args=[tournament.pk]),
        {"name": "New, Ned", "title": "ABCD", "birth_year": "99999"},
        follow=True,
    )
    assert response.status_code == 200
    assert not tournament.players.filter(name="New, Ned").exists()
    assert any(m.startswith("Title:") for m in messages_of(response))


def test_trf_import_checks_the_players_like_the_forms(client, staff):
    client.force_login(staff)
    text = "\n".join(
        ["012 Checked Open", trf_player(1, "Alpha, Ann"), trf_player(2, "Zero\u200b\u2028Width")]
    ) + "\n"
    response = client.post(
        reverse("arbiter-tournament-import"),
        {"file": SimpleUploadedFile("t.trf", text.encode())},
        follow=True,
    )
    shown = messages_of(response)
    assert not Tournament.objects.exists()
    assert shown[0].startswith("TRF file: 1 error(s), nothing was saved.")
    assert shown[1].startswith("Player 2 (Zero\\u200b\\u2028Width), name: Must not contain")
