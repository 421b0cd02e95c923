"""A 9-round, 27-player Clock-system event run in a real headless Chromium (issue 19).

The players are registered through the services (as an upload would); everything else is done
in the browser, as an arbiter would: choose the Clock system in the settings, draw the master
colour, then for each round pair, read the clock's own explanation, publish, enter every result
with the round's form and finish. A visitor then reads the home page (the system and its
not-FIDE note) and the final standings.
"""

from __future__ import annotations

import random

import pytest

from tournaments import services
from tournaments.models import Result, Round, Tournament

from .test_e2e_browser import browser, log_in, page  # noqa: F401 - the browser fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The seed's example (Appendix A, 27 players, master colour black): round 1, White first.
SEED_FIRST_ROUND = {
    (14, 1), (8, 21), (4, 17), (24, 11), (3, 16), (23, 10), (19, 6), (13, 26), (2, 15), (22, 9),
    (18, 5), (12, 25), (20, 7),
}


def test_a_27_player_clock_event_runs_in_the_browser(page, live_server, arbiter):  # noqa: F811
    t = services.create_tournament(arbiter, name="Clock Open", rounds=9)
    for i in range(27):
        services.add_player(t, arbiter, name=f"Player {i + 1:02d}", rating=2400 - 10 * i)
    base = f"{live_server.url}/arbiter/t/{t.pk}/"

    log_in(page, live_server.url, "arbiter", "arbiter-pass-123", f"/arbiter/t/{t.pk}/")

    # The settings offer the system, with the note that it is not a FIDE system.
    page.goto(base + "settings/")
    page.locator('select[name="pairing_system"]').select_option(Tournament.PairingSystem.CLOCK)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/")
    assert Tournament.objects.get(pk=t.pk).pairing_system == Tournament.PairingSystem.CLOCK

    # The master colour, drawn by lot in the app; the seed's table is for black.
    page.get_by_role("button", name="Draw by lot").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/")
    master = Tournament.objects.get(pk=t.pk).initial_color

    rng = random.Random(27)
    for k in range(1, 10):
        page.goto(base)
        page.get_by_role("button", name=f"Pair round {k}").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/{k}/")
        assert "picker PN-" in page.content()  # the clock explains itself in its own terms
        rnd = Round.objects.get(tournament_id=t.pk, number=k)
        games = list(rnd.games.select_related("white", "black"))
        if k == 1 and master == "b":
            assert {(g.white.tpn, g.black.tpn) for g in games if not g.is_bye} == SEED_FIRST_ROUND
        page.get_by_role("button", name="Publish").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/{k}/")
        for game in games:
            if game.is_bye:
                continue
            result = rng.choice([Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS])
            page.locator(f'select[name="g{game.pk}"]').select_option(result.value)
        page.get_by_role("button", name="Save and finish round").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/")
        assert Round.objects.get(pk=rnd.pk).state == Round.State.FINISHED, f"round {k}"

    page.goto(f"{live_server.url}/t/{t.pk}/")
    home = page.content()
    assert "Clock (Italian-Swiss)" in home and "Qualification Commission" in home
    page.goto(f"{live_server.url}/t/{t.pk}/standings/")
    assert "after round 9" in page.locator("h2").first.inner_text()
    assert page.locator("table.standings tbody tr").count() == 27
