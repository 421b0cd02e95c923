"""Several players at once, unpublishing, confirmations, late entries' half-point byes."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, ByeRequest, Game, Result, Round
from tournaments.services import bulk

from .conftest import make_tournament
from .test_services import play

pytestmark = pytest.mark.django_db


def ticked(t, *tpns):
    return list(t.players.filter(tpn__in=tpns))


def test_byes_for_several_players_at_once_each_audited(tournament, arbiter):
    bulk.apply_to_players(tournament, arbiter, ticked(tournament, 2, 5, 7), action="H",
                          round_number=2)
    requests = ByeRequest.objects.filter(player__tournament=tournament, round_number=2)
    assert sorted(r.player.tpn for r in requests) == [2, 5, 7]
    assert {r.kind for r in requests} == {"H"}
    assert AuditEntry.objects.filter(tournament=tournament, action="request bye").count() == 3


def test_one_refusal_undoes_the_whole_batch(tournament, arbiter):
    services.withdraw_player(tournament.players.get(tpn=5), arbiter, from_round=2)
    with pytest.raises(services.ServiceError, match="Player .*not due to play.*Nothing was done"):
        bulk.apply_to_players(tournament, arbiter, ticked(tournament, 2, 5), action="A",
                              round_number=3)
    assert not ByeRequest.objects.filter(player__tournament=tournament).exists()


def test_several_withdrawals_from_the_dashboard(client, arbiter, tournament):
    client.force_login(arbiter)
    players = ticked(tournament, 3, 4)
    response = client.post(
        reverse("arbiter-players-bulk", args=[tournament.pk]),
        {"players": [p.pk for p in players], "action": "withdraw", "round_number": "2"},
        follow=True,
    )
    assert "Withdraw from round 2" in response.content.decode()
    assert {p.withdrawn_from_round for p in ticked(tournament, 3, 4)} == {2}
    page = client.get(reverse("arbiter-tournament", args=[tournament.pk])).content.decode()
    assert 'form="bulk-form"' in page and 'id="bulk-form"' in page


def test_several_players_out_of_a_draft_with_one_re_pairing(arbiter, tournament):
    services.draw_initial_color(tournament, arbiter, random.Random(4))
    draft = services.pair_next_round(tournament, arbiter)
    out = ticked(tournament, 1, 6)
    new = bulk.leave_draft_many(draft, arbiter, players=out, kind="A")
    rows = {g.white.tpn: g.result for g in new.games.filter(black__isnull=True)}
    assert rows == {1: Result.ABSENT, 6: Result.ABSENT}
    assert new.games.filter(board__isnull=False).count() == 4
    assert AuditEntry.objects.filter(tournament=tournament, action="pair round").count() == 2


def test_a_published_round_without_results_can_be_unpublished(client, arbiter, tournament):
    services.draw_initial_color(tournament, arbiter, random.Random(4))
    rnd = services.publish_round(services.pair_next_round(tournament, arbiter), arbiter)
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-round", args=[tournament.pk, 1])).content.decode()
    assert "Unpublish round 1" in page
    client.post(reverse("arbiter-round-unpublish", args=[tournament.pk, 1]), {"round": rnd.pk})
    rnd.refresh_from_db()
    assert rnd.state == Round.State.DRAFT and rnd.published_at is None
    assert client.get(reverse("public-round", args=[tournament.pk, 1])).status_code == 404
    assert AuditEntry.objects.filter(action="unpublish round").count() == 1


def test_a_round_with_a_result_stays_published(arbiter, tournament):
    services.draw_initial_color(tournament, arbiter, random.Random(4))
    rnd = services.publish_round(services.pair_next_round(tournament, arbiter), arbiter)
    game = rnd.games.get(board=3)
    services.set_result(game, arbiter, Result.DRAW)
    with pytest.raises(services.ServiceError, match="has results \\(board 3\\)"):
        services.unpublish_round(rnd, arbiter)


def test_withdraw_and_unpair_ask_for_confirmation(client, arbiter, tournament):
    services.draw_initial_color(tournament, arbiter, random.Random(4))
    services.pair_next_round(tournament, arbiter)
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-round", args=[tournament.pk, 1])).content.decode()
    assert '<details class="confirm inline"><summary>Unpair…</summary>' in page
    player = tournament.players.get(tpn=1)
    page = client.get(reverse("arbiter-player", args=[tournament.pk, player.pk])).content.decode()
    assert '<details class="confirm"><summary>Withdraw…</summary>' in page


def test_late_entries_get_half_point_byes_where_the_rules_say_so(arbiter):
    t = make_tournament(arbiter, players=6, rounds=5, late_entry_half_point_byes=True)
    services.draw_initial_color(t, arbiter, random.Random(4))
    play(services.pair_next_round(t, arbiter), arbiter, random.Random(5))
    late = services.admit_late_entry(t, arbiter, arrival_round=3, name="Late, Lara", rating=1500)
    # Round 1 was played: a half-point bye row; round 2 is not paired yet: a request.
    assert Game.objects.get(round__number=1, white=late).result == Result.HALF_BYE
    rnd2 = services.pair_next_round(t, arbiter)
    assert rnd2.games.get(white=late).result == Result.HALF_BYE
    assert not rnd2.games.filter(black=late).exists()
    play(rnd2, arbiter, random.Random(6))
    score = {s.player.pk: s.score for s in services.standings(t)}
    assert score[late.pk] == 10
    rnd3 = services.pair_next_round(t, arbiter)
    assert rnd3.games.filter(board__isnull=False, white=late).exists() or rnd3.games.filter(
        black=late
    ).exists()


def test_late_entries_score_nothing_by_default(arbiter):
    t = make_tournament(arbiter, players=6, rounds=5)
    services.draw_initial_color(t, arbiter, random.Random(4))
    play(services.pair_next_round(t, arbiter), arbiter, random.Random(5))
    late = services.admit_late_entry(t, arbiter, arrival_round=3, name="Late, Lara", rating=1500)
    assert not Game.objects.filter(white=late).exists()
    assert not ByeRequest.objects.filter(player=late).exists()
