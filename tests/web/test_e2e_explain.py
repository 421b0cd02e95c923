"""The engine's explanation in a real headless Chromium held like a phone (390 px wide): the
arbiter's table per bracket and the player's "Why this pairing?", without sideways scrolling."""

from __future__ import annotations

import pytest

from tournaments import explain, services

from .test_e2e_browser import browser, log_in, page  # noqa: F401 - the browser fixtures
from .test_explain import played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def page_width(page) -> tuple[int, int]:  # noqa: F811 - a page, not the fixture
    """(width of the page's content, width of the window): equal when nothing sticks out."""
    return page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )


def test_a_player_reads_why_on_the_card(page, live_server, arbiter):  # noqa: F811
    t = played(arbiter, players=11, played_rounds=2)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    game = rnd.games.exclude(black=None).order_by("board").last()
    expected = explain.for_player(rnd, game.black)

    page.goto(f"{live_server.url}/t/{t.pk}/players/")
    page.get_by_role("link", name=game.black.name, exact=True).click()
    page.wait_for_url(f"**/t/{t.pk}/players/{game.black.pk}/")
    section = page.locator("section.why")
    assert section.get_by_role("heading", name="Why this pairing?").is_visible()
    latest = section.locator("details").first
    assert latest.locator("summary").inner_text() == f"Round {rnd.number}"
    shown = [p.inner_text() for p in latest.locator("p").all()]
    assert shown == expected
    assert any(game.white.name in sentence for sentence in shown)
    assert all(latest.locator("p").nth(i).is_visible() for i in range(len(shown)))
    width, window = page_width(page)
    assert width <= window == 390

    # An earlier round is one tap away (a <details>, no script).
    earlier = section.locator("details").nth(1)
    assert not earlier.locator("p").first.is_visible()
    earlier.locator("summary").click()
    assert earlier.locator("p").first.is_visible()


def test_the_arbiter_reads_the_bracket_tables_on_a_phone(page, live_server, arbiter):  # noqa: F811
    t = played(arbiter, players=15, played_rounds=3, rounds=5)
    rnd = services.pair_next_round(t, arbiter)

    log_in(page, live_server.url, "arbiter", "arbiter-pass-123",
           f"/arbiter/t/{t.pk}/rounds/{rnd.number}/")

    tables = page.locator("table.why-pairs")
    assert tables.count() >= 1 and tables.first.is_visible()
    first = tables.first.locator("tbody tr").first.locator("td")
    assert first.nth(0).locator(".who").inner_text().split(" ")[0] == "Player"
    width, window = page_width(page)
    assert width <= window == 390
    for i in range(tables.count()):
        box = tables.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
