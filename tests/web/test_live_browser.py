"""Issue 16 end to end in headless Chromium: a result the arbiter enters appears, without a
reload, on a visitor's open round page and on the hall display (live updates by Server-Sent
Events). Like ``test_e2e_browser``, skipped without Chromium unless REQUIRE_BROWSER=1."""

from __future__ import annotations

import random

import pytest

from tournaments import services
from tournaments.models import Result

from .conftest import make_tournament
from .test_e2e_browser import browser, log_in, page  # noqa: F401 (the fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def result_on_board(view, board: int) -> str:
    row = view.locator("table.pairings tbody tr").nth(board - 1)
    return row.locator("td").nth(2).inner_text().strip()


def test_a_result_entered_by_the_arbiter_shows_on_open_pages_without_reload(
    page, live_server, arbiter  # noqa: F811
):
    t = make_tournament(arbiter, players=6, rounds=3)
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    board1 = rnd.games.get(board=1)

    # A visitor's phone on the round page, and the screen in the hall, both opened now.
    visitor = page.context.browser.new_page()
    visitor.goto(f"{live_server.url}/t/{t.pk}/rounds/1/")
    hall = page.context.browser.new_page(viewport={"width": 1920, "height": 1080})
    hall.goto(f"{live_server.url}/t/{t.pk}/display/")
    for view in (visitor, hall):
        assert result_on_board(view, 1) == "–"
        view.evaluate("window.loadedOnce = true")  # gone if the page were reloaded

    # The arbiter enters White's win on board 1 in the dashboard.
    log_in(page, live_server.url, "arbiter", "arbiter-pass-123", f"/arbiter/t/{t.pk}/rounds/1/")
    page.locator(f'select[name="g{board1.pk}"]').select_option(Result.WHITE_WINS.value)
    page.get_by_role("button", name="Save results").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/1/")

    # Both open pages show it within a few seconds, still the same documents.
    for view in (visitor, hall):
        view.wait_for_function(
            "document.querySelector('table.pairings tbody tr td:nth-child(3)')"
            ".textContent.trim() === '1-0'",
            timeout=10_000,
        )
        assert result_on_board(view, 1) == "1-0"
        assert view.evaluate("window.loadedOnce") is True
    visitor.close()
    hall.close()
