"""The audit trail page (issue 20): readable differences, pages, filters by round and player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.test_corrections import board1, play_round, start
from tests.web.test_corrections_pairing import tpn_pairs
from tournaments import services
from tournaments.audit import Change, differences
from tournaments.models import AuditEntry
from tournaments.services import corrections, pairing_changes

pytestmark = pytest.mark.django_db


def page_of(client, t, **query):
    return client.get(reverse("arbiter-audit", args=[t.pk]), query)


def test_a_rating_correction_shows_the_rating_that_changed_only(client, arbiter):
    t = start(arbiter)
    player = t.players.get(tpn=4)
    old = player.rating
    corrections.correct_rating(player, arbiter, rating=1000, reason="typo")
    client.force_login(arbiter)
    body = page_of(client, t).content.decode()
    assert f"rating: <del>{old}</del> → <ins>1000</ins>" in body
    assert "{&#x27;" not in body and "{'" not in body  # no Python dict on the page
    entry = AuditEntry.objects.get(action="correct rating")
    changed = {c.what for c in differences(entry.before, entry.after)}
    assert "rating" in changed and "federation" not in changed and "name" not in changed


def test_a_two_board_change_shows_those_two_boards_only(client, arbiter):
    t = start(arbiter, players=10)
    rnd = services.pair_next_round(t, arbiter)
    (a, b), (c, d) = tpn_pairs(rnd)[:2]
    text = pairing_changes.swap_in_text(pairing_changes.pairing_text(rnd), a, c)
    boards, bye = pairing_changes.parse_pairing(text)
    pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=bye, note="swap",
                               accept_warnings=True)
    entry = AuditEntry.objects.get(action="manual pairing (draft)")
    changes = differences(entry.before, entry.after)
    assert len([x for x in changes if x.old]) == 2 and len([x for x in changes if x.new]) == 2
    assert all(not (x.old and x.new) for x in changes)
    assert len(entry.before) == 5  # the round has five boards; three did not move


def test_differences_of_values_set_removed_and_unchanged():
    assert differences(None, "alice") == [Change("", "", "alice")]
    assert differences({"a": 1}, None) == [Change("a", "1", "")]
    assert differences({"withdrawn_from_round": None}, {"withdrawn_from_round": 3}) == [
        Change("withdrawn from round", "", "3")
    ]
    assert differences({"1": 3, "2": 4}, {"1": 4, "2": 3}, {"1": "Anna", "2": "Bea"}) == [
        Change("Anna", "3", "4"), Change("Bea", "4", "3")
    ]
    assert differences(["x"], ["x"]) == [] and differences("a", "a") == []


def test_the_trail_comes_in_pages_of_fifty_newest_first(client, arbiter):
    t = start(arbiter)
    player = t.players.get(tpn=2)
    for rating in range(1000, 1120):
        corrections.correct_rating(player, arbiter, rating=rating, reason="test")
    client.force_login(arbiter)
    total = AuditEntry.objects.filter(tournament=t).count()
    first = page_of(client, t)
    assert len(first.context["entries"]) == 50
    assert first.context["entries"][0].after["rating"] == 1119
    last = page_of(client, t, page=3)
    assert len(last.context["entries"]) == total - 100
    assert 'rel="next"' in first.content.decode() and 'rel="prev"' in last.content.decode()
    assert page_of(client, t, page="x").status_code == 200  # the first page


def test_the_trail_is_filtered_by_round_and_by_player(client, arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    play_round(t, arbiter)
    game = board1(rnd1)
    corrections.correct_result(game, arbiter, result="1/2-1/2", reason="sheet")
    client.force_login(arbiter)
    by_round = page_of(client, t, round=1).context["entries"]
    assert by_round and {e.round_number for e in by_round} == {1}
    both = page_of(client, t, round=1, player=game.white_id)
    actions = [e.action for e in both.context["entries"]]
    assert actions.count("correct result (rating only)") == 1
    assert all(e.round_number == 1 for e in both.context["entries"])
    assert "round=1" in both.content.decode()  # the CSV link keeps the filters
    assert page_of(client, t, round="١").status_code == 404
    csv_rows = client.get(reverse("arbiter-audit-csv", args=[t.pk]), {"round": 2})
    assert csv_rows.content.decode().count("\n") == 1 + AuditEntry.objects.filter(
        tournament=t, round_number=2
    ).count()
