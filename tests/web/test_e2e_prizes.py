"""Prize-giving in a real headless Chromium (issue 27, section 1): a rated event of eight
players, its categories and prize list defined on the arbiters' page (no JavaScript needed),
three rounds played to the end in the browser, the prize list read on the public page and
printed to PDF with Chromium's print emulation (kept in ``PRINT_DIR`` when it is set).

Skipped without Chromium or Playwright, like the other browser tests (REQUIRE_BROWSER=1 fails).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from tournaments import prize_lists, services
from tournaments.models import Result, Round

from .test_e2e_browser import browser, log_in, page  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    # name, rating, sex, birth year, federation
    ("Arnaud, Paul", 2210, "m", 1980, "FRA"),
    ("Berger, Lena", 2105, "w", 1990, "SUI"),
    ("Costa, Rui", 1990, "m", 1958, "POR"),
    ("Dubois, Emma", 1850, "w", 2014, "FRA"),
    ("Egli, Marc", 1790, "m", 1975, "SUI"),
    ("Favre, Zoé", 1720, "w", 2015, "SUI"),
    ("Gomez, Luis", 1650, "m", 2013, "ESP"),
    ("Huber, Jan", None, "m", 2016, "SUI"),
]

CATEGORIES = [
    {"id_name": "Women", "check": "#id_women"},
    {"id_name": "U1800", "id_rating_below": "1800", "unrated": "without"},
    {"id_name": "U12", "id_age_under": "12"},
]


def add_categories(tab, t, categories: list[dict[str, str]]) -> None:
    """From the arbiter's tournament tab: each category added with its own form (``id_*``
    fields filled, ``check`` a box to tick, ``unrated`` the choice of the select)."""
    tab.get_by_role("link", name="Categories and prizes").click()
    tab.wait_for_url(f"**/arbiter/t/{t.pk}/prizes/")
    for category in categories:
        if tab.locator("details:has(#id_name)").get_attribute("open") is None:
            tab.get_by_text("Add a category").click()
        for field, value in category.items():
            if field == "check":
                tab.locator(value).check()
            elif field == "unrated":
                tab.locator("#id_unrated").select_option(value)
            else:
                tab.locator(f"#{field}").fill(value)
        tab.get_by_role("button", name="Add", exact=True).click()
        tab.wait_for_url(f"**/arbiter/t/{t.pk}/prizes/")


def set_prizes(tab, t, general: str, categories: dict[str, str], currency: str) -> None:
    """On the categories and prizes tab: the amounts of the general standings' places and
    of each category's, the Hort system for players tied on points, the currency."""
    tab.get_by_label("General standings").fill(general)
    for name, amounts in categories.items():
        tab.get_by_role("textbox", name=name).fill(amounts)
    tab.get_by_label("Hort system: half shared equally, half by the tie-breaks").check()
    tab.get_by_label("Currency").fill(currency)
    tab.get_by_role("button", name="Save the prize list").click()
    tab.wait_for_url(f"**/arbiter/t/{t.pk}/prizes/")


def test_categories_and_prizes_from_the_arbiters_page_to_the_printed_prize_list(
    page, live_server, tmp_path  # noqa: F811
):
    arbiter = User.objects.create_user("chief", password="chief-pass-123")
    t = services.create_tournament(arbiter, name="Prize Open 2026", rounds=3,
                                   start_date="2026-08-01", place="Sion", tiebreaks="BH\nTPN")
    for name, rating, sex, born, fed in PLAYERS:
        services.add_player(t, arbiter, name=name, rating=rating, sex=sex, birth_year=born,
                            federation=fed)
    out = Path(os.environ.get("PRINT_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)

    page.set_viewport_size({"width": 1280, "height": 900})
    page.set_default_timeout(60_000)  # a busy machine: the live server's first pages are slow
    log_in(page, live_server.url, "chief", "chief-pass-123", f"/arbiter/t/{t.pk}/")

    # The categories, one form each, then the prize list: Hort for players tied on points.
    add_categories(page, t, CATEGORIES)
    assert [c.name for c in t.categories.all()] == ["Women", "U1800", "U12"]
    members = {r.locator("td").nth(1).inner_text(): r.locator("td").nth(3).inner_text()
               for r in page.locator("table.categories tbody tr").all()}
    # Huber is unrated: not U1800; Gomez (born 2013) is 12 before 1 January 2026: not U12.
    assert members == {"Women": "3", "U1800": "3", "U12": "3"}

    set_prizes(page, t, "500 300 200", {"Women": "100", "U1800": "80 40", "U12": "60"}, "CHF")
    t.refresh_from_db()
    assert (t.prizes, t.prize_sharing, t.currency) == (["500", "300", "200"], "hort", "CHF")

    # Three rounds, paired, published and played in the browser: White wins every game.
    page.goto(f"{live_server.url}/arbiter/t/{t.pk}/")
    page.get_by_role("button", name="Draw by lot").click()
    for number in (1, 2, 3):
        page.get_by_role("button", name=f"Pair round {number}").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/{number}/")
        page.get_by_role("button", name="Publish").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/{number}/")
        rnd = Round.objects.get(tournament=t, number=number)
        for game in rnd.games.filter(board__isnull=False):
            page.locator(f'select[name="g{game.pk}"]').select_option(Result.WHITE_WINS.value)
        page.get_by_role("button", name="Save and finish round").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/")

    # The public page, after the last round: who receives which prize.
    giving = prize_lists.prize_giving(t)
    assert giving.final
    awarded = [line for s in giving.sections for line in s.lines]
    assert len({line.player.pk for line in awarded}) == len(awarded)  # one prize a player
    page.goto(f"{live_server.url}/t/{t.pk}/")
    page.get_by_role("link", name="Prizes").click()
    page.wait_for_url(f"**/t/{t.pk}/prizes/")
    text = page.locator("main").inner_text() if page.locator("main").count() else (
        page.content())
    assert "Final standings after round 3" in text
    for line in awarded:
        assert line.player.name in text
    assert "CHF" in text

    # A category's ranking list is one click away.
    page.get_by_role("link", name="U12").first.click()
    page.wait_for_url(f"**/t/{t.pk}/categories/*/")
    ranked = page.locator("table.standings tbody tr td:nth-child(3)").all_inner_texts()
    young = [s.player.name for s in services.standings(t)
             if s.player.birth_year and s.player.birth_year >= 2014]
    assert [name.strip() for name in ranked] == young

    # The prize list printed from the arbiters' page.
    page.goto(f"{live_server.url}/arbiter/t/{t.pk}/prizes/")
    page.get_by_role("link", name="Print the prize list").click()
    page.wait_for_url("**/print/prizes/")
    assert "Prize list" in page.locator(".sheet-what").inner_text()
    page.emulate_media(media="print")
    assert not page.locator("header.top").is_visible()
    pdf = out / "prize-list.pdf"
    page.pdf(path=str(pdf), format="A4")
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 5000
    print(f"printed {pdf}")
