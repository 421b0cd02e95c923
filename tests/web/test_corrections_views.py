"""The correction workflows through the dashboard, late entries and withdrawals, the audit
trail's views and exports, and who may do what."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.web.test_corrections import board1, play_round, start
from tests.web.test_corrections_pairing import rematch_text, tpn_pairs
from tournaments import services
from tournaments.models import AuditEntry, ByeRequest, Game, Player, Result, Round
from tournaments.services import corrections, pairing_changes

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_dashboard_corrects_a_result_and_says_which_case(client, arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    game = board1(rnd1)
    client.force_login(arbiter)
    url = reverse("arbiter-game-correct", args=[t.pk, 1, game.pk])
    page = client.get(url)
    assert "after the next pairing, before the end of the next round" in page.content.decode()
    response = client.post(
        url, {"action": "result", "result": Result.DRAW, "reason": "arbiter's error"}, follow=True
    )
    assert any("pairing of the next round stands" in m for m in messages_of(response))
    game.refresh_from_db()
    assert game.result == Result.DRAW
    entry = AuditEntry.objects.get(action="correct result")
    assert entry.actor == arbiter and "arbiter's error" in entry.reason


def test_dashboard_rating_only_correction_of_colours(client, arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    play_round(t, arbiter)
    game = board1(rnd1)
    client.force_login(arbiter)
    url = reverse("arbiter-game-correct", args=[t.pk, 1, game.pk])
    assert "rating purposes only" in client.get(url).content.decode()
    response = client.post(url, {"action": "colours", "reason": "late"}, follow=True)
    assert any("rating purposes only" in m for m in messages_of(response))
    game.refresh_from_db()
    assert game.rating_colors_swapped and game.result == Result.WHITE_WINS
    assert "for rating: colours exchanged" in client.get(
        reverse("arbiter-round", args=[t.pk, 1])
    ).content.decode()


def test_dashboard_rating_correction_before_and_after_the_freeze(client, arbiter):
    t = start(arbiter)
    low = t.players.order_by("-tpn").first()
    client.force_login(arbiter)
    url = reverse("arbiter-rating-correct", args=[t.pk, low.pk])
    assert "recomputed" in client.get(url).content.decode()
    response = client.post(url, {"rating": 2900, "reason": "typo"}, follow=True)
    assert any("TPNs recomputed" in m for m in messages_of(response))
    low.refresh_from_db()
    assert low.tpn == 1
    for _ in range(3):
        play_round(t, arbiter)
    services.pair_next_round(t, arbiter)
    other = t.players.get(tpn=8)
    url = reverse("arbiter-rating-correct", args=[t.pk, other.pk])
    assert "TPNs are frozen" in client.get(url).content.decode()
    response = client.post(url, {"rating": 2950, "reason": "list"}, follow=True)
    assert any("frozen" in m for m in messages_of(response))
    other.refresh_from_db()
    assert other.tpn == 8 and other.rating == 2950
    assert AuditEntry.objects.filter(action="correct rating").count() == 2


def test_dashboard_manual_pairing_preview_warns_then_saves(client, arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    text, pair = rematch_text(rnd1, rnd2)
    client.force_login(arbiter)
    url = reverse("arbiter-pairing", args=[t.pk, 2])
    page = client.post(url, {"text": text, "action": "preview"})
    body = page.content.decode()
    assert "already played" in body and "What the engine would pair" in body
    refused = client.post(url, {"text": text, "action": "save"}, follow=True)
    assert any("accept the warnings" in m for m in messages_of(refused))
    assert pair not in tpn_pairs(rnd2)
    client.post(url, {"text": text, "action": "save", "accept_warnings": "on", "note": "test"})
    assert pair in tpn_pairs(rnd2)
    assert AuditEntry.objects.filter(action="manual pairing (draft)").count() == 1


def test_dashboard_swap_rewrites_the_text(client, arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    (a, b), (c, d) = tpn_pairs(rnd)[:2]
    client.force_login(arbiter)
    page = client.post(
        reverse("arbiter-pairing", args=[t.pk, 1]),
        {"text": pairing_changes.pairing_text(rnd), "action": "swap", "swap_a": a, "swap_b": c},
    )
    assert f"{c} - {b}" in page.content.decode() and f"{a} - {d}" in page.content.decode()
    assert AuditEntry.objects.filter(action="manual pairing (draft)").count() == 0


def test_dashboard_published_change_needs_a_listed_reason(client, arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    text, pair = rematch_text(rnd1, rnd2)
    client.force_login(arbiter)
    url = reverse("arbiter-pairing", args=[t.pk, 2])
    assert "4.4.3" in client.get(url).content.decode()
    data = {"text": text, "action": "save", "accept_warnings": "on", "note": "agreed"}
    refused = client.post(url, data, follow=True)
    assert any("Art. 4.4" in m for m in messages_of(refused))
    bogus = client.post(url, {**data, "reason_code": "9.9"}, follow=True)
    assert pair not in tpn_pairs(rnd2) and bogus.status_code == 200
    client.post(url, {**data, "reason_code": "4.4.2"})
    assert pair in tpn_pairs(rnd2)
    assert AuditEntry.objects.get(action="change published pairing").article == "C.04.2 4.4.2"


def test_dashboard_repair_draft(client, arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    client.force_login(arbiter)
    client.post(reverse("arbiter-round-repair", args=[t.pk, 1]))
    assert Round.objects.get(tournament=t).state == Round.State.DRAFT
    assert AuditEntry.objects.filter(action="re-pair draft").count() == 1


def test_late_entry_into_a_published_round_then_paired_by_hand_4_4_4(client, arbiter):
    t = start(arbiter, players=7)
    play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    client.force_login(arbiter)
    client.post(
        reverse("arbiter-late-entry", args=[t.pk]),
        {"name": "Late, Comer", "rating": 1500, "arrival_round": 2, "into_paired_round": "on"},
    )
    late = Player.objects.get(name="Late, Comer")
    assert late.arrival_round == 2 and late.tpn == 8  # lowest rating: last in the initial order
    pab = rnd2.games.get(result=Result.PAIRING_BYE)
    boards = tpn_pairs(rnd2) + [(pab.white.tpn, late.tpn)]
    pairing_changes.change_pairing(
        rnd2, arbiter, boards=boards, bye=None, reason_code="4.4.4",
        note="late entry plays the bye player", accept_warnings=True,
    )
    assert not rnd2.games.filter(result=Result.PAIRING_BYE).exists()
    assert Game.objects.get(round=rnd2, black=late).manual.startswith("4.4.4")
    assert AuditEntry.objects.filter(action="admit late entry", player=late).exists()
    trf = services.export_trf(t)
    assert "### round 2:" not in trf  # round 2 has no results yet: not exported
    services.set_results(
        rnd2, arbiter, {g.pk: Result.DRAW for g in rnd2.games.all() if not g.is_bye}
    )
    services.finish_round(rnd2, arbiter)
    trf = services.export_trf(t)
    comment = [line for line in trf.splitlines() if line.startswith("### round")]
    assert comment == [
        f"### round 2: board {g.board} {g.white.tpn}-{g.black.tpn} paired by hand "
        "(4.4.4 late entry plays the bye player)"
        for g in rnd2.games.exclude(manual="").select_related("white", "black")
    ] and comment
    assert "### player 8, late entry: paired from round 2 (C.04.2 Art. 2.4)" in trf.splitlines()
    from pairing.trf import read_trf

    assert len(read_trf(trf).players) == 8  # the comments do not disturb a TRF reader


def test_late_entry_without_the_option_is_refused_in_a_paired_round(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    with pytest.raises(services.ServiceError, match="at the earliest"):
        services.admit_late_entry(t, arbiter, arrival_round=1, name="X")


def test_late_entry_before_round_4_takes_its_tpn_and_scores_nothing_for_missed_rounds(arbiter):
    t = start(arbiter, players=6)
    play_round(t, arbiter)
    late = services.admit_late_entry(t, arbiter, arrival_round=2, name="Strong, Late", rating=2900)
    assert late.tpn == 1  # TPNs reassigned by the initial order (2.3, 2.5)
    state = services.engine_state(t, pairing_round=2)
    entry = state.players[0].rounds[0]
    assert entry.opponent is None and state.point_system.points_for(entry) == 0  # 2.4
    rnd2 = services.pair_next_round(t, arbiter)
    assert rnd2.games.filter(white=late).exists() or rnd2.games.filter(black=late).exists()


def test_withdrawal_and_announced_absence_take_players_out_of_the_pairing(arbiter):
    t = start(arbiter, players=6)
    play_round(t, arbiter)
    gone, away = t.players.get(tpn=2), t.players.get(tpn=3)
    services.request_bye(away, arbiter, round_number=3, kind=ByeRequest.Kind.ABSENT)
    services.withdraw_player(gone, arbiter, from_round=2)
    rnd2 = services.pair_next_round(t, arbiter)
    assert not rnd2.games.filter(white=gone).exists() and not rnd2.games.filter(black=gone).exists()
    assert rnd2.games.filter(result=Result.PAIRING_BYE).count() == 1  # 5 players: one PAB
    # Pairing the withdrawn player by hand is warned about (3.2).
    boards = tpn_pairs(rnd2)
    pab = rnd2.games.get(result=Result.PAIRING_BYE).white.tpn
    preview = pairing_changes.preview_pairing(rnd2, boards + [(pab, gone.tpn)], None)
    assert any("withdrawn or absent" in w for w in preview.warnings)
    services.publish_round(rnd2, arbiter)
    services.set_results(
        rnd2, arbiter, {g.pk: Result.DRAW for g in rnd2.games.all() if not g.is_bye}
    )
    services.finish_round(rnd2, arbiter)
    rnd3 = services.pair_next_round(t, arbiter)
    assert rnd3.games.get(white=away).result == Result.ABSENT  # announced absence, zero (3.3)
    assert AuditEntry.objects.filter(action="withdraw", player=gone, article="C.04.2 3.2").exists()


def test_audit_per_player_and_csv(client, arbiter):
    t = start(arbiter)
    rnd = play_round(t, arbiter)
    game = board1(rnd)
    corrections.correct_result(game, arbiter, result=Result.DRAW, reason="wrong sheet")
    other = t.players.exclude(pk__in=[game.white_id, game.black_id]).first()
    corrections.correct_rating(other, arbiter, rating=1000, reason="typo")
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-audit", args=[t.pk]), {"player": game.white_id})
    actions = [e.action for e in page.context["entries"]]
    assert "correct result" in actions and "correct rating" not in actions
    response = client.get(reverse("arbiter-audit-csv", args=[t.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert response["Content-Type"].startswith("text/csv")
    correction = next(r for r in rows if r["action"] == "correct result")
    assert correction["who"] == "arbiter" and correction["article"] == "C.04.2 4.3.1"
    assert '"result": "1-0"' in correction["before"]
    assert '"result": "1/2-1/2"' in correction["after"]
    assert len(rows) == AuditEntry.objects.filter(tournament=t).count()
    player_rows = client.get(reverse("arbiter-audit-csv", args=[t.pk]), {"player": other.pk})
    assert "correct rating" in player_rows.content.decode()
    assert "correct result" not in player_rows.content.decode()
    assert client.get(reverse("arbiter-audit", args=[t.pk]), {"player": "x"}).status_code == 404


def correction_posts(t, game, player):
    return [
        (reverse("arbiter-game-correct", args=[t.pk, 1, game.pk]),
         {"action": "result", "result": Result.DRAW, "reason": "x"}),
        (reverse("arbiter-game-correct", args=[t.pk, 1, game.pk]),
         {"action": "colours", "reason": "x"}),
        (reverse("arbiter-rating-correct", args=[t.pk, player.pk]),
         {"rating": 1000, "reason": "x"}),
        (reverse("arbiter-pairing", args=[t.pk, 2]),
         {"text": "1 - 2", "action": "save", "accept_warnings": "on"}),
        (reverse("arbiter-round-repair", args=[t.pk, 2]), {}),
        (reverse("arbiter-round-leave", args=[t.pk, 2]), {"player": player.pk, "kind": "withdraw"}),
        (reverse("arbiter-late-entry", args=[t.pk]),
         {"name": "Intruder", "arrival_round": 2, "into_paired_round": "on"}),
        (reverse("arbiter-player-withdraw", args=[t.pk, player.pk]), {"from_round": 3}),
    ]


@pytest.mark.parametrize("who", ["anonymous", "other arbiter"])
def test_nobody_else_can_correct_or_change(client, arbiter, other_arbiter, who):
    t = start(arbiter)
    rnd = play_round(t, arbiter)
    services.pair_next_round(t, arbiter)
    mine = services.create_tournament(other_arbiter, name="Other Open", rounds=3)
    assert mine.is_arbiter(other_arbiter)
    if who == "other arbiter":
        client.force_login(other_arbiter)
    game = board1(rnd)
    player = t.players.get(tpn=8)
    before_audit = AuditEntry.objects.filter(tournament=t).count()
    before_games = sorted(Game.objects.filter(round__tournament=t).values_list(
        "pk", "white_id", "black_id", "result"
    ))
    for url, data in correction_posts(t, game, player):
        response = client.post(url, data)
        if who == "anonymous":
            assert response.status_code == 302 and "/login" in response["Location"], url
        else:
            assert response.status_code == 403, url
        assert client.get(url).status_code in (302, 403, 405), url
    assert AuditEntry.objects.filter(tournament=t).count() == before_audit
    assert sorted(Game.objects.filter(round__tournament=t).values_list(
        "pk", "white_id", "black_id", "result"
    )) == before_games
    player.refresh_from_db()
    assert player.rating != 1000 and player.withdrawn_from_round is None
    assert not Player.objects.filter(name="Intruder").exists()
    for url in (reverse("arbiter-audit", args=[t.pk]), reverse("arbiter-audit-csv", args=[t.pk])):
        assert client.get(url).status_code in (302, 403)


@pytest.mark.parametrize("kind", ["withdraw", ByeRequest.Kind.ABSENT.value])
def test_a_player_leaves_a_draft_which_is_paired_again(client, arbiter, kind):
    t = start(arbiter, players=8)
    play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    assert not rnd2.games.filter(result=Result.PAIRING_BYE).exists()
    leaver = t.players.get(tpn=3)
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-round", args=[t.pk, 2]))
    assert "Take out and re-pair" in page.content.decode()
    response = client.post(
        reverse("arbiter-round-leave", args=[t.pk, 2]), {"player": leaver.pk, "kind": kind},
        follow=True,
    )
    assert any("paired again" in m for m in messages_of(response))
    new = Round.objects.get(tournament=t, number=2)
    assert new.state == Round.State.DRAFT
    on_board = new.games.exclude(black=None)
    assert not on_board.filter(white=leaver).exists() and not on_board.filter(black=leaver).exists()
    assert new.games.filter(result=Result.PAIRING_BYE).count() == 1  # 7 players now: a PAB
    leaver.refresh_from_db()
    if kind == "withdraw":
        assert leaver.withdrawn_from_round == 2
    else:
        assert new.games.get(white=leaver).result == Result.ABSENT
    entry = AuditEntry.objects.get(action="re-pair draft")
    assert entry.player == leaver and entry.before != entry.after


def test_leaving_a_published_round_is_refused(arbiter):
    t = start(arbiter)
    play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    with pytest.raises(services.ServiceError, match="4.4"):
        pairing_changes.leave_draft(rnd2, arbiter, player=t.players.get(tpn=1), kind="withdraw")


def test_a_long_manual_pairing_note_is_kept_whole(client, arbiter):
    """Issue 20: the form took 300 characters and Game.manual kept 120."""
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    text, pair = rematch_text(rnd1, rnd2)
    note = ("Board 3 arrived late and both players agreed to the change by the arbiter; " * 5)[:295]
    note = note.rstrip() + " END"
    client.force_login(arbiter)
    url = reverse("arbiter-pairing", args=[t.pk, 2])
    data = {"text": text, "action": "save", "accept_warnings": "on", "note": note,
            "reason_code": "4.4.2"}
    client.post(url, data)
    assert pair in tpn_pairs(rnd2)
    manual = {g.manual for g in rnd2.games.all() if g.manual}
    assert manual == {f"4.4.2 {note}"}
    assert note in client.get(reverse("arbiter-round", args=[t.pk, 2])).content.decode()
    services.set_results(
        rnd2, arbiter, {g.pk: Result.DRAW for g in rnd2.games.all() if not g.is_bye}
    )
    comments = [line for line in services.export_trf(t).splitlines() if "by hand" in line]
    assert comments and all(line.endswith(f"(4.4.2 {note})") for line in comments)


def test_the_edit_form_cannot_change_a_rating_once_round_4_is_paired(client, arbiter):
    """Issue 20: after round 4 the Edit form saved a new rating with no reason, bypassing
    'Correct the rating (4.3.3)'; the audit said only 'update player'."""
    t = start(arbiter)
    for _ in range(3):
        play_round(t, arbiter)
    services.pair_next_round(t, arbiter)
    player = t.players.get(tpn=5)
    url = reverse("arbiter-player", args=[t.pk, player.pk])
    client.force_login(arbiter)
    page = client.get(url).content.decode()
    assert reverse("arbiter-rating-correct", args=[t.pk, player.pk]) in page
    data = {"name": player.name, "rating": 2999, "federation": "SUI"}
    response = client.post(url, data, follow=True)
    player.refresh_from_db()
    assert player.rating != 2999 and player.federation == "SUI"  # the rest is saved
    assert not AuditEntry.objects.filter(action="update player", after__rating=2999).exists()
    with pytest.raises(services.ServiceError, match="4.3.3"):
        services.update_player(player, arbiter, rating=2999)
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.rating != 2999


@pytest.mark.parametrize("paired", [0, 1])
def test_the_edit_form_still_sets_a_rating_while_tpns_may_change(client, arbiter, paired):
    t = start(arbiter)
    for _ in range(paired):
        play_round(t, arbiter)
    player = t.players.get(tpn=5)
    client.force_login(arbiter)
    client.post(reverse("arbiter-player", args=[t.pk, player.pk]),
                {"name": player.name, "rating": 2999})
    player.refresh_from_db()
    assert player.rating == 2999 and player.tpn == 1
