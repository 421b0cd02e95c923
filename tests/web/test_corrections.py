"""Corrections of C.04.2 Art. 4.3 (results, colours, ratings) through the services."""

from __future__ import annotations

import random

import pytest

from tests.web.conftest import make_tournament
from tournaments import services
from tournaments.models import AuditEntry, Game, Result, Round
from tournaments.services import corrections
from tournaments.services.corrections import Timing

pytestmark = pytest.mark.django_db


def start(arbiter, players=8, rounds=5):
    t = make_tournament(arbiter, players=players, rounds=rounds)
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    return t


def play_round(t, arbiter, *, finish=True) -> Round:
    """Pair, publish, and let White win every board (finish unless told not to)."""
    rnd = services.pair_next_round(t, arbiter)
    services.publish_round(rnd, arbiter)
    services.set_results(
        rnd, arbiter, {g.pk: Result.WHITE_WINS for g in rnd.games.all() if not g.is_bye}
    )
    if finish:
        services.finish_round(rnd, arbiter)
    return rnd


def board1(rnd: Round) -> Game:
    return rnd.games.select_related("white", "black").get(board=1)


def score(t, player) -> int:
    return next(s.score for s in services.standings(t) if s.player.pk == player.pk)


def last_entry() -> AuditEntry:
    return AuditEntry.objects.order_by("-pk").first()


def test_result_corrected_before_the_next_pairing_moves_standings_and_next_pairing(arbiter):
    t = start(arbiter)
    rnd = play_round(t, arbiter)
    game = board1(rnd)
    assert score(t, game.black) == 0
    outcome = corrections.correct_result(
        game, arbiter, result=Result.BLACK_WINS, reason="scoresheet signed 0-1"
    )
    assert outcome.timing is Timing.BEFORE_NEXT_PAIRING
    game.refresh_from_db()
    assert game.result == Result.BLACK_WINS and game.rating_result == ""
    assert score(t, game.black) == 10 and score(t, game.white) == 0
    state = services.engine_state(t, pairing_round=2)
    assert state.players[game.black.tpn - 1].rounds[0].result.value == "1"
    entry = last_entry()
    assert entry.action == "correct result" and entry.article == "C.04.2 4.3.1"
    assert entry.before["result"] == "1-0" and entry.after["result"] == "0-1"
    assert "scoresheet signed 0-1" in entry.reason and entry.actor == arbiter


