"""End to end in a real headless Chromium (Debian's package), driven by Playwright.

An arbiter logs in, draws the colour, pairs round 1, publishes it, enters the results and
finishes the round; a visitor's public standings change accordingly. Skipped when Chromium or
Playwright is missing, unless REQUIRE_BROWSER=1 (as in CI): then it fails.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tournaments.models import Result, Round, Tournament

from .conftest import make_tournament

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _missing() -> str | None:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(
        CHROMIUM
    ):
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -r requirements-dev.txt)"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = _missing()
    if reason:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by the test
    # itself (not by the live server) are still plain synchronous code. The variable is taken
    # away afterwards: later tests (``manage.py check --deploy``) must not inherit it.
    unset = "DJANGO_ALLOW_ASYNC_UNSAFE" not in os.environ
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            yield chromium
            chromium.close()
    finally:
        if unset:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone, upright
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def log_in(page, base_url: str, username: str, password: str, then: str) -> None:
    """Log in through the login form, as a person does, and land on ``then``."""
    page.goto(f"{base_url}/accounts/login/?next={then}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{then}")


def standings_table(page) -> list[tuple[str, str, str]]:
    """(rank, name, points) of each row of the public standings shown on the page."""
    rows = page.locator("table.standings tbody tr")
    result = []
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        result.append(
            (cells.nth(0).inner_text().strip(), cells.nth(1).inner_text().strip(),
             cells.nth(3).inner_text().strip())
        )
    return result


def test_arbiter_runs_a_round_and_the_public_standings_change(page, live_server, arbiter):
    t = make_tournament(arbiter, players=6, rounds=3, tiebreaks="")  # ties stay shared
    names = sorted(t.players.values_list("name", flat=True))
    public_standings = f"{live_server.url}/t/{t.pk}/standings/"

    # A visitor sees the tournament from the root page, everybody on 0.
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Test Open").click()
    page.get_by_role("link", name="Standings").click()
    assert page.url == public_standings
    assert standings_table(page) == [("1-6", name, "0") for name in names]

    # The arbiter logs in.
    log_in(page, live_server.url, "arbiter", "arbiter-pass-123", f"/arbiter/t/{t.pk}/")

    # Draw the initial colour, pair round 1: a draft, invisible to the public.
    page.get_by_role("button", name="Draw by lot").click()
    page.get_by_role("button", name="Pair round 1").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/1/")
    assert "Draft" in page.locator("h1").inner_text()
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.state == Round.State.DRAFT
    visitor = page.context.browser.new_page()
    response = visitor.goto(f"{live_server.url}/t/{t.pk}/rounds/1/")
    assert response.status == 404

    # Publish: the visitor now sees the pairings.
    page.get_by_role("button", name="Publish").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/1/")
    assert visitor.goto(f"{live_server.url}/t/{t.pk}/rounds/1/").status == 200
    boards = list(rnd.games.filter(board__isnull=False).select_related("white", "black"))
    assert len(boards) == 3
    for game in boards:
        assert visitor.get_by_role("link", name=game.white.name).count() == 1

    # Enter the results with the keyboard-friendly form: White wins on board 1, Black on 2,
    # a draw on 3; then save and finish the round.
    chosen = {1: Result.WHITE_WINS, 2: Result.BLACK_WINS, 3: Result.DRAW}
    by_board = {g.board: g for g in boards}
    for board, result in chosen.items():
        page.locator(f'select[name="g{by_board[board].pk}"]').select_option(result.value)
    page.get_by_role("button", name="Save and finish round").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/")
    assert Round.objects.get(pk=rnd.pk).state == Round.State.FINISHED

    # The public standings changed: the two winners first, then the drawers, then the losers.
    winners = sorted([by_board[1].white.name, by_board[2].black.name])
    drawers = sorted([by_board[3].white.name, by_board[3].black.name])
    losers = sorted([by_board[1].black.name, by_board[2].white.name])
    tpn = dict(Tournament.objects.get(pk=t.pk).players.values_list("name", "tpn"))
    expected = (
        [("1-2", n, "1") for n in sorted(winners, key=tpn.get)]
        + [("3-4", n, "½") for n in sorted(drawers, key=tpn.get)]
        + [("5-6", n, "0") for n in sorted(losers, key=tpn.get)]
    )
    visitor.goto(public_standings)
    assert "after round 1" in visitor.locator("h2").first.inner_text()
    assert standings_table(visitor) == expected

    # The crosstable in the browser shows the result of board 1 in its winner's row.
    visitor.goto(f"{live_server.url}/t/{t.pk}/crosstable/")
    first_row = visitor.locator("table.crosstable tbody tr").first
    assert first_row.locator("td").nth(1).inner_text().strip() == expected[0][1]
    assert first_row.locator("td.cell").inner_text().strip().endswith("1")
    visitor.close()
