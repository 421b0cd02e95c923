"""Issue 13, finding 1 and the double clicks of finding 3: pages saved by two arbiters, or from
a tab opened earlier, never lose a result or a change; a repeated click says it was done.

Each page is read as a browser submits it (``pages.form_data``), changed, and posted later.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.pages import form_data
from tests.web.test_corrections import board1, play_round, start
from tournaments import services
from tournaments.models import AuditEntry, Player, Result, Round
from tournaments.services import corrections, pairing_changes

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def published_round(arbiter, players=10):
    t = start(arbiter, players=players)
    rnd = services.pair_next_round(t, arbiter)
    services.publish_round(rnd, arbiter)
    return t, rnd


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def boards(rnd: Round) -> list:
    return list(rnd.games.filter(black__isnull=False).order_by("board"))


def round_url(t, number=1) -> str:
    return reverse("arbiter-round", args=[t.pk, number])


def test_two_arbiters_save_different_boards_and_nothing_is_lost(arbiter, other_arbiter):
    t, rnd = published_round(arbiter)
    t.arbiters.add(other_arbiter)
    x, y = client_of(arbiter), client_of(other_arbiter)
    games = boards(rnd)
    page_y = form_data(y.get(round_url(t)).content.decode())  # Y opens the page first
    page_x = form_data(x.get(round_url(t)).content.decode())
    page_x[f"g{games[0].pk}"] = Result.WHITE_WINS
    x.post(round_url(t), page_x)
    page_y[f"g{games[1].pk}"] = Result.BLACK_WINS  # every other board as Y loaded it: pending
    response = y.post(round_url(t), page_y, follow=True)
    assert "1 result saved." in messages_of(response)
    results = {g.board: g.result for g in boards(rnd)}
    assert results[1] == Result.WHITE_WINS and results[2] == Result.BLACK_WINS
    assert not AuditEntry.objects.filter(action="change result").exists()


def test_eight_arbiters_with_pages_opened_together_lose_no_result(arbiter, django_user_model):
    t, rnd = published_round(arbiter, players=16)
    games = boards(rnd)
    clients = []
    for i in range(8):
        user = django_user_model.objects.create_user(f"arb{i}", password="pw-123456789")
        t.arbiters.add(user)
        clients.append(client_of(user))
    pages = [form_data(c.get(round_url(t)).content.decode()) for c in clients]
    for client, page, game in zip(clients, pages, games, strict=True):
        page[f"g{game.pk}"] = Result.DRAW
        client.post(round_url(t), page)
    assert [g.result for g in boards(rnd)] == [Result.DRAW] * 8


def test_a_stale_page_cannot_undo_a_correction_and_says_what_is_stored(arbiter, other_arbiter):
    t, rnd = published_round(arbiter)
    t.arbiters.add(other_arbiter)
    x, y = client_of(arbiter), client_of(other_arbiter)
    games = boards(rnd)
    services.set_results(rnd, arbiter, {games[0].pk: Result.WHITE_WINS})
    stale = form_data(y.get(round_url(t)).content.decode())  # shows board 1 = 1-0
    fresh = form_data(x.get(round_url(t)).content.decode())
    fresh[f"g{games[0].pk}"] = Result.BLACK_WINS  # X corrects board 1
    x.post(round_url(t), fresh)
    stale[f"g{games[0].pk}"] = Result.DRAW  # Y, from the older page, changes it too
    stale[f"g{games[2].pk}"] = Result.WHITE_WINS
    response = y.post(round_url(t), {**stale, "finish": "1"}, follow=True)
    refusal = [m for m in messages_of(response) if m.startswith("Board 1 ")]
    assert len(refusal) == 1
    assert "½-½ not saved" in refusal[0] and "now holds 0-1" in refusal[0]
    assert "1 result saved." in messages_of(response)  # board 3 was new on Y's page
    assert [g.result for g in boards(rnd)][:3] == [Result.BLACK_WINS, "", Result.WHITE_WINS]
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PUBLISHED  # "finish" waits until the arbiter has looked


def test_the_same_change_made_twice_is_no_conflict(arbiter):
    t, rnd = published_round(arbiter)
    client = client_of(arbiter)
    game = boards(rnd)[0]
    page = form_data(client.get(round_url(t)).content.decode())
    page[f"g{game.pk}"] = Result.DRAW
    client.post(round_url(t), page)
    response = client.post(round_url(t), page, follow=True)  # the same form sent again
    assert "0 results saved." in messages_of(response)
    assert not [m for m in messages_of(response) if "not saved" in m]
    assert AuditEntry.objects.filter(action="enter result").count() == 1


def test_player_pages_write_only_what_they_changed(arbiter, other_arbiter):
    t = start(arbiter)
    t.arbiters.add(other_arbiter)
    player = t.players.get(tpn=3)
    url = reverse("arbiter-player", args=[t.pk, player.pk])
    x, y = client_of(arbiter), client_of(other_arbiter)
    page_x = form_data(x.get(url).content.decode())
    page_y = form_data(y.get(url).content.decode())
    page_x["federation"] = "SUI"
    x.post(url, page_x)
    page_y["fide_id"] = "1503014"  # Y's page still shows no federation
    y.post(url, page_y)
    player.refresh_from_db()
    assert (player.federation, player.fide_id) == ("SUI", "1503014")
    page_y["federation"] = "GER"  # from the same old page, now a conflicting change
    response = y.post(url, page_y, follow=True)
    assert any(
        "changed meanwhile" in m and "'SUI'" in m and "nothing was saved" in m
        for m in messages_of(response)
    )
    player.refresh_from_db()
    assert player.federation == "SUI"


def test_settings_page_keeps_a_change_made_meanwhile(arbiter, other_arbiter):
    t = start(arbiter)
    t.arbiters.add(other_arbiter)
    url = reverse("arbiter-tournament-edit", args=[t.pk])
    x, y = client_of(arbiter), client_of(other_arbiter)
    page_x = form_data(x.get(url).content.decode())
    page_y = form_data(y.get(url).content.decode())
    page_x["place"] = "Bern"
    x.post(url, page_x)
    page_y["rounds"] = "7"
    y.post(url, page_y)
    t.refresh_from_db()
    assert (t.place, t.rounds) == ("Bern", 7)
    page_y["place"] = "Basel"
    response = y.post(url, page_y)
    assert "changed meanwhile" in response.content.decode()
    t.refresh_from_db()
    assert t.place == "Bern"


def test_a_correction_from_a_stale_page_is_refused(arbiter, other_arbiter):
    t = start(arbiter)
    t.arbiters.add(other_arbiter)
    rnd = play_round(t, arbiter)
    game = board1(rnd)
    url = reverse("arbiter-game-correct", args=[t.pk, 1, game.pk])
    x, y = client_of(arbiter), client_of(other_arbiter)
    stale = form_data(y.get(url).content.decode())
    fresh = form_data(x.get(url).content.decode())
    x.post(url, {**fresh, "result": Result.BLACK_WINS, "reason": "scoresheet says 0-1"})
    response = y.post(
        url, {**stale, "result": Result.DRAW, "reason": "told a draw"}, follow=True
    )
    assert any("changed meanwhile" in m and "0-1" in m for m in messages_of(response))
    game.refresh_from_db()
    assert game.result == Result.BLACK_WINS
    assert AuditEntry.objects.filter(action="correct result").count() == 1
    # The colours form of the stale page is refused the same way.
    colours = form_data(y.get(url).content.decode(), index=1)
    corrections.correct_result(game, arbiter, result=Result.WHITE_WINS, reason="again")
    response = y.post(url, {**colours, "reason": "swapped"}, follow=True)
    assert any("changed meanwhile" in m for m in messages_of(response))


def test_a_rating_correction_from_a_stale_page_is_refused(arbiter, other_arbiter):
    t = start(arbiter)
    t.arbiters.add(other_arbiter)
    player = t.players.get(tpn=2)
    url = reverse("arbiter-rating-correct", args=[t.pk, player.pk])
    x, y = client_of(arbiter), client_of(other_arbiter)
    stale = form_data(y.get(url).content.decode())
    x.post(url, {**form_data(x.get(url).content.decode()), "rating": "2222", "reason": "list"})
    response = y.post(url, {**stale, "rating": "2100", "reason": "old list"}, follow=True)
    assert any("changed meanwhile" in m and "2222" in m for m in messages_of(response))
    player.refresh_from_db()
    assert player.rating == 2222


def test_a_pairing_change_from_a_stale_page_is_refused(arbiter, other_arbiter):
    t = start(arbiter)
    t.arbiters.add(other_arbiter)
    rnd = services.pair_next_round(t, arbiter)
    url = reverse("arbiter-pairing", args=[t.pk, 1])
    x, y = client_of(arbiter), client_of(other_arbiter)
    stale = form_data(y.get(url).content.decode())
    fresh = form_data(x.get(url).content.decode())
    lines = fresh["text"].splitlines()
    lines[0], lines[1] = lines[1], lines[0]  # same pairs, other board order: no change
    w1, b1 = lines[0].split(" - ")
    w2, b2 = lines[1].split(" - ")
    swapped = [f"{w1} - {b2}", f"{w2} - {b1}", *lines[2:]]
    x.post(url, {**fresh, "text": "\n".join(swapped), "action": "save", "accept_warnings": "on"})
    before = pairing_changes.pairing_text(Round.objects.get(pk=rnd.pk))
    other = stale["text"].splitlines()
    other[0], other[2] = f"{other[0].split(' - ')[0]} - {other[2].split(' - ')[1]}", \
        f"{other[2].split(' - ')[0]} - {other[0].split(' - ')[1]}"
    response = y.post(
        url, {**stale, "text": "\n".join(other), "action": "save", "accept_warnings": "on"},
        follow=True,
    )
    assert any("changed meanwhile" in m for m in messages_of(response))
    assert pairing_changes.pairing_text(Round.objects.get(pk=rnd.pk)) == before


# ---------------------------------------------------------------------------------------------
# Double clicks: the second click says it was done already, never a 500


def test_unpair_clicked_twice(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    client = client_of(arbiter)
    page = client.get(round_url(t)).content.decode()
    action = reverse("arbiter-round-unpair", args=[t.pk, 1])
    data = form_data(page, action)
    assert client.post(action, data).status_code == 302
    response = client.post(action, data, follow=True)
    assert response.status_code == 200
    assert "Round 1 is already unpaired." in messages_of(response)


def test_publish_clicked_twice(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    client = client_of(arbiter)
    action = reverse("arbiter-round-publish", args=[t.pk, 1])
    data = form_data(client.get(round_url(t)).content.decode(), action)
    client.post(action, data)
    response = client.post(action, data, follow=True)
    assert "Round 1 is already published." in messages_of(response)
    assert AuditEntry.objects.filter(action="publish round").count() == 1


def test_repair_clicked_twice_acts_once(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    client = client_of(arbiter)
    action = reverse("arbiter-round-repair", args=[t.pk, 1])
    data = form_data(client.get(round_url(t)).content.decode(), action)
    client.post(action, data)
    response = client.post(action, data, follow=True)
    assert response.status_code == 200
    assert any("changed meanwhile" in m for m in messages_of(response))
    assert AuditEntry.objects.filter(action="re-pair draft").count() == 1
    assert Round.objects.filter(tournament=t).count() == 1


def test_publish_from_a_page_showing_an_older_draft_is_refused(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    client = client_of(arbiter)
    action = reverse("arbiter-round-publish", args=[t.pk, 1])
    data = form_data(client.get(round_url(t)).content.decode(), action)
    pairing_changes.repair_draft(Round.objects.get(tournament=t), arbiter)  # another arbiter
    response = client.post(action, data, follow=True)
    assert any("changed meanwhile" in m for m in messages_of(response))
    assert Round.objects.get(tournament=t).state == Round.State.DRAFT


def test_remove_and_cancel_clicked_twice(arbiter):
    t = start(arbiter)
    player = t.players.get(tpn=5)
    client = client_of(arbiter)
    action = reverse("arbiter-player-remove", args=[t.pk, player.pk])
    client.post(action)
    response = client.post(action, follow=True)
    assert response.status_code == 200
    assert "This player was removed meanwhile: nothing was done." in messages_of(response)
    assert AuditEntry.objects.filter(action="remove player").count() == 1
    other = Player.objects.filter(tournament=t).first()
    bye = services.request_bye(other, arbiter, round_number=1, kind="H")
    cancel = reverse("arbiter-bye-cancel", args=[t.pk, bye.pk])
    client.post(cancel)
    response = client.post(cancel, follow=True)
    assert "This bye was already cancelled." in messages_of(response)


def test_next_only_leads_to_this_site(arbiter):
    t = start(arbiter)
    client = client_of(arbiter)
    action = reverse("arbiter-pair", args=[t.pk])
    services.pair_next_round(t, arbiter)
    response = client.post(action, {"next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "arbiter-tournament", args=[t.pk]
    )
    response = client.post(action, {"next": "//evil.example/x"})
    assert "evil" not in response["Location"]
    response = client.post(action, {"next": round_url(t)})
    assert response["Location"] == round_url(t)
