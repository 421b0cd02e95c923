"""The arbiter's day in a real headless Chromium (issue 17): a rated event with every field of
the FIDE rating report, players added from a small FIDE list file, round 1 paired, published
and played, each printable page printed to PDF with Chromium's print emulation, and a TRF
export whose report records read back the same. The PDFs are kept in the test's directory
(``PRINT_DIR`` names another) and their paths printed.

Skipped without Chromium or Playwright, like the other browser tests (REQUIRE_BROWSER=1 fails).
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from pairing.checker import check_round
from pairing.replay import paired_rounds, recorded_round, state_before_round
from pairing.trf import read_trf
from tools.fide_bench import txt_text
from tournaments import services
from tournaments.models import Result, Round, Tournament
from tournaments.report import REPORT_CODES

from .test_e2e_browser import browser, log_in, page  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIST = [
    {"fide_id": 1503014, "name": "Carlsen, Magnus", "fed": "NOR", "sex": "M", "title": "GM",
     "std": 2823, "rapid": 2801, "blitz": 2860, "born": 1990},
    {"fide_id": 2016192, "name": "Nakamura, Hikaru", "fed": "USA", "sex": "M", "title": "GM",
     "std": 2792, "rapid": 2738, "blitz": 2800, "born": 1987},
    {"fide_id": 14109336, "name": "Lagno, Kateryna", "fed": "FID", "sex": "F", "title": "GM",
     "w_title": "WGM", "std": 2520, "rapid": 2460, "blitz": 2530, "born": 1989, "flag": "w"},
    {"fide_id": 24116068, "name": "Gukesh, D", "fed": "IND", "sex": "M", "title": "GM",
     "std": 2787, "rapid": 2650, "blitz": 2700, "born": 2006},
    {"fide_id": 4168119, "name": "Firouzja, Alireza", "fed": "FRA", "sex": "M", "title": "GM",
     "std": 2760, "rapid": 2720, "blitz": 2780, "born": 2003},
    {"fide_id": 8603677, "name": "Ding, Liren", "fed": "CHN", "sex": "M", "title": "GM",
     "std": 2723, "rapid": 2693, "blitz": 2736, "born": 1992},
    {"fide_id": 13300474, "name": "Muzychuk, Anna", "fed": "UKR", "sex": "F", "title": "GM",
     "std": 2510, "rapid": 2480, "blitz": 2500, "born": 1990, "flag": "w"},
]

REPORT = {
    "id_name": "Bad Ragaz Rapid 2026",
    "id_place": "Bad Ragaz",
    "id_start_date": "2026-07-04",
    "id_end_date": "2026-07-05",
    "id_rounds": "5",
    "id_federation": "SUI",
    "id_event_type": "Individual: Swiss-System",
    "id_chief_arbiter": "IA Anna Schmidt",
    "id_chief_arbiter_fide_id": "1301234",
    "id_deputy_arbiters": "FA Jan Novak (312345678)\nNA Eva Lind (1712345)",
    "id_time_control": "25 min + 10 s a move",
    "id_time_control_code": "1500+10",
}

PRINTS = {
    "pairings": "Print pairings of round 1",
    "alphabetical": "Print players A-Z of round 1",
    "slips": "Print result slips of round 1",
    "standings": "Print standings",
    "crosstable": "Print crosstable",
}


def report_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:3] in REPORT_CODES]


def test_a_rated_event_from_creation_to_the_rating_report(page, live_server, tmp_path):  # noqa: F811
    staff = User.objects.create_user("chief", password="chief-pass-123", is_staff=True)
    archive = tmp_path / "players_list.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("players_list_foa.txt", txt_text(LIST))
    call_command("import_fide_list", str(archive))
    out = Path(os.environ.get("PRINT_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)

    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url, "chief", "chief-pass-123", "/arbiter/new/")

    # A rated event with every field of the rating report.
    for field, value in REPORT.items():
        page.locator(f"#{field}").fill(value)
    page.locator("#id_rating_type").select_option("rapid")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url("**/arbiter/t/*/")
    t = Tournament.objects.get(name="Bad Ragaz Rapid 2026")
    assert (t.rating_type, t.chief_arbiter_fide_id, t.time_control_code) == (
        "rapid", "1301234", "1500+10"
    )

    # Players from the FIDE list: search by FIDE ID, then by name; tick, add.
    page.get_by_role("link", name="Add players from the FIDE list").click()
    page.locator("#fide-search").fill("1503014")
    page.get_by_role("button", name="Search", exact=True).click()
    page.wait_for_url("**/fide/?q=1503014")
    page.locator('input[name="fide_ids"]').check()
    page.get_by_role("button", name="Add the players ticked").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/#players")
    for name in ["Nakamura", "Lagno", "Gukesh", "Firouzja", "Ding", "Muzychuk"]:
        page.goto(f"{live_server.url}/arbiter/t/{t.pk}/fide/?q={name}")
        page.locator('input[name="fide_ids"]').first.check()
        page.get_by_role("button", name="Add the players ticked").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/#players")
    assert t.players.count() == 7
    assert t.players.get(fide_id="1503014").rating == 2801  # the rapid rating

    # Pair, publish and play round 1 in the browser.
    page.get_by_role("button", name="Draw by lot").click()
    page.get_by_role("button", name="Pair round 1").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/1/")
    page.get_by_role("button", name="Publish").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/1/")
    rnd = Round.objects.get(tournament=t, number=1)
    for game in rnd.games.filter(board__isnull=False):
        page.locator(f'select[name="g{game.pk}"]').select_option(Result.DRAW.value)
    page.get_by_role("button", name="Save and finish round").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/")

    # Each printable page is one click from the dashboard; print it with print emulation.
    dashboard = page.url
    for name, link in PRINTS.items():
        page.emulate_media(media="screen")
        page.goto(dashboard)
        page.get_by_role("link", name=link).click()
        page.wait_for_load_state()
        assert page.locator("header.top").is_visible()
        page.emulate_media(media="print")
        assert not page.locator("header.top").is_visible()  # the print stylesheet hides it
        assert "Bad Ragaz Rapid 2026" in page.locator("h1").inner_text()
        pdf = out / f"{name}.pdf"
        page.pdf(path=str(pdf), format="A4")
        assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 5000, name
        print(f"printed {pdf}")
    page.emulate_media(media="screen")

    # The TRF export: named after the event, with the report records, valid for the checker.
    page.goto(dashboard)
    with page.expect_download() as download:
        page.get_by_role("link", name="Export TRF").click()
    assert download.value.suggested_filename == "bad-ragaz-rapid-2026-2026-07-05.trf"
    text = Path(download.value.path()).read_text()
    lines = report_lines(text)
    assert [line[:3] for line in lines] == [
        "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "112", "122",
        "132", "222",
    ]
    state = read_trf(text)
    assert paired_rounds(state) == 1
    assert check_round(state_before_round(state, 1), recorded_round(state, 1)) == []
    again = services.import_trf(text, staff)
    assert report_lines(services.export_trf(again)) == lines
