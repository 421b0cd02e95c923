"""Refusals and bookkeeping of the services that do not need the engine."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import AuditEntry, ByeRequest, Game, Result, Round

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def finished_round(t, number: int, results: list[tuple[int, int, str]]) -> Round:
    """A finished round written directly: (white TPN, black TPN or 0, result)."""
    rnd = Round.objects.create(tournament=t, number=number, state=Round.State.FINISHED)
    players = {p.tpn: p for p in t.players.all()}
    for board, (white, black, result) in enumerate(results, start=1):
        Game.objects.create(
            round=rnd, board=board if black else None, white=players[white],
            black=players.get(black), result=result,
        )
    return rnd


def test_requests_for_rounds_already_paired_or_out_of_range_are_refused(tournament, arbiter):
    player = tournament.players.get(tpn=1)
    finished_round(
        tournament, 1,
        [(1, 6, "1-0"), (2, 7, "1-0"), (3, 8, "1-0"), (4, 9, "0-1"), (5, 10, "1/2-1/2")],
    )
    with pytest.raises(services.ServiceError, match="Round 1 is already paired"):
        services.request_bye(player, arbiter, round_number=1, kind=ByeRequest.Kind.HALF)
    with pytest.raises(services.ServiceError, match="only 5 rounds"):
        services.request_bye(player, arbiter, round_number=6, kind=ByeRequest.Kind.HALF)
    with pytest.raises(services.ServiceError, match="does not allow full-point byes"):
        services.request_bye(player, arbiter, round_number=2, kind=ByeRequest.Kind.FULL)
    with pytest.raises(services.ServiceError, match="round 2 at the earliest"):
        services.withdraw_player(player, arbiter, from_round=1)
    with pytest.raises(services.ServiceError, match="round 2 at the earliest"):
        services.admit_late_entry(tournament, arbiter, arrival_round=1, name="Too Early")
    with pytest.raises(services.ServiceError, match="late entry"):
        services.add_player(tournament, arbiter, name="After Start")
    with pytest.raises(services.ServiceError, match="pairing system is fixed"):
        services.update_tournament(tournament, arbiter, pairing_system="2017")


def test_withdrawal_cancels_later_bye_requests_and_can_be_reinstated(tournament, arbiter):
    player = tournament.players.get(tpn=4)
    services.request_bye(player, arbiter, round_number=3, kind=ByeRequest.Kind.HALF)
    services.request_bye(player, arbiter, round_number=1, kind=ByeRequest.Kind.ABSENT)
    services.withdraw_player(player, arbiter, from_round=2)
    assert list(player.bye_requests.values_list("round_number", flat=True)) == [1]
    with pytest.raises(services.ServiceError, match="not due to play in round 3"):
        services.request_bye(player, arbiter, round_number=3, kind=ByeRequest.Kind.HALF)
    services.reinstate_player(player, arbiter)
    player.refresh_from_db()
    assert player.withdrawn_from_round is None


def test_engine_state_holds_results_absences_and_presets(tournament, arbiter):
    from pairing.model import Color, ResultCode, RoundEntry

    finished_round(
        tournament, 1,
        [(1, 6, "+/-"), (2, 7, "-/-"), (3, 8, "0/0"), (4, 9, "0-1"), (5, 10, "1/2-1/2")],
    )
    services.request_bye(tournament.players.get(tpn=2), arbiter, round_number=2, kind="H")
    services.withdraw_player(tournament.players.get(tpn=3), arbiter, from_round=2)
    state = services.engine_state(tournament, pairing_round=2)
    entries = {p.tpn: p.rounds for p in state.players}
    assert entries[1] == (RoundEntry(6, Color.WHITE, ResultCode.FORFEIT_WIN),)
    assert entries[6] == (RoundEntry(1, Color.BLACK, ResultCode.FORFEIT_LOSS),)
    assert entries[7] == (RoundEntry(2, Color.BLACK, ResultCode.FORFEIT_LOSS),)
    assert entries[8] == (RoundEntry(None, None, ResultCode.ZERO_POINT_BYE),)
    assert entries[2][1] == RoundEntry(None, None, ResultCode.HALF_POINT_BYE)
    assert entries[3][1] == RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)  # withdrawn
    assert len(entries[4]) == 1  # due to be paired
    assert state.initial_color is None and state.total_rounds == 5


def test_standings_share_ranks_on_equal_scores(tournament):
    finished_round(
        tournament, 1,
        [(1, 6, "1-0"), (2, 7, "1-0"), (3, 8, "1/2-1/2"), (4, 9, "0-1"), (5, 10, "1/2-1/2")],
    )
    rows = [(s.rank_label, s.player.tpn, s.score) for s in services.standings(tournament)]
    assert rows[:3] == [("1-3", 1, 10), ("1-3", 2, 10), ("1-3", 9, 10)]
    assert rows[3:7] == [("4-7", 3, 5), ("4-7", 5, 5), ("4-7", 8, 5), ("4-7", 10, 5)]
    assert rows[-1] == ("8-10", 7, 0)


def test_results_after_the_next_round_is_paired_are_corrections(tournament, arbiter):
    r1 = finished_round(
        tournament, 1,
        [(1, 6, "1-0"), (2, 7, "1-0"), (3, 8, "1-0"), (4, 9, "0-1"), (5, 10, "1-0")],
    )
    services.set_result(r1.games.get(board=1), arbiter, Result.DRAW)  # next round not paired: fine
    Round.objects.create(tournament=tournament, number=2)
    with pytest.raises(services.ServiceError, match="Art. 4.3"):
        services.set_result(r1.games.get(board=1), arbiter, Result.BLACK_WINS)
    change = AuditEntry.objects.get(action="change result")
    assert (change.before, change.after, change.actor, change.round_number) == (
        "1-0", "1/2-1/2", arbiter, 1
    )


def test_a_bye_has_no_result_to_enter(tournament, arbiter):
    rnd = finished_round(tournament, 1, [(1, 0, Result.PAIRING_BYE)])
    rnd.state = Round.State.PUBLISHED
    rnd.save()
    with pytest.raises(services.ServiceError, match="has a bye"):
        services.set_result(rnd.games.get(), arbiter, Result.WHITE_WINS)


def test_trf_with_accelerations_is_refused(arbiter):
    t = make_tournament(arbiter, players=4)
    line = "250 " + "    " + " " + " 1.0" + " " + "  1" + " " + "  2" + " " + "   1" + " " + "   2"
    text = services.export_trf(t).replace("001", line + "\n001", 1)
    with pytest.raises(services.ServiceError, match="accelerated"):
        services.import_trf(text, arbiter)


def test_standings_break_ties_with_the_tournaments_tiebreaks(arbiter):
    t = make_tournament(arbiter, players=4, tiebreaks="BH")
    # Round 1: 1 beats 3, 2 beats 4. Round 2: 1 beats 2, 3 beats 4.
    finished_round(t, 1, [(1, 3, "1-0"), (2, 4, "1-0")])
    finished_round(t, 2, [(1, 2, "1-0"), (3, 4, "1-0")])
    rows = [(s.rank_label, s.player.tpn, s.score, s.tiebreaks) for s in services.standings(t)]
    # 2 and 3 both have 1 point; Buchholz: 2 met 4 (0) and 1 (2) = 2, 3 met 1 (2) and 4 (0) = 2.
    assert rows == [
        ("1", 1, 20, ("2",)),
        ("2-3", 2, 10, ("2",)),
        ("2-3", 3, 10, ("2",)),
        ("4", 4, 0, ("2",)),
    ]
    assert services.tiebreak_names(t) == ("BH",)
    assert [s.score for s in services.standings(t, after_round=1)] == [10, 10, 0, 0]


def test_an_unknown_tiebreak_code_is_refused(arbiter):
    with pytest.raises(services.ServiceError, match="Tie-breaks"):
        services.create_tournament(arbiter, name="X", rounds=5, tiebreaks="BH,NOPE")


def test_trf_carries_the_tiebreaks_both_ways(arbiter):
    t = make_tournament(arbiter, players=4, tiebreaks="bh/c1\nBH,DE")
    text = services.export_trf(t)
    assert "202 BH/C1,BH,DE" in text.splitlines()
    assert services.import_trf(text, arbiter).tiebreaks == "BH/C1,BH,DE"