def test_result_corrected_while_the_next_round_runs_keeps_its_pairing(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    pairs_before = [(g.white_id, g.black_id) for g in rnd2.games.all()]
    game = board1(rnd1)
    outcome = corrections.correct_result(game, arbiter, result=Result.DRAW, reason="both signed")
    assert outcome.timing is Timing.NEXT_ROUND_RUNNING
    assert "pairing of the next round stands" in outcome.message
    assert [(g.white_id, g.black_id) for g in rnd2.games.all()] == pairs_before
    # The pairing after it (round 3) reads the corrected round 1.
    services.set_results(
        rnd2, arbiter, {g.pk: Result.DRAW for g in rnd2.games.all() if not g.is_bye}
    )
    services.finish_round(rnd2, arbiter)
    state = services.engine_state(t, pairing_round=3)
    assert state.players[game.white.tpn - 1].rounds[0].result.value == "="
    entry = AuditEntry.objects.get(action="correct result")
    assert entry.before["result"] == "1-0" and entry.after["result"] == "1/2-1/2"
    assert Timing.NEXT_ROUND_RUNNING.value in entry.reason


def test_result_corrected_after_the_next_round_is_for_rating_only(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    play_round(t, arbiter)
    game = board1(rnd1)
    before = {s.player.pk: s.score for s in services.standings(t)}
    outcome = corrections.correct_result(
        game, arbiter, result=Result.BLACK_WINS, reason="notified after round 2"
    )
    assert outcome.timing is Timing.RATING_ONLY
    assert "rating purposes only" in outcome.message
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS  # what pairings and standings read
    assert game.rating_result == Result.BLACK_WINS  # kept beside it for the rating report
    assert {s.player.pk: s.score for s in services.standings(t)} == before
    entry = last_entry()
    assert entry.action == "correct result (rating only)"
    assert entry.before["rating_result"] == "" and entry.after["rating_result"] == "0-1"


def test_result_correction_refused_while_the_next_round_is_a_draft(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    services.pair_next_round(t, arbiter)
    with pytest.raises(services.ServiceError, match="unpair it"):
        corrections.correct_result(board1(rnd1), arbiter, result=Result.DRAW, reason="x")


def test_a_correction_needs_a_reason(arbiter):
    t = start(arbiter)
    rnd = play_round(t, arbiter)
    with pytest.raises(services.ServiceError, match="reason"):
        corrections.correct_result(board1(rnd), arbiter, result=Result.DRAW, reason="  ")


def test_colours_corrected_before_the_next_pairing(arbiter):
    t = start(arbiter)
    rnd = play_round(t, arbiter)
    game = board1(rnd)
    white, black = game.white, game.black
    outcome = corrections.correct_colours(game, arbiter, reason="players swapped seats")
    assert outcome.timing is Timing.BEFORE_NEXT_PAIRING
    game.refresh_from_db()
    assert (game.white_id, game.black_id) == (black.pk, white.pk)
    assert game.result == Result.BLACK_WINS  # the same player won
    assert score(t, white) == 10
    state = services.engine_state(t, pairing_round=2)
    assert state.players[white.tpn - 1].rounds[0].color.value == "b"
    entry = last_entry()
    assert entry.action == "correct colours" and entry.article == "C.04.2 4.3.2"
    assert entry.before["white"] == white.name and entry.after["white"] == black.name


def test_colours_corrected_while_the_next_round_runs(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    pairs = [(g.white_id, g.black_id) for g in rnd2.games.all()]
    game = board1(rnd1)
    outcome = corrections.correct_colours(game, arbiter, reason="seen on the video")
    assert outcome.timing is Timing.NEXT_ROUND_RUNNING
    assert [(g.white_id, g.black_id) for g in rnd2.games.all()] == pairs
    game.refresh_from_db()
    assert game.black.pk == board1(rnd1).black.pk and game.result == Result.BLACK_WINS


def test_colours_corrected_after_the_next_round_for_rating_only(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    play_round(t, arbiter)
    game = board1(rnd1)
    outcome = corrections.correct_colours(game, arbiter, reason="late report")
    assert outcome.timing is Timing.RATING_ONLY
    fresh = Game.objects.get(pk=game.pk)
    assert (fresh.white_id, fresh.black_id, fresh.result) == (
        game.white_id, game.black_id, game.result,
    )
    assert fresh.rating_colors_swapped
    assert last_entry().action == "correct colours (rating only)"


def test_rating_corrected_before_round_4_recomputes_tpns(arbiter):
    t = start(arbiter)
    play_round(t, arbiter)
    low = t.players.order_by("-tpn").first()
    effect = corrections.correct_rating(low, arbiter, rating=2800, reason="wrong list month")
    low.refresh_from_db()
    assert low.tpn == 1 and low.rating == 2800
    assert "recomputed" in effect
    entry = last_entry()
    assert entry.action == "correct rating" and "4.3.3" in entry.article
    assert entry.before["rating"] != 2800 and entry.after["rating"] == 2800
    assert entry.before["tpn"] == 8 and entry.after["tpn"] == 1


def test_rating_corrected_after_round_4_keeps_tpns_and_says_why(arbiter):
    t = start(arbiter, players=8, rounds=5)
    for _ in range(3):
        play_round(t, arbiter)
    services.pair_next_round(t, arbiter)  # round 4 paired: TPNs frozen
    low = t.players.order_by("-tpn").first()
    effect = corrections.correct_rating(low, arbiter, rating=2800, reason="FIDE list")
    low.refresh_from_db()
    assert low.tpn == 8 and low.rating == 2800
    assert "frozen" in effect and "2.3" in effect
    assert "frozen" in last_entry().reason


def test_rating_only_corrections_appear_as_trf_comments(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    play_round(t, arbiter)
    game = board1(rnd1)
    before = services.export_trf(t)
    corrections.correct_result(game, arbiter, result=Result.DRAW, reason="late")
    corrections.correct_colours(game, arbiter, reason="late")
    after = services.export_trf(t)
    rows = [line for line in after.splitlines() if not line.startswith("###")]
    assert rows == before.splitlines()  # the records the engines read do not move
    assert after.splitlines()[-1] == (
        f"### round 1: board 1 for rating only (Art. 4.3, notified late): "
        f"{game.black.tpn}-{game.white.tpn} 1/2-1/2"
    )


def test_rating_correction_moves_a_rating_based_tiebreak(arbiter):
    t = make_tournament(arbiter, players=8, rounds=5, tiebreaks="ARO")
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    rnd = play_round(t, arbiter)
    game = board1(rnd)

    def aro(player):
        return next(s.tiebreaks[0] for s in services.standings(t) if s.player.pk == player.pk)

    before = aro(game.white)
    corrections.correct_rating(game.black, arbiter, rating=game.black.rating + 200, reason="x")
    after = aro(game.white)
    assert before != after and int(after) == int(before) + 200


def test_a_correction_made_after_the_next_pairing_is_explained_in_the_trf(arbiter):
    """Issue 20: round 2 was paired with the old result of round 1; without a ``###`` line a
    checker re-pairing round 2 from the file flags it with no explanation."""
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = play_round(t, arbiter, finish=False)
    game = board1(rnd1)
    corrections.correct_result(game, arbiter, result=Result.DRAW, reason="both signed ½")
    services.finish_round(rnd2, arbiter)
    lines = services.export_trf(t).splitlines()
    comments = [line for line in lines if line.startswith("###")]
    assert comments == [
        f"### round 2: paired before board 1 of round 1 was corrected (Art. 4.3, notified "
        f"after the next pairing, before the end of the next round): "
        f"{game.white.tpn}-{game.black.tpn} 1-0 corrected to 1/2-1/2"
    ]
    # The result records carry the corrected round 1 (the engines read those).
    white = next(line for line in lines if line.startswith(f"001 {game.white.tpn:4d}"))
    assert f"{game.black.tpn:4d} w =" in white


def test_colours_corrected_after_the_next_pairing_are_explained_in_the_trf(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    play_round(t, arbiter, finish=False)
    game = board1(rnd1)
    corrections.correct_colours(game, arbiter, reason="colours swapped at the board")
    comments = [line for line in services.export_trf(t).splitlines() if line.startswith("###")]
    assert comments == [
        f"### round 2: paired before board 1 of round 1 was corrected (Art. 4.3, notified "
        f"after the next pairing, before the end of the next round): "
        f"{game.white.tpn}-{game.black.tpn} 1-0 corrected to "
        f"{game.black.tpn}-{game.white.tpn} 0-1"
    ]
