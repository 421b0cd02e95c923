"""On a phone held upright (390 px wide, headless Chromium): the draft shows the pairing
numbers, the crosstable keeps its names in sight while it scrolls, its legend is complete."""

from __future__ import annotations

import random

import pytest

from tournaments import services
from tournaments.models import Result

from .conftest import make_tournament
from .test_e2e_browser import browser, page  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, client, user):  # noqa: F811
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def test_the_draft_shows_pairing_numbers_on_a_phone(page, live_server, client, arbiter):  # noqa: F811
    t = make_tournament(arbiter, players=8, rounds=3)
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = services.pair_next_round(t, arbiter)
    log_in(page, live_server, client, arbiter)
    page.goto(f"{live_server.url}/arbiter/t/{t.pk}/rounds/{rnd.number}/")
    numbers = page.locator("table.boards td small")
    assert numbers.count() == 8
    for i in range(8):
        assert numbers.nth(i).is_visible(), numbers.nth(i).inner_text()


def test_the_crosstable_keeps_names_in_sight_and_explains_every_sign(
    page, live_server, arbiter  # noqa: F811
):
    t = make_tournament(arbiter, players=10, rounds=7, tiebreaks="")
    services.draw_initial_color(t, arbiter, random.Random(0))
    for _ in range(5):
        rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
        boards = rnd.games.filter(board__isnull=False).order_by("board")
        results = {g.pk: Result.WHITE_WINS for g in boards}
        results[boards[0].pk] = Result.WHITE_WINS_FORFEIT
        services.set_results(rnd, arbiter, results)
        services.finish_round(rnd, arbiter)
    page.goto(f"{live_server.url}/t/{t.pk}/crosstable/")
    table = page.locator("table.crosstable")
    name = table.locator("tbody tr").first.locator("td.name")
    assert table.evaluate("t => t.scrollWidth") > 390  # wider than the phone: it scrolls
    table.evaluate("t => { t.closest('section').scrollLeft = 10000; }")
    page.wait_for_timeout(100)
    box = name.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    # Nothing else is drawn over the name.
    x, y = box["x"] + 5, box["y"] + box["height"] / 2
    assert name.evaluate(f"n => n.contains(document.elementFromPoint({x}, {y}))")
    legend = page.locator(".legend").inner_text()
    for sign in ("1", "½", "0", "+", "−", "bye", "H", "F", "Z", "abs", "*", "blank"):
        assert sign in legend, sign
