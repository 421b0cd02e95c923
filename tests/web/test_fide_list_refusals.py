"""FIDE's rating list refuses bad input cleanly and never wipes the list loaded (issue 28 item
3): each refusal is one FideListError naming the line (a CommandError from the command), the
list loaded stays, and the bounds on size, line and text (``Limits``, small here) hold."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import CommandError, call_command

from tools.fide_bench import HEADER, random_players, txt_line, txt_text, xml_text
from tournaments import fide_list
from tournaments.models import FidePlayer

pytestmark = pytest.mark.django_db

OLD = list(random_players(2000, seed=1))
NEW = list(random_players(2100, seed=2))


@pytest.fixture
def old_list(tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_text(txt_text(OLD))
    fide_list.import_list(path)
    assert FidePlayer.objects.count() == 2000


def names_kept():
    assert FidePlayer.objects.count() == 2000
    assert FidePlayer.objects.filter(fide_id=OLD[0]["fide_id"], name=OLD[0]["name"]).exists()
    return True


def refused(data: bytes, filename: str, tmp_path, **options) -> str:
    """The one-line message of the command's refusal of a file holding ``data``."""
    path = tmp_path / filename
    path.write_bytes(data)
    with pytest.raises(CommandError) as refusal:
        call_command("import_fide_list", str(path), **options)
    message = str(refusal.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message.removeprefix(f"{path}: ")


def zipped(name: str, data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return out.getvalue()


def lines(*players) -> bytes:
    return txt_text(players).encode()


# ---------------------------------------------------------------------------------------------
# Never wiped


def test_a_header_alone_does_not_wipe_the_list(old_list, tmp_path):
    message = refused(f"{HEADER}\r\n".encode(), "players_list_foa.txt", tmp_path)
    assert message == "no player in the file: the list loaded is kept (unless forced to empty it)."
    assert names_kept()


def test_a_list_under_half_the_size_is_refused_unless_forced(old_list, tmp_path, capsys):
    data = txt_text(NEW[:999]).encode()
    message = refused(data, "players_list_foa.txt", tmp_path)
    assert message == (
        "999 players in the file, fewer than half the 2000 of the list loaded: it is kept "
        "(unless forced to replace it)."
    )
    assert names_kept()
    call_command("import_fide_list", str(tmp_path / "players_list_foa.txt"), force=True)
    assert "999 players loaded" in capsys.readouterr().out
    assert FidePlayer.objects.count() == 999


def test_a_forced_header_alone_empties_the_list(old_list, tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_text(f"{HEADER}\r\n")
    call_command("import_fide_list", str(path), force=True)
    assert FidePlayer.objects.count() == 0


def test_the_new_list_replaces_the_old_whole(old_list, tmp_path):
    path = tmp_path / "players_list.zip"
    path.write_bytes(zipped("players_list_foa.txt", txt_text(NEW).encode()))
    loaded = fide_list.import_list(path)
    assert (loaded.players, loaded.replaced, loaded.encoding) == (2100, 2000, "ascii")
    assert FidePlayer.objects.count() == 2100
    assert FidePlayer.objects.get(fide_id=NEW[-1]["fide_id"]).name == NEW[-1]["name"]


def test_progress_is_reported_chunk_by_chunk(tmp_path, monkeypatch):
    monkeypatch.setattr(fide_list.loading, "CHUNK", 1000)
    path = tmp_path / "players_list_foa.txt"
    path.write_text(txt_text(NEW))
    calls = []
    fide_list.import_list(path, progress=lambda *args: calls.append(args))
    size = path.stat().st_size
    assert [players for players, _, _ in calls] == [1000, 2000, 2100]
    assert all(total == size for _, _, total in calls) and calls[-1][1] == size
    assert 0 < calls[0][1] < calls[-1][1]


def test_an_exception_from_progress_stops_the_import_and_keeps_the_list(old_list, tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_text(txt_text(NEW))

    def cancel(players, read, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fide_list.import_list(path, progress=cancel)
    assert names_kept()


def test_an_upload_is_read_like_a_file(tmp_path):
    upload = io.BytesIO(zipped("players_list_foa.txt", txt_text(NEW[:3]).encode()))
    loaded = fide_list.import_list(upload, name="players_list.zip")
    assert loaded.players == 3 and FidePlayer.objects.count() == 3


# ---------------------------------------------------------------------------------------------
# Bad players


def test_a_fide_id_twice_is_refused_with_both_lines(old_list, tmp_path):
    data = lines(NEW[0], NEW[1], NEW[2], {**NEW[3], "fide_id": NEW[1]["fide_id"]}, *NEW[4:])
    message = refused(data, "players_list_foa.txt", tmp_path)
    assert message == f"line 5: FIDE ID {NEW[1]['fide_id']} already on line 3."
    assert names_kept()


def test_a_fide_id_twice_far_apart_is_refused_too(old_list, tmp_path, monkeypatch):
    monkeypatch.setattr(fide_list.loading, "CHUNK", 100)  # the first one written chunks before
    data = lines(*NEW[:2000], {**NEW[2000], "fide_id": NEW[7]["fide_id"]}, *NEW[2001:])
    message = refused(data, "players_list_foa.txt", tmp_path)
    assert message == f"line 2002: FIDE ID {NEW[7]['fide_id']} already on line 9."
    assert names_kept()


def test_a_file_of_one_line_repeated_is_refused_at_its_second(old_list, tmp_path):
    line = txt_line(NEW[0]).encode() + b"\r\n"
    data = zipped("players_list_foa.txt", f"{HEADER}\r\n".encode() + line * 50_000)
    message = refused(data, "players_list.zip", tmp_path)
    assert message == f"line 3: FIDE ID {NEW[0]['fide_id']} already on line 2."
    assert names_kept()


def test_a_nul_byte_is_refused_with_its_line_and_column(old_list, tmp_path):
    data = lines(*NEW[:5], {**NEW[5], "name": "Smith,\x00John"}, *NEW[6:])
    message = refused(data, "players_list_foa.txt", tmp_path)
    assert message == "line 7, column 22: control character U+0000: not a FIDE list."
    assert names_kept()


@pytest.mark.parametrize("fide_id", ["12345678901", "²³", "٣٤٥"])
def test_a_fide_id_of_other_digits_or_too_long_is_refused(tmp_path, fide_id):
    data = lines(NEW[0], {**NEW[1], "fide_id": fide_id})
    message = refused(data, "players_list_foa.txt", tmp_path)
    assert message == "line 3: no FIDE ID (1 to 10 digits) in columns 1-15."


# ---------------------------------------------------------------------------------------------
# Encodings


def latin1_players():
    players = [dict(p) for p in NEW]
    players[150]["name"] = "Müller, Jürgen"
    players[151]["name"] = "Sánchez, José"
    players[152]["name"] = "Øster, Åse"
    return players


def test_a_latin1_list_is_read_in_the_encoding_detected(old_list, tmp_path, capsys):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(txt_text(latin1_players()).encode("latin-1"))
    call_command("import_fide_list", str(path))
    out = capsys.readouterr().out
    assert "The file is not UTF-8: its text was read as cp1252 (detected)" in out
    accented = ["Müller, Jürgen", "Sánchez, José", "Øster, Åse"]
    assert FidePlayer.objects.filter(name__in=accented).count() == 3
    assert not FidePlayer.objects.filter(name__contains="\ufffd").exists()


def test_a_utf8_list_with_a_bom_is_utf8(tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(b"\xef\xbb\xbf" + txt_text(latin1_players()).encode())
    assert fide_list.import_list(path).encoding == "utf-8"
    assert FidePlayer.objects.filter(name="Øster, Åse").exists()


def test_a_byte_not_of_the_encoding_found_is_refused_with_line_and_column(
    old_list, tmp_path, settings
):
    settings.FIDE_LIST_ENCODING_SAMPLE = 1000  # lines 152-158: UTF-8
    players = latin1_players()
    players[300]["name"] = "Weiss, Bjørn"
    text = txt_text(players).split("\r\n")
    data = b"\r\n".join(
        line.encode("latin-1" if number == 302 else "utf-8")
        for number, line in enumerate(text, start=1)
    )
    message = refused(data, "players_list_foa.txt", tmp_path)
    assert message == (
        "line 302, column 25: byte 0xF8 is not utf-8 (the encoding found in the lines before); "
        "name the file's encoding."
    )
    assert names_kept()


def test_the_encoding_can_be_named(tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(txt_text(latin1_players()).encode("latin-1"))
    assert fide_list.import_list(path, encoding="latin-1").encoding == "iso8859-1"
    assert FidePlayer.objects.filter(name="Øster, Åse").exists()
    with pytest.raises(fide_list.FideListError, match="unknown encoding 'klingon'"):
        fide_list.import_list(path, encoding="klingon")
    with pytest.raises(fide_list.FideListError, match="utf-16.* does not write .* ASCII"):
        fide_list.import_list(path, encoding="utf-16")


def test_a_utf16_list_is_refused(tmp_path):
    message = refused(txt_text(NEW[:5]).encode("utf-16"), "players_list_foa.txt", tmp_path)
    assert message == "line 1: the text is in utf_16; save it as UTF-8."


# ---------------------------------------------------------------------------------------------
# XML


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<playerslist><player><fideid>1</fideid><name>&lol3;</name></player></playerslist>
"""
XXE = b"""<?xml version="1.0"?>
<!DOCTYPE playerslist [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<playerslist><player><fideid>1</fideid><name>&secret;</name></player></playerslist>
"""
ENTITY_WITHOUT_DTD = b"<playerslist><player><fideid>1</fideid><name>&x;</name></player>"


@pytest.mark.parametrize("data", [BILLION_LAUGHS, XXE], ids=["billion laughs", "XXE"])
def test_xml_entities_are_refused(old_list, tmp_path, data):
    message = refused(data, "players_list_xml.xml", tmp_path)
    assert message == (
        "line 2: the XML declares a document type or entities (DTDForbidden), which a FIDE "
        "list never does."
    )
    assert names_kept()


def test_badly_formed_xml_is_refused_with_line_and_column(tmp_path):
    message = refused(ENTITY_WITHOUT_DTD, "players_list_xml.xml", tmp_path)
    assert message == "line 1, column 46: XML error: undefined entity."


def test_xml_is_read_in_the_encoding_it_declares_or_refused(tmp_path):
    players = [{**NEW[0], "name": "Øster, Åse"}, NEW[1]]
    declared = '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + xml_text(players)
    path = tmp_path / "players_list_xml.xml"
    path.write_bytes(declared.encode("latin-1"))
    assert fide_list.import_list(path).players == 2
    assert FidePlayer.objects.filter(name="Øster, Åse").exists()
    message = refused(xml_text(players).encode("latin-1"), "players_list_xml.xml", tmp_path)
    assert message == "line 4, column 9: XML error: not well-formed (invalid token)."


def test_an_xml_text_past_the_bound_is_refused(old_list, tmp_path, settings):
    settings.FIDE_LIST_MAX_LINE = 300
    data = xml_text(NEW[:3]).replace("<name>", "<name>" + "x" * 100_000, 1).encode()
    message = refused(zipped("players_list_xml.xml", data), "players_list_xml.zip", tmp_path)
    assert message == "line 4: a text longer than 300 characters: not a FIDE list."
    assert names_kept()


@pytest.mark.parametrize(
    "filler", ["<!--" + "x" * 100_000 + "-->", "<player " + 'a="1" ' * 20_000 + "/>"],
    ids=["comment", "tag"],
)
def test_an_xml_comment_or_tag_past_the_bound_is_refused(tmp_path, settings, filler):
    settings.FIDE_LIST_MAX_LINE = 300
    data = xml_text(NEW[:3]).replace("<playerslist>\n", "<playerslist>\n" + filler).encode()
    message = refused(data, "players_list_xml.xml", tmp_path)
    assert message == (
        "line 2: a tag, comment or declaration longer than 300 bytes: not a FIDE list."
    )


def test_xml_nested_too_deep_is_refused(tmp_path):
    data = b"<playerslist>" + b"<a>" * 100 + b"</a>" * 100 + b"</playerslist>"
    message = refused(data, "players_list_xml.xml", tmp_path)
    assert message == "line 1: elements nested too deep: not a FIDE list."


# ---------------------------------------------------------------------------------------------
# Sizes


def test_a_line_past_the_bound_is_refused_without_reading_it_whole(old_list, tmp_path, settings):
    settings.FIDE_LIST_MAX_LINE = 300
    data = zipped("players_list_foa.txt", lines(NEW[0]) + b"9" * 10_000_000)
    message = refused(data, "players_list.zip", tmp_path)
    assert message == "line 3: longer than 300 bytes: not a FIDE list."
    assert names_kept()


def test_a_file_past_the_size_bound_is_refused(old_list, tmp_path, settings):
    settings.FIDE_LIST_MAX_BYTES = 100_000
    data = txt_text(NEW).encode()
    assert refused(data, "players_list_foa.txt", tmp_path) == (
        "more than 100000 bytes once decompressed: too big."
    )
    assert refused(zipped("players_list_foa.txt", data), "players_list.zip", tmp_path) == (
        f"players_list_foa.txt: {len(data)} bytes once decompressed, more than 100000 bytes: "
        "too big."
    )
    assert names_kept()


def test_a_damaged_archive_is_refused(tmp_path):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("players_list_foa.txt", txt_text(NEW))
    damaged = out.getvalue().replace(NEW[1000]["name"].encode(), b"X" * len(NEW[1000]["name"]))
    message = refused(damaged, "players_list.zip", tmp_path)
    assert message == "players_list_foa.txt: the archive is damaged (Bad CRC-32 for file " \
        "'players_list_foa.txt')."
