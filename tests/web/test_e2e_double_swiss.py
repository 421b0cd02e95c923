"""A 7-match, 20-player Double-Swiss event run in a real headless Chromium (issue 15).

Through the arbiter's pages: the tournament is created as Double-Swiss with the match values
of the byes, a half-point bye is requested for match 2, a late entry arrives for match 3, and
every match is paired, published and entered game by game (two results per board), with a
single forfeited game and a forfeit match (both games) in match 2. The players are registered
through the services, as an upload would. A visitor then reads the crosstable and standings.
"""

from __future__ import annotations

import random

import pytest

from pairing.double_swiss import pair_match, read_double_swiss, state_before_match
from pairing.double_swiss.trf import recorded_match
from pairing.replay import pairing_lines
from tournaments import services
from tournaments.models import Result, Round, Tournament

from .test_e2e_browser import browser, log_in, page  # noqa: F401 - the browser fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]


def test_a_seven_match_double_swiss_event_runs_in_the_browser(page, live_server, staff):  # noqa: F811
    log_in(page, live_server.url, "staff", "staff-pass-123", "/arbiter/new/")
    page.locator('input[name="name"]').fill("Double Open")
    page.locator('input[name="rounds"]').fill("7")
    page.locator('select[name="pairing_system"]').select_option("dswiss")
    for field, value in (("points_pairing_bye", "1.5"), ("points_half_bye", "1"),
                         ("points_full_bye", "2")):
        page.locator(f'input[name="{field}"]').fill(value)
    page.get_by_role("button", name="Save").click()
    t = Tournament.objects.get(name="Double Open")
    assert t.system.matches
    page.wait_for_url(f"**/arbiter/t/{t.pk}/")
    for i in range(20):
        services.add_player(t, staff, name=f"Player {i:02d}", rating=2400 - 10 * i)
    base = f"{live_server.url}/arbiter/t/{t.pk}/"

    page.goto(base)
    page.get_by_role("button", name="Draw by lot").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/")
    fifth = t.players.get(tpn=5)
    bye_form = page.locator('form[action$="/byes/"]')
    bye_form.locator('select[name="player"]').select_option(str(fifth.pk))
    bye_form.locator('[name="round_number"]').fill("2")
    bye_form.locator('select[name="kind"]').select_option("H")
    bye_form.get_by_role("button", name="Record").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/**")

    rng = random.Random(15)
    for k in range(1, 8):
        page.goto(base)
        if k == 3:
            page.get_by_text("Admit a late entry").click()
            late = page.locator('form[action$="/players/late/"]')
            late.locator('[name="name"]').fill("Late, Lara")
            late.locator('[name="rating"]').fill("1500")
            late.locator('[name="arrival_round"]').fill("3")
            late.get_by_role("button", name="Admit").click()
            page.wait_for_url(f"**/arbiter/t/{t.pk}/**")
            page.goto(base)
        page.get_by_role("button", name=f"Pair round {k}").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/{k}/")
        page.get_by_role("button", name="Publish").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/{k}/")
        rnd = Round.objects.get(tournament_id=t.pk, number=k)
        for g in rnd.games.filter(black__isnull=False):
            first, second = rng.choice(GAMES), rng.choice(GAMES)
            if k == 2 and g.board == 1:  # one game forfeited: a match played all the same
                first = Result.WHITE_WINS_FORFEIT
            if k == 2 and g.board == 2:  # White forfeits both games: a forfeit match
                first, second = Result.BLACK_WINS_FORFEIT, Result.WHITE_WINS_FORFEIT
            page.locator(f'select[name="g{g.pk}"]').select_option(first.value)
            page.locator(f'select[name="g{g.pk}_2"]').select_option(second.value)
        page.get_by_role("button", name="Save and finish round").click()
        page.wait_for_url(f"**/arbiter/t/{t.pk}/")
        assert Round.objects.get(pk=rnd.pk).state == Round.State.FINISHED, f"match {k}"

    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Round.objects.get(tournament=t, number=2).games.get(white=fifth).result == "H"
    # what the browser paired is what the engine pairs from the exported file
    dt = read_double_swiss(services.export_trf(t))
    assert len(dt.tpns) == 21 and dt.paired_matches() == 7
    for k in range(1, 8):
        assert pairing_lines(pair_match(state_before_match(dt, k))) == pairing_lines(
            recorded_match(dt, k)
        )
    page.goto(f"{live_server.url}/t/{t.pk}/standings/")
    assert page.locator("table.standings tbody tr").count() == 21
    assert page.goto(f"{live_server.url}/t/{t.pk}/crosstable/").status == 200
