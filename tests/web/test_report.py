"""The FIDE rating report: tournament fields, the TRF header records and their round trip."""

from __future__ import annotations

import datetime
import random

import pytest
from django.urls import reverse

from pairing.checker import check_round
from pairing.replay import paired_rounds, recorded_round, state_before_round
from pairing.trf import read_trf
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.report import REPORT_CODES, export_filename, rating_type_of_code

from .conftest import make_tournament
from .test_services import play

pytestmark = pytest.mark.django_db

REPORT = {
    "place": "Bad Ragaz",
    "federation": "SUI",
    "start_date": datetime.date(2026, 7, 4),
    "end_date": datetime.date(2026, 7, 8),
    "event_type": "Individual: Swiss-System",
    "rating_type": "rapid",
    "chief_arbiter": "IA Anna Schmidt",
    "chief_arbiter_fide_id": "1301234",
    "deputy_arbiters": "FA Jan Novak (312345678)\nNA Eva Lind (1712345)",
    "time_control": "25 min + 10 s a move",
    "time_control_code": "1500+10",
}


def header(text: str) -> dict[str, list[str]]:
    """The report records of a TRF text, by code (records may repeat: 112)."""
    lines: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line[:3] in REPORT_CODES:
            lines.setdefault(line[:3], []).append(line)
    return lines


def played(arbiter, rounds: int = 3) -> Tournament:
    t = make_tournament(arbiter, players=9, rounds=5, **REPORT)
    services.draw_initial_color(t, arbiter, random.Random(3))
    rng = random.Random(17)
    for _ in range(rounds):
        play(services.pair_next_round(t, arbiter), arbiter, rng)
    return t


def test_the_export_carries_every_report_record(arbiter):
    t = played(arbiter)
    for n, day in ((1, 4), (2, 5), (3, 6)):
        Round.objects.filter(tournament=t, number=n).update(
            published_at=datetime.datetime(2026, 7, day, 15, tzinfo=datetime.UTC)
        )
    lines = header(services.export_trf(t))
    assert lines["022"] == ["022 Bad Ragaz"]
    assert lines["032"] == ["032 SUI"]
    assert lines["042"] == ["042 2026/07/04"]
    assert lines["052"] == ["052 2026/07/08"]
    assert lines["062"] == ["062 9"]
    assert lines["072"] == ["072 9"]
    assert lines["082"] == ["082 0"]
    assert lines["092"] == ["092 Individual: Swiss-System (Rapid)"]
    assert lines["102"] == ["102 IA Anna Schmidt (1301234)"]
    assert lines["112"] == ["112 FA Jan Novak (312345678)", "112 NA Eva Lind (1712345)"]
    assert lines["122"] == ["122 25 min + 10 s a move"]
    assert lines["222"] == ["222 1500+10"]
    (dates,) = lines["132"]
    # Round dates in the columns of the round blocks of the 001 records: round 1 at 92-99.
    assert dates[91:99] == "26/07/04"
    assert dates[101:109] == "26/07/05"
    assert dates[111:119] == "26/07/06"
    assert dates[:91].strip() == "132"


def test_the_export_passes_the_checker_and_reads_back_the_same(arbiter, staff):
    t = played(arbiter)
    text = services.export_trf(t)
    state = read_trf(text)
    assert paired_rounds(state) == 3
    for k in range(1, 4):
        pairing = recorded_round(state, k)
        assert check_round(state_before_round(state, k), pairing) == [], k

    again = services.import_trf(text, staff)
    for field, value in REPORT.items():
        assert getattr(again, field) == value, field
    assert header(services.export_trf(again)) == header(text)
    assert [r.published_at.date() for r in again.round_set.order_by("number")] == [
        r.published_at.date() for r in t.round_set.order_by("number")
    ]


def test_the_export_is_named_after_the_slug_and_the_end_date(client, arbiter):
    t = services.create_tournament(
        arbiter, name="Zürich Open 2026", rounds=5, end_date=datetime.date(2026, 7, 8)
    )
    services.add_player(t, arbiter, name="Solo, Han", rating=2000)
    assert export_filename(t) == "zurich-open-2026-2026-07-08.trf"
    client.force_login(arbiter)
    response = client.get(reverse("arbiter-export-trf", args=[t.pk]))
    assert response["Content-Disposition"] == (
        'attachment; filename="zurich-open-2026-2026-07-08.trf"'
    )
    t.end_date = None
    assert export_filename(t) == "zurich-open-2026.trf"


@pytest.mark.parametrize(
    "code, kind",
    [
        ("5400+30", "standard"),
        ("40/5400+30:1800+30", "standard"),
        ("1500+10", "rapid"),
        ("3600", "standard"),
        ("180+2", "blitz"),
        ("600", "blitz"),
        ("W300-B240", "blitz"),
    ],
)
def test_the_rating_type_follows_the_time_control_when_the_file_does_not_say(code, kind):
    assert rating_type_of_code(code) == kind


@pytest.mark.parametrize("code", ["90 min", "5400+", "40/", "W300", "5400+30:"])
def test_a_time_control_code_that_is_not_trf_2026_is_refused(arbiter, code):
    with pytest.raises(services.ServiceError, match="Time control code"):
        services.create_tournament(arbiter, name="Open", rounds=5, time_control_code=code)


def test_deputies_need_one_arbiter_a_line_with_the_id_in_brackets(arbiter):
    with pytest.raises(services.ServiceError, match="Deputy arbiters"):
        services.create_tournament(
            arbiter, name="Open", rounds=5, deputy_arbiters="FA Jan (Novak) (312345678)"
        )


def test_the_settings_form_saves_the_report_fields(client, arbiter):
    t = make_tournament(arbiter, players=2)
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-tournament-edit", args=[t.pk])).content.decode()
    assert "FIDE rating report" in page
    data = {
        "name": t.name, "rounds": t.rounds, "pairing_system": t.pairing_system,
        "points_win": "1", "points_draw": "0.5", "points_loss": "0", "points_forfeit_win": "1",
        "points_forfeit_loss": "0", "points_pairing_bye": "1", "points_half_bye": "0.5",
        "points_full_bye": "1", "points_zero_bye": "0", "tiebreaks": "",
        **{
            k: (f"{v:%Y-%m-%d}" if isinstance(v, datetime.date) else v)
            for k, v in REPORT.items()
        },
    }
    response = client.post(reverse("arbiter-tournament-edit", args=[t.pk]), data)
    assert response.status_code == 302
    t.refresh_from_db()
    for field, value in REPORT.items():
        assert getattr(t, field) == value, field


def test_an_imported_file_without_report_records_keeps_the_defaults(staff):
    text = (
        "012 Club night\n"
        "001    1      Alpha, Ann                        2000                             0.0    1\n"  # noqa: E501
        "001    2      Beta, Bob                         1900                             0.0    2\n"  # noqa: E501
    )
    t = services.import_trf(text, staff)
    assert (t.place, t.federation, t.rating_type, t.chief_arbiter) == ("", "", "standard", "")
    lines = header(services.export_trf(t))
    assert set(lines) == {"062", "072", "082", "092"}
